#include "checkpoint/checkpoint.h"
#include "core/error.h"
#include "core/rng.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <set>
#include <unistd.h>

using namespace lockstep;
namespace fs = std::filesystem;
using Moment = CrashPoint::Moment;

Q_DECLARE_METATYPE(lockstep::CheckpointFault)
Q_DECLARE_METATYPE(lockstep::CrashPoint::Moment)

namespace {

constexpr std::uint64_t hash_a = 0xA11CE5CE9A210001ULL;

// A state with every field random, and awkward doubles first (a NaN with a payload, -0.0, an
// infinity, the smallest subnormal) so only a bit-exact format gives it back. Its shape depends
// on the arguments only, not on the seed: two seeds give files of the same sizes.
TrainingState random_state(int workers, bool shuffle, bool adam, std::size_t parameters,
                           std::uint64_t seed) {
    Rng rng(seed);
    const auto words = [&] {
        return Rng::State{rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()};
    };
    const auto fill = [&](auto& v) {
        v.resize(parameters);
        for (auto& x : v)
            x = rng.normal();
        const double awkward[] = {std::bit_cast<double>(0x7FF80000DEADBEEFULL), -0.0,
                                  std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::denorm_min()};
        std::copy_n(awkward, std::min<std::size_t>(4, v.size()), v.begin());
    };
    TrainingState s;
    s.step = static_cast<std::int64_t>(rng.below(100000));
    s.scenario_hash = rng.next_u64();
    fill(s.parameters);
    if (adam) {
        fill(s.optimizer.first_moment);
        fill(s.optimizer.second_moment);
    } else {
        fill(s.optimizer.velocity);
    }
    s.optimizer.step = static_cast<std::int64_t>(rng.below(100000));
    s.run_rng = words();
    for (int k = 0; k < workers; ++k) {
        DataCursor::State c;
        const std::size_t rows = 20 + 3 * static_cast<std::size_t>(k);
        c.position = static_cast<std::size_t>(rng.below(rows));
        c.epoch = rng.below(50);
        c.rng = words();
        if (shuffle) {
            c.order.resize(rows);
            std::iota(c.order.begin(), c.order.end(), 0u);
            for (std::size_t i = rows - 1; i > 0; --i)
                std::swap(c.order[i], c.order[static_cast<std::size_t>(rng.below(i + 1))]);
        }
        s.cursors.push_back(std::move(c));
    }
    return s;
}

TrainingState state_at(std::int64_t step, std::uint64_t seed, int workers = 3,
                       std::uint64_t hash = hash_a) {
    TrainingState s = random_state(workers, true, true, 37, seed);
    s.step = step;
    s.scenario_hash = hash;
    return s;
}

std::vector<std::byte> read_bytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> out(chars.size());
    std::memcpy(out.data(), chars.data(), chars.size());
    return out;
}

void write_bytes(const fs::path& file, std::span<const std::byte> bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

std::uint64_t get_u64(std::span<const std::byte> bytes, std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | std::to_integer<std::uint64_t>(bytes[at + static_cast<std::size_t>(i)]);
    return v;
}

std::uint32_t get_u32(std::span<const std::byte> bytes, std::size_t at) {
    return static_cast<std::uint32_t>(get_u64(bytes, at) & 0xFFFFFFFFu);
}

void put_u64(std::vector<std::byte>& bytes, std::size_t at, std::uint64_t v) {
    for (std::size_t i = 0; i < 8; ++i)
        bytes[at + i] = static_cast<std::byte>(v >> (8 * i));
}

void put_u32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t v) {
    for (std::size_t i = 0; i < 4; ++i)
        bytes[at + i] = static_cast<std::byte>(v >> (8 * i));
}

// Rewrites the trailing checksum so an edited file passes its own check, as a hostile one would.
void reseal(std::vector<std::byte>& bytes) {
    put_u64(bytes, bytes.size() - 8, checkpoint_checksum(std::span(bytes).first(bytes.size() - 8)));
}

// Rewrites a checkpoint's manifest after `edit` changes it, sealed and consistent.
template <typename Edit> void edit_manifest(const fs::path& step_dir, Edit&& edit) {
    CheckpointManifest manifest = decode_manifest(read_bytes(step_dir / "MANIFEST"));
    edit(manifest);
    write_bytes(step_dir / "MANIFEST", encode_manifest(manifest));
}

// Patches a field of a committed file, reseals it and updates its manifest entry to match: the
// file then passes every check but the one under test.
void patch_committed(const fs::path& step_dir, const std::string& name, std::size_t at,
                     std::uint64_t value, bool as_u32 = false) {
    auto bytes = read_bytes(step_dir / name);
    as_u32 ? put_u32(bytes, at, static_cast<std::uint32_t>(value)) : put_u64(bytes, at, value);
    reseal(bytes);
    write_bytes(step_dir / name, bytes);
    edit_manifest(step_dir, [&](CheckpointManifest& m) {
        for (auto& e : m.files)
            if (e.name == name)
                e.checksum = get_u64(bytes, bytes.size() - 8);
    });
}

std::set<std::string> names_in(const fs::path& dir) {
    std::set<std::string> out;
    for (const auto& entry : fs::directory_iterator(dir))
        out.insert(entry.path().filename().string());
    return out;
}

fs::path step_dir(const fs::path& dir, std::int64_t step) {
    return dir / checkpoint_directory_name(step);
}

struct Failure {
    CheckpointFault fault = CheckpointFault::None;
    QString message = QStringLiteral("<no error thrown>");
};

template <typename Action> Failure failure_of(Action&& action) {
    Failure out;
    try {
        action();
    } catch (const CheckpointError& e) {
        out.fault = e.fault();
        out.message = QString::fromStdString(e.what());
    } catch (const Error& e) {
        out.message = QString::fromStdString(e.what());
    }
    return out;
}

const CheckpointInfo* find_step(const CheckpointScan& scan, std::int64_t step) {
    for (const auto& info : scan.checkpoints)
        if (info.step == step)
            return &info;
    return nullptr;
}

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

// The checkpoint storage layer: bit-exact round trips, the commit protocol and its phases,
// injected crashes, storage faults and hostile files, recovery and the keep-last policy.
class TestCheckpoint : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void checksum_known_values_data();
    void checksum_known_values();
    void names_data();
    void names();
    void round_trip_data();
    void round_trip();
    void layout_matches_documentation();
    void sharded_parameters_round_trip();
    void precision_and_loss_scale_round_trip_and_are_checked();
    void sharded_missing_file_falls_back_data();
    void sharded_missing_file_falls_back();
    void commit_phases_in_order_data();
    void commit_phases_in_order();
    void crash_points_data();
    void crash_points();
    void corruption_data();
    void corruption();
    void hostile_lengths_data();
    void hostile_lengths();
    void zero_generator_rejected_data();
    void zero_generator_rejected();
    void large_file_checked_whole_data();
    void large_file_checked_whole();
    void wrong_run_rejected();
    void bad_state_not_written();
    void same_step_saved_again();
    void keep_last();
    void leftovers_reported_and_cleaned();
    void never_removes_or_writes_through_what_is_not_its_own();
    void missing_directory();
    void storage_fault_helpers();
    void one_holder_per_directory();
};

