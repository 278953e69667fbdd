// SPDX-License-Identifier: MIT
// snapshot.c — a world in bytes and back (steer_world_save, steer_world_load).
//
// The format (docs/architecture.md, "Snapshots"): a header (magic, version,
// dim, the total length, the counts of the sections), then the world's
// options and state, the tags, the behaviour trees, the brains and the
// extra roots (snapshot_trees.c), the think timers, the shapes, the handle
// table, the turn records, the per-agent columns as the column table lists
// them, and a checksum of every byte after the magic (after the version
// before version 3). Little-endian
// throughout (bytes.h); no pointer is written. Each section's writer is
// beside its reader.
//
// Invariants: a load reads nothing it has not bounds-checked and accepts
// nothing a setter of the public API would refuse; it builds a private
// world and hands it out only when every check passed, so a bad input
// leaves nothing allocated. A loaded world holds what the saved one held
// in the same order (dense storage, free lists, brain ids), so its ticks
// are the saved world's, bit for bit.
#include "snapshot.h"
#include "brain.h"

#include <string.h>

#define MAGIC "STEERSNP"
#define VERSION \
    5u // version 4 had no attached resources, 3 no path budget, 2 no resource fields, 1 no extra
       // roots either; all still load
#define HEADER_BYTES 60u
#define TRAILER_BYTES 8u

enum { W_WRAP = 1, W_RECORD = 2, W_COLLIDE = 4, W_ANY_CRAFT = 8, W_ALL = 15 };

// ---- the header ----------------------------------------------------------

// The magic, the version, dim, the total length, the agents in storage and
// the sections' counts.
static void save_header(steerS_Writer *o, const steerS_Save *s, uint64_t total)
{
    steerS_put(o, MAGIC, 8);
    steerS_put_u32(o, VERSION);
    steerS_put_u32(o, (uint32_t)s->w->dim);
    steerS_put_u64(o, total);
    steerS_put_u32(o, s->w->count);
    for (int i = 0; i < STEERS_SNAP_SECTIONS; i++) steerS_put_u32(o, s->count[i]);
}

// The header, and before anything else the length and the checksum; the
// trailer is cut off the bytes left to read.
static bool load_header(steerS_Load *in, uint32_t *dim, uint32_t *agents)
{
    steerS_Reader *r = &in->r;
    const unsigned char *p = r->p;
    r->section = "the header";
    if (r->n < 12 || memcmp(p, MAGIC, 8) != 0) return steerS_fail(r, "not a steer snapshot (no STEERSNP magic)");
    r->at = 8;
    uint32_t version = in->version = steerS_get_u32(r);
    if (version < 1 || version > VERSION)
        return steerS_fail(r, "snapshot version %u; this build reads versions 1 to %u", version, VERSION);
    if (r->n < HEADER_BYTES + TRAILER_BYTES) return steerS_fail(r, "snapshot truncated in the header");
    *dim = steerS_get_u32(r);
    uint64_t total = steerS_get_u64(r);
    *agents = steerS_get_u32(r);
    for (int i = 0; i < STEERS_SNAP_SECTIONS; i++) in->count[i] = steerS_get_u32(r);
    if (total != r->n)
        return steerS_fail(r, "snapshot truncated: %zu bytes of the %llu it had", r->n, (unsigned long long)total);
    // from version 3 on the checksum covers the version too: a flipped one
    // is caught, also one that names an older version (checked without it)
    size_t from = version >= 3 ? 8 : 12;
    if (steerS_checksum(p + from, r->n - from - TRAILER_BYTES) != steerS_load_le(p + r->n - TRAILER_BYTES, 8))
        return steerS_fail(r, "checksum mismatch (the snapshot is corrupted)");
    r->n -= TRAILER_BYTES;
    if (*dim != 2 && *dim != 3) return steerS_fail(r, "the snapshot's world has %u dimensions", *dim);
    uint32_t nslots = in->count[STEERS_SNAP_HANDLES];
    if (*agents > nslots || nslots > UINT32_MAX / 2)
        return steerS_fail(r, "%u agents in %u handle slots is out of range", *agents, nslots);
    return true;
}

// ---- the world's options and state ---------------------------------------

