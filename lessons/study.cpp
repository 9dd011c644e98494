#include "lockstep_lessons/study.h"

#include "lockstep_lessons/action.h"

#include "core/error.h"
#include "model/model.h"
#include "reports/metrics.h"
#include "runs/runs.h"

#include <cmath>
#include <limits>
#include <tuple>

namespace lockstep::lessons {

namespace {

// Adds up, step by step, each worker's time in each state as the trainer reports it, and turns
// it into modelled energy when each step ends: the engine's own energy model
// (lockstep::energy_joules with the scenario's watts), so the study's energy so far is what the
// run's metrics would say if it stopped there.
class StudySink final : public TraceSink {
public:
    StudySink(int workers, const EnergyConfig& power)
        : lanes_(static_cast<std::size_t>(workers))
        , power_(power) {}

    void on_events(std::span<const TraceEvent> events) override {
        const auto step = worker_metrics(events, static_cast<int>(lanes_.size()));
        for (std::size_t k = 0; k < lanes_.size(); ++k) {
            lanes_[k].compute_s += step[k].compute_s;
            lanes_[k].communication_s += step[k].communication_s;
            lanes_[k].waiting_s += step[k].waiting_s;
            lanes_[k].update_s += step[k].update_s;
            lanes_[k].checkpoint_s += step[k].checkpoint_s;
            lanes_[k].restore_s += step[k].restore_s;
        }
    }
    void on_snapshot(const StepSnapshot& s) override {
        double compute_s = 0;
        for (const WorkerMetrics& w : lanes_)
            compute_s += w.compute_s;
        curve.push_back(
            {s.step, compute_s, energy_joules(lanes_, to_seconds(s.time), power_), s.loss});
    }

    std::vector<StudyPoint::Sample> curve;

private:
    std::vector<WorkerMetrics> lanes_;
    EnergyConfig power_;
};

} // namespace

WorkedExampleResult worked_example(const Scenario& base, double one_worker_s, int workers,
                                   double communication_s, std::span<const int> curve_workers) {
    Scenario s = base;
    apply_set(parse_action(QStringLiteral("lockstep:set?one_worker_s=%1&workers=%2&"
                                          "communication_s=%3")
                               .arg(QString::number(one_worker_s, 'g', 17))
                               .arg(workers)
                               .arg(QString::number(communication_s, 'g', 17))),
              s);
    const RunMetrics m = run_scenario(s, nullptr, Work::TimesOnly).metrics;
    WorkedExampleResult r;
    r.one_worker_s = one_worker_s;
    r.workers = workers;
    r.communication_s = communication_s;
    r.total_s = m.total_time_s;
    r.baseline_s = m.baseline_time_s;
    r.speedup = m.speedup;
    r.efficiency = m.efficiency;
    for (const SweepPoint& p : sweep(s, curve_workers, Work::TimesOnly))
        r.curve.emplace_back(p.workers, p.metrics.speedup);
    return r;
}

std::uint64_t held_out_seed(const Scenario& base) {
    return base.seed + 1000003;
}

std::pair<double, double> mean_and_sd(std::span<const double> values) {
    if (values.empty())
        return {0.0, 0.0};
    double sum = 0;
    for (double v : values)
        sum += v;
    const double mean = sum / static_cast<double>(values.size());
    if (values.size() < 2)
        return {mean, 0.0};
    double squares = 0;
    for (double v : values)
        squares += (v - mean) * (v - mean);
    return {mean, std::sqrt(squares / static_cast<double>(values.size() - 1))};
}

std::vector<StudyPoint> run_study(const Scenario& base, const StudyConfig& study) {
    if (base.clock != ClockKind::Modelled)
        throw Error("study: the scenario must use the modelled clock (energy is modelled)");
    const double base_parameters = static_cast<double>(base.model.parameter_count());
    // Fresh examples of the same kind, drawn with a seed no training run of the study uses.
    std::shared_ptr<const Dataset> held_out;
    if (base.dataset.csv.empty()) {
        Scenario h = base;
        h.seed = held_out_seed(base);
        held_out = load_dataset(h);
    }
    std::vector<StudyPoint> out;
    for (const std::vector<int>& layers : study.models) {
        Scenario s = base;
        s.model.layers = layers;
        validate(s);
        const double parameters = static_cast<double>(s.model.parameter_count());
        s.cost.compute_s_per_sample = base.cost.compute_s_per_sample * parameters / base_parameters;
        StudyPoint p;
        p.layers = layers;
        p.parameters = s.model.parameter_count();
        p.seeds = std::max(1, study.seeds);
        std::vector<double> losses, accuracies;
        for (int k = 0; k < p.seeds; ++k) {
            Scenario run = s;
            run.seed = base.seed + static_cast<std::uint64_t>(k);
            StudySink sink(run.workers, run.energy);
            const auto trainer = make_run(run, load_dataset(run), k == 0 ? &sink : nullptr);
            trainer->run_to_end();
            if (k == 0) {
                const RunMetrics m = trainer->metrics();
                p.final_loss = m.final_loss;
                p.final_accuracy = m.final_accuracy;
                p.time_s = m.total_time_s;
                p.curve = std::move(sink.curve);
            }
            if (held_out) {
                Workspace work;
                const LossResult r = evaluate(
                    run.model, trainer->parameters(),
                    {held_out->features.data(), held_out->targets.data(), held_out->size()}, work);
                losses.push_back(r.loss);
                accuracies.push_back(static_cast<double>(r.correct) /
                                     static_cast<double>(std::max<std::size_t>(1, r.count)));
            }
        }
        if (held_out) {
            std::tie(p.held_out_loss, p.held_out_loss_sd) = mean_and_sd(losses);
            std::tie(p.held_out_accuracy, p.held_out_accuracy_sd) = mean_and_sd(accuracies);
        } else {
            p.held_out_loss = p.held_out_loss_sd = std::numeric_limits<double>::quiet_NaN();
            p.held_out_accuracy = p.held_out_accuracy_sd = std::numeric_limits<double>::quiet_NaN();
        }
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace lockstep::lessons
