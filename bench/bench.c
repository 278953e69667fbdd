// SPDX-License-Identifier: MIT
// bench.c — steer-bench: the benchmark workloads of docs/benchmarks.md, run on the
// engine exactly as a script author composes them (a world, agents, and a
// blend of separation, alignment, cohesion and wander), next to the
// hand-optimised fused loop (fused.c) measured in the same process run;
// and the circle-crossing crowd (arrive + avoid_agents).
//
//   steer-bench flock --n N [--ticks T] [--runs R] [--threads N] [--only steer|fused] [--collide]
//                     [--reorder K] [--no-batch] [--no-fused]
//   steer-bench crossing --n N [--runs R] [--max-ticks T] [--avoid-weight W] [--threads N]
//   steer-bench craft [--n N] [--ticks T] [--runs R] [--threads N]
//   steer-bench crowd [--scenario NAME|all] [--dt 0.25|0.0167|both] [--method M] ...   (crowd.c)
//   steer-bench shapes [--n N] [--ticks T] [--runs R]   (shapes.c: the shape grid with shapes far apart)
//   steer-bench context [--n N] [--ticks T] [--runs R] [--slots S]   (context.c: steer.context against a blend)
//   steer-bench context --table [--layouts K]   (context.c: against blend and priority, issue 36's scenes)
//   steer-bench snapshot [--n N] [--runs R]   (the flock saved and loaded: save_ms, load_ms, bytes_per_agent)
//   steer-bench navmesh [--level NAME|all] [--radius 0|0.5|both] ...   (navmesh.c: meshes beside Detour)
//   steer-bench navobst [--level NAME|all] [--moves N]   (navobst.c: an obstacle moved, beside Detour's tile cache)
//
// --threads N runs the world's tick on N threads (steer_WorldDesc.threads;
// default 1) and the fused loop on N threads too (its own pthreads). --only
// runs one of the two (--no-fused is --only steer), so that process runs of
// each can be interleaved. --collide turns on the world's non-penetration
// pass; the fused loop has none, so it is not run then.
// --avoid-weight W sets the blend weight of avoid_agents in the crossing
// brain (default 3; 0 drops it: the arrive-only baseline).
// --reorder K re-sorts agent storage by grid cell every K ticks (0: the
// engine's default, -1: never). --no-batch evaluates the brain one agent at
// a time (the path of brains that cannot run batched), to show what
// batching gains.
//
// Prints one line per run and workload:
//   flock n=N ticks=T median_ms=X min_ms=X max_ms=X bytes_per_agent=B ... threads=N fused_median_ms=X ratio=X ...
//   flock n=N ticks=T threads=N fused_median_ms=X ...       (--only fused)
//   crossing n=N ticks=T median_ms=X collisions=C completion_s=S ...
// Figures, not tests: nothing here fails on speed.
//
// The crossing workload: N agents (radius 0.5 m, max_speed 2 m/s,
// max_force 4 N, mass 1) evenly spaced on one circle, each sent to its
// antipode with blend{ {arrive{slow_radius 3, stop_radius 0.2}, 1},
// {avoid_agents{horizon 2}, 3} } (the brain of tests/lua/agents_spec.lua).
// The circle's radius gives 1.5 m of arc per agent (R = 1.5 N / 2 pi: 23.9 m
// for N = 100, 238.7 m for N = 1000): agents start half a metre apart and
// all meet at the centre at once, the densest crush a ring can make. (A
// radius growing as sqrt(N) would stack a single ring on itself beyond
// about 40 agents.) dt = 1/60 s; the run ends when every agent has come
// within its stop radius once, or at the tick cap (by default the time to
// cross twice at full speed plus 60 s). Keys:
//   ticks         ticks simulated
//   median_ms     median wall time of one tick (each tick timed alone)
//   mean_ms       their mean: the crush at the centre costs far more than
//                 the median tick of the free walk
//   collisions    overlapping pair-ticks: the sum over ticks of the number
//                 of agent pairs closer than the sum of their radii
//   max_overlap_m the deepest overlap of any pair at any tick, in metres
//   completion_s  simulated time at which the last agent first came within
//                 its stop radius (or the time at the cap)
//   arrived       agents that did
#include "steer.h"
#include "core/world.h"
#include "timing.h"
#include "fused.h"
#include "xorshift.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUP 20

