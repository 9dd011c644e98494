#include "core/error.h"
#include "data/data.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <set>

using namespace lockstep;

using namespace lockstep::testing;

namespace {

SyntheticSpec spec_of(const QString& name, std::size_t samples, double noise, int classes,
                      std::uint64_t seed) {
    SyntheticSpec spec;
    spec.name = name.toStdString();
    spec.samples = samples;
    spec.noise = noise;
    spec.classes = classes;
    spec.seed = seed;
    return spec;
}

bool same_bytes(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

std::vector<std::vector<std::size_t>> batches(DataCursor& cursor, int count, std::size_t batch) {
    std::vector<std::vector<std::size_t>> out;
    std::vector<std::size_t> rows;
    for (int i = 0; i < count; ++i) {
        cursor.next_batch(batch, rows);
        out.push_back(rows);
    }
    return out;
}

// Smallest angular distance between two angles, in radians.
double angle_gap(double a, double b) {
    const double two_pi = 2.0 * std::numbers::pi;
    double d = std::fmod(std::abs(a - b), two_pi);
    return std::min(d, two_pi - d);
}

} // namespace

// Synthetic sets, CSV parsing, sharding and the per-worker data cursor.
class TestData : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void synthetic_names();
    void synthetic_deterministic_data();
    void synthetic_deterministic();
    void synthetic_class_balance_data();
    void synthetic_class_balance();
    void synthetic_geometry_data();
    void synthetic_geometry();
    void regression_formula();
    void synthetic_bad_spec_data();
    void synthetic_bad_spec();

    void csv_good_data();
    void csv_good();
    void csv_bad_data();
    void csv_bad();
    void load_csv_file();
    void load_csv_errors();
    void csv_streams_across_pieces();
    void csv_refuses_at_the_line_past_a_limit();

    void equal_shards_table_data();
    void equal_shards_table();
    void equal_shards_huge_rows();
    void equal_shards_errors_data();
    void equal_shards_errors();
    void sized_shards_good();
    void sized_shards_errors_data();
    void sized_shards_errors();

    void cursor_wraps_in_order();
    void cursor_shuffled_epochs();
    void cursor_same_seed_same_batches();
    void cursor_state_round_trip_data();
    void cursor_state_round_trip();
    void cursor_bad_state();
    void gather_rows_copies();
};

void TestData::synthetic_names() {
    const auto names = synthetic_dataset_names();
    QCOMPARE(names.size(), std::size_t{5});
    for (const auto& name : names)
        QVERIFY(is_synthetic_dataset(name));
    QVERIFY(is_synthetic_dataset("xor"));
    QVERIFY(!is_synthetic_dataset("moons"));
    QVERIFY(!is_synthetic_dataset(""));
}

void TestData::synthetic_deterministic_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("classes");
    QTest::newRow("spiral") << "spiral" << 3;
    QTest::newRow("circles") << "circles" << 2;
    QTest::newRow("xor") << "xor" << 2;
    QTest::newRow("clusters") << "clusters" << 5;
    QTest::newRow("regression") << "regression" << 2;
}

void TestData::synthetic_deterministic() {
    QFETCH(QString, name);
    QFETCH(int, classes);
    const Dataset a = make_synthetic(spec_of(name, 300, 0.1, classes, 42));
    const Dataset b = make_synthetic(spec_of(name, 300, 0.1, classes, 42));
    const Dataset c = make_synthetic(spec_of(name, 300, 0.1, classes, 43));
    QCOMPARE(a.size(), std::size_t{300});
    QCOMPARE(a.features.size(), std::size_t{600});
    QCOMPARE(a.dim, std::size_t{2});
    QCOMPARE(a.name, name.toStdString());
    QVERIFY(same_bytes(a.features, b.features));
    QVERIFY(same_bytes(a.targets, b.targets));
    QVERIFY(!same_bytes(a.features, c.features));
}

void TestData::synthetic_class_balance_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("classes");
    QTest::addColumn<int>("samples");
    QTest::newRow("spiral 2") << "spiral" << 2 << 400;
    QTest::newRow("spiral 8 uneven") << "spiral" << 8 << 403;
    QTest::newRow("circles") << "circles" << 2 << 401;
    QTest::newRow("xor") << "xor" << 2 << 400;
    QTest::newRow("clusters 3") << "clusters" << 3 << 300;
    QTest::newRow("clusters 8") << "clusters" << 8 << 800;
}

