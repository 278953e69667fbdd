#!/bin/sh
# SPDX-License-Identifier: MIT
# The public headers from C++: tests/c/headers.cpp compiles with the C++
# compiler at -Wall -Wextra -pedantic -Werror, and every steer function it
# calls is referenced by its C name (a header without extern "C" gives a
# mangled _Z... reference, a link error in a C++ game).
#   tests/cxx_headers.sh CXX SOURCE INCLUDE_DIR [EXTRA_FLAGS...]
set -eu
cxx="$1" src="$2" inc="$3"
shift 3
obj=$(mktemp --suffix=.o)
trap 'rm -f "$obj"' EXIT
"$cxx" -std=c++11 -Wall -Wextra -pedantic -Werror -I"$inc" "$@" -c "$src" -o "$obj"
undefined=$(nm -u "$obj")
mangled=$(printf '%s\n' "$undefined" | grep -E '_Z.*(steer|luaopen)' || true)
if [ -n "$mangled" ]; then
    echo "C++ name mangling on steer symbols (a header lacks extern \"C\"):"
    printf '%s\n' "$mangled"
    exit 1
fi
want="steer_debug_agents steer_behavior_new"
case " $* " in *" -DSTEER_TEST_LUA "*) want="$want steer_engine_new luaopen_steer" ;; esac
for s in $want; do
    printf '%s\n' "$undefined" | grep -qw "$s" || { echo "headers.cpp does not reference $s"; exit 1; }
done
echo "cxx_headers: $want referenced with C linkage"
