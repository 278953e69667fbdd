// SPDX-License-Identifier: MIT
// test_mesh_update.c — a mesh whose obstacles come and go is re-prepared
// only where a change reaches (src/nav/mesh_update.c), and that must be
// invisible: after every one of many random adds, moves (a crate pushed a
// few centimetres, or thrown metres) and removes, every derived array
// (widths, neighbours' edges, running areas, wall fronts, the locate and
// wall indexes) is bit for bit what a whole prepare of the same live mesh
// gives, on a level with areas (whose corners are worked out otherwise)
// and walls of every slant; and once every obstacle is gone, the derived
// data is the mesh-as-built's own. The same on a mesh of two floors (the
// building demo's): a crate pushed about the ground floor under the bridge
// and one about the first floor. And triangle numbers stay: a crate
// pushed 10,000 times does not grow the mesh nor renumber what it does
// not reach.
#include "nav/mesh.h"
#include "core/bytes.h"
#include "nav/mesh_dyn.h"
#include "nav/mesh_geom.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DEMOS_DIR
#define DEMOS_DIR "demos"
#endif

#define OPS 600
#define MAX_OBST 10

// A 40 m x 30 m hall: pillars (one slanted), a wall with a door gap, a mud patch (area 1).
static steerN_Mesh *hall(void)
{
    static const double xy[] = { 0,  0,  40, 0,  40, 30, 0,  30,   // outline
                                 6,  6,  8,  6,  8,  8,  6,  8,    // pillar
                                 20, 4,  23, 6,  21, 9,  18, 7,    // slanted pillar
                                 28, 0,  29, 0,  29, 12, 28, 12,   // wall, open above
                                 28, 15, 29, 15, 29, 30, 28, 30,   // wall, past the door
                                 10, 15, 18, 14, 19, 22, 11, 23 }; // mud
    static const uint32_t ends[] = { 4, 8, 12, 16, 20, 24 };
    static const int32_t roles[] = { STEERN_RING_OUTLINE,  STEERN_RING_OBSTACLE, STEERN_RING_OBSTACLE,
                                     STEERN_RING_OBSTACLE, STEERN_RING_OBSTACLE, 1 };
    static const char *names[] = { "default", "mud" };
    static const float costs[] = { 1, 3 };
    steerN_MeshSpec spec = { .xy = xy,
                             .ring_end = ends,
                             .ring_role = roles,
                             .nrings = 6,
                             .nareas = 2,
                             .area_names = names,
                             .area_costs = costs };
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, NULL);
    if (m && steerN_mesh_prepare(m)) {
        steerN_mesh_free(m);
        return NULL;
    }
    return m;
}

// What a whole prepare of m's live mesh gives against m's own: NULL when the same bits.
static const char *against_whole(const steerN_Mesh *m, steerN_Mesh **keep)
{
    steerN_Mesh *c = steerN_mesh_clone(m);
    if (!c) return "out of memory";
    c->grid_tris = m->grid_tris;
    steerN_mesh_set_metres(c);
    if (steerN_mesh_prepare(c)) {
        steerN_mesh_free(c);
        return "out of memory";
    }
    const char *diff = steerN_mesh_derived_diff(m, c);
    if (keep) *keep = c;
    else steerN_mesh_free(c);
    return diff;
}

static void test_update_is_a_whole_prepare(void)
{
    steerN_Mesh *m = hall();
    REQUIRE(m, "the hall does not build");
    steerN_Mesh *built = steerN_mesh_clone(m);
    REQUIRE(built && !steerN_mesh_prepare(built), "out of memory");
    uint32_t ids[MAX_OBST], n = 0, changes = 0, compared = 0;
    for (int op = 0; op < OPS && !FAILED(); op++) {
        double r = test_uniform(0, 1);
        steerN_ObstacleStatus st = STEERN_OBST_OK;
        const char *what = "";
        if (n == 0 || (r < 0.25 && n < MAX_OBST)) {
            // a box or a triangle, blocked or mud, anywhere (over walls, pillars and the edge too)
            double x = test_uniform(-1, 41), y = test_uniform(-1, 31), w = test_uniform(0.3, 3),
                   h = test_uniform(0.3, 3);
            double box[8] = { x, y, x + w, y, x + w, y + h, x, y + h };
            double tri[6] = { x, y, x + w, y + 0.3 * h, x + 0.2 * w, y + h };
            bool is_box = test_uniform(0, 1) < 0.6;
            int32_t area = test_uniform(0, 1) < 0.7 ? STEERN_OBST_BLOCKED : 1;
            st = steerN_obstacle_add(m, is_box ? box : tri, is_box ? 4 : 3, area, NULL, &ids[n]);
            if (!st) n++;
            what = "add";
        } else if (r < 0.9) {
            // pushed a few centimetres most times, thrown metres now and then
            uint32_t k = (uint32_t)test_uniform(0, n - 0.001);
            double far = test_uniform(0, 1) < 0.2 ? 4 : 0.08;
            st = steerN_obstacle_move(m, ids[k], test_uniform(-far, far), test_uniform(-far, far));
            what = "move";
        } else {
            uint32_t k = (uint32_t)test_uniform(0, n - 0.001);
            st = steerN_obstacle_remove(m, ids[k]);
            ids[k] = ids[--n];
            what = "remove";
        }
        CHECK(st == STEERN_OBST_OK || st == STEERN_OBST_BADPOINT, "op %d (%s): %s", op, what,
              steerN_obstacle_status_text(st));
        changes += st == STEERN_OBST_OK;
        const char *diff = against_whole(m, NULL);
        CHECK(!diff, "op %d (%s, %u obstacles): the %s differs from a whole prepare's", op, what, n, diff);
        compared++;
    }
    CHECK(changes > OPS / 2, "only %u of %d changes applied", changes, OPS);
    while (n && !FAILED()) CHECK(!steerN_obstacle_remove(m, ids[--n]), "a remove failed");
    const char *diff = steerN_mesh_derived_diff(m, built);
    CHECK(!diff && steerN_mesh_hash_known(m) == steerN_mesh_hash(built),
          "with every obstacle gone, the %s differs from the mesh as built", diff ? diff : "hash");
    printf("    %u changes, each compared with a whole prepare\n", compared);
    steerN_mesh_free(built);
    steerN_mesh_release(m);
}

