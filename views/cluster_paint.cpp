// The Cluster view's frames: still pictures on the device pixel grid, then the playhead's state.
#include "lockstep_views/cluster_view.h"

#include "lockstep_views/cluster_painter.h"
#include "lockstep_views/names.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/recovery_caption.h"

#include <QPainter>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace {

// The device pixels per widget pixel when `p` paints at an even scale, shifted by whole device
// pixels and fully opaque, so that pictures made on the device pixel grid fit; else 0.
qreal pixelGrid(const QPainter& p) {
    const QTransform t = p.deviceTransform();
    auto whole = [](qreal v) { return std::abs(v - std::round(v)) < 1e-6; };
    if (t.type() > QTransform::TxScale || t.m11() <= 0 || t.m11() != t.m22() || !whole(t.dx()) ||
        !whole(t.dy()) || p.opacity() < 1.0)
        return 0.0;
    return t.m11();
}

// The smallest rectangle holding every pixel of `image` that is not fully transparent.
QRect paintedArea(const QImage& image) {
    int top = image.height(), bottom = -1, left = image.width(), right = -1;
    for (int y = 0; y < image.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            if (qAlpha(row[x]) != 0) {
                top = std::min(top, y);
                bottom = y;
                left = std::min(left, x);
                right = std::max(right, x);
            }
    }
    return bottom < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
}

// What `draw` paints inside `bounds` (widget coordinates), as a transparent image on the device
// pixel grid at `ratio`, cropped to the pixels it touched; `at` receives its top-left corner in
// device pixels.
template <typename Draw>
QImage paintCropped(const QRectF& bounds, qreal ratio, QPoint& at, Draw&& draw) {
    const QRect device = QRectF(bounds.topLeft() * ratio, bounds.size() * ratio).toAlignedRect();
    at = device.topLeft();
    if (device.isEmpty())
        return {};
    QImage image(device.size(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        p.translate(-QPointF(device.topLeft()) / ratio);
        draw(p);
    }
    const QRect painted = paintedArea(image);
    at += painted.topLeft();
    return painted.isEmpty() ? QImage() : image.copy(painted);
}

void drawPicture(QPainter& p, const QImage& image, QPoint at, qreal ratio) {
    if (!image.isNull())
        p.drawImage(QPointF(at) / ratio, image);
}

} // namespace

// A frame: the pictures of what stays put, then the title, the verdict, the workers and the
// messages at the playhead. Painting off the device pixel grid (a scaled render()) draws all of
// it directly instead.
void ClusterView::paintEvent(QPaintEvent*) {
    updateStates();
    const ClusterScene& s = scene();
    QPainter p(this);
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    const qreal ratio = pixelGrid(p);
    if (ratio > 0) {
        if (pictures_.ratio != ratio)
            makePictures(s, ratio);
        drawPicture(p, pictures_.still.image, pictures_.still.at, ratio);
    } else {
        ClusterPainter(s, palette()).still(p, index_ != nullptr);
    }
    if (index_) {
        const TraceEvent* half = index_->half_at(playhead_); // a sharded all-reduce's, under way
        ClusterPainter(s, palette())
            .title(p, step_, playhead_, half ? half_name(*half) : QString());
        const int v = verdict();
        if (ratio > 0) {
            const Sprite& picture = verdictPicture(s, v);
            drawPicture(p, picture.image, picture.at, ratio);
        } else {
            ClusterPainter(s, palette()).verdict(p, v);
        }
    }
    if (s.workers > 0) {
        drawWorkers(p, s, ratio);
        ClusterPainter(s, palette())
            .packets(p, packet_positions(s, index_->packets_at(playhead_)), maxBytes_);
    }
    if (index_)
        drawRecovery(p, s);
}

// While a recovery is under way, what it is doing, in a box at the foot of the workers' area.
void ClusterView::drawRecovery(QPainter& p, const ClusterScene& s) const {
    const QString caption = recovery_caption(*index_, playhead_);
    if (caption.isEmpty())
        return;
    const qreal line = s.line;
    const QRectF room = s.area;
    p.setFont(font());
    QRectF text = p.fontMetrics().boundingRect(room.adjusted(line, 0, -line, 0).toRect(),
                                               Qt::TextWordWrap, caption);
    text.moveLeft(room.left() + line);
    text.setWidth(room.width() - 2 * line);
    text.moveBottom(room.bottom() - 0.3 * line);
    const QRectF box = text.adjusted(-0.5 * line, -0.3 * line, 0.5 * line, 0.3 * line);
    p.setPen(QPen(palette().color(QPalette::WindowText), 1.5));
    p.setBrush(withAlpha(palette().color(QPalette::Base), 235));
    p.drawRoundedRect(box, 0.4 * line, 0.4 * line);
    p.drawText(text, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignVCenter, caption);
}

