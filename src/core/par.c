// SPDX-License-Identifier: MIT
// par.c — the worker threads: the built-in pool, the host's job system,
// and the per-worker copies of the world a parallel pass runs on.
//
// The pool (os.h's threads) has threads - 1 workers; the calling thread is
// worker 0 and takes items too. Items are handed out one at a time from an
// atomic counter, so a slow worker does not hold the others up. Between
// passes a worker spins briefly (a tick has several passes a few hundred
// microseconds apart), then sleeps on a condition variable.
#include "par.h"
#include "neighbors.h"

#include "os.h"

#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

// One parallel pass. A range of items runs on a view of the world held
// for it alone: `busy` has a bit per view in use, so views are handed out
// by steer, not by the host's worker index, and any host thread may run
// any range.
typedef struct Job {
    steer_World *w;
    steerP_ItemFn *fn;
    void *ctx;
    int nviews;                // the world and threads - 1 copies
    atomic_uint_fast64_t busy; // bit k: view k is in use
    uint64_t pass;             // copies made for another pass are made again
} Job;

typedef struct Start {
    struct steerP_Pool *pool;
    int worker;
    uint64_t seen; // the pool's generation when the thread started (a restarted pool counts on)
} Start;

struct steerP_Pool {
    steerY_Mutex lock; // the world's allocator and log during a parallel pass (first: base.c locks it)
    bool started;      // the threads below run (not with a host's job system)
    int nthreads;
    steerY_Thread th[STEER_MAX_THREADS];
    Start start[STEER_MAX_THREADS]; // what each thread is told when it starts
    steerY_Mutex mu;
    steerY_Cond wake, done;
    // the current task, published under mu with a new generation
    steer_TaskFn *task;
    void *task_ctx;
    int count;
    atomic_uint_fast64_t gen;
    atomic_int next;    // the next item to hand out
    atomic_int running; // pool threads still in the current task
    atomic_bool quit;
};

// Waiting for the next pass or for the pool: SPINS polls, the first with
// a pause instruction, then yielding the core (a tick's passes follow each
// other within microseconds, so a sleep would cost more than the wait;
// between ticks the threads sleep).
#define SPINS 2000
static inline void relax(int spin)
{
    if (spin < 1000) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    } else {
        steerY_yield();
    }
}

// Take items of the current task until none are left.
static void take_items(struct steerP_Pool *p, int worker)
{
    for (;;) {
        int i = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
        if (i >= p->count) return;
        p->task(i, i + 1, worker, p->task_ctx);
    }
}

static steerY_ThreadResult STEERY_THREAD pool_main(void *arg)
{
    const Start *s = arg;
    struct steerP_Pool *p = s->pool;
    int worker = s->worker;
    uint64_t seen = s->seen;
    for (;;) {
        // spin a little for the next pass, then sleep
        uint64_t g = atomic_load_explicit(&p->gen, memory_order_acquire);
        for (int spin = 0; g == seen && spin < SPINS && !atomic_load_explicit(&p->quit, memory_order_relaxed); spin++) {
            relax(spin);
            g = atomic_load_explicit(&p->gen, memory_order_acquire);
        }
        if (g == seen) {
            steerY_mutex_lock(&p->mu);
            while (!atomic_load(&p->quit) && atomic_load_explicit(&p->gen, memory_order_acquire) == seen)
                steerY_cond_wait(&p->wake, &p->mu);
            bool quit = atomic_load(&p->quit);
            g = atomic_load_explicit(&p->gen, memory_order_acquire);
            steerY_mutex_unlock(&p->mu);
            if (quit) return 0;
        }
        seen = g;
        take_items(p, worker);
        if (atomic_fetch_sub_explicit(&p->running, 1, memory_order_acq_rel) == 1) {
            steerY_mutex_lock(&p->mu);
            steerY_cond_signal(&p->done);
            steerY_mutex_unlock(&p->mu);
        }
    }
}

