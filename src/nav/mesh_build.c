// SPDX-License-Identifier: MIT
// mesh_build.c — a navigation mesh from 2D polygons (or a grid), exactly,
// in integers (the contract: mesh.h, "mesh_build.c").
//
// 1. Rings to integer segments: every point quantized (1 mm), consecutive
//    repeats removed; a ring left with fewer than 3 points, or all on one
//    line, encloses nothing and is dropped. An obstacle ring winding
//    clockwise (by its exact signed area) counts reversed, so every
//    obstacle winds counter-clockwise. An obstacle ring whose sides meet
//    other than at consecutive sides' shared corner (it crosses or
//    touches itself: a figure eight) is "knotted": its lobes may wind
//    either way, so it is classified by itself, like an area ring (4.).
// 2. Snap rounding (mesh_snap.c): fragments that never cross. Coinciding
//    fragments are one, carrying what each ring gives it: per role, what
//    crossing it from its right to its left changes —
//      outline   the parity of the outline rings' pieces on it (even-odd);
//      obstacle  the sum of the simple obstacles' signed pieces (a winding
//                number: each is 0 or 1 around a point, so the sum is 0
//                exactly outside all of them);
//      area ring and knotted obstacle: that ring's own signed pieces
//                (its winding number).
//    A fragment that changes nothing (a ring's spike out and back, two
//    obstacles' shared side) is dropped, and so are the points only such
//    fragments used: what is left is the boundary and the area borders.
// 3. The constrained Delaunay triangulation (cdt.c) of those points and
//    fragments.
// 4. Classification by flooding across edges, each crossing adding what
//    its fragment carries: outline parity and obstacle winding from
//    outside the hull (both 0 there); each area ring by itself, within the
//    triangles inside it or on its fragments, starting from a triangle
//    whose winding a ray cast finds; so is each knotted obstacle.
//    Walkable: odd outline parity, no simple obstacles' winding and no
//    knotted obstacle's winding around it (so overlaps, and a knotted
//    obstacle's every lobe, whichever way it winds, are carved, whatever
//    else overlaps them). Each triangle takes the area of the last area
//    ring (in input order) winding around it.
//    Every edge is checked afterwards: the values on its two sides must
//    differ by what it carries, or the build reports INTERNAL.
// 5. The walkable triangles, in the triangulation's order (which depends on
//    the sorted points alone), their vertices in (x, y) order; a neighbour
//    that is not walkable is a wall.
// Determinism: every step works on sorted, deduplicated sets decided by
// exact integer tests, so the rings in any order, from any starting point
// (and obstacles in either winding) give the same mesh, bit for bit; only
// the order of the area rings matters, by design.
#include "cdt.h"
#include "mesh.h"
#include "mesh_snap.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 i128;

typedef struct Frag {
    uint32_t p, q; // points, p < q
    uint8_t par;   // the outline parity it flips
    int32_t obst;  // the obstacle winding it adds, crossing p->q from right to left
} Frag;

typedef struct AreaEdge { // an area ring's fragment
    uint32_t ring, frag;
    int32_t delta;
} AreaEdge;

typedef struct SideKey {
    int64_t lo; // a ring side's least x
    uint32_t i; // the side: points i, i + 1
} SideKey;

typedef struct Build {
    const steerN_MeshSpec *spec;
    steerN_Alloc alloc;
    steerN_MeshError *err;
    steerN_SnapSeg *seg;
    size_t nseg, cap_seg;
    int64_t *rp; // one ring's points
    size_t cap_rp;
    steerN_Snapped sn;
    Frag *frag;
    size_t nfrag, cap_frag;
    AreaEdge *ae; // the area rings' and knotted obstacles' fragments
    size_t nae, cap_ae;
    uint8_t *knot;  // per ring: a knotted obstacle
    SideKey *order; // one ring's sides, by their least x
    int64_t *pt;    // the points the kept fragments use, in (x, y) order
    uint32_t npt;
    uint32_t *segs;   // the fragments as the triangulation's segments
    uint32_t *fstart; // npt + 1: the fragments from point p are frag[fstart[p] .. fstart[p + 1])
    steerN_Cdt cdt;
    int32_t *edge_frag;  // 3 per triangle: the fragment on the edge, or -1
    uint32_t *frag_edge; // per fragment: an edge (3 t + i) lying on it
    uint8_t *par;        // per triangle: outline parity
    int32_t *wob;        // per triangle: obstacle winding
    uint8_t *area;       // per triangle
    uint8_t *blk;        // per triangle: inside a knotted obstacle
    uint32_t *queue;
    uint32_t *tvis, *tseed; // per triangle: 1 + the area ring that visited it, that it borders
    int32_t *tw;            // per triangle: the area ring's winding
    uint32_t *fstamp;       // per fragment: 1 + the area ring that carries it now
    int32_t *fdelta;        // ... and by how much
} Build;

static void *balloc(Build *b, size_t n) { return steerN_realloc(&b->alloc, NULL, 0, n ? n : 1); }
static void bfree(Build *b, void *p, size_t n) { steerN_realloc(&b->alloc, p, n ? n : 1, 0); }

