// SPDX-License-Identifier: MIT
// test_debug.c — steer_debug.h, what a renderer reads: the agents' arrays
// have an entry per agent and hold what the per-agent getters return; the
// node iterator walks a blend/priority/dither brain in depth-first order
// with the recorded forces, the winners and the cuts; shapes, paths and
// nav layers come out as they went in; a stale handle, a bad index, NULL
// and a call during a tick give a status, never a crash.
#include "check.h"
#include "make.h"
#include "steer_debug.h"
#include "nav/layers.h"

#include <math.h>
#include <string.h>

static steer_Behavior *seek(const char *name, double x, double y)
{
    steer_Behavior *b = test_behavior("seek");
    double p[3] = { x, y, 0 };
    steer_behavior_set_target_point(b, "target", p);
    steer_behavior_set_name(b, name);
    return b;
}

// Adds child to parent and drops the caller's reference.
static void add(steer_Behavior *parent, steer_Behavior *child, double weight)
{
    steer_behavior_add_child(parent, child, weight);
    steer_behavior_release(child);
}

// test_view.c's explain brain: blend{ priority{ quiet, east } x1, dither{ away } x1, north x5 }
static steer_Behavior *explained_brain(void)
{
    steer_Behavior *blend = test_behavior("blend"), *prio = test_behavior("priority"),
                   *dither = test_behavior("dither");
    steer_Behavior *away = test_behavior("flee");
    double north[3] = { 10, 90, 0 };
    steer_behavior_set_target_point(away, "target", north);
    steer_behavior_set_name(away, "away");
    add(prio, seek("quiet", 10, 10), 1); // the agent sits on its target: no force
    add(prio, seek("east", 90, 50), 1);
    add(dither, away, 1);
    add(blend, prio, 1);
    add(blend, dither, 1);
    add(blend, seek("north", 10, 90), 5);
    return blend;
}

static void test_agent_arrays(void)
{
    steer_WorldDesc wd = { .size = { 100, 100 } };
    steer_World *w = test_world(&wd);
    REQUIRE(w, "world");
    steer_Behavior *brain = seek(NULL, 50, 50);
    static const char *tags[] = { NULL, "red", "blue" };
    for (int i = 0; i < 40; i++) {
        steer_AgentDesc ad = { .position = { test_uniform(0, 100), test_uniform(0, 100) },
                               .velocity = { test_uniform(-1, 1), test_uniform(-1, 1) },
                               .max_speed = 1 + i % 3,
                               .max_force = 2 + i % 5,
                               .mass = 1 + i % 2,
                               .radius = 0.25 + 0.05 * (i % 4),
                               .tag = tags[i % 3],
                               .brain = i % 4 ? brain : NULL };
        REQUIRE(steer_spawn(w, &ad, NULL) == STEER_OK, "spawn %d", i);
    }
    steer_behavior_release(brain);
    REQUIRE(steer_world_step(w, 20) == STEER_OK, "step");
    steer_DebugAgents ag;
    REQUIRE(steer_debug_agents(w, &ag) == STEER_OK, "the arrays");
    CHECK(ag.count == steer_world_count(w) && ag.count == 40, "an entry per agent: %d of %d", ag.count,
          steer_world_count(w));
    CHECK(ag.removed == 0 && ag.dim == 2, "none removed, 2D");
    CHECK(!ag.position[2] && !ag.velocity[2] && !ag.heading[2] && !ag.force[2], "no z arrays in 2D");
    for (int i = 0; i < ag.count && !FAILED(); i++) {
        steer_Agent a = steer_debug_agent_handle(w, i);
        CHECK(a.id == steer_world_agent_at(w, i).id, "entry %d is the %d-th agent", i, i);
        double p[3], v[3], h[3], f[3], r, ms, mf, m;
        steer_agent_vec(w, a, STEER_PROP_POSITION, p);
        steer_agent_vec(w, a, STEER_PROP_VELOCITY, v);
        steer_agent_vec(w, a, STEER_PROP_HEADING, h);
        steer_agent_vec(w, a, STEER_PROP_FORCE, f);
        steer_agent_param(w, a, STEER_PARAM_RADIUS, &r);
        steer_agent_param(w, a, STEER_PARAM_MAX_SPEED, &ms);
        steer_agent_param(w, a, STEER_PARAM_MAX_FORCE, &mf);
        steer_agent_param(w, a, STEER_PARAM_MASS, &m);
        for (int k = 0; k < 2; k++) {
            CHECK(ag.position[k][i] == (float)p[k], "position %d.%d: %g, the getter %g", i, k,
                  (double)ag.position[k][i], p[k]);
            CHECK(ag.velocity[k][i] == (float)v[k], "velocity %d.%d", i, k);
            CHECK(ag.heading[k][i] == (float)h[k], "heading %d.%d", i, k);
            CHECK(ag.force[k][i] == (float)f[k], "force %d.%d", i, k);
        }
        CHECK(ag.radius[i] == (float)r && ag.max_speed[i] == (float)ms && ag.max_force[i] == (float)mf &&
                  ag.mass[i] == (float)m,
              "agent %d's numbers", i);
        const char *tag = NULL;
        steer_agent_tag(w, a, &tag);
        const char *name = steer_debug_tag_name(w, ag.tag[i]);
        CHECK(tag == name || (tag && name && strcmp(tag, name) == 0), "agent %d's tag %s, the array's %s", i,
              tag ? tag : "(none)", name ? name : "(none)");
        steer_DebugAgent da;
        CHECK(steer_debug_agent(w, a, &da) == STEER_OK && da.index == i, "agent %d's entry", i);
        steer_Behavior *own = NULL;
        steer_agent_brain(w, a, &own);
        CHECK(da.nodes == (own ? 1 : 0), "agent %d's brain has %d nodes", i, da.nodes);
    }
    CHECK(steer_debug_tag_name(w, 0) == NULL && steer_debug_tag_name(w, 999) == NULL, "no name for 0 or unknown");
    steer_world_free(w);
}

