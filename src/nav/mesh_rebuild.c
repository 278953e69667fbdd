// SPDX-License-Identifier: MIT
// mesh_rebuild.c — the live mesh of a mesh with obstacles rebuilt in
// place from the base and the obstacles (mesh_dyn.h: the design;
// mesh_rebuild.h: the slots).
//
// A rebuild: (1) mark the base triangles each obstacle's quantized box,
// grown by a margin, touches (an exact integer test, candidates from the
// base's locate grid); (2) the marked triangles' connected sets are the
// regions, numbered by their lowest triangle; (3) each region is built (or
// taken from the last rebuild when its triangles and its obstacles'
// revisions are the same) from its triangles as outline rings (even-odd:
// their shared edges cancel and only the region's border stays), its
// non-default triangles as area rings, and its obstacles in the order they
// were added; (4) the slots and new vertices each region gets are laid out,
// and every border edge of a region must come out of its build as it went
// in (else the triangle across it joins the region, and the rebuild starts
// over); (5) the slots whose contents changed are written in place (a
// region whose build, slots and vertices are the ones it had is left as
// it is), the neighbours across the regions' borders joined, the wall
// flags of the regions' vertices counted again; (6) the derived data
// updated where the change reaches (mesh_update.c). Every step but the
// first's candidates costs what the regions hold, not what the mesh does.
#include "mesh_rebuild.h"

#include "../core/bytes.h"
#include "mesh_snap.h"
#include "predicates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN STEERN_DYN_MARGIN
#define GROW_TRIES 256 // rebuilds that may grow a region before one gives up

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

typedef struct Link { // adj[k] = to, once the slots are written
    uint32_t k;
    int32_t to;
} Link;

typedef struct Wend {
    uint32_t v;
    int32_t n;
} Wend;

typedef struct Scratch {
    uint32_t *comp, *stamp, *queue, *order, *start; // d's (per base triangle)
    uint8_t *mark;
    uint64_t *pair; // (region << 32 | obstacle index) per touch, sorted, unique
    size_t npair, cap_pair;
    uint32_t *touch; // per obstacle index, its marked triangles: touch_tri[touch[k] .. touch[k + 1])
    uint32_t *touch_tri;
    size_t ntouch, cap_touch;
    Border *border;
    size_t nborder, cap_border;
    Vkey *vk;
    size_t nvk, cap_vk;
    Pend *pend;
    size_t npend, cap_pend;
    Link *link;
    size_t nlink, cap_link;
    double *xy;
    size_t cap_xy;
    uint32_t *ring_end;
    int32_t *role;
    size_t cap_ring;
    Wend *wend;
    size_t nwend, cap_wend;
    // the change (mesh_update.c's steerN_MeshChange)
    uint32_t *slot;
    double *obox;
    size_t nslot, cap_slot, cap_obox;
    uint32_t *adjl;
    size_t nadj, cap_adj;
    uint32_t *vert;
    size_t nvert, cap_vert;
} Scratch;

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
    steerN_realloc(a, s->link, sizeof *s->link * s->cap_link, 0);
    steerN_realloc(a, s->xy, sizeof *s->xy * s->cap_xy, 0);
    steerN_realloc(a, s->ring_end, sizeof *s->ring_end * s->cap_ring, 0);
    steerN_realloc(a, s->role, sizeof *s->role * s->cap_ring, 0);
    steerN_realloc(a, s->slot, sizeof *s->slot * s->cap_slot, 0);
    steerN_realloc(a, s->obox, sizeof *s->obox * s->cap_obox, 0);
    steerN_realloc(a, s->adjl, sizeof *s->adjl * s->cap_adj, 0);
    steerN_realloc(a, s->vert, sizeof *s->vert * s->cap_vert, 0);
}

static int push_marked(steerN_MeshDyn *d, uint32_t t)
{
    if (d->mark[t]) return 0;
    if (steerN_grow(&d->base->alloc, (void **)&d->marked, &d->cap_marked, d->nmarked + 1, sizeof *d->marked)) return -1;
    d->mark[t] = 1;
    d->marked[d->nmarked++] = t;
    return 0;
}

