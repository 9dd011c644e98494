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
void price_collective(const CommSchedule& schedule, std::span<const int> lanes,
                      std::span<Ticks> clocks, const CostConfig& cost, std::int64_t step,
                      int first_round, std::vector<TraceEvent>& events);

} // namespace lockstep
