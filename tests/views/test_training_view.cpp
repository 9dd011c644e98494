#include "core/rng.h"
#include "data/data.h"
#include "failures/failure.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/trace_index.h"
#include "lockstep_views/training_view.h"
#include "model/model.h"
#include "reports/decision_grid.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "view_test_support.h"

#include <QDir>
#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

using namespace lockstep;
using namespace lockstep::views;

using namespace lockstep::testing;

namespace {

// Four workers on a small spiral; the algorithm decides whether replicas stay equal.
Scenario four_workers(Algorithm algorithm, std::int64_t steps) {
    Scenario s;
    s.name = "training-view";
    s.seed = 3;
    s.steps = steps;
    s.workers = 4;
    s.batch = 16;
    s.algorithm = algorithm;
    s.model = ModelShape{{2, 16, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", 480, 0.1, 3};
    return s;
}

// The class whose tint line (background towards class colour) passes closest to `pixel`, and
// how far off it is, in 0..255 units per channel.
std::pair<int, double> nearest_tint(const QColor& pixel, const QColor& background, int classes) {
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int c = 0; c < classes; ++c) {
        const QColor colour = class_colour(c);
        const double b[3] = {background.redF(), background.greenF(), background.blueF()};
        const double d[3] = {colour.redF() - b[0], colour.greenF() - b[1], colour.blueF() - b[2]};
        const double p[3] = {pixel.redF() - b[0], pixel.greenF() - b[1], pixel.blueF() - b[2]};
        const double t =
            (p[0] * d[0] + p[1] * d[1] + p[2] * d[2]) / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double distance = 0;
        for (int k = 0; k < 3; ++k)
            distance = std::max(distance, std::abs(p[k] - t * d[k]) * 255.0);
        if (t > 0 && distance < bestDistance) {
            bestDistance = distance;
            best = c;
        }
    }
    return {best, bestDistance};
}

QPalette dark_palette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x1e, 0x1f, 0x22));
    p.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Base, QColor(0x16, 0x17, 0x19));
    p.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Button, QColor(0x2a, 0x2b, 0x2e));
    p.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
    return p;
}

} // namespace

