// Gradient buckets overlapping backward, and gradient accumulation: the same numbers as the plain
// run where the arithmetic is the same, and communication hidden exactly where the cost model says.
#include "clocks/cost_model.h"
#include "collectives/buckets.h"
#include "core/error.h"
#include "trainers/run.h"
#include "trainers/setup.h"

#include <QtTest>

#include "run_support.h"

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

using namespace lockstep;

namespace {

// Four layers of unequal size (192, 4160, 4160 and 195 parameters), no jitter.
Scenario layered(Algorithm algorithm = Algorithm::Ring) {
    Scenario s;
    s.workers = 4;
    s.steps = 12;
    s.algorithm = algorithm;
    s.model.layers = {2, 64, 64, 64, 3};
    return s;
}

Scenario with_buckets(Scenario s, std::size_t kb, bool overlap = true) {
    s.gradients = GradientConfig{kb, overlap, 1};
    return s;
}

// On the measured clock, layers big enough that backward lasts milliseconds, 64 KB buckets over
// a ring whose rounds last their price for real.
Scenario paced_layers(bool overlap, std::int64_t steps) {
    Scenario s = with_buckets(layered(Algorithm::Ring), 64, overlap);
    s.model.layers = {2, 256, 256, 256, 3};
    s.batch = 64;
    s.steps = steps;
    s.clock = ClockKind::Measured;
    s.cost.paced_links = true;
    return s;
}

using Outcome = lockstep::testing::TrainedRun;

Outcome train(const Scenario& s) {
    return lockstep::testing::train_run(s);
}

using lockstep::testing::largest_relative_difference;

} // namespace

class TestBuckets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void buckets_follow_backward_and_the_cap();
    void a_bucketed_run_gives_the_plain_runs_numbers();
    void a_bucketed_run_is_the_same_on_any_number_of_threads();
    void one_bucket_hides_nothing();
    void only_the_last_bucket_stays_exposed_when_the_others_fit_in_backward();
    void without_overlap_every_bucket_waits_for_backward();
    void the_trace_draws_backward_layer_by_layer_and_names_the_buckets();
    void accumulation_equals_a_k_fold_batch();
    void gradients_fit_only_bulk_synchronous_data_parallelism();
    void buckets_out_of_order_stop_their_step_on_every_collective();
    void the_measured_clock_overlaps_with_the_same_numbers();
    void a_communication_thread_reduces_buckets_while_backward_goes_on();
    void fewer_threads_than_workers_still_overlap_every_worker();
    void paced_links_make_each_round_last_its_price();
    void crashes_and_checkpoints_keep_a_bucketed_runs_numbers();
};

void TestBuckets::buckets_follow_backward_and_the_cap() {
    const std::vector<std::size_t> layers{192, 4160, 4160, 195};
    // No cap: one bucket, the whole gradient.
    auto one = make_buckets(layers, 0);
    QCOMPARE(one.size(), std::size_t{1});
    QCOMPARE(one[0].offset, std::size_t{0});
    QCOMPARE(one[0].count, std::size_t{8707});
    // 1 KB: every layer is larger, so each is a bucket of its own, the last layer first.
    auto each = make_buckets(layers, 1024);
    QCOMPARE(each.size(), std::size_t{4});
    QCOMPARE(each[0].first_layer, std::size_t{3});
    QCOMPARE(each[0].offset, std::size_t{8512});
    QCOMPARE(each[3].first_layer, std::size_t{0});
    QCOMPARE(each[3].offset, std::size_t{0});
    // 36 KB (36864 bytes) holds layers 3 and 2 (4355 doubles, 34840 bytes) but not layer 1
    // too; then layers 1 and 0 (4352 doubles, 34816 bytes).
    auto packed = make_buckets(layers, 36 * 1024);
    QCOMPARE(packed.size(), std::size_t{2});
    QCOMPARE(packed[0].first_layer, std::size_t{2});
    QCOMPARE(packed[0].end_layer, std::size_t{4});
    QCOMPARE(packed[0].bytes(), std::int64_t{4355 * 8});
    QCOMPARE(packed[1].first_layer, std::size_t{0});
    QCOMPARE(packed[1].count, std::size_t{4352});
    // One byte less than layers 3 and 2: layer 3 alone, layer 2 alone, then layers 1 and 0.
    QCOMPARE(make_buckets(layers, 34839).size(), std::size_t{3});
    // Together they cover the gradient once, without gaps.
    std::size_t covered = 0;
    for (const Bucket& b : packed)
        covered += b.count;
    QCOMPARE(covered, std::size_t{8707});

    // A bucket's schedule is the plain schedule of its length, moved to where it lies.
    const CommSchedule moved = bucket_schedule(Algorithm::Ring, 4, 8707, packed[1]);
    const CommSchedule plain = make_schedule(Algorithm::Ring, 4, 4160);
    QCOMPARE(moved.count, std::size_t{8707});
    QCOMPARE(moved.rounds.size(), plain.rounds.size());
    QCOMPARE(moved.rounds[0].messages[0].offset,
             plain.rounds[0].messages[0].offset + packed[1].offset);
}

