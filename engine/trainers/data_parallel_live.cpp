// Overlap on the measured clock, with real threads: while the workers' tasks run backward, a
// communication thread reduces each bucket as soon as every worker has finished its layers. The
// layers' gradients are handed over from inside backward (model's LayerDone), so a bucket's bytes
// move between the worker buffers while the layers below it are still being computed.
//
// Nothing here waits inside a TBB task: the worker tasks only count a bucket ready and go on; the
// communication thread is a plain thread with an arena of its own, so it never picks up a
// worker's task and a worker never waits for it. The step joins it after the tasks.
#include "trainers/data_parallel.h"

#include "clocks/cost_model.h"
#include "collectives/reduction.h"
#include "trainers/overlap.h"

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <functional>

namespace lockstep {

namespace {

using HandOver = std::function<void(std::size_t worker, std::size_t layer)>;

// Layer `l`'s part of a vector in the model's flat layout (its parameters or its gradient).
template <class T>
std::span<T> layer_part(const ModelShape& model, std::span<T> all, std::size_t l) {
    return all.subspan(model.weight_offset(l), model.weight_offset(l + 1) - model.weight_offset(l));
}

// The workers' passes one layer at a time, forward and backward, each layer on every worker
// before the next begins: the workers compute together, as on machines of their own. With fewer
// cores than workers a bucket is then ready everywhere as soon as its layer is, and not only once
// the last worker to get a core reaches it: with one whole pass per task, two cores run two
// workers' passes to the end before the other two begin, and only the last pair's backward is
// left to hide the buckets behind. On the trace every worker's computation begins when the
// step's does, and each layer's backward ends when that worker's gradient of it is final. The
// arithmetic is the whole pass cut at the layers (model/layer_range.cpp) in the same chunks, so
// the bits are the same. A float32 model's pass has no layer-by-layer form yet and goes whole.
void passes_in_lockstep(std::vector<Worker>& workers, const Scenario& scenario, const Dataset& data,
                        std::size_t micro, const Clock& clock, std::span<Ticks> started,
                        std::span<Ticks> ended, const HandOver& hand_over) {
    const ModelShape& model = scenario.model;
    const std::size_t n = workers.size();
    const std::size_t layers = model.layer_count();
    auto layer_of = [&](const Worker& w, std::size_t l) {
        return layer_part(model, std::span<const double>(w.parameters), l);
    };
    auto each = [&](const auto& f) { tbb::parallel_for(std::size_t{0}, n, f); };
    std::vector<LossResult> loss(n);
    const Ticks began = clock.now(); // every worker's pass, together
    std::fill(started.begin(), started.end(), began);
    for (std::size_t m = 0; m < micro; ++m) {
        const bool last = m + 1 == micro;
        each([&](std::size_t k) {
            Worker& w = workers[k];
            begin_layer_batch(model, data, w.cursor, scenario.batch_of(static_cast<int>(k)),
                              w.scratch);
        });
        for (std::size_t l = 0; l < layers; ++l)
            each([&](std::size_t k) {
                Worker& w = workers[k];
                forward_layer(model, w.scratch, layer_of(w, l), l, w.last);
                if (l + 1 == layers)
                    add_micro_loss(loss[k], w.last, m, micro);
            });
        for (std::size_t k = 0; last && k < n; ++k)
            hand_over(k, layers); // every worker's backward begins
        for (std::size_t l = layers; l-- > 0;)
            each([&](std::size_t k) {
                Worker& w = workers[k];
                backward_layer(model, w.scratch, layer_of(w, l), l, w.layer_gradient);
                std::vector<double>& g = w.layer_gradient.gradient;
                accumulate_layer(model, l, m, micro, g, w.scratch);
                if (!last)
                    return;
                std::ranges::copy(g, layer_part(model, std::span<double>(w.gradient), l).begin());
                hand_over(k, l);
                if (l == 0)
                    ended[k] = clock.now();
            });
    }
    for (std::size_t k = 0; k < n; ++k)
        workers[k].last = loss[k];
}

} // namespace

// Real overlap needs the plain bulk-synchronous step: every worker computes to the end at its
// own speed. Slowed, paused, crashing, late (backup) or misordering workers, and textbook
// communication, take the step where their behaviour is written: buckets after backward.
bool DataParallelTrainer::live_overlap(std::span<const Ticks> pause) const {
    if (clock_->kind() != ClockKind::Measured || !bucketed() || !scenario_.gradients->overlap ||
        work_ != Work::Train || workers_.size() < 2 || scenario_.algorithm == Algorithm::None ||
        scenario_.sync_mode() != SyncMode::Bsp || scenario_.cost.communication_s_per_step ||
        faults_.crashing >= 0 || faults_.misordering >= 0 || scenario_.failures.backup_workers > 0)
        return false;
    for (std::size_t k = 0; k < workers_.size(); ++k)
        if (pause[k] > 0 || scenario_.slowdown_of(static_cast<int>(k)) != 1.0)
            return false;
    return true;
}

void DataParallelTrainer::compute_live(std::span<Ticks> started, std::span<Ticks> ended,
                                       std::size_t micro) {
    const auto n = workers_.size();
    const std::size_t layers = scenario_.model.layer_count();
    const Clock& clock = *clock_;
    auto& live = scratch_.live;
    live.ran = true;
    live.backward_from.assign(n, 0);
    live.layer_done.assign(n, std::vector<Ticks>(layers, 0));
    live.events.clear();
    live.lane_end.assign(n, 0);
    live.busy.assign(n, 0);
    live.rounds.assign(n, {});

    std::vector<std::span<double>> buffers;
    for (auto& w : workers_)
        buffers.emplace_back(w.gradient);
    transport_.attach(buffers);

    // One bucket's rounds, every worker's part of each, timed (and paced) on this thread.
    tbb::task_arena own(1); // large messages split into tasks here, never the workers'
    auto reduce = [&](std::size_t b) {
        const Bucket& bucket = collective_.buckets[b];
        const CommSchedule& schedule = collective_.bucket_schedules[b];
        for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
            const Round& round = schedule.rounds[r];
            const Ticks start = clock.now();
            own.execute([&] {
                for (std::size_t k = 0; k < n; ++k)
                    transport_.execute(round, static_cast<int>(k), buffers[k]);
            });
            if (scenario_.cost.paced_links)
                clock.wait_until(start + paced_round(round), stop_);
            const Ticks end = clock.now();
            const std::size_t from = live.events.size();
            std::vector<char> in_round(n, 0);
            for (const Message& m : round.messages) {
                live.events.push_back({m.src, EventKind::Send, step_, start, end, m.bytes(), m.dst,
                                       static_cast<int>(r)});
                live.events.push_back({m.dst, EventKind::Receive, step_, start, end, m.bytes(),
                                       m.src, static_cast<int>(r)});
                in_round[static_cast<std::size_t>(m.src)] = 1;
                in_round[static_cast<std::size_t>(m.dst)] = 1;
            }
            name_bucket(std::span(live.events).subspan(from), bucket);
            for (std::size_t k = 0; k < n; ++k)
                if (in_round[k]) {
                    live.busy[k] += end - start;
                    live.lane_end[k] = end;
                    live.rounds[k].emplace_back(start, end);
                }
        }
    };
    // Each worker's backward hands its layers over: scaled by the rule's weight, then counted.
    BucketGate gate(collective_.buckets, layers, n);
    const HandOver hand_over = [&](std::size_t k, std::size_t l) {
        if (l == layers) {
            live.backward_from[k] = clock.now();
            return;
        }
        const std::span<double> layer =
            layer_part(scenario_.model, std::span<double>(workers_[k].gradient), l);
        scale_contribution(layer, collective_.weights[k] * loss_scale_.scale);
        round_to(scenario_.wire_precision(), layer);
        live.layer_done[k][l] = clock.now();
        gate.layer_done(l);
    };
    auto compute = [&] {
        if (scenario_.model.precision == Precision::Float64)
            return passes_in_lockstep(workers_, scenario_, *data_, micro, clock, started, ended,
                                      hand_over);
        tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
            const LayerDone done = [&](std::size_t l) { hand_over(k, l); };
            started[k] = clock.now();
            compute_gradient(workers_[k], scenario_.batch_of(static_cast<int>(k)), micro, &done);
            ended[k] = clock.now();
        });
    };
    reduce_beside(gate, collective_.buckets.size(), compute, reduce);
}

