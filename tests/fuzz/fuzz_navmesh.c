// SPDX-License-Identifier: MIT
// fuzz_navmesh.c — libFuzzer: navigation meshes (src/nav/mesh.h), built
// from random polygons and read from random bytes. The first byte picks:
//   even: rings from the bytes (an outline first, then outlines, obstacles
//         and areas of 3 to 10 points on a 0.25 m lattice, crossing,
//         touching and repeating as the bytes say), built; a mesh must
//         save and load back to the same hash, and paths on it must keep
//         their promises: every segment clear of the walls (a mesh raycast),
//         a path for radius r never closer than r to a wall when its ends
//         are not, never shorter than the straight line, ending where asked;
//         (with a link between two points the bytes pick: paths may take it)
//   odd:  the rest as a mesh's bytes (steerN_mesh_decode): refused or read,
//         and a read mesh answers queries without crashing.
// A broken promise aborts with what was broken.
#include "nav/mesh.h"
#include "nav/mesh_link.h"
#include "core/bytes.h"
#include "navmesh_rings.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what, double a, double b)
{
    fprintf(stderr, "fuzz_navmesh: %s (%g, %g)\n", what, a, b);
    abort();
}

// Paths between a few points the bytes give, for radius 0 and 0.3.
static void check_paths(const steerN_Mesh *m, const uint8_t *data, size_t size)
{
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    if (!q) return;
    for (size_t k = 0; k + 4 <= size && k < 64; k += 4) {
        double a[2], b[2];
        steerN_mesh_random_point(m, data[k] / 256.0, data[k + 1] / 256.0, 0.5, a);
        steerN_mesh_random_point(m, data[k + 2] / 256.0, data[k + 3] / 256.0, 0.25, b);
        if (!steerN_mesh_contains(m, a, 0) || !steerN_mesh_contains(m, b, 0))
            broken("a random point off the mesh", a[0], a[1]);
        for (int ri = 0; ri < 2; ri++) {
            steerN_MeshFilter f = { .radius = ri ? 0.3 : 0 };
            steerN_PathStatus s = steerN_mesh_path(q, m, a, b, &f);
            if (s != STEERN_PATH_FOUND) continue;
            uint32_t n;
            const double *p = steerN_mesh_path_points(q, &n);
            if (n < 2 || p[0] != a[0] || p[1] != a[1] || p[2 * n - 2] != b[0] || p[2 * n - 1] != b[1])
                broken("a path that does not run from start to goal", n, 0);
            uint32_t nl;
            const int32_t *link = steerN_mesh_path_links(q, &nl); // (a link's crossing leaves the mesh)
            double len = steerN_mesh_path_length(q), straight = hypot(b[0] - a[0], b[1] - a[1]);
            if (len < straight - 1e-9) broken("a path shorter than the straight line", len, straight);
            bool ends_clear = steerN_mesh_contains(m, a, f.radius) && steerN_mesh_contains(m, b, f.radius);
            for (uint32_t i = 0; i + 1 < n; i++) {
                if (link && i < nl && link[i] >= 0) continue;
                double hit[2], normal[2], frac;
                if (steerN_mesh_raycast(m, p + 2 * i, p + 2 * i + 2, &f, hit, normal, &frac) == 1 && frac < 1 - 1e-9)
                    broken("a path segment through a wall", hit[0], hit[1]);
                if (!ends_clear || f.radius == 0) continue;
                for (int t = 0; t <= 16; t++) {
                    double x[2] = { p[2 * i] + (p[2 * i + 2] - p[2 * i]) * t / 16.0,
                                    p[2 * i + 1] + (p[2 * i + 3] - p[2 * i + 1]) * t / 16.0 };
                    double d = steerN_mesh_wall_distance(m, x, NULL, NULL);
                    if (d < f.radius - 1e-6) broken("a path closer to a wall than its radius", d, f.radius);
                }
            }
        }
    }
    steerN_mesh_query_free(q);
}

static void roundtrip(const steerN_Mesh *m)
{
    steerS_Writer w;
    steerS_writer_init(&w, NULL, NULL);
    steerN_mesh_encode(m, &w);
    if (w.failed) {
        steerS_writer_free(&w);
        return;
    }
    char msg[200];
    steerS_Reader r;
    steerS_reader_init(&r, w.p, w.n, msg, sizeof msg);
    bool oom;
    steerN_Mesh *back = steerN_mesh_decode(&r, NULL, &oom);
    if (!back && !oom) broken("a built mesh's bytes do not load", (double)w.n, 0);
    if (back && steerN_mesh_hash(back) != steerN_mesh_hash(m)) broken("a mesh loads to another hash", 0, 0);
    steerN_mesh_free(back);
    steerS_writer_free(&w);
}

static void from_rings(const uint8_t *data, size_t size)
{
    NavmeshRings rings;
    steerN_MeshSpec spec = navmesh_rings(&rings, data, size);
    if (!spec.nrings) return;
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
    if (!m) {
        if (err.status == STEERN_MESH_INTERNAL) broken(err.message, 0, 0);
        return;
    }
    if (steerN_mesh_prepare(m) == 0 && m->ntri) {
        m->hash = steerN_mesh_hash(m);
        if (size >= 4) { // a one-way link between two points the bytes pick: paths may take it
            steerN_Link l = { .cost = 1, .enabled = true };
            steerN_mesh_random_point(m, data[0] / 256.0, data[1] / 256.0, 0.5, l.a);
            steerN_mesh_random_point(m, data[2] / 256.0, data[3] / 256.0, 0.5, l.b);
            if (steerN_link_add(m, &l, NULL) == STEERN_LINK_NOMEM) broken("out of memory adding a link", 0, 0);
        }
        roundtrip(m);
        check_paths(m, data, size);
    }
    steerN_mesh_free(m);
}

static void from_bytes(const uint8_t *data, size_t size)
{
    char msg[200];
    steerS_Reader r;
    steerS_reader_init(&r, data, size, msg, sizeof msg);
    bool oom;
    steerN_Mesh *m = steerN_mesh_decode(&r, NULL, &oom);
    if (!m) return;
    if (steerN_mesh_prepare(m) == 0 && m->ntri) check_paths(m, data, size);
    steerN_mesh_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (data[0] & 1) from_bytes(data + 1, size - 1);
    else from_rings(data + 1, size - 1);
    return 0;
}