void TestBuckets::a_bucketed_run_gives_the_plain_runs_numbers() {
    // The parameter server and the tree add every element in the same order whatever the
    // buckets: the same bits. The ring's chunks move with the buckets: the same to 1e-12.
    for (Algorithm a : {Algorithm::ParameterServer, Algorithm::Tree, Algorithm::Ring}) {
        const Outcome plain = train(layered(a));
        for (std::size_t kb : {1, 4, 36}) {
            const Outcome bucketed = train(with_buckets(layered(a), kb));
            QVERIFY(bucketed.metrics.buckets > 1);
            if (a == Algorithm::Ring) {
                QVERIFY(bucketed.parameters != plain.parameters); // the chunks did move
                QVERIFY(largest_relative_difference(plain.parameters, bucketed.parameters) < 1e-12);
            } else {
                QVERIFY2(bucketed.parameters == plain.parameters,
                         qPrintable(QString::fromStdString(std::string(to_string(a)))));
            }
            QCOMPARE(bucketed.metrics.final_loss, bucketed.metrics.final_loss); // not NaN
        }
    }
}

void TestBuckets::a_bucketed_run_is_the_same_on_any_number_of_threads() {
    for (bool measured : {false, true}) {
        Scenario s = with_buckets(layered(Algorithm::Ring), 4);
        s.steps = 6;
        s.clock = measured ? ClockKind::Measured : ClockKind::Modelled;
        std::vector<double> first;
        Ticks end = -1;
        for (int threads : {1, 2, 4}) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                      static_cast<std::size_t>(threads));
            const Outcome o = train(s);
            if (first.empty())
                first = o.parameters;
            QVERIFY(o.parameters == first);
            if (!measured) { // the modelled clock: the same times too
                const Ticks last = o.trace.snapshots().back().time;
                QVERIFY(end < 0 || last == end);
                end = last;
            }
        }
    }
}

void TestBuckets::one_bucket_hides_nothing() {
    // One bucket starts when backward is over, overlap or not: everything is exposed, exactly
    // as in the plain run.
    Scenario big = layered();
    big.gradients = GradientConfig{1024 * 1024, true, 1};
    const Outcome one = train(big);
    const Outcome plain = train(layered());
    QCOMPARE(one.metrics.buckets, 1);
    QCOMPARE(one.metrics.exposed_communication_s, one.metrics.collective_s);
    QCOMPARE(one.metrics.exposed_communication_s, plain.metrics.exposed_communication_s);
    QCOMPARE(one.metrics.total_time_s, plain.metrics.total_time_s);
    QCOMPARE(one.metrics.overlap_fraction, 0.0);
    QVERIFY(plain.metrics.collective_s > 0.0);
}