// Reference values from the xxHash project's library (XXH64, seed 0).
void TestCheckpoint::checksum_known_values_data() {
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<quint64>("expected");
    const auto pattern = [](int n) {
        QByteArray out;
        for (int i = 0; i < n; ++i)
            out.append(static_cast<char>(i * 7 % 251));
        return out;
    };
    QTest::newRow("empty") << QByteArray() << quint64(0xEF46DB3751D8E999ULL);
    QTest::newRow("a") << QByteArray("a") << quint64(0xD24EC4F1A98C6E5BULL);
    QTest::newRow("abc") << QByteArray("abc") << quint64(0x44BC2CF5AD770999ULL);
    QTest::newRow("123456789") << QByteArray("123456789") << quint64(0x8CB841DB40E6AE83ULL);
    QTest::newRow("47 bytes: stripe, 8, 4 and 3-byte tails")
        << pattern(47) << quint64(0x2B800ED3116D175DULL);
    QTest::newRow("100 bytes") << pattern(100) << quint64(0xB7FE1D84B2F23A05ULL);
    QTest::newRow("1000 bytes") << pattern(1000) << quint64(0x023FD2ED1FF957D5ULL);
}

void TestCheckpoint::checksum_known_values() {
    QFETCH(QByteArray, input);
    QFETCH(quint64, expected);
    const auto bytes = std::as_bytes(std::span(input.constData(), std::size_t(input.size())));
    QCOMPARE(quint64(checkpoint_checksum(bytes)), expected);
}

void TestCheckpoint::names_data() {
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<bool>("plain");
    QTest::newRow("worker file") << QByteArray("worker-0.ckpt") << true;
    QTest::newRow("manifest") << QByteArray("MANIFEST") << true;
    QTest::newRow("parent") << QByteArray("../evil") << false;
    QTest::newRow("absolute") << QByteArray("/etc/passwd") << false;
    QTest::newRow("subdirectory") << QByteArray("a/b") << false;
    QTest::newRow("backslash") << QByteArray("a\\b") << false;
    QTest::newRow("dot dot inside") << QByteArray("a..b") << false;
    QTest::newRow("hidden") << QByteArray(".hidden") << false;
    QTest::newRow("dot") << QByteArray(".") << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("NUL") << QByteArray("a\0b", 3) << false;
    QTest::newRow("255 bytes") << QByteArray(255, 'x') << true;
    QTest::newRow("256 bytes") << QByteArray(256, 'x') << false;
}

void TestCheckpoint::names() {
    QFETCH(QByteArray, name);
    QFETCH(bool, plain);
    QCOMPARE(is_plain_file_name(std::string_view(name.constData(), std::size_t(name.size()))),
             plain);
    // Directory names too: zero-padded so they also sort as text, parsed back exactly.
    QCOMPARE(checkpoint_directory_name(123), std::string("step-000000123"));
    QCOMPARE(parse_checkpoint_directory_name("step-000000123"), std::optional<std::int64_t>(123));
    QCOMPARE(parse_checkpoint_directory_name("step-1234567890"),
             std::optional<std::int64_t>(1234567890));
    for (const char* bad : {"step-", "step-12a", "step--1", "steps-1", "step-1.tmp"})
        QVERIFY2(!parse_checkpoint_directory_name(bad), bad);
}

void TestCheckpoint::round_trip_data() {
    QTest::addColumn<int>("workers");
    QTest::addColumn<bool>("shuffle");
    QTest::addColumn<bool>("adam");
    QTest::addColumn<bool>("sharded");
    QTest::addColumn<int>("parameters");
    for (int n : {1, 2, 3, 8})
        for (bool shuffle : {false, true})
            for (bool adam : {false, true})
                for (bool sharded : {false, true})
                    QTest::addRow("%d workers, %s, %s, %s", n, shuffle ? "shuffled" : "in order",
                                  adam ? "adam" : "sgd", sharded ? "sharded" : "whole")
                        << n << shuffle << adam << sharded << 37;
    QTest::newRow("fewer parameters than workers, sharded") << 8 << true << true << true << 5;
    QTest::newRow("no parameters") << 2 << false << false << true << 0;
    // Files of several megabytes: arrays written and read in 1 MiB chunks, writeback started
    // every 8 MiB.
    QTest::newRow("1.1M parameters, whole") << 2 << true << false << false << 1'100'000;
    QTest::newRow("1.1M parameters, sharded") << 3 << true << true << true << 1'100'000;
}

void TestCheckpoint::round_trip() {
    QFETCH(int, workers);
    QFETCH(bool, shuffle);
    QFETCH(bool, adam);
    QFETCH(bool, sharded);
    QFETCH(int, parameters);
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const TrainingState state =
        random_state(workers, shuffle, adam, std::size_t(parameters), 7 + std::uint64_t(workers));

    CheckpointOptions options;
    options.sharded_optimizer = sharded;
    const CheckpointWrite write = save_checkpoint(dir, state, options);
    QVERIFY(write.committed);
    QVERIFY(!write.crash);
    QCOMPARE(write.directory, step_dir(dir, state.step));

    std::set<std::string> expected{"MANIFEST"};
    for (int k = 0; k < workers; ++k)
        expected.insert(worker_file_name(k));
    QCOMPARE(names_in(write.directory), expected);

    const TrainingState loaded = load_checkpoint(write.directory);
    QVERIFY(loaded == state);
    QCOMPARE(loaded.parameters.size(), state.parameters.size());
    for (std::size_t i = 0; i < state.parameters.size(); ++i)
        if (std::bit_cast<std::uint64_t>(loaded.parameters[i]) !=
            std::bit_cast<std::uint64_t>(state.parameters[i]))
            QFAIL(qPrintable(QStringLiteral("parameter %1 differs").arg(i)));
    const CheckpointRecovery recovery = load_newest_complete(dir, state.scenario_hash, workers);
    QVERIFY(recovery.state && *recovery.state == state);
    QVERIFY(recovery.rejected.empty());

    // Where the optimizer state lives: all in worker 0's file, or worker k's slice in file k.
    const std::size_t n = std::size_t(parameters);
    const auto& used = adam ? state.optimizer.first_moment : state.optimizer.velocity;
    for (int k = 0; k < workers; ++k) {
        const WorkerCheckpoint file = decode_worker_file(
            read_bytes(write.directory / worker_file_name(k)), worker_file_name(k));
        QCOMPARE(file.worker, k);
        QCOMPARE(file.has_shared, k == 0);
        const OptimizerSlice& slice = adam ? file.first_moment : file.velocity;
        if (sharded) {
            const SliceRange want = optimizer_slice(n, k, workers);
            QCOMPARE(want.begin, std::uint64_t(std::size_t(k) * n / std::size_t(workers)));
            QCOMPARE(slice.begin, want.begin);
            QCOMPARE(slice.values.size(), want.end - want.begin);
            QVERIFY(std::equal(slice.values.begin(), slice.values.end(),
                               used.begin() + std::ptrdiff_t(want.begin), [](double a, double b) {
                                   return std::bit_cast<std::uint64_t>(a) ==
                                          std::bit_cast<std::uint64_t>(b);
                               }));
        } else {
            QCOMPARE(file.has_optimizer, k == 0);
            if (k == 0)
                QCOMPARE(slice.values.size(), n);
        }
    }
}

