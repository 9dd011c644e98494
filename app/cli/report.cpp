#include "report.h"

#include "options.h"

#include "core/atomic_file.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace lockstep::cli {

using nlohmann::json;

RunMetrics bsp_reference(const Scenario& s) {
    Scenario bsp = s;
    bsp.sync.reset();
    const Work work = bsp.clock == ClockKind::Modelled ? Work::TimesOnly : Work::Train;
    return run_scenario(bsp, nullptr, work).metrics;
}

QString report_line(const QString& label, const QString& text) {
    return QStringLiteral("  ") + pad(label, -17) + QLatin1Char(' ') + text + QLatin1Char('\n');
}

QString time_lines(const RunMetrics& m) {
    return report_line(Cli::tr("total time"),
                       Cli::tr("%1 s  (one worker, same work: %2 s)")
                           .arg(decimal(m.total_time_s), decimal(m.baseline_time_s))) +
           report_line(Cli::tr("speedup"), Cli::tr("%1   efficiency %2 %")
                                               .arg(decimal("%.3f", m.speedup),
                                                    decimal("%.1f", 100.0 * m.efficiency))) +
           report_line(Cli::tr("per worker"),
                       Cli::tr("compute %1 s, communication %2 s, waiting %3 s")
                           .arg(decimal("%.4g", m.compute_s), decimal("%.4g", m.communication_s),
                                decimal("%.4g", m.waiting_s)));
}

QString sync_summary(const Scenario& s, const RunMetrics& m) {
    QString out;
    const QString staleness =
        Cli::tr("at most %1, mean %2 updates behind")
            .arg(QString::number(m.max_staleness), decimal("%.2f", m.mean_staleness));
    switch (s.sync_mode()) {
    case SyncMode::Ssp:
        out = report_line(Cli::tr("agreement"),
                          Cli::tr("ssp: a worker runs at most %n clock(s) ahead of the slowest",
                                  nullptr, s.sync->staleness)) +
              report_line(Cli::tr("staleness"), staleness);
        break;
    case SyncMode::Async:
        out = report_line(Cli::tr("agreement"),
                          s.sync->staleness_aware_lr
                              ? Cli::tr("async: every gradient applied as it arrives, at lr / "
                                        "staleness")
                              : Cli::tr("async: every gradient applied as it arrives")) +
              report_line(Cli::tr("staleness"), staleness);
        break;
    case SyncMode::Local:
        out = report_line(Cli::tr("agreement"),
                          Cli::tr("local SGD: %n step(s) on their own, then the replicas average "
                                  "their parameters",
                                  nullptr, s.sync->local_steps));
        break;
    case SyncMode::Bsp:
        return {};
    }
    const RunMetrics bsp = bsp_reference(s);
    out +=
        report_line(Cli::tr("against bsp"),
                    Cli::tr("waiting %1 s instead of %2 s per worker; total time %3 s instead "
                            "of %4 s")
                        .arg(decimal("%.4g", m.waiting_s), decimal("%.4g", bsp.waiting_s),
                             decimal("%.4g", m.total_time_s), decimal("%.4g", bsp.total_time_s)));
    return out;
}

