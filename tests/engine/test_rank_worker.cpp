// One worker per rank, each holding only its own replica and exchanging nothing but messages,
// must end with the bits of the data-parallel workers on threads: what a run over processes
// (Open MPI) rests on. Here the ranks are threads that share only a mailbox transport.

#include "collectives/schedule.h"
#include "data/data.h"
#include "runs/runs.h"
#include "trainers/rank_worker.h"

#include "test_support.h"
#include "transport_support.h"

#include <QtTest>

#include <algorithm>
#include <barrier>
#include <limits>
#include <memory>
#include <set>
#include <thread>
#include <vector>

using namespace lockstep;

namespace {

Scenario small(int workers, Algorithm algorithm, ReductionRule rule) {
    Scenario s;
    s.name = "ranks";
    s.seed = 17;
    s.steps = 6;
    s.workers = workers;
    s.batch = 6;
    if (rule == ReductionRule::WeightedMean) // unequal batches, so the weights matter
        for (int k = 0; k < workers; ++k)
            s.worker_batch.push_back(static_cast<std::size_t>(3 + 2 * k));
    s.rule = rule;
    s.algorithm = algorithm;
    s.model = ModelShape{{2, 7, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.optimizer = OptimizerConfig{OptimizerKind::Adam, 0.05, 0.0, 0.9, 0.999, 1e-8};
    s.dataset = DatasetConfig{"spiral", "", 240, 0.1, 3};
    return s;
}

// The other ranks over threads: one barrier and one mailbox transport shared by all, the
// schedule run rank by rank.
struct Threads {
    explicit Threads(const Scenario& s, std::size_t count)
        : schedule(make_schedule(s.algorithm, s.workers, count))
        , mailbox(s.workers)
        , gate(s.workers) {}
    CommSchedule schedule;
    testing::MailboxTransport mailbox;
    std::barrier<> gate;
};

class ThreadRank final : public RankGroup {
public:
    ThreadRank(Threads& shared, int rank, bool beside = false)
        : shared_(shared)
        , rank_(rank)
        , beside_(beside) {}
    void barrier() override { shared_.gate.arrive_and_wait(); }
    bool reduces_beside_compute() const override { return beside_; }
    void all_reduce(std::span<double> gradient, const Clock& clock, std::int64_t step,
                    std::vector<TraceEvent>& events) override {
        schedule_all_reduce(shared_.schedule, shared_.mailbox, rank_, gradient, clock, step,
                            events);
    }
    void all_reduce(const CommSchedule& schedule, std::span<double> gradient, const Clock& clock,
                    std::int64_t step, std::vector<TraceEvent>& events) override {
        schedule_all_reduce(schedule, shared_.mailbox, rank_, gradient, clock, step, events);
    }

private:
    Threads& shared_;
    int rank_;
    bool beside_;
};

// Every rank's worker at the end of the run, each run on its own thread (keeping its events when
// asked).
// With `beside`, buckets that overlap backward leave during it, from a thread of their own.
std::vector<RankWorker> run_ranks(const Scenario& s, bool keep_events = false,
                                  bool beside = false) {
    const auto data = load_dataset(s);
    std::vector<RankWorker> ranks;
    for (int k = 0; k < s.workers; ++k) {
        ranks.emplace_back(s, data, k);
        ranks.back().keep_events(keep_events);
    }
    Threads shared(s, ranks.front().parameters().size());
    std::vector<std::thread> threads;
    for (int k = 0; k < s.workers; ++k)
        threads.emplace_back([&, k] {
            ThreadRank group(shared, k, beside);
            RankWorker& me = ranks[static_cast<std::size_t>(k)];
            group.barrier();
            me.start_clock();
            while (!me.finished())
                me.step(group);
        });
    for (auto& t : threads)
        t.join();
    return ranks;
}

struct Recorder final : TraceSink {
    std::vector<StepSnapshot> snapshots;
    void on_events(std::span<const TraceEvent>) override {}
    void on_snapshot(const StepSnapshot& s) override { snapshots.push_back(s); }
};

} // namespace

class TestRankWorker : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void same_bits_as_threads_data() {
        QTest::addColumn<int>("workers");
        QTest::addColumn<int>("algorithm");
        QTest::addColumn<int>("rule");
        for (Algorithm a :
             {Algorithm::ParameterServer, Algorithm::Ring, Algorithm::Tree, Algorithm::None})
            for (int n = 1; n <= 5; ++n)
                for (ReductionRule r :
                     {ReductionRule::Sum, ReductionRule::Mean, ReductionRule::WeightedMean})
                    QTest::addRow("%s-%d-%s", std::string(to_string(a)).c_str(), n,
                                  std::string(to_string(r)).c_str())
                        << n << static_cast<int>(a) << static_cast<int>(r);
    }

    // Every rank's parameters, and every step's loss and hash, as the trainer's worker on threads.
    void same_bits_as_threads() {
        QFETCH(int, workers);
        QFETCH(int, algorithm);
        QFETCH(int, rule);
        const Scenario s =
            small(workers, static_cast<Algorithm>(algorithm), static_cast<ReductionRule>(rule));
        Recorder threads;
        const auto trainer = make_run(s, load_dataset(s), &threads);
        trainer->run_to_end();
        const auto ranks = run_ranks(s);
        QCOMPARE(threads.snapshots.size(), static_cast<std::size_t>(s.steps));
        for (int k = 0; k < workers; ++k) {
            const RankWorker& rank = ranks[static_cast<std::size_t>(k)];
            QCOMPARE(rank.history().size(), static_cast<std::size_t>(s.steps));
            for (std::size_t step = 0; step < rank.history().size(); ++step) {
                QCOMPARE(rank.history()[step].hash,
                         threads.snapshots[step].parameter_hash[static_cast<std::size_t>(k)]);
                QCOMPARE(rank.history()[step].loss,
                         threads.snapshots[step].worker_loss[static_cast<std::size_t>(k)]);
            }
            QVERIFY(rank.parameters() ==
                    trainer->replicas()[static_cast<std::size_t>(k)].parameters);
            QCOMPARE(rank.samples(),
                     static_cast<std::int64_t>(s.batch_of(k)) * static_cast<std::int64_t>(s.steps));
        }
    }

    // Buckets and accumulation in a process of its own: the same bits as the threaded trainer's
    // worker, whatever the collective; every message names its bucket.
    void buckets_and_accumulation_give_the_bits_of_threads_data() {
        QTest::addColumn<int>("algorithm");
        QTest::addColumn<int>("accumulate");
        QTest::addColumn<bool>("beside");
        for (Algorithm a : {Algorithm::ParameterServer, Algorithm::Ring, Algorithm::Tree})
            for (int k : {1, 3})
                for (bool beside : {false, true})
                    QTest::addRow("%s-accumulate-%d%s", std::string(to_string(a)).c_str(), k,
                                  beside ? "-during-backward" : "")
                        << static_cast<int>(a) << k << beside;
    }
    void buckets_and_accumulation_give_the_bits_of_threads() {
        QFETCH(int, algorithm);
        QFETCH(int, accumulate);
        QFETCH(bool, beside);
        Scenario s = small(4, static_cast<Algorithm>(algorithm), ReductionRule::WeightedMean);
        s.model.layers = {2, 16, 16, 3}; // 48, 272 and 51 parameters: 1 KB buckets make three
        s.gradients = GradientConfig{1, true, accumulate};
        Recorder threads;
        const auto trainer = make_run(s, load_dataset(s), &threads);
        trainer->run_to_end();
        QCOMPARE(trainer->metrics().buckets, 3);
        const auto ranks = run_ranks(s, true, beside);
        for (int k = 0; k < 4; ++k) {
            const RankWorker& rank = ranks[static_cast<std::size_t>(k)];
            // During backward the trace has each layer's backward; after it, one computation.
            int backward = 0;
            for (const TraceEvent& e : rank.events())
                backward += e.kind == EventKind::Backward ? 1 : 0;
            QCOMPARE(backward, beside ? 3 * static_cast<int>(s.steps) : 0);
            for (std::size_t step = 0; step < rank.history().size(); ++step)
                QCOMPARE(rank.history()[step].hash,
                         threads.snapshots[step].parameter_hash[static_cast<std::size_t>(k)]);
            QVERIFY(rank.parameters() ==
                    trainer->replicas()[static_cast<std::size_t>(k)].parameters);
            QCOMPARE(rank.samples(), static_cast<std::int64_t>(s.batch_of(k)) * accumulate *
                                         static_cast<std::int64_t>(s.steps));
            std::set<int> buckets;
            for (const TraceEvent& e : rank.events())
                if (e.kind == EventKind::Send || e.kind == EventKind::Receive)
                    buckets.insert(e.bucket);
            QCOMPARE(buckets, (std::set<int>{0, 1, 2}));
        }
    }

    // A rank's account holds its real time: computing in every step, and for a synchronised run
    // of several ranks time in the collective; its trace, when kept, has a Send for each message
    // it sent, whose bytes add up to its share of the schedule.
    void a_rank_accounts_for_its_time() {
        Scenario s = small(3, Algorithm::Ring, ReductionRule::Mean);
        const auto ranks = run_ranks(s, true);
        const auto per_link =
            make_schedule(s.algorithm, s.workers, ranks.front().parameters().size())
                .bytes_per_link();
        for (int k = 0; k < 3; ++k) {
            const RankWorker& rank = ranks[static_cast<std::size_t>(k)];
            QVERIFY(rank.spent().compute_s > 0.0);
            QVERIFY(rank.spent().communication_s > 0.0);
            std::int64_t sent = 0, expected = 0;
            for (const TraceEvent& e : rank.events()) {
                QCOMPARE(e.worker, k);
                QVERIFY(e.end >= e.start);
                if (e.kind == EventKind::Send)
                    sent += e.bytes;
            }
            for (int d = 0; d < 3; ++d)
                expected += per_link[static_cast<std::size_t>(k * 3 + d)];
            QCOMPARE(sent, expected * s.steps);
            Ticks last = 0;
            for (const RankStep& step : rank.history()) {
                QVERIFY(step.end > last); // steps follow one another on the rank's clock
                last = step.end;
            }
        }
    }

    // A slowed rank really takes longer: its compute is stretched by its factor.
    void a_slowdown_is_real() {
        // A slowed rank's compute lasts its real time stretched by the factor, a real sleep
        // added. The two ranks take their steps in turn, so whatever else the computer does
        // falls on both alike; their median computes are compared: the slowed one's is 4 times
        // a real compute.
        Scenario s = small(1, Algorithm::Ring, ReductionRule::Mean);
        s.steps = 15;
        s.batch = 128;
        s.model.layers = {2, 64, 64, 3};
        RankWorker plain(s, load_dataset(s), 0);
        s.delays.slowdown = {4.0};
        RankWorker slowed(s, load_dataset(s), 0);
        Threads shared(s, plain.parameters().size());
        ThreadRank group(shared, 0);
        for (RankWorker* rank : {&plain, &slowed}) {
            rank->keep_events(true);
            rank->start_clock();
        }
        while (!plain.finished()) {
            plain.step(group);
            slowed.step(group);
        }
        auto median_compute = [](const RankWorker& rank) {
            std::vector<Ticks> computes;
            for (const TraceEvent& e : rank.events())
                if (e.kind == EventKind::Compute)
                    computes.push_back(e.end - e.start);
            std::sort(computes.begin(), computes.end());
            return computes[computes.size() / 2];
        };
        const Ticks fast = median_compute(plain);
        const Ticks slow = median_compute(slowed);
        QVERIFY2(slow > 2 * fast,
                 qPrintable(QStringLiteral("%1 ns against %2 ns").arg(slow).arg(fast)));
        QVERIFY(plain.parameters() == slowed.parameters()); // the same arithmetic
    }

    // A rank's state for its checkpoint file, put back into a fresh rank, continues bitwise.
    void a_restored_rank_continues_bitwise() {
        Scenario s = small(1, Algorithm::Ring, ReductionRule::Mean);
        s.steps = 8;
        s.cost.jitter = 0.2; // the run's generator is drawn every step: it must come back too
        const auto data = load_dataset(s);
        Threads shared(s, RankWorker(s, data, 0).parameters().size());
        ThreadRank group(shared, 0);
        RankWorker whole(s, data, 0), first(s, data, 0), second(s, data, 0);
        while (!whole.finished())
            whole.step(group);
        for (int k = 0; k < 3; ++k)
            first.step(group);
        const TrainingState saved = first.state_for_files();
        QCOMPARE(saved.step, std::int64_t{3});
        second.restore(saved);
        while (!second.finished())
            second.step(group);
        QVERIFY(second.parameters() == whole.parameters());
        QVERIFY(second.state_for_files().run_rng == whole.state_for_files().run_rng);
        TrainingState other = saved;
        other.scenario_hash ^= 1;
        LOCKSTEP_VERIFY_CONTAINS(testing::error_message([&] { second.restore(other); }),
                                 QStringLiteral("another scenario"));
    }

    void refuses_what_threads_alone_do() {
        const auto data = load_dataset(small(2, Algorithm::Ring, ReductionRule::Mean));
        Scenario crash = small(2, Algorithm::Ring, ReductionRule::Mean);
        crash.failures.events.push_back(parse_failure_spec("crash:worker=1,step=2"));
        LOCKSTEP_VERIFY_CONTAINS(testing::error_message([&] { RankWorker(crash, data, 0); }),
                                 QStringLiteral("failures: a crash fault"));
        Scenario checkpointed = small(2, Algorithm::Ring, ReductionRule::Mean);
        checkpointed.checkpoint = CheckpointConfig{};
        checkpointed.checkpoint->restore = RestoreMode::WeightsOnly;
        LOCKSTEP_VERIFY_CONTAINS(
            testing::error_message([&] { RankWorker(checkpointed, data, 0); }),
            QStringLiteral("checkpoint.restore: a run over processes restores the full state"));
        LOCKSTEP_VERIFY_CONTAINS(testing::error_message([&] {
                                     RankWorker(small(2, Algorithm::Ring, ReductionRule::Mean),
                                                data, 2);
                                 }),
                                 QStringLiteral("rank 2 is not one of the scenario's 2 workers"));
    }
};

QTEST_GUILESS_MAIN(TestRankWorker)
#include "test_rank_worker.moc"