void TestBuckets::only_the_last_bucket_stays_exposed_when_the_others_fit_in_backward() {
    // Compute is slow against the links: every bucket's collective is over before backward
    // reaches the next one, so only the last bucket (layer 0's) is left once backward ends.
    Scenario s = with_buckets(layered(Algorithm::Ring), 1);
    s.cost.compute_s_per_sample = 1e-2;
    s.steps = 3;
    const Outcome o = train(s);
    QCOMPARE(o.metrics.buckets, 4);
    // The last bucket's collective alone, from lanes that stand level.
    const std::vector<std::size_t> layers{192, 4160, 4160, 195};
    const auto buckets = make_buckets(layers, 1024);
    const CommSchedule last = bucket_schedule(Algorithm::Ring, 4, 8707, buckets.back());
    const std::vector<int> lanes{0, 1, 2, 3};
    std::vector<Ticks> clocks(4, 0);
    price_schedule(last, {lanes, clocks, {}}, s.cost, 0, 0, nullptr);
    const Ticks last_bucket = *std::max_element(clocks.begin(), clocks.end());
    QVERIFY(last_bucket > 0);
    QCOMPARE(to_ticks(o.metrics.exposed_communication_s), last_bucket * s.steps);
    // Each step: the update begins that long after backward ended, on every worker.
    std::map<std::pair<int, std::int64_t>, Ticks> backward_end, update_start;
    for (const TraceEvent& e : o.trace.events()) {
        if (e.kind == EventKind::Backward)
            backward_end[{e.worker, e.step}] = std::max(backward_end[{e.worker, e.step}], e.end);
        if (e.kind == EventKind::Update)
            update_start[{e.worker, e.step}] = e.start;
    }
    QCOMPARE(update_start.size(), std::size_t{12});
    for (const auto& [key, start] : update_start)
        QCOMPARE(start - backward_end.at(key), last_bucket);
    QVERIFY(o.metrics.overlap_fraction > 0.5);
}

void TestBuckets::without_overlap_every_bucket_waits_for_backward() {
    Scenario s = with_buckets(layered(Algorithm::Ring), 1, false);
    s.cost.compute_s_per_sample = 1e-2;
    s.steps = 3;
    const Outcome o = train(s);
    const Outcome overlapped = train(with_buckets(s, 1, true));
    QCOMPARE(o.metrics.exposed_communication_s, o.metrics.collective_s);
    QCOMPARE(o.metrics.overlap_fraction, 0.0);
    QVERIFY(overlapped.metrics.total_time_s < o.metrics.total_time_s);
    QVERIFY(o.parameters == overlapped.parameters); // when, not what
    // No bucket's message leaves before its worker's backward has ended.
    std::map<std::pair<int, std::int64_t>, Ticks> backward_end;
    for (const TraceEvent& e : o.trace.events())
        if (e.kind == EventKind::Backward)
            backward_end[{e.worker, e.step}] = std::max(backward_end[{e.worker, e.step}], e.end);
    for (const TraceEvent& e : o.trace.events())
        if (e.kind == EventKind::Send)
            QVERIFY(e.start >= backward_end.at({e.worker, e.step}));
}

void TestBuckets::the_trace_draws_backward_layer_by_layer_and_names_the_buckets() {
    Scenario s = with_buckets(layered(Algorithm::Ring), 36);
    s.steps = 2;
    const Outcome o = train(s);
    std::vector<int> layers_of_worker0;
    std::map<int, Ticks> first_send; // per bucket, on worker 0 in step 0
    std::map<int, Ticks> done;       // per layer, worker 0 step 0
    for (const TraceEvent& e : o.trace.events()) {
        if (e.worker != 0 || e.step != 0)
            continue;
        if (e.kind == EventKind::Backward) {
            layers_of_worker0.push_back(e.layer);
            done[e.layer] = e.end;
        }
        if (e.kind == EventKind::Send) {
            QVERIFY(e.bucket >= 0 && e.bucket < 2);
            if (!first_send.count(e.bucket))
                first_send[e.bucket] = e.start;
        }
        if (e.kind == EventKind::Compute)
            QFAIL("a bucketed run draws its computation as forward and backward");
    }
    QCOMPARE(layers_of_worker0, (std::vector<int>{3, 2, 1, 0}));
    QCOMPARE(first_send.size(), std::size_t{2});
    // Bucket 0 (layers 3 and 2) leaves once layer 2 is done, before layer 1 is: overlap.
    QVERIFY(first_send[0] >= done[2]);
    QVERIFY(first_send[0] < done[1]);
    QVERIFY(first_send[1] >= done[0]);
}

