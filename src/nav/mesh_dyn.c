// SPDX-License-Identifier: MIT
// mesh_dyn.c — obstacles that come and go on a navigation mesh: the live
// mesh rebuilt region by region from the base and the obstacles (the
// design and its invariants: mesh_dyn.h).
//
// A rebuild: (1) mark the base triangles each obstacle's quantized box,
// grown by MARGIN quanta, touches (an exact integer test, candidates from
// the base's locate grid); (2) the marked triangles' connected sets are
// the regions, numbered by their lowest triangle; (3) each region is built
// (or taken from the last rebuild's cache when its triangles and its
// obstacles' revisions are the same) from its triangles as outline rings
// (even-odd: their shared edges cancel and only the region's border
// stays), its non-default triangles as area rings, and its obstacles in
// the order they were added; (4) the live mesh is the unmarked triangles
// in base order and each region's triangles after them, the base vertices
// kept in their places and the regions' new ones after; every border edge
// of a region must come out of its build as it went in (else the
// triangle across it joins the region, and the rebuild starts over);
// (5) the live mesh is prepared again from the one before, where the
// change reaches (mesh_update.c: tmap says where each triangle of the
// live mesh before went, the kept base triangles and the regions taken
// from the cache keeping their order).
#include "mesh_dyn.h"
#include "mesh_link.h"

#include "../core/bytes.h"
#include "mesh_geom.h"
#include "mesh_snap.h"
#include "predicates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN 4       // quanta around a footprint that no region border comes within
#define GROW_TRIES 256 // rebuilds that may grow a region before one gives up
#define EPOCH_MASK 0xFFFFFFu
#define VERSION 4        // of the bytes of a mesh with obstacles (mesh_io.c's: 1 flat, 2 with floors, 3 with links)
#define VERSION_LAYERS 6 // the same, its obstacles with their layers (a base of several layers)

typedef struct Region { // a region's build, kept for the next rebuild
    uint64_t key;
    steerN_Mesh *mesh; // NULL: nothing walkable left in it
    uint32_t at;       // its first triangle in the live mesh
    uint32_t from; // (while rebuilding) its first in the live mesh before, when taken from the cache, else UINT32_MAX
} Region;

typedef struct Record { // a change: its epoch and the box it touched (metres)
    uint32_t epoch;
    float box[4];
} Record;

typedef struct steerN_MeshDyn {
    steerN_Mesh *base; // prepared, never changed
    steerN_Obstacle *obs;
    uint32_t nobs, cap_obs;
    uint32_t next_id;
    uint32_t epoch;
    Record rec[STEERN_MESH_RECORDS]; // rec[e % RECORDS]: the change of epoch e
    Region *regions;
    uint32_t nregions, cap_regions;
    uint32_t *live_of; // per base triangle: its index in the live mesh (UINT32_MAX: in a region)
    uint32_t *wends;   // per base vertex: the wall edges of the base that end there
    // a rebuild's per base triangle scratch, kept (a pushed crate rebuilds every tick)
    uint32_t *comp, *stamp, *queue, *order, *start;
    uint8_t *mark;
} steerN_MeshDyn;

static const steerN_Alloc *al(const steerN_Mesh *m) { return &m->alloc; }

// Whether base triangle t and the box (x0, y0, x1, y1, quanta) share a
// point: the boxes overlap and no edge of t has the whole box strictly on
// its outer side. Exact.
static bool tri_box(const steerN_Mesh *b, uint32_t t, const int64_t box[4])
{
    const int64_t *v[3];
    for (int i = 0; i < 3; i++) v[i] = b->ixy + 2 * (size_t)b->tri[3 * (size_t)t + (size_t)i];
    for (int j = 0; j < 2; j++) {
        int64_t lo = v[0][j], hi = v[0][j];
        for (int i = 1; i < 3; i++) lo = v[i][j] < lo ? v[i][j] : lo, hi = v[i][j] > hi ? v[i][j] : hi;
        if (hi < box[j] || lo > box[2 + j]) return false;
    }
    const int64_t corner[4][2] = { { box[0], box[1] }, { box[2], box[1] }, { box[2], box[3] }, { box[0], box[3] } };
    for (int i = 0; i < 3; i++) {
        int out = 0;
        for (int k = 0; k < 4; k++) out += steerN_orient2d(v[i], v[(i + 1) % 3], corner[k]) < 0;
        if (out == 4) return false;
    }
    return true;
}

// ---- the rebuild ----------------------------------------------------------------

typedef struct Border { // a region's border edge: its vertices (base), the triangle across and its edge
    uint32_t a, b;
    uint32_t out, edge;
    uint32_t in;  // the region's triangle (base)
    uint32_t hit; // 1 once the assembled mesh joins it
} Border;

typedef struct Vkey { // a base vertex of region r, to find its build's vertex by its coordinates
    uint32_t r;
    int64_t x, y;
    uint32_t v;
} Vkey;

typedef struct Pend { // a region's wall edge (a, b) across which another region lies (a seam)
    uint32_t a, b;
    uint32_t x, i;    // the live triangle and its edge
    const Border *at; // the border it is
} Pend;

typedef struct Scratch {
    uint32_t *comp;                  // per base triangle: its region, or UINT32_MAX (kept)
    uint8_t *mark;                   // per base triangle: 1 when some footprint touches it (or a region grew over it)
    uint32_t *stamp;                 // per base triangle: 1 + the last obstacle that marked it
    uint32_t *queue, *order, *start; // the regions' triangles: order[start[r] .. start[r + 1])
    uint64_t *pair;                  // (region << 32 | obstacle index) per touch, sorted, unique
    size_t npair, cap_pair;
    uint32_t *touch; // per obstacle index, its marked triangles: touch_tri[touch[k] .. touch[k + 1])
    uint32_t *touch_tri;
    size_t ntouch, cap_touch;
    Border *border;
    size_t nborder, cap_border;
    Vkey *vk;
    size_t cap_vk;
    Pend *pend;
    size_t npend, cap_pend;
    double *xy;
    size_t cap_xy;
    uint32_t *ring_end;
    int32_t *role;
    size_t cap_ring;
    struct Wend *wend; // (vertex, wall ends gained or lost) at the regions' vertices
    size_t nwend, cap_wend;
} Scratch;

typedef struct Wend {
    uint32_t v;
    int32_t n;
} Wend;

