// SPDX-License-Identifier: MIT
// cdt.c — constrained Delaunay triangulation on integer points (the
// contract: cdt.h; the predicates: predicates.h).
//
// 1. Points, sorted by (x, y), are inserted one at a time by Bowyer–Watson:
//    the triangles whose circumcircle strictly contains the new point (its
//    cavity) are removed and the cavity's boundary is joined to the point.
//    The outside of the hull is covered by ghost triangles, one per hull
//    edge, sharing a vertex at infinity (GHOST); a ghost conflicts with a
//    point strictly outside its hull edge, or on the edge between its ends
//    (Shewchuk's lecture notes on Delaunay refinement, "ghost triangles").
//    No super-triangle, so no huge coordinates and no hull artefacts.
//    Sorted insertion makes each new point the lexicographic maximum of
//    those inserted so far: it lies strictly outside their hull and sees a
//    hull edge at the previous maximum, so the cavity search starts at one
//    of that vertex's two ghosts (no point location walk). The first points,
//    while collinear, are taken as a triangle with the first point off their
//    line, the rest of the line then inserted the same way.
// 2. Segments, sorted, are inserted by cavity retriangulation (Anglada
//    1997; Shewchuk's notes): walk from one end to the other collecting the
//    triangles the segment crosses (a constrained edge crossed is an error,
//    a vertex on the segment splits it), remove them, and retriangulate
//    the pseudo-polygon on each side: the base edge's apex is the chain
//    vertex whose circle with the base holds no other (one pass, ties to
//    the first), recursively — with an explicit stack, as a chain may be
//    long and a wasm stack is small.
// 3. Depth from outside by a level-by-level flood that crosses
//    unconstrained edges freely and constrained ones at a cost of 1;
//    inside is odd depth.
//
// Triangles live in one array; edge i of triangle t runs from v[i] to
// v[(i + 1) % 3], n[i] is the triangle across it and c[i] the segment
// (1-based, in sorted order; 0: none) it belongs to. Removed triangles go
// on a free list and are reused in order, so slot order, and hence the
// output order, depends on the sorted input alone.
#include "cdt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define DEAD (UINT32_MAX - 1) // v[0] of a triangle on the free list

typedef struct Tri {
    uint32_t v[3], n[3], c[3];
} Tri;

typedef struct Edge { // a cavity's boundary edge: who is outside it
    uint32_t outer, outer_edge, seg;
    uint32_t end, next; // segments: the edge's end (keyed by its start in by_first), the next of that start
} Edge;

typedef struct Task { // a pseudo-polygon to triangulate: base p->q, chain[lo..hi]
    uint32_t p, q, lo, hi, parent, parent_edge;
} Task;

typedef struct Builder {
    const steerN_Alloc *alloc;
    uint32_t n, ghost; // points; ghost = n, the vertex at infinity
    int64_t (*pt)[2];  // sorted points
    uint32_t *orig;    // sorted index -> caller's index
    uint32_t *rank;    // caller's index -> sorted index
    Tri *t;
    uint32_t nt, cap_t;        // slots used, allocated
    uint32_t cap_mark, cap_in; // mark's and in's (cap_t once all three have grown)
    uint32_t *freed;
    uint32_t nfreed, cap_freed;
    uint32_t *mark, *in, stamp; // per slot: tested / in the cavity at `stamp`
    uint32_t *list, cap_list;   // the cavity
    uint32_t *stack, cap_stack;
    uint32_t *vtri;     // per vertex (and ghost): a triangle holding it
    uint32_t *by_first; // per vertex: scratch keyed by an edge's first vertex
    Edge *bnd;
    uint32_t nbnd, cap_bnd;
    uint32_t *chain, cap_chain;
    Task *task;
    uint32_t cap_task;
    uint32_t *seg_orig; // sorted segment -> caller's index
} Builder;

// Grow *p (of *cap items) to at least `need` items: 0, or -1 out of memory,
// *p and *cap then unchanged (so the block is still freed with its size).
static int grow(Builder *b, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return 0;
    uint32_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = steerN_realloc(b->alloc, *p, elem * *cap, elem * c);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}
#define GROW(b, field, capfield, need) grow((b), (void **)&(b)->field, &(b)->capfield, (need), sizeof *(b)->field)

static uint32_t next3(uint32_t i) { return i == 2 ? 0 : i + 1; }
static uint32_t prev3(uint32_t i) { return i == 0 ? 2 : i - 1; }

static int orient(const Builder *b, uint32_t p, uint32_t q, uint32_t r)
{
    return steerN_orient2d(b->pt[p], b->pt[q], b->pt[r]);
}

static uint32_t index_of(const Tri *t, uint32_t v)
{
    return t->v[0] == v ? 0 : t->v[1] == v ? 1 : t->v[2] == v ? 2 : NONE;
}

