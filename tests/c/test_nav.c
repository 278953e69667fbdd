// SPDX-License-Identifier: MIT
// test_nav.c — the navigation core (src/nav) against brute force on many
// small random grids: distances equal a Bellman-Ford relaxation written
// here (every step re-derived from the cost rules in nav.h, not from the
// engine's step routine), A* costs equal them too, flow directions lead
// strictly downhill to a goal through allowed steps, a repaired field
// (goal walked around in small moves) still has no local optima and never
// promises less than the truth, every wall segment separates an open cell
// from a blocked one (and every such cell edge lies on a segment), and a
// line of sight never crosses a blocked cell (sampled finely).
#include "nav/nav.h"
#include "check.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define NX 14
#define NY 11
#define CELLS (NX * NY)
#define GRIDS 500

static const double SQRT2 = 1.4142135623730951;

// A random grid: about `blocked` of the cells blocked, costs 1 or from 0.5 to 4.
static void random_grid(steerN_Grid *g, double blocked, bool costs)
{
    double origin[2] = { test_uniform(-5, 5), test_uniform(-5, 5) };
    steerN_grid_init(g, NX, NY, test_uniform(0.5, 2), origin, NULL);
    for (int y = 0; y < NY; y++)
        for (int x = 0; x < NX; x++) {
            float c = test_uniform(0, 1) < blocked ? INFINITY : costs ? (float)test_uniform(0.5, 4) : 1.0f;
            steerN_set_cost(g, x, y, c);
        }
}

static bool open_cell(const steerN_Grid *g, int x, int y)
{
    return x >= 0 && y >= 0 && x < NX && y < NY && isfinite(g->cost[y * NX + x]);
}

// Shortest distances to cell `goal` by Bellman-Ford: 8 neighbours, step
// length times the mean cost, diagonals only past two open cells.
static void brute_distances(const steerN_Grid *g, int goal, double dist[CELLS])
{
    for (int c = 0; c < CELLS; c++) dist[c] = INFINITY;
    dist[goal] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (int c = 0; c < CELLS; c++) {
            int x = c % NX, y = c / NX;
            if (!open_cell(g, x, y) || dist[c] == INFINITY) continue;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if ((!dx && !dy) || !open_cell(g, nx, ny)) continue;
                    if (dx && dy && (!open_cell(g, nx, y) || !open_cell(g, x, ny))) continue;
                    double step =
                        (dx && dy ? SQRT2 : 1.0) * g->cell * 0.5 * ((double)g->cost[c] + g->cost[ny * NX + nx]);
                    if (dist[c] + step < dist[ny * NX + nx] - 1e-12) {
                        dist[ny * NX + nx] = dist[c] + step;
                        changed = true;
                    }
                }
        }
    }
}

static int random_open(const steerN_Grid *g)
{
    for (;;) {
        int c = (int)(test_rand64() % CELLS);
        if (open_cell(g, c % NX, c / NX)) return c;
    }
}

static void centre(const steerN_Grid *g, int c, double p[2]) { steerN_center(g, c % NX, c / NX, p); }

// Follow the field's cell directions from every reachable cell: allowed
// steps only, strictly downhill in the field's own values, to a goal cell.
static void check_descent(const steerN_Flow *f, const char *what)
{
    const steerN_Grid *g = f->grid;
    for (int c = 0; c < CELLS && !FAILED(); c++) {
        if (f->dist[c] == INFINITY || !open_cell(g, c % NX, c / NX)) continue;
        int at = c;
        for (int steps = 0; steps <= CELLS; steps++) {
            bool goal = false;
            for (uint32_t i = 0; i < f->ngoals; i++) goal |= f->goal_cells[i] == (uint32_t)at;
            if (goal) break;
            int k = f->dir[at];
            REQUIRE(k < 8, "%s: reachable cell %d has no direction", what, at);
            int x = at % NX, y = at / NX, nx = x + steerN_dx[k], ny = y + steerN_dy[k];
            CHECK(open_cell(g, nx, ny), "%s: cell %d points into a blocked cell", what, at);
            CHECK(k < 4 || (open_cell(g, nx, y) && open_cell(g, x, ny)), "%s: cell %d cuts a corner", what, at);
            CHECK(f->dist[ny * NX + nx] < f->dist[at], "%s: cell %d points uphill", what, at);
            REQUIRE(steps < CELLS, "%s: the walk from %d does not end", what, c);
            at = ny * NX + nx;
        }
    }
}

