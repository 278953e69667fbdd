// SPDX-License-Identifier: MIT
// mesh_snap.c — snap rounding of integer segments (the method and what it
// guarantees: mesh_snap.h).
//
// Steps:
// 1. A uniform grid of cells over the segments' box (about two segments a
//    cell), each segment listed in every cell it passes near: the broad
//    phase, so crossings are sought among neighbours, not among all pairs.
// 2. Hot pixels: every segment end, and every proper crossing of two
//    segments sharing a cell, rounded exactly (the crossing is rational:
//    __int128 numerator and denominator, rounded as floor(x + 1/2)).
//    Sorted and made unique; listed in the cells by their centres.
// 3. Each segment: the hot pixels near it (its cells, one unit wider) that
//    its closed segment meets (an exact test against the half-open square
//    in doubled coordinates), sorted along it by the projection of their
//    centres (strictly increasing along any segment, as the pixels it
//    passes have monotone columns and rows), joined in that order.
// 4. Each joint of two consecutive centres: the centres lying exactly on
//    it split it (rare: a rounded fragment can pass through a centre its
//    segment never met). That makes fragments meet only at their ends.
// Every decision is exact, and the grid only chooses which pairs are
// tested, so the result depends on the segments alone.
#include "mesh_snap.h"

#include "predicates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 i128;

int steerN_grow(const steerN_Alloc *a, void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2 / size) return -1;
        n *= 2;
    }
    void *q = steerN_realloc(a, *p, *cap * size, n * size);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static i128 floor_div(i128 n, i128 d)
{
    if (n == (int64_t)n && d == (int64_t)d && d != -1) { // the common case, without a 128-bit division
        int64_t a = (int64_t)n, b = (int64_t)d, q = a / b;
        return a % b != 0 && ((a < 0) != (b < 0)) ? q - 1 : q;
    }
    i128 q = n / d;
    if (n % d != 0 && ((n < 0) != (d < 0))) q--;
    return q;
}

// ---- the broad phase -----------------------------------------------------------

typedef struct Cells {
    int64_t x0, y0, size;
    uint32_t nx, ny;
    uint32_t *start; // ncell + 1: cell c's items are item[start[c] .. start[c + 1])
    uint32_t *item;
    size_t nitem;
} Cells;

static uint32_t cell_index(int64_t v, int64_t v0, int64_t size, uint32_t n)
{
    int64_t c = (int64_t)floor_div(v - v0, size);
    return c < 0 ? 0 : c >= (int64_t)n ? n - 1 : (uint32_t)c;
}

_Static_assert(sizeof(steerN_SnapSeg) % sizeof(int64_t) == 0, "segments are read at a stride of int64s");

typedef void (*CellFn)(void *ctx, uint32_t cell);

// Call fn for every cell that a-b, widened by m units each way, may touch
// (a superset: per column, the rows between the segment's lowest and
// highest point over the column's widened span).
static void visit(const Cells *g, const int64_t a[2], const int64_t b[2], int64_t m, CellFn fn, void *ctx)
{
    int64_t minx = min64(a[0], b[0]), maxx = max64(a[0], b[0]);
    uint32_t c0 = cell_index(minx - m, g->x0, g->size, g->nx), c1 = cell_index(maxx + m, g->x0, g->size, g->nx);
    for (uint32_t c = c0; c <= c1; c++) {
        int64_t ylo = min64(a[1], b[1]), yhi = max64(a[1], b[1]);
        if (a[0] != b[0]) {
            int64_t x0 = g->x0 + (int64_t)c * g->size, x1 = x0 + g->size - 1;
            int64_t xs = max64(x0 - m, minx), xe = min64(x1 + m, maxx);
            if (xs > xe) continue;
            i128 dx = b[0] - a[0], dy = b[1] - a[1];
            if (dx < 0) dx = -dx, dy = -dy; // y = ay + (x - ax) dy / dx with a positive divisor
            i128 ns = (i128)(xs - a[0]) * dy, ne = (i128)(xe - a[0]) * dy;
            int64_t fs = a[1] + (int64_t)floor_div(ns, dx), fe = a[1] + (int64_t)floor_div(ne, dx);
            int64_t cs = a[1] - (int64_t)floor_div(-ns, dx), ce = a[1] - (int64_t)floor_div(-ne, dx);
            ylo = min64(fs, fe);
            yhi = max64(cs, ce);
        }
        uint32_t r0 = cell_index(ylo - m, g->y0, g->size, g->ny), r1 = cell_index(yhi + m, g->y0, g->size, g->ny);
        for (uint32_t r = r0; r <= r1; r++) fn(ctx, r * g->nx + c);
    }
}

