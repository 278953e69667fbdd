// SPDX-License-Identifier: MIT
// world.c — the world: agent storage, handles, the tick and its passes.
//
// Invariants: between ticks, dense indices [0, count) hold every agent that
// has not been compacted away; agents flagged DEAD are already stale to the
// host and are dropped by compact() before the next tick reads anything.
// Agents spawned during a tick are appended past the count the tick
// captured, so they join at the next tick and are never visited twice.
#include "world.h"
#include "brain.h"
#include "rng.h"
#include "vecmath.h"

#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(void *ud, void *p, size_t size)
{
    (void)ud;
    if (size == 0) { free(p); return NULL; }
    return realloc(p, size);
}

void *steerW_realloc(steer_World *w, void *p, size_t size) { return w->alloc(w->alloc_ud, p, size); }
void steerW_free(steer_World *w, void *p) { if (p) w->alloc(w->alloc_ud, p, 0); }

void steerW_error(steer_World *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->error, sizeof w->error, fmt, ap);
    va_end(ap);
    if (w->log) w->log(w->log_ud, 2, w->error);
}

// Finite and representable in the float storage (a double above FLT_MAX
// would silently become infinity).
static bool storable(double v) { return isfinite(v) && fabs(v) <= FLT_MAX; }
static bool finite3(const double v[3]) { return storable(v[0]) && storable(v[1]) && storable(v[2]); }

// x wrapped into [lo, lo + L): one add or subtract for an ordinary step, the
// floor formula for a jump of more than a period; lo only when rounding
// lands on the upper edge (the same point) or x is not finite.
static inline float wrap_into(float x, float lo, float L)
{
    if (x < lo) x += L;
    else if (x >= lo + L) x -= L;
    if (x >= lo && x < lo + L) return x;
    x -= L * floorf((x - lo) / L);
    return x >= lo && x < lo + L ? x : lo;
}

// ---- creation ----------------------------------------------------------

int steer_world_new(const steer_WorldDesc *desc, steer_World **out)
{
    steer_WorldDesc d = desc ? *desc : (steer_WorldDesc){0};
    *out = NULL;
    if (d.dim == 0) d.dim = 2;
    if (d.dim != 2 && d.dim != 3) return STEER_EARG;
    if (d.dt == 0) d.dt = 1.0 / 60.0;
    if (!(d.dt > 0) || !isfinite(d.dt) || !((float)d.dt > 0.0f)) return STEER_EARG; // stored as a float
    for (int i = 0; i < 3; i++) {
        if (!(d.size[i] >= 0) || !isfinite(d.size[i]) || !isfinite(d.origin[i])) return STEER_EARG;
        if (d.wrap && i < d.dim && d.size[i] <= 0) return STEER_EARG;
    }
    steer_AllocFn alloc = d.alloc ? d.alloc : default_alloc;
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
    if (!(d.stuck_window >= 0) || !isfinite(d.stuck_window) || !(d.stuck_progress >= 0) || !isfinite(d.stuck_progress) ||
        d.collide_iterations < 0) {
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
    for (int k = 0, n = steerW_arrays(w, cols); k < n; k++) steerW_free(w, cols[k].base);
    for (int i = 0; i < 3; i++) steerW_free(w, w->push[i]);
    void *arrays[] = { w->gen, w->dense_of, w->scratch, w->events, w->out_events, w->thinkers, w->agent_tmp };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) steerW_free(w, arrays[i]);
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

// ---- storage growth ----------------------------------------------------

#define COLUMN(name, field, elem, shape, role, bits)                                                          \
    { name, offsetof(steer_World, field), 0, sizeof(elem), shape, role, bits }
#define ONE(name, field, role) COLUMN(name, field, *((steer_World *)0)->field, STEERW_COL_ONE, role, 0)
#define AXES(name, field, role) COLUMN(name, field, *((steer_World *)0)->field[0], STEERW_COL_AXES, role, 0)
#define ROW(name, field, stride, role)                                                                        \
    { name, offsetof(steer_World, field), offsetof(steer_World, stride), sizeof *((steer_World *)0)->field,   \
      STEERW_COL_ROW, role, 0 }

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
        if (!grow(w, column_at(w, a->col, a->axis), a->bytes, w->cap, cap)) return STEER_ENOMEM;
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
    float *n = steerW_realloc(w, NULL, sizeof(float) * want * (w->cap ? w->cap : 1));
    if (!n) return STEER_ENOMEM;
    memset(n, 0, sizeof(float) * want * (w->cap ? w->cap : 1));
    for (uint32_t d = 0; d < w->count && *stride; d++)
        memcpy(n + (size_t)d * want, *arr + (size_t)d * *stride, sizeof(float) * *stride);
    steerW_free(w, *arr);
    *arr = n;
    *stride = want;
    return STEER_OK;
}

// ---- tags --------------------------------------------------------------

// Tags are interned once and found by hash (FNV-1a, open addressing with
// linear probing, at most half full), so a lookup costs the same with ten
// tags or sixty thousand.
static uint32_t tag_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

int steerW_tag_find(const steer_World *w, const char *tag)
{
    if (!tag) return 0;
    if (!w->cap_tag_hash) return -1;
    uint32_t mask = w->cap_tag_hash - 1;
    for (uint32_t i = tag_hash(tag) & mask; w->tag_hash[i]; i = (i + 1) & mask)
        if (strcmp(w->tags[w->tag_hash[i]], tag) == 0) return w->tag_hash[i];
    return -1;
}