// A ZeRO-3 checkpoint: every file holds its slice of the parameters (flag 8) as of the optimizer
// state, worker 0's shared part holds none of them, the files together give the state back bit
// for bit, and without one of them there is no state.
// A float32 run's checkpoint says so (flag 16) and keeps its loss scale (flag 32, worker 0):
// both come back; a file that claims float32 over values that are not floats, or holds a loss
// scale that is no power of two, is refused, naming what is wrong.
void TestCheckpoint::precision_and_loss_scale_round_trip_and_are_checked() {
    TrainingState state = random_state(3, true, true, 37, 11);
    const auto to_floats = [](auto& values) {
        for (double& v : values)
            v = static_cast<float>(v);
    };
    to_floats(state.parameters);
    to_floats(state.optimizer.first_moment);
    to_floats(state.optimizer.second_moment);
    state.precision = Precision::Float32;
    state.loss_scale = LossScaleState{1024.0, 7};
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const CheckpointWrite write = save_checkpoint(dir, state, CheckpointOptions{});
        QVERIFY(write.committed);
        const TrainingState loaded = load_checkpoint(write.directory);
        QVERIFY(loaded == state);
        QVERIFY(loaded.precision == Precision::Float32);
        QVERIFY(loaded.loss_scale && loaded.loss_scale->scale == 1024.0 &&
                loaded.loss_scale->good_steps == 7);
        TrainingState plain = state; // the same values as a float64 run's: another state
        plain.precision = Precision::Float64;
        QVERIFY(!(loaded == plain));
    }
    {
        TrainingState not_floats = state;
        not_floats.parameters[5] = 0.1; // not a float
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const CheckpointWrite write = save_checkpoint(dir, not_floats, CheckpointOptions{});
        const Failure f = failure_of([&] { load_checkpoint(write.directory); });
        QVERIFY2(f.message.contains("says float32, but its parameters entry 5 is not a float"),
                 qPrintable(f.message));
    }
    {
        TrainingState odd_scale = state;
        odd_scale.loss_scale = LossScaleState{3.0, 0};
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const CheckpointWrite write = save_checkpoint(dir, odd_scale, CheckpointOptions{});
        const Failure f = failure_of([&] { load_checkpoint(write.directory); });
        QVERIFY2(f.message.contains("worker-0.ckpt") &&
                     f.message.contains("is not a power of two from 1 to 2^24"),
                 qPrintable(f.message));
    }
}

void TestCheckpoint::sharded_parameters_round_trip() {
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const int workers = 3;
    const TrainingState state = random_state(workers, true, true, 37, 11);
    CheckpointOptions options;
    options.sharded_optimizer = true;
    options.sharded_parameters = true;
    const CheckpointWrite write = save_checkpoint(dir, state, options);
    QVERIFY(write.committed);
    std::vector<WorkerCheckpoint> files;
    for (int k = 0; k < workers; ++k) {
        WorkerCheckpoint file = decode_worker_file(
            read_bytes(write.directory / worker_file_name(k)), worker_file_name(k));
        const SliceRange want = optimizer_slice(37, k, workers);
        QVERIFY(file.sharded_parameters);
        QVERIFY(file.parameters.empty());
        QCOMPARE(file.parameter_slice.total, std::uint64_t(37));
        QCOMPARE(file.parameter_slice.begin, want.begin);
        QCOMPARE(file.parameter_slice.values.size(), want.end - want.begin);
        QCOMPARE(get_u32(read_bytes(write.directory / worker_file_name(k)), 12) & 8u, 8u);
        files.push_back(std::move(file));
    }
    QCOMPARE(get_u64(read_bytes(write.directory / "worker-0.ckpt"), 88), std::uint64_t(0));
    QVERIFY(load_checkpoint(write.directory) == state);
    files.pop_back(); // worker 2's file lost: its slices are nowhere else
    bool refused = false;
    try {
        (void)assemble_state(files);
    } catch (const CheckpointError&) {
        refused = true;
    }
    QVERIFY(refused);
}

// The offsets documented in checkpoint.h, read straight from the bytes.
void TestCheckpoint::layout_matches_documentation() {
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const TrainingState state = state_at(42, 3);
    const auto write = save_checkpoint(dir, state);
    const auto w0 = read_bytes(write.directory / "worker-0.ckpt");
    const auto w2 = read_bytes(write.directory / "worker-2.ckpt");
    const auto mf = read_bytes(write.directory / "MANIFEST");
    QCOMPARE(std::memcmp(w0.data(), "LKSTCKPT", 8), 0);
    QCOMPARE(std::memcmp(mf.data(), "LKSTMANI", 8), 0);
    QCOMPARE(get_u32(w0, 8), 1u);
    QCOMPARE(get_u32(w0, 12), 2u | 4u);
    QCOMPARE(get_u32(w2, 12), 0u);
    QCOMPARE(get_u64(w0, 16), std::uint64_t(w0.size()));
    QCOMPARE(get_u32(w2, 24), 2u);
    QCOMPARE(get_u32(w2, 28), 3u);
    QCOMPARE(get_u64(w2, 32), std::uint64_t(42));
    QCOMPARE(get_u64(w2, 40), hash_a);
    QCOMPARE(get_u64(w0, 88), std::uint64_t(37));
    QCOMPARE(get_u64(w0, w0.size() - 8), checkpoint_checksum(std::span(w0).first(w0.size() - 8)));
    QCOMPARE(get_u32(mf, 24), 3u);
    QCOMPARE(get_u32(mf, 28), 3u);
    QCOMPARE(get_u32(mf, 48), 13u); // strlen("worker-0.ckpt")
    QCOMPARE(get_u64(mf, 48 + 4 + 13), std::uint64_t(w0.size()));
    QCOMPARE(get_u64(mf, 48 + 4 + 13 + 8), get_u64(w0, w0.size() - 8));
    QCOMPARE(write.files.size(), std::size_t(3));
    QCOMPARE(write.bytes, std::uint64_t(std::uintmax_t(w0.size()) +
                                        fs::file_size(write.directory / "worker-1.ckpt") +
                                        w2.size() + mf.size()));
}

void TestCheckpoint::sharded_missing_file_falls_back_data() {
    QTest::addColumn<int>("workers");
    QTest::addColumn<int>("missing");
    for (int k = 0; k < 3; ++k)
        QTest::addRow("3 workers, worker %d's file deleted", k) << 3 << k;
    QTest::newRow("8 workers, worker 5's file deleted") << 8 << 5;
}

void TestCheckpoint::sharded_missing_file_falls_back() {
    QFETCH(int, workers);
    QFETCH(int, missing);
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    CheckpointOptions sharded;
    sharded.sharded_optimizer = true;
    const TrainingState older = state_at(10, 1, workers);
    const TrainingState newer = state_at(20, 2, workers);
    save_checkpoint(dir, older, sharded);
    save_checkpoint(dir, newer, sharded);

    const std::string name = worker_file_name(missing);
    fs::remove(step_dir(dir, 20) / name);

    const CheckpointScan scan = scan_checkpoints(dir);
    QCOMPARE(scan.checkpoints.size(), std::size_t(2));
    QCOMPARE(scan.checkpoints[0].status, CheckpointStatus::Complete);
    QCOMPARE(scan.checkpoints[1].status, CheckpointStatus::Partial);
    QCOMPARE(scan.checkpoints[1].fault, CheckpointFault::MissingFile);
    QVERIFY2(text(scan.checkpoints[1].reason).contains(text(name + ": missing")),
             scan.checkpoints[1].reason.c_str());

    const CheckpointRecovery recovery = load_newest_complete(dir, hash_a, workers);
    QVERIFY(recovery.state);
    QVERIFY(*recovery.state == older);
    QCOMPARE(recovery.directory, step_dir(dir, 10));
    QCOMPARE(recovery.rejected.size(), std::size_t(1));
    QCOMPARE(recovery.rejected[0].step, std::int64_t(20));
    QCOMPARE(recovery.rejected[0].fault, CheckpointFault::MissingFile);
}

void TestCheckpoint::commit_phases_in_order_data() {
    QTest::addColumn<int>("workers");
    QTest::addColumn<bool>("sharded");
    QTest::newRow("1 worker") << 1 << false;
    QTest::newRow("3 workers") << 3 << false;
    QTest::newRow("3 workers, sharded") << 3 << true;
}

