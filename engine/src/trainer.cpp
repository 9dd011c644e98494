#include "lockstep/trainer.h"

#include "lockstep/error.h"
#include "lockstep/reduction.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <numeric>
#include <thread>

namespace lockstep {

namespace {

std::vector<Shard> make_shards(const Scenario& s, std::size_t rows) {
    if (s.shard_sizes.empty())
        return equal_shards(rows, s.workers);
    try {
        return sized_shards(rows, s.shard_sizes);
    } catch (const Error& e) {
        throw Error(std::string("shard_sizes: ") + e.what());
    }
}

std::vector<double> initial_parameters(const Scenario& s) {
    if (!s.init_params.empty())
        return parameters_from_json(s.model, read_text_file(s.init_params));
    Rng rng = Rng::stream(s.seed, 0);
    return init_parameters(s.model, rng);
}

void check_data_fits(const Scenario& s, const Dataset& data) {
    if (data.dim != static_cast<std::size_t>(s.model.inputs()))
        throw Error("model.layers[0]: the dataset has " + std::to_string(data.dim) +
                    " features per row, but the model takes " + std::to_string(s.model.inputs()));
    if (data.task == Task::Regression && s.model.loss != LossKind::MeanSquaredError)
        throw Error("model.loss: the dataset's labels are values (regression); use \"mse\"");
    if (data.task == Task::Classification && s.model.loss == LossKind::SoftmaxCrossEntropy &&
        data.classes > s.model.outputs())
        throw Error("model.layers: the dataset has " + std::to_string(data.classes) +
                    " classes, but the model has " + std::to_string(s.model.outputs()) +
                    " outputs");
    if (data.size() < static_cast<std::size_t>(s.workers))
        throw Error("dataset: " + std::to_string(data.size()) + " rows cannot be shared by " +
                    std::to_string(s.workers) + " workers");
}

// Adds the intervals of one worker's lane into `into`, walking kinds into their bucket.
void add_event(WorkerMetrics& m, const TraceEvent& e) {
    const double d = to_seconds(e.end - e.start);
    switch (e.kind) {
    case EventKind::Compute:
        m.compute_s += d;
        break;
    case EventKind::Wait:
    case EventKind::Pause:
        m.waiting_s += d;
        break;
    case EventKind::Update:
        m.update_s += d;
        break;
    case EventKind::Communicate:
        m.communication_s += d;
        break;
    case EventKind::Send:
    case EventKind::Receive:
    case EventKind::Reduce:
        break; // full-duplex intervals may overlap: counted as a union below
    }
}

} // namespace

std::vector<WorkerMetrics> worker_metrics(std::span<const TraceEvent> events, int workers) {
    std::vector<WorkerMetrics> out(static_cast<std::size_t>(workers));
    std::vector<std::vector<std::pair<Ticks, Ticks>>> comm(out.size());
    for (const auto& e : events) {
        if (e.worker < 0 || e.worker >= workers)
            continue;
        const auto w = static_cast<std::size_t>(e.worker);
        add_event(out[w], e);
        if (e.kind == EventKind::Send || e.kind == EventKind::Receive ||
            e.kind == EventKind::Reduce)
            comm[w].emplace_back(e.start, e.end);
    }
    // Communication time is the union of a worker's send, receive and reduce intervals.
    for (std::size_t w = 0; w < out.size(); ++w) {
        auto& list = comm[w];
        std::sort(list.begin(), list.end());
        Ticks covered = 0;
        Ticks until = std::numeric_limits<Ticks>::min();
        for (const auto& [start, end] : list) {
            const Ticks from = std::max(start, until);
            if (end > from)
                covered += end - from;
            until = std::max(until, end);
        }
        out[w].communication_s += to_seconds(covered);
    }
    return out;
}

std::shared_ptr<const Dataset> load_dataset(const Scenario& s) {
    if (!s.dataset.csv.empty())
        return std::make_shared<const Dataset>(load_csv(s.dataset.csv));
    SyntheticSpec spec;
    spec.name = s.dataset.name;
    spec.samples = s.dataset.samples;
    spec.noise = s.dataset.noise;
    spec.classes =
        (s.dataset.name == "xor" || s.dataset.name == "circles" || s.dataset.name == "regression")
            ? (s.dataset.name == "regression" ? 1 : 2)
            : s.dataset.classes;
    spec.seed = s.seed;
    return std::make_shared<const Dataset>(make_synthetic(spec));
}

DataParallelTrainer::DataParallelTrainer(const Scenario& scenario,
                                         std::shared_ptr<const Dataset> data, TraceSink* sink)
    : scenario_(scenario)
    , data_(std::move(data))
    , sink_(sink)
    , run_rng_(Rng::stream(scenario.seed, 1)) {
    validate(scenario_);
    if (!data_)
        throw Error("dataset: no data");
    check_data_fits(scenario_, *data_);

    const int n = scenario_.workers;
    const auto shards = make_shards(scenario_, data_->size());
    const auto params = initial_parameters(scenario_);
    const std::size_t count = params.size();

    workers_.reserve(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        Worker w{k,
                 params,
                 Optimizer(scenario_.optimizer, count),
                 DataCursor(shards[static_cast<std::size_t>(k)], scenario_.shuffle,
                            Rng::stream(scenario_.seed, 1000 + static_cast<std::uint64_t>(k))),
                 std::vector<double>(count, 0.0),
                 {},
                 {},
                 {},
                 {},
                 {},
                 0};
        workers_.push_back(std::move(w));
    }

    schedule_ = make_schedule(scenario_.algorithm, n, count);
    std::vector<double> samples(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k)
        samples[static_cast<std::size_t>(k)] = static_cast<double>(scenario_.batch_of(k));
    weights_ = reduction_weights(scenario_.rule, n, samples);

    // Textbook mode spreads the one-worker job's compute evenly over its samples.
    compute_s_per_sample_ = scenario_.cost.compute_s_per_sample;
    if (scenario_.cost.one_worker_compute_s) {
        const std::size_t reference_batch =
            scenario_.scaling == Scaling::Strong ? scenario_.global_batch() : scenario_.batch_of(0);
        compute_s_per_sample_ =
            *scenario_.cost.one_worker_compute_s /
            (static_cast<double>(scenario_.steps) * static_cast<double>(reference_batch));
    }
    totals_.assign(static_cast<std::size_t>(n), {});
    start_ = std::chrono::steady_clock::now();
}

void DataParallelTrainer::set_slowdown(int worker, double factor) {
    if (worker < 0 || worker >= scenario_.workers)
        throw Error("slowdown: no worker " + std::to_string(worker));
    if (!(factor >= 1.0 && factor <= 100.0))
        throw Error("slowdown: the factor must be between 1 and 100");
    auto& slowdown = scenario_.delays.slowdown;
    if (slowdown.size() <= static_cast<std::size_t>(worker))
        slowdown.resize(static_cast<std::size_t>(worker) + 1, 1.0);
    slowdown[static_cast<std::size_t>(worker)] = factor;
}

void DataParallelTrainer::add_pause(int worker, std::int64_t step, double seconds) {
    if (worker < 0 || worker >= scenario_.workers)
        throw Error("pause: no worker " + std::to_string(worker));
    if (!(seconds >= 0.0 && seconds <= 86400.0))
        throw Error("pause: the length must be between 0 and 86400 seconds");
    scenario_.delays.pauses.push_back({worker, step, seconds});
}

void DataParallelTrainer::run() {
    while (!finished())
        step();
}

void DataParallelTrainer::step() {
    if (finished())
        return;
    std::vector<TraceEvent> events;
    compute_phase(events);     // 1-2: own gradient, scaled by the rule's weight
    communicate_phase(events); // 3: the collective combines them
    update_phase(events);      // 4-5: same update everywhere, then hash
    const auto spent = worker_metrics(events, scenario_.workers);
    for (std::size_t w = 0; w < totals_.size(); ++w) {
        totals_[w].compute_s += spent[w].compute_s;
        totals_[w].communication_s += spent[w].communication_s;
        totals_[w].waiting_s += spent[w].waiting_s;
        totals_[w].update_s += spent[w].update_s;
    }
    if (sink_)
        sink_->on_events(events);
    finish_step();
}

Ticks DataParallelTrainer::now_measured() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                start_)
        .count();
}

