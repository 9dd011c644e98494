#pragma once

#include "collectives/schedule.h"
#include "collectives/transport.h"
#include "core/indirect.h"
#include "data/data.h"
#include "reports/metrics.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace lockstep {

// How one fully connected layer's weight (torch layout, [out][in]) is cut across workers.
//   Columns: each worker owns a run of output features (rows of the torch weight) and computes
//            those outputs in full; an all-gather puts the pieces together on every worker.
//   Rows:    each worker owns a run of input features and sees only those inputs; it computes a
//            partial sum of every output, and an all-reduce adds the partial sums.
// (Megatron-LM's column- and row-parallel linear layers, named after the [in][out] matrix.)
enum class TensorSplit { Columns, Rows };

// Worker k's share of `n` features: [floor(k*n/N), floor((k+1)*n/N)).
std::size_t tensor_share_begin(int worker, int workers, std::size_t n);

// Tensor-parallel training of the whole model on the modelled clock: every layer split by
// columns across N workers (parallelism.stages), all of them reading the same batch. Each step:
//   1. forward, layer by layer: each worker computes its outputs, activates them, and an
//      all-gather gives every worker the whole layer's outputs (the next layer's input);
//   2. every worker computes the loss's gradient at the logits (the same on each);
//   3. backward, layer by layer: each worker adds up the gradient of its own weights and
//      computes its partial sum of the layer's input gradient; an all-reduce adds those;
//   4. each worker updates its own piece of every layer.
// In textbook mode (cost.communication_s_per_step) the collectives cost nothing and, before the
// update, every worker waits for the slowest and then communicates for that fixed time.
// Split by columns, the first backward layer already differs in the order of the input
// gradient's sums, so the result equals unsplit training within rounding (with one worker,
// bit for bit).
class TensorTrainer final : public Run {
public:
    TensorTrainer(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                  TraceSink* sink = nullptr);
    ~TensorTrainer() override;
    TensorTrainer(const TensorTrainer&);
    TensorTrainer& operator=(const TensorTrainer&) = delete;

    void run();
    void step() override;
    bool finished() const override { return step_ >= scenario_.steps; }
    std::int64_t steps_done() const override { return step_; }
    std::optional<double> last_loss() const override {
        return step_ > 0 ? std::optional<double>(last_snapshot_.loss) : std::nullopt;
    }
    std::int64_t ordinal() const override { return step_; } // no rollbacks: every step once
    std::unique_ptr<Run> clone() const override { return std::make_unique<TensorTrainer>(*this); }
    void set_sink(TraceSink* sink) override { sink_ = sink; }
    const Scenario& scenario() const override { return scenario_; }
    int lanes() const override { return workers_; }
    int workers() const { return workers_; }
    // The whole model put together from every worker's pieces.
    std::vector<double> parameters() const override;
    RunMetrics metrics() const override;
    std::int64_t bytes_moved() const { return bytes_moved_; }

private:
    struct Piece;
    void forward_layer(std::size_t layer);
    void backward_layer(std::size_t layer);
    void price_collective(const CommSchedule& schedule); // on the modelled clock, traced
    void compute(EventKind kind, std::size_t layer);

    Scenario scenario_;
    std::shared_ptr<const Dataset> data_;
    TraceSink* sink_ = nullptr;
    int workers_ = 1;
    std::vector<Indirect<Piece>> pieces_;
    std::optional<DataCursor> cursor_; // the one batch everyone reads
    std::vector<std::size_t> rows_;
    std::vector<double> features_, targets_;
    std::vector<std::vector<Ticks>> forward_cost_, backward_cost_; // per worker, per layer
    std::vector<Ticks> clocks_;
    InProcessTransport transport_;
    std::int64_t step_ = 0;
    int round_ = 0; // collective rounds so far this step, to number them
    std::int64_t samples_ = 0;
    std::int64_t bytes_moved_ = 0;
    StepSnapshot last_snapshot_;
    std::vector<TraceEvent> events_;
    std::vector<WorkerMetrics> spent_;
};

} // namespace lockstep