static uint32_t edge_to(const Tri *t, uint32_t nb)
{
    return t->n[0] == nb ? 0 : t->n[1] == nb ? 1 : t->n[2] == nb ? 2 : NONE;
}

// A triangle slot: the oldest freed one first, else a new one (NONE when out of memory).
static uint32_t new_tri(Builder *b, uint32_t v0, uint32_t v1, uint32_t v2)
{
    uint32_t s;
    if (b->nfreed) s = b->freed[--b->nfreed];
    else {
        if (b->nt == b->cap_t || b->cap_mark < b->cap_t || b->cap_in < b->cap_t) {
            uint32_t c2 = b->cap_mark, c3 = b->cap_in;
            if (GROW(b, t, cap_t, b->nt + 1) || GROW(b, mark, cap_mark, b->cap_t) || GROW(b, in, cap_in, b->cap_t))
                return NONE;
            memset(b->mark + c2, 0, (b->cap_mark - c2) * sizeof *b->mark);
            memset(b->in + c3, 0, (b->cap_in - c3) * sizeof *b->in);
        }
        s = b->nt++;
    }
    Tri *t = &b->t[s];
    t->v[0] = v0, t->v[1] = v1, t->v[2] = v2;
    t->n[0] = t->n[1] = t->n[2] = NONE;
    t->c[0] = t->c[1] = t->c[2] = 0;
    return s;
}

// Frees the cavity's slots so that the next new_tri calls reuse them in
// the cavity's order (the free list is a stack: pushed in reverse).
static int free_list(Builder *b, const uint32_t *slots, uint32_t k)
{
    if (GROW(b, freed, cap_freed, b->nfreed + k)) return -1;
    for (uint32_t i = k; i-- > 0;) {
        b->t[slots[i]].v[0] = DEAD;
        b->freed[b->nfreed++] = slots[i];
    }
    return 0;
}

static void link(Builder *b, uint32_t t, uint32_t i, uint32_t u, uint32_t j)
{
    b->t[t].n[i] = u;
    b->t[u].n[j] = t;
}

#ifdef STEERN_CDT_DEBUG
#include <assert.h>
static void check_structure(const Builder *b, const char *where)
{
    for (uint32_t s = 0; s < b->nt; s++) {
        const Tri *t = &b->t[s];
        if (t->v[0] == DEAD) continue;
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t u = t->n[i];
            if (u == NONE || b->t[u].v[0] == DEAD) {
                fprintf(stderr, "%s: tri %u edge %u: neighbour %u dead/none\n", where, s, i, u);
                abort();
            }
            uint32_t j = edge_to(&b->t[u], s);
            if (j == NONE || b->t[u].v[j] != t->v[next3(i)] || b->t[u].v[next3(j)] != t->v[i]) {
                fprintf(stderr, "%s: tri %u (%u %u %u) edge %u: neighbour %u (%u %u %u) not matching\n", where, s,
                        t->v[0], t->v[1], t->v[2], i, u, b->t[u].v[0], b->t[u].v[1], b->t[u].v[2]);
                abort();
            }
        }
        if (index_of(t, b->ghost) == NONE && orient(b, t->v[0], t->v[1], t->v[2]) <= 0) {
            fprintf(stderr, "%s: tri %u not ccw\n", where, s);
            abort();
        }
    }
    for (uint32_t v = 0; v < b->n; v++)
        if (b->vtri[v] != NONE && index_of(&b->t[b->vtri[v]], v) == NONE) {
            fprintf(stderr, "%s: vtri[%u] = %u does not hold it\n", where, v, b->vtri[v]);
            abort();
        }
}
#define CHECK_STRUCTURE(b, w) check_structure(b, w)
#else
#define CHECK_STRUCTURE(b, w) ((void)0)
#endif

// ---- points ------------------------------------------------------------------------

// Does triangle s conflict with point p (circumcircle, or ghost half-plane)?
static bool conflict(const Builder *b, uint32_t s, uint32_t p)
{
    const Tri *t = &b->t[s];
    uint32_t g = index_of(t, b->ghost);
    if (g == NONE) return steerN_incircle(b->pt[t->v[0]], b->pt[t->v[1]], b->pt[t->v[2]], b->pt[p]) > 0;
    uint32_t u = t->v[next3(g)], w = t->v[prev3(g)]; // the hull edge u->w, outside on its left
    int o = orient(b, u, w, p);
    return o > 0 || (o == 0 && steerN_on_segment(b->pt[p], b->pt[u], b->pt[w]));
}

