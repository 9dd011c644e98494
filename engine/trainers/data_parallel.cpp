#include "trainers/data_parallel.h"

#include "clocks/cost_model.h"

#include "collectives/reduction.h"
#include "core/error.h"
#include "trainers/setup.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <thread>

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
                 params,
                 Optimizer(scenario_.optimizer, count),
                 fresh_cursor(scenario_, k, shards[static_cast<std::size_t>(k)]),
                 std::vector<double>(count, 0.0),
                 {},
                 {},
                 {},
                 {},
                 {},
                 0};
        workers_.push_back(std::move(w));
    }

    hash_ = scenario_hash(scenario_);
    lanes_ = n;
    faults_.lane_of.resize(static_cast<std::size_t>(n));
    std::iota(faults_.lane_of.begin(), faults_.lane_of.end(), 0);
    faults_.link_factor.assign(static_cast<std::size_t>(n), 1.0);
    for (const FailureSpec& f : scenario_.failures.events) {
        if (f.kind == FailureKind::Pause)
            scenario_.delays.pauses.push_back({f.worker, f.step, f.seconds});
        else if (work_ == Work::Train || f.kind == FailureKind::SlowLink)
            faults_.pending.push_back(f); // times-only runs keep no state to lose or damage
    }
    build_collective();
    price_compute();
    accounts_.spent.assign(static_cast<std::size_t>(n), {});
    clock_ = Indirect<Clock>(make_clock(scenario_.clock));
}

