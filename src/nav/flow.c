// SPDX-License-Identifier: MIT
// flow.c — flow fields: one search from the goals serves any number of
// agents anywhere on the grid.
//
// The integration field is Dijkstra's distance from the nearest goal over
// the grid's 8-connected, cost-weighted steps. Each reachable cell then
// points to the neighbour that starts its shortest way to a goal (the
// minimum of the neighbour's distance plus the step), so every step of
// the direction field strictly lowers the distance: there are no local
// optima, and since a step that cuts a blocked corner has no cost, no
// direction points through one. Unreachable and blocked cells get none.
//
// Moving a single goal a little (from A to B, at most REPAIR_MARGIN cells
// apart) is a repair, not a rebuild: Dijkstra from B inside a window
// around both goals gives the cells there their exact distance to B
// within the window; every cell outside keeps its old distance plus one
// offset C, no smaller than any window cell's new distance minus its old
// one. Then every old way into the window still runs downhill (a cell's
// old downhill neighbour is either outside, shifted by C too, or inside,
// no higher than its old value plus C), every window cell runs downhill
// to B, and A itself (required to reach B inside the window) is no dead
// end: the field keeps no local optima, and a cell's value stays an upper
// bound of the cost of following the field from it. Outside the window
// agents take the old way toward A and then B, a detour of at most about
// twice the move; the offsets add up (`drift`), and once they exceed
// REPAIR_DRIFT cells, or the move is too far, the field is rebuilt. The
// offset is applied to the whole field at once by raising `bias`
// (stored values are distances minus bias), so a repair costs the window
// only.
#include "nav.h"

#include <stdlib.h>
#include <string.h>

#define REPAIR_MARGIN 16 // cells around both goals a repair recomputes
#define REPAIR_DRIFT 64  // cells of accumulated offset before a rebuild

static size_t cells(const steerN_Flow *f) { return (size_t)f->grid->nx * (size_t)f->grid->ny; }

// The per-cell arrays (STEERN_FLOW_CELL_BYTES) and a repair's window.
#define WINDOW_CELLS ((3 * REPAIR_MARGIN + 1) * (3 * REPAIR_MARGIN + 1))

int steerN_flow_init(steerN_Flow *f, steerN_Grid *g)
{
    memset(f, 0, sizeof *f);
    atomic_init(&f->refs, 0); // kept in place: counted by nobody
    f->grid = g;
    f->alloc = f->heap.alloc = g->alloc;
    size_t n = (size_t)g->nx * (size_t)g->ny;
    f->dist = steerN_realloc(&f->alloc, NULL, 0, sizeof *f->dist * n);
    f->dir = steerN_realloc(&f->alloc, NULL, 0, n);
    f->mark = steerN_realloc(&f->alloc, NULL, 0, sizeof *f->mark * n);
    f->list = steerN_realloc(&f->alloc, NULL, 0, sizeof *f->list * n);
    f->wdist = steerN_realloc(&f->alloc, NULL, 0, sizeof *f->wdist * WINDOW_CELLS);
    if (!f->dist || !f->dir || !f->mark || !f->list || !f->wdist) {
        steerN_flow_free(f);
        return -1;
    }
    memset(f->mark, 0, sizeof *f->mark * n);
    return 0;
}

void steerN_flow_free(steerN_Flow *f)
{
    const steerN_Alloc a = f->alloc;
    size_t n = cells(f);
    steerN_realloc(&a, f->dist, sizeof *f->dist * n, 0);
    steerN_realloc(&a, f->dir, n, 0);
    steerN_realloc(&a, f->mark, sizeof *f->mark * n, 0);
    steerN_realloc(&a, f->list, sizeof *f->list * n, 0);
    steerN_realloc(&a, f->wdist, sizeof *f->wdist * WINDOW_CELLS, 0);
    for (uint32_t i = 0; i < f->nbuckets; i++)
        steerN_realloc(&a, f->buckets[i].item, sizeof *f->buckets[i].item * f->buckets[i].cap, 0);
    steerN_realloc(&a, f->buckets, sizeof *f->buckets * f->nbuckets, 0);
    steerN_realloc(&a, f->goals, sizeof *f->goals * 2 * f->cap_goals, 0);
    steerN_realloc(&a, f->goal_cells, sizeof *f->goal_cells * f->cap_goals, 0);
    steerN_heap_free(&f->heap);
    memset(f, 0, sizeof *f);
}

