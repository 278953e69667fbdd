// SPDX-License-Identifier: MIT
// directed_seek.c — arrive at a waypoint W travelling in a direction d_W,
// turning no tighter than a radius r (Jakob, "Directional extensions of
// seek steering behavior", Figure 5 and section 4).
//
// Stateless: every call plans afresh from the agent's pose. The plan lives
// in the steering plane through the agent A, W and d_W, with the frame of
// the paper's equations (5)-(8): origin W, x = d_W, y toward A. In 2D that
// plane is the world's, so one code path serves both dimensions. In that
// frame the agent always lies at y >= 0, so the waypoint circle k_W on A's
// side is centred at (0, r) and turns counter-clockwise (+1); the opposite
// circle k'_W is centred at (0, -r) and turns clockwise.
//
// The 3-segment paths are the CSC words: a turn on one of the agent's
// circles k_A+ / k_A-, the admissible common tangent, a turn on k_W or k'_W.
// Like turns join by the direct tangent, unlike turns by the cross tangent
// (which exists only when the circles are more than 2r apart). The path
// with the least total turning Phi wins (ties: the first of direct k_W,
// cross k_W, direct k'_W, cross k'_W; k'_W only with `opposite`, the
// paper's extension).
//
// Stages, from s_direct = S_W - S_A (the centres of the direct path's
// circles) with tolerances that scale with one tick of motion:
//   III  |s_direct| ~ 0: the agent is on k_W; turn toward d_W. Also when
//        |s_direct| is a little larger (a discrete turn drifts off k_W by
//        a fraction of a step) and the direct path would loop once more.
//   II   the chosen path's first turn is ~0 (a turn of ~2 pi is one just
//        overshot): fly along the tangent.
//   I    otherwise: the tightest turn toward the tangent, or toward it
//        exactly once it is within 90 degrees (min_{d_A}(s_A, t)).
// The steering direction becomes a force that turns the velocity by
// speed * dt / r toward it this tick (never further than it) at the
// current speed, plus what is left of max_force for the speed change.
//
// Beyond the paper: `behind` puts W that far back from the target along
// d_W (onto a moving target's tail), and after a moving agent the wanted
// speed closes the gap to W and then matches the target's.
#include "behavior.h"
#include "fields.h"
#include "laws.h"

#include <stdio.h>
#include <string.h>

#define TAU 6.2831853f
#define HALF_PI 1.5707963f

typedef struct Directed {
    steerB_Target target;
    float heading[3];      // d_W; zero: the target agent's direction of travel
    float min_turn_radius; // 0: the agent's own turn radius rule
    float speed;           // 0: max_speed
    float behind;          // the waypoint is this far back from the target along d_W
    uint8_t opposite;      // consider k'_W
} Directed;
STEERB_CHECK_SIZE(Directed);

// ---- the plan in the steering plane ------------------------------------

static void left2(float o[2], const float v[2])
{
    float x = v[0];
    o[0] = -v[1];
    o[1] = x;
}
static float cross2(const float a[2], const float b[2]) { return a[0] * b[1] - a[1] * b[0]; }
static float dot2(const float a[2], const float b[2]) { return a[0] * b[0] + a[1] * b[1]; }

// The angle from a to b turning `turn` (+1 counter-clockwise), in [0, 2 pi).
static float turn_angle(const float a[2], const float b[2], int turn)
{
    float ang = steerM_atan2f(cross2(a, b), dot2(a, b)) * (float)turn;
    if (ang < 0.0f) ang += TAU;
    return ang < TAU ? ang : 0.0f;
}

typedef struct Path {
    int turn_a, turn_w, opposite;
    float ca[2], cw[2]; // circle centres
    float t[2];         // tangent direction
    float pa[2], pw[2]; // tangent points
    float phi_a, phi;   // first turn (snapped), total
} Path;