// A triangle in conflict with p among the ghosts around vertex q, else any
// (a linear scan: never needed when the insertion order is as promised).
static uint32_t first_conflict(Builder *b, uint32_t q, uint32_t p)
{
    uint32_t s = b->vtri[q];
    for (uint32_t k = 0; k <= b->nt; k++) {
        const Tri *t = &b->t[s];
        if (index_of(t, b->ghost) != NONE && conflict(b, s, p)) return s;
        s = t->n[prev3(index_of(t, q))];
        if (s == b->vtri[q]) break;
    }
    for (s = 0; s < b->nt; s++)
        if (b->t[s].v[0] != DEAD && conflict(b, s, p)) return s;
    return NONE;
}

static int insert_point(Builder *b, uint32_t q, uint32_t p)
{
    uint32_t start = first_conflict(b, q, p);
    if (start == NONE) return -2;
    b->stamp++;
    uint32_t ncav = 0, nstack = 0;
    b->nbnd = 0;
    if (GROW(b, stack, cap_stack, 1)) return -1;
    b->stack[nstack++] = start;
    b->mark[start] = b->in[start] = b->stamp;
    while (nstack) {
        uint32_t s = b->stack[--nstack];
        if (GROW(b, list, cap_list, ncav + 1)) return -1;
        b->list[ncav++] = s;
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t u = b->t[s].n[i];
            if (b->in[u] == b->stamp) continue;
            if (b->mark[u] != b->stamp) {
                b->mark[u] = b->stamp;
                if (conflict(b, u, p)) {
                    b->in[u] = b->stamp;
                    if (GROW(b, stack, cap_stack, nstack + 1)) return -1;
                    b->stack[nstack++] = u;
                    continue;
                }
            }
            if (GROW(b, bnd, cap_bnd, b->nbnd + 1) || GROW(b, chain, cap_chain, 2 * b->nbnd + 2)) return -1;
            b->bnd[b->nbnd] = (Edge){ u, edge_to(&b->t[u], s), 0, 0, 0 };
            b->chain[2 * b->nbnd] = b->t[s].v[i];
            b->chain[2 * b->nbnd + 1] = b->t[s].v[next3(i)];
            b->nbnd++;
        }
    }
    if (free_list(b, b->list, ncav)) return -1;
    // One new triangle (u, w, p) per boundary edge u->w, linked outward,
    // then to each other through by_first.
    uint32_t first = NONE;
    for (uint32_t k = 0; k < b->nbnd; k++) {
        uint32_t u = b->chain[2 * k], w = b->chain[2 * k + 1];
        uint32_t s = new_tri(b, u, w, p);
        if (s == NONE) return -1;
        link(b, s, 0, b->bnd[k].outer, b->bnd[k].outer_edge);
        b->by_first[u] = s;
        b->vtri[u] = b->vtri[w] = s;
        if (first == NONE) first = s;
        b->chain[2 * k] = s; // the slot, for the second pass
    }
    for (uint32_t k = 0; k < b->nbnd; k++) {
        uint32_t s = b->chain[2 * k];
        link(b, s, 1, b->by_first[b->t[s].v[1]], 2);
    }
    b->vtri[p] = first;
    return 0;
}

static int triangulate_points(Builder *b)
{
    uint32_t n = b->n, k = 2;
    while (k < n && orient(b, 0, 1, k) == 0) k++;
    if (k == n) return 0; // all on one line: no triangle
    // The first triangle and its three ghosts.
    uint32_t a = 0, c = 1;
    if (orient(b, 0, 1, k) < 0) a = 1, c = 0;
    uint32_t t0 = new_tri(b, a, c, k);
    uint32_t g0 = new_tri(b, c, a, b->ghost), g1 = new_tri(b, k, c, b->ghost), g2 = new_tri(b, a, k, b->ghost);
    if (t0 == NONE || g0 == NONE || g1 == NONE || g2 == NONE) return -1;
    link(b, t0, 0, g0, 0);
    link(b, t0, 1, g1, 0);
    link(b, t0, 2, g2, 0);
    link(b, g0, 1, g2, 2); // a-ghost
    link(b, g1, 1, g0, 2); // c-ghost
    link(b, g2, 1, g1, 2); // k-ghost
    b->vtri[0] = b->vtri[1] = b->vtri[k] = t0;
    b->vtri[b->ghost] = g0;
    for (uint32_t i = 2; i < n; i++) {
        if (i == k) continue;
        // the previous maximum: the point before, except right after the line
        uint32_t q = i == k + 1 ? k : i - 1;
        int r = insert_point(b, q, i);
        if (r) return r;
        CHECK_STRUCTURE(b, "point");
    }
    return 0;
}

// ---- segments ----------------------------------------------------------------------

static void constrain(Builder *b, uint32_t s, uint32_t i, uint32_t seg)
{
    uint32_t u = b->t[s].n[i];
    uint32_t j = edge_to(&b->t[u], s);
    if (b->t[s].c[i]) return;
    b->t[s].c[i] = b->t[u].c[j] = seg;
}

