// SPDX-License-Identifier: MIT
// mesh_geom.h — the plane geometry the mesh queries share (mesh_query.c,
// mesh_path.c): small vector helpers in doubles on the metre coordinates,
// and the few internal entry points one file lends the other. Private to
// src/nav.
#ifndef STEER_NAV_MESH_GEOM_H
#define STEER_NAV_MESH_GEOM_H

#include "mesh.h"

static inline const double *mg_v(const steerN_Mesh *m, uint32_t t, int i) { return m->xy + 2 * m->tri[3 * t + i]; }
static inline double mg_cross(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }
// Twice the signed area of a b c: > 0 when counter-clockwise.
static inline double mg_orient(const double a[2], const double b[2], const double c[2])
{
    return mg_cross(b[0] - a[0], b[1] - a[1], c[0] - a[0], c[1] - a[1]);
}
static inline double mg_dist(const double a[2], const double b[2])
{
    double dx = b[0] - a[0], dy = b[1] - a[1];
    return sqrt(dx * dx + dy * dy);
}
// The larger and the smaller of two numbers that are not NaN (fmax and
// fmin are calls into libm).
static inline double mg_max(double a, double b) { return a > b ? a : b; }
static inline double mg_min(double a, double b) { return a < b ? a : b; }
// The point of segment a-b nearest p (into out, may be NULL) and its
// parameter along a-b in [0, 1]; returns the squared distance.
static inline double mg_seg_nearest(const double p[2], const double a[2], const double b[2], double out[2], double *s)
{
    double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
    double u = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double q[2] = { a[0] + u * dx, a[1] + u * dy };
    if (out) out[0] = q[0], out[1] = q[1];
    if (s) *s = u;
    double ex = p[0] - q[0], ey = p[1] - q[1];
    return ex * ex + ey * ey;
}
// The unit normal of edge a->b pointing to its left (into a triangle
// whose counter-clockwise edge it is).
static inline void mg_left_normal(const double a[2], const double b[2], double n[2])
{
    double dx = b[0] - a[0], dy = b[1] - a[1], l = sqrt(dx * dx + dy * dy);
    n[0] = l > 0 ? -dy / l : 0;
    n[1] = l > 0 ? dx / l : 0;
}
// True when p lies in triangle t, edges included.
static inline bool mg_in_tri(const steerN_Mesh *m, uint32_t t, const double p[2])
{
    const double *a = mg_v(m, t, 0), *b = mg_v(m, t, 1), *c = mg_v(m, t, 2);
    return mg_orient(a, b, p) >= 0 && mg_orient(b, c, p) >= 0 && mg_orient(c, a, p) >= 0;
}
// The edge of triangle u that is shared with t (-1 when none).
static inline int mg_back_edge(const steerN_Mesh *m, uint32_t u, uint32_t t)
{
    for (int i = 0; i < 3; i++)
        if (m->adj[3 * u + i] == (int32_t)t) return i;
    return -1;
}
// The distance between segments a-b and c-d (0 when they cross).
// Segments a-b and c-d cross (each one's ends strictly on both sides of
// the other's line): mg_seg_seg's 0.
static inline bool mg_seg_cross(const double a[2], const double b[2], const double c[2], const double d[2])
{
    double o1 = mg_orient(a, b, c), o2 = mg_orient(a, b, d), o3 = mg_orient(c, d, a), o4 = mg_orient(c, d, b);
    return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}
static inline double mg_seg_seg(const double a[2], const double b[2], const double c[2], const double d[2])
{
    if (mg_seg_cross(a, b, c, d)) return 0;
    double x = mg_seg_nearest(a, c, d, NULL, NULL), y = mg_seg_nearest(b, c, d, NULL, NULL);
    double z = mg_seg_nearest(c, a, b, NULL, NULL), w = mg_seg_nearest(d, a, b, NULL, NULL);
    x = x < y ? x : y, z = z < w ? z : w;
    return sqrt(x < z ? x : z);
}
// An area's cost under a filter (NULL: the mesh's own).
static inline double mg_area_cost(const steerN_Mesh *m, const float *cost, uint32_t t)
{
    return cost ? (double)cost[m->area[t]] : (double)m->area_cost[m->area[t]];
}

