// Lockstep in float32 against PyTorch eager in float32, on one core: a whole training step of
// MLP 2,64,64,3 and 2,256,256,3 (tanh, softmax cross-entropy, SGD with momentum), batch 32, on
// the widest vector path this processor has, in float64 (the reference) and float32 (--precision
// float32: the float kernels). Prints one JSON line per model and precision with samples/s (best
// of five), then PyTorch's step on the same models (tests/bench/torch_step.py, with Debian's
// python3-torch and the OpenBLAS it installs), then one line per model with Lockstep's float32
// step over PyTorch's float32 step. Target: above 1 at both sizes.
#include "core/rng.h"
#include "model/model.h"
#include "model/simd.h"
#include "timed_steps.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace lockstep;

constexpr std::size_t batch = 32;

// Steps per second of one model in one precision, best of five.
double steps_per_second(const ModelShape& shape, long steps) {
    Rng data_rng(5);
    std::vector<double> features(batch * 2), targets(batch);
    for (double& x : features)
        x = data_rng.normal();
    for (std::size_t k = 0; k < batch; ++k)
        targets[k] = double(k % 3);
    const BatchView view{features.data(), targets.data(), batch};
    double best = 0;
    for (int rep = 0; rep < 5; ++rep)
        best = std::max(best, bench::timed_steps(shape, view, steps));
    return best;
}

} // namespace

int main(int argc, char** argv) {
    const long steps = argc > 1 ? std::atol(argv[1]) : 300;
    const std::array<std::vector<int>, 2> models{std::vector<int>{2, 64, 64, 3},
                                                 std::vector<int>{2, 256, 256, 3}};
    std::map<std::string, double> float32_rate;
    for (const auto& layers : models) {
        std::string name;
        for (int w : layers) {
            if (!name.empty())
                name += ',';
            name += std::to_string(w);
        }
        for (Precision precision : {Precision::Float64, Precision::Float32}) {
            ModelShape shape;
            shape.layers = layers;
            shape.precision = precision;
            const double rate = steps_per_second(shape, steps) * double(batch);
            std::printf("{\"bench\": \"precision\", \"engine\": \"lockstep\", \"path\": \"%s\", "
                        "\"model\": \"%s\", \"precision\": \"%s\", \"batch\": %zu, "
                        "\"samples_per_s\": %.0f}\n",
                        simd::name(simd::active()), name.c_str(),
                        std::string(to_string(precision)).c_str(), batch, rate);
            if (precision == Precision::Float32)
                float32_rate[name] = rate;
        }
    }
    std::fflush(stdout);
    // PyTorch, one JSON line per model and dtype.
    const std::string command = std::string(LOCKSTEP_BENCH_TORCH_STEP) + " " +
                                std::to_string(steps) + " 2,64,64,3 2,256,256,3 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    std::map<std::string, double> torch_float32;
    std::array<char, 4096> line{};
    while (pipe && std::fgets(line.data(), int(line.size()), pipe.get())) {
        std::fputs(line.data(), stdout);
        const auto j = nlohmann::json::parse(line.data(), nullptr, false);
        if (j.is_object() && j.value("dtype", "") == "float32")
            torch_float32[j.value("model", "")] = j.value("samples_per_s", 0.0);
    }
    if (torch_float32.empty()) {
        std::printf("{\"bench\": \"precision\", \"pytorch\": \"not measured\"}\n");
        return 0;
    }
    for (const auto& [model, rate] : float32_rate)
        if (torch_float32.count(model) && torch_float32[model] > 0)
            std::printf("{\"bench\": \"precision\", \"model\": \"%s\", "
                        "\"lockstep_float32_over_pytorch_float32\": %.2f}\n",
                        model.c_str(), rate / torch_float32[model]);
    return 0;
}
