// SPDX-License-Identifier: MIT
// behavior.h — what behaviours and combiners are written with: the kinds'
// list, field lookup and error texts, target resolution, the velocity-
// tracking law, the agent's frame, and helpers for batched kernels. The
// contract they implement (kinds, fields, nodes, brains, the evaluation
// context) is the core's: src/core/brain.h.
//
// kinds.c lists every kind once; nothing else has to change when a kind is
// added.
#ifndef STEER_BEHAVIOR_H
#define STEER_BEHAVIOR_H

#include "../core/brain.h"
#include "exports.h"
#include <stddef.h>

// Batched kernels write their arithmetic as loops over lanes in stages:
// every operation of a stage runs on every lane and results go through
// arrays, so no division or square root sits in a branch (which would keep
// the compiler from vectorising: it may not speculate an operation that
// can raise a floating-point exception). A select between finished values
// comes in a later stage.

// Zero the lanes whose `none` is set.
static inline void steerB_zero_lanes(steerB_Lanes l, const int *none, int n)
{
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < n; k++) l[i][k] = none[k] ? 0.0f : l[i][k];
}

// v3_truncate on every lane, to the lanes' max. A lane in v3_truncate's
// rare cases (a max <= 0, a squared length that overflows) is left for
// v3_truncate itself.
static inline void steerB_truncate_lanes(steerB_Lanes l, const float *max, int n)
{
    float l2[STEERB_BATCH], q[STEERB_BATCH];
    int rare[STEERB_BATCH], any = 0;
    for (int k = 0; k < n; k++) {
        l2[k] = l[0][k] * l[0][k] + l[1][k] * l[1][k] + l[2][k] * l[2][k];
        q[k] = max[k] / sqrtf(l2[k]);
    }
    for (int k = 0; k < n; k++) {
        int cut = l2[k] > max[k] * max[k];
        rare[k] = cut & ((max[k] <= 0.0f) | (l2[k] > FLT_MAX));
        any |= rare[k];
        q[k] = (cut & (rare[k] == 0)) ? q[k] : 1.0f;
    }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < n; k++) l[i][k] = l[i][k] * q[k];
    for (int k = 0; any && k < n; k++) {
        if (!rare[k]) continue;
        float a[3];
        steerB_lane(l, k, a);
        v3_truncate(a, max[k]);
        steerB_set_lane(l, k, a);
    }
}

// The kinds' table, field lookup, error texts and steerB_new are the
// core's (brain.h, tree.c).

// Resolve a target field: false when there is none (then behaviours give 0).
// pos is the target position (relative displacement in `off`), vel its velocity.
bool steerB_target(steerB_Ctx *c, const steerB_Target *t, float off[3], float vel[3]);

// The shared velocity-tracking law: the force that turns velocity v into
// `desired`, scaled so that an error of max_speed asks for max_force.
static inline void steerB_track_v(const float v[3], float max_speed, float max_force, const float desired[3],
                                  float out[3])
{
    float k = max_speed > 0.0f ? max_force / max_speed : 0.0f;
    float e[3];
    v3_sub(e, desired, v);
    v3_scale(out, e, k);
}
static inline void steerB_track(const steerB_Ctx *c, const float desired[3], float out[3])
{
    steerB_track_v(c->v, c->max_speed, c->max_force, desired, out);
}
// Arrive at a point at offset `off` that moves with velocity `vel`: the
// point's velocity plus arrive's braking within slow_radius, capped at the
// cruise speed (group.c: interpose, offset_pursuit; formation_slot).
void steerB_arrive_moving(const steerB_Ctx *c, const float off[3], const float vel[3], float slow_radius, float speed,
                          float out[3]);
// A blend's force (behavior.c): node n's children's forces times their
// weights, summed and truncated to max_force. Also the goal of kinds that
// wrap their children (reciprocal).
void steerB_blend_sum(steerB_Ctx *c, const steerB_Node *n, float out[3]);
// The unit vector to the right of direction a: a x z (a x y when a is
// vertical). Antisymmetric in a, so two agents that see each other along
// opposite directions take opposite sides. False (and o zero) when a is
// zero. (avoid_agents, reciprocal)
static inline bool steerB_right_of(const float a[3], float o[3])
{
    float up[3] = { 0.0f, 0.0f, 1.0f };
    v3_cross(o, a, up);
    if (v3_normalize(o) > 0.0f) return true;
    v3_set(up, 0.0f, 1.0f, 0.0f);
    v3_cross(o, a, up);
    return v3_normalize(o) > 0.0f;
}

// Is agent d, moving at v (its velocity, loaded), standing still: slower
// than 5% of its max_speed (one that cannot move at all counts)?
// (arrive's free_spot, reciprocal)
#define STEERB_STILL 0.05f
static inline bool steerB_still(const steer_World *w, uint32_t d, const float v[3])
{
    float top = STEERB_STILL * w->max_speed[d];
    return v3_len2(v) <= top * top;
}

// Side and up vectors of the agent's frame from its heading (v3_frame).
void steerB_frame(const steerB_Ctx *c, float side[3], float up[3]);

#endif
