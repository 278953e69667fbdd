#!/bin/sh
# SPDX-License-Identifier: MIT
# Build rvo2-crowd, the RVO2 peer of `steer-bench crowd` (bench/peers/rvo2_crowd.cpp
# says what it runs and how it drives RVO2). Not part of the meson build or the
# tests: it needs RVO2's source (snape/RVO2 on GitHub, Apache-2.0), which the
# repository does not carry and CI cannot fetch.
#
#   bench/peers/rvo2.sh RVO2_SOURCE_DIR [OUT_DIR]     (OUT_DIR defaults to build-rvo2 in the repository)
#   nice OUT_DIR/rvo2-crowd [--scenario NAME] [--dt 1/60|0.25] [--method rvo2|rvo2-noise] [--variants K]
#                           [--jitter K]
#
# The commands it runs, from the repository's root (SRC = RVO2_SOURCE_DIR, OUT = OUT_DIR):
#   g++ -O2 -DNDEBUG -std=c++98 -DRVO_STATIC_DEFINE -I$SRC/src -c $SRC/src/X.cc -o $OUT/X.o    (each X.cc of $SRC/src)
#   gcc -O2 -DNDEBUG -std=c99 -D_DEFAULT_SOURCE -c bench/crowd_scen.c -o $OUT/crowd_scen.o
#   g++ -O2 -DNDEBUG -std=c++11 -DRVO_STATIC_DEFINE -Wall -Wextra -I$SRC/src -Iinclude -c bench/peers/rvo2_crowd.cpp \
#       -o $OUT/rvo2_crowd.o
#   g++ -o $OUT/rvo2-crowd $OUT/*.o -lm
# RVO2's sources compile as C++98 with -O2 -DNDEBUG, as its own Release build
# does, and without -fopenmp: its doStep loops run on one thread, so
# ms_per_tick compares with steer on one thread.
#
# How the harness drives RVO2 (rvo2_crowd.cpp has the details): setTimeStep(dt);
# per agent the scene's radius and max speed, and neighborDist, maxNeighbors,
# timeHorizon, timeHorizonObst = 15 m, 10, 10 s, 10 s (examples/Circle.cc) for
# radius >= 0.5 m (circles, blocks, packed, fields) and 5 m, 10, 5 s, 2 s for
# the pedestrians of radius 0.3 m (doorway, bottleneck, hallway4, fanin,
# corridor, overtake); preferred velocity = max speed towards the goal, shortened to
# land on it within a step (towards a scene's waypoint: max speed, never shortened); method rvo2 as that, rvo2-noise plus the
# examples' perturbation (uniform angle, magnitude uniform in [0, 1e-4] m/s)
# from a fixed seed; circles as circumscribing 16-gons, walls as 2-vertex
# obstacles.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/src/RVOSimulator.cc" ]; then
    echo "usage: bench/peers/rvo2.sh RVO2_SOURCE_DIR [OUT_DIR]  (the directory holding src/RVOSimulator.cc)" >&2
    exit 2
fi
src=$(cd "$1" && pwd)
if [ $# -ge 2 ]; then mkdir -p "$2" && out=$(cd "$2" && pwd); fi
cd "$(dirname "$0")/../.."
out=${out:-build-rvo2}
mkdir -p "$out"
rm -f "$out"/*.o
for f in "$src"/src/*.cc; do
    g++ -O2 -DNDEBUG -std=c++98 -DRVO_STATIC_DEFINE -I"$src/src" -c "$f" -o "$out/$(basename "$f" .cc).o"
done
gcc -O2 -DNDEBUG -std=c99 -D_DEFAULT_SOURCE -c bench/crowd_scen.c -o "$out/crowd_scen.o"
# -Iinclude: bench/timing.h includes steer.h (for a helper the harness does not call)
g++ -O2 -DNDEBUG -std=c++11 -DRVO_STATIC_DEFINE -Wall -Wextra -I"$src/src" -Iinclude -c bench/peers/rvo2_crowd.cpp \
    -o "$out/rvo2_crowd.o"
g++ -o "$out/rvo2-crowd" "$out"/*.o -lm
echo "built $out/rvo2-crowd"
