// Machines and the network between them: the hierarchical all-reduce, the bytes that cross
// machines for every algorithm against the textbook's formulas, the links' prices with the shared
// network link's contention, and the scenario's "topology" read, checked and trained.
#include "clocks/cost_model.h"
#include "collectives/reduction.h"
#include "collectives/schedule.h"
#include "collectives/sharding.h"
#include "collectives/transport.h"
#include "core/error.h"
#include "core/rng.h"
#include "scenario/scenario.h"

#include <QtTest>

#include "run_support.h"
#include "test_support.h"
#include "transport_support.h"

#include <cstring>
#include <span>
#include <vector>

using namespace lockstep;
using lockstep::testing::largest_relative_difference;
using lockstep::testing::train_run;

namespace {

// Participant p of an N-worker schedule sits in machine p / K.
std::vector<int> machines_of(int workers, int per_node) {
    std::vector<int> nodes;
    for (int p = 0; p < workers; ++p)
        nodes.push_back(p / per_node);
    return nodes;
}

// Bytes of `schedule` from machine `from` to machine `to`, and the rounds in which any go.
struct Crossing {
    std::int64_t bytes = 0;
    int rounds = 0;
};
Crossing crossing(const CommSchedule& schedule, int per_node, int from, int to) {
    Crossing c;
    for (const Round& round : schedule.rounds) {
        bool any = false;
        for (const Message& m : round.messages)
            if (m.src / per_node == from && m.dst / per_node == to && m.count > 0) {
                c.bytes += m.bytes();
                any = true;
            }
        c.rounds += any ? 1 : 0;
    }
    return c;
}

// Prices for 2 machines of 4 workers in which only the network between them costs anything:
// free links inside a machine (no latency, 10 Tbit/s) and free adding.
CostConfig two_machines_of_four(LinkSpec inter) {
    CostConfig cost;
    cost.gamma_s_per_byte = 0.0;
    cost.topology.nodes = 2;
    cost.topology.workers_per_node = 4;
    cost.topology.intra = {0.0, 1e7};
    cost.topology.inter = inter;
    return cost;
}

Scenario two_machines(Algorithm algorithm) {
    Scenario s;
    s.workers = 8;
    s.steps = 6;
    s.batch = 8;
    s.algorithm = algorithm;
    s.model.layers = {2, 24, 24, 3};
    s.cost.topology.nodes = 2;
    s.cost.topology.workers_per_node = 4;
    return s;
}

} // namespace

class TestMachines : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void the_hierarchical_all_reduce_sums_every_buffer();
    void inter_node_bytes_follow_the_formulas();
    void the_slow_link_pays_two_m_minus_one_latencies();
    void machines_share_their_network_link();
    void without_machines_the_prices_are_todays();
    void a_hierarchical_run_trains_like_a_flat_one();
    void a_sharded_hierarchical_run_gives_the_unsharded_bits();
    void the_topology_is_read_checked_and_written_back();
    void bad_topologies_are_refused_by_name();
};

void TestMachines::the_hierarchical_all_reduce_sums_every_buffer() {
    // M machines of K, buffers shorter than, equal to and longer than the workers, uneven chunks:
    // every worker ends with the sum (to 1e-12 of the exact one), all the same bits, whether the
    // rounds run as TBB tasks or one message after another.
    const std::pair<int, int> shapes[] = {{2, 4}, {4, 2}, {3, 3}, {2, 3}, {5, 1}, {2, 1}};
    for (const auto& [m, k] : shapes) {
        const int n = m * k;
        for (const std::size_t len : {std::size_t{1}, std::size_t{5}, std::size_t{13},
                                      std::size_t{1000}, std::size_t{1001}}) {
            Rng rng(static_cast<std::uint64_t>(n * 7919 + static_cast<int>(len)));
            std::vector<std::vector<double>> inputs(static_cast<std::size_t>(n),
                                                    std::vector<double>(len));
            for (auto& b : inputs)
                for (double& x : b)
                    x = rng.uniform(-1.0, 1.0);
            const CommSchedule schedule = make_schedule(Algorithm::Hierarchical, n, len, k);
            QCOMPARE(schedule.algorithm, Algorithm::Hierarchical);
            QCOMPARE(schedule.rounds.size(), static_cast<std::size_t>(2 * (k - 1) + 2 * (m - 1)));

            std::vector<std::vector<double>> threaded = inputs, serial = inputs;
            std::vector<std::span<double>> a(threaded.begin(), threaded.end());
            std::vector<std::span<double>> b(serial.begin(), serial.end());
            InProcessTransport transport;
            run_all_reduce(schedule, transport, a);
            lockstep::testing::run_all_reduce_serial(schedule, b);

            std::vector<double> exact(len, 0.0);
            for (const auto& buffer : inputs)
                for (std::size_t i = 0; i < len; ++i)
                    exact[i] += buffer[i];
            for (int w = 0; w < n; ++w) {
                const auto& got = threaded[static_cast<std::size_t>(w)];
                QVERIFY(std::memcmp(got.data(), threaded[0].data(), len * sizeof(double)) == 0);
                QVERIFY(std::memcmp(got.data(), serial[static_cast<std::size_t>(w)].data(),
                                    len * sizeof(double)) == 0);
                for (std::size_t i = 0; i < len; ++i)
                    QVERIFY2(std::abs(got[i] - exact[i]) <=
                                 1e-12 * std::max(1.0, std::abs(exact[i])),
                             qPrintable(QStringLiteral("%1x%2, %3 values, worker %4, value %5")
                                            .arg(m)
                                            .arg(k)
                                            .arg(len)
                                            .arg(w)
                                            .arg(i)));
            }
        }
    }
}