// The computation as it really went: until the last rows' backward began, then each layer's
// backward from the end of the one above it, last layer first.
void DataParallelTrainer::emit_live_computation(int id, Ticks start, Ticks took, double gradient0) {
    const auto k = static_cast<std::size_t>(id);
    for (const TraceEvent& e :
         computation_events(id, step_, start, scratch_.live.backward_from[k],
                            scratch_.live.layer_done[k], start + took, gradient0))
        emit(e);
}

// Once both are over: the worker's lane goes on from where its computation and its last round
// ended; what it waited for after backward and did not spend in a round is waiting. Its exposed
// communication is the part of its rounds after its own computation ended (a wait for a slower
// worker's backward is waiting, not communication).
void DataParallelTrainer::account_live(std::span<const Ticks> computed) {
    auto& live = scratch_.live;
    count_moved(collective_.bytes, collective_.inter_bytes);
    for (const TraceEvent& e : live.events)
        emit(e);
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        const auto lane = static_cast<std::size_t>(faults_.lane_of[k]);
        auto& spent = accounts_.spent[lane];
        spent.add(TimeBucket::Communication, live.busy[k]);
        workers_[k].clock = std::max(computed[k], live.lane_end[k]);
        Ticks after = 0; // in rounds, after its computation
        for (const auto& [start, end] : live.rounds[k])
            after += std::max<Ticks>(0, end - std::max(start, computed[k]));
        spent.add(TimeBucket::Waiting, std::max<Ticks>(0, workers_[k].clock - computed[k] - after));
        accounts_.collective[lane] += live.busy[k];
        accounts_.exposed[lane] += after;
    }
    live.ran = false;
}