Ticks DataParallelTrainer::compute_cost(int worker, std::size_t samples) {
    double seconds =
        compute_s_per_sample_ * static_cast<double>(samples) * scenario_.slowdown_of(worker);
    if (scenario_.cost.jitter > 0.0)
        seconds *= 1.0 + scenario_.cost.jitter * run_rng_.uniform(-1.0, 1.0);
    if (scenario_.delays.straggler_probability > 0.0 &&
        run_rng_.uniform() < scenario_.delays.straggler_probability)
        seconds *= scenario_.delays.straggler_factor;
    return to_ticks(seconds);
}

void DataParallelTrainer::compute_phase(std::vector<TraceEvent>& events) {
    const auto n = workers_.size();
    const bool modelled = scenario_.clock == ClockKind::Modelled;
    const bool synchronised = scenario_.algorithm != Algorithm::None;

    // Modelled costs are drawn serially, in worker order, so they never depend on threads.
    std::vector<Ticks> cost(n, 0), pause(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
        if (modelled)
            cost[k] = compute_cost(static_cast<int>(k), scenario_.batch_of(static_cast<int>(k)));
        for (const auto& p : scenario_.delays.pauses)
            if (p.worker == static_cast<int>(k) && p.step == step_)
                pause[k] += to_ticks(p.seconds);
    }

    std::vector<Ticks> started(n), ended(n);
    tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
        Worker& w = workers_[k];
        started[k] = modelled ? 0 : now_measured();
        w.cursor.next_batch(scenario_.batch_of(static_cast<int>(k)), w.rows);
        gather_rows(*data_, w.rows, w.batch_features, w.batch_targets);
        const BatchView batch{w.batch_features.data(), w.batch_targets.data(), w.rows.size()};
        w.last = loss_and_gradient(scenario_.model, w.parameters, batch, w.gradient, w.work);
        ended[k] = modelled ? 0 : now_measured();
    });

    Ticks latest = 0;
    for (std::size_t k = 0; k < n; ++k) {
        Worker& w = workers_[k];
        const int id = static_cast<int>(k);
        const double gradient0 = w.gradient.empty() ? 0.0 : w.gradient[0];
        if (modelled) {
            if (pause[k] > 0) {
                events.push_back({id, EventKind::Pause, step_, w.clock, w.clock + pause[k]});
                w.clock += pause[k];
            }
            events.push_back(
                {id, EventKind::Compute, step_, w.clock, w.clock + cost[k], 0, -1, -1, gradient0});
            w.clock += cost[k];
        } else {
            // A slowed or paused worker is realised as a real sleep of the training loop's thread,
            // after the tasks have finished, never inside a task that others depend on.
            const Ticks real = ended[k] - started[k];
            const auto extra =
                static_cast<Ticks>(static_cast<double>(real) * (scenario_.slowdown_of(id) - 1.0));
            events.push_back({id, EventKind::Compute, step_, started[k], ended[k] + extra, 0, -1,
                              -1, gradient0});
            w.clock = ended[k] + extra;
            if (pause[k] > 0) {
                events.push_back({id, EventKind::Pause, step_, w.clock, w.clock + pause[k]});
                w.clock += pause[k];
            }
            latest = std::max(latest, w.clock);
        }
        if (synchronised)
            scale_contribution(w.gradient, weights_[k]);
        samples_ += static_cast<std::int64_t>(w.rows.size());
    }
    if (!modelled && latest > now_measured())
        std::this_thread::sleep_for(std::chrono::nanoseconds(latest - now_measured()));
}

