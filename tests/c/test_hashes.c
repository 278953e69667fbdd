// SPDX-License-Identifier: MIT
// test_hashes.c — fixed workloads through the C API, one world hash each,
// for comparing builds and machines (tools/cross-check.sh runs this program
// on x86-64 and, cross-compiled, on aarch64 under qemu: the lines must be
// equal). The workloads reach every transcendental call of the core: the
// flock of BENCH.md in 2D and 3D (wander), a crowd (avoid_agents and arrive
// in a priority, collisions, obstacles), crafts turning (directed seek,
// face, wander's turn variant, walls and obstacles in 2D and 3D) and the
// pipeline's constraints. As a test it checks what must hold on any
// machine: a second run gives the same hash, STEER_NO_AVX2=1 gives the same
// bits, and nothing leaves the world or turns into NaN.
//   test-hashes            the checks, then "name ticks hash" per workload
//   test-hashes --print    only the lines
#include "steer.h"
#include "check.h"
#include "core/pmath.h"
#include "core/rng.h"
#include "core/world.h" // w->wide: whether a world takes the AVX2 pass

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

// The inputs come from xorshift32 (BENCH.md's generator, the engine's
// own) and pmath, so they are the same bits on every machine, as the
// engine's arithmetic is.
static double unit(uint32_t *s) { return (double)steer_rng32_unit(s); }
static double between(uint32_t *s, double lo, double hi) { return lo + (hi - lo) * unit(s); }

static steer_Behavior *leaf(const char *kind)
{
    steer_Behavior *b = NULL;
    if (steer_behavior_new(kind, &b) != STEER_OK) {
        printf("no behaviour kind %s\n", kind);
        exit(EXIT_FAILURE);
    }
    return b;
}
static void num(steer_Behavior *b, const char *field, double v)
{
    if (steer_behavior_set_number(b, field, v) != STEER_OK) {
        printf("%s.%s = %g: %s\n", steer_behavior_kind(b), field, v, steer_behavior_error(b));
        exit(EXIT_FAILURE);
    }
}
// Adds kid to parent (with a weight, or into a named list) and drops our reference.
static void adopt(steer_Behavior *parent, steer_Behavior *kid, double weight)
{
    if (steer_behavior_add_child(parent, kid, weight) != STEER_OK) exit(EXIT_FAILURE);
    steer_behavior_release(kid);
}
// A priority of two or three children (c NULL: two), in that order.
static steer_Behavior *priority_of(steer_Behavior *a, steer_Behavior *b, steer_Behavior *c)
{
    steer_Behavior *p = leaf("priority");
    adopt(p, a, 1);
    adopt(p, b, 1);
    if (c) adopt(p, c, 1);
    return p;
}
static void adopt_to(steer_Behavior *parent, const char *field, steer_Behavior *kid)
{
    if (steer_behavior_add_child_to(parent, field, kid) != STEER_OK) exit(EXIT_FAILURE);
    steer_behavior_release(kid);
}

static steer_World *world(int dim, double size, bool wrap, bool collide, uint64_t seed)
{
    steer_WorldDesc wd = { 0 };
    wd.dim = dim;
    for (int i = 0; i < dim && size > 0; i++) wd.size[i] = size;
    wd.wrap = wrap;
    wd.collide = collide;
    wd.seed = seed;
    wd.no_record = true;
    steer_World *w = NULL;
    if (steer_world_new(&wd, &w) != STEER_OK) exit(EXIT_FAILURE);
    return w;
}

static steer_Agent spawn(steer_World *w, const double p[3], const double v[3], double max_speed, double max_force,
                         steer_Behavior *brain)
{
    steer_AgentDesc d = { .position = { p[0], p[1], p[2] },
                          .velocity = { v[0], v[1], v[2] },
                          .mass = 1,
                          .max_speed = max_speed,
                          .max_force = max_force,
                          .radius = 0.5,
                          .brain = brain };
    steer_Agent a = STEER_NO_AGENT;
    if (steer_spawn(w, &d, &a) != STEER_OK) exit(EXIT_FAILURE);
    return a;
}

// n posts of radius r in a row: x0 + dx * i, y0 + dy * (i % period).
static void posts(steer_World *w, int n, double x0, double dx, double y0, double dy, int period, double r)
{
    for (int i = 0; i < n; i++) {
        double c[3] = { x0 + dx * i, y0 + dy * (i % period), 0 };
        steer_add_circle(w, c, r, NULL);
    }
}

