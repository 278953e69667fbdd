// SPDX-License-Identifier: MIT
// test_cdt.c — the exact predicates (src/nav/predicates.c) and the
// constrained Delaunay triangulation (src/nav/cdt.c).
//
// The predicates against known answers at the coordinate bound (cocircular
// and collinear points at +-2^40, one unit off) and against themselves
// under scaling (the 256-bit path must give the signs of the __int128
// one). Every triangulation is checked against its definition, not against
// the code: counter-clockwise triangles, symmetric neighbours and flags,
// Euler's count (2n - 2 - h triangles for n points, h on the hull), every
// point used, each segment covered by constrained edges (split where it
// passes through points), the Delaunay property edge by edge (the far
// vertex across an unconstrained edge is never strictly inside the
// circumcircle: equivalent to constrained Delaunay) and, without
// segments, point by point by brute force. Then a square with a square
// hole, collinear and near-collinear inputs, every error, the same bits
// for shuffled input, and 10k and 100k points timed (printed, not
// asserted).
#include "check.h"
#include "core/os.h"
#include "nav/cdt.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

static const int64_t BIG = (int64_t)1 << 40;

static int64_t rand_int(int64_t lo, int64_t hi) { return lo + (int64_t)(test_rand64() % (uint64_t)(hi - lo + 1)); }

// ---- predicates ------------------------------------------------------------

static void test_orient_and_incircle_at_the_bound(void)
{
    int64_t a[2] = { BIG, 0 }, b[2] = { 0, BIG }, c[2] = { -BIG, 0 }, d[2] = { 0, -BIG };
    CHECK(steerN_orient2d(a, b, c) == 1, "counter-clockwise");
    CHECK(steerN_orient2d(c, b, a) == -1, "clockwise");
    CHECK(steerN_incircle(a, b, c, d) == 0, "four points on a circle of radius 2^40");
    int64_t in[2] = { 0, -BIG + 1 }, out[2] = { 1, -BIG };
    CHECK(steerN_incircle(a, b, c, in) == 1, "a unit inside");
    CHECK(steerN_incircle(a, b, c, out) == -1, "a unit outside");
    CHECK(steerN_incircle(c, b, a, in) == -1, "clockwise flips the sign");
    int64_t s0[2] = { -BIG, -BIG }, s1[2] = { BIG, -BIG }, s2[2] = { BIG, BIG }, s3[2] = { -BIG, BIG };
    CHECK(steerN_incircle(s0, s1, s2, s3) == 0, "a square's corners are cocircular");
    int64_t s3in[2] = { -BIG + 1, BIG }, s3out[2] = { -BIG, BIG + 1 };
    CHECK(steerN_incircle(s0, s1, s2, s3in) == 1, "one unit in");
    CHECK(steerN_incircle(s0, s1, s2, s3out) == -1, "one unit out (beyond the bound, still exact)");
    int64_t l0[2] = { -BIG, -BIG }, l1[2] = { BIG, BIG - 2 }, m[2] = { 0, -1 };
    CHECK(steerN_orient2d(l0, l1, m) == 0, "collinear across the whole range");
    m[1] = 0;
    CHECK(steerN_orient2d(l0, l1, m) == 1, "one unit left");
    CHECK(steerN_coord_ok(a) && !steerN_coord_ok(s3out), "the bound");
}

static void test_incircle_wide_path_agrees(void)
{
    for (int k = 0; k < 20000 && !FAILED(); k++) {
        int64_t p[4][2], q[4][2], r[4][2];
        int64_t off[2] = { rand_int(-BIG / 2, BIG / 2), rand_int(-BIG / 2, BIG / 2) };
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 2; j++) {
                p[i][j] = rand_int(-8, 8);              // small: many cocircular and collinear quadruples
                q[i][j] = p[i][j] * ((int64_t)1 << 36); // scaled: the 256-bit path
                r[i][j] = p[i][j] + off[j];             // translated: the fast path far from the origin
            }
        int s = steerN_incircle(p[0], p[1], p[2], p[3]);
        CHECK(steerN_incircle(q[0], q[1], q[2], q[3]) == s, "scaled by 2^36: %d", s);
        CHECK(steerN_incircle(r[0], r[1], r[2], r[3]) == s, "translated: %d", s);
        int o = steerN_orient2d(p[0], p[1], p[2]);
        CHECK(steerN_orient2d(q[0], q[1], q[2]) == o && steerN_orient2d(r[0], r[1], r[2]) == o, "orient");
        // the circle test is antisymmetric in a swap of two of a, b, c
        CHECK(steerN_incircle(q[1], q[0], q[2], q[3]) == -s, "swap");
    }
}

