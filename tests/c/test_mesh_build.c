// SPDX-License-Identifier: MIT
// test_mesh_build.c — navigation meshes from polygons and grids
// (src/nav/mesh_build.c, mesh_snap.c).
//
// Every mesh is checked against what mesh.h promises, from the outside:
// counter-clockwise triangles, neighbours that share the edge back, walls
// that no other triangle shares, vwall exactly at the walls' ends, every
// vertex used, metres from quanta. Areas are summed exactly from ixy
// (twice the area in square quanta, __int128) and compared with the area
// worked out independently: by hand, by inclusion on the integer grid for
// random rectangles, cell by cell for grids. Random polygons (crossing,
// self-crossing, degenerate) are checked point by point: wherever a point
// is more than 1.5 quanta from every input edge (snap rounding moves an
// edge by at most half a pixel's diagonal), the mesh holds it exactly
// when the input's own rules (outline even-odd, outside every obstacle:
// each obstacle's own winding zero) say it is walkable.
#include "check.h"
#include "nav/cdt.h"
#include "nav/mesh.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

__extension__ typedef __int128 i128;

#define M_PI 3.14159265358979323846

static int64_t rand_int(int64_t lo, int64_t hi) { return lo + (int64_t)(test_rand64() % (uint64_t)(hi - lo + 1)); }

// ---- a spec under construction ------------------------------------------------

typedef struct Spec {
    double xy[2 * 40000];
    uint32_t end[8000];
    int32_t role[8000];
    uint32_t npt, nring;
    uint32_t nareas;
    const char *names[STEERN_MESH_AREAS];
    float costs[STEERN_MESH_AREAS];
} Spec;
static Spec S;

static void spec_reset(void)
{
    S.npt = S.nring = 0;
    S.nareas = 1;
    S.names[0] = "default";
    S.costs[0] = 1.0f;
}

static void ring(int32_t role, const double *xy, uint32_t n)
{
    memcpy(S.xy + 2 * S.npt, xy, 2 * n * sizeof *xy);
    S.npt += n;
    S.end[S.nring] = S.npt;
    S.role[S.nring++] = role;
}

static void rect(int32_t role, double x0, double y0, double x1, double y1)
{
    double p[8] = { x0, y0, x1, y0, x1, y1, x0, y1 };
    ring(role, p, 4);
}

static steerN_MeshSpec spec_of(void)
{
    return (steerN_MeshSpec){ S.xy, S.end, S.role, S.nring, S.nareas, S.names, S.costs };
}

static steerN_Mesh *build(steerN_MeshError *err)
{
    steerN_MeshSpec sp = spec_of();
    steerN_Mesh *m = steerN_mesh_build(&sp, NULL, err);
    if (!m && err->status != STEERN_MESH_EMPTY) printf("    build: %s\n", err->message);
    return m;
}

// ---- checks --------------------------------------------------------------------

static const int64_t *V(const steerN_Mesh *m, uint32_t v) { return m->ixy + 2 * v; }

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void check_mesh(const steerN_Mesh *m)
{
    uint8_t *used = calloc(m->nvert ? m->nvert : 1, 1), *wall = calloc(m->nvert ? m->nvert : 1, 1);
    for (uint32_t t = 0; t < m->ntri && !FAILED(); t++) {
        const uint32_t *v = m->tri + 3 * t;
        REQUIRE(v[0] < m->nvert && v[1] < m->nvert && v[2] < m->nvert, "triangle %u: a vertex out of range", t);
        CHECK(steerN_orient2d(V(m, v[0]), V(m, v[1]), V(m, v[2])) > 0, "triangle %u not counter-clockwise", t);
        CHECK(m->area[t] < m->nareas, "triangle %u: area %u of %u", t, m->area[t], m->nareas);
        for (uint32_t i = 0; i < 3; i++) {
            used[v[i]] = 1;
            int32_t u = m->adj[3 * t + i];
            if (u < 0) {
                wall[v[i]] = wall[v[(i + 1) % 3]] = 1;
                continue;
            }
            REQUIRE((uint32_t)u < m->ntri, "triangle %u: neighbour %d out of range", t, u);
            int back = -1;
            for (int j = 0; j < 3; j++)
                if (m->adj[3 * u + j] == (int32_t)t) back = j;
            CHECK(back >= 0 && m->tri[3 * u + back] == v[(i + 1) % 3] && m->tri[3 * u + (back + 1) % 3] == v[i],
                  "triangle %u edge %u: neighbour %d does not share it back", t, i, u);
        }
    }
    // a wall edge is no other triangle's edge: no triangle has it the other way round
    uint64_t *dir = malloc(sizeof *dir * 3 * (m->ntri ? m->ntri : 1));
    for (uint32_t e = 0; e < 3 * m->ntri; e++) dir[e] = (uint64_t)m->tri[e] << 32 | m->tri[e / 3 * 3 + (e % 3 + 1) % 3];
    qsort(dir, 3 * m->ntri, sizeof *dir, cmp_u64);
    for (uint32_t e = 0; e + 1 < 3 * m->ntri && !FAILED(); e++)
        CHECK(dir[e] != dir[e + 1], "an edge twice the same way");
    for (uint32_t e = 0; e < 3 * m->ntri && !FAILED(); e++) {
        if (m->adj[e] >= 0) continue;
        uint64_t back = (uint64_t)m->tri[e / 3 * 3 + (e % 3 + 1) % 3] << 32 | m->tri[e];
        CHECK(!bsearch(&back, dir, 3 * m->ntri, sizeof *dir, cmp_u64), "wall %u is another triangle's edge", e);
    }
    free(dir);
    for (uint32_t v = 0; v < m->nvert && !FAILED(); v++) {
        CHECK(used[v], "vertex %u in no triangle", v);
        CHECK(m->vwall[v] == wall[v], "vertex %u: vwall %u, walls end there: %u", v, m->vwall[v], wall[v]);
        CHECK(m->xy[2 * v] == (double)m->ixy[2 * v] / 1000.0 && m->xy[2 * v + 1] == (double)m->ixy[2 * v + 1] / 1000.0,
              "vertex %u: metres", v);
    }
    CHECK(m->hash == steerN_mesh_hash(m), "the stored hash");
    free(used);
    free(wall);
}

