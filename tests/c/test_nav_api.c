// SPDX-License-Identifier: MIT
// test_nav_api.c — steer_nav.h as a C host uses it, through the public
// header only: a grid's A* path goes round its blocked cells; a flow field
// leads downhill to its goal; a mesh built from rings finds a way round a
// pillar for a small agent and refuses a gap too narrow for a big one;
// saved bytes load back to the same hash and the same path, damaged bytes
// are refused; obstacles shut a gap and open it again, travel in the
// bytes and refuse bad input; bad arguments give STEER_EARG with
// steer_last_error() naming the function.
#include "steer_debug.h"
#include "steer_nav.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_grid_and_flow(void)
{
    steer_Grid *g = NULL;
    CHECK(steer_grid_new(10, 10, 1, NULL, &g) == STEER_OK && g, "a grid");
    for (int y = 0; y < 8; y++) CHECK(steer_grid_set_cost(g, 5, y, INFINITY) == STEER_OK, "a wall");
    CHECK(steer_grid_cost(g, 5, 3) == INFINITY, "blocked");
    CHECK(steer_grid_cost(g, 50, 3) == INFINITY, "outside counts as blocked");
    double from[2] = { 1.5, 1.5 }, to[2] = { 8.5, 1.5 }, pts[64], cost;
    int n = 0;
    CHECK(steer_grid_path(g, from, to, NULL, 0, &n, &cost) == STEER_OK && n >= 3, "a count first: %d", n);
    int total = n;
    CHECK(steer_grid_path(g, from, to, pts, 32, &n, &cost) == STEER_OK && n == total, "the points");
    bool over = false; // the way goes over the wall's top (y >= 8)
    for (int i = 0; i < n; i++) over |= pts[2 * i + 1] >= 8;
    CHECK(over && cost > 14, "round the wall (straight: 7): cost %g", cost);
    double goal[2] = { 8.5, 1.5 };
    steer_FlowField *f = NULL;
    CHECK(steer_flow_new(g, goal, 1, &f) == STEER_OK && f, "a field");
    double dir[2], left;
    CHECK(steer_flow_sample(f, from, dir, &left) == STEER_OK, "sample");
    CHECK(dir[1] > 0.5 && isfinite(left) && left > 10, "up toward the gap: (%g, %g), %g left", dir[0], dir[1], left);
    double blocked[2] = { 5.5, 2.5 };
    CHECK(steer_flow_set_goal(f, blocked) == STEER_EARG, "a goal in a blocked cell is refused");
    CHECK(strstr(steer_last_error(), "steer_flow_set_goal") != NULL, "named: %s", steer_last_error());
    steer_grid_free(g); // the field holds the grid
    CHECK(steer_flow_refresh(f) == STEER_OK, "the field lives on");
    steer_flow_free(f);
}

// A 30 x 20 hall, a wall at x 14.5 .. 15.5 with a gap of 2 m at y 9 .. 11,
// and a pillar at (6 .. 8, 8 .. 12).
static steer_NavMesh *hall(void)
{
    static const double xy[] = { 0,    0,  30,   0,  30,   20, 0,    20,   // outline
                                 14.5, 0,  15.5, 0,  15.5, 9,  14.5, 9,    // wall, lower part
                                 14.5, 11, 15.5, 11, 15.5, 20, 14.5, 20,   // wall, upper part
                                 6,    8,  8,    8,  8,    12, 6,    12 }; // pillar
    static const uint32_t ends[] = { 4, 8, 12, 16 };
    static const int32_t roles[] = { STEER_RING_OUTLINE, STEER_RING_OBSTACLE, STEER_RING_OBSTACLE,
                                     STEER_RING_OBSTACLE };
    steer_NavMeshDesc d = { .xy = xy, .ring_end = ends, .ring_role = roles, .nrings = 4, .nareas = 1 };
    steer_NavMesh *m = NULL;
    CHECK(steer_navmesh_new(&d, &m) == STEER_OK && m, "a mesh: %s", steer_last_error());
    return m;
}

typedef struct Bytes {
    unsigned char p[1 << 16];
    size_t n;
} Bytes;
static int put(void *ud, const void *data, size_t len)
{
    Bytes *b = ud;
    if (b->n + len > sizeof b->p) return 1;
    memcpy(b->p + b->n, data, len);
    b->n += len;
    return 0;
}

