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
#include "core/geometry.h"
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

// The k-nearest gather (steerG_nearest) against the plain filter: for every
// agent, a part of steerG_filter's list bit for bit: every entry nearer
// than some bound, and at least the k nearest (ties included; the whole
// list when it is shorter than k). Every 7th agent stands on the previous
// one (ties); an outlier far away makes the border blocks unsortable (the
// filter's whole list then).
typedef struct NearSetup {
    int dim;
    bool wrap;
    double size, spread; // the world (0: unbounded), the box the agents stand in
    int n;
    float cell, radius;
    int k;
    bool outlier;
} NearSetup;

#define NEARN 4000

static int cmp_neighbor(const void *a, const void *b)
{
    const steerB_Neighbor *x = a, *y = b;
    return x->d < y->d ? -1 : x->d > y->d;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

static void nearest_case(const NearSetup *s)
{
    static steerB_Neighbor want[NEARN], got[NEARN];
    static float d2s[NEARN];
    steer_WorldDesc wd = { .dim = s->dim, .wrap = s->wrap, .seed = 3 };
    for (int i = 0; i < s->dim; i++) wd.size[i] = s->size;
    steer_World *w = test_world(&wd);
    REQUIRE(w, "world setup failed");
    double last[3] = { 0, 0, 0 };
    for (int k = 0; k < s->n; k++) {
        steer_AgentDesc ad = { 0 };
        for (int i = 0; i < s->dim; i++) ad.position[i] = k % 7 == 6 ? last[i] : test_uniform(0, s->spread);
        for (int i = 0; i < 3; i++) last[i] = ad.position[i];
        REQUIRE(steer_spawn(w, &ad, NULL) == STEER_OK, "spawn");
    }
    if (s->outlier)
        REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 1e6, -1e6, 1e6 } }, NULL) == STEER_OK, "spawn");
    REQUIRE(steerG_build(w, s->cell) == STEER_OK, "grid build failed");
    const steerG_Grid *g = &w->grid;
    int sorted = 0, unsorted = 0, agents = 0;
    long given = 0, listed = 0;
    for (uint32_t c = 0; c < g->ncells && !FAILED(); c++) {
        if (g->start[c] == g->start[c + 1]) continue;
        int block = steerG_block(w, &w->loc, c);
        REQUIRE(block == 1, "no block for cell %u", c);
        for (uint32_t it = g->start[c]; it < g->start[c + 1] && !FAILED(); it++) {
            uint32_t d = g->items[it];
            float p[3];
            steerW_load(w->p, d, p);
            int nf = steerG_filter(w, &w->loc, p, s->radius, d);
            memcpy(want, w->loc.scratch, sizeof *want * (size_t)nf);
            int ng = steerG_nearest(w, &w->loc, p, s->radius, d, s->k);
            REQUIRE(ng >= 0 && ng <= NEARN, "nearest out of memory");
            memcpy(got, w->loc.scratch, sizeof *got * (size_t)ng);
            // the bound: the farthest entry given, and every entry of the
            // filter's at most as far (all of them when not sorted)
            for (int i = 0; i < nf; i++) d2s[i] = want[i].d2;
            qsort(d2s, (size_t)nf, sizeof *d2s, cmp_float);
            float kth = nf >= s->k ? d2s[s->k - 1] : d2s[nf > 0 ? nf - 1 : 0], far = -1.0f;
            for (int i = 0; i < ng; i++)
                if (got[i].d2 > far) far = got[i].d2;
            if (w->loc.near.state < 0) far = INFINITY;
            CHECK(nf == 0 || far >= kth, "agent %u: the farthest given %.9g is nearer than the k-th %.9g", d,
                  (double)far, (double)kth);
            int nw = 0;
            for (int i = 0; i < nf; i++)
                if (want[i].d2 <= far) want[nw++] = want[i];
            qsort(want, (size_t)nw, sizeof *want, cmp_neighbor);
            qsort(got, (size_t)ng, sizeof *got, cmp_neighbor);
            CHECK(ng == nw, "agent %u: %d nearest, the filter's list has %d as near", d, ng, nw);
            for (int i = 0; i < ng && i < nw; i++)
                CHECK(!memcmp(&got[i], &want[i], sizeof *got),
                      "agent %u: entry %d differs (%u at %.9g, want %u at %.9g)", d, i, got[i].d, (double)got[i].d2,
                      want[i].d, (double)want[i].d2);
            given += ng;
            listed += nf;
            agents++;
        }
        sorted += w->loc.near.state == 1;
        unsorted += w->loc.near.state == -1;
    }
    CHECK(FAILED() || agents == (int)w->count, "visited %d agents of %u", agents, w->count);
    CHECK(sorted > 0, "no block was sorted into sub-cells");
    CHECK(s->outlier ? unsorted > 0 : unsorted == 0, "%d blocks not sorted", unsorted);
    // (and the point: far fewer entries than the whole list, where that is far longer than k)
    if (!s->outlier && listed > 8L * s->k * agents)
        CHECK(given * 3 < listed, "%ld entries given for %ld listed", given, listed);
    steer_world_free(w);
}

