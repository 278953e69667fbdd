// SPDX-License-Identifier: MIT
// test_sim.c — properties of the tick as a whole: determinism, the
// vehicle limits, freedom from NaN and from allocation after a warm-up,
// and rates or craft limits a float cannot hold refused.
//
// Replays, networking and the scenario tests rely on "same seed, same
// inputs, same build: the same trajectory, bit for bit"; games rely on an
// agent never moving faster than max_speed nor accelerating harder than
// max_force / mass; and a single NaN spreads through the neighbour sums to
// the whole world, so coincident agents (the usual source) must not make one.
#include "steer.h"
#include "check.h"
#include "make.h"
#include "behaviors/behavior.h" // no_batch: the one-agent-at-a-time path, to compare with

#include <math.h>
#include <stdbool.h>
#include <string.h>

static steer_Behavior *behavior(const char *kind)
{
    steer_Behavior *b = NULL;
    steer_behavior_new(kind, &b);
    return b;
}

static steer_Behavior *with_radius(const char *kind, double r)
{
    steer_Behavior *b = behavior(kind);
    steer_behavior_set_number(b, "radius", r);
    return b;
}

// separation + alignment + cohesion + wander, the flocking brain of the demos.
static steer_Behavior *flock_brain(void)
{
    steer_Behavior *blend = behavior("blend");
    steer_Behavior *kids[4] = { with_radius("separation", 3), with_radius("alignment", 6), with_radius("cohesion", 6),
                                behavior("wander") };
    const double weights[4] = { 1.5, 1.0, 1.0, 0.5 };
    for (int i = 0; i < 4; i++) {
        steer_behavior_add_child(blend, kids[i], weights[i]);
        steer_behavior_release(kids[i]);
    }
    return blend;
}

static steer_World *flock_world(uint64_t seed, int reorder_period, steer_Behavior *brain, int n, steer_Agent *ids)
{
    steer_WorldDesc wd = { 0 };
    wd.size[0] = wd.size[1] = 80;
    wd.wrap = true;
    wd.seed = seed;
    wd.reorder_period = reorder_period;
    steer_World *w = NULL;
    if (steer_world_new(&wd, &w) != STEER_OK) return NULL;
    // the inputs do not depend on the seed: only the world's streams do
    unsigned long long saved = test_rng_state_;
    test_rng_state_ = 99;
    for (int i = 0; i < n; i++) {
        steer_AgentDesc d = { 0 };
        d.position[0] = test_uniform(0, 80);
        d.position[1] = test_uniform(0, 80);
        double a = test_uniform(0, 6.283185307179586);
        d.velocity[0] = 2 * cos(a);
        d.velocity[1] = 2 * sin(a);
        d.max_speed = 3;
        d.max_force = 4;
        d.brain = brain;
        steer_spawn(w, &d, ids ? &ids[i] : NULL);
    }
    test_rng_state_ = saved;
    return w;
}

static void test_same_seed_same_hash(void)
{
    steer_Behavior *brain = flock_brain();
    steer_World *a = flock_world(42, 0, brain, 300, NULL), *b = flock_world(42, 0, brain, 300, NULL);
    REQUIRE(a && b, "worlds");
    CHECK(steer_world_hash(a) == steer_world_hash(b), "hashes differ before any tick");
    for (int t = 0; t < 10 && !FAILED(); t++) {
        CHECK(steer_world_step(a, 100) == STEER_OK && steer_world_step(b, 100) == STEER_OK, "step");
        CHECK(steer_world_hash(a) == steer_world_hash(b), "hashes differ after %d ticks: %016llx vs %016llx",
              (t + 1) * 100, (unsigned long long)steer_world_hash(a), (unsigned long long)steer_world_hash(b));
    }
    CHECK(steer_world_tick(a) == 1000, "tick %llu", (unsigned long long)steer_world_tick(a));
    steer_world_free(a);
    steer_world_free(b);
    steer_behavior_release(brain);
}