// mark and comp as the live mesh's regions say (before a rebuild's, or after one failed).
static int marks_of_regions(steerN_MeshDyn *d)
{
    for (size_t i = 0; i < d->nmarked; i++) d->mark[d->marked[i]] = 0, d->comp[d->marked[i]] = UINT32_MAX;
    d->nmarked = 0;
    for (uint32_t r = 0; r < d->nregions; r++)
        for (uint32_t j = 0; j < d->regions[r].nbase; j++) {
            uint32_t t = d->regions[r].tri[j];
            if (push_marked(d, t)) return -1;
            d->comp[t] = r;
        }
    return 0;
}

// (1) Every obstacle's touches: the triangles its grown box meets.
static int mark_touches(steerN_MeshDyn *d, Scratch *s)
{
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = &b->alloc;
    for (size_t i = 0; i < d->nmarked; i++) d->mark[d->marked[i]] = 0, d->comp[d->marked[i]] = UINT32_MAX;
    d->nmarked = 0;
    if (d->stamp_gen > UINT32_MAX - d->nobs - 2) { // the stamps wrap: start again
        memset(d->stamp, 0, sizeof *d->stamp * b->ntri);
        d->stamp_gen = 0;
    }
    s->ntouch = 0;
    for (uint32_t k = 0; k < d->nobs; k++) {
        s->touch[k] = (uint32_t)s->ntouch;
        uint32_t tag = d->stamp_gen + k + 1;
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
                    if (s->stamp[t] == tag) continue;
                    s->stamp[t] = tag;
                    if ((b->layer && b->layer[t] != o->layer) || !tri_box(b, t, box)) continue;
                    if (steerN_grow(a, (void **)&s->touch_tri, &s->cap_touch, s->ntouch + 1, sizeof *s->touch_tri))
                        return -1;
                    s->touch_tri[s->ntouch++] = t;
                    if (push_marked(d, t)) return -1;
                }
            }
    }
    d->stamp_gen += d->nobs + 1;
    s->touch[d->nobs] = (uint32_t)s->ntouch;
    return 0;
}

static int cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

// (2) The regions: connected sets of marked triangles of one layer,
// numbered in the order of their lowest triangle; their triangles in index
// order.
static uint32_t find_regions(steerN_MeshDyn *d, Scratch *s)
{
    const steerN_Mesh *b = d->base;
    uint32_t nr = 0;
    if (d->nmarked) qsort(d->marked, d->nmarked, sizeof *d->marked, cmp_u32);
    for (size_t i = 0; i < d->nmarked; i++) s->comp[d->marked[i]] = UINT32_MAX;
    for (size_t i = 0; i < d->nmarked; i++) {
        uint32_t t = d->marked[i];
        if (s->comp[t] != UINT32_MAX) continue;
        uint32_t head = 0, tail = 0;
        s->queue[tail++] = t;
        s->comp[t] = nr;
        while (head < tail) {
            uint32_t u = s->queue[head++];
            for (int e = 0; e < 3; e++) {
                int32_t v = b->adj[3 * (size_t)u + (size_t)e];
                if (v >= 0 && s->mark[v] && s->comp[v] == UINT32_MAX && (!b->layer || b->layer[v] == b->layer[u])) {
                    s->comp[v] = nr;
                    s->queue[tail++] = (uint32_t)v;
                }
            }
        }
        nr++;
    }
    memset(s->start, 0, sizeof *s->start * (nr + 1));
    for (size_t i = 0; i < d->nmarked; i++) s->start[s->comp[d->marked[i]] + 1]++;
    for (uint32_t r = 0; r < nr; r++) s->start[r + 1] += s->start[r];
    for (size_t i = 0; i < d->nmarked; i++) s->queue[s->start[s->comp[d->marked[i]]]++] = d->marked[i];
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

static void region_drop(const steerN_Mesh *m, steerN_Region *r, bool mesh)
{
    size_t nv = r->mesh ? r->mesh->nvert : 0;
    if (mesh) steerN_mesh_free(r->mesh);
    steerN_realloc(al(m), r->tri, sizeof *r->tri * r->nbase, 0);
    steerN_realloc(al(m), r->vmap, sizeof *r->vmap * nv, 0);
    r->tri = r->vmap = NULL;
    r->mesh = NULL;
}

// A region being planned: its build's, unless it took the one before's.
static void regions_free(const steerN_Mesh *m, steerN_Region *r, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) region_drop(m, &r[i], r[i].from == UINT32_MAX);
    steerN_realloc(al(m), r, sizeof *r * n, 0);
}

