// SPDX-License-Identifier: MIT
// test_review.c — the code review's findings that only the C API can
// reach: trees built top-down (a child gains children after it was added),
// cycles, and internal invariants the bindings never expose.
#include "steer.h"
#include "check.h"
#include "core/world.h"

#include <math.h>
#include <string.h>

static steer_World *new_world(const steer_WorldDesc *wd)
{
    steer_World *w = NULL;
    steer_world_new(wd, &w);
    return w;
}

static steer_Behavior *blend(void)
{
    steer_Behavior *b = NULL;
    steer_behavior_new("blend", &b);
    return b;
}

// A chain built top-down keeps every stored height small, so only the
// brain's compile can see how deep it really is: it must refuse, not
// overflow the stack while flattening or evaluating.
static void test_deep_chain_top_down(void)
{
    steer_World *w = new_world(NULL);
    REQUIRE(w, "world");
    steer_Behavior *root = blend(), *x = root;
    for (int i = 0; i < 100000; i++) {
        steer_Behavior *k = blend();
        REQUIRE(steer_behavior_add_child(x, k, 1.0) == STEER_OK, "add level %d: %s", i, steer_behavior_error(x));
        steer_behavior_release(k);
        x = k;
    }
    steer_Agent a;
    int st = steer_spawn(w, &(steer_AgentDesc){ .brain = root }, &a);
    CHECK(st == STEER_EARG, "spawn with a 100001-level brain gave %d", st);
    CHECK(strstr(steer_behavior_error(root), "levels deep") != NULL, "error: %s", steer_behavior_error(root));
    steer_behavior_release(root); // releasing a deep chain recurses too: must not overflow either
    steer_world_free(w);
}

// Bottom-up, the 65th level is refused when it is added.
static void test_deep_chain_bottom_up(void)
{
    steer_Behavior *x = NULL;
    steer_behavior_new("seek", &x);
    int level = 1, st = STEER_OK;
    while (level < 1000) {
        steer_Behavior *p = blend();
        st = steer_behavior_add_child(p, x, 1.0);
        if (st != STEER_OK) {
            CHECK(strstr(steer_behavior_error(p), "at most 64 levels") != NULL, "error: %s", steer_behavior_error(p));
            steer_behavior_release(p);
            break;
        }
        steer_behavior_release(x);
        x = p;
        level++;
    }
    CHECK(st == STEER_EARG && level == 64, "refused at level %d (status %d), expected at 65", level + 1, st);
    steer_behavior_release(x);
}

// Cycles are refused however they are made, and the walk that looks for
// them visits a shared sub-tree once (through a 60-level diamond lattice it
// would take 2^60 steps otherwise).
static void test_cycles_and_lattice(void)
{
    steer_Behavior *a = blend(), *b = blend();
    CHECK(steer_behavior_add_child(a, b, 1.0) == STEER_OK, "a <- b");
    CHECK(steer_behavior_add_child(b, a, 1.0) == STEER_EARG, "b <- a closes a cycle");
    CHECK(steer_behavior_add_child(a, a, 1.0) == STEER_EARG, "a <- a");
    steer_Behavior *top = a;
    steer_behavior_retain(top);
    for (int i = 0; i < 60; i++) {
        steer_Behavior *p = blend();
        CHECK(steer_behavior_add_child(p, top, 0.5) == STEER_OK, "lattice level %d", i);
        CHECK(steer_behavior_add_child(p, top, 0.5) == STEER_OK, "lattice level %d", i);
        steer_behavior_release(top);
        top = p;
    }
    CHECK(steer_behavior_add_child(b, top, 1.0) == STEER_EARG, "b <- lattice over a closes a cycle");
    steer_Behavior *c = blend();
    CHECK(steer_behavior_add_child(c, top, 1.0) == STEER_OK, "c <- lattice");
    CHECK(steer_behavior_add_child(c, b, 1.0) == STEER_OK, "c <- b (shared, no cycle)");
    steer_behavior_release(c);
    steer_behavior_release(top);
    steer_behavior_release(a);
    steer_behavior_release(b);
}