// ---- the workloads -------------------------------------------------------

// BENCH.md's flock: separation, alignment, cohesion and wander on a torus
// at 10 agents per circle of radius 5 (a sphere of radius 5 in 3D).
static steer_World *flock(int dim)
{
    enum { N = 1000 };
    double L = dim == 2 ? sqrt(N * PI * 25.0 / 10.0) : steerM_root(N * (4.0 / 3.0) * PI * 125.0 / 10.0, 3);
    steer_World *w = world(dim, L, true, false, 12345);
    steer_Behavior *blend = leaf("blend"), *sep = leaf("separation"), *ali = leaf("alignment");
    steer_Behavior *coh = leaf("cohesion"), *wan = leaf("wander");
    num(sep, "radius", 2);
    num(ali, "radius", 5);
    num(coh, "radius", 5);
    num(wan, "radius", 1);
    num(wan, "distance", 5);
    num(wan, "jitter", 5);
    adopt(blend, sep, 1.5);
    adopt(blend, ali, 1.0);
    adopt(blend, coh, 1.0);
    adopt(blend, wan, 0.2);
    uint32_t s = 12345;
    for (int i = 0; i < N; i++) {
        double p[3] = { unit(&s) * L, unit(&s) * L, dim == 3 ? unit(&s) * L : 0 }, v[3] = { 0, 0, 0 };
        float sn, cs, sp = 0.0f, cp = 1.0f;
        steerM_sincosf((float)(unit(&s) * 2 * PI), &sn, &cs);
        if (dim == 3) steerM_sincosf((float)(unit(&s) * PI - PI / 2), &sp, &cp);
        v[0] = (double)cs * cp;
        v[1] = (double)sn * cp;
        v[2] = sp;
        steer_Agent a = spawn(w, p, v, 2, 0.5, blend);
        uint32_t own = steer_rng32(&s);
        steer_agent_set_rng(w, a, own ? own : 0x9E3779B9u);
    }
    steer_behavior_release(blend);
    return w;
}
static steer_World *flock2d(void) { return flock(2); }
static steer_World *flock3d(void) { return flock(3); }

// Two groups crossing through a field of posts in an unbounded world with
// collisions on: each agent avoids posts, then other agents, then arrives
// at its own target on the far side.
static steer_World *crowd(void)
{
    steer_World *w = world(2, 0, false, true, 7);
    posts(w, 5, 20, 6, 3, 4, 3, 1.5);
    steer_Behavior *agents = leaf("avoid_agents"), *arrive = leaf("arrive");
    num(agents, "responsibility", 0.5);
    num(arrive, "slow_radius", 4);
    steer_Behavior *pri = priority_of(leaf("avoid_obstacles"), agents, arrive);
    uint32_t s = 99;
    for (int i = 0; i < 100; i++) {
        bool east = i % 2 == 0;
        double p[3] = { east ? between(&s, 0, 8) : between(&s, 42, 50), between(&s, -10, 16), 0 };
        double v[3] = { east ? 1 : -1, 0, 0 }, goal[3] = { east ? 50 : 0, between(&s, -10, 16), 0 };
        steer_Agent a = spawn(w, p, v, 2, 3, pri);
        steer_agent_set_target(w, a, goal, STEER_NO_AGENT);
    }
    steer_behavior_release(pri);
    return w;
}

