#pragma once

#include <oneapi/tbb/task_arena.h>

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
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

// The lab's one way of working in the background (the speedup sweep, the restore comparison,
// the comparison of ways of agreeing, the study): one job at a time per BackgroundJob, with a
// generation, a stop flag and a mailbox.
//
// - start(work, done, failed) runs `work(stop)` on a pool thread, beside the GUI
//   (run_beside_the_gui()), and returns at once. `stop` is raised when the job is overtaken; work
//   that can stop early (a run, between steps) looks at it, other work just finishes.
// - The result comes back to the GUI thread as a queued call: done(result), or failed(message)
//   for a lockstep::Error or any other exception. Only the newest job's result comes back: a
//   newer start(), cancel() or the BackgroundJob's destruction drops the older one's.
// - Nothing waits: the GUI thread never joins a job. A job whose BackgroundJob is gone drops its
//   result in the mailbox, so destroying the owner during a job is safe.
// A BackgroundJob lives on the GUI thread, as does everything its callbacks touch.
class BackgroundJob : public QObject {
public:
    explicit BackgroundJob(QObject* owner)
        : QObject(owner)
        , mailbox_(std::make_shared<Mailbox>()) {
        mailbox_->job = this;
    }
    ~BackgroundJob() override {
        cancel();
        std::lock_guard lock(mailbox_->mutex);
        mailbox_->job = nullptr;
    }

    template <typename Work, typename Done, typename Failed>
    void start(Work work, Done done, Failed failed) {
        using Result = std::invoke_result_t<Work&, const std::atomic<bool>&>;
        cancel();
        const std::uint64_t generation = ++generation_;
        auto stop = stop_ = std::make_shared<std::atomic<bool>>(false);
        busy_ = true;
        QThreadPool::globalInstance()->start(
            [mailbox = mailbox_, generation, stop, work, done, failed]() mutable {
                std::optional<Result> result;
                QString error;
                try {
                    result.emplace(run_beside_the_gui([&] { return work(*stop); }));
                } catch (const std::exception& e) {
                    error = QString::fromUtf8(e.what());
                }
                std::lock_guard lock(mailbox->mutex);
                BackgroundJob* job = mailbox->job;
                if (!job || stop->load())
                    return; // overtaken or gone: nobody is waiting for this one
                QMetaObject::invokeMethod(
                    job,
                    [job, generation, result = std::move(result), error, done, failed]() mutable {
                        if (generation != job->generation_)
                            return; // a newer job was started after this result was posted
                        job->busy_ = false;
                        if (result)
                            done(std::move(*result));
                        else
                            failed(error);
                    },
                    Qt::QueuedConnection);
            });
    }

    // The running job, if any, is overtaken: its stop flag is raised and its result dropped.
    void cancel() {
        ++generation_;
        if (stop_)
            stop_->store(true);
        stop_.reset();
        busy_ = false;
    }
    // From start() until its result has come back (or it was cancelled).
    bool busy() const { return busy_; }

private:
    struct Mailbox {
        std::mutex mutex;
        BackgroundJob* job = nullptr;
    };
    std::shared_ptr<Mailbox> mailbox_;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::uint64_t generation_ = 0;
    bool busy_ = false;
};

} // namespace lockstep::app
