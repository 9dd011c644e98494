#include "run_outputs.h"

#include "core/error.h"

#include <stdexcept>
#include <utility>

namespace lockstep::cli {

RunOutputs::RunOutputs(const Options& o, std::string run_name)
    : run_name_(std::move(run_name))
    , trace_path_(o.text("--trace"))
    , csv_path_(o.text("--metrics-csv")) {
    if (auto text = o.text("--trace-detail")) {
        if (!trace_path_)
            throw Error(utf8(Cli::tr("--trace-detail: goes with --trace FILE")));
        const auto parsed = parse_trace_detail(*text);
        if (!parsed)
            throw Error(
                utf8(Cli::tr("--trace-detail: must be rounds or phases, got '%1'").arg(qs(*text))));
        detail_ = *parsed;
    }
}

RunOutputs::~RunOutputs() = default;

template <typename F> void RunOutputs::with(const char* flag, F action) {
    try {
        action();
    } catch (const Error& e) {
        throw Error(std::string(flag) + " " + e.what());
    }
}

void RunOutputs::begin(int lanes) {
    if (trace_path_ && !writer_)
        with("--trace", [&] {
            trace_file_ = std::make_unique<AtomicFile>(*trace_path_);
            writer_ = std::make_unique<ChromeTraceWriter>(trace_file_->stream(), lanes, run_name_,
                                                          detail_);
        });
    if (csv_path_ && !csv_file_)
        with("--metrics-csv", [&] { csv_file_ = std::make_unique<AtomicFile>(*csv_path_); });
}

void RunOutputs::on_events(std::span<const TraceEvent> events) {
    if (!trace_path_)
        return;
    if (!writer_)
        throw std::logic_error("RunOutputs: events before begin()");
    with("--trace", [&] { writer_->on_events(events); });
}

void RunOutputs::on_snapshot(const StepSnapshot& snapshot) {
    losses_.push_back(snapshot.loss);
    if (!csv_path_)
        return;
    if (!csv_file_)
        throw std::logic_error("RunOutputs: a snapshot before begin()");
    std::ostream& out = csv_file_->stream();
    if (!csv_header_) {
        out << metrics_csv_header(snapshot.worker_loss.size());
        csv_header_ = true;
    }
    out << metrics_csv_row(snapshot);
    with("--metrics-csv", [&] { csv_file_->check(); });
}

void RunOutputs::finish() {
    begin(0); // a run of no steps still writes its (empty) files
    if (writer_)
        with("--trace", [&] {
            writer_->finish();
            trace_file_->commit();
        });
    if (csv_path_)
        with("--metrics-csv", [&] {
            if (!csv_header_)
                csv_file_->stream() << metrics_csv_header(0);
            csv_file_->commit();
        });
}

} // namespace lockstep::cli