static void test_nearest(void)
{
    const NearSetup cases[] = {
        { 2, false, 100, 100, 1500, 14, 14, 10, false },     // the navigation crowd's reciprocal
        { 2, false, 100, 60, NEARN - 1, 14, 14, 10, false }, // dense: the most sub-cells
        { 2, false, 0, 80, 800, 10, 7, 1, false },           // a radius below the cell
        { 2, false, 0, 80, 800, 8, 8, 48, false },
        { 2, true, 60, 60, 900, 7, 7, 10, false }, // across the torus seam
        { 2, true, 61.7, 61.7, 700, 9.3f, 9.3f, 5, false },
        { 2, true, 30, 30, 900, 10, 10, 64, false }, // three cells a side
        { 3, true, 30, 30, 1500, 5, 5, 10, false },
        { 3, false, 0, 40, 1500, 6, 4.5f, 12, false },
        { 2, false, 0, 100, 1000, 10, 10, 10, true }, // an outlier: border blocks not sorted
        { 3, false, 0, 50, 800, 8, 8, 10, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases && !FAILED(); i++) nearest_case(&cases[i]);
}

// Which brains gather their nearest only: reciprocal's own neighbours, not
// with a tag, nor beside a node that reads the whole list.
static void test_nearest_brains(void)
{
    steer_World *w = test_world(NULL);
    REQUIRE(w, "world");
    steer_Behavior *plain = test_behavior("reciprocal"), *tagged = test_behavior("reciprocal");
    steer_Behavior *mixed = test_behavior("blend"), *inner = test_behavior("reciprocal"),
                   *sep = test_behavior("avoid_agents");
    steer_behavior_set_number(plain, "neighbors", 7);
    steer_behavior_set_tag(tagged, "tag", "red");
    steer_behavior_add_child(mixed, inner, 1);
    steer_behavior_add_child(mixed, sep, 1);
    steer_Behavior *brains[] = { plain, tagged, mixed };
    const int want[] = { 7, 0, 0 };
    for (int i = 0; i < 3; i++) {
        steer_Agent a;
        REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .brain = brains[i] }, &a) == STEER_OK, "spawn");
        int64_t d = steerW_dense(w, a);
        const steerB_Brain *b = w->brains[w->brain[d]];
        CHECK(b->list && b->nearest == want[i], "brain %d: list %d, nearest %d, want %d", i, b->list, b->nearest,
              want[i]);
    }
    steer_behavior_release(plain);
    steer_behavior_release(tagged);
    steer_behavior_release(mixed);
    steer_behavior_release(inner);
    steer_behavior_release(sep);
    steer_world_free(w);
}

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

// ---- the shape grid ---------------------------------------------------------

// A shape's box as the shape grid sees it (geometry.c's shape_aabb).
static void shape_box(const steer_World *w, const steerW_Shape *s, float lo[3], float hi[3])
{
    for (int i = 0; i < 3; i++) {
        float a = s->a[i], b = s->b[i];
        if (s->kind == STEER_SHAPE_CIRCLE) a -= s->r, b = s->a[i] + s->r;
        lo[i] = a < b ? a : b;
        hi[i] = a < b ? b : a;
    }
    if (w->dim == 2) lo[2] = hi[2] = 0.0f;
}

typedef struct Expect {
    uint32_t cell, shape;
} Expect;

static int cmp_expect(const void *a, const void *b)
{
    const Expect *x = a, *y = b;
    if (x->cell != y->cell) return x->cell < y->cell ? -1 : 1;
    return (x->shape > y->shape) - (x->shape < y->shape);
}

