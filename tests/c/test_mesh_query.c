// SPDX-License-Identifier: MIT
// test_mesh_query.c — the queries on a navigation mesh (src/nav/mesh_query.c,
// src/nav/mesh_path.c), each with the agent's radius.
//
// The meshes are made here, not by the builder: rings of walls (and area
// borders, which are constrained edges but no walls) are triangulated by
// steerN_cdt_build, the triangles inside the walls (even-odd, by their
// centroids) kept, neighbours across walls cut. On those real
// polygon-with-holes meshes (two rooms joined by a 2 m gap, a U, a
// pillar, a spiral, random boxes) the tests check what a user cares
// about, against brute force or the definition rather than the code: a
// path of radius r keeps r from every wall edge along every segment and
// never crosses one; a 3.2 m agent is turned away by a 2 m gap (NARROW)
// where a 1.8 m one passes; radius 0 gives the true shortest path in
// hand-checked layouts and the classic simple stupid funnel's points; an
// area of cost 10 is avoided when a detour is cheaper; exclusions block;
// sliced searches equal whole ones; random points are uniform; raycast
// and move_along; the same query gives the same bits. Path queries per
// second on a 200 m level with 500 boxes are printed (not asserted).
#include "check.h"
#include "core/os.h"
#include "nav/cdt.h"
#include "nav/mesh.h"
#include "nav/mesh_geom.h"
#include "nav/mesh_link.h"
#include "nav/mesh_path.h" // the search's state: what a search expanded
#include "../fuzz/navmesh_rings.h"

#include <string.h>

// ---- making meshes ---------------------------------------------------------

#define MAXP 8192
typedef struct Shape {
    int64_t xy[2 * MAXP];
    uint32_t n;
    uint32_t seg[2 * MAXP];
    bool wall[MAXP]; // per segment
    uint32_t m;
    // areas: boxes, later ones winning
    double abox[8][4];
    int aarea[8];
    int nabox;
} Shape;

static uint32_t add_point(Shape *s, double x, double y)
{
    int64_t ix = llround(x * STEERN_MESH_SCALE), iy = llround(y * STEERN_MESH_SCALE);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->xy[2 * i] == ix && s->xy[2 * i + 1] == iy) return i;
    s->xy[2 * s->n] = ix, s->xy[2 * s->n + 1] = iy;
    return s->n++;
}

static void add_seg(Shape *s, uint32_t a, uint32_t b, bool wall)
{
    s->seg[2 * s->m] = a, s->seg[2 * s->m + 1] = b;
    s->wall[s->m++] = wall;
}

// A closed ring of walls (either winding).
static void ring(Shape *s, const double *p, uint32_t k)
{
    uint32_t first = add_point(s, p[0], p[1]), prev = first;
    for (uint32_t i = 1; i < k; i++) {
        uint32_t v = add_point(s, p[2 * i], p[2 * i + 1]);
        add_seg(s, prev, v, true);
        prev = v;
    }
    add_seg(s, prev, first, true);
}

static void box(Shape *s, double x0, double y0, double x1, double y1)
{
    double p[] = { x0, y0, x1, y0, x1, y1, x0, y1 };
    ring(s, p, 4);
}

// An open polyline of area borders (no walls).
static void border(Shape *s, const double *p, uint32_t k)
{
    for (uint32_t i = 0; i + 1 < k; i++)
        add_seg(s, add_point(s, p[2 * i], p[2 * i + 1]), add_point(s, p[2 * i + 2], p[2 * i + 3]), false);
}

static bool inside_walls(const Shape *s, double x, double y)
{
    bool in = false;
    for (uint32_t j = 0; j < s->m; j++) {
        if (!s->wall[j]) continue;
        double ax = s->xy[2 * s->seg[2 * j]] / STEERN_MESH_SCALE, ay = s->xy[2 * s->seg[2 * j] + 1] / STEERN_MESH_SCALE;
        double bx = s->xy[2 * s->seg[2 * j + 1]] / STEERN_MESH_SCALE;
        double by = s->xy[2 * s->seg[2 * j + 1] + 1] / STEERN_MESH_SCALE;
        if ((ay > y) != (by > y) && x < ax + (y - ay) * (bx - ax) / (by - ay)) in = !in;
    }
    return in;
}

static steerN_Mesh *make(const Shape *s)
{
    steerN_Cdt c;
    if (steerN_cdt_build(&c, s->xy, s->n, s->seg, s->m, NULL)) {
        printf("    cdt: %s\n", c.message);
        return NULL;
    }
    int32_t *map = malloc(sizeof *map * (c.ntri + 1));
    uint32_t nt = 0;
    for (uint32_t t = 0; t < c.ntri; t++) {
        const int64_t *a = s->xy + 2 * c.tri[3 * t], *b = s->xy + 2 * c.tri[3 * t + 1],
                      *d = s->xy + 2 * c.tri[3 * t + 2];
        double cx = (a[0] + b[0] + d[0]) / (3 * STEERN_MESH_SCALE), cy = (a[1] + b[1] + d[1]) / (3 * STEERN_MESH_SCALE);
        map[t] = inside_walls(s, cx, cy) ? (int32_t)nt++ : -1;
    }
    steerN_Mesh *m = steerN_mesh_alloc(s->n, nt, NULL);
    memcpy(m->ixy, s->xy, sizeof *s->xy * 2 * s->n);
    steerN_mesh_set_metres(m);
    for (uint32_t t = 0; t < c.ntri; t++) {
        if (map[t] < 0) continue;
        uint32_t u = (uint32_t)map[t];
        const int64_t *a = s->xy + 2 * c.tri[3 * t], *b = s->xy + 2 * c.tri[3 * t + 1],
                      *d = s->xy + 2 * c.tri[3 * t + 2];
        double cx = (a[0] + b[0] + d[0]) / (3 * STEERN_MESH_SCALE), cy = (a[1] + b[1] + d[1]) / (3 * STEERN_MESH_SCALE);
        for (int i = 0; i < 3; i++) {
            m->tri[3 * u + i] = c.tri[3 * t + i];
            int32_t w = c.adj[3 * t + i];
            m->adj[3 * u + i] = w < 0 ? -1 : map[w];
            if (m->adj[3 * u + i] < 0) m->vwall[c.tri[3 * t + i]] = m->vwall[c.tri[3 * t + (i + 1) % 3]] = 1;
        }
        for (int k = 0; k < s->nabox; k++)
            if (cx > s->abox[k][0] && cx < s->abox[k][2] && cy > s->abox[k][1] && cy < s->abox[k][3])
                m->area[u] = (uint8_t)s->aarea[k];
    }
    free(map);
    steerN_cdt_free(&c);
    if (steerN_mesh_prepare(m)) {
        steerN_mesh_free(m);
        return NULL;
    }
    return m;
}

// Two rooms of 10 x 10 m joined by a gap `gap` wide in a 1 m wall at x 10.
static steerN_Mesh *rooms(double gap)
{
    static Shape s;
    memset(&s, 0, sizeof s);
    double lo = 5 - gap / 2, hi = 5 + gap / 2;
    double p[] = {
        0, 0, 9.5, 0, 9.5, lo, 10.5, lo, 10.5, 0, 20, 0, 20, 10, 10.5, 10, 10.5, hi, 9.5, hi, 9.5, 10, 0, 10
    };
    ring(&s, p, 12);
    return make(&s);
}

// A 10 x 10 room with a 2 x 2 pillar in the middle.
static steerN_Mesh *pillar(void)
{
    static Shape s;
    memset(&s, 0, sizeof s);
    box(&s, 0, 0, 10, 10);
    box(&s, 4, 4, 6, 6);
    return make(&s);
}

// A U: two 2 m arms (x 0..2 and 8..10) up to y 10, joined below y 2.
static steerN_Mesh *u_shape(void)
{
    static Shape s;
    memset(&s, 0, sizeof s);
    double p[] = { 0, 0, 10, 0, 10, 10, 8, 10, 8, 2, 2, 2, 2, 10, 0, 10 };
    ring(&s, p, 8);
    return make(&s);
}

// A 200 x 200 m level with n random boxes of 1 to 5 m, 1 m apart at least.
static steerN_Mesh *boxes(int n, double size)
{
    static Shape s;
    memset(&s, 0, sizeof s);
    box(&s, 0, 0, size, size);
    double b[1024][4];
    int k = 0;
    for (int tries = 0; k < n && tries < 100000; tries++) {
        double w = test_uniform(1, 5), h = test_uniform(1, 5);
        double x = test_uniform(1, size - 1 - w), y = test_uniform(1, size - 1 - h);
        x = floor(x * 10) / 10, y = floor(y * 10) / 10, w = floor(w * 10) / 10, h = floor(h * 10) / 10;
        bool ok = true;
        for (int j = 0; j < k && ok; j++)
            ok = x + w + 1 < b[j][0] || b[j][2] + 1 < x || y + h + 1 < b[j][1] || b[j][3] + 1 < y;
        if (!ok) continue;
        b[k][0] = x, b[k][1] = y, b[k][2] = x + w, b[k][3] = y + h;
        box(&s, x, y, x + w, y + h);
        k++;
    }
    return make(&s);
}

// ---- checking paths --------------------------------------------------------

static double seg_point(const double p[2], const double a[2], const double b[2])
{
    double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
    double u = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double ex = p[0] - a[0] - u * dx, ey = p[1] - a[1] - u * dy;
    return sqrt(ex * ex + ey * ey);
}

static double orient(const double a[2], const double b[2], const double c[2])
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

// The distance between segments a-b and c-d (0 when they cross).
static double seg_seg(const double a[2], const double b[2], const double c[2], const double d[2])
{
    double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return 0;
    double x = seg_point(a, c, d), y = seg_point(b, c, d), z = seg_point(c, a, b), w = seg_point(d, a, b);
    x = x < y ? x : y, z = z < w ? z : w;
    return x < z ? x : z;
}

