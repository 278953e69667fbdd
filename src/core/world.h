// SPDX-License-Identifier: MIT
// world.h — the world's internal layout, shared by the core, the behaviours
// and the combiners: the struct, its parts and the inline readers of its
// columns and handles, and the roof's own functions (world.c). Each module
// of the core declares its functions in its own header (store.h, grid.h,
// geometry.h, craft.h, brain.h, par.h, base.h), included at the end for
// the code above the core. Code above the behaviours (the Lua bindings,
// the viewer) should read the world through include/ only; where it still
// includes this header, a change of layout reaches it.
//
// Agents live in dense structure-of-arrays storage, one array per
// component (z arrays exist only in 3D worlds): dense index d in [0, count).
// A handle names a slot in the handle table, which maps it to its dense
// index; removing swaps the last agent into the hole, and every few ticks
// the dense arrays are re-sorted by grid cell so neighbours sit together in
// memory. Both happen only between ticks.
#ifndef STEER_WORLD_H
#define STEER_WORLD_H

#include "steer.h"
#include "base.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct steerB_Brain steerB_Brain;
typedef struct steerB_Neighbor steerB_Neighbor;

// Agent flag bits.
enum {
    STEER_AF_DEAD = 1,         // removed; compacted away before the next tick
    STEER_AF_TARGET_POINT = 2, // the target slot holds a point
    STEER_AF_TARGET_AGENT = 4, // the target slot holds an agent handle
    STEER_AF_FACING = 8,       // this tick's brain chose a facing (see face[])
    STEER_AF_TOUCHING = 16,    // in contact at the end of the last tick (collide pass)
    STEER_AF_TOUCHED = 32,     // in contact during this tick's collide pass
    STEER_AF_KINEMATIC = 64    // the host moves it: no brain, no integration, not pushed (steer_agent_set_kinematic)
};

#define STEERG_PAD 4

typedef struct steerG_Grid {
    int n[3];             // cells per axis (n[2] = 1 in 2D)
    float lo[3];          // lower corner of cell (0,0,0)
    float cell[3];        // cell extent per axis
    float inv[3];         // 1 / cell
    uint32_t *start;      // cells+1 prefix sums into items
    uint32_t *items;      // dense indices sorted by cell
    float *sp[3], *sh[3]; // positions and headings in the order of items (z only in 3D),
                          // padded by STEERG_PAD so vector loops may read past a run
    uint32_t cap_cells, cap_items;
    uint32_t ncells;
    uint32_t *counts; // the parallel sort's counts: one row of cells per part
    size_t cap_counts;
} steerG_Grid;

typedef struct steerW_Shape {
    uint8_t kind; // steer_ShapeKind
    uint8_t alive;
    uint32_t gen;
    float a[3]; // circle centre, segment start, plane point, box lower corner
    float b[3]; // segment end, plane normal (unit), box upper corner
    float r;    // circle radius
} steerW_Shape;

typedef struct steerW_Geometry {
    steerW_Shape *shapes;
    uint32_t *next_free;
    uint32_t nshapes, cap, live, free_head;
    uint32_t *planes; // unbounded shapes, checked by every query
    uint32_t nplanes, cap_planes;
    bool dirty; // the grid below must be rebuilt before a query
    int n[3];
    float lo[3], cell[3];
    uint32_t *start, *items;
    uint32_t ncells, cap_items;
    uint32_t *occupied; // the cells holding a shape, in increasing index (a sparse query walks these)
    uint32_t noccupied, cap_occupied;
} steerW_Geometry;

// One cell's neighbourhood as runs of the sorted grid arrays, each with the
// shift that carries it across the torus seam (see steerG_block).
typedef struct steerG_Run {
    uint32_t b, e;
    float shift[3];
} steerG_Run;

// The current block's agents sorted into sub-cells, for the gather of a
// brain that reads only its nearest neighbours (steerG_nearest,
// nearest.c): built on first use in each block, kept for the block's
// other agents.
typedef struct steerG_NearItem {
    float x, y, z;  // the grid's copy of the position
    uint32_t id, q; // dense index, the run it came from (its shift)
} steerG_NearItem;
#define STEERG_NEAR_CELLS 1728 // the most sub-cells of a block: 24 x 24 in 2D, 12 x 12 x 12 in 3D
typedef struct steerG_Near {
    steerG_NearItem *items; // by sub-cell
    uint32_t cap;
    uint32_t *start; // STEERG_NEAR_CELLS + 1 sub-cell starts
    uint32_t cell;   // the block's cell (steerG_block)
    int state;       // 0: not built for this block, 1: built, -1: not usable (the plain filter)
    int n[3];        // sub-cells per axis
    float lo[3], width[3], inv[3], eps;
} steerG_Near;

