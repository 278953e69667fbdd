// SPDX-License-Identifier: MIT
// mesh_layers.c — floors: a baked mesh's heights and layers (mesh.h,
// issue 33 item 2). A bake whose walkable ground lies over itself in plan
// (stairs, a bridge over a corridor, rooms over rooms) cuts the ground
// into layers, each planar (bake.cpp), and the exact builder makes a mesh
// of each; steerN_mesh_stack stacks them into one mesh, whose triangles
// keep their layer and whose vertices get the ground's height. Where two
// layers meet (mid-stair, a bridge's ends), their walls run between the
// same two points in plan (Recast traces the seam alike from both sides):
// those two walls become one edge, shared by a triangle of each layer,
// and their vertices one vertex, so that A*, the funnel and every walk
// over adj cross seams as they cross any edge, in plan.
//
// Everything planar stays as it was: a mesh of one layer has no layer
// array, and a flat mesh (built from rings or a grid) no heights, so its
// hash and bytes are what they were. A point means a triangle on a mesh
// with floors through steerN_Floor: a layer, or a height (the ground under
// the point nearest below it).
#include "bake.h"
#include "mesh.h"
#include "mesh_geom.h"
#include "mesh_path.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int steerN_mesh_alloc_floors(steerN_Mesh *m, bool layers)
{
    size_t nv = m->nvert ? m->nvert : 1, nt = m->ntri ? m->ntri : 1;
    m->iz = steerN_realloc(&m->alloc, NULL, 0, sizeof *m->iz * nv);
    m->z = steerN_realloc(&m->alloc, NULL, 0, sizeof *m->z * nv);
    if (layers) m->layer = steerN_realloc(&m->alloc, NULL, 0, sizeof *m->layer * nt);
    if (!m->iz || !m->z || (layers && !m->layer)) {
        steerN_mesh_free_floors(m);
        return -1;
    }
    memset(m->iz, 0, sizeof *m->iz * nv);
    memset(m->z, 0, sizeof *m->z * nv);
    if (layers) memset(m->layer, 0, sizeof *m->layer * nt);
    return 0;
}

void steerN_mesh_free_floors(steerN_Mesh *m)
{
    size_t nv = m->nvert ? m->nvert : 1, nt = m->ntri ? m->ntri : 1;
    if (m->iz) steerN_realloc(&m->alloc, m->iz, sizeof *m->iz * nv, 0);
    if (m->z) steerN_realloc(&m->alloc, m->z, sizeof *m->z * nv, 0);
    if (m->layer) steerN_realloc(&m->alloc, m->layer, sizeof *m->layer * nt, 0);
    m->iz = NULL;
    m->z = NULL;
    m->layer = NULL;
}

size_t steerN_mesh_floor_bytes(const steerN_Mesh *m)
{
    size_t nv = m->nvert ? m->nvert : 1, nt = m->ntri ? m->ntri : 1;
    return (m->iz ? (sizeof *m->iz + sizeof *m->z) * nv : 0) + (m->layer ? sizeof *m->layer * nt : 0);
}

// ---- points ------------------------------------------------------------------

double steerN_mesh_surface(const steerN_Mesh *m, uint32_t t, const double p[2])
{
    if (!m->z) return 0;
    double g;
    if (steerN_mesh_grid_height(m, m->layer ? m->layer[t] : 0, p, &g)) return g;
    const uint32_t *v = m->tri + 3 * (size_t)t;
    const double *a = m->xy + 2 * v[0], *b = m->xy + 2 * v[1], *c = m->xy + 2 * v[2];
    double za = m->z[v[0]], zb = m->z[v[1]], zc = m->z[v[2]];
    double det = mg_orient(a, b, c);
    if (!(det > 0)) return za;
    // barycentric weights of b and c (the triangle is counter-clockwise)
    double wb = mg_orient(a, p, c) / det, wc = mg_orient(a, b, p) / det;
    return za + wb * (zb - za) + wc * (zc - za);
}

// Whether triangle t is one floor f keeps to.
static bool on_layer(const steerN_Mesh *m, uint32_t t, const steerN_Floor *f)
{
    return !f || !f->layer || (m->layer ? m->layer[t] : 0) == f->layer - 1;
}