// mesh_query.c: the nearest wall edge (3 t + i) to p and the distance
// (INFINITY, -1 when there is no wall); at: its nearest point.
double steerN_mesh_wall_edge(const steerN_Mesh *m, const double p[2], double at[2], int64_t *edge);
// Only the walls that count on floor g (NULL: all; steerN_mesh_wall_floor).
double steerN_mesh_wall_edge_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *g, double at[2],
                                int64_t *edge);
// mesh_clearance.c, once the indexes are made: each width at a corner no wall
// ends at made no more than twice the largest wall distance along either edge there.
void steerN_mesh_area_corner_widths(steerN_Mesh *m);
// mesh_query.c: point p (the start or the goal) in triangle t is cut off
// from t's edge k for a disc of radius r by a pinch: a wall point nearer
// than 2 r to an end v of edge k, across the edge opposite v, in the
// wedge at v between edge k and p (the disc would have to pass between v
// and that wall to go from the edge to p). Demyen's widths check the ways
// between two edges; this is the way between an edge and a point inside.
bool steerN_mesh_pinched(const steerN_Mesh *m, double r, uint32_t t, int k, const double p[2]);
// mesh_query.c: the wall edges (3 t + i) nearer than lim to p, each once,
// the first cap of them into out; returns how many there are.
uint32_t steerN_mesh_walls_within(const steerN_Mesh *m, const double p[2], double lim, uint32_t *out, uint32_t cap);
// mesh_query.c: the cells c0 to c1 of the index grid along axis (0: x, 1:
// y) from lo to hi, clamped to the grid.
void steerN_mesh_cell_range(const steerN_Mesh *m, double lo, double hi, int axis, uint32_t *c0, uint32_t *c1);
// mesh_clearance.c: true when no wall edge x-y is nearer than lim to segment
// a-b as mg_seg_seg(a, b, x, y) puts it (false also for one within a hair,
// 1e-9 of lim, past it): the wall index's cells within lim of the
// segment, each wall edge by its box and its side of the segment's line
// first.
bool steerN_mesh_segment_clear(const steerN_Mesh *m, const double a[2], const double b[2], double lim);
// mesh_query.c: a wall comes nearer than lim to the polyline of n points p.
// With z (its points' ground heights, on a mesh of several layers), only
// the walls on its floor count: those whose ground where wall and segment
// come nearest lies within STEERN_FLOOR_REACH of the segment's there
// (its ends' heights interpolated); the walls of a floor over or under
// the same plan are no walls to it. NULL: every wall.
bool steerN_mesh_polyline_near(const steerN_Mesh *m, const double *p, const double *z, uint32_t n, double lim);
// mesh_query.c: every point of the polyline on the mesh (or within 1e-9
// of a wall) and no segment through a wall (a hit before 1 - 1e-9 of it).
// With z (as above), each point is placed on the ground at its height
// (steerN_mesh_locate_on), so a segment walks the floor it is on.
bool steerN_mesh_polyline_on(const steerN_Mesh *m, const double *p, const double *z, uint32_t n);

// ---- the derived data's parts (mesh_query.c), for mesh_update.c ----

