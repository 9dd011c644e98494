#pragma once

#include "data/data.h"
#include "scenario/scenario.h"

#include <cstddef>
#include <vector>

// Set-up steps the trainers share (setup.cpp): data-parallel, pipeline and tensor runs start alike.
namespace lockstep::detail {

// The scenario's shards over `rows` examples: its shard_sizes, or equal shards.
std::vector<Shard> make_shards(const Scenario& s, std::size_t rows);
// Worker k's place in its shard at the start of a run: its own generator stream of the seed.
DataCursor fresh_cursor(const Scenario& s, int worker, Shard shard);
// The parameters a run starts from: the scenario's file, or drawn from the seed.
std::vector<double> initial_parameters(const Scenario& s);
// Throws lockstep::Error when the data does not fit the model (features, task, classes).
void check_model_fits(const Scenario& s, const Dataset& data);

} // namespace lockstep::detail