static void test_segments_meet(void)
{
    int64_t a[2] = { 0, 0 }, b[2] = { 4, 4 }, c[2] = { 0, 4 }, d[2] = { 4, 0 }, e[2] = { 2, 2 }, f[2] = { 6, 6 };
    int64_t g[2] = { 5, 0 }, h[2] = { 9, 0 };
    CHECK(steerN_segments_meet(a, b, c, d) == STEERN_CROSS, "an X");
    CHECK(steerN_segments_meet(a, b, e, d) == STEERN_TOUCH, "a T");
    CHECK(steerN_segments_meet(a, b, b, d) == STEERN_TOUCH, "a shared end");
    CHECK(steerN_segments_meet(a, b, e, f) == STEERN_OVERLAP, "collinear overlap");
    CHECK(steerN_segments_meet(a, e, b, f) == STEERN_APART, "collinear apart");
    CHECK(steerN_segments_meet(a, e, e, b) == STEERN_TOUCH, "collinear end to end");
    CHECK(steerN_segments_meet(a, d, g, h) == STEERN_APART, "apart on a line");
    CHECK(steerN_segments_meet(c, e, g, h) == STEERN_APART, "apart");
    CHECK(steerN_on_segment(e, a, b) && !steerN_on_segment(a, a, b) && !steerN_on_segment(f, a, b), "on");
}

// ---- triangulation checks ----------------------------------------------------

static const int64_t *P(const int64_t *xy, uint32_t i) { return xy + 2 * i; }

// The edge u->v or v->u among the triangles: triangle * 3 + edge, or -1.
static int64_t find_edge(const steerN_Cdt *c, uint32_t u, uint32_t v)
{
    for (uint32_t t = 0; t < c->ntri; t++)
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t a = c->tri[3 * t + i], b = c->tri[3 * t + (i + 1) % 3];
            if ((a == u && b == v) || (a == v && b == u)) return 3 * (int64_t)t + i;
        }
    return -1;
}

// Everything cdt.h promises of a successful build, checked from the outside.
static void check_mesh(const steerN_Cdt *c, const int64_t *xy, uint32_t n, const uint32_t *seg, uint32_t m, bool brute)
{
    uint32_t hull = 0;
    bool *used = calloc(n ? n : 1, 1);
    for (uint32_t t = 0; t < c->ntri && !FAILED(); t++) {
        const uint32_t *v = c->tri + 3 * t;
        CHECK(v[0] < n && v[1] < n && v[2] < n, "triangle %u: a vertex out of range", t);
        if (FAILED()) break;
        CHECK(steerN_orient2d(P(xy, v[0]), P(xy, v[1]), P(xy, v[2])) > 0, "triangle %u not counter-clockwise", t);
        for (uint32_t i = 0; i < 3; i++) {
            used[v[i]] = true;
            int32_t u = c->adj[3 * t + i];
            bool con = c->flags[t] >> i & 1;
            if (u < 0) {
                hull++;
                continue;
            }
            const uint32_t *w = c->tri + 3 * u;
            int back = -1;
            for (int j = 0; j < 3; j++)
                if (c->adj[3 * u + j] == (int32_t)t) back = j;
            CHECK(back >= 0 && w[back] == v[(i + 1) % 3] && w[(back + 1) % 3] == v[i],
                  "triangle %u edge %u: neighbour %d does not share it back", t, i, u);
            if (back < 0) continue;
            CHECK(((c->flags[u] >> back) & 1) == con, "constrained flag differs across an edge");
            // local Delaunay across unconstrained edges
            uint32_t far = w[(back + 2) % 3];
            if (!con)
                CHECK(steerN_incircle(P(xy, v[0]), P(xy, v[1]), P(xy, v[2]), P(xy, far)) <= 0,
                      "triangle %u: the far vertex %u across edge %u is inside its circle", t, far, i);
        }
    }
    // Euler: a triangulation of n points, h of them on the hull, has 2n - 2 - h triangles
    if (c->ntri) CHECK(c->ntri == 2 * n - 2 - hull, "%u triangles for %u points, %u on the hull", c->ntri, n, hull);
    for (uint32_t i = 0; i < n && c->ntri && !FAILED(); i++) CHECK(used[i], "point %u in no triangle", i);
    free(used);
    // each segment: constrained edges from one end to the other through the points on it
    for (uint32_t j = 0; j < m && !FAILED(); j++) {
        uint32_t a = seg[2 * j], b = seg[2 * j + 1], at = a;
        for (uint32_t guard = 0; at != b && guard < n; guard++) {
            // the nearest point on the segment from `at` towards b (b itself if none)
            uint32_t best = b;
            for (uint32_t k = 0; k < n; k++) {
                if (!steerN_on_segment(P(xy, k), P(xy, at), P(xy, b))) continue;
                int64_t dk = llabs(xy[2 * k] - xy[2 * at]) + llabs(xy[2 * k + 1] - xy[2 * at + 1]);
                int64_t db = llabs(xy[2 * best] - xy[2 * at]) + llabs(xy[2 * best + 1] - xy[2 * at + 1]);
                if (dk < db) best = k;
            }
            int64_t e = find_edge(c, at, best);
            CHECK(e >= 0 && (c->flags[e / 3] >> (e % 3) & 1), "segment %u: edge %u-%u missing or unconstrained", j, at,
                  best);
            if (e < 0) break;
            at = best;
        }
    }
    if (!brute) return;
    for (uint32_t t = 0; t < c->ntri && !FAILED(); t++) {
        const uint32_t *v = c->tri + 3 * t;
        for (uint32_t k = 0; k < n; k++)
            CHECK(steerN_incircle(P(xy, v[0]), P(xy, v[1]), P(xy, v[2]), P(xy, k)) <= 0,
                  "point %u inside triangle %u's circle", k, t);
    }
}

