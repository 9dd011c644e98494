// lockstep-cli reduce: one reduction rule applied to values, as every collective applies it.
#include "commands.h"

#include "collectives/reduction.h"
#include "core/error.h"

#include <iostream>
#include <vector>

namespace lockstep::cli {

int command_reduce(const std::vector<std::string>& args) {
    const Options o(args, {"--rule", "--values", "--weights"}, {});
    if (!o.positional().empty())
        throw Error(
            utf8(Cli::tr("reduce takes no file; unexpected '%1'").arg(qs(o.positional().front()))));
    lockstep::ReductionRule rule = lockstep::ReductionRule::Mean;
    choose(o, "--rule", rule, lockstep::parse_reduction_rule, "sum, mean, weighted-mean");
    const auto values = o.number_list("--values");
    if (!values)
        throw Error(utf8(Cli::tr("reduce needs --values, e.g. --values 2,4")));
    const auto weights = o.number_list("--weights");
    if (rule == lockstep::ReductionRule::WeightedMean && !weights)
        throw Error(utf8(Cli::tr("--rule weighted-mean needs --weights (the samples behind each "
                                 "value), e.g. --weights 30,10")));
    if (weights && weights->size() != values->size())
        throw Error(
            utf8(Cli::tr("--weights: needs one weight per value (%1), got %2")
                     .arg(QString::number(values->size()), QString::number(weights->size()))));
    const std::vector<double> samples = weights ? *weights : std::vector<double>{};
    std::cout << format_number(lockstep::reduce(rule, *values, samples)) << '\n';
    return 0;
}

} // namespace lockstep::cli
