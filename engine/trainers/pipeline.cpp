#include "trainers/pipeline.h"

#include "clocks/cost_model.h"
#include "trainers/pipeline_lane.h"
#include "trainers/setup.h"

#include "collectives/reduction.h"
#include "core/error.h"
#include "core/rng.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>

namespace lockstep {

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
    detail::check_model_fits(s, data);
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

    const auto whole = detail::initial_parameters(scenario_);
    const ModelShape& shape = scenario_.model;
    const double per_sample =
        compute_s_per_sample(scenario_, scenario_.batch * static_cast<std::size_t>(replicas));
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
                const PassCost passes = split_passes(seconds);
                forward.push_back(passes.forward);
                backward.push_back(passes.backward);
            }
            lanes_.emplace_back(std::move(lane));
        }
    // One message per micro-batch over each stage boundary, each way: alpha + bytes * beta.
    for (int s = 0; s + 1 < stages; ++s) {
        auto& costs = transfer_cost_.emplace_back();
        const std::size_t boundary = width(shape, plan_.ranges[static_cast<std::size_t>(s)].end);
        for (std::size_t i = 0; i < m; ++i) {
            const auto bytes =
                static_cast<std::int64_t>(plan_.microbatch_rows[i] * boundary * sizeof(double));
            // Textbook mode prices the step's communication as one fixed time instead.
            costs.push_back(scenario_.cost.communication_s_per_step
                                ? 0
                                : price_message(scenario_.cost, bytes, Message::Op::Copy).transfer);
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
PipelineTrainer::PipelineTrainer(const PipelineTrainer&) = default;

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
    const PipelineReport before = totals_;
    load_batches();                     // each replica's next batch
    const auto waves = schedule_step(); // who runs what when, on the modelled clock
    run_waves(waves);                   // the real passes, wave by wave
    combine_gradients();                // hybrid: all-reduce per stage
    charge_fixed_communication(before); // textbook mode: one fixed time for all of it
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

std::vector<ReplicaState> PipelineTrainer::replicas() const {
    std::vector<ReplicaState> out;
    for (int r = 0; r < plan_.replicas; ++r)
        out.push_back({parameters(r), {}, {}, 0});
    return out;
}

} // namespace lockstep
