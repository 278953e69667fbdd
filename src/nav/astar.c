// SPDX-License-Identifier: MIT
// astar.c — A* on the navigation grid, then string pulling.
//
// The search is 8-connected with the octile distance (scaled by the
// cheapest cost on the grid, so it never overestimates) as heuristic,
// which makes the cell path cost-optimal. The route handed out replaces
// the cell centres by as few straight segments as line of sight allows:
// from an anchor it reaches as far along the cell path as it can see,
// through cells no dearer than the cheapest it skips. Each shortcut is a
// straight line between two points of the cell path, so the route is never
// longer than the cell path it came from, and (its cells being no dearer)
// never costs more.
#include "nav.h"

#include <stdlib.h>
#include <string.h>

static double octile(const steerN_Grid *g, int x, int y, int gx, int gy)
{
    double dx = abs(x - gx), dy = abs(y - gy);
    double lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return ((hi - lo) + 1.4142135623730951 * lo) * g->cell * g->min_cost;
}

static int reserve(const steerN_Grid *g, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return 0;
    uint32_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = steerN_realloc(&g->alloc, *p, elem * *cap, elem * c);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

// The cell path of the search into g->cells in travel order; its length.
static int cell_path(steerN_Grid *g, uint32_t start, uint32_t goal, uint32_t *n)
{
    uint32_t k = 1;
    for (uint32_t c = goal; c != start; c = g->parent[c]) k++;
    if (reserve(g, (void **)&g->cells, &g->cap_cells, k, sizeof *g->cells)) return -1;
    uint32_t i = k;
    for (uint32_t c = goal;; c = g->parent[c]) {
        g->cells[--i] = c;
        if (c == start) break;
    }
    *n = k;
    return 0;
}

static void push_point(steerN_Grid *g, const double p[2])
{
    g->path[2 * g->npath] = p[0];
    g->path[2 * g->npath + 1] = p[1];
    g->npath++;
}

// Point i of the unsmoothed route: from, the inner cell centres, to.
static void route_point(const steerN_Grid *g, uint32_t i, uint32_t n, const double from[2], const double to[2],
                        double out[2])
{
    if (i == 0) {
        out[0] = from[0];
        out[1] = from[1];
        return;
    }
    if (i == n - 1) {
        out[0] = to[0];
        out[1] = to[1];
        return;
    }
    uint32_t c = g->cells[i];
    steerN_center(g, (int)(c % (uint32_t)g->nx), (int)(c / (uint32_t)g->nx), out);
}

static int smooth(steerN_Grid *g, uint32_t n, const double from[2], const double to[2])
{
    if (reserve(g, (void **)&g->path, &g->cap_path, 2 * (n > 2 ? n : 2), sizeof *g->path)) return -1;
    g->npath = 0;
    push_point(g, from);
    if (n < 2) {
        push_point(g, to);
        return 0;
    }
    uint32_t anchor = 0;
    double a[2];
    route_point(g, 0, n, from, to, a);
    while (anchor < n - 1) {
        // the furthest point seen from the anchor through cells no dearer
        // than the cheapest of the cell path between them
        uint32_t best = anchor + 1;
        double cheapest = fmin(g->cost[g->cells[anchor]], g->cost[g->cells[anchor + 1]]);
        for (uint32_t j = anchor + 2; j < n; j++) {
            cheapest = fmin(cheapest, g->cost[g->cells[j]]);
            double b[2];
            route_point(g, j, n, from, to, b);
            if (!steerN_line_of_sight(g, a, b, cheapest)) break;
            best = j;
        }
        route_point(g, best, n, from, to, a);
        push_point(g, a);
        anchor = best;
    }
    return 0;
}

int steerN_path(steerN_Grid *g, const double from[2], const double to[2], double *cost)
{
    int sx, sy, gx, gy;
    *cost = INFINITY;
    if (!steerN_cell_of(g, from, &sx, &sy) || !steerN_cell_of(g, to, &gx, &gy)) return 0;
    if (!steerN_open(g, sx, sy) || !steerN_open(g, gx, gy)) return 0;
    uint32_t w = (uint32_t)g->nx, start = (uint32_t)sy * w + (uint32_t)sx, goal = (uint32_t)gy * w + (uint32_t)gx;
    if (!g->seen) {
        // the search's scratch, on the first query (flow-field-only grids never pay for it)
        size_t n = (size_t)g->nx * (size_t)g->ny;
        g->g = steerN_realloc(&g->alloc, NULL, 0, sizeof *g->g * n);
        g->parent = steerN_realloc(&g->alloc, NULL, 0, sizeof *g->parent * n);
        g->seen = steerN_realloc(&g->alloc, NULL, 0, sizeof *g->seen * n);
        if (!g->g || !g->parent || !g->seen) {
            steerN_realloc(&g->alloc, g->g, sizeof *g->g * n, 0);
            steerN_realloc(&g->alloc, g->parent, sizeof *g->parent * n, 0);
            steerN_realloc(&g->alloc, g->seen, sizeof *g->seen * n, 0);
            g->g = NULL;
            g->parent = g->seen = NULL;
            return -1;
        }
        memset(g->seen, 0, sizeof *g->seen * n);
    }
    // two stamps per query: seen == s (has a cost so far), s + 1 (closed)
    if (g->stamp >= UINT32_MAX - 4) {
        memset(g->seen, 0, sizeof *g->seen * (size_t)g->nx * (size_t)g->ny);
        g->stamp = 0;
    }
    uint32_t s = g->stamp += 2;
    g->heap.n = 0;
    g->g[start] = 0;
    g->parent[start] = start;
    g->seen[start] = s;
    if (steerN_heap_push(&g->heap, octile(g, sx, sy, gx, gy), start)) return -1;
    bool found = false;
    while (g->heap.n) {
        double f;
        uint32_t c = steerN_heap_pop(&g->heap, &f);
        if (g->seen[c] != s) continue; // closed already (a stale entry)
        g->seen[c] = s + 1;
        if (c == goal) {
            found = true;
            break;
        }
        int x = (int)(c % w), y = (int)(c / w);
        double steps[8];
        steerN_steps(g, x, y, steps);
        for (int k = 0; k < 8; k++) {
            double step = steps[k];
            if (step == INFINITY) continue;
            int nx = x + steerN_dx[k], ny = y + steerN_dy[k];
            uint32_t m = (uint32_t)ny * w + (uint32_t)nx;
            if (g->seen[m] == s + 1) continue;
            double ng = g->g[c] + step;
            if (g->seen[m] == s && ng >= g->g[m]) continue;
            g->seen[m] = s;
            g->g[m] = ng;
            g->parent[m] = c;
            if (steerN_heap_push(&g->heap, ng + octile(g, nx, ny, gx, gy), m)) return -1;
        }
    }
    if (!found) return 0;
    *cost = g->g[goal];
    uint32_t n;
    if (cell_path(g, start, goal, &n) || smooth(g, n, from, to)) return -1;
    return 1;
}
