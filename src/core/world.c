// SPDX-License-Identifier: MIT
// world.c — the world's storage and handles: creation, the per-agent
// columns and their growth, tags, brains, spawn and remove, the spatial
// re-sort and the state hash. The tick lives in tick.c, the per-agent
// property API in agent.c.
//
// Invariants: between ticks, dense indices [0, count) hold every agent that
// has not been compacted away; agents flagged DEAD are already stale to the
// host and are dropped by steerW_compact() before the next tick reads
// anything. Agents spawned during a tick are appended past the count the
// tick captured, so they join at the next tick and are never visited twice.
#include "world.h"
#include "bytes.h"
#include "par.h"
#include "brain.h"
#include "rng.h"
#include "vecmath.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *column_at(steer_World *w, const steerW_Column *c, int axis);

// ---- creation ----------------------------------------------------------

// A count from the environment (1 to most), or `otherwise`: STEER_THREADS
// is the thread count of worlds whose host did not choose one (so a test
// run can put every world of a program on several threads), and
// STEER_PAR_GRAIN the agents per item of a parallel pass (par.h).
static int env_count(const char *name, long most, int otherwise)
{
    const char *e = getenv(name);
    char *end;
    long n = e ? strtol(e, &end, 10) : 0;
    return e && *e && !*end && n >= 1 && n <= most ? (int)n : otherwise;
}

int steer_world_new(const steer_WorldDesc *desc, steer_World **out)
{
    steer_WorldDesc d = desc ? *desc : (steer_WorldDesc){ 0 };
    *out = NULL;
    if (d.dim == 0) d.dim = 2;
    if (d.dim != 2 && d.dim != 3) return STEER_EARG;
    if (d.dt == 0) d.dt = 1.0 / 60.0;
    if (!(d.dt > 0) || !isfinite(d.dt) || !((float)d.dt > 0.0f)) return STEER_EARG; // stored as a float
    for (int i = 0; i < 3; i++) {
        if (!(d.size[i] >= 0) || !isfinite(d.size[i]) || !isfinite(d.origin[i])) return STEER_EARG;
        if (d.wrap && i < d.dim && d.size[i] <= 0) return STEER_EARG;
    }
    steer_AllocFn alloc = d.alloc ? d.alloc : steerW_default_alloc;
    steer_World *w = alloc(d.alloc_ud, NULL, sizeof *w);
    if (!w) return STEER_ENOMEM;
    memset(w, 0, sizeof *w);
    w->alloc = alloc;
    w->alloc_ud = d.alloc_ud;
    w->log = d.log;
    w->log_ud = d.log_ud;
    w->hooks = d.hooks;
    w->dim = d.dim;
    w->dt = (float)d.dt;
    w->wrap = d.wrap;
    w->record = !d.no_record;
    w->reorder_period = d.reorder_period == 0 ? 16 : d.reorder_period;
    w->wide = steerG_wide_available();
    if (d.threads < 0 || d.threads > STEER_MAX_THREADS || !d.enqueue_task != !d.finish_task) {
        alloc(d.alloc_ud, w, 0);
        return STEER_EARG;
    }
    w->threads = d.threads ? d.threads : env_count("STEER_THREADS", STEER_MAX_THREADS, 1);
    w->grain = (uint32_t)env_count("STEER_PAR_GRAIN", 1 << 20, STEERW_PAR_GRAIN);
    w->enqueue_task = d.enqueue_task;
    w->finish_task = d.finish_task;
    w->task_ctx = d.task_ctx;
    if (!(d.stuck_window >= 0) || !isfinite(d.stuck_window) || !(d.stuck_progress >= 0) ||
        !isfinite(d.stuck_progress) || d.collide_iterations < 0 ||
        d.collide_iterations > STEER_MAX_COLLIDE_ITERATIONS) {
        alloc(d.alloc_ud, w, 0);
        return STEER_EARG;
    }
    if (d.stuck_window > 0) {
        // anchor position, distance to goal then, time, effort
        w->mem_base = (uint32_t)d.dim + 3;
        w->mem_stride = w->mem_base;
        w->stuck_window = (float)d.stuck_window;
        w->stuck_progress = (float)(d.stuck_progress > 0 ? d.stuck_progress : 0.5);
    }
    w->collide = d.collide;
    w->collide_iterations = d.collide_iterations ? d.collide_iterations : 2;
    for (int i = 0; i < 3; i++) {
        w->origin[i] = i < d.dim ? (float)d.origin[i] : 0.0f;
        w->size[i] = i < d.dim ? (float)d.size[i] : 0.0f;
    }
    uint64_t s = d.seed ? d.seed : 1;
    w->seed = s;
    w->rng = steer_splitmix64(&s);
    w->free_head = UINT32_MAX;
    w->geo.free_head = UINT32_MAX;
    if (w->rng == 0) w->rng = 0x9E3779B97F4A7C15ull;
    *out = w;
    return STEER_OK;
}

