// SPDX-License-Identifier: MIT
// mesh_update.c — the derived data of a live mesh that changed in places
// (an obstacle added, moved or removed: mesh_rebuild.c, which rewrites the
// changed slots in place and leaves every other triangle its number), the
// same bits as a whole steerN_mesh_prepare gives, at a cost that grows
// with the change, not with the mesh.
//
// The index grid stays (a mesh with obstacles sizes it for its base's
// triangles, and its vertices' box does not move), so a cell's lists
// change only where a changed slot's triangle (the old or the new) lies:
// the dirty cells. Only those lists are made again (the old items of
// unchanged slots, and the new ones that overlap, in order). What else
// reads the mesh reads it within a distance it knows:
//   - a corner's width is the distance to the nearest wall point beyond
//     the opposite edge in the corner's wedge (or to a wall vertex at the
//     edge's ends), so it stays while no dirty cell lies within that
//     distance of the corner. The corners to look at are found through
//     corner_reach (per cell, no corner at a vertex in it is wider: a
//     whole prepare's, raised by each update), not by a pass over all;
//     on a mesh with area corners (vertices no wall ends at: areas, area
//     obstacles) those and steerN_mesh_area_corner_widths are done whole,
//     as a whole prepare does them;
//   - front[v] reads the wall index's cells within one of v's own: it
//     stays while those are clean;
//   - cum_area is a running sum: it is summed again from the lowest
//     changed slot on.
// The widths' searches and the index's tests are mesh_query.c's own.
#include "mesh_geom.h"
#include "mesh_snap.h"

#include <stdlib.h>
#include <string.h>

#define SCAN_CELLS 64 // a disc's box of more cells than this is taken as dirty without looking

typedef struct Dirty {
    uint8_t *cell;  // per cell: 1 when a changed triangle's box covers it
    uint32_t *list; // the dirty cells
    size_t n, cap;
    double lo[2], hi[2]; // the changed triangles' boxes' union
    const uint8_t *changed;
} Dirty;

static void tri_box(const steerN_Mesh *m, uint32_t t, double lo[2], double hi[2])
{
    lo[0] = lo[1] = INFINITY, hi[0] = hi[1] = -INFINITY;
    for (int i = 0; i < 3; i++) {
        const double *v = mg_v(m, t, i);
        for (int j = 0; j < 2; j++) lo[j] = v[j] < lo[j] ? v[j] : lo[j], hi[j] = v[j] > hi[j] ? v[j] : hi[j];
    }
}

// Mark the cells of box lo-hi dirty.
static int mark(const steerN_Mesh *m, Dirty *d, const double lo[2], const double hi[2])
{
    if (!(lo[0] <= hi[0])) return 0;
    for (int j = 0; j < 2; j++) d->lo[j] = mg_min(d->lo[j], lo[j]), d->hi[j] = mg_max(d->hi[j], hi[j]);
    uint32_t x0, x1, y0, y1;
    steerN_mesh_cell_range(m, lo[0], hi[0], 0, &x0, &x1);
    steerN_mesh_cell_range(m, lo[1], hi[1], 1, &y0, &y1);
    for (uint32_t cy = y0; cy <= y1; cy++)
        for (uint32_t cx = x0; cx <= x1; cx++) {
            size_t c = (size_t)cy * m->bnx + cx;
            if (d->cell[c]) continue;
            if (steerN_grow(&m->alloc, (void **)&d->list, &d->cap, d->n + 1, sizeof *d->list)) return -1;
            d->cell[c] = 1;
            d->list[d->n++] = (uint32_t)c;
        }
    return 0;
}

