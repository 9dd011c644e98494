// validate()'s part for faults and what they cost: the failure events, the recovery policy and
// the energy prices, each error naming the field.
#include "scenario/validation.h"

#include "collectives/buckets.h"
#include "core/error.h"
#include "scenario/json_reader.h"

namespace lockstep {

using namespace scenario_reading;

namespace {

// How many buckets a data-parallel run of `s` reduces its gradient in (0: no collective).
std::size_t bucket_count(const Scenario& s) {
    if (!s.gradients || s.workers < 2 || s.algorithm == Algorithm::None || s.model_parallel() ||
        s.sync_mode() != SyncMode::Bsp)
        return 0;
    std::vector<std::size_t> layers;
    for (std::size_t l = 0; l < s.model.layer_count(); ++l)
        layers.push_back(s.model.weight_offset(l + 1) - s.model.weight_offset(l));
    return make_buckets(layers, s.gradients->bucket_kb * std::size_t{1024}).size();
}

} // namespace

void validate_failures(const Scenario& s) {
    const FailureConfig& f = s.failures;
    check_finite("failures.heartbeat_s", f.heartbeat_s, 0.0, 3600.0);
    check_finite("failures.restart_s", f.restart_s, 0.0, 3600.0);
    check_range("failures.backup_workers", f.backup_workers, 0, s.workers - 1);
    if (f.policy == RecoveryPolicy::Backup && f.backup_workers < 1)
        throw Error("failures.policy: backup needs failures.backup_workers of at least 1");
    if (f.events.size() > ScenarioLimits::max_failures)
        throw Error("failures.events: at most " + std::to_string(ScenarioLimits::max_failures) +
                    " entries");
    int crashes = 0;
    for (std::size_t i = 0; i < f.events.size(); ++i) {
        const FailureSpec& e = f.events[i];
        const std::string at = "failures.events[" + std::to_string(i) + "] (" + to_text(e) + ")";
        if (e.worker < 0 || e.worker >= s.workers)
            throw Error(at + ": worker must be between 0 and " + std::to_string(s.workers - 1));
        check_range<std::int64_t>(at + ": step", e.step, 0, ScenarioLimits::max_steps);
        if ((e.during_checkpoint() || e.kind == FailureKind::Corrupt) && !s.checkpoint)
            throw Error(at + ": needs a checkpoint policy (checkpoint.every)");
        if (e.kind == FailureKind::Pause)
            check_finite(at + ": seconds", e.seconds, 0.0, 86400.0);
        if (e.kind == FailureKind::SlowLink)
            check_finite(at + ": factor", e.factor, 1.0, 1000.0);
        if (e.during_checkpoint() && f.policy == RecoveryPolicy::Backup)
            throw Error(at + ": with backup workers a crash is a gradient that never arrives; "
                             "give it a step phase (compute, communicate or update)");
        if (e.kind == FailureKind::BucketOrder && bucket_count(s) < 2)
            throw Error(at + ": needs the gradient in two buckets or more, reduced between "
                             "workers (gradients.bucket_kb smaller than the model's gradient, "
                             "two workers or more, an algorithm)");
        if (e.kind == FailureKind::Crash)
            ++crashes;
    }
    if (crashes > 0 && f.policy != RecoveryPolicy::Restart && crashes >= s.workers)
        throw Error("failures.policy: " + std::string(to_string(f.policy)) +
                    " goes on with the survivors, but every worker is set to crash");
    const EnergyConfig& e = s.energy;
    check_finite("energy.compute_w", e.compute_w, 0.0, 1e6);
    check_finite("energy.communicate_w", e.communicate_w, 0.0, 1e6);
    check_finite("energy.wait_w", e.wait_w, 0.0, 1e6);
    check_finite("energy.checkpoint_w", e.checkpoint_w, 0.0, 1e6);
    check_finite("energy.idle_w", e.idle_w, 0.0, 1e6);
}

} // namespace lockstep