void TestMachines::inter_node_bytes_follow_the_formulas() {
    // 2 machines of 4, a gradient of n bytes (800 doubles: every chunk whole). Per direction
    // over the one link between the machines: the flat ring 2(N-1)/N n, the hierarchical
    // 2(M-1)/M n; the parameter server (at worker 0) all K of the other machine's gradients up
    // and K sums down; the tree only its one pair 0 and 4, the whole gradient each way.
    const int m = 2, k = 4, n = m * k;
    const std::size_t count = 800;
    const auto bytes = static_cast<std::int64_t>(count * sizeof(double));
    const auto nodes = machines_of(n, k);
    struct Expected {
        Algorithm algorithm;
        std::int64_t per_direction;
    };
    const Expected expected[] = {
        {Algorithm::Ring, 2 * (n - 1) * bytes / n},
        {Algorithm::Hierarchical, 2 * (m - 1) * bytes / m},
        {Algorithm::ParameterServer, k * bytes},
        {Algorithm::Tree, bytes},
    };
    for (const auto& [algorithm, per_direction] : expected) {
        const CommSchedule s = make_schedule(algorithm, n, count, k);
        QCOMPARE(crossing(s, k, 0, 1).bytes, per_direction);
        QCOMPARE(crossing(s, k, 1, 0).bytes, per_direction);
        QCOMPARE(s.bytes_between_nodes(nodes), 2 * per_direction);
    }
    // Hierarchical at 2 x 4 sends 4/7 of what the flat ring sends between the machines.
    QCOMPARE(make_schedule(Algorithm::Hierarchical, n, count, k).bytes_between_nodes(nodes) * 7,
             make_schedule(Algorithm::Ring, n, count, k).bytes_between_nodes(nodes) * 4);
    // In all, both move 2(N-1) n: what the hierarchical saves on the network it sends over the
    // fast links inside the machines instead.
    QCOMPARE(make_schedule(Algorithm::Hierarchical, n, count, k).total_bytes(),
             2 * (n - 1) * bytes);
    QCOMPARE(make_schedule(Algorithm::Ring, n, count, k).total_bytes(), 2 * (n - 1) * bytes);
}

void TestMachines::the_slow_link_pays_two_m_minus_one_latencies() {
    // Only latency between machines, nothing else priced (free bytes, free links inside a
    // machine, free adding): a collective's time is its latencies on the slow link, paid one
    // round after another. The flat ring at 2 x 4 crosses in all 2(N-1) = 14 of its rounds, the
    // hierarchical in its 2(M-1) = 2 rounds across, the tree in 2 (its top pair, down and up).
    const CostConfig cost = two_machines_of_four({500.0, 1e7}); // 0.5 ms; bytes nearly free
    const std::vector<int> lanes{0, 1, 2, 3, 4, 5, 6, 7};
    auto time_of = [&](Algorithm algorithm) {
        std::vector<Ticks> clocks(8, 0);
        const CommSchedule s = make_schedule(algorithm, 8, 800, 4);
        price_schedule(s, {lanes, clocks, {}}, cost, 0, 0, nullptr);
        return *std::max_element(clocks.begin(), clocks.end());
    };
    const Ticks alpha = to_ticks(500e-6);
    // The bytes are not quite free (10 Tbit/s): allow a few nanoseconds a round.
    auto about = [&](Ticks got, int latencies) {
        return got >= latencies * alpha && got <= latencies * alpha + 200;
    };
    QVERIFY2(about(time_of(Algorithm::Ring), 14),
             qPrintable(QString::number(time_of(Algorithm::Ring))));
    QVERIFY2(about(time_of(Algorithm::Hierarchical), 2),
             qPrintable(QString::number(time_of(Algorithm::Hierarchical))));
    QVERIFY(about(time_of(Algorithm::Tree), 2));
}