// No changed triangle comes within r of c (false when it may).
static bool clean_within(const steerN_Mesh *m, const Dirty *d, const double c[2], double r)
{
    if (!(r < INFINITY)) return false;
    r += 1e-6 * (1 + r); // a hair over, so a wall at exactly r counts
    double lo[2] = { c[0] - r, c[1] - r }, hi[2] = { c[0] + r, c[1] + r };
    if (lo[0] > d->hi[0] || hi[0] < d->lo[0] || lo[1] > d->hi[1] || hi[1] < d->lo[1]) return true;
    uint32_t x0, x1, y0, y1;
    steerN_mesh_cell_range(m, lo[0], hi[0], 0, &x0, &x1);
    steerN_mesh_cell_range(m, lo[1], hi[1], 1, &y0, &y1);
    if ((uint64_t)(x1 - x0 + 1) * (y1 - y0 + 1) > SCAN_CELLS) return false;
    for (uint32_t cy = y0; cy <= y1; cy++)
        for (uint32_t cx = x0; cx <= x1; cx++)
            if (d->cell[(size_t)cy * m->bnx + cx]) return false;
    return true;
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

static int cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

// One index (as mesh_query.c's build_index makes it), its dirty cells'
// lists made again: the items of unchanged slots kept, the changed slots'
// items added, in order.
static int update_index(steerN_Mesh *m, const steerN_MeshChange *ch, Dirty *d, bool wall, uint32_t *start,
                        uint32_t **itemp)
{
    const steerN_Alloc *a = &m->alloc;
    size_t nc = (size_t)m->bnx * m->bny, npair = 0, cap = 0;
    uint32_t *item = *itemp;
    uint64_t *pair = NULL; // (cell << 32 | item): the dirty cells' items, old kept and new
    int rc = -1;
    for (size_t j = 0; j < d->n; j++) {
        uint32_t c = d->list[j];
        for (uint32_t k = start[c]; k < start[c + 1]; k++) {
            if (d->changed[wall ? item[k] / 3 : item[k]]) continue;
            if (steerN_grow(a, (void **)&pair, &cap, npair + 1, sizeof *pair)) goto out;
            pair[npair++] = ((uint64_t)c << 32) | item[k];
        }
    }
    for (uint32_t j = 0; j < ch->nslot; j++) {
        uint32_t t = ch->slot[j];
        if (t >= m->ntri || steerN_mesh_dead(m, t)) continue;
        for (int i = 0; i < (wall ? 3 : 1); i++) {
            uint32_t k = wall ? 3 * t + (uint32_t)i : t;
            if (wall && m->adj[k] >= 0) continue;
            double lo[2], hi[2];
            if (wall) {
                const double *p = mg_v(m, t, i), *q = mg_v(m, t, (i + 1) % 3);
                for (int x = 0; x < 2; x++) lo[x] = mg_min(p[x], q[x]), hi[x] = mg_max(p[x], q[x]);
            } else {
                tri_box(m, t, lo, hi);
            }
            uint32_t x0, x1, y0, y1;
            steerN_mesh_cell_range(m, lo[0], hi[0], 0, &x0, &x1);
            steerN_mesh_cell_range(m, lo[1], hi[1], 1, &y0, &y1);
            for (uint32_t cy = y0; cy <= y1; cy++)
                for (uint32_t cx = x0; cx <= x1; cx++) {
                    if (!steerN_mesh_overlaps(m, k, wall, cx, cy)) continue;
                    if (steerN_grow(a, (void **)&pair, &cap, npair + 1, sizeof *pair)) goto out;
                    pair[npair++] = ((uint64_t)((size_t)cy * m->bnx + cx) << 32) | k;
                }
        }
    }
    if (npair) qsort(pair, npair, sizeof *pair, cmp_u64);
    // the same lengths: in place; else the items again, clean runs copied
    bool same = true;
    for (size_t j = 0, p = 0; j < d->n && same; j++) {
        uint32_t c = d->list[j], n = 0;
        for (; p < npair && pair[p] >> 32 == c; p++) n++;
        same = n == start[c + 1] - start[c];
    }
    if (same) {
        for (size_t j = 0, p = 0; j < d->n; j++)
            for (uint32_t c = d->list[j], k = start[c]; p < npair && pair[p] >> 32 == c; p++)
                item[k++] = (uint32_t)pair[p];
        rc = 0;
        goto out;
    }
    uint32_t old_total = start[nc];
    uint64_t total = old_total;
    for (size_t j = 0, p = 0; j < d->n; j++) {
        uint32_t c = d->list[j], n = 0;
        for (; p < npair && pair[p] >> 32 == c; p++) n++;
        total = total - (start[c + 1] - start[c]) + n;
    }
    if (total > UINT32_MAX) goto out;
    uint32_t *fresh = steerN_mesh_grab(m, sizeof *fresh * total);
    if (!fresh) goto out;
    // runs of clean cells copied and their starts shifted, each read before
    // it is written (a run's ends are the next dirty cell's old start)
    uint32_t at = 0;
    size_t c0 = 0, p = 0;
    for (size_t j = 0; j <= d->n; j++) {
        size_t c = j < d->n ? d->list[j] : nc;
        uint32_t from = start[c0], len = start[c] - from;
        memcpy(fresh + at, item + from, sizeof *fresh * len);
        for (size_t x = c0; x < c; x++) start[x] = start[x] - from + at;
        at += len;
        if (c == nc) break;
        start[c] = at;
        for (; p < npair && pair[p] >> 32 == c; p++) fresh[at++] = (uint32_t)pair[p];
        c0 = c + 1;
    }
    start[nc] = at;
    steerN_realloc(a, item, sizeof *item * (old_total ? old_total : 1), 0);
    m->derived_bytes -= sizeof *item * (old_total ? old_total : 1);
    *itemp = fresh;
    rc = 0;
out:
    steerN_realloc(a, pair, sizeof *pair * cap, 0);
    return rc;
}

// Resize a derived array of n0 items to n1 (kept items stay), counted.
static int regrab(steerN_Mesh *m, void **p, size_t size, size_t n0, size_t n1)
{
    size_t b0 = size * n0, b1 = size * n1;
    b0 = b0 ? b0 : 1, b1 = b1 ? b1 : 1;
    if (b0 == b1) return 0;
    void *q = steerN_realloc(&m->alloc, *p, b0, b1);
    if (!q) return -1;
    *p = q;
    m->derived_bytes = m->derived_bytes - b0 + b1;
    return 0;
}

static size_t vertex_cell(const steerN_Mesh *m, uint32_t v)
{
    uint32_t cx, cy;
    steerN_mesh_cell_range(m, m->xy[2 * v], m->xy[2 * v], 0, &cx, &cx);
    steerN_mesh_cell_range(m, m->xy[2 * v + 1], m->xy[2 * v + 1], 1, &cy, &cy);
    return (size_t)cy * m->bnx + cx;
}

// corner_reach (cell c's, its block's, the largest) raised to w.
static void raise_reach(steerN_Mesh *m, size_t c, double w)
{
    size_t nc = (size_t)m->bnx * m->bny;
    size_t blk = nc + (c / m->bnx / STEERN_REACH_BLOCK) * mg_reach_blocks(m->bnx) + c % m->bnx / STEERN_REACH_BLOCK;
    if (!(m->corner_reach[c] >= w)) m->corner_reach[c] = w;
    if (!(m->corner_reach[blk] >= w)) m->corner_reach[blk] = w;
    if (!(m->corner_reach_max >= w)) m->corner_reach_max = w;
}

// Corner k's width worked out again, and corner_reach raised to it.
static void rewiden(steerN_Mesh *m, steerN_UpdateScratch *s, uint32_t t, int i)
{
    double w = steerN_mesh_corner_width(m, &s->ws, t, i);
    m->width[3 * (size_t)t + (size_t)i] = w;
    raise_reach(m, vertex_cell(m, m->tri[3 * (size_t)t + (size_t)i]), w);
}

// No dirty cell within one of v's own (what front[v] reads).
static bool front_clean(const steerN_Mesh *m, const Dirty *d, uint32_t v)
{
    const double *p = m->xy + 2 * v, g = 3 * m->bcell;
    if (p[0] < d->lo[0] - g || p[0] > d->hi[0] + g || p[1] < d->lo[1] - g || p[1] > d->hi[1] + g) return true;
    size_t c = vertex_cell(m, v);
    uint32_t cx = (uint32_t)(c % m->bnx), cy = (uint32_t)(c / m->bnx);
    for (uint32_t y = cy ? cy - 1 : 0; y <= cy + 1 && y < m->bny; y++)
        for (uint32_t x = cx ? cx - 1 : 0; x <= cx + 1 && x < m->bnx; x++)
            if (d->cell[(size_t)y * m->bnx + x]) return false;
    return true;
}

static void refront(steerN_Mesh *m, steerN_UpdateScratch *s, uint32_t v)
{
    if (s->vmark[v] == s->gen) return;
    s->vmark[v] = s->gen;
    steerN_mesh_front_walls(m, v);
}

// The grid steerN_mesh_grid makes: the box of the base's vertices (m's
// first ones) and the new ones after them; false when it is not m's.
static bool same_grid(const steerN_Mesh *m, const steerN_Mesh *base)
{
    double lo[2] = { base->bmin[0], base->bmin[1] }, hi[2] = { base->bmax[0], base->bmax[1] };
    for (uint32_t v = base->nvert; v < m->nvert; v++)
        for (int j = 0; j < 2; j++) lo[j] = mg_min(lo[j], m->xy[2 * v + j]), hi[j] = mg_max(hi[j], m->xy[2 * v + j]);
    return lo[0] == base->bmin[0] && lo[1] == base->bmin[1] && hi[0] == base->bmax[0] && hi[1] == base->bmax[1] &&
           m->grid_tris == (base->grid_tris ? base->grid_tris : base->ntri) && base->prepared &&
           base->nvert <= m->nvert && m->bmin[0] == base->bmin[0] && m->bmin[1] == base->bmin[1] &&
           m->bmax[0] == base->bmax[0] && m->bmax[1] == base->bmax[1] && m->bcell == base->bcell &&
           m->bnx == base->bnx && m->bny == base->bny;
}

int steerN_update_scratch_room(const steerN_Alloc *a, steerN_UpdateScratch *s, uint32_t ntri, uint32_t nvert,
                               size_t ncell)
{
    if (ntri > s->cap_tri) {
        size_t n0 = (size_t)s->cap_tri + 1, n1 = (size_t)ntri + ntri / 4 + 1;
        uint32_t *seen = steerN_realloc(a, s->ws.seen, sizeof *seen * n0, sizeof *seen * n1);
        if (seen) s->ws.seen = seen;
        uint32_t *stack = steerN_realloc(a, s->ws.stack, sizeof *stack * n0, sizeof *stack * n1);
        if (stack) s->ws.stack = stack;
        uint32_t *tmark = steerN_realloc(a, s->tmark, sizeof *tmark * n0, sizeof *tmark * n1);
        if (tmark) s->tmark = tmark;
        uint8_t *changed = steerN_realloc(a, s->changed, n0, n1);
        if (changed) s->changed = changed;
        if (!seen || !stack || !tmark || !changed) return -1; // (the grown ones kept: freed by their capacity below)
        memset(seen + n0, 0, sizeof *seen * (n1 - n0));
        memset(tmark + n0, 0, sizeof *tmark * (n1 - n0));
        memset(changed + n0, 0, n1 - n0);
        if (!s->cap_tri) seen[0] = tmark[0] = changed[0] = 0;
        s->cap_tri = (uint32_t)(n1 - 1);
    }
    if (nvert > s->cap_vert) {
        size_t n0 = (size_t)s->cap_vert + 1, n1 = (size_t)nvert + nvert / 4 + 1;
        uint32_t *vmark = steerN_realloc(a, s->vmark, sizeof *vmark * n0, sizeof *vmark * n1);
        if (!vmark) return -1;
        memset(vmark + (s->cap_vert ? n0 : 0), 0, sizeof *vmark * (n1 - (s->cap_vert ? n0 : 0)));
        s->vmark = vmark;
        s->cap_vert = (uint32_t)(n1 - 1);
    }
    if (ncell > s->cap_cell) {
        uint8_t *cell = steerN_realloc(a, s->cell, s->cap_cell, ncell);
        if (!cell) return -1;
        memset(cell, 0, ncell);
        s->cell = cell;
        s->cap_cell = ncell;
    }
    return 0;
}

void steerN_update_scratch_free(const steerN_Alloc *a, steerN_UpdateScratch *s)
{
    size_t nt = s->cap_tri ? (size_t)s->cap_tri + 1 : 0, nv = s->cap_vert ? (size_t)s->cap_vert + 1 : 0;
    steerN_realloc(a, s->ws.seen, sizeof *s->ws.seen * nt, 0);
    steerN_realloc(a, s->ws.stack, sizeof *s->ws.stack * nt, 0);
    steerN_realloc(a, s->tmark, sizeof *s->tmark * nt, 0);
    steerN_realloc(a, s->changed, nt, 0);
    steerN_realloc(a, s->vmark, sizeof *s->vmark * nv, 0);
    steerN_realloc(a, s->cell, s->cap_cell, 0);
    memset(s, 0, sizeof *s);
}

// The next pass's mark (the marks cleared when they wrap).
static void next_gen(steerN_UpdateScratch *s)
{
    if (++s->gen == 0) {
        memset(s->tmark, 0, sizeof *s->tmark * ((size_t)s->cap_tri + 1));
        memset(s->vmark, 0, sizeof *s->vmark * ((size_t)s->cap_vert + 1));
        s->gen = 1;
    }
}

// The corners of the triangles not changed whose width disc may reach a
// dirty cell: the cells whose corner_reach comes within reach of the
// changes' box, their triangles' corners checked one by one.
static bool reaches(const steerN_Mesh *m, const Dirty *d, double w, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1)
{
    if (!(w < INFINITY)) return true;
    // the cells' box's distance to the changes' box
    double lo0 = m->bmin[0] + x0 * m->bcell, lo1 = m->bmin[1] + y0 * m->bcell;
    double hi0 = m->bmin[0] + (x1 + 1) * m->bcell, hi1 = m->bmin[1] + (y1 + 1) * m->bcell;
    double gx = mg_max(mg_max(d->lo[0] - hi0, lo0 - d->hi[0]), 0);
    double gy = mg_max(mg_max(d->lo[1] - hi1, lo1 - d->hi[1]), 0);
    double g = w + 1e-6 * (1 + w) + 1e-9 * m->bcell;
    return !(gx > g || gy > g || gx * gx + gy * gy > g * g);
}

// The corners of the triangles not changed whose width disc may reach a
// dirty cell: the blocks and cells whose corner_reach comes within reach of
// the changes' box, their triangles' corners checked one by one.
static void rewiden_near(steerN_Mesh *m, steerN_UpdateScratch *s, const Dirty *d)
{
    size_t nc = (size_t)m->bnx * m->bny;
    uint32_t nbx = mg_reach_blocks(m->bnx), nby = mg_reach_blocks(m->bny), B = STEERN_REACH_BLOCK;
    next_gen(s);
    for (uint32_t by = 0; by < nby; by++)
        for (uint32_t bx = 0; bx < nbx; bx++) {
            uint32_t x0 = bx * B, y0 = by * B, x1 = x0 + B - 1, y1 = y0 + B - 1;
            x1 = x1 < m->bnx ? x1 : m->bnx - 1, y1 = y1 < m->bny ? y1 : m->bny - 1;
            if (!reaches(m, d, m->corner_reach[nc + (size_t)by * nbx + bx], x0, y0, x1, y1)) continue;
            for (uint32_t cy = y0; cy <= y1; cy++)
                for (uint32_t cx = x0; cx <= x1; cx++) {
                    size_t c = (size_t)cy * m->bnx + cx;
                    if (!reaches(m, d, m->corner_reach[c], cx, cy, cx, cy)) continue;
                    for (uint32_t k = m->tstart[c]; k < m->tstart[c + 1]; k++) {
                        uint32_t t = m->titem[k];
                        if (s->tmark[t] == s->gen || s->changed[t]) continue;
                        s->tmark[t] = s->gen;
                        for (int i = 0; i < 3; i++)
                            if (!clean_within(m, d, mg_v(m, t, i), m->width[3 * (size_t)t + (size_t)i]))
                                rewiden(m, s, t, i);
                    }
                }
        }
}

// corner_reach (mesh.h) from the widths as first put (before the area
// corners lower some).
void steerN_mesh_corner_reach(steerN_Mesh *m)
{
    size_t n = mg_reach_len(m);
    for (size_t c = 0; c < n; c++) m->corner_reach[c] = 0;
    m->corner_reach_max = 0;
    for (uint32_t t = 0; t < m->ntri; t++)
        for (int i = 0; i < 3 && !steerN_mesh_dead(m, t); i++)
            raise_reach(m, vertex_cell(m, m->tri[3 * t + (uint32_t)i]), m->width[3 * t + (uint32_t)i]);
}

const double *steerN_mesh_areas(const steerN_Mesh *mc)
{
    steerN_Mesh *m = (steerN_Mesh *)mc; // (the sum is derived data: summing it changes no answer)
    if (atomic_load_explicit(&m->cum_stale, memory_order_acquire) >= m->ntri) return m->cum_area;
    int idle = 0;
    while (!atomic_compare_exchange_weak_explicit(&m->cum_lock, &idle, 1, memory_order_acquire, memory_order_relaxed))
        idle = 0;
    uint32_t first = atomic_load_explicit(&m->cum_stale, memory_order_relaxed);
    if (first < m->ntri) {
        double sum = first ? m->cum_area[first - 1] : 0;
        for (uint32_t t = first; t < m->ntri; t++) {
            sum += 0.5 * mg_orient(mg_v(m, t, 0), mg_v(m, t, 1), mg_v(m, t, 2));
            m->cum_area[t] = sum;
        }
        atomic_store_explicit(&m->cum_stale, UINT32_MAX, memory_order_release);
    }
    atomic_store_explicit(&m->cum_lock, 0, memory_order_release);
    return m->cum_area;
}

int steerN_mesh_update(steerN_Mesh *m, const steerN_MeshChange *ch, steerN_UpdateScratch *s, const steerN_Mesh *base)
{
    if (!m->prepared || !m->corner_reach) return 1;
    uint32_t nt = m->ntri, nv = m->nvert, ot = ch->old_ntri, ov = ch->old_nvert;
    size_t nc = (size_t)m->bnx * m->bny;
    Dirty d = { .lo = { INFINITY, INFINITY }, .hi = { -INFINITY, -INFINITY }, .changed = s->changed };
    int rc = -1;
    if (steerN_update_scratch_room(&m->alloc, s, nt > ot ? nt : ot, nv, nc)) goto out;
    d.cell = s->cell;
    if (regrab(m, (void **)&m->width, sizeof *m->width * 3, ot, nt) ||
        regrab(m, (void **)&m->back, sizeof *m->back * 3, ot, nt) ||
        regrab(m, (void **)&m->cum_area, sizeof *m->cum_area, ot, nt) ||
        regrab(m, (void **)&m->front, sizeof *m->front, ov, nv) ||
        regrab(m, (void **)&m->front_next, sizeof *m->front_next, ov, nv))
        goto out;
    if (!same_grid(m, base)) return 1; // (its arrays sized for m: a whole prepare frees them)
    // the dirty cells: the old triangles' boxes and the new
    uint32_t first = nt;
    for (uint32_t j = 0; j < ch->nslot; j++) {
        uint32_t t = ch->slot[j];
        if (mark(m, &d, ch->obox + 4 * (size_t)j, ch->obox + 4 * (size_t)j + 2)) goto out;
        first = t < first ? t : first;
        if (t >= nt || steerN_mesh_dead(m, t)) continue;
        double lo[2], hi[2];
        tri_box(m, t, lo, hi);
        if (mark(m, &d, lo, hi)) goto out;
    }
    if (d.n) qsort(d.list, d.n, sizeof *d.list, cmp_u32);
    if (update_index(m, ch, &d, false, m->tstart, &m->titem) || update_index(m, ch, &d, true, m->wstart, &m->witem))
        goto out;
    // the neighbours' edges
    for (uint32_t j = 0; j < ch->nslot + ch->nadj; j++) {
        uint32_t t = j < ch->nslot ? ch->slot[j] : ch->adj[j - ch->nslot];
        for (int i = 0; t < nt && i < 3; i++) {
            int32_t u = m->adj[3 * t + (uint32_t)i];
            m->back[3 * t + (uint32_t)i] = u < 0 ? 0 : (uint8_t)mg_back_edge(m, (uint32_t)u, t);
        }
    }
    // the widths: the changed triangles', and the others' whose disc reaches a change
    for (uint32_t j = 0; j < ch->nslot; j++) {
        uint32_t t = ch->slot[j];
        for (int i = 0; t < nt && i < 3; i++)
            if (steerN_mesh_dead(m, t)) m->width[3 * t + (uint32_t)i] = 0;
            else rewiden(m, s, t, i);
    }
    if (ch->areas)
        for (uint32_t t = 0; t < nt; t++)
            for (int i = 0; i < 3 && !s->changed[t] && !steerN_mesh_dead(m, t); i++)
                if (!m->vwall[m->tri[3 * t + (uint32_t)i]]) rewiden(m, s, t, i);
    rewiden_near(m, s, &d);
    // the running area sum: stale from the lowest changed slot on (summed when read)
    if (first < atomic_load(&m->cum_stale)) atomic_store(&m->cum_stale, first);
    // the fronts: new vertices, those whose walls changed, those near a change
    next_gen(s);
    for (uint32_t v = ov; v < nv; v++) refront(m, s, v);
    for (uint32_t j = 0; j < ch->nvert; j++)
        if (ch->vert[j] < nv) refront(m, s, ch->vert[j]);
    for (size_t j = 0; j < d.n; j++) {
        uint32_t c = d.list[j], cx = c % m->bnx, cy = c / m->bnx;
        for (uint32_t y = cy ? cy - 1 : 0; y <= cy + 1 && y < m->bny; y++)
            for (uint32_t x = cx ? cx - 1 : 0; x <= cx + 1 && x < m->bnx; x++) {
                size_t e = (size_t)y * m->bnx + x;
                for (uint32_t k = m->tstart[e]; k < m->tstart[e + 1]; k++)
                    for (int i = 0; i < 3; i++) {
                        uint32_t v = m->tri[3 * m->titem[k] + (uint32_t)i];
                        if (s->vmark[v] != s->gen && !front_clean(m, &d, v)) refront(m, s, v);
                    }
            }
    }
    if (ch->areas) steerN_mesh_area_corner_widths(m);
    m->prepare_id = steerN_mesh_new_prepare_id();
    rc = 0;
out:
    for (size_t j = 0; j < d.n; j++) d.cell[d.list[j]] = 0;
    steerN_realloc(&m->alloc, d.list, sizeof *d.list * d.cap, 0);
    if (rc) steerN_mesh_derived_free(m);
    return rc;
}

const char *steerN_mesh_derived_diff(const steerN_Mesh *a, const steerN_Mesh *b)
{
    if (a->nvert != b->nvert || a->ntri != b->ntri) return "counts";
    if (!a->prepared || !b->prepared) return "prepared";
    if (memcmp(a->bmin, b->bmin, sizeof a->bmin) || memcmp(a->bmax, b->bmax, sizeof a->bmax) || a->bcell != b->bcell ||
        a->bnx != b->bnx || a->bny != b->bny)
        return "grid";
    size_t nt = a->ntri, nv = a->nvert, nc = (size_t)a->bnx * a->bny;
    if (memcmp(a->width, b->width, sizeof *a->width * 3 * nt)) return "width";
    if (memcmp(a->back, b->back, sizeof *a->back * 3 * nt)) return "back";
    if (memcmp(steerN_mesh_areas(a), steerN_mesh_areas(b), sizeof *a->cum_area * nt)) return "cum_area";
    if (memcmp(a->front, b->front, sizeof *a->front * nv)) return "front";
    if (memcmp(a->front_next, b->front_next, sizeof *a->front_next * nv)) return "front_next";
    if (memcmp(a->tstart, b->tstart, sizeof *a->tstart * (nc + 1)) ||
        memcmp(a->titem, b->titem, sizeof *a->titem * a->tstart[nc]))
        return "locate index";
    if (memcmp(a->wstart, b->wstart, sizeof *a->wstart * (nc + 1)) ||
        memcmp(a->witem, b->witem, sizeof *a->witem * a->wstart[nc]))
        return "wall index";
    return NULL;
}