// Run task over [0, count) on the pool and the calling thread (worker 0).
static void pool_run(struct steerP_Pool *p, steer_TaskFn *task, int count, void *ctx)
{
    p->task = task;
    p->task_ctx = ctx;
    p->count = count;
    atomic_store_explicit(&p->next, 0, memory_order_relaxed);
    atomic_store_explicit(&p->running, p->nthreads, memory_order_relaxed);
    steerY_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    steerY_cond_broadcast(&p->wake);
    steerY_mutex_unlock(&p->mu);
    take_items(p, 0);
    // wait for the pool: spin while it finishes its last items, then sleep
    for (int spin = 0; spin < SPINS && atomic_load_explicit(&p->running, memory_order_acquire); spin++) relax(spin);
    if (atomic_load_explicit(&p->running, memory_order_acquire)) {
        steerY_mutex_lock(&p->mu);
        while (atomic_load_explicit(&p->running, memory_order_acquire)) steerY_cond_wait(&p->done, &p->mu);
        steerY_mutex_unlock(&p->mu);
    }
}

static void pool_stop(struct steerP_Pool *p)
{
    if (!p->started) return;
    steerY_mutex_lock(&p->mu);
    atomic_store(&p->quit, true);
    steerY_cond_broadcast(&p->wake);
    steerY_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nthreads; i++) steerY_thread_join(p->th[i]);
    p->started = false;
    p->nthreads = 0;
    atomic_store(&p->quit, false);
}

// Start the pool's threads for workers 1 .. n-1; false when the system refuses.
static bool pool_start(struct steerP_Pool *p, int n)
{
    for (int k = 1; k < n; k++) {
        Start *s = &p->start[p->nthreads];
        *s = (Start){ p, k, atomic_load_explicit(&p->gen, memory_order_relaxed) };
        if (!steerY_thread_start(&p->th[p->nthreads], pool_main, s)) break;
        p->nthreads++;
    }
    p->started = true;
    if (p->nthreads == n - 1) return true;
    pool_stop(p);
    return false;
}

// ---- the world's side ----------------------------------------------------

// View k's scratch: the world's own (0) or copy k's.
static steerW_Local *view_loc(steer_World *w, int k) { return k ? &w->copies[k - 1].loc : &w->loc; }

static void local_free(steer_World *w, steerW_Local *l)
{
    steerA_free(w, l->scratch);
    steerA_free(w, l->near.items);
    steerA_free(w, l->near.start);
    steerA_free(w, l->found);
    steerA_free(w, l->stamp);
    steerA_free(w, l->events);
    steerA_free(w, l->tmp);
    memset(l, 0, sizeof *l);
}

void steerP_free(steer_World *w)
{
    if (w->pool) {
        pool_stop(w->pool);
        steerY_mutex_destroy(&w->pool->lock);
        steerY_mutex_destroy(&w->pool->mu);
        steerY_cond_destroy(&w->pool->wake);
        steerY_cond_destroy(&w->pool->done);
        steerA_free(w, w->pool);
        w->pool = NULL;
    }
    for (int k = 1; k <= w->ncopies; k++) local_free(w, view_loc(w, k));
    steerA_free(w, w->copies);
    w->copies = NULL;
    w->ncopies = 0;
    local_free(w, &w->loc);
}

static void swap_bytes(void *a, void *b, size_t n)
{
    unsigned char t[sizeof(steerW_Local)], *x = a, *y = b;
    for (size_t at = 0; at < n; at += sizeof t) {
        size_t k = n - at < sizeof t ? n - at : sizeof t;
        memcpy(t, x + at, k);
        memcpy(x + at, y + at, k);
        memcpy(y + at, t, k);
    }
}

void steerP_swap(steer_World *a, steer_World *b)
{
#define KEEP(f) swap_bytes(&a->f, &b->f, sizeof a->f)
    KEEP(loc);
    KEEP(threads);
    KEEP(enqueue_task);
    KEEP(finish_task);
    KEEP(task_ctx);
    KEEP(pool);
    KEEP(copies);
    KEEP(ncopies);
    KEEP(grain);
    KEEP(pass); // the copies were made for passes this counter numbered
#undef KEEP
}

