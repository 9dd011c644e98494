#include "runs/restore_comparison.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "trainers/run.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace lockstep {

namespace {

bool is_crash(const FailureSpec& f) {
    return f.kind == FailureKind::Crash;
}

struct Outcome {
    LossCurve curve;
    std::vector<double> parameters;
    std::vector<Recovery> recoveries;
};

Outcome run_one(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                const std::filesystem::path& dir, const std::atomic<bool>* stop) {
    const auto run = make_run(scenario, std::move(data));
    Run& trainer = *run;
    trainer.set_stop_flag(stop);
    if (!dir.empty()) {
        const MakingFiles making; // never made again after a signal removed the scratch folder
        std::filesystem::create_directories(dir);
        trainer.set_checkpoint_directory(dir);
    }
    trainer.run_to_end();
    if (stop && stop->load())
        throw Error("compare restores: stopped before the runs finished");
    std::map<std::int64_t, double> last; // a repeated step keeps its later loss
    for (const auto& p : trainer.progress())
        last[p.step] = p.loss;
    Outcome out;
    for (const auto& [step, loss] : last) {
        out.curve.steps.push_back(step);
        out.curve.loss.push_back(loss);
    }
    out.parameters = trainer.parameters();
    out.recoveries = trainer.recoveries();
    return out;
}

double largest_gap(const LossCurve& a, const LossCurve& b) {
    double gap = 0.0;
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        double other = 0.0;
        if (loss_at(b, a.steps[i], &other))
            gap = std::max(gap, std::abs(a.loss[i] - other));
    }
    return gap;
}

} // namespace

std::string restore_comparison_refusal(const Scenario& scenario) {
    if (scenario.model_parallel())
        return "model-parallel runs take no faults and save no checkpoints";
    if (!scenario.checkpoint)
        return "the scenario saves no checkpoints; add a \"checkpoint\" policy";
    if (scenario.workers > 1 && scenario.algorithm == Algorithm::None)
        return "the replicas are never synchronised, so there is no single model to save";
    const auto& events = scenario.failures.events;
    if (std::none_of(events.begin(), events.end(), is_crash))
        return "the scenario has no crash to recover from";
    if (scenario.failures.policy == RecoveryPolicy::Backup)
        return "the backup policy never restores a checkpoint; use restart or elastic";
    return {};
}

RestoreComparison compare_restores(Scenario scenario, const std::filesystem::path& scratch,
                                   const std::atomic<bool>* stop) {
    if (const std::string refusal = restore_comparison_refusal(scenario); !refusal.empty())
        throw Error("compare restores: " + refusal);
    validate(scenario);
    const auto data = load_dataset(scenario);

    Scenario plain = scenario;
    std::erase_if(plain.failures.events, is_crash);
    Scenario full = scenario;
    full.checkpoint->restore = RestoreMode::Full;
    Scenario weights = scenario;
    weights.checkpoint->restore = RestoreMode::WeightsOnly;

    const Outcome a = run_one(plain, data, {}, stop);
    const Outcome b = run_one(full, data, scratch / "full", stop);
    const Outcome c = run_one(weights, data, scratch / "weights-only", stop);

    RestoreComparison out;
    out.uninterrupted = a.curve;
    out.full = b.curve;
    out.weights_only = c.curve;
    const auto first = std::find_if(b.recoveries.begin(), b.recoveries.end(),
                                    [](const auto& r) { return r.rolled_back; });
    if (first != b.recoveries.end()) {
        out.crash_step = first->crashed_at_step;
        out.restored_step = first->restored_step;
        out.checkpoint_step = first->checkpoint.empty() ? -1 : first->restored_step;
    }
    out.full_gap = largest_gap(out.full, out.uninterrupted);
    out.weights_only_gap = largest_gap(out.weights_only, out.uninterrupted);
    out.full_identical = b.parameters == a.parameters;
    out.weights_only_identical = c.parameters == a.parameters;
    return out;
}

} // namespace lockstep