std::vector<Ticks> DataParallelTrainer::communication_ticks() const {
    std::vector<Ticks> ticks;
    for (std::size_t k = 0; k < workers_.size(); ++k)
        ticks.push_back(accounts_.spent[static_cast<std::size_t>(faults_.lane_of[k])]
                            .ticks[static_cast<std::size_t>(TimeBucket::Communication)]);
    return ticks;
}

void DataParallelTrainer::account_measured_exposure(std::span<const Ticks> busy_before) {
    const std::vector<Ticks> now = communication_ticks();
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        const auto lane = static_cast<std::size_t>(faults_.lane_of[k]);
        accounts_.collective[lane] += now[k] - busy_before[k];
        accounts_.exposed[lane] += now[k] - busy_before[k];
    }
}

// A paced round lasts its slowest message's price, that message's links slowed as they are.
Ticks DataParallelTrainer::paced_round(const Round& round) const {
    Ticks longest = 0;
    for (const Message& m : round.messages) {
        const double slow = std::max(faults_.link_factor[static_cast<std::size_t>(
                                         faults_.lane_of[static_cast<std::size_t>(m.src)])],
                                     faults_.link_factor[static_cast<std::size_t>(
                                         faults_.lane_of[static_cast<std::size_t>(m.dst)])]);
        const LinkPrice link =
            link_between(scenario_.cost, faults_.lane_of[static_cast<std::size_t>(m.src)],
                         faults_.lane_of[static_cast<std::size_t>(m.dst)]);
        const MessagePrice price = price_message(scenario_.cost, link, m.bytes(), m.op, slow);
        longest = std::max(longest, price.transfer + price.reduce);
    }
    return longest;
}

} // namespace lockstep
