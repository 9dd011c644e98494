// The "bubble_fraction" call: the idle share of a pipeline, measured by the pipeline trainer.
#include "engine_calls.h"

#include "runs/runs.h"

#include <cmath>
#include <vector>

namespace lockstep::lessons::detail {

void check_bubble_fraction_call(const EngineCall& call, const Values& probe) {
    require_keys(call, {QStringLiteral("stages"), QStringLiteral("microbatches")},
                 {QStringLiteral("schedule")});
    names_known(call.spec.value(QStringLiteral("stages")), probe, QStringLiteral("answer.stages"));
    names_known(call.spec.value(QStringLiteral("microbatches")), probe,
                QStringLiteral("answer.microbatches"));
    const QString schedule =
        call.spec.value(QStringLiteral("schedule")).toString(QStringLiteral("fill-drain"));
    if (schedule != QLatin1String("fill-drain") && schedule != QLatin1String("1f1b"))
        fail(QStringLiteral("answer.schedule: must be fill-drain or 1f1b"));
}

// The idle share of a pipeline with equal stages and free messages, as the engine's pipeline
// trainer measures it over one real training step: 2 layers per stage of 2 units each, so the
// stages are equal, and a batch of 2 samples per micro-batch.
double bubble_fraction(const EngineCall& call, const Values& values) {
    const double stages = argument(call.spec.value(QStringLiteral("stages")), values,
                                   QStringLiteral("answer.stages"));
    const double microbatches = argument(call.spec.value(QStringLiteral("microbatches")), values,
                                         QStringLiteral("answer.microbatches"));
    if (stages < 1 || stages > 16 || microbatches < 1 || microbatches > 256 ||
        stages != std::floor(stages) || microbatches != std::floor(microbatches))
        fail(QStringLiteral("answer: bubble_fraction needs whole stages (1-16) and "
                            "micro-batches (1-256)"));
    Scenario s;
    s.name = "bubble";
    s.steps = 1;
    s.workers = static_cast<int>(stages);
    s.batch = 2 * static_cast<std::size_t>(microbatches);
    s.model = {std::vector<int>(2 * static_cast<std::size_t>(stages) + 1, 2), Activation::Tanh,
               LossKind::SoftmaxCrossEntropy};
    s.dataset = {"xor", "", 2 * static_cast<std::size_t>(microbatches) * 4, 0.05, 2};
    s.cost.alpha_s = 0.0;
    s.cost.beta_s_per_byte = 0.0;
    s.cost.update_s = 0.0;
    ParallelismConfig p;
    p.mode = Parallelism::Pipeline;
    p.stages = static_cast<int>(stages);
    p.microbatches = static_cast<int>(microbatches);
    const QString schedule =
        call.spec.value(QStringLiteral("schedule")).toString(QStringLiteral("fill-drain"));
    if (!parse_pipeline_schedule(schedule.toStdString(), p.schedule))
        fail(QStringLiteral("answer.schedule: must be fill-drain or 1f1b"));
    s.parallelism = p;
    return run_scenario(s).metrics.pipeline.bubble_fraction;
}

} // namespace lockstep::lessons::detail
