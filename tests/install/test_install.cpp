// An install as a machine gets it: `cmake --install` into a scratch prefix, which is then moved
// (so nothing can be found through the build's paths), and the installed programs run with a
// bare environment: no $LOCKSTEP_RESOURCES, no display, a home of their own.

#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kId = QStringLiteral(LOCKSTEP_APP_ID);

struct Ran {
    int code = -1;
    QString out;
    QString err;
};

class InstallTest : public QObject {
    Q_OBJECT

    QTemporaryDir scratch_;
    QString prefix_; // where the install ends up, after the move
    QString home_;

    QProcessEnvironment bare() const {
        QProcessEnvironment env;
        env.insert(QStringLiteral("PATH"), qEnvironmentVariable("PATH"));
        env.insert(QStringLiteral("HOME"), home_);
        env.insert(QStringLiteral("XDG_DATA_HOME"), home_ + QStringLiteral("/.local/share"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home_ + QStringLiteral("/.config"));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home_ + QStringLiteral("/run"));
        env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        return env;
    }

    Ran run(const QString& program, const QStringList& args,
            const QProcessEnvironment& env = {}) const {
        QProcess p;
        p.setProcessEnvironment(env.isEmpty() ? bare() : env);
        p.setWorkingDirectory(scratch_.path());
        p.start(program, args);
        if (!p.waitForFinished(300000)) {
            p.kill();
            p.waitForFinished();
            return {-1, {}, QStringLiteral("timed out")};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    Ran cli(const QStringList& args, const QProcessEnvironment& env = {}) const {
        return run(prefix_ + QStringLiteral("/bin/lockstep-cli"), args, env);
    }

    QString installed(const QString& relative) const {
        return prefix_ + QLatin1Char('/') + relative;
    }

    static void writeFile(const QString& path, const QByteArray& bytes) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
        f.write(bytes);
    }

    // A lesson of the user's own, on a shipped scenario named by its file name.
    static void writeOwnLesson(const QString& folder, const QString& id) {
        writeFile(folder + QLatin1Char('/') + id + QStringLiteral("/lesson.json"),
                  QStringLiteral("{\"id\": \"%1\", \"title\": \"Our slow worker\", "
                                 "\"summary\": \"The class's own look at a straggler.\", "
                                 "\"syllabus\": [4], \"scenario\": \"straggler.json\", "
                                 "\"views\": [\"timeline\"], \"exercises\": [{\"bank\": "
                                 "\"reductions\", \"question\": \"mean-two-workers\"}]}")
                      .arg(id)
                      .toUtf8());
        writeFile(folder + QLatin1Char('/') + id + QStringLiteral("/page.md"),
                  "# Our slow worker\n\n[Play the run](lockstep:play)\n");
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(scratch_.isValid());
        home_ = scratch_.filePath(QStringLiteral("home"));
        QVERIFY(QDir().mkpath(home_ + QStringLiteral("/run")));
        QFile::setPermissions(home_ + QStringLiteral("/run"), QFileDevice::ReadOwner |
                                                                  QFileDevice::WriteOwner |
                                                                  QFileDevice::ExeOwner);
        const QString first = scratch_.filePath(QStringLiteral("first"));
        QProcess install;
        install.setProcessChannelMode(QProcess::MergedChannels);
        install.start(QStringLiteral(LOCKSTEP_CMAKE),
                      {QStringLiteral("--install"), QStringLiteral(LOCKSTEP_BUILD_DIR),
                       QStringLiteral("--prefix"), first});
        QVERIFY(install.waitForFinished(300000));
        QVERIFY2(install.exitCode() == 0, install.readAll().constData());
        // Moved: the programs must find everything from where they now are.
        prefix_ = scratch_.filePath(QStringLiteral("moved"));
        QVERIFY(QDir().rename(first, prefix_));
    }

    void every_file_is_installed() {
        const QString resources = QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/");
        QStringList expected{
            QStringLiteral("bin/lockstep"),
            QStringLiteral("bin/lockstep-cli"),
            QStringLiteral("share/applications/%1.desktop").arg(kId),
            QStringLiteral("share/metainfo/%1.metainfo.xml").arg(kId),
            QStringLiteral("share/icons/hicolor/scalable/apps/%1.svg").arg(kId),
            QStringLiteral("share/man/man1/lockstep.1.gz"),
            QStringLiteral("share/man/man1/lockstep-cli.1.gz"),
            QStringLiteral("share/doc/lockstep/copyright"),
            QStringLiteral("share/doc/lockstep/changelog.gz"),
            QStringLiteral("share/lockstep/lessons/index.json"),
        };
        // The whole shipped library: every lesson's files, every scenario and quiz bank.
        for (const QString& folder :
             {QStringLiteral("lessons"), QStringLiteral("scenarios"), QStringLiteral("quizzes")}) {
            QDirIterator it(resources + folder, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext())
                expected << QStringLiteral("share/lockstep/") + it.next().mid(resources.size());
        }
        QVERIFY(expected.size() > 40);
        for (const QString& f : expected)
            QVERIFY2(QFileInfo(installed(f)).isFile(), qPrintable(f + " is not installed"));
        for (const QString& program :
             {QStringLiteral("bin/lockstep"), QStringLiteral("bin/lockstep-cli")})
            QVERIFY(QFileInfo(installed(program)).isExecutable());
        // Only the two programs: no test, benchmark or build tool.
        QCOMPARE(QDir(installed(QStringLiteral("bin"))).entryList(QDir::Files),
                 (QStringList{QStringLiteral("lockstep"), QStringLiteral("lockstep-cli")}));
        for (int size : {48, 128, 256}) {
            const QString png = installed(
                QStringLiteral("share/icons/hicolor/%1x%1/apps/%2.png").arg(size).arg(kId));
            const QImage image(png);
            QVERIFY2(!image.isNull(), qPrintable(png));
            QCOMPARE(image.size(), QSize(size, size));
            // Drawn, not blank: the middle of the icon is opaque.
            QCOMPARE(qAlpha(image.pixel(size / 2, size / 2)), 255);
        }
        for (const QString& gz : {QStringLiteral("share/man/man1/lockstep.1.gz"),
                                  QStringLiteral("share/man/man1/lockstep-cli.1.gz"),
                                  QStringLiteral("share/doc/lockstep/changelog.gz")}) {
            QFile f(installed(gz));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.read(2), QByteArray("\x1f\x8b")); // gzip
        }
    }