// Checks the files on disk as each phase is reported: a temporary file before the rename, the
// final name after it, and no MANIFEST until every worker file is durable.
void TestCheckpoint::commit_phases_in_order() {
    QFETCH(int, workers);
    QFETCH(bool, sharded);
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const TrainingState state = state_at(7, 5, workers);
    const fs::path step = step_dir(dir, 7);

    struct Seen {
        CheckpointPhase phase;
        int worker;
        std::string file;
    };
    std::vector<Seen> seen;
    QStringList problems;
    CheckpointOptions options;
    options.sharded_optimizer = sharded;
    options.observer = [&](CheckpointPhase phase, int worker, const std::string& file) {
        seen.push_back({phase, worker, file});
        const std::string name = worker >= 0 ? worker_file_name(worker) : "MANIFEST";
        const fs::path temp = step / (name + ".tmp");
        const fs::path final_path = step / name;
        const auto problem = [&](const char* what) {
            problems << QStringLiteral("%1 %2: %3")
                            .arg(text(std::string(to_string(phase))), text(name), what);
        };
        if (phase != CheckpointPhase::Committed && worker >= 0 && fs::exists(step / "MANIFEST"))
            problem("MANIFEST exists before every worker file is durable");
        switch (phase) {
        case CheckpointPhase::WriteTemp:
        case CheckpointPhase::FsyncFile:
            if (file != temp.string())
                problem("reports the wrong file");
            if (!fs::exists(temp) || fs::exists(final_path))
                problem("expected the temporary file only");
            else if (worker >= 0 &&
                     fs::file_size(temp) != encode_worker_file(state, worker, sharded).size())
                problem("temporary file is not complete");
            break;
        case CheckpointPhase::Rename:
        case CheckpointPhase::FsyncDir:
            if (file != final_path.string())
                problem("reports the wrong file");
            if (fs::exists(temp) || !fs::exists(final_path))
                problem("expected the final file only");
            break;
        case CheckpointPhase::Committed:
            if (file != step.string() || !fs::exists(step / "MANIFEST"))
                problem("committed without a MANIFEST");
            break;
        }
        if (worker < 0 && phase == CheckpointPhase::WriteTemp)
            for (int k = 0; k < workers; ++k)
                if (!fs::exists(step / worker_file_name(k)))
                    problem("manifest written before a worker file");
    };
    QVERIFY(save_checkpoint(dir, state, options).committed);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));

    const CheckpointPhase four[] = {CheckpointPhase::WriteTemp, CheckpointPhase::FsyncFile,
                                    CheckpointPhase::Rename, CheckpointPhase::FsyncDir};
    std::vector<std::pair<CheckpointPhase, int>> expected;
    for (int k = -1; k < workers; ++k)
        for (const auto phase : four)
            expected.emplace_back(phase, k + 1 < workers ? k + 1 : -1);
    expected.emplace_back(CheckpointPhase::Committed, -1);
    QCOMPARE(seen.size(), expected.size());
    for (std::size_t i = 0; i < seen.size(); ++i) {
        QCOMPARE(seen[i].phase, expected[i].first);
        QCOMPARE(seen[i].worker, expected[i].second);
    }
    // The manifest is the newest file of the checkpoint.
    const auto manifest_time = fs::last_write_time(step / "MANIFEST");
    for (int k = 0; k < workers; ++k)
        QVERIFY(fs::last_write_time(step / worker_file_name(k)) <= manifest_time);
}

void TestCheckpoint::crash_points_data() {
    QTest::addColumn<Moment>("moment");
    QTest::addColumn<int>("worker");
    QTest::addColumn<bool>("sharded");
    for (Moment m :
         {Moment::BeforeFsync, Moment::AfterFsyncBeforeRename, Moment::AfterRenameBeforeManifest})
        for (int worker : {0, 2})
            for (bool sharded : {false, true})
                QTest::addRow("%s, worker %d, %s", std::string(to_string(m)).c_str(), worker,
                              sharded ? "sharded" : "whole")
                    << m << worker << sharded;
}

// A crash leaves real files: the scan calls the step partial, recovery takes the one before,
// and the same step can be saved again afterwards.
void TestCheckpoint::crash_points() {
    QFETCH(Moment, moment);
    QFETCH(int, worker);
    QFETCH(bool, sharded);
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const TrainingState older = state_at(10, 1);
    const TrainingState newer = state_at(20, 2);
    CheckpointOptions options;
    options.sharded_optimizer = sharded;
    save_checkpoint(dir, older, options);

    std::vector<std::pair<CheckpointPhase, int>> phases;
    options.crash = CrashPoint{worker, moment};
    options.observer = [&](CheckpointPhase phase, int w, const std::string&) {
        phases.emplace_back(phase, w);
    };
    const CheckpointWrite crashed = save_checkpoint(dir, newer, options);
    QVERIFY(!crashed.committed);
    QVERIFY(crashed.crash);
    QCOMPARE(crashed.crash->worker, worker);
    QCOMPARE(crashed.crash->moment, moment);

    const fs::path step = step_dir(dir, 20);
    const std::string name = worker_file_name(worker);
    const auto full = encode_worker_file(newer, worker, sharded);
    std::set<std::string> expected;
    for (int k = 0; k < worker; ++k)
        expected.insert(worker_file_name(k));
    std::pair<CheckpointPhase, int> last_phase{CheckpointPhase::FsyncDir, worker - 1};
    switch (moment) {
    case Moment::BeforeFsync: {
        expected.insert(name + ".tmp");
        const auto half = read_bytes(step / (name + ".tmp"));
        QCOMPARE(half.size(), full.size() / 2);
        QVERIFY(std::equal(half.begin(), half.end(), full.begin()));
        break;
    }
    case Moment::AfterFsyncBeforeRename:
        expected.insert(name + ".tmp");
        QVERIFY(read_bytes(step / (name + ".tmp")) == full);
        last_phase = {CheckpointPhase::FsyncFile, worker};
        break;
    case Moment::AfterRenameBeforeManifest:
        expected.insert(name);
        last_phase = {CheckpointPhase::FsyncDir, worker};
        break;
    }
    QCOMPARE(names_in(step), expected);
    QCOMPARE(crashed.files.size(),
             std::size_t(worker) + (moment == Moment::AfterRenameBeforeManifest ? 1 : 0));
    if (last_phase.second >= 0) {
        QVERIFY(!phases.empty());
        QCOMPARE(phases.back(), last_phase);
    } else {
        QVERIFY(phases.empty());
    }

    const CheckpointScan scan = scan_checkpoints(dir);
    QCOMPARE(scan.checkpoints.size(), std::size_t(2));
    QCOMPARE(scan.checkpoints[0].status, CheckpointStatus::Complete);
    QCOMPARE(scan.checkpoints[1].status, CheckpointStatus::Partial);
    QCOMPARE(scan.checkpoints[1].fault, CheckpointFault::NoManifest);
    QVERIFY(text(scan.checkpoints[1].reason).contains("no MANIFEST"));
    const bool temp_left = moment != Moment::AfterRenameBeforeManifest;
    QCOMPARE(scan.leftovers.size(), std::size_t(temp_left ? 1 : 0));
    if (temp_left)
        QCOMPARE(scan.leftovers[0], step / (name + ".tmp"));

    const CheckpointRecovery recovery = load_newest_complete(dir, hash_a, 3);
    QVERIFY(recovery.state && *recovery.state == older);
    QCOMPARE(recovery.rejected.size(), std::size_t(1));
    QCOMPARE(recovery.rejected[0].step, std::int64_t(20));
    QCOMPARE(recovery.rejected[0].status, CheckpointStatus::Partial);

    QCOMPARE(clean_leftovers(dir).size(), std::size_t(temp_left ? 1 : 0));
    QVERIFY(scan_checkpoints(dir).leftovers.empty());

    options.crash.reset();
    QVERIFY(save_checkpoint(dir, newer, options).committed);
    const CheckpointRecovery again = load_newest_complete(dir, hash_a, 3);
    QVERIFY(again.state && *again.state == newer);
}

