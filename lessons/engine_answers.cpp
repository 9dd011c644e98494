#include "lockstep_lessons/engine_answers.h"

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/language.h"
#include "lockstep_lessons/study.h"

#include "clocks/cost_model.h"
#include "collectives/reduction.h"
#include "collectives/schedule.h"
#include "core/error.h"
#include "failures/failure.h"
#include "runs/runs.h"
#include "scenario/scenario.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

namespace lockstep::lessons {

namespace {

// What a "scenario" call can ask of the run. The first group is every run's; the failure and
// energy figures are a data-parallel run's (checkpoints really written, crashes really
// recovered); the pipeline figures a pipeline run's.
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
                              QStringLiteral("bytes_moved")};
// The figures that need the run to really train (its model, its gradients' ages), not only its
// times.
const QStringList kTrainedMetrics = {QStringLiteral("final_loss"), QStringLiteral("max_staleness"),
                                     QStringLiteral("mean_staleness"), QStringLiteral("averagings"),
                                     QStringLiteral("bytes_moved")};
const QStringList kPipelineMetrics = {
    QStringLiteral("bubble_fraction"), QStringLiteral("activation_bytes_per_step"),
    QStringLiteral("gradient_bytes_per_step"), QStringLiteral("total_time_s")};
const QStringList kStudyMetrics = {
    QStringLiteral("final_loss"),       QStringLiteral("final_accuracy"),
    QStringLiteral("energy_j"),         QStringLiteral("energy_kj"),
    QStringLiteral("compute_s"),        QStringLiteral("parameters"),
    QStringLiteral("held_out_loss"),    QStringLiteral("held_out_loss_sd"),
    QStringLiteral("held_out_accuracy")};
const QStringList kMeasures = {QStringLiteral("total"), QStringLiteral("max_sent_by_worker"),
                               QStringLiteral("busiest_link")};

[[noreturn]] void fail(const QString& what) {
    throw Error(what.toStdString());
}

QString function_of(const EngineCall& call) {
    return call.spec.value(QStringLiteral("engine")).toString();
}

// A number, or the value of the variable it names.
double argument(const QJsonValue& v, const Values& values, const QString& key) {
    if (v.isDouble())
        return v.toDouble();
    if (v.isString() && values.contains(v.toString()))
        return values.value(v.toString());
    fail(QStringLiteral("%1: expected a number or a variable name, got %2")
             .arg(key, v.isString() ? QLatin1Char('\'') + v.toString() + QLatin1Char('\'')
                                    : QStringLiteral("something else")));
}

std::vector<double> argument_list(const QJsonValue& v, const Values& values, const QString& key) {
    if (!v.isArray())
        fail(QStringLiteral("%1: expected a list of numbers or variable names").arg(key));
    std::vector<double> out;
    const QJsonArray array = v.toArray();
    for (qsizetype i = 0; i < array.size(); ++i)
        out.push_back(argument(array[i], values, QStringLiteral("%1[%2]").arg(key).arg(i)));
    return out;
}

void require_keys(const EngineCall& call, const QStringList& required,
                  const QStringList& optional) {
    const QString fn = function_of(call);
    for (const QString& key : required)
        if (!call.spec.contains(key))
            fail(QStringLiteral("answer: '%1' needs '%2'").arg(fn, key));
    for (auto it = call.spec.begin(); it != call.spec.end(); ++it)
        if (it.key() != QLatin1String("engine") && !required.contains(it.key()) &&
            !optional.contains(it.key()))
            fail(QStringLiteral("answer.%1: unknown key for '%2'").arg(it.key(), fn));
}

QString scenario_path(const EngineCall& call, const QString& base_dir) {
    return QDir(base_dir).filePath(call.spec.value(QStringLiteral("file")).toString());
}

// The lockstep:set link that a scenario call's overrides amount to, for these values.
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
        return Action{ActionKind::Set, QStringLiteral("lockstep:set"), {}};
    return parse_action(QStringLiteral("lockstep:set?") + pairs.join(QLatin1Char('&')));
}