static steer_Behavior *leaf(const char *kind)
{
    steer_Behavior *b;
    if (steer_behavior_new(kind, &b) != STEER_OK) {
        fprintf(stderr, "steer-bench: no kind %s\n", kind);
        exit(1);
    }
    return b;
}

static void must(int st, const char *what)
{
    if (st != STEER_OK) {
        fprintf(stderr, "steer-bench: %s failed (%d)\n", what, st);
        exit(1);
    }
}

// The standard flock's brain, built from the engine's own behaviours.
static steer_Behavior *flock_brain(void)
{
    steer_Behavior *sep = leaf("separation"), *ali = leaf("alignment"), *coh = leaf("cohesion"), *wan = leaf("wander");
    must(steer_behavior_set_number(sep, "radius", 2), "separation radius");
    must(steer_behavior_set_number(ali, "radius", 5), "alignment radius");
    must(steer_behavior_set_number(coh, "radius", 5), "cohesion radius");
    must(steer_behavior_set_number(wan, "radius", 1), "wander radius");
    must(steer_behavior_set_number(wan, "distance", 5), "wander distance");
    must(steer_behavior_set_number(wan, "jitter", 5), "wander jitter");
    steer_Behavior *blend = leaf("blend");
    must(steer_behavior_add_child(blend, sep, 1.5), "blend");
    must(steer_behavior_add_child(blend, ali, 1.0), "blend");
    must(steer_behavior_add_child(blend, coh, 1.0), "blend");
    must(steer_behavior_add_child(blend, wan, 0.2), "blend");
    steer_behavior_release(sep);
    steer_behavior_release(ali);
    steer_behavior_release(coh);
    steer_behavior_release(wan);
    return blend;
}

typedef struct Result {
    double median, min, max, neighbors, speed;
    size_t bytes, brain_bytes;
} Result;

// How a flock world is made: the standard flock's, and the bench's options.
typedef struct Flock {
    int n, reorder, threads;
    bool no_batch, collide;
} Flock;

// The standard flock of f->n agents, warmed up.
static steer_World *flock_world(const Flock *f)
{
    const int n = f->n;
    double L = sqrt(n * M_PI * 25.0 / 10.0);
    steer_WorldDesc wd = { 0 };
    wd.dim = 2;
    wd.size[0] = wd.size[1] = L;
    wd.wrap = true;
    wd.seed = 12345;
    wd.dt = 1.0 / 60.0;
    wd.no_record = true; // the inspector's per-node record is a debugging aid
    wd.reorder_period = f->reorder;
    wd.threads = f->threads;
    wd.collide = f->collide;
    steer_World *w;
    must(steer_world_new(&wd, &w), "world");
    w->no_batch = f->no_batch;
    must(steer_world_reserve(w, n), "reserve"); // as a game that knows its population would
    steer_Behavior *brain = flock_brain();
    uint32_t s = 12345;
    for (int i = 0; i < n; i++) {
        double px = bench_unit(&s) * L, py = bench_unit(&s) * L, th = bench_unit(&s) * 2 * M_PI;
        (void)bench_unit(&s); // phi: the engine draws the wander angle from the agent's own stream
        uint32_t own = bench_xs32(&s);
        steer_AgentDesc ad = { .position = { px, py, 0 },
                               .velocity = { cos(th), sin(th), 0 },
                               .mass = 1,
                               .max_speed = 2,
                               .max_force = 0.5,
                               .radius = 0.5,
                               .brain = brain };
        steer_Agent a;
        must(steer_spawn(w, &ad, &a), "spawn");
        must(steer_agent_set_rng(w, a, own ? own : 0x9E3779B9u), "rng");
    }
    must(steer_world_step(w, WARMUP), "warm-up");
    steer_behavior_release(brain);
    return w;
}