// Twice the area of the triangles of area `area` (-1: all), in square quanta.
static i128 area2(const steerN_Mesh *m, int area)
{
    i128 s = 0;
    for (uint32_t t = 0; t < m->ntri; t++) {
        if (area >= 0 && m->area[t] != area) continue;
        const int64_t *a = V(m, m->tri[3 * t]), *b = V(m, m->tri[3 * t + 1]), *c = V(m, m->tri[3 * t + 2]);
        s += (i128)(b[0] - a[0]) * (c[1] - a[1]) - (i128)(b[1] - a[1]) * (c[0] - a[0]);
    }
    return s;
}
// Twice an area of square metres, in square quanta (for exact comparisons).
static i128 m2(double square_metres) { return (i128)llround(square_metres * 2e6); }

static void check_area(const steerN_Mesh *m, int area, double expect_m2)
{
    i128 got = area2(m, area);
    CHECK(got == m2(expect_m2), "area %d: %.6f m^2, expected %.6f", area, (double)got / 2e6, expect_m2);
}

// ---- simple shapes -------------------------------------------------------------

static void test_square_with_a_hole(void)
{
    steerN_MeshError err;
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    rect(STEERN_RING_OUTLINE, 3, 3, 6, 6); // even-odd: a hole
    steerN_Mesh *m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    check_area(m, -1, 100 - 9);
    CHECK(m->nvert == 8 && m->ntri == 8, "%u vertices, %u triangles: expected 8 and 8", m->nvert, m->ntri);
    for (uint32_t v = 0; v < m->nvert; v++) CHECK(m->vwall[v], "every vertex on a wall");
    uint64_t h = m->hash;
    steerN_mesh_release(m);
    // the same hole as an obstacle, clockwise: the same mesh
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    double hole[8] = { 3, 3, 3, 6, 6, 6, 6, 3 };
    ring(STEERN_RING_OBSTACLE, hole, 4);
    m = build(&err);
    REQUIRE(m, "the build failed");
    CHECK(m->hash == h, "the hole as an obstacle gives the same mesh");
    steerN_mesh_release(m);
    // an island inside the hole
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    rect(STEERN_RING_OUTLINE, 3, 3, 6, 6);
    rect(STEERN_RING_OUTLINE, 4, 4, 5, 5);
    m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    check_area(m, -1, 100 - 9 + 1);
    steerN_mesh_release(m);
}

static void test_overlapping_and_touching_obstacles(void)
{
    steerN_MeshError err;
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 20, 20);
    rect(STEERN_RING_OBSTACLE, 2, 2, 8, 8);
    double cw[8] = { 5, 4, 5, 10, 12, 10, 12, 4 }; // clockwise, overlapping the first
    ring(STEERN_RING_OBSTACLE, cw, 4);
    steerN_Mesh *m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    check_area(m, -1, 400 - (36 + 42 - 12));
    steerN_mesh_release(m);

    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 20, 20);
    rect(STEERN_RING_OBSTACLE, 2, 2, 5, 5);
    rect(STEERN_RING_OBSTACLE, 5, 2, 9, 5);  // sharing a side
    rect(STEERN_RING_OBSTACLE, 9, 5, 12, 8); // sharing a corner
    rect(STEERN_RING_OBSTACLE, 3, 5, 4, 7);  // sharing part of a side
    rect(STEERN_RING_OBSTACLE, 2, 2, 5, 5);  // given twice
    m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    check_area(m, -1, 400 - (9 + 12 + 9 + 2));
    // the shared side's inner part is no wall: no vertex at (5, 3.5) and (5, 2)-(5, 5) is no edge
    for (uint32_t t = 0; t < m->ntri; t++)
        for (int i = 0; i < 3; i++) {
            const int64_t *a = V(m, m->tri[3 * t + i]), *b = V(m, m->tri[3 * t + (i + 1) % 3]);
            CHECK(!(a[0] == 5000 && b[0] == 5000 && a[1] < 5000 && b[1] < 5000 && a[1] >= 2000 && b[1] >= 2000),
                  "an edge along the shared side");
        }
    steerN_mesh_release(m);
}

static void test_obstacle_crossing_the_outline(void)
{
    steerN_MeshError err;
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    rect(STEERN_RING_OBSTACLE, 8, 4, 12, 6);    // across the right side
    rect(STEERN_RING_OBSTACLE, -5, -5, 1, 1);   // over a corner
    rect(STEERN_RING_OBSTACLE, 20, 20, 30, 30); // far outside: nothing
    steerN_Mesh *m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    check_area(m, -1, 100 - 4 - 1);
    steerN_mesh_release(m);
    // a triangle across a side at irrational-looking crossings: rounded, within a quantum of each
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    double tri[6] = { 9.0001, 3.0003, 11.0007, 4.0002, 9.0005, 6.0009 };
    ring(STEERN_RING_OBSTACLE, tri, 3);
    m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    // the outline less the part of the triangle inside x <= 10, its crossings with x = 10 rounded
    int64_t q[3][2];
    for (int i = 0; i < 3; i++)
        steerN_mesh_quantize(tri[2 * i], &q[i][0]), steerN_mesh_quantize(tri[2 * i + 1], &q[i][1]);
    int64_t quad[4][2] = { { q[0][0], q[0][1] }, { 10000, 0 }, { 10000, 0 }, { q[2][0], q[2][1] } };
    quad[1][1] = (int64_t)floor(q[0][1] + (double)(10000 - q[0][0]) * (q[1][1] - q[0][1]) / (q[1][0] - q[0][0]) + 0.5);
    quad[2][1] = (int64_t)floor(q[2][1] + (double)(10000 - q[2][0]) * (q[1][1] - q[2][1]) / (q[1][0] - q[2][0]) + 0.5);
    i128 s = 0;
    for (int i = 0; i < 4; i++) s += (i128)quad[i][0] * quad[(i + 1) % 4][1] - (i128)quad[(i + 1) % 4][0] * quad[i][1];
    CHECK(area2(m, -1) == m2(100) - s, "area %.9f, expected %.9f", (double)area2(m, -1) / 2e6,
          (double)(m2(100) - s) / 2e6);
    steerN_mesh_release(m);
}