static void test_other_seed_other_hash(void)
{
    steer_Behavior *brain = flock_brain();
    steer_Agent ia[300], ib[300];
    steer_World *a = flock_world(42, 0, brain, 300, ia), *b = flock_world(43, 0, brain, 300, ib);
    REQUIRE(a && b, "worlds");
    steer_world_step(a, 1000);
    steer_world_step(b, 1000);
    CHECK(steer_world_hash(a) != steer_world_hash(b), "seeds 42 and 43 give the same hash");
    // and not only the hash: the trajectories themselves differ (wander draws from the seed)
    int differ = 0;
    for (int i = 0; i < 300; i++) {
        double pa[3], pb[3];
        steer_agent_vec(a, ia[i], STEER_PROP_POSITION, pa);
        steer_agent_vec(b, ib[i], STEER_PROP_POSITION, pb);
        differ += pa[0] != pb[0] || pa[1] != pb[1];
    }
    CHECK(differ > 250, "only %d of 300 agents moved differently under another seed", differ);
    steer_world_free(a);
    steer_world_free(b);
    steer_behavior_release(brain);
}

// The hash covers the state: a change of one agent's position changes it.
static void test_hash_sees_state(void)
{
    steer_Behavior *brain = flock_brain();
    steer_Agent ids[50];
    steer_World *a = flock_world(5, 0, brain, 50, ids);
    REQUIRE(a, "world");
    uint64_t h0 = steer_world_hash(a);
    double p[3];
    steer_agent_vec(a, ids[17], STEER_PROP_POSITION, p);
    p[0] += 0.25;
    steer_agent_set_vec(a, ids[17], STEER_PROP_POSITION, p);
    CHECK(steer_world_hash(a) != h0, "moving an agent did not change the hash");
    steer_world_free(a);
    steer_behavior_release(brain);
}

// The steer pass reads only tick t, so the storage order (the periodic
// spatial re-sort) must not change what any agent does in one tick. Float
// sums in another order may differ in the last bits, no more.
static void test_order_independent(void)
{
    steer_Behavior *brain = flock_brain();
    enum { N = 400 };
    steer_Agent ia[N], ib[N];
    steer_World *a = flock_world(11, 1, brain, N, ia), *b = flock_world(11, -1, brain, N, ib);
    REQUIRE(a && b, "worlds");
    for (int t = 0; t < 5 && !FAILED(); t++) {
        steer_world_step(a, 1);
        steer_world_step(b, 1);
        for (int i = 0; i < N; i++) {
            double pa[3], pb[3];
            steer_agent_vec(a, ia[i], STEER_PROP_POSITION, pa);
            steer_agent_vec(b, ib[i], STEER_PROP_POSITION, pb);
            double d = hypot(pa[0] - pb[0], pa[1] - pb[1]);
            if (d > 40) d = 80 - d; // across the seam
            CHECK(d < 1e-4, "tick %d agent %d: (%g, %g) re-sorted vs (%g, %g) not", t + 1, i, pa[0], pa[1], pb[0],
                  pb[1]);
            if (FAILED()) break;
        }
    }
    steer_world_free(a);
    steer_world_free(b);
    steer_behavior_release(brain);
}