void steer_world_free(steer_World *w)
{
    if (!w) return;
    steerW_Array cols[STEERW_MAX_ARRAYS];
    for (int k = 0, n = steerW_arrays(w, cols); k < n; k++)
        steerW_array_free(w, column_at(w, cols[k].col, cols[k].axis));
    for (int i = 0; i < 3; i++) steerW_array_free(w, &w->push[i]);
    steerW_array_free(w, &w->agent_tmp);
    void *arrays[] = { w->gen, w->dense_of, w->out_events, w->thinkers };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) steerW_free(w, arrays[i]);
    steerW_par_free(w);
    for (uint32_t i = 1; i < w->ntags; i++) steerW_free(w, w->tags[i]);
    steerW_free(w, w->tags);
    steerW_free(w, w->tag_hash);
    for (uint32_t i = 1; i < w->nbrains; i++) steerB_brain_free(w, w->brains[i]);
    steerW_free(w, w->brains);
    steerG_free(w);
    steerW_geometry_free(w);
    steerW_craft_free(w);
    w->alloc(w->alloc_ud, w, 0);
}

void steerW_swap(steer_World *a, steer_World *b)
{
    steer_World t = *a;
    *a = *b;
    *b = t;
    // the hosts' parts stay where they were
    b->alloc = a->alloc, b->alloc_ud = a->alloc_ud, b->log = a->log, b->log_ud = a->log_ud, b->hooks = a->hooks;
    a->alloc = t.alloc, a->alloc_ud = t.alloc_ud, a->log = t.log, a->log_ud = t.log_ud, a->hooks = t.hooks;
    steerW_par_swap(a, b);
}

// A brain's tree as flattened (a node shared by two parents is visited
// twice, as it was compiled), so at most STEERB_MAX_NODES steps.
static void retarget_tree(steer_Behavior *b, const steer_World *from, const steer_World *to)
{
    if (b->target_world == from) b->target_world = to;
    for (uint16_t k = 0; k < b->nkids; k++) retarget_tree(b->kids[k], from, to);
}

void steerW_retarget(steer_World *w, const steer_World *from)
{
    for (uint32_t i = 1; i < w->nbrains; i++)
        if (w->brains[i]) retarget_tree(w->brains[i]->root, from, w);
}

// ---- storage growth ----------------------------------------------------

#define COLUMN(name, field, elem, shape, role, bits)                           \
    {                                                                          \
        name, offsetof(steer_World, field), 0, sizeof(elem), shape, role, bits \
    }
#define ONE(name, field, role) COLUMN(name, field, *((steer_World *)0)->field, STEERW_COL_ONE, role, 0)
#define AXES(name, field, role) COLUMN(name, field, *((steer_World *)0)->field[0], STEERW_COL_AXES, role, 0)
#define ROW(name, field, stride, role)                                                                        \
    {                                                                                                         \
        name, offsetof(steer_World, field), offsetof(steer_World, stride), sizeof *((steer_World *)0)->field, \
            STEERW_COL_ROW, role, 0                                                                           \
    }

// Every per-agent column, in the order of the state hash (see steerW_arrays).
const steerW_Column steerW_columns[] = {
    AXES("position", p, STEERW_COL_STATE),
    AXES("velocity", v, STEERW_COL_STATE),
    AXES("heading", h, STEERW_COL_STATE),
    AXES("force", f, STEERW_COL_KEPT),
    AXES("target", tq, STEERW_COL_STATE),
    AXES("facing", face, STEERW_COL_TICK),
    ONE("mass", mass, STEERW_COL_STATE),
    ONE("max_speed", max_speed, STEERW_COL_STATE),
    ONE("max_force", max_force, STEERW_COL_STATE),
    ONE("radius", radius, STEERW_COL_STATE),
    ONE("slot", slot, STEERW_COL_KEPT),
    ONE("rng", rng32, STEERW_COL_STATE),
    ONE("tag", tag, STEERW_COL_STATE),
    ONE("brain", brain, STEERW_COL_STATE),
    COLUMN("flags", flags, *((steer_World *)0)->flags, STEERW_COL_ONE, STEERW_COL_STATE,
           STEER_AF_TARGET_POINT | STEER_AF_TARGET_AGENT | STEER_AF_TOUCHING),
    ROW("memory", mem, mem_stride, STEERW_COL_STATE),
    ROW("record", rec, rec_stride, STEERW_COL_KEPT),
};
#undef COLUMN
#undef ONE
#undef AXES
#undef ROW
const int steerW_ncolumns = (int)(sizeof steerW_columns / sizeof steerW_columns[0]);
_Static_assert(sizeof steerW_columns / sizeof steerW_columns[0] * 3 <= STEERW_MAX_ARRAYS, "STEERW_MAX_ARRAYS");

