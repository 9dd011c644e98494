#include "collectives/reduction.h"
#include "collectives/schedule.h"
#include "collectives/sharding.h"
#include "collectives/transport.h"
#include "core/error.h"
#include "core/rng.h"

#include <QtTest>

#include <oneapi/tbb/global_control.h>

#include "transport_support.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <span>
#include <vector>

using namespace lockstep;
using lockstep::testing::MailboxTransport;
using lockstep::testing::run_all_reduce_serial;

Q_DECLARE_METATYPE(lockstep::Algorithm)
Q_DECLARE_METATYPE(lockstep::ReductionRule)

namespace {

const int kWorkerCounts[] = {1, 2, 3, 4, 5, 7, 8, 16, 17};
const Algorithm kAlgorithms[] = {Algorithm::ParameterServer, Algorithm::Ring, Algorithm::Tree};
const ReductionRule kRules[] = {ReductionRule::Sum, ReductionRule::Mean,
                                ReductionRule::WeightedMean};

QByteArray name_of(std::string_view text) {
    return QByteArray(text.data(), qsizetype(text.size()));
}

// Buffer lengths for N workers: a single value, fewer values than workers (empty ring chunks),
// and lengths that do and do not divide evenly.
std::vector<std::size_t> counts_for(int workers) {
    std::vector<std::size_t> counts{1};
    if (workers - 1 > 1)
        counts.push_back(static_cast<std::size_t>(workers - 1));
    for (std::size_t c : {std::size_t{13}, std::size_t{1000}, std::size_t{1001}})
        if (std::find(counts.begin(), counts.end(), c) == counts.end())
            counts.push_back(c);
    return counts;
}

// One buffer per worker and the spans a collective takes.
struct Buffers {
    std::vector<std::vector<double>> data;
    std::vector<std::span<double>> spans;

    explicit Buffers(std::vector<std::vector<double>> values)
        : data(std::move(values)) {
        for (auto& b : data)
            spans.emplace_back(b);
    }
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;
};

bool overlaps(const Message& a, const Message& b) {
    return a.offset < b.offset + b.count && b.offset < a.offset + a.count && a.count > 0 &&
           b.count > 0;
}

// Every message in range; within a round no message writes what another message reads.
QString schedule_problem(const CommSchedule& s) {
    for (std::size_t r = 0; r < s.rounds.size(); ++r) {
        const auto& messages = s.rounds[r].messages;
        for (std::size_t i = 0; i < messages.size(); ++i) {
            const Message& m = messages[i];
            if (m.src < 0 || m.src >= s.workers || m.dst < 0 || m.dst >= s.workers)
                return QStringLiteral("round %1 message %2: worker out of range").arg(r).arg(i);
            if (m.src == m.dst)
                return QStringLiteral("round %1 message %2: sends to itself").arg(r).arg(i);
            if (m.offset + m.count > s.count)
                return QStringLiteral("round %1 message %2: past the buffer end").arg(r).arg(i);
            for (std::size_t j = 0; j < messages.size(); ++j) {
                const Message& reader = messages[j];
                if (i != j && m.dst == reader.src && overlaps(m, reader))
                    return QStringLiteral("round %1: message %2 writes worker %3's [%4, %5), "
                                          "which message %6 reads")
                        .arg(r)
                        .arg(i)
                        .arg(m.dst)
                        .arg(m.offset)
                        .arg(m.offset + m.count)
                        .arg(j);
            }
        }
    }
    return {};
}

int ceil_log2(int n) {
    int rounds = 0;
    while ((1 << rounds) < n)
        ++rounds;
    return rounds;
}

} // namespace

// The all-reduce algorithms: every worker ends with the same bits, equal to the serial reduction
// and to the same schedule run on one thread; the byte and round counts the lessons quote; and
// schedules whose rounds are free of read/write conflicts.
class TestCollectives : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void all_reduce_data();
    void all_reduce();
    void sharded_halves_add_as_the_all_reduce_data();
    void sharded_halves_add_as_the_all_reduce();
    void sharded_bytes_data();
    void sharded_bytes();
    void nothing_to_shard_without_a_collective();

    void schedule_valid_data();
    void schedule_valid();

    void ring_bytes_data();
    void ring_bytes();
    void parameter_server_root_link_data();
    void parameter_server_root_link();
    void tree_rounds_data();
    void tree_rounds();

    void algorithm_names_data();
    void algorithm_names();
    void none_has_no_rounds();
    void links_are_the_topology_data();
    void links_are_the_topology();
    void worker_limits_data();
    void worker_limits();
    void largest_worker_count();
    void mismatched_buffers_throw();
    void ranks_that_share_nothing_data();
    void ranks_that_share_nothing();
    void one_rank_at_a_time();
    void rank_outside_the_group_throws();

    void narrow_formats_round_to_nearest_even();
    void format_facts_are_what_rounding_does();
    void narrow_formats_move_fewer_bytes();
    void narrow_formats_add_in_their_own_precision();
    void narrow_formats_travel_as_their_own_bytes();
};

