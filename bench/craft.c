// SPDX-License-Identifier: MIT
// craft.c — steer-bench craft: what the turn-limited craft model and
// directed seek cost. Figures, not tests.
//
//   steer-bench craft [--n N] [--ticks T] [--runs R] [--threads N]
//
// Three worlds of N agents (2D, unbounded, no recording), each timed tick
// by tick after a warm-up; the figure is the median tick divided by N:
//   point   point masses without a brain: the locomotion pass alone
//   craft   crafts without a brain: craft locomotion (the turn, the speed
//           clamp) in place of the point-mass step
//   seek    crafts steered by steer.directed_seek (all to one waypoint
//           from random poses 4 to 40 radii away): a whole tick per agent
// and one loop of steer_directed_seek_plan calls (the plan alone, through
// the public API, over the same poses). --threads N runs the worlds' ticks
// on N threads (the plan loop stays on one). Prints one line per run:
//   craft n=N ticks=T point_ns=X craft_ns=X craft_extra_ns=X seek_us=X plan_us=X
// point_ns / craft_ns: ns per agent-tick of the brainless worlds (craft
// locomotion per agent-tick is craft_ns; craft_extra_ns = craft_ns -
// point_ns); seek_us: us per agent-tick with directed seek (the behaviour,
// its plan and craft locomotion); plan_us: us per plan call.
#include "steer.h"
#include "timing.h"
#include "xorshift.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RADIUS 5.0
#define SPEED 10.0

// A start pose 4 to 40 radii from the origin: position, then heading angle.
static void pose(uint32_t *s, double p[3], double *heading)
{
    double dist = RADIUS * (4 + 36 * bench_unit(s)), bearing = 2 * M_PI * bench_unit(s);
    p[0] = dist * cos(bearing);
    p[1] = dist * sin(bearing);
    p[2] = 0;
    *heading = 2 * M_PI * bench_unit(s);
}

enum { POINT, CRAFT, SEEK };

// Median ms of one tick for N agents of the given kind; -1 on failure.
static double run_world(int kind, int n, int ticks, int threads)
{
    steer_WorldDesc wd = { 0 };
    wd.seed = 1;
    wd.no_record = true;
    wd.threads = threads;
    steer_World *w;
    if (steer_world_new(&wd, &w) != STEER_OK || steer_world_reserve(w, n) != STEER_OK) return -1;
    steer_Behavior *ds = NULL;
    if (kind == SEEK) {
        double target[3] = { 0, 0, 0 }, heading[3] = { 1, 0, 0 };
        if (steer_behavior_new("directed_seek", &ds) != STEER_OK ||
            steer_behavior_set_target_point(ds, "target", target) != STEER_OK ||
            steer_behavior_set_vector(ds, "heading", heading) != STEER_OK)
            return -1;
    }
    uint32_t s = 2024;
    steer_CraftDesc cd = { STEER_MODEL_CRAFT, SPEED, RADIUS, 0 };
    for (int i = 0; i < n; i++) {
        double p[3], th;
        pose(&s, p, &th);
        steer_AgentDesc ad = { .position = { p[0], p[1], 0 },
                               .velocity = { SPEED * cos(th), SPEED * sin(th), 0 },
                               .max_speed = SPEED,
                               .max_force = 50,
                               .brain = ds };
        steer_Agent a;
        if (steer_spawn(w, &ad, &a) != STEER_OK) return -1;
        if (kind != POINT && steer_agent_set_craft(w, a, &cd) != STEER_OK) return -1;
    }
    steer_world_step(w, 20);
    double *t = malloc(sizeof *t * (size_t)ticks);
    if (!t) return -1;
    for (int i = 0; i < ticks; i++) {
        double t0 = bench_now_ms();
        steer_world_step(w, 1);
        t[i] = bench_now_ms() - t0;
    }
    qsort(t, (size_t)ticks, sizeof *t, bench_cmp_double);
    double median = t[ticks / 2];
    free(t);
    steer_world_free(w);
    steer_behavior_release(ds);
    return median;
}

// us per steer_directed_seek_plan call over n poses, the median of 5 passes.
static double run_plans(int n)
{
    double best[5];
    volatile double sink = 0;
    for (int k = 0; k < 5; k++) {
        uint32_t s = 2024;
        double t0 = bench_now_ms();
        for (int i = 0; i < n; i++) {
            double p[3], th, target[3] = { 0, 0, 0 }, heading[3] = { 1, 0, 0 };
            pose(&s, p, &th);
            double dir[3] = { cos(th), sin(th), 0 };
            steer_SeekPlan plan;
            if (steer_directed_seek_plan(p, dir, SPEED, target, heading, RADIUS, 1.0 / 60.0, true, &plan) == STEER_OK)
                sink += plan.aim[0];
        }
        best[k] = (bench_now_ms() - t0) * 1e3 / n;
    }
    (void)sink;
    qsort(best, 5, sizeof best[0], bench_cmp_double);
    return best[2];
}

int steer_bench_craft(int argc, char **argv)
{
    int n = 10000, ticks = 200, runs = 1, threads = 1;
    int ok = 1;
    for (int i = 2; i < argc && ok; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ticks") && i + 1 < argc) ticks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else ok = 0;
    }
    if (!ok || n < 1 || ticks < 1 || runs < 1 || threads < 1 || threads > STEER_MAX_THREADS) {
        fprintf(stderr, "usage: steer-bench craft [--n N] [--ticks T] [--runs R] [--threads N]\n");
        return 2;
    }
    for (int r = 0; r < runs; r++) {
        double point = run_world(POINT, n, ticks, threads), craft = run_world(CRAFT, n, ticks, threads),
               seek = run_world(SEEK, n, ticks, threads);
        if (point < 0 || craft < 0 || seek < 0) {
            fprintf(stderr, "steer-bench craft: a world failed\n");
            return 1;
        }
        double point_ns = point * 1e6 / n, craft_ns = craft * 1e6 / n;
        printf("craft n=%d ticks=%d point_ns=%.1f craft_ns=%.1f craft_extra_ns=%.1f seek_us=%.3f plan_us=%.3f "
               "threads=%d\n",
               n, ticks, point_ns, craft_ns, craft_ns - point_ns, seek * 1e3 / n, run_plans(n), threads);
        fflush(stdout);
    }
    return 0;
}