static void test_agent_arrays_3d(void)
{
    steer_WorldDesc wd = { .dim = 3 };
    steer_World *w = test_world(&wd);
    REQUIRE(w, "world");
    steer_Behavior *brain = test_behavior("wander");
    for (int i = 0; i < 10; i++) {
        steer_AgentDesc ad = { .position = { i, -i, 2 * i }, .velocity = { 1, 0, 0.5 }, .brain = brain };
        REQUIRE(steer_spawn(w, &ad, NULL) == STEER_OK, "spawn");
    }
    steer_behavior_release(brain);
    steer_world_step(w, 5);
    steer_DebugAgents ag;
    REQUIRE(steer_debug_agents(w, &ag) == STEER_OK && ag.dim == 3 && ag.count == 10, "3D arrays");
    REQUIRE(ag.position[2] && ag.velocity[2] && ag.heading[2] && ag.force[2], "z arrays in 3D");
    for (int i = 0; i < ag.count; i++) {
        double p[3];
        steer_agent_vec(w, steer_debug_agent_handle(w, i), STEER_PROP_POSITION, p);
        for (int k = 0; k < 3; k++) CHECK(ag.position[k][i] == (float)p[k], "position %d.%d", i, k);
    }
    steer_world_free(w);
}

typedef struct Contrib {
    char name[8][32];
    double f[8][3];
    int n;
} Contrib;

static void contrib(void *ud, const char *name, const double f[3])
{
    Contrib *c = ud;
    if (c->n >= 8) return;
    snprintf(c->name[c->n], sizeof c->name[c->n], "%s", name);
    memcpy(c->f[c->n++], f, sizeof c->f[0]);
}

