// SPDX-License-Identifier: MIT
// grid.c — the uniform spatial grid, rebuilt every tick by counting sort.
//
// On a torus the grid covers the world exactly (cells at least `cell`
// wide). Otherwise it covers the agents' bounding box of this tick, so an
// unbounded world needs no configuration; when that box is huge the cells
// grow so that there are never many more cells than agents. Queries clamp
// to the grid and test true distances, so correctness never depends on
// the cell size, only speed does.
#include "grid.h"
#include "store.h"
#include "neighbors.h"
#include "vecmath.h"
#include "par.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

void steerG_free(steer_World *w)
{
    steerA_free(w, w->grid.start);
    steerA_array_free(w, &w->grid.items);
    steerA_free(w, w->grid.counts);
    for (int i = 0; i < 3; i++) {
        steerA_array_free(w, &w->grid.sp[i]);
        steerA_array_free(w, &w->grid.sh[i]);
    }
    memset(&w->grid, 0, sizeof w->grid);
}

// Agents far outside the grid (see narrow_axis) go to its border cells.
static inline int cell_coord(const steerG_Grid *g, int axis, float x)
{
    return steerW_cell_index((x - g->lo[axis]) * g->inv[axis], g->n[axis]);
}

static inline uint32_t cell_of(const steerG_Grid *g, const float p[3])
{
    int cx = cell_coord(g, 0, p[0]), cy = cell_coord(g, 1, p[1]), cz = g->n[2] > 1 ? cell_coord(g, 2, p[2]) : 0;
    return ((uint32_t)cz * (uint32_t)g->n[1] + (uint32_t)cy) * (uint32_t)g->n[0] + (uint32_t)cx;
}

// Put each cell's agents in handle-slot order (an insertion sort: a cell
// holds a few agents, mostly in order already since the periodic re-sort
// leaves storage in this order). Sums over neighbours then add in an order
// that removals and re-sorts cannot change, so trajectories do not depend
// on how agents happen to be stored.
static void sort_cells(const steer_World *w, steerG_Grid *g, uint32_t c0, uint32_t c1)
{
    const uint32_t *slot = w->slot;
    float *sp2 = g->sp[2], *sh2 = g->sh[2];
    for (uint32_t c = c0; c < c1; c++) {
        uint32_t b = g->start[c], e = g->start[c + 1];
        if (e - b < 2) continue;
        uint32_t last = slot[g->items[b]]; // the largest slot so far (stays so after an insertion)
        for (uint32_t k = b + 1; k < e; k++) {
            uint32_t d = g->items[k], s = slot[d];
            if (s > last) {
                last = s;
                continue;
            }
            float px = g->sp[0][k], py = g->sp[1][k], hx = g->sh[0][k], hy = g->sh[1][k];
            float pz = sp2 ? sp2[k] : 0.0f, hz = sp2 ? sh2[k] : 0.0f;
            uint32_t j = k;
            for (; j > b && slot[g->items[j - 1]] > s; j--) {
                g->items[j] = g->items[j - 1];
                g->sp[0][j] = g->sp[0][j - 1];
                g->sp[1][j] = g->sp[1][j - 1];
                g->sh[0][j] = g->sh[0][j - 1];
                g->sh[1][j] = g->sh[1][j - 1];
                if (sp2) {
                    sp2[j] = sp2[j - 1];
                    sh2[j] = sh2[j - 1];
                }
            }
            g->items[j] = d;
            g->sp[0][j] = px;
            g->sp[1][j] = py;
            g->sh[0][j] = hx;
            g->sh[1][j] = hy;
            if (sp2) {
                sp2[j] = pz;
                sh2[j] = hz;
            }
        }
    }
}

// One agent parked far away (1e30 m) must not stretch an unbounded
// world's grid so that every other agent shares one cell. When the agents'
// extent on an axis is far wider than the grid may be at this cell size,
// narrow it to where the agents are: a histogram of 256 bins, keeping the
// fewest bins that hold all but n/64 agents, repeated while that narrows it.
// Agents outside are clamped into the border cells; queries test true
// distances, so that costs speed, never correctness. Counts do not depend
// on storage order, so neither does the grid.
static void narrow_axis(const float *x, uint32_t n, float *lo, float *hi, double want)
{
    uint32_t hist[256], keep = n - n / 64;
    for (int round = 0; round < 16 && (double)*hi - (double)*lo > want; round++) {
        double a = *lo, width = ((double)*hi - a) / 256.0;
        memset(hist, 0, sizeof hist);
        for (uint32_t d = 0; d < n; d++) {
            double b = ((double)x[d] - a) / width;
            if (b >= 0.0 && b < 256.0) hist[(int)b]++;
            else if (b == 256.0) hist[255]++; // the upper end
        }
        // the shortest run of bins holding `keep` agents (two pointers)
        int best_i = -1, best_j = 0;
        uint32_t sum = 0;
        for (int i = 0, j = 0; j < 256; j++) {
            sum += hist[j];
            while (sum - hist[i] >= keep && i < j) sum -= hist[i++];
            if (sum >= keep && (best_i < 0 || j - i < best_j - best_i)) {
                best_i = i;
                best_j = j;
            }
        }
        if (best_i < 0 || best_j - best_i >= 128) return; // no narrower box holds them
        // an end bin keeps its end: a + 256 * width may round off the box
        if (best_i > 0) *lo = (float)(a + best_i * width);
        if (best_j < 255) *hi = (float)(a + (best_j + 1) * width);
    }
}

