#pragma once

#include <vector>

namespace lockstep::classroom {

// The English texts of the class quiz's web pages (resources/class/), each once: the data-t
// texts and attributes of index.html and teacher.html and every t('…') of live.js, student.js
// and teacher.js, with {1}, {2} placeholders as there. Translated in the context "ClassPage"
// (QT_TRANSLATE_NOOP, for lupdate); ClassApi sends the translations as /strings.js.
const std::vector<const char*>& class_page_texts();

} // namespace lockstep::classroom
