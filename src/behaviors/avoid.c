// SPDX-License-Identifier: MIT
// avoid.c — the static-geometry avoidance family: avoid_obstacles
// (collision prediction by the time of closest approach) and avoid_walls
// (ray whiskers). Both read only the world's shapes, never other agents.
//
// avoid_obstacles. Every shape near the box the agent sweeps in
// `lookahead` seconds (steerO_shapes_near: never a scan of all shapes) is
// tested against the straight path p + v t, t in [0, lookahead], with the
// shape grown by the agent's radius plus `margin`. Circles and spheres use
// seed 002's closed form, t* = x.v / v.v (x = centre - p; the shape is
// static, so the relative velocity is -v); boxes, walls and planes use
// the same definition numerically: the signed distance to a convex shape
// is convex along a line, so a golden-section search finds t* and a
// bisection finds the time of contact. The threat is the shape with the
// earliest contact; the force is lateral, on the side the path already
// passes, sized to move the path clear by contact time (a = 2 need / t^2,
// with a factor 2 to spare), plus braking when even max_force cannot.
// Shapes whose grown outline already contains the agent push it out along
// their normal and cancel the velocity into them.
//
// Invariants of the per-agent memory (23 floats; all zeros is a valid
// start):
//  - the side is chosen once per threat and kept while that threat lasts
//    (until `lookahead` seconds pass without it): heading exactly at a
//    centre draws a side from the agent's own stream, never flips. The side
//    switches only when the path already passes clearly on the other side
//    (dips less than half the agent's grown radius into the threat).
//  - escalation: over every `stuck_window` in which the behaviour acted,
//    the progress along the intended direction (the velocity when the
//    episode began) is measured; too little makes the agent sidestep
//    (square to that direction, on the kept side), and too little again
//    makes it follow the nearest surface with one hand on it. A sidestep
//    ends when a probe along the intended direction is clear; a follow
//    ends when that probe is clear and the agent is past the point where
//    the sidestep began (as Bug2 leaves a wall), or after 20 windows, when
//    the next attempt goes round the other way.
//
// avoid_walls. `whiskers` rays fanned over `spread` radians around the
// heading (a ring around it in 3D), each `length` long, cast with
// steerO_ray_shapes; each hit pushes along its normal in proportion to the
// whisker's penetration (a whole whisker's depth asks for max_force). The
// corner trap: when the summed push points (nearly) straight back — a wall
// met head-on, or a concave corner where the side whiskers cancel — the
// agent picks a hand once (the way it already leans, else a draw from its
// stream) and escapes along the walls with the walls on that hand, curving
// toward them when it loses touch (round a wall's end). The escape ends
// when a ray twice the whisker length along the heading it had when
// trapped is clear, or after `hold` seconds without a touch. With
// `escape` off there is no trap: the whiskers only push. A formation's
// member wants that: its slot, not the wall, decides its way (and the
// formation finds it a way round, formation_route.c), and standing near
// its slot beside a wall at a large step, a tick's swing of its heading
// into the wall began an escape whose heading-when-trapped never cleared,
// sliding it along the wall and back (the line past a gate at 0.25 s:
// 22.8 s to re-form; without the escape, 1.2 s). Memory: 8 floats
// (escape direction, that heading, the timer, the hand).
#include "behavior.h"
#include "../core/rng.h"

#include <stdio.h>

// ---- shared helpers ------------------------------------------------------

static inline bool dim2(const steer_World *w) { return w->dim == 2; }

// A unit vector perpendicular to unit u, drawn from the agent's stream:
// one of the two sides in 2D, any direction around u in 3D.
static void random_side(steerB_Ctx *c, const float u[3], float out[3])
{
    if (c->w->dim == 2) {
        float s = steer_rng32_unit(c->rng) < 0.5f ? -1.0f : 1.0f;
        v3_set(out, -u[1] * s, u[0] * s, 0.0f);
        if (v3_normalize(out) == 0.0f) v3_set(out, 0.0f, s, 0.0f);
        return;
    }
    float side[3], up[3];
    if (v3_side3(side, u) == 0.0f) v3_set(side, 1.0f, 0.0f, 0.0f);
    v3_cross(up, u, side);
    float phi = steer_rng32_unit(c->rng) * 6.2831853f;
    v3_scale(out, side, steerM_cosf(phi));
    v3_madd(out, up, steerM_sinf(phi));
}

