#include "lockstep_views/pipeline_view.h"

#include <algorithm>
#include <iterator>

// The Pipeline view's view-model: the step at a playhead and its grid, from the trace index.
namespace lockstep::views {

std::vector<QString> PipelineGrid::passes(int lane) const {
    std::vector<QString> out;
    for (const auto& b : boxes)
        if (b.lane == lane && b.kind != EventKind::Update)
            out.push_back(b.label);
    return out;
}

int PipelineGrid::bubbleCount(int lane) const {
    return static_cast<int>(std::count_if(bubbles.begin(), bubbles.end(),
                                          [lane](const PipelineBox& b) { return b.lane == lane; }));
}

std::int64_t PipelineView::stepAt(const TraceIndex& index, Ticks t) {
    std::int64_t step = -1;
    std::int64_t first = -1;
    for (int w = 0; w < index.workers(); ++w) {
        const auto lane = index.lane(w);
        if (lane.empty())
            continue;
        if (first < 0 || lane.front().step < first)
            first = lane.front().step;
        const auto it = std::upper_bound(lane.begin(), lane.end(), t,
                                         [](Ticks v, const TraceEvent& e) { return v < e.start; });
        if (it != lane.begin())
            step = std::max(step, std::prev(it)->step);
    }
    return step >= 0 ? step : first;
}

// The boxes are the step's own events; the bubble fraction, P, M and the peaks in flight are the
// trainer's report of the step, carried by its snapshot.
PipelineGrid PipelineView::grid(const TraceIndex& index, std::int64_t step) {
    PipelineGrid g;
    const int lanes = index.workers();
    if (step < 0 || lanes <= 0)
        return g;
    g.lanes = lanes;
    std::vector<PipelineBoundary> boundaries(static_cast<std::size_t>(std::max(0, lanes - 1)));
    bool any = false;
    for (int w = 0; w < lanes; ++w) {
        // A lane is sorted by start and a pipeline's steps follow each other (it takes no
        // faults, so no rollback repeats a step): the step's events are one run of the lane.
        const auto lane = index.lane(w);
        const auto first = std::partition_point(
            lane.begin(), lane.end(), [step](const TraceEvent& e) { return e.step < step; });
        for (auto it = first; it != lane.end() && it->step == step; ++it) {
            const TraceEvent& e = *it;
            g.start = any ? std::min(g.start, e.start) : e.start;
            g.end = any ? std::max(g.end, e.end) : e.end;
            any = true;
            const QString mb = e.microbatch >= 0 ? QString::number(e.microbatch) : QString();
            switch (e.kind) {
            case EventKind::Forward:
                g.boxes.push_back(
                    {w, e.kind, e.microbatch, e.start, e.end, QStringLiteral("F") + mb});
                break;
            case EventKind::Backward:
                g.boxes.push_back(
                    {w, e.kind, e.microbatch, e.start, e.end, QStringLiteral("B") + mb});
                break;
            case EventKind::Update:
                g.boxes.push_back({w, e.kind, -1, e.start, e.end, QStringLiteral("U")});
                break;
            case EventKind::Bubble:
                g.bubbles.push_back({w, e.kind, e.microbatch, e.start, e.end, QString()});
                break;
            case EventKind::Send:
                if (e.microbatch < 0)
                    break; // a hybrid run's all-reduce, not a stage boundary
                if (e.peer == w + 1)
                    boundaries[static_cast<std::size_t>(w)].activation_bytes += e.bytes;
                else if (e.peer == w - 1 && w > 0)
                    boundaries[static_cast<std::size_t>(w - 1)].gradient_bytes += e.bytes;
                break;
            default:
                break;
            }
        }
    }
    if (!any)
        return g;
    g.step = step;
    for (std::size_t b = 0; b < boundaries.size(); ++b) {
        boundaries[b].lane = static_cast<int>(b);
        if (boundaries[b].activation_bytes > 0 || boundaries[b].gradient_bytes > 0)
            g.boundaries.push_back(boundaries[b]);
    }
    const auto& snapshots = index.snapshots();
    const auto snapshot = std::find_if(snapshots.rbegin(), snapshots.rend(),
                                       [step](const StepSnapshot& s) { return s.step == step; });
    g.finished = snapshot != snapshots.rend();
    if (g.finished && snapshot->pipeline) {
        const PipelineStepReport& report = *snapshot->pipeline;
        g.reported = true;
        g.stages = report.stages;
        g.microbatches = report.microbatches;
        g.bubble_fraction = report.bubble_fraction;
        g.peak_inflight = report.peak_inflight;
    }
    g.peak_inflight.resize(static_cast<std::size_t>(lanes), 0);
    return g;
}

} // namespace lockstep::views