static bool proper_cross(const double a[2], const double b[2], const double c[2], const double d[2])
{
    double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

// The least distance from the path to any wall edge (brute force), and
// whether a segment properly crosses a wall.
static double path_clearance(const steerN_Mesh *m, const double *pts, uint32_t n, bool *crosses)
{
    double best = INFINITY;
    *crosses = false;
    for (uint32_t t = 0; t < m->ntri; t++)
        for (int i = 0; i < 3; i++) {
            if (m->adj[3 * t + i] >= 0) continue;
            const double *a = m->xy + 2 * m->tri[3 * t + i], *b = m->xy + 2 * m->tri[3 * t + (i + 1) % 3];
            for (uint32_t k = 0; k + 1 < n; k++) {
                double d = seg_seg(pts + 2 * k, pts + 2 * k + 2, a, b);
                best = d < best ? d : best;
                if (proper_cross(pts + 2 * k, pts + 2 * k + 2, a, b)) *crosses = true;
            }
        }
    return best;
}

static steerN_PathStatus path(steerN_MeshQuery *q, const steerN_Mesh *m, double x0, double y0, double x1, double y1,
                              double r, const float *cost)
{
    double a[2] = { x0, y0 }, b[2] = { x1, y1 };
    steerN_MeshFilter f = { .radius = r, .cost = cost };
    return steerN_mesh_path(q, m, a, b, &f);
}

// ---- tests -----------------------------------------------------------------

static void test_gap(void)
{
    steerN_Mesh *m = rooms(2);
    REQUIRE(m, "mesh");
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    CHECK(path(q, m, 3, 5, 17, 5, 1.6, NULL) == STEERN_PATH_NARROW, "a 3.2 m agent and a 2 m gap: NARROW");
    CHECK(path(q, m, 3, 5, 17, 5, 1.01, NULL) == STEERN_PATH_NARROW, "2.02 m: NARROW");
    // a gap exactly as wide as the agent passes (its corners' circles touch)
    double radii[] = { 0, 0.5, 0.9, 0.99, 1 };
    for (int k = 0; k < 5; k++) {
        double r = radii[k];
        REQUIRE(path(q, m, 3, 2, 17, 8, r, NULL) == STEERN_PATH_FOUND, "radius %g passes", r);
        uint32_t n;
        const double *p = steerN_mesh_path_points(q, &n);
        bool crosses;
        double cl = path_clearance(m, p, n, &crosses);
        CHECK(!crosses, "radius %g: the path crosses a wall", r);
        CHECK(cl >= r - 1e-6, "radius %g: clearance %.9f", r, cl);
        CHECK(p[0] == 3 && p[1] == 2 && p[2 * n - 2] == 17 && p[2 * n - 1] == 8, "from start to goal");
        for (uint32_t i = 0; i < n; i++) CHECK(steerN_mesh_locate(m, p + 2 * i) >= 0, "point %u off the mesh", i);
    }
    // steeply through the gap: for r 0 the path touches its two corners
    REQUIRE(path(q, m, 8, 0.5, 12, 9.5, 0, NULL) == STEERN_PATH_FOUND, "r 0");
    uint32_t n;
    const double *p = steerN_mesh_path_points(q, &n);
    CHECK(n == 4 && p[2] == 9.5 && p[3] == 4 && p[4] == 10.5 && p[5] == 6, "r 0: via (9.5, 4) and (10.5, 6), %u pts",
          n);
    steerN_mesh_query_free(q);
    steerN_mesh_free(m);
}

static void test_start_goal_off(void)
{
    steerN_Mesh *m = pillar();
    REQUIRE(m, "mesh");
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    uint32_t n;
    CHECK(path(q, m, -5, 5, 9, 5, 0.3, NULL) == STEERN_PATH_START_OFF, "start outside");
    CHECK(path(q, m, 1, 5, 5, 5, 0.3, NULL) == STEERN_PATH_GOAL_OFF, "goal in the pillar");
    CHECK(path(q, m, 1, 5, 5, 5.9, 0.05, NULL) == STEERN_PATH_GOAL_OFF, "goal in the pillar, 0.1 in, radius 0.05");
    REQUIRE(path(q, m, 1, 5, 5, 5.9, 0.3, NULL) == STEERN_PATH_FOUND, "goal 0.1 in the pillar, radius 0.3: snapped on");
    const double *g = steerN_mesh_path_points(q, &n);
    CHECK(g[2 * n - 2] == 5 && g[2 * n - 1] == 6, "the goal on the pillar's side (%g, %g)", g[2 * n - 2], g[2 * n - 1]);
    CHECK(path(q, m, -0.2, 5, 9, 5, 0.3, NULL) == STEERN_PATH_FOUND, "start 0.2 off, radius 0.3: snapped on");
    const double *p = steerN_mesh_path_points(q, &n);
    CHECK(n >= 2 && p[0] == 0 && p[1] == 5, "snapped to the wall (%g, %g)", p[0], p[1]);
    CHECK(path(q, m, 0.05, 0.05, 9.95, 9.95, 0.5, NULL) == STEERN_PATH_FOUND, "start and goal within r of walls: fine");
    // standing on a wall's corner (the pillar's, the room's): the path
    // leaves from there, round nothing it already stands inside
    double ends[][4] = { { 4, 4, 1, 1 }, { 6, 6, 9, 9 }, { 0, 10, 3, 3 }, { 3, 3, 10, 0 }, { 6, 4, 9, 1 } };
    for (int i = 0; i < 5; i++) {
        REQUIRE(path(q, m, ends[i][0], ends[i][1], ends[i][2], ends[i][3], 0.3, NULL) == STEERN_PATH_FOUND,
                "on a corner");
        const double *c = steerN_mesh_path_points(q, &n);
        bool crosses;
        path_clearance(m, c, n, &crosses);
        CHECK(!crosses && n == 2, "from (%g, %g): %u points, crosses %d", ends[i][0], ends[i][1], n, crosses);
    }
    double nan[2] = { NAN, 1 }, to[2] = { 9, 9 };
    CHECK(steerN_mesh_path(q, m, nan, to, NULL) == STEERN_PATH_START_OFF, "NaN start");
    steerN_mesh_query_free(q);
    steerN_mesh_free(m);
}

static void test_shortest_radius_0(void)
{
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    // the pillar: over or under its corners, sqrt 10 + 2 + sqrt 10
    steerN_Mesh *m = pillar();
    REQUIRE(m, "pillar");
    REQUIRE(path(q, m, 1, 5, 9, 5, 0, NULL) == STEERN_PATH_FOUND, "pillar path");
    double want = 2 * sqrt(10) + 2;
    CHECK(fabs(steerN_mesh_path_length(q) - want) < 1e-9, "pillar length %.12f, want %.12f", steerN_mesh_path_length(q),
          want);
    uint32_t n;
    const double *p = steerN_mesh_path_points(q, &n);
    CHECK(n == 4 && p[2] == 4 && p[4] == 6 && (p[3] == 6 || p[3] == 4) && p[5] == p[3], "via two corners");
    // radius 0.5: tangents, two arcs of 27.5 degrees and the 2 m side
    REQUIRE(path(q, m, 1, 5, 9, 5, 0.5, NULL) == STEERN_PATH_FOUND, "pillar r 0.5");
    double tan_len = sqrt(10 - 0.25), arc = atan2(1, 3) + asin(0.5 / sqrt(10));
    double exact = 2 * (tan_len + 0.5 * arc) + 2;
    CHECK(steerN_mesh_path_length(q) >= exact - 1e-9 && steerN_mesh_path_length(q) < exact + 0.005,
          "pillar r 0.5: length %.6f, round corners %.6f", steerN_mesh_path_length(q), exact);
    steerN_mesh_free(m);
    // the U: from the top of one arm to the top of the other, round the
    // two inner corners (2, 2) and (8, 2)
    m = u_shape();
    REQUIRE(m, "U");
    REQUIRE(path(q, m, 1, 9, 9, 9, 0, NULL) == STEERN_PATH_FOUND, "U path");
    want = 2 * sqrt(1 + 49) + 6;
    CHECK(fabs(steerN_mesh_path_length(q) - want) < 1e-9, "U length %.12f, want %.12f", steerN_mesh_path_length(q),
          want);
    REQUIRE(path(q, m, 1, 9, 9, 9, 0.5, NULL) == STEERN_PATH_FOUND, "U path r 0.5");
    p = steerN_mesh_path_points(q, &n);
    bool crosses;
    CHECK(path_clearance(m, p, n, &crosses) >= 0.5 - 1e-6 && !crosses, "U r 0.5 clearance");
    CHECK(path(q, m, 1, 9, 9, 9, 1.01, NULL) == STEERN_PATH_NARROW, "U's 2 m arms: NARROW for r 1.01");
    steerN_mesh_free(m);
    steerN_mesh_query_free(q);
}

// The classic simple stupid funnel (Mononen) over point portals.
static uint32_t ssf(const double *lr, uint32_t np, double *out)
{
    const double *apex = lr, *left = lr, *right = lr + 2;
    uint32_t ai = 0, li = 0, ri = 0, n = 0;
#define EQ(a, b) ((a)[0] == (b)[0] && (a)[1] == (b)[1])
#define ADD(p) \
    if (!n || !EQ(out + 2 * n - 2, p)) out[2 * n] = (p)[0], out[2 * n + 1] = (p)[1], n++
    ADD(apex);
    for (uint32_t i = 1; i < np; i++) {
        const double *l = lr + 4 * i, *r = lr + 4 * i + 2;
        if (orient(apex, right, r) >= 0) {
            if (EQ(apex, right) || orient(apex, left, r) < 0) {
                right = r, ri = i;
            } else {
                apex = left, ai = li;
                ADD(apex);
                left = right = apex, li = ri = ai, i = ai;
                continue;
            }
        }
        if (orient(apex, left, l) <= 0) {
            if (EQ(apex, left) || orient(apex, right, l) > 0) {
                left = l, li = i;
            } else {
                apex = right, ai = ri;
                ADD(apex);
                left = right = apex, li = ri = ai, i = ai;
                continue;
            }
        }
    }
    ADD(lr + 4 * (np - 1));
    return n;
#undef ADD
#undef EQ
}

// The path for radius 0 from a to b on m against the classic funnel over
// its corridor (the same points, bit for bit); no wall crossed, never
// shorter than the straight line. False when no path was found.
static bool check_classic(steerN_MeshQuery *q, const steerN_Mesh *m, const double a[2], const double b[2], double *lr,
                          double *out, const char *what, int k)
{
    if (path(q, m, a[0], a[1], b[0], b[1], 0, NULL) != STEERN_PATH_FOUND) return false;
    uint32_t nc, n;
    const int32_t *c = steerN_mesh_path_corridor(q, &nc);
    const double *p = steerN_mesh_path_points(q, &n);
    lr[0] = lr[2] = a[0], lr[1] = lr[3] = a[1];
    for (uint32_t i = 0; i + 1 < nc; i++) {
        int e = -1;
        for (int j = 0; j < 3; j++)
            if (m->adj[3 * c[i] + j] == c[i + 1]) e = j;
        CHECK(e >= 0, "corridor %u: %d and %d are no neighbours", i, c[i], c[i + 1]);
        if (e < 0) return true;
        memcpy(lr + 4 * (i + 1), m->xy + 2 * m->tri[3 * c[i] + (e + 1) % 3], 2 * sizeof *lr);
        memcpy(lr + 4 * (i + 1) + 2, m->xy + 2 * m->tri[3 * c[i] + e], 2 * sizeof *lr);
    }
    lr[4 * nc] = lr[4 * nc + 2] = b[0], lr[4 * nc + 1] = lr[4 * nc + 3] = b[1];
    uint32_t k2 = ssf(lr, nc + 1, out);
    CHECK(k2 == n && memcmp(out, p, sizeof *p * 2 * n) == 0, "%s %d: %u points, the classic funnel %u", what, k, n, k2);
    bool crosses;
    path_clearance(m, p, n, &crosses);
    CHECK(!crosses, "%s %d crosses a wall", what, k);
    CHECK(steerN_mesh_path_length(q) >= sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1])) - 1e-9,
          "%s %d: shorter than the straight line", what, k);
    return true;
}

// A point of the mesh for the ends below: a vertex, a point on an edge
// (its middle or anywhere along it: on the portal's line, where the
// funnel's two sides start opposite each other) or inside a triangle.
static void some_point(const steerN_Mesh *m, int kind, double out[2])
{
    uint32_t t = (uint32_t)test_uniform(0, m->ntri - 0.5);
    int i = (int)test_uniform(0, 2.99);
    const double *a = m->xy + 2 * m->tri[3 * t + i], *b = m->xy + 2 * m->tri[3 * t + (i + 1) % 3];
    double u = kind == 0 ? 0 : kind == 1 ? 0.5 : test_uniform(0, 1);
    out[0] = a[0] + u * (b[0] - a[0]), out[1] = a[1] + u * (b[1] - a[1]);
    if (kind == 3) steerN_mesh_random_point(m, test_uniform(0, 1), test_uniform(0, 1), test_uniform(0, 1), out);
}

static void test_radius_0_is_the_classic_funnel(void)
{
    test_rng_state_ = 7;
    steerN_Mesh *m = boxes(150, 100);
    REQUIRE(m, "mesh");
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    double *lr = malloc(sizeof *lr * 4 * (m->ntri + 2)), *out = malloc(sizeof *out * 2 * (m->ntri + 2));
    int found = 0;
    for (int k = 0; k < 200 && !FAILED(); k++) {
        double a[2] = { test_uniform(0, 100), test_uniform(0, 100) },
               b[2] = { test_uniform(0, 100), test_uniform(0, 100) };
        found += check_classic(q, m, a, b, lr, out, "query", k);
    }
    CHECK(found > 100, "%d paths found", found);
    // ends on the mesh's vertices and edges: a start on a vertex of the
    // corridor's portals is the apex and that side at once (the classic
    // funnel compares points), one on a portal's line sees its two sides
    // point opposite ways (and only rounding tell them crossed)
    found = 0;
    for (int k = 0; k < 400 && !FAILED(); k++) {
        double a[2], b[2];
        some_point(m, k % 4, a);
        some_point(m, (k / 4) % 4, b);
        found += check_classic(q, m, a, b, lr, out, "ends on vertices and edges", k);
    }
    CHECK(found > 300, "%d paths found", found);
    free(lr), free(out);
    steerN_mesh_query_free(q);
    steerN_mesh_free(m);
}