static void test_flow_matches_brute_force(void)
{
    for (int k = 0; k < GRIDS && !FAILED(); k++) {
        steerN_Grid g;
        random_grid(&g, 0.3, k % 2);
        int goal = random_open(&g);
        double truth[CELLS], p[2];
        brute_distances(&g, goal, truth);
        steerN_Flow f;
        REQUIRE(steerN_flow_init(&f, &g) == 0, "out of memory");
        centre(&g, goal, p);
        REQUIRE(steerN_flow_build(&f, p, 1) == 0, "out of memory");
        for (int c = 0; c < CELLS; c++) {
            double d = open_cell(&g, c % NX, c / NX) ? steerN_flow_dist(&f, (uint32_t)c) : truth[c];
            CHECK(d == truth[c] || fabs(d - truth[c]) <= 1e-9 * (1 + truth[c]), "grid %d cell %d: %.17g, truth %.17g",
                  k, c, d, truth[c]);
        }
        check_descent(&f, "built");
        // A* from random cells to the goal costs the same
        for (int q = 0; q < 10; q++) {
            int from = random_open(&g);
            double a[2], cost;
            centre(&g, from, a);
            int r = steerN_path(&g, a, p, &cost);
            if (truth[from] == INFINITY) {
                CHECK(r == 0, "grid %d: a path to an unreachable goal", k);
                continue;
            }
            CHECK(r == 1 && fabs(cost - truth[from]) <= 1e-9 * (1 + cost), "grid %d: A* %g, truth %g", k, cost,
                  truth[from]);
            // every segment of the route stays in open cells (sampled)
            for (uint32_t i = 0; r == 1 && i + 1 < g.npath; i++) {
                const double *u = g.path + 2 * i, *v = g.path + 2 * i + 2;
                for (int s = 0; s <= 400; s++) {
                    double pt[2] = { u[0] + (v[0] - u[0]) * s / 400.0, u[1] + (v[1] - u[1]) * s / 400.0 };
                    int x, y;
                    bool in = steerN_cell_of(&g, pt, &x, &y) && open_cell(&g, x, y);
                    CHECK(in, "grid %d: route segment %u crosses a blocked cell", k, i);
                    if (!in) break;
                }
            }
        }
        steerN_flow_free(&f);
        steerN_grid_free(&g);
    }
}

static void test_repair_keeps_descent(void)
{
    for (int k = 0; k < GRIDS / 3 && !FAILED(); k++) {
        steerN_Grid g;
        random_grid(&g, 0.25, k % 2);
        int goal = random_open(&g);
        double p[2];
        centre(&g, goal, p);
        steerN_Flow f;
        REQUIRE(steerN_flow_init(&f, &g) == 0 && steerN_flow_build(&f, p, 1) == 0, "out of memory");
        int repairs = 0;
        for (int move = 0; move < 30 && !FAILED(); move++) {
            int x = goal % NX + (int)(test_rand64() % 5) - 2, y = goal / NX + (int)(test_rand64() % 5) - 2;
            if (!open_cell(&g, x, y)) continue;
            goal = y * NX + x;
            // anywhere inside the goal cell
            double q[2] = { g.origin[0] + (x + test_uniform(0, 1)) * g.cell,
                            g.origin[1] + (y + test_uniform(0, 1)) * g.cell };
            REQUIRE(steerN_flow_set_goal(&f, q) == 0, "out of memory");
            repairs += f.incremental;
            double truth[CELLS];
            brute_distances(&g, goal, truth);
            for (int c = 0; c < CELLS; c++) {
                if (!open_cell(&g, c % NX, c / NX)) continue;
                double d = steerN_flow_dist(&f, (uint32_t)c);
                CHECK((d == INFINITY) == (truth[c] == INFINITY), "grid %d move %d cell %d: reachability", k, move, c);
                CHECK(truth[c] == INFINITY || d >= truth[c] - 1e-9 * (1 + truth[c]),
                      "grid %d move %d cell %d: %g below the truth %g", k, move, c, d, truth[c]);
            }
            check_descent(&f, "repaired");
        }
        CHECK(repairs > 0, "grid %d: no move was a repair", k);
        steerN_flow_free(&f);
        steerN_grid_free(&g);
    }
}

typedef struct WallLog {
    double seg[4 * 2 * CELLS][4];
    int n;
} WallLog;

static int log_wall(void *ud, const double a[2], const double b[2])
{
    WallLog *l = ud;
    l->seg[l->n][0] = a[0];
    l->seg[l->n][1] = a[1];
    l->seg[l->n][2] = b[0];
    l->seg[l->n][3] = b[1];
    l->n++;
    return 0;
}

