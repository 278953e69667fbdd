// SPDX-License-Identifier: MIT
// mesh_update.c — the derived data of a mesh that changed in places (an
// obstacle added, moved or removed: mesh_dyn.c), from the derived data of
// the mesh before, the same bits as a whole steerN_mesh_prepare gives.
//
// The index grid stays (a mesh with obstacles sizes it for its base's
// triangles, and its vertices' box does not move), so a cell's lists
// change only where a changed triangle (gone from the old mesh, or new in
// this one) lies: the dirty cells, each changed triangle's box's cells.
// The triangles that stay keep their order among themselves (tmap rises),
// so a clean cell's lists are the old ones renumbered, still sorted, and
// a dirty one's the old items that stay renumbered merged with the new
// ones that overlap it. What else reads the mesh reads it within a
// distance it knows:
//   - a corner's width is the distance to the nearest wall point beyond
//     the opposite edge in the corner's wedge (or to a wall vertex at the
//     edge's ends), so it stays while no changed triangle comes within
//     that distance of the corner (a disc's box against the dirty cells);
//     corners at vertices no wall ends at are worked out again, since
//     steerN_mesh_area_corner_widths lowers them;
//   - front[v] reads the wall index's cells within one of v's own: it
//     stays (renumbered) while those are clean;
//   - cum_area is a running sum: it stays up to the first triangle whose
//     index changed.
// The widths' searches and the index's tests are mesh_query.c's own; the
// area corners are done as a whole prepare does them.
#include "mesh_geom.h"
#include "mesh_snap.h"

#include <stdlib.h>
#include <string.h>

#define SCAN_CELLS 64 // a disc's box of more cells than this is taken as dirty without looking

typedef struct Dirty {
    uint8_t *cell;           // per cell: 1 when a changed triangle's box covers it
    double lo[2], hi[2];     // the changed triangles' boxes' union
    const uint32_t *tmap;    // old triangle -> new, UINT32_MAX gone
    const uint32_t *old_of;  // new triangle -> old, UINT32_MAX new
    const uint32_t *changed; // the new triangles no old one maps to
    uint32_t nchanged;
    uint32_t first; // the first triangle whose index changed: those before it keep theirs
} Dirty;

static void tri_box(const steerN_Mesh *m, uint32_t t, double lo[2], double hi[2])
{
    lo[0] = lo[1] = INFINITY, hi[0] = hi[1] = -INFINITY;
    for (int i = 0; i < 3; i++) {
        const double *v = mg_v(m, t, i);
        for (int j = 0; j < 2; j++) lo[j] = v[j] < lo[j] ? v[j] : lo[j], hi[j] = v[j] > hi[j] ? v[j] : hi[j];
    }
}

