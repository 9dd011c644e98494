// The Debian package: CPack builds it from the install rules into a scratch folder, then its
// name, its control fields, its contents and lintian's verdict are checked.

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Ran {
    int code = -1;
    QString out;
};

Ran run(const QString& program, const QStringList& args, const QString& cwd = {}) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    if (!cwd.isEmpty())
        p.setWorkingDirectory(cwd);
    p.start(program, args);
    if (!p.waitForStarted(30000))
        return {-1, program +
                        QStringLiteral(": cannot start it (scripts/install-deps.sh installs it)")};
    if (!p.waitForFinished(600000)) {
        p.kill();
        p.waitForFinished();
        return {-1, program + QStringLiteral(": timed out")};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAll())};
}

class PackageTest : public QObject {
    Q_OBJECT

    QTemporaryDir scratch_;
    QString deb_;

    QString field(const QString& name) const {
        return run(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), deb_, name}).out.trimmed();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(scratch_.isValid());
        const Ran cpack =
            run(QStringLiteral(LOCKSTEP_CPACK),
                {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("--config"),
                 QStringLiteral(LOCKSTEP_BUILD_DIR "/CPackConfig.cmake"), QStringLiteral("-B"),
                 scratch_.path()},
                scratch_.path());
        QVERIFY2(cpack.code == 0, qPrintable(cpack.out));
        deb_ = scratch_.filePath(QStringLiteral("lockstep_" LOCKSTEP_VERSION "_amd64.deb"));
        QVERIFY2(QFileInfo(deb_).isFile(),
                 qPrintable(QDir(scratch_.path()).entryList(QDir::Files).join(QLatin1Char(' '))));
    }

    void control_fields() {
        QCOMPARE(field(QStringLiteral("Package")), QStringLiteral("lockstep"));
        QCOMPARE(field(QStringLiteral("Version")), QStringLiteral(LOCKSTEP_VERSION));
        QCOMPARE(field(QStringLiteral("Architecture")), QStringLiteral("amd64"));
        QCOMPARE(field(QStringLiteral("Section")), QStringLiteral("education"));
        QVERIFY(field(QStringLiteral("Maintainer")).contains(QLatin1Char('@')));
        QVERIFY(field(QStringLiteral("Homepage")).startsWith(QStringLiteral("https://")));
        QVERIFY(field(QStringLiteral("Description")).contains(QStringLiteral("\n .\n")));
        // From dpkg-shlibdeps: the libraries the programs link, and no development package.
        const QString depends = field(QStringLiteral("Depends"));
        for (const QString& lib :
             {QStringLiteral("libqt6widgets6"), QStringLiteral("libqt6charts6"),
              QStringLiteral("libqt6svg6"), QStringLiteral("libtbb12"), QStringLiteral("libc6")})
            QVERIFY2(depends.contains(lib), qPrintable(depends));
        QVERIFY2(!depends.contains(QStringLiteral("-dev")), qPrintable(depends));
        QVERIFY2(depends.contains(QRegularExpression(QStringLiteral("libc6 \\(>= [0-9.]+\\)"))),
                 qPrintable(depends));
    }

    void contents() {
        const Ran list = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-c"), deb_});
        QCOMPARE(list.code, 0);
        for (const QString& path :
             {QStringLiteral("./usr/bin/lockstep"), QStringLiteral("./usr/bin/lockstep-cli"),
              QStringLiteral("./usr/share/lockstep/lessons/index.json"),
              QStringLiteral("./usr/share/lockstep/scenarios/worked-example.json"),
              QStringLiteral("./usr/share/lockstep/quizzes/reductions.json"),
              QStringLiteral("./usr/share/applications/" LOCKSTEP_APP_ID ".desktop"),
              QStringLiteral("./usr/share/metainfo/" LOCKSTEP_APP_ID ".metainfo.xml"),
              QStringLiteral("./usr/share/icons/hicolor/48x48/apps/" LOCKSTEP_APP_ID ".png"),
              QStringLiteral("./usr/share/man/man1/lockstep-cli.1.gz"),
              QStringLiteral("./usr/share/doc/lockstep/copyright")})
            QVERIFY2(list.out.contains(QLatin1Char(' ') + path + QLatin1Char('\n')),
                     qPrintable(path + " is not in the package"));
        // Owned by root, as dpkg will install them.
        QVERIFY(!list.out.contains(QRegularExpression(QStringLiteral("^\\S+ (?!root/root)"),
                                                      QRegularExpression::MultilineOption)));
    }

    void lintian_finds_no_error() {
        const Ran lintian = run(QStringLiteral("lintian"),
                                {QStringLiteral("--tag-display-limit"), QStringLiteral("0"), deb_});
        QVERIFY2(lintian.code >= 0, qPrintable(lintian.out));
        static const QRegularExpression error(QStringLiteral("^E: "),
                                              QRegularExpression::MultilineOption);
        QVERIFY2(!lintian.out.contains(error), qPrintable(lintian.out));
        if (!lintian.out.trimmed().isEmpty())
            qInfo("lintian: %s", qPrintable(lintian.out.trimmed()));
    }
};

} // namespace

QTEST_GUILESS_MAIN(PackageTest)
#include "test_package.moc"
