// SPDX-License-Identifier: MIT
// contain.c — stay inside the world's bounds.
//
// Each bounded axis (size > 0; an axis of size 0 is unbounded) has a lower
// and an upper bound, brought in by the agent's radius so that its whole
// body stays inside. The agent's position now and predicted `lookahead`
// seconds ahead are both tested; when the nearer of them comes within
// `margin` of a bound, the agent is asked for an inward velocity on that
// axis of max_speed * (margin - distance) / margin (capped at max_speed),
// through the engine's tracking law: stronger the closer it gets, and
// nothing when it already moves inward that fast, so contain leaves a
// priority combiner free for other behaviours whenever it is content.
// A wrapped world has no bounds to keep: contain gives zero there.
// No per-agent memory.
#include "behavior.h"

typedef struct Contain {
    float margin;    // metres from a bound where the push starts
    float lookahead; // seconds of velocity used to predict the position
} Contain;
STEERB_CHECK_SIZE(Contain);

static void contain_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Contain *p = STEERB_PARAMS_OF(n, Contain);
    const steer_World *w = c->w;
    v3_zero(out);
    if (w->wrap || c->max_speed <= 0.0f) return;
    float k = c->max_force / c->max_speed;
    for (int i = 0; i < w->dim; i++) {
        float size = w->size[i];
        if (!(size > 0.0f)) continue;
        float lo = w->origin[i] + c->radius, hi = w->origin[i] + size - c->radius;
        if (hi < lo) lo = hi = w->origin[i] + 0.5f * size; // bigger than the world: hold the middle
        float q = c->p[i] + c->v[i] * p->lookahead;
        float low = c->p[i] < q ? c->p[i] : q, high = c->p[i] < q ? q : c->p[i];
        // how far into the margin (1 = at the bound; more beyond it)
        float in_lo = p->margin > 0.0f ? (lo + p->margin - low) / p->margin : (low < lo ? 1.0f : 0.0f);
        float in_hi = p->margin > 0.0f ? (high - (hi - p->margin)) / p->margin : (high > hi ? 1.0f : 0.0f);
        float push = 0.0f;
        if (in_lo > 0.0f) push += in_lo < 1.0f ? in_lo : 1.0f;
        if (in_hi > 0.0f) push -= in_hi < 1.0f ? in_hi : 1.0f;
        if (push == 0.0f) continue;
        float want = push * c->max_speed;
        // only ever speed the agent inward, never hold it back
        if (push > 0.0f && c->v[i] < want) out[i] = k * (want - c->v[i]);
        else if (push < 0.0f && c->v[i] > want) out[i] = k * (want - c->v[i]);
    }
    if (!v3_finite(out)) v3_zero(out);
}

static const steerB_Field contain_fields[] = {
    { "margin", STEERB_NUMBER, offsetof(Contain, margin), 2, 0, 1e30, "a number of metres", NULL },
    { "lookahead", STEERB_NUMBER, offsetof(Contain, lookahead), 0.5f, 0, 1e4, "a number of seconds", NULL },
    { 0 }
};

const steerB_Kind steerB_contain = { .name = "contain", .fields = contain_fields, .eval = contain_eval };
