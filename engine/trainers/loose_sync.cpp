#include "trainers/loose_sync.h"

#include "clocks/cost_model.h"
#include "collectives/reduction.h"
#include "core/error.h"
#include "trainers/data_parallel.h"
#include "trainers/setup.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

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
    double slow = 1.0;
    for (const FailureSpec& f : scenario_.failures.events)
        if (f.kind == FailureKind::SlowLink && f.worker == k &&
            f.step <= lanes_[static_cast<std::size_t>(k)].clock)
            slow = std::max(slow, f.factor);
    return price_message(scenario_.cost, bytes_, Message::Op::Copy, slow).transfer;
}

void LooseSyncTrainer::push_event(Ticks time, int worker, Kind kind) {
    queue_.push({time, worker, kind, seq_++});
}

namespace {

// A push or a pull is this worker's communication (one at a time: they never overlap).
TimeBucket bucket_here(EventKind kind) {
    return kind == EventKind::Send || kind == EventKind::Receive ? TimeBucket::Communication
                                                                 : bucket_of(kind);
}

} // namespace

void LooseSyncTrainer::emit(TraceEvent e) {
    // The step it happens in: the version the run is making (the lanes' own counts run ahead or
    // behind it, and the trace speaks of the run's steps, as every trainer's does).
    e.step = step_;
    const auto lane = static_cast<std::size_t>(e.worker);
    const TimeBucket bucket = bucket_here(e.kind);
    if (bucket != TimeBucket::Overlapping && bucket != TimeBucket::Instant)
        spent_[lane].add(bucket, e.end - e.start);
    // A lane's last few events: the only ones that can reach past the moment a step ends.
    auto& recent = recent_[lane];
    recent.push_back(e);
    if (recent.size() > 8)
        recent.erase(recent.begin());
    if (sink_)
        events_.push_back(e);
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

Ticks LooseSyncTrainer::pull(int k, Ticks at) {
    const Ticks took = transfer(k);
    if (took > 0) {
        TraceEvent e{k,
                     EventKind::Receive,
                     lanes_[static_cast<std::size_t>(k)].clock,
                     at,
                     at + took,
                     bytes_,
                     0,
                     1};
        e.version = server_.version;
        emit(e);
        bytes_moved_ += bytes_;
    }
    return at + took;
}

void LooseSyncTrainer::send_copy(int k, Ticks at) {
    Lane& l = lanes_[static_cast<std::size_t>(k)];
    if (l.at < at)
        emit({k, EventKind::Wait, l.clock, l.at, at});
    l.incoming = server_.parameters;
    l.incoming_version = server_.version;
    l.at = pull(k, at);
    l.waiting_for = -1;
    push_event(l.at, k, Kind::ReplyArrives);
}

void LooseSyncTrainer::arrive(int k, Ticks at) {
    Lane& l = lanes_[static_cast<std::size_t>(k)];
    const std::int64_t clock = l.clock;
    const Ticks sent = l.at;
    const bool async = scenario_.sync_mode() == SyncMode::Async;
    // Its staleness: the updates between the version it was computed on and the one it joins
    // (async: the version it is applied to; ssp: its clock's).
    const int tau = static_cast<int>((async ? server_.version : clock) - l.computed_on);
    {
        // The push, to the server at worker 0 (worker 0's own is an instant: no link to cross).
        TraceEvent e{k, EventKind::Send, clock, sent, at, k == 0 ? 0 : bytes_, 0, 0};
        e.version = l.computed_on;
        e.staleness = tau;
        emit(e);
        if (k != 0)
            bytes_moved_ += bytes_;
    }
    l.at = at;
    ++l.clock;
    samples_ += static_cast<std::int64_t>(scenario_.batch_of(k));
    step_losses_.push_back(l.last.loss);
    step_correct_ += l.last.correct;
    step_counted_ += l.last.count;
    const Ticks update = to_ticks(scenario_.cost.update_s);

    if (async) {
        // Applied on its own, now, whatever its age.
        double weight = weights_[static_cast<std::size_t>(k)];
        if (scenario_.sync->staleness_aware_lr && tau > 1)
            weight /= static_cast<double>(tau);
        scale_contribution(l.gradient, weight);
        const Ticks begin = std::max(at, server_.free_at);
        if (l.at < begin)
            emit({k, EventKind::Wait, clock, l.at, begin});
        server_.optimizer.apply(server_.parameters, l.gradient);
        TraceEvent e{k, EventKind::Update, clock, begin, begin + update};
        e.version = l.computed_on;
        e.staleness = tau;
        emit(e);
        l.at = begin + update;
        server_.free_at = begin + update;
        applied_.push_back({k, clock, l.computed_on, tau, begin + update});
        ++server_.version;
        send_copy(k, server_.free_at);
        if (server_.version % scenario_.workers == 0)
            finish_step(server_.free_at);
        return;
    }

    // ssp: the gradient waits in its clock's slot until every worker's is there.
    auto& slot = server_.clocks[clock];
    if (slot.empty())
        slot.resize(lanes_.size());
    slot[static_cast<std::size_t>(k)] = l.gradient;
    const int arrived = ++server_.arrived[clock];
    Ticks done = at;
    if (arrived == scenario_.workers) {
        // Complete (a clock completes only after the one before it, so this is the next
        // version): added up in worker order, each weighted by the rule, as the
        // bulk-synchronous parameter server adds them; one optimizer step makes the version.
        auto& grads = slot;
        for (std::size_t i = 0; i < grads.size(); ++i)
            scale_contribution(grads[i], weights_[i]);
        std::vector<double> sum = grads[0];
        for (std::size_t i = 1; i < grads.size(); ++i)
            accumulate(sum, grads[i]);
        const Ticks begin = std::max(done, server_.free_at);
        if (l.at < begin)
            emit({k, EventKind::Wait, clock, l.at, begin});
        server_.optimizer.apply(server_.parameters, sum);
        TraceEvent e{k, EventKind::Update, clock, begin, begin + update};
        e.version = server_.version;
        emit(e);
        l.at = begin + update;
        done = begin + update;
        server_.free_at = done;
        ++server_.version;
        server_.clocks.erase(clock);
        server_.arrived.erase(clock);
        finish_step(done);
    }
    // Staleness: the versions between the one a gradient was computed on and the one it joins.
    applied_.push_back({k, clock, l.computed_on, tau, done});
    // Its next clock needs version clock + 1 - S; the workers that waited for this one go on.
    const std::int64_t need = l.clock - scenario_.sync->staleness;
    if (server_.version >= need)
        send_copy(k, std::max(done, l.at));
    else
        l.waiting_for = need;
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
        Lane& other = lanes_[i];
        if (other.waiting_for >= 0 && server_.version >= other.waiting_for)
            send_copy(static_cast<int>(i), std::max(done, other.at));
    }
}