static void test_node_iterator(void)
{
    steer_WorldDesc wd = { .size = { 100, 100 } };
    steer_World *w = test_world(&wd);
    REQUIRE(w, "world");
    steer_Behavior *brain = explained_brain();
    steer_Agent a;
    steer_AgentDesc ad = { .position = { 10, 10 }, .max_speed = 2, .max_force = 1, .brain = brain };
    REQUIRE(steer_spawn(w, &ad, &a) == STEER_OK, "spawn");
    steer_behavior_release(brain);
    REQUIRE(steer_world_step(w, 1) == STEER_OK, "step");
    steer_DebugAgent da;
    REQUIRE(steer_debug_agent(w, a, &da) == STEER_OK, "the agent");
    REQUIRE(da.nodes == 7 && da.recorded, "seven nodes recorded, got %d", da.nodes);
    Contrib c = { .n = 0 };
    steer_agent_contributions(w, a, contrib, &c);
    REQUIRE(c.n == 7, "seven contributions");
    static const struct {
        const char *name, *kind;
        int parent, depth, children;
        bool weighted;
        float weight;
    } want[7] = {
        { "blend", "blend", -1, 0, 3, false, 1 }, { "priority", "priority", 0, 1, 2, true, 1 },
        { "quiet", "seek", 1, 2, 0, false, 1 },   { "east", "seek", 1, 2, 0, false, 1 },
        { "dither", "dither", 0, 1, 1, true, 1 }, { "away", "flee", 4, 2, 0, true, 1 },
        { "north", "seek", 0, 1, 0, true, 5 },
    };
    steer_DebugNode n[7];
    for (int i = 0; i < 7; i++) {
        REQUIRE(steer_debug_node(w, a, i, &n[i]) == STEER_OK, "node %d", i);
        CHECK(n[i].index == i, "node %d's index", i);
        CHECK(strcmp(n[i].name, want[i].name) == 0 && strcmp(n[i].name, c.name[i]) == 0,
              "node %d is %s (contributions: %s), got %s", i, want[i].name, c.name[i], n[i].name);
        CHECK(strcmp(n[i].kind, want[i].kind) == 0, "node %d's kind %s, got %s", i, want[i].kind, n[i].kind);
        CHECK(n[i].parent == want[i].parent && n[i].depth == want[i].depth && n[i].children == want[i].children,
              "node %d: parent %d depth %d children %d", i, n[i].parent, n[i].depth, n[i].children);
        CHECK(n[i].weighted == want[i].weighted, "node %d weighted by its parent: %d", i, n[i].weighted);
        if (want[i].weighted) CHECK(n[i].weight == want[i].weight, "node %d's weight %g", i, (double)n[i].weight);
        CHECK(n[i].recorded, "node %d recorded", i);
        for (int k = 0; k < 3; k++)
            CHECK(n[i].force[k] == (float)c.f[i][k], "node %d's force %d: %g, recorded %g", i, k, (double)n[i].force[k],
                  c.f[i][k]);
        CHECK(n[i].target_kind == (strcmp(n[i].kind, "seek") == 0 || strcmp(n[i].kind, "flee") == 0
                                       ? STEER_TARGET_POINT
                                       : STEER_TARGET_SLOT),
              "node %d's target kind %d", i, n[i].target_kind);
        CHECK(!n[i].points && n[i].npoints == 0, "no paths");
    }
    // the root's force is the agent's
    double f[3];
    steer_agent_vec(w, a, STEER_PROP_FORCE, f);
    CHECK(n[0].force[0] == (float)f[0] && n[0].force[1] == (float)f[1], "the root's output is the agent's force");
    // the priority: quiet gave nothing, east won
    CHECK(n[1].note_kind == STEER_NOTE_WON && n[1].winner == 3 && n[1].winner_child == 2,
          "the priority's winner is east (node 3, child 2): %d, %d", n[1].winner, n[1].winner_child);
    CHECK(strcmp(n[1].note, "east won (child 2)") == 0, "the priority's note: '%s'", n[1].note);
    CHECK(memcmp(n[1].force, n[3].force, sizeof n[1].force) == 0, "the winner's force passed on unchanged");
    CHECK(n[2].note_kind == STEER_NOTE_QUIET && strcmp(n[2].note, "quiet / not run") == 0 && n[2].winner == -1,
          "quiet says so: '%s'", n[2].note);
    CHECK(n[4].note_kind == STEER_NOTE_WON && n[4].winner == 5 && strcmp(n[4].note, "away won (child 1)") == 0,
          "the dither's winner is away: '%s'", n[4].note);
    // the blend: max_force 1 cuts the weighted sum (5 x north alone is longer)
    CHECK(n[0].note_kind == STEER_NOTE_CUT && strstr(n[0].note, "cut") != NULL, "the blend's cut: '%s'", n[0].note);
    float raw[3] = { 0, 0, 0 };
    for (int i = 1; i < 7; i++)
        if (n[i].parent == 0)
            for (int k = 0; k < 3; k++) raw[k] += n[i].weight * n[i].force[k];
    float lr = sqrtf(raw[0] * raw[0] + raw[1] * raw[1] + raw[2] * raw[2]);
    CHECK(n[0].raw == lr && lr > 1, "the blend's raw sum %g, the children's %g", (double)n[0].raw, (double)lr);

    // without recording: the structure, no forces, nothing to say
    steer_world_set_record(w, false);
    REQUIRE(steer_debug_agent(w, a, &da) == STEER_OK && !da.recorded && da.nodes == 7, "not recorded");
    steer_DebugNode q;
    REQUIRE(steer_debug_node(w, a, 1, &q) == STEER_OK, "node 1 still");
    CHECK(!q.recorded && q.force[0] == 0 && q.force[1] == 0 && q.note[0] == 0 && q.winner == -1 &&
              q.note_kind == STEER_NOTE_NONE,
          "no forces or notes without recording");
    CHECK(strcmp(q.name, "priority") == 0 && q.parent == 0, "the structure is still there");
    steer_world_free(w);
}

