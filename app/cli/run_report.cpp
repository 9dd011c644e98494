#include "run_report.h"

#include "model_parallel.h"

#include "report.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "model/model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

namespace lockstep::cli {

namespace {

using nlohmann::json;

// A small text chart of the loss, one character per column: how training went at a glance.
std::string loss_sparkline(const std::vector<double>& losses, std::size_t width = 60) {
    if (losses.empty())
        return "";
    static const char* bars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    const auto [low, high] = std::minmax_element(losses.begin(), losses.end());
    const double lo = *low, hi = *high;
    std::string line;
    const std::size_t columns = std::min(width, losses.size());
    for (std::size_t c = 0; c < columns; ++c) {
        const double loss = losses[c * losses.size() / columns];
        const int level = hi > lo ? static_cast<int>((loss - lo) / (hi - lo) * 7.0 + 0.5) : 0;
        line += bars[std::clamp(level, 0, 7)];
    }
    return line;
}

} // namespace

int report_run(const Options& o, const Scenario& scenario, const RunResult& result,
               RunOutputs& outputs, std::int64_t resumed_from, const ProcessRun* processes) {
    const auto& m = result.metrics;
    outputs.finish();
    if (auto path = o.text("--params-out"))
        lockstep::save_file(*path, lockstep::parameters_to_json(scenario.model, result.parameters));
    if (scenario.model_parallel())
        return report_model_parallel(o, scenario, result);

    if (o.has("--json")) {
        json out = metrics_json(scenario, m);
        if (scenario.sync_mode() != lockstep::SyncMode::Bsp) {
            const lockstep::RunMetrics bsp = lockstep::cli::bsp_reference(scenario);
            out["bsp"] = {{"total_time_s", bsp.total_time_s}, {"waiting_s", bsp.waiting_s}};
        }
        out["recoveries"] = lockstep::cli::recoveries_json(result.recoveries);
        if (resumed_from >= 0) {
            out["resumed_from_step"] = resumed_from;
            out["restore"] = std::string(lockstep::to_string(
                scenario.checkpoint ? scenario.checkpoint->restore : lockstep::RestoreMode::Full));
        }
        out["transport"] = processes ? "mpi" : "threads";
        if (processes && processes->mpi_allreduce)
            out["algorithm"] = "mpi-allreduce";
        if (processes) {
            out["ranks"] = processes->ranks;
            out["hosts"] = processes->hosts;
        }
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    print(Cli::tr("Lockstep run \"%1\": %2 workers, %3 steps, %4 all-reduce, %5 of gradients, %6 "
                  "clock\n")
              .arg(qs(scenario.name), QString::number(m.workers), QString::number(m.steps),
                   processes && processes->mpi_allreduce
                       ? Cli::tr("Open MPI's MPI_Allreduce")
                       : qs(std::string(lockstep::to_string(scenario.algorithm))),
                   qs(std::string(lockstep::to_string(scenario.rule))),
                   qs(std::string(lockstep::to_string(scenario.clock)))));
    if (scenario.sync_mode() != lockstep::SyncMode::Bsp)
        print(lockstep::cli::sync_summary(scenario, m));
    print(lockstep::cli::gradient_summary(scenario, m));
    if (processes) {
        const QString ranks = QString::number(processes->ranks);
        const QString hosts = QString::number(processes->hosts.size());
        const QString first = processes->hosts.empty() ? QString() : qs(processes->hosts.front());
        print(report_line(Cli::tr("processes"),
                          processes->hosts.size() == 1
                              ? Cli::tr("%1 over Open MPI, on %2 host (%3); times measured")
                                    .arg(ranks, hosts, first)
                              : Cli::tr("%1 over Open MPI, on %2 hosts (%3); times measured")
                                    .arg(ranks, hosts, first)));
    }
    if (resumed_from >= 0)
        print(report_line(Cli::tr("resumed from"),
                          Cli::tr("step %1 (%2 restore)")
                              .arg(QString::number(resumed_from),
                                   qs(std::string(lockstep::to_string(
                                       scenario.checkpoint ? scenario.checkpoint->restore
                                                           : lockstep::RestoreMode::Full))))));
    print(lockstep::cli::time_lines(m));
    if (m.checkpoints > 0)
        print(report_line(Cli::tr("checkpoints"), Cli::tr("%1 committed, %2 bytes, %3 s per worker")
                                                      .arg(QString::number(m.checkpoints),
                                                           QString::number(m.checkpoint_bytes),
                                                           decimal("%.4g", m.checkpoint_s))));
    if (processes && m.bytes_moved == 0 && m.workers > 1 &&
        scenario.algorithm != lockstep::Algorithm::None)
        print(report_line(Cli::tr("bytes moved"),
                          Cli::tr("not known (inside Open MPI's MPI_Allreduce)")));
    else if (m.reduce_scatter_bytes + m.all_gather_bytes > 0)
        print(report_line(Cli::tr("bytes moved"), Cli::tr("%1 (reduce-scatter %2, all-gather %3)")
                                                      .arg(QString::number(m.bytes_moved),
                                                           QString::number(m.reduce_scatter_bytes),
                                                           QString::number(m.all_gather_bytes))));
    else
        print(report_line(Cli::tr("bytes moved"), QString::number(m.bytes_moved)));
    if (const lockstep::Topology& t = scenario.cost.topology; t.machines() && m.trained)
        print(report_line(Cli::tr("between machines"),
                          Cli::tr("%1 bytes crossed the network (%2 machines of %3 workers, "
                                  "%4 Mbit/s)")
                              .arg(QString::number(m.bytes_inter_node))
                              .arg(t.nodes)
                              .arg(t.workers_per_node)
                              .arg(t.inter.bandwidth_mbit_s)));
    print(lockstep::cli::memory_summary(m));
    print(lockstep::cli::failure_summary(m, result.recoveries));
    print(report_line(Cli::tr("final loss"), Cli::tr("%1   accuracy %2 %")
                                                 .arg(decimal("%.4f", m.final_loss),
                                                      decimal("%.1f", 100.0 * m.final_accuracy))));
    print(report_line(Cli::tr("loss by step"), qs(loss_sparkline(outputs.losses()))));
    print(report_line(Cli::tr("replicas aligned"),
                      !m.trained ? Cli::tr("not checked (times only: no parameters were trained)")
                      : m.replicas_aligned
                          ? Cli::tr("yes (every replica's parameters hash the same)")
                          : Cli::tr("NO: the replicas have drifted apart")));
    return 0;
}

} // namespace lockstep::cli
