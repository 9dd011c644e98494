#include "trainers/branching.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include <algorithm>
#include <system_error>
#include <utility>

namespace lockstep {

namespace fs = std::filesystem;

namespace {

// Mirrors `from` into `to` (which must not exist) by hard links: files written through a
// temporary name and a rename are never changed in place afterwards, so a link keeps the bytes
// the file had. Where a link cannot be made (another file system), the file is copied.
void link_tree(const fs::path& from, const fs::path& to) {
    const MakingFiles making; // never made again after a signal removed the lab's folder
    fs::create_directories(to);
    for (const auto& entry : fs::recursive_directory_iterator(from)) {
        const fs::path target = to / fs::relative(entry.path(), from);
        if (entry.is_directory()) {
            fs::create_directories(target);
        } else if (entry.is_regular_file()) {
            std::error_code ec;
            fs::create_hard_link(entry.path(), target, ec);
            if (ec)
                fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing);
        }
    }
}

} // namespace

BranchingRun::BranchingRun(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                           TraceSink* sink)
    : base_(scenario)
    , run_(make_run(scenario, std::move(data), sink))
    , sink_(sink)
    , listening_(sink) {}

BranchingRun::~BranchingRun() {
    if (!copies_dir_.empty()) {
        std::error_code ec;
        for (const Copy& c : copies_)
            if (!c.files.empty())
                fs::remove_all(c.files, ec);
    }
}

void BranchingRun::set_checkpoint_directory(const fs::path& dir, const fs::path& copies) {
    run_->set_checkpoint_directory(dir);
    dir_ = dir;
    copies_dir_ = copies;
}

void BranchingRun::set_sink(TraceSink* sink) {
    sink_ = sink;
    listening_ = sink;
    run_->set_sink(sink);
}

void BranchingRun::set_stop_flag(const std::atomic<bool>* stop) {
    stop_ = stop;
    run_->set_stop_flag(stop);
}

void BranchingRun::step() {
    if (finished())
        return;
    // Measured times cannot be replayed, and a replay through checkpoints waits for the disk
    // (every fsync again): those runs keep a copy before every step.
    const std::int64_t every = base_.clock == ClockKind::Measured || !dir_.empty() ? 1 : kEvery;
    if (ordinal() % every == 0 && (copies_.empty() || copies_.back().ordinal < ordinal()))
        keep_copy();
    apply_due();
    run_->step();
}

void BranchingRun::keep_copy() {
    Copy c;
    c.ordinal = ordinal();
    c.run = run_->clone();
    if (!dir_.empty()) {
        c.files = copies_dir_ / ("before-" + std::to_string(c.ordinal));
        std::error_code ec;
        fs::remove_all(c.files, ec); // a copy of an old future's, let go with it
        link_tree(dir_, c.files);
    }
    copies_.push_back(std::move(c));
    if (copies_.size() > kMaxCopies) {
        // Thin the older half (the very first copy, the run's start, always stays): recent
        // steps stay quick to branch at, old ones take a longer replay.
        const std::size_t half = copies_.size() / 2;
        for (std::size_t i = half; i >= 2; i -= 2)
            drop_copy(i - 1);
    }
}

void BranchingRun::drop_copy(std::size_t index) {
    if (!copies_[index].files.empty()) {
        std::error_code ec;
        fs::remove_all(copies_[index].files, ec);
    }
    copies_.erase(copies_.begin() + static_cast<std::ptrdiff_t>(index));
}

void BranchingRun::restore_files(const Copy& copy) {
    if (dir_.empty())
        return;
    // The directory is the run's own: everything in it was written by this run.
    for (const auto& entry : fs::directory_iterator(dir_))
        fs::remove_all(entry.path());
    if (!copy.files.empty())
        for (const auto& entry : fs::directory_iterator(copy.files)) {
            const fs::path target = dir_ / entry.path().filename();
            if (entry.is_directory())
                link_tree(entry.path(), target);
            else if (entry.is_regular_file())
                fs::create_hard_link(entry.path(), target);
        }
}

void BranchingRun::apply_due() {
    std::erase_if(interventions_, [&](Intervention& i) {
        if (i.at != run_->ordinal())
            return false;
        try {
            if (i.kind == Intervention::Kind::Retune &&
                changes_trainer(run_->scenario(), i.scenario)) {
                // Another way of agreeing: another trainer goes on from where this one stands.
                run_ = continue_run(*run_, i.scenario, listening_);
                run_->set_stop_flag(stop_);
                i.step = run_->steps_done();
            } else {
                fault_kind(i.kind).apply(*run_, i); // failures/fault_<id>.cpp
                i.step = run_->steps_done();
            }
            return false;
        } catch (const Error& e) {
            notices_.push_back(e.what());
            return true; // it would be refused again on every replay
        }
    });
}