static void tag_hash_put(steer_World *w, uint16_t id)
{
    uint32_t mask = w->cap_tag_hash - 1, i = tag_hash(w->tags[id]) & mask;
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
// freed brains (see collect_brains) are reused.
static int brain_id(steer_World *w, steer_Behavior *b)
{
    if (!b) return 0;
    uint32_t hole = 0;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        if (!w->brains[i]) { if (!hole) hole = i; continue; }
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
        if (!a) { steerB_brain_free(w, br); return STEER_ENOMEM; }
        a[0] = NULL;
        w->brains = a;
        w->nbrains = n + 1;
    }
    if (br->faces && !w->face[0]) {
        for (int i = 0; i < w->dim; i++) {
            w->face[i] = steerW_realloc(w, NULL, sizeof(float) * (w->cap ? w->cap : 1));
            if (!w->face[i]) { steerB_brain_free(w, br); return STEER_ENOMEM; }
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
static void collect_brains(steer_World *w)
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

static void set_brain(steer_World *w, uint32_t d, int id)
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
bool steerW_param_ok(double v, bool allow_zero)
{
    return steerB_number_ok(v, allow_zero ? 0 : STEERW_PARAM_MIN, STEERW_PARAM_MAX);
}

int steer_spawn(steer_World *w, const steer_AgentDesc *desc, steer_Agent *out)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    steer_AgentDesc a = desc ? *desc : (steer_AgentDesc){0};
    if (out) *out = 0;
    if (a.mass == 0) a.mass = 1;
    if (a.max_speed == 0) a.max_speed = 1;
    if (a.max_force == 0) a.max_force = 1;
    if (a.radius == 0) a.radius = 0.5;
    if (!finite3(a.position) || !finite3(a.velocity) || !steerW_param_ok(a.mass, false) ||
        !steerW_param_ok(a.max_speed, true) || !steerW_param_ok(a.max_force, true) || !steerW_param_ok(a.radius, true))
        return STEER_EARG;
    if (w->count >= UINT32_MAX / 2) return STEER_EFULL;
    int st = reserve_agents(w, w->count + 1);
    if (st) return st;
    int tag = a.tag ? steerW_tag_id(w, a.tag) : 0;
    if (tag < 0) return tag;
    int bid = brain_id(w, a.brain);
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
    for (int i = 0; i < 3; i++) { pos[i] = (float)a.position[i]; vel[i] = (float)a.velocity[i]; }
    if (w->dim == 2) pos[2] = vel[2] = 0;
    for (int i = 0; i < w->dim && w->wrap; i++) pos[i] = wrap_into(pos[i], w->origin[i], w->size[i]);
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
    set_brain(w, d, bid);
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
    uint32_t s = (uint32_t)a;
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
static void compact(steer_World *w)
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
        uint32_t *t = steerW_realloc(w, w->agent_tmp, sizeof(uint32_t) * w->cap);
        if (!t) return NULL;
        w->agent_tmp = t;
        w->cap_agent_tmp = w->cap;
    }
    return w->agent_tmp;
}

// Put the dense arrays in grid-cell order so that an agent's neighbours
// are near it in memory. Needs a scratch block of one 32-bit word per
// agent, kept in the world (it grows with the agents, so the tick
// allocates only when they do); when that cannot be had the re-sort is
// skipped (it only costs speed).
static void reorder(steer_World *w)
{
    uint32_t n = w->count;
    uint32_t *items = w->grid.items;
    uint32_t *tmp = n ? steerW_agent_tmp(w) : NULL;
    if (!tmp) return;
    steerW_Array cols[STEERW_MAX_ARRAYS];
    for (int c = 0, ncols = steerW_arrays(w, cols); c < ncols; c++) {
        const steerW_Array *a = &cols[c];
        if (!carries(a)) continue;
        if (a->col->shape == STEERW_COL_ROW) {
            uint32_t stride = (uint32_t)(a->bytes / sizeof(float));
            for (uint32_t j = 0; j < stride; j++) permute_column((float *)(void *)a->base, stride, j, items, tmp, n);
        } else if (a->bytes == 4) {
            permute32(a->base, items, tmp, n);
        } else if (a->bytes == 2) {
            permute16(a->base, items, tmp, n);
        } else {
            permute8(a->base, items, tmp, n);
        }
    }
    for (uint32_t k = 0; k < n; k++) { w->dense_of[w->slot[k]] = k; items[k] = k; }
}

// ---- geometry helpers --------------------------------------------------

void steerW_delta(const steer_World *w, const float a[3], const float b[3], float out[3])
{
    v3_sub(out, b, a);
    if (!w->wrap) return;
    for (int i = 0; i < w->dim; i++) {
        float L = w->size[i], half = 0.5f * L;
        if (out[i] >= half) out[i] -= L;
        else if (out[i] < -half) out[i] += L;
    }
}

void steerW_event(steer_World *w, steer_EventType type, uint32_t d, steer_Agent other)
{
    if (w->nevents == w->cap_events) {
        uint32_t cap = w->cap_events ? w->cap_events * 2 : 64;
        steer_Event *e = steerW_realloc(w, w->events, sizeof *e * cap);
        if (!e) return; // an event lost to OOM is logged, never a crash
        w->events = e;
        w->cap_events = cap;
    }
    w->events[w->nevents++] = (steer_Event){ type, steerW_handle(w, d), other };
}

// ---- the tick ----------------------------------------------------------

// The brain's summary slots computed from the gathered list (the path for
// worlds too small for neighbourhood blocks).
static void summaries_from_list(steerB_Ctx *c)
{
    const steerB_Brain *b = c->brain;
    for (uint32_t i = 0; i < b->nnodes; i++) {
        const steerB_Node *n = &b->nodes[i];
        if (n->sum == STEERB_NO_SUM) continue;
        steerB_Node plain = *n;
        plain.sum = STEERB_NO_SUM;
        steerB_summary(c, &plain, sqrtf(b->sum_r2[n->sum]), 0, &c->sums[n->sum]);
    }
}

static inline void load_dim(float *const arr[3], uint32_t d, float o[3], const int dim)
{
    o[0] = arr[0][d]; o[1] = arr[1][d]; o[2] = dim == 3 ? arr[2][d] : 0.0f;
}

// Locomotion: forward Euler as the seeds give it, then the heading follows
// the velocity (see pass_locomote). The last stage, shared by both paths
// below: keep the old state rather than poison the world with a non-finite
// one, set the heading and store.
__attribute__((always_inline)) static inline void settle(steer_World *w, uint32_t d, const float v[3],
                                                         const float p[3], const float *craft_h, const int dim)
{
    if (!v3_finite(v) || !v3_finite(p)) return;
    float s2 = v3_len2(v), h[3];
    if (craft_h) {
        for (int i = 0; i < dim; i++) w->h[i][d] = craft_h[i];
    } else if (w->flags[d] & STEER_AF_FACING) {
        // an orientation behaviour chose the heading (already normalised)
        for (int i = 0; i < dim; i++) w->h[i][d] = w->face[i][d];
    } else if (s2 > STEER_EPS2) {
        float s = sqrtf(s2), settle = 0.05f * w->max_speed[d];
        float k = settle > 0.0f && s < settle ? s / settle : 1.0f;
        if (k >= 1.0f) {
            v3_scale(h, v, 1.0f / s);
        } else {
            steerW_load(w->h, d, h);
            float t[3], old[3];
            v3_copy(old, h);
            v3_scale(t, v, k / s);
            v3_scale(h, h, 1.0f - k);
            v3_add(h, h, t);
            if (v3_normalize(h) == 0.0f) v3_copy(h, old);
        }
        for (int i = 0; i < dim; i++) w->h[i][d] = h[i];
    }
    for (int i = 0; i < dim; i++) { w->v[i][d] = v[i]; w->p[i][d] = p[i]; }
}

// p += v dt, wrapped into the world.
__attribute__((always_inline)) static inline void advance(const steer_World *w, float p[3], const float v[3],
                                                          const int dim, const bool wrap)
{
    v3_madd(p, v, w->dt);
    if (wrap)
        for (int i = 0; i < dim; i++) p[i] = wrap_into(p[i], w->origin[i], w->size[i]);
}

// Point vehicles ds[0..n-1] (n <= STEERB_BATCH) in stages over the batch:
// each agent's step is a chain of square roots and divisions, and stages
// let the chains of different agents overlap instead of each waiting for
// the last.
__attribute__((always_inline)) static inline void locomote_points(steer_World *w, const uint32_t *ds, int n,
                                                                  const int dim, const bool wrap)
{
    steerB_Lanes V;
    for (int k = 0; k < n; k++) {
        uint32_t d = ds[k];
        float f[3] = { 0, 0, 0 }, v[3] = { 0, 0, 0 };
        for (int i = 0; i < dim; i++) { f[i] = w->f[i][d]; v[i] = w->v[i][d]; }
        v3_truncate(f, w->max_force[d]);
        v3_madd(v, f, w->dt / w->mass[d]);
        steerB_set_lane(V, k, v);
    }
    for (int k = 0; k < n; k++) {
        uint32_t d = ds[k];
        float v[3], p[3] = { 0, 0, 0 };
        steerB_lane(V, k, v);
        v3_truncate(v, w->max_speed[d]);
        for (int i = 0; i < dim; i++) p[i] = w->p[i][d];
        advance(w, p, v, dim, wrap);
        settle(w, d, v, p, NULL, dim);
    }
}

// A turn-limited vehicle (craft.c).
__attribute__((always_inline)) static inline void locomote_craft(steer_World *w, uint32_t d, const int dim,
                                                                 const bool wrap)
{
    float f[3] = { 0, 0, 0 }, v[3] = { 0, 0, 0 }, p[3] = { 0, 0, 0 }, h[3];
    for (int i = 0; i < dim; i++) { f[i] = w->f[i][d]; v[i] = w->v[i][d]; p[i] = w->p[i][d]; }
    steerW_craft_step(w, d, f, v, h);
    advance(w, p, v, dim, wrap);
    settle(w, d, v, p, h, dim);
}

// Up to STEERB_BATCH agents, any vehicles: worlds with craft take one
// agent at a time.
__attribute__((always_inline)) static inline void locomote_batch(steer_World *w, const uint32_t *ds, int n,
                                                                 const int dim, const bool wrap)
{
    if (__builtin_expect(!w->any_craft, 1)) {
        locomote_points(w, ds, n, dim, wrap);
        return;
    }
    for (int k = 0; k < n; k++) {
        if (steerW_is_craft(w, ds[k])) locomote_craft(w, ds[k], dim, wrap);
        else locomote_points(w, ds + k, 1, dim, wrap);
    }
}

// The agent's force, checked: a non-finite one is dropped.
__attribute__((always_inline)) static inline void store_force(steer_World *w, uint32_t d, float f[3], const int dim)
{
    if (!v3_finite(f)) v3_zero(f);
    for (int i = 0; i < dim; i++) w->f[i][d] = f[i];
}

// Evaluate the batch's brain for its agents, store their forces and, when
// the tick fuses locomotion into this pass, move them.
__attribute__((always_inline)) static inline void flush_batch(steerB_Batch *bt, bool fuse, const int dim,
                                                              const bool wrap)
{
    steer_World *w = bt->w;
    steerB_Lanes f;
    steerB_eval_batch(bt, 0, f);
    for (int k = 0; k < bt->n; k++) {
        uint32_t d = bt->d[k];
        float o[3];
        steerB_lane(f, k, o);
        store_force(w, d, o, dim);
        w->flags[d] &= (uint8_t)~STEER_AF_FACING; // batched brains never face
    }
    if (fuse) locomote_batch(w, bt->d, bt->n, dim, wrap);
    bt->n = 0;
}

// The agent's row of recorded node outputs, cleared (NULL when the world
// does not record): nodes a combiner skips this tick must not show an old output.
static inline float *clear_record(steer_World *w, uint32_t d, const steerB_Brain *b)
{
    float *rec = w->record && w->rec_stride ? w->rec + (size_t)d * w->rec_stride : NULL;
    if (rec) memset(rec, 0, sizeof(float) * 3 * b->nnodes);
    return rec;
}

// Queue the agent at grid index it (dense d) in the batch; its lane.
__attribute__((always_inline)) static inline int queue_agent(steerB_Batch *bt, const steer_World *w,
                                                             const steerB_Brain *b, uint32_t it, uint32_t d,
                                                             const int dim)
{
    const steerG_Grid *g = &w->grid;
    int k = bt->n++;
    bt->brain = b;
    bt->d[k] = d;
    // position and heading from the grid's copies (the same values,
    // already in cache for the neighbour pass)
    for (int i = 0; i < 3; i++) {
        bt->p[i][k] = i < dim ? g->sp[i][it] : 0.0f;
        bt->v[i][k] = i < dim ? w->v[i][d] : 0.0f;
        bt->h[i][k] = i < dim ? g->sh[i][it] : 0.0f;
    }
    bt->mass[k] = w->mass[d];
    bt->max_speed[k] = w->max_speed[d];
    bt->max_force[k] = w->max_force[d];
    return k;
}

// steer: evaluate every agent's brain into its force slot. Reads the state
// of tick t only and writes only the agent's own force, memory and stream,
// so the order of agents does not matter: they are visited cell by cell,
// and each agent's neighbours are gathered once (for the largest radius its
// brain needs) from its cell's candidate block.
//
// Agents whose brain runs batched (every node reads only the agent's own
// state and its summaries) are queued, STEERB_BATCH at a time, and their
// brain is evaluated node by node over the queue. When every agent's brain
// runs batched, nothing reads another agent's live state during the pass
// (neighbour summaries read the grid's copies), so `fuse` moves each agent
// as soon as its force is known and the locomote pass is skipped.
__attribute__((always_inline)) static inline int steer_cells(steer_World *w, steerB_Batch *bt, bool fuse,
                                                             const int dim, const bool wrap)
{
    steerB_Ctx c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.dt = w->dt;
    bt->w = w;
    bt->n = 0;
    bt->dt = w->dt;
    bt->brain = NULL;
    bool batching = !w->no_batch;
    int status = STEER_OK;
    const steerG_Grid *g = &w->grid;
    for (uint32_t cell = 0; cell < g->ncells; cell++) {
        int block = 2; // 2: not built yet for this cell
        for (uint32_t it = g->start[cell]; it < g->start[cell + 1]; it++) {
            uint32_t d = g->items[it];
            float zero[3] = { 0, 0, 0 };
            if (!w->brain[d]) {
                steerW_store(w->f, d, zero);
                w->flags[d] &= (uint8_t)~STEER_AF_FACING;
                if (fuse) locomote_batch(w, &d, 1, dim, wrap);
                continue;
            }
            const steerB_Brain *b = w->brains[w->brain[d]];
            if (b->sense > 0 && block == 2) block = steerG_block(w, cell);
            float *rec = clear_record(w, d, b);
            if (batching && b->batch && (b->sense <= 0 || block == 1)) {
                if (bt->n && bt->brain != b) flush_batch(bt, fuse, dim, wrap);
                // the next agent of the cell, when it has the same brain,
                // goes with this one through the neighbour pass (w->wide)
                uint32_t d2 = it + 1 < g->start[cell + 1] ? g->items[it + 1] : d;
                bool two = w->wide && b->nsums && d2 != d && w->brain[d2] == w->brain[d];
                if (two && bt->n > STEERB_BATCH - 2) flush_batch(bt, fuse, dim, wrap);
                int k = queue_agent(bt, w, b, it, d, dim);
                if (two) {
                    clear_record(w, d2, b);
                    queue_agent(bt, w, b, it + 1, d2, dim);
                    float qa[3], qb[3];
                    steerB_lane(bt->p, k, qa);
                    steerB_lane(bt->p, k + 1, qb);
                    steerG_summaries2(w, qa, it, qb, it + 1, b->nsums, b->sum_r2, b->sum_need, bt->sums[k],
                                      bt->sums[k + 1]);
                    it++;
                } else if (b->nsums) {
                    float q[3];
                    steerB_lane(bt->p, k, q);
                    steerG_summaries(w, q, it, b->nsums, b->sum_r2, b->sum_need, bt->sums[k]);
                }
                if (bt->n == STEERB_BATCH) flush_batch(bt, fuse, dim, wrap);
                continue;
            }
            c.brain = b;
            c.d = d;
            load_dim(w->p, d, c.p, dim);
            load_dim(w->v, d, c.v, dim);
            load_dim(w->h, d, c.h, dim);
            c.mass = w->mass[d];
            c.max_speed = w->max_speed[d];
            c.max_force = w->max_force[d];
            c.radius = w->radius[d];
            c.mem = steerW_mem(w, d);
            c.rec = rec;
            c.rng = &w->rng32[d];
            c.nn = 0;
            c.nb = NULL;
            if (b->sense > 0) {
                if (block == 1) {
                    // summaries in one vectorised pass; a list only if some node reads one
                    if (b->nsums) steerG_summaries(w, c.p, it, b->nsums, b->sum_r2, b->sum_need, c.sums);
                    if (b->list) c.nn = steerG_filter(w, c.p, b->sense, d);
                } else {
                    // a torus too small for a ring of distinct cells: list, then summaries from it
                    c.nn = block == 0 ? steerG_gather(w, c.p, b->sense, d) : -1;
                    if (c.nn < 0) { status = STEER_ENOMEM; c.nn = 0; }
                    c.nb = w->scratch;
                    summaries_from_list(&c);
                }
                c.nb = w->scratch;
            }
            c.facing = false;
            float f[3];
            steerB_eval(&c, 0, f);
            store_force(w, d, f, dim);
            // the facing flag is this agent's own state: set or cleared every tick
            w->flags[d] &= (uint8_t)~STEER_AF_FACING;
            if (c.facing && w->face[0] && v3_finite(c.face) && v3_normalize(c.face) > 0.0f) {
                for (int i = 0; i < dim; i++) w->face[i][d] = c.face[i];
                w->flags[d] |= STEER_AF_FACING;
            }
            if (fuse) locomote_batch(w, &d, 1, dim, wrap);
        }
    }
    if (bt->n) flush_batch(bt, fuse, dim, wrap);
    return status;
}

// Whether this tick may move each agent right after its force (see
// steer_cells): every brain in use runs batched, and the grid gives every
// cell a block (so no agent falls back to reading live positions).
static bool can_fuse(const steer_World *w)
{
    if (w->no_batch || !steerG_blocks_ok(w)) return false;
    for (uint32_t i = 1; i < w->nbrains; i++)
        if (w->brains[i] && w->brains[i]->users && !w->brains[i]->batch) return false;
    return true;
}

static int pass_steer(steer_World *w, bool fuse)
{
    steerB_Batch bt;
    if (w->dim == 2) return w->wrap ? steer_cells(w, &bt, fuse, 2, true) : steer_cells(w, &bt, fuse, 2, false);
    return w->wrap ? steer_cells(w, &bt, fuse, 3, true) : steer_cells(w, &bt, fuse, 3, false);
}

// The loop body, inlined with the dimension and wrap as constants.
__attribute__((always_inline)) static inline void locomote(steer_World *w, uint32_t n, const int dim, const bool wrap)
{
    uint32_t ds[STEERB_BATCH];
    for (uint32_t d0 = 0; d0 < n; d0 += STEERB_BATCH) {
        int m = n - d0 < STEERB_BATCH ? (int)(n - d0) : STEERB_BATCH;
        for (int k = 0; k < m; k++) ds[k] = d0 + (uint32_t)k;
        locomote_batch(w, ds, m, dim, wrap);
    }
}

// locomote: forward Euler as the seeds give it, then the heading follows
// the velocity, blended by speed so that it holds still at rest instead of
// flipping with the sign of a tiny velocity.
static void pass_locomote(steer_World *w, uint32_t n)
{
    if (w->dim == 2) {
        if (w->wrap) locomote(w, n, 2, true);
        else locomote(w, n, 2, false);
    } else {
        if (w->wrap) locomote(w, n, 3, true);
        else locomote(w, n, 3, false);
    }
}

// ---- the constraint and watch passes ----------------------------------------

// Push the agent at p (radius r) out of every shape it overlaps; returns
// the deepest penetration found (0 when none).
static float push_out_of_shapes(steer_World *w, float p[3], float v[3], float r)
{
    float lo[3], hi[3], deepest = 0.0f;
    for (int i = 0; i < 3; i++) { lo[i] = p[i] - r; hi[i] = p[i] + r; }
    int n = steerW_shapes_near(w, lo, hi);
    for (int k = 0; k < n; k++) {
        const steerW_Shape *s = &w->geo.shapes[w->geo.found[k]];
        float c[3], nrm[3], d[3];
        steerW_closest(w, s, p, c, nrm);
        v3_sub(d, p, c);
        float depth = r - v3_dot(d, nrm);
        if (depth <= 0.0f) continue;
        v3_madd(p, nrm, depth);
        float into = v3_dot(v, nrm);
        if (into < 0.0f) v3_madd(v, nrm, -into); // no velocity into the surface
        if (depth > deepest) deepest = depth;
    }
    return deepest;
}

// Note a contact; a "collide" event marks the start of one (the agent was
// not touching anything at the end of the last tick), once per tick.
static void touch(steer_World *w, uint32_t d, steer_Agent other)
{
    uint8_t f = w->flags[d];
    if (!(f & (STEER_AF_TOUCHING | STEER_AF_TOUCHED))) steerW_event(w, STEER_EVENT_COLLIDE, d, other);
    w->flags[d] = f | STEER_AF_TOUCHED;
}

// collide: the hard non-penetration constraint, after locomotion. Agent
// overlaps are relaxed in Jacobi passes (corrections from one snapshot,
// applied together, so the result does not depend on agent order); shapes
// are applied last and always win.
static int pass_collide(steer_World *w, uint32_t n)
{
    int dim = w->dim;
    if (!w->push[0]) {
        for (int i = 0; i < dim; i++) {
            w->push[i] = steerW_realloc(w, NULL, sizeof(float) * (w->cap ? w->cap : 1));
            if (!w->push[i]) return STEER_ENOMEM;
        }
        w->push_cap = w->cap;
    } else if (w->push_cap < w->cap) {
        for (int i = 0; i < dim; i++) {
            float *a = steerW_realloc(w, w->push[i], sizeof(float) * w->cap);
            if (!a) return STEER_ENOMEM;
            w->push[i] = a;
        }
        w->push_cap = w->cap;
    }
    float maxr = 0.0f;
    for (uint32_t d = 0; d < n; d++)
        if (w->radius[d] > maxr) maxr = w->radius[d];
    for (int it = 0; it < w->collide_iterations && maxr > 0.0f; it++) {
        int st = steerG_build(w, 2.0f * maxr);
        if (st) return st;
        for (int i = 0; i < dim; i++) memset(w->push[i], 0, sizeof(float) * n);
        bool any = false;
        for (uint32_t d = 0; d < n; d++) {
            float p[3];
            steerW_load(w->p, d, p);
            int k = steerG_gather(w, p, w->radius[d] + maxr, d);
            if (k < 0) return STEER_ENOMEM;
            float deepest = 0.0f;
            steer_Agent other = 0;
            for (int j = 0; j < k; j++) {
                const steerB_Neighbor *nb = &w->scratch[j];
                float reach = w->radius[d] + w->radius[nb->d];
                if (!(nb->d2 < reach * reach)) continue;
                float dist = sqrtf(nb->d2), dir[3];
                if (dist > 0.0f) {
                    v3_scale(dir, nb->off, 1.0f / dist);
                } else {
                    // on top of each other: split along x by handle order, deterministically
                    v3_set(dir, w->slot[d] < w->slot[nb->d] ? 1.0f : -1.0f, 0.0f, 0.0f);
                }
                float overlap = reach - dist;
                for (int i = 0; i < dim; i++) w->push[i][d] -= dir[i] * 0.5f * overlap;
                if (overlap > deepest) { deepest = overlap; other = steerW_handle(w, nb->d); }
            }
            if (deepest > 0.0f) {
                any = true;
                touch(w, d, other);
            }
        }
        if (!any) break;
        // radii are at most STEERW_PARAM_MAX, so pushes are finite; an agent
        // near the float limit that a push would carry past it stays put
        for (uint32_t d = 0; d < n; d++) {
            float p[3];
            steerW_load(w->p, d, p);
            for (int i = 0; i < dim; i++) p[i] += w->push[i][d];
            if (v3_finite(p)) steerW_store(w->p, d, p);
        }
    }
    // shapes last: they always win
    if (w->geo.live) {
        for (uint32_t d = 0; d < n; d++) {
            float p[3], v[3];
            steerW_load(w->p, d, p);
            steerW_load(w->v, d, v);
            float deepest = push_out_of_shapes(w, p, v, w->radius[d]);
            if (deepest > 0.0f) {
                push_out_of_shapes(w, p, v, w->radius[d]); // a corner: a second push
                touch(w, d, 0);
                if (v3_finite(p) && v3_finite(v)) {
                    steerW_store(w->p, d, p);
                    steerW_store(w->v, d, v);
                }
            }
        }
    }
    // contact state for the next tick: touching now, or not
    for (uint32_t d = 0; d < n; d++) {
        uint8_t f = w->flags[d] & (uint8_t)~(STEER_AF_TOUCHING | STEER_AF_TOUCHED);
        if (w->flags[d] & STEER_AF_TOUCHED) f |= STEER_AF_TOUCHING;
        w->flags[d] = f;
    }
    if (w->wrap)
        for (uint32_t d = 0; d < n; d++)
            for (int i = 0; i < dim; i++) w->p[i][d] = wrap_into(w->p[i][d], w->origin[i], w->size[i]);
    return STEER_OK;
}

// stuck: watch each agent's progress over the stuck window (the world's
// floats at the start of its memory row: anchor position, distance to its
// goal then, time, effort).
static void pass_stuck(steer_World *w, uint32_t n)
{
    int dim = w->dim;
    float dt = w->dt;
    for (uint32_t d = 0; d < n; d++) {
        if (!w->brain[d]) continue;
        float *row = w->mem + (size_t)d * w->mem_stride;
        float p[3], f[3];
        steerW_load(w->p, d, p);
        steerW_load(w->f, d, f);
        float fl = v3_len(f), mf = w->max_force[d];
        row[dim + 1] += dt;
        row[dim + 2] += (mf > 0.0f ? (fl < mf ? fl : mf) / mf : 0.0f) * dt;
        if (row[dim + 1] < w->stuck_window) continue;
        // the goal: the agent's own target slot, when it has one
        float goal = -1.0f, off[3];
        uint8_t fls = w->flags[d];
        if (fls & STEER_AF_TARGET_POINT) {
            float t[3];
            steerW_target_point(w, d, t);
            steerW_delta(w, p, t, off);
            goal = v3_len(off);
        } else if (fls & STEER_AF_TARGET_AGENT) {
            int64_t td = steerW_dense(w, steerW_target_agent(w, d));
            if (td >= 0) {
                float t[3];
                steerW_load(w->p, (uint32_t)td, t);
                steerW_delta(w, p, t, off);
                goal = v3_len(off);
            }
        }
        float progress;
        if (goal >= 0.0f && row[dim] >= 0.0f) {
            progress = row[dim] - goal;
        } else {
            float a[3] = { row[0], row[1], dim == 3 ? row[2] : 0.0f };
            steerW_delta(w, a, p, off);
            progress = v3_len(off);
        }
        float effort = row[dim + 2] / row[dim + 1];
        if (effort > 0.25f && progress < w->stuck_progress) steerW_event(w, STEER_EVENT_STUCK, d, 0);
        for (int i = 0; i < dim; i++) row[i] = p[i];
        row[dim] = goal;
        row[dim + 1] = 0.0f;
        row[dim + 2] = 0.0f;
    }
}

// think: after the passes, outside the tick proper, so a host callback may
// spawn (the agent joins the next tick), remove (it goes stale at once and
// is compacted away before the next tick) and query the world.
static int pass_think(steer_World *w)
{
    if (!w->nthinkers || !w->hooks.think) return STEER_OK;
    int st = STEER_OK;
    uint32_t n = w->nthinkers; // thinkers added by a callback start next tick
    for (uint32_t i = 0; i < n; i++) {
        struct steerW_Thinker *t = &w->thinkers[i];
        if (t->ref == 0 || steerW_dense(w, t->agent) < 0) continue;
        t->elapsed += w->dt;
        t->since += w->dt;
        if (t->elapsed < t->period) continue;
        double since = t->since;
        t->since = 0;
        t->elapsed -= t->period;
        if (t->elapsed >= t->period) t->elapsed = 0; // never queue a backlog of thinks
        if (w->hooks.think(w->hooks.ud, t->ref, w, t->agent, since) != 0) st = STEER_ECALLBACK;
        t = NULL; // the callback may have grown the array
    }
    // forget thinkers whose agent is gone or who stopped thinking
    uint32_t o = 0;
    for (uint32_t i = 0; i < w->nthinkers; i++)
        if (w->thinkers[i].ref != 0 && steerW_dense(w, w->thinkers[i].agent) >= 0) w->thinkers[o++] = w->thinkers[i];
    w->nthinkers = o;
    return st;
}

// Events by the agent's handle slot, then type, then the other agent: a
// total order on distinct events (equal ones are interchangeable).
static int cmp_event(const void *a, const void *b)
{
    const steer_Event *x = a, *y = b;
    uint32_t sx = (uint32_t)x->agent, sy = (uint32_t)y->agent;
    if (sx != sy) return sx < sy ? -1 : 1;
    if (x->type != y->type) return x->type < y->type ? -1 : 1;
    return x->other < y->other ? -1 : x->other > y->other;
}

static int tick(steer_World *w)
{
    // between ticks: drop removed agents so nothing reads them, and the brains nobody uses
    compact(w);
    collect_brains(w);
    uint32_t n = w->count;
    w->in_tick = true;
    // grid: rebuild the spatial index, cell = the largest sensing radius
    // (and the shape grid, if the geometry changed since the last tick)
    int st = steerG_build(w, w->sense_radius);
    if (st == STEER_OK) st = steerW_geometry_ready(w);
    if (st == STEER_OK && w->reorder_period > 0 && w->tick % (uint64_t)w->reorder_period == 0) reorder(w);
    // neighbours + steer: each agent gathers its neighbours once, then its brain runs
    bool fuse = st == STEER_OK && can_fuse(w);
    if (st == STEER_OK) st = pass_steer(w, fuse);
    // locomote: integrate forces into velocities and positions (done already when fused)
    if (!fuse) pass_locomote(w, n);
    // collide: push agents out of shapes and apart (worlds that ask for it)
    if (w->collide && st == STEER_OK) st = pass_collide(w, n);
    // stuck: the progress watch (worlds that ask for it)
    if (w->mem_base) pass_stuck(w, n);
    w->tick++;
    w->in_tick = false;
    w->grid_fresh = false;
    // think: host callbacks of the agents whose timers elapsed
    int ts = pass_think(w);
    if (st == STEER_OK) st = ts;
    // events: hand the tick's events to the host after the tick
    if (w->nevents) {
        uint32_t need = w->nout_events + w->nevents;
        if (need > w->cap_out_events) {
            steer_Event *e = steerW_realloc(w, w->out_events, sizeof *e * need);
            if (e) { w->out_events = e; w->cap_out_events = need; }
        }
        if (need <= w->cap_out_events) {
            // in handle order: the passes emit in storage order, which must
            // not decide what the host's handlers see first
            memcpy(w->out_events + w->nout_events, w->events, sizeof *w->events * w->nevents);
            qsort(w->out_events + w->nout_events, w->nevents, sizeof *w->events, cmp_event);
            w->nout_events = need;
        }
        w->nevents = 0;
    }
    return st;
}

int steer_world_step(steer_World *w, int ticks)
{
    if (ticks < 0) return STEER_EARG;
    if (w->in_tick) return STEER_EBUSY;
    w->nout_events = 0;
    w->error[0] = 0;
    int st = STEER_OK;
    for (int i = 0; i < ticks; i++) {
        int r = tick(w);
        if (r != STEER_OK && st == STEER_OK) st = r;
    }
    if (st == STEER_OK && w->error[0]) st = STEER_ECALLBACK;
    return st;
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
        steerW_free(w, w->rec);
        w->rec = NULL;
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
    for (int i = 0; i < 3; i++) { origin[i] = w->origin[i]; size[i] = w->size[i]; }
    *wrap = w->wrap;
}

const steer_Event *steer_world_events(const steer_World *w, int *count)
{
    *count = (int)w->nout_events;
    return w->out_events;
}

steer_Agent steer_world_agent_at(const steer_World *w, int i)
{
    // skip dead agents that still await compaction
    if (i < 0) return 0;
    uint32_t k = 0;
    if (!w->dead) return (uint32_t)i < w->count ? steerW_handle(w, (uint32_t)i) : 0;
    for (uint32_t d = 0; d < w->count; d++) {
        if (w->flags[d] & STEER_AF_DEAD) continue;
        if (k++ == (uint32_t)i) return steerW_handle(w, d);
    }
    return 0;
}

int steer_world_agents(const steer_World *w, steer_Agent *out, int cap)
{
    int k = 0;
    for (uint32_t d = 0; d < w->count; d++) {
        if (w->flags[d] & STEER_AF_DEAD) continue;
        if (k < cap) out[k] = steerW_handle(w, d);
        k++;
    }
    return k;
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
    b += (size_t)w->cap_slots * 2 * sizeof(uint32_t);          // generation, dense index
    b += (size_t)w->grid.cap_items * (sizeof(uint32_t) + (w->grid.sh[0] ? 2u : 1u) * (size_t)w->dim * sizeof(float));
    b += (size_t)w->grid.cap_cells * sizeof(uint32_t);
    b += (size_t)w->cap_scratch * sizeof(steerB_Neighbor);
    b += (size_t)(w->cap_events + w->cap_out_events) * sizeof(steer_Event);
    b += (size_t)w->cap_thinkers * sizeof *w->thinkers;
    b += w->cap_agent_tmp * sizeof(uint32_t);
    b += (size_t)w->cap_turn * sizeof *w->turn;
    return b;
}

// Nearest-first ordering of gathered neighbours (stable on ties by index
// so results do not depend on the sort's whims).
static int cmp_nb(const void *a, const void *b)
{
    const steerB_Neighbor *x = a, *y = b;
    if (x->d2 != y->d2) return x->d2 < y->d2 ? -1 : 1;
    return x->d < y->d ? -1 : x->d > y->d;
}

int steer_world_neighbors(steer_World *w, const double pos[3], double radius, const char *tag, bool sorted,
                          steer_Agent *out, int cap)
{
    if (!finite3(pos) || !(radius >= 0) || !isfinite(radius)) return STEER_EARG;
    int tid = steerW_tag_find(w, tag);
    if (tid < 0) return 0;
    if (w->in_tick) return STEER_EBUSY;
    // the tick's grid holds positions from before locomotion, and the host
    // may have spawned or moved agents since: rebuild once, then reuse
    if (!w->grid_fresh) {
        compact(w);
        if (steerG_build(w, w->sense_radius) != STEER_OK) return STEER_ENOMEM;
        w->grid_fresh = true;
    }
    float p[3] = { (float)pos[0], (float)pos[1], w->dim == 3 ? (float)pos[2] : 0.0f };
    int k = steerG_gather(w, p, (float)radius, UINT32_MAX);
    if (k < 0) return STEER_ENOMEM;
    int m = 0;
    for (int i = 0; i < k; i++)
        if (!tag || w->tag[w->scratch[i].d] == tid) w->scratch[m++] = w->scratch[i];
    if (sorted && m > 1) qsort(w->scratch, (size_t)m, sizeof *w->scratch, cmp_nb); // no scratch yet in an empty world
    for (int i = 0; i < m && i < cap; i++) out[i] = steerW_handle(w, w->scratch[i].d);
    return m;
}

// ---- hash ----------------------------------------------------------------

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) { h ^= c[i]; h *= 0x100000001B3ull; }
    return h;
}

