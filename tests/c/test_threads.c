// SPDX-License-Identifier: MIT
// test_threads.c — issue 17's contract: the same seed and inputs give the
// same world, bit for bit, on 1, 2, 3, 4 and 8 threads and however a
// host's job system splits the work. A run records after every tick the
// step's status, its events in order and the world hash (a trace); every
// thread count must give the trace of one thread. The worlds: the standard
// flock big enough that the passes split at the default grain (2D and 3D,
// with and without collide), every workload of workloads.h (also with
// collide and the stuck watch on), a mixed world (crafts, circles, walls
// and a box, the stuck watch, arrive, agent targets) with agents removed
// and spawned between steps, host kinds, custom callbacks and easing
// beside batched brains (they run on the calling thread), host job systems
// (threads taking random ranges in random order; all inline), the count
// changed mid-run and before every tick, bad counts, the default count
// (STEER_THREADS) and snapshots (the count is not saved: a load takes its
// descriptor's, a restore keeps the world's).
//
// Small worlds split only with a small STEER_PAR_GRAIN (agents per item of
// a pass), which this program sets for each world it makes; the big flock
// keeps the default. The thread count is set explicitly wherever runs are
// compared, so STEER_THREADS in the environment (the ThreadSanitizer run
// of run-tests.sh sets it) changes nothing here.
#include "check.h"
#include "workloads.h"

#include "core/os.h" // threads for the host's job system
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int counts[] = { 1, 2, 3, 4, 8 };
enum { NCOUNTS = sizeof counts / sizeof counts[0] };

// Agents per item of a parallel pass for the worlds made next (0: the default).
static void set_grain(int grain)
{
    char s[16];
    snprintf(s, sizeof s, "%d", grain);
    if (grain) setenv("STEER_PAR_GRAIN", s, 1);
    else unsetenv("STEER_PAR_GRAIN");
}

// ---- host callbacks: where they run --------------------------------------

// The thread that called steer_world_step, and the calls of each host
// callback: in all, and on another thread than that.
static _Thread_local bool on_stepper; // set on the thread that calls steer_world_step
enum { SPIN, CUSTOM, EASE, THINK, NCALLBACKS };
static const char *const callback_names[] = { "the host kind", "custom", "ease", "think" };
static atomic_int calls[NCALLBACKS], calls_elsewhere[NCALLBACKS];
static void note_thread(int callback)
{
    atomic_fetch_add(&calls[callback], 1);
    if (!on_stepper) atomic_fetch_add(&calls_elsewhere[callback], 1);
}

// The host kind "spin": a force around the origin, turning faster with
// each call it remembers (one float of memory per agent).
static void spin(void *ud, const steer_HostCtx *c, double f[3])
{
    (void)ud;
    note_thread(SPIN);
    double k = c->params[0] * (1.0 + 0.01 * (c->memory ? c->memory[0] : 0.0f));
    f[0] = -(c->position[1] - 20.0) * k;
    f[1] = (c->position[0] - 20.0) * k;
    if (c->memory) c->memory[0] += 1.0f;
}
static steer_HostKind *spin_kind;

static int custom(void *ud, int ref, steer_World *w, steer_Agent a, double dt, double out[3])
{
    (void)ud;
    note_thread(CUSTOM);
    double v[3];
    if (steer_agent_vec(w, a, STEER_PROP_VELOCITY, v) != STEER_OK) return 1;
    out[0] = -v[1] * ref * dt;
    out[1] = v[0] * ref * dt;
    out[2] = 0;
    return 0;
}

static int ease(void *ud, int ref, double x, double *out)
{
    (void)ud;
    (void)ref;
    note_thread(EASE);
    *out = x * x;
    return 0;
}

static int think(void *ud, int ref, steer_World *w, steer_Agent a, double dt)
{
    (void)ud;
    note_thread(THINK);
    double p[3];
    steer_agent_vec(w, a, STEER_PROP_POSITION, p);
    double t[3] = { p[1] + ref, p[0] - dt, 0 };
    return steer_agent_set_target(w, a, t, STEER_NO_AGENT);
}

// ---- traces -------------------------------------------------------------

// After each tick: the status, the number of events, each event's type,
// agent and other, and the world hash.
typedef struct Trace {
    uint64_t *at;
    size_t n, cap;
} Trace;

static void put(Trace *t, uint64_t v)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 4096;
        t->at = realloc(t->at, sizeof *t->at * t->cap);
        if (!t->at) {
            printf("out of memory\n");
            exit(EXIT_FAILURE);
        }
    }
    t->at[t->n++] = v;
}

static void trace_free(Trace *t)
{
    free(t->at);
    *t = (Trace){ 0 };
}

