// SPDX-License-Identifier: MIT
// kinds.c — the one table of every behaviour and combiner kind. Dispatch,
// the C setters and the Lua constructors are all driven from it: adding a
// kind is one file and one line here.
#include "behavior.h"

extern const steerB_Kind steerB_custom;
extern const steerB_Kind steerB_directed_seek;
extern const steerB_Kind steerB_truncated_sum, steerB_dither, steerB_pipeline, steerB_target_position,
    steerB_target_velocity, steerB_decompose_path, steerB_avoid_obstacle_constraint, steerB_wall_constraint;
extern const steerB_Kind steerB_avoid_obstacles, steerB_avoid_walls, steerB_hide, steerB_contain;
extern const steerB_Kind steerB_follow_path, steerB_patrol;
extern const steerB_Kind steerB_follow_flow;
extern const steerB_Kind steerB_decompose_flow;
extern const steerB_Kind steerB_avoid_agents, steerB_interpose, steerB_offset_pursuit, steerB_match_velocity,
    steerB_face, steerB_look_where_going;
extern const steerB_Kind steerB_seek, steerB_flee, steerB_pursue, steerB_evade, steerB_arrive,
    steerB_wander, steerB_separation, steerB_alignment, steerB_cohesion, steerB_blend, steerB_priority;

const steerB_Kind *const steerB_kinds[] = {
    &steerB_seek, &steerB_flee, &steerB_pursue, &steerB_evade, &steerB_arrive, &steerB_wander,
    &steerB_separation, &steerB_alignment, &steerB_cohesion,
    &steerB_blend, &steerB_priority,
    &steerB_truncated_sum, &steerB_dither, &steerB_pipeline, &steerB_target_position, &steerB_target_velocity,
    &steerB_decompose_path, &steerB_avoid_obstacle_constraint, &steerB_wall_constraint,
    &steerB_avoid_agents, &steerB_interpose, &steerB_offset_pursuit, &steerB_match_velocity,
    &steerB_face, &steerB_look_where_going,
    &steerB_follow_path, &steerB_patrol,
    &steerB_avoid_obstacles, &steerB_avoid_walls, &steerB_hide, &steerB_contain,
    &steerB_directed_seek,
    &steerB_custom,
    &steerB_follow_flow,
    &steerB_decompose_flow,
    NULL
};