// The directed edges around a segment's cavity, keyed by start vertex
// (by_first heads a list in b->bnd): first the outer triangles' edges
// facing the cavity, then the new triangles' edges as they are made. A new
// triangle's edge u->w pairs with the record of w->u: an outer triangle,
// or, where the cavity held a dangling edge (a vertex whose triangles were
// all crossed, reached twice along one side), another new triangle.
static int add_record(Builder *b, uint32_t u, uint32_t w, uint32_t tri, uint32_t edge, uint32_t seg)
{
    if (GROW(b, bnd, cap_bnd, b->nbnd + 1)) return -1;
    b->bnd[b->nbnd] = (Edge){ tri, edge, seg, w, b->by_first[u] };
    b->by_first[u] = b->nbnd++;
    return 0;
}

// Links new triangle s's edge e (u->w) to its partner, or records it.
static int pair_edge(Builder *b, uint32_t s, uint32_t e, const uint32_t *flagged, uint32_t nflagged)
{
    uint32_t u = b->t[s].v[e], w = b->t[s].v[next3(e)];
    for (uint32_t r = b->by_first[w]; r != NONE; r = b->bnd[r].next) {
        Edge *d = &b->bnd[r];
        if (d->end != u || d->outer == NONE) continue;
        link(b, s, e, d->outer, d->outer_edge);
        b->t[s].c[e] = b->t[d->outer].c[d->outer_edge] = d->seg;
        d->outer = NONE; // used
        return 0;
    }
    uint32_t seg = 0;
    for (uint32_t k = 0; k < nflagged; k++)
        if ((flagged[3 * k] == u && flagged[3 * k + 1] == w) || (flagged[3 * k] == w && flagged[3 * k + 1] == u))
            seg = flagged[3 * k + 2];
    return add_record(b, u, w, s, e, seg);
}

// Is direction d strictly between u and w, turning counter-clockwise from u?
static bool ccw_between(const int64_t o[2], const int64_t u[2], const int64_t d[2], const int64_t w[2])
{
    __extension__ typedef __int128 i128;
    // the angle of v from u, as (half, then order within the half)
    int64_t ux = u[0] - o[0], uy = u[1] - o[1];
    int64_t dx = d[0] - o[0], dy = d[1] - o[1], wx = w[0] - o[0], wy = w[1] - o[1];
    i128 dc = (i128)ux * dy - (i128)uy * dx, dd = (i128)ux * dx + (i128)uy * dy;
    i128 wc = (i128)ux * wy - (i128)uy * wx, wd = (i128)ux * wx + (i128)uy * wy;
    int dh = dc > 0 || (dc == 0 && dd > 0) ? 0 : 1, wh = wc > 0 || (wc == 0 && wd > 0) ? 0 : 1;
    if (dc == 0 && dd > 0) return false; // along u
    if (dh != wh) return dh < wh;
    return steerN_orient2d(o, d, w) > 0;
}

// Triangulates the pseudo-polygons the cavity left: b->task[0..ntask)
// seeds, chains in b->chain, edges around in the records. The seeds'
// triangles go to roots. 0, -1 out of memory, -2 a broken invariant.
static int retriangulate(Builder *b, uint32_t ntask, uint32_t *roots, const uint32_t *flagged, uint32_t nflagged)
{
    uint32_t nroots = 0;
    while (ntask) {
        Task k = b->task[--ntask];
        const int64_t *p = b->pt[k.p], *q = b->pt[k.q];
        uint32_t j = NONE;
        for (uint32_t i = k.lo; i <= k.hi; i++) {
            uint32_t v = b->chain[i];
            if (v == k.p || v == k.q || steerN_orient2d(p, q, b->pt[v]) <= 0) continue;
            if (j == NONE || steerN_incircle(p, q, b->pt[b->chain[j]], b->pt[v]) > 0) j = i;
        }
        if (j == NONE) return -2;
        // The apex may occur more than once (loops of dangling edges hang
        // from it): each visit of the boundary to it owns the sector from
        // its outgoing edge counter-clockwise to its incoming one; take the
        // visit whose sector holds the new triangle's corner.
        uint32_t c = b->chain[j], copies = 0;
        for (uint32_t i = k.lo; i <= k.hi; i++) copies += b->chain[i] == c;
        if (copies > 1) {
            const int64_t *o = b->pt[c];
            int64_t mid[2] = { p[0] + q[0] - o[0], p[1] + q[1] - o[1] }; // inside the corner at c
            for (uint32_t i = k.lo; i <= k.hi; i++) {
                if (b->chain[i] != c) continue;
                uint32_t in = i == k.lo ? k.q : b->chain[i - 1], out = i == k.hi ? k.p : b->chain[i + 1];
                if (in == out || ccw_between(o, b->pt[out], mid, b->pt[in])) {
                    j = i;
                    break;
                }
            }
        }
        uint32_t s = new_tri(b, k.p, k.q, c);
        if (s == NONE) return -1;
        b->vtri[k.p] = b->vtri[k.q] = b->vtri[c] = s;
        if (k.parent == NONE) roots[nroots++] = s;
        else link(b, s, 0, k.parent, k.parent_edge);
        // edge 1: q->c, edge 2: c->p, each an edge around or a smaller polygon
        if (j == k.lo) {
            if (pair_edge(b, s, 1, flagged, nflagged)) return -1;
        } else b->task[ntask++] = (Task){ c, k.q, k.lo, j - 1, s, 1 };
        if (j == k.hi) {
            if (pair_edge(b, s, 2, flagged, nflagged)) return -1;
        } else b->task[ntask++] = (Task){ k.p, c, j + 1, k.hi, s, 2 };
    }
    return 0;
}

