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

#endif
