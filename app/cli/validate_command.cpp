// lockstep-cli validate: a scenario file read as a run reads it, with its data set and first
// parameters, and a step of it against its memory budget when it has one.
#include "commands.h"

#include "core/error.h"
#include "model/model.h"
#include "runs/runs.h"
#include "scenario/scenario.h"

namespace lockstep::cli {

int command_validate(const std::vector<std::string>& args) {
    const Options o(args, {}, {});
    if (o.positional().size() != 1)
        throw Error(utf8(Cli::tr("validate needs exactly one scenario file")));
    const auto s = lockstep::load_scenario(o.positional().front());
    if (!s.dataset.csv.empty())
        (void)lockstep::load_dataset(s);
    if (!s.init_params.empty())
        (void)lockstep::parameters_from_json(s.model, lockstep::read_text_file(s.init_params));
    lockstep::check_memory_budget(s); // one plain step, as every run starts with
    print(Cli::tr("%1: valid\n").arg(qs(o.positional().front())));
    return 0;
}

} // namespace lockstep::cli