void LooseSyncTrainer::finish_step(Ticks at) {
    StepSnapshot snap;
    snap.step = step_;
    snap.time = at;
    const auto n = lanes_.size();
    double loss = 0.0;
    for (double x : step_losses_)
        loss += x;
    snap.loss = step_losses_.empty() ? 0.0 : loss / static_cast<double>(step_losses_.size());
    snap.accuracy = step_counted_
                        ? static_cast<double>(step_correct_) / static_cast<double>(step_counted_)
                        : 0.0;
    step_losses_.clear();
    step_correct_ = step_counted_ = 0;
    for (std::size_t k = 0; k < n; ++k) {
        snap.worker_loss.push_back(lanes_[k].last.loss);
        snap.parameter_hash.push_back(hash_parameters(lanes_[k].parameters));
        snap.replicas_aligned =
            snap.replicas_aligned && snap.parameter_hash[k] == snap.parameter_hash[0];
    }
    if (!snap.replicas_aligned) {
        std::vector<std::span<const double>> copies;
        for (const Lane& l : lanes_)
            copies.emplace_back(l.parameters);
        snap.replica_distance = replica_distances(copies);
        snap.replica_spread =
            *std::max_element(snap.replica_distance.begin(), snap.replica_distance.end());
    }
    // The energy spent until `at`: each lane's account without what it has planned beyond it.
    std::vector<WorkerMetrics> spent;
    for (std::size_t k = 0; k < n; ++k) {
        LaneTotals until = spent_[k];
        for (const TraceEvent& e : recent_[k]) {
            const TimeBucket bucket = bucket_here(e.kind);
            if (e.end > at && bucket != TimeBucket::Overlapping && bucket != TimeBucket::Instant)
                until.add(bucket, -(e.end - std::max(e.start, at)));
        }
        spent.push_back(until.seconds());
    }
    progress_.push_back(
        {step_, to_seconds(at), snap.loss, energy_joules(spent, to_seconds(at), scenario_.energy)});
    last_ = snap;
    ++step_;
    pending_snapshots_.push_back(std::move(snap));
}

