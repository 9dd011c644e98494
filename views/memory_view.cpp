// The Memory view: each worker's samples at the playhead, their scale and the words around them.
#include "lockstep_views/memory_view.h"

#include "lockstep_views/names.h"
#include "lockstep_views/numbers.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

MemoryView::MemoryView(QWidget* parent)
    : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Memory view"));
    updateAccessibleDescription();
}

void MemoryView::runStarted(const TraceIndex& index, const Scenario& scenario) {
    index_ = &index;
    mode_ = scenario.parallelism_mode();
    sharding_ = scenario.sharding;
    workers_ = scenario.workers;
    playhead_ = 0;
    scaled_snapshots_ = 0;
    traced_max_ = 0;
    unsharded_.reset(); // the lab gives the new run's, when it has one
    update_scale();
    update_columns();
}

void MemoryView::traceChanged() {
    update_scale();
    update_columns();
}

void MemoryView::playheadMoved(Ticks t) {
    playhead_ = t;
    update_columns();
}

void MemoryView::setUnsharded(const std::optional<WorkerMemory>& worker) {
    unsharded_ = worker;
    updateAccessibleDescription();
    update();
}

std::vector<MemoryColumn> MemoryView::columnsAt(const TraceIndex& index, Ticks t) {
    std::vector<MemoryColumn> out(static_cast<std::size_t>(std::max(0, index.workers())));
    for (std::size_t k = 0; k < out.size(); ++k)
        out[k].worker = static_cast<int>(k);
    const std::vector<StepSnapshot>& snapshots = index.snapshots();
    if (snapshots.empty())
        return out;
    // The first snapshot that ends after t holds the step under way (a step that starts at the
    // instant the previous one ends is under way then); past the end, the last one. The snapshot
    // before it fills in a worker with no sample yet in that step: every step ends with a sample
    // of every worker still training.
    const auto first =
        std::upper_bound(snapshots.begin(), snapshots.end(), t,
                         [](Ticks at, const StepSnapshot& s) { return at < s.time; });
    const std::size_t current = std::min<std::size_t>(
        static_cast<std::size_t>(first - snapshots.begin()), snapshots.size() - 1);
    for (std::size_t j = current > 0 ? current - 1 : 0; j <= current; ++j)
        for (const MemorySample& s : snapshots[j].memory) {
            if (s.worker < 0 || s.at > t)
                continue;
            const auto k = static_cast<std::size_t>(s.worker);
            for (std::size_t i = out.size(); i <= k; ++i) // a lane added after the run started
                out.push_back({static_cast<int>(i), false, {}});
            // The newest sample wins, the later of several at one instant; but at the very instant
            // of several, the largest: buffers allocated and freed at that instant were all there
            // at once (a layer's gradient beside its gathered parameters at the end of its
            // backward pass), and what was freed is gone just after it.
            MemoryColumn& c = out[k];
            if (c.known && (s.at < c.held.at ||
                            (s.at == t && s.at == c.held.at && s.total() < c.held.total())))
                continue;
            c.known = true;
            c.held = s;
        }
    return out;
}

std::int64_t MemoryView::bytesOf(const MemorySample& s, MemoryKind kind) {
    switch (kind) {
    case MemoryKind::Parameters:
        return s.parameters;
    case MemoryKind::Gradients:
        return s.gradients;
    case MemoryKind::Optimizer:
        return s.optimizer;
    case MemoryKind::Activations:
        return s.activations;
    case MemoryKind::Workspace:
        return s.workspace;
    }
    return 0;
}

QString MemoryView::kindName(MemoryKind kind) {
    switch (kind) {
    case MemoryKind::Parameters:
        return tr("parameters");
    case MemoryKind::Gradients:
        return tr("gradients");
    case MemoryKind::Optimizer:
        return tr("optimizer state");
    case MemoryKind::Activations:
        return tr("activations");
    case MemoryKind::Workspace:
        return tr("workspace");
    }
    return {};
}

QString MemoryView::bytesText(std::int64_t bytes) {
    if (bytes < 1000)
        return tr("%1 B").arg(bytes);
    if (bytes < 1'000'000)
        return tr("%1 kB").arg(display_number(static_cast<double>(bytes) / 1e3, 'f', 1));
    return tr("%1 MB").arg(display_number(static_cast<double>(bytes) / 1e6, 'f', 2));
}

std::int64_t MemoryView::scaleBytes() const {
    return std::max<std::int64_t>(
        {traced_max_, unsharded_ && sharding_ != Sharding::None ? unsharded_->peak : 0, 1});
}

bool MemoryView::showsLedger() const {
    return mode_ == Parallelism::Data;
}

