#include "lockstep_views/accessibility.h"

#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/names.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/pipeline_view.h"
#include "lockstep_views/timeline_view.h"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QCoreApplication>
#include <QLocale>
#include <QPointer>
#include <QWidget>
#include <QWindow>

#include <memory>
#include <vector>

namespace lockstep::views {

namespace {

// One child of a view: what it is called, what it holds now, where it is (in the view's
// coordinates). Worked out from the view each time a screen reader asks.
struct Item {
    QString name;
    QString value;
    QRectF rect;
    bool focused = false;
};

// What a view offers as children: how many, and each one.
class Items {
public:
    virtual ~Items() = default;
    virtual int count() const = 0;
    virtual Item item(int i) const = 0;
};

class ClusterItems final : public Items {
public:
    explicit ClusterItems(const ClusterView* view)
        : view_(view) {}
    int count() const override { return static_cast<int>(view_->glyphs().size()); }
    Item item(int i) const override {
        const auto glyphs = view_->glyphs();
        if (i < 0 || i >= glyphs.size())
            return {};
        const ClusterView::WorkerGlyph& g = glyphs[i];
        Item out;
        out.name = QCoreApplication::translate("Accessibility", "Worker %1").arg(g.worker);
        QString doing = style_for(g.activity).label;
        const TraceIndex* index = view_->trace();
        if (const TraceEvent* e = index ? index->event_at(g.worker, view_->playhead()) : nullptr) {
            if (g.activity == WorkerActivity::Waiting && e->peer >= 0)
                doing = QCoreApplication::translate("Accessibility", "waiting for worker %1")
                            .arg(e->peer);
            else if (e->kind == EventKind::Send && e->peer >= 0)
                doing = QCoreApplication::translate("Accessibility", "sending to worker %1")
                            .arg(e->peer);
            else if (e->kind == EventKind::Receive && e->peer >= 0)
                doing = QCoreApplication::translate("Accessibility", "receiving from worker %1")
                            .arg(e->peer);
        }
        out.value = QCoreApplication::translate("Accessibility", "%1; gradient %2")
                        .arg(doing, QLocale().toString(g.gradient, 'g', 3));
        out.rect =
            QRectF(g.centre.x() - g.radius, g.centre.y() - g.radius, 2 * g.radius, 2 * g.radius);
        out.focused = view_->hasFocus() && view_->chosenWorker() == g.worker;
        return out;
    }

private:
    const ClusterView* view_;
};

class TimelineItems final : public Items {
public:
    explicit TimelineItems(const TimelineView* view)
        : view_(view) {}
    int count() const override { return view_->trace() ? view_->trace()->workers() : 0; }
    Item item(int i) const override {
        Item out;
        out.name = QCoreApplication::translate("Accessibility", "Lane of worker %1").arg(i);
        const TraceIndex* index = view_->trace();
        const TraceEvent* e = index ? index->event_at(i, view_->playhead()) : nullptr;
        out.value = e ? TimelineView::describe(*e).replace(QLatin1Char('\n'), QStringLiteral("; "))
                      : QCoreApplication::translate("Accessibility", "idle at the playhead");
        out.rect = view_->laneRect(i);
        return out;
    }

private:
    const TimelineView* view_;
};

class ShelfItems final : public Items {
public:
    explicit ShelfItems(const CheckpointView* view)
        : view_(view) {}
    // Each shown checkpoint: its files, one per worker, then its manifest.
    int count() const override {
        const CheckpointShelf s = view_->shelf(view_->playhead());
        int n = 0;
        for (const ShelfCheckpoint& c : s.checkpoints)
            n += static_cast<int>(c.files.size()) + 1;
        return n;
    }
    Item item(int i) const override {
        const CheckpointShelf s = view_->shelf(view_->playhead());
        for (int column = 0; column < static_cast<int>(s.checkpoints.size()); ++column) {
            const ShelfCheckpoint& c = s.checkpoints[static_cast<std::size_t>(column)];
            const int boxes = static_cast<int>(c.files.size()) + 1;
            if (i >= boxes) {
                i -= boxes;
                continue;
            }
            const int worker = i < static_cast<int>(c.files.size())
                                   ? c.files[static_cast<std::size_t>(i)].worker
                                   : -1;
            Item out;
            out.name =
                worker >= 0
                    ? QCoreApplication::translate("Accessibility", "Step %1, file of worker %2")
                          .arg(c.step)
                          .arg(worker)
                    : QCoreApplication::translate("Accessibility", "Step %1, manifest").arg(c.step);
            out.value = view_->describeBox(column, worker);
            out.rect = view_->boxRect(column, worker);
            return out;
        }
        return {};
    }

private:
    const CheckpointView* view_;
};

class PipelineItems final : public Items {
public:
    explicit PipelineItems(const PipelineView* view)
        : view_(view) {}
    int count() const override {
        if (!view_->notPipelineText().isEmpty())
            return 0; // a data-parallel run: the view shows words, not a grid
        const PipelineGrid& g = view_->currentGrid();
        return static_cast<int>(g.boxes.size() + g.bubbles.size());
    }
    Item item(int i) const override {
        const PipelineGrid& g = view_->currentGrid();
        const std::size_t at = static_cast<std::size_t>(i);
        if (i < 0 || at >= g.boxes.size() + g.bubbles.size())
            return {};
        const PipelineBox& b = at < g.boxes.size() ? g.boxes[at] : g.bubbles[at - g.boxes.size()];
        Item out;
        const QString what =
            b.kind == EventKind::Bubble ? QCoreApplication::translate("Accessibility", "bubble")
            : b.microbatch >= 0
                ? QCoreApplication::translate("Accessibility", "%1 of micro-batch %2")
                      .arg(event_name(b.kind))
                      .arg(b.microbatch)
                : event_name(b.kind);
        out.name =
            QCoreApplication::translate("Accessibility", "Stage %1: %2").arg(b.lane).arg(what);
        const bool done = b.end <= view_->playhead();
        const bool started = b.start <= view_->playhead();
        out.value = QCoreApplication::translate("Accessibility", "%1 to %2 ms; %3")
                        .arg(QLocale().toString(to_seconds(b.start - g.start) * 1e3, 'f', 2),
                             QLocale().toString(to_seconds(b.end - g.start) * 1e3, 'f', 2),
                             done      ? QCoreApplication::translate("Accessibility", "done")
                             : started ? QCoreApplication::translate("Accessibility", "running")
                                       : QCoreApplication::translate("Accessibility", "to come"));
        out.rect = view_->boxRect(b);
        return out;
    }

private:
    const PipelineView* view_;
};

class ItemInterface;

// A view with children: its own child widgets first (buttons), then its items.
class ViewInterface final : public QAccessibleWidget {
public:
    ViewInterface(QWidget* view, std::unique_ptr<Items> items)
        : QAccessibleWidget(view, QAccessible::List)
        , items_(std::move(items)) {}
    ~ViewInterface() override {
        for (QAccessible::Id id : ids_)
            QAccessible::deleteAccessibleInterface(id);
    }
    int childCount() const override { return QAccessibleWidget::childCount() + items_->count(); }
    QAccessibleInterface* child(int index) const override;
    int indexOfChild(const QAccessibleInterface* child) const override;
    QAccessibleInterface* childAt(int x, int y) const override;
    const Items& items() const { return *items_; }
    int widgetChildren() const { return QAccessibleWidget::childCount(); }

private:
    std::unique_ptr<Items> items_;
    mutable std::vector<QAccessible::Id> ids_; // the item interfaces, by item index
};

class ItemInterface final : public QAccessibleInterface {
public:
    ItemInterface(QWidget* view, int index)
        : view_(view)
        , index_(index) {}
    bool isValid() const override { return view_ && owner() && index_ < owner()->items().count(); }
    QObject* object() const override { return nullptr; }
    QWindow* window() const override { return view_ ? view_->window()->windowHandle() : nullptr; }
    QAccessibleInterface* parent() const override {
        return view_ ? QAccessible::queryAccessibleInterface(view_) : nullptr;
    }
    QAccessibleInterface* child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface*) const override { return -1; }
    QAccessibleInterface* childAt(int, int) const override { return nullptr; }
    QString text(QAccessible::Text t) const override {
        if (!isValid())
            return {};
        const Item it = owner()->items().item(index_);
        switch (t) {
        case QAccessible::Name:
            return it.name;
        case QAccessible::Value:
        case QAccessible::Description:
            return it.value;
        default:
            return {};
        }
    }
    void setText(QAccessible::Text, const QString&) override {}
    QRect rect() const override {
        if (!isValid())
            return {};
        const QRectF r = owner()->items().item(index_).rect;
        return QRect(view_->mapToGlobal(r.topLeft().toPoint()), r.size().toSize());
    }
    QAccessible::Role role() const override { return QAccessible::ListItem; }
    QAccessible::State state() const override {
        QAccessible::State s;
        if (!isValid()) {
            s.invalid = true;
            return s;
        }
        s.focusable = true;
        s.selectable = true;
        s.readOnly = true;
        s.focused = owner()->items().item(index_).focused;
        s.invisible = !view_->isVisible() || owner()->items().item(index_).rect.isEmpty();
        return s;
    }
    int index() const { return index_; }
    const QWidget* view() const { return view_; }

private:
    const ViewInterface* owner() const {
        return static_cast<const ViewInterface*>(QAccessible::queryAccessibleInterface(view_));
    }
    QPointer<QWidget> view_;
    int index_;
};

QAccessibleInterface* ViewInterface::child(int index) const {
    const int widgets = widgetChildren();
    if (index < widgets)
        return QAccessibleWidget::child(index);
    const int item = index - widgets;
    if (item < 0 || item >= items_->count())
        return nullptr;
    while (ids_.size() <= static_cast<std::size_t>(item))
        ids_.push_back(QAccessible::registerAccessibleInterface(
            new ItemInterface(widget(), static_cast<int>(ids_.size()))));
    return QAccessible::accessibleInterface(ids_[static_cast<std::size_t>(item)]);
}

int ViewInterface::indexOfChild(const QAccessibleInterface* child) const {
    if (const auto* item = dynamic_cast<const ItemInterface*>(child))
        return item->view() == widget() ? widgetChildren() + item->index() : -1;
    return QAccessibleWidget::indexOfChild(child);
}

QAccessibleInterface* ViewInterface::childAt(int x, int y) const {
    const QPoint local = widget()->mapFromGlobal(QPoint(x, y));
    for (int i = 0; i < items_->count(); ++i)
        if (items_->item(i).rect.contains(local))
            return child(widgetChildren() + i);
    return QAccessibleWidget::childAt(x, y);
}

QAccessibleInterface* factory(const QString&, QObject* object) {
    auto* widget = qobject_cast<QWidget*>(object);
    if (!widget)
        return nullptr;
    if (auto* v = qobject_cast<ClusterView*>(widget))
        return new ViewInterface(v, std::make_unique<ClusterItems>(v));
    if (auto* v = qobject_cast<TimelineView*>(widget))
        return new ViewInterface(v, std::make_unique<TimelineItems>(v));
    if (auto* v = qobject_cast<CheckpointView*>(widget))
        return new ViewInterface(v, std::make_unique<ShelfItems>(v));
    if (auto* v = qobject_cast<PipelineView*>(widget))
        return new ViewInterface(v, std::make_unique<PipelineItems>(v));
    return nullptr;
}

} // namespace

void install_accessibility() {
    static bool installed = false;
    if (installed)
        return;
    installed = true;
    QAccessible::installFactory(factory);
}

} // namespace lockstep::views
