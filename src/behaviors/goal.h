// SPDX-License-Identifier: MIT
// goal.h — the protocol between steer.pipeline (src/combine/pipeline.c) and
// its parts, which are behaviours (targeters, decomposers such as
// decompose_flow, constraints, actuators).
//
// A steering pipeline (Millington & Funge, AI for Games, 3.4.5) runs four
// kinds of parts in turn: targeters say what the goal is, decomposers
// replace it by a nearer sub-goal, constraints check the route to it
// against the world's geometry and bend it, and the actuator turns the
// result into a force. The parts are ordinary nodes of the brain (kinds
// with an eval function), so they cannot return a goal: the pipeline hands
// them its goal through the evaluation context instead (steerB_Ctx.goal).
//
// Invariants: every point of a goal is in the agent's unwrapped frame
// (the agent's position plus a minimum-image displacement), so routes never
// straddle the seam of a torus; `nvia <= STEERB_MAX_VIA`; a channel's
// values are meaningful only while its bit is set in `has`.
#ifndef STEER_GOAL_H
#define STEER_GOAL_H

#include "../core/brain.h"

// Channels of a goal; each is optional.
enum {
    STEERB_GOAL_POSITION = 1,   // p: where to be (pv: how that point moves)
    STEERB_GOAL_VELOCITY = 2,   // v: the velocity to have
    STEERB_GOAL_ORIENTATION = 4 // h: the heading to have (unit)
};

// What a constraint reports after checking the route (steerB_Goal.status).
enum {
    STEERB_ROUTE_CHANGED = 1, // it found a violation and inserted a via point
    STEERB_ROUTE_BLOCKED = 2  // it found a violation no via point can fix
};

// Route points a constraint may insert; bounds the pipeline's `passes`.
#define STEERB_MAX_VIA 15

typedef struct steerB_Goal {
    uint8_t has;       // STEERB_GOAL_* channels set
    uint8_t nvia;      // via points before the goal position, in travel order
    uint8_t status;    // written by constraints: STEERB_ROUTE_*
    float p[3], pv[3]; // position channel
    float v[3];        // velocity channel
    float h[3];        // orientation channel
    // The route the constraints check: the agent's position, via[0], ...,
    // via[nvia - 1], then p. The actuator steers to the first of them.
    float via[STEERB_MAX_VIA][3];
    // The goal of an enclosing pipeline (or NULL): parts resolve a nil
    // target against it, as any behaviour of the enclosing pipeline would.
    void *outer;
} steerB_Goal;

#endif
