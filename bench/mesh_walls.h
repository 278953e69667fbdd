// SPDX-License-Identifier: MIT
// mesh_walls.h — a navigation mesh's walls into a world, as a C host does
// what w:add_navmesh(nm) does in Lua (src/lua/lnavmesh.c): every triangle
// edge with no neighbour becomes a wall segment, so reciprocal, avoid_walls
// and the collide pass keep agents on the mesh. For `steer-bench navmesh
// --crowd` and `steer-bench crowd --nav mesh`.
#ifndef STEER_BENCH_MESH_WALLS_H
#define STEER_BENCH_MESH_WALLS_H

#include "steer.h"
#include "steer_nav.h"

// STEER_OK, or the first failing steer_add_wall's status (steer_navmesh_view's for a refused mesh).
static inline int bench_add_mesh_walls(steer_World *w, const steer_NavMesh *m)
{
    steer_DebugNavMesh view;
    int st = steer_navmesh_view(m, &view);
    for (int t = 0; st == STEER_OK && t < view.ntri; t++)
        for (int i = 0; st == STEER_OK && i < 3; i++) {
            if (view.adj[3 * t + i] >= 0) continue;
            const double *a = view.xy + 2 * view.tri[3 * t + i], *b = view.xy + 2 * view.tri[3 * t + (i + 1) % 3];
            st = steer_add_wall(w, (const double[3]){ a[0], a[1], 0 }, (const double[3]){ b[0], b[1], 0 }, NULL);
        }
    return st;
}

#endif