int32_t steerN_mesh_locate_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *f)
{
    if (!f || (!f->layer && !(f->has_z && m->z))) return steerN_mesh_locate(m, p);
    if (!(p[0] == p[0]) || !(p[1] == p[1]) || !m->prepared || !m->ntri) return -1;
    if (p[0] < m->bmin[0] || p[0] > m->bmax[0] || p[1] < m->bmin[1] || p[1] > m->bmax[1]) return -1;
    uint32_t cx, cy;
    steerN_mesh_cell_range(m, p[0], p[0], 0, &cx, &cx);
    steerN_mesh_cell_range(m, p[1], p[1], 1, &cy, &cy);
    size_t c = (size_t)cy * m->bnx + cx;
    int32_t best = -1;
    double best_z = 0;
    bool below = false; // best is at most STEERN_FLOOR_ABOVE above z
    for (uint32_t k = m->tstart[c]; k < m->tstart[c + 1]; k++) {
        uint32_t t = m->titem[k];
        if (!on_layer(m, t, f) || !mg_in_tri(m, t, p)) continue;
        if (!(f->has_z && m->z)) return (int32_t)t;
        double s = steerN_mesh_surface(m, t, p);
        bool under = s <= f->z + STEERN_FLOOR_ABOVE;
        if (best < 0 || (under && (!below || s > best_z)) || (!under && !below && s < best_z))
            best = (int32_t)t, best_z = s, below = under;
    }
    return best;
}

uint32_t steerN_mesh_layers_at(const steerN_Mesh *m, const double p[2], uint32_t *layer, double *z, uint32_t cap)
{
    if (!(p[0] == p[0]) || !(p[1] == p[1]) || !m->prepared || !m->ntri) return 0;
    if (p[0] < m->bmin[0] || p[0] > m->bmax[0] || p[1] < m->bmin[1] || p[1] > m->bmax[1]) return 0;
    uint32_t cx, cy, n = 0;
    steerN_mesh_cell_range(m, p[0], p[0], 0, &cx, &cx);
    steerN_mesh_cell_range(m, p[1], p[1], 1, &cy, &cy);
    size_t c = (size_t)cy * m->bnx + cx;
    for (uint32_t k = m->tstart[c]; k < m->tstart[c + 1]; k++) {
        uint32_t t = m->titem[k], l = m->layer ? m->layer[t] : 0;
        if (!mg_in_tri(m, t, p)) continue;
        // a layer once: its lowest-numbered triangle holding p (as locate_on's)
        bool seen = false;
        for (uint32_t j = m->tstart[c]; j < m->tstart[c + 1] && !seen; j++) {
            uint32_t u = m->titem[j];
            seen = (m->layer ? m->layer[u] : 0) == l && u < t && mg_in_tri(m, u, p);
        }
        if (seen) continue;
        n++;
        // into the lowest cap, by height then layer (an insertion: few layers lie over one point)
        double h = steerN_mesh_surface(m, t, p);
        uint32_t i = n - 1 < cap ? n - 1 : cap;
        while (i > 0 && (z[i - 1] > h || (z[i - 1] == h && layer[i - 1] > l))) {
            if (i < cap) z[i] = z[i - 1], layer[i] = layer[i - 1];
            i--;
        }
        if (i < cap) z[i] = h, layer[i] = l;
    }
    return n;
}

bool steerN_mesh_height(const steerN_Mesh *m, const double p[2], const steerN_Floor *f, double *z, uint32_t *layer)
{
    int32_t t = steerN_mesh_locate_on(m, p, f);
    double q[2] = { p[0], p[1] };
    if (t < 0) {
        double d;
        if (!steerN_mesh_nearest_on(m, p, f, 0, q, &t, &d) || t < 0) return false;
    }
    *z = steerN_mesh_surface(m, (uint32_t)t, q);
    if (layer) *layer = m->layer ? m->layer[t] : 0;
    return true;
}

bool steerN_mesh_wall_counts(const steerN_Mesh *m, uint32_t edge, const double q[2], const steerN_Floor *g)
{
    if (!g || !m->layer) return true;
    if (g->layer) return m->layer[edge / 3] == g->layer - 1;
    return fabs(steerN_mesh_surface(m, edge / 3, q) - g->z) <= STEERN_FLOOR_REACH;
}

