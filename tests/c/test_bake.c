// SPDX-License-Identifier: MIT
// test_bake.c — navigation meshes baked from level geometry (issue 33):
// the OBJ reader (src/nav/obj.c) on a good file and on every kind of bad
// line, which it names; the bake (src/nav/bake.cpp through
// steer_navmesh_bake): a box on a floor is walked around, a gentle ramp is
// walkable and a steep one is not, ground under a ceiling lower than the
// agent is not, ground over ground is refused as several floors, and a
// baked mesh saved loads back to the same hash. In a build without Recast
// the bake must say so, and the rest is skipped.
#include "check.h"
#include "buf.h"
#include "nav/bake.h"
#include "nav/obj.h"
#include "steer_nav.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// ---- the OBJ reader -----------------------------------------------------------

static int parse(const char *text, char up, steerN_Soup *s, char *msg)
{
    return steerN_obj_parse(text, strlen(text), up, s, msg, 256);
}

static void test_obj_good(void)
{
    const char *text = "# a quad, a triangle by negative indices, and lines to ignore\n"
                       "mtllib level.mtl\no floor\n"
                       "v 0 0 0\nv 10 0 0\r\nv 10.0 0 -10\nv 0 0 -1e1 1.0\n"
                       "vt 0 0\nvn 0 1 0\ng g\ns off\nusemtl stone\n"
                       "f 1/1/1 2/1/1 3/1/1 4/1/1   # fanned: 2 triangles\n"
                       "v 20 0 0\n"
                       "f -4 -1 -3\n"
                       "f 1 1 2\n"           // a corner twice: skipped
                       "v 30 0 0\nf 2 5 6\n" // three on a line: skipped
                       "l 1 2\n";
    steerN_Soup s;
    char msg[256];
    REQUIRE(parse(text, 'y', &s, msg) == 0, "parse failed: %s", msg);
    CHECK(s.nverts == 6 && s.ntris == 3 && s.skipped == 2, "%u vertices, %u triangles, %u skipped", s.nverts, s.ntris,
          s.skipped);
    // y up: (x, y, z) -> (x, -z, y)
    CHECK(s.xyz[3 * 2] == 10 && s.xyz[3 * 2 + 1] == 10 && s.xyz[3 * 2 + 2] == 0, "vertex 3 at (%g, %g, %g)", s.xyz[6],
          s.xyz[7], s.xyz[8]);
    CHECK(s.tri[0] == 0 && s.tri[1] == 1 && s.tri[2] == 2 && s.tri[3] == 0 && s.tri[4] == 2 && s.tri[5] == 3,
          "the quad's fan");
    CHECK(s.tri[6] == 1 && s.tri[7] == 4 && s.tri[8] == 2, "negative indices: %u %u %u", s.tri[6], s.tri[7], s.tri[8]);
    steerN_soup_free(&s);
    REQUIRE(parse("v 1 2 3\nv 1e-400 -0.5e-99999 12.5e-1\n", 'z', &s, msg) == 0, "%s", msg);
    CHECK(s.xyz[0] == 1 && s.xyz[1] == 2 && s.xyz[2] == 3, "z up keeps the frame");
    CHECK(s.xyz[3] == 0 && s.xyz[4] == 0 && !signbit(s.xyz[4]) && s.xyz[5] == 1.25, "tiny numbers are 0: %g %g %g",
          s.xyz[3], s.xyz[4], s.xyz[5]);
    steerN_soup_free(&s);
}

