#include "lockstep_views/recovery_caption.h"

#include "lockstep_views/numbers.h"

#include <QCoreApplication>

namespace lockstep::views {

namespace {

QString at_time(Ticks t) {
    return display_number(to_seconds(t), 'f', 3);
}

} // namespace

QString recovery_caption(const TraceIndex& index, Ticks t) {
    // The latest crash that has happened by `t`, the heartbeat's verdict on it, its restore.
    const TraceEvent* failed = nullptr;
    const TraceEvent* detect = nullptr;
    const TraceEvent* restore = nullptr;
    const TraceEvent* next_detect = nullptr; // the verdict still to come
    for (const TraceEvent& e : index.storage_events()) {
        if (e.start > t) {
            if (failed && !detect && !next_detect && e.kind == EventKind::Detect &&
                e.peer == failed->worker)
                next_detect = &e;
            continue;
        }
        if (e.kind == EventKind::Failed && e.crash_begins) {
            failed = &e;
            detect = restore = nullptr;
        } else if (e.kind == EventKind::Detect && failed && e.peer == failed->worker) {
            detect = &e;
        } else if (e.kind == EventKind::Restore && detect && !restore) {
            restore = &e;
        }
    }
    if (!failed)
        return {};
    const int worker = failed->worker;
    const std::int64_t stopped = failed->step;
    if (!detect) {
        if (t >= failed->end)
            return {};
        return next_detect
                   ? QCoreApplication::translate(
                         "RecoveryCaption",
                         "Worker %1 stopped in step %2. The others cannot tell yet: they wait for "
                         "its heartbeat, which times out at t = %3 s.")
                         .arg(worker)
                         .arg(stopped)
                         .arg(at_time(next_detect->start))
                   : QCoreApplication::translate("RecoveryCaption",
                                                 "Worker %1 stopped in step %2. The others "
                                                 "cannot tell yet: they wait for its heartbeat.")
                         .arg(worker)
                         .arg(stopped);
    }
    // After the verdict: the steps that come next say how the run recovered.
    const auto after = index.start_of(index.ordinal_starting_from(detect->start));
    const auto now = index.step_at(t);
    if (after && after->step > stopped)
        // Nothing rolled back (the others go on without it): said only until the next step.
        return now && now->step > stopped
                   ? QString()
                   : QCoreApplication::translate("RecoveryCaption",
                                                 "Worker %1's heartbeat timed out at t = %2 s: it "
                                                 "is declared dead, and the others go on "
                                                 "without it.")
                         .arg(worker)
                         .arg(at_time(detect->start));
    if (now && now->start > detect->start && now->step > stopped)
        return {}; // the lost steps are done again: the recovery is over
    // The checkpoint of step R holds the run before step R: steps R to the one that stopped are
    // done again.
    const std::int64_t redone = restore ? stopped - restore->round + 1 : stopped + 1;
    const QString work =
        redone == 1
            ? QCoreApplication::translate("RecoveryCaption", "1 step of work is done again")
            : QCoreApplication::translate("RecoveryCaption", "%1 steps of work are done again")
                  .arg(redone);
    if (restore)
        return QCoreApplication::translate(
                   "RecoveryCaption",
                   "Worker %1's heartbeat timed out at t = %2 s: it is declared dead. One scan of "
                   "the checkpoint folder finds the newest complete checkpoint (every file and its "
                   "manifest written), the checkpoint of step %3; every worker loads that same one "
                   "and they do steps %3 to %4 again: %5.")
            .arg(worker)
            .arg(at_time(detect->start))
            .arg(restore->round)
            .arg(stopped)
            .arg(work);
    return QCoreApplication::translate(
               "RecoveryCaption",
               "Worker %1's heartbeat timed out at t = %2 s: it is declared dead. There is no "
               "checkpoint to load, so the run starts over from step 0: %3.")
        .arg(worker)
        .arg(at_time(detect->start))
        .arg(work);
}

} // namespace lockstep::views
