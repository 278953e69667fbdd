// SPDX-License-Identifier: MIT
// avoid_agents.c — unaligned collision avoidance between moving agents
// (Reynolds 1999, "unaligned collision avoidance").
//
// Every neighbour within `range` (and of `tag`) is extrapolated at
// constant velocity. The time of closest approach t = -(dp.dv)/|dv|^2,
// clamped to [0, horizon], tells whether it is a threat: the predicted
// separation there is below the two radii plus `margin` (the shell the
// agent keeps clear). For each threat the agent asks for a sidestep:
//
//   where:  away from the threat's offset at closest approach, which is
//           perpendicular to the relative velocity (a sidestep, not a
//           retreat); from a neighbour already inside the shell and not
//           closing in, straight away from it;
//   when:   by the time of contact (or of closest approach for a path that
//           only grazes the shell; 0 when touching now);
//   how:    the sideways speed that, reached at a steady acceleration, opens
//           the gap by then: 2 * responsibility * gap / time.
//
// The sidesteps of all threats add up: a crowd squeezes from several sides
// at once, and answering only the most imminent threat (Reynolds' rule)
// walks an agent into the next one (measured: 40 agents crossing a circle
// overlap by 0.6-1.0 m that way, by 0.016 m when summed).
// The most imminent threat alone may also make the agent brake, when it is
// head-on and the sidestep cannot open the gap in time at full
// acceleration; braking anywhere else jams crowds (measured: crossing time
// 45-59 s instead of 27 s). The velocity change becomes a force with the
// engine's tracking gain (max_force / max_speed).
//
// Responsibility: each agent opens `responsibility` of each gap. Two
// agents meeting open (r_a + r_b) of it between them: 0.5 + 0.5 shares the
// work exactly as predicted, 1 + 1 (the default) doubles it as a safety
// margin against the lag of steering, 0 + 1 leaves it all to the second
// agent. An agent with responsibility 0 gives exactly zero force.
//
// Degenerate cases never divide by zero: equal velocities never make a
// threat unless already inside the shell; a predicted hit dead centre
// sidesteps to the right of the relative velocity (antisymmetric, so both
// agents of a head-on pair pass on their right); coincident agents with
// equal velocities split along the world x axis, the lower handle going +x.
// Ties for the most imminent threat go to the lower handle, so the choice
// does not depend on the order of the neighbour list (the float sum does
// follow that order, as the flock sums do: same state, same force).
//
// No memory: the behaviour is a pure function of tick t's state.
#include "behavior.h"
#include "fields.h"

typedef struct AvoidAgents {
    float horizon;        // seconds of constant-velocity prediction
    float responsibility; // share of each gap this agent opens, [0, 1]
    float range;          // metres to look for neighbours (0: derived from horizon)
    float margin;         // metres of clearance added to the two radii
    uint16_t tag;         // only neighbours with this tag (0: all)
} AvoidAgents;
STEERB_CHECK_SIZE(AvoidAgents);

// A sidestep speed of 2 gap / t for t near 0 is unbounded; below this time
// the request is held at 2 gap / T_FLOOR (still far beyond any max_force,
// so an overlap is answered with everything the agent has).
#define T_FLOOR 0.05f
// cos of the widest angle between the closing direction and our velocity
// that still counts as head-on (about 8 degrees)
#define HEAD_ON 0.99f

static float avoid_range(const AvoidAgents *p) { return steerB_avoid_range(p->range, p->horizon); }

static float avoid_sense(const steerB_Node *n) { return avoid_range(STEERB_PARAMS_OF(n, AvoidAgents)); }

typedef struct Threat {
    float t;     // seconds left to open the gap (0: touching now)
    float gap;   // metres to open
    float u[3];  // unit direction to open it in
    float d2;    // squared distance now (tie-break)
    float dv[3]; // its velocity relative to ours
    uint32_t d;
} Threat;

// Is `x` more imminent than `best`? Ties, exact only, go to the lower
// handle so that the answer is the same in any neighbour order.
static bool sooner(const steer_World *w, const Threat *x, const Threat *best)
{
    if (x->t != best->t) return x->t < best->t;
    if (x->d2 != best->d2) return x->d2 < best->d2;
    return steerW_handle(w, x->d).id < steerW_handle(w, best->d).id;
}