void DataParallelTrainer::barrier(std::vector<TraceEvent>& events) {
    Ticks latest = 0;
    for (const auto& w : workers_)
        latest = std::max(latest, w.clock);
    for (auto& w : workers_) {
        if (w.clock < latest)
            events.push_back({w.id, EventKind::Wait, step_, w.clock, latest});
        w.clock = latest;
    }
}

void DataParallelTrainer::communicate_phase(std::vector<TraceEvent>& events) {
    if (scenario_.algorithm == Algorithm::None || workers_.size() == 1)
        return;

    // The real data movement: every round's bytes go from buffer to buffer.
    std::vector<std::span<double>> buffers;
    buffers.reserve(workers_.size());
    for (auto& w : workers_)
        buffers.emplace_back(w.gradient);
    bytes_moved_ += schedule_.total_bytes();

    const bool modelled = scenario_.clock == ClockKind::Modelled;
    if (scenario_.cost.communication_s_per_step) {
        // Textbook mode: a barrier, then a fixed communication time for everyone.
        if (!modelled) {
            for (auto& w : workers_)
                w.clock = std::max(w.clock, now_measured());
        }
        run_all_reduce(schedule_, transport_, buffers);
        barrier(events);
        const Ticks cost = to_ticks(*scenario_.cost.communication_s_per_step);
        if (!modelled)
            std::this_thread::sleep_for(std::chrono::nanoseconds(cost));
        for (auto& w : workers_) {
            events.push_back(
                {w.id, EventKind::Communicate, step_, w.clock, w.clock + cost,
                 schedule_.total_bytes() / static_cast<std::int64_t>(workers_.size())});
            w.clock += cost;
        }
        return;
    }
    if (modelled) {
        run_all_reduce(schedule_, transport_, buffers);
        price_schedule(events);
    } else {
        run_measured_collective(events);
    }
}

