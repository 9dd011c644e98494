#pragma once

#include "core/aligned_buffer.h"
#include "model/model.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace lockstep {

enum class OptimizerKind { Sgd, Adam };

std::string_view to_string(OptimizerKind kind);
bool parse_optimizer(std::string_view text, OptimizerKind& out);

struct OptimizerConfig {
    OptimizerKind kind = OptimizerKind::Sgd;
    double learning_rate = 0.1;
    double momentum = 0.0; // SGD
    double beta1 = 0.9;    // Adam
    double beta2 = 0.999;
    double epsilon = 1e-8;
};

// Everything an optimizer remembers between steps, in the open so a checkpoint can save it and a
// view can show it. SGD uses `velocity`; Adam uses `first_moment` and `second_moment`.
struct OptimizerState {
    AlignedBuffer velocity;
    AlignedBuffer first_moment;
    AlignedBuffer second_moment;
    std::int64_t step = 0;
};

// SGD with momentum: v = mu*v + g; p -= lr*v.
// Adam: m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g^2; p -= lr * mhat / (sqrt(vhat) + eps).
// A float32 model's optimizer does its arithmetic in floats (its state stays float values).
class Optimizer {
public:
    Optimizer(OptimizerConfig config, std::size_t parameter_count,
              Precision precision = Precision::Float64);

    void apply(std::span<double> parameters, std::span<const double> gradient);
    // New hyperparameters (learning rate, momentum, betas, epsilon) from the next step on; the
    // state is kept. Throws lockstep::Error for another kind of optimizer.
    void retune(const OptimizerConfig& config);

    const OptimizerConfig& config() const { return config_; }
    Precision precision() const { return precision_; }
    const OptimizerState& state() const { return state_; }
    OptimizerState& state() { return state_; }

private:
    OptimizerConfig config_;
    Precision precision_;
    OptimizerState state_;
};

} // namespace lockstep
