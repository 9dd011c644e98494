#include "scenario/scenario.h"

#include "core/error.h"
#include "data/data.h"
#include "trainers/pipeline.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

namespace lockstep {

using nlohmann::json;

std::size_t Scenario::batch_of(int worker) const {
    const auto w = static_cast<std::size_t>(worker);
    return w < worker_batch.size() ? worker_batch[w] : batch;
}

std::size_t Scenario::global_batch() const {
    std::size_t total = 0;
    for (int w = 0; w < workers; ++w)
        total += batch_of(w);
    return total;
}

double Scenario::slowdown_of(int worker) const {
    const auto w = static_cast<std::size_t>(worker);
    return w < delays.slowdown.size() ? delays.slowdown[w] : 1.0;
}

std::string_view to_string(ClockKind clock) {
    return clock == ClockKind::Modelled ? "modelled" : "measured";
}

std::string_view to_string(Scaling scaling) {
    return scaling == Scaling::Strong ? "strong" : "weak";
}

std::string_view to_string(RestoreMode mode) {
    return mode == RestoreMode::Full ? "full" : "weights-only";
}

bool parse_restore_mode(std::string_view text, RestoreMode& out) {
    if (text == "full")
        out = RestoreMode::Full;
    else if (text == "weights-only")
        out = RestoreMode::WeightsOnly;
    else
        return false;
    return true;
}

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        throw Error(path + ": cannot read the file (" + ec.message() + ")");
    if (size > max_bytes)
        throw Error(path + ": the file is " + std::to_string(size) +
                    " bytes, more than the limit of " + std::to_string(max_bytes));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

namespace {

// Enough digits to show a limit or a typed value as written (0.999999999, not 1).
std::string number_text(double v) {
    std::ostringstream s;
    s.precision(15);
    s << v;
    return s.str();
}

// Whole numbers exactly (1000000, not 1e+06).
template <typename T> std::string value_text(T v) {
    if constexpr (std::is_integral_v<T>)
        return std::to_string(v);
    else
        return number_text(static_cast<double>(v));
}

template <typename T> void check_range(const std::string& path, T value, T lo, T hi) {
    if (value < lo || value > hi) {
        throw Error(path + ": must be between " + value_text(lo) + " and " + value_text(hi) +
                    ", got " + value_text(value));
    }
}

void check_finite(const std::string& path, double value, double lo, double hi) {
    if (!std::isfinite(value))
        throw Error(path + ": must be a finite number");
    check_range(path, value, lo, hi);
}

// A whole number in [lo, hi]. One written past the int64 range (JSON keeps it unsigned) is shown
// as written, not wrapped to a negative number.
std::int64_t whole_number(const json& v, const std::string& path, std::int64_t lo,
                          std::int64_t hi) {
    if (!v.is_number_integer())
        throw Error(path + ": must be a whole number between " + std::to_string(lo) + " and " +
                    std::to_string(hi));
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
        throw Error(path + ": must be between " + std::to_string(lo) + " and " +
                    std::to_string(hi) + ", got " + std::to_string(v.get<std::uint64_t>()));
    const auto value = v.get<std::int64_t>();
    check_range(path, value, lo, hi);
    return value;
}

// Walks a JSON object, checking each key's type and rejecting keys nobody asked for.
class ObjectReader {
public:
    ObjectReader(const json& object, std::string path)
        : object_(object)
        , path_(std::move(path)) {
        if (!object_.is_object())
            throw Error(where() + "must be an object");
    }

    ~ObjectReader() = default;
    ObjectReader(const ObjectReader&) = delete;
    ObjectReader& operator=(const ObjectReader&) = delete;

    std::string child(const std::string& key) const {
        return path_.empty() ? key : path_ + "." + key;
    }

    const json* find(const std::string& key) {
        seen_.insert(key);
        auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }

    void read_int(const std::string& key, std::int64_t& out, std::int64_t lo, std::int64_t hi) {
        if (const json* v = find(key))
            out = whole_number(*v, child(key), lo, hi);
    }

    template <typename T>
    void read_count(const std::string& key, T& out, std::int64_t lo, std::int64_t hi) {
        std::int64_t value = static_cast<std::int64_t>(out);
        read_int(key, value, lo, hi);
        out = static_cast<T>(value);
    }

    void read_number(const std::string& key, double& out, double lo, double hi) {
        if (const json* v = find(key)) {
            if (!v->is_number())
                throw Error(child(key) + ": must be a number between " + number_text(lo) + " and " +
                            number_text(hi));
            const double value = v->get<double>();
            check_finite(child(key), value, lo, hi);
            out = value;
        }
    }

    void read_optional_number(const std::string& key, std::optional<double>& out, double lo,
                              double hi) {
        if (const json* v = find(key)) {
            if (v->is_null()) {
                out.reset();
                return;
            }
            double value = 0;
            read_number(key, value, lo, hi);
            out = value;
        }
    }

    void read_bool(const std::string& key, bool& out) {
        if (const json* v = find(key)) {
            if (!v->is_boolean())
                throw Error(child(key) + ": must be true or false");
            out = v->get<bool>();
        }
    }