void TestCollectives::all_reduce_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<ReductionRule>("rule");
    QTest::addColumn<int>("workers");
    QTest::addColumn<qulonglong>("count");

    for (auto algorithm : kAlgorithms) {
        for (auto rule : kRules) {
            for (int n : kWorkerCounts) {
                for (std::size_t count : counts_for(n)) {
                    QTest::addRow("%s/%s/N=%d/n=%llu", name_of(to_string(algorithm)).constData(),
                                  name_of(to_string(rule)).constData(), n, qulonglong(count))
                        << algorithm << rule << n << qulonglong(count);
                }
            }
            // Messages longer than the transport's slice, split across tasks.
            for (int n : {2, 3}) {
                const std::size_t count = (std::size_t{1} << 17) + 3;
                QTest::addRow("%s/%s/N=%d/n=%llu", name_of(to_string(algorithm)).constData(),
                              name_of(to_string(rule)).constData(), n, qulonglong(count))
                    << algorithm << rule << n << qulonglong(count);
            }
        }
    }
}

void TestCollectives::all_reduce() {
    QFETCH(Algorithm, algorithm);
    QFETCH(ReductionRule, rule);
    QFETCH(int, workers);
    QFETCH(qulonglong, count);
    const auto n = static_cast<std::size_t>(workers);
    const auto len = static_cast<std::size_t>(count);

    // Seeded inputs and unequal sample counts (worker k used k + 1 samples).
    std::vector<std::vector<double>> inputs(n, std::vector<double>(len));
    for (std::size_t k = 0; k < n; ++k) {
        Rng rng = Rng::stream(static_cast<std::uint64_t>(workers) * 100'003 + len, k);
        for (double& x : inputs[k])
            x = rng.uniform(-1.0, 1.0);
    }
    std::vector<double> samples(n);
    for (std::size_t k = 0; k < n; ++k)
        samples[k] = static_cast<double>(k + 1);

    // Each worker scales its own contribution, as the trainer does before the collective.
    const auto weights = reduction_weights(rule, workers, samples);
    std::vector<std::vector<double>> scaled = inputs;
    for (std::size_t k = 0; k < n; ++k)
        scale_contribution(scaled[k], weights[k]);

    const CommSchedule schedule = make_schedule(algorithm, workers, len);
    QCOMPARE(schedule.algorithm, algorithm);
    QCOMPARE(schedule.workers, workers);
    QCOMPARE(schedule.count, len);

    Buffers parallel(scaled);
    InProcessTransport transport;
    run_all_reduce(schedule, transport, parallel.spans);

    Buffers serial(scaled);
    run_all_reduce_serial(schedule, serial.spans);

    std::vector<std::span<const double>> input_spans(inputs.begin(), inputs.end());
    std::vector<double> reference(len);
    reduce(rule, input_spans, samples, reference);

    const std::size_t bytes = len * sizeof(double);
    const auto& first = parallel.data[0];
    // (a) every replica holds the same bits.
    for (std::size_t k = 1; k < n; ++k)
        QVERIFY2(std::memcmp(parallel.data[k].data(), first.data(), bytes) == 0,
                 qPrintable(QStringLiteral("worker %1 differs from worker 0").arg(k)));
    // (c) the threaded transport replays the schedule exactly as one thread would.
    for (std::size_t k = 0; k < n; ++k)
        QVERIFY2(std::memcmp(parallel.data[k].data(), serial.data[k].data(), bytes) == 0,
                 qPrintable(QStringLiteral("worker %1 differs from the serial run").arg(k)));
    // (b) the result is the reduction, up to the order of additions: the error is measured
    // against the sum of the contributions' magnitudes, the scale rounding errors live on.
    for (std::size_t i = 0; i < len; ++i) {
        double magnitude = 0.0;
        for (std::size_t k = 0; k < n; ++k)
            magnitude += std::abs(weights[k] * inputs[k][i]);
        const double error = std::abs(first[i] - reference[i]);
        if (!(error <= 1e-12 * magnitude)) // the message is built only for a failure
            QFAIL(qPrintable(QStringLiteral("entry %1: got %2, reference %3")
                                 .arg(i)
                                 .arg(first[i], 0, 'g', 17)
                                 .arg(reference[i], 0, 'g', 17)));
    }
    // The parameter server adds at the root in worker order, like the reference: exact.
    if (algorithm == Algorithm::ParameterServer)
        QVERIFY(std::memcmp(first.data(), reference.data(), bytes) == 0);
}

void TestCollectives::sharded_halves_add_as_the_all_reduce_data() {
    schedule_valid_data();
}

// Reduce-scatter, then every worker keeps its shard only (all else overwritten), then
// all-gather: every worker ends with the all-reduce's bits. After the first half alone, each
// worker's shard already holds them; the shards cover the buffer once.
void TestCollectives::sharded_halves_add_as_the_all_reduce() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    QFETCH(qulonglong, count);
    const auto n = static_cast<std::size_t>(workers);
    const auto len = static_cast<std::size_t>(count);
    std::vector<std::vector<double>> inputs(n, std::vector<double>(len));
    for (std::size_t k = 0; k < n; ++k) {
        Rng rng = Rng::stream(static_cast<std::uint64_t>(workers) * 7'919 + len, k);
        for (double& x : inputs[k])
            x = rng.uniform(-1.0, 1.0);
    }
    Buffers whole(inputs);
    InProcessTransport transport;
    run_all_reduce(make_schedule(algorithm, workers, len), transport, whole.spans);

    const ShardedCollective sharded = sharded_collective(algorithm, workers, len);
    for (const CommSchedule* half : {&sharded.reduce_scatter, &sharded.all_gather}) {
        const QString problem = schedule_problem(*half);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(half->count, len);
    }
    QCOMPARE(sharded.shards.size(), n);
    std::vector<int> covered(len, 0);
    for (const auto& [begin, end] : sharded.shards)
        for (std::size_t i = begin; i < end; ++i)
            covered[i] += 1;
    QVERIFY(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));

    Buffers halves(inputs);
    run_all_reduce(sharded.reduce_scatter, transport, halves.spans);
    for (std::size_t k = 0; k < n; ++k) {
        const auto [begin, end] = sharded.shards[k];
        QVERIFY2(std::memcmp(halves.data[k].data() + begin, whole.data[k].data() + begin,
                             (end - begin) * sizeof(double)) == 0,
                 qPrintable(QStringLiteral("worker %1's shard is not the all-reduce's").arg(k)));
        for (std::size_t i = 0; i < len; ++i)
            if (i < begin || i >= end)
                halves.data[k][i] = std::nan(""); // what it does not keep
    }
    run_all_reduce(sharded.all_gather, transport, halves.spans);
    for (std::size_t k = 0; k < n; ++k)
        QVERIFY2(std::memcmp(halves.data[k].data(), whole.data[k].data(), len * sizeof(double)) ==
                     0,
                 qPrintable(QStringLiteral("worker %1 differs after the all-gather").arg(k)));
}

