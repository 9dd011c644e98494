#include "trainers/gradient.h"

#include <algorithm>

namespace lockstep {

LossResult accumulated_gradient(const ModelShape& model, std::span<const double> parameters,
                                const Dataset& data, DataCursor& cursor, std::size_t batch,
                                std::size_t micro, std::span<double> gradient,
                                BatchScratch& scratch, const LayerDone* ready) {
    const double share = 1.0 / static_cast<double>(micro);
    LossResult total;
    for (std::size_t m = 0; m < micro; ++m) {
        cursor.next_batch(batch, scratch.rows);
        gather_rows(data, scratch.rows, scratch.features, scratch.targets);
        const BatchView rows{scratch.features.data(), scratch.targets.data(), scratch.rows.size()};
        if (micro == 1)
            return ready
                       ? loss_and_gradient(model, parameters, rows, gradient, scratch.work, *ready)
                       : loss_and_gradient(model, parameters, rows, gradient, scratch.work);
        scratch.micro_gradient.resize(gradient.size());
        const std::span<double> into = m == 0 ? gradient : std::span(scratch.micro_gradient);
        const bool last = m + 1 == micro;
        // The last micro-batch may finish the sum layer by layer: each layer the same additions
        // and the same division as the whole gradient's below, then handed on.
        const LayerDone add = [&](std::size_t l) {
            if (l < model.layer_count())
                for (std::size_t i = model.weight_offset(l); i < model.weight_offset(l + 1); ++i) {
                    gradient[i] += into[i];
                    gradient[i] *= share;
                }
            (*ready)(l);
        };
        const LossResult part =
            ready && last ? loss_and_gradient(model, parameters, rows, into, scratch.work, add)
                          : loss_and_gradient(model, parameters, rows, into, scratch.work);
        if (m > 0 && !(ready && last))
            for (std::size_t i = 0; i < gradient.size(); ++i)
                gradient[i] += into[i];
        total.loss += part.loss;
        total.correct += part.correct;
        total.count += part.count;
    }
    if (!ready)
        for (double& g : gradient)
            g *= share;
    total.loss *= share;
    return total;
}

void note_resident(const WorkerBuffers& w, WorkerMemory& m) {
    auto bytes = [](const auto& v) {
        return static_cast<std::int64_t>(v.capacity() * sizeof(v[0]));
    };
    const OptimizerState& o = w.optimizer;
    m.parameters = bytes(w.parameters) + bytes(w.gathered);
    m.gradients = bytes(w.gradient) + bytes(w.scratch.micro_gradient) + bytes(w.shard_gradient) +
                  bytes(w.layer_gradient.gradient) + bytes(w.layer_gradient.transposed);
    m.optimizer = bytes(o.velocity) + bytes(o.first_moment) + bytes(o.second_moment);
    // A float32 model's pass keeps its activations, deltas and features in floats too, and float
    // copies of the parameters and the gradient beside its transposes.
    const Workspace::Floats& f = w.scratch.work.floats;
    m.activations = bytes(w.scratch.work.activations) + bytes(w.scratch.work.deltas) +
                    bytes(w.scratch.features) + bytes(w.scratch.targets) + bytes(w.scratch.rows) +
                    bytes(w.scratch.layer_deltas) + bytes(f.activations) + bytes(f.deltas) +
                    bytes(f.features);
    m.workspace =
        bytes(w.scratch.work.scratch) + bytes(f.scratch) + bytes(f.parameters) + bytes(f.gradient);
    m.peak = std::max(m.peak, m.total());
    m.parameters_peak = std::max(m.parameters_peak, m.parameters);
}

namespace {

// Where layer l's outputs for all `rows` start in a worker's stored activations.
std::size_t outputs_at(const ModelShape& model, std::size_t layer, std::size_t rows) {
    std::size_t at = 0;
    for (std::size_t l = 0; l < layer; ++l)
        at += static_cast<std::size_t>(model.layers[l + 1]);
    return at * rows;
}

} // namespace

void begin_layer_batch(const ModelShape& model, const Dataset& data, DataCursor& cursor,
                       std::size_t batch, BatchScratch& s) {
    cursor.next_batch(batch, s.rows);
    gather_rows(data, s.rows, s.features, s.targets);
    s.work.activations.resize(outputs_at(model, model.layer_count(), s.rows.size()));
    s.layer_deltas.resize(2 * s.rows.size() * model.widest());
}

void forward_layer(const ModelShape& model, BatchScratch& s,
                   std::span<const double> layer_parameters, std::size_t layer, LossResult& last) {
    const std::size_t rows = s.rows.size();
    const auto in = static_cast<std::size_t>(model.layers[layer]);
    const auto out = static_cast<std::size_t>(model.layers[layer + 1]);
    double* acts = s.work.activations.data();
    const double* input =
        layer == 0 ? s.features.data() : acts + outputs_at(model, layer - 1, rows);
    double* output = acts + outputs_at(model, layer, rows);
    const std::size_t chunk = std::min(rows, pass_rows);
    for (std::size_t first = 0; first < rows; first += chunk) {
        const std::size_t r = std::min(chunk, rows - first);
        forward_range(model, {layer, layer + 1}, layer_parameters, input + first * in, r,
                      std::span(output + first * out, r * out), s.work);
    }
    if (layer + 1 < model.layer_count())
        return;
    const double scale = loss_scale(model, rows);
    double total = 0.0;
    LossResult result;
    result.count = rows;
    for (std::size_t first = 0; first < rows; first += chunk) {
        const std::size_t r = std::min(chunk, rows - first);
        output_loss_delta(model, output + first * out, s.targets.data() + first, r, first, scale,
                          s.layer_deltas.data() + first * out, total, result.correct);
    }
    result.loss = total * scale;
    last = result;
}

// The deltas take turns in the two halves of `layer_deltas`.
void backward_layer(const ModelShape& model, BatchScratch& s,
                    std::span<const double> layer_parameters, std::size_t layer,
                    RangeGradient& gradient) {
    const std::size_t rows = s.rows.size();
    const auto in = static_cast<std::size_t>(model.layers[layer]);
    const auto out = static_cast<std::size_t>(model.layers[layer + 1]);
    const double* acts = s.work.activations.data();
    const double* input =
        layer == 0 ? s.features.data() : acts + outputs_at(model, layer - 1, rows);
    const double* output = acts + outputs_at(model, layer, rows);
    const std::size_t half = rows * model.widest();
    const std::size_t turn = (model.layer_count() - 1 - layer) % 2;
    const double* delta = s.layer_deltas.data() + turn * half;
    double* below = s.layer_deltas.data() + (1 - turn) * half;
    start_range_gradient(model, {layer, layer + 1}, gradient);
    const std::size_t chunk = std::min(rows, pass_rows);
    for (std::size_t first = 0; first < rows; first += chunk) {
        const std::size_t r = std::min(chunk, rows - first);
        backward_range(model, {layer, layer + 1}, layer_parameters, input + first * in,
                       std::span(output + first * out, r * out), r, delta + first * out, gradient,
                       layer > 0 ? below + first * in : nullptr, s.work);
    }
    finish_range_gradient(model, {layer, layer + 1}, gradient);
}

void accumulate_layer(const ModelShape& model, std::size_t layer, std::size_t m, std::size_t micro,
                      std::vector<double>& gradient, BatchScratch& scratch) {
    if (micro == 1)
        return;
    if (m == 0 && scratch.micro_gradient.size() != model.parameter_count())
        scratch.micro_gradient.assign(model.parameter_count(), 0.0);
    double* sum = scratch.micro_gradient.data() + model.weight_offset(layer);
    const std::size_t count = gradient.size();
    if (m == 0) {
        std::copy_n(gradient.data(), count, sum);
    } else if (m + 1 < micro) {
        for (std::size_t i = 0; i < count; ++i)
            sum[i] += gradient[i];
    } else {
        const double share = 1.0 / static_cast<double>(micro);
        for (std::size_t i = 0; i < count; ++i)
            gradient[i] = (sum[i] + gradient[i]) * share;
    }
}

void add_micro_loss(LossResult& total, const LossResult& part, std::size_t m, std::size_t micro) {
    if (micro == 1) {
        total = part;
        return;
    }
    if (m == 0)
        total = LossResult{};
    total.loss += part.loss;
    total.correct += part.correct;
    total.count += part.count;
    if (m + 1 == micro)
        total.loss *= 1.0 / static_cast<double>(micro);
}

} // namespace lockstep
