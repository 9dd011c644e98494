#include "trace/event_kinds.h"

#include <QtTest>

#include <algorithm>
#include <vector>

using namespace lockstep;

Q_DECLARE_METATYPE(lockstep::EventKind)
Q_DECLARE_METATYPE(lockstep::EventCategory)

namespace {

constexpr int kKinds = static_cast<int>(EventKind::Bubble) + 1;

// The categories from the ones that tell most to the ones that tell least; one group ties.
const std::vector<std::vector<EventCategory>> kByPriority{
    {EventCategory::Failure},
    {EventCategory::Pause},
    {EventCategory::Wait},
    {EventCategory::Send},
    {EventCategory::Receive},
    {EventCategory::Checkpoint},
    {EventCategory::Update, EventCategory::Compute}};

int place(EventCategory c) {
    for (std::size_t i = 0; i < kByPriority.size(); ++i)
        if (std::find(kByPriority[i].begin(), kByPriority[i].end(), c) != kByPriority[i].end())
            return static_cast<int>(i);
    return -1;
}

} // namespace

// The engine's one table of event kinds (trace/event_kinds.h): what a worker is doing during each
// kind, and which event every view shows when several cover one instant.
class TestEventKinds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void every_kind_has_its_category_data() {
        QTest::addColumn<EventKind>("kind");
        QTest::addColumn<EventCategory>("category");
        QTest::newRow("compute") << EventKind::Compute << EventCategory::Compute;
        QTest::newRow("forward") << EventKind::Forward << EventCategory::Compute;
        QTest::newRow("backward") << EventKind::Backward << EventCategory::Compute;
        QTest::newRow("send") << EventKind::Send << EventCategory::Send;
        QTest::newRow("communicate") << EventKind::Communicate << EventCategory::Send;
        QTest::newRow("receive") << EventKind::Receive << EventCategory::Receive;
        QTest::newRow("reduce") << EventKind::Reduce << EventCategory::Receive;
        QTest::newRow("update") << EventKind::Update << EventCategory::Update;
        QTest::newRow("wait") << EventKind::Wait << EventCategory::Wait;
        QTest::newRow("bubble") << EventKind::Bubble << EventCategory::Wait;
        // The heartbeat giving up on a dead peer ends a live worker's wait.
        QTest::newRow("detect") << EventKind::Detect << EventCategory::Wait;
        QTest::newRow("pause") << EventKind::Pause << EventCategory::Pause;
        QTest::newRow("checkpoint-write")
            << EventKind::CheckpointWrite << EventCategory::Checkpoint;
        QTest::newRow("checkpoint-sync") << EventKind::CheckpointSync << EventCategory::Checkpoint;
        QTest::newRow("checkpoint-commit")
            << EventKind::CheckpointCommit << EventCategory::Checkpoint;
        QTest::newRow("restore") << EventKind::Restore << EventCategory::Checkpoint;
        QTest::newRow("verify") << EventKind::Verify << EventCategory::Checkpoint;
        QTest::newRow("damage") << EventKind::Damage << EventCategory::Checkpoint;
        QTest::newRow("failed") << EventKind::Failed << EventCategory::Failure;
    }

    void every_kind_has_its_category() {
        QFETCH(EventKind, kind);
        QFETCH(EventCategory, category);
        QCOMPARE(category_of(kind), category);
    }

    // A kind of a category that tells more always outranks a kind of one that tells less.
    void priority_follows_the_categories() {
        for (int a = 0; a < kKinds; ++a)
            for (int b = 0; b < kKinds; ++b) {
                const auto ka = static_cast<EventKind>(a);
                const auto kb = static_cast<EventKind>(b);
                if (place(category_of(ka)) < place(category_of(kb)))
                    QVERIFY2(priority_of(ka) > priority_of(kb),
                             qPrintable(QStringLiteral("%1 over %2")
                                            .arg(QString::fromUtf8(to_string(ka).data()),
                                                 QString::fromUtf8(to_string(kb).data()))));
            }
    }

    void one_event_wins_an_instant_data() {
        QTest::addColumn<EventKind>("winner");
        QTest::addColumn<EventKind>("loser");
        QTest::newRow("a dead worker over its detection") << EventKind::Failed << EventKind::Detect;
        QTest::newRow("a pause over a wait") << EventKind::Pause << EventKind::Wait;
        QTest::newRow("a detection over a send") << EventKind::Detect << EventKind::Send;
        QTest::newRow("a detection over a restore") << EventKind::Detect << EventKind::Restore;
        QTest::newRow("a send over a receive") << EventKind::Send << EventKind::Receive;
        QTest::newRow("a receive over its reduce") << EventKind::Receive << EventKind::Reduce;
        QTest::newRow("a send over a fixed cost") << EventKind::Send << EventKind::Communicate;
        QTest::newRow("a reduce over a checkpoint write")
            << EventKind::Reduce << EventKind::CheckpointWrite;
        QTest::newRow("a restore over an update") << EventKind::Restore << EventKind::Update;
    }

    void one_event_wins_an_instant() {
        QFETCH(EventKind, winner);
        QFETCH(EventKind, loser);
        QVERIFY(priority_of(winner) > priority_of(loser));
    }

    // Kinds that every view shows alike tie: the lane's order decides, so at a step's end the
    // next step's compute is shown rather than the instant update before it.
    void ties() {
        QCOMPARE(priority_of(EventKind::Update), priority_of(EventKind::Compute));
        QCOMPARE(priority_of(EventKind::Detect), priority_of(EventKind::Wait));
        QCOMPARE(priority_of(EventKind::Bubble), priority_of(EventKind::Wait));
        QCOMPARE(priority_of(EventKind::Restore), priority_of(EventKind::CheckpointWrite));
    }
};

QTEST_MAIN(TestEventKinds)
#include "test_event_kinds.moc"
