#pragma once

// Small helpers the Qt Test suites share.

#include "core/error.h"

#include <QCoreApplication>
#include <QDir>
#include <QString>
#include <QTemporaryDir>

namespace lockstep::testing {

#ifdef LOCKSTEP_SOURCE_DIR
// The shipped resources (lessons, quiz banks, scenarios), where they are in the source tree.
inline QString resources() {
    return QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources");
}
#endif

// Screenshots and other files for a person to look at go to $LOCKSTEP_SCREENSHOT_DIR when it is
// set, else to a temporary directory that is removed afterwards.
inline QString screenshot_path(const QString& name) {
    static QTemporaryDir temporary;
    const QString dir = qEnvironmentVariableIsSet("LOCKSTEP_SCREENSHOT_DIR")
                            ? qEnvironmentVariable("LOCKSTEP_SCREENSHOT_DIR")
                            : temporary.path();
    QDir().mkpath(dir);
    return QDir(dir).filePath(name);
}

// The message of the lockstep::Error that `action` throws, or a marker when it throws none.
template <typename Action> QString error_message(Action&& action) {
    try {
        action();
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("<no error thrown>");
}

} // namespace lockstep::testing

// Fails the current Qt test, showing both texts, unless `message` contains `fragment`.
#define LOCKSTEP_VERIFY_CONTAINS(message, fragment)                                                \
    QVERIFY2((message).contains(fragment),                                                         \
             qPrintable(QStringLiteral("expected \"%1\" in \"%2\"").arg(fragment, message)))