// Agent d's copy at sorted index k.
static inline void place(const steer_World *w, steerG_Grid *g, uint32_t d, uint32_t k)
{
    g->items[k] = d;
    g->sp[0][k] = w->p[0][d];
    g->sp[1][k] = w->p[1][d];
    g->sh[0][k] = w->h[0][d];
    g->sh[1][k] = w->h[1][d];
    if (g->sp[2]) {
        g->sp[2][k] = w->p[2][d];
        g->sh[2][k] = w->h[2][d];
    }
}

// The parallel counting sort: `parts` agent ranges each count their cells
// (counts[k * cells + c]); cell ranges turn the counts into each part's
// cursors; each agent range places its agents. Part k's agents of a cell
// come after part k-1's, so the order is the serial sort's, and the cells'
// sort by handle slot then makes it independent of storage anyway.
typedef struct BuildJob {
    steerG_Grid *g;
    uint32_t *cell_at, *counts, *sums;
    uint32_t n, cells, parts;
} BuildJob;

static void count_part(const steer_World *w, steerW_Local *loc, uint32_t k, void *ctx)
{
    (void)loc;
    const BuildJob *j = ctx;
    uint32_t *cnt = j->counts + (size_t)k * j->cells;
    memset(cnt, 0, sizeof *cnt * j->cells);
    for (uint32_t d = steerP_part(j->n, j->parts, k), e = steerP_part(j->n, j->parts, k + 1); d < e; d++) {
        float p[3];
        steerW_load(w->p, d, p);
        uint32_t c = cell_of(j->g, p);
        j->cell_at[d] = c;
        cnt[c]++;
    }
}

static void sum_cells(const steer_World *w, steerW_Local *loc, uint32_t r, void *ctx)
{
    (void)w, (void)loc;
    const BuildJob *j = ctx;
    uint32_t sum = 0;
    for (uint32_t c = steerP_part(j->cells, j->parts, r), e = steerP_part(j->cells, j->parts, r + 1); c < e; c++)
        for (uint32_t k = 0; k < j->parts; k++) sum += j->counts[(size_t)k * j->cells + c];
    j->sums[r] = sum;
}

static void cursor_cells(const steer_World *w, steerW_Local *loc, uint32_t r, void *ctx)
{
    (void)w, (void)loc;
    const BuildJob *j = ctx;
    uint32_t at = j->sums[r];
    for (uint32_t c = steerP_part(j->cells, j->parts, r), e = steerP_part(j->cells, j->parts, r + 1); c < e; c++) {
        j->g->start[c] = at;
        for (uint32_t k = 0; k < j->parts; k++) {
            uint32_t *cnt = &j->counts[(size_t)k * j->cells + c], m = *cnt;
            *cnt = at;
            at += m;
        }
    }
}

static void place_part(const steer_World *w, steerW_Local *loc, uint32_t k, void *ctx)
{
    (void)loc;
    const BuildJob *j = ctx;
    uint32_t *cur = j->counts + (size_t)k * j->cells;
    for (uint32_t d = steerP_part(j->n, j->parts, k), e = steerP_part(j->n, j->parts, k + 1); d < e; d++)
        place(w, j->g, d, cur[j->cell_at[d]]++);
}

static void sort_part(const steer_World *w, steerW_Local *loc, uint32_t r, void *ctx)
{
    (void)loc;
    const BuildJob *j = ctx;
    sort_cells(w, j->g, steerP_part(j->cells, j->parts, r), steerP_part(j->cells, j->parts, r + 1));
}

// Room for the counts of `parts` parts (false: sort serially).
static bool reserve_counts(steer_World *w, steerG_Grid *g, uint32_t parts)
{
    size_t need = (size_t)parts * g->ncells;
    if (need > g->cap_counts) {
        uint32_t *a = steerA_realloc(w, g->counts, sizeof *a * need);
        if (!a) return false;
        g->counts = a;
        g->cap_counts = need;
    }
    return true;
}

static int build_parallel(steer_World *w, steerG_Grid *g, uint32_t *cell_at, uint32_t parts)
{
    uint32_t sums[STEERP_MAX_ITEMS];
    BuildJob j = { g, cell_at, g->counts, sums, w->count, g->ncells, parts };
    int st = steerP_run(w, parts, count_part, &j);
    if (st == STEER_OK) st = steerP_run(w, parts, sum_cells, &j);
    if (st != STEER_OK) return st;
    for (uint32_t r = 0, at = 0; r < parts; r++) {
        uint32_t m = sums[r];
        sums[r] = at;
        at += m;
    }
    st = steerP_run(w, parts, cursor_cells, &j);
    g->start[g->ncells] = w->count;
    if (st == STEER_OK) st = steerP_run(w, parts, place_part, &j);
    if (st == STEER_OK) st = steerP_run(w, parts, sort_part, &j);
    return st;
}

int steerG_query(steer_World *w, const float p[3], float radius)
{
    // the tick's grid holds positions from before locomotion, and the host
    // may have spawned or moved agents since: rebuild once, then reuse
    if (!w->grid_fresh) {
        steerT_compact(w);
        if (steerG_build(w, w->sense_radius) != STEER_OK) return -1;
        w->grid_fresh = true;
    }
    return steerG_gather(w, &w->loc, p, radius, UINT32_MAX);
}

