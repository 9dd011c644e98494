#!/usr/bin/env bash
# Crash soak: N rounds (default 1000) of abuse of lockstep-cli run while it trains and
# checkpoints, in turn: a SIGKILL at a random moment, then a resume that must start from the
# newest complete checkpoint; a SIGSTOP at a random moment, a resume of the same directory that
# must be refused (the frozen run holds it), then SIGCONT; two runs started at once on one new
# directory, of which exactly one must own it. Every run ends with the uninterrupted run's final
# parameters. It runs the test_crash suite with more rounds; pass a seed to vary the moments.
#   scripts/crash-soak.sh [N] [SEED] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

iterations=${1:-1000}
seed=${2:-$(date +%s)}
build=${3:-build}

if [ ! -x "$build/tests/test_crash" ]; then
    echo "crash-soak: $build/tests/test_crash not found; build first (cmake --build $build)" >&2
    exit 2
fi
echo "crash-soak: $iterations rounds (kill, stop, race), seed $seed"
LOCKSTEP_CRASH_ITERATIONS=$iterations LOCKSTEP_CRASH_SEED=$seed \
    "$build/tests/test_crash" kill_and_resume -maxwarnings 0
