// SPDX-License-Identifier: MIT
// arrive.c — seek that brakes: inside slow_radius the desired speed is
// max_speed * f(distance / slow_radius) with f(0) = 0 and f(1) = 1, and
// inside stop_radius the agent is told to stand still. f is "linear",
// "smooth" (x(2 - x): it joins the cruise speed with zero slope at the slow
// circle, so the braking starts without a jolt) or a host function (the
// slow path: one call into Lua per agent per tick while braking).
//
// free_spot: in a crowd that shares a goal (a rally point, a counter),
// only one agent can stand on it. With free_spot on, an agent inside
// slow_radius that touches an agent standing still nearer the goal than
// itself takes the spot where it is: it arrives there (the event fires)
// and stands, instead of pressing into the holders, which jostles them
// for as long as the scenario runs. The spots fill outward from the goal
// like a queue round a counter. Touching: within a quarter of its radius
// of contact. An agent that has taken such a spot keeps it while a still
// agent nearer the goal is within half a radius of contact (so a nudge does not start it pressing again), and walks on
// when they leave. Standing still: slower than 5% of its max_speed.
//
// Memory: one float, 1 while the agent is inside stop_radius (2 while it
// holds a free spot), so that the "arrive" event fires once per arrival,
// not every tick; and where the target was then, so that a target moved
// by more than stop_radius is a new arrival even when it is still inside
// slow_radius.
#include "behavior.h"
#include "fields.h"
#include "laws.h"

#include <stdio.h>

typedef struct Arrive {
    steerB_Target target;
    float slow_radius, stop_radius, speed;
    steerB_Ease ease;
    uint8_t free_spot;
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

#define STILL 0.05f // of max_speed: standing still
#define TOUCH 0.25f // of the radius: near enough to contact to count as touching
#define KEEP 0.5f   // of the radius: how far from contact a free spot is kept

// Is the goal (at offset off, dist away) held by still agents this one
// touches, nearer the goal than itself? `slack`: metres beyond contact.
static bool spot_taken(const steerB_Ctx *c, const float off[3], float dist, float slack)
{
    const steer_World *w = c->w;
    for (int i = 0; i < c->nn; i++) {
        const steerB_Neighbor *nb = &c->nb[i];
        float reach = c->radius + w->radius[nb->d] + slack, vb[3], to_goal[3];
        if (!(nb->d2 < reach * reach) || !(v3_dot(nb->off, off) > 0.0f)) continue;
        steerW_load(w->v, nb->d, vb);
        if (!(v3_len2(vb) < STILL * STILL * w->max_speed[nb->d] * w->max_speed[nb->d])) continue;
        v3_sub(to_goal, off, nb->off);
        if (v3_len2(to_goal) < dist * dist) return true;
    }
    return false;
}

static float arrive_sense(const steerB_Node *n)
{
    const Arrive *p = STEERB_PARAMS_OF(n, Arrive);
    return p->free_spot ? p->slow_radius : 0.0f;
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
    } else if (p->free_spot && dist < p->slow_radius &&
               spot_taken(c, off, dist, (*inside == 2.0f ? KEEP : TOUCH) * c->radius)) {
        if (*inside == 0.0f) steerW_event(c->w, STEER_EVENT_ARRIVE, c->d, STEER_NO_AGENT);
        *inside = 2.0f;
        v3_copy(was, at);
    } else {
        if (dist > p->slow_radius || *inside == 2.0f) *inside = 0.0f;
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
                                              { "free_spot", STEERB_BOOL, offsetof(Arrive, free_spot), 0, 0, 0,
                                                "a boolean", NULL },
                                              { 0 } };

const steerB_Kind steerB_arrive = { .name = "arrive",
                                    .fields = arrive_fields,
                                    .eval = arrive_eval,
                                    .mem_floats = 4,
                                    .check = arrive_check,
                                    .sense = arrive_sense };