static steerN_CdtStatus build(steerN_Cdt *c, const int64_t *xy, uint32_t n, const uint32_t *seg, uint32_t m)
{
    steerN_CdtStatus st = steerN_cdt_build(c, xy, n, seg, m, NULL);
    if (st) printf("    build: %s\n", c->message);
    return st;
}

// ---- triangulation tests -----------------------------------------------------

// Up to n distinct random points within +-span into xy; how many.
static uint32_t random_points(int64_t *xy, uint32_t n, int64_t span)
{
    uint32_t k = 0;
    for (uint32_t tries = 0; k < n && tries < 100 * n; tries++) {
        int64_t x = rand_int(-span, span), y = rand_int(-span, span);
        bool dup = false;
        for (uint32_t i = 0; i < k && !dup; i++) dup = xy[2 * i] == x && xy[2 * i + 1] == y;
        if (!dup) xy[2 * k] = x, xy[2 * k + 1] = y, k++;
    }
    return k;
}

static void test_random_points(void)
{
    for (int run = 0; run < 60 && !FAILED(); run++) {
        uint32_t n = 3 + (uint32_t)(test_rand64() % 300);
        int64_t span = run % 3 == 0 ? 12 : run % 3 == 1 ? 1000 : BIG; // a small span: cocircular and collinear
        int64_t *xy = malloc(sizeof *xy * 2 * n);
        uint32_t k = random_points(xy, n, span);
        steerN_Cdt c;
        CHECK(build(&c, xy, k, NULL, 0) == STEERN_CDT_OK, "run %d", run);
        check_mesh(&c, xy, k, NULL, 0, true);
        CHECK(c.ntri > 0, "run %d: %u points, no triangle", run, k);
        steerN_cdt_free(&c);
        free(xy);
    }
}

// Random points and random segments among them that neither cross nor
// overlap (a segment may pass through a point: it is split there).
static uint32_t random_segments(const int64_t *xy, uint32_t n, uint32_t *seg, uint32_t want)
{
    uint32_t m = 0;
    for (uint32_t tries = 0; m < want && tries < 50 * want; tries++) {
        uint32_t a = (uint32_t)(test_rand64() % n), b = (uint32_t)(test_rand64() % n);
        if (a == b) continue;
        bool ok = true;
        for (uint32_t j = 0; j < m && ok; j++) {
            steerN_Meet r = steerN_segments_meet(P(xy, a), P(xy, b), P(xy, seg[2 * j]), P(xy, seg[2 * j + 1]));
            ok = r == STEERN_APART || r == STEERN_TOUCH;
            // a touch must be at a point of the set, not a segment's end in another's middle
            if (r == STEERN_TOUCH && seg[2 * j] != a && seg[2 * j] != b && seg[2 * j + 1] != a && seg[2 * j + 1] != b)
                ok = false;
        }
        if (ok) seg[2 * m] = a, seg[2 * m + 1] = b, m++;
    }
    return m;
}