// fuzz_navmesh's find (tests/fuzz/corpus/navmesh/start-on-a-portal-vertex):
// from a wall vertex at the foot of an area border (-2.5, -25) to the
// vertex where a hole and two obstacles meet (0, 0). The start's triangle
// (the lowest holding it) lies in the fan round that vertex away from the
// goal, so the corridor's first portals all end at the start's own point:
// the funnel took that side for a bound pointing nowhere, crossed it and
// turned at the outline's far corner (-25, 25), off the mesh round its
// circle for r 0.3 (a path of 91 m for a straight 25 m).
static void test_start_on_a_portal_vertex(void)
{
    const double xy[] = { -25,  -25, 25,   -25, 25,    25,   -25,   25, -2.5,  -25,  2.5,   -25, 2.5, 25,  -2.5,
                          25,   7.5, 7.5,  7.5, 7.5,   12.5, 7.5,   0,  0,     0,    0,     0,   10,  7.5, 1.25,
                          4.75, 6.5, 8.25, 10,  11.75, 13.5, 15.25, 17, 18.75, 20.5, 22.25, 0,   0,   0 };
    const uint32_t end[] = { 4, 8, 12, 15, 22 };
    const int32_t role[] = { STEERN_RING_OUTLINE, 1, STEERN_RING_OBSTACLE, STEERN_RING_OUTLINE, STEERN_RING_OBSTACLE };
    const char *names[] = { "default", "mud" };
    const float costs[] = { 1, 3 };
    steerN_MeshSpec spec = { xy, end, role, 5, 2, names, costs };
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
    REQUIRE(m && steerN_mesh_prepare(m) == 0, "the level: %s", err.message);
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    for (int ri = 0; ri < 2; ri++) {
        double r = ri ? 0.3 : 0;
        REQUIRE(path(q, m, -2.5, -25, 0, 0, r, NULL) == STEERN_PATH_FOUND, "r %g: found", r);
        uint32_t n;
        const double *p = steerN_mesh_path_points(q, &n);
        double len = steerN_mesh_path_length(q), straight = sqrt(2.5 * 2.5 + 25 * 25);
        CHECK(n == 2 && fabs(len - straight) < 1e-12, "r %g: %u points, %.6f m for a straight %.6f m", r, n, len,
              straight);
        for (uint32_t i = 0; i < n; i++)
            CHECK(steerN_mesh_locate(m, p + 2 * i) >= 0, "r %g: point %u (%g, %g) off the mesh", r, i, p[2 * i],
                  p[2 * i + 1]);
    }
    // to where it stands (fuzz_navmesh's start-is-the-goal: one point,
    // the two merged): the start and the goal all the same, length 0
    double at[][2] = { { -25, 25 }, { -2.5, -25 }, { -10, 3 } };
    for (int i = 0; i < 3; i++) {
        REQUIRE(path(q, m, at[i][0], at[i][1], at[i][0], at[i][1], 0.3, NULL) == STEERN_PATH_FOUND, "found");
        uint32_t n;
        const double *p = steerN_mesh_path_points(q, &n);
        CHECK(n == 2 && p[0] == at[i][0] && p[1] == at[i][1] && p[2] == at[i][0] && p[3] == at[i][1] &&
                  steerN_mesh_path_length(q) == 0,
              "(%g, %g) to itself: %u points", at[i][0], at[i][1], n);
    }
    steerN_mesh_query_free(q);
    steerN_mesh_free(m);
}

// Every point of a path on the mesh (or on its edge) and no segment
// through a wall (a raycast along it hits nothing before its end).
static bool on_the_mesh(const steerN_Mesh *m, const double *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (steerN_mesh_locate(m, p + 2 * i) < 0 && !(steerN_mesh_wall_distance(m, p + 2 * i, NULL, NULL) <= 1e-9))
            return false;
    for (uint32_t i = 0; i + 1 < n; i++) {
        double fr = 1;
        if (steerN_mesh_raycast(m, p + 2 * i, p + 2 * i + 2, NULL, NULL, NULL, &fr) == 1 && fr < 1 - 1e-9) return false;
    }
    return true;
}

// Levels of random rings (fuzz_navmesh and a stress run of 2,000 lattice
// levels), radius 0.3, one query each:
//   0  (fuzz) the funnel let its left side go for a goal short of that
//      side's tangent point, but the side had been tightened from an
//      earlier corner, forgotten: the path went 1.8 m through a hole's
//      corner (earlier_block() in mesh_path.c);
//   1  start on a wall vertex, goal in its triangle: the repair went
//      round a wall vertex on the side it lay, off the mesh (now every
//      path is checked, and one that leaves the mesh is the funnel over
//      portals kept r from their wall ends, else the classic one);
//   2  an area's corner 0.03 m from a wall, its corner taken as wide
//      open: the path turned at it (now its width is twice its distance
//      to the walls, so the search goes round);
//   3  the goal on an area's corner, the corridor round it by another
//      area corner 0.28 m from a wall: the path turned at that corner
//      (an area corner nearer a wall than r is now a corner to keep r
//      from, a circle like a wall's).
static void test_ring_levels(void)
{
    static const double xy0[] = { -25,    -25,   25,     -25,   25,   25,    -25,   25,    -0.5,  -25,
                                  2.5,    -25,   2.5,    25,    -2.5, 25,    -5.75, -7.75, -7.75, -7.75,
                                  -12.75, -7.75, -10.25, -7.75, 9.75, 10.5,  11.25, 8.25,  10,    11.75,
                                  13.5,   15.25, 17,     18.75, 20.5, 22.25, 0,     0,     0,     0 };
    static const uint32_t end0[] = { 4, 8, 12, 20 };
    static const int32_t role0[] = { STEERN_RING_OUTLINE, 1, STEERN_RING_OBSTACLE, STEERN_RING_OUTLINE };
    static const double xy1[] = { 2,     -2.25, 1,     1.25,  -2.5,  -2.5,  -2.5,  2,     2.5,   1.25,  1,
                                  1.25,  -0.75, -1,    -2.5,  1.5,   1.5,   1.5,   -0.75, -2.5,  2.5,   1.25,
                                  -0.5,  -1.75, 2.5,   1.25,  -1.25, 1.5,   2.25,  0.5,   0,     0.25,  1.75,
                                  -1,    -2,    -0.75, -1.25, -1.5,  2.25,  0.75,  1.25,  -2.25, -1.25, -2.25,
                                  -0.25, 0,     0.25,  -2,    2.5,   -2,    -1.25, -1.5,  2.5,   -0.75, -2,
                                  -0.5,  1.75,  -1,    -1.25, 0.25,  -0.25, 1,     1.25,  -2.25, 2.25,  -0.25 };
    static const uint32_t end1[] = { 3, 6, 14, 18, 27, 33 };
    static const int32_t role1[] = { STEERN_RING_OUTLINE,  STEERN_RING_OBSTACLE, STEERN_RING_OBSTACLE,
                                     STEERN_RING_OBSTACLE, STEERN_RING_OBSTACLE, STEERN_RING_OBSTACLE };
    static const double xy2[] = { -3,    -0.25, -3,    -10.5,  11.75,  -4.25,  -3,    -10.5,  -3,     8,
                                  16.25, -5.5,  11,    -10.5,  11.75,  -4.25,  10.25, -10.75, 13.25,  -4.25,
                                  11.75, 15.5,  11.75, -6.5,   -8,     -11.75, 15.5,  13.25,  11.75,  -7.75,
                                  -1.5,  11.75, 16.25, -5.5,   11.75,  -6.5,   -2.75, 14,     -11.25, 16.25,
                                  10.75, 12,    8.75,  -13.75, -13.75, 12.75,  0.5,   15.5,   -13,    13.75,
                                  11.5,  9,     11.75, 8.25,   4.25,   2.75,   -1.5,  -11.75 };
    static const uint32_t end2[] = { 9, 15, 19, 23, 29 };
    static const int32_t role2[] = { STEERN_RING_OUTLINE, STEERN_RING_OBSTACLE, STEERN_RING_OBSTACLE,
                                     STEERN_RING_OUTLINE, 1 };
    static const double xy3[] = { -4.5, 7.75,  2.5,   -7.75, -4,    5,     2.75,  -7,    2.75, -7,   5,
                                  5.75, -7.75, -7,    -3.25, -0.75, -3,    7.75,  7,     -3,   2.75, 4.75,
                                  -7.5, 8.75,  -2.5,  7.75,  -3,    -2.5,  6,     3.5,   -7.5, 8.75, -9.25,
                                  -2.5, 1.5,   -9,    -5,    -2,    0.25,  3.5,   -9,    8.25, 7.25, 9.25,
                                  -3,   -8.75, 3.5,   6.5,   3.75,  8.75,  -7.75, -7,    -4,   0,    7.75,
                                  -8,   -1,    -0.75, 3,     -7,    -3.25, -6.25, -1.25, 9,    7.75, -1,
                                  8.75, 4,     -8.25, -7,    -2.75, -9.25, 1.25,  -5.5,  3,    -0.75 };
    static const uint32_t end3[] = { 7, 17, 22, 28, 38 };
    static const int32_t role3[] = { STEERN_RING_OUTLINE, 1, STEERN_RING_OUTLINE, 1, STEERN_RING_OUTLINE };
    const struct {
        const double *xy;
        const uint32_t *end;
        const int32_t *role;
        uint32_t nrings;
        double from[2], to[2];
    } lv[] = {
        { xy0, end0, role0, 4, { -4.640625, -17.1875 }, { 17.429448339921173, 23.389961453537914 } },
        { xy1, end1, role1, 6, { 2, -2.25 }, { 0.89447448906164695, -2.2929651333751426 } },
        { xy2,
          end2,
          role2,
          5,
          { 3.2792187296113506, 4.2071231103876325 },
          { -10.219157664921189, 13.555113214698084 } },
        { xy3, end3, role3, 5, { 3.5541834831237793, 6.9876513481140137 }, { 3.5, 6.5 } },
    };
    const char *names[] = { "default", "mud" };
    const float costs[] = { 1, 3 };
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    for (int k = 0; k < 4; k++) {
        steerN_MeshSpec spec = { lv[k].xy, lv[k].end, lv[k].role, lv[k].nrings, 2, names, costs };
        steerN_MeshError err;
        steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
        REQUIRE(m && steerN_mesh_prepare(m) == 0, "level %d: %s", k, err.message);
        double r = 0.3;
        bool clear = steerN_mesh_contains(m, lv[k].from, r) && steerN_mesh_contains(m, lv[k].to, r);
        steerN_PathStatus st = path(q, m, lv[k].from[0], lv[k].from[1], lv[k].to[0], lv[k].to[1], r, NULL);
        CHECK(st == STEERN_PATH_FOUND || (st == STEERN_PATH_NARROW && k == 2), "level %d: status %d", k, st);
        if (st == STEERN_PATH_FOUND) {
            uint32_t n;
            const double *p = steerN_mesh_path_points(q, &n);
            bool crosses;
            double cl = path_clearance(m, p, n, &crosses);
            CHECK(on_the_mesh(m, p, n) && !crosses, "level %d: a path off the mesh or through a wall", k);
            CHECK(!clear || cl >= r - 1e-6, "level %d: ends clear, clearance %.9f", k, cl);
        }
        steerN_mesh_free(m);
    }
    steerN_mesh_query_free(q);
}

// The random levels' worst cases, replayed one by one (each the level of
// its seed in test_clearance_random and the query's own start, goal and
// radius), each once closer to a wall than r:
//   12/218  the funnel turned round a corner and forgot the circle at the
//           other end of that corner's portal (0.816 m for r 0.9);
//   16/110  a portal barely 2 r wide: the polygon about the corner's
//           circle reached into the circle across it (0.898 m for 0.9);
//   24/101, 30/32  a box corner beyond a side edge of the corridor, not
//           in any of its portals (0.093 m for 0.5, 0.226 m for 0.25).
//   22/98   the goal's triangle entered above a 1.6 m gap the path then
//           went down (0.697 m for r 0.9): now refused (see pinched() in
//           mesh_path.c).
static void test_clearance_cases(void)
{
    int cases[][2] = { { 12, 218 }, { 16, 110 }, { 24, 101 }, { 30, 32 }, { 22, 98 } };
    for (int c = 0; c < 5; c++) {
        int seed = cases[c][0], want = cases[c][1];
        test_rng_state_ = (unsigned long long)seed;
        steerN_Mesh *m = boxes(250, 100);
        REQUIRE(m, "mesh");
        double radii[] = { 0.25, 0.5, 0.9, 1.6 }, a[2] = { 0, 0 }, b[2] = { 0, 0 };
        for (int k = 0; k <= want; k++) {
            a[0] = test_uniform(0, 100), a[1] = test_uniform(0, 100);
            b[0] = test_uniform(0, 100), b[1] = test_uniform(0, 100);
        }
        double r = radii[want % 4];
        REQUIRE(steerN_mesh_contains(m, a, r) && steerN_mesh_contains(m, b, r), "seed %d query %d: ends clear", seed,
                want);
        steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
        steerN_PathStatus st = path(q, m, a[0], a[1], b[0], b[1], r, NULL);
        CHECK(st == STEERN_PATH_FOUND || st == STEERN_PATH_NARROW, "seed %d query %d: status %d", seed, want, st);
        if (st == STEERN_PATH_FOUND) {
            uint32_t n;
            const double *p = steerN_mesh_path_points(q, &n);
            bool crosses;
            double cl = path_clearance(m, p, n, &crosses);
            CHECK(!crosses && cl >= r - 1e-6, "seed %d query %d (r %g): clearance %.9f", seed, want, r, cl);
        }
        steerN_mesh_query_free(q);
        steerN_mesh_free(m);
    }
}

