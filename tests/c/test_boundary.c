// SPDX-License-Identifier: MIT
// test_boundary.c — bad input across the library's boundary (steer.h,
// steer_debug.h, steer_draw.h): every public function handed a NULL world,
// a NULL behaviour, a world or behaviour another copy of libsteer made, or
// NULL where it writes or reads an array refuses it with STEER_EARG (a
// getter with its zero value) and steer_last_error() names the function
// and the argument. Nothing crashes (the ASan build runs this too) and the
// good world next to the bad calls is untouched. A real second copy (the
// static core and libsteer.so in one process) is tests/c/test_shared.c's.
#include "steer.h"
#include "steer_debug.h"
#include "steer_draw.h"
#include "check.h"

#include <stdint.h>
#include <string.h>

// A world or behaviour of another copy of the library: its first member
// points at that copy's tag, not at ours (base.h).
static struct {
    const void *lib;
    double pad[64];
} other_copy = { &other_copy, { 0 } };
#define FOREIGN_WORLD ((steer_World *)(void *)&other_copy)
#define FOREIGN_TREE ((steer_Behavior *)(void *)&other_copy)

// The last refusal names fn and arg, and says what was wrong.
static void refused_(const char *file, int line, const char *fn, const char *arg, const char *why)
{
    const char *e = steer_last_error();
    if (!strstr(e, fn) || !strstr(e, arg) || !strstr(e, why))
        check_fail_(file, line, "steer_last_error() is \"%s\"; want %s, %s and \"%s\"", e, fn, arg, why);
}
#define REFUSED(fn, arg, why) refused_(__FILE__, __LINE__, fn, arg, why)

