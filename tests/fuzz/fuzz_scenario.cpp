// Feeds arbitrary text to the scenario parser. It must either reject it with a lockstep::Error or
// return a valid scenario whose canonical JSON parses back to the same scenario.

#include "scenario/scenario.h"

#include "core/error.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const lockstep::Scenario scenario = lockstep::parse_scenario(text, "/fuzz");
        const std::string json = lockstep::scenario_to_json(scenario);
        const lockstep::Scenario again = lockstep::parse_scenario(json, "/fuzz");
        if (lockstep::scenario_to_json(again) != json ||
            lockstep::scenario_hash(again) != lockstep::scenario_hash(scenario))
            std::abort();
    } catch (const lockstep::Error&) {
    }
    return 0;
}
