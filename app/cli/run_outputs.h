#pragma once

#include "options.h"

#include "core/atomic_file.h"
#include "trace/chrome_trace.h"
#include "trace/trace.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lockstep::cli {

// The trace sink of a command-line run: it writes the Chrome trace (--trace FILE, at
// --trace-detail) and the metrics CSV (--metrics-csv FILE) as the run goes, and keeps only each
// step's loss for the summary. So memory does not grow with the trace, whatever the run's length.
// Each file goes to a temporary name and takes its own only when finish() completes it: a run
// that fails or is killed never leaves a truncated file (see AtomicFile).
class RunOutputs final : public TraceSink {
public:
    // Checks the flags (lockstep::Error naming a wrong one). begin() opens the files, once the
    // trainer says how many lanes it draws and the run is about to start.
    RunOutputs(const Options& o, std::string run_name);
    ~RunOutputs() override;
    void begin(int lanes);

    void on_events(std::span<const TraceEvent> events) override;
    void on_snapshot(const StepSnapshot& snapshot) override;

    // More top-level members for the Chrome trace (see ChromeTraceWriter::set_trailer), after
    // begin(); nothing without --trace.
    void set_trace_trailer(std::string members) {
        if (writer_)
            writer_->set_trailer(std::move(members));
    }
    // Completes and closes the files. Throws lockstep::Error naming the file that failed.
    void finish();
    const std::vector<double>& losses() const { return losses_; }

private:
    // `action` on the file of `flag`, its errors prefixed with the flag.
    template <typename F> void with(const char* flag, F action);

    std::string run_name_;
    TraceDetail detail_ = TraceDetail::Rounds;
    std::optional<std::string> trace_path_, csv_path_;
    std::unique_ptr<AtomicFile> trace_file_, csv_file_;
    std::unique_ptr<ChromeTraceWriter> writer_;
    bool csv_header_ = false;
    std::vector<double> losses_;
};

// The flags RunOutputs reads, for a command's list of accepted flags.
inline constexpr const char* kTraceFlags[] = {"--trace", "--trace-detail", "--metrics-csv"};

} // namespace lockstep::cli
