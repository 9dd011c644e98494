// The Controls panel: its fields, their texts in the language in use, and how it arranges them.

#include "controls_panel.h"

#include <algorithm>

#include "lockstep_views/names.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMetaObject>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lockstep::app {

namespace {

// The items' data are the engine's values; retranslate() gives them their names.
template <typename E> void fill(QComboBox* box, std::initializer_list<E> values) {
    for (E v : values)
        box->addItem(QString(), static_cast<int>(v));
}

// Each item's text, its name in the language in use, from its data.
template <typename E, typename Name> void name_items(QComboBox* box, Name name) {
    for (int i = 0; i < box->count(); ++i)
        box->setItemText(i, name(static_cast<E>(box->itemData(i).toInt())));
}

} // namespace

ControlsPanel::ControlsPanel(const LabSession& session, QWidget* parent)
    : QWidget(parent)
    , session_(session) {
    workers_ = new QSpinBox;
    workers_->setRange(1, ScenarioLimits::max_workers);
    algorithm_ = new QComboBox;
    fill(algorithm_, {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer,
                      Algorithm::Hierarchical, Algorithm::None});
    rule_ = new QComboBox;
    fill(rule_, {ReductionRule::Mean, ReductionRule::Sum, ReductionRule::WeightedMean});
    learning_rate_ = new QDoubleSpinBox;
    learning_rate_->setDecimals(4);
    learning_rate_->setRange(0.0001, 100.0); // what a scenario may hold (optimizer.lr)
    learning_rate_->setSingleStep(0.01);
    learning_rate_->setKeyboardTracking(false); // a change once typed, not per keystroke
    shards_ = new QLineEdit;
    slowdown_ = new QLineEdit;
    clock_ = new QComboBox;
    fill(clock_, {ClockKind::Modelled, ClockKind::Measured});
    seed_ = new QSpinBox;
    seed_->setRange(0, 1'000'000'000);
    steps_ = new QSpinBox;
    steps_->setRange(1, static_cast<int>(ScenarioLimits::max_steps));
    sync_ = new QComboBox;
    // The modes' names; the tooltip says what each is.
    fill(sync_, {SyncMode::Bsp, SyncMode::Ssp, SyncMode::Async, SyncMode::Local});
    sync_setting_ = new QSpinBox;
    bucket_kb_ = new QSpinBox;
    bucket_kb_->setRange(0, static_cast<int>(ScenarioLimits::max_bucket_kb));
    bucket_kb_->setSingleStep(8);
    overlap_ = new QComboBox;
    overlap_->addItem(QString(), true);
    overlap_->addItem(QString(), false);
    accumulate_ = new QSpinBox;
    accumulate_->setRange(1, ScenarioLimits::max_accumulate);
    sharding_ = new QComboBox;
    fill(sharding_,
         {Sharding::None, Sharding::Optimizer, Sharding::Gradients, Sharding::Parameters});
    precision_ = new QComboBox;
    fill(precision_, {Precision::Float64, Precision::Float32});
    wire_ = new QComboBox;
    fill(wire_, {WirePrecision::Float64, WirePrecision::Float32, WirePrecision::Float16,
                 WirePrecision::BFloat16});
    run_ = new QPushButton;
    run_->setObjectName(QStringLiteral("run"));
    run_->setDefault(true);

    for (QWidget* field : {static_cast<QWidget*>(workers_), static_cast<QWidget*>(algorithm_),
                           static_cast<QWidget*>(rule_), static_cast<QWidget*>(learning_rate_),
                           static_cast<QWidget*>(shards_), static_cast<QWidget*>(slowdown_),
                           static_cast<QWidget*>(clock_), static_cast<QWidget*>(seed_),
                           static_cast<QWidget*>(steps_), static_cast<QWidget*>(sync_),
                           static_cast<QWidget*>(sync_setting_), static_cast<QWidget*>(bucket_kb_),
                           static_cast<QWidget*>(overlap_), static_cast<QWidget*>(accumulate_),
                           static_cast<QWidget*>(sharding_), static_cast<QWidget*>(precision_),
                           static_cast<QWidget*>(wire_)}) {
        auto* label = new QLabel;
        label->setBuddy(field);
        // Fields take the room there is; their text scrolls inside them.
        field->setMinimumWidth(60);
        field->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        fields_.push_back({label, field});
        if (field == sync_setting_)
            sync_setting_label_ = label;
    }
    retranslate();
    // The one setting a looser mode has: its staleness bound (ssp) or its local steps (local).
    connect(sync_setting_, &QSpinBox::valueChanged, this, [this](int value) {
        const auto mode = static_cast<SyncMode>(sync_->currentData().toInt());
        if (mode == SyncMode::Ssp)
            staleness_value_ = value;
        else if (mode == SyncMode::Local)
            local_steps_value_ = value;
    });
    for (QComboBox* box :
         {algorithm_, rule_, clock_, sync_, overlap_, sharding_, precision_, wire_})
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    // Bounded staleness and asynchronous updates go through the parameter server; each mode's
    // own setting is there to change only with that mode.
    connect(sync_, &QComboBox::activated, this, [this] {
        const auto mode = static_cast<SyncMode>(sync_->currentData().toInt());
        if (mode == SyncMode::Ssp || mode == SyncMode::Async)
            algorithm_->setCurrentIndex(
                algorithm_->findData(static_cast<int>(Algorithm::ParameterServer)));
        showSyncSettings();
    });
    connect(run_, &QPushButton::clicked, this, &ControlsPanel::requestRun);
    // What waits for Run is said under it as soon as it is typed; Enter in such a field runs.
    pending_ = new QLabel;
    pending_->setObjectName(QStringLiteral("pending"));
    pending_->setWordWrap(true);
    pending_->setTextFormat(Qt::PlainText);
    pending_->hide();
    connect(workers_, &QSpinBox::valueChanged, this, &ControlsPanel::updatePending);
    connect(seed_, &QSpinBox::valueChanged, this, &ControlsPanel::updatePending);
    connect(steps_, &QSpinBox::valueChanged, this, &ControlsPanel::updatePending);
    connect(shards_, &QLineEdit::textChanged, this, &ControlsPanel::updatePending);
    connect(clock_, &QComboBox::currentIndexChanged, this, &ControlsPanel::updatePending);
    connect(bucket_kb_, &QSpinBox::valueChanged, this, &ControlsPanel::updatePending);
    connect(overlap_, &QComboBox::currentIndexChanged, this, &ControlsPanel::updatePending);
    connect(accumulate_, &QSpinBox::valueChanged, this, &ControlsPanel::updatePending);
    connect(sharding_, &QComboBox::currentIndexChanged, this, &ControlsPanel::updatePending);
    connect(precision_, &QComboBox::currentIndexChanged, this, &ControlsPanel::updatePending);
    connect(wire_, &QComboBox::currentIndexChanged, this, &ControlsPanel::updatePending);
    for (QWidget* field : {static_cast<QWidget*>(workers_), static_cast<QWidget*>(seed_),
                           static_cast<QWidget*>(steps_), static_cast<QWidget*>(shards_),
                           static_cast<QWidget*>(bucket_kb_), static_cast<QWidget*>(accumulate_)})
        field->installEventFilter(this);
    // What a run can take as it goes, asked for as soon as the user has chosen or typed it.
    for (QComboBox* box : {algorithm_, rule_, sync_})
        connect(box, &QComboBox::activated, this, &ControlsPanel::changeRequested);
    connect(sync_setting_, &QSpinBox::valueChanged, this, &ControlsPanel::changeRequested);
    connect(learning_rate_, &QDoubleSpinBox::valueChanged, this, &ControlsPanel::changeRequested);
    connect(slowdown_, &QLineEdit::editingFinished, this, [this] {
        if (slowdown_->isModified()) {
            slowdown_->setModified(false);
            Q_EMIT changeRequested();
        }
    });

    // The fields scroll when the panel is shorter than they are, so it never sets the window's
    // smallest size.
    inner_ = new QWidget;
    grid_ = new QGridLayout(inner_);
    auto* scroll = new QScrollArea;
    scroll->setWidget(inner_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    arrange();
    setFocusProxy(workers_); // F6 and setFocus() land on the first control
}

void ControlsPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        updatePending();
    }
    QWidget::changeEvent(event);
}