// Limits: with forces far beyond max_force (big blend weights, a flee and a
// seek fighting), speed never exceeds max_speed and each tick's velocity
// change never exceeds max_force / mass * dt: the force is truncated before
// it is applied, whatever the brain asked for.
static void test_limits(void)
{
    steer_WorldDesc wd = { 0 };
    wd.size[0] = wd.size[1] = 60;
    wd.wrap = true;
    wd.seed = 9;
    steer_World *w = NULL;
    REQUIRE(steer_world_new(&wd, &w) == STEER_OK, "world");
    steer_Behavior *blend = behavior("blend"), *seek = behavior("seek"), *sep = with_radius("separation", 4),
                   *wander = behavior("wander"), *flee = behavior("flee");
    steer_behavior_set_target_point(flee, "target", (double[3]){ 30, 30, 0 });
    steer_behavior_add_child(blend, seek, 50);
    steer_behavior_add_child(blend, sep, 80);
    steer_behavior_add_child(blend, wander, 30);
    steer_behavior_add_child(blend, flee, 40);
    // a single seek has no blend to truncate it: its raw force can reach 2 * max_force
    steer_Behavior *brains[2] = { blend, seek };
    enum { N = 200 };
    steer_Agent ids[N];
    double ms[N], mf[N], mass[N];
    for (int i = 0; i < N; i++) {
        steer_AgentDesc d = { 0 };
        d.position[0] = test_uniform(0, 60);
        d.position[1] = test_uniform(0, 60);
        d.velocity[0] = test_uniform(-5, 5);
        d.velocity[1] = test_uniform(-5, 5);
        d.max_speed = ms[i] = test_uniform(0.5, 6);
        d.max_force = mf[i] = test_uniform(0.1, 20);
        d.mass = mass[i] = test_uniform(0.2, 5);
        d.brain = brains[i % 2];
        REQUIRE(steer_spawn(w, &d, &ids[i]) == STEER_OK, "spawn");
        double t[3] = { test_uniform(0, 60), test_uniform(0, 60), 0 };
        steer_agent_set_target(w, ids[i], t, STEER_NO_AGENT);
    }
    double dt = steer_world_dt(w);
    double worst_speed = 0, worst_accel = 0;
    for (int t = 0; t < 600 && !FAILED(); t++) {
        double v0[N][3];
        for (int i = 0; i < N; i++) steer_agent_vec(w, ids[i], STEER_PROP_VELOCITY, v0[i]);
        steer_world_step(w, 1);
        for (int i = 0; i < N; i++) {
            double v[3];
            steer_agent_vec(w, ids[i], STEER_PROP_VELOCITY, v);
            double s = sqrt(v[0] * v[0] + v[1] * v[1]);
            double dv = hypot(v[0] - v0[i][0], v[1] - v0[i][1]);
            // the first tick may clip a spawn velocity above max_speed: that change is not a force
            // velocities are floats: |v1 - v0| carries their rounding, a few ulps of |v|
            double slack = 1e-6 * (s + hypot(v0[i][0], v0[i][1]));
            double speed_ratio = s / ms[i], accel_ratio = t == 0 ? 0 : (dv - slack) / (mf[i] / mass[i] * dt);
            if (speed_ratio > worst_speed) worst_speed = speed_ratio;
            if (accel_ratio > worst_accel) worst_accel = accel_ratio;
            CHECK(speed_ratio <= 1 + 1e-6, "tick %d agent %d: speed %.9g > max_speed %.9g", t, i, s, ms[i]);
            CHECK(accel_ratio <= 1 + 1e-5, "tick %d agent %d: |dv| %.9g > max_force/mass*dt %.9g", t, i, dv,
                  mf[i] / mass[i] * dt);
        }
    }
    CHECK(worst_speed > 0.99, "the test never pushed an agent to max_speed (worst %g)", worst_speed);
    CHECK(worst_accel > 0.99, "the test never pushed an agent to max_force (worst %g)", worst_accel);
    steer_world_free(w);
    steer_behavior_release(blend);
    steer_behavior_release(seek);
    steer_behavior_release(sep);
    steer_behavior_release(wander);
    steer_behavior_release(flee);
}