QString gradient_summary(const Scenario& s, const RunMetrics& m) {
    QString out;
    if (s.sharding == Sharding::Optimizer)
        out += report_line(Cli::tr("sharding"),
                           Cli::tr("ZeRO stage 1: the gradients are reduce-scattered, each worker "
                                   "keeps and updates the optimizer state of its 1/%1 of the "
                                   "parameters only, then the parameters are all-gathered")
                               .arg(s.workers));
    if (s.sharding == Sharding::Gradients)
        out += report_line(Cli::tr("sharding"),
                           Cli::tr("ZeRO stage 2: as stage 1, and between steps each worker "
                                   "keeps only its 1/%1 of the summed gradient")
                               .arg(s.workers));
    if (s.sharding == Sharding::Parameters)
        out += report_line(Cli::tr("sharding"),
                           Cli::tr("ZeRO stage 3 (FSDP): each worker keeps 1/%1 of every layer; "
                                   "a layer is all-gathered before forward and again before "
                                   "backward, freed after use, and its gradient "
                                   "reduce-scattered")
                               .arg(s.workers));
    if (s.model.precision != lockstep::Precision::Float64)
        out += report_line(Cli::tr("precision"),
                           Cli::tr("%1: every pass and update on floats, 4 bytes a value")
                               .arg(QString::fromUtf8(to_string(s.model.precision).data())));
    if (s.wire_precision() != WirePrecision::Float64)
        out += report_line(Cli::tr("on the wire"),
                           Cli::tr("%1, %2 bytes a value; %n step(s) skipped because the summed "
                                   "gradient overflowed",
                                   nullptr, static_cast<int>(m.overflow_steps))
                               .arg(QString::fromUtf8(to_string(s.wire_precision()).data()))
                               .arg(bytes_per_value(s.wire_precision())));
    if (!m.precision_gap.empty()) {
        const auto largest = std::max_element(m.precision_gap.begin(), m.precision_gap.end());
        out += report_line(Cli::tr("against float64"),
                           Cli::tr("the summed gradient was at most %1 from the float64 "
                                   "reference, at step %2 (per step: run --json, precision_gap)")
                               .arg(*largest, 0, 'g', 3)
                               .arg(m.steps - m.steps_run + (largest - m.precision_gap.begin())));
    }
    if (s.loss_scale)
        out += report_line(Cli::tr("loss scale"),
                           Cli::tr("started at %1, ended at %2: halved at each overflow, doubled "
                                   "after %3 steps without one")
                               .arg(s.loss_scale->initial, 0, 'f', 0)
                               .arg(m.loss_scale, 0, 'f', 0)
                               .arg(s.loss_scale->growth_interval));
    if (!s.gradients)
        return out;
    if (m.accumulation > 1)
        out += report_line(
            Cli::tr("accumulation"),
            Cli::tr("%n micro-batch(es) added up before each reduction", nullptr, m.accumulation));
    const QString buckets =
        m.buckets > 1
            ? Cli::tr("%n bucket(s) of at most %1 bytes each, reduced in turn", nullptr, m.buckets)
                  .arg(m.bucket_bytes)
            : Cli::tr("one bucket: the whole gradient, once backward is over");
    out += report_line(Cli::tr("buckets"), buckets);
    const QString hidden =
        s.gradients->overlap || m.buckets == 1
            ? Cli::tr("%1 s of %2 s per worker hidden behind backward (%3 %); %4 s exposed")
            : Cli::tr("%1 s of %2 s per worker hidden (%3 %): without overlap every bucket waits "
                      "for backward; %4 s exposed");
    if (m.abandoned_steps > 0)
        out += report_line(Cli::tr("bucket order"),
                           Cli::tr("%n step(s) stopped: a worker reduced its buckets in another "
                                   "order, so a message named the wrong bucket; nothing was "
                                   "added or applied in those steps",
                                   nullptr, static_cast<int>(m.abandoned_steps)));
    out += report_line(Cli::tr("communication"),
                       hidden.arg(decimal("%.4g", m.collective_s - m.exposed_communication_s),
                                  decimal("%.4g", m.collective_s),
                                  decimal("%.1f", 100.0 * m.overlap_fraction),
                                  decimal("%.4g", m.exposed_communication_s)));
    return out;
}

QString memory_summary(const RunMetrics& m) {
    if (m.memory.empty())
        return {};
    const auto most = std::max_element(
        m.memory.begin(), m.memory.end(),
        [](const WorkerMemory& a, const WorkerMemory& b) { return a.peak < b.peak; });
    return report_line(
        Cli::tr("memory"),
        Cli::tr("worker %1 holds the most, %2 bytes: parameters %3, gradients %4, optimizer %5, "
                "activations %6, workspace %7")
            .arg(most - m.memory.begin())
            .arg(most->peak)
            .arg(most->parameters)
            .arg(most->gradients)
            .arg(most->optimizer)
            .arg(most->activations)
            .arg(most->workspace));
}

json memory_json(const WorkerMemory& w) {
    return {{"parameters", w.parameters},
            {"gradients", w.gradients},
            {"optimizer", w.optimizer},
            {"activations", w.activations},
            {"workspace", w.workspace},
            {"peak", w.peak},
            {"parameters_peak", w.parameters_peak}};
}

// compare_precision's gaps, step by step (null where the sum overflowed); null when not asked.
json precision_gaps(const RunMetrics& m) {
    if (m.precision_gap.empty())
        return nullptr;
    json gaps = json::array();
    for (double g : m.precision_gap)
        gaps.push_back(std::isfinite(g) ? json(g) : json());
    return gaps;
}