void LooseSyncTrainer::flush_events(std::int64_t ordinal) {
    if (sink_) {
        std::stable_sort(
            events_.begin(), events_.end(),
            [](const TraceEvent& a, const TraceEvent& b) { return a.start < b.start; });
        for (TraceEvent& e : events_)
            e.ordinal = static_cast<int>(std::min<std::int64_t>(ordinal, INT32_MAX));
        sink_->on_events(events_);
    }
    events_.clear();
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

RunMetrics LooseSyncTrainer::metrics() const {
    RunMetrics m;
    m.workers = scenario_.workers;
    m.workers_at_end = scenario_.workers;
    m.steps = step_;
    m.steps_run = step_;
    m.samples = samples_;
    m.useful_samples = samples_;
    Ticks end = 0;
    for (const Lane& l : lanes_)
        end = std::max(end, l.at);
    std::vector<WorkerMetrics> lanes;
    for (const auto& lane : spent_)
        lanes.push_back(lane.seconds());
    summarise_lanes(m, std::move(lanes), to_seconds(end), scenario_.energy);
    m.bytes_moved = bytes_moved_;
    m.trained = true;
    m.final_loss = last_.loss;
    m.final_accuracy = last_.accuracy;
    m.replicas_aligned = last_.replicas_aligned;
    std::int64_t total = prior_staleness_;
    m.max_staleness = prior_max_staleness_;
    for (const AppliedGradient& a : applied_) {
        m.max_staleness = std::max<std::int64_t>(m.max_staleness, a.staleness);
        total += a.staleness;
    }
    const auto count = prior_applied_ + static_cast<std::int64_t>(applied_.size());
    m.mean_staleness = count ? static_cast<double>(total) / static_cast<double>(count) : 0.0;
    m.dropped_gradients = dropped_;
    m.averagings = prior_averagings_;
    return m;
}

void LooseSyncTrainer::resume_measured_clock() {
    Ticks latest = 0;
    for (const Lane& l : lanes_)
        latest = std::max(latest, l.at);
    clock_->resume_at(latest);
}

double LooseSyncTrainer::mean_step_seconds() const {
    return step_ > 0 ? to_seconds(last_.time) / static_cast<double>(step_) : 0.0;
}

void LooseSyncTrainer::slow_down_lane(int lane, double factor) {
    detail::set_slowdown(scenario_, lane, factor);
}

void LooseSyncTrainer::pause_lane(int lane, double seconds) {
    detail::check_pause(scenario_, lane, seconds);
    pause_next_[static_cast<std::size_t>(lane)] += seconds; // before its next computation
}

void LooseSyncTrainer::inject_failure(const FailureSpec& /*spec*/) {
    throw Error(std::string("crash: a run under ") + std::string(to_string(scenario_.sync_mode())) +
                " keeps no checkpoint to recover from, so it takes no crashes; switch to bsp "
                "to crash a worker");
}

void LooseSyncTrainer::broadcast_from_lane(int /*lane*/) {
    throw Error(std::string("broadcast: under ") + std::string(to_string(scenario_.sync_mode())) +
                " the workers read the one model the server holds; there are no replicas to "
                "copy parameters between");
}

void LooseSyncTrainer::retune(const Scenario& to) {
    if (changes_trainer(scenario_, to))
        throw Error("sync.mode: another way of agreeing needs another trainer (continue_run)");
    take_mid_run_settings(scenario_, to);
    scenario_.algorithm = Algorithm::ParameterServer;
    validate(scenario_);
    server_.optimizer.retune(scenario_.optimizer);
    std::vector<double> samples;
    for (int i = 0; i < scenario_.workers; ++i)
        samples.push_back(static_cast<double>(scenario_.batch_of(i)));
    weights_ = reduction_weights(scenario_.rule, scenario_.workers, samples);
    compute_s_per_sample_ = compute_s_per_sample(scenario_, scenario_.scaling == Scaling::Strong
                                                                ? scenario_.global_batch()
                                                                : scenario_.batch_of(0));
    if (scenario_.sync_mode() == SyncMode::Ssp)
        // A new bound: the workers waiting for a version go on now if it lets them.
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            Lane& l = lanes_[i];
            if (l.waiting_for < 0)
                continue;
            l.waiting_for = l.clock - scenario_.sync->staleness;
            if (server_.version >= l.waiting_for)
                send_copy(static_cast<int>(i), std::max(last_.time, l.at));
        }
}

