#include "trainers/data_parallel.h"

#include "clocks/cost_model.h"
#include "trainers/overlap.h"

#include <algorithm>
#include <cstdint>

// The time the collective takes, the one phase whose time the two clocks find differently: the
// modelled clock prices the schedule among the workers' lanes, the measured clock times each real
// round as the transport runs it.

namespace lockstep {

void DataParallelTrainer::price_schedule() {
    price_schedule(collective_.schedule);
}

void DataParallelTrainer::price_schedule(const CommSchedule& schedule) {
    // The cost model prices the rounds among the workers' lanes; the trainer keeps the account.
    const auto n = workers_.size();
    std::vector<Ticks> clocks(n);
    std::vector<double> slow(n);
    for (std::size_t k = 0; k < n; ++k) {
        clocks[k] = workers_[k].clock;
        slow[k] = faults_.link_factor[static_cast<std::size_t>(faults_.lane_of[k])];
    }
    scratch_.priced.clear();
    const CollectiveTime time =
        lockstep::price_schedule(schedule, {faults_.lane_of, clocks, slow}, scenario_.cost, step_,
                                 0, sink_ ? &scratch_.priced : nullptr);
    for (std::size_t k = 0; k < n; ++k) {
        workers_[k].clock = clocks[k];
        auto& spent = accounts_.spent[static_cast<std::size_t>(faults_.lane_of[k])];
        spent.add(TimeBucket::Communication, time.busy[k]);
        spent.add(TimeBucket::Waiting, time.waiting[k]);
    }
    for (TraceEvent& e : scratch_.priced) {
        e.ordinal = static_cast<int>(std::min<std::int64_t>(ordinal_, INT32_MAX));
        if (half_ != CollectiveHalf::None) { // a sharded run's half, named as emit() names it
            e.half = half_;
            e.layer = half_layer_;
        }
        scratch_.events.push_back(e);
    }
}

std::int64_t DataParallelTrainer::inter_node_bytes(const CommSchedule& schedule) const {
    return schedule.bytes_between_nodes(collective_.nodes);
}

void DataParallelTrainer::count_moved(std::int64_t bytes, std::int64_t inter) {
    accounts_.bytes_moved += bytes;
    accounts_.bytes_inter_node += inter;
}

void DataParallelTrainer::run_measured_collective() {
    run_measured_collective(collective_.schedule, -1);
}

void DataParallelTrainer::run_measured_collective(const CommSchedule& schedule, int bucket,
                                                  bool on_parameters) {
    std::vector<std::span<double>> buffers;
    for (auto& w : workers_)
        buffers.emplace_back(on_parameters ? w.parameters : w.gradient);
    run_measured_collective(schedule, buffers, bucket);
}

void DataParallelTrainer::run_measured_collective(const CommSchedule& schedule,
                                                  std::span<const std::span<double>> buffers,
                                                  int bucket) {
    transport_.attach(buffers);
    const auto n = workers_.size();
    for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
        const Round& round = schedule.rounds[r];
        scratch_.round_start.resize(n);
        for (std::size_t k = 0; k < n; ++k)
            scratch_.round_start[k] = workers_[k].clock;
        const Ticks start = clock_->now();
        transport_.run_round(round);
        if (scenario_.cost.paced_links)
            clock_->wait_until(start + paced_round(round), stop_);
        const Ticks end = clock_->now();
        const int ri = static_cast<int>(r);
        for (const auto& m : round.messages) {
            TraceEvent send{m.src, EventKind::Send, step_, start, end, m.bytes(), m.dst, ri};
            TraceEvent receive{m.dst, EventKind::Receive, step_, start, end, m.bytes(), m.src, ri};
            if (bucket >= 0) {
                const Bucket& b = collective_.buckets[static_cast<std::size_t>(bucket)];
                name_bucket(std::span(&send, 1), b);
                name_bucket(std::span(&receive, 1), b);
            }
            emit(send);
            emit(receive);
            mark_busy(m.src, start, end);
            mark_busy(m.dst, start, end);
            workers_[static_cast<std::size_t>(m.src)].clock =
                std::max(workers_[static_cast<std::size_t>(m.src)].clock, end);
            workers_[static_cast<std::size_t>(m.dst)].clock =
                std::max(workers_[static_cast<std::size_t>(m.dst)].clock, end);
        }
        close_round(scratch_.round_start, bucket);
    }
}

} // namespace lockstep
