// lockstep-cli bench allreduce|train: the in-process all-reduce's bandwidth (or Open MPI's, one
// worker per process) and the trainer's samples per second.
#include "commands.h"
#include "mpi_command.h"

#include "collectives/bench.h"
#include "core/error.h"
#include "runs/train_bench.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

namespace lockstep::cli {

using nlohmann::json;

int command_bench(const std::vector<std::string>& args) {
    if (args.empty())
        throw Error(utf8(Cli::tr("bench needs a kind: allreduce, link or train")));
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args.front() == "link") {
        // Between processes only: mpirun starts them, on one host or two.
        const Options o(rest, {"--bytes", "--iterations"}, {"--json"});
        const auto bytes =
            o.integer("--bytes", 1024, std::int64_t{1} << 30).value_or(std::int64_t{1} << 20);
        const int iterations = static_cast<int>(o.integer("--iterations", 1, 100000).value_or(20));
        const lockstep::cli::MpiCommand mpi;
        return lockstep::cli::bench_link_processes(bytes, iterations, o.has("--json"));
    }
    if (args.front() == "allreduce") {
        const Options o(rest,
                        {"--algorithm", "--workers", "--bytes", "--iterations", "--transport"},
                        {"--json"});
        const std::string transport = o.text("--transport").value_or("threads");
        if (transport != "threads" && transport != "mpi")
            throw not_one_of("--transport", "threads, mpi", transport);
        lockstep::Algorithm algorithm = lockstep::Algorithm::Ring;
        choose(o, "--algorithm", algorithm, lockstep::parse_algorithm,
               "parameter-server, ring, tree");
        if (algorithm == lockstep::Algorithm::Hierarchical)
            throw Error(utf8(Cli::tr("--algorithm: hierarchical needs machines, which bench "
                                     "allreduce has none of; compare it in a run with --nodes M")));
        const int workers = static_cast<int>(o.integer("--workers", 1, 256).value_or(4));
        const auto bytes =
            o.integer("--bytes", 8, std::int64_t{1} << 30).value_or(std::int64_t{16} << 20);
        const int iterations = static_cast<int>(o.integer("--iterations", 1, 100000).value_or(0));
        if (transport == "mpi") {
            if (o.has("--workers"))
                throw Error(utf8(Cli::tr("--workers: over Open MPI every process is one worker; "
                                         "start as many as you want with mpirun -np N")));
            const lockstep::cli::MpiCommand mpi;
            int code = 0;
            lockstep::cli::on_every_rank([&] {}); // every rank has started
            code = lockstep::cli::bench_processes(algorithm, bytes, iterations, o.has("--json"));
            return code;
        }
        const auto r = lockstep::bench_all_reduce(algorithm, workers, bytes, iterations);
        if (o.has("--json")) {
            std::cout << json{{"algorithm", std::string(lockstep::to_string(r.algorithm))},
                              {"workers", r.workers},
                              {"bytes", r.bytes},
                              {"iterations", r.iterations},
                              {"time_s", r.seconds},
                              {"algbw_gbps", r.algbw_gbps},
                              {"busbw_gbps", r.busbw_gbps},
                              {"memcpy_gbps", r.memcpy_gbps}}
                             .dump(2)
                      << '\n';
        } else {
            print(Cli::tr("%1 all-reduce, %2 workers, %3 bytes: %4 ms, algbw %5 GB/s, busbw %6 "
                          "GB/s, memcpy %7 GB/s\n")
                      .arg(qs(std::string(lockstep::to_string(r.algorithm))),
                           QString::number(r.workers), QString::number(r.bytes),
                           decimal("%.3f", r.seconds * 1e3), decimal("%.2f", r.algbw_gbps),
                           decimal("%.2f", r.busbw_gbps), decimal("%.2f", r.memcpy_gbps)));
        }
        return 0;
    }
    if (args.front() == "train") {
        const Options o(rest, {"--layers", "--batch", "--steps", "--workers", "--threads"},
                        {"--json"});
        const auto layers64 =
            o.integer_list("--layers", 1, lockstep::ScenarioLimits::max_layer_width)
                .value_or(std::vector<std::int64_t>{2, 64, 64, 2});
        const std::vector<int> layers(layers64.begin(), layers64.end());
        const auto batch = static_cast<std::size_t>(o.integer("--batch", 1, 65536).value_or(32));
        const auto steps = o.integer("--steps", 2, 10'000'000).value_or(2000);
        const int workers = static_cast<int>(o.integer("--workers", 1, 256).value_or(1));
        const int threads = static_cast<int>(o.integer("--threads", 1, 1024).value_or(0));
        const auto r = lockstep::bench_train(layers, batch, steps, workers, threads);
        if (o.has("--json")) {
            std::cout << json{{"layers", r.layers},
                              {"batch", r.batch},
                              {"steps", r.steps},
                              {"workers", r.workers},
                              {"threads", r.threads},
                              {"seconds", r.seconds},
                              {"samples_per_s", r.samples_per_s}}
                             .dump(2)
                      << '\n';
        } else {
            print(Cli::tr("training: %1 samples/s (%2 steps of %3 samples x %4 workers in %5 "
                          "s)\n")
                      .arg(decimal("%.0f", r.samples_per_s), QString::number(r.steps),
                           QString::number(r.batch), QString::number(r.workers),
                           decimal("%.3f", r.seconds)));
        }
        return 0;
    }
    throw Error(
        utf8(Cli::tr("bench: unknown kind '%1' (allreduce or train)").arg(qs(args.front()))));
}

} // namespace lockstep::cli