static void test_obj_bad(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        { "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 9\n", "line 4: face corner '9' refers to a missing vertex (3 defined" },
        { "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 1 1 0\n", "line 3: face corner '3' refers to a missing vertex" },
        { "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 0 1 2\n", "line 4: face corner '0'" },
        { "v 0 0 0\nv 1 0 0\nv 1 1 0\nf -4 1 2\n", "line 4: face corner '-4'" },
        { "v 0 0 0\nv 1 nan 0\n", "line 2: a malformed number 'nan'" },
        { "\n\nv inf 0 0\n", "line 3: a malformed number 'inf'" },
        { "v 0 0 0\nv 1e300 0 0\n", "line 2: coordinate '1e300' is beyond" },
        { "v 0 0 2000000\n", "line 1: coordinate '2000000' is beyond" },
        { "v 0 0 0\nv 1e400 0 0\n", "line 2: coordinate '1e400' is beyond" }, // past double's range
        { "v 0 0 0\nv 0 -123456789e99999 0\n", "line 2: coordinate '-123456789e99999' is beyond" },
        { "v 0 2x 0\n", "line 1: a malformed number '2x'" },
        { "v 0 1.5e 0\n", "line 1: a malformed number '1.5e'" },
        { "v 0 0x10 0\n", "line 1: a malformed number '0x10'" },
        { "v 0 1\n", "line 1: expected 3 coordinates" },
        { "v 0 0 0\nv 1 0 0\nf 1 2\n", "line 3: a face of 2 corners" },
        { "v 0 0 0\nv 1 0 0\nv 1 1 0\nf a b c\n", "line 4: a malformed face corner 'a'" },
        { "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1/2/3 2.5 3\n", "line 4: a malformed face corner '2.5'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        steerN_Soup s;
        char msg[256];
        int r = parse(cases[i].text, 'y', &s, msg);
        CHECK(r == -1 && strstr(msg, cases[i].want), "case %zu: %d, '%s' (want '%s')", i, r, msg, cases[i].want);
        CHECK(!s.xyz && !s.tri && !s.nverts && !s.ntris, "case %zu: nothing half-read", i);
    }
    // the size cap, before a byte is read
    steerN_Soup s;
    char msg[256];
    CHECK(steerN_obj_parse("", (size_t)STEERN_OBJ_MAX_BYTES + 1, 'y', &s, msg, sizeof msg) == -1 &&
              strstr(msg, "more than the 128 MiB"),
          "size cap: %s", msg);
}

static void test_obj_file(void)
{
    const char *path = "test-bake-file.obj"; // in the working directory (the build's, under meson test)
    FILE *f = fopen(path, "w");
    REQUIRE(f, "cannot write %s", path);
    fputs("v 0 0 0\nv 1 0 0\n# comment\nf 1 2 3\n", f);
    fclose(f);
    steerN_Soup s;
    char msg[512], want[600];
    CHECK(steerN_obj_read(path, 'y', &s, msg, sizeof msg) == -1, "a bad file reads");
    snprintf(want, sizeof want, "%s:4: face corner '3' refers to a missing vertex", path);
    CHECK(!strncmp(msg, want, strlen(want)), "'%s' (want '%s')", msg, want);
    // a 200 MB file (sparse): refused, naming the limit
    f = fopen(path, "w");
    REQUIRE(f && fseek(f, 200L << 20, SEEK_SET) == 0 && fputc('\n', f) != EOF, "a 200 MB file");
    fclose(f);
    CHECK(steerN_obj_read(path, 'y', &s, msg, sizeof msg) == -1 && strstr(msg, "more than the 128 MiB"), "%s", msg);
    remove(path);
    CHECK(steerN_obj_read(path, 'y', &s, msg, sizeof msg) == -1 && strstr(msg, "cannot open"), "%s", msg);
}

// ---- the bake -----------------------------------------------------------------

typedef struct Soup {
    double xyz[3 * 256];
    uint32_t tri[3 * 256];
    int nv, nt;
} Soup;