steerN_Flow *steerN_flow_new(steerN_Grid *g)
{
    steerN_Flow *f = steerN_realloc(&g->alloc, NULL, 0, sizeof *f);
    if (!f) return NULL;
    if (steerN_flow_init(f, g)) {
        steerN_realloc(&g->alloc, f, sizeof *f, 0);
        return NULL;
    }
    atomic_init(&f->refs, 1);
    steerN_grid_retain(g);
    return f;
}

// A field kept in place (steerN_flow_init) has no count (0) and is nobody's
// to free: retain and release leave it alone, also when a behaviour is bound
// to it. A counted one has at least 1 while anyone holds it.
void steerN_flow_retain(steerN_Flow *f)
{
    if (atomic_load_explicit(&f->refs, memory_order_relaxed))
        atomic_fetch_add_explicit(&f->refs, 1, memory_order_relaxed);
}

// As steerN_grid_release: the last one frees the field, then releases its grid.
void steerN_flow_release(steerN_Flow *f)
{
    if (!f || !atomic_load_explicit(&f->refs, memory_order_relaxed) ||
        atomic_fetch_sub_explicit(&f->refs, 1, memory_order_acq_rel) != 1)
        return;
    steerN_Grid *g = f->grid;
    const steerN_Alloc a = f->alloc;
    steerN_flow_free(f);
    steerN_realloc(&a, f, sizeof *f, 0);
    steerN_grid_release(g);
}

size_t steerN_flow_bytes(const steerN_Flow *f)
{
    size_t bytes = sizeof *f + STEERN_FLOW_CELL_BYTES * cells(f) + sizeof *f->wdist * WINDOW_CELLS;
    bytes += (sizeof *f->goals * 2 + sizeof *f->goal_cells) * f->cap_goals;
    bytes += (sizeof *f->heap.key + sizeof *f->heap.item) * f->heap.cap + sizeof *f->buckets * f->nbuckets;
    for (uint32_t i = 0; i < f->nbuckets; i++) bytes += sizeof *f->buckets[i].item * f->buckets[i].cap;
    return bytes;
}

static uint32_t next_stamp(steerN_Flow *f)
{
    if (f->stamp >= UINT32_MAX - 2) {
        memset(f->mark, 0, sizeof *f->mark * cells(f));
        f->stamp = 0;
    }
    return ++f->stamp;
}

// The direction of cell c from the current distances.
static void point_cell(steerN_Flow *f, uint32_t c)
{
    const steerN_Grid *g = f->grid;
    uint32_t w = (uint32_t)g->nx;
    int x = (int)(c % w), y = (int)(c / w);
    f->dir[c] = STEERN_NONE;
    double here = f->dist[c];
    if (here == INFINITY || g->cost[c] == INFINITY) return;
    for (uint32_t i = 0; i < f->ngoals; i++)
        if (f->goal_cells[i] == c) return;
    double best = INFINITY;
    double steps[8];
    steerN_steps(g, x, y, steps);
    for (int k = 0; k < 8; k++) {
        double step = steps[k];
        if (step == INFINITY) continue;
        uint32_t m = (uint32_t)(y + steerN_dy[k]) * w + (uint32_t)(x + steerN_dx[k]);
        // only strictly lower neighbours: following the field never cycles
        if (!(f->dist[m] < here) || !(f->dist[m] + step < best)) continue;
        best = f->dist[m] + step;
        f->dir[c] = (uint8_t)k;
    }
}

// Dijkstra from the goals (dist 0, in the heap) over the whole grid.
// Settled cells are marked with `stamp` and listed.
static int settle_heap(steerN_Flow *f, uint32_t stamp)
{
    const steerN_Grid *g = f->grid;
    uint32_t w = (uint32_t)g->nx;
    while (f->heap.n) {
        double d;
        uint32_t c = steerN_heap_pop(&f->heap, &d);
        if (f->mark[c] == stamp || d > f->dist[c]) continue; // settled, or a stale entry
        f->mark[c] = stamp;
        f->list[f->touched++] = c;
        int x = (int)(c % w), y = (int)(c / w);
        double steps[8];
        steerN_steps(g, x, y, steps);
        for (int k = 0; k < 8; k++) {
            uint32_t m = (uint32_t)(y + steerN_dy[k]) * w + (uint32_t)(x + steerN_dx[k]);
            if (steps[k] == INFINITY || !(d + steps[k] < f->dist[m])) continue;
            f->dist[m] = d + steps[k];
            if (steerN_heap_push(&f->heap, d + steps[k], m)) return -1;
        }
    }
    return 0;
}