// One tick onto the trace.
static void step(steer_World *w, Trace *t)
{
    on_stepper = true;
    int st = steer_world_step(w, 1), n = 0;
    const steer_Event *e = steer_world_events(w, &n);
    put(t, (uint64_t)(int64_t)st);
    put(t, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        put(t, (uint64_t)e[i].type);
        put(t, e[i].agent.id);
        put(t, e[i].other.id);
    }
    put(t, steer_world_hash(w));
}

// How many events of each type the trace holds (index: steer_EventType).
static void count_events(const Trace *t, int out[5])
{
    memset(out, 0, sizeof(int) * 5);
    for (size_t i = 0; i + 1 < t->n;) {
        uint64_t n = t->at[i + 1];
        for (uint64_t k = 0; k < n; k++) out[t->at[i + 2 + 3 * k] < 5 ? t->at[i + 2 + 3 * k] : 0]++;
        i += 3 + 3 * n;
    }
}

static const char *event_name(uint64_t type)
{
    static const char *const names[] = { "?", "arrive", "lost_target", "stuck", "collide" };
    return names[type < 5 ? type : 0];
}

// Whether b is the reference trace a; else a failed check naming the
// first tick where they part and how.
static bool same_trace(const Trace *a, const Trace *b, const char *what)
{
    size_t i = 0, j = 0;
    for (int tick = 1; i < a->n && j < b->n; tick++) {
        const uint64_t *x = a->at + i, *y = b->at + j;
        if (x[0] != y[0]) {
            CHECK(false, "%s: tick %d: status %d, on one thread %d", what, tick, (int)y[0], (int)x[0]);
            return false;
        }
        if (x[1] != y[1] || memcmp(x + 2, y + 2, sizeof *x * 3 * x[1]) != 0) {
            uint64_t k = 0;
            while (k < x[1] && k < y[1] && memcmp(x + 2 + 3 * k, y + 2 + 3 * k, sizeof *x * 3) == 0) k++;
            if (k < x[1] && k < y[1])
                CHECK(false, "%s: tick %d: event %d is %s of slot %u, on one thread %s of slot %u", what, tick, (int)k,
                      event_name(y[2 + 3 * k]), (unsigned)(uint32_t)y[3 + 3 * k], event_name(x[2 + 3 * k]),
                      (unsigned)(uint32_t)x[3 + 3 * k]);
            else
                CHECK(false, "%s: tick %d: %d events, on one thread %d (the first %d alike)", what, tick, (int)y[1],
                      (int)x[1], (int)k);
            return false;
        }
        i += 2 + 3 * x[1];
        j += 2 + 3 * y[1];
        if (a->at[i] != b->at[j]) {
            CHECK(false, "%s: tick %d: hash %016llx, on one thread %016llx", what, tick, (unsigned long long)b->at[j],
                  (unsigned long long)a->at[i]);
            return false;
        }
        i++;
        j++;
    }
    CHECK(i == a->n && j == b->n, "%s: a trace of another length", what);
    return i == a->n && j == b->n;
}

// ---- the worlds ---------------------------------------------------------

// Big enough that every pass splits at the default grain (2048 agents per
// item): 4 items, which 3 threads share unevenly and 8 leave idle.
enum { BIG = 8500 };
static steer_World *big2d(const steer_WorldDesc *base) { return flock_world(base, 2, BIG, false); }
static steer_World *big2d_collide(const steer_WorldDesc *base) { return flock_world(base, 2, BIG, true); }
static steer_World *big3d(const steer_WorldDesc *base) { return flock_world(base, 3, BIG, false); }
static steer_World *big3d_collide(const steer_WorldDesc *base) { return flock_world(base, 3, BIG, true); }

// The live agents by handle (storage order is the world's to choose).
static int handles(steer_World *w, steer_Agent **out)
{
    int n = steer_world_count(w);
    steer_Agent *a = malloc(sizeof *a * (size_t)(n ? n : 1));
    if (!a) exit(EXIT_FAILURE);
    steer_world_agents(w, a, n);
    for (int i = 1; i < n; i++) // insertion sort: a few hundred agents
        for (int k = i; k > 0 && a[k - 1].id > a[k].id; k--) {
            steer_Agent t = a[k];
            a[k] = a[k - 1];
            a[k - 1] = t;
        }
    *out = a;
    return n;
}

static const steer_CraftDesc craft = { .model = STEER_MODEL_CRAFT, .min_speed = 0.5, .min_turn_radius = 1.5 };