// Where the world keeps the pointer to column c's array `axis`.
static void *column_at(steer_World *w, const steerW_Column *c, int axis)
{
    return (char *)w + c->at + (size_t)axis * sizeof(void *);
}

static steerW_Array column_array(const steer_World *w, const steerW_Column *c, int axis)
{
    steerW_Array a = { c, axis, NULL, c->size };
    memcpy(&a.base, (const char *)w + c->at + (size_t)axis * sizeof(void *), sizeof a.base);
    if (c->shape == STEERW_COL_ROW) {
        uint32_t stride;
        memcpy(&stride, (const char *)w + c->stride_at, sizeof stride);
        a.bytes *= stride;
    }
    return a;
}

// Whether the array is there and carries its agents' data (a tick's scratch does not).
static bool carries(const steerW_Array *a) { return a->bytes && a->col->role != STEERW_COL_TICK; }

int steerW_arrays(const steer_World *w, steerW_Array out[STEERW_MAX_ARRAYS])
{
    int n = 0;
    for (int i = 0; i < w->dim; i++)
        for (int k = 0; k < steerW_ncolumns; k++)
            if (steerW_columns[k].shape == STEERW_COL_AXES) out[n++] = column_array(w, &steerW_columns[k], i);
    for (int k = 0; k < steerW_ncolumns; k++)
        if (steerW_columns[k].shape != STEERW_COL_AXES) out[n++] = column_array(w, &steerW_columns[k], 0);
    return n;
}

// Grow the array whose pointer is at `at` (any object pointer) from old_cap
// to cap elements of `elem` bytes, zeroing the new ones.
static bool grow(steer_World *w, void *at, size_t elem, uint32_t old_cap, uint32_t cap)
{
    void *p;
    memcpy(&p, at, sizeof p);
    void *n = steerW_realloc(w, p, elem * cap);
    if (!n) return false;
    memset((char *)n + elem * old_cap, 0, elem * (cap - old_cap));
    memcpy(at, &n, sizeof n);
    return true;
}

// Make room for `need` dense agents; all-or-nothing is not needed because a
// larger array is harmless, only `cap` must match what every array has.
static int reserve_exact(steer_World *w, uint32_t cap);

static int reserve_agents(steer_World *w, uint32_t need)
{
    if (need <= w->cap) return STEER_OK;
    uint32_t cap = w->cap ? w->cap : 64;
    while (cap < need) cap *= 2;
    return reserve_exact(w, cap);
}

static int reserve_exact(steer_World *w, uint32_t cap)
{
    steerW_Array cols[STEERW_MAX_ARRAYS];
    for (int k = 0, n = steerW_arrays(w, cols); k < n; k++) {
        const steerW_Array *a = &cols[k];
        // a row of stride 0 does not exist yet; a tick's scratch only once it is in use
        if (!a->bytes || (a->col->role == STEERW_COL_TICK && !column_array(w, a->col, 0).base)) continue;
        void *at = column_at(w, a->col, a->axis);
        if (!steerW_array_resize(w, at, a->bytes * cap)) return STEER_ENOMEM;
        char *base;
        memcpy(&base, at, sizeof base);
        memset(base + a->bytes * w->cap, 0, a->bytes * (cap - w->cap));
    }
    w->cap = cap;
    return STEER_OK;
}

// The handle table's room for `cap` slots.
static int reserve_slots(steer_World *w, uint32_t cap)
{
    if (!grow(w, &w->gen, sizeof(uint32_t), w->cap_slots, cap) ||
        !grow(w, &w->dense_of, sizeof(uint32_t), w->cap_slots, cap))
        return STEER_ENOMEM;
    w->cap_slots = cap;
    return STEER_OK;
}

int steer_world_reserve(steer_World *w, int agents)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    if (agents < 0) return STEER_EARG;
    uint32_t n = (uint32_t)agents;
    if (n > w->cap_slots && reserve_slots(w, n) != STEER_OK) return STEER_ENOMEM;
    return n > w->cap ? reserve_exact(w, n) : STEER_OK;
}

// Zero every column of dense agent d (a reused row may hold a moved agent's
// old data).
static void clear_agent(steer_World *w, uint32_t d)
{
    steerW_Array cols[STEERW_MAX_ARRAYS];
    for (int k = 0, n = steerW_arrays(w, cols); k < n; k++)
        if (carries(&cols[k])) memset(cols[k].base + d * cols[k].bytes, 0, cols[k].bytes);
}