// Every class gets the same number of rows (within one), and every run of `classes` rows holds
// each class once, so contiguous shards are balanced.
void TestData::synthetic_class_balance() {
    QFETCH(QString, name);
    QFETCH(int, classes);
    QFETCH(int, samples);
    const Dataset d = make_synthetic(spec_of(name, std::size_t(samples), 0.1, classes, 7));
    QCOMPARE(d.task, Task::Classification);
    QCOMPARE(d.classes, classes);
    std::vector<int> counts(std::size_t(classes), 0);
    for (std::size_t i = 0; i < d.size(); ++i) {
        const double y = d.targets[i];
        QCOMPARE(y, double(i % std::size_t(classes)));
        ++counts[std::size_t(y)];
    }
    const auto [lo, hi] = std::minmax_element(counts.begin(), counts.end());
    QVERIFY(*hi - *lo <= 1);
    QCOMPARE(*lo, samples / classes);

    // Features stay in the range a tanh network handles comfortably.
    const auto inside = std::count_if(d.features.begin(), d.features.end(),
                                      [](double x) { return std::abs(x) <= 1.5; });
    QVERIFY2(
        double(inside) >= 0.99 * double(d.features.size()),
        qPrintable(QString("%1 of %2 features in [-1.5, 1.5]").arg(inside).arg(d.features.size())));
}

void TestData::synthetic_geometry_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("classes");
    QTest::newRow("spiral 2") << "spiral" << 2;
    QTest::newRow("spiral 5") << "spiral" << 5;
    QTest::newRow("circles") << "circles" << 2;
    QTest::newRow("xor") << "xor" << 2;
    QTest::newRow("clusters 4") << "clusters" << 4;
    QTest::newRow("clusters 8") << "clusters" << 8;
}

// Without noise each point lies where its class says it should.
void TestData::synthetic_geometry() {
    QFETCH(QString, name);
    QFETCH(int, classes);
    const Dataset d = make_synthetic(spec_of(name, 1000, 0.0, classes, 3));
    int nearest_centre_matches = 0;
    for (std::size_t i = 0; i < d.size(); ++i) {
        const double x0 = d.row(i)[0];
        const double x1 = d.row(i)[1];
        const int c = int(d.targets[i]);
        const double radius = std::hypot(x0, x1);
        const double base = 2.0 * std::numbers::pi * c / classes;
        if (name == "spiral") {
            QVERIFY(radius <= 1.0);
            if (radius > 1e-6)
                QVERIFY2(angle_gap(std::atan2(x1, x0), base + 4.0 * radius) < 1e-9,
                         qPrintable(QString("row %1 is off its arm").arg(i)));
        } else if (name == "circles") {
            QVERIFY(std::abs(radius - (c == 0 ? 0.5 : 1.0)) < 1e-12);
        } else if (name == "xor") {
            QVERIFY(std::abs(x0) <= 1.0 && std::abs(x1) <= 1.0);
            QCOMPARE(c, x0 * x1 < 0 ? 1 : 0);
        } else {
            int nearest = 0;
            double best = std::numeric_limits<double>::infinity();
            for (int k = 0; k < classes; ++k) {
                const double a = 2.0 * std::numbers::pi * k / classes;
                const double dist = std::hypot(x0 - std::cos(a), x1 - std::sin(a));
                if (dist < best) {
                    best = dist;
                    nearest = k;
                }
            }
            nearest_centre_matches += nearest == c ? 1 : 0;
        }
    }
    if (name == "clusters")
        QVERIFY2(
            nearest_centre_matches >= 950,
            qPrintable(QString("%1 of 1000 nearest their own centre").arg(nearest_centre_matches)));
}