// Inserts the piece a->end of segment seg (1-based), whose triangles the
// walk put in b->list[0..ncav), left chain L reversed and right chain R in
// b->chain.
static int fill_cavity(Builder *b, uint32_t a, uint32_t end, uint32_t ncav, uint32_t nl, uint32_t nr, uint32_t seg)
{
    b->stamp++;
    for (uint32_t k = 0; k < ncav; k++) {
        const Tri *t = &b->t[b->list[k]];
        b->in[b->list[k]] = b->stamp;
        for (uint32_t i = 0; i < 3; i++) b->by_first[t->v[i]] = NONE;
    }
    b->nbnd = 0;
    // constrained edges inside the cavity (dangling ones: crossed ones are errors), as (u, w, seg)
    uint32_t nflagged = 0;
    for (uint32_t k = 0; k < ncav; k++) {
        const Tri *t = &b->t[b->list[k]];
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t u = t->n[i];
            if (b->in[u] != b->stamp) {
                if (add_record(b, t->v[next3(i)], t->v[i], u, edge_to(&b->t[u], b->list[k]), t->c[i])) return -1;
            } else if (t->c[i]) {
                if (GROW(b, stack, cap_stack, 3 * nflagged + 3)) return -1;
                b->stack[3 * nflagged] = t->v[i];
                b->stack[3 * nflagged + 1] = t->v[next3(i)];
                b->stack[3 * nflagged + 2] = t->c[i];
                nflagged++;
            }
        }
    }
    if (free_list(b, b->list, ncav)) return -1;
    // chain = L reversed (the left polygon a->end->Lm..L1), then R (end->a->R1..Rr)
    if (GROW(b, task, cap_task, nl + nr + 2)) return -1;
    b->task[0] = (Task){ end, a, nl, nl + nr - 1, NONE, 0 };
    b->task[1] = (Task){ a, end, 0, nl - 1, NONE, 0 };
    uint32_t roots[2] = { NONE, NONE };
    int r = retriangulate(b, 2, roots, b->stack, nflagged);
    if (r) return r;
    link(b, roots[0], 0, roots[1], 0);
    b->t[roots[0]].c[0] = b->t[roots[1]].c[0] = seg;
    return 0;
}