// Every gap on a worker's lane between `from` and its next activity in this round is waiting.
// `first_new` is where this round's events start in `events`.
static void fill_waits(std::vector<TraceEvent>& events, std::size_t first_new,
                       std::span<const Ticks> from, std::int64_t step) {
    std::vector<std::vector<std::pair<Ticks, Ticks>>> busy(from.size());
    for (std::size_t i = first_new; i < events.size(); ++i)
        busy[static_cast<std::size_t>(events[i].worker)].emplace_back(events[i].start,
                                                                      events[i].end);
    for (std::size_t w = 0; w < busy.size(); ++w) {
        auto& list = busy[w];
        std::sort(list.begin(), list.end());
        Ticks at = from[w];
        for (const auto& [start, end] : list) {
            if (start > at)
                events.push_back({static_cast<int>(w), EventKind::Wait, step, at, start});
            at = std::max(at, end);
        }
    }
}

void DataParallelTrainer::price_schedule(std::vector<TraceEvent>& events) {
    const auto n = workers_.size();
    const auto& cost = scenario_.cost;
    std::vector<Ticks> out_free(n, 0), in_free(n, 0);
    for (std::size_t r = 0; r < schedule_.rounds.size(); ++r) {
        const Round& round = schedule_.rounds[r];
        const std::size_t first_new = events.size();
        std::vector<Ticks> round_start(n), round_end(n);
        for (std::size_t k = 0; k < n; ++k)
            round_start[k] = round_end[k] = workers_[k].clock;

        // A shared link serves its messages one at a time, first come first served.
        std::vector<std::size_t> order(round.messages.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const auto& ma = round.messages[a];
            const auto& mb = round.messages[b];
            return std::max(round_start[static_cast<std::size_t>(ma.src)],
                            round_start[static_cast<std::size_t>(ma.dst)]) <
                   std::max(round_start[static_cast<std::size_t>(mb.src)],
                            round_start[static_cast<std::size_t>(mb.dst)]);
        });
        for (std::size_t index : order) {
            const Message& m = round.messages[index];
            const auto src = static_cast<std::size_t>(m.src);
            const auto dst = static_cast<std::size_t>(m.dst);
            const double bytes = static_cast<double>(m.bytes());
            const Ticks start =
                std::max({round_start[src], round_start[dst], out_free[src], in_free[dst]});
            const Ticks end = start + to_ticks(cost.alpha_s + bytes * cost.beta_s_per_byte);
            const int ri = static_cast<int>(r);
            events.push_back({m.src, EventKind::Send, step_, start, end, m.bytes(), m.dst, ri});
            events.push_back({m.dst, EventKind::Receive, step_, start, end, m.bytes(), m.src, ri});
            Ticks done = end;
            if (m.op == Message::Op::Reduce && cost.gamma_s_per_byte > 0.0) {
                done = end + to_ticks(bytes * cost.gamma_s_per_byte);
                events.push_back(
                    {m.dst, EventKind::Reduce, step_, end, done, m.bytes(), m.src, ri});
            }
            out_free[src] = end;
            in_free[dst] = done;
            round_end[src] = std::max(round_end[src], end);
            round_end[dst] = std::max(round_end[dst], done);
        }
        fill_waits(events, first_new, round_start, step_);
        for (std::size_t k = 0; k < n; ++k)
            workers_[k].clock = round_end[k];
    }
}

