#pragma once

#include "clocks/clock.h"
#include "collectives/reduction.h"
#include "collectives/schedule.h"
#include "failures/failure.h"
#include "model/model.h"
#include "model/optimizer.h"
#include "scenario/parallelism.h"
#include "scenario/sync_mode.h"
#include "scenario/topology.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep {

// Hard limits that keep a scenario from asking for absurd sizes. Every field's allowed range is
// checked against these by validate().
struct ScenarioLimits {
    static constexpr int max_workers = 256;
    static constexpr std::int64_t max_steps = 1'000'000;
    static constexpr std::size_t max_batch = 65'536;
    static constexpr int max_layer_width = 4096;
    static constexpr std::size_t max_layers = 16;
    static constexpr std::size_t max_parameters = 16'000'000;
    static constexpr std::size_t max_samples = 1'000'000;
    static constexpr std::int64_t max_checkpoints_kept = 1000;
    static constexpr int max_staleness = 1000; // sync.staleness
    static constexpr std::size_t max_failures = 1024;
    static constexpr std::size_t max_bucket_kb = 1 << 20; // gradients.bucket_kb: 1 GiB
    static constexpr int max_accumulate = 1024;           // gradients.accumulate
    static constexpr std::int64_t max_memory_budget_bytes = std::int64_t{1} << 40; // 1 TiB
};

struct DatasetConfig {
    std::string name = "spiral"; // a built-in set, or empty when csv is given
    std::string csv;             // path to a CSV file (relative paths: to the scenario file)
    std::size_t samples = 512;
    double noise = 0.1;
    int classes = 2;
};

// The modelled clock's prices. Compute is charged per sample at speed 1; a message costs
// alpha + bytes * beta on its link, plus bytes * gamma to add it in at the receiver.
struct CostConfig {
    double compute_s_per_sample = 1e-4;
    double update_s = 0.0;         // optimizer step, per worker per step
    double alpha_s = 2e-5;         // latency per message
    double beta_s_per_byte = 1e-9; // 1 GB/s links
    double gamma_s_per_byte = 1e-10;
    double jitter = 0.0; // each compute time is scaled by 1 + jitter * u, u uniform in [-1, 1)
    // Textbook mode: the whole job's compute on one worker, in seconds (replaces the per-sample
    // price), and a fixed communication cost per step (replaces the per-message prices).
    std::optional<double> one_worker_compute_s;
    std::optional<double> communication_s_per_step;
    // Checkpoint storage: writing a file costs bytes * checkpoint_s_per_byte, and every fsync
    // (of a file or of its directory) a further fsync_s.
    double checkpoint_s_per_byte = 2e-9; // 500 MB/s, a plain SSD
    double fsync_s = 1e-3;
    // The measured clock's links: in one process a message is a copy in memory, nearly free.
    // Paced, every round of a data-parallel collective also lasts its price above for real (the
    // communication lane sleeps out the rest), a network of this speed with real threads around
    // it. The modelled clock is not changed.
    bool paced_links = false;
    // Machines (the scenario's "topology"): with more than one, a message is priced on the link
    // it crosses, and messages between machines share each machine's one network link.
    Topology topology;
};

// A worker stalled for `seconds` at the start of `step`.
struct PauseDelay {
    int worker = 0;
    std::int64_t step = 0;
    double seconds = 0.0;
};

struct DelayConfig {
    std::vector<double> slowdown; // per worker; missing entries are 1 (full speed)
    std::vector<PauseDelay> pauses;
    double straggler_probability = 0.0; // per worker per step, drawn from the run's generator
    double straggler_factor = 3.0;      // a straggler's compute takes this many times longer
};

enum class Scaling { Strong, Weak };

// What a restore brings back. Full: everything in the checkpoint, so the run continues exactly
// as if it had never stopped. WeightsOnly: the parameters alone; the optimizer starts from zero,
// the generators from the seed and every worker from the start of its data, so the
// continuation differs (what a checkpoint of weights alone gives you).
enum class RestoreMode { Full, WeightsOnly };

