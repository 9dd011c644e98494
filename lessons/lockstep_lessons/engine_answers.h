#pragma once

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

namespace lockstep::lessons {

// Values of a question's variables for one student, by name.
using Values = QMap<QString, double>;

// A call into the engine that gives a question its answer. Quizzes never carry a formula of
// their own: the answer is whatever the engine's function returns for the student's numbers.
//
//   {"engine": "reduce", "rule": "mean", "values": ["g1", "g2"], "samples": ["n1", "n2"]}
//       lockstep::reduce() — the function every collective uses to combine gradients.
//   {"engine": "scenario", "file": "../scenarios/worked-example.json",
//    "set": {"one_worker_s": "t1", "workers": "p", "communication_s": "c"}, "metric": "speedup"}
//       runs the scenario on the modelled clock (lockstep::run_scenario) with the `set` overrides
//       (the parameters of a lockstep:set link) and reads a metric: speedup, efficiency,
//       total_time_s, baseline_time_s, compute_s, communication_s, waiting_s and more
//       (docs/LESSONS.md), gradient_bytes_per_step for a hybrid run; a loosely synchronised
//       scenario (sync ssp or async) runs through lockstep::run_to_end, and so do the figures only
//       real training gives (final_loss, max_staleness, mean_staleness, averagings, bytes_moved).
//   {"engine": "first_to_target", "file": "...", "target": 0.8,
//    "modes": ["bsp", "ssp", "async", "local"], "staleness": 2, "local_steps": 4}
//       the index in `modes` of the first way of agreeing to train the scenario to the target
//       loss: a single-choice question's `correct`, its choices being the modes.
//   {"engine": "collective_bytes", "algorithm": "ring", "workers": "p", "doubles": "n",
//    "measure": "total" | "max_sent_by_worker" | "busiest_link"}
//       sums the bytes of the messages of the engine's schedule (lockstep::make_schedule).
//   {"engine": "collective_time", "algorithm": "tree", "workers": 8, "doubles": "n",
//    "alpha_us": 20, "beta_ns_per_byte": 10}
//       the time of that schedule's all-reduce on the modelled clock, in microseconds: each
//       message alpha + bytes * beta (lockstep::price_schedule), adding free.
//
// Arguments are numbers or variable names. `base_dir` resolves scenario files.
struct EngineCall {
    QJsonObject spec;
};

// The engine functions a quiz may call.
QStringList engine_functions();

// Checks a call's shape without running it: known function, every argument present and of the
// right kind, every variable named known, the scenario file readable and valid. Throws
// lockstep::Error naming the argument.
void check_engine_call(const EngineCall& call, const QStringList& variables,
                       const QString& base_dir);

// The engine's answer for these values. Throws lockstep::Error when the engine refuses them.
double evaluate(const EngineCall& call, const Values& values, const QString& base_dir);

// The engine's working, for a reveal: "lockstep::reduce, rule mean: (3 + 7) / 2 = 5", or for
// other calls the function, its arguments with the student's numbers, and what it returned.
// Throws as evaluate() does.
QString describe_call(const EngineCall& call, const Values& values, const QString& base_dir);

} // namespace lockstep::lessons
