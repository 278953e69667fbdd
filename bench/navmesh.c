// SPDX-License-Identifier: MIT
// navmesh.c — `steer-bench navmesh`: steer's navigation meshes on the levels
// of nav_levels.h, the same levels and query pairs as the Detour peer
// (bench/peers/detour_nav.cpp; bench/navmesh-vs-detour.py runs both).
//
//   steer-bench navmesh [--level NAME|all] [--radius 0|0.5|both] [--queries N] [--repeat K] [--lengths FILE]
//                       [--times FILE]
//   steer-bench navmesh --level NAME --crowd N [--threads T] [--ticks K]   (navigating crowds: run_crowd)
//
// (run_crowd prints one navmesh_crowd line: tick times while the first
// requests drain and after, the plans and arrivals, and the world's hash
// at the end, the same on any thread count: a change that must not change
// results shows it there.)
// Builds each level's mesh once, from its rings (steerN_mesh_build, then
// steerN_mesh_prepare), and runs the level's query pairs on that one mesh
// for every radius: one steerN_mesh_path per pair, which locates both
// points, searches and string-pulls the way with corners rounded by the
// radius (Detour's findNearestPoly x2 + findPath + findStraightPath). Prints
// one line per level and radius:
//   navmesh level=L radius=R verts=V tris=T build_ms=X prepare_ms=X bytes=B queries=N repeat=K median_us=X
//     p99_us=X worst_us=X no_path=K start_off=K goal_off=K narrow=K none=K mean_len_m=X mean_work=X path_hash=H
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
//   mean_work   mean triangles expanded per query (steerN_mesh_path_work)
//   path_hash   FNV-1a over every pair's status, path points and corridor
//               (the doubles' bits, little-endian): a change to the
//               search's speed must leave it as it was
// --lengths FILE appends per pair "level radius index length" (length "-"
// for no path), as detour-nav does, for bench/navmesh-vs-detour.py.
// --times FILE appends per pair "level radius index us found" (us: the
// fastest of the K runs; found 1 or 0), as detour-nav does: the script
// times the pairs both sides found a path for apart from the rest.
#include "timing.h"
#include "mesh_walls.h"
#include "nav_levels.h"
#include "nav/mesh.h"
#include "steer.h"
#include "steer_nav.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)NAV_RING_OUTLINE == (int)STEERN_RING_OUTLINE && (int)NAV_RING_OBSTACLE == (int)STEERN_RING_OBSTACLE,
               "nav_levels.h's ring roles are steer's");

static int usage(void)
{
    fprintf(stderr, "usage: steer-bench navmesh [--level NAME|all] [--radius 0|0.5|both] [--queries N] "
                    "[--repeat K] [--lengths FILE] [--times FILE]\n"
                    "       steer-bench navmesh --level NAME --crowd N [--threads T] [--ticks K]\n");
    return 2;
}

// FNV-1a over the 8 little-endian bytes of v.
static uint64_t hash_u64(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) h = (h ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    return h;
}

// The query's answer (status, points, corridor) into h.
static uint64_t hash_path(uint64_t h, const steerN_MeshQuery *q, steerN_PathStatus st)
{
    uint32_t n, nc;
    const double *pts = steerN_mesh_path_points(q, &n);
    const int32_t *corr = steerN_mesh_path_corridor(q, &nc);
    h = hash_u64(hash_u64(hash_u64(h, (uint64_t)st), n), nc);
    for (uint32_t i = 0; i < 2 * n; i++) {
        uint64_t bits;
        memcpy(&bits, pts + i, sizeof bits);
        h = hash_u64(h, bits);
    }
    for (uint32_t i = 0; i < nc; i++) h = hash_u64(h, (uint32_t)corr[i]);
    return h;
}

