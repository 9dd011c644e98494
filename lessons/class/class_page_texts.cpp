#include "lockstep_class/class_page_texts.h"

#include <QtGlobal>

namespace lockstep::classroom {

// Every text of the class quiz's web pages (resources/class/), in English; translated in the
// context "ClassPage" and sent to the browser as /strings.js. The texts are written as in the
// pages: the data-t texts and attributes of the HTML, and every t('…') of the scripts, with their
// {1}, {2} placeholders. A text changed in a page must be changed here too.
const std::vector<const char*>& class_page_texts() {
    static const std::vector<const char*> texts = {
        // index.html
        QT_TRANSLATE_NOOP("ClassPage", "Class quiz · Lockstep"),
        QT_TRANSLATE_NOOP("ClassPage", "Class quiz"),
        QT_TRANSLATE_NOOP(
            "ClassPage",
            "This quiz needs JavaScript. Please turn it on in your browser and reload the page."),
        QT_TRANSLATE_NOOP("ClassPage", "Connecting to the class…"),
        QT_TRANSLATE_NOOP("ClassPage", "Join the class quiz"),
        QT_TRANSLATE_NOOP("ClassPage", "Type the code from the teacher's screen, and your name."),
        QT_TRANSLATE_NOOP("ClassPage", "Join code"),
        QT_TRANSLATE_NOOP("ClassPage", "Your name"),
        QT_TRANSLATE_NOOP("ClassPage", "Your teacher will see this name next to your answers."),
        QT_TRANSLATE_NOOP("ClassPage", "Join"),
        QT_TRANSLATE_NOOP("ClassPage", "You're in!"),
        QT_TRANSLATE_NOOP("ClassPage", "Waiting for the first question…"),
        QT_TRANSLATE_NOOP("ClassPage", "Send"),
        QT_TRANSLATE_NOOP("ClassPage", "Answers are closed."),
        QT_TRANSLATE_NOOP("ClassPage", "Wait for the teacher."),
        QT_TRANSLATE_NOOP("ClassPage", "Your answer"),
        QT_TRANSLATE_NOOP("ClassPage", "Right answer"),
        QT_TRANSLATE_NOOP("ClassPage", "Why"),
        QT_TRANSLATE_NOOP("ClassPage", "The next question comes when the teacher is ready."),
        QT_TRANSLATE_NOOP("ClassPage", "The quiz is over"),
        QT_TRANSLATE_NOOP("ClassPage", "Thanks for taking part!"),
        QT_TRANSLATE_NOOP("ClassPage", "You can close this page now."),

        // teacher.html
        QT_TRANSLATE_NOOP("ClassPage", "Class quiz · teacher · Lockstep"),
        QT_TRANSLATE_NOOP("ClassPage", "Connecting…"),
        QT_TRANSLATE_NOOP("ClassPage", "Quiz controls"),
        QT_TRANSLATE_NOOP("ClassPage", "Open first question"),
        QT_TRANSLATE_NOOP("ClassPage", "Close answers"),
        QT_TRANSLATE_NOOP("ClassPage", "Reveal the answer"),
        QT_TRANSLATE_NOOP("ClassPage", "Next question"),
        QT_TRANSLATE_NOOP("ClassPage", "Download results (CSV)"),
        QT_TRANSLATE_NOOP("ClassPage", "Students, open"),
        QT_TRANSLATE_NOOP("ClassPage", "and type the code"),
        QT_TRANSLATE_NOOP("ClassPage", "QR code of the students' address"),
        QT_TRANSLATE_NOOP("ClassPage", "Lobby locked"),
        QT_TRANSLATE_NOOP("ClassPage", "What the class answered"),
        QT_TRANSLATE_NOOP("ClassPage", "The answer:"),
        QT_TRANSLATE_NOOP("ClassPage", "Working"),
        QT_TRANSLATE_NOOP("ClassPage", "See it in the lab"),
        QT_TRANSLATE_NOOP("ClassPage",
                          "Worked with the first student's numbers; every student had their own."),
        QT_TRANSLATE_NOOP("ClassPage", "Student"),
        QT_TRANSLATE_NOOP("ClassPage", "Right"),
        QT_TRANSLATE_NOOP("ClassPage", "Join at"),
        QT_TRANSLATE_NOOP("ClassPage", "Code"),
        QT_TRANSLATE_NOOP("ClassPage", "Students"),
        QT_TRANSLATE_NOOP("ClassPage", "Lock the lobby"),

        // student.js
        QT_TRANSLATE_NOOP("ClassPage", "Could not reach the class server. Check that you are on "
                                       "the classroom Wi-Fi, then try again."),
        QT_TRANSLATE_NOOP("ClassPage", "Something went wrong (error {1}). Please try again."),
        QT_TRANSLATE_NOOP("ClassPage", "Live"),
        QT_TRANSLATE_NOOP("ClassPage", "Checking every 2 s"),
        QT_TRANSLATE_NOOP("ClassPage", "Reconnecting…"),
        QT_TRANSLATE_NOOP("ClassPage", "Type the join code shown on the teacher's screen."),
        QT_TRANSLATE_NOOP("ClassPage", "Type your name, so your teacher knows who answered."),
        QT_TRANSLATE_NOOP("ClassPage", "Joining…"),
        QT_TRANSLATE_NOOP("ClassPage",
                          "That code is not right. Check the code on the teacher's screen."),
        QT_TRANSLATE_NOOP("ClassPage",
                          "The teacher has locked the lobby, so nobody new can join right now."),
        QT_TRANSLATE_NOOP("ClassPage", "Too many tries at once. Wait a minute, then try again."),
        QT_TRANSLATE_NOOP("ClassPage", "The class is full."),
        QT_TRANSLATE_NOOP("ClassPage",
                          "You are no longer in the quiz: the teacher may have removed you, or the "
                          "quiz was restarted. Join again with the code on the teacher's screen."),
        QT_TRANSLATE_NOOP("ClassPage", "You joined as {1}"),
        QT_TRANSLATE_NOOP("ClassPage", "{1} student has joined."),
        QT_TRANSLATE_NOOP("ClassPage", "{1} students have joined."),
        QT_TRANSLATE_NOOP("ClassPage", "Question {1} of {2}"),
        QT_TRANSLATE_NOOP("ClassPage", "Question {1}"),
        QT_TRANSLATE_NOOP("ClassPage", "Choose one answer."),
        QT_TRANSLATE_NOOP("ClassPage", "Choose every answer that is right."),
        QT_TRANSLATE_NOOP("ClassPage", "Put these in order. Type their letters, first to last, "
                                       "with spaces between them (for example: b a c)."),
        QT_TRANSLATE_NOOP("ClassPage", "Your order"),
        QT_TRANSLATE_NOOP("ClassPage", "for example: b a c"),
        QT_TRANSLATE_NOOP("ClassPage", "Your answer, in {1}"),
        QT_TRANSLATE_NOOP("ClassPage", "Answer received: {1} (read as {2})"),
        QT_TRANSLATE_NOOP("ClassPage", "Answer received: {1}"),
        QT_TRANSLATE_NOOP("ClassPage", "You can change it until the teacher closes the question."),
        QT_TRANSLATE_NOOP("ClassPage", "That was your last change: this answer counts."),
        QT_TRANSLATE_NOOP(
            "ClassPage", "You can still change it {1} time until the teacher closes the question."),
        QT_TRANSLATE_NOOP(
            "ClassPage",
            "You can still change it {1} times until the teacher closes the question."),
        QT_TRANSLATE_NOOP("ClassPage", "Choose an answer first."),
        QT_TRANSLATE_NOOP("ClassPage", "Choose at least one answer first."),
        QT_TRANSLATE_NOOP("ClassPage", "Type your answer first."),
        QT_TRANSLATE_NOOP("ClassPage", "Sending…"),
        QT_TRANSLATE_NOOP("ClassPage",
                          "That answer could not be read. Type a number, like 5 or 2.5."),
        QT_TRANSLATE_NOOP("ClassPage", "This question is not open for answers any more."),
        QT_TRANSLATE_NOOP("ClassPage", "Too many answers at once. Wait a moment, then send again."),
        QT_TRANSLATE_NOOP("ClassPage", "You did not send an answer."),
        QT_TRANSLATE_NOOP("ClassPage", "Your answer: {1}"),
        QT_TRANSLATE_NOOP("ClassPage", "Correct"),
        QT_TRANSLATE_NOOP("ClassPage", "Close, but not quite"),
        QT_TRANSLATE_NOOP("ClassPage", "Not right this time"),
        QT_TRANSLATE_NOOP("ClassPage", "No answer sent"),
        QT_TRANSLATE_NOOP("ClassPage", "(none)"),
        QT_TRANSLATE_NOOP("ClassPage", "You got {1} of {2} right"),
        QT_TRANSLATE_NOOP("ClassPage", "The quiz is over."),

        // teacher.js
        QT_TRANSLATE_NOOP("ClassPage",
                          "The quiz server cannot be reached. Is lockstep still running?"),
        QT_TRANSLATE_NOOP("ClassPage", "That did not work (error {1})."),
        QT_TRANSLATE_NOOP("ClassPage", "Not connected"),
        QT_TRANSLATE_NOOP("ClassPage", "Lobby"),
        QT_TRANSLATE_NOOP("ClassPage", "Answers open"),
        QT_TRANSLATE_NOOP("ClassPage", "Answers closed"),
        QT_TRANSLATE_NOOP("ClassPage", "Answer revealed"),
        QT_TRANSLATE_NOOP("ClassPage", "Finished"),
        QT_TRANSLATE_NOOP("ClassPage", "Finish the quiz"),
        QT_TRANSLATE_NOOP("ClassPage", "Unlock the lobby"),
        QT_TRANSLATE_NOOP("ClassPage", "Nobody has joined yet."),
        QT_TRANSLATE_NOOP("ClassPage", "{1} student has joined"),
        QT_TRANSLATE_NOOP("ClassPage", "{1} students have joined"),
        QT_TRANSLATE_NOOP("ClassPage", "{1} of {2} answered"),
        QT_TRANSLATE_NOOP("ClassPage", "✓ right"),
        QT_TRANSLATE_NOOP("ClassPage", "a common mistake"),
        QT_TRANSLATE_NOOP("ClassPage", "close"),
        QT_TRANSLATE_NOOP("ClassPage", "answered"),
        QT_TRANSLATE_NOOP("ClassPage", "not answered yet"),
        QT_TRANSLATE_NOOP("ClassPage", "no answer"),
        QT_TRANSLATE_NOOP("ClassPage", "Nobody yet"),
        QT_TRANSLATE_NOOP("ClassPage", "Remove"),
        QT_TRANSLATE_NOOP("ClassPage", "Remove {1}"),
        QT_TRANSLATE_NOOP("ClassPage", "{1} of {2}"),
        QT_TRANSLATE_NOOP("ClassPage", "Nobody took part."),
        QT_TRANSLATE_NOOP("ClassPage", "On average the class got {1} of {2} right."),
        QT_TRANSLATE_NOOP("ClassPage", "On average the class got {1} right."),
        QT_TRANSLATE_NOOP(
            "ClassPage",
            "This page is no longer signed in as the teacher (the quiz may have been restarted). "
            "Open the newest teacher link that lockstep printed."),
        QT_TRANSLATE_NOOP("ClassPage", "This page is no longer signed in as the teacher."),
        QT_TRANSLATE_NOOP("ClassPage", "Remove {1} from the quiz?"),
        QT_TRANSLATE_NOOP("ClassPage", "{1} wrong codes tried; the code changed {2} times."),
        QT_TRANSLATE_NOOP("ClassPage", "The results could not be downloaded."),
    };
    return texts;
}

} // namespace lockstep::classroom
