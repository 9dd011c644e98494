// A loose-sync run handing over to another way of agreeing, and one going on from a handover.
#include "trainers/loose_sync.h"

#include "core/error.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace lockstep {

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
    h.bytes_inter_node = bytes_inter_node_;
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
    bytes_inter_node_ = h.bytes_inter_node;
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