static int bucket_push(const steerN_Flow *f, steerN_Bucket *b, uint32_t c)
{
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? 2 * b->cap : 1024;
        uint32_t *it = steerN_realloc(&f->alloc, b->item, sizeof *it * b->cap, sizeof *it * cap);
        if (!it) return -1;
        b->item = it;
        b->cap = cap;
    }
    b->item[b->n++] = c;
    return 0;
}

// The same search with Dial's buckets, when the steps' costs lie within a
// small ratio (uniform ground: sqrt 2). Buckets are `width` wide, no wider
// than the cheapest step, so nothing in a bucket can still lower another
// cell of the same bucket: each cell taken out is final, in O(1) instead
// of a heap's O(log n). `nb` buckets, used cyclically, span the dearest step.
static int settle_buckets(steerN_Flow *f, uint32_t stamp, double width, uint32_t nb)
{
    const steerN_Grid *g = f->grid;
    uint32_t w = (uint32_t)g->nx;
    uint64_t pending = 0;
    for (uint32_t i = 0; i < f->heap.n; i++) {
        if (bucket_push(f, &f->buckets[0], f->heap.item[i])) return -1;
        pending++;
    }
    f->heap.n = 0;
    for (uint64_t cur = 0; pending; cur++) {
        steerN_Bucket *b = &f->buckets[cur % nb];
        while (b->n) {
            uint32_t c = b->item[--b->n];
            pending--;
            if (f->mark[c] == stamp) continue; // settled through a cheaper entry
            f->mark[c] = stamp;
            f->list[f->touched++] = c;
            int x = (int)(c % w), y = (int)(c / w);
            double d = f->dist[c], steps[8];
            steerN_steps(g, x, y, steps);
            for (int k = 0; k < 8; k++) {
                uint32_t m = (uint32_t)(y + steerN_dy[k]) * w + (uint32_t)(x + steerN_dx[k]);
                if (steps[k] == INFINITY || !(d + steps[k] < f->dist[m])) continue;
                f->dist[m] = d + steps[k];
                uint64_t at = (uint64_t)(f->dist[m] / width);
                if (bucket_push(f, &f->buckets[(at < cur ? cur : at) % nb], m)) return -1;
                pending++;
            }
        }
    }
    return 0;
}

// Buckets when the dearest step is at most this many times the cheapest.
#define MAX_BUCKETS 256

static int settle(steerN_Flow *f, uint32_t stamp)
{
    const steerN_Grid *g = f->grid;
    size_t n = cells(f);
    float lo = INFINITY, hi = 0;
    for (size_t c = 0; c < n; c++) {
        float k = g->cost[c];
        if (k == INFINITY) continue;
        if (k < lo) lo = k;
        if (k > hi) hi = k;
    }
    if (!(lo > 0) || (double)hi / lo * 1.4142135623730951 + 3 > MAX_BUCKETS) return settle_heap(f, stamp);
    double width = g->cell * lo * (1 - 1e-9);
    uint32_t nb = (uint32_t)((double)hi / lo * 1.4142135623730951 / (1 - 1e-9)) + 3;
    if (nb > f->nbuckets) {
        steerN_Bucket *b = steerN_realloc(&f->alloc, f->buckets, sizeof *b * f->nbuckets, sizeof *b * nb);
        if (!b) return -1;
        memset(b + f->nbuckets, 0, sizeof *b * (nb - f->nbuckets));
        f->buckets = b;
        f->nbuckets = nb;
    }
    for (uint32_t i = 0; i < nb; i++) f->buckets[i].n = 0;
    return settle_buckets(f, stamp, width, nb);
}