void DataParallelTrainer::build_collective() {
    // The collective, its prices and the rule's weights, for the workers there are now.
    const Scenario& s = scenario_;
    collective_.schedule =
        make_schedule(s.algorithm, s.workers, workers_.front().parameters.size());
    collective_.bytes = collective_.schedule.total_bytes();
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
    compute_phase(); // 1-2: own gradient, scaled by the rule's weight
    if (faults_.crashing >= 0) {
        const int index = std::exchange(faults_.crashing, -1);
        if (!backup)
            return abandon(index); // rolled back: the rest of this step never happens
        fail(*crash, index, workers_[static_cast<std::size_t>(index)].clock);
    } else if (crash && crash->phase == CrashPhase::Communicate) {
        return abandon(victim);
    }
    communicate_phase(); // 3: the collective combines them
    if (crash && !backup && crash->phase == CrashPhase::Update)
        return abandon(victim);
    update_phase(); // 4-5: same update everywhere, then hash
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

Ticks DataParallelTrainer::compute_cost(int worker, std::size_t samples) {
    return lockstep::compute_cost(scenario_, compute_s_per_sample_, worker, samples, run_rng_);
}

void DataParallelTrainer::compute_phase() {
    const auto n = workers_.size();
    const Clock& clock = *clock_;
    // Local SGD: each replica follows its own gradient; parameters are averaged every H steps.
    const bool synchronised =
        scenario_.algorithm != Algorithm::None && scenario_.sync_mode() != SyncMode::Local;

    // Prices are drawn serially, in worker order, so they never depend on threads.
    std::vector<Ticks> cost(n, 0), pause(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
        cost[k] = compute_cost(static_cast<int>(k), scenario_.batch_of(static_cast<int>(k)));
        for (const auto& p : scenario_.delays.pauses)
            if (p.worker == static_cast<int>(k) && p.step == step_)
                pause[k] += to_ticks(p.seconds);
    }

    std::vector<Ticks> started(n), ended(n);
    const bool train = work_ == Work::Train;
    tbb::parallel_for(std::size_t{0}, train ? n : 0, [&](std::size_t k) {
        Worker& w = workers_[k];
        started[k] = clock.now();
        w.cursor.next_batch(scenario_.batch_of(static_cast<int>(k)), w.rows);
        gather_rows(*data_, w.rows, w.batch_features, w.batch_targets);
        const BatchView batch{w.batch_features.data(), w.batch_targets.data(), w.rows.size()};
        w.last = loss_and_gradient(scenario_.model, w.parameters, batch, w.gradient, w.work);
        ended[k] = clock.now();
    });
    // Where each worker's computation begins and how long it takes, on the run's clock.
    std::vector<Ticks> from(n), took(n);
    for (std::size_t k = 0; k < n; ++k) {
        from[k] = clock.begins(workers_[k].clock, started[k]);
        took[k] =
            clock.took(cost[k], started[k], ended[k], scenario_.slowdown_of(static_cast<int>(k)));
    }

    // With backup workers (or a worker crashing), only the first gradients to arrive count: the
    // others stop at the moment the step moves on, and their gradients are dropped.
    const bool selective =
        synchronised && n > 1 &&
        (scenario_.failures.backup_workers > 0 ||
         (faults_.crashing >= 0 && scenario_.failures.policy == RecoveryPolicy::Backup));
    Ticks cut = std::numeric_limits<Ticks>::max();
    if (selective) {
        std::vector<Ticks> finish(n);
        for (std::size_t k = 0; k < n; ++k)
            finish[k] = from[k] + pause[k] + took[k];
        choose_backups(finish, faults_.crashing);
        for (std::size_t k = 0; k < n; ++k)
            if (scratch_.chosen[k])
                cut =
                    cut == std::numeric_limits<Ticks>::max() ? finish[k] : std::max(cut, finish[k]);
    }

    Ticks latest = 0;
    for (std::size_t k = 0; k < n; ++k) {
        Worker& w = workers_[k];
        const int id = static_cast<int>(k);
        const double gradient0 = w.gradient.empty() ? 0.0 : w.gradient[0];
        if (id == faults_.crashing) {
            // It dies half way through its computation: its gradient never leaves it.
            const Ticks half = took[k] / 2;
            emit({id, EventKind::Compute, step_, from[k], from[k] + half, 0, -1, -1, gradient0});
            w.clock = from[k] + half;
            continue;
        }
        if (selective && !scratch_.chosen[k]) {
            // Late: abandoned when the step moves on without it.
            const Ticks stop = std::max(from[k], cut);
            const Ticks paused = std::min(pause[k], stop - from[k]);
            if (paused > 0)
                emit({id, EventKind::Pause, step_, from[k], from[k] + paused});
            if (stop > from[k] + paused)
                emit({id, EventKind::Compute, step_, from[k] + paused, stop, 0, -1, -1, gradient0});
            w.clock = stop;
            if (train)
                scale_contribution(w.gradient, 0.0);
            accounts_.samples += static_cast<std::int64_t>(scenario_.batch_of(id));
            accounts_.dropped_samples += static_cast<std::int64_t>(scenario_.batch_of(id));
            continue;
        }
        // A pause stalls the worker before it computes; on the measured clock both are realised
        // as a real sleep after the tasks, never inside a task that others depend on.
        w.clock = from[k];
        if (pause[k] > 0) {
            emit({id, EventKind::Pause, step_, w.clock, w.clock + pause[k]});
            w.clock += pause[k];
        }
        emit({id, EventKind::Compute, step_, w.clock, w.clock + took[k], 0, -1, -1, gradient0});
        w.clock += took[k];
        latest = std::max(latest, w.clock);
        if (synchronised && train)
            scale_contribution(w.gradient,
                               selective ? scratch_.chosen_weights[k] : collective_.weights[k]);
        accounts_.samples += static_cast<std::int64_t>(scenario_.batch_of(id));
    }
    clock.wait_until(latest, stop_);
}

void DataParallelTrainer::barrier() {
    Ticks latest = 0;
    for (const auto& w : workers_)
        latest = std::max(latest, w.clock);
    for (auto& w : workers_) {
        if (w.clock < latest)
            emit({w.id, EventKind::Wait, step_, w.clock, latest});
        w.clock = latest;
    }
}

void DataParallelTrainer::communicate_phase() {
    if (scenario_.algorithm == Algorithm::None || workers_.size() == 1 ||
        scenario_.sync_mode() == SyncMode::Local)
        return;
    all_reduce_buffers();
}

bool DataParallelTrainer::averaging_due() const {
    return scenario_.sync_mode() == SyncMode::Local && workers_.size() > 1 &&
           ((step_ + 1) % scenario_.sync->local_steps == 0 || step_ + 1 == scenario_.steps);
}

void DataParallelTrainer::average_phase() {
    // Each replica's parameters, weighted by the rule, go through the collective in the gradient
    // buffers; what comes back is the average every replica now holds.
    const bool train = work_ == Work::Train;
    ++accounts_.averagings;
    if (train)
        for (std::size_t k = 0; k < workers_.size(); ++k) {
            Worker& w = workers_[k];
            w.gradient.assign(w.parameters.begin(), w.parameters.end());
            scale_contribution(w.gradient, collective_.weights[k]);
        }
    all_reduce_buffers();
    StepSnapshot& snap = last_snapshot_;
    snap.replicas_aligned = true;
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        if (train) {
            w.parameters.assign(w.gradient.begin(), w.gradient.end());
            snap.parameter_hash[k] = hash_parameters(w.parameters);
            snap.replicas_aligned =
                snap.replicas_aligned && snap.parameter_hash[k] == snap.parameter_hash[0];
        }
        snap.time = std::max(snap.time, w.clock);
    }
}