// What a pass writes besides its agents' own rows: neighbour lists, shape
// query results, events. One per worker thread: w->loc is the calling
// thread's, and a pass on another worker runs on a copy of the world whose
// loc is that worker's (par.c). Everything else in the world is read-only
// during a parallel pass, but for the rows of the agents the pass owns:
// every item function (par.h) gets the world const and this struct apart,
// and hands it on (a brain's steerB_Ctx.loc, the grid's and the shapes'
// queries, steerT_event_to), so a behaviour writes its worker's scratch
// without knowing which thread it is on.
typedef struct steerW_Local {
    steerB_Neighbor *scratch; // one agent's neighbours during the steer pass
    uint32_t cap_scratch;
    steerG_Run runs[18]; // the current cell's block (steerG_block)
    int nruns;
    steerG_Near near; // the block by sub-cell (steerG_nearest)
    uint32_t *found;  // result buffer of steerO_shapes_near
    uint32_t cap_found;
    uint32_t *stamp; // its marks, one per shape slot (one shape spans many cells)
    uint32_t cap_stamp, stamp_now;
    uint64_t work;       // cells and entries steerO_shapes_near visited with this scratch (only ever grows)
    uint32_t candidates; // the agents the current cell's block holds (the steer pass's metering)
    steer_Event *events; // queued by the passes, handed out after the tick
    uint32_t nevents, cap_events;
    uint32_t *tmp; // one word per agent: the re-sort's scratch on workers 1 and up (steerP_reserve)
    uint32_t cap_tmp;
    uint64_t pass;   // the parallel pass this copy of the world was made for (par.c)
    int status;      // a pass's failure on this worker (STEER_OK: none)
    char error[256]; // a worker's steerA_error message, logged by the calling thread
} steerW_Local;

struct steer_World {
    const void *lib; // &steerA_lib: made by this copy of steer (first, where every copy looks; base.h)
    int dim;
    float dt;
    bool wrap;
    bool record;
    bool in_tick;
    float origin[3], size[3];
    uint64_t tick;
    uint64_t rng;  // the world's stream
    uint64_t seed; // as given (0 means 1)
    int reorder_period;

    steer_AllocFn alloc;
    void *alloc_ud;
    steer_LogFn log;
    void *log_ud;
    steer_Hooks hooks;
    char error[256];

    // dense agent storage
    uint32_t count, cap;
    float *p[3], *v[3], *h[3], *f[3];
    float *mass, *max_speed, *max_force, *radius;
    uint32_t *tq[3];       // target slot: a point's float bits, or an agent handle in tq[0..1]
    uint32_t *slot;        // dense -> handle slot
    uint32_t *rng32;       // per-agent stream
    uint16_t *tag, *brain; // tag id (0 none), brain id (0 none)
    uint8_t *flags;
    float *face[3]; // facing chosen by the steer pass for locomotion; exists
                    // once a brain that faces is in use, transient per tick
    float *mem;     // brain memory, mem_stride floats per agent
    float *rec;     // recorded node outputs, rec_stride floats per agent
    uint32_t mem_stride, rec_stride;
    uint32_t mem_base; // world-owned floats at the start of each memory row (stuck watch)
    float stuck_window, stuck_progress;
    bool collide;
    int collide_iterations;
    uint32_t path_budget; // work served per tick to the kinds that serve requests (steerB_Kind.serve)
    // those kinds' scratch in this world (kept by the world in a swap, as its allocator)
    struct steerW_Served {
        const void *kind; // the steerB_Kind
        void *state;
    } * served;
    uint32_t nserved;
    // resources the host attached to the world for its views (the Lua
    // w:add_navmesh's meshes, which a viewer draws), each held (a
    // reference) until the world ends; a snapshot carries them (version 5)
    struct steerW_Attached {
        const struct steerB_ResourceKind *kind;
        void *obj;
    } * attached;
    uint32_t nattached, cap_attached;
    float *push[3]; // the collide pass's corrections (transient)
    uint8_t *held;  // the collide pass's copy of which agents are kinematic (the flags change during it)
    uint32_t push_cap;
    uint32_t rec_need; // record floats the brains in use need
    uint32_t dead;     // agents flagged dead, awaiting compaction

    // handle table; a free slot's dense_of holds the next free slot
    uint32_t *gen, *dense_of; // per slot
    uint32_t nslots, cap_slots;
    uint32_t free_head; // first free slot, UINT32_MAX when none