// Shape identity in float memory: index + 1 (exact below 2^24 shapes) and
// the low 24 bits of its generation, so a recycled slot is a new shape.
static float shape_tag(uint32_t s) { return (float)(s + 1u); }
static float shape_gen(const steer_World *w, uint32_t s) { return (float)(w->geo.shapes[s].gen & 0xFFFFFFu); }

// The remembered shape if it still exists, else -1.
static int64_t remembered(const steer_World *w, const float *tag)
{
    if (!(tag[0] >= 1.0f && tag[0] <= (float)w->geo.nshapes)) return -1; // (a loaded row may hold any number)
    uint32_t s = (uint32_t)tag[0] - 1u;
    if (s >= w->geo.nshapes || !w->geo.shapes[s].alive || shape_gen(w, s) != tag[1]) return -1;
    return s;
}

// ---- contact prediction ----------------------------------------------------

typedef struct Contact {
    bool inside;   // the grown shape already contains p
    float tc;      // time of contact (0 when inside)
    float need;    // how deep the path dips into the grown shape at closest approach (or is inside now)
    float away[3]; // unit: from the shape toward the agent's side (zero: no side, dead centre)
} Contact;

static float sdist_at(const steer_World *w, const steerW_Shape *s, const float p[3], const float v[3], float t)
{
    float q[3];
    v3_copy(q, p);
    v3_madd(q, v, t);
    return steerO_signed_distance(w, s, q);
}

// Does the straight path p + v t (t in [0, T]) touch shape s grown by R?
static bool shape_contact(const steer_World *w, const steerW_Shape *s, const float p[3], const float v[3], float R,
                          float T, Contact *ct)
{
    float vv = v3_len2(v);
    if (s->kind == STEER_SHAPE_CIRCLE) {
        // seed 002: time of closest approach against a static sphere
        float x[3], rt = s->r + R;
        v3_sub(x, s->a, p);
        float x2 = v3_len2(x);
        if (x2 < rt * rt) {
            float cp[3];
            ct->inside = true;
            ct->tc = 0.0f;
            ct->need = rt - sqrtf(x2);
            steerO_closest(w, s, p, cp, ct->away);
            return true;
        }
        if (vv <= STEER_EPS2) return false;
        float ts = v3_dot(x, v) / vv;
        if (ts < 0.0f) return false;
        float d[3];
        v3_copy(d, x);
        v3_madd(d, v, -ts); // centre relative to us at closest approach
        float dmin2 = v3_len2(d);
        if (dmin2 >= rt * rt) return false;
        float tc = ts - sqrtf((rt * rt - dmin2) / vv);
        if (tc > T) return false;
        ct->inside = false;
        ct->tc = tc < 0.0f ? 0.0f : tc;
        float dmin = sqrtf(dmin2);
        ct->need = rt - dmin;
        // the side the path passes: away from the centre at closest approach
        // (dead centre, to rounding, has no side)
        if (dmin > 1e-4f * rt) v3_scale(ct->away, d, -1.0f / dmin);
        else v3_zero(ct->away);
        return true;
    }
    // other convex shapes: the same definition, numerically
    float f0 = steerO_signed_distance(w, s, p) - R;
    if (f0 < 0.0f) {
        float cp[3];
        ct->inside = true;
        ct->tc = 0.0f;
        ct->need = -f0;
        steerO_closest(w, s, p, cp, ct->away);
        return true;
    }
    if (vv <= STEER_EPS2) return false;
    // golden section for the closest approach on [0, T]
    const float g = 0.618034f;
    float a = 0.0f, b = T;
    float x1 = b - g * (b - a), x2 = a + g * (b - a);
    float f1 = sdist_at(w, s, p, v, x1), f2 = sdist_at(w, s, p, v, x2);
    for (int i = 0; i < 28 && b - a > 1e-5f * T; i++) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = sdist_at(w, s, p, v, x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = sdist_at(w, s, p, v, x2);
        }
    }
    float ts = 0.5f * (a + b), fmin = sdist_at(w, s, p, v, ts) - R;
    float fT = sdist_at(w, s, p, v, T) - R;
    if (fT < fmin) {
        ts = T;
        fmin = fT;
    }
    if (fmin >= 0.0f) return false;
    // bisection for the first contact on [0, ts]: f(0) > 0 > f(ts)
    float lo = 0.0f, hi = ts;
    for (int i = 0; i < 24; i++) {
        float mid = 0.5f * (lo + hi);
        if (sdist_at(w, s, p, v, mid) - R > 0.0f) lo = mid;
        else hi = mid;
    }
    ct->inside = false;
    ct->tc = lo;
    ct->need = -fmin;
    // the normal where the grown outline is met faces the agent's side
    float q[3], cp[3];
    v3_copy(q, p);
    v3_madd(q, v, lo);
    steerO_closest(w, s, q, cp, ct->away);
    return true;
}

