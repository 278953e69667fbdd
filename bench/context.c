// SPDX-License-Identifier: MIT
// context.c — steer-bench context: what steer.context costs against a
// blend of the same children (issue 36's claim: at most 2x a blend's time
// per agent per tick), and the corner trap. Figures, not tests.
//
//   steer-bench context [--n N] [--ticks T] [--runs R] [--slots S]
//
// time: a 40 x 40 m room (four walls and two inner walls of 12 m), N
//   agents (radius 0.4, 2 m/s) on a grid, each given a target across the
//   room (steer_agent_set_target), steered by seek + avoid_agents +
//   avoid_walls, either blended (weights 1, 2, 2) or as
//   steer.context{ interest = { seek }, danger = { avoid_agents,
//   avoid_walls }, slots = S }. Each world is stepped 30 ticks, then T
//   ticks one by one on one thread; the figure is the median tick over N.
// trap: an agent 1 m above a wall, moving toward it at 2 m/s, a threat 2 m
//   above it (flee, panic radius 15) and avoid_walls (length 2), 4 s at
//   60 Hz: blend{ flee, avoid_walls } against context{ interest = { flee },
//   danger = { flee, avoid_walls } }: distance gained from the threat,
//   mean speed, the time spent slower than 0.5 m/s, and the lowest y of
//   the centre (below 0: through the wall).
// Prints one line per run and world:
//   context n=N ticks=T slots=S blend_us=X context_us=Y ratio=Y/X
//   trap KIND gained=M mean=V slow_s=S lowest_y=Y
#include "steer.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static steer_Behavior *make(const char *kind)
{
    steer_Behavior *b = NULL;
    return steer_behavior_new(kind, &b) == STEER_OK ? b : NULL;
}

// The brain of the time world: blend or context of seek, avoid_agents,
// avoid_walls (NULL on failure).
static steer_Behavior *time_brain(bool context, int slots)
{
    steer_Behavior *seek = make("seek"), *agents = make("avoid_agents"), *walls = make("avoid_walls");
    steer_Behavior *b = make(context ? "context" : "blend");
    bool ok = seek && agents && walls && b;
    if (ok && context) {
        ok = steer_behavior_add_child_to(b, "interest", seek) == STEER_OK &&
             steer_behavior_add_child_to(b, "danger", agents) == STEER_OK &&
             steer_behavior_add_child_to(b, "danger", walls) == STEER_OK &&
             steer_behavior_set_number(b, "slots", slots) == STEER_OK;
    } else if (ok) {
        ok = steer_behavior_add_child(b, seek, 1) == STEER_OK && steer_behavior_add_child(b, agents, 2) == STEER_OK &&
             steer_behavior_add_child(b, walls, 2) == STEER_OK;
    }
    steer_behavior_release(seek);
    steer_behavior_release(agents);
    steer_behavior_release(walls);
    if (!ok) {
        steer_behavior_release(b);
        return NULL;
    }
    return b;
}

static int add_wall(steer_World *w, double x0, double y0, double x1, double y1)
{
    return steer_add_wall(w, (double[3]){ x0, y0, 0 }, (double[3]){ x1, y1, 0 }, NULL);
}

// Median ms of one tick; -1 on failure.
static double run_time(bool context, int n, int ticks, int slots)
{
    steer_WorldDesc wd = { .dim = 2, .seed = 1, .no_record = true, .threads = 1 };
    steer_World *w;
    if (steer_world_new(&wd, &w) != STEER_OK) return -1;
    steer_Behavior *brain = time_brain(context, slots);
    int bad = !brain || add_wall(w, 0, 0, 40, 0) || add_wall(w, 40, 0, 40, 40) || add_wall(w, 40, 40, 0, 40) ||
              add_wall(w, 0, 40, 0, 0) || add_wall(w, 14, 8, 14, 20) || add_wall(w, 26, 20, 26, 32);
    int side = (int)ceil(sqrt((double)n));
    for (int i = 0; i < n && !bad; i++) {
        double x = 2 + 36.0 * (i % side) / side, y = 2 + 36.0 * (i / side) / side;
        steer_AgentDesc ad = { .max_speed = 2, .max_force = 4, .radius = 0.4, .brain = brain };
        ad.position[0] = x;
        ad.position[1] = y;
        steer_Agent a;
        double goal[3] = { 40 - x, 40 - y, 0 };
        bad = steer_spawn(w, &ad, &a) != STEER_OK || steer_agent_set_target(w, a, goal, (steer_Agent){ 0 }) != STEER_OK;
    }
    double median = -1;
    if (!bad) {
        steer_world_step(w, 30);
        median = bench_step_median_ms(w, ticks);
    }
    steer_world_free(w);
    steer_behavior_release(brain);
    return median;
}

