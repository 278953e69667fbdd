// SPDX-License-Identifier: MIT
// test_trees.c — behaviour trees built through the C API, where the
// bindings' checks do not reach: a tree built top-down (a child gains
// children after it was added) is refused at compile when too deep, a
// bottom-up one when the 65th level is added, cycles are refused however
// they are made, and a shared sub-tree is walked once.
#include "steer.h"
#include "check.h"
#include "make.h"

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

int main(void)
{
    RUN(test_deep_chain_top_down);
    RUN(test_deep_chain_bottom_up);
    RUN(test_cycles_and_lattice);
    return check_report_("trees");
}
