#!/usr/bin/env bash
# Open MPI against threads on this machine: our ring over MPI_Isend/MPI_Irecv beside Open MPI's
# own MPI_Allreduce (64 MiB, 2 and 4 ranks), and a compute-heavy training run with 4 processes
# beside 4 threads, both on the measured clock. One JSON object per line. Run from the source
# tree after building: tests/bench/bench_mpi.sh [BUILD_DIR] [REPEATS]
set -euo pipefail
build=${1:-build}
repeats=${2:-5}
cli="$build/app/lockstep-cli"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
mpi=(mpirun --oversubscribe)

for ranks in 2 4; do
    for ((i = 0; i < repeats; i++)); do
        "${mpi[@]}" -np "$ranks" "$cli" bench allreduce --transport mpi --algorithm ring \
            --bytes 67108864 --iterations 10 --json |
            python3 -c 'import json, sys
b = json.load(sys.stdin)
print(json.dumps({"bench": "allreduce-64MiB", "ranks": b["ranks"], "busbw_gbps": round(b["busbw_gbps"], 3),
                  "mpi_allreduce_busbw_gbps": round(b["mpi_allreduce_busbw_gbps"], 3),
                  "ratio": round(b["busbw_gbps"] / b["mpi_allreduce_busbw_gbps"], 2),
                  "max_difference": b["max_difference"]}))'
    done
done

# Compute-heavy: 4 x 1024 samples through 2-256-256-3 each step. The two runs alternate, and the
# last line compares their medians (one run on this shared machine can be 15 % off).
train=(run --workers 4 --steps 30 --layers 2,256,256,3 --batch 1024 --dataset spiral --clock measured --json)
times=()
for ((i = 0; i < repeats; i++)); do
    threads=$("$cli" "${train[@]}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["total_time_s"])')
    procs=$("${mpi[@]}" -np 4 "$cli" "${train[@]}" --transport mpi |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["total_time_s"])')
    times+=("$threads $procs")
    python3 -c "import json; print(json.dumps({'bench': 'train-4-workers', 'threads_s': $threads, 'processes_s': $procs, 'processes_over_threads': round($procs / $threads, 2)}))"
done
printf '%s\n' "${times[@]}" | python3 -c 'import json, statistics, sys
rows = [tuple(map(float, line.split())) for line in sys.stdin]
t = statistics.median(r[0] for r in rows)
p = statistics.median(r[1] for r in rows)
print(json.dumps({"bench": "train-4-workers-median", "runs": len(rows), "threads_s": round(t, 3),
                  "processes_s": round(p, 3), "processes_over_threads": round(p / t, 3)}))'