static int run_level(const NavLevel *l, const double *radii, int nradii, int queries, int repeat, FILE *lengths,
                     FILE *times)
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
        uint64_t hash = 0xcbf29ce484222325ull;
        double work = 0;
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
            hash = hash_path(hash, q, st);
            work += steerN_mesh_path_work(q);
            double len = st == STEERN_PATH_FOUND ? steerN_mesh_path_length(q) : 0;
            total_len += len;
            if (times) fprintf(times, "%s %g %d %.3f %d\n", l->name, radii[k], i, us[i], st == STEERN_PATH_FOUND);
            if (!lengths) continue;
            if (st == STEERN_PATH_FOUND) fprintf(lengths, "%s %g %d %.4f\n", l->name, radii[k], i, len);
            else fprintf(lengths, "%s %g %d -\n", l->name, radii[k], i);
        }
        int found = count[STEERN_PATH_FOUND];
        double median = bench_median(us, queries); // sorts them
        printf(
            "navmesh level=%s radius=%g verts=%u tris=%u build_ms=%.1f prepare_ms=%.1f bytes=%zu queries=%d "
            "repeat=%d median_us=%.2f p99_us=%.1f worst_us=%.1f no_path=%d start_off=%d goal_off=%d narrow=%d none=%d "
            "mean_len_m=%.3f mean_work=%.0f path_hash=%016llx\n",
            l->name, radii[k], m->nvert, m->ntri, t1 - t0, t2 - t1, steerN_mesh_bytes(m), queries, repeat, median,
            us[(int)(0.99 * (queries - 1))], us[queries - 1], queries - found, count[STEERN_PATH_START_OFF],
            count[STEERN_PATH_GOAL_OFF], count[STEERN_PATH_NARROW], count[STEERN_PATH_NONE],
            found ? total_len / found : 0.0, work / queries, (unsigned long long)hash);
        fflush(stdout);
    }
    free(us);
    steerN_mesh_query_free(q);
    steerN_mesh_release(m);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// --crowd N: N agents (radius 0.3 m, 1.4 m/s) of the level's query pairs,
// each from its pair's start to its end, steer.reciprocal wrapping
// steer.navigate on one mesh whose walls are the world's (steer_nav.h and
// steer.h only, as a C host does it), on `threads` threads, for `ticks`
// ticks of 1/60 s. All ask for a way at tick 1; the world answers within
// its path budget (default 4096 triangles a tick). Prints the ticks'
// wall time: the median and worst of the ticks while requests drain and
// of those after, and when the last plan came:
//   navmesh_crowd level=L agents=N threads=T drain_ticks=K drain_median_ms=X drain_worst_ms=X
//     median_ms=X p99_ms=X worst_ms=X plans=K arrived=K
static int run_crowd(const NavLevel *l, int n, int threads, int ticks)
{
    steer_NavMeshDesc d = {
        .xy = l->xy, .ring_end = l->ring_end, .ring_role = l->ring_role, .nrings = (int)l->nrings, .nareas = 1
    };
    steer_NavMesh *m = NULL;
    if (steer_navmesh_new(&d, &m) != STEER_OK) {
        fprintf(stderr, "steer-bench navmesh: %s: %s\n", l->name, steer_last_error());
        return 1;
    }
    steer_WorldDesc wd = { .threads = threads, .size = { l->w, l->h } };
    steer_World *w = NULL;
    steer_Behavior *rec = NULL, *nav = NULL;
    if (steer_world_new(&wd, &w) || steer_behavior_new("reciprocal", &rec) || steer_behavior_new("navigate", &nav) ||
        steer_behavior_set_navmesh(nav, "navmesh", m) || steer_behavior_add_child(rec, nav, 1)) {
        fprintf(stderr, "steer-bench navmesh: crowd setup: %s\n", steer_last_error());
        return 1;
    }
    if (bench_add_mesh_walls(w, m) != STEER_OK) {
        fprintf(stderr, "steer-bench navmesh: the mesh's walls: %s\n", steer_last_error());
        return 1;
    }
    for (int i = 0; i < n; i++) {
        const double *p = l->pairs + 4 * (i % l->npairs);
        steer_AgentDesc ad = {
            .position = { p[0], p[1] }, .radius = 0.3, .max_speed = 1.4, .max_force = 5, .brain = rec
        };
        steer_Agent a;
        if (steer_spawn(w, &ad, &a) ||
            steer_agent_set_target(w, a, (const double[3]){ p[2], p[3], 0 }, STEER_NO_AGENT)) {
            fprintf(stderr, "steer-bench navmesh: spawn %d: %s\n", i, steer_last_error());
            return 1;
        }
    }
    steer_behavior_release(rec);
    steer_behavior_release(nav);
    steer_navmesh_free(m);
    double *ms = malloc(sizeof *ms * (size_t)ticks);
    int plans = 0, arrived = 0, drain = ticks;
    for (int t = 0; t < ticks; t++) {
        double t0 = bench_now_ms();
        steer_world_step(w, 1);
        ms[t] = bench_now_ms() - t0;
        int k;
        const steer_Event *ev = steer_world_events(w, &k);
        for (int i = 0; i < k; i++) {
            plans += ev[i].type == STEER_EVENT_PATH_FOUND || ev[i].type == STEER_EVENT_UNREACHABLE;
            arrived += ev[i].type == STEER_EVENT_ARRIVE;
        }
        if (plans >= n && drain == ticks) drain = t + 1;
    }
    int after = ticks - drain;
    qsort(ms, (size_t)drain, sizeof *ms, cmp_double);
    double dmed = ms[drain / 2], dworst = ms[drain - 1];
    double med = 0, p99 = 0, worst = 0;
    if (after > 0) {
        qsort(ms + drain, (size_t)after, sizeof *ms, cmp_double);
        med = ms[drain + after / 2];
        p99 = ms[drain + (int)(0.99 * (after - 1))];
        worst = ms[ticks - 1];
    }
    printf("navmesh_crowd level=%s agents=%d threads=%d drain_ticks=%d drain_median_ms=%.3f drain_worst_ms=%.3f "
           "median_ms=%.3f p99_ms=%.3f worst_ms=%.3f plans=%d arrived=%d hash=%016llx\n",
           l->name, n, threads, drain, dmed, dworst, med, p99, worst, plans, arrived,
           (unsigned long long)steer_world_hash(w));
    free(ms);
    steer_world_free(w);
    return 0;
}

