// SPDX-License-Identifier: MIT
// craft.h — turn-limited vehicles (craft.c): the turn radius, craft
// locomotion, the up vector. The record itself (steerW_Turn) is part of
// the world's layout (world.h).
#ifndef STEER_CRAFT_H
#define STEER_CRAFT_H

#include "world.h"

// The up vector of a frame with forward h when nothing banks it (craft.c).
void steerF_derived_up(const float h[3], float up[3]);
// The turn radius at `speed`: min_turn_radius, or v^2 / max_turn_accel when larger.
float steerF_turn_radius(const steerW_Turn *t, float speed);
// Craft locomotion of dense agent d under force f: the new velocity and heading.
void steerF_craft_step(const steer_World *w, uint32_t d, const float f[3], float v[3], float h[3]);
// The agent's up vector: banked for a 3D craft, derived from the heading otherwise.
void steerF_up(const steer_World *w, uint32_t d, float up[3]);
void steerF_craft_free(steer_World *w);

#endif