// The box swept by a sphere of radius R moving from p by v * T.
static int shapes_swept(const steer_World *w, steerW_Local *loc, const float p[3], const float v[3], float T, float R)
{
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        float e = p[i] + v[i] * T;
        lo[i] = (p[i] < e ? p[i] : e) - R;
        hi[i] = (p[i] < e ? e : p[i]) + R;
    }
    if (dim2(w)) lo[2] = hi[2] = 0.0f;
    return steerO_shapes_near(w, loc, lo, hi);
}

// ---- avoid_obstacles -----------------------------------------------------

typedef struct AvoidObstacles {
    float lookahead;      // seconds of straight-line motion tested
    float margin;         // metres of clearance wanted beyond touching
    float stuck_window;   // seconds per progress check; 0 turns escalation off
    float stuck_progress; // metres along the intended direction per window (0: from max_speed)
} AvoidObstacles;
STEERB_CHECK_SIZE(AvoidObstacles);

enum {
    M_SHAPE = 0,   // the current threat: index + 1, generation (0: none)
    M_SIDE = 2,    // [3] unit side the agent passes it on
    M_SINCE = 5,   // seconds since the threat was last seen
    M_INTENT = 6,  // [3] unit direction the agent meant to go (the velocity when the episode began)
    M_ANCHOR = 9,  // [3] position at the start of the progress window
    M_TIMER = 12,  // seconds into the window
    M_ACTIVE = 13, // seconds of the window in which the behaviour acted
    M_MODE = 14,   // 0 avoid, 1 sidestep, 2 follow the surface
    M_MODE_T = 15, // seconds in the current mode
    M_DIR = 16,    // [3] sidestep direction / follow tangent
    M_HAND = 19,   // 2D follow: which hand is on the wall (+1 / -1)
    M_START = 20,  // [3] where the sidestep began
    M_FLOATS = 23
};

static void obstacles_init(steerB_Ctx *c, const steerB_Node *n)
{
    float *m = c->mem + n->mem;
    for (int i = 0; i < M_FLOATS; i++) m[i] = 0.0f;
    v3_copy(m + M_ANCHOR, c->p);
}

typedef struct Threats {
    bool ahead, inside;
    uint32_t ahead_shape;
    Contact a, in; // the earliest future contact; the deepest current one
} Threats;

static void find_threats(steerB_Ctx *c, const float v[3], float R, float T, int64_t prefer, Threats *th)
{
    const steer_World *w = c->w;
    *th = (Threats){ 0 };
    int k = shapes_swept(w, c->loc, c->p, v, T, R);
    for (int i = 0; i < k; i++) {
        uint32_t s = c->loc->found[i];
        Contact ct;
        if (!shape_contact(w, &w->geo.shapes[s], c->p, v, R, T, &ct)) continue;
        if (ct.inside) {
            if (!th->inside || ct.need > th->in.need) {
                th->in = ct;
                th->inside = true;
            }
            continue;
        }
        // the earliest contact; the remembered threat wins a (near) tie
        bool better = !th->ahead || ct.tc < th->a.tc - 1e-4f || (ct.tc <= th->a.tc + 1e-4f && (int64_t)s == prefer);
        if (better) {
            th->a = ct;
            th->ahead = true;
            th->ahead_shape = s;
        }
    }
}