// The hash of the mesh S makes (0 when the build fails).
static uint64_t hash_of_spec(void)
{
    steerN_MeshError err;
    steerN_Mesh *m = build(&err);
    CHECK(m, "the build failed");
    uint64_t h = m ? m->hash : 0;
    steerN_mesh_release(m);
    return h;
}

static void test_collinear_and_duplicate_points(void)
{
    steerN_MeshError err;
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    uint64_t h = hash_of_spec();
    spec_reset();
    double dup[] = { 0, 0, 0, 0, 10, 0, 10, 0, 10, 0, 10, 10, 0.0000001, 10.0000004, 0, 10, 0, 0 };
    ring(STEERN_RING_OUTLINE, dup, 9); // repeats, one within half a quantum, the first point again at the end
    CHECK(hash_of_spec() == h, "repeated points change nothing");
    spec_reset();
    double col[] = { 0, 0, 5, 0, 10, 0, 10, 3, 10, 7, 10, 10, 0, 10, 0, 5 };
    ring(STEERN_RING_OUTLINE, col, 8);
    double spike[] = { 2, 2, 8, 2, 8, 8, 5, 8, 5, 9, 5, 8, 2, 8 }; // an obstacle with a spike out and back
    ring(STEERN_RING_OBSTACLE, spike, 7);
    steerN_Mesh *m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    check_area(m, -1, 100 - 36);
    for (uint32_t v = 0; v < m->nvert; v++)
        CHECK(!(m->ixy[2 * v] == 5000 && m->ixy[2 * v + 1] == 9000), "the spike's tip is no vertex");
    steerN_mesh_release(m);
}

static void test_slivers(void)
{
    steerN_MeshError err;
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    uint64_t h = hash_of_spec();
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    double line[] = { 2, 2, 8, 8, 5, 5 }; // zero width
    ring(STEERN_RING_OBSTACLE, line, 3);
    double thin[] = { 2, 5, 8, 5, 8, 5.0004, 2, 5.0004 }; // narrower than half a quantum
    ring(STEERN_RING_OBSTACLE, thin, 4);
    CHECK(hash_of_spec() == h, "slivers of no width carve nothing and leave no trace");
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    rect(STEERN_RING_OBSTACLE, 2, 5, 8, 5.001); // one quantum wide
    steerN_Mesh *m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    check_area(m, -1, 100 - 0.006);
    steerN_mesh_release(m);
}

static i128 floor_div(i128 n, i128 d)
{
    i128 q = n / d;
    return n % d != 0 && (n < 0) != (d < 0) ? q - 1 : q;
}

// A five-pointed star {5/2}: its outer points joined every second one.
// Into out: twice the area of its outline (the ten-gon: outer points and
// the crossings, each crossing rounded to the nearest quantum as snap
// rounding does) and of the inner pentagon (the crossings alone).
static void star(int32_t role, double cx, double cy, double r, i128 out[2])
{
    double p[10];
    int64_t q[5][2], pts[10][2];
    for (int i = 0; i < 5; i++) {
        double a = M_PI / 2 + 2 * M_PI * (2 * i % 5) / 5;
        p[2 * i] = cx + r * cos(a);
        p[2 * i + 1] = cy + r * sin(a);
        steerN_mesh_quantize(p[2 * i], &q[i][0]), steerN_mesh_quantize(p[2 * i + 1], &q[i][1]);
    }
    ring(role, p, 5);
    if (!out) return;
    for (int i = 0; i < 5; i++) { // edge i crosses edge i + 2
        const int64_t *a = q[i], *b = q[(i + 1) % 5], *c = q[(i + 2) % 5], *d = q[(i + 3) % 5];
        i128 rx = b[0] - a[0], ry = b[1] - a[1], sx = d[0] - c[0], sy = d[1] - c[1];
        i128 den = rx * sy - ry * sx, num = (i128)(c[0] - a[0]) * sy - (i128)(c[1] - a[1]) * sx;
        if (den < 0) den = -den, num = -num;
        pts[2 * i][0] = q[i][0], pts[2 * i][1] = q[i][1];
        pts[2 * i + 1][0] = a[0] + (int64_t)floor_div(2 * num * rx + den, 2 * den);
        pts[2 * i + 1][1] = a[1] + (int64_t)floor_div(2 * num * ry + den, 2 * den);
    }
    // the ten points around the centre: by angle
    double ang[10];
    for (int i = 0; i < 10; i++) ang[i] = atan2(pts[i][1] - cy * 1e3, pts[i][0] - cx * 1e3);
    int ord[10];
    for (int i = 0; i < 10; i++) ord[i] = i;
    for (int i = 1; i < 10; i++)
        for (int j = i; j > 0 && ang[ord[j - 1]] > ang[ord[j]]; j--) {
            int t = ord[j];
            ord[j] = ord[j - 1], ord[j - 1] = t;
        }
    out[0] = out[1] = 0;
    int inner[5], ni = 0;
    for (int i = 0; i < 10; i++)
        if (ord[i] & 1) inner[ni++] = ord[i];
    for (int i = 0; i < 10; i++) {
        const int64_t *u = pts[ord[i]], *v = pts[ord[(i + 1) % 10]];
        out[0] += (i128)u[0] * v[1] - (i128)v[0] * u[1];
    }
    for (int i = 0; i < 5; i++) {
        const int64_t *u = pts[inner[i]], *v = pts[inner[(i + 1) % 5]];
        out[1] += (i128)u[0] * v[1] - (i128)v[0] * u[1];
    }
}