void TestCollectives::sharded_bytes_data() {
    schedule_valid_data();
}

// The ring's halves move exactly its all-reduce's bytes, half each, so ZeRO 3's second
// all-gather (before backward) makes 1.5 times the all-reduce; at a root the shards go down and
// come back up once more.
void TestCollectives::sharded_bytes() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    QFETCH(qulonglong, count);
    const auto len = static_cast<std::size_t>(count);
    const std::int64_t all = make_schedule(algorithm, workers, len).total_bytes();
    const ShardedCollective s = sharded_collective(algorithm, workers, len);
    const std::int64_t scatter = s.reduce_scatter.total_bytes();
    const std::int64_t gather = s.all_gather.total_bytes();
    if (algorithm == Algorithm::Ring) {
        QCOMPARE(scatter + gather, all);
        QCOMPARE(scatter, gather);
        QCOMPARE(scatter + 2 * gather, all * 3 / 2);
        return;
    }
    std::int64_t away = 0; // the shards not the root's
    for (int k = 1; k < workers; ++k)
        away += static_cast<std::int64_t>(s.shard_size(k) * sizeof(double));
    QCOMPARE(scatter + gather, all + 2 * away);
}

void TestCollectives::nothing_to_shard_without_a_collective() {
    QVERIFY_THROWS_EXCEPTION(Error, sharded_collective(Algorithm::None, 4, 100));
    QVERIFY_THROWS_EXCEPTION(Error, sharded_collective(Algorithm::Ring, 0, 100));
}

void TestCollectives::schedule_valid_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<int>("workers");
    QTest::addColumn<qulonglong>("count");
    for (auto algorithm : kAlgorithms) {
        for (int n : kWorkerCounts) {
            for (std::size_t count : counts_for(n))
                QTest::addRow("%s/N=%d/n=%llu", name_of(to_string(algorithm)).constData(), n,
                              qulonglong(count))
                    << algorithm << n << qulonglong(count);
        }
    }
}

void TestCollectives::schedule_valid() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    QFETCH(qulonglong, count);
    const CommSchedule s = make_schedule(algorithm, workers, count);
    const QString problem = schedule_problem(s);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    // Every all-reduce over N > 1 workers moves at least the bus-bandwidth minimum
    // 2(N-1)/N of the buffer per worker in total: 2(N-1) n bytes over all workers.
    const std::int64_t n_bytes = static_cast<std::int64_t>(count * sizeof(double));
    QVERIFY(s.total_bytes() >= 2 * (workers - 1) * n_bytes);
    if (workers == 1)
        QVERIFY(s.rounds.empty());
}

void TestCollectives::ring_bytes_data() {
    QTest::addColumn<int>("workers");
    QTest::addColumn<qulonglong>("count");
    for (int n : kWorkerCounts) {
        for (std::size_t per_worker : {std::size_t{1}, std::size_t{12}, std::size_t{1000}})
            QTest::addRow("N=%d/n=%llu", n, qulonglong(n * per_worker))
                << n << qulonglong(n * per_worker);
    }
}