// Mark the cells of triangle t of mesh g (the old mesh or the new: one grid).
static void mark(const steerN_Mesh *m, const steerN_Mesh *g, Dirty *d, uint32_t t)
{
    double lo[2], hi[2];
    tri_box(g, t, lo, hi);
    for (int j = 0; j < 2; j++) d->lo[j] = mg_min(d->lo[j], lo[j]), d->hi[j] = mg_max(d->hi[j], hi[j]);
    uint32_t x0, x1, y0, y1;
    steerN_mesh_cell_range(m, lo[0], hi[0], 0, &x0, &x1);
    steerN_mesh_cell_range(m, lo[1], hi[1], 1, &y0, &y1);
    for (uint32_t cy = y0; cy <= y1; cy++) memset(d->cell + (size_t)cy * m->bnx + x0, 1, x1 - x0 + 1);
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

// Old item k (a triangle, or the wall edge k) renumbered, UINT32_MAX gone.
static uint32_t renumber(const Dirty *d, uint32_t k, bool wall)
{
    uint32_t t = d->tmap[wall ? k / 3 : k];
    return t == UINT32_MAX ? t : wall ? 3 * t + k % 3 : t;
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

// One index (as mesh_query.c's build_index makes it) from old's.
static int update_index(steerN_Mesh *m, const steerN_Mesh *old, const Dirty *d, bool wall, uint32_t **start,
                        uint32_t **item)
{
    const steerN_Alloc *a = &m->alloc;
    size_t nc = (size_t)m->bnx * m->bny, npair = 0, cap = 0;
    const uint32_t *ostart = wall ? old->wstart : old->tstart, *oitem = wall ? old->witem : old->titem;
    uint64_t *pair = NULL; // (cell << 32 | item) of the new triangles' items
    for (uint32_t j = 0; j < d->nchanged; j++) {
        uint32_t t = d->changed[j];
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
                    if (steerN_grow(a, (void **)&pair, &cap, npair + 1, sizeof *pair)) {
                        steerN_realloc(a, pair, sizeof *pair * cap, 0);
                        return -1;
                    }
                    pair[npair++] = ((uint64_t)((size_t)cy * m->bnx + cx) << 32) | k;
                }
        }
    }
    if (npair) qsort(pair, npair, sizeof *pair, cmp_u64);
    int rc = -1;
    *start = steerN_mesh_grab(m, sizeof **start * (nc + 1));
    if (!*start) goto out;
    // counts: a clean cell's old items all stay; a dirty one's those that do, and its new ones
    uint64_t total = 0;
    size_t p = 0;
    for (size_t c = 0; c < nc; c++) {
        (*start)[c] = (uint32_t)total;
        uint32_t n = ostart[c + 1] - ostart[c];
        if (d->cell[c]) {
            n = 0;
            for (uint32_t j = ostart[c]; j < ostart[c + 1]; j++) n += renumber(d, oitem[j], wall) != UINT32_MAX;
            for (; p < npair && pair[p] >> 32 == c; p++) n++;
        }
        total += n;
        if (total > UINT32_MAX) goto out;
    }
    (*start)[nc] = (uint32_t)total;
    *item = steerN_mesh_grab(m, sizeof **item * total);
    if (!*item) goto out;
    p = 0;
    uint32_t lim = wall ? 3 * d->first : d->first; // items below it keep their numbers
    for (size_t c = 0; c < nc; c++) {
        uint32_t *out = *item + (*start)[c], n = 0, j = ostart[c];
        if (!d->cell[c]) {
            // the clean cells up to the next dirty one: their items at once, then renumbered
            size_t e = c;
            while (e + 1 < nc && !d->cell[e + 1]) e++;
            uint32_t len = ostart[e + 1] - ostart[c];
            memcpy(out, oitem + ostart[c], sizeof *out * len);
            for (uint32_t i = 0; i < len; i++)
                if (out[i] >= lim) out[i] = renumber(d, out[i], wall);
            c = e;
            continue;
        }
        // both sorted: merge (the two never hold the same item)
        for (;;) {
            uint32_t x = UINT32_MAX;
            while (j < ostart[c + 1] && (x = renumber(d, oitem[j], wall)) == UINT32_MAX) j++;
            bool have_old = j < ostart[c + 1], have_new = p < npair && pair[p] >> 32 == c;
            if (!have_old && !have_new) break;
            if (have_new && (!have_old || (uint32_t)pair[p] < x)) {
                out[n++] = (uint32_t)pair[p++];
            } else {
                out[n++] = x;
                j++;
            }
        }
    }
    rc = 0;
out:
    steerN_realloc(a, pair, sizeof *pair * cap, 0);
    return rc;
}

// near[c]: some cell within one of cell c holds a change (what v's front reads: front_clean).
static uint8_t *dilate(const steerN_Mesh *m, const Dirty *d)
{
    uint8_t *near = steerN_realloc(&m->alloc, NULL, 0, (size_t)m->bnx * m->bny);
    if (!near) return NULL;
    memset(near, 0, (size_t)m->bnx * m->bny);
    for (uint32_t cy = 0; cy < m->bny; cy++)
        for (uint32_t cx = 0; cx < m->bnx; cx++) {
            if (!d->cell[(size_t)cy * m->bnx + cx]) continue;
            for (uint32_t y = cy ? cy - 1 : 0; y <= cy + 1 && y < m->bny; y++)
                for (uint32_t x = cx ? cx - 1 : 0; x <= cx + 1 && x < m->bnx; x++) near[(size_t)y * m->bnx + x] = 1;
        }
    return near;
}