void TestBuckets::accumulation_equals_a_k_fold_batch() {
    for (Algorithm a : {Algorithm::Ring, Algorithm::ParameterServer}) {
        Scenario big = layered(a);
        big.batch = 32;
        Scenario micro = layered(a);
        micro.batch = 8;
        micro.gradients = GradientConfig{0, true, 4};
        const Outcome b = train(big);
        const Outcome m = train(micro);
        QVERIFY(largest_relative_difference(b.parameters, m.parameters) < 1e-12);
        QCOMPARE(m.metrics.accumulation, 4);
        QCOMPARE(m.metrics.samples, b.metrics.samples);
        QCOMPARE(m.metrics.bytes_moved, b.metrics.bytes_moved);
        // Against the micro-batch alone, each sample moves a quarter of the bytes.
        Scenario alone = micro;
        alone.gradients.reset();
        const Outcome single = train(alone);
        QCOMPARE(single.metrics.bytes_moved, m.metrics.bytes_moved);
        QCOMPARE(single.metrics.samples * 4, m.metrics.samples);
    }
}

void TestBuckets::gradients_fit_only_bulk_synchronous_data_parallelism() {
    auto refused = [](const Scenario& s, const char* words) {
        try {
            validate(s);
        } catch (const Error& e) {
            return std::string(e.what()).find(words) != std::string::npos;
        }
        return false;
    };
    Scenario ssp = with_buckets(layered(Algorithm::ParameterServer), 4);
    ssp.sync = SyncConfig{SyncMode::Ssp};
    QVERIFY(refused(ssp, "sync mode bsp"));
    Scenario fixed = with_buckets(layered(), 4);
    fixed.cost.communication_s_per_step = 1.0;
    QVERIFY(refused(fixed, "no messages to put in buckets"));
    Scenario many = layered();
    many.batch = 1000;
    many.gradients = GradientConfig{0, true, 100};
    QVERIFY(refused(many, "gradients.accumulate: worker 0 would compute 100000 samples"));
    Scenario text = parse_scenario(R"({"gradients": {"bucket_kb": 16, "overlap": false}})");
    QCOMPARE(text.gradients->bucket_kb, std::size_t{16});
    QVERIFY(!text.gradients->overlap);
    QCOMPARE(parse_scenario(scenario_to_json(text)).gradients->bucket_kb, std::size_t{16});
    try {
        parse_scenario(R"({"gradients": {"bucket_mb": 16}})");
        QFAIL("an unknown key was taken");
    } catch (const Error& e) {
        QVERIFY(std::string(e.what()).find("gradients.bucket_mb") != std::string::npos);
    }
}

void TestBuckets::buckets_out_of_order_stop_their_step_on_every_collective() {
    for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer}) {
        for (bool measured : {false, true}) {
            Scenario s = with_buckets(layered(a), 4);
            s.steps = 6;
            s.clock = measured ? ClockKind::Measured : ClockKind::Modelled;
            s.failures.events.push_back(parse_failure_spec("bucket-order:worker=2,step=3"));
            const Outcome o = train(s);
            QCOMPARE(o.metrics.abandoned_steps, std::int64_t{1});
            QVERIFY(o.metrics.replicas_aligned);
            // Seen within the step: one mismatch, in step 3, naming another bucket than the
            // one its receiver reduces; nobody updates in that step.
            int mismatches = 0;
            for (const TraceEvent& e : o.trace.events()) {
                if (e.kind == EventKind::Mismatch) {
                    ++mismatches;
                    QCOMPARE(e.step, std::int64_t{3});
                    QVERIFY(static_cast<int>(e.value) != e.bucket);
                    QVERIFY(e.worker == 2 || e.peer == 2);
                }
                if (e.step == 3)
                    QVERIFY(e.kind != EventKind::Update);
            }
            QCOMPARE(mismatches, 1);
            const auto& snaps = o.trace.snapshots();
            QCOMPARE(snaps.size(), std::size_t{6});
            QCOMPARE(snaps[3].parameter_hash, snaps[2].parameter_hash);  // nothing applied
            QVERIFY(snaps[4].parameter_hash != snaps[3].parameter_hash); // and then on again
            QCOMPARE(o.metrics.useful_samples, o.metrics.samples - 4 * 16);
        }
    }
    // One bucket has no order to get wrong: the scenario says so.
    Scenario whole = layered();
    whole.failures.events.push_back(parse_failure_spec("bucket-order:worker=2,step=3"));
    QVERIFY_THROWS_EXCEPTION(Error, validate(whole));
}