// y = sin(x0) + x1/2 exactly without noise; with noise the residuals have the asked spread.
void TestData::regression_formula() {
    const Dataset exact = make_synthetic(spec_of("regression", 2000, 0.0, 2, 5));
    QCOMPARE(exact.task, Task::Regression);
    QCOMPARE(exact.classes, 1);
    for (std::size_t i = 0; i < exact.size(); ++i) {
        const double* x = exact.row(i);
        QVERIFY(x[0] >= -3.0 && x[0] <= 3.0 && x[1] >= -3.0 && x[1] <= 3.0);
        QVERIFY(std::abs(exact.targets[i] - (std::sin(x[0]) + x[1] / 2.0)) < 1e-12);
    }

    const Dataset noisy = make_synthetic(spec_of("regression", 20000, 0.2, 2, 5));
    double sum = 0.0;
    double sum_sq = 0.0;
    for (std::size_t i = 0; i < noisy.size(); ++i) {
        const double* x = noisy.row(i);
        const double residual = noisy.targets[i] - (std::sin(x[0]) + x[1] / 2.0);
        sum += residual;
        sum_sq += residual * residual;
    }
    const double n = double(noisy.size());
    const double mean = sum / n;
    const double sd = std::sqrt(sum_sq / n - mean * mean);
    QVERIFY2(std::abs(mean) < 0.01, qPrintable(QString("residual mean %1").arg(mean)));
    QVERIFY2(std::abs(sd - 0.2) < 0.01, qPrintable(QString("residual sd %1").arg(sd)));
}

void TestData::synthetic_bad_spec_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<qulonglong>("samples");
    QTest::addColumn<double>("noise");
    QTest::addColumn<int>("classes");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unknown name") << "moons" << 100ull << 0.1 << 2
                                  << "unknown synthetic dataset 'moons' (known: spiral, circles, "
                                     "xor, clusters, regression)";
    QTest::newRow("no samples") << "spiral" << 0ull << 0.1 << 2 << "samples must be in 1..1000000";
    QTest::newRow("too many samples")
        << "xor" << 1'000'001ull << 0.1 << 2 << "samples must be in 1..1000000, got 1000001";
    QTest::newRow("negative noise") << "circles" << 100ull << -0.1 << 2 << "noise must be in 0..10";
    QTest::newRow("too much noise") << "circles" << 100ull << 10.5 << 2 << "noise must be in 0..10";
    QTest::newRow("NaN noise") << "spiral" << 100ull << std::nan("") << 2
                               << "noise must be in 0..10";
    QTest::newRow("spiral 1 class")
        << "spiral" << 100ull << 0.1 << 1 << "'spiral' classes must be in 2..8, got 1";
    QTest::newRow("clusters 9 classes")
        << "clusters" << 100ull << 0.1 << 9 << "'clusters' classes must be in 2..8, got 9";
    QTest::newRow("xor 3 classes")
        << "xor" << 100ull << 0.1 << 3 << "'xor' always has 2 classes, got 3";
}

void TestData::synthetic_bad_spec() {
    QFETCH(QString, name);
    QFETCH(qulonglong, samples);
    QFETCH(double, noise);
    QFETCH(int, classes);
    QFETCH(QString, fragment);
    const QString msg =
        error_message([&] { make_synthetic(spec_of(name, samples, noise, classes, 1)); });
    QVERIFY2(msg.contains(fragment), qPrintable(msg));
}

void TestData::csv_good_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("dim");
    QTest::addColumn<bool>("classification");
    QTest::addColumn<int>("classes");
    QTest::addColumn<double>("first_feature");
    QTest::addColumn<double>("last_target");
    QTest::newRow("no header") << QByteArray("0.5,1.5,0\n-1,2,1\n3,4,2\n") << 3 << 2 << true << 3
                               << 0.5 << 2.0;
    QTest::newRow("header") << QByteArray("x0,x1,label\n0.5,1.5,0\n-1,2,1\n") << 2 << 2 << true << 2
                            << 0.5 << 1.0;
    QTest::newRow("CRLF and trailing blank lines")
        << QByteArray("a,b,y\r\n1,2,1\r\n3,4,0\r\n\r\n\r\n") << 2 << 2 << true << 2 << 1.0 << 0.0;
    QTest::newRow("CR alone ends a line (old Mac files)")
        << QByteArray("a,b,y\r1,2,1\r3,4,0\r") << 2 << 2 << true << 2 << 1.0 << 0.0;
    QTest::newRow("no final newline")
        << QByteArray("1,2,1\n3,4,3") << 2 << 2 << true << 4 << 1.0 << 3.0;
    QTest::newRow("spaces around fields")
        << QByteArray("  x , y \n 1.25 ,\t2 \n") << 1 << 1 << true << 3 << 1.25 << 2.0;
    QTest::newRow("exponents and plus sign")
        << QByteArray("1e-3,+2.5E1,1\n") << 1 << 2 << true << 2 << 0.001 << 1.0;
    QTest::newRow("byte order mark")
        << QByteArray("\xEF\xBB\xBFx,y\n7,1\n") << 1 << 1 << true << 2 << 7.0 << 1.0;
    QTest::newRow("fractional labels are regression")
        << QByteArray("1,0.5\n2,1\n") << 2 << 1 << false << 1 << 1.0 << 1.0;
    QTest::newRow("negative labels are regression")
        << QByteArray("1,-1\n2,0\n") << 2 << 1 << false << 1 << 1.0 << 0.0;
    QTest::newRow("label 1024 is regression")
        << QByteArray("1,1024\n2,0\n") << 2 << 1 << false << 1 << 1.0 << 0.0;
    QTest::newRow("label 1023 is classification")
        << QByteArray("1,1023\n2,0\n") << 2 << 1 << true << 1024 << 1.0 << 0.0;
    QTest::newRow("labels written as 2.0")
        << QByteArray("1,2.0\n2,0.0\n") << 2 << 1 << true << 3 << 1.0 << 0.0;
}