static bool front_clean(const steerN_Mesh *m, const Dirty *d, const uint8_t *near, uint32_t v)
{
    // three cells off the changes' box: no dirty cell within one of v's (without finding v's)
    const double *p = m->xy + 2 * v, g = 3 * m->bcell;
    if (p[0] < d->lo[0] - g || p[0] > d->hi[0] + g || p[1] < d->lo[1] - g || p[1] > d->hi[1] + g) return true;
    uint32_t cx, cy;
    steerN_mesh_cell_range(m, m->xy[2 * v], m->xy[2 * v], 0, &cx, &cx);
    steerN_mesh_cell_range(m, m->xy[2 * v + 1], m->xy[2 * v + 1], 1, &cy, &cy);
    return !near[(size_t)cy * m->bnx + cx];
}

// The grid steerN_mesh_grid makes: the box of the base's vertices (m's
// first ones) and the new ones after them.
static void grid_of(steerN_Mesh *m, const steerN_Mesh *base)
{
    double lo[2] = { base->bmin[0], base->bmin[1] }, hi[2] = { base->bmax[0], base->bmax[1] };
    for (uint32_t v = base->nvert; v < m->nvert; v++)
        for (int j = 0; j < 2; j++) lo[j] = mg_min(lo[j], m->xy[2 * v + j]), hi[j] = mg_max(hi[j], m->xy[2 * v + j]);
    if (lo[0] == base->bmin[0] && lo[1] == base->bmin[1] && hi[0] == base->bmax[0] && hi[1] == base->bmax[1] &&
        m->grid_tris == (base->grid_tris ? base->grid_tris : base->ntri) && base->prepared && base->nvert <= m->nvert) {
        memcpy(m->bmin, base->bmin, sizeof m->bmin), memcpy(m->bmax, base->bmax, sizeof m->bmax);
        m->bcell = base->bcell, m->bnx = base->bnx, m->bny = base->bny;
    } else {
        steerN_mesh_grid(m);
    }
}