int steer_bench_navmesh(int argc, char **argv)
{
    const char *level = "all", *radius = "both", *lengths_path = NULL, *times_path = NULL;
    int queries = NAV_LEVEL_PAIRS, repeat = 3, crowd = 0, threads = 2, ticks = 600;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--level") && i + 1 < argc) level = argv[++i];
        else if (!strcmp(argv[i], "--radius") && i + 1 < argc) radius = argv[++i];
        else if (!strcmp(argv[i], "--queries") && i + 1 < argc) queries = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--lengths") && i + 1 < argc) lengths_path = argv[++i];
        else if (!strcmp(argv[i], "--times") && i + 1 < argc) times_path = argv[++i];
        else if (!strcmp(argv[i], "--crowd") && i + 1 < argc) crowd = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ticks") && i + 1 < argc) ticks = atoi(argv[++i]);
        else return usage();
    }
    if (queries < 1 || queries > NAV_LEVEL_PAIRS || repeat < 1 || crowd < 0 || threads < 1 || threads > 64 || ticks < 2)
        return usage();
    double radii[2] = { 0.0, 0.5 };
    int nradii = 2;
    if (strcmp(radius, "both")) {
        char *end;
        radii[0] = strtod(radius, &end);
        nradii = 1;
        if (*end || !(radii[0] >= 0 && radii[0] <= 10)) return usage();
    }
    FILE *lengths = NULL, *times = NULL;
    if ((lengths_path && !(lengths = fopen(lengths_path, "a"))) || (times_path && !(times = fopen(times_path, "a")))) {
        fprintf(stderr, "steer-bench navmesh: cannot open %s\n", lengths_path && !lengths ? lengths_path : times_path);
        if (lengths) fclose(lengths);
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
        bad = crowd > 0 ? run_crowd(&l, crowd, threads, ticks)
                        : run_level(&l, radii, nradii, queries, repeat, lengths, times);
        nav_level_free(&l);
        ran++;
    }
    if (lengths) fclose(lengths);
    if (times) fclose(times);
    if (bad) return 1;
    return ran ? 0 : usage();
}