// A width search's scratch: seen has ntri + 1 entries (zero, or stamps
// below stamp), stack ntri + 1.
typedef struct steerN_WidthScratch {
    uint32_t *seen; // per triangle: the stamp of the search that reached it
    uint32_t *stack;
    uint32_t stamp;
} steerN_WidthScratch;
// The width at corner i of triangle t as steerN_mesh_prepare first puts
// it (before steerN_mesh_area_corner_widths).
double steerN_mesh_corner_width(const steerN_Mesh *m, steerN_WidthScratch *s, uint32_t t, int i);
// The index grid (bmin, bmax, bcell, bnx, bny) from the vertices and grid_tris.
void steerN_mesh_grid(steerN_Mesh *m);
// Item k (triangle k, or wall edge k when wall) overlaps cell (cx, cy).
bool steerN_mesh_overlaps(const steerN_Mesh *m, uint32_t k, bool wall, uint32_t cx, uint32_t cy);
// front[v] and front_next[v] (mesh.h), from the wall index; they read the
// wall index's cells within one of v's own, no others.
void steerN_mesh_front_walls(steerN_Mesh *m, uint32_t v);
// Derived memory: allocated (counted in derived_bytes), and all of it freed.
void *steerN_mesh_grab(steerN_Mesh *m, size_t bytes);
void steerN_mesh_derived_free(steerN_Mesh *m);
void steerN_mesh_aux_free(steerN_Mesh *m); // (the aux_free of a prepared mesh)
uint64_t steerN_mesh_new_prepare_id(void);

// mesh_update.c: the derived data of m, whose mesh part mesh_rebuild.c
// just changed in place, from what they were where the change cannot
// reach: the same bits as steerN_mesh_prepare(m). The change: the slots
// rewritten (a triangle now, dead, or gone when at or past m->ntri), each
// with the box of what it held before (lo > hi: nothing), marked 1 in
// s->changed; the other triangles whose neighbours changed; the vertices
// whose walls' ends changed or that are new (their fronts worked out
// again). m's first vertices are base's (its grid's box is theirs).
typedef struct steerN_UpdateScratch {
    steerN_WidthScratch ws; // seen, stack: room for cap_tri + 1
    uint32_t *tmark;        // per slot: the gen of the pass that looked at it
    uint32_t *vmark;        // per vertex, likewise
    uint8_t *changed;       // per slot: 1 while in the change
    uint8_t *cell;          // per index cell: 1 while dirty
    uint32_t gen;
    uint32_t cap_tri, cap_vert, cap_cell;
} steerN_UpdateScratch;
typedef struct steerN_MeshChange {
    const uint32_t *slot;
    const double *obox; // 4 per slot
    uint32_t nslot;
    const uint32_t *adj;
    uint32_t nadj;
    const uint32_t *vert;
    uint32_t nvert;
    uint32_t old_ntri, old_nvert;
    bool areas; // m may have corners at vertices no wall ends at (the whole area-corner pass)
} steerN_MeshChange;
// Room in s for ntri slots, nvert vertices and ncell cells: 0, or -1.
int steerN_update_scratch_room(const steerN_Alloc *a, steerN_UpdateScratch *s, uint32_t ntri, uint32_t nvert,
                               size_t ncell);
void steerN_update_scratch_free(const steerN_Alloc *a, steerN_UpdateScratch *s);
// corner_reach's length: a cell's, then a block's of REACH_BLOCK x
// REACH_BLOCK cells (their largest: a change far from most skips them).
#define STEERN_REACH_BLOCK 8
static inline uint32_t mg_reach_blocks(uint32_t n) { return (n + STEERN_REACH_BLOCK - 1) / STEERN_REACH_BLOCK; }
static inline size_t mg_reach_len(const steerN_Mesh *m)
{
    return (size_t)m->bnx * m->bny + (size_t)mg_reach_blocks(m->bnx) * mg_reach_blocks(m->bny);
}
// corner_reach and corner_reach_max (mesh.h) from the widths as a whole
// prepare first puts them (steerN_mesh_prepare's).
void steerN_mesh_corner_reach(steerN_Mesh *m);
// 0; 1 when the grid is not the same (nothing done: prepare m whole); -1
// when out of memory (m not prepared).
int steerN_mesh_update(steerN_Mesh *m, const steerN_MeshChange *c, steerN_UpdateScratch *s, const steerN_Mesh *base);
// The first part of the derived data (grid, width, back, cum_area,
// front, front_next, the indexes) in which two prepared meshes differ by
// a bit, or NULL: for the tests.
const char *steerN_mesh_derived_diff(const steerN_Mesh *a, const steerN_Mesh *b);

#endif