// What steerO_shapes_near must answer, by its definition and without the
// index: the planes, then each finite shape whose cells meet the query's,
// in the order a scan of the query's cells (x fastest, then y, then z)
// meets it first, shapes of one cell by index. Returns how many.
static int shapes_brute(const steer_World *w, const float lo[3], const float hi[3], uint32_t *out, Expect *tmp)
{
    const steerW_Geometry *g = &w->geo;
    int k = 0, m = 0;
    for (uint32_t i = 0; i < g->nshapes; i++)
        if (g->shapes[i].alive && g->shapes[i].kind == STEER_SHAPE_PLANE) out[k++] = i;
    if (!g->ncells) return k;
    int q0[3], q1[3];
    for (int d = 0; d < 3; d++) {
        float a = (lo[d] - g->lo[d]) / g->cell[d], b = (hi[d] - g->lo[d]) / g->cell[d];
        if (b < 0.0f || a >= (float)g->n[d]) return k;
        q0[d] = steerW_cell_index(a, g->n[d]);
        q1[d] = steerW_cell_index(b, g->n[d]);
    }
    for (uint32_t i = 0; i < g->nshapes; i++) {
        const steerW_Shape *s = &g->shapes[i];
        if (!s->alive || s->kind == STEER_SHAPE_PLANE) continue;
        float a[3], b[3];
        shape_box(w, s, a, b);
        int first[3];
        bool meets = true;
        for (int d = 0; d < 3; d++) {
            int s0 = steerW_cell_index((a[d] - g->lo[d]) / g->cell[d], g->n[d]);
            int s1 = steerW_cell_index((b[d] - g->lo[d]) / g->cell[d], g->n[d]);
            first[d] = s0 > q0[d] ? s0 : q0[d];
            if (first[d] > (s1 < q1[d] ? s1 : q1[d])) meets = false;
        }
        if (!meets) continue;
        uint32_t c =
            ((uint32_t)first[2] * (uint32_t)g->n[1] + (uint32_t)first[1]) * (uint32_t)g->n[0] + (uint32_t)first[0];
        tmp[m++] = (Expect){ c, i };
    }
    qsort(tmp, (size_t)m, sizeof *tmp, cmp_expect);
    for (int i = 0; i < m; i++) out[k++] = tmp[i].shape;
    return k;
}

#define MAXSHAPES 400

// A random layout: shapes of every kind in clusters, some far apart (a
// grid of many empty cells), some removed again; then queries of every
// size, from a point to more than the whole layout.
static void shapes_case(int dim, int layout)
{
    steer_World *w = test_world(&(steer_WorldDesc){ .dim = dim });
    REQUIRE(w, "world");
    int clusters = 1 + (int)test_uniform(0, 4), n = 20 + (int)test_uniform(0, MAXSHAPES - 40);
    double centre[4][3], spread = layout % 3 == 0 ? 1e5 : layout % 3 == 1 ? 300 : 20;
    for (int c = 0; c < clusters; c++)
        for (int i = 0; i < 3; i++) centre[c][i] = i < dim ? test_uniform(-spread, spread) : 0;
    // flat in z now and then: a 3D grid of one layer of many cells
    bool flat = dim == 3 && layout % 2 == 0;
    steer_Shape ids[MAXSHAPES];
    int made = 0;
    for (int k = 0; k < n; k++) {
        const double *c = centre[(int)test_uniform(0, clusters)];
        double p[3], q[3], size = test_uniform(0.01, 5);
        for (int i = 0; i < 3; i++) {
            p[i] = i < dim ? c[i] + test_uniform(-30, 30) : 0;
            q[i] = p[i] + (i < dim ? test_uniform(0.01, 1) * size : 0);
        }
        if (flat) q[2] = p[2] + 0.01;
        int kind = (int)test_uniform(0, 10), st;
        if (kind == 0 && dim == 3)
            st = steer_add_plane(w, p, (double[3]){ test_uniform(-1, 1), 1, test_uniform(-1, 1) }, &ids[made]);
        else if (kind < 4) st = steer_add_circle(w, p, flat ? 0.005 : size * 0.5, &ids[made]);
        else if (kind < 7 && dim == 2)
            st = steer_add_wall(w, p, (double[3]){ p[0] + test_uniform(-size, size), p[1] + size, 0 }, &ids[made]);
        else st = steer_add_box(w, p, q, &ids[made]);
        REQUIRE(st == STEER_OK, "shape %d", k);
        made++;
    }
    for (int k = 0; k < made; k += 7) steer_remove_shape(w, ids[k]);
    REQUIRE(steerO_geometry_ready(w) == STEER_OK, "grid");
    static uint32_t want[MAXSHAPES];
    static Expect tmp[MAXSHAPES];
    for (int t = 0; t < 300 && !FAILED(); t++) {
        const double *c = centre[(int)test_uniform(0, clusters)];
        float lo[3], hi[3];
        double half = pow(10, test_uniform(-2, 6));
        for (int i = 0; i < 3; i++) {
            double m = i < dim ? c[i] + test_uniform(-60, 60) : 0, h = i < dim ? half * test_uniform(0.2, 1) : 0;
            lo[i] = (float)(m - h);
            hi[i] = (float)(m + h);
        }
        int k = steerO_shapes_near(w, &w->loc, lo, hi), m = shapes_brute(w, lo, hi, want, tmp);
        CHECK(k == m, "dim %d layout %d query %d (half %g): %d shapes, brute force %d", dim, layout, t, half, k, m);
        for (int i = 0; i < k && i < m && !FAILED(); i++)
            CHECK(w->loc.found[i] == want[i], "dim %d layout %d query %d: shape %d is %u, brute force %u", dim, layout,
                  t, i, w->loc.found[i], want[i]);
        // and every shape whose box overlaps the query's is among them
        for (uint32_t s = 0; s < w->geo.nshapes && !FAILED(); s++) {
            const steerW_Shape *sh = &w->geo.shapes[s];
            if (!sh->alive || sh->kind == STEER_SHAPE_PLANE) continue;
            float a[3], b[3];
            shape_box(w, sh, a, b);
            bool overlaps = true;
            for (int i = 0; i < dim; i++) overlaps = overlaps && a[i] <= hi[i] && b[i] >= lo[i];
            bool found = false;
            for (int i = 0; i < k; i++) found = found || w->loc.found[i] == s;
            CHECK(!overlaps || found, "dim %d layout %d query %d: shape %u overlaps and is not found", dim, layout, t,
                  s);
        }
    }
    steer_world_free(w);
}

