#pragma once

// The one vocabulary of what a teacher does to a run while the class watches it: each kind of
// change with its name, its words, its default and what it does, for the engine, the lab's menu
// and status bar, the lesson links and the command line alike. A kind lives in its own file
// (fault_<id>.cpp): adding one is that file and a line in LOCKSTEP_FAULT_KINDS below.

#include "failures/failure.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace lockstep {

// Every kind of change, in the worker menu's order: its name in Intervention::Kind, and the
// FaultKind object its fault_<id>.cpp defines. The one list of them, for the enum and for
// fault_kinds() alike.
//   Slow               lane `worker` computes `amount` times slower from here on
//   FullSpeed          lane `worker` computes at its normal pace again, its link too
//   SlowLink           lane `worker`'s messages travel `amount` times slower from here on
//   Pause              lane `worker` stalls `amount` seconds at the start of this step
//   Crash              lane `worker` dies in this step, in `phase`
//   CrashInCheckpoint  lane `worker` dies while writing the next checkpoint
//   Retune             the mid-run settings of `scenario` apply from this step on
//   Broadcast          before this step every replica takes lane `worker`'s parameters and
//                      optimizer state (data parallelism, from its first worker)
//   BucketOrder        lane `worker` reduces its gradient buckets out of order this step
// clang-format off
#define LOCKSTEP_FAULT_KINDS(X)                     \
    X(Slow, fault_slow)                             \
    X(FullSpeed, fault_full_speed)                  \
    X(SlowLink, fault_slow_link)                    \
    X(Pause, fault_pause)                           \
    X(Crash, fault_crash)                           \
    X(CrashInCheckpoint, fault_crash_in_checkpoint) \
    X(Retune, fault_retune)                         \
    X(Broadcast, fault_broadcast)                   \
    X(BucketOrder, fault_bucket_order)
// clang-format on

// A change in force from one executed step (TraceEvent::ordinal) on.
struct Intervention {
#define LOCKSTEP_KIND_NAME(name, object) name,
    enum class Kind { LOCKSTEP_FAULT_KINDS(LOCKSTEP_KIND_NAME) };
#undef LOCKSTEP_KIND_NAME
    Kind kind = Kind::Slow;
    std::int64_t at = 0;                    // the executed step it takes effect before
    int worker = 0;                         // a trace lane
    double amount = 0.0;                    // 0: the kind's default
    CrashPhase phase = CrashPhase::Compute; // Crash: a checkpoint phase means the next checkpoint
    Scenario scenario;                      // Retune only
    std::int64_t step = -1;                 // the training step it met, once applied
};

// What a run offers the changes above: each call throws lockstep::Error naming why this run
// cannot take it. `lane` is a trace lane: the worker it was when the run began.
class FaultTarget {
public:
    virtual ~FaultTarget() = default;
    virtual const Scenario& scenario() const = 0;
    virtual std::int64_t steps_done() const = 0;
    // The run's mean step so far, in seconds on its clock (0 before its first step).
    virtual double mean_step_seconds() const = 0;
    virtual void slow_down_lane(int lane, double factor) = 0;
    virtual void pause_lane(int lane, double seconds) = 0;    // at the start of the next step
    virtual void inject_failure(const FailureSpec& spec) = 0; // spec.worker: a lane
    virtual void retune(const Scenario& to) = 0;
    virtual void broadcast_from_lane(int lane) = 0;
};

// Why a run cannot take a change, for the lab to show in its own language: `text` is marked
// for translation in the context "Fault" and may hold %1, filled with `arg`.
struct Refusal {
    const char* text = nullptr;
    std::string arg;
    explicit operator bool() const { return text != nullptr; }
};

// One kind of change. Its id names it everywhere: the worker menu, a lesson's links
// (lockstep:<id>?worker=N) and, for the kinds a run can also schedule, a scenario file's
// failures (crash, pause, slow-link) and lockstep-cli run --fail (those and bucket-order).
struct FaultKind {
    Intervention::Kind kind = Intervention::Kind::Slow;
    std::string_view id;          // "slow", "slow-link": lower case, words joined by '-'
    const char* menu_text;        // the worker menu's words ("Fault"); nullptr: not on it
    const char* done_text;        // what the status bar says once done, %1 the worker
    double default_amount = 0.0;  // what `amount` 0 means
    bool amount_in_steps = false; // the default counts the run's own steps (a pause)
    // Why a run of `scenario` cannot take `change`, beyond what every kind checks (a run to
    // change, a worker that is there); nothing when it can.
    Refusal (*refusal)(const Scenario& scenario, const Intervention& change) = nullptr;
    // What it does to `run` before the next step (throws as FaultTarget's calls do): what a
    // run calls, through fault_kind(change.kind).
    void (*apply)(FaultTarget& run, const Intervention& change) = nullptr;
    // A change to the whole run (its settings, every replica), not to one worker.
    bool whole_run = false;
    // What it changes in the scenario the lab's Controls show (nullptr: nothing there).
    void (*in_scenario)(Scenario& scenario, const Intervention& change) = nullptr;
    // A lesson link's name for `amount` (lockstep:slow?worker=2&factor=3) and the values it may
    // give; nullptr: a link gives none.
    const char* amount_name = nullptr;
    double amount_min = 0.0;
    double amount_max = 0.0;
    // The status bar's words when a lesson link made the change: %1 the worker, %2 the amount
    // the link gave. Without one, or without an amount, the link's change says `done_text`.
    const char* link_text = nullptr;
};

// Every kind, in the worker menu's order.
std::span<const FaultKind* const> fault_kinds();
const FaultKind& fault_kind(Intervention::Kind kind);
const FaultKind* find_fault_kind(std::string_view id);
// `change.amount`, or the kind's default for 0 (a pause: that many of the run's steps).
double amount_or_default(const Intervention& change, const FaultTarget& run);
// The change named `id` on `worker`, at executed step `at`; nothing for an unknown name.
std::optional<Intervention> make_intervention(std::string_view id, int worker, std::int64_t at,
                                              double amount = 0.0);

} // namespace lockstep

// Marks a text for Qt Linguist without needing Qt: lupdate reads it, the lab translates it.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, text) text
#endif
