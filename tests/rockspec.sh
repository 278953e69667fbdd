#!/bin/sh
# SPDX-License-Identifier: MIT
# `luarocks make` builds and installs the module from a copy of the
# checkout into a scratch rocks tree, and the stock lua5.4 (and lua5.3,
# lua5.1 where installed) then requires it
# from that tree alone: steer.so, an archetype, a world that steps. The
# rockspec must list every Lua file under lua/ (a new one would otherwise be
# missing from every rock) but the one the module has built in.
#   tests/rockspec.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
command -v luarocks >/dev/null || { echo "luarocks is not installed (apt-get install luarocks)"; exit 77; }
work=$build/rockspec-test
rm -rf "$work"
mkdir -p "$work/src"
# the checkout's files as git has them (no build directories)
(cd "$src" && git ls-files -z 2>/dev/null || find . -path ./build\* -prune -o -type f -print0) |
    (cd "$src" && xargs -0 cp --parents -t "$work/src")
for f in $(cd "$src" && find lua -name '*.lua' | sort); do
    case $f in lua/steer/snapshot.lua) continue ;; esac # built into steer.so (tools/embed.py): no module
    grep -q "\"$f\"" "$src/steer-dev-1.rockspec" || { echo "steer-dev-1.rockspec does not install $f"; exit 1; }
done
# every Lua whose interpreter is here (5.4 always; 5.3 and 5.1, for which
# the build makes modules/lua5.3 and modules/lua5.1): the same world, the
# same hash
hashes=""
for v in 5.4 5.3 5.1; do
    command -v lua$v >/dev/null || continue
    [ $v = 5.4 ] || [ -f "$build/modules/lua$v/steer.so" ] || continue
    (cd "$work/src" && luarocks --lua-version $v make --tree "$work/tree" steer-dev-1.rockspec) >"$work/luarocks.log" 2>&1 ||
        { cat "$work/luarocks.log"; exit 1; }
    out=$(cd "$work" && env -u LUA_PATH -u LUA_CPATH -u LUA_PATH_5_4 -u LUA_CPATH_5_4 -u LUA_PATH_5_3 -u LUA_CPATH_5_3 lua$v -e "
        package.path = '$work/tree/share/lua/$v/?.lua;$work/tree/share/lua/$v/?/init.lua'
        package.cpath = '$work/tree/lib/lua/$v/?.so'
        local steer = require 'steer'
        local ped = require 'steer.archetypes.pedestrian'
        local f = assert(io.open('$work/tree/lib/lua/$v/steer.so'), 'steer.so in the tree')
        f:close()
        local w = steer.world{ seed = 3 }
        for i = 1, 4 do w:spawn(ped.archetype, { position = { i, 0 }, target = { i, 10 } }) end
        w:step(120)
        print(w.count, w:hash())")
    echo "lua$v: $out"
    case "$out" in "4	"[0-9a-f]*) ;; *) echo "the rock installed for Lua $v did not run: '$out'"; exit 1;; esac
    hashes="$hashes ${out#*	}"
done
set -- $hashes
for h; do [ "$h" = "$1" ] || { echo "the rocks' worlds differ:$hashes"; exit 1; }; done