static void test_self_crossing_star(void)
{
    steerN_MeshError err;
    i128 st[2];
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    star(STEERN_RING_OBSTACLE, 5, 5, 3, st); // nonzero: all of it carved
    steerN_Mesh *m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    CHECK(area2(m, -1) == m2(100) - st[0], "star obstacle: %.6f m^2, expected %.6f", (double)area2(m, -1) / 2e6,
          (double)(m2(100) - st[0]) / 2e6);
    steerN_mesh_release(m);
    spec_reset();
    star(STEERN_RING_OUTLINE, 5, 5, 3, st); // even-odd: the tips alone
    m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    CHECK(area2(m, -1) == st[0] - st[1], "star outline: %.6f m^2, expected %.6f", (double)area2(m, -1) / 2e6,
          (double)(st[0] - st[1]) / 2e6);
    steerN_mesh_release(m);
    // a figure eight as an obstacle: both lobes carved, whatever its net winding
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    double eight[] = { 1, 1, 3, 3, 3, 1, 1, 3 };
    ring(STEERN_RING_OBSTACLE, eight, 4);
    m = build(&err);
    REQUIRE(m, "the build failed");
    check_mesh(m);
    check_area(m, -1, 100 - 2);
    steerN_mesh_release(m);
    // ... and a square over either lobe: carved too (one lobe winds -1, the
    // square +1; a winding sum would leave their overlap walkable)
    for (int side = 0; side < 2; side++) {
        spec_reset();
        rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
        ring(STEERN_RING_OBSTACLE, eight, 4);
        rect(STEERN_RING_OBSTACLE, side ? 2 : 0.5, 0.5, side ? 3.5 : 2, 3.5);
        m = build(&err);
        REQUIRE(m, "the build failed");
        check_mesh(m);
        check_area(m, -1, 100 - 4.5 - 1);
        steerN_mesh_release(m);
    }
}

static void test_areas_later_wins(void)
{
    steerN_MeshError err;
    for (int order = 0; order < 2; order++) {
        spec_reset();
        S.nareas = 3;
        S.names[1] = "mud";
        S.names[2] = "water";
        S.costs[1] = 2.0f;
        S.costs[2] = INFINITY;
        rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
        rect(STEERN_RING_OBSTACLE, 8, 8, 9, 9);
        if (order == 0) {
            rect(1, 0, 0, 6, 10);
            rect(2, 4, 0, 10, 12); // beyond the outline: only the ground inside counts
        } else {
            rect(2, 4, 0, 10, 12);
            rect(1, 0, 0, 6, 10);
        }
        double inner[8] = { 1, 1, 1, 2, 2, 2, 2, 1 }; // clockwise: an area ring of either winding
        ring(2, inner, 4);
        steerN_Mesh *m = build(&err);
        REQUIRE(m, "the build failed");
        check_mesh(m);
        CHECK(m->nareas == 3 && strcmp(m->area_name[1], "mud") == 0 && m->area_cost[2] == INFINITY, "names, costs");
        check_area(m, 0, 0);
        check_area(m, 1, order == 0 ? 40 - 1 : 60 - 1);
        check_area(m, 2, order == 0 ? 60 - 1 + 1 : 40 - 1 + 1);
        // an area border is an edge between triangles, not a wall
        for (uint32_t t = 0; t < m->ntri; t++)
            for (int i = 0; i < 3; i++) {
                const int64_t *a = V(m, m->tri[3 * t + i]), *b = V(m, m->tri[3 * t + (i + 1) % 3]);
                int32_t x = order == 0 ? 6000 : 4000;
                if (a[0] == x && b[0] == x) CHECK(m->adj[3 * t + i] >= 0, "the border at x %d is a wall", x);
            }
        steerN_mesh_release(m);
    }
}

// ---- random input --------------------------------------------------------------

// The union of rectangles r[4 k .. 4 k + 3] (x0, y0, x1, y1 in quanta)
// clipped to [0, w] x [0, h], by inclusion on the compressed grid.
static i128 union_area(const int64_t *r, int n, int64_t w, int64_t h)
{
    int64_t *xs = malloc(sizeof *xs * (2 * n + 2)), *ys = malloc(sizeof *ys * (2 * n + 2));
    int nx = 0, ny = 0;
    xs[nx++] = 0, xs[nx++] = w, ys[ny++] = 0, ys[ny++] = h;
    for (int k = 0; k < n; k++) {
        xs[nx++] = r[4 * k] < 0 ? 0 : r[4 * k] > w ? w : r[4 * k];
        xs[nx++] = r[4 * k + 2] < 0 ? 0 : r[4 * k + 2] > w ? w : r[4 * k + 2];
        ys[ny++] = r[4 * k + 1] < 0 ? 0 : r[4 * k + 1] > h ? h : r[4 * k + 1];
        ys[ny++] = r[4 * k + 3] < 0 ? 0 : r[4 * k + 3] > h ? h : r[4 * k + 3];
    }
    for (int i = 0; i < nx; i++) // insertion sorts: small n
        for (int j = i; j > 0 && xs[j - 1] > xs[j]; j--) xs[j] ^= xs[j - 1], xs[j - 1] ^= xs[j], xs[j] ^= xs[j - 1];
    for (int i = 0; i < ny; i++)
        for (int j = i; j > 0 && ys[j - 1] > ys[j]; j--) ys[j] ^= ys[j - 1], ys[j - 1] ^= ys[j], ys[j] ^= ys[j - 1];
    i128 s = 0;
    for (int i = 0; i + 1 < nx; i++)
        for (int j = 0; j + 1 < ny; j++) {
            int64_t mx = xs[i] + xs[i + 1], my = ys[j] + ys[j + 1]; // twice the cell's centre
            for (int k = 0; k < n; k++)
                if (2 * r[4 * k] < mx && mx < 2 * r[4 * k + 2] && 2 * r[4 * k + 1] < my && my < 2 * r[4 * k + 3]) {
                    s += (i128)(xs[i + 1] - xs[i]) * (ys[j + 1] - ys[j]);
                    break;
                }
        }
    free(xs);
    free(ys);
    return s;
}

