// SPDX-License-Identifier: MIT
// nearest.c — the neighbour list of a brain that reads only its k nearest
// neighbours (steerB_Kind.nearest: reciprocal keeps its 10 nearest of the
// often hundreds in its range), gathered nearest first.
//
// The steer pass hands every agent of a cell the same candidates: the
// agents of the cell's block (the cell and the ring around it, cells at
// least the largest sense radius wide: steerG_block). steerG_filter scans
// them all. Here the block's agents are sorted once, on the first agent of
// the block that asks, into sub-cells (about two agents each, 3s per axis,
// each grid cell cut in s); each agent then visits the sub-cells in rings
// of growing distance around its own, and stops when the k-th smallest
// squared distance found so far is below the nearest any unvisited
// sub-cell can hold (or the radius is). Every distance is computed as
// steerG_filter computes it (the run's shift taken from the agent's
// position, the same operations in the same order), so the list is a part
// of steerG_filter's list, to the bit: every entry nearer than a bound at
// least the k-th smallest distance (the k nearest, ties included, and
// often a few more), which is all a k-nearest reader reads.
//
// The bounds are conservative by a margin (eps, and a relative 1e-5 on the
// squares) larger than the rounding of the float coordinates: stopping
// later than needed costs a few candidates, never a neighbour. A block
// holding an agent outside its cells (an unbounded world's agents far away
// sit in the border cells: grid.c's narrow_axis) is not sorted: its agents
// get steerG_filter's list, from which the brain picks the same.
#include "grid.h"
#include "store.h"
#include "neighbors.h"

#include <float.h>
#include <math.h>
#include <string.h>

static bool reserve_items(const steer_World *w, steerG_Near *nr, uint32_t need)
{
    if (!nr->start) {
        nr->start = steerA_realloc(w, NULL, sizeof *nr->start * (STEERG_NEAR_CELLS + 1));
        if (!nr->start) return false;
    }
    return steerA_reserve(w, (void **)&nr->items, &nr->cap, need, sizeof *nr->items, 64);
}

// Sub-cells per grid cell and axis for `total` agents in the block: about
// two agents a sub-cell.
static int cuts(uint32_t total, int dim)
{
    // the nearest s to sqrt(total / 18) in 2D, cbrt(total / 54) in 3D (in
    // integers: libm's roots need not be the same bits everywhere)
    int most = dim == 3 ? 4 : 8, s = 1; // STEERG_NEAR_CELLS
    for (uint64_t t = total, h = 2 * (uint64_t)s + 1; s < most; s++, h += 2)
        if (dim == 3 ? 54 * h * h * h > 8 * t : 18 * h * h > 4 * t) break;
    return s;
}

// Sort the block's agents (loc's runs) into sub-cells. 1 done, -1 when a
// agent lies outside the block's cells or out of memory (the plain filter).
static int build(const steer_World *w, steerW_Local *loc)
{
    steerG_Near *nr = &loc->near;
    const steerG_Grid *g = &w->grid;
    int dim = w->dim;
    uint32_t total = 0;
    for (int q = 0; q < loc->nruns; q++) total += loc->runs[q].e - loc->runs[q].b;
    if (!reserve_items(w, nr, total)) return -1;
    int s = cuts(total, dim);
    uint32_t c = nr->cell, cc[3] = { c % (uint32_t)g->n[0], (c / (uint32_t)g->n[0]) % (uint32_t)g->n[1],
                                     c / ((uint32_t)g->n[0] * (uint32_t)g->n[1]) };
    float mag = 0.0f, narrow = FLT_MAX;
    for (int a = 0; a < 3; a++) {
        if (a >= dim) {
            nr->n[a] = 1;
            nr->lo[a] = 0.0f;
            nr->width[a] = nr->inv[a] = 1.0f;
            continue;
        }
        nr->n[a] = 3 * s;
        nr->lo[a] = g->lo[a] + ((float)cc[a] - 1.0f) * g->cell[a];
        nr->width[a] = g->cell[a] / (float)s;
        nr->inv[a] = (float)s / g->cell[a];
        float m = fabsf(nr->lo[a]) + 3.0f * g->cell[a] + (w->wrap ? w->size[a] : 0.0f);
        if (m > mag) mag = m;
        if (nr->width[a] < narrow) narrow = nr->width[a];
    }
    nr->eps = 1e-3f * narrow + 64.0f * FLT_EPSILON * mag;
    if (!(nr->eps < 0.25f * narrow)) return -1; // cells too fine for the floats: no gain
    // count per sub-cell (the sub-cell of each agent kept in the scratch's
    // d meanwhile: it is reserved for the block and not in use yet)
    int cells = nr->n[0] * nr->n[1] * nr->n[2];
    uint32_t *start = nr->start;
    memset(start, 0, sizeof *start * (size_t)(cells + 1));
    const float *X[3] = { g->sp[0], g->sp[1], g->sp[2] };
    uint32_t j = 0;
    for (int q = 0; q < loc->nruns; q++) {
        const steerG_Run *r = &loc->runs[q];
        for (uint32_t i = r->b; i < r->e; i++, j++) {
            int at = 0;
            for (int a = dim - 1; a >= 0; a--) {
                float u = (X[a][i] + r->shift[a] - nr->lo[a]) * nr->inv[a], slack = nr->eps * nr->inv[a];
                if (!(u >= -slack && u < (float)nr->n[a] + slack)) return -1;
                int k = u < 0.0f ? 0 : (int)u;
                if (k >= nr->n[a]) k = nr->n[a] - 1;
                at = at * nr->n[a] + k;
            }
            loc->scratch[j].d = (uint32_t)at;
            start[at + 1]++;
        }
    }
    for (int k = 0; k < cells; k++) start[k + 1] += start[k];
    j = 0;
    for (int q = 0; q < loc->nruns; q++) {
        const steerG_Run *r = &loc->runs[q];
        for (uint32_t i = r->b; i < r->e; i++, j++) {
            steerG_NearItem *it = &nr->items[start[loc->scratch[j].d]++];
            it->x = X[0][i];
            it->y = X[1][i];
            it->z = X[2] ? X[2][i] : 0.0f;
            it->id = g->items[i];
            it->q = (uint32_t)q;
        }
    }
    for (int k = cells; k > 0; k--) start[k] = start[k - 1];
    start[0] = 0;
    return 1;
}