// Flags (wrap, record, collide, some craft), dt, origin, size, seed, tick,
// the world's stream, reorder period, stuck window and progress, collide
// iterations, the memory row's stride, (version 4) the path budget.
static void save_world(steerS_Save *s)
{
    const steer_World *w = s->w;
    steerS_Writer *o = &s->out;
    uint8_t fl = (w->wrap ? W_WRAP : 0) | (w->record ? W_RECORD : 0) | (w->collide ? W_COLLIDE : 0) |
                 (w->any_craft ? W_ANY_CRAFT : 0);
    steerS_put_u8(o, fl);
    steerS_put_f32(o, w->dt);
    for (int i = 0; i < 3; i++) steerS_put_f32(o, w->origin[i]);
    for (int i = 0; i < 3; i++) steerS_put_f32(o, w->size[i]);
    steerS_put_u64(o, w->seed);
    steerS_put_u64(o, w->tick);
    steerS_put_u64(o, w->rng);
    steerS_put_u32(o, (uint32_t)w->reorder_period);
    steerS_put_f32(o, w->stuck_window);
    steerS_put_f32(o, w->stuck_progress);
    steerS_put_u32(o, (uint32_t)w->collide_iterations);
    steerS_put_u32(o, w->mem_stride);
    steerS_put_u32(o, w->path_budget);
}

// The world's options and state, into a new world made from them.
static bool load_world(steerS_Load *in, const steer_WorldDesc *hooks, uint32_t dim)
{
    in->r.section = "the world's options";
    steer_WorldDesc d = { 0 };
    if (hooks) {
        d.alloc = hooks->alloc;
        d.alloc_ud = hooks->alloc_ud;
        d.log = hooks->log;
        d.log_ud = hooks->log_ud;
        d.hooks = hooks->hooks;
        d.threads = hooks->threads;
        d.enqueue_task = hooks->enqueue_task;
        d.finish_task = hooks->finish_task;
        d.task_ctx = hooks->task_ctx;
    }
    uint32_t fl = steerS_get_u8(&in->r);
    d.dim = (int)dim;
    d.wrap = fl & W_WRAP;
    d.no_record = !(fl & W_RECORD);
    d.collide = fl & W_COLLIDE;
    d.dt = steerS_get_f32(&in->r);
    for (int i = 0; i < 3; i++) d.origin[i] = steerS_get_f32(&in->r);
    for (int i = 0; i < 3; i++) d.size[i] = steerS_get_f32(&in->r);
    d.seed = steerS_get_u64(&in->r);
    uint64_t tick = steerS_get_u64(&in->r), rng = steerS_get_u64(&in->r);
    d.reorder_period = (int32_t)steerS_get_u32(&in->r);
    d.stuck_window = steerS_get_f32(&in->r);
    d.stuck_progress = steerS_get_f32(&in->r);
    d.collide_iterations = (int32_t)steerS_get_u32(&in->r);
    uint32_t mem_stride = steerS_get_u32(&in->r);
    d.path_budget = in->version >= 4 ? steerS_get_u32(&in->r) : STEER_DEFAULT_PATH_BUDGET;
    if (in->r.failed) return false;
    bool ok = !(fl & ~(uint32_t)W_ALL) && d.seed && rng && d.reorder_period && d.collide_iterations > 0 &&
              d.path_budget && (d.stuck_window == 0 || d.stuck_progress > 0) &&
              (d.stuck_window > 0 || d.stuck_progress == 0);
    for (int i = (int)dim; i < 3; i++) ok = ok && d.origin[i] == 0 && d.size[i] == 0;
    int st = ok ? steer_world_new(&d, &in->w) : STEER_EARG;
    if (st == STEER_ENOMEM) return steerS_load_oom(in);
    if (st) return steerS_fail(&in->r, "the world's options are out of range");
    steer_World *w = in->w;
    w->tick = tick;
    w->rng = rng;
    w->any_craft = fl & W_ANY_CRAFT;
    if (mem_stride < w->mem_base || mem_stride > (1u << 20))
        return steerS_fail(&in->r, "the behaviour memory's stride %u is out of range", mem_stride);
    w->mem_stride = mem_stride;
    return true;
}

// ---- the tags --------------------------------------------------------------

// The interned strings in id order (id 0, untagged, is implied).
static void save_tags(steerS_Save *s)
{
    const steer_World *w = s->w;
    s->count[STEERS_SNAP_TAGS] = w->ntags ? w->ntags - 1 : 0;
    for (uint32_t i = 1; i < w->ntags; i++) steerS_put_str(&s->out, w->tags[i]);
}

static bool load_tags(steerS_Load *in)
{
    uint32_t n = in->count[STEERS_SNAP_TAGS];
    in->r.section = "the tags";
    if (n > STEERT_MAX_TAGS) return steerS_fail(&in->r, "%u tags; a world holds at most %d", n, STEERT_MAX_TAGS);
    for (uint32_t i = 1; i <= n && !in->r.failed; i++) {
        const char *t = steerS_load_str(in, "a tag");
        if (!t) break;
        if (steerT_tag_find(in->w, t) >= 0) return steerS_fail(&in->r, "tag '%s' is listed twice", t);
        int id = steerT_tag_id(in->w, t);
        if (id < 0) return steerS_load_oom(in);
    }
    return !in->r.failed;
}