static void fail(Build *b, steerN_MeshStatus st, uint32_t ring, uint32_t point, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void fail(Build *b, steerN_MeshStatus st, uint32_t ring, uint32_t point, const char *fmt, ...)
{
    steerN_MeshError *e = b->err;
    e->status = st;
    e->ring = ring;
    e->point = point;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
}
static void nomem(Build *b) { fail(b, STEERN_MESH_NOMEM, 0, 0, "steerN_mesh_build: out of memory"); }

// ---- 1. rings to segments ------------------------------------------------------

static bool check_spec(Build *b)
{
    const steerN_MeshSpec *s = b->spec;
    if (s->nareas < 1 || s->nareas > STEERN_MESH_AREAS) {
        fail(b, STEERN_MESH_BADAREA, 0, 0, "steerN_mesh_build: nareas %u, expected 1 to %d", s->nareas,
             STEERN_MESH_AREAS);
        return false;
    }
    for (uint32_t i = 0; i < s->nareas; i++) {
        const char *name = s->area_names && s->area_names[i] ? s->area_names[i] : "";
        if (strlen(name) >= STEERN_MESH_AREA_NAME) {
            fail(b, STEERN_MESH_BADAREA, i, 0, "steerN_mesh_build: area %u's name is longer than %d bytes", i,
                 STEERN_MESH_AREA_NAME - 1);
            return false;
        }
        float c = s->area_costs ? s->area_costs[i] : 1.0f;
        if (!(c > 0)) {
            fail(b, STEERN_MESH_BADAREA, i, 0, "steerN_mesh_build: area %u's cost %g, expected > 0 (or infinity)", i,
                 (double)c);
            return false;
        }
    }
    uint32_t begin = 0;
    for (uint32_t k = 0; k < s->nrings; begin = s->ring_end[k++]) {
        uint32_t end = s->ring_end[k];
        int32_t role = s->ring_role[k];
        if (end < begin || end - begin < 3) {
            fail(b, STEERN_MESH_BADRING, k, 0, "steerN_mesh_build: ring %u has %d points, expected at least 3", k,
                 end < begin ? -1 : (int)(end - begin));
            return false;
        }
        if (role != STEERN_RING_OUTLINE && role != STEERN_RING_OBSTACLE && (role < 1 || (uint32_t)role >= s->nareas)) {
            char areas[40] = "";
            if (s->nareas > 1) snprintf(areas, sizeof areas, " or an area 1 to %u", s->nareas - 1);
            fail(b, STEERN_MESH_BADRING, k, 0,
                 "steerN_mesh_build: ring %u's role %d, expected outline (-1), obstacle (-2)%s", k, role, areas);
            return false;
        }
        for (uint32_t i = begin; i < end; i++)
            for (int c = 0; c < 2; c++) {
                int64_t q;
                if (!steerN_mesh_quantize(s->xy[2 * i + c], &q)) {
                    fail(b, STEERN_MESH_BADPOINT, k, i - begin,
                         "steerN_mesh_build: ring %u point %u: %c = %g, expected a finite number within %.3g m", k,
                         i - begin, "xy"[c], s -> xy[2 * i + c], (double)STEERN_COORD_MAX / STEERN_MESH_SCALE);
                    return false;
                }
            }
    }
    return true;
}

// Ring k's quantized points without consecutive repeats (the last against
// the first too): their number.
static size_t ring_points(Build *b, uint32_t k)
{
    const steerN_MeshSpec *s = b->spec;
    uint32_t begin = k ? s->ring_end[k - 1] : 0, end = s->ring_end[k];
    size_t n = 0;
    for (uint32_t i = begin; i < end; i++) {
        int64_t q[2];
        steerN_mesh_quantize(s->xy[2 * i], &q[0]);
        steerN_mesh_quantize(s->xy[2 * i + 1], &q[1]);
        if (n && q[0] == b->rp[2 * n - 2] && q[1] == b->rp[2 * n - 1]) continue;
        b->rp[2 * n] = q[0];
        b->rp[2 * n + 1] = q[1];
        n++;
    }
    while (n > 1 && b->rp[0] == b->rp[2 * n - 2] && b->rp[1] == b->rp[2 * n - 1]) n--;
    return n;
}

static int cmp_side(const void *pa, const void *pb)
{
    const SideKey *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

// Whether ring p[0..n)'s sides meet only where consecutive ones share a
// corner (a sweep over the sides by their least x, exact tests).
static bool ring_simple(Build *b, const int64_t *p, uint32_t n)
{
    SideKey *o = b->order;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = (i + 1) % n;
        o[i] = (SideKey){ p[2 * i] < p[2 * j] ? p[2 * i] : p[2 * j], i };
    }
    qsort(o, n, sizeof *o, cmp_side);
    for (uint32_t u = 0; u < n; u++) {
        uint32_t i = o[u].i, i1 = (i + 1) % n;
        int64_t hi = p[2 * i] > p[2 * i1] ? p[2 * i] : p[2 * i1];
        for (uint32_t w = u + 1; w < n && o[w].lo <= hi; w++) {
            uint32_t j = o[w].i, j1 = (j + 1) % n;
            steerN_Meet mt = steerN_segments_meet(p + 2 * i, p + 2 * i1, p + 2 * j, p + 2 * j1);
            if (mt == STEERN_APART) continue;
            // consecutive sides share a corner; only folding back over each other is more
            if ((i1 == j || j1 == i) && mt == STEERN_TOUCH) continue;
            return false;
        }
    }
    return true;
}

static int ring_segments(Build *b)
{
    const steerN_MeshSpec *s = b->spec;
    size_t most = 0;
    for (uint32_t k = 0, begin = 0; k < s->nrings; begin = s->ring_end[k++])
        if (s->ring_end[k] - begin > most) most = s->ring_end[k] - begin;
    b->rp = balloc(b, 2 * most * sizeof *b->rp);
    b->cap_rp = most;
    b->order = balloc(b, most * sizeof *b->order);
    b->knot = balloc(b, s->nrings);
    if (!b->rp || !b->order || !b->knot) return -1;
    if (s->nrings) memset(b->knot, 0, s->nrings);
    for (uint32_t k = 0; k < s->nrings; k++) {
        size_t n = ring_points(b, k);
        const int64_t *p = b->rp;
        size_t off = 1; // a point off the line of the first two: else the ring encloses nothing
        while (off + 1 < n && steerN_orient2d(p, p + 2, p + 2 * (off + 1)) == 0) off++;
        if (n < 3 || off + 1 >= n) continue;
        i128 area2 = 0; // twice the signed area, relative to the first point
        for (size_t i = 1; i + 1 < n; i++)
            area2 +=
                (i128)(p[2 * i] - p[0]) * (p[2 * i + 3] - p[1]) - (i128)(p[2 * i + 2] - p[0]) * (p[2 * i + 1] - p[1]);
        int32_t sign = s->ring_role[k] == STEERN_RING_OBSTACLE && area2 < 0 ? -1 : 1;
        if (s->ring_role[k] == STEERN_RING_OBSTACLE) b->knot[k] = !ring_simple(b, p, (uint32_t)n);
        if (steerN_grow(&b->alloc, (void **)&b->seg, &b->cap_seg, b->nseg + n, sizeof *b->seg)) return -1;
        for (size_t i = 0; i < n; i++) {
            steerN_SnapSeg *g = b->seg + b->nseg++;
            size_t j = (i + 1) % n;
            g->a[0] = p[2 * i];
            g->a[1] = p[2 * i + 1];
            g->b[0] = p[2 * j];
            g->b[1] = p[2 * j + 1];
            g->ring = k;
            g->sign = sign;
        }
    }
    return 0;
}

// ---- 2. fragments ----------------------------------------------------------------

static int cmp_piece(const void *pa, const void *pb)
{
    const steerN_Piece *a = pa, *b = pb;
    if (a->p != b->p) return a->p < b->p ? -1 : 1;
    if (a->q != b->q) return a->q < b->q ? -1 : 1;
    if (a->ring != b->ring) return a->ring < b->ring ? -1 : 1;
    return (a->dir > b->dir) - (a->dir < b->dir);
}

// Coinciding pieces into fragments carrying their rings' sums; the
// fragments that change nothing left out.
static int merge_pieces(Build *b)
{
    const int32_t *role = b->spec->ring_role;
    steerN_Piece *pc = b->sn.piece;
    size_t n = b->sn.npiece;
    if (n) qsort(pc, n, sizeof *pc, cmp_piece);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        Frag f = { pc[i].p, pc[i].q, 0, 0 };
        bool area = false;
        while (j < n && pc[j].p == f.p && pc[j].q == f.q) {
            size_t r = j;
            int32_t sum = 0;
            for (; r < n && pc[r].p == f.p && pc[r].q == f.q && pc[r].ring == pc[j].ring; r++) sum += pc[r].dir;
            int32_t rl = role[pc[j].ring];
            if (rl == STEERN_RING_OUTLINE) f.par ^= (uint8_t)((r - j) & 1);
            else if (rl == STEERN_RING_OBSTACLE && !b->knot[pc[j].ring]) f.obst += sum;
            else if (sum != 0) {
                if (steerN_grow(&b->alloc, (void **)&b->ae, &b->cap_ae, b->nae + 1, sizeof *b->ae)) return -1;
                b->ae[b->nae++] = (AreaEdge){ pc[j].ring, (uint32_t)b->nfrag, sum };
                area = true;
            }
            j = r;
        }
        if (f.par || f.obst || area) {
            if (steerN_grow(&b->alloc, (void **)&b->frag, &b->cap_frag, b->nfrag + 1, sizeof *b->frag)) return -1;
            b->frag[b->nfrag++] = f;
        }
        i = j;
    }
    return 0;
}