QString MemoryView::emptyText() const {
    if (!index_)
        return tr("No run loaded.");
    switch (mode_) {
    case Parallelism::Pipeline:
        return tr("This run is a pipeline: each worker holds its own stages of the model, not a "
                  "replica. The memory ledger counts the workers of data-parallel runs.");
    case Parallelism::Tensor:
        return tr("This run is tensor-parallel: each worker holds its own slice of every layer, "
                  "not a replica. The memory ledger counts the workers of data-parallel runs.");
    case Parallelism::Hybrid:
        return tr("This run is a hybrid of pipelines: each worker holds its own stages. The "
                  "memory ledger counts the workers of data-parallel runs.");
    case Parallelism::Data:
        break;
    }
    if (std::none_of(columns_.begin(), columns_.end(),
                     [](const MemoryColumn& c) { return c.known; })) {
        if (!index_->snapshots().empty() &&
            std::all_of(index_->snapshots().begin(), index_->snapshots().end(),
                        [](const StepSnapshot& s) { return s.memory.empty(); }))
            return tr("This run holds no memory samples (a recording made without them).");
        return tr("Each worker's memory appears here as the first step runs.");
    }
    return {};
}

QString MemoryView::subtitle() const {
    if (workers_ <= 0)
        return {};
    return workers_ == 1 ? tr("%1 · 1 worker").arg(sharding_name(sharding_))
                         : tr("%1 · %2 workers").arg(sharding_name(sharding_)).arg(workers_);
}

QString MemoryView::caption() const {
    if (!showsLedger() || !emptyText().isEmpty())
        return {};
    QString what;
    if (!phase_.isEmpty()) {
        QString how;
        if (phase_half_ == CollectiveHalf::AllGather && phase_layer_ >= 0)
            how = tr("each worker receives the others' pieces of the layer, computes with it "
                     "whole, then frees it.");
        else if (phase_half_ == CollectiveHalf::AllGather)
            how = tr("each worker sends its updated shard of the parameters to the others.");
        else if (phase_layer_ >= 0)
            how = tr("the workers add up the layer's gradient piece by piece, and each keeps only "
                     "its own piece of the sum.");
        else
            how = tr("the workers add up the gradient piece by piece, and each ends with the sum "
                     "of its own shard.");
        what = tr("Now: %1: %2").arg(phase_, how);
    } else {
        switch (sharding_) {
        case Sharding::None:
            what = tr("Every worker holds the whole model, its whole gradient and the whole "
                      "optimizer state: a full replica.");
            break;
        case Sharding::Optimizer:
            what = tr("Each worker keeps 1/%1 of the optimizer state; the parameters and the "
                      "gradient are whole.")
                       .arg(workers_);
            break;
        case Sharding::Gradients:
            what = tr("Each worker keeps 1/%1 of the optimizer state, and between steps 1/%1 of "
                      "the gradient; the parameters are whole.")
                       .arg(workers_);
            break;
        case Sharding::Parameters:
            what = tr("Each worker keeps 1/%1 of every layer and gathers a layer whole only while "
                      "it computes with it.")
                       .arg(workers_);
            break;
        }
    }
    std::int64_t largest = 0;
    for (const MemoryColumn& c : columns_)
        if (c.known)
            largest = std::max(largest, c.held.total());
    QString figures = tr("Most held now: %1.").arg(bytesText(largest));
    if (unsharded_ && sharding_ != Sharding::None)
        figures = tr("Most held now: %1; without sharding, %2 at the peak.")
                      .arg(bytesText(largest), bytesText(unsharded_->peak));
    return what + QLatin1Char(' ') + figures;
}

// The most any sample holds, counting only the snapshots that arrived since the last call: a run
// of many steps is not read again at every step. A branch that cut snapshots off counts afresh.
void MemoryView::update_scale() {
    const std::size_t held = index_ ? index_->snapshots().size() : 0;
    if (held < scaled_snapshots_) {
        traced_max_ = 0;
        scaled_snapshots_ = 0;
    }
    for (std::size_t i = scaled_snapshots_; i < held; ++i)
        for (const MemorySample& m : index_->snapshots()[i].memory)
            traced_max_ = std::max(traced_max_, m.total());
    scaled_snapshots_ = held;
}

void MemoryView::update_columns() {
    columns_ =
        index_ && showsLedger() ? columnsAt(*index_, playhead_) : std::vector<MemoryColumn>{};
    const TraceEvent* half = index_ ? index_->half_at(playhead_) : nullptr;
    phase_ = half ? half_name(*half) : QString();
    phase_half_ = half ? half->half : CollectiveHalf::None;
    phase_layer_ = half ? half->layer : -1;
    updateAccessibleDescription();
    update();
}

void MemoryView::updateAccessibleDescription() {
    if (!showsLedger() || !emptyText().isEmpty()) {
        setAccessibleDescription(emptyText());
        return;
    }
    QStringList workers;
    for (const MemoryColumn& c : columns_) {
        if (!c.known)
            continue;
        QStringList kinds;
        for (int i = 0; i < kMemoryKindCount; ++i) {
            const auto kind = static_cast<MemoryKind>(i);
            kinds << tr("%1 %2").arg(kindName(kind), bytesText(bytesOf(c.held, kind)));
        }
        workers << tr("worker %1: %2, in all %3")
                       .arg(c.worker)
                       .arg(kinds.join(QStringLiteral(", ")), bytesText(c.held.total()));
    }
    setAccessibleDescription(subtitle() + QStringLiteral(". ") + caption() + QLatin1Char(' ') +
                             workers.join(QStringLiteral("; ")));
}

