// SPDX-License-Identifier: MIT
// nav.c — steer-bench-nav: the navigation figures of issue 5.
//
//   steer-bench-nav [--runs R]
//
// Prints one line per workload (medians over R runs, default 5):
//   flow_build n=256 blocked=0.2 median_ms=X          a field built from scratch
//   flow_build n=1024 ...
//   goal_move n=N step_cells<=2 median_ms=X rebuild_ms=X ratio=X mean_touched_per_repair=C
//                                                      a small goal move (a repair)
//                                                      against a rebuild to the same goal
//   follow_flow n=256 agents=10000 median_ms=X        one world tick of 10,000 agents
//                                                      with follow_flow as their brain
//   astar n=256 maze queries_per_s=X mean_path_m=L
//   walls n=N segments=S add_ms=X raycasts_per_s=X   the grid's walls in a world
//                                                      (what w:add_grid does), then
//                                                      w:raycast from random open cells
//   navmesh_build side=200 boxes=B median_ms=X ...    a navigation mesh from polygons:
//                                                      a square level with B random boxes
//                                                      (0.5 to 4 m, any angle, overlapping)
//   navmesh_grid n=N blocked=0.2 median_ms=X ...      a navigation mesh from a grid
// Grids have 20% of their cells blocked at random (xorshift32, seed 12345),
// cell 1 m; the A* grid is a maze (recursive backtracker, corridors one
// cell wide) with random pairs of open cells. Figures, not tests.
#include "steer.h"
#include "timing.h"
#include "xorshift.h"
#include "../src/nav/mesh.h"
#include "../src/nav/nav.h"
#include "../src/behaviors/behavior.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const steerB_Kind steerB_follow_flow;

static void die(const char *what)
{
    fprintf(stderr, "steer-bench-nav: %s\n", what);
    exit(1);
}

static void random_grid(steerN_Grid *g, int n, double blocked, uint32_t *rng)
{
    double origin[2] = { 0, 0 };
    if (steerN_grid_init(g, n, n, 1.0, origin, NULL)) die("out of memory");
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            if (bench_unit(rng) < blocked) steerN_set_cost(g, x, y, INFINITY);
}

// An open cell near (x, y): the first one scanning outward along the row.
static void open_near(const steerN_Grid *g, int *x, int *y)
{
    for (int r = 0; r < g->nx; r++)
        for (int k = -r; k <= r; k += r ? 2 * r : 1)
            for (int dy = -r; dy <= r; dy++)
                if (steerN_open(g, *x + k, *y + dy)) {
                    *x += k;
                    *y += dy;
                    return;
                }
    die("no open cell");
}

// The benches' field: a grid of n x n cells, 20% blocked, and a field on
// it (not built) with its goal at the open cell nearest the middle.
static void field_setup(int n, uint32_t *rng, steerN_Grid *g, steerN_Flow *f, int *gx, int *gy, double goal[2])
{
    random_grid(g, n, 0.2, rng);
    if (steerN_flow_init(f, g)) die("out of memory");
    *gx = n / 2;
    *gy = n / 2;
    open_near(g, gx, gy);
    steerN_center(g, *gx, *gy, goal);
}