json metrics_json(const Scenario& s, const RunMetrics& m) {
    json memory = json::array();
    for (std::size_t k = 0; k < m.memory.size(); ++k) {
        json worker = memory_json(m.memory[k]);
        worker["worker"] = k;
        memory.push_back(std::move(worker));
    }
    json per_worker = json::array();
    for (std::size_t k = 0; k < m.per_worker.size(); ++k) {
        const auto& w = m.per_worker[k];
        per_worker.push_back({{"worker", k},
                              {"compute_s", w.compute_s},
                              {"communication_s", w.communication_s},
                              {"waiting_s", w.waiting_s},
                              {"update_s", w.update_s},
                              {"checkpoint_s", w.checkpoint_s},
                              {"restore_s", w.restore_s},
                              {"failed_s", w.failed_s}});
    }
    return {
        {"scenario", s.name},
        {"workers", m.workers},
        {"workers_at_end", m.workers_at_end},
        {"steps", m.steps},
        {"steps_run", m.steps_run},
        {"algorithm", std::string(to_string(s.algorithm))},
        {"sync", std::string(to_string(s.sync_mode()))},
        {"sharding", std::string(to_string(s.sharding))},
        {"staleness_bound", s.sync_mode() == SyncMode::Ssp ? json(s.sync->staleness) : json()},
        {"local_steps", s.sync_mode() == SyncMode::Local ? json(s.sync->local_steps) : json()},
        {"max_staleness", m.max_staleness},
        {"mean_staleness", m.mean_staleness},
        {"averagings", m.averagings},
        {"abandoned_steps", m.abandoned_steps},
        {"precision", std::string(to_string(s.model.precision))},
        {"comm_precision", std::string(to_string(s.wire_precision()))},
        {"bytes_per_value", bytes_per_value(s.wire_precision())},
        {"overflow_steps", m.overflow_steps},
        {"loss_scale", s.loss_scale ? json(m.loss_scale) : json()},
        {"precision_gap", precision_gaps(m)},
        {"rule", std::string(to_string(s.rule))},
        {"clock", std::string(to_string(s.clock))},
        {"scaling", std::string(to_string(s.scaling))},
        {"total_time_s", m.total_time_s},
        {"step_time_s", m.step_time_s},
        {"baseline_time_s", m.baseline_time_s},
        {"speedup", m.speedup},
        {"efficiency", m.efficiency},
        {"throughput_samples_per_s", m.throughput},
        {"samples", m.samples},
        {"useful_samples", m.useful_samples},
        {"goodput_samples_per_s", m.goodput},
        {"final_loss", m.final_loss},
        {"final_accuracy", m.final_accuracy},
        {"replicas_aligned", m.trained ? json(m.replicas_aligned) : json("not checked")},
        {"misaligned_steps", m.misaligned_steps},
        {"compute_s", m.compute_s},
        {"communication_s", m.communication_s},
        {"waiting_s", m.waiting_s},
        {"update_s", m.update_s},
        {"checkpoint_s", m.checkpoint_s},
        {"checkpoints", m.checkpoints},
        {"checkpoint_bytes", m.checkpoint_bytes},
        {"bytes_moved", m.bytes_moved},
        {"bytes_inter_node", m.bytes_inter_node},
        {"bytes_moved_by_phase",
         {{"reduce_scatter", m.reduce_scatter_bytes}, {"all_gather", m.all_gather_bytes}}},
        {"bytes_per_sample",
         m.samples > 0 ? static_cast<double>(m.bytes_moved) / static_cast<double>(m.samples) : 0.0},
        {"buckets", m.buckets},
        {"bucket_bytes", m.bucket_bytes},
        {"accumulation", m.accumulation},
        {"collective_s", m.collective_s},
        {"exposed_communication_s", m.exposed_communication_s},
        {"overlap_fraction", m.overlap_fraction},
        {"failures", m.failures},
        {"lost_steps", m.lost_steps},
        {"lost_worker_s", m.lost_worker_s},
        {"detection_s", m.detection_s},
        {"recovery_s", m.recovery_s},
        {"dropped_gradients", m.dropped_gradients},
        {"energy_j", m.energy_j},
        {"energy_per_sample_j", m.energy_per_sample_j},
        {"per_worker", per_worker},
        {"memory", memory}};
}

json recoveries_json(std::span<const Recovery> recoveries) {
    json list = json::array();
    for (const auto& r : recoveries) {
        json rejected = json::array();
        for (const auto& c : r.rejected)
            rejected.push_back({{"directory", c.directory.filename().string()},
                                {"status", std::string(to_string(c.status))},
                                {"reason", c.reason}});
        json cleaned = json::array();
        for (const auto& f : r.cleaned)
            cleaned.push_back(f.string());
        list.push_back({{"failure", to_text(r.cause)},
                        {"worker", r.worker},
                        {"step", r.crashed_at_step},
                        {"crashed_s", to_seconds(r.crashed)},
                        {"detected_s", to_seconds(r.detected)},
                        {"resumed_s", to_seconds(r.resumed)},
                        {"policy", std::string(to_string(r.policy))},
                        {"rolled_back", r.rolled_back},
                        {"restored_step", r.restored_step},
                        {"checkpoint", r.checkpoint.filename().string()},
                        {"rejected", rejected},
                        {"cleaned", cleaned},
                        {"lost_steps", r.lost_steps},
                        {"workers_after", r.workers_after}});
    }
    return list;
}

