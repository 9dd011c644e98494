// A loose-sync run (ssp, async): its start, its lanes' computations and the loop of a step.
#include "trainers/loose_sync.h"

#include "clocks/cost_model.h"
#include "collectives/reduction.h"
#include "core/error.h"
#include "trainers/setup.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace lockstep {

LooseSyncTrainer::LooseSyncTrainer(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                                   TraceSink* sink)
    : scenario_(scenario)
    , data_(std::move(data))
    , sink_(sink)
    , server_{{}, Optimizer(scenario.optimizer, 0), 0, 0, {}, {}}
    , run_rng_(Rng::stream(scenario.seed, 1))
    , clock_(make_clock(scenario.clock)) {
    validate(scenario_);
    const SyncMode mode = scenario_.sync_mode();
    if (mode != SyncMode::Ssp && mode != SyncMode::Async)
        throw Error("sync.mode: this trainer runs ssp and async; bsp and local are "
                    "data-parallel runs");
    detail::check_data_fits(scenario_, data_.get());

    const int n = scenario_.workers;
    const auto shards = detail::make_shards(scenario_, data_->size());
    server_.parameters = detail::initial_parameters(scenario_);
    const std::size_t count = server_.parameters.size();
    server_.optimizer = Optimizer(scenario_.optimizer, count);
    bytes_ = static_cast<std::int64_t>(count * sizeof(double));
    for (int k = 0; k < n; ++k) {
        lanes_.emplace_back(
            detail::fresh_cursor(scenario_, k, shards[static_cast<std::size_t>(k)]));
        Lane& l = lanes_.back();
        l.parameters = server_.parameters;
        l.gradient.assign(count, 0.0);
    }
    std::vector<double> samples;
    for (int k = 0; k < n; ++k)
        samples.push_back(static_cast<double>(scenario_.batch_of(k)));
    weights_ = reduction_weights(scenario_.rule, n, samples);
    compute_s_per_sample_ = compute_s_per_sample(scenario_, scenario_.scaling == Scaling::Strong
                                                                ? scenario_.global_batch()
                                                                : scenario_.batch_of(0));
    spent_.assign(static_cast<std::size_t>(n), {});
    recent_.assign(static_cast<std::size_t>(n), {});
    pause_next_.assign(static_cast<std::size_t>(n), 0.0);
    for (const FailureSpec& f : scenario_.failures.events)
        if (f.kind == FailureKind::Pause)
            scenario_.delays.pauses.push_back({f.worker, f.step, f.seconds});
    for (int k = 0; k < n; ++k)
        start_iteration(k, 0);
}

Ticks LooseSyncTrainer::compute_cost(int k) {
    return lockstep::compute_cost(scenario_, compute_s_per_sample_, k, scenario_.batch_of(k),
                                  run_rng_);
}

Ticks LooseSyncTrainer::transfer(int k) const {
    if (k == 0)
        return 0; // the server sits with worker 0, as the bulk-synchronous root does
    if (scenario_.cost.communication_s_per_step)
        return to_ticks(*scenario_.cost.communication_s_per_step / 2.0);
    const double slow =
        slow_link_factor(scenario_.failures, k, lanes_[static_cast<std::size_t>(k)].clock);
    return price_message(scenario_.cost, link_between(scenario_.cost, 0, k), bytes_,
                         Message::Op::Copy, slow)
        .transfer;
}

void LooseSyncTrainer::push_event(Ticks time, int worker, Kind kind) {
    queue_.push({time, worker, kind, seq_++});
}

void LooseSyncTrainer::start_iteration(int k, Ticks at) {
    Lane& l = lanes_[static_cast<std::size_t>(k)];
    // ssp: every worker computes each of the run's clocks. async: the run takes as many
    // gradients as the bulk-synchronous run (P a step), from whichever worker is ready.
    if (scenario_.sync_mode() == SyncMode::Async ? started_ >= scenario_.steps * scenario_.workers
                                                 : l.clock >= scenario_.steps)
        return;
    ++started_;
    Ticks pause = to_ticks(std::exchange(pause_next_[static_cast<std::size_t>(k)], 0.0));
    for (const auto& p : scenario_.delays.pauses)
        if (p.worker == k && p.step == l.clock)
            pause += to_ticks(p.seconds);
    if (pause > 0) {
        emit({k, EventKind::Pause, l.clock, at, at + pause});
        at += pause;
    }
    l.cursor.next_batch(scenario_.batch_of(k), l.rows);
    l.computed_on = l.version;
    Ticks cost = 0;
    if (scenario_.clock == ClockKind::Measured) {
        // The real computation, now, timed: its wall time (stretched by the worker's slowdown)
        // is how long the lane computes, and the order of the run's events follows.
        const Ticks started = clock_->now();
        compute_gradient(l);
        cost =
            std::max<Ticks>(1, clock_->took(0, started, clock_->now(), scenario_.slowdown_of(k)));
    } else {
        cost = compute_cost(k);
        l.gradient_due = true; // computed with the others when its result is needed
    }
    emit({k, EventKind::Compute, l.clock, at, at + cost});
    l.at = at + cost;
    push_event(l.at, k, Kind::ComputeDone);
}

void LooseSyncTrainer::compute_due_gradients() {
    // Every computation that has started has its inputs fixed: its worker's copy and batch. They
    // run together, one task each; no result depends on another, or on the threads.
    std::vector<std::size_t> due;
    for (std::size_t k = 0; k < lanes_.size(); ++k)
        if (lanes_[k].gradient_due)
            due.push_back(k);
    tbb::parallel_for(std::size_t{0}, due.size(),
                      [&](std::size_t i) { compute_gradient(lanes_[due[i]]); });
}

void LooseSyncTrainer::compute_gradient(Lane& l) const {
    gather_rows(*data_, l.rows, l.features, l.targets);
    const BatchView batch{l.features.data(), l.targets.data(), l.rows.size()};
    l.last = loss_and_gradient(scenario_.model, l.parameters, batch, l.gradient, l.work);
    l.gradient_due = false;
}

void LooseSyncTrainer::handle(const Pending& p) {
    Lane& l = lanes_[static_cast<std::size_t>(p.worker)];
    switch (p.kind) {
    case Kind::ComputeDone: {
        if (l.gradient_due)
            compute_due_gradients();
        push_event(p.time + transfer(p.worker), p.worker, Kind::ArriveAtServer);
        return;
    }
    case Kind::ArriveAtServer:
        arrive(p.worker, p.time);
        return;
    case Kind::ReplyArrives:
        l.parameters.swap(l.incoming);
        l.version = l.incoming_version;
        l.at = p.time;
        start_iteration(p.worker, p.time);
        return;
    }
}

void LooseSyncTrainer::step() {
    if (finished())
        return;
    const std::int64_t target = step_ + 1;
    while (step_ < target && !queue_.empty()) {
        const Pending p = queue_.top();
        queue_.pop();
        handle(p);
    }
    if (finished()) // the last copies on their way back
        while (!queue_.empty()) {
            const Pending p = queue_.top();
            queue_.pop();
            handle(p);
        }
    if (step_ < target)
        throw Error("internal: the run's events ran out before step " + std::to_string(target));
    flush_events(target - 1);
    if (sink_)
        for (StepSnapshot& s : pending_snapshots_) {
            s.ordinal = s.step;
            sink_->on_snapshot(s);
        }
    pending_snapshots_.clear();
}

void LooseSyncTrainer::resume_measured_clock() {
    Ticks latest = 0;
    for (const Lane& l : lanes_)
        latest = std::max(latest, l.at);
    clock_->resume_at(latest);
}

} // namespace lockstep
