// SPDX-License-Identifier: MIT
// embed.c — a small game that embeds steer as its modding layer.
//
// The game owns the loop. It defines one behaviour in C ("fence": keep
// inside the pasture), hands the world its own job system (worker threads
// it has anyway), loads its scenario, loads every mod it finds in its mods
// folder with limits, ticks, reads all agents' states in one call to
// "render" them (here: a text summary), and listens to events. A mod that
// misbehaves is disabled and reported; the game goes on. It prints the
// world's hash at the end: the same for any number of workers.
//
//   embed [--ticks N] [--workers N] [--mods DIR] [--strict] [--view] [--screenshot OUT.png] [SCENARIO]
//
// --workers N runs the world's passes on the game's N threads (its main
// thread and N - 1 workers; default 2). --strict exits with status 1 if
// any mod was disabled (the tests use it).
// --view shows the world in steer's viewer while the game's loop runs, and
// --screenshot writes the last frame as a PNG (both only when the demo is
// built in steer's tree with the viewer: it is not part of the installed API).
//
// Built against the installed library, it is compiled with
//   cc embed.c $(pkg-config --cflags --libs steer)
#include <steer.h>
#include <steer_engine.h>
#ifdef STEER_VIEWER
#include "view.h"
#endif

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EMBED_DIR
#define EMBED_DIR "."
#endif

// ---- the game's own behaviour -------------------------------------------------

typedef struct Pasture {
    double w, h;
} Pasture;

// Push back from the pasture's edges, harder the closer an agent is.
static void fence(void *ud, const steer_HostCtx *c, double f[3])
{
    const Pasture *p = ud;
    double margin = c->params[0];
    double lo[2] = { 0, 0 }, hi[2] = { p->w, p->h };
    for (int i = 0; i < 2; i++) {
        double in_lo = c->position[i] - lo[i], in_hi = hi[i] - c->position[i];
        if (in_lo < margin) f[i] += c->max_force * (1 - in_lo / margin);
        if (in_hi < margin) f[i] -= c->max_force * (1 - in_hi / margin);
    }
}

// ---- the game's own job system ------------------------------------------------
//
// A game has worker threads already; the world runs its passes on them
// instead of starting threads of its own (steer_EngineDesc's enqueue_task,
// finish_task and task_ctx, as in steer_WorldDesc). This one is as small
// as a job system gets: one task at a time (the world waits for each pass
// before it enqueues the next), ranges handed out under a mutex, and the
// thread that waits for the task takes ranges too. The contract: every
// item runs once, in ranges of at least min_range items, each range as a
// `worker` in [0, threads) that no other range running at the same time
// has. Here each thread has its own index: the main thread 0, the workers
// 1 .. threads - 1.

#define MAX_WORKERS 16

typedef struct Jobs Jobs;

typedef struct Worker {
    Jobs *jobs;
    int index;
    pthread_t thread;
} Worker;

struct Jobs {
    int threads; // the main thread and threads - 1 workers
    Worker workers[MAX_WORKERS];
    pthread_mutex_t mu;
    pthread_cond_t posted, finished;
    // the task being run (NULL between tasks), all under mu
    steer_TaskFn *task;
    void *task_ctx;
    int count, min_range;
    int next;    // the first item not handed out yet
    int running; // ranges being run
    bool quit;
    long ranges[MAX_WORKERS]; // ranges each thread ran, for the summary
};

// The next range of the task, if any is left (mu held).
static bool take_range(Jobs *j, int *begin, int *end)
{
    if (!j->task || j->next >= j->count) return false;
    // a few ranges per thread, so that one that is slow does not hold the pass up
    int size = j->count / (4 * j->threads);
    if (size < j->min_range) size = j->min_range;
    *begin = j->next;
    *end = j->count - j->next > size ? j->next + size : j->count;
    j->next = *end;
    j->running++;
    return true;
}

