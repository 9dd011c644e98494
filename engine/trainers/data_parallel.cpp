// A data-parallel run: its construction, its collective and prices, and the step phase by phase.
#include "trainers/data_parallel.h"

#include "clocks/cost_model.h"
#include "collectives/reduction.h"
#include "core/error.h"
#include "trainers/setup.h"

#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lockstep {

using detail::fresh_cursor;
using detail::initial_parameters;
using detail::make_shards;

DataParallelTrainer::DataParallelTrainer(const Scenario& scenario,
                                         std::shared_ptr<const Dataset> data, TraceSink* sink,
                                         Work work)
    : scenario_(scenario)
    , work_(work)
    , data_(std::move(data))
    , sink_(sink)
    , run_rng_(Rng::stream(scenario.seed, 1)) {
    validate(scenario_);
    if (scenario_.model_parallel())
        throw Error("parallelism.mode: \"" + std::string(to_string(scenario_.parallelism->mode)) +
                    "\" is trained by lockstep-cli run (pipeline and tensor trainers); this "
                    "data-parallel trainer takes \"data\" only");
    if (scenario_.sync_mode() == SyncMode::Ssp || scenario_.sync_mode() == SyncMode::Async)
        throw Error("sync.mode: " + std::string(to_string(scenario_.sync_mode())) +
                    " has no barrier; make_run() builds its trainer (LooseSyncTrainer)");
    if (work_ == Work::TimesOnly && scenario_.clock == ClockKind::Measured)
        throw Error(
            "clock: a measured run must really train (times-only needs the modelled clock)");
    detail::check_data_fits(scenario_, data_.get());

    const int n = scenario_.workers;
    const auto shards = make_shards(scenario_, data_->size());
    const auto params = initial_parameters(scenario_);
    const std::size_t count = params.size();

    workers_.reserve(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        Worker w{k,
                 AlignedBuffer(params.begin(), params.end()),
                 Optimizer(scenario_.optimizer, count, scenario_.model.precision),
                 fresh_cursor(scenario_, k, shards[static_cast<std::size_t>(k)]),
                 AlignedBuffer(count, 0.0),
                 {},
                 {},
                 0,
                 {},
                 {},
                 {}};
        workers_.push_back(std::move(w));
    }

    hash_ = scenario_hash(scenario_);
    if (scenario_.loss_scale)
        loss_scale_.scale = scenario_.loss_scale->initial;
    lanes_ = n;
    faults_.lane_of.resize(static_cast<std::size_t>(n));
    std::iota(faults_.lane_of.begin(), faults_.lane_of.end(), 0);
    faults_.link_factor.assign(static_cast<std::size_t>(n), 1.0);
    for (const FailureSpec& f : scenario_.failures.events) {
        if (f.kind == FailureKind::Pause)
            scenario_.delays.pauses.push_back({f.worker, f.step, f.seconds});
        else if (work_ == Work::Train || f.kind == FailureKind::SlowLink ||
                 f.kind == FailureKind::BucketOrder)
            faults_.pending.push_back(f); // times-only runs keep no state to lose or damage
    }
    build_collective();
    shard_whole_state(); // a sharded run: each worker keeps its shard from the start
    price_compute();
    accounts_.spent.assign(static_cast<std::size_t>(n), {});
    accounts_.memory.assign(static_cast<std::size_t>(n), {});
    accounts_.collective.assign(static_cast<std::size_t>(n), 0);
    accounts_.exposed.assign(static_cast<std::size_t>(n), 0);
    clock_ = Indirect<Clock>(make_clock(scenario_.clock));
}

void DataParallelTrainer::build_collective() {
    // The collective, its prices and the rule's weights, for the workers there are now.
    const Scenario& s = scenario_;
    collective_.nodes = detail::nodes_of(s, faults_.lane_of);
    collective_.schedule = make_schedule(s.algorithm, s.workers, s.model.parameter_count(),
                                         detail::workers_per_node(s));
    collective_.schedule.send_as(s.wire_precision());
    collective_.bytes = collective_.schedule.total_bytes();
    collective_.inter_bytes = inter_node_bytes(collective_.schedule);
    detail::BucketPlan plan = detail::plan_buckets(s, collective_.nodes);
    collective_.buckets = std::move(plan.buckets);
    collective_.bucket_schedules = std::move(plan.schedules);
    collective_.layer_parameters = std::move(plan.layer_parameters);
    if (!collective_.buckets.empty()) {
        collective_.bytes = plan.bytes;
        collective_.inter_bytes = plan.inter_bytes;
    }
    detail::ShardPlan shards = detail::plan_sharding(s, collective_.nodes);
    collective_.sharded = std::move(shards.whole);
    collective_.layers = std::move(shards.layers);
    if (collective_.sharded || !collective_.layers.empty()) {
        collective_.bytes = shards.reduce_scatter_bytes + shards.all_gather_bytes;
        collective_.inter_bytes = shards.inter_bytes;
    }
    scratch_.busy.assign(workers_.size(), {});
    std::vector<double> samples;
    for (int i = 0; i < s.workers; ++i)
        samples.push_back(static_cast<double>(s.batch_of(i)));
    collective_.weights = reduction_weights(s.rule, s.workers, samples);
}