// Where the wall and the segment come nearest: a crossing, or an end of
// one nearest the other.
bool steerN_mesh_wall_on_segment(const steerN_Mesh *m, uint32_t w, const double *a, const double *za)
{
    const double *b = a + 2, *x = mg_v(m, w / 3, (int)(w % 3)), *y = mg_v(m, w / 3, (int)(w % 3 + 1) % 3);
    double s = 0, at[2], q[2], u;
    if (mg_seg_cross(a, b, x, y)) {
        double oa = mg_orient(x, y, a), ob = mg_orient(x, y, b);
        s = oa / (oa - ob);
        at[0] = a[0] + s * (b[0] - a[0]), at[1] = a[1] + s * (b[1] - a[1]);
    } else {
        double best = mg_seg_nearest(a, x, y, at, NULL), d = mg_seg_nearest(b, x, y, q, NULL);
        if (d < best) best = d, s = 1, at[0] = q[0], at[1] = q[1];
        if ((d = mg_seg_nearest(x, a, b, NULL, &u)) < best) best = d, s = u, at[0] = x[0], at[1] = x[1];
        if (mg_seg_nearest(y, a, b, NULL, &u) < best) s = u, at[0] = y[0], at[1] = y[1];
    }
    return fabs(steerN_mesh_surface(m, w / 3, at) - (za[0] + s * (za[1] - za[0]))) <= STEERN_FLOOR_REACH;
}

const steerN_Floor *steerN_mesh_wall_floor(const steerN_Mesh *m, const double p[2], const steerN_Floor *f,
                                           steerN_Floor *out)
{
    if (!f || !m->layer || (!f->layer && !f->has_z)) return NULL;
    *out = *f;
    if (f->layer) return out;
    int32_t t = steerN_mesh_locate_on(m, p, f);
    if (t >= 0) out->z = steerN_mesh_surface(m, (uint32_t)t, p);
    return out;
}

bool steerN_mesh_same_ground(const steerN_Mesh *m, uint32_t u, uint32_t t, const double p[2])
{
    if (!m->layer || m->layer[u] == m->layer[t]) return true;
    return fabs(steerN_mesh_surface(m, u, p) - steerN_mesh_surface(m, t, p)) <= STEERN_FLOOR_ABOVE;
}

// The distance in plan from p to triangle t's centroid.
static double centroid_dist(const steerN_Mesh *m, uint32_t t, const double p[2])
{
    double c[2] = { 0, 0 };
    for (int e = 0; e < 3; e++) c[0] += mg_v(m, t, e)[0] / 3, c[1] += mg_v(m, t, e)[1] / 3;
    return mg_dist(c, p);
}

void steerN_mesh_heights_along(const steerN_Mesh *m, const double *p, uint32_t n, const int32_t *corr, uint32_t nc,
                               double *z)
{
    uint32_t j = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = j;
        while (k < nc && !mg_in_tri(m, (uint32_t)corr[k], p + 2 * i)) k++;
        if (k == nc) { // a corner rounding put a hair outside the corridor: the nearest of its triangles
            double best = INFINITY;
            for (uint32_t c = j; c < nc; c++) {
                double d = centroid_dist(m, (uint32_t)corr[c], p + 2 * i);
                if (d < best) best = d, k = c;
            }
        }
        z[i] = k < nc ? steerN_mesh_surface(m, (uint32_t)corr[k], p + 2 * i) : 0;
        if (k < nc) j = k;
    }
}

void steerN_mesh_path_heights(const steerN_MeshQuery *q, const steerN_Mesh *m, double *z)
{
    uint32_t n, nc;
    const double *p = steerN_mesh_path_points(q, &n);
    const int32_t *corr = steerN_mesh_path_corridor(q, &nc);
    steerN_mesh_heights_along(m, p, n, corr, nc, z);
}

// ---- stacking ------------------------------------------------------------------

// A wall edge of the stacked mesh: its ends (vertex indices), where it is.
typedef struct Wall {
    int64_t key[4]; // its ends' quanta, the lesser end first
    uint32_t a, b;  // from, to
    uint32_t edge;  // 3 t + i
    uint16_t layer;
} Wall;

