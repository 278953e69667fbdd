// SPDX-License-Identifier: MIT
// constraint.c — the constraints of steer.pipeline: they check the route
// of the pipeline's goal against the world's static geometry and bend it
// around the first shape it comes too close to (see pipeline.h).
//
//   avoid_obstacle_constraint  circles (spheres in 3D)
//   wall_constraint            wall segments and boxes; planes (3D)
//
// The route is a polyline: the agent, the via points, the goal position.
// A leg violates a shape when the agent's centre, moving along it, comes
// nearer to the shape than the clearance (the agent's radius + margin);
// a plane is violated only when the leg crosses it, since agents move
// along planes (floors, bounds), not around them. The clearance is
// relaxed to 3/4 of the distance where the agent already is, or where the
// goal lies, nearer than it (so an agent brushing a wall, or a goal next
// to one, is not a violation in itself): only moving closer still is.
//
// A violation on a leg A -> B (the first shape the leg crosses, else the
// first it comes too near) is fixed by one via point E, inserted between A
// and B, that takes the route around a disc: the circle grown by 1.4
// clearances, or a disc of 1.4 clearances round a wall end or box corner
// (the slack keeps a lagging agent out of the clearance). E is where the
// tangents from A and from B to the disc meet (in the plane of A, B and
// the disc's centre), so both new legs clear the disc; for arcs wider than
// 120 degrees E covers the first 120 and the next pass adds another point.
// Candidates are each disc, both ways round; E must lie outside the shape
// and A -> E must clear it. The best: E -> B clears the shape too (the
// detour got round it), then the fewest new legs meeting any shape, then
// the shortest A -> E -> B. No candidate, a full route, a crossed plane or
// a goal inside a shape: the route is blocked.
//
// The constraints are local, as in Millington's pipeline: they bend the
// straight route round what is in its way, one via point per pass, and do
// not search. A maze or a deep cul-de-sac is a decomposer's job (a path).
//
// Distances are exact for circles, segments and planes; for boxes the
// distance along a leg (a convex function of the leg parameter) is
// minimised by golden-section search. No allocation: shape queries go
// through the world's reusable buffer (steerO_shapes_near).
#include "../behaviors/behavior.h"
#include "../behaviors/goal.h"

#include <float.h>

typedef struct Constraint {
    float margin;
} Constraint;
STEERB_CHECK_SIZE(Constraint);

enum { OBSTACLES = 1, WALLS = 2 };

// Via points keep this many clearances from the corner they round: the
// agent lags behind its route and cuts toward corners; with less slack it
// ends up inside the clearance, where every straight leg onward is a
// violation and the route flips between ticks (measured: 1.05 left agents
// dithering at corners that 1.4 passes cleanly).
#define ROUND 1.4f

static bool handles(unsigned what, uint8_t kind)
{
    if (kind == STEER_SHAPE_CIRCLE) return what & OBSTACLES;
    return what & WALLS;
}

// Squared distance from p to segment ab, and the parameter of the closest point.
static float point_segment2(const float p[3], const float a[3], const float b[3], float *t_out)
{
    float ab[3], ap[3];
    v3_sub(ab, b, a);
    v3_sub(ap, p, a);
    float l2 = v3_len2(ab), t = l2 > 0.0f ? v3_dot(ap, ab) / l2 : 0.0f;
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    float q[3];
    v3_copy(q, a);
    v3_madd(q, ab, t);
    v3_sub(q, p, q);
    if (t_out) *t_out = t;
    return v3_len2(q);
}

static float cross2(const float a[3], const float b[3]) { return a[0] * b[1] - a[1] * b[0]; }