// Off-mesh links from C: a one-way link through the hall's wall low down
// shortens the way from the left to the right (not back); disabled, the
// way goes round by the gap; its bytes carry it; bad links are refused.
static void test_links(void)
{
    steer_NavMesh *m = hall();
    steer_NavQuery *q = NULL;
    CHECK(steer_navquery_new(&q) == STEER_OK && q, "a query");
    uint64_t plain = steer_navmesh_hash(m);
    steer_NavLinkDesc d = { .from = { 13.5, 3, 0 }, .to = { 16.5, 3, 0 }, .one_way = true, .name = "vent" };
    int at = -1;
    CHECK(steer_navmesh_add_link(m, &d, &at) == STEER_OK && at == 0, "added: %s", steer_last_error());
    CHECK(steer_navmesh_link_count(m) == 1, "one link");
    CHECK(steer_navmesh_hash(m) != plain, "the hash covers links");
    double from[2] = { 10, 3 }, to[2] = { 20, 3 }, pts[256], len;
    int n;
    steer_PathStatus st;
    CHECK(steer_navmesh_path(m, q, from, to, NULL, &st, pts, 128, &n, &len) == STEER_OK && st == STEER_PATH_FOUND,
          "a way");
    CHECK(n == 4 && steer_navquery_path_link(q, 1) == 0 && steer_navquery_path_link(q, 0) == -1,
          "by the link: %d points, point 1 starts link %d", n, steer_navquery_path_link(q, 1));
    CHECK(fabs(len - 10) < 1e-9, "3.5 + 3 + 3.5 m: %g", len);
    CHECK(steer_navmesh_path(m, q, to, from, NULL, &st, pts, 128, &n, &len) == STEER_OK && st == STEER_PATH_FOUND &&
              len > 15 && steer_navquery_path_link(q, 1) == -1,
          "one way: back round by the gap (%g m)", len);

    Bytes *b = calloc(1, sizeof *b);
    CHECK(steer_navmesh_save(m, put, b) == STEER_OK, "saved");
    steer_NavMesh *back = NULL;
    CHECK(steer_navmesh_load(b->p, b->n, &back) == STEER_OK && back, "loaded: %s", steer_last_error());
    CHECK(back && steer_navmesh_hash(back) == steer_navmesh_hash(m) && steer_navmesh_link_count(back) == 1,
          "the same hash, the link with it");
    double again[256], len2;
    int n2;
    steer_navmesh_path(m, q, from, to, NULL, &st, pts, 128, &n, &len);
    steer_navmesh_path(back, q, from, to, NULL, &st, again, 128, &n2, &len2);
    CHECK(n == n2 && memcmp(pts, again, sizeof *pts * 2 * (size_t)n) == 0 && len == len2, "the same path, bit for bit");

    CHECK(steer_navmesh_set_link_enabled(m, 0, false) == STEER_OK, "disabled");
    CHECK(steer_navmesh_path(m, q, from, to, NULL, &st, pts, 128, &n, &len) == STEER_OK && st == STEER_PATH_FOUND &&
              len > 15 && steer_navquery_path_link(q, 1) == -1,
          "round by the gap: %g m", len);
    CHECK(steer_navmesh_set_link_enabled(m, 0, true) == STEER_OK && steer_navmesh_hash(m) == steer_navmesh_hash(back),
          "enabled again: the hash as saved");

    steer_NavLinkDesc off = { .from = { 15, 3, 0 }, .to = { 16.5, 3, 0 } };
    CHECK(steer_navmesh_add_link(m, &off, NULL) == STEER_EARG, "an end in the wall");
    CHECK(strstr(steer_last_error(), "steer_navmesh_add_link") && strstr(steer_last_error(), "'from'"), "named: %s",
          steer_last_error());
    steer_NavLinkDesc area = { .from = { 13.5, 3, 0 }, .to = { 16.5, 3, 0 }, .area = 5 };
    CHECK(steer_navmesh_add_link(m, &area, NULL) == STEER_EARG, "an area the mesh has not");
    CHECK(steer_navmesh_set_link_enabled(m, 3, true) == STEER_EARG, "no link 3");
    CHECK(steer_navmesh_link_count(m) == 1, "nothing added");
    free(b);
    steer_navmesh_free(back);
    steer_navmesh_free(m);
    steer_navquery_free(q);
}

