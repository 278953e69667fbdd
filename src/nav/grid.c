// SPDX-License-Identifier: MIT
// grid.c — the navigation grid: cells and costs, line of sight, the walls
// of its blocked cells, and the heap A* and the flow fields share.
//
// Line of sight and rays walk every cell the segment touches (Amanatides & Woo),
// and where the segment passes exactly through a cell corner it checks
// both cells beside the corner too, so a sight line never squeezes
// between two blocked cells that meet diagonally.
#include "nav.h"

#include <stdlib.h>
#include <string.h>

const int steerN_dx[8] = { 1, 0, -1, 0, 1, -1, -1, 1 };
const int steerN_dy[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };

// ---- memory ----------------------------------------------------------------------

void *steerN_realloc(const steerN_Alloc *a, void *p, size_t osize, size_t nsize)
{
    if (!p && nsize == 0) return NULL;
    if (a->fn) return a->fn(a->ud, p, p ? osize : 0, nsize);
    if (nsize == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, nsize);
}

int steerN_resize2(const steerN_Alloc *a, void **p, size_t psize, void **q, size_t qsize, size_t n, size_t m)
{
    void *np = steerN_realloc(a, NULL, 0, psize * m), *nq = steerN_realloc(a, NULL, 0, qsize * m);
    if (!np || !nq) {
        steerN_realloc(a, np, psize * m, 0);
        steerN_realloc(a, nq, qsize * m, 0);
        return -1;
    }
    size_t keep = n < m ? n : m;
    if (keep) {
        memcpy(np, *p, psize * keep);
        memcpy(nq, *q, qsize * keep);
    }
    steerN_realloc(a, *p, psize * n, 0);
    steerN_realloc(a, *q, qsize * n, 0);
    *p = np;
    *q = nq;
    return 0;
}

// ---- the grid ----------------------------------------------------------------------

static size_t ncells(const steerN_Grid *g) { return (size_t)g->nx * (size_t)g->ny; }

int steerN_grid_init(steerN_Grid *g, int nx, int ny, double cell, const double origin[2], const steerN_Alloc *alloc)
{
    memset(g, 0, sizeof *g);
    atomic_init(&g->refs, 0); // kept in place: counted by nobody
    if (alloc) g->alloc = g->heap.alloc = *alloc;
    size_t n = (size_t)nx * (size_t)ny;
    g->nx = nx;
    g->ny = ny;
    g->cell = cell;
    g->origin[0] = origin[0];
    g->origin[1] = origin[1];
    g->min_cost = 1.0;
    g->cost = steerN_realloc(&g->alloc, NULL, 0, sizeof *g->cost * n);
    if (!g->cost) return -1;
    for (size_t i = 0; i < n; i++) g->cost[i] = 1.0f;
    return 0;
}

void steerN_grid_free(steerN_Grid *g)
{
    const steerN_Alloc a = g->alloc;
    size_t n = ncells(g);
    steerN_realloc(&a, g->cost, sizeof *g->cost * n, 0);
    steerN_realloc(&a, g->g, sizeof *g->g * n, 0);
    steerN_realloc(&a, g->parent, sizeof *g->parent * n, 0);
    steerN_realloc(&a, g->seen, sizeof *g->seen * n, 0);
    steerN_realloc(&a, g->path, sizeof *g->path * g->cap_path, 0);
    steerN_realloc(&a, g->cells, sizeof *g->cells * g->cap_cells, 0);
    steerN_heap_free(&g->heap);
    memset(g, 0, sizeof *g);
}

steerN_Grid *steerN_grid_new(int nx, int ny, double cell, const double origin[2], const steerN_Alloc *alloc)
{
    const steerN_Alloc a = alloc ? *alloc : (steerN_Alloc){ NULL, NULL };
    steerN_Grid *g = steerN_realloc(&a, NULL, 0, sizeof *g);
    if (!g) return NULL;
    if (steerN_grid_init(g, nx, ny, cell, origin, &a)) {
        steerN_realloc(&a, g, sizeof *g, 0);
        return NULL;
    }
    atomic_init(&g->refs, 1);
    return g;
}

// A grid kept in place (steerN_grid_init) has no count (0) and is nobody's
// to free: retain and release leave it alone, also when a counted field is
// made on it. A counted one has at least 1 while anyone holds it.
void steerN_grid_retain(steerN_Grid *g)
{
    if (atomic_load_explicit(&g->refs, memory_order_relaxed))
        atomic_fetch_add_explicit(&g->refs, 1, memory_order_relaxed);
}

// The release that drops the last reference sees every write made under
// the others (acq_rel), so it frees what they wrote last.
void steerN_grid_release(steerN_Grid *g)
{
    if (!g || !atomic_load_explicit(&g->refs, memory_order_relaxed) ||
        atomic_fetch_sub_explicit(&g->refs, 1, memory_order_acq_rel) != 1)
        return;
    const steerN_Alloc a = g->alloc;
    steerN_grid_free(g);
    steerN_realloc(&a, g, sizeof *g, 0);
}