int steerN_flow_reserve(steerN_Flow *f, uint32_t n)
{
    if (n > f->cap_goals) {
        if (steerN_resize2(&f->alloc, (void **)&f->goals, 2 * sizeof *f->goals, (void **)&f->goal_cells,
                           sizeof *f->goal_cells, f->cap_goals, n))
            return -1;
        f->cap_goals = n;
    }
    return 0;
}

bool steerN_flow_copy(steerN_Flow *dst, const steerN_Flow *src)
{
    size_t n = cells(dst);
    if (n != cells(src) || dst->cap_goals < src->ngoals) return false;
    if (dst == src) return true;
    memcpy(dst->goals, src->goals, sizeof *dst->goals * 2 * src->ngoals);
    memcpy(dst->goal_cells, src->goal_cells, sizeof *dst->goal_cells * src->ngoals);
    dst->ngoals = src->ngoals;
    memcpy(dst->dist, src->dist, sizeof *dst->dist * n);
    memcpy(dst->dir, src->dir, n);
    memcpy(dst->list, src->list, sizeof *dst->list * src->touched);
    dst->touched = src->touched;
    dst->incremental = src->incremental;
    dst->bias = src->bias;
    dst->drift = src->drift;
    dst->version = src->version;
    return true;
}

static int set_goals(steerN_Flow *f, const double *goals, uint32_t n)
{
    if (steerN_flow_reserve(f, n)) return -1;
    const steerN_Grid *g = f->grid;
    for (uint32_t i = 0; i < n; i++) {
        int x = 0, y = 0;
        steerN_cell_of(g, goals + 2 * i, &x, &y);
        f->goals[2 * i] = goals[2 * i];
        f->goals[2 * i + 1] = goals[2 * i + 1];
        f->goal_cells[i] = (uint32_t)y * (uint32_t)g->nx + (uint32_t)x;
    }
    f->ngoals = n;
    return 0;
}

int steerN_flow_build(steerN_Flow *f, const double *goals, uint32_t n)
{
    if (set_goals(f, goals, n)) return -1;
    size_t total = cells(f);
    for (size_t c = 0; c < total; c++) f->dist[c] = INFINITY;
    f->bias = 0;
    f->drift = 0;
    f->touched = 0;
    f->incremental = false;
    f->version = f->grid->version;
    f->heap.n = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = f->goal_cells[i];
        if (f->grid->cost[c] == INFINITY) continue;
        f->dist[c] = 0;
        if (steerN_heap_push(&f->heap, 0, c)) return -1;
    }
    if (settle(f, next_stamp(f))) return -1;
    for (size_t c = 0; c < total; c++) point_cell(f, (uint32_t)c);
    return 0;
}

int steerN_flow_refresh(steerN_Flow *f)
{
    if (f->version == f->grid->version) return 0;
    size_t size = sizeof(double) * 2 * (f->ngoals ? f->ngoals : 1);
    double *goals = steerN_realloc(&f->alloc, NULL, 0, size);
    if (!goals) return -1;
    memcpy(goals, f->goals, sizeof *goals * 2 * f->ngoals);
    int r = steerN_flow_build(f, goals, f->ngoals);
    steerN_realloc(&f->alloc, goals, size, 0);
    return r;
}

// The window of a repair: the box around both goals, REPAIR_MARGIN cells
// wider on every side, clipped to the grid.
typedef struct Window {
    int x0, y0, x1, y1, w;
} Window;

static uint32_t win_cell(const Window *r, int x, int y) { return (uint32_t)((y - r->y0) * r->w + (x - r->x0)); }

// Dijkstra from cell (bx, by) inside the window into f->wdist.
static int window_search(steerN_Flow *f, const Window *r, int bx, int by)
{
    const steerN_Grid *g = f->grid;
    uint32_t n = (uint32_t)(r->w * (r->y1 - r->y0 + 1));
    for (uint32_t i = 0; i < n; i++) f->wdist[i] = INFINITY;
    f->heap.n = 0;
    f->wdist[win_cell(r, bx, by)] = 0;
    if (steerN_heap_push(&f->heap, 0, win_cell(r, bx, by))) return -1;
    while (f->heap.n) {
        double d;
        uint32_t c = steerN_heap_pop(&f->heap, &d);
        if (d > f->wdist[c]) continue;
        int x = r->x0 + (int)(c % (uint32_t)r->w), y = r->y0 + (int)(c / (uint32_t)r->w);
        double steps[8];
        steerN_steps(g, x, y, steps);
        for (int k = 0; k < 8; k++) {
            int nx = x + steerN_dx[k], ny = y + steerN_dy[k];
            if (nx < r->x0 || ny < r->y0 || nx > r->x1 || ny > r->y1) continue;
            double step = steps[k];
            uint32_t m = win_cell(r, nx, ny);
            if (step == INFINITY || !(d + step < f->wdist[m])) continue;
            f->wdist[m] = d + step;
            if (steerN_heap_push(&f->heap, d + step, m)) return -1;
        }
    }
    return 0;
}

