#pragma once

#include <oneapi/tbb/task_arena.h>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <thread>
#include <utility>

namespace lockstep::app {

// How far the app's background threads step back: a weight of about a tenth of the GUI thread's.
inline constexpr int kBackgroundNice = 10;

// Runs work that the window waits for but a class does not watch (the engine streaming a run, a
// speedup sweep, a study, a restore comparison) so that the GUI thread keeps a core to itself:
// the work's TBB tasks are limited to all cores but one (at least one), and the calling thread is
// niced so that it yields to the GUI thread when both want the same core. Call it on the
// background thread, which stays niced afterwards. Only how fast the work goes changes: the
// engine's results are the same for any number of threads.
template <typename Work> decltype(auto) run_beside_the_gui(Work&& work) {
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), kBackgroundNice);
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    tbb::task_arena arena(std::max(1, cores - 1));
    return arena.execute(std::forward<Work>(work));
}

} // namespace lockstep::app
