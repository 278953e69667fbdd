// SPDX-License-Identifier: MIT
// follow_flow.c — the flow field family (src/nav/flow.c): follow_flow
// steers along a field; decompose_flow is a steer.pipeline decomposer that
// turns a goal out of sight into the furthest point along the field the
// agent can see.
//
// The desired direction is the field's, interpolated between the cell
// centres around the agent (steerN_flow_sample), so an agent turns
// smoothly instead of in 45-degree jerks at cell borders. The desired
// speed brakes linearly over the distance left along the field, and in a
// goal cell the agent arrives at the goal point itself (one "arrive" event
// within stop_radius) instead of circling the cell centre.
//
// Interpolation cuts corners and momentum carries an agent on, so the
// desired speed also brakes for blocked cells ahead (along the field and
// along the agent's velocity), and toward each blocked cell around it the
// desired velocity may approach only as fast as the velocity tracking can
// stop (see keep_clear): agents slide along walls, slow into tight turns
// and keep out of blocked cells (their centres; `clearance` keeps more).
// The field is read only; many agents and worlds may share it. Each
// behaviour of the family holds a reference to its field, so the field
// outlives the script that made it for as long as a brain steers on it.
#include "behavior.h"
#include "fields.h"
#include "goal.h"
#include "laws.h"
#include "../nav/nav.h"
#include "../nav/mesh.h"
#include "steer_nav.h"

#include <string.h>

typedef struct FollowFlow {
    steerN_Flow *field; // first in every kind of the family (the snapshot's Lua side reads it there)
    float speed, slow_radius, stop_radius, clearance;
} FollowFlow;
STEERB_CHECK_SIZE(FollowFlow);

enum { FF_ARRIVED, FF_MEM };

// The family's field is a resource (brain.h): the node holds a reference
// to it. The behaviour only reads its field: the reference it takes is the
// one thing it changes (hence the casts).
static void flow_retain(void *f) { steerN_flow_retain(f); }
static void flow_release(void *f) { steerN_flow_release(f); }
// No encode or decode: a flow field belongs to its grid, which the host
// (the Lua binding) saves; snapshots ask the host for it by number.
const steerB_ResourceKind steerB_flow_resource = {
    .name = "flow field", .type = "steer.FlowField", .retain = flow_retain, .release = flow_release
};

#define FLOW_FIELD_ROW(T)                                                                                 \
    {                                                                                                     \
        "field", STEERB_RESOURCE, offsetof(T, field), 0, 1, 0, "a flow field (g:flow_field{goal = pos})", \
            STEERB_RESOURCE_KIND(&steerB_flow_resource)                                                   \
    }

void steerB_flow_bind(steer_Behavior *b, const steerN_Flow *field)
{
    steerB_set_resource(b, "field", &steerB_flow_resource, (void *)(uintptr_t)field);
}

int steer_behavior_set_flow_field(steer_Behavior *b, const char *field, const steer_FlowField *f)
{
    STEERA_TREE(b, STEER_EARG);
    STEERA_NONNULL(field, "a field name", STEER_EARG);
    steerN_Flow *x = NULL;
    if (f && !(x = steerN_flow_of(f, __func__))) return STEER_EARG;
    return steerB_set_resource(b, field, &steerB_flow_resource, x);
}

