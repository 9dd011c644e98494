#include "trainers/data_parallel.h"

#include "core/error.h"

#include <algorithm>

// A data-parallel run (bsp or local SGD) switching to another way of agreeing between two steps,
// and one going on from a run that did.

namespace lockstep {

Handover DataParallelTrainer::hand_over() {
    if (!checkpoints_.directory.empty())
        throw Error("sync.mode: a run that saves checkpoints keeps its way of agreeing; start it "
                    "again to change it");
    if (!faults_.recoveries.empty() || workers_.size() != static_cast<std::size_t>(lanes_))
        throw Error("sync.mode: this run has recovered from a crash; start it again to change "
                    "its way of agreeing");
    if (work_ != Work::Train)
        throw Error("sync.mode: a times-only run has no model to hand over");
    Handover h;
    if (!aligned_ && workers_.size() > 1) {
        // Local SGD between two averagings: one more, now, so there is one model to go on with.
        scratch_.events.clear();
        average_phase();
        last_snapshot_.replica_spread = 0.0;
        last_snapshot_.replica_distance.clear();
        aligned_ = last_snapshot_.replicas_aligned;
        if (sink_)
            sink_->on_events(scratch_.events);
    }
    const Worker& first = workers_.front();
    h.steps_done = step_;
    h.ordinal = ordinal_;
    h.parameters.assign(first.parameters.begin(), first.parameters.end());
    h.optimizer = first.optimizer;
    for (const Worker& w : workers_) {
        h.cursors.push_back(w.cursor);
        h.free_at.push_back(w.clock);
    }
    h.spent = accounts_.spent;
    h.samples = accounts_.samples;
    h.bytes_moved = accounts_.bytes_moved;
    h.bytes_inter_node = accounts_.bytes_inter_node;
    h.progress = accounts_.progress;
    h.last = last_snapshot_;
    h.run_rng = run_rng_;
    h.applied = accounts_.applied;
    h.staleness_total = accounts_.staleness_total;
    h.max_staleness = accounts_.max_staleness;
    h.averagings = accounts_.averagings;
    return h;
}

void DataParallelTrainer::adopt(Handover h) {
    if (h.cursors.size() != workers_.size() ||
        h.parameters.size() != workers_.front().parameters.size())
        throw Error("internal: a handover from a run of another size");
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        w.parameters.assign(h.parameters.begin(), h.parameters.end());
        w.optimizer = h.optimizer;
        w.optimizer.retune(scenario_.optimizer);
        w.cursor = h.cursors[k];
        w.clock = h.free_at[k];
    }
    step_ = h.steps_done;
    steps_run_ = h.steps_done;
    ordinal_ = h.ordinal;
    aligned_ = true;
    accounts_.spent = std::move(h.spent);
    accounts_.samples = h.samples;
    accounts_.bytes_moved = h.bytes_moved;
    accounts_.bytes_inter_node = h.bytes_inter_node;
    accounts_.progress = std::move(h.progress);
    accounts_.applied = h.applied;
    accounts_.staleness_total = h.staleness_total;
    accounts_.max_staleness = h.max_staleness;
    accounts_.averagings = h.averagings;
    accounts_.dropped_gradients += h.dropped_gradients;
    last_snapshot_ = std::move(h.last);
    last_snapshot_.replicas_aligned = true;
    last_snapshot_.replica_spread = 0.0;
    last_snapshot_.replica_distance.clear();
    run_rng_ = h.run_rng;
    // The faults of steps already behind the run will never come.
    std::erase_if(faults_.pending, [&](const FailureSpec& f) { return f.step < step_; });
}

} // namespace lockstep