    void read_string(const std::string& key, std::string& out, std::size_t max_length = 4096) {
        if (const json* v = find(key)) {
            if (!v->is_string())
                throw Error(child(key) + ": must be a string");
            out = v->get<std::string>();
            if (out.size() > max_length)
                throw Error(child(key) + ": longer than " + std::to_string(max_length) +
                            " characters");
        }
    }

    // A string that must be one of `names`; `parse` maps it to the enum.
    template <typename E>
    void read_choice(const std::string& key, E& out, const std::vector<std::string>& names,
                     const std::function<bool(std::string_view, E&)>& parse) {
        if (const json* v = find(key)) {
            std::string allowed;
            for (const auto& n : names)
                allowed += (allowed.empty() ? "" : ", ") + n;
            if (!v->is_string() || !parse(v->get<std::string>(), out))
                throw Error(child(key) + ": must be one of " + allowed +
                            (v->is_string() ? ", got \"" + v->get<std::string>() + "\"" : ""));
        }
    }

    // Any key present that no read_* call asked for is a typo or a field from elsewhere.
    void reject_unknown() const {
        for (auto it = object_.begin(); it != object_.end(); ++it) {
            if (!seen_.count(it.key()))
                throw Error(child(it.key()) + ": unknown key");
        }
    }

    std::string where() const { return path_.empty() ? "scenario: " : path_ + ": "; }

private:
    const json& object_;
    std::string path_;
    std::set<std::string> seen_;
};

const json& expect_array(const json& v, const std::string& path, std::size_t max_size) {
    if (!v.is_array())
        throw Error(path + ": must be a list");
    if (v.size() > max_size)
        throw Error(path + ": at most " + std::to_string(max_size) + " entries, got " +
                    std::to_string(v.size()));
    return v;
}

std::vector<std::size_t> read_size_list(const json& v, const std::string& path,
                                        std::size_t max_size, std::int64_t lo, std::int64_t hi) {
    std::vector<std::size_t> out;
    const json& list = expect_array(v, path, max_size);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string item = path + "[" + std::to_string(i) + "]";
        out.push_back(static_cast<std::size_t>(whole_number(list[i], item, lo, hi)));
    }
    return out;
}

void parse_model(ObjectReader& root, Scenario& s) {
    const json* v = root.find("model");
    if (!v)
        return;
    ObjectReader r(*v, "model");
    if (const json* layers = r.find("layers")) {
        auto sizes = read_size_list(*layers, "model.layers", ScenarioLimits::max_layers + 1, 1,
                                    ScenarioLimits::max_layer_width);
        s.model.layers.assign(sizes.begin(), sizes.end());
    }
    r.read_choice<Activation>("activation", s.model.activation,
                              {"tanh", "relu", "sigmoid", "linear"}, parse_activation);
    r.read_choice<LossKind>("loss", s.model.loss, {"cross-entropy", "mse"},
                            [](std::string_view t, LossKind& out) {
                                if (t == "cross-entropy")
                                    out = LossKind::SoftmaxCrossEntropy;
                                else if (t == "mse")
                                    out = LossKind::MeanSquaredError;
                                else
                                    return false;
                                return true;
                            });
    r.read_string("init_params", s.init_params);
    r.reject_unknown();
}

void parse_dataset(ObjectReader& root, Scenario& s) {
    const json* v = root.find("dataset");
    if (!v)
        return;
    ObjectReader r(*v, "dataset");
    std::string name = s.dataset.name;
    r.read_string("name", name, 64);
    std::string csv;
    r.read_string("csv", csv);
    if (!csv.empty()) {
        s.dataset.csv = csv;
        s.dataset.name.clear();
    } else if (r.find("name")) {
        if (!is_synthetic_dataset(name)) {
            std::string known;
            for (const auto& n : synthetic_dataset_names())
                known += (known.empty() ? "" : ", ") + n;
            throw Error("dataset.name: must be one of " + known + ", got \"" + name + "\"");
        }
        s.dataset.name = name;
        s.dataset.csv.clear();
    }
    r.read_count("samples", s.dataset.samples, 1,
                 static_cast<std::int64_t>(ScenarioLimits::max_samples));
    r.read_number("noise", s.dataset.noise, 0.0, 10.0);
    r.read_count("classes", s.dataset.classes, 1, 8);
    r.reject_unknown();
}

void parse_optimizer_config(ObjectReader& root, Scenario& s) {
    const json* v = root.find("optimizer");
    if (!v)
        return;
    ObjectReader r(*v, "optimizer");
    r.read_choice<OptimizerKind>("kind", s.optimizer.kind, {"sgd", "adam"}, parse_optimizer);
    r.read_number("lr", s.optimizer.learning_rate, 0.0, 100.0);
    r.read_number("momentum", s.optimizer.momentum, 0.0, 0.999999);
    r.read_number("beta1", s.optimizer.beta1, 0.0, 0.999999);
    r.read_number("beta2", s.optimizer.beta2, 0.0, 0.999999999);
    r.read_number("eps", s.optimizer.epsilon, 1e-300, 1.0);
    r.reject_unknown();
}

void parse_cost(ObjectReader& root, Scenario& s) {
    const json* v = root.find("cost");
    if (!v)
        return;
    ObjectReader r(*v, "cost");
    r.read_number("compute_s_per_sample", s.cost.compute_s_per_sample, 0.0, 3600.0);
    r.read_number("update_s", s.cost.update_s, 0.0, 3600.0);
    r.read_number("alpha_s", s.cost.alpha_s, 0.0, 3600.0);
    r.read_number("beta_s_per_byte", s.cost.beta_s_per_byte, 0.0, 1.0);
    r.read_number("gamma_s_per_byte", s.cost.gamma_s_per_byte, 0.0, 1.0);
    r.read_number("jitter", s.cost.jitter, 0.0, 0.9);
    r.read_optional_number("one_worker_compute_s", s.cost.one_worker_compute_s, 0.0, 1e7);
    r.read_optional_number("communication_s_per_step", s.cost.communication_s_per_step, 0.0, 1e5);
    r.read_number("checkpoint_s_per_byte", s.cost.checkpoint_s_per_byte, 0.0, 1.0);
    r.read_number("fsync_s", s.cost.fsync_s, 0.0, 3600.0);
    r.reject_unknown();
}

void parse_checkpoint(ObjectReader& root, Scenario& s) {
    const json* v = root.find("checkpoint");
    if (!v)
        return;
    ObjectReader r(*v, "checkpoint");
    CheckpointConfig c;
    if (!r.find("every"))
        throw Error("checkpoint.every: required, a whole number between 1 and " +
                    std::to_string(ScenarioLimits::max_steps));
    r.read_int("every", c.every, 1, ScenarioLimits::max_steps);
    r.read_count("keep", c.keep, 1, ScenarioLimits::max_checkpoints_kept);
    r.read_bool("sharded_optimizer", c.sharded_optimizer);
    r.read_choice<RestoreMode>("restore", c.restore, {"full", "weights-only"}, parse_restore_mode);
    r.reject_unknown();
    s.checkpoint = c;
}

void parse_parallelism_config(ObjectReader& root, Scenario& s) {
    const json* v = root.find("parallelism");
    if (!v)
        return;
    ObjectReader r(*v, "parallelism");
    ParallelismConfig c;
    if (!r.find("mode"))
        throw Error("parallelism.mode: required, one of data, pipeline, tensor, hybrid");
    r.read_choice<Parallelism>("mode", c.mode, {"data", "pipeline", "tensor", "hybrid"},
                               parse_parallelism);
    r.read_count("stages", c.stages, 1, ScenarioLimits::max_workers);
    r.read_count("microbatches", c.microbatches, 1,
                 static_cast<std::int64_t>(ScenarioLimits::max_batch));
    r.read_choice<PipelineSchedule>("schedule", c.schedule, {"fill-drain", "1f1b"},
                                    parse_pipeline_schedule);
    r.read_count("replicas", c.replicas, 1, ScenarioLimits::max_workers);
    r.reject_unknown();
    s.parallelism = c;
}

void parse_delays(ObjectReader& root, Scenario& s) {
    const json* v = root.find("delays");
    if (!v)
        return;
    ObjectReader r(*v, "delays");
    if (const json* list = r.find("slowdown")) {
        expect_array(*list, "delays.slowdown", ScenarioLimits::max_workers);
        s.delays.slowdown.clear();
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string item = "delays.slowdown[" + std::to_string(i) + "]";
            if (!(*list)[i].is_number())
                throw Error(item + ": must be a number between 1 and 100");
            const double f = (*list)[i].get<double>();
            check_finite(item, f, 1.0, 100.0);
            s.delays.slowdown.push_back(f);
        }
    }
    if (const json* list = r.find("pauses")) {
        expect_array(*list, "delays.pauses", 1024);
        s.delays.pauses.clear();
        for (std::size_t i = 0; i < list->size(); ++i) {
            ObjectReader p((*list)[i], "delays.pauses[" + std::to_string(i) + "]");
            PauseDelay pause;
            p.read_count("worker", pause.worker, 0, ScenarioLimits::max_workers - 1);
            p.read_int("step", pause.step, 0, ScenarioLimits::max_steps);
            p.read_number("seconds", pause.seconds, 0.0, 86400.0);
            p.reject_unknown();
            s.delays.pauses.push_back(pause);
        }
    }
    r.read_number("straggler_probability", s.delays.straggler_probability, 0.0, 1.0);
    r.read_number("straggler_factor", s.delays.straggler_factor, 1.0, 100.0);
    r.reject_unknown();
}

