// SPDX-License-Identifier: MIT
// test_grid.c — neighbour queries equal brute force (and the vector
// helpers they are built on behave at zero); an agent at 1e30 and shapes
// across the float range leave the grids usable.
//
// The grid is an index: it may change how fast neighbours are found, never
// which. So every query path is compared with an O(n^2) scan on random
// points: the host query (steer_world_neighbors), the tick's per-cell
// candidate blocks (steerG_block + steerG_filter) and the separation force
// the tick computes from them, in 2D and 3D, bounded and on a torus, with
// radii from a fraction of a cell to more than the whole world. Points
// whose distance lies within a hair of the radius are left out of the
// comparison: float rounding may put them on either side, and both are right.
#include "steer.h"
#include "behaviors/behavior.h" // world.h and the neighbour record
#include "check.h"
#include "make.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define MAXN 600
#define HAIR 1e-3

typedef struct Setup {
    int dim;
    bool wrap;
    double size; // per axis (0: unbounded)
    int n;
} Setup;

static steer_World *make_world(const Setup *s, steer_Behavior *brain, steer_Agent *ids, double pos[][3])
{
    steer_WorldDesc wd = { 0 };
    wd.dim = s->dim;
    wd.wrap = s->wrap;
    for (int i = 0; i < s->dim; i++) wd.size[i] = s->size;
    wd.seed = 7;
    steer_World *w = NULL;
    if (steer_world_new(&wd, &w) != STEER_OK) return NULL;
    double extent = s->size > 0 ? s->size : 80.0;
    for (int k = 0; k < s->n; k++) {
        steer_AgentDesc ad = { 0 };
        for (int i = 0; i < s->dim; i++) ad.position[i] = (float)test_uniform(0, extent);
        ad.tag = k % 3 == 0 ? "red" : NULL;
        ad.brain = brain;
        if (steer_spawn(w, &ad, &ids[k]) != STEER_OK) {
            steer_world_free(w);
            return NULL;
        }
        steer_agent_vec(w, ids[k], STEER_PROP_POSITION, pos[k]);
    }
    return w;
}

// The engine's distance: minimum image on a torus.
static double dist(const Setup *s, const double a[3], const double b[3])
{
    double d2 = 0;
    for (int i = 0; i < 3; i++) {
        double d = b[i] - a[i];
        if (s->wrap && i < s->dim) {
            if (d >= 0.5 * s->size) d -= s->size;
            else if (d < -0.5 * s->size) d += s->size;
        }
        d2 += d * d;
    }
    return sqrt(d2);
}

static int index_of(const steer_Agent *ids, int n, steer_Agent a)
{
    for (int k = 0; k < n; k++)
        if (ids[k].id == a.id) return k;
    return -1;
}

// steer_world_neighbors against brute force, for one query point.
static void compare_query(const Setup *s, steer_World *w, const steer_Agent *ids, double pos[][3], const double q[3],
                          double r, const char *tag)
{
    static steer_Agent out[MAXN];
    int m = steer_world_neighbors(w, q, r, tag, true, out, MAXN);
    REQUIRE(m >= 0 && m <= s->n, "neighbors returned %d for %d agents", m, s->n);
    bool found[MAXN] = { false };
    double last = -1;
    for (int i = 0; i < m; i++) {
        int k = index_of(ids, s->n, out[i]);
        REQUIRE(k >= 0, "neighbors returned an unknown handle %llx", (unsigned long long)out[i].id);
        CHECK(!found[k], "agent %d listed twice", k);
        found[k] = true;
        double d = dist(s, q, pos[k]);
        CHECK(d < r + HAIR, "agent %d at distance %.9g is outside radius %g", k, d, r);
        CHECK(!tag || k % 3 == 0, "agent %d is not tagged '%s' but was returned", k, tag);
        CHECK(d >= last - 1e-5, "not nearest first: %.9g after %.9g", d, last);
        last = d;
    }
    for (int k = 0; k < s->n; k++) {
        if (tag && k % 3 != 0) continue;
        double d = dist(s, q, pos[k]);
        if (d < r - HAIR)
            CHECK(found[k], "agent %d at distance %.9g < radius %g was missed (dim %d, wrap %d)", k, d, r, s->dim,
                  s->wrap);
    }
}