// Random box levels: every path found for radius r keeps r from every wall
// along every segment (its ends are r from the walls). Seeds 11 to 14 here;
// STEER_MESH_SEEDS=N runs seeds 11 to 10 + N (20 is a good local run).
static void test_clearance_random(void)
{
    const char *env = getenv("STEER_MESH_SEEDS");
    int nseeds = env ? atoi(env) : 4, bad = 0, total = 0;
    double sum_len = 0;
    for (int seed = 11; seed < 11 + nseeds; seed++) {
        test_rng_state_ = (unsigned long long)seed;
        steerN_Mesh *m = boxes(seed == 11 ? 150 : 250, 100);
        REQUIRE(m, "mesh");
        steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
        double radii[] = { 0.25, 0.5, 0.9, 1.6 };
        int found = 0, narrow = 0;
        for (int k = 0; k < 300; k++) {
            double r = radii[k % 4];
            double a[2] = { test_uniform(0, 100), test_uniform(0, 100) },
                   b[2] = { test_uniform(0, 100), test_uniform(0, 100) };
            if (!steerN_mesh_contains(m, a, r) || !steerN_mesh_contains(m, b, r)) continue;
            steerN_PathStatus st = path(q, m, a[0], a[1], b[0], b[1], r, NULL);
            CHECK(st == STEERN_PATH_FOUND || st == STEERN_PATH_NARROW, "query %d: status %d", k, st);
            if (st == STEERN_PATH_NARROW) {
                narrow++;
                CHECK(path(q, m, a[0], a[1], b[0], b[1], 0, NULL) == STEERN_PATH_FOUND, "NARROW but no way for r 0");
                continue;
            }
            found++;
            uint32_t n;
            const double *p = steerN_mesh_path_points(q, &n);
            bool crosses;
            double cl = path_clearance(m, p, n, &crosses);
            sum_len += steerN_mesh_path_length(q), total++;
            CHECK(!crosses, "seed %d query %d (r %g) crosses a wall", seed, k, r);
            CHECK(cl >= r - 1e-6, "seed %d query %d (r %g): clearance %.9f", seed, k, r, cl);
            bad += !(cl >= r - 1e-6);
            for (uint32_t i = 0; i < n; i++) CHECK(steerN_mesh_locate(m, p + 2 * i) >= 0, "point %u off the mesh", i);
        }
        printf("    seed %d: %d paths found, %d narrow\n", seed, found, narrow);
        CHECK(found > 50, "%d found", found);
        steerN_mesh_query_free(q);
        steerN_mesh_free(m);
    }
    printf("    %d paths, %d closer than r, mean length %.6f m\n", total, bad, total ? sum_len / total : 0);
}

// A brute-force oracle for widths (issue 32 item 3): on small random
// levels, a grid of points whose clearance is at least r + h/2 (so the
// segment between two 4-neighbours keeps r), flooded from the start;
// when the goal is reached the path query must not say NARROW.
static steerN_Mesh *oracle_mesh(int seed)
{
    test_rng_state_ = (unsigned long long)seed;
    double xy[2 * 64];
    uint32_t end[16];
    int32_t role[16];
    uint32_t np = 0, nr = 0;
    double o[] = { 0, 0, 10, 0, 10, 10, 0, 10 };
    for (int i = 0; i < 8; i++) xy[np * 2 + i] = o[i];
    np += 4, end[nr] = np, role[nr++] = STEERN_RING_OUTLINE;
    int nob = 3 + (int)test_uniform(0, 5);
    for (int k = 0; k < nob; k++) {
        double cx = test_uniform(1, 9), cy = test_uniform(1, 9);
        int n = 3 + (int)test_uniform(0, 3);
        bool area = test_uniform(0, 1) < 0.3;
        for (int i = 0; i < n; i++) {
            double a = 6.283185307179586 * (i + test_uniform(0, 0.6)) / n, rr = test_uniform(0.5, 2);
            xy[2 * np] = floor((cx + rr * cos(a)) * 4) / 4, xy[2 * np + 1] = floor((cy + rr * sin(a)) * 4) / 4;
            np++;
        }
        end[nr] = np, role[nr++] = area ? 1 : STEERN_RING_OBSTACLE;
    }
    const char *names[] = { "default", "mud" };
    const float costs[] = { 1, 3 };
    steerN_MeshSpec spec = { xy, end, role, nr, 2, names, costs };
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
    if (m && steerN_mesh_prepare(m)) steerN_mesh_free(m), m = NULL;
    return m;
}

static int oracle_level(int seed, bool verbose, int *squeezed)
{
    steerN_Mesh *m = oracle_mesh(seed);
    if (!m) return 0;
    enum { G = 201 };
    const double h = 10.0 / (G - 1);
    static double cl[G * G];
    static int comp[G * G], stack[G * G];
    for (int j = 0; j < G; j++)
        for (int i = 0; i < G; i++) {
            double p[2] = { i * h, j * h };
            cl[j * G + i] = steerN_mesh_locate(m, p) >= 0 ? steerN_mesh_wall_distance(m, p, NULL, NULL) : -1;
        }
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    double radii[] = { 0.2, 0.3, 0.5, 0.8 };
    int wrong = 0;
    for (int ri = 0; ri < 4; ri++) {
        double r = radii[ri];
        for (int c = 0; c < G * G; c++) comp[c] = -1;
        int ncomp = 0;
        for (int c0 = 0; c0 < G * G; c0++) {
            if (comp[c0] >= 0 || !(cl[c0] >= r + h / 2)) continue;
            int n = 0;
            stack[n++] = c0, comp[c0] = ncomp;
            while (n) {
                int c = stack[--n], i = c % G, j = c / G;
                int nb[4] = { i > 0 ? c - 1 : -1, i < G - 1 ? c + 1 : -1, j > 0 ? c - G : -1, j < G - 1 ? c + G : -1 };
                for (int k = 0; k < 4; k++)
                    if (nb[k] >= 0 && comp[nb[k]] < 0 && cl[nb[k]] >= r + h / 2)
                        comp[nb[k]] = ncomp, stack[n++] = nb[k];
            }
            ncomp++;
        }
        for (int k = 0; k < 40; k++) {
            int a = (int)test_uniform(0, G * G), b = (int)test_uniform(0, G * G);
            if (comp[a] < 0 || comp[a] != comp[b]) continue;
            double pa[2] = { (a % G) * h, (a / G) * h }, pb[2] = { (b % G) * h, (b / G) * h };
            steerN_MeshFilter f = { .radius = r, .cost = NULL };
            steerN_PathStatus st = steerN_mesh_path(q, m, pa, pb, &f);
            if (st == STEERN_PATH_FOUND) {
                uint32_t np;
                const double *pp = steerN_mesh_path_points(q, &np);
                bool crosses;
                double clp = path_clearance(m, pp, np, &crosses);
                if (crosses || !(clp >= r - 1e-6)) {
                    (*squeezed)++;
                    if (verbose)
                        printf("    seed %d r %g: (%g, %g) -> (%g, %g): clearance %.6f\n", seed, r, pa[0], pa[1], pb[0],
                               pb[1], clp);
                }
            }
            if (st != STEERN_PATH_FOUND) {
                wrong++;
                if (verbose)
                    printf("    seed %d r %g: (%g, %g) -> (%g, %g): status %d\n", seed, r, pa[0], pa[1], pb[0], pb[1],
                           st);
            }
        }
    }
    steerN_mesh_query_free(q);
    steerN_mesh_free(m);
    return wrong;
}

// Small random levels (obstacles and areas on a 0.25 m lattice): every
// pair of grid points the oracle connects should get a path, for each
// radius, and every path found keeps r from every wall (brute force).
// Seeds 1 to 40: none refused and none nearer (1 refused and 4 paths 0.5
// to 5 mm inside r before arcs were split toward the walls near them).
// Seeds 1 to 300: no path nearer (27 before) and none refused of ~3,600
// (31 before: gaps exactly 2 r between corners on opposite sides, area
// corners near a wall kept as circles about themselves, corridors the
// widths let through past a room's corner or an area's edge, two circles
// a few centimetres apart on one side wrapped round one another, see
// test_widths_oracle_cases; seed 282's went with the search's crossing
// points toward the goal). Seeds 301 to 600: none nearer, none refused.
// The check prints the cases.
// STEER_MESH_ORACLE=N runs seeds 1 to N (default 40).
static void test_widths_oracle(void)
{
    const char *env = getenv("STEER_MESH_ORACLE");
    int n = env ? atoi(env) : 40, wrong = 0, squeezed = 0;
    for (int seed = 1; seed <= n; seed++) wrong += oracle_level(seed, true, &squeezed);
    printf("    %d paths nearer a wall than r\n", squeezed);
    CHECK(squeezed == 0, "%d paths nearer a wall than r", squeezed);
    printf("    %d queries refused where a way 2 r wide exists (seeds 1 to %d)\n", wrong, n);
    CHECK(env || wrong == 0, "%d refused, none expected", wrong);
}

// The widths oracle's levels (seeds to 300), queries that went wrong, each
// now a path keeping r:
//   31, 69  a corner's arc (the polygon about its circle, up to 2% of r
//           outside it) passed another wall 0.5 to 8 mm nearer than r;
//   111     an area's corner 0.47 m from a wall kept as a circle of r
//           about itself pushed the path into the floor (now the circle
//           about the wall's nearest point);
//   218     two corners on opposite sides exactly 2 r apart: no tangent
//           between touching circles was found (now the one through the
//           point where they touch);
//   95, 134 a corridor the widths let through that is narrower than the
//           agent (a wall vertex 0.25 m from the outline past a room's
//           corner; past an area's corner 0.5 m from the floor): refused
//           by the funnel's check, now searched again without its portal
//           at the pinch;
//   81      a wall's corner (6.75, 6.5) put back before an area's corner
//           whose circle is about the point of that wall 16 cm from it:
//           the path then wrapped the wall's corner round the area's
//           (out of the mesh) and was refused (now the area's corner,
//           turned round the wrong way, is dropped).
// And seeds to 2000:
//   1620    a gap of 1.564 m (wall corner (3.25, 6) to the wall below)
//           with an area's corner (3.5, 5.25) in it: that corner's widths
//           (twice its distance beyond the opposite edge) let r 0.8
//           through, the funnel refused, and the portal banned was the
//           goal's only way in (now the widths at an area's corner see
//           the walls along its edges, and the way round is found).
static void test_widths_oracle_cases(void)
{
    static const struct {
        int seed;
        double r, a[2], b[2];
    } cases[] = {
        { 31, 0.5, { 8.9, 7.3 }, { 4.85, 1.1 } },   { 69, 0.5, { 8.1, 0.85 }, { 1.7, 8.95 } },
        { 111, 0.5, { 3.3, 1.75 }, { 6.65, 0.9 } }, { 218, 0.5, { 3.6, 1.35 }, { 7.15, 7.45 } },
        { 95, 0.2, { 1.9, 9.25 }, { 2.95, 0.3 } },  { 134, 0.5, { 8.45, 0.65 }, { 1.7, 6.3 } },
        { 81, 0.8, { 1.9, 2.85 }, { 7.55, 7.7 } },  { 1620, 0.8, { 2.9, 7.45 }, { 6.05, 1.4 } },
    };
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        steerN_Mesh *m = oracle_mesh(cases[c].seed);
        REQUIRE(m, "seed %d: the level", cases[c].seed);
        double r = cases[c].r;
        steerN_PathStatus st = path(q, m, cases[c].a[0], cases[c].a[1], cases[c].b[0], cases[c].b[1], r, NULL);
        CHECK(st == STEERN_PATH_FOUND, "seed %d (r %g): status %d", cases[c].seed, r, st);
        if (st == STEERN_PATH_FOUND) {
            uint32_t n;
            const double *p = steerN_mesh_path_points(q, &n);
            bool crosses;
            double cl = path_clearance(m, p, n, &crosses);
            CHECK(!crosses && cl >= r - 1e-6, "seed %d (r %g): clearance %.9f", cases[c].seed, r, cl);
        }
        steerN_mesh_free(m);
    }
    steerN_mesh_query_free(q);
}

