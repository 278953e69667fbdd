// SPDX-License-Identifier: MIT
// workloads.h — the fixed workloads of the C tests, built through the
// public API: the standard flock (docs/benchmarks.md) in 2D and 3D (any size), a crowd (avoid
// and arrive in a priority, collisions, posts), crafts turning among walls
// and obstacles in 2D and 3D, and the pipeline's constraints. test_hashes
// prints their hashes for comparing builds and machines; test_threads runs
// them on several thread counts. Each builder takes a base descriptor for
// what the workload leaves open (threads, a job system, the stuck watch,
// collisions); NULL gives the workload as test_hashes has always run it.
#ifndef STEER_TEST_WORKLOADS_H
#define STEER_TEST_WORKLOADS_H

#include "steer.h"
#include "core/pmath.h"
#include "core/rng.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

// The inputs come from xorshift32 (the standard flock's generator, the engine's
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

// A world of the workload's own options over `base` (NULL: all defaults),
// whose other fields (threads, a job system, hooks, stuck watch) it keeps;
// base->collide turns collisions on where the workload has none.
static steer_World *world(const steer_WorldDesc *base, int dim, double size, bool wrap, bool collide, uint64_t seed)
{
    steer_WorldDesc wd = base ? *base : (steer_WorldDesc){ 0 };
    wd.dim = dim;
    for (int i = 0; i < 3; i++) wd.size[i] = i < dim && size > 0 ? size : 0;
    wd.wrap = wrap;
    wd.collide = collide || wd.collide;
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

// The standard flock of n agents: separation, alignment, cohesion and wander
// on a torus at 10 agents per circle of radius 5 (a sphere of radius 5 in
// 3D); collide adds the non-penetration pass.
static steer_World *flock_world(const steer_WorldDesc *base, int dim, int n, bool collide)
{
    double L = dim == 2 ? sqrt(n * PI * 25.0 / 10.0) : steerM_root(n * (4.0 / 3.0) * PI * 125.0 / 10.0, 3);
    steer_World *w = world(base, dim, L, true, collide, 12345);
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
    for (int i = 0; i < n; i++) {
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
static steer_World *flock2d(const steer_WorldDesc *base) { return flock_world(base, 2, 1000, false); }
static steer_World *flock3d(const steer_WorldDesc *base) { return flock_world(base, 3, 1000, false); }

// Two groups crossing through a field of posts in an unbounded world with
// collisions on: each agent avoids posts, then other agents, then arrives
// at its own target on the far side.
static steer_World *crowd(const steer_WorldDesc *base)
{
    steer_World *w = world(base, 2, 0, false, true, 7);
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
static steer_World *crafts2d(const steer_WorldDesc *base)
{
    steer_World *w = world(base, 2, 0, false, false, 3);
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
static steer_World *crafts3d(const steer_WorldDesc *base)
{
    steer_World *w = world(base, 3, 0, false, false, 11);
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
static steer_World *pipeline_world(const steer_WorldDesc *base, int dim)
{
    steer_World *w = world(base, dim, 0, false, false, 23);
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
static steer_World *pipeline2d(const steer_WorldDesc *base) { return pipeline_world(base, 2); }
static steer_World *pipeline3d(const steer_WorldDesc *base) { return pipeline_world(base, 3); }

typedef struct Workload {
    const char *name;
    steer_World *(*make)(const steer_WorldDesc *base);
    int ticks;
} Workload;
static const Workload workloads[] = {
    { "flock2d", flock2d, 300 },       { "flock3d", flock3d, 200 },   { "crowd", crowd, 600 },
    { "crafts2d", crafts2d, 900 },     { "crafts3d", crafts3d, 900 }, { "pipeline2d", pipeline2d, 900 },
    { "pipeline3d", pipeline3d, 900 },
};
enum { NWORK = sizeof workloads / sizeof workloads[0] };

#endif