double metric(const RunMetrics& m, const QString& name) {
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
        if (a.kind != ActionKind::Crash || !a.has(QStringLiteral("step")))
            fail(where + QStringLiteral(": must be a lockstep:crash link with a step"));
        FailureSpec f;
        f.worker = a.integer(QStringLiteral("worker"));
        f.step = a.integer(QStringLiteral("step"));
        if (a.has(QStringLiteral("phase")))
            parse_crash_phase(a.text(QStringLiteral("phase")).toStdString(), f.phase);
        s.failures.events.push_back(f);
    }
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

double study_figure(const StudyPoint& p, const QString& name);

// A lesson's study, trained once per process for each scenario and list of models: the study is
// deterministic, and a bank asks it for many students and many figures.
std::vector<StudyPoint> study_points(const Lesson& lesson) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::vector<std::vector<int>>>, std::vector<StudyPoint>>
        done;
    const auto key = std::make_pair(scenario_to_json(lesson.scenario), lesson.study->models);
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (const auto it = done.find(key); it != done.end())
            return it->second;
    }
    auto points = run_study(lesson.scenario, *lesson.study);
    const std::lock_guard<std::mutex> lock(mutex);
    return done.emplace(key, std::move(points)).first->second;
}

// One figure of one model of a lesson's study, trained as the study trains it; with
// `relative_to`, that figure divided by another model's.
double study_call(const EngineCall& call, const Values& values, const QString& base_dir) {
    const QString path =
        QDir(base_dir).filePath(call.spec.value(QStringLiteral("lesson")).toString());
    const Lesson lesson = load_lesson(path);
    if (!lesson.study)
        fail(QStringLiteral("answer.lesson: %1 has no study").arg(path));
    const double model =
        argument(call.spec.value(QStringLiteral("model")), values, QStringLiteral("answer.model"));
    if (model < 0 || model >= static_cast<double>(lesson.study->models.size()) ||
        model != std::floor(model))
        fail(QStringLiteral("answer.model: must be 0 to %1 (the study's models, smallest first)")
                 .arg(lesson.study->models.size() - 1));
    const auto points = study_points(lesson);
    const QString name = call.spec.value(QStringLiteral("metric")).toString();
    const double value = study_figure(points[static_cast<std::size_t>(model)], name);
    if (!call.spec.contains(QStringLiteral("relative_to")))
        return value;
    // How many times another model's figure: "the energy of the largest model is N times ...".
    const double other = argument(call.spec.value(QStringLiteral("relative_to")), values,
                                  QStringLiteral("answer.relative_to"));
    if (other < 0 || other >= static_cast<double>(points.size()) || other != std::floor(other))
        fail(QStringLiteral("answer.relative_to: must be 0 to %1 (the study's models)")
                 .arg(points.size() - 1));
    const double base = study_figure(points[static_cast<std::size_t>(other)], name);
    if (base == 0)
        fail(QStringLiteral("answer.relative_to: that model's %1 is 0").arg(name));
    return value / base;
}

// One figure of one model of a study, as its table shows it.
double study_figure(const StudyPoint& p, const QString& name) {
    if (name == QLatin1String("final_loss"))
        return p.final_loss;
    if (name == QLatin1String("final_accuracy"))
        return p.final_accuracy;
    if (name == QLatin1String("held_out_loss")) // mean over the study's seeds
        return p.held_out_loss;
    if (name == QLatin1String("held_out_loss_sd"))
        return p.held_out_loss_sd;
    if (name == QLatin1String("held_out_accuracy"))
        return p.held_out_accuracy;
    if (name == QLatin1String("energy_j"))
        return p.energy_j();
    if (name == QLatin1String("energy_kj")) // as the study's table shows it
        return p.energy_j() / 1000.0;
    if (name == QLatin1String("compute_s"))
        return p.compute_s();
    return static_cast<double>(p.parameters);
}

const QStringList kSyncModes = {QStringLiteral("bsp"), QStringLiteral("ssp"),
                                QStringLiteral("async"), QStringLiteral("local")};

