// SPDX-License-Identifier: MIT
// navmesh.c — `steer-bench navmesh`: steer's navigation meshes on the levels
// of nav_levels.h, the same levels and query pairs as the Detour peer
// (bench/peers/detour_nav.cpp; bench/navmesh-vs-detour.py runs both).
//
//   steer-bench navmesh [--level NAME|all] [--radius 0|0.5|both] [--queries N] [--repeat K] [--lengths FILE]
//
// Builds each level's mesh once, from its rings (steerN_mesh_build, then
// steerN_mesh_prepare), and runs the level's query pairs on that one mesh
// for every radius: one steerN_mesh_path per pair, which locates both
// points, searches and string-pulls the way with corners rounded by the
// radius (Detour's findNearestPoly x2 + findPath + findStraightPath). Prints
// one line per level and radius:
//   navmesh level=L radius=R verts=V tris=T build_ms=X prepare_ms=X bytes=B queries=N repeat=K median_us=X
//     p99_us=X worst_us=X no_path=K start_off=K goal_off=K narrow=K none=K mean_len_m=X
// (one line), where
//   build_ms, prepare_ms  wall time of steerN_mesh_build (rings -> mesh,
//               exact) and steerN_mesh_prepare (widths, indexes), once per
//               level: the same mesh serves every radius
//   bytes       steerN_mesh_bytes: the mesh and what prepare derived
//   median_us, p99_us, worst_us   of one steerN_mesh_path: each runs K
//               times in a row (--repeat, default 3) and counts its fastest,
//               as detour-nav's do (a preempted query is not the tail)
//   no_path     pairs with a status other than found, by status: start_off,
//               goal_off (not on the mesh nor within the radius of it),
//               narrow (a way exists, none wide enough), none (no way)
//   mean_len_m  mean length of the paths found
// --lengths FILE appends per pair "level radius index length" (length "-"
// for no path), as detour-nav does, for bench/navmesh-vs-detour.py.
#include "timing.h"
#include "nav_levels.h"
#include "nav/mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)NAV_RING_OUTLINE == (int)STEERN_RING_OUTLINE && (int)NAV_RING_OBSTACLE == (int)STEERN_RING_OBSTACLE,
               "nav_levels.h's ring roles are steer's");

static int usage(void)
{
    fprintf(stderr, "usage: steer-bench navmesh [--level NAME|all] [--radius 0|0.5|both] [--queries N] "
                    "[--repeat K] [--lengths FILE]\n");
    return 2;
}

static int run_level(const NavLevel *l, const double *radii, int nradii, int queries, int repeat, FILE *lengths)
{
    steerN_MeshSpec spec = { .xy = l->xy,
                             .ring_end = l->ring_end,
                             .ring_role = l->ring_role,
                             .nrings = l->nrings,
                             .nareas = 1,
                             .area_names = (const char *const[]){ "default" },
                             .area_costs = NULL };
    steerN_MeshError err;
    double t0 = bench_now_ms();
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
    double t1 = bench_now_ms();
    if (!m) {
        fprintf(stderr, "steer-bench navmesh: %s: steerN_mesh_build: %s\n", l->name, err.message);
        return 1;
    }
    if (steerN_mesh_prepare(m)) {
        fprintf(stderr, "steer-bench navmesh: %s: steerN_mesh_prepare: out of memory\n", l->name);
        steerN_mesh_release(m);
        return 1;
    }
    double t2 = bench_now_ms();
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    double *us = malloc(sizeof *us * (size_t)queries);
    if (!q || !us) {
        fprintf(stderr, "steer-bench navmesh: out of memory\n");
        steerN_mesh_query_free(q);
        free(us);
        steerN_mesh_release(m);
        return 1;
    }
    for (int k = 0; k < nradii; k++) {
        steerN_MeshFilter f = { .radius = radii[k], .cost = NULL };
        int count[STEERN_PATH_NOMEM + 1] = { 0 };
        double total_len = 0;
        for (int i = 0; i < queries; i++) {
            const double *p = l->pairs + 4 * i;
            steerN_PathStatus st = STEERN_PATH_NONE;
            us[i] = INFINITY;
            for (int r = 0; r < repeat; r++) {
                double s = bench_now();
                st = steerN_mesh_path(q, m, p, p + 2, &f);
                double t = (bench_now() - s) * 1e6;
                if (t < us[i]) us[i] = t;
            }
            count[st]++;
            double len = st == STEERN_PATH_FOUND ? steerN_mesh_path_length(q) : 0;
            total_len += len;
            if (!lengths) continue;
            if (st == STEERN_PATH_FOUND) fprintf(lengths, "%s %g %d %.4f\n", l->name, radii[k], i, len);
            else fprintf(lengths, "%s %g %d -\n", l->name, radii[k], i);
        }
        int found = count[STEERN_PATH_FOUND];
        double median = bench_median(us, queries); // sorts them
        printf(
            "navmesh level=%s radius=%g verts=%u tris=%u build_ms=%.1f prepare_ms=%.1f bytes=%zu queries=%d "
            "repeat=%d median_us=%.2f p99_us=%.1f worst_us=%.1f no_path=%d start_off=%d goal_off=%d narrow=%d none=%d "
            "mean_len_m=%.3f\n",
            l->name, radii[k], m->nvert, m->ntri, t1 - t0, t2 - t1, steerN_mesh_bytes(m), queries, repeat, median,
            us[(int)(0.99 * (queries - 1))], us[queries - 1], queries - found, count[STEERN_PATH_START_OFF],
            count[STEERN_PATH_GOAL_OFF], count[STEERN_PATH_NARROW], count[STEERN_PATH_NONE],
            found ? total_len / found : 0.0);
        fflush(stdout);
    }
    free(us);
    steerN_mesh_query_free(q);
    steerN_mesh_release(m);
    return 0;
}

int steer_bench_navmesh(int argc, char **argv)
{
    const char *level = "all", *radius = "both", *lengths_path = NULL;
    int queries = NAV_LEVEL_PAIRS, repeat = 3;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--level") && i + 1 < argc) level = argv[++i];
        else if (!strcmp(argv[i], "--radius") && i + 1 < argc) radius = argv[++i];
        else if (!strcmp(argv[i], "--queries") && i + 1 < argc) queries = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--lengths") && i + 1 < argc) lengths_path = argv[++i];
        else return usage();
    }
    if (queries < 1 || queries > NAV_LEVEL_PAIRS || repeat < 1) return usage();
    double radii[2] = { 0.0, 0.5 };
    int nradii = 2;
    if (strcmp(radius, "both")) {
        char *end;
        radii[0] = strtod(radius, &end);
        nradii = 1;
        if (*end || !(radii[0] >= 0 && radii[0] <= 10)) return usage();
    }
    FILE *lengths = NULL;
    if (lengths_path && !(lengths = fopen(lengths_path, "a"))) {
        fprintf(stderr, "steer-bench navmesh: cannot open %s\n", lengths_path);
        return 1;
    }
    int ran = 0, bad = 0;
    for (int k = 0; nav_level_names[k] && !bad; k++) {
        if (strcmp(level, "all") && strcmp(level, nav_level_names[k])) continue;
        NavLevel l;
        if (nav_level_make(nav_level_names[k], &l)) {
            fprintf(stderr, "steer-bench navmesh: cannot make level %s\n", nav_level_names[k]);
            bad = 1;
            break;
        }
        bad = run_level(&l, radii, nradii, queries, repeat, lengths);
        nav_level_free(&l);
        ran++;
    }
    if (lengths) fclose(lengths);
    if (bad) return 1;
    return ran ? 0 : usage();
}