static void test_errors(void)
{
    steer_WorldDesc wd = { .size = { 100, 100 } };
    steer_World *w = test_world(&wd);
    REQUIRE(w, "world");
    steer_Behavior *brain = explained_brain();
    steer_Agent a, b, c;
    steer_AgentDesc ad = { .position = { 10, 10 }, .brain = brain };
    steer_spawn(w, &ad, &a);
    steer_spawn(w, &ad, &b);
    ad.brain = NULL;
    steer_spawn(w, &ad, &c);
    steer_behavior_release(brain);
    steer_world_step(w, 1);
    steer_DebugAgent da = { .index = 77 };
    steer_DebugNode n;
    // an agent without a brain: no nodes
    CHECK(steer_debug_agent(w, c, &da) == STEER_OK && da.nodes == 0 && da.sense == 0, "no brain, no nodes");
    CHECK(steer_debug_node(w, c, 0, &n) == STEER_EARG, "no node 0 without a brain");
    // indices out of range
    CHECK(steer_debug_node(w, a, -1, &n) == STEER_EARG && steer_debug_node(w, a, 7, &n) == STEER_EARG,
          "node indices out of range");
    CHECK(steer_debug_agent_handle(w, -1).id == 0 && steer_debug_agent_handle(w, 3).id == 0,
          "entries out of range have no handle");
    // removed: stale at once, its entry kept (without a handle) until the next step
    REQUIRE(steer_remove(w, a) == STEER_OK, "remove");
    da.index = 77;
    CHECK(steer_debug_agent(w, a, &da) == STEER_ESTALE && da.index == 77, "a removed agent is stale, out untouched");
    CHECK(steer_debug_node(w, a, 0, &n) == STEER_ESTALE, "a removed agent's nodes are stale");
    steer_DebugAgents ag;
    REQUIRE(steer_debug_agents(w, &ag) == STEER_OK, "arrays");
    CHECK(ag.count == 3 && ag.removed == 1 && steer_world_count(w) == 2, "count %d = live 2 + removed %d", ag.count,
          ag.removed);
    int holes = 0;
    for (int i = 0; i < ag.count; i++) holes += steer_debug_agent_handle(w, i).id == 0;
    CHECK(holes == 1, "the removed agent's entry has no handle (%d such)", holes);
    steer_world_step(w, 1);
    REQUIRE(steer_debug_agents(w, &ag) == STEER_OK, "arrays");
    CHECK(ag.count == 2 && ag.removed == 0, "gone after the step: %d", ag.count);
    CHECK(steer_debug_agent(w, a, &da) == STEER_ESTALE, "still stale");
    // the slot reused: the old handle stays stale, the new agent is found
    steer_Agent d;
    steer_spawn(w, &ad, &d);
    CHECK((uint32_t)d.id == (uint32_t)a.id && d.id != a.id, "the slot is reused with a new generation");
    CHECK(steer_debug_agent(w, a, &da) == STEER_ESTALE, "the old handle does not name the new agent");
    CHECK(steer_debug_agent(w, d, &da) == STEER_OK && da.index == 2, "the new agent is entry 2");
    // forged and zero handles, NULL arguments
    steer_Agent forged = { b.id + (1ull << 32) }, zero = { 0 };
    CHECK(steer_debug_agent(w, forged, &da) == STEER_ESTALE && steer_debug_agent(w, zero, &da) == STEER_ESTALE,
          "a forged or zero handle is stale");
    CHECK(steer_debug_agent(w, b, NULL) == STEER_EARG && steer_debug_node(w, b, 0, NULL) == STEER_EARG, "NULL out");
    CHECK(steer_debug_agents(NULL, &ag) == STEER_EARG && steer_debug_agents(w, NULL) == STEER_EARG, "NULL arrays");
    CHECK(steer_debug_agent(NULL, b, &da) == STEER_EARG && steer_debug_node(NULL, b, 0, &n) == STEER_EARG,
          "NULL world");
    CHECK(steer_debug_agent_handle(NULL, 0).id == 0 && steer_debug_tag_name(NULL, 1) == NULL, "NULL world: none");
    CHECK(steer_debug_paths(w, NULL, NULL) == STEER_EARG && steer_debug_shape_slots(NULL) == 0, "NULL callbacks");
    steer_world_free(w);
}