// The crowd of workloads.h with the stuck watch on, a box and a wall among
// its posts, a third of it crafts, and every fifth agent arriving at
// another agent instead of its point.
static steer_World *mixed(const steer_WorldDesc *base)
{
    steer_WorldDesc d = base ? *base : (steer_WorldDesc){ 0 };
    d.stuck_window = 0.5;
    d.stuck_progress = 0.3;
    steer_World *w = crowd(&d);
    const double lo[3] = { 24, 6, 0 }, hi[3] = { 27, 9, 0 }, from[3] = { 32, -6, 0 }, to[3] = { 34, 2, 0 };
    steer_add_box(w, lo, hi, NULL);
    steer_add_wall(w, from, to, NULL);
    steer_Agent *a;
    int n = handles(w, &a);
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0) steer_agent_set_craft(w, a[i], &craft);
        if (i % 5 == 1) steer_agent_set_target(w, a[i], NULL, a[(i + 7) % n]);
    }
    free(a);
    return w;
}

// Before some ticks: remove every sixth agent (their pursuers lose them)
// and spawn new ones with the brains of survivors, some crafts, some
// arriving at an agent.
static void churn(steer_World *w, int tick)
{
    if (tick % 20 != 10) return;
    steer_Agent *a;
    int n = handles(w, &a);
    for (int i = tick / 20 % 6; i < n; i += 6) steer_remove(w, a[i]);
    double origin[3], size[3];
    bool wrap;
    steer_world_bounds(w, origin, size, &wrap);
    uint32_t s = 1000u + (uint32_t)tick;
    for (int k = 0; k < n / 8; k++) {
        steer_Agent like = a[(k * 5 + 1) % n], b;
        if (!steer_alive(w, like)) like = a[(k * 5 + 2) % n];
        steer_AgentDesc ad = { .max_speed = 2, .max_force = 3 };
        steer_agent_brain(w, like, &ad.brain);
        for (int i = 0; i < steer_world_dim(w); i++) {
            ad.position[i] = size[i] > 0 ? origin[i] + size[i] * unit(&s) : between(&s, -10, 40);
            ad.velocity[i] = between(&s, -1, 1);
        }
        if (steer_spawn(w, &ad, &b) != STEER_OK) continue;
        if (k % 3 == 0) steer_agent_set_craft(w, b, &craft);
        if (k % 4 == 1) steer_agent_set_target(w, b, NULL, a[(k * 7 + 3) % n]);
        if (k % 4 == 2) steer_agent_set_target(w, b, ad.position, STEER_NO_AGENT);
    }
    free(a);
}

// A batched flock (its brain runs batched) with every fourth agent's brain
// calling the host: the host kind spin, steer.custom, arrive easing through
// the host, and thinkers.
static steer_World *host_world(const steer_WorldDesc *base)
{
    steer_WorldDesc d = base ? *base : (steer_WorldDesc){ 0 };
    d.hooks.custom = custom;
    d.hooks.ease = ease;
    d.hooks.think = think;
    steer_World *w = flock_world(&d, 2, 1500, false);
    steer_Behavior *spinner = leaf("blend"), *host = NULL, *sep = leaf("separation");
    if (steer_behavior_new_host(spin_kind, &host) != STEER_OK) exit(EXIT_FAILURE);
    num(host, "k", 0.02);
    adopt(spinner, host, 1);
    adopt(spinner, sep, 1);
    steer_Behavior *custom_brain = leaf("blend"), *fn = leaf("custom");
    steer_behavior_set_callback(fn, "fn", 3);
    adopt(custom_brain, fn, 0.5);
    adopt(custom_brain, leaf("wander"), 0.2);
    steer_Behavior *arrive = leaf("arrive");
    num(arrive, "slow_radius", 6);
    steer_behavior_set_callback(arrive, "ease", 9);
    steer_Agent *a;
    int n = handles(w, &a);
    for (int i = 0; i < n; i += 4) {
        steer_Behavior *brain = i % 12 == 0 ? spinner : i % 12 == 4 ? custom_brain : arrive;
        steer_agent_set_brain(w, a[i], brain);
        if (brain == arrive) {
            double p[3] = { (i * 37) % 60, (i * 11) % 60, 0 };
            steer_agent_set_target(w, a[i], p, STEER_NO_AGENT);
            if (i % 24 == 8) steer_agent_set_think(w, a[i], i, 3);
        }
    }
    free(a);
    steer_behavior_release(spinner);
    steer_behavior_release(custom_brain);
    steer_behavior_release(arrive);
    return w;
}

static steer_World *flock_small(const steer_WorldDesc *base) { return flock_world(base, 2, 800, true); }

typedef struct Scenario {
    const char *name;
    steer_World *(*make)(const steer_WorldDesc *base);
    int ticks;
    int grain;                                // STEER_PAR_GRAIN for its worlds (0: the default)
    void (*before)(steer_World *w, int tick); // NULL, or changes before tick `tick` (0-based)
} Scenario;