// The scenario of a first_to_target call under one way of agreeing: ssp with the call's
// staleness bound (2 unless given), local SGD with its period (4 unless given).
Scenario in_mode(const Scenario& s, const QString& mode, const EngineCall& call,
                 const Values& values) {
    SyncConfig c;
    parse_sync_mode(mode.toStdString(), c.mode);
    c.staleness = static_cast<int>(call.spec.contains(QStringLiteral("staleness"))
                                       ? argument(call.spec.value(QStringLiteral("staleness")),
                                                  values, QStringLiteral("answer.staleness"))
                                       : 2);
    c.local_steps = static_cast<int>(call.spec.contains(QStringLiteral("local_steps"))
                                         ? argument(call.spec.value(QStringLiteral("local_steps")),
                                                    values, QStringLiteral("answer.local_steps"))
                                         : 4);
    try {
        return with_sync(s, c);
    } catch (const Error& e) {
        fail(QStringLiteral("answer.modes: %1: %2").arg(mode, QString::fromStdString(e.what())));
    }
}

// Which of the call's ways of agreeing first trains the scenario to the target loss on the
// modelled clock: its index in `modes` (the first listed, on a tie).
double first_to_target(const EngineCall& call, const Values& values, const QString& base_dir) {
    const Scenario s = call_scenario(call, values, base_dir);
    const double target = argument(call.spec.value(QStringLiteral("target")), values,
                                   QStringLiteral("answer.target"));
    const QJsonArray modes = call.spec.value(QStringLiteral("modes")).toArray();
    int best = -1;
    double best_time = 0.0;
    for (qsizetype i = 0; i < modes.size(); ++i) {
        const RunResult r = run_scenario(in_mode(s, modes[i].toString(), call, values));
        for (const ProgressPoint& p : r.progress)
            if (p.loss <= target) {
                if (best < 0 || p.time_s < best_time) {
                    best = static_cast<int>(i);
                    best_time = p.time_s;
                }
                break;
            }
    }
    if (best < 0)
        fail(QStringLiteral("answer.target: no way of agreeing trains this scenario to a loss of "
                            "%1; choose a higher target")
                 .arg(target));
    return best;
}

// A collective call's algorithm and schedule: `workers` and `doubles` (numbers or variables).
CommSchedule call_schedule(const EngineCall& call, const Values& values) {
    Algorithm algorithm = Algorithm::Ring;
    const QString name = call.spec.value(QStringLiteral("algorithm")).toString();
    if (!parse_algorithm(name.toStdString(), algorithm) || algorithm == Algorithm::None)
        fail(QStringLiteral("answer.algorithm: must be ring, tree or parameter-server, got '%1'")
                 .arg(name));
    const double p = argument(call.spec.value(QStringLiteral("workers")), values,
                              QStringLiteral("answer.workers"));
    const double n = argument(call.spec.value(QStringLiteral("doubles")), values,
                              QStringLiteral("answer.doubles"));
    if (p < 1 || p > ScenarioLimits::max_workers || p != std::floor(p))
        fail(QStringLiteral("answer.workers: must be a whole number from 1 to %1, got %2")
                 .arg(ScenarioLimits::max_workers)
                 .arg(p));
    if (n < 0 || n > 1e9 || n != std::floor(n))
        fail(QStringLiteral("answer.doubles: must be a whole number from 0 to 1e9, got %1").arg(n));
    return make_schedule(algorithm, static_cast<int>(p), static_cast<std::size_t>(n));
}

double collective_bytes(const EngineCall& call, const Values& values) {
    const CommSchedule schedule = call_schedule(call, values);
    const QString measure = call.spec.value(QStringLiteral("measure")).toString();
    if (measure == QLatin1String("total"))
        return static_cast<double>(schedule.total_bytes());
    if (measure == QLatin1String("busiest_link")) {
        const auto links = schedule.bytes_per_link();
        return static_cast<double>(links.empty() ? 0
                                                 : *std::max_element(links.begin(), links.end()));
    }
    std::vector<std::int64_t> sent(static_cast<std::size_t>(schedule.workers), 0);
    for (const Round& round : schedule.rounds)
        for (const Message& m : round.messages)
            sent[static_cast<std::size_t>(m.src)] += m.bytes();
    return static_cast<double>(*std::max_element(sent.begin(), sent.end()));
}