static bool blocked_at(const steerN_Grid *g, double x, double y)
{
    double p[2] = { x, y };
    int cx, cy;
    return !steerN_cell_of(g, p, &cx, &cy) || !open_cell(g, cx, cy);
}

static void test_walls_separate_open_from_blocked(void)
{
    static WallLog log;
    for (int k = 0; k < GRIDS && !FAILED(); k++) {
        steerN_Grid g;
        random_grid(&g, 0.35, false);
        log.n = 0;
        steerN_walls(&g, log_wall, &log);
        double e = 1e-6 * g.cell;
        int edges = 0;
        for (int i = 0; i < log.n; i++) {
            const double *s = log.seg[i];
            bool horizontal = s[1] == s[3];
            CHECK(horizontal || s[0] == s[2], "grid %d: wall %d is not axis-aligned", k, i);
            double len = horizontal ? fabs(s[2] - s[0]) : fabs(s[3] - s[1]);
            int n = (int)lround(len / g.cell);
            edges += n;
            for (int j = 0; j < n; j++) {
                // the middle of each cell edge along the wall: open on one side only
                double t = (j + 0.5) / n, mx = s[0] + (s[2] - s[0]) * t, my = s[1] + (s[3] - s[1]) * t;
                bool a = horizontal ? blocked_at(&g, mx, my - e) : blocked_at(&g, mx - e, my);
                bool b = horizontal ? blocked_at(&g, mx, my + e) : blocked_at(&g, mx + e, my);
                CHECK(a != b, "grid %d: wall %d edge %d has the same cells on both sides", k, i, j);
            }
        }
        // every open/blocked cell edge is on a wall: count them directly
        int expected = 0;
        for (int y = -1; y < NY; y++)
            for (int x = -1; x < NX; x++) {
                if (x >= 0 && open_cell(&g, x, y) != open_cell(&g, x, y + 1)) expected++;
                if (y >= 0 && open_cell(&g, x, y) != open_cell(&g, x + 1, y)) expected++;
            }
        CHECK(edges == expected, "grid %d: walls cover %d cell edges, expected %d", k, edges, expected);
        steerN_grid_free(&g);
    }
}

static void test_line_of_sight_is_clear(void)
{
    int seen = 0;
    for (int k = 0; k < GRIDS && !FAILED(); k++) {
        steerN_Grid g;
        random_grid(&g, 0.2, false);
        for (int q = 0; q < 40; q++) {
            double a[2] = { g.origin[0] + test_uniform(0, NX) * g.cell, g.origin[1] + test_uniform(0, NY) * g.cell };
            double b[2] = { g.origin[0] + test_uniform(0, NX) * g.cell, g.origin[1] + test_uniform(0, NY) * g.cell };
            if (!steerN_line_of_sight(&g, a, b, INFINITY)) continue;
            seen++;
            for (int s = 0; s <= 1000; s++) {
                double x = a[0] + (b[0] - a[0]) * s / 1000.0, y = a[1] + (b[1] - a[1]) * s / 1000.0;
                if (blocked_at(&g, x, y)) {
                    CHECK(false, "grid %d: a sight line crosses a blocked cell at (%g, %g)", k, x, y);
                    break;
                }
            }
            // a ray along it reaches at least as far
            double len = hypot(b[0] - a[0], b[1] - a[1]);
            if (len > 0) {
                double d[2] = { (b[0] - a[0]) / len, (b[1] - a[1]) / len };
                CHECK(steerN_ray(&g, a, d, len) >= len * (1 - 1e-9), "grid %d: a ray stops short of a clear sight line",
                      k);
            }
        }
        steerN_grid_free(&g);
    }
    CHECK(seen > 500, "only %d clear sight lines tried", seen);
    steerN_Grid g;
    random_grid(&g, 0, false);
    double far[2] = { 1e30, -1e30 }, d[2] = { 1, 0 };
    CHECK(steerN_ray(&g, far, d, 10) == 0, "a ray from outside the grid starts blocked");
    CHECK(!steerN_line_of_sight(&g, far, far, INFINITY), "no sight from outside the grid");
    steerN_grid_free(&g);
}

int main(void)
{
    RUN(test_flow_matches_brute_force);
    RUN(test_repair_keeps_descent);
    RUN(test_walls_separate_open_from_blocked);
    RUN(test_line_of_sight_is_clear);
    return check_report_("nav");
}
