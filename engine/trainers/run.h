#pragma once

#include "data/data.h"
#include "failures/failure.h"
#include "failures/intervention.h"
#include "model/optimizer.h"
#include "reports/metrics.h"
#include "reports/results.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/handover.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockstep {

// What a run computes. TimesOnly walks the same steps on the modelled clock (costs, delays,
// jitter, collective schedules, waiting) without the arithmetic of training: for speedup sweeps
// and baselines, where only the times matter. Its snapshots carry no loss (NaN) and no hashes.
enum class Work { Train, TimesOnly };

// One replica of the model as it stands between steps: its parameters, its optimizer state and
// the rows of the data it draws from (left empty where a run keeps no such thing per replica).
struct ReplicaState {
    std::vector<double> parameters;
    OptimizerState optimizer;
    Shard shard;
    Ticks clock = 0; // where its lane has got to on the run's clock
};

// What one worker's buffers hold between steps, in values (not bytes): what sharding leaves it.
// The layer buffers are stage 3's, counted by capacity, since a freed buffer has none.
struct HeldValues {
    std::size_t parameters = 0;
    std::size_t gradient = 0;       // its gradient and its shard of the summed one
    std::size_t optimizer = 0;      // SGD's velocity or Adam's two moments
    std::size_t gathered_layer = 0; // capacity of the one layer gathered for a pass
    std::size_t layer_gradient = 0; // capacity of that layer's gradient
};

// One training run, whatever spreads it over the workers (data, pipeline, tensor or hybrid
// parallelism): what the lab's controller, BranchingRun and lockstep-cli drive, so none of them
// asks which kind it is. make_run() builds the trainer the scenario names.
//
// A copy (clone()) is the whole run as it stands between two steps: parameters, optimizer
// state, data positions, generators, clocks, faults to come and accounts. Copies share the data
// and the sink. Not thread-safe: one thread at a time calls a run.
class Run : public FaultTarget {
public:
    virtual ~Run() = default;

    virtual void step() = 0; // one training step; no-op once the scenario's steps are done
    virtual bool finished() const = 0;
    std::int64_t steps_done() const override = 0;
    // Steps executed so far, a rollback's repeated steps counted again: the next step's
    // TraceEvent::ordinal.
    virtual std::int64_t ordinal() const = 0;
    virtual std::unique_ptr<Run> clone() const = 0;

    // Where the trace goes from now on (nullptr: nowhere; the run computes the same either way).
    virtual void set_sink(TraceSink* sink) = 0;
    // A flag another thread raises to stop the run early (the measured clock's sleeps end).
    virtual void set_stop_flag(const std::atomic<bool>* /*stop*/) {}
    // A copy taken earlier goes on from where its lanes stood, on the measured clock.
    virtual void resume_measured_clock() {}

    // Applies an intervention before the next step, through its kind (failures/intervention.h),
    // and sets `change.step`. Throws lockstep::Error naming what this run cannot take.
    void intervene(Intervention& change);
    // What a change can do to this run (FaultTarget). By default a run takes none of them.
    double mean_step_seconds() const override { return 0.0; }
    void slow_down_lane(int lane, double factor) override;
    void pause_lane(int lane, double seconds) override;
    void retune(const Scenario& to) override;
    void broadcast_from_lane(int lane) override;
    // Adds a fault of the scenario's kinds (failures/failure.h) while the run goes on, checked
    // like the scenario's own. Throws lockstep::Error naming what this run cannot take.
    void inject_failure(const FailureSpec& spec) override;
    // Whether this kind of run saves checkpoints at all (a data-parallel one does, with a policy).
    virtual bool saves_checkpoints() const { return false; }
    // Saves checkpoints into `dir` by the scenario's policy. Throws lockstep::Error for a run
    // that saves none.
    virtual void set_checkpoint_directory(const std::filesystem::path& dir);