static void query_case(const Setup *s)
{
    static steer_Agent ids[MAXN];
    static double pos[MAXN][3];
    steer_World *w = make_world(s, NULL, ids, pos);
    REQUIRE(w, "world setup failed");
    const double radii[] = { 0.3, 1.0, 2.5, 7.0, 19.0, 45.0, 1000.0 };
    double extent = s->size > 0 ? s->size : 80.0;
    for (int t = 0; t < 40 && !FAILED(); t++) {
        double q[3] = { 0, 0, 0 };
        for (int i = 0; i < s->dim; i++) q[i] = (float)test_uniform(s->wrap ? 0 : -10, s->wrap ? extent : extent + 10);
        // some queries centred on an agent: the agent itself is a neighbour at distance 0
        if (t % 4 == 0) memcpy(q, pos[t % s->n], sizeof q);
        for (size_t r = 0; r < sizeof radii / sizeof radii[0]; r++) {
            compare_query(s, w, ids, pos, q, radii[r], NULL);
            compare_query(s, w, ids, pos, q, radii[r], "red");
        }
    }
    steer_world_free(w);
}

static void test_query_2d_bounded(void) { query_case(&(Setup){ 2, false, 100, 500 }); }
static void test_query_2d_unbounded(void) { query_case(&(Setup){ 2, false, 0, 500 }); }
static void test_query_2d_wrap(void) { query_case(&(Setup){ 2, true, 60, 500 }); }
static void test_query_2d_wrap_small(void) { query_case(&(Setup){ 2, true, 5, 120 }); } // fewer than 3 cells per axis
static void test_query_3d_bounded(void) { query_case(&(Setup){ 3, false, 40, 500 }); }
static void test_query_3d_wrap(void) { query_case(&(Setup){ 3, true, 30, 500 }); }

// The tick's path: the grid built with cell = sensing radius, candidates
// per cell, filtered per agent (what pass_steer does).
static void block_case(const Setup *s, float radius)
{
    static steer_Agent ids[MAXN];
    static double pos[MAXN][3];
    steer_World *w = make_world(s, NULL, ids, pos);
    REQUIRE(w, "world setup failed");
    REQUIRE(steerG_build(w, radius) == STEER_OK, "grid build failed");
    const steerG_Grid *g = &w->grid;
    int visited = 0;
    for (uint32_t c = 0; c < g->ncells && !FAILED(); c++) {
        if (g->start[c] == g->start[c + 1]) continue;
        int block = steerG_block(w, &w->loc, c);
        REQUIRE(block >= 0, "block out of memory");
        for (uint32_t it = g->start[c]; it < g->start[c + 1]; it++) {
            uint32_t d = g->items[it];
            float p[3];
            steerW_load(w->p, d, p);
            int k = block == 1 ? steerG_filter(w, &w->loc, p, radius, d) : steerG_gather(w, &w->loc, p, radius, d);
            REQUIRE(k >= 0, "filter out of memory");
            visited++;
            int self = index_of(ids, s->n, steerW_handle(w, d));
            bool found[MAXN] = { false };
            for (int i = 0; i < k; i++) {
                const steerB_Neighbor *nb = &w->loc.scratch[i];
                int j = index_of(ids, s->n, steerW_handle(w, nb->d));
                REQUIRE(j >= 0 && j != self, "bad neighbour %d of %d", j, self);
                CHECK(!found[j], "neighbour %d listed twice for %d", j, self);
                found[j] = true;
                // the offset must be the minimum image, consistent with d2
                double off2 = 0;
                for (int a = 0; a < 3; a++) off2 += (double)nb->off[a] * nb->off[a];
                double bd = dist(s, pos[self], pos[j]);
                CHECK(fabs(sqrt(off2) - bd) < 1e-3, "offset length %.9g != distance %.9g", sqrt(off2), bd);
                CHECK(fabs(off2 - nb->d2) < 1e-3 * (1 + off2), "d2 %.9g != |off|^2 %.9g", (double)nb->d2, off2);
            }
            for (int j = 0; j < s->n; j++) {
                if (j == self) continue;
                double bd = dist(s, pos[self], pos[j]);
                if (bd < radius - HAIR)
                    CHECK(found[j], "agent %d misses neighbour %d at %.9g < %g", self, j, bd, (double)radius);
                if (bd > radius + HAIR)
                    CHECK(!found[j], "agent %d got far agent %d at %.9g > %g", self, j, bd, (double)radius);
            }
        }
    }
    CHECK(FAILED() || visited == s->n, "the grid holds %d agents, the world %d", visited, s->n);
    steer_world_free(w);
}