// Enter in a field only a new run can take: the field reads its text first, then the run starts.
bool ControlsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter)
            QMetaObject::invokeMethod(
                this,
                [this] {
                    if (!pendingText().isEmpty())
                        requestRun();
                },
                Qt::QueuedConnection);
    }
    return QWidget::eventFilter(watched, event);
}

// Every text the panel shows, in the language in use.
void ControlsPanel::retranslate() {
    shards_->setPlaceholderText(tr("equal"));
    slowdown_->setPlaceholderText(tr("all 1 (full speed)"));
    name_items<Algorithm>(algorithm_, views::algorithm_name);
    name_items<ReductionRule>(rule_, views::rule_name);
    name_items<ClockKind>(clock_, views::clock_name);
    name_items<SyncMode>(sync_, views::sync_name);
    bucket_kb_->setSuffix(tr(" KB"));
    bucket_kb_->setSpecialValueText(tr("one bucket"));
    overlap_->setItemText(0, tr("during backward"));
    overlap_->setItemText(1, tr("after backward"));
    accumulate_->setSpecialValueText(tr("none"));
    name_items<Sharding>(sharding_, [](Sharding s) {
        switch (s) {
        case Sharding::Optimizer:
            return tr("ZeRO 1: optimizer");
        case Sharding::Gradients:
            return tr("ZeRO 2: + gradients");
        case Sharding::Parameters:
            return tr("ZeRO 3: + parameters");
        case Sharding::None:
            break;
        }
        return tr("none (full replicas)");
    });
    // The formats by their own names, the same in every language.
    const auto named = [](std::string_view name) {
        return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    };
    name_items<Precision>(precision_, [&](Precision p) { return named(to_string(p)); });
    name_items<WirePrecision>(wire_, [&](WirePrecision w) {
        return w == WirePrecision::Float64 ? tr("as the model") : named(to_string(w));
    });
    const struct {
        QWidget* widget;
        QString label;
        QString description;
    } rows[] = {
        {workers_, tr("&Workers"), tr("How many replicas train together")},
        {algorithm_, tr("&Collective"),
         tr("How gradients travel between workers; none means no synchronisation")},
        {rule_, tr("Re&duction rule"),
         tr("How gradients are combined: sum, equal-weight mean, or mean weighted by samples")},
        {learning_rate_, tr("Learning r&ate"),
         tr("How far each update moves the weights along the combined gradient")},
        {shards_, tr("Shard si&zes"),
         tr("Rows of data per worker, separated by commas; empty for equal shards")},
        {slowdown_, tr("Sl&owdown"),
         tr("Per worker, how many times slower it computes, e.g. 1,1,3,1")},
        {clock_, tr("C&lock"),
         tr("Modelled: the cost model, the same everywhere. Measured: this computer's real time")},
        {seed_, tr("S&eed"), tr("Seeds the data, the initial weights and every random choice")},
        {steps_, tr("S&teps"), tr("Training steps to run")},
        {sync_, tr("A&greement"),
         tr("How often the workers agree. bsp: every step. ssp: a worker waits only when the "
            "slowest is more than the bound behind. async: never; each gradient is applied as "
            "it arrives. local: each replica takes H steps alone, then they average")},
        {sync_setting_, tr("Stale&ness (S)"),
         tr("ssp: how many steps a worker may run ahead of the slowest. local: the steps each "
            "replica takes on its own between two averagings")},
        {bucket_kb_, tr("&Buckets"),
         tr("Gradients leave in buckets of at most this size, the last layers first; one "
            "bucket: the whole gradient after backward")},
        {overlap_, tr("Overlap &mode"),
         tr("When a bucket's collective starts: as soon as its layers are done, while backward "
            "goes on, or after backward")},
        {accumulate_, tr("Acc&umulate"),
         tr("Micro-batches each worker adds up before one reduction; the batch is then the "
            "micro-batch")},
        {sharding_, tr("Sharding"),
         tr("What each worker keeps only its share of: ZeRO 1 the optimizer state, ZeRO 2 the "
            "gradients too, ZeRO 3 (FSDP) the parameters too, gathered layer by layer when "
            "needed")},
        {precision_, tr("Precision"),
         tr("The numbers the model trains in: float64 (8 bytes a number), or float32 (4 bytes, "
            "fewer digits)")},
        {wire_, tr("On the wire"),
         tr("The format the gradients travel and are added in: float32 4 bytes a number, "
            "float16 and bfloat16 2; each sum is rounded to it, and a step whose sum overflows "
            "is skipped")},
    };
    for (const auto& row : rows) {
        for (const auto& [label, widget] : fields_)
            if (widget == row.widget)
                label->setText(row.label);
        row.widget->setAccessibleName(QString(row.label).remove(QLatin1Char('&')));
        row.widget->setAccessibleDescription(row.description);
        row.widget->setToolTip(row.description);
    }
    nameSyncSetting();
    run_->setText(tr("&Run"));
    run_->setAccessibleName(tr("Run"));
    run_->setAccessibleDescription(tr("Start a new run with these settings"));
    setAccessibleName(tr("Controls"));
}

