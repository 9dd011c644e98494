// Feeds arbitrary text as a lesson page to the link extractor and every lockstep: link in it to
// the action parser, and the first four "set" actions to the scenario they change (a shipped
// page has at most three; validating a scenario per link made long pages slow). Each must either be
// refused with a lockstep::Error or give an action of the vocabulary whose changed scenario
// validates and reads back from its JSON as the same scenario.

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/lesson.h"

#include "core/error.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

namespace {

const lockstep::Scenario& base() {
    static const lockstep::Scenario s =
        lockstep::load_scenario(LOCKSTEP_SOURCE_DIR "/resources/scenarios/worked-example.json");
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lockstep::lessons;
    const QString page =
        QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    bool round_tripped = false;
    int sets = 0;
    for (const Link& link : extract_links(page)) {
        if (!page.contains(link.url) || !page.contains(link.text))
            std::abort();
        if (!is_action_link(link.url))
            continue;
        try {
            const Action a = parse_action(link.url);
            static const QString vocabulary = action_vocabulary().join(QLatin1Char('\n'));
            if (!vocabulary.contains(action_name(a)))
                std::abort();
            (void)action_worker(a);
            if (a.kind != ActionKind::Set || ++sets > 4)
                continue;
            lockstep::Scenario s = base();
            apply_set(a, s);
            lockstep::validate(s);
            // The scenario parser has its own target: here the first changed scenario is enough.
            if (std::exchange(round_tripped, true))
                continue;
            const std::string json = lockstep::scenario_to_json(s);
            if (lockstep::scenario_to_json(lockstep::parse_scenario(json, "/fuzz")) != json)
                std::abort();
        } catch (const lockstep::Error&) {
        }
    }
    return 0;
}
