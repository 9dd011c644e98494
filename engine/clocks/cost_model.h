#pragma once

#include "collectives/collective.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <span>
#include <vector>

namespace lockstep {

// Prices a collective's schedule on the modelled clock among some of a run's lanes: participant
// p of the schedule is lane `lanes[p]`, whose clock is `clocks[p]`. A message starts when both
// ends have reached its round and the sender's out-link and the receiver's in-link are free; it
// takes alpha + bytes * beta, and a reduce adds bytes * gamma at the receiver. Appends Send,
// Receive, Reduce and Wait events (rounds numbered from `first_round`) and advances the clocks.
// In textbook mode (cost.communication_s_per_step set) the messages are not priced one by one:
// it changes nothing, and the step's communication is charge_fixed_communication()'s.
void price_collective(const CommSchedule& schedule, std::span<const int> lanes,
                      std::span<Ticks> clocks, const CostConfig& cost, std::int64_t step,
                      int first_round, std::vector<TraceEvent>& events);

// Textbook mode's communication, once per step: every lane waits for the slowest, then spends
// `seconds` communicating (`bytes` each). Appends Wait and Communicate events, advances the
// clocks.
void charge_fixed_communication(std::span<const int> lanes, std::span<Ticks> clocks, double seconds,
                                std::int64_t bytes, std::int64_t step,
                                std::vector<TraceEvent>& events);

} // namespace lockstep
