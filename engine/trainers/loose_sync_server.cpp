// A loose-sync run's parameter server: the gradients pushed, the updates, the copies pulled.
#include "trainers/loose_sync.h"

#include "clocks/cost_model.h"
#include "collectives/reduction.h"

#include <algorithm>
#include <vector>

namespace lockstep {

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
        count_moved(k);
    }
    return at + took;
}

void LooseSyncTrainer::count_moved(int k) {
    bytes_moved_ += bytes_;
    if (link_between(scenario_.cost, 0, k).between_nodes)
        bytes_inter_node_ += bytes_;
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
            count_moved(k);
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

} // namespace lockstep
