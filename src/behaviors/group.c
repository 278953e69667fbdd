// SPDX-License-Identifier: MIT
// group.c — behaviours that place an agent relative to other moving
// agents: interpose (between two), offset_pursuit (a slot in a leader's
// frame) and match_velocity (move as another moves).
//
// Interpose and offset_pursuit aim at a point that moves with the agents
// it is defined by. They predict it T = distance / max_speed ahead (the
// time to get there; at most max_prediction when that is > 0), then
// "arrive" there with the point's own velocity added to the desired
// velocity: without that feed-forward an arrive-style follower settles
// slow_radius * v / max_speed behind a moving slot instead of on it. The
// desired velocity is capped at the agent's cruise speed so that the
// force points where the agent can actually go.
//
// All three are pure functions of tick t's state (no memory). A target
// that cannot be resolved (none, removed, or the agent itself) gives zero.
#include "behavior.h"
#include "fields.h"
#include "laws.h"

static float prediction(const steerB_Ctx *c, float dist, float max_prediction)
{
    float t = c->max_speed > 0.0f ? dist / c->max_speed : 0.0f;
    return max_prediction > 0.0f && t > max_prediction ? max_prediction : t;
}

// Arrive at a point at offset `off` that moves with velocity `vel`.
void steerB_arrive_moving(const steerB_Ctx *c, const float off[3], const float vel[3], float slow_radius, float speed,
                          float out[3])
{
    float top = steerB_cruise(speed, c->max_speed), desired[3];
    v3_copy(desired, vel);
    float dist = v3_len(off);
    if (dist > 0.0f) {
        float s = steerB_brake(top, dist, slow_radius, STEERB_SPEED_FIRST);
        v3_madd(desired, off, s / dist);
    }
    v3_truncate(desired, top);
    steerB_track(c, desired, out);
}

// ---- interpose ----------------------------------------------------------

typedef struct Interpose {
    steerB_Target a, b;
    float slow_radius, speed, max_prediction;
} Interpose;
STEERB_CHECK_SIZE(Interpose);

static void interpose_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Interpose *p = STEERB_PARAMS_OF(n, Interpose);
    float oa[3], va[3], ob[3], vb[3];
    if (!steerB_target(c, &p->a, oa, va) || !steerB_target(c, &p->b, ob, vb)) {
        v3_zero(out);
        return;
    }
    float mid[3], vm[3];
    v3_add(mid, oa, ob);
    v3_scale(mid, mid, 0.5f);
    v3_add(vm, va, vb);
    v3_scale(vm, vm, 0.5f);
    v3_madd(mid, vm, prediction(c, v3_len(mid), p->max_prediction));
    steerB_arrive_moving(c, mid, vm, p->slow_radius, p->speed, out);
}

static const steerB_Field interpose_fields[] = { STEERB_TARGET_ROW(Interpose, a, "a"),
                                                 STEERB_TARGET_ROW(Interpose, b, "b"),
                                                 STEERB_SLOW_RADIUS_ROW(Interpose, 5),
                                                 STEERB_SPEED_ROW(Interpose),
                                                 { "max_prediction", STEERB_NUMBER, offsetof(Interpose, max_prediction),
                                                   0, 0, 1e30, "a number of seconds (0 = no limit)", NULL },
                                                 { 0 } };

const steerB_Kind steerB_interpose = { .name = "interpose", .fields = interpose_fields, .eval = interpose_eval };

// ---- offset_pursuit -----------------------------------------------------

typedef struct OffsetPursuit {
    steerB_Target target;
    float offset[3]; // leader frame: x forward, y left, z up
    float slow_radius, speed, max_prediction;
} OffsetPursuit;
STEERB_CHECK_SIZE(OffsetPursuit);

// Dense index of the agent a resolved target names, or -1 for a point.
static int64_t target_agent(const steerB_Ctx *c, const steerB_Target *t)
{
    if (t->kind == STEER_TARGET_AGENT) return steerW_dense(c->w, t->agent);
    if (t->kind == STEER_TARGET_SLOT && (c->w->flags[c->d] & STEER_AF_TARGET_AGENT))
        return steerW_dense(c->w, steerW_target_agent(c->w, c->d));
    return -1;
}

static void offset_pursuit_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const OffsetPursuit *p = STEERB_PARAMS_OF(n, OffsetPursuit);
    float off[3], vel[3];
    if (!steerB_target(c, &p->target, off, vel)) {
        v3_zero(out);
        return;
    }
    // the leader's frame, built as the agent's own is (steerB_frame); a
    // point has no heading, so its frame is the world's axes
    float fwd[3] = { 1, 0, 0 }, side[3] = { 0, 1, 0 }, up[3] = { 0, 0, 1 };
    int64_t ld = target_agent(c, &p->target);
    if (ld >= 0) {
        steerB_Ctx leader = *c;
        steerW_load(c->w->h, (uint32_t)ld, leader.h);
        steerB_frame(&leader, side, up);
        v3_copy(fwd, leader.h);
    }
    float slot[3];
    v3_copy(slot, off);
    v3_madd(slot, fwd, p->offset[0]);
    v3_madd(slot, side, p->offset[1]);
    if (c->w->dim == 3) v3_madd(slot, up, p->offset[2]);
    v3_madd(slot, vel, prediction(c, v3_len(slot), p->max_prediction));
    steerB_arrive_moving(c, slot, vel, p->slow_radius, p->speed, out);
}

static const steerB_Field offset_pursuit_fields[] = {
    STEERB_TARGET_ROW(OffsetPursuit, target, "target"),
    { "offset", STEERB_VECTOR, offsetof(OffsetPursuit, offset), 0, 0, 0,
      "a vector {x, y [, z]} in the leader's frame (x forward, y left, z up)", NULL },
    STEERB_SLOW_RADIUS_ROW(OffsetPursuit, 5),
    STEERB_SPEED_ROW(OffsetPursuit),
    { "max_prediction", STEERB_NUMBER, offsetof(OffsetPursuit, max_prediction), 0, 0, 1e30,
      "a number of seconds (0 = no limit)", NULL },
    { 0 }
};

const steerB_Kind steerB_offset_pursuit = { .name = "offset_pursuit",
                                            .fields = offset_pursuit_fields,
                                            .eval = offset_pursuit_eval };

// ---- match_velocity -----------------------------------------------------

typedef struct MatchVelocity {
    steerB_Target target;
} MatchVelocity;
STEERB_CHECK_SIZE(MatchVelocity);

// A point target has velocity zero: matching it means stopping.
static void match_velocity_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const MatchVelocity *p = STEERB_PARAMS_OF(n, MatchVelocity);
    float off[3], vel[3];
    if (!steerB_target(c, &p->target, off, vel)) {
        v3_zero(out);
        return;
    }
    v3_truncate(vel, c->max_speed);
    steerB_track(c, vel, out);
}

static const steerB_Field match_velocity_fields[] = { STEERB_TARGET_ROW(MatchVelocity, target, "target"), { 0 } };

const steerB_Kind steerB_match_velocity = { .name = "match_velocity",
                                            .fields = match_velocity_fields,
                                            .eval = match_velocity_eval };