uint64_t steer_world_hash(const steer_World *w)
{
    uint64_t h = 0xCBF29CE484222325ull;
    h = fnv(h, &w->tick, sizeof w->tick);
    h = fnv(h, &w->rng, sizeof w->rng);
    steerW_Array cols[STEERW_MAX_ARRAYS];
    int ncols = steerW_arrays(w, cols);
    // in handle order: the storage order changes with removals and re-sorts
    for (uint32_t s = 0; s < w->nslots; s++) {
        steer_Agent a = ((uint64_t)w->gen[s] << 32) | s;
        int64_t dd = steerW_dense(w, a);
        if (dd < 0) continue;
        uint32_t d = (uint32_t)dd;
        h = fnv(h, &a, sizeof a);
        for (int k = 0; k < ncols; k++) {
            const steerW_Array *c = &cols[k];
            if (!c->bytes || c->col->role != STEERW_COL_STATE) continue;
            const char *e = c->base + d * c->bytes;
            if (c->col->state_bits) {
                uint8_t kept = (uint8_t)(*e & c->col->state_bits);
                h = fnv(h, &kept, 1);
            } else {
                h = fnv(h, e, c->bytes);
            }
        }
        const steerW_Turn *turn = w->turn ? steerW_turn(w, d) : NULL; // craft.c
        if (turn) { h = fnv(h, &turn->craft, 1); h = fnv(h, &turn->min_speed, 12); h = fnv(h, turn->up, 12); }
    }
    // the static geometry and the think timers (not the host's function refs)
    for (uint32_t i = 0; i < w->geo.nshapes; i++) {
        const steerW_Shape *s = &w->geo.shapes[i];
        if (!s->alive) continue;
        h = fnv(h, &i, sizeof i); h = fnv(h, &s->gen, sizeof s->gen); h = fnv(h, &s->kind, 1);
        h = fnv(h, s->a, sizeof s->a); h = fnv(h, s->b, sizeof s->b); h = fnv(h, &s->r, sizeof s->r);
    }
    for (uint32_t i = 0; i < w->nthinkers; i++) {
        const struct steerW_Thinker *t = &w->thinkers[i];
        if (!t->ref) continue;
        h = fnv(h, &t->agent, sizeof t->agent); h = fnv(h, &t->period, 4); h = fnv(h, &t->elapsed, 4);
        h = fnv(h, &t->since, sizeof t->since); h = fnv(h, &t->hz, sizeof t->hz);
    }
    return h;
}

