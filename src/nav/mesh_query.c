// SPDX-License-Identifier: MIT
// mesh_query.c — what a navigation mesh answers about points (mesh.h):
// the derived data (steerN_mesh_prepare), locate, the nearest point, the
// distance to the walls, contains, raycast, move along the surface and
// random points; for the paths (mesh_path.c, mesh_funnel.c), the pinch at
// a path's ends, whether a wall comes near a segment, the walls near a
// point, and (prepared) each wall vertex's nearest wall point in front.
//
// Widths after Demyen & Buro ("Efficient Triangulation-Based
// Pathfinding", AAAI 2006, and Demyen's thesis): the width of triangle t
// at its corner C (between edges CA and CB, opposite edge AB) is the
// distance from C to the nearest wall point beyond AB that can pinch a
// disc going round C: |CA| when a wall ends at A, |CB| when one ends at B,
// and the nearest wall point beyond AB inside the wedge at C between the
// rays CA and CB, searched exactly: every triangle beyond AB the wedge
// reaches within the best distance so far (search_width; when a wall
// ends at A or B, no point beyond AB is nearer than that end past its
// perpendicular, which is Demyen's strip). Only walls (adj -1) and the
// vertices they end at pinch: area borders are no walls, and an A or B of
// vwall 0 does not count. The walls ending at C itself pinch the way in
// the triangles beyond CA and CB, whose widths see them. A corner whose
// vertex no wall ends at (vwall 0: a corner of an area only) has nothing
// to go round, but the path keeps to its corridor, so it may pass over C
// itself: its width is twice C's distance found as above, and no more
// than twice the largest wall distance along CA, nor along CB (a way
// crosses both; mesh_clearance.c: walls behind C). Portals themselves
// are checked by the path search.
//
// The indexes: one uniform grid over the vertices' box, sized for about
// two triangles per cell; each cell lists the triangles and the wall
// edges that overlap it (exact separating-axis tests against the cell, a
// hair enlarged), in increasing index, so locate returns the lowest
// triangle holding a point, and the wall distance is a ring search that
// stops when no unseen cell can hold a nearer wall.
//
// All arithmetic is IEEE double on the metre coordinates, with no libm
// function but sqrt and floor: the same bits on every machine.
#include "mesh_geom.h"

#include <string.h>

// ---- derived data ----------------------------------------------------------

typedef steerN_WidthScratch Scratch;

// The distance from c to the part of segment p-q inside the wedge at c
// between rays c->a and c->b, beyond the line a-b (c, a, b counter-
// clockwise): INFINITY when that part is empty.
static double wedge_distance(const double c[2], const double a[2], const double b[2], const double p[2],
                             const double q[2])
{
    // each constraint f(s) = f0 + s df >= 0 on p + s (q - p)
    double f0[3] = { mg_orient(c, a, p), mg_orient(b, c, p), mg_orient(b, a, p) };
    double f1[3] = { mg_orient(c, a, q), mg_orient(b, c, q), mg_orient(b, a, q) };
    double lo = 0, hi = 1;
    for (int k = 0; k < 3; k++) {
        double df = f1[k] - f0[k];
        if (df == 0) {
            if (f0[k] < 0) return INFINITY;
            continue;
        }
        double s = -f0[k] / df;
        if (df > 0) lo = s > lo ? s : lo;
        else hi = s < hi ? s : hi;
    }
    if (lo > hi) return INFINITY;
    double s0[2] = { p[0] + lo * (q[0] - p[0]), p[1] + lo * (q[1] - p[1]) };
    double s1[2] = { p[0] + hi * (q[0] - p[0]), p[1] + hi * (q[1] - p[1]) };
    return sqrt(mg_seg_nearest(c, s0, s1, NULL, NULL));
}

// Demyen's search_width: the nearest wall point to c beyond edge e of t
// within the wedge at c, if nearer than d; exact: every triangle beyond e
// that the wedge reaches within d is searched.
static double search_width(const steerN_Mesh *m, Scratch *s, uint32_t t, int e, const double c[2], double d)
{
    const double *a = mg_v(m, t, e), *b = mg_v(m, t, (e + 1) % 3);
    if (++s->stamp == 0) {
        memset(s->seen, 0, sizeof *s->seen * m->ntri);
        s->stamp = 1;
    }
    s->seen[t] = s->stamp;
    uint32_t u = (uint32_t)m->adj[3 * t + e], n = 0;
    s->seen[u] = s->stamp;
    s->stack[n++] = 3 * u + (uint32_t)mg_back_edge(m, u, t);
    while (n) {
        uint32_t x = s->stack[--n], w = x / 3, k = x % 3;
        for (uint32_t j = (k + 1) % 3; j != k; j = (j + 1) % 3) {
            double dist = wedge_distance(c, a, b, mg_v(m, w, (int)j), mg_v(m, w, (int)(j + 1) % 3));
            if (!(dist < d)) continue;
            int32_t v = m->adj[3 * w + j];
            if (v < 0) {
                d = dist;
                continue;
            }
            if (s->seen[v] == s->stamp) continue;
            s->seen[v] = s->stamp;
            s->stack[n++] = 3 * (uint32_t)v + (uint32_t)mg_back_edge(m, (uint32_t)v, w);
        }
    }
    return d;
}

double steerN_mesh_corner_width(const steerN_Mesh *m, steerN_WidthScratch *s, uint32_t t, int i)
{
    uint32_t vc = m->tri[3 * t + i], va = m->tri[3 * t + (i + 1) % 3], vb = m->tri[3 * t + (i + 2) % 3];
    const double *c = m->xy + 2 * vc, *a = m->xy + 2 * va, *b = m->xy + 2 * vb;
    double d = INFINITY;
    if (m->vwall[va]) d = mg_dist(c, a);
    if (m->vwall[vb] && mg_dist(c, b) < d) d = mg_dist(c, b);
    bool obtuse_a = (c[0] - a[0]) * (b[0] - a[0]) + (c[1] - a[1]) * (b[1] - a[1]) <= 0;
    bool obtuse_b = (c[0] - b[0]) * (a[0] - b[0]) + (c[1] - b[1]) * (a[1] - b[1]) <= 0;
    // a corner of an area only: the disc may pass over c itself, so what
    // pinches it is c's own distance to the walls, twice
    double k = m->vwall[vc] ? 1 : 2;
    if ((obtuse_a && m->vwall[va]) || (obtuse_b && m->vwall[vb])) return k * d;
    int e = (i + 1) % 3; // the edge a -> b
    if (m->adj[3 * t + e] < 0) {
        double w = sqrt(mg_seg_nearest(c, a, b, NULL, NULL));
        return k * (w < d ? w : d);
    }
    return k * search_width(m, s, t, e, c, d);
}

