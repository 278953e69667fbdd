#!/bin/sh
# SPDX-License-Identifier: MIT
# Hot reload of a mod through the runner, as a modder does it (issue 30,
# item 4): `steer run --headless --mod DIR` on a scenario in real time;
# edit the mod's module, save a broken version, then fix it. Each good
# save must be taken with the mod's state carried across (its save() to
# the new code's load(data)) and its one agent kept; the broken save must
# keep the last good version running and be reported as FILE:LINE; the
# fix must be taken. As in reload.sh, a step waits for what the runner
# prints rather than sleeping a fixed time.
set -u
steer=$1
TIMEOUT=${TIMEOUT:-30}
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
out=$dir/out
mkdir "$dir/herder"

cat > "$dir/scenario.lua" <<'LUA'
return { world = { size = { 100, 100 } } }
LUA
cat > "$dir/herder/init.lua" <<'LUA'
local steer = require "steer"
local tuning = require "tuning"
local ticks = 0
return {
  setup = function(w) w:spawn{ position = { 50, 50 }, tag = "sheep", brain = steer.wander{} } end,
  update = function(w)
    ticks = ticks + 1
    if ticks % 30 == 0 then print(string.format("%s ticks %d sheep %d", tuning.version, ticks, w.count)) end
  end,
  save = function() return { ticks = ticks } end,
  load = function(data) ticks = data.ticks end,
  reload = function() print(tuning.version .. " took over at " .. ticks) end,
}
LUA
# the module: version $1, line 2 ($2)
write() {
  printf 'local v = "%s"\n%s\nreturn { version = v }\n' "$1" "$2" > "$dir/tuning.tmp"
  mv "$dir/tuning.tmp" "$dir/herder/tuning.lua"
}

. "$(dirname "$0")/steps.sh" # fail, since, await, step, finish

write v1 ""
"$steer" run --headless --mod "$dir/herder" "$dir/scenario.lua" >> "$out" 2>&1 &
pid=$!
step 0
await 0 '/^\[herder\] v1 ticks 60 sheep 1$/ { ok = 1 }' "two reports of v1"

step 1
write v2 ""
await 1 '/^reload ok .*herder\/init\.lua \(mod .herder., / { r = 1 } /^\[herder\] v2 took over at [0-9]+$/ { t = 1 }
         r && t { ok = 1 }' "v2 taking over"
# the count went on from v1's (save -> load), and setup did not run again
since 1 | awk '/v2 took over at/ { split($0, f, " at "); if (f[2] + 0 < 60) bad = 1 } END { exit bad }' \
  || fail "v2 did not get v1's count"
await 1 '/^\[herder\] v2 ticks [0-9]+ sheep 1$/ { ok = 1 }' "a report of v2 with its one sheep"

step 2
write v3 "local broken = nil; broken.field = 1"
await 2 '/^reload failed mod .herder.: .*herder\/tuning\.lua:2: attempt to index a nil value .*\(its last version runs on\)$/ { f = 1 }
         f && /^\[herder\] v2 ticks/ { ok = 1 }' "a failed reload naming tuning.lua:2, and v2 running on"
[ "$(since 2 | grep -c '^\[herder\] v3')" -eq 0 ] || fail "the broken save ran"

step 3
write v4 ""
await 3 '/^\[herder\] v4 took over at [0-9]+$/ { t = 1 } t && /^\[herder\] v4 ticks [0-9]+ sheep 1$/ { ok = 1 }' \
  "the fix taking over"

finish mod_reload