// The still picture at `ratio`, with an empty slot for each verdict and each worker's activity.
void ClusterView::makePictures(const ClusterScene& s, qreal ratio) const {
    pictures_ = Pictures{};
    pictures_.ratio = ratio;
    pictures_.workers.resize(static_cast<std::size_t>(s.workers));
    const QSize pixels = QRectF(QPointF(0, 0), QSizeF(size()) * ratio).toAlignedRect().size();
    QImage still(pixels, palette().window().isOpaque() ? QImage::Format_RGB32
                                                       : QImage::Format_ARGB32_Premultiplied);
    still.setDevicePixelRatio(ratio);
    still.fill(Qt::transparent);
    {
        QPainter p(&still);
        p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        ClusterPainter(s, palette()).still(p, index_ != nullptr);
    }
    pictures_.still = {std::move(still), QPoint(0, 0)};
}

const ClusterView::Sprite& ClusterView::verdictPicture(const ClusterScene& s, int verdict) const {
    std::optional<Sprite>& slot = pictures_.verdicts[static_cast<std::size_t>(verdict)];
    if (!slot) {
        const qreal margin = std::max(3.0, 0.25 * s.line);
        Sprite sprite;
        sprite.image = paintCropped(
            s.header.adjusted(-margin, -margin, margin, margin), pictures_.ratio, sprite.at,
            [&](QPainter& p) { ClusterPainter(s, palette()).verdict(p, verdict); });
        slot = std::move(sprite);
    }
    return *slot;
}

const ClusterView::Sprite& ClusterView::workerPicture(const ClusterScene& s, int worker,
                                                      WorkerActivity activity) const {
    const auto i = static_cast<std::size_t>(worker);
    std::optional<Sprite>& slot = pictures_.workers[i][static_cast<std::size_t>(activity)];
    if (!slot) {
        // ClusterPainter::worker stays within the disc, the badge and the label block.
        const QPointF c = s.centres[i];
        const qreal r = disc_radius(s, worker);
        QRectF bounds(c - QPointF(r, r), QSizeF(2 * r, 2 * r));
        if (i < s.slices.size())
            bounds |= s.slices[i].boundingRect();
        if (i < s.badges.size()) {
            const qreal b = badge_radius(s);
            bounds |= QRectF(s.badges[i] - QPointF(b, b), QSizeF(2 * b, 2 * b));
        }
        if (i < s.labelRects.size())
            bounds |= s.labelRects[i];
        const qreal margin = std::max(3.0, 0.25 * s.line);
        Sprite sprite;
        sprite.image = paintCropped(
            bounds.adjusted(-margin, -margin, margin, margin), pictures_.ratio, sprite.at,
            [&](QPainter& p) { ClusterPainter(s, palette()).worker(p, worker, activity, false); });
        slot = std::move(sprite);
    }
    return *slot;
}

// 0 before the first step has finished, 1 when the replicas agreed after the last one, else 2.
int ClusterView::verdict() const {
    const StepSnapshot* snapshot = index_ ? index_->snapshot_at(playhead_) : nullptr;
    return !snapshot ? 0 : snapshot->replicas_aligned ? 1 : 2;
}

// Every worker at the playhead, from its picture when `ratio` > 0 (the focused one directly, its
// ring under the badge), each followed by its gradient bar's fill.
void ClusterView::drawWorkers(QPainter& p, const ClusterScene& s, qreal ratio) const {
    const ClusterPainter painter(s, palette());
    const int focused = hasFocus() ? focusWorker_ : -1;
    qreal gradientScale = 0;
    for (double g : gradients_)
        gradientScale = std::max(gradientScale, std::abs(g));
    // While the replicas differ (local SGD between averagings, a loose run's copies), how far
    // each is from their mean.
    const StepSnapshot* snapshot = index_ ? index_->snapshot_at(playhead_) : nullptr;
    const std::vector<double>* apart =
        snapshot && !snapshot->replicas_aligned &&
                snapshot->replica_distance.size() == static_cast<std::size_t>(s.workers) &&
                snapshot->replica_spread > 0
            ? &snapshot->replica_distance
            : nullptr;
    for (int k = 0; k < s.workers; ++k) {
        const auto i = static_cast<std::size_t>(k);
        if (ratio > 0 && k != focused) {
            const Sprite& picture = workerPicture(s, k, activities_[i]);
            drawPicture(p, picture.image, picture.at, ratio);
        } else {
            painter.worker(p, k, activities_[i], k == focused);
        }
        painter.gradient(p, k, gradientScale > 0 ? gradients_[i] / gradientScale : 0.0);
        if (apart)
            painter.distance(p, k, (*apart)[i], (*apart)[i] / snapshot->replica_spread);
    }
    if (apart && s.numbers && s.labels)
        painter.distanceCaption(p);
}

} // namespace lockstep::views