static void test_random_constraints(void)
{
    for (int run = 0; run < 60 && !FAILED(); run++) {
        uint32_t n = 3 + (uint32_t)(test_rand64() % 200);
        int64_t span = run % 2 ? 15 : 100000;
        int64_t *xy = malloc(sizeof *xy * 2 * n);
        uint32_t k = random_points(xy, n, span);
        uint32_t seg[2 * 60];
        uint32_t m = random_segments(xy, k, seg, 1 + (uint32_t)(test_rand64() % 60));
        steerN_Cdt c;
        CHECK(build(&c, xy, k, seg, m) == STEERN_CDT_OK, "run %d", run);
        check_mesh(&c, xy, k, seg, m, false);
        steerN_cdt_free(&c);
        free(xy);
    }
}

// 2 x the area of the triangles inside (or outside) the rings.
static int64_t area2(const steerN_Cdt *c, const int64_t *xy, bool inside)
{
    int64_t sum = 0;
    for (uint32_t t = 0; t < c->ntri; t++) {
        if (((c->flags[t] & STEERN_CDT_INSIDE) != 0) != inside) continue;
        const int64_t *a = P(xy, c->tri[3 * t]), *b = P(xy, c->tri[3 * t + 1]), *d = P(xy, c->tri[3 * t + 2]);
        sum += (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
    }
    return sum;
}

static void test_square_with_a_hole(void)
{
    // outline 0..10, hole 3..7 (wound either way), an island 4..6 in the
    // hole, and two points outside the outline so the hull has outside triangles
    int64_t xy[] = { 0, 0, 10, 0, 10, 10, 0, 10, 3, 3, 7, 3, 7, 7, 3, 7, 4, 4, 6, 4, 6, 6, 4, 6, -5, -5, 15, 20, 1, 8 };
    uint32_t ring[] = { 0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4 };
    uint32_t island[] = { 8, 9, 9, 10, 10, 11, 11, 8 };
    uint32_t seg[24];
    memcpy(seg, ring, sizeof ring);
    steerN_Cdt c;
    REQUIRE(build(&c, xy, 15, seg, 8) == STEERN_CDT_OK, "outline and hole");
    check_mesh(&c, xy, 15, seg, 8, false);
    CHECK(area2(&c, xy, true) == 2 * (100 - 16), "inside area x2 %" PRId64 ", want 168", area2(&c, xy, true));
    for (uint32_t t = 0; t < c.ntri; t++) {
        const int64_t *a = P(xy, c.tri[3 * t]), *b = P(xy, c.tri[3 * t + 1]), *d = P(xy, c.tri[3 * t + 2]);
        // the centroid, x3: inside the hole means outside the mesh
        int64_t cx = a[0] + b[0] + d[0], cy = a[1] + b[1] + d[1];
        bool in_hole = cx > 9 && cx < 21 && cy > 9 && cy < 21;
        if (in_hole) CHECK(!(c.flags[t] & STEERN_CDT_INSIDE), "triangle %u in the hole is inside", t);
    }
    steerN_cdt_free(&c);
    // the hole wound the other way, and an island in it
    for (int i = 0; i < 4; i++) seg[8 + 2 * i] = ring[8 + 2 * i + 1], seg[8 + 2 * i + 1] = ring[8 + 2 * i];
    memcpy(seg + 16, island, sizeof island);
    REQUIRE(build(&c, xy, 15, seg, 12) == STEERN_CDT_OK, "with an island");
    check_mesh(&c, xy, 15, seg, 12, false);
    CHECK(area2(&c, xy, true) == 2 * (100 - 16 + 4), "inside area x2 %" PRId64 ", want 176", area2(&c, xy, true));
    steerN_cdt_free(&c);
}

static void test_collinear(void)
{
    int64_t xy[2 * 50];
    for (int i = 0; i < 50; i++) xy[2 * i] = 3 * ((i * 17) % 50), xy[2 * i + 1] = -2 * ((i * 17) % 50);
    steerN_Cdt c;
    CHECK(build(&c, xy, 50, NULL, 0) == STEERN_CDT_OK && c.ntri == 0, "all on one line: no triangle");
    uint32_t seg[] = { 0, 1 };
    CHECK(build(&c, xy, 50, seg, 1) == STEERN_CDT_OK && c.ntri == 0, "a segment on the line: no triangle");
    steerN_cdt_free(&c);
    xy[2 * 7 + 1] += 1; // one point off the line
    CHECK(build(&c, xy, 50, NULL, 0) == STEERN_CDT_OK && c.ntri == 48, "one off: %u triangles", c.ntri);
    check_mesh(&c, xy, 50, NULL, 0, true);
    steerN_cdt_free(&c);
    // a grid: collinear rows and columns, every square's corners cocircular;
    // segments along whole rows pass through every point of the row
    int64_t g[2 * 100];
    for (int i = 0; i < 100; i++) g[2 * i] = i % 10, g[2 * i + 1] = i / 10;
    uint32_t rows[] = { 0, 9, 90, 99, 0, 90, 9, 99, 11, 88 }; // four sides and a diagonal
    CHECK(build(&c, g, 100, rows, 5) == STEERN_CDT_OK, "grid with segments along its rows");
    check_mesh(&c, g, 100, rows, 5, false);
    CHECK(c.ntri == 2 * 100 - 2 - 36, "grid: %u triangles", c.ntri);
    steerN_cdt_free(&c);
}

static void test_near_collinear(void)
{
    // a line with +-1 jitter at large scale: the thinnest possible slivers
    enum { N = 2000 };
    int64_t *xy = malloc(sizeof *xy * 2 * N);
    for (int i = 0; i < N; i++) {
        xy[2 * i] = (int64_t)i * 1000003 - BIG / 2;
        xy[2 * i + 1] = (int64_t)i * 700001 + rand_int(-1, 1);
    }
    uint32_t seg[2 * 20];
    for (int j = 0; j < 20; j++) seg[2 * j] = (uint32_t)(100 * j), seg[2 * j + 1] = (uint32_t)(100 * j + 99);
    steerN_Cdt c;
    steerN_CdtStatus st = steerN_cdt_build(&c, xy, N, seg, 20, NULL);
    // segments over jittered points may cross nothing or pass through points; either is fine
    CHECK(st == STEERN_CDT_OK, "near-collinear: %s", c.message);
    if (st == STEERN_CDT_OK) check_mesh(&c, xy, N, seg, 20, false);
    steerN_cdt_free(&c);
    // many points on a few lines through one centre, at full range
    uint32_t n = 0;
    for (int line = 0; line < 8; line++)
        for (int k = 1; k <= 100; k++) {
            int64_t dx[8] = { 1, 0, -1, 0, 3, -3, 5, -7 }, dy[8] = { 0, 1, 0, -1, 2, 2, -7, -5 };
            xy[2 * n] = dx[line] * k * (BIG / 800), xy[2 * n + 1] = dy[line] * k * (BIG / 800);
            n++;
        }
    xy[2 * n] = 0, xy[2 * n + 1] = 0, n++;
    uint32_t spokes[2 * 8];
    for (int line = 0; line < 8; line++) spokes[2 * line] = n - 1, spokes[2 * line + 1] = (uint32_t)(line * 100 + 99);
    st = build(&c, xy, n, spokes, 8);
    CHECK(st == STEERN_CDT_OK, "spokes");
    if (st == STEERN_CDT_OK) check_mesh(&c, xy, n, spokes, 8, false);
    steerN_cdt_free(&c);
    free(xy);
}

static void test_errors(void)
{
    int64_t xy[] = { 0, 0, 10, 0, 10, 10, 0, 10, 10, 0, 5, 5 };
    steerN_Cdt c;
    CHECK(steerN_cdt_build(&c, xy, 6, NULL, 0, NULL) == STEERN_CDT_DUPLICATE && c.err_a == 1 && c.err_b == 4,
          "duplicate: %s", c.message);
    CHECK(strstr(c.message, "points 1 and 4"), "message: %s", c.message);
    CHECK(c.ntri == 0 && c.tri == NULL, "no triangles on an error");
    uint32_t cross[] = { 0, 2, 1, 3 };
    CHECK(steerN_cdt_build(&c, xy, 4, cross, 2, NULL) == STEERN_CDT_CROSSING && c.err_a == 0 && c.err_b == 1,
          "crossing: %s", c.message);
    CHECK(strstr(c.message, "segments 0 and 1 cross"), "message: %s", c.message);
    uint32_t cross2[] = { 0, 1, 1, 2, 0, 2, 1, 3 }; // the diagonals cross, the sides do not
    CHECK(steerN_cdt_build(&c, xy, 4, cross2, 4, NULL) == STEERN_CDT_CROSSING && c.err_a == 2 && c.err_b == 3,
          "crossing among others: %s", c.message);
    uint32_t bad[] = { 0, 1, 2, 2 };
    CHECK(steerN_cdt_build(&c, xy, 4, bad, 2, NULL) == STEERN_CDT_SEGMENT && c.err_a == 1, "degenerate segment");
    bad[3] = 9;
    CHECK(steerN_cdt_build(&c, xy, 4, bad, 2, NULL) == STEERN_CDT_SEGMENT && c.err_a == 1, "no such point: %s",
          c.message);
    int64_t far[] = { 0, 0, BIG + 1, 0, 0, 5 };
    CHECK(steerN_cdt_build(&c, far, 3, NULL, 0, NULL) == STEERN_CDT_RANGE && c.err_a == 1, "range: %s", c.message);
    CHECK(steerN_cdt_build(&c, xy, 2, NULL, 0, NULL) == STEERN_CDT_OK && c.ntri == 0, "two points");
    // many duplicates among many points: the first pair in (x, y) order is named
    int64_t many[2 * 400];
    for (int i = 0; i < 400; i++) many[2 * i] = rand_int(0, 9), many[2 * i + 1] = rand_int(0, 9);
    CHECK(steerN_cdt_build(&c, many, 400, NULL, 0, NULL) == STEERN_CDT_DUPLICATE, "many duplicates");
    // a segment through a point is split there, not an error; one given twice is one
    int64_t line[] = { 0, 0, 5, 0, 10, 0, 5, 5 };
    uint32_t through[] = { 0, 2, 2, 0, 1, 3 };
    CHECK(build(&c, line, 4, through, 3) == STEERN_CDT_OK, "through a point");
    check_mesh(&c, line, 4, through, 3, false);
    steerN_cdt_free(&c);
}

// The same points and segments in another order give the same triangles
// in the same order (in the caller's indices: compare coordinates).
static void test_shuffled_input_same_bits(void)
{
    enum { N = 3000 };
    int64_t *xy = malloc(sizeof *xy * 2 * N), *xy2 = malloc(sizeof *xy2 * 2 * N);
    uint32_t *perm = malloc(sizeof *perm * N);
    for (int i = 0; i < N; i++) xy[2 * i] = rand_int(0, 60), xy[2 * i + 1] = rand_int(0, 60), perm[i] = (uint32_t)i;
    // dedupe on the small grid (many cocircular points: the hard case)
    uint32_t n = 0;
    for (int i = 0; i < N; i++) {
        bool dup = false;
        for (uint32_t k = 0; k < n && !dup; k++) dup = xy[2 * k] == xy[2 * i] && xy[2 * k + 1] == xy[2 * i + 1];
        if (!dup) xy[2 * n] = xy[2 * i], xy[2 * n + 1] = xy[2 * i + 1], n++;
    }
    uint32_t seg[2 * 80], seg2[2 * 80];
    uint32_t m = random_segments(xy, n, seg, 80);
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t)(test_rand64() % (i + 1)), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    for (uint32_t i = 0; i < n; i++) xy2[2 * perm[i]] = xy[2 * i], xy2[2 * perm[i] + 1] = xy[2 * i + 1];
    for (uint32_t j = 0; j < m; j++) { // reversed order, ends swapped
        seg2[2 * (m - 1 - j)] = perm[seg[2 * j + 1]];
        seg2[2 * (m - 1 - j) + 1] = perm[seg[2 * j]];
    }
    steerN_Cdt c, d;
    REQUIRE(build(&c, xy, n, seg, m) == STEERN_CDT_OK, "first");
    REQUIRE(build(&d, xy2, n, seg2, m) == STEERN_CDT_OK, "shuffled");
    check_mesh(&c, xy, n, seg, m, false);
    CHECK(c.ntri == d.ntri, "%u vs %u triangles", c.ntri, d.ntri);
    for (uint32_t t = 0; t < c.ntri && t < d.ntri && !FAILED(); t++) {
        for (int i = 0; i < 3; i++) {
            const int64_t *a = P(xy, c.tri[3 * t + i]), *b = P(xy2, d.tri[3 * t + i]);
            CHECK(a[0] == b[0] && a[1] == b[1], "triangle %u corner %d differs", t, i);
            CHECK(c.adj[3 * t + i] == d.adj[3 * t + i], "triangle %u neighbour %d differs", t, i);
        }
        CHECK(c.flags[t] == d.flags[t], "triangle %u flags differ", t);
    }
    steerN_cdt_free(&c);
    steerN_cdt_free(&d);
    free(xy), free(xy2), free(perm);
}