// A start pressed against a wall (5 cm from a box, nearer than the 0.5 m
// radius) where the search from it finds no way wide enough (a piece of
// steer-bench navmesh's city level, pair 493): steerN_mesh_path goes on from
// the mesh's nearest point where the agent fits, with the start put back in
// front, and from there the way keeps the radius.
static void test_start_pressed_to_a_wall(void)
{
    static const double boxes_[][4] = {
        { 125.766, 88.709, 133.982, 93.870 },   { 114.800, 93.776, 118.133, 97.858 },
        { 119.670, 103.750, 125.737, 111.979 }, { 135.360, 83.573, 144.218, 92.872 },
        { 122.894, 91.081, 126.144, 94.739 },   { 114.178, 95.718, 123.902, 98.062 },
        { 123.369, 100.627, 125.685, 105.234 }, { 126.122, 103.687, 135.496, 113.356 },
        { 128.837, 89.926, 134.128, 97.817 },   { 137.902, 105.805, 140.308, 110.479 },
    };
    // the boxes overlap: the builder's rings, not make()'s segments
    enum { NB = sizeof boxes_ / sizeof boxes_[0] };
    double xy[2 * 4 * (NB + 1)];
    uint32_t end[NB + 1];
    int32_t role[NB + 1];
    for (int k = 0; k <= (int)NB; k++) {
        const double *b = k ? boxes_[k - 1] : (const double[]){ 100, 75, 170, 125 };
        double c[8] = { b[0], b[1], b[2], b[1], b[2], b[3], b[0], b[3] };
        memcpy(xy + 8 * k, c, sizeof c);
        end[k] = 4 * (uint32_t)(k + 1);
        role[k] = k ? STEERN_RING_OBSTACLE : STEERN_RING_OUTLINE;
    }
    const char *names[] = { "default" };
    steerN_MeshSpec spec = {
        .xy = xy, .ring_end = end, .ring_role = role, .nrings = NB + 1, .nareas = 1, .area_names = names
    };
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
    REQUIRE(m && steerN_mesh_prepare(m) == 0, "the level: %s", m ? "prepare" : err.message);
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    double from[2] = { 126.197, 94.576 }, to[2] = { 157.661, 110.287 };
    steerN_MeshFilter f = { .radius = 0.5, .cost = NULL };
    steerN_PathStatus plain = steerN_mesh_path_begin(q, m, from, to, &f);
    if (plain == STEERN_PATH_WORKING) plain = steerN_mesh_path_step(q, UINT32_MAX, NULL);
    CHECK(plain == STEERN_PATH_NARROW, "the search from the start itself: status %d", plain);
    steerN_PathStatus st = steerN_mesh_path(q, m, from, to, &f);
    CHECK(st == STEERN_PATH_FOUND, "a way from where it fits: status %d", st);
    uint32_t n = 0;
    const double *p = st == STEERN_PATH_FOUND ? steerN_mesh_path_points(q, &n) : NULL;
    if (!p) n = 0;
    CHECK(n >= 3 && p[0] == from[0] && p[1] == from[1], "the start first (%u points)", n);
    CHECK(n >= 3 && steerN_mesh_wall_distance(m, p + 2, NULL, NULL) >= 0.5 - 1e-6, "then where the agent fits");
    bool crosses;
    double cl = n >= 3 ? path_clearance(m, p + 2, n - 1, &crosses) : 0;
    CHECK(n >= 3 && !crosses && cl >= 0.5 - 1e-6, "and on with the radius kept: %.4f", cl);
    CHECK(n >= 2 && p[2 * n - 2] == to[0] && p[2 * n - 1] == to[1], "to the goal");
    steerN_mesh_query_free(q);
    steerN_mesh_free(m);
}

static void test_area_costs(void)
{
    static Shape s;
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    for (int full = 0; full < 2; full++) {
        memset(&s, 0, sizeof s);
        box(&s, 0, 0, 30, 10);
        double top = full ? 10 : 6;
        double b[] = { 12, 0, 12, top, 18, top, 18, 0 };
        border(&s, b, 4);
        s.abox[0][0] = 12, s.abox[0][1] = 0, s.abox[0][2] = 18, s.abox[0][3] = top;
        s.aarea[0] = 1;
        s.nabox = 1;
        steerN_Mesh *m = make(&s);
        REQUIRE(m, "mesh");
        m->nareas = 2;
        m->area_cost[1] = 10;
        REQUIRE(path(q, m, 2, 3, 28, 3, 0, NULL) == STEERN_PATH_FOUND, "found");
        double len = steerN_mesh_path_length(q);
        uint32_t n;
        const double *p = steerN_mesh_path_points(q, &n);
        if (!full) {
            // round the mud: over (12, 6) and (18, 6)
            double want = 2 * sqrt(100 + 9) + 6;
            CHECK(fabs(len - want) < 1e-9, "detour length %.9f, want %.9f", len, want);
            CHECK(n == 4 && p[2] == 12 && p[3] == 6 && p[4] == 18 && p[5] == 6, "over the area's corners");
            // and with the area at cost 1 (the filter's), straight through
            float cheap[2] = { 1, 1 };
            REQUIRE(path(q, m, 2, 3, 28, 3, 0, cheap) == STEERN_PATH_FOUND, "cost 1");
            CHECK(steerN_mesh_path_length(q) == 26, "straight: %.9f", steerN_mesh_path_length(q));
            // excluded: round it too, keeping the radius from walls (not from the area)
            float no[2] = { 1, INFINITY };
            REQUIRE(path(q, m, 2, 3, 28, 3, 0.5, no) == STEERN_PATH_FOUND, "excluded, way round");
            p = steerN_mesh_path_points(q, &n);
            for (uint32_t i = 0; i < n; i++) CHECK(!(p[2 * i] > 12 && p[2 * i] < 18 && p[2 * i + 1] < 6), "in it");
        } else {
            // no way round: crossed, straight
            CHECK(len == 26 && n == 2, "crossed straight: %.9f, %u points", len, n);
            float no[2] = { 1, INFINITY };
            CHECK(path(q, m, 2, 3, 28, 3, 0, no) == STEERN_PATH_NONE, "excluded across: NONE");
            CHECK(path(q, m, 2, 3, 28, 3, 0.5, no) == STEERN_PATH_NONE, "NONE for r 0.5 too, not NARROW");
            CHECK(path(q, m, 2, 3, 15, 3, 0, no) == STEERN_PATH_GOAL_OFF, "goal in an excluded area");
        }
        steerN_mesh_free(m);
    }
    steerN_mesh_query_free(q);
}

// A level of n x n 2 m boxes on a grid, 6 m apart (240 x 240 m for 38),
// and in its far corner a 10 x 10 m room (x and y L - 21 to L - 11, L
// the level's size) whose one door is `door` wide (0: none); with `wall`,
// a wall 1 m thick up 9 / 10 of the level from 0.3 m off its bottom
// (narrower than any agent) at x = 6 n / 2 + 9 (between two columns of
// boxes); with `cup`, a cup open to the west 7 m west of the room (a dead
// end 5 x 6 m inside).
static steerN_Mesh *pocket_level_of(double door, int n, bool wall, bool cup)
{
    static Shape s;
    memset(&s, 0, sizeof s);
    double l = 6 * n + 12, c = l - 16; // the room's centre
    box(&s, 0, 0, l, l);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i < n - 4 || j < n - 4) box(&s, 5 + 6 * i, 5 + 6 * j, 7 + 6 * i, 7 + 6 * j);
    if (wall) box(&s, 3 * n + 8.5, 0.3, 3 * n + 9.5, 0.9 * l);
    if (cup) {
        box(&s, c - 16, c - 4, c - 10, c - 3);
        box(&s, c - 16, c + 3, c - 10, c + 4);
        box(&s, c - 11, c - 3, c - 10, c + 3);
    }
    box(&s, c - 6, c - 6, c + 6, c - 5);
    box(&s, c - 6, c + 5, c + 6, c + 6);
    box(&s, c - 6, c - 5, c - 5, c + 5);
    if (door > 0) {
        box(&s, c + 5, c - 5, c + 6, c - door / 2);
        box(&s, c + 5, c + door / 2, c + 6, c + 5);
    } else {
        box(&s, c + 5, c - 5, c + 6, c + 5);
    }
    return make(&s);
}
static steerN_Mesh *pocket_level(double door) { return pocket_level_of(door, 38, false, false); }

// A goal shut in where the radius does not pass (a room behind a door
// too narrow, or no door at all) is told apart without the search going
// through the whole of the start's side first: the flood from the goal's
// side finds it shut once the search has gone on a while. The answers
// are those of the whole search (NARROW, NONE), sliced or not.
static void test_goal_shut_in(void)
{
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL), *q2 = steerN_mesh_query_new(NULL);
    for (int k = 0; k < 2 && !FAILED(); k++) {
        steerN_Mesh *m = pocket_level(k == 0 ? 0.6 : 0);
        REQUIRE(m, "mesh");
        steerN_PathStatus want = k == 0 ? STEERN_PATH_NARROW : STEERN_PATH_NONE;
        double a[2] = { 2, 2 }, b[2] = { 224, 224 };
        for (int r = 0; r < 2; r++) {
            steerN_MeshFilter f = { .radius = r ? 0.5 : 0, .cost = NULL };
            steerN_PathStatus st = steerN_mesh_path(q, m, a, b, &f), st2 = steerN_mesh_path_begin(q2, m, a, b, &f);
            steerN_PathStatus expect = r == 0 && k == 0 ? STEERN_PATH_FOUND : want;
            uint32_t work = steerN_mesh_path_work(q), used;
            CHECK(st == expect, "door %d, radius %d: status %d, not %d", k == 0, r, st, expect);
            if (st != STEERN_PATH_FOUND)
                CHECK(work < m->ntri / 4, "door %d, radius %d: %u triangles expanded of %u", k == 0, r, work, m->ntri);
            while (st2 == STEERN_PATH_WORKING) st2 = steerN_mesh_path_step(q2, 7, &used);
            CHECK(st2 == st, "sliced: %d", st2);
        }
        steerN_mesh_free(m);
    }
    steerN_mesh_query_free(q);
    steerN_mesh_query_free(q2);
}

// A path over many links obeys a work cap (navigate's path budget,
// steerN_mesh_query_link_cap): 40 islands 4 m wide in a row, each joined
// to the next by a two-way link (78 ways), the goal on the last. Uncapped,
// the way takes all 39 links. Capped at a quarter of that work, the
// search stops near the cap with a partial way (whole, over the links it
// reached, ending at the far end of the one nearest the goal); planning on
// from each partial way's end, as navigate does, reaches the goal, every
// search within twice the cap (the way is made again). A cap above the search's work
// changes nothing, bit for bit.
static void test_link_search_capped(void)
{
    enum { N = 40 };
    static Shape s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < N; i++) box(&s, 5 * i, 0, 5 * i + 4, 4);
    steerN_Mesh *m = make(&s);
    REQUIRE(m, "mesh");
    for (int i = 0; i + 1 < N; i++) {
        steerN_Link l = {
            .a = { 5 * i + 3.5, 2, 0 }, .b = { 5 * i + 5.5, 2, 0 }, .cost = 1, .bidirectional = true, .enabled = true
        };
        REQUIRE(steerN_link_add(m, &l, NULL) == STEERN_LINK_OK, "link %d", i);
    }
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL), *c = steerN_mesh_query_new(NULL);
    REQUIRE(q && c, "queries");
    steerN_mesh_query_keep_reach(q, false);
    steerN_mesh_query_keep_reach(c, false);
    double from[2] = { 1, 2 }, to[2] = { 5 * (N - 1) + 2, 2 };
    REQUIRE(steerN_mesh_path(q, m, from, to, NULL) == STEERN_PATH_FOUND, "uncapped: a way");
    uint32_t full = steerN_mesh_path_work(q), n, nl, crossed = 0;
    const double *p = steerN_mesh_path_points(q, &n);
    const int32_t *pl = steerN_mesh_path_links(q, &nl);
    for (uint32_t i = 0; pl && i < nl; i++) crossed += pl[i] >= 0;
    CHECK(crossed == N - 1, "uncapped: %u links taken", crossed);
    // a cap above the work: the same way
    steerN_mesh_query_link_cap(c, full + 1);
    uint32_t n2;
    CHECK(steerN_mesh_path(c, m, from, to, NULL) == STEERN_PATH_FOUND, "a cap above its work: found");
    const double *p2 = steerN_mesh_path_points(c, &n2);
    CHECK(n2 == n && memcmp(p, p2, sizeof *p * 2 * n) == 0, "a cap above its work: the same points");
    // a quarter of it: partial ways, planned on from each end
    uint32_t cap = full / 4, most = 0, plans = 0;
    steerN_mesh_query_link_cap(c, cap);
    double at[2] = { from[0], from[1] }, last = INFINITY;
    for (; plans < N && !FAILED(); plans++) {
        steerN_PathStatus st = steerN_mesh_path(c, m, at, to, NULL);
        CHECK(st == STEERN_PATH_FOUND, "capped search %u from (%g, %g): status %d", plans, at[0], at[1], st);
        uint32_t k, work = steerN_mesh_path_work(c);
        const double *pp = steerN_mesh_path_points(c, &k);
        if (work > most) most = work;
        double d = mg_dist(pp + 2 * (k - 1), to);
        CHECK(d < last, "search %u ends nearer the goal (%g m, then %g)", plans, last, d);
        CHECK(steerN_mesh_path_partial(c) == (d > 0), "search %u: partial %d, %g m short", plans,
              steerN_mesh_path_partial(c), d);
        last = d;
        if (d == 0) break;
        at[0] = pp[2 * (k - 1)], at[1] = pp[2 * (k - 1) + 1];
    }
    printf("    %d islands: %u work uncapped; capped at %u: %u plans, each at most %u work\n", N, full, cap, plans + 1,
           most);
    CHECK(last == 0, "the goal reached after %u plans", plans + 1);
    // (the way found is made again, stretch by stretch: at most the cap's work once more)
    CHECK(plans >= 1 && most <= 2 * cap, "each capped search within twice the cap (%u, cap %u)", most, cap);
    steerN_mesh_query_free(q);
    steerN_mesh_query_free(c);
    steerN_mesh_free(m);
}

