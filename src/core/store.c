// SPDX-License-Identifier: MIT
// store.c — the world's agent storage: the column table and its arrays,
// their growth, the handle table, tags, compaction, the spatial re-sort,
// the state hash, the tick's events and the agents' scratch word. It calls
// the floor (base.c) and the workers (par.c, for the re-sort) and nothing
// else: the grid, geometry, brains and craft call it, and the roof
// (world.c) calls them all.
//
// Invariants: between ticks, dense indices [0, count) hold every agent that
// has not been compacted away; agents flagged DEAD are already stale to the
// host and are dropped by steerT_compact() before the next tick reads
// anything. Agents spawned during a tick are appended past the count the
// tick captured, so they join at the next tick and are never visited twice.
#include "store.h"
#include "bytes.h"
#include "brain.h" // the users count of a brain, which compaction drops
#include "par.h"
#include "vecmath.h"

#include <stdlib.h>
#include <string.h>

// ---- storage growth ----------------------------------------------------

#define COLUMN(name, field, elem, shape, role, bits)                           \
    {                                                                          \
        name, offsetof(steer_World, field), 0, sizeof(elem), shape, role, bits \
    }
#define ONE(name, field, role) COLUMN(name, field, *((steer_World *)0)->field, STEERT_COL_ONE, role, 0)
#define AXES(name, field, role) COLUMN(name, field, *((steer_World *)0)->field[0], STEERT_COL_AXES, role, 0)
#define ROW(name, field, stride, role)                                                                        \
    {                                                                                                         \
        name, offsetof(steer_World, field), offsetof(steer_World, stride), sizeof *((steer_World *)0)->field, \
            STEERT_COL_ROW, role, 0                                                                           \
    }

// Every per-agent column, in the order of the state hash (see steerT_arrays).
const steerT_Column steerT_columns[] = {
    AXES("position", p, STEERT_COL_STATE),
    AXES("velocity", v, STEERT_COL_STATE),
    AXES("heading", h, STEERT_COL_STATE),
    AXES("force", f, STEERT_COL_KEPT),
    AXES("target", tq, STEERT_COL_STATE),
    AXES("facing", face, STEERT_COL_TICK),
    ONE("mass", mass, STEERT_COL_STATE),
    ONE("max_speed", max_speed, STEERT_COL_STATE),
    ONE("max_force", max_force, STEERT_COL_STATE),
    ONE("radius", radius, STEERT_COL_STATE),
    ONE("slot", slot, STEERT_COL_KEPT),
    ONE("rng", rng32, STEERT_COL_STATE),
    ONE("tag", tag, STEERT_COL_STATE),
    ONE("brain", brain, STEERT_COL_STATE),
    COLUMN("flags", flags, *((steer_World *)0)->flags, STEERT_COL_ONE, STEERT_COL_STATE,
           STEER_AF_TARGET_POINT | STEER_AF_TARGET_AGENT | STEER_AF_TOUCHING | STEER_AF_KINEMATIC),
    ROW("memory", mem, mem_stride, STEERT_COL_STATE),
    ROW("record", rec, rec_stride, STEERT_COL_KEPT),
};
#undef COLUMN
#undef ONE
#undef AXES
#undef ROW
const int steerT_ncolumns = (int)(sizeof steerT_columns / sizeof steerT_columns[0]);
_Static_assert(sizeof steerT_columns / sizeof steerT_columns[0] * 3 <= STEERT_MAX_ARRAYS, "STEERT_MAX_ARRAYS");

// Where the world keeps the pointer to column c's array `axis`.
static void *column_at(steer_World *w, const steerT_Column *c, int axis)
{
    return (char *)w + c->at + (size_t)axis * sizeof(void *);
}

static steerT_Array column_array(const steer_World *w, const steerT_Column *c, int axis)
{
    steerT_Array a = { c, axis, NULL, c->size };
    memcpy(&a.base, (const char *)w + c->at + (size_t)axis * sizeof(void *), sizeof a.base);
    if (c->shape == STEERT_COL_ROW) {
        uint32_t stride;
        memcpy(&stride, (const char *)w + c->stride_at, sizeof stride);
        a.bytes *= stride;
    }
    return a;
}

