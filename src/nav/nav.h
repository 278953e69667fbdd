// SPDX-License-Identifier: MIT
// nav.h — navigation on a tile grid: the grid of traversal costs, line of
// sight, A* paths and flow fields. The core of steer knows nothing of it;
// behaviours (follow_flow) and the bindings read it.
//
// Cells are numbered c = y * nx + x with (0, 0) the cell at the origin and
// y growing upwards (the Lua side reads maps top row first and converts).
// A cell's cost is a finite number > 0 (the price of a metre through it,
// 1 being plain ground) or INFINITY (blocked). Outside the grid counts as
// blocked. Moving between neighbouring cells costs the step's length (1 or
// sqrt 2 cells) times the mean of the two cells' costs, so distances are
// symmetric; a diagonal step is allowed only when both cells beside it are
// open (no cutting of blocked corners).
//
// Grids and flow fields made by steerN_grid_new and steerN_flow_new are
// shared: the script value that made one holds a reference, every
// behaviour bound to a field holds one (steerB_flow_bind) and such a field
// holds one on its grid; the last release frees it. So a field lives as
// long as any agent's brain steers on it, whatever becomes of the script
// (a mod's Lua state closed under its agents). The counts are atomic: a
// mod's state may close on another thread than the one releasing a brain.
// A grid or field kept in place (init and free: a benchmark's, a test's)
// is counted by nobody (its count stays 0: retain and release leave it
// alone, so a behaviour may be bound to it); its owner frees it after the
// fields and brains on it.
#ifndef STEER_NAV_H
#define STEER_NAV_H

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Memory: a grid allocates (its costs, its A* scratch, its last path) and
// frees through the allocator it was made with, and so do the flow fields
// on it. Lua's lua_Alloc signature, so a binding can hand over a Lua
// state's own: realloc semantics with the block's old size (0 for a new
// block), a new size of 0 frees; NULL fn means libc.
typedef void *(*steerN_AllocFn)(void *ud, void *p, size_t osize, size_t nsize);
typedef struct steerN_Alloc {
    steerN_AllocFn fn;
    void *ud;
} steerN_Alloc;
// Resize p from osize to nsize bytes (0: free, NULL back); NULL when out of memory (p stays).
void *steerN_realloc(const steerN_Alloc *a, void *p, size_t osize, size_t nsize);
// Resize the arrays *p and *q of n items (of psize and qsize bytes) to m
// items, both or neither: 0, or -1 when out of memory (both as they were).
int steerN_resize2(const steerN_Alloc *a, void **p, size_t psize, void **q, size_t qsize, size_t n, size_t m);

// A binary min-heap of (key, cell) with lazy deletion (stale entries are
// skipped by whoever pops them), in its owner's memory.
typedef struct steerN_Heap {
    double *key;
    uint32_t *item;
    uint32_t n, cap;
    steerN_Alloc alloc;
} steerN_Heap;

typedef struct steerN_Grid {
    atomic_int refs; // of a grid made by steerN_grid_new
    uint64_t serial; // its binding's name for it across snapshots (0: none; nav leaves it alone)
    steerN_Alloc alloc;
    int nx, ny;
    double origin[2];
    double cell;      // cell side, metres
    float *cost;      // nx * ny costs; INFINITY = blocked
    double min_cost;  // a lower bound of every open cell's cost (A*'s heuristic scale)
    uint32_t version; // bumped by every edit
    // A* scratch, allocated by the first query and reused: costs so far,
    // parents, and a stamp per cell telling which query last wrote them
    // (no clearing per query)
    double *g;
    uint32_t *parent, *seen;
    uint32_t stamp;
    steerN_Heap heap;
    double *path; // the last path's points (x, y pairs)
    uint32_t npath, cap_path;
    uint32_t *cells; // the last grid path's cells, goal first
    uint32_t cap_cells;
} steerN_Grid;

