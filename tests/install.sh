#!/bin/sh
# SPDX-License-Identifier: MIT
# `meson install` into a scratch directory, then use what it installed as a
# game and a modder would: build the embedding demo against steer.pc, run
# it with its two mods, and load steer.so into the stock lua5.4.
set -eu
build=$1 src=$2
dest=$build/install-test
rm -rf "$dest"
meson install -C "$build" --destdir "$dest" --no-rebuild >/dev/null
pc=$(dirname "$(find "$dest" -name steer.pc | head -n 1)")
prefix=$(sed -n 's/^prefix=//p' "$pc/steer.pc")
# the .pc names the final prefix: point pkg-config at the scratch copy
cflags=$(PKG_CONFIG_PATH=$pc pkg-config --define-prefix --cflags steer 2>/dev/null || PKG_CONFIG_PATH=$pc pkg-config --cflags steer)
libs=$(PKG_CONFIG_PATH=$pc pkg-config --libs steer)
cc -std=c11 -Wall -Wextra -Werror -I"$dest$prefix/include" $cflags "$src/demos/embed/embed.c" \
   -L"$(dirname "$(find "$dest" -name libsteer.a | head -n 1)")" $libs -o "$dest/embed"
"$dest/embed" --ticks 120 --strict --mods "$src/demos/embed/mods" "$src/demos/embed/scenario.lua"
so=$(find "$dest" -name steer.so | head -n 1)
case "$so" in */lib/lua/5.4/steer.so) ;; *) echo "steer.so installed at $so, not under lib/lua/5.4"; exit 1;; esac
LUA_CPATH="$(dirname "$so")/?.so" lua5.4 -e 'local s = require "steer"; local w = s.world{}; w:spawn{}; w:step(10); assert(w.count == 1); print("lua5.4 loads steer " .. s.version)'