static void test_shapes_brute_force(void)
{
    for (int layout = 0; layout < 24 && !FAILED(); layout++) {
        shapes_case(2, layout);
        shapes_case(3, layout);
    }
}

// Two flat shapes far apart in 3D make a grid of about a million cells in
// one layer (1024 x 1024); a query box over both must cost about the shapes it meets,
// not the cells between them (it cost 2.7 ms: issue 29).
static void test_shapes_far_apart(void)
{
    steer_World *w = test_world(&(steer_WorldDesc){ .dim = 3 });
    REQUIRE(w, "world");
    REQUIRE(steer_add_box(w, (double[3]){ 0, 0, 0 }, (double[3]){ 1, 1, 0.01 }, NULL) == STEER_OK, "box");
    REQUIRE(steer_add_box(w, (double[3]){ 1e7, 1e7, 0 }, (double[3]){ 1e7 + 1, 1e7 + 1, 0.01 }, NULL) == STEER_OK,
            "box");
    REQUIRE(steerO_geometry_ready(w) == STEER_OK, "grid");
    CHECK(w->geo.ncells >= 1000000, "the layout makes a big grid: %u cells", w->geo.ncells);
    const float boxes[][2][3] = {
        { { -10, -10, -10 }, { 2e7, 2e7, 10 } }, // both
        { { -10, -10, -10 }, { 5e6, 5e6, 10 } }, // the first and a quarter of the empty space
        { { 1e6, 1e6, -10 }, { 9e6, 9e6, 10 } }, // only empty space
    };
    const int expect[] = { 2, 1, 0 };
    for (int q = 0; q < 3; q++) {
        uint64_t before = w->loc.work;
        int k = steerO_shapes_near(w, &w->loc, boxes[q][0], boxes[q][1]);
        uint64_t cost = w->loc.work - before;
        CHECK(k == expect[q], "query %d finds %d shapes, not %d", q, k, expect[q]);
        CHECK(cost <= 16, "query %d visits %llu cells and entries for %d shapes", q, (unsigned long long)cost, k);
    }
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
    RUN(test_nearest);
    RUN(test_nearest_brains);
    RUN(test_separation_2d_wrap);
    RUN(test_separation_2d_bounded);
    RUN(test_separation_3d_wrap);
    RUN(test_huge_radius);
    RUN(test_far_outlier);
    RUN(test_huge_shapes);
    RUN(test_shapes_brute_force);
    RUN(test_shapes_far_apart);
    return check_report_("grid");
}