// How long one all-reduce takes on the modelled clock, in microseconds, priced as every trainer
// prices it (lockstep::price_schedule): each message alpha + bytes * beta on its link, a link
// serving one message at a time, everyone starting together. Adding is free here (gamma 0): the
// alpha-beta model of the lesson.
double collective_time(const EngineCall& call, const Values& values) {
    const CommSchedule schedule = call_schedule(call, values);
    const double alpha_us = argument(call.spec.value(QStringLiteral("alpha_us")), values,
                                     QStringLiteral("answer.alpha_us"));
    const double beta_ns = argument(call.spec.value(QStringLiteral("beta_ns_per_byte")), values,
                                    QStringLiteral("answer.beta_ns_per_byte"));
    if (alpha_us < 0 || alpha_us > 1e6 || beta_ns < 0 || beta_ns > 1e6)
        fail(QStringLiteral("answer: collective_time needs alpha_us and beta_ns_per_byte from 0 "
                            "to 1e6"));
    CostConfig cost;
    cost.alpha_s = alpha_us * 1e-6;
    cost.beta_s_per_byte = beta_ns * 1e-9;
    cost.gamma_s_per_byte = 0.0;
    std::vector<int> lanes(static_cast<std::size_t>(schedule.workers));
    std::iota(lanes.begin(), lanes.end(), 0);
    std::vector<Ticks> clocks(lanes.size(), 0);
    (void)price_schedule(schedule, {lanes, clocks, {}}, cost, 0, 0, nullptr);
    return to_seconds(*std::max_element(clocks.begin(), clocks.end())) * 1e6;
}

// The idle share of a pipeline with equal stages and free messages, as the engine's pipeline
// trainer measures it over one real training step: 2 layers per stage of 2 units each, so the
// stages are equal, and a batch of 2 samples per micro-batch.
double bubble_fraction(const EngineCall& call, const Values& values) {
    const double stages = argument(call.spec.value(QStringLiteral("stages")), values,
                                   QStringLiteral("answer.stages"));
    const double microbatches = argument(call.spec.value(QStringLiteral("microbatches")), values,
                                         QStringLiteral("answer.microbatches"));
    if (stages < 1 || stages > 16 || microbatches < 1 || microbatches > 256 ||
        stages != std::floor(stages) || microbatches != std::floor(microbatches))
        fail(QStringLiteral("answer: bubble_fraction needs whole stages (1-16) and "
                            "micro-batches (1-256)"));
    Scenario s;
    s.name = "bubble";
    s.steps = 1;
    s.workers = static_cast<int>(stages);
    s.batch = 2 * static_cast<std::size_t>(microbatches);
    s.model = {std::vector<int>(2 * static_cast<std::size_t>(stages) + 1, 2), Activation::Tanh,
               LossKind::SoftmaxCrossEntropy};
    s.dataset = {"xor", "", 2 * static_cast<std::size_t>(microbatches) * 4, 0.05, 2};
    s.cost.alpha_s = 0.0;
    s.cost.beta_s_per_byte = 0.0;
    s.cost.update_s = 0.0;
    ParallelismConfig p;
    p.mode = Parallelism::Pipeline;
    p.stages = static_cast<int>(stages);
    p.microbatches = static_cast<int>(microbatches);
    const QString schedule =
        call.spec.value(QStringLiteral("schedule")).toString(QStringLiteral("fill-drain"));
    if (!parse_pipeline_schedule(schedule.toStdString(), p.schedule))
        fail(QStringLiteral("answer.schedule: must be fill-drain or 1f1b"));
    s.parallelism = p;
    return run_scenario(s).metrics.pipeline.bubble_fraction;
}