// Sub-cell items [b, e) into the list at out + *m: each written, counted
// when within r2 and not self, as steerG_filter does.
static inline void visit(const steerG_Near *nr, float (*pq)[3], bool d3, uint32_t b, uint32_t e, float r2,
                         uint32_t self, steerB_Neighbor *out, int *m)
{
    int k = *m;
    for (uint32_t i = b; i < e; i++) {
        const steerG_NearItem *it = &nr->items[i];
        const float *q = pq[it->q];
        float dx = it->x - q[0], dy = it->y - q[1], dz = 0.0f, d2;
        if (d3) {
            dz = it->z - q[2];
            d2 = dx * dx + dy * dy + dz * dz;
        } else {
            d2 = dx * dx + dy * dy;
        }
        out[k] = (steerB_Neighbor){ it->id, { dx, dy, dz }, d2 };
        k += (d2 < r2) & (it->id != self);
    }
    *m = k;
}

int steerG_nearest(const steer_World *w, steerW_Local *loc, const float p[3], float radius, uint32_t self, int k)
{
    steerG_Near *nr = &loc->near;
    if (nr->state == 0) nr->state = build(w, loc);
    if (nr->state < 0 || k < 1 || k > STEERG_NEAR_K) return steerG_filter(w, loc, p, radius, self);
    bool d3 = w->grid.sp[2] != NULL;
    float pq[18][3]; // the agent's position less each run's shift, as steerG_filter takes it
    for (int q = 0; q < loc->nruns; q++)
        for (int a = 0; a < 3; a++) pq[q][a] = p[a] - loc->runs[q].shift[a];
    int at[3] = { 0, 0, 0 };
    for (int a = 0; a < w->dim; a++) {
        float u = (p[a] - nr->lo[a]) * nr->inv[a];
        if (!(u >= 0.0f && u < (float)nr->n[a])) return steerG_filter(w, loc, p, radius, self);
        at[a] = (int)u;
    }
    float r2 = radius * radius;
    steerB_Neighbor *out = loc->scratch;
    float within = INFINITY; // the k nearest are within this (squared)
    int m = 0, nx = nr->n[0], ny = nr->n[1], nz = nr->n[2];
    for (int ring = 0;; ring++) {
        // the sub-cells at Chebyshev distance `ring` from the agent's
        int z0 = at[2] - ring < 0 ? 0 : at[2] - ring, z1 = at[2] + ring >= nz ? nz - 1 : at[2] + ring;
        int y0 = at[1] - ring < 0 ? 0 : at[1] - ring, y1 = at[1] + ring >= ny ? ny - 1 : at[1] + ring;
        int x0 = at[0] - ring < 0 ? 0 : at[0] - ring, x1 = at[0] + ring >= nx ? nx - 1 : at[0] + ring;
        for (int z = z0; z <= z1; z++) {
            bool face = z == at[2] - ring || z == at[2] + ring;
            for (int y = y0; y <= y1; y++) {
                uint32_t row = (uint32_t)((z * ny + y) * nx);
                if (face || y == at[1] - ring || y == at[1] + ring) {
                    visit(nr, pq, d3, nr->start[row + (uint32_t)x0], nr->start[row + (uint32_t)x1 + 1], r2, self, out,
                          &m);
                    continue;
                }
                if (at[0] - ring >= 0) {
                    uint32_t x = (uint32_t)(at[0] - ring);
                    visit(nr, pq, d3, nr->start[row + x], nr->start[row + x + 1], r2, self, out, &m);
                }
                if (at[0] + ring < nx) {
                    uint32_t x = (uint32_t)(at[0] + ring);
                    visit(nr, pq, d3, nr->start[row + x], nr->start[row + x + 1], r2, self, out, &m);
                }
            }
        }
        // the nearest an unvisited sub-cell can be: the nearest face of
        // the visited cube that has sub-cells beyond it
        float lb = FLT_MAX;
        bool more = false;
        for (int a = 0; a < w->dim; a++) {
            if (at[a] - ring > 0) {
                more = true;
                float f = p[a] - (nr->lo[a] + (float)(at[a] - ring) * nr->width[a]);
                if (f < lb) lb = f;
            }
            if (at[a] + ring + 1 < nr->n[a]) {
                more = true;
                float f = nr->lo[a] + (float)(at[a] + ring + 1) * nr->width[a] - p[a];
                if (f < lb) lb = f;
            }
        }
        if (!more) break;
        lb -= nr->eps;
        float lb2 = lb > 0.0f ? lb * lb * (1.0f - 1e-5f) : 0.0f;
        if (r2 <= lb2) break;
        // k found nearer than any unvisited agent can be: the k nearest are found
        int near = 0;
        for (int i = 0; i < m; i++) near += out[i].d2 < lb2;
        if (near >= k) {
            within = lb2;
            break;
        }
    }
    if (within == INFINITY) return m;
    // the nearest within the bound: the k nearest and maybe a few more
    int o = 0;
    for (int i = 0; i < m; i++) {
        steerB_Neighbor e = out[i]; // whole, before the store (which may be to it)
        out[o] = e;
        o += e.d2 < within;
    }
    return o;
}
