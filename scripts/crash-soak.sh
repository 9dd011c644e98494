#!/usr/bin/env bash
# Crash soak: kills lockstep-cli run with SIGKILL at N random moments (default 1000) while it
# trains and checkpoints, resumes each time and checks that every resume succeeds from the newest
# complete checkpoint with the uninterrupted run's final parameters. It runs the test_crash suite
# with more iterations; pass a seed to vary the moments.
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
echo "crash-soak: $iterations kills, seed $seed"
LOCKSTEP_CRASH_ITERATIONS=$iterations LOCKSTEP_CRASH_SEED=$seed \
    "$build/tests/test_crash" kill_and_resume -maxwarnings 0
