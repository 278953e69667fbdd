// SPDX-License-Identifier: MIT
// pipeline.c — the steering pipeline (Millington & Funge 3.4.5) and its
// targeters and decomposers; the constraints live in constraint.c, the
// protocol between them all in pipeline.h.
//
// Each tick, per agent:
//   1. targeters fill the goal's channels, in order; a channel already set
//      by an earlier targeter is kept (earlier = more important). Without
//      targeters the goal is the agent's own target slot.
//   2. decomposers, in order, may replace the goal's position by a nearer
//      sub-goal.
//   3. up to `passes` rounds: every constraint checks the route (agent ->
//      via points -> goal position) in order; the first to find a
//      violation inserts a via point (or declares the route blocked) and
//      the round starts over. A round without violations accepts the route.
//   4. the actuator steers to the first point of the accepted route (any
//      behaviour: one whose target is nil reads the goal); if the route is
//      blocked or the passes run out, the fallback runs instead, seeing the
//      goal as it was before the constraints. No actuator: a built-in one
//      (default_actuator); no fallback: brake.
// Parts return no force of their own (they record zero). The ctx's goal
// pointer is restored on return, so pipelines nest: a part or an actuator
// whose target is nil resolves it against the enclosing pipeline's goal.
//
// Memory: none for the pipeline; one float (the waypoint cursor) per
// decompose_path. No allocation: the goal and its route are on the stack.
#include "../behaviors/behavior.h"
#include "../behaviors/goal.h"
#include "../behaviors/fields.h"
#include "../behaviors/laws.h"

#include <stdio.h>

// Children's roles: 1 + the index of their CHILDREN field in pipeline_fields.
enum { ROLE_TARGETER = 1, ROLE_DECOMPOSER, ROLE_CONSTRAINT, ROLE_ACTUATOR, ROLE_FALLBACK };

typedef struct Pipeline {
    float passes;
} Pipeline;
STEERB_CHECK_SIZE(Pipeline);

// The agent's own target as behaviours outside this pipeline see it.
static bool slot_target(steerB_Ctx *c, void *outer, float off[3], float vel[3])
{
    void *mine = c->goal;
    steerB_Target slot = { .kind = STEER_TARGET_SLOT };
    c->goal = outer;
    bool ok = steerB_target(c, &slot, off, vel);
    c->goal = mine;
    return ok;
}

static void run_role(steerB_Ctx *c, const steerB_Node *n, uint8_t role)
{
    const steerB_Brain *b = c->brain;
    float ignored[3];
    for (uint16_t k = 0; k < n->nchild; k++)
        if (b->kid_roles[n->first + k] == role) steerB_eval(c, b->kids[n->first + k], ignored);
}

static int find_role(const steerB_Ctx *c, const steerB_Node *n, uint8_t role)
{
    for (uint16_t k = 0; k < n->nchild; k++)
        if (c->brain->kid_roles[n->first + k] == role) return c->brain->kids[n->first + k];
    return -1;
}

// Without an actuator: full speed to a via point; toward the goal
// position, slowing linearly inside the agent's own stopping distance
// (max_speed^2 m / 2 max_force); a goal with only a velocity is tracked.
static void default_actuator(steerB_Ctx *c, const steerB_Goal *g, float out[3])
{
    float desired[3] = { 0, 0, 0 };
    if (g->has & STEERB_GOAL_POSITION) {
        float off[3];
        v3_sub(off, g->nvia ? g->via[0] : g->p, c->p);
        float dist = v3_normalize(off), speed = c->max_speed;
        if (!g->nvia) {
            float brake = c->max_force > 0.0f ? c->max_speed * c->max_speed * c->mass / (2.0f * c->max_force) : 0.0f;
            speed = steerB_brake(speed, dist, brake, STEERB_RATIO_FIRST);
        }
        v3_scale(desired, off, speed);
    } else if (g->has & STEERB_GOAL_VELOCITY) {
        v3_copy(desired, g->v);
    } else {
        v3_zero(out);
        return;
    }
    steerB_track(c, desired, out);
}

