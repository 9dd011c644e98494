#pragma once

#include "checkpoint/checkpoint.h"
#include "clocks/clock.h"
#include "core/indirect.h"
#include "data/data.h"
#include "model/model.h"
#include "model/optimizer.h"
#include "scenario/scenario.h"
#include "trainers/data_parallel_state.h"
#include "trainers/run.h"

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lockstep {

// One worker: a full replica of the model with its own optimizer, data cursor and generator.
struct Worker {
    int id = 0;
    AlignedBuffer parameters;
    Optimizer optimizer;
    DataCursor cursor;
    AlignedBuffer gradient; // its own gradient, then (after the collective) the combined one
    BatchScratch scratch;   // its batch's rows and the model's workspace, reused every step
    LossResult last;
    Ticks clock = 0; // where this worker's lane has got to on the run's clock
    // Sharded (scenario sharding). Gradients (ZeRO 2): its shard of the summed gradient, once
    // the reduce-scatter is over, and `gradient` freed. Parameters (3): `parameters`, `gradient`
    // and the optimizer are its pieces of every layer; `gathered` is the one layer whose
    // parameters are gathered while a pass needs them, `layer_gradient` that layer's gradient
    // until it is reduce-scattered; both are freed after use.
    AlignedBuffer shard_gradient;
    AlignedBuffer gathered;
    RangeGradient layer_gradient;
};

// Data-parallel training: N replicas, each step
//   1. every worker computes the mean gradient of its own batch (one TBB task per worker),
//   2. each scales it by its weight under the reduction rule,
//   3. the collective adds the gradients together, round by round, between worker buffers,
//   4. every replica applies the same optimizer step to its own parameters,
//   5. every replica's parameters are hashed and compared.
// With Algorithm::None, steps 2-3 are skipped and each replica follows its own gradient.
// Times come from the cost model (modelled clock) or from the real threads (measured clock).
class DataParallelTrainer final : public Run {
public:
    // Throws lockstep::Error when the scenario does not fit the data (shards, inputs, classes).
    DataParallelTrainer(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                        TraceSink* sink = nullptr, Work work = Work::Train);

    // A copy is the whole run as it stands between steps (replicas, optimizers, data positions,
    // generators, clocks, faults still to come, accounts): what a branch of the run goes back to.
    // The checkpoint files on disk are not part of it. It shares the data and the sink.
    DataParallelTrainer(const DataParallelTrainer&) = default;
    DataParallelTrainer& operator=(const DataParallelTrainer&) = default;

    void run();
    void step() override; // one training step; no-op once the scenario's steps are done
    bool finished() const override { return step_ >= scenario_.steps; }
    std::int64_t steps_done() const override { return step_; }
    // How many steps this run has executed (a rollback's repeated steps counted again): the
    // next step's TraceEvent::ordinal.
    std::int64_t ordinal() const override { return ordinal_; }
    std::unique_ptr<Run> clone() const override {
        return std::make_unique<DataParallelTrainer>(*this);
    }

    // Where the trace goes from now on (nullptr: nowhere; the run computes the same either way).
    void set_sink(TraceSink* sink) override { sink_ = sink; }
    // On the measured clock, a copy taken earlier goes on from where its lanes stood, not from
    // the wall time since the original started. No effect on the modelled clock.
    void resume_measured_clock() override;

    // Applies the settings of `to` that may change between two steps (see
    // fixed_for_the_run()): reduction rule, collective algorithm, optimizer hyperparameters,
    // slowdowns (per lane) and stragglers, the cost model and the restore mode; the rest of `to`
    // is not read. Call between steps. Throws lockstep::Error for another kind of optimizer, or
    // for no synchronisation in a run that checkpoints.
    void retune(const Scenario& to) override;
    // The worker index of trace lane `lane` (they differ once an elastic run lost a worker), or
    // -1 when that lane's worker is gone.
    int index_of_lane(int lane) const;

    // Delays injected while the run goes on (the GUI's "slow down" and "pause" on a worker).
    // Call between steps, from the thread that calls step(); they show up in the next steps'
    // trace like delays from the scenario file. Throws lockstep::Error for a bad worker or value.
    void add_pause(int worker, std::int64_t step, double seconds);

    // Saves a checkpoint into `dir` after the update of every K-th step, K and the number kept
    // from the scenario's checkpoint policy. Each phase of the commit is in the trace, on each
    // worker's lane, priced by the cost model on the modelled clock. Throws lockstep::Error when
    // the scenario has no checkpoint policy, only times the run, or keeps no single model.
    //
    // The run's own checkpoints are those it writes, and those of its scenario already in `dir`
    // (the run it continues, as lockstep-cli resume does). Only they count towards the number
    // kept, are pruned or are rolled back to, and a rollback never goes past the step it left.
    // Throws lockstep::Error naming the directory when it holds another scenario's checkpoints:
    // a run never uses or deletes another run's files.
    void set_checkpoint_directory(const std::filesystem::path& dir) override;
    bool saves_checkpoints() const override { return true; }

    // Adds a fault while the run goes on (the lab's "crash" and "crash during the next
    // checkpoint" on a worker), checked like the scenario's own failures. Call between steps.
    // Throws lockstep::Error for a worker that is not there or a fault this run cannot take.
    void inject_failure(const FailureSpec& spec) override;

    // A flag another thread raises to stop the run: the measured clock's real sleeps end early
    // when it is set. The trainer only reads it; the caller keeps it alive.
    void set_stop_flag(const std::atomic<bool>* stop) override { stop_ = stop; }

    // What the lab's changes do here, on a trace lane, before the next step
    // (data_parallel_interventions.cpp; the changes themselves are failures/fault_*.cpp).
    double mean_step_seconds() const override;
    void slow_down_lane(int lane, double factor) override;
    void pause_lane(int lane, double seconds) override;
    void broadcast_from_lane(int lane) override;

    // The whole state between steps, for a checkpoint. Throws lockstep::Error when the replicas
    // differ (algorithm none): there is then no single model to save.
    TrainingState capture_state() const override;
    // Puts a saved state back between steps (see RestoreMode). Throws lockstep::Error when the
    // state belongs to another scenario or does not fit this run's shape, changing nothing.
    void restore_state(const TrainingState& state, RestoreMode mode) override;
    // Why `state` cannot be restored into this run with `mode` (another scenario, worker count,
    // number of parameters, step, optimizer, or data positions outside a worker's shard), or
    // nothing when it can.
    std::optional<std::string> misfit(const TrainingState& state, RestoreMode mode) const override;

    const Scenario& scenario() const override { return scenario_; }
    int lanes() const override { return lanes_; }
    std::vector<double> parameters() const override;
    std::vector<ReplicaState> replicas() const override;
    const Dataset& data() const { return *data_; }
    const std::shared_ptr<const Dataset>& shared_data() const { return data_; }
    const std::vector<Worker>& workers() const { return workers_; }
    const CommSchedule& schedule() const { return collective_.schedule; }
    bool replicas_aligned() const { return aligned_; }
    RunMetrics metrics() const override;

    std::vector<Recovery> recoveries() const override { return faults_.recoveries; }

    // The loss after each step in the order the run did them (a rollback repeats steps), with
    // the time and the energy spent so far: for time and energy to a target loss.

    std::vector<ProgressPoint> progress() const override { return accounts_.progress; }
    std::optional<double> last_loss() const override {
        if (work_ != Work::Train || accounts_.progress.empty())
            return std::nullopt;
        return last_snapshot_.loss;
    }
    std::shared_ptr<const Dataset> dataset() const override { return data_; }
    std::vector<HeldValues> held() const override;

    // Hands the run over to one that agrees another way (see Handover): a local SGD run between
    // two averagings averages its replicas first. Throws lockstep::Error for a run that saves
    // checkpoints or has lost a worker.
    Handover hand_over() override;
    // Goes on from a run handed over at a step boundary, in place of its own start.
    void adopt(Handover h);

private:
    // Its state, in parts (data_parallel_state.h).
    using Collective = DataParallelCollective;
    using Accounts = DataParallelAccounts;
    using Faults = DataParallelFaults;
    using CheckpointTimeline = DataParallelCheckpoints;
    using Scratch = DataParallelScratch;

    // The run's set-up and its step (data_parallel.cpp).
    void execute_step();
    void build_collective(); // collective_ for the workers there are
    void price_compute();    // compute_s_per_sample_ from the cost model

    // The step's phases (data_parallel_phases.cpp).
    void compute_phase();
    std::size_t samples_of(int worker) const; // a step's samples: batch times accumulation
    // With `ready`, the last micro-batch hands each layer's final gradient to `ready(layer)` as
    // backward finishes it (and `ready(layer_count())` as that backward begins).
    void compute_gradient(Worker& w, std::size_t batch, std::size_t micro,
                          const LayerDone* ready = nullptr);
    bool communicate_phase();  // false: the step was abandoned (buckets in different orders)
    void all_reduce_buffers(); // the collective over every worker's gradient buffer, priced
    void update_phase(bool apply = true); // without `apply`: the step's snapshot, no update
    // Gradients in a narrow format (scenario comm_precision): the collective's sum left the
    // format's range, so the step is skipped.
    bool summed_gradient_overflowed() const;
    // With loss scaling, after the collective: the sum divided by this step's scale (exactly, a
    // power of two) unless it overflowed, and the scale for the next step.
    void unscale_gradients(bool overflow);
    // compare_precision (data_parallel_precision.cpp): the cursors kept as the step begins; then,
    // before the update, each worker's float64 gradient at the same parameters on the same
    // rows, weighted and added in worker order, and the largest difference from the sum in the
    // workers' buffers.
    void keep_reference_cursors();
    double gap_from_float64();
    // Gradient buckets (data_parallel_buckets.cpp): a computation's events, backward layer by
    // layer when the run has buckets; the buckets' collectives on each worker's communication
    // lane, each starting when its layers are done (or, without overlap, after backward).
    bool bucketed() const { return !collective_.buckets.empty(); }
    void emit_computation(int id, Ticks start, Ticks took, double gradient0);
    bool reduce_buckets();
    // A worker offers its buckets in another order (FailureKind::BucketOrder): the first
    // message to or from it names the wrong bucket, and its receiver stops the step there.
    void stop_at_bucket_mismatch(int misordered, std::span<const Ticks> computed,
                                 const std::vector<std::vector<Ticks>>& ready);
    std::vector<Ticks> price_bucket(const CommSchedule& schedule, std::span<Ticks> clocks,
                                    int bucket);
    void account_exposure(std::span<const Ticks> computed, std::span<const Ticks> collective);
    // The measured clock's: per worker, the collective's time in rounds since `busy_before` (its
    // lane's communication ticks then), all of it after its computation: exposed.
    std::vector<Ticks> communication_ticks() const;
    void account_measured_exposure(std::span<const Ticks> busy_before);
    // The measured clock's overlap (data_parallel_live.cpp): whether this step's buckets can run
    // beside backward; the computation with its collectives on a communication thread; the
    // accounts once both are over; and how long a paced round lasts for real.
    bool live_overlap(std::span<const Ticks> pause) const;
    void compute_live(std::span<Ticks> started, std::span<Ticks> ended, std::size_t micro);
    void emit_live_computation(int id, Ticks start, Ticks took, double gradient0);
    void account_live(std::span<const Ticks> computed);
    Ticks paced_round(const Round& round) const;
    bool averaging_due() const; // local SGD: the replicas average after this step
    void average_phase();
    Ticks compute_cost(int worker, std::size_t samples);
    void barrier(); // everyone waits for the slowest lane

    // The step's end (data_parallel_snapshots.cpp).
    void finish_step();

    // The collective's time (data_parallel_collective_time.cpp).
    void price_schedule(); // collective_.schedule's rounds
    void price_schedule(const CommSchedule& schedule);
    // The bytes of `schedule` that cross from one machine to another among the workers there
    // are now.
    std::int64_t inter_node_bytes(const CommSchedule& schedule) const;
    // A step's collective moved `bytes`, `inter` of them between machines.
    void count_moved(std::int64_t bytes, std::int64_t inter);
    void broadcast_parameters(); // a Broadcast intervention, at the start of the step
    void run_measured_collective();
    // Over the workers' gradient buffers, or with `on_parameters` their parameters.
    void run_measured_collective(const CommSchedule& schedule, int bucket,
                                 bool on_parameters = false);
    void run_measured_collective(const CommSchedule& schedule,
                                 std::span<const std::span<double>> buffers, int bucket);
    // Sharded data parallelism (data_parallel_sharded.cpp): the gradients reduce-scattered, each
    // worker's optimizer (state: its shard only) updating its shard, the parameters all-gathered.
    void note_memory(); // each worker's buffers now (data_parallel_accounts.cpp)
    // One half over the workers' gradients or their parameters, or over `buffers`.
    void run_half(const CommSchedule& half, CollectiveHalf which, bool on_parameters);
    void reduce_scatter_gradients();
    void unshard_gradients(); // stage 2: a whole gradient buffer for the next backward
    void apply_to_shard(Worker& w, std::size_t k);
    void gather_parameters();
    void run_half(const CommSchedule& half, CollectiveHalf which,
                  std::span<const std::span<double>> buffers, int layer = -1);
    // Sharded parameters (data_parallel_fsdp.cpp): the parameters cut into each worker's pieces
    // of every layer; the step's passes layer by layer, each layer gathered before forward and
    // again before backward and freed after, its gradient reduce-scattered as backward leaves
    // it; and the whole model put together from the pieces, for what reports it.
    bool layer_sharded() const { return !collective_.layers.empty(); }
    void compute_layer_by_layer(std::span<const Ticks> cost, std::span<const Ticks> pause);
    void gather_layer(std::size_t layer);
    void layer_pass(std::size_t layer, bool backward, std::span<const Ticks> cost);
    void reduce_scatter_layer(std::size_t layer);
    std::vector<double> assembled_parameters() const;
    // A sharded run's whole state and its shards (data_parallel_sharded.cpp): where worker k's
    // values lie in the whole model, the optimizer state put together for a checkpoint, and the
    // whole state (restored or fresh) cut into the shards of the workers there are now.
    std::vector<ValueRun> shard_runs(std::size_t k) const;
    OptimizerState assembled_optimizer_state() const;
    template <class PieceOf> AlignedBuffer joined(PieceOf piece_of) const;
    void shard_whole_state();

    // Checkpoints (data_parallel_checkpoints.cpp).
    void checkpoint_phase(); // after the update of a K-th step
    void emit_measured_checkpoint(std::span<const std::pair<CheckpointPhase, Ticks>> phases,
                                  std::span<const int> owners, Ticks started);
    void emit_modelled_checkpoint(const CheckpointWrite& written);
    void emit_crashed_checkpoint(const CheckpointWrite& written, Ticks started);

    // Accounts (data_parallel_accounts.cpp).
    // Accounts an event to its worker's time and, when a sink listens, records it.
    void emit(TraceEvent event);             // `worker` and `peer` are worker indices
    void emit_lane(const TraceEvent& event); // `worker` and `peer` are trace lanes
    // Ends a collective round: gaps before each worker's activity become Wait events.
    void close_round(std::span<const Ticks> from, int bucket = -1); // a bucket's round: its id
    void mark_busy(int worker, Ticks start, Ticks end);
    double energy_so_far() const;

    // Failures (data_parallel_failures.cpp).
    void start_step_faults(); // pauses and slow links due now; the step's start time
    std::optional<FailureSpec> take_crash(bool checkpoint_phase);
    // The crash of worker `index` at `at`: detection, recovery by the policy, lost work.
    void fail(const FailureSpec& spec, int index, Ticks at);
    void roll_back(Ticks at, Ticks resume_from, Recovery& record);
    TrainingState for_these_workers(TrainingState state) const; // an elastic run's survivors
    void remove_worker(int index, bool reshard);
    void reset_to_start();
    void corrupt_after_commit(const CheckpointWrite& written);
    // Fills scratch_.chosen and scratch_.chosen_weights.
    void choose_backups(std::span<const Ticks> finish, int crashed);
    void mark_dead_lanes(Ticks until);

    Scenario scenario_;
    std::uint64_t hash_ = 0; // the scenario's hash as the run began (checkpoints carry it)
    int lanes_ = 0;          // workers the run started with: one trace lane each
    Work work_ = Work::Train;
    std::shared_ptr<const Dataset> data_;
    TraceSink* sink_ = nullptr;
    const std::atomic<bool>* stop_ = nullptr;
    std::vector<Worker> workers_;
    Collective collective_;
    InProcessTransport transport_;
    Rng run_rng_;
    LossScaleState loss_scale_; // what the gradients are multiplied by before the wire format
    double compute_s_per_sample_ = 0.0;
    std::int64_t step_ = 0;
    std::int64_t steps_run_ = 0; // since construction, a restore not counted
    std::int64_t ordinal_ = 0;   // step() calls that did something
    bool aligned_ = true;
    bool broadcast_due_ = false; // a Broadcast intervention waits for the next step
    StepSnapshot last_snapshot_;
    Accounts accounts_;
    Faults faults_;
    CheckpointTimeline checkpoints_;
    Scratch scratch_;
    // The half of an all-reduce running now, and whose layer (ZeRO 3): emit() names it on the
    // collective's events.
    CollectiveHalf half_ = CollectiveHalf::None;
    int half_layer_ = -1;
    Indirect<Clock> clock_{make_clock(ClockKind::Modelled)}; // the scenario's, set on construction
};

// How far the replicas' parameters are apart: the largest L2 distance of one from their mean
// (0 when they agree).
double replica_spread(std::span<const std::span<const double>> replicas);
// Each replica's L2 distance from the replicas' mean (replica_spread() is the largest).
std::vector<double> replica_distances(std::span<const std::span<const double>> replicas);

} // namespace lockstep
