#include "help.h"

#include "class_command.h"
#include "lessons_commands.h"
#include "options.h"

#include "lockstep_lessons/lesson.h"
#include "model/simd.h"

#include <algorithm>

namespace lockstep::cli {

namespace {

// The overview's first part: every command.
QString commands_text() {
    return Cli::tr(R"(usage: lockstep-cli COMMAND [ARGS]
       lockstep-cli --version | --help | COMMAND --help

commands:
  run [SCENARIO.json] [flags]     train with N workers and report time, speedup and loss
  mpirun -np N lockstep-cli run [SCENARIO.json] --transport mpi [flags]
                                  the same run with one process per worker, over Open MPI
  sweep [SCENARIO.json] --workers 1,2,4,8 [--json]
                                  the same scenario over several worker counts
  reduce --rule sum|mean|weighted-mean --values 2,4 [--weights 30,10]
                                  combine values the way the engine combines gradients
  resume DIR [--json] [--params-out FILE] [--trace FILE] [--trace-detail D] [--metrics-csv FILE]
         [--from-scratch] [--transport mpi [--rank-timeout S]]
                                  continue a run from its newest complete checkpoint
  checkpoints DIR [--json]        each checkpoint: complete, partial or corrupt, and why
  compare A.json B.json [--target-loss X] [--seeds N] [--json]
                                  two scenarios side by side: time and energy to the same
                                  loss, useful work, synchronisation, waiting, lost work
  compare [SCENARIO.json] --sync bsp,ssp,async,local [--staleness S] [--local-steps H]
                                  one scenario under each way of agreeing, side by side
  moves [SCENARIO.json] [--stages P ...] [--json]
                                  bytes each parallelism moves per step, per link, and waiting
  validate FILE                   check a scenario file; exit 0 or print what is wrong
  memory [SCENARIO.json] [--shard none,optimizer,gradients,parameters] [--json]
                                  what a data-parallel worker holds, kind by kind, per stage
  bench allreduce --algorithm ring --workers 4 --bytes N [--json]
  mpirun -np N lockstep-cli bench allreduce --transport mpi --algorithm ring --bytes N [--json]
  mpirun -np 2 lockstep-cli bench link [--bytes N] [--iterations N] [--json]
                                  latency and bandwidth between two processes (ping-pong)
  bench train --layers 2,64,64,2 --batch 32 --steps 200 --workers 1 [--threads N] [--json]
)");
}

// The flag every command takes.
QString language_text() {
    return Cli::tr(R"(
language (a flag of every command, before or after the command):
  --language de|es|en             messages, help, lessons and quizzes in German, Spanish or
                                  English; by default the language that LANGUAGE, LC_ALL,
                                  LC_MESSAGES or LANG name, else English
)");
}

// How a data-parallel worker hands over its gradient: buckets, overlap, accumulation.
QString gradient_flags_text() {
    return Cli::tr(R"(
gradient flags (bulk-synchronous data parallelism; the scenario's "gradients" block):
  --bucket-kb B  gradients leave in buckets of at most B KB, the last layers first, each
         bucket's collective starting while backward goes on (0: one bucket, after backward)
  --no-overlap  the buckets wait until backward has ended
  --paced-links  on the measured clock, each round of the collective also lasts the cost
         model's price for real (its links' speed), so overlap hides real time
  --accumulate K  K micro-batches of --batch samples added up before one reduction
  --fail bucket-order:worker=2,step=5  that worker reduces its buckets in another order in
         that step: the run sees it from the messages and stops the step
  sweep --bucket-kb 0,8,32,128  the same run for each bucket size: step time, the
         communication left exposed, and the fastest size
  --shard optimizer|gradients|parameters  sharded data parallelism, ZeRO stage 1, 2 or 3
         (the scenario's "sharding"): the gradients are reduce-scattered, each worker
         keeps and updates the optimizer state of its 1/N of the parameters only, then the
         parameters are all-gathered; stage 2 keeps only its 1/N of the gradient too;
         stage 3 (FSDP) keeps 1/N of every layer and gathers a layer when a pass needs it
  --comm-precision float32|float16|bfloat16  the gradients travel and are added in that
         format (the scenario's "comm_precision"): fewer bytes on every link, each sum
         rounded to it; a step whose summed gradient overflowed is skipped
  --precision float64|float32  the numbers the model trains in (the scenario's
         "precision"): with float32 every pass and update runs on floats, half the bytes
         of float64, and the gradients travel as float32 unless --comm-precision narrows them
  --loss-scale S  with a narrower --comm-precision, each gradient is multiplied by S (a
         power of two) before it is rounded and divided again after the sum, so small values
         keep their bits; a step that overflows is skipped and S halved, and after
         --loss-scale-growth K steps (default 2000) without an overflow S doubles
  --compare-precision  each step also works out every worker's gradient in float64 and
         reports how far the summed gradient the step used was from it (threads only)
)");
}

// The flags of run, in the overview and on run's page.
QString run_flags_text() {
    return Cli::tr(R"(
run flags (override the scenario):
  --workers N  --steps N  --seed N  --batch N (per worker)
  --clock modelled|measured  --rule sum|mean|weighted-mean
  --algorithm parameter-server|ring|tree|hierarchical|none (mpi-allreduce: Open MPI's own, with
         --transport mpi; hierarchical: inside each machine, then across, with --nodes)
  --nodes M  the workers in M machines (workers / M each): fast links inside a machine, a
         100 Mbit/s network between machines (a scenario's "topology" sets other links)
  --transport threads|mpi  threads (default): every worker a thread of this process; mpi: each
         process that mpirun starts is one worker, on the measured clock (see docs/MPI.md)
  --rank-timeout S  with --transport mpi: a rank that waits S seconds (default 30) for another
         asks which ranks are alive, and the job ends naming the ones that did not answer
  --layers 2,8,2  --activation tanh|relu|sigmoid|linear
  --optimizer sgd|adam  --lr X  --momentum X
  --dataset spiral|circles|xor|clusters|regression|FILE.csv  --shuffle on|off
  --init-params FILE.json  --params-out FILE.json
  --trace FILE.json (Chrome trace, written as the run goes)  --metrics-csv FILE  --json
  --trace-detail rounds|phases  rounds (default): every event, one slice per collective
         round per worker; phases: a worker's consecutive rounds and the waits between them
         as one "collective" slice, for crowds (a 256-worker ring: 256 slices a step, not 130,000)
  --checkpoint-dir DIR  --checkpoint-every K  --keep M  --restore full|weights-only
  --fail SPEC (repeatable): crash:worker=2,step=30,phase=compute|communicate|update|
         before-fsync|after-fsync|after-rename   pause:worker=1,step=10,seconds=5
         slow-link:worker=3,step=0,factor=4      corrupt:worker=0,step=20[,how=truncate]
  --policy restart|elastic|backup  --backup-workers B  --heartbeat SECONDS
  --parallelism data|pipeline|tensor|hybrid  --stages P  --microbatches M
  --schedule fill-drain|1f1b  --replicas D (hybrid)
  --sync bsp|ssp|async|local  how often the workers agree: every step (bsp, the default), when
         the slowest is more than --staleness S clocks behind (ssp), never: each gradient applied
         as it arrives (async, --staleness-aware-lr), or by averaging the replicas every
         --local-steps H steps (local). ssp and async go through a parameter server.
)");
}

// One page per command: what it does, then its usage and flags. Empty for an unknown one.
QString page(const std::string& name) {
    if (name == "run")
        return Cli::tr(
            "usage: lockstep-cli run [SCENARIO.json] [flags]\n\n"
            "Trains the scenario's model (the built-in one without a file) with its workers and\n"
            "reports the time on the run's clock, the speedup over one worker, the time spent\n"
            "communicating and waiting, and the final loss and accuracy. Flags override the\n"
            "scenario. Under mpirun with --transport mpi, each process is one worker.\n");
    if (name == "sweep")
        return Cli::tr(
            "usage: lockstep-cli sweep [SCENARIO.json] --workers 1,2,4,8 [flags] [--json]\n\n"
            "Runs the same scenario once per worker count and prints each count's time, speedup\n"
            "and efficiency: the speedup curve of the Speedup view.\n\n"
            "flags: --workers LIST  --steps N  --seed N  --clock modelled|measured\n"
            "       --rule R  --algorithm A  --layers L  --activation F  --optimizer O  --lr X\n"
            "       --momentum X  --batch N  --dataset D  --shuffle on|off  --init-params FILE\n"
            "       --json\n");
    if (name == "reduce")
        return Cli::tr(
            "usage: lockstep-cli reduce --rule sum|mean|weighted-mean --values 2,4 "
            "[--weights 30,10]\n\n"
            "Combines the values the way the engine combines the workers' gradients and prints\n"
            "the result. weighted-mean needs --weights: the samples behind each value.\n");
    if (name == "resume")
        return Cli::tr(
            "usage: lockstep-cli resume DIR [--json] [--params-out FILE] [--trace FILE]\n"
            "                           [--trace-detail rounds|phases] [--metrics-csv FILE]\n"
            "                           [--from-scratch] [--transport mpi [--rank-timeout S]]\n\n"
            "Continues the run whose checkpoints are in DIR from its newest complete checkpoint,\n"
            "skipping partial and corrupt ones and those that do not fit the run, and reports\n"
            "the run as run does. The run holds DIR while it trains: a second run or resume of\n"
            "it is refused. When DIR holds checkpoints but none can be used, resume refuses to\n"
            "start again over them; --from-scratch sets them aside in DIR/set-aside-N first.\n");
    if (name == "checkpoints")
        return Cli::tr("usage: lockstep-cli checkpoints DIR [--json]\n\n"
                       "Lists each checkpoint in DIR: complete, partial or corrupt, and why.\n");
    if (name == "compare")
        return Cli::tr(
            "usage: lockstep-cli compare A.json B.json [--target-loss X] [--seeds N] [--json]\n"
            "       lockstep-cli compare [SCENARIO.json] --sync bsp,ssp,async,local\n"
            "                            [--staleness S] [--local-steps H] [--target-loss X] "
            "[--json]\n\n"
            "Runs two scenarios and sets them side by side: time and energy to the same target\n"
            "loss (default: the highest final loss), useful samples per second,\n"
            "synchronisation, waiting and lost work, and the loss and accuracy on fresh examples\n"
            "as mean ± sd over N seeds (default 3). With --sync, one scenario under each way of\n"
            "agreeing (ssp with staleness 2 and local SGD every 4 steps unless given).\n");
    if (name == "moves")
        return Cli::tr(
            "usage: lockstep-cli moves [SCENARIO.json] [--parallelism "
            "data|pipeline|tensor|hybrid]\n"
            "                          [--stages P] [--microbatches M] [--schedule S]\n"
            "                          [--replicas D] [--workers N] [--batch N] [--layers L]\n"
            "                          [--steps N] [--algorithm A] [--json]\n\n"
            "Prints the bytes each kind of parallelism moves per step, per link, and the time\n"
            "workers wait, for the same model.\n");
    if (name == "memory")
        return Cli::tr(
            "usage: lockstep-cli memory [SCENARIO.json] [--shard none,optimizer,...] "
            "[--workers N]\n"
            "                           [--layers L] [--optimizer sgd|adam] [--batch N] "
            "[--json]\n\n"
            "Runs one step of the scenario for each way of sharding and prints, kind by kind,\n"
            "the bytes the worker holding the most keeps: parameters, gradients, optimizer\n"
            "state, activations and the kernels' workspace, read off its buffers, and the\n"
            "most parameters it held at once. --shard takes a list of none, optimizer,\n"
            "gradients and parameters (ZeRO stages 0 to 3); all four by default.\n");
    if (name == "validate")
        return Cli::tr(
            "usage: lockstep-cli validate FILE\n\n"
            "Checks a scenario file, its dataset and its initial parameters. Exits 0 and prints\n"
            "'valid', or prints what is wrong, naming the field and the allowed values.\n");
    if (name == "bench")
        return Cli::tr("usage: lockstep-cli bench allreduce|link|train [flags]\n\n"
                       "Measures this machine. See lockstep-cli bench allreduce --help,\n"
                       "lockstep-cli bench link --help and lockstep-cli bench train --help.\n");
    if (name == "bench link")
        return Cli::tr(
            "usage: mpirun -np 2 lockstep-cli bench link [--bytes N] [--iterations N] [--json]\n\n"
            "Measures the link between rank 0 and the last rank by ping-pong: 8 bytes and N\n"
            "bytes (default 1048576) there and back, 20 times each. The latency is half the\n"
            "small message's round trip, the bandwidth the large one's extra bytes over its\n"
            "extra time: the two numbers a scenario's topology.inter takes. Start the ranks on\n"
            "two machines (a hostfile, or scripts/two-hosts.sh) to measure the network.\n");
    if (name == "bench allreduce")
        return Cli::tr(
            "usage: lockstep-cli bench allreduce [--algorithm ring|tree|parameter-server]\n"
            "                                    [--workers N] [--bytes N] [--iterations N] "
            "[--json]\n"
            "       mpirun -np N lockstep-cli bench allreduce --transport mpi [--algorithm A]\n"
            "                                    [--bytes N] [--iterations N] [--json]\n\n"
            "Times all-reduces of real buffers between threads (or processes) and prints the\n"
            "algorithm and bus bandwidth beside this machine's memory copy bandwidth.\n");
    if (name == "bench train")
        return Cli::tr(
            "usage: lockstep-cli bench train [--layers 2,64,64,2] [--batch 32] [--steps 2000]\n"
            "                                [--workers 1] [--threads N] [--json]\n\n"
            "Times real training steps and prints the samples per second.\n");
    return {};
}

bool is_flag(const std::string& word) {
    return word.size() > 1 && word[0] == '-';
}

} // namespace

QString overview_help() {
    return commands_text() + language_text() + run_flags_text() + gradient_flags_text() +
           lessons_usage() + class_usage();
}

QString command_help(const std::vector<std::string>& words) {
    std::vector<std::string> names;
    for (const std::string& w : words) {
        if (is_flag(w))
            break;
        names.push_back(w);
    }
    if (names.empty())
        return {};
    if (names[0] == "lessons" || names[0] == "quiz")
        return Cli::tr("usage: lockstep-cli %1 SUBCOMMAND [ARGS]\n").arg(qs(names[0])) +
               lessons_usage();
    if (names[0] == "class")
        return Cli::tr("usage: lockstep-cli class serve BANK [flags]\n") + class_usage();
    if (names[0] == "bench" && names.size() > 1) {
        const QString text = page("bench " + names[1]);
        if (!text.isEmpty())
            return text;
    }
    const QString text = page(names[0]);
    if (text.isEmpty())
        return {};
    if (names[0] == "sweep")
        return text + gradient_flags_text();
    return names[0] == "run" ? text + run_flags_text() + gradient_flags_text() : text;
}

bool asks_for_help(const std::vector<std::string>& args) {
    return std::any_of(args.begin(), args.end(),
                       [](const std::string& a) { return a == "--help" || a == "-h"; });
}

QString version_text() {
    return QStringLiteral("lockstep-cli " LOCKSTEP_VERSION "\n") + lessons::describe_resources() +
           QString::fromStdString(simd::describe());
}

} // namespace lockstep::cli
