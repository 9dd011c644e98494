#include "collectives/schedule.h"
#include "lockstep_views/cluster_layout.h"
#include "lockstep_views/trace_index.h"
#include "scenario/scenario.h"
#include "view_test_support.h"

#include <QFont>
#include <QtTest>

#include <bit>
#include <cmath>
#include <set>

using namespace lockstep;
using namespace lockstep::views;
using lockstep::testing::run_into;

Q_DECLARE_METATYPE(lockstep::Algorithm)

namespace {

Scenario small_scenario(int workers, Algorithm algorithm) {
    Scenario s;
    s.name = "cluster-layout";
    s.seed = 3;
    s.workers = workers;
    s.steps = 2;
    s.batch = 8;
    s.algorithm = algorithm;
    return s;
}

QFont test_font() {
    QFont f;
    f.setPixelSize(13);
    return f;
}

qreal distance(QPointF a, QPointF b) {
    return std::hypot(a.x() - b.x(), a.y() - b.y());
}

// The topology as a set of unordered pairs, from the bit trick the engine's tree is built on
// (the test's own oracle, not the view's).
std::set<std::pair<int, int>> expected_pairs(Algorithm algorithm, int n) {
    std::set<std::pair<int, int>> out;
    for (int k = 1; k < n; ++k)
        switch (algorithm) {
        case Algorithm::Ring:
        case Algorithm::Hierarchical: // in one machine: the ring inside it
            out.insert({k - 1, k});
            if (k == n - 1 && n > 2)
                out.insert({0, n - 1});
            break;
        case Algorithm::ParameterServer:
            out.insert({0, k});
            break;
        case Algorithm::Tree:
            out.insert({k & (k - 1), k});
            break;
        case Algorithm::None:
            break;
        }
    return out;
}

} // namespace