// Widen the per-agent memory or record stride, keeping each agent's data.
static int restride(steer_World *w, float **arr, uint32_t *stride, uint32_t want)
{
    if (want <= *stride) return STEER_OK;
    float *old = *arr;
    *arr = NULL;
    if (!steerW_array_resize(w, arr, sizeof(float) * want * (w->cap ? w->cap : 1))) {
        *arr = old;
        return STEER_ENOMEM;
    }
    float *n = *arr;
    memset(n, 0, sizeof(float) * want * (w->cap ? w->cap : 1));
    for (uint32_t d = 0; d < w->count && *stride; d++)
        memcpy(n + (size_t)d * want, old + (size_t)d * *stride, sizeof(float) * *stride);
    *arr = old;
    steerW_array_free(w, arr);
    *arr = n;
    *stride = want;
    return STEER_OK;
}

// The columns' bytes per agent: rows (brain memory and records) or the rest
// (a tick's scratch is not counted).
static size_t column_bytes(const steer_World *w, bool rows)
{
    steerW_Array cols[STEERW_MAX_ARRAYS];
    size_t per = 0;
    for (int k = 0, n = steerW_arrays(w, cols); k < n; k++)
        if (carries(&cols[k]) && (cols[k].col->shape == STEERW_COL_ROW) == rows) per += cols[k].bytes;
    return per;
}

size_t steer_world_brain_bytes(const steer_World *w) { return (size_t)w->cap * column_bytes(w, true); }

size_t steer_world_bytes(const steer_World *w)
{
    size_t b = sizeof *w + (size_t)w->cap * column_bytes(w, false) + steer_world_brain_bytes(w);
    b += (size_t)w->cap_slots * 2 * sizeof(uint32_t); // generation, dense index
    b += (size_t)w->grid.cap_items * (sizeof(uint32_t) + (w->grid.sh[0] ? 2u : 1u) * (size_t)w->dim * sizeof(float));
    b += (size_t)w->grid.cap_cells * sizeof(uint32_t);
    b += (size_t)w->loc.cap_scratch * sizeof(steerB_Neighbor);
    b += (size_t)(w->loc.cap_events + w->cap_out_events) * sizeof(steer_Event);
    b += (size_t)w->cap_thinkers * sizeof *w->thinkers;
    b += w->cap_agent_tmp * sizeof(uint32_t);
    b += (size_t)w->cap_turn * sizeof *w->turn;
    return b;
}

// ---- queries -----------------------------------------------------------

int steer_world_dim(const steer_World *w) { return w->dim; }
double steer_world_dt(const steer_World *w) { return w->dt; }
uint64_t steer_world_tick(const steer_World *w) { return w->tick; }
uint64_t steer_world_seed(const steer_World *w) { return w->seed; }
int steer_world_count(const steer_World *w) { return (int)(w->count - w->dead); }
const char *steer_world_error(const steer_World *w) { return w->error; }
// The record buffer exists only while recording is on, so worlds that do
// not inspect pay neither its memory nor its bandwidth.
int steer_world_set_record(steer_World *w, bool on)
{
    if (w->in_tick) return STEER_EBUSY;
    if (!on) {
        steerW_array_free(w, &w->rec);
        w->rec_stride = 0;
        w->record = false;
        return STEER_OK;
    }
    if (restride(w, &w->rec, &w->rec_stride, w->rec_need) != STEER_OK) return STEER_ENOMEM;
    w->record = true;
    return STEER_OK;
}
bool steer_world_record(const steer_World *w) { return w->record; }

void steer_world_bounds(const steer_World *w, double origin[3], double size[3], bool *wrap)
{
    for (int i = 0; i < 3; i++) {
        origin[i] = w->origin[i];
        size[i] = w->size[i];
    }
    *wrap = w->wrap;
}

const steer_Event *steer_world_events(const steer_World *w, int *count)
{
    *count = (int)w->nout_events;
    return w->out_events;
}

// ---- tags --------------------------------------------------------------

// Tags are interned once and found by hash (steerS_fnv32, open addressing with
// linear probing, at most half full), so a lookup costs the same with ten
// tags or sixty thousand.
int steerW_tag_find(const steer_World *w, const char *tag)
{
    if (!tag) return 0;
    if (!w->cap_tag_hash) return -1;
    uint32_t mask = w->cap_tag_hash - 1;
    for (uint32_t i = steerS_fnv32(tag) & mask; w->tag_hash[i]; i = (i + 1) & mask)
        if (strcmp(w->tags[w->tag_hash[i]], tag) == 0) return w->tag_hash[i];
    return -1;
}

