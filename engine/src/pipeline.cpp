#include "lockstep/pipeline.h"

#include "comm_pricing.h"

#include "lockstep/error.h"
#include "lockstep/reduction.h"
#include "lockstep/rng.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <limits>

namespace lockstep {

// One stage of one replica: its layers, their optimizer and gradient, and a buffer per
// micro-batch for what comes in (activations, activation gradients) and what it keeps for the
// backward pass. Neighbours write into these buffers; the schedule makes sure no two ops of a
// wave touch the same one.
struct PipelineTrainer::Lane {
    int id = 0;
    int replica = 0;
    int stage = 0;
    LayerRange range;
    std::vector<double> parameters; // the stage's slice of the model
    Optimizer optimizer{OptimizerConfig{}, 0};
    RangeGradient gradient;
    Workspace work;
    std::vector<std::vector<double>> input;        // per micro-batch: received activations
    std::vector<std::vector<double>> outputs;      // per micro-batch: kept for the backward pass
    std::vector<std::vector<double>> output_delta; // per micro-batch: received gradients
    double loss_total = 0.0;                       // last stage: summed over this step's rows
    std::size_t correct = 0;
    int held = 0; // micro-batches whose activations this stage holds now
    int peak = 0;
    Ticks clock = 0;
    std::uint64_t hash = 0;
};

namespace {

std::size_t width(const ModelShape& shape, std::size_t index) {
    return static_cast<std::size_t>(shape.layers[index]);
}

void check_pipeline_scenario(const Scenario& s, const Dataset& data) {
    if (!s.parallelism || (s.parallelism->mode != Parallelism::Pipeline &&
                           s.parallelism->mode != Parallelism::Hybrid))
        throw Error("parallelism.mode: the pipeline trainer needs \"pipeline\" or \"hybrid\"");
    if (s.clock != ClockKind::Modelled)
        throw Error("clock: pipeline and hybrid runs use the modelled clock");
    if (!s.worker_batch.empty())
        throw Error("worker_batch: not used by pipeline runs; every replica takes `batch` rows");
    if (s.parallelism->mode == Parallelism::Hybrid && s.algorithm == Algorithm::None)
        throw Error("algorithm: a hybrid run combines each stage's gradients across replicas; "
                    "choose parameter-server, ring or tree");
    if (data.dim != static_cast<std::size_t>(s.model.inputs()))
        throw Error("model.layers[0]: the dataset has " + std::to_string(data.dim) +
                    " features per row, but the model takes " + std::to_string(s.model.inputs()));
    if (data.task == Task::Regression && s.model.loss != LossKind::MeanSquaredError)
        throw Error("model.loss: the dataset's labels are values (regression); use \"mse\"");
    if (data.task == Task::Classification && s.model.loss == LossKind::SoftmaxCrossEntropy &&
        data.classes > s.model.outputs())
        throw Error("model.layers: the dataset has " + std::to_string(data.classes) +
                    " classes, but the model has " + std::to_string(s.model.outputs()) +
                    " outputs");
}

std::vector<double> starting_parameters(const Scenario& s) {
    if (!s.init_params.empty())
        return parameters_from_json(s.model, read_text_file(s.init_params));
    Rng rng = Rng::stream(s.seed, 0);
    return init_parameters(s.model, rng);
}

// Seconds of compute per sample for the whole model, forward and backward together.
double compute_per_sample(const Scenario& s, std::size_t global_batch) {
    if (s.cost.one_worker_compute_s)
        return *s.cost.one_worker_compute_s /
               (static_cast<double>(s.steps) * static_cast<double>(global_batch));
    return s.cost.compute_s_per_sample;
}

} // namespace

PipelineTrainer::PipelineTrainer(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                                 TraceSink* sink)
    : scenario_(scenario)
    , data_(std::move(data))
    , sink_(sink) {
    validate(scenario_);
    if (!data_)
        throw Error("dataset: no data");
    check_pipeline_scenario(scenario_, *data_);
    const ParallelismConfig& config = *scenario_.parallelism;
    plan_ = plan_pipeline(scenario_.model, scenario_.batch, config);
    const int stages = plan_.stages;
    const int replicas = plan_.replicas;
    const auto m = static_cast<std::size_t>(plan_.microbatches);
    if (data_->size() < static_cast<std::size_t>(replicas))
        throw Error("dataset: " + std::to_string(data_->size()) + " rows cannot be shared by " +
                    std::to_string(replicas) + " replicas");

    // Each replica reads its own shard like data-parallel worker r would.
    std::vector<Shard> shards;
    if (scenario_.shard_sizes.empty()) {
        shards = equal_shards(data_->size(), replicas);
    } else {
        if (scenario_.shard_sizes.size() != static_cast<std::size_t>(replicas))
            throw Error("shard_sizes: needs one size per replica (" + std::to_string(replicas) +
                        "), got " + std::to_string(scenario_.shard_sizes.size()));
        try {
            shards = sized_shards(data_->size(), scenario_.shard_sizes);
        } catch (const Error& e) {
            throw Error(std::string("shard_sizes: ") + e.what());
        }
    }
    for (int r = 0; r < replicas; ++r)
        cursors_.emplace_back(shards[static_cast<std::size_t>(r)], scenario_.shuffle,
                              Rng::stream(scenario_.seed, 1000 + static_cast<std::uint64_t>(r)));
    rows_.resize(static_cast<std::size_t>(replicas));
    features_.resize(static_cast<std::size_t>(replicas));
    targets_.resize(static_cast<std::size_t>(replicas));

    const auto whole = starting_parameters(scenario_);
    const ModelShape& shape = scenario_.model;
    const double per_sample =
        compute_per_sample(scenario_, scenario_.batch * static_cast<std::size_t>(replicas));
    const double model_cost = static_cast<double>(range_cost(shape, {0, shape.layer_count()}));
    for (int r = 0; r < replicas; ++r)
        for (int s = 0; s < stages; ++s) {
            auto lane = std::make_unique<Lane>();
            lane->id = r * stages + s;
            lane->replica = r;
            lane->stage = s;
            lane->range = plan_.ranges[static_cast<std::size_t>(s)];
            const auto begin = static_cast<std::ptrdiff_t>(shape.weight_offset(lane->range.first));
            const auto end = static_cast<std::ptrdiff_t>(shape.weight_offset(lane->range.end));
            lane->parameters.assign(whole.begin() + begin, whole.begin() + end);
            lane->optimizer = Optimizer(scenario_.optimizer, lane->parameters.size());
            lane->input.resize(m);
            lane->outputs.resize(m);
            lane->output_delta.resize(m);
            const std::size_t kept = range_outputs_per_row(shape, lane->range);
            for (std::size_t i = 0; i < m; ++i) {
                const std::size_t rows = plan_.microbatch_rows[i];
                if (s > 0)
                    lane->input[i].assign(rows * width(shape, lane->range.first), 0.0);
                lane->outputs[i].assign(rows * kept, 0.0);
                lane->output_delta[i].assign(rows * width(shape, lane->range.end), 0.0);
            }
            // A stage's share of the model's compute, by multiply-adds; a backward pass costs
            // twice a forward one.
            const double share = static_cast<double>(range_cost(shape, lane->range)) / model_cost;
            const double slowdown = scenario_.slowdown_of(lane->id);
            auto& forward = forward_cost_.emplace_back();
            auto& backward = backward_cost_.emplace_back();
            for (std::size_t i = 0; i < m; ++i) {
                const double seconds =
                    static_cast<double>(plan_.microbatch_rows[i]) * per_sample * share * slowdown;
                forward.push_back(to_ticks(seconds / 3.0));
                backward.push_back(to_ticks(seconds * 2.0 / 3.0));
            }
            lanes_.push_back(std::move(lane));
        }
    // One message per micro-batch over each stage boundary, each way: alpha + bytes * beta.
    for (int s = 0; s + 1 < stages; ++s) {
        auto& costs = transfer_cost_.emplace_back();
        const std::size_t boundary = width(shape, plan_.ranges[static_cast<std::size_t>(s)].end);
        for (std::size_t i = 0; i < m; ++i) {
            const double bytes =
                static_cast<double>(plan_.microbatch_rows[i] * boundary * sizeof(double));
            costs.push_back(
                to_ticks(scenario_.cost.alpha_s + bytes * scenario_.cost.beta_s_per_byte));
        }
    }
    if (replicas > 1) {
        for (int s = 0; s < stages; ++s)
            stage_schedules_.push_back(
                make_schedule(scenario_.algorithm, replicas,
                              lanes_[static_cast<std::size_t>(s)]->parameters.size()));
        const std::vector<double> samples(static_cast<std::size_t>(replicas),
                                          static_cast<double>(scenario_.batch));
        weights_ = reduction_weights(scenario_.rule, replicas, samples);
    }
    spent_.assign(lanes_.size(), {});
}

PipelineTrainer::~PipelineTrainer() = default;

PipelineTrainer::Lane& PipelineTrainer::lane(int replica, int stage) {
    return *lanes_[static_cast<std::size_t>(replica * plan_.stages + stage)];
}

void PipelineTrainer::run() {
    while (!finished())
        step();
}

void PipelineTrainer::step() {
    if (finished())
        return;
    events_.clear();
    load_batches();                     // each replica's next batch
    const auto waves = schedule_step(); // who runs what when, on the modelled clock
    run_waves(waves);                   // the real passes, wave by wave
    combine_gradients();                // hybrid: all-reduce per stage
    update_and_snapshot();              // every stage updates its own layers
    end_step();
}

void PipelineTrainer::load_batches() {
    const std::size_t replicas = cursors_.size();
    tbb::parallel_for(std::size_t{0}, replicas, [&](std::size_t r) {
        cursors_[r].next_batch(scenario_.batch, rows_[r]);
        gather_rows(*data_, rows_[r], features_[r], targets_[r]);
    });
    for (auto& l : lanes_) {
        l->loss_total = 0.0;
        l->correct = 0;
        start_range_gradient(scenario_.model, l->range, l->gradient);
    }
    samples_ += static_cast<std::int64_t>(replicas * scenario_.batch);
}

std::vector<PipelineTrainer::Wave> PipelineTrainer::schedule_step() {
    using K = PipelineOp::Kind;
    const int stages = plan_.stages;
    const auto m = static_cast<std::size_t>(plan_.microbatches);
    const std::size_t n = lanes_.size();
    const Ticks start = lanes_.front()->clock;
    constexpr Ticks unknown = -1;
    // When each micro-batch's input (activations) and output gradient reach each lane, and the
    // wave after which its data is in place.
    std::vector<std::vector<Ticks>> act_ready(n, std::vector<Ticks>(m, unknown));
    std::vector<std::vector<Ticks>> grad_ready(n, std::vector<Ticks>(m, unknown));
    std::vector<std::vector<int>> act_wave(n, std::vector<int>(m, 0));
    std::vector<std::vector<int>> grad_wave(n, std::vector<int>(m, 0));
    std::vector<Ticks> next_free(n, start), previous_free(n, start); // each lane's two out-links
    std::vector<int> lane_wave(n, 0);
    std::vector<std::size_t> next(n, 0);
    for (std::size_t k = 0; k < n; ++k)
        if (lanes_[k]->stage == 0)
            std::fill(act_ready[k].begin(), act_ready[k].end(), start);

    std::vector<Wave> waves;
    const ModelShape& shape = scenario_.model;
    auto transfer = [&](Lane& from, std::size_t to, int i, Ticks ready, Ticks& link_free,
                        std::size_t boundary_width, std::int64_t& tally) {
        const auto bytes = static_cast<std::int64_t>(
            plan_.microbatch_rows[static_cast<std::size_t>(i)] * boundary_width * sizeof(double));
        const int boundary = std::min(from.stage, lanes_[to]->stage);
        const Ticks begin = std::max(ready, link_free);
        const Ticks end =
            begin + transfer_cost_[static_cast<std::size_t>(boundary)][static_cast<std::size_t>(i)];
        link_free = end;
        const int peer = static_cast<int>(to);
        emit({from.id, EventKind::Send, step_, begin, end, bytes, peer, -1, 0.0, i});
        emit({peer, EventKind::Receive, step_, begin, end, bytes, from.id, -1, 0.0, i});
        tally += bytes;
        return end;
    };

    std::size_t remaining = n * 2 * m;
    while (remaining > 0) {
        bool progressed = false;
        for (std::size_t k = 0; k < n; ++k) {
            Lane& l = *lanes_[k];
            const auto& program = plan_.programs[static_cast<std::size_t>(l.stage)];
            while (next[k] < program.size()) {
                const PipelineOp op = program[next[k]];
                const auto i = static_cast<std::size_t>(op.microbatch);
                const bool fwd = op.kind == K::Forward;
                const Ticks ready = fwd ? act_ready[k][i] : grad_ready[k][i];
                if (ready == unknown)
                    break; // its input is not computed yet: another lane goes first
                const Ticks begin = std::max(l.clock, ready);
                if (begin > l.clock)
                    emit({l.id, EventKind::Bubble, step_, l.clock, begin, 0, -1, -1, 0.0,
                          op.microbatch});
                const Ticks end = begin + (fwd ? forward_cost_[k][i] : backward_cost_[k][i]);
                emit({l.id, fwd ? EventKind::Forward : EventKind::Backward, step_, begin, end, 0,
                      -1, -1, 0.0, op.microbatch});
                l.clock = end;
                const int wave = std::max(lane_wave[k], fwd ? act_wave[k][i] : grad_wave[k][i]);
                lane_wave[k] = wave + 1;
                if (waves.size() <= static_cast<std::size_t>(wave))
                    waves.resize(static_cast<std::size_t>(wave) + 1);
                waves[static_cast<std::size_t>(wave)].emplace_back(static_cast<int>(k), op);

                if (fwd && l.stage + 1 < stages) {
                    act_ready[k + 1][i] =
                        transfer(l, k + 1, op.microbatch, end, next_free[k],
                                 width(shape, l.range.end), totals_.activation_bytes);
                    act_wave[k + 1][i] = wave + 1;
                } else if (fwd) {
                    grad_ready[k][i] = end; // the last stage's loss gives its own gradient
                } else if (l.stage > 0) {
                    grad_ready[k - 1][i] =
                        transfer(l, k - 1, op.microbatch, end, previous_free[k],
                                 width(shape, l.range.first), totals_.activation_gradient_bytes);
                    grad_wave[k - 1][i] = wave + 1;
                }
                ++next[k];
                --remaining;
                progressed = true;
            }
        }
        if (!progressed)
            throw Error("pipeline: the stage programs wait for each other (no op can run)");
    }
    return waves;
}

void PipelineTrainer::run_waves(const std::vector<Wave>& waves) {
    // The join of each parallel_for is the barrier between waves; inside a wave every op is on
    // its own lane and reads only buffers that earlier waves filled.
    for (const Wave& wave : waves)
        tbb::parallel_for(std::size_t{0}, wave.size(), [&](std::size_t j) {
            const auto& [k, op] = wave[j];
            Lane& l = *lanes_[static_cast<std::size_t>(k)];
            if (op.kind == PipelineOp::Kind::Forward)
                forward(l, op.microbatch);
            else
                backward(l, op.microbatch);
        });
}

void PipelineTrainer::forward(Lane& l, int microbatch) {
    const ModelShape& shape = scenario_.model;
    const auto i = static_cast<std::size_t>(microbatch);
    const std::size_t rows = plan_.microbatch_rows[i];
    const std::size_t first = plan_.first_row(microbatch);
    const auto r = static_cast<std::size_t>(l.replica);
    const double* x =
        l.stage == 0 ? features_[r].data() + first * width(shape, 0) : l.input[i].data();
    forward_range(shape, l.range, l.parameters, x, rows, l.outputs[i], l.work);
    l.held += 1;
    l.peak = std::max(l.peak, l.held);
    const std::size_t out = width(shape, l.range.end);
    const double* result = l.outputs[i].data() + l.outputs[i].size() - rows * out;
    if (l.stage + 1 < plan_.stages) {
        // The activations move: from this stage's memory into the next stage's buffer.
        Lane& next = lane(l.replica, l.stage + 1);
        std::copy(result, result + rows * out, next.input[i].begin());
    } else {
        output_loss_delta(shape, result, targets_[r].data() + first, rows, first,
                          loss_scale(shape, scenario_.batch), l.output_delta[i].data(),
                          l.loss_total, l.correct);
    }
}

void PipelineTrainer::backward(Lane& l, int microbatch) {
    const ModelShape& shape = scenario_.model;
    const auto i = static_cast<std::size_t>(microbatch);
    const std::size_t rows = plan_.microbatch_rows[i];
    const auto r = static_cast<std::size_t>(l.replica);
    const double* x = l.stage == 0
                          ? features_[r].data() + plan_.first_row(microbatch) * width(shape, 0)
                          : l.input[i].data();
    // The activation gradients move: straight into the previous stage's buffer.
    double* back = l.stage > 0 ? lane(l.replica, l.stage - 1).output_delta[i].data() : nullptr;
    backward_range(shape, l.range, l.parameters, x, l.outputs[i], rows, l.output_delta[i].data(),
                   l.gradient, back, l.work);
    l.held -= 1;
}

void PipelineTrainer::combine_gradients() {
    tbb::parallel_for(std::size_t{0}, lanes_.size(), [&](std::size_t k) {
        finish_range_gradient(scenario_.model, lanes_[k]->range, lanes_[k]->gradient);
    });
    if (plan_.replicas == 1)
        return;
    for (int s = 0; s < plan_.stages; ++s) {
        std::vector<std::span<double>> buffers;
        for (int r = 0; r < plan_.replicas; ++r) {
            auto& g = lane(r, s).gradient.gradient;
            scale_contribution(g, weights_[static_cast<std::size_t>(r)]);
            buffers.emplace_back(g);
        }
        run_all_reduce(stage_schedules_[static_cast<std::size_t>(s)], transport_, buffers);
        price_all_reduce(s);
    }
}

void PipelineTrainer::price_all_reduce(int stage) {
    const auto& schedule = stage_schedules_[static_cast<std::size_t>(stage)];
    std::vector<int> ids;
    std::vector<Ticks> clocks;
    for (int r = 0; r < plan_.replicas; ++r) {
        ids.push_back(lane(r, stage).id);
        clocks.push_back(lane(r, stage).clock);
    }
    price_collective(schedule, ids, clocks, scenario_.cost, step_, 0, events_);
    for (int r = 0; r < plan_.replicas; ++r)
        lane(r, stage).clock = clocks[static_cast<std::size_t>(r)];
    totals_.gradient_bytes += schedule.total_bytes();
}

void PipelineTrainer::update_and_snapshot() {
    tbb::parallel_for(std::size_t{0}, lanes_.size(), [&](std::size_t k) {
        Lane& l = *lanes_[k];
        l.optimizer.apply(l.parameters, l.gradient.gradient);
        l.hash = hash_parameters(l.parameters);
    });
    const Ticks update = to_ticks(scenario_.cost.update_s);
    for (auto& l : lanes_) {
        const double gradient0 = l->gradient.gradient.empty() ? 0.0 : l->gradient.gradient[0];
        emit({l->id, EventKind::Update, step_, l->clock, l->clock + update, 0, -1, -1, gradient0});
        l->clock += update;
    }

    StepSnapshot snap;
    snap.step = step_;
    const double scale = loss_scale(scenario_.model, scenario_.batch);
    const int last = plan_.stages - 1;
    std::size_t correct = 0;
    for (int r = 0; r < plan_.replicas; ++r) {
        const Lane& tail = lane(r, last);
        snap.loss += tail.loss_total * scale / static_cast<double>(plan_.replicas);
        correct += tail.correct;
    }
    snap.accuracy = static_cast<double>(correct) /
                    static_cast<double>(scenario_.batch * static_cast<std::size_t>(plan_.replicas));
    for (const auto& l : lanes_) {
        snap.worker_loss.push_back(lane(l->replica, last).loss_total * scale);
        snap.parameter_hash.push_back(l->hash);
        snap.replicas_aligned = snap.replicas_aligned && l->hash == lane(0, l->stage).hash;
    }
    last_snapshot_ = std::move(snap);
}

void PipelineTrainer::end_step() {
    // The step ends when the slowest stage has updated (the pipeline is flushed); a stage that
    // finished earlier sits idle until then.
    Ticks latest = 0;
    for (const auto& l : lanes_)
        latest = std::max(latest, l->clock);
    for (auto& l : lanes_) {
        if (l->clock < latest)
            emit({l->id, EventKind::Bubble, step_, l->clock, latest});
        l->clock = latest;
    }
    aligned_ = last_snapshot_.replicas_aligned;
    last_snapshot_.time = latest;
    const auto spent = worker_metrics(events_, lanes());
    for (std::size_t k = 0; k < spent.size(); ++k) {
        spent_[k].compute_s += spent[k].compute_s;
        spent_[k].communication_s += spent[k].communication_s;
        spent_[k].waiting_s += spent[k].waiting_s;
        spent_[k].update_s += spent[k].update_s;
    }
    for (const auto& e : events_)
        if (e.kind == EventKind::Bubble)
            bubble_ += e.end - e.start;
    if (sink_) {
        std::stable_sort(
            events_.begin(), events_.end(),
            [](const TraceEvent& a, const TraceEvent& b) { return a.start < b.start; });
        sink_->on_events(events_);
        sink_->on_snapshot(last_snapshot_);
    }
    ++step_;
}

void PipelineTrainer::emit(const TraceEvent& event) {
    events_.push_back(event);
}

std::vector<double> PipelineTrainer::parameters(int replica) const {
    if (replica < 0 || replica >= plan_.replicas)
        throw Error("parameters: no replica " + std::to_string(replica));
    std::vector<double> whole;
    for (int s = 0; s < plan_.stages; ++s) {
        const auto& p = lanes_[static_cast<std::size_t>(replica * plan_.stages + s)]->parameters;
        whole.insert(whole.end(), p.begin(), p.end());
    }
    return whole;
}

PipelineReport PipelineTrainer::report() const {
    PipelineReport r = totals_;
    const Ticks end = lanes_.front()->clock;
    if (end > 0)
        r.bubble_fraction = static_cast<double>(bubble_) /
                            (static_cast<double>(end) * static_cast<double>(lanes_.size()));
    for (const auto& l : lanes_)
        r.peak_inflight_microbatches = std::max(r.peak_inflight_microbatches, l->peak);
    return r;
}

RunMetrics PipelineTrainer::metrics() const {
    RunMetrics m;
    m.workers = lanes();
    m.steps = step_;
    m.steps_run = step_;
    m.samples = samples_;
    m.total_time_s = to_seconds(lanes_.front()->clock);
    m.step_time_s = step_ ? m.total_time_s / static_cast<double>(step_) : 0.0;
    m.throughput = m.total_time_s > 0 ? static_cast<double>(samples_) / m.total_time_s : 0.0;
    m.per_worker = spent_;
    const double n = static_cast<double>(spent_.size());
    for (const auto& w : spent_) {
        m.compute_s += w.compute_s / n;
        m.communication_s += w.communication_s / n;
        m.waiting_s += w.waiting_s / n;
        m.update_s += w.update_s / n;
    }
    m.bytes_moved =
        totals_.activation_bytes + totals_.activation_gradient_bytes + totals_.gradient_bytes;
    m.final_loss = last_snapshot_.loss;
    m.final_accuracy = last_snapshot_.accuracy;
    m.replicas_aligned = aligned_;
    m.baseline_time_s = pipeline_baseline_time_s(scenario_);
    if (m.total_time_s > 0) {
        m.speedup = m.baseline_time_s / m.total_time_s;
        m.efficiency = m.speedup / static_cast<double>(m.workers);
    }
    return m;
}

double pipeline_baseline_time_s(const Scenario& s) {
    const int replicas =
        s.parallelism
            ? std::max(1, s.parallelism->mode == Parallelism::Hybrid ? s.parallelism->replicas : 1)
            : 1;
    const std::size_t global = s.batch * static_cast<std::size_t>(replicas);
    const Ticks per_step = to_ticks(compute_per_sample(s, global) * static_cast<double>(global)) +
                           to_ticks(s.cost.update_s);
    return to_seconds(per_step * s.steps);
}

} // namespace lockstep