void TestBuckets::the_measured_clock_overlaps_with_the_same_numbers() {
    // Real threads: the buckets leave from inside backward on a communication thread. Clocks
    // change no addition, so the parameters are bit for bit the modelled run's.
    for (Algorithm a : {Algorithm::ParameterServer, Algorithm::Ring, Algorithm::Tree})
        for (int accumulate : {1, 3}) {
            Scenario s = with_buckets(layered(a), 16);
            s.gradients->accumulate = accumulate;
            s.steps = 6;
            const Outcome modelled = train(s);
            s.clock = ClockKind::Measured;
            const Outcome measured = train(s);
            QCOMPARE(measured.parameters, modelled.parameters);
            QCOMPARE(measured.metrics.buckets, modelled.metrics.buckets);
            QCOMPARE(measured.metrics.bytes_moved, modelled.metrics.bytes_moved);
            QVERIFY(measured.metrics.exposed_communication_s <= measured.metrics.collective_s);
            QVERIFY(measured.metrics.overlap_fraction >= 0.0);
            QVERIFY(measured.metrics.overlap_fraction <= 1.0);
            // Each worker's backward is drawn layer by layer from the real hand-overs, and every
            // bucket's messages carry its id.
            std::map<int, int> layers_seen, buckets_seen;
            for (const TraceEvent& e : measured.trace.events()) {
                if (e.kind == EventKind::Backward)
                    ++layers_seen[e.layer];
                if (e.kind == EventKind::Send)
                    ++buckets_seen[e.bucket];
            }
            QCOMPARE(layers_seen.size(), std::size_t{4});
            QCOMPARE(layers_seen[0], 4 * 6);
            QCOMPARE(static_cast<int>(buckets_seen.size()), measured.metrics.buckets);
            QVERIFY(!buckets_seen.contains(-1));
        }
}

void TestBuckets::a_communication_thread_reduces_buckets_while_backward_goes_on() {
    // Layers big enough that backward lasts milliseconds, and paced links: with overlap some
    // step's first bucket is on the wire before the last worker's backward is over; without
    // overlap never.
    for (bool overlap : {true, false}) {
        const Scenario s = paced_layers(overlap, 5);
        const Outcome o = train(s);
        int overlapped = 0;
        for (std::int64_t step = 0; step < s.steps; ++step) {
            Ticks first_send = std::numeric_limits<Ticks>::max(), backward_over = 0;
            for (const TraceEvent& e : o.trace.events()) {
                if (e.step != step)
                    continue;
                if (e.kind == EventKind::Send && e.bucket == 0)
                    first_send = std::min(first_send, e.start);
                if (e.kind == EventKind::Backward || e.kind == EventKind::Compute)
                    backward_over = std::max(backward_over, e.end);
            }
            overlapped += first_send < backward_over ? 1 : 0;
        }
        if (overlap)
            QVERIFY(overlapped > 0);
        else
            QCOMPARE(overlapped, 0);
    }
}