int steer_world_set_threads(steer_World *w, int threads)
{
    STEERA_WORLD(w, STEER_EARG);
    if (threads < 1 || threads > STEER_MAX_THREADS) return STEER_EARG;
    if (w->in_tick || w->in_par) return STEER_EBUSY;
    if (w->pool && w->pool->started && w->pool->nthreads != threads - 1) pool_stop(w->pool);
    w->threads = threads;
    return STEER_OK;
}

int steer_world_threads(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return w->threads;
}

// How many workers a pass of nitems items uses (1: it runs serially).
static int workers(const steer_World *w, uint32_t nitems)
{
    return nitems < (uint32_t)w->threads ? (int)(nitems ? nitems : 1) : w->threads;
}

// The pool struct (its lock serves a host's job system too), the workers'
// copies and, without a host job system, the threads. False: run serially.
static bool ready(steer_World *w)
{
    if (!w->pool) {
        struct steerP_Pool *p = steerA_realloc(w, NULL, sizeof *p);
        if (!p) return false;
        memset(p, 0, sizeof *p);
        atomic_init(&p->gen, 0);
        atomic_init(&p->next, 0);
        atomic_init(&p->running, 0);
        atomic_init(&p->quit, false);
        steerY_mutex_init(&p->lock);
        steerY_mutex_init(&p->mu);
        steerY_cond_init(&p->wake);
        steerY_cond_init(&p->done);
        w->pool = p;
    }
    if (w->ncopies < w->threads - 1) {
        steer_World *c = steerA_realloc(w, w->copies, sizeof *c * (size_t)(w->threads - 1));
        if (!c) return false;
        memset(c + w->ncopies, 0, sizeof *c * (size_t)(w->threads - 1 - w->ncopies));
        w->copies = c;
        w->ncopies = w->threads - 1;
    }
    if (!w->enqueue_task && !w->pool->started && !pool_start(w->pool, w->threads)) return false;
    return true;
}

bool steerP_reserve(steer_World *w, uint32_t words)
{
    if (w->threads <= 1 || !ready(w)) return false;
    for (int k = 0; k < w->threads - 1; k++) {
        steerW_Local *l = view_loc(w, k + 1);
        if (l->cap_tmp >= words) continue;
        uint32_t *t = steerA_realloc(w, l->tmp, sizeof *t * words);
        if (!t) return false;
        l->tmp = t;
        l->cap_tmp = words;
    }
    return true;
}

// A free view: the world itself (0) or a copy, made for this pass on
// first use by the thread that holds it (a copy of everything but the
// scratch, which the world's own holder may be writing meanwhile).
static steer_World *take_view(Job *j, int *slot)
{
    for (int spin = 0;; spin++) {
        uint_fast64_t b = atomic_load_explicit(&j->busy, memory_order_relaxed);
        int k = 0;
        while (k < j->nviews && (b >> k & 1)) k++;
        if (k == j->nviews) {
            relax(spin); // more host threads than views: wait for one
            continue;
        }
        if (!atomic_compare_exchange_weak_explicit(&j->busy, &b, b | (uint_fast64_t)1 << k, memory_order_acquire,
                                                   memory_order_relaxed))
            continue;
        *slot = k;
        if (k == 0) return j->w;
        steer_World *c = &j->w->copies[k - 1];
        if (c->loc.pass != j->pass) {
            const size_t at = offsetof(steer_World, loc), end = at + sizeof c->loc;
            memcpy(c, j->w, at);
            memcpy((char *)c + end, (const char *)j->w + end, sizeof *c - end);
            c->worker = k;
            c->loc.pass = j->pass;
            c->loc.status = STEER_OK;
            c->loc.error[0] = 0;
        }
        return c;
    }
}

static void run_task(int begin, int end, int worker, void *task_ctx)
{
    (void)worker; // views are steer's own (take_view)
    Job *j = task_ctx;
    int slot;
    steer_World *v = take_view(j, &slot);
    // the item sees the view read-only and its scratch apart (par.h)
    for (int i = begin; i < end; i++) j->fn(v, &v->loc, (uint32_t)i, j->ctx);
    atomic_fetch_and_explicit(&j->busy, ~((uint_fast64_t)1 << slot), memory_order_release);
}