void TestCheckpoint::corruption_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("argument");
    QTest::addColumn<CheckpointFault>("fault");
    QTest::addColumn<QString>("reason");
    using F = CheckpointFault;
    const auto row = [](const char* name, const char* action, const char* file,
                        const QByteArray& argument, F fault, const char* reason) {
        QTest::newRow(name) << QString(action) << QString(file) << argument << fault
                            << QString(reason);
    };
    row("bit flip, worker 0 (shared part)", "flip-middle", "worker-0.ckpt", {}, F::ChecksumMismatch,
        "worker-0.ckpt: checksum mismatch");
    row("bit flip, worker 2", "flip-middle", "worker-2.ckpt", {}, F::ChecksumMismatch,
        "worker-2.ckpt: checksum mismatch");
    row("bit flip, sharded slice", "flip-middle-sharded", "worker-1.ckpt", {}, F::ChecksumMismatch,
        "worker-1.ckpt: checksum mismatch");
    row("bit flip, stored checksum", "flip-last", "worker-1.ckpt", {}, F::ChecksumMismatch,
        "worker-1.ckpt: checksum mismatch");
    row("bit flip, manifest", "flip-middle", "MANIFEST", {}, F::ChecksumMismatch,
        "MANIFEST: checksum mismatch");
    row("truncated worker file", "truncate", "worker-1.ckpt", "100", F::SizeMismatch,
        "worker-1.ckpt: truncated: 100 bytes, expected ");
    row("worker file emptied", "truncate", "worker-2.ckpt", "0", F::SizeMismatch,
        "worker-2.ckpt: truncated: 0 bytes, expected ");
    row("truncated manifest", "truncate", "MANIFEST", "60", F::SizeMismatch,
        "MANIFEST: truncated: 60 bytes, expected ");
    row("manifest cut inside its header", "truncate", "MANIFEST", "30", F::SizeMismatch,
        "MANIFEST: truncated: 30 bytes, too short for a header");
    row("grown worker file", "grow", "worker-1.ckpt", {}, F::SizeMismatch,
        "worker-1.ckpt: size mismatch: ");
    row("grown manifest", "grow", "MANIFEST", {}, F::SizeMismatch, "MANIFEST: size mismatch: ");
    row("wrong magic, worker file", "magic", "worker-1.ckpt", {}, F::Unreadable,
        "worker-1.ckpt: bad magic");
    row("wrong magic, manifest", "magic", "MANIFEST", {}, F::Unreadable, "MANIFEST: bad magic");
    row("future version, worker file", "version", "worker-1.ckpt", {}, F::BadVersion,
        "worker-1.ckpt: version 7 is not supported (this build reads 1)");
    row("future version, manifest", "version", "MANIFEST", {}, F::BadVersion,
        "MANIFEST: version 7 is not supported (this build reads 1)");
    row("parameter count 2^60", "parameter-count", "worker-0.ckpt", {}, F::Unreadable,
        "worker-0.ckpt: parameter count 1152921504606846976 is over the limit of 16000000");
    row("order length past the end", "order-length", "worker-1.ckpt", {}, F::Unreadable,
        "worker-1.ckpt: order length 999999 needs 3999996 bytes, only ");
    row("manifest of 2 MiB", "truncate", "MANIFEST", "2097152", F::Unreadable,
        "MANIFEST: 2097152 bytes, over the limit of 1048576");
    row("manifest entry ../evil", "entry-name", "MANIFEST", "../evil", F::BadName,
        "MANIFEST: bad file name \"../evil\"");
    row("manifest entry /etc/passwd", "entry-name", "MANIFEST", "/etc/passwd", F::BadName,
        "MANIFEST: bad file name \"/etc/passwd\"");
    row("manifest entry a/b", "entry-name", "MANIFEST", "a/b", F::BadName,
        "MANIFEST: bad file name \"a/b\"");
    row("manifest entry a\\b", "entry-name", "MANIFEST", "a\\b", F::BadName,
        "MANIFEST: bad file name \"a\\b\"");
    row("manifest entry .hidden", "entry-name", "MANIFEST", ".hidden", F::BadName,
        "MANIFEST: bad file name \".hidden\"");
    row("manifest entry with NUL", "entry-name", "MANIFEST", QByteArray("worker-1\0x", 10),
        F::BadName, "MANIFEST: bad file name \"worker-1\\x00x\"");
    row("manifest entry empty", "entry-name", "MANIFEST", "", F::BadName,
        "MANIFEST: bad file name \"\"");
    row("manifest entry for another name", "entry-name", "MANIFEST", "notes.txt", F::Unreadable,
        "MANIFEST: entry 1 is \"notes.txt\", expected \"worker-1.ckpt\"");
    row("missing manifest", "remove", "MANIFEST", {}, F::NoManifest, "no MANIFEST");
    row("manifest lists a missing file", "remove", "worker-2.ckpt", {}, F::MissingFile,
        "worker-2.ckpt: missing");
    row("manifest size differs", "entry-size", "MANIFEST", {}, F::SizeMismatch,
        "worker-1.ckpt: size mismatch: ");
    row("manifest checksum differs", "entry-checksum", "MANIFEST", {}, F::ChecksumMismatch,
        "worker-1.ckpt: checksum ");
    row("file from an older checkpoint", "swap-older", "worker-1.ckpt", {}, F::ChecksumMismatch,
        "differs from the manifest's");
    row("manifest step differs from directory", "manifest-step", "MANIFEST", {}, F::Unreadable,
        "MANIFEST: says step 30, the directory is step-000000020");
    row("worker file is a symbolic link", "symlink", "worker-1.ckpt", {}, F::Unreadable,
        "worker-1.ckpt: cannot open");
}