FailureSpec read_failure(const json& v, const std::string& path) {
    if (v.is_string()) {
        try {
            return parse_failure_spec(v.get<std::string>());
        } catch (const Error& e) {
            throw Error(path + ": " + e.what());
        }
    }
    ObjectReader r(v, path);
    FailureSpec f;
    if (!r.find("kind"))
        throw Error(path + ".kind: required, one of crash, pause, slow-link, corrupt");
    r.read_choice<FailureKind>("kind", f.kind, {"crash", "pause", "slow-link", "corrupt"},
                               parse_failure_kind);
    r.read_count("worker", f.worker, 0, ScenarioLimits::max_workers - 1);
    r.read_int("step", f.step, 0, ScenarioLimits::max_steps);
    if (f.kind == FailureKind::Crash)
        r.read_choice<CrashPhase>(
            "phase", f.phase,
            {"compute", "communicate", "update", "before-fsync", "after-fsync", "after-rename"},
            parse_crash_phase);
    if (f.kind == FailureKind::Pause)
        r.read_number("seconds", f.seconds, 0.0, 86400.0);
    if (f.kind == FailureKind::SlowLink)
        r.read_number("factor", f.factor, 1.0, 1000.0);
    if (f.kind == FailureKind::Corrupt)
        r.read_choice<Corruption>("how", f.corruption, {"bit-flip", "truncate"}, parse_corruption);
    r.reject_unknown();
    return f;
}