// Whether the array is there and carries its agents' data (a tick's scratch does not).
static bool carries(const steerT_Array *a) { return a->bytes && a->col->role != STEERT_COL_TICK; }

int steerT_arrays(const steer_World *w, steerT_Array out[STEERT_MAX_ARRAYS])
{
    int n = 0;
    for (int i = 0; i < w->dim; i++)
        for (int k = 0; k < steerT_ncolumns; k++)
            if (steerT_columns[k].shape == STEERT_COL_AXES) out[n++] = column_array(w, &steerT_columns[k], i);
    for (int k = 0; k < steerT_ncolumns; k++)
        if (steerT_columns[k].shape != STEERT_COL_AXES) out[n++] = column_array(w, &steerT_columns[k], 0);
    return n;
}

// Grow the array whose pointer is at `at` (any object pointer) from old_cap
// to cap elements of `elem` bytes, zeroing the new ones.
static bool grow(steer_World *w, void *at, size_t elem, uint32_t old_cap, uint32_t cap)
{
    void *p;
    memcpy(&p, at, sizeof p);
    void *n = steerA_realloc(w, p, elem * cap);
    if (!n) return false;
    memset((char *)n + elem * old_cap, 0, elem * (cap - old_cap));
    memcpy(at, &n, sizeof n);
    return true;
}

// Make room for `need` dense agents; all-or-nothing is not needed because a
// larger array is harmless, only `cap` must match what every array has.
static int reserve_exact(steer_World *w, uint32_t cap);

int steerT_reserve_agents(steer_World *w, uint32_t need)
{
    if (need <= w->cap) return STEER_OK;
    uint32_t cap = w->cap ? w->cap : 64;
    while (cap < need) cap *= 2;
    return reserve_exact(w, cap);
}

