#include "lockstep_lessons/study.h"

#include "lockstep_lessons/action.h"

#include "core/error.h"
#include "trainers/data_parallel.h"

namespace lockstep::lessons {

namespace {

// Adds up, step by step, the compute and the waiting the trainer reports, and turns them into
// modelled energy when each step ends.
class StudySink final : public TraceSink {
public:
    StudySink(int workers, const StudyConfig& config)
        : workers_(workers)
        , config_(config) {}

    void on_events(std::span<const TraceEvent> events) override {
        for (const TraceEvent& e : events) {
            const double seconds = to_seconds(e.end - e.start);
            if (e.kind == EventKind::Compute)
                compute_s_ += seconds;
            else if (e.kind == EventKind::Wait || e.kind == EventKind::Pause)
                waiting_s_ += seconds;
        }
    }
    void on_snapshot(const StepSnapshot& s) override {
        const double lane_s = static_cast<double>(workers_) * to_seconds(s.time);
        const double energy =
            config_.busy_watts * (lane_s - waiting_s_) + config_.idle_watts * waiting_s_;
        curve.push_back({s.step, compute_s_, energy, s.loss});
    }

    std::vector<StudyPoint::Sample> curve;

private:
    int workers_;
    const StudyConfig& config_;
    double compute_s_ = 0;
    double waiting_s_ = 0;
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
        StudySink sink(s.workers, study);
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
