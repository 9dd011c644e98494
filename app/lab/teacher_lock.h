#pragma once

#include <QString>

class QSettings;

namespace lockstep::app {

// The teacher's PIN, kept in the settings only as a salted, many-times-repeated SHA-256 hash
// ("teacher/pin": sha256x20000$SALT$HASH), never in clear. Teacher mode is entered with it.
class TeacherLock {
public:
    explicit TeacherLock(QSettings& settings);

    bool hasPin() const;
    // 4 to 12 digits. Returns false (and leaves the old PIN) for anything else.
    bool setPin(const QString& pin);
    bool check(const QString& pin) const;
    static bool acceptable(const QString& pin);

private:
    QSettings& settings_;
};

} // namespace lockstep::app
