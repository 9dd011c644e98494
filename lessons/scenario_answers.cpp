// The "scenario" call: a scenario file run as the lab runs it, and one figure of the run.
#include "engine_calls.h"

#include "core/error.h"
#include "failures/failure.h"
#include "runs/runs.h"

#include <QJsonArray>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

namespace lockstep::lessons::detail {

namespace {

// What a "scenario" call can ask of the run. The first group is every run's; the failure and
// energy figures are a data-parallel run's (checkpoints really written, crashes really
// recovered); the pipeline figures a pipeline run's; the memory figures (kMemoryMetrics) those of
// a data-parallel worker that holds a replica (bsp or local), from the whole run, trained.
const QStringList kMetrics = {QStringLiteral("speedup"),
                              QStringLiteral("efficiency"),
                              QStringLiteral("total_time_s"),
                              QStringLiteral("baseline_time_s"),
                              QStringLiteral("compute_s"),
                              QStringLiteral("communication_s"),
                              QStringLiteral("waiting_s"),
                              QStringLiteral("goodput_samples_per_s"),
                              QStringLiteral("useful_samples"),
                              QStringLiteral("energy_j"),
                              QStringLiteral("energy_per_sample_j"),
                              QStringLiteral("lost_steps"),
                              QStringLiteral("lost_worker_s"),
                              QStringLiteral("resumed_from_step"),
                              QStringLiteral("checkpoint_bytes"),
                              QStringLiteral("weights_bytes"),
                              QStringLiteral("bubble_fraction"),
                              QStringLiteral("activation_bytes_per_step"),
                              QStringLiteral("gradient_bytes_per_step"),
                              QStringLiteral("final_loss"),
                              QStringLiteral("max_staleness"),
                              QStringLiteral("mean_staleness"),
                              QStringLiteral("averagings"),
                              QStringLiteral("bytes_moved"),
                              QStringLiteral("step_time_s"),
                              QStringLiteral("collective_per_step_s"),
                              QStringLiteral("exposed_per_step_s"),
                              QStringLiteral("overlap_fraction"),
                              QStringLiteral("bytes_per_sample"),
                              QStringLiteral("bytes_moved_per_step"),
                              QStringLiteral("bytes_inter_node_per_step"),
                              QStringLiteral("peak_bytes"),
                              QStringLiteral("parameters_peak_bytes"),
                              QStringLiteral("parameter_bytes"),
                              QStringLiteral("gradient_bytes"),
                              QStringLiteral("optimizer_bytes"),
                              QStringLiteral("activation_bytes"),
                              QStringLiteral("overflow_steps"),
                              QStringLiteral("loss_scale")};
// A data-parallel worker's memory ledger (RunMetrics::memory): the figures of the worker that
// holds the most at its peak (the first of equals), in bytes.
const QStringList kMemoryMetrics = {
    QStringLiteral("peak_bytes"),      QStringLiteral("parameters_peak_bytes"),
    QStringLiteral("parameter_bytes"), QStringLiteral("gradient_bytes"),
    QStringLiteral("optimizer_bytes"), QStringLiteral("activation_bytes")};
// The figures that need the run to really train (its model, its gradients' ages), not only its
// times.
const QStringList kTrainedMetrics =
    QStringList{QStringLiteral("final_loss"),           QStringLiteral("max_staleness"),
                QStringLiteral("mean_staleness"),       QStringLiteral("averagings"),
                QStringLiteral("bytes_moved"),          QStringLiteral("bytes_per_sample"),
                QStringLiteral("bytes_moved_per_step"), QStringLiteral("bytes_inter_node_per_step"),
                QStringLiteral("overflow_steps"),       QStringLiteral("loss_scale")} +
    kMemoryMetrics;
const QStringList kPipelineMetrics = {
    QStringLiteral("bubble_fraction"), QStringLiteral("activation_bytes_per_step"),
    QStringLiteral("gradient_bytes_per_step"), QStringLiteral("total_time_s")};

// What a run's memory ledger says, or a refusal naming why it keeps none.
double memory_metric(const RunMetrics& m, const QString& name) {
    if (m.memory.empty())
        fail(QStringLiteral("answer.metric: '%1' is read off a data-parallel worker's memory "
                            "ledger, and this run keeps none (model-parallel runs and sync modes "
                            "ssp and async do not)")
                 .arg(name));
    const WorkerMemory& w = *std::max_element(
        m.memory.begin(), m.memory.end(),
        [](const WorkerMemory& a, const WorkerMemory& b) { return a.peak < b.peak; });
    if (name == QLatin1String("peak_bytes"))
        return static_cast<double>(w.peak);
    if (name == QLatin1String("parameters_peak_bytes"))
        return static_cast<double>(w.parameters_peak);
    if (name == QLatin1String("parameter_bytes"))
        return static_cast<double>(w.parameters);
    if (name == QLatin1String("gradient_bytes"))
        return static_cast<double>(w.gradients);
    if (name == QLatin1String("optimizer_bytes"))
        return static_cast<double>(w.optimizer);
    return static_cast<double>(w.activations);
}

double metric(const RunMetrics& m, const QString& name) {
    if (kMemoryMetrics.contains(name))
        return memory_metric(m, name);
    if (name == QLatin1String("goodput_samples_per_s"))
        return m.goodput;
    if (name == QLatin1String("useful_samples"))
        return static_cast<double>(m.useful_samples);
    if (name == QLatin1String("energy_j"))
        return m.energy_j;
    if (name == QLatin1String("energy_per_sample_j"))
        return m.energy_per_sample_j;
    if (name == QLatin1String("lost_steps"))
        return static_cast<double>(m.lost_steps);
    if (name == QLatin1String("lost_worker_s"))
        return m.lost_worker_s;
    if (name == QLatin1String("speedup"))
        return m.speedup;
    if (name == QLatin1String("efficiency"))
        return m.efficiency;
    if (name == QLatin1String("total_time_s"))
        return m.total_time_s;
    if (name == QLatin1String("baseline_time_s"))
        return m.baseline_time_s;
    if (name == QLatin1String("compute_s"))
        return m.compute_s;
    if (name == QLatin1String("communication_s"))
        return m.communication_s;
    if (name == QLatin1String("final_loss"))
        return m.final_loss;
    if (name == QLatin1String("max_staleness"))
        return static_cast<double>(m.max_staleness);
    if (name == QLatin1String("mean_staleness"))
        return m.mean_staleness;
    if (name == QLatin1String("averagings"))
        return static_cast<double>(m.averagings);
    if (name == QLatin1String("bytes_moved"))
        return static_cast<double>(m.bytes_moved);
    if (name == QLatin1String("overflow_steps"))
        return static_cast<double>(m.overflow_steps);
    if (name == QLatin1String("loss_scale"))
        return m.loss_scale;
    // Gradient buckets and accumulation: per step, the collectives' time and the part of it left
    // exposed once backward is over (per worker, averaged over them).
    const double steps = static_cast<double>(std::max<std::int64_t>(1, m.steps_run));
    if (name == QLatin1String("step_time_s"))
        return m.step_time_s;
    if (name == QLatin1String("collective_per_step_s"))
        return m.collective_s / steps;
    if (name == QLatin1String("exposed_per_step_s"))
        return m.exposed_communication_s / steps;
    if (name == QLatin1String("overlap_fraction"))
        return m.overlap_fraction;
    if (name == QLatin1String("bytes_moved_per_step")) // every step executed, repeats too
        return static_cast<double>(m.bytes_moved) / steps;
    if (name == QLatin1String("bytes_inter_node_per_step")) // from one machine to another
        return static_cast<double>(m.bytes_inter_node) / steps;
    if (name == QLatin1String("bytes_per_sample"))
        return m.samples > 0 ? static_cast<double>(m.bytes_moved) / static_cast<double>(m.samples)
                             : 0.0;
    return m.waiting_s;
}

// The crashes a call names, as the page's own links: "lockstep:crash?worker=2&step=17&phase=...",
// each written into the scenario at its step as the lab does when the link is clicked. A
// variable in braces ("step={s}") is this student's value.
void add_faults(const EngineCall& call, const Values& values, Scenario& s) {
    const QJsonArray faults = call.spec.value(QStringLiteral("faults")).toArray();
    for (qsizetype i = 0; i < faults.size(); ++i) {
        const QString where = QStringLiteral("answer.faults[%1]").arg(i);
        QString link = faults[i].toString();
        for (auto it = values.begin(); it != values.end(); ++it)
            link.replace(QLatin1Char('{') + it.key() + QLatin1Char('}'),
                         QString::number(it.value(), 'g', 17));
        Action a;
        try {
            a = parse_action(link);
        } catch (const Error& e) {
            fail(where + QStringLiteral(": ") + QString::fromStdString(e.what()));
        }
        if (a.kind != ActionKind::Fault || a.fault != QLatin1String("crash") ||
            !a.has(QStringLiteral("step")))
            fail(where + QStringLiteral(": must be a lockstep:crash link with a step"));
        FailureSpec f;
        f.worker = a.integer(QStringLiteral("worker"));
        f.step = a.integer(QStringLiteral("step"));
        if (a.has(QStringLiteral("phase")))
            parse_crash_phase(a.text(QStringLiteral("phase")).toStdString(), f.phase);
        s.failures.events.push_back(f);
    }
}

} // namespace

Action set_action(const EngineCall& call, const Values& values) {
    const QJsonObject set = call.spec.value(QStringLiteral("set")).toObject();
    QStringList pairs;
    for (auto it = set.begin(); it != set.end(); ++it) {
        QString text;
        if (it.value().isArray()) {
            QStringList parts;
            for (double v : argument_list(it.value(), values, QStringLiteral("set.") + it.key()))
                parts << QString::number(v, 'g', 17);
            text = parts.join(QLatin1Char(','));
        } else if (it.value().isString() && !values.contains(it.value().toString())) {
            text = it.value().toString(); // a word: rule=sum, algorithm=tree
        } else {
            text = QString::number(argument(it.value(), values, QStringLiteral("set.") + it.key()),
                                   'g', 17);
        }
        pairs << it.key() + QLatin1Char('=') + text;
    }
    if (pairs.isEmpty())
        return Action{ActionKind::Set, QStringLiteral("lockstep:set"), {}, {}};
    return parse_action(QStringLiteral("lockstep:set?") + pairs.join(QLatin1Char('&')));
}

Scenario call_scenario(const EngineCall& call, const Values& values, const QString& base_dir) {
    Scenario s = load_scenario(scenario_path(call, base_dir).toStdString());
    const Action set = set_action(call, values);
    if (!set.params.isEmpty())
        apply_set(set, s);
    add_faults(call, values, s);
    if (call.spec.contains(QStringLiteral("checkpoint_every"))) {
        const double every = argument(call.spec.value(QStringLiteral("checkpoint_every")), values,
                                      QStringLiteral("answer.checkpoint_every"));
        if (every < 1 || every > static_cast<double>(s.steps) || every != std::floor(every))
            fail(QStringLiteral("answer.checkpoint_every: must be a whole number of steps from 1 "
                                "to %1, got %2")
                     .arg(s.steps)
                     .arg(every));
        s.checkpoint = s.checkpoint.value_or(CheckpointConfig{});
        s.checkpoint->every = static_cast<std::int64_t>(every);
    }
    validate(s);
    return s;
}

double run_scenario_call(const EngineCall& call, const Values& values, const QString& base_dir) {
    const Scenario s = call_scenario(call, values, base_dir);
    const QString name = call.spec.value(QStringLiteral("metric")).toString();
    const bool pipeline = s.parallelism_mode() == Parallelism::Pipeline ||
                          s.parallelism_mode() == Parallelism::Hybrid;
    if (pipeline != kPipelineMetrics.contains(name) && name != QLatin1String("total_time_s"))
        fail(
            QStringLiteral("answer.metric: '%1' is %2 figure, and this scenario is %3")
                .arg(name,
                     pipeline ? QStringLiteral("not a pipeline's") : QStringLiteral("a pipeline's"),
                     pipeline ? QStringLiteral("a pipeline") : QStringLiteral("not one")));
    if (pipeline) {
        const RunMetrics m = run_scenario(s).metrics;
        if (name == QLatin1String("bubble_fraction"))
            return m.pipeline.bubble_fraction;
        if (name == QLatin1String("activation_bytes_per_step"))
            return static_cast<double>(m.pipeline.activation_bytes) / static_cast<double>(s.steps);
        if (name == QLatin1String("gradient_bytes_per_step")) // hybrid: between the replicas
            return static_cast<double>(m.pipeline.gradient_bytes) / static_cast<double>(s.steps);
        return m.total_time_s;
    }
    if (s.parallelism_mode() == Parallelism::Tensor)
        return metric(run_scenario(s).metrics, name); // the tensor trainer, every figure its own
    if (name == QLatin1String("weights_bytes"))       // the weights alone, as doubles
        return static_cast<double>(s.model.parameter_count() * sizeof(double));
    const bool loose = s.sync_mode() == SyncMode::Ssp || s.sync_mode() == SyncMode::Async;
    if (loose || (kTrainedMetrics.contains(name) && !s.checkpoint && s.failures.events.empty()))
        return metric(run_scenario(s).metrics, name); // whatever trainer the scenario names
    if (!s.checkpoint && s.failures.events.empty())
        return metric(run_scenario(s, nullptr, Work::TimesOnly).metrics, name);
    // Checkpoints are written for real, in a directory of the call's own, and crashes recovered
    // from what the recovery scan finds there: the answer is what the lab would show.
    QTemporaryDir dir;
    if (!dir.isValid())
        fail(QStringLiteral("answer: no temporary directory for the run's checkpoints"));
    const auto run = make_run(s, load_dataset(s));
    if (s.checkpoint)
        run->set_checkpoint_directory(dir.path().toStdString());
    const RunResult result = finish_run(*run);
    if (name == QLatin1String("resumed_from_step")) {
        if (result.recoveries.empty())
            fail(QStringLiteral("answer.metric: resumed_from_step needs a crash in the run"));
        return static_cast<double>(result.recoveries.front().restored_step);
    }
    if (name == QLatin1String("checkpoint_bytes")) {
        if (result.metrics.checkpoints == 0)
            fail(QStringLiteral("answer.metric: checkpoint_bytes needs a checkpoint in the run"));
        // One checkpoint: the bytes of all its files, manifest included.
        return static_cast<double>(result.metrics.checkpoint_bytes) /
               static_cast<double>(result.metrics.checkpoints);
    }
    return metric(result.metrics, name);
}

void check_scenario_call(const EngineCall& call, const QStringList& variables, const Values& probe,
                         const QString& base_dir) {
    require_keys(
        call, {QStringLiteral("file"), QStringLiteral("metric")},
        {QStringLiteral("set"), QStringLiteral("faults"), QStringLiteral("checkpoint_every")});
    if (call.spec.contains(QStringLiteral("checkpoint_every")))
        names_known(call.spec.value(QStringLiteral("checkpoint_every")), probe,
                    QStringLiteral("answer.checkpoint_every"));
    const QJsonValue faults = call.spec.value(QStringLiteral("faults"));
    if (!faults.isUndefined() && !faults.isArray())
        fail(QStringLiteral("answer.faults: expected a list of lockstep:crash links"));
    if (!kMetrics.contains(call.spec.value(QStringLiteral("metric")).toString()))
        fail(QStringLiteral("answer.metric: must be one of %1")
                 .arg(kMetrics.join(QStringLiteral(", "))));
    Scenario s = load_scenario(scenario_path(call, base_dir).toStdString());
    if (s.clock != ClockKind::Modelled)
        fail(QStringLiteral("answer.file: a quiz scenario must use the modelled clock, so "
                            "every student's answer is the same on every machine"));
    const QString name = call.spec.value(QStringLiteral("metric")).toString();
    if (kMemoryMetrics.contains(name) &&
        (s.model_parallel() || s.sync_mode() == SyncMode::Ssp || s.sync_mode() == SyncMode::Async))
        fail(QStringLiteral("answer.metric: '%1' is read off a data-parallel worker's memory "
                            "ledger, and this scenario's workers keep none (model-parallel runs "
                            "and sync modes ssp and async do not)")
                 .arg(name));
    const QJsonObject set = call.spec.value(QStringLiteral("set")).toObject();
    for (auto it = set.begin(); it != set.end(); ++it)
        if (it.value().isArray() || it.value().isDouble() ||
            variables.contains(it.value().toString()))
            names_known(it.value(), probe, QStringLiteral("answer.set.") + it.key());
    (void)set_action(call, probe); // the link's names and words are known
    Scenario faulty = s;
    add_faults(call, probe, faulty); // each a crash link with a step
}

} // namespace lockstep::lessons::detail
