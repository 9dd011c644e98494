#pragma once

#include "core/aligned_buffer.h"

#include <cstddef>
#include <cstdint>
#include <functional>
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

// The numbers a model trains in. Float64 is the reference. In a float32 model every parameter,
// activation, gradient and optimizer value is a float: the passes run on floats with the float
// kernels, and between passes the values wait in the engine's double buffers, which hold them
// exactly, so collectives, checkpoints and views handle both alike.
enum class Precision : std::uint8_t { Float64, Float32 };
std::string_view to_string(Precision precision);
bool parse_precision(std::string_view text, Precision& out);

// The architecture of a multi-layer perceptron: layer widths from input to output. Hidden layers
// use `activation`; the output layer is linear and feeds the loss. Parameters are one flat vector
// in torch.nn.Linear layout: for each layer, weight[out][in] row by row, then bias[out].
struct ModelShape {
    std::vector<int> layers{2, 8, 2};
    Activation activation = Activation::Tanh;
    LossKind loss = LossKind::SoftmaxCrossEntropy;
    Precision precision = Precision::Float64;

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
// nothing per step. One per worker; cache-line aligned.
struct Workspace {
    AlignedBuffer activations; // every layer's outputs, for the backward pass
    AlignedBuffer deltas;
    AlignedBuffer scratch; // transposed weights (and gradients gathered transposed)
    // A float32 model's pass: the same buffers in floats, and the parameters, gradient and
    // batch features it reads and writes as floats.
    struct Floats {
        AlignedVector<float> activations, deltas, scratch, parameters, gradient, features;
    } floats;
};

// Rows handled per forward/backward sweep. Large batches are cut into chunks of this size so the
// workspace stays small; every sum still runs over rows in ascending order, so chunking never
// changes a bit of the result. Code that runs the layers piece by piece cuts the rows the same.
constexpr std::size_t pass_rows = 128;

// Parameters drawn like torch.nn.Linear's default: U(-1/sqrt(in), 1/sqrt(in)), then rounded to
// the model's precision.
std::vector<double> init_parameters(const ModelShape& shape, Rng& rng);
// Every value as the nearest the precision holds (ties to even); float64 leaves them as they are.
void round_to_precision(Precision precision, std::span<double> values);

// Mean loss over the batch and its exact gradient (forward then backward pass). `gradient` must
// have parameter_count() entries; it is overwritten.
LossResult loss_and_gradient(const ModelShape& shape, std::span<const double> parameters,
                             const BatchView& batch, std::span<double> gradient, Workspace& work);

// As above, calling `done(layer)` on the calling thread as soon as that layer's slice of
// `gradient` is final (last layer first), while the pass goes on with the layers below it: what
// lets a layer's gradient leave for its collective during backward. Before the first layer it
// calls `done(layer_count())`: the last rows' forward pass is over and their backward begins.
// The gradient is bitwise that of the call without `done`.
using LayerDone = std::function<void(std::size_t layer)>;
LossResult loss_and_gradient(const ModelShape& shape, std::span<const double> parameters,
                             const BatchView& batch, std::span<double> gradient, Workspace& work,
                             const LayerDone& done);

// Mean loss only (forward pass).
LossResult evaluate(const ModelShape& shape, std::span<const double> parameters,
                    const BatchView& batch, Workspace& work);

// Network outputs (logits for classification) for `count` rows; `out` has count*outputs entries.
void predict(const ModelShape& shape, std::span<const double> parameters, const double* features,
             std::size_t count, std::span<double> out, Workspace& work);

// Layer by layer, for model parallelism: a pipeline stage owns a run of consecutive layers
// [first, end) and their parameters, the slice [weight_offset(first), weight_offset(end)) of the
// flat vector in the same layout. Each function does exactly the arithmetic of the whole-model
// passes above, in the same order, so a model cut into stages gives the same bits.
struct LayerRange {
    std::size_t first = 0;
    std::size_t end = 0;
};

// Doubles per row that a range keeps from its forward pass: every layer's outputs.
std::size_t range_outputs_per_row(const ModelShape& shape, LayerRange range);

// Forward through the range for `rows` rows of `input` (width layers[first]); every layer's
// outputs land in `outputs` layer after layer (rows x width each), the range's result last.
// Hidden layers are activated; the model's output layer is not.
void forward_range(const ModelShape& shape, LayerRange range, std::span<const double> parameters,
                   const double* input, std::size_t rows, std::span<double> outputs,
                   Workspace& work);

// A range's gradient, added up over several backward passes (the micro-batches of one step).
// Layers wider than their input gather their weight gradient transposed, like the whole-model
// pass; finish_range_gradient() puts it back in [out][in] order.
struct RangeGradient {
    std::vector<double> gradient; // the range's parameter slice
    std::vector<double> transposed;
};
void start_range_gradient(const ModelShape& shape, LayerRange range, RangeGradient& gradient);
void finish_range_gradient(const ModelShape& shape, LayerRange range, RangeGradient& gradient);

// Backward through the range. `output_delta` is d(loss)/d(the range's result): the logits'
// delta for the last range, otherwise the gradient the next range sent back. Adds this pass's
// parameter gradient into `gradient`; when `input_delta` is given, writes d(loss)/d(input)
// there (rows x layers[first]), before any activation derivative: the receiver applies it.
void backward_range(const ModelShape& shape, LayerRange range, std::span<const double> parameters,
                    const double* input, std::span<const double> outputs, std::size_t rows,
                    const double* output_delta, RangeGradient& gradient, double* input_delta,
                    Workspace& work);

// The loss of `rows` logits against their targets, added row by row into `total` (not yet
// divided) and `correct`; `delta` gets d(mean loss)/d(logits) with `scale` = loss_scale().
// `first_row` only names rows in errors.
void output_loss_delta(const ModelShape& shape, const double* logits, const double* targets,
                       std::size_t rows, std::size_t first_row, double scale, double* delta,
                       double& total, std::size_t& correct);
// 1 / (batch rows), times 1 / outputs for MSE: what turns summed losses into the mean.
double loss_scale(const ModelShape& shape, std::size_t batch_rows);

// A hidden layer's activation, in place; and its derivative, given the activation's outputs,
// multiplied into `deltas`. The model's own, for code that runs layers piece by piece.
void activate_in_place(Activation activation, std::span<double> values);
void activation_backward_in_place(Activation activation, std::span<const double> outputs,
                                  std::span<double> deltas);

// One fully connected layer without activation: z[b][o] = bias[o] + sum_i x[b][i] * w[o][i],
// the terms added in ascending i, exactly as the model's own layers do. `weight` is [out][in];
// `bias` may be null (no bias).
void linear_forward(const double* x, std::size_t rows, std::size_t in, std::size_t out,
                    const double* weight, const double* bias, double* z);

// A 64-bit FNV-1a hash over the parameters' 64-bit words: replicas with different bits get
// different hashes when they differ in one parameter, and almost surely otherwise.
std::uint64_t hash_parameters(std::span<const double> parameters);

// Parameter files: {"layers":[{"weight":[[...],...],"bias":[...]}, ...]}.
std::string parameters_to_json(const ModelShape& shape, std::span<const double> parameters);
// Throws lockstep::Error naming the layer and entry when the file does not fit `shape`. The values
// come back rounded to the model's precision.
std::vector<double> parameters_from_json(const ModelShape& shape, std::string_view json_text);

} // namespace lockstep