void TestData::csv_good() {
    QFETCH(QByteArray, text);
    QFETCH(int, rows);
    QFETCH(int, dim);
    QFETCH(bool, classification);
    QFETCH(int, classes);
    QFETCH(double, first_feature);
    QFETCH(double, last_target);
    const Dataset d =
        parse_csv(std::string_view(text.constData(), std::size_t(text.size())), "data.csv");
    QCOMPARE(d.size(), std::size_t(rows));
    QCOMPARE(d.dim, std::size_t(dim));
    QCOMPARE(d.features.size(), std::size_t(rows * dim));
    QCOMPARE(d.task, classification ? Task::Classification : Task::Regression);
    QCOMPARE(d.classes, classes);
    QCOMPARE(d.features.front(), first_feature);
    QCOMPARE(d.targets.back(), last_target);
    QCOMPARE(d.name, std::string("data.csv"));
}

void TestData::csv_bad_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qulonglong>("max_rows");
    QTest::addColumn<QString>("fragment");
    const qulonglong rows = 1'000'000;
    QTest::newRow("ragged row") << QByteArray("1,2,0\n3,4,1\n5,1\n") << rows
                                << "data.csv:3: expected 3 fields like line 1, found 2";
    QTest::newRow("ragged after header") << QByteArray("a,b,c\n1,2,3,4\n") << rows
                                         << "data.csv:2: expected 3 fields like line 1, found 4";
    QTest::newRow("not a number") << QByteArray("x,y,z\n1,2,0\n3,4,1\n5,abc,1\n") << rows
                                  << "data.csv:4, column 2: 'abc' is not a number";
    QTest::newRow("trailing junk")
        << QByteArray("1,2x,0\n") << rows << "data.csv:1, column 2: '2x' is not a number";
    QTest::newRow("semicolon separator")
        << QByteArray("x,y\n0;5,1\n") << rows << "data.csv:2, column 1: '0;5' is not a number";
    QTest::newRow("empty field") << QByteArray("1,,0\n") << rows
                                 << "data.csv:1, column 2: empty field";
    QTest::newRow("empty file") << QByteArray("") << rows << "data.csv: the file is empty";
    QTest::newRow("only blank lines")
        << QByteArray("\n \r\n\n") << rows << "data.csv: the file is empty";
    QTest::newRow("only header") << QByteArray("x,y,label\n") << rows
                                 << "data.csv: has a header but no data rows";
    QTest::newRow("NaN") << QByteArray("1,2,0\nnan,1,1\n") << rows
                         << "data.csv:2, column 1: 'nan' is not a finite number";
    QTest::newRow("infinity label") << QByteArray("1,2,0\n1,1,-inf\n") << rows
                                    << "data.csv:2, column 3: '-inf' is not a finite number";
    QTest::newRow("overflow") << QByteArray("1,1e999\n") << rows
                              << "data.csv:1, column 2: '1e999' is out of range";
    QTest::newRow("too many rows")
        << QByteArray("h,y\n1,0\n2,1\n3,0\n") << 2ull << "data.csv: more than 2 rows (limit)";
    QTest::newRow("single column")
        << QByteArray("1\n2\n") << rows << "data.csv:1: need at least 2 columns";
    QTest::newRow("blank line inside")
        << QByteArray("1,0\n\n2,1\n") << rows << "data.csv:2: blank line between data rows";
    QTest::newRow("blank lines before the header")
        << QByteArray("\n\nx,y\n1,0\n") << rows << "data.csv:1: need at least 2 columns";
    QTest::newRow("a line longer than a megabyte")
        << (QByteArray("1,0\n") + QByteArray(2 << 20, '7') + ",1\n") << rows
        << "data.csv:2: longer than 1048576 bytes";
}

