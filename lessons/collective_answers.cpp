// The "collective_bytes" and "collective_time" calls: the bytes and the time of an all-reduce.
#include "engine_calls.h"

#include "clocks/cost_model.h"
#include "collectives/schedule.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace lockstep::lessons::detail {

namespace {

const QStringList kMeasures = {QStringLiteral("total"), QStringLiteral("max_sent_by_worker"),
                               QStringLiteral("busiest_link")};

// A collective call's algorithm and schedule: `workers` and `doubles` (numbers or variables).
CommSchedule call_schedule(const EngineCall& call, const Values& values) {
    Algorithm algorithm = Algorithm::Ring;
    const QString name = call.spec.value(QStringLiteral("algorithm")).toString();
    if (!parse_algorithm(name.toStdString(), algorithm) || algorithm == Algorithm::None)
        fail(QStringLiteral("answer.algorithm: must be ring, tree or parameter-server, got '%1'")
                 .arg(name));
    const double p = argument(call.spec.value(QStringLiteral("workers")), values,
                              QStringLiteral("answer.workers"));
    const double n = argument(call.spec.value(QStringLiteral("doubles")), values,
                              QStringLiteral("answer.doubles"));
    if (p < 1 || p > ScenarioLimits::max_workers || p != std::floor(p))
        fail(QStringLiteral("answer.workers: must be a whole number from 1 to %1, got %2")
                 .arg(ScenarioLimits::max_workers)
                 .arg(p));
    if (n < 0 || n > 1e9 || n != std::floor(n))
        fail(QStringLiteral("answer.doubles: must be a whole number from 0 to 1e9, got %1").arg(n));
    return make_schedule(algorithm, static_cast<int>(p), static_cast<std::size_t>(n));
}

} // namespace

void check_collective_bytes_call(const EngineCall& call, const Values& probe) {
    require_keys(call,
                 {QStringLiteral("algorithm"), QStringLiteral("workers"), QStringLiteral("doubles"),
                  QStringLiteral("measure")},
                 {});
    names_known(call.spec.value(QStringLiteral("workers")), probe,
                QStringLiteral("answer.workers"));
    names_known(call.spec.value(QStringLiteral("doubles")), probe,
                QStringLiteral("answer.doubles"));
    if (!kMeasures.contains(call.spec.value(QStringLiteral("measure")).toString()))
        fail(QStringLiteral("answer.measure: must be one of %1")
                 .arg(kMeasures.join(QStringLiteral(", "))));
}

void check_collective_time_call(const EngineCall& call, const Values& probe) {
    require_keys(call,
                 {QStringLiteral("algorithm"), QStringLiteral("workers"), QStringLiteral("doubles"),
                  QStringLiteral("alpha_us"), QStringLiteral("beta_ns_per_byte")},
                 {});
    for (const char* key : {"workers", "doubles", "alpha_us", "beta_ns_per_byte"})
        names_known(call.spec.value(QLatin1String(key)), probe,
                    QStringLiteral("answer.") + QLatin1String(key));
}

double collective_bytes(const EngineCall& call, const Values& values) {
    const CommSchedule schedule = call_schedule(call, values);
    const QString measure = call.spec.value(QStringLiteral("measure")).toString();
    if (measure == QLatin1String("total"))
        return static_cast<double>(schedule.total_bytes());
    if (measure == QLatin1String("busiest_link")) {
        const auto links = schedule.bytes_per_link();
        return static_cast<double>(links.empty() ? 0
                                                 : *std::max_element(links.begin(), links.end()));
    }
    std::vector<std::int64_t> sent(static_cast<std::size_t>(schedule.workers), 0);
    for (const Round& round : schedule.rounds)
        for (const Message& m : round.messages)
            sent[static_cast<std::size_t>(m.src)] += m.bytes();
    return static_cast<double>(*std::max_element(sent.begin(), sent.end()));
}

// How long one all-reduce takes on the modelled clock, in microseconds, priced as every trainer
// prices it (lockstep::price_schedule): each message alpha + bytes * beta on its link, a link
// serving one message at a time, everyone starting together. Adding is free here (gamma 0): the
// alpha-beta model of the lesson.
double collective_time(const EngineCall& call, const Values& values) {
    const CommSchedule schedule = call_schedule(call, values);
    const double alpha_us = argument(call.spec.value(QStringLiteral("alpha_us")), values,
                                     QStringLiteral("answer.alpha_us"));
    const double beta_ns = argument(call.spec.value(QStringLiteral("beta_ns_per_byte")), values,
                                    QStringLiteral("answer.beta_ns_per_byte"));
    if (alpha_us < 0 || alpha_us > 1e6 || beta_ns < 0 || beta_ns > 1e6)
        fail(QStringLiteral("answer: collective_time needs alpha_us and beta_ns_per_byte from 0 "
                            "to 1e6"));
    CostConfig cost;
    cost.alpha_s = alpha_us * 1e-6;
    cost.beta_s_per_byte = beta_ns * 1e-9;
    cost.gamma_s_per_byte = 0.0;
    std::vector<int> lanes(static_cast<std::size_t>(schedule.workers));
    std::iota(lanes.begin(), lanes.end(), 0);
    std::vector<Ticks> clocks(lanes.size(), 0);
    (void)price_schedule(schedule, {lanes, clocks, {}}, cost, 0, 0, nullptr);
    return to_seconds(*std::max_element(clocks.begin(), clocks.end())) * 1e6;
}

} // namespace lockstep::lessons::detail
