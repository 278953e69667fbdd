#!/bin/sh
# SPDX-License-Identifier: MIT
# The public headers from C++: tests/c/headers.cpp built by g++ and by
# clang++, for C++11, 14, 17 and 20, at -Wall -Wextra -Wpedantic -Werror;
# every steer function it calls is referenced by its C name (a header
# without extern "C" gives a mangled _Z... reference, a link error in a C++
# game); then linked with libsteer.so (and, with Lua, libsteerlua.so, the
# engine's and the Lua module's headers included too) and run: it steps
# tests/c/api_world.h's world to the hash the C core gives (test-shared).
# A compiler that is missing is named and the test is skipped (77) after
# running the other; in a sanitizer or cross build the programs are
# compiled only (MODE compile: the libraries need the sanitizer's runtime,
# or qemu).
#   tests/cxx_headers.sh MODE SOURCE INCLUDE_DIR TEST_SHARED LIBSTEER_SO [LIBSTEERLUA_SO LUA_CFLAGS LUA_LIBS]
set -eu
mode=$1 src=$2 inc=$3 ref=$4 core=$5
shift 5
lua_so="" lua_cflags="" lua_libs=""
if [ $# -ge 3 ]; then lua_so=$1 lua_cflags=$2 lua_libs=$3; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
want=""
if [ "$mode" = run ]; then
    want=$("$ref")
fi
# COMPILER STD VARIANT(core|lua)
build() {
    cxx=$1 std=$2 variant=$3
    exe="$tmp/headers-$cxx-$std-$variant"
    flags="-std=$std -Wall -Wextra -Wpedantic -Werror -I$inc -I$(dirname "$src")"
    lib=$core want_syms="steer_debug_agents steer_world_new steer_spawn"
    if [ "$variant" = lua ]; then
        # shellcheck disable=SC2086 # the flags are words
        set -- -DSTEER_TEST_LUA $lua_cflags
        lib=$lua_so want_syms="$want_syms steer_engine_new steer_lua_preload"
    else
        set --
    fi
    # shellcheck disable=SC2086
    "$cxx" $flags "$@" -c "$src" -o "$exe.o"
    undefined=$(nm -u "$exe.o")
    mangled=$(printf '%s\n' "$undefined" | grep -E '_Z.*(steer|luaopen)' || true)
    if [ -n "$mangled" ]; then
        echo "$cxx -std=$std: C++ name mangling on steer symbols (a header lacks extern \"C\"):"
        printf '%s\n' "$mangled"
        exit 1
    fi
    for s in $want_syms; do
        printf '%s\n' "$undefined" | grep -qw "$s" || { echo "headers.cpp does not reference $s"; exit 1; }
    done
    if [ "$mode" != run ]; then
        echo "$cxx -std=$std ($variant): compiles, C linkage"
        return
    fi
    libs=""
    [ "$variant" = core ] || libs=$lua_libs
    # shellcheck disable=SC2086
    "$cxx" "$exe.o" "$lib" $libs -Wl,-rpath,"$(dirname "$lib")" -o "$exe"
    got=$("$exe") || { echo "$cxx -std=$std ($variant): the C++ host failed"; exit 1; }
    [ "$got" = "$want" ] || { echo "$cxx -std=$std ($variant): hash $got, the C core's $want"; exit 1; }
    echo "$cxx -std=$std ($variant): built with $(basename "$lib"), stepped the world to $got as the C core"
}
# A C++ exception must not cross steer's frames (steer.h, STEER_NOEXCEPT):
# from C++17 on, a callback that may throw does not compile where steer
# takes one, and a noexcept one does. COMPILER STD
throwing() {
    cxx=$1 std=$2
    for fn in 'static void host(void *, const steer_HostCtx *, double *) noexcept {}' \
              'static void host(void *, const steer_HostCtx *, double *) { throw 1; }'; do
        printf '#include "steer.h"\n%s\nint main() { steer_HostBehaviorDesc d = {}; d.fn = host; return d.fn == 0; }\n' \
            "$fn" >"$tmp/throwing.cpp"
        if "$cxx" -std="$std" -Wall -Wextra -Werror -I"$inc" -c "$tmp/throwing.cpp" -o "$tmp/throwing.o" 2>/dev/null; then
            compiles=yes
        else
            compiles=no
        fi
        case "$std:$fn" in
        *noexcept*) want_compiles=yes ;;
        c++11:* | c++14:*) want_compiles=yes ;; # noexcept is not part of a function's type before C++17
        *) want_compiles=no ;;
        esac
        if [ "$compiles" != "$want_compiles" ]; then
            echo "$cxx -std=$std: a host callback '$fn' compiles: $compiles (want $want_compiles)"
            exit 1
        fi
    done
    case $std in c++11 | c++14) ;; *) echo "$cxx -std=$std: a host callback that may throw does not compile" ;; esac
}
skipped=""
for cxx in g++ clang++; do
    if ! command -v "$cxx" >/dev/null; then
        echo "skipped: no $cxx (Debian: apt-get install $([ "$cxx" = g++ ] && echo g++ || echo clang); tools/setup.sh installs it)"
        skipped="$skipped $cxx"
        continue
    fi
    for std in c++11 c++14 c++17 c++20; do
        build "$cxx" "$std" core
        [ -z "$lua_so" ] || build "$cxx" "$std" lua
        throwing "$cxx" "$std"
    done
done
[ "$mode" = run ] || echo "linked and run: no (a sanitizer or cross build's libraries)"
if [ -n "$skipped" ]; then
    echo "cxx_headers: skipped, as$skipped is missing"
    exit 77
fi