static bool finite3(const double v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

// Coincident agents: every behaviour that divides by a distance sees zero.
static void coincident(int dim)
{
    steer_WorldDesc wd = { 0 };
    wd.dim = dim;
    wd.seed = 4;
    steer_World *w = NULL;
    REQUIRE(steer_world_new(&wd, &w) == STEER_OK, "world");
    const char *kinds[] = {
        "separation", "alignment", "cohesion", "seek", "flee", "arrive", "pursue", "evade", "wander"
    };
    steer_Behavior *blend = behavior("blend");
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        steer_Behavior *b = behavior(kinds[k]);
        steer_behavior_add_child(blend, b, 1.0);
        steer_behavior_release(b);
    }
    steer_Behavior *brains[] = { blend,
                                 behavior("separation"),
                                 behavior("cohesion"),
                                 behavior("alignment"),
                                 behavior("seek"),
                                 behavior("flee"),
                                 behavior("arrive"),
                                 behavior("pursue"),
                                 behavior("evade") };
    enum { NB = sizeof brains / sizeof brains[0], PER = 4 };
    steer_Agent ids[NB * PER];
    double at[3] = { 5, 5, dim == 3 ? 5 : 0 };
    for (int i = 0; i < NB * PER; i++) {
        steer_AgentDesc d = { 0 };
        memcpy(d.position, at, sizeof at);
        d.brain = brains[i / PER];
        REQUIRE(steer_spawn(w, &d, &ids[i]) == STEER_OK, "spawn");
    }
    // targets: the own position (a point) or a coincident agent
    for (int i = 0; i < NB * PER; i++) {
        if (i % 2) steer_agent_set_target(w, ids[i], at, STEER_NO_AGENT);
        else steer_agent_set_target(w, ids[i], NULL, ids[(i + 1) % (NB * PER)]);
    }
    for (int t = 0; t < 300 && !FAILED(); t++) {
        steer_world_step(w, 1);
        for (int i = 0; i < NB * PER; i++) {
            double p[3], v[3], h[3], f[3];
            steer_agent_vec(w, ids[i], STEER_PROP_POSITION, p);
            steer_agent_vec(w, ids[i], STEER_PROP_VELOCITY, v);
            steer_agent_vec(w, ids[i], STEER_PROP_HEADING, h);
            steer_agent_vec(w, ids[i], STEER_PROP_FORCE, f);
            CHECK(finite3(p) && finite3(v) && finite3(h) && finite3(f),
                  "dim %d tick %d agent %d (%s): p (%g, %g, %g) v (%g, %g, %g) h (%g, %g, %g) f (%g, %g, %g)", dim, t,
                  i, steer_behavior_kind(brains[i / PER]), p[0], p[1], p[2], v[0], v[1], v[2], h[0], h[1], h[2], f[0],
                  f[1], f[2]);
            double hl = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
            CHECK(fabs(hl - 1) < 1e-4, "dim %d tick %d agent %d: heading length %g", dim, t, i, hl);
        }
    }
    steer_world_free(w);
    for (int i = 0; i < NB; i++) steer_behavior_release(brains[i]);
}

static void test_coincident_2d(void) { coincident(2); }
static void test_coincident_3d(void) { coincident(3); }

// Finite doubles that no float can hold are out of range (STEER_EARG), not
// silently stored as infinity.
static void test_out_of_float_range(void)
{
    steer_World *w = NULL;
    REQUIRE(steer_world_new(NULL, &w) == STEER_OK, "world");
    steer_Agent a = STEER_NO_AGENT;
    int st = steer_spawn(w, &(steer_AgentDesc){ .position = { 1e39, 0 } }, &a);
    if (st == STEER_OK) {
        double p[3];
        steer_agent_vec(w, a, STEER_PROP_POSITION, p);
        CHECK(finite3(p), "spawn at x = 1e39 was accepted and stored as (%g, %g)", p[0], p[1]);
    }
    steer_Agent b = STEER_NO_AGENT;
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 1, 1 } }, &b) == STEER_OK, "spawn");
    st = steer_agent_set_vec(w, b, STEER_PROP_VELOCITY, (double[3]){ -1e40, 0, 0 });
    double v[3];
    steer_agent_vec(w, b, STEER_PROP_VELOCITY, v);
    CHECK(st == STEER_EARG || finite3(v), "velocity -1e40 was accepted and stored as (%g, %g)", v[0], v[1]);
    st = steer_agent_set_param(w, b, STEER_PARAM_MAX_SPEED, 1e300);
    double ms;
    steer_agent_param(w, b, STEER_PARAM_MAX_SPEED, &ms);
    CHECK(st == STEER_EARG || isfinite(ms), "max_speed 1e300 was accepted and stored as %g", ms);
    steer_world_free(w);
}

