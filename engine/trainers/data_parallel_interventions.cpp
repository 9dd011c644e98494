#include "trainers/data_parallel.h"

#include "collectives/transport.h"
#include "core/error.h"
#include "trainers/setup.h"

#include <algorithm>
#include <string>

// What changes in a data-parallel run while it goes on: the lab's interventions, each through
// the same call a scenario's own delays and faults go through, and the settings a run may take
// between two steps.

namespace lockstep {

namespace {

int require_lane(int index, int lane) {
    if (index < 0)
        throw Error("worker " + std::to_string(lane) + " is no longer in the run");
    return index;
}

} // namespace

double DataParallelTrainer::mean_step_seconds() const {
    return ordinal_ > 0 ? to_seconds(last_snapshot_.time) / static_cast<double>(ordinal_) : 0.0;
}

void DataParallelTrainer::slow_down_lane(int lane, double factor) {
    // The factor is the kind's to check (failures/fault_slow.cpp); from the next step on,
    // compute_cost() prices this worker's work that many times.
    const auto worker = static_cast<std::size_t>(require_lane(index_of_lane(lane), lane));
    auto& slowdown = scenario_.delays.slowdown;
    slowdown.resize(std::max(slowdown.size(), worker + 1), 1.0);
    slowdown[worker] = factor;
}

void DataParallelTrainer::pause_lane(int lane, double seconds) {
    add_pause(require_lane(index_of_lane(lane), lane), steps_done(), seconds);
}

void DataParallelTrainer::broadcast_from_lane(int lane) {
    const int index = require_lane(index_of_lane(lane), lane);
    if (scenario_.clock == ClockKind::Measured)
        throw Error("broadcast: it is priced by the cost model; use the modelled clock");
    if (index != 0)
        throw Error("broadcast: the parameters are copied from the first worker still in the "
                    "run, worker " +
                    std::to_string(faults_.lane_of.front()));
    broadcast_due_ = true; // at the start of the next step (broadcast_parameters())
}

// As data-parallel training does before its first step: the first worker's parameters and
// optimizer state go to every replica through a tree broadcast of real buffers, priced and
// traced as communication, so all replicas go on from one model.
void DataParallelTrainer::broadcast_parameters() {
    broadcast_due_ = false;
    const auto n = workers_.size();
    if (n < 2)
        return;
    const Worker& root = workers_.front();
    // The optimizer's state that shapes the next updates: SGD's velocity when it has momentum,
    // Adam's two moments and its step count.
    const OptimizerConfig& config = root.optimizer.config();
    const bool adam = config.kind == OptimizerKind::Adam;
    const bool velocity = !adam && config.momentum != 0.0;
    const auto vectors = [&](const OptimizerState& st) {
        std::vector<const AlignedBuffer*> out;
        if (velocity)
            out.push_back(&st.velocity);
        if (adam) {
            out.push_back(&st.first_moment);
            out.push_back(&st.second_moment);
        }
        return out;
    };
    std::size_t count = root.parameters.size();
    for (const auto* v : vectors(root.optimizer.state()))
        count += v->size();
    CommSchedule tree = tree_schedule(static_cast<int>(n), count);
    CommSchedule broadcast;
    broadcast.algorithm = Algorithm::Tree;
    broadcast.workers = tree.workers;
    broadcast.count = count;
    for (Round& round : tree.rounds)
        if (round.phase == "broadcast")
            broadcast.rounds.push_back(std::move(round));
    if (work_ == Work::Train) {
        // Each worker's buffer: parameters, then the optimizer's vectors; the root's are sent.
        std::vector<std::vector<double>> packed(n);
        std::vector<std::span<double>> buffers;
        for (std::size_t k = 0; k < n; ++k) {
            const Worker& w = workers_[k];
            packed[k].reserve(count);
            packed[k].insert(packed[k].end(), w.parameters.begin(), w.parameters.end());
            for (const auto* v : vectors(w.optimizer.state()))
                packed[k].insert(packed[k].end(), v->begin(), v->end());
            packed[k].resize(count, 0.0);
            buffers.emplace_back(packed[k]);
        }
        run_all_reduce(broadcast, transport_, buffers);
        count_moved(broadcast.total_bytes(), inter_node_bytes(broadcast));
        const std::int64_t root_step = root.optimizer.state().step;
        for (std::size_t k = 1; k < n; ++k) {
            Worker& w = workers_[k];
            OptimizerState& own = w.optimizer.state();
            auto from = packed[k].cbegin();
            const auto take = [&](AlignedBuffer& into) {
                const auto size = static_cast<std::ptrdiff_t>(into.size());
                into.assign(from, from + size);
                from += size;
            };
            take(w.parameters);
            if (velocity)
                take(own.velocity);
            if (adam) {
                take(own.first_moment);
                take(own.second_moment);
            }
            own.step = root_step;
        }
    }
    price_schedule(broadcast);
}

void DataParallelTrainer::resume_measured_clock() {
    Ticks latest = 0;
    for (const auto& w : workers_)
        latest = std::max(latest, w.clock);
    clock_->resume_at(latest);
}

void DataParallelTrainer::retune(const Scenario& to) {
    if (to.algorithm == Algorithm::None && !checkpoints_.directory.empty() && scenario_.workers > 1)
        throw Error("algorithm: a run that saves checkpoints needs one model, so its replicas "
                    "must stay synchronised");
    if (collective_.sharded && to.algorithm != scenario_.algorithm)
        throw Error("algorithm: a sharded run keeps its optimizer state in the shards its "
                    "collective laid out; it cannot change collective mid-run");
    for (auto& w : workers_)
        w.optimizer.retune(to.optimizer);
    take_mid_run_settings(scenario_, to);
    // Slowdowns are given per lane; after an elastic recovery worker indices differ from lanes.
    scenario_.delays.slowdown.assign(workers_.size(), 1.0);
    for (std::size_t i = 0; i < workers_.size(); ++i)
        scenario_.delays.slowdown[i] = to.slowdown_of(faults_.lane_of[i]);
    build_collective();
    price_compute();
}

void DataParallelTrainer::add_pause(int worker, std::int64_t step, double seconds) {
    detail::check_pause(scenario_, worker, seconds);
    scenario_.delays.pauses.push_back({worker, step, seconds});
}

} // namespace lockstep