int steerG_build(steer_World *w, float cell)
{
    steerG_Grid *g = &w->grid;
    uint32_t n = w->count;
    if (!(cell > 0)) cell = 1.0f;
    float lo[3] = { 0, 0, 0 }, ext[3] = { 0, 0, 0 };
    if (w->wrap) {
        for (int i = 0; i < w->dim; i++) {
            lo[i] = w->origin[i];
            ext[i] = w->size[i];
        }
    } else if (n) {
        float hi[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
        lo[0] = lo[1] = lo[2] = FLT_MAX;
        for (int i = 0; i < w->dim; i++) {
            const float *a = w->p[i];
            for (uint32_t d = 0; d < n; d++) {
                if (a[d] < lo[i]) lo[i] = a[d];
                if (a[d] > hi[i]) hi[i] = a[d];
            }
            // far wider than the grid may be: narrow to the bulk (the test
            // is in double, where the extent cannot overflow)
            double want = cell * steerM_root(4.0 * n + 64.0, w->dim);
            if ((double)hi[i] - (double)lo[i] > 16.0 * want) narrow_axis(a, n, &lo[i], &hi[i], want);
            ext[i] = hi[i] - lo[i];
            if (!(ext[i] <= FLT_MAX)) ext[i] = FLT_MAX;
        }
    }
    // cells per axis; widen cells while there would be far more cells than agents
    double limit = 4.0 * n + 64.0;
    for (;;) {
        double total = 1;
        for (int i = 0; i < w->dim; i++) {
            double k = floor((double)ext[i] / cell); // in double: no int overflow
            if (!w->wrap) k += 1;
            g->n[i] = k < 1 ? 1 : k > limit ? (int)limit + 1 : (int)k;
            total *= g->n[i];
            if (g->n[i] > STEERW_MAX_AXIS_CELLS) total = limit + 1; // see steerW_cell_index
        }
        if (total <= limit) break;
        cell *= 2.0f;
    }
    for (int i = w->dim; i < 3; i++) g->n[i] = 1;
    for (int i = 0; i < 3; i++) {
        g->lo[i] = lo[i];
        g->cell[i] = i < w->dim ? (w->wrap ? ext[i] / (float)g->n[i] : cell) : 1.0f;
        g->inv[i] = 1.0f / g->cell[i];
    }
    uint32_t cells = (uint32_t)g->n[0] * (uint32_t)g->n[1] * (uint32_t)g->n[2];
    if (cells + 1 > g->cap_cells) {
        uint32_t *s = steerA_realloc(w, g->start, sizeof(uint32_t) * (cells + 1));
        if (!s) return STEER_ENOMEM;
        g->start = s;
        g->cap_cells = cells + 1;
    }
    if (n > g->cap_items || !g->items) {
        uint32_t cap = n > 64 ? n : 64;
        // padded: vector loops read up to STEERG_PAD - 1 entries past a run
        size_t bytes = sizeof(float) * (cap + STEERG_PAD);
        if (!steerA_array_resize(w, &g->items, bytes)) return STEER_ENOMEM;
        memset(g->items, 0, bytes);
        for (int i = 0; i < w->dim; i++) {
            if (!steerA_array_resize(w, &g->sp[i], bytes) || !steerA_array_resize(w, &g->sh[i], bytes))
                return STEER_ENOMEM;
            memset(g->sp[i], 0, bytes);
            memset(g->sh[i], 0, bytes);
        }
        g->cap_items = cap;
    }
    g->ncells = cells;
    uint32_t *cell_at = n ? steerT_agent_tmp(w) : NULL;
    if (n && !cell_at) return STEER_ENOMEM;
    uint32_t parts = steerP_items(w, n);
    if (parts > (uint32_t)w->threads) parts = (uint32_t)w->threads;
    if (parts > 1 && reserve_counts(w, g, parts)) return build_parallel(w, g, cell_at, parts);
    // counting sort: count per cell (remembering each agent's), prefix sums, then place
    memset(g->start, 0, sizeof(uint32_t) * (cells + 1));
    for (uint32_t d = 0; d < n; d++) {
        float p[3];
        steerW_load(w->p, d, p);
        cell_at[d] = cell_of(g, p);
        g->start[cell_at[d] + 1]++;
    }
    for (uint32_t c = 0; c < cells; c++) g->start[c + 1] += g->start[c];
    // place in index order within each cell, using start[c] as a cursor
    // shifted by one cell so that afterwards start[c] is the cell's start again
    for (uint32_t d = 0; d < n; d++) {
        uint32_t k = g->start[cell_at[d]]++;
        place(w, g, d, k);
    }
    for (uint32_t c = cells; c > 0; c--) g->start[c] = g->start[c - 1];
    g->start[0] = 0;
    sort_cells(w, g, 0, cells);
    return STEER_OK;
}

uint32_t steerG_cell_from(const steerG_Grid *g, uint32_t at)
{
    uint32_t lo = 0, hi = g->ncells;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->start[mid] < at) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static bool reserve_scratch(const steer_World *w, steerW_Local *loc, uint32_t need)
{
    return steerA_reserve(w, (void **)&loc->scratch, &loc->cap_scratch, need, sizeof *loc->scratch, 64);
}

// Scan one cell, appending agents within r2 of p.
static inline int scan_cell(const steer_World *w, steerW_Local *loc, uint32_t c, const float p[3], float r2,
                            uint32_t self, int k)
{
    const steerG_Grid *g = &w->grid;
    uint32_t b = g->start[c], e = g->start[c + 1];
    if (!reserve_scratch(w, loc, (uint32_t)k + (e - b))) return -1;
    steerB_Neighbor *out = loc->scratch;
    const float *px = w->p[0], *py = w->p[1], *pz = w->p[2];
    // no agent is dead during a tick (compaction runs first), and the
    // passes may be writing the other bits of their own agents' flags
    const uint8_t *flags = w->in_tick ? NULL : w->flags;
    bool wrap = w->wrap;
    float Lx = w->size[0], Ly = w->size[1], Lz = w->size[2];
    for (uint32_t i = b; i < e; i++) {
        uint32_t j = g->items[i];
        if (j == self || (flags && (flags[j] & STEER_AF_DEAD))) continue;
        float dx = px[j] - p[0], dy = py[j] - p[1], dz = pz ? pz[j] - p[2] : 0.0f;
        if (wrap) {
            if (dx >= 0.5f * Lx) dx -= Lx;
            else if (dx < -0.5f * Lx) dx += Lx;
            if (dy >= 0.5f * Ly) dy -= Ly;
            else if (dy < -0.5f * Ly) dy += Ly;
            if (pz) {
                if (dz >= 0.5f * Lz) dz -= Lz;
                else if (dz < -0.5f * Lz) dz += Lz;
            }
        }
        float d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < r2) {
            out[k].d = j;
            out[k].off[0] = dx;
            out[k].off[1] = dy;
            out[k].off[2] = dz;
            out[k].d2 = d2;
            k++;
        }
    }
    return k;
}