// Once a long search has worked out where the search for its radius can
// go (mesh_reach.c), the same query object tells a goal shut in a pocket
// by flooding the pocket alone, and a long search that reaches its goal
// (round a wall, from one side of it to the other) floods nothing (its
// work is the nodes it expanded). Another radius is not taken for the
// same: the same answers as a query object new each time.
static void test_reach_known(void)
{
    steerN_Mesh *m = pocket_level_of(0.6, 22, true, false);
    REQUIRE(m, "mesh");
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    double l = 6 * 22 + 12, a[2] = { 72, 2 }, in[2] = { l - 16, l - 16 }, far[2] = { 78, 2 };
    steerN_MeshFilter f = { .radius = 0.5, .cost = NULL }, thin = { .radius = 0.25 };
    CHECK(steerN_mesh_path(q, m, a, in, &f) == STEERN_PATH_NARROW, "the first: NARROW");
    uint32_t first = steerN_mesh_path_work(q);
    for (int k = 0; k < 2 && !FAILED(); k++) {
        CHECK(steerN_mesh_path(q, m, a, in, &f) == STEERN_PATH_NARROW, "again: NARROW");
        CHECK(steerN_mesh_path_work(q) < 100, "again: %u triangles (the first: %u)", steerN_mesh_path_work(q), first);
        CHECK(steerN_mesh_path(q, m, a, far, &f) == STEERN_PATH_FOUND, "round the wall: FOUND");
        CHECK(q->expanded >= 2048 && steerN_mesh_path_work(q) == q->expanded,
              "round the wall: %u expanded, %u work (no flood)", q->expanded, steerN_mesh_path_work(q));
        steerN_MeshQuery *fresh = steerN_mesh_query_new(NULL);
        REQUIRE(fresh, "query");
        for (int j = 0; j < 2; j++) {
            const double *to = j ? far : in;
            steerN_PathStatus st = steerN_mesh_path(q, m, a, to, &thin), st2 = steerN_mesh_path(fresh, m, a, to, &thin);
            uint32_t n, n2;
            const double *p = steerN_mesh_path_points(q, &n), *p2 = steerN_mesh_path_points(fresh, &n2);
            CHECK(st == STEERN_PATH_FOUND && st2 == st, "radius 0.25 through the door %d: %d, new query %d", j, st,
                  st2);
            CHECK(n == n2 && memcmp(p, p2, sizeof *p * 2 * n) == 0, "radius 0.25, %d: the same path", j);
        }
        steerN_mesh_query_free(fresh);
    }
    steerN_mesh_query_free(q);
    steerN_mesh_free(m);
}

// Once known where the search can go (mesh_reach.c), a search does not go
// into dead ends: fewer triangles expanded, the same path, bit for bit.
// From the room's door to behind it (the room a dead end: its goal in the
// largest group), and from the west into the room (the goal in a dead end
// itself, the cup on the way to it another).
static void test_dead_ends(void)
{
    steerN_Mesh *m = pocket_level_of(2, 22, true, true);
    REQUIRE(m, "mesh");
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL), *fresh = steerN_mesh_query_new(NULL);
    REQUIRE(q && fresh, "queries");
    double c = 6 * 22 - 4, a[2] = { 72, 2 }, b[2] = { 78, 2 };
    double from[2][2] = { { c + 8, c }, { 99, c } }, to[2][2] = { { c - 9, c + 8 }, { c, c } };
    steerN_MeshFilter f = { .radius = 0.5, .cost = NULL };
    CHECK(steerN_mesh_path(q, m, a, b, &f) == STEERN_PATH_FOUND, "round the wall: FOUND (and where to go known)");
    for (int k = 0; k < 2; k++) {
        CHECK(steerN_mesh_path(fresh, m, from[k], to[k], &f) == STEERN_PATH_FOUND, "%d: FOUND", k);
        CHECK(steerN_mesh_path(q, m, from[k], to[k], &f) == STEERN_PATH_FOUND, "%d, known: FOUND", k);
        CHECK(q->expanded < fresh->expanded, "%d: %u triangles expanded, %u without knowing", k, q->expanded,
              fresh->expanded);
        uint32_t n, n2;
        const double *p = steerN_mesh_path_points(q, &n), *p2 = steerN_mesh_path_points(fresh, &n2);
        CHECK(n == n2 && memcmp(p, p2, sizeof *p * 2 * n) == 0, "%d: the same path (%u points, %u)", k, n, n2);
    }
    steerN_mesh_query_free(q);
    steerN_mesh_query_free(fresh);
    steerN_mesh_free(m);
}

static void test_sliced_and_deterministic(void)
{
    test_rng_state_ = 5;
    steerN_Mesh *m = boxes(150, 100);
    REQUIRE(m, "mesh");
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL), *q2 = steerN_mesh_query_new(NULL);
    for (int k = 0; k < 40 && !FAILED(); k++) {
        double a[2] = { test_uniform(0, 100), test_uniform(0, 100) },
               b[2] = { test_uniform(0, 100), test_uniform(0, 100) };
        steerN_MeshFilter f = { .radius = k % 2 ? 0.5 : 0, .cost = NULL };
        steerN_PathStatus st = steerN_mesh_path(q, m, a, b, &f);
        steerN_PathStatus s2 = steerN_mesh_path_begin(q2, m, a, b, &f);
        uint32_t steps = 0, used, total = 0;
        while (s2 == STEERN_PATH_WORKING && steps < 100000) {
            s2 = steerN_mesh_path_step(q2, 1, &used);
            CHECK(used <= 1, "budget 1, used %u", used);
            total += used, steps++;
        }
        CHECK(s2 == st, "query %d: sliced %d, whole %d", k, s2, st);
        uint32_t n, n2;
        const double *p = steerN_mesh_path_points(q, &n), *p2 = steerN_mesh_path_points(q2, &n2);
        CHECK(n == n2 && (n == 0 || memcmp(p, p2, sizeof *p * 2 * n) == 0), "query %d: the same points", k);
        // the same query again, the same bits
        double keep[4096];
        uint32_t nk = n < 2048 ? n : 2048;
        memcpy(keep, p, sizeof *p * 2 * nk);
        double len = steerN_mesh_path_length(q);
        steerN_mesh_path(q, m, a, b, &f);
        p = steerN_mesh_path_points(q, &n);
        CHECK(n == nk && memcmp(keep, p, sizeof *p * 2 * nk) == 0 && len == steerN_mesh_path_length(q), "again");
    }
    steerN_mesh_query_free(q);
    steerN_mesh_query_free(q2);
    steerN_mesh_free(m);
}

static void test_locate_and_walls(void)
{
    test_rng_state_ = 3;
    steerN_Mesh *m = boxes(60, 50);
    REQUIRE(m, "mesh");
    for (int k = 0; k < 3000 && !FAILED(); k++) {
        double p[2] = { test_uniform(-2, 52), test_uniform(-2, 52) };
        if (k % 10 == 0) memcpy(p, m->xy + 2 * (k % m->nvert), sizeof p); // vertices too
        int32_t want = -1;
        for (uint32_t t = 0; t < m->ntri && want < 0; t++) {
            const double *a = m->xy + 2 * m->tri[3 * t], *b = m->xy + 2 * m->tri[3 * t + 1],
                         *c = m->xy + 2 * m->tri[3 * t + 2];
            if (orient(a, b, p) >= 0 && orient(b, c, p) >= 0 && orient(c, a, p) >= 0) want = (int32_t)t;
        }
        CHECK(steerN_mesh_locate(m, p) == want, "locate (%g, %g): %d, want %d", p[0], p[1], steerN_mesh_locate(m, p),
              want);
        double best = INFINITY;
        for (uint32_t t = 0; t < m->ntri; t++)
            for (int i = 0; i < 3; i++)
                if (m->adj[3 * t + i] < 0) {
                    double d = seg_point(p, m->xy + 2 * m->tri[3 * t + i], m->xy + 2 * m->tri[3 * t + (i + 1) % 3]);
                    best = d < best ? d : best;
                }
        double at[2], nrm[2];
        double d = steerN_mesh_wall_distance(m, p, at, nrm);
        CHECK(fabs(d - best) < 1e-12, "wall distance %.15f, brute force %.15f", d, best);
        CHECK(fabs(sqrt((p[0] - at[0]) * (p[0] - at[0]) + (p[1] - at[1]) * (p[1] - at[1])) - d) < 1e-12, "at");
        CHECK(fabs(nrm[0] * nrm[0] + nrm[1] * nrm[1] - 1) < 1e-9, "unit normal");
        // the normal points into the mesh: a step along it from the wall point is on the mesh
        double in[2] = { at[0] + nrm[0] * 1e-4, at[1] + nrm[1] * 1e-4 };
        CHECK(steerN_mesh_locate(m, in) >= 0, "normal points out at (%g, %g)", p[0], p[1]);
        CHECK(steerN_mesh_contains(m, p, 0.5) == (want >= 0 && d >= 0.5), "contains");
        // nearest: on the mesh, with room for the radius when there is
        double out[2], dist;
        int32_t tri;
        REQUIRE(steerN_mesh_nearest(m, p, 0, out, &tri, &dist), "nearest");
        CHECK(tri >= 0 && steerN_mesh_locate(m, out) >= 0, "nearest on the mesh");
        CHECK(want >= 0 ? dist == 0 : fabs(dist - d) < 1e-6, "nearest distance %g, wall %g", dist, d);
        REQUIRE(steerN_mesh_nearest(m, p, 0.4, out, &tri, &dist), "nearest r");
        CHECK(steerN_mesh_contains(m, out, 0.4 - 1e-9), "nearest r 0.4: (%g, %g) from (%g, %g) has no room", out[0],
              out[1], p[0], p[1]);
    }
    steerN_mesh_free(m);
}

static void test_random_points(void)
{
    steerN_Mesh *m = rooms(2);
    REQUIRE(m, "mesh");
    int left = 0, n = 20000;
    test_rng_state_ = 9;
    for (int k = 0; k < n; k++) {
        double p[2];
        steerN_mesh_random_point(m, test_uniform(0, 1), test_uniform(0, 1), test_uniform(0, 1), p);
        CHECK(steerN_mesh_locate(m, p) >= 0, "(%g, %g) off the mesh", p[0], p[1]);
        left += p[0] < 10;
    }
    // the two rooms are mirror images: half and half
    double e = n / 2.0, chi = 2 * (left - e) * (left - e) / e;
    CHECK(chi < 10.83, "chi-square %.2f (left %d of %d)", chi, left, n);
    // and by quarter of height in the left room (10 m by 10 m, uniform)
    int band[4] = { 0 }, nb = 0;
    for (int k = 0; k < n; k++) {
        double p[2];
        steerN_mesh_random_point(m, test_uniform(0, 1), test_uniform(0, 1), test_uniform(0, 1), p);
        if (p[0] < 9.5) band[(int)(p[1] / 2.5)]++, nb++;
    }
    double c2 = 0;
    for (int i = 0; i < 4; i++) c2 += (band[i] - nb / 4.0) * (band[i] - nb / 4.0) / (nb / 4.0);
    CHECK(c2 < 16.27, "bands chi-square %.2f", c2);
    double p[2];
    steerN_mesh_random_point(m, 0.9999999999, 0.9999999, 0.5, p);
    CHECK(steerN_mesh_locate(m, p) >= 0, "u near 1");
    steerN_mesh_free(m);
}

static void test_raycast(void)
{
    steerN_Mesh *m = rooms(2);
    REQUIRE(m, "mesh");
    double a[2] = { 5, 5 }, b[2] = { 15, 2 }, hit[2], nrm[2], f;
    CHECK(steerN_mesh_raycast(m, a, b, NULL, hit, nrm, &f) == 1, "hits the middle wall");
    CHECK(fabs(hit[0] - 9.5) < 1e-12 && fabs(hit[1] - 3.65) < 1e-12, "at (%.15g, %.15g)", hit[0], hit[1]);
    CHECK(nrm[0] == -1 && nrm[1] == 0, "normal (%g, %g)", nrm[0], nrm[1]);
    CHECK(fabs(f - 0.45) < 1e-12, "fraction %.15g", f);
    double c[2] = { 15, 5 };
    CHECK(steerN_mesh_raycast(m, a, c, NULL, hit, nrm, &f) == 0, "through the gap: clear");
    double d[2] = { 5, 12 };
    CHECK(steerN_mesh_raycast(m, a, d, NULL, hit, nrm, &f) == 1 && fabs(f - 5 / 7.0) < 1e-12 && nrm[1] == -1,
          "the top wall at %g", f);
    double off[2] = { -1, 5 };
    CHECK(steerN_mesh_raycast(m, off, a, NULL, hit, nrm, &f) == -1, "from off the mesh");
    steerN_mesh_free(m);
    // along the walls, from their vertices (a path's corners): clear, the
    // ray starting in the triangle it goes into, not in the lowest one
    // holding its start (a probe a hair along the ray could land beyond
    // the wall by rounding and leave it there)
    // (a star and triangles across it, built: walls at every angle)
    test_rng_state_ = 5;
    double xy[2 * (64 + 3 * 12)];
    uint32_t end[13];
    int32_t role[13];
    for (int i = 0; i < 64; i++) {
        double a = 6.283185307179586 * i / 64, rr = test_uniform(20, 40);
        xy[2 * i] = rr * cos(a), xy[2 * i + 1] = rr * sin(a);
    }
    end[0] = 64, role[0] = STEERN_RING_OUTLINE;
    for (int i = 0; i < 12; i++) {
        double x = test_uniform(-15, 15), y = test_uniform(-15, 15);
        for (int j = 0; j < 3; j++)
            xy[2 * (64 + 3 * i + j)] = x + test_uniform(-4, 4), xy[2 * (64 + 3 * i + j) + 1] = y + test_uniform(-4, 4);
        end[i + 1] = 64 + 3 * (i + 1), role[i + 1] = STEERN_RING_OBSTACLE;
    }
    steerN_MeshSpec spec = { .xy = xy, .ring_end = end, .ring_role = role, .nrings = 13, .nareas = 1 };
    steerN_MeshError err;
    m = steerN_mesh_build(&spec, NULL, &err);
    REQUIRE(m && steerN_mesh_prepare(m) == 0, "mesh: %s", err.message);
    int walls = 0, blocked = 0;
    for (uint32_t k = 0; k < 3 * m->ntri; k++) {
        if (m->adj[k] >= 0) continue;
        const double *u = m->xy + 2 * m->tri[k], *v = m->xy + 2 * m->tri[3 * (k / 3) + (k % 3 + 1) % 3];
        double mid[2] = { (u[0] + v[0]) / 2, (u[1] + v[1]) / 2 };
        walls++;
        // (a hit at the very end, within rounding, is the end: as fuzz_navmesh)
        blocked += steerN_mesh_raycast(m, u, v, NULL, hit, nrm, &f) != 0 && f < 1 - 1e-9;
        blocked += steerN_mesh_raycast(m, v, u, NULL, hit, nrm, &f) != 0 && f < 1 - 1e-9;
        blocked += steerN_mesh_raycast(m, v, mid, NULL, hit, nrm, &f) != 0 && f < 1 - 1e-9;
    }
    CHECK(walls > 80 && blocked == 0, "%d of %d rays along the walls blocked", blocked, 3 * walls);
    steerN_mesh_free(m);
}

