// SPDX-License-Identifier: MIT
// hide.c — hide from a pursuer behind the nearest obstacle (Reynolds;
// Buckland's hiding spot).
//
// For every circle (sphere) and box within `radius` of the agent, the
// hiding spot lies on the line from the pursuer through the obstacle's
// centre, on the far side, `margin` metres clear of the obstacle's
// surface (plus the agent's radius): from the pursuer, the obstacle
// stands between them. The agent arrives at the nearest spot with the
// engine's tracking law, braking over `slow_radius`. If the straight way
// to a circle's spot runs through the circle, the agent goes round it
// instead. With no obstacle within `radius`, the agent evades the
// pursuer (flees its position predicted up to `max_prediction` seconds).
//
// Memory: the obstacle chosen (index + 1, generation) so that two spots at
// nearly the same distance do not make the agent dither between them: a
// new spot must be nearer by a fifth to win; and the side it goes round a
// circle on, kept while it goes round.
#include "behavior.h"
#include "fields.h"
#include "laws.h"

#include <float.h>

typedef struct Hide {
    steerB_Target target; // the pursuer
    float radius;         // search radius for obstacles, metres
    float margin;         // clearance behind the obstacle, metres
    float slow_radius;    // braking distance at the spot, metres
    float max_prediction; // evade: seconds of the pursuer's motion predicted
} Hide;
STEERB_CHECK_SIZE(Hide);

enum { H_SHAPE = 0, H_ROUND = 2, H_FLOATS = 5 };

static void box_centre(const steer_World *w, const steerW_Shape *s, float c[3])
{
    for (int i = 0; i < 3; i++) c[i] = i < w->dim ? 0.5f * (s->a[i] + s->b[i]) : 0.0f;
}

// The hiding spot behind shape s from the pursuer at q, for an agent of
// radius r: false for shapes one cannot hide behind (walls, planes).
static bool spot_behind(const steer_World *w, const steerW_Shape *s, const float q[3], float r, float margin,
                        float spot[3])
{
    float c[3], dir[3];
    if (s->kind == STEER_SHAPE_CIRCLE) v3_copy(c, s->a);
    else if (s->kind == STEER_SHAPE_BOX) box_centre(w, s, c);
    else return false;
    v3_sub(dir, c, q);
    if (v3_normalize(dir) == 0.0f) return false; // the pursuer is at its centre: nowhere behind
    float out = r + margin;
    if (s->kind == STEER_SHAPE_CIRCLE) {
        out += s->r;
        v3_copy(spot, c);
        v3_madd(spot, dir, out);
        return true;
    }
    // a box: where the line leaves it, found by a ray cast back from beyond it
    float far = 0.0f;
    for (int i = 0; i < w->dim; i++) far += s->b[i] - s->a[i];
    float o[3], back[3], t, n[3];
    v3_copy(o, c);
    v3_madd(o, dir, far);
    v3_scale(back, dir, -1.0f);
    if (!steerO_ray_shape(w, s, o, back, &t, n)) return false;
    v3_copy(spot, o);
    v3_madd(spot, back, t);
    v3_madd(spot, dir, out);
    return true;
}

