// Memory budgets: what a data-parallel worker holds at its peak, found by one real step of the
// scenario, against the bytes the scenario allows it; and which way of sharding would fit.
#include "runs/runs.h"

#include "core/error.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace lockstep {

namespace {

constexpr std::array<Sharding, 4> kStages{Sharding::None, Sharding::Optimizer, Sharding::Gradients,
                                          Sharding::Parameters};

// Why a run of `s` keeps no memory ledger, or nothing when it keeps one.
std::optional<std::string> no_ledger(const Scenario& s) {
    if (s.model_parallel())
        return "parallelism.mode is \"" + std::string(to_string(s.parallelism_mode())) +
               "\", whose workers hold pieces of the model and keep no memory ledger";
    if (s.sync_mode() == SyncMode::Ssp || s.sync_mode() == SyncMode::Async)
        return "sync.mode is " + std::string(to_string(s.sync_mode())) +
               ", whose workers go through a parameter server and keep no memory ledger";
    return std::nullopt;
}

// One step of `scenario` as a step normally goes: no faults, pauses or checkpoints, and no
// budget, so the run that measures is not measured again.
Scenario one_plain_step(const Scenario& scenario) {
    Scenario s = scenario;
    s.steps = 1;
    s.memory_budget_bytes.reset();
    s.failures.events.clear();
    s.delays.pauses.clear();
    s.checkpoint.reset();
    return s;
}

std::string stage_name(Sharding stage) {
    return "sharding \"" + std::string(to_string(stage)) + "\"";
}

// Whether the scenario can be run with `stage`; if not, validate()'s reason in `why`.
bool takes(const Scenario& scenario, Sharding stage, std::string& why) {
    Scenario s = scenario;
    s.sharding = stage;
    try {
        validate(s);
    } catch (const Error& e) {
        why = e.what();
        return false;
    }
    return true;
}

std::int64_t peak_with(const Scenario& scenario, Sharding stage,
                       std::shared_ptr<const Dataset> data) {
    Scenario s = scenario;
    s.sharding = stage;
    return peak_after_one_step(s, std::move(data)).worker.peak;
}

} // namespace

PeakMemory peak_after_one_step(const Scenario& scenario, std::shared_ptr<const Dataset> data) {
    if (const auto why = no_ledger(scenario))
        throw Error("memory: only a data-parallel worker (sync mode bsp or local) accounts its "
                    "memory; " +
                    *why);
    const Scenario s = one_plain_step(scenario);
    if (!data)
        data = load_dataset(s);
    Trace trace; // its snapshots sample each worker's ledger as the step goes
    const auto run = make_run(s, std::move(data), &trace);
    run->step();
    const RunMetrics m = run->metrics();
    if (m.memory.empty())
        throw Error("memory: this run keeps no memory ledger");
    const auto largest = std::max_element(
        m.memory.begin(), m.memory.end(),
        [](const WorkerMemory& a, const WorkerMemory& b) { return a.peak < b.peak; });
    const WorkerMemory& w = *largest;
    const int lane = static_cast<int>(largest - m.memory.begin());
    // Its ledger when it held the most: the sample of the largest total (the first of equals).
    PeakMemory out{w,
                   {lane, 0, w.parameters, w.gradients, w.optimizer, w.activations, w.workspace}};
    bool sampled = false;
    for (const StepSnapshot& snapshot : trace.snapshots())
        for (const MemorySample& at : snapshot.memory)
            if (at.worker == lane && (!sampled || at.total() > out.at_peak.total())) {
                out.at_peak = at;
                sampled = true;
            }
    return out;
}

std::optional<Sharding> least_sharding_within(const Scenario& scenario, std::int64_t budget_bytes,
                                              std::shared_ptr<const Dataset> data) {
    if (!data)
        data = load_dataset(scenario);
    for (Sharding stage : kStages) {
        std::string why;
        if (takes(scenario, stage, why) && peak_with(scenario, stage, data) <= budget_bytes)
            return stage;
    }
    return std::nullopt;
}

void check_memory_budget(const Scenario& scenario, std::shared_ptr<const Dataset> data) {
    if (!scenario.memory_budget_bytes)
        return;
    const std::int64_t budget = *scenario.memory_budget_bytes;
    if (const auto why = no_ledger(scenario))
        throw Error("memory_budget_bytes: a budget is checked against a data-parallel worker's "
                    "memory ledger; " +
                    *why);
    if (!data)
        data = load_dataset(scenario);
    const PeakMemory own = peak_after_one_step(scenario, data);
    if (own.worker.peak <= budget)
        return;

    // The ledger at the peak, line by line, and the line at which the budget runs out.
    const MemorySample& at = own.at_peak;
    const std::pair<const char*, std::int64_t> lines[] = {{"parameters", at.parameters},
                                                          {"gradients", at.gradients},
                                                          {"optimizer", at.optimizer},
                                                          {"activations", at.activations},
                                                          {"workspace", at.workspace}};
    std::string ledger;
    for (const auto& [name, bytes] : lines)
        ledger += (ledger.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(bytes);
    std::string text = "memory_budget_bytes " + std::to_string(budget) + ": with " +
                       stage_name(scenario.sharding) + " over " + std::to_string(scenario.workers) +
                       (scenario.workers == 1 ? " worker" : " workers") +
                       ", a worker's peak would be " + std::to_string(own.worker.peak) +
                       " bytes (" + ledger + "), over by " +
                       std::to_string(own.worker.peak - budget);
    std::int64_t held = 0;
    for (const auto& [name, bytes] : lines) {
        held += bytes;
        if (held > budget) {
            text += "; added up in that order, the budget runs out at the " + std::string(name) +
                    " line";
            break;
        }
    }

    // The other stages, least sharded first: the first that fits, or the least of them all.
    Sharding least = scenario.sharding;
    std::int64_t least_peak = own.worker.peak;
    std::string cannot;
    for (Sharding stage : kStages) {
        if (stage == scenario.sharding)
            continue;
        std::string why;
        if (!takes(scenario, stage, why)) {
            cannot += "; " + why;
            continue;
        }
        const std::int64_t peak = peak_with(scenario, stage, data);
        if (peak <= budget)
            throw Error(text + "; " + stage_name(stage) + " would fit (peak " +
                        std::to_string(peak) + ")");
        if (peak < least_peak) {
            least = stage;
            least_peak = peak;
        }
    }
    throw Error(text + "; no way of sharding fits: the least a worker would hold is " +
                std::to_string(least_peak) + " bytes, with " + stage_name(least) +
                "; raise the budget, or make the model or the batch smaller" + cannot);
}

} // namespace lockstep
