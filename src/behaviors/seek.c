// SPDX-License-Identifier: MIT
// seek.c — the target-chasing family: seek, flee, pursue, evade.
//
// All four turn a desired velocity into a force with the engine's one
// velocity-tracking law (steerB_track): a velocity error of max_speed asks
// for max_force. Pursue and evade aim at where a moving target will be
// after T = min(distance / max_speed, max_prediction).
#include "behavior.h"
#include "fields.h"
#include "laws.h"

typedef struct Chase {
    steerB_Target target;
    float max_prediction; // pursue/evade
    float panic_radius;   // flee/evade: 0 = always
    float speed;          // desired speed; 0 = the agent's max_speed
} Chase;
STEERB_CHECK_SIZE(Chase);

#define TARGET_FIELD STEERB_TARGET_ROW(Chase, target, "target")
#define SPEED_FIELD STEERB_SPEED_ROW(Chase)
// clang-format off
#define PANIC_FIELD \
    { "panic_radius", STEERB_NUMBER, offsetof(Chase, panic_radius), 0, 0, 1e30, "a number (0 = flee at any distance)", NULL }
#define PREDICT_FIELD \
    { "max_prediction", STEERB_NUMBER, offsetof(Chase, max_prediction), 1, 0, 1e30, "a number of seconds", NULL }
// clang-format on

// Steer toward (sign = 1) or away from (sign = -1) a point at offset `off`.
static void chase(steerB_Ctx *c, const Chase *p, const float off[3], float sign, float out[3])
{
    float dir[3];
    v3_copy(dir, off);
    if (v3_normalize(dir) == 0.0f) {
        if (sign > 0.0f) v3_zero(dir); // on the target: brake
        else v3_copy(dir, c->h);       // on the threat: flee straight ahead
        if (sign < 0.0f) sign = -sign;
    }
    float desired[3];
    v3_scale(desired, dir, sign * steerB_cruise(p->speed, c->max_speed));
    steerB_track(c, desired, out);
}

// Where the target will be after the prediction time, relative to us.
static void predict(const steerB_Ctx *c, const Chase *p, float off[3], const float vel[3])
{
    float dist = v3_len(off);
    float t = c->max_speed > 0.0f ? dist / c->max_speed : p->max_prediction;
    if (t > p->max_prediction) t = p->max_prediction;
    v3_madd(off, vel, t);
}

static void seek_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Chase *p = STEERB_PARAMS_OF(n, Chase);
    float off[3], vel[3];
    if (!steerB_target(c, &p->target, off, vel)) {
        v3_zero(out);
        return;
    }
    chase(c, p, off, 1.0f, out);
}

static bool panicked(const Chase *p, const float off[3])
{
    return p->panic_radius <= 0.0f || v3_len2(off) < p->panic_radius * p->panic_radius;
}

static void flee_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Chase *p = STEERB_PARAMS_OF(n, Chase);
    float off[3], vel[3];
    if (!steerB_target(c, &p->target, off, vel) || !panicked(p, off)) {
        v3_zero(out);
        return;
    }
    chase(c, p, off, -1.0f, out);
}

static void pursue_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Chase *p = STEERB_PARAMS_OF(n, Chase);
    float off[3], vel[3];
    if (!steerB_target(c, &p->target, off, vel)) {
        v3_zero(out);
        return;
    }
    predict(c, p, off, vel);
    chase(c, p, off, 1.0f, out);
}

static void evade_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Chase *p = STEERB_PARAMS_OF(n, Chase);
    float off[3], vel[3];
    if (!steerB_target(c, &p->target, off, vel) || !panicked(p, off)) {
        v3_zero(out);
        return;
    }
    predict(c, p, off, vel);
    chase(c, p, off, -1.0f, out);
}

static const steerB_Field seek_fields[] = { TARGET_FIELD, SPEED_FIELD, { 0 } };
static const steerB_Field flee_fields[] = { TARGET_FIELD, PANIC_FIELD, SPEED_FIELD, { 0 } };
static const steerB_Field pursue_fields[] = { TARGET_FIELD, PREDICT_FIELD, SPEED_FIELD, { 0 } };
static const steerB_Field evade_fields[] = { TARGET_FIELD, PREDICT_FIELD, PANIC_FIELD, SPEED_FIELD, { 0 } };

const steerB_Kind steerB_seek = { .name = "seek", .fields = seek_fields, .eval = seek_eval };
const steerB_Kind steerB_flee = { .name = "flee", .fields = flee_fields, .eval = flee_eval };
const steerB_Kind steerB_pursue = { .name = "pursue", .fields = pursue_fields, .eval = pursue_eval };
const steerB_Kind steerB_evade = { .name = "evade", .fields = evade_fields, .eval = evade_eval };