// A handle with the generation a free slot will hand out next is not a
// live agent: its dense index is the free list's link, not an agent.
static void test_forged_handle(void)
{
    steer_World *w = new_world(NULL);
    REQUIRE(w, "world");
    steer_Agent a, b;
    REQUIRE(steer_spawn(w, NULL, &a) == STEER_OK && steer_spawn(w, NULL, &b) == STEER_OK, "spawn");
    steer_Agent next = a + ((steer_Agent)1 << 32); // same slot, the generation after a's
    REQUIRE(steer_remove(w, a) == STEER_OK, "remove a");
    CHECK(!steer_alive(w, next), "alive before compaction");
    steer_world_step(w, 1); // compaction puts a's slot on the free list
    CHECK(!steer_alive(w, next), "alive after compaction");
    double p[3];
    CHECK(steer_agent_vec(w, next, STEER_PROP_POSITION, p) == STEER_ESTALE, "position of a forged handle");
    CHECK(steer_agent_set_target(w, b, NULL, next) == STEER_ESTALE, "a forged handle as a target");
    steer_world_free(w);
}

static steer_Behavior *kind(const char *name)
{
    steer_Behavior *b = NULL;
    steer_behavior_new(name, &b);
    return b;
}

// A flock (separation, alignment, cohesion, wander) in a torus, with
// removals so that storage order differs from handle order, run with the
// periodic re-sort every tick, at the default period, and never (and with
// collisions): every agent's state and the hash must be the same bits.
static uint64_t flock_run(int reorder_period, bool collide, steer_Agent *keep, double (*pos)[3], int nkeep)
{
    steer_WorldDesc wd = { 0 };
    wd.size[0] = wd.size[1] = 40;
    wd.wrap = true;
    wd.seed = 11;
    wd.reorder_period = reorder_period;
    wd.collide = collide;
    steer_World *w = new_world(&wd);
    if (!w) return 0;
    steer_Behavior *root = blend();
    const char *kinds[] = { "separation", "alignment", "cohesion", "wander" };
    for (int i = 0; i < 4; i++) {
        steer_Behavior *k = kind(kinds[i]);
        steer_behavior_add_child(root, k, i == 0 ? 1.5 : 1.0);
        steer_behavior_release(k);
    }
    steer_Agent all[400];
    for (int i = 0; i < 400; i++) {
        steer_AgentDesc ad = { .brain = root, .max_speed = 2, .radius = 0.3 };
        ad.position[0] = (i * 7919 % 400) / 10.0;
        ad.position[1] = (i * 104729 % 400) / 10.0;
        ad.velocity[0] = 1;
        steer_spawn(w, &ad, &all[i]);
    }
    steer_world_step(w, 5);
    for (int i = 0; i < 400; i += 3) steer_remove(w, all[i]);
    // the events too, in the order the host gets them (FNV-1a over each step's)
    uint64_t events = 0xCBF29CE484222325ull;
    for (int t = 0; t < 300; t++) {
        steer_world_step(w, 1);
        int ne;
        const steer_Event *ev = steer_world_events(w, &ne);
        for (int i = 0; i < ne; i++) {
            uint64_t x[3] = { (uint64_t)ev[i].type, ev[i].agent, ev[i].other };
            const unsigned char *c = (const unsigned char *)x;
            for (size_t j = 0; j < sizeof x; j++) events = (events ^ c[j]) * 0x100000001B3ull;
        }
    }
    for (int i = 0, k = 0; i < 400 && k < nkeep; i++) {
        if (i % 3 == 0) continue;
        keep[k] = all[i];
        steer_agent_vec(w, keep[k], STEER_PROP_POSITION, pos[2 * k]);
        steer_agent_vec(w, keep[k], STEER_PROP_VELOCITY, pos[2 * k + 1]);
        k++;
    }
    uint64_t h = steer_world_hash(w) ^ events;
    steer_behavior_release(root);
    steer_world_free(w);
    return h;
}

