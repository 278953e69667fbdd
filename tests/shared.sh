#!/bin/sh
# SPDX-License-Identifier: MIT
# The shared libraries export the API and nothing else: libsteer.so exactly
# the STEER_API functions of the core's headers (steer.h, steer_debug.h, steer_nav.h,
# steer_draw.h), libsteerlua.so (the bindings and the engine, the core
# inside) those of every public header, the Lua module steer.so none beyond
# them (hidden visibility everywhere: a helper of steer's cannot clash with
# a game's symbol). Then test-shared loads libsteer.so with dlopen and steps
# a world to the static core's hash (tests/c/test_shared.c).
#   tests/shared.sh SOURCE_ROOT TEST_SHARED LIBSTEER_SO [LIBSTEERLUA_SO STEER_SO]
set -eu
src=$1 host=$2 core=$3
command -v nm >/dev/null || { echo "shared: no nm (binutils) to list the exported symbols"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the functions the headers declare STEER_API
api() {
    for h in "$@"; do
        sed -n 's/^STEER_API[^(]*[ *]\([a-z_0-9]*\)(.*/\1/p' "$src/include/$h"
    done | sort -u
}
exported() {
    nm -D --defined-only "$1" | awk '$2 ~ /^[A-Z]$/ { print $3 }' | sort -u
}
# LIB WANT EXACT: EXACT=1: LIB exports WANT's functions and nothing else;
# 0: nothing that is not among them
check() {
    exported "$1" >"$tmp/got"
    extra=$(comm -13 "$2" "$tmp/got")
    missing=$(comm -23 "$2" "$tmp/got")
    if [ -n "$extra" ]; then
        echo "$(basename "$1") exports symbols that are not the API:"
        echo "$extra"
        exit 1
    fi
    if [ "$3" = 1 ] && [ -n "$missing" ]; then
        echo "$(basename "$1") lacks API functions:"
        echo "$missing"
        exit 1
    fi
    echo "$(basename "$1"): $(wc -l <"$tmp/got") symbols exported, each a STEER_API function"
}
api steer.h steer_debug.h steer_draw.h steer_nav.h >"$tmp/core"
[ -s "$tmp/core" ] || { echo "no STEER_API function found in $src/include"; exit 1; }
check "$core" "$tmp/core" 1
if [ $# -ge 5 ]; then
    api steer.h steer_debug.h steer_draw.h steer_nav.h steer_engine.h steer_lua.h >"$tmp/all"
    check "$4" "$tmp/all" 1
    check "$5" "$tmp/all" 0
    # the Lua module is loaded by a lua that has Lua in it: it never links liblua
    if readelf -d "$5" | grep -q 'NEEDED.*liblua'; then
        echo "$(basename "$5") links liblua:"
        readelf -d "$5" | grep NEEDED
        exit 1
    fi
fi
"$host" "$core"