// The checkpoint policy: a checkpoint after the update of every `every`-th step, the newest
// `keep` kept; a resume restores them as `restore` says.
struct CheckpointConfig {
    std::int64_t every = 10;
    int keep = 3;
    bool sharded_optimizer = false; // each worker saves its slice of the optimizer state (ZeRO-1)
    RestoreMode restore = RestoreMode::Full;
};

// How a data-parallel worker hands its gradient to the collective, as PyTorch's DDP does. The
// backward pass finishes the layers' gradients last layer first; they are packed, in that order,
// into buckets of at most `bucket_kb` kilobytes (1024 bytes; a layer larger than that is a bucket
// of its own), and each bucket's collective runs on the worker's communication lane. With
// `overlap` a bucket's collective starts as soon as its layers are done, while backward goes on
// with the earlier layers; without, the buckets wait for backward to end. `accumulate` K: each
// worker computes K micro-batches of `batch` samples, adds their gradients without communicating
// (DDP's no_sync), then reduces once: a step is still one update, of K times the batch.
struct GradientConfig {
    std::size_t bucket_kb = 0; // 0: one bucket, the whole gradient once backward ends
    bool overlap = true;
    int accumulate = 1;
};

// Sharded data parallelism (ZeRO; stage 3 is PyTorch's FSDP): what a bulk-synchronous
// data-parallel worker keeps only its 1/N shard of between steps. The all-reduce runs as its two
// halves (collectives/sharding.h): a reduce-scatter leaves each worker the summed gradient of its
// shard, it updates that shard alone, and an all-gather hands every worker the new parameters.
// Optimizer (ZeRO 1): the optimizer state is a shard; Gradients (2): the gradient too, once
// reduced; Parameters (3): the parameters too, gathered layer by layer when a pass needs them.
enum class Sharding { None, Optimizer, Gradients, Parameters };

std::string_view to_string(Sharding sharding);
bool parse_sharding(std::string_view text, Sharding& out);

