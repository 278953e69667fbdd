// SPDX-License-Identifier: MIT
// navmesh_rings.h — the level fuzz_navmesh writes from bytes, shared with
// tests/c/test_mesh_query.c, which replays its findings: rings of 3 to 10
// points on a 0.25 m lattice (the first an outline; then outlines,
// obstacles and areas of "mud" as each ring's first byte says), for
// steerN_mesh_build.
#ifndef STEER_TESTS_NAVMESH_RINGS_H
#define STEER_TESTS_NAVMESH_RINGS_H

#include "nav/mesh.h"

#define NAVMESH_RINGS_MAX 12
#define NAVMESH_RINGS_POINTS 10

typedef struct NavmeshRings {
    double xy[2 * NAVMESH_RINGS_MAX * NAVMESH_RINGS_POINTS];
    uint32_t end[NAVMESH_RINGS_MAX];
    int32_t role[NAVMESH_RINGS_MAX];
    const char *names[2];
    float costs[2];
} NavmeshRings;

// The rings of the bytes into *r and the spec that names them (nrings 0
// when the bytes hold none).
static inline steerN_MeshSpec navmesh_rings(NavmeshRings *r, const uint8_t *data, size_t size)
{
    uint32_t nrings = 0, np = 0;
    size_t at = 0;
    while (at + 2 < size && nrings < NAVMESH_RINGS_MAX) {
        uint8_t head = data[at++];
        uint32_t n = 3 + head % 8;
        r->role[nrings] = nrings == 0 ? STEERN_RING_OUTLINE
                                      : (int32_t[]){ STEERN_RING_OUTLINE, STEERN_RING_OBSTACLE, STEERN_RING_OBSTACLE,
                                                     1 }[(head >> 3) & 3];
        for (uint32_t i = 0; i < n; i++) {
            uint8_t x = at < size ? data[at++] : 0, y = at < size ? data[at++] : 0;
            r->xy[2 * np] = (double)(int8_t)x * 0.25;
            r->xy[2 * np + 1] = (double)(int8_t)y * 0.25;
            np++;
        }
        r->end[nrings++] = np;
    }
    r->names[0] = "default", r->names[1] = "mud";
    r->costs[0] = 1, r->costs[1] = 3;
    return (steerN_MeshSpec){ .xy = r->xy,
                              .ring_end = r->end,
                              .ring_role = r->role,
                              .nrings = nrings,
                              .nareas = 2,
                              .area_names = r->names,
                              .area_costs = r->costs };
}

#endif