// The points the fragments use, renumbered in their (sorted) order.
static int keep_points(Build *b)
{
    uint32_t *idx = balloc(b, (size_t)b->sn.npt * sizeof *idx);
    if (!idx) return -1;
    memset(idx, 0xff, (size_t)b->sn.npt * sizeof *idx);
    for (size_t f = 0; f < b->nfrag; f++) idx[b->frag[f].p] = idx[b->frag[f].q] = 0;
    b->npt = 0;
    for (uint32_t i = 0; i < b->sn.npt; i++)
        if (idx[i] == 0) {
            idx[i] = b->npt;
            b->sn.pt[2 * b->npt] = b->sn.pt[2 * i]; // in place: npt <= i
            b->sn.pt[2 * b->npt + 1] = b->sn.pt[2 * i + 1];
            b->npt++;
        }
    b->pt = b->sn.pt;
    b->segs = balloc(b, 2 * b->nfrag * sizeof *b->segs);
    if (!b->segs) {
        bfree(b, idx, (size_t)b->sn.npt * sizeof *idx);
        return -1;
    }
    for (size_t f = 0; f < b->nfrag; f++) {
        b->frag[f].p = b->segs[2 * f] = idx[b->frag[f].p];
        b->frag[f].q = b->segs[2 * f + 1] = idx[b->frag[f].q];
    }
    bfree(b, idx, (size_t)b->sn.npt * sizeof *idx);
    return 0;
}