// Distance between segments pq (the leg) and ab (a wall) in the plane, and
// the leg parameter of the closest approach.
static float segment_segment(const float p[3], const float q[3], const float a[3], const float b[3], float *t_out)
{
    float r[3], s[3], ap[3];
    v3_sub(r, q, p);
    v3_sub(s, b, a);
    v3_sub(ap, a, p);
    float den = cross2(r, s);
    if (den != 0.0f) {
        float t = cross2(ap, s) / den, u = cross2(ap, r) / den;
        if (t >= 0.0f && t <= 1.0f && u >= 0.0f && u <= 1.0f) {
            *t_out = t;
            return 0.0f;
        }
    }
    // no crossing: the closest pair has an endpoint of one segment
    float best = FLT_MAX, t, d2;
    d2 = point_segment2(p, a, b, NULL);
    if (d2 < best) {
        best = d2;
        *t_out = 0.0f;
    }
    d2 = point_segment2(q, a, b, NULL);
    if (d2 < best) {
        best = d2;
        *t_out = 1.0f;
    }
    d2 = point_segment2(a, p, q, &t);
    if (d2 < best) {
        best = d2;
        *t_out = t;
    }
    d2 = point_segment2(b, p, q, &t);
    if (d2 < best) {
        best = d2;
        *t_out = t;
    }
    return sqrtf(best);
}

// Signed distance from p to a shape (negative inside).
static float shape_distance(const steer_World *w, const steerW_Shape *s, const float p[3])
{
    if (s->kind == STEER_SHAPE_CIRCLE) {
        float d[3];
        v3_sub(d, p, s->a);
        return v3_len(d) - s->r;
    }
    if (s->kind == STEER_SHAPE_SEGMENT && w->dim == 2) return sqrtf(point_segment2(p, s->a, s->b, NULL));
    return steerO_signed_distance(w, s, p);
}

// The smallest signed distance from the leg a -> b to a shape, and where.
static float leg_distance(const steer_World *w, const steerW_Shape *s, const float a[3], const float b[3], float *t_out)
{
    switch (s->kind) {
    case STEER_SHAPE_CIRCLE: return sqrtf(point_segment2(s->a, a, b, t_out)) - s->r;
    case STEER_SHAPE_SEGMENT:
        if (w->dim == 2) return segment_segment(a, b, s->a, s->b, t_out);
        break; // a 3D world's panel: convex, as a box
    case STEER_SHAPE_PLANE: {
        float da = shape_distance(w, s, a), db = shape_distance(w, s, b);
        *t_out = da <= db ? 0.0f : 1.0f;
        return da <= db ? da : db;
    }
    default: break;
    }
    { // box: golden-section search of a convex function
        const float g = 0.618034f;
        float lo = 0.0f, hi = 1.0f, ab[3], x[3];
        v3_sub(ab, b, a);
        float m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo), f1, f2;
        v3_copy(x, a);
        v3_madd(x, ab, m1);
        f1 = shape_distance(w, s, x);
        v3_copy(x, a);
        v3_madd(x, ab, m2);
        f2 = shape_distance(w, s, x);
        for (int i = 0; i < 40; i++) {
            if (f1 <= f2) {
                hi = m2;
                m2 = m1;
                f2 = f1;
                m1 = hi - g * (hi - lo);
                v3_copy(x, a);
                v3_madd(x, ab, m1);
                f1 = shape_distance(w, s, x);
            } else {
                lo = m1;
                m1 = m2;
                f1 = f2;
                m2 = lo + g * (hi - lo);
                v3_copy(x, a);
                v3_madd(x, ab, m2);
                f2 = shape_distance(w, s, x);
            }
        }
        float best = f1 <= f2 ? f1 : f2, tb = f1 <= f2 ? m1 : m2;
        float fa = shape_distance(w, s, a), fb = shape_distance(w, s, b);
        if (fa <= best) {
            best = fa;
            tb = 0.0f;
        }
        if (fb < best) {
            best = fb;
            tb = 1.0f;
        }
        *t_out = tb;
        return best;
    }
}

// The clearance a leg must keep from a shape, relaxed where the leg starts
// at the agent or ends at the goal already nearer than that.
static float relax(float clear, float at)
{
    float r = at >= 0.0f ? 0.75f * at : 1.25f * at;
    return r < clear ? r : clear;
}

typedef struct Leg {
    const float *a, *b;
    bool from_agent, to_goal;
} Leg;

static bool violates(const steer_World *w, const steerW_Shape *s, const Leg *leg, float clear, float *t, float *dist)
{
    float th = s->kind == STEER_SHAPE_PLANE ? 0.0f : clear;
    if (leg->from_agent) th = relax(th, shape_distance(w, s, leg->a));
    if (leg->to_goal) th = relax(th, shape_distance(w, s, leg->b));
    *dist = leg_distance(w, s, leg->a, leg->b, t);
    return *dist < th;
}

