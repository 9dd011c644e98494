// The phases of a data-parallel step: compute, communicate, update, and local SGD's averaging.
#include "trainers/data_parallel.h"

#include "clocks/cost_model.h"
#include "collectives/reduction.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace lockstep {

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
    // With accumulation a worker computes K micro-batches of its batch.
    const auto micro = static_cast<std::size_t>(scenario_.accumulation());
    std::vector<Ticks> cost(n, 0), pause(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
        cost[k] = compute_cost(static_cast<int>(k), samples_of(static_cast<int>(k)));
        for (const auto& p : scenario_.delays.pauses)
            if (p.worker == static_cast<int>(k) && p.step == step_)
                pause[k] += to_ticks(p.seconds);
    }

    if (layer_sharded())
        return compute_layer_by_layer(cost, pause); // each layer gathered when a pass needs it
    unshard_gradients();
    std::vector<Ticks> started(n), ended(n);
    const bool train = work_ == Work::Train;
    scratch_.live.ran = false;
    if (live_overlap(pause))
        compute_live(started, ended, micro); // the buckets leave while backward goes on
    else
        tbb::parallel_for(std::size_t{0}, train ? n : 0, [&](std::size_t k) {
            Worker& w = workers_[k];
            started[k] = clock.now();
            compute_gradient(w, scenario_.batch_of(static_cast<int>(k)), micro);
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
    scratch_.computed_from.assign(n, 0);
    scratch_.computed_took.assign(n, -1);
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
            accounts_.samples += static_cast<std::int64_t>(samples_of(id));
            accounts_.dropped_samples += static_cast<std::int64_t>(samples_of(id));
            continue;
        }
        // A pause stalls the worker before it computes; on the measured clock both are realised
        // as a real sleep after the tasks, never inside a task that others depend on.
        w.clock = from[k];
        if (pause[k] > 0) {
            emit({id, EventKind::Pause, step_, w.clock, w.clock + pause[k]});
            w.clock += pause[k];
        }
        emit_computation(id, w.clock, took[k], gradient0);
        scratch_.computed_from[k] = w.clock;
        scratch_.computed_took[k] = took[k];
        w.clock += took[k];
        latest = std::max(latest, w.clock);
        if (synchronised && train && !scratch_.live.ran) { // live: scaled layer by layer
            scale_contribution(w.gradient,
                               (selective ? scratch_.chosen_weights[k] : collective_.weights[k]) *
                                   loss_scale_.scale);
            round_to(scenario_.wire_precision(), w.gradient); // as it leaves the worker
        }
        accounts_.samples += static_cast<std::int64_t>(samples_of(id));
    }
    clock.wait_until(latest, stop_);
}

std::size_t DataParallelTrainer::samples_of(int worker) const {
    return scenario_.batch_of(worker) * static_cast<std::size_t>(scenario_.accumulation());
}

void DataParallelTrainer::compute_gradient(Worker& w, std::size_t batch, std::size_t micro,
                                           const LayerDone* ready) {
    w.last = accumulated_gradient(scenario_.model, w.parameters, *data_, w.cursor, batch, micro,
                                  w.gradient, w.scratch, ready);
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

bool DataParallelTrainer::communicate_phase() {
    if (scenario_.algorithm == Algorithm::None || workers_.size() == 1 ||
        scenario_.sync_mode() == SyncMode::Local)
        return true;
    if (bucketed())
        return reduce_buckets();
    if (layer_sharded())
        return true; // reduce-scattered layer by layer as backward went
    if (collective_.sharded) {
        reduce_scatter_gradients();
        return true;
    }
    std::vector<Ticks> computed(workers_.size()), spent(workers_.size());
    for (std::size_t k = 0; k < workers_.size(); ++k)
        computed[k] = workers_[k].clock;
    if (clock_->kind() == ClockKind::Measured && !scenario_.cost.communication_s_per_step) {
        const std::vector<Ticks> before = communication_ticks();
        all_reduce_buffers();
        account_measured_exposure(before); // its real rounds, all after backward
        return true;
    }
    all_reduce_buffers();
    for (std::size_t k = 0; k < workers_.size(); ++k)
        spent[k] = workers_[k].clock - computed[k];
    account_exposure(computed, spent); // one collective after backward: all of it exposed
    return true;
}

// An infinity, or a NaN from infinities of both signs; every replica holds the same sum, so
// worker 0's tells.
bool DataParallelTrainer::summed_gradient_overflowed() const {
    return scenario_.wire_precision() != WirePrecision::Float64 && work_ == Work::Train &&
           overflowed(workers_.front().gradient);
}

void DataParallelTrainer::unscale_gradients(bool overflow) {
    if (!scenario_.loss_scale)
        return;
    if (!overflow && work_ == Work::Train)
        for (Worker& w : workers_)
            scale_contribution(w.gradient, 1.0 / loss_scale_.scale);
    loss_scale_ = after_step(loss_scale_, overflow, scenario_.loss_scale->growth_interval);
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
        count_moved(collective_.bytes, collective_.inter_bytes); // times only: nothing

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

void DataParallelTrainer::update_phase(bool apply) {
    const auto n = workers_.size();
    const Clock& clock = *clock_;
    std::vector<Ticks> started(n), ended(n);
    std::vector<std::uint64_t> hashes(n);
    const bool train = work_ == Work::Train;
    tbb::parallel_for(std::size_t{0}, train ? n : 0, [&](std::size_t k) {
        Worker& w = workers_[k];
        started[k] = clock.now();
        if (apply && (collective_.sharded || layer_sharded()))
            apply_to_shard(w, k);
        else if (apply)
            w.optimizer.apply(w.parameters, w.gradient);
        hashes[k] = hash_parameters(w.parameters);
        ended[k] = clock.now();
    });
    const Ticks update = to_ticks(scenario_.cost.update_s);
    for (std::size_t k = 0; k < n; ++k) {
        Worker& w = workers_[k];
        const double gradient0 = w.gradient.empty() ? 0.0 : w.gradient[0];
        if (!apply)
            continue;
        // A sharded worker updates its shard only: that share of the whole update's price.
        const auto whole = static_cast<double>(scenario_.model.parameter_count());
        const double share =
            collective_.sharded
                ? static_cast<double>(collective_.sharded->shard_size(static_cast<int>(k))) / whole
            : layer_sharded() ? static_cast<double>(w.parameters.size()) / whole
                              : 1.0;
        const Ticks start = clock.begins(w.clock, started[k]);
        const Ticks end =
            start + clock.took(static_cast<Ticks>(static_cast<double>(update) * share), started[k],
                               ended[k]);
        emit({w.id, EventKind::Update, step_, start, end, 0, -1, -1, gradient0});
        w.clock = end;
    }
    if (apply && collective_.sharded) {
        gather_parameters(); // every replica whole again, then hashed
        for (std::size_t k = 0; train && k < n; ++k)
            hashes[k] = hash_parameters(workers_[k].parameters);
    }
    if (train && layer_sharded()) // one model in pieces: its hash, whoever holds which piece
        hashes.assign(n, hash_parameters(assembled_parameters()));

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

} // namespace lockstep
