#!/bin/sh
# SPDX-License-Identifier: MIT
# Build detour-nav, the Recast/Detour peer of `steer-bench navmesh`
# (bench/peers/detour_nav.cpp says what it bakes, what it times and what it
# prints). Not part of the meson build or the tests: it needs Recast and
# Detour, Debian's librecast-dev (headers in /usr/include/recastnavigation),
# which steer does not depend on.
#
#   bench/peers/detour.sh [OUT_DIR]     (OUT_DIR defaults to build-detour in the repository)
#   nice OUT_DIR/detour-nav [--level city|rooms|large|all] [--radius 0|0.5|both] [--cs M] [--tile CELLS]
#                           [--queries N] [--repeat K] [--lengths FILE] [--times FILE]
#   nice OUT_DIR/detour-nav --obstacles [--level NAME|all] [--cs M] [--tile CELLS] [--moves N]
#                           (DetourTileCache's obstacle update, beside `steer-bench navobst`)
#   nice OUT_DIR/detour-nav --bake FILE.obj [--cs M] [--height M] [--climb M] [--slope DEG] [--radius M]
#                           [--tile CELLS] [--repeat K]   (a level's OBJ baked, beside steer.navmesh{ obj }:
#                           bench/bake_obj.lua)
#
# The commands it runs, from the repository's root (OUT = OUT_DIR):
#   gcc -O2 -DNDEBUG -std=c99 -c bench/nav_levels.c -o $OUT/nav_levels.o
#   g++ -O2 -DNDEBUG -std=c++11 -Wall -Wextra -I/usr/include/recastnavigation -Iinclude \
#       -c bench/peers/detour_nav.cpp -o $OUT/detour_nav.o
#   g++ -o $OUT/detour-nav $OUT/detour_nav.o $OUT/nav_levels.o -lDetourTileCache -lDetour -lRecast -lm
# Debian's Recast and Detour are built with -O2 (its default flags), the
# 2021 snapshot 1.5.1+git20210215; 32-bit polygon references.
set -eu
if [ ! -f /usr/include/recastnavigation/DetourNavMeshQuery.h ]; then
    echo "bench/peers/detour.sh: needs Recast and Detour: apt-get install librecast-dev" >&2
    exit 2
fi
if [ $# -ge 1 ]; then mkdir -p "$1" && out=$(cd "$1" && pwd); fi
cd "$(dirname "$0")/../.."
out=${out:-build-detour}
mkdir -p "$out"
rm -f "$out"/*.o
gcc -O2 -DNDEBUG -std=c99 -c bench/nav_levels.c -o "$out/nav_levels.o"
# -Iinclude: bench/timing.h includes steer.h (for a helper the harness does not call)
g++ -O2 -DNDEBUG -std=c++11 -Wall -Wextra -I/usr/include/recastnavigation -Iinclude \
    -c bench/peers/detour_nav.cpp -o "$out/detour_nav.o"
g++ -o "$out/detour-nav" "$out/detour_nav.o" "$out/nav_levels.o" -lDetourTileCache -lDetour -lRecast -lm
echo "built $out/detour-nav"