static void test_random_rectangles(void)
{
    steerN_MeshError err;
    for (int run = 0; run < 40 && !FAILED(); run++) {
        int n = 1 + (int)(test_rand64() % 40);
        int64_t w = 20000, h = 15000, r[4 * 40];
        spec_reset();
        rect(STEERN_RING_OUTLINE, 0, 0, w / 1000.0, h / 1000.0);
        for (int k = 0; k < n; k++) {
            int64_t grid = run % 2 ? 1000 : 1; // metre-aligned (many shared sides) or any quantum
            int64_t x0 = rand_int(-3, 19) * grid, y0 = rand_int(-3, 14) * grid;
            if (grid == 1) x0 = rand_int(-3000, 19000), y0 = rand_int(-3000, 14000);
            int64_t x1 = x0 + rand_int(1, 5) * (grid == 1 ? rand_int(1, 1000) : grid);
            int64_t y1 = y0 + rand_int(1, 5) * (grid == 1 ? rand_int(1, 1000) : grid);
            r[4 * k] = x0, r[4 * k + 1] = y0, r[4 * k + 2] = x1, r[4 * k + 3] = y1;
            double p[8] = { x0 / 1e3, y0 / 1e3, x1 / 1e3, y0 / 1e3, x1 / 1e3, y1 / 1e3, x0 / 1e3, y1 / 1e3 };
            int start = (int)(test_rand64() % 4);
            double q[8];
            bool cw = test_rand64() & 1;
            for (int i = 0; i < 4; i++) {
                int j = cw ? (start + 4 - i) % 4 : (start + i) % 4;
                q[2 * i] = p[2 * j], q[2 * i + 1] = p[2 * j + 1];
            }
            ring(STEERN_RING_OBSTACLE, q, 4);
        }
        i128 want = 2 * ((i128)w * h - union_area(r, n, w, h));
        steerN_Mesh *m = build(&err);
        if (want == 0) {
            CHECK(!m && err.status == STEERN_MESH_EMPTY, "run %d: all covered: EMPTY", run);
            steerN_mesh_release(m);
            continue;
        }
        REQUIRE(m, "run %d: the build failed", run);
        check_mesh(m);
        CHECK(area2(m, -1) == want, "run %d: area %.6f m^2, expected %.6f", run, (double)area2(m, -1) / 2e6,
              (double)want / 2e6);
        steerN_mesh_release(m);
    }
}

// The winding number of point p (in doubled quanta) around ring k of S.
static int winding_of(uint32_t k, const int64_t p2[2])
{
    uint32_t begin = k ? S.end[k - 1] : 0, n = S.end[k] - begin;
    int w = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = (i + 1) % n;
        int64_t a[2], b[2];
        steerN_mesh_quantize(S.xy[2 * (begin + i)], &a[0]), steerN_mesh_quantize(S.xy[2 * (begin + i) + 1], &a[1]);
        steerN_mesh_quantize(S.xy[2 * (begin + j)], &b[0]), steerN_mesh_quantize(S.xy[2 * (begin + j) + 1], &b[1]);
        a[0] *= 2, a[1] *= 2, b[0] *= 2, b[1] *= 2;
        if (a[1] <= p2[1]) {
            if (b[1] > p2[1] && steerN_orient2d(a, b, p2) > 0) w++;
        } else if (b[1] <= p2[1] && steerN_orient2d(a, b, p2) < 0) w--;
    }
    return w;
}

// The squared distance (quanta^2) from p (doubled quanta) to the nearest input edge.
static double edge_distance2(const int64_t p2[2])
{
    double best = INFINITY, px = p2[0] / 2.0, py = p2[1] / 2.0;
    for (uint32_t k = 0; k < S.nring; k++) {
        uint32_t begin = k ? S.end[k - 1] : 0, n = S.end[k] - begin;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t j = begin + (i + 1) % n;
            double ax = round(S.xy[2 * (begin + i)] * 1e3), ay = round(S.xy[2 * (begin + i) + 1] * 1e3);
            double bx = round(S.xy[2 * j] * 1e3), by = round(S.xy[2 * j + 1] * 1e3);
            double dx = bx - ax, dy = by - ay, l = dx * dx + dy * dy;
            double t = l > 0 ? ((px - ax) * dx + (py - ay) * dy) / l : 0;
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            double ex = ax + t * dx - px, ey = ay + t * dy - py;
            if (ex * ex + ey * ey < best) best = ex * ex + ey * ey;
        }
    }
    return best;
}