QString describe(const Recovery& r) {
    const QString worker = QString::number(r.worker);
    const QString phase = qs(std::string(to_string(r.cause.phase)));
    const QString crashed = decimal(to_seconds(r.crashed));
    const QString dead = decimal(to_seconds(r.detected - r.crashed));
    QStringList parts;
    parts << (r.cause.during_checkpoint()
                  ? Cli::tr("worker %1 crashed writing the checkpoint of step %2 (%3) at %4 s, "
                            "declared dead %5 s later")
                        .arg(worker, QString::number(r.crashed_at_step + 1), phase, crashed, dead)
                  : Cli::tr("worker %1 crashed in step %2 (%3) at %4 s, declared dead %5 s later")
                        .arg(worker, QString::number(r.crashed_at_step), phase, crashed, dead));
    if (!r.rolled_back) {
        parts << Cli::tr("the others went on without its gradient (backup workers)");
        return parts.join(QStringLiteral("; "));
    }
    if (r.checkpoint.empty())
        parts << Cli::tr("no complete checkpoint yet, so everyone started over from step 0");
    else
        parts << Cli::tr("%1 from %2 (step %3)")
                     .arg(qs(std::string(to_string(r.policy))),
                          qs(r.checkpoint.filename().string()), QString::number(r.restored_step));
    for (const auto& c : r.rejected)
        parts << Cli::tr("skipped %1 (%2: %3)")
                     .arg(qs(c.directory.filename().string()), qs(std::string(to_string(c.status))),
                          qs(c.reason));
    if (!r.cleaned.empty())
        parts << (r.cleaned.size() == 1 ? Cli::tr("removed %1 leftover temporary file").arg(1)
                                        : Cli::tr("removed %1 leftover temporary files")
                                              .arg(QString::number(r.cleaned.size())));
    parts << (r.lost_steps == 1 ? Cli::tr("%1 step to redo").arg(1)
                                : Cli::tr("%1 steps to redo").arg(QString::number(r.lost_steps)));
    if (r.policy == RecoveryPolicy::Elastic)
        parts << Cli::tr("%1 workers go on").arg(QString::number(r.workers_after));
    return parts.join(QStringLiteral("; "));
}

QString failure_summary(const RunMetrics& m, std::span<const Recovery> recoveries) {
    QString text;
    for (const auto& r : recoveries)
        text += report_line(Cli::tr("failure"), describe(r));
    if (m.failures > 0)
        text +=
            report_line(Cli::tr("lost work"),
                        Cli::tr("%1 steps redone, %2 worker-seconds thrown away; detection "
                                "%3 s, recovery %4 s")
                            .arg(QString::number(m.lost_steps), decimal("%.4g", m.lost_worker_s),
                                 decimal("%.4g", m.detection_s), decimal("%.4g", m.recovery_s)));
    if (m.dropped_gradients > 0)
        text += report_line(Cli::tr("dropped gradients"),
                            Cli::tr("%1 (late, left out by backup workers)")
                                .arg(QString::number(m.dropped_gradients)));
    text += report_line(Cli::tr("goodput"),
                        Cli::tr("%1 useful samples/s of %2 processed/s")
                            .arg(decimal("%.6g", m.goodput), decimal("%.6g", m.throughput)));
    text +=
        report_line(Cli::tr("energy (modelled)"),
                    Cli::tr("%1 J, %2 J per useful sample (power per state: assumed, see "
                            "docs/SCENARIO.md)")
                        .arg(decimal("%.4g", m.energy_j), decimal("%.4g", m.energy_per_sample_j)));
    return text;
}

ScratchDirectory::ScratchDirectory() {
    namespace fs = std::filesystem;
    std::string name = (fs::temp_directory_path() / "lockstep-cli-XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr)
        throw Error(utf8(Cli::tr("%1: cannot create a scratch directory for the checkpoints")
                             .arg(qs(fs::temp_directory_path().string()))));
    path_ = name;
    lockstep::remove_on_signal(path_);
}

ScratchDirectory::~ScratchDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
    lockstep::keep_on_signal(path_);
}

} // namespace lockstep::cli