// Damages step 20 one way; the scan names the fault and recovery falls back to step 10.
void TestCheckpoint::corruption() {
    QFETCH(QString, action);
    QFETCH(QString, file);
    QFETCH(QByteArray, argument);
    QFETCH(CheckpointFault, fault);
    QFETCH(QString, reason);
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    CheckpointOptions options;
    options.sharded_optimizer = action.endsWith("-sharded");
    const TrainingState older = state_at(10, 1);
    save_checkpoint(dir, older, options);
    save_checkpoint(dir, state_at(20, 2), options);
    const fs::path step = step_dir(dir, 20);
    const fs::path path = step / file.toStdString();
    const std::uint64_t size = fs::exists(path) ? fs::file_size(path) : 0;

    if (action.startsWith("flip-middle")) {
        flip_bit(path, size / 2, 3);
    } else if (action == "flip-last") {
        flip_bit(path, size - 1, 7);
    } else if (action == "truncate") {
        truncate_file(path, argument.toULongLong());
    } else if (action == "grow") {
        truncate_file(path, size + 16);
    } else if (action == "magic") {
        auto bytes = read_bytes(path);
        std::memcpy(bytes.data(), "NOTACKPT", 8);
        write_bytes(path, bytes);
    } else if (action == "version") {
        auto bytes = read_bytes(path);
        put_u32(bytes, 8, 7);
        write_bytes(path, bytes);
    } else if (action == "parameter-count") {
        patch_committed(step, file.toStdString(), 88, 1ULL << 60);
    } else if (action == "order-length") {
        patch_committed(step, file.toStdString(), 96, 999999);
    } else if (action == "entry-name") {
        edit_manifest(step, [&](CheckpointManifest& m) {
            m.files[1].name = std::string(argument.constData(), std::size_t(argument.size()));
        });
    } else if (action == "remove") {
        fs::remove(path);
    } else if (action == "entry-size") {
        edit_manifest(step, [](CheckpointManifest& m) { m.files[1].size -= 1; });
    } else if (action == "entry-checksum") {
        edit_manifest(step, [](CheckpointManifest& m) { m.files[1].checksum ^= 1; });
    } else if (action == "swap-older") {
        fs::copy_file(step_dir(dir, 10) / "worker-1.ckpt", path,
                      fs::copy_options::overwrite_existing);
    } else if (action == "manifest-step") {
        edit_manifest(step, [](CheckpointManifest& m) { m.step = 30; });
    } else if (action == "symlink") {
        fs::rename(path, dir / "outside.ckpt");
        fs::create_symlink(dir / "outside.ckpt", path);
    } else {
        QFAIL(qPrintable("unknown action " + action));
    }

    const CheckpointScan scan = scan_checkpoints(dir);
    QCOMPARE(scan.checkpoints.size(), std::size_t(2));
    QCOMPARE(scan.checkpoints[0].status, CheckpointStatus::Complete);
    const CheckpointInfo& damaged = scan.checkpoints[1];
    QCOMPARE(damaged.step, std::int64_t(20));
    QCOMPARE(damaged.fault, fault);
    QCOMPARE(damaged.status, status_of(fault));
    QCOMPARE(damaged.status,
             fault == CheckpointFault::NoManifest || fault == CheckpointFault::MissingFile
                 ? CheckpointStatus::Partial
                 : CheckpointStatus::Corrupt);
    QVERIFY2(text(damaged.reason).contains(reason), damaged.reason.c_str());

    const CheckpointRecovery recovery = load_newest_complete(dir, hash_a, 3);
    QVERIFY(recovery.state && *recovery.state == older);
    QCOMPARE(recovery.rejected.size(), std::size_t(1));
    QCOMPARE(recovery.rejected[0].fault, fault);
    QVERIFY(text(recovery.rejected[0].reason).contains(reason));

    const Failure direct = failure_of([&] { load_checkpoint(step); });
    QCOMPARE(direct.fault, fault);
    QVERIFY2(direct.message.contains(reason), qPrintable(direct.message));
}

void TestCheckpoint::hostile_lengths_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("offset");
    QTest::addColumn<quint64>("value");
    QTest::addColumn<bool>("u32");
    QTest::addColumn<QString>("reason");
    QTest::newRow("parameter count 2^60") << "worker-0" << 88 << quint64(1ULL << 60) << false
                                          << "parameter count 1152921504606846976 is over";
    QTest::newRow("parameter count within limit, past the end")
        << "worker-0" << 88 << quint64(16'000'000) << false
        << "parameter count 16000000 needs 128000000 bytes, only ";
    QTest::newRow("order length 2^63") << "worker-1" << 96 << quint64(1ULL << 63) << false
                                       << "order length 9223372036854775808 is over";
    QTest::newRow("sharded slice length 2^50")
        << "worker-1-sharded" << 64 << quint64(1ULL << 50) << false
        << "velocity 1125899906842624 is over the limit";
    QTest::newRow("sharded slice outside its vector")
        << "worker-1-sharded" << 80 << quint64(1000) << false
        << "first moment slice [1000, +12) lies outside its 37 entries";
    QTest::newRow("vector length 2^60") << "worker-1-sharded" << 48 << quint64(1ULL << 60) << false
                                        << "velocity length 1152921504606846976 is over";
    QTest::newRow("declared file size 2^40")
        << "worker-1" << 16 << quint64(1ULL << 40) << false
        << "declares 1099511627776 bytes, over the limit of 1073741824";
    QTest::newRow("worker count 1000")
        << "worker-1" << 28 << quint64(1000) << true << "worker count 1000 is not in 1..256";
    QTest::newRow("worker index past the count")
        << "worker-1" << 24 << quint64(3) << true << "worker 3 of 3";
    QTest::newRow("unknown flag") << "worker-1" << 12 << quint64(64) << true << "unknown flags";
    QTest::newRow("manifest file count 100000")
        << "manifest" << 28 << quint64(100000) << true << "file count 100000 is over";
    QTest::newRow("manifest name length 2^31")
        << "manifest" << 48 << quint64(1u << 31) << true << "entry name length 2147483648 is over";
    QTest::newRow("manifest lists a 2 GiB file")
        << "manifest" << 48 + 4 + 13 << quint64(2ULL << 30) << false
        << "worker-0.ckpt is listed with 2147483648 bytes, over the limit";
}

// In-memory files with one field made hostile and the checksum made valid again, as a fuzzer or
// an attacker would: every one is refused with its reason, before any allocation it asks for.
void TestCheckpoint::hostile_lengths() {
    QFETCH(QString, kind);
    QFETCH(int, offset);
    QFETCH(quint64, value);
    QFETCH(bool, u32);
    QFETCH(QString, reason);
    const TrainingState state = state_at(20, 2);
    const bool sharded = kind.endsWith("-sharded");
    std::vector<std::byte> bytes;
    if (kind == "manifest") {
        CheckpointManifest m{20, hash_a, 3, false, {}};
        for (int k = 0; k < 3; ++k)
            m.files.push_back({worker_file_name(k), 1000, 42});
        bytes = encode_manifest(m);
    } else {
        bytes = encode_worker_file(state, kind.startsWith("worker-0") ? 0 : 1, sharded);
    }
    u32 ? put_u32(bytes, std::size_t(offset), std::uint32_t(value))
        : put_u64(bytes, std::size_t(offset), value);
    reseal(bytes);
    const Failure f = failure_of([&] {
        if (kind == "manifest")
            decode_manifest(bytes);
        else
            decode_worker_file(bytes, "hostile.ckpt");
    });
    QVERIFY2(f.message.contains(reason), qPrintable(f.message));
    QVERIFY(f.fault == CheckpointFault::Unreadable);
}

void TestCheckpoint::large_file_checked_whole_data() {
    QTest::addColumn<int>("offset");
    QTest::addColumn<quint64>("value");
    QTest::newRow("a bit deep in the parameters") << (5 << 20) << quint64(0);
    QTest::newRow("the parameter count") << 88 << quint64(1ULL << 60);
    QTest::newRow("the last byte of the data order") << -9 << quint64(0);
}

// Recovery reads a worker file as it decodes it, but a damaged file is still reported by its
// checksum, never by what the damage made of its contents: a length turned hostile included.
void TestCheckpoint::large_file_checked_whole() {
    QFETCH(int, offset);
    QFETCH(quint64, value);
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const TrainingState state = random_state(2, true, false, 1'100'000, 11);
    const CheckpointWrite write = save_checkpoint(dir, state);
    const fs::path file = write.directory / "worker-0.ckpt";
    auto bytes = read_bytes(file);
    const std::size_t at = offset >= 0 ? std::size_t(offset) : bytes.size() + std::size_t(offset);
    if (value == 0)
        bytes[at] ^= std::byte{0x04};
    else
        put_u64(bytes, at, value);
    write_bytes(file, bytes);

    const Failure f = failure_of([&] { load_checkpoint(write.directory); });
    QCOMPARE(f.fault, CheckpointFault::ChecksumMismatch);
    QCOMPARE(f.message, QStringLiteral("worker-0.ckpt: checksum mismatch"));
    const Failure whole = failure_of([&] { decode_worker_file(bytes, "worker-0.ckpt"); });
    QCOMPARE(whole.fault, f.fault);
    QCOMPARE(whole.message, f.message);
}