// A brain whose every node runs batched (blend of the flock and wander)
// evaluates node by node over up to 32 agents, and the world then moves
// each agent in the same pass. Neither may change a single bit of any
// trajectory or of the inspector's record: compared with the world
// evaluating one agent at a time, in 2D and 3D, with both wander variants,
// and next to agents whose brain cannot run batched (seek at an agent).
static steer_World *mixed_world(int dim, bool no_batch, bool with_seek, steer_Agent *ids, int n)
{
    steer_WorldDesc wd = { 0 };
    wd.dim = dim;
    for (int i = 0; i < dim; i++) wd.size[i] = 60;
    wd.wrap = true;
    wd.seed = 7;
    steer_World *w = NULL;
    if (steer_world_new(&wd, &w) != STEER_OK) return NULL;
    w->no_batch = no_batch;
    steer_Behavior *flock = flock_brain(), *turning = flock_brain(), *turn = behavior("wander");
    steer_behavior_set_choice(turn, "variant", "turn");
    steer_behavior_add_child(turning, turn, 0.7);
    steer_behavior_release(turn);
    steer_Behavior *seek = behavior("seek");
    unsigned long long saved = test_rng_state_;
    test_rng_state_ = 3;
    for (int i = 0; i < n; i++) {
        steer_AgentDesc d = { 0 };
        for (int k = 0; k < dim; k++) d.position[k] = test_uniform(0, 60);
        d.velocity[0] = test_uniform(-2, 2);
        d.velocity[1] = test_uniform(-2, 2);
        d.max_speed = 3;
        d.max_force = 2;
        d.brain = i % 3 == 0 ? turning : flock;
        if (with_seek && i % 10 == 9) {
            steer_behavior_set_target_agent(seek, "target", ids[0]);
            d.brain = seek;
        }
        steer_spawn(w, &d, &ids[i]);
    }
    test_rng_state_ = saved;
    steer_behavior_release(flock);
    steer_behavior_release(turning);
    steer_behavior_release(seek);
    return w;
}

static void batch_as_one_by_one(int dim, bool with_seek)
{
    enum { N = 500 };
    steer_Agent ia[N], ib[N];
    steer_World *a = mixed_world(dim, false, with_seek, ia, N), *b = mixed_world(dim, true, with_seek, ib, N);
    REQUIRE(a && b, "worlds");
    REQUIRE(a->brains[1] && a->brains[1]->batch, "the flock brain does not run batched");
    for (int t = 0; t < 6 && !FAILED(); t++) {
        REQUIRE(steer_world_step(a, 50) == STEER_OK && steer_world_step(b, 50) == STEER_OK, "step");
        CHECK(steer_world_hash(a) == steer_world_hash(b), "%dD%s: batched and one by one differ after %d ticks", dim,
              with_seek ? " with seekers" : "", (t + 1) * 50);
        REQUIRE(a->rec_stride == b->rec_stride && a->count == b->count, "record layout");
        CHECK(memcmp(a->rec, b->rec, sizeof(float) * a->rec_stride * a->count) == 0,
              "%dD: the recorded node outputs differ after %d ticks", dim, (t + 1) * 50);
    }
    // and they really moved: a flock, not a frozen world
    double p0[3], p1[3];
    steer_World *c = mixed_world(dim, false, with_seek, ib, N);
    steer_agent_vec(c, ib[5], STEER_PROP_POSITION, p0);
    steer_agent_vec(a, ia[5], STEER_PROP_POSITION, p1);
    CHECK(p0[0] != p1[0] || p0[1] != p1[1], "agent 5 did not move in 300 ticks");
    steer_world_free(a);
    steer_world_free(b);
    steer_world_free(c);
}