static const Scenario big[] = {
    { "flock 2D", big2d, 3, 0, NULL },
    { "flock 2D collide", big2d_collide, 3, 0, NULL },
    { "flock 3D", big3d, 3, 0, NULL },
    { "flock 3D collide", big3d_collide, 3, 0, NULL },
};
static const Scenario mixed_churn = { "mixed with removals and spawns", mixed, 80, 4, churn };
static const Scenario flock_churn = { "flock collide with removals and spawns", flock_small, 45, 64, churn };
static const Scenario crafts_churn = { "crafts3d with removals and spawns", crafts3d, 90, 2, churn };
static const Scenario host_calls = { "host kind, custom, ease and think beside a batched flock", host_world, 40, 32,
                                     NULL };

static steer_World *make(const Scenario *sc, const steer_WorldDesc *base)
{
    set_grain(sc->grain);
    steer_World *w = sc->make(base);
    if (!w) {
        printf("%s: no world\n", sc->name);
        exit(EXIT_FAILURE);
    }
    return w;
}

// Ticks [from, to) of the scenario onto the trace.
static void advance(const Scenario *sc, steer_World *w, int from, int to, Trace *t)
{
    for (int tick = from; tick < to; tick++) {
        if (sc->before) sc->before(w, tick);
        step(w, t);
    }
}

// The whole scenario from base, on `threads` threads.
static void run(const Scenario *sc, const steer_WorldDesc *base, int threads, Trace *t)
{
    steer_WorldDesc d = base ? *base : (steer_WorldDesc){ 0 };
    d.threads = threads;
    steer_World *w = make(sc, &d);
    CHECK(steer_world_threads(w) == threads, "%s: the world has %d threads, not %d", sc->name, steer_world_threads(w),
          threads);
    advance(sc, w, 0, sc->ticks, t);
    steer_world_free(w);
}

// The scenario's trace on one thread (ref) and the same on every count.
static void same_on_every_count(const Scenario *sc, const steer_WorldDesc *base, Trace *ref)
{
    run(sc, base, 1, ref);
    for (int k = 1; k < NCOUNTS; k++) {
        Trace t = { 0 };
        char what[160];
        run(sc, base, counts[k], &t);
        snprintf(what, sizeof what, "%s on %d threads", sc->name, counts[k]);
        same_trace(ref, &t, what);
        trace_free(&t);
    }
}

// ---- a host's job system ----------------------------------------------

// A fake host job system: each task's items cut into ranges of random
// lengths (at least min_range, the last maybe shorter), run in random
// order by 1 to twice the world's thread count of its own threads, and by
// the calling thread as well once it waits in finish_task; each range
// passes a random worker number, shared by several threads at once (the
// contract leaves it to the host). Some tasks (every one with inline_only)
// run on the calling thread at once, range by range, and give NULL.
typedef struct Host {
    int workers; // the world's thread count
    bool inline_only;
    uint32_t rng;
    int tasks, split, bad; // tasks enqueued, of them run in more than one range, contract breaches
    bool busy;             // a task enqueued and not yet finished
    steer_TaskFn *task;
    void *task_ctx;
    int (*ranges)[3]; // begin, end, worker
    int nranges, cap;
    atomic_int next;
    int nthreads;
    steerY_Thread th[2 * STEER_MAX_THREADS];
} Host;

static uint32_t host_rand(Host *h, uint32_t below)
{
    h->rng ^= h->rng << 13;
    h->rng ^= h->rng >> 17;
    h->rng ^= h->rng << 5;
    return h->rng % below;
}

static steerY_ThreadResult STEERY_THREAD host_main(void *arg)
{
    Host *h = arg;
    for (;;) {
        int i = atomic_fetch_add(&h->next, 1);
        if (i >= h->nranges) return 0;
        h->task(h->ranges[i][0], h->ranges[i][1], h->ranges[i][2], h->task_ctx);
    }
}

