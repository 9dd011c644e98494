#pragma once

#include "reports/metrics.h"
#include "runs/runs.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <filesystem>
#include <span>
#include <string>

// What lockstep-cli prints about a run, shared by run, resume and compare.
namespace lockstep::cli {

// One line of a text report: the label in a column of 17 characters, then the text
// ("  total time        16 s ...").
QString report_line(const QString& label, const QString& text);

// The run's time, speedup and per-worker split, the first lines of every run's report.
QString time_lines(const RunMetrics& m);

nlohmann::json metrics_json(const Scenario& s, const RunMetrics& m);
nlohmann::json recoveries_json(std::span<const Recovery> recoveries);

// One line per crash: what happened, how long it went unnoticed, where the run went back to.
QString describe(const Recovery& r);
// A loosely synchronised run's lines: how the workers agreed, the gradients' staleness, and the
// waiting against the bulk-synchronous run of the same scenario.
QString sync_summary(const Scenario& s, const RunMetrics& m);
// Buckets, accumulation and how much communication hid behind backward (a scenario with a
// gradients block); empty otherwise.
QString gradient_summary(const Scenario& s, const RunMetrics& m);
// What the worker holding the most keeps, kind by kind, in bytes (data parallelism).
QString memory_summary(const RunMetrics& m);
// One worker's memory, kind by kind, as `run --json` and `memory --json` give it.
nlohmann::json memory_json(const WorkerMemory& w);
// The same scenario bulk-synchronous (times only on the modelled clock): what a looser run is
// compared with.
RunMetrics bsp_reference(const Scenario& s);

// Lost work, goodput and energy, as lines for the text report (empty without failures, backup
// workers or energy worth reporting).
QString failure_summary(const RunMetrics& m, std::span<const Recovery> recoveries);

// A private checkpoint directory under the system's temporary folder, removed afterwards: for
// runs whose scenario has a checkpoint policy but were given no --checkpoint-dir.
class ScratchDirectory {
public:
    ScratchDirectory();
    ~ScratchDirectory();
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace lockstep::cli