static void scratch_free(const steerN_Mesh *m, Scratch *s, uint32_t nobs)
{
    const steerN_Alloc *a = al(m);
    steerN_realloc(a, s->wend, sizeof *s->wend * s->cap_wend, 0);
    steerN_realloc(a, s->touch, sizeof *s->touch * (nobs + 1), 0);
    steerN_realloc(a, s->pair, sizeof *s->pair * s->cap_pair, 0);
    steerN_realloc(a, s->touch_tri, sizeof *s->touch_tri * s->cap_touch, 0);
    steerN_realloc(a, s->border, sizeof *s->border * s->cap_border, 0);
    steerN_realloc(a, s->vk, sizeof *s->vk * s->cap_vk, 0);
    steerN_realloc(a, s->pend, sizeof *s->pend * s->cap_pend, 0);
    steerN_realloc(a, s->xy, sizeof *s->xy * s->cap_xy, 0);
    steerN_realloc(a, s->ring_end, sizeof *s->ring_end * s->cap_ring, 0);
    steerN_realloc(a, s->role, sizeof *s->role * s->cap_ring, 0);
}

// (1) Every obstacle's touches: the triangles its grown box meets.
static int mark_touches(const steerN_MeshDyn *d, Scratch *s)
{
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = &b->alloc;
    s->ntouch = 0;
    for (uint32_t k = 0; k < d->nobs; k++) {
        s->touch[k] = (uint32_t)s->ntouch;
        const steerN_Obstacle *o = &d->obs[k];
        int64_t box[4] = { o->box[0] - MARGIN, o->box[1] - MARGIN, o->box[2] + MARGIN, o->box[3] + MARGIN };
        double lo[2] = { (double)box[0] / STEERN_MESH_SCALE, (double)box[1] / STEERN_MESH_SCALE };
        double hi[2] = { (double)box[2] / STEERN_MESH_SCALE, (double)box[3] / STEERN_MESH_SCALE };
        if (hi[0] < b->bmin[0] - b->bcell || lo[0] > b->bmax[0] + b->bcell || hi[1] < b->bmin[1] - b->bcell ||
            lo[1] > b->bmax[1] + b->bcell)
            continue;
        uint32_t x0, x1, y0, y1;
        steerN_mesh_cell_range(b, lo[0] - b->bcell, hi[0] + b->bcell, 0, &x0, &x1);
        steerN_mesh_cell_range(b, lo[1] - b->bcell, hi[1] + b->bcell, 1, &y0, &y1);
        for (uint32_t cy = y0; cy <= y1; cy++)
            for (uint32_t cx = x0; cx <= x1; cx++) {
                size_t c = (size_t)cy * b->bnx + cx;
                for (uint32_t j = b->tstart[c]; j < b->tstart[c + 1]; j++) {
                    uint32_t t = b->titem[j];
                    if (s->stamp[t] == k + 1) continue;
                    s->stamp[t] = k + 1;
                    if ((b->layer && b->layer[t] != o->layer) || !tri_box(b, t, box)) continue;
                    if (steerN_grow(a, (void **)&s->touch_tri, &s->cap_touch, s->ntouch + 1, sizeof *s->touch_tri))
                        return -1;
                    s->touch_tri[s->ntouch++] = t;
                    s->mark[t] = 1;
                }
            }
    }
    s->touch[d->nobs] = (uint32_t)s->ntouch;
    return 0;
}

// (2) The regions: connected sets of marked triangles of one layer,
// numbered in the order of their lowest triangle; their triangles in index
// order.
static uint32_t find_regions(const steerN_Mesh *b, Scratch *s)
{
    uint32_t nt = b->ntri, nr = 0;
    for (uint32_t t = 0; t < nt; t++) s->comp[t] = UINT32_MAX;
    for (uint32_t t = 0; t < nt; t++) {
        if (!s->mark[t] || s->comp[t] != UINT32_MAX) continue;
        uint32_t head = 0, tail = 0;
        s->queue[tail++] = t;
        s->comp[t] = nr;
        while (head < tail) {
            uint32_t u = s->queue[head++];
            for (int i = 0; i < 3; i++) {
                int32_t v = b->adj[3 * (size_t)u + (size_t)i];
                if (v >= 0 && s->mark[v] && s->comp[v] == UINT32_MAX && (!b->layer || b->layer[v] == b->layer[u])) {
                    s->comp[v] = nr;
                    s->queue[tail++] = (uint32_t)v;
                }
            }
        }
        nr++;
    }
    memset(s->start, 0, sizeof *s->start * (nr + 1));
    for (uint32_t t = 0; t < nt; t++)
        if (s->comp[t] != UINT32_MAX) s->start[s->comp[t] + 1]++;
    for (uint32_t r = 0; r < nr; r++) s->start[r + 1] += s->start[r];
    for (uint32_t t = 0; t < nt; t++)
        if (s->comp[t] != UINT32_MAX) s->queue[s->start[s->comp[t]]++] = t;
    for (uint32_t r = nr; r > 0; r--) s->start[r] = s->start[r - 1];
    s->start[0] = 0;
    memcpy(s->order, s->queue, sizeof *s->order * (s->start[nr]));
    return nr;
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

// Which obstacles each region holds: (region, obstacle) pairs, sorted.
static int region_obstacles(const steerN_MeshDyn *d, Scratch *s)
{
    s->npair = 0;
    for (uint32_t k = 0; k < d->nobs; k++)
        for (uint32_t j = s->touch[k]; j < s->touch[k + 1]; j++) {
            uint64_t p = (uint64_t)s->comp[s->touch_tri[j]] << 32 | k;
            if (s->npair && s->pair[s->npair - 1] == p) continue;
            if (steerN_grow(&d->base->alloc, (void **)&s->pair, &s->cap_pair, s->npair + 1, sizeof *s->pair)) return -1;
            s->pair[s->npair++] = p;
        }
    if (s->npair) qsort(s->pair, s->npair, sizeof *s->pair, cmp_u64);
    size_t n = 0;
    for (size_t i = 0; i < s->npair; i++)
        if (!n || s->pair[n - 1] != s->pair[i]) s->pair[n++] = s->pair[i];
    s->npair = n;
    return 0;
}

static uint64_t hash_u32(uint64_t h, uint32_t v)
{
    unsigned char b[4];
    steerS_store_le(b, v, 4);
    return steerS_fnv64(h, b, 4);
}

// (3) Region r's build: its triangles as outline rings, the non-default
// ones as area rings too, then its obstacles (pairs [p0, p1)).
static steerN_ObstacleStatus build_region(const steerN_MeshDyn *d, Scratch *s, uint32_t r, size_t p0, size_t p1,
                                          steerN_Mesh **out)
{
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = &b->alloc;
    uint32_t t0 = s->start[r], t1 = s->start[r + 1];
    size_t nring = 0, npt = 0;
    for (uint32_t j = t0; j < t1; j++)
        nring += 1 + (b->area[s->order[j]] != 0), npt += 3 + 3 * (b->area[s->order[j]] != 0);
    for (size_t p = p0; p < p1; p++) nring++, npt += d->obs[(uint32_t)s->pair[p]].npt;
    if (steerN_grow(a, (void **)&s->xy, &s->cap_xy, 2 * npt, sizeof *s->xy)) return STEERN_OBST_NOMEM;
    size_t cap = s->cap_ring;
    if (steerN_grow(a, (void **)&s->ring_end, &cap, nring, sizeof *s->ring_end)) return STEERN_OBST_NOMEM;
    cap = s->cap_ring;
    if (steerN_grow(a, (void **)&s->role, &cap, nring, sizeof *s->role)) return STEERN_OBST_NOMEM;
    s->cap_ring = cap;
    size_t k = 0, at = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = t0; j < t1; j++) {
            uint32_t t = s->order[j];
            if (pass == 1 && b->area[t] == 0) continue;
            for (int i = 0; i < 3; i++) {
                const double *v = b->xy + 2 * (size_t)b->tri[3 * (size_t)t + (size_t)i];
                s->xy[2 * at] = v[0], s->xy[2 * at + 1] = v[1], at++;
            }
            s->role[k] = pass ? (int32_t)b->area[t] : STEERN_RING_OUTLINE;
            s->ring_end[k++] = (uint32_t)at;
        }
    for (size_t p = p0; p < p1; p++) {
        const steerN_Obstacle *o = &d->obs[(uint32_t)s->pair[p]];
        memcpy(s->xy + 2 * at, o->xy, sizeof *s->xy * 2 * o->npt);
        at += o->npt;
        s->role[k] = o->area == STEERN_OBST_BLOCKED ? STEERN_RING_OBSTACLE : o->area;
        s->ring_end[k++] = (uint32_t)at;
    }
    const char *names[STEERN_MESH_AREAS];
    for (uint32_t i = 0; i < b->nareas; i++) names[i] = b->area_name[i];
    steerN_MeshSpec spec = { .xy = s->xy,
                             .ring_end = s->ring_end,
                             .ring_role = s->role,
                             .nrings = (uint32_t)nring,
                             .nareas = b->nareas,
                             .area_names = names,
                             .area_costs = b->area_cost };
    steerN_MeshError err;
    *out = steerN_mesh_build(&spec, a, &err);
    if (*out || err.status == STEERN_MESH_EMPTY) return STEERN_OBST_OK;
    return err.status == STEERN_MESH_NOMEM ? STEERN_OBST_NOMEM : STEERN_OBST_INTERNAL;
}