static void test_block_2d_bounded(void) { block_case(&(Setup){ 2, false, 100, 500 }, 6.0f); }
static void test_block_2d_wrap(void) { block_case(&(Setup){ 2, true, 60, 500 }, 7.0f); }
static void test_block_2d_wrap_odd(void) { block_case(&(Setup){ 2, true, 61.7, 400 }, 9.3f); }
static void test_block_2d_wrap_tiny(void) { block_case(&(Setup){ 2, true, 12, 200 }, 5.0f); }
static void test_block_3d_wrap(void) { block_case(&(Setup){ 3, true, 30, 500 }, 5.0f); }
static void test_block_3d_unbounded(void) { block_case(&(Setup){ 3, false, 0, 400 }, 8.0f); }

// End to end: one tick of a separation brain writes, per agent, the sum of
// -offset/|offset|^2 over its neighbours (minimum image) into the force slot.
static void separation_case(const Setup *s, double radius)
{
    static steer_Agent ids[MAXN];
    static double pos[MAXN][3];
    steer_Behavior *sep;
    REQUIRE(steer_behavior_new("separation", &sep) == STEER_OK, "separation");
    steer_behavior_set_number(sep, "radius", radius);
    steer_World *w = make_world(s, sep, ids, pos);
    REQUIRE(w, "world setup failed");
    REQUIRE(steer_world_step(w, 1) == STEER_OK, "step");
    int compared = 0;
    for (int k = 0; k < s->n && !FAILED(); k++) {
        double want[3] = { 0, 0, 0 };
        bool ambiguous = false;
        for (int j = 0; j < s->n; j++) {
            if (j == k) continue;
            double d = dist(s, pos[k], pos[j]);
            if (fabs(d - radius) < HAIR) ambiguous = true;
            if (d >= radius || d == 0) continue;
            for (int a = 0; a < s->dim; a++) {
                double o = pos[j][a] - pos[k][a];
                if (s->wrap) {
                    if (o >= 0.5 * s->size) o -= s->size;
                    else if (o < -0.5 * s->size) o += s->size;
                }
                want[a] -= o / (d * d);
            }
        }
        if (ambiguous) continue;
        double got[3];
        steer_agent_vec(w, ids[k], STEER_PROP_FORCE, got);
        double err = 0, mag = 0;
        for (int a = 0; a < 3; a++) {
            err += (got[a] - want[a]) * (got[a] - want[a]);
            mag += want[a] * want[a];
        }
        CHECK(sqrt(err) <= 1e-3 * (1 + sqrt(mag)), "agent %d: separation (%g, %g, %g), brute force (%g, %g, %g)", k,
              got[0], got[1], got[2], want[0], want[1], want[2]);
        compared++;
    }
    CHECK(FAILED() || compared > s->n / 2, "only %d of %d agents were unambiguous", compared, s->n);
    steer_world_free(w);
    steer_behavior_release(sep);
}

static void test_separation_2d_wrap(void) { separation_case(&(Setup){ 2, true, 50, 400 }, 6.0); }
static void test_separation_2d_bounded(void) { separation_case(&(Setup){ 2, false, 50, 400 }, 4.0); }
static void test_separation_3d_wrap(void) { separation_case(&(Setup){ 3, true, 25, 400 }, 5.0); }

