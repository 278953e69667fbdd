// SPDX-License-Identifier: MIT
// nav_levels.h — the levels of the navigation mesh benchmark (issue 32,
// item 8), shared by `steer-bench navmesh` (C, on steer's mesh) and the
// Detour peer (C++, bench/peers/detour_nav.cpp), so that both see the same
// level and answer the same queries. Plain C99 that also compiles as C++,
// no steer types, a PRNG of its own.
//
// A level is a rectangle of walkable floor [0, w] x [0, h] with axis-aligned
// boxes carved out of it (boxes may overlap each other; they all lie inside
// the rectangle), plus query pairs: points on the floor outside every box.
// Every coordinate is a whole number of millimetres, so steer's builder
// (which quantizes to 1 mm) and Recast (floats) start from the same numbers.
//
// The levels (nav_levels.c has the details):
//   city    200 m x 200 m, 500 boxes of 2-10 m a side
//   rooms   a 100 m x 60 m office: rooms on a grid of corridors, walls as
//           boxes 0.2 m thick, 1 m doors between rooms, 1 m and 2 m doors
//           onto the corridors
//   large   1 km x 1 km, 5,000 boxes of 2-10 m a side
#ifndef STEER_BENCH_NAV_LEVELS_H
#define STEER_BENCH_NAV_LEVELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Ring roles, with the values of steer's STEERN_RING_OUTLINE and
// STEERN_RING_OBSTACLE (src/nav/mesh.h).
enum { NAV_RING_OUTLINE = -1, NAV_RING_OBSTACLE = -2 };

#define NAV_LEVEL_PAIRS 10000 // query pairs per level

typedef struct NavLevel {
    char name[16];
    double w, h;   // the floor: [0, w] x [0, h]
    int nbox;      //
    double *box;   // 4 per box: x0, y0, x1, y1 (x0 < x1, y0 < y1)
    int npairs;    // NAV_LEVEL_PAIRS
    double *pairs; // 4 per pair: from x, y, to x, y
    // The same level as rings, in steer's terms (steerN_MeshSpec): ring 0
    // the outline (counter-clockwise), then one obstacle ring per box.
    uint32_t npoints, nrings;
    double *xy;         // 2 per point
    uint32_t *ring_end; // ring k is points [ring_end[k - 1], ring_end[k])
    int32_t *ring_role; // NAV_RING_OUTLINE, NAV_RING_OBSTACLE
} NavLevel;

// The levels, NULL-terminated, in print order.
extern const char *const nav_level_names[];
// Builds level `name` into *out: 0, or -1 for an unknown name or no memory
// (then *out holds nothing to free).
int nav_level_make(const char *name, NavLevel *out);
void nav_level_free(NavLevel *l);
// 1 when (x, y) is inside a box of the level or on its edge, else 0.
int nav_level_blocked(const NavLevel *l, double x, double y);

#ifdef __cplusplus
}
#endif

#endif
