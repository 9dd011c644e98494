#pragma once

// Small helpers the Qt Test suites share.

#include "core/error.h"

#include <QString>

namespace lockstep::testing {

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