// Cell range on one axis around coordinate x; on a torus the range wraps
// and is capped at the whole axis so no cell is visited twice.
static void axis_range(const steerG_Grid *g, bool wrap, int axis, float x, float r, int *first, int *count)
{
    int n = g->n[axis];
    if (n == 1) {
        *first = 0;
        *count = 1;
        return;
    }
    // clamp in float first: a huge radius or a point far outside the grid
    // must not overflow the int conversion
    float flo = floorf((x - r - g->lo[axis]) * g->inv[axis]), fhi = floorf((x + r - g->lo[axis]) * g->inv[axis]);
    float lim = (float)n + 1.0f;
    int lo = !(flo > -lim) ? -(int)lim : flo > 2.0f * lim ? 2 * (int)lim : (int)flo;
    int hi = !(fhi > -lim) ? -(int)lim : fhi > 2.0f * lim ? 2 * (int)lim : (int)fhi;
    if (wrap) {
        if (hi - lo + 1 >= n) {
            *first = 0;
            *count = n;
            return;
        }
        *first = ((lo % n) + n) % n;
        *count = hi - lo + 1;
    } else {
        // agents beyond the grid sit in its border cells (see narrow_axis):
        // a range beyond it reads the border cell
        if (lo < 0) lo = 0;
        if (hi >= n) hi = n - 1;
        if (lo >= n) lo = n - 1;
        if (hi < 0) hi = 0;
        *first = lo;
        *count = hi >= lo ? hi - lo + 1 : 0;
    }
}

int steerG_gather(const steer_World *w, steerW_Local *loc, const float p[3], float radius, uint32_t self)
{
    const steerG_Grid *g = &w->grid;
    if (!g->start || w->count == 0) return 0;
    float r2 = radius * radius;
    int fx, cx, fy, cy, fz, cz;
    axis_range(g, w->wrap, 0, p[0], radius, &fx, &cx);
    axis_range(g, w->wrap, 1, p[1], radius, &fy, &cy);
    axis_range(g, w->wrap, 2, p[2], radius, &fz, &cz);
    int k = 0;
    for (int iz = 0; iz < cz; iz++) {
        int z = fz + iz;
        if (z >= g->n[2]) z -= g->n[2];
        for (int iy = 0; iy < cy; iy++) {
            int y = fy + iy;
            if (y >= g->n[1]) y -= g->n[1];
            uint32_t row = ((uint32_t)z * (uint32_t)g->n[1] + (uint32_t)y) * (uint32_t)g->n[0];
            for (int ix = 0; ix < cx; ix++) {
                int x = fx + ix;
                if (x >= g->n[0]) x -= g->n[0];
                k = scan_cell(w, loc, row + (uint32_t)x, p, r2, self, k);
                if (k < 0) return -1;
            }
        }
    }
    return k;
}

// ---- per-cell neighbourhood blocks ------------------------------------
//
// The steer pass visits agents cell by cell. All agents of a cell share the
// same candidate neighbours: their cell and the ring around it (cells are
// at least the largest sensing radius wide). In the sorted grid arrays a
// row of three adjacent cells is one contiguous run, so a 2D block is three
// runs (a run that crosses the torus seam splits in two, carrying a shift
// so plain differences are minimum images), and the per-agent filter is a
// straight, branch-free loop over sequential memory.

bool steerG_blocks_ok(const steer_World *w)
{
    const steerG_Grid *g = &w->grid;
    // a ring needs three distinct cells per axis on a torus
    return !w->wrap || (g->n[0] >= 3 && g->n[1] >= 3 && (w->dim == 2 || g->n[2] >= 3));
}