    // tags (id 0 = untagged); tag_hash: ids by string hash, open addressing (0 empty)
    char **tags;
    uint32_t ntags;
    uint32_t cap_tags, cap_tag_hash;
    uint16_t *tag_hash;

    // brains (id 0 = none)
    steerB_Brain **brains;
    uint32_t nbrains;

    steerW_Geometry geo;
    steerG_Grid grid;
    bool grid_fresh;    // the grid matches the current positions (for host queries)
    float sense_radius; // largest neighbour radius of any brain in use

    steerW_Local loc;     // the calling thread's scratch (see steerW_Local)
    uint32_t *agent_tmp;  // one word per agent: each agent's cell while the grid is built,
    size_t cap_agent_tmp; // then the re-sort's scratch (kept: no allocation in the tick)

    // thinkers: only agents that think pay for a timer
    struct steerW_Thinker {
        steer_Agent agent;
        int ref;
        float period, elapsed;
        double since, hz;
    } * thinkers;
    uint32_t nthinkers, cap_thinkers;

    steer_Event *out_events; // the last step's events, handed to the host
    uint32_t nout_events, cap_out_events;

    // turn-limited vehicles (craft.c), by handle slot; any_craft: some agent is a craft
    struct steerW_Turn *turn;
    uint32_t cap_turn;
    bool any_craft;
    // some agent is (or was) kinematic: only then do the passes look for the flag
    bool any_kinematic;
    // the steer pass's work per agent (steer_world_set_metering), by handle
    // slot: units of the last tick, for a host that bounds what agents cost
    uint32_t *work;
    uint32_t cap_work;
    bool meter;
    // evaluate every brain one agent at a time (tests and benches compare the batched path with it)
    bool no_batch;
    // neighbour passes two agents at a time in AVX2 (set where the CPU has it; the same bits either way)
    bool wide;

    // threads (par.c): the host's part, kept by steerW_swap like the allocator
    int threads;
    steer_EnqueueTaskFn *enqueue_task;
    steer_FinishTaskFn *finish_task;
    void *task_ctx;
    struct steerP_Pool *pool;   // the pool's lock, and its threads once a parallel pass started them
    struct steer_World *copies; // workers 1 .. threads-1: their copies of the world, with their scratch
    int ncopies;
    uint32_t grain; // agents per item of a parallel pass (STEERP_GRAIN)
    uint64_t pass;  // parallel passes run (par.c)
    int worker;     // which worker this copy of the world runs as (0: the world itself)
    bool in_par;    // a parallel pass runs: allocation takes the pool's lock
};

// Exchange the whole state of two worlds, each keeping its address, its
// allocator, its log, its host hooks and its metering (a rewind in place: snapshot.c,
// and the Lua binding's w:restore). Not during a tick.
void steerW_swap(steer_World *a, steer_World *b);
// After a swap: the trees of w's brains that name `from` as the world of
// their target agents (loaded there) name w.
void steerW_retarget(steer_World *w, const steer_World *from);

// Finite and representable in the float storage (a double above FLT_MAX
// would silently become infinity).
static inline bool steerW_storable(double v) { return isfinite(v) && fabs(v) <= FLT_MAX; }
static inline bool steerW_finite3(const double v[3])
{
    return steerW_storable(v[0]) && steerW_storable(v[1]) && steerW_storable(v[2]);
}
// x wrapped into [lo, lo + L): one add or subtract for an ordinary step, the
// floor formula for a jump of more than a period; lo only when rounding
// lands on the upper edge (the same point) or x is not finite.
static inline float steerW_wrap_into(float x, float lo, float L)
{
    if (x < lo) x += L;
    else if (x >= lo + L) x -= L;
    if (x >= lo && x < lo + L) return x;
    x -= L * floorf((x - lo) / L);
    return x >= lo && x < lo + L ? x : lo;
}

