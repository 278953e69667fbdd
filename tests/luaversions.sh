#!/bin/sh
# SPDX-License-Identifier: MIT
# The module on another Lua than 5.4 (Lua 5.3, Lua 5.1, LuaJIT 2.1): the
# build's modules/NAME/steer.so loaded by that Lua's stock interpreter
# runs the module's specs (tests/lua/run.lua), and every demo gives the
# same w:hash() as the 5.4 module does under lua5.4, and a snapshot goes
# from one to the other (tests/lua/snapshot_across.lua), a.data with it
# exactly or not at all (tests/lua/data_across.lua). Skipped (77) without
# the interpreter or lua5.4.
#   tests/luaversions.sh BUILD_DIR SOURCE_DIR NAME INTERPRETER SPEC...
# STEER (the steer program, for docs_spec's mods) and STEER_PAR_GRAIN
# (threads_spec) pass through from the environment.
set -u
build=$1 src=$2 name=$3 lua=$4
shift 4
command -v "$lua" >/dev/null && command -v lua5.4 >/dev/null || { echo "$lua or lua5.4 not installed"; exit 77; }
cd "$src"
mod="$build/modules/$name/?.so"
# snapshot_spec's fresh process: this Lua again, with the same module
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\nexec %s %s "$@"\n' "$lua" "$src/tests/lua/run.lua" >"$tmp/spec"
chmod +x "$tmp/spec"
export STEER_SPEC="$tmp/spec"
"$lua" -e 'print(_VERSION, jit and jit.version or "")'

want=$(LUA_CPATH="$build/?.so" lua5.4 tests/lua/demo_hashes.lua | grep -v ':') || { echo "demo_hashes failed under lua5.4"; exit 1; }
got=$(LUA_CPATH="$mod" "$lua" tests/lua/demo_hashes.lua | grep -v ':') || { echo "demo_hashes failed under $lua"; exit 1; }
if [ "$want" != "$got" ]; then
  printf 'demo hashes differ: lua5.4 then %s\n%s\n--\n%s\n' "$lua" "$want" "$got"
  exit 1
fi
echo "$(echo "$got" | wc -l) demos: the same hash as under lua5.4"

# a snapshot saved under this Lua continues under 5.4, and one of 5.4's here
for demo in flock crowd directed_seek dogfighter; do
  want=$(LUA_CPATH="$build/?.so" lua5.4 tests/lua/snapshot_across.lua straight $demo | tail -n 1)
  LUA_CPATH="$mod" "$lua" tests/lua/snapshot_across.lua save $demo "$tmp/a.snap" >/dev/null &&
    LUA_CPATH="$build/?.so" lua5.4 tests/lua/snapshot_across.lua save $demo "$tmp/b.snap" >/dev/null || exit 1
  there=$(LUA_CPATH="$build/?.so" lua5.4 tests/lua/snapshot_across.lua continue $demo "$tmp/a.snap" | tail -n 1)
  back=$(LUA_CPATH="$mod" "$lua" tests/lua/snapshot_across.lua continue $demo "$tmp/b.snap" | tail -n 1)
  if [ "$there" != "$want" ] || [ "$back" != "$want" ]; then
    echo "$demo: straight $want, saved by $lua and continued by lua5.4 $there, the other way $back"
    exit 1
  fi
done
echo "snapshots: saved under $lua, continued under lua5.4 (and back) to a straight run's hash"

# a.data saved under 5.4 loads here exactly or is refused with its path, and
# what this Lua saves reads back the same under 5.4 (tests/lua/data_across.lua)
LUA_CPATH="$build/?.so" lua5.4 tests/lua/data_across.lua save "$tmp" &&
  LUA_CPATH="$mod" "$lua" tests/lua/data_across.lua check "$tmp" &&
  LUA_CPATH="$mod" "$lua" tests/lua/data_across.lua make "$tmp" &&
  LUA_CPATH="$build/?.so" lua5.4 tests/lua/data_across.lua verify "$tmp" || exit 1

passed=0 failed=0
for spec in "$@"; do
  if out=$(LUA_CPATH="$mod" "$lua" tests/lua/run.lua "tests/lua/${spec}_spec.lua" 2>&1); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "$out" | grep -v '^ok - '
  fi
  echo "$spec: $(echo "$out" | tail -n 1)"
done
echo "$lua: $passed spec files passed, $failed failed"
[ "$failed" -eq 0 ]