// Slot j of region r's build.
static uint32_t slot_of(const steerN_Region *r, uint32_t j)
{
    return j < r->nbase ? r->tri[j] : r->over + (j - r->nbase);
}
static uint32_t region_ntri(const steerN_Region *r) { return r->mesh ? r->mesh->ntri : 0; }
// Every slot the region holds (its base triangles', then its overflow's).
static uint32_t region_slots(const steerN_Region *r)
{
    uint32_t n = region_ntri(r);
    return n > r->nbase ? n : r->nbase;
}

static int add_link(const steerN_Alloc *a, Scratch *s, uint32_t k, uint32_t to)
{
    if (steerN_grow(a, (void **)&s->link, &s->cap_link, s->nlink + 1, sizeof *s->link)) return -1;
    s->link[s->nlink++] = (Link){ k, (int32_t)to };
    return 0;
}

// (4) The regions' slots and new vertices, and the links across their
// borders; 1 when a border edge did not come out of its build (the
// triangle across it is marked: build again), 2 when that edge is a seam
// with another layer (refused), 0 done, -1 out of memory.
static int plan(steerN_MeshDyn *d, Scratch *s, steerN_Region *reg, uint32_t nr, uint32_t *ntri, uint32_t *nvert)
{
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = &b->alloc;
    // the border edges (to kept triangles, or to another region), and the
    // base vertices of each region by coordinates
    s->nborder = s->nvk = s->nlink = s->npend = 0;
    for (uint32_t j = 0; j < s->start[nr]; j++) {
        uint32_t t = s->order[j];
        for (int i = 0; i < 3; i++) {
            uint32_t v = b->tri[3 * (size_t)t + (size_t)i];
            if (steerN_grow(a, (void **)&s->vk, &s->cap_vk, s->nvk + 1, sizeof *s->vk)) return -1;
            s->vk[s->nvk++] = (Vkey){ s->comp[t], b->ixy[2 * (size_t)v], b->ixy[2 * (size_t)v + 1], v };
            int32_t u = b->adj[3 * (size_t)t + (size_t)i];
            if (u < 0 || s->comp[u] == s->comp[t]) continue;
            if (steerN_grow(a, (void **)&s->border, &s->cap_border, s->nborder + 1, sizeof *s->border)) return -1;
            s->border[s->nborder++] = (Border){ v,           b->tri[3 * (size_t)t + (size_t)(i + 1) % 3],
                                                (uint32_t)u, b->back[3 * (size_t)t + (size_t)i],
                                                t,           0 };
        }
    }
    if (s->nvk) qsort(s->vk, s->nvk, sizeof *s->vk, cmp_vkey);
    if (s->nborder) qsort(s->border, s->nborder, sizeof *s->border, cmp_border);
    // the layout: each region's slots and new vertices, and its build's vertices in the live mesh
    uint32_t over = b->ntri, vat = b->nvert;
    for (uint32_t r = 0; r < nr; r++) {
        steerN_Region *g = &reg[r];
        uint32_t n = region_ntri(g);
        g->over = over;
        over += n > g->nbase ? n - g->nbase : 0;
        g->vat = vat;
        uint32_t nv = g->mesh ? g->mesh->nvert : 0;
        if (nv && !(g->vmap = steerN_realloc(a, NULL, 0, sizeof *g->vmap * nv))) return -1;
        for (uint32_t v = 0; v < nv; v++) {
            g->vmap[v] = find_vkey(s->vk, s->nvk, r, g->mesh->ixy + 2 * (size_t)v);
            if (g->vmap[v] == UINT32_MAX) g->vmap[v] = vat++;
        }
        const steerN_Region *was = g->from == UINT32_MAX ? NULL : &d->regions[g->from];
        g->fresh = !was || was->over != g->over || was->vat != g->vat;
    }
    *ntri = over, *nvert = vat;
    // the links: each build's wall edges on the region's border, to the
    // kept triangle across, or (a seam) to the other region's edge
    for (uint32_t r = 0; r < nr; r++) {
        const steerN_Region *g = &reg[r];
        for (uint32_t t = 0; t < region_ntri(g); t++)
            for (uint32_t i = 0; i < 3; i++) {
                if (g->mesh->adj[3 * t + i] >= 0) continue;
                Border key = {
                    g->vmap[g->mesh->tri[3 * t + i]], g->vmap[g->mesh->tri[3 * t + (i + 1) % 3]], 0, 0, 0, 0
                };
                Border *f = s->nborder ? bsearch(&key, s->border, s->nborder, sizeof key, cmp_border) : NULL;
                if (!f) continue;
                uint32_t x = slot_of(g, t);
                if (s->comp[f->out] != UINT32_MAX) {
                    if (steerN_grow(a, (void **)&s->pend, &s->cap_pend, s->npend + 1, sizeof *s->pend)) return -1;
                    s->pend[s->npend++] = (Pend){ key.a, key.b, x, i, f };
                    continue;
                }
                if (add_link(a, s, 3 * x + i, f->out) || add_link(a, s, 3 * f->out + f->edge, x)) return -1;
                f->hit = 1;
            }
    }
    if (s->npend) qsort(s->pend, s->npend, sizeof *s->pend, cmp_pend);
    for (size_t k = 0; k < s->npend; k++) {
        Pend key = { s->pend[k].b, s->pend[k].a, 0, 0, NULL };
        const Pend *f = bsearch(&key, s->pend, s->npend, sizeof key, cmp_pend);
        if (!f) continue;
        if (add_link(a, s, 3 * s->pend[k].x + s->pend[k].i, f->x)) return -1;
        ((Border *)s->pend[k].at)->hit = 1;
    }
    int rc = 0;
    for (size_t i = 0; i < s->nborder; i++) {
        // a border edge the build moved: what lies across it joins the
        // region, unless it is another layer's (a seam: refused)
        const Border *f = &s->border[i];
        if (f->hit) continue;
        if (b->layer && b->layer[f->out] != b->layer[f->in]) return 2;
        if (push_marked(d, f->out)) return -1;
        rc = 1;
    }
    return rc;
}

