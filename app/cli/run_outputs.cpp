#include "run_outputs.h"

#include "core/error.h"

#include <cerrno>
#include <cstring>
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

void RunOutputs::begin(int lanes) {
    if (trace_path_ && !writer_) {
        trace_file_.open(*trace_path_, std::ios::binary | std::ios::trunc);
        check(trace_file_, *trace_path_, "--trace");
        writer_ = std::make_unique<ChromeTraceWriter>(trace_file_, lanes, run_name_, detail_);
    }
    if (csv_path_ && !csv_file_.is_open()) {
        csv_file_.open(*csv_path_, std::ios::binary | std::ios::trunc);
        check(csv_file_, *csv_path_, "--metrics-csv");
    }
}

void RunOutputs::check(std::ofstream& out, const std::string& path, const char* flag) const {
    if (!out) {
        const QString reason = QString::fromLocal8Bit(std::strerror(errno));
        throw Error(utf8(
            Cli::tr("%1 %2: cannot write (%3)").arg(QString::fromLatin1(flag), qs(path), reason)));
    }
}

void RunOutputs::on_events(std::span<const TraceEvent> events) {
    if (!trace_path_)
        return;
    if (!writer_)
        throw std::logic_error("RunOutputs: events before begin()");
    try {
        writer_->on_events(events);
    } catch (const Error& e) {
        throw Error("--trace " + *trace_path_ + ": " + e.what());
    }
}

void RunOutputs::on_snapshot(const StepSnapshot& snapshot) {
    losses_.push_back(snapshot.loss);
    if (!csv_path_)
        return;
    if (!csv_file_.is_open())
        throw std::logic_error("RunOutputs: a snapshot before begin()");
    if (!csv_header_) {
        csv_file_ << metrics_csv_header(snapshot.worker_loss.size());
        csv_header_ = true;
    }
    csv_file_ << metrics_csv_row(snapshot);
    check(csv_file_, *csv_path_, "--metrics-csv");
}

void RunOutputs::finish() {
    begin(0); // a run of no steps still writes its (empty) files
    if (writer_) {
        try {
            writer_->finish();
        } catch (const Error& e) {
            throw Error("--trace " + *trace_path_ + ": " + e.what());
        }
        trace_file_.close();
        check(trace_file_, *trace_path_, "--trace");
    }
    if (csv_path_) {
        if (!csv_header_)
            csv_file_ << metrics_csv_header(0);
        csv_file_.close();
        check(csv_file_, *csv_path_, "--metrics-csv");
    }
}

} // namespace lockstep::cli