static void *enqueue(steer_TaskFn *task, int count, int min_range, void *task_ctx, void *host_ctx)
{
    Host *h = host_ctx;
    if (h->busy || count < 1 || min_range < 1) h->bad++;
    h->tasks++;
    h->nranges = 0;
    for (int at = 0; at < count;) {
        int len = min_range * (1 + (int)host_rand(h, 3));
        if (h->nranges == h->cap) {
            h->cap = h->cap ? 2 * h->cap : 64;
            h->ranges = realloc(h->ranges, sizeof *h->ranges * (size_t)h->cap);
            if (!h->ranges) exit(EXIT_FAILURE);
        }
        int *r = h->ranges[h->nranges++];
        r[0] = at;
        r[1] = at + len < count ? at + len : count;
        r[2] = (int)host_rand(h, (uint32_t)h->workers);
        at += len;
    }
    h->split += h->nranges > 1;
    for (int i = h->nranges - 1; i > 0; i--) { // random order
        int k = (int)host_rand(h, (uint32_t)i + 1), t[3];
        memcpy(t, h->ranges[i], sizeof t);
        memcpy(h->ranges[i], h->ranges[k], sizeof t);
        memcpy(h->ranges[k], t, sizeof t);
    }
    h->task = task;
    h->task_ctx = task_ctx;
    atomic_store(&h->next, 0);
    if (h->inline_only || host_rand(h, 4) == 0) {
        host_main(h);
        return NULL;
    }
    h->busy = true;
    h->nthreads = 0;
    int want = 1 + (int)host_rand(h, 2 * (uint32_t)h->workers);
    while (h->nthreads < want && steerY_thread_start(&h->th[h->nthreads], host_main, h)) h->nthreads++;
    return h;
}

static void finish(void *task, void *host_ctx)
{
    Host *h = host_ctx;
    if (task != h || !h->busy) h->bad++;
    host_main(h); // the waiting thread helps
    for (int i = 0; i < h->nthreads; i++) steerY_thread_join(h->th[i]);
    h->nthreads = 0;
    h->busy = false;
}

static steer_WorldDesc hosted(Host *h, int workers, bool inline_only, uint32_t seed)
{
    free(h->ranges);
    *h = (Host){ .workers = workers, .inline_only = inline_only, .rng = seed };
    steer_WorldDesc d = { .threads = workers, .enqueue_task = enqueue, .finish_task = finish, .task_ctx = h };
    return d;
}

// The scenario through the fake host on each count and all inline: the
// trace of one thread, and the host really got tasks of several items.
static void same_through_host(const Scenario *sc, const Trace *ref, const int *on, int ncounts)
{
    Host h = { 0 };
    for (int k = 0; k < ncounts; k++)
        for (int mode = 0; mode < 2; mode++) {
            steer_WorldDesc d = hosted(&h, on[k], mode == 1, 0x9E3779B9u * (uint32_t)(k + 1));
            Trace t = { 0 };
            char what[200];
            set_grain(sc->grain);
            steer_World *w = sc->make(&d);
            REQUIRE(w, "%s: no world", sc->name);
            advance(sc, w, 0, sc->ticks, &t);
            steer_world_free(w);
            snprintf(what, sizeof what, "%s through a host job system%s on %d workers", sc->name,
                     mode ? " (all inline)" : "", on[k]);
            same_trace(ref, &t, what);
            CHECK(h.split > 0, "%s: no task of more than one range (%d tasks): the passes did not split", what,
                  h.tasks);
            CHECK(h.bad == 0, "%s: the world broke the job system's contract %d times", what, h.bad);
            trace_free(&t);
        }
    free(h.ranges);
}

// ---- the tests ----------------------------------------------------------

// The standard flock at 12,000 agents, 2D and 3D, with and without collide:
// the same trace on every count, and through a host's job system, whose
// tasks show that the passes split at the default grain.
static void test_big_flock(void)
{
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        Trace ref = { 0 };
        same_on_every_count(&big[i], NULL, &ref);
        if (i == 1) same_through_host(&big[i], &ref, (const int[]){ 3, 8 }, 2);
        trace_free(&ref);
    }
}

// Every workload of workloads.h on every count, as test_hashes runs it and
// with collide and the stuck watch on, in items of a few agents.
static void test_workloads(void)
{
    steer_WorldDesc on = { .collide = true, .stuck_window = 0.5, .stuck_progress = 0.3 };
    int events[5] = { 0 };
    for (int k = 0; k < NWORK; k++)
        for (int with = 0; with < 2; with++) {
            char name[64];
            snprintf(name, sizeof name, "%s%s", workloads[k].name, with ? " with collide and stuck" : "");
            Scenario sc = { name, workloads[k].make, workloads[k].ticks / 20, 3, NULL };
            Trace ref = { 0 };
            same_on_every_count(&sc, with ? &on : NULL, &ref);
            int e[5];
            count_events(&ref, e);
            for (int i = 0; i < 5; i++) events[i] += e[i];
            trace_free(&ref);
        }
    CHECK(events[STEER_EVENT_COLLIDE] > 0 && events[STEER_EVENT_STUCK] > 0,
          "the workloads raised %d collide and %d stuck events: nothing compared", events[STEER_EVENT_COLLIDE],
          events[STEER_EVENT_STUCK]);
}