static void count_cell(void *ctx, uint32_t cell) { ((uint32_t *)ctx)[cell + 1]++; }

typedef struct Fill {
    uint32_t *pos, *item, id;
} Fill;
static void fill_cell(void *ctx, uint32_t cell)
{
    Fill *f = ctx;
    f->item[f->pos[cell]++] = f->id;
}

static void cells_free(Cells *g, const steerN_Alloc *a)
{
    steerN_realloc(a, g->start, ((size_t)g->nx * g->ny + 1) * sizeof *g->start, 0);
    steerN_realloc(a, g->item, (g->nitem ? g->nitem : 1) * sizeof *g->item, 0);
    g->start = g->item = NULL;
}

// List n segments (ends a[i], b[i] at stride `stride` int64s) in the cells
// they pass within m units of. 0, or -1 when out of memory.
static int cells_fill(Cells *g, const int64_t *a, const int64_t *b, size_t stride, uint32_t n, int64_t m,
                      const steerN_Alloc *al)
{
    size_t ncell = (size_t)g->nx * g->ny;
    g->start = steerN_realloc(al, NULL, 0, (ncell + 1) * sizeof *g->start);
    if (!g->start) return -1;
    memset(g->start, 0, (ncell + 1) * sizeof *g->start);
    for (uint32_t i = 0; i < n; i++) visit(g, a + stride * i, b + stride * i, m, count_cell, g->start);
    for (size_t c = 0; c < ncell; c++) g->start[c + 1] += g->start[c];
    g->nitem = g->start[ncell];
    g->item = steerN_realloc(al, NULL, 0, (g->nitem ? g->nitem : 1) * sizeof *g->item);
    uint32_t *pos = steerN_realloc(al, NULL, 0, (ncell ? ncell : 1) * sizeof *pos);
    if (!g->item || !pos) {
        steerN_realloc(al, pos, (ncell ? ncell : 1) * sizeof *pos, 0);
        return -1;
    }
    memcpy(pos, g->start, ncell * sizeof *pos);
    Fill f = { pos, g->item, 0 };
    for (f.id = 0; f.id < n; f.id++) visit(g, a + stride * f.id, b + stride * f.id, m, fill_cell, &f);
    steerN_realloc(al, pos, (ncell ? ncell : 1) * sizeof *pos, 0);
    return 0;
}

// ---- exact pieces --------------------------------------------------------------

// The pixel holding the crossing of a-b and c-d (a proper crossing).
static void round_crossing(const int64_t a[2], const int64_t b[2], const int64_t c[2], const int64_t d[2],
                           int64_t out[2])
{
    i128 rx = b[0] - a[0], ry = b[1] - a[1], sx = d[0] - c[0], sy = d[1] - c[1];
    i128 den = rx * sy - ry * sx;
    i128 num = (i128)(c[0] - a[0]) * sy - (i128)(c[1] - a[1]) * sx; // a + num / den * r
    if (den < 0) den = -den, num = -num;
    // floor(v + 1/2) = floor((2 v_num + den) / (2 den)); |num * r| < 2^124
    out[0] = a[0] + (int64_t)floor_div(2 * (num * rx) + den, 2 * den);
    out[1] = a[1] + (int64_t)floor_div(2 * (num * ry) + den, 2 * den);
}

