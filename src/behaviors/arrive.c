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
// slow_radius takes the spot where it is when the goal is held (a still
// agent stands on it) and it touches a still agent nearer the goal than
// itself: it arrives there (the event fires) and stands, instead of
// pressing into the holders, which jostles them for as long as the
// scenario runs. The spots fill outward from the goal like a queue round a
// counter. Touching: within a quarter of its radius of contact. It keeps
// the spot while a still agent nearer the goal is within half a radius of
// contact (so a nudge does not start it pressing again), and walks on when
// they leave. Still: slower than 5% of its max_speed.
//
// Memory: one float, nonzero once the agent has arrived (HOLDING and
// LET_GO below for free spots) until it leaves slow_radius, so that the
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
    uint8_t free_spot;
} Arrive;
STEERB_CHECK_SIZE(Arrive);

static const char *const ease_names[] = { "linear", "smooth", NULL };

static float ease(steerB_Ctx *c, const steerB_Ease *e, float x)
{
    if (e->curve == 0) return x;
    if (e->curve == 1) return x * (2.0f - x);
    steer_World *w = c->host; // an ease function: its brain runs on the calling thread
    double y = 0.0;
    if (!w->hooks.ease || w->hooks.ease(w->hooks.ud, e->ref, x, &y) != 0) return x;
    if (!isfinite(y)) {
        steerA_error(w, "arrive: ease function returned %g for %g; expected a finite number", y, (double)x);
        return x;
    }
    if (y < 0.0) y = 0.0;
    if (y > 1.0) y = 1.0;
    return (float)y;
}

// The arrival marker (memory float 0): 0 not arrived, 1 at the goal, and
// with free_spot these two: holding a free spot; and having let one go
// without leaving slow_radius (still arrived: no second event).
#define HOLDING 2.0f
#define LET_GO 3.0f
#define TOUCH 0.25f // of the radius: near enough to contact to count as touching
#define KEEP 0.5f   // of the radius: how far from contact a free spot is kept

// Is the goal (at offset off, dist away) held, and is this agent at the
// edge of the holders? Held: a still agent stands on it (within its radius
// plus stop_radius). At the edge: this agent touches (within `slack`
// metres of contact) a still agent nearer the goal, ahead of it. A still
// bystander on an empty goal's way holds nothing.
static bool spot_taken(const steerB_Ctx *c, const Arrive *p, const float off[3], float dist, float slack)
{
    const steer_World *w = c->w;
    bool held = false, edge = false;
    for (int i = 0; i < c->nn && !(held && edge); i++) {
        const steerB_Neighbor *nb = &c->nb[i];
        float to_goal[3];
        v3_sub(to_goal, off, nb->off);
        float g2 = v3_len2(to_goal), on = w->radius[nb->d] + p->stop_radius;
        bool near_goal = g2 < on * on, nearer = g2 < dist * dist;
        if (!near_goal && !nearer) continue;
        float reach = c->radius + w->radius[nb->d] + slack;
        bool touching = nb->d2 < reach * reach && v3_dot(nb->off, off) > 0.0f;
        if (!near_goal && !touching) continue;
        float vb[3];
        steerW_load(w->v, nb->d, vb);
        if (!steerB_still(w, nb->d, vb)) continue;
        held |= near_goal;
        edge |= touching && nearer;
    }
    return held && edge;
}

// With free_spot, the neighbours round the goal: it is within slow_radius.
static float arrive_sense(const steerB_Node *n)
{
    const Arrive *p = STEERB_PARAMS_OF(n, Arrive);
    return p->free_spot ? 2.0f * p->slow_radius : 0.0f;
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
    steerT_delta(c->w, was, at, moved);
    if (v3_len2(moved) > p->stop_radius * p->stop_radius) *inside = 0.0f;
    float desired[3] = { 0, 0, 0 };
    if (dist <= p->stop_radius) {
        if (*inside == 0.0f) steerT_event_to(c->loc, c->w, STEER_EVENT_ARRIVE, c->d, STEER_NO_AGENT);
        *inside = 1.0f;
        v3_copy(was, at);
    } else if (p->free_spot && dist < p->slow_radius &&
               spot_taken(c, p, off, dist, (*inside == HOLDING ? KEEP : TOUCH) * c->radius)) {
        if (*inside == 0.0f) steerT_event_to(c->loc, c->w, STEER_EVENT_ARRIVE, c->d, STEER_NO_AGENT);
        *inside = HOLDING;
        v3_copy(was, at);
    } else {
        // a spot let go inside slow_radius stays an arrival: no second event
        if (dist > p->slow_radius) *inside = 0.0f;
        else if (*inside == HOLDING) *inside = LET_GO;
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
    return steerB_check_radii(p->slow_radius, p->stop_radius, msg, len);
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
