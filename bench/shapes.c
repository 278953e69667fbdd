// SPDX-License-Identifier: MIT
// shapes.c — steer-bench shapes: what the shape grid's queries cost when
// the shapes are far apart (issue 29). Figures, not tests.
//
//   steer-bench shapes [--n N] [--ticks T] [--runs R]
//
// Two worlds, each timed tick by tick after a warm-up; the figure is the
// median tick divided by N:
//   far    3D: two flat boxes (1 x 1 x 0.01 m) 10^7 m apart, a grid of
//          1024 x 1024 cells in one layer; N agents by the first, each
//          steered by steer.reciprocal{ obstacle_horizon = 100 } round
//          a seek, at max_speed 10^5 m/s: a query box over the whole grid
//   town   2D: a town of 2,400 walls (20 x 30 houses of four walls on
//          a 400 x 600 m plan), N agents in its streets with
//          steer.reciprocal (obstacle_horizon 2, max_speed 2 m/s): the
//          common case, a query of a few cells
// Prints one line per run:
//   shapes n=N ticks=T far_us=X town_us=X cells=C
// far_us / town_us: us per agent-tick; cells: the far world's shape grid.
#include "steer.h"
#include "core/world.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FAR, TOWN };

// The town's walls: each house a 12 x 12 m square of four walls, on a
// plan of 20 x 30 blocks of 20 m.
static int add_town(steer_World *w)
{
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 30; j++) {
            double x = 20.0 * i + 4, y = 20.0 * j + 4;
            double c[5][3] = { { x, y, 0 }, { x + 12, y, 0 }, { x + 12, y + 12, 0 }, { x, y + 12, 0 }, { x, y, 0 } };
            for (int k = 0; k < 4; k++)
                if (steer_add_wall(w, c[k], c[k + 1], NULL) != STEER_OK) return -1;
        }
    return 0;
}

// Median ms of one tick of world `kind` with n agents; -1 on failure.
static double run_world(int kind, int n, int ticks, uint32_t *cells)
{
    steer_WorldDesc wd = { .dim = kind == FAR ? 3 : 2, .seed = 1, .no_record = true, .threads = 1 };
    steer_World *w;
    if (steer_world_new(&wd, &w) != STEER_OK) return -1;
    if (kind == FAR) {
        if (steer_add_box(w, (double[3]){ 0, 0, 0 }, (double[3]){ 1, 1, 0.01 }, NULL) != STEER_OK ||
            steer_add_box(w, (double[3]){ 1e7, 1e7, 0 }, (double[3]){ 1e7 + 1, 1e7 + 1, 0.01 }, NULL) != STEER_OK)
            return -1;
    } else if (add_town(w) != 0) return -1;
    steer_Behavior *seek = NULL, *orca = NULL;
    double goal[3] = { kind == FAR ? 50 : 200, kind == FAR ? 50 : 300, kind == FAR ? 5 : 0 };
    if (steer_behavior_new("seek", &seek) != STEER_OK || steer_behavior_set_target_point(seek, "target", goal) ||
        steer_behavior_new("reciprocal", &orca) != STEER_OK ||
        steer_behavior_set_number(orca, "obstacle_horizon", kind == FAR ? 100 : 2) != STEER_OK ||
        steer_behavior_add_child(orca, seek, 1) != STEER_OK)
        return -1;
    for (int i = 0; i < n; i++) {
        steer_AgentDesc ad = { .max_speed = kind == FAR ? 1e5 : 2, .max_force = 4, .radius = 0.5, .brain = orca };
        if (kind == FAR) {
            // a 20 m cube of agents 1.3 m apart
            ad.position[0] = 2 + 1.3 * (i % 15);
            ad.position[1] = 2 + 1.3 * (i / 15 % 15);
            ad.position[2] = 2 + 1.3 * (i / 225);
        } else {
            // on the streets: the 8 m between two houses' walls
            ad.position[0] = 20.0 * (i % 20) + 18 + 0.7 * (i / 20 % 3);
            ad.position[1] = fmod(7.3 * i, 600);
        }
        if (steer_spawn(w, &ad, NULL) != STEER_OK) return -1;
    }
    steer_world_step(w, 5);
    *cells = w->geo.ncells;
    double median = bench_step_median_ms(w, ticks);
    steer_world_free(w);
    steer_behavior_release(orca);
    steer_behavior_release(seek);
    return median;
}

int steer_bench_shapes(int argc, char **argv)
{
    int n = 200, ticks = 20, runs = 1;
    int ok = 1;
    for (int i = 2; i < argc && ok; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ticks") && i + 1 < argc) ticks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else ok = 0;
    }
    if (!ok || n < 1 || ticks < 1 || runs < 1) {
        fprintf(stderr, "usage: steer-bench shapes [--n N] [--ticks T] [--runs R]\n");
        return 2;
    }
    for (int r = 0; r < runs; r++) {
        uint32_t cells = 0, town_cells = 0;
        double far = run_world(FAR, n, ticks, &cells), town = run_world(TOWN, n, ticks, &town_cells);
        if (far < 0 || town < 0) {
            fprintf(stderr, "steer-bench shapes: a world failed\n");
            return 1;
        }
        printf("shapes n=%d ticks=%d far_us=%.2f town_us=%.2f cells=%u\n", n, ticks, far * 1e3 / n, town * 1e3 / n,
               cells);
        fflush(stdout);
    }
    return 0;
}