// A generator state of four zero words (xoshiro would return 0 for ever: the next epoch's
// shuffle would never end) is refused by name, whole file or streamed, and recovery skips it.
void TestCheckpoint::zero_generator_rejected_data() {
    QTest::addColumn<int>("worker");
    QTest::addColumn<QString>("what");
    QTest::addRow("run generator") << 0 << QStringLiteral("run generator");
    QTest::addRow("a worker's data order") << 1 << QStringLiteral("cursor generator");
}

void TestCheckpoint::zero_generator_rejected() {
    QFETCH(int, worker);
    QFETCH(QString, what);
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const TrainingState good = state_at(10, 1);
    save_checkpoint(dir, good);
    TrainingState bad = state_at(20, 1);
    if (worker == 0)
        bad.run_rng = {};
    else
        bad.cursors[std::size_t(worker)].rng = {};
    const CheckpointWrite write = save_checkpoint(dir, bad);
    const std::string name = worker_file_name(worker);
    const QString expected = QString::fromStdString(name) + QStringLiteral(": ") + what +
                             QStringLiteral(" is all zero, a state no generator can be in");
    const Failure whole =
        failure_of([&] { decode_worker_file(encode_worker_file(bad, worker, false), name); });
    QCOMPARE(whole.fault, CheckpointFault::Unreadable);
    QCOMPARE(whole.message, expected);
    const Failure streamed = failure_of([&] { load_checkpoint(write.directory); });
    QCOMPARE(streamed.fault, CheckpointFault::Unreadable);
    QCOMPARE(streamed.message, expected);
    const CheckpointRecovery recovery = load_newest_complete(dir, hash_a, 3);
    QVERIFY(recovery.state && *recovery.state == good);
    QCOMPARE(recovery.rejected.size(), std::size_t(1));
}

void TestCheckpoint::wrong_run_rejected() {
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const TrainingState ours = state_at(10, 1);
    save_checkpoint(dir, ours);
    save_checkpoint(dir, state_at(20, 2, 3, 0xBADBADBADULL));

    const CheckpointRecovery same_run = load_newest_complete(dir, hash_a, 3);
    QVERIFY(same_run.state && *same_run.state == ours);
    QCOMPARE(same_run.rejected.size(), std::size_t(1));
    QCOMPARE(same_run.rejected[0].fault, CheckpointFault::WrongScenario);
    QCOMPARE(same_run.rejected[0].status, CheckpointStatus::Complete);
    QVERIFY(text(same_run.rejected[0].reason).contains("scenario hash 0x0000000badbadbad"));

    const CheckpointRecovery other_count = load_newest_complete(dir, hash_a, 4);
    QVERIFY(!other_count.state);
    QCOMPARE(other_count.rejected.size(), std::size_t(2));
    QCOMPARE(other_count.rejected[1].fault, CheckpointFault::WrongWorkers);
    QVERIFY(text(other_count.rejected[1].reason).contains("written by 3 workers, this run has 4"));

    const CheckpointRecovery any_count = load_newest_complete(dir, hash_a, 0);
    QVERIFY(any_count.state && *any_count.state == ours);
}

// A state the reader would refuse is refused before anything is written.
void TestCheckpoint::bad_state_not_written() {
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "ckpt";
    TrainingState bad = state_at(10, 1);
    bad.optimizer.first_moment.pop_back();
    Failure f = failure_of([&] { save_checkpoint(dir, bad); });
    QVERIFY2(f.message.contains("optimizer first_moment has 36 entries, the model has 37"),
             qPrintable(f.message));
    QVERIFY(!fs::exists(dir));

    TrainingState nobody = state_at(10, 1);
    nobody.cursors.clear();
    f = failure_of([&] { save_checkpoint(dir, nobody); });
    QVERIFY2(f.message.contains("0 workers"), qPrintable(f.message));

    CheckpointOptions options;
    options.crash = CrashPoint{3, Moment::BeforeFsync};
    f = failure_of([&] { save_checkpoint(dir, state_at(10, 1), options); });
    QVERIFY2(f.message.contains("no worker 3"), qPrintable(f.message));
    QVERIFY(!fs::exists(dir));
}

// Saving a step that already has a checkpoint replaces it whole; a symbolic link standing in
// for the step directory is replaced, and what it pointed to is left alone.
void TestCheckpoint::same_step_saved_again() {
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "ckpt";
    CheckpointOptions sharded;
    sharded.sharded_optimizer = true;
    save_checkpoint(dir, state_at(20, 1, 8), sharded);
    const TrainingState again = state_at(20, 2, 3);
    QVERIFY(save_checkpoint(dir, again).committed);
    QCOMPARE(
        names_in(step_dir(dir, 20)),
        (std::set<std::string>{"MANIFEST", "worker-0.ckpt", "worker-1.ckpt", "worker-2.ckpt"}));
    QVERIFY(load_checkpoint(step_dir(dir, 20)) == again);

    const fs::path elsewhere = fs::path(tmp.path().toStdString()) / "elsewhere";
    save_checkpoint(elsewhere, state_at(30, 3));
    fs::create_directory_symlink(step_dir(elsewhere, 30), step_dir(dir, 30));
    QVERIFY(scan_checkpoints(dir).checkpoints.size() == 1); // links are not checkpoints
    const TrainingState own = state_at(30, 4);
    QVERIFY(save_checkpoint(dir, own).committed);
    QVERIFY(!fs::is_symlink(step_dir(dir, 30)));
    QVERIFY(load_checkpoint(step_dir(dir, 30)) == own);
    QVERIFY(load_checkpoint(step_dir(elsewhere, 30)) == state_at(30, 3));
}

// Every save with keep_last = 2 removes what is older than the two newest committed ones; a
// newer partial checkpoint stays until it is older than the kept ones.
void TestCheckpoint::keep_last() {
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    CheckpointOptions options;
    options.keep_last = 2;
    for (std::int64_t step = 10; step <= 60; step += 10) {
        const CheckpointWrite write =
            save_checkpoint(dir, state_at(step, std::uint64_t(step)), options);
        const std::vector<fs::path> expected_pruned =
            step >= 30 ? std::vector<fs::path>{step_dir(dir, step - 20)} : std::vector<fs::path>{};
        QCOMPARE(write.pruned, expected_pruned);
    }
    QCOMPARE(names_in(dir), (std::set<std::string>{"step-000000050", "step-000000060"}));

    CheckpointOptions crash = options;
    crash.crash = CrashPoint{1, Moment::AfterRenameBeforeManifest};
    QVERIFY(!save_checkpoint(dir, state_at(70, 70), crash).committed);
    QVERIFY(save_checkpoint(dir, state_at(80, 80), options).committed);
    QCOMPARE(names_in(dir),
             (std::set<std::string>{"step-000000060", "step-000000070", "step-000000080"}));

    const auto removed = keep_last_checkpoints(dir, 1);
    QCOMPARE(removed, (std::vector<fs::path>{step_dir(dir, 60), step_dir(dir, 70)}));
    QCOMPARE(names_in(dir), (std::set<std::string>{"step-000000080"}));
    QVERIFY(load_newest_complete(dir, hash_a, 3).state == state_at(80, 80));
    QVERIFY(keep_last_checkpoints(dir, 0).empty());
    QVERIFY(failure_of([&] { keep_last_checkpoints(dir, -1); }).message.contains("keep_last"));

    // Only checkpoints that verify count: with the two newest damaged, the two before them are
    // kept and only what is older goes; with fewer good ones than asked for, nothing goes.
    for (std::int64_t step = 90; step <= 130; step += 10)
        QVERIFY(save_checkpoint(dir, state_at(step, std::uint64_t(step))).committed);
    for (std::int64_t step : {120, 130}) {
        std::vector<std::byte> bytes = read_bytes(step_dir(dir, step) / worker_file_name(1));
        bytes[bytes.size() / 2] ^= std::byte{0x10}; // a flipped bit: the checksum no longer holds
        write_bytes(step_dir(dir, step) / worker_file_name(1), bytes);
    }
    QCOMPARE(keep_last_checkpoints(dir, 2),
             (std::vector<fs::path>{step_dir(dir, 80), step_dir(dir, 90)}));
    QCOMPARE(names_in(dir), (std::set<std::string>{"step-000000100", "step-000000110",
                                                   "step-000000120", "step-000000130"}));
    QVERIFY(keep_last_checkpoints(dir, 3).empty()); // only two verify
    QVERIFY(load_newest_complete(dir, hash_a, 3).state == state_at(110, 110));
}