static void test_storage_order(void)
{
    for (int collide = 0; collide < 2; collide++) {
        steer_Agent ka[266], kb[266]; // the agents left
        double pa[532][3], pb[532][3]; // position, velocity
        const int periods[] = { 1, 0, -1 };
        uint64_t ref = flock_run(periods[0], collide, ka, pa, 266);
        for (int r = 1; r < 3; r++) {
            uint64_t h = flock_run(periods[r], collide, kb, pb, 266);
            CHECK(h == ref, "collide %d: hash with reorder period %d differs from every tick", collide, periods[r]);
            for (int i = 0; i < 532 && !FAILED(); i++)
                CHECK(ka[i / 2] == kb[i / 2] && memcmp(pa[i], pb[i], sizeof pa[i]) == 0,
                      "collide %d, period %d: agent %d at (%.9g, %.9g), not (%.9g, %.9g)", collide, periods[r], i,
                      pb[i][0], pb[i][1], pa[i][0], pa[i][1]);
        }
    }
}

// Rates and steps stored as floats must not become 0 or infinite.
static void test_tiny_rates(void)
{
    steer_World *w = NULL;
    CHECK(steer_world_new(&(steer_WorldDesc){ .dt = 1e-50 }, &w) == STEER_EARG, "dt 1e-50 (0 as a float)");
    steer_world_free(w);
    w = new_world(NULL);
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
    steer_World *w = new_world(NULL);
    REQUIRE(w, "world");
    steer_Agent a;
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .velocity = { 1, 0, 0 }, .max_speed = 2, .max_force = 1 }, &a) == STEER_OK,
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
    CHECK(steer_agent_set_craft(w, a, &(steer_CraftDesc){ STEER_MODEL_POINT, 1, 3, 0 }) == STEER_EARG, "a point's min_speed");
    steer_world_free(w);
}

// The fullest cell of the world's grid.
static uint32_t fullest_cell(const steer_World *w)
{
    uint32_t most = 0;
    for (uint32_t c = 0; c < w->grid.ncells; c++)
        if (w->grid.start[c + 1] - w->grid.start[c] > most) most = w->grid.start[c + 1] - w->grid.start[c];
    return most;
}

// One agent parked at 1e30 in an unbounded world: the others keep cells of
// their own (not one cell for all: O(n^2)), and queries still find it.
static void test_far_outlier(void)
{
    const double far[][2] = { { 1e30, -1e30 }, { -3e38, 3e38 }, { 1e6, 0 } };
    for (int f = 0; f < 3; f++) {
        steer_World *w = new_world(NULL);
        REQUIRE(w, "world");
        steer_Behavior *sep = kind("separation");
        steer_behavior_set_number(sep, "radius", 2);
        for (int i = 0; i < 2000; i++) {
            steer_AgentDesc ad = { .brain = sep };
            ad.position[0] = test_uniform(0, 100);
            ad.position[1] = test_uniform(0, 100);
            steer_spawn(w, &ad, NULL);
        }
        steer_Agent out;
        steer_spawn(w, &(steer_AgentDesc){ .brain = sep, .position = { far[f][0], far[f][1] } }, &out);
        steer_world_step(w, 2);
        CHECK(fullest_cell(w) <= 40, "outlier at (%g, %g): %u agents in one cell of %u", far[f][0], far[f][1],
              fullest_cell(w), w->grid.ncells);
        steer_Agent found[4];
        int k = steer_world_neighbors(w, (double[3]){ far[f][0], far[f][1], 0 }, 1.0, NULL, false, found, 4);
        CHECK(k == 1 && found[0] == out, "the outlier found by a query at its position: %d", k);
        double p[3];
        steer_agent_vec(w, out, STEER_PROP_POSITION, p);
        CHECK(p[0] == (float)far[f][0] && p[1] == (float)far[f][1], "the outlier stays put");
        steer_behavior_release(sep);
        steer_world_free(w);
    }
}