// Is the neighbour at offset `off`, moving at `dv` relative to us, a
// threat? rh: the two radii (contact); rs: plus the margin (the shell the
// agent keeps clear). Fills x with the gap to open, where and by when.
static bool threat(const steerB_Ctx *c, const AvoidAgents *p, const float off[3], const float dv[3], float rh,
                   uint32_t d, Threat *x)
{
    float rs = rh + p->margin;
    float d2 = v3_len2(off), a = v3_len2(dv), b = v3_dot(off, dv);
    bool closing = a > STEER_EPS2 && b < 0.0f;
    float from[3]; // the offset the gap is measured on: now, or at closest approach
    v3_copy(from, off);
    if (d2 < rs * rs) {
        // inside the shell now
        if (d2 < rh * rh) x->t = 0.0f;
        else if (!closing) x->t = p->horizon; // drifting apart or holding: ease back out
        else {
            float disc = b * b - a * (d2 - rh * rh);
            x->t = disc > 0.0f ? (-b - sqrtf(disc)) / a : -b / a;
            v3_madd(from, dv, -b / a);
        }
    } else {
        if (!closing) return false;
        // closest approach within the horizon (clamped: or at the horizon)
        float tca = -b / a, t = tca < p->horizon ? tca : p->horizon;
        float sep[3];
        v3_copy(sep, off);
        v3_madd(sep, dv, t);
        if (!(v3_len2(sep) < rs * rs)) return false;
        // the time to contact, or to closest approach for a path that only
        // grazes the shell; the miss offset at closest approach is
        // perpendicular to dv, so pushing it out is a sidestep
        float disc = b * b - a * (d2 - rh * rh);
        x->t = disc > 0.0f ? (-b - sqrtf(disc)) / a : tca;
        v3_madd(from, dv, tca);
    }
    if (x->t < 0.0f) x->t = 0.0f;
    v3_scale(x->u, from, -1.0f);
    float len = v3_normalize(x->u);
    x->gap = rs - len;
    // dead centre (to rounding): the deterministic side, not the noise: the
    // right of our velocity relative to the threat (of -dv), which the
    // threat, seeing dv, takes the opposite of, so a head-on pair passes
    // right to right
    if (len <= 1e-4f * rs) v3_zero(x->u);
    float back[3];
    v3_scale(back, dv, -1.0f);
    if (v3_len2(x->u) == 0.0f && !steerB_right_of(back, x->u)) {
        // same place, same velocity: split along x by handle order
        bool low = steerW_handle(c->w, c->d).id < steerW_handle(c->w, d).id;
        v3_set(x->u, low ? 1.0f : -1.0f, 0.0f, 0.0f);
    }
    x->d2 = d2;
    v3_copy(x->dv, dv);
    x->d = d;
    return true;
}

// The velocity change that answers one threat: the sideways speed that,
// reached at a steady acceleration, opens the gap by the time left
// (2 gap / t), shared by responsibility.
static float need_of(const AvoidAgents *p, const Threat *x)
{
    float t = x->t > T_FLOOR ? x->t : T_FLOOR;
    return 2.0f * p->responsibility * x->gap / t;
}

// Head-on, a sidestep that cannot open the gap in time at full
// acceleration (gap > a t^2 / 2) is helped by braking, which buys time.
// Anywhere else braking only jams a crowd, so it is kept for that case.
static void brake(const steerB_Ctx *c, const AvoidAgents *p, const Threat *x, float dv[3])
{
    float speed = v3_len(c->v), rel = v3_len(x->dv);
    if (!(speed > 0.0f) || !(rel > 0.0f)) return;
    float ahead = -v3_dot(x->dv, c->v) / (rel * speed); // cos(closing direction, -v)
    if (ahead < HEAD_ON) return;
    float t = x->t > T_FLOOR ? x->t : T_FLOOR;
    float reach = 0.5f * (c->mass > 0.0f ? c->max_force / c->mass : 0.0f) * t * t;
    if (!(x->gap > reach)) return;
    float short_by = reach > 0.0f ? x->gap / reach - 1.0f : 1.0f;
    float amount = need_of(p, x) * (short_by < 1.0f ? short_by : 1.0f);
    if (amount > speed) amount = speed;
    v3_madd(dv, c->v, -amount / speed);
}

static void avoid_agents_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const AvoidAgents *p = STEERB_PARAMS_OF(n, AvoidAgents);
    v3_zero(out);
    if (p->responsibility <= 0.0f || c->nn <= 0) return;
    const steer_World *w = c->w;
    float range = avoid_range(p), range2 = range * range;
    float dv[3] = { 0, 0, 0 };
    Threat best = { 0 }, x;
    bool found = false;
    for (int i = 0; i < c->nn; i++) {
        const steerB_Neighbor *nb = &c->nb[i];
        // the list may reach further, for another node of the brain
        if (!(nb->d2 < range2)) continue;
        if (p->tag && w->tag[nb->d] != p->tag) continue;
        float vj[3], rel[3];
        steerW_load(w->v, nb->d, vj);
        v3_sub(rel, vj, c->v);
        if (!threat(c, p, nb->off, rel, c->radius + w->radius[nb->d], nb->d, &x)) continue;
        v3_madd(dv, x.u, need_of(p, &x));
        if (!found || sooner(w, &x, &best)) best = x;
        found = true;
    }
    if (!found) return;
    brake(c, p, &best, dv);
    float k = c->max_speed > 0.0f ? c->max_force / c->max_speed : 0.0f;
    v3_scale(out, dv, k);
}

static const steerB_Field avoid_agents_fields[] = {
    { "horizon", STEERB_NUMBER, offsetof(AvoidAgents, horizon), 2, 1e-6, 1e6, "a number of seconds", NULL },
    { "responsibility", STEERB_NUMBER, offsetof(AvoidAgents, responsibility), 1, 0, 1, "a number", NULL },
    { "margin", STEERB_NUMBER, offsetof(AvoidAgents, margin), 0.3f, 0, 1e4, "a number of metres", NULL },
    STEERB_AVOID_RANGE_ROW(AvoidAgents),
    STEERB_AVOID_TAG_ROW(AvoidAgents),
    { 0 }
};

const steerB_Kind steerB_avoid_agents = {
    .name = "avoid_agents",
    .fields = avoid_agents_fields,
    .eval = avoid_agents_eval,
    .sense = avoid_sense,
};
