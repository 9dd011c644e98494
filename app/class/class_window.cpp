// The class quiz in the lab: the dialog that starts it and the projector's window.
#include "class_window.h"

#include "lockstep_class/class_api.h"
#include "lockstep_views/palette.h"

#include "core/error.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace lockstep::app {

namespace {

constexpr int kRedrawMs = 100;

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

// A form row's label, its text set by retranslate(); the field is its buddy, for the mnemonic.
QLabel* buddy_label(QWidget* field) {
    auto* label = new QLabel(field->parentWidget());
    label->setBuddy(field);
    return label;
}

void set_form_label(QFormLayout* form, QWidget* field, const QString& text) {
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(field)))
        label->setText(text);
}

// The label of the histogram's bar of right answers, as the quiz names it (lessons' texts).
QString right_bar_label() {
    return QCoreApplication::translate("Lockstep", "right", "histogram bar");
}

// The QR code of the students' address, drawn from libqrencode's modules.
class QrCode : public QWidget {
public:
    explicit QrCode(QWidget* parent)
        : QWidget(parent) {
        setMinimumSize(160, 160);
        setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
        setFixedSize(220, 220);
        retranslate();
    }
    void setText(const QString& text) {
        modules_ = classroom::qr_modules(text);
        setAccessibleDescription(text);
        update();
    }

protected:
    void changeEvent(QEvent* event) override {
        if (event->type() == QEvent::LanguageChange)
            retranslate();
        QWidget::changeEvent(event);
    }
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), Qt::white);
        if (modules_.empty())
            return;
        const int n = int(modules_.size()) + 8; // a quiet zone of four modules each side
        const double cell = double(std::min(width(), height())) / n;
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::black);
        for (int y = 0; y < int(modules_.size()); ++y)
            for (int x = 0; x < int(modules_.size()); ++x)
                if (modules_[std::size_t(y)][std::size_t(x)])
                    p.drawRect(QRectF((x + 4) * cell, (y + 4) * cell, cell + 0.5, cell + 0.5));
    }

private:
    void retranslate() {
        setAccessibleName(
            QCoreApplication::translate("QrCode", "QR code of the students' address"));
    }

    std::vector<std::vector<bool>> modules_;
};

// Whose numbers the projector shows: the first student still in the class.
QString example_name(const classroom::ClassQuiz& q) {
    for (const classroom::Student& s : q.students())
        if (!s.removed)
            return s.display;
    return {};
}

QString phase_words(classroom::Phase phase) {
    switch (phase) {
    case classroom::Phase::Lobby:
        return QCoreApplication::translate("ClassWindow", "Lobby: students are joining");
    case classroom::Phase::Open:
        return QCoreApplication::translate("ClassWindow", "Answering");
    case classroom::Phase::Closed:
        return QCoreApplication::translate("ClassWindow", "Answers closed");
    case classroom::Phase::Revealed:
        return QCoreApplication::translate("ClassWindow", "The answer");
    case classroom::Phase::Finished:
        return QCoreApplication::translate("ClassWindow", "Scores");
    }
    return {};
}

} // namespace

// --- the dialog ---------------------------------------------------------------------------------

ClassQuizDialog::ClassQuizDialog(const lessons::LessonLibrary& library, QWidget* parent)
    : QDialog(parent)
    , library_(library) {
    for (const lessons::QuizBank& b : library_.banks())
        banks_.push_back(&b);
    // Reductions first: the quiz every course starts with.
    std::stable_partition(banks_.begin(), banks_.end(), [](const lessons::QuizBank* b) {
        return b->id == QLatin1String("reductions");
    });
    auto* form = new QFormLayout;
    form_ = form;
    bank_ = new QComboBox(this);
    for (const lessons::QuizBank* b : banks_)
        bank_->addItem(b->title.isEmpty() ? b->id : b->title, b->id);
    form->addRow(buddy_label(bank_), bank_);
    questions_ = new QListWidget(this);
    questions_->setMinimumHeight(200);
    form->addRow(buddy_label(questions_), questions_);
    port_ = new QSpinBox(this);
    port_->setRange(1024, 65535);
    port_->setValue(8080);
    form->addRow(buddy_label(port_), port_);
    bind_ = new QComboBox(this);
    bind_->addItem(QString(), QString()); // every classroom address: named in retranslate()
    for (const QHostAddress& a : classroom::lan_addresses())
        bind_->addItem(a.toString(), a.toString());
    form->addRow(buddy_label(bind_), bind_);
    auto* note = new QLabel(this);
    note_ = note;
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    start_ = buttons->button(QDialogButtonBox::Ok);
    retranslate();
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (questions().empty()) {
            QMessageBox::information(this, windowTitle(), tr("Tick at least one question."));
            return;
        }
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    connect(bank_, &QComboBox::currentIndexChanged, this, [this] { fillQuestions(); });
    fillQuestions();
    resize(560, 480);
}