// ---- agent properties --------------------------------------------------

static float *const *prop_arrays(const steer_World *w, steer_Prop p)
{
    switch (p) {
    case STEER_PROP_POSITION: return w->p;
    case STEER_PROP_VELOCITY: return w->v;
    case STEER_PROP_HEADING: return w->h;
    case STEER_PROP_FORCE: return w->f;
    case STEER_PROP_UP: return NULL;
    }
    return NULL;
}

// The world's up (+z) made perpendicular to forward h; when h is vertical,
// the up that keeps the frame right-handed with side +y.
void steerW_derived_up(const float h[3], float up[3])
{
    float z[3] = { 0.0f, 0.0f, 1.0f };
    if (v3_perp_to(up, z, h) > 1e-3f) return;
    float y[3] = { 0.0f, 1.0f, 0.0f }; // h is +-z: up = y x h
    v3_cross(up, y, h);
    if (v3_normalize(up) == 0.0f) v3_set(up, 1.0f, 0.0f, 0.0f);
}

int steer_agent_vec(const steer_World *w, steer_Agent a, steer_Prop p, double out[3])
{
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    float v[3];
    if (p == STEER_PROP_UP) {
        steerW_up(w, (uint32_t)d, v);
        for (int i = 0; i < 3; i++) out[i] = v[i];
        return STEER_OK;
    }
    float *const *arr = prop_arrays(w, p);
    if (!arr) return STEER_EARG;
    steerW_load(arr, (uint32_t)d, v);
    for (int i = 0; i < 3; i++) out[i] = v[i];
    return STEER_OK;
}