static void tag_hash_put(steer_World *w, uint16_t id)
{
    uint32_t mask = w->cap_tag_hash - 1, i = steerS_fnv32(w->tags[id]) & mask;
    while (w->tag_hash[i]) i = (i + 1) & mask;
    w->tag_hash[i] = id;
}

int steerW_tag_id(steer_World *w, const char *tag)
{
    int id = steerW_tag_find(w, tag);
    if (id >= 0) return id;
    if (w->ntags > STEERW_MAX_TAGS) return STEER_EFULL; // ids 1 .. 65535 are taken
    if (w->ntags == 0) w->ntags = 1;
    if (w->ntags + 1 > w->cap_tags) {
        uint32_t cap = w->cap_tags ? w->cap_tags * 2 : 16;
        char **t = steerW_realloc(w, w->tags, sizeof(char *) * cap);
        if (!t) return STEER_ENOMEM;
        w->tags = t;
        w->cap_tags = cap;
    }
    if (2 * (w->ntags + 1) > w->cap_tag_hash) {
        uint32_t cap = w->cap_tag_hash ? w->cap_tag_hash * 2 : 64;
        uint16_t *h = steerW_realloc(w, NULL, sizeof *h * cap);
        if (!h) return STEER_ENOMEM;
        memset(h, 0, sizeof *h * cap);
        steerW_free(w, w->tag_hash);
        w->tag_hash = h;
        w->cap_tag_hash = cap;
        for (uint32_t i = 1; i < w->ntags; i++) tag_hash_put(w, (uint16_t)i);
    }
    size_t len = strlen(tag) + 1;
    char *s = steerW_realloc(w, NULL, len);
    if (!s) return STEER_ENOMEM;
    memcpy(s, tag, len);
    w->tags[w->ntags] = s;
    tag_hash_put(w, (uint16_t)w->ntags);
    return (int)w->ntags++;
}

// ---- brains ------------------------------------------------------------

// The brain id for a behaviour tree, compiling it on first use. Ids of
// freed brains (see steerW_collect_brains) are reused.
int steerW_brain_id(steer_World *w, steer_Behavior *b)
{
    if (!b) return 0;
    uint32_t hole = 0;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        if (!w->brains[i]) {
            if (!hole) hole = i;
            continue;
        }
        if (w->brains[i]->root == b) return (int)i;
    }
    if (!hole && w->nbrains >= UINT16_MAX) return STEER_EFULL;
    int st;
    steerB_Brain *br = steerB_compile(w, b, &st);
    if (!br) return st;
    if (restride(w, &w->mem, &w->mem_stride, w->mem_base + br->mem_floats) != STEER_OK ||
        (w->record && restride(w, &w->rec, &w->rec_stride, br->nnodes * 3) != STEER_OK)) {
        steerB_brain_free(w, br);
        return STEER_ENOMEM;
    }
    uint32_t n = hole;
    if (!n) {
        n = w->nbrains ? w->nbrains : 1;
        steerB_Brain **a = steerW_realloc(w, w->brains, sizeof *a * (n + 1));
        if (!a) {
            steerB_brain_free(w, br);
            return STEER_ENOMEM;
        }
        a[0] = NULL;
        w->brains = a;
        w->nbrains = n + 1;
    }
    if (br->faces && !w->face[0]) {
        for (int i = 0; i < w->dim; i++) {
            if (!steerW_array_resize(w, &w->face[i], sizeof(float) * (w->cap ? w->cap : 1))) {
                steerB_brain_free(w, br);
                return STEER_ENOMEM;
            }
        }
    }
    w->brains[n] = br;
    if (br->sense > w->sense_radius) w->sense_radius = br->sense;
    if (br->nnodes * 3 > w->rec_need) w->rec_need = br->nnodes * 3;
    return (int)n;
}

// Free the brains no agent uses any more (a hot reload builds new ones),
// and shrink the sensing radius and record size to what is left. Between
// ticks only.
void steerW_collect_brains(steer_World *w)
{
    bool freed = false;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        if (w->brains[i] && w->brains[i]->users == 0) {
            steerB_brain_free(w, w->brains[i]);
            w->brains[i] = NULL;
            freed = true;
        }
    }
    if (!freed) return;
    w->sense_radius = 0;
    w->rec_need = 0;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        const steerB_Brain *br = w->brains[i];
        if (!br) continue;
        if (br->sense > w->sense_radius) w->sense_radius = br->sense;
        if (br->nnodes * 3 > w->rec_need) w->rec_need = br->nnodes * 3;
    }
}