static bool mesh_holds(const steerN_Mesh *m, const int64_t p2[2])
{
    for (uint32_t t = 0; t < m->ntri; t++) {
        int64_t v[3][2];
        for (int k = 0; k < 3; k++) v[k][0] = 2 * V(m, m->tri[3 * t + k])[0], v[k][1] = 2 * V(m, m->tri[3 * t + k])[1];
        if (steerN_orient2d(v[0], v[1], p2) >= 0 && steerN_orient2d(v[1], v[2], p2) >= 0 &&
            steerN_orient2d(v[2], v[0], p2) >= 0)
            return true;
    }
    return false;
}

static void random_polygon(int32_t role, int64_t span, int64_t x0, int64_t y0)
{
    uint32_t n = 3 + (uint32_t)(test_rand64() % 7);
    double p[2 * 12];
    for (uint32_t i = 0; i < n; i++) {
        p[2 * i] = (x0 + rand_int(0, span)) / 1e3;
        p[2 * i + 1] = (y0 + rand_int(0, span)) / 1e3;
        if (i && test_rand64() % 8 == 0) p[2 * i] = p[2 * i - 2]; // vertical edges and repeats
        if (i && test_rand64() % 8 == 0) p[2 * i + 1] = p[2 * i - 1];
    }
    ring(role, p, n);
}

static void test_random_polygons(void)
{
    steerN_MeshError err;
    int checked = 0, runs = getenv("MESH_STRESS") ? atoi(getenv("MESH_STRESS")) : 300; // more: a longer hunt
    for (int run = 0; run < runs && !FAILED(); run++) {
        int64_t span = run % 3 == 0 ? 12 : run % 3 == 1 ? 300 : 50000; // tiny: rounding everywhere
        spec_reset();
        int nout = 1 + (int)(test_rand64() % 3), nobs = (int)(test_rand64() % (run % 5 == 4 ? 30 : 6));
        for (int k = 0; k < nout; k++) random_polygon(STEERN_RING_OUTLINE, span, 0, 0);
        for (int k = 0; k < nobs; k++) random_polygon(STEERN_RING_OBSTACLE, span, 0, 0);
        steerN_Mesh *m = build(&err);
        if (!m) {
            CHECK(err.status == STEERN_MESH_EMPTY, "run %d: status %d: %s", run, err.status, err.message);
            continue;
        }
        check_mesh(m);
        for (int s = 0; s < 200 && !FAILED(); s++) {
            int64_t p2[2] = { 2 * rand_int(-1, span + 1) + 1, 2 * rand_int(-1, span + 1) };
            if (edge_distance2(p2) < 1.5 * 1.5) continue;
            int par = 0;
            bool obst = false; // inside an obstacle: its own winding nonzero, whatever the others'
            for (uint32_t k = 0; k < S.nring; k++) {
                int w = winding_of(k, p2);
                if (S.role[k] == STEERN_RING_OUTLINE) par ^= w & 1;
                else obst |= w != 0;
            }
            bool want = par && !obst;
            CHECK(mesh_holds(m, p2) == want, "run %d: point (%.1f, %.1f) quanta: mesh %d, input %d", run, p2[0] / 2.0,
                  p2[1] / 2.0, !want, want);
            checked++;
        }
        steerN_mesh_release(m);
    }
    printf("    %d sample points agreed\n", checked);
}

// Rings in any order, from any point, obstacles either way round: the same bits.
static void test_same_mesh_in_any_order(void)
{
    steerN_MeshError err;
    for (int run = 0; run < 20 && !FAILED(); run++) {
        spec_reset();
        rect(STEERN_RING_OUTLINE, 0, 0, 30, 30);
        for (int k = 0; k < 12; k++) random_polygon(STEERN_RING_OBSTACLE, 8000, rand_int(0, 22000), rand_int(0, 22000));
        random_polygon(STEERN_RING_OUTLINE, 30000, 0, 0);
        steerN_Mesh *m = build(&err);
        REQUIRE(m, "the build failed");
        uint64_t h = m->hash;
        steerN_mesh_release(m);
        // rebuild with the rings shuffled, rotated and obstacles reversed
        static Spec T;
        T = S;
        uint32_t order[16];
        for (uint32_t k = 0; k < T.nring; k++) order[k] = k;
        for (uint32_t k = T.nring - 1; k > 0; k--) {
            uint32_t j = (uint32_t)(test_rand64() % (k + 1)), t = order[k];
            order[k] = order[j], order[j] = t;
        }
        spec_reset();
        for (uint32_t i = 0; i < T.nring; i++) {
            uint32_t k = order[i], begin = k ? T.end[k - 1] : 0, n = T.end[k] - begin;
            uint32_t rot = (uint32_t)(test_rand64() % n);
            bool rev = T.role[k] == STEERN_RING_OBSTACLE && (test_rand64() & 1);
            double p[2 * 12];
            for (uint32_t j = 0; j < n; j++) {
                uint32_t src = begin + (rev ? (rot + n - j) % n : (rot + j) % n);
                p[2 * j] = T.xy[2 * src], p[2 * j + 1] = T.xy[2 * src + 1];
            }
            ring(T.role[k], p, n);
        }
        m = build(&err);
        REQUIRE(m, "the build failed");
        CHECK(m->hash == h, "run %d: another order, another mesh", run);
        steerN_mesh_release(m);
    }
}

// ---- grids ---------------------------------------------------------------------