void *steerN_mesh_grab(steerN_Mesh *m, size_t bytes)
{
    void *p = steerN_realloc(&m->alloc, NULL, 0, bytes ? bytes : 1);
    if (p) m->derived_bytes += bytes ? bytes : 1;
    return p;
}

static void drop(steerN_Mesh *m, void *p, size_t bytes)
{
    if (p) steerN_realloc(&m->alloc, p, bytes ? bytes : 1, 0);
}

static size_t ncells(const steerN_Mesh *m) { return (size_t)m->bnx * m->bny; }

void steerN_mesh_derived_free(steerN_Mesh *m)
{
    size_t nc = ncells(m);
    drop(m, m->width, sizeof *m->width * 3 * m->ntri);
    drop(m, m->back, sizeof *m->back * 3 * m->ntri);
    drop(m, m->front, sizeof *m->front * m->nvert);
    drop(m, m->front_next, sizeof *m->front_next * m->nvert);
    drop(m, m->cum_area, sizeof *m->cum_area * m->ntri);
    if (m->corner_reach) drop(m, m->corner_reach, sizeof *m->corner_reach * mg_reach_len(m));
    if (m->tstart) drop(m, m->titem, sizeof *m->titem * m->tstart[nc]);
    if (m->wstart) drop(m, m->witem, sizeof *m->witem * m->wstart[nc]);
    drop(m, m->tstart, sizeof *m->tstart * (nc + 1));
    drop(m, m->wstart, sizeof *m->wstart * (nc + 1));
    m->width = m->cum_area = m->corner_reach = NULL;
    m->back = NULL;
    m->front = NULL;
    m->front_next = NULL;
    m->tstart = m->titem = m->wstart = m->witem = NULL;
    m->derived_bytes = 0;
    m->prepared = false;
    m->aux_free = NULL;
}

// The cell rectangle (x0, y0, x1, y1), a hair enlarged so that a point on
// a cell's border counts in both cells.
static void cell_rect(const steerN_Mesh *m, uint32_t cx, uint32_t cy, double r[4])
{
    double e = m->bcell * 1e-9;
    r[0] = m->bmin[0] + cx * m->bcell - e, r[1] = m->bmin[1] + cy * m->bcell - e;
    r[2] = m->bmin[0] + (cx + 1) * m->bcell + e, r[3] = m->bmin[1] + (cy + 1) * m->bcell + e;
}

// -1 when all four corners of r are strictly right of a->b, 1 strictly
// left, 0 otherwise.
static int rect_side(const double a[2], const double b[2], const double r[4])
{
    int left = 0, right = 0;
    for (int k = 0; k < 4; k++) {
        double p[2] = { r[k & 1 ? 2 : 0], r[k & 2 ? 3 : 1] };
        double o = mg_orient(a, b, p);
        left += o > 0, right += o < 0;
    }
    return right == 4 ? -1 : left == 4 ? 1 : 0;
}

static void cell_range(const steerN_Mesh *m, double lo, double hi, int axis, uint32_t *c0, uint32_t *c1)
{
    uint32_t n = axis ? m->bny : m->bnx;
    double a = floor((lo - m->bmin[axis]) / m->bcell), b = floor((hi - m->bmin[axis]) / m->bcell);
    *c0 = a < 0 ? 0 : a >= n ? n - 1 : (uint32_t)a;
    *c1 = b < 0 ? 0 : b >= n ? n - 1 : (uint32_t)b;
}

void steerN_mesh_cell_range(const steerN_Mesh *m, double lo, double hi, int axis, uint32_t *c0, uint32_t *c1)
{
    cell_range(m, lo, hi, axis, c0, c1);
}

// Item k (a triangle, or the wall edge k) overlaps cell (cx, cy).
bool steerN_mesh_overlaps(const steerN_Mesh *m, uint32_t k, bool wall, uint32_t cx, uint32_t cy)
{
    double r[4];
    cell_rect(m, cx, cy, r);
    if (wall) {
        const double *a = mg_v(m, k / 3, (int)(k % 3)), *b = mg_v(m, k / 3, (int)(k % 3 + 1) % 3);
        return rect_side(a, b, r) == 0;
    }
    for (int i = 0; i < 3; i++)
        if (rect_side(mg_v(m, k, i), mg_v(m, k, (i + 1) % 3), r) < 0) return false;
    return true;
}

// One index: items (triangles, or wall edges) into the cells they overlap.
static int build_index(steerN_Mesh *m, bool wall, uint32_t **start, uint32_t **item)
{
    size_t nc = ncells(m);
    uint32_t nitems = wall ? 3 * m->ntri : m->ntri;
    *start = steerN_mesh_grab(m, sizeof **start * (nc + 1));
    if (!*start) return -1;
    memset(*start, 0, sizeof **start * (nc + 1));
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t k = 0; k < nitems; k++) {
            uint32_t t = wall ? k / 3 : k;
            if ((wall && m->adj[k] >= 0) || steerN_mesh_dead(m, t)) continue;
            double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
            for (int i = 0; i < 3; i++) {
                if (wall && i != (int)(k % 3) && i != (int)(k % 3 + 1) % 3) continue;
                const double *v = mg_v(m, t, i);
                for (int j = 0; j < 2; j++) lo[j] = v[j] < lo[j] ? v[j] : lo[j], hi[j] = v[j] > hi[j] ? v[j] : hi[j];
            }
            uint32_t x0, x1, y0, y1;
            cell_range(m, lo[0], hi[0], 0, &x0, &x1);
            cell_range(m, lo[1], hi[1], 1, &y0, &y1);
            for (uint32_t cy = y0; cy <= y1; cy++)
                for (uint32_t cx = x0; cx <= x1; cx++) {
                    if (!steerN_mesh_overlaps(m, k, wall, cx, cy)) continue;
                    size_t c = (size_t)cy * m->bnx + cx;
                    if (pass == 0) {
                        if ((*start)[c + 1] == UINT32_MAX) return -1;
                        (*start)[c + 1]++;
                    } else {
                        (*item)[(*start)[c]++] = k;
                    }
                }
        }
        if (pass == 0) {
            for (size_t c = 0; c < nc; c++) {
                if ((*start)[c + 1] > UINT32_MAX - (*start)[c]) return -1;
                (*start)[c + 1] += (*start)[c];
            }
            *item = steerN_mesh_grab(m, sizeof **item * (*start)[nc]);
            if (!*item) return -1;
        } else {
            // the fill advanced each start to the next cell's: shift back
            for (size_t c = nc; c > 0; c--) (*start)[c] = (*start)[c - 1];
            (*start)[0] = 0;
        }
    }
    return 0;
}

