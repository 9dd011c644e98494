#!/usr/bin/env bash
# Regenerates the engine-made seeds of tests/fuzz/corpus/: runs lockstep-cli on each scenario in
# tests/fuzz/seeds/ with checkpoints, then copies the checkpoint files and the effective
# scenario.json as valid seeds and derives the hostile checkpoint seeds (make_fuzz_seeds).
# Hand-written hostile scenarios (corpus/fuzz_scenario/bad-*.json) are kept as they are.
#   tests/fuzz/make-corpus.sh [LOCKSTEP_CLI] [MAKE_FUZZ_SEEDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
cli=${1:-build/app/lockstep-cli}
seeds=${2:-build-fuzz/tests/fuzz/make_fuzz_seeds}
corpus=tests/fuzz/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dirs=()
# two-workers-sgd first: the hostile seeds are derived from its unsharded two-worker files
for scenario in tests/fuzz/seeds/two-workers-sgd.json tests/fuzz/seeds/*.json; do
    name=$(basename "$scenario" .json)
    [[ -d "$work/$name" ]] && continue
    "$cli" run "$scenario" --checkpoint-dir "$work/$name" >/dev/null
    dirs+=("$work/$name")
    mkdir -p "$corpus/fuzz_scenario"
    cp "$work/$name/scenario.json" "$corpus/fuzz_scenario/effective-$name.json"
    cp "$scenario" "$corpus/fuzz_scenario/seed-$name.json"
done
cp resources/scenarios/*.json "$corpus/fuzz_scenario/"
"$seeds" "$corpus" "${dirs[@]}"
