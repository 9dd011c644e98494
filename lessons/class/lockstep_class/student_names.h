#pragma once

#include <QString>

#include <optional>

// The names students type to join a class quiz: tidied so that no two look alike on the
// projector, and no name hides characters (docs/CLASS.md, "Names").
namespace lockstep::classroom {

struct StudentName {
    QString shown; // NFKC, spaces simplified, as typed otherwise: what the projector shows
    QString key;   // what two names that look alike share: case folded, confusable letters folded
                   // to one (Unicode's skeleton, by ICU), a trailing "#2" dropped
};

// The name to show and its key, or why the name cannot be taken: empty, longer than `max_chars`,
// or holding control or invisible characters (zero-width, direction marks, fillers).
std::optional<QString> read_student_name(const QString& typed, int max_chars, StudentName& out);

} // namespace lockstep::classroom
