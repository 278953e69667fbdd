#!/bin/sh
# SPDX-License-Identifier: MIT
# The same bits across builds: run every demo headless in each build (and in
# the first with STEER_NO_AVX2=1, the SSE neighbour pass) and compare the
# world hashes of their summary lines. A demo runs for the ticks its header
# names ("-- Headless: steer run --headless --ticks N"), else 600. Prints
# each differing demo with every build's hash, writes one line per demo to
# RESULTS in the form of meson's testlog.json (run-tests.sh counts them),
# and exits 1 when any demo differs or fails.
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

# run_all LABEL BUILD [VAR=VALUE]: every demo in one build, one after another
# (the builds run side by side), each hash (or "failed") to $tmp/LABEL.DEMO
run_all() {
    label="$1" exe="$2/steer"
    for demo in demos/*.lua; do
        name=$(basename "$demo" .lua)
        ticks=$(sed -n 's/^-- Headless: steer run --headless --ticks \([0-9]*\).*/\1/p' "$demo" | head -n 1)
        out=$(env ${3:+"$3"} "$exe" run --headless --ticks "${ticks:-600}" "$demo" 2>&1)
        hash=$(printf '%s\n' "$out" | sed -n 's/.*, hash \([0-9a-f]*\)$/\1/p' | tail -n 1)
        if [ -n "$hash" ]; then
            echo "$hash" >"$tmp/$label.$name"
        else
            echo "failed" >"$tmp/$label.$name"
            printf '%s\n' "$out" | tail -n 5 >"$tmp/$label.$name.log"
        fi
    done
}

labels="$ref"
run_all "1" "$ref" &
run_all "2" "$ref" STEER_NO_AVX2=1 &
n=2
for b in "$@"; do
    [ "$b" = "$ref" ] && continue
    n=$((n + 1))
    labels="$labels $b"
    run_all "$n" "$b" &
done
wait
labels=$(echo "$labels" | awk '{ $1 = $1 " " $1 "(STEER_NO_AVX2=1)"; print }')

: >"$results"
status=0
for demo in demos/*.lua; do
    name=$(basename "$demo" .lua)
    first=$(cat "$tmp/1.$name")
    same=true
    i=1
    while [ "$i" -le "$n" ]; do
        h=$(cat "$tmp/$i.$name")
        { [ "$h" = failed ] || [ "$h" != "$first" ]; } && same=false
        i=$((i + 1))
    done
    if $same; then
        echo "hashes: $name $first in every build"
        printf '{"name": "hashes-%s", "result": "OK"}\n' "$name" >>"$results"
    else
        status=1
        echo "hashes: $name DIFFERS:"
        i=1
        for label in $labels; do
            echo "    $label: $(cat "$tmp/$i.$name")"
            [ -f "$tmp/$i.$name.log" ] && sed 's/^/        /' "$tmp/$i.$name.log"
            i=$((i + 1))
        done
        printf '{"name": "hashes-%s", "result": "FAIL"}\n' "$name" >>"$results"
    fi
done
exit $status