// A bound of the parameter t along a segment: n / d (d > 0), open or closed.
typedef struct Bound {
    i128 n, d;
    bool open;
} Bound;
static int cmp_bound(const Bound *x, i128 n, i128 d)
{
    i128 l = x->n * d, r = n * x->d;
    return (l > r) - (l < r);
}
static void raise_lo(Bound *lo, i128 n, i128 d, bool open)
{
    int c = cmp_bound(lo, n, d);
    if (c < 0) *lo = (Bound){ n, d, open };
    else if (c == 0) lo->open |= open;
}
static void lower_hi(Bound *hi, i128 n, i128 d, bool open)
{
    int c = cmp_bound(hi, n, d);
    if (c > 0) *hi = (Bound){ n, d, open };
    else if (c == 0) hi->open |= open;
}

// Does the closed segment a-b meet pixel c, the half-open square
// [c - 1/2, c + 1/2) on each axis? In doubled coordinates the segment is
// 2a + t (2b - 2a), t in [0, 1], the square [2c - 1, 2c + 1).
static bool meets_pixel(const int64_t a[2], const int64_t b[2], const int64_t c[2])
{
    Bound lo = { 0, 1, false }, hi = { 1, 1, false };
    for (int k = 0; k < 2; k++) {
        i128 A = 2 * (i128)a[k], D = 2 * ((i128)b[k] - a[k]), L = 2 * (i128)c[k] - 1, H = 2 * (i128)c[k] + 1;
        if (D == 0) {
            if (A < L || A >= H) return false;
        } else if (D > 0) { // L <= A + t D < H
            raise_lo(&lo, L - A, D, false);
            lower_hi(&hi, H - A, D, true);
        } else {
            lower_hi(&hi, A - L, -D, false);
            raise_lo(&lo, A - H, -D, true);
        }
    }
    int c2 = cmp_bound(&lo, hi.n, hi.d);
    return c2 < 0 || (c2 == 0 && !lo.open && !hi.open);
}