void DataParallelTrainer::run_measured_collective(std::vector<TraceEvent>& events) {
    std::vector<std::span<double>> buffers;
    for (auto& w : workers_)
        buffers.emplace_back(w.gradient);
    for (std::size_t r = 0; r < schedule_.rounds.size(); ++r) {
        const Round& round = schedule_.rounds[r];
        const std::size_t first_new = events.size();
        const Ticks start = now_measured();
        transport_.execute(round, buffers);
        const Ticks end = now_measured();
        const int ri = static_cast<int>(r);
        for (const auto& m : round.messages) {
            events.push_back({m.src, EventKind::Send, step_, start, end, m.bytes(), m.dst, ri});
            events.push_back({m.dst, EventKind::Receive, step_, start, end, m.bytes(), m.src, ri});
        }
        std::vector<Ticks> from;
        for (const auto& w : workers_)
            from.push_back(w.clock);
        fill_waits(events, first_new, from, step_);
        for (auto& w : workers_) {
            bool involved = false;
            for (const auto& m : round.messages)
                involved = involved || m.src == w.id || m.dst == w.id;
            if (involved)
                w.clock = std::max(w.clock, end);
        }
    }
}

void DataParallelTrainer::update_phase(std::vector<TraceEvent>& events) {
    const auto n = workers_.size();
    const bool modelled = scenario_.clock == ClockKind::Modelled;
    std::vector<Ticks> started(n), ended(n);
    std::vector<std::uint64_t> hashes(n);
    tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
        Worker& w = workers_[k];
        started[k] = modelled ? 0 : now_measured();
        w.optimizer.apply(w.parameters, w.gradient);
        hashes[k] = hash_parameters(w.parameters);
        ended[k] = modelled ? 0 : now_measured();
    });
    const Ticks update = to_ticks(scenario_.cost.update_s);
    for (std::size_t k = 0; k < n; ++k) {
        Worker& w = workers_[k];
        const double gradient0 = w.gradient.empty() ? 0.0 : w.gradient[0];
        const Ticks start = modelled ? w.clock : std::max(w.clock, started[k]);
        const Ticks end = modelled ? w.clock + update : std::max(start, ended[k]);
        if (end > start || modelled)
            events.push_back({w.id, EventKind::Update, step_, start, end, 0, -1, -1, gradient0});
        w.clock = end;
    }

    StepSnapshot snap;
    snap.step = step_;
    std::size_t correct = 0, counted = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const Worker& w = workers_[k];
        snap.time = std::max(snap.time, w.clock);
        snap.worker_loss.push_back(w.last.loss);
        snap.parameter_hash.push_back(hashes[k]);
        snap.loss += w.last.loss / static_cast<double>(n);
        correct += w.last.correct;
        counted += w.last.count;
        snap.replicas_aligned = snap.replicas_aligned && hashes[k] == hashes[0];
    }
    snap.accuracy = counted ? static_cast<double>(correct) / static_cast<double>(counted) : 0.0;
    last_snapshot_ = std::move(snap);
}