// A radius far beyond the world (or beyond what an int cell index holds)
// still finds everything: "within 1e10 metres" means every agent.
static void test_huge_radius(void)
{
    static steer_Agent ids[MAXN];
    static double pos[MAXN][3];
    Setup s = { 2, false, 100, 50 };
    steer_World *w = make_world(&s, NULL, ids, pos);
    REQUIRE(w, "world setup failed");
    const double radii[] = { 1e6, 1e10, 1e20 };
    for (size_t i = 0; i < sizeof radii / sizeof radii[0]; i++) {
        double q[3] = { 50, 50, 0 };
        int m = steer_world_neighbors(w, q, radii[i], NULL, true, NULL, 0);
        CHECK(m == s.n, "radius %g found %d of %d agents", radii[i], m, s.n);
    }
    steer_world_free(w);
}

// The vector helpers under every query and behaviour: the zero vector
// normalises and truncates to zero (the engine's guard against NaN), and
// truncation keeps the direction.
static void test_vecmath(void)
{
    float z[3] = { 0, 0, 0 }, tiny[3] = { 1e-9f, 0, 0 }, v[3] = { 3, 4, 0 }, c[3];
    CHECK(v3_normalize(z) == 0.0f && z[0] == 0 && z[1] == 0 && z[2] == 0, "normalize(0) is not 0");
    CHECK(v3_normalize(tiny) == 0.0f && tiny[0] == 0, "normalize of a 1e-9 vector is %g", (double)tiny[0]);
    float l = v3_normalize(v);
    CHECK(l == 5.0f && fabsf(v[0] - 0.6f) < 1e-7f && fabsf(v[1] - 0.8f) < 1e-7f, "normalize(3, 4) = (%g, %g), len %g",
          (double)v[0], (double)v[1], (double)l);
    float t[3] = { 3, 4, 0 };
    v3_truncate(t, 2.5f);
    CHECK(fabsf(t[0] - 1.5f) < 1e-6f && fabsf(t[1] - 2.0f) < 1e-6f, "truncate((3, 4), 2.5) = (%g, %g)", (double)t[0],
          (double)t[1]);
    float u[3] = { 3, 4, 0 };
    v3_truncate(u, 0.0f);
    CHECK(u[0] == 0 && u[1] == 0, "truncate to 0 = (%g, %g)", (double)u[0], (double)u[1]);
    float s[3] = { 0.3f, 0.4f, 0 };
    v3_truncate(s, 1.0f);
    CHECK(s[0] == 0.3f && s[1] == 0.4f, "truncate changed a short vector");
    v3_cross(c, (float[3]){ 1, 0, 0 }, (float[3]){ 0, 1, 0 });
    CHECK(c[0] == 0 && c[1] == 0 && c[2] == 1, "x cross y = (%g, %g, %g)", (double)c[0], (double)c[1], (double)c[2]);
    float inf[3] = { INFINITY, 0, 0 }, nan[3] = { 0, NAN, 0 };
    CHECK(!v3_finite(inf) && !v3_finite(nan) && v3_finite(c), "v3_finite");
}

// The fullest cell of the world's grid.
static uint32_t fullest_cell(const steer_World *w)
{
    uint32_t most = 0;
    for (uint32_t c = 0; c < w->grid.ncells; c++)
        if (w->grid.start[c + 1] - w->grid.start[c] > most) most = w->grid.start[c + 1] - w->grid.start[c];
    return most;
}

