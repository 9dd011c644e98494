#pragma once

// The engine's names as people read them, in the language in use: "parameter-server" is
// "parameter server" in English, "Parameterserver" in German, "servidor de parámetros" in
// Spanish. Files, flags and lesson links keep the engine's own names (to_string).

#include "checkpoint/checkpoint.h"
#include "collectives/reduction.h"
#include "collectives/schedule.h"
#include "scenario/parallelism.h"
#include "scenario/scenario.h"
#include "scenario/sync_mode.h"
#include "trace/trace.h"

#include <QString>

namespace lockstep::views {

QString algorithm_name(Algorithm algorithm);      // "parameter server", "ring", "tree", "none"
QString rule_name(ReductionRule rule);            // "sum", "mean", "weighted mean"
QString sync_name(SyncMode mode);                 // "bsp", "ssp", "async", "local SGD"
QString clock_name(ClockKind clock);              // "modelled", "measured"
QString parallelism_name(Parallelism mode);       // "data", "pipeline", "tensor", "hybrid"
QString schedule_name(PipelineSchedule schedule); // "fill-drain", "1F1B"
QString restore_name(RestoreMode mode);           // "full", "weights only"
QString event_name(EventKind kind);               // "compute", "waiting", "checkpoint write"…
QString status_name(CheckpointStatus status);     // "complete", "partial", "corrupt"
QString fault_name(CheckpointFault fault);        // "no manifest", "checksum mismatch"…
// What a way of sharding keeps a shard of: "no sharding", "ZeRO 1: optimizer state sharded"…
QString sharding_name(Sharding sharding);
// The half of a sharded run's all-reduce that a Send, Receive, Reduce or Wait belongs to, with
// its layer in stage 3: "all-gather of layer 2", "reduce-scatter of layer 2's gradient",
// "reduce-scatter of the gradient"; empty for any other event.
QString half_name(const TraceEvent& e);

} // namespace lockstep::views
