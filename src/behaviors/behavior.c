// SPDX-License-Identifier: MIT
// behavior.c — the helpers every behaviour shares while it evaluates
// (targets, frames). Building trees is the core's (src/core/tree.c), and so
// is flattening a tree into a brain (src/core/brain.c).
#include "behavior.h"
#include "goal.h"
#include "../core/rng.h"
#include "fields.h"

#include <stdio.h>

// ---- evaluation helpers ------------------------------------------------

// The target of a behaviour whose target is the agent's own slot, while a
// pipeline runs it: the goal's first route point, or false when the goal
// has no position.
static bool goal_target(const steerB_Ctx *c, float off[3], float vel[3])
{
    const steerB_Goal *g = c->goal;
    if (!(g->has & STEERB_GOAL_POSITION)) return false;
    if (g->nvia) {
        v3_sub(off, g->via[0], c->p);
        v3_zero(vel); // a via point stands still
    } else {
        v3_sub(off, g->p, c->p);
        v3_copy(vel, g->pv);
    }
    return true;
}

bool steerB_target(steerB_Ctx *c, const steerB_Target *t, float off[3], float vel[3])
{
    const steer_World *w = c->w;
    uint8_t kind = t->kind;
    const float *point = t->p;
    steer_Agent agent = t->agent;
    float slot[3];
    if (kind == STEER_TARGET_SLOT && c->goal) return goal_target(c, off, vel); // inside a pipeline
    if (kind == STEER_TARGET_SLOT) {
        uint8_t fl = w->flags[c->d];
        if (fl & STEER_AF_TARGET_POINT) {
            steerW_target_point(w, c->d, slot);
            point = slot;
            kind = STEER_TARGET_POINT;
        } else if (fl & STEER_AF_TARGET_AGENT) {
            agent = steerW_target_agent(w, c->d);
            kind = STEER_TARGET_AGENT;
        } else {
            return false;
        }
    }
    if (kind == STEER_TARGET_POINT) {
        float p[3] = { point[0], point[1], w->dim == 3 ? point[2] : 0.0f };
        steerT_delta(w, c->p, p, off);
        v3_zero(vel);
        return true;
    }
    int64_t d = steerW_dense(w, agent);
    if (d < 0 && t->kind == STEER_TARGET_SLOT) {
        // the agent's own target was removed: say so once (the worker's
        // events) and clear the slot, a point at zero (the slot and the flag
        // are this agent's own rows, so the pass may write them)
        steerT_event_to(c->loc, w, STEER_EVENT_LOST_TARGET, c->d, agent);
        w->flags[c->d] &= (uint8_t)~STEER_AF_TARGET_AGENT;
        for (int i = 0; i < w->dim; i++) w->tq[i][c->d] = 0; // 0.0f's bits
        return false;
    }
    if (d < 0 || (uint32_t)d == c->d) return false;
    float p[3];
    steerW_load(w->p, (uint32_t)d, p);
    steerT_delta(w, c->p, p, off);
    steerW_load(w->v, (uint32_t)d, vel);
    return true;
}

void steerB_frame(const steerB_Ctx *c, float side[3], float up[3]) { v3_frame(side, up, c->w->dim, c->h); }

// Here, not in blend.c, since reciprocal (a behaviour) wraps its children
// with it too and behaviours call nothing of the combiners.
void steerB_blend_sum(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const steerB_Brain *b = c->brain;
    float sum[3] = { 0, 0, 0 }; // a local: out may alias the record, which would keep the sum in memory
    for (uint16_t k = 0; k < n->nchild; k++) {
        uint32_t i = b->kids[n->first + k];
        float f[3];
        steerB_eval(c, i, f);
        v3_madd(sum, f, b->nodes[i].weight);
    }
    v3_truncate(sum, c->max_force);
    v3_copy(out, sum);
}

int steerB_check_radii(float slow_radius, float stop_radius, char *msg, size_t len)
{
    if (stop_radius < slow_radius) return 1;
    snprintf(msg, len, "stop_radius (%g) must be smaller than slow_radius (%g)", (double)stop_radius,
             (double)slow_radius);
    return 0;
}