// ---- the think timers ------------------------------------------------------

// In their order (the order of the callbacks): agent, ref, period, elapsed,
// the time since the last think, rate.
static void save_thinkers(steerS_Save *s)
{
    const steer_World *w = s->w;
    steerS_Writer *o = &s->out;
    s->count[STEERS_SNAP_THINKERS] = w->nthinkers;
    for (uint32_t i = 0; i < w->nthinkers; i++) {
        const struct steerW_Thinker *t = &w->thinkers[i];
        steerS_put_u64(o, t->agent.id);
        steerS_put_u32(o, (uint32_t)t->ref);
        steerS_put_f32(o, t->period);
        steerS_put_f32(o, t->elapsed);
        steerS_put_f64(o, t->since);
        steerS_put_f64(o, t->hz);
    }
}

static bool load_thinkers(steerS_Load *in)
{
    uint32_t n = in->count[STEERS_SNAP_THINKERS];
    steer_World *w = in->w;
    in->r.section = "the think timers";
    if (!n) return true;
    if (n > steerS_left(&in->r) / 36) return steerS_fail(&in->r, "snapshot truncated in the think timers");
    w->thinkers = steerA_realloc(w, NULL, sizeof *w->thinkers * n);
    if (!w->thinkers) return steerS_load_oom(in);
    w->cap_thinkers = n;
    for (uint32_t i = 0; i < n && !in->r.failed; i++) {
        struct steerW_Thinker *t = &w->thinkers[i];
        t->agent.id = steerS_get_u64(&in->r);
        t->ref = (int32_t)steerS_get_u32(&in->r);
        t->period = steerS_get_f32(&in->r);
        t->elapsed = steerS_get_f32(&in->r);
        t->since = steerS_get_f64(&in->r);
        t->hz = steerS_get_f64(&in->r);
        if (in->r.failed) break;
        if (!steerW_storable(t->period) || t->period < 0 || !steerW_storable(t->elapsed) || !isfinite(t->since) ||
            !isfinite(t->hz) || t->hz < 0)
            return steerS_fail(&in->r, "think timer %u is not finite", i);
        w->nthinkers++;
    }
    return !in->r.failed;
}

// ---- the shapes ------------------------------------------------------------

// Every slot's generation and, when alive, its kind and geometry; then the
// free list in its order.
static void save_shapes(steerS_Save *s)
{
    const steerW_Geometry *g = &s->w->geo;
    steerS_Writer *o = &s->out;
    s->count[STEERS_SNAP_SHAPES] = g->nshapes;
    for (uint32_t i = 0; i < g->nshapes; i++) {
        const steerW_Shape *sh = &g->shapes[i];
        steerS_put_u32(o, sh->gen);
        steerS_put_u8(o, sh->alive);
        if (!sh->alive) continue;
        steerS_put_u8(o, sh->kind);
        for (int k = 0; k < 3; k++) steerS_put_f32(o, sh->a[k]);
        for (int k = 0; k < 3; k++) steerS_put_f32(o, sh->b[k]);
        steerS_put_f32(o, sh->r);
    }
    for (uint32_t i = g->nshapes ? g->free_head : UINT32_MAX, k = 0; i != UINT32_MAX && k < g->nshapes;
         i = g->next_free[i], k++)
        steerS_put_u32(o, i);
}

// The shape of slot i as add_shape would store it: the checks of the
// steer_add_* functions, on the floats as stored.
static bool shape_ok(const steer_World *w, const steerW_Shape *s)
{
    for (int k = 0; k < 3; k++)
        if (!steerW_storable(s->a[k]) || !steerW_storable(s->b[k])) return false;
    if (!steerW_storable(s->r)) return false;
    if (w->dim == 2 && (s->a[2] != 0.0f || s->b[2] != 0.0f)) return false;
    switch (s->kind) {
    case STEER_SHAPE_CIRCLE: return s->r > 0.0f;
    case STEER_SHAPE_SEGMENT: return steerO_wall_ok(s->a, s->b) && (w->dim == 2 ? s->r == 0.0f : s->r > 0.0f);
    case STEER_SHAPE_PLANE: return w->dim == 3 && (s->b[0] != 0.0f || s->b[1] != 0.0f || s->b[2] != 0.0f);
    case STEER_SHAPE_BOX:
        for (int k = 0; k < w->dim; k++)
            if (!(s->a[k] < s->b[k])) return false;
        return true;
    default: return false;
    }
}