static int push_u32(const steerN_Alloc *a, uint32_t **p, size_t *n, size_t *cap, uint32_t v)
{
    if (steerN_grow(a, (void **)p, cap, *n + 1, sizeof **p)) return -1;
    (*p)[(*n)++] = v;
    return 0;
}

// Slot t (of the live mesh as it is) into the change, with its box.
static int change_slot(steerN_Mesh *m, Scratch *s, uint8_t *changed, uint32_t t)
{
    if (changed[t]) return 0;
    const steerN_Alloc *a = al(m);
    if (push_u32(a, &s->slot, &s->nslot, &s->cap_slot, t) ||
        steerN_grow(a, (void **)&s->obox, &s->cap_obox, 4 * s->nslot, sizeof *s->obox))
        return -1;
    changed[t] = 1;
    double *box = s->obox + 4 * (s->nslot - 1);
    box[0] = box[1] = INFINITY, box[2] = box[3] = -INFINITY;
    if (t < m->ntri && !steerN_mesh_dead(m, t))
        for (int i = 0; i < 3; i++) {
            const double *v = mg_v(m, t, i);
            for (int j = 0; j < 2; j++) box[j] = mg_min(box[j], v[j]), box[2 + j] = mg_max(box[2 + j], v[j]);
        }
    return 0;
}

// The wall flags at the vertices the change reaches (vs, sorted, unique:
// the base's vertices of the regions before and now, the new regions' new
// ones): the base's wall ends, less those of the regions' base triangles,
// plus those of their builds; into s->wend as (vertex, flag).
static int wall_flags(const steerN_MeshDyn *d, Scratch *s, const steerN_Region *reg, uint32_t nr, const uint32_t *vs,
                      size_t nvs)
{
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = &b->alloc;
    s->nwend = 0;
    for (uint32_t r = 0; r < nr; r++) {
        const steerN_Region *g = &reg[r];
        for (uint32_t j = 0; j < g->nbase; j++)
            for (size_t k = 3 * (size_t)g->tri[j], i = 0; i < 3; i++)
                if (b->adj[k + i] < 0 &&
                    (add_wend(a, s, b->tri[k + i], -1) || add_wend(a, s, b->tri[k + (i + 1) % 3], -1)))
                    return -1;
        for (size_t k = 0; k < 3 * (size_t)region_ntri(g); k++)
            if (g->mesh->adj[k] < 0 && (add_wend(a, s, g->vmap[g->mesh->tri[k]], 1) ||
                                        add_wend(a, s, g->vmap[g->mesh->tri[k - k % 3 + (k % 3 + 1) % 3]], 1)))
                return -1;
    }
    if (s->nwend) qsort(s->wend, s->nwend, sizeof *s->wend, cmp_wend);
    // the sums at vs, then vs's flags in the list's place
    size_t n = s->nwend;
    if (steerN_grow(a, (void **)&s->wend, &s->cap_wend, n + nvs, sizeof *s->wend)) return -1;
    for (size_t i = 0, w = 0; i < nvs; i++) {
        uint32_t v = vs[i];
        int64_t ends = v < b->nvert ? d->wends[v] : 0;
        while (w < n && s->wend[w].v < v) w++;
        for (; w < n && s->wend[w].v == v; w++) ends += s->wend[w].n;
        s->wend[n + i] = (Wend){ v, ends > 0 };
    }
    if (nvs) memmove(s->wend, s->wend + n, sizeof *s->wend * nvs);
    s->nwend = nvs;
    return 0;
}

