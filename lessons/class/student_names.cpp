#include "lockstep_class/student_names.h"

#include "lockstep_lessons/language.h"

#include <unicode/uspoof.h>

#include <memory>

namespace lockstep::classroom {

namespace {

// Characters that show nothing or change how the rest shows: format characters (zero-width
// space and joiners, direction marks and overrides, the soft hyphen), the Hangul and braille
// fillers that render as blanks, and variation selectors.
bool invisible(char32_t c) {
    if (QChar::category(c) == QChar::Other_Format)
        return true;
    return c == 0x115F || c == 0x1160 || c == 0x3164 || c == 0xFFA0 || c == 0x2800 ||
           (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xE0100 && c <= 0xE01EF) || c == 0x034F;
}

// Unicode's confusable skeleton (UTS #39) of `text`: "Аna" (Cyrillic А) and "Ana" share one.
QString skeleton(const QString& text) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<USpoofChecker, decltype(&uspoof_close)> checker(uspoof_open(&status),
                                                                    &uspoof_close);
    if (U_FAILURE(status))
        return text;
    std::u16string out(std::size_t(text.size()) * 4 + 16, u'\0');
    const int32_t n = uspoof_getSkeleton(
        checker.get(), 0, reinterpret_cast<const UChar*>(text.utf16()), int32_t(text.size()),
        reinterpret_cast<UChar*>(out.data()), int32_t(out.size()), &status);
    if (U_FAILURE(status) || n < 0)
        return text;
    return QString::fromUtf16(out.data(), n);
}

} // namespace

std::optional<QString> read_student_name(const QString& typed, int max_chars, StudentName& out) {
    const QString tidy = typed.normalized(QString::NormalizationForm_KC).simplified();
    if (tidy.isEmpty())
        return lessons::Text::tr("Type your name to join.");
    if (tidy.size() > max_chars)
        return lessons::Text::tr("That name is too long: at most %1 characters.").arg(max_chars);
    for (char32_t c : tidy.toUcs4()) {
        if (QChar::category(c) == QChar::Other_Control)
            return lessons::Text::tr("A name cannot hold control characters.");
        if (invisible(c))
            return lessons::Text::tr("A name cannot hold invisible characters; type it with "
                                     "letters, digits and spaces.");
    }
    out.shown = tidy;
    // "Ben #2" is Ben: the projector adds the number itself to a second Ben.
    QString bare = tidy;
    const qsizetype hash = bare.lastIndexOf(QLatin1Char('#'));
    if (hash > 0) {
        bool number = false;
        bare.mid(hash + 1).trimmed().toInt(&number);
        if (number)
            bare = bare.left(hash).trimmed();
    }
    out.key = skeleton(skeleton(bare).toCaseFolded());
    return std::nullopt;
}

} // namespace lockstep::classroom