// ---- 4. classification -----------------------------------------------------------

static int32_t find_frag(const Build *b, uint32_t u, uint32_t v)
{
    uint32_t p = u < v ? u : v, q = u < v ? v : u;
    for (uint32_t f = b->fstart[p]; f < b->fstart[p + 1]; f++)
        if (b->frag[f].q == q) return (int32_t)f;
    return -1;
}

// The sign of crossing edge e (3 t + i) out of t relative to its
// fragment's right-to-left direction: its own edge runs p->q with t on
// the left, so leaving t crosses from left to right (-1).
static int32_t crossing_sign(const Build *b, uint32_t e, uint32_t f) { return b->cdt.tri[e] == b->frag[f].p ? -1 : 1; }

static int map_edges(Build *b)
{
    uint32_t nt = b->cdt.ntri;
    b->edge_frag = balloc(b, 3 * (size_t)nt * sizeof *b->edge_frag);
    b->frag_edge = balloc(b, b->nfrag * sizeof *b->frag_edge);
    if (!b->edge_frag || !b->frag_edge) return -1;
    memset(b->frag_edge, 0xff, b->nfrag * sizeof *b->frag_edge);
    b->fstart = balloc(b, ((size_t)b->npt + 1) * sizeof *b->fstart);
    if (!b->fstart) return -1;
    memset(b->fstart, 0, ((size_t)b->npt + 1) * sizeof *b->fstart);
    for (size_t f = 0; f < b->nfrag; f++) b->fstart[b->frag[f].p + 1]++;
    for (uint32_t i = 0; i < b->npt; i++) b->fstart[i + 1] += b->fstart[i];
    for (uint32_t t = 0; t < nt; t++)
        for (uint32_t i = 0; i < 3; i++) {
            b->edge_frag[3 * t + i] = -1;
            if (!(b->cdt.flags[t] >> i & 1)) continue;
            int32_t f = find_frag(b, b->cdt.tri[3 * t + i], b->cdt.tri[3 * t + (i + 1) % 3]);
            if (f < 0) return 1;
            b->edge_frag[3 * t + i] = f;
            b->frag_edge[f] = 3 * t + i;
        }
    for (size_t f = 0; f < b->nfrag; f++)
        if (b->frag_edge[f] == UINT32_MAX) return 1;
    return 0;
}

// Outline parity and obstacle winding, flooded from outside the hull.
static int flood_walls(Build *b)
{
    uint32_t nt = b->cdt.ntri, nq = 0;
    const int32_t *adj = b->cdt.adj;
    memset(b->tvis, 0, nt * sizeof *b->tvis);
    for (uint32_t s = 0; s < nt; s++) {
        if (b->tvis[s]) continue;
        uint32_t hull = 3;
        for (uint32_t i = 0; i < 3; i++)
            if (adj[3 * s + i] < 0) hull = i;
        if (hull == 3) continue;
        int32_t f = b->edge_frag[3 * s + hull];
        b->par[s] = f < 0 ? 0 : b->frag[f].par;
        b->wob[s] = f < 0 ? 0 : -crossing_sign(b, 3 * s + hull, (uint32_t)f) * b->frag[f].obst;
        b->tvis[s] = 1;
        b->queue[nq++] = s;
        for (uint32_t h = nq - 1; h < nq; h++) {
            uint32_t t = b->queue[h];
            for (uint32_t i = 0; i < 3; i++) {
                int32_t u = adj[3 * t + i];
                if (u < 0 || b->tvis[u]) continue;
                int32_t g = b->edge_frag[3 * t + i];
                b->par[u] = b->par[t] ^ (g < 0 ? 0 : b->frag[g].par);
                b->wob[u] = b->wob[t] + (g < 0 ? 0 : crossing_sign(b, 3 * t + i, (uint32_t)g) * b->frag[g].obst);
                b->tvis[u] = 1;
                b->queue[nq++] = (uint32_t)u;
            }
        }
    }
    if (nq != nt) return 1;
    for (uint32_t t = 0; t < nt; t++) // every edge: the two sides differ by what it carries
        for (uint32_t i = 0; i < 3; i++) {
            int32_t u = adj[3 * t + i], g = b->edge_frag[3 * t + i];
            uint8_t p = b->par[t] ^ (g < 0 ? 0 : b->frag[g].par);
            int32_t w = b->wob[t] + (g < 0 ? 0 : crossing_sign(b, 3 * t + i, (uint32_t)g) * b->frag[g].obst);
            if (u < 0 ? (p || w) : (p != b->par[u] || w != b->wob[u])) return 1;
        }
    return 0;
}

// Area ring `ring`'s winding around triangle t, by a ray cast over its
// fragments ae[lo..hi) (from 3 times t's centroid, which is on none).
static int32_t ray_winding(const Build *b, uint32_t t, size_t lo, size_t hi)
{
    int64_t c[2] = { 0, 0 };
    for (int k = 0; k < 3; k++) {
        c[0] += b->pt[2 * b->cdt.tri[3 * t + k]];
        c[1] += b->pt[2 * b->cdt.tri[3 * t + k] + 1];
    }
    int32_t w = 0;
    for (size_t e = lo; e < hi; e++) {
        const Frag *f = b->frag + b->ae[e].frag;
        int64_t a[2] = { 3 * b->pt[2 * f->p], 3 * b->pt[2 * f->p + 1] };
        int64_t d[2] = { 3 * b->pt[2 * f->q], 3 * b->pt[2 * f->q + 1] };
        if (a[1] <= c[1]) {
            if (d[1] > c[1] && steerN_orient2d(a, d, c) > 0) w += b->ae[e].delta;
        } else if (d[1] <= c[1] && steerN_orient2d(a, d, c) < 0) w -= b->ae[e].delta;
    }
    return w;
}