int steer_agent_set_vec(steer_World *w, steer_Agent a, steer_Prop p, const double in[3])
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    if (!finite3(in) || p == STEER_PROP_FORCE || p == STEER_PROP_UP) return STEER_EARG;
    float v[3] = { (float)in[0], (float)in[1], w->dim == 3 ? (float)in[2] : 0.0f };
    if (p == STEER_PROP_HEADING && v3_normalize(v) == 0.0f) return STEER_EARG;
    if (p == STEER_PROP_POSITION && w->wrap)
        for (int i = 0; i < w->dim; i++) v[i] = wrap_into(v[i], w->origin[i], w->size[i]);
    steerW_store(prop_arrays(w, p), (uint32_t)d, v);
    if (p == STEER_PROP_POSITION) w->grid_fresh = false;
    if (p == STEER_PROP_VELOCITY) {
        float h[3] = { v[0], v[1], v[2] };
        if (v3_normalize(h) > 0.0f) steerW_store(w->h, (uint32_t)d, h);
    }
    return STEER_OK;
}

static float *param_array(const steer_World *w, steer_Param p)
{
    switch (p) {
    case STEER_PARAM_MASS: return w->mass;
    case STEER_PARAM_MAX_SPEED: return w->max_speed;
    case STEER_PARAM_MAX_FORCE: return w->max_force;
    case STEER_PARAM_RADIUS: return w->radius;
    }
    return NULL;
}