// Nothing blocks a move at max speed along unit direction d for T seconds.
static bool clear_along(steerB_Ctx *c, const float d[3], float R, float T)
{
    const steer_World *w = c->w;
    float v[3];
    v3_scale(v, d, c->max_speed > 0.0f ? c->max_speed : 1.0f);
    int k = shapes_swept(w, c->loc, c->p, v, T, R);
    for (int i = 0; i < k; i++) {
        Contact ct;
        if (!shape_contact(w, &w->geo.shapes[c->loc->found[i]], c->p, v, R, T, &ct)) continue;
        if (!ct.inside || v3_dot(ct.away, d) < 0.0f) return false;
    }
    return true;
}

// The side to pass the threat on, kept in memory (see the header).
static void choose_side(steerB_Ctx *c, float *m, const Threats *th, bool same, const float vhat[3], float R,
                        float side[3])
{
    float nat[3], keep[3];
    float ln = v3_perp_to(nat, th->a.away, vhat);
    bool has_nat = ln > 1e-3f;
    bool has_keep = v3_perp_to(keep, m + M_SIDE, vhat) > 1e-3f;
    if (same && has_keep) {
        // switch only when the path already passes clearly on the other side
        if (has_nat && v3_dot(nat, keep) < 0.0f && th->a.need < 0.5f * R) v3_copy(side, nat);
        else v3_copy(side, keep);
    } else if (has_nat) {
        v3_copy(side, nat);
    } else if (has_keep) {
        v3_copy(side, keep); // a new threat dead ahead: turn the way we last turned
    } else {
        random_side(c, vhat, side);
    }
    v3_copy(m + M_SIDE, side);
}

// The force that moves the path clear of a predicted contact.
static void dodge(const steerB_Ctx *c, const Contact *ct, const float side[3], const float vhat[3], float out[3])
{
    float t = ct->tc > c->dt ? ct->tc : c->dt;
    float need_a = 2.0f * ct->need / (t * t);
    float a_max = c->mass > 0.0f ? c->max_force / c->mass : 0.0f;
    float f = 2.0f * c->mass * need_a;
    if (!(f < c->max_force)) f = c->max_force;
    v3_scale(out, side, f);
    if (a_max > 0.0f && need_a > a_max) {
        // no lateral force clears it in time: brake too, which buys time
        float b = need_a / a_max - 1.0f;
        v3_madd(out, vhat, -c->max_force * (b < 1.0f ? b : 1.0f));
        v3_truncate(out, c->max_force);
    }
}

// Out of a grown shape the agent is in: cancel the velocity into it and
// move out, faster the deeper it is.
static void push_out(const steerB_Ctx *c, const Contact *ct, float R, float out[3])
{
    float into = v3_dot(c->v, ct->away);
    float depth = R > 0.0f ? ct->need / R : 1.0f;
    float s = (into < 0.0f ? -into : 0.0f) + c->max_speed * (depth < 1.0f ? depth : 1.0f);
    float k = c->max_speed > 0.0f ? c->max_force / c->max_speed : 0.0f;
    v3_scale(out, ct->away, s * k);
}

// The nearest surface within reach of the agent: its normal (toward us)
// and the agent's distance from it. False when none is near.
static bool nearest_surface(steerB_Ctx *c, float reach, float normal[3], float *dist)
{
    const steer_World *w = c->w;
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = c->p[i] - reach;
        hi[i] = c->p[i] + reach;
    }
    if (dim2(w)) lo[2] = hi[2] = 0.0f;
    int k = steerO_shapes_near(w, c->loc, lo, hi);
    float best = reach;
    bool found = false;
    for (int i = 0; i < k; i++) {
        const steerW_Shape *s = &w->geo.shapes[c->loc->found[i]];
        float d = steerO_signed_distance(w, s, c->p);
        if (d < best) {
            float cp[3];
            best = d;
            steerO_closest(w, s, c->p, cp, normal);
            found = true;
        }
    }
    *dist = best;
    return found;
}