// Keep out of the blocked cells around the agent's cell: toward each one
// the desired velocity may close the gap (distance minus `keep`) at most
// `gain` times the gap, the approach law that the velocity tracking
// follows without overshoot. A diagonal cell counts only as a corner that
// sticks out (both cells beside it open); otherwise the walls beside the
// agent already hold it.
static void keep_clear(const steerN_Grid *g, const double p[2], double keep, double gain, double desired[2])
{
    int cx, cy;
    if (!steerN_cell_of(g, p, &cx, &cy)) return;
    for (int k = 0; k < 8; k++) {
        int x = cx + steerN_dx[k], y = cy + steerN_dy[k];
        if (steerN_open(g, x, y)) continue;
        if (k >= 4 && (!steerN_open(g, x, cy) || !steerN_open(g, cx, y))) continue;
        double lo[2] = { g->origin[0] + x * g->cell, g->origin[1] + y * g->cell }, n[2];
        for (int i = 0; i < 2; i++) {
            double c = p[i] < lo[i] ? lo[i] : p[i] > lo[i] + g->cell ? lo[i] + g->cell : p[i];
            n[i] = p[i] - c;
        }
        double d = sqrt(n[0] * n[0] + n[1] * n[1]);
        if (d > 0) {
            n[0] /= d;
            n[1] /= d;
        } else { // on the cell's edge: straight away from it
            double s = k < 4 ? 1.0 : 0.7071067811865476;
            n[0] = -steerN_dx[k] * s;
            n[1] = -steerN_dy[k] * s;
        }
        double least = -gain * (d - keep); // the slowest allowed way away (negative: approach)
        double along = desired[0] * n[0] + desired[1] * n[1];
        if (along >= least) continue;
        desired[0] += n[0] * (least - along);
        desired[1] += n[1] * (least - along);
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
    float cruise = steerB_cruise(p->speed, c->max_speed);
    // braking distance: given, or the shortest the force law follows
    // without overshooting (as follow_path's: 4 cruise / K)
    float slow = p->slow_radius;
    if (!(slow > 0.0f)) slow = c->max_force > 0.0f ? 4.0f * cruise * c->max_speed * c->mass / c->max_force : 1e30f;
    if (!(slow > 0.0f)) slow = 1e-3f;
    if (at_goal && left <= p->stop_radius) {
        if (m[FF_ARRIVED] == 0.0f) steerT_event_to(c->loc, c->w, STEER_EVENT_ARRIVE, c->d, STEER_NO_AGENT);
        m[FF_ARRIVED] = 1.0f;
        steerB_track(c, zero, out);
        return;
    }
    if (left > slow) m[FF_ARRIVED] = 0.0f;
    double s = left < slow ? cruise * left / slow : cruise;
    // Slow down for blocked cells ahead, along the way the field points
    // and along the way the agent moves (its momentum), so it can turn or
    // stop in time: the desired speed brakes linearly to zero at the wall,
    // with the gain that follows without overshoot (K / 4, as for `slow`).
    float gain = cruise / slow;
    double reach = (double)slow + c->radius + g->cell;
    double ahead = steerN_ray(g, pos, dir, reach);
    float vlen = sqrtf(c->v[0] * c->v[0] + c->v[1] * c->v[1]);
    if (vlen > 1e-3f) {
        double vd[2] = { c->v[0] / vlen, c->v[1] / vlen };
        double moving = steerN_ray(g, pos, vd, reach);
        if (moving < ahead) ahead = moving;
    }
    // (never below a tenth of cruise: slow enough to stop at once, and an
    // agent pressed into a corner still creeps on)
    double room = ahead - c->radius - p->clearance, cap = 0.1 * cruise;
    if (room * gain > cap) cap = room * gain;
    if (ahead < reach && cap < s) s = cap;
    double desired[2] = { dir[0] * s, dir[1] * s };
    keep_clear(g, pos, (double)c->radius + p->clearance, gain, desired);
    float d3[3] = { (float)desired[0], (float)desired[1], 0.0f };
    steerB_track(c, d3, out);
}

static const steerB_Field follow_flow_fields[] = {
    FLOW_FIELD_ROW(FollowFlow),
    STEERB_SPEED_ROW(FollowFlow),
    STEERB_AUTO_SLOW_RADIUS_ROW(FollowFlow),
    STEERB_STOP_RADIUS_ROW(FollowFlow, 0.2f),
    { "clearance", STEERB_NUMBER, offsetof(FollowFlow, clearance), 0, 0, 1e30,
      "a number (metres kept from blocked cells beyond the agent's radius)", NULL },
    { 0 }
};

const steerB_Kind steerB_follow_flow = {
    .name = "follow_flow",
    .fields = follow_flow_fields,
    .eval = follow_flow_eval,
    .mem_floats = FF_MEM,
};

// ---- decompose_flow ------------------------------------------------------------

typedef struct DecomposeFlow {
    steerN_Flow *field;
    float lookahead; // cells walked along the field
} DecomposeFlow;
STEERB_CHECK_SIZE(DecomposeFlow);

// A goal in sight (on the grid) stays; else the sub-goal is the centre of
// the furthest cell, walking the field from the agent's cell, that the
// agent still sees: a string-pulled stretch of the field's way, which is
// the grid's shortest way to the field's goal. The field's goal should be
// the pipeline's (e.g. both the player).
static void decompose_flow_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    v3_zero(out);
    const DecomposeFlow *p = STEERB_PARAMS_OF(n, DecomposeFlow);
    steerB_Goal *goal = c->goal;
    if (!goal || !(goal->has & STEERB_GOAL_POSITION) || !p->field) return;
    const steerN_Flow *f = p->field;
    const steerN_Grid *g = f->grid;
    double a[2] = { c->p[0], c->p[1] }, b[2] = { goal->p[0], goal->p[1] };
    int x, y;
    if (!steerN_cell_of(g, a, &x, &y) || steerN_line_of_sight(g, a, b, INFINITY)) return;
    double best[2] = { 0, 0 };
    bool found = false;
    for (int i = 0; i < (int)p->lookahead; i++) {
        uint8_t k = f->dir[(size_t)y * (size_t)g->nx + (size_t)x];
        if (k == STEERN_NONE) break;
        x += steerN_dx[k];
        y += steerN_dy[k];
        double at[2];
        steerN_center(g, x, y, at);
        if (found && !steerN_line_of_sight(g, a, at, INFINITY)) break;
        best[0] = at[0];
        best[1] = at[1];
        found = true; // the first step is taken even unseen (from a blocked cell)
    }
    if (!found) return;
    goal->p[0] = (float)best[0];
    goal->p[1] = (float)best[1];
    v3_zero(goal->pv);
}

static const steerB_Field decompose_flow_fields[] = { FLOW_FIELD_ROW(DecomposeFlow),
                                                      { "lookahead", STEERB_NUMBER, offsetof(DecomposeFlow, lookahead),
                                                        8, 1, 1024, "a number of cells", NULL },
                                                      { 0 } };

const steerB_Kind steerB_decompose_flow = { .name = "decompose_flow",
                                            .fields = decompose_flow_fields,
                                            .eval = decompose_flow_eval };