    void installed_programs_hold_no_path_of_the_build() {
        for (const QString& program :
             {QStringLiteral("bin/lockstep"), QStringLiteral("bin/lockstep-cli")}) {
            QFile f(installed(program));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            QVERIFY2(!bytes.contains(QByteArray(LOCKSTEP_SOURCE_DIR "/resources")),
                     qPrintable(program + " names the source tree's resources"));
        }
    }

    void installed_cli_finds_its_resources_from_its_prefix() {
        const QString data =
            QFileInfo(installed(QStringLiteral("share/lockstep"))).canonicalFilePath();
        const Ran version = cli({QStringLiteral("--version")});
        QCOMPARE(version.code, 0);
        QVERIFY2(version.out.startsWith(QStringLiteral("lockstep-cli " LOCKSTEP_VERSION "\n")),
                 qPrintable(version.out));
        QVERIFY2(version.out.contains(
                     QStringLiteral("resources: %1 (found from the program's folder)").arg(data)),
                 qPrintable(version.out));
        QVERIFY2(version.out.contains(QStringLiteral("your own lessons: ~/.local/share/Lockstep/"
                                                     "lessons (none yet)")),
                 qPrintable(version.out));

        // The worked example of the course: 16 s, speedup 2.5.
        const Ran worked =
            cli({QStringLiteral("run"),
                 installed(QStringLiteral("share/lockstep/scenarios/worked-example.json"))});
        QCOMPARE(worked.code, 0);
        QVERIFY2(worked.out.contains(QRegularExpression(QStringLiteral("total time +16 s"))),
                 qPrintable(worked.out));
        QVERIFY2(worked.out.contains(QRegularExpression(QStringLiteral("speedup +2\\.500"))),
                 qPrintable(worked.out));

        const Ran check = cli({QStringLiteral("lessons"), QStringLiteral("check")});
        QVERIFY2(check.code == 0, qPrintable(check.err));
        QVERIFY2(check.out.startsWith(QStringLiteral("ok: 17 lessons, ")), qPrintable(check.out));
        QVERIFY2(check.out.contains(data), qPrintable(check.out));
    }