// One area ring or knotted obstacle (its fragments ae[lo..hi)): flood its
// winding through the triangles inside it or beside its fragments, each
// part of it from a triangle whose winding a ray cast gives; those it
// winds around get its area, or are blocked.
static int flood_area(Build *b, size_t lo, size_t hi)
{
    uint32_t ring = b->ae[lo].ring, mark = ring + 1, nq = 0;
    const int32_t *adj = b->cdt.adj;
    for (size_t e = lo; e < hi; e++) {
        uint32_t f = b->ae[e].frag, fe = b->frag_edge[f];
        b->fstamp[f] = mark;
        b->fdelta[f] = b->ae[e].delta;
        b->tseed[fe / 3] = mark;
        if (adj[fe] >= 0) b->tseed[adj[fe]] = mark;
    }
    for (size_t e = lo; e < hi; e++)
        for (int side = 0; side < 2; side++) {
            uint32_t fe = b->frag_edge[b->ae[e].frag];
            int32_t s = side ? adj[fe] : (int32_t)(fe / 3);
            if (s < 0 || b->tvis[s] == mark) continue;
            b->tvis[s] = mark;
            b->tw[s] = ray_winding(b, (uint32_t)s, lo, hi);
            b->queue[nq++] = (uint32_t)s;
            for (uint32_t h = nq - 1; h < nq; h++) {
                uint32_t t = b->queue[h];
                for (uint32_t i = 0; i < 3; i++) {
                    int32_t u = adj[3 * t + i], g = b->edge_frag[3 * t + i];
                    if (u < 0) continue;
                    int32_t w = b->tw[t];
                    if (g >= 0 && b->fstamp[g] == mark) w += crossing_sign(b, 3 * t + i, (uint32_t)g) * b->fdelta[g];
                    if (b->tvis[u] == mark) {
                        if (b->tw[u] != w) return 1;
                    } else if (w != 0 || b->tseed[u] == mark) {
                        b->tvis[u] = mark;
                        b->tw[u] = w;
                        b->queue[nq++] = (uint32_t)u;
                    }
                }
            }
        }
    int32_t role = b->spec->ring_role[ring];
    for (uint32_t h = 0; h < nq; h++)
        if (b->tw[b->queue[h]] != 0) {
            if (role == STEERN_RING_OBSTACLE) b->blk[b->queue[h]] = 1;
            else b->area[b->queue[h]] = (uint8_t)role;
        }
    return 0;
}

static int cmp_area_edge(const void *pa, const void *pb)
{
    const AreaEdge *a = pa, *b = pb;
    if (a->ring != b->ring) return a->ring < b->ring ? -1 : 1;
    return (a->frag > b->frag) - (a->frag < b->frag);
}

// 1 on a broken invariant, -1 out of memory, 0 done.
static int classify(Build *b)
{
    uint32_t nt = b->cdt.ntri;
    size_t nf = b->nfrag ? b->nfrag : 1;
    b->par = balloc(b, nt);
    b->wob = balloc(b, nt * sizeof *b->wob);
    b->area = balloc(b, nt);
    b->blk = balloc(b, nt);
    b->queue = balloc(b, nt * sizeof *b->queue);
    b->tvis = balloc(b, nt * sizeof *b->tvis);
    b->tseed = balloc(b, nt * sizeof *b->tseed);
    b->tw = balloc(b, nt * sizeof *b->tw);
    b->fstamp = balloc(b, nf * sizeof *b->fstamp);
    b->fdelta = balloc(b, nf * sizeof *b->fdelta);
    if (!b->par || !b->wob || !b->area || !b->blk || !b->queue || !b->tvis || !b->tseed || !b->tw || !b->fstamp ||
        !b->fdelta)
        return -1;
    int rc = map_edges(b);
    if (rc) return rc;
    if (flood_walls(b)) return 1;
    memset(b->area, 0, nt);
    memset(b->blk, 0, nt);
    memset(b->tvis, 0, nt * sizeof *b->tvis);
    memset(b->tseed, 0, nt * sizeof *b->tseed);
    memset(b->fstamp, 0, nf * sizeof *b->fstamp);
    if (b->nae) qsort(b->ae, b->nae, sizeof *b->ae, cmp_area_edge);
    for (size_t lo = 0, hi; lo < b->nae; lo = hi) {
        for (hi = lo; hi < b->nae && b->ae[hi].ring == b->ae[lo].ring; hi++) {}
        if (flood_area(b, lo, hi)) return 1;
    }
    return 0;
}

// ---- 5. the mesh -------------------------------------------------------------------

