// SPDX-License-Identifier: MIT
// make.h — one-call constructors for the C tests of the public API: a world
// from a descriptor (NULL: the defaults) and a behaviour of a kind. Each
// gives NULL when the core refuses, which the test's REQUIRE then reports.
#ifndef STEER_TEST_MAKE_H
#define STEER_TEST_MAKE_H

#include "steer.h"

static inline steer_World *test_world(const steer_WorldDesc *wd)
{
    steer_World *w = NULL;
    steer_world_new(wd, &w);
    return w;
}

static inline steer_Behavior *test_behavior(const char *kind)
{
    steer_Behavior *b = NULL;
    steer_behavior_new(kind, &b);
    return b;
}

#endif