// A reduce call's rule and numbers, with a student's values in place of their names; samples
// only for the weighted mean.
struct ReduceArguments {
    ReductionRule rule = ReductionRule::Mean;
    std::vector<double> values;
    std::vector<double> samples;
};

ReduceArguments reduce_arguments(const EngineCall& call, const Values& values) {
    ReduceArguments r;
    parse_reduction_rule(call.spec.value(QStringLiteral("rule")).toString().toStdString(), r.rule);
    r.values = argument_list(call.spec.value(QStringLiteral("values")), values,
                             QStringLiteral("answer.values"));
    if (r.rule == ReductionRule::WeightedMean && call.spec.contains(QStringLiteral("samples")))
        r.samples = argument_list(call.spec.value(QStringLiteral("samples")), values,
                                  QStringLiteral("answer.samples"));
    return r;
}

} // namespace

QStringList engine_functions() {
    return {QStringLiteral("reduce"),
            QStringLiteral("scenario"),
            QStringLiteral("collective_bytes"),
            QStringLiteral("bubble_fraction"),
            QStringLiteral("study"),
            QStringLiteral("first_to_target"),
            QStringLiteral("collective_time")};
}

void check_engine_call(const EngineCall& call, const QStringList& variables,
                       const QString& base_dir) {
    const QString fn = function_of(call);
    Values probe; // every variable present, so the names resolve
    for (const QString& v : variables)
        probe.insert(v, 1.0);
    auto names_known = [&](const QJsonValue& v, const QString& key) {
        if (v.isArray())
            (void)argument_list(v, probe, key);
        else
            (void)argument(v, probe, key);
    };
    if (fn == QLatin1String("reduce")) {
        require_keys(call, {QStringLiteral("rule"), QStringLiteral("values")},
                     {QStringLiteral("samples")});
        ReductionRule rule = ReductionRule::Mean;
        if (!parse_reduction_rule(call.spec.value(QStringLiteral("rule")).toString().toStdString(),
                                  rule))
            fail(QStringLiteral("answer.rule: must be sum, mean or weighted-mean"));
        names_known(call.spec.value(QStringLiteral("values")), QStringLiteral("answer.values"));
        if (call.spec.contains(QStringLiteral("samples")))
            names_known(call.spec.value(QStringLiteral("samples")),
                        QStringLiteral("answer.samples"));
        else if (rule == ReductionRule::WeightedMean)
            fail(QStringLiteral("answer: a weighted mean needs 'samples'"));
    } else if (fn == QLatin1String("scenario")) {
        require_keys(
            call, {QStringLiteral("file"), QStringLiteral("metric")},
            {QStringLiteral("set"), QStringLiteral("faults"), QStringLiteral("checkpoint_every")});
        if (call.spec.contains(QStringLiteral("checkpoint_every")))
            names_known(call.spec.value(QStringLiteral("checkpoint_every")),
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
        const QJsonObject set = call.spec.value(QStringLiteral("set")).toObject();
        for (auto it = set.begin(); it != set.end(); ++it)
            if (it.value().isArray() || it.value().isDouble() ||
                variables.contains(it.value().toString()))
                names_known(it.value(), QStringLiteral("answer.set.") + it.key());
        (void)set_action(call, probe); // the link's names and words are known
        Scenario faulty = s;
        add_faults(call, probe, faulty); // each a crash link with a step
    } else if (fn == QLatin1String("first_to_target")) {
        require_keys(
            call, {QStringLiteral("file"), QStringLiteral("target"), QStringLiteral("modes")},
            {QStringLiteral("set"), QStringLiteral("staleness"), QStringLiteral("local_steps")});
        names_known(call.spec.value(QStringLiteral("target")), QStringLiteral("answer.target"));
        for (const char* key : {"staleness", "local_steps"})
            if (call.spec.contains(QLatin1String(key)))
                names_known(call.spec.value(QLatin1String(key)),
                            QStringLiteral("answer.") + QLatin1String(key));
        const QJsonValue modes = call.spec.value(QStringLiteral("modes"));
        if (!modes.isArray() || modes.toArray().size() < 2)
            fail(QStringLiteral("answer.modes: expected a list of at least two ways of agreeing"));
        QStringList seen;
        for (const QJsonValue& m : modes.toArray()) {
            if (!kSyncModes.contains(m.toString()) || seen.contains(m.toString()))
                fail(QStringLiteral("answer.modes: each must be one of %1, once")
                         .arg(kSyncModes.join(QStringLiteral(", "))));
            seen << m.toString();
        }
        const Scenario s = load_scenario(scenario_path(call, base_dir).toStdString());
        if (s.clock != ClockKind::Modelled)
            fail(QStringLiteral("answer.file: a quiz scenario must use the modelled clock, so "
                                "every student's answer is the same on every machine"));
        (void)set_action(call, probe);
    } else if (fn == QLatin1String("study")) {
        require_keys(call,
                     {QStringLiteral("lesson"), QStringLiteral("model"), QStringLiteral("metric")},
                     {QStringLiteral("relative_to")});
        names_known(call.spec.value(QStringLiteral("model")), QStringLiteral("answer.model"));
        if (call.spec.contains(QStringLiteral("relative_to")))
            names_known(call.spec.value(QStringLiteral("relative_to")),
                        QStringLiteral("answer.relative_to"));
        if (!kStudyMetrics.contains(call.spec.value(QStringLiteral("metric")).toString()))
            fail(QStringLiteral("answer.metric: must be one of %1")
                     .arg(kStudyMetrics.join(QStringLiteral(", "))));
        const QString path =
            QDir(base_dir).filePath(call.spec.value(QStringLiteral("lesson")).toString());
        if (!QFileInfo::exists(QDir(path).filePath(QStringLiteral("lesson.json"))))
            fail(QStringLiteral("answer.lesson: no lesson folder %1").arg(path));
    } else if (fn == QLatin1String("collective_bytes")) {
        require_keys(call,
                     {QStringLiteral("algorithm"), QStringLiteral("workers"),
                      QStringLiteral("doubles"), QStringLiteral("measure")},
                     {});
        names_known(call.spec.value(QStringLiteral("workers")), QStringLiteral("answer.workers"));
        names_known(call.spec.value(QStringLiteral("doubles")), QStringLiteral("answer.doubles"));
        if (!kMeasures.contains(call.spec.value(QStringLiteral("measure")).toString()))
            fail(QStringLiteral("answer.measure: must be one of %1")
                     .arg(kMeasures.join(QStringLiteral(", "))));
    } else if (fn == QLatin1String("collective_time")) {
        require_keys(call,
                     {QStringLiteral("algorithm"), QStringLiteral("workers"),
                      QStringLiteral("doubles"), QStringLiteral("alpha_us"),
                      QStringLiteral("beta_ns_per_byte")},
                     {});
        for (const char* key : {"workers", "doubles", "alpha_us", "beta_ns_per_byte"})
            names_known(call.spec.value(QLatin1String(key)),
                        QStringLiteral("answer.") + QLatin1String(key));
    } else if (fn == QLatin1String("bubble_fraction")) {
        require_keys(call, {QStringLiteral("stages"), QStringLiteral("microbatches")},
                     {QStringLiteral("schedule")});
        names_known(call.spec.value(QStringLiteral("stages")), QStringLiteral("answer.stages"));
        names_known(call.spec.value(QStringLiteral("microbatches")),
                    QStringLiteral("answer.microbatches"));
        const QString schedule =
            call.spec.value(QStringLiteral("schedule")).toString(QStringLiteral("fill-drain"));
        if (schedule != QLatin1String("fill-drain") && schedule != QLatin1String("1f1b"))
            fail(QStringLiteral("answer.schedule: must be fill-drain or 1f1b"));
    } else {
        fail(QStringLiteral("answer.engine: must be one of %1, got '%2'")
                 .arg(engine_functions().join(QStringLiteral(", ")), fn));
    }
}

double evaluate(const EngineCall& call, const Values& values, const QString& base_dir) {
    const QString fn = function_of(call);
    if (fn == QLatin1String("reduce")) {
        const ReduceArguments r = reduce_arguments(call, values);
        return reduce(r.rule, r.values, r.samples);
    }
    if (fn == QLatin1String("scenario"))
        return run_scenario_call(call, values, base_dir);
    if (fn == QLatin1String("collective_bytes"))
        return collective_bytes(call, values);
    if (fn == QLatin1String("collective_time"))
        return collective_time(call, values);
    if (fn == QLatin1String("bubble_fraction"))
        return bubble_fraction(call, values);
    if (fn == QLatin1String("study"))
        return study_call(call, values, base_dir);
    if (fn == QLatin1String("first_to_target"))
        return first_to_target(call, values, base_dir);
    check_engine_call(call, values.keys(), base_dir); // throws with the reason
    fail(QStringLiteral("answer.engine: cannot evaluate '%1'").arg(fn));
}

QString describe_call(const EngineCall& call, const Values& values, const QString& base_dir) {
    const QString fn = function_of(call);
    const double result = evaluate(call, values, base_dir);
    // The working is for the student: its numbers as the language writes them.
    auto shown = [](double x) { return localized_number(QString::number(x, 'g', 10)); };
    auto numbers = [&](const std::vector<double>& v, const QString& join) {
        QStringList parts;
        for (double x : v)
            parts << shown(x);
        return parts.join(join);
    };
    // A value of the call as written, or the student's number for a variable's name.
    auto argument_text = [&](const QJsonValue& x) {
        if (x.isString() && values.contains(x.toString()))
            return shown(values.value(x.toString()));
        if (x.isDouble())
            return localized_number(x.toVariant().toString());
        return x.toVariant().toString();
    };
    const QString value = shown(result);
    if (fn == QLatin1String("reduce")) {
        const ReduceArguments r = reduce_arguments(call, values);
        const ReductionRule rule = r.rule;
        const std::vector<double>& v = r.values;
        const QString sum = numbers(v, QStringLiteral(" + "));
        if (rule == ReductionRule::Sum)
            return Text::tr("lockstep::reduce, rule sum: %1 = %2").arg(sum, value);
        if (rule == ReductionRule::Mean)
            return Text::tr("lockstep::reduce, rule mean: (%1) / %2 = %3")
                .arg(sum)
                .arg(v.size())
                .arg(value);
        const std::vector<double>& n = r.samples;
        QStringList terms;
        for (std::size_t i = 0; i < v.size() && i < n.size(); ++i)
            terms << QStringLiteral("%1 × %2").arg(shown(n[i]), shown(v[i]));
        return Text::tr("lockstep::reduce, rule weighted-mean: (%1) / (%2) = %3")
            .arg(terms.join(QStringLiteral(" + ")), numbers(n, QStringLiteral(" + ")), value);
    }
    // Any other call: its arguments, with the student's numbers in place of their names.
    QStringList args;
    for (auto it = call.spec.begin(); it != call.spec.end(); ++it) {
        if (it.key() == QLatin1String("engine"))
            continue;
        QString text;
        if (it.value().isObject()) {
            QStringList inner;
            const QJsonObject o = it.value().toObject();
            for (auto j = o.begin(); j != o.end(); ++j)
                inner << j.key() + QLatin1Char('=') + argument_text(j.value());
            text = inner.join(QStringLiteral(", "));
        } else if (it.value().isArray()) {
            QStringList inner;
            for (const QJsonValue& x : it.value().toArray())
                inner << argument_text(x);
            text = inner.join(QStringLiteral(", "));
        } else {
            text = argument_text(it.value());
        }
        args << it.key() + QStringLiteral(": ") + text;
    }
    return Text::tr("the engine's %1 (%2) gives %3")
        .arg(fn, args.join(QStringLiteral("; ")), value);
}

} // namespace lockstep::lessons
