#include "trainers/setup.h"

#include "core/error.h"
#include "core/rng.h"
#include "model/model.h"
#include "trainers/data_parallel.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <string>

// How a run starts: its shards, its workers' places in them, its first parameters, its data.

namespace lockstep {

namespace detail {

std::optional<std::string> state_misfit(const Scenario& s, std::uint64_t hash,
                                        std::span<const Shard> shards, const TrainingState& state,
                                        RestoreMode mode) {
    if (state.scenario_hash != hash)
        return "the checkpoint belongs to another scenario";
    if (state.precision != s.model.precision)
        return "the checkpoint holds a " + std::string(to_string(state.precision)) +
               " model, this run trains in " + std::string(to_string(s.model.precision));
    if (state.workers() != s.workers)
        return "the checkpoint has " + std::to_string(state.workers()) + " workers, this run " +
               std::to_string(s.workers);
    const std::size_t n = s.model.parameter_count();
    if (state.parameters.size() != n)
        return "the checkpoint's model has " + std::to_string(state.parameters.size()) +
               " parameters, this run's " + std::to_string(n);
    if (state.step < 0 || state.step > s.steps)
        return "the checkpoint's step " + std::to_string(state.step) +
               " is outside this run (0 to " + std::to_string(s.steps) + ")";
    if (mode != RestoreMode::Full)
        return std::nullopt; // the optimizer and the data positions start afresh
    if (state.loss_scale.has_value() != s.loss_scale.has_value())
        return state.loss_scale ? "the checkpoint has a loss scale, this run scales nothing"
                                : "the checkpoint has no loss scale, this run scales its gradients";
    // The optimizer state must be the one this run's optimizer keeps, one entry per parameter.
    const OptimizerState& o = state.optimizer;
    const bool sgd = s.optimizer.kind == OptimizerKind::Sgd;
    const std::size_t velocity = sgd ? n : 0, moments = sgd ? 0 : n;
    if (o.velocity.size() != velocity || o.first_moment.size() != moments ||
        o.second_moment.size() != moments)
        return std::string("the checkpoint's optimizer state is not that of this run's ") +
               std::string(to_string(s.optimizer.kind)) + " for " + std::to_string(n) +
               " parameters";
    for (std::size_t k = 0; k < shards.size() && k < state.cursors.size(); ++k) {
        DataCursor probe = fresh_cursor(s, static_cast<int>(k), shards[k]);
        try {
            probe.set_state(state.cursors[k]);
        } catch (const Error& e) {
            return "worker " + std::to_string(k) + ": " + e.what();
        }
    }
    return std::nullopt;
}

std::vector<Shard> make_shards(const Scenario& s, std::size_t rows) {
    if (s.shard_sizes.empty())
        return equal_shards(rows, s.workers);
    try {
        return sized_shards(rows, s.shard_sizes);
    } catch (const Error& e) {
        throw Error(std::string("shard_sizes: ") + e.what());
    }
}

// Worker k's place in its shard at the start of a run: its own generator stream of the seed.
DataCursor fresh_cursor(const Scenario& s, int worker, Shard shard) {
    return DataCursor(shard, s.shuffle,
                      Rng::stream(s.seed, 1000 + static_cast<std::uint64_t>(worker)));
}

std::vector<double> initial_parameters(const Scenario& s) {
    if (!s.init_params.empty())
        return parameters_from_json(s.model, read_text_file(s.init_params));
    Rng rng = Rng::stream(s.seed, 0);
    return init_parameters(s.model, rng);
}

void check_data_fits(const Scenario& s, const Dataset* data) {
    if (!data)
        throw Error("dataset: no data");
    check_model_fits(s, *data);
    if (data->size() < static_cast<std::size_t>(s.workers))
        throw Error("dataset: " + std::to_string(data->size()) + " rows cannot be shared by " +
                    std::to_string(s.workers) + " workers");
}

void check_model_fits(const Scenario& s, const Dataset& data) {
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

void add_lane_time(std::vector<WorkerMetrics>& spent, std::span<const TraceEvent> events) {
    const auto step = worker_metrics(events, static_cast<int>(spent.size()));
    for (std::size_t k = 0; k < step.size(); ++k) {
        spent[k].compute_s += step[k].compute_s;
        spent[k].communication_s += step[k].communication_s;
        spent[k].waiting_s += step[k].waiting_s;
        spent[k].update_s += step[k].update_s;
    }
}

void hand_over_step(TraceSink* sink, std::vector<TraceEvent>& events, StepSnapshot& snapshot,
                    std::int64_t step) {
    if (!sink)
        return;
    std::stable_sort(events.begin(), events.end(),
                     [](const TraceEvent& a, const TraceEvent& b) { return a.start < b.start; });
    for (TraceEvent& e : events)
        e.ordinal = static_cast<int>(std::min<std::int64_t>(step, INT32_MAX));
    sink->on_events(events);
    snapshot.ordinal = step;
    sink->on_snapshot(snapshot);
}

int workers_per_node(const Scenario& s) {
    return s.cost.topology.machines() ? s.cost.topology.workers_per_node : 0;
}

std::vector<int> nodes_of(const Scenario& s, std::span<const int> lanes) {
    std::vector<int> nodes;
    nodes.reserve(lanes.size());
    for (const int lane : lanes)
        nodes.push_back(s.cost.topology.node_of(lane));
    return nodes;
}

std::vector<int> nodes_of(const Scenario& s) {
    std::vector<int> lanes(static_cast<std::size_t>(s.workers));
    std::iota(lanes.begin(), lanes.end(), 0);
    return nodes_of(s, lanes);
}

// Bytes of `schedule` between machines; none counted without `nodes`.
static std::int64_t between(const CommSchedule& schedule, std::span<const int> nodes) {
    return nodes.empty() ? 0 : schedule.bytes_between_nodes(nodes);
}

BucketPlan plan_buckets(const Scenario& s, std::span<const int> nodes) {
    BucketPlan plan;
    const ModelShape& shape = s.model;
    for (std::size_t l = 0; l < shape.layer_count(); ++l)
        plan.layer_parameters.push_back(shape.weight_offset(l + 1) - shape.weight_offset(l));
    if (!s.gradients || s.gradients->bucket_kb == 0 || s.algorithm == Algorithm::None ||
        s.workers < 2)
        return plan;
    plan.buckets = make_buckets(plan.layer_parameters, s.gradients->bucket_kb * std::size_t{1024});
    for (const Bucket& b : plan.buckets) {
        plan.schedules.push_back(bucket_schedule(s.algorithm, s.workers, shape.parameter_count(), b,
                                                 workers_per_node(s)));
        plan.schedules.back().send_as(s.wire_precision());
        plan.bytes += plan.schedules.back().total_bytes();
        plan.inter_bytes += between(plan.schedules.back(), nodes);
    }
    return plan;
}

ShardPlan plan_sharding(const Scenario& s, std::span<const int> nodes) {
    ShardPlan plan;
    if (s.sharding == Sharding::None || s.workers < 2 || s.algorithm == Algorithm::None)
        return plan;
    if (s.sharding == Sharding::Parameters) {
        plan.layers = layer_collectives(s.algorithm, s.workers, plan_buckets(s).layer_parameters,
                                        workers_per_node(s));
        for (const ShardedCollective& layer : plan.layers) {
            const std::int64_t gathers = 2 * s.accumulation(); // before forward and backward
            plan.reduce_scatter_bytes += layer.reduce_scatter.total_bytes();
            plan.all_gather_bytes += gathers * layer.all_gather.total_bytes();
            plan.inter_bytes +=
                between(layer.reduce_scatter, nodes) + gathers * between(layer.all_gather, nodes);
        }
        return plan;
    }
    plan.whole =
        sharded_collective(s.algorithm, s.workers, s.model.parameter_count(), workers_per_node(s));
    plan.reduce_scatter_bytes = plan.whole->reduce_scatter.total_bytes();
    plan.all_gather_bytes = plan.whole->all_gather.total_bytes();
    plan.inter_bytes =
        between(plan.whole->reduce_scatter, nodes) + between(plan.whole->all_gather, nodes);
    return plan;
}

void keep_shard(const Scenario& s, std::span<const ValueRun> runs, Optimizer& optimizer,
                AlignedBuffer& parameters, AlignedBuffer& gradient, AlignedBuffer& shard_gradient) {
    const OptimizerState& whole = optimizer.state();
    OptimizerState mine;
    mine.step = whole.step;
    mine.velocity = cut_runs(whole.velocity, runs);
    mine.first_moment = cut_runs(whole.first_moment, runs);
    mine.second_moment = cut_runs(whole.second_moment, runs);
    std::size_t size = 0;
    for (const auto& run : runs)
        size += run.second;
    optimizer = Optimizer(s.optimizer, size, s.model.precision);
    optimizer.state() = std::move(mine);
    if (s.sharding == Sharding::Parameters) {
        parameters = cut_runs(parameters, runs);
        gradient = AlignedBuffer(size, 0.0); // no more room than its pieces take
    } else if (s.sharding == Sharding::Gradients) {
        shard_gradient.assign(size, 0.0);
        release(gradient);
    }
}

void check_pause(const Scenario& s, int worker, double seconds) {
    if (worker < 0 || worker >= s.workers)
        throw Error("pause: no worker " + std::to_string(worker));
    if (!(seconds >= 0.0 && seconds <= 86400.0))
        throw Error("pause: the length must be between 0 and 86400 seconds");
}

} // namespace detail

std::shared_ptr<const Dataset> load_dataset(const Scenario& s) {
    if (!s.dataset.csv.empty())
        return std::make_shared<const Dataset>(load_csv(s.dataset.csv));
    SyntheticSpec spec;
    spec.name = s.dataset.name;
    spec.samples = s.dataset.samples;
    spec.noise = s.dataset.noise;
    spec.classes =
        (s.dataset.name == "xor" || s.dataset.name == "circles" || s.dataset.name == "regression")
            ? (s.dataset.name == "regression" ? 1 : 2)
            : s.dataset.classes;
    spec.seed = s.seed;
    return std::make_shared<const Dataset>(make_synthetic(spec));
}

} // namespace lockstep