bool steer_world_uses_brain(const steer_World *w, const steer_Behavior *b)
{
    for (uint32_t i = 1; i < w->nbrains; i++)
        if (w->brains[i] && w->brains[i]->root == b) return true;
    return false;
}

void steerW_set_brain(steer_World *w, uint32_t d, int id)
{
    if (w->brain[d]) w->brains[w->brain[d]]->users--;
    w->brain[d] = (uint16_t)id;
    if (id) w->brains[id]->users++;
    // a new brain starts from fresh memory (the world's own floats stay)
    if (w->mem_stride > w->mem_base) memset(steerW_mem(w, d), 0, sizeof(float) * (w->mem_stride - w->mem_base));
    if (w->rec_stride) memset(w->rec + (size_t)d * w->rec_stride, 0, sizeof(float) * w->rec_stride);
    if (id) steerB_init_agent(w, d);
}

// ---- spawn and remove --------------------------------------------------

// Vehicle numbers lie in [STEERW_PARAM_MIN, STEERW_PARAM_MAX] (or are 0 where
// 0 is allowed): a tinier positive value would turn into 0 or a denormal
// float that divides to infinity, a huger one overflows a float when two
// radii or speeds are added.

int steer_spawn(steer_World *w, const steer_AgentDesc *desc, steer_Agent *out)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    steer_AgentDesc a = desc ? *desc : (steer_AgentDesc){ 0 };
    if (out) *out = STEER_NO_AGENT;
    if (a.mass == 0) a.mass = 1;
    if (a.max_speed == 0) a.max_speed = 1;
    if (a.max_force == 0) a.max_force = 1;
    if (a.radius == 0) a.radius = 0.5;
    if (!steerW_finite3(a.position) || !steerW_finite3(a.velocity) || !steerW_param_ok(a.mass, false) ||
        !steerW_param_ok(a.max_speed, true) || !steerW_param_ok(a.max_force, true) || !steerW_param_ok(a.radius, true))
        return STEER_EARG;
    if (w->count >= UINT32_MAX / 2) return STEER_EFULL;
    int st = reserve_agents(w, w->count + 1);
    if (st) return st;
    int tag = a.tag ? steerW_tag_id(w, a.tag) : 0;
    if (tag < 0) return tag;
    int bid = steerW_brain_id(w, a.brain);
    if (bid < 0) return bid;
    // a free handle slot, or a new one
    uint32_t s;
    if (w->free_head != UINT32_MAX) {
        s = w->free_head;
        w->free_head = w->dense_of[s];
    } else {
        if (w->nslots == w->cap_slots && reserve_slots(w, w->cap_slots ? w->cap_slots * 2 : 64) != STEER_OK)
            return STEER_ENOMEM;
        s = w->nslots++;
        w->gen[s] = 0;
    }
    w->gen[s]++;
    if (w->gen[s] == 0) w->gen[s] = 1;
    uint32_t d = w->count++;
    clear_agent(w, d);
    w->dense_of[s] = d;
    w->slot[d] = s;
    float pos[3], vel[3];
    for (int i = 0; i < 3; i++) {
        pos[i] = (float)a.position[i];
        vel[i] = (float)a.velocity[i];
    }
    if (w->dim == 2) pos[2] = vel[2] = 0;
    for (int i = 0; i < w->dim && w->wrap; i++) pos[i] = steerW_wrap_into(pos[i], w->origin[i], w->size[i]);
    steerW_store(w->p, d, pos);
    steerW_store(w->v, d, vel);
    float hd[3] = { vel[0], vel[1], vel[2] };
    if (v3_normalize(hd) == 0.0f) v3_set(hd, 1, 0, 0);
    steerW_store(w->h, d, hd);
    w->mass[d] = (float)a.mass;
    w->max_speed[d] = (float)a.max_speed;
    w->max_force[d] = (float)a.max_force;
    w->radius[d] = (float)a.radius;
    w->tag[d] = (uint16_t)tag;
    // Each agent's stream comes from the world's, so spawning order alone
    // decides every agent's randomness.
    uint32_t r = (uint32_t)(steer_rng64(&w->rng) >> 32);
    w->rng32[d] = r ? r : 0x9E3779B9u;
    if (w->mem_base) {
        float *row = w->mem + (size_t)d * w->mem_stride;
        for (int i = 0; i < w->dim; i++) row[i] = pos[i];
        row[w->dim] = -1.0f; // no goal distance yet
    }
    steerW_set_brain(w, d, bid);
    w->grid_fresh = false;
    if (out) *out = steerW_handle(w, d);
    return STEER_OK;
}