std::int64_t BranchingRun::branch(Intervention change) {
    if (change.kind == Intervention::Kind::Retune) {
        if (const auto field = fixed_for_the_run(base_, change.scenario))
            throw Error(*field + ": cannot change while the run goes on; start it again");
        validate(change.scenario);
    } else if (change.worker < 0 || change.worker >= run_->lanes()) {
        throw Error("there is no worker " + std::to_string(change.worker));
    }
    const std::int64_t at = std::clamp<std::int64_t>(change.at, 0, ordinal());
    change.at = at;
    change.step = -1;
    std::vector<Intervention> next;
    for (const Intervention& i : interventions_)
        if (i.at <= at)
            next.push_back(i);
    next.push_back(std::move(change));
    history_.push_back({interventions_, at});
    return go_to(at, std::move(next));
}

std::int64_t BranchingRun::retrace(std::int64_t at) {
    at = std::clamp<std::int64_t>(at, 0, ordinal());
    history_.push_back({interventions_, at});
    // Back to a copy at or before `at`, replayed with the same interventions: the same run.
    return go_to(at, interventions_);
}

namespace {

bool same_intervention(const Intervention& a, const Intervention& b) {
    return a.kind == b.kind && a.at == b.at && a.worker == b.worker && a.amount == b.amount &&
           a.phase == b.phase &&
           (a.kind != Intervention::Kind::Retune ||
            scenario_to_json(a.scenario) == scenario_to_json(b.scenario));
}

} // namespace

std::int64_t BranchingRun::restore(std::vector<Intervention> interventions) {
    std::size_t same = 0;
    while (same < interventions.size() && same < interventions_.size() &&
           same_intervention(interventions[same], interventions_[same]))
        ++same;
    std::int64_t at = ordinal();
    for (std::size_t i = same; i < interventions.size(); ++i)
        at = std::min(at, interventions[i].at);
    for (std::size_t i = same; i < interventions_.size(); ++i)
        at = std::min(at, interventions_[i].at);
    at = std::clamp<std::int64_t>(at, 0, ordinal());
    if (same == interventions.size() && same == interventions_.size())
        return ordinal(); // the run already is this one
    history_.push_back({interventions_, at});
    return go_to(at, std::move(interventions));
}

std::optional<std::int64_t> BranchingRun::undo() {
    if (history_.empty())
        return std::nullopt;
    Undo last = std::move(history_.back());
    history_.pop_back();
    return go_to(last.at, std::move(last.interventions));
}

std::int64_t BranchingRun::go_to(std::int64_t at, std::vector<Intervention> interventions) {
    interventions_ = std::move(interventions);
    for (Intervention& i : interventions_)
        if (i.at >= at)
            i.step = -1;
    if (at >= ordinal())
        return at; // nothing of it has run yet
    // Copies from the old future are of no use to any branch from here.
    while (!copies_.empty() && copies_.back().ordinal > at)
        drop_copy(copies_.size() - 1);
    const Copy& from = copies_.back(); // the run's start is always kept
    run_ = from.run->clone();
    run_->set_stop_flag(stop_);
    run_->resume_measured_clock();
    restore_files(from);
    // On the modelled clock the replay gives the trace already seen: mute it. Measured times
    // cannot be replayed, so there the replayed steps are traced anew.
    const bool measured = base_.clock == ClockKind::Measured;
    const std::int64_t replaced = measured ? from.ordinal : at;
    listening_ = measured ? sink_ : nullptr;
    run_->set_sink(listening_);
    while (ordinal() < at && !finished())
        step();
    listening_ = sink_;
    run_->set_sink(sink_);
    return replaced;
}

std::vector<FailureSpec> BranchingRun::injected_failures() const {
    std::vector<FailureSpec> out;
    for (const Intervention& i : interventions_) {
        if (i.step < 0 || (i.kind != Intervention::Kind::Crash &&
                           i.kind != Intervention::Kind::CrashInCheckpoint))
            continue;
        FailureSpec f;
        f.kind = FailureKind::Crash;
        f.worker = i.worker;
        f.phase = i.kind == Intervention::Kind::Crash ? i.phase : CrashPhase::CheckpointBeforeFsync;
        f.step = is_checkpoint_phase(f.phase) ? i.step + 1 : i.step;
        out.push_back(f);
    }
    return out;
}

std::vector<std::string> BranchingRun::take_notices() {
    return std::exchange(notices_, {});
}

} // namespace lockstep