    // The run as it stands, for a run that agrees another way to go on from: see Handover. It
    // traces what the switch itself does (an averaging, the workers' pulls) as the next step's,
    // and leaves this run to be dropped. Throws lockstep::Error naming why this run cannot hand
    // over.
    virtual Handover hand_over();
    // The data it trains on (nullptr: a run that cannot hand over).
    virtual std::shared_ptr<const Dataset> dataset() const { return nullptr; }
    // The loss after each step so far, with its time and energy (empty: the run keeps none).
    virtual std::vector<ProgressPoint> progress() const { return {}; }
    // Every gradient a parameter server applied, in order (empty: the run has no server that
    // applies gradients one by one).
    virtual std::vector<AppliedGradient> applied_gradients() const { return {}; }
    // Each crash and what the run did about it, in order (empty: none, or a run without faults).
    virtual std::vector<Recovery> recoveries() const { return {}; }

    // Checkpoints: the whole state between steps, and putting one back. A run that keeps no
    // checkpoints throws lockstep::Error naming why (capture, restore); misfit() says why a
    // state cannot be restored into this run, or nothing when it can.
    virtual TrainingState capture_state() const;
    virtual void restore_state(const TrainingState& state, RestoreMode mode);
    virtual std::optional<std::string> misfit(const TrainingState& state, RestoreMode mode) const;

    // The mean loss of the last step trained: nothing before the first, or for a run that
    // computes times only.
    virtual std::optional<double> last_loss() const { return std::nullopt; }
    // Training diverged: the loss of the last step trained is not a finite number (the updates
    // grew until the numbers overflowed). Its step and loss, or nothing.
    struct Divergence {
        std::int64_t step = 0;
        double loss = 0.0;
    };
    std::optional<Divergence> divergence() const {
        const std::optional<double> loss = last_loss();
        if (!loss || std::isfinite(*loss))
            return std::nullopt;
        return Divergence{steps_done() - 1, *loss};
    }

    // Runs the remaining steps, or until training diverges.
    void run_to_end() {
        while (!finished() && !divergence())
            step();
    }

    const Scenario& scenario() const override = 0;
    virtual int lanes() const = 0; // trace lanes: one per worker the run started with
    virtual RunMetrics metrics() const = 0;
    // The trained model as one flat vector (replica 0's, put together from its pieces).
    virtual std::vector<double> parameters() const = 0;
    // Every replica there is now: one per live worker under data parallelism, one per copy of
    // the pipeline in a hybrid run; otherwise the one model of parameters().
    virtual std::vector<ReplicaState> replicas() const { return {{parameters(), {}, {}, 0}}; }
    // Each live worker's buffers as they stand (empty: a run that does not keep them per worker).
    virtual std::vector<HeldValues> held() const { return {}; }
};

// The trainer for the scenario's parallelism. Throws lockstep::Error when the scenario does not
// fit the data, or when a worker would hold more than its memory_budget_bytes
// (check_memory_budget(), runs/runs.h: one plain step of the scenario, trained first).
// Work::TimesOnly is for data parallelism on the modelled clock; other runs always train.
std::unique_ptr<Run> make_run(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                              TraceSink* sink = nullptr, Work work = Work::Train);

// Builds the scenario's dataset: a built-in set or its CSV file. Throws lockstep::Error naming
// what is wrong with the file.
std::shared_ptr<const Dataset> load_dataset(const Scenario& scenario);

// Whether going from `from`'s settings to `to`'s, while a run goes on, needs another trainer:
// the way the replicas agree changes (bsp, ssp, async, local).
bool changes_trainer(const Scenario& from, const Scenario& to);
// The run `from` handed over, going on under `to` (its mid-run settings, sync mode included)
// from the step it had reached. Throws lockstep::Error, leaving `from` as it was, when `to`
// cannot train this way or `from` cannot hand over.
std::unique_ptr<Run> continue_run(Run& from, const Scenario& to, TraceSink* sink = nullptr);

} // namespace lockstep
