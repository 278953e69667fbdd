// SPDX-License-Identifier: MIT
// agent.c — the per-agent property API (vectors, vehicle numbers, tag,
// brain, target, think timer, stream, recorded contributions) and the
// queries that find agents (by index, all of them, near a point).
//
// Every setter refuses during a tick (STEER_EBUSY): a host callback inside
// a pass must not move storage or change what the pass reads.
#include "store.h"
#include "grid.h"
#include "craft.h"
#include "brain.h"
#include "rng.h"
#include "vecmath.h"

#include <stdlib.h>
#include <string.h>

// ---- finding agents ----------------------------------------------------

steer_Agent steer_world_agent_at(const steer_World *w, int i)
{
    STEERA_WORLD(w, STEER_NO_AGENT);
    // skip dead agents that still await compaction
    if (i < 0) return STEER_NO_AGENT;
    uint32_t k = 0;
    if (!w->dead) return (uint32_t)i < w->count ? steerW_handle(w, (uint32_t)i) : STEER_NO_AGENT;
    for (uint32_t d = 0; d < w->count; d++) {
        if (w->flags[d] & STEER_AF_DEAD) continue;
        if (k++ == (uint32_t)i) return steerW_handle(w, d);
    }
    return STEER_NO_AGENT;
}

uint32_t steer_agent_slot_generation(const steer_World *w, uint32_t slot)
{
    STEERA_WORLD(w, 0);
    return slot < w->nslots ? w->gen[slot] : 0;
}

int steer_world_agents(const steer_World *w, steer_Agent *out, int cap)
{
    STEERA_WORLD(w, STEER_EARG);
    if (cap > 0) STEERA_NONNULL(out, "an array of cap handles", STEER_EARG);
    int k = 0;
    for (uint32_t d = 0; d < w->count; d++) {
        if (w->flags[d] & STEER_AF_DEAD) continue;
        if (k < cap) out[k] = steerW_handle(w, d);
        k++;
    }
    return k;
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
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(pos, "a position", STEER_EARG);
    if (cap > 0) STEERA_NONNULL(out, "an array of cap handles", STEER_EARG);
    if (!steerW_finite3(pos) || !(radius >= 0) || !isfinite(radius)) return STEER_EARG;
    int tid = steerT_tag_find(w, tag);
    if (tid < 0) return 0;
    if (w->in_tick) return STEER_EBUSY;
    float p[3] = { (float)pos[0], (float)pos[1], w->dim == 3 ? (float)pos[2] : 0.0f };
    int k = steerG_query(w, p, (float)radius);
    if (k < 0) return STEER_ENOMEM;
    int m = 0;
    for (int i = 0; i < k; i++)
        if (!tag || w->tag[w->loc.scratch[i].d] == tid) w->loc.scratch[m++] = w->loc.scratch[i];
    if (sorted && m > 1)
        qsort(w->loc.scratch, (size_t)m, sizeof *w->loc.scratch, cmp_nb); // no scratch yet in an empty world
    for (int i = 0; i < m && i < cap; i++) out[i] = steerW_handle(w, w->loc.scratch[i].d);
    return m;
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

int steer_agent_vec(const steer_World *w, steer_Agent a, steer_Prop p, double out[3])
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a double[3] to write", STEER_EARG);
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    float v[3];
    if (p == STEER_PROP_UP) {
        steerF_up(w, (uint32_t)d, v);
        for (int i = 0; i < 3; i++) out[i] = v[i];
        return STEER_OK;
    }
    float *const *arr = prop_arrays(w, p);
    if (!arr) return STEER_EARG;
    steerW_load(arr, (uint32_t)d, v);
    for (int i = 0; i < 3; i++) out[i] = v[i];
    return STEER_OK;
}

int steer_agent_set_vec(steer_World *w, steer_Agent a, steer_Prop p, const double v[3])
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(v, "a double[3]", STEER_EARG);
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    if (!steerW_finite3(v) || p == STEER_PROP_FORCE || p == STEER_PROP_UP) return STEER_EARG;
    float f[3] = { (float)v[0], (float)v[1], w->dim == 3 ? (float)v[2] : 0.0f };
    if (p == STEER_PROP_HEADING && v3_normalize(f) == 0.0f) return STEER_EARG;
    if (p == STEER_PROP_POSITION && w->wrap)
        for (int i = 0; i < w->dim; i++) f[i] = steerW_wrap_into(f[i], w->origin[i], w->size[i]);
    steerW_store(prop_arrays(w, p), (uint32_t)d, f);
    if (p == STEER_PROP_POSITION) w->grid_fresh = false;
    if (p == STEER_PROP_VELOCITY) {
        float h[3] = { f[0], f[1], f[2] };
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
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a double to write", STEER_EARG);
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    float *arr = param_array(w, p);
    if (!arr) return STEER_EARG;
    *out = arr[d];
    return STEER_OK;
}

int steer_agent_set_param(steer_World *w, steer_Agent a, steer_Param p, double v)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    float *arr = param_array(w, p);
    if (!arr || !steerA_param_ok(v, p != STEER_PARAM_MASS)) return STEER_EARG;
    arr[d] = (float)v;
    return STEER_OK;
}