int steer_remove(steer_World *w, steer_Agent a)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    w->flags[d] |= STEER_AF_DEAD;
    w->dead++;
    w->grid_fresh = false;
    // bump the generation now: the handle is stale from this moment on
    uint32_t s = (uint32_t)a.id;
    w->gen[s]++;
    if (w->gen[s] == 0) w->gen[s] = 1;
    return STEER_OK;
}

bool steer_alive(const steer_World *w, steer_Agent a) { return steerW_dense(w, a) >= 0; }

// Move dense agent `from` into index `to` (every column that moves, as
// steerW_arrays lists them in cols[0..n)).
static void move_agent(steer_World *w, const steerW_Array *cols, int n, uint32_t to, uint32_t from)
{
    for (int k = 0; k < n; k++) {
        size_t b = cols[k].bytes;
        if (carries(&cols[k])) memcpy(cols[k].base + to * b, cols[k].base + from * b, b);
    }
    w->dense_of[w->slot[to]] = to;
}

// Drop dead agents, keeping the order of the living (so a removal never
// reorders the survivors' evaluation and replays stay simple).
void steerW_compact(steer_World *w)
{
    if (!w->dead) return;
    steerW_Array cols[STEERW_MAX_ARRAYS];
    int ncols = steerW_arrays(w, cols);
    uint32_t o = 0;
    for (uint32_t d = 0; d < w->count; d++) {
        if (w->flags[d] & STEER_AF_DEAD) {
            if (w->brain[d]) w->brains[w->brain[d]]->users--;
            w->dense_of[w->slot[d]] = w->free_head;
            w->free_head = w->slot[d];
            continue;
        }
        if (o != d) move_agent(w, cols, ncols, o, d);
        o++;
    }
    w->count = o;
    w->dead = 0;
}

// ---- spatial re-sort ---------------------------------------------------

// Gather a[items[k]] into position k for 32-, 16- and 8-bit elements
// (floats and integers alike: moved as bits, never as float values).
static void permute32(void *a, const uint32_t *items, uint32_t *tmp, uint32_t n)
{
    uint32_t *x = a;
    for (uint32_t k = 0; k < n; k++) tmp[k] = x[items[k]];
    memcpy(x, tmp, sizeof(uint32_t) * n);
}

static void permute16(void *a, const uint32_t *items, uint32_t *tmp, uint32_t n)
{
    uint16_t *x = a, *t = (uint16_t *)(void *)tmp;
    for (uint32_t k = 0; k < n; k++) t[k] = x[items[k]];
    memcpy(x, t, sizeof(uint16_t) * n);
}

static void permute8(void *a, const uint32_t *items, uint32_t *tmp, uint32_t n)
{
    uint8_t *x = a, *t = (uint8_t *)(void *)tmp;
    for (uint32_t k = 0; k < n; k++) t[k] = x[items[k]];
    memcpy(x, t, n);
}

// The same for one column of rows `stride` words apart (brain memory and
// records), so the scratch needs one word per agent whatever the strides.
static void permute_column(float *a, uint32_t stride, uint32_t col, const uint32_t *items, uint32_t *tmp, uint32_t n)
{
    float *t = (float *)(void *)tmp;
    for (uint32_t k = 0; k < n; k++) t[k] = a[(size_t)items[k] * stride + col];
    for (uint32_t k = 0; k < n; k++) a[(size_t)k * stride + col] = t[k];
}

uint32_t *steerW_agent_tmp(steer_World *w)
{
    if (w->cap > w->cap_agent_tmp) {
        // as the agent arrays: it grows when they do
        if (!steerW_array_resize(w, &w->agent_tmp, sizeof(uint32_t) * w->cap)) return NULL;
        w->cap_agent_tmp = w->cap;
    }
    return w->agent_tmp;
}

// Put the dense arrays in grid-cell order so that an agent's neighbours
// are near it in memory. Needs a scratch block of one 32-bit word per
// agent, kept in the world (it grows with the agents, so the tick
// allocates only when they do); when that cannot be had the re-sort is
// skipped (it only costs speed).
// The re-sort's units: each array of a column, and each float of a row
// column's rows, permuted on its own (so workers can share them out).
typedef struct ReorderJob {
    steerW_Array cols[STEERW_MAX_ARRAYS];
    uint32_t first[STEERW_MAX_ARRAYS + 1]; // the first unit of each array
    int ncols;
    uint32_t n;
} ReorderJob;

