#include "runs/runs.h"

#include "clocks/cost_model.h"
#include "core/error.h"
#include "reports/speedup.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <sstream>

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
    base.memory_budget_bytes.reset(); // the reference is not the run the budget is for
    fit_machines(base);               // one machine, the worker alone in it
    return base;
}

double baseline_time_s(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                       std::int64_t from_step) {
    if (scenario.model_parallel())
        return model_parallel_baseline_time_s(scenario, scenario.steps - from_step);
    if (!data)
        data = load_dataset(scenario);
    // Only the baseline's time matters: on the modelled clock it needs no training.
    const Work work = scenario.clock == ClockKind::Modelled ? Work::TimesOnly : Work::Train;
    const auto reference = make_run(baseline_scenario(scenario), std::move(data), nullptr, work);
    // After a restore the baseline does the same work: the steps still to go.
    for (std::int64_t k = from_step; k < scenario.steps; ++k)
        reference->step();
    return reference->metrics().total_time_s;
}

RunResult run_scenario(const Scenario& scenario, TraceSink* sink, Work work) {
    const auto run = make_run(scenario, load_dataset(scenario), sink, work);
    return finish_run(*run);
}

std::string divergence_message(const Scenario& s, const Run::Divergence& d) {
    std::ostringstream lr, smaller;
    lr << s.optimizer.learning_rate;
    smaller << s.optimizer.learning_rate / 10.0;
    const std::string loss = std::isnan(d.loss) ? "nan (not a number)" : "infinite";
    std::string text = "training diverged in step " + std::to_string(d.step) + " of " +
                       std::to_string(s.steps) + ": the loss became " + loss +
                       ". The updates grew until the numbers overflowed; the learning rate (" +
                       lr.str() + ") is most likely too large for this model";
    if (s.optimizer.kind == OptimizerKind::Sgd && s.optimizer.momentum >= 0.9) {
        std::ostringstream momentum;
        momentum << s.optimizer.momentum;
        text += ", and a momentum of " + momentum.str() + " makes every step larger still";
    }
    return text + ". Try a smaller one, such as " + smaller.str() + ".";
}

RunResult finish_run(Run& run) {
    const std::int64_t from = run.steps_done();
    run.run_to_end();
    if (const auto diverged = run.divergence())
        throw Error(divergence_message(run.scenario(), *diverged));
    RunResult result{run.metrics(), run.parameters(), run.progress(), run.recoveries()};
    const Scenario& scenario = run.scenario();
    if (!scenario.model_parallel()) // a model-parallel run's metrics carry their speedup
        set_speedup(result.metrics, scenario, baseline_time_s(scenario, run.dataset(), from));
    return result;
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
    fit_machines(s);
    return s;
}

std::vector<SweepPoint> sweep(const Scenario& scenario, std::span<const int> worker_counts,
                              Work work) {
    if (scenario.model_parallel())
        throw Error("parallelism.mode: \"" + std::string(to_string(scenario.parallelism_mode())) +
                    "\" is trained by lockstep-cli run; a sweep varies the number of "
                    "data-parallel workers");
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
