#!/bin/sh
# SPDX-License-Identifier: MIT
# Fuzzing steer (docs/fuzzing.md). The libFuzzer targets live in a build of
# their own: clang, ASan+UBSan, coverage (build-fuzz, -Dfuzz=true).
#   tools/fuzz.sh setup                  install clang's fuzzer runtime, configure and build build-fuzz
#   tools/fuzz.sh smoke [SECONDS [RESULTS]]
#                                        each target SECONDS (default 12) from the committed corpus;
#                                        prints "N passed, N failed" (targets) and fails on any finding;
#                                        RESULTS gets one line per target in meson's testlog.json form
#   tools/fuzz.sh run TARGET [SECONDS] [JOBS]
#                                        a long run (default an hour, one job); new inputs go to
#                                        fuzz-work/TARGET, findings to fuzz-findings/
#   tools/fuzz.sh merge TARGET           fold fuzz-work/TARGET's new coverage into the committed corpus
#   tools/fuzz.sh seeds FROM TO          steer-fuzz (random programs, not coverage-guided) over a seed
#                                        range in the ASan+UBSan build
# TARGET: api, grid, message, data, scenario, snapshot, container, navmesh, navobst, navfloors, obj.
set -u
cd "$(dirname "$0")/.."
build=${STEER_FUZZ_BUILD:-build-fuzz}
targets="api grid message data scenario snapshot container navmesh navobst navfloors obj"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

setup() {
    tools/setup.sh --packages clang libclang-rt-14-dev meson ninja-build pkg-config liblua5.4-dev || exit 1
    log=$(mktemp)
    if [ ! -f "$build/build.ninja" ]; then
        # clang for C and C++ (the baker, bake.cpp, is instrumented too)
        CC=clang CXX=clang++ meson setup "$build" -Dbuildtype=debug -Doptimization=1 -Db_sanitize=address,undefined \
            -Db_lundef=false -Dfuzz=true -Dviewer=disabled >"$log" 2>&1 ||
            { tail -n 20 "$log"; echo "fuzz: meson setup $build failed"; exit 1; }
    fi
    # every target of $targets, and steer-fuzz
    # shellcheck disable=SC2046
    ninja -C "$build" $(for t in $targets; do echo "tests/fuzz/fuzz_$t"; done) tests/fuzz/steer-fuzz >"$log" 2>&1 ||
        { grep -E "error|FAILED" "$log" | head -n 20; echo "fuzz: building the targets in $build failed"; exit 1; }
    rm -f "$log"
}

# libFuzzer's options for every run: a hang of 10 s is a finding; inputs up
# to 4 KiB (a scenario, a snapshot or an engine's container up to 16 KiB).
# container keeps one engine across inputs (a new one costs 10 ms in the
# kernel, closing its inotify descriptor), so it looks for leaks at the
# end of the run, not after each input (the engine's caches would make
# LeakSanitizer scan the heap every time: 30 inputs a second, not 460).
flags() {
    case "$1" in
    scenario | snapshot) echo "-timeout=10 -max_len=16384 -rss_limit_mb=2048" ;;
    container) echo "-timeout=10 -max_len=16384 -rss_limit_mb=2048 -detect_leaks=0" ;;
    *) echo "-timeout=10 -max_len=4096 -rss_limit_mb=2048" ;;
    esac
}

# The inputs a run starts from: the committed corpus, and for scenario the
# demos too (read in place, not copied into the corpus).
inputs() {
    echo "tests/fuzz/corpus/$1"
    [ "$1" = scenario ] && echo demos
}

case "${1:-}" in
setup) setup ;;
smoke)
    setup
    seconds=${2:-12}
    results=${3:-/dev/null}
    : >"$results"
    passed=0
    failed=0
    work=$(mktemp -d)
    mkdir -p fuzz-findings
    for t in $targets; do
        mkdir -p "$work/$t"
        # shellcheck disable=SC2046
        if "$build/tests/fuzz/fuzz_$t" $(flags "$t") -max_total_time="$seconds" -print_final_stats=1 \
            -artifact_prefix="fuzz-findings/$t-" "$work/$t" $(inputs "$t") >"$work/$t.log" 2>&1; then
            passed=$((passed + 1))
            echo "fuzz smoke $t: ok ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$t.log" | grep -o '[0-9]*$') runs)"
            printf '{"name": "fuzz-smoke-%s", "result": "OK"}\n' "$t" >>"$results"
        else
            failed=$((failed + 1))
            echo "fuzz smoke $t: FAILED"
            printf '{"name": "fuzz-smoke-%s", "result": "FAIL"}\n' "$t" >>"$results"
            grep -E "ERROR|runtime error|fuzz_[a-z]+:|Test unit written" "$work/$t.log" | head -20
        fi
    done
    rm -rf "$work"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    ;;
run)
    t=${2:?target: $targets}
    setup
    mkdir -p "fuzz-work/$t" fuzz-findings
    jobs=${4:-1}
    parallel=""
    [ "$jobs" -gt 1 ] && parallel="-jobs=$jobs -workers=$jobs" # each job logs to fuzz-N.log
    # shellcheck disable=SC2046,SC2086
    exec "$build/tests/fuzz/fuzz_$t" $(flags "$t") -max_total_time="${3:-3600}" $parallel \
        -print_final_stats=1 -artifact_prefix="fuzz-findings/$t-" "fuzz-work/$t" $(inputs "$t")
    ;;
merge)
    t=${2:?target: $targets}
    setup
    mkdir -p "fuzz-work/$t"
    # shellcheck disable=SC2046
    exec "$build/tests/fuzz/fuzz_$t" $(flags "$t") -merge=1 "tests/fuzz/corpus/$t" "fuzz-work/$t"
    ;;
seeds)
    asan=${STEER_BUILD_ASAN:-build-asan}
    tools/setup.sh "$asan" -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false || exit 1
    exec "$asan/tests/fuzz/steer-fuzz" "${2:?FROM}" "${3:?TO}"
    ;;
*)
    sed -n '3,18p' "$0"
    exit 2
    ;;
esac