// Where the CPU has AVX2, the neighbour pass takes two agents of a cell at
// once in one vector; it adds the same sums in the same order as two
// single passes, so a world gives the same trajectory either way (a
// replay moves between machines).
static void wide_as_narrow(int dim)
{
    enum { N = 500 };
    steer_Agent ia[N], ib[N];
    steer_World *a = mixed_world(dim, false, false, ia, N), *b = mixed_world(dim, false, false, ib, N);
    REQUIRE(a && b, "worlds");
    if (!steerG_wide_available()) printf("    (no AVX2 here: both worlds take one agent at a time)\n");
    a->wide = steerG_wide_available();
    b->wide = false;
    for (int t = 0; t < 6 && !FAILED(); t++) {
        REQUIRE(steer_world_step(a, 50) == STEER_OK && steer_world_step(b, 50) == STEER_OK, "step");
        CHECK(steer_world_hash(a) == steer_world_hash(b), "%dD: two agents at a time and one differ after %d ticks",
              dim, (t + 1) * 50);
    }
    steer_world_free(a);
    steer_world_free(b);
}

static void test_wide_2d(void) { wide_as_narrow(2); }
static void test_wide_3d(void) { wide_as_narrow(3); }

static void test_batch_2d(void) { batch_as_one_by_one(2, false); }
static void test_batch_3d(void) { batch_as_one_by_one(3, false); }
static void test_batch_beside_unbatched(void) { batch_as_one_by_one(2, true); }

// Rates and steps stored as floats must not become 0 or infinite.
static void test_tiny_rates(void)
{
    steer_World *w = NULL;
    CHECK(steer_world_new(&(steer_WorldDesc){ .dt = 1e-50 }, &w) == STEER_EARG, "dt 1e-50 (0 as a float)");
    steer_world_free(w);
    // a pass count that would make one tick run for hours (found by fuzz_snapshot)
    CHECK(steer_world_new(&(steer_WorldDesc){ .collide = true, .collide_iterations = STEER_MAX_COLLIDE_ITERATIONS + 1 },
                          &w) == STEER_EARG,
          "collide_iterations past STEER_MAX_COLLIDE_ITERATIONS");
    CHECK(steer_world_new(&(steer_WorldDesc){ .collide = true, .collide_iterations = STEER_MAX_COLLIDE_ITERATIONS },
                          &w) == STEER_OK,
          "collide_iterations = STEER_MAX_COLLIDE_ITERATIONS");
    steer_world_free(w);
    w = NULL;
    w = test_world(NULL);
    REQUIRE(w, "world");
    steer_Agent a;
    REQUIRE(steer_spawn(w, NULL, &a) == STEER_OK, "spawn");
    CHECK(steer_agent_set_think(w, a, 1, 1e-300) == STEER_EARG, "think at 1e-300 Hz (an infinite period)");
    CHECK(steer_agent_set_think(w, a, 1, 1e300) == STEER_EARG, "think at 1e300 Hz (an infinite rate)");
    CHECK(steer_agent_set_think(w, a, 1, 1e-6) == STEER_OK, "think at 1e-6 Hz");
    steer_world_free(w);
}

