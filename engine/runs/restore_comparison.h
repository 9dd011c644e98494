#pragma once

#include "reports/restore_comparison.h"
#include "scenario/scenario.h"

#include <atomic>
#include <filesystem>
#include <string>

namespace lockstep {

// Why `scenario` has no crash to compare restores on, in a phrase ("the scenario saves no
// checkpoints; add a \"checkpoint\" policy"); empty when it has one.
std::string restore_comparison_refusal(const Scenario& scenario);

// Runs `scenario` three times: without its crashes, and with them recovered by a full and by a
// weights-only restore, each writing checkpoints into its own new directory under `scratch`.
// Pauses and slow links stay in all three (they change times, not numbers). Throws
// lockstep::Error with the refusal above, or when `stop` is raised.
RestoreComparison compare_restores(Scenario scenario, const std::filesystem::path& scratch,
                                   const std::atomic<bool>* stop = nullptr);

} // namespace lockstep