// A level as fuzz_navmesh writes it from bytes (after its first byte;
// tests/fuzz/navmesh_rings.h), built and prepared.
static steerN_Mesh *fuzz_level(const uint8_t *data, size_t size)
{
    NavmeshRings rings;
    steerN_MeshSpec spec = navmesh_rings(&rings, data, size);
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
    if (m && steerN_mesh_prepare(m)) steerN_mesh_free(m), m = NULL;
    return m;
}

// fuzz_navmesh's findings on radius-0.3 paths whose ends are 0.3 m from
// the walls, each replayed (its level and its queries' points, as the
// target draws them) and checked by brute force, each once closer to a
// wall than 0.3 m (the least clearance of its queries' paths then):
//   0: a corner on a straight wall (a vertex where another ring crossed
//      it) turned round the wrong way: the polygon about its circle dipped
//      into the wall's strip (0.267 m);
//   1: the goal short of a spike's tip, across the spike: the funnel
//      forgot the tip, the circles repair put back left the mesh, and the
//      fallback's points cut the corner (0.134 m);
//   2: a path through an area's corner 0.335 m from a wall's corner, which
//      it had to wrap on both sides of that point (0.294 m);
//   3: the same as 1 round other spikes (0.165 m);
//   4: a start 5 mm from a wall in a nook the mesh joins the rest at one
//      point (two walls' corners meeting): no way wide enough from there,
//      so the way from the nearest point where the agent fits, found in
//      steps past that point, with the start put in front: the straight
//      step back missed the point by 4 mm, through the walls (any radius;
//      then refused: NARROW);
//   5: a squeeze 0.684 m wide between two obstacles' ends, entered along
//      a wall at a slant: neither the rounded funnel nor the classic
//      funnel's corners as circles, repaired, keep 0.3 m there (0.244 m):
//      now refused as NARROW rather than a path nearer the wall than r;
//   6: a gap 0.559 m wide between two walls' vertices, on either side of
//      an area's diagonal edge (neither triangle's width sees both): the
//      tangent from the start to the far corner's circle passed the near
//      one at 0.259 m for 0.3; a wall nearer than 2 r in front of a
//      corner now sends the path to the whole check.
static void test_clearance_fuzz_cases(void)
{
    static const uint8_t c0[] = { 0x01, 0x9c, 0x9c, 0x64, 0x9c, 0x64, 0x64, 0x9c, 0x64, 0x19, 0xfe, 0x9c,
                                  0x0a, 0x9c, 0x0a, 0x64, 0xf6, 0x64, 0x09, 0xe9, 0xe1, 0xe1, 0xe1, 0x00,
                                  0x00, 0x00, 0x3b, 0x3b, 0x3b, 0xc5, 0xc4, 0xc4, 0xf5, 0x00, 0x00, 0x00,
                                  0x01, 0x21, 0x28, 0x2f, 0x36, 0x3d, 0x44, 0x4b, 0x52, 0x59 };
    static const uint8_t c1[] = { 0x01, 0x9c, 0x9c, 0x64, 0x9c, 0x64, 0x64, 0x9c, 0x64, 0x19, 0xf6, 0x9c,
                                  0x0a, 0x68, 0x9c, 0xfe, 0x0a, 0x64, 0xf6, 0x64, 0x01, 0x1e, 0x1e, 0x1e,
                                  0x1e, 0x32, 0x26, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x05,
                                  0x0c, 0x13, 0x1a, 0x21, 0x28, 0x2f, 0x36, 0x3d, 0x44, 0x4b, 0x52, 0x59 };
    static const uint8_t c2[] = { 0x01, 0x9c, 0x9c, 0x64, 0x9c, 0x64, 0x64, 0x9c, 0x64, 0x19, 0xf6, 0x9c, 0x0a,
                                  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x9c, 0x0a, 0x64,
                                  0xf6, 0x64, 0x1e, 0x1e, 0x1e, 0x1e, 0x09, 0x31, 0x00, 0x00, 0x00, 0x00, 0x00,
                                  0x00, 0x00, 0x2c, 0x28, 0x2f, 0x36, 0x3d, 0xbc, 0xb4, 0xad, 0xad };
    static const uint8_t c3[] = { 0x01, 0xb0, 0xb0, 0x50, 0xb0, 0x50, 0x50, 0xb0, 0x50, 0x09, 0xec, 0xec,
                                  0x14, 0xec, 0x14, 0xec, 0x10, 0xff, 0xff, 0x5f, 0x30, 0x00, 0x05, 0xfe,
                                  0xf2, 0x00, 0xff, 0xff, 0x14, 0x9c, 0x00, 0x14, 0x00, 0x0a, 0x9c, 0x14,
                                  0x00, 0x03, 0x06, 0x00, 0x00, 0x00, 0x03, 0x34, 0x3c, 0x3f };
    static const uint8_t c4[] = { 0x01, 0xb0, 0xb0, 0x50, 0xb0, 0x50, 0x26, 0x50, 0xb0, 0x50, 0x09, 0x0f, 0x21,
                                  0x1e, 0x1e, 0x1e, 0x32, 0x1e, 0x28, 0x1e, 0x01, 0x00, 0x01, 0x9c, 0x00, 0x01,
                                  0x3d, 0x00, 0x00, 0x01, 0x9c, 0x9c, 0x64, 0x9c, 0x00, 0x00, 0x00, 0x00, 0x00,
                                  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                  0x00, 0x00, 0x00, 0x44, 0x44, 0x44, 0x44, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                  0x00, 0x00, 0x00, 0x64, 0x33, 0x38, 0x3c, 0x3f };
    static const uint8_t c5[] = { 0x01, 0x9c, 0x9c, 0x64, 0x9c, 0x64, 0x64, 0x9c, 0x64, 0x19, 0x00, 0x00, 0xff, 0xff,
                                  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x60, 0x30, 0x00,
                                  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x09, 0x07, 0x74, 0x09, 0xe9, 0xe1,
                                  0x00, 0x00, 0x09, 0xe9, 0xe1, 0xe1, 0xe1, 0xcd, 0xe1, 0xd7, 0xe1, 0x2a, 0x27, 0x2a,
                                  0x2d, 0x21, 0x9c, 0x64, 0x9c, 0x64, 0x64, 0x28, 0x2f, 0x32, 0xff, 0x00, 0x31 };
    static const uint8_t c6[] = { 0x01, 0x00, 0xb2, 0x01, 0x00, 0x01, 0xe8, 0x9c, 0x64, 0x9c, 0x00, 0x01, 0x9c, 0x9c,
                                  0x64, 0x9c, 0x64, 0x64, 0x9c, 0x64, 0x19, 0xf6, 0x9c, 0x0a, 0xea, 0x9c, 0x0a, 0x64,
                                  0x1e, 0x1e, 0x1e, 0x09, 0x55, 0xb0, 0xff, 0x64, 0x02, 0x00, 0x5d, 0xb0, 0xb0, 0x00,
                                  0x00, 0x06, 0xb0, 0x50, 0x64, 0x00, 0x01, 0x04, 0x9c, 0x12, 0x15, 0x18, 0x64, 0x00,
                                  0x01, 0x01, 0xb0, 0x64, 0xf6, 0x64, 0x09, 0x04, 0x9c, 0x1c, 0x00, 0xe1, 0xe1, 0x3b,
                                  0x2b, 0x00, 0x00, 0xcf, 0xcf, 0xcf, 0x59, 0x34, 0x00, 0xb0, 0xff, 0xb0 };
    const struct {
        const uint8_t *data;
        size_t size;
    } cases[] = { { c0, sizeof c0 }, { c1, sizeof c1 }, { c2, sizeof c2 }, { c3, sizeof c3 },
                  { c4, sizeof c4 }, { c5, sizeof c5 }, { c6, sizeof c6 } };
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    for (int c = 0; c < 7; c++) {
        steerN_Mesh *m = fuzz_level(cases[c].data, cases[c].size);
        REQUIRE(m, "case %d: the level", c);
        const uint8_t *d = cases[c].data;
        int checked = 0;
        for (size_t k = 0; k + 4 <= cases[c].size && k < 64; k += 4) {
            double a[2], b[2], r = 0.3;
            steerN_mesh_random_point(m, d[k] / 256.0, d[k + 1] / 256.0, 0.5, a);
            steerN_mesh_random_point(m, d[k + 2] / 256.0, d[k + 3] / 256.0, 0.25, b);
            bool clear = steerN_mesh_contains(m, a, r) && steerN_mesh_contains(m, b, r);
            if (path(q, m, a[0], a[1], b[0], b[1], r, NULL) != STEERN_PATH_FOUND) continue;
            uint32_t n;
            const double *p = steerN_mesh_path_points(q, &n);
            bool crosses;
            double cl = path_clearance(m, p, n, &crosses);
            CHECK(on_the_mesh(m, p, n) && !crosses, "case %d, points %zu: off the mesh", c, k);
            CHECK(!clear || cl >= r - 1e-6, "case %d, points %zu: clearance %.9f", c, k, cl);
            checked++;
        }
        CHECK(checked > 0 || c == 5, "case %d: no path checked", c);
        steerN_mesh_free(m);
    }
    steerN_mesh_query_free(q);
}

// A ray along edges that are no walls, through a wall's vertex where the
// walls leave to the sides (fuzz_navmesh: a radius-0 path from a vertex
// past an obstacle's tip; here two tips meet): it stays on the closed
// mesh, no hit; one that goes on into an obstacle hits it.
static void test_raycast_through_a_wall_vertex(void)
{
    static Shape s;
    memset(&s, 0, sizeof s);
    box(&s, 0, 0, 10, 10);
    double tri[] = { 5, 5, 9, 4, 9, 6 }, tri2[] = { 5, 5, 1, 6, 1, 4 };
    ring(&s, tri, 3);
    ring(&s, tri2, 3); // tips on both sides: whichever triangle the ray starts in
    double line[] = { 5, 8, 5, 5, 5, 2 };
    border(&s, line, 3);
    steerN_Mesh *m = make(&s);
    REQUIRE(m, "mesh");
    double hit[2], nrm[2], f;
    double a[2] = { 5, 8 }, b[2] = { 5, 2 };
    CHECK(steerN_mesh_raycast(m, a, b, NULL, hit, nrm, &f) == 0, "down past the tip: clear (hit at %g)", f);
    CHECK(steerN_mesh_raycast(m, b, a, NULL, hit, nrm, &f) == 0, "up past the tip: clear (hit at %g)", f);
    double d[2] = { 8, 5 };
    CHECK(steerN_mesh_raycast(m, a, d, NULL, hit, nrm, &f) == 1 && fabs(f - 0.8) < 1e-12, "into an obstacle: a hit");
    steerN_mesh_free(m);
}

