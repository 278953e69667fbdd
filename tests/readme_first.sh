#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's first script runs as printed, with the command printed under
# it: both are cut from README.md's "A first script" section (its first lua
# and first sh block), the script saved as the first.lua the command names,
# in a scratch directory where `build` is this build. Run twice, it must
# print the agent count and a hash, the same both times.
set -eu
build=$1 src=$2
dir=$build/readme-first
rm -rf "$dir"
mkdir "$dir"
ln -s "$build" "$dir/build"
# the lines of the section's first fenced block of the given language
block() {
    sed -n '/^## A first script/,/^## /p' "$src/README.md" |
        awk -v lang="$1" 'inside && /^```/ { exit } inside { print } $0 == "```" lang { inside = 1 }'
}
block lua >"$dir/first.lua"
command=$(block sh)
[ -s "$dir/first.lua" ] && [ -n "$command" ] || { echo "README.md: no lua or sh block under 'A first script'"; exit 1; }
echo "$ $command"
first=$(cd "$dir" && sh -c "$command")
second=$(cd "$dir" && sh -c "$command")
echo "$first"
case "$first" in *[0-9]"	"[0-9a-f]*) ;; *) echo "printed '$first', not a count and a hash"; exit 1;; esac
[ "$first" = "$second" ] || { echo "a second run printed '$second'"; exit 1; }