Handover LooseSyncTrainer::hand_over() {
    const std::size_t n = lanes_.size();
    const Ticks now = last_.time; // the moment the last step's version was made
    // What each lane is doing: its next event, if it has one.
    std::vector<std::optional<Kind>> doing(n);
    for (auto q = queue_; !q.empty(); q.pop())
        doing[static_cast<std::size_t>(q.top().worker)] = q.top().kind;
    Handover h;
    // Gradients at the server in a clock not yet complete (ssp) are never applied.
    for (const auto& [clock, count] : server_.arrived)
        h.dropped_gradients += count;
    for (std::size_t k = 0; k < n; ++k) {
        Lane& l = lanes_[k];
        const int worker = static_cast<int>(k);
        bool current = false;
        if (doing[k] == Kind::ReplyArrives) {
            // A copy on its way: the newest, or a pull again once it is there.
            current = l.incoming_version == server_.version;
            if (current)
                l.parameters.swap(l.incoming);
        } else if (doing[k]) {
            ++h.dropped_gradients; // computing, or its gradient on its way: finished, not used
        }
        const Ticks from = std::max(l.at, now);
        if (l.at < from)
            emit({worker, EventKind::Wait, l.clock, l.at, from});
        const Ticks ready = current ? from : pull(worker, from);
        h.cursors.push_back(l.cursor);
        h.free_at.push_back(ready);
    }
    flush_events(step_); // the next step's: what the switch does before it
    h.steps_done = step_;
    h.ordinal = step_;
    h.parameters = server_.parameters;
    h.optimizer = server_.optimizer;
    h.spent = spent_;
    h.samples = samples_;
    h.bytes_moved = bytes_moved_;
    h.progress = progress_;
    h.last = last_;
    h.run_rng = run_rng_;
    h.applied = prior_applied_ + static_cast<std::int64_t>(applied_.size());
    h.staleness_total = prior_staleness_;
    h.max_staleness = prior_max_staleness_;
    for (const AppliedGradient& a : applied_) {
        h.staleness_total += a.staleness;
        h.max_staleness = std::max<std::int64_t>(h.max_staleness, a.staleness);
    }
    h.dropped_gradients += dropped_;
    h.averagings = prior_averagings_;
    return h;
}

void LooseSyncTrainer::adopt(Handover h) {
    const std::size_t n = lanes_.size();
    if (h.cursors.size() != n || h.parameters.size() != server_.parameters.size())
        throw Error("internal: a handover from a run of another size");
    const bool async = scenario_.sync_mode() == SyncMode::Async;
    queue_ = {};
    seq_ = 0;
    step_ = h.steps_done;
    // Versions go on as this mode counts them: one per step (ssp), one per gradient (async).
    server_.version = async ? step_ * scenario_.workers : step_;
    server_.parameters = std::move(h.parameters);
    server_.optimizer = std::move(h.optimizer);
    server_.optimizer.retune(scenario_.optimizer);
    server_.free_at = 0;
    server_.clocks.clear();
    server_.arrived.clear();
    started_ = async ? step_ * scenario_.workers : 0;
    spent_ = std::move(h.spent);
    samples_ = h.samples;
    bytes_moved_ = h.bytes_moved;
    progress_ = std::move(h.progress);
    last_ = std::move(h.last);
    run_rng_ = h.run_rng;
    prior_applied_ = h.applied;
    prior_staleness_ = h.staleness_total;
    prior_max_staleness_ = h.max_staleness;
    dropped_ = h.dropped_gradients;
    prior_averagings_ = h.averagings;
    applied_.clear();
    events_.clear();
    pending_snapshots_.clear();
    step_losses_.clear();
    step_correct_ = step_counted_ = 0;
    recent_.assign(n, {});
    for (std::size_t k = 0; k < n; ++k) {
        Lane& l = lanes_[k];
        l.parameters = server_.parameters;
        l.version = server_.version;
        l.cursor = h.cursors[k];
        l.clock = step_;
        l.gradient_due = false;
        l.waiting_for = -1;
        l.at = h.free_at[k];
    }
    resume_measured_clock(); // the measured clock goes on from where the lanes stand
    for (std::size_t k = 0; k < n; ++k)
        start_iteration(static_cast<int>(k), lanes_[k].at);
}

} // namespace lockstep