// The admissible tangent from circle (ca, turn_a) to (cw, turn_w), both of
// radius r; false when there is none.
static bool tangent(Path *p, float r)
{
    float s[2] = { p->cw[0] - p->ca[0], p->cw[1] - p->ca[1] };
    float dist = sqrtf(dot2(s, s));
    if (!(dist > 0.0f)) return false;
    float u[2] = { s[0] / dist, s[1] / dist };
    if (p->turn_a == p->turn_w) {
        p->t[0] = u[0];
        p->t[1] = u[1];
    } else {
        if (dist <= 2.0f * r) return false;
        float al = steerM_asinf(2.0f * r / dist) * (float)p->turn_a, c = steerM_cosf(al), sn = steerM_sinf(al);
        p->t[0] = c * u[0] - sn * u[1];
        p->t[1] = sn * u[0] + c * u[1];
    }
    float n[2];
    left2(n, p->t);
    for (int i = 0; i < 2; i++) {
        p->pa[i] = p->ca[i] - (float)p->turn_a * r * n[i];
        p->pw[i] = p->cw[i] - (float)p->turn_w * r * n[i];
    }
    return true;
}

typedef struct Plan2 {
    int stage;
    Path path;
    float aim[2];
    float kap[2], kam[2]; // k_A+ and k_A- centres
} Plan2;

// The 2D algorithm: agent at a with unit heading da; W at the origin with
// heading (1, 0); a.y >= 0.
static void plan2(const float a[2], const float da[2], float r, float tol_pos, float tol_ang, bool opposite, Plan2 *out)
{
    const float dw[2] = { 1.0f, 0.0f };
    float n[2];
    left2(n, da);
    for (int i = 0; i < 2; i++) {
        out->kap[i] = a[i] + r * n[i];
        out->kam[i] = a[i] - r * n[i];
    }
    const float kw[2] = { 0.0f, r }, kw2[2] = { 0.0f, -r };
    // the candidates in order of preference: direct k_W, cross k_W, direct k'_W, cross k'_W
    const float *from[4] = { out->kap, out->kam, out->kam, out->kap };
    const int turn[4] = { 1, -1, -1, 1 };
    Path best = { 0 };
    bool have = false;
    for (int k = 0; k < (opposite ? 4 : 2); k++) {
        Path p = { .turn_a = turn[k], .turn_w = k < 2 ? 1 : -1, .opposite = k >= 2 };
        for (int i = 0; i < 2; i++) {
            p.ca[i] = from[k][i];
            p.cw[i] = k < 2 ? kw[i] : kw2[i];
        }
        float s[2] = { p.cw[0] - p.ca[0], p.cw[1] - p.ca[1] }, s2 = dot2(s, s);
        bool final = s2 <= tol_pos * tol_pos;
        if (!final && s2 <= 9.0f * tol_pos * tol_pos && (k == 0 || k == 2)) {
            // just off k_W while on the final turn: a direct path would
            // first loop once more, so keep turning (off by under 3 tol_pos)
            float phi_a = turn_angle(da, s, p.turn_a);
            if (phi_a > TAU - tol_ang) phi_a = 0.0f;
            final = phi_a + turn_angle(s, dw, p.turn_w) > turn_angle(da, dw, p.turn_w) + 3.1415927f;
        }
        if ((k == 0 || k == 2) && final) {
            // stage III: on the waypoint circle; turn toward d_W
            out->stage = 3;
            p.t[0] = dw[0];
            p.t[1] = dw[1];
            for (int i = 0; i < 2; i++) {
                p.pa[i] = a[i];
                p.pw[i] = a[i];
            }
            float phi = turn_angle(da, dw, p.turn_w);
            p.phi_a = 0.0f;
            p.phi = phi > TAU - tol_ang ? 0.0f : phi;
            out->path = p;
            if (phi <= HALF_PI || phi > TAU - tol_ang) {
                out->aim[0] = dw[0];
                out->aim[1] = dw[1];
            } else {
                left2(out->aim, da);
                out->aim[0] *= (float)p.turn_w;
                out->aim[1] *= (float)p.turn_w;
            }
            return;
        }
        if (!tangent(&p, r)) continue;
        float phi_a = turn_angle(da, p.t, p.turn_a), phi_w = turn_angle(p.t, dw, p.turn_w);
        if (phi_a > TAU - tol_ang) phi_a = 0.0f; // just past the tangent: not a whole turn
        if (phi_w > TAU - tol_ang) phi_w = 0.0f;
        p.phi_a = phi_a;
        p.phi = phi_a + phi_w;
        if (!have || p.phi < best.phi) {
            best = p;
            have = true;
        }
    }
    // (the direct path to k_W always exists once stage III is ruled out)
    out->path = best;
    out->stage = best.phi_a <= tol_ang ? 2 : 1;
    if (out->stage == 2 || best.phi_a <= HALF_PI) {
        out->aim[0] = best.t[0];
        out->aim[1] = best.t[1];
    } else {
        left2(out->aim, da);
        out->aim[0] *= (float)best.turn_a;
        out->aim[1] *= (float)best.turn_a;
    }
}