void steerN_mesh_aux_free(steerN_Mesh *m) { steerN_mesh_derived_free(m); }

// The cells of ring k about cell (cx, cy) (k = 0: that cell), row by row,
// those on the grid: ring_next gives each in turn, false after the last;
// ring_all: the ring reaches past every side of the grid.
typedef struct Ring {
    int64_t x0, x1, y0, y1, x, y;
} Ring;

static Ring ring_of(uint32_t cx, uint32_t cy, uint32_t k)
{
    Ring r = { (int64_t)cx - k, (int64_t)cx + k, (int64_t)cy - k, (int64_t)cy + k, 0, 0 };
    r.x = r.x0 - 1, r.y = r.y0;
    return r;
}

static bool ring_next(const steerN_Mesh *m, Ring *r, size_t *cell)
{
    for (; r->y <= r->y1; r->y++, r->x = r->x0 - 1) {
        if (r->y < 0 || r->y >= m->bny) continue;
        bool row = r->y == r->y0 || r->y == r->y1;
        r->x = r->x < r->x0 ? r->x0 : r->x + (row || r->x1 == r->x0 ? 1 : r->x1 - r->x0);
        for (; r->x <= r->x1; r->x += row || r->x1 == r->x0 ? 1 : r->x1 - r->x0)
            if (r->x >= 0 && r->x < m->bnx) {
                *cell = (size_t)r->y * m->bnx + (size_t)r->x;
                return true;
            }
    }
    return false;
}

static bool ring_all(const steerN_Mesh *m, const Ring *r)
{
    return r->x0 <= 0 && r->y0 <= 0 && r->x1 >= (int64_t)m->bnx - 1 && r->y1 >= (int64_t)m->bny - 1;
}

// A float no more than x >= 0 (INFINITY stays).
static float float_below(double x)
{
    float f = (float)x;
    if ((double)f > x) {
        uint32_t bits;
        memcpy(&bits, &f, 4);
        bits--;
        memcpy(&f, &bits, 4);
    }
    return f;
}

// front[v] and front_next[v] (mesh.h): rings of index cells about v until
// no unseen cell can hold a point nearer than the second found, at most
// two (front_next then a cell's width, when that is nearer).
void steerN_mesh_front_walls(steerN_Mesh *m, uint32_t v)
{
    enum { NEAR = 8 };
    const double *p = m->xy + 2 * v;
    double d1 = INFINITY, d2 = INFINITY, reach = INFINITY, p1[2] = { 0, 0 }, nb[NEAR][2];
    uint32_t e1 = UINT32_MAX, nn = 0, cx, cy;
    m->front[v] = UINT32_MAX, m->front_next[v] = INFINITY;
    if (!m->vwall[v] || !m->wstart[ncells(m)]) return;
    cell_range(m, p[0], p[0], 0, &cx, &cx);
    cell_range(m, p[1], p[1], 1, &cy, &cy);
    for (uint32_t k = 0;; k++) {
        // v's own walls (all in its cell) first: the far ends to leave out
        Ring ring = ring_of(cx, cy, k);
        for (int pass = k ? 1 : 0; pass < 2; pass++) {
            ring = ring_of(cx, cy, k);
            size_t c;
            while (ring_next(m, &ring, &c))
                for (uint32_t j = m->wstart[c]; j < m->wstart[c + 1]; j++) {
                    uint32_t e = m->witem[j], t = e / 3, i = e % 3;
                    uint32_t va = m->tri[3 * t + i], vb = m->tri[3 * t + (i + 1) % 3];
                    if (va == v || vb == v) {
                        if (pass == 0 && nn < NEAR) {
                            const double *o = m->xy + 2 * (va == v ? vb : va);
                            nb[nn][0] = o[0], nb[nn][1] = o[1], nn++;
                        }
                        continue;
                    }
                    if (pass == 0) continue;
                    const double *a = m->xy + 2 * va, *b = m->xy + 2 * vb;
                    if (fmin(a[0], b[0]) - p[0] >= reach || p[0] - fmax(a[0], b[0]) >= reach ||
                        fmin(a[1], b[1]) - p[1] >= reach || p[1] - fmax(a[1], b[1]) >= reach)
                        continue;                                      // no nearer than the second so far
                    double q[2], d = mg_seg_nearest(p, a, b, q, NULL); // squared, as d1 and d2
                    bool far_end = false;
                    for (uint32_t n = 0; n < nn && !far_end; n++) far_end = q[0] == nb[n][0] && q[1] == nb[n][1];
                    if (far_end || (q[0] == p1[0] && q[1] == p1[1] && e1 != UINT32_MAX) || !(d < d2)) continue;
                    if (d < d1) d2 = d1, d1 = d, e1 = e, p1[0] = q[0], p1[1] = q[1];
                    else d2 = d;
                    reach = sqrt(d2);
                }
        }
        if (reach <= k * m->bcell || ring_all(m, &ring)) break;
        if (k == 1) { // a cell's reach: enough for the corners most levels round, the rest look
            reach = m->bcell;
            break;
        }
    }
    m->front[v] = e1, m->front_next[v] = float_below(reach);
}

uint64_t steerN_mesh_new_prepare_id(void)
{
    static _Atomic uint64_t prepares;
    return atomic_fetch_add(&prepares, 1) + 1;
}

void steerN_mesh_grid(steerN_Mesh *m)
{
    m->bmin[0] = m->bmin[1] = m->bmax[0] = m->bmax[1] = 0;
    for (uint32_t v = 0; v < m->nvert; v++)
        for (int j = 0; j < 2; j++) {
            double x = m->xy[2 * v + j];
            if (v == 0 || x < m->bmin[j]) m->bmin[j] = x;
            if (v == 0 || x > m->bmax[j]) m->bmax[j] = x;
        }
    double w = m->bmax[0] - m->bmin[0], h = m->bmax[1] - m->bmin[1];
    uint32_t nt = m->grid_tris ? m->grid_tris : m->ntri;
    double want = nt > 2 ? nt / 2.0 : 1; // cells
    double cell = w > 0 && h > 0 ? sqrt(w * h / want) : (w > h ? w : h) / want;
    if (!(cell > 0)) cell = 1;
    // at most 2^22 cells, and at least 4 triangles' worth of room
    while ((w / cell + 1) * (h / cell + 1) > 4194304.0) cell *= 2;
    m->bcell = cell;
    m->bnx = (uint32_t)floor(w / cell) + 1;
    m->bny = (uint32_t)floor(h / cell) + 1;
}