// The base vertices of region g's triangles, and (new) its build's new
// ones, onto s->vert.
static void region_vertices(const steerN_Mesh *b, const steerN_Region *g, bool new, Scratch *s)
{
    for (uint32_t j = 0; j < g->nbase; j++)
        for (int i = 0; i < 3; i++) s->vert[s->nvert++] = b->tri[3 * (size_t)g->tri[j] + (size_t)i];
    for (uint32_t v = 0; new && g->mesh &&v < g->mesh->nvert; v++)
        if (g->vmap[v] >= b->nvert) s->vert[s->nvert++] = g->vmap[v];
}

// (5) The slots of the change written: the base's triangles the regions
// gave back, the fresh regions' builds (and dead slots), the links. The
// change goes on s for mesh_update.c; -1 when out of memory (m as it was).
static int commit(steerN_Mesh *m, steerN_MeshDyn *d, Scratch *s, steerN_Region *reg, uint32_t nr, uint32_t ntri,
                  uint32_t nvert)
{
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = al(m);
    uint32_t ot = m->ntri;
    uint8_t *changed = NULL;
    if (steerN_update_scratch_room(a, &d->up, ntri > ot ? ntri : ot, nvert, 0)) return -1;
    changed = d->up.changed;
    s->nslot = s->nadj = s->nvert = 0;
    // the slots: the regions before that are not kept as they were, the fresh ones now
    int rc = -1;
    for (uint32_t r = 0; r < d->nregions; r++) {
        const steerN_Region *g = &d->regions[r];
        if (g->from != UINT32_MAX && !reg[g->from].fresh) continue; // (from: which region now took it)
        for (uint32_t j = 0; j < region_slots(g); j++)
            if (change_slot(m, s, changed, slot_of(g, j))) goto out;
    }
    for (uint32_t r = 0; r < nr; r++)
        for (uint32_t j = 0; reg[r].fresh && j < region_slots(&reg[r]); j++)
            if (change_slot(m, s, changed, slot_of(&reg[r], j))) goto out;
    // the wall flags the change gives, worked out first (nothing written yet)
    size_t need_vert = 1;
    for (uint32_t r = 0; r < d->nregions; r++) need_vert += 3 * (size_t)d->regions[r].nbase;
    for (uint32_t r = 0; r < nr; r++) need_vert += 3 * (size_t)reg[r].nbase + (reg[r].mesh ? reg[r].mesh->nvert : 0);
    if (steerN_grow(a, (void **)&s->adjl, &s->cap_adj, 3 * s->nslot + s->nlink + 1, sizeof *s->adjl) ||
        steerN_grow(a, (void **)&s->vert, &s->cap_vert, 2 * need_vert, sizeof *s->vert))
        goto out;
    for (uint32_t r = 0; r < d->nregions; r++)
        if (d->regions[r].from == UINT32_MAX || reg[d->regions[r].from].fresh)
            region_vertices(b, &d->regions[r], false, s);
    for (uint32_t r = 0; r < nr; r++)
        if (reg[r].fresh) region_vertices(b, &reg[r], true, s);
    if (s->nvert) qsort(s->vert, s->nvert, sizeof *s->vert, cmp_u32);
    size_t nvs = 0;
    for (size_t i = 0; i < s->nvert; i++)
        if (!nvs || s->vert[nvs - 1] != s->vert[i]) s->vert[nvs++] = s->vert[i];
    if (wall_flags(d, s, reg, nr, s->vert, nvs)) goto out;
    s->nvert = 0;
    if (steerN_mesh_resize(m, nvert, ntri)) goto out;
    rc = 0;
    // the base's triangles given back, joined to the kept ones about them
    for (size_t j = 0; j < s->nslot; j++) {
        uint32_t t = s->slot[j];
        if (t >= b->ntri || s->comp[t] != UINT32_MAX) continue;
        m->area[t] = b->area[t];
        if (m->layer) m->layer[t] = b->layer[t];
        for (uint32_t i = 0; i < 3; i++) {
            int32_t u = b->adj[3 * t + i];
            m->tri[3 * t + i] = b->tri[3 * t + i];
            m->adj[3 * t + i] = u >= 0 && s->comp[u] == UINT32_MAX ? u : -1; // (a region across: its link)
            if (u < 0 || s->comp[u] != UINT32_MAX || changed[u]) continue;
            m->adj[3 * (uint32_t)u + b->back[3 * t + i]] = (int32_t)t;
            s->adjl[s->nadj++] = (uint32_t)u;
        }
    }
    // the fresh regions' builds, their new vertices and their dead slots
    for (uint32_t r = 0; r < nr; r++) {
        const steerN_Region *g = &reg[r];
        if (!g->fresh) continue;
        uint32_t layer = b->layer ? b->layer[g->tri[0]] : 0;
        for (uint32_t t = 0; t < region_ntri(g); t++) {
            uint32_t x = slot_of(g, t);
            m->area[x] = g->mesh->area[t];
            if (m->layer) m->layer[x] = (uint16_t)layer;
            for (uint32_t i = 0; i < 3; i++) {
                int32_t u = g->mesh->adj[3 * t + i];
                m->tri[3 * x + i] = g->vmap[g->mesh->tri[3 * t + i]];
                m->adj[3 * x + i] = u < 0 ? -1 : (int32_t)slot_of(g, (uint32_t)u);
            }
        }
        for (uint32_t j = region_ntri(g); j < g->nbase; j++) {
            uint32_t x = g->tri[j];
            m->area[x] = 0;
            if (m->layer) m->layer[x] = 0;
            for (uint32_t i = 0; i < 3; i++) m->tri[3 * x + i] = 0, m->adj[3 * x + i] = -1;
        }
        for (uint32_t v = 0; g->mesh && v < g->mesh->nvert; v++) {
            uint32_t w = g->vmap[v];
            if (w < b->nvert) continue;
            const int64_t *q = g->mesh->ixy + 2 * (size_t)v;
            memcpy(m->ixy + 2 * (size_t)w, q, sizeof *m->ixy * 2);
            m->xy[2 * (size_t)w] = (double)q[0] / STEERN_MESH_SCALE;
            m->xy[2 * (size_t)w + 1] = (double)q[1] / STEERN_MESH_SCALE;
            // a new vertex stands on the base's ground under it, on the region's layer
            if (m->iz) {
                if (!steerN_mesh_vertex_height(b, layer, m->xy + 2 * (size_t)w, &m->iz[w])) m->iz[w] = 0;
                m->z[w] = (double)m->iz[w] / STEERN_MESH_SCALE;
            }
            s->vert[s->nvert++] = w;
        }
    }
    for (size_t k = 0; k < s->nlink; k++) {
        const Link *l = &s->link[k];
        if (m->adj[l->k] == l->to && !changed[l->to]) continue; // (a neighbour rewritten: its edge may be another)
        m->adj[l->k] = l->to;
        if (!changed[l->k / 3]) s->adjl[s->nadj++] = l->k / 3;
    }
    // the wall flags; the vertices whose flag changed have their fronts worked out again
    for (size_t i = 0; i < s->nwend; i++) {
        uint32_t v = s->wend[i].v;
        uint8_t flag = (uint8_t)s->wend[i].n;
        if (m->vwall[v] == flag) continue;
        m->vwall[v] = flag;
        s->vert[s->nvert++] = v;
    }
    return 0;
out:
    for (size_t j = 0; j < s->nslot; j++) changed[s->slot[j]] = 0;
    s->nslot = 0;
    return rc;
}