// A host behaviour that reads the debug view during the steer pass.
typedef struct Busy {
    int agents, agent, node, paths;
    steer_Agent who;
} Busy;

static void no_path(void *ud, const float *xyz, int n)
{
    (void)ud;
    (void)xyz;
    (void)n;
}

static void busy_fn(void *ud, const steer_HostCtx *ctx, double force[3])
{
    Busy *b = ud;
    steer_DebugAgents ag;
    steer_DebugAgent da;
    steer_DebugNode n;
    b->agents = steer_debug_agents(ctx->world, &ag);
    b->agent = steer_debug_agent(ctx->world, ctx->agent, &da);
    b->node = steer_debug_node(ctx->world, ctx->agent, 0, &n);
    b->paths = steer_debug_paths(ctx->world, no_path, NULL);
    force[0] = force[1] = force[2] = 0;
}

static void test_busy_during_tick(void)
{
    Busy busy = { 0, 0, 0, 0, { 0 } };
    steer_HostBehaviorDesc hd = { .name = "peek", .fn = busy_fn, .ud = &busy };
    steer_HostKind *k = NULL;
    REQUIRE(steer_host_kind_new(&hd, &k) == STEER_OK, "host kind");
    steer_Behavior *b = NULL;
    REQUIRE(steer_behavior_new_host(k, &b) == STEER_OK, "behaviour");
    steer_World *w = test_world(NULL);
    steer_AgentDesc ad = { .brain = b };
    steer_spawn(w, &ad, NULL);
    steer_behavior_release(b);
    steer_world_step(w, 1);
    CHECK(busy.agents == STEER_EBUSY && busy.agent == STEER_EBUSY && busy.node == STEER_EBUSY &&
              busy.paths == STEER_EBUSY,
          "half-updated during a tick: %d %d %d %d", busy.agents, busy.agent, busy.node, busy.paths);
    steer_DebugAgents ag;
    CHECK(steer_debug_agents(w, &ag) == STEER_OK && ag.count == 1, "fine after it");
    steer_world_free(w);
    steer_host_kind_free(k);
}

static void test_shapes(void)
{
    steer_WorldDesc wd = { .size = { 50, 50 } };
    steer_World *w = test_world(&wd);
    REQUIRE(w, "world");
    steer_Shape circle, wall, box;
    double c[3] = { 10, 12, 0 }, a[3] = { 1, 2, 0 }, b[3] = { 30, 4, 0 }, lo[3] = { 5, 5, 0 }, hi[3] = { 8, 9, 0 };
    REQUIRE(steer_add_circle(w, c, 2.5, &circle) == STEER_OK && steer_add_wall(w, a, b, &wall) == STEER_OK &&
                steer_add_box(w, lo, hi, &box) == STEER_OK,
            "shapes");
    REQUIRE(steer_remove_shape(w, wall) == STEER_OK, "remove the wall");
    int slots = steer_debug_shape_slots(w);
    CHECK(slots == 3, "three slots, one free: %d", slots);
    steer_DebugShape s[3];
    int alive = 0;
    for (int i = 0; i < slots; i++) {
        int r = steer_debug_shape(w, i, &s[i]);
        CHECK(r == 0 || r == 1, "slot %d: %d", i, r);
        alive += r == 1;
        if (r == 1) CHECK(steer_shape_alive(w, s[i].shape), "slot %d's handle is live", i);
    }
    CHECK(alive == steer_world_shape_count(w) && alive == 2, "two live shapes");
    CHECK(steer_debug_shape(w, 0, &s[0]) == 1 && s[0].shape.id == circle.id && s[0].kind == STEER_SHAPE_CIRCLE &&
              s[0].a[0] == 10 && s[0].a[1] == 12 && s[0].r == 2.5f,
          "the circle");
    CHECK(steer_debug_shape(w, 1, &s[1]) == 0, "the wall's slot is free");
    CHECK(steer_debug_shape(w, 2, &s[2]) == 1 && s[2].shape.id == box.id && s[2].kind == STEER_SHAPE_BOX &&
              s[2].a[0] == 5 && s[2].b[1] == 9,
          "the box");
    CHECK(steer_debug_shape(w, -1, &s[0]) == STEER_EARG && steer_debug_shape(w, 3, &s[0]) == STEER_EARG &&
              steer_debug_shape(w, 0, NULL) == STEER_EARG,
          "out of range, NULL");
    steer_world_free(w);
}