int steerN_mesh_prepare(steerN_Mesh *m)
{
    if (m->aux_free) m->aux_free(m);
    m->aux_free = steerN_mesh_aux_free;
    steerN_Alloc a = m->alloc;
    steerN_mesh_grid(m);
    Scratch s = { 0 };
    m->width = steerN_mesh_grab(m, sizeof *m->width * 3 * m->ntri);
    m->cum_area = steerN_mesh_grab(m, sizeof *m->cum_area * m->ntri);
    m->back = steerN_mesh_grab(m, sizeof *m->back * 3 * m->ntri);
    s.seen = steerN_realloc(&a, NULL, 0, sizeof *s.seen * (m->ntri + 1));
    s.stack = steerN_realloc(&a, NULL, 0, sizeof *s.stack * (m->ntri + 1));
    int rc = -1;
    if (!m->width || !m->cum_area || !m->back || !s.seen || !s.stack) goto out;
    memset(s.seen, 0, sizeof *s.seen * (m->ntri + 1));
    double sum = 0;
    for (uint32_t t = 0; t < m->ntri; t++) {
        bool dead = steerN_mesh_dead(m, t); // (a live mesh's slot no triangle holds: mesh_rebuild.h)
        for (int i = 0; i < 3; i++) {
            int32_t u = m->adj[3 * t + i];
            m->width[3 * t + i] = dead ? 0 : steerN_mesh_corner_width(m, &s, t, i);
            m->back[3 * t + i] = u < 0 ? 0 : (uint8_t)mg_back_edge(m, (uint32_t)u, t);
        }
        sum += 0.5 * mg_orient(mg_v(m, t, 0), mg_v(m, t, 1), mg_v(m, t, 2));
        m->cum_area[t] = sum;
    }
    atomic_store(&m->cum_stale, UINT32_MAX);
    if (build_index(m, false, &m->tstart, &m->titem) || build_index(m, true, &m->wstart, &m->witem)) goto out;
    if (!(m->corner_reach = steerN_mesh_grab(m, sizeof *m->corner_reach * mg_reach_len(m)))) goto out;
    steerN_mesh_corner_reach(m);
    m->front = steerN_mesh_grab(m, sizeof *m->front * m->nvert);
    m->front_next = steerN_mesh_grab(m, sizeof *m->front_next * m->nvert);
    if (!m->front || !m->front_next) goto out;
    for (uint32_t v = 0; v < m->nvert; v++) steerN_mesh_front_walls(m, v);
    m->prepared = true;
    steerN_mesh_area_corner_widths(m);
    m->prepare_id = steerN_mesh_new_prepare_id();
    rc = 0;
out:
    steerN_realloc(&a, s.seen, sizeof *s.seen * (m->ntri + 1), 0);
    steerN_realloc(&a, s.stack, sizeof *s.stack * (m->ntri + 1), 0);
    if (rc) steerN_mesh_derived_free(m);
    return rc;
}

// ---- points ----------------------------------------------------------------

static bool cell_of(const steerN_Mesh *m, const double p[2], uint32_t *cx, uint32_t *cy)
{
    if (!(p[0] == p[0]) || !(p[1] == p[1]) || !m->prepared || !m->ntri) return false;
    cell_range(m, p[0], p[0], 0, cx, cx);
    cell_range(m, p[1], p[1], 1, cy, cy);
    return true;
}

int32_t steerN_mesh_locate(const steerN_Mesh *m, const double p[2])
{
    uint32_t cx, cy;
    if (!cell_of(m, p, &cx, &cy)) return -1;
    if (p[0] < m->bmin[0] || p[0] > m->bmax[0] || p[1] < m->bmin[1] || p[1] > m->bmax[1]) return -1;
    size_t c = (size_t)cy * m->bnx + cx;
    for (uint32_t k = m->tstart[c]; k < m->tstart[c + 1]; k++)
        if (mg_in_tri(m, m->titem[k], p)) return (int32_t)m->titem[k];
    return -1;
}

double steerN_mesh_wall_edge(const steerN_Mesh *m, const double p[2], double at[2], int64_t *edge)
{
    return steerN_mesh_wall_edge_on(m, p, NULL, at, edge);
}

double steerN_mesh_wall_edge_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *g, double at[2],
                                int64_t *edge)
{
    *edge = -1;
    uint32_t cx, cy;
    if (!cell_of(m, p, &cx, &cy) || !m->wstart[ncells(m)]) return INFINITY;
    double best = INFINITY;
    for (uint32_t k = 0;; k++) {
        Ring ring = ring_of(cx, cy, k);
        size_t c;
        while (ring_next(m, &ring, &c))
            for (uint32_t j = m->wstart[c]; j < m->wstart[c + 1]; j++) {
                uint32_t e = m->witem[j];
                double q[2];
                double d2 =
                    mg_seg_nearest(p, mg_v(m, e / 3, (int)(e % 3)), mg_v(m, e / 3, (int)(e % 3 + 1) % 3), q, NULL);
                if (g && !steerN_mesh_wall_counts(m, e, q, g)) continue;
                if (d2 < best || (d2 == best && (int64_t)e < *edge)) {
                    best = d2, *edge = e;
                    if (at) at[0] = q[0], at[1] = q[1];
                }
            }
        if (sqrt(best) <= k * m->bcell || ring_all(m, &ring)) break;
    }
    return sqrt(best);
}

// Wall edge w is nearer than lim to a segment of the polyline of n points
// p (bbox: the polyline's box, grown by lim), on its floor when z (the
// points' heights) is given.
static bool wall_near(const steerN_Mesh *m, uint32_t w, const double *p, const double *z, uint32_t n,
                      const double bbox[4], double lim)
{
    const double *x = mg_v(m, w / 3, (int)(w % 3)), *y = mg_v(m, w / 3, (int)(w % 3 + 1) % 3);
    if (fmax(x[0], y[0]) < bbox[0] || fmin(x[0], y[0]) > bbox[2] || fmax(x[1], y[1]) < bbox[1] ||
        fmin(x[1], y[1]) > bbox[3])
        return false;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (mg_seg_seg(p + 2 * i, p + 2 * i + 2, x, y) < lim &&
            (!z || steerN_mesh_wall_on_segment(m, w, p + 2 * i, z + i)))
            return true;
    return false;
}