void ClassQuizDialog::retranslate() {
    setWindowTitle(tr("Start a Class Quiz"));
    bank_->setAccessibleName(tr("Quiz bank"));
    set_form_label(form_, bank_, tr("&Quiz:"));
    questions_->setAccessibleName(tr("Questions to ask"));
    set_form_label(form_, questions_, tr("Q&uestions:"));
    port_->setAccessibleName(tr("Port"));
    set_form_label(form_, port_, tr("&Port:"));
    bind_->setItemText(0, tr("Every classroom address of this computer"));
    bind_->setAccessibleName(tr("Address to listen on"));
    set_form_label(form_, bind_, tr("&Listen on:"));
    note_->setText(tr("Students open the address shown on the projector, on this "
                      "classroom's network. Nothing leaves it."));
    start_->setText(tr("&Start"));
}

void ClassQuizDialog::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

void ClassQuizDialog::fillQuestions() {
    questions_->clear();
    const lessons::QuizBank* b = bank();
    if (!b)
        return;
    for (const lessons::Question& q : b->questions) {
        auto* item = new QListWidgetItem(lessons::question_title(q), questions_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
}

const lessons::QuizBank* ClassQuizDialog::bank() const {
    const int i = bank_->currentIndex();
    return i < 0 || i >= int(banks_.size()) ? nullptr : banks_[std::size_t(i)];
}

std::vector<int> ClassQuizDialog::questions() const {
    std::vector<int> out;
    for (int i = 0; i < questions_->count(); ++i)
        if (questions_->item(i)->checkState() == Qt::Checked)
            out.push_back(i);
    return out;
}

quint16 ClassQuizDialog::port() const {
    return quint16(port_->value());
}

QList<QHostAddress> ClassQuizDialog::addresses() const {
    const QString a = bind_->currentData().toString();
    if (a.isEmpty())
        return {};
    return {QHostAddress(a)};
}

// --- the histogram ------------------------------------------------------------------------------

AnswerHistogram::AnswerHistogram(QWidget* parent)
    : QWidget(parent) {
    retranslate();
}

void AnswerHistogram::retranslate() {
    setAccessibleName(tr("The class's answers"));
    update(); // the "right" tick is painted
}

void AnswerHistogram::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void AnswerHistogram::setBars(std::vector<classroom::Bar> bars) {
    bars_ = std::move(bars);
    QStringList parts;
    for (const classroom::Bar& b : bars_)
        parts << QStringLiteral("%1: %2").arg(b.label).arg(b.count);
    setAccessibleDescription(parts.join(QStringLiteral("; ")));
    setFixedHeight(sizeHint().height());
    update();
}

QSize AnswerHistogram::sizeHint() const {
    return {600, std::max(120, int(bars_.size()) * 36 + 8)};
}

void AnswerHistogram::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (bars_.empty())
        return;
    int most = 1;
    for (const classroom::Bar& b : bars_)
        most = std::max(most, b.count);
    QFont f = font();
    f.setPointSize(13);
    p.setFont(f);
    const int label_w = std::min(width() / 2, 420);
    const int row = std::max(24, std::min(36, (height() - 8) / int(bars_.size())));
    int y = 4;
    for (const classroom::Bar& b : bars_) {
        const bool right = b.kind == QLatin1String("right");
        const bool mistake = b.kind == QLatin1String("mistake");
        QColor fill = right     ? views::okabe_ito::bluish_green
                      : mistake ? views::okabe_ito::vermillion
                                : QColor(0x6b, 0x6b, 0x6b);
        const QRect text(8, y, label_w - 16, row - 6);
        p.setPen(palette().color(QPalette::WindowText));
        const QString label =
            right && b.label != right_bar_label() ? tr("%1  ✓ right").arg(b.label) : b.label;
        p.drawText(text, Qt::AlignVCenter | Qt::AlignRight | Qt::TextSingleLine,
                   p.fontMetrics().elidedText(label, Qt::ElideRight, text.width()));
        const int full = width() - label_w - 70;
        const int w = b.count == 0 ? 2 : std::max(6, full * b.count / most);
        p.fillRect(QRect(label_w, y + 4, w, row - 14), fill);
        p.drawText(QRect(label_w + w + 8, y, 60, row - 6), Qt::AlignVCenter | Qt::AlignLeft,
                   QString::number(b.count));
        y += row;
    }
}

// --- the projector's window ---------------------------------------------------------------------

ClassWindow::ClassWindow(lessons::QuizBank bank, std::vector<int> questions, quint16 port,
                         QList<QHostAddress> addresses, classroom::ClassLimits limits,
                         QWidget* parent)
    : QWidget(parent, Qt::Window)
    , quiz_(std::make_unique<classroom::ClassQuiz>(std::move(bank), std::move(questions), limits))
    , server_(std::make_unique<classroom::ClassServer>(*quiz_)) {
    port_ = server_->start(std::move(addresses), port);
    build();
    redraw_ = new QTimer(this);
    redraw_->setSingleShot(true);
    redraw_->setInterval(kRedrawMs);
    connect(redraw_, &QTimer::timeout, this, &ClassWindow::refresh);
    // Joins and answers arrive in bursts: the projector redraws at most ten times a second.
    connect(server_.get(), &classroom::ClassServer::quizChanged, this, [this] {
        if (!redraw_->isActive())
            redraw_->start();
    });
    refresh();
}

ClassWindow::~ClassWindow() {
    server_.reset(); // before the quiz it serves
}

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
    lock_ = new QCheckBox(this);
    remove_ = new QPushButton(this);
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
    side->addWidget(lock_);
    side->addWidget(remove_);

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
    buttons->addWidget(advance_);
    buttons->addWidget(replay_);
    buttons->addStretch();
    buttons->addWidget(export_);
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
    connect(lock_, &QCheckBox::toggled, this, [this](bool on) { quiz_->set_locked(on); });
    connect(remove_, &QPushButton::clicked, this, &ClassWindow::removeSelected);
    connect(students_, &QListWidget::itemSelectionChanged, this,
            [this] { remove_->setEnabled(!students_->selectedItems().isEmpty()); });
    resize(1280, 800);
}

