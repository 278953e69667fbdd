#!/bin/sh
# SPDX-License-Identifier: MIT
# The embedding demo on the game's own job system: the world's hash after
# 600 ticks is the same on 1 thread and on the game's 4, and the 4 did run
# ranges of the world's passes (STEER_PAR_GRAIN=4 splits even this small
# world, items of 4 agents; by default it would stay on one thread).
set -eu
embed=$1
export STEER_PAR_GRAIN=4
one=$("$embed" --ticks 600 --strict --workers 1)
four=$("$embed" --ticks 600 --strict --workers 4)
h1=$(printf '%s\n' "$one" | grep 'hash=')
h4=$(printf '%s\n' "$four" | grep 'hash=')
ranges=$(printf '%s\n' "$four" | sed -n 's/.* \([0-9][0-9]*\) ranges run.*/\1/p')
echo "1 thread:  $h1"
echo "4 threads: $h4 ($ranges ranges on the game's job system)"
if [ -z "$h1" ] || [ "$h1" != "$h4" ]; then
    echo "the hashes differ"
    exit 1
fi
if [ "${ranges:-0}" -eq 0 ]; then
    echo "the world ran nothing on the game's job system"
    exit 1
fi