// The corner trap: 0 ok, -1 on failure.
static int run_trap(bool context)
{
    steer_WorldDesc wd = { .dim = 2, .seed = 3, .no_record = true, .threads = 1 };
    steer_World *w;
    if (steer_world_new(&wd, &w) != STEER_OK) return -1;
    double threat[3] = { 0, 3, 0 };
    steer_Behavior *flee = make("flee"), *walls = make("avoid_walls"), *b = make(context ? "context" : "blend");
    int bad = !flee || !walls || !b || add_wall(w, -30, 0, 30, 0) ||
              steer_behavior_set_target_point(flee, "target", threat) ||
              steer_behavior_set_number(flee, "panic_radius", 15) || steer_behavior_set_number(walls, "length", 2);
    if (!bad && context)
        bad = steer_behavior_add_child_to(b, "interest", flee) || steer_behavior_add_child_to(b, "danger", flee) ||
              steer_behavior_add_child_to(b, "danger", walls);
    else if (!bad) bad = steer_behavior_add_child(b, flee, 1) || steer_behavior_add_child(b, walls, 1);
    steer_AgentDesc ad = {
        .position = { 0, 1, 0 }, .velocity = { 0, -2, 0 }, .max_speed = 3, .max_force = 6, .radius = 0.5, .brain = b
    };
    steer_Agent a;
    bad = bad || steer_spawn(w, &ad, &a) != STEER_OK;
    double sum = 0, slow = 0, lowest = 1e30, p[3] = { 0, 0, 0 }, v[3];
    int ticks = 240;
    for (int t = 0; t < ticks && !bad; t++) {
        steer_world_step(w, 1);
        bad =
            steer_agent_vec(w, a, STEER_PROP_POSITION, p) != STEER_OK || steer_agent_vec(w, a, STEER_PROP_VELOCITY, v);
        double s = hypot(v[0], v[1]);
        sum += s;
        if (s < 0.5) slow += 1.0 / 60;
        if (p[1] < lowest) lowest = p[1];
    }
    if (!bad)
        printf("trap %-7s gained=%.2f mean=%.2f slow_s=%.2f lowest_y=%.2f\n", context ? "context" : "blend",
               hypot(p[0] - threat[0], p[1] - threat[1]) - 2, sum / ticks, slow, lowest);
    steer_world_free(w);
    steer_behavior_release(flee);
    steer_behavior_release(walls);
    steer_behavior_release(b);
    return bad ? -1 : 0;
}

int steer_bench_context(int argc, char **argv)
{
    int n = 400, ticks = 60, runs = 1, slots = 16, ok = 1;
    for (int i = 2; i < argc && ok; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ticks") && i + 1 < argc) ticks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--slots") && i + 1 < argc) slots = atoi(argv[++i]);
        else ok = 0;
    }
    if (!ok || n < 1 || ticks < 1 || runs < 1 || slots < 4 || slots > 64) {
        fprintf(stderr, "usage: steer-bench context [--n N] [--ticks T] [--runs R] [--slots S]\n");
        return 2;
    }
    for (int r = 0; r < runs; r++) {
        double blend = run_time(false, n, ticks, slots), context = run_time(true, n, ticks, slots);
        if (blend < 0 || context < 0) {
            fprintf(stderr, "steer-bench context: a world failed\n");
            return 1;
        }
        printf("context n=%d ticks=%d slots=%d blend_us=%.2f context_us=%.2f ratio=%.2f\n", n, ticks, slots,
               blend * 1e3 / n, context * 1e3 / n, context / blend);
        fflush(stdout);
    }
    if (run_trap(false) || run_trap(true)) {
        fprintf(stderr, "steer-bench context: the trap world failed\n");
        return 1;
    }
    return 0;
}
