#include "trainers/data_parallel.h"

#include <algorithm>
#include <cstdint>
#include <limits>

// The data-parallel run's accounts: every event goes to its lane's time and, when someone
// listens, to the trace; the run's figures (its metrics, the energy spent so far) are added up
// from them.

namespace lockstep {

void DataParallelTrainer::emit(TraceEvent e) {
    // Events name workers by index; the trace names them by lane, which stays the same when a
    // worker leaves the run.
    e.worker = faults_.lane_of[static_cast<std::size_t>(e.worker)];
    if (half_ != CollectiveHalf::None &&
        (e.kind == EventKind::Send || e.kind == EventKind::Receive || e.kind == EventKind::Reduce ||
         e.kind == EventKind::Wait)) {
        e.half = half_;
        e.layer = half_layer_;
    }
    if (e.peer >= 0 && e.kind != EventKind::Verify) // a Verify's peer is its verdict
        e.peer = faults_.lane_of[static_cast<std::size_t>(e.peer)];
    // Checkpoint phases name the checkpoint they belong to: the state after this step's update.
    if (e.round < 0 &&
        (e.kind == EventKind::CheckpointWrite || e.kind == EventKind::CheckpointSync ||
         e.kind == EventKind::CheckpointCommit))
        e.round = static_cast<int>(std::min<std::int64_t>(step_ + 1, INT32_MAX));
    emit_lane(e);
}

void DataParallelTrainer::emit_lane(const TraceEvent& e) {
    accounts_.spent[static_cast<std::size_t>(e.worker)].add(e);
    if (sink_) {
        scratch_.events.push_back(e);
        scratch_.events.back().ordinal =
            static_cast<int>(std::min<std::int64_t>(ordinal_, INT32_MAX));
    }
}

void DataParallelTrainer::close_round(std::span<const Ticks> from, int bucket) {
    // Per worker, in time order: every gap since `from` is waiting; busy time is the union.
    for (const int w : scratch_.touched) {
        auto& list = scratch_.busy[static_cast<std::size_t>(w)];
        std::sort(list.begin(), list.end()); // a handful of intervals per worker and round
        Ticks at = from[static_cast<std::size_t>(w)];
        Ticks covered = 0;
        for (const auto& [start, end] : list) {
            if (start > at) {
                TraceEvent wait{w, EventKind::Wait, step_, at, start};
                wait.bucket = bucket;
                emit(wait);
            }
            covered += std::max<Ticks>(0, end - std::max(start, at));
            at = std::max(at, end);
        }
        const int lane = faults_.lane_of[static_cast<std::size_t>(w)];
        accounts_.spent[static_cast<std::size_t>(lane)].add(TimeBucket::Communication, covered);
        list.clear();
    }
    scratch_.touched.clear();
}

void DataParallelTrainer::mark_busy(int worker, Ticks start, Ticks end) {
    auto& list = scratch_.busy[static_cast<std::size_t>(worker)];
    if (list.empty())
        scratch_.touched.push_back(worker);
    list.emplace_back(start, end);
}

RunMetrics DataParallelTrainer::metrics() const {
    RunMetrics m;
    m.workers = lanes_;
    m.workers_at_end = scenario_.workers;
    m.steps = step_;
    m.samples = accounts_.samples;
    m.steps_run = steps_run_;
    m.useful_samples = accounts_.samples - accounts_.lost_samples - accounts_.dropped_samples -
                       accounts_.abandoned_samples;
    m.abandoned_steps = accounts_.abandoned_steps;
    m.overflow_steps = accounts_.overflow_steps;
    m.loss_scale = loss_scale_.scale;
    m.precision_gap = accounts_.precision_gap;
    Ticks end = 0;
    for (const auto& w : workers_)
        end = std::max(end, w.clock);
    std::vector<WorkerMetrics> lanes;
    for (const auto& lane : accounts_.spent)
        lanes.push_back(lane.seconds());
    summarise_lanes(m, std::move(lanes), to_seconds(end), scenario_.energy);
    m.checkpoints = accounts_.checkpoints;
    m.checkpoint_bytes = accounts_.checkpoint_bytes;
    m.bytes_moved = accounts_.bytes_moved;
    m.bytes_inter_node = accounts_.bytes_inter_node;
    m.reduce_scatter_bytes = accounts_.reduce_scatter_bytes;
    m.all_gather_bytes = accounts_.all_gather_bytes;
    m.trained = work_ == Work::Train;
    m.final_loss = last_snapshot_.loss;
    m.final_accuracy = last_snapshot_.accuracy;
    m.replicas_aligned = m.trained && aligned_; // times only: nothing was compared
    m.misaligned_steps = accounts_.misaligned_steps;
    m.failures = static_cast<std::int64_t>(faults_.recoveries.size());
    m.lost_steps = accounts_.lost_steps;
    m.lost_worker_s = to_seconds(accounts_.lost_lane_time);
    m.detection_s = to_seconds(accounts_.detection);
    m.recovery_s = to_seconds(accounts_.recovery);
    m.dropped_gradients = accounts_.dropped_gradients;
    m.averagings = accounts_.averagings;
    m.accumulation = scenario_.accumulation();
    m.memory = accounts_.memory;
    m.buckets = bucketed() ? static_cast<int>(collective_.buckets.size()) : 1;
    m.bucket_bytes = largest_bucket_bytes(collective_.buckets, collective_.schedule.count);
    Ticks collective = 0, exposed = 0;
    for (std::size_t lane = 0; lane < accounts_.collective.size(); ++lane) {
        collective += accounts_.collective[lane];
        exposed += accounts_.exposed[lane];
    }
    const auto lanes_counted =
        static_cast<double>(std::max<std::size_t>(1, accounts_.collective.size()));
    m.collective_s = to_seconds(collective) / lanes_counted;
    m.exposed_communication_s = to_seconds(exposed) / lanes_counted;
    m.overlap_fraction =
        collective > 0 ? 1.0 - static_cast<double>(exposed) / static_cast<double>(collective) : 0.0;
    m.max_staleness = accounts_.max_staleness;
    m.mean_staleness = accounts_.applied ? static_cast<double>(accounts_.staleness_total) /
                                               static_cast<double>(accounts_.applied)
                                         : 0.0;
    return m;
}

double DataParallelTrainer::energy_so_far() const {
    Ticks now = 0;
    for (const auto& w : workers_)
        now = std::max(now, w.clock);
    std::vector<WorkerMetrics> lanes;
    lanes.reserve(accounts_.spent.size());
    for (const auto& lane : accounts_.spent)
        lanes.push_back(lane.seconds());
    return energy_joules(lanes, to_seconds(now), scenario_.energy);
}

std::vector<ReplicaState> DataParallelTrainer::replicas() const {
    std::vector<ReplicaState> out;
    out.reserve(workers_.size());
    for (const Worker& w : workers_)
        out.push_back({layer_sharded()
                           ? assembled_parameters()
                           : std::vector<double>(w.parameters.begin(), w.parameters.end()),
                       w.optimizer.state(), w.cursor.shard(), w.clock});
    return out;
}

void DataParallelTrainer::note_memory() {
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        const Worker& w = workers_[k];
        const auto lane = static_cast<std::size_t>(faults_.lane_of[k]);
        if (accounts_.memory.size() <= lane)
            accounts_.memory.resize(lane + 1);
        WorkerMemory& m = accounts_.memory[lane];
        note_resident({w.parameters, w.gathered, w.gradient, w.shard_gradient, w.layer_gradient,
                       w.optimizer.state(), w.scratch},
                      m);
        if (sink_ && work_ == Work::Train)
            scratch_.memory.push_back({static_cast<int>(lane), w.clock, m.parameters, m.gradients,
                                       m.optimizer, m.activations, m.workspace});
    }
}

} // namespace lockstep