void TestData::csv_bad() {
    QFETCH(QByteArray, text);
    QFETCH(qulonglong, max_rows);
    QFETCH(QString, fragment);
    CsvLimits limits;
    limits.max_rows = max_rows;
    const QString msg = error_message([&] {
        parse_csv(std::string_view(text.constData(), std::size_t(text.size())), "data.csv", limits);
    });
    QVERIFY2(msg.contains(fragment), qPrintable(msg));
}

void TestData::load_csv_file() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("points.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x0,x1,y\r\n0.25,-0.5,1.5\r\n1,2,-3\r\n");
    file.close();

    const Dataset d = load_csv(path.toStdString());
    QCOMPARE(d.name, std::string("points.csv"));
    QCOMPARE(d.task, Task::Regression);
    QCOMPARE(d.size(), std::size_t{2});
    QCOMPARE(d.features, (std::vector<double>{0.25, -0.5, 1.0, 2.0}));
    QCOMPARE(d.targets, (std::vector<double>{1.5, -3.0}));
}

void TestData::load_csv_errors() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string missing = dir.filePath("missing.csv").toStdString();
    QString msg = error_message([&] { load_csv(missing); });
    QVERIFY2(msg.contains("cannot open") && msg.contains("missing.csv"), qPrintable(msg));

    msg = error_message([&] { load_csv(dir.path().toStdString()); });
    QVERIFY2(msg.contains("is a directory"), qPrintable(msg));

    const QString path = dir.filePath("big.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("1,0\n2,1\n3,0\n"); // 12 bytes
    file.close();
    CsvLimits limits;
    limits.max_bytes = 11;
    msg = error_message([&] { load_csv(path.toStdString(), limits); });
    QVERIFY2(msg.contains("big.csv: 12 bytes, more than the limit of 11"), qPrintable(msg));

    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("1,0\n2\n");
    file.close();
    msg = error_message([&] { load_csv(path.toStdString()); });
    QVERIFY2(msg.contains("big.csv:2: expected 2 fields like line 1, found 1"), qPrintable(msg));
}