// The walls in the wall index's cells within lim + half a cell of points
// a cell apart along the polyline (each cell once): its box when that is
// small (the points round a corner), else segment by segment.
static bool piece_near(const steerN_Mesh *m, const double *p, const double *z, uint32_t n, double lim)
{
    double bbox[4] = { INFINITY, INFINITY, -INFINITY, -INFINITY }, h = m->bcell;
    for (uint32_t i = 0; i < n; i++)
        for (int j = 0; j < 2; j++)
            bbox[j] = fmin(bbox[j], p[2 * i + j] - lim), bbox[2 + j] = fmax(bbox[2 + j], p[2 * i + j] + lim);
    if (n > 2 && bbox[2] - bbox[0] <= 2 * h && bbox[3] - bbox[1] <= 2 * h) {
        uint32_t c[4]; // x0, x1, y0, y1
        cell_range(m, bbox[0], bbox[2], 0, &c[0], &c[1]);
        cell_range(m, bbox[1], bbox[3], 1, &c[2], &c[3]);
        for (uint32_t cy = c[2]; cy <= c[3]; cy++)
            for (uint32_t cx = c[0]; cx <= c[1]; cx++) {
                size_t cell = (size_t)cy * m->bnx + cx;
                for (uint32_t j = m->wstart[cell]; j < m->wstart[cell + 1]; j++)
                    if (wall_near(m, m->witem[j], p, z, n, bbox, lim)) return true;
            }
        return false;
    }
    for (uint32_t i = 0; i + 1 < n; i++) {
        const double *a = p + 2 * i, *b = a + 2, *za = z ? z + i : NULL;
        double e = lim + h / 2 + 1e-9, box[4] = { fmin(a[0], b[0]) - lim, fmin(a[1], b[1]) - lim,
                                                  fmax(a[0], b[0]) + lim, fmax(a[1], b[1]) + lim };
        uint32_t steps = (uint32_t)(mg_dist(a, b) / h) + 1, prev[4] = { 1, 0, 1, 0 }; // none yet
        for (uint32_t k = 0; k <= steps; k++) {
            double x[2] = { a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps };
            uint32_t c[4]; // x0, x1, y0, y1
            cell_range(m, x[0] - e, x[0] + e, 0, &c[0], &c[1]);
            cell_range(m, x[1] - e, x[1] + e, 1, &c[2], &c[3]);
            for (uint32_t cy = c[2]; cy <= c[3]; cy++)
                for (uint32_t cx = c[0]; cx <= c[1]; cx++) {
                    if (cx >= prev[0] && cx <= prev[1] && cy >= prev[2] && cy <= prev[3]) continue;
                    size_t cell = (size_t)cy * m->bnx + cx;
                    for (uint32_t j = m->wstart[cell]; j < m->wstart[cell + 1]; j++)
                        if (wall_near(m, m->witem[j], a, za, 2, box, lim)) return true;
                }
            memcpy(prev, c, sizeof prev);
        }
    }
    return false;
}

// The polyline in pieces: the points within a cell (round a corner) at
// once, a longer segment alone.
bool steerN_mesh_polyline_near(const steerN_Mesh *m, const double *p, const double *z, uint32_t n, double lim)
{
    double h = m->bcell;
    for (uint32_t i = 0; i + 1 < n;) {
        uint32_t j = i + 1;
        double lo[2] = { fmin(p[2 * i], p[2 * j]), fmin(p[2 * i + 1], p[2 * j + 1]) };
        double hi[2] = { fmax(p[2 * i], p[2 * j]), fmax(p[2 * i + 1], p[2 * j + 1]) };
        while (hi[0] - lo[0] <= h && hi[1] - lo[1] <= h && j + 1 < n) {
            const double *x = p + 2 * (j + 1);
            if (fmax(hi[0], x[0]) - fmin(lo[0], x[0]) > h || fmax(hi[1], x[1]) - fmin(lo[1], x[1]) > h) break;
            lo[0] = fmin(lo[0], x[0]), lo[1] = fmin(lo[1], x[1]), hi[0] = fmax(hi[0], x[0]), hi[1] = fmax(hi[1], x[1]);
            j++;
        }
        if (piece_near(m, p + 2 * i, z ? z + i : NULL, j - i + 1, lim)) return true;
        i = j;
    }
    return false;
}

uint32_t steerN_mesh_walls_within(const steerN_Mesh *m, const double p[2], double lim, uint32_t *out, uint32_t cap)
{
    uint32_t n = 0, c[4]; // x0, x1, y0, y1
    if (!m->wstart[ncells(m)]) return 0;
    cell_range(m, p[0] - lim, p[0] + lim, 0, &c[0], &c[1]);
    cell_range(m, p[1] - lim, p[1] + lim, 1, &c[2], &c[3]);
    for (uint32_t cy = c[2]; cy <= c[3]; cy++)
        for (uint32_t cx = c[0]; cx <= c[1]; cx++) {
            size_t cell = (size_t)cy * m->bnx + cx;
            for (uint32_t j = m->wstart[cell]; j < m->wstart[cell + 1]; j++) {
                uint32_t e = m->witem[j];
                const double *a = mg_v(m, e / 3, (int)(e % 3)), *b = mg_v(m, e / 3, (int)(e % 3 + 1) % 3);
                if (mg_min(a[0], b[0]) > p[0] + lim || mg_max(a[0], b[0]) < p[0] - lim ||
                    mg_min(a[1], b[1]) > p[1] + lim || mg_max(a[1], b[1]) < p[1] - lim ||
                    !(mg_seg_nearest(p, a, b, NULL, NULL) < lim * lim))
                    continue;
                bool old = false;
                for (uint32_t i = 0; i < n && i < cap && !old; i++) old = out[i] == e;
                if (old) continue;
                if (n < cap) out[n] = e;
                n++;
            }
        }
    return n;
}

static void edge_normal(const steerN_Mesh *m, int64_t e, double n[2])
{
    mg_left_normal(mg_v(m, (uint32_t)e / 3, (int)(e % 3)), mg_v(m, (uint32_t)e / 3, (int)(e % 3 + 1) % 3), n);
}

double steerN_mesh_wall_distance(const steerN_Mesh *m, const double p[2], double at[2], double normal[2])
{
    return steerN_mesh_wall_distance_on(m, p, NULL, at, normal);
}