int steer_agent_set_kinematic(steer_World *w, steer_Agent a, bool on)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    if (on) {
        w->flags[d] |= STEER_AF_KINEMATIC;
        w->any_kinematic = true;
    } else {
        w->flags[d] &= (uint8_t)~STEER_AF_KINEMATIC;
    }
    return STEER_OK;
}

int steer_agent_kinematic(const steer_World *w, steer_Agent a, bool *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a bool to write", STEER_EARG);
    int64_t d = steerW_dense(w, a);
    *out = d >= 0 && (w->flags[d] & STEER_AF_KINEMATIC);
    return d < 0 ? STEER_ESTALE : STEER_OK;
}

int steer_agent_tag(const steer_World *w, steer_Agent a, const char **out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a place for the tag", STEER_EARG);
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    *out = w->tag[d] ? w->tags[w->tag[d]] : NULL;
    return STEER_OK;
}

int steer_agent_set_tag(steer_World *w, steer_Agent a, const char *tag)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    int id = tag ? steerT_tag_id(w, tag) : 0;
    if (id < 0) return id;
    w->tag[d] = (uint16_t)id;
    return STEER_OK;
}

int steer_agent_brain(const steer_World *w, steer_Agent a, steer_Behavior **out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a place for the brain", STEER_EARG);
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    *out = w->brain[d] ? w->brains[w->brain[d]]->root : NULL;
    return STEER_OK;
}

int steer_agent_set_brain(steer_World *w, steer_Agent a, steer_Behavior *brain)
{
    STEERA_WORLD(w, STEER_EARG);
    if (brain) STEERA_TREE(brain, STEER_EARG); // NULL: no brain
    if (w->in_tick) return STEER_EBUSY;        // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    int id = steerB_brain_id(w, brain);
    if (id < 0) return id;
    steerB_set_brain(w, (uint32_t)d, id);
    return STEER_OK;
}

int steer_agent_set_target(steer_World *w, steer_Agent a, const double *point, steer_Agent other)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    uint8_t fl = w->flags[d] & (uint8_t) ~(STEER_AF_TARGET_POINT | STEER_AF_TARGET_AGENT);
    float v[3] = { 0, 0, 0 };
    if (point) {
        if (!steerW_finite3(point)) return STEER_EARG;
        v3_set(v, (float)point[0], (float)point[1], w->dim == 3 ? (float)point[2] : 0.0f);
        steerW_set_target_point(w, (uint32_t)d, v);
        fl |= STEER_AF_TARGET_POINT;
    } else if (other.id) {
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
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(point, "a double[3] to write", STEER_EARG);
    STEERA_NONNULL(other, "a place for the target agent", STEER_EARG);
    STEERA_NONNULL(kind, "an int to write", STEER_EARG);
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    uint8_t fl = w->flags[d];
    for (int i = 0; i < 3; i++) point[i] = 0;
    *other = STEER_NO_AGENT;
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
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    if (steerW_dense(w, a) < 0) return STEER_ESTALE;
    // the period is a float: it must not become infinite (nor the rate)
    if (!isfinite(hz) || hz < 0 || (hz > 0 && !(isfinite((float)(1.0 / hz)) && isfinite((float)hz)))) return STEER_EARG;
    struct steerW_Thinker *t = NULL;
    for (uint32_t i = 0; i < w->nthinkers; i++)
        if (w->thinkers[i].agent.id == a.id) {
            t = &w->thinkers[i];
            break;
        }
    if (ref == 0 || hz == 0) {
        if (t) t->ref = 0;
        return STEER_OK;
    }
    if (!t) {
        if (w->nthinkers == w->cap_thinkers) {
            uint32_t cap = w->cap_thinkers ? w->cap_thinkers * 2 : 16;
            struct steerW_Thinker *n = steerA_realloc(w, w->thinkers, sizeof *n * cap);
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
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(ref, "an int to write", STEER_EARG);
    STEERA_NONNULL(hz, "a double to write", STEER_EARG);
    if (steerW_dense(w, a) < 0) return STEER_ESTALE;
    *ref = 0;
    *hz = 0;
    for (uint32_t i = 0; i < w->nthinkers; i++)
        if (w->thinkers[i].agent.id == a.id && w->thinkers[i].ref) {
            *ref = w->thinkers[i].ref;
            *hz = w->thinkers[i].hz;
        }
    return STEER_OK;
}

int steer_agent_set_rng(steer_World *w, steer_Agent a, uint32_t state)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    w->rng32[d] = state ? state : 0x9E3779B9u;
    // memory seeded from the old stream (a wander angle) is drawn again
    if (w->brain[d]) {
        if (w->mem_stride > w->mem_base)
            memset(steerW_mem(w, (uint32_t)d), 0, sizeof(float) * (w->mem_stride - w->mem_base));
        steerB_init_agent(w, (uint32_t)d);
    }
    return STEER_OK;
}

int steer_agent_contributions(const steer_World *w, steer_Agent a,
                              void (*fn)(void *ud, const char *name, const double f[3]) STEER_NOEXCEPT, void *ud)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(fn, "a function to call per node", STEER_EARG);
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