// Inlined with the dimension as a constant (and called per cell).
__attribute__((always_inline)) static inline int block_dim(const steer_World *w, steerW_Local *loc, uint32_t c,
                                                           const int dim)
{
    const steerG_Grid *g = &w->grid;
    int n0 = g->n[0], n1 = g->n[1], n2 = g->n[2];
    if (!steerG_blocks_ok(w)) return 0;
    int cx = (int)(c % (uint32_t)n0), cy = (int)((c / (uint32_t)n0) % (uint32_t)n1),
        cz = (int)(c / ((uint32_t)n0 * (uint32_t)n1));
    int z0 = dim == 3 ? -1 : 0, z1 = dim == 3 ? 1 : 0;
    int nr = 0;
    uint32_t total = 0;
    float Lx = w->size[0];
    for (int dz = z0; dz <= z1; dz++) {
        int z = cz + dz;
        float sz = 0.0f;
        if (z < 0 || z >= n2) {
            if (!w->wrap) continue;
            sz = z < 0 ? -w->size[2] : w->size[2];
            z = z < 0 ? z + n2 : z - n2;
        }
        for (int dy = -1; dy <= 1; dy++) {
            int y = cy + dy;
            float sy = 0.0f;
            if (y < 0 || y >= n1) {
                if (!w->wrap) continue;
                sy = y < 0 ? -w->size[1] : w->size[1];
                y = y < 0 ? y + n1 : y - n1;
            }
            uint32_t row = ((uint32_t)z * (uint32_t)n1 + (uint32_t)y) * (uint32_t)n0;
            int x0 = cx - 1, x1 = cx + 1;
            // the part of the row inside [0, n0), then the wrapped-around cell
            int a = x0 < 0 ? 0 : x0, b = x1 >= n0 ? n0 - 1 : x1;
            steerG_Run *r = &loc->runs[nr++];
            r->b = g->start[row + (uint32_t)a];
            r->e = g->start[row + (uint32_t)b + 1];
            r->shift[0] = 0.0f;
            r->shift[1] = sy;
            r->shift[2] = sz;
            total += r->e - r->b;
            if (w->wrap && (x0 < 0 || x1 >= n0)) {
                uint32_t x = x0 < 0 ? (uint32_t)(n0 - 1) : 0u;
                r = &loc->runs[nr++];
                r->b = g->start[row + x];
                r->e = g->start[row + x + 1];
                r->shift[0] = x0 < 0 ? -Lx : Lx;
                r->shift[1] = sy;
                r->shift[2] = sz;
                total += r->e - r->b;
            }
        }
    }
    loc->nruns = nr;
    loc->near.state = 0; // a new block: its sub-cells are sorted on first use
    loc->near.cell = c;
    return reserve_scratch(w, loc, total) ? 1 : -1;
}

int steerG_block(const steer_World *w, steerW_Local *loc, uint32_t c)
{
    return w->dim == 2 ? block_dim(w, loc, c, 2) : block_dim(w, loc, c, 3);
}

int steerG_filter(const steer_World *w, steerW_Local *loc, const float p[3], float radius, uint32_t self)
{
    const steerG_Grid *g = &w->grid;
    const float *X = g->sp[0], *Y = g->sp[1], *Z = g->sp[2];
    const uint32_t *id = g->items;
    steerB_Neighbor *out = loc->scratch;
    float r2 = radius * radius;
    int k = 0;
    // write every candidate, advance only for the ones that count: no
    // unpredictable branch per candidate
    for (int q = 0; q < loc->nruns; q++) {
        const steerG_Run *r = &loc->runs[q];
        float px = p[0] - r->shift[0], py = p[1] - r->shift[1];
        if (Z) {
            float pz = p[2] - r->shift[2];
            for (uint32_t i = r->b; i < r->e; i++) {
                float dx = X[i] - px, dy = Y[i] - py, dz = Z[i] - pz;
                float d2 = dx * dx + dy * dy + dz * dz;
                out[k] = (steerB_Neighbor){ id[i], { dx, dy, dz }, d2 };
                k += (d2 < r2) & (id[i] != self);
            }
        } else {
            for (uint32_t i = r->b; i < r->e; i++) {
                float dx = X[i] - px, dy = Y[i] - py;
                float d2 = dx * dx + dy * dy;
                out[k] = (steerB_Neighbor){ id[i], { dx, dy, 0.0f }, d2 };
                k += (d2 < r2) & (id[i] != self);
            }
        }
    }
    return k;
}

// ---- neighbour summaries ------------------------------------------------
//
// The flock family needs only sums over its neighbours (steerB_Summary), so
// for them the engine skips the neighbour list: one pass over the block's
// runs computes every summary slot of the brain at once, four candidates
// at a time with GCC/Clang vector extensions (a scalar loop elsewhere).
// Lanes outside a slot's radius add exact zeros, so every lane's sum is the
// same as a branch would give; the result depends only on the data.

#if defined(__GNUC__) && !defined(STEER_SCALAR)
typedef float v4f __attribute__((vector_size(16)));
typedef int32_t v4i __attribute__((vector_size(16)));

static inline v4f load4(const float *a)
{
    v4f v;
    memcpy(&v, a, sizeof v);
    return v;
}
static inline float hsum4(v4f v) { return (v[0] + v[1]) + (v[2] + v[3]); }
// x where the mask m is true, else +0; for any vector width
#define MASKV(m, x) ((__typeof__(x))((m) & (__typeof__(m))(x)))

// Sums of one summary slot; `need` (constant after inlining) says which.
// (The count is kept in integers: a true lane of a mask is -1, so the
// count is minus the sum of the masks; exact, as the float sum of ones is.)
typedef struct Sums4 {
    v4i n;
    v4f ox, oy, oz, hx, hy, hz, px, py, pz;
} Sums4;