void DataParallelTrainer::all_reduce_buffers() {

    // The real data movement: every round's bytes go from buffer to buffer.
    std::vector<std::span<double>> buffers;
    buffers.reserve(workers_.size());
    for (auto& w : workers_)
        buffers.emplace_back(w.gradient);
    if (work_ == Work::Train)
        accounts_.bytes_moved += collective_.bytes; // a times-only run moves nothing

    if (scenario_.cost.communication_s_per_step) {
        // Textbook mode: a barrier, then a fixed communication time for everyone.
        for (auto& w : workers_)
            w.clock = clock_->begins(w.clock, clock_->now());
        if (work_ == Work::Train)
            run_all_reduce(collective_.schedule, transport_, buffers);
        barrier();
        const Ticks cost = to_ticks(*scenario_.cost.communication_s_per_step);
        clock_->wait_until(workers_.front().clock + cost, stop_);
        for (auto& w : workers_) {
            emit({w.id, EventKind::Communicate, step_, w.clock, w.clock + cost,
                  collective_.schedule.total_bytes() / static_cast<std::int64_t>(workers_.size())});
            w.clock += cost;
        }
        return;
    }
    // Here the two clocks do different work: the modelled clock prices the schedule
    // the transport ran; the measured clock times each real round as the transport runs it.
    if (clock_->kind() == ClockKind::Modelled) {
        if (work_ == Work::Train)
            run_all_reduce(collective_.schedule, transport_, buffers);
        price_schedule();
    } else {
        run_measured_collective();
    }
}

void DataParallelTrainer::update_phase() {
    const auto n = workers_.size();
    const Clock& clock = *clock_;
    std::vector<Ticks> started(n), ended(n);
    std::vector<std::uint64_t> hashes(n);
    const bool train = work_ == Work::Train;
    tbb::parallel_for(std::size_t{0}, train ? n : 0, [&](std::size_t k) {
        Worker& w = workers_[k];
        started[k] = clock.now();
        w.optimizer.apply(w.parameters, w.gradient);
        hashes[k] = hash_parameters(w.parameters);
        ended[k] = clock.now();
    });
    const Ticks update = to_ticks(scenario_.cost.update_s);
    for (std::size_t k = 0; k < n; ++k) {
        Worker& w = workers_[k];
        const double gradient0 = w.gradient.empty() ? 0.0 : w.gradient[0];
        const Ticks start = clock.begins(w.clock, started[k]);
        const Ticks end = start + clock.took(update, started[k], ended[k]);
        emit({w.id, EventKind::Update, step_, start, end, 0, -1, -1, gradient0});
        w.clock = end;
    }

    StepSnapshot snap;
    snap.step = step_;
    snap.ordinal = ordinal_;
    std::size_t correct = 0, counted = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const Worker& w = workers_[k];
        snap.time = std::max(snap.time, w.clock);
        snap.worker_loss.push_back(w.last.loss);
        if (train)
            snap.parameter_hash.push_back(hashes[k]);
        snap.loss += w.last.loss / static_cast<double>(n);
        correct += w.last.correct;
        counted += w.last.count;
        snap.replicas_aligned = snap.replicas_aligned && hashes[k] == hashes[0];
    }
    snap.accuracy = counted ? static_cast<double>(correct) / static_cast<double>(counted) : 0.0;
    if (!train) {
        snap.loss = snap.accuracy = std::numeric_limits<double>::quiet_NaN();
        snap.worker_loss.assign(n, snap.loss);
    }
    last_snapshot_ = std::move(snap);
}

void DataParallelTrainer::finish_step() {
    if (work_ == Work::Train && !last_snapshot_.replicas_aligned) {
        std::vector<std::span<const double>> replicas;
        for (const Worker& w : workers_)
            replicas.emplace_back(w.parameters);
        last_snapshot_.replica_distance = replica_distances(replicas);
        last_snapshot_.replica_spread = *std::max_element(last_snapshot_.replica_distance.begin(),
                                                          last_snapshot_.replica_distance.end());
    }
    aligned_ = last_snapshot_.replicas_aligned;
    accounts_.applied += static_cast<std::int64_t>(workers_.size()); // each fresh: staleness 0
    if (!aligned_)
        ++accounts_.misaligned_steps;
    if (sink_)
        sink_->on_snapshot(last_snapshot_);
    if (work_ == Work::Train)
        accounts_.progress.push_back(
            {step_, to_seconds(last_snapshot_.time), last_snapshot_.loss, energy_so_far()});
    ++step_;
    ++steps_run_;
}

std::vector<double> replica_distances(std::span<const std::span<const double>> replicas) {
    if (replicas.size() < 2)
        return std::vector<double>(replicas.size(), 0.0);
    const std::size_t count = replicas.front().size();
    std::vector<double> mean(count, 0.0);
    for (const auto& r : replicas)
        for (std::size_t i = 0; i < count; ++i)
            mean[i] += r[i];
    for (double& x : mean)
        x /= static_cast<double>(replicas.size());
    std::vector<double> out;
    out.reserve(replicas.size());
    for (const auto& r : replicas) {
        double d = 0.0;
        for (std::size_t i = 0; i < count; ++i)
            d += (r[i] - mean[i]) * (r[i] - mean[i]);
        out.push_back(std::sqrt(d));
    }
    return out;
}

double replica_spread(std::span<const std::span<const double>> replicas) {
    const std::vector<double> d = replica_distances(replicas);
    return d.empty() ? 0.0 : *std::max_element(d.begin(), d.end());
}

} // namespace lockstep