// Whether m may have corners at vertices no wall ends at (areas: mesh_update.c's whole area-corner pass).
static bool has_areas(const steerN_MeshDyn *d)
{
    for (uint32_t k = 0; k < d->nobs; k++)
        if (d->obs[k].area != STEERN_OBST_BLOCKED) return true;
    return d->base_areas;
}

steerN_ObstacleStatus steerN_dyn_rebuild(steerN_Mesh *m)
{
    steerN_MeshDyn *d = m->dyn;
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = al(m);
    Scratch s = { 0 };
    steerN_ObstacleStatus st = STEERN_OBST_NOMEM;
    steerN_Region *reg = NULL;
    uint32_t nreg = 0, ntri = 0, nvert = 0;
    s.comp = d->comp, s.mark = d->mark, s.stamp = d->stamp, s.queue = d->queue, s.order = d->order, s.start = d->start;
    for (uint32_t r = 0; r < d->nregions; r++) d->regions[r].from = UINT32_MAX;
    s.touch = steerN_realloc(a, NULL, 0, sizeof *s.touch * (d->nobs + 1));
    if (!s.touch || mark_touches(d, &s)) goto fail;
    for (int tries = 0;; tries++) {
        if (tries == GROW_TRIES) {
            st = STEERN_OBST_INTERNAL;
            goto fail;
        }
        uint32_t nr = find_regions(d, &s);
        if (region_obstacles(d, &s)) goto fail;
        for (uint32_t r = 0; r < d->nregions; r++) d->regions[r].from = UINT32_MAX;
        regions_free(m, reg, nreg);
        nreg = 0;
        reg = steerN_realloc(a, NULL, 0, sizeof *reg * (nr ? nr : 1));
        if (!reg) goto fail;
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
            steerN_Region *g = &reg[r];
            *g = (steerN_Region){ .key = key, .nbase = s.start[r + 1] - s.start[r], .from = UINT32_MAX };
            g->tri = steerN_realloc(a, NULL, 0, sizeof *g->tri * g->nbase);
            if (!g->tri) {
                nreg++;
                goto fail;
            }
            memcpy(g->tri, s.order + s.start[r], sizeof *g->tri * g->nbase);
            for (uint32_t c = 0; c < d->nregions && g->from == UINT32_MAX; c++)
                if (d->regions[c].key == key && d->regions[c].from == UINT32_MAX) {
                    g->from = c; // its build taken (the one before keeps it until the commit)
                    g->mesh = d->regions[c].mesh;
                    d->regions[c].from = r;
                }
            if (g->from == UINT32_MAX) {
                st = build_region(d, &s, r, p0, p1, &g->mesh);
                if (st) {
                    nreg++;
                    goto fail;
                }
                st = STEERN_OBST_NOMEM;
            }
            p0 = p1;
        }
        int rc = plan(d, &s, reg, nr, &ntri, &nvert);
        if (rc < 0) goto fail;
        if (rc == 2) {
            st = STEERN_OBST_SEAM;
            goto fail;
        }
        if (rc == 0) break;
    }
    uint32_t ot = m->ntri, ov = m->nvert;
    int rc = commit(m, d, &s, reg, nreg, ntri, nvert);
    if (rc) goto fail;
    // the regions now: the fresh ones' builds and those taken over; the rest freed
    for (uint32_t r = 0; r < d->nregions; r++) region_drop(m, &d->regions[r], d->regions[r].from == UINT32_MAX);
    steerN_realloc(a, d->regions, sizeof *d->regions * d->nregions, 0);
    d->regions = reg;
    d->nregions = nreg;
    reg = NULL;
    nreg = 0;
    m->hash = 0; // worked out when asked (steerN_mesh_hash_known)
    m->grid_tris = b->ntri;
    if (rc == 0) {
        steerN_MeshChange ch = { .slot = s.slot,
                                 .obox = s.obox,
                                 .nslot = (uint32_t)s.nslot,
                                 .adj = s.adjl,
                                 .nadj = (uint32_t)s.nadj,
                                 .vert = s.vert,
                                 .nvert = (uint32_t)s.nvert,
                                 .old_ntri = ot,
                                 .old_nvert = ov,
                                 .areas = has_areas(d) };
        rc = steerN_mesh_update(m, &ch, &d->up, b);
    }
    for (size_t j = 0; j < s.nslot; j++) d->up.changed[s.slot[j]] = 0;
    if (rc) rc = steerN_mesh_prepare(m);
    st = rc ? STEERN_OBST_NOMEM : STEERN_OBST_OK;
    scratch_free(m, &s, d->nobs);
    return st;