static void bench_build(int n, int runs)
{
    uint32_t rng = 12345;
    steerN_Grid g;
    steerN_Flow f;
    int gx, gy;
    double goal[2], t[32];
    field_setup(n, &rng, &g, &f, &gx, &gy, goal);
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now_ms();
        if (steerN_flow_build(&f, goal, 1)) die("out of memory");
        t[r] = bench_now_ms() - t0;
    }
    printf("flow_build n=%d blocked=0.2 median_ms=%.2f cells=%u\n", n, bench_median(t, runs), f.touched);

    // goal moves: a walk of small steps (up to 2 cells), each a repair,
    // against a rebuild to the same goal
    enum { MOVES = 64 };
    double rep[MOVES], reb[MOVES];
    int moves = 0;
    uint64_t touched = 0;
    int repaired = 0;
    steerN_Flow fresh;
    if (steerN_flow_init(&fresh, &g)) die("out of memory");
    for (int i = 0; i < MOVES; i++) {
        int nx = gx + (int)(bench_xs32(&rng) % 5) - 2, ny = gy + (int)(bench_xs32(&rng) % 5) - 2;
        if (!steerN_open(&g, nx, ny)) continue;
        gx = nx;
        gy = ny;
        steerN_center(&g, gx, gy, goal);
        double t0 = bench_now_ms();
        if (steerN_flow_set_goal(&f, goal)) die("out of memory");
        rep[moves] = bench_now_ms() - t0;
        repaired += f.incremental;
        if (f.incremental) touched += f.touched;
        t0 = bench_now_ms();
        if (steerN_flow_build(&fresh, goal, 1)) die("out of memory");
        reb[moves] = bench_now_ms() - t0;
        moves++;
    }
    double mr = bench_median(rep, moves), mb = bench_median(reb, moves);
    printf("goal_move n=%d step_cells<=2 moves=%d repaired=%d median_ms=%.4f rebuild_ms=%.2f ratio=%.0f "
           "mean_touched_per_repair=%.0f\n",
           n, moves, repaired, mr, mb, mr > 0 ? mb / mr : 0.0, repaired ? (double)touched / repaired : 0.0);
    steerN_flow_free(&fresh);
    steerN_flow_free(&f);
    steerN_grid_free(&g);
}

static void bench_agents(int n, int agents, int runs)
{
    uint32_t rng = 12345;
    steerN_Grid g;
    steerN_Flow f;
    int gx, gy;
    double goal[2];
    field_setup(n, &rng, &g, &f, &gx, &gy, goal);
    if (steerN_flow_build(&f, goal, 1)) die("out of memory");
    steer_World *w;
    steer_WorldDesc wd = { .dim = 2, .seed = 1, .no_record = true };
    if (steer_world_new(&wd, &w)) die("world");
    steer_Behavior *b;
    if (steerB_new(&steerB_follow_flow, &b)) die("behaviour");
    steerB_flow_bind(b, &f);
    for (int i = 0; i < agents; i++) {
        int x, y;
        do {
            x = (int)(bench_xs32(&rng) % (uint32_t)n);
            y = (int)(bench_xs32(&rng) % (uint32_t)n);
        } while (!steerN_open(&g, x, y));
        steer_AgentDesc ad = { .max_speed = 3, .max_force = 12, .radius = 0.3, .brain = b };
        double p[2];
        steerN_center(&g, x, y, p);
        ad.position[0] = p[0];
        ad.position[1] = p[1];
        if (steer_spawn(w, &ad, NULL)) die("spawn");
    }
    steer_world_step(w, 20); // warm up
    enum { TICKS = 50 };
    double median = bench_step_median_ms(w, TICKS);
    if (median < 0) die("out of memory");
    (void)runs;
    printf("follow_flow n=%d agents=%d ticks=%d median_ms=%.3f\n", n, agents, TICKS, median);
    steer_behavior_release(b);
    steer_world_free(w);
    steerN_flow_free(&f);
    steerN_grid_free(&g);
}