// Run a range as thread `index` (mu held, released while it runs).
static void run_range(Jobs *j, int index, int begin, int end)
{
    steer_TaskFn *task = j->task;
    void *ctx = j->task_ctx;
    pthread_mutex_unlock(&j->mu);
    task(begin, end, index, ctx);
    pthread_mutex_lock(&j->mu);
    j->ranges[index]++;
    if (--j->running == 0 && j->next >= j->count) pthread_cond_signal(&j->finished);
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Jobs *j = w->jobs;
    pthread_mutex_lock(&j->mu);
    for (;;) {
        int begin, end;
        if (take_range(j, &begin, &end)) run_range(j, w->index, begin, end);
        else if (j->quit) break;
        else pthread_cond_wait(&j->posted, &j->mu);
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

static void *enqueue_task(steer_TaskFn *task, int count, int min_range, void *task_ctx, void *host_ctx)
{
    Jobs *j = host_ctx;
    if (j->threads == 1 || count <= min_range) {
        task(0, count, 0, task_ctx); // not worth waking anyone: run it here
        return NULL;
    }
    pthread_mutex_lock(&j->mu);
    j->task = task;
    j->task_ctx = task_ctx;
    j->count = count;
    j->min_range = min_range > 0 ? min_range : 1;
    j->next = 0;
    pthread_cond_broadcast(&j->posted);
    pthread_mutex_unlock(&j->mu);
    return j;
}

static void finish_task(void *handle, void *host_ctx)
{
    Jobs *j = handle;
    (void)host_ctx;
    pthread_mutex_lock(&j->mu);
    int begin, end;
    while (take_range(j, &begin, &end)) run_range(j, 0, begin, end); // help rather than wait
    while (j->running > 0) pthread_cond_wait(&j->finished, &j->mu);
    j->task = NULL;
    pthread_mutex_unlock(&j->mu);
}

static int jobs_start(Jobs *j, int threads)
{
    memset(j, 0, sizeof *j);
    j->threads = threads;
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->posted, NULL);
    pthread_cond_init(&j->finished, NULL);
    for (int k = 1; k < threads; k++) {
        j->workers[k] = (Worker){ .jobs = j, .index = k };
        if (pthread_create(&j->workers[k].thread, NULL, worker_main, &j->workers[k]) != 0) {
            j->threads = k; // jobs_stop joins the ones that started
            return -1;
        }
    }
    return 0;
}

static void jobs_stop(Jobs *j)
{
    pthread_mutex_lock(&j->mu);
    j->quit = true;
    pthread_cond_broadcast(&j->posted);
    pthread_mutex_unlock(&j->mu);
    for (int k = 1; k < j->threads; k++) pthread_join(j->workers[k].thread, NULL);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->posted);
    pthread_cond_destroy(&j->finished);
}

// ---- the game's log and events ------------------------------------------------------

static void game_log(void *ud, int level, const char *msg)
{
    (void)ud;
    static const char *const names[] = { "info", "warning", "error" };
    printf("[game %s] %s\n", names[level < 0 || level > 2 ? 2 : level], msg);
}

static void on_event(void *ud, const steer_Event *ev)
{
    long *collisions = ud;
    if (ev->type == STEER_EVENT_COLLIDE) (*collisions)++;
}

#ifdef STEER_VIEWER
// The viewer drives ticks through these: the game's engine does the work.
static int view_tick(void *ud) { return steer_engine_tick(ud, 1) == STEER_OK; }
static void view_reload(void *ud) { steer_engine_reload(ud); }
static const char *view_error(void *ud)
{
    const char *e = steer_engine_error(ud);
    return e[0] ? e : NULL;
}
#endif

static int usage(void)
{
    fprintf(stderr, "usage: embed [--ticks N] [--workers N] [--mods DIR] [--strict] [--view] [--screenshot OUT.png] "
                    "[SCENARIO]\n");
    return 2;
}

