#include "trainers/tensor.h"

#include "trainers/setup.h"

#include "core/error.h"
#include "core/rng.h"
#include "model/model.h"
#include "trainers/pipeline.h"

#include "clocks/cost_model.h"
#include "reports/speedup.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

namespace lockstep {

std::size_t tensor_share_begin(int worker, int workers, std::size_t n) {
    return static_cast<std::size_t>(worker) * n / static_cast<std::size_t>(workers);
}

// One worker's piece of every layer (output features [c0, c1) of each), its optimizer, and its
// own copy of every layer's whole outputs, which the all-gathers fill in.
struct TensorTrainer::Piece {
    std::vector<std::size_t> c0, c1, offset; // per layer; the piece's bias follows its weight
    std::vector<double> parameters, gradient;
    Optimizer optimizer{OptimizerConfig{}, 0};
    std::vector<std::vector<double>> outputs; // per layer: rows x out, whole
    std::vector<double> gather;               // the pieces of one layer's outputs, piece by piece
    std::vector<double> delta, partial;       // rows x width
    double loss_total = 0.0;
    std::size_t correct = 0;
};

namespace {

std::size_t width(const ModelShape& shape, std::size_t index) {
    return static_cast<std::size_t>(shape.layers[index]);
}

} // namespace

TensorTrainer::TensorTrainer(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                             TraceSink* sink)
    : scenario_(scenario)
    , data_(std::move(data))
    , sink_(sink) {
    validate(scenario_);
    if (!scenario_.parallelism || scenario_.parallelism->mode != Parallelism::Tensor)
        throw Error("parallelism.mode: the tensor trainer needs \"tensor\"");
    if (scenario_.clock != ClockKind::Modelled)
        throw Error("clock: tensor-parallel runs use the modelled clock");
    if (!data_)
        throw Error("dataset: no data");
    const ModelShape& shape = scenario_.model;
    detail::check_model_fits(scenario_, *data_);
    workers_ = scenario_.parallelism->stages;
    cursor_.emplace(Shard{0, data_->size()}, scenario_.shuffle, Rng::stream(scenario_.seed, 1000));

    const std::vector<double> whole = detail::initial_parameters(scenario_);
    const std::size_t layers = shape.layer_count();
    const double per_sample = compute_s_per_sample(scenario_, scenario_.batch);
    const double model_cost = static_cast<double>(range_cost(shape, {0, layers}));
    for (int k = 0; k < workers_; ++k) {
        auto piece = std::make_unique<Piece>();
        auto& forward = forward_cost_.emplace_back();
        auto& backward = backward_cost_.emplace_back();
        for (std::size_t l = 0; l < layers; ++l) {
            const std::size_t in = width(shape, l), out = width(shape, l + 1);
            const std::size_t c0 = tensor_share_begin(k, workers_, out);
            const std::size_t c1 = tensor_share_begin(k + 1, workers_, out);
            piece->c0.push_back(c0);
            piece->c1.push_back(c1);
            piece->offset.push_back(piece->parameters.size());
            const double* w = whole.data() + shape.weight_offset(l);
            const double* b = whole.data() + shape.bias_offset(l);
            piece->parameters.insert(piece->parameters.end(), w + c0 * in, w + c1 * in);
            piece->parameters.insert(piece->parameters.end(), b + c0, b + c1);
            piece->outputs.emplace_back(scenario_.batch * out, 0.0);
            // Its share of the layer's multiply-adds; a backward pass costs twice a forward.
            const double seconds = static_cast<double>(scenario_.batch) * per_sample *
                                   static_cast<double>((c1 - c0) * (in + 1)) / model_cost;
            const PassCost passes = split_passes(seconds);
            forward.push_back(passes.forward);
            backward.push_back(passes.backward);
        }
        piece->gradient.assign(piece->parameters.size(), 0.0);
        piece->optimizer = Optimizer(scenario_.optimizer, piece->parameters.size());
        pieces_.emplace_back(std::move(piece));
    }
    clocks_.assign(static_cast<std::size_t>(workers_), 0);
    spent_.assign(static_cast<std::size_t>(workers_), {});
}

TensorTrainer::~TensorTrainer() = default;
TensorTrainer::TensorTrainer(const TensorTrainer&) = default;

void TensorTrainer::run() {
    while (!finished())
        step();
}

void TensorTrainer::step() {
    if (finished())
        return;
    events_.clear();
    round_ = 0;
    const std::int64_t bytes_before = bytes_moved_;
    const ModelShape& shape = scenario_.model;
    const std::size_t layers = shape.layer_count();
    cursor_->next_batch(scenario_.batch, rows_); // every worker reads the same batch
    gather_rows(*data_, rows_, features_, targets_);
    samples_ += static_cast<std::int64_t>(scenario_.batch);

    for (std::size_t l = 0; l < layers; ++l)
        forward_layer(l); // own outputs, then an all-gather of the layer's outputs
    const double scale = loss_scale(shape, scenario_.batch);
    tbb::parallel_for(std::size_t{0}, pieces_.size(), [&](std::size_t k) {
        Piece& p = *pieces_[k];
        p.delta.assign(scenario_.batch * width(shape, layers), 0.0);
        p.loss_total = 0.0;
        p.correct = 0;
        output_loss_delta(shape, p.outputs.back().data(), targets_.data(), scenario_.batch, 0,
                          scale, p.delta.data(), p.loss_total, p.correct);
        std::fill(p.gradient.begin(), p.gradient.end(), 0.0);
    });
    for (std::size_t l = layers; l-- > 0;)
        backward_layer(l); // own weights' gradient, then an all-reduce of the input gradient
    if (scenario_.cost.communication_s_per_step && workers_ > 1) {
        // Textbook mode: the step's collectives cost one fixed time, after a barrier.
        std::vector<int> ids(static_cast<std::size_t>(workers_));
        std::iota(ids.begin(), ids.end(), 0);
        charge_fixed_communication(ids, clocks_, *scenario_.cost.communication_s_per_step,
                                   (bytes_moved_ - bytes_before) / workers_, step_, events_);
    }

    // Each worker updates its own pieces.
    std::vector<std::uint64_t> hashes(pieces_.size());
    tbb::parallel_for(std::size_t{0}, pieces_.size(), [&](std::size_t k) {
        pieces_[k]->optimizer.apply(pieces_[k]->parameters, pieces_[k]->gradient);
        hashes[k] = hash_parameters(pieces_[k]->parameters);
    });
    const Ticks update = to_ticks(scenario_.cost.update_s);
    for (std::size_t k = 0; k < pieces_.size(); ++k) {
        events_.push_back(
            {static_cast<int>(k), EventKind::Update, step_, clocks_[k], clocks_[k] + update});
        clocks_[k] += update;
    }
    const Ticks latest = *std::max_element(clocks_.begin(), clocks_.end());
    for (std::size_t k = 0; k < clocks_.size(); ++k) {
        if (clocks_[k] < latest)
            events_.push_back({static_cast<int>(k), EventKind::Wait, step_, clocks_[k], latest});
        clocks_[k] = latest;
    }

    StepSnapshot snap;
    snap.step = step_;
    snap.time = latest;
    snap.loss = pieces_.front()->loss_total * scale;
    snap.accuracy =
        static_cast<double>(pieces_.front()->correct) / static_cast<double>(scenario_.batch);
    for (std::size_t k = 0; k < pieces_.size(); ++k) {
        snap.worker_loss.push_back(pieces_[k]->loss_total * scale);
        snap.parameter_hash.push_back(hashes[k]); // pieces differ by design: not replicas
    }
    last_snapshot_ = snap;
    detail::add_lane_time(spent_, events_);
    detail::hand_over_step(sink_, events_, last_snapshot_, step_);
    ++step_;
}

void TensorTrainer::forward_layer(std::size_t l) {
    const ModelShape& shape = scenario_.model;
    const std::size_t rows = scenario_.batch;
    const std::size_t in = width(shape, l), out = width(shape, l + 1);
    const bool hidden = l + 1 < shape.layer_count();
    tbb::parallel_for(std::size_t{0}, pieces_.size(), [&](std::size_t k) {
        Piece& p = *pieces_[k];
        const std::size_t n = p.c1[l] - p.c0[l];
        const double* x = l == 0 ? features_.data() : p.outputs[l - 1].data();
        p.gather.assign(rows * out, 0.0);
        double* mine = p.gather.data() + rows * p.c0[l];
        const double* w = p.parameters.data() + p.offset[l];
        linear_forward(x, rows, in, n, w, w + n * in, mine);
        if (hidden)
            activate_in_place(shape.activation, {mine, rows * n});
    });
    compute(EventKind::Forward, l);
    std::vector<std::size_t> offsets;
    for (const auto& p : pieces_)
        offsets.push_back(rows * p->c0[l]);
    offsets.push_back(rows * out);
    std::vector<std::span<double>> buffers;
    for (auto& p : pieces_)
        buffers.emplace_back(p->gather);
    const CommSchedule schedule = ring_all_gather_schedule(offsets);
    run_all_reduce(schedule, transport_, buffers);
    price_collective(schedule);
    // Every worker lays the gathered pieces out as the layer's [rows][out] outputs.
    tbb::parallel_for(std::size_t{0}, pieces_.size(), [&](std::size_t k) {
        Piece& p = *pieces_[k];
        for (const auto& owner : pieces_) {
            const std::size_t c0 = owner->c0[l], n = owner->c1[l] - c0;
            const double* piece = p.gather.data() + rows * c0;
            for (std::size_t b = 0; b < rows; ++b)
                std::copy(piece + b * n, piece + (b + 1) * n, p.outputs[l].data() + b * out + c0);
        }
    });
}

void TensorTrainer::backward_layer(std::size_t l) {
    const ModelShape& shape = scenario_.model;
    const std::size_t rows = scenario_.batch;
    const std::size_t in = width(shape, l), out = width(shape, l + 1);
    tbb::parallel_for(std::size_t{0}, pieces_.size(), [&](std::size_t k) {
        Piece& p = *pieces_[k];
        const std::size_t c0 = p.c0[l], n = p.c1[l] - c0;
        const double* x = l == 0 ? features_.data() : p.outputs[l - 1].data();
        const double* w = p.parameters.data() + p.offset[l];
        double* gw = p.gradient.data() + p.offset[l];
        double* gb = gw + n * in;
        // Rows in ascending order into every entry, as the unsplit backward pass adds them.
        for (std::size_t b = 0; b < rows; ++b)
            for (std::size_t o = 0; o < n; ++o) {
                const double d = p.delta[b * out + c0 + o];
                for (std::size_t i = 0; i < in; ++i)
                    gw[o * in + i] += d * x[b * in + i];
                gb[o] += d;
            }
        if (l == 0)
            return;
        // This worker's part of d(loss)/d(input): its outputs' deltas through its weights.
        p.partial.assign(rows * in, 0.0);
        for (std::size_t b = 0; b < rows; ++b)
            for (std::size_t o = 0; o < n; ++o) {
                const double d = p.delta[b * out + c0 + o];
                for (std::size_t i = 0; i < in; ++i)
                    p.partial[b * in + i] += d * w[o * in + i];
            }
    });
    compute(EventKind::Backward, l);
    if (l == 0)
        return;
    std::vector<std::span<double>> buffers;
    for (auto& p : pieces_)
        buffers.emplace_back(p->partial);
    const CommSchedule schedule = make_schedule(scenario_.algorithm, workers_, rows * in);
    if (workers_ > 1) {
        run_all_reduce(schedule, transport_, buffers);
        price_collective(schedule);
    }
    tbb::parallel_for(std::size_t{0}, pieces_.size(), [&](std::size_t k) {
        Piece& p = *pieces_[k];
        p.delta = p.partial;
        activation_backward_in_place(shape.activation, p.outputs[l - 1], p.delta);
    });
}

void TensorTrainer::compute(EventKind kind, std::size_t layer) {
    for (std::size_t k = 0; k < pieces_.size(); ++k) {
        const Ticks cost = (kind == EventKind::Forward ? forward_cost_ : backward_cost_)[k][layer];
        events_.push_back({static_cast<int>(k), kind, step_, clocks_[k], clocks_[k] + cost, 0, -1,
                           -1, static_cast<double>(layer)});
        clocks_[k] += cost;
    }
}

void TensorTrainer::price_collective(const CommSchedule& schedule) {
    std::vector<int> ids(static_cast<std::size_t>(workers_));
    std::iota(ids.begin(), ids.end(), 0);
    price_schedule(schedule, {ids, clocks_, {}}, scenario_.cost, step_, round_, &events_);
    round_ += static_cast<int>(schedule.rounds.size());
    bytes_moved_ += schedule.total_bytes();
}

std::vector<double> TensorTrainer::parameters() const {
    const ModelShape& shape = scenario_.model;
    std::vector<double> whole;
    for (std::size_t l = 0; l < shape.layer_count(); ++l) {
        const std::size_t in = width(shape, l);
        for (const auto& p : pieces_) {
            const auto begin = p->parameters.begin() + static_cast<std::ptrdiff_t>(p->offset[l]);
            whole.insert(whole.end(), begin,
                         begin + static_cast<std::ptrdiff_t>((p->c1[l] - p->c0[l]) * in));
        }
        for (const auto& p : pieces_) {
            const std::size_t n = p->c1[l] - p->c0[l];
            const auto begin =
                p->parameters.begin() + static_cast<std::ptrdiff_t>(p->offset[l] + n * in);
            whole.insert(whole.end(), begin, begin + static_cast<std::ptrdiff_t>(n));
        }
    }
    return whole;
}

RunMetrics TensorTrainer::metrics() const {
    RunMetrics m;
    m.workers = workers_;
    m.steps = m.steps_run = step_;
    m.workers_at_end = m.workers;
    m.samples = m.useful_samples = samples_; // no faults: every sample reaches the model
    summarise_lanes(m, spent_, to_seconds(clocks_.front()), scenario_.energy);
    m.bytes_moved = bytes_moved_;
    m.final_loss = last_snapshot_.loss;
    m.final_accuracy = last_snapshot_.accuracy;
    set_speedup(m, scenario_, model_parallel_baseline_time_s(scenario_, scenario_.steps));
    return m;
}

} // namespace lockstep