static int run_engine(const Flock *f, int ticks, Result *r)
{
    const int n = f->n;
    steer_World *w = flock_world(f);
    double *t = malloc(sizeof *t * (size_t)ticks);
    if (!t) return -1;
    for (int i = 0; i < ticks; i++) {
        double t0 = bench_now_ms();
        must(steer_world_step(w, 1), "step");
        t[i] = bench_now_ms() - t0;
    }
    qsort(t, (size_t)ticks, sizeof *t, bench_cmp_double);
    r->median = t[ticks / 2];
    r->min = t[0];
    r->max = t[ticks - 1];
    free(t);
    // the same check figures as docs/benchmarks.md: mean neighbours within 5, mean speed
    double nsum = 0, ssum = 0;
    steer_Agent *buf = malloc(sizeof *buf * (size_t)n);
    for (int i = 0; i < n; i++) {
        steer_Agent a = steer_world_agent_at(w, i);
        double p[3], v[3];
        steer_agent_vec(w, a, STEER_PROP_POSITION, p);
        steer_agent_vec(w, a, STEER_PROP_VELOCITY, v);
        ssum += sqrt(v[0] * v[0] + v[1] * v[1]);
        if (i % 10 == 0) nsum += steer_world_neighbors(w, p, 5, NULL, false, buf, n) - 1; // sampled: 1 in 10
    }
    free(buf);
    r->neighbors = nsum / ((n + 9) / 10);
    r->speed = ssum / n;
    r->bytes = steer_world_bytes(w);
    r->brain_bytes = steer_world_brain_bytes(w);
    steer_world_free(w);
    return 0;
}

// ---- snapshot ------------------------------------------------------------

// steer-bench snapshot: save and load the standard warmed-up flock, each
// timed `runs` times; prints the medians and the snapshot's bytes per agent.
static int snapshot_main(int argc, char **argv)
{
    int n = 100000, runs = 9;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
    }
    if (n < 1 || runs < 1) return 2;
    steer_World *w = flock_world(&(Flock){ .n = n, .reorder = 16 });
    size_t cap = 0, len = 0;
    steer_world_save_buffer(w, NULL, 0, &cap);
    unsigned char *buf = malloc(cap);
    double *ts = malloc(sizeof *ts * (size_t)runs), *tl = malloc(sizeof *tl * (size_t)runs);
    if (!buf || !ts || !tl) return 1;
    char err[256];
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now_ms();
        must(steer_world_save_buffer(w, buf, cap, &len), "save");
        ts[r] = bench_now_ms() - t0;
        steer_World *v = NULL;
        t0 = bench_now_ms();
        if (steer_world_load(NULL, buf, len, &v, err, sizeof err) != STEER_OK) {
            fprintf(stderr, "steer-bench: load: %s\n", err);
            return 1;
        }
        tl[r] = bench_now_ms() - t0;
        if (steer_world_hash(v) != steer_world_hash(w)) {
            fprintf(stderr, "steer-bench: the loaded world's hash differs\n");
            return 1;
        }
        steer_world_free(v);
    }
    printf("snapshot n=%d runs=%d save_ms=%.3f load_ms=%.3f bytes=%zu bytes_per_agent=%.1f\n", n, runs,
           bench_median(ts, runs), bench_median(tl, runs), len, (double)len / n);
    free(buf);
    free(ts);
    free(tl);
    steer_world_free(w);
    return 0;
}

// ---- crossing ------------------------------------------------------------

#define CROSS_RADIUS 0.5
#define CROSS_SPEED 2.0
#define CROSS_STOP 0.2

static steer_Behavior *crossing_brain(double avoid_weight)
{
    steer_Behavior *arrive = leaf("arrive"), *avoid = leaf("avoid_agents"), *blend = leaf("blend");
    must(steer_behavior_set_number(arrive, "slow_radius", 3), "arrive slow_radius");
    must(steer_behavior_set_number(arrive, "stop_radius", CROSS_STOP), "arrive stop_radius");
    must(steer_behavior_set_number(avoid, "horizon", 2), "avoid_agents horizon");
    must(steer_behavior_add_child(blend, arrive, 1), "blend");
    if (avoid_weight > 0) must(steer_behavior_add_child(blend, avoid, avoid_weight), "blend");
    steer_behavior_release(arrive);
    steer_behavior_release(avoid);
    return blend;
}