// ---- the steering plane ------------------------------------------------

typedef struct Plan {
    Plan2 p2;
    float fx[3], fy[3], w[3];
    float r;
    float unit; // metres per unit of the steering plane's coordinates (a power of 2)
} Plan;

// A direction (point false) or a point of the steering plane in the
// world. Far poses (unit > 1) are exported in double: their points may lie
// about 3.4e38 from W, beyond a float.
static void to_world(const Plan *pl, const float v[2], bool point, float o[3])
{
    if (point) v3_copy(o, pl->w);
    else v3_zero(o);
    v3_madd(o, pl->fx, v[0]);
    v3_madd(o, pl->fy, v[1]);
}
static void to_world_d(const Plan *pl, const float v[2], bool point, double o[3])
{
    for (int i = 0; i < 3; i++) {
        double d = (double)pl->fx[i] * v[0] + (double)pl->fy[i] * v[1];
        o[i] = point ? (double)pl->w[i] + d * (double)pl->unit : d;
    }
}

// Distances beyond this (in metres, or in the plane's units) would
// overflow the plan's squares (a float holds up to 3.4e38, 2^128).
#define FAR 0x1p60f

// Plan for an agent at offset `rel` = A - W with unit heading h, seeking W
// with unit heading dw; `planar`: a 2D world (the fallback axis stays in XY).
// A pose more than FAR metres across (A and W at opposite ends of the
// float range) is planned in units of a power of 2 metres: the geometry
// scales exactly, and the offsets' squares stay finite.
static void plan(const float rel_m[3], const float h[3], const float dw[3], float r_m, float tol_pos_m, float tol_ang,
                 bool opposite, bool planar, Plan *pl)
{
    float m = fmaxf(fmaxf(fabsf(rel_m[0]), fabsf(rel_m[1])), fmaxf(fabsf(rel_m[2]), r_m)), per = 1.0f;
    while (m * per > FAR) per *= 0x1p-8f;
    float rel[3], r = r_m * per, tol_pos = tol_pos_m * per;
    v3_scale(rel, rel_m, per);
    pl->unit = 1.0f / per;
    v3_copy(pl->fx, dw);
    // y: toward A (eq. 6-7); on the line through W along d_W, toward the
    // side the agent heads to; failing that, any perpendicular
    float scale = v3_len(rel) + r;
    if (v3_perp_to(pl->fy, rel, dw) <= 1e-5f * scale && v3_perp_to(pl->fy, h, dw) <= 1e-5f) {
        if (planar) v3_left(pl->fy, dw);
        else steerF_derived_up(dw, pl->fy);
    }
    float a2[2] = { v3_dot(rel, pl->fx), v3_dot(rel, pl->fy) };
    if (a2[1] < 0.0f) a2[1] = 0.0f;
    float d2[2] = { v3_dot(h, pl->fx), v3_dot(h, pl->fy) };
    float len = sqrtf(dot2(d2, d2));
    if (len > 1e-6f) {
        d2[0] /= len;
        d2[1] /= len;
    } else {
        d2[0] = 1.0f;
        d2[1] = 0.0f;
    } // heading across the plane: any in-plane start
    pl->r = r_m;
    plan2(a2, d2, r, tol_pos, tol_ang, opposite, &pl->p2);
}

