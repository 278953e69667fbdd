// SPDX-License-Identifier: MIT
// navobst.c — `steer-bench navobst`: what one move of an obstacle costs on
// the levels of nav_levels.h (issue 33, item 4): a 1 m x 1 m crate pushed
// every tick, beside Detour's tile-cache obstacle update on the same
// levels (bench/peers/detour_nav.cpp --obstacles).
//
//   steer-bench navobst [--level NAME|all] [--moves N]
//
// Per level: the mesh built from its rings (steerN_mesh_build + prepare),
// a crate put down at the first query pair's start, then N moves of
// 5 cm (3 m/s at 60 Hz), 40 one way and 40 back, each timed whole
// (steerN_obstacle_move: the regions under the old and new footprint
// rebuilt, their slots of the live mesh rewritten in place and its derived
// data updated where the change reaches, mesh_rebuild.c and
// mesh_update.c). Prints one line:
//   navobst level=L tris=T add_us=X move_median_us=X move_p99_us=X move_worst_us=X prepare_us=X
//     remove_us=X hash=H
// where prepare_us is one whole steerN_mesh_prepare of the live mesh (what
// every move cost before mesh_update.c) and hash
// the live mesh's after the moves (the same on every machine).
#include "timing.h"
#include "nav_levels.h"
#include "nav/mesh.h"
#include "nav/mesh_dyn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const NavLevel *l, int moves)
{
    steerN_MeshSpec spec = {
        .xy = l->xy, .ring_end = l->ring_end, .ring_role = l->ring_role, .nrings = l->nrings, .nareas = 1
    };
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
    if (!m || steerN_mesh_prepare(m)) {
        fprintf(stderr, "steer-bench navobst: level %s: %s\n", l->name, err.message);
        return 1;
    }
    double x = l->pairs[0], y = l->pairs[1];
    double crate[8] = { x - 0.5, y - 0.5, x + 0.5, y - 0.5, x + 0.5, y + 0.5, x - 0.5, y + 0.5 };
    uint32_t id;
    double t0 = bench_now();
    steerN_ObstacleStatus st = steerN_obstacle_add(m, crate, 4, STEERN_OBST_BLOCKED, NULL, &id);
    double add = bench_now() - t0;
    double *us = malloc(sizeof *us * (size_t)moves);
    if (st || !us) {
        fprintf(stderr, "steer-bench navobst: level %s: %s\n", l->name, steerN_obstacle_status_text(st));
        free(us);
        steerN_mesh_release(m);
        return 1;
    }
    for (int i = 0; i < moves && !st; i++) {
        double dx = (i / 40) % 2 ? -0.05 : 0.05;
        t0 = bench_now();
        st = steerN_obstacle_move(m, id, dx, 0);
        us[i] = (bench_now() - t0) * 1e6;
    }
    t0 = bench_now();
    int prep = steerN_mesh_prepare(m);
    double prepare = bench_now() - t0;
    uint64_t hash = steerN_mesh_hash_known(m);
    t0 = bench_now();
    if (!st && !prep) st = steerN_obstacle_remove(m, id);
    double remove = bench_now() - t0;
    if (st || prep) {
        fprintf(stderr, "steer-bench navobst: level %s: %s\n", l->name, steerN_obstacle_status_text(st));
    } else {
        double med = bench_median(us, moves); // sorts
        printf("navobst level=%s tris=%u add_us=%.1f move_median_us=%.1f move_p99_us=%.1f move_worst_us=%.1f "
               "prepare_us=%.1f remove_us=%.1f hash=%016llx\n",
               l->name, m->ntri, add * 1e6, med, us[(int)(0.99 * (moves - 1))], us[moves - 1], prepare * 1e6,
               remove * 1e6, (unsigned long long)hash);
    }
    free(us);
    steerN_mesh_release(m);
    return st || prep;
}

int steer_bench_navobst(int argc, char **argv)
{
    const char *level = "all";
    int moves = 400;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--level") && i + 1 < argc) level = argv[++i];
        else if (!strcmp(argv[i], "--moves") && i + 1 < argc) moves = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: steer-bench navobst [--level NAME|all] [--moves N]\n");
            return 2;
        }
    }
    if (moves < 1) moves = 1;
    int bad = 0;
    for (int k = 0; nav_level_names[k] && !bad; k++) {
        if (strcmp(level, "all") && strcmp(level, nav_level_names[k])) continue;
        NavLevel l;
        if (nav_level_make(nav_level_names[k], &l)) return 1;
        bad = run(&l, moves);
        nav_level_free(&l);
    }
    return bad;
}