// steer_agent_set_craft takes the vehicle numbers' rule (steer_spawn's):
// min_turn_radius from 1e-6 to 1e30, min_speed and max_turn_accel 0 or
// from 1e-6 to 1e30. A refused value changes nothing; agents at the ends
// of the ranges fly finitely.
static void test_craft_ranges(void)
{
    steer_World *w = test_world(NULL);
    REQUIRE(w, "world");
    steer_Agent a;
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .velocity = { 1, 0, 0 }, .max_speed = 2, .max_force = 1 }, &a) ==
                STEER_OK,
            "spawn");
    const steer_CraftDesc base = { STEER_MODEL_CRAFT, 0.5, 3, 2 };
    REQUIRE(steer_agent_set_craft(w, a, &base) == STEER_OK, "a craft");
    static const double bad[] = { 1e-7, 1e-300, 1e31, 3e38, -1e-6, -1, INFINITY, NAN };
    static const double ends[] = { 1e-6, 1e30 };
    for (int field = 0; field < 3; field++) {
        static const char *const names[] = { "min_speed", "min_turn_radius", "max_turn_accel" };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0] + 1; i++) {
            steer_CraftDesc d = base;
            double *v = field == 0 ? &d.min_speed : field == 1 ? &d.min_turn_radius : &d.max_turn_accel;
            *v = i < sizeof bad / sizeof bad[0] ? bad[i] : 0;
            bool zero_ok = field != 1 && *v == 0;
            int st = steer_agent_set_craft(w, a, &d);
            CHECK(zero_ok ? st == STEER_OK : st == STEER_EARG, "%s = %g: status %d", names[field], *v, st);
            steer_CraftDesc got;
            REQUIRE(steer_agent_craft(w, a, &got) == 1, "the craft's limits");
            if (!zero_ok)
                CHECK(got.min_speed == base.min_speed && got.min_turn_radius == base.min_turn_radius &&
                          got.max_turn_accel == base.max_turn_accel,
                      "%s = %g changed the limits", names[field], *v);
            REQUIRE(steer_agent_set_craft(w, a, &base) == STEER_OK, "back to the base");
        }
        for (int e = 0; e < 2; e++) {
            steer_CraftDesc d = base;
            *(field == 0 ? &d.min_speed : field == 1 ? &d.min_turn_radius : &d.max_turn_accel) = ends[e];
            CHECK(steer_agent_set_craft(w, a, &d) == STEER_OK, "%s = %g refused", names[field], ends[e]);
            CHECK(steer_world_step(w, 5) == STEER_OK, "step");
            double p[3], vel[3];
            steer_agent_vec(w, a, STEER_PROP_POSITION, p);
            steer_agent_vec(w, a, STEER_PROP_VELOCITY, vel);
            CHECK(isfinite(p[0] + p[1] + p[2] + vel[0] + vel[1] + vel[2]), "%s = %g: the craft left the finite",
                  names[field], ends[e]);
            REQUIRE(steer_agent_set_craft(w, a, &base) == STEER_OK, "back to the base");
        }
    }
    // a point mass has no min_speed
    CHECK(steer_agent_set_craft(w, a, &(steer_CraftDesc){ STEER_MODEL_POINT, 1, 3, 0 }) == STEER_EARG,
          "a point's min_speed");
    steer_world_free(w);
}

static int allocations;

static void *counting_alloc(void *ud, void *p, size_t size)
{
    (void)ud;
    if (size == 0) {
        free(p);
        return NULL;
    }
    allocations++;
    return realloc(p, size);
}

// After a warm-up the tick allocates nothing, re-sorts included (the
// periodic reorder used to malloc its scratch every 16 ticks).
static void test_no_allocation_in_ticks(void)
{
    steer_WorldDesc wd = { .alloc = counting_alloc, .seed = 5, .size = { 60, 60 }, .wrap = true, .reorder_period = 4 };
    steer_World *w = test_world(&wd);
    REQUIRE(w, "world");
    steer_Behavior *root = behavior("blend");
    const char *kinds[] = { "separation", "cohesion", "wander" };
    for (int i = 0; i < 3; i++) {
        steer_Behavior *k = behavior(kinds[i]);
        steer_behavior_add_child(root, k, 1.0);
        steer_behavior_release(k);
    }
    for (int i = 0; i < 1000; i++) {
        steer_AgentDesc ad = { .brain = root };
        ad.position[0] = test_uniform(0, 60);
        ad.position[1] = test_uniform(0, 60);
        steer_spawn(w, &ad, NULL);
    }
    steer_world_step(w, 20);
    allocations = 0;
    steer_world_step(w, 64);
    CHECK(allocations == 0, "%d allocations in 64 ticks after the warm-up", allocations);
    steer_behavior_release(root);
    steer_world_free(w);
}