    void the_environment_still_wins() {
        // A copy of the library elsewhere, named by $LOCKSTEP_RESOURCES, with one lesson fewer.
        const QString copy = scratch_.filePath(QStringLiteral("copy"));
        QProcess cp;
        cp.start(QStringLiteral("cp"),
                 {QStringLiteral("-a"), installed(QStringLiteral("share/lockstep")), copy});
        QVERIFY(cp.waitForFinished());
        QCOMPARE(cp.exitCode(), 0);
        QFile index(copy + QStringLiteral("/lessons/index.json"));
        QVERIFY(index.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(index.readAll()).object();
        index.close();
        QJsonArray ids = o.value(QStringLiteral("lessons")).toArray();
        ids.removeLast();
        o.insert(QStringLiteral("lessons"), ids);
        writeFile(copy + QStringLiteral("/lessons/index.json"), QJsonDocument(o).toJson());

        QProcessEnvironment env = bare();
        env.insert(QStringLiteral("LOCKSTEP_RESOURCES"), copy);
        const Ran version = cli({QStringLiteral("--version")}, env);
        QVERIFY2(
            version.out.contains(QStringLiteral("resources: %1 ($LOCKSTEP_RESOURCES)").arg(copy)),
            qPrintable(version.out));
        const Ran list = cli({QStringLiteral("lessons"), QStringLiteral("list")}, env);
        QCOMPARE(list.code, 0);
        QVERIFY(list.out.contains(QStringLiteral("\n16. ")));
        QVERIFY(!list.out.contains(QStringLiteral("\n17. ")));

        // A folder that holds no library: said so, naming it.
        env.insert(QStringLiteral("LOCKSTEP_RESOURCES"),
                   scratch_.filePath(QStringLiteral("nowhere")));
        const Ran missing = cli({QStringLiteral("lessons"), QStringLiteral("list")}, env);
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("nowhere/lessons/index.json")),
                 qPrintable(missing.err));
    }

    void own_lessons_are_added_beside_the_shipped_ones() {
        const QString own = home_ + QStringLiteral("/.local/share/Lockstep/lessons");
        writeOwnLesson(own, QStringLiteral("our-slow-worker"));
        // One that cannot load (its id is not its folder's name) is named; the rest still load.
        writeFile(own + QStringLiteral("/broken/lesson.json"), "{\"id\": \"other\"}");
        writeFile(own + QStringLiteral("/broken/page.md"), "# Broken\n");

        const Ran list = cli({QStringLiteral("lessons"), QStringLiteral("list")});
        QCOMPARE(list.code, 0);
        QVERIFY2(list.out.contains(QStringLiteral("\n17. ")), qPrintable(list.out));
        QVERIFY2(list.out.contains(QStringLiteral("your own lessons, from %1:\n18. Our slow worker "
                                                  "(our-slow-worker)")
                                       .arg(own)),
                 qPrintable(list.out));
        QVERIFY2(list.err.contains(QStringLiteral("broken/lesson.json")), qPrintable(list.err));
        QVERIFY(list.err.contains(QStringLiteral("must match the folder name")));
        QFile::remove(own + QStringLiteral("/broken/lesson.json"));

        const Ran check = cli({QStringLiteral("lessons"), QStringLiteral("check")});
        QVERIFY2(check.code == 0, qPrintable(check.err));
        QVERIFY2(check.out.contains(QStringLiteral("ok: 1 of your own lesson(s) in %1").arg(own)),
                 qPrintable(check.out));
        const Ran version = cli({QStringLiteral("--version")});
        QVERIFY2(version.out.contains(
                     QStringLiteral("your own lessons: ~/.local/share/Lockstep/lessons\n")),
                 qPrintable(version.out));

        // A folder named in the settings instead, as the lab's File menu keeps it.
        const QString chosen = scratch_.filePath(QStringLiteral("class-lessons"));
        writeOwnLesson(chosen, QStringLiteral("week-three"));
        writeFile(home_ + QStringLiteral("/.config/Lockstep/Lockstep/settings.ini"),
                  (QStringLiteral("[lessons]\nfolder=") + chosen + QLatin1Char('\n')).toUtf8());
        const Ran chosen_list = cli({QStringLiteral("lessons"), QStringLiteral("list")});
        QVERIFY2(chosen_list.out.contains(QStringLiteral("18. Our slow worker (week-three)")),
                 qPrintable(chosen_list.out));
        QVERIFY(!chosen_list.out.contains(QStringLiteral("our-slow-worker")));
        QFile::remove(home_ + QStringLiteral("/.config/Lockstep/Lockstep/settings.ini"));

        // A lesson of their own cannot take a shipped lesson's place.
        writeOwnLesson(own, QStringLiteral("reductions"));
        const Ran clash = cli({QStringLiteral("lessons"), QStringLiteral("list")});
        QVERIFY2(
            clash.err.contains(QStringLiteral("a lesson 'reductions' is already in the library")),
            qPrintable(clash.err));
        QCOMPARE(clash.out.count(QStringLiteral("(reductions)")), 1);
        QDir(own + QStringLiteral("/reductions")).removeRecursively();
    }

    void installed_gui_renders_a_lesson_offscreen() {
        const QString png = scratch_.filePath(QStringLiteral("reductions.png"));
        const Ran shot = run(installed(QStringLiteral("bin/lockstep")),
                             {QStringLiteral("--lesson"), QStringLiteral("reductions"),
                              QStringLiteral("--screenshot"), png});
        QVERIFY2(shot.code == 0, qPrintable(shot.err));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1600, 1000));
        const Ran version =
            run(installed(QStringLiteral("bin/lockstep")), {QStringLiteral("--version")});
        QCOMPARE(version.code, 0);
        QVERIFY2(
            version.out.startsWith(QStringLiteral("Lockstep " LOCKSTEP_VERSION "\nresources: ")),
            qPrintable(version.out));
        QVERIFY(version.out.contains(QStringLiteral("(found from the program's folder)")));
        const Ran help = run(installed(QStringLiteral("bin/lockstep")), {QStringLiteral("--help")});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains(QStringLiteral("--lesson <ID>")));
    }

    void every_command_answers_help() {
        const QList<QStringList> commands{{QStringLiteral("run")},
                                          {QStringLiteral("sweep")},
                                          {QStringLiteral("reduce")},
                                          {QStringLiteral("resume")},
                                          {QStringLiteral("checkpoints")},
                                          {QStringLiteral("compare")},
                                          {QStringLiteral("moves")},
                                          {QStringLiteral("validate")},
                                          {QStringLiteral("bench")},
                                          {QStringLiteral("bench"), QStringLiteral("allreduce")},
                                          {QStringLiteral("bench"), QStringLiteral("train")},
                                          {QStringLiteral("lessons")},
                                          {QStringLiteral("lessons"), QStringLiteral("check")},
                                          {QStringLiteral("quiz")},
                                          {QStringLiteral("quiz"), QStringLiteral("worksheet")}};
        for (const QStringList& words : commands) {
            for (const QString& flag : {QStringLiteral("--help"), QStringLiteral("-h")}) {
                const Ran r = cli(words + QStringList{flag});
                const QString what = words.join(QLatin1Char(' ')) + QLatin1Char(' ') + flag;
                QVERIFY2(r.code == 0, qPrintable(what + ": " + r.err));
                QVERIFY2(r.out.startsWith(QStringLiteral("usage: lockstep-cli ") + words.first()),
                         qPrintable(what + ": " + r.out));
                QVERIFY2(r.err.isEmpty(), qPrintable(what + ": " + r.err));
            }
        }
        // Help comes before the flags are read: even after a flag it does not know.
        const Ran resume =
            cli({QStringLiteral("resume"), QStringLiteral("--nonsense"), QStringLiteral("--help")});
        QCOMPARE(resume.code, 0);
        QVERIFY(resume.out.contains(QStringLiteral("newest complete checkpoint")));
        const Ran unknown = cli({QStringLiteral("fly"), QStringLiteral("--help")});
        QCOMPARE(unknown.code, 1);
        QVERIFY(unknown.err.contains(QStringLiteral("unknown command 'fly'")));
    }

    void man_pages_cover_every_command() {
        QFile page(QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/man/lockstep-cli.1"));
        QVERIFY(page.open(QIODevice::ReadOnly));
        const QString roff = QString::fromUtf8(page.readAll());
        QVERIFY(roff.contains(QStringLiteral(".TH LOCKSTEP\\-CLI 1 ")));
        QVERIFY2(roff.contains(QStringLiteral(LOCKSTEP_VERSION)),
                 "lockstep-cli.1 names another version");
        // Every command the overview lists, under its name.
        const Ran help = cli({QStringLiteral("--help")});
        static const QRegularExpression command(
            QStringLiteral("^  (?:mpirun -np N lockstep-cli )?([a-z]+)"),
            QRegularExpression::MultilineOption);
        QStringList names;
        for (auto it = command.globalMatch(help.out); it.hasNext();)
            names << it.next().captured(1);
        names.removeDuplicates();
        QVERIFY2(names.size() >= 11, qPrintable(names.join(QLatin1Char(' '))));
        for (const QString& name : names)
            QVERIFY2(roff.contains(QStringLiteral(".SS \"") + name + QLatin1Char(' ')) ||
                         roff.contains(QStringLiteral(".SS \"") + name + QLatin1Char('"')),
                     qPrintable(name + " is not in lockstep-cli.1"));
        // Every option of the lab window.
        QFile gui(QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/man/lockstep.1"));
        QVERIFY(gui.open(QIODevice::ReadOnly));
        const QString gui_roff = QString::fromUtf8(gui.readAll());
        const Ran gui_help =
            run(installed(QStringLiteral("bin/lockstep")), {QStringLiteral("--help")});
        static const QRegularExpression option(QStringLiteral("--([a-z-]+)"));
        for (auto it = option.globalMatch(gui_help.out); it.hasNext();) {
            QString name = it.next().captured(1);
            const QString escaped = QStringLiteral("\\-\\-") +
                                    QString(name).replace(QLatin1Char('-'), QStringLiteral("\\-"));
            QVERIFY2(gui_roff.contains(escaped), qPrintable("--" + name + " is not in lockstep.1"));
        }
    }

    void desktop_entry_and_metainfo_validate() {
        const Ran desktop =
            run(QStringLiteral("desktop-file-validate"),
                {installed(QStringLiteral("share/applications/%1.desktop").arg(kId))});
        QVERIFY2(desktop.code == 0,
                 qPrintable(QStringLiteral("desktop-file-validate (desktop-file-utils): ") +
                            desktop.out + desktop.err));
        QVERIFY2(desktop.out.trimmed().isEmpty(), qPrintable(desktop.out));
        const Ran appstream =
            run(QStringLiteral("appstreamcli"),
                {QStringLiteral("validate"), QStringLiteral("--no-net"),
                 installed(QStringLiteral("share/metainfo/%1.metainfo.xml").arg(kId))});
        QVERIFY2(appstream.code == 0,
                 qPrintable(QStringLiteral("appstreamcli validate (appstream): ") + appstream.out +
                            appstream.err));
        // The metainfo's newest release is this version, and it launches the installed entry.
        QFile xml(installed(QStringLiteral("share/metainfo/%1.metainfo.xml").arg(kId)));
        QVERIFY(xml.open(QIODevice::ReadOnly));
        const QString meta = QString::fromUtf8(xml.readAll());
        QVERIFY(meta.contains(QStringLiteral("<release version=\"" LOCKSTEP_VERSION "\"")));
        QVERIFY(meta.contains(QStringLiteral(">%1.desktop</launchable>").arg(kId)));
        QFile entry(installed(QStringLiteral("share/applications/%1.desktop").arg(kId)));
        QVERIFY(entry.open(QIODevice::ReadOnly));
        const QString desktop_text = QString::fromUtf8(entry.readAll());
        QVERIFY(desktop_text.contains(QStringLiteral("\nExec=lockstep")));
        QVERIFY(desktop_text.contains(QStringLiteral("\nIcon=%1\n").arg(kId)));
    }
};

} // namespace

QTEST_GUILESS_MAIN(InstallTest)
#include "test_install.moc"