static void test_mesh(void)
{
    steer_NavMesh *m = hall();
    if (!m) return;
    steer_NavQuery *q = NULL;
    CHECK(steer_navquery_new(&q) == STEER_OK && q, "a query");
    double from[2] = { 2, 10 }, to[2] = { 28, 10 }, pts[256], len;
    int n;
    steer_PathStatus st;
    steer_NavFilter small = { .radius = 0.3 }, big = { .radius = 1.6 };
    CHECK(steer_navmesh_path(m, q, from, to, &small, &st, pts, 128, &n, &len) == STEER_OK && st == STEER_PATH_FOUND,
          "a way for a small agent: %d", (int)st);
    CHECK(n >= 3 && pts[0] == 2 && pts[1] == 10 && pts[2 * n - 2] == 28 && pts[2 * n - 1] == 10, "from, corners, to");
    CHECK(len > 26 && len < 30, "length %g", len);
    for (int i = 0; i + 1 < n; i++) {
        bool hit = true;
        CHECK(steer_navmesh_raycast(m, pts + 2 * i, pts + 2 * i + 2, NULL, &hit, NULL, NULL, NULL) == STEER_OK && !hit,
              "segment %d is clear", i);
    }
    double low[2] = { 2, 3 }, far[2] = { 28, 3 };
    CHECK(steer_navmesh_path(m, q, low, far, &big, &st, pts, 128, &n, &len) == STEER_OK && st == STEER_PATH_NARROW &&
              n == 0,
          "a 3.2 m agent and a 2 m gap: %d", (int)st);
    double in_pillar[2] = { 7, 10 }, near[2], dist;
    CHECK(steer_navmesh_path(m, q, from, in_pillar, NULL, &st, NULL, 0, &n, NULL) == STEER_OK &&
              st == STEER_PATH_GOAL_OFF,
          "the goal in the pillar");
    CHECK(steer_navmesh_nearest(m, in_pillar, 0, near, &dist) == STEER_OK && fabs(dist - 1) < 1e-9, "nearest: %g",
          dist);
    CHECK(steer_navmesh_contains(m, near, 0), "the nearest point is on the mesh");
    CHECK(fabs(steer_navmesh_wall_distance(m, (double[]){ 3, 10 }) - 3) < 1e-9, "3 m from the walls");
    double rp[2];
    CHECK(steer_navmesh_random_point(m, 0.5, 0.25, 0.75, rp) == STEER_OK && steer_navmesh_contains(m, rp, 0),
          "a random point on the mesh");
    steer_DebugNavMesh view;
    CHECK(steer_navmesh_view(m, &view) == STEER_OK && view.ntri > 0 && view.nareas == 1, "a view");

    Bytes *b = calloc(1, sizeof *b);
    CHECK(steer_navmesh_save(m, put, b) == STEER_OK && b->n > 0, "saved");
    steer_NavMesh *back = NULL;
    CHECK(steer_navmesh_load(b->p, b->n, &back) == STEER_OK && back, "loaded: %s", steer_last_error());
    CHECK(back && steer_navmesh_hash(back) == steer_navmesh_hash(m), "the same hash");
    double again[256], len2;
    int n2;
    steer_navmesh_path(m, q, from, to, &small, &st, pts, 128, &n, &len);
    steer_navmesh_path(back, q, from, to, &small, &st, again, 128, &n2, &len2);
    CHECK(n == n2 && memcmp(pts, again, sizeof *pts * 2 * (size_t)n) == 0 && len == len2, "the same path, bit for bit");
    b->p[40] ^= 1;
    steer_NavMesh *bad = NULL;
    CHECK(steer_navmesh_load(b->p, b->n, &bad) == STEER_EARG && !bad, "damaged bytes refused");
    CHECK(strstr(steer_last_error(), "steer_navmesh_load") != NULL, "named: %s", steer_last_error());
    free(b);
    steer_navmesh_free(back);
    steer_navquery_free(q);
    steer_navmesh_free(m);
}

static void count_route(void *ud, const float *xyz, int n)
{
    (void)xyz;
    *(int *)ud += n >= 2;
}

// A world at 30 Hz with one agent at (2, 10) of radius 0.4 whose brain is nav.
static steer_World *walker(steer_Behavior *nav, steer_Agent *a)
{
    steer_WorldDesc wd = { .dt = 1.0 / 30 };
    steer_World *w = NULL;
    CHECK(steer_world_new(&wd, &w) == STEER_OK, "world");
    steer_AgentDesc ad = { .position = { 2, 10 }, .max_speed = 2, .max_force = 4, .radius = 0.4, .brain = nav };
    CHECK(steer_spawn(w, &ad, a) == STEER_OK, "spawn");
    return w;
}

// A C host's agent that finds its own way: navigate on a mesh from
// steer_navmesh_new, the host's handle freed at once (the behaviour holds
// the mesh); it arrives round the pillar; a debug view sees its way ahead.
static void test_navigate_from_c(void)
{
    steer_NavMesh *m = hall();
    if (!m) return;
    steer_Behavior *nav = NULL;
    CHECK(steer_behavior_new("navigate", &nav) == STEER_OK, "navigate");
    CHECK(steer_behavior_set_navmesh(nav, "navmesh", m) == STEER_OK, "its mesh: %s", steer_behavior_error(nav));
    CHECK(steer_behavior_set_navmesh(nav, "speed", m) == STEER_EARG, "not a mesh field");
    int fake[4] = { 0 };
    CHECK(steer_behavior_set_navmesh(nav, "navmesh", (const steer_NavMesh *)(void *)fake) == STEER_EARG,
          "not a mesh of ours");
    steer_navmesh_free(m);
    steer_Agent a;
    steer_World *w = walker(nav, &a);
    steer_behavior_release(nav);
    double goal[3] = { 28, 10, 0 };
    CHECK(steer_agent_set_target(w, a, goal, STEER_NO_AGENT) == STEER_OK, "target");
    int found = 0, arrived = 0, routes = 0;
    for (int t = 0; t < 30 * 40 && !arrived; t++) {
        steer_world_step(w, 1);
        int n;
        const steer_Event *ev = steer_world_events(w, &n);
        for (int i = 0; i < n; i++) {
            found += ev[i].type == STEER_EVENT_PATH_FOUND;
            arrived += ev[i].type == STEER_EVENT_ARRIVE;
        }
        if (t == 30) {
            steer_DebugNode node;
            CHECK(steer_debug_node(w, a, 0, &node) == STEER_OK && node.nroute >= 2, "a way ahead: %d", node.nroute);
            CHECK(strstr(node.note, "on its way") != NULL, "its state: %s", node.note);
            CHECK(steer_debug_routes(w, count_route, &routes) == STEER_OK && routes == 1, "one agent's way: %d",
                  routes);
        }
    }
    double p[3];
    steer_agent_vec(w, a, STEER_PROP_POSITION, p);
    CHECK(found >= 1 && arrived == 1, "found %d, arrived %d", found, arrived);
    CHECK(hypot(p[0] - 28, p[1] - 10) < 0.5, "at the goal: (%g, %g)", p[0], p[1]);
    steer_world_free(w);
}

