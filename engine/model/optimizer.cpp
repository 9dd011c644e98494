#include "model/optimizer.h"

#include "core/error.h"
#include "model/kernels.h"

#include <cmath>
#include <string>

namespace lockstep {

namespace {

// Rejects settings that would make an update undefined (a bias correction dividing by zero) or
// silently poison every parameter (a non-finite rate).
void check_config(const OptimizerConfig& config) {
    if (!std::isfinite(config.learning_rate) || config.learning_rate < 0.0)
        throw Error("optimizer learning_rate must be a finite number >= 0, got " +
                    std::to_string(config.learning_rate));
    if (config.kind == OptimizerKind::Sgd) {
        if (!std::isfinite(config.momentum) || config.momentum < 0.0)
            throw Error("optimizer momentum must be a finite number >= 0, got " +
                        std::to_string(config.momentum));
        return;
    }
    if (!(config.beta1 >= 0.0 && config.beta1 < 1.0))
        throw Error("optimizer beta1 must be in [0, 1), got " + std::to_string(config.beta1));
    if (!(config.beta2 >= 0.0 && config.beta2 < 1.0))
        throw Error("optimizer beta2 must be in [0, 1), got " + std::to_string(config.beta2));
    if (!(config.epsilon > 0.0) || !std::isfinite(config.epsilon))
        throw Error("optimizer epsilon must be a finite number > 0, got " +
                    std::to_string(config.epsilon));
}

void check_size(const AlignedBuffer& state, std::size_t expected, const char* name) {
    if (state.size() != expected)
        throw Error(std::string("optimizer state ") + name + " has " +
                    std::to_string(state.size()) + " entries, the model has " +
                    std::to_string(expected) + " parameters");
}

} // namespace

std::string_view to_string(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::Sgd:
        return "sgd";
    case OptimizerKind::Adam:
        return "adam";
    }
    return "unknown";
}

bool parse_optimizer(std::string_view text, OptimizerKind& out) {
    for (OptimizerKind kind : {OptimizerKind::Sgd, OptimizerKind::Adam})
        if (text == to_string(kind)) {
            out = kind;
            return true;
        }
    return false;
}

// Sizes only the state the chosen kind uses, so a checkpoint of SGD carries no empty Adam moments.
void Optimizer::retune(const OptimizerConfig& config) {
    if (config.kind != config_.kind)
        throw Error("optimizer.kind: cannot change while the run goes on; start the run again");
    check_config(config);
    config_ = config;
}

Optimizer::Optimizer(OptimizerConfig config, std::size_t parameter_count, Precision precision)
    : config_(config)
    , precision_(precision) {
    check_config(config_);
    if (config_.kind == OptimizerKind::Sgd) {
        state_.velocity.assign(parameter_count, 0.0);
    } else {
        state_.first_moment.assign(parameter_count, 0.0);
        state_.second_moment.assign(parameter_count, 0.0);
    }
}

void Optimizer::apply(std::span<double> parameters, std::span<const double> gradient) {
    const std::size_t n = parameters.size();
    if (gradient.size() != n)
        throw Error("optimizer got " + std::to_string(gradient.size()) + " gradient entries for " +
                    std::to_string(n) + " parameters");
    // The update kernels of the float set work in floats, on the same doubles.
    const auto sgd = precision_ == Precision::Float32 ? kernels::vector_kernels32().sgd
                                                      : kernels::vector_kernels().sgd;
    const auto adam = precision_ == Precision::Float32 ? kernels::vector_kernels32().adam
                                                       : kernels::vector_kernels().adam;
    if (config_.kind == OptimizerKind::Sgd) {
        check_size(state_.velocity, n, "velocity");
        sgd(parameters.data(), gradient.data(), state_.velocity.data(), n, config_.learning_rate,
            config_.momentum);
    } else {
        check_size(state_.first_moment, n, "first_moment");
        check_size(state_.second_moment, n, "second_moment");
        const double t = static_cast<double>(state_.step + 1);
        const kernels::AdamStep step{.learning_rate = config_.learning_rate,
                                     .beta1 = config_.beta1,
                                     .beta2 = config_.beta2,
                                     .epsilon = config_.epsilon,
                                     .correction1 = 1.0 - std::pow(config_.beta1, t),
                                     .correction2 = 1.0 - std::pow(config_.beta2, t)};
        adam(parameters.data(), gradient.data(), state_.first_moment.data(),
             state_.second_moment.data(), n, step);
    }
    ++state_.step;
}

} // namespace lockstep
