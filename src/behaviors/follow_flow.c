// SPDX-License-Identifier: MIT
// follow_flow.c — steer along a flow field (src/nav/flow.c).
//
// The desired direction is the field's, interpolated between the cell
// centres around the agent (steerN_flow_sample), so an agent turns
// smoothly instead of in 45-degree jerks at cell borders. The desired
// speed brakes linearly over the distance left along the field, and in a
// goal cell the agent arrives at the goal point itself (one "arrive" event
// within stop_radius) instead of circling the cell centre.
//
// Interpolation cuts corners and momentum carries an agent on, so near a
// blocked cell (within `clearance`) the desired velocity loses its part
// toward the cell and gains a push away from it that grows as the agent
// gets closer: agents slide along walls and keep out of blocked cells.
// The field is read only; many agents and worlds may share it.
#include "behavior.h"
#include "../nav/nav.h"

typedef struct FollowFlow {
    const steerN_Flow *field; // set by steerB_follow_flow_bind
    float speed, slow_radius, stop_radius, clearance;
} FollowFlow;
STEERB_CHECK_SIZE(FollowFlow);

enum { FF_ARRIVED, FF_MEM };

void steerB_follow_flow_bind(steer_Behavior *b, const steerN_Flow *f)
{
    FollowFlow *p = (FollowFlow *)(void *)b->params;
    p->field = f;
}

// Keep out of the blocked cells around the agent's cell (see above).
static void keep_clear(const steerN_Grid *g, const double p[2], float margin, float push, double desired[2])
{
    int cx, cy;
    if (!steerN_cell_of(g, p, &cx, &cy)) return;
    for (int k = 0; k < 8; k++) {
        int x = cx + steerN_dx[k], y = cy + steerN_dy[k];
        if (steerN_open(g, x, y)) continue;
        double lo[2] = { g->origin[0] + x * g->cell, g->origin[1] + y * g->cell }, n[2];
        for (int i = 0; i < 2; i++) {
            double c = p[i] < lo[i] ? lo[i] : p[i] > lo[i] + g->cell ? lo[i] + g->cell : p[i];
            n[i] = p[i] - c;
        }
        double d = sqrt(n[0] * n[0] + n[1] * n[1]);
        if (!(d < margin) || d == 0) continue;
        n[0] /= d;
        n[1] /= d;
        double into = desired[0] * n[0] + desired[1] * n[1];
        double away = push * (1.0 - d / margin) - (into < 0 ? into : 0);
        desired[0] += n[0] * away;
        desired[1] += n[1] * away;
    }
}

static void follow_flow_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const FollowFlow *p = STEERB_PARAMS_OF(n, FollowFlow);
    float *m = c->mem + n->mem;
    float zero[3] = { 0, 0, 0 };
    v3_zero(out);
    if (!p->field) return;
    const steerN_Grid *g = p->field->grid;
    double pos[2] = { c->p[0], c->p[1] }, dir[2], left, goal[2];
    bool at_goal = steerN_flow_sample(p->field, pos, dir, &left, goal) == 1;
    if (dir[0] == 0 && dir[1] == 0 && !at_goal) return; // no way to a goal from here
    float cruise = p->speed > 0.0f && p->speed < c->max_speed ? p->speed : c->max_speed;
    // braking distance: given, or the shortest the force law follows
    // without overshooting (as follow_path's: 4 cruise / K)
    float slow = p->slow_radius;
    if (!(slow > 0.0f))
        slow = c->max_force > 0.0f ? 4.0f * cruise * c->max_speed * c->mass / c->max_force : 1e30f;
    if (!(slow > 0.0f)) slow = 1e-3f;
    if (at_goal && left <= p->stop_radius) {
        if (m[FF_ARRIVED] == 0.0f) steerW_event(c->w, STEER_EVENT_ARRIVE, c->d, 0);
        m[FF_ARRIVED] = 1.0f;
        steerB_track(c, zero, out);
        return;
    }
    if (left > slow) m[FF_ARRIVED] = 0.0f;
    double s = left < slow ? cruise * left / slow : cruise;
    double desired[2] = { dir[0] * s, dir[1] * s };
    float stopping = c->max_force > 0.0f ? 0.5f * c->max_speed * c->max_speed * c->mass / c->max_force : 0.0f;
    float margin = p->clearance > 0.0f ? p->clearance : c->radius + stopping;
    if (margin > (float)g->cell) margin = (float)g->cell;
    keep_clear(g, pos, margin, cruise, desired);
    float d3[3] = { (float)desired[0], (float)desired[1], 0.0f };
    steerB_track(c, d3, out);
}

static const steerB_Field follow_flow_fields[] = {
    { "speed", STEERB_NUMBER, offsetof(FollowFlow, speed), 0, 0, 1e30f, false, "a number >= 0 (0 = the agent's max_speed)", NULL },
    { "slow_radius", STEERB_NUMBER, offsetof(FollowFlow, slow_radius), 0, 0, 1e30f, false, "a number >= 0 (metres; 0 = automatic)", NULL },
    { "stop_radius", STEERB_NUMBER, offsetof(FollowFlow, stop_radius), 0.2f, 0, 1e30f, false, "a number >= 0 (metres)", NULL },
    { "clearance", STEERB_NUMBER, offsetof(FollowFlow, clearance), 0, 0, 1e30f, false, "a number >= 0 (metres; 0 = the agent's radius plus its stopping distance)", NULL },
    { 0 }
};

const steerB_Kind steerB_follow_flow = { .name = "follow_flow", .fields = follow_flow_fields,
                                         .eval = follow_flow_eval, .mem_floats = FF_MEM };