typedef struct Overlaps {
    int n, cells, side;
    double lo[2], cell;
    int *start, *next;
} Overlaps;

// Overlapping pairs among equal discs at xy, through a grid of cells one
// diameter wide (a bucket list rebuilt each call: the bench's own check,
// independent of the engine's grid). Returns the count; *deepest grows.
static long count_overlaps(Overlaps *o, const double *xy, double *deepest)
{
    double lo[2] = { xy[0], xy[1] }, hi[2] = { xy[0], xy[1] };
    for (int i = 1; i < o->n; i++)
        for (int k = 0; k < 2; k++) {
            if (xy[2 * i + k] < lo[k]) lo[k] = xy[2 * i + k];
            if (xy[2 * i + k] > hi[k]) hi[k] = xy[2 * i + k];
        }
    double d = 2 * CROSS_RADIUS;
    int side = o->side;
    double cell = fmax((hi[0] - lo[0]) / side, (hi[1] - lo[1]) / side);
    if (cell < d) cell = d;
    for (int c = 0; c < o->cells; c++) o->start[c] = -1;
    for (int i = 0; i < o->n; i++) {
        int cx = (int)((xy[2 * i] - lo[0]) / cell), cy = (int)((xy[2 * i + 1] - lo[1]) / cell);
        if (cx >= side) cx = side - 1;
        if (cy >= side) cy = side - 1;
        int c = cy * side + cx;
        o->next[i] = o->start[c];
        o->start[c] = i;
    }
    long count = 0;
    for (int i = 0; i < o->n; i++) {
        int cx = (int)((xy[2 * i] - lo[0]) / cell), cy = (int)((xy[2 * i + 1] - lo[1]) / cell);
        if (cx >= side) cx = side - 1;
        if (cy >= side) cy = side - 1;
        for (int y = cy - 1; y <= cy + 1; y++) {
            if (y < 0 || y >= side) continue;
            for (int x = cx - 1; x <= cx + 1; x++) {
                if (x < 0 || x >= side) continue;
                for (int j = o->start[y * side + x]; j >= 0; j = o->next[j]) {
                    if (j <= i) continue;
                    double dx = xy[2 * j] - xy[2 * i], dy = xy[2 * j + 1] - xy[2 * i + 1];
                    double dist = sqrt(dx * dx + dy * dy);
                    if (dist < d) {
                        count++;
                        if (d - dist > *deepest) *deepest = d - dist;
                    }
                }
            }
        }
    }
    return count;
}

