// What the teacher chooses before a class quiz starts.

#include "class_window.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace lockstep::app {

namespace {

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

} // namespace

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

} // namespace lockstep::app