// Crafts with turn limits in a walled 2D arena: some fly directed seek to
// a point and heading, some wander (turn variant) and face their targets,
// all feel the walls with whiskers and avoid the posts.
static steer_World *crafts2d(void)
{
    steer_World *w = world(2, 0, false, false, 3);
    const double corner[4][3] = { { -5, -5, 0 }, { 105, -5, 0 }, { 105, 105, 0 }, { -5, 105, 0 } };
    for (int i = 0; i < 4; i++) steer_add_wall(w, corner[i], corner[(i + 1) % 4], NULL);
    const double inner[2][3] = { { 30, 50, 0 }, { 70, 50, 0 } };
    steer_add_wall(w, inner[0], inner[1], NULL);
    posts(w, 4, 20, 20, 25, 50, 2, 3);
    steer_Behavior *walls = leaf("avoid_walls"), *ds = leaf("directed_seek");
    num(walls, "whiskers", 5);
    num(walls, "length", 8);
    const double heading[3] = { 0, 1, 0 };
    steer_behavior_set_vector(ds, "heading", heading);
    num(ds, "behind", 4);
    steer_Behavior *seeker = priority_of(walls, leaf("avoid_obstacles"), ds);
    steer_Behavior *roamer = leaf("blend"), *walls2 = leaf("avoid_walls"), *wan = leaf("wander"), *face = leaf("face");
    steer_behavior_set_choice(wan, "variant", "turn");
    num(wan, "max_turn_rate", 1.5);
    num(face, "turn_rate", 2);
    adopt(roamer, walls2, 2);
    adopt(roamer, wan, 1);
    adopt(roamer, face, 0.5);
    steer_Behavior *look = leaf("look_where_going");
    adopt(roamer, look, 0.1);
    uint32_t s = 5;
    steer_CraftDesc craft = { .model = STEER_MODEL_CRAFT, .min_speed = 2, .min_turn_radius = 4, .max_turn_accel = 20 };
    for (int i = 0; i < 40; i++) {
        double p[3] = { between(&s, 5, 95), between(&s, 5, 95), 0 };
        double goal[3] = { between(&s, 5, 95), between(&s, 5, 95), 0 };
        float sn, cs;
        steerM_sincosf((float)between(&s, -PI, PI), &sn, &cs);
        double v[3] = { 5.0 * cs, 5.0 * sn, 0 };
        steer_Agent a = spawn(w, p, v, 8, 12, i % 2 ? seeker : roamer);
        steer_agent_set_target(w, a, goal, STEER_NO_AGENT);
        if (i % 4 != 3) steer_agent_set_craft(w, a, &craft);
    }
    steer_behavior_release(seeker);
    steer_behavior_release(roamer);
    return w;
}

// 3D crafts in a box: directed seek and wander (circle, on the sphere)
// among spheres, kept inside by contain.
static steer_World *crafts3d(void)
{
    steer_World *w = world(3, 0, false, false, 11);
    for (int i = 0; i < 6; i++) {
        double c[3] = { 20 + 12 * i, 50 + 10 * (i % 3 - 1), 40 + 8 * (i % 2) };
        steer_add_circle(w, c, 4, NULL);
    }
    const double floor_point[3] = { 0, 0, 0 }, up[3] = { 0, 0, 1 };
    steer_add_plane(w, floor_point, up, NULL);
    steer_Behavior *ds = leaf("directed_seek");
    const double heading[3] = { 1, 0, 0.2 };
    steer_behavior_set_vector(ds, "heading", heading);
    steer_Behavior *seeker = priority_of(leaf("avoid_obstacles"), leaf("avoid_walls"), ds);
    steer_Behavior *roamer = leaf("blend"), *obs2 = leaf("avoid_obstacles"), *wan = leaf("wander");
    steer_Behavior *face = leaf("face");
    adopt(roamer, obs2, 2);
    adopt(roamer, wan, 1);
    adopt(roamer, face, 0.3);
    uint32_t s = 17;
    steer_CraftDesc craft = { .model = STEER_MODEL_CRAFT, .min_speed = 3, .min_turn_radius = 6, .max_turn_accel = 30 };
    for (int i = 0; i < 40; i++) {
        double p[3] = { between(&s, 0, 100), between(&s, 20, 80), between(&s, 10, 70) };
        double goal[3] = { between(&s, 0, 100), between(&s, 20, 80), between(&s, 10, 70) };
        double v[3] = { between(&s, -6, 6), between(&s, -6, 6), between(&s, -2, 2) };
        steer_Agent a = spawn(w, p, v, 10, 15, i % 2 ? seeker : roamer);
        steer_agent_set_target(w, a, goal, STEER_NO_AGENT);
        if (i % 3 != 2) steer_agent_set_craft(w, a, &craft);
    }
    // and three point masses dead on for a sphere's centre: no side to
    // prefer, so avoid_obstacles draws one around the axis
    steer_Behavior *straight = priority_of(leaf("avoid_obstacles"), leaf("arrive"), NULL);
    for (int i = 0; i < 3; i++) {
        double p[3] = { 8 + 12 * i - 20, 50 + 10 * (i % 3 - 1), 40 + 8 * (i % 2) }, v[3] = { 5, 0, 0 };
        double goal[3] = { p[0] + 60, p[1], p[2] };
        steer_Agent a = spawn(w, p, v, 6, 10, straight);
        steer_agent_set_target(w, a, goal, STEER_NO_AGENT);
    }
    steer_behavior_release(straight);
    steer_behavior_release(seeker);
    steer_behavior_release(roamer);
    return w;
}