int steerN_flow_set_goal(steerN_Flow *f, const double goal[2])
{
    const steerN_Grid *g = f->grid;
    int bx = 0, by = 0;
    steerN_cell_of(g, goal, &bx, &by);
    uint32_t nx = (uint32_t)g->nx, b = (uint32_t)by * nx + (uint32_t)bx;
    if (f->ngoals != 1 || f->version != g->version || g->cost[b] == INFINITY || f->dist[b] == INFINITY)
        return steerN_flow_build(f, goal, 1);
    uint32_t a = f->goal_cells[0];
    int ax = (int)(a % nx), ay = (int)(a / nx);
    if (abs(ax - bx) > REPAIR_MARGIN || abs(ay - by) > REPAIR_MARGIN) return steerN_flow_build(f, goal, 1);
    f->goals[0] = goal[0];
    f->goals[1] = goal[1];
    f->incremental = true;
    f->touched = 0;
    if (a == b) return 0;
    Window r = { (ax < bx ? ax : bx) - REPAIR_MARGIN, (ay < by ? ay : by) - REPAIR_MARGIN,
                 (ax > bx ? ax : bx) + REPAIR_MARGIN, (ay > by ? ay : by) + REPAIR_MARGIN, 0 };
    if (r.x0 < 0) r.x0 = 0;
    if (r.y0 < 0) r.y0 = 0;
    if (r.x1 >= g->nx) r.x1 = g->nx - 1;
    if (r.y1 >= g->ny) r.y1 = g->ny - 1;
    r.w = r.x1 - r.x0 + 1;
    if (window_search(f, &r, bx, by)) return -1;
    // the offset for the cells outside: no smaller than any window cell's
    // new distance minus its old one, so every way into the window still
    // leads downhill
    double offset = 0;
    for (int y = r.y0; y <= r.y1; y++)
        for (int x = r.x0; x <= r.x1; x++) {
            double d = f->wdist[win_cell(&r, x, y)];
            uint32_t c = (uint32_t)y * nx + (uint32_t)x;
            if (d < INFINITY && d - (f->dist[c] + f->bias) > offset) offset = d - (f->dist[c] + f->bias);
        }
    // the old goal must lead to the new one inside the window (else it
    // would be a dead end), and the detour outside must stay short
    double drift = f->drift + offset / (g->cell * g->min_cost);
    if (f->wdist[win_cell(&r, ax, ay)] == INFINITY || drift > REPAIR_DRIFT) {
        f->incremental = false;
        return steerN_flow_build(f, goal, 1);
    }
    f->drift = drift;
    f->bias += offset;
    f->goal_cells[0] = b;
    for (int y = r.y0; y <= r.y1; y++)
        for (int x = r.x0; x <= r.x1; x++) {
            double d = f->wdist[win_cell(&r, x, y)];
            if (d == INFINITY) continue;
            f->dist[(uint32_t)y * nx + (uint32_t)x] = d - f->bias;
            f->list[f->touched++] = (uint32_t)y * nx + (uint32_t)x;
        }
    // new directions in the window and the ring around it
    for (int y = r.y0 - 1; y <= r.y1 + 1; y++)
        for (int x = r.x0 - 1; x <= r.x1 + 1; x++)
            if (steerN_inside(g, x, y)) point_cell(f, (uint32_t)y * nx + (uint32_t)x);
    return 0;
}

