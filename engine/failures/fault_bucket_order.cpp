// Buckets out of order: in the step at the playhead one worker reduces its gradient buckets in
// another order than the others (bucket 1 first), which DDP warns every rank must never do. The
// messages name their bucket, so the run sees the mismatch and stops that step.
#include "failures/intervention.h"

namespace lockstep {

extern const FaultKind fault_bucket_order;
const FaultKind fault_bucket_order{
    Intervention::Kind::BucketOrder,
    "bucket-order",
    QT_TRANSLATE_NOOP("Fault", "Reduce buckets out of order"),
    QT_TRANSLATE_NOOP("Fault", "worker %1 reduced its buckets out of order"),
    0.0,
    false,
    [](const Scenario& s, const Intervention&) {
        if (!s.gradients || s.gradients->bucket_kb == 0)
            return Refusal{QT_TRANSLATE_NOOP("Fault",
                                             "This run sends its whole gradient in one bucket: "
                                             "there is no order to get wrong."),
                           {}};
        return Refusal{};
    },
    [](FaultTarget& run, const Intervention& change) {
        FailureSpec f;
        f.kind = FailureKind::BucketOrder;
        f.worker = change.worker;
        f.step = run.steps_done();
        run.inject_failure(f);
    }};

} // namespace lockstep