static int key_cmp(const int64_t *x, const int64_t *y)
{
    for (int i = 0; i < 4; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

static int wall_cmp(const void *x, const void *y)
{
    const Wall *u = x, *v = y;
    int c = key_cmp(u->key, v->key);
    return c ? c : (u->edge > v->edge) - (u->edge < v->edge);
}

// A ring point: its quanta and height, for the vertices' heights.
typedef struct Point {
    int64_t q[2];
    int64_t z;
} Point;

static int point_cmp(const void *x, const void *y)
{
    const Point *u = x, *v = y;
    if (u->q[0] != v->q[0]) return u->q[0] < v->q[0] ? -1 : 1;
    if (u->q[1] != v->q[1]) return u->q[1] < v->q[1] ? -1 : 1;
    return (u->z > v->z) - (u->z < v->z);
}

static uint32_t root(uint32_t *parent, uint32_t v)
{
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
}

static steerN_Mesh *stack_fail(steerN_MeshError *err, steerN_MeshStatus st, const char *msg)
{
    err->status = st;
    err->ring = err->point = 0;
    snprintf(err->message, sizeof err->message, "%s", msg);
    return NULL;
}

// The height of a vertex at quanta q of a layer: its ring point's (the
// lowest when several share it), or, for a vertex the builder made where
// rings crossed, the nearest ring point's.
static int64_t height_of(const Point *pt, size_t n, const int64_t q[2])
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pt[mid].q[0] < q[0] || (pt[mid].q[0] == q[0] && pt[mid].q[1] < q[1])) lo = mid + 1;
        else hi = mid;
    }
    if (lo < n && pt[lo].q[0] == q[0] && pt[lo].q[1] == q[1]) return pt[lo].z;
    int64_t best = 0;
    double bd = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double dx = (double)(pt[i].q[0] - q[0]), dy = (double)(pt[i].q[1] - q[1]), d = dx * dx + dy * dy;
        if (d < bd) bd = d, best = pt[i].z;
    }
    return best;
}

// Pair (a, b) on list p (n pairs, room for cap, growing). false when out of memory.
static bool push_pair(uint32_t **p, size_t *n, size_t *cap, uint32_t a, uint32_t b)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        uint32_t *q = realloc(*p, sizeof *q * 2 * c);
        if (!q) return false;
        *p = q, *cap = c;
    }
    (*p)[2 * *n] = a, (*p)[2 * (*n)++ + 1] = b;
    return true;
}

// A tiled bake's pieces (parts) merged into layers (bake.h, "Tiles"):
// neighbours are the pieces of two tiles whose walls were joined (the
// ground goes on across the tile line); clashes are the bake's (pieces of
// one tile that overlap) and pieces of two tiles whose walls lie over each
// other on a tile line out of reach (a cliff there). joins: the pairs of
// parts joined, 2 a pair; cliffs: those out of reach. part_layer: per part,
// its layer out. The count of layers; -1 when out of memory.
static int merge_tiles(uint32_t n, const steerN_BakeRings *r, const uint32_t *layer_of, const uint32_t *joins,
                       size_t nj, const uint32_t *cliffs, size_t nc, uint32_t *part_layer)
{
    uint32_t *part_of = malloc(sizeof *part_of * (r->nlayers ? r->nlayers : 1)); // a bake layer's part
    size_t cap = 2 * (nj + nc + r->nclash) + 1;
    int64_t *nei = malloc(sizeof *nei * cap), *ovl = malloc(sizeof *ovl * cap), *order = malloc(sizeof *order * n);
    int *low = malloc(sizeof *low * n), *layer = malloc(sizeof *layer * n), *heap = malloc(sizeof *heap * n);
    int nl = -1;
    if (!part_of || !nei || !ovl || !order || !low || !layer || !heap) goto done;
    for (uint32_t k = 0; k < r->nlayers; k++) part_of[k] = UINT32_MAX;
    for (uint32_t k = 0; k < n; k++) {
        part_of[layer_of[k]] = k;
        low[k] = r->layer_low[layer_of[k]] < 0x10000 ? (int)r->layer_low[layer_of[k]] : 0x10000;
    }
    size_t nn = 0, no = 0;
    for (size_t i = 0; i < nj; i++) {
        int64_t a = joins[2 * i], b = joins[2 * i + 1];
        nei[nn++] = a * n + b, nei[nn++] = b * n + a;
    }
    for (size_t i = 0; i < nc + r->nclash; i++) {
        const uint32_t *pair = i < nc ? cliffs + 2 * i : r->clash + 2 * (i - nc);
        int64_t a = i < nc ? pair[0] : part_of[pair[0]], b = i < nc ? pair[1] : part_of[pair[1]];
        if (a == UINT32_MAX || b == UINT32_MAX) continue; // (a layer with no ground left)
        ovl[no++] = a * n + b, ovl[no++] = b * n + a;
    }
    nn = steerN_keys_uniq(nei, nn);
    no = steerN_keys_uniq(ovl, no);
    nl = steerN_bake_merge((int)n, low, nei, nn, ovl, no, layer, heap, order);
    for (uint32_t k = 0; k < n; k++) part_layer[k] = (uint32_t)layer[k];
done:
    free(part_of), free(nei), free(ovl), free(order), free(low), free(layer), free(heap);
    return nl;
}