static void pipeline_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Pipeline *p = STEERB_PARAMS_OF(n, Pipeline);
    void *outer = c->goal;
    steerB_Goal goal;
    memset(&goal, 0, sizeof goal);
    goal.outer = outer;
    c->goal = &goal;

    if (find_role(c, n, ROLE_TARGETER) >= 0) {
        run_role(c, n, ROLE_TARGETER);
    } else {
        float off[3], vel[3];
        if (slot_target(c, outer, off, vel)) {
            goal.has = STEERB_GOAL_POSITION;
            v3_add(goal.p, c->p, off);
            v3_copy(goal.pv, vel);
        }
    }
    run_role(c, n, ROLE_DECOMPOSER);

    // constraints: bend the route until a whole round finds nothing
    bool ok = true;
    steerB_Goal route = goal;
    if ((goal.has & STEERB_GOAL_POSITION) && find_role(c, n, ROLE_CONSTRAINT) >= 0) {
        const steerB_Brain *b = c->brain;
        int passes = (int)p->passes;
        ok = false;
        c->goal = &route;
        for (int pass = 0; pass < passes; pass++) {
            bool changed = false, blocked = false;
            for (uint16_t k = 0; k < n->nchild && !changed && !blocked; k++) {
                if (b->kid_roles[n->first + k] != ROLE_CONSTRAINT) continue;
                float ignored[3];
                route.status = 0;
                steerB_eval(c, b->kids[n->first + k], ignored);
                blocked = route.status & STEERB_ROUTE_BLOCKED;
                changed = route.status & STEERB_ROUTE_CHANGED;
            }
            if (blocked) break;
            if (!changed) {
                ok = true;
                break;
            }
        }
    }

    int part = find_role(c, n, ok ? ROLE_ACTUATOR : ROLE_FALLBACK);
    c->goal = ok ? &route : &goal;
    if (part >= 0) steerB_eval(c, (uint32_t)part, out);
    else if (ok) default_actuator(c, &route, out);
    else {
        float stop[3] = { 0, 0, 0 }; // no fallback: brake
        steerB_track(c, stop, out);
    }
    c->goal = outer;
}

static int pipeline_check(const void *params, char *msg, size_t len)
{
    const Pipeline *p = params;
    if (p->passes != floorf(p->passes)) {
        snprintf(msg, len, "passes (%g) must be a whole number", (double)p->passes);
        return 0;
    }
    return 1;
}

static const char *const targeter_kinds[] = { "target_position", "target_velocity", NULL };
static const char *const decomposer_kinds[] = { "decompose_path", "decompose_flow", NULL };
static const char *const constraint_kinds[] = { "avoid_obstacle_constraint", "wall_constraint", NULL };

static const steerB_Field pipeline_fields[] = {
    { "targeters", STEERB_CHILDREN, 0, 0, 0, 0, "a list of targeters (steer.target_position, steer.target_velocity)",
      targeter_kinds },
    { "decomposers", STEERB_CHILDREN, 0, 0, 0, 0, "a list of decomposers (steer.decompose_path, steer.decompose_flow)",
      decomposer_kinds },
    { "constraints", STEERB_CHILDREN, 0, 0, 0, 0,
      "a list of constraints (steer.avoid_obstacle_constraint, steer.wall_constraint)", constraint_kinds },
    { "actuator", STEERB_CHILDREN, 0, 0, 0, 1, "one behaviour", NULL },
    { "fallback", STEERB_CHILDREN, 0, 0, 0, 1, "one behaviour", NULL },
    { "passes", STEERB_NUMBER, offsetof(Pipeline, passes), 4, 1, STEERB_MAX_VIA + 1, "a whole number", NULL },
    { 0 }
};

const steerB_Kind steerB_pipeline = { .name = "pipeline",
                                      .fields = pipeline_fields,
                                      .eval = pipeline_eval,
                                      .children = STEERB_NAMED,
                                      .check = pipeline_check };

// ---- targeters -------------------------------------------------------------

typedef struct TargetPosition {
    steerB_Target target;
} TargetPosition;
STEERB_CHECK_SIZE(TargetPosition);

