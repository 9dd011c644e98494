#pragma once

#include "data/data.h"
#include "failures/failure.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockstep {

// A run (any trainer) that can be branched at any step it has executed, so that an intervention
// takes effect where the class is looking, however far the engine has run ahead.
//
// Every few steps it keeps a copy of the whole trainer (what a checkpoint holds and more: clocks,
// faults to come, accounts) and, for a run that checkpoints, hard links to every file its
// checkpoint directory then held. A branch at executed step B goes back to the newest copy at or
// before B, replays to B with the trace muted (the same scenario, seed and interventions give
// the same bits), applies the change there and goes on: the trace of steps before B is the one
// already seen, bit for bit, and everything from B on is new. undo() is a branch back to the
// run as it was. On the measured clock, replayed times would differ from the ones seen, so the
// replayed steps are traced again (copies are kept every step there, so that is rarely any).
//
// Not thread-safe: one thread at a time calls it.
class BranchingRun {
public:
    // Throws lockstep::Error like make_run() when the scenario does not fit the data.
    BranchingRun(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                 TraceSink* sink = nullptr);
    ~BranchingRun();
    BranchingRun(const BranchingRun&) = delete;
    BranchingRun& operator=(const BranchingRun&) = delete;

    // Saves checkpoints into `dir`, an empty directory the run owns from now on; the links that
    // let a branch put that directory back as it was go into `copies`, another.
    void set_checkpoint_directory(const std::filesystem::path& dir,
                                  const std::filesystem::path& copies);
    void set_sink(TraceSink* sink);
    void set_stop_flag(const std::atomic<bool>* stop);

    // The next step, after the interventions due before it.
    void step();
    bool finished() const { return run_->finished(); }
    std::int64_t ordinal() const { return run_->ordinal(); }
    const Run& run() const { return *run_; }
    const Scenario& scenario() const { return base_; }

    // The interventions of this branch, in the order they were made.
    const std::vector<Intervention>& interventions() const { return interventions_; }
    // The crashes among them that have struck, as the scenario's failures would say them.
    std::vector<FailureSpec> injected_failures() const;

    // Branches at `change.at` (at most ordinal(); clamped there): the interventions before it
    // stay, those after it (the old future's) go, `change` is added. Returns the first executed
    // step whose trace is replaced. Throws lockstep::Error, changing nothing, for a Retune that
    // asks for what only a new run can do (naming the field), or a lane that does not exist.
    std::int64_t branch(Intervention change);
    // A branch at `at` without a change: the same run, traced again from there, and a branch for
    // undo() to take back like any other (what a caller does with a change branch() refused,
    // when it has already let go of the trace from `at`). Returns like branch().
    std::int64_t retrace(std::int64_t at);
    // Back to the run as it was before the last branch; returns the first executed step whose
    // trace is replaced, or nothing when there is no branch to undo.
    std::optional<std::int64_t> undo();
    bool can_undo() const { return !history_.empty(); }
    // The run with exactly `interventions` (each at its own executed step, as interventions()
    // gave them): what an undo or redo of a whole session goes back to. Goes back to the first
    // step where they and the current ones part, replays to it and goes on; an intervention due
    // later than the head is applied when the run gets there. Returns like branch(), or ordinal()
    // when nothing differs. A branch for undo() like any other.
    std::int64_t restore(std::vector<Intervention> interventions);

    // What could not be applied since the last call (an intervention the trainer refused, with
    // its reason), for the status bar.
    std::vector<std::string> take_notices();

    // Copies are taken every kEvery steps (every step on the measured clock and in a run that
    // checkpoints); past kMaxCopies,
    // every other one in the older half is let go, so memory stays bounded in a long run.
    static constexpr std::int64_t kEvery = 8;
    static constexpr std::size_t kMaxCopies = 48;
    std::size_t copies() const { return copies_.size(); }

private:
    // The run as it stood before executed step `ordinal`, before that step's interventions.
    struct Copy {
        std::int64_t ordinal = 0;
        std::unique_ptr<Run> run;
        std::filesystem::path files; // links to the checkpoint directory's files; empty: none
    };
    std::int64_t go_to(std::int64_t at, std::vector<Intervention> interventions);
    void apply_due();
    void keep_copy();
    void drop_copy(std::size_t index);
    void restore_files(const Copy& copy);

    Scenario base_; // as the run started
    std::unique_ptr<Run> run_;
    TraceSink* sink_ = nullptr;
    TraceSink* listening_ = nullptr; // the run's sink now: sink_, or nothing during a replay
    const std::atomic<bool>* stop_ = nullptr;
    std::filesystem::path dir_, copies_dir_;
    std::vector<Copy> copies_; // by ordinal
    std::vector<Intervention> interventions_;
    struct Undo {
        std::vector<Intervention> interventions; // of the branch before
        std::int64_t at = 0;                     // where that branch was made
    };
    std::vector<Undo> history_;
    std::vector<std::string> notices_;
};

} // namespace lockstep