static void reset_window(steerB_Ctx *c, float *m)
{
    v3_copy(m + M_ANCHOR, c->p);
    m[M_TIMER] = m[M_ACTIVE] = 0.0f;
}

// Escalation before the agent is stuck (see the header). `acting` says
// whether avoidance acted this tick; `out` holds its force and becomes
// the force of the mode.
static void escalate(steerB_Ctx *c, const AvoidObstacles *p, float *m, bool acting, const float vhat[3], float speed,
                     float R, float out[3])
{
    float *intent = m + M_INTENT;
    int mode = m[M_MODE] == 1.0f ? 1 : m[M_MODE] == 2.0f ? 2 : 0; // (a loaded row may hold any number)
    bool episode = m[M_SHAPE] >= 1.0f;
    if (mode == 0 && !episode && speed > 0.05f * c->max_speed) v3_copy(intent, vhat);
    if (v3_len2(intent) < 0.5f) {
        if (speed <= 0.0f) return; // no idea where the agent means to go
        v3_copy(intent, vhat);
    }
    m[M_TIMER] += c->dt;
    if (acting || mode) m[M_ACTIVE] += c->dt;
    if (mode) {
        m[M_MODE_T] += c->dt;
        bool give_up = mode == 2 && m[M_MODE_T] > 20.0f * p->stuck_window;
        // the follow ends only past where the agent got stuck (as Bug2
        // leaves a wall): a probe along the intended direction sees only
        // `lookahead` seconds, and from the mouth of a cup deeper than
        // that the way would look clear
        float gone[3];
        v3_sub(gone, c->p, m + M_START);
        bool past = mode == 1 || v3_dot(gone, intent) > 0.0f;
        if (give_up || (past && clear_along(c, intent, R, p->lookahead))) {
            if (give_up) v3_scale(m + M_SIDE, m + M_SIDE, -1.0f); // next time, the other way round
            m[M_MODE] = 0.0f;
            m[M_MODE_T] = 0.0f;
            reset_window(c, m);
            return;
        }
    }
    if (m[M_TIMER] >= p->stuck_window) {
        float moved[3];
        v3_sub(moved, c->p, m + M_ANCHOR);
        float enough = p->stuck_progress > 0.0f ? p->stuck_progress : 0.25f * c->max_speed * p->stuck_window;
        bool stuck = m[M_ACTIVE] >= 0.5f * p->stuck_window && v3_dot(moved, intent) < enough;
        if (stuck && mode < 2) {
            mode++;
            m[M_MODE] = (float)mode;
            m[M_MODE_T] = 0.0f;
            float *dir = m + M_DIR;
            if (mode == 1) {
                v3_copy(m + M_START, c->p);
                // sidestep: square to the intended direction, on the chosen side
                if (v3_perp_to(dir, m + M_SIDE, intent) <= 1e-3f) {
                    random_side(c, intent, dir);
                    v3_copy(m + M_SIDE, dir);
                }
            }
            m[M_HAND] = 0.0f; // chosen against the first surface followed
        }
        reset_window(c, m);
    }
    if (mode == 0) return;
    float desired[3], track[3];
    float *dir = m + M_DIR;
    if (mode == 1) {
        v3_scale(desired, dir, c->max_speed);
    } else {
        // follow: hand on the nearest surface, at a little more than the
        // clearance, until the intended direction is clear
        float hold = R + 0.5f * p->margin + 0.05f * c->radius;
        float nrm[3], dist, tan[3];
        if (!nearest_surface(c, hold + c->max_speed * p->lookahead, nrm, &dist)) {
            m[M_MODE] = 0.0f;
            reset_window(c, m);
            return;
        }
        if (dim2(c->w)) {
            float left[3];
            v3_left(left, nrm);
            if (m[M_HAND] == 0.0f) m[M_HAND] = v3_dot(dir, left) < 0.0f ? -1.0f : 1.0f;
            v3_scale(tan, left, m[M_HAND]);
        } else if (v3_perp_to(tan, dir, nrm) <= 1e-3f && v3_perp_to(tan, intent, nrm) <= 1e-3f) {
            random_side(c, nrm, tan);
        }
        v3_copy(dir, tan);
        float e = hold > 0.0f ? (hold - dist) / hold : 0.0f;
        e = e < -1.0f ? -1.0f : e > 1.0f ? 1.0f : e;
        v3_copy(desired, tan);
        v3_madd(desired, nrm, e);
        v3_normalize(desired);
        v3_scale(desired, desired, c->max_speed);
    }
    // avoiding what is ahead comes first: the mode gets the force left over
    steerB_track(c, desired, track);
    float spare = c->max_force - v3_len(out);
    v3_truncate(track, spare > 0.0f ? spare : 0.0f);
    v3_add(out, out, track);
}

