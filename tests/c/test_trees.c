// SPDX-License-Identifier: MIT
// test_trees.c — behaviour trees built through the C API, where the
// bindings' checks do not reach: a tree built top-down (a child gains
// children after it was added) is refused at compile when too deep, a
// bottom-up one when the 65th level is added, cycles are refused however
// they are made, and a shared sub-tree is walked once. A tree made with an
// allocator allocates and frees everything through it, and a failing
// allocator leaves nothing behind. steer_kinds() lists every kind. A
// resource field (follow_flow's flow field) holds a reference to what it
// points at, takes only its own kind, and drops it with the node.
#include "steer.h"
#include "behaviors/behavior.h"
#include "nav/nav.h"
#include "check.h"
#include "counting.h"
#include "make.h"

#include <stdlib.h>
#include <string.h>

// A chain built top-down keeps every stored height small, so only the
// brain's compile can see how deep it really is: it must refuse, not
// overflow the stack while flattening or evaluating.
static void test_deep_chain_top_down(void)
{
    steer_World *w = test_world(NULL);
    REQUIRE(w, "world");
    steer_Behavior *root = test_behavior("blend"), *x = root;
    for (int i = 0; i < 100000; i++) {
        steer_Behavior *k = test_behavior("blend");
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
        steer_Behavior *p = test_behavior("blend");
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
    steer_Behavior *a = test_behavior("blend"), *b = test_behavior("blend");
    CHECK(steer_behavior_add_child(a, b, 1.0) == STEER_OK, "a <- b");
    CHECK(steer_behavior_add_child(b, a, 1.0) == STEER_EARG, "b <- a closes a cycle");
    CHECK(steer_behavior_add_child(a, a, 1.0) == STEER_EARG, "a <- a");
    steer_Behavior *top = a;
    steer_behavior_retain(top);
    for (int i = 0; i < 60; i++) {
        steer_Behavior *p = test_behavior("blend");
        CHECK(steer_behavior_add_child(p, top, 0.5) == STEER_OK, "lattice level %d", i);
        CHECK(steer_behavior_add_child(p, top, 0.5) == STEER_OK, "lattice level %d", i);
        steer_behavior_release(top);
        top = p;
    }
    CHECK(steer_behavior_add_child(b, top, 1.0) == STEER_EARG, "b <- lattice over a closes a cycle");
    steer_Behavior *c = test_behavior("blend");
    CHECK(steer_behavior_add_child(c, top, 1.0) == STEER_OK, "c <- lattice");
    CHECK(steer_behavior_add_child(c, b, 1.0) == STEER_OK, "c <- b (shared, no cycle)");
    steer_behavior_release(c);
    steer_behavior_release(top);
    steer_behavior_release(a);
    steer_behavior_release(b);
}

// Build blend{ seek (named), follow_path (its points), separation (a tag) }
// with the counting allocator. Returns the status of the first failure.
static int build_with(Counting *c, steer_Behavior **root_out)
{
    steer_Behavior *root = NULL, *seek = NULL, *path = NULL, *sep = NULL;
    int st = steer_behavior_new_alloc("blend", counting_alloc, c, &root);
    if (st != STEER_OK) return st;
    double pts[9] = { 0, 0, 0, 10, 0, 0, 10, 10, 0 };
    if ((st = steer_behavior_new_alloc("seek", counting_alloc, c, &seek)) != STEER_OK ||
        (st = steer_behavior_set_name(seek, "to the gate")) != STEER_OK ||
        (st = steer_behavior_new_alloc("follow_path", counting_alloc, c, &path)) != STEER_OK ||
        (st = steer_behavior_set_points(path, "path", pts, 3)) != STEER_OK ||
        (st = steer_behavior_new_alloc("separation", counting_alloc, c, &sep)) != STEER_OK ||
        (st = steer_behavior_set_tag(sep, "tag", "sheep")) != STEER_OK ||
        (st = steer_behavior_add_child(root, seek, 1.0)) != STEER_OK ||
        (st = steer_behavior_add_child(root, path, 0.5)) != STEER_OK ||
        (st = steer_behavior_add_child(root, sep, 2.0)) != STEER_OK) {
        steer_behavior_release(seek);
        steer_behavior_release(path);
        steer_behavior_release(sep);
        steer_behavior_release(root);
        return st;
    }
    steer_behavior_release(seek);
    steer_behavior_release(path);
    steer_behavior_release(sep);
    *root_out = root;
    return STEER_OK;
}

static void test_allocator_hook(void)
{
    Counting c = { 0 };
    steer_Behavior *root = NULL;
    REQUIRE(build_with(&c, &root) == STEER_OK, "build: %s", root ? steer_behavior_error(root) : "");
    // 4 nodes, a name, a tag, the points, 3 arrays of the blend's children
    CHECK(c.live >= 10, "%ld blocks live through the hook, expected every node and what it owns", c.live);
    // a world compiles and runs it; the tree's memory stays the tree's
    steer_World *w = test_world(NULL);
    REQUIRE(w, "world");
    steer_Agent a;
    CHECK(steer_spawn(w, &(steer_AgentDesc){ .brain = root }, &a) == STEER_OK, "spawn");
    CHECK(steer_world_step(w, 10) == STEER_OK, "step");
    steer_behavior_release(root);
    CHECK(c.live > 0, "the world holds the brain: its tree is alive");
    steer_world_free(w);
    CHECK(c.live == 0, "%ld blocks left after the last reference went", c.live);

    // fail at every call in turn: a clean status, no leak
    long total = c.calls;
    for (long k = 1; k <= total; k++) {
        Counting f = { .fail_from = k };
        steer_Behavior *r = NULL;
        int st = build_with(&f, &r);
        if (st == STEER_OK) steer_behavior_release(r);
        else CHECK(st == STEER_ENOMEM, "failure at call %ld gave %d, expected STEER_ENOMEM", k, st);
        CHECK(f.live == 0, "failure at call %ld left %ld blocks", k, f.live);
    }
    CHECK(steer_behavior_new_alloc("no such kind", counting_alloc, &c, &root) == STEER_EARG, "unknown kind");
}

// steer_kinds() names every kind of the table, however many there are.
static void test_kinds_listed(void)
{
    const char *const *k = steer_kinds();
    int n = 0;
    for (; k[n]; n++) {
        steer_Behavior *b = NULL;
        CHECK(steer_behavior_new(k[n], &b) == STEER_OK, "steer_kinds() lists %s, which cannot be made", k[n]);
        if (b) CHECK(strcmp(steer_behavior_kind(b), k[n]) == 0, "%s made a %s", k[n], steer_behavior_kind(b));
        steer_behavior_release(b);
    }
    CHECK(n >= 36, "steer_kinds() lists %d kinds", n);
    const char *some[] = { "seek", "reciprocal", "pipeline", "wall_constraint", "directed_seek" };
    for (size_t i = 0; i < sizeof some / sizeof some[0]; i++) {
        bool found = false;
        for (int j = 0; j < n; j++) found |= strcmp(k[j], some[i]) == 0;
        CHECK(found, "steer_kinds() misses %s", some[i]);
    }
}

static void noop(void *obj) { (void)obj; }

static void test_resource_field(void)
{
    steerN_Grid *g = steerN_grid_new(4, 4, 1.0, (const double[2]){ 0, 0 }, NULL);
    REQUIRE(g, "grid");
    steerN_Flow *f = steerN_flow_new(g), *f2 = steerN_flow_new(g);
    REQUIRE(f && f2, "flow fields");
    steer_Behavior *b = test_behavior("follow_flow");
    const steerB_Field *field = steerB_find_field(b->kind, "field");
    REQUIRE(field && field->type == STEERB_RESOURCE && steerB_field_resource(field) == &steerB_flow_resource,
            "follow_flow's 'field' is a flow field resource");
    CHECK(steerB_resource(b, field) == NULL, "a new node holds none");
    CHECK(steerB_set_resource(b, "field", &steerB_flow_resource, f) == STEER_OK, "set: %s", steer_behavior_error(b));
    CHECK(atomic_load(&f->refs) == 2, "the node holds a reference: %d", atomic_load(&f->refs));
    CHECK(steerB_resource(b, field) == f, "it points at the field");

    static const steerB_ResourceKind mesh = {
        .name = "navigation mesh", .type = "steer.NavMesh", .retain = noop, .release = noop
    };
    int dummy = 0;
    CHECK(steerB_set_resource(b, "field", &mesh, &dummy) == STEER_EARG, "another kind is refused");
    CHECK(strstr(steer_behavior_error(b), "expects a flow field") && strstr(steer_behavior_error(b), "navigation mesh"),
          "error: %s", steer_behavior_error(b));
    CHECK(steerB_set_resource(b, "speed", &steerB_flow_resource, f) == STEER_EARG, "a number field is no resource");
    CHECK(steerB_resource(b, field) == f && atomic_load(&f->refs) == 2, "a refused set changes nothing");

    steerB_flow_bind(b, f2);
    CHECK(atomic_load(&f->refs) == 1 && atomic_load(&f2->refs) == 2, "rebinding moves the reference: %d %d",
          atomic_load(&f->refs), atomic_load(&f2->refs));
    steer_Behavior *d = test_behavior("decompose_flow");
    CHECK(steerB_set_resource(d, "field", &steerB_flow_resource, f2) == STEER_OK, "decompose_flow takes it too");
    CHECK(atomic_load(&f2->refs) == 3, "two nodes, two references");
    steer_behavior_release(b);
    steer_behavior_release(d);
    CHECK(atomic_load(&f2->refs) == 1, "a dying node drops its reference: %d", atomic_load(&f2->refs));
    steer_Behavior *e = test_behavior("follow_flow");
    CHECK(steerB_set_resource(e, "field", &steerB_flow_resource, f) == STEER_OK &&
              steerB_set_resource(e, "field", NULL, NULL) == STEER_OK,
          "set and cleared");
    CHECK(atomic_load(&f->refs) == 1 && steerB_resource(e, field) == NULL, "clearing drops the reference");
    steer_behavior_release(e);
    steerN_flow_release(f);
    steerN_flow_release(f2);
    steerN_grid_release(g);

    // a grid and field kept in place (a benchmark's, on the stack) are counted
    // by nobody: a node bound to the field, and a counted field made on the
    // grid, leave them to their owner (a free of either here would be an
    // invalid free under ASan)
    steerN_Grid kept;
    steerN_Flow placed;
    REQUIRE(steerN_grid_init(&kept, 3, 3, 1.0, (const double[2]){ 0, 0 }, NULL) == 0, "grid in place");
    REQUIRE(steerN_flow_init(&placed, &kept) == 0, "field in place");
    steer_Behavior *k = test_behavior("follow_flow");
    CHECK(steerB_set_resource(k, "field", &steerB_flow_resource, &placed) == STEER_OK, "bound to a field in place");
    CHECK(atomic_load(&placed.refs) == 0, "still counted by nobody: %d", atomic_load(&placed.refs));
    steer_behavior_release(k);
    steerN_Flow *counted = steerN_flow_new(&kept);
    REQUIRE(counted, "a counted field on a grid in place");
    CHECK(atomic_load(&kept.refs) == 0, "the grid in place is not counted: %d", atomic_load(&kept.refs));
    steerN_flow_release(counted);
    CHECK(placed.grid == &kept && kept.nx == 3, "both still whole");
    steerN_flow_free(&placed);
    steerN_grid_free(&kept);
}

int main(void)
{
    RUN(test_deep_chain_top_down);
    RUN(test_deep_chain_bottom_up);
    RUN(test_cycles_and_lattice);
    RUN(test_allocator_hook);
    RUN(test_kinds_listed);
    RUN(test_resource_field);
    return check_report_("trees");
}