static steerN_Mesh *make_mesh(Build *b)
{
    const steerN_MeshSpec *s = b->spec;
    uint32_t nt = b->cdt.ntri, nkeep = 0, nv = 0;
    int32_t *tnew = balloc(b, nt * sizeof *tnew);
    int32_t *vnew = balloc(b, b->npt * sizeof *vnew);
    steerN_Mesh *m = NULL;
    if (!tnew || !vnew) {
        nomem(b);
        goto done;
    }
    memset(vnew, 0xff, b->npt * sizeof *vnew);
    for (uint32_t t = 0; t < nt; t++) {
        tnew[t] = b->par[t] && b->wob[t] == 0 && !b->blk[t] ? (int32_t)nkeep++ : -1;
        if (tnew[t] >= 0)
            for (int k = 0; k < 3; k++) vnew[b->cdt.tri[3 * t + k]] = 0;
    }
    if (nkeep == 0) {
        fail(b, STEERN_MESH_EMPTY, 0, 0, "steerN_mesh_build: nothing walkable is left");
        goto done;
    }
    for (uint32_t v = 0; v < b->npt; v++)
        if (vnew[v] == 0) vnew[v] = (int32_t)nv++;
    m = steerN_mesh_alloc(nv, nkeep, &b->alloc);
    if (!m) {
        nomem(b);
        goto done;
    }
    for (uint32_t v = 0; v < b->npt; v++)
        if (vnew[v] >= 0) {
            m->ixy[2 * vnew[v]] = b->pt[2 * v];
            m->ixy[2 * vnew[v] + 1] = b->pt[2 * v + 1];
        }
    for (uint32_t t = 0; t < nt; t++) {
        if (tnew[t] < 0) continue;
        uint32_t n = (uint32_t)tnew[t];
        for (int k = 0; k < 3; k++) {
            int32_t u = b->cdt.adj[3 * t + k];
            m->tri[3 * n + k] = (uint32_t)vnew[b->cdt.tri[3 * t + k]];
            m->adj[3 * n + k] = u >= 0 ? tnew[u] : -1;
        }
        for (int k = 0; k < 3; k++)
            if (m->adj[3 * n + k] < 0) m->vwall[m->tri[3 * n + k]] = m->vwall[m->tri[3 * n + (k + 1) % 3]] = 1;
        m->area[n] = b->area[t];
    }
    steerN_mesh_set_metres(m);
    m->nareas = s->nareas;
    for (uint32_t i = 0; i < s->nareas; i++) {
        if (s->area_names && s->area_names[i]) strcpy(m->area_name[i], s->area_names[i]);
        else if (i) snprintf(m->area_name[i], sizeof m->area_name[i], "area%u", i);
        m->area_cost[i] = s->area_costs ? s->area_costs[i] : 1.0f;
    }
    m->hash = steerN_mesh_hash(m);
done:
    bfree(b, tnew, nt * sizeof *tnew);
    bfree(b, vnew, b->npt * sizeof *vnew);
    return m;
}

static void build_free(Build *b)
{
    uint32_t nt = b->cdt.ntri;
    size_t nf = b->nfrag ? b->nfrag : 1;
    bfree(b, b->seg, b->cap_seg * sizeof *b->seg);
    bfree(b, b->rp, 2 * b->cap_rp * sizeof *b->rp);
    bfree(b, b->order, b->cap_rp * sizeof *b->order);
    bfree(b, b->knot, b->spec->nrings);
    bfree(b, b->frag, b->cap_frag * sizeof *b->frag);
    bfree(b, b->ae, b->cap_ae * sizeof *b->ae);
    bfree(b, b->segs, 2 * b->nfrag * sizeof *b->segs);
    bfree(b, b->edge_frag, 3 * (size_t)nt * sizeof *b->edge_frag);
    bfree(b, b->frag_edge, b->nfrag * sizeof *b->frag_edge);
    bfree(b, b->fstart, ((size_t)b->npt + 1) * sizeof *b->fstart);
    bfree(b, b->par, nt);
    bfree(b, b->wob, nt * sizeof *b->wob);
    bfree(b, b->area, nt);
    bfree(b, b->blk, nt);
    bfree(b, b->queue, nt * sizeof *b->queue);
    bfree(b, b->tvis, nt * sizeof *b->tvis);
    bfree(b, b->tseed, nt * sizeof *b->tseed);
    bfree(b, b->tw, nt * sizeof *b->tw);
    bfree(b, b->fstamp, nf * sizeof *b->fstamp);
    bfree(b, b->fdelta, nf * sizeof *b->fdelta);
    steerN_snapped_free(&b->sn, &b->alloc);
    steerN_cdt_free(&b->cdt);
}

steerN_Mesh *steerN_mesh_build(const steerN_MeshSpec *spec, const steerN_Alloc *alloc, steerN_MeshError *err)
{
    steerN_MeshError spare;
    Build b = { .spec = spec, .alloc = alloc ? *alloc : (steerN_Alloc){ 0 }, .err = err ? err : &spare };
    memset(b.err, 0, sizeof *b.err);
    steerN_Mesh *m = NULL;
    if (!check_spec(&b)) return NULL;
    if (ring_segments(&b) || steerN_snap_round(b.seg, (uint32_t)b.nseg, &b.alloc, &b.sn) || merge_pieces(&b)) {
        nomem(&b);
        goto done;
    }
    if (b.nfrag == 0) {
        fail(&b, STEERN_MESH_EMPTY, 0, 0, "steerN_mesh_build: nothing walkable is left");
        goto done;
    }
    if (keep_points(&b)) {
        nomem(&b);
        goto done;
    }
    steerN_CdtStatus cs = steerN_cdt_build(&b.cdt, b.pt, b.npt, b.segs, (uint32_t)b.nfrag, &b.alloc);
    if (cs == STEERN_CDT_NOMEM) {
        nomem(&b);
        goto done;
    }
    if (cs != STEERN_CDT_OK) {
        fail(&b, STEERN_MESH_INTERNAL, 0, 0, "steerN_mesh_build: the triangulation failed: %s", b.cdt.message);
        goto done;
    }
    if (b.cdt.ntri == 0) { // the fragments on one line: they enclose nothing
        fail(&b, STEERN_MESH_EMPTY, 0, 0, "steerN_mesh_build: nothing walkable is left");
        goto done;
    }
    int rc = classify(&b);
    if (rc < 0) nomem(&b);
    else if (rc > 0)
        fail(&b, STEERN_MESH_INTERNAL, 0, 0, "steerN_mesh_build: the triangles do not match the fragments");
    else m = make_mesh(&b);
done:
    build_free(&b);
    return m;
}

