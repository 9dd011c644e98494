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
        , gate(s.workers)
        , pieces(static_cast<std::size_t>(s.workers)) {}
    CommSchedule schedule;
    testing::MailboxTransport mailbox;
    std::barrier<> gate;
    std::vector<std::vector<double>> pieces; // each rank's, while a gather runs
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

    std::vector<double> gather_pieces(std::span<const double> mine, bool everywhere) override {
        shared_.pieces[static_cast<std::size_t>(rank_)].assign(mine.begin(), mine.end());
        shared_.gate.arrive_and_wait();
        std::vector<double> all;
        if (everywhere || rank_ == 0)
            for (const auto& piece : shared_.pieces)
                all.insert(all.end(), piece.begin(), piece.end());
        shared_.gate.arrive_and_wait(); // nobody overwrites a piece before everyone has read it
        return all;
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
    Threads shared(s, s.model.parameter_count());
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

// Every rank runs `steps` steps, then every rank's state for its checkpoint file is taken
// together (a sharded rank's shards gathered from all of them).
std::vector<TrainingState> states_after(const Scenario& s, std::vector<RankWorker>& ranks,
                                        int steps) {
    Threads shared(s, s.model.parameter_count());
    std::vector<TrainingState> states(ranks.size());
    std::vector<std::thread> threads;
    for (int k = 0; k < s.workers; ++k)
        threads.emplace_back([&, k] {
            ThreadRank group(shared, k);
            RankWorker& me = ranks[static_cast<std::size_t>(k)];
            group.barrier();
            me.start_clock();
            for (int i = 0; i < steps && !me.finished(); ++i)
                me.step(group);
            states[static_cast<std::size_t>(k)] = me.state_for_files(group);
        });
    for (auto& t : threads)
        t.join();
    return states;
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
            QVERIFY(std::ranges::equal(
                rank.parameters(), trainer->replicas()[static_cast<std::size_t>(k)].parameters));
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
            QVERIFY(std::ranges::equal(
                rank.parameters(), trainer->replicas()[static_cast<std::size_t>(k)].parameters));
            QCOMPARE(rank.samples(), static_cast<std::int64_t>(s.batch_of(k)) * accumulate *
                                         static_cast<std::int64_t>(s.steps));
            std::set<int> buckets;
            for (const TraceEvent& e : rank.events())
                if (e.kind == EventKind::Send || e.kind == EventKind::Receive)
                    buckets.insert(e.bucket);
            QCOMPARE(buckets, (std::set<int>{0, 1, 2}));
        }
    }

    // Sharded in processes of their own: every stage gives the bits of the threaded sharded run,
    // whatever the collective and the optimizer; a rank holds its shard only, and its messages
    // name their half (and with sharded parameters their layer).
    void sharded_ranks_give_the_bits_of_threads_data() {
        QTest::addColumn<int>("sharding");
        QTest::addColumn<int>("algorithm");
        QTest::addColumn<int>("optimizer");
        QTest::addColumn<int>("workers");
        QTest::addColumn<int>("accumulate");
        for (Sharding z : {Sharding::Optimizer, Sharding::Gradients, Sharding::Parameters})
            for (Algorithm a : {Algorithm::ParameterServer, Algorithm::Ring, Algorithm::Tree})
                for (OptimizerKind o : {OptimizerKind::Sgd, OptimizerKind::Adam})
                    for (int n : {2, 3, 4})
                        QTest::addRow("%s-%s-%s-%d", std::string(to_string(z)).c_str(),
                                      std::string(to_string(a)).c_str(),
                                      std::string(to_string(o)).c_str(), n)
                            << static_cast<int>(z) << static_cast<int>(a) << static_cast<int>(o)
                            << n << (n == 3 ? 2 : 1); // three ranks accumulate two micro-batches
    }
    void sharded_ranks_give_the_bits_of_threads() {
        QFETCH(int, sharding);
        QFETCH(int, algorithm);
        QFETCH(int, optimizer);
        QFETCH(int, workers);
        QFETCH(int, accumulate);
        Scenario s = small(workers, static_cast<Algorithm>(algorithm), ReductionRule::WeightedMean);
        s.sharding = static_cast<Sharding>(sharding);
        if (accumulate > 1)
            s.gradients = GradientConfig{0, true, accumulate};
        s.optimizer.kind = static_cast<OptimizerKind>(optimizer);
        s.optimizer.momentum = 0.5; // used by SGD only
        Recorder threads;
        const auto trainer = make_run(s, load_dataset(s), &threads);
        trainer->run_to_end();
        const auto ranks = run_ranks(s, true);
        const bool pieces = s.sharding == Sharding::Parameters;
        for (int k = 0; k < workers; ++k) {
            const RankWorker& rank = ranks[static_cast<std::size_t>(k)];
            QCOMPARE(rank.history().size(), static_cast<std::size_t>(s.steps));
            for (std::size_t step = 0; step < rank.history().size(); ++step) {
                QCOMPARE(rank.history()[step].loss,
                         threads.snapshots[step].worker_loss[static_cast<std::size_t>(k)]);
                if (!pieces || k == 0) // sharded parameters: rank 0 hashes the model
                    QCOMPARE(rank.history()[step].hash,
                             threads.snapshots[step].parameter_hash[static_cast<std::size_t>(k)]);
            }
            QVERIFY(rank.parameters_sharded() == pieces);
            // Its ledger, read from its own buffers, is the threaded worker's.
            const WorkerMemory& mine = rank.memory();
            const WorkerMemory theirs = trainer->metrics().memory[static_cast<std::size_t>(k)];
            QCOMPARE(mine.parameters, theirs.parameters);
            QCOMPARE(mine.gradients, theirs.gradients);
            QCOMPARE(mine.optimizer, theirs.optimizer);
            QCOMPARE(mine.activations, theirs.activations);
            QCOMPARE(mine.peak, theirs.peak);
            QCOMPARE(mine.parameters_peak, theirs.parameters_peak);
            // Resident: stage 3 keeps its pieces of the parameters, the others the whole model.
            const std::size_t whole = s.model.parameter_count();
            QVERIFY(pieces ? rank.parameters().size() < whole : rank.parameters().size() == whole);
            if (k == 0 || !pieces)
                QVERIFY(std::ranges::equal(rank.model_parameters(), trainer->parameters()));
            else
                QVERIFY(rank.model_parameters().empty());
            std::set<int> halves, layers;
            for (const TraceEvent& e : rank.events())
                if (e.kind == EventKind::Send || e.kind == EventKind::Receive) {
                    halves.insert(static_cast<int>(e.half));
                    layers.insert(e.layer);
                }
            QCOMPARE(halves, (std::set<int>{static_cast<int>(CollectiveHalf::ReduceScatter),
                                            static_cast<int>(CollectiveHalf::AllGather)}));
            const std::set<int> named = pieces ? std::set<int>{0, 1} : std::set<int>{-1};
            QCOMPARE(layers, named);
        }
        QCOMPARE(ranks.front().reduce_scatter_bytes() + ranks.front().all_gather_bytes(),
                 trainer->metrics().bytes_moved / s.steps);
    }

    // A sharded rank's state for its file is the whole run's, its shards gathered from every
    // rank; fresh ranks that restore it continue with the bits of the run that never stopped.
    void a_sharded_restore_continues_bitwise_data() {
        QTest::addColumn<int>("sharding");
        for (Sharding z : {Sharding::Optimizer, Sharding::Gradients, Sharding::Parameters})
            QTest::addRow("%s", std::string(to_string(z)).c_str()) << static_cast<int>(z);
    }
    void a_sharded_restore_continues_bitwise() {
        QFETCH(int, sharding);
        Scenario s = small(3, Algorithm::Ring, ReductionRule::Mean);
        s.sharding = static_cast<Sharding>(sharding);
        s.steps = 7;
        const auto data = load_dataset(s);
        const auto whole = make_run(s, data);
        whole->run_to_end();
        std::vector<RankWorker> first;
        for (int k = 0; k < 3; ++k)
            first.emplace_back(s, data, k);
        const std::vector<TrainingState> saved = states_after(s, first, 3);
        for (const TrainingState& state : saved) {
            QCOMPARE(state.step, std::int64_t{3});
            QCOMPARE(state.parameters.size(), s.model.parameter_count());
            QCOMPARE(state.optimizer.first_moment.size(), s.model.parameter_count());
            QVERIFY(state.parameters == saved.front().parameters);
        }
        std::vector<RankWorker> second;
        for (int k = 0; k < 3; ++k) {
            second.emplace_back(s, data, k);
            second.back().restore(saved[static_cast<std::size_t>(k)]);
        }
        (void)states_after(s, second, 100);
        QVERIFY(std::ranges::equal(second.front().model_parameters(), whole->parameters()));
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
        const TrainingState saved = first.state_for_files(group);
        QCOMPARE(saved.step, std::int64_t{3});
        second.restore(saved);
        while (!second.finished())
            second.step(group);
        QVERIFY(second.parameters() == whole.parameters());
        QVERIFY(second.state_for_files(group).run_rng == whole.state_for_files(group).run_rng);
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
