#include "trainers/data_parallel.h"

#include "core/error.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>

// Whole runs of a scenario: with the one-worker baseline their speedup is measured against, and
// over several worker counts at once.

namespace lockstep {

Scenario baseline_scenario(const Scenario& scenario) {
    Scenario base = scenario;
    base.workers = 1;
    base.batch =
        scenario.scaling == Scaling::Strong ? scenario.global_batch() : scenario.batch_of(0);
    base.worker_batch.clear();
    base.shard_sizes.clear();
    base.delays = {};
    base.failures = {}; // the reference is the plain one-worker run: no faults, no backups
    base.sync.reset();  // one worker agrees with itself: bulk-synchronous
    return base;
}

RunResult run_scenario(const Scenario& scenario, TraceSink* sink) {
    return run_scenario(scenario, sink, Work::Train);
}

RunResult run_scenario(const Scenario& scenario, TraceSink* sink, Work work) {
    DataParallelTrainer trainer(scenario, load_dataset(scenario), sink, work);
    return finish_run(trainer);
}

RunResult run_to_end(const Scenario& scenario, TraceSink* sink) {
    const auto data = load_dataset(scenario);
    auto run = make_run(scenario, data, sink);
    while (!run->finished())
        run->step();
    RunResult result{run->metrics(), run->parameters(), run->progress()};
    if (scenario.parallelism && scenario.parallelism->mode != Parallelism::Data)
        return result; // measured against its own one-worker run elsewhere (lockstep-cli run)
    DataParallelTrainer reference(baseline_scenario(scenario), data, nullptr,
                                  scenario.clock == ClockKind::Modelled ? Work::TimesOnly
                                                                        : Work::Train);
    reference.run();
    set_speedup(result.metrics, scenario, reference.metrics().total_time_s);
    return result;
}

RunResult finish_run(DataParallelTrainer& trainer) {
    const std::int64_t from = trainer.steps_done();
    trainer.run();
    RunResult result{trainer.metrics(), trainer.workers().front().parameters, trainer.progress()};

    // Only the baseline's time matters: on the modelled clock it needs no training.
    const Scenario& scenario = trainer.scenario();
    const Scenario base = baseline_scenario(scenario);
    const Work base_work = scenario.clock == ClockKind::Modelled ? Work::TimesOnly : Work::Train;
    DataParallelTrainer reference(base, trainer.shared_data(), nullptr, base_work);
    // After a restore the baseline does the same work: the steps still to go.
    for (std::int64_t k = from; k < scenario.steps; ++k)
        reference.step();
    set_speedup(result.metrics, scenario, reference.metrics().total_time_s);
    return result;
}

void set_speedup(RunMetrics& m, const Scenario& scenario, double baseline_time_s) {
    m.baseline_time_s = baseline_time_s;
    if (m.total_time_s > 0) {
        // Strong scaling: the same work, so speedup is the ratio of times. Weak scaling: N times
        // the work, so speedup is the ratio of throughputs.
        const double work_ratio =
            scenario.scaling == Scaling::Strong ? 1.0 : static_cast<double>(scenario.workers);
        m.speedup = work_ratio * baseline_time_s / m.total_time_s;
        m.efficiency = m.speedup / static_cast<double>(scenario.workers);
    }
}

Scenario scenario_for_workers(const Scenario& scenario, int workers) {
    Scenario s = scenario;
    s.workers = workers;
    s.worker_batch.clear();
    s.shard_sizes.clear();
    if (s.delays.slowdown.size() > static_cast<std::size_t>(s.workers))
        s.delays.slowdown.resize(static_cast<std::size_t>(s.workers));
    std::erase_if(s.delays.pauses, [&](const PauseDelay& p) { return p.worker >= s.workers; });
    std::erase_if(s.failures.events, [&](const FailureSpec& f) { return f.worker >= s.workers; });
    s.failures.backup_workers = std::clamp(s.failures.backup_workers, 0, s.workers - 1);
    if (s.failures.policy == RecoveryPolicy::Backup && s.failures.backup_workers == 0)
        s.failures.policy = RecoveryPolicy::Restart;
    return s;
}

std::vector<SweepPoint> sweep(const Scenario& scenario, std::span<const int> worker_counts,
                              Work work) {
    std::vector<SweepPoint> points(worker_counts.size());
    auto one = [&](std::size_t i) {
        const Scenario s = scenario_for_workers(scenario, worker_counts[i]);
        points[i] = {s.workers, run_scenario(s, nullptr, work).metrics};
    };
    // Measured runs would disturb each other's timings (and they sleep): run those one by one.
    if (scenario.clock == ClockKind::Measured) {
        for (std::size_t i = 0; i < points.size(); ++i)
            one(i);
    } else {
        tbb::parallel_for(std::size_t{0}, points.size(), one);
    }
    return points;
}

} // namespace lockstep
