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

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace lockstep {

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

    // The bucket a layer completes: bucket b is ready on a worker once its first layer is done
    // (backward runs last layer first).
    std::vector<int> completes(layers, -1);
    for (const Bucket& b : collective_.buckets)
        completes[b.first_layer] = b.id;
    const std::size_t buckets = collective_.buckets.size();
    std::vector<std::size_t> ready(buckets, 0); // workers done with each bucket
    std::mutex mutex;
    std::condition_variable changed;
    bool abandon = false;

    std::vector<std::span<double>> buffers;
    for (auto& w : workers_)
        buffers.emplace_back(w.gradient);
    transport_.attach(buffers);

    std::exception_ptr failed;
    std::thread communication([&] {
        try {
            tbb::task_arena own(1); // large messages split into tasks here, never the workers'
            own.execute([&] {
                for (std::size_t b = 0; b < buckets; ++b) {
                    {
                        std::unique_lock lock(mutex);
                        changed.wait(lock, [&] { return ready[b] == n || abandon; });
                        if (abandon)
                            return;
                    }
                    const Bucket& bucket = collective_.buckets[b];
                    const CommSchedule& schedule = collective_.bucket_schedules[b];
                    for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
                        const Round& round = schedule.rounds[r];
                        const Ticks start = clock.now();
                        for (std::size_t k = 0; k < n; ++k)
                            transport_.execute(round, static_cast<int>(k), buffers[k]);
                        if (scenario_.cost.paced_links)
                            clock.wait_until(start + paced_round(round), stop_);
                        const Ticks end = clock.now();
                        std::vector<char> in_round(n, 0);
                        for (const Message& m : round.messages) {
                            for (const auto& [who, peer, kind] :
                                 {std::tuple{m.src, m.dst, EventKind::Send},
                                  std::tuple{m.dst, m.src, EventKind::Receive}}) {
                                TraceEvent e{who, kind,      step_, start,
                                             end, m.bytes(), peer,  static_cast<int>(r)};
                                e.bucket = bucket.id;
                                e.layer = static_cast<int>(bucket.first_layer);
                                e.layer_end = static_cast<int>(bucket.end_layer);
                                live.events.push_back(e);
                                in_round[static_cast<std::size_t>(who)] = 1;
                            }
                        }
                        for (std::size_t k = 0; k < n; ++k)
                            if (in_round[k]) {
                                live.busy[k] += end - start;
                                live.lane_end[k] = end;
                                live.rounds[k].emplace_back(start, end);
                            }
                    }
                }
            });
        } catch (...) {
            failed = std::current_exception();
        }
    });

    try {
        tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
            Worker& w = workers_[k];
            const double weight = collective_.weights[k];
            const LayerDone hand_over = [&](std::size_t l) {
                if (l == layers) {
                    live.backward_from[k] = clock.now();
                    return;
                }
                const ModelShape& model = scenario_.model;
                const std::size_t from = model.weight_offset(l);
                scale_contribution(
                    std::span(w.gradient).subspan(from, model.weight_offset(l + 1) - from), weight);
                live.layer_done[k][l] = clock.now();
                if (completes[l] < 0)
                    return;
                {
                    const std::lock_guard lock(mutex);
                    ++ready[static_cast<std::size_t>(completes[l])];
                }
                changed.notify_one();
            };
            started[k] = clock.now();
            compute_gradient(w, scenario_.batch_of(static_cast<int>(k)), micro, &hand_over);
            ended[k] = clock.now();
        });
    } catch (...) {
        {
            const std::lock_guard lock(mutex);
            abandon = true;
        }
        changed.notify_one();
        communication.join();
        throw;
    }
    communication.join();
    if (failed)
        std::rethrow_exception(failed);
}

// The computation as it really went: until the last rows' backward began, then each layer's
// backward from the end of the one above it, last layer first.
void DataParallelTrainer::emit_live_computation(int id, Ticks start, Ticks took, double gradient0) {
    const auto& live = scratch_.live;
    const auto k = static_cast<std::size_t>(id);
    const Ticks end = start + took;
    auto within = [&](Ticks t) { return std::clamp(t, start, end); };
    Ticks at = within(live.backward_from[k]);
    emit({id, EventKind::Compute, step_, start, at, 0, -1, -1, gradient0});
    for (std::size_t l = live.layer_done[k].size(); l-- > 0;) {
        const Ticks done = l == 0 ? end : within(live.layer_done[k][l]);
        TraceEvent e{id, EventKind::Backward, step_, at, done, 0, -1, -1, gradient0};
        e.layer = static_cast<int>(l);
        emit(e);
        at = done;
    }
}

// Once both are over: the worker's lane goes on from where its computation and its last round
// ended; what it waited for after backward and did not spend in a round is waiting. Its exposed
// communication is the part of its rounds after its own computation ended (a wait for a slower
// worker's backward is waiting, not communication).
void DataParallelTrainer::account_live(std::span<const Ticks> computed) {
    auto& live = scratch_.live;
    accounts_.bytes_moved += collective_.bytes;
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
        const MessagePrice price = price_message(scenario_.cost, m.bytes(), m.op, slow);
        longest = std::max(longest, price.transfer + price.reduce);
    }
    return longest;
}

} // namespace lockstep
