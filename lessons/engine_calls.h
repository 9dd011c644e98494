// The engine functions a quiz may call, each in its own *_answers.cpp, and their shared arguments.
#pragma once

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/engine_answers.h"

#include "scenario/scenario.h"

#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <vector>

namespace lockstep::lessons::detail {

// Arguments (engine_call_arguments.cpp).

// Throws lockstep::Error with `what`.
[[noreturn]] void fail(const QString& what);
// The call's "engine": the function it names.
QString function_of(const EngineCall& call);
// A number, or the value of the variable it names.
double argument(const QJsonValue& v, const Values& values, const QString& key);
std::vector<double> argument_list(const QJsonValue& v, const Values& values, const QString& key);
// Checks that `v` (a number, a name or a list of them) reads with every variable in `probe`.
void names_known(const QJsonValue& v, const Values& probe, const QString& key);
// Fails on a missing required key or on a key that is neither required nor optional.
void require_keys(const EngineCall& call, const QStringList& required, const QStringList& optional);
// The call's "file", resolved against `base_dir`.
QString scenario_path(const EngineCall& call, const QString& base_dir);
// A number of the engine's working: the working is for the student, so as the language writes it.
QString shown(double x);

// reduce (reduce_answers.cpp).
void check_reduce_call(const EngineCall& call, const Values& probe);
double reduce_call(const EngineCall& call, const Values& values);
// "lockstep::reduce, rule mean: (3 + 7) / 2 = 5" for a call that gave `result`.
QString describe_reduce_call(const EngineCall& call, const Values& values, double result);

// scenario (scenario_answers.cpp).
void check_scenario_call(const EngineCall& call, const QStringList& variables, const Values& probe,
                         const QString& base_dir);
double run_scenario_call(const EngineCall& call, const Values& values, const QString& base_dir);
// The lockstep:set link that a scenario call's overrides amount to, for these values.
Action set_action(const EngineCall& call, const Values& values);
// The call's scenario file with its set link, its faults and its checkpoint_every, validated.
Scenario call_scenario(const EngineCall& call, const Values& values, const QString& base_dir);

// first_to_target (mode_answers.cpp).
void check_first_to_target_call(const EngineCall& call, const Values& probe,
                                const QString& base_dir);
double first_to_target(const EngineCall& call, const Values& values, const QString& base_dir);

// study (study_answers.cpp).
void check_study_call(const EngineCall& call, const Values& probe, const QString& base_dir);
double study_call(const EngineCall& call, const Values& values, const QString& base_dir);

// collective_bytes and collective_time (collective_answers.cpp).
void check_collective_bytes_call(const EngineCall& call, const Values& probe);
void check_collective_time_call(const EngineCall& call, const Values& probe);
double collective_bytes(const EngineCall& call, const Values& values);
double collective_time(const EngineCall& call, const Values& values);

// best_bucket (bucket_answers.cpp).
void check_best_bucket_call(const EngineCall& call, const Values& probe, const QString& base_dir);
double best_bucket(const EngineCall& call, const Values& values, const QString& base_dir);

// smallest_stage (sharding_answers.cpp): 0 none ... 3 parameters, 4 when no stage fits.
void check_smallest_stage_call(const EngineCall& call, const Values& probe,
                               const QString& base_dir);
double smallest_stage(const EngineCall& call, const Values& values, const QString& base_dir);

// number_format (format_answers.cpp): a format's largest value, smallest normal and subnormal
// values, spacing at one, bytes, fraction and exponent bits, or a value rounded to it.
void check_number_format_call(const EngineCall& call, const Values& probe);
double number_format_call(const EngineCall& call, const Values& values);
// most_overflows (format_answers.cpp): of a scenario's runs with other settings, the index of
// the one that skips the most steps on an overflow; a single choice's answer.
void check_most_overflows_call(const EngineCall& call, const QStringList& variables,
                               const Values& probe, const QString& base_dir);
double most_overflows(const EngineCall& call, const Values& values, const QString& base_dir);

// bubble_fraction (pipeline_answers.cpp).
void check_bubble_fraction_call(const EngineCall& call, const Values& probe);
double bubble_fraction(const EngineCall& call, const Values& values);

} // namespace lockstep::lessons::detail