static void test_from_grid(void)
{
    steerN_MeshError err;
    const char *map[] = { // top row last; # blocked, digits a cost
                          "..........", ".##....#..", ".##...#...", "....3#....",
                          "...33.....", "..#...2.5.", "..#.......", ".........."
    };
    int nx = 10, ny = 8;
    steerN_Grid *g = steerN_grid_new(nx, ny, 1.0, (double[2]){ 0, 0 }, NULL);
    REQUIRE(g, "grid");
    int open = 0, cost3 = 0;
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            char c = map[y][x];
            steerN_set_cost(g, x, y, c == '#' ? INFINITY : c == '.' ? 1.0f : (float)(c - '0'));
            open += c != '#';
            cost3 += c == '3';
        }
    steerN_Mesh *m = steerN_mesh_from_grid(g, NULL, &err);
    REQUIRE(m, "from_grid: %s", err.message);
    check_mesh(m);
    check_area(m, -1, open);
    int a3 = steerN_mesh_area(m, "cost3"), a2 = steerN_mesh_area(m, "cost2"), a5 = steerN_mesh_area(m, "cost5");
    REQUIRE(a3 > 0 && a2 > 0 && a5 > 0 && m->nareas == 4, "areas cost2, cost3, cost5 (%u areas)", m->nareas);
    CHECK(m->area_cost[a3] == 3.0f, "cost3's cost");
    check_area(m, a3, cost3);
    check_area(m, a2, 1);
    check_area(m, 0, open - cost3 - 2);
    // outlines with collinear runs merged: a vertex is a wall's corner or an area rectangle's
    for (uint32_t v = 0; v < m->nvert; v++)
        CHECK(m->ixy[2 * v] % 1000 == 0 && m->ixy[2 * v + 1] % 1000 == 0, "corners");
    CHECK(m->nvert < 50, "%u vertices: runs not merged", m->nvert);
    steerN_mesh_release(m);
    // a fractional cost's name, cells of 0.5 m away from the origin
    steerN_Grid *h = steerN_grid_new(4, 3, 0.5, (double[2]){ -7, 3 }, NULL);
    steerN_set_cost(h, 1, 1, 2.5f);
    steerN_set_cost(h, 2, 1, 2.5f);
    steerN_set_cost(h, 3, 2, INFINITY);
    m = steerN_mesh_from_grid(h, NULL, &err);
    REQUIRE(m, "from_grid: %s", err.message);
    check_mesh(m);
    check_area(m, -1, 11 * 0.25);
    CHECK(steerN_mesh_area(m, "cost2.5") == 1, "area cost2.5");
    check_area(m, 1, 0.5);
    steerN_mesh_release(m);
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 3; y++) steerN_set_cost(h, x, y, INFINITY);
    m = steerN_mesh_from_grid(h, NULL, &err);
    CHECK(!m && err.status == STEERN_MESH_EMPTY, "all blocked: EMPTY");
    steerN_grid_release(h);
    // a checkerboard: every open cell touches others at corners only
    steerN_Grid *c = steerN_grid_new(9, 7, 1.0, (double[2]){ 0, 0 }, NULL);
    int n = 0;
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 9; x++)
            if ((x + y) & 1) steerN_set_cost(c, x, y, INFINITY);
            else n++;
    m = steerN_mesh_from_grid(c, NULL, &err);
    REQUIRE(m, "from_grid: %s", err.message);
    check_mesh(m);
    check_area(m, -1, n);
    steerN_mesh_release(m);
    // 63 costs at most
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 9; x++) steerN_set_cost(c, x, y, 2.0f + (float)(x + 9 * y));
    m = steerN_mesh_from_grid(c, NULL, &err);
    CHECK(m && m->nareas == 64, "63 costs: %s", err.message);
    steerN_mesh_release(m);
    steerN_grid_release(c);
    c = steerN_grid_new(8, 8, 1.0, (double[2]){ 0, 0 }, NULL);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) steerN_set_cost(c, x, y, 2.0f + (float)(x + 8 * y));
    m = steerN_mesh_from_grid(c, NULL, &err);
    CHECK(!m && err.status == STEERN_MESH_BADAREA && strstr(err.message, "64 distinct"), "64 costs: %s", err.message);
    steerN_grid_release(c);
    steerN_grid_release(g);
}

// ---- errors --------------------------------------------------------------------

static void test_bad_input(void)
{
    steerN_MeshError err;
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    double bad[] = { 1, 1, 2, 1, NAN, 2 };
    ring(STEERN_RING_OBSTACLE, bad, 3);
    steerN_Mesh *m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_BADPOINT && err.ring == 1 && err.point == 2, "NaN: %d ring %u point %u",
          err.status, err.ring, err.point);
    CHECK(strstr(err.message, "ring 1 point 2") != NULL, "the message names them: %s", err.message);
    S.xy[2 * 6] = 1e12;
    m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_BADPOINT && err.ring == 1 && err.point == 2, "huge");
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    double two[] = { 1, 1, 2, 2 };
    ring(STEERN_RING_OUTLINE, two, 2);
    m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_BADRING && err.ring == 1, "a 2-point ring: %s", err.message);
    spec_reset();
    rect(5, 0, 0, 10, 10);
    m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_BADRING && err.ring == 0, "an area beyond nareas: %s", err.message);
    spec_reset();
    S.nareas = 2;
    S.names[1] = "a name far longer than thirty-one bytes";
    S.costs[1] = 1;
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_BADAREA && err.ring == 1, "a long name: %s", err.message);
    S.names[1] = "ok";
    S.costs[1] = NAN;
    m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_BADAREA, "a NaN cost: %s", err.message);
    S.costs[1] = 0;
    m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_BADAREA, "a zero cost");
    spec_reset();
    m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_EMPTY, "no rings: EMPTY");
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    rect(STEERN_RING_OBSTACLE, -1, -1, 11, 11);
    m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_EMPTY && strlen(err.message) > 0, "covered: EMPTY");
    spec_reset();
    rect(STEERN_RING_OBSTACLE, 0, 0, 10, 10);
    m = build(&err);
    CHECK(!m && err.status == STEERN_MESH_EMPTY, "obstacles alone: EMPTY");
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    m = build(&err);
    CHECK(m && err.status == STEERN_MESH_OK && err.message[0] == 0, "OK clears the error");
    steerN_mesh_release(m);
}

// ---- memory --------------------------------------------------------------------