static int run_crossing(int n, int max_ticks, double avoid_weight, int threads)
{
    double R = 1.5 * n / (2 * M_PI);
    double dt = 1.0 / 60.0;
    if (max_ticks <= 0) max_ticks = (int)((2 * (2 * R / CROSS_SPEED) + 60) / dt);
    steer_WorldDesc wd = { 0 };
    wd.dim = 2;
    wd.seed = 12345;
    wd.dt = dt;
    wd.no_record = true;
    wd.threads = threads;
    steer_World *w;
    must(steer_world_new(&wd, &w), "world");
    must(steer_world_reserve(w, n), "reserve");
    steer_Behavior *brain = crossing_brain(avoid_weight);
    steer_Agent *agents = malloc(sizeof *agents * (size_t)n);
    double *goal = malloc(sizeof *goal * 2 * (size_t)n), *xy = malloc(sizeof *xy * 2 * (size_t)n);
    char *arrived = calloc((size_t)n, 1);
    double *t = malloc(sizeof *t * (size_t)max_ticks);
    Overlaps o = { .n = n };
    o.side = (int)ceil(sqrt((double)n)) + 1;
    o.cells = o.side * o.side;
    o.start = malloc(sizeof *o.start * (size_t)o.cells);
    o.next = malloc(sizeof *o.next * (size_t)n);
    if (!agents || !goal || !xy || !arrived || !t || !o.start || !o.next) return -1;
    for (int i = 0; i < n; i++) {
        double th = 2 * M_PI * i / n;
        double x = R * cos(th), y = R * sin(th);
        steer_AgentDesc ad = { .position = { x, y, 0 },
                               .mass = 1,
                               .max_speed = CROSS_SPEED,
                               .max_force = 4,
                               .radius = CROSS_RADIUS,
                               .brain = brain };
        must(steer_spawn(w, &ad, &agents[i]), "spawn");
        double g[3] = { -x, -y, 0 };
        must(steer_agent_set_target(w, agents[i], g, STEER_NO_AGENT), "target");
        goal[2 * i] = -x;
        goal[2 * i + 1] = -y;
    }
    long collisions = 0;
    double deepest = 0, completion = -1;
    int ticks = 0, done = 0;
    while (ticks < max_ticks && done < n) {
        double t0 = bench_now_ms();
        must(steer_world_step(w, 1), "step");
        t[ticks++] = bench_now_ms() - t0;
        for (int i = 0; i < n; i++) {
            double p[3];
            steer_agent_vec(w, agents[i], STEER_PROP_POSITION, p);
            xy[2 * i] = p[0];
            xy[2 * i + 1] = p[1];
            double gx = p[0] - goal[2 * i], gy = p[1] - goal[2 * i + 1];
            if (!arrived[i] && sqrt(gx * gx + gy * gy) <= CROSS_STOP) {
                arrived[i] = 1;
                done++;
            }
        }
        collisions += count_overlaps(&o, xy, &deepest);
        if (done == n) completion = ticks * dt;
    }
    if (completion < 0) completion = ticks * dt;
    double sum = 0;
    for (int i = 0; i < ticks; i++) sum += t[i];
    qsort(t, (size_t)ticks, sizeof *t, bench_cmp_double);
    printf("crossing n=%d ticks=%d median_ms=%.3f collisions=%ld completion_s=%.2f max_overlap_m=%.4f "
           "arrived=%d mean_ms=%.3f max_ms=%.3f circle_radius_m=%.1f avoid_weight=%g threads=%d\n",
           n, ticks, t[ticks / 2], collisions, completion, deepest, done, sum / ticks, t[ticks - 1], R, avoid_weight,
           threads);
    fflush(stdout);
    free(t);
    free(o.start);
    free(o.next);
    free(arrived);
    free(xy);
    free(goal);
    free(agents);
    steer_world_free(w);
    steer_behavior_release(brain);
    return 0;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: steer-bench flock --n N [--ticks T] [--runs R] [--threads N] [--only steer|fused] [--collide]\n"
            "                         [--reorder K] [--no-batch] [--no-fused]\n"
            "       steer-bench crossing --n N [--runs R] [--max-ticks T] [--avoid-weight W] [--threads N]\n"
            "       steer-bench craft [--n N] [--ticks T] [--runs R] [--threads N]\n"
            "       steer-bench shapes [--n N] [--ticks T] [--runs R]\n"
            "       steer-bench context [--n N] [--ticks T] [--runs R] [--slots S]\n"
            "       steer-bench context --table [--layouts K]\n"
            "       steer-bench crowd [--scenario NAME|all] [--dt 0.25|0.0167|both] [--method M] ... (crowd --help)\n"
            "       steer-bench snapshot [--n N] [--runs R]\n"
            "       steer-bench navmesh [--level NAME|all] [--radius 0|0.5|both] [--queries N] [--repeat K]\n"
            "                           [--lengths FILE]\n"
            "       steer-bench navobst [--level NAME|all] [--moves N]   (navobst.c: one obstacle move)\n");
    return 2;
}

// A thread count argument: 1 to STEER_MAX_THREADS, else 0.
static int threads_arg(const char *s)
{
    int t = atoi(s);
    return t >= 1 && t <= STEER_MAX_THREADS && t <= FUSED_MAX_THREADS ? t : 0;
}