// Worker k's events onto the world's list.
static void merge_events(steer_World *w, steerW_Local *l)
{
    for (uint32_t i = 0; i < l->nevents; i++) {
        const steer_Event *e = &l->events[i];
        if (w->loc.nevents == w->loc.cap_events) {
            uint32_t cap = w->loc.cap_events ? w->loc.cap_events * 2 : 64;
            steer_Event *a = steerA_realloc(w, w->loc.events, sizeof *a * cap);
            if (!a) break; // an event lost to OOM, as in steerT_event_to
            w->loc.events = a;
            w->loc.cap_events = cap;
        }
        w->loc.events[w->loc.nevents++] = *e;
    }
    l->nevents = 0;
}

// Grow the array at *p of *cap elements of `size` bytes to `want` (its
// contents are scratch: not kept).
static void reserve(steer_World *w, void *p, uint32_t *cap, uint32_t want, size_t size)
{
    if (*cap >= want) return;
    void *old;
    memcpy(&old, p, sizeof old);
    void *n = steerA_realloc(w, old, size * want);
    if (!n) return; // the view grows it itself when it needs it
    memcpy(p, &n, sizeof n);
    *cap = want;
}

// Give every view the room the largest has: which view runs which item
// changes from pass to pass, and a view meeting its largest neighbourhood
// late must not allocate after the world is warm.
static void even_out(steer_World *w)
{
    uint32_t scratch = 0, found = 0, events = 0, near = 0, starts = 0;
    for (int k = 0; k <= w->ncopies; k++) {
        const steerW_Local *l = view_loc(w, k);
        if (l->cap_scratch > scratch) scratch = l->cap_scratch;
        if (l->near.cap > near) near = l->near.cap;
        if (l->near.start) starts = STEERG_NEAR_CELLS + 1;
        if (l->cap_found > found) found = l->cap_found;
        if (l->cap_events > events) events = l->cap_events;
    }
    for (int k = 0; k <= w->ncopies; k++) {
        steerW_Local *l = view_loc(w, k);
        reserve(w, &l->scratch, &l->cap_scratch, scratch, sizeof *l->scratch);
        reserve(w, &l->near.items, &l->near.cap, near, sizeof *l->near.items);
        uint32_t have = l->near.start ? STEERG_NEAR_CELLS + 1 : 0;
        reserve(w, &l->near.start, &have, starts, sizeof *l->near.start);
        reserve(w, &l->found, &l->cap_found, found, sizeof *l->found);
        if (k) reserve(w, &l->events, &l->cap_events, events, sizeof *l->events); // the world's own holds them all
    }
}

int steerP_run(steer_World *w, uint32_t nitems, steerP_ItemFn *fn, void *ctx)
{
    int n = workers(w, nitems);
    w->loc.status = STEER_OK;
    if (n <= 1 || !ready(w)) {
        for (uint32_t i = 0; i < nitems; i++) fn(w, &w->loc, i, ctx);
    } else {
        Job job;
        job.w = w;
        job.fn = fn;
        job.ctx = ctx;
        job.nviews = w->threads;
        atomic_init(&job.busy, 0);
        job.pass = ++w->pass;
        w->in_par = true;
        if (w->enqueue_task) {
            void *t = w->enqueue_task(run_task, (int)nitems, 1, &job, w->task_ctx);
            if (t) w->finish_task(t, w->task_ctx);
        } else {
            pool_run(w->pool, run_task, (int)nitems, &job);
        }
        w->in_par = false;
        // the views' events, their first failure and its message
        int st = STEER_OK;
        for (int k = 0; k < w->threads; k++) {
            steerW_Local *l = view_loc(w, k);
            if (k && l->pass != job.pass) continue;
            if (k) merge_events(w, l);
            if (st == STEER_OK) st = l->status;
            l->status = STEER_OK;
            if (l->error[0] && !w->error[0]) steerA_error(w, "%s", l->error);
            l->error[0] = 0;
        }
        even_out(w);
        w->loc.status = st;
    }
    int st = w->loc.status;
    w->loc.status = STEER_OK;
    return st;
}

_Static_assert(offsetof(struct steerP_Pool, lock) == 0, "base.c takes a pool for its lock");