double steerN_mesh_wall_distance_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *f, double at[2],
                                    double normal[2])
{
    double q[2] = { 0, 0 };
    int64_t e;
    steerN_Floor g;
    double d = steerN_mesh_wall_edge_on(m, p, steerN_mesh_wall_floor(m, p, f, &g), q, &e);
    if (at) at[0] = q[0], at[1] = q[1];
    if (!normal) return d;
    normal[0] = normal[1] = 0;
    if (e < 0) return d;
    if (d > 1e-12) {
        double s = steerN_mesh_locate_on(m, p, f) >= 0 ? 1 / d : -1 / d;
        normal[0] = (p[0] - q[0]) * s, normal[1] = (p[1] - q[1]) * s;
    } else {
        edge_normal(m, e, normal);
    }
    return d;
}

bool steerN_mesh_contains(const steerN_Mesh *m, const double p[2], double radius)
{
    return steerN_mesh_contains_on(m, p, NULL, radius);
}

bool steerN_mesh_contains_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *f, double radius)
{
    if (steerN_mesh_locate_on(m, p, f) < 0) return false;
    return !(radius > 0) || steerN_mesh_wall_distance_on(m, p, f, NULL, NULL) >= radius;
}

// Move q, meant to lie in triangle t, into it (rounding may leave a point
// computed on an edge a hair outside): toward the centroid in growing steps.
static void settle(const steerN_Mesh *m, uint32_t t, double q[2])
{
    if (mg_in_tri(m, t, q)) return;
    const double *a = mg_v(m, t, 0), *b = mg_v(m, t, 1), *c = mg_v(m, t, 2);
    double g[2] = { (a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3 };
    for (double f = 1e-12; f < 1; f *= 8) {
        double r[2] = { q[0] + (g[0] - q[0]) * f, q[1] + (g[1] - q[1]) * f };
        if (mg_in_tri(m, t, r)) {
            q[0] = r[0], q[1] = r[1];
            return;
        }
    }
    q[0] = g[0], q[1] = g[1];
}

// Push q (on the mesh) away from the walls until a disc of radius r fits,
// each step straight out from the nearest wall to r from it, and only
// where the way there is clear; the point of the most room found.
static void push_out(const steerN_Mesh *m, double q[2], double r, const steerN_Floor *g)
{
    steerN_MeshFilter on = { .from = g };
    double best[2] = { q[0], q[1] }, room = -1;
    for (int it = 0; it < 16; it++) {
        double at[2];
        int64_t e;
        double d = steerN_mesh_wall_edge_on(m, q, g, at, &e);
        if (d > room) room = d, best[0] = q[0], best[1] = q[1];
        if (e < 0 || d >= r) break;
        double n[2];
        if (d > 1e-12) n[0] = (q[0] - at[0]) / d, n[1] = (q[1] - at[1]) / d;
        else edge_normal(m, e, n);
        // a hair beyond r, so the wall is at r after rounding
        double to[2] = { at[0] + n[0] * r * (1 + 1e-9), at[1] + n[1] * r * (1 + 1e-9) };
        if (steerN_mesh_raycast(m, q, to, g ? &on : NULL, NULL, NULL, NULL) != 0) break;
        q[0] = to[0], q[1] = to[1];
    }
    q[0] = best[0], q[1] = best[1];
}

bool steerN_mesh_nearest(const steerN_Mesh *m, const double p[2], double radius, double out[2], int32_t *tri,
                         double *dist)
{
    return steerN_mesh_nearest_on(m, p, NULL, radius, out, tri, dist);
}

bool steerN_mesh_nearest_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *f, double radius,
                            double out[2], int32_t *tri, double *dist)
{
    if (!m->prepared || !m->ntri || !(p[0] == p[0]) || !(p[1] == p[1])) return false;
    double q[2] = { p[0], p[1] };
    steerN_Floor gf;
    const steerN_Floor *g = steerN_mesh_wall_floor(m, p, f, &gf);
    int32_t t = steerN_mesh_locate_on(m, q, f);
    if (t < 0) {
        int64_t e;
        steerN_mesh_wall_edge_on(m, p, g, q, &e);
        if (e < 0) return false;
        t = (int32_t)(e / 3);
        settle(m, (uint32_t)t, q);
    }
    if (radius > 0) {
        push_out(m, q, radius, g);
        int32_t u = steerN_mesh_locate_on(m, q, g);
        t = u >= 0 ? u : t;
    }
    if (out) out[0] = q[0], out[1] = q[1];
    if (tri) *tri = t;
    if (dist) *dist = mg_dist(p, q);
    return true;
}

// ---- pinches ---------------------------------------------------------------

// The part of segment a-b inside the wedge at v from direction d0 to d1
// (turning toward side s) nearer v than lim.
static bool wedge_near(const double v[2], const double d0[2], const double d1[2], int s, const double a[2],
                       const double b[2], double lim)
{
    double lo = 0, hi = 1;
    const double *dir[2] = { d0, d1 };
    for (int k = 0; k < 2; k++) {
        // s cross(d0, x - v) >= 0 and s cross(x - v, d1) >= 0
        double sg = k ? -s : s, fa = sg * mg_cross(dir[k][0], dir[k][1], a[0] - v[0], a[1] - v[1]);
        double fb = sg * mg_cross(dir[k][0], dir[k][1], b[0] - v[0], b[1] - v[1]);
        if (fa < 0 && fb < 0) return false;
        if (fa < 0) lo = fmax(lo, fa / (fa - fb));
        else if (fb < 0) hi = fmin(hi, fa / (fa - fb));
    }
    if (lo > hi) return false;
    double p0[2] = { a[0] + lo * (b[0] - a[0]), a[1] + lo * (b[1] - a[1]) };
    double p1[2] = { a[0] + hi * (b[0] - a[0]), a[1] + hi * (b[1] - a[1]) };
    return mg_seg_nearest(v, p0, p1, NULL, NULL) < lim * lim;
}

