// SPDX-License-Identifier: MIT
// fuzz_navobst.c — libFuzzer: obstacles that come and go on a navigation
// mesh (src/nav/mesh_dyn.h). A 20 m x 20 m room with two pillars, then the
// bytes as operations, 4 bytes each: add a blocked polygon (3 to 6 points
// on a 0.25 m lattice, any winding, crossing itself, walls and others as
// it falls), add a box, move one (up to +-1.6 m, odd amounts too), remove
// one. After each change, paths between points the bytes give, for radius
// 0 and 0.3 (both ends on the mesh), must keep out of every obstacle (its
// polygon, nonzero winding, give or take the 1 mm rounding) and, when
// their ends are the radius clear of every wall, never come nearer than
// the radius to a wall, an obstacle's sides included (sampled along each
// segment); every fourth change and at the end, the derived data a move
// updated only where the change reached (mesh_update.c) must be the bits
// a whole prepare gives; at the end the mesh, and its derived data, must
// be the ones the same obstacles give added at once to a fresh room
// (history does not count), and its bytes must load back to the same
// hash. A broken promise aborts.
#include "navobst_checks.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OBST 12

static steerN_Mesh *room(void)
{
    static const double xy[] = { 0, 0, 20, 0, 20, 20, 0, 20, 5, 5, 6, 5, 6, 6, 5, 6, 12, 9, 14, 9, 14, 13, 12, 13 };
    static const uint32_t ends[] = { 4, 8, 12 };
    static const int32_t roles[] = { STEERN_RING_OUTLINE, STEERN_RING_OBSTACLE, STEERN_RING_OBSTACLE };
    steerN_MeshSpec spec = { .xy = xy, .ring_end = ends, .ring_role = roles, .nrings = 3, .nareas = 1 };
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, NULL);
    if (m && steerN_mesh_prepare(m)) {
        steerN_mesh_free(m);
        return NULL;
    }
    if (m) m->hash = steerN_mesh_hash(m);
    return m;
}

// The clearance of p from every obstacle: negative inside one.
static double clearance(const steerN_Mesh *m, const double p[2])
{
    double best = INFINITY;
    for (uint32_t k = 0; k < steerN_mesh_obstacle_count(m); k++) {
        const steerN_Obstacle *o = steerN_mesh_obstacle_at(m, k);
        double d = side_distance(o, p);
        if (winding(o, p)) d = -d;
        if (d < best) best = d;
    }
    return best;
}

// The obstacles and the path, for a finding.
static void show(const steerN_Mesh *m, const double *p, uint32_t n, double r)
{
    for (uint32_t k = 0; k < steerN_mesh_obstacle_count(m); k++) {
        const steerN_Obstacle *o = steerN_mesh_obstacle_at(m, k);
        fprintf(stderr, "obstacle %u:", o->id);
        for (uint32_t i = 0; i < o->npt; i++) fprintf(stderr, " (%.17g, %.17g)", o->xy[2 * i], o->xy[2 * i + 1]);
        fprintf(stderr, "\n");
    }
    fprintf(stderr, "path for radius %g:", r);
    for (uint32_t i = 0; i < n; i++) fprintf(stderr, " (%.17g, %.17g)", p[2 * i], p[2 * i + 1]);
    fprintf(stderr, "\n");
}

