#include "trainers/pipeline.h"

#include "core/error.h"

#include "clocks/cost_model.h"
#include "reports/speedup.h"
#include "trainers/pipeline_lane.h"
#include "trainers/setup.h"

#include <algorithm>

// The modelled clock of a pipeline step and what the run adds up: when each stage runs each op,
// when the messages travel, where the bubbles are, and the waves the real passes run in.

namespace lockstep {

namespace {

std::size_t width(const ModelShape& shape, std::size_t index) {
    return static_cast<std::size_t>(shape.layers[index]);
}

} // namespace

std::vector<PipelineTrainer::Wave> PipelineTrainer::schedule_step() {
    using K = PipelineOp::Kind;
    const int stages = plan_.stages;
    const auto m = static_cast<std::size_t>(plan_.microbatches);
    const std::size_t n = lanes_.size();
    const Ticks start = lanes_.front()->clock;
    constexpr Ticks unknown = -1;
    // When each micro-batch's input (activations) and output gradient reach each lane, and the
    // wave after which its data is in place.
    std::vector<std::vector<Ticks>> act_ready(n, std::vector<Ticks>(m, unknown));
    std::vector<std::vector<Ticks>> grad_ready(n, std::vector<Ticks>(m, unknown));
    std::vector<std::vector<int>> act_wave(n, std::vector<int>(m, 0));
    std::vector<std::vector<int>> grad_wave(n, std::vector<int>(m, 0));
    std::vector<Ticks> next_free(n, start), previous_free(n, start); // each lane's two out-links
    std::vector<int> lane_wave(n, 0);
    std::vector<std::size_t> next(n, 0);
    for (std::size_t k = 0; k < n; ++k)
        if (lanes_[k]->stage == 0)
            std::fill(act_ready[k].begin(), act_ready[k].end(), start);

    std::vector<Wave> waves;
    const ModelShape& shape = scenario_.model;
    auto transfer = [&](Lane& from, std::size_t to, int i, Ticks ready, Ticks& link_free,
                        std::size_t boundary_width, std::int64_t& tally) {
        const auto bytes = static_cast<std::int64_t>(
            plan_.microbatch_rows[static_cast<std::size_t>(i)] * boundary_width * sizeof(double));
        const int boundary = std::min(from.stage, lanes_[to]->stage);
        const Ticks begin = std::max(ready, link_free);
        const Ticks end =
            begin + transfer_cost_[static_cast<std::size_t>(boundary)][static_cast<std::size_t>(i)];
        link_free = end;
        const int peer = static_cast<int>(to);
        emit({from.id, EventKind::Send, step_, begin, end, bytes, peer, -1, 0.0, i});
        emit({peer, EventKind::Receive, step_, begin, end, bytes, from.id, -1, 0.0, i});
        tally += bytes;
        return end;
    };

    std::size_t remaining = n * 2 * m;
    while (remaining > 0) {
        bool progressed = false;
        for (std::size_t k = 0; k < n; ++k) {
            Lane& l = *lanes_[k];
            const auto& program = plan_.programs[static_cast<std::size_t>(l.stage)];
            while (next[k] < program.size()) {
                const PipelineOp op = program[next[k]];
                const auto i = static_cast<std::size_t>(op.microbatch);
                const bool fwd = op.kind == K::Forward;
                const Ticks ready = fwd ? act_ready[k][i] : grad_ready[k][i];
                if (ready == unknown)
                    break; // its input is not computed yet: another lane goes first
                const Ticks begin = std::max(l.clock, ready);
                if (begin > l.clock)
                    emit({l.id, EventKind::Bubble, step_, l.clock, begin, 0, -1, -1, 0.0,
                          op.microbatch});
                const Ticks end = begin + (fwd ? forward_cost_[k][i] : backward_cost_[k][i]);
                emit({l.id, fwd ? EventKind::Forward : EventKind::Backward, step_, begin, end, 0,
                      -1, -1, 0.0, op.microbatch});
                l.clock = end;
                const int wave = std::max(lane_wave[k], fwd ? act_wave[k][i] : grad_wave[k][i]);
                lane_wave[k] = wave + 1;
                if (waves.size() <= static_cast<std::size_t>(wave))
                    waves.resize(static_cast<std::size_t>(wave) + 1);
                waves[static_cast<std::size_t>(wave)].emplace_back(static_cast<int>(k), op);

                if (fwd && l.stage + 1 < stages) {
                    act_ready[k + 1][i] =
                        transfer(l, k + 1, op.microbatch, end, next_free[k],
                                 width(shape, l.range.end), totals_.activation_bytes);
                    act_wave[k + 1][i] = wave + 1;
                } else if (fwd) {
                    grad_ready[k][i] = end; // the last stage's loss gives its own gradient
                } else if (l.stage > 0) {
                    grad_ready[k - 1][i] =
                        transfer(l, k - 1, op.microbatch, end, previous_free[k],
                                 width(shape, l.range.first), totals_.activation_gradient_bytes);
                    grad_wave[k - 1][i] = wave + 1;
                }
                ++next[k];
                --remaining;
                progressed = true;
            }
        }
        if (!progressed)
            throw Error("pipeline: the stage programs wait for each other (no op can run)");
    }
    return waves;
}

void PipelineTrainer::price_all_reduce(int stage) {
    const auto& schedule = stage_schedules_[static_cast<std::size_t>(stage)];
    std::vector<int> ids;
    std::vector<Ticks> clocks;
    for (int r = 0; r < plan_.replicas; ++r) {
        ids.push_back(lane(r, stage).id);
        clocks.push_back(lane(r, stage).clock);
    }
    price_schedule(schedule, {ids, clocks, {}}, scenario_.cost, step_, 0, &events_);
    for (int r = 0; r < plan_.replicas; ++r)
        lane(r, stage).clock = clocks[static_cast<std::size_t>(r)];
    totals_.gradient_bytes += schedule.total_bytes();
}

void PipelineTrainer::charge_fixed_communication(const PipelineReport& before) {
    if (!scenario_.cost.communication_s_per_step || lanes_.size() < 2)
        return;
    // The messages of this step travelled at no cost; all of it costs the fixed time instead.
    const std::int64_t bytes =
        (totals_.activation_bytes - before.activation_bytes) +
        (totals_.activation_gradient_bytes - before.activation_gradient_bytes) +
        (totals_.gradient_bytes - before.gradient_bytes);
    std::vector<int> ids;
    std::vector<Ticks> clocks;
    for (const auto& l : lanes_) {
        ids.push_back(l->id);
        clocks.push_back(l->clock);
    }
    lockstep::charge_fixed_communication(ids, clocks, *scenario_.cost.communication_s_per_step,
                                         bytes / static_cast<std::int64_t>(lanes_.size()), step_,
                                         events_);
    for (std::size_t k = 0; k < lanes_.size(); ++k)
        lanes_[k]->clock = clocks[k];
}

void PipelineTrainer::end_step() {
    // The step ends when the slowest stage has updated (the pipeline is flushed); a stage that
    // finished earlier sits idle until then.
    Ticks latest = 0;
    for (const auto& l : lanes_)
        latest = std::max(latest, l->clock);
    for (auto& l : lanes_) {
        if (l->clock < latest)
            emit({l->id, EventKind::Bubble, step_, l->clock, latest});
        l->clock = latest;
    }
    aligned_ = last_snapshot_.replicas_aligned;
    last_snapshot_.time = latest;
    detail::add_lane_time(spent_, events_);
    // The step as the lesson counts it: its idle stage-time over all its stage-time.
    Ticks began = latest, idle = 0;
    for (const auto& e : events_) {
        began = std::min(began, e.start);
        if (e.kind == EventKind::Bubble)
            idle += e.end - e.start;
    }
    bubble_ += idle;
    PipelineStepReport report{plan_.stages, plan_.microbatches, 0.0, {}};
    if (latest > began)
        report.bubble_fraction = static_cast<double>(idle) / (static_cast<double>(latest - began) *
                                                              static_cast<double>(lanes_.size()));
    for (const auto& l : lanes_)
        report.peak_inflight.push_back(plan_.peak_inflight[static_cast<std::size_t>(l->stage)]);
    last_snapshot_.pipeline = std::move(report);
    detail::hand_over_step(sink_, events_, last_snapshot_, step_);
    ++step_;
}

void PipelineTrainer::emit(const TraceEvent& event) {
    events_.push_back(event);
}

PipelineReport PipelineTrainer::report() const {
    PipelineReport r = totals_;
    const Ticks end = lanes_.front()->clock;
    if (end > 0)
        r.bubble_fraction = static_cast<double>(bubble_) /
                            (static_cast<double>(end) * static_cast<double>(lanes_.size()));
    for (const auto& l : lanes_)
        r.peak_inflight_microbatches = std::max(r.peak_inflight_microbatches, l->peak);
    return r;
}

RunMetrics PipelineTrainer::metrics() const {
    RunMetrics m;
    m.workers = lanes();
    m.steps = step_;
    m.steps_run = step_;
    m.workers_at_end = m.workers;
    m.samples = m.useful_samples = samples_; // no faults: every sample reaches the model
    summarise_lanes(m, spent_, to_seconds(lanes_.front()->clock), scenario_.energy);
    m.bytes_moved =
        totals_.activation_bytes + totals_.activation_gradient_bytes + totals_.gradient_bytes;
    m.final_loss = last_snapshot_.loss;
    m.final_accuracy = last_snapshot_.accuracy;
    m.replicas_aligned = aligned_;
    m.pipeline = report();
    set_speedup(m, scenario_, model_parallel_baseline_time_s(scenario_, scenario_.steps));
    return m;
}

} // namespace lockstep
