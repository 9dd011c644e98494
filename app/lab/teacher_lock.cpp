#include "teacher_lock.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSettings>
#include <QStringList>

namespace lockstep::app {

namespace {

const QString kKey = QStringLiteral("teacher/pin");
const QString kScheme = QStringLiteral("sha256x20000");
constexpr int kRounds = 20000;

QByteArray stretched(const QByteArray& salt, const QString& pin) {
    QByteArray h = salt + pin.toUtf8();
    for (int i = 0; i < kRounds; ++i)
        h = QCryptographicHash::hash(salt + h, QCryptographicHash::Sha256);
    return h;
}

} // namespace

TeacherLock::TeacherLock(QSettings& settings)
    : settings_(settings) {}

bool TeacherLock::hasPin() const {
    return settings_.value(kKey).toString().startsWith(kScheme + QLatin1Char('$'));
}

bool TeacherLock::acceptable(const QString& pin) {
    static const QRegularExpression digits(QStringLiteral("^[0-9]{4,12}$"));
    return digits.match(pin).hasMatch();
}

bool TeacherLock::setPin(const QString& pin) {
    if (!acceptable(pin))
        return false;
    QByteArray salt(16, '\0');
    for (char& c : salt)
        c = static_cast<char>(QRandomGenerator::system()->bounded(256));
    settings_.setValue(kKey, QStringList{kScheme, QString::fromLatin1(salt.toHex()),
                                         QString::fromLatin1(stretched(salt, pin).toHex())}
                                 .join(QLatin1Char('$')));
    settings_.sync();
    return true;
}

bool TeacherLock::check(const QString& pin) const {
    const QStringList parts = settings_.value(kKey).toString().split(QLatin1Char('$'));
    if (parts.size() != 3 || parts[0] != kScheme || !acceptable(pin))
        return false;
    const QByteArray salt = QByteArray::fromHex(parts[1].toLatin1());
    const QByteArray expected = QByteArray::fromHex(parts[2].toLatin1());
    const QByteArray got = stretched(salt, pin);
    // The same time whatever the first wrong byte.
    if (got.size() != expected.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < got.size(); ++i)
        diff |= static_cast<unsigned char>(got[i] ^ expected[i]);
    return diff == 0;
}

} // namespace lockstep::app