void ClassWindow::retranslate() {
    setWindowTitle(tr("Class Quiz: %1").arg(quiz_->bank().title));
    join_->setAccessibleName(tr("Join address"));
    code_->setAccessibleName(tr("Join code"));
    students_->setAccessibleName(tr("Students who have joined"));
    lock_->setText(tr("&Lock the lobby"));
    remove_->setText(tr("&Remove Student"));
    question_->setAccessibleName(tr("Question"));
    count_->setAccessibleName(tr("Answers so far"));
    reveal_->setAccessibleName(tr("The answer and the engine's working"));
    scores_->setHorizontalHeaderLabels({tr("Student"), tr("Right")});
    scores_->setAccessibleName(tr("Scores"));
    replay_->setText(tr("Replay in the &Lab"));
    export_->setText(tr("&Export Results…"));
    if (redraw_) // built: the texts that follow the quiz's state
        refresh();
}

void ClassWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ClassWindow::advance() {
    switch (quiz_->phase()) {
    case classroom::Phase::Lobby:
        quiz_->open();
        break;
    case classroom::Phase::Open:
        quiz_->close();
        break;
    case classroom::Phase::Closed:
        quiz_->reveal();
        break;
    case classroom::Phase::Revealed:
        quiz_->next();
        break;
    case classroom::Phase::Finished:
        break;
    }
    refresh();
}