// The eight neighbour offsets: 0..3 orthogonal (E, N, W, S), 4..7 diagonal
// (NE, NW, SW, SE).
extern const int steerN_dx[8], steerN_dy[8];

// A grid of nx * ny open cells of cost 1, allocating with alloc (NULL:
// libc). Returns 0, or -1 when out of memory.
int steerN_grid_init(steerN_Grid *g, int nx, int ny, double cell, const double origin[2], const steerN_Alloc *alloc);
void steerN_grid_free(steerN_Grid *g);
// The same, allocated, with one reference; NULL when out of memory.
steerN_Grid *steerN_grid_new(int nx, int ny, double cell, const double origin[2], const steerN_Alloc *alloc);
void steerN_grid_retain(steerN_Grid *g);
void steerN_grid_release(steerN_Grid *g); // NULL: nothing
// dst's costs, min_cost and version become src's (a grid of the same
// cells: false, nothing changed, otherwise); its A* scratch stays its own.
bool steerN_grid_copy(steerN_Grid *dst, const steerN_Grid *src);
// The C memory a grid holds now (it grows by 16 bytes a cell with the
// first A* query), for a binding that charges it to a script's owner; a
// new grid takes STEERN_GRID_CELL_BYTES a cell and a little more.
size_t steerN_grid_bytes(const steerN_Grid *g);
#define STEERN_GRID_CELL_BYTES sizeof(float)

static inline bool steerN_inside(const steerN_Grid *g, int x, int y)
{
    return x >= 0 && y >= 0 && x < g->nx && y < g->ny;
}
static inline bool steerN_open(const steerN_Grid *g, int x, int y)
{
    return steerN_inside(g, x, y) && g->cost[(size_t)y * (size_t)g->nx + (size_t)x] < INFINITY;
}
// The cell holding world point p; false when p is outside the grid.
bool steerN_cell_of(const steerN_Grid *g, const double p[2], int *x, int *y);
void steerN_center(const steerN_Grid *g, int x, int y, double out[2]);
// Set a cell's cost (INFINITY blocks it).
void steerN_set_cost(steerN_Grid *g, int x, int y, float cost);
// The cost of the step from cell a to neighbour direction k (INFINITY when
// blocked or cutting a corner).
double steerN_step_cost(const steerN_Grid *g, int x, int y, int k);

// The costs of the eight steps from cell (x, y), in the order of
// steerN_dx/dy (INFINITY where blocked or cutting a corner): the hot loop
// of every search, with one bounds check per side instead of per step.
void steerN_steps(const steerN_Grid *g, int x, int y, double out[8]);

// True when the segment a-b touches only open cells of cost <= max_cost
// (INFINITY: any open cell). Touching includes grazing a cell's corner.
bool steerN_line_of_sight(const steerN_Grid *g, const double a[2], const double b[2], double max_cost);

// The distance from p along the unit direction d to the first blocked
// cell (or the grid's edge), at most `max`; 0 when p itself is blocked.
double steerN_ray(const steerN_Grid *g, const double p[2], const double d[2], double max);

// A* from `from` to `to` (world points): 1 when found, with the smoothed
// route in g->path (g->npath points: from, corners, to) and its grid cost
// (cost-weighted metres of the unsmoothed cell path) in *cost; 0 when
// unreachable or either point is outside or blocked; -1 when out of memory.
int steerN_path(steerN_Grid *g, const double from[2], const double to[2], double *cost);

// The grid's walls: the boundaries between open and blocked cells (the
// outside counts as blocked), merged into maximal straight segments. Calls
// fn for each; stops and returns fn's non-zero result.
typedef int (*steerN_WallFn)(void *ud, const double a[2], const double b[2]);
int steerN_walls(const steerN_Grid *g, steerN_WallFn fn, void *ud);

int steerN_heap_push(steerN_Heap *h, double key, uint32_t item);
uint32_t steerN_heap_pop(steerN_Heap *h, double *key);
void steerN_heap_free(steerN_Heap *h);

// ---- flow fields ------------------------------------------------------------