// Crafts, shapes, the stuck watch, arrive and agent targets, with agents
// removed and spawned between steps: the same trace (each event in its
// order) on every count and through a host's job system; every kind of
// event happens.
static void test_mixed(void)
{
    Trace ref = { 0 };
    same_on_every_count(&mixed_churn, NULL, &ref);
    int e[5];
    count_events(&ref, e);
    for (int type = STEER_EVENT_ARRIVE; type <= STEER_EVENT_COLLIDE; type++)
        CHECK(e[type] > 0, "the mixed world raised no %s event in %d ticks", event_name((uint64_t)type),
              mixed_churn.ticks);
    same_through_host(&mixed_churn, &ref, (const int[]){ 3, 8 }, 2);
    trace_free(&ref);
    same_on_every_count(&flock_churn, NULL, &ref);
    trace_free(&ref);
    same_on_every_count(&crafts_churn, NULL, &ref);
    trace_free(&ref);
}

// Brains that call the host (a host kind, steer.custom, arrive's easing)
// beside a batched flock, and thinkers: the same trace on every count and
// through a host's job system, every call on the thread that stepped.
static void test_host_calls(void)
{
    Trace ref = { 0 };
    same_on_every_count(&host_calls, NULL, &ref);
    same_through_host(&host_calls, &ref, (const int[]){ 4 }, 1);
    trace_free(&ref);
    for (int k = 0; k < NCALLBACKS; k++) {
        int all = atomic_load(&calls[k]), elsewhere = atomic_load(&calls_elsewhere[k]);
        CHECK(all > 0, "%s was never called", callback_names[k]);
        CHECK(elsewhere == 0, "%d of %d calls of %s ran on another thread than steer_world_step's", elsewhere, all,
              callback_names[k]);
    }
}

// steer_world_set_threads between steps (1, then 4, then 2) keeps the
// trajectory; bad counts are refused and change nothing.
static void test_set_threads(void)
{
    const Scenario *scs[] = { &mixed_churn, &big[1] };
    for (int s = 0; s < 2; s++) {
        const Scenario *sc = scs[s];
        Trace ref = { 0 }, t = { 0 };
        run(sc, NULL, 1, &ref);
        steer_World *w = make(sc, &(steer_WorldDesc){ .threads = 1 });
        int third = sc->ticks / 3;
        advance(sc, w, 0, third, &t);
        CHECK(steer_world_set_threads(w, 4) == STEER_OK && steer_world_threads(w) == 4, "set_threads(4)");
        advance(sc, w, third, 2 * third, &t);
        CHECK(steer_world_set_threads(w, 2) == STEER_OK && steer_world_threads(w) == 2, "set_threads(2)");
        advance(sc, w, 2 * third, sc->ticks, &t);
        char what[160];
        snprintf(what, sizeof what, "%s on 1, then 4, then 2 threads", sc->name);
        same_trace(&ref, &t, what);
        const int bad[] = { 0, -1, 65, STEER_MAX_THREADS + 1, -2147483647 - 1 };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
            CHECK(steer_world_set_threads(w, bad[i]) == STEER_EARG && steer_world_threads(w) == 2,
                  "set_threads(%d) is not refused with STEER_EARG, or changed the count", bad[i]);
        CHECK(steer_world_set_threads(w, STEER_MAX_THREADS) == STEER_OK && steer_world_threads(w) == STEER_MAX_THREADS,
              "set_threads(%d), the most", STEER_MAX_THREADS);
        steer_world_free(w);
        trace_free(&ref);
        trace_free(&t);
    }
}

// Before every tick another count (the pool stops and starts again each
// time, its new threads meeting a pool that has run before).
static void cycle_threads(steer_World *w, int tick)
{
    steer_world_set_threads(w, counts[(tick + 1) % NCOUNTS] + (tick / NCOUNTS) % 2);
}
static steer_World *flock_tiny(const steer_WorldDesc *base) { return flock_world(base, 2, 300, false); }

// The count changed before every tick, many times over: the trajectory of
// one thread (a pool restarted in a bad state shows as a hang or another
// hash).
static void test_threads_every_tick(void)
{
    Scenario fixed = { "a flock of 300 with its count changed before every tick", flock_tiny, 1000, 1, NULL };
    Scenario cycled = fixed;
    cycled.before = cycle_threads;
    Trace ref = { 0 }, t = { 0 };
    run(&fixed, NULL, 1, &ref);
    run(&cycled, NULL, 1, &t);
    same_trace(&ref, &t, cycled.name);
    trace_free(&ref);
    trace_free(&t);
}