void TestBuckets::fewer_threads_than_workers_still_overlap_every_worker() {
    // One thread for four workers: the passes go a layer at a time, each layer on every worker
    // before the next, so the first bucket leaves while every worker still has layers to go. A
    // whole pass per task would finish worker 0's backward before worker 3's began, and the first
    // bucket, which needs all four, would leave after it, in every step. (In some step, not in
    // all: on a loaded machine the communication thread may get a core late.)
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    const Scenario s = paced_layers(true, 6);
    const Outcome o = train(s);
    int early = 0; // steps whose first bucket left before any worker's backward was over
    for (std::int64_t step = 0; step < s.steps; ++step) {
        Ticks first_send = std::numeric_limits<Ticks>::max();
        std::map<int, Ticks> backward_over;
        for (const TraceEvent& e : o.trace.events()) {
            if (e.step != step)
                continue;
            if (e.kind == EventKind::Send && e.bucket == 0)
                first_send = std::min(first_send, e.start);
            if (e.kind == EventKind::Backward)
                backward_over[e.worker] = std::max(backward_over[e.worker], e.end);
        }
        QCOMPARE(backward_over.size(), std::size_t{4});
        early += std::all_of(backward_over.begin(), backward_over.end(),
                             [&](const auto& over) { return first_send < over.second; })
                     ? 1
                     : 0;
    }
    QVERIFY(early > 0);
    // And the same bits as the modelled run.
    Scenario modelled = s;
    modelled.clock = ClockKind::Modelled;
    modelled.cost.paced_links = false;
    QCOMPARE(o.parameters, train(modelled).parameters);
}

void TestBuckets::paced_links_make_each_round_last_its_price() {
    // A 5 ms latency per message: each of a 4-worker ring's 6 rounds lasts at least that for
    // real when the links are paced, and a copy in memory takes far less when they are not.
    Scenario s = layered(Algorithm::Ring);
    s.steps = 3;
    s.model.layers = {2, 8, 3};
    s.clock = ClockKind::Measured;
    s.cost.alpha_s = 5e-3;
    const double floor = 3 * 6 * 5e-3;
    const Outcome plain = train(s);
    QVERIFY(plain.metrics.collective_s < floor / 2);
    s.cost.paced_links = true;
    const Outcome paced = train(s);
    QVERIFY(paced.metrics.collective_s >= floor);
    QCOMPARE(paced.parameters, plain.parameters);
    // Pacing is how the measured clock's links take time: it is no part of the training.
    Scenario modelled = s;
    modelled.clock = ClockKind::Modelled;
    Scenario unpaced = modelled;
    unpaced.cost.paced_links = false;
    QCOMPARE(scenario_hash(modelled), scenario_hash(unpaced));
    QCOMPARE(train(modelled).metrics.total_time_s, train(unpaced).metrics.total_time_s);
}

void TestBuckets::crashes_and_checkpoints_keep_a_bucketed_runs_numbers() {
    // A crash in the middle of a bucketed run with accumulation, recovered from a full
    // checkpoint, ends bit for bit where the run without the crash ends, on every collective.
    for (Algorithm a : {Algorithm::ParameterServer, Algorithm::Ring, Algorithm::Tree}) {
        Scenario s = with_buckets(layered(a), 16);
        s.gradients->accumulate = 2;
        s.steps = 10;
        const Outcome clean = train(s);
        s.checkpoint = CheckpointConfig{3, 1000, false, RestoreMode::Full};
        s.failures.policy = RecoveryPolicy::Restart;
        s.failures.events.push_back(parse_failure_spec("crash:worker=1,step=7,phase=communicate"));
        QTemporaryDir dir;
        Trace trace;
        auto run = make_run(s, load_dataset(s), &trace);
        run->set_checkpoint_directory(dir.path().toStdString());
        run->run_to_end();
        QCOMPARE(run->parameters(), clean.parameters);
        QCOMPARE(run->recoveries().size(), std::size_t{1});
        QVERIFY(run->metrics().lost_steps > 0);
    }
}

QTEST_GUILESS_MAIN(TestBuckets)
#include "test_buckets.moc"