static bool load_shapes(steerS_Load *in)
{
    uint32_t nshapes = in->count[STEERS_SNAP_SHAPES];
    steer_World *w = in->w;
    steerW_Geometry *g = &w->geo;
    in->r.section = "the shapes";
    if (!nshapes) return true;
    if (nshapes > steerS_left(&in->r) / 5) return steerS_fail(&in->r, "snapshot truncated in the shapes");
    g->shapes = steerA_realloc(w, NULL, sizeof *g->shapes * nshapes);
    g->next_free = steerA_realloc(w, NULL, sizeof *g->next_free * nshapes);
    if (!g->shapes || !g->next_free) return steerS_load_oom(in);
    memset(g->shapes, 0, sizeof *g->shapes * nshapes);
    g->cap = g->nshapes = nshapes;
    uint32_t dead = 0;
    for (uint32_t i = 0; i < nshapes && !in->r.failed; i++) {
        steerW_Shape *s = &g->shapes[i];
        s->gen = steerS_get_u32(&in->r);
        s->alive = (uint8_t)steerS_get_u8(&in->r);
        g->next_free[i] = UINT32_MAX - 1; // not on the free list (yet)
        if (!in->r.failed && (s->gen == 0 || s->alive > 1))
            return steerS_fail(&in->r, "shape %u's slot is corrupted", i);
        if (!s->alive) {
            dead++;
            continue;
        }
        s->kind = (uint8_t)steerS_get_u8(&in->r);
        for (int k = 0; k < 3; k++) s->a[k] = steerS_get_f32(&in->r);
        for (int k = 0; k < 3; k++) s->b[k] = steerS_get_f32(&in->r);
        s->r = steerS_get_f32(&in->r);
        if (!in->r.failed && !shape_ok(w, s)) return steerS_fail(&in->r, "shape %u is not a valid shape", i);
        g->live++;
    }
    // the free list, in its order: each dead shape once
    uint32_t prev = UINT32_MAX;
    for (uint32_t k = 0; k < dead && !in->r.failed; k++) {
        uint32_t s = steerS_get_u32(&in->r);
        if (in->r.failed) break;
        if (s >= nshapes || g->shapes[s].alive || g->next_free[s] != UINT32_MAX - 1)
            return steerS_fail(&in->r, "the shapes' free list names shape %u", s);
        if (prev == UINT32_MAX) g->free_head = s;
        else g->next_free[prev] = s;
        g->next_free[s] = UINT32_MAX;
        prev = s;
    }
    g->dirty = true;
    return !in->r.failed;
}

// ---- the handle table ------------------------------------------------------

// Each slot's generation, then the free slots in list order.
static void save_handles(steerS_Save *s)
{
    const steer_World *w = s->w;
    s->count[STEERS_SNAP_HANDLES] = w->nslots;
    for (uint32_t i = 0; i < w->nslots; i++) steerS_put_u32(&s->out, w->gen[i]);
    for (uint32_t i = w->free_head, k = 0; i != UINT32_MAX && k < w->nslots; i = w->dense_of[i], k++)
        steerS_put_u32(&s->out, i);
}

// The handle table: generations, then the free slots in list order; every
// slot is held by exactly one stored agent or is on the free list.
static bool load_handles(steerS_Load *in)
{
    uint32_t nslots = in->count[STEERS_SNAP_HANDLES];
    steer_World *w = in->w;
    in->r.section = "the handle table";
    for (uint32_t s = 0; s < nslots && !in->r.failed; s++) {
        w->gen[s] = steerS_get_u32(&in->r);
        if (!in->r.failed && w->gen[s] == 0) return steerS_fail(&in->r, "slot %u's generation is 0", s);
        w->dense_of[s] = UINT32_MAX - 1; // unclaimed
    }
    w->nslots = nslots;
    uint32_t prev = UINT32_MAX;
    for (uint32_t k = 0; k < nslots - w->count && !in->r.failed; k++) {
        uint32_t s = steerS_get_u32(&in->r);
        if (in->r.failed) break;
        if (s >= nslots || w->dense_of[s] != UINT32_MAX - 1)
            return steerS_fail(&in->r, "the free list names slot %u twice", s);
        if (prev == UINT32_MAX) w->free_head = s;
        else w->dense_of[prev] = s;
        w->dense_of[s] = UINT32_MAX;
        prev = s;
    }
    return !in->r.failed;
}

