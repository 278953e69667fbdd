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

fail() {
  cat "$out"
  echo "FAIL: $*"
  exit 1
}

# wait until the awk condition $1 holds for the output; $2 says what is awaited
await() {
  i=0
  until awk "$1"' { ok = 1 } END { exit !ok }' "$out"; do
    kill -0 $pid 2>/dev/null || fail "the runner exited while waiting for $2"
    i=$((i + 1))
    [ $i -le $((TIMEOUT * 20)) ] || fail "no $2 within $TIMEOUT s"
    sleep 0.05
  done
}

write 'if w.tick >= 30 then local t = nil; t.x = 1 end'
"$steer" run --headless "$scenario" > "$out" 2>&1 &
pid=$!
await '/^steer: .*broken\.lua:6: attempt to index a nil value/' "the error as FILE:LINE"
await '/^steer: stopped at tick 30; save a fix/' "the line that says the run stopped"
# stopped: no tick runs (the world's time stands still) until the fix
write 'if w.tick % 30 == 0 then print("fixed at tick " .. w.tick) end'
await '/^reload ok/' "the reload of the fix"
await '/^steer: running again$/' "the run going on"
await '/^fixed at tick 60$/' "the fixed update running"
grep -q '^steer: stopped' "$out" && [ "$(grep -c 'attempt to index' "$out")" -eq 1 ] ||
  fail "the error was not reported exactly once"
kill -INT $pid
wait $pid
status=$?
pid=
[ $status -eq 0 ] || fail "the runner exited with $status after the fix"
grep -q '^steer: .* ran [0-9]* ticks' "$out" || fail "no summary at the end"
echo "reload_error: ok"