// The pinch between an edge of a path's first or last triangle and its
// start or goal (mesh_geom.h): the walls within 2 r of the edge's end
// across the triangle, a few triangles searched.
bool steerN_mesh_pinched(const steerN_Mesh *m, double r, uint32_t t, int k, const double p[2])
{
    double lim = 2 * r - 1e-9;
    for (int end = 0; end < 2; end++) {
        int iv = end ? (k + 1) % 3 : k, io = end ? k : (k + 1) % 3, e = (iv + 1) % 3; // e: the edge opposite v
        uint32_t vi = m->tri[3 * t + iv];
        if (!m->vwall[vi]) continue;
        const double *v = mg_v(m, t, iv), *o = mg_v(m, t, io), *c = mg_v(m, t, (k + 2) % 3);
        double d0[2] = { o[0] - v[0], o[1] - v[1] }, d1[2] = { p[0] - v[0], p[1] - v[1] };
        int s = mg_orient(v, o, c) > 0 ? 1 : -1;
        if (!(s * mg_cross(d0[0], d0[1], d1[0], d1[1]) > 0)) continue;
        // the walls within 2 r of v across e: a few triangles, each once
        uint32_t seen[32], ns = 0, stack[32], from[32], n = 0;
        seen[ns++] = t;
        stack[n] = t, from[n++] = (uint32_t)e;
        while (n) {
            n--;
            uint32_t w = stack[n], only = from[n];
            for (int j = 0; j < 3; j++) {
                if (w == t && j != (int)only) continue;
                const double *a = mg_v(m, w, j), *b = mg_v(m, w, (j + 1) % 3);
                if (!(mg_seg_nearest(v, a, b, NULL, NULL) < lim * lim)) continue;
                int32_t u = m->adj[3 * w + j];
                if (u < 0) {
                    if (m->tri[3 * w + j] == vi || m->tri[3 * w + (j + 1) % 3] == vi) continue; // a wall from v
                    if (wedge_near(v, d0, d1, s, a, b, lim)) return true;
                    continue;
                }
                bool old = false;
                for (uint32_t i = 0; i < ns && !old; i++) old = seen[i] == (uint32_t)u;
                if (old || ns == 32 || n == 32) continue;
                seen[ns++] = (uint32_t)u;
                stack[n] = (uint32_t)u, from[n++] = 3;
            }
        }
    }
    return false;
}

// ---- walking ---------------------------------------------------------------

static bool excluded(const steerN_Mesh *m, const steerN_MeshFilter *f, uint32_t t)
{
    return !(mg_area_cost(m, f ? f->cost : NULL, t) < INFINITY);
}

// A ray along (dx, dy) leaving through edge (ex, ey) at an angle of less
// than 1e-12 radians (den their cross product): it runs along the edge,
// off only by rounding (a ray from a wall's vertex to a point computed on
// that wall). Along a wall that is no hit.
static bool grazes(double ex, double ey, double dx, double dy, double den)
{
    return den * den <= 1e-24 * (ex * ex + ey * ey) * (dx * dx + dy * dy);
}

// The triangle a ray from `from` along (dx, dy) goes into. From on an
// edge or a vertex (a path's corner is a wall's vertex) lies in several
// triangles: the first of them (by index) that the ray does not leave at
// once through an edge `from` lies on (running along that edge, or a
// wall it grazes, is staying), exact at a vertex; t (locate's) when none.
static int32_t ray_start(const steerN_Mesh *m, const double from[2], double dx, double dy, const steerN_MeshFilter *f,
                         int32_t t)
{
    uint32_t cx, cy;
    if (!cell_of(m, from, &cx, &cy)) return t;
    size_t c = (size_t)cy * m->bnx + cx;
    for (uint32_t k = m->tstart[c]; k < m->tstart[c + 1]; k++) {
        uint32_t u = m->titem[k];
        if (!mg_in_tri(m, u, from) || excluded(m, f, u) ||
            (t >= 0 && !steerN_mesh_same_ground(m, u, (uint32_t)t, from)))
            continue;
        bool into = true;
        for (int i = 0; i < 3 && into; i++) {
            const double *a = mg_v(m, u, i), *b = mg_v(m, u, (i + 1) % 3);
            double ex = b[0] - a[0], ey = b[1] - a[1], den = mg_cross(ex, ey, dx, dy);
            bool wall = m->adj[3 * u + i] < 0 || excluded(m, f, (uint32_t)m->adj[3 * u + i]);
            into = !(mg_orient(a, b, from) == 0 && den < 0 && !(wall && grazes(ex, ey, dx, dy, den)));
        }
        if (into) return (int32_t)u;
    }
    return t;
}

// The ray from `from` to `to` walked from triangle t (ray_start's); 1 at
// a wall, 0 when it reaches `to`, in triangle *end (-1 if unknown).
static int ray_walk(const steerN_Mesh *m, int32_t t, const double from[2], const double to[2],
                    const steerN_MeshFilter *f, double hit[2], double normal[2], double *fraction, int32_t *end)
{
    double dx = to[0] - from[0], dy = to[1] - from[1];
    int entry = -1;
    *end = -1;
    for (uint32_t step = 0; step <= 3 * m->ntri + 8; step++) {
        double best = INFINITY;
        int e = -1;
        for (int i = 0; i < 3; i++) {
            if (i == entry) continue;
            const double *a = mg_v(m, (uint32_t)t, i), *b = mg_v(m, (uint32_t)t, (i + 1) % 3);
            double ex = b[0] - a[0], ey = b[1] - a[1], den = mg_cross(ex, ey, dx, dy);
            if (!(den < 0)) continue; // not leaving through this edge
            bool open = m->adj[3 * t + i] >= 0 && !excluded(m, f, (uint32_t)m->adj[3 * t + i]);
            if (!open && grazes(ex, ey, dx, dy, den)) continue;
            double s = mg_cross(ex, ey, from[0] - a[0], from[1] - a[1]) / -den;
            // through a corner (both its edges at one s): the way on rather than the wall
            if (s < best || (s == best && open)) best = s, e = i;
        }
        if (e < 0 || best >= 1) {
            *end = t;
            return 0;
        }
        int32_t u = m->adj[3 * t + e];
        if (u < 0 || excluded(m, f, (uint32_t)u)) {
            // through the wall's vertex on the ray's line (a ray along
            // edges that meet there): on into the triangle at that vertex
            // the ray goes into, if any (the closed mesh holds the vertex)
            int32_t on = -1;
            for (int j = 0; j < 2 && on < 0; j++) {
                const double *w = mg_v(m, (uint32_t)t, (e + j) % 3);
                double wx = w[0] - from[0], wy = w[1] - from[1], c = mg_cross(dx, dy, wx, wy);
                if (c * c <= 1e-24 * (dx * dx + dy * dy) * (wx * wx + wy * wy) && (wx * dx + wy * dy) > 0)
                    on = ray_start(m, w, dx, dy, f, t);
            }
            if (on >= 0 && on != t) {
                t = on, entry = -1;
                continue;
            }
            double s = best > 0 ? best : 0;
            if (hit) hit[0] = from[0] + s * dx, hit[1] = from[1] + s * dy;
            if (normal) edge_normal(m, 3 * t + e, normal);
            if (fraction) *fraction = s;
            return 1;
        }
        entry = m->back[3 * t + e];
        t = u;
    }
    return 0;
}