int main(int argc, char **argv)
{
    long ticks = 600;
    int strict = 0, view = 0, workers = 2;
    const char *shot = NULL;
    const char *mods = EMBED_DIR "/mods", *scenario = EMBED_DIR "/scenario.lua";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ticks") == 0 && i + 1 < argc) ticks = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc) workers = atoi(argv[++i]);
        else if (strcmp(argv[i], "--mods") == 0 && i + 1 < argc) mods = argv[++i];
        else if (strcmp(argv[i], "--strict") == 0) strict = 1;
        else if (strcmp(argv[i], "--view") == 0) view = 1;
        else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) shot = argv[++i];
        else if (argv[i][0] != '-') scenario = argv[i];
        else return usage();
    }
    if (workers < 1 || workers > MAX_WORKERS) return usage();

    Jobs jobs;
    if (jobs_start(&jobs, workers) != 0) {
        fprintf(stderr, "embed: could not start %d worker threads\n", workers - 1);
        jobs_stop(&jobs);
        return 1;
    }
    // the world's passes run on the game's threads, split in `workers` ways
    steer_EngineDesc desc = {
        .log = game_log, .threads = workers, .enqueue_task = enqueue_task, .finish_task = finish_task, .task_ctx = &jobs
    };
    steer_Engine *e;
    if (steer_engine_new(&desc, &e) != STEER_OK) {
        jobs_stop(&jobs);
        return 1;
    }

    Pasture pasture = { 120, 80 };
    static const char *const params[] = { "margin", NULL };
    static const double defaults[] = { 5 };
    steer_HostBehaviorDesc fence_desc = {
        .name = "fence", .params = params, .defaults = defaults, .fn = fence, .ud = &pasture
    };
    if (steer_engine_register_behavior(e, &fence_desc) != STEER_OK || steer_engine_load(e, scenario) != STEER_OK) {
        fprintf(stderr, "embed: %s\n", steer_engine_error(e));
        steer_engine_free(e);
        jobs_stop(&jobs);
        return 1;
    }
    long collisions = 0;
    steer_engine_subscribe(e, on_event, &collisions);

    // every mod in the folder: a NAME.lua file or a NAME/ directory
    DIR *d = opendir(mods);
    struct dirent *ent;
    while (d && (ent = readdir(d))) {
        if (ent->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", mods, ent->d_name);
        steer_ModLimits limits = { .memory = 8u << 20, .call_ms = 10, .agents = 200, .prints = 2 };
        if (steer_engine_load_mod(e, path, &limits, NULL) != STEER_OK)
            printf("[game] mod %s not loaded: %s\n", ent->d_name, steer_engine_error(e));
    }
    if (d) closedir(d);

#ifdef STEER_VIEWER
    if (view || shot) {
        steerV_Host host = { .ud = e, .tick = view_tick, .reload = view_reload, .error = view_error };
        steerV_Desc vd = { .title = "embed", .headless = !view };
        steerV_View *v = NULL;
        char err[256];
        if (steerV_open(&vd, steer_engine_world(e), &host, &v, err, sizeof err) != STEER_OK) {
            fprintf(stderr, "embed: no view (%s): running headless\n", err);
        } else if (view) {
            // the game's loop, with the viewer as its renderer: frames tick the engine
            while (steerV_frame(v) && (ticks <= 0 || (long)steer_world_tick(steer_engine_world(e)) < ticks))
                steer_engine_poll(e);
            ticks = 0;
        } else {
            steer_engine_tick(e, (int)ticks);
            ticks = 0;
        }
        if (v && shot && steerV_screenshot(v, shot, err, sizeof err) != 0) fprintf(stderr, "embed: %s\n", err);
        if (v) steerV_close(v);
    }
#else
    if (view || shot) fprintf(stderr, "embed: built without steer's viewer: running headless\n");
#endif

    // the game's loop: tick, then "render" from the states
    steer_AgentState *states = NULL;
    int cap = 0;
    for (long t = 0; t < ticks; t++) {
        if (steer_engine_tick(e, 1) != STEER_OK) {
            fprintf(stderr, "embed: %s\n", steer_engine_error(e));
            break;
        }
        int n = steer_engine_states(e, states, cap);
        if (n > cap) {
            cap = n * 2;
            states = realloc(states, (size_t)cap * sizeof *states);
            if (!states) return 1;
            n = steer_engine_states(e, states, cap);
        }
        if ((t + 1) % 300 == 0) {
            int inside = 0;
            for (int i = 0; i < n; i++)
                inside += states[i].position[0] >= 0 && states[i].position[0] <= pasture.w &&
                          states[i].position[1] >= 0 && states[i].position[1] <= pasture.h;
            printf("[game] tick %ld: %d agents, %d inside the pasture, %ld collisions so far\n", t + 1, n, inside,
                   collisions);
        }
    }
    int status = 0;
    for (int i = 0; i < steer_engine_mod_count(e); i++) {
        steer_ModInfo mi;
        steer_engine_mod_info(e, i, &mi);
        if (!mi.enabled && strict) status = 1;
        printf("[game] mod %s: %s%s, %.1f ms of CPU, %zu KiB of Lua\n", mi.name,
               mi.enabled ? "running" : "disabled: ", mi.reason, mi.cpu_ms, mi.memory / 1024);
    }
    // the same for any --workers: the trajectory does not depend on how the passes are split
    printf("[game] hash=%016llx after %ld ticks\n", (unsigned long long)steer_world_hash(steer_engine_world(e)),
           (long)steer_world_tick(steer_engine_world(e)));
    free(states);
    steer_engine_free(e);
    jobs_stop(&jobs); // after the world: it may use the workers until it is freed
    long ranges = 0;
    for (int k = 0; k < jobs.threads; k++) ranges += jobs.ranges[k];
    printf("[game] job system: %d threads, %ld ranges run (%ld on the main thread)\n", jobs.threads, ranges,
           jobs.ranges[0]);
    return status;
}