void parse_failures(ObjectReader& root, Scenario& s) {
    const json* v = root.find("failures");
    if (!v)
        return;
    ObjectReader r(*v, "failures");
    FailureConfig& f = s.failures;
    r.read_number("heartbeat_s", f.heartbeat_s, 0.0, 3600.0);
    r.read_number("restart_s", f.restart_s, 0.0, 3600.0);
    r.read_choice<RecoveryPolicy>("policy", f.policy, {"restart", "elastic", "backup"},
                                  parse_recovery_policy);
    r.read_count("backup_workers", f.backup_workers, 0, ScenarioLimits::max_workers - 1);
    if (const json* list = r.find("events")) {
        expect_array(*list, "failures.events", ScenarioLimits::max_failures);
        f.events.clear();
        for (std::size_t i = 0; i < list->size(); ++i)
            f.events.push_back(
                read_failure((*list)[i], "failures.events[" + std::to_string(i) + "]"));
    }
    r.reject_unknown();
}

void parse_energy(ObjectReader& root, Scenario& s) {
    const json* v = root.find("energy");
    if (!v)
        return;
    ObjectReader r(*v, "energy");
    r.read_number("compute_w", s.energy.compute_w, 0.0, 1e6);
    r.read_number("communicate_w", s.energy.communicate_w, 0.0, 1e6);
    r.read_number("wait_w", s.energy.wait_w, 0.0, 1e6);
    r.read_number("checkpoint_w", s.energy.checkpoint_w, 0.0, 1e6);
    r.read_number("idle_w", s.energy.idle_w, 0.0, 1e6);
    r.reject_unknown();
}

void validate_failures(const Scenario& s) {
    const FailureConfig& f = s.failures;
    check_finite("failures.heartbeat_s", f.heartbeat_s, 0.0, 3600.0);
    check_finite("failures.restart_s", f.restart_s, 0.0, 3600.0);
    check_range("failures.backup_workers", f.backup_workers, 0, s.workers - 1);
    if (f.policy == RecoveryPolicy::Backup && f.backup_workers < 1)
        throw Error("failures.policy: backup needs failures.backup_workers of at least 1");
    if (f.events.size() > ScenarioLimits::max_failures)
        throw Error("failures.events: at most " + std::to_string(ScenarioLimits::max_failures) +
                    " entries");
    int crashes = 0;
    for (std::size_t i = 0; i < f.events.size(); ++i) {
        const FailureSpec& e = f.events[i];
        const std::string at = "failures.events[" + std::to_string(i) + "] (" + to_text(e) + ")";
        if (e.worker < 0 || e.worker >= s.workers)
            throw Error(at + ": worker must be between 0 and " + std::to_string(s.workers - 1));
        check_range<std::int64_t>(at + ": step", e.step, 0, ScenarioLimits::max_steps);
        if ((e.during_checkpoint() || e.kind == FailureKind::Corrupt) && !s.checkpoint)
            throw Error(at + ": needs a checkpoint policy (checkpoint.every)");
        if (e.kind == FailureKind::Pause)
            check_finite(at + ": seconds", e.seconds, 0.0, 86400.0);
        if (e.kind == FailureKind::SlowLink)
            check_finite(at + ": factor", e.factor, 1.0, 1000.0);
        if (e.during_checkpoint() && f.policy == RecoveryPolicy::Backup)
            throw Error(at + ": with backup workers a crash is a gradient that never arrives; "
                             "give it a step phase (compute, communicate or update)");
        if (e.kind == FailureKind::Crash)
            ++crashes;
    }
    if (crashes > 0 && f.policy != RecoveryPolicy::Restart && crashes >= s.workers)
        throw Error("failures.policy: " + std::string(to_string(f.policy)) +
                    " goes on with the survivors, but every worker is set to crash");
    const EnergyConfig& e = s.energy;
    check_finite("energy.compute_w", e.compute_w, 0.0, 1e6);
    check_finite("energy.communicate_w", e.communicate_w, 0.0, 1e6);
    check_finite("energy.wait_w", e.wait_w, 0.0, 1e6);
    check_finite("energy.checkpoint_w", e.checkpoint_w, 0.0, 1e6);
    check_finite("energy.idle_w", e.idle_w, 0.0, 1e6);
}

} // namespace

