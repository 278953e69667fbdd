#!/bin/sh
# SPDX-License-Identifier: MIT
# Hot reload through the runner, as a user does it: `steer run --headless`
# on a scenario in real time; edit an archetype parameter in the file (and
# in a module it requires), save a broken version, then fix it.
# Every agent must keep its position across each reload and use the new
# value afterwards; the broken save must keep the old version running and
# be reported as FILE:LINE; the fix must recover.
set -u
steer=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
scenario=$dir/runners.lua

write() { # max_speed, force module value, extra line
  cat > "$dir/tuning.lua.tmp" <<LUA
return { max_force = $2 }
LUA
  mv "$dir/tuning.lua.tmp" "$dir/tuning.lua"
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
}

write 2 8 ""
"$steer" run --headless "$scenario" > "$dir/out" 2>&1 &
pid=$!
sleep 1.5
write 4 9 ""
sleep 1.5
write 6 11 "local broken = nil; broken.field = 1"
sleep 1.5
write 3 10 ""
sleep 1.5
kill -INT $pid
wait $pid
status=$?
cat "$dir/out"
fail() { echo "FAIL: $*"; exit 1; }
[ $status -eq 0 ] || fail "the runner exited with $status"
[ "$(grep -c '^reload ok' "$dir/out")" -eq 2 ] || fail "expected two 'reload ok' lines"
grep -q "^reload failed .*runners.lua:5: attempt to index a nil value" "$dir/out" || fail "no 'reload failed FILE:LINE: MESSAGE' line"
[ "$(grep -c '^kept 5/5 agents, 5 in the world' "$dir/out")" -eq 2 ] || fail "agents did not keep their positions"
# between the first reload and the broken save: the new speed and module value
awk '/^reload/ { phase++ } phase == 1 && /^speed/ { last = $0; v = $2 } END { exit !(v > 3.5 && last ~ /force 9\.0$/) }' "$dir/out" \
  || fail "the first reload's values were not used"
# after the broken save (which also changed the module), still the last good version
awk '/^reload/ { phase++ } phase == 2 && /^speed/ && !/force 9\.0$/ { bad = 1 } END { exit bad }' "$dir/out" \
  || fail "the broken save changed the running version"
grep "^speed" "$dir/out" | tail -n 1 | grep -q "^speed 3\.000 force 10\.0" || fail "the fix was not taken"
echo "reload: ok"