QSize ControlsPanel::sizeHint() const {
    return inner_->sizeHint(); // all the fields, unscrolled, in the current arrangement
}

void ControlsPanel::setWide(bool wide) {
    if (wide == wide_)
        return;
    wide_ = wide;
    arrange();
}

int ControlsPanel::wideHeightHint() const {
    int row = run_->sizeHint().height();
    for (const auto& [label, widget] : fields_)
        row = std::max({row, label->sizeHint().height(), widget->sizeHint().height()});
    const int cells = static_cast<int>(fields_.size()) + 1; // the fields and Run
    const int rows = (cells + kWidePerRow - 1) / kWidePerRow + (pending_->isHidden() ? 0 : 1);
    const QMargins margins = grid_->contentsMargins();
    return rows * row + (rows - 1) * grid_->verticalSpacing() + margins.top() + margins.bottom();
}

// Tall: one field a row, Run below. Wide (under the views): kWidePerRow fields a row, Run last.
void ControlsPanel::arrange() {
    while (grid_->count() > 0)
        delete grid_->takeAt(0);
    for (int c = 0; c < grid_->columnCount(); ++c)
        grid_->setColumnStretch(c, 0);
    for (int r = 0; r < grid_->rowCount(); ++r)
        grid_->setRowStretch(r, 0);
    const int per_row = wide_ ? kWidePerRow : 1;
    int i = 0;
    for (const auto& [label, widget] : fields_) {
        const int row = i / per_row, column = 2 * (i % per_row);
        grid_->addWidget(label, row, column);
        grid_->addWidget(widget, row, column + 1);
        ++i;
    }
    if (wide_) {
        grid_->addWidget(run_, i / per_row, 2 * (i % per_row) + 1);
        grid_->addWidget(pending_, i / per_row + 1, 0, 1, 2 * per_row);
        for (int c = 0; c < per_row; ++c)
            grid_->setColumnStretch(2 * c + 1, 1);
        grid_->setRowStretch(i / per_row + 2, 1);
    } else {
        grid_->addWidget(run_, i, 0, 1, 2);
        grid_->addWidget(pending_, i + 1, 0, 1, 2);
        grid_->setColumnStretch(1, 1);
        grid_->setRowStretch(i + 2, 1);
    }
}

} // namespace lockstep::app