// The model-parallel options against the model and the batch they would cut up.
static void validate_parallelism(const Scenario& s) {
    const ParallelismConfig& p = *s.parallelism;
    check_range("parallelism.stages", p.stages, 1, ScenarioLimits::max_workers);
    check_range("parallelism.microbatches", p.microbatches, 1,
                static_cast<int>(ScenarioLimits::max_batch));
    check_range("parallelism.replicas", p.replicas, 1, ScenarioLimits::max_workers);
    if (p.lanes() > ScenarioLimits::max_workers)
        throw Error("parallelism: " + std::to_string(p.replicas) + " replicas x " +
                    std::to_string(p.stages) + " stages need " + std::to_string(p.lanes()) +
                    " workers, at most " + std::to_string(ScenarioLimits::max_workers));
    if (p.mode != Parallelism::Data &&
        (!s.failures.events.empty() || s.failures.backup_workers > 0))
        throw Error("failures: model-parallel runs take no injected faults or backup workers; "
                    "use data parallelism to study failures");
    if (p.mode == Parallelism::Pipeline || p.mode == Parallelism::Hybrid)
        (void)plan_pipeline(s.model, s.batch, p);
    if (p.mode == Parallelism::Tensor && s.algorithm == Algorithm::None)
        throw Error("algorithm: a tensor-parallel run adds its workers' parts of each layer's "
                    "input gradient with an all-reduce; choose parameter-server, ring or tree, "
                    "not none");
    if (p.mode == Parallelism::Tensor)
        for (std::size_t l = 1; l < s.model.layers.size(); ++l)
            if (s.model.layers[l] < p.stages)
                throw Error("parallelism.stages: " + std::to_string(p.stages) +
                            " workers cannot share layer " + std::to_string(l - 1) + "'s " +
                            std::to_string(s.model.layers[l]) +
                            " outputs (each needs at least one)");
}

