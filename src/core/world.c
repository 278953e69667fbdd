// SPDX-License-Identifier: MIT
// world.c — the roof of the core: a world's creation, freeing and swap,
// its plain queries, spawn and remove. It calls down into every module
// (store.c for storage and handles, brain.c for brains, grid.c, geometry.c,
// craft.c, par.c) and none of them calls it. The tick lives in tick.c, the
// per-agent property API in agent.c.
//
// Spawn and remove refuse during a tick (a host callback inside a pass
// must not move storage); a removed agent's handle is stale at once, its
// row is compacted away before the next tick (store.c).
#include "world.h"
#include "store.h"
#include "brain.h"
#include "grid.h"
#include "geometry.h"
#include "craft.h"
#include "par.h"
#include "rng.h"
#include "vecmath.h"

#include <stdlib.h>
#include <string.h>

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
    STEERA_NONNULL(out, "a place for the new world", STEER_EARG);
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
    steer_AllocFn alloc = d.alloc ? d.alloc : steerA_default_alloc;
    steer_World *w = alloc(d.alloc_ud, NULL, sizeof *w);
    if (!w) return STEER_ENOMEM;
    memset(w, 0, sizeof *w);
    w->lib = &steerA_lib;
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
    w->grain = (uint32_t)env_count("STEER_PAR_GRAIN", 1 << 20, STEERP_GRAIN);
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
    w->path_budget = d.path_budget ? d.path_budget : STEER_DEFAULT_PATH_BUDGET;
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
    STEERA_WORLD(w, );
    steerT_store_free(w);
    steerP_free(w);
    steerB_brains_free(w);
    steerG_free(w);
    steerO_geometry_free(w);
    steerF_craft_free(w);
    steerA_free(w, w->work);
    steerB_served_free(w);
    for (uint32_t i = 0; i < w->nattached; i++) w->attached[i].kind->release(w->attached[i].obj);
    steerA_free(w, w->attached);
    w->lib = NULL; // a later call with it may be refused (if the memory is not reused first)
    w->alloc(w->alloc_ud, w, 0);
}

int steerW_attach(steer_World *w, const steerB_ResourceKind *kind, void *obj,
                  bool (*same)(const void *a, const void *b))
{
    for (uint32_t i = 0; i < w->nattached; i++)
        if (w->attached[i].kind == kind && (w->attached[i].obj == obj || (same && same(w->attached[i].obj, obj))))
            return 0;
    if (!steerA_reserve(w, (void **)&w->attached, &w->cap_attached, w->nattached + 1, sizeof *w->attached, 4))
        return STEER_ENOMEM;
    kind->retain(obj);
    w->attached[w->nattached++] = (struct steerW_Attached){ kind, obj };
    return 1;
}

void steerW_swap(steer_World *a, steer_World *b)
{
    steer_World t = *a;
    *a = *b;
    *b = t;
    // the hosts' parts stay where they were
    b->alloc = a->alloc, b->alloc_ud = a->alloc_ud, b->log = a->log, b->log_ud = a->log_ud, b->hooks = a->hooks;
    a->alloc = t.alloc, a->alloc_ud = t.alloc_ud, a->log = t.log, a->log_ud = t.log_ud, a->hooks = t.hooks;
    // and so does the host's metering (the counters are the next tick's)
    b->meter = a->meter, b->work = a->work, b->cap_work = a->cap_work;
    a->meter = t.meter, a->work = t.work, a->cap_work = t.cap_work;
    // and the serving kinds' scratch (allocated with the world's allocator)
    b->served = a->served, b->nserved = a->nserved;
    a->served = t.served, a->nserved = t.nserved;
    steerP_swap(a, b);
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

int steer_world_take_state(steer_World *w, steer_World *from)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_WORLD(from, STEER_EARG);
    if (w->in_tick || from->in_tick) return STEER_EBUSY;
    steerW_swap(w, from);
    steerW_retarget(w, from); // the trees were loaded for the other address
    return STEER_OK;
}

// ---- queries -----------------------------------------------------------

