#!/bin/sh
# SPDX-License-Identifier: MIT
# Hot reload through the runner, as a user does it: `steer run --headless`
# on a scenario in real time; edit an archetype parameter in the file (and
# in a module it requires), save a broken version, then fix it.
# Every agent must keep its position across each reload and use the new
# value afterwards; the broken save must keep the old version running and
# be reported as FILE:LINE; the fix must recover.
#
# Each step saves two files, and the engine reloads once a save has been
# quiet for 0.1 s: on a busy machine the two saves may be further apart
# than that, and then each is a reload of its own (a correct one). So the
# steps do not sleep a fixed time and count on one reload each: a step
# appends a marker to the output, saves, and waits (at most TIMEOUT
# seconds) for what the runner prints once it has taken both saves; its
# checks then allow one reload per file saved, and no other.
set -u
steer=$1
TIMEOUT=30
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
scenario=$dir/runners.lua
out=$dir/out

# Save max_speed ($1), the module's force ($2) and an extra line ($3): the
# scenario first, so a broken scenario is broken in every reload the step
# can cause. Every load of the module prints its value.
write() {
  cat > "$dir/tuning.lua.tmp" <<LUA
print("tuning $2")
return { max_force = $2 }
LUA
  cat > "$scenario.tmp" <<LUA
local steer = require "steer"
local tuning = require "tuning"
local runner = steer.archetype{ name = "runner", vehicle = { max_speed = $1, max_force = tuning.max_force },
                                brain = steer.seek{} }
$3
return {
  world = { size = { 100000, 100 } },
  setup = function(w)
    for i = 1, 5 do w:spawn(runner, { position = { 10, 10 * i }, target = { 99000, 10 * i } }) end
  end,
  update = function(w)
    LAST = {}
    for a in w:agents() do LAST[#LAST + 1] = { a, a.position.x, a.position.y } end
    if w.tick % 30 == 0 then
      local a = LAST[1][1]
      print(string.format("speed %.3f force %.1f", a.velocity:len(), a.max_force))
    end
  end,
  reload = function(w)
    local kept = 0
    for _, r in ipairs(LAST) do
      if r[1].position.x == r[2] and r[1].position.y == r[3] then kept = kept + 1 end
    end
    print(string.format("kept %d/%d agents, %d in the world", kept, #LAST, w.count))
  end,
}
LUA
  mv "$scenario.tmp" "$scenario"
  mv "$dir/tuning.lua.tmp" "$dir/tuning.lua"
}

. "$(dirname "$0")/steps.sh" # fail, since, await, step, count, finish

# A good step ($1): one or two reloads, each ok and keeping all 5 agents.
good_step() {
  ok=$(count "$1" '/^reload ok/')
  [ "$ok" -ge 1 ] && [ "$ok" -le 2 ] || fail "step $1: $ok 'reload ok' lines for two saves"
  [ "$(count "$1" '/^reload failed/')" -eq 0 ] || fail "step $1: a reload failed"
  [ "$(count "$1" '/^kept 5\/5 agents, 5 in the world$/')" -eq "$ok" ] || fail "step $1: agents did not keep their positions"
}

write 2 8 ""
# appended to by the runner and the markers alike, in order
"$steer" run --headless "$scenario" >> "$out" 2>&1 &
pid=$!
step 0
await 0 '/^speed .* force 8\.0$/ { ok = 1 }' "run of the first version"

step 1
write 4 9 ""
# the new speed and module value
await 1 '/^speed/ && $2 > 3.5 && /force 9\.0$/ { ok = 1 }' "speed above 3.5 with force 9.0 (the first edit)"
good_step 1

step 2
write 6 11 "local broken = nil; broken.field = 1"
# a reload that loaded the new module (and failed), then a tick after it
await 2 '/^tuning 11$/ { t = 1 } t && /^reload failed/ { f = 1 } f && /^speed/ { ok = 1 }' \
  "failed reload with the broken save's module, and a tick after it"
[ "$(count 2 '/^reload ok/')" -eq 0 ] || fail "the broken save was taken"
failed=$(count 2 '/^reload failed/')
[ "$failed" -ge 1 ] && [ "$failed" -le 2 ] || fail "$failed 'reload failed' lines for two saves"
[ "$(count 2 '/^reload failed .*runners\.lua:5: attempt to index a nil value/')" -eq "$failed" ] \
  || fail "no 'reload failed FILE:LINE: MESSAGE' line"
# still the last good version: its module value too (the broken one's is rolled back)
[ "$(count 2 '/^speed/ && !/force 9\.0$/')" -eq 0 ] || fail "the broken save changed the running version"

step 3
write 3 10 ""
await 3 '/^speed 3\.000 force 10\.0$/ { ok = 1 }' "speed 3 with force 10.0 (the fix)"
good_step 3
# and no reload without a save: two more reports, all of the fixed version
await 3 '/^speed 3\.000 force 10\.0$/ { n++ } n >= 3 { ok = 1 }' "two more reports of the fixed version"
since 3 | awk '/^speed 3\.000 force 10\.0$/ { done = 1 } done && /^(reload|speed)/ && !/^speed 3\.000 force 10\.0$/ { bad = 1 }
               END { exit bad }' || fail "the fixed version changed without a save"

finish reload
