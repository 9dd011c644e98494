#include "trainers/gradient.h"

namespace lockstep {

LossResult accumulated_gradient(const ModelShape& model, std::span<const double> parameters,
                                const Dataset& data, DataCursor& cursor, std::size_t batch,
                                std::size_t micro, std::span<double> gradient,
                                BatchScratch& scratch, const LayerDone* ready) {
    const double share = 1.0 / static_cast<double>(micro);
    LossResult total;
    for (std::size_t m = 0; m < micro; ++m) {
        cursor.next_batch(batch, scratch.rows);
        gather_rows(data, scratch.rows, scratch.features, scratch.targets);
        const BatchView rows{scratch.features.data(), scratch.targets.data(), scratch.rows.size()};
        if (micro == 1)
            return ready
                       ? loss_and_gradient(model, parameters, rows, gradient, scratch.work, *ready)
                       : loss_and_gradient(model, parameters, rows, gradient, scratch.work);
        scratch.micro_gradient.resize(gradient.size());
        const std::span<double> into = m == 0 ? gradient : std::span(scratch.micro_gradient);
        const bool last = m + 1 == micro;
        // The last micro-batch may finish the sum layer by layer: each layer the same additions
        // and the same division as the whole gradient's below, then handed on.
        const LayerDone add = [&](std::size_t l) {
            if (l < model.layer_count())
                for (std::size_t i = model.weight_offset(l); i < model.weight_offset(l + 1); ++i) {
                    gradient[i] += into[i];
                    gradient[i] *= share;
                }
            (*ready)(l);
        };
        const LossResult part =
            ready && last ? loss_and_gradient(model, parameters, rows, into, scratch.work, add)
                          : loss_and_gradient(model, parameters, rows, into, scratch.work);
        if (m > 0 && !(ready && last))
            for (std::size_t i = 0; i < gradient.size(); ++i)
                gradient[i] += into[i];
        total.loss += part.loss;
        total.correct += part.correct;
        total.count += part.count;
    }
    if (!ready)
        for (double& g : gradient)
            g *= share;
    total.loss *= share;
    return total;
}

} // namespace lockstep