// A 30 x 20 field with a water pond (x 10..20, y 4..16) across the way
// from (2, 10) to (28, 10), area 1.
static steer_NavMesh *pond(void)
{
    static const double xy[] = { 0, 0, 30, 0, 30, 20, 0, 20, 10, 4, 20, 4, 20, 16, 10, 16 };
    static const uint32_t ends[] = { 4, 8 };
    static const int32_t roles[] = { STEER_RING_OUTLINE, 1 };
    static const char *const names[] = { "default", "water" };
    steer_NavMeshDesc d = {
        .xy = xy, .ring_end = ends, .ring_role = roles, .nrings = 2, .nareas = 2, .area_names = names
    };
    steer_NavMesh *m = NULL;
    CHECK(steer_navmesh_new(&d, &m) == STEER_OK && m, "a mesh: %s", steer_last_error());
    return m;
}

// navigate's own area costs from C: water excluded, the agent goes round
// the pond and arrives; bad costs and a frozen node are refused, naming
// the function.
static void test_navigate_costs_from_c(void)
{
    steer_NavMesh *m = pond();
    if (!m) return;
    steer_Behavior *nav = NULL;
    CHECK(steer_behavior_new("navigate", &nav) == STEER_OK, "navigate");
    CHECK(steer_behavior_set_navmesh(nav, "navmesh", m) == STEER_OK, "its mesh");
    int water = steer_navmesh_area(m, "water");
    CHECK(water == 1, "the water is area 1: %d", water);
    float bad[3][2] = { { 1, 0 }, { 1, NAN }, { 1, 1e-4f } };
    for (int i = 0; i < 3; i++) {
        CHECK(steer_behavior_set_nav_costs(nav, "costs", bad[i], 2) == STEER_EARG, "bad cost %d refused", i);
        CHECK(strstr(steer_behavior_error(nav), "steer_behavior_set_nav_costs: costs[1]") != NULL, "named: %s",
              steer_behavior_error(nav));
    }
    float costs[2] = { 1, INFINITY };
    CHECK(steer_behavior_set_nav_costs(nav, "costs", costs, -1) == STEER_EARG, "n < 0");
    CHECK(steer_behavior_set_nav_costs(nav, "costs", costs, STEER_NAV_AREAS + 1) == STEER_EARG, "n too large");
    CHECK(steer_behavior_set_nav_costs(nav, "costs", NULL, 2) == STEER_EARG, "NULL costs");
    CHECK(steer_behavior_set_nav_costs(nav, "navmesh", costs, 2) == STEER_EARG, "not a costs field");
    CHECK(steer_behavior_set_nav_costs(nav, "costs", NULL, 0) == STEER_OK, "cleared");
    CHECK(steer_behavior_set_nav_costs(nav, "costs", costs, 2) == STEER_OK, "water excluded: %s",
          steer_behavior_error(nav));
    steer_navmesh_free(m);
    steer_Agent a;
    steer_World *w = walker(nav, &a);
    CHECK(steer_behavior_set_nav_costs(nav, "costs", NULL, 0) == STEER_EARG, "a brain in use cannot change");
    steer_behavior_release(nav);
    double goal[3] = { 28, 10, 0 }, p[3], deepest = -INFINITY;
    CHECK(steer_agent_set_target(w, a, goal, STEER_NO_AGENT) == STEER_OK, "target");
    int arrived = 0;
    for (int t = 0; t < 30 * 40 && !arrived; t++) {
        steer_world_step(w, 1);
        int n;
        const steer_Event *ev = steer_world_events(w, &n);
        for (int i = 0; i < n; i++) arrived += ev[i].type == STEER_EVENT_ARRIVE;
        steer_agent_vec(w, a, STEER_PROP_POSITION, p);
        double d = fmin(fmin(p[0] - 10, 20 - p[0]), fmin(p[1] - 4, 16 - p[1]));
        deepest = fmax(deepest, d);
    }
    CHECK(arrived == 1, "arrived");
    CHECK(deepest <= 0.01, "never into the water: %g m deep", deepest);
    steer_world_free(w);
}