// ---- the turn records ------------------------------------------------------

// The valid turn record of slot i, or NULL.
static const steerW_Turn *slot_turn(const steer_World *w, uint32_t i)
{
    return i < w->cap_turn && w->turn[i].gen && w->turn[i].gen == w->gen[i] ? &w->turn[i] : NULL;
}

// Of the slots whose agent has one: slot, craft or point, min_speed,
// min_turn_radius, max_turn_accel, the banked up.
static void save_turns(steerS_Save *s)
{
    const steer_World *w = s->w;
    steerS_Writer *o = &s->out;
    s->count[STEERS_SNAP_TURNS] = 0;
    for (uint32_t i = 0; i < w->nslots; i++) s->count[STEERS_SNAP_TURNS] += slot_turn(w, i) != NULL;
    for (uint32_t i = 0; i < w->nslots; i++) {
        const steerW_Turn *t = slot_turn(w, i);
        if (!t) continue;
        steerS_put_u32(o, i);
        steerS_put_u8(o, t->craft);
        steerS_put_f32(o, t->min_speed);
        steerS_put_f32(o, t->min_turn_radius);
        steerS_put_f32(o, t->max_turn_accel);
        for (int k = 0; k < 3; k++) steerS_put_f32(o, t->up[k]);
    }
}

static bool load_turns(steerS_Load *in)
{
    uint32_t n = in->count[STEERS_SNAP_TURNS];
    steer_World *w = in->w;
    in->r.section = "the turn records";
    if (!n) return true;
    w->turn = steerA_realloc(w, NULL, sizeof *w->turn * w->cap_slots);
    if (!w->turn) return steerS_load_oom(in);
    memset(w->turn, 0, sizeof *w->turn * w->cap_slots);
    w->cap_turn = w->cap_slots;
    for (uint32_t i = 0; i < n && !in->r.failed; i++) {
        uint32_t s = steerS_get_u32(&in->r);
        steerW_Turn t = { 0 };
        t.craft = (uint8_t)steerS_get_u8(&in->r);
        t.min_speed = steerS_get_f32(&in->r);
        t.min_turn_radius = steerS_get_f32(&in->r);
        t.max_turn_accel = steerS_get_f32(&in->r);
        for (int k = 0; k < 3; k++) t.up[k] = steerS_get_f32(&in->r);
        if (in->r.failed) break;
        if (s >= w->nslots || w->turn[s].gen) return steerS_fail(&in->r, "turn record %u names slot %u", i, s);
        if (t.craft > 1 || !steerA_stored_ok(t.min_speed, true) || !steerA_stored_ok(t.min_turn_radius, false) ||
            !steerA_stored_ok(t.max_turn_accel, true) || (!t.craft && t.min_speed > 0) ||
            !steerW_finite3((double[3]){ t.up[0], t.up[1], t.up[2] }))
            return steerS_fail(&in->r, "turn record %u is out of range", i);
        t.gen = w->gen[s];
        w->turn[s] = t;
    }
    return !in->r.failed;
}

// ---- the columns -----------------------------------------------------------

// Whether array a is saved: what moves with the agent, except a row that
// is kept but not hashed (the recorded node outputs, recomputed each tick).
static bool saved(const steerT_Array *a)
{
    return a->bytes && a->col->role != STEERT_COL_TICK &&
           !(a->col->role == STEERT_COL_KEPT && a->col->shape == STEERT_COL_ROW);
}

// The column directory (staged): name, axis and bytes per agent of each
// saved array.
static void save_columns(steerS_Save *s)
{
    steerT_Array cols[STEERT_MAX_ARRAYS];
    s->count[STEERS_SNAP_COLUMNS] = 0;
    for (int k = 0, n = steerT_arrays(s->w, cols); k < n; k++) {
        if (!saved(&cols[k])) continue;
        s->count[STEERS_SNAP_COLUMNS]++;
        steerS_put_str(&s->out, cols[k].col->name);
        steerS_put_u8(&s->out, (uint32_t)cols[k].axis);
        steerS_put_u32(&s->out, (uint32_t)cols[k].bytes);
    }
}

// The saved arrays themselves, in the directory's order, straight from the
// world to o (not staged): each in dense order, little-endian.
static void put_columns(steerS_Writer *o, const steer_World *w)
{
    steerT_Array cols[STEERT_MAX_ARRAYS];
    for (int k = 0, n = steerT_arrays(w, cols); k < n; k++)
        if (saved(&cols[k]))
            steerS_put_array(o, cols[k].base, cols[k].col->size, (size_t)w->count * cols[k].bytes / cols[k].col->size);
}