static uint32_t vert(Soup *s, double x, double y, double z)
{
    s->xyz[3 * s->nv] = x, s->xyz[3 * s->nv + 1] = y, s->xyz[3 * s->nv + 2] = z;
    return (uint32_t)s->nv++;
}
static void tri(Soup *s, uint32_t a, uint32_t b, uint32_t c)
{
    s->tri[3 * s->nt] = a, s->tri[3 * s->nt + 1] = b, s->tri[3 * s->nt + 2] = c;
    s->nt++;
}
// A quad a b c d (counter-clockwise seen from the side it faces).
static void quad(Soup *s, uint32_t a, uint32_t b, uint32_t c, uint32_t d) { tri(s, a, b, c), tri(s, a, c, d); }
// A level quad at height z, facing up (or down).
static void flat(Soup *s, double x0, double y0, double x1, double y1, double z, bool up)
{
    uint32_t a = vert(s, x0, y0, z), b = vert(s, x1, y0, z), c = vert(s, x1, y1, z), d = vert(s, x0, y1, z);
    if (up) quad(s, a, b, c, d);
    else quad(s, a, d, c, b);
}
// A closed box.
static void box(Soup *s, double x0, double y0, double x1, double y1, double h)
{
    flat(s, x0, y0, x1, y1, h, true);
    uint32_t p[8];
    for (int k = 0; k < 2; k++) {
        double z = k ? h : 0;
        p[4 * k] = vert(s, x0, y0, z), p[4 * k + 1] = vert(s, x1, y0, z);
        p[4 * k + 2] = vert(s, x1, y1, z), p[4 * k + 3] = vert(s, x0, y1, z);
    }
    for (int i = 0; i < 4; i++) quad(s, p[i], p[(i + 1) % 4], p[(i + 1) % 4 + 4], p[i + 4]);
}
// A ramp along x from (x0, z0) to (x1, z1), y from y0 to y1.
static void ramp(Soup *s, double x0, double x1, double y0, double y1, double z0, double z1)
{
    quad(s, vert(s, x0, y0, z0), vert(s, x1, y0, z1), vert(s, x1, y1, z1), vert(s, x0, y1, z0));
}

static steer_NavMesh *bake(const Soup *s, double height, double climb, double slope)
{
    steer_NavBakeDesc d = {
        .xyz = s->xyz, .nverts = s->nv, .tri = s->tri, .ntris = s->nt, .height = height, .climb = climb, .slope = slope
    };
    steer_NavMesh *m = NULL;
    int st = steer_navmesh_bake(&d, &m);
    if (st != STEER_OK) printf("    bake: %s\n", steer_last_error());
    return m;
}

static steer_PathStatus path(steer_NavMesh *m, double x0, double y0, double x1, double y1, double *pts, int *n)
{
    steer_NavQuery *q;
    steer_navquery_new(&q);
    double a[2] = { x0, y0 }, b[2] = { x1, y1 };
    steer_PathStatus st = STEER_PATH_NONE;
    double len;
    *n = 0;
    steer_navmesh_path(m, q, a, b, NULL, &st, pts, 64, n, &len);
    steer_navquery_free(q);
    return st;
}

static void test_bake_box(void)
{
    Soup s = { 0 };
    flat(&s, 0, 0, 20, 20, 0, true);
    box(&s, 8, 8, 12, 12, 2);
    steer_NavMesh *m = bake(&s, 2, 0.4, 45);
    REQUIRE(m, "the floor with a box bakes");
    double p[128];
    int n;
    CHECK(path(m, 1, 10, 19, 10, p, &n) == STEER_PATH_FOUND && n >= 3, "a path around the box (%d points)", n);
    for (int i = 0; i + 1 < n; i++) // no point of the path crosses the box
        for (int k = 0; k <= 100; k++) {
            double t = k / 100.0, x = p[2 * i] + t * (p[2 * i + 2] - p[2 * i]),
                   y = p[2 * i + 1] + t * (p[2 * i + 3] - p[2 * i + 1]);
            CHECK(!(x > 8 && x < 12 && y > 8 && y < 12), "the path crosses the box at (%g, %g)", x, y);
        }
    double in[2] = { 3, 3 }, side[2] = { 10, 8.05 }, top[2] = { 10, 10 };
    CHECK(steer_navmesh_contains(m, in, 0.5), "open floor walkable");
    CHECK(!steer_navmesh_contains(m, side, 0), "the box's side is not walkable");
    // the box's top is ground too (an island: its rim, a drop of more than
    // climb, is not), which no path from the floor reaches
    CHECK(steer_navmesh_contains(m, top, 0), "the box's top is an island");
    CHECK(path(m, 1, 10, 10, 10, p, &n) == STEER_PATH_NONE, "no way onto the box");
    // saved, it loads back the same
    Buf b = { 0 };
    REQUIRE(steer_navmesh_save(m, buf_write, &b) == STEER_OK, "save");
    steer_NavMesh *l = NULL;
    CHECK(steer_navmesh_load(b.p, b.len, &l) == STEER_OK && steer_navmesh_hash(l) == steer_navmesh_hash(m),
          "a baked mesh saved loads back to the same hash");
    free(b.p);
    steer_navmesh_free(l);
    steer_navmesh_free(m);
}