static int cmp_vkey(const void *pa, const void *pb)
{
    const Vkey *a = pa, *b = pb;
    if (a->r != b->r) return a->r < b->r ? -1 : 1;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

// The base vertex of region r at p among the n sorted keys, or UINT32_MAX.
static uint32_t find_vkey(const Vkey *vk, size_t n, uint32_t r, const int64_t p[2])
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (vk[mid].r < r || (vk[mid].r == r && (vk[mid].x < p[0] || (vk[mid].x == p[0] && vk[mid].y < p[1]))))
            lo = mid + 1;
        else hi = mid;
    }
    return lo < n && vk[lo].r == r && vk[lo].x == p[0] && vk[lo].y == p[1] ? vk[lo].v : UINT32_MAX;
}

static int cmp_pend(const void *pa, const void *pb)
{
    const Pend *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

static int cmp_border(const void *pa, const void *pb)
{
    const Border *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

static void regions_free(const steerN_Mesh *m, Region *r, uint32_t n, uint32_t cap)
{
    for (uint32_t i = 0; i < n; i++) steerN_mesh_free(r[i].mesh);
    steerN_realloc(al(m), r, sizeof *r * cap, 0);
}

// (4) The live mesh from the kept triangles and the regions' builds; 1
// when a border edge did not come out of its build (the triangle across it
// is marked: build again), 2 when that edge is a seam with another layer
// (refused), 0 done, -1 out of memory.
static int cmp_wend(const void *pa, const void *pb)
{
    uint32_t a = ((const Wend *)pa)->v, b = ((const Wend *)pb)->v;
    return (a > b) - (a < b);
}

static int add_wend(const steerN_Alloc *a, Scratch *s, uint32_t v, int32_t n)
{
    if (steerN_grow(a, (void **)&s->wend, &s->cap_wend, s->nwend + 1, sizeof *s->wend)) return -1;
    s->wend[s->nwend++] = (Wend){ v, n };
    return 0;
}

// n->vwall: the base's, but at the regions' vertices the base's wall ends
// there, less those of the regions' base triangles, plus those of their
// builds (n's triangles from nkeep on). The kept triangles' walls are the
// base's: a border edge is joined to the region across it, or the rebuild
// starts over.
static int wall_ends(const steerN_MeshDyn *d, Scratch *s, uint32_t nr, steerN_Mesh *n, uint32_t nkeep)
{
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = &b->alloc;
    memcpy(n->vwall, b->vwall, b->nvert);
    memset(n->vwall + b->nvert, 0, n->nvert - b->nvert);
    s->nwend = 0;
    for (uint32_t j = 0; j < s->start[nr]; j++)
        for (size_t k = 3 * (size_t)s->order[j], i = 0; i < 3; i++)
            if (add_wend(a, s, b->tri[k + i], 0) ||
                (b->adj[k + i] < 0 &&
                 (add_wend(a, s, b->tri[k + i], -1) || add_wend(a, s, b->tri[k + (i + 1) % 3], -1))))
                return -1;
    for (size_t k = 3 * (size_t)nkeep; k < 3 * (size_t)n->ntri; k++)
        if (n->adj[k] < 0 && (add_wend(a, s, n->tri[k], 1) || add_wend(a, s, n->tri[k - k % 3 + (k % 3 + 1) % 3], 1)))
            return -1;
    if (s->nwend) qsort(s->wend, s->nwend, sizeof *s->wend, cmp_wend);
    for (size_t i = 0, j; i < s->nwend; i = j) {
        uint32_t v = s->wend[i].v;
        int64_t ends = v < b->nvert ? d->wends[v] : 0;
        for (j = i; j < s->nwend && s->wend[j].v == v; j++) ends += s->wend[j].n;
        n->vwall[v] = ends > 0;
    }
    return 0;
}

static int assemble(const steerN_MeshDyn *d, Scratch *s, const Region *reg, uint32_t nr, steerN_Mesh **out)
{
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = &b->alloc;
    uint32_t nt = b->ntri, nkeep = 0, nnew = 0, ntri;
    for (uint32_t t = 0; t < nt; t++) nkeep += s->comp[t] == UINT32_MAX;
    ntri = nkeep;
    size_t nvk = 0;
    for (uint32_t r = 0; r < nr; r++) ntri += reg[r].mesh ? reg[r].mesh->ntri : 0;
    // the border edges (to kept triangles, or to another layer's region),
    // and the base vertices of each region by coordinates
    s->nborder = 0;
    for (uint32_t j = 0; j < s->start[nr]; j++) {
        uint32_t t = s->order[j];
        for (int i = 0; i < 3; i++) {
            uint32_t v = b->tri[3 * (size_t)t + (size_t)i];
            if (steerN_grow(a, (void **)&s->vk, &s->cap_vk, nvk + 1, sizeof *s->vk)) return -1;
            s->vk[nvk++] = (Vkey){ s->comp[t], b->ixy[2 * (size_t)v], b->ixy[2 * (size_t)v + 1], v };
            int32_t u = b->adj[3 * (size_t)t + (size_t)i];
            if (u < 0 || s->comp[u] == s->comp[t]) continue;
            if (steerN_grow(a, (void **)&s->border, &s->cap_border, s->nborder + 1, sizeof *s->border)) return -1;
            s->border[s->nborder++] = (Border){ v,           b->tri[3 * (size_t)t + (size_t)(i + 1) % 3],
                                                (uint32_t)u, b->back[3 * (size_t)t + (size_t)i],
                                                t,           0 };
        }
    }
    if (nvk) qsort(s->vk, nvk, sizeof *s->vk, cmp_vkey);
    if (s->nborder) qsort(s->border, s->nborder, sizeof *s->border, cmp_border);
    // the regions' vertices not in the base, counted
    for (uint32_t r = 0; r < nr; r++)
        for (uint32_t v = 0; reg[r].mesh && v < reg[r].mesh->nvert; v++)
            nnew += find_vkey(s->vk, nvk, r, reg[r].mesh->ixy + 2 * (size_t)v) == UINT32_MAX;
    steerN_Mesh *n = steerN_mesh_alloc_unset(b->nvert + nnew, ntri, a); // every item written below
    if (!n || (b->iz && steerN_mesh_alloc_floors(n, b->layer != NULL))) {
        steerN_mesh_free(n);
        return -1;
    }
    n->nlayers = b->nlayers;
    memcpy(n->ixy, b->ixy, sizeof *n->ixy * 2 * b->nvert);
    if (b->iz) memcpy(n->iz, b->iz, sizeof *n->iz * b->nvert);
    uint32_t *tnew = s->queue; // per base triangle: its index in n (kept ones)
    for (uint32_t t = 0, k = 0; t < nt; t++) tnew[t] = s->comp[t] == UINT32_MAX ? k++ : UINT32_MAX;
    for (uint32_t t = 0; t < nt; t++) {
        if (tnew[t] == UINT32_MAX) continue;
        uint32_t x = tnew[t];
        n->area[x] = b->area[t];
        if (n->layer) n->layer[x] = b->layer[t];
        for (int i = 0; i < 3; i++) {
            int32_t u = b->adj[3 * (size_t)t + (size_t)i];
            n->tri[3 * (size_t)x + (size_t)i] = b->tri[3 * (size_t)t + (size_t)i];
            n->adj[3 * (size_t)x + (size_t)i] = u < 0 || tnew[u] == UINT32_MAX ? -1 : (int32_t)tnew[u];
        }
    }
    uint32_t tri_at = nkeep, vert_at = b->nvert, matched = 0;
    int rc = 0;
    uint32_t vmap_cap = 0, *vmap = NULL;
    s->npend = 0;
    for (uint32_t r = 0; r < nr && rc == 0; r++) {
        const steerN_Mesh *g = reg[r].mesh;
        if (!g) continue;
        uint32_t layer = b->layer ? b->layer[s->order[s->start[r]]] : 0;
        if (g->nvert > vmap_cap) {
            uint32_t *p = steerN_realloc(a, vmap, sizeof *vmap * vmap_cap, sizeof *vmap * g->nvert);
            if (!p) {
                rc = -1;
                break;
            }
            vmap = p;
            vmap_cap = g->nvert;
        }
        for (uint32_t v = 0; v < g->nvert; v++) {
            const int64_t *q = g->ixy + 2 * (size_t)v;
            vmap[v] = find_vkey(s->vk, nvk, r, q);
            if (vmap[v] != UINT32_MAX) continue;
            vmap[v] = vert_at;
            memcpy(n->ixy + 2 * (size_t)vert_at, q, sizeof *n->ixy * 2);
            // a new vertex stands on the base's ground under it, on the region's layer
            double p[2] = { (double)q[0] / STEERN_MESH_SCALE, (double)q[1] / STEERN_MESH_SCALE };
            if (n->iz && !steerN_mesh_vertex_height(b, layer, p, &n->iz[vert_at])) n->iz[vert_at] = 0;
            vert_at++;
        }
        for (uint32_t t = 0; t < g->ntri && rc == 0; t++) {
            uint32_t x = tri_at + t;
            n->area[x] = g->area[t];
            if (n->layer) n->layer[x] = (uint16_t)layer;
            for (int i = 0; i < 3; i++) {
                int32_t u = g->adj[3 * (size_t)t + (size_t)i];
                n->tri[3 * (size_t)x + (size_t)i] = vmap[g->tri[3 * (size_t)t + (size_t)i]];
                n->adj[3 * (size_t)x + (size_t)i] = u < 0 ? -1 : (int32_t)(tri_at + (uint32_t)u);
            }
            for (int i = 0; i < 3; i++) {
                if (g->adj[3 * (size_t)t + (size_t)i] >= 0) continue;
                Border key = {
                    n->tri[3 * (size_t)x + (size_t)i], n->tri[3 * (size_t)x + (size_t)(i + 1) % 3], 0, 0, 0, 0
                };
                Border *f = s->nborder ? bsearch(&key, s->border, s->nborder, sizeof key, cmp_border) : NULL;
                if (!f) continue;
                if (s->comp[f->out] != UINT32_MAX) { // another region across: joined below
                    if (steerN_grow(a, (void **)&s->pend, &s->cap_pend, s->npend + 1, sizeof *s->pend)) {
                        rc = -1;
                        break;
                    }
                    s->pend[s->npend++] = (Pend){ key.a, key.b, x, (uint32_t)i, f };
                    continue;
                }
                uint32_t o = tnew[f->out];
                n->adj[3 * (size_t)x + (size_t)i] = (int32_t)o;
                n->adj[3 * (size_t)o + f->edge] = (int32_t)x;
                f->hit = 1;
                matched++;
            }
        }
        tri_at += g->ntri;
    }
    steerN_realloc(a, vmap, sizeof *vmap * vmap_cap, 0);
    // the seams between regions of two layers: each side's edge finds the other's
    if (rc == 0 && s->npend) qsort(s->pend, s->npend, sizeof *s->pend, cmp_pend);
    for (size_t k = 0; rc == 0 && k < s->npend; k++) {
        Pend key = { s->pend[k].b, s->pend[k].a, 0, 0, NULL };
        const Pend *f = bsearch(&key, s->pend, s->npend, sizeof key, cmp_pend);
        if (!f) continue;
        n->adj[3 * (size_t)s->pend[k].x + s->pend[k].i] = (int32_t)f->x;
        ((Border *)s->pend[k].at)->hit = 1;
        matched++;
    }
    if (rc == 0 && matched != s->nborder) {
        // a border edge the build moved: what lies across it joins the
        // region, unless it is another layer's (a seam: refused)
        for (size_t i = 0; i < s->nborder; i++) {
            const Border *f = &s->border[i];
            if (f->hit) continue;
            if (b->layer && b->layer[f->out] != b->layer[f->in]) rc = 2;
            s->mark[f->out] = 1;
        }
        if (rc == 0) rc = 1;
    }
    if (rc) {
        steerN_mesh_free(n);
        return rc;
    }
    if (wall_ends(d, s, nr, n, nkeep)) {
        steerN_mesh_free(n);
        return -1;
    }
    *out = n;
    return 0;
}

// Where the live mesh's triangles go in the one just assembled (tmap, per
// triangle of the live mesh, UINT32_MAX: gone), the base triangles kept
// and the regions taken from the cache; and d->live_of, each region's at.
static void live_map(steerN_MeshDyn *d, const Scratch *s, Region *reg, uint32_t nr, uint32_t ntri, uint32_t *tmap)
{
    for (uint32_t t = 0; t < ntri; t++) tmap[t] = UINT32_MAX;
    uint32_t at = 0;
    for (uint32_t t = 0; t < d->base->ntri; t++) {
        uint32_t now = s->comp[t] == UINT32_MAX ? at++ : UINT32_MAX;
        if (now != UINT32_MAX && d->live_of[t] != UINT32_MAX) tmap[d->live_of[t]] = now;
        d->live_of[t] = now;
    }
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t n = reg[r].mesh ? reg[r].mesh->ntri : 0;
        reg[r].at = at;
        for (uint32_t j = 0; reg[r].from != UINT32_MAX && j < n; j++) tmap[reg[r].from + j] = at + j;
        at += n;
    }
}

// The live mesh from the base and the obstacles, put in m's place and prepared.
static steerN_ObstacleStatus rebuild(steerN_Mesh *m)
{
    steerN_MeshDyn *d = m->dyn;
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = al(m);
    uint32_t nt = b->ntri;
    Scratch s = { 0 };
    steerN_ObstacleStatus st = STEERN_OBST_NOMEM;
    Region *reg = NULL;
    uint32_t nreg = 0, cap_reg = 0;
    steerN_Mesh *live = NULL;
    uint32_t *tmap = NULL, tmap_n = m->ntri;
    s.comp = d->comp, s.mark = d->mark, s.stamp = d->stamp, s.queue = d->queue, s.order = d->order, s.start = d->start;
    s.touch = steerN_realloc(a, NULL, 0, sizeof *s.touch * (d->nobs + 1));
    if (!s.touch) goto out;
    memset(s.mark, 0, nt);
    memset(s.stamp, 0, sizeof *s.stamp * nt);
    if (mark_touches(d, &s)) goto out;
    for (int tries = 0;; tries++) {
        if (tries == GROW_TRIES) {
            st = STEERN_OBST_INTERNAL;
            goto out;
        }
        uint32_t nr = find_regions(b, &s);
        if (region_obstacles(d, &s)) goto out;
        regions_free(m, reg, nreg, cap_reg);
        nreg = 0;
        cap_reg = nr ? nr : 1;
        reg = steerN_realloc(a, NULL, 0, sizeof *reg * cap_reg);
        if (!reg) {
            cap_reg = 0;
            goto out;
        }
        for (size_t p0 = 0, p1; nreg < nr; nreg++) {
            uint32_t r = nreg;
            for (p1 = p0; p1 < s.npair && s.pair[p1] >> 32 == r; p1++) {}
            uint64_t key = STEERS_FNV64_BASIS;
            for (uint32_t j = s.start[r]; j < s.start[r + 1]; j++) key = hash_u32(key, s.order[j]);
            key = hash_u32(key, UINT32_MAX);
            for (size_t p = p0; p < p1; p++) {
                const steerN_Obstacle *o = &d->obs[(uint32_t)s.pair[p]];
                key = hash_u32(hash_u32(key, o->id), o->rev);
            }
            reg[r] = (Region){ key, NULL, 0, UINT32_MAX };
            bool cached = false;
            for (uint32_t c = 0; c < d->nregions && !cached; c++)
                if (d->regions[c].key == key && d->regions[c].mesh) {
                    // taken over: the cache keeps no pointer to it any more
                    reg[r].mesh = d->regions[c].mesh;
                    reg[r].from = d->regions[c].at;
                    d->regions[c].mesh = NULL;
                    d->regions[c].key = 0;
                    cached = true;
                }
            if (!cached) {
                st = build_region(d, &s, r, p0, p1, &reg[r].mesh);
                if (st) {
                    nreg++;
                    goto out;
                }
                st = STEERN_OBST_NOMEM;
            }
            p0 = p1;
        }
        int rc = assemble(d, &s, reg, nr, &live);
        if (rc < 0) goto out;
        if (rc == 2) {
            st = STEERN_OBST_SEAM;
            goto out;
        }
        if (rc == 0) break;
    }
    // (5) in m's place, prepared (from the mesh before, where the change
    // does not reach: mesh_update.c); the regions cached for the next rebuild
    tmap = steerN_realloc(a, NULL, 0, sizeof *tmap * (m->ntri + 1));
    if (!tmap) goto out;
    live_map(d, &s, reg, nreg, m->ntri, tmap);
    steerN_mesh_swap_parts(m, live);
    steerN_mesh_take_derived(live, m); // live: the mesh before, prepared
    // the metres: the base's vertices are the first, in their places
    memcpy(m->xy, b->xy, sizeof *m->xy * 2 * b->nvert);
    if (m->iz) memcpy(m->z, b->z, sizeof *m->z * b->nvert);
    steerN_mesh_set_metres_from(m, b->nvert);
    m->hash = 0; // worked out when asked (steerN_mesh_hash_known)
    m->grid_tris = b->ntri;
    regions_free(m, d->regions, d->nregions, d->cap_regions);
    d->regions = reg;
    d->nregions = nreg;
    d->cap_regions = cap_reg;
    reg = NULL;
    nreg = cap_reg = 0;
    int rc = steerN_mesh_prepare_update(m, live, tmap, b);
    if (rc > 0) rc = steerN_mesh_prepare(m);
    st = rc ? STEERN_OBST_NOMEM : STEERN_OBST_OK;
out:
    steerN_realloc(a, tmap, sizeof *tmap * (tmap_n + 1), 0);
    steerN_mesh_free(live);
    regions_free(m, reg, nreg, cap_reg);
    scratch_free(m, &s, d->nobs);
    return st;
}

// ---- the obstacles -------------------------------------------------------------------

// m's obstacle state, made on the first obstacle (the base: a prepared copy of the mesh).
static steerN_MeshDyn *dyn_of(steerN_Mesh *m)
{
    if (m->dyn) return m->dyn;
    steerN_MeshDyn *d = steerN_realloc(al(m), NULL, 0, sizeof *d);
    if (!d) return NULL;
    memset(d, 0, sizeof *d);
    d->next_id = 1;
    if (!(d->base = steerN_mesh_clone(m)) || steerN_mesh_prepare(d->base)) {
        steerN_mesh_free(d->base);
        steerN_realloc(al(m), d, sizeof *d, 0);
        return NULL;
    }
    steerN_mesh_set_metres(d->base);
    d->base->hash = steerN_mesh_hash(d->base);
    const steerN_Mesh *b = d->base;
    size_t nt = b->ntri;
    d->live_of = steerN_realloc(al(m), NULL, 0, sizeof *d->live_of * (nt + 1));
    d->wends = steerN_realloc(al(m), NULL, 0, sizeof *d->wends * (b->nvert + 1));
    d->comp = steerN_realloc(al(m), NULL, 0, sizeof *d->comp * (nt + 1));
    d->stamp = steerN_realloc(al(m), NULL, 0, sizeof *d->stamp * (nt + 1));
    d->queue = steerN_realloc(al(m), NULL, 0, sizeof *d->queue * (nt + 1));
    d->order = steerN_realloc(al(m), NULL, 0, sizeof *d->order * (nt + 1));
    d->start = steerN_realloc(al(m), NULL, 0, sizeof *d->start * (nt + 1));
    d->mark = steerN_realloc(al(m), NULL, 0, nt + 1);
    if (!d->live_of || !d->wends || !d->comp || !d->stamp || !d->queue || !d->order || !d->start || !d->mark) {
        m->dyn = d;
        steerN_mesh_dyn_free(m);
        return NULL;
    }
    for (uint32_t t = 0; t < nt; t++) d->live_of[t] = t; // the live mesh is the base
    memset(d->wends, 0, sizeof *d->wends * b->nvert);
    for (size_t k = 0; k < 3 * nt; k++)
        if (b->adj[k] < 0) d->wends[b->tri[k]]++, d->wends[b->tri[k - k % 3 + (k % 3 + 1) % 3]]++;
    m->grid_tris = d->base->ntri;
    m->dyn = d;
    return d;
}

static int32_t find(const steerN_MeshDyn *d, uint32_t id)
{
    uint32_t lo = 0, hi = d ? d->nobs : 0;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (d->obs[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return d && lo < d->nobs && d->obs[lo].id == id ? (int32_t)lo : -1;
}

const steerN_Obstacle *steerN_obstacle_get(const steerN_Mesh *m, uint32_t id)
{
    int32_t k = find(m->dyn, id);
    return k < 0 ? NULL : &m->dyn->obs[k];
}

uint32_t steerN_mesh_obstacle_count(const steerN_Mesh *m) { return m->dyn ? m->dyn->nobs : 0; }

const steerN_Obstacle *steerN_mesh_obstacle_at(const steerN_Mesh *m, uint32_t i)
{
    return m->dyn && i < m->dyn->nobs ? &m->dyn->obs[i] : NULL;
}

// Note a change of the boxes box and (NULL: none) also.
static void record(steerN_MeshDyn *d, const int64_t box[4], const int64_t *also)
{
    d->epoch = (d->epoch + 1) & EPOCH_MASK;
    if (d->epoch == 0) d->epoch = 1; // 0: "before any change" (navigate.c)
    Record *r = &d->rec[d->epoch % STEERN_MESH_RECORDS];
    r->epoch = d->epoch;
    for (int j = 0; j < 4; j++) {
        int64_t v = box[j];
        if (also) v = j < 2 ? (also[j] < v ? also[j] : v) : (also[j] > v ? also[j] : v);
        // outward, so the float box holds the footprint
        r->box[j] = (float)((double)(j < 2 ? v - MARGIN : v + MARGIN) / STEERN_MESH_SCALE);
    }
}

steerN_ObstacleStatus steerN_obstacle_add(steerN_Mesh *m, const double *xy, uint32_t n, int32_t area,
                                          const steerN_Floor *f, uint32_t *id)
{
    int64_t box[4];
    if (f && f->layer > m->nlayers) return STEERN_OBST_BADLAYER;
    if (n < 3) return STEERN_OBST_BADSHAPE;
    if (n > STEERN_OBSTACLE_POINTS) return STEERN_OBST_LIMIT;
    if (!steerN_obstacle_box(xy, n, box)) return STEERN_OBST_BADPOINT;
    if (!steerN_obstacle_encloses(xy, n)) return STEERN_OBST_BADSHAPE;
    if (area != STEERN_OBST_BLOCKED && (area < 1 || (uint32_t)area >= m->nareas)) return STEERN_OBST_BADAREA;
    if (m->dyn && (m->dyn->nobs >= STEERN_OBSTACLES || m->dyn->next_id == UINT32_MAX)) return STEERN_OBST_LIMIT;
    steerN_MeshDyn *d = dyn_of(m);
    if (!d) return STEERN_OBST_NOMEM;
    // its layer: the one named, else the ground's under its box's centre
    uint32_t layer = f && f->layer ? f->layer - 1 : 0;
    if (d->base->layer && !(f && f->layer)) {
        double c[2] = { ((double)box[0] + (double)box[2]) * 0.5 / STEERN_MESH_SCALE,
                        ((double)box[1] + (double)box[3]) * 0.5 / STEERN_MESH_SCALE },
               z;
        if (!steerN_mesh_height(d->base, c, f, &z, &layer)) layer = 0;
    }
    size_t cap = d->cap_obs;
    if (steerN_grow(al(m), (void **)&d->obs, &cap, d->nobs + 1, sizeof *d->obs)) return STEERN_OBST_NOMEM;
    d->cap_obs = (uint32_t)cap;
    double *p = steerN_realloc(al(m), NULL, 0, sizeof *p * 2 * n);
    if (!p) return STEERN_OBST_NOMEM;
    memcpy(p, xy, sizeof *p * 2 * n);
    steerN_Obstacle *o = &d->obs[d->nobs++];
    *o = (steerN_Obstacle){ .id = d->next_id, .area = area, .npt = n, .xy = p, .layer = layer };
    memcpy(o->box, box, sizeof box);
    steerN_ObstacleStatus st = rebuild(m);
    if (st) { // as it was
        d->nobs--;
        steerN_realloc(al(m), p, sizeof *p * 2 * n, 0);
        return st;
    }
    *id = d->next_id++;
    record(d, box, NULL);
    return STEERN_OBST_OK;
}

steerN_ObstacleStatus steerN_obstacle_move(steerN_Mesh *m, uint32_t id, double dx, double dy)
{
    int32_t k = find(m->dyn, id);
    if (k < 0) return STEERN_OBST_GONE;
    steerN_MeshDyn *d = m->dyn;
    steerN_Obstacle *o = &d->obs[k];
    if (!isfinite(dx) || !isfinite(dy)) return STEERN_OBST_BADPOINT;
    double *p = steerN_realloc(al(m), NULL, 0, sizeof *p * 2 * o->npt);
    if (!p) return STEERN_OBST_NOMEM;
    for (uint32_t i = 0; i < o->npt; i++) p[2 * i] = o->xy[2 * i] + dx, p[2 * i + 1] = o->xy[2 * i + 1] + dy;
    int64_t box[4], old[4];
    if (!steerN_obstacle_box(p, o->npt, box)) {
        steerN_realloc(al(m), p, sizeof *p * 2 * o->npt, 0);
        return STEERN_OBST_BADPOINT;
    }
    double *was = o->xy;
    memcpy(old, o->box, sizeof old);
    o->xy = p;
    memcpy(o->box, box, sizeof box);
    o->rev++;
    steerN_ObstacleStatus st = rebuild(m);
    double *drop = st ? p : was;
    if (st) {
        o->xy = was;
        memcpy(o->box, old, sizeof old);
        o->rev--;
    }
    steerN_realloc(al(m), drop, sizeof *drop * 2 * o->npt, 0);
    if (!st) record(d, box, old);
    return st;
}

steerN_ObstacleStatus steerN_obstacle_remove(steerN_Mesh *m, uint32_t id)
{
    int32_t k = find(m->dyn, id);
    if (k < 0) return STEERN_OBST_GONE;
    steerN_MeshDyn *d = m->dyn;
    steerN_Obstacle o = d->obs[k];
    memmove(&d->obs[k], &d->obs[k + 1], sizeof *d->obs * (d->nobs - (uint32_t)k - 1));
    d->nobs--;
    steerN_ObstacleStatus st = rebuild(m);
    if (st) {
        memmove(&d->obs[k + 1], &d->obs[k], sizeof *d->obs * (d->nobs - (uint32_t)k));
        d->obs[k] = o;
        d->nobs++;
        return st;
    }
    record(d, o.box, NULL);
    steerN_realloc(al(m), o.xy, sizeof *o.xy * 2 * o.npt, 0);
    return STEERN_OBST_OK;
}

// ---- the agents' check ------------------------------------------------------------

uint32_t steerN_mesh_epoch(const steerN_Mesh *m) { return m->dyn ? m->dyn->epoch : 0; }

// Whether segment p -> q comes within r of box (x0, y0, x1, y1): the
// segment against the grown box, by slabs.
static bool seg_box(const float *p, const float *q, const float box[4], float r)
{
    float t0 = 0.0f, t1 = 1.0f;
    for (int j = 0; j < 2; j++) {
        float lo = box[j] - r, hi = box[2 + j] + r, dp = q[j] - p[j];
        if (dp == 0.0f) {
            if (p[j] < lo || p[j] > hi) return false;
            continue;
        }
        float a = (lo - p[j]) / dp, b = (hi - p[j]) / dp;
        if (a > b) {
            float x = a;
            a = b;
            b = x;
        }
        if (a > t0) t0 = a;
        if (b < t1) t1 = b;
        if (t0 > t1) return false;
    }
    return true;
}

bool steerN_mesh_way_changed(const steerN_Mesh *m, uint32_t seen, const float *way, uint32_t n, float radius)
{
    const steerN_MeshDyn *d = m->dyn;
    if (!d || seen == d->epoch || n == 0) return false;
    uint32_t age = (d->epoch - seen) & EPOCH_MASK;
    if (age > STEERN_MESH_RECORDS) return true;
    for (uint32_t k = 0; k < age; k++) {
        uint32_t e = (d->epoch - k) & EPOCH_MASK;
        const Record *r = &d->rec[e % STEERN_MESH_RECORDS];
        if (r->epoch != e) return true;
        for (uint32_t i = 0; i + 1 < n || (n == 1 && i == 0); i++)
            if (seg_box(way + 2 * i, way + 2 * (n == 1 ? i : i + 1), r->box, radius)) return true;
    }
    return false;
}

// ---- memory and bytes ---------------------------------------------------------------

size_t steerN_mesh_dyn_bytes(const steerN_Mesh *m)
{
    const steerN_MeshDyn *d = m->dyn;
    size_t n = sizeof *d + steerN_mesh_bytes(d->base) + sizeof *d->obs * d->cap_obs +
               sizeof *d->regions * d->cap_regions + (sizeof(uint32_t) * 6 + 1) * (d->base->ntri + 1) +
               sizeof *d->wends * (d->base->nvert + 1);
    for (uint32_t i = 0; i < d->nobs; i++) n += sizeof(double) * 2 * d->obs[i].npt;
    for (uint32_t i = 0; i < d->nregions; i++)
        if (d->regions[i].mesh) n += steerN_mesh_bytes(d->regions[i].mesh);
    return n;
}

void steerN_mesh_dyn_free(steerN_Mesh *m)
{
    steerN_MeshDyn *d = m->dyn;
    const steerN_Alloc *a = al(m);
    for (uint32_t i = 0; i < d->nobs; i++) steerN_realloc(a, d->obs[i].xy, sizeof(double) * 2 * d->obs[i].npt, 0);
    steerN_realloc(a, d->obs, sizeof *d->obs * d->cap_obs, 0);
    regions_free(m, d->regions, d->nregions, d->cap_regions);
    size_t nt = d->base->ntri;
    steerN_realloc(a, d->live_of, sizeof *d->live_of * (nt + 1), 0);
    steerN_realloc(a, d->wends, sizeof *d->wends * (d->base->nvert + 1), 0);
    steerN_realloc(a, d->comp, sizeof *d->comp * (nt + 1), 0);
    steerN_realloc(a, d->stamp, sizeof *d->stamp * (nt + 1), 0);
    steerN_realloc(a, d->queue, sizeof *d->queue * (nt + 1), 0);
    steerN_realloc(a, d->order, sizeof *d->order * (nt + 1), 0);
    steerN_realloc(a, d->start, sizeof *d->start * (nt + 1), 0);
    steerN_realloc(a, d->mark, nt + 1, 0);
    steerN_mesh_free(d->base);
    steerN_realloc(a, d, sizeof *d, 0);
    m->dyn = NULL;
}

// "STNM", u32 4, the base's own bytes (version 1, 2 or 5), u32 epoch, u32
// next id, the records (u32 epoch, 4 f32 each), u32 obstacles, each: u32
// id, i32 area, u32 revision, u32 points, the points (f64 x, y); the links
// (mesh_link.c); u64 the live mesh's hash, which a read checks after
// rebuilding. A base of several layers writes version 6 instead: the
// same, each obstacle's u32 layer after its points' count.
void steerN_mesh_dyn_encode(const steerN_Mesh *m, steerS_Writer *out)
{
    const steerN_MeshDyn *d = m->dyn;
    steerS_put(out, "STNM", 4);
    bool layers = d->base->layer != NULL;
    steerS_put_u32(out, layers ? VERSION_LAYERS : VERSION);
    steerN_mesh_encode(d->base, out);
    steerS_put_u32(out, d->epoch);
    steerS_put_u32(out, d->next_id);
    for (int i = 0; i < STEERN_MESH_RECORDS; i++) {
        steerS_put_u32(out, d->rec[i].epoch);
        for (int j = 0; j < 4; j++) steerS_put_f32(out, d->rec[i].box[j]);
    }
    steerS_put_u32(out, d->nobs);
    for (uint32_t i = 0; i < d->nobs; i++) {
        const steerN_Obstacle *o = &d->obs[i];
        steerS_put_u32(out, o->id);
        steerS_put_u32(out, (uint32_t)o->area);
        steerS_put_u32(out, o->rev);
        steerS_put_u32(out, o->npt);
        if (layers) steerS_put_u32(out, o->layer);
        for (uint32_t k = 0; k < 2 * o->npt; k++) steerS_put_f64(out, o->xy[k]);
    }
    steerN_links_encode(m, out); // (the base has none: they are the live mesh's)
    steerS_put_u64(out, steerN_mesh_hash_known(m));
}

steerN_Mesh *steerN_mesh_dyn_decode(steerS_Reader *r, uint32_t version, const steerN_Alloc *alloc, bool *oom)
{
    steerN_Mesh *m = steerN_mesh_decode_base(r, alloc, oom);
    if (!m) return NULL;
    bool layers = version == VERSION_LAYERS;
    if (layers != (m->layer != NULL)) {
        steerS_fail(r, "navigation mesh: version %u of obstacles on a mesh of %u layers", version, m->nlayers);
        steerN_mesh_free(m);
        return NULL;
    }
    if (steerN_mesh_prepare(m) || !dyn_of(m)) {
        steerN_mesh_free(m);
        *oom = true;
        return NULL;
    }
    steerN_MeshDyn *d = m->dyn;
    d->epoch = steerS_get_u32(r);
    d->next_id = steerS_get_u32(r);
    for (int i = 0; i < STEERN_MESH_RECORDS; i++) {
        d->rec[i].epoch = steerS_get_u32(r);
        for (int j = 0; j < 4; j++) d->rec[i].box[j] = steerS_get_f32(r);
        if (!r->failed && !(isfinite(d->rec[i].box[0]) && isfinite(d->rec[i].box[1]) && isfinite(d->rec[i].box[2]) &&
                            isfinite(d->rec[i].box[3])))
            steerS_fail(r, "navigation mesh: change record %d is not a box", i);
    }
    uint32_t n = steerS_get_u32(r);
    if (!r->failed && (d->epoch > EPOCH_MASK || n > STEERN_OBSTACLES || steerS_left(r) < 16 * (size_t)n))
        steerS_fail(r, "navigation mesh: %u obstacles, epoch %u", n, d->epoch);
    for (uint32_t i = 0; i < n && !r->failed; i++) {
        uint32_t id = steerS_get_u32(r), area = steerS_get_u32(r), rev = steerS_get_u32(r), npt = steerS_get_u32(r);
        uint32_t layer = layers ? steerS_get_u32(r) : 0;
        if (r->failed) break;
        if (layer >= m->nlayers) {
            steerS_fail(r, "navigation mesh: obstacle %u is on layer %u of %u", id, layer, m->nlayers);
            break;
        }
        if (npt < 3 || npt > STEERN_OBSTACLE_POINTS || steerS_left(r) < 16 * (size_t)npt) {
            steerS_fail(r, "navigation mesh: obstacle %u has %u points", id, npt);
            break;
        }
        if (id == 0 || id >= d->next_id || (i && id <= d->obs[i - 1].id) ||
            ((int32_t)area != STEERN_OBST_BLOCKED && (area < 1 || area >= m->nareas))) {
            steerS_fail(r, "navigation mesh: obstacle %u (id or area) is not one a mesh could hold", i);
            break;
        }
        size_t cap = d->cap_obs;
        double *p = steerN_realloc(al(m), NULL, 0, sizeof *p * 2 * npt);
        if (!p || steerN_grow(al(m), (void **)&d->obs, &cap, d->nobs + 1, sizeof *d->obs)) {
            steerN_realloc(al(m), p, sizeof *p * 2 * npt, 0);
            *oom = true;
            break;
        }
        d->cap_obs = (uint32_t)cap;
        for (uint32_t k = 0; k < 2 * npt; k++) p[k] = steerS_get_f64(r);
        steerN_Obstacle *o = &d->obs[d->nobs++];
        *o = (steerN_Obstacle){ .id = id, .area = (int32_t)area, .npt = npt, .xy = p, .rev = rev, .layer = layer };
        if (!r->failed && (!steerN_obstacle_box(p, npt, o->box) || !steerN_obstacle_encloses(p, npt)))
            steerS_fail(r, "navigation mesh: obstacle %u has a bad point or encloses nothing", id);
    }
    if (!r->failed && !*oom) steerN_links_decode(r, m, oom);
    uint64_t hash = steerS_get_u64(r);
    if (!r->failed && !*oom) {
        steerN_ObstacleStatus st = rebuild(m);
        if (st == STEERN_OBST_NOMEM) *oom = true;
        else if (st) steerS_fail(r, "navigation mesh: its obstacles could not be carved");
        else if ((m->hash = steerN_mesh_hash(m)) != hash)
            steerS_fail(r, "navigation mesh: the obstacles give another mesh (damaged bytes)");
        if (!st && m->hash == hash) return m;
    }
    steerN_mesh_free(m);
    return NULL;
}