void DataParallelTrainer::price_compute() {
    // Textbook mode spreads the one-worker job's compute evenly over its samples.
    compute_s_per_sample_ = compute_s_per_sample(scenario_, scenario_.scaling == Scaling::Strong
                                                                ? scenario_.global_batch()
                                                                : scenario_.batch_of(0));
}

void DataParallelTrainer::run() {
    while (!finished())
        step();
}

void DataParallelTrainer::step() {
    if (finished())
        return;
    execute_step();
    ++ordinal_;
}

void DataParallelTrainer::execute_step() {
    scratch_.events.clear();
    start_step_faults();
    if (broadcast_due_)
        broadcast_parameters();
    if (ordinal_ == 0)
        note_memory(); // what each worker holds before it trains: the Memory view's first columns
    // A crash due in this step strikes in its phase. With backup workers it is simply a gradient
    // that never arrives, whatever the phase: the step goes on with the others.
    const std::optional<FailureSpec> crash = take_crash(false);
    const bool backup = scenario_.failures.policy == RecoveryPolicy::Backup;
    const int victim = crash ? index_of_lane(crash->worker) : -1;
    auto abandon = [&](int index) {
        fail(*crash, index, workers_[static_cast<std::size_t>(index)].clock);
        if (sink_)
            sink_->on_events(scratch_.events);
    };
    if (crash && (backup || crash->phase == CrashPhase::Compute))
        faults_.crashing = victim;
    if (scenario_.compare_precision && work_ == Work::Train)
        keep_reference_cursors();
    compute_phase(); // 1-2: own gradient, scaled by the rule's weight
    if (faults_.crashing >= 0) {
        const int index = std::exchange(faults_.crashing, -1);
        if (!backup)
            return abandon(index); // rolled back: the rest of this step never happens
        fail(*crash, index, workers_[static_cast<std::size_t>(index)].clock);
    } else if (crash && crash->phase == CrashPhase::Communicate) {
        return abandon(victim);
    }
    if (!communicate_phase()) { // 3: the collective combines them
        update_phase(false);    // the buckets did not match: nothing is applied this step
        if (sink_)
            sink_->on_events(scratch_.events);
        return finish_step();
    }
    if (crash && !backup && crash->phase == CrashPhase::Update)
        return abandon(victim);
    const double scaled_by = loss_scale_.scale;
    if (summed_gradient_overflowed()) { // nobody applies a gradient that is not a number
        if (scenario_.compare_precision && work_ == Work::Train)
            accounts_.precision_gap.push_back(std::numeric_limits<double>::infinity());
        ++accounts_.overflow_steps;
        unscale_gradients(true); // the next step's scale is lower
        update_phase(false);
        last_snapshot_.overflow = true;
        last_snapshot_.loss_scale = scaled_by;
        if (sink_)
            sink_->on_events(scratch_.events);
        return finish_step();
    }
    unscale_gradients(false);
    if (scenario_.compare_precision && work_ == Work::Train)
        accounts_.precision_gap.push_back(gap_from_float64());
    update_phase(); // 4-5: same update everywhere, then hash
    last_snapshot_.loss_scale = scaled_by;
    if (averaging_due())
        average_phase(); // local SGD: every H steps the replicas average their parameters
    if (!checkpoints_.directory.empty() && (step_ + 1) % scenario_.checkpoint->every == 0) {
        checkpoint_phase(); // 6: every K steps, save the whole state and commit it
        if (faults_.rolled_back) {
            faults_.rolled_back = false;
            if (sink_)
                sink_->on_events(scratch_.events);
            return;
        }
    }
    mark_dead_lanes(last_snapshot_.time);
    if (sink_)
        sink_->on_events(scratch_.events);
    finish_step();
}

} // namespace lockstep