// The bytes the saved arrays take per agent.
static uint64_t column_bytes(const steer_World *w)
{
    steerT_Array cols[STEERT_MAX_ARRAYS];
    uint64_t per = 0;
    for (int k = 0, n = steerT_arrays(w, cols); k < n; k++)
        if (saved(&cols[k])) per += cols[k].bytes;
    return per;
}

// The columns: the directory must match this build's table; then each
// array as it is stored, and every agent checked as steer_spawn and the
// setters would have it.
static bool load_columns(steerS_Load *in)
{
    uint32_t ndir = in->count[STEERS_SNAP_COLUMNS];
    steer_World *w = in->w;
    in->r.section = "the column directory";
    steerT_Array cols[STEERT_MAX_ARRAYS];
    int ncols = steerT_arrays(w, cols), k = 0;
    for (uint32_t i = 0; i < ndir; i++, k++) {
        while (k < ncols && !saved(&cols[k])) k++;
        const char *name = steerS_load_str(in, "a column's name");
        uint32_t axis = steerS_get_u8(&in->r), bytes = steerS_get_u32(&in->r);
        if (in->r.failed) return false;
        if (k >= ncols || strcmp(name, cols[k].col->name) != 0 || axis != (uint32_t)cols[k].axis ||
            bytes != cols[k].bytes)
            return steerS_fail(&in->r, "the snapshot's column '%s' (axis %u, %u bytes per agent) is not this build's",
                               name, axis, bytes);
    }
    while (k < ncols && !saved(&cols[k])) k++;
    if (k != ncols) return steerS_fail(&in->r, "the snapshot lacks the column '%s'", cols[k].col->name);
    in->r.section = "the agents' columns";
    uint32_t n = w->count;
    for (k = 0; k < ncols; k++) {
        const steerT_Array *a = &cols[k];
        if (!saved(a)) continue;
        // (no agents: the array may be unallocated; nothing is copied then)
        if (!steerS_get_array(&in->r, a->base, a->col->size, (size_t)n * a->bytes / a->col->size)) return false;
    }
    // every agent as the API keeps it
    for (uint32_t d = 0; d < n; d++) {
        for (int i = 0; i < w->dim; i++) {
            float x = w->p[i][d];
            if (!steerW_storable(x) || !steerW_storable(w->v[i][d]) || !steerW_storable(w->h[i][d]) ||
                !steerW_storable(w->f[i][d]) || (w->wrap && !(x >= w->origin[i] && x < w->origin[i] + w->size[i])))
                return steerS_fail(&in->r, "agent %u's position, velocity, heading or force is out of range", d);
        }
        uint8_t fl = w->flags[d];
        if (fl & ~(2u * STEER_AF_KINEMATIC - 1)) return steerS_fail(&in->r, "agent %u's flags are corrupted", d);
        if (fl & STEER_AF_KINEMATIC) w->any_kinematic = true;
        if ((fl & STEER_AF_TARGET_POINT) && (fl & STEER_AF_TARGET_AGENT))
            return steerS_fail(&in->r, "agent %u's target is both a point and an agent", d);
        if (fl & STEER_AF_TARGET_POINT) {
            float t[3];
            steerW_target_point(w, d, t);
            if (!steerW_finite3((double[3]){ t[0], t[1], t[2] }))
                return steerS_fail(&in->r, "agent %u's target point is not finite", d);
        }
        if (!steerA_stored_ok(w->mass[d], false) || !steerA_stored_ok(w->max_speed[d], true) ||
            !steerA_stored_ok(w->max_force[d], true) || !steerA_stored_ok(w->radius[d], true))
            return steerS_fail(&in->r, "agent %u's mass, max_speed, max_force or radius is out of range", d);
        if (!w->rng32[d]) return steerS_fail(&in->r, "agent %u's random stream is 0", d);
        if (w->tag[d] && w->tag[d] >= w->ntags)
            return steerS_fail(&in->r, "agent %u's tag id %u is out of range", d, w->tag[d]);
        uint16_t b = w->brain[d];
        if (b && (b >= w->nbrains || !w->brains[b]))
            return steerS_fail(&in->r, "agent %u's brain id %u is out of range", d, (unsigned)b);
        if (b) w->brains[b]->users++;
        if (fl & STEER_AF_DEAD) w->dead++;
        // (no row at all when no brain keeps memory: w->mem is NULL then)
        const float *row = w->mem_stride ? w->mem + (size_t)d * w->mem_stride : NULL;
        for (uint32_t j = 0; j < w->mem_stride; j++)
            if (!steerW_storable(row[j])) return steerS_fail(&in->r, "agent %u's behaviour memory is not finite", d);
        uint32_t s = w->slot[d];
        if (s >= w->nslots || w->dense_of[s] != UINT32_MAX - 1)
            return steerS_fail(&in->r, "agent %u's handle slot %u is out of range or taken", d, s);
        w->dense_of[s] = d;
    }
    return true;
}