static void test_refusals(void)
{
    steer_NavMesh *m = NULL;
    CHECK(steer_navmesh_new(NULL, &m) == STEER_EARG, "NULL desc");
    CHECK(strstr(steer_last_error(), "steer_navmesh_new") != NULL, "named: %s", steer_last_error());
    double nan_xy[] = { 0, 0, 1, 0, NAN, 1 };
    uint32_t end = 3;
    int32_t role = STEER_RING_OUTLINE;
    steer_NavMeshDesc d = { .xy = nan_xy, .ring_end = &end, .ring_role = &role, .nrings = 1, .nareas = 1 };
    CHECK(steer_navmesh_new(&d, &m) == STEER_EARG && !m, "a NaN point");
    role = 5;
    CHECK(steer_navmesh_new(&d, &m) == STEER_EARG && strstr(steer_last_error(), "role"), "a bad role: %s",
          steer_last_error());
    CHECK(steer_navmesh_hash(NULL) == 0, "a NULL mesh's hash");
    CHECK(steer_navmesh_contains(NULL, (double[]){ 0, 0 }, 0) == false, "a NULL mesh contains nothing");
    int fake[4] = { 0 };
    CHECK(steer_navmesh_area((const steer_NavMesh *)(void *)fake, "default") == -1, "not a mesh of ours");
    steer_Grid *g = NULL;
    CHECK(steer_grid_new(0, 3, 1, NULL, &g) == STEER_EARG && !g, "0 cells");
    CHECK(steer_grid_new(3, 3, -1, NULL, &g) == STEER_EARG, "a negative cell");
    CHECK(steer_grid_new(3, 3, 1, NULL, &g) == STEER_OK, "a grid");
    CHECK(steer_grid_set_cost(g, 3, 0, 1) == STEER_EARG, "outside");
    CHECK(steer_grid_set_cost(g, 0, 0, NAN) == STEER_EARG, "a NaN cost");
    int n;
    CHECK(steer_grid_path(g, (double[]){ 0.5, 0.5 }, (double[]){ 2.5, 2.5 }, NULL, 4, &n, NULL) == STEER_EARG,
          "NULL points with a cap");
    steer_grid_free(g);
}

// Obstacles from C: a crate in the hall's gap closes it (no way, then a
// way once it moves off), a circle round the pillar's neighbourhood, the
// saved bytes carry them, a removed one refuses to go twice.
static void test_obstacles_from_c(void)
{
    steer_NavMesh *m = hall();
    steer_NavQuery *q = NULL;
    CHECK(steer_navquery_new(&q) == STEER_OK && q, "a query");
    uint64_t bare = steer_navmesh_hash(m);
    double from[2] = { 2, 10 }, to[2] = { 28, 10 };
    steer_PathStatus st;
    int n = 0;
    uint32_t crate = 0, disc = 0;
    steer_NavObstacleDesc box = { .min = { 14, 8.5 }, .max = { 16, 11.5 } };
    CHECK(steer_navmesh_add_obstacle(m, &box, &crate) == STEER_OK && crate == 1, "a crate: %s", steer_last_error());
    CHECK(steer_navmesh_hash(m) != bare, "the mesh changed");
    CHECK(steer_navmesh_path(m, q, from, to, NULL, &st, NULL, 0, &n, NULL) == STEER_OK && st == STEER_PATH_NONE,
          "the gap is shut: %d", (int)st);
    CHECK(steer_navmesh_move_obstacle(m, crate, 0, 5) == STEER_OK, "moved: %s", steer_last_error());
    CHECK(steer_navmesh_path(m, q, from, to, NULL, &st, NULL, 0, &n, NULL) == STEER_OK && st == STEER_PATH_FOUND,
          "open again: %d", (int)st);
    steer_NavObstacleDesc round = { .center = { 22, 10 }, .radius = 1.5 };
    CHECK(steer_navmesh_add_obstacle(m, &round, &disc) == STEER_OK && disc == 2, "a disc");
    double in_disc[2] = { 22, 10 };
    CHECK(!steer_navmesh_contains(m, in_disc, 0), "carved out");
    Bytes *b = calloc(1, sizeof *b);
    steer_NavMesh *back = NULL;
    CHECK(b && steer_navmesh_save(m, put, b) == STEER_OK, "saved");
    CHECK(b && steer_navmesh_load(b->p, b->n, &back) == STEER_OK && back, "loaded: %s", steer_last_error());
    CHECK(back && steer_navmesh_hash(back) == steer_navmesh_hash(m), "with its obstacles");
    CHECK(back && steer_navmesh_remove_obstacle(back, disc) == STEER_OK, "the loaded one's obstacles are live");
    CHECK(steer_navmesh_remove_obstacle(m, disc) == STEER_OK && steer_navmesh_remove_obstacle(m, crate) == STEER_OK,
          "removed");
    CHECK(steer_navmesh_hash(m) == bare, "the mesh as built again");
    CHECK(steer_navmesh_remove_obstacle(m, crate) == STEER_EARG, "removed twice: refused");
    CHECK(strstr(steer_last_error(), "steer_navmesh_remove_obstacle") != NULL, "named: %s", steer_last_error());
    CHECK(steer_navmesh_move_obstacle(m, crate, 1, 1) == STEER_EARG, "a removed one does not move");
    CHECK(steer_navmesh_move_obstacle(m, 7, NAN, 1) == STEER_EARG, "NaN refused");
    steer_NavObstacleDesc flat = { .xy = (const double[]){ 1, 1, 2, 2, 3, 3 }, .n = 3 };
    CHECK(steer_navmesh_add_obstacle(m, &flat, &crate) == STEER_EARG, "a flat polygon refused");
    CHECK(strstr(steer_last_error(), "one line") != NULL, "says why: %s", steer_last_error());
    steer_NavObstacleDesc mud = { .min = { 1, 1 }, .max = { 2, 2 }, .area = 3 };
    CHECK(steer_navmesh_add_obstacle(m, &mud, &crate) == STEER_EARG, "an unknown area refused");
    steer_NavObstacleDesc high = { .min = { 1, 1 }, .max = { 2, 2 }, .layer = 2 };
    CHECK(steer_navmesh_add_obstacle(m, &high, &crate) == STEER_EARG, "a layer the mesh has not refused");
    CHECK(strstr(steer_last_error(), "layer 2") != NULL, "says which: %s", steer_last_error());
    free(b);
    steer_navmesh_free(back);
    steer_navquery_free(q);
    steer_navmesh_free(m);
}

