#include <cstdio>

int main() {
    std::puts("lockstep-cli");
    return 0;
}