bool steerN_grid_copy(steerN_Grid *dst, const steerN_Grid *src)
{
    if (dst->nx != src->nx || dst->ny != src->ny) return false;
    if (dst != src) memcpy(dst->cost, src->cost, sizeof *dst->cost * ncells(dst));
    dst->min_cost = src->min_cost;
    dst->version = src->version;
    return true;
}

size_t steerN_grid_bytes(const steerN_Grid *g)
{
    size_t n = (size_t)g->nx * (size_t)g->ny, bytes = sizeof *g + sizeof *g->cost * n;
    if (g->seen) bytes += (sizeof *g->g + sizeof *g->parent + sizeof *g->seen) * n;
    bytes += (sizeof *g->heap.key + sizeof *g->heap.item) * g->heap.cap;
    return bytes + sizeof *g->path * g->cap_path + sizeof *g->cells * g->cap_cells;
}

bool steerN_cell_of(const steerN_Grid *g, const double p[2], int *x, int *y)
{
    double u = (p[0] - g->origin[0]) / g->cell, v = (p[1] - g->origin[1]) / g->cell;
    if (!(u >= 0.0 && v >= 0.0 && u < (double)g->nx && v < (double)g->ny)) return false;
    *x = (int)u;
    *y = (int)v;
    return true;
}

void steerN_center(const steerN_Grid *g, int x, int y, double out[2])
{
    out[0] = g->origin[0] + ((double)x + 0.5) * g->cell;
    out[1] = g->origin[1] + ((double)y + 0.5) * g->cell;
}

void steerN_set_cost(steerN_Grid *g, int x, int y, float cost)
{
    g->cost[(size_t)y * (size_t)g->nx + (size_t)x] = cost;
    if (cost < g->min_cost) g->min_cost = cost; // a bound, never raised: A* stays admissible
    g->version++;
}

double steerN_step_cost(const steerN_Grid *g, int x, int y, int k)
{
    double steps[8];
    steerN_steps(g, x, y, steps);
    return steps[k];
}

void steerN_steps(const steerN_Grid *g, int x, int y, double out[8])
{
    const float *cost = g->cost;
    size_t w = (size_t)g->nx, c = (size_t)y * w + (size_t)x;
    double here = cost[c], half = 0.5 * g->cell, diag = half * 1.4142135623730951;
    bool has_e = x + 1 < g->nx, has_n = y + 1 < g->ny, has_w = x > 0, has_s = y > 0;
    double e = has_e ? cost[c + 1] : INFINITY, n = has_n ? cost[c + w] : INFINITY;
    double wv = has_w ? cost[c - 1] : INFINITY, s = has_s ? cost[c - w] : INFINITY;
    // INFINITY + a finite cost stays INFINITY: a blocked neighbour needs no branch
    out[0] = half * (here + e);
    out[1] = half * (here + n);
    out[2] = half * (here + wv);
    out[3] = half * (here + s);
    out[4] = e < INFINITY && n < INFINITY ? diag * (here + cost[c + w + 1]) : INFINITY;
    out[5] = wv < INFINITY && n < INFINITY ? diag * (here + cost[c + w - 1]) : INFINITY;
    out[6] = wv < INFINITY && s < INFINITY ? diag * (here + cost[c - w - 1]) : INFINITY;
    out[7] = e < INFINITY && s < INFINITY ? diag * (here + cost[c - w + 1]) : INFINITY;
}

static bool clear(const steerN_Grid *g, int x, int y, double max_cost)
{
    return steerN_open(g, x, y) && g->cost[(size_t)y * (size_t)g->nx + (size_t)x] <= max_cost;
}

// The walk along (x0, y0) + t (dx, dy), in cell units: the t at which it
// first enters a cell that is not clear (blocked, outside, or dearer than
// max_cost), 0 when it starts in one, INFINITY when none before t = limit.
static double first_hit(const steerN_Grid *g, double x0, double y0, double dx, double dy, double limit, double max_cost)
{
    int x = (int)floor(x0), y = (int)floor(y0);
    if (!clear(g, x, y, max_cost)) return 0;
    int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    double tx = dx != 0 ? (sx > 0 ? (double)x + 1 - x0 : x0 - (double)x) / fabs(dx) : INFINITY;
    double ty = dy != 0 ? (sy > 0 ? (double)y + 1 - y0 : y0 - (double)y) / fabs(dy) : INFINITY;
    double ddx = dx != 0 ? 1.0 / fabs(dx) : INFINITY, ddy = dy != 0 ? 1.0 / fabs(dy) : INFINITY;
    for (;;) {
        double t = tx < ty ? tx : ty;
        if (!(t <= limit)) return INFINITY;
        if (fabs(tx - ty) < 1e-12) {
            // through a corner: the two cells beside it count as touched
            if (!clear(g, x + sx, y, max_cost) || !clear(g, x, y + sy, max_cost)) return t;
            x += sx;
            y += sy;
            tx += ddx;
            ty += ddy;
        } else if (tx < ty) {
            x += sx;
            tx += ddx;
        } else {
            y += sy;
            ty += ddy;
        }
        if (!clear(g, x, y, max_cost)) return t;
    }
}