static double now(void) { return steerY_now(); } // the monotonic clock, on every system (os.h)

// n random points in a 1 km square (mm), with square obstacles on a lattice as rings.
static void timed(uint32_t n)
{
    uint32_t side = 1;
    while ((side + 1) * (side + 1) * 4 < n / 4) side++; // about n/4 points on obstacles
    uint32_t nobs = side * side, total = n;
    int64_t *xy = malloc(sizeof *xy * 2 * total);
    uint32_t *seg = malloc(sizeof *seg * 2 * 4 * nobs);
    int64_t cell = 1000000 / side;
    uint32_t k = 0, m = 0;
    for (uint32_t oy = 0; oy < side; oy++)
        for (uint32_t ox = 0; ox < side; ox++) {
            int64_t x0 = (int64_t)ox * cell + cell / 4, y0 = (int64_t)oy * cell + cell / 4, s = cell / 2;
            int64_t corners[4][2] = { { x0, y0 }, { x0 + s, y0 }, { x0 + s, y0 + s }, { x0, y0 + s } };
            for (int i = 0; i < 4; i++) {
                xy[2 * (k + i)] = corners[i][0], xy[2 * (k + i) + 1] = corners[i][1];
                seg[2 * m] = k + i, seg[2 * m + 1] = k + (i + 1) % 4, m++;
            }
            k += 4;
        }
    // the rest: random points (anywhere, obstacles' edges and insides too)
    for (; k < total; k++) xy[2 * k] = rand_int(0, 1000000), xy[2 * k + 1] = rand_int(0, 1000000);
    steerN_Cdt c;
    double t0 = 0, t1 = 0;
    steerN_CdtStatus st = STEERN_CDT_DUPLICATE;
    for (int tries = 0; tries < 10 && st == STEERN_CDT_DUPLICATE; tries++) {
        if (tries) { // a random point fell on another: draw it again
            uint32_t i = c.err_b;
            xy[2 * i] = rand_int(0, 1000000), xy[2 * i + 1] = rand_int(0, 1000000);
        }
        t0 = now();
        st = steerN_cdt_build(&c, xy, total, seg, m, NULL);
        t1 = now();
    }
    CHECK(st == STEERN_CDT_OK, "%u points: %s", total, c.message);
    printf("    %u points, %u segments: %u triangles in %.1f ms\n", total, m, c.ntri, 1e3 * (t1 - t0));
    if (st == STEERN_CDT_OK && total <= 10000) check_mesh(&c, xy, total, seg, 0, false);
    steerN_cdt_free(&c);
    free(xy);
    free(seg);
}

static void test_10k_points(void) { timed(10000); }
static void test_100k_points(void) { timed(100000); }

int main(void)
{
    RUN(test_orient_and_incircle_at_the_bound);
    RUN(test_incircle_wide_path_agrees);
    RUN(test_segments_meet);
    RUN(test_random_points);
    RUN(test_random_constraints);
    RUN(test_square_with_a_hole);
    RUN(test_collinear);
    RUN(test_near_collinear);
    RUN(test_errors);
    RUN(test_shuffled_input_same_bits);
    if (!getenv("CDT_QUICK")) RUN(test_10k_points);
    if (!getenv("CDT_QUICK")) RUN(test_100k_points);
    return check_report_("cdt");
}
