#include "trace/chrome_trace.h"

#include "trace/chrome_trace_text.h"

#include <algorithm>

// TraceDetail::Phases, the detail for crowds: per lane in time order, each run of consecutive
// collective rounds and the waits between them is one "collective" slice.

namespace lockstep {

using namespace chrome_text;

void ChromeTraceWriter::write_phases(std::span<const TraceEvent> events) {
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto lane = static_cast<std::size_t>(events[i].worker);
        if (lane >= lane_events_.size())
            lane_events_.resize(lane + 1);
        lane_events_[lane].push_back(i);
    }
    struct Collective {
        bool open = false;
        Ticks start = 0, end = 0, waiting = 0;
        std::int64_t step = 0, sent = 0, received = 0, rounds = 0;
        int last_round = -1;
    };
    for (std::size_t lane = 0; lane < lane_events_.size(); ++lane) {
        auto& list = lane_events_[lane];
        std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
            return events[a].start < events[b].start;
        });
        Collective c;
        std::size_t held_from = 0, held_to = 0; // waits after the open slice's last round
        auto emit_held = [&] {
            for (std::size_t k = held_from; k < held_to; ++k)
                write_event(events[list[k]]);
            held_from = held_to = 0;
        };
        auto close = [&] {
            if (!c.open)
                return;
            const Arg args[] = {arg("bytes_received", c.received), arg("bytes_sent", c.sent),
                                arg("rounds", c.rounds), arg("step", c.step),
                                arg_number("waiting_us", micros(c.waiting))};
            begin_element();
            buffer_ += "  {\n";
            put_args(buffer_, args);
            write_slice("collective", static_cast<int>(lane), c.start, c.end);
            c = Collective{};
            emit_held();
        };
        for (std::size_t k = 0; k < list.size(); ++k) {
            const TraceEvent& e = events[list[k]];
            if (round_kind(e.kind) && !transfer(e)) {
                if (!c.open) {
                    c.open = true;
                    c.start = e.start;
                    c.step = e.step;
                } else {
                    for (std::size_t h = held_from; h < held_to; ++h)
                        c.waiting += events[list[h]].end - events[list[h]].start;
                    held_from = held_to = 0;
                }
                c.end = std::max(c.end, e.end);
                if (e.round != c.last_round) {
                    ++c.rounds;
                    c.last_round = e.round;
                }
                if (e.kind == EventKind::Send)
                    c.sent += e.bytes;
                if (e.kind == EventKind::Receive)
                    c.received += e.bytes;
            } else if (e.kind == EventKind::Wait && c.open) {
                if (held_to == 0)
                    held_from = k;
                held_to = k + 1;
            } else {
                close();
                if (transfer(e))
                    write_transfer(e);
                else
                    write_event(e);
            }
        }
        close();
        list.clear();
    }
}

} // namespace lockstep
