#!/bin/sh
# SPDX-License-Identifier: MIT
# A runtime error in a headless real-time run (`steer run --headless FILE`,
# no --ticks) does what it does in the window: the error is reported, the
# simulation stops, the run keeps watching the file, and the save that
# fixes it is picked up and runs on. The scenario's update fails from tick
# 30 on; once the runner says it stopped, a fixed file is saved; the fixed
# update must then run (one line per tick it prints), and Ctrl-C end the
# run with status 0. Each wait is for what the runner prints, at most
# TIMEOUT seconds.
set -u
steer=$1
TIMEOUT=30
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
scenario=$dir/broken.lua
out=$dir/out

# $1: what update does
write() {
  cat > "$scenario.tmp" <<LUA
local steer = require "steer"
return {
  world = { size = { 100, 100 } },
  setup = function(w) w:spawn{ position = { 50, 50 }, velocity = { 1, 0 } } end,
  update = function(w)
    $1
  end,
}
LUA
  mv "$scenario.tmp" "$scenario"
}

. "$(dirname "$0")/steps.sh" # fail, since, await, step, count, finish

write 'if w.tick >= 30 then local t = nil; t.x = 1 end'
: > "$out"
step 0
"$steer" run --headless "$scenario" >> "$out" 2>&1 &
pid=$!
await 0 '/^steer: .*broken\.lua:6: attempt to index a nil value/ { ok = 1 }' "the error as FILE:LINE"
await 0 '/^steer: stopped at tick 30; save a fix/ { ok = 1 }' "the line that says the run stopped"
# stopped: no tick runs (the world's time stands still) until the fix
write 'if w.tick % 30 == 0 then print("fixed at tick " .. w.tick) end'
await 0 '/^reload ok/ { ok = 1 }' "the reload of the fix"
await 0 '/^steer: running again$/ { ok = 1 }' "the run going on"
await 0 '/^fixed at tick 60$/ { ok = 1 }' "the fixed update running"
grep -q '^steer: stopped' "$out" && [ "$(grep -c 'attempt to index' "$out")" -eq 1 ] ||
  fail "the error was not reported exactly once"
kill -INT $pid
wait $pid
status=$?
pid=
[ $status -eq 0 ] || fail "the runner exited with $status after the fix"
grep -q '^steer: .* ran [0-9]* ticks' "$out" || fail "no summary at the end"
echo "reload_error: ok"
