#!/bin/sh
# SPDX-License-Identifier: MIT
# The LÖVE demo (demos/love) with this build's LuaJIT module, under a
# virtual X server: 3 simulated seconds, then the game checks its own
# screenshot (every boid and zombie must show its colour at its screen
# position: at least 90% of each, else it exits 1) and writes it as a PNG.
# Then, with no module to find, it must exit non-zero saying how to build
# one. Skipped (77) without love, xvfb-run or the LuaJIT module.
#   tests/love.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
command -v love >/dev/null || { echo "love is not installed (apt-get install love)"; exit 77; }
command -v xvfb-run >/dev/null || { echo "xvfb-run is not installed (apt-get install xvfb)"; exit 77; }
[ -f "$build/modules/luajit/steer.so" ] ||
    { echo "no $build/modules/luajit/steer.so (it needs libluajit-5.1-dev and lua-compat53-dev)"; exit 77; }
work=$build/love-test
rm -rf "$work"
mkdir -p "$work/empty"
shot=$work/love.png

# -n: a display number of our own, so two xvfb-runs started at once (other
# tests, other checkouts) do not race for one. LÖVE needs GL: Mesa's
# llvmpipe (libgl1-mesa-dri) draws it without a GPU.
# The game's output without the sound system's complaints, and its status.
love_run() {
    timeout 60 xvfb-run -a -n $((100 + $$ % 800)) -s "-screen 0 1280x720x24" love "$src/demos/love" "$@" \
        >"$work/out" 2>&1
    status=$?
    grep -v -e '^ALSA lib' -e '^AL lib' -e '^Could not open device' "$work/out"
    return $status
}

out=$(STEER_BUILD=$build love_run --screenshot "$shot" --seconds 3; echo "status $?")
echo "$out"
case "$out" in *"status 0") ;; *) echo "the demo failed"; exit 1;; esac
echo "$out" | grep -Eq '^love: [0-9]+ of 300 boids and [0-9]+ of 400 zombies drawn$' ||
    { echo "no 'love: N of 300 boids and N of 400 zombies drawn' line"; exit 1; }
# the frame rate the screenshot shows is a measured one (LÖVE's own reads 0
# for the first second, and 3 simulated seconds take less)
echo "$out" | grep -Eq '^love: the status line reads: [1-9][0-9]* fps ' ||
    { echo "the screenshot's status line shows no frame rate above 0"; exit 1; }
[ "$(head -c 4 "$shot" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] || { echo "$shot is not a PNG"; exit 1; }
size=$(wc -c <"$shot")
# a 1280 x 720 screen of the background and text alone is a few kB
[ "$size" -gt 10000 ] || { echo "$shot is only $size bytes"; exit 1; }
echo "$shot: $size bytes"

# Nothing to require: the system's paths (LUA_CPATH, which LuaJIT reads)
# point into an empty directory too, so an installed steer is not found.
out=$(STEER_BUILD=$work/empty LUA_CPATH="$work/empty/?.so" love_run --screenshot "$work/none.png" --seconds 1; echo "status $?")
echo "$out"
case "$out" in *"status 0") echo "the demo ran without a module"; exit 1;; esac
echo "$out" | grep -q "steer's Lua module for LuaJIT was not found" || { echo "no message saying the module is missing"; exit 1; }
echo "$out" | grep -q 'meson setup build && ninja -C build' || { echo "the message does not say how to build"; exit 1; }
