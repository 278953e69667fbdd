// SPDX-License-Identifier: MIT
// tick.c — the tick and its passes: grid, neighbours and steer, locomote,
// collide, stuck, think, events (DetourCrowd's dtCrowd::update is the model).
//
// Invariants: the tick allocates nothing once the world is warm (its
// scratch grows with the agents); storage does not move during the passes
// (spawn, remove and the setters refuse while in_tick), and host callbacks
// run after them (think).
#include "store.h"
#include "grid.h"
#include "geometry.h"
#include "craft.h"
#include "brain.h"
#include "par.h"
#include "vecmath.h"

#include <stdlib.h>
#include <string.h>

// ---- the steer and locomote passes ------------------------------------

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
    o[0] = arr[0][d];
    o[1] = arr[1][d];
    o[2] = dim == 3 ? arr[2][d] : 0.0f;
}

// Locomotion: forward Euler as the seeds give it, then the heading follows
// the velocity (see pass_locomote). The last stage, shared by both paths
// below: keep the old state rather than poison the world with a non-finite
// one, set the heading and store.
__attribute__((always_inline)) static inline void settle(const steer_World *w, uint32_t d, const float v[3],
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
    for (int i = 0; i < dim; i++) {
        w->v[i][d] = v[i];
        w->p[i][d] = p[i];
    }
}

// p += v dt, wrapped into the world.
__attribute__((always_inline)) static inline void advance(const steer_World *w, float p[3], const float v[3],
                                                          const int dim, const bool wrap)
{
    v3_madd(p, v, w->dt);
    if (wrap)
        for (int i = 0; i < dim; i++) p[i] = steerW_wrap_into(p[i], w->origin[i], w->size[i]);
}