class TestTrainingView : public QObject {
    Q_OBJECT

private:
    // A trained 2,16,3 spiral classifier, shared by the boundary tests.
    std::shared_ptr<const Dataset> spiral_;
    ModelShape spiralShape_{{2, 16, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    std::vector<double> spiralParameters_;
    double spiralAccuracy_ = 0;

private Q_SLOTS:
    void initTestCase();
    void ringRunDrawsOneMeanLossLineUpToThePlayhead();
    void unsynchronisedRunDrawsOneLinePerReplica();
    void longRunsAreThinnedKeepingTheExtremes();
    void manyWorkersDrawEvenlySpreadReplicas();
    void restartIsANewSegmentNeverALineBackInTime();
    void boundaryPredictsTheTrainedClasses();
    void boundaryDrawsTheEnginesGrid();
    void boundaryExplainsWhatItCannotDraw_data();
    void boundaryExplainsWhatItCannotDraw();
    void screenshotsFollowThePalette();
    void aDivergedRunSaysSoAndDrawsWhatIsANumber();
    void stepsSkippedOnAnOverflowAreMarked();
    void aShortViewKeepsTheMapsCaptionHidden();
};

void TestTrainingView::initTestCase() {
    Scenario s = four_workers(Algorithm::Ring, 4000);
    s.optimizer = OptimizerConfig{OptimizerKind::Adam, 0.02, 0.0, 0.9, 0.999, 1e-8};
    spiral_ = load_dataset(s);
    const auto trainer = make_run(s, spiral_);
    trainer->run_to_end();
    spiralParameters_ = trainer->parameters();

    Workspace work;
    const BatchView all{spiral_->features.data(), spiral_->targets.data(), spiral_->size()};
    const LossResult result = evaluate(spiralShape_, spiralParameters_, all, work);
    spiralAccuracy_ = static_cast<double>(result.correct) / static_cast<double>(result.count);
    // The premise of the boundary tests: the model has learnt the spiral.
    QVERIFY2(spiralAccuracy_ > 0.9, qPrintable(QString::number(spiralAccuracy_)));
}

void TestTrainingView::ringRunDrawsOneMeanLossLineUpToThePlayhead() {
    TraceIndex index;
    run_into(four_workers(Algorithm::Ring, 30), index);
    const auto& snaps = index.snapshots();
    QCOMPARE(snaps.size(), std::size_t{30});

    TrainingView view;
    QCOMPARE(view.accessibleName(), QStringLiteral("Training view"));
    view.setTrace(&index);
    view.setPlayhead(index.end_time());
    QCOMPARE(view.seriesCount(), 1);
    QVERIFY(!view.showsReplicas());
    QList<QPointF> points = view.lossPoints(0);
    QCOMPARE(points.size(), qsizetype(30));
    for (std::size_t i = 0; i < snaps.size(); ++i) {
        QCOMPARE(points[static_cast<qsizetype>(i)].x(), static_cast<double>(snaps[i].step));
        QCOMPARE(points[static_cast<qsizetype>(i)].y(), snaps[i].loss);
        QCOMPARE(view.accuracyPoints()[static_cast<qsizetype>(i)].y(), snaps[i].accuracy * 100);
    }
    const StepSnapshot& last = snaps.back();
    QCOMPARE(view.accessibleDescription(),
             QStringLiteral("step %1, loss %2, accuracy %3%, replicas identical")
                 .arg(last.step)
                 .arg(QString::number(last.loss, 'g', 3))
                 .arg(std::lround(last.accuracy * 100)));

    // Scrubbing back shortens the line to the steps that had ended by then.
    view.setPlayhead(snaps[9].time);
    QCOMPARE(view.lossPoints(0).size(), qsizetype(10));
    QCOMPARE(view.lossPoints(0).back().y(), snaps[9].loss);
    view.setPlayhead(snaps[9].time - 1);
    QCOMPARE(view.lossPoints(0).size(), qsizetype(9));
    QVERIFY(view.accessibleDescription().startsWith(QStringLiteral("step 8, ")));
    view.setPlayhead(0);
    QCOMPARE(view.lossPoints(0).size(), qsizetype(0));
    QCOMPARE(view.accessibleDescription(), QStringLiteral("no training steps yet"));

    view.setTrace(nullptr);
    QCOMPARE(view.lossPoints(0).size(), qsizetype(0));
}

// A long run's lines are thinned to what the chart can show, never losing a spike: every point
// drawn is a real step's, in order, with the first, the last, the lowest and the highest kept.
void TestTrainingView::longRunsAreThinnedKeepingTheExtremes() {
    TraceIndex index;
    run_into(four_workers(Algorithm::Ring, 2500), index);
    const auto& snaps = index.snapshots();
    TrainingView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setTrace(&index);
    view.setPlayhead(index.end_time());
    const QList<QPointF> points = view.lossPoints(0);
    QVERIFY(points.size() <= 1000);
    QVERIFY(points.size() > 200); // two a pixel column of a plot some hundreds of pixels wide
    std::size_t at = 0;           // each point is a later snapshot than the one before
    for (const QPointF& point : points) {
        while (at < snaps.size() &&
               (static_cast<double>(snaps[at].step) != point.x() || snaps[at].loss != point.y()))
            ++at;
        QVERIFY2(at < snaps.size(), "a point that is no step's loss");
        ++at;
    }
    const auto [low, high] = std::minmax_element(
        snaps.begin(), snaps.end(),
        [](const StepSnapshot& a, const StepSnapshot& b) { return a.loss < b.loss; });
    auto drawn = [&](const StepSnapshot& s) {
        return points.contains(QPointF(static_cast<double>(s.step), s.loss));
    };
    QVERIFY(drawn(snaps.front()) && drawn(snaps.back()) && drawn(*low) && drawn(*high));
    QCOMPARE(points.front().x(), static_cast<double>(snaps.front().step));
    QCOMPARE(points.back().x(), static_cast<double>(snaps.back().step));
    QVERIFY(view.accuracyPoints().size() <= 1000);
}

void TestTrainingView::unsynchronisedRunDrawsOneLinePerReplica() {
    TraceIndex index;
    run_into(four_workers(Algorithm::None, 25), index);
    const auto& snaps = index.snapshots();
    QVERIFY(!snaps.front().replicas_aligned);

    TrainingView view;
    view.setTrace(&index);
    view.setPlayhead(index.end_time());
    QCOMPARE(view.seriesCount(), 4);
    QVERIFY(view.showsReplicas());
    for (int k = 0; k < 4; ++k) {
        QCOMPARE(view.lossSeriesName(k), QStringLiteral("worker %1").arg(k));
        const QList<QPointF> points = view.lossPoints(k);
        QCOMPARE(points.size(), qsizetype(25));
        for (std::size_t i = 0; i < snaps.size(); ++i) {
            QCOMPARE(points[static_cast<qsizetype>(i)].x(), static_cast<double>(snaps[i].step));
            QCOMPARE(points[static_cast<qsizetype>(i)].y(),
                     snaps[i].worker_loss[static_cast<std::size_t>(k)]);
        }
    }
    // The lines really are different: the replicas drifted apart.
    QVERIFY(view.lossPoints(0).back().y() != view.lossPoints(1).back().y());
    QVERIFY(view.accessibleDescription().endsWith(QStringLiteral("replicas differ")));

    // Before the first step ends nothing has drifted yet: one (empty) mean line.
    view.setPlayhead(0);
    QCOMPARE(view.seriesCount(), 1);
    QVERIFY(!view.showsReplicas());
    view.setPlayhead(snaps[2].time);
    QCOMPARE(view.seriesCount(), 4);
    QCOMPARE(view.lossPoints(3).size(), qsizetype(3));
}

void TestTrainingView::manyWorkersDrawEvenlySpreadReplicas() {
    Scenario s = four_workers(Algorithm::None, 3);
    s.workers = 16;
    s.batch = 8;
    TraceIndex index;
    run_into(s, index);

    TrainingView view;
    view.setTrace(&index);
    view.setPlayhead(index.end_time());
    QCOMPARE(view.seriesCount(), TrainingView::kMaxReplicaSeries);
    QCOMPARE(view.lossSeriesName(0), QStringLiteral("worker 0"));
    QCOMPARE(view.lossSeriesName(TrainingView::kMaxReplicaSeries - 1), QStringLiteral("worker 15"));
    const StepSnapshot& last = index.snapshots().back();
    QCOMPARE(view.lossPoints(TrainingView::kMaxReplicaSeries - 1).back().y(), last.worker_loss[15]);
}

// A crash without checkpoints: the run starts over from step 0. The current attempt's line
// starts at 0 and only moves forward; the work lost stays as its own dashed segment.
void TestTrainingView::restartIsANewSegmentNeverALineBackInTime() {
    Scenario s = four_workers(Algorithm::Ring, 30);
    s.failures.heartbeat_s = 0.005;
    s.failures.restart_s = 0.004;
    s.failures.events = {parse_failure_spec("crash:worker=1,step=12")};
    TraceIndex index;
    run_into(s, index);
    const auto& snaps = index.snapshots();
    const auto back = std::adjacent_find(
        snaps.begin(), snaps.end(), [](const auto& a, const auto& b) { return b.step <= a.step; });
    QVERIFY2(back != snaps.end(), "the premise: the trace's steps go back at the restart");

    TrainingView view;
    view.resize(900, 500);
    view.setTrace(&index);
    view.setPlayhead(index.end_time());
    QCOMPARE(view.seriesCount(), 1);
    const QList<QPointF> current = view.lossPoints(0);
    QVERIFY(!current.isEmpty());
    QCOMPARE(current.front().x(), 0.0);
    QCOMPARE(current.back().x(), static_cast<double>(snaps.back().step));
    for (qsizetype k = 1; k < current.size(); ++k)
        QVERIFY2(current[k].x() > current[k - 1].x(), "the line never runs back in time");
    const QList<QPointF> accuracy = view.accuracyPoints();
    for (qsizetype k = 1; k < accuracy.size(); ++k)
        QVERIFY(accuracy[k].x() > accuracy[k - 1].x());
    QCOMPARE(view.lostSegmentCount(), 1);
    const QList<QPointF> lost = view.lostSegmentPoints(0);
    QCOMPARE(lost.front().x(), static_cast<double>(snaps.front().step));
    QCOMPARE(lost.back().x(), static_cast<double>((back)->step));
    // Before the crash there is nothing lost yet.
    view.setPlayhead(back->time);
    QCOMPARE(view.lostSegmentCount(), 0);
    QVERIFY(!view.grab().isNull());
}

void TestTrainingView::boundaryPredictsTheTrainedClasses() {
    TrainingView view;
    QVERIFY(view.boundaryImage().isNull());
    QCOMPARE(view.predictedClassAt(QPointF(0, 0)), -1);
    view.setModel(spiralShape_, spiralParameters_, spiral_);
    QVERIFY(view.boundaryMessage().isEmpty());
    const QImage image = view.boundaryImage();
    QCOMPARE(image.size(), QSize(TrainingView::kBoundaryCells, TrainingView::kBoundaryCells));

    const QColor background = view.palette().color(QPalette::Window);
    int sampled = 0, labelled = 0, tinted = 0;
    for (std::size_t i = 0; i < spiral_->size(); i += 7) {
        const QPointF input(spiral_->row(i)[0], spiral_->row(i)[1]);
        const int label = static_cast<int>(spiral_->targets[i]);
        const int predicted = view.predictedClassAt(input);
        ++sampled;
        if (predicted == label)
            ++labelled;

        const QPoint cell = view.boundaryCellAt(input);
        QVERIFY(QRect(QPoint(0, 0), image.size()).contains(cell));
        const auto [tintClass, distance] = nearest_tint(image.pixelColor(cell), background, 3);
        QVERIFY2(distance < 3.0, qPrintable(QString::number(distance))); // a tint of some class
        if (tintClass == predicted)
            ++tinted;
    }
    // The model is right about most points, and the map agrees with the model (a point can sit
    // half a cell from its cell's centre, so right at a boundary the two may differ).
    QVERIFY2(labelled > sampled * 8 / 10,
             qPrintable(QStringLiteral("%1/%2").arg(labelled).arg(sampled)));
    QVERIFY2(tinted >= sampled * 95 / 100,
             qPrintable(QStringLiteral("%1/%2").arg(tinted).arg(sampled)));

    // Far outside the data the map has no cell.
    QCOMPARE(view.boundaryCellAt(QPointF(1e6, 0)), QPoint(-1, -1));

    view.clearModel();
    QVERIFY(view.boundaryImage().isNull());
    QVERIFY(!view.boundaryMessage().isEmpty());
}

// The map is the engine's decision grid (reports/decision_grid.h) over the square around the data,
// cell for cell in the tint of the cell's class and confidence; the class under a point and the
// caption's count are the engine's too.
void TestTrainingView::boundaryDrawsTheEnginesGrid() {
    TrainingView view;
    view.setModel(spiralShape_, spiralParameters_, spiral_);
    const DecisionGrid grid = decision_grid(spiralShape_, spiralParameters_,
                                            square_around(*spiral_), TrainingView::kBoundaryCells);
    const QImage image = view.boundaryImage();
    QCOMPARE(image.size(), QSize(grid.cells, grid.cells));
    const QColor background = view.palette().color(QPalette::Window);
    for (int row = 0; row < grid.cells; ++row)
        for (int col = 0; col < grid.cells; ++col) {
            const std::size_t i = grid.index({col, row});
            QCOMPARE(image.pixel(col, row),
                     class_tint(grid.predicted[i], grid.confidence[i], background).rgb());
        }
    for (std::size_t i = 0; i < spiral_->size(); i += 11) {
        const double* x = spiral_->row(i);
        const QPointF input(x[0], x[1]);
        QCOMPARE(view.predictedClassAt(input),
                 predicted_class(spiralShape_, spiralParameters_, x[0], x[1]));
        const std::optional<GridCell> cell = grid.cell_at(x[0], x[1]);
        QVERIFY(cell);
        QCOMPARE(view.boundaryCellAt(input), QPoint(cell->column, cell->row));
    }
    const auto correct = correctly_classified(spiralShape_, spiralParameters_, *spiral_);
    QCOMPARE(static_cast<double>(correct) / static_cast<double>(spiral_->size()), spiralAccuracy_);
}

void TestTrainingView::boundaryExplainsWhatItCannotDraw_data() {
    QTest::addColumn<QString>("dataset");
    QTest::addColumn<QString>("expected");
    QTest::newRow("1-D regression") << "line"
                                    << "regression";
    QTest::newRow("2-D regression") << "regression"
                                    << "regression";
    QTest::newRow("3-D classification") << "cube"
                                        << "3 inputs";
    QTest::newRow("parameters of another shape") << "wrong-parameters"
                                                 << "cannot be drawn";
}

void TestTrainingView::boundaryExplainsWhatItCannotDraw() {
    QFETCH(QString, dataset);
    QFETCH(QString, expected);

    auto data = std::make_shared<Dataset>();
    ModelShape shape;
    if (dataset == QLatin1String("line")) {
        data->name = "line";
        data->task = Task::Regression;
        data->dim = 1;
        data->classes = 1;
        for (int i = 0; i < 50; ++i) {
            data->features.push_back(i / 10.0);
            data->targets.push_back(2 * i / 10.0 + 1);
        }
        shape = ModelShape{{1, 8, 1}, Activation::Tanh, LossKind::MeanSquaredError};
    } else if (dataset == QLatin1String("regression")) {
        *data = make_synthetic(SyntheticSpec{"regression", 100, 0.1, 1, 1});
        shape = ModelShape{{2, 8, 1}, Activation::Tanh, LossKind::MeanSquaredError};
    } else if (dataset == QLatin1String("cube")) {
        data->dim = 3;
        data->classes = 2;
        data->features = {0, 0, 0, 1, 1, 1};
        data->targets = {0, 1};
        shape = ModelShape{{3, 4, 2}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    } else {
        *data = *spiral_;
    }
    Rng rng(5);
    std::vector<double> parameters = init_parameters(shape, rng);
    if (dataset == QLatin1String("wrong-parameters")) {
        shape = spiralShape_;
        parameters.resize(3); // far too few for a 2,16,3 network
    }

    TrainingView view;
    view.resize(900, 500);
    view.setModel(shape, parameters, data);
    QVERIFY(view.boundaryImage().isNull());
    QVERIFY2(view.boundaryMessage().contains(expected), qPrintable(view.boundaryMessage()));
    QCOMPARE(view.predictedClassAt(QPointF(0, 0)), -1);
    QVERIFY(!view.grab().isNull()); // painting the explanation does not crash
}

void TestTrainingView::screenshotsFollowThePalette() {
    TraceIndex ring;
    run_into(four_workers(Algorithm::Ring, 200), ring);
    TraceIndex drift;
    run_into(four_workers(Algorithm::None, 200), drift);

    QFont projector = QApplication::font();
    projector.setPointSize(15);

    TrainingView view;
    view.setFont(projector);
    view.resize(1280, 720);
    view.setTrace(&ring);
    view.setPlayhead(ring.snapshots()[149].time);
    view.setModel(spiralShape_, spiralParameters_, spiral_);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QImage light = settled_grab(view);
    QVERIFY(light.save(screenshot_path(QStringLiteral("training-view-light.png"))));
    // The mean loss line (blue) and the three class shades are on screen.
    QVERIFY(count_near(light, okabe_ito::blue, 10) > 500);
    const QColor background = view.palette().color(QPalette::Window);
    for (int c = 0; c < 3; ++c)
        QVERIFY2(count_near(light, class_tint(c, 1.0, background), 6) > 2000,
                 qPrintable(QStringLiteral("class %1").arg(c)));

    view.setPalette(dark_palette());
    view.setTrace(&drift);
    view.setPlayhead(drift.end_time());
    const QImage dark = settled_grab(view);
    QVERIFY(dark.save(screenshot_path(QStringLiteral("training-view-dark.png"))));
    // Dark background behind the chart, and one line per replica in its own colour.
    int darkPixels = 0;
    for (int y = 0; y < dark.height(); y += 4)
        for (int x = 0; x < dark.width(); x += 4)
            darkPixels += dark.pixelColor(x, y).lightnessF() < 0.3 ? 1 : 0;
    QVERIFY(darkPixels > (dark.width() / 4) * (dark.height() / 4) / 2);
    QCOMPARE(view.seriesCount(), 4);
    QVERIFY(count_near(dark, okabe_ito::orange, 10) > 200);
    QVERIFY(count_near(dark, class_tint(0, 1.0, dark_palette().color(QPalette::Window)), 6) > 2000);
}

// A run whose learning rate is far too large: the engine stops at the first step whose loss is
// no longer a finite number, the chart draws the losses that are numbers (its axis fitted to
// them), and the header and the description name the step and the likely cause.
void TestTrainingView::aDivergedRunSaysSoAndDrawsWhatIsANumber() {
    Scenario s = four_workers(Algorithm::Ring, 60);
    s.model = ModelShape{{2, 16, 1}, Activation::Relu, LossKind::MeanSquaredError};
    s.dataset = DatasetConfig{"regression", "", 480, 0.1, 1};
    s.optimizer = OptimizerConfig{OptimizerKind::Sgd, 100.0, 0.99, 0.9, 0.999, 1e-8};
    TraceIndex index;
    run_into(s, index);
    const auto& snaps = index.snapshots();
    QVERIFY2(snaps.size() < 60, "the run went on after it diverged");
    QVERIFY(!std::isfinite(snaps.back().loss));
    for (std::size_t i = 0; i + 1 < snaps.size(); ++i)
        QVERIFY(std::isfinite(snaps[i].loss)); // it stopped at the first

    TrainingView view;
    view.setTrace(&index);
    view.setPlayhead(index.end_time());
    const QList<QPointF> points = view.lossPoints(0);
    QCOMPARE(points.size(), static_cast<qsizetype>(snaps.size() - 1));
    for (const QPointF& p : points)
        QVERIFY(std::isfinite(p.y()));
    const QString said = view.accessibleDescription();
    LOCKSTEP_VERIFY_CONTAINS(
        said,
        QStringLiteral("training diverged in step %1: the loss became").arg(snaps.back().step));
    LOCKSTEP_VERIFY_CONTAINS(said, QStringLiteral("learning rate is probably too large"));
    // Before the step that diverged, nothing is said of it.
    view.setPlayhead(snaps[snaps.size() - 2].time);
    QVERIFY(!view.accessibleDescription().contains(QStringLiteral("diverged")));
}

// Float16 on the wire with a loss scale of 2^24: the first steps' sums overflow, are skipped and
// halve the scale. Each skipped step is marked on the loss line, at its own step, up to the
// playhead; the header names the scale the step used and the step skipped.
void TestTrainingView::stepsSkippedOnAnOverflowAreMarked() {
    Scenario s = four_workers(Algorithm::Ring, 20);
    s.rule = ReductionRule::Sum;
    s.comm_precision = WirePrecision::Float16;
    s.loss_scale = LossScaleConfig{16777216.0, 1000};
    TraceIndex index;
    run_into(s, index);
    const auto& snaps = index.snapshots();
    std::vector<std::size_t> skipped;
    for (std::size_t k = 0; k < snaps.size(); ++k)
        if (snaps[k].overflow)
            skipped.push_back(k);
    QVERIFY(skipped.size() >= 2);
    QCOMPARE(skipped.front(), std::size_t{0});

    TrainingView view;
    view.setTrace(&index);
    view.setPlayhead(index.end_time());
    const QList<QPointF> marks = view.skippedPoints();
    QCOMPARE(marks.size(), static_cast<qsizetype>(skipped.size()));
    for (qsizetype i = 0; i < marks.size(); ++i) {
        const StepSnapshot& snap = snaps[skipped[static_cast<std::size_t>(i)]];
        QCOMPARE(marks[i], QPointF(static_cast<double>(snap.step), snap.loss));
    }
    QVERIFY2(view.summary().contains(
                 QStringLiteral("%1 steps skipped on an overflow").arg(skipped.size())),
             qPrintable(view.summary()));
    QVERIFY(view.summary().contains(
        QStringLiteral("loss scale %1").arg(snaps.back().loss_scale, 0, 'f', 0)));

    // At the first step: it alone is marked, and the header says why it was skipped.
    view.setPlayhead(snaps[0].time);
    QCOMPARE(view.skippedPoints().size(), qsizetype(1));
    QVERIFY2(view.summary().contains(QStringLiteral("step %1 skipped: its summed gradient "
                                                    "overflowed, the loss scale is halved")
                                         .arg(snaps[0].step)),
             qPrintable(view.summary()));
    QVERIFY(view.summary().contains(QStringLiteral("loss scale 16777216")));

    // Without a loss scale, the same run overflows nowhere and nothing is marked.
    s.loss_scale.reset();
    TraceIndex plain;
    run_into(s, plain);
    view.setTrace(&plain);
    view.setPlayhead(plain.end_time());
    QCOMPARE(view.skippedPoints().size(), qsizetype(0));
    QVERIFY(!view.summary().contains(QStringLiteral("skipped")));
    QVERIFY(!view.summary().contains(QStringLiteral("loss scale")));
}

// On a projector's short view the caption under the map gives way, and a second run's model
// (a link clicked after the end) does not bring it back over the map; tall again, it returns.
void TestTrainingView::aShortViewKeepsTheMapsCaptionHidden() {
    TrainingView view;
    view.resize(900, 240);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto caption = [&]() -> QLabel* {
        for (QLabel* l : view.findChildren<QLabel*>())
            if (l->text().startsWith(QStringLiteral("Shade:")))
                return l;
        return nullptr;
    };
    for (int run = 0; run < 2; ++run) {
        view.setModel(spiralShape_, spiralParameters_, spiral_);
        QVERIFY(caption());
        QVERIFY2(!caption()->isVisible(), qPrintable(QStringLiteral("run %1").arg(run)));
    }
    view.resize(900, 900);
    QTRY_VERIFY(caption()->isVisible());
}

QTEST_MAIN(TestTrainingView)
#include "test_training_view.moc"