// Tolerances: half a tick of motion (and a tick of turning), so that the
// stage tests never wait for an equality a discrete step jumps over: the
// last tick before the tangent point or the first after it lands within
// half a step of it.
static void tolerances(float speed, float dt, float r, float *tol_pos, float *tol_ang)
{
    *tol_pos = 0.55f * speed * dt + 0.002f * r + 1e-3f;
    float turn = r > 0.0f ? speed * dt / r : 0.0f;
    *tol_ang = turn > 2e-3f ? turn : 2e-3f;
}

// ---- the behaviour -----------------------------------------------------

// The radius to plan with: the behaviour's, else the agent's own rule at
// the larger of the current and the wanted speed (the paper's
// max(r_min(v_A), r_min(v_W))), and never tighter than max_force can turn
// at that speed (m v^2 / F).
static float plan_radius(const steerB_Ctx *c, const Directed *p, float speed, float want)
{
    float r = p->min_turn_radius;
    const steerW_Turn *t = steerW_turn(c->w, c->d);
    if (!(r > 0.0f) && t) {
        float ra = steerF_turn_radius(t, speed), rw = steerF_turn_radius(t, want);
        r = ra > rw ? ra : rw;
    }
    float s = speed > want ? speed : want;
    if (!(c->max_force > 0.0f)) return 0.0f;
    float rf = c->mass * s * s / c->max_force;
    return rf > r ? rf : r;
}

#define CLOSE_TIME 2.0f // s: after a moving target, close the gap to W at gap / CLOSE_TIME

// The speed to fly: `speed`, else max_speed; after a moving agent without a
// `speed`, the target's speed plus the gap to W over CLOSE_TIME (minus it
// when W is behind the agent, overshot), so the agent closes in and then
// holds station.
static float wanted_speed(const steerB_Ctx *c, const Directed *p, const float off[3], float tspeed)
{
    float s = steerB_cruise(p->speed, c->max_speed);
    if (!(p->speed > 0.0f) && tspeed > 0.0f) {
        float gap = v3_len(off);
        s = tspeed + (v3_dot(off, c->h) >= 0.0f ? gap : -gap) / CLOSE_TIME;
        s = s < 0.0f ? 0.0f : s > c->max_speed ? c->max_speed : s;
    }
    const steerW_Turn *t = steerW_turn(c->w, c->d);
    if (t && t->craft && s < t->min_speed) s = t->min_speed < c->max_speed ? t->min_speed : c->max_speed;
    return s;
}

// Resolve the waypoint (offset from the agent) and its heading; false when
// there is nothing to seek.
static bool resolve(steerB_Ctx *c, const Directed *p, float off[3], float dw[3], float *tspeed)
{
    float vel[3];
    if (!steerB_target(c, &p->target, off, vel)) return false;
    *tspeed = v3_len(vel);
    v3_copy(dw, p->heading);
    if (c->w->dim == 2) dw[2] = 0.0f;
    // no heading given: the target agent's direction of travel, else straight on
    if (v3_normalize(dw) == 0.0f) v3_copy(dw, vel);
    if (v3_normalize(dw) == 0.0f) v3_copy(dw, off);
    if (v3_normalize(dw) == 0.0f) v3_copy(dw, c->h);
    if (v3_normalize(dw) == 0.0f) return false;
    v3_madd(off, dw, -p->behind);
    return true;
}