// Point vehicles ds[0..n-1] (n <= STEERB_BATCH) in stages over the batch:
// each agent's step is a chain of square roots and divisions, and stages
// let the chains of different agents overlap instead of each waiting for
// the last.
__attribute__((always_inline)) static inline void locomote_points(const steer_World *w, const uint32_t *ds, int n,
                                                                  const int dim, const bool wrap)
{
    steerB_Lanes V;
    for (int k = 0; k < n; k++) {
        uint32_t d = ds[k];
        float f[3] = { 0, 0, 0 }, v[3] = { 0, 0, 0 };
        for (int i = 0; i < dim; i++) {
            f[i] = w->f[i][d];
            v[i] = w->v[i][d];
        }
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
__attribute__((always_inline)) static inline void locomote_craft(const steer_World *w, uint32_t d, const int dim,
                                                                 const bool wrap)
{
    float f[3] = { 0, 0, 0 }, v[3] = { 0, 0, 0 }, p[3] = { 0, 0, 0 }, h[3];
    for (int i = 0; i < dim; i++) {
        f[i] = w->f[i][d];
        v[i] = w->v[i][d];
        p[i] = w->p[i][d];
    }
    steerF_craft_step(w, d, f, v, h);
    advance(w, p, v, dim, wrap);
    settle(w, d, v, p, h, dim);
}

// Up to STEERB_BATCH agents, any vehicles: worlds with craft or kinematic
// agents take one agent at a time. A kinematic agent stays as the host set
// it: position, velocity and heading.
__attribute__((always_inline)) static inline void locomote_batch(const steer_World *w, const uint32_t *ds, int n,
                                                                 const int dim, const bool wrap)
{
    if (__builtin_expect(!w->any_craft && !w->any_kinematic, 1)) {
        locomote_points(w, ds, n, dim, wrap);
        return;
    }
    for (int k = 0; k < n; k++) {
        if (steerW_kinematic(w, ds[k])) continue;
        if (steerW_is_craft(w, ds[k])) locomote_craft(w, ds[k], dim, wrap);
        else locomote_points(w, ds + k, 1, dim, wrap);
    }
}

// The agent's force, checked: a non-finite one is dropped.
__attribute__((always_inline)) static inline void store_force(const steer_World *w, uint32_t d, float f[3],
                                                              const int dim)
{
    if (!v3_finite(f)) v3_zero(f);
    for (int i = 0; i < dim; i++) w->f[i][d] = f[i];
}

// Evaluate the batch's brain for its agents, store their forces and, when
// the tick fuses locomotion into this pass, move them.
__attribute__((always_inline)) static inline void flush_batch(steerB_Batch *bt, bool fuse, const int dim,
                                                              const bool wrap)
{
    const steer_World *w = bt->w;
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
static inline float *clear_record(const steer_World *w, uint32_t d, const steerB_Brain *b)
{
    float *rec = w->record && w->rec_stride ? w->rec + (size_t)d * w->rec_stride : NULL;
    if (rec) memset(rec, 0, sizeof(float) * b->rec_floats);
    return rec;
}

// Agent d's work in this pass (steer_world_set_metering): one for its
// brain and `units` more, in its slot's counter (agents are each visited
// once, by one worker: no two write one slot).
static inline void charge(const steer_World *w, uint32_t d, uint64_t units)
{
    uint32_t s = w->slot[d];
    if (s >= w->cap_work) return;
    uint64_t t = (uint64_t)w->work[s] + 1 + units;
    w->work[s] = t < UINT32_MAX ? (uint32_t)t : UINT32_MAX;
}

// Queue the agent at grid index it (dense d) in the batch; its lane.
__attribute__((always_inline)) static inline int
queue_agent(steerB_Batch *bt, const steer_World *w, const steerB_Brain *b, uint32_t it, uint32_t d, const int dim)
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

// The agent at grid index it (dense d, brain b), evaluated alone: its
// neighbours (from its cell's block, which the caller built when the brain
// senses: 1 built, 0 too small a torus, -1 out of memory), its force and
// facing and, when fused, its move.
__attribute__((always_inline)) static inline void steer_one(const steer_World *w, steerB_Ctx *c, int block, uint32_t it,
                                                            uint32_t d, const steerB_Brain *b, float *rec, bool fuse,
                                                            const int dim, const bool wrap)
{
    c->brain = b;
    c->d = d;
    load_dim(w->p, d, c->p, dim);
    load_dim(w->v, d, c->v, dim);
    load_dim(w->h, d, c->h, dim);
    c->mass = w->mass[d];
    c->max_speed = w->max_speed[d];
    c->max_force = w->max_force[d];
    c->radius = w->radius[d];
    c->mem = steerW_mem(w, d);
    c->rec = rec;
    c->rng = &w->rng32[d];
    c->nn = 0;
    c->nb = NULL;
    if (b->sense > 0) {
        if (block == 1) {
            // summaries in one vectorised pass; a list only if some node reads one
            if (b->nsums) steerG_summaries(w, c->loc, c->p, it, b->nsums, b->sum_r2, b->sum_need, c->sums);
            // (a brain whose list readers want only their nearest: nearest first)
            if (b->list)
                c->nn = b->nearest ? steerG_nearest(w, c->loc, c->p, b->sense, d, b->nearest)
                                   : steerG_filter(w, c->loc, c->p, b->sense, d);
        } else {
            // a torus too small for a ring of distinct cells: list, then summaries from it
            c->nn = block == 0 ? steerG_gather(w, c->loc, c->p, b->sense, d) : -1;
            if (c->nn < 0) {
                c->loc->status = STEER_ENOMEM;
                c->nn = 0;
            }
            c->nb = c->loc->scratch;
            summaries_from_list(c);
        }
        c->nb = c->loc->scratch;
    }
    c->facing = false;
    float f[3];
    uint64_t work0 = c->loc->work;
    steerB_eval(c, 0, f);
    if (w->meter) charge(w, d, c->loc->work - work0 + (b->sense > 0 ? c->loc->candidates : 0));
    store_force(w, d, f, dim);
    // the facing flag is this agent's own state: set or cleared every tick
    w->flags[d] &= (uint8_t)~STEER_AF_FACING;
    if (c->facing && w->face[0] && v3_finite(c->face) && v3_normalize(c->face) > 0.0f) {
        for (int i = 0; i < dim; i++) w->face[i][d] = c->face[i];
        w->flags[d] |= STEER_AF_FACING;
    }
    if (fuse) locomote_batch(w, &d, 1, dim, wrap);
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
//
// This runs cells [c0, c1), one item of the pass, on the worker's view of
// the world (read-only) and its scratch `loc`. Agents whose brain calls the
// host are left for the calling thread: `world`, the world itself, runs
// only those (and their nodes get it as steerB_Ctx.host); NULL on workers.
__attribute__((always_inline)) static inline void steer_cells(const steer_World *w, steerW_Local *loc,
                                                              steer_World *world, uint32_t c0, uint32_t c1, bool fuse,
                                                              const int dim, const bool wrap)
{
    bool host = world != NULL;
    steerB_Batch bt;
    steerB_Ctx c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.loc = loc;
    c.host = world;
    c.dt = w->dt;
    bt.w = w;
    bt.loc = loc;
    bt.n = 0;
    bt.dt = w->dt;
    bt.brain = NULL;
    bool batching = !w->no_batch && !host;
    const steerG_Grid *g = &w->grid;
    for (uint32_t cell = c0; cell < c1; cell++) {
        int block = 2; // 2: not built yet for this cell
        for (uint32_t it = g->start[cell]; it < g->start[cell + 1]; it++) {
            uint32_t d = g->items[it];
            float zero[3] = { 0, 0, 0 };
            if (!w->brain[d] || steerW_kinematic(w, d)) { // no brain, or the host moves it: no force
                if (host) continue;
                steerW_store(w->f, d, zero);
                w->flags[d] &= (uint8_t)~STEER_AF_FACING;
                if (fuse) locomote_batch(w, &d, 1, dim, wrap);
                continue;
            }
            const steerB_Brain *b = w->brains[w->brain[d]];
            if (b->host != host) continue;
            if (b->sense > 0 && block == 2) {
                block = steerG_block(w, loc, cell);
                // what an agent's sensing may scan: its cell's block, or every
                // agent (a k-nearest gather scans fewer and is charged the same)
                loc->candidates = w->count;
                if (block == 1) {
                    loc->candidates = 0;
                    for (int q = 0; q < loc->nruns; q++) loc->candidates += loc->runs[q].e - loc->runs[q].b;
                }
            }
            float *rec = clear_record(w, d, b);
            if (batching && b->batch && (b->sense <= 0 || block == 1)) {
                if (bt.n && bt.brain != b) flush_batch(&bt, fuse, dim, wrap);
                // the next agent of the cell, when it has the same brain,
                // goes with this one through the neighbour pass (w->wide)
                uint32_t d2 = it + 1 < g->start[cell + 1] ? g->items[it + 1] : d;
                bool two = w->wide && b->nsums && d2 != d && w->brain[d2] == w->brain[d] && !steerW_kinematic(w, d2);
                if (two && bt.n > STEERB_BATCH - 2) flush_batch(&bt, fuse, dim, wrap);
                int k = queue_agent(&bt, w, b, it, d, dim);
                // the positions from the grid's copies, not back from the lanes just
                // written (a wide load of narrow stores stalls)
                float qa[3], qb[3];
                load_dim(g->sp, it, qa, dim);
                if (two) {
                    clear_record(w, d2, b);
                    queue_agent(&bt, w, b, it + 1, d2, dim);
                    load_dim(g->sp, it + 1, qb, dim);
                    steerG_summaries2(w, loc, qa, it, qb, it + 1, b->nsums, b->sum_r2, b->sum_need, bt.sums[k],
                                      bt.sums[k + 1]);
                    it++;
                } else if (b->nsums) {
                    steerG_summaries(w, loc, qa, it, b->nsums, b->sum_r2, b->sum_need, bt.sums[k]);
                }
                if (w->meter) {
                    charge(w, d, b->nsums ? loc->candidates : 0);
                    if (two) charge(w, d2, b->nsums ? loc->candidates : 0);
                }
                if (bt.n == STEERB_BATCH) flush_batch(&bt, fuse, dim, wrap);
                continue;
            }
            steer_one(w, &c, block, it, d, b, rec, fuse, dim, wrap);
        }
    }
    if (bt.n) flush_batch(&bt, fuse, dim, wrap);
}

// Whether this tick may move each agent right after its force (see
// steer_cells): every brain in use runs batched, none calls the host, and
// the grid gives every cell a block (so no agent reads live positions).
static bool can_fuse(const steer_World *w)
{
    if (w->no_batch || !steerG_blocks_ok(w)) return false;
    for (uint32_t i = 1; i < w->nbrains; i++)
        if (w->brains[i] && w->brains[i]->users && (!w->brains[i]->batch || w->brains[i]->host)) return false;
    return true;
}

// Whether a brain in use calls the host.
static bool any_host(const steer_World *w)
{
    for (uint32_t i = 1; i < w->nbrains; i++)
        if (w->brains[i] && w->brains[i]->users && w->brains[i]->host) return true;
    return false;
}

typedef struct SteerJob {
    const uint32_t *bounds; // item k covers cells [bounds[k], bounds[k + 1])
    steer_World *host;      // the host's agents only, on the world itself (calling thread); NULL: the others
    bool fuse;
} SteerJob;

static void steer_item(const steer_World *w, steerW_Local *loc, uint32_t k, void *ctx)
{
    const SteerJob *j = ctx;
    uint32_t c0 = j->bounds[k], c1 = j->bounds[k + 1];
    if (w->dim == 2) {
        if (w->wrap) steer_cells(w, loc, j->host, c0, c1, j->fuse, 2, true);
        else steer_cells(w, loc, j->host, c0, c1, j->fuse, 2, false);
    } else {
        if (w->wrap) steer_cells(w, loc, j->host, c0, c1, j->fuse, 3, true);
        else steer_cells(w, loc, j->host, c0, c1, j->fuse, 3, false);
    }
}

// The steer pass: items of whole cells holding about as many agents each,
// on the workers; then, on the calling thread and in grid order, the
// agents whose brains call the host (Lua is single-threaded).
static int pass_steer(steer_World *w, bool fuse)
{
    const steerG_Grid *g = &w->grid;
    uint32_t bounds[STEERP_MAX_ITEMS + 1], items = steerP_items(w, w->count);
    for (uint32_t k = 0; k < items; k++) bounds[k] = steerG_cell_from(g, steerP_part(w->count, items, k));
    bounds[items] = g->ncells;
    SteerJob job = { bounds, NULL, fuse };
    int st = steerP_run(w, items, steer_item, &job);
    if (any_host(w)) {
        const uint32_t all[2] = { 0, g->ncells };
        SteerJob calls = { all, w, fuse };
        w->loc.status = STEER_OK;
        steer_item(w, &w->loc, 0, &calls);
        if (st == STEER_OK) st = w->loc.status;
        w->loc.status = STEER_OK;
    }
    return st;
}

// The loop body, inlined with the dimension and wrap as constants.
__attribute__((always_inline)) static inline void locomote(const steer_World *w, uint32_t b, uint32_t e, const int dim,
                                                           const bool wrap)
{
    uint32_t ds[STEERB_BATCH];
    for (uint32_t d0 = b; d0 < e; d0 += STEERB_BATCH) {
        int m = e - d0 < STEERB_BATCH ? (int)(e - d0) : STEERB_BATCH;
        for (int k = 0; k < m; k++) ds[k] = d0 + (uint32_t)k;
        locomote_batch(w, ds, m, dim, wrap);
    }
}

// Item k of a pass over agents [0, count) split into `items` items: its range.
typedef struct Range {
    uint32_t n, items;
} Range;
static inline void range_of(const Range *r, uint32_t k, uint32_t *b, uint32_t *e)
{
    // whole batches, so an item's batches are the ones the serial pass makes
    uint32_t batches = (r->n + STEERB_BATCH - 1) / STEERB_BATCH;
    *b = steerP_part(batches, r->items, k) * STEERB_BATCH;
    *e = steerP_part(batches, r->items, k + 1) * STEERB_BATCH;
    if (*e > r->n) *e = r->n;
    if (*b > *e) *b = *e;
}

static void locomote_item(const steer_World *w, steerW_Local *loc, uint32_t k, void *ctx)
{
    (void)loc;
    uint32_t b, e;
    range_of(ctx, k, &b, &e);
    if (w->dim == 2) {
        if (w->wrap) locomote(w, b, e, 2, true);
        else locomote(w, b, e, 2, false);
    } else {
        if (w->wrap) locomote(w, b, e, 3, true);
        else locomote(w, b, e, 3, false);
    }
}

// locomote: forward Euler as the seeds give it, then the heading follows
// the velocity, blended by speed so that it holds still at rest instead of
// flipping with the sign of a tiny velocity.
static void pass_locomote(steer_World *w, uint32_t n)
{
    Range r = { n, steerP_items(w, n) };
    steerP_run(w, r.items, locomote_item, &r);
}

// ---- the constraint and watch passes ----------------------------------

// Push the agent at p (radius r) out of every shape it overlaps; returns
// the deepest penetration found (0 when none).
static float push_out_of_shapes(const steer_World *w, steerW_Local *loc, float p[3], float v[3], float r)
{
    float lo[3], hi[3], deepest = 0.0f;
    for (int i = 0; i < 3; i++) {
        lo[i] = p[i] - r;
        hi[i] = p[i] + r;
    }
    int n = steerO_shapes_near(w, loc, lo, hi);
    for (int k = 0; k < n; k++) {
        const steerW_Shape *s = &w->geo.shapes[loc->found[k]];
        float c[3], nrm[3], d[3];
        steerO_closest(w, s, p, c, nrm);
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
static void touch(const steer_World *w, steerW_Local *loc, uint32_t d, steer_Agent other)
{
    uint8_t f = w->flags[d];
    if (!(f & (STEER_AF_TOUCHING | STEER_AF_TOUCHED))) steerT_event_to(loc, w, STEER_EVENT_COLLIDE, d, other);
    w->flags[d] = f | STEER_AF_TOUCHED;
}

// The collide pass's items, over agents [0, n).
typedef struct CollideJob {
    Range r;
    float maxr;
    uint8_t any[STEERP_MAX_ITEMS]; // per item: some agent overlapped another
} CollideJob;

// Each agent's push out of the agents it overlaps, from this iteration's
// positions (a Jacobi step: nothing moves until every push is known). Two
// agents each take half of their overlap; a kinematic agent (the host moves
// it) takes none, and an agent it overlaps takes the whole.
static void overlap_item(const steer_World *w, steerW_Local *loc, uint32_t k, void *ctx)
{
    CollideJob *j = ctx;
    uint32_t b, e;
    range_of(&j->r, k, &b, &e);
    int dim = w->dim;
    float maxr = j->maxr;
    for (uint32_t d = b; d < e; d++) {
        float p[3];
        steerW_load(w->p, d, p);
        for (int i = 0; i < dim; i++) w->push[i][d] = 0.0f;
        bool kinematic = steerW_kinematic(w, d);
        int nk = steerG_gather(w, loc, p, w->radius[d] + maxr, d);
        if (nk < 0) {
            loc->status = STEER_ENOMEM;
            return;
        }
        float deepest = 0.0f;
        steer_Agent other = STEER_NO_AGENT;
        for (int q = 0; q < nk; q++) {
            const steerB_Neighbor *nb = &loc->scratch[q];
            float reach = w->radius[d] + w->radius[nb->d];
            if (!(nb->d2 < reach * reach)) continue;
            float dist = sqrtf(nb->d2), dir[3];
            if (dist > 0.0f) {
                v3_scale(dir, nb->off, 1.0f / dist);
            } else {
                // on top of each other: split along x by handle order, deterministically
                v3_set(dir, w->slot[d] < w->slot[nb->d] ? 1.0f : -1.0f, 0.0f, 0.0f);
            }
            // (another worker may be writing the neighbour's flags: its copy in held)
            float overlap = reach - dist, share = w->any_kinematic && w->held[nb->d] ? 1.0f : 0.5f;
            if (!kinematic)
                for (int i = 0; i < dim; i++) w->push[i][d] -= dir[i] * share * overlap;
            if (overlap > deepest) {
                deepest = overlap;
                other = steerW_handle(w, nb->d);
            }
        }
        if (deepest > 0.0f) {
            j->any[k] = 1;
            touch(w, loc, d, other);
        }
    }
}

// Apply the pushes. Radii are at most STEERA_PARAM_MAX, so pushes are
// finite; an agent near the float limit that a push would carry past it
// stays put.
static void push_item(const steer_World *w, steerW_Local *loc, uint32_t k, void *ctx)
{
    (void)loc;
    uint32_t b, e;
    range_of(&((CollideJob *)ctx)->r, k, &b, &e);
    for (uint32_t d = b; d < e; d++) {
        float p[3];
        steerW_load(w->p, d, p);
        for (int i = 0; i < w->dim; i++) p[i] += w->push[i][d];
        if (v3_finite(p)) steerW_store(w->p, d, p);
    }
}

// Shapes last: they always win. Then the contact state for the next tick
// (touching now, or not), and positions wrapped back into the world.
static void shapes_item(const steer_World *w, steerW_Local *loc, uint32_t k, void *ctx)
{
    uint32_t b, e;
    range_of(&((CollideJob *)ctx)->r, k, &b, &e);
    int dim = w->dim;
    for (uint32_t d = b; d < e && w->geo.live; d++) {
        if (steerW_kinematic(w, d)) continue; // where the host put it
        float p[3], v[3];
        steerW_load(w->p, d, p);
        steerW_load(w->v, d, v);
        float deepest = push_out_of_shapes(w, loc, p, v, w->radius[d]);
        if (deepest > 0.0f) {
            push_out_of_shapes(w, loc, p, v, w->radius[d]); // a corner: a second push
            touch(w, loc, d, STEER_NO_AGENT);
            if (v3_finite(p) && v3_finite(v)) {
                steerW_store(w->p, d, p);
                steerW_store(w->v, d, v);
            }
        }
    }
    for (uint32_t d = b; d < e; d++) {
        uint8_t f = w->flags[d] & (uint8_t) ~(STEER_AF_TOUCHING | STEER_AF_TOUCHED);
        if (w->flags[d] & STEER_AF_TOUCHED) f |= STEER_AF_TOUCHING;
        w->flags[d] = f;
    }
    if (w->wrap)
        for (uint32_t d = b; d < e; d++)
            for (int i = 0; i < dim; i++) w->p[i][d] = steerW_wrap_into(w->p[i][d], w->origin[i], w->size[i]);
}

// collide: the hard non-penetration constraint, after locomotion. Agent
// overlaps are relaxed in Jacobi passes (corrections from one snapshot,
// applied together, so the result does not depend on agent order); shapes
// are applied last and always win.
static int pass_collide(steer_World *w, uint32_t n)
{
    int dim = w->dim;
    if (!w->push[0] || w->push_cap < w->cap || (w->any_kinematic && !w->held)) {
        size_t cap = w->cap ? w->cap : 1;
        for (int i = 0; i < dim; i++)
            if (!steerA_array_resize(w, &w->push[i], sizeof(float) * cap)) return STEER_ENOMEM;
        // (held, once it exists, keeps the size of push)
        if ((w->any_kinematic || w->held) && !steerA_array_resize(w, &w->held, cap)) return STEER_ENOMEM;
        w->push_cap = w->cap;
    }
    if (w->any_kinematic)
        for (uint32_t d = 0; d < n; d++) w->held[d] = steerW_kinematic(w, d);
    CollideJob job;
    job.r = (Range){ n, steerP_items(w, n) };
    job.maxr = 0.0f;
    for (uint32_t d = 0; d < n; d++)
        if (w->radius[d] > job.maxr) job.maxr = w->radius[d];
    for (int it = 0; it < w->collide_iterations && job.maxr > 0.0f; it++) {
        int st = steerG_build(w, 2.0f * job.maxr);
        if (st) return st;
        memset(job.any, 0, sizeof job.any);
        st = steerP_run(w, job.r.items, overlap_item, &job);
        if (st) return st;
        bool any = false;
        for (uint32_t k = 0; k < job.r.items; k++) any |= job.any[k] != 0;
        if (!any) break;
        steerP_run(w, job.r.items, push_item, &job);
    }
    return steerP_run(w, job.r.items, shapes_item, &job);
}

// stuck: watch each agent's progress over the stuck window (the world's
// floats at the start of its memory row: anchor position, distance to its
// goal then, time, effort).
static void stuck_item(const steer_World *w, steerW_Local *loc, uint32_t k, void *ctx)
{
    int dim = w->dim;
    float dt = w->dt;
    uint32_t b, e;
    range_of(ctx, k, &b, &e);
    for (uint32_t d = b; d < e; d++) {
        if (!w->brain[d] || steerW_kinematic(w, d)) continue;
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
            steerT_delta(w, p, t, off);
            goal = v3_len(off);
        } else if (fls & STEER_AF_TARGET_AGENT) {
            int64_t td = steerW_dense(w, steerW_target_agent(w, d));
            if (td >= 0) {
                float t[3];
                steerW_load(w->p, (uint32_t)td, t);
                steerT_delta(w, p, t, off);
                goal = v3_len(off);
            }
        }
        float progress;
        if (goal >= 0.0f && row[dim] >= 0.0f) {
            progress = row[dim] - goal;
        } else {
            float a[3] = { row[0], row[1], dim == 3 ? row[2] : 0.0f };
            steerT_delta(w, a, p, off);
            progress = v3_len(off);
        }
        float effort = row[dim + 2] / row[dim + 1];
        if (effort > 0.25f && progress < w->stuck_progress)
            steerT_event_to(loc, w, STEER_EVENT_STUCK, d, STEER_NO_AGENT);
        for (int i = 0; i < dim; i++) row[i] = p[i];
        row[dim] = goal;
        row[dim + 1] = 0.0f;
        row[dim + 2] = 0.0f;
    }
}

static void pass_stuck(steer_World *w, uint32_t n)
{
    Range r = { n, steerP_items(w, n) };
    steerP_run(w, r.items, stuck_item, &r);
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

// ---- the tick ----------------------------------------------------------

// Events by the agent's handle slot, then type, then the other agent: a
// total order on distinct events (equal ones are interchangeable).
static int cmp_event(const void *a, const void *b)
{
    const steer_Event *x = a, *y = b;
    uint32_t sx = (uint32_t)x->agent.id, sy = (uint32_t)y->agent.id;
    if (sx != sy) return sx < sy ? -1 : 1;
    if (x->type != y->type) return x->type < y->type ? -1 : 1;
    return x->other.id < y->other.id ? -1 : x->other.id > y->other.id;
}

// Every slot's work counter at zero for the steer pass, one per slot in use.
static int meter_begin(steer_World *w)
{
    if (w->nslots > w->cap_work) {
        uint32_t *p = steerA_realloc(w, w->work, sizeof *p * w->nslots);
        if (!p) return STEER_ENOMEM;
        w->work = p;
        w->cap_work = w->nslots;
    }
    if (w->cap_work) memset(w->work, 0, sizeof *w->work * w->cap_work);
    return STEER_OK;
}

static int tick(steer_World *w)
{
    // between ticks: drop removed agents so nothing reads them, and the brains nobody uses
    steerT_compact(w);
    steerB_collect_brains(w);
    uint32_t n = w->count;
    w->in_tick = true;
    // grid: rebuild the spatial index, cell = the largest sensing radius
    // (and the shape grid, if the geometry changed since the last tick)
    int st = steerG_build(w, w->sense_radius);
    if (st == STEER_OK) st = steerO_geometry_ready(w);
    if (st == STEER_OK && w->reorder_period > 0 && w->tick % (uint64_t)w->reorder_period == 0) steerT_reorder(w);
    // neighbours + steer: each agent gathers its neighbours once, then its brain runs
    bool fuse = st == STEER_OK && can_fuse(w);
    if (st == STEER_OK && w->meter) st = meter_begin(w);
    if (st == STEER_OK) st = pass_steer(w, fuse);
    // locomote: integrate forces into velocities and positions (done already when fused)
    if (!fuse) pass_locomote(w, n);
    // collide: push agents out of shapes and apart (worlds that ask for it)
    if (w->collide && st == STEER_OK) st = pass_collide(w, n);
    // stuck: the progress watch (worlds that ask for it)
    if (w->mem_base) pass_stuck(w, n);
    // serve: the requests brains wrote this tick (path searches), in their own order, within the budget
    int ss = steerB_serve(w);
    if (st == STEER_OK) st = ss;
    w->tick++;
    w->in_tick = false;
    w->grid_fresh = false;
    // think: host callbacks of the agents whose timers elapsed
    int ts = pass_think(w);
    if (st == STEER_OK) st = ts;
    // events: hand the tick's events to the host after the tick
    if (w->loc.nevents) {
        uint32_t need = w->nout_events + w->loc.nevents;
        if (need > w->cap_out_events) {
            steer_Event *e = steerA_realloc(w, w->out_events, sizeof *e * need);
            if (e) {
                w->out_events = e;
                w->cap_out_events = need;
            }
        }
        if (need <= w->cap_out_events) {
            // in handle order: the passes emit in storage order, which must
            // not decide what the host's handlers see first
            memcpy(w->out_events + w->nout_events, w->loc.events, sizeof *w->loc.events * w->loc.nevents);
            qsort(w->out_events + w->nout_events, w->loc.nevents, sizeof *w->loc.events, cmp_event);
            w->nout_events = need;
        }
        w->loc.nevents = 0;
    }
    return st;
}

int steer_world_set_metering(steer_World *w, bool on)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    w->meter = on;
    if (!on) {
        steerA_free(w, w->work);
        w->work = NULL;
        w->cap_work = 0;
    }
    return STEER_OK;
}

uint32_t steer_agent_work(const steer_World *w, steer_Agent a)
{
    STEERA_WORLD(w, 0);
    uint32_t s = (uint32_t)a.id;
    if (!w->meter || steerW_dense(w, a) < 0 || s >= w->cap_work) return 0;
    return w->work[s];
}

int steer_world_step(steer_World *w, int ticks)
{
    STEERA_WORLD(w, STEER_EARG);
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