static void test_bake_slopes(void)
{
    // floor, a ramp up to a platform 3 m higher over 10 m (16.7 degrees)
    Soup s = { 0 };
    flat(&s, 0, 0, 10, 10, 0, true);
    ramp(&s, 10, 20, 0, 10, 0, 3);
    flat(&s, 20, 0, 30, 10, 3, true);
    steer_NavMesh *m = bake(&s, 2, 0.4, 45);
    REQUIRE(m, "the ramp bakes");
    double p[128], mid[2] = { 15, 5 };
    int n;
    CHECK(path(m, 5, 5, 25, 5, p, &n) == STEER_PATH_FOUND, "up the ramp");
    CHECK(steer_navmesh_contains(m, mid, 0), "the ramp is walkable");
    steer_navmesh_free(m);
    // the same ramp, too steep for an agent of 10 degrees
    m = bake(&s, 2, 0.4, 10);
    REQUIRE(m, "the ramp bakes for a 10 degree agent");
    CHECK(path(m, 5, 5, 25, 5, p, &n) != STEER_PATH_FOUND, "no way up a ramp steeper than the slope");
    CHECK(!steer_navmesh_contains(m, mid, 0), "the steep ramp is not walkable");
    steer_navmesh_free(m);
}

static void test_bake_ceiling(void)
{
    // a corridor 30 m long under a ceiling 1.5 m high for x in 10 .. 20 (facing down)
    Soup s = { 0 };
    flat(&s, 0, 0, 30, 10, 0, true);
    flat(&s, 10, 0, 20, 10, 1.5, false);
    double p[128], under[2] = { 15, 5 };
    int n;
    steer_NavMesh *m = bake(&s, 2, 0.4, 45);
    REQUIRE(m, "the corridor bakes");
    CHECK(!steer_navmesh_contains(m, under, 0), "no room under the ceiling for a 2 m agent");
    CHECK(path(m, 5, 5, 25, 5, p, &n) != STEER_PATH_FOUND, "no way under it");
    steer_navmesh_free(m);
    m = bake(&s, 1, 0.4, 45);
    REQUIRE(m, "the corridor bakes for a 1 m agent");
    CHECK(steer_navmesh_contains(m, under, 0), "room for a 1 m agent");
    CHECK(path(m, 5, 5, 25, 5, p, &n) == STEER_PATH_FOUND, "a way under it");
    steer_navmesh_free(m);
}