// Jump links from C: two 10 x 10 islands 1.5 m apart are joined by
// jump links as the Lua spec's are (ends 0.5 m in, a path across), none
// across a 3 m gap; the same desc gives the same mesh; bad fields are
// refused by name with nothing added.
static steer_NavMesh *islands(double gap)
{
    const double xy[] = { 0, 0, 10, 0, 10, 10, 0, 10, 10 + gap, 0, 20 + gap, 0, 20 + gap, 10, 10 + gap, 10 };
    static const uint32_t ends[] = { 4, 8 };
    static const int32_t roles[] = { STEER_RING_OUTLINE, STEER_RING_OUTLINE };
    steer_NavMeshDesc d = { .xy = xy, .ring_end = ends, .ring_role = roles, .nrings = 2, .nareas = 1 };
    steer_NavMesh *m = NULL;
    CHECK(steer_navmesh_new(&d, &m) == STEER_OK && m, "islands: %s", steer_last_error());
    return m;
}

static void test_jump_links(void)
{
    steer_NavMesh *m = islands(1.5), *wide = islands(3), *again = islands(1.5);
    REQUIRE(m && wide && again, "the islands build");
    steer_NavQuery *q = NULL;
    CHECK(steer_navquery_new(&q) == STEER_OK && q, "a query");
    double from[2] = { 2, 5 }, to[2] = { 20, 5 };
    steer_PathStatus st;
    int n = 0, added = -1;
    CHECK(steer_navmesh_path(m, q, from, to, NULL, &st, NULL, 0, &n, NULL) == STEER_OK && st == STEER_PATH_NONE,
          "no way before: %d", (int)st);
    steer_NavJumpDesc jd = { .reach = 2, .spacing = 2 };
    CHECK(steer_navmesh_add_jump_links(m, &jd, &added) == STEER_OK && added == 5, "5 links (as in Lua): %d, %s", added,
          steer_last_error());
    CHECK(steer_navmesh_link_count(m) == added, "the mesh has them");
    steer_DebugNavMesh v;
    CHECK(steer_navmesh_view(m, &v) == STEER_OK && v.nlinks == 5, "in the view");
    for (int i = 0; i < v.nlinks; i++)
        CHECK(v.links[i].from[0] == 9.5 && v.links[i].to[0] == 12 && v.links[i].bidirectional &&
                  strcmp(v.links[i].name, "jump") == 0,
              "link %d: %g -> %g, 0.5 m in from each edge, two-way, \"jump\"", i, v.links[i].from[0], v.links[i].to[0]);
    double pts[64], len;
    CHECK(steer_navmesh_path(m, q, from, to, NULL, &st, pts, 32, &n, &len) == STEER_OK && st == STEER_PATH_FOUND &&
              n == 4 && steer_navquery_path_link(q, 1) >= 0,
          "across by a jump: %d, %d points", (int)st, n);
    CHECK(steer_navmesh_path(m, q, to, from, NULL, &st, NULL, 0, &n, NULL) == STEER_OK && st == STEER_PATH_FOUND,
          "and back");
    CHECK(steer_navmesh_add_jump_links(wide, &jd, &added) == STEER_OK && added == 0, "none across 3 m: %d", added);
    CHECK(steer_navmesh_add_jump_links(again, &jd, NULL) == STEER_OK &&
              steer_navmesh_hash(again) == steer_navmesh_hash(m),
          "the same links every time");

    steer_NavJumpDesc one = { .reach = 2, .spacing = 2, .one_way = true, .name = "hop", .cost = 3 };
    CHECK(steer_navmesh_add_jump_links(wide = (steer_navmesh_free(wide), islands(1.5)), &one, &added) == STEER_OK &&
              added == 10,
          "one way: a link from each side: %d", added);
    CHECK(steer_navmesh_view(wide, &v) == STEER_OK && v.nlinks == 10 && !v.links[0].bidirectional &&
              v.links[0].cost == 3 && strcmp(v.links[0].name, "hop") == 0,
          "the desc's fields on each link");

    int before = steer_navmesh_link_count(m);
    static const struct {
        steer_NavJumpDesc d;
        const char *field;
    } bad[] = {
        { { .spacing = 1 }, "'reach'" },
        { { .reach = NAN }, "'reach'" },
        { { .reach = 2, .spacing = -1 }, "'spacing'" },
        { { .reach = 2, .inset = INFINITY }, "'inset'" },
        { { .reach = 2, .cost = -1 }, "'cost'" },
        { { .reach = 2, .area = 3 }, "'area'" },
        { { .reach = 2, .name = "a name far longer than thirty-one bytes" }, "'name'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        added = -1;
        CHECK(steer_navmesh_add_jump_links(m, &bad[i].d, &added) == STEER_EARG && added == 0, "bad desc %zu refused",
              i);
        CHECK(strstr(steer_last_error(), "steer_navmesh_add_jump_links") && strstr(steer_last_error(), bad[i].field),
              "desc %zu: names the function and %s: %s", i, bad[i].field, steer_last_error());
    }
    CHECK(steer_navmesh_add_jump_links(m, NULL, NULL) == STEER_EARG, "a NULL desc");
    CHECK(steer_navmesh_link_count(m) == before, "nothing added");
    steer_NavDropDesc dd = { .drop = 3 };
    CHECK(steer_navmesh_add_drop_links(m, &dd, &added) == STEER_EARG && added == 0, "drops on a flat mesh refused");
    CHECK(strstr(steer_last_error(), "no heights"), "says why: %s", steer_last_error());
    steer_navquery_free(q);
    steer_navmesh_free(again);
    steer_navmesh_free(wide);
    steer_navmesh_free(m);
}

// Drop links from C on demos/building.navmesh (the demo's baked building,
// loaded: no Recast needed): one-way links down from the bridge, the
// stair's side and the gallery, falls of 1 to 4 m with both ends on their
// ground; the path from the bridge to the hall below takes one and is
// shorter than the stair's; none higher than drop = 3 allows.
static steer_NavMesh *building(void)
{
    FILE *f = fopen(DEMOS_DIR "/building.navmesh", "rb");
    if (!f) return NULL;
    size_t cap = 4 << 20, n;
    unsigned char *buf = malloc(cap);
    n = buf ? fread(buf, 1, cap, f) : 0;
    fclose(f);
    steer_NavMesh *m = NULL;
    if (steer_navmesh_load(buf, n, &m) != STEER_OK) printf("    building.navmesh: %s\n", steer_last_error());
    free(buf);
    return m;
}

static void test_drop_links(void)
{
    steer_NavMesh *m = building(), *low = building();
    REQUIRE(m && low, "demos/building.navmesh loads");
    steer_NavQuery *q = NULL;
    CHECK(steer_navquery_new(&q) == STEER_OK && q, "a query");
    double bridge[2] = { 20, 19.2 }, hall[2] = { 20, 16 };
    steer_NavFilter onto = { .use_z = true, .from_z = 3.5, .to_z = 0 };
    steer_PathStatus st;
    int n = 0, added = -1;
    double stairs = 0, len = 0;
    CHECK(steer_navmesh_path(m, q, bridge, hall, &onto, &st, NULL, 0, &n, &stairs) == STEER_OK &&
              st == STEER_PATH_FOUND,
          "down by the stair first: %d", (int)st);
    steer_NavDropDesc dd = { .drop = 4 };
    CHECK(steer_navmesh_add_drop_links(m, &dd, &added) == STEER_OK && added > 0, "drops found: %d, %s", added,
          steer_last_error());
    steer_DebugNavMesh v;
    CHECK(steer_navmesh_view(m, &v) == STEER_OK && v.nlinks == added, "the mesh has them: %d", v.nlinks);
    for (int i = 0; i < v.nlinks && !FAILED(); i++) {
        const steer_DebugNavLink *l = &v.links[i];
        double fall = l->from[2] - l->to[2];
        CHECK(fall >= 1 && fall <= 4 && !l->bidirectional && strcmp(l->name, "drop") == 0,
              "link %d: a one-way \"drop\" of 1 to 4 m: %g", i, fall);
        CHECK(steer_navmesh_contains_on(m, l->from, 0, 0.4) && steer_navmesh_contains_on(m, l->to, 0, 0.4),
              "link %d: both ends on their ground, off its walls", i);
    }
    CHECK(steer_navmesh_path(m, q, bridge, hall, &onto, &st, NULL, 0, &n, &len) == STEER_OK && st == STEER_PATH_FOUND &&
              len < stairs - 5,
          "a drop is shorter than the stair: %g m against %g", len, stairs);
    bool took = false;
    for (int i = 0; i < n; i++) took |= steer_navquery_path_link(q, i) >= 0;
    CHECK(took, "the path takes a link");

    steer_NavDropDesc three = { .drop = 3, .name = "low" };
    CHECK(steer_navmesh_add_drop_links(low, &three, &added) == STEER_OK, "drop = 3: %s", steer_last_error());
    CHECK(steer_navmesh_view(low, &v) == STEER_OK && v.nlinks == added, "%d links", added);
    for (int i = 0; i < v.nlinks; i++)
        CHECK(v.links[i].from[2] - v.links[i].to[2] <= 3 && strcmp(v.links[i].name, "low") == 0,
              "link %d: none higher than 3 m", i);
    steer_NavDropDesc over = { .drop = 2, .min_drop = 3 };
    CHECK(steer_navmesh_add_drop_links(low, &over, NULL) == STEER_EARG && strstr(steer_last_error(), "'min_drop'"),
          "min_drop above drop: %s", steer_last_error());
    steer_NavDropDesc none = { .reach = 1 };
    CHECK(steer_navmesh_add_drop_links(low, &none, NULL) == STEER_EARG && strstr(steer_last_error(), "'drop'"),
          "no drop: %s", steer_last_error());
    steer_NavDropDesc far = { .drop = 3, .reach = 5000 };
    CHECK(steer_navmesh_add_drop_links(low, &far, NULL) == STEER_EARG && strstr(steer_last_error(), "'reach'"),
          "reach out of range: %s", steer_last_error());
    CHECK(steer_navmesh_link_count(low) == added, "nothing more added");
    steer_navquery_free(q);
    steer_navmesh_free(low);
    steer_navmesh_free(m);
}

// A bake in tiles from C (steer_NavBakeDesc's tile): a 40 x 20 m yard
// with a deck 3 m up over its middle (x 10 .. 30), baked in 8 m tiles,
// has the layers of one bake of the whole: the ground one layer and the
// deck one, each across the tile lines they span, and a path along the
// deck over four tile lines is straight. A tile under 32 cells, negative
// or NaN is refused by name, with or without Recast.
static void test_bake_tiles(void)
{
    static const double xyz[] = { 0, 0, 0, 40, 0, 0, 40, 20, 0, 0, 20, 0, 10, 5, 3, 30, 5, 3, 30, 15, 3, 10, 15, 3 };
    static const uint32_t tri[] = { 0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7 };
    steer_NavBakeDesc d = { .xyz = xyz, .nverts = 8, .tri = tri, .ntris = 4, .height = 2, .climb = 0.5 };
    steer_NavMesh *one = NULL, *tiled = NULL;
    const double bad[] = { 6, -8, NAN, 2e6 }; // (6 m: 30 cells of 0.2 m)
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        d.tile = bad[i];
        CHECK(steer_navmesh_bake(&d, &tiled) == STEER_EARG && !tiled, "tile = %g refused", bad[i]);
        CHECK(strstr(steer_last_error(), "steer_navmesh_bake") && strstr(steer_last_error(), "tile") &&
                  strstr(steer_last_error(), "32 cells (6.4 m"),
              "tile = %g: names the function, the field and the least: %s", bad[i], steer_last_error());
    }
    d.tile = 0;
    if (steer_navmesh_bake(&d, &one) != STEER_OK) {
        CHECK(strstr(steer_last_error(), "this build has no baking"), "only without Recast: %s", steer_last_error());
        return;
    }
    d.tile = 8;
    REQUIRE(steer_navmesh_bake(&d, &tiled) == STEER_OK && tiled, "tiles of 8 m: %s", steer_last_error());
    CHECK(steer_navmesh_hash(tiled) != steer_navmesh_hash(one), "tiles give another mesh (cut at the tile lines)");
    CHECK(steer_navmesh_layer_count(one) == 2 && steer_navmesh_layer_count(tiled) == 2,
          "the ground and the deck, in one bake and in tiles: %d and %d", steer_navmesh_layer_count(one),
          steer_navmesh_layer_count(tiled));
    int ground = 0, deck = 0;
    const double at[][2] = { { 2, 2 }, { 11, 6 }, { 20, 10 }, { 29, 14 }, { 38, 18 } };
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) { // every tile's piece on one layer per floor
        double low[3] = { at[i][0], at[i][1], 0 }, high[3] = { at[i][0], at[i][1], 3 }, z;
        int l = 0;
        CHECK(steer_navmesh_height(tiled, low, 0, &z, &l) == STEER_OK && fabs(z) < 0.01 && (!ground || l == ground),
              "(%g, %g) on the ground's layer %d: layer %d at %g", at[i][0], at[i][1], ground, l, z);
        ground = l;
        if (at[i][0] < 10.5 || at[i][0] > 29.5) continue;
        CHECK(steer_navmesh_height(tiled, high, 0, &z, &l) == STEER_OK && fabs(z - 3) < 0.01 && (!deck || l == deck),
              "(%g, %g) on the deck's layer %d: layer %d at %g", at[i][0], at[i][1], deck, l, z);
        deck = l;
    }
    CHECK(ground && deck && ground != deck, "two layers: %d, %d", ground, deck);
    steer_NavQuery *q = NULL;
    CHECK(steer_navquery_new(&q) == STEER_OK, "a query");
    double a[2] = { 11, 10 }, b[2] = { 29, 10 }, len = 0;
    steer_NavFilter on_deck = { .from_layer = deck, .to_layer = deck };
    steer_PathStatus st;
    int n = 0;
    CHECK(steer_navmesh_path(tiled, q, a, b, &on_deck, &st, NULL, 0, &n, &len) == STEER_OK && st == STEER_PATH_FOUND &&
              n == 2 && fabs(len - 18) < 1e-9,
          "along the deck across the tile lines, straight: %d points, %g m", n, len);
    steer_navquery_free(q);
    steer_navmesh_free(tiled);
    steer_navmesh_free(one);
}

int main(void)
{
    RUN(test_grid_and_flow);
    RUN(test_mesh);
    RUN(test_navigate_from_c);
    RUN(test_navigate_costs_from_c);
    RUN(test_links);
    RUN(test_jump_links);
    RUN(test_drop_links);
    RUN(test_refusals);
    RUN(test_obstacles_from_c);
    RUN(test_bake_tiles);
    return check_report_("nav_api");
}
