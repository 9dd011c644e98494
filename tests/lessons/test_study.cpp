#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/study.h"

#include "core/error.h"
#include "model/model.h"
#include "runs/runs.h"

#include <QFile>
#include <QtTest>

#include <cmath>

using namespace lockstep;
using namespace lockstep::lessons;

// The discussion lesson's study: real training of several model sizes on the same data, with
// compute and modelled energy read from the trace, agreeing with the engine's own metrics.
class TestStudy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void study_trains_every_model_and_counts_its_energy();
    void a_study_of_its_own_watts_is_refused();
    void held_out_loss_is_the_mean_over_seeds();
};

void TestStudy::study_trains_every_model_and_counts_its_energy() {
    const LessonLibrary lib = LessonLibrary::load(QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources"));
    const Lesson& lesson = *lib.find(QStringLiteral("is-it-worth-it"));
    Scenario base = lesson.scenario;
    base.steps = 60; // enough to see the loss fall; the lesson runs its full length
    const StudyConfig& study = *lesson.study;
    const std::vector<StudyPoint> points = run_study(base, study);
    QCOMPARE(points.size(), study.models.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        const StudyPoint& p = points[i];
        QCOMPARE(p.curve.size(), std::size_t{60});
        QVERIFY(std::isfinite(p.final_loss));
        QVERIFY(p.curve.back().loss < p.curve.front().loss); // it really trained
        if (i > 0) {
            QVERIFY(p.parameters > points[i - 1].parameters);
            QVERIFY(p.energy_j() > points[i - 1].energy_j()); // bigger costs more
        }
        // The study's accounting agrees with the engine's metrics for the same run.
        Scenario s = base;
        s.model.layers = p.layers;
        s.cost.compute_s_per_sample = base.cost.compute_s_per_sample *
                                      static_cast<double>(s.model.parameter_count()) /
                                      static_cast<double>(base.model.parameter_count());
        const RunMetrics m = run_scenario(s).metrics;
        QCOMPARE(p.final_loss, m.final_loss);
        const double workers = s.workers;
        QVERIFY(std::abs(p.compute_s() - workers * m.compute_s) < 1e-9 * p.compute_s() + 1e-12);
        // One energy model: the engine's, with the scenario's watts (issue 28, point 10).
        QCOMPARE(s.energy.compute_w, 300.0);
        QCOMPARE(s.energy.communicate_w, 150.0);
        QCOMPARE(s.energy.wait_w, 100.0);
        QVERIFY(m.energy_j > 0);
        QVERIFY2(std::abs(p.energy_j() - m.energy_j) < 1e-9 * m.energy_j,
                 qPrintable(QStringLiteral("%1 vs %2").arg(p.energy_j()).arg(m.energy_j)));
    }
}

// Point 9 of issue 28: each model is judged on fresh examples (a seed no training run uses), as
// the mean and sample standard deviation over the study's seeds, each seed a run of its own.
void TestStudy::held_out_loss_is_the_mean_over_seeds() {
    const LessonLibrary lib = LessonLibrary::load(QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources"));
    const Lesson& lesson = *lib.find(QStringLiteral("is-it-worth-it"));
    Scenario base = lesson.scenario;
    base.steps = 30;
    StudyConfig study = *lesson.study;
    study.models = {{2, 4, 3}, {2, 16, 3}};
    study.seeds = 3;
    const std::vector<StudyPoint> points = run_study(base, study);
    Scenario fresh = base;
    fresh.seed = held_out_seed(base);
    QVERIFY(fresh.seed >= base.seed + 10); // past every seed a study may train with
    const auto held_out = load_dataset(fresh);
    for (const StudyPoint& p : points) {
        QCOMPARE(p.seeds, 3);
        std::vector<double> losses;
        for (std::uint64_t k = 0; k < 3; ++k) {
            Scenario s = base;
            s.model.layers = p.layers;
            s.cost.compute_s_per_sample = base.cost.compute_s_per_sample *
                                          static_cast<double>(s.model.parameter_count()) /
                                          static_cast<double>(base.model.parameter_count());
            s.seed = base.seed + k;
            const RunResult r = run_scenario(s);
            if (k == 0)
                QCOMPARE(p.final_loss, r.metrics.final_loss); // the table's loss: the first seed
            Workspace work;
            losses.push_back(
                evaluate(s.model, r.parameters,
                         {held_out->features.data(), held_out->targets.data(), held_out->size()},
                         work)
                    .loss);
        }
        const double mean = (losses[0] + losses[1] + losses[2]) / 3;
        double squares = 0;
        for (double x : losses)
            squares += (x - mean) * (x - mean);
        QVERIFY(std::abs(p.held_out_loss - mean) < 1e-12);
        QVERIFY(std::abs(p.held_out_loss_sd - std::sqrt(squares / 2)) < 1e-12);
        QVERIFY(p.held_out_loss_sd > 0);
        QVERIFY(p.held_out_accuracy > 0 && p.held_out_accuracy <= 1);
    }
}

// The study has no power model of its own (issue 28, point 10): watts belong to the scenario.
void TestStudy::a_study_of_its_own_watts_is_refused() {
    const QString dir = QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/lessons/is-it-worth-it");
    QFile file(dir + QStringLiteral("/lesson.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray json = file.readAll();
    QVERIFY(json.contains("\"models\""));
    json.replace("\"models\"", "\"busy_watts\": 250, \"models\"");
    try {
        (void)parse_lesson(json, QStringLiteral("# page"), dir);
        QFAIL("a study with its own watts loaded");
    } catch (const Error& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(
                     QStringLiteral("study.busy_watts: the study uses the engine's energy model")),
                 e.what());
    }
}

QTEST_GUILESS_MAIN(TestStudy)
#include "test_study.moc"