#define STEERN_NONE 8 // a cell without a direction (goal, blocked or unreachable)

typedef struct steerN_Bucket {
    uint32_t *item;
    uint32_t n, cap;
} steerN_Bucket;

typedef struct steerN_Flow {
    atomic_int refs;    // of a field made by steerN_flow_new
    uint64_t serial;    // as a grid's
    steerN_Alloc alloc; // its grid's
    steerN_Grid *grid;  // which such a field references
    uint32_t version;   // the grid version the field was built for
    double *dist;       // integration field minus `bias`, cost-weighted cells; INFINITY unreachable
    double bias;        // added to every stored distance (see steerN_flow_set_goal)
    double drift;       // offsets the repairs since the last build added, in cells
    double *wdist;      // a repair's window distances
    uint8_t *dir;       // per cell: the neighbour (0..7) to go to, or STEERN_NONE
    double *goals;      // goal points (x, y pairs)
    uint32_t *goal_cells;
    uint32_t ngoals, cap_goals;
    steerN_Heap heap;
    steerN_Bucket *buckets; // Dial's buckets of a build (see flow.c)
    uint32_t nbuckets;
    uint32_t *mark, stamp; // per cell: touched by the last update
    uint32_t *list;        // the cells the last build or update settled, in order
    uint32_t touched;      // how many
    bool incremental;      // the last update was a repair, not a rebuild
} steerN_Flow;

// A field on grid g, still to build, in g's memory: 0, or -1 when out of memory.
int steerN_flow_init(steerN_Flow *f, steerN_Grid *g);
void steerN_flow_free(steerN_Flow *f);
// The same, allocated, with one reference, referencing g (made by
// steerN_grid_new); NULL when out of memory.
steerN_Flow *steerN_flow_new(steerN_Grid *g);
void steerN_flow_retain(steerN_Flow *f);
void steerN_flow_release(steerN_Flow *f); // NULL: nothing
// The C memory a field holds now (a build grows its heap and buckets); a
// new one takes STEERN_FLOW_CELL_BYTES a cell and a little more.
size_t steerN_flow_bytes(const steerN_Flow *f);
#define STEERN_FLOW_CELL_BYTES (sizeof(double) + 1 + 2 * sizeof(uint32_t))
// Build a field toward n goals (world points, each inside the grid in an
// open cell: the caller checks). 0, or -1 when out of memory.
int steerN_flow_build(steerN_Flow *f, const double *goals, uint32_t n);
// Move a single goal: a repair of a window around the old and new goal
// when the move is small (see flow.c), else a rebuild.
int steerN_flow_set_goal(steerN_Flow *f, const double goal[2]);
// Rebuild if the grid changed since the field was built.
int steerN_flow_refresh(steerN_Flow *f);
// Room for n goals (what steerN_flow_copy needs from a field of n): 0, or
// -1 when out of memory (f as it was). Changes nothing else.
int steerN_flow_reserve(steerN_Flow *f, uint32_t n);
// dst becomes what src is, as built or repaired: its goals, distances,
// directions, bias, drift, version and last update. Both on grids of as
// many cells, dst with room for src's goals (steerN_flow_reserve): false,
// nothing changed, otherwise. Its grid and its scratch stay its own.
bool steerN_flow_copy(steerN_Flow *dst, const steerN_Flow *src);
// The distance (metres, cost-weighted) from cell c to the nearest goal.
static inline double steerN_flow_dist(const steerN_Flow *f, uint32_t c) { return f->dist[c] + f->bias; }
// The field's direction at world point p, interpolated between the
// centres of the open, reachable cells around it (unit, or zero where
// there is no way to a goal); in a goal cell it points at the goal. Also
// the distance left along the field (metres; INFINITY when unreachable)
// and the goal point when p is in a goal cell (return 1 then, else 0).
int steerN_flow_sample(const steerN_Flow *f, const double p[2], double dir[2], double *left, double goal[2]);

#endif
