#include "lockstep_views/step_story.h"

#include "trace/event_kinds.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <vector>

namespace lockstep::views {

namespace {

// A duration as said aloud: "8 milliseconds", "1.2 seconds", "300 microseconds".
QString spoken(Ticks ticks) {
    const double s = to_seconds(ticks);
    const QLocale locale;
    if (s >= 1.0)
        return QCoreApplication::translate("StepStory", "%1 seconds")
            .arg(locale.toString(s, 'g', 2));
    if (s >= 1e-3)
        return QCoreApplication::translate("StepStory", "%1 milliseconds")
            .arg(locale.toString(s * 1e3, 'g', 2));
    return QCoreApplication::translate("StepStory", "%1 microseconds")
        .arg(locale.toString(std::max(1.0, std::round(s * 1e6)), 'g', 3));
}

} // namespace

QString list_in_words(const QStringList& items) {
    if (items.isEmpty())
        return {};
    if (items.size() == 1)
        return items.front();
    return QCoreApplication::translate("StepStory", "%1 and %2")
        .arg(items.mid(0, items.size() - 1).join(QStringLiteral(", ")), items.back());
}

QString describe_step(const TraceIndex& index, const StepSnapshot& snapshot) {
    const int n = index.workers();
    if (n <= 0)
        return {};
    std::vector<Ticks> compute(static_cast<std::size_t>(n), 0), wait(compute);
    std::vector<bool> failed(static_cast<std::size_t>(n), false);
    bool any = false;
    for (int k = 0; k < n; ++k) {
        for (const TraceEvent& e : index.lane(k)) {
            if (e.ordinal != snapshot.ordinal)
                continue;
            any = true;
            const Ticks span = e.end - e.start;
            switch (category_of(e.kind)) {
            case EventCategory::Compute:
                compute[static_cast<std::size_t>(k)] += span;
                break;
            case EventCategory::Wait:
                wait[static_cast<std::size_t>(k)] += span;
                break;
            case EventCategory::Failure:
                failed[static_cast<std::size_t>(k)] = true;
                break;
            case EventCategory::Send:
            case EventCategory::Receive:
            case EventCategory::Update:
            case EventCategory::Pause:
            case EventCategory::Checkpoint:
                break;
            }
        }
    }
    if (!any)
        return {};
    QStringList sentences;
    const QString head = QCoreApplication::translate("StepStory", "Step %1.").arg(snapshot.step);

    // A crash first: nothing else of the step matters as much.
    QStringList down;
    for (int k = 0; k < n; ++k)
        if (failed[static_cast<std::size_t>(k)])
            down << QString::number(k);
    if (!down.isEmpty())
        sentences << (down.size() == 1
                          ? QCoreApplication::translate("StepStory", "Worker %1 is down.")
                                .arg(down.front())
                          : QCoreApplication::translate("StepStory", "Workers %1 are down.")
                                .arg(list_in_words(down)));

    // The slowest worker against the typical one (the median of the others).
    int slowest = 0;
    for (int k = 1; k < n; ++k)
        if (compute[static_cast<std::size_t>(k)] > compute[static_cast<std::size_t>(slowest)])
            slowest = k;
    std::vector<Ticks> others;
    for (int k = 0; k < n; ++k)
        if (k != slowest && compute[static_cast<std::size_t>(k)] > 0)
            others.push_back(compute[static_cast<std::size_t>(k)]);
    std::sort(others.begin(), others.end());
    const double typical = others.empty() ? 0.0 : static_cast<double>(others[others.size() / 2]);
    const double ratio =
        typical > 0 ? static_cast<double>(compute[static_cast<std::size_t>(slowest)]) / typical
                    : 1.0;
    QStringList waiting;
    Ticks longest_wait = 0;
    Ticks step_time = 0;
    for (int k = 0; k < n; ++k)
        step_time = std::max(step_time, compute[static_cast<std::size_t>(k)]);
    for (int k = 0; k < n; ++k) {
        const Ticks w = wait[static_cast<std::size_t>(k)];
        // A wait counts when it is a noticeable part of the step (a tenth of the longest compute).
        if (w > 0 && w * 10 >= step_time) {
            waiting << QString::number(k);
            longest_wait = std::max(longest_wait, w);
        }
    }
    const QString waits = waiting.isEmpty() ? QString()
                          : waiting.size() == 1
                              ? QCoreApplication::translate("StepStory", "worker %1 waits %2")
                                    .arg(waiting.front(), spoken(longest_wait))
                              : QCoreApplication::translate("StepStory", "workers %1 wait up to %2")
                                    .arg(list_in_words(waiting), spoken(longest_wait));
    if (n > 1 && ratio >= 1.5) {
        const QString slow =
            QCoreApplication::translate("StepStory", "Worker %1 is %2 times slower")
                .arg(slowest)
                .arg(QLocale().toString(ratio, 'g', 2));
        sentences << (waits.isEmpty()
                          ? slow + QLatin1Char('.')
                          : QCoreApplication::translate("StepStory", "%1; %2.").arg(slow, waits));
    } else if (!waits.isEmpty()) {
        QString w = waits;
        w[0] = w[0].toUpper();
        sentences << w + QLatin1Char('.');
    } else if (down.isEmpty()) {
        sentences << QCoreApplication::translate("StepStory",
                                                 "All %1 workers compute and agree without "
                                                 "waiting.")
                         .arg(n);
    }

    // What the step wrote or read on disk.
    for (const TraceEvent& e : index.storage_events()) {
        if (e.ordinal != snapshot.ordinal)
            continue;
        if (e.kind == EventKind::CheckpointCommit) {
            sentences << QCoreApplication::translate("StepStory", "The checkpoint of step %1 is "
                                                                  "committed.")
                             .arg(e.round);
            break;
        }
        if (e.kind == EventKind::Restore) {
            sentences << QCoreApplication::translate("StepStory", "The workers restore the "
                                                                  "checkpoint of step %1.")
                             .arg(e.round);
            break;
        }
    }
    if (!snapshot.replicas_aligned)
        sentences << QCoreApplication::translate("StepStory", "The replicas now differ.");
    return head + QLatin1Char(' ') + sentences.join(QLatin1Char(' '));
}

} // namespace lockstep::views