// A little larger than the widget's, to be read from the back of a room, when the view is tall
// enough for it; the widget's own in a short pane (a 768-pixel screen's tab).
QFont MemoryView::viewFont() const {
    QFont f = font();
    if (height() < QFontMetricsF(f).height() * 24)
        return f;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 1.2);
    else
        f.setPixelSize(f.pixelSize() * 6 / 5);
    return f;
}

MemoryView::Layout MemoryView::layout() const {
    Layout l;
    const QFontMetricsF fm(viewFont());
    l.line = fm.height();
    const double margin = std::round(l.line * 0.6);
    const double inner = std::max(10.0, width() - 2 * margin);
    double y = margin;
    l.title = QRectF(margin, y, inner, l.line * 1.3);
    y += l.title.height();
    // The subtitle beside the title when the view is short and there is room, else under it.
    QFont bold = viewFont();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    const double title_w =
        QFontMetricsF(bold).horizontalAdvance(tr("Memory per worker · step %1").arg(88888));
    const bool short_view = height() < l.line * 26;
    if (short_view && title_w + l.line + fm.horizontalAdvance(subtitle()) <= inner) {
        l.subtitle = QRectF(margin + title_w + l.line, l.title.top(), inner - title_w - l.line,
                            l.title.height());
        y += l.line * 0.2;
    } else {
        l.subtitle = QRectF(margin, y, inner, l.line * 1.2);
        y += l.subtitle.height() + l.line * 0.3;
    }
    // The legend: one row of swatches when they fit, two when the view is narrow.
    double legend_width = 0.0;
    for (int i = 0; i < kMemoryKindCount; ++i)
        legend_width += fm.horizontalAdvance(kindName(static_cast<MemoryKind>(i))) + l.line * 2.2;
    const int legend_rows = legend_width > inner ? 2 : 1;
    const bool outlined = unsharded_ && sharding_ != Sharding::None;
    l.legend = QRectF(margin, y, inner, l.line * 1.4 * (legend_rows + (outlined ? 1 : 0)));
    y += l.legend.height() + l.line * 0.4;
    // Under the columns: the workers' names, then the caption on the lines it needs (three at
    // most).
    const double caption_h =
        std::min(l.line * 3.2,
                 fm.boundingRect(QRectF(0, 0, inner, 1e6), Qt::TextWordWrap, caption()).height() +
                     l.line * 0.2);
    l.caption = QRectF(margin, height() - margin - caption_h, inner, caption_h);
    const double names_h = l.line * 1.3;
    const double axis_w = fm.horizontalAdvance(bytesText(88'880'000)) + l.line * 0.6;
    const double top = y + l.line * 1.3; // room for each column's total above it
    const double bottom = l.caption.top() - names_h - l.line * 0.2;
    l.axis = QRectF(margin, top, axis_w, std::max(10.0, bottom - top));
    l.plot = QRectF(l.axis.right(), top, std::max(10.0, inner - axis_w), l.axis.height());
    l.names = QRectF(l.plot.left(), l.plot.bottom() + l.line * 0.2, l.plot.width(), names_h);
    const int n = std::max<int>(1, static_cast<int>(columns_.size()));
    l.pitch = l.plot.width() / n;
    l.column_width = std::min(l.pitch * 0.62, l.line * 7.0);
    return l;
}

double MemoryView::yFor(const Layout& l, std::int64_t bytes) const {
    return l.plot.bottom() -
           l.plot.height() * static_cast<double>(bytes) / static_cast<double>(scaleBytes());
}

QRectF MemoryView::columnRect(int worker) const {
    const Layout l = layout();
    const double x = l.plot.left() + l.pitch * worker + (l.pitch - l.column_width) / 2;
    return QRectF(x, l.plot.top(), l.column_width, l.plot.height());
}

QRectF MemoryView::segmentRect(int worker, MemoryKind kind) const {
    const auto k = static_cast<std::size_t>(worker);
    if (worker < 0 || k >= columns_.size() || !columns_[k].known)
        return {};
    const Layout l = layout();
    const QRectF column = columnRect(worker);
    std::int64_t below = 0;
    for (int i = 0; i < static_cast<int>(kind); ++i)
        below += bytesOf(columns_[k].held, static_cast<MemoryKind>(i));
    const double bottom = yFor(l, below);
    const double top = yFor(l, below + bytesOf(columns_[k].held, kind));
    return QRectF(column.left(), top, column.width(), bottom - top);
}

QSize MemoryView::sizeHint() const {
    return {700, 460};
}

QSize MemoryView::minimumSizeHint() const {
    return {320, 240};
}

void MemoryView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    update();
}

void MemoryView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        setAccessibleName(tr("Memory view"));
        update_columns(); // the phase's words, in the new language
    }
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::LanguageChange)
        update();
    QWidget::changeEvent(event);
}

SessionView* make_memory_view() {
    return new MemoryView;
}

} // namespace lockstep::views