// ---- from a grid -------------------------------------------------------------------
//
// The open cells' boundary (cell edges between an open cell and a blocked
// one or the outside) as outline rings: each edge directed with the open
// cell on its left, chained corner to corner (at a corner where two open
// cells touch diagonally, turning left), corners along a straight run
// left out. Even-odd over those rings is the open set exactly, however
// they pair up at such corners. Cells of a cost other than 1 are area
// rings, one per rectangle of equal cost (runs of a row, merged with the
// run of the same span below): they never overlap.

typedef struct GridRings {
    steerN_Alloc alloc;
    double *xy;
    size_t npt, cap_xy;
    uint32_t *ring_end;
    int32_t *role;
    size_t nring, cap_end, cap_role;
    const steerN_Grid *g;
} GridRings;

static int add_point(GridRings *r, int i, int j)
{
    if (steerN_grow(&r->alloc, (void **)&r->xy, &r->cap_xy, r->npt + 1, 2 * sizeof *r->xy)) return -1;
    r->xy[2 * r->npt] = r->g->origin[0] + i * r->g->cell;
    r->xy[2 * r->npt + 1] = r->g->origin[1] + j * r->g->cell;
    r->npt++;
    return 0;
}

static int end_ring(GridRings *r, int32_t role)
{
    if (steerN_grow(&r->alloc, (void **)&r->ring_end, &r->cap_end, r->nring + 1, sizeof *r->ring_end) ||
        steerN_grow(&r->alloc, (void **)&r->role, &r->cap_role, r->nring + 1, sizeof *r->role))
        return -1;
    r->ring_end[r->nring] = (uint32_t)r->npt;
    r->role[r->nring++] = role;
    return 0;
}

enum { EAST, NORTH, WEST, SOUTH };
static const int step_x[4] = { 1, 0, -1, 0 }, step_y[4] = { 0, 1, 0, -1 };

static int trace_outline(GridRings *r)
{
    const steerN_Grid *g = r->g;
    int cx = g->nx + 1, cy = g->ny + 1;
    size_t nc = (size_t)cx * (size_t)cy;
    uint8_t *out = steerN_realloc(&r->alloc, NULL, 0, nc);
    if (!out) return -1;
    memset(out, 0, nc);
    for (int y = 0; y <= g->ny; y++)
        for (int x = 0; x <= g->nx; x++) {
            bool here = steerN_open(g, x, y), below = steerN_open(g, x, y - 1), left = steerN_open(g, x - 1, y);
            if (x < g->nx && here && !below) out[(size_t)y * cx + x] |= 1 << EAST;
            if (x < g->nx && below && !here) out[(size_t)y * cx + x + 1] |= 1 << WEST;
            if (y < g->ny && left && !here) out[(size_t)y * cx + x] |= 1 << NORTH;
            if (y < g->ny && here && !left) out[(size_t)(y + 1) * cx + x] |= 1 << SOUTH;
        }
    int rc = 0;
    for (size_t c0 = 0; c0 < nc && !rc; c0++)
        while (out[c0] && !rc) {
            int x = (int)(c0 % (size_t)cx), y = (int)(c0 / (size_t)cx), d = 0;
            while (!(out[c0] >> d & 1)) d++;
            int first = d, prev = -1;
            size_t start = r->npt;
            for (;;) {
                size_t c = (size_t)y * cx + x;
                if (prev >= 0) { // leave by the left turn, else straight on, else the right turn
                    const int pref[3] = { (prev + 1) % 4, prev, (prev + 3) % 4 };
                    d = -1;
                    for (int k = 0; k < 3 && d < 0; k++)
                        if (out[c] >> pref[k] & 1) d = pref[k];
                    if (d < 0) break; // cannot happen: every corner has as many ways out as in
                }
                if (d != prev && (rc = add_point(r, x, y))) break;
                out[c] &= (uint8_t) ~(1 << d);
                x += step_x[d];
                y += step_y[d];
                prev = d;
                if ((size_t)y * cx + x == c0) break;
            }
            if (rc) break;
            if (prev == first && r->npt > start) { // the start was inside a straight run
                memmove(r->xy + 2 * start, r->xy + 2 * start + 2, 2 * (r->npt - start - 1) * sizeof *r->xy);
                r->npt--;
            }
            rc = end_ring(r, STEERN_RING_OUTLINE);
        }
    steerN_realloc(&r->alloc, out, nc, 0);
    return rc;
}

typedef struct Run {
    int x0, x1, y0; // cells x0 .. x1 - 1, from row y0
    float cost;
} Run;