// Shapes spanning the whole float range (and one far away) keep the shape
// grid usable: rays hit what they should, agents are kept out.
static void test_huge_shapes(void)
{
    steer_WorldDesc wd = { .collide = true };
    steer_World *w = new_world(&wd);
    REQUIRE(w, "world");
    steer_Shape floor_box, ball, far;
    REQUIRE(steer_add_box(w, (double[3]){ -3e38, -1, 0 }, (double[3]){ 3e38, 1, 0 }, &floor_box) == STEER_OK, "box");
    REQUIRE(steer_add_circle(w, (double[3]){ 0, 10, 0 }, 1, &ball) == STEER_OK, "circle");
    REQUIRE(steer_add_circle(w, (double[3]){ 1e30, -1e30, 0 }, 1, &far) == STEER_OK, "far circle");
    steer_Hit hit;
    int st = steer_raycast(w, (double[3]){ 0, 20, 0 }, (double[3]){ 0, -1, 0 }, 100, STEER_RAY_ALL, 0, &hit);
    CHECK(st == 1 && hit.shape == ball && fabs(hit.point[1] - 11) < 1e-4, "ray onto the circle: %d, y %g", st, hit.point[1]);
    st = steer_raycast(w, (double[3]){ 5, 5, 0 }, (double[3]){ 0, -1, 0 }, 100, STEER_RAY_ALL, 0, &hit);
    CHECK(st == 1 && hit.shape == floor_box && fabs(hit.point[1] - 1) < 1e-4, "ray onto the box: %d, y %g", st,
          hit.point[1]);
    steer_Agent a;
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 2, 1.2 }, .radius = 0.5 }, &a) == STEER_OK, "spawn");
    CHECK(steer_world_step(w, 1) == STEER_OK, "step");
    double p[3];
    steer_agent_vec(w, a, STEER_PROP_POSITION, p);
    CHECK(p[1] >= 1.5 - 1e-4, "agent pushed out of the box: y %g", p[1]);
    steer_world_free(w);
}

static int allocations;

static void *counting_alloc(void *ud, void *p, size_t size)
{
    (void)ud;
    if (size == 0) { free(p); return NULL; }
    allocations++;
    return realloc(p, size);
}

// After a warm-up the tick allocates nothing, re-sorts included (the
// periodic reorder used to malloc its scratch every 16 ticks).
static void test_no_allocation_in_ticks(void)
{
    steer_WorldDesc wd = { .alloc = counting_alloc, .seed = 5, .size = { 60, 60 }, .wrap = true, .reorder_period = 4 };
    steer_World *w = new_world(&wd);
    REQUIRE(w, "world");
    steer_Behavior *root = blend();
    const char *kinds[] = { "separation", "cohesion", "wander" };
    for (int i = 0; i < 3; i++) {
        steer_Behavior *k = kind(kinds[i]);
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

// The live handles in one pass, also while removed agents await compaction.
static void test_agents_list(void)
{
    steer_World *w = new_world(NULL);
    REQUIRE(w, "world");
    steer_Agent all[10], out[10];
    for (int i = 0; i < 10; i++) steer_spawn(w, NULL, &all[i]);
    steer_remove(w, all[3]);
    steer_remove(w, all[7]);
    int n = steer_world_agents(w, out, 10);
    CHECK(n == 8, "count %d", n);
    for (int i = 0, k = 0; i < 10 && !FAILED(); i++) {
        if (i == 3 || i == 7) continue;
        CHECK(out[k] == all[i] && steer_world_agent_at(w, k) == all[i], "agent %d", k);
        k++;
    }
    CHECK(steer_world_agents(w, out, 2) == 8 && out[1] == all[1], "a short buffer gets the first ones, the count all");
    steer_world_free(w);
}

int main(void)
{
    RUN(test_deep_chain_top_down);
    RUN(test_deep_chain_bottom_up);
    RUN(test_cycles_and_lattice);
    RUN(test_forged_handle);
    RUN(test_storage_order);
    RUN(test_tiny_rates);
    RUN(test_craft_ranges);
    RUN(test_far_outlier);
    RUN(test_huge_shapes);
    RUN(test_no_allocation_in_ticks);
    RUN(test_agents_list);
    return check_report_("review");
}