// Segment a-b (sorted indices), 1-based sorted number seg: 0, -1 out of
// memory, or the 1-based number of a segment it crosses.
static int64_t insert_segment(Builder *b, uint32_t a, uint32_t bb, uint32_t seg)
{
    while (a != bb) {
        // the triangle around a whose wedge holds the direction to bb
        uint32_t s = b->vtri[a], found = NONE, split = NONE;
        for (uint32_t guard = 0; guard <= b->nt; guard++) {
            const Tri *t = &b->t[s];
            uint32_t j = index_of(t, a), c = t->v[next3(j)], d = t->v[prev3(j)];
            if (c == bb) {
                constrain(b, s, j, seg);
                return 0;
            }
            if (d == bb) {
                constrain(b, s, prev3(j), seg);
                return 0;
            }
            if (c != b->ghost && d != b->ghost) {
                if (steerN_on_segment(b->pt[c], b->pt[a], b->pt[bb])) {
                    constrain(b, s, j, seg);
                    split = c;
                    break;
                }
                if (steerN_on_segment(b->pt[d], b->pt[a], b->pt[bb])) {
                    constrain(b, s, prev3(j), seg);
                    split = d;
                    break;
                }
                if (orient(b, a, c, bb) > 0 && orient(b, a, d, bb) < 0) {
                    found = s;
                    break;
                }
            }
            s = t->n[prev3(j)];
            if (s == b->vtri[a]) break;
        }
        if (split != NONE) {
            a = split;
            continue;
        }
        if (found == NONE) return -2;
        // walk: the crossed edge runs from a right vertex to a left one
        uint32_t ncav = 0, nl = 0, nr = 0, e = next3(index_of(&b->t[found], a)), end = NONE;
        s = found;
        for (;;) {
            const Tri *t = &b->t[s];
            if (t->c[e]) return t->c[e];
            if (GROW(b, list, cap_list, ncav + 2) || GROW(b, chain, cap_chain, nl + nr + 2) ||
                GROW(b, stack, cap_stack, nr + 2))
                return -1;
            b->list[ncav++] = s;
            uint32_t r = t->v[e], l = t->v[next3(e)];
            if (!nl || b->chain[nl - 1] != l) b->chain[nl++] = l;
            if (!nr || b->stack[nr - 1] != r) b->stack[nr++] = r;
            uint32_t u = t->n[e], f = edge_to(&b->t[u], s);
            uint32_t x = b->t[u].v[prev3(f)];
            if (x == bb || orient(b, a, bb, x) == 0) {
                b->list[ncav++] = u;
                end = x;
                break;
            }
            s = u;
            e = orient(b, a, bb, x) < 0 ? prev3(f) : next3(f);
        }
        // L is in chain[0..nl) in walk order, R in stack[0..nr): lay out
        // chain as L reversed then R
        if (GROW(b, chain, cap_chain, nl + nr)) return -1;
        for (uint32_t i = 0; i < nl / 2; i++) {
            uint32_t tmp = b->chain[i];
            b->chain[i] = b->chain[nl - 1 - i];
            b->chain[nl - 1 - i] = tmp;
        }
        memcpy(b->chain + nl, b->stack, nr * sizeof *b->chain);
        int r = fill_cavity(b, a, end, ncav, nl, nr, seg);
        if (r) return r;
        CHECK_STRUCTURE(b, "segment");
        a = end;
    }
    return 0;
}

// ---- inside and outside ------------------------------------------------------------

// depth[s]: the fewest constrained edges crossed from a ghost to slot s.
static int depths(Builder *b, uint32_t *depth)
{
    uint32_t ncur = 0, nnext = 0;
    if (GROW(b, stack, cap_stack, b->nt) || GROW(b, list, cap_list, 3 * b->nt)) return -1;
    for (uint32_t s = 0; s < b->nt; s++) {
        depth[s] = NONE;
        if (b->t[s].v[0] != DEAD && index_of(&b->t[s], b->ghost) != NONE) {
            depth[s] = 0;
            b->stack[ncur++] = s;
        }
    }
    for (uint32_t level = 0; ncur; level++) {
        while (ncur) {
            uint32_t s = b->stack[--ncur];
            for (uint32_t i = 0; i < 3; i++) {
                uint32_t u = b->t[s].n[i];
                if (depth[u] != NONE) continue;
                if (b->t[s].c[i]) b->list[nnext++] = u;
                else {
                    depth[u] = level;
                    b->stack[ncur++] = u;
                }
            }
        }
        for (uint32_t k = 0; k < nnext; k++) {
            uint32_t u = b->list[k];
            if (depth[u] != NONE) continue;
            depth[u] = level + 1;
            b->stack[ncur++] = u;
        }
        nnext = 0;
    }
    return 0;
}

// ---- the whole -------------------------------------------------------------------

typedef struct SortPoint {
    int64_t x, y;
    uint32_t i;
} SortPoint;

