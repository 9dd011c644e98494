#pragma once

#include "collectives/precision.h"

#include <span>
#include <string_view>
#include <vector>

namespace lockstep {

// How the workers' gradients are combined into the one value every replica uses. The rule is
// always explicit: frameworks differ (PyTorch DDP averages, others sum), and the choice changes
// the update.
enum class ReductionRule {
    Sum,          // g = g_0 + g_1 + ...
    Mean,         // g = (g_0 + g_1 + ...) / N: every worker counts the same
    WeightedMean, // g = sum_k n_k g_k / sum_k n_k: every sample counts the same
};

std::string_view to_string(ReductionRule rule);
bool parse_reduction_rule(std::string_view text, ReductionRule& out);

// The factor each worker's contribution is multiplied by before the contributions are added.
// `samples[k]` is how many samples worker k used (only WeightedMean reads it; it must be
// positive there). Throws lockstep::Error for a weighted mean without samples.
std::vector<double> reduction_weights(ReductionRule rule, int workers,
                                      std::span<const double> samples);

// THE reduction: sum over k, in worker order, of weight_k * value_k. The CLI, the quizzes and the
// serial reference of every collective all call this; the collectives reuse its two halves below.
double reduce(ReductionRule rule, std::span<const double> values,
              std::span<const double> samples = {});

// The serial reference for whole gradient vectors: out[i] = sum_k weight_k * inputs[k][i].
void reduce(ReductionRule rule, std::span<const std::span<const double>> inputs,
            std::span<const double> samples, std::span<double> out);

// The two halves a collective uses: each worker scales its own buffer by its weight, then the
// collective adds buffers together, chunk by chunk, as its messages arrive.
void scale_contribution(std::span<double> buffer, double weight);
void accumulate(std::span<double> into, std::span<const double> from);
// The same for values that travel in a narrower format: each sum rounded to it, as an addition
// in that format gives (the operands already are its values).
void accumulate_in(WirePrecision wire, std::span<double> into, std::span<const double> from);

} // namespace lockstep
