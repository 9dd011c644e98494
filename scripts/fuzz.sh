#!/usr/bin/env bash
# Builds the libFuzzer targets (preset fuzz: Clang, ASan + UBSan, into build-fuzz/) and runs each
# over its seed corpus in tests/fuzz/corpus/<target>/ for SECONDS (default 20). Fails on the first
# crash, sanitizer report, uncaught exception, leak or timeout; the input that did it is saved as
# build-fuzz/artifacts/<target>-crash-<sha1>. New inputs the fuzzers find go to a scratch
# directory, so the committed corpus is not touched. FUZZ_JOBS sets the build's jobs (default 2).
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
# One target per tests/fuzz/fuzz_<reader>.cpp, as tests/fuzz/CMakeLists.txt makes them.
targets=()
for source in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$source" .cpp)"); done

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "${FUZZ_JOBS:-2}" --target "${targets[@]}" make_fuzz_seeds

mkdir -p build-fuzz/artifacts
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for target in "${targets[@]}"; do
    dict=()
    [[ $target == fuzz_scenario ]] && dict=(-dict=tests/fuzz/scenario.dict)
    # Every link of a page is parsed and applied: long pages only slow the search down.
    [[ $target == fuzz_lesson_links ]] && dict=(-max_len=2048)
    # A recording's smallest seed is 1.6 kB: room for a few more events and snapshots.
    [[ $target == fuzz_recording ]] && dict=(-max_len=4096)
    # The CSV reader holds at most CsvLimits::memory_bound_bytes() (368 MiB with its default
    # limits, checked by test_data): more than that is a failure, whatever the input. ASan's
    # quarantine of freed memory (256 MB by default) is kept small so that it does not count.
    rss=2048
    asan=${ASAN_OPTIONS:-}
    if [[ $target == fuzz_csv ]]; then
        rss=368
        asan="${asan:+$asan:}quarantine_size_mb=32"
    fi
    mkdir -p "$scratch/$target"
    echo "== $target: ${seconds} s over tests/fuzz/corpus/$target"
    ASAN_OPTIONS=$asan build-fuzz/tests/fuzz/$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb="$rss" \
        -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$target-" "${dict[@]}" \
        "$scratch/$target" "tests/fuzz/corpus/$target" 2>"build-fuzz/artifacts/$target.log" || {
        tail -n 60 "build-fuzz/artifacts/$target.log"
        echo "fuzz.sh: $target failed; the input is in build-fuzz/artifacts/" >&2
        exit 1
    }
    grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb)' \
        "build-fuzz/artifacts/$target.log" || true
done
echo "fuzz.sh: ${#targets[@]} targets ran ${seconds} s each without a failure"