void TestMachines::machines_share_their_network_link() {
    // Only bandwidth between machines (no latency, free links inside): the hierarchical's
    // rounds across send K messages at once out of each machine, which share its one link, so
    // the collective takes 2(M-1)/M n beta (n the gradient's bytes), not K times less.
    const CostConfig cost = two_machines_of_four({0.0, 100.0}); // 100 Mbit/s: 80 ns a byte
    const std::vector<int> lanes{0, 1, 2, 3, 4, 5, 6, 7};
    const std::size_t count = 8000; // 64000 bytes
    std::vector<Ticks> clocks(8, 0);
    const CommSchedule s = make_schedule(Algorithm::Hierarchical, 8, count, 4);
    price_schedule(s, {lanes, clocks, {}}, cost, 0, 0, nullptr);
    const Ticks expected = to_ticks(64000.0 * 8.0 / 100e6); // 2(M-1)/M n at 100 Mbit/s
    const Ticks end = *std::max_element(clocks.begin(), clocks.end());
    QVERIFY2(end >= expected && end <= expected + 2000,
             qPrintable(QStringLiteral("%1 ns, expected %2").arg(end).arg(expected)));
    // Side by side, without sharing, the rounds across would take a quarter of that.
    QVERIFY(end > 3 * expected / 4 + expected / 8);
}

void TestMachines::without_machines_the_prices_are_todays() {
    // One machine: every message costs alpha + bytes * beta of the scenario's one network.
    CostConfig cost;
    QCOMPARE(link_between(cost, 0, 5).alpha_s, cost.alpha_s);
    QCOMPARE(link_between(cost, 0, 5).beta_s_per_byte, cost.beta_s_per_byte);
    QVERIFY(!link_between(cost, 0, 5).between_nodes);
    cost.topology.nodes = 2;
    cost.topology.workers_per_node = 3;
    QVERIFY(!link_between(cost, 0, 2).between_nodes);
    QVERIFY(link_between(cost, 2, 3).between_nodes);
    QCOMPARE(link_between(cost, 2, 3).alpha_s, 100e-6);
    QCOMPARE(link_between(cost, 2, 3).beta_s_per_byte, 8.0 / 100e6);
    QCOMPARE(price_message(cost, link_between(cost, 2, 3), 1250, Message::Op::Copy).transfer,
             to_ticks(100e-6 + 1250 * 8.0 / 100e6));
}

void TestMachines::a_hierarchical_run_trains_like_a_flat_one() {
    // The same training, another order of additions: parameters within 1e-12 of the flat
    // ring's; the same bits on 1, 2 and 4 threads; the bytes between machines of every step as
    // the schedule says; and on a 100 Mbit/s network the hierarchical step is the shorter one.
    const Scenario ring = two_machines(Algorithm::Ring);
    const Scenario hierarchical = two_machines(Algorithm::Hierarchical);
    const auto flat = train_run(ring);
    std::vector<double> first;
    Ticks end = -1;
    for (int threads : {1, 2, 4}) {
        const auto h = train_run(hierarchical, threads);
        if (first.empty())
            first = h.parameters;
        QVERIFY(h.parameters == first);
        const Ticks last = h.trace.snapshots().back().time;
        QVERIFY(end < 0 || last == end);
        end = last;
    }
    QVERIFY(largest_relative_difference(flat.parameters, first) < 1e-12);

    const auto h = train_run(hierarchical);
    const std::size_t count = ring.model.parameter_count();
    const auto nodes = machines_of(8, 4);
    QCOMPARE(h.metrics.bytes_inter_node,
             6 * make_schedule(Algorithm::Hierarchical, 8, count, 4).bytes_between_nodes(nodes));
    QCOMPARE(flat.metrics.bytes_inter_node,
             6 * make_schedule(Algorithm::Ring, 8, count, 4).bytes_between_nodes(nodes));
    QVERIFY(h.metrics.bytes_inter_node < flat.metrics.bytes_inter_node);
    QVERIFY(h.metrics.step_time_s < flat.metrics.step_time_s);

    // Without machines nothing crosses between them.
    Scenario one = ring;
    one.cost.topology = Topology{};
    QCOMPARE(train_run(one).metrics.bytes_inter_node, std::int64_t{0});
}

