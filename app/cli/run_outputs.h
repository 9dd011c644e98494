#pragma once

#include "options.h"

#include "trace/chrome_trace.h"
#include "trace/trace.h"

#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lockstep::cli {

// The trace sink of a command-line run: it writes the Chrome trace (--trace FILE, at
// --trace-detail) and the metrics CSV (--metrics-csv FILE) as the run goes, and keeps only each
// step's loss for the summary. So memory does not grow with the trace, whatever the run's length.
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
    void check(std::ofstream& out, const std::string& path, const char* flag) const;

    std::string run_name_;
    TraceDetail detail_ = TraceDetail::Rounds;
    std::optional<std::string> trace_path_, csv_path_;
    std::ofstream trace_file_, csv_file_;
    std::unique_ptr<ChromeTraceWriter> writer_;
    bool csv_header_ = false;
    std::vector<double> losses_;
};

// The flags RunOutputs reads, for a command's list of accepted flags.
inline constexpr const char* kTraceFlags[] = {"--trace", "--trace-detail", "--metrics-csv"};

} // namespace lockstep::cli
