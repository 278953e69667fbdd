// SPDX-License-Identifier: MIT
// bench.c — steer-bench: the benchmark workloads of BENCH.md, run on the
// engine exactly as a script author composes them (a world, agents, and a
// blend of separation, alignment, cohesion and wander), next to the
// hand-optimised fused loop (fused.c) measured in the same process run.
//
//   steer-bench flock --n N [--ticks T] [--runs R] [--no-fused] [--reorder K]
//
// --reorder K re-sorts agent storage by grid cell every K ticks (0: the
// engine's default, -1: never).
//
// Prints one line per run and workload:
//   flock n=N ticks=T median_ms=X min_ms=X max_ms=X bytes_per_agent=B ...
// Figures, not tests: nothing here fails on speed.
#include "steer.h"
#include "fused.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUP 20

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// BENCH.md's master stream: xorshift32, seed 12345, 24-bit uniforms.
static uint32_t xs32(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    return *s = x;
}
static double unit(uint32_t *s) { return (double)(xs32(s) >> 8) / 16777216.0; }

static steer_Behavior *leaf(const char *kind)
{
    steer_Behavior *b;
    if (steer_behavior_new(kind, &b) != STEER_OK) { fprintf(stderr, "steer-bench: no kind %s\n", kind); exit(1); }
    return b;
}

static void must(int st, const char *what)
{
    if (st != STEER_OK) { fprintf(stderr, "steer-bench: %s failed (%d)\n", what, st); exit(1); }
}

// The brain of BENCH.md, built from the engine's own behaviours.
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
    steer_behavior_release(sep); steer_behavior_release(ali);
    steer_behavior_release(coh); steer_behavior_release(wan);
    return blend;
}

typedef struct Result { double median, min, max, neighbors, speed; size_t bytes, brain_bytes; } Result;

static int run_engine(int n, int ticks, int reorder, Result *r)
{
    double L = sqrt(n * M_PI * 25.0 / 10.0);
    steer_WorldDesc wd = { 0 };
    wd.dim = 2;
    wd.size[0] = wd.size[1] = L;
    wd.wrap = true;
    wd.seed = 12345;
    wd.dt = 1.0 / 60.0;
    wd.no_record = true; // the inspector's per-node record is a debugging aid
    wd.reorder_period = reorder;
    steer_World *w;
    must(steer_world_new(&wd, &w), "world");
    must(steer_world_reserve(w, n), "reserve"); // as a game that knows its population would
    steer_Behavior *brain = flock_brain();
    uint32_t s = 12345;
    for (int i = 0; i < n; i++) {
        double px = unit(&s) * L, py = unit(&s) * L, th = unit(&s) * 2 * M_PI;
        (void)unit(&s); // phi: the engine draws the wander angle from the agent's own stream
        uint32_t own = xs32(&s);
        steer_AgentDesc ad = { .position = { px, py, 0 }, .velocity = { cos(th), sin(th), 0 },
                               .mass = 1, .max_speed = 2, .max_force = 0.5, .radius = 0.5, .brain = brain };
        steer_Agent a;
        must(steer_spawn(w, &ad, &a), "spawn");
        must(steer_agent_set_rng(w, a, own ? own : 0x9E3779B9u), "rng");
    }
    must(steer_world_step(w, WARMUP), "warm-up");
    double *t = malloc(sizeof *t * (size_t)ticks);
    if (!t) return -1;
    for (int i = 0; i < ticks; i++) {
        double t0 = now_ms();
        must(steer_world_step(w, 1), "step");
        t[i] = now_ms() - t0;
    }
    qsort(t, (size_t)ticks, sizeof *t, cmp_double);
    r->median = t[ticks / 2];
    r->min = t[0];
    r->max = t[ticks - 1];
    free(t);
    // the same check figures as BENCH.md: mean neighbours within 5, mean speed
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
    steer_behavior_release(brain);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: steer-bench flock --n N [--ticks T] [--runs R] [--no-fused] [--reorder K]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "flock") != 0) return usage();
    int n = 10000, ticks = 200, runs = 1, fused = 1, reorder = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ticks") && i + 1 < argc) ticks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-fused")) fused = 0;
        else if (!strcmp(argv[i], "--reorder") && i + 1 < argc) reorder = atoi(argv[++i]);
        else return usage();
    }
    if (n < 1 || ticks < 1 || runs < 1) return usage();
    for (int r = 0; r < runs; r++) {
        Result e;
        if (run_engine(n, ticks, reorder, &e)) return 1;
        size_t per = (e.bytes - e.brain_bytes) / (size_t)n;
        printf("flock n=%d ticks=%d median_ms=%.3f min_ms=%.3f max_ms=%.3f bytes_per_agent=%zu "
               "brain_bytes_per_agent=%zu mean_neighbors=%.2f mean_speed=%.3f",
               n, ticks, e.median, e.min, e.max, per, e.brain_bytes / (size_t)n, e.neighbors, e.speed);
        if (fused) {
            fused_Stats f;
            if (fused_flock_run(n, ticks, &f) == 0)
                printf(" fused_median_ms=%.3f ratio=%.2f fused_mean_neighbors=%.2f fused_mean_speed=%.3f",
                       f.median_ms, e.median / f.median_ms, f.mean_neighbors, f.mean_speed);
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
