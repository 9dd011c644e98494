#pragma once

#include <stdexcept>
#include <string>

namespace lockstep {

// Every engine failure that a user can cause (bad scenario, bad file, bad flag) is an Error whose
// message names what is wrong, in one line, ready to print.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message)
        : std::runtime_error(message) {}
};

} // namespace lockstep
