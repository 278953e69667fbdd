#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's first script runs as printed, with the command printed under
# it: both are cut from README.md's "A first script" section (its first lua
# and first sh block), the script saved as the first.lua the command names,
# in a scratch directory where `build` is this build. Run twice, it must
# print the agent count and a hash, the same both times; and the same
# under Lua 5.1, 5.3 and LuaJIT with the commands of the next section.
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

# The commands of "Lua 5.1, 5.3, LuaJIT and LÖVE" (its first sh block), for
# the Luas this build has a module and an interpreter for: the same output.
others=$(sed -n '/^## Lua 5.1, 5.3, LuaJIT and LÖVE/,/^## /p' "$src/README.md" |
    awk 'inside && /^```/ { exit } inside { print } $0 == "```sh" { inside = 1 }')
[ -n "$others" ] || { echo "README.md: no sh block under 'Lua 5.1, 5.3, LuaJIT and LÖVE'"; exit 1; }
ln -s "$src/lua" "$dir/lua"
echo "$others" | while read -r line; do
    lua=$(echo "$line" | awk '{ print $3 }')
    mod=$(echo "$line" | sed -n 's/^LUA_CPATH="build\/\(modules\/[a-z0-9.]*\)\/.*/\1/p')
    [ -f "$build/$mod/steer.so" ] && command -v "$lua" >/dev/null || { echo "skip: $lua (no $mod or interpreter)"; continue; }
    out=$(cd "$dir" && sh -c "$line")
    [ "$out" = "$first" ] || { echo "$ $line"; echo "printed '$out', lua5.4 '$first'"; exit 1; }
    echo "$lua: the same"
done