static int cmp_float(const void *pa, const void *pb)
{
    float a = *(const float *)pa, b = *(const float *)pb;
    return (a > b) - (a < b);
}

static int rect_ring(GridRings *r, const Run *u, int y1, const float *costs, uint32_t ncost)
{
    const float *at = bsearch(&u->cost, costs, ncost, sizeof *costs, cmp_float);
    return add_point(r, u->x0, u->y0) || add_point(r, u->x1, u->y0) || add_point(r, u->x1, y1) ||
           add_point(r, u->x0, y1) || end_ring(r, (int32_t)(at - costs) + 1);
}

// The area rectangles; costs: the distinct costs, sorted.
static int area_rects(GridRings *r, const float *costs, uint32_t ncost)
{
    const steerN_Grid *g = r->g;
    size_t cap = (size_t)g->nx + 1;
    Run *prev = steerN_realloc(&r->alloc, NULL, 0, 2 * cap * sizeof *prev), *cur = prev + cap;
    if (!prev) return -1;
    size_t np = 0, rc = 0;
    for (int y = 0; y <= g->ny && !rc; y++) {
        size_t nc = 0, k = 0;
        for (int x = 0; y < g->ny && x < g->nx;) {
            float c = g->cost[(size_t)y * g->nx + x];
            int e = x + 1;
            while (e < g->nx && g->cost[(size_t)y * g->nx + e] == c) e++;
            if (c != 1.0f && c < INFINITY) {
                Run u = { x, e, y, c };
                while (k < np && prev[k].x0 < x) k++;
                if (k < np && prev[k].x0 == x && prev[k].x1 == e && prev[k].cost == c)
                    u.y0 = prev[k].y0, prev[k].x1 = -1;
                cur[nc++] = u;
            }
            x = e;
        }
        for (size_t i = 0; i < np && !rc; i++)
            if (prev[i].x1 >= 0) rc = (size_t)rect_ring(r, prev + i, y, costs, ncost);
        Run *t = prev;
        prev = cur;
        cur = t;
        np = nc;
    }
    steerN_realloc(&r->alloc, prev < cur ? prev : cur, 2 * cap * sizeof *prev, 0);
    return rc ? -1 : 0;
}

// "cost<c>" with the fewest digits that read back as c.
static void cost_name(char out[STEERN_MESH_AREA_NAME], float c)
{
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(out, STEERN_MESH_AREA_NAME, "cost%.*g", prec, (double)c);
        if (strtof(out + 4, NULL) == c) return;
    }
}

steerN_Mesh *steerN_mesh_from_grid(const steerN_Grid *g, const steerN_Alloc *alloc, steerN_MeshError *err)
{
    steerN_MeshError spare;
    if (!err) err = &spare;
    memset(err, 0, sizeof *err);
    GridRings r = { .alloc = alloc ? *alloc : (steerN_Alloc){ 0 }, .g = g };
    size_t n = (size_t)g->nx * (size_t)g->ny;
    float *costs = steerN_realloc(&r.alloc, NULL, 0, (n ? n : 1) * sizeof *costs);
    steerN_Mesh *m = NULL;
    uint32_t ncost = 0;
    if (!costs) goto nomem;
    for (size_t i = 0; i < n; i++)
        if (g->cost[i] != 1.0f && g->cost[i] < INFINITY) costs[ncost++] = g->cost[i];
    qsort(costs, ncost, sizeof *costs, cmp_float);
    uint32_t u = 0;
    for (uint32_t i = 0; i < ncost; i++)
        if (u == 0 || costs[i] != costs[u - 1]) costs[u++] = costs[i];
    ncost = u;
    if (ncost > STEERN_MESH_AREAS - 1) {
        err->status = STEERN_MESH_BADAREA;
        snprintf(err->message, sizeof err->message,
                 "steerN_mesh_from_grid: the grid has %u distinct cell costs other than 1, expected at most %d", ncost,
                 STEERN_MESH_AREAS - 1);
        goto done;
    }
    if (trace_outline(&r) || area_rects(&r, costs, ncost)) goto nomem;
    char names[STEERN_MESH_AREAS][STEERN_MESH_AREA_NAME];
    const char *name_of[STEERN_MESH_AREAS];
    float cost_of[STEERN_MESH_AREAS];
    strcpy(names[0], "default");
    cost_of[0] = 1.0f;
    for (uint32_t i = 0; i < ncost; i++) {
        cost_name(names[i + 1], costs[i]);
        cost_of[i + 1] = costs[i];
    }
    for (uint32_t i = 0; i <= ncost; i++) name_of[i] = names[i];
    steerN_MeshSpec spec = { r.xy, r.ring_end, r.role, (uint32_t)r.nring, ncost + 1, name_of, cost_of };
    m = steerN_mesh_build(&spec, alloc, err);
    goto done;
nomem:
    err->status = STEERN_MESH_NOMEM;
    snprintf(err->message, sizeof err->message, "steerN_mesh_from_grid: out of memory");
done:
    steerN_realloc(&r.alloc, costs, (n ? n : 1) * sizeof *costs, 0);
    steerN_realloc(&r.alloc, r.xy, r.cap_xy * 2 * sizeof *r.xy, 0);
    steerN_realloc(&r.alloc, r.ring_end, r.cap_end * sizeof *r.ring_end, 0);
    steerN_realloc(&r.alloc, r.role, r.cap_role * sizeof *r.role, 0);
    return m;
}