// The candidates of the lanes `in` into the sums s, for any vector width
// (the operations are the same lane by lane). For the push, 1/d2 where it
// counts; a lane on top of us (or so near that 1/d2 would overflow: d2
// denormal) divides anyway, which IEEE makes an infinity (no trap) that
// the mask then drops.
#define ACCUMULATE(s, need, d3, in, d2, dx, dy, dz, hx, hy, hz)                 \
    do {                                                                        \
        if ((need)&STEERB_SUM_COUNT) (s)->n -= (in);                            \
        if ((need)&STEERB_SUM_OFFSET) {                                         \
            (s)->ox += MASKV(in, dx);                                           \
            (s)->oy += MASKV(in, dy);                                           \
            if (d3) (s)->oz += MASKV(in, dz);                                   \
        }                                                                       \
        if ((need)&STEERB_SUM_HEADING) {                                        \
            (s)->hx += MASKV(in, hx);                                           \
            (s)->hy += MASKV(in, hy);                                           \
            if (d3) (s)->hz += MASKV(in, hz);                                   \
        }                                                                       \
        if ((need)&STEERB_SUM_PUSH) {                                           \
            __typeof__(d2) inv_ = MASKV((in) & ((d2) >= FLT_MIN), 1.0f / (d2)); \
            (s)->px -= (dx)*inv_;                                               \
            (s)->py -= (dy)*inv_;                                               \
            if (d3) (s)->pz -= (dz)*inv_;                                       \
        }                                                                       \
    } while (0)

// One block of candidates from j (the lanes of `valid`) into the sums s0
// and s1 of a kernel below, whose locals it reads (X.. HZ, r20, r21,
// need0, need1, d3, heads); `load` loads the block for the vector width.
#define CANDIDATES(load, j, valid, qx, qy, qz, zero)                                               \
    do {                                                                                           \
        __typeof__((zero)*1.0f) dx = load(X + (j)) - (qx), dy = load(Y + (j)) - (qy), dz = (zero); \
        __typeof__((zero)*1.0f) hx = (zero), hy = (zero), hz = (zero), d2 = dx * dx + dy * dy;     \
        if (d3) {                                                                                  \
            dz = load(Z + (j)) - (qz);                                                             \
            d2 += dz * dz;                                                                         \
        }                                                                                          \
        if (heads) {                                                                               \
            hx = load(HX + (j));                                                                   \
            hy = load(HY + (j));                                                                   \
            if (d3) hz = load(HZ + (j));                                                           \
        }                                                                                          \
        __typeof__(valid) in0 = (valid) & (d2 < r20), in1 = (valid) & (d2 < r21);                  \
        ACCUMULATE(&s0, need0, d3, in0, d2, dx, dy, dz, hx, hy, hz);                               \
        if (need1) ACCUMULATE(&s1, need1, d3, in1, d2, dx, dy, dz, hx, hy, hz);                    \
    } while (0)

// Reduce the lanes of the sums the slot needs (the others stay zero).
__attribute__((always_inline)) static inline void finish(const Sums4 *a, const unsigned need, const bool d3,
                                                         steerB_Summary *out)
{
    memset(out, 0, sizeof *out);
    if (need & STEERB_SUM_COUNT) out->n = (float)((a->n[0] + a->n[1]) + (a->n[2] + a->n[3]));
    if (need & STEERB_SUM_OFFSET) {
        out->off[0] = hsum4(a->ox);
        out->off[1] = hsum4(a->oy);
        if (d3) out->off[2] = hsum4(a->oz);
    }
    if (need & STEERB_SUM_HEADING) {
        out->head[0] = hsum4(a->hx);
        out->head[1] = hsum4(a->hy);
        if (d3) out->head[2] = hsum4(a->hz);
    }
    if (need & STEERB_SUM_PUSH) {
        out->push[0] = hsum4(a->px);
        out->push[1] = hsum4(a->py);
        if (d3) out->push[2] = hsum4(a->pz);
    }
}

// One pass over the block for one or two slots (need1 = 0: one), inlined
// with the needs and the dimension as constants, so the few accumulators
// stay in registers and unneeded sums cost nothing. Two slots in one pass
// is the common flock: separation at one radius, alignment and cohesion at
// another.
__attribute__((always_inline)) static inline void pass_kernel(const steer_World *w, const steerW_Local *loc,
                                                              const float p[3], uint32_t self, const float *r2,
                                                              const unsigned need0, const unsigned need1, const bool d3,
                                                              steerB_Summary *out)
{
    const steerG_Grid *g = &w->grid;
    const float *X = g->sp[0], *Y = g->sp[1], *Z = g->sp[2];
    const float *HX = g->sh[0], *HY = g->sh[1], *HZ = g->sh[2];
    const v4f zero = { 0.0f, 0.0f, 0.0f, 0.0f };
    const v4i none = { 0, 0, 0, 0 };
    Sums4 s0 = { none, zero, zero, zero, zero, zero, zero, zero, zero, zero }, s1 = s0;
    const float r20 = r2[0], r21 = need1 ? r2[1] : 0.0f;
    const unsigned heads = (need0 | need1) & STEERB_SUM_HEADING;
    const v4i lane = { 0, 1, 2, 3 };
    for (int q = 0; q < loc->nruns; q++) {
        const steerG_Run *r = &loc->runs[q];
        const float qx = p[0] - r->shift[0], qy = p[1] - r->shift[1], qz = p[2] - r->shift[2];
        for (uint32_t j = r->b; j < r->e; j += 4) {
            // the agent itself is masked out: its lane adds exact zeros
            v4i valid = (lane < (int32_t)(r->e - j)) & (lane + (int32_t)j != (int32_t)self);
            CANDIDATES(load4, j, valid, qx, qy, qz, zero);
        }
    }
    finish(&s0, need0, d3, &out[0]);
    if (need1) finish(&s1, need1, d3, &out[1]);
}

