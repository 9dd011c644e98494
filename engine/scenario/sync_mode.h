#pragma once

#include <string_view>

namespace lockstep {

// How often the workers agree, and how long they wait for each other.
//   Bsp:   bulk-synchronous: every step, every worker's gradient is combined before anyone
//          goes on (the default, and every run before this setting existed).
//   Ssp:   stale synchronous parallel (Ho et al. 2013): a parameter server holds the model; a
//          worker at clock c computes on the newest copy it has, and waits only while the
//          slowest worker is more than `staleness` clocks behind.
//   Async: asynchronous SGD through a parameter server: each gradient is applied the moment it
//          arrives, whatever the version it was computed on.
//   Local: local SGD (Stich 2019): each replica takes `local_steps` steps on its own, then the
//          replicas average their parameters with the scenario's collective.
enum class SyncMode { Bsp, Ssp, Async, Local };

struct SyncConfig {
    SyncMode mode = SyncMode::Bsp;
    int staleness = 0;               // ssp: S, clocks a worker may run ahead of the slowest
    int local_steps = 1;             // local: H, steps between two averagings
    bool staleness_aware_lr = false; // async: a gradient of staleness tau is applied at lr / tau
};

std::string_view to_string(SyncMode mode); // "bsp", "ssp", "async", "local"
bool parse_sync_mode(std::string_view text, SyncMode& out);

} // namespace lockstep