void DataParallelTrainer::finish_step() {
    aligned_ = last_snapshot_.replicas_aligned;
    if (!aligned_)
        ++misaligned_steps_;
    if (sink_)
        sink_->on_snapshot(last_snapshot_);
    ++step_;
}

RunMetrics DataParallelTrainer::metrics() const {
    RunMetrics m;
    m.workers = scenario_.workers;
    m.steps = step_;
    m.samples = samples_;
    Ticks end = 0;
    for (const auto& w : workers_)
        end = std::max(end, w.clock);
    m.total_time_s = to_seconds(end);
    m.step_time_s = step_ ? m.total_time_s / static_cast<double>(step_) : 0.0;
    m.throughput = m.total_time_s > 0 ? static_cast<double>(samples_) / m.total_time_s : 0.0;
    m.per_worker = totals_;
    const double n = static_cast<double>(totals_.size());
    for (const auto& w : totals_) {
        m.compute_s += w.compute_s / n;
        m.communication_s += w.communication_s / n;
        m.waiting_s += w.waiting_s / n;
        m.update_s += w.update_s / n;
    }
    m.bytes_moved = bytes_moved_;
    m.final_loss = last_snapshot_.loss;
    m.final_accuracy = last_snapshot_.accuracy;
    m.replicas_aligned = aligned_;
    m.misaligned_steps = misaligned_steps_;
    return m;
}

Scenario baseline_scenario(const Scenario& scenario) {
    Scenario base = scenario;
    base.workers = 1;
    base.batch =
        scenario.scaling == Scaling::Strong ? scenario.global_batch() : scenario.batch_of(0);
    base.worker_batch.clear();
    base.shard_sizes.clear();
    base.delays = {};
    if (base.batch > ScenarioLimits::max_batch)
        base.batch = ScenarioLimits::max_batch;
    return base;
}

RunResult run_scenario(const Scenario& scenario, TraceSink* sink) {
    auto data = load_dataset(scenario);
    DataParallelTrainer trainer(scenario, data, sink);
    trainer.run();
    RunResult result{trainer.metrics(), trainer.workers().front().parameters};

    const Scenario base = baseline_scenario(scenario);
    DataParallelTrainer reference(base, data, nullptr);
    reference.run();
    const RunMetrics ref = reference.metrics();
    auto& m = result.metrics;
    m.baseline_time_s = ref.total_time_s;
    if (m.total_time_s > 0) {
        // Strong scaling: the same work, so speedup is the ratio of times. Weak scaling: N times
        // the work, so speedup is the ratio of throughputs.
        const double work_ratio =
            scenario.scaling == Scaling::Strong ? 1.0 : static_cast<double>(scenario.workers);
        m.speedup = work_ratio * ref.total_time_s / m.total_time_s;
        m.efficiency = m.speedup / static_cast<double>(scenario.workers);
    }
    return result;
}

std::vector<SweepPoint> sweep(const Scenario& scenario, std::span<const int> worker_counts) {
    std::vector<SweepPoint> points(worker_counts.size());
    auto one = [&](std::size_t i) {
        Scenario s = scenario;
        s.workers = worker_counts[i];
        s.worker_batch.clear();
        s.shard_sizes.clear();
        if (s.delays.slowdown.size() > static_cast<std::size_t>(s.workers))
            s.delays.slowdown.resize(static_cast<std::size_t>(s.workers));
        std::erase_if(s.delays.pauses, [&](const PauseDelay& p) { return p.worker >= s.workers; });
        points[i] = {s.workers, run_scenario(s).metrics};
    };
    // Measured runs would disturb each other's timings (and they sleep): run those one by one.
    if (scenario.clock == ClockKind::Measured) {
        for (std::size_t i = 0; i < points.size(); ++i)
            one(i);
    } else {
        tbb::parallel_for(std::size_t{0}, points.size(), one);
    }
    return points;
}

} // namespace lockstep