// A file is read a megabyte at a time: lines, "\r\n" pairs and the byte-order mark cut between
// two pieces read as they do whole, and blank lines at the end cost nothing however many.
void TestData::csv_streams_across_pieces() {
    QTemporaryDir dir;
    QByteArray text("\xEF\xBB\xBFx0,x1,y\r\n");
    const auto add_row = [&](int row, const char* end) {
        text += QByteArray::number(row * 0.125) + "," + QByteArray::number(-row) + "," +
                QByteArray::number(row % 5) + end;
    };
    // Rows up to a "\r\n" straddling the first piece's end: its '\r' the piece's last byte.
    const int cut = int(csv_piece_bytes) - 1;
    int row = 0;
    while (text.size() < cut - 64)
        add_row(row++, "\n");
    text += "1,2," + QByteArray(cut - int(text.size()) - 5, '0') + "3";
    QCOMPARE(text.size(), cut);
    text += "\r\n";
    for (; text.size() < 3 * int(csv_piece_bytes); ++row)
        add_row(row, row % 3 == 0 ? "\r\n" : row % 3 == 1 ? "\n" : "\r");
    const QString path = dir.filePath("pieces.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    const Dataset whole =
        parse_csv(std::string_view(text.constData(), std::size_t(text.size())), "pieces.csv");
    const Dataset read = load_csv(path.toStdString());
    QVERIFY(whole.size() > 100'000);
    QCOMPARE(read.size(), whole.size());
    QVERIFY(read.features == whole.features);
    QVERIFY(read.targets == whole.targets);

    // Two rows, then 50 MB of newlines: two rows.
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x,y\n1,0\n2,1\n");
    const QByteArray newlines(1 << 20, '\n');
    for (int i = 0; i < 50; ++i)
        file.write(newlines);
    file.close();
    QCOMPARE(load_csv(path.toStdString()).size(), std::size_t{2});
}

// The reader stops at the first line past a limit, and says which: rows, values in all.
void TestData::csv_refuses_at_the_line_past_a_limit() {
    QTemporaryDir dir;
    const QString path = dir.filePath("many.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QByteArray rows;
    for (int i = 0; i < 1000; ++i)
        rows += "1,2,0\n";
    for (int i = 0; i < 2000; ++i) // 6 million rows of 3 columns, 36 MB
        file.write(rows);
    file.close();
    QString msg = error_message([&] { load_csv(path.toStdString()); });
    QVERIFY2(msg.contains("many.csv: more than 1000000 rows (limit)"), qPrintable(msg));
    CsvLimits limits;
    limits.max_values = 3 * 1000;
    msg = error_message([&] { load_csv(path.toStdString(), limits); });
    QVERIFY2(msg.contains("many.csv:1001: more than 3000 values in all (limit)"), qPrintable(msg));
    // The bound the reader holds to whatever the file: its values, one line, one piece.
    QCOMPARE(CsvLimits{}.memory_bound_bytes(),
             std::size_t{3} * 16'000'000 * sizeof(double) + (2u << 20));
}

void TestData::equal_shards_table_data() {
    QTest::addColumn<qulonglong>("rows");
    QTest::addColumn<int>("workers");
    QTest::addColumn<QList<qulonglong>>("begins");
    QTest::newRow("10 rows, 3 workers") << 10ull << 3 << QList<qulonglong>{0, 3, 6, 10};
    QTest::newRow("10 rows, 1 worker") << 10ull << 1 << QList<qulonglong>{0, 10};
    QTest::newRow("10 rows, 10 workers")
        << 10ull << 10 << QList<qulonglong>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    QTest::newRow("7 rows, 2 workers") << 7ull << 2 << QList<qulonglong>{0, 3, 7};
    QTest::newRow("40 rows, 4 workers") << 40ull << 4 << QList<qulonglong>{0, 10, 20, 30, 40};
    QTest::newRow("11 rows, 4 workers") << 11ull << 4 << QList<qulonglong>{0, 2, 5, 8, 11};
}

void TestData::equal_shards_table() {
    QFETCH(qulonglong, rows);
    QFETCH(int, workers);
    QFETCH(QList<qulonglong>, begins);
    const auto shards = equal_shards(rows, workers);
    QCOMPARE(shards.size(), std::size_t(workers));
    for (int k = 0; k < workers; ++k) {
        QCOMPARE(qulonglong(shards[std::size_t(k)].begin), begins[k]);
        QCOMPARE(qulonglong(shards[std::size_t(k)].end), begins[k + 1]);
    }
}

// Boundaries stay exact where k*n would overflow 64 bits.
void TestData::equal_shards_huge_rows() {
    const std::size_t rows = std::size_t{1} << 62;
    const auto shards = equal_shards(rows, 3);
    QCOMPARE(shards[0].end, std::size_t{1537228672809129301});
    QCOMPARE(shards[1].end, std::size_t{3074457345618258602});
    QCOMPARE(shards[2].end, rows);

    const auto many = equal_shards(std::numeric_limits<std::size_t>::max(), 256);
    QCOMPARE(many.back().end, std::numeric_limits<std::size_t>::max());
    QCOMPARE(many[128].begin, std::numeric_limits<std::size_t>::max() / 2);
    for (std::size_t k = 1; k < many.size(); ++k)
        QCOMPARE(many[k].begin, many[k - 1].end);
}

void TestData::equal_shards_errors_data() {
    QTest::addColumn<qulonglong>("rows");
    QTest::addColumn<int>("workers");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("no workers") << 10ull << 0 << "workers must be in 1..256, got 0";
    QTest::newRow("negative workers") << 10ull << -2 << "workers must be in 1..256, got -2";
    QTest::newRow("257 workers") << 1000ull << 257 << "workers must be in 1..256, got 257";
    QTest::newRow("fewer rows than workers") << 3ull << 4 << "cannot split 3 rows among 4 workers";
}

void TestData::equal_shards_errors() {
    QFETCH(qulonglong, rows);
    QFETCH(int, workers);
    QFETCH(QString, fragment);
    const QString msg = error_message([&] { equal_shards(rows, workers); });
    QVERIFY2(msg.contains(fragment), qPrintable(msg));
}

void TestData::sized_shards_good() {
    const std::vector<std::size_t> sizes{30, 10};
    const auto shards = sized_shards(40, sizes);
    QCOMPARE(shards.size(), std::size_t{2});
    QCOMPARE(shards[0].begin, std::size_t{0});
    QCOMPARE(shards[0].end, std::size_t{30});
    QCOMPARE(shards[1].begin, std::size_t{30});
    QCOMPARE(shards[1].end, std::size_t{40});

    const std::vector<std::size_t> partial{2, 3};
    const auto some = sized_shards(10, partial);
    QCOMPARE(some[1].begin, std::size_t{2});
    QCOMPARE(some[1].end, std::size_t{5});
}

void TestData::sized_shards_errors_data() {
    QTest::addColumn<qulonglong>("rows");
    QTest::addColumn<QList<qulonglong>>("sizes");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("zero size") << 10ull << QList<qulonglong>{3, 0, 2}
                               << "shard size of worker 1 is 0";
    QTest::newRow("sum too large") << 10ull << QList<qulonglong>{5, 5, 1}
                                   << "need more rows than the dataset has (10) by worker 2";
    QTest::newRow("single too large")
        << 10ull << QList<qulonglong>{11} << "need more rows than the dataset has (10) by worker 0";
    QTest::newRow("overflowing sum")
        << 10ull << QList<qulonglong>{5, std::numeric_limits<qulonglong>::max()}
        << "need more rows than the dataset has (10) by worker 1";
    QTest::newRow("no sizes") << 10ull << QList<qulonglong>{}
                              << "shard sizes must list 1..256 workers, got 0";
}

void TestData::sized_shards_errors() {
    QFETCH(qulonglong, rows);
    QFETCH(QList<qulonglong>, sizes);
    QFETCH(QString, fragment);
    const std::vector<std::size_t> list(sizes.begin(), sizes.end());
    const QString msg = error_message([&] { sized_shards(rows, list); });
    QVERIFY2(msg.contains(fragment), qPrintable(msg));
}

// Without shuffling, rows come in file order and wrap around the shard, across batch edges.
void TestData::cursor_wraps_in_order() {
    DataCursor cursor(Shard{10, 14}, false, Rng(1));
    const auto got = batches(cursor, 3, 3);
    const std::vector<std::vector<std::size_t>> expected{{10, 11, 12}, {13, 10, 11}, {12, 13, 10}};
    QCOMPARE(got, expected);
    const auto state = cursor.state();
    QCOMPARE(state.position, std::size_t{1});
    QCOMPARE(state.epoch, std::uint64_t{2});
    QVERIFY(state.order.empty());

    std::vector<std::size_t> rows{99, 98};
    cursor.next_batch(0, rows);
    QVERIFY(rows.empty());
    cursor.next_batch(9, rows); // longer than the shard: more than two epochs in one batch
    QCOMPARE(rows, (std::vector<std::size_t>{11, 12, 13, 10, 11, 12, 13, 10, 11}));
    QCOMPARE(cursor.state().epoch, std::uint64_t{4});
}

// Each epoch visits every row of the shard once, in an order that changes from epoch to epoch.
void TestData::cursor_shuffled_epochs() {
    const Shard shard{100, 150};
    DataCursor cursor(shard, true, Rng(9));
    std::vector<std::size_t> all;
    std::vector<std::size_t> rows;
    for (int i = 0; i < 50; ++i) { // 350 rows = 7 epochs, batches spanning epoch edges
        cursor.next_batch(7, rows);
        QCOMPARE(rows.size(), std::size_t{7});
        all.insert(all.end(), rows.begin(), rows.end());
    }
    QCOMPARE(cursor.state().epoch, std::uint64_t{7});
    QCOMPARE(cursor.state().position, std::size_t{0});

    std::vector<std::size_t> identity(50);
    for (std::size_t i = 0; i < 50; ++i)
        identity[i] = 100 + i;
    std::set<std::vector<std::size_t>> distinct;
    for (std::size_t e = 0; e < 7; ++e) {
        std::vector<std::size_t> epoch(all.begin() + std::ptrdiff_t(e * 50),
                                       all.begin() + std::ptrdiff_t((e + 1) * 50));
        QVERIFY(epoch != identity);
        distinct.insert(epoch);
        std::sort(epoch.begin(), epoch.end());
        QCOMPARE(epoch, identity);
    }
    QCOMPARE(distinct.size(), std::size_t{7});
}

void TestData::cursor_same_seed_same_batches() {
    DataCursor a(Shard{0, 64}, true, Rng(5));
    DataCursor b(Shard{0, 64}, true, Rng(5));
    DataCursor c(Shard{0, 64}, true, Rng(6));
    const auto from_a = batches(a, 10, 16);
    QCOMPARE(batches(b, 10, 16), from_a);
    QVERIFY(batches(c, 10, 16) != from_a);
}

void TestData::cursor_state_round_trip_data() {
    QTest::addColumn<bool>("shuffle");
    QTest::addColumn<int>("batches_before");
    QTest::addColumn<qulonglong>("batch");
    QTest::newRow("in order, mid epoch") << false << 3 << 7ull;
    QTest::newRow("in order, at epoch edge") << false << 3 << 10ull;
    QTest::newRow("shuffled, fresh") << true << 0 << 7ull;
    QTest::newRow("shuffled, mid epoch") << true << 5 << 7ull;
    QTest::newRow("shuffled, at epoch edge") << true << 3 << 10ull;
    QTest::newRow("shuffled, several epochs") << true << 11 << 13ull;
}

// A cursor restored from a saved state deals exactly the batches the original would have.
void TestData::cursor_state_round_trip() {
    QFETCH(bool, shuffle);
    QFETCH(int, batches_before);
    QFETCH(qulonglong, batch);
    const Shard shard{20, 50};
    DataCursor original(shard, shuffle, Rng(11));
    batches(original, batches_before, batch);
    const DataCursor::State saved = original.state();

    DataCursor restored(shard, shuffle, Rng(12345));
    restored.set_state(saved);
    QCOMPARE(restored.state().position, saved.position);
    QCOMPARE(restored.state().epoch, saved.epoch);
    QCOMPARE(restored.state().order, saved.order);
    QCOMPARE(restored.state().rng, saved.rng);
    QCOMPARE(batches(restored, 20, batch), batches(original, 20, batch));
}

void TestData::cursor_bad_state() {
    DataCursor cursor(Shard{0, 4}, true, Rng(1));
    DataCursor::State state = cursor.state();
    state.position = 4;
    QString msg = error_message([&] { cursor.set_state(state); });
    QVERIFY2(msg.contains("position 4 is outside the shard of 4 rows"), qPrintable(msg));

    state = cursor.state();
    state.order = {0, 1, 1, 3};
    msg = error_message([&] { cursor.set_state(state); });
    QVERIFY2(msg.contains("not a permutation"), qPrintable(msg));

    state.order = {0, 1, 2};
    msg = error_message([&] { cursor.set_state(state); });
    QVERIFY2(msg.contains("order has 3 entries, the shard has 4 rows"), qPrintable(msg));

    msg = error_message([] { DataCursor empty(Shard{5, 5}, false, Rng(1)); });
    QVERIFY2(msg.contains("at least one row"), qPrintable(msg));
}

void TestData::gather_rows_copies() {
    Dataset d;
    d.dim = 3;
    d.features = {0, 1, 2, 10, 11, 12, 20, 21, 22};
    d.targets = {0, 1, 2};
    std::vector<double> features{-1};
    std::vector<double> targets(17, -1.0);
    const std::vector<std::size_t> rows{2, 0, 2};
    gather_rows(d, rows, features, targets);
    QCOMPARE(features, (std::vector<double>{20, 21, 22, 0, 1, 2, 20, 21, 22}));
    QCOMPARE(targets, (std::vector<double>{2, 0, 2}));

    const std::vector<std::size_t> bad{1, 3};
    const QString msg = error_message([&] { gather_rows(d, bad, features, targets); });
    QVERIFY2(msg.contains("row 3 is outside the dataset of 3 rows"), qPrintable(msg));
}

QTEST_APPLESS_MAIN(TestData)
#include "test_data.moc"