static int cmp_point(const void *pa, const void *pb)
{
    const int64_t *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

typedef struct Along { // a pixel on a segment, and how far along
    i128 key;
    uint32_t idx;
} Along;
static int cmp_along(const void *pa, const void *pb)
{
    const Along *a = pa, *b = pb;
    return (a->key > b->key) - (a->key < b->key);
}
static i128 along(const int64_t a[2], const int64_t b[2], const int64_t c[2])
{
    return (i128)(c[0] - a[0]) * (b[0] - a[0]) + (i128)(c[1] - a[1]) * (b[1] - a[1]);
}

typedef struct Snap {
    const steerN_Alloc *alloc;
    const steerN_SnapSeg *seg;
    uint32_t n;
    Cells cells; // the segments
    Cells pix;   // the hot pixels by centre (start/item only; the geometry is cells')
    int64_t *hot;
    size_t nhot, cap_hot;
    uint32_t *stamp; // per hot pixel: 1 + the segment that last listed it
    Along *cand, *split;
    size_t ncand, cap_cand, nsplit, cap_split;
    steerN_Snapped *out;
    uint32_t cur; // the segment whose pixels are being gathered
    int64_t ju[2], jv[2];
    bool failed;
} Snap;

static int push_hot(Snap *s, const int64_t p[2])
{
    if (steerN_grow(s->alloc, (void **)&s->hot, &s->cap_hot, s->nhot + 1, 2 * sizeof(int64_t))) return -1;
    s->hot[2 * s->nhot] = p[0];
    s->hot[2 * s->nhot + 1] = p[1];
    s->nhot++;
    return 0;
}

static bool boxes_apart(const steerN_SnapSeg *u, const steerN_SnapSeg *v)
{
    for (int k = 0; k < 2; k++)
        if (max64(u->a[k], u->b[k]) < min64(v->a[k], v->b[k]) || max64(v->a[k], v->b[k]) < min64(u->a[k], u->b[k]))
            return true;
    return false;
}

static int find_crossings(Snap *s)
{
    size_t ncell = (size_t)s->cells.nx * s->cells.ny;
    for (size_t c = 0; c < ncell; c++) {
        const uint32_t *it = s->cells.item + s->cells.start[c];
        uint32_t k = s->cells.start[c + 1] - s->cells.start[c];
        for (uint32_t i = 0; i < k; i++)
            for (uint32_t j = i + 1; j < k; j++) {
                const steerN_SnapSeg *u = s->seg + it[i], *v = s->seg + it[j];
                if (boxes_apart(u, v) || steerN_segments_meet(u->a, u->b, v->a, v->b) != STEERN_CROSS) continue;
                int64_t p[2];
                round_crossing(u->a, u->b, v->a, v->b, p);
                if (push_hot(s, p)) return -1;
            }
    }
    return 0;
}

static void gather_pixel(void *ctx, uint32_t cell)
{
    Snap *s = ctx;
    const steerN_SnapSeg *g = s->seg + s->cur;
    for (uint32_t k = s->pix.start[cell]; k < s->pix.start[cell + 1] && !s->failed; k++) {
        uint32_t h = s->pix.item[k];
        if (s->stamp[h] == s->cur + 1) continue;
        s->stamp[h] = s->cur + 1;
        const int64_t *c = s->hot + 2 * h;
        if (!meets_pixel(g->a, g->b, c)) continue;
        if (steerN_grow(s->alloc, (void **)&s->cand, &s->cap_cand, s->ncand + 1, sizeof *s->cand)) {
            s->failed = true;
            return;
        }
        s->cand[s->ncand++] = (Along){ along(g->a, g->b, c), h };
    }
}

// The centres lying inside the joint ju-jv (a joint is short: its list
// is searched for repeats).
static void gather_split(void *ctx, uint32_t cell)
{
    Snap *s = ctx;
    for (uint32_t k = s->pix.start[cell]; k < s->pix.start[cell + 1] && !s->failed; k++) {
        uint32_t h = s->pix.item[k];
        const int64_t *c = s->hot + 2 * h;
        if (!steerN_on_segment(c, s->ju, s->jv)) continue;
        for (size_t i = 0; i < s->nsplit; i++)
            if (s->split[i].idx == h) goto next;
        if (steerN_grow(s->alloc, (void **)&s->split, &s->cap_split, s->nsplit + 1, sizeof *s->split)) {
            s->failed = true;
            return;
        }
        s->split[s->nsplit++] = (Along){ along(s->ju, s->jv, c), h };
    next:;
    }
}

static int emit(Snap *s, uint32_t u, uint32_t v, int32_t sign)
{
    steerN_Snapped *o = s->out;
    if (steerN_grow(s->alloc, (void **)&o->piece, &o->cap_piece, (size_t)o->npiece + 1, sizeof *o->piece)) return -1;
    o->piece[o->npiece++] = (steerN_Piece){ u < v ? u : v, u < v ? v : u, s->seg[s->cur].ring, u < v ? sign : -sign };
    return 0;
}

// The joint between consecutive centres u and v, split at the centres on it.
static int joint(Snap *s, uint32_t u, uint32_t v)
{
    int32_t sign = s->seg[s->cur].sign;
    memcpy(s->ju, s->hot + 2 * u, sizeof s->ju);
    memcpy(s->jv, s->hot + 2 * v, sizeof s->jv);
    s->nsplit = 0;
    visit(&s->cells, s->ju, s->jv, 1, gather_split, s);
    if (s->failed) return -1;
    if (s->nsplit > 1) qsort(s->split, s->nsplit, sizeof *s->split, cmp_along);
    uint32_t prev = u;
    for (size_t i = 0; i < s->nsplit; i++) {
        if (emit(s, prev, s->split[i].idx, sign)) return -1;
        prev = s->split[i].idx;
    }
    return emit(s, prev, v, sign);
}

static int route(Snap *s)
{
    for (s->cur = 0; s->cur < s->n; s->cur++) {
        s->ncand = 0;
        visit(&s->cells, s->seg[s->cur].a, s->seg[s->cur].b, 1, gather_pixel, s);
        if (s->failed) return -1;
        qsort(s->cand, s->ncand, sizeof *s->cand, cmp_along);
        for (size_t i = 0; i + 1 < s->ncand; i++)
            if (joint(s, s->cand[i].idx, s->cand[i + 1].idx)) return -1;
    }
    return 0;
}

// The cell grid over the segments' box: about two segments a cell.
static void size_cells(Cells *g, const steerN_SnapSeg *seg, uint32_t n)
{
    int64_t lo[2] = { seg[0].a[0], seg[0].a[1] }, hi[2] = { lo[0], lo[1] };
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            lo[k] = min64(lo[k], min64(seg[i].a[k], seg[i].b[k]));
            hi[k] = max64(hi[k], max64(seg[i].a[k], seg[i].b[k]));
        }
    g->x0 = lo[0] - 4;
    g->y0 = lo[1] - 4;
    double w = (double)(hi[0] + 4 - g->x0 + 1), h = (double)(hi[1] + 4 - g->y0 + 1), target = 2.0 * n + 16;
    double side = ceil(sqrt(w * h / target));
    g->size = side < 4 ? 4 : (int64_t)side;
    for (;;) {
        uint64_t nx = (uint64_t)((hi[0] + 4 - g->x0) / g->size + 1), ny = (uint64_t)((hi[1] + 4 - g->y0) / g->size + 1);
        if (nx * ny <= 4 * (uint64_t)target) {
            g->nx = (uint32_t)nx;
            g->ny = (uint32_t)ny;
            return;
        }
        g->size *= 2;
    }
}