// Everything a run needs. Scenario files (JSON) map onto it key for key; see
// docs/SCENARIO.md. The CLI's flags override single fields before validate() runs.
struct Scenario {
    std::string name = "demo";
    std::uint64_t seed = 1;
    std::int64_t steps = 400;
    int workers = 4;
    std::size_t batch = 16;                // per worker
    std::vector<std::size_t> worker_batch; // optional per-worker batch sizes (unequal work)
    std::vector<std::size_t> shard_sizes;  // optional per-worker shard sizes; default equal
    bool shuffle = true;
    ReductionRule rule = ReductionRule::Mean;
    Algorithm algorithm = Algorithm::Ring;
    ModelShape model{{2, 16, 16, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    std::string init_params; // optional parameter file; default: drawn from the seed
    OptimizerConfig optimizer{OptimizerKind::Sgd, 0.1, 0.9, 0.9, 0.999, 1e-8};
    DatasetConfig dataset{"spiral", "", 600, 0.05, 3};
    ClockKind clock = ClockKind::Modelled;
    CostConfig cost;
    DelayConfig delays;
    Scaling scaling = Scaling::Strong;
    std::optional<CheckpointConfig> checkpoint;   // none: no checkpoints
    FailureConfig failures;                       // injected faults and how the run recovers
    EnergyConfig energy;                          // power per worker state, for energy estimates
    std::optional<ParallelismConfig> parallelism; // none: data parallelism over `workers`
    std::optional<SyncConfig> sync;               // none: bulk-synchronous (bsp)
    std::optional<GradientConfig> gradients; // none: one bucket after backward, no accumulation
    Sharding sharding = Sharding::None;      // ZeRO stage: what a worker keeps a shard of
    // The format the data-parallel gradients travel and are added in (collectives/precision.h):
    // each worker's contribution is rounded to it before it leaves, each sum on the way too. A
    // step whose summed gradient overflowed is skipped: no replica applies it.
    WirePrecision comm_precision = WirePrecision::Float64;
    // Dynamic loss scaling of the gradients before they are rounded to a narrower wire format
    // (collectives/precision.h; none: not scaled).
    std::optional<LossScaleConfig> loss_scale;
    // Each step, also the float64 gradient of every worker's batch at the same parameters, to
    // report how far the summed gradient the step used was from it (reports only; not hashed).
    bool compare_precision = false;
    // The most a data-parallel worker may hold at its peak, in bytes (none: no budget). A run
    // whose worker would hold more is refused before it trains (check_memory_budget(), runs.h).
    std::optional<std::int64_t> memory_budget_bytes;

    std::size_t batch_of(int worker) const; // per micro-batch when gradients accumulate
    int accumulation() const { return gradients ? gradients->accumulate : 1; }
    // The format the gradients travel and are added in: comm_precision, or float32 for a float32
    // model left at the float64 default (float64 would carry no more of a float's bits).
    WirePrecision wire_precision() const {
        return comm_precision == WirePrecision::Float64 && model.precision == Precision::Float32
                   ? WirePrecision::Float32
                   : comm_precision;
    }
    std::size_t global_batch() const;
    double slowdown_of(int worker) const;
    SyncMode sync_mode() const { return sync ? sync->mode : SyncMode::Bsp; }
    Parallelism parallelism_mode() const {
        return parallelism ? parallelism->mode : Parallelism::Data;
    }
    // The model itself is cut over the workers (pipeline, tensor, hybrid): a lane is a piece of
    // the model, not a whole replica.
    bool model_parallel() const { return parallelism_mode() != Parallelism::Data; }
    // Trace lanes a run of this scenario starts with: one per worker, or one per piece of the
    // model.
    int lanes() const { return model_parallel() ? parallelism->lanes() : workers; }
};

// Throws lockstep::Error naming the field path and the allowed range, e.g.
// "workers: must be between 1 and 256, got 300".
void validate(const Scenario& scenario);

// Strict parsing: unknown keys, wrong types and out-of-range values are errors naming the path
// ("model.layers[2]: ..."). `base_dir` resolves relative file paths inside the scenario.
Scenario parse_scenario(std::string_view json_text, const std::string& base_dir = ".");
Scenario load_scenario(const std::string& path);
std::string scenario_to_json(const Scenario& scenario);
// Identifies a scenario in checkpoints: a hash of its canonical JSON, so a checkpoint is never
// resumed under different settings. The checkpoint policy, the checkpoint costs and the number of
// steps are left out: they change neither the training nor its state at a given step, so a run
// can be resumed with more steps or another policy from the same checkpoints.
std::uint64_t scenario_hash(const Scenario& scenario);

// Refits the scenario's machines (if any) to its number of workers, for a run with another
// count (a sweep's point, the one-worker reference): K workers to a machine, as many machines as
// they fill. The hierarchical all-reduce needs every machine full; where the last one is not, the
// run reduces with the flat ring instead.
void fit_machines(Scenario& s);

// Copies into `into` the settings a running trainer can take between two steps
// (a Retune intervention): rule, algorithm, the optimizer's hyperparameters (not its
// kind), delays.slowdown and the stragglers, cost (the machines' links, not the machines),
// checkpoint.restore (when both have a policy),
// and sync (its bound or period in place; another mode through continue_run()).
void take_mid_run_settings(Scenario& into, const Scenario& from);

// `s` agreeing the way `c` says: ssp and async through the parameter server (which holds their
// model), bsp without a sync block. Throws lockstep::Error (validate()) when it does not fit.
Scenario with_sync(Scenario s, const SyncConfig& c);

// What a run cannot change between two steps: the first field (a path such as "workers" or
// "model.layers") in which `to` differs from `from` other than the mid-run settings and the
// name; nothing when there is none. A change there means starting the run again.
std::optional<std::string> fixed_for_the_run(const Scenario& from, const Scenario& to);

// Reads a whole file; throws lockstep::Error naming the path when it cannot, or when it is
// larger than max_bytes.
std::string read_text_file(const std::string& path, std::size_t max_bytes = 64u << 20);

std::string_view to_string(ClockKind clock);
std::string_view to_string(Scaling scaling);
std::string_view to_string(RestoreMode mode); // "full", "weights-only"
bool parse_restore_mode(std::string_view text, RestoreMode& out);

} // namespace lockstep
