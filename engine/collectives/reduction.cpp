#include "collectives/reduction.h"

#include "core/error.h"
#include "model/kernels.h"

#include <cstddef>

namespace lockstep {

std::string_view to_string(ReductionRule rule) {
    switch (rule) {
    case ReductionRule::Sum:
        return "sum";
    case ReductionRule::Mean:
        return "mean";
    case ReductionRule::WeightedMean:
        return "weighted-mean";
    }
    return "mean";
}

bool parse_reduction_rule(std::string_view text, ReductionRule& out) {
    for (auto rule : {ReductionRule::Sum, ReductionRule::Mean, ReductionRule::WeightedMean}) {
        if (text == to_string(rule)) {
            out = rule;
            return true;
        }
    }
    return false;
}

std::vector<double> reduction_weights(ReductionRule rule, int workers,
                                      std::span<const double> samples) {
    if (workers < 1)
        throw Error("a reduction needs at least one worker");
    const auto n = static_cast<std::size_t>(workers);
    switch (rule) {
    case ReductionRule::Sum:
        return std::vector<double>(n, 1.0);
    case ReductionRule::Mean:
        return std::vector<double>(n, 1.0 / static_cast<double>(workers));
    case ReductionRule::WeightedMean: {
        if (samples.size() != n)
            throw Error("weighted-mean needs one sample count (weight) per value: got " +
                        std::to_string(samples.size()) + " for " + std::to_string(n) + " values");
        double total = 0.0;
        for (double s : samples) {
            if (!(s > 0.0))
                throw Error("weighted-mean needs positive sample counts (weights)");
            total += s;
        }
        std::vector<double> weights(n);
        for (std::size_t k = 0; k < n; ++k)
            weights[k] = samples[k] / total;
        return weights;
    }
    }
    return {};
}

double reduce(ReductionRule rule, std::span<const double> values, std::span<const double> samples) {
    const auto weights = reduction_weights(rule, static_cast<int>(values.size()), samples);
    double result = 0.0;
    for (std::size_t k = 0; k < values.size(); ++k)
        result += weights[k] * values[k];
    return result;
}

void reduce(ReductionRule rule, std::span<const std::span<const double>> inputs,
            std::span<const double> samples, std::span<double> out) {
    const auto weights = reduction_weights(rule, static_cast<int>(inputs.size()), samples);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = 0.0;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        if (inputs[k].size() != out.size())
            throw Error("reduce: every input must have the output's length");
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] += weights[k] * inputs[k][i];
    }
}

// Both on the widest vectors the processor has (model/simd.h), element by element: the same bits.
void scale_contribution(std::span<double> buffer, double weight) {
    if (weight == 1.0)
        return;
    kernels::vector_kernels().scale(buffer.data(), weight, buffer.size());
}

void accumulate(std::span<double> into, std::span<const double> from) {
    kernels::vector_kernels().add(into.data(), from.data(), into.size());
}

// The double sum of two values of a narrower format, rounded once to it, is the format's own
// sum: a double holds more than twice its digits, so the first rounding never misleads the second.
void accumulate_in(WirePrecision wire, std::span<double> into, std::span<const double> from) {
    accumulate(into, from);
    round_to(wire, into);
}

} // namespace lockstep
