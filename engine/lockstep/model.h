#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep {

class Rng;

enum class Activation { Tanh, Relu, Sigmoid, Linear };
enum class LossKind { SoftmaxCrossEntropy, MeanSquaredError };

std::string_view to_string(Activation activation);
bool parse_activation(std::string_view text, Activation& out);

// The architecture of a multi-layer perceptron: layer widths from input to output. Hidden layers
// use `activation`; the output layer is linear and feeds the loss. Parameters are one flat vector
// in torch.nn.Linear layout: for each layer, weight[out][in] row by row, then bias[out].
struct ModelShape {
    std::vector<int> layers{2, 8, 2};
    Activation activation = Activation::Tanh;
    LossKind loss = LossKind::SoftmaxCrossEntropy;

    int inputs() const { return layers.front(); }
    int outputs() const { return layers.back(); }
    std::size_t layer_count() const { return layers.size() - 1; }
    std::size_t weight_offset(std::size_t layer) const;
    std::size_t bias_offset(std::size_t layer) const;
    std::size_t parameter_count() const;
    std::size_t widest() const;
};

// A batch viewed in place: `count` rows of `inputs` features, one target per row (a class index
// for cross-entropy, a value for MSE).
struct BatchView {
    const double* features = nullptr;
    const double* targets = nullptr;
    std::size_t count = 0;
};

struct LossResult {
    double loss = 0.0;       // mean loss over the batch
    std::size_t correct = 0; // classification: arg-max equals the label
    std::size_t count = 0;
};

// Scratch memory for forward and backward passes, reused between steps so training allocates
// nothing per step. One per worker.
struct Workspace {
    std::vector<double> activations; // every layer's outputs, for the backward pass
    std::vector<double> deltas;
    std::vector<double> scratch;
};

// Parameters drawn like torch.nn.Linear's default: U(-1/sqrt(in), 1/sqrt(in)).
std::vector<double> init_parameters(const ModelShape& shape, Rng& rng);

// Mean loss over the batch and its exact gradient (forward then backward pass). `gradient` must
// have parameter_count() entries; it is overwritten.
LossResult loss_and_gradient(const ModelShape& shape, std::span<const double> parameters,
                             const BatchView& batch, std::span<double> gradient, Workspace& work);

// Mean loss only (forward pass).
LossResult evaluate(const ModelShape& shape, std::span<const double> parameters,
                    const BatchView& batch, Workspace& work);

// Network outputs (logits for classification) for `count` rows; `out` has count*outputs entries.
void predict(const ModelShape& shape, std::span<const double> parameters, const double* features,
             std::size_t count, std::span<double> out, Workspace& work);

// A 64-bit FNV-1a hash over the parameters' 64-bit words: replicas with different bits get
// different hashes when they differ in one parameter, and almost surely otherwise.
std::uint64_t hash_parameters(std::span<const double> parameters);

// Parameter files: {"layers":[{"weight":[[...],...],"bias":[...]}, ...]}.
std::string parameters_to_json(const ModelShape& shape, std::span<const double> parameters);
// Throws lockstep::Error naming the layer and entry when the file does not fit `shape`.
std::vector<double> parameters_from_json(const ModelShape& shape, std::string_view json_text);

} // namespace lockstep
