// Sharded data parallelism at 8 workers: an MLP 2,512 x 4,3 (791,043 parameters, its largest
// layer 262,656) trained for a few steps with Adam over the ring, once per ZeRO stage. Reports,
// for the worker that holds the most, the bytes of each kind read off its buffers after a step,
// the peak of everything, and the most parameter bytes it held at once; the bytes the run moved
// against the unsharded run's; and the wall time per step. Target (stage 3): the peak parameter
// memory at most 1/8 of the model (rounded up to a whole value) plus the largest layer.
#include "runs/runs.h"
#include "trainers/run.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace {

struct Figures {
    lockstep::WorkerMemory most;
    std::int64_t bytes_moved = 0;
    double wall_ms_per_step = 0.0;
    double final_loss = 0.0;
};

lockstep::Scenario scenario(lockstep::Sharding stage) {
    lockstep::Scenario s;
    s.workers = 8;
    s.steps = 4;
    s.batch = 32;
    s.algorithm = lockstep::Algorithm::Ring;
    s.model.layers = {2, 512, 512, 512, 512, 3};
    s.dataset.name = "spiral";
    s.optimizer.kind = lockstep::OptimizerKind::Adam;
    s.optimizer.learning_rate = 0.001;
    s.sharding = stage;
    lockstep::validate(s);
    return s;
}

Figures run_once(lockstep::Sharding stage) {
    const lockstep::Scenario s = scenario(stage);
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    auto run = lockstep::make_run(s, lockstep::load_dataset(s), nullptr);
    tbb::task_arena arena(2);
    const auto start = std::chrono::steady_clock::now();
    arena.execute([&] { run->run_to_end(); });
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    const lockstep::RunMetrics m = run->metrics();
    Figures f;
    for (const lockstep::WorkerMemory& w : m.memory)
        if (w.peak > f.most.peak)
            f.most = w;
    f.bytes_moved = m.bytes_moved;
    f.wall_ms_per_step = took.count() / static_cast<double>(s.steps);
    f.final_loss = m.final_loss;
    return f;
}

} // namespace

int main() {
    const lockstep::ModelShape model = scenario(lockstep::Sharding::None).model;
    const auto parameters = static_cast<std::int64_t>(model.parameter_count());
    std::int64_t largest = 0;
    for (std::size_t l = 0; l < model.layer_count(); ++l)
        largest = std::max(largest, static_cast<std::int64_t>(model.weight_offset(l + 1) -
                                                              model.weight_offset(l)));
    const std::int64_t limit = ((parameters + 7) / 8 + largest) * 8;
    std::int64_t unsharded_bytes = 0;
    bool met = true;
    for (lockstep::Sharding stage :
         {lockstep::Sharding::None, lockstep::Sharding::Optimizer, lockstep::Sharding::Gradients,
          lockstep::Sharding::Parameters}) {
        const Figures f = run_once(stage);
        if (stage == lockstep::Sharding::None)
            unsharded_bytes = f.bytes_moved;
        const bool checked = stage == lockstep::Sharding::Parameters;
        if (checked)
            met = f.most.parameters_peak <= limit;
        std::printf(
            "{\"bench\":\"sharding\",\"stage\":\"%s\",\"workers\":8,\"parameters\":%lld,"
            "\"largest_layer\":%lld,\"resident\":{\"parameters\":%lld,\"gradients\":%lld,"
            "\"optimizer\":%lld,\"activations\":%lld,\"workspace\":%lld},\"peak\":%lld,"
            "\"parameters_peak\":%lld,\"parameters_peak_limit\":%lld,"
            "\"bytes_moved\":%lld,\"bytes_vs_unsharded\":%.3f,"
            "\"wall_ms_per_step\":%.1f,\"final_loss\":%.17g%s}\n",
            std::string(lockstep::to_string(stage)).c_str(), static_cast<long long>(parameters),
            static_cast<long long>(largest), static_cast<long long>(f.most.parameters),
            static_cast<long long>(f.most.gradients), static_cast<long long>(f.most.optimizer),
            static_cast<long long>(f.most.activations), static_cast<long long>(f.most.workspace),
            static_cast<long long>(f.most.peak), static_cast<long long>(f.most.parameters_peak),
            static_cast<long long>(limit), static_cast<long long>(f.bytes_moved),
            static_cast<double>(f.bytes_moved) / static_cast<double>(unsharded_bytes),
            f.wall_ms_per_step, f.final_loss,
            checked ? (met ? ",\"target_met\":true" : ",\"target_met\":false") : "");
    }
    return met ? 0 : 1;
}