int steer_agent_param(const steer_World *w, steer_Agent a, steer_Param p, double *out)
{
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    float *arr = param_array(w, p);
    if (!arr) return STEER_EARG;
    *out = arr[d];
    return STEER_OK;
}

int steer_agent_set_param(steer_World *w, steer_Agent a, steer_Param p, double v)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    float *arr = param_array(w, p);
    if (!arr || !steerW_param_ok(v, p != STEER_PARAM_MASS)) return STEER_EARG;
    arr[d] = (float)v;
    return STEER_OK;
}

int steer_agent_tag(const steer_World *w, steer_Agent a, const char **out)
{
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    *out = w->tag[d] ? w->tags[w->tag[d]] : NULL;
    return STEER_OK;
}

int steer_agent_set_tag(steer_World *w, steer_Agent a, const char *tag)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    int id = tag ? steerW_tag_id(w, tag) : 0;
    if (id < 0) return id;
    w->tag[d] = (uint16_t)id;
    return STEER_OK;
}

int steer_agent_brain(const steer_World *w, steer_Agent a, steer_Behavior **out)
{
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    *out = w->brain[d] ? w->brains[w->brain[d]]->root : NULL;
    return STEER_OK;
}

int steer_agent_set_brain(steer_World *w, steer_Agent a, steer_Behavior *brain)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    int id = brain_id(w, brain);
    if (id < 0) return id;
    set_brain(w, (uint32_t)d, id);
    return STEER_OK;
}