void TestCollectives::ring_bytes() {
    QFETCH(int, workers);
    QFETCH(qulonglong, count);
    const CommSchedule s = ring_schedule(workers, count);
    QCOMPARE(s.rounds.size(), static_cast<std::size_t>(2 * (workers - 1)));

    const auto n = static_cast<std::size_t>(workers);
    std::vector<std::int64_t> sent(n, 0), received(n, 0);
    for (const auto& round : s.rounds) {
        for (const auto& m : round.messages) {
            sent[static_cast<std::size_t>(m.src)] += m.bytes();
            received[static_cast<std::size_t>(m.dst)] += m.bytes();
            // Only to the right-hand neighbour.
            QCOMPARE(m.dst, (m.src + 1) % workers);
        }
    }
    // 2(N-1)/N of the buffer's bytes leave, and arrive at, every worker.
    const std::int64_t buffer_bytes = static_cast<std::int64_t>(count * sizeof(double));
    const std::int64_t expected = 2 * (workers - 1) * buffer_bytes / workers;
    for (std::size_t k = 0; k < n; ++k) {
        QCOMPARE(sent[k], expected);
        QCOMPARE(received[k], expected);
    }
    QCOMPARE(s.total_bytes(), expected * workers);
}

void TestCollectives::parameter_server_root_link_data() {
    QTest::addColumn<int>("workers");
    QTest::addColumn<qulonglong>("count");
    for (int n : kWorkerCounts)
        for (std::size_t count : {std::size_t{1}, std::size_t{1001}})
            QTest::addRow("N=%d/n=%llu", n, qulonglong(count)) << n << qulonglong(count);
}

void TestCollectives::parameter_server_root_link() {
    QFETCH(int, workers);
    QFETCH(qulonglong, count);
    const CommSchedule s = parameter_server_schedule(workers, count);
    QCOMPARE(s.rounds.size(), workers == 1 ? std::size_t{0} : std::size_t{2});

    const auto n = static_cast<std::size_t>(workers);
    const std::int64_t buffer_bytes = static_cast<std::int64_t>(count * sizeof(double));
    const auto links = s.bytes_per_link();
    QCOMPARE(links.size(), n * n);
    std::int64_t through_root = 0;
    for (std::size_t src = 0; src < n; ++src) {
        for (std::size_t dst = 0; dst < n; ++dst) {
            const std::int64_t bytes = links[src * n + dst];
            if (src == dst || (src != 0 && dst != 0)) {
                QCOMPARE(bytes, std::int64_t{0}); // workers never talk to each other directly
            } else {
                QCOMPARE(bytes, buffer_bytes); // the whole buffer up, the whole sum back
                through_root += bytes;
            }
        }
    }
    // The root's link carries 2(N-1) n bytes: every byte of the all-reduce.
    QCOMPARE(through_root, 2 * (workers - 1) * buffer_bytes);
    QCOMPARE(s.total_bytes(), through_root);
}

void TestCollectives::tree_rounds_data() {
    QTest::addColumn<int>("workers");
    QTest::addColumn<int>("rounds");
    for (auto [n, rounds] : std::initializer_list<std::pair<int, int>>{
             {1, 0}, {2, 2}, {3, 4}, {4, 4}, {5, 6}, {7, 6}, {8, 6}, {16, 8}, {17, 10}, {256, 16}})
        QTest::addRow("N=%d", n) << n << rounds;
}

void TestCollectives::tree_rounds() {
    QFETCH(int, workers);
    QFETCH(int, rounds);
    QCOMPARE(rounds, 2 * ceil_log2(workers));
    const std::size_t count = 10;
    const CommSchedule s = tree_schedule(workers, count);
    QCOMPARE(s.rounds.size(), static_cast<std::size_t>(rounds));
    // Every round moves whole buffers; the first half reduces, the second broadcasts.
    for (std::size_t r = 0; r < s.rounds.size(); ++r) {
        const bool reducing = r < s.rounds.size() / 2;
        QCOMPARE(QString::fromStdString(s.rounds[r].phase),
                 reducing ? QStringLiteral("reduce") : QStringLiteral("broadcast"));
        QVERIFY(!s.rounds[r].messages.empty());
        for (const auto& m : s.rounds[r].messages) {
            QCOMPARE(m.offset, std::size_t{0});
            QCOMPARE(m.count, count);
            QCOMPARE(m.op, reducing ? Message::Op::Reduce : Message::Op::Copy);
        }
    }
    // Each non-root worker sends its partial sum up once and receives the total once.
    QCOMPARE(s.total_bytes(), 2 * (workers - 1) * static_cast<std::int64_t>(count * 8));
}

void TestCollectives::algorithm_names_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<QString>("name");
    QTest::newRow("parameter-server") << Algorithm::ParameterServer << "parameter-server";
    QTest::newRow("ring") << Algorithm::Ring << "ring";
    QTest::newRow("tree") << Algorithm::Tree << "tree";
    QTest::newRow("none") << Algorithm::None << "none";
}

void TestCollectives::algorithm_names() {
    QFETCH(Algorithm, algorithm);
    QFETCH(QString, name);
    QCOMPARE(QString::fromLatin1(name_of(to_string(algorithm))), name);
    Algorithm parsed = algorithm == Algorithm::Ring ? Algorithm::Tree : Algorithm::Ring;
    QVERIFY(parse_algorithm(name.toStdString(), parsed));
    QCOMPARE(parsed, algorithm);
    Algorithm untouched = Algorithm::Tree;
    QVERIFY(!parse_algorithm("allgather", untouched));
    QCOMPARE(untouched, Algorithm::Tree);
}