void validate(const Scenario& s) {
    check_range("workers", s.workers, 1, ScenarioLimits::max_workers);
    check_range<std::int64_t>("steps", s.steps, 1, ScenarioLimits::max_steps);
    check_range<std::size_t>("batch", s.batch, 1, ScenarioLimits::max_batch);
    if (!s.worker_batch.empty() && s.worker_batch.size() != static_cast<std::size_t>(s.workers))
        throw Error("worker_batch: needs one entry per worker (" + std::to_string(s.workers) +
                    "), got " + std::to_string(s.worker_batch.size()));
    for (std::size_t i = 0; i < s.worker_batch.size(); ++i)
        check_range<std::size_t>("worker_batch[" + std::to_string(i) + "]", s.worker_batch[i], 1,
                                 ScenarioLimits::max_batch);
    // Strong scaling's one-worker reference trains on the whole global batch: it must fit too.
    if (s.scaling == Scaling::Strong && s.global_batch() > ScenarioLimits::max_batch)
        throw Error("batch: with strong scaling the one-worker reference trains on the global "
                    "batch, " +
                    std::to_string(s.global_batch()) +
                    " samples (every worker's batch together), over the limit of " +
                    std::to_string(ScenarioLimits::max_batch) +
                    "; use a smaller batch or fewer workers, or \"scaling\": \"weak\"");
    if (!s.shard_sizes.empty() && s.shard_sizes.size() != static_cast<std::size_t>(s.workers))
        throw Error("shard_sizes: needs one entry per worker (" + std::to_string(s.workers) +
                    "), got " + std::to_string(s.shard_sizes.size()));
    for (std::size_t i = 0; i < s.shard_sizes.size(); ++i)
        check_range<std::size_t>("shard_sizes[" + std::to_string(i) + "]", s.shard_sizes[i], 1,
                                 ScenarioLimits::max_samples);

    const auto& layers = s.model.layers;
    if (layers.size() < 2 || layers.size() > ScenarioLimits::max_layers + 1)
        throw Error("model.layers: needs 2 to " + std::to_string(ScenarioLimits::max_layers + 1) +
                    " sizes (inputs, hidden..., outputs), got " + std::to_string(layers.size()));
    for (std::size_t i = 0; i < layers.size(); ++i)
        check_range("model.layers[" + std::to_string(i) + "]", layers[i], 1,
                    ScenarioLimits::max_layer_width);
    if (s.model.parameter_count() > ScenarioLimits::max_parameters)
        throw Error("model.layers: " + std::to_string(s.model.parameter_count()) +
                    " parameters, more than the limit of " +
                    std::to_string(ScenarioLimits::max_parameters));
    if (s.model.loss == LossKind::SoftmaxCrossEntropy && s.model.outputs() < 2)
        throw Error("model.layers: cross-entropy needs at least 2 outputs (one per class)");

    check_finite("optimizer.lr", s.optimizer.learning_rate, 0.0, 100.0);
    check_finite("optimizer.momentum", s.optimizer.momentum, 0.0, 0.999999);

    if (s.dataset.csv.empty()) {
        if (!is_synthetic_dataset(s.dataset.name))
            throw Error("dataset.name: unknown dataset \"" + s.dataset.name + "\"");
        check_range<std::size_t>("dataset.samples", s.dataset.samples, 1,
                                 ScenarioLimits::max_samples);
        check_finite("dataset.noise", s.dataset.noise, 0.0, 10.0);
        const bool regression = s.dataset.name == "regression";
        if (regression && s.model.loss != LossKind::MeanSquaredError)
            throw Error("model.loss: the regression dataset needs \"mse\"");
        if (!regression && s.model.loss == LossKind::MeanSquaredError)
            throw Error("model.loss: dataset \"" + s.dataset.name +
                        "\" has class labels; use \"cross-entropy\"");
        if (s.model.inputs() != 2)
            throw Error("model.layers[0]: the built-in datasets have 2 input features, got " +
                        std::to_string(s.model.inputs()));
        if (!regression) {
            const int classes =
                (s.dataset.name == "xor" || s.dataset.name == "circles") ? 2 : s.dataset.classes;
            if (s.model.outputs() < classes)
                throw Error("model.layers: the last layer needs one output per class (" +
                            std::to_string(classes) + "), got " +
                            std::to_string(s.model.outputs()));
        }
        if (s.dataset.samples < static_cast<std::size_t>(s.workers))
            throw Error("dataset.samples: needs at least one sample per worker (" +
                        std::to_string(s.workers) + "), got " + std::to_string(s.dataset.samples));
    }

    check_finite("cost.compute_s_per_sample", s.cost.compute_s_per_sample, 0.0, 3600.0);
    check_finite("cost.jitter", s.cost.jitter, 0.0, 0.9);
    if (s.cost.one_worker_compute_s)
        check_finite("cost.one_worker_compute_s", *s.cost.one_worker_compute_s, 0.0, 1e7);
    if (s.cost.communication_s_per_step)
        check_finite("cost.communication_s_per_step", *s.cost.communication_s_per_step, 0.0, 1e5);

    if (s.delays.slowdown.size() > static_cast<std::size_t>(s.workers))
        throw Error("delays.slowdown: one entry per worker at most (" + std::to_string(s.workers) +
                    "), got " + std::to_string(s.delays.slowdown.size()));
    for (std::size_t i = 0; i < s.delays.slowdown.size(); ++i)
        check_finite("delays.slowdown[" + std::to_string(i) + "]", s.delays.slowdown[i], 1.0,
                     100.0);
    for (std::size_t i = 0; i < s.delays.pauses.size(); ++i) {
        const auto& p = s.delays.pauses[i];
        const std::string at = "delays.pauses[" + std::to_string(i) + "]";
        check_range(at + ".worker", p.worker, 0, s.workers - 1);
        check_range<std::int64_t>(at + ".step", p.step, 0, s.steps - 1);
        check_finite(at + ".seconds", p.seconds, 0.0, 86400.0);
    }
    check_finite("delays.straggler_probability", s.delays.straggler_probability, 0.0, 1.0);
    check_finite("delays.straggler_factor", s.delays.straggler_factor, 1.0, 100.0);

    check_finite("cost.checkpoint_s_per_byte", s.cost.checkpoint_s_per_byte, 0.0, 1.0);
    check_finite("cost.fsync_s", s.cost.fsync_s, 0.0, 3600.0);
    if (s.parallelism)
        validate_parallelism(s);
    if (s.checkpoint) {
        check_range<std::int64_t>("checkpoint.every", s.checkpoint->every, 1,
                                  ScenarioLimits::max_steps);
        check_range("checkpoint.keep", s.checkpoint->keep, 1,
                    static_cast<int>(ScenarioLimits::max_checkpoints_kept));
    }
    validate_failures(s);
}