// Everything the behaviour decides for the agent of context c: false when
// it cannot steer (no target, no radius).
static bool agent_plan(steerB_Ctx *c, const Directed *p, Plan *pl, float *speed, float *want)
{
    float off[3], dw[3], tspeed;
    if (!resolve(c, p, off, dw, &tspeed)) return false;
    *speed = v3_len(c->v);
    *want = wanted_speed(c, p, off, tspeed);
    float r = plan_radius(c, p, *speed, *want);
    if (!(r > 0.0f) || !isfinite(r)) return false;
    float h[3], rel[3], tol_pos, tol_ang;
    v3_copy(h, c->h);
    if (v3_normalize(h) == 0.0f) v3_set(h, 1.0f, 0.0f, 0.0f);
    v3_scale(rel, off, -1.0f);
    if (!v3_finite(rel)) return false; // W beyond a float's reach (each end near 3.4e38, opposite signs)
    tolerances(*speed, c->dt, r, &tol_pos, &tol_ang);
    plan(rel, h, dw, r, tol_pos, tol_ang, p->opposite != 0, c->w->dim == 2, pl);
    v3_add(pl->w, c->p, off);
    return true;
}

static void directed_seek_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Directed *p = STEERB_PARAMS_OF(n, Directed);
    Plan pl;
    float speed, want;
    v3_zero(out);
    if (!agent_plan(c, p, &pl, &speed, &want) || !(c->dt > 0.0f)) return;
    float aim[3], h[3], turned[3];
    to_world(&pl, pl.p2.aim, false, aim);
    v3_copy(h, c->h);
    if (v3_normalize(h) == 0.0f) v3_copy(h, aim);
    v3_turn_toward(turned, h, aim, speed * c->dt / pl.r, aim);
    // turn the velocity at the current speed; the speed change gets what is left
    float k = c->mass / c->dt;
    float turn[3];
    v3_scale(turn, turned, speed);
    v3_sub(turn, turn, c->v);
    v3_scale(out, turn, k);
    float left = c->max_force * c->max_force - v3_len2(out);
    float room = left > 0.0f ? sqrtf(left) : 0.0f, push = (want - speed) * k;
    push = push > room ? room : push < -room ? -room : push;
    v3_madd(out, turned, push);
}

// A point target needs a heading; an agent target may lend its own.
static int directed_seek_check(const void *params, char *msg, size_t len)
{
    const Directed *p = params;
    if (p->target.kind == STEER_TARGET_POINT && v3_len2(p->heading) == 0.0f) {
        snprintf(msg, len,
                 "field 'heading' expected a non-zero vector (the direction to arrive in) with a point target");
        return 0;
    }
    return 1;
}

static const steerB_Field directed_seek_fields[] = {
    STEERB_TARGET_ROW(Directed, target, "target"),
    { "heading", STEERB_VECTOR, offsetof(Directed, heading), 0, 0, 0, "a vector (the direction to arrive in)", NULL },
    { "min_turn_radius", STEERB_NUMBER, offsetof(Directed, min_turn_radius), 0, 0, 1e30,
      "a number of metres (0 = the agent's own)", NULL },
    STEERB_SPEED_ROW(Directed),
    { "behind", STEERB_NUMBER, offsetof(Directed, behind), 0, 0, 1e30,
      "a number of metres (the waypoint is that far back from the target along heading)", NULL },
    { "opposite", STEERB_BOOL, offsetof(Directed, opposite), 1, 0, 0,
      "a boolean (consider the opposite waypoint circle)", NULL },
    { 0 }
};

const steerB_Kind steerB_directed_seek = {
    .name = "directed_seek", .fields = directed_seek_fields, .eval = directed_seek_eval, .check = directed_seek_check
};

// ---- plans for hosts ---------------------------------------------------

