#pragma once

// JSON read strictly, as every file Lockstep reads: nlohmann's parser, and then what it lets
// through refused as well. A NUL byte ends the text for some readers and not for others, so what
// follows it would mean different things to different programs; a key given twice in one object
// keeps only one of its values, silently. Both are refused, naming where.

#include "core/error.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace lockstep {

// Why a text is not JSON Lockstep takes; what() is the reason alone ("line 3, column 5: ...",
// "a NUL byte at offset 40", "the key \"steps\" is given twice (in model)"), for the caller to
// prefix with what the text is.
struct JsonTextError : Error {
    using Error::Error;
};

// Throws JsonTextError.
nlohmann::json parse_json_strictly(std::string_view text);

} // namespace lockstep