// The pipeline: a goal across posts and a wall, reached around them by
// the obstacle and wall constraints, in 2D and 3D.
static steer_World *pipeline_world(int dim)
{
    steer_World *w = world(dim, 0, false, false, 23);
    posts(w, 3, 10, 8, -0.5, 0.5, 3, 2);
    if (dim == 2) {
        const double a[3] = { 40, -6, 0 }, b[3] = { 40, 3, 0 };
        steer_add_wall(w, a, b, NULL);
    }
    steer_Behavior *pipe = leaf("pipeline");
    adopt_to(pipe, "constraints", leaf("avoid_obstacle_constraint"));
    if (dim == 2) adopt_to(pipe, "constraints", leaf("wall_constraint"));
    uint32_t s = 29;
    for (int i = 0; i < 30; i++) {
        double p[3] = { between(&s, -4, 0), between(&s, -6, 6), dim == 3 ? between(&s, -2, 2) : 0 };
        double goal[3] = { between(&s, 50, 56), between(&s, -6, 6), dim == 3 ? between(&s, -2, 2) : 0 };
        double v[3] = { 0, 0, 0 };
        steer_Agent a = spawn(w, p, v, 3, 6, pipe);
        steer_agent_set_target(w, a, goal, STEER_NO_AGENT);
    }
    steer_behavior_release(pipe);
    return w;
}
static steer_World *pipeline2d(void) { return pipeline_world(2); }
static steer_World *pipeline3d(void) { return pipeline_world(3); }

typedef struct Workload {
    const char *name;
    steer_World *(*make)(void);
    int ticks;
} Workload;
static const Workload workloads[] = {
    { "flock2d", flock2d, 300 },       { "flock3d", flock3d, 200 },   { "crowd", crowd, 600 },
    { "crafts2d", crafts2d, 900 },     { "crafts3d", crafts3d, 900 }, { "pipeline2d", pipeline2d, 900 },
    { "pipeline3d", pipeline3d, 900 },
};
enum { NWORK = sizeof workloads / sizeof workloads[0] };

static uint64_t run(const Workload *wl, int *alive, int *finite, int *moved)
{
    steer_World *w = wl->make();
    int n = steer_world_count(w);
    steer_Agent *ids = malloc(sizeof *ids * (size_t)n);
    double(*p0)[3] = malloc(sizeof *p0 * (size_t)n);
    if (!ids || !p0) exit(EXIT_FAILURE);
    steer_world_agents(w, ids, n);
    for (int i = 0; i < n; i++) steer_agent_vec(w, ids[i], STEER_PROP_POSITION, p0[i]);
    if (steer_world_step(w, wl->ticks) != STEER_OK) *alive = -1;
    *finite = *moved = 0;
    for (int i = 0; i < n; i++) {
        double p[3], v[3];
        if (steer_agent_vec(w, ids[i], STEER_PROP_POSITION, p) != STEER_OK) continue;
        steer_agent_vec(w, ids[i], STEER_PROP_VELOCITY, v);
        *finite += isfinite(p[0] + p[1] + p[2] + v[0] + v[1] + v[2]);
        *moved += p[0] != p0[i][0] || p[1] != p0[i][1] || p[2] != p0[i][2];
    }
    if (*alive >= 0) *alive = steer_world_count(w) == n ? n : steer_world_count(w);
    uint64_t h = steer_world_hash(w);
    free(ids);
    free(p0);
    steer_world_free(w);
    return h;
}

static uint64_t hashes[NWORK];

// On any machine: the same hash again, every agent alive and finite, and
// moving (a frozen world would compare equal everywhere, proving nothing).
static void test_workloads(void)
{
    for (int k = 0; k < NWORK; k++) {
        int alive = 0, finite, moved, alive2 = 0, f2, m2;
        hashes[k] = run(&workloads[k], &alive, &finite, &moved);
        CHECK(alive > 0, "%s: the step failed or lost agents (%d left)", workloads[k].name, alive);
        CHECK(finite == alive, "%s: %d of %d agents not finite", workloads[k].name, alive - finite, alive);
        CHECK(moved >= alive * 9 / 10, "%s: only %d of %d agents moved", workloads[k].name, moved, alive);
        CHECK(run(&workloads[k], &alive2, &f2, &m2) == hashes[k], "%s: another hash on a second run",
              workloads[k].name);
    }
}