// The cluster view's layout on its own, without a widget: where workers, links and messages in
// flight go for a trace at a time, for a size and a font.
class TestClusterLayout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void links_are_the_schedules_data() {
        QTest::addColumn<Algorithm>("algorithm");
        QTest::addColumn<int>("workers");
        for (auto a :
             {Algorithm::Ring, Algorithm::ParameterServer, Algorithm::Tree, Algorithm::None})
            for (int n : {2, 3, 6, 13})
                QTest::addRow("%s-%d", to_string(a).data(), n) << a << n;
    }

    // The links drawn are the schedule's: one per pair of workers that exchange messages, the
    // ring's in its direction (both ways for two workers), laid out from a real run's index.
    void links_are_the_schedules() {
        QFETCH(Algorithm, algorithm);
        QFETCH(int, workers);
        TraceIndex index;
        run_into(small_scenario(workers, algorithm), index);
        const ClusterScene s = layout_cluster(index, 0, QSize(800, 600), test_font());
        QCOMPARE(s.workers, workers);
        std::set<std::pair<int, int>> pairs;
        for (auto [a, b] : s.links)
            pairs.insert({std::min(a, b), std::max(a, b)});
        QVERIFY(pairs == expected_pairs(algorithm, workers));
        if (algorithm == Algorithm::Ring) {
            QCOMPARE(s.links.size(), std::size_t(workers));
            for (auto [a, b] : s.links)
                QCOMPARE(b, (a + 1) % workers); // clockwise, as the messages go
        } else {
            QCOMPARE(s.links.size(), pairs.size());
        }
    }

    // A ring: every worker on one circle, worker 0 at the top, clockwise, discs apart.
    // Machines: each worker knows its machine, the links are the hierarchical schedule's (rings
    // inside each machine and one ring per place across them), and exactly those across are
    // between machines. Without a topology there are none.
    void machines_are_drawn_from_the_runs_topology() {
        Scenario s = small_scenario(8, Algorithm::Hierarchical);
        s.cost.topology.nodes = 2;
        s.cost.topology.workers_per_node = 4;
        TraceIndex index;
        run_into(s, index);
        const ClusterScene scene = layout_cluster(index, 0, QSize(800, 600), test_font());
        QCOMPARE(scene.machines, 2);
        QCOMPARE(scene.machine_of, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
        LOCKSTEP_VERIFY_CONTAINS(scene.topology, QStringLiteral("2 machines of 4"));
        int across = 0;
        for (const auto& [a, b] : scene.links) {
            QCOMPARE(scene.between_machines(a, b), a / 4 != b / 4);
            if (scene.between_machines(a, b)) {
                QCOMPARE(a % 4, b % 4); // the ring across machines joins the same places
                ++across;
            }
        }
        QCOMPARE(across, 4); // one pair per place; a ring of two machines both ways is one link

        // The network's load: two of the four places crossing at once fill half of it, a message
        // inside a machine none.
        const std::vector<PacketInFlight> flying{
            {0, 4, 800, 3, 0.5}, {5, 1, 800, 3, 0.2}, {2, 3, 800, 1, 0.7}};
        QCOMPARE(network_load(scene, flying), (std::vector<double>{0.5, 0.5, 0.0}));
        const std::vector<PacketInFlight> all{
            {0, 4, 8, 3, 0.5}, {1, 5, 8, 3, 0.5}, {2, 6, 8, 3, 0.5}, {7, 3, 8, 3, 0.5}};
        QCOMPARE(network_load(scene, all), (std::vector<double>(4, 1.0)));
        TraceIndex flat;
        run_into(small_scenario(8, Algorithm::Ring), flat);
        const ClusterScene plain = layout_cluster(flat, 0, QSize(800, 600), test_font());
        QVERIFY(plain.machine_of.empty());
        QCOMPARE(network_load(plain, flying), (std::vector<double>(3, 0.0)));
    }

    void ring_on_a_circle() {
        const int n = 8;
        const ClusterScene s = layout_cluster(QSize(800, 600), test_font(), n, Algorithm::Ring,
                                              schedule_links(Algorithm::Ring, n));
        const QPointF c = s.area.center();
        const qreal r = distance(s.centres[0], c);
        QVERIFY(r > 4 * s.radius);
        for (int k = 0; k < n; ++k) {
            QVERIFY(std::abs(distance(s.centres[static_cast<std::size_t>(k)], c) - r) < 1e-6);
            QVERIFY(s.area.contains(s.centres[static_cast<std::size_t>(k)]));
            QVERIFY(s.centres[0].y() <= s.centres[static_cast<std::size_t>(k)].y() + 1e-6);
        }
        QVERIFY(s.centres[1].x() > s.centres[0].x()); // clockwise on screen
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b)
                QVERIFY(distance(s.centres[static_cast<std::size_t>(a)],
                                 s.centres[static_cast<std::size_t>(b)]) > 2 * s.radius);
        QVERIFY(s.labels && s.numbers);
    }

    // A tree: one row per depth (hops from worker 0 along the links), parents above children.
    void tree_rows_by_depth() {
        const int n = 13;
        const ClusterScene s = layout_cluster(QSize(900, 700), test_font(), n, Algorithm::Tree,
                                              schedule_links(Algorithm::Tree, n));
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) {
                const int da = std::popcount(static_cast<unsigned>(a));
                const int db = std::popcount(static_cast<unsigned>(b));
                const qreal ya = s.centres[static_cast<std::size_t>(a)].y();
                const qreal yb = s.centres[static_cast<std::size_t>(b)].y();
                if (da == db)
                    QCOMPARE(ya, yb);
                else if (da < db)
                    QVERIFY(ya < yb);
            }
        for (auto [parent, child] : s.links)
            QVERIFY(s.centres[static_cast<std::size_t>(parent)].y() <
                    s.centres[static_cast<std::size_t>(child)].y());
    }

    // No two of the tree's links cross, and none passes over a disc it does not join, at any
    // size of cluster the lab runs and on a projector's small view as on a large one.
    void tree_links_never_cross() {
        for (const QSize size : {QSize(900, 700), QSize(480, 360)})
            for (int n = 2; n <= 64; ++n) {
                const ClusterScene s = layout_cluster(size, test_font(), n, Algorithm::Tree,
                                                      schedule_links(Algorithm::Tree, n));
                std::vector<QLineF> lines;
                for (auto [a, b] : s.links)
                    lines.emplace_back(s.centres[static_cast<std::size_t>(a)],
                                       s.centres[static_cast<std::size_t>(b)]);
                for (std::size_t i = 0; i < lines.size(); ++i)
                    for (std::size_t j = i + 1; j < lines.size(); ++j) {
                        QPointF at;
                        if (lines[i].intersects(lines[j], &at) != QLineF::BoundedIntersection)
                            continue;
                        // Links meeting at the disc they share are not a crossing.
                        const bool shared =
                            distance(at, lines[i].p1()) < 1 || distance(at, lines[i].p2()) < 1;
                        QVERIFY2(shared, qPrintable(QStringLiteral("%1 workers: links %2-%3 and "
                                                                   "%4-%5 cross")
                                                        .arg(n)
                                                        .arg(s.links[i].first)
                                                        .arg(s.links[i].second)
                                                        .arg(s.links[j].first)
                                                        .arg(s.links[j].second)));
                    }
                for (std::size_t i = 0; i < lines.size(); ++i)
                    for (int k = 0; k < n; ++k) {
                        if (k == s.links[i].first || k == s.links[i].second)
                            continue;
                        const QPointF c = s.centres[static_cast<std::size_t>(k)];
                        const QPointF d = lines[i].p2() - lines[i].p1();
                        const qreal len2 = d.x() * d.x() + d.y() * d.y();
                        const qreal t =
                            std::clamp(QPointF::dotProduct(c - lines[i].p1(), d) / len2, 0.0, 1.0);
                        QVERIFY2(distance(c, lines[i].p1() + t * d) > s.radius,
                                 qPrintable(QStringLiteral("%1 workers: link %2-%3 runs over "
                                                           "worker %4")
                                                .arg(n)
                                                .arg(s.links[i].first)
                                                .arg(s.links[i].second)
                                                .arg(k)));
                    }
            }
    }

    // A pipeline's stages stand in a row, joined stage to stage, with no replicas to align; a
    // hybrid's replicas are rows, each stage joined to the same stage of the next replica.
    void model_parallel_runs_show_their_stages() {
        ParallelismConfig pipeline;
        pipeline.mode = Parallelism::Pipeline;
        pipeline.stages = 4;
        const ClusterScene p = layout_cluster(QSize(900, 700), test_font(), 4, Algorithm::Ring,
                                              schedule_links(Algorithm::Ring, 4), pipeline);
        const std::vector<std::pair<int, int>> chain{{0, 1}, {1, 2}, {2, 3}};
        QCOMPARE(p.links, chain);
        QVERIFY(!p.replicas);
        QVERIFY(!p.topology.contains(QStringLiteral("ring")));
        for (int k = 1; k < 4; ++k) {
            QCOMPARE(p.centres[static_cast<std::size_t>(k)].y(), p.centres[0].y());
            QVERIFY(p.centres[static_cast<std::size_t>(k)].x() >
                    p.centres[static_cast<std::size_t>(k - 1)].x());
        }

        ParallelismConfig hybrid = pipeline;
        hybrid.mode = Parallelism::Hybrid;
        hybrid.stages = 2;
        hybrid.replicas = 2;
        const ClusterScene h = layout_cluster(QSize(900, 700), test_font(), 4, Algorithm::Ring,
                                              schedule_links(Algorithm::Ring, 4), hybrid);
        const std::set<std::pair<int, int>> links(h.links.begin(), h.links.end());
        const std::set<std::pair<int, int>> expected{{0, 1}, {2, 3}, {0, 2}, {1, 3}};
        QCOMPARE(links, expected);
        QVERIFY(h.replicas);
        QCOMPARE(h.centres[0].y(), h.centres[1].y()); // replica 0's stages: a row
        QVERIFY(h.centres[2].y() > h.centres[0].y()); // replica 1 below it
        QCOMPARE(h.centres[2].x(), h.centres[0].x()); // stage 0 over stage 0

        ParallelismConfig tensor;
        tensor.mode = Parallelism::Tensor;
        tensor.stages = 4;
        const ClusterScene t = layout_cluster(QSize(900, 700), test_font(), 4, Algorithm::Ring,
                                              schedule_links(Algorithm::Ring, 4), tensor);
        QCOMPARE(t.links.size(), std::size_t{4}); // the all-reduce's ring inside each layer
        QVERIFY(!t.replicas);
        QVERIFY(t.topology.contains(QStringLiteral("all-reduce inside each layer")));
    }

    // Without links (no synchronisation) the workers sit on a grid.
    void none_is_a_grid() {
        const ClusterScene s = layout_cluster(QSize(800, 600), test_font(), 6, Algorithm::None, {});
        QVERIFY(s.links.empty());
        std::set<qreal> rows;
        for (const QPointF& c : s.centres)
            rows.insert(c.y());
        QVERIFY(rows.size() >= 2 && rows.size() <= 3);
    }

    // A crowd on a ring becomes a band of slices, one per worker, each holding its centre.
    void crowd_is_a_band() {
        const int n = 200;
        const ClusterScene s = layout_cluster(QSize(800, 600), test_font(), n, Algorithm::Ring,
                                              schedule_links(Algorithm::Ring, n));
        QVERIFY(s.dense);
        QCOMPARE(s.slices.size(), std::size_t(n));
        for (int k = 0; k < n; ++k) {
            QVERIFY(s.slices[static_cast<std::size_t>(k)].contains(
                s.centres[static_cast<std::size_t>(k)]));
            QCOMPARE(worker_at(s, s.centres[static_cast<std::size_t>(k)]), k);
        }
    }

    // Messages in flight from a real trace sit on their link, as far along as the trace says.
    void packets_follow_their_links_data() {
        QTest::addColumn<Algorithm>("algorithm");
        QTest::newRow("ring") << Algorithm::Ring;
        QTest::newRow("parameter server") << Algorithm::ParameterServer;
        QTest::newRow("tree") << Algorithm::Tree;
    }

    void packets_follow_their_links() {
        QFETCH(Algorithm, algorithm);
        TraceIndex index;
        run_into(small_scenario(5, algorithm), index);
        int checked = 0;
        for (const TraceEvent& e : index.events()) {
            if (e.kind != EventKind::Send || e.end <= e.start)
                continue;
            const Ticks t = e.start + (e.end - e.start) / 3;
            const ClusterScene s = layout_cluster(index, t, QSize(800, 600), test_font());
            const auto packets = index.packets_at(t);
            const auto placed = packet_positions(s, packets);
            QCOMPARE(placed.size(), packets.size());
            for (const auto& [packet, at] : placed) {
                const QPointF from = link_point(s, packet.src, packet.dst, 0.0);
                const QPointF to = link_point(s, packet.src, packet.dst, 1.0);
                const QPointF expected = from + (to - from) * packet.progress;
                QVERIFY2(distance(at, expected) < 1e-6,
                         qPrintable(QStringLiteral("%1 -> %2").arg(packet.src).arg(packet.dst)));
                // On a link the schedule states, whichever way it is drawn.
                bool linked = false;
                for (auto [a, b] : s.links)
                    linked = linked || (a == packet.src && b == packet.dst) ||
                             (a == packet.dst && b == packet.src);
                QVERIFY(linked);
                ++checked;
            }
            if (checked > 20)
                break;
        }
        QVERIFY(checked > 0);
    }

    // A point inside a disc picks its worker; a point far from every disc picks none.
    void worker_under_a_point() {
        const ClusterScene s =
            layout_cluster(QSize(800, 600), test_font(), 7, Algorithm::ParameterServer,
                           schedule_links(Algorithm::ParameterServer, 7));
        for (int k = 0; k < 7; ++k)
            QCOMPARE(
                worker_at(s, s.centres[static_cast<std::size_t>(k)] + QPointF(s.radius / 2, 0)), k);
        QCOMPARE(worker_at(s, QPointF(1, 1)), -1);
    }
};

QTEST_MAIN(TestClusterLayout)
#include "test_cluster_layout.moc"
