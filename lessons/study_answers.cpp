// The "study" call: one figure of one model of a lesson's study, trained as the study trains it.
#include "engine_calls.h"

#include "lockstep_lessons/study.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace lockstep::lessons::detail {

namespace {

const QStringList kStudyMetrics = {
    QStringLiteral("final_loss"),       QStringLiteral("final_accuracy"),
    QStringLiteral("energy_j"),         QStringLiteral("energy_kj"),
    QStringLiteral("compute_s"),        QStringLiteral("parameters"),
    QStringLiteral("held_out_loss"),    QStringLiteral("held_out_loss_sd"),
    QStringLiteral("held_out_accuracy")};

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

} // namespace

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

void check_study_call(const EngineCall& call, const Values& probe, const QString& base_dir) {
    require_keys(call,
                 {QStringLiteral("lesson"), QStringLiteral("model"), QStringLiteral("metric")},
                 {QStringLiteral("relative_to")});
    names_known(call.spec.value(QStringLiteral("model")), probe, QStringLiteral("answer.model"));
    if (call.spec.contains(QStringLiteral("relative_to")))
        names_known(call.spec.value(QStringLiteral("relative_to")), probe,
                    QStringLiteral("answer.relative_to"));
    if (!kStudyMetrics.contains(call.spec.value(QStringLiteral("metric")).toString()))
        fail(QStringLiteral("answer.metric: must be one of %1")
                 .arg(kStudyMetrics.join(QStringLiteral(", "))));
    const QString path =
        QDir(base_dir).filePath(call.spec.value(QStringLiteral("lesson")).toString());
    if (!QFileInfo::exists(QDir(path).filePath(QStringLiteral("lesson.json"))))
        fail(QStringLiteral("answer.lesson: no lesson folder %1").arg(path));
}

} // namespace lockstep::lessons::detail