// Dense index of a live handle, or -1. A free slot's dense_of holds the
// free list, so a forged handle with its generation must not be trusted:
// the dense index must point back at the slot. No agent is dead during a
// tick (compaction runs first), when the passes may be writing the other
// bits of an agent's flags, so the flags are read only between ticks.
static inline int64_t steerW_dense(const steer_World *w, steer_Agent a)
{
    uint32_t s = (uint32_t)a.id, g = (uint32_t)(a.id >> 32);
    if (a.id == 0 || s >= w->nslots || w->gen[s] != g) return -1;
    uint32_t d = w->dense_of[s];
    if (d >= w->count || w->slot[d] != s || (!w->in_tick && (w->flags[d] & STEER_AF_DEAD))) return -1;
    return d;
}
// The handle of slot s at its current generation (high 32 bits), the slot low.
static inline steer_Agent steerW_slot_handle(const steer_World *w, uint32_t s)
{
    return (steer_Agent){ ((uint64_t)w->gen[s] << 32) | s };
}
static inline steer_Agent steerW_handle(const steer_World *w, uint32_t d) { return steerW_slot_handle(w, w->slot[d]); }
// The agent's brain memory (past the world's own floats), or NULL.
static inline float *steerW_mem(const steer_World *w, uint32_t d)
{
    return w->mem_stride ? w->mem + (size_t)d * w->mem_stride + w->mem_base : NULL;
}
static inline void steerW_load(float *const arr[3], uint32_t d, float o[3])
{
    o[0] = arr[0][d];
    o[1] = arr[1][d];
    o[2] = arr[2] ? arr[2][d] : 0.0f;
}
static inline void steerW_store(float *const arr[3], uint32_t d, const float v[3])
{
    arr[0][d] = v[0];
    arr[1][d] = v[1];
    if (arr[2]) arr[2][d] = v[2];
}
// The target slot shares one store between a point and an agent handle
// (the flags say which), which saves a handle's worth of bytes per agent.
static inline void steerW_target_point(const steer_World *w, uint32_t d, float o[3])
{
    for (int i = 0; i < 3; i++) {
        uint32_t b = w->tq[i] ? w->tq[i][d] : 0;
        memcpy(&o[i], &b, sizeof b);
    }
}
static inline void steerW_set_target_point(steer_World *w, uint32_t d, const float v[3])
{
    for (int i = 0; i < w->dim; i++) memcpy(&w->tq[i][d], &v[i], sizeof(uint32_t));
}
static inline steer_Agent steerW_target_agent(const steer_World *w, uint32_t d)
{
    return (steer_Agent){ (uint64_t)w->tq[0][d] | (uint64_t)w->tq[1][d] << 32 };
}
static inline void steerW_set_target_agent(steer_World *w, uint32_t d, steer_Agent a)
{
    w->tq[0][d] = (uint32_t)a.id;
    w->tq[1][d] = (uint32_t)(a.id >> 32);
    if (w->tq[2]) w->tq[2][d] = 0;
}

// A grid cell index from its coordinate in cells, clamped to [0, n) in
// float before the conversion: a point far outside would overflow an int
// (and NaN gives 0). n <= 2^24, so (float)n is exact.
#define STEERW_MAX_AXIS_CELLS 16777216
static inline int steerW_cell_index(float f, int n) { return !(f >= 0.0f) ? 0 : f < (float)n ? (int)f : n - 1; }
// Turn limits (craft.c). An agent with turn data has a minimum turn radius
// (directed seek plans with it); a craft also flies by it. The record lives
// by handle slot, so it never moves with the dense arrays; it belongs to
// the agent while its generation matches the slot's.
typedef struct steerW_Turn {
    uint32_t gen;  // the slot's generation it was set for (0: none)
    uint8_t craft; // 1: craft locomotion; 0: a point mass with a turn radius
    float min_speed, min_turn_radius, max_turn_accel;
    float up[3]; // the banked up vector (3D crafts)
} steerW_Turn;
static inline const steerW_Turn *steerW_turn(const steer_World *w, uint32_t d)
{
    uint32_t s = w->slot[d];
    return s < w->cap_turn && w->turn[s].gen == w->gen[s] ? &w->turn[s] : NULL;
}
// Attach obj, a resource of `kind`, to the world (its list of attached
// resources, above): 1 when it is new there (the world takes a reference),
// 0 when `same` finds it attached already (NULL: the same pointer), or
// STEER_ENOMEM. world.c, which releases them as the world ends.
int steerW_attach(steer_World *w, const struct steerB_ResourceKind *kind, void *obj,
                  bool (*same)(const void *a, const void *b));
// Whether agent d is kinematic (steer_agent_set_kinematic): the host moves it.
static inline bool steerW_kinematic(const steer_World *w, uint32_t d)
{
    return w->any_kinematic && (w->flags[d] & STEER_AF_KINEMATIC);
}
static inline bool steerW_is_craft(const steer_World *w, uint32_t d)
{
    const steerW_Turn *t = steerW_turn(w, d);
    return t && t->craft;
}

// The modules' own headers. Files of the core include the ones they call;
// code above the core (behaviours, combiners, bindings) gets them all here.
#include "store.h"
#include "grid.h"
#include "geometry.h"
#include "craft.h"

#endif
