#pragma once

#include "clocks/clock.h"
#include "core/indirect.h"
#include "core/rng.h"
#include "data/data.h"
#include "model/model.h"
#include "model/optimizer.h"
#include "reports/metrics.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <cstdint>
#include <map>
#include <memory>
#include <queue>
#include <vector>

namespace lockstep {

// Training through a parameter server without a barrier at every step (sync ssp and async).
// The server holds the model; each worker pulls a copy, computes the gradient of its own batch
// on it, pushes the gradient and pulls again.
//   ssp: the gradients of one clock are added up in worker order, as the bulk-synchronous
//        parameter server adds them, and applied in one optimizer step: version c+1 of the model.
//        A worker starts clock c on the newest version it has, as long as that version is at
//        least c - S; otherwise it waits for it. S = 0 is the bulk-synchronous run, bit for bit.
//   async: each gradient, weighted by the rule, is applied on its own the moment it reaches the
//        server (at lr / tau with staleness_aware_lr), whatever the version it was computed on.
// The order of everything comes from the run's clock: events are taken in time order, ties by
// worker, never from threads. On the modelled clock every time is the cost model's, so the run is
// the same on every machine; on the measured clock each gradient is computed when its worker
// starts it and lasts the real time it took (the messages stay priced by the cost model). The
// gradients whose inputs are known are computed together, one TBB task each, so a run gives the
// same numbers with any number of threads.
//
// One step() is one step's worth of updates: the next version under ssp, the next P gradients
// under async (P workers). Its snapshot holds every worker's copy's hash and how far the copies
// are apart.
class LooseSyncTrainer final : public Run {
public:
    // Throws lockstep::Error when the scenario does not fit the data or is not ssp or async.
    LooseSyncTrainer(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                     TraceSink* sink = nullptr);

    void step() override;
    bool finished() const override { return step_ >= scenario_.steps; }
    std::int64_t steps_done() const override { return step_; }
    std::int64_t ordinal() const override { return step_; }
    std::unique_ptr<Run> clone() const override {
        return std::make_unique<LooseSyncTrainer>(*this);
    }
    void set_sink(TraceSink* sink) override { sink_ = sink; }
    void resume_measured_clock() override;

    const Scenario& scenario() const override { return scenario_; }
    int lanes() const override { return scenario_.workers; }
    RunMetrics metrics() const override;
    std::vector<double> parameters() const override { return server_.parameters; }
    std::shared_ptr<const Dataset> dataset() const override { return data_; }

    // Slow and Pause as in any run; Retune takes the mid-run settings of its own mode (the
    // staleness bound, the learning rate, the rule). Crashes are refused: this trainer keeps no
    // checkpoints to recover from.
    double mean_step_seconds() const override;
    void slow_down_lane(int lane, double factor) override;
    void pause_lane(int lane, double seconds) override;
    void inject_failure(const FailureSpec& spec) override;
    void broadcast_from_lane(int lane) override;
    void retune(const Scenario& to) override;
    // Every worker finishes what it is computing; the gradients not yet applied are dropped, and
    // every worker pulls the newest model (see Handover).
    Handover hand_over() override;
    // Goes on from a run handed over at a step boundary, in place of its own start.
    void adopt(Handover h);

    std::vector<AppliedGradient> applied_gradients() const override { return applied_; }
    // The loss after each step, with its time: for time to a target loss.
    std::vector<ProgressPoint> progress() const override { return progress_; }
    std::optional<double> last_loss() const override {
        return progress_.empty() ? std::nullopt : std::optional<double>(progress_.back().loss);
    }

private:
    enum class Kind { ComputeDone, ArriveAtServer, ReplyArrives };
    struct Pending {
        Ticks time = 0;
        int worker = 0;
        Kind kind = Kind::ComputeDone;
        std::int64_t seq = 0;
        bool operator>(const Pending& o) const {
            if (time != o.time)
                return time > o.time;
            if (worker != o.worker)
                return worker > o.worker;
            return seq > o.seq;
        }
    };
    struct Lane {
        explicit Lane(DataCursor c)
            : cursor(std::move(c)) {}
        std::vector<double> parameters; // its copy of the model
        std::int64_t version = 0;       // which version the copy is
        std::vector<double> gradient;
        std::vector<double> incoming; // the copy on its way back from the server
        std::int64_t incoming_version = 0;
        DataCursor cursor;
        std::vector<std::size_t> rows;
        std::vector<double> features, targets;
        Workspace work;
        LossResult last;
        std::int64_t clock = 0;        // gradients it has pushed
        std::int64_t computed_on = 0;  // the version of its gradient in flight
        bool gradient_due = false;     // started, not yet computed
        std::int64_t waiting_for = -1; // ssp: the version it needs before its next clock
        Ticks at = 0;                  // how far its lane has got
    };
    struct Server {
        std::vector<double> parameters;
        Optimizer optimizer;
        std::int64_t version = 0;
        Ticks free_at = 0; // it applies one update at a time
        // ssp: the gradients of each clock not yet complete, one slot per worker.
        std::map<std::int64_t, std::vector<std::vector<double>>> clocks;
        std::map<std::int64_t, int> arrived;
    };

    void start_iteration(int k, Ticks at);
    void compute_due_gradients();
    void compute_gradient(Lane& l) const; // its copy's gradient of its batch
    void handle(const Pending& p);
    void arrive(int k, Ticks at);
    void send_copy(int k, Ticks at); // the server's current model, on its way to worker k
    Ticks pull(int k, Ticks at);     // its trip from `at`, traced; returns when it arrives
    void push_event(Ticks time, int worker, Kind kind);
    void emit(TraceEvent e);
    Ticks compute_cost(int k);
    Ticks transfer(int k) const;
    // A model or gradient crossed between worker k and the server at worker 0.
    void count_moved(int k); // a whole model or gradient between worker k and the server
    void finish_step(Ticks at);
    void flush_events(std::int64_t ordinal); // to the sink, in time order, as this executed step

    Scenario scenario_;
    std::shared_ptr<const Dataset> data_;
    TraceSink* sink_ = nullptr;
    std::vector<Lane> lanes_;
    Server server_;
    std::vector<double> weights_; // the rule's weight of each worker's gradient
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> queue_;
    std::int64_t seq_ = 0;
    Rng run_rng_;
    Indirect<Clock> clock_{make_clock(ClockKind::Modelled)}; // the scenario's
    double compute_s_per_sample_ = 0.0;
    std::int64_t bytes_ = 0; // one model or gradient
    std::int64_t step_ = 0;
    std::int64_t started_ = 0;                    // computations begun
    std::vector<StepSnapshot> pending_snapshots_; // finished in this step(), not yet handed over
    std::vector<TraceEvent> events_;
    std::vector<LaneTotals> spent_;
    std::vector<std::vector<TraceEvent>> recent_; // per lane, its last few events
    std::vector<AppliedGradient> applied_;
    std::vector<double> step_losses_; // the batch losses of the gradients in this step
    std::size_t step_correct_ = 0, step_counted_ = 0;
    std::int64_t samples_ = 0, bytes_moved_ = 0;
    std::int64_t bytes_inter_node_ = 0; // of those, between machines
    StepSnapshot last_;
    std::vector<ProgressPoint> progress_;
    std::vector<double> pause_next_; // per lane: seconds it stalls before its next computation
    // Before a switch to this run: gradients applied, their staleness, those dropped.
    std::int64_t prior_applied_ = 0, prior_staleness_ = 0, prior_max_staleness_ = 0;
    int dropped_ = 0;
    std::int64_t prior_averagings_ = 0;
};

} // namespace lockstep