// The target's position (and, for an agent, its velocity as the motion of
// that point), unless an earlier targeter set the position.
static void target_position_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    v3_zero(out);
    steerB_Goal *g = c->goal;
    if (!g || (g->has & STEERB_GOAL_POSITION)) return;
    float off[3], vel[3];
    c->goal = g->outer;
    bool ok = steerB_target(c, &STEERB_PARAMS_OF(n, TargetPosition)->target, off, vel);
    c->goal = g;
    if (!ok) return;
    g->has |= STEERB_GOAL_POSITION;
    v3_add(g->p, c->p, off);
    v3_copy(g->pv, vel);
}

static const steerB_Field target_position_fields[] = { STEERB_TARGET_ROW(TargetPosition, target, "target"), { 0 } };

const steerB_Kind steerB_target_position = { .name = "target_position",
                                             .fields = target_position_fields,
                                             .eval = target_position_eval };

typedef struct TargetVelocity {
    float velocity[3];
} TargetVelocity;
STEERB_CHECK_SIZE(TargetVelocity);

static void target_velocity_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    v3_zero(out);
    steerB_Goal *g = c->goal;
    if (!g || (g->has & STEERB_GOAL_VELOCITY)) return;
    g->has |= STEERB_GOAL_VELOCITY;
    v3_copy(g->v, STEERB_PARAMS_OF(n, TargetVelocity)->velocity);
    if (c->w->dim == 2) g->v[2] = 0.0f;
}

static const steerB_Field target_velocity_fields[] = {
    { "velocity", STEERB_VECTOR, offsetof(TargetVelocity, velocity), 0, 0, 0, "a vector (m/s)", NULL }, { 0 }
};

const steerB_Kind steerB_target_velocity = { .name = "target_velocity",
                                             .fields = target_velocity_fields,
                                             .eval = target_velocity_eval };

// ---- decomposers -----------------------------------------------------------

typedef struct DecomposePath {
    steerB_Points path;
    float radius;
} DecomposePath;
STEERB_CHECK_SIZE(DecomposePath);

// A far goal reached by way of given waypoints: the sub-goal is the first
// waypoint the agent has not yet come within `radius` of; after the last
// one, the goal itself. The cursor (memory) only moves forward, so the
// waypoints are walked once per brain assignment.
static void decompose_path_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    v3_zero(out);
    const DecomposePath *p = STEERB_PARAMS_OF(n, DecomposePath);
    steerB_Goal *g = c->goal;
    if (!g || !(g->has & STEERB_GOAL_POSITION)) return;
    float *cursor = c->mem + n->mem;
    uint32_t k = *cursor >= 0.0f && *cursor < (float)p->path.n ? (uint32_t)*cursor : p->path.n;
    float off[3];
    for (; k < p->path.n; k++) {
        const float *q = p->path.p + 3 * k;
        float at[3] = { q[0], q[1], c->w->dim == 3 ? q[2] : 0.0f };
        steerT_delta(c->w, c->p, at, off);
        if (v3_len2(off) > p->radius * p->radius) break;
    }
    *cursor = (float)k;
    if (k == p->path.n) return;
    v3_add(g->p, c->p, off);
    v3_zero(g->pv);
}

static const steerB_Field decompose_path_fields[] = {
    { "path", STEERB_POINTS, offsetof(DecomposePath, path), 0, 1, 0, "a list of at least one point", NULL },
    { "radius", STEERB_NUMBER, offsetof(DecomposePath, radius), 1, 1e-6, 1e30, "a number (metres)", NULL },
    { 0 }
};

static int decompose_path_check(const void *params, char *msg, size_t len)
{
    if (((const DecomposePath *)params)->path.n == 0) {
        snprintf(msg, len, "field 'path' is required (a list of at least one point)");
        return 0;
    }
    return 1;
}

const steerB_Kind steerB_decompose_path = { .name = "decompose_path",
                                            .fields = decompose_path_fields,
                                            .eval = decompose_path_eval,
                                            .mem_floats = 1,
                                            .check = decompose_path_check };
