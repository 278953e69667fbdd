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

// Where the search for one radius, under one filter's exclusions, can go
// (mesh_reach.c): per node, whether it is reached from the mesh's largest
// strongly connected group of nodes. Kept per query for a few (mesh,
// radius, exclusions), the least recently used replaced.
enum { STEERN_REACH_SLOTS = 4 };
typedef struct steerN_Reach {
    uint64_t mesh; // the mesh's prepare_id (0: an empty slot)
    double radius;
    uint64_t excluded; // bit i: area i excluded
    uint64_t used;     // the query's clock when last asked
    bool grouped;      // a group of more than one node that is its own reverse (else nothing known)
    uint8_t *from_g;   // per node: 1 when reached from the group
    uint32_t cap;
} steerN_Reach;

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

// A way out of a triangle for the search under way (mesh_path.c:
// portal_room): the node it enters (next, UINT32_MAX when it enters no
// ground the filter allows) and the part of its portal, as parameters
// lo..hi along its directed edge, that the path may cross for the radius;
// lo INFINITY when closed (hi then 1 when it has a length, so its closing
// turned something away, else 0). It depends on the edge, the radius and
// the excluded areas alone: kept per directed edge (3 t + j) for one
// (mesh, radius, exclusions), valid when its stamp is the query's
// room_stamp. With it the edge itself, from a along d (its squared length
// l2), as the search computes them: all that the
// search reads of a way out (64 bytes).
typedef struct PortalRoom {
    double lo, hi;
    double a[2], d[2], l2;
    uint32_t next, stamp;
} PortalRoom;

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
    // each way out of a triangle for one (mesh, radius, exclusions): per
    // directed edge, filled when first asked (mesh_path.c: portal_room)
    PortalRoom *room;
    uint32_t room_cap, room_stamp;
    uint64_t room_mesh, room_excluded;
    double room_radius;
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
    double *pz; // its points' heights while it is checked, on a mesh of several layers (mesh_funnel.c)
    uint32_t cap_pz;
    int32_t *corr;
    uint32_t ncorr, cap_corr;
    Obj *portal; // 2 per portal: left, right
    uint32_t cap_portal;
    Obj *cor; // the path's corners: the start, the circles it turns round, the goal
    uint32_t ncor, cap_cor;
    double length;
    uint32_t work; // triangles steerN_mesh_path's searches expanded
    // the groups (mesh_reach.c), and the search's when known
    steerN_Reach reach[STEERN_REACH_SLOTS];
    uint64_t reach_clock, excluded; // excluded: the search's (bit i: area i)
    const steerN_Reach *groups;
    bool no_reach;       // steerN_mesh_query_keep_reach(q, false): none made
    bool pocket;         // the goal's side is a pocket off the largest group: flooded first
    bool side;           // the goal's side to flood before the search (mesh_path.c: goal_side)
    const uint8_t *live; // per node (at its reverse): nonzero when it gets back to the group (or NULL)
    // per triangle its island (mesh_reach.c), for one mesh and exclusions
    uint32_t *island, island_cap;
    uint64_t island_mesh, island_excluded;
    struct steerN_LinkQuery *lk; // the search over links' scratch (mesh_link.c), NULL until one ran
    uint32_t link_cap;           // steerN_mesh_query_link_cap: 0, none
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
// How far along the portal from its end a (vertex v) toward b the path
// crosses it at the nearest for radius r: out of the circle of that end
// (steerN_mesh_end): r from a wall's vertex; from an area's corner near a
// wall, where the portal leaves the circle about the wall's nearest point.
static inline double steerN_end_room(const steerN_Mesh *m, uint32_t v, const double a[2], const double b[2], double len,
                                     double r)
{
    if (m->vwall[v]) return r;
    double c[2], rho = steerN_mesh_end(m, v, r, c);
    if (!(rho > 0) || !(len > 0)) return rho;
    double e[2] = { (b[0] - a[0]) / len, (b[1] - a[1]) / len }, w[2] = { c[0] - a[0], c[1] - a[1] };
    double along = w[0] * e[0] + w[1] * e[1], h = mg_cross(e[0], e[1], w[0], w[1]), k = rho * rho - h * h;
    double s = along + sqrt(k > 0 ? k : 0);
    return s > 0 ? s : 0;
}

// mesh_reach.c: what the query keeps for the search under way (its mesh,
// radius and exclusions), else NULL; make it (NULL when out of memory:
// the search goes on without); and what it says of the search's start and
// goal (not the same triangle): 1 the search reaches the goal (the goal's
// side is no pocket), 0 the goal's side is a pocket (the flood tells
// whether the start is in it), -1 neither known (the start may be in a
// pocket; or no group); free it all.
const steerN_Reach *steerN_reach_find(steerN_MeshQuery *q);
const steerN_Reach *steerN_reach_make(steerN_MeshQuery *q);
int steerN_reach_joins(const steerN_MeshQuery *q, const steerN_Reach *x);
// Whether the search's start and goal are on one island (ground joined
// for radius 0 under its exclusions), -1 out of memory; the islands are
// kept for one mesh and exclusions.
int steerN_reach_island(steerN_MeshQuery *q);
void steerN_reach_free(steerN_MeshQuery *q);
// mesh_link.c: free the query's scratch of searches over links.
void steerN_link_query_free(steerN_MeshQuery *q);

// The search reached the goal: the corridor, the funnel, the way
// (mesh_funnel.c). NARROW when no way keeping r was made in the corridor;
// then, when bad is not NULL, the node (a portal of the corridor) to close
// for another search into *bad.
steerN_PathStatus steerN_query_finish(steerN_MeshQuery *q, uint32_t *bad);

#endif