// The via point E that takes a -> b round the disc (q, rho) one way
// (sigma = +1 or -1 in the plane of a, b and q); its route length in *len.
static void round_disc(const steer_World *w, const float a[3], const float b[3], const float q[3], float rho,
                       float sigma, float e[3], float *len)
{
    float qa[3], qb[3], e1[3], e2[3];
    v3_sub(qa, a, q);
    v3_sub(qb, b, q);
    v3_copy(e1, qa);
    float la = v3_normalize(e1);
    if (la == 0.0f) {
        v3_copy(e1, qb);
        if (v3_normalize(e1) == 0.0f) v3_set(e1, 1.0f, 0.0f, 0.0f);
    }
    // e2: the part of qb across e1 (any perpendicular when they line up)
    v3_copy(e2, qb);
    v3_madd(e2, e1, -v3_dot(qb, e1));
    if (v3_normalize(e2) == 0.0f) v3_side(e2, w->dim, e1);
    float lb = v3_len(qb);
    float theta_b = steerM_atan2f(v3_dot(qb, e2), v3_dot(qb, e1)); // in [0, pi]
    float alpha_a = la > rho ? steerM_acosf(rho / la) : 0.0f, alpha_b = lb > rho ? steerM_acosf(rho / lb) : 0.0f;
    const float two_pi = 6.2831853f, third = 2.0943951f; // 2 pi, 2 pi / 3
    float sweep = (sigma > 0.0f ? theta_b : two_pi - theta_b) - alpha_a - alpha_b;
    if (sweep < 0.0f) sweep = 0.0f;
    float half = sweep <= third ? 0.5f * sweep : 0.5f * third;
    float angle = sigma * (alpha_a + half), dist = rho / steerM_cosf(half);
    v3_copy(e, q);
    v3_madd(e, e1, dist * steerM_cosf(angle));
    v3_madd(e, e2, dist * steerM_sinf(angle));
    if (w->dim == 2) e[2] = 0.0f;
    float d1[3], d2[3];
    v3_sub(d1, e, a);
    v3_sub(d2, b, e);
    *len = v3_len(d1) + v3_len(d2);
}

// The first shape (of the kinds `what`) the leg violates: the first it
// crosses, else the first it comes too close to (by where along the leg
// the closest approach is); -1 when the leg is clear, -2 when the leg ends
// at the goal and the goal lies inside a shape.
static int first_violation(const steer_World *w, steerW_Local *loc, unsigned what, const Leg *leg, float clear)
{
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        float x = leg->a[i] < leg->b[i] ? leg->a[i] : leg->b[i], y = leg->a[i] < leg->b[i] ? leg->b[i] : leg->a[i];
        lo[i] = x - clear;
        hi[i] = y + clear;
    }
    int found = steerO_shapes_near(w, loc, lo, hi);
    int first = -1;
    float first_t = FLT_MAX, first_d = FLT_MAX;
    for (int k = 0; k < found; k++) {
        const steerW_Shape *s = &w->geo.shapes[loc->found[k]];
        if (!handles(what, s->kind)) continue;
        if (leg->to_goal && shape_distance(w, s, leg->b) < 0.0f) return -2;
        float t, d;
        if (!violates(w, s, leg, clear, &t, &d)) continue;
        // a wall crossed is worse than one passed too closely: crossings first
        bool before = (d <= 0.0f) != (first_d <= 0.0f) ? d <= 0.0f : t < first_t || (t == first_t && d < first_d);
        if (before) {
            first = (int)loc->found[k];
            first_t = t;
            first_d = d;
        }
    }
    return first;
}

