#pragma once

#include "collectives/schedule.h"
#include "collectives/transport.h"
#include "core/indirect.h"
#include "data/data.h"
#include "model/model.h"
#include "model/optimizer.h"
#include "reports/metrics.h"
#include "scenario/parallelism.h"
#include "scenario/pipeline_plan.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace lockstep {

// Pipeline (and hybrid) training on the modelled clock. Lane r*P + s is replica r's stage s.
// Each step:
//   1. every stage runs its program; the programs are cut into waves (an op's wave comes after
//      the waves of everything it depends on) and each wave is one parallel_for over the stages
//      that have an op in it, so no task ever waits for another. A forward copies its result
//      into the next stage's buffer for that micro-batch; a backward copies its input gradient
//      into the previous stage's buffer.
//   2. hybrid: each stage's gradient is combined across its replicas by the collective.
//   3. every stage updates its own layers with its own optimizer.
// Times come from the cost model: compute per sample split over stages by their multiply-adds
// (a backward costs twice a forward), alpha + bytes * beta per message on each link; gaps on a
// stage's lane become Bubble events. In textbook mode (cost.communication_s_per_step) the
// messages cost nothing and, after the passes, every lane waits for the slowest and then
// communicates for that fixed time.
class PipelineTrainer final : public Run {
public:
    // Throws lockstep::Error for a bad combination or a scenario that does not fit the data.
    PipelineTrainer(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                    TraceSink* sink = nullptr);
    ~PipelineTrainer() override;
    PipelineTrainer(const PipelineTrainer&);
    PipelineTrainer& operator=(const PipelineTrainer&) = delete;

    void run();
    void step() override;
    bool finished() const override { return step_ >= scenario_.steps; }
    std::int64_t steps_done() const override { return step_; }
    std::optional<double> last_loss() const override {
        return step_ > 0 ? std::optional<double>(last_snapshot_.loss) : std::nullopt;
    }
    std::int64_t ordinal() const override { return step_; } // no rollbacks: every step once
    std::unique_ptr<Run> clone() const override { return std::make_unique<PipelineTrainer>(*this); }
    void set_sink(TraceSink* sink) override { sink_ = sink; }

    const Scenario& scenario() const override { return scenario_; }
    const PipelinePlan& plan() const { return plan_; }
    int lanes() const override { return static_cast<int>(lanes_.size()); }
    // The whole model's parameters of one replica, put back together from its stages.
    std::vector<double> parameters(int replica) const;
    std::vector<double> parameters() const override { return parameters(0); }
    std::vector<ReplicaState> replicas() const override;
    bool replicas_aligned() const { return aligned_; }
    RunMetrics metrics() const override;
    PipelineReport report() const;

private:
    struct Lane;
    using Wave = std::vector<std::pair<int, PipelineOp>>; // (lane, op) pairs run in parallel
    void load_batches();
    std::vector<Wave> schedule_step(); // times, trace events and waves of this step's programs
    void run_waves(const std::vector<Wave>& waves);
    void forward(Lane& lane, int microbatch);
    void backward(Lane& lane, int microbatch);
    void combine_gradients(); // hybrid: each stage's all-reduce across its replicas
    void price_all_reduce(int stage);
    void update_and_snapshot();
    void charge_fixed_communication(const PipelineReport& before); // textbook mode
    void end_step();
    void emit(const TraceEvent& event);
    Lane& lane(int replica, int stage);

    Scenario scenario_;
    std::shared_ptr<const Dataset> data_;
    TraceSink* sink_ = nullptr;
    PipelinePlan plan_;
    std::vector<Indirect<Lane>> lanes_;
    std::vector<DataCursor> cursors_;                     // per replica
    std::vector<std::vector<std::size_t>> rows_;          // per replica: this step's batch rows
    std::vector<std::vector<double>> features_, targets_; // per replica: this step's batch
    std::vector<double> weights_;                         // per replica, under the reduction rule
    std::vector<std::vector<Ticks>> forward_cost_, backward_cost_; // per lane, per micro-batch
    std::vector<std::vector<Ticks>> transfer_cost_;                // per stage boundary, per mb
    std::vector<CommSchedule> stage_schedules_;                    // hybrid: per stage
    InProcessTransport transport_;
    std::int64_t step_ = 0;
    bool aligned_ = true;
    std::int64_t samples_ = 0;
    Ticks bubble_ = 0;
    PipelineReport totals_;
    StepSnapshot last_snapshot_;
    std::vector<TraceEvent> events_;   // this step's
    std::vector<WorkerMetrics> spent_; // per lane, whole run
};

} // namespace lockstep
