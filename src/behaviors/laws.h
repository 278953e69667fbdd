// SPDX-License-Identifier: MIT
// laws.h — the steering laws that several behaviours and combiners share,
// written once: the cruise speed and arrive's braking.
//
// Each helper performs the float operations of the copies it replaced in
// the same order, so that no trajectory changes by a bit (the demos'
// hashes compare them). Where copies rounded differently, the helper says
// which rounding it keeps and why.
#ifndef STEER_LAWS_H
#define STEER_LAWS_H

// The cruise-speed law: a behaviour's `speed` when it is set (> 0) and
// below the agent's max_speed, else max_speed (a `speed` of 0 means "as
// fast as the agent goes").
static inline float steerB_cruise(float speed, float max_speed)
{
    return speed > 0.0f && speed < max_speed ? speed : max_speed;
}

// How arrive's linear braking rounds (see steerB_brake).
typedef enum steerB_Rounding {
    STEERB_SPEED_FIRST, // top * dist / slow
    STEERB_RATIO_FIRST, // top * (dist / slow)
} steerB_Rounding;

// Arrive's braking law, linear: inside the braking distance `slow` the
// desired speed falls in proportion to the distance left, from `top` at
// `slow` to 0 at the goal; elsewhere it is `top`. The copies this replaced
// rounded two ways, and each keeps its own (a last bit changed moves every
// trajectory that brakes): follow_path, patrol, interpose and
// offset_pursuit round the speed first; hide and the pipeline's default
// actuator the ratio first, as arrive does, where the ratio is what its
// ease curve takes (its "linear" ease is this law).
static inline float steerB_brake(float top, float dist, float slow, steerB_Rounding r)
{
    if (!(dist < slow)) return top;
    return r == STEERB_RATIO_FIRST ? top * (dist / slow) : top * dist / slow;
}

#endif
