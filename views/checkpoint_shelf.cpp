#include "lockstep_views/checkpoint_shelf.h"

#include "lockstep_views/names.h"
#include "lockstep_views/palette.h"

#include <QCoreApplication>

#include <algorithm>

namespace lockstep::views {

namespace {

// One attempt at saving a checkpoint: what the trace said about each lane's file.
struct FileTrack {
    bool written = false;
    Ticks write_start = 0;
    Ticks write_end = 0;
    std::int64_t bytes = 0;
    Ticks synced_at = -1;  // the end of the phase the trace states made it Synced
    Ticks renamed_at = -1; // ... and Renamed (put in place, its directory synced)
    Ticks damaged_at = -1;
    int damage = -1;
};

// One attempt at saving a checkpoint: the phases of one executed step (`ordinal`) that name it.
struct Attempt {
    std::int64_t step = 0;
    int ordinal = 0;
    Ticks started = 0;
    std::vector<FileTrack> files;
    std::vector<bool> members; // lanes expected to write a file
    Ticks commit_start = -1;
    Ticks commit_end = -1;
    Ticks failed_at = -1; // the end of the phase its worker crashed in or after (the trace's
                          // PhaseOutcome::Crashed): from then on the attempt is partial
    int crashed = -1;

    bool failed_by(Ticks t) const { return failed_at >= 0 && failed_at <= t; }
};

FileState file_state(const Attempt& a, int lane, Ticks t, double& progress) {
    const FileTrack& f = a.files[static_cast<std::size_t>(lane)];
    progress = 0.0;
    if (!f.written)
        return a.failed_by(t) && a.members[static_cast<std::size_t>(lane)] ? FileState::Missing
                                                                           : FileState::Absent;
    progress = f.write_end > f.write_start
                   ? std::clamp(static_cast<double>(t - f.write_start) /
                                    static_cast<double>(f.write_end - f.write_start),
                                0.0, 1.0)
                   : 1.0;
    if (f.damaged_at >= 0 && f.damaged_at <= t)
        return FileState::Corrupt;
    if (a.failed_by(t) && lane == a.crashed)
        return FileState::Partial;
    if (a.failed_at < 0 && a.commit_end >= 0 && a.commit_end <= t)
        return FileState::Committed;
    if (f.renamed_at >= 0 && f.renamed_at <= t)
        return FileState::Renamed;
    if (f.synced_at >= 0 && f.synced_at <= t)
        return FileState::Synced;
    return FileState::Writing;
}

} // namespace

CheckpointShelf checkpoint_shelf(std::span<const TraceEvent> events, int workers, Ticks t,
                                 int newest) {
    const auto lanes = static_cast<std::size_t>(std::max(workers, 0));
    std::vector<Attempt> attempts;
    std::vector<bool> last_members(lanes, true);
    auto current = [&](std::int64_t step) -> Attempt* {
        for (auto it = attempts.rbegin(); it != attempts.rend(); ++it)
            if (it->step == step)
                return &*it;
        return nullptr;
    };
    auto in_lane = [&](const TraceEvent& e) {
        return e.worker >= 0 && static_cast<std::size_t>(e.worker) < lanes;
    };
    for (const TraceEvent& e : events) {
        if (e.start > t)
            break;
        if (!in_lane(e))
            continue;
        const auto lane = static_cast<std::size_t>(e.worker);
        Attempt* a = e.round >= 0 ? current(e.round) : nullptr;
        switch (e.kind) {
        case EventKind::CheckpointWrite:
            // A write in another executed step than the attempt's: the checkpoint is being
            // written again (after a rollback).
            if (!a || a->ordinal != e.ordinal) {
                if (!attempts.empty())
                    for (std::size_t k = 0; k < lanes; ++k)
                        last_members[k] =
                            attempts.back().files[k].written ||
                            (attempts.back().failed_at >= 0 && attempts.back().members[k]);
                attempts.push_back({e.round, e.ordinal, e.start, std::vector<FileTrack>(lanes),
                                    last_members, -1, -1, -1, -1});
                a = &attempts.back();
            }
            a->files[lane].written = true;
            a->files[lane].write_start = e.start;
            a->files[lane].write_end = e.end;
            a->files[lane].bytes = e.bytes;
            break;
        case EventKind::CheckpointSync:
            // The phase states the stage it completes; a later phase of the same stage (the
            // directory's fsync after the rename) keeps the file where it is.
            if (a && e.file == FileStage::Synced && a->files[lane].synced_at < 0)
                a->files[lane].synced_at = e.end;
            else if (a && e.file == FileStage::Renamed && a->files[lane].renamed_at < 0)
                a->files[lane].renamed_at = e.end;
            break;
        case EventKind::CheckpointCommit:
            if (a && a->failed_at < 0) {
                a->commit_start =
                    a->commit_start < 0 ? e.start : std::min(a->commit_start, e.start);
                a->commit_end = std::max(a->commit_end, e.end);
            }
            break;
        case EventKind::Damage:
            if (a) {
                a->files[lane].damaged_at = e.start;
                a->files[lane].damage = static_cast<int>(e.damage);
            }
            break;
        default:
            break;
        }
        // A crash in or right after a phase leaves its attempt partial from the phase's end.
        if (a && e.outcome == PhaseOutcome::Crashed && a->failed_at < 0) {
            a->failed_at = e.end;
            a->crashed = e.worker;
        }
    }

    // Only the newest attempt of each step is on disk.
    std::vector<const Attempt*> shown;
    for (const Attempt& a : attempts)
        if (current(a.step) == &a)
            shown.push_back(&a);
    CheckpointShelf shelf;
    const auto keep = static_cast<std::size_t>(std::max(newest, 0));
    const std::size_t from = shown.size() > keep ? shown.size() - keep : 0;
    shelf.older = static_cast<int>(from);
    for (std::size_t i = from; i < shown.size(); ++i) {
        const Attempt& a = *shown[i];
        ShelfCheckpoint c;
        c.step = a.step;
        c.started = a.started;
        bool corrupt = false;
        for (std::size_t k = 0; k < lanes; ++k) {
            ShelfFile f;
            f.worker = static_cast<int>(k);
            f.state = file_state(a, f.worker, t, f.progress);
            f.bytes = static_cast<std::int64_t>(f.progress * static_cast<double>(a.files[k].bytes));
            if (f.state == FileState::Corrupt) {
                f.damage = a.files[k].damage;
                corrupt = true;
            }
            c.files.push_back(f);
        }
        if (a.failed_by(t))
            c.manifest = ManifestState::Missing;
        else if (a.commit_end >= 0 && a.commit_end <= t)
            c.manifest = ManifestState::Committed;
        else if (a.commit_start >= 0)
            c.manifest = ManifestState::Writing;
        c.status = corrupt                                  ? ShelfStatus::Corrupt
                   : a.failed_by(t)                         ? ShelfStatus::Partial
                   : c.manifest == ManifestState::Committed ? ShelfStatus::Committed
                                                            : ShelfStatus::Saving;
        shelf.checkpoints.push_back(std::move(c));
    }
    return shelf;
}

RestoreWalk restore_walk(std::span<const TraceEvent> events, Ticks t) {
    RestoreWalk walk;
    // The latest crash up to t starts the walk.
    // (The trace marks where a crash begins; a lane gone for good is drawn failed each step.)
    const TraceEvent* crash = nullptr;
    for (const TraceEvent& e : events) {
        if (e.start > t)
            break;
        if (e.kind == EventKind::Failed && e.crash_begins)
            crash = &e;
    }
    if (!crash)
        return walk;
    walk.phase = RestorePhase::Down;
    walk.crashed = crash->worker;
    walk.crashed_at = crash->start;
    Ticks restore_end = -1;
    for (const TraceEvent* e = crash + 1; e < events.data() + events.size() && e->start <= t; ++e) {
        switch (e->kind) {
        case EventKind::Detect:
            if (walk.phase == RestorePhase::Down)
                walk.phase = RestorePhase::Detected;
            break;
        case EventKind::Verify: {
            walk.phase = RestorePhase::Scanning;
            walk.scan_at = e->start;
            ScanVerdict v;
            v.step = e->round;
            v.status = e->verdict;
            v.fault = e->fault;
            if (v.status == CheckpointStatus::Complete && v.fault == CheckpointFault::None)
                walk.chosen = v.step; // complete but another run's, or not fitting: skipped
            walk.verdicts.push_back(v);
            break;
        }
        case EventKind::Restore: {
            walk.bytes_total += e->bytes;
            const double share = e->end > e->start
                                     ? std::clamp(static_cast<double>(t - e->start) /
                                                      static_cast<double>(e->end - e->start),
                                                  0.0, 1.0)
                                     : 1.0;
            walk.bytes_read += static_cast<std::int64_t>(share * static_cast<double>(e->bytes));
            restore_end = std::max(restore_end, e->end);
            break;
        }
        default:
            break;
        }
    }
    if (restore_end >= 0) {
        walk.resumed_at = restore_end;
        walk.phase = t >= restore_end ? RestorePhase::Resumed : RestorePhase::Loading;
        if (walk.phase == RestorePhase::Resumed)
            walk.bytes_read = walk.bytes_total;
        walk.progress = walk.bytes_total > 0 ? static_cast<double>(walk.bytes_read) /
                                                   static_cast<double>(walk.bytes_total)
                                             : 1.0;
    }
    return walk;
}

StorageStyle style_for(FileState state) {
    using namespace okabe_ito;
    switch (state) {
    case FileState::Writing:
        return {yellow, QCoreApplication::translate("CheckpointShelf", "writing"), Qt::HorPattern};
    case FileState::Synced:
        return {sky_blue, QCoreApplication::translate("CheckpointShelf", "synced"),
                Qt::Dense6Pattern};
    case FileState::Renamed:
        return {blue, QCoreApplication::translate("CheckpointShelf", "renamed"), Qt::SolidPattern};
    case FileState::Committed:
        return {bluish_green, QCoreApplication::translate("CheckpointShelf", "committed"),
                Qt::SolidPattern};
    case FileState::Partial:
        return {orange, QCoreApplication::translate("CheckpointShelf", "partial"),
                Qt::BDiagPattern};
    case FileState::Corrupt:
        return {vermillion, QCoreApplication::translate("CheckpointShelf", "corrupt"),
                Qt::DiagCrossPattern};
    case FileState::Missing:
        return {grey, QCoreApplication::translate("CheckpointShelf", "missing"), Qt::NoBrush};
    case FileState::Absent:
        break;
    }
    return {grey, QString(), Qt::NoBrush};
}

StorageStyle style_for(ManifestState state) {
    switch (state) {
    case ManifestState::Pending:
        return {okabe_ito::grey, QCoreApplication::translate("CheckpointShelf", "not yet"),
                Qt::NoBrush};
    case ManifestState::Writing:
        return {style_for(FileState::Writing).colour,
                QCoreApplication::translate("CheckpointShelf", "writing"), Qt::HorPattern};
    case ManifestState::Committed:
        return {style_for(FileState::Committed).colour,
                QCoreApplication::translate("CheckpointShelf", "committed"), Qt::SolidPattern};
    case ManifestState::Missing:
        return {okabe_ito::grey, QCoreApplication::translate("CheckpointShelf", "missing"),
                Qt::NoBrush};
    }
    return {okabe_ito::grey, QString(), Qt::NoBrush};
}

QString checkpoint_directory(std::int64_t step) {
    return QString::fromStdString(checkpoint_directory_name(step));
}

QString verdict_text(const ScanVerdict& verdict) {
    const QString status = status_name(verdict.status);
    if (verdict.fault == CheckpointFault::None)
        return status;
    return QCoreApplication::translate("CheckpointShelf", "%1: %2")
        .arg(status, fault_name(verdict.fault));
}

} // namespace lockstep::views