// The best via point round shape s for the leg, or false when none works.
// A candidate must lie outside s and its first leg must clear s; among
// those, one whose second leg clears s too (it got round), then the
// fewest new legs that still meet some shape (so a detour does not turn
// back round a corner it has just come round), then the shortest.
static bool detour(const steer_World *w, steerW_Local *loc, unsigned what, const steerW_Shape *s, const Leg *leg,
                   float clear, float e_out[3])
{
    float centres[8][3], rho = ROUND * clear + 1e-3f;
    int nc = 0;
    switch (s->kind) {
    case STEER_SHAPE_CIRCLE:
        v3_copy(centres[nc++], s->a);
        rho += s->r;
        break;
    case STEER_SHAPE_SEGMENT:
        v3_copy(centres[nc++], s->a);
        v3_copy(centres[nc++], s->b);
        break;
    case STEER_SHAPE_BOX:
        for (int k = 0; k < (w->dim == 3 ? 8 : 4); k++) {
            for (int i = 0; i < 3; i++) centres[nc][i] = (k >> i) & 1 ? s->b[i] : s->a[i];
            if (w->dim == 2) centres[nc][2] = 0.0f;
            nc++;
        }
        break;
    default: // a plane has no way round
        return false;
    }
    float best = FLT_MAX;
    int best_bad = 6;
    for (int k = 0; k < nc; k++) {
        for (float sigma = 1.0f; sigma > -2.0f; sigma -= 2.0f) {
            float e[3], len, t, d;
            round_disc(w, leg->a, leg->b, centres[k], rho, sigma, e, &len);
            if (shape_distance(w, s, e) < clear) continue;
            Leg first = { leg->a, e, leg->from_agent, false }, second = { e, leg->b, false, leg->to_goal };
            if (violates(w, s, &first, clear, &t, &d)) continue;
            // rank: second leg still meets s (bad: the detour did not get round),
            // then legs meeting anything, then length
            int bad = 3 * violates(w, s, &second, clear, &t, &d) +
                      (first_violation(w, loc, what, &first, clear) != -1) +
                      (first_violation(w, loc, what, &second, clear) != -1);
            if (bad > best_bad || (bad == best_bad && !(len < best))) continue;
            best = len;
            best_bad = bad;
            v3_copy(e_out, e);
        }
    }
    return best < FLT_MAX;
}

static void constrain(steerB_Ctx *c, const steerB_Node *n, unsigned what, float out[3])
{
    v3_zero(out);
    steerB_Goal *g = c->goal;
    if (!g || !(g->has & STEERB_GOAL_POSITION)) return;
    const steer_World *w = c->w;
    float clear = c->radius + STEERB_PARAMS_OF(n, Constraint)->margin;
    int npts = g->nvia + 2;
    for (int j = 0; j + 1 < npts; j++) {
        Leg leg = { j == 0 ? c->p : g->via[j - 1], j + 1 == npts - 1 ? g->p : g->via[j], j == 0, j + 1 == npts - 1 };
        int first = first_violation(w, c->loc, what, &leg, clear);
        if (first == -1) continue;
        float e[3] = { 0, 0, 0 };
        if (first == -2 || g->nvia >= STEERB_MAX_VIA ||
            !detour(w, c->loc, what, &w->geo.shapes[first], &leg, clear, e)) {
            g->status |= STEERB_ROUTE_BLOCKED;
            return;
        }
        memmove(g->via[j + 1], g->via[j], sizeof g->via[0] * (size_t)(g->nvia - j));
        v3_copy(g->via[j], e);
        g->nvia++;
        g->status |= STEERB_ROUTE_CHANGED;
        return;
    }
}

static void avoid_obstacle_eval(steerB_Ctx *c, const steerB_Node *n, float out[3]) { constrain(c, n, OBSTACLES, out); }
static void wall_eval(steerB_Ctx *c, const steerB_Node *n, float out[3]) { constrain(c, n, WALLS, out); }

static const steerB_Field constraint_fields[] = { { "margin", STEERB_NUMBER, offsetof(Constraint, margin), 0.5f, 0,
                                                    1e30, "a number (metres of clearance beyond the agent's radius)",
                                                    NULL },
                                                  { 0 } };

const steerB_Kind steerB_avoid_obstacle_constraint = { .name = "avoid_obstacle_constraint",
                                                       .fields = constraint_fields,
                                                       .eval = avoid_obstacle_eval };
const steerB_Kind steerB_wall_constraint = { .name = "wall_constraint",
                                             .fields = constraint_fields,
                                             .eval = wall_eval };