void TestMachines::a_sharded_hierarchical_run_gives_the_unsharded_bits() {
    // ZeRO's halves of the hierarchical all-reduce add in its order: the same bits unsharded and
    // sharded, each worker's shard the piece its ring across machines finishes.
    Scenario plain = two_machines(Algorithm::Hierarchical);
    Scenario sharded = plain;
    sharded.sharding = Sharding::Gradients;
    validate(sharded);
    QVERIFY(train_run(plain).parameters == train_run(sharded).parameters);
    const ShardedCollective halves = sharded_collective(Algorithm::Hierarchical, 8, 800, 4);
    std::vector<bool> covered(800, false);
    for (const auto& [begin, end] : halves.shards)
        for (std::size_t i = begin; i < end; ++i) {
            QVERIFY(!covered[i]);
            covered[i] = true;
        }
    QVERIFY(std::all_of(covered.begin(), covered.end(), [](bool c) { return c; }));
    // Worker 5 (machine 1, place 1) finishes piece (1 + 1) mod 2 = 0 of chunk 2: [400, 500).
    QCOMPARE(halves.shards[5], (std::pair<std::size_t, std::size_t>{400, 500}));
}

void TestMachines::the_topology_is_read_checked_and_written_back() {
    const Scenario s = parse_scenario(R"({"workers": 6, "algorithm": "hierarchical",
        "topology": {"nodes": 3, "inter": {"latency_us": 250, "bandwidth_mbit_s": 1000}}})");
    QCOMPARE(s.cost.topology.nodes, 3);
    QCOMPARE(s.cost.topology.workers_per_node, 2); // workers / nodes when not given
    QCOMPARE(s.cost.topology.inter.latency_us, 250.0);
    QVERIFY(s.cost.topology.intra == Topology{}.intra); // the default: a fast machine
    const Scenario again = parse_scenario(scenario_to_json(s));
    QVERIFY(again.cost.topology == s.cost.topology);
    QCOMPARE(scenario_hash(again), scenario_hash(s));
    // Without machines nothing is written, so older scenarios keep their hashes.
    QVERIFY(scenario_to_json(Scenario{}).find("topology") == std::string::npos);
    Scenario faster = s;
    faster.cost.topology.inter.bandwidth_mbit_s = 10000;
    QVERIFY(scenario_hash(faster) != scenario_hash(s));
}

void TestMachines::bad_topologies_are_refused_by_name() {
    using lockstep::testing::error_message;
    auto refusal = [](const char* json) {
        return error_message([&] { return parse_scenario(json); });
    };
    LOCKSTEP_VERIFY_CONTAINS(refusal(R"({"workers": 6, "topology": {"nodes": 4}})"),
                             QStringLiteral("6 workers cannot be shared evenly among 4 machines"));
    LOCKSTEP_VERIFY_CONTAINS(
        refusal(R"({"workers": 8, "topology": {"nodes": 2, "workers_per_node": 3}})"),
        QStringLiteral("8 workers, 3 to a machine, fill 3 machines, but topology.nodes says 2"));
    LOCKSTEP_VERIFY_CONTAINS(refusal(R"({"workers": 8, "algorithm": "hierarchical",
        "topology": {"nodes": 3, "workers_per_node": 3}})"),
                             QStringLiteral("hierarchical needs machines of equal size"));
    LOCKSTEP_VERIFY_CONTAINS(refusal(R"({"workers": 4, "topology": {}})"),
                             QStringLiteral("topology.nodes: required"));
    LOCKSTEP_VERIFY_CONTAINS(
        refusal(R"({"workers": 4, "topology": {"nodes": 2, "inter": {"bandwidth": 100}}})"),
        QStringLiteral("topology.inter.bandwidth: unknown key"));
    LOCKSTEP_VERIFY_CONTAINS(
        refusal(R"({"workers": 4, "topology": {"nodes": 2, "inter": {"bandwidth_mbit_s": 0}}})"),
        QStringLiteral("topology.inter.bandwidth_mbit_s: must be between"));
    LOCKSTEP_VERIFY_CONTAINS(refusal(R"({"workers": 4, "algorithm": "hierarchical"})"),
                             QStringLiteral("it needs machines"));
    LOCKSTEP_VERIFY_CONTAINS(refusal(R"({"workers": 4, "topology": {"nodes": 2},
        "parallelism": {"mode": "pipeline", "stages": 2}})"),
                             QStringLiteral("machines are modelled for data parallelism"));
    LOCKSTEP_VERIFY_CONTAINS(refusal(R"({"workers": 4, "algorithm": "hierarchical",
        "topology": {"nodes": 2}, "failures": {"policy": "elastic"}})"),
                             QStringLiteral("machines of equal size"));
    QVERIFY_THROWS_EXCEPTION(Error, make_schedule(Algorithm::Hierarchical, 6, 10, 4));
}

QTEST_GUILESS_MAIN(TestMachines)
#include "test_machines.moc"