fail:
    if (reg) regions_free(m, reg, nreg);
    for (uint32_t r = 0; r < d->nregions; r++) d->regions[r].from = UINT32_MAX;
    marks_of_regions(d); // (only shrinks back to what it held: does not fail)
    scratch_free(m, &s, d->nobs);
    return st;
}

int steerN_dyn_init(steerN_Mesh *m, steerN_MeshDyn *d)
{
    const steerN_Mesh *b = d->base;
    const steerN_Alloc *a = al(m);
    size_t nt = b->ntri;
    d->wends = steerN_realloc(a, NULL, 0, sizeof *d->wends * (b->nvert + 1));
    d->comp = steerN_realloc(a, NULL, 0, sizeof *d->comp * (nt + 1));
    d->stamp = steerN_realloc(a, NULL, 0, sizeof *d->stamp * (nt + 1));
    d->queue = steerN_realloc(a, NULL, 0, sizeof *d->queue * (nt + 1));
    d->order = steerN_realloc(a, NULL, 0, sizeof *d->order * (nt + 1));
    d->start = steerN_realloc(a, NULL, 0, sizeof *d->start * (nt + 1));
    d->mark = steerN_realloc(a, NULL, 0, nt + 1);
    if (!d->wends || !d->comp || !d->stamp || !d->queue || !d->order || !d->start || !d->mark) return -1;
    for (size_t t = 0; t < nt; t++) d->comp[t] = UINT32_MAX, d->base_areas |= b->area[t] != 0;
    memset(d->stamp, 0, sizeof *d->stamp * nt);
    memset(d->mark, 0, nt);
    memset(d->wends, 0, sizeof *d->wends * b->nvert);
    for (size_t k = 0; k < 3 * nt; k++)
        if (b->adj[k] < 0) d->wends[b->tri[k]]++, d->wends[b->tri[k - k % 3 + (k % 3 + 1) % 3]]++;
    return 0;
}