// A deck 3 m over the ground, a ramp up to it: two floors, a path that
// climbs the ramp, the ground under the deck and the deck over it.
static void test_bake_floors(void)
{
    Soup s = { 0 };
    flat(&s, -20, -5, 40, 15, 0, true);
    flat(&s, 10, 2, 30, 8, 3, true);
    ramp(&s, -10, 10, 2, 8, 0, 3);
    steer_NavMesh *m = bake(&s, 2, 0.4, 45);
    CHECK(m != NULL, "a deck over the ground bakes");
    if (!m) return;
    CHECK(steer_navmesh_layer_count(m) == 2, "two layers, not %d", steer_navmesh_layer_count(m));
    double z;
    int layer;
    const double under[3] = { 20, 5, 0 }, over[3] = { 20, 5, 3 };
    CHECK(steer_navmesh_height(m, under, 0, &z, &layer) == STEER_OK && fabs(z) < 0.01 && layer == 1,
          "under the deck: the ground (z %g, layer %d)", z, layer);
    // heights come from the layer's height grid, not the triangles' planes
    // (a big triangle spans the deck and the ramp's top): the deck's own
    CHECK(steer_navmesh_height(m, over, 0, &z, &layer) == STEER_OK && fabs(z - 3) < 0.01 && layer == 2,
          "on the deck: the deck (z %g, layer %d)", z, layer);
    for (double x = -9; x <= 9; x += 1.5) { // up the ramp: its slope, to the centimetre
        const double on[3] = { x, 5, 3 * (x + 10) / 20 };
        CHECK(steer_navmesh_height(m, on, 0, &z, NULL) == STEER_OK && fabs(z - on[2]) < 0.01,
              "the ramp at x %g: z %g, not %g", x, z, on[2]);
    }
    for (double x = -19; x < 40; x += 2.5) { // the ground beside the ramp's foot and under the deck: flat
        const double at[3] = { x, 0, 0 };
        CHECK(steer_navmesh_height(m, at, 0, &z, &layer) == STEER_OK && fabs(z) < 0.01 && layer == 1,
              "the ground at x %g: z %g (layer %d)", x, z, layer);
    }
    CHECK(steer_navmesh_height(m, under, 2, &z, &layer) == STEER_OK && fabs(z - 3) < 0.01 && layer == 2,
          "layer 2 asked for: the deck (z %g)", z);
    CHECK(steer_navmesh_height(m, under, 3, &z, NULL) == STEER_EARG && strstr(steer_last_error(), "layer from 1 to 2"),
          "layer 3: %s", steer_last_error());
    // the floors under a point: both under the deck (ground first), one beside it, none off the mesh
    int lays[4] = { 0 }, nl = -1;
    double zs4[4] = { 0 }, beside[2] = { 35, 5 }, off[2] = { 100, 100 };
    CHECK(steer_navmesh_layers_at(m, under, lays, zs4, 4, &nl) == STEER_OK && nl == 2 && lays[0] == 1 && lays[1] == 2 &&
              fabs(zs4[0]) < 0.01 && fabs(zs4[1] - 3) < 0.01,
          "under the deck: %d layers (%d at %g, %d at %g)", nl, lays[0], zs4[0], lays[1], zs4[1]);
    CHECK(steer_navmesh_layers_at(m, under, lays, zs4, 1, &nl) == STEER_OK && nl == 2 && lays[0] == 1,
          "room for one: the count is still 2 (%d), the lowest written (%d)", nl, lays[0]);
    CHECK(steer_navmesh_layers_at(m, beside, NULL, NULL, 0, &nl) == STEER_OK && nl == 1, "beside it: %d layers", nl);
    CHECK(steer_navmesh_layers_at(m, off, lays, zs4, 4, &nl) == STEER_OK && nl == 0, "off the mesh: %d layers", nl);
    CHECK(steer_navmesh_layers_at(m, under, NULL, zs4, 4, &nl) == STEER_EARG &&
              strstr(steer_last_error(), "steer_navmesh_layers_at") && strstr(steer_last_error(), "cap 4"),
          "layers NULL: %s", steer_last_error());
    // the nearest point on a floor: from beside the deck at deck height, on the deck (its edge, x 30)
    double near[3], d;
    const double east_high[3] = { 35, 5, 3 }, east_low[3] = { 35, 5, 0 };
    CHECK(steer_navmesh_nearest_on(m, east_high, 2, 0.5, near, &d, &layer) == STEER_OK && layer == 2 &&
              fabs(near[0] - 29.5) < 0.3 && fabs(near[2] - 3) < 0.01 && fabs(d - 5.5) < 0.3,
          "nearest on the deck: (%g, %g, %g) at %g m, layer %d", near[0], near[1], near[2], d, layer);
    CHECK(steer_navmesh_nearest_on(m, east_low, 0, 0.5, near, &d, &layer) == STEER_OK && layer == 1 && d < 1e-9 &&
              fabs(near[2]) < 0.01,
          "by z, on the ground east of the deck: itself (%g m, layer %d)", d, layer);
    CHECK(steer_navmesh_nearest_on(m, east_high, 3, 0.5, near, NULL, NULL) == STEER_EARG &&
              strstr(steer_last_error(), "layer from 1 to 2"),
          "layer 3: %s", steer_last_error());
    CHECK(steer_navmesh_contains_on(m, over, 2, 0.5) && steer_navmesh_contains_on(m, under, 1, 0.5) &&
              !steer_navmesh_contains_on(m, east_high, 2, 0) && steer_navmesh_contains_on(m, east_low, 0, 0.5),
          "contains on a floor: the deck at (20, 5), the ground under it, not the deck east of its edge");
    // from the ground east of the deck up onto it: round by the ramp
    steer_NavQuery *q;
    steer_navquery_new(&q);
    steer_NavFilter f = { .use_z = true, .from_z = 0, .to_z = 3 };
    double a[2] = { 35, 5 }, b[2] = { 20, 5 }, pts[128], zs[64], len;
    steer_PathStatus st;
    int n = 0, nz = 0;
    CHECK(steer_navmesh_path(m, q, a, b, &f, &st, pts, 64, &n, &len) == STEER_OK && st == STEER_PATH_FOUND,
          "a way up: status %d", st);
    CHECK(steer_navmesh_path_heights(m, q, zs, 64, &nz) == STEER_OK && nz == n, "heights: %d of %d", nz, n);
    CHECK(len > 45, "the way goes round by the ramp (%g m)", len);
    bool rising = n >= 2 && fabs(zs[0]) < 0.01 && fabs(zs[n - 1] - 3) < 0.01;
    for (int i = 1; i < n; i++) rising = rising && zs[i] >= zs[i - 1] - 0.01;
    CHECK(rising, "the heights rise from the ground to the deck (%d points)", n);
    // the same two points on the ground alone: straight under the deck
    f.to_z = 0;
    CHECK(steer_navmesh_path(m, q, a, b, &f, &st, pts, 64, &n, &len) == STEER_OK && st == STEER_PATH_FOUND &&
              len < 15.5,
          "under the deck: %g m", len);
    steer_navquery_free(q);
    steer_navmesh_free(m);
}