steerN_Mesh *steerN_mesh_stack(steerN_Mesh *const *parts, uint32_t n, const steerN_BakeRings *r,
                               const uint32_t *layer_of, double climb, const steerN_Alloc *alloc, steerN_MeshError *err,
                               uint32_t *part_layer)
{
    size_t nv = 0, nt = 0;
    for (uint32_t k = 0; k < n; k++) nv += parts[k]->nvert, nt += parts[k]->ntri;
    if (nv >= (1u << 28) || nt >= (1u << 28)) return stack_fail(err, STEERN_MESH_NOMEM, "the mesh is too large");
    uint32_t *parent = malloc(sizeof *parent * (nv ? nv : 1));
    int64_t *iz = malloc(sizeof *iz * (nv ? nv : 1));
    uint32_t *remap = malloc(sizeof *remap * (nv ? nv : 1));
    Wall *walls = malloc(sizeof *walls * 3 * (nt ? nt : 1));
    Point *pt = malloc(sizeof *pt * (r->npoints ? r->npoints : 1));
    int32_t *adj = malloc(sizeof *adj * 3 * (nt ? nt : 1));
    uint32_t *joins = NULL, *cliffs = NULL;
    size_t njoins = 0, ncliffs = 0, cap_joins = 0, cap_cliffs = 0;
    int nl;
    steerN_Mesh *m = NULL;
    if (!parent || !iz || !remap || !walls || !pt || !adj) goto oom;
    // heights, layer by layer, and the stacked triangles' neighbours
    size_t v0 = 0, t0 = 0, nw = 0;
    for (uint32_t k = 0; k < n; k++) {
        const steerN_Mesh *p = parts[k];
        size_t np = 0;
        for (uint32_t ring = 0, at = 0; ring < r->nrings; at = r->ring_end[ring++])
            for (uint32_t i = at; i < r->ring_end[ring] && r->ring_layer[ring] == k; i++) {
                int64_t zq;
                if (!steerN_mesh_quantize(r->xy[2 * i], &pt[np].q[0]) ||
                    !steerN_mesh_quantize(r->xy[2 * i + 1], &pt[np].q[1]) || !steerN_mesh_quantize(r->z[i], &zq))
                    continue;
                pt[np++].z = zq;
            }
        qsort(pt, np, sizeof *pt, point_cmp);
        for (uint32_t v = 0; v < p->nvert; v++) {
            parent[v0 + v] = (uint32_t)(v0 + v);
            iz[v0 + v] = height_of(pt, np, p->ixy + 2 * v);
        }
        for (uint32_t i = 0; i < 3 * p->ntri; i++) {
            adj[3 * t0 + i] = p->adj[i] < 0 ? -1 : p->adj[i] + (int32_t)t0;
            if (p->adj[i] >= 0) continue;
            Wall *w = walls + nw++;
            w->a = (uint32_t)v0 + p->tri[i];
            w->b = (uint32_t)v0 + p->tri[i - i % 3 + (i % 3 + 1) % 3];
            w->edge = (uint32_t)(3 * t0 + i);
            w->layer = (uint16_t)k;
            const int64_t *a = p->ixy + 2 * p->tri[i], *b = p->ixy + 2 * p->tri[i - i % 3 + (i % 3 + 1) % 3];
            bool swap = a[0] > b[0] || (a[0] == b[0] && a[1] > b[1]);
            const int64_t *lo = swap ? b : a, *hi = swap ? a : b;
            w->key[0] = lo[0], w->key[1] = lo[1], w->key[2] = hi[0], w->key[3] = hi[1];
        }
        v0 += p->nvert;
        t0 += p->ntri;
    }
    // the seams: walls of two layers over the same two points, the other
    // way round, at heights within the climb; each wall joins one
    // (in a tiled bake, the pairs of pieces of two tiles joined, and those
    // whose walls lie over each other out of reach: merge_tiles)
    int64_t tol;
    if (!steerN_mesh_quantize(climb, &tol)) tol = 0;
    qsort(walls, nw, sizeof *walls, wall_cmp);
    const uint32_t *tile_of = r->tile ? r->layer_tile : NULL;
    for (size_t i = 0; i < nw;) {
        size_t j = i + 1;
        while (j < nw && key_cmp(walls[j].key, walls[i].key) == 0) j++;
        for (size_t u = i; u < j; u++)
            for (size_t w = u + 1; w < j && (tile_of || adj[walls[u].edge] < 0); w++) {
                const Wall *x = walls + u, *y = walls + w;
                if (x->layer == y->layer) continue;
                bool across = tile_of && tile_of[layer_of[x->layer]] != tile_of[layer_of[y->layer]];
                int64_t d0 = iz[x->a] - iz[y->b], d1 = iz[x->b] - iz[y->a];
                bool reach = d0 <= tol && -d0 <= tol && d1 <= tol && -d1 <= tol;
                if (across && !reach && !push_pair(&cliffs, &ncliffs, &cap_cliffs, x->layer, y->layer)) goto oom;
                if (adj[x->edge] >= 0 || adj[y->edge] >= 0 || !reach) continue;
                if (across && !push_pair(&joins, &njoins, &cap_joins, x->layer, y->layer)) goto oom;
                adj[x->edge] = (int32_t)(y->edge / 3);
                adj[y->edge] = (int32_t)(x->edge / 3);
                uint32_t ra = root(parent, x->a), rb = root(parent, y->b);
                if (ra != rb) parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
                ra = root(parent, x->b), rb = root(parent, y->a);
                if (ra != rb) parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
            }
        i = j;
    }
    // the layers: a tiled bake's pieces merged, else each piece one
    nl = (int)n;
    for (uint32_t k = 0; k < n; k++) part_layer[k] = k;
    if (tile_of && (nl = merge_tiles(n, r, layer_of, joins, njoins, cliffs, ncliffs, part_layer)) < 0) goto oom;
    // one vertex for each set joined, in order
    uint32_t nkeep = 0;
    for (size_t v = 0; v < nv; v++)
        if (root(parent, (uint32_t)v) == v) remap[v] = nkeep++;
    m = steerN_mesh_alloc(nkeep, (uint32_t)nt, alloc);
    if (!m || steerN_mesh_alloc_floors(m, nl > 1)) goto oom;
    m->nlayers = (uint32_t)nl;
    v0 = t0 = 0;
    for (uint32_t k = 0; k < n; k++) {
        const steerN_Mesh *p = parts[k];
        for (uint32_t v = 0; v < p->nvert; v++) {
            uint32_t s = (uint32_t)(v0 + v);
            if (root(parent, s) != s) continue;
            m->ixy[2 * remap[s]] = p->ixy[2 * v];
            m->ixy[2 * remap[s] + 1] = p->ixy[2 * v + 1];
            m->iz[remap[s]] = iz[s];
        }
        for (uint32_t i = 0; i < 3 * p->ntri; i++) m->tri[3 * t0 + i] = remap[root(parent, (uint32_t)v0 + p->tri[i])];
        for (uint32_t t = 0; t < p->ntri; t++) {
            m->area[t0 + t] = p->area[t];
            if (m->layer) m->layer[t0 + t] = (uint16_t)part_layer[k];
        }
        v0 += p->nvert;
        t0 += p->ntri;
    }
    memcpy(m->adj, adj, sizeof *adj * 3 * nt);
    for (size_t i = 0; i < 3 * nt; i++)
        if (m->adj[i] < 0) m->vwall[m->tri[i]] = m->vwall[m->tri[i - i % 3 + (i % 3 + 1) % 3]] = 1;
    m->nareas = parts[0]->nareas;
    memcpy(m->area_name, parts[0]->area_name, sizeof m->area_name);
    memcpy(m->area_cost, parts[0]->area_cost, sizeof m->area_cost);
    steerN_mesh_set_metres(m);
    m->hash = steerN_mesh_hash(m);
    free(parent), free(iz), free(remap), free(walls), free(pt), free(adj), free(joins), free(cliffs);
    return m;
oom:
    steerN_mesh_free(m);
    free(parent), free(iz), free(remap), free(walls), free(pt), free(adj), free(joins), free(cliffs);
    return stack_fail(err, STEERN_MESH_NOMEM, "out of memory");
}
