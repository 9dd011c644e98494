#pragma once

#include <QString>

namespace lockstep::lessons {

// The nine points of the syllabus every library of lessons must teach (lessons check verifies
// that each has a page, a live scenario, an exercise and an item the engine answers).
constexpr int kSyllabusPoints = 9;

// A point's short name, for lists and for what `lessons check` reports: "speedup is not
// automatic". Empty outside 1 to kSyllabusPoints.
QString syllabus_point_name(int point);
// "6 a checkpoint holds everything"
QString syllabus_point_label(int point);

} // namespace lockstep::lessons