int steer_world_dim(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return w->dim;
}
double steer_world_dt(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return w->dt;
}
uint64_t steer_world_tick(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return w->tick;
}
uint64_t steer_world_seed(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return w->seed;
}
int steer_world_count(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return (int)(w->count - w->dead);
}
const char *steer_world_error(const steer_World *w)
{
    STEERA_WORLD(w, "");
    return w->error;
}
// The record buffer exists only while recording is on, so worlds that do
// not inspect pay neither its memory nor its bandwidth.
int steer_world_set_record(steer_World *w, bool on)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    if (!on) {
        steerA_array_free(w, &w->rec);
        w->rec_stride = 0;
        w->record = false;
        return STEER_OK;
    }
    if (steerT_restride(w, &w->rec, &w->rec_stride, w->rec_need) != STEER_OK) return STEER_ENOMEM;
    w->record = true;
    return STEER_OK;
}
const char *steer_unreachable_text(int reason)
{
    switch (reason) {
    case STEER_UNREACHABLE_NARROW: return "no way wide enough";
    case STEER_UNREACHABLE_TARGET_OFF: return "target off the mesh";
    case STEER_UNREACHABLE_START_OFF: return "start off the mesh";
    case STEER_UNREACHABLE_NONE: return "no way";
    case STEER_UNREACHABLE_NOMEM: return "out of memory";
    case STEER_UNREACHABLE_START_EXCLUDED: return "start in an excluded area";
    case STEER_UNREACHABLE_TARGET_EXCLUDED: return "target in an excluded area";
    }
    return "?";
}

int steer_world_set_path_budget(steer_World *w, uint32_t units)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    if (units == 0) return STEER_EARG;
    w->path_budget = units;
    return STEER_OK;
}
uint32_t steer_world_path_budget(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return w->path_budget;
}

bool steer_world_record(const steer_World *w)
{
    STEERA_WORLD(w, false);
    return w->record;
}

void steer_world_bounds(const steer_World *w, double origin[3], double size[3], bool *wrap)
{
    STEERA_WORLD(w, );
    for (int i = 0; i < 3; i++) {
        if (origin) origin[i] = w->origin[i];
        if (size) size[i] = w->size[i];
    }
    if (wrap) *wrap = w->wrap;
}

const steer_Event *steer_world_events(const steer_World *w, int *count)
{
    STEERA_WORLD(w, NULL);
    STEERA_NONNULL(count, "an int to write", NULL);
    *count = (int)w->nout_events;
    return w->out_events;
}

// ---- spawn and remove --------------------------------------------------

// Vehicle numbers lie in [STEERA_PARAM_MIN, STEERA_PARAM_MAX] (or are 0 where
// 0 is allowed): a tinier positive value would turn into 0 or a denormal
// float that divides to infinity, a huger one overflows a float when two
// radii or speeds are added.

int steer_spawn(steer_World *w, const steer_AgentDesc *desc, steer_Agent *out)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY; // a host callback inside a pass: storage must not move
    steer_AgentDesc a = desc ? *desc : (steer_AgentDesc){ 0 };
    if (out) *out = STEER_NO_AGENT;
    steer_Behavior *brain = a.brain; // for the message
    if (brain) STEERA_TREE(brain, STEER_EARG);
    if (a.mass == 0) a.mass = 1;
    if (a.max_speed == 0) a.max_speed = 1;
    if (a.max_force == 0) a.max_force = 1;
    if (a.radius == 0) a.radius = 0.5;
    if (!steerW_finite3(a.position) || !steerW_finite3(a.velocity) || !steerA_param_ok(a.mass, false) ||
        !steerA_param_ok(a.max_speed, true) || !steerA_param_ok(a.max_force, true) || !steerA_param_ok(a.radius, true))
        return STEER_EARG;
    if (w->count >= UINT32_MAX / 2) return STEER_EFULL;
    int st = steerT_reserve_agents(w, w->count + 1);
    if (st) return st;
    int tag = a.tag ? steerT_tag_id(w, a.tag) : 0;
    if (tag < 0) return tag;
    int bid = steerB_brain_id(w, a.brain);
    if (bid < 0) return bid;
    uint32_t d;
    if (steerT_add_agent(w, &d) != STEER_OK) return STEER_ENOMEM;
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
    steerB_set_brain(w, d, bid);
    if (a.kinematic) {
        w->flags[d] |= STEER_AF_KINEMATIC;
        w->any_kinematic = true;
    }
    w->grid_fresh = false;
    if (out) *out = steerW_handle(w, d);
    return STEER_OK;
}

int steer_remove(steer_World *w, steer_Agent a)
{
    STEERA_WORLD(w, STEER_EARG);
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

bool steer_alive(const steer_World *w, steer_Agent a)
{
    STEERA_WORLD(w, false);
    return steerW_dense(w, a) >= 0;
}