int steer_agent_set_target(steer_World *w, steer_Agent a, const double *point, steer_Agent other)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    uint8_t fl = w->flags[d] & (uint8_t)~(STEER_AF_TARGET_POINT | STEER_AF_TARGET_AGENT);
    float v[3] = { 0, 0, 0 };
    if (point) {
        if (!finite3(point)) return STEER_EARG;
        v3_set(v, (float)point[0], (float)point[1], w->dim == 3 ? (float)point[2] : 0.0f);
        steerW_set_target_point(w, (uint32_t)d, v);
        fl |= STEER_AF_TARGET_POINT;
    } else if (other) {
        if (steerW_dense(w, other) < 0) return STEER_ESTALE;
        steerW_set_target_agent(w, (uint32_t)d, other);
        fl |= STEER_AF_TARGET_AGENT;
    } else {
        steerW_set_target_point(w, (uint32_t)d, v);
    }
    w->flags[d] = fl;
    return STEER_OK;
}

int steer_agent_target(const steer_World *w, steer_Agent a, double point[3], steer_Agent *other, int *kind)
{
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    uint8_t fl = w->flags[d];
    for (int i = 0; i < 3; i++) point[i] = 0;
    *other = 0;
    *kind = STEER_TARGET_SLOT;
    if (fl & STEER_AF_TARGET_POINT) {
        float v[3];
        steerW_target_point(w, (uint32_t)d, v);
        for (int i = 0; i < 3; i++) point[i] = v[i];
        *kind = STEER_TARGET_POINT;
    } else if (fl & STEER_AF_TARGET_AGENT) {
        // a removed target agent reads as no target, before the next tick notices
        steer_Agent t = steerW_target_agent(w, (uint32_t)d);
        if (steerW_dense(w, t) >= 0) {
            *other = t;
            *kind = STEER_TARGET_AGENT;
        }
    }
    return STEER_OK;
}