static int reserve_exact(steer_World *w, uint32_t cap)
{
    steerT_Array cols[STEERT_MAX_ARRAYS];
    for (int k = 0, n = steerT_arrays(w, cols); k < n; k++) {
        const steerT_Array *a = &cols[k];
        // a row of stride 0 does not exist yet; a tick's scratch only once it is in use
        if (!a->bytes || (a->col->role == STEERT_COL_TICK && !column_array(w, a->col, 0).base)) continue;
        void *at = column_at(w, a->col, a->axis);
        if (!steerA_array_resize(w, at, a->bytes * cap)) return STEER_ENOMEM;
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
    STEERA_WORLD(w, STEER_EARG);
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
    steerT_Array cols[STEERT_MAX_ARRAYS];
    for (int k = 0, n = steerT_arrays(w, cols); k < n; k++)
        if (carries(&cols[k])) memset(cols[k].base + d * cols[k].bytes, 0, cols[k].bytes);
}

// A new agent's row at dense index count, zeroed, with a free handle slot,
// or a new one, at its next generation (spawn's part of the storage).
int steerT_add_agent(steer_World *w, uint32_t *out)
{
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
    *out = w->count++;
    clear_agent(w, *out);
    w->dense_of[s] = *out;
    w->slot[*out] = s;
    return STEER_OK;
}

// Widen the per-agent memory or record stride, keeping each agent's data.
int steerT_restride(steer_World *w, float **arr, uint32_t *stride, uint32_t want)
{
    if (want <= *stride) return STEER_OK;
    float *old = *arr;
    *arr = NULL;
    if (!steerA_array_resize(w, arr, sizeof(float) * want * (w->cap ? w->cap : 1))) {
        *arr = old;
        return STEER_ENOMEM;
    }
    float *n = *arr;
    memset(n, 0, sizeof(float) * want * (w->cap ? w->cap : 1));
    for (uint32_t d = 0; d < w->count && *stride; d++)
        memcpy(n + (size_t)d * want, old + (size_t)d * *stride, sizeof(float) * *stride);
    *arr = old;
    steerA_array_free(w, arr);
    *arr = n;
    *stride = want;
    return STEER_OK;
}

// The columns' bytes per agent: rows (brain memory and records) or the rest
// (a tick's scratch is not counted).
static size_t column_bytes(const steer_World *w, bool rows)
{
    steerT_Array cols[STEERT_MAX_ARRAYS];
    size_t per = 0;
    for (int k = 0, n = steerT_arrays(w, cols); k < n; k++)
        if (carries(&cols[k]) && (cols[k].col->shape == STEERT_COL_ROW) == rows) per += cols[k].bytes;
    return per;
}

size_t steer_world_brain_bytes(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return (size_t)w->cap * column_bytes(w, true);
}

size_t steer_world_bytes(const steer_World *w)
{
    STEERA_WORLD(w, 0);
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

void steerT_store_free(steer_World *w)
{
    steerT_Array cols[STEERT_MAX_ARRAYS];
    for (int k = 0, n = steerT_arrays(w, cols); k < n; k++)
        steerA_array_free(w, column_at(w, cols[k].col, cols[k].axis));
    for (int i = 0; i < 3; i++) steerA_array_free(w, &w->push[i]);
    steerA_array_free(w, &w->held);
    steerA_array_free(w, &w->agent_tmp);
    void *arrays[] = { w->gen, w->dense_of, w->out_events, w->thinkers };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) steerA_free(w, arrays[i]);
    for (uint32_t i = 1; i < w->ntags; i++) steerA_free(w, w->tags[i]);
    steerA_free(w, w->tags);
    steerA_free(w, w->tag_hash);
}

// ---- tags --------------------------------------------------------------

// Tags are interned once and found by hash (steerS_fnv32, open addressing with
// linear probing, at most half full), so a lookup costs the same with ten
// tags or sixty thousand.
int steerT_tag_find(const steer_World *w, const char *tag)
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

int steerT_tag_id(steer_World *w, const char *tag)
{
    int id = steerT_tag_find(w, tag);
    if (id >= 0) return id;
    if (w->ntags > STEERT_MAX_TAGS) return STEER_EFULL; // ids 1 .. 65535 are taken
    if (w->ntags == 0) w->ntags = 1;
    if (w->ntags + 1 > w->cap_tags) {
        uint32_t cap = w->cap_tags ? w->cap_tags * 2 : 16;
        char **t = steerA_realloc(w, w->tags, sizeof(char *) * cap);
        if (!t) return STEER_ENOMEM;
        w->tags = t;
        w->cap_tags = cap;
    }
    if (2 * (w->ntags + 1) > w->cap_tag_hash) {
        uint32_t cap = w->cap_tag_hash ? w->cap_tag_hash * 2 : 64;
        uint16_t *h = steerA_realloc(w, NULL, sizeof *h * cap);
        if (!h) return STEER_ENOMEM;
        memset(h, 0, sizeof *h * cap);
        steerA_free(w, w->tag_hash);
        w->tag_hash = h;
        w->cap_tag_hash = cap;
        for (uint32_t i = 1; i < w->ntags; i++) tag_hash_put(w, (uint16_t)i);
    }
    size_t len = strlen(tag) + 1;
    char *s = steerA_realloc(w, NULL, len);
    if (!s) return STEER_ENOMEM;
    memcpy(s, tag, len);
    w->tags[w->ntags] = s;
    tag_hash_put(w, (uint16_t)w->ntags);
    return (int)w->ntags++;
}

// Move dense agent `from` into index `to` (every column that moves, as
// steerT_arrays lists them in cols[0..n)).
static void move_agent(steer_World *w, const steerT_Array *cols, int n, uint32_t to, uint32_t from)
{
    for (int k = 0; k < n; k++) {
        size_t b = cols[k].bytes;
        if (carries(&cols[k])) memcpy(cols[k].base + to * b, cols[k].base + from * b, b);
    }
    w->dense_of[w->slot[to]] = to;
}

// Drop dead agents, keeping the order of the living (so a removal never
// reorders the survivors' evaluation and replays stay simple).
void steerT_compact(steer_World *w)
{
    if (!w->dead) return;
    steerT_Array cols[STEERT_MAX_ARRAYS];
    int ncols = steerT_arrays(w, cols);
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

uint32_t *steerT_agent_tmp(steer_World *w)
{
    if (w->cap > w->cap_agent_tmp) {
        // as the agent arrays: it grows when they do
        if (!steerA_array_resize(w, &w->agent_tmp, sizeof(uint32_t) * w->cap)) return NULL;
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
    steerT_Array cols[STEERT_MAX_ARRAYS];
    uint32_t first[STEERT_MAX_ARRAYS + 1]; // the first unit of each array
    int ncols;
    uint32_t n;
} ReorderJob;

static void reorder_unit(const steer_World *w, steerW_Local *loc, uint32_t u, void *ctx)
{
    const ReorderJob *j = ctx;
    int c = 0;
    while (j->first[c + 1] <= u) c++;
    const steerT_Array *a = &j->cols[c];
    // worker 0's scratch is the world's; another's, its own (steerP_reserve)
    uint32_t *tmp = w->worker ? loc->tmp : w->agent_tmp;
    const uint32_t *items = w->grid.items;
    if (a->col->shape == STEERT_COL_ROW) {
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

void steerT_reorder(steer_World *w)
{
    uint32_t n = w->count;
    uint32_t *items = w->grid.items;
    if (!n || !steerT_agent_tmp(w)) return;
    ReorderJob j;
    j.n = n;
    j.ncols = 0;
    j.first[0] = 0;
    steerT_Array all[STEERT_MAX_ARRAYS];
    for (int c = 0, ncols = steerT_arrays(w, all); c < ncols; c++) {
        if (!carries(&all[c])) continue;
        uint32_t units = all[c].col->shape == STEERT_COL_ROW ? (uint32_t)(all[c].bytes / sizeof(float)) : 1;
        j.cols[j.ncols] = all[c];
        j.first[j.ncols + 1] = j.first[j.ncols] + units;
        j.ncols++;
    }
    // a unit is a pass over every agent: only worlds big enough to split share them out
    uint32_t units = j.first[j.ncols];
    if (steerP_items(w, n) > 1 && steerP_reserve(w, n)) {
        steerP_run(w, units, reorder_unit, &j);
    } else {
        for (uint32_t u = 0; u < units; u++) reorder_unit(w, &w->loc, u, &j);
    }
    for (uint32_t k = 0; k < n; k++) {
        w->dense_of[w->slot[k]] = k;
        items[k] = k;
    }
}

// ---- hash ----------------------------------------------------------------

uint64_t steer_world_hash(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    uint64_t h = STEERS_FNV64_BASIS;
    h = steerS_fnv64(h, &w->tick, sizeof w->tick);
    h = steerS_fnv64(h, &w->rng, sizeof w->rng);
    steerT_Array cols[STEERT_MAX_ARRAYS];
    int ncols = steerT_arrays(w, cols);
    // in handle order: the storage order changes with removals and re-sorts
    for (uint32_t s = 0; s < w->nslots; s++) {
        steer_Agent a = steerW_slot_handle(w, s);
        int64_t dd = steerW_dense(w, a);
        if (dd < 0) continue;
        uint32_t d = (uint32_t)dd;
        h = steerS_fnv64(h, &a.id, sizeof a.id);
        for (int k = 0; k < ncols; k++) {
            const steerT_Array *c = &cols[k];
            if (!c->bytes || c->col->role != STEERT_COL_STATE) continue;
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

// ---- events and the torus ----------------------------------------------

void steerT_delta(const steer_World *w, const float a[3], const float b[3], float out[3])
{
    v3_sub(out, b, a);
    if (!w->wrap) return;
    for (int i = 0; i < w->dim; i++) {
        float L = w->size[i], half = 0.5f * L;
        if (out[i] >= half) out[i] -= L;
        else if (out[i] < -half) out[i] += L;
    }
}

void steerT_event_to(steerW_Local *loc, const steer_World *w, steer_EventType type, uint32_t d, steer_Agent other)
{
    if (loc->nevents == loc->cap_events) {
        uint32_t cap = loc->cap_events ? loc->cap_events * 2 : 64;
        steer_Event *e = steerA_realloc(w, loc->events, sizeof *e * cap);
        if (!e) return; // an event lost to OOM is logged, never a crash
        loc->events = e;
        loc->cap_events = cap;
    }
    loc->events[loc->nevents++] = (steer_Event){ type, steerW_handle(w, d), other };
}
