#!/usr/bin/env bash
# Quick start: install what is missing, build, and start Lockstep. Without a display (or before
# the lab window exists) it runs the headless demo with lockstep-cli instead.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default

if [ -x build/app/lockstep ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec build/app/lockstep "$@"
fi

cli=build/app/lockstep-cli
echo
echo "== The worked example: one worker needs 40 s; four workers share the work but talk for 6 s"
"$cli" run resources/scenarios/worked-example.json
echo
echo "== Four workers training on a spiral, gradients combined by a ring all-reduce"
"$cli" run
echo
echo "== The same without synchronisation: every replica trains alone and they drift apart"
"$cli" run --algorithm none
echo
echo "== Speedup as workers are added (modelled clock)"
"$cli" sweep --workers 1,2,4,8,16,32
echo
echo "== Reductions: mean of 2 and 4, their sum, and a mean weighted by 30 and 10 samples"
"$cli" reduce --rule mean --values 2,4
"$cli" reduce --rule sum --values 2,4
"$cli" reduce --rule weighted-mean --values 2,4 --weights 30,10