void steerN_dyn_fini(steerN_Mesh *m, steerN_MeshDyn *d)
{
    const steerN_Alloc *a = al(m);
    for (uint32_t r = 0; r < d->nregions; r++) region_drop(m, &d->regions[r], true);
    steerN_realloc(a, d->regions, sizeof *d->regions * d->nregions, 0);
    size_t nt = d->base->ntri;
    steerN_realloc(a, d->wends, sizeof *d->wends * (d->base->nvert + 1), 0);
    steerN_realloc(a, d->comp, sizeof *d->comp * (nt + 1), 0);
    steerN_realloc(a, d->stamp, sizeof *d->stamp * (nt + 1), 0);
    steerN_realloc(a, d->queue, sizeof *d->queue * (nt + 1), 0);
    steerN_realloc(a, d->order, sizeof *d->order * (nt + 1), 0);
    steerN_realloc(a, d->start, sizeof *d->start * (nt + 1), 0);
    steerN_realloc(a, d->mark, nt + 1, 0);
    steerN_realloc(a, d->marked, sizeof *d->marked * d->cap_marked, 0);
    steerN_update_scratch_free(a, &d->up);
}

size_t steerN_dyn_rebuild_bytes(const steerN_MeshDyn *d)
{
    size_t n = sizeof *d->regions * d->nregions + (sizeof(uint32_t) * 5 + 1) * (d->base->ntri + 1) +
               sizeof *d->wends * (d->base->nvert + 1) + sizeof *d->marked * d->cap_marked;
    for (uint32_t i = 0; i < d->nregions; i++) {
        const steerN_Region *g = &d->regions[i];
        n += sizeof *g->tri * g->nbase;
        if (g->mesh) n += steerN_mesh_bytes(g->mesh) + sizeof *g->vmap * g->mesh->nvert;
    }
    const steerN_UpdateScratch *u = &d->up;
    return n + (sizeof(uint32_t) * 3 + 1) * (u->cap_tri ? (size_t)u->cap_tri + 1 : 0) +
           sizeof(uint32_t) * (u->cap_vert ? (size_t)u->cap_vert + 1 : 0) + u->cap_cell;
}
