// Gradient buckets: a worker's backward pass finishes the layers' gradients last layer first;
// each bucket's collective runs on the worker's communication lane as soon as the bucket's layers
// are done on every worker it waits for, while backward goes on with the earlier layers (or,
// without overlap, once backward has ended). The bytes move bucket by bucket between the worker
// buffers; the cost model prices each bucket's schedule from where each lane stands.
#include "trainers/data_parallel.h"

#include "clocks/cost_model.h"
#include "trainers/overlap.h"

#include <algorithm>
#include <cstdint>

namespace lockstep {

namespace {

// A computation of `took` with K accumulated micro-batches: the first K - 1, which send nothing,
// then the last one's forward and backward layer by layer, where the buckets' ready times lie.
struct Computation {
    Ticks earlier = 0;
    LayerCosts last;
};

Computation split_computation(std::span<const std::size_t> layer_parameters, Ticks took,
                              Ticks micro_batches) {
    const Ticks earlier = took / micro_batches * (micro_batches - 1);
    return {earlier, price_layers(layer_parameters, took - earlier)};
}

} // namespace

void DataParallelTrainer::emit_computation(int id, Ticks start, Ticks took, double gradient0) {
    if (scratch_.live.ran)
        return emit_live_computation(id, start, took, gradient0);
    if (!bucketed() || clock_->kind() != ClockKind::Modelled) {
        emit({id, EventKind::Compute, step_, start, start + took, 0, -1, -1, gradient0});
        return;
    }
    // Accumulated micro-batches before the last one communicate nothing: one computation.
    const auto [earlier, c] =
        split_computation(collective_.layer_parameters, took, scenario_.accumulation());
    if (earlier > 0)
        emit({id, EventKind::Compute, step_, start, start + earlier, 0, -1, -1, gradient0});
    Ticks at = start + earlier;
    emit({id, EventKind::Forward, step_, at, at + c.forward, 0, -1, -1, gradient0});
    at += c.forward;
    for (std::size_t l = c.backward.size(); l-- > 0;) {
        TraceEvent e{id, EventKind::Backward, step_, at, at + c.backward[l], 0, -1, -1, gradient0};
        e.layer = static_cast<int>(l);
        emit(e);
        at += c.backward[l];
    }
}

bool DataParallelTrainer::reduce_buckets() {
    const auto n = workers_.size();
    const bool train = work_ == Work::Train;
    std::vector<std::span<double>> buffers;
    buffers.reserve(n);
    for (auto& w : workers_)
        buffers.emplace_back(w.gradient);
    std::vector<Ticks> computed(n), lane(n, 0), spent(n, 0), busy(n, 0);
    for (std::size_t k = 0; k < n; ++k)
        computed[k] = workers_[k].clock;

    if (scratch_.live.ran) { // already reduced, beside backward
        account_live(computed);
        return true;
    }
    if (clock_->kind() == ClockKind::Measured) {
        // The real rounds, timed, bucket after bucket once backward is over.
        if (faults_.misordering >= 0) {
            stop_at_bucket_mismatch(faults_.misordering, computed, {});
            return false;
        }
        count_moved(collective_.bytes, collective_.inter_bytes);
        const std::vector<Ticks> before = communication_ticks();
        for (std::size_t b = 0; b < collective_.buckets.size(); ++b)
            run_measured_collective(collective_.bucket_schedules[b], static_cast<int>(b));
        account_measured_exposure(before);
        return true;
    }

    // When each worker's backward finishes bucket b's layers: its computation's last
    // micro-batch, forward then backward from the last layer, as emit_computation() drew it.
    const bool overlap = scenario_.gradients->overlap;
    std::vector<std::vector<Ticks>> ready(n);
    for (std::size_t k = 0; k < n; ++k) {
        const Ticks took = scratch_.computed_took[k];
        if (!overlap || took < 0) {
            ready[k].assign(collective_.buckets.size(), computed[k]);
            continue;
        }
        const auto [earlier, c] =
            split_computation(collective_.layer_parameters, took, scenario_.accumulation());
        Ticks at = scratch_.computed_from[k] + earlier + c.forward;
        std::size_t layer = c.backward.size();
        for (const Bucket& bucket : collective_.buckets) {
            while (layer > bucket.first_layer)
                at += c.backward[--layer];
            ready[k].push_back(at);
        }
    }
    if (faults_.misordering >= 0) {
        stop_at_bucket_mismatch(faults_.misordering, computed, ready);
        return false;
    }
    if (train)
        count_moved(collective_.bytes, collective_.inter_bytes); // times only: nothing
    std::vector<Ticks> clocks(n), began(n);
    for (std::size_t b = 0; b < collective_.buckets.size(); ++b) {
        const CommSchedule& schedule = collective_.bucket_schedules[b];
        if (train)
            run_all_reduce(schedule, transport_, buffers);
        for (std::size_t k = 0; k < n; ++k)
            began[k] = clocks[k] = std::max(lane[k], ready[k][b]);
        const std::vector<Ticks> took = price_bucket(schedule, clocks, static_cast<int>(b));
        for (std::size_t k = 0; k < n; ++k) {
            spent[k] += clocks[k] - began[k];
            busy[k] += took[k];
            lane[k] = clocks[k];
        }
    }
    // What the worker waits for once its backward is over and is not spent communicating is
    // waiting; a wait on the communication row while backward goes on costs nothing.
    for (std::size_t k = 0; k < n; ++k) {
        workers_[k].clock = std::max(computed[k], lane[k]);
        const Ticks exposed = workers_[k].clock - computed[k];
        accounts_.spent[static_cast<std::size_t>(faults_.lane_of[k])].add(
            TimeBucket::Waiting, std::max<Ticks>(0, exposed - busy[k]));
    }
    account_exposure(computed, spent);
    return true;
}

void DataParallelTrainer::stop_at_bucket_mismatch(int misordered, std::span<const Ticks> computed,
                                                  const std::vector<std::vector<Ticks>>& ready) {
    faults_.misordering = -1;
    const auto n = workers_.size();
    const auto odd = static_cast<std::size_t>(misordered);
    // Every other worker reduces bucket 0 first; this one offers bucket 1. The first message of
    // bucket 0's schedule that it sends or receives carries the other bucket's id.
    const Message* first = nullptr;
    for (const Round& round : collective_.bucket_schedules[0].rounds) {
        for (const Message& m : round.messages)
            if (static_cast<std::size_t>(m.src) == odd || static_cast<std::size_t>(m.dst) == odd) {
                first = &m;
                break;
            }
        if (first)
            break;
    }
    const auto src = static_cast<std::size_t>(first->src);
    const auto dst = static_cast<std::size_t>(first->dst);
    const int sent = src == odd ? 1 : 0;     // the bucket the message names
    const int expected = dst == odd ? 1 : 0; // the one its receiver reduces
    auto ready_at = [&](std::size_t k, int bucket) {
        return ready.empty() ? computed[k] : ready[k][static_cast<std::size_t>(bucket)];
    };
    const Ticks from = std::max(ready_at(src, sent), ready_at(dst, expected));
    const double slow =
        std::max(faults_.link_factor[static_cast<std::size_t>(faults_.lane_of[src])],
                 faults_.link_factor[static_cast<std::size_t>(faults_.lane_of[dst])]);
    const LinkPrice link = link_between(scenario_.cost, faults_.lane_of[src], faults_.lane_of[dst]);
    Ticks seen =
        from + price_message(scenario_.cost, link, first->bytes(), first->op, slow).transfer;
    if (clock_->kind() == ClockKind::Measured)
        seen = std::max(clock_->now(), from);
    TraceEvent send{first->src, EventKind::Send, step_, from, seen, first->bytes(), first->dst, 0};
    TraceEvent receive{first->dst, EventKind::Receive, step_,      from,
                       seen,       first->bytes(),     first->src, 0};
    name_bucket(std::span(&send, 1), collective_.buckets[static_cast<std::size_t>(sent)]);
    name_bucket(std::span(&receive, 1), collective_.buckets[static_cast<std::size_t>(sent)]);
    emit(send);
    emit(receive);
    if (work_ == Work::Train)
        count_moved(first->bytes(),
                    collective_.nodes[src] != collective_.nodes[dst] ? first->bytes() : 0);
    TraceEvent mismatch{first->dst, EventKind::Mismatch,      step_, seen, seen, 0, first->src,
                        0,          static_cast<double>(sent)};
    mismatch.bucket = expected;
    emit(mismatch);
    // The receiver stops the step and says so; nobody adds anything, nobody updates.
    for (std::size_t k = 0; k < n; ++k)
        workers_[k].clock = std::max(workers_[k].clock, seen);
    std::vector<Ticks> spent(n);
    for (std::size_t k = 0; k < n; ++k)
        spent[k] = workers_[k].clock - computed[k];
    account_exposure(computed, spent);
    ++accounts_.abandoned_steps;
    std::int64_t samples = 0;
    for (std::size_t k = 0; k < n; ++k)
        samples += static_cast<std::int64_t>(samples_of(static_cast<int>(k)));
    accounts_.abandoned_samples += samples;
}

// One bucket's schedule priced from `clocks` (advanced to its end); its events name the bucket.
// Returns each worker's busy time in it, accounted as communication.
std::vector<Ticks> DataParallelTrainer::price_bucket(const CommSchedule& schedule,
                                                     std::span<Ticks> clocks, int bucket) {
    const auto n = workers_.size();
    std::vector<double> slow(n);
    for (std::size_t k = 0; k < n; ++k)
        slow[k] = faults_.link_factor[static_cast<std::size_t>(faults_.lane_of[k])];
    scratch_.priced.clear();
    const CollectiveTime time =
        lockstep::price_schedule(schedule, {faults_.lane_of, clocks, slow}, scenario_.cost, step_,
                                 0, sink_ ? &scratch_.priced : nullptr);
    for (std::size_t k = 0; k < n; ++k)
        accounts_.spent[static_cast<std::size_t>(faults_.lane_of[k])].add(TimeBucket::Communication,
                                                                          time.busy[k]);
    name_bucket(scratch_.priced, collective_.buckets[static_cast<std::size_t>(bucket)]);
    for (TraceEvent& e : scratch_.priced) {
        e.ordinal = static_cast<int>(std::min<std::int64_t>(ordinal_, INT32_MAX));
        scratch_.events.push_back(e);
    }
    return time.busy;
}

// Per worker: `computed` where its computation ended, `collective` how long its collectives took;
// its clock now stands where they ended. The exposed part is what it spent after its computation.
void DataParallelTrainer::account_exposure(std::span<const Ticks> computed,
                                           std::span<const Ticks> collective) {
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        const auto lane = static_cast<std::size_t>(faults_.lane_of[k]);
        const Ticks exposed = std::max<Ticks>(0, workers_[k].clock - computed[k]);
        accounts_.collective[lane] += collective[k];
        accounts_.exposed[lane] += exposed;
    }
}

} // namespace lockstep