// The path check in one pass (steerN_mesh_polyline_on: a segment starts
// in the triangle the last one ended in) gives what checking point by
// point does (on_the_mesh: locate, then raycast from scratch), on
// polylines through random points, wall vertices and the points of wall
// edges (a path's corners lie on them: the start triangle is the one the
// ray goes into, not the last one's), points a hair off an edge, off the
// mesh, repeated, and on the paths of radius 0.5 themselves.
static void test_polyline_on_one_pass(void)
{
    test_rng_state_ = 17;
    int agree = 0, off = 0, total = 0;
    for (int level = 0; level < 3; level++) {
        steerN_Mesh *m = level == 0 ? rooms(2) : boxes(level == 1 ? 60 : 200, 60);
        REQUIRE(m, "mesh");
        double lo = level == 0 ? -1 : -1, hi = level == 0 ? 21 : 61;
        for (int k = 0; k < 3000; k++) {
            double p[2 * 12];
            uint32_t n = 2 + (uint32_t)test_uniform(0, 10);
            for (uint32_t i = 0; i < n; i++) {
                double *x = p + 2 * i, u = test_uniform(0, 1);
                uint32_t t = (uint32_t)test_uniform(0, m->ntri) % m->ntri, e = (uint32_t)test_uniform(0, 3) % 3;
                const double *a = m->xy + 2 * m->tri[3 * t + e], *b = m->xy + 2 * m->tri[3 * t + (e + 1) % 3];
                int kind = (int)test_uniform(0, 6);
                if (kind == 0) x[0] = test_uniform(lo, hi), x[1] = test_uniform(lo, hi);
                else if (kind == 1) x[0] = a[0], x[1] = a[1];
                else if (kind == 2) x[0] = a[0] + u * (b[0] - a[0]), x[1] = a[1] + u * (b[1] - a[1]);
                else if (kind == 3) { // a hair inside or outside an edge
                    double h = test_uniform(-1e-9, 1e-9);
                    x[0] = a[0] + u * (b[0] - a[0]) - h * (b[1] - a[1]),
                    x[1] = a[1] + u * (b[1] - a[1]) + h * (b[0] - a[0]);
                } else if (kind == 4 && i > 0) x[0] = x[-2], x[1] = x[-1];
                else { // inside triangle t
                    double v = test_uniform(0, 1 - u);
                    const double *c = m->xy + 2 * m->tri[3 * t + (e + 2) % 3];
                    x[0] = a[0] + u * (b[0] - a[0]) + v * (c[0] - a[0]),
                    x[1] = a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]);
                }
            }
            bool want = on_the_mesh(m, p, n);
            agree += steerN_mesh_polyline_on(m, p, NULL, n) == want, off += !want, total++;
        }
        steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
        for (int k = 0; k < 300; k++) {
            double a[2] = { test_uniform(0, hi - 1), test_uniform(0, hi - 1) },
                   b[2] = { test_uniform(0, hi - 1), test_uniform(0, hi - 1) };
            if (path(q, m, a[0], a[1], b[0], b[1], 0.5, NULL) != STEERN_PATH_FOUND) continue;
            uint32_t n;
            const double *p = steerN_mesh_path_points(q, &n);
            agree += steerN_mesh_polyline_on(m, p, NULL, n) == on_the_mesh(m, p, n), total++;
        }
        steerN_mesh_query_free(q);
        steerN_mesh_free(m);
    }
    CHECK(agree == total, "%d of %d polylines judged otherwise", total - agree, total);
    CHECK(off > total / 10 && off < total - total / 10, "%d of %d polylines off the mesh", off, total);
}

// steerN_mesh_segment_clear (what lets repair skip its walk round a
// segment) against every wall edge: clear exactly when no wall edge is
// nearer than lim (mg_seg_seg), but for walls within a hair (1e-6) past
// lim, which may be taken as near. Segments from a wall vertex's circle
// outward (as the funnel's tangents leave one), along walls, random.
static void test_segment_clear(void)
{
    test_rng_state_ = 23;
    int wrong = 0, clear = 0, total = 0;
    for (int level = 0; level < 3; level++) {
        steerN_Mesh *m = level == 0 ? rooms(2) : boxes(level == 1 ? 60 : 200, 60);
        REQUIRE(m, "mesh");
        double hi = level == 0 ? 21 : 61;
        for (int k = 0; k < 4000; k++) {
            double a[2], b[2], lim = test_uniform(0.05, 1.5);
            uint32_t t = (uint32_t)test_uniform(0, m->ntri) % m->ntri, e = (uint32_t)test_uniform(0, 3) % 3;
            const double *v = m->xy + 2 * m->tri[3 * t + e], *w = m->xy + 2 * m->tri[3 * t + (e + 1) % 3];
            int kind = (int)test_uniform(0, 3);
            if (kind == 0) { // leaving the circle of radius lim about a vertex, at a tangent
                double ang = test_uniform(0, 6.283185307179586), c = cos(ang), sn = sin(ang),
                       len = test_uniform(0.1, 15);
                a[0] = v[0] + lim * c, a[1] = v[1] + lim * sn;
                b[0] = a[0] - sn * len, b[1] = a[1] + c * len;
            } else if (kind == 1) { // along an edge, lim off it
                double dx = w[0] - v[0], dy = w[1] - v[1], l = sqrt(dx * dx + dy * dy),
                       o = lim * test_uniform(0.9, 1.1);
                a[0] = v[0] - dy / l * o, a[1] = v[1] + dx / l * o;
                b[0] = w[0] - dy / l * o, b[1] = w[1] + dx / l * o;
            } else {
                a[0] = test_uniform(0, hi - 1), a[1] = test_uniform(0, hi - 1);
                b[0] = a[0] + test_uniform(-8, 8), b[1] = a[1] + test_uniform(-8, 8);
            }
            double best = INFINITY;
            for (uint32_t i = 0; i < 3 * m->ntri; i++) {
                if (m->adj[i] >= 0) continue;
                double d = mg_seg_seg(a, b, mg_v(m, i / 3, (int)(i % 3)), mg_v(m, i / 3, (int)(i % 3 + 1) % 3));
                best = d < best ? d : best;
            }
            bool c = steerN_mesh_segment_clear(m, a, b, lim);
            if (c ? best < lim : best >= lim * (1 + 1e-6)) wrong++;
            clear += c, total++;
        }
        steerN_mesh_free(m);
    }
    CHECK(wrong == 0, "%d of %d segments judged otherwise", wrong, total);
    CHECK(clear > total / 20 && clear < total - total / 20, "%d of %d segments clear", clear, total);
}

static void test_move_along(void)
{
    steerN_Mesh *m = pillar();
    REQUIRE(m, "mesh");
    double out[2];
    double a[2] = { 2, 2 }, b[2] = { 3, 2.5 };
    steerN_mesh_move_along(m, a, b, 0.3, out);
    CHECK(out[0] == 3 && out[1] == 2.5, "free move: the target");
    // into the pillar's left side: stops at it, then slides
    double c[2] = { 3, 5 }, d[2] = { 4.5, 5 };
    steerN_mesh_move_along(m, c, d, 0, out);
    CHECK(fabs(out[0] - 4) < 1e-9 && fabs(out[1] - 5) < 1e-9, "at the wall (%g, %g)", out[0], out[1]);
    steerN_mesh_move_along(m, c, d, 0.5, out);
    CHECK(fabs(out[0] - 3.5) < 1e-6 && fabs(out[1] - 5) < 1e-6, "radius 0.5 from it (%g, %g)", out[0], out[1]);
    double e[2] = { 3, 4.5 }, g[2] = { 4.3, 5.2 };
    steerN_mesh_move_along(m, e, g, 0.25, out);
    CHECK(fabs(out[0] - 3.75) < 1e-6 && fabs(out[1] - 5.2) < 1e-6, "slides up the side (%g, %g)", out[0], out[1]);
    // the outer wall
    double h[2] = { 9, 9 }, k[2] = { 12, 9.5 };
    steerN_mesh_move_along(m, h, k, 0.5, out);
    CHECK(fabs(out[0] - 9.5) < 1e-6 && fabs(out[1] - 9.5) < 1e-6, "into the corner (%g, %g)", out[0], out[1]);
    // random moves never leave the mesh
    test_rng_state_ = 21;
    steerN_Mesh *big = boxes(60, 50);
    REQUIRE(big, "boxes");
    for (int i = 0; i < 3000 && !FAILED(); i++) {
        double p[2];
        steerN_mesh_random_point(big, test_uniform(0, 1), test_uniform(0, 1), test_uniform(0, 1), p);
        double to[2] = { p[0] + test_uniform(-6, 6), p[1] + test_uniform(-6, 6) };
        double r = i % 3 ? 0.3 : 0;
        steerN_mesh_move_along(big, p, to, r, out);
        CHECK(steerN_mesh_locate(big, out) >= 0, "move %d left the mesh: (%.17g, %.17g)", i, out[0], out[1]);
        // never through a wall: the straight way from p to out is clear or slides along
        if (steerN_mesh_contains(big, to, r)) {
            double hit[2], nrm[2], f;
            if (steerN_mesh_raycast(big, p, to, NULL, hit, nrm, &f) == 0 &&
                steerN_mesh_wall_distance(big, p, NULL, NULL) > r)
                CHECK(out[0] == to[0] && out[1] == to[1], "move %d: a clear move stops short", i);
        }
    }
    steerN_mesh_free(big);
    steerN_mesh_free(m);
}

static void test_memory(void)
{
    steerN_Mesh *m = pillar();
    REQUIRE(m, "mesh");
    size_t before = steerN_mesh_bytes(m);
    CHECK(m->derived_bytes > 0 && m->prepared, "derived bytes counted");
    REQUIRE(steerN_mesh_prepare(m) == 0, "prepared twice");
    CHECK(steerN_mesh_bytes(m) == before, "the same memory after a second prepare");
    steerN_mesh_free(m); // ASan: nothing leaks
    // an empty mesh answers without crashing
    steerN_Mesh *e = steerN_mesh_alloc(0, 0, NULL);
    REQUIRE(steerN_mesh_prepare(e) == 0, "empty prepare");
    double p[2] = { 0, 0 }, out[2];
    CHECK(steerN_mesh_locate(e, p) == -1 && !steerN_mesh_contains(e, p, 0), "empty locate");
    CHECK(steerN_mesh_wall_distance(e, p, NULL, NULL) == INFINITY, "empty wall distance");
    CHECK(!steerN_mesh_nearest(e, p, 0, out, NULL, NULL), "empty nearest");
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    CHECK(steerN_mesh_path(q, e, p, p, NULL) == STEERN_PATH_START_OFF, "empty path");
    steerN_mesh_random_point(e, 0.5, 0.5, 0.5, out);
    steerN_mesh_query_free(q);
    steerN_mesh_free(e);
}

static double now(void) { return steerY_now(); } // the monotonic clock, on every system (os.h)

static void test_speed(void)
{
    test_rng_state_ = 1;
    double t0 = now();
    steerN_Mesh *m = boxes(500, 200);
    REQUIRE(m, "mesh");
    double t1 = now();
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    printf("    200 x 200 m, 500 boxes: %u triangles, built and prepared in %.1f ms, %zu bytes\n", m->ntri,
           (t1 - t0) * 1e3, steerN_mesh_bytes(m));
    double radii[] = { 0, 0.5 };
    for (int k = 0; k < 2; k++) {
        int n = 2000, found = 0;
        double pts[2 * 2000 * 2];
        for (int i = 0; i < 2 * n; i++)
            steerN_mesh_random_point(m, test_uniform(0, 1), test_uniform(0, 1), test_uniform(0, 1), pts + 2 * i);
        double s = now();
        for (int i = 0; i < n; i++) {
            steerN_MeshFilter f = { .radius = radii[k], .cost = NULL };
            found += steerN_mesh_path(q, m, pts + 4 * i, pts + 4 * i + 2, &f) == STEERN_PATH_FOUND;
        }
        double e = now() - s;
        printf("    radius %.1f: %.0f path queries per second (%d of %d found)\n", radii[k], n / e, found, n);
    }
    steerN_mesh_query_free(q);
    steerN_mesh_free(m);
}

int main(void)
{
    RUN(test_gap);
    RUN(test_start_goal_off);
    RUN(test_shortest_radius_0);
    RUN(test_radius_0_is_the_classic_funnel);
    RUN(test_start_on_a_portal_vertex);
    RUN(test_ring_levels);
    RUN(test_clearance_cases);
    RUN(test_clearance_random);
    RUN(test_clearance_fuzz_cases);
    RUN(test_start_pressed_to_a_wall);
    RUN(test_widths_oracle);
    RUN(test_widths_oracle_cases);
    RUN(test_area_costs);
    RUN(test_sliced_and_deterministic);
    RUN(test_goal_shut_in);
    RUN(test_reach_known);
    RUN(test_link_search_capped);
    RUN(test_dead_ends);
    RUN(test_locate_and_walls);
    RUN(test_random_points);
    RUN(test_raycast);
    RUN(test_raycast_through_a_wall_vertex);
    RUN(test_polyline_on_one_pass);
    RUN(test_segment_clear);
    RUN(test_move_along);
    RUN(test_memory);
    RUN(test_speed);
    return check_report_("mesh_query");
}
