#include "trainers/run.h"

#include "core/error.h"
#include "runs/runs.h"
#include "scenario/parallelism.h"
#include "trainers/data_parallel.h"
#include "trainers/loose_sync.h"
#include "trainers/pipeline.h"
#include "trainers/tensor.h"

#include <string>

namespace lockstep {

namespace {

std::string kind_of(const Scenario& s) {
    if (s.sync_mode() == SyncMode::Ssp || s.sync_mode() == SyncMode::Async)
        return std::string(to_string(s.sync_mode())) + " data";
    return std::string(to_string(s.parallelism_mode()));
}

} // namespace

namespace {

[[noreturn]] void takes_no_changes(const Scenario& s) {
    throw Error("this run (" + kind_of(s) +
                "-parallel) takes no faults, delays or changed settings while it goes on");
}

} // namespace

void Run::intervene(Intervention& change) {
    fault_kind(change.kind).apply(*this, change);
    change.step = steps_done();
}

void Run::slow_down_lane(int /*lane*/, double /*factor*/) {
    takes_no_changes(scenario());
}

void Run::pause_lane(int /*lane*/, double /*seconds*/) {
    takes_no_changes(scenario());
}

void Run::retune(const Scenario& /*to*/) {
    takes_no_changes(scenario());
}

void Run::broadcast_from_lane(int /*lane*/) {
    takes_no_changes(scenario());
}

void Run::inject_failure(const FailureSpec& /*spec*/) {
    takes_no_changes(scenario());
}

Handover Run::hand_over() {
    throw Error("sync.mode: this run (" + kind_of(scenario()) +
                "-parallel) cannot change its way of agreeing while it goes on");
}

void Run::set_checkpoint_directory(const std::filesystem::path& /*dir*/) {
    throw Error("checkpoint: this run (" + kind_of(scenario()) + "-parallel) saves no checkpoints");
}

TrainingState Run::capture_state() const {
    throw Error("checkpoint: this run (" + kind_of(scenario()) + "-parallel) saves no checkpoints");
}

void Run::restore_state(const TrainingState& /*state*/, RestoreMode /*mode*/) {
    throw Error("checkpoint: this run (" + kind_of(scenario()) +
                "-parallel) cannot go on from a checkpoint");
}

std::optional<std::string> Run::misfit(const TrainingState& /*state*/, RestoreMode /*mode*/) const {
    return "this run (" + kind_of(scenario()) + "-parallel) cannot go on from a checkpoint";
}

std::unique_ptr<Run> make_run(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                              TraceSink* sink, Work work) {
    // A run whose worker would not fit its memory budget never starts (one plain step tells).
    check_memory_budget(scenario, data);
    const Parallelism mode = scenario.parallelism_mode();
    if (work == Work::TimesOnly && mode != Parallelism::Data)
        throw Error("parallelism.mode: \"" + std::string(to_string(mode)) +
                    "\" is timed by training it; only a data-parallel run can be timed without "
                    "training");
    switch (mode) {
    case Parallelism::Data:
        if (scenario.sync_mode() == SyncMode::Ssp || scenario.sync_mode() == SyncMode::Async)
            return std::make_unique<LooseSyncTrainer>(scenario, std::move(data), sink);
        return std::make_unique<DataParallelTrainer>(scenario, std::move(data), sink, work);
    case Parallelism::Tensor:
        return std::make_unique<TensorTrainer>(scenario, std::move(data), sink);
    case Parallelism::Pipeline:
    case Parallelism::Hybrid:
        break;
    }
    return std::make_unique<PipelineTrainer>(scenario, std::move(data), sink);
}

bool changes_trainer(const Scenario& from, const Scenario& to) {
    return from.sync_mode() != to.sync_mode();
}

std::unique_ptr<Run> continue_run(Run& from, const Scenario& to, TraceSink* sink) {
    Scenario next = from.scenario();
    next.name = to.name;
    take_mid_run_settings(next, to);
    const SyncMode mode = next.sync_mode();
    next = with_sync(next, next.sync.value_or(SyncConfig{}));
    auto data = from.dataset();
    if (!data)
        (void)from.hand_over(); // throws: this run cannot hand over
    // The new trainer is built before the old one hands over, so a refusal changes nothing.
    if (mode == SyncMode::Ssp || mode == SyncMode::Async) {
        auto run = std::make_unique<LooseSyncTrainer>(next, std::move(data), sink);
        run->adopt(from.hand_over());
        return run;
    }
    auto run = std::make_unique<DataParallelTrainer>(next, std::move(data), sink);
    run->adopt(from.hand_over());
    return run;
}

} // namespace lockstep