// Each workload stopped halfway, saved, loaded into a new world and run to
// the end: the uninterrupted hash, and the loaded world saves to the same
// bytes (on aarch64 too: the cross build runs this file).
static void test_snapshot_halfway(void)
{
    for (int k = 0; k < NWORK; k++) {
        const Workload *wl = &workloads[k];
        steer_World *w = wl->make(), *back = NULL;
        REQUIRE(steer_world_step(w, wl->ticks / 2) == STEER_OK, "%s: step", wl->name);
        size_t len = 0, len2 = 0;
        steer_world_save_buffer(w, NULL, 0, &len);
        unsigned char *bytes = malloc(len), *again = malloc(len);
        REQUIRE(bytes && again && steer_world_save_buffer(w, bytes, len, &len) == STEER_OK, "%s: save", wl->name);
        steer_world_free(w);
        char err[256];
        REQUIRE(steer_world_load(NULL, bytes, len, &back, err, sizeof err) == STEER_OK, "%s: load: %s", wl->name, err);
        CHECK(steer_world_save_buffer(back, again, len, &len2) == STEER_OK && len2 == len &&
                  memcmp(bytes, again, len) == 0,
              "%s: save -> load -> save gives the same bytes", wl->name);
        REQUIRE(steer_world_step(back, wl->ticks - wl->ticks / 2) == STEER_OK, "%s: step on", wl->name);
        CHECK(steer_world_hash(back) == hashes[k], "%s: %016llx after the load, %016llx uninterrupted", wl->name,
              (unsigned long long)steer_world_hash(back), (unsigned long long)hashes[k]);
        steer_world_free(back);
        free(bytes);
        free(again);
    }
}

// STEER_NO_AVX2=1, read when a world is made, takes the SSE neighbour pass:
// the same bits (where the CPU has no AVX2 both runs take it).
static void test_no_avx2(void)
{
    const char *was = getenv("STEER_NO_AVX2");
    char saved[16] = "";
    if (was) snprintf(saved, sizeof saved, "%s", was);
    unsetenv("STEER_NO_AVX2");
    steer_World *w = world(2, 10, true, false, 1);
    bool wide = w->wide;
    steer_world_free(w);
    setenv("STEER_NO_AVX2", "1", 1);
    w = world(2, 10, true, false, 1);
    CHECK(!w->wide, "STEER_NO_AVX2=1: the world still takes the AVX2 pass");
    steer_world_free(w);
    setenv("STEER_NO_AVX2", "0", 1);
    w = world(2, 10, true, false, 1);
    CHECK(w->wide == wide, "STEER_NO_AVX2=0 should leave the AVX2 pass as the CPU allows");
    steer_world_free(w);
    setenv("STEER_NO_AVX2", "1", 1);
    for (int k = 0; k < 2; k++) { // the flocks: the neighbour pass
        int alive = 0, f, m;
        uint64_t h = run(&workloads[k], &alive, &f, &m);
        CHECK(h == hashes[k], "%s: %016llx with STEER_NO_AVX2=1, %016llx without", workloads[k].name,
              (unsigned long long)h, (unsigned long long)hashes[k]);
    }
    if (was) setenv("STEER_NO_AVX2", saved, 1);
    else unsetenv("STEER_NO_AVX2");
    if (!wide) printf("    (no AVX2 here: both runs took the SSE pass)\n");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--print") == 0) {
        for (int k = 0; k < NWORK; k++) {
            int alive = 0, f, m;
            uint64_t h = run(&workloads[k], &alive, &f, &m);
            printf("%s %d %016llx\n", workloads[k].name, workloads[k].ticks, (unsigned long long)h);
        }
        return 0;
    }
    RUN(test_workloads);
    RUN(test_snapshot_halfway);
    RUN(test_no_avx2);
    for (int k = 0; k < NWORK; k++)
        printf("%s %d %016llx\n", workloads[k].name, workloads[k].ticks, (unsigned long long)hashes[k]);
    return check_report_("hashes");
}