typedef struct Tracked {
    long live, calls, fail_at, bad_sizes;
} Tracked;

// Blocks carry their size in front, so a free with the wrong old size shows.
static void *tracked(void *ud, void *p, size_t osize, size_t nsize)
{
    Tracked *t = ud;
    size_t *h = p ? (size_t *)p - 2 : NULL;
    if (h && h[0] != osize) t->bad_sizes++, getenv("ABORT_BAD") ? abort() : (void)0;
    if (nsize == 0) {
        if (h) t->live--;
        free(h);
        return NULL;
    }
    if (++t->calls == t->fail_at) return NULL;
    size_t *q = realloc(h, nsize + 2 * sizeof *q);
    if (!q) return NULL;
    if (!h) t->live++;
    q[0] = nsize;
    return q + 2;
}

static void test_out_of_memory(void)
{
    spec_reset();
    S.nareas = 2;
    S.names[1] = "mud";
    S.costs[1] = 3;
    rect(STEERN_RING_OUTLINE, 0, 0, 10, 10);
    rect(STEERN_RING_OBSTACLE, 2, 2, 5, 5);
    star(STEERN_RING_OBSTACLE, 6, 6, 2, NULL);
    rect(1, 1, 1, 9, 3);
    steerN_MeshSpec sp = spec_of();
    Tracked t = { 0 };
    steerN_Alloc a = { tracked, &t };
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_build(&sp, &a, &err);
    REQUIRE(m, "the build failed: %s", err.message);
    uint64_t h = m->hash;
    steerN_mesh_release(m);
    CHECK(t.live == 0 && t.bad_sizes == 0, "%ld blocks left, %ld frees with a wrong size", t.live, t.bad_sizes);
    long calls = t.calls;
    for (long k = 1; k <= calls && !FAILED(); k++) {
        t = (Tracked){ .fail_at = k };
        m = steerN_mesh_build(&sp, &a, &err);
        if (m) {
            CHECK(m->hash == h, "call %ld failing: another mesh", k);
            steerN_mesh_release(m);
        } else CHECK(err.status == STEERN_MESH_NOMEM, "call %ld failing: status %d", k, err.status);
        CHECK(t.live == 0 && t.bad_sizes == 0, "call %ld failing: %ld blocks left, %ld bad sizes", k, t.live,
              t.bad_sizes);
    }
    steerN_Grid *g = steerN_grid_new(6, 5, 1.0, (double[2]){ 0, 0 }, NULL);
    steerN_set_cost(g, 2, 2, INFINITY);
    steerN_set_cost(g, 3, 3, 4.0f);
    t = (Tracked){ 0 };
    m = steerN_mesh_from_grid(g, &a, &err);
    REQUIRE(m, "from_grid failed: %s", err.message);
    steerN_mesh_release(m);
    calls = t.calls;
    for (long k = 1; k <= calls && !FAILED(); k++) {
        t = (Tracked){ .fail_at = k };
        m = steerN_mesh_from_grid(g, &a, &err);
        if (m) steerN_mesh_release(m);
        else CHECK(err.status == STEERN_MESH_NOMEM, "grid, call %ld failing: status %d", k, err.status);
        CHECK(t.live == 0 && t.bad_sizes == 0, "grid, call %ld failing: %ld blocks left", k, t.live);
    }
    steerN_grid_release(g);
}

// ---- a level -------------------------------------------------------------------

// 200 m x 200 m with 2,000 random boxes (0.5 to 4 m, any angle): timed.
// MESH_LEVEL_BOXES=n: n boxes on a level grown to keep their density.
static void test_level_timing(void)
{
    int n = getenv("MESH_LEVEL_BOXES") ? atoi(getenv("MESH_LEVEL_BOXES")) : 2000;
    if (n < 1 || n > 7000) n = 2000; // the spec's capacity
    double side = 200 * sqrt(n / 2000.0);
    spec_reset();
    rect(STEERN_RING_OUTLINE, 0, 0, side, side);
    for (int k = 0; k < n; k++) {
        double cx = rand_int(0, (int64_t)(side * 1e3)) / 1e3, cy = rand_int(0, (int64_t)(side * 1e3)) / 1e3;
        double w = rand_int(500, 4000) / 2e3, h = rand_int(500, 4000) / 2e3, a = rand_int(0, 6283) / 1e3;
        double c = cos(a), s = sin(a), p[8];
        const double corner[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
        for (int i = 0; i < 4; i++) {
            p[2 * i] = cx + c * corner[i][0] * w - s * corner[i][1] * h;
            p[2 * i + 1] = cy + s * corner[i][0] * w + c * corner[i][1] * h;
        }
        ring(STEERN_RING_OBSTACLE, p, 4);
    }
    steerN_MeshError err;
    clock_t t0 = clock();
    steerN_Mesh *m = build(&err);
    double ms = 1e3 * (double)(clock() - t0) / CLOCKS_PER_SEC;
    REQUIRE(m, "the build failed");
    printf("    %.0f m x %.0f m, %d boxes: %u vertices, %u triangles, %.1f ms\n", side, side, n, m->nvert, m->ntri, ms);
    check_mesh(m);
    steerN_mesh_release(m);
}

int main(void)
{
    RUN(test_square_with_a_hole);
    RUN(test_overlapping_and_touching_obstacles);
    RUN(test_obstacle_crossing_the_outline);
    RUN(test_collinear_and_duplicate_points);
    RUN(test_slivers);
    RUN(test_self_crossing_star);
    RUN(test_areas_later_wins);
    RUN(test_random_rectangles);
    RUN(test_random_polygons);
    RUN(test_same_mesh_in_any_order);
    RUN(test_from_grid);
    RUN(test_bad_input);
    RUN(test_out_of_memory);
    RUN(test_level_timing);
    return check_report_("mesh_build");
}