int steerN_mesh_raycast(const steerN_Mesh *m, const double from[2], const double to[2], const steerN_MeshFilter *f,
                        double hit[2], double normal[2], double *fraction)
{
    int32_t t = steerN_mesh_locate_on(m, from, f ? f->from : NULL), end;
    if (t < 0 || excluded(m, f, (uint32_t)t)) return -1;
    double dx = to[0] - from[0], dy = to[1] - from[1];
    if (dx != 0 || dy != 0) t = ray_start(m, from, dx, dy, f, t);
    return ray_walk(m, t, from, to, f, hit, normal, fraction, &end);
}

// p inside triangle t by far more than rounding (1e-9 of each edge's
// length times p's distance from it and the edge's length): no other
// triangle of the mesh holds p, so locate and ray_start would give t.
static bool well_inside(const steerN_Mesh *m, uint32_t t, const double p[2])
{
    for (int i = 0; i < 3; i++) {
        const double *a = mg_v(m, t, i), *b = mg_v(m, t, (i + 1) % 3);
        double e = fabs(b[0] - a[0]) + fabs(b[1] - a[1]), d = fabs(p[0] - a[0]) + fabs(p[1] - a[1]);
        if (!(mg_orient(a, b, p) > 1e-9 * e * (e + d))) return false;
    }
    return true;
}

// What checking every point (locate, or within 1e-9 of a wall) and then
// every segment (raycast, a wall hit before 1 - 1e-9 fails) gives, in one
// pass: a segment starts in the triangle the last one ended in when its
// point lies well inside that, instead of being located again.
bool steerN_mesh_polyline_on(const steerN_Mesh *m, const double *p, const double *z, uint32_t n)
{
    int32_t t = -1;
    for (uint32_t i = 0; i < n; i++) {
        const double *a = p + 2 * i, *b = a + 2;
        bool kept = t >= 0 && well_inside(m, (uint32_t)t, a);
        steerN_Floor g = { 0, true, z ? z[i] : 0 };
        if (!kept) t = steerN_mesh_locate_on(m, a, z ? &g : NULL);
        if (t < 0 && !(steerN_mesh_wall_distance(m, a, NULL, NULL) <= 1e-9)) return false;
        // off the mesh (on a wall), in an excluded area or the last point:
        // no segment from here to check
        if (t < 0 || i + 1 == n || excluded(m, NULL, (uint32_t)t)) {
            t = -1;
            continue;
        }
        double dx = b[0] - a[0], dy = b[1] - a[1], fr = 1;
        if (!kept && (dx != 0 || dy != 0)) t = ray_start(m, a, dx, dy, NULL, t);
        if (ray_walk(m, t, a, b, NULL, NULL, NULL, &fr, &t) == 1 && fr < 1 - 1e-9) return false;
    }
    return true;
}

#define MOVE_NODES 256

void steerN_mesh_move_along(const steerN_Mesh *m, const double from[2], const double to[2], double radius,
                            double out[2])
{
    steerN_mesh_move_along_on(m, from, NULL, to, radius, out);
}

int32_t steerN_mesh_move_along_on(const steerN_Mesh *m, const double from[2], const steerN_Floor *f, const double to[2],
                                  double radius, double out[2])
{
    int32_t t0 = steerN_mesh_locate_on(m, from, f);
    if (t0 < 0) {
        if (!steerN_mesh_nearest_on(m, from, f, radius, out, &t0, NULL)) out[0] = from[0], out[1] = from[1], t0 = -1;
        return t0;
    }
    steerN_Floor gf;
    const steerN_Floor *g = steerN_mesh_wall_floor(m, from, f, &gf);
    // Detour's moveAlongSurface: a breadth-first walk of the triangles
    // that touch the circle through from and to; to itself when one holds
    // it, else the point nearest it on the walls met
    uint32_t node[MOVE_NODES], n = 1;
    node[0] = (uint32_t)t0;
    double c[2] = { (from[0] + to[0]) / 2, (from[1] + to[1]) / 2 }, rad = mg_dist(from, to) / 2 + 1e-9;
    double best[2] = { from[0], from[1] }, bestd = INFINITY;
    uint32_t bt = (uint32_t)t0;
    bool reached = false;
    for (uint32_t k = 0; k < n && !reached; k++) {
        uint32_t t = node[k];
        if (mg_in_tri(m, t, to)) {
            best[0] = to[0], best[1] = to[1], bt = t, reached = true;
            break;
        }
        for (int i = 0; i < 3; i++) {
            const double *a = mg_v(m, t, i), *b = mg_v(m, t, (i + 1) % 3);
            int32_t u = m->adj[3 * t + i];
            if (u < 0) {
                double q[2], d2 = mg_seg_nearest(to, a, b, q, NULL);
                if (d2 < bestd) bestd = d2, best[0] = q[0], best[1] = q[1], bt = t;
                continue;
            }
            bool seen = false;
            for (uint32_t j = 0; j < n && !seen; j++) seen = node[j] == (uint32_t)u;
            if (seen || n == MOVE_NODES || mg_seg_nearest(c, a, b, NULL, NULL) > rad * rad) continue;
            node[n++] = (uint32_t)u;
        }
    }
    settle(m, bt, best);
    int32_t at = (int32_t)bt;
    if (radius > 0) {
        push_out(m, best, radius, g);
        int32_t u = steerN_mesh_locate_on(m, best, g);
        at = u >= 0 ? u : at;
    }
    out[0] = best[0], out[1] = best[1];
    return at;
}

uint32_t steerN_mesh_random_point(const steerN_Mesh *m, double u, double s, double t, double out[2])
{
    out[0] = out[1] = 0;
    if (!m->prepared || !m->ntri) return 0;
    const double *cum = steerN_mesh_areas(m);
    double want = u * cum[m->ntri - 1];
    uint32_t lo = 0, hi = m->ntri - 1; // the first triangle whose running sum exceeds want
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cum[mid] > want) hi = mid;
        else lo = mid + 1;
    }
    while (lo && steerN_mesh_dead(m, lo))
        lo--; // (only when want rounded up to the whole: a dead slot's sum is its last's)
    const double *a = mg_v(m, lo, 0), *b = mg_v(m, lo, 1), *c = mg_v(m, lo, 2);
    double r = sqrt(s);
    double wa = 1 - r, wb = r * (1 - t), wc = r * t;
    out[0] = wa * a[0] + wb * b[0] + wc * c[0];
    out[1] = wa * a[1] + wb * b[1] + wc * c[1];
    return lo;
}