// A maze of one-cell corridors on an n x n grid (n odd works best).
static void maze_grid(steerN_Grid *g, int n, uint32_t *rng)
{
    double origin[2] = { 0, 0 };
    if (steerN_grid_init(g, n, n, 1.0, origin, NULL)) die("out of memory");
    for (int c = 0; c < n * n; c++) g->cost[c] = INFINITY;
    int rooms = (n - 1) / 2;
    int *stack = malloc(sizeof *stack * (size_t)(rooms * rooms));
    char *seen = calloc((size_t)(rooms * rooms), 1);
    if (!stack || !seen) die("out of memory");
    int top = 0;
    stack[top++] = 0;
    seen[0] = 1;
    g->cost[(size_t)1 * (size_t)n + 1] = 1;
    while (top) {
        int r = stack[top - 1], rx = r % rooms, ry = r / rooms, opts[4], k = 0;
        for (int d = 0; d < 4; d++) {
            int x = rx + steerN_dx[d], y = ry + steerN_dy[d];
            if (x >= 0 && y >= 0 && x < rooms && y < rooms && !seen[y * rooms + x]) opts[k++] = d;
        }
        if (!k) {
            top--;
            continue;
        }
        int d = opts[bench_xs32(rng) % (uint32_t)k], x = rx + steerN_dx[d], y = ry + steerN_dy[d];
        seen[y * rooms + x] = 1;
        g->cost[(size_t)(2 * y + 1) * (size_t)n + (size_t)(2 * x + 1)] = 1;
        g->cost[(size_t)(2 * ry + 1 + steerN_dy[d]) * (size_t)n + (size_t)(2 * rx + 1 + steerN_dx[d])] = 1;
        stack[top++] = y * rooms + x;
    }
    free(stack);
    free(seen);
    g->version++;
}

static void bench_astar(int n, int queries)
{
    uint32_t rng = 12345;
    steerN_Grid g;
    maze_grid(&g, n + 1, &rng);
    int rooms = n / 2;
    double t0 = bench_now_ms(), cells = 0;
    int found = 0;
    for (int q = 0; q < queries; q++) {
        double a[2], b[2], cost;
        int ax = 2 * (int)(bench_xs32(&rng) % (uint32_t)rooms) + 1,
            ay = 2 * (int)(bench_xs32(&rng) % (uint32_t)rooms) + 1;
        int bx = 2 * (int)(bench_xs32(&rng) % (uint32_t)rooms) + 1,
            by = 2 * (int)(bench_xs32(&rng) % (uint32_t)rooms) + 1;
        steerN_center(&g, ax, ay, a);
        steerN_center(&g, bx, by, b);
        int r = steerN_path(&g, a, b, &cost);
        if (r < 0) die("out of memory");
        if (r) {
            found++;
            cells += cost;
        }
    }
    double ms = bench_now_ms() - t0;
    printf("astar n=%d maze queries=%d found=%d queries_per_s=%.0f mean_path_m=%.0f\n", n, queries, found,
           queries / (ms / 1e3), found ? cells / found : 0.0);
    steerN_grid_free(&g);
}

static int add_wall(void *ud, const double a[2], const double b[2])
{
    double a3[3] = { a[0], a[1], 0 }, b3[3] = { b[0], b[1], 0 };
    return steer_add_wall(ud, a3, b3, NULL);
}

static void bench_walls(int n, int rays)
{
    uint32_t rng = 12345;
    steerN_Grid g;
    random_grid(&g, n, 0.2, &rng);
    steer_World *w;
    steer_WorldDesc wd = { .dim = 2, .seed = 1, .no_record = true };
    if (steer_world_new(&wd, &w)) die("world");
    double t0 = bench_now_ms();
    if (steerN_walls(&g, add_wall, w)) die("walls");
    double add = bench_now_ms() - t0;
    int segments = steer_world_shape_count(w);
    steer_Hit hit;
    double o[3] = { 0, 0, 0 }, d[3] = { 1, 0, 0 };
    steer_raycast(w, o, d, 1, STEER_RAY_SHAPES, STEER_NO_AGENT, &hit); // builds the shape grid
    double built = bench_now_ms() - t0;
    int hits = 0;
    t0 = bench_now_ms();
    for (int i = 0; i < rays; i++) {
        int x, y;
        do {
            x = (int)(bench_xs32(&rng) % (uint32_t)n);
            y = (int)(bench_xs32(&rng) % (uint32_t)n);
        } while (!steerN_open(&g, x, y));
        double p[2], a = bench_unit(&rng) * 6.283185307179586;
        steerN_center(&g, x, y, p);
        double origin[3] = { p[0], p[1], 0 }, dir[3] = { cos(a), sin(a), 0 };
        hits += steer_raycast(w, origin, dir, 20, STEER_RAY_SHAPES, STEER_NO_AGENT, &hit) == 1;
    }
    double ms = bench_now_ms() - t0;
    printf("walls n=%d segments=%d add_ms=%.1f with_shape_grid_ms=%.1f raycasts_per_s=%.0f hits=%d/%d\n", n, segments,
           add, built, rays / (ms / 1e3), hits, rays);
    steer_world_free(w);
    steerN_grid_free(&g);
}