Scenario parse_scenario(std::string_view json_text, const std::string& base_dir) {
    json doc;
    try {
        doc = json::parse(json_text);
    } catch (const json::exception& e) {
        // A syntax error, or a number too large for a double (1e999). nlohmann's message reads
        // "[json.exception.parse_error.101] parse error at line 3, ...".
        const std::string what = e.what();
        const auto pos = what.find("] ");
        throw Error("scenario: not valid JSON: " +
                    (pos == std::string::npos ? what : what.substr(pos + 2)));
    }

    Scenario s;
    ObjectReader r(doc, "");
    r.read_string("name", s.name, 200);
    std::int64_t seed = static_cast<std::int64_t>(s.seed);
    r.read_int("seed", seed, 0, std::int64_t{1} << 53);
    s.seed = static_cast<std::uint64_t>(seed);
    r.read_int("steps", s.steps, 1, ScenarioLimits::max_steps);
    r.read_count("workers", s.workers, 1, ScenarioLimits::max_workers);
    r.read_count("batch", s.batch, 1, static_cast<std::int64_t>(ScenarioLimits::max_batch));
    if (const json* v = r.find("worker_batch"))
        s.worker_batch = read_size_list(*v, "worker_batch", ScenarioLimits::max_workers, 1,
                                        static_cast<std::int64_t>(ScenarioLimits::max_batch));
    if (const json* v = r.find("shard_sizes"))
        s.shard_sizes = read_size_list(*v, "shard_sizes", ScenarioLimits::max_workers, 1,
                                       static_cast<std::int64_t>(ScenarioLimits::max_samples));
    r.read_bool("shuffle", s.shuffle);
    r.read_choice<ReductionRule>("rule", s.rule, {"sum", "mean", "weighted-mean"},
                                 parse_reduction_rule);
    r.read_choice<Algorithm>("algorithm", s.algorithm, {"parameter-server", "ring", "tree", "none"},
                             parse_algorithm);
    r.read_choice<ClockKind>("clock", s.clock, {"modelled", "measured"},
                             [](std::string_view t, ClockKind& out) {
                                 if (t == "modelled")
                                     out = ClockKind::Modelled;
                                 else if (t == "measured")
                                     out = ClockKind::Measured;
                                 else
                                     return false;
                                 return true;
                             });
    r.read_choice<Scaling>("scaling", s.scaling, {"strong", "weak"},
                           [](std::string_view t, Scaling& out) {
                               if (t == "strong")
                                   out = Scaling::Strong;
                               else if (t == "weak")
                                   out = Scaling::Weak;
                               else
                                   return false;
                               return true;
                           });
    parse_model(r, s);
    parse_dataset(r, s);
    parse_optimizer_config(r, s);
    parse_cost(r, s);
    parse_delays(r, s);
    parse_checkpoint(r, s);
    parse_failures(r, s);
    parse_energy(r, s);
    parse_parallelism_config(r, s);
    r.reject_unknown();

    namespace fs = std::filesystem;
    auto resolve = [&](std::string& path) {
        if (!path.empty() && fs::path(path).is_relative())
            path = (fs::path(base_dir) / path).lexically_normal().string();
    };
    resolve(s.dataset.csv);
    resolve(s.init_params);
    validate(s);
    return s;
}

namespace {

json scenario_json(const Scenario& s) {
    json j;
    j["name"] = s.name;
    j["seed"] = s.seed;
    j["steps"] = s.steps;
    j["workers"] = s.workers;
    j["batch"] = s.batch;
    if (!s.worker_batch.empty())
        j["worker_batch"] = s.worker_batch;
    if (!s.shard_sizes.empty())
        j["shard_sizes"] = s.shard_sizes;
    j["shuffle"] = s.shuffle;
    j["rule"] = std::string(to_string(s.rule));
    j["algorithm"] = std::string(to_string(s.algorithm));
    j["clock"] = std::string(to_string(s.clock));
    j["scaling"] = std::string(to_string(s.scaling));
    j["model"] = {
        {"layers", s.model.layers},
        {"activation", std::string(to_string(s.model.activation))},
        {"loss", s.model.loss == LossKind::SoftmaxCrossEntropy ? "cross-entropy" : "mse"}};
    if (!s.init_params.empty())
        j["model"]["init_params"] = s.init_params;
    if (s.dataset.csv.empty())
        j["dataset"] = {{"name", s.dataset.name},
                        {"samples", s.dataset.samples},
                        {"noise", s.dataset.noise},
                        {"classes", s.dataset.classes}};
    else
        j["dataset"] = {{"csv", s.dataset.csv}};
    j["optimizer"] = {{"kind", std::string(to_string(s.optimizer.kind))},
                      {"lr", s.optimizer.learning_rate},
                      {"momentum", s.optimizer.momentum},
                      {"beta1", s.optimizer.beta1},
                      {"beta2", s.optimizer.beta2},
                      {"eps", s.optimizer.epsilon}};
    j["cost"] = {{"compute_s_per_sample", s.cost.compute_s_per_sample},
                 {"update_s", s.cost.update_s},
                 {"alpha_s", s.cost.alpha_s},
                 {"beta_s_per_byte", s.cost.beta_s_per_byte},
                 {"gamma_s_per_byte", s.cost.gamma_s_per_byte},
                 {"jitter", s.cost.jitter}};
    if (s.cost.one_worker_compute_s)
        j["cost"]["one_worker_compute_s"] = *s.cost.one_worker_compute_s;
    if (s.cost.communication_s_per_step)
        j["cost"]["communication_s_per_step"] = *s.cost.communication_s_per_step;
    json pauses = json::array();
    for (const auto& p : s.delays.pauses)
        pauses.push_back({{"worker", p.worker}, {"step", p.step}, {"seconds", p.seconds}});
    j["delays"] = {{"slowdown", s.delays.slowdown},
                   {"pauses", pauses},
                   {"straggler_probability", s.delays.straggler_probability},
                   {"straggler_factor", s.delays.straggler_factor}};
    j["cost"]["checkpoint_s_per_byte"] = s.cost.checkpoint_s_per_byte;
    j["cost"]["fsync_s"] = s.cost.fsync_s;
    if (s.checkpoint)
        j["checkpoint"] = {{"every", s.checkpoint->every},
                           {"keep", s.checkpoint->keep},
                           {"sharded_optimizer", s.checkpoint->sharded_optimizer},
                           {"restore", std::string(to_string(s.checkpoint->restore))}};
    // Written only when they differ from the defaults, so older scenarios keep their hashes.
    const FailureConfig plain;
    const FailureConfig& f = s.failures;
    if (!f.events.empty() || f.backup_workers != 0 || f.policy != plain.policy ||
        f.heartbeat_s != plain.heartbeat_s || f.restart_s != plain.restart_s) {
        json events = json::array();
        for (const auto& e : f.events)
            events.push_back(to_text(e));
        j["failures"] = {{"heartbeat_s", f.heartbeat_s},
                         {"restart_s", f.restart_s},
                         {"policy", std::string(to_string(f.policy))},
                         {"backup_workers", f.backup_workers},
                         {"events", events}};
    }
    const EnergyConfig& e = s.energy;
    const EnergyConfig assumed;
    if (e.compute_w != assumed.compute_w || e.communicate_w != assumed.communicate_w ||
        e.wait_w != assumed.wait_w || e.checkpoint_w != assumed.checkpoint_w ||
        e.idle_w != assumed.idle_w)
        j["energy"] = {{"compute_w", e.compute_w},
                       {"communicate_w", e.communicate_w},
                       {"wait_w", e.wait_w},
                       {"checkpoint_w", e.checkpoint_w},
                       {"idle_w", e.idle_w}};
    if (s.parallelism)
        j["parallelism"] = {{"mode", std::string(to_string(s.parallelism->mode))},
                            {"stages", s.parallelism->stages},
                            {"microbatches", s.parallelism->microbatches},
                            {"schedule", std::string(to_string(s.parallelism->schedule))},
                            {"replicas", s.parallelism->replicas}};
    return j;
}

} // namespace