void TestCheckpoint::leftovers_reported_and_cleaned() {
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    save_checkpoint(dir, state_at(10, 1));
    CheckpointOptions options;
    options.crash = CrashPoint{1, Moment::BeforeFsync};
    save_checkpoint(dir, state_at(20, 2), options);
    options.crash = CrashPoint{0, Moment::AfterFsyncBeforeRename};
    save_checkpoint(dir, state_at(30, 3), options);
    // Files a run did not write stay, even with a temporary's name: a user's, and one named like
    // a worker file's temporary whose bytes are not a checkpoint's.
    write_bytes(dir / "stray.tmp", std::vector<std::byte>(5));
    write_bytes(step_dir(dir, 20) / "worker-2.ckpt.tmp", std::vector<std::byte>(12));
    write_bytes(step_dir(dir, 20) / "MANIFEST.tmp", std::vector<std::byte>(3));
    fs::create_directory(dir / "notes");
    write_bytes(dir / "notes" / "kept.tmp", std::vector<std::byte>(5)); // not a checkpoint's

    const std::vector<fs::path> expected{step_dir(dir, 20) / "worker-1.ckpt.tmp",
                                         step_dir(dir, 30) / "worker-0.ckpt.tmp"};
    const CheckpointScan scan = scan_checkpoints(dir);
    QCOMPARE(scan.leftovers, expected);
    QCOMPARE(find_step(scan, 20)->leftovers, std::vector<fs::path>{expected[0]});
    QCOMPARE(clean_leftovers(dir), expected);
    for (const auto& file : expected)
        QVERIFY(!fs::exists(file));
    QVERIFY(fs::exists(dir / "notes" / "kept.tmp"));
    QVERIFY(fs::exists(dir / "stray.tmp"));
    QVERIFY(clean_leftovers(dir).empty());
    QCOMPARE(find_step(scan_checkpoints(dir), 10)->status, CheckpointStatus::Complete);
    QCOMPARE(names_in(step_dir(dir, 20)),
             (std::set<std::string>{"worker-0.ckpt", "worker-2.ckpt.tmp", "MANIFEST.tmp"}));
}

// A user's file where a step's directory would go is neither removed nor replaced: the save is
// refused, naming it. A link in a temporary's place is never written through: the file it points
// to, outside the directory, keeps its bytes.
void TestCheckpoint::never_removes_or_writes_through_what_is_not_its_own() {
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const std::vector<std::byte> mine{std::byte{'m'}, std::byte{'i'}, std::byte{'n'},
                                      std::byte{'e'}};
    write_bytes(step_dir(dir, 10), mine);
    const QString refused = failure_of([&] { save_checkpoint(dir, state_at(10, 1)); }).message;
    QVERIFY2(refused.contains(QStringLiteral("a file that is not a checkpoint is in the way")),
             qPrintable(refused));
    QVERIFY(fs::is_regular_file(step_dir(dir, 10)));
    QCOMPARE(read_bytes(step_dir(dir, 10)), mine);

    QTemporaryDir elsewhere;
    const fs::path outside = fs::path(elsewhere.path().toStdString()) / "precious.txt";
    write_bytes(outside, mine);
    fs::create_symlink(outside, dir / "scenario.json.tmp");
    const std::string json = "{}";
    const QString linked =
        failure_of([&] {
            write_file_atomically(dir / "scenario.json", std::as_bytes(std::span(json)));
        }).message;
    QVERIFY2(linked.contains(QStringLiteral("is a symbolic link")), qPrintable(linked));
    QCOMPARE(read_bytes(outside), mine);
    QVERIFY(!fs::exists(dir / "scenario.json"));
}

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The directory lock: a second holder is refused naming the first's process, the lock goes with
// its holder, and a lockstep.lock the run did not make is refused, never rewritten.
void TestCheckpoint::one_holder_per_directory() {
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const auto message = [&] {
        try {
            DirectoryLock second(dir);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    {
        const DirectoryLock first(dir);
        QCOMPARE(read_text(dir / "lockstep.lock"), std::to_string(::getpid()) + "\n");
        const std::string why = message();
        QVERIFY2(why.find("in use by another run (process " + std::to_string(::getpid()) + ")") !=
                     std::string::npos,
                 why.c_str());
    }
    QCOMPARE(message(), std::string()); // released with its holder; the file stays for the next

    // Not a lock of ours: a user's file of that name, a link, a folder.
    const fs::path lock = dir / "lockstep.lock";
    fs::remove(lock);
    std::ofstream(lock) << "my notes\n";
    QVERIFY(message().find("holds something other than a process ID") != std::string::npos);
    QCOMPARE(read_text(lock), std::string("my notes\n"));
    fs::remove(lock);
    std::ofstream(dir / "elsewhere") << "outside\n";
    fs::create_symlink(dir / "elsewhere", lock);
    QVERIFY(message().find("is a symbolic link") != std::string::npos);
    QCOMPARE(read_text(dir / "elsewhere"), std::string("outside\n"));
    fs::remove(lock);
    fs::create_directory(lock);
    QVERIFY(!message().empty());
}

void TestCheckpoint::missing_directory() {
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "nothing-here";
    const Failure f = failure_of([&] { scan_checkpoints(dir); });
    QVERIFY2(f.message.contains("does not exist"), qPrintable(f.message));
    const CheckpointRecovery recovery = load_newest_complete(dir, hash_a, 3);
    QVERIFY(!recovery.state);
    QVERIFY(recovery.rejected.empty());
    QVERIFY(scan_checkpoints(tmp.path().toStdString()).checkpoints.empty());
}

void TestCheckpoint::storage_fault_helpers() {
    QTemporaryDir tmp;
    const fs::path file = fs::path(tmp.path().toStdString()) / "f";
    write_bytes(file, std::vector<std::byte>{std::byte{0x0F}, std::byte{0xF0}});
    flip_bit(file, 1, 0);
    QCOMPARE(read_bytes(file), (std::vector<std::byte>{std::byte{0x0F}, std::byte{0xF1}}));
    flip_bit(file, 1, 0);
    QCOMPARE(read_bytes(file), (std::vector<std::byte>{std::byte{0x0F}, std::byte{0xF0}}));
    QVERIFY(failure_of([&] { flip_bit(file, 2); }).message.contains("past the end"));
    QVERIFY(failure_of([&] { flip_bit(file, 0, 8); }).message.contains("not in 0..7"));
    truncate_file(file, 1);
    QCOMPARE(fs::file_size(file), std::uintmax_t(1));
    QVERIFY(failure_of([&] {
                truncate_file(file.string() + "-none", 1);
            }).message.contains("cannot truncate"));
}

QTEST_APPLESS_MAIN(TestCheckpoint)
#include "test_checkpoint.moc"