bool steerN_line_of_sight(const steerN_Grid *g, const double a[2], const double b[2], double max_cost)
{
    double x0 = (a[0] - g->origin[0]) / g->cell, y0 = (a[1] - g->origin[1]) / g->cell;
    double x1 = (b[0] - g->origin[0]) / g->cell, y1 = (b[1] - g->origin[1]) / g->cell;
    if (!(x0 >= 0 && y0 >= 0 && x1 >= 0 && y1 >= 0 && x0 < g->nx && x1 < g->nx && y0 < g->ny && y1 < g->ny))
        return false;
    return first_hit(g, x0, y0, x1 - x0, y1 - y0, 1.0, max_cost) > 1.0;
}

double steerN_ray(const steerN_Grid *g, const double p[2], const double d[2], double max)
{
    double x0 = (p[0] - g->origin[0]) / g->cell, y0 = (p[1] - g->origin[1]) / g->cell;
    if (!(x0 >= 0 && y0 >= 0 && x0 < g->nx && y0 < g->ny)) return 0;
    double t = first_hit(g, x0, y0, d[0], d[1], max / g->cell, INFINITY) * g->cell;
    return t < max ? t : max;
}

// ---- walls -------------------------------------------------------------------

// One family of grid lines (horizontal: the lines between rows; vertical:
// between columns): an edge is a wall where exactly one of the two cells
// it separates is open; runs of edges with the open side on the same side
// merge into one segment.
static int wall_lines(const steerN_Grid *g, bool horizontal, steerN_WallFn fn, void *ud)
{
    int lines = horizontal ? g->ny : g->nx, along = horizontal ? g->nx : g->ny;
    for (int l = 0; l <= lines; l++) {
        int run = -1, side = 0;
        for (int k = 0; k <= along; k++) {
            int s = 0;
            if (k < along) {
                bool lo = horizontal ? steerN_open(g, k, l - 1) : steerN_open(g, l - 1, k);
                bool hi = horizontal ? steerN_open(g, k, l) : steerN_open(g, l, k);
                s = lo == hi ? 0 : lo ? 1 : 2;
            }
            if (run >= 0 && s != side) {
                double a[2], b[2];
                double fixed = (double)l * g->cell, from = (double)run * g->cell, to = (double)k * g->cell;
                int ax = horizontal ? 0 : 1, bx = 1 - ax;
                a[ax] = g->origin[ax] + from;
                b[ax] = g->origin[ax] + to;
                a[bx] = b[bx] = g->origin[bx] + fixed;
                int r = fn(ud, a, b);
                if (r) return r;
                run = -1;
            }
            if (s && run < 0) {
                run = k;
                side = s;
            }
        }
    }
    return 0;
}

int steerN_walls(const steerN_Grid *g, steerN_WallFn fn, void *ud)
{
    int r = wall_lines(g, true, fn, ud);
    return r ? r : wall_lines(g, false, fn, ud);
}

// ---- heap ----------------------------------------------------------------------

int steerN_heap_push(steerN_Heap *h, double key, uint32_t item)
{
    if (h->n == h->cap) {
        uint32_t cap = h->cap ? h->cap * 2 : 256;
        if (steerN_resize2(&h->alloc, (void **)&h->key, sizeof *h->key, (void **)&h->item, sizeof *h->item, h->cap,
                           cap))
            return -1;
        h->cap = cap;
    }
    uint32_t i = h->n++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (h->key[up] <= key) break;
        h->key[i] = h->key[up];
        h->item[i] = h->item[up];
        i = up;
    }
    h->key[i] = key;
    h->item[i] = item;
    return 0;
}

uint32_t steerN_heap_pop(steerN_Heap *h, double *key)
{
    uint32_t top = h->item[0];
    *key = h->key[0];
    double k = h->key[--h->n];
    uint32_t it = h->item[h->n];
    uint32_t i = 0, n = h->n;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h->key[c + 1] < h->key[c]) c++;
        if (k <= h->key[c]) break;
        h->key[i] = h->key[c];
        h->item[i] = h->item[c];
        i = c;
    }
    if (n) {
        h->key[i] = k;
        h->item[i] = it;
    }
    return top;
}

void steerN_heap_free(steerN_Heap *h)
{
    steerN_realloc(&h->alloc, h->key, sizeof *h->key * h->cap, 0);
    steerN_realloc(&h->alloc, h->item, sizeof *h->item * h->cap, 0);
    const steerN_Alloc a = h->alloc;
    memset(h, 0, sizeof *h);
    h->alloc = a;
}