namespace {

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = 0xcbf29ce484222325ULL) {
    for (unsigned char c : bytes) {
        hash ^= c;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

// What a file given by path contributes to the hash: its contents, so that the same path with
// other rows or other parameters is another scenario. A file that cannot be read (no run could
// start from it) counts as such.
json file_contents_hash(const std::string& path) {
    try {
        return fnv1a(read_text_file(path));
    } catch (const Error&) {
        return "unreadable";
    }
}

} // namespace

std::uint64_t scenario_hash(const Scenario& scenario) {
    // The canonical form without what a resume may change (see the header).
    json j = scenario_json(scenario);
    // Files count by their contents, not where they are.
    if (!scenario.dataset.csv.empty())
        j["dataset"]["csv"] = file_contents_hash(scenario.dataset.csv);
    if (!scenario.init_params.empty())
        j["model"]["init_params"] = file_contents_hash(scenario.init_params);
    j.erase("steps");
    j.erase("checkpoint");
    j["cost"].erase("checkpoint_s_per_byte");
    j["cost"].erase("fsync_s");
    // Faults and the energy prices change neither the training nor its state at a given step;
    // backup workers do (each step drops the late gradients).
    j.erase("failures");
    j.erase("energy");
    if (scenario.failures.backup_workers > 0)
        j["backup_workers"] = scenario.failures.backup_workers;
    return fnv1a(j.dump()); // FNV-1a over the canonical JSON's bytes
}

Scenario load_scenario(const std::string& path) {
    const std::string text = read_text_file(path, 16u << 20);
    const auto base = std::filesystem::path(path).parent_path().string();
    try {
        return parse_scenario(text, base.empty() ? "." : base);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

void take_mid_run_settings(Scenario& into, const Scenario& from) {
    into.rule = from.rule;
    into.algorithm = from.algorithm;
    const OptimizerKind kind = into.optimizer.kind;
    into.optimizer = from.optimizer;
    into.optimizer.kind = kind;
    into.delays.slowdown = from.delays.slowdown;
    into.delays.straggler_probability = from.delays.straggler_probability;
    into.delays.straggler_factor = from.delays.straggler_factor;
    into.cost = from.cost;
    if (into.checkpoint && from.checkpoint)
        into.checkpoint->restore = from.checkpoint->restore;
}

std::optional<std::string> fixed_for_the_run(const Scenario& from, const Scenario& to) {
    // `to` with every field a running trainer can take put back as in `from`: what is left to
    // differ must wait for a new run.
    Scenario same = to;
    same.name = from.name;
    take_mid_run_settings(same, from);
    const json a = scenario_json(from);
    const json b = scenario_json(same);
    if (a == b)
        return std::nullopt;
    const json patch = json::diff(a, b);
    // "/model/layers/2" names the field "model.layers".
    std::string field;
    std::string path = patch.empty() ? std::string() : patch.front().value("path", std::string());
    std::size_t at = 1;
    while (at <= path.size()) {
        const std::size_t next = std::min(path.find('/', at), path.size());
        const std::string part = path.substr(at, next - at);
        if (part.empty() || std::isdigit(static_cast<unsigned char>(part.front())))
            break;
        field += (field.empty() ? "" : ".") + part;
        at = next + 1;
    }
    return field.empty() ? std::string("scenario") : field;
}

std::string scenario_to_json(const Scenario& s) {
    return scenario_json(s).dump(2) + "\n";
}

} // namespace lockstep