static void obstacles_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const AvoidObstacles *p = STEERB_PARAMS_OF(n, AvoidObstacles);
    float *m = c->mem + n->mem;
    const steer_World *w = c->w;
    v3_zero(out);
    float R = c->radius + p->margin, T = p->lookahead;
    float vhat[3];
    v3_copy(vhat, c->v);
    float speed = v3_normalize(vhat);
    int64_t prev = remembered(w, m + M_SHAPE);
    if (prev < 0) m[M_SHAPE] = m[M_SHAPE + 1] = 0.0f;
    Threats th;
    find_threats(c, c->v, R, T, prev, &th);
    if (th.ahead) {
        float side[3], f[3];
        choose_side(c, m, &th, (int64_t)th.ahead_shape == prev, vhat, R, side);
        if (m[M_MODE] == 2.0f && m[M_HAND] != 0.0f && dim2(w)) {
            // following a surface: whatever comes up ahead (a concave
            // corner), turn away from the hand on the wall
            v3_set(side, vhat[1] * m[M_HAND], -vhat[0] * m[M_HAND], 0.0f);
        }
        m[M_SHAPE] = shape_tag(th.ahead_shape);
        m[M_SHAPE + 1] = shape_gen(w, th.ahead_shape);
        m[M_SINCE] = 0.0f;
        dodge(c, &th.a, side, vhat, f);
        v3_add(out, out, f);
    } else if (m[M_SHAPE] >= 1.0f) {
        m[M_SINCE] += c->dt;
        if (m[M_SINCE] > T) m[M_SHAPE] = m[M_SHAPE + 1] = 0.0f; // the threat is over
    }
    if (th.inside) {
        float f[3];
        push_out(c, &th.in, R, f);
        v3_add(out, out, f);
    }
    v3_truncate(out, c->max_force);
    if (p->stuck_window > 0.0f) escalate(c, p, m, th.ahead || th.inside, vhat, speed, R, out);
    if (!v3_finite(out)) v3_zero(out);
}

static int obstacles_check(const void *params, char *msg, size_t len)
{
    const AvoidObstacles *p = params;
    if (p->stuck_window > 0.0f && p->stuck_window < p->lookahead * 0.25f) {
        snprintf(msg, len, "stuck_window (%g) must be 0 (off) or at least a quarter of lookahead (%g)",
                 (double)p->stuck_window, (double)p->lookahead);
        return 0;
    }
    return 1;
}

static const steerB_Field obstacles_fields[] = {
    { "lookahead", STEERB_NUMBER, offsetof(AvoidObstacles, lookahead), 1.0f, 1e-6, 1e4, "a number of seconds", NULL },
    { "margin", STEERB_NUMBER, offsetof(AvoidObstacles, margin), 0.25f, 0, 1e30, "a number of metres", NULL },
    { "stuck_window", STEERB_NUMBER, offsetof(AvoidObstacles, stuck_window), 1.0f, 0, 1e4,
      "a number of seconds (0 = never escalate)", NULL },
    { "stuck_progress", STEERB_NUMBER, offsetof(AvoidObstacles, stuck_progress), 0, 0, 1e30,
      "a number of metres (0 = a quarter of what max_speed covers in the window)", NULL },
    { 0 }
};

