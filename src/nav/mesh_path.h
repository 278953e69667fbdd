// SPDX-License-Identifier: MIT
// mesh_path.h — the path query's state, shared by the search (mesh_path.c)
// and the funnel that turns its corridor into a way (mesh_funnel.c).
// Private to src/nav.
#ifndef STEER_NAV_MESH_PATH_H
#define STEER_NAV_MESH_PATH_H

#include "mesh_geom.h"

#include <string.h>

enum { START_ID = UINT32_MAX - 1, GOAL_ID = UINT32_MAX };
enum { STEERN_MESH_BANS = 4 }; // searches again after a corridor too narrow for r

typedef struct Obj {
    double p[2];
    double rho;  // the circle's radius
    int side;    // +1 the path keeps it on its left, -1 right, 0 a free point
    uint32_t id; // its vertex, START_ID or GOAL_ID
    uint32_t at; // its portal (0: the start's, the last: the goal's)
    uint32_t v;  // its vertex, when id is not (a point moved off it)
} Obj;

// A node's cost so far, its key in the open list (the cost and the
// bound to the goal) and where the path crosses its entry edge (mesh_path.c):
// together, what reaching and expanding a node read and write.
typedef struct SearchNode {
    double g, key, pos[2];
} SearchNode;

struct steerN_MeshQuery {
    steerN_Alloc alloc;
    // per node: 3 per triangle, then the start and the goal
    uint32_t cap;
    SearchNode *node;
    uint32_t *parent, *seen, *closed;
    uint32_t stamp;
    // the flood from the goal's side (per node: its marks, and a stack)
    uint32_t *fmark, *fstack;
    uint32_t fstamp;
    uint32_t expanded, check; // nodes this search expanded; the next flood when it reaches check
    // the open list: a binary heap of (key, node), and before it one entry
    // (front, when has_front) out of the heap (mesh_path.c: open_push)
    double *hkey;
    uint32_t *hitem, hn, hcap;
    double front_key;
    uint32_t front;
    bool has_front;
    // the search under way
    const steerN_Mesh *m;
    double from[2], to[2], radius, hscale;
    float cost[STEERN_MESH_AREAS];
    uint32_t ts, tg;
    bool narrowed;                        // something was turned away as too narrow
    uint32_t ban[STEERN_MESH_BANS], nban; // nodes closed to the search (corridors no way was made in)
    bool repaired;                        // repair changed the funnel's corners, or saw a wall's middle cut
    steerN_PathStatus status;
    // the last path
    double *pts;
    uint32_t npts, cap_pts;
    int32_t *corr;
    uint32_t ncorr, cap_corr;
    Obj *portal; // 2 per portal: left, right
    uint32_t cap_portal;
    Obj *cor; // the path's corners: the start, the circles it turns round, the goal
    uint32_t ncor, cap_cor;
    double length;
    uint32_t work; // triangles steerN_mesh_path's searches expanded
};

// need elements of elem bytes in *p (capacity *cap, grown by doubling); -1 out of memory
static inline int steerN_query_grow(const steerN_Alloc *a, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return 0;
    uint32_t c = *cap ? *cap : 64;
    while (c < need) c = c > UINT32_MAX / 2 ? need : c * 2;
    void *q = steerN_realloc(a, *p, elem * *cap, elem * c);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}
// A new stamp for the per-node seen/closed marks (clearing them when it wraps).
static inline void steerN_query_stamp(steerN_MeshQuery *q)
{
    if (++q->stamp == 0) {
        memset(q->seen, 0, sizeof *q->seen * q->cap);
        memset(q->closed, 0, sizeof *q->closed * q->cap);
        q->stamp = 1;
    }
}
// The circle a portal's end at vertex v is for radius r: its radius, and
// its centre into c (when not NULL): the vertex, radius r, when a wall
// ends there; for an area's corner nearer a wall than r, the nearest
// point of that wall, radius r (what cuts the way there is the wall, not
// the corner, which lies inside that circle: a way round the circle
// passes the corner on the same side); else the corner itself, radius 0.
// For r > 0, a radius above 0 says v is a corner to keep r from.
static inline double steerN_mesh_end(const steerN_Mesh *m, uint32_t v, double r, double c[2])
{
    const double *p = m->xy + 2 * v;
    if (c) c[0] = p[0], c[1] = p[1];
    if (m->vwall[v]) return r;
    double at[2];
    if (!(r > 0) || !(steerN_mesh_wall_distance(m, p, c ? at : NULL, NULL) < r)) return 0;
    if (c) c[0] = at[0], c[1] = at[1];
    return r;
}
// The search reached the goal: the corridor, the funnel, the way
// (mesh_funnel.c). NARROW when no way keeping r was made in the corridor;
// then, when bad is not NULL, the node (a portal of the corridor) to close
// for another search into *bad.
steerN_PathStatus steerN_query_finish(steerN_MeshQuery *q, uint32_t *bad);

#endif