// steer_world_new refuses a count out of range and half a job system.
static void test_bad_desc(void)
{
    Host h = { 0 };
    const steer_WorldDesc bad[] = {
        { .threads = 65 },
        { .threads = STEER_MAX_THREADS + 1 },
        { .threads = -1 },
        { .threads = 2, .enqueue_task = enqueue },
        { .threads = 2, .finish_task = finish, .task_ctx = &h },
        { .enqueue_task = enqueue },
    };
    steer_World *w = NULL;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(steer_world_new(&bad[i], &w) == STEER_EARG && w == NULL, "bad descriptor %d was not refused", (int)i);
    CHECK(steer_world_new(&(steer_WorldDesc){ .threads = STEER_MAX_THREADS }, &w) == STEER_OK &&
              steer_world_threads(w) == STEER_MAX_THREADS,
          "a world on %d threads", STEER_MAX_THREADS);
    steer_world_free(w);
}

// STEER_THREADS (NULL: unset), the thread count of the worlds made next
// whose descriptor leaves it 0. The tests that set it unset it again.
static void set_default_threads(const char *count)
{
    if (count) setenv("STEER_THREADS", count, 1);
    else unsetenv("STEER_THREADS");
}

// STEER_THREADS is the count of worlds whose descriptor leaves it 0.
static void test_default_count(void)
{
    struct {
        const char *env; // NULL: unset
        int threads, want;
    } cases[] = { { NULL, 0, 1 }, { "5", 0, 5 }, { "5", 2, 2 }, { "64", 0, 64 },
                  { "65", 0, 1 }, { "0", 0, 1 }, { "x", 0, 1 }, { "", 0, 1 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        set_default_threads(cases[i].env);
        steer_World *w = NULL;
        REQUIRE(steer_world_new(&(steer_WorldDesc){ .threads = cases[i].threads }, &w) == STEER_OK, "world");
        CHECK(steer_world_threads(w) == cases[i].want, "STEER_THREADS=%s, threads %d: %d threads, not %d",
              cases[i].env ? cases[i].env : "(unset)", cases[i].threads, steer_world_threads(w), cases[i].want);
        steer_world_free(w);
    }
    set_default_threads(NULL);
}

static unsigned char *save(const steer_World *w, size_t *len)
{
    *len = 0;
    steer_world_save_buffer(w, NULL, 0, len);
    unsigned char *b = malloc(*len ? *len : 1);
    if (!b || steer_world_save_buffer(w, b, *len, len) != STEER_OK) {
        free(b);
        return NULL;
    }
    return b;
}

// The ticks of t from `tick` on.
static Trace suffix(const Trace *t, int tick)
{
    size_t i = 0;
    for (int k = 0; k < tick && i + 1 < t->n; k++) i += 3 + 3 * t->at[i + 1];
    Trace out = { 0 };
    for (; i < t->n; i++) put(&out, t->at[i]);
    return out;
}

// Snapshots: a world on 4 threads saves the bytes it does on 1 (the count
// is not state); a load runs on its descriptor's count (or the default)
// and a restore on the world's own, each to the trace of one thread.
static void test_snapshots(void)
{
    const Scenario *sc = &mixed_churn;
    enum { HALF = 50 };
    Trace ref = { 0 }, t = { 0 };
    run(sc, NULL, 1, &ref);
    Trace rest = suffix(&ref, HALF);
    steer_World *one = make(sc, &(steer_WorldDesc){ .threads = 1 });
    steer_World *four = make(sc, &(steer_WorldDesc){ .threads = 4 });
    advance(sc, one, 0, HALF, &t);
    advance(sc, four, 0, HALF, &t);
    trace_free(&t);
    size_t len1, len4;
    unsigned char *b1 = save(one, &len1), *b4 = save(four, &len4);
    REQUIRE(b1 && b4, "save");
    CHECK(len1 == len4 && memcmp(b1, b4, len1) == 0, "a world on 4 threads saves other bytes than on 1");
    Host h = { 0 };
    struct {
        const char *what, *env;
        steer_WorldDesc d;
        int want;
    } loads[] = {
        { "a load with threads = 3", NULL, { .threads = 3 }, 3 },
        { "a load with threads = 8 and STEER_THREADS=2", "2", { .threads = 8 }, 8 },
        { "a load with threads = 0 and no STEER_THREADS", NULL, { 0 }, 1 },
        { "a load with threads = 0 and STEER_THREADS=5", "5", { 0 }, 5 },
        { "a load through a host job system on 4 workers", NULL, hosted(&h, 4, false, 77), 4 },
    };
    char err[256];
    for (size_t i = 0; i < sizeof loads / sizeof loads[0]; i++) {
        set_default_threads(loads[i].env);
        steer_World *w = NULL;
        set_grain(sc->grain);
        REQUIRE(steer_world_load(&loads[i].d, b4, len4, &w, err, sizeof err) == STEER_OK, "%s: %s", loads[i].what, err);
        CHECK(steer_world_threads(w) == loads[i].want, "%s: %d threads, not %d", loads[i].what, steer_world_threads(w),
              loads[i].want);
        advance(sc, w, HALF, sc->ticks, &t);
        same_trace(&rest, &t, loads[i].what);
        trace_free(&t);
        steer_world_free(w);
    }
    set_default_threads(NULL);
    CHECK(h.split > 0, "the loaded world gave its host no task of several ranges");
    free(h.ranges);
    steer_World *w = NULL;
    CHECK(steer_world_load(&(steer_WorldDesc){ .threads = 65 }, b4, len4, &w, err, sizeof err) == STEER_EARG &&
              w == NULL,
          "a load with threads = 65 was not refused");
    // a restore keeps the world's count: a world on 2 threads, rewound to
    // the snapshot of the one on 4, goes on on 2 as the one on 1 did
    steer_World *two = make(sc, &(steer_WorldDesc){ .threads = 2 });
    advance(sc, two, 0, 7, &t);
    trace_free(&t);
    REQUIRE(steer_world_restore(two, b4, len4, err, sizeof err) == STEER_OK, "restore: %s", err);
    CHECK(steer_world_threads(two) == 2, "a restore changed the count to %d", steer_world_threads(two));
    advance(sc, two, HALF, sc->ticks, &t);
    same_trace(&rest, &t, "a world on 2 threads restored to a snapshot taken on 4");
    trace_free(&t);
    // and the saved world on 4 goes on as the one on 1
    advance(sc, four, HALF, sc->ticks, &t);
    same_trace(&rest, &t, "the saved world on 4 threads, stepped on");
    trace_free(&t);
    trace_free(&rest);
    trace_free(&ref);
    free(b1);
    free(b4);
    steer_world_free(one);
    steer_world_free(four);
    steer_world_free(two);
}

// Metering (steer_world_set_metering, which bounds a mod's agents): each
// agent's work units are the same on every thread count, tick after tick,
// in the mixed world with churn (shapes, neighbours, crafts) and the host
// calls' world; and metering changes nothing of the trajectory.
static void metered_run(const Scenario *sc, int threads, bool meter, uint64_t *units, uint64_t *hash, uint64_t *total)
{
    set_grain(sc->grain);
    steer_WorldDesc d = { .threads = threads };
    steer_World *w = sc->make(&d);
    *units = 1469598103934665603ULL;
    *total = 0;
    if (!w) return;
    steer_world_set_metering(w, meter);
    for (int t = 0; t < sc->ticks; t++) {
        if (sc->before) sc->before(w, t);
        steer_world_step(w, 1);
        steer_Agent *a;
        int n = handles(w, &a);
        for (int i = 0; i < n; i++) {
            uint32_t u = steer_agent_work(w, a[i]);
            *total += u;
            *units = (*units ^ (a[i].id * 31 + u)) * 1099511628211ULL;
        }
        free(a);
    }
    *hash = steer_world_hash(w);
    steer_world_free(w);
    set_grain(0);
}

static void test_metering(void)
{
    const Scenario *scs[] = { &mixed_churn, &host_calls };
    for (int k = 0; k < 2; k++) {
        uint64_t ref_units, ref_hash, plain_hash, units, hash, total, ref_total;
        metered_run(scs[k], 1, true, &ref_units, &ref_hash, &ref_total);
        metered_run(scs[k], 1, false, &units, &plain_hash, &total);
        CHECK(ref_total > 0, "%s: no work counted", scs[k]->name);
        CHECK(total == 0, "%s: work counted without metering", scs[k]->name);
        CHECK(plain_hash == ref_hash, "%s: metering changed the world", scs[k]->name);
        for (int c = 1; c < NCOUNTS; c++) {
            metered_run(scs[k], counts[c], true, &units, &hash, &total);
            CHECK(units == ref_units && total == ref_total, "%s on %d threads: %llu units, %llu on one", scs[k]->name,
                  counts[c], (unsigned long long)total, (unsigned long long)ref_total);
        }
    }
}

int main(void)
{
    static const char *const params[] = { "k", NULL };
    steer_HostBehaviorDesc hd = { .name = "spin", .params = params, .memory = 1, .fn = spin };
    if (steer_host_kind_new(&hd, &spin_kind) != STEER_OK) return EXIT_FAILURE;
    RUN(test_big_flock);
    RUN(test_workloads);
    RUN(test_mixed);
    RUN(test_host_calls);
    RUN(test_set_threads);
    RUN(test_threads_every_tick);
    RUN(test_bad_desc);
    RUN(test_default_count);
    RUN(test_snapshots);
    RUN(test_metering);
    set_grain(0);
    steer_host_kind_free(spin_kind);
    return check_report_("threads");
}