int steer_agent_set_think(steer_World *w, steer_Agent a, int ref, double hz)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    if (steerW_dense(w, a) < 0) return STEER_ESTALE;
    // the period is a float: it must not become infinite (nor the rate)
    if (!isfinite(hz) || hz < 0 || (hz > 0 && !(isfinite((float)(1.0 / hz)) && isfinite((float)hz)))) return STEER_EARG;
    struct steerW_Thinker *t = NULL;
    for (uint32_t i = 0; i < w->nthinkers; i++)
        if (w->thinkers[i].agent == a) { t = &w->thinkers[i]; break; }
    if (ref == 0 || hz == 0) {
        if (t) t->ref = 0;
        return STEER_OK;
    }
    if (!t) {
        if (w->nthinkers == w->cap_thinkers) {
            uint32_t cap = w->cap_thinkers ? w->cap_thinkers * 2 : 16;
            struct steerW_Thinker *n = steerW_realloc(w, w->thinkers, sizeof *n * cap);
            if (!n) return STEER_ENOMEM;
            w->thinkers = n;
            w->cap_thinkers = cap;
        }
        t = &w->thinkers[w->nthinkers++];
        t->agent = a;
        // a random phase spreads many thinkers over the ticks of one period;
        // the first think still reports the time since it was set up
        t->elapsed = (float)(steer_rng64_unit(&w->rng) / hz);
        t->since = 0;
    }
    t->ref = ref;
    t->hz = hz;
    t->period = (float)(1.0 / hz);
    return STEER_OK;
}

int steer_agent_think(const steer_World *w, steer_Agent a, int *ref, double *hz)
{
    if (steerW_dense(w, a) < 0) return STEER_ESTALE;
    *ref = 0;
    *hz = 0;
    for (uint32_t i = 0; i < w->nthinkers; i++)
        if (w->thinkers[i].agent == a && w->thinkers[i].ref) {
            *ref = w->thinkers[i].ref;
            *hz = w->thinkers[i].hz;
        }
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

int steer_agent_set_rng(steer_World *w, steer_Agent a, uint32_t state)
{
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    w->rng32[d] = state ? state : 0x9E3779B9u;
    // memory seeded from the old stream (a wander angle) is drawn again
    if (w->brain[d]) {
        if (w->mem_stride > w->mem_base) memset(steerW_mem(w, (uint32_t)d), 0, sizeof(float) * (w->mem_stride - w->mem_base));
        steerB_init_agent(w, (uint32_t)d);
    }
    return STEER_OK;
}

int steer_agent_contributions(const steer_World *w, steer_Agent a,
                              void (*fn)(void *ud, const char *name, const double f[3]), void *ud)
{
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    if (!w->brain[d] || !w->rec_stride) return STEER_OK;
    const steerB_Brain *b = w->brains[w->brain[d]];
    const float *r = w->rec + (size_t)d * w->rec_stride;
    for (uint32_t i = 0; i < b->nnodes; i++) {
        double f[3] = { r[3 * i], r[3 * i + 1], r[3 * i + 2] };
        // a node's output that is not finite never moved the agent (the
        // steer pass drops such a force): show 0, not inf or NaN
        if (!v3_finite(r + 3 * i)) f[0] = f[1] = f[2] = 0.0;
        fn(ud, b->nodes[i].name, f);
    }
    return STEER_OK;
}