static void reorder_unit(steer_World *w, uint32_t u, void *ctx)
{
    const ReorderJob *j = ctx;
    int c = 0;
    while (j->first[c + 1] <= u) c++;
    const steerW_Array *a = &j->cols[c];
    // worker 0's scratch is the world's; another's, its own (steerW_par_reserve)
    uint32_t *tmp = w->worker ? w->loc.tmp : w->agent_tmp;
    const uint32_t *items = w->grid.items;
    if (a->col->shape == STEERW_COL_ROW) {
        uint32_t stride = (uint32_t)(a->bytes / sizeof(float));
        permute_column((float *)(void *)a->base, stride, u - j->first[c], items, tmp, j->n);
    } else if (a->bytes == 4) {
        permute32(a->base, items, tmp, j->n);
    } else if (a->bytes == 2) {
        permute16(a->base, items, tmp, j->n);
    } else {
        permute8(a->base, items, tmp, j->n);
    }
}

void steerW_reorder(steer_World *w)
{
    uint32_t n = w->count;
    uint32_t *items = w->grid.items;
    if (!n || !steerW_agent_tmp(w)) return;
    ReorderJob j;
    j.n = n;
    j.ncols = 0;
    j.first[0] = 0;
    steerW_Array all[STEERW_MAX_ARRAYS];
    for (int c = 0, ncols = steerW_arrays(w, all); c < ncols; c++) {
        if (!carries(&all[c])) continue;
        uint32_t units = all[c].col->shape == STEERW_COL_ROW ? (uint32_t)(all[c].bytes / sizeof(float)) : 1;
        j.cols[j.ncols] = all[c];
        j.first[j.ncols + 1] = j.first[j.ncols] + units;
        j.ncols++;
    }
    // a unit is a pass over every agent: only worlds big enough to split share them out
    uint32_t units = j.first[j.ncols];
    if (steerW_items(w, n) > 1 && steerW_par_reserve(w, n)) {
        steerW_par(w, units, reorder_unit, &j);
    } else {
        for (uint32_t u = 0; u < units; u++) reorder_unit(w, u, &j);
    }
    for (uint32_t k = 0; k < n; k++) {
        w->dense_of[w->slot[k]] = k;
        items[k] = k;
    }
}

// ---- hash ----------------------------------------------------------------

uint64_t steer_world_hash(const steer_World *w)
{
    uint64_t h = STEERS_FNV64_BASIS;
    h = steerS_fnv64(h, &w->tick, sizeof w->tick);
    h = steerS_fnv64(h, &w->rng, sizeof w->rng);
    steerW_Array cols[STEERW_MAX_ARRAYS];
    int ncols = steerW_arrays(w, cols);
    // in handle order: the storage order changes with removals and re-sorts
    for (uint32_t s = 0; s < w->nslots; s++) {
        steer_Agent a = steerW_slot_handle(w, s);
        int64_t dd = steerW_dense(w, a);
        if (dd < 0) continue;
        uint32_t d = (uint32_t)dd;
        h = steerS_fnv64(h, &a.id, sizeof a.id);
        for (int k = 0; k < ncols; k++) {
            const steerW_Array *c = &cols[k];
            if (!c->bytes || c->col->role != STEERW_COL_STATE) continue;
            const char *e = c->base + d * c->bytes;
            if (c->col->state_bits) {
                uint8_t kept = (uint8_t)(*e & c->col->state_bits);
                h = steerS_fnv64(h, &kept, 1);
            } else {
                h = steerS_fnv64(h, e, c->bytes);
            }
        }
        const steerW_Turn *turn = w->turn ? steerW_turn(w, d) : NULL; // craft.c
        if (turn) {
            h = steerS_fnv64(h, &turn->craft, 1);
            h = steerS_fnv64(h, &turn->min_speed, 12);
            h = steerS_fnv64(h, turn->up, 12);
        }
    }
    // the static geometry and the think timers (not the host's function refs)
    for (uint32_t i = 0; i < w->geo.nshapes; i++) {
        const steerW_Shape *s = &w->geo.shapes[i];
        if (!s->alive) continue;
        h = steerS_fnv64(h, &i, sizeof i);
        h = steerS_fnv64(h, &s->gen, sizeof s->gen);
        h = steerS_fnv64(h, &s->kind, 1);
        h = steerS_fnv64(h, s->a, sizeof s->a);
        h = steerS_fnv64(h, s->b, sizeof s->b);
        h = steerS_fnv64(h, &s->r, sizeof s->r);
    }
    for (uint32_t i = 0; i < w->nthinkers; i++) {
        const struct steerW_Thinker *t = &w->thinkers[i];
        if (!t->ref) continue;
        h = steerS_fnv64(h, &t->agent.id, sizeof t->agent.id);
        h = steerS_fnv64(h, &t->period, 4);
        h = steerS_fnv64(h, &t->elapsed, 4);
        h = steerS_fnv64(h, &t->since, sizeof t->since);
        h = steerS_fnv64(h, &t->hz, sizeof t->hz);
    }
    return h;
}