void TestCollectives::links_are_the_topology_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<int>("workers");
    for (Algorithm a :
         {Algorithm::Ring, Algorithm::ParameterServer, Algorithm::Tree, Algorithm::None})
        for (int n : {1, 2, 5, 8, 13}) {
            const QByteArray name = QByteArray(to_string(a).data()) + " N=" + QByteArray::number(n);
            QTest::newRow(name.constData()) << a << n;
        }
}

// The links a schedule states are the topology it is drawn as: the ring's k -> k+1, the
// server's spokes both ways, the binomial tree's child -> parent (reduce) and back (broadcast);
// each once, in the order of its first message.
void TestCollectives::links_are_the_topology() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    std::set<std::pair<int, int>> expected;
    for (int k = 0; k < workers && workers > 1; ++k) {
        switch (algorithm) {
        case Algorithm::Ring:
        case Algorithm::Hierarchical: // in one machine: the ring inside it
            expected.insert({k, (k + 1) % workers});
            break;
        case Algorithm::ParameterServer:
            if (k > 0) {
                expected.insert({k, 0});
                expected.insert({0, k});
            }
            break;
        case Algorithm::Tree:
            if (k > 0) { // k's parent is k without its lowest set bit
                expected.insert({k, k & (k - 1)});
                expected.insert({k & (k - 1), k});
            }
            break;
        case Algorithm::None:
            break;
        }
    }
    const auto links = schedule_links(algorithm, workers);
    const std::set<std::pair<int, int>> unique(links.begin(), links.end());
    QCOMPARE(unique.size(), links.size());
    QVERIFY(unique == expected);
    if (workers > 1 && algorithm != Algorithm::None) {
        const CommSchedule s = make_schedule(algorithm, workers, 64);
        const Message& first = s.rounds.front().messages.front();
        QCOMPARE(s.links().front(), std::make_pair(first.src, first.dst));
    }
}

void TestCollectives::none_has_no_rounds() {
    const CommSchedule s = make_schedule(Algorithm::None, 4, 100);
    QCOMPARE(s.algorithm, Algorithm::None);
    QCOMPARE(s.workers, 4);
    QCOMPARE(s.count, std::size_t{100});
    QVERIFY(s.rounds.empty());
    QCOMPARE(s.total_bytes(), std::int64_t{0});

    // Without synchronisation the buffers keep their own values.
    std::vector<std::vector<double>> values;
    for (int k = 0; k < 4; ++k)
        values.emplace_back(100, double(k));
    Buffers buffers(values);
    InProcessTransport transport;
    run_all_reduce(s, transport, buffers.spans);
    for (std::size_t k = 0; k < 4; ++k)
        QCOMPARE(buffers.data[k], values[k]);
}

void TestCollectives::worker_limits_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<int>("workers");
    for (auto algorithm :
         {Algorithm::ParameterServer, Algorithm::Ring, Algorithm::Tree, Algorithm::None}) {
        for (int n : {0, -1, 257})
            QTest::addRow("%s/N=%d", name_of(to_string(algorithm)).constData(), n)
                << algorithm << n;
    }
}

void TestCollectives::worker_limits() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    QString message = QStringLiteral("<no error thrown>");
    try {
        make_schedule(algorithm, workers, 16);
    } catch (const Error& e) {
        message = QString::fromStdString(e.what());
    }
    QVERIFY2(message.contains(QStringLiteral("1 to 256 workers, got %1").arg(workers)),
             qPrintable(message));
}

// 256 workers is allowed and still reduces correctly.
void TestCollectives::largest_worker_count() {
    for (auto algorithm : kAlgorithms) {
        const CommSchedule s = make_schedule(algorithm, 256, 300);
        QVERIFY(schedule_problem(s).isEmpty());
        std::vector<std::vector<double>> values;
        for (int k = 0; k < 256; ++k) {
            std::vector<double> v(300);
            for (std::size_t i = 0; i < v.size(); ++i)
                v[i] = static_cast<double>(k) + static_cast<double>(i); // exact in any order
            values.push_back(std::move(v));
        }
        Buffers buffers(values);
        InProcessTransport transport;
        run_all_reduce(s, transport, buffers.spans);
        for (std::size_t k = 0; k < 256; ++k)
            for (std::size_t i = 0; i < 300; ++i)
                QCOMPARE(buffers.data[k][i], 255.0 * 256.0 / 2.0 + 256.0 * double(i));
    }
}

void TestCollectives::mismatched_buffers_throw() {
    const CommSchedule s = make_schedule(Algorithm::Ring, 3, 10);
    InProcessTransport transport;
    {
        Buffers two({std::vector<double>(10), std::vector<double>(10)});
        QVERIFY_THROWS_EXCEPTION(Error, run_all_reduce(s, transport, two.spans));
    }
    {
        Buffers short_one(
            {std::vector<double>(10), std::vector<double>(9), std::vector<double>(10)});
        QVERIFY_THROWS_EXCEPTION(Error, run_all_reduce(s, transport, short_one.spans));
    }
}