static void test_bake_refused(void)
{
    Soup s = { 0 };
    flat(&s, 0, 0, 30, 10, 0, true);
    flat(&s, 10, -5, 14, 15, 5, true);
    steer_NavBakeDesc d = { .xyz = s.xyz, .nverts = s.nv, .tri = s.tri, .ntris = s.nt, .height = 2, .climb = 0.4 };
    steer_NavMesh *m = NULL;
    s.tri[4] = 99;
    CHECK(steer_navmesh_bake(&d, &m) == STEER_EARG && strstr(steer_last_error(), "triangle 2: vertex 100 of 8"),
          "a bad index: %s", steer_last_error());
    s.tri[4] = 1;
    s.xyz[7] = NAN;
    CHECK(steer_navmesh_bake(&d, &m) == STEER_EARG && strstr(steer_last_error(), "vertex 3: coordinate nan"), "NaN: %s",
          steer_last_error());
    s.xyz[7] = 0;
    d.slope = 90;
    CHECK(steer_navmesh_bake(&d, &m) == STEER_EARG && strstr(steer_last_error(), "agent.slope"), "slope: %s",
          steer_last_error());
}

static void test_no_recast(void)
{
    Soup s = { 0 };
    flat(&s, 0, 0, 10, 10, 0, true);
    steer_NavBakeDesc d = { .xyz = s.xyz, .nverts = s.nv, .tri = s.tri, .ntris = s.nt };
    steer_NavMesh *m = NULL;
    CHECK(steer_navmesh_bake(&d, &m) == STEER_EARG && !m && strstr(steer_last_error(), "this build has no baking") &&
              strstr(steer_last_error(), "librecast-dev"),
          "without Recast: %s", steer_last_error());
}

int main(void)
{
    RUN(test_obj_good);
    RUN(test_obj_bad);
    RUN(test_obj_file);
    if (steerN_bake_available()) {
        RUN(test_bake_box);
        RUN(test_bake_slopes);
        RUN(test_bake_ceiling);
        RUN(test_bake_floors);
        RUN(test_bake_refused);
    } else {
        printf("# this build has no Recast: only its message is checked\n");
        RUN(test_no_recast);
    }
    return check_report_("bake");
}