// A crate pushed across the hall in 5 cm steps: every step's update is a whole prepare's.
static void test_pushed_crate(void)
{
    steerN_Mesh *m = hall();
    REQUIRE(m, "the hall does not build");
    double crate[8] = { 1, 12, 2, 12, 2, 13, 1, 13 };
    uint32_t id;
    REQUIRE(!steerN_obstacle_add(m, crate, 4, STEERN_OBST_BLOCKED, NULL, &id), "the crate does not go down");
    for (int i = 0; i < 760 && !FAILED(); i++) {
        CHECK(!steerN_obstacle_move(m, id, 0.05, i % 7 == 0 ? 0.01 : 0), "step %d: the move failed", i);
        const char *diff = against_whole(m, NULL);
        CHECK(!diff, "step %d: the %s differs from a whole prepare's", i, diff);
    }
    steerN_mesh_release(m);
}

// demos/building.navmesh, the baked two-storey building the demo ships.
static steerN_Mesh *building(void)
{
    FILE *f = fopen(DEMOS_DIR "/building.navmesh", "rb");
    if (!f) return NULL;
    static char buf[4 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    char msg[200] = "";
    steerS_Reader r;
    steerS_reader_init(&r, buf, n, msg, sizeof msg);
    bool oom;
    steerN_Mesh *m = steerN_mesh_decode(&r, NULL, &oom);
    if (!m) printf("    building.navmesh: %s\n", msg);
    return m;
}

static void test_pushed_crates_on_two_floors(void)
{
    steerN_Mesh *m = building();
    REQUIRE(m, "demos/building.navmesh does not load");
    REQUIRE(m->nlayers >= 2, "the building has %u layers", m->nlayers);
    // the ground floor's atrium, under the bridge; the first floor's corridor
    static const struct {
        double x, y;
        int32_t layer;
    } at[] = { { 15.4, 16.6, 0 }, { 3, 11, 1 } };
    uint32_t ids[2];
    for (int k = 0; k < 2; k++) {
        double c[8] = { at[k].x, at[k].y, at[k].x + 1, at[k].y, at[k].x + 1, at[k].y + 1, at[k].x, at[k].y + 1 };
        steerN_Floor f = { .layer = at[k].layer + 1 };
        steerN_ObstacleStatus st = steerN_obstacle_add(m, c, 4, STEERN_OBST_BLOCKED, &f, &ids[k]);
        REQUIRE(st == STEERN_OBST_OK, "crate %d: %s", k, steerN_obstacle_status_text(st));
        const char *diff = against_whole(m, NULL);
        CHECK(!diff, "crate %d put down: the %s differs from a whole prepare's", k, diff);
    }
    int compared = 0, moved = 0;
    for (int i = 0; i < 120 && !FAILED(); i++) {
        int k = i % 2;
        steerN_ObstacleStatus st = steerN_obstacle_move(m, ids[k], i % 40 < 20 ? 0.25 : -0.25, i % 7 == 0 ? 0.05 : 0);
        CHECK(st == STEERN_OBST_OK || st == STEERN_OBST_BADPOINT, "step %d: %s", i, steerN_obstacle_status_text(st));
        moved += st == STEERN_OBST_OK;
        const char *diff = against_whole(m, NULL);
        CHECK(!diff, "step %d (crate %d): the %s differs from a whole prepare's", i, k, diff);
        compared++;
    }
    CHECK(moved > 100, "only %d of the 120 moves applied", moved);
    printf("    %d moves on two floors (%d applied), each compared with a whole prepare\n", compared, moved);
    steerN_mesh_release(m);
}

// Triangle numbers stay: a crate pushed to and fro 10,000 times does not
// grow the mesh (the same place, the same slot count each time), every
// triangle no change reaches keeps its number and its vertices, and the
// slots a region left empty are never answered (locate, random points).
static void test_numbers_stay(void)
{
    // a 30 m x 12 m yard with a field of 6 x 6 posts (20 cm, a metre apart):
    // over the posts a cart takes the place of many triangles with fewer
    double xy[2 * (4 + 4 * 36)] = { 0, 0, 30, 0, 30, 12, 0, 12 };
    uint32_t ends[37] = { 4 };
    int32_t roles[37] = { STEERN_RING_OUTLINE };
    for (int k = 0; k < 36; k++) {
        double x = 3 + k % 6, y = 3 + k / 6, *p = xy + 8 + 8 * k;
        double sq[8] = { x, y, x + 0.2, y, x + 0.2, y + 0.2, x, y + 0.2 };
        memcpy(p, sq, sizeof sq);
        ends[k + 1] = 8 + 4 * (uint32_t)k;
        roles[k + 1] = STEERN_RING_OBSTACLE;
    }
    steerN_MeshSpec spec = { .xy = xy, .ring_end = ends, .ring_role = roles, .nrings = 37, .nareas = 1 };
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, NULL);
    REQUIRE(m && !steerN_mesh_prepare(m), "the yard does not build");
    uint32_t nbase = m->ntri;
    // a cart 3 m wide, from the yard's left over the posts and back
    double crate[8] = { 0.5, 4, 3.5, 4, 3.5, 7, 0.5, 7 };
    uint32_t id;
    REQUIRE(!steerN_obstacle_add(m, crate, 4, STEERN_OBST_BLOCKED, NULL, &id), "the crate does not go down");
    // a triangle far from the crate's way (the hall's far corner)
    int32_t far = steerN_mesh_locate(m, (double[2]){ 28, 1 });
    REQUIRE(far >= 0, "no ground at the far corner");
    uint32_t keep[3];
    memcpy(keep, m->tri + 3 * (size_t)far, sizeof keep);
    uint32_t at_start = m->ntri, vert_start = m->nvert, most = 0, dead_seen = 0;
    for (int i = 0; i < 10000 && !FAILED(); i++) {
        double dx = (i / 100) % 2 ? -0.05 : 0.05; // 5 m one way, 5 m back
        CHECK(!steerN_obstacle_move(m, id, dx, 0), "move %d failed", i);
        if (i % 200 == 50) { // over the posts: some slots dead
            for (uint32_t t = 0; t < m->ntri; t++) dead_seen += steerN_mesh_dead(m, t);
            const char *diff = against_whole(m, NULL);
            CHECK(!diff, "move %d: the %s differs from a whole prepare's", i, diff);
        }
        most = m->ntri > most ? m->ntri : most;
        if (i % 200 == 199) {
            CHECK(m->ntri == at_start && m->nvert == vert_start,
                  "move %d: back at the start with %u slots and %u vertices (first %u and %u)", i, m->ntri, m->nvert,
                  at_start, vert_start);
            for (uint32_t t = 0; t < m->ntri; t++) dead_seen += steerN_mesh_dead(m, t);
        }
    }
    CHECK(most < nbase + 64, "the slots grew to %u (the yard has %u)", most, nbase);
    CHECK(!memcmp(keep, m->tri + 3 * (size_t)far, sizeof keep), "the far corner's triangle changed");
    // the dead slots are never answered
    uint32_t dead = 0;
    for (uint32_t t = 0; t < m->ntri; t++) dead += steerN_mesh_dead(m, t);
    for (int k = 0; k < 4000 && !FAILED(); k++) {
        double p[2], q[2] = { test_uniform(0, 30), test_uniform(0, 12) };
        uint32_t t = steerN_mesh_random_point(m, test_uniform(0, 1), test_uniform(0, 1), test_uniform(0, 1), p);
        CHECK(!steerN_mesh_dead(m, t), "a random point in dead slot %u", t);
        int32_t u = steerN_mesh_locate(m, q);
        CHECK(u < 0 || !steerN_mesh_dead(m, (uint32_t)u), "located in dead slot %d", u);
    }
    const char *diff = against_whole(m, NULL);
    CHECK(!diff, "after 10,000 moves the %s differs from a whole prepare's", diff);
    CHECK(dead_seen > 0, "no slot was ever left empty: the test does not test it");
    printf("    %u slots at most (the yard %u), %u dead now, %u dead seen on the way\n", most, nbase, dead, dead_seen);
    steerN_mesh_release(m);
}

int main(void)
{
    RUN(test_update_is_a_whole_prepare);
    RUN(test_pushed_crate);
    RUN(test_pushed_crates_on_two_floors);
    RUN(test_numbers_stay);
    return check_report_("mesh_update");
}