void TestCollectives::ranks_that_share_nothing_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<int>("workers");
    for (auto algorithm : kAlgorithms)
        for (int n : {1, 2, 3, 5, 8, 13})
            QTest::addRow("%s/N=%d", name_of(to_string(algorithm)).constData(), n)
                << algorithm << n;
}

// The per-rank interface is enough for ranks that share no memory: each rank on its own thread,
// bytes copied into mailboxes and waited for, gives the in-process transport's bits.
void TestCollectives::ranks_that_share_nothing() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    const std::size_t len = 1001;
    Rng rng(7 + static_cast<std::uint64_t>(workers));
    std::vector<std::vector<double>> inputs(static_cast<std::size_t>(workers));
    for (auto& v : inputs) {
        v.resize(len);
        for (auto& x : v)
            x = rng.uniform(-1.0, 1.0) * std::pow(10.0, rng.uniform(-8.0, 8.0));
    }
    const CommSchedule schedule = make_schedule(algorithm, workers, len);

    Buffers in_process(inputs);
    InProcessTransport transport;
    run_all_reduce(schedule, transport, in_process.spans);

    Buffers apart(inputs);
    MailboxTransport mailboxes(workers);
    mailboxes.run(schedule, apart.spans);

    std::size_t messages = 0;
    for (const auto& round : schedule.rounds)
        messages += round.messages.size();
    QCOMPARE(mailboxes.received(), messages); // every message really travelled
    QCOMPARE(mailboxes.messages_in_flight(), std::size_t{0});
    for (std::size_t k = 0; k < inputs.size(); ++k)
        QVERIFY2(
            std::memcmp(apart.data[k].data(), in_process.data[k].data(), len * sizeof(double)) == 0,
            qPrintable(QStringLiteral("rank %1 differs").arg(k)));
    if (workers > 1) // the inputs were not already the sum
        QVERIFY(in_process.data[0] != inputs[0]);
}

// Calling each rank's part of a round by itself, rank after rank, is the same as the round run
// for every rank at once.
void TestCollectives::one_rank_at_a_time() {
    for (auto algorithm : kAlgorithms) {
        const CommSchedule schedule = make_schedule(algorithm, 6, 257);
        std::vector<std::vector<double>> inputs;
        for (int k = 0; k < 6; ++k)
            inputs.emplace_back(257, 0.1 * (k + 1));
        Buffers together(inputs), alone(inputs);
        InProcessTransport a, b;
        run_all_reduce(schedule, a, together.spans);
        b.attach(alone.spans);
        for (const auto& round : schedule.rounds)
            for (int k = 0; k < 6; ++k)
                b.execute(round, k, alone.spans[static_cast<std::size_t>(k)]);
        QCOMPARE(alone.data, together.data);
    }
}

void TestCollectives::rank_outside_the_group_throws() {
    const CommSchedule s = make_schedule(Algorithm::Ring, 3, 10);
    MailboxTransport mailboxes(3);
    std::vector<double> mine(10);
    QVERIFY_THROWS_EXCEPTION(Error, run_rank(s, mailboxes, 3, mine));
    QVERIFY_THROWS_EXCEPTION(Error, run_rank(s, mailboxes, -1, mine));
    std::vector<double> wrong(9);
    QVERIFY_THROWS_EXCEPTION(Error, run_rank(s, mailboxes, 0, wrong));
}

// Rounding to float16, bfloat16 and float32: values each format holds stay, halfway cases go to
// the even neighbour, past the largest finite value is infinity, below the smallest a subnormal
// or a signed zero; and for many random values the result is the format's and its nearest.
// Each format's stated facts are what round_to() does at their edges: the largest value stays and
// half a spacing more overflows; the smallest normal and subnormal values stay and a quarter of
// the smallest subnormal is zero; one and one spacing stays, a quarter spacing more is one again.
// Their values are IEEE 754's (float32's, double's from the C library's limits).
void TestCollectives::format_facts_are_what_rounding_does() {
    for (WirePrecision w :
         {WirePrecision::Float32, WirePrecision::Float16, WirePrecision::BFloat16}) {
        const NumberFormat f = number_format(w);
        const QByteArray name(to_string(w).data(), qsizetype(to_string(w).size()));
        QCOMPARE(f.bits, int(bytes_per_value(w)) * 8);
        QCOMPARE(1 + f.exponent_bits + f.fraction_bits, f.bits);
        const double ulp = std::ldexp(1.0, f.max_exponent() - f.fraction_bits);
        QVERIFY2(round_to(w, f.largest()) == f.largest(), name);
        QVERIFY2(round_to(w, f.largest() + ulp / 4) == f.largest(), name);
        QVERIFY2(std::isinf(round_to(w, f.largest() + ulp / 2)), name);
        QVERIFY2(round_to(w, f.smallest_normal()) == f.smallest_normal(), name);
        QVERIFY2(round_to(w, f.smallest_subnormal()) == f.smallest_subnormal(), name);
        QVERIFY2(round_to(w, f.smallest_subnormal() / 4) == 0.0, name);
        QVERIFY2(round_to(w, 1.0 + f.spacing_at_one()) == 1.0 + f.spacing_at_one(), name);
        QVERIFY2(round_to(w, 1.0 + f.spacing_at_one() / 4) == 1.0, name);
    }
    QCOMPARE(number_format(WirePrecision::Float16).largest(), 65504.0);
    QCOMPARE(number_format(WirePrecision::BFloat16).largest(), 0x1.fep127);
    QCOMPARE(number_format(WirePrecision::Float32).largest(),
             double(std::numeric_limits<float>::max()));
    QCOMPARE(number_format(WirePrecision::Float32).smallest_subnormal(),
             double(std::numeric_limits<float>::denorm_min()));
    const NumberFormat d = number_format(WirePrecision::Float64);
    QCOMPARE(d.largest(), std::numeric_limits<double>::max());
    QCOMPARE(d.smallest_normal(), std::numeric_limits<double>::min());
    QCOMPARE(d.smallest_subnormal(), std::numeric_limits<double>::denorm_min());
    QCOMPARE(d.spacing_at_one(), std::numeric_limits<double>::epsilon());
}

