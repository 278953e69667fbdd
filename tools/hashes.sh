#!/bin/sh
# SPDX-License-Identifier: MIT
# The same bits across builds and thread counts: run every demo headless in
# each build (and in the first with STEER_NO_AVX2=1, the SSE neighbour
# pass, and on 2, 3, 4 and 8 threads) and compare the world hashes of their
# summary lines; the first build's tests/test-hashes prints the C
# workloads' hashes (the standard flock and the others of
# tests/c/workloads.h), compared the same way across its runs. A demo runs
# for the ticks its header names ("-- Headless: steer run --headless
# --ticks N"), else 600. The thread counts come from STEER_THREADS (the
# default of worlds that do not choose one), with STEER_PAR_GRAIN=16
# agents per item so that the demos' small worlds split too. Prints each
# differing demo or workload with every run's hash, writes one line per
# demo and workload to RESULTS in the form of meson's testlog.json
# (run-tests.sh counts them), and exits 1 when any differs or fails.
#   tools/hashes.sh RESULTS REF_BUILD [OTHER_BUILD...]
set -u
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    echo "usage: tools/hashes.sh RESULTS REF_BUILD [OTHER_BUILD...]" >&2
    exit 2
fi
results="$1"
shift
ref="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_all LABEL BUILD [VAR=VALUE...]: every demo in one build, one after
# another (the runs go side by side), each hash (or "failed") to
# $tmp/LABEL.DEMO; with the reference build, the workloads' hashes of
# test-hashes --print to $tmp/LABEL.bench-NAME.
run_all() {
    label="$1" build="$2"
    shift 2
    for demo in demos/*.lua; do
        name=$(basename "$demo" .lua)
        ticks=$(sed -n 's/^-- Headless: steer run --headless --ticks \([0-9]*\).*/\1/p' "$demo" | head -n 1)
        out=$(env "$@" "$build/steer" run --headless --ticks "${ticks:-600}" "$demo" 2>&1)
        hash=$(printf '%s\n' "$out" | sed -n 's/.*, hash \([0-9a-f]*\)$/\1/p' | tail -n 1)
        if [ -n "$hash" ]; then
            echo "$hash" >"$tmp/$label.$name"
        else
            echo "failed" >"$tmp/$label.$name"
            printf '%s\n' "$out" | tail -n 5 >"$tmp/$label.$name.log"
        fi
    done
    if [ "$build" = "$ref" ] && [ -x "$build/tests/test-hashes" ]; then
        env "$@" "$build/tests/test-hashes" --print >"$tmp/$label.bench" 2>&1
        while read -r workload ticks hash; do
            echo "$hash" >"$tmp/$label.bench-$workload"
        done <"$tmp/$label.bench"
    fi
}

# the reference's runs (1 to nref): as it is, without AVX2, on several threads
labels="$ref $ref(STEER_NO_AVX2=1)"
run_all 1 "$ref" STEER_THREADS=1 &
run_all 2 "$ref" STEER_THREADS=1 STEER_NO_AVX2=1 &
n=2
for threads in 2 3 4 8; do
    n=$((n + 1))
    labels="$labels $ref(STEER_THREADS=$threads)"
    run_all "$n" "$ref" STEER_THREADS="$threads" STEER_PAR_GRAIN=16 &
done
nref=$n
for b in "$@"; do
    [ "$b" = "$ref" ] && continue
    n=$((n + 1))
    labels="$labels $b"
    run_all "$n" "$b" STEER_THREADS=1 &
done
wait

# compare NAME RUNS: runs 1 to RUNS must all give NAME the hash of the
# first (the workloads: the reference build's runs only)
: >"$results"
status=0
compare() {
    name="$1" runs="$2"
    first=$(cat "$tmp/1.$name" 2>/dev/null || echo failed)
    same=true
    i=1
    while [ "$i" -le "$runs" ]; do
        if [ ! -f "$tmp/$i.$name" ]; then
            echo failed >"$tmp/$i.$name"
            [ -f "$tmp/$i.bench" ] && tail -n 5 "$tmp/$i.bench" >"$tmp/$i.$name.log"
        fi
        h=$(cat "$tmp/$i.$name")
        { [ "$h" = failed ] || [ "$h" != "$first" ]; } && same=false
        i=$((i + 1))
    done
    if $same; then
        echo "hashes: $name $first in every run"
        printf '{"name": "hashes-%s", "result": "OK"}\n' "$name" >>"$results"
    else
        status=1
        echo "hashes: $name DIFFERS:"
        i=1
        for label in $labels; do
            [ "$i" -le "$runs" ] && echo "    $label: $(cat "$tmp/$i.$name")"
            [ -f "$tmp/$i.$name.log" ] && sed 's/^/        /' "$tmp/$i.$name.log"
            i=$((i + 1))
        done
        printf '{"name": "hashes-%s", "result": "FAIL"}\n' "$name" >>"$results"
    fi
}
for demo in demos/*.lua; do
    compare "$(basename "$demo" .lua)" "$n"
done
if [ -x "$ref/tests/test-hashes" ]; then
    if [ -s "$tmp/1.bench" ]; then
        while read -r workload ticks hash; do
            compare "bench-$workload" "$nref"
        done <"$tmp/1.bench"
    else
        status=1
        echo "hashes: $ref/tests/test-hashes --print printed nothing"
        printf '{"name": "hashes-bench", "result": "FAIL"}\n' >>"$results"
    fi
fi
exit $status
