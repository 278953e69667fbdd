// SPDX-License-Identifier: MIT
// navobst_checks.h — the promises of obstacles that come and go
// (src/nav/mesh_dyn.h) that fuzz_navobst (a flat room) and fuzz_navfloors
// (meshes of two floors) both check: a point's place against an
// obstacle's polygon (nonzero winding), the derived data a change updated
// where it reached against a whole prepare's, and at the end a history
// that does not count (the same obstacles added at once to a fresh mesh
// give the same mesh) and bytes that load back. A broken promise aborts,
// saying which target and what.
#ifndef STEER_TESTS_NAVOBST_CHECKS_H
#define STEER_TESTS_NAVOBST_CHECKS_H

#include "nav/mesh.h"
#include "nav/mesh_dyn.h"
#include "nav/mesh_geom.h"
#include "core/bytes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *navobst_target; // the target's name, for its findings

static void broken(const char *what, double a, double b)
{
    fprintf(stderr, "%s: %s (%g, %g)\n", navobst_target, what, a, b);
    abort();
}

// The winding number of polygon o about p (nonzero: inside).
static int winding(const steerN_Obstacle *o, const double p[2])
{
    int w = 0;
    for (uint32_t i = 0; i < o->npt; i++) {
        const double *a = o->xy + 2 * i, *b = o->xy + 2 * ((i + 1) % o->npt);
        double cross = (b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1]);
        if (a[1] <= p[1] && b[1] > p[1] && cross > 0) w++;
        else if (a[1] > p[1] && b[1] <= p[1] && cross < 0) w--;
    }
    return w;
}

// The distance from p to polygon o's sides.
static double side_distance(const steerN_Obstacle *o, const double p[2])
{
    double best = INFINITY;
    for (uint32_t i = 0; i < o->npt; i++) {
        const double *a = o->xy + 2 * i, *b = o->xy + 2 * ((i + 1) % o->npt);
        double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
        double t = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        double d = hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
        if (d < best) best = d;
    }
    return best;
}

// m's derived data against a whole prepare of its live mesh.
static void check_prepared(const steerN_Mesh *m)
{
    steerN_Mesh *c = steerN_mesh_clone(m);
    if (!c) abort();
    c->grid_tris = m->grid_tris;
    steerN_mesh_set_metres(c);
    if (steerN_mesh_prepare(c)) abort();
    const char *diff = steerN_mesh_derived_diff(m, c);
    if (diff) {
        fprintf(stderr, "%s: the %s of a change's update is not a whole prepare's\n", navobst_target, diff);
        abort();
    }
    steerN_mesh_free(c);
}

// At the end: m's obstacles added at once, in order and on their layers,
// to `fresh` (the mesh m was before any, which this releases) give m's
// mesh and derived data; m's bytes load back to its hash.
static void check_end(const steerN_Mesh *m, steerN_Mesh *fresh)
{
    check_prepared(m);
    if (!fresh) abort();
    for (uint32_t k = 0; k < steerN_mesh_obstacle_count(m); k++) {
        const steerN_Obstacle *o = steerN_mesh_obstacle_at(m, k);
        uint32_t id;
        if (steerN_obstacle_add(fresh, o->xy, o->npt, o->area, &(steerN_Floor){ .layer = o->layer + 1 }, &id))
            broken("a fresh add failed", k, 0);
    }
    if (steerN_mesh_obstacle_count(m) && steerN_mesh_hash_known(fresh) != steerN_mesh_hash_known(m))
        broken("history changed the mesh", 0, 0);
    if (steerN_mesh_obstacle_count(m) && steerN_mesh_derived_diff(fresh, m))
        broken("history changed the derived data", 0, 0);
    steerN_mesh_release(fresh);
    steerS_Writer w;
    steerS_writer_init(&w, NULL, NULL);
    steerN_mesh_encode(m, &w);
    char msg[200];
    steerS_Reader r;
    steerS_reader_init(&r, w.p, w.n, msg, sizeof msg);
    bool oom;
    steerN_Mesh *back = steerN_mesh_decode(&r, NULL, &oom);
    if (!back || steerN_mesh_hash_known(back) != steerN_mesh_hash_known(m)) broken("bytes that do not load back", 0, 0);
    steerN_mesh_release(back);
    steerS_writer_free(&w);
}

#endif
