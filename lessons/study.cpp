#include "lockstep_lessons/study.h"

#include "lockstep_lessons/action.h"

#include "core/error.h"
#include "reports/metrics.h"
#include "trainers/data_parallel.h"

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

std::vector<StudyPoint> run_study(const Scenario& base, const StudyConfig& study) {
    if (base.clock != ClockKind::Modelled)
        throw Error("study: the scenario must use the modelled clock (energy is modelled)");
    const double base_parameters = static_cast<double>(base.model.parameter_count());
    std::vector<StudyPoint> out;
    for (const std::vector<int>& layers : study.models) {
        Scenario s = base;
        s.model.layers = layers;
        validate(s);
        const double parameters = static_cast<double>(s.model.parameter_count());
        s.cost.compute_s_per_sample = base.cost.compute_s_per_sample * parameters / base_parameters;
        StudySink sink(s.workers, s.energy);
        DataParallelTrainer trainer(s, load_dataset(s), &sink);
        trainer.run();
        const RunMetrics m = trainer.metrics();
        StudyPoint p;
        p.layers = layers;
        p.parameters = s.model.parameter_count();
        p.final_loss = m.final_loss;
        p.final_accuracy = m.final_accuracy;
        p.time_s = m.total_time_s;
        p.curve = std::move(sink.curve);
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace lockstep::lessons