void ClassWindow::refresh() {
    using classroom::Phase;
    redraw_->stop();
    classroom::ClassQuiz& q = *quiz_;
    const Phase phase = q.phase();
    const QStringList urls = q.addresses();
    title_->setText(q.bank().title);
    join_->setText(tr("Join at %1").arg(urls.value(0)));
    code_->setText(tr("Code: %1").arg(q.code()));
    static_cast<QrCode*>(qr_)->setText(urls.value(0));
    const int joined = q.student_count();
    if (q.locked())
        lobby_->setText(joined == 1 ? tr("1 student has joined · lobby locked")
                                    : tr("%1 students have joined · lobby locked").arg(joined));
    else
        lobby_->setText(joined == 1 ? tr("1 student has joined")
                                    : tr("%1 students have joined").arg(joined));

    // The names, as typed (plain items), keeping the teacher's selection.
    const QString selected = students_->currentItem()
                                 ? students_->currentItem()->data(Qt::UserRole).toString()
                                 : QString();
    students_->clear();
    for (const classroom::Student& s : q.students()) {
        if (s.removed)
            continue;
        const bool answered = s.responses.count(q.current()) > 0 && phase == Phase::Open;
        auto* item = new QListWidgetItem((answered ? QStringLiteral("✓ ") : QString()) + s.display,
                                         students_);
        item->setData(Qt::UserRole, s.id);
        if (s.id == selected)
            students_->setCurrentItem(item);
    }
    remove_->setEnabled(students_->currentItem() != nullptr);
    lock_->blockSignals(true);
    lock_->setChecked(q.locked());
    lock_->blockSignals(false);

    const lessons::Question* question = q.current_question();
    phase_->setText(question && phase != Phase::Finished ? tr("Question %1 of %2 · %3")
                                                               .arg(q.current() + 1)
                                                               .arg(q.question_count())
                                                               .arg(phase_words(phase))
                                                         : phase_words(phase));
    const bool asking = question && phase != Phase::Finished && phase != Phase::Lobby;
    question_->setVisible(asking || phase == Phase::Lobby);
    if (phase == Phase::Lobby)
        question_->setText(tr("%1 questions are ready. Open the first when the class has joined.")
                               .arg(q.question_count()));
    else if (asking)
        question_->setText(
            lessons::question_title(*question) + QStringLiteral("\n") + q.projector_text() +
            (q.students().empty() ? QString()
                                  : tr("\n(Every student sees their own numbers; these are %1's.)")
                                        .arg(example_name(q))));
    count_->setVisible(asking);
    count_->setText(tr("%1 of %2 answered").arg(q.answered_count()).arg(joined));
    const bool bars = phase == Phase::Closed || phase == Phase::Revealed;
    histogram_->setVisible(bars);
    if (bars)
        histogram_->setBars(q.histogram());
    reveal_->setVisible(phase == Phase::Revealed);
    replay_->setVisible(phase == Phase::Revealed);
    if (phase == Phase::Revealed) {
        const auto r = q.reveal_text();
        QString text = tr("Answer: %1").arg(r.answer);
        if (!r.working.isEmpty())
            text += tr("\nThe engine: %1").arg(r.working);
        text += QStringLiteral("\n") + r.explanation;
        reveal_->setText(text);
        replay_->setEnabled(!r.run.isEmpty());
    }
    scores_->setVisible(phase == Phase::Finished);
    main_->setStretch(main_->indexOf(question_),
                      phase == Phase::Revealed || phase == Phase::Finished ? 0 : 1);
    if (phase == Phase::Finished) {
        std::vector<const classroom::Student*> ranked;
        for (const classroom::Student& s : q.students())
            if (!s.removed)
                ranked.push_back(&s);
        std::stable_sort(ranked.begin(), ranked.end(), [&](const auto* a, const auto* b) {
            return q.correct_count(*a) > q.correct_count(*b);
        });
        scores_->setRowCount(int(ranked.size()));
        for (int i = 0; i < int(ranked.size()); ++i) {
            scores_->setItem(i, 0, new QTableWidgetItem(ranked[std::size_t(i)]->display));
            scores_->setItem(i, 1,
                             new QTableWidgetItem(QStringLiteral("%1 / %2")
                                                      .arg(q.correct_count(*ranked[std::size_t(i)]))
                                                      .arg(q.question_count())));
        }
    }
    switch (phase) {
    case Phase::Lobby:
        advance_->setText(tr("&Open the First Question"));
        break;
    case Phase::Open:
        advance_->setText(tr("&Close the Question"));
        break;
    case Phase::Closed:
        advance_->setText(tr("Re&veal the Answer"));
        break;
    case Phase::Revealed:
        advance_->setText(q.current() + 1 < q.question_count() ? tr("&Next Question")
                                                               : tr("&Show the Scores"));
        break;
    case Phase::Finished:
        advance_->setText(tr("The Quiz Is Over"));
        break;
    }
    advance_->setEnabled(phase != Phase::Finished);
}

bool ClassWindow::exportResults(const QString& path) {
    QSaveFile f(path);
    const QByteArray csv = quiz_->results_csv().toUtf8();
    if (!f.open(QIODevice::WriteOnly) || f.write(csv) != csv.size() || !f.commit()) {
        QMessageBox::warning(
            this, windowTitle(),
            tr("The results could not be written to %1: %2").arg(path, f.errorString()));
        return false;
    }
    return true;
}

void ClassWindow::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Results"), quiz_->bank().id + QStringLiteral("-results.csv"),
        tr("CSV files (*.csv)"));
    if (!path.isEmpty())
        exportResults(path);
}

void ClassWindow::removeSelected() {
    if (auto* item = students_->currentItem()) {
        quiz_->remove(item->data(Qt::UserRole).toString());
        refresh();
    }
}

void ClassWindow::closeEvent(QCloseEvent* event) {
    const bool answers =
        std::any_of(quiz_->students().begin(), quiz_->students().end(),
                    [](const classroom::Student& s) { return !s.responses.empty(); });
    if (answers && isVisible() &&
        QMessageBox::question(this, windowTitle(),
                              tr("End the class quiz? Export the results first if you want to "
                                 "keep them."),
                              QMessageBox::Yes | QMessageBox::No,
                              QMessageBox::No) != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    event->accept();
}

} // namespace lockstep::app