// A navigation mesh from a side x side metre level holding `boxes` random
// boxes, built `runs` times.
static void bench_navmesh_build(double side, int boxes, int runs)
{
    uint32_t rng = 12345;
    double *xy = malloc(sizeof *xy * 8 * (size_t)(boxes + 1));
    uint32_t *end = malloc(sizeof *end * (size_t)(boxes + 1));
    int32_t *role = malloc(sizeof *role * (size_t)(boxes + 1));
    if (!xy || !end || !role) die("out of memory");
    const double corner[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
    for (int i = 0; i < 4; i++) xy[2 * i] = corner[i][0] * side, xy[2 * i + 1] = corner[i][1] * side;
    end[0] = 4;
    role[0] = STEERN_RING_OUTLINE;
    for (int k = 1; k <= boxes; k++) {
        double cx = bench_unit(&rng) * side, cy = bench_unit(&rng) * side;
        double w = 0.25 + bench_unit(&rng) * 1.75, h = 0.25 + bench_unit(&rng) * 1.75;
        double a = bench_unit(&rng) * 6.283185307179586, c = cos(a), sn = sin(a);
        for (int i = 0; i < 4; i++) {
            double u = (2 * corner[i][0] - 1) * w, v = (2 * corner[i][1] - 1) * h;
            xy[8 * k + 2 * i] = cx + c * u - sn * v;
            xy[8 * k + 2 * i + 1] = cy + sn * u + c * v;
        }
        end[k] = 4 * (uint32_t)(k + 1);
        role[k] = STEERN_RING_OBSTACLE;
    }
    steerN_MeshSpec spec = { xy, end, role, (uint32_t)boxes + 1, 1, NULL, NULL };
    double t[32];
    uint32_t nt = 0, nv = 0;
    for (int r = 0; r < runs; r++) {
        steerN_MeshError err;
        double t0 = bench_now_ms();
        steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
        t[r] = bench_now_ms() - t0;
        if (!m) die(err.message);
        nt = m->ntri, nv = m->nvert;
        steerN_mesh_release(m);
    }
    printf("navmesh_build side=%.0f boxes=%d segments=%d median_ms=%.1f vertices=%u triangles=%u\n", side, boxes,
           4 * (boxes + 1), bench_median(t, runs), nv, nt);
    free(xy);
    free(end);
    free(role);
}

static void bench_navmesh_grid(int n, int runs)
{
    uint32_t rng = 12345;
    steerN_Grid g;
    random_grid(&g, n, 0.2, &rng);
    double t[32];
    uint32_t nt = 0;
    for (int r = 0; r < runs; r++) {
        steerN_MeshError err;
        double t0 = bench_now_ms();
        steerN_Mesh *m = steerN_mesh_from_grid(&g, NULL, &err);
        t[r] = bench_now_ms() - t0;
        if (!m) die(err.message);
        nt = m->ntri;
        steerN_mesh_release(m);
    }
    printf("navmesh_grid n=%d blocked=0.2 median_ms=%.1f triangles=%u\n", n, bench_median(t, runs), nt);
    steerN_grid_free(&g);
}

int main(int argc, char **argv)
{
    int runs = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: steer-bench-nav [--runs R]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > 32) runs = 5;
    bench_build(256, runs);
    bench_build(1024, runs);
    bench_agents(256, 10000, runs);
    bench_astar(256, 2000);
    bench_walls(256, 100000);
    bench_walls(1024, 100000);
    bench_navmesh_build(200, 2000, runs);
    bench_navmesh_build(632, 20000, runs);
    bench_navmesh_grid(256, runs);
    return 0;
}