// A cell's part of the sample at p: its unit direction (in a goal cell,
// toward the goal from p) and its distance left. False when it has none.
static bool cell_vector(const steerN_Flow *f, uint32_t c, const double p[2], double v[2], double *left, int *goal)
{
    double d = f->dist[c];
    if (d == INFINITY || f->grid->cost[c] == INFINITY) return false;
    uint8_t k = f->dir[c];
    if (k != STEERN_NONE) {
        double s = k < 4 ? 1.0 : 0.7071067811865476;
        v[0] = steerN_dx[k] * s;
        v[1] = steerN_dy[k] * s;
        *left = d + f->bias;
        return true;
    }
    for (uint32_t i = 0; i < f->ngoals; i++) {
        if (f->goal_cells[i] != c) continue;
        double ox = f->goals[2 * i] - p[0], oy = f->goals[2 * i + 1] - p[1], len = sqrt(ox * ox + oy * oy);
        v[0] = len > 0 ? ox / len : 0;
        v[1] = len > 0 ? oy / len : 0;
        *left = len;
        *goal = (int)i;
        return true;
    }
    return false;
}

int steerN_flow_sample(const steerN_Flow *f, const double p[2], double dir[2], double *left, double goal[2])
{
    const steerN_Grid *g = f->grid;
    uint32_t w = (uint32_t)g->nx;
    dir[0] = dir[1] = 0;
    *left = INFINITY;
    int cx, cy;
    if (!steerN_cell_of(g, p, &cx, &cy)) return 0;
    uint32_t own = (uint32_t)cy * w + (uint32_t)cx;
    if (g->cost[own] == INFINITY) {
        // inside a blocked cell (pushed there): out to the best open neighbour
        double best = INFINITY;
        for (int k = 0; k < 8; k++) {
            int nx = cx + steerN_dx[k], ny = cy + steerN_dy[k];
            if (!steerN_open(g, nx, ny)) continue;
            double d = f->dist[(uint32_t)ny * w + (uint32_t)nx];
            if (!(d < best)) continue;
            double c[2];
            steerN_center(g, nx, ny, c);
            double ox = c[0] - p[0], oy = c[1] - p[1], len = sqrt(ox * ox + oy * oy);
            best = d;
            dir[0] = ox / len;
            dir[1] = oy / len;
            *left = d + f->bias + len;
        }
        return 0;
    }
    int goal_index = -1;
    double own_v[2], own_left;
    if (!cell_vector(f, own, p, own_v, &own_left, &goal_index)) return 0;
    if (goal_index >= 0) {
        dir[0] = own_v[0];
        dir[1] = own_v[1];
        *left = own_left;
        goal[0] = f->goals[2 * goal_index];
        goal[1] = f->goals[2 * goal_index + 1];
        return 1;
    }
    // bilinear weights over the four cell centres around p; a cell takes
    // part when it can be stepped to from the agent's cell
    double u = (p[0] - g->origin[0]) / g->cell - 0.5, v = (p[1] - g->origin[1]) / g->cell - 0.5;
    int x0 = (int)floor(u), y0 = (int)floor(v);
    double fx = u - x0, fy = v - y0;
    double sum[2] = { 0, 0 }, wsum = 0, lsum = 0;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            int x = x0 + i, y = y0 + j;
            double wt = (i ? fx : 1 - fx) * (j ? fy : 1 - fy);
            if (!(wt > 0) || !steerN_inside(g, x, y)) continue;
            if (x != cx || y != cy) {
                int dx = x - cx, dy = y - cy, k;
                for (k = 0; k < 8; k++)
                    if (steerN_dx[k] == dx && steerN_dy[k] == dy) break;
                if (k == 8 || steerN_step_cost(g, cx, cy, k) == INFINITY) continue;
            }
            double cv[2], cl;
            int gi = -1;
            if (!cell_vector(f, (uint32_t)y * w + (uint32_t)x, p, cv, &cl, &gi)) continue;
            sum[0] += wt * cv[0];
            sum[1] += wt * cv[1];
            lsum += wt * cl;
            wsum += wt;
        }
    double len = sqrt(sum[0] * sum[0] + sum[1] * sum[1]);
    if (!(wsum > 0) || len < 1e-6 * wsum) {
        dir[0] = own_v[0];
        dir[1] = own_v[1];
        *left = own_left;
        return 0;
    }
    dir[0] = sum[0] / len;
    dir[1] = sum[1] / len;
    *left = lsum / wsum;
    return 0;
}
