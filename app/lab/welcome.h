#pragma once

#include <QCoreApplication>
#include <QString>

namespace lockstep::app {

// What the lesson pane shows until a lesson is opened: how to read the lab, in our words, in
// the language in use.
inline QString welcome_text() {
    return QCoreApplication::translate("Welcome", "<h2>Welcome to the lab</h2>") +
           QCoreApplication::translate(
               "Welcome",
               "<p>Several <b>workers</b> are training one small neural network together. Each "
               "holds a full copy (a <i>replica</i>) of the model and learns from its own share "
               "of the data. After every step they must agree on one combined gradient, or their "
               "copies stop being the same model.</p>") +
           QCoreApplication::translate("Welcome", "<h3>What you see</h3>") +
           QStringLiteral("<ul>") +
           QCoreApplication::translate(
               "Welcome",
               "<li><b>Cluster</b>: the workers, connected the way the chosen collective connects "
               "them. Colour, letter and label say what each worker is doing. Green dots are "
               "chunks of gradient on their way.</li>") +
           QCoreApplication::translate(
               "Welcome",
               "<li><b>Timeline</b>: one lane per worker. Hatched red is <i>waiting</i>: time a "
               "worker spends doing nothing because someone else is not ready.</li>") +
           QCoreApplication::translate(
               "Welcome",
               "<li><b>Training</b>: the loss going down, and what the model has learned so "
               "far.</li>") +
           QCoreApplication::translate(
               "Welcome",
               "<li><b>Speedup</b>: how much faster more workers make a step, against the ideal "
               "line.</li>") +
           QCoreApplication::translate(
               "Welcome",
               "<li><b>Checkpoints</b>: the files on disk, each in its state of the commit "
               "protocol; after a crash, the recovery's scan for the newest complete "
               "checkpoint.</li>") +
           QCoreApplication::translate(
               "Welcome",
               "<li><b>Memory</b>: what each worker holds at the playhead, kind by kind: "
               "parameters, gradients, optimizer state, activations.</li>") +
           QStringLiteral("</ul>") + QCoreApplication::translate("Welcome", "<h3>Try this</h3>") +
           QStringLiteral("<ul>") +
           QCoreApplication::translate(
               "Welcome",
               "<li>Press <b>Space</b> to play, <b>Right</b>/<b>Left</b> to step through events "
               "one by one.</li>") +
           QCoreApplication::translate(
               "Welcome", "<li>Click a worker and slow it down: watch the others start to "
                          "wait.</li>") +
           QCoreApplication::translate(
               "Welcome",
               "<li>Set the collective to <i>none</i> and run: the replicas drift apart.</li>") +
           QCoreApplication::translate("Welcome",
                                       "<li>Press <b>F11</b> for presentation mode.</li>") +
           QStringLiteral("</ul>");
}

} // namespace lockstep::app