static int cmp_point(const void *pa, const void *pb)
{
    const SortPoint *p = pa, *q = pb;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

typedef struct SortSeg {
    uint32_t lo, hi, i;
} SortSeg;

static int cmp_seg(const void *pa, const void *pb)
{
    const SortSeg *p = pa, *q = pb;
    if (p->lo != q->lo) return p->lo < q->lo ? -1 : 1;
    if (p->hi != q->hi) return p->hi < q->hi ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

static steerN_CdtStatus fail(steerN_Cdt *out, steerN_CdtStatus st, uint32_t a, uint32_t bb, const char *msg)
{
    out->status = st;
    out->err_a = a;
    out->err_b = bb;
    snprintf(out->message, sizeof out->message, "%s", msg);
    return st;
}

static void free_builder(Builder *b)
{
    const steerN_Alloc *a = b->alloc;
    uint32_t n = b->n;
    steerN_realloc(a, b->pt, sizeof *b->pt * n, 0);
    steerN_realloc(a, b->orig, sizeof *b->orig * n, 0);
    steerN_realloc(a, b->rank, sizeof *b->rank * n, 0);
    steerN_realloc(a, b->vtri, sizeof *b->vtri * (n + 1), 0);
    steerN_realloc(a, b->by_first, sizeof *b->by_first * (n + 1), 0);
    steerN_realloc(a, b->t, sizeof *b->t * b->cap_t, 0);
    steerN_realloc(a, b->mark, sizeof *b->mark * b->cap_mark, 0);
    steerN_realloc(a, b->in, sizeof *b->in * b->cap_in, 0);
    steerN_realloc(a, b->freed, sizeof *b->freed * b->cap_freed, 0);
    steerN_realloc(a, b->list, sizeof *b->list * b->cap_list, 0);
    steerN_realloc(a, b->stack, sizeof *b->stack * b->cap_stack, 0);
    steerN_realloc(a, b->bnd, sizeof *b->bnd * b->cap_bnd, 0);
    steerN_realloc(a, b->chain, sizeof *b->chain * b->cap_chain, 0);
    steerN_realloc(a, b->task, sizeof *b->task * b->cap_task, 0);
}

// Sorts and checks the points into b: OK, RANGE or DUPLICATE (or NOMEM).
static steerN_CdtStatus load_points(Builder *b, steerN_Cdt *out, const int64_t *xy)
{
    uint32_t n = b->n;
    SortPoint *sp = steerN_realloc(b->alloc, NULL, 0, sizeof *sp * n);
    b->pt = steerN_realloc(b->alloc, NULL, 0, sizeof *b->pt * n);
    b->orig = steerN_realloc(b->alloc, NULL, 0, sizeof *b->orig * n);
    b->rank = steerN_realloc(b->alloc, NULL, 0, sizeof *b->rank * n);
    b->vtri = steerN_realloc(b->alloc, NULL, 0, sizeof *b->vtri * (n + 1));
    b->by_first = steerN_realloc(b->alloc, NULL, 0, sizeof *b->by_first * (n + 1));
    steerN_CdtStatus st = STEERN_CDT_OK;
    if (!sp || !b->pt || !b->orig || !b->rank || !b->vtri || !b->by_first) {
        st = fail(out, STEERN_CDT_NOMEM, 0, 0, "out of memory");
        goto done;
    }
    char msg[sizeof out->message];
    for (uint32_t i = 0; i < n; i++) {
        sp[i] = (SortPoint){ xy[2 * i], xy[2 * i + 1], i };
        if (!steerN_coord_ok(xy + 2 * i)) {
            snprintf(msg, sizeof msg, "point %" PRIu32 " (%" PRId64 ", %" PRId64 ") is beyond +-2^40", i, xy[2 * i],
                     xy[2 * i + 1]);
            st = fail(out, STEERN_CDT_RANGE, i, 0, msg);
            goto done;
        }
    }
    qsort(sp, n, sizeof *sp, cmp_point);
    for (uint32_t i = 0; i < n; i++) {
        if (i && sp[i].x == sp[i - 1].x && sp[i].y == sp[i - 1].y) {
            snprintf(msg, sizeof msg, "points %" PRIu32 " and %" PRIu32 " are the same (%" PRId64 ", %" PRId64 ")",
                     sp[i - 1].i, sp[i].i, sp[i].x, sp[i].y);
            st = fail(out, STEERN_CDT_DUPLICATE, sp[i - 1].i, sp[i].i, msg);
            goto done;
        }
        b->pt[i][0] = sp[i].x;
        b->pt[i][1] = sp[i].y;
        b->orig[i] = sp[i].i;
        b->rank[sp[i].i] = i;
        b->vtri[i] = NONE;
    }
done:
    steerN_realloc(b->alloc, sp, sizeof *sp * n, 0);
    return st;
}

// Checks, sorts and inserts the segments.
static steerN_CdtStatus load_segments(Builder *b, steerN_Cdt *out, const uint32_t *seg, uint32_t m)
{
    char msg[sizeof out->message];
    for (uint32_t j = 0; j < m; j++) {
        if (seg[2 * j] >= b->n || seg[2 * j + 1] >= b->n || seg[2 * j] == seg[2 * j + 1]) {
            snprintf(msg, sizeof msg,
                     "segment %" PRIu32 " (%" PRIu32 ", %" PRIu32 ") needs two different points of 0..%" PRIu32, j,
                     seg[2 * j], seg[2 * j + 1], b->n - 1);
            return fail(out, STEERN_CDT_SEGMENT, j, 0, msg);
        }
    }
    if (!m || !b->nt) return STEERN_CDT_OK; // no triangle: nothing for a segment to cross
    SortSeg *ss = steerN_realloc(b->alloc, NULL, 0, sizeof *ss * m);
    if (!ss) return fail(out, STEERN_CDT_NOMEM, 0, 0, "out of memory");
    for (uint32_t j = 0; j < m; j++) {
        uint32_t p = b->rank[seg[2 * j]], q = b->rank[seg[2 * j + 1]];
        ss[j] = (SortSeg){ p < q ? p : q, p < q ? q : p, j };
    }
    qsort(ss, m, sizeof *ss, cmp_seg);
    steerN_CdtStatus st = STEERN_CDT_OK;
    for (uint32_t j = 0; j < m && st == STEERN_CDT_OK; j++) {
        int64_t r = insert_segment(b, ss[j].lo, ss[j].hi, j + 1);
        if (r == -1) st = fail(out, STEERN_CDT_NOMEM, 0, 0, "out of memory");
        else if (r == -2)
            st = fail(out, STEERN_CDT_INTERNAL, ss[j].i, 0, "internal error: a segment's end has no wedge");
        else if (r > 0) {
            uint32_t other = ss[r - 1].i, a = ss[j].i < other ? ss[j].i : other, c = ss[j].i < other ? other : ss[j].i;
            snprintf(msg, sizeof msg, "segments %" PRIu32 " and %" PRIu32 " cross", a, c);
            st = fail(out, STEERN_CDT_CROSSING, a, c, msg);
        }
    }
    steerN_realloc(b->alloc, ss, sizeof *ss * m, 0);
    return st;
}

// The live finite triangles into out, in slot order, with caller's indices.
static steerN_CdtStatus emit(Builder *b, steerN_Cdt *out, uint32_t *depth)
{
    uint32_t *slot_out = b->mark, count = 0;
    for (uint32_t s = 0; s < b->nt; s++) {
        bool real = b->t[s].v[0] != DEAD && index_of(&b->t[s], b->ghost) == NONE;
        slot_out[s] = real ? count++ : NONE;
    }
    out->tri = steerN_realloc(&out->alloc, NULL, 0, sizeof *out->tri * 3 * count);
    out->adj = steerN_realloc(&out->alloc, NULL, 0, sizeof *out->adj * 3 * count);
    out->flags = steerN_realloc(&out->alloc, NULL, 0, count);
    out->ntri = count;
    if (count && (!out->tri || !out->adj || !out->flags)) return fail(out, STEERN_CDT_NOMEM, 0, 0, "out of memory");
    for (uint32_t s = 0; s < b->nt; s++) {
        uint32_t o = slot_out[s];
        if (o == NONE) continue;
        const Tri *t = &b->t[s];
        uint8_t f = depth[s] % 2 ? STEERN_CDT_INSIDE : 0;
        for (uint32_t i = 0; i < 3; i++) {
            out->tri[3 * o + i] = b->orig[t->v[i]];
            out->adj[3 * o + i] = slot_out[t->n[i]] == NONE ? -1 : (int32_t)slot_out[t->n[i]];
            if (t->c[i]) f |= (uint8_t)(1u << i);
        }
        out->flags[o] = f;
    }
    return STEERN_CDT_OK;
}

steerN_CdtStatus steerN_cdt_build(steerN_Cdt *out, const int64_t *xy, uint32_t n, const uint32_t *seg, uint32_t m,
                                  const steerN_Alloc *alloc)
{
    memset(out, 0, sizeof *out);
    if (alloc) out->alloc = *alloc;
    Builder b = { 0 };
    b.alloc = &out->alloc;
    b.n = n;
    b.ghost = n;
    steerN_CdtStatus st = load_points(&b, out, xy);
    if (st == STEERN_CDT_OK && n >= 3) {
        int r = triangulate_points(&b);
        if (r == -1) st = fail(out, STEERN_CDT_NOMEM, 0, 0, "out of memory");
        if (r == -2) st = fail(out, STEERN_CDT_INTERNAL, 0, 0, "internal error: a point conflicts with no triangle");
    }
    if (st == STEERN_CDT_OK) st = load_segments(&b, out, seg, m);
    if (st == STEERN_CDT_OK && b.nt) {
        uint32_t *depth = steerN_realloc(&out->alloc, NULL, 0, sizeof *depth * b.nt);
        if (!depth || depths(&b, depth)) st = fail(out, STEERN_CDT_NOMEM, 0, 0, "out of memory");
        else st = emit(&b, out, depth);
        steerN_realloc(&out->alloc, depth, sizeof *depth * b.nt, 0);
    }
    free_builder(&b);
    if (st != STEERN_CDT_OK) {
        steerN_Alloc keep = out->alloc;
        steerN_cdt_free(out);
        out->alloc = keep;
    }
    return st;
}

void steerN_cdt_free(steerN_Cdt *c)
{
    steerN_realloc(&c->alloc, c->tri, sizeof *c->tri * 3 * c->ntri, 0);
    steerN_realloc(&c->alloc, c->adj, sizeof *c->adj * 3 * c->ntri, 0);
    steerN_realloc(&c->alloc, c->flags, c->ntri, 0);
    c->tri = NULL;
    c->adj = NULL;
    c->flags = NULL;
    c->ntri = 0;
}