// A kinematic agent (the host moves it) among flocking agents, on the
// batched path that moves each agent as soon as its force is known: it is
// where the host put it after each step, 4 m/s for 1 s is 4 m, its brain
// gives no force; the others flock with it (their steering changes); the
// flag is state (the hash sees it) and the setter refuses a stale handle.
static void test_kinematic(void)
{
    steer_Behavior *brain = flock_brain();
    enum { N = 300 };
    steer_Agent ids[N], plain_ids[N];
    steer_World *w = flock_world(21, 0, brain, N, ids), *plain = flock_world(21, 0, brain, N, plain_ids);
    REQUIRE(w && plain, "worlds");
    uint64_t h0 = steer_world_hash(w);
    steer_Agent p = ids[7];
    CHECK(steer_agent_set_kinematic(w, p, true) == STEER_OK, "set kinematic");
    bool on = false;
    CHECK(steer_agent_kinematic(w, p, &on) == STEER_OK && on, "reads back kinematic");
    CHECK(steer_world_hash(w) != h0, "the hash sees the flag");
    double start[3], pos[3], f[3], v[3] = { 4, 0, 0 };
    steer_agent_vec(w, p, STEER_PROP_POSITION, start);
    pos[0] = 30, pos[1] = 40, pos[2] = 0;
    float x = 30; // the host's position, in the world's float
    for (int t = 0; t < 60; t++) {
        x += (float)(4.0 / 60);
        pos[0] = x;
        steer_agent_set_vec(w, p, STEER_PROP_POSITION, pos);
        steer_agent_set_vec(w, p, STEER_PROP_VELOCITY, v);
        CHECK(steer_world_step(w, 1) == STEER_OK, "step");
        double got[3];
        steer_agent_vec(w, p, STEER_PROP_POSITION, got);
        CHECK(got[0] == (double)x && got[1] == 40, "tick %d: at (%g, %g), the host put it at (%g, 40)", t, got[0],
              got[1], (double)x);
        if (FAILED()) break;
    }
    CHECK(fabs(x - 34.0f) < 1e-4f, "1 s at 4 m/s from 30: %g", (double)x);
    steer_agent_vec(w, p, STEER_PROP_FORCE, f);
    CHECK(f[0] == 0 && f[1] == 0, "no force: (%g, %g)", f[0], f[1]);
    // its neighbours see it: they steer otherwise than without it there
    steer_world_step(plain, 60);
    int differ = 0;
    for (int i = 0; i < N; i++) {
        double a[3], b[3];
        steer_agent_vec(w, ids[i], STEER_PROP_POSITION, a);
        steer_agent_vec(plain, plain_ids[i], STEER_PROP_POSITION, b);
        differ += i != 7 && (a[0] != b[0] || a[1] != b[1]);
    }
    CHECK(differ > 0 && differ < N - 1, "%d of %d agents moved otherwise with a kinematic agent among them", differ,
          N - 1);
    // spawned kinematic; a removed agent's handle is stale
    steer_AgentDesc d = { .max_speed = 2, .brain = brain, .kinematic = true, .velocity = { 1, 0, 0 } };
    steer_Agent k;
    REQUIRE(steer_spawn(w, &d, &k) == STEER_OK, "spawn kinematic");
    CHECK(steer_agent_kinematic(w, k, &on) == STEER_OK && on, "spawned kinematic");
    steer_world_step(w, 5);
    steer_agent_vec(w, k, STEER_PROP_POSITION, pos);
    CHECK(pos[0] == 0 && pos[1] == 0, "not integrated: (%g, %g)", pos[0], pos[1]);
    steer_remove(w, k);
    CHECK(steer_agent_set_kinematic(w, k, false) == STEER_ESTALE, "stale handle: set");
    CHECK(steer_agent_kinematic(w, k, &on) == STEER_ESTALE && !on, "stale handle: read");
    steer_world_free(w);
    steer_world_free(plain);
    steer_behavior_release(brain);
}

int main(void)
{
    RUN(test_same_seed_same_hash);
    RUN(test_other_seed_other_hash);
    RUN(test_hash_sees_state);
    RUN(test_order_independent);
    RUN(test_limits);
    RUN(test_coincident_2d);
    RUN(test_coincident_3d);
    RUN(test_out_of_float_range);
    RUN(test_batch_2d);
    RUN(test_batch_3d);
    RUN(test_batch_beside_unbatched);
    RUN(test_wide_2d);
    RUN(test_wide_3d);
    RUN(test_tiny_rates);
    RUN(test_craft_ranges);
    RUN(test_no_allocation_in_ticks);
    RUN(test_kinematic);
    return check_report_("sim");
}