typedef struct Paths {
    float first[3];
    int n[4], count;
} Paths;

static void on_path(void *ud, const float *xyz, int n)
{
    Paths *p = ud;
    if (p->count == 0) memcpy(p->first, xyz, sizeof p->first);
    if (p->count < 4) p->n[p->count] = n;
    p->count++;
}

static void test_paths(void)
{
    steer_World *w = test_world(NULL);
    steer_Behavior *patrol = test_behavior("patrol"), *path = test_behavior("follow_path"),
                   *blend = test_behavior("blend");
    double pts[9] = { 1, 2, 0, 3, 4, 0, 5, 6, 0 };
    REQUIRE(steer_behavior_set_points(patrol, "points", pts, 3) == STEER_OK, "patrol");
    REQUIRE(steer_behavior_set_points(path, "path", pts + 3, 2) == STEER_OK, "path");
    add(blend, patrol, 1);
    add(blend, path, 1);
    steer_AgentDesc ad = { .brain = blend };
    steer_Agent a;
    steer_spawn(w, &ad, &a);
    steer_spawn(w, &ad, NULL); // the same brain: its paths once
    steer_behavior_release(blend);
    Paths p = { .count = 0 };
    REQUIRE(steer_debug_paths(w, on_path, &p) == STEER_OK, "paths");
    CHECK(p.count == 2 && p.n[0] == 3 && p.n[1] == 2, "two routes of 3 and 2 points: %d", p.count);
    CHECK(p.first[0] == 1 && p.first[1] == 2, "in node order");
    steer_DebugNode n;
    REQUIRE(steer_debug_node(w, a, 1, &n) == STEER_OK, "node 1");
    CHECK(n.npoints == 3 && n.points && n.points[3] == 3 && n.points[4] == 4, "the node carries its route");
    steer_world_free(w);
}