void TestCollectives::narrow_formats_round_to_nearest_even() {
    const double inf = HUGE_VAL;
    const struct {
        WirePrecision format;
        double x, expected;
    } cases[] = {
        {WirePrecision::Float16, 1.0, 1.0},
        {WirePrecision::Float16, 65504.0, 65504.0},
        {WirePrecision::Float16, 65519.99, 65504.0},
        {WirePrecision::Float16, 65520.0, inf}, // halfway to 65536, which it cannot hold
        {WirePrecision::Float16, -70000.0, -inf},
        {WirePrecision::Float16, 1.0 + 0x1p-11, 1.0},              // a tie: the even one
        {WirePrecision::Float16, 1.0 + 3 * 0x1p-11, 1.0 + 0x1p-9}, // a tie: the even one
        {WirePrecision::Float16, 0.1, 0.0999755859375},            // 0x2E66
        {WirePrecision::Float16, 0x1p-14, 0x1p-14},                // smallest normal
        {WirePrecision::Float16, 0x1p-24, 0x1p-24},                // smallest subnormal
        {WirePrecision::Float16, 0x1p-25, 0.0},                    // a tie: zero is even
        {WirePrecision::Float16, 3 * 0x1p-26, 0x1p-24},
        {WirePrecision::BFloat16, 0.1, 0.10009765625}, // 0x3DCD
        {WirePrecision::BFloat16, 1.0 + 0x1p-8, 1.0},
        {WirePrecision::BFloat16, 1.0 + 3 * 0x1p-8, 1.0 + 0x1p-6},
        {WirePrecision::BFloat16, 80000.0, 79872.0},       // 156 x 512
        {WirePrecision::BFloat16, 0x1.fep127, 0x1.fep127}, // the largest
        {WirePrecision::BFloat16, 3.4e38, inf},
        {WirePrecision::Float32, 0.1, double(0.1f)},
        {WirePrecision::Float32, 1e39, inf},
        {WirePrecision::Float64, 0.1, 0.1},
    };
    for (const auto& c : cases)
        QVERIFY2(round_to(c.format, c.x) == c.expected,
                 qPrintable(QStringLiteral("%1 of %2: %3, not %4")
                                .arg(QString::fromUtf8(to_string(c.format).data()))
                                .arg(c.x, 0, 'g', 17)
                                .arg(round_to(c.format, c.x), 0, 'g', 17)
                                .arg(c.expected, 0, 'g', 17)));
    QVERIFY(std::signbit(round_to(WirePrecision::Float16, -1e-30)));
    QVERIFY(std::signbit(round_to(WirePrecision::BFloat16, -0.0)));
    QVERIFY(std::isnan(round_to(WirePrecision::Float16, std::nan(""))));
    QCOMPARE(round_to(WirePrecision::BFloat16, -inf), -inf);

    Rng rng(12);
    for (int i = 0; i < 20000; ++i) {
        const WirePrecision format = i % 2 ? WirePrecision::Float16 : WirePrecision::BFloat16;
        const int digits = format == WirePrecision::Float16 ? 11 : 8;
        const int min_exponent = format == WirePrecision::Float16 ? -14 : -126;
        const double x = (i % 3 ? 1.0 : -1.0) * std::exp2(rng.uniform(-26.0, 15.9));
        const double r = round_to(format, x);
        int e = 0;
        std::frexp(x, &e);
        const double spacing = std::exp2(std::max(e - 1, min_exponent) - (digits - 1));
        QVERIFY(std::fabs(r - x) <= spacing / 2); // the nearest, within half a spacing
        QCOMPARE(round_to(format, r), r);         // and the format's own
        QVERIFY(std::signbit(r) == std::signbit(x) || r == 0.0);
    }
}