// The call returns want, and the refusal names the function and argument.
#define EXPECT(call, want, fn, arg, why)                              \
    do {                                                              \
        CHECK((call) == (want), "%s should refuse (%s)", #call, why); \
        REFUSED(fn, arg, why);                                        \
    } while (0)

static void test_null_world(void)
{
    steer_World *w = NULL;
    steer_Agent a = { 1 }, out[4];
    double v[3] = { 0, 0, 0 }, d = 0;
    bool b = false;
    int n = 0;
    const char *s = NULL;
    steer_Behavior *t = NULL;
    steer_Shape sh = { 0 };
    steer_Hit hit;
    steer_CraftDesc craft;
    steer_SeekPlan plan;
    steer_DebugAgents da;
    steer_DebugAgent dag;
    steer_DebugNode dn;
    steer_DebugShape ds;
    char buf[64];
    size_t len = 0;
    const char *why = "NULL";
    EXPECT(steer_world_step(w, 1), STEER_EARG, "steer_world_step", "w", why);
    EXPECT(steer_world_dim(w), 0, "steer_world_dim", "w", why);
    EXPECT(steer_world_dt(w), 0.0, "steer_world_dt", "w", why);
    EXPECT(steer_world_tick(w), 0u, "steer_world_tick", "w", why);
    EXPECT(steer_world_seed(w), 0u, "steer_world_seed", "w", why);
    EXPECT(steer_world_count(w), 0, "steer_world_count", "w", why);
    EXPECT(steer_world_hash(w), 0u, "steer_world_hash", "w", why);
    EXPECT(strcmp(steer_world_error(w), ""), 0, "steer_world_error", "w", why);
    EXPECT(steer_world_set_record(w, true), STEER_EARG, "steer_world_set_record", "w", why);
    EXPECT(steer_world_record(w), false, "steer_world_record", "w", why);
    EXPECT(steer_world_set_metering(w, true), STEER_EARG, "steer_world_set_metering", "w", why);
    EXPECT(steer_agent_work(w, a), 0u, "steer_agent_work", "w", why);
    EXPECT(steer_world_set_threads(w, 2), STEER_EARG, "steer_world_set_threads", "w", why);
    EXPECT(steer_world_threads(w), 0, "steer_world_threads", "w", why);
    steer_world_bounds(w, v, v, &b);
    REFUSED("steer_world_bounds", "w", why);
    EXPECT(steer_world_uses_brain(w, t), false, "steer_world_uses_brain", "w", why);
    EXPECT(steer_world_brains(w), 0, "steer_world_brains", "w", why);
    EXPECT(steer_world_brain(w, 1), NULL, "steer_world_brain", "w", why);
    EXPECT(steer_world_replace_brain(w, 1, t), STEER_EARG, "steer_world_replace_brain", "w", why);
    EXPECT(steer_world_replace_resource(w, &n, &n), STEER_EARG, "steer_world_replace_resource", "w", why);
    EXPECT(steer_world_bytes(w), 0u, "steer_world_bytes", "w", why);
    EXPECT(steer_world_brain_bytes(w), 0u, "steer_world_brain_bytes", "w", why);
    EXPECT(steer_world_events(w, &n), NULL, "steer_world_events", "w", why);
    EXPECT(steer_world_agent_at(w, 0).id, 0u, "steer_world_agent_at", "w", why);
    EXPECT(steer_world_agents(w, out, 4), STEER_EARG, "steer_world_agents", "w", why);
    EXPECT(steer_world_neighbors(w, v, 1, NULL, false, out, 4), STEER_EARG, "steer_world_neighbors", "w", why);
    EXPECT(steer_world_save_buffer(w, buf, sizeof buf, &len), STEER_EARG, "steer_world_save_buffer", "w", why);
    EXPECT(steer_world_restore(w, buf, sizeof buf, NULL, 0), STEER_EARG, "steer_world_restore", "w", why);
    EXPECT(steer_add_circle(w, v, 1, &sh), STEER_EARG, "steer_add_circle", "w", why);
    EXPECT(steer_add_wall(w, v, v, &sh), STEER_EARG, "steer_add_wall", "w", why);
    EXPECT(steer_add_plane(w, v, v, &sh), STEER_EARG, "steer_add_plane", "w", why);
    EXPECT(steer_add_box(w, v, v, &sh), STEER_EARG, "steer_add_box", "w", why);
    EXPECT(steer_remove_shape(w, sh), STEER_EARG, "steer_remove_shape", "w", why);
    EXPECT(steer_shape_alive(w, sh), false, "steer_shape_alive", "w", why);
    EXPECT(steer_world_shape_count(w), 0, "steer_world_shape_count", "w", why);
    EXPECT(steer_raycast(w, v, v, 1, 0, a, &hit), STEER_EARG, "steer_raycast", "w", why);
    EXPECT(steer_spawn(w, NULL, &a), STEER_EARG, "steer_spawn", "w", why);
    EXPECT(steer_remove(w, a), STEER_EARG, "steer_remove", "w", why);
    EXPECT(steer_alive(w, a), false, "steer_alive", "w", why);
    EXPECT(steer_agent_slot_generation(w, 0), 0u, "steer_agent_slot_generation", "w", why);
    EXPECT(steer_agent_vec(w, a, STEER_PROP_POSITION, v), STEER_EARG, "steer_agent_vec", "w", why);
    EXPECT(steer_agent_set_vec(w, a, STEER_PROP_POSITION, v), STEER_EARG, "steer_agent_set_vec", "w", why);
    EXPECT(steer_agent_set_kinematic(w, a, true), STEER_EARG, "steer_agent_set_kinematic", "w", why);
    EXPECT(steer_agent_kinematic(w, a, &b), STEER_EARG, "steer_agent_kinematic", "w", why);
    EXPECT(steer_agent_param(w, a, STEER_PARAM_MAX_SPEED, &d), STEER_EARG, "steer_agent_param", "w", why);
    EXPECT(steer_agent_set_param(w, a, STEER_PARAM_MAX_SPEED, 1), STEER_EARG, "steer_agent_set_param", "w", why);
    EXPECT(steer_agent_tag(w, a, &s), STEER_EARG, "steer_agent_tag", "w", why);
    EXPECT(steer_agent_set_tag(w, a, "x"), STEER_EARG, "steer_agent_set_tag", "w", why);
    EXPECT(steer_agent_brain(w, a, &t), STEER_EARG, "steer_agent_brain", "w", why);
    EXPECT(steer_agent_set_brain(w, a, t), STEER_EARG, "steer_agent_set_brain", "w", why);
    EXPECT(steer_agent_set_target(w, a, v, STEER_NO_AGENT), STEER_EARG, "steer_agent_set_target", "w", why);
    EXPECT(steer_agent_target(w, a, v, &a, &n), STEER_EARG, "steer_agent_target", "w", why);
    EXPECT(steer_agent_set_think(w, a, 1, 1), STEER_EARG, "steer_agent_set_think", "w", why);
    EXPECT(steer_agent_think(w, a, &n, &d), STEER_EARG, "steer_agent_think", "w", why);
    EXPECT(steer_world_reserve(w, 10), STEER_EARG, "steer_world_reserve", "w", why);
    EXPECT(steer_agent_set_rng(w, a, 1), STEER_EARG, "steer_agent_set_rng", "w", why);
    EXPECT(steer_agent_contributions(w, a, NULL, NULL), STEER_EARG, "steer_agent_contributions", "w", why);
    EXPECT(steer_agent_set_craft(w, a, &craft), STEER_EARG, "steer_agent_set_craft", "w", why);
    EXPECT(steer_agent_craft(w, a, &craft), STEER_EARG, "steer_agent_craft", "w", why);
    EXPECT(steer_agent_turn_radius(w, a, &d), STEER_EARG, "steer_agent_turn_radius", "w", why);
    EXPECT(steer_agent_directed_seek_plan(w, a, t, &plan), STEER_EARG, "steer_agent_directed_seek_plan", "w", why);
    EXPECT(steer_debug_agents(w, &da), STEER_EARG, "steer_debug_agents", "w", why);
    EXPECT(steer_debug_agent_handle(w, 0).id, 0u, "steer_debug_agent_handle", "w", why);
    EXPECT(steer_debug_tag_name(w, 1), NULL, "steer_debug_tag_name", "w", why);
    EXPECT(steer_debug_agent(w, a, &dag), STEER_EARG, "steer_debug_agent", "w", why);
    EXPECT(steer_debug_node(w, a, 0, &dn), STEER_EARG, "steer_debug_node", "w", why);
    EXPECT(steer_debug_paths(w, NULL, NULL), STEER_EARG, "steer_debug_paths", "w", why);
    EXPECT(steer_debug_shape_slots(w), 0, "steer_debug_shape_slots", "w", why);
    EXPECT(steer_debug_shape(w, 0, &ds), STEER_EARG, "steer_debug_shape", "w", why);
    EXPECT(steer_debug_extent(w, v, v), STEER_EARG, "steer_debug_extent", "w", why);
    steer_World *good = NULL;
    REQUIRE(steer_world_new(NULL, &good) == STEER_OK, "a world");
    EXPECT(steer_world_take_state(good, w), STEER_EARG, "steer_world_take_state", "from", why);
    EXPECT(steer_world_take_state(w, good), STEER_EARG, "steer_world_take_state", "w", why);
    steer_world_free(good);
    steer_world_free(NULL); // as free(NULL): nothing
}

// The same calls with a world of another copy refuse it and name it so;
// a behaviour of another copy is refused where a world would take it.
static void test_foreign_objects(void)
{
    steer_World *w = FOREIGN_WORLD;
    steer_Agent a = { 1 };
    double v[3] = { 0, 0, 0 };
    const char *why = "another copy";
    EXPECT(steer_world_step(w, 1), STEER_EARG, "steer_world_step", "w", why);
    EXPECT(steer_world_count(w), 0, "steer_world_count", "w", why);
    EXPECT(steer_world_hash(w), 0u, "steer_world_hash", "w", why);
    EXPECT(steer_agent_vec(w, a, STEER_PROP_POSITION, v), STEER_EARG, "steer_agent_vec", "w", why);
    EXPECT(steer_spawn(w, NULL, &a), STEER_EARG, "steer_spawn", "w", why);
    steer_world_free(w); // refused, not freed by the wrong allocator
    REFUSED("steer_world_free", "w", why);

    steer_World *good = NULL;
    REQUIRE(steer_world_new(NULL, &good) == STEER_OK, "a world");
    steer_AgentDesc ad = { 0 };
    ad.max_speed = 1;
    ad.max_force = 1;
    ad.brain = FOREIGN_TREE;
    EXPECT(steer_spawn(good, &ad, &a), STEER_EARG, "steer_spawn", "brain", why);
    CHECK(steer_world_count(good) == 0, "a refused spawn added an agent");
    ad.brain = NULL;
    REQUIRE(steer_spawn(good, &ad, &a) == STEER_OK, "an agent");
    EXPECT(steer_agent_set_brain(good, a, FOREIGN_TREE), STEER_EARG, "steer_agent_set_brain", "brain", why);
    EXPECT(steer_world_take_state(good, w), STEER_EARG, "steer_world_take_state", "from", why);
    steer_Behavior *seek = NULL;
    REQUIRE(steer_behavior_new("seek", &seek) == STEER_OK, "a behaviour");
    EXPECT(steer_behavior_add_child(FOREIGN_TREE, seek, 1), STEER_EARG, "steer_behavior_add_child", "parent", why);
    steer_Behavior *blend = NULL;
    REQUIRE(steer_behavior_new("blend", &blend) == STEER_OK, "a blend");
    EXPECT(steer_behavior_add_child(blend, FOREIGN_TREE, 1), STEER_EARG, "steer_behavior_add_child", "child", why);
    EXPECT(steer_behavior_set_number(FOREIGN_TREE, "weight", 1), STEER_EARG, "steer_behavior_set_number", "b", why);
    EXPECT(strcmp(steer_behavior_kind(FOREIGN_TREE), ""), 0, "steer_behavior_kind", "b", why);
    steer_behavior_release(FOREIGN_TREE); // refused, not released
    REFUSED("steer_behavior_release", "b", why);
    CHECK(steer_world_count(good) == 1 && steer_world_step(good, 5) == STEER_OK, "the good world was disturbed");
    steer_behavior_release(seek);
    steer_behavior_release(blend);
    steer_world_free(good);
}

// NULL behaviours, and NULL where a function writes its result or reads
// an array, on a good world: refused, never dereferenced.
static void test_null_arguments(void)
{
    steer_World *w = NULL;
    EXPECT(steer_world_new(NULL, NULL), STEER_EARG, "steer_world_new", "out", "NULL");
    REQUIRE(steer_world_new(NULL, &w) == STEER_OK, "a world");
    steer_AgentDesc ad = { 0 };
    ad.max_speed = 1;
    ad.max_force = 1;
    steer_Agent a = STEER_NO_AGENT;
    REQUIRE(steer_spawn(w, &ad, &a) == STEER_OK, "an agent");
    steer_Behavior *t = NULL;
    double d;
    bool b;
    int n;
    const char *s;
    steer_Shape sh;
    const char *why = "NULL";
    EXPECT(steer_agent_vec(w, a, STEER_PROP_POSITION, NULL), STEER_EARG, "steer_agent_vec", "out", why);
    EXPECT(steer_agent_set_vec(w, a, STEER_PROP_POSITION, NULL), STEER_EARG, "steer_agent_set_vec", "v", why);
    EXPECT(steer_agent_kinematic(w, a, NULL), STEER_EARG, "steer_agent_kinematic", "out", why);
    EXPECT(steer_agent_param(w, a, STEER_PARAM_MAX_SPEED, NULL), STEER_EARG, "steer_agent_param", "out", why);
    EXPECT(steer_agent_tag(w, a, NULL), STEER_EARG, "steer_agent_tag", "out", why);
    EXPECT(steer_agent_brain(w, a, NULL), STEER_EARG, "steer_agent_brain", "out", why);
    EXPECT(steer_agent_think(w, a, NULL, &d), STEER_EARG, "steer_agent_think", "ref", why);
    EXPECT(steer_agent_craft(w, a, NULL), STEER_EARG, "steer_agent_craft", "out", why);
    EXPECT(steer_agent_turn_radius(w, a, NULL), STEER_EARG, "steer_agent_turn_radius", "out", why);
    EXPECT(steer_agent_contributions(w, a, NULL, NULL), STEER_EARG, "steer_agent_contributions", "fn", why);
    EXPECT(steer_world_agents(w, NULL, 4), STEER_EARG, "steer_world_agents", "out", why);
    EXPECT(steer_world_neighbors(w, NULL, 1, NULL, false, &a, 1), STEER_EARG, "steer_world_neighbors", "pos", why);
    EXPECT(steer_add_circle(w, NULL, 1, &sh), STEER_EARG, "steer_add_circle", "c", why);
    EXPECT(steer_add_wall(w, NULL, NULL, &sh), STEER_EARG, "steer_add_wall", "a", why);
    EXPECT(steer_add_plane(w, NULL, NULL, &sh), STEER_EARG, "steer_add_plane", "point", why);
    EXPECT(steer_add_box(w, NULL, NULL, &sh), STEER_EARG, "steer_add_box", "lo", why);
    double v[3] = { 1, 0, 0 };
    EXPECT(steer_raycast(w, NULL, v, 1, 0, a, NULL), STEER_EARG, "steer_raycast", "origin", why);
    EXPECT(steer_world_save(w, NULL, NULL), STEER_EARG, "steer_world_save", "write", why);
    EXPECT(steer_world_restore(w, NULL, 10, NULL, 0), STEER_EARG, "steer_world_restore", "data", why);
    EXPECT(steer_world_load(NULL, NULL, 10, &w, NULL, 0), STEER_EARG, "steer_world_load", "data", why);
    EXPECT(steer_world_events(w, NULL), NULL, "steer_world_events", "count", why);
    EXPECT(steer_debug_agents(w, NULL), STEER_EARG, "steer_debug_agents", "out", why);
    EXPECT(steer_debug_agent(w, a, NULL), STEER_EARG, "steer_debug_agent", "out", why);
    EXPECT(steer_debug_shape(w, 0, NULL), STEER_EARG, "steer_debug_shape", "out", why);
    EXPECT(steer_agent_directed_seek_plan(w, a, NULL, NULL), STEER_EARG, "steer_agent_directed_seek_plan", "b", why);

    EXPECT(steer_behavior_new("seek", NULL), STEER_EARG, "steer_behavior_new", "out", why);
    EXPECT(steer_behavior_new(NULL, &t), STEER_EARG, "steer_behavior_new", "kind", why);
    EXPECT(steer_behavior_new_alloc(NULL, NULL, NULL, &t), STEER_EARG, "steer_behavior_new_alloc", "kind", why);
    EXPECT(steer_behavior_set_number(NULL, "weight", 1), STEER_EARG, "steer_behavior_set_number", "b", why);
    EXPECT(steer_behavior_set_choice(NULL, "x", "y"), STEER_EARG, "steer_behavior_set_choice", "b", why);
    EXPECT(steer_behavior_set_tag(NULL, "x", "y"), STEER_EARG, "steer_behavior_set_tag", "b", why);
    EXPECT(steer_behavior_set_callback(NULL, "x", 1), STEER_EARG, "steer_behavior_set_callback", "b", why);
    EXPECT(steer_behavior_set_target_point(NULL, "x", v), STEER_EARG, "steer_behavior_set_target_point", "b", why);
    EXPECT(steer_behavior_set_target_agent(NULL, "x", a), STEER_EARG, "steer_behavior_set_target_agent", "b", why);
    EXPECT(steer_behavior_set_vector(NULL, "x", v), STEER_EARG, "steer_behavior_set_vector", "b", why);
    EXPECT(steer_behavior_set_bool(NULL, "x", true), STEER_EARG, "steer_behavior_set_bool", "b", why);
    EXPECT(steer_behavior_set_points(NULL, "x", v, 1), STEER_EARG, "steer_behavior_set_points", "b", why);
    EXPECT(steer_behavior_set_name(NULL, "x"), STEER_EARG, "steer_behavior_set_name", "b", why);
    EXPECT(strcmp(steer_behavior_kind(NULL), ""), 0, "steer_behavior_kind", "b", why);
    EXPECT(strcmp(steer_behavior_name(NULL), ""), 0, "steer_behavior_name", "b", why);
    EXPECT(strcmp(steer_behavior_error(NULL), ""), 0, "steer_behavior_error", "b", why);
    EXPECT(steer_behavior_add_child(NULL, NULL, 1), STEER_EARG, "steer_behavior_add_child", "parent", why);
    EXPECT(steer_behavior_add_child_to(NULL, "x", NULL), STEER_EARG, "steer_behavior_add_child_to", "parent", why);
    EXPECT(steer_behavior_new_host(NULL, &t), STEER_EARG, "steer_behavior_new_host", "k", why);
    REQUIRE(steer_behavior_new("seek", &t) == STEER_OK, "a behaviour");
    // a NULL field is a field the kind lacks: the behaviour's own error says so
    CHECK(steer_behavior_set_number(t, NULL, 1) == STEER_EARG && strstr(steer_behavior_error(t), "(null)"),
          "a NULL field: %s", steer_behavior_error(t));
    EXPECT(steer_behavior_set_target_point(t, "target", NULL), STEER_EARG, "steer_behavior_set_target_point", "p", why);
    steer_behavior_retain(NULL);
    steer_behavior_release(NULL);
    steer_HostKind *hk = NULL;
    EXPECT(steer_host_kind_new(NULL, NULL), STEER_EARG, "steer_host_kind_new", "out", why);
    EXPECT(steer_host_kind_new(NULL, &hk), STEER_EARG, "steer_host_kind_new", "desc", why);
    EXPECT(steer_host_kind_name(NULL), NULL, "steer_host_kind_name", "k", why);
    steer_host_kind_free(NULL);
    steer_SeekPlan plan;
    EXPECT(steer_directed_seek_plan(NULL, v, 1, v, v, 1, 0.1, false, &plan), STEER_EARG, "steer_directed_seek_plan",
           "position", why);
    EXPECT(steer_directed_seek_plan(v, v, 1, v, v, 1, 0.1, false, NULL), STEER_EARG, "steer_directed_seek_plan", "out",
           why);
    EXPECT(steer_draw_push(NULL, NULL, NULL), STEER_EARG, "steer_draw_push", "d", why);
    steer_draw_clear(NULL);
    steer_draw_free(NULL);
    CHECK(steer_debug_nav_grids(NULL) == 0, "no layers hold no grids");
    CHECK(steer_debug_flow_step(0, NULL, NULL) == STEER_EARG, "steer_debug_flow_step took NULL");
    (void)b, (void)n, (void)s;

    // none of it touched the world
    CHECK(steer_world_count(w) == 1 && steer_world_step(w, 3) == STEER_OK && steer_world_tick(w) == 3,
          "the good world was disturbed");
    steer_behavior_release(t);
    steer_world_free(w);
}

int main(void)
{
    CHECK(strcmp(steer_last_error(), "") == 0, "steer_last_error() before any refusal: \"%s\"", steer_last_error());
    RUN(test_null_world);
    RUN(test_foreign_objects);
    RUN(test_null_arguments);
    return check_report_("boundary");
}
