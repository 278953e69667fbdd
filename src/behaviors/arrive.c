// SPDX-License-Identifier: MIT
// arrive.c — seek that brakes: inside slow_radius the desired speed is
// max_speed * f(distance / slow_radius) with f(0) = 0 and f(1) = 1, and
// inside stop_radius the agent is told to stand still. f is "linear",
// "smooth" (x(2 - x): it joins the cruise speed with zero slope at the slow
// circle, so the braking starts without a jolt) or a host function (the
// slow path: one call into Lua per agent per tick while braking).
//
// Memory: one float, 1 while the agent is inside stop_radius, so that the
// "arrive" event fires once per arrival, not every tick; and where the
// target was then, so that a target moved by more than stop_radius is a
// new arrival even when it is still inside slow_radius.
#include "behavior.h"
#include "fields.h"
#include "laws.h"

#include <stdio.h>

typedef struct Arrive {
    steerB_Target target;
    float slow_radius, stop_radius, speed;
    steerB_Ease ease;
} Arrive;
STEERB_CHECK_SIZE(Arrive);

static const char *const ease_names[] = { "linear", "smooth", NULL };

static float ease(steerB_Ctx *c, const steerB_Ease *e, float x)
{
    if (e->curve == 0) return x;
    if (e->curve == 1) return x * (2.0f - x);
    steer_World *w = c->w;
    double y = 0.0;
    if (!w->hooks.ease || w->hooks.ease(w->hooks.ud, e->ref, x, &y) != 0) return x;
    if (!isfinite(y)) {
        steerW_error(w, "arrive: ease function returned %g for %g; expected a finite number", y, (double)x);
        return x;
    }
    if (y < 0.0) y = 0.0;
    if (y > 1.0) y = 1.0;
    return (float)y;
}

static void arrive_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Arrive *p = STEERB_PARAMS_OF(n, Arrive);
    float off[3], vel[3];
    if (!steerB_target(c, &p->target, off, vel)) {
        v3_zero(out);
        return;
    }
    float dist = v3_len(off);
    float *inside = c->mem + n->mem, *was = inside + 1, at[3], moved[3];
    v3_add(at, c->p, off);
    steerW_delta(c->w, was, at, moved);
    if (v3_len2(moved) > p->stop_radius * p->stop_radius) *inside = 0.0f;
    float desired[3] = { 0, 0, 0 };
    if (dist <= p->stop_radius) {
        if (*inside == 0.0f) steerW_event(c->w, STEER_EVENT_ARRIVE, c->d, STEER_NO_AGENT);
        *inside = 1.0f;
        v3_copy(was, at);
    } else {
        if (dist > p->slow_radius) *inside = 0.0f;
        float top = steerB_cruise(p->speed, c->max_speed);
        float s = top;
        if (dist < p->slow_radius) s = top * ease(c, &p->ease, dist / p->slow_radius);
        v3_scale(desired, off, s / dist);
    }
    steerB_track(c, desired, out);
}

static int arrive_check(const void *params, char *msg, size_t len)
{
    const Arrive *p = params;
    if (p->stop_radius >= p->slow_radius) {
        snprintf(msg, len, "stop_radius (%g) must be smaller than slow_radius (%g)", (double)p->stop_radius,
                 (double)p->slow_radius);
        return 0;
    }
    return 1;
}

static const steerB_Field arrive_fields[] = { STEERB_TARGET_ROW(Arrive, target, "target"),
                                              STEERB_SLOW_RADIUS_ROW(Arrive, 5),
                                              STEERB_STOP_RADIUS_ROW(Arrive, 0.1f),
                                              STEERB_SPEED_ROW(Arrive),
                                              { "ease", STEERB_EASE, offsetof(Arrive, ease), 0, 0, 0,
                                                "\"linear\", \"smooth\" or a function(f) -> number", ease_names },
                                              { 0 } };

const steerB_Kind steerB_arrive = {
    .name = "arrive", .fields = arrive_fields, .eval = arrive_eval, .mem_floats = 4, .check = arrive_check
};
