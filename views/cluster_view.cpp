// The Cluster view: the workers' state at the playhead, and what the view says of it.
#include "lockstep_views/cluster_view.h"

#include "lockstep_views/cluster_painter.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

ClusterView::ClusterView(QWidget* parent)
    : QWidget(parent) {
    retranslate();
    setAccessibleDescription(describe());
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ClusterView::retranslate() {
    setAccessibleName(tr("Cluster view"));
}

void ClusterView::setTrace(const TraceIndex* index) {
    index_ = index;
    sceneValid_ = false;
    bytesScanned_ = 0;
    maxBytes_ = 0;
    focusWorker_ = 0;
    setAccessibleDescription(describe());
    update();
}

void ClusterView::setParallelism(const ParallelismConfig& parallelism) {
    parallelism_ = parallelism;
    sceneValid_ = false;
    setAccessibleDescription(describe());
    update();
}

void ClusterView::setWireFormat(WirePrecision wire) {
    wire_ = wire == WirePrecision::Float64
                ? QString()
                : tr("%1 on the wire")
                      .arg(QString::fromLatin1(to_string(wire).data(),
                                               qsizetype(to_string(wire).size())));
    sceneValid_ = false;
    setAccessibleDescription(describe());
    update();
}

QString ClusterView::topologyText() const {
    const ClusterScene& s = scene();
    return s.topology.isEmpty() ? topology_name(s.algorithm) : s.topology;
}

void ClusterView::setPlayhead(Ticks t) {
    playhead_ = t;
    // A screen reader hears of the change once per step, not on every frame of the playback.
    updateStates();
    if (step_ != describedStep_) {
        describedStep_ = step_;
        setAccessibleDescription(describe());
    }
    update();
}

void ClusterView::refresh() {
    setAccessibleDescription(describe());
    update();
}

QSize ClusterView::sizeHint() const {
    return {640, 480};
}

QSize ClusterView::minimumSizeHint() const {
    const qreal line = QFontMetricsF(font()).height();
    return {static_cast<int>(std::ceil(20 * line)), static_cast<int>(std::ceil(14 * line))};
}

// The scene for the current size, font and topology, made again when one of them changes.
const ClusterScene& ClusterView::scene() const {
    const int n = index_ ? std::max(index_->workers(), 0) : 0;
    const Algorithm algorithm = index_ ? index_->algorithm_at(playhead_) : Algorithm::Ring;
    if (sceneValid_ && scene_.size == size() && scene_.workers == n &&
        scene_.algorithm == algorithm)
        return scene_;
    pictures_ = Pictures{};
    scene_ = index_ ? layout_cluster(*index_, playhead_, size(), font(), parallelism_)
                    : layout_cluster(size(), font(), 0, Algorithm::Ring, {});
    scene_.wire = wire_;
    sceneValid_ = true;
    return scene_;
}

// Activity and latest gradient of every worker at the playhead, straight from the index.
void ClusterView::updateStates() const {
    const int n = index_ ? std::max(index_->workers(), 0) : 0;
    activities_.assign(static_cast<std::size_t>(n), WorkerActivity::Idle);
    gradients_.assign(static_cast<std::size_t>(n), 0.0);
    step_ = -1;
    if (!index_)
        return;
    const Ticks t = playhead_;
    for (int k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(k);
        activities_[i] = index_->activity_at(k, t);
        index_->value_at(k, t, &gradients_[i]);
    }
    // The playhead's step, as every other label names it.
    const auto at = index_->step_at(t);
    step_ = at ? at->step : 0;
    // Only the events added since the last look are scanned for the largest message.
    const auto& events = index_->events();
    if (events.size() < bytesScanned_) {
        bytesScanned_ = 0;
        maxBytes_ = 0;
    }
    for (std::size_t i = bytesScanned_; i < events.size(); ++i)
        if (events[i].kind == EventKind::Send)
            maxBytes_ = std::max(maxBytes_, events[i].bytes);
    bytesScanned_ = events.size();
}

QList<ClusterView::WorkerGlyph> ClusterView::glyphs() const {
    updateStates();
    const ClusterScene& s = scene();
    QList<WorkerGlyph> out;
    out.reserve(s.workers);
    for (int k = 0; k < s.workers; ++k) {
        const auto i = static_cast<std::size_t>(k);
        out.push_back({k, s.centres[i], disc_radius(s, k), activities_[i], gradients_[i]});
    }
    return out;
}

QList<QPair<PacketInFlight, QPointF>> ClusterView::packetGlyphs() const {
    QList<QPair<PacketInFlight, QPointF>> out;
    if (!index_)
        return out;
    for (const auto& [packet, at] : packet_positions(scene(), index_->packets_at(playhead_)))
        out.push_back({packet, at});
    return out;
}

int ClusterView::workerAt(QPointF position) const {
    return worker_at(scene(), position);
}

QString ClusterView::describe() const {
    if (!index_ || index_->workers() <= 0)
        return tr("No run loaded");
    updateStates();
    const int n = index_->workers();
    QStringList parts;
    parts << worker_count(n) + QStringLiteral(", ") +
                 topology_name(index_->algorithm_at(playhead_), true);
    if (!wire_.isEmpty())
        parts << wire_;
    parts << tr("step %1").arg(step_);
    for (WorkerActivity a : kActivities) {
        QStringList who;
        int count = 0;
        for (int k = 0; k < n; ++k) {
            if (activities_[static_cast<std::size_t>(k)] != a)
                continue;
            if (++count <= 8)
                who << QString::number(k);
        }
        const QString label = style_for(a).label;
        if (count == 1)
            parts << tr("worker %1 %2").arg(who.front(), label);
        else if (count > 1 && count <= 8)
            parts << tr("workers %1 %2").arg(who.join(QStringLiteral(", ")), label);
        else if (count > 8)
            parts << tr("%1 workers %2").arg(count).arg(label);
    }
    const StepSnapshot* snapshot = index_->snapshot_at(playhead_);
    if (!scene().replicas)
        parts << scene().topology;
    else if (!snapshot)
        parts << tr("no step finished yet");
    else if (snapshot->replicas_aligned)
        parts << tr("replicas aligned");
    else if (snapshot->replica_distance.size() == static_cast<std::size_t>(n)) {
        QStringList apart;
        for (int k = 0; k < n && k < 8; ++k)
            apart << tr("worker %1 %2")
                         .arg(k)
                         .arg(display_number(
                             snapshot->replica_distance[static_cast<std::size_t>(k)], 'g', 2));
        parts << tr("replicas differ; distance from their mean: %1")
                     .arg(apart.join(QStringLiteral(", ")));
    } else
        parts << tr("replicas differ");
    return parts.join(QStringLiteral("; "));
}

void ClusterView::resizeEvent(QResizeEvent* event) {
    sceneValid_ = false;
    QWidget::resizeEvent(event);
}

void ClusterView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        setAccessibleDescription(describe());
    }
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::StyleChange || event->type() == QEvent::LanguageChange) {
        sceneValid_ = false;
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace lockstep::views