static int crossing_main(int argc, char **argv)
{
    int n = 100, runs = 1, max_ticks = 0, threads = 1;
    double avoid_weight = 3;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--max-ticks") && i + 1 < argc) max_ticks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--avoid-weight") && i + 1 < argc) avoid_weight = atof(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = threads_arg(argv[++i]);
        else return usage();
    }
    if (n < 2 || runs < 1 || max_ticks < 0 || !threads || !(avoid_weight >= 0 && avoid_weight < 1e6)) return usage();
    for (int r = 0; r < runs; r++)
        if (run_crossing(n, max_ticks, avoid_weight, threads)) return 1;
    return 0;
}

int steer_bench_craft(int argc, char **argv);   // craft.c: the craft model and directed seek
int steer_bench_shapes(int argc, char **argv);  // shapes.c: the shape grid's queries
int steer_bench_context(int argc, char **argv); // context.c: steer.context against a blend
int steer_bench_crowd(int argc, char **argv);   // crowd.c: issue 18's crowd scenarios
int steer_bench_navmesh(int argc, char **argv); // navmesh.c: issue 32's navigation meshes beside Detour
int steer_bench_navobst(int argc, char **argv); // navobst.c: issue 33's obstacles, one move

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "craft") == 0) return steer_bench_craft(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "shapes") == 0) return steer_bench_shapes(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "context") == 0) return steer_bench_context(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "crowd") == 0) return steer_bench_crowd(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "navmesh") == 0) return steer_bench_navmesh(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "navobst") == 0) return steer_bench_navobst(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "crossing") == 0) return crossing_main(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "snapshot") == 0) return snapshot_main(argc, argv);
    if (argc < 2 || strcmp(argv[1], "flock") != 0) return usage();
    Flock f = { .n = 10000, .threads = 1 };
    int ticks = 200, runs = 1, engine = 1, fused = 1;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) f.n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ticks") && i + 1 < argc) ticks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) f.threads = threads_arg(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            const char *only = argv[++i];
            if (strcmp(only, "steer") && strcmp(only, "fused")) return usage();
            engine = !strcmp(only, "steer");
            fused = !engine;
        } else if (!strcmp(argv[i], "--no-fused")) fused = 0;
        else if (!strcmp(argv[i], "--collide")) f.collide = true;
        else if (!strcmp(argv[i], "--reorder") && i + 1 < argc) f.reorder = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-batch")) f.no_batch = true;
        else return usage();
    }
    if (f.collide) fused = 0; // the fused loop has no collide pass to compare with
    if (f.n < 1 || ticks < 1 || runs < 1 || !f.threads || !(engine || fused)) return usage();
    for (int r = 0; r < runs; r++) {
        Result e = { 0 };
        if (engine) {
            if (run_engine(&f, ticks, &e)) return 1;
            size_t per = (e.bytes - e.brain_bytes) / (size_t)f.n;
            printf("flock n=%d ticks=%d median_ms=%.3f min_ms=%.3f max_ms=%.3f bytes_per_agent=%zu "
                   "brain_bytes_per_agent=%zu mean_neighbors=%.2f mean_speed=%.3f threads=%d%s",
                   f.n, ticks, e.median, e.min, e.max, per, e.brain_bytes / (size_t)f.n, e.neighbors, e.speed,
                   f.threads, f.collide ? " collide=1" : "");
        } else {
            printf("flock n=%d ticks=%d threads=%d", f.n, ticks, f.threads);
        }
        if (fused) {
            fused_Stats fs;
            if (fused_flock_run(f.n, ticks, f.threads, &fs) != 0) {
                fprintf(stderr, "steer-bench: the fused loop could not run (memory or threads)\n");
                return 1;
            }
            printf(" fused_median_ms=%.3f", fs.median_ms);
            if (engine) printf(" ratio=%.2f", e.median / fs.median_ms);
            printf(" fused_min_ms=%.3f fused_max_ms=%.3f fused_mean_neighbors=%.2f fused_mean_speed=%.3f "
                   "fused_hash=%016llx",
                   fs.min_ms, fs.max_ms, fs.mean_neighbors, fs.mean_speed, (unsigned long long)fs.hash);
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