// ---- saving ----------------------------------------------------------------

// Every section but the columns' arrays, into s->out; false when out of memory.
static bool stage(steerS_Save *s, steer_Behavior *const *roots, uint32_t nroots)
{
    save_world(s);
    save_tags(s);
    if (!steerS_save_trees(s, roots, nroots)) return false;
    save_thinkers(s);
    save_shapes(s);
    save_handles(s);
    save_turns(s);
    save_columns(s);
    return !s->out.failed;
}

int steer_world_save_roots(const steer_World *w, steer_Behavior *const *roots, int nroots, steer_WriteFn write,
                           void *ud)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(write, "a steer_WriteFn", STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    if (nroots < 0) return STEER_EARG;
    if (nroots) STEERA_NONNULL(roots, "an array of nroots behaviours", STEER_EARG);
    for (int i = 0; i < nroots; i++) STEERA_TREE(roots[i], STEER_EARG);
    steerS_Save s;
    memset(&s, 0, sizeof s);
    s.w = w;
    steerS_writer_init(&s.out, w->alloc, w->alloc_ud);
    if (!stage(&s, roots, (uint32_t)nroots) || s.ref_failed) {
        steerS_writer_free(&s.out);
        return s.ref_failed ? STEER_ECALLBACK : STEER_ENOMEM;
    }
    unsigned char hb[HEADER_BYTES];
    steerS_Writer h;
    steerS_writer_fixed(&h, hb, sizeof hb);
    save_header(&h, &s, HEADER_BYTES + s.out.n + (uint64_t)w->count * column_bytes(w) + TRAILER_BYTES);
    // the checksum covers every byte after the magic, up to the trailer
    steerS_Writer o;
    steerS_Sum sum;
    steerS_writer_sink(&o, write, ud);
    steerS_put(&o, hb, 8);
    steerS_sum_init(&sum);
    o.sum = &sum;
    steerS_put(&o, hb + 8, HEADER_BYTES - 8);
    steerS_put(&o, s.out.p, s.out.n);
    put_columns(&o, w);
    steerS_writer_free(&s.out);
    o.sum = NULL;
    steerS_put_u64(&o, steerS_sum_end(&sum));
    return o.failed ? STEER_ECALLBACK : STEER_OK;
}

int steer_world_save(const steer_World *w, steer_WriteFn write, void *ud)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(write, "a steer_WriteFn", STEER_EARG);
    return steer_world_save_roots(w, NULL, 0, write, ud);
}

typedef struct Buffer {
    unsigned char *b;
    size_t cap, n;
} Buffer;

// Copies while the bytes fit and counts on after that, so a short buffer
// learns the size it needs from the same pass.
static int to_buffer(void *ud, const void *data, size_t len)
{
    Buffer *b = ud;
    if (b->b && b->n + len <= b->cap) memcpy(b->b + b->n, data, len);
    b->n += len;
    return 0;
}

int steer_world_save_buffer(const steer_World *w, void *buf, size_t cap, size_t *len)
{
    STEERA_WORLD(w, STEER_EARG);
    Buffer b = { buf, buf ? cap : 0, 0 };
    int st = steer_world_save(w, to_buffer, &b);
    if (len) *len = b.n;
    if (st) return st;
    return b.n > b.cap ? STEER_EFULL : STEER_OK;
}

// ---- loading ---------------------------------------------------------------

// Storage for the agents at the memory stride saved (records start empty,
// at the brains' size), for the handle table and for the facing of brains
// that face.
static bool reserve_agents(steerS_Load *in, uint32_t count)
{
    steer_World *w = in->w;
    uint32_t nslots = in->count[STEERS_SNAP_HANDLES];
    in->r.section = "the agents' columns";
    if (w->record) w->rec_stride = w->rec_need;
    if ((uint64_t)count * column_bytes(w) > steerS_left(&in->r) || nslots > steerS_left(&in->r) / 4)
        return steerS_fail(&in->r, "snapshot truncated in the agents' columns");
    if (steer_world_reserve(w, (int)count) != STEER_OK) return steerS_load_oom(in);
    if (nslots > w->cap_slots) {
        uint32_t *gen = steerA_realloc(w, w->gen, sizeof *gen * nslots);
        if (gen) w->gen = gen;
        uint32_t *dense_of = gen ? steerA_realloc(w, w->dense_of, sizeof *dense_of * nslots) : NULL;
        if (!dense_of) return steerS_load_oom(in);
        w->dense_of = dense_of;
        w->cap_slots = nslots;
    }
    for (uint32_t i = 1; i < w->nbrains; i++)
        if (w->brains[i] && w->brains[i]->faces && !w->face[0])
            for (int k = 0; k < w->dim; k++)
                if (!steerA_array_resize(w, &w->face[k], sizeof(float) * (w->cap ? w->cap : 1)))
                    return steerS_load_oom(in);
    w->count = count;
    return true;
}