// A collective in a narrower format moves as many values in fewer bytes: a quarter of float64's
// in float16 and bfloat16, half in float32, on every algorithm.
void TestCollectives::narrow_formats_move_fewer_bytes() {
    for (auto algorithm : kAlgorithms) {
        const CommSchedule wide = make_schedule(algorithm, 8, 1000);
        for (const auto& [format, parts] : {std::pair{WirePrecision::Float32, 2},
                                            {WirePrecision::Float16, 4},
                                            {WirePrecision::BFloat16, 4}}) {
            CommSchedule narrow = wide;
            narrow.send_as(format);
            QVERIFY(wide.total_bytes() > 0);
            QCOMPARE(narrow.total_bytes() * parts, wide.total_bytes());
            QCOMPARE(narrow.bytes_per_link().size(), wide.bytes_per_link().size());
            for (std::size_t l = 0; l < wide.bytes_per_link().size(); ++l)
                QCOMPARE(narrow.bytes_per_link()[l] * parts, wide.bytes_per_link()[l]);
        }
    }
}

// Every addition of a float16 collective is rounded to float16: eight workers' 10,000s overflow
// to infinity on every rank (float32 holds their 80,000), and small values add up as a float16
// sum does. The transport gives the bits of the schedule run message by message, on one thread
// or four; the parameter server's are those of adding in worker order, rounding each sum.
void TestCollectives::narrow_formats_add_in_their_own_precision() {
    constexpr int workers = 8;
    constexpr std::size_t count = 37;
    Rng rng(5);
    std::vector<std::vector<double>> inputs(workers, std::vector<double>(count));
    for (auto& input : inputs) {
        input[0] = 10000.0;
        for (std::size_t i = 1; i < count; ++i)
            input[i] = round_to(WirePrecision::Float16, rng.uniform(-3.0, 3.0));
    }
    for (auto algorithm : kAlgorithms) {
        for (WirePrecision format : {WirePrecision::Float16, WirePrecision::Float32}) {
            CommSchedule schedule = make_schedule(algorithm, workers, count);
            schedule.send_as(format);
            Buffers serial(inputs);
            run_all_reduce_serial(schedule, serial.spans);
            for (int threads : {1, 4}) {
                tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                          std::size_t(threads));
                Buffers together(inputs);
                InProcessTransport transport;
                run_all_reduce(schedule, transport, together.spans);
                for (int k = 0; k < workers; ++k)
                    QCOMPARE(std::memcmp(together.data[std::size_t(k)].data(),
                                         serial.data[std::size_t(k)].data(),
                                         count * sizeof(double)),
                             0);
            }
            for (int k = 0; k < workers; ++k) {
                const std::span<const double> mine = serial.spans[std::size_t(k)];
                QCOMPARE(mine[0], format == WirePrecision::Float16 ? HUGE_VAL : 80000.0);
                for (double v : mine)
                    QCOMPARE(round_to(format, v), v);
            }
            if (algorithm != Algorithm::ParameterServer)
                continue;
            for (std::size_t i = 1; i < count; ++i) {
                double sum = inputs[0][i];
                for (int k = 1; k < workers; ++k)
                    sum = round_to(format, sum + inputs[std::size_t(k)][i]);
                QCOMPARE(serial.spans[0][i], sum);
            }
        }
    }
}

// What a process sends: every float16 value (all 65,536 bit patterns, NaNs aside) and every
// bfloat16 one goes out as its two bytes, little-endian, and comes back the same; float32 in four.
void TestCollectives::narrow_formats_travel_as_their_own_bytes() {
    for (WirePrecision format : {WirePrecision::Float16, WirePrecision::BFloat16}) {
        std::vector<std::byte> bits(2 * 65536);
        for (std::size_t b = 0; b < 65536; ++b) {
            bits[2 * b] = std::byte(b & 0xFF);
            bits[2 * b + 1] = std::byte(b >> 8);
        }
        std::vector<double> values(65536);
        decode(format, bits, values);
        std::vector<std::byte> again(bits.size());
        encode(format, values, again);
        int compared = 0;
        for (std::size_t b = 0; b < 65536; ++b) {
            if (std::isnan(values[b]))
                continue;
            QCOMPARE(round_to(format, values[b]), values[b]); // a value of the format
            QCOMPARE(again[2 * b], bits[2 * b]);
            QCOMPARE(again[2 * b + 1], bits[2 * b + 1]);
            ++compared;
        }
        QVERIFY(compared > 63000);
    }
    // A few float16 patterns by hand: 1.0 is 0x3C00, the largest 0x7BFF, the smallest subnormal
    // 0x0001, -2 0xC000.
    const std::vector<double> known{1.0, 65504.0, 0x1p-24, -2.0};
    std::vector<std::byte> out(8);
    encode(WirePrecision::Float16, known, out);
    const std::vector<std::byte> expected{std::byte(0x00), std::byte(0x3C), std::byte(0xFF),
                                          std::byte(0x7B), std::byte(0x01), std::byte(0x00),
                                          std::byte(0x00), std::byte(0xC0)};
    QVERIFY(out == expected);
    const std::vector<double> singles{0.1f, -3.25e38f, 1e-40f};
    std::vector<std::byte> four(12);
    encode(WirePrecision::Float32, singles, four);
    std::vector<double> back(3);
    decode(WirePrecision::Float32, four, back);
    QVERIFY(back == singles);
    QVERIFY_THROWS_EXCEPTION(Error, encode(WirePrecision::Float16, known, four));
}

QTEST_APPLESS_MAIN(TestCollectives)
#include "test_collectives.moc"