// One agent parked at 1e30 in an unbounded world: the others keep cells of
// their own (not one cell for all: O(n^2)), and queries still find it.
static void test_far_outlier(void)
{
    const double far[][2] = { { 1e30, -1e30 }, { -3e38, 3e38 }, { 1e6, 0 } };
    for (int f = 0; f < 3; f++) {
        steer_World *w = test_world(NULL);
        REQUIRE(w, "world");
        steer_Behavior *sep = test_behavior("separation");
        steer_behavior_set_number(sep, "radius", 2);
        for (int i = 0; i < 2000; i++) {
            steer_AgentDesc ad = { .brain = sep };
            ad.position[0] = test_uniform(0, 100);
            ad.position[1] = test_uniform(0, 100);
            steer_spawn(w, &ad, NULL);
        }
        steer_Agent out;
        steer_spawn(w, &(steer_AgentDesc){ .brain = sep, .position = { far[f][0], far[f][1] } }, &out);
        steer_world_step(w, 2);
        CHECK(fullest_cell(w) <= 40, "outlier at (%g, %g): %u agents in one cell of %u", far[f][0], far[f][1],
              fullest_cell(w), w->grid.ncells);
        steer_Agent found[4];
        int k = steer_world_neighbors(w, (double[3]){ far[f][0], far[f][1], 0 }, 1.0, NULL, false, found, 4);
        CHECK(k == 1 && found[0].id == out.id, "the outlier found by a query at its position: %d", k);
        double p[3];
        steer_agent_vec(w, out, STEER_PROP_POSITION, p);
        CHECK(p[0] == (float)far[f][0] && p[1] == (float)far[f][1], "the outlier stays put");
        steer_behavior_release(sep);
        steer_world_free(w);
    }
}

// Shapes spanning the whole float range (and one far away) keep the shape
// grid usable: rays hit what they should, agents are kept out.
static void test_huge_shapes(void)
{
    steer_WorldDesc wd = { .collide = true };
    steer_World *w = test_world(&wd);
    REQUIRE(w, "world");
    steer_Shape floor_box, ball, far;
    REQUIRE(steer_add_box(w, (double[3]){ -3e38, -1, 0 }, (double[3]){ 3e38, 1, 0 }, &floor_box) == STEER_OK, "box");
    REQUIRE(steer_add_circle(w, (double[3]){ 0, 10, 0 }, 1, &ball) == STEER_OK, "circle");
    REQUIRE(steer_add_circle(w, (double[3]){ 1e30, -1e30, 0 }, 1, &far) == STEER_OK, "far circle");
    steer_Hit hit;
    int st =
        steer_raycast(w, (double[3]){ 0, 20, 0 }, (double[3]){ 0, -1, 0 }, 100, STEER_RAY_ALL, STEER_NO_AGENT, &hit);
    CHECK(st == 1 && hit.shape.id == ball.id && fabs(hit.point[1] - 11) < 1e-4, "ray onto the circle: %d, y %g", st,
          hit.point[1]);
    st = steer_raycast(w, (double[3]){ 5, 5, 0 }, (double[3]){ 0, -1, 0 }, 100, STEER_RAY_ALL, STEER_NO_AGENT, &hit);
    CHECK(st == 1 && hit.shape.id == floor_box.id && fabs(hit.point[1] - 1) < 1e-4, "ray onto the box: %d, y %g", st,
          hit.point[1]);
    steer_Agent a;
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 2, 1.2 }, .radius = 0.5 }, &a) == STEER_OK, "spawn");
    CHECK(steer_world_step(w, 1) == STEER_OK, "step");
    double p[3];
    steer_agent_vec(w, a, STEER_PROP_POSITION, p);
    CHECK(p[1] >= 1.5 - 1e-4, "agent pushed out of the box: y %g", p[1]);
    steer_world_free(w);
}

int main(void)
{
    RUN(test_vecmath);
    RUN(test_query_2d_bounded);
    RUN(test_query_2d_unbounded);
    RUN(test_query_2d_wrap);
    RUN(test_query_2d_wrap_small);
    RUN(test_query_3d_bounded);
    RUN(test_query_3d_wrap);
    RUN(test_block_2d_bounded);
    RUN(test_block_2d_wrap);
    RUN(test_block_2d_wrap_odd);
    RUN(test_block_2d_wrap_tiny);
    RUN(test_block_3d_wrap);
    RUN(test_block_3d_unbounded);
    RUN(test_separation_2d_wrap);
    RUN(test_separation_2d_bounded);
    RUN(test_separation_3d_wrap);
    RUN(test_huge_radius);
    RUN(test_far_outlier);
    RUN(test_huge_shapes);
    return check_report_("grid");
}