static void hide_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Hide *p = STEERB_PARAMS_OF(n, Hide);
    float *m = c->mem + n->mem;
    const steer_World *w = c->w;
    float off[3], vel[3];
    v3_zero(out);
    if (!steerB_target(c, &p->target, off, vel)) return;
    float q[3];
    v3_add(q, c->p, off);
    // the nearest hiding spot among the obstacles within the search radius
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = c->p[i] - p->radius;
        hi[i] = c->p[i] + p->radius;
    }
    if (w->dim == 2) lo[2] = hi[2] = 0.0f;
    int k = steerO_shapes_near(w, c->loc, lo, hi);
    float best = FLT_MAX, spot[3] = { 0, 0, 0 };
    int64_t chosen = -1;
    float kept = -1.0f;
    for (int i = 0; i < k; i++) {
        uint32_t s = c->loc->found[i];
        const steerW_Shape *sh = &w->geo.shapes[s];
        float sp[3], to[3];
        if (steerO_signed_distance(w, sh, c->p) > p->radius) continue;
        if (!spot_behind(w, sh, q, c->radius, p->margin, sp)) continue;
        v3_sub(to, sp, c->p);
        float d2 = v3_len2(to);
        bool same = m[H_SHAPE] == (float)(s + 1u) && m[H_SHAPE + 1] == (float)(sh->gen & 0xFFFFFFu);
        if (same) kept = d2;
        if (d2 < best) {
            best = d2;
            chosen = s;
            v3_copy(spot, sp);
        }
    }
    // stay with the spot we were going to unless another is a fifth nearer
    if (kept >= 0.0f && chosen >= 0 && m[H_SHAPE] != (float)(chosen + 1) && best > 0.64f * kept) {
        uint32_t s = (uint32_t)m[H_SHAPE] - 1u;
        spot_behind(w, &w->geo.shapes[s], q, c->radius, p->margin, spot);
        chosen = s;
    }
    float desired[3];
    if (chosen < 0) {
        // nowhere to hide: evade
        m[H_SHAPE] = m[H_SHAPE + 1] = 0.0f;
        float dist = v3_len(off);
        float t = c->max_speed > 0.0f ? dist / c->max_speed : p->max_prediction;
        if (t > p->max_prediction) t = p->max_prediction;
        v3_madd(off, vel, t);
        float dir[3];
        v3_scale(dir, off, -1.0f);
        if (v3_normalize(dir) == 0.0f) v3_copy(dir, c->h);
        v3_scale(desired, dir, c->max_speed);
        steerB_track(c, desired, out);
        return;
    }
    const steerW_Shape *sh = &w->geo.shapes[chosen];
    if (m[H_SHAPE] != (float)(chosen + 1)) v3_zero(m + H_ROUND);
    m[H_SHAPE] = (float)(chosen + 1);
    m[H_SHAPE + 1] = (float)(sh->gen & 0xFFFFFFu);
    float to[3], dir[3];
    v3_sub(to, spot, c->p);
    float dist = v3_len(to);
    v3_copy(dir, to);
    bool round = false;
    if (sh->kind == STEER_SHAPE_CIRCLE && dist > 0.0f) {
        // does the straight way pass through the circle (grown by our radius)?
        float rc[3], u[3];
        v3_sub(rc, sh->a, c->p);
        float t = v3_dot(rc, to) / (dist * dist);
        t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
        float cl[3];
        v3_copy(cl, rc);
        v3_madd(cl, to, -t);
        float grown = sh->r + c->radius;
        v3_scale(u, rc, -1.0f);
        float du = v3_normalize(u);
        if (v3_len2(cl) < grown * grown && du > 0.0f) {
            // round it: tangentially toward the spot, holding the spot's distance
            float tan[3], *side = m + H_ROUND;
            if (v3_perp_to(tan, side, u) <= 1e-3f && v3_perp_to(tan, to, u) <= 1e-3f) {
                // the spot dead behind: any way round, from the agent's frame
                float up[3], fs[3];
                steerB_frame(c, fs, up);
                if (v3_perp_to(tan, fs, u) <= 1e-3f) v3_perp_to(tan, up, u);
            }
            v3_copy(side, tan);
            float orbit = sh->r + c->radius + p->margin;
            float e = (orbit - du) / (orbit > 0.0f ? orbit : 1.0f);
            e = e < -1.0f ? -1.0f : e > 1.0f ? 1.0f : e;
            v3_copy(dir, tan);
            v3_madd(dir, u, e);
            round = true;
        } else {
            v3_zero(m + H_ROUND);
        }
    }
    float speed = round ? c->max_speed : steerB_brake(c->max_speed, dist, p->slow_radius, STEERB_RATIO_FIRST);
    if (v3_normalize(dir) == 0.0f) speed = 0.0f;
    v3_scale(desired, dir, speed);
    steerB_track(c, desired, out);
    if (!v3_finite(out)) v3_zero(out);
}

static const steerB_Field hide_fields[] = {
    STEERB_TARGET_ROW(Hide, target, "target"),
    { "radius", STEERB_NUMBER, offsetof(Hide, radius), 20, 1e-6, 1e30, "a number of metres", NULL },
    { "margin", STEERB_NUMBER, offsetof(Hide, margin), 1, 0, 1e30, "a number of metres", NULL },
    STEERB_SLOW_RADIUS_ROW(Hide, 2),
    { "max_prediction", STEERB_NUMBER, offsetof(Hide, max_prediction), 1, 0, 1e30, "a number of seconds", NULL },
    { 0 }
};

const steerB_Kind steerB_hide = { .name = "hide", .fields = hide_fields, .eval = hide_eval, .mem_floats = H_FLOATS };