static void test_nav(void)
{
    CHECK(steer_debug_nav_grids(NULL) == 0, "no layers, no grids");
    double origin[2] = { -5, 10 };
    steerN_Grid *g = steerN_grid_new(8, 6, 2.0, origin, NULL);
    REQUIRE(g, "grid");
    steerN_set_cost(g, 3, 2, INFINITY);
    steerN_Flow *f = steerN_flow_new(g);
    REQUIRE(f, "flow");
    double goal[2] = { 9, 19 };
    REQUIRE(steerN_flow_build(f, goal, 1) == 0, "build");
    const steerN_Flow *flows[1] = { f };
    steerN_Shown shown = { .grid = g, .flows = flows, .nflows = 1, .cap = 1 };
    const steerN_Shown *grids[1] = { &shown };
    steerN_Layers nav = { .grids = grids, .n = 1, .cap = 1 };
    CHECK(steer_debug_nav_grids(&nav) == 1, "one grid");
    steer_DebugGrid dg;
    REQUIRE(steer_debug_nav_grid(&nav, 0, &dg) == STEER_OK, "grid 0");
    CHECK(dg.nx == 8 && dg.ny == 6 && dg.cell == 2.0 && dg.origin[0] == -5 && dg.origin[1] == 10 && dg.flows == 1,
          "the grid's geometry");
    CHECK(dg.cost == g->cost && dg.cost[2 * 8 + 3] == INFINITY, "its costs, row by row");
    steer_DebugFlow df;
    REQUIRE(steer_debug_nav_flow(&nav, 0, 0, &df) == STEER_OK, "flow 0");
    CHECK(df.dir == f->dir && df.ngoals == 1 && df.goals[0] == 9 && df.goals[1] == 19 && df.grid.nx == 8, "the field");
    // following the directions from a corner reaches the goal's cell
    int x = 0, y = 0, steps = 0;
    while (df.dir[y * df.grid.nx + x] != STEER_FLOW_NONE && steps++ < 64) {
        int dx, dy;
        REQUIRE(steer_debug_flow_step(df.dir[y * df.grid.nx + x], &dx, &dy) == STEER_OK, "a step");
        x += dx;
        y += dy;
    }
    CHECK(x == 7 && y == 4, "the field leads to the goal's cell (7, 4), got (%d, %d)", x, y);
    int dx, dy;
    CHECK(steer_debug_flow_step(0, &dx, &dy) == STEER_OK && dx == 1 && dy == 0, "direction 0 is +x");
    CHECK(steer_debug_flow_step(STEER_FLOW_NONE, &dx, &dy) == STEER_EARG &&
              steer_debug_flow_step(-1, &dx, &dy) == STEER_EARG,
          "no step for none");
    CHECK(steer_debug_nav_grid(&nav, 1, &dg) == STEER_EARG && steer_debug_nav_flow(&nav, 0, 1, &df) == STEER_EARG &&
              steer_debug_nav_flow(&nav, -1, 0, &df) == STEER_EARG && steer_debug_nav_grid(NULL, 0, &dg) == STEER_EARG,
          "out of range");
    shown.grid = NULL; // collected with its world
    CHECK(steer_debug_nav_grid(&nav, 0, &dg) == STEER_OK && !dg.cost && dg.flows == 1, "a collected grid has no cells");
    steerN_flow_release(f);
    steerN_grid_release(g);
}

// The box a view fits first (steer_debug_extent): the world's bounds where
// it has them, else the span of agents and shapes; -10..10 with nothing.
static void test_extent(void)
{
    double lo[3], hi[3];
    steer_WorldDesc wd = { 0 };
    steer_World *w = NULL;
    REQUIRE(steer_world_new(&wd, &w) == STEER_OK, "an unbounded world");
    CHECK(steer_debug_extent(w, lo, hi) == STEER_OK && lo[0] == -10 && hi[0] == 10 && lo[1] == -10 && hi[2] == 10,
          "empty: %g..%g, %g..%g", lo[0], hi[0], lo[1], hi[1]);
    steer_AgentDesc ad = { .position = { 3, -4, 0 }, .max_speed = 1, .max_force = 1 };
    REQUIRE(steer_spawn(w, &ad, NULL) == STEER_OK, "an agent");
    double c[3] = { 10, 5, 0 };
    REQUIRE(steer_add_circle(w, c, 2, NULL) == STEER_OK, "a circle");
    CHECK(steer_debug_extent(w, lo, hi) == STEER_OK && lo[0] == 3 && hi[0] == 12 && lo[1] == -4 && hi[1] == 7,
          "agent and circle: x %g..%g, y %g..%g", lo[0], hi[0], lo[1], hi[1]);
    CHECK(lo[2] == -10 && hi[2] == 10, "a 2D world's z: %g..%g", lo[2], hi[2]);
    steer_world_free(w);
    wd.size[0] = 40;
    wd.size[1] = 30;
    wd.origin[0] = -5;
    REQUIRE(steer_world_new(&wd, &w) == STEER_OK, "a bounded world");
    REQUIRE(steer_spawn(w, &ad, NULL) == STEER_OK, "an agent");
    CHECK(steer_debug_extent(w, lo, hi) == STEER_OK && lo[0] == -5 && hi[0] == 35 && lo[1] == 0 && hi[1] == 30,
          "bounds: x %g..%g, y %g..%g", lo[0], hi[0], lo[1], hi[1]);
    CHECK(steer_debug_extent(w, NULL, hi) == STEER_EARG, "a NULL lo is refused");
    steer_world_free(w);
}

int main(void)
{
    RUN(test_extent);
    RUN(test_agent_arrays);
    RUN(test_agent_arrays_3d);
    RUN(test_node_iterator);
    RUN(test_errors);
    RUN(test_busy_during_tick);
    RUN(test_shapes);
    RUN(test_paths);
    RUN(test_nav);
    return check_report_("debug");
}
