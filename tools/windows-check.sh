#!/bin/sh
# SPDX-License-Identifier: MIT
# The same bits on Windows: cross-build steer for 64-bit Windows with
# Debian's mingw-w64 (tools/x86_64-w64-mingw32.ini, in WIN_DIR/build: the
# core, libsteer.dll, libsteerlua.dll, the Lua module steer.dll and
# steer.exe, headless: no viewer) against Lua 5.4 built from Debian's own
# lua5.4 source package (tools/lua-source.sh, into WIN_DIR/lua-src, which
# meson wants outside its build tree: lua54.dll and lua.exe), then under
# Wine (WINEPREFIX WIN_DIR/wine, made on the first run):
#   - the core's C tests, and of the bindings' and the engine's those that
#     make no files (data, edges, lua_hooks; meson test --suite core --suite
#     engine: WIN_DIR/build/meson-logs/testlog.json);
#   - every demo run headless by steer.exe, on 1 thread and on 4 (the Win32
#     pool), against the hash NATIVE_BUILD/steer gives (the command
#     tools/hashes.sh runs: its header's ticks, else 600);
#   - steer.dll loaded by lua.exe: every demo's w:hash() against
#     NATIVE_BUILD/steer.so under lua5.4 (tests/lua/demo_hashes.lua).
# Writes one line per check to WIN_DIR/windows-hashes.json in the form of
# meson's testlog.json (run-tests.sh counts them); prints each step's time;
# exits 1 when a test fails or a hash differs.
#   tools/windows-check.sh [WIN_DIR [NATIVE_BUILD]]   (build-windows, build)
set -u
cd "$(dirname "$0")/.."
dir="${1:-build-windows}"
native="${2:-build}"
win="$dir/build"
tools/setup.sh --packages gcc-mingw-w64-x86-64 wine wine64 dpkg-dev lua5.4 || exit 1
t0=$(date +%s)
step() { echo "windows-check: $1 ($(($(date +%s) - t0)) s)"; }
mkdir -p "$dir"
tree=$(tools/lua-source.sh "$dir/lua-src") || exit 1
step "Lua $(cat "$dir/lua-src/VERSION") from Debian's source package in $tree"
if [ ! -f "$win/build.ninja" ]; then
    meson setup "$win" --cross-file tools/x86_64-w64-mingw32.ini -Dlua_source="$tree" -Dviewer=disabled >/dev/null ||
        exit 1
fi
ninja -C "$win" >/dev/null || exit 1
step "cross-built"
ninja -C "$native" steer steer.so >/dev/null 2>&1 || ninja -C "$native" >/dev/null || exit 1
WINEPREFIX="$(cd "$dir" && pwd)/wine"
WINEDEBUG=-all
# lua54.dll beside the programs that need it
WINEPATH="$(cd "$win" && pwd)/tools/lua54"
export WINEPREFIX WINEDEBUG WINEPATH
[ -d "$WINEPREFIX" ] || wineboot -i >/dev/null 2>&1
# wait for the new prefix's set-up to end, then keep one wineserver and
# Wine's own services up for every run below (two runs side by side would
# otherwise race to start them); the services are started here, with no
# pipe of ours open, so that no test's output stays open behind them
wineserver -w
wineserver -p
wine cmd /c exit </dev/null >/dev/null 2>&1
trap 'wineserver -k >/dev/null 2>&1' EXIT
step "Wine ready ($WINEPREFIX)"
status=0
meson test -C "$win" --suite core --suite engine --print-errorlogs --timeout-multiplier 4 || status=1
step "the C tests"
results="$dir/windows-hashes.json"
: >"$results"
record() { # NAME WANT GOT
    if [ -n "$2" ] && [ "$2" = "$3" ]; then
        echo "windows-check: $1 $2"
        printf '{"name": "windows-%s", "result": "OK"}\n' "$1" >>"$results"
    else
        echo "windows-check: $1 Linux ${2:-failed} Windows ${3:-failed}  DIFFERS"
        printf '{"name": "windows-%s", "result": "FAIL"}\n' "$1" >>"$results"
        status=1
    fi
}
hash_of() { tr -d '\r' | sed -n 's/.*, hash \([0-9a-f]*\)$/\1/p' | tail -n 1; }
# win_run OUT THREADS DEMO TICKS: steer.exe's output in OUT; a run that
# printed no hash at all (Wine did not start it) is shown and run once more,
# a run that printed another hash is not
win_run() {
    for try in 1 2; do
        STEER_THREADS=$2 STEER_PAR_GRAIN=16 wine "$win/steer.exe" run --headless --ticks "$4" "$3" >"$1" 2>&1
        [ -n "$(hash_of <"$1")" ] && return
        echo "windows-check: $3 on $2 thread(s), run $try, printed no hash:"
        tail -n 5 "$1" | sed 's/^/    /'
    done
}
for demo in demos/*.lua; do
    name=$(basename "$demo" .lua)
    ticks=$(sed -n 's/^-- Headless: steer run --headless --ticks \([0-9]*\).*/\1/p' "$demo" | head -n 1)
    want=$(STEER_THREADS=1 "$native/steer" run --headless --ticks "${ticks:-600}" "$demo" 2>&1 | hash_of)
    # the two Windows runs side by side (Wine's start dominates)
    win_run "$dir/threads.out" 4 "$demo" "${ticks:-600}" &
    win_run "$dir/thread.out" 1 "$demo" "${ticks:-600}"
    wait
    record "$name" "$want" "$(hash_of <"$dir/thread.out")"
    record "$name-4-threads" "$want" "$(hash_of <"$dir/threads.out")"
done
step "the demos by steer.exe"
# the "NAME HASH" lines, without what the demos print
hashes() { tr -d '\r' | grep -E '^[a-z_0-9]+ [0-9a-f]{16}$'; }
want=$(LUA_CPATH="$native/?.so" lua5.4 tests/lua/demo_hashes.lua 2>&1 | hashes)
got=$(LUA_CPATH="$win/?.dll" wine "$win/tools/lua54/lua.exe" tests/lua/demo_hashes.lua 2>&1 | hashes)
echo "$want" | while read -r name hash; do
    echo "$name $hash $(echo "$got" | sed -n "s/^$name //p")"
done >"$dir/module-hashes.txt"
while read -r name a b; do
    record "module-$name" "$a" "$b"
done <"$dir/module-hashes.txt"
[ -s "$dir/module-hashes.txt" ] || record module "$want" "$got"
step "the demos by steer.dll under lua.exe"
exit $status
