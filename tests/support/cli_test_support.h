#pragma once

// Running the real lockstep-cli from a test (LOCKSTEP_CLI_PATH is set by tests/CMakeLists.txt).

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace lockstep::testing {

constexpr int kCliTimeoutMs = 120'000;

struct CliResult {
    bool finished = false; // exited normally within the timeout
    int exit_code = -1;
    QByteArray out;
    QByteArray err;
};

// Runs `program` with `args` (in `env`, when given) to its end or the timeout.
inline CliResult run_program(const QString& program, const QStringList& args,
                             const QProcessEnvironment& env = QProcessEnvironment()) {
    QProcess process;
    if (!env.isEmpty())
        process.setProcessEnvironment(env);
    process.start(program, args);
    CliResult r;
    if (!process.waitForStarted(kCliTimeoutMs) || !process.waitForFinished(kCliTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        return r;
    }
    r.finished = process.exitStatus() == QProcess::NormalExit;
    r.exit_code = process.exitCode();
    r.out = process.readAllStandardOutput();
    r.err = process.readAllStandardError();
    return r;
}

inline CliResult run_cli(const QStringList& args) {
    return run_program(QStringLiteral(LOCKSTEP_CLI_PATH), args);
}

// One line for a failure message: the command and what it printed.
inline QString describe(const QStringList& args, const CliResult& r) {
    return QStringLiteral("lockstep-cli %1 -> exit %2\nstdout: %3\nstderr: %4")
        .arg(args.join(' '))
        .arg(r.exit_code)
        .arg(QString::fromUtf8(r.out.left(2000)), QString::fromUtf8(r.err.left(2000)));
}

} // namespace lockstep::testing