void steerN_snapped_free(steerN_Snapped *s, const steerN_Alloc *alloc)
{
    steerN_realloc(alloc, s->pt, s->cap_pt * 2 * sizeof(int64_t), 0);
    steerN_realloc(alloc, s->piece, s->cap_piece * sizeof *s->piece, 0);
    memset(s, 0, sizeof *s);
}

int steerN_snap_round(const steerN_SnapSeg *seg, uint32_t n, const steerN_Alloc *alloc, steerN_Snapped *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0) return 0;
    Snap s = { .alloc = alloc, .seg = seg, .n = n, .out = out };
    int rc = -1;
    size_cells(&s.cells, seg, n);
    s.pix = s.cells;
    s.pix.start = s.pix.item = NULL;
    s.pix.nitem = 0;
    if (cells_fill(&s.cells, seg[0].a, seg[0].b, sizeof *seg / sizeof(int64_t), n, 1, alloc)) goto done;
    for (uint32_t i = 0; i < n; i++)
        if (push_hot(&s, seg[i].a) || push_hot(&s, seg[i].b)) goto done;
    if (find_crossings(&s)) goto done;
    qsort(s.hot, s.nhot, 2 * sizeof(int64_t), cmp_point);
    size_t m = 0;
    for (size_t i = 0; i < s.nhot; i++)
        if (m == 0 || cmp_point(s.hot + 2 * i, s.hot + 2 * (m - 1)) != 0) {
            s.hot[2 * m] = s.hot[2 * i];
            s.hot[2 * m + 1] = s.hot[2 * i + 1];
            m++;
        }
    s.nhot = m;
    if (cells_fill(&s.pix, s.hot, s.hot, 2, (uint32_t)m, 0, alloc)) goto done;
    s.stamp = steerN_realloc(alloc, NULL, 0, m * sizeof *s.stamp);
    if (!s.stamp) goto done;
    memset(s.stamp, 0, m * sizeof *s.stamp);
    if (route(&s)) goto done;
    out->pt = s.hot; // hand the points over
    out->npt = (uint32_t)s.nhot;
    out->cap_pt = s.cap_hot;
    s.hot = NULL;
    s.cap_hot = 0;
    rc = 0;
done:
    cells_free(&s.cells, alloc);
    cells_free(&s.pix, alloc);
    steerN_realloc(alloc, s.hot, s.cap_hot * 2 * sizeof(int64_t), 0);
    steerN_realloc(alloc, s.stamp, s.nhot * sizeof *s.stamp, 0);
    steerN_realloc(alloc, s.cand, s.cap_cand * sizeof *s.cand, 0);
    steerN_realloc(alloc, s.split, s.cap_split * sizeof *s.split, 0);
    if (rc) steerN_snapped_free(out, alloc);
    return rc;
}