const steerB_Kind steerB_avoid_obstacles = { .name = "avoid_obstacles",
                                             .fields = obstacles_fields,
                                             .eval = obstacles_eval,
                                             .mem_floats = M_FLOATS,
                                             .init = obstacles_init,
                                             .check = obstacles_check };

// ---- avoid_walls ---------------------------------------------------------

typedef struct AvoidWalls {
    float whiskers; // count, a whole number
    float length;   // metres
    float spread;   // total angle of the fan, radians
    float hold;     // seconds a chosen turning side outlives the trap
    uint8_t escape; // the corner trap's escape along the walls (off: the whiskers only push)
} AvoidWalls;
STEERB_CHECK_SIZE(AvoidWalls);

enum {
    W_SIDE = 0,   // [3] unit direction of the escape along the walls (zero: not escaping)
    W_INTENT = 3, // [3] the heading when the trap was met
    W_SINCE = 6,  // seconds since a whisker last touched during the escape
    W_HAND = 7,   // 2D: +1 walls on the right hand, -1 on the left
    W_FLOATS = 8
};

// Whisker k of n: a fan over the heading and its side (2D, and 3D with
// fewer than three); in 3D the first runs along the heading and the
// others ring it at half the spread.
static void whisker(const steerB_Ctx *c, const AvoidWalls *p, int k, int n, const float side[3], const float up[3],
                    float dir[3])
{
    if (dim2(c->w) || n < 3) {
        float a = n > 1 ? -0.5f * p->spread + p->spread * (float)k / (float)(n - 1) : 0.0f;
        v3_scale(dir, c->h, steerM_cosf(a));
        v3_madd(dir, side, steerM_sinf(a));
        return;
    }
    if (k == 0) {
        v3_copy(dir, c->h);
        return;
    }
    float half = 0.5f * p->spread, phi = 6.2831853f * (float)(k - 1) / (float)(n - 1);
    float ring[3];
    v3_scale(ring, side, steerM_cosf(phi));
    v3_madd(ring, up, steerM_sinf(phi));
    v3_scale(dir, c->h, steerM_cosf(half));
    v3_madd(dir, ring, steerM_sinf(half));
}

// The escape direction along walls whose summed push is along unit nrm:
// the kept hand in 2D, the kept direction carried over in 3D.
static void along_walls(steerB_Ctx *c, float *m, const float nrm[3], float out[3])
{
    if (dim2(c->w)) {
        float left[3];
        v3_left(left, nrm);
        v3_scale(out, left, -m[W_HAND]);
        return;
    }
    if (v3_perp_to(out, m + W_SIDE, nrm) <= 1e-3f && v3_perp_to(out, c->h, nrm) <= 1e-3f) random_side(c, nrm, out);
}

