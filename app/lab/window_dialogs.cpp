// The dialogs the window's menus open: File's (open, save, export a view, the metrics or the
// trace) and Class's (a class quiz and its projector window).

#include "main_window.h"

#include "class/class_window.h"
#include "controls_panel.h"
#include "lesson_pane.h"

#include "core/error.h"
#include "trace/chrome_trace.h"
#include "trace/trace.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QSvgGenerator>

namespace lockstep::app {

bool MainWindow::exportView(QWidget* v, const QString& path, QString* error) const {
    if (!v)
        return false;
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(v->size());
        svg.setViewBox(QRect(QPoint(0, 0), v->size()));
        svg.setTitle(v->accessibleName());
        QPainter painter;
        if (!painter.begin(&svg)) {
            if (error)
                *error = tr("cannot write %1").arg(path);
            return false;
        }
        v->render(&painter);
        painter.end();
        return true;
    }
    const bool ok = v->grab().save(path);
    if (!ok && error)
        *error = tr("cannot write %1").arg(path);
    return ok;
}

void MainWindow::openScenarioDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), QString(),
                                                      tr("Scenarios (*.json)"));
    if (!path.isEmpty() && openScenario(path)) // checked and its data read (window_session.cpp)
        session_.run(session_.scenario());
}

void MainWindow::openRecordingDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Recorded Run"), QString(),
                                                      tr("Traces of runs over processes (*.json)"));
    if (!path.isEmpty())
        openRecording(path);
}

void MainWindow::saveScenarioDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Scenario"), session_.scenarioPath(), tr("Scenarios (*.json)"));
    if (path.isEmpty())
        return;
    Scenario s;
    try {
        s = controls_->scenario();
    } catch (const Error& e) {
        QMessageBox::warning(this, tr("Cannot save"), QString::fromStdString(e.what()));
        return;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(QByteArray::fromStdString(scenario_to_json(s))) < 0) {
        QMessageBox::warning(this, tr("Cannot save"), tr("Cannot write %1").arg(path));
        return;
    }
    session_.setScenarioPath(path);
    showStatus(tr("Saved %1").arg(path));
}

void MainWindow::exportViewDialog(const QString& format) {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export View"), QString(),
        format == QLatin1String("svg") ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
    QString error;
    if (!path.isEmpty() && !exportView(currentView(), path, &error))
        QMessageBox::warning(this, tr("Cannot export"), error);
}

void MainWindow::exportMetricsDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Metrics"), QString(), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(QByteArray::fromStdString(to_metrics_csv(session_.traceIndex().snapshots()))) <
            0)
        QMessageBox::warning(this, tr("Cannot export"), tr("Cannot write %1").arg(path));
}

void MainWindow::exportTraceDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Trace"), QString(),
                                                      tr("Chrome trace (*.json)"));
    if (path.isEmpty())
        return;
    const views::TraceIndex& index = session_.traceIndex();
    try { // streamed to the file, never built whole in memory
        write_chrome_trace(path.toStdString(), index.events(), index.workers(),
                           session_.scenario().name);
    } catch (const Error&) {
        QMessageBox::warning(this, tr("Cannot export"), tr("Cannot write %1").arg(path));
    }
}

ClassWindow* MainWindow::classWindow() const {
    return class_window_.data();
}

void MainWindow::startClassQuizDialog() {
    if (class_window_) {
        class_window_->show();
        class_window_->raise();
        class_window_->activateWindow();
        return;
    }
    ClassQuizDialog dialog(lesson_pane_->library(), this);
    if (dialog.exec() != QDialog::Accepted || !dialog.bank())
        return;
    if (ClassWindow* w = startClassQuiz(dialog.bank()->id, dialog.questions(), dialog.port(),
                                        dialog.addresses()))
        w->show();
}

void MainWindow::resumeClassQuizDialog() {
    if (class_window_) {
        startClassQuizDialog(); // one quiz at a time: show it
        return;
    }
    const QString folder =
        QFileInfo(classroom::AnswerJournal::default_path(QStringLiteral("quiz"))).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Resume a Class Quiz"), folder,
                                                      tr("Class quiz journals (*.journal)"));
    if (!path.isEmpty())
        if (ClassWindow* w = resumeClassQuiz(path))
            w->show();
}

ClassWindow* MainWindow::resumeClassQuiz(const QString& journal, quint16 port,
                                         QList<QHostAddress> addresses) {
    if (class_window_)
        return class_window_;
    return adoptClassWindow([&] {
        return ClassWindow::resume(lesson_pane_->library(), journal, port, std::move(addresses),
                                   this);
    });
}

ClassWindow* MainWindow::startClassQuiz(const QString& bank, std::vector<int> questions,
                                        quint16 port, QList<QHostAddress> addresses) {
    if (class_window_)
        return class_window_;
    return adoptClassWindow([&] {
        return new ClassWindow(lesson_pane_->library().load_bank_named(bank), std::move(questions),
                               port, std::move(addresses), {}, this);
    });
}

ClassWindow* MainWindow::adoptClassWindow(const std::function<ClassWindow*()>& make) {
    try {
        ClassWindow* w = make();
        w->setAttribute(Qt::WA_DeleteOnClose);
        connect(w, &ClassWindow::replayRequested, this, [this](const QString& link) {
            try {
                applyLessonAction(lessons::parse_action(link));
                raise();
                activateWindow();
            } catch (const Error& e) {
                showStatus(tr("The question's run cannot be replayed: %1")
                               .arg(QString::fromStdString(e.what())));
            }
        });
        class_window_ = w;
        return w;
    } catch (const Error& e) {
        QMessageBox::warning(
            this, tr("Class Quiz"),
            tr("The class quiz could not start: %1").arg(QString::fromStdString(e.what())));
        return nullptr;
    }
}

} // namespace lockstep::app