#if defined(__x86_64__) || defined(__i386__)
// The helpers below take and return 32-byte vectors; they are always
// inlined into the AVX2 function, so no call passes one across the SSE/AVX
// ABI boundary GCC and Clang warn of (GCC reports it at the end of the file).
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#else
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
// Two agents of one cell at once, in one AVX2 vector of eight lanes: lanes
// 0-3 are agent a's four lanes of pass_kernel, lanes 4-7 agent b's, over
// the same candidates (their cell's block), so each half adds exactly what
// pass_kernel adds for its agent, in the same order: the same bits. Each
// agent is left out of its own half by a mask (pass_kernel parks it).
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));
typedef struct Sums8 {
    v8i n;
    v8f ox, oy, oz, hx, hy, hz, px, py, pz;
} Sums8;

// Four candidates in both halves (one 16-byte load, broadcast).
__attribute__((always_inline)) static inline v8f load4x2(const float *a)
{
    v4f x = load4(a);
    return __builtin_shufflevector(x, x, 0, 1, 2, 3, 0, 1, 2, 3);
}
__attribute__((always_inline)) static inline v8f pair8(float a, float b) { return (v8f){ a, a, a, a, b, b, b, b }; }
// Half h of an eight-lane sum, as pass_kernel's four lanes.
#define HALF(v, h)                                                         \
    {                                                                      \
        (v)[4 * (h)], (v)[4 * (h) + 1], (v)[4 * (h) + 2], (v)[4 * (h) + 3] \
    }
__attribute__((always_inline)) static inline void finish_half(const Sums8 *a, int h, const unsigned need, const bool d3,
                                                              steerB_Summary *out)
{
    Sums4 s = { HALF(a->n, h),  HALF(a->ox, h), HALF(a->oy, h), HALF(a->oz, h), HALF(a->hx, h),
                HALF(a->hy, h), HALF(a->hz, h), HALF(a->px, h), HALF(a->py, h), HALF(a->pz, h) };
    finish(&s, need, d3, out);
}

__attribute__((always_inline)) static inline void pair_kernel(const steer_World *w, const steerW_Local *loc,
                                                              const float pa[3], const float pb[3], uint32_t sa,
                                                              uint32_t sb, const float *r2, const unsigned need0,
                                                              const unsigned need1, const bool d3, steerB_Summary *outa,
                                                              steerB_Summary *outb)
{
    const steerG_Grid *g = &w->grid;
    const float *X = g->sp[0], *Y = g->sp[1], *Z = g->sp[2];
    const float *HX = g->sh[0], *HY = g->sh[1], *HZ = g->sh[2];
    const v8f zero = { 0 };
    const v8i none = { 0 };
    Sums8 s0 = { none, zero, zero, zero, zero, zero, zero, zero, zero, zero }, s1 = s0;
    const float r20 = r2[0], r21 = need1 ? r2[1] : 0.0f;
    const unsigned heads = (need0 | need1) & STEERB_SUM_HEADING;
    const v8i lane = { 0, 1, 2, 3, 0, 1, 2, 3 }, self = { (int32_t)sa, (int32_t)sa, (int32_t)sa, (int32_t)sa,
                                                          (int32_t)sb, (int32_t)sb, (int32_t)sb, (int32_t)sb };
    for (int q = 0; q < loc->nruns; q++) {
        const steerG_Run *r = &loc->runs[q];
        const v8f qx = pair8(pa[0] - r->shift[0], pb[0] - r->shift[0]);
        const v8f qy = pair8(pa[1] - r->shift[1], pb[1] - r->shift[1]);
        const v8f qz = pair8(pa[2] - r->shift[2], pb[2] - r->shift[2]);
        for (uint32_t j = r->b; j < r->e; j += 4) {
            v8i valid = (lane < (int32_t)(r->e - j)) & (lane + (int32_t)j != self);
            CANDIDATES(load4x2, j, valid, qx, qy, qz, zero);
        }
    }
    finish_half(&s0, 0, need0, d3, &outa[0]);
    finish_half(&s0, 1, need0, d3, &outb[0]);
    if (need1) {
        finish_half(&s1, 0, need1, d3, &outa[1]);
        finish_half(&s1, 1, need1, d3, &outb[1]);
    }
}
#define STEERG_PAIRS 1
#endif

enum { FLOCK_NEAR = STEERB_SUM_PUSH, FLOCK_FAR = STEERB_SUM_COUNT | STEERB_SUM_OFFSET | STEERB_SUM_HEADING };

// One agent's slots (pb NULL: pass_kernel) or two agents' (pair_kernel),
// the kernel inlined for the brain's usual needs.
__attribute__((always_inline)) static inline void slots(const steer_World *w, const steerW_Local *loc,
                                                        const float pa[3], const float pb[3], uint32_t sa, uint32_t sb,
                                                        const float *r2, unsigned need0, unsigned need1, const bool d3,
                                                        steerB_Summary *outa, steerB_Summary *outb, const bool pair)
{
#ifdef STEERG_PAIRS
    if (pair) {
        pair_kernel(w, loc, pa, pb, sa, sb, r2, need0, need1, d3, outa, outb);
        return;
    }
#endif
    (void)pb;
    (void)sb;
    (void)outb;
    (void)pair;
    pass_kernel(w, loc, pa, sa, r2, need0, need1, d3, outa);
}