static void check_paths(const steerN_Mesh *m, steerN_MeshQuery *q, const uint8_t *data, size_t size)
{
    for (size_t k = 0; k + 4 <= size && k < 24; k += 4) {
        double a[2] = { 0.5 + data[k] * (19.0 / 256.0), 0.5 + data[k + 1] * (19.0 / 256.0) };
        double b[2] = { 0.5 + data[k + 2] * (19.0 / 256.0), 0.5 + data[k + 3] * (19.0 / 256.0) };
        if (!steerN_mesh_contains(m, a, 0) || !steerN_mesh_contains(m, b, 0)) continue; // (a path may start off it)
        for (int ri = 0; ri < 2; ri++) {
            steerN_MeshFilter f = { .radius = ri ? 0.3 : 0 };
            if (steerN_mesh_path(q, m, a, b, &f) != STEERN_PATH_FOUND) continue;
            uint32_t n;
            const double *p = steerN_mesh_path_points(q, &n);
            // 3 mm: the footprint is quantized to 1 mm and the mesh's walls
            // are its snap-rounded sides
            double slack = 3e-3;
            bool ends_clear = steerN_mesh_contains(m, a, f.radius) && steerN_mesh_contains(m, b, f.radius);
            for (uint32_t i = 0; i + 1 < n; i++)
                for (int t = 0; t <= 32; t++) {
                    double x[2] = { p[2 * i] + (p[2 * i + 2] - p[2 * i]) * t / 32.0,
                                    p[2 * i + 1] + (p[2 * i + 3] - p[2 * i + 1]) * t / 32.0 };
                    double c = clearance(m, x);
                    if (c < -slack) {
                        show(m, p, n, f.radius);
                        broken("a path through an obstacle", x[0], x[1]);
                    }
                    double d = steerN_mesh_wall_distance(m, x, NULL, NULL);
                    if (ends_clear && d < f.radius - 1e-6) {
                        show(m, p, n, f.radius);
                        broken("a path nearer a wall (an obstacle's side too) than the radius", d, f.radius);
                    }
                }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    navobst_target = "fuzz_navobst";
    steerN_Mesh *m = room();
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    if (!m || !q) abort();
    uint32_t ids[MAX_OBST];
    int n = 0, changes = 0;
    for (size_t k = 0; k + 4 <= size && k < 4 * 24; k += 4) {
        const uint8_t *b = data + k;
        steerN_ObstacleStatus st = STEERN_OBST_OK;
        int op = b[0] % 4;
        if ((op == 0 || op == 1) && n < MAX_OBST) {
            double xy[12];
            uint32_t np = 4;
            double x = (b[1] % 80) * 0.25, y = (b[2] % 80) * 0.25;
            if (op == 0) {
                np = 3 + b[3] % 4;
                for (uint32_t i = 0; i < np; i++) {
                    uint8_t r = data[(k + 5 + i) % size];
                    xy[2 * i] = x + (r % 16) * 0.25 - 2;
                    xy[2 * i + 1] = y + (r / 16) * 0.25 - 2;
                }
            } else {
                double w = 0.25 + (b[3] % 12) * 0.25, h = 0.25 + (b[3] / 12 % 12) * 0.25;
                const double c[8] = { x, y, x + w, y, x + w, y + h, x, y + h };
                memcpy(xy, c, sizeof c);
            }
            uint32_t id;
            st = steerN_obstacle_add(m, xy, np, STEERN_OBST_BLOCKED, NULL, &id);
            if (st == STEERN_OBST_OK) ids[n++] = id;
            else if (st != STEERN_OBST_BADSHAPE) broken("an add failed", st, np);
        } else if (op == 2 && n > 0) {
            double dx = ((int)b[2] - 128) / 80.0, dy = ((int)b[3] - 128) / 80.0;
            st = steerN_obstacle_move(m, ids[b[1] % n], dx, dy);
            if (st) broken("a move failed", st, 0);
        } else if (op == 3 && n > 0) {
            int i = b[1] % n;
            st = steerN_obstacle_remove(m, ids[i]);
            if (st) broken("a remove failed", st, 0);
            if (steerN_obstacle_remove(m, ids[i]) != STEERN_OBST_GONE) broken("removed twice", ids[i], 0);
            ids[i] = ids[--n];
        } else {
            continue;
        }
        check_paths(m, q, data + k, size - k);
        if (++changes % 4 == 0) check_prepared(m);
    }
    check_end(m, room());
    steerN_mesh_query_free(q);
    steerN_mesh_release(m);
    return 0;
}
