// The projector's window's widgets: where to join, the lobby, the question and its answers, the
// scores and the buttons.

#include "class_window.h"

#include "qr_code.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScreen>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lockstep::app {

namespace {

// A label for a projector: large, wrapped, and plain text always, so that a student's name such
// as "<b>Ana</b>" is shown as typed.
QLabel* plain_label(int point_size, bool bold, QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    QFont f = label->font();
    f.setPointSize(point_size);
    f.setBold(bold);
    label->setFont(f);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

void ClassWindow::build() {
    title_ = plain_label(20, true, this);
    title_->setProperty("lockstep_content", true); // the bank's title, from its language file
    join_ = plain_label(26, true, this);
    code_ = plain_label(26, true, this);
    auto* qr = new QrCode(this);
    qr_ = qr;
    lobby_ = plain_label(16, false, this);
    students_ = new QListWidget(this);
    QFont list_font = students_->font();
    list_font.setPointSize(14);
    students_->setFont(list_font);
    students_->setMinimumWidth(240);
    // A flood of made-up names is selected together and removed at once.
    students_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    lock_ = new QCheckBox(this);
    remove_ = new QPushButton(this);
    names_ = new QCheckBox(this);
    ranking_ = new QCheckBox(this);
    show_histogram_ = new QCheckBox(this);
    phase_ = plain_label(16, true, this);
    question_ = plain_label(18, false, this);
    question_->setProperty("lockstep_content", true); // the question and its numbers
    question_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    count_ = plain_label(18, true, this);
    histogram_ = new AnswerHistogram(this);
    reveal_ = plain_label(15, false, this);
    reveal_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    scores_ = new QTableWidget(0, 2, this);
    scores_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    scores_->verticalHeader()->hide();
    scores_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    advance_ = new QPushButton(this);
    advance_->setDefault(true);
    QFont big = advance_->font();
    big.setPointSize(14);
    advance_->setFont(big);
    advance_->setMinimumHeight(44);
    replay_ = new QPushButton(this);
    replay_->setFont(big);
    export_ = new QPushButton(this);
    export_->setFont(big);
    reports_ = new QPushButton(this);
    reports_->setFont(big);
    back_ = new QPushButton(this);
    back_->setFont(big);
    skip_ = new QPushButton(this);
    skip_->setFont(big);
    timer_ = new QComboBox(this);
    for (int seconds : {0, 20, 30, 60, 90, 120, 300})
        timer_->addItem(QString(), seconds); // the words: retranslate()
    retranslate();

    auto* head = new QHBoxLayout;
    auto* where = new QVBoxLayout;
    where->addWidget(title_);
    where->addWidget(join_);
    where->addWidget(code_);
    where->addStretch();
    head->addLayout(where, 1);
    head->addWidget(qr_, 0, Qt::AlignTop);

    auto* side = new QVBoxLayout;
    side->addWidget(lobby_);
    side->addWidget(students_, 1);
    side->addWidget(remove_);
    side->addWidget(lock_);
    side->addWidget(names_);
    side->addWidget(ranking_);
    side->addWidget(show_histogram_);
    side->addWidget(timer_);

    auto* main = new QVBoxLayout;
    main->addWidget(phase_);
    main->addWidget(question_);
    main->addWidget(count_);
    main->addWidget(histogram_);
    main->addWidget(reveal_, 1);
    main->addWidget(scores_, 1);
    // What is hidden leaves its room below the question, not between the lines; refresh() gives
    // the room to the reveal and the scores when they show.
    main_ = main;
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(back_);
    buttons->addWidget(advance_);
    buttons->addWidget(skip_);
    buttons->addWidget(replay_);
    buttons->addStretch();
    buttons->addWidget(export_);
    buttons->addWidget(reports_);
    main->addLayout(buttons);

    auto* body = new QHBoxLayout;
    body->addLayout(main, 3);
    body->addLayout(side, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 16, 24, 16);
    layout->addLayout(head);
    layout->addLayout(body, 1);

    connect(advance_, &QPushButton::clicked, this, &ClassWindow::advance);
    connect(replay_, &QPushButton::clicked, this, [this] {
        const QString link = quiz_->reveal_text().run;
        if (!link.isEmpty())
            Q_EMIT replayRequested(link);
    });
    connect(export_, &QPushButton::clicked, this, &ClassWindow::exportDialog);
    connect(reports_, &QPushButton::clicked, this, &ClassWindow::reportsDialog);
    connect(back_, &QPushButton::clicked, this, [this] {
        quiz_->back();
        refresh();
    });
    connect(skip_, &QPushButton::clicked, this, [this] {
        quiz_->skip();
        refresh();
    });
    connect(timer_, &QComboBox::activated, this, [this](int index) {
        quiz_->set_timer(timer_->itemData(index).toInt());
        refresh();
    });
    for (QCheckBox* box : {names_, ranking_, show_histogram_})
        connect(box, &QCheckBox::toggled, this, &ClassWindow::setView);
    connect(lock_, &QCheckBox::toggled, this, [this](bool on) { quiz_->set_locked(on); });
    connect(remove_, &QPushButton::clicked, this, &ClassWindow::removeSelected);
    connect(students_, &QListWidget::itemSelectionChanged, this,
            [this] { remove_->setEnabled(!students_->selectedItems().isEmpty()); });
    // As large as a projector's 1280x800, never larger than the screen it opens on.
    const QSize want(1280, 800);
    resize(screen() ? want.boundedTo(screen()->availableGeometry().size()) : want);
}

} // namespace lockstep::app
