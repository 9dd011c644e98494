#include "core/json_text.h"

#include <set>
#include <string>
#include <vector>

namespace lockstep {

namespace {

// Where the parser is: one entry per open object or array, with an object's keys so far.
struct Open {
    bool object = false;
    std::string key; // the member being read (an object's)
    std::set<std::string> keys;
};

std::string where(const std::vector<Open>& open) {
    std::string path;
    for (std::size_t i = 0; i + 1 < open.size(); ++i) {
        if (!open[i].object)
            path += "[]";
        else
            path += (path.empty() ? "" : ".") + open[i].key;
    }
    return path.empty() ? "at the top level" : "in " + path;
}

} // namespace

nlohmann::json parse_json_strictly(std::string_view text) {
    if (const auto nul = text.find('\0'); nul != std::string_view::npos)
        throw JsonTextError("a NUL byte at offset " + std::to_string(nul) +
                            " (the file is not text)");
    std::vector<Open> open;
    std::string twice;
    const nlohmann::json::parser_callback_t check = [&](int, nlohmann::json::parse_event_t event,
                                                        nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        switch (event) {
        case Event::object_start:
        case Event::array_start:
            open.push_back({event == Event::object_start, {}, {}});
            break;
        case Event::object_end:
        case Event::array_end:
            if (!open.empty())
                open.pop_back();
            break;
        case Event::key:
            if (!open.empty() && parsed.is_string()) {
                Open& object = open.back();
                object.key = parsed.get<std::string>();
                if (!object.keys.insert(object.key).second && twice.empty())
                    twice = "the key \"" + object.key + "\" is given twice (" + where(open) + ")";
            }
            break;
        case Event::value:
            break;
        }
        return true;
    };
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text, check);
    } catch (const nlohmann::json::exception& e) {
        // nlohmann's message reads "[json.exception.parse_error.101] parse error at line 3, ...".
        const std::string what = e.what();
        const auto pos = what.find("] ");
        throw JsonTextError(pos == std::string::npos ? what : what.substr(pos + 2));
    }
    if (!twice.empty())
        throw JsonTextError(twice);
    return doc;
}

} // namespace lockstep