static void export_plan(const Plan *pl, steer_SeekPlan *o)
{
    const Plan2 *q = &pl->p2;
    float v[3], r = pl->r / pl->unit, kw[2] = { 0.0f, r }, kw2[2] = { 0.0f, -r };
#define PUT(dst, src2, point)                                 \
    do {                                                      \
        if (pl->unit == 1.0f) {                               \
            to_world(pl, src2, point, v);                     \
            for (int i_ = 0; i_ < 3; i_++) (dst)[i_] = v[i_]; \
        } else {                                              \
            to_world_d(pl, src2, point, dst);                 \
        }                                                     \
    } while (0)
    memset(o, 0, sizeof *o);
    o->stage = q->stage;
    o->cross = q->path.turn_a != q->path.turn_w;
    o->opposite = q->path.opposite;
    o->radius = pl->r;
    o->total_angle = q->path.phi;
    PUT(o->aim, q->aim, false);
    PUT(o->agent_center, q->path.ca, true);
    PUT(o->waypoint_center, q->path.cw, true);
    PUT(o->from, q->path.pa, true);
    PUT(o->to, q->path.pw, true);
    PUT(o->circles[0], q->kap, true);
    PUT(o->circles[1], q->kam, true);
    PUT(o->circles[2], kw, true);
    PUT(o->circles[3], kw2, true);
#undef PUT
    o->agent_turn = q->path.turn_a;
    o->waypoint_turn = q->path.turn_w;
    for (int i = 0; i < 3; i++) {
        o->axis_x[i] = pl->fx[i];
        o->axis_y[i] = pl->fy[i];
    }
}

static bool finite3d(const double v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

int steer_directed_seek_plan(const double position[3], const double direction[3], double speed, const double target[3],
                             const double heading[3], double radius, double dt, bool opposite, steer_SeekPlan *out)
{
    STEERA_NONNULL(position, "a double[3]", STEER_EARG);
    STEERA_NONNULL(direction, "a double[3]", STEER_EARG);
    STEERA_NONNULL(target, "a double[3]", STEER_EARG);
    STEERA_NONNULL(heading, "a double[3]", STEER_EARG);
    STEERA_NONNULL(out, "a steer_SeekPlan to fill", STEER_EARG);
    if (!finite3d(position) || !finite3d(direction) || !finite3d(target) || !finite3d(heading) || !isfinite(speed) ||
        speed < 0 || !isfinite(radius) || !(radius > 0) || !isfinite(dt) || dt < 0)
        return STEER_EARG;
    float rel[3], h[3], dw[3];
    for (int i = 0; i < 3; i++) {
        rel[i] = (float)(position[i] - target[i]);
        h[i] = (float)direction[i];
        dw[i] = (float)heading[i];
    }
    if (v3_normalize(h) == 0.0f || v3_normalize(dw) == 0.0f || !v3_finite(rel)) return STEER_EARG;
    bool planar = position[2] == 0 && direction[2] == 0 && target[2] == 0 && heading[2] == 0;
    float tol_pos, tol_ang;
    tolerances((float)speed, (float)dt, (float)radius, &tol_pos, &tol_ang);
    Plan pl;
    plan(rel, h, dw, (float)radius, tol_pos, tol_ang, opposite, planar, &pl);
    for (int i = 0; i < 3; i++) pl.w[i] = (float)target[i];
    export_plan(&pl, out);
    return STEER_OK;
}

int steer_agent_directed_seek_plan(steer_World *w, steer_Agent a, const steer_Behavior *b, steer_SeekPlan *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_TREE(b, STEER_EARG);
    STEERA_NONNULL(out, "a steer_SeekPlan to fill", STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    if (!b || b->kind != &steerB_directed_seek) return STEER_EARG;
    steerB_Ctx c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.loc = &w->loc; // between ticks, on the calling thread
    c.host = w;
    c.d = (uint32_t)d;
    c.dt = w->dt;
    steerW_load(w->p, c.d, c.p);
    steerW_load(w->v, c.d, c.v);
    steerW_load(w->h, c.d, c.h);
    c.mass = w->mass[d];
    c.max_speed = w->max_speed[d];
    c.max_force = w->max_force[d];
    const Directed *p = (const Directed *)(const void *)b->params;
    Plan pl;
    float speed, want;
    if (!agent_plan(&c, p, &pl, &speed, &want)) return 0;
    export_plan(&pl, out);
    return 1;
}