// The sections in their order, each checked before the next is read.
static bool load(steerS_Load *in, const steer_WorldDesc *hooks, steer_World **out)
{
    uint32_t dim = 0, count = 0;
    if (!load_header(in, &dim, &count) || !load_world(in, hooks, dim) || !load_tags(in) || !steerS_load_trees(in) ||
        !reserve_agents(in, count) || !load_thinkers(in) || !load_shapes(in) || !load_handles(in) || !load_turns(in) ||
        !load_columns(in))
        return false;
    if (steerS_left(&in->r))
        return steerS_fail(&in->r, "the snapshot has %zu bytes past its columns", steerS_left(&in->r));
    for (uint32_t i = 0; i < in->nroots; i++) steer_behavior_retain(in->nodes[in->roots[i]]); // the caller's
    for (uint32_t i = 0; i < in->nnodes; i++) steer_behavior_release(in->nodes[i]);           // the brains hold theirs
    in->nnodes = 0;
    *out = in->w;
    in->w = NULL;
    return true;
}

int steer_world_load_roots(const steer_WorldDesc *hooks, const void *data, size_t len, steer_World **out,
                           steer_Behavior **roots, int cap, int *nroots, char *err, size_t errlen)
{
    STEERA_NONNULL(out, "a place for the new world", STEER_EARG);
    if (len) STEERA_NONNULL(data, "len bytes of a snapshot", STEER_EARG);
    steerS_Load in;
    memset(&in, 0, sizeof in);
    steerS_reader_init(&in.r, data, len, err, errlen);
    in.r.section = "the header";
    bool ok = load(&in, hooks, out);
    if (in.w) {
        steerS_load_trees_end(&in, in.w);
        for (uint32_t i = 0; i < in.nnodes; i++) steer_behavior_release(in.nodes[i]);
        steerA_free(in.w, in.nodes);
        steerA_free(in.w, in.roots);
        steerA_free(in.w, in.str);
        steer_world_free(in.w);
    }
    if (!ok) return in.oom ? STEER_ENOMEM : STEER_EARG;
    // the extra roots: the first cap to the caller, the others let go
    for (uint32_t i = 0; i < in.nroots; i++) {
        steer_Behavior *b = in.nodes[in.roots[i]];
        if (roots && (int)i < cap) roots[i] = b;
        else steer_behavior_release(b);
    }
    if (nroots) *nroots = (int)in.nroots;
    steerS_load_trees_end(&in, *out); // the nodes hold theirs
    steerA_free(*out, in.nodes);
    steerA_free(*out, in.roots);
    steerA_free(*out, in.str);
    return STEER_OK;
}

int steer_world_load(const steer_WorldDesc *hooks, const void *data, size_t len, steer_World **out, char *err,
                     size_t errlen)
{
    STEERA_NONNULL(out, "a place for the new world", STEER_EARG);
    if (len) STEERA_NONNULL(data, "len bytes of a snapshot", STEER_EARG);
    return steer_world_load_roots(hooks, data, len, out, NULL, 0, NULL, err, errlen);
}

int steer_world_restore(steer_World *w, const void *data, size_t len, char *err, size_t errlen)
{
    STEERA_WORLD(w, STEER_EARG);
    if (len) STEERA_NONNULL(data, "len bytes of a snapshot", STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    steer_WorldDesc hooks = {
        .alloc = w->alloc, .alloc_ud = w->alloc_ud, .log = w->log, .log_ud = w->log_ud, .hooks = w->hooks
    };
    steer_World *fresh;
    int st = steer_world_load(&hooks, data, len, &fresh, err, errlen);
    if (st != STEER_OK) return st;
    // w keeps its address (the host's pointers to it stay good), and
    // freeing the other world frees what w held before
    steer_world_take_state(w, fresh);
    steer_world_free(fresh);
    return STEER_OK;
}
