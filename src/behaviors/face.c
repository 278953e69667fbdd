// SPDX-License-Identifier: MIT
// face.c — orientation only: face (turn toward a target) and
// look_where_going (turn toward the direction of motion).
//
// Both give zero force and set the heading the agent has after this tick
// (ctx face/facing), so for that tick the heading no longer follows the
// velocity (STEER_AF_FACING in locomotion). The heading turns toward the
// wanted direction by at most turn_rate * dt, in the plane of the two
// directions (in 2D, about z); a wanted direction exactly behind turns to
// the agent's left (its frame's side vector), so the choice is
// deterministic. The result is a unit vector by construction.
//
// With no direction to turn to (no target, or standing on it; not moving
// for look_where_going) the heading is held where it is, so it does not
// snap to a velocity the agent is only drifting with. look_where_going
// also turns more slowly below 5% of max_speed, in proportion to speed,
// as locomotion does: at a crawl the direction of motion is mostly noise.
//
// When a brain holds several orientation nodes, the last one evaluated
// decides. Put them in a blend: a priority skips children after the first
// that gives a force, and these give none.
#include "behavior.h"
#include "fields.h"

#define TAU 6.2831853f
#define SETTLE 0.05f // fraction of max_speed below which the turn rate fades

// Turn the current heading toward the unit direction `want` by at most
// `step` radians and make that the agent's facing for this tick.
static void turn_toward(steerB_Ctx *c, const float want[3], float step)
{
    float h[3];
    v3_copy(h, c->h);
    c->facing = true;
    if (v3_normalize(h) == 0.0f) {
        v3_copy(c->face, want);
        return;
    }
    float cosang = v3_dot(h, want);
    if (step >= 0.5f * TAU || cosang >= steerM_cosf(step)) {
        v3_copy(c->face, want);
        return;
    }
    // e: the unit direction in the plane of h and want, perpendicular to h
    float e[3];
    v3_copy(e, want);
    v3_madd(e, h, -cosang);
    if (v3_normalize(e) == 0.0f) {
        float up[3];
        steerB_frame(c, e, up);
        if (v3_normalize(e) == 0.0f) {
            v3_copy(c->face, h);
            return;
        }
    }
    v3_scale(c->face, h, steerM_cosf(step));
    v3_madd(c->face, e, steerM_sinf(step));
    if (v3_normalize(c->face) == 0.0f) v3_copy(c->face, h);
}

// Keep the heading: the facing is set, so the velocity cannot move it.
static void hold(steerB_Ctx *c)
{
    v3_copy(c->face, c->h);
    c->facing = v3_normalize(c->face) > 0.0f;
}

typedef struct Face {
    steerB_Target target;
    float turn_rate; // rad/s
} Face;
STEERB_CHECK_SIZE(Face);

static void face_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Face *p = STEERB_PARAMS_OF(n, Face);
    v3_zero(out);
    float off[3], vel[3];
    if (!steerB_target(c, &p->target, off, vel)) return;
    if (v3_normalize(off) == 0.0f) {
        hold(c);
        return;
    }
    turn_toward(c, off, p->turn_rate * c->dt);
}

static void look_where_going_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Face *p = STEERB_PARAMS_OF(n, Face);
    v3_zero(out);
    float dir[3];
    v3_copy(dir, c->v);
    float speed = v3_normalize(dir);
    if (speed == 0.0f) {
        hold(c);
        return;
    }
    float settle = SETTLE * c->max_speed;
    float k = settle > 0.0f && speed < settle ? speed / settle : 1.0f;
    turn_toward(c, dir, p->turn_rate * c->dt * k);
}

// clang-format off
#define TURN_RATE_FIELD \
    { "turn_rate", STEERB_NUMBER, offsetof(Face, turn_rate), TAU, 1e-6, 1e30, "a number of radians per second", NULL }
// clang-format on

static const steerB_Field face_fields[] = { STEERB_TARGET_ROW(Face, target, "target"), TURN_RATE_FIELD, { 0 } };
static const steerB_Field look_where_going_fields[] = { TURN_RATE_FIELD, { 0 } };

const steerB_Kind steerB_face = { .name = "face", .fields = face_fields, .eval = face_eval, .faces = true };
const steerB_Kind steerB_look_where_going = {
    .name = "look_where_going", .fields = look_where_going_fields, .eval = look_where_going_eval, .faces = true
};
