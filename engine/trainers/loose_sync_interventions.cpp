// What changes in a loose-sync run while it goes on, and the changes it refuses.
#include "trainers/loose_sync.h"

#include "clocks/cost_model.h"
#include "collectives/reduction.h"
#include "core/error.h"
#include "trainers/setup.h"

#include <algorithm>
#include <string>
#include <vector>

namespace lockstep {

double LooseSyncTrainer::mean_step_seconds() const {
    return step_ > 0 ? to_seconds(last_.time) / static_cast<double>(step_) : 0.0;
}

void LooseSyncTrainer::slow_down_lane(int lane, double factor) {
    if (lane < 0 || lane >= scenario_.workers)
        throw Error("slowdown: no worker " + std::to_string(lane));
    auto& slowdown = scenario_.delays.slowdown; // the factor is the kind's to check
    slowdown.resize(std::max(slowdown.size(), static_cast<std::size_t>(lane) + 1), 1.0);
    slowdown[static_cast<std::size_t>(lane)] = factor;
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

} // namespace lockstep