static void walls_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const AvoidWalls *p = STEERB_PARAMS_OF(n, AvoidWalls);
    float *m = c->mem + n->mem;
    v3_zero(out);
    int count = (int)p->whiskers;
    float side[3], up[3], sum[3] = { 0, 0, 0 }, deepest = 0.0f;
    steerB_frame(c, side, up);
    int hits = 0;
    for (int k = 0; k < count; k++) {
        float dir[3], t, nrm[3];
        uint32_t s;
        whisker(c, p, k, count, side, up, dir);
        if (v3_normalize(dir) == 0.0f) continue;
        if (!steerO_ray_shapes(c->w, c->loc, c->p, dir, p->length, &t, nrm, &s)) continue;
        float depth = p->length - t;
        v3_madd(sum, nrm, depth); // deeper in, harder out
        if (depth > deepest) deepest = depth;
        hits++;
    }
    float back = -v3_dot(sum, c->h), lat[3];
    float ll = v3_perp_to(lat, sum, c->h);
    // head-on or a concave corner: the push is (nearly) straight back, with
    // no side or with sides that cancel
    bool trapped = p->escape && hits > 0 && back > 0.0f && back >= 2.0f * ll;
    if (!p->escape) v3_zero(m + W_SIDE); // turned off mid-escape: it ends now
    bool escaping = v3_len2(m + W_SIDE) > 0.5f;
    float nrm[3];
    v3_copy(nrm, sum);
    v3_normalize(nrm);
    if (trapped && !escaping) {
        // choose a hand once: the way the agent already slides, else a draw
        float t[3];
        v3_copy(m + W_INTENT, c->h);
        if (dim2(c->w)) {
            float left[3];
            v3_left(left, nrm);
            float lean = v3_dot(left, c->h);
            m[W_HAND] = lean > 1e-3f ? -1.0f : lean < -1e-3f ? 1.0f : steer_rng32_unit(c->rng) < 0.5f ? -1.0f : 1.0f;
        } else {
            v3_zero(m + W_SIDE);
        }
        along_walls(c, m, nrm, t);
        v3_copy(m + W_SIDE, t);
        m[W_SINCE] = 0.0f;
        escaping = true;
    }
    if (escaping) {
        float ahead, hn[3];
        uint32_t s;
        // done when the way it meant to go is open for two whisker
        // lengths (one would end the escape as soon as the whisker push has
        // kept it a little off the corner), or it has touched no wall for
        // `hold` seconds
        bool open = !trapped && !steerO_ray_shapes(c->w, c->loc, c->p, m + W_INTENT, 2.0f * p->length, &ahead, hn, &s);
        if (hits) m[W_SINCE] = 0.0f;
        else m[W_SINCE] += c->dt;
        if (open || m[W_SINCE] > p->hold) {
            v3_zero(m + W_SIDE);
            escaping = false;
        }
    }
    if (escaping) {
        // slide along the walls on the kept hand, away from them the more
        // the deeper a whisker is in; between touches keep the last
        // direction, or the seek behind us would turn the agent back in
        // (at low speed the whiskers swing with every tick's heading)
        float desired[3];
        if (hits) {
            float t[3];
            along_walls(c, m, nrm, t);
            v3_copy(m + W_SIDE, t);
            v3_copy(desired, t);
            v3_madd(desired, nrm, deepest / p->length);
            v3_normalize(desired);
        } else {
            if (dim2(c->w)) {
                // lost touch: curve toward the walls' side (round the end
                // of a wall) on a circle about a whisker length across
                float turn = -m[W_HAND] * c->max_speed / (0.5f * p->length) * c->dt;
                float *t = m + W_SIDE, x = t[0], y = t[1];
                t[0] = x * steerM_cosf(turn) - y * steerM_sinf(turn);
                t[1] = x * steerM_sinf(turn) + y * steerM_cosf(turn);
            }
            v3_copy(desired, m + W_SIDE);
        }
        v3_scale(desired, desired, c->max_speed);
        steerB_track(c, desired, out);
    } else if (hits) {
        // a full whisker's depth asks for max_force
        float k = c->max_force / p->length;
        v3_scale(out, sum, k);
    }
    v3_truncate(out, c->max_force);
    if (!v3_finite(out)) v3_zero(out);
}

static int walls_check(const void *params, char *msg, size_t len)
{
    const AvoidWalls *p = params;
    if (p->whiskers != floorf(p->whiskers)) {
        snprintf(msg, len, "whiskers (%g) must be a whole number", (double)p->whiskers);
        return 0;
    }
    return 1;
}

static const steerB_Field walls_fields[] = {
    { "whiskers", STEERB_NUMBER, offsetof(AvoidWalls, whiskers), 3, 1, 16, "a whole number", NULL },
    { "length", STEERB_NUMBER, offsetof(AvoidWalls, length), 3, 1e-6, 1e4, "a number of metres", NULL },
    { "spread", STEERB_NUMBER, offsetof(AvoidWalls, spread), 1.5707964f, 0, 6.2831853, "an angle in radians (2 pi)",
      NULL },
    { "hold", STEERB_NUMBER, offsetof(AvoidWalls, hold), 2.0f, 0, 1e4, "a number of seconds", NULL },
    { "escape", STEERB_BOOL, offsetof(AvoidWalls, escape), 1, 0, 0, "a boolean", NULL },
    { 0 }
};

const steerB_Kind steerB_avoid_walls = {
    .name = "avoid_walls", .fields = walls_fields, .eval = walls_eval, .mem_floats = W_FLOATS, .check = walls_check
};