int steerN_mesh_prepare_update(steerN_Mesh *m, const steerN_Mesh *old, const uint32_t *tmap, const steerN_Mesh *base)
{
    if (!old->prepared) return 1;
    if (m->aux_free) m->aux_free(m);
    grid_of(m, base);
    uint32_t nkeep = base->nvert;
    if (m->bmin[0] != old->bmin[0] || m->bmin[1] != old->bmin[1] || m->bmax[0] != old->bmax[0] ||
        m->bmax[1] != old->bmax[1] || m->bcell != old->bcell || m->bnx != old->bnx || m->bny != old->bny)
        return 1;
    m->aux_free = steerN_mesh_aux_free;
    const steerN_Alloc *a = &m->alloc;
    uint32_t nt = m->ntri, ot = old->ntri;
    size_t nc = (size_t)m->bnx * m->bny;
    Dirty d = { .lo = { INFINITY, INFINITY }, .hi = { -INFINITY, -INFINITY }, .tmap = tmap };
    uint32_t *old_of = steerN_realloc(a, NULL, 0, sizeof *old_of * (nt + 1));
    uint32_t *changed = steerN_realloc(a, NULL, 0, sizeof *changed * (nt + 1));
    steerN_WidthScratch s = { 0 };
    uint8_t *near = NULL;
    s.seen = steerN_realloc(a, NULL, 0, sizeof *s.seen * (nt + 1));
    s.stack = steerN_realloc(a, NULL, 0, sizeof *s.stack * (nt + 1));
    d.cell = steerN_realloc(a, NULL, 0, nc);
    m->width = steerN_mesh_grab(m, sizeof *m->width * 3 * nt);
    m->cum_area = steerN_mesh_grab(m, sizeof *m->cum_area * nt);
    m->back = steerN_mesh_grab(m, sizeof *m->back * 3 * nt);
    m->front = steerN_mesh_grab(m, sizeof *m->front * m->nvert);
    m->front_next = steerN_mesh_grab(m, sizeof *m->front_next * m->nvert);
    int rc = -1;
    if (!old_of || !changed || !s.seen || !s.stack || !d.cell || !m->width || !m->cum_area || !m->back || !m->front ||
        !m->front_next)
        goto out;
    memset(s.seen, 0, sizeof *s.seen * (nt + 1));
    memset(d.cell, 0, nc);
    for (uint32_t t = 0; t < nt; t++) old_of[t] = UINT32_MAX;
    for (uint32_t t = 0; t < ot; t++)
        if (tmap[t] == UINT32_MAX) mark(m, old, &d, t);
        else old_of[tmap[t]] = t;
    uint32_t first = nt; // the first triangle whose index changed
    for (uint32_t t = 0; t < nt; t++) {
        if (old_of[t] != t && first == nt) first = t;
        if (old_of[t] == UINT32_MAX) mark(m, m, &d, t), changed[d.nchanged++] = t;
    }
    d.old_of = old_of;
    d.changed = changed;
    d.first = first;
    double sum = first ? old->cum_area[first - 1] : 0;
    if (first) memcpy(m->cum_area, old->cum_area, sizeof *m->cum_area * first);
    for (uint32_t t = 0; t < nt; t++) {
        uint32_t o = old_of[t];
        for (int i = 0; i < 3; i++) {
            int32_t u = m->adj[3 * t + i];
            size_t k = 3 * (size_t)t + (size_t)i, ok = 3 * (size_t)o + (size_t)i;
            if (u < 0) m->back[k] = 0;
            else if (o != UINT32_MAX && old_of[u] != UINT32_MAX) m->back[k] = old->back[ok];
            else m->back[k] = (uint8_t)mg_back_edge(m, (uint32_t)u, t);
            const double *c = mg_v(m, t, i);
            if (o != UINT32_MAX && m->vwall[m->tri[k]] && clean_within(m, &d, c, old->width[ok]))
                m->width[k] = old->width[ok];
            else m->width[k] = steerN_mesh_corner_width(m, &s, t, i);
        }
        if (t >= first) {
            sum += 0.5 * mg_orient(mg_v(m, t, 0), mg_v(m, t, 1), mg_v(m, t, 2));
            m->cum_area[t] = sum;
        }
    }
    if (update_index(m, old, &d, false, &m->tstart, &m->titem) || update_index(m, old, &d, true, &m->wstart, &m->witem))
        goto out;
    if (!(near = dilate(m, &d))) goto out;
    for (uint32_t v = 0; v < m->nvert; v++) {
        uint32_t e = v < nkeep && v < old->nvert ? old->front[v] : 0;
        uint32_t ne = e == UINT32_MAX ? e : renumber(&d, e, true);
        if (v < nkeep && v < old->nvert && (e == UINT32_MAX || ne != UINT32_MAX) && front_clean(m, &d, near, v)) {
            m->front[v] = ne;
            m->front_next[v] = old->front_next[v];
        } else {
            steerN_mesh_front_walls(m, v);
        }
    }
    m->prepared = true;
    steerN_mesh_area_corner_widths(m);
    m->prepare_id = steerN_mesh_new_prepare_id();
    rc = 0;
out:
    steerN_realloc(a, old_of, sizeof *old_of * (nt + 1), 0);
    steerN_realloc(a, changed, sizeof *changed * (nt + 1), 0);
    steerN_realloc(a, s.seen, sizeof *s.seen * (nt + 1), 0);
    steerN_realloc(a, s.stack, sizeof *s.stack * (nt + 1), 0);
    steerN_realloc(a, d.cell, nc, 0);
    steerN_realloc(a, near, nc, 0);
    if (rc) steerN_mesh_derived_free(m);
    return rc;
}

void steerN_mesh_take_derived(steerN_Mesh *to, steerN_Mesh *from)
{
    to->grid_tris = from->grid_tris, to->prepared = from->prepared;
    to->width = from->width, to->back = from->back, to->front = from->front, to->front_next = from->front_next;
    to->cum_area = from->cum_area;
    memcpy(to->bmin, from->bmin, sizeof to->bmin), memcpy(to->bmax, from->bmax, sizeof to->bmax);
    to->bcell = from->bcell, to->bnx = from->bnx, to->bny = from->bny;
    to->tstart = from->tstart, to->titem = from->titem, to->wstart = from->wstart, to->witem = from->witem;
    to->aux_free = from->aux_free, to->derived_bytes = from->derived_bytes, to->prepare_id = from->prepare_id;
    from->width = from->cum_area = NULL;
    from->back = NULL;
    from->front = NULL;
    from->front_next = NULL;
    from->tstart = from->titem = from->wstart = from->witem = NULL;
    from->aux_free = NULL;
    from->derived_bytes = 0;
    from->prepared = false;
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
    if (memcmp(a->cum_area, b->cum_area, sizeof *a->cum_area * nt)) return "cum_area";
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