__attribute__((always_inline)) static inline void summaries_dim(const steer_World *w, const steerW_Local *loc,
                                                                const float pa[3], const float pb[3], uint32_t sa,
                                                                uint32_t sb, int nslots, const float *r2,
                                                                const uint8_t *needs, steerB_Summary *outa,
                                                                steerB_Summary *outb, const bool d3, const bool pair)
{
    if (nslots == 2 && needs[0] == FLOCK_NEAR && needs[1] == FLOCK_FAR) {
        slots(w, loc, pa, pb, sa, sb, r2, FLOCK_NEAR, FLOCK_FAR, d3, outa, outb, pair);
        return;
    }
    if (nslots == 2 && needs[0] == FLOCK_FAR && needs[1] == FLOCK_NEAR) {
        slots(w, loc, pa, pb, sa, sb, r2, FLOCK_FAR, FLOCK_NEAR, d3, outa, outb, pair);
        return;
    }
    for (int k = 0; k < nslots; k++) {
        steerB_Summary *ob = pair ? outb + k : NULL;
        switch (needs[k]) {
        case FLOCK_NEAR: slots(w, loc, pa, pb, sa, sb, r2 + k, FLOCK_NEAR, 0, d3, outa + k, ob, pair); break;
        case FLOCK_FAR: slots(w, loc, pa, pb, sa, sb, r2 + k, FLOCK_FAR, 0, d3, outa + k, ob, pair); break;
        default: slots(w, loc, pa, pb, sa, sb, r2 + k, STEERB_SUM_ALL, 0, d3, outa + k, ob, pair); break;
        }
    }
}

static void summaries_one(const steer_World *w, const steerW_Local *loc, const float p[3], uint32_t slot, int nslots,
                          const float *r2, const uint8_t *needs, steerB_Summary *out)
{
    if (w->dim == 3) summaries_dim(w, loc, p, NULL, slot, 0, nslots, r2, needs, out, NULL, true, false);
    else summaries_dim(w, loc, p, NULL, slot, 0, nslots, r2, needs, out, NULL, false, false);
}

void steerG_summaries(const steer_World *w, const steerW_Local *loc, const float p[3], uint32_t slot, int nslots,
                      const float *r2, const uint8_t *needs, steerB_Summary *out)
{
    // (the grid is shared by the workers: it is only read)
    summaries_one(w, loc, p, slot, nslots, r2, needs, out);
}

#ifdef STEERG_PAIRS
__attribute__((target("avx2"))) static void summaries_pair(const steer_World *w, const steerW_Local *loc,
                                                           const float pa[3], const float pb[3], uint32_t sa,
                                                           uint32_t sb, int nslots, const float *r2,
                                                           const uint8_t *needs, steerB_Summary *outa,
                                                           steerB_Summary *outb)
{
    if (w->dim == 3) summaries_dim(w, loc, pa, pb, sa, sb, nslots, r2, needs, outa, outb, true, true);
    else summaries_dim(w, loc, pa, pb, sa, sb, nslots, r2, needs, outa, outb, false, true);
}

// STEER_NO_AVX2=1 (any value but empty or 0) keeps the SSE pass: the same
// bits, so a run can check that claim on a machine that has AVX2.
bool steerG_wide_available(void)
{
    const char *off = getenv("STEER_NO_AVX2");
    if (off && *off && strcmp(off, "0") != 0) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}
#else
bool steerG_wide_available(void) { return false; }
#endif

void steerG_summaries2(const steer_World *w, const steerW_Local *loc, const float pa[3], uint32_t sa, const float pb[3],
                       uint32_t sb, int nslots, const float *r2, const uint8_t *needs, steerB_Summary *outa,
                       steerB_Summary *outb)
{
#ifdef STEERG_PAIRS
    if (w->wide) {
        summaries_pair(w, loc, pa, pb, sa, sb, nslots, r2, needs, outa, outb);
        return;
    }
#endif
    steerG_summaries(w, loc, pa, sa, nslots, r2, needs, outa);
    steerG_summaries(w, loc, pb, sb, nslots, r2, needs, outb);
}
#else
bool steerG_wide_available(void) { return false; }
void steerG_summaries(const steer_World *w, const steerW_Local *loc, const float p[3], uint32_t slot, int nslots,
                      const float *r2, const uint8_t *needs, steerB_Summary *out)
{
    (void)needs;
    const steerG_Grid *g = &w->grid;
    const float *X = g->sp[0], *Y = g->sp[1], *Z = g->sp[2];
    const float *HX = g->sh[0], *HY = g->sh[1], *HZ = g->sh[2];
    memset(out, 0, sizeof *out * (size_t)nslots);
    for (int q = 0; q < loc->nruns; q++) {
        const steerG_Run *r = &loc->runs[q];
        const float qx = p[0] - r->shift[0], qy = p[1] - r->shift[1], qz = p[2] - r->shift[2];
        for (uint32_t j = r->b; j < r->e; j++) {
            if (j == slot) continue;
            float dx = X[j] - qx, dy = Y[j] - qy, dz = Z ? Z[j] - qz : 0.0f;
            float d2 = dx * dx + dy * dy + dz * dz;
            for (int k = 0; k < nslots; k++) {
                if (!(d2 < r2[k])) continue;
                steerB_Summary *s = &out[k];
                s->n += 1.0f;
                s->off[0] += dx;
                s->off[1] += dy;
                s->off[2] += dz;
                s->head[0] += HX[j];
                s->head[1] += HY[j];
                s->head[2] += HZ ? HZ[j] : 0.0f;
                if (d2 >= FLT_MIN) {
                    s->push[0] -= dx / d2;
                    s->push[1] -= dy / d2;
                    s->push[2] -= dz / d2;
                }
            }
        }
    }
}
void steerG_summaries2(const steer_World *w, const steerW_Local *loc, const float pa[3], uint32_t sa, const float pb[3],
                       uint32_t sb, int nslots, const float *r2, const uint8_t *needs, steerB_Summary *outa,
                       steerB_Summary *outb)
{
    steerG_summaries(w, loc, pa, sa, nslots, r2, needs, outa);
    steerG_summaries(w, loc, pb, sb, nslots, r2, needs, outb);
}
#endif
