// SPDX-License-Identifier: MIT
// kinds.c — the one table of every behaviour and combiner kind. Dispatch,
// the C setters and the Lua constructors are all driven from it: adding a
// kind is one file and one line here.
#include "behavior.h"

extern const steerB_Kind steerB_custom;
extern const steerB_Kind steerB_seek, steerB_flee, steerB_pursue, steerB_evade, steerB_arrive,
    steerB_wander, steerB_separation, steerB_alignment, steerB_cohesion, steerB_blend, steerB_priority;

const steerB_Kind *const steerB_kinds[] = {
    &steerB_seek, &steerB_flee, &steerB_pursue, &steerB_evade, &steerB_arrive, &steerB_wander,
    &steerB_separation, &steerB_alignment, &steerB_cohesion,
    &steerB_blend, &steerB_priority,
    &steerB_custom,
    NULL
};
