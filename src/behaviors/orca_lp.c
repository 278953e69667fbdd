// SPDX-License-Identifier: MIT
// orca_lp.c — the linear program of ORCA (van den Berg, Guy, Lin and
// Manocha 2011, section 5.2): the velocity nearest the preferred one
// inside the speed disc (a ball in 3D) and a list of half-spaces n.v >= d.
//
// Incremental, as Seidel's randomized algorithm but in the order given, so
// the same list gives the same bits: the best point of the first i
// half-spaces either lies in half-space i, or the best point of the first
// i + 1 lies on its boundary, a program one dimension lower over the
// half-spaces before it (a line in 2D; a plane in 3D, which itself drops
// to lines). The objective is either the point nearest a target or the
// point furthest along a direction (the fallback below needs that one).
// 2D is the 3D code on the plane z = 0: its half-planes are half-spaces
// with vertical boundaries.
//
// When no velocity meets them all, the program over (v, t) that minimises
// t subject to n.v + t >= d for every soft half-space (the hard ones as
// they are) is solved the same way: a soft half-space i that the current
// point violates by more than the current t holds the new optimum on
// t = d_i - n_i.v, where every soft half-space j before it becomes
// (n_j - n_i).v >= d_j - d_i (its violation at most i's) and the
// objective becomes the largest n_i.v: a program of the first kind, one
// dimension lower than (v, t). steerB_orca_solve_weighted weighs the
// violations (t w_i for half-space i) and may follow with a second program
// of the first kind over the soft half-spaces pushed back by a little more
// than the least violation (relax_pass).
//
// Everything is solved in units where max_speed lies in [1, 4): a power of
// two, so scaling is exact and the result does not depend on the unit, and
// no square of a relevant length can overflow or vanish. Two clamps keep
// every product finite: offsets further than 1e20 speed limits (such a
// half-space holds everywhere in the ball or nowhere), and a preferred
// velocity further than 1e8 speed limits, brought to that distance along
// its direction (so far out, the rounding of pref's direction alone can
// move the answer across the disc).
#include "orca.h"
#include "../core/vecmath.h"

#include <stdint.h>
#include <string.h>

// Unit normals whose cross product (or difference) is shorter than this are
// parallel (or equal).
#define PARALLEL 1e-5f
// How far outside a half-space (or the ball), as a fraction of the speed
// limit, a point still counts as inside it: rounding decides no more.
#define SLACK 1e-5f
// The largest offset and preferred speed kept, in speed limits (see the
// file comment).
#define FAR 1e20f
#define FAR_PREF 1e8f

// {v : n.v >= d}; n is unit, or zero for a half-space that holds everywhere.
typedef struct Half {
    float n[3];
    float d;
} Half;

typedef struct Lp {
    float r;     // the speed limit
    float slack; // SLACK * r
    float q[3];  // the target, or the (unit) direction to go furthest along
    bool along;
} Lp;

// The best point of the line o + s u (u unit) inside the ball and
// h[0..count-1], into v; false (v untouched) when there is none.
static bool lp_line(const Lp *lp, const Half *h, int count, const float o_in[3], const float u[3], float v[3])
{
    float o[3];
    v3_copy(o, o_in);
    v3_madd(o, u, -v3_dot(o, u)); // the line's point nearest the origin
    float room = lp->r * lp->r - v3_len2(o);
    if (room < -2.0f * lp->slack * lp->r) return false;
    float half = room > 0.0f ? sqrtf(room) : 0.0f, lo = -half, hi = half;
    for (int k = 0; k < count; k++) {
        float along = v3_dot(h[k].n, u), short_by = h[k].d - v3_dot(h[k].n, o);
        if (fabsf(along) < PARALLEL) {
            // the boundary runs along the line: all of it is inside or none
            if (short_by > lp->slack) return false;
            continue;
        }
        if (along > 0.0f) lo = fmaxf(lo, short_by / along);
        else hi = fminf(hi, short_by / along);
        if (lo > hi + lp->slack) return false;
    }
    float s;
    if (lo >= hi) s = 0.5f * (lo + hi); // a single point, give or take rounding
    else if (lp->along) s = v3_dot(lp->q, u) > 0.0f ? hi : lo;
    else s = fminf(fmaxf(v3_dot(lp->q, u) - v3_dot(o, u), lo), hi);
    v3_copy(v, o);
    v3_madd(v, u, s);
    return true;
}

// The best point of the boundary of `on` inside the ball and
// h[0..count-1], into v. Returns count, or the index of the first
// half-space that leaves no such point (v is then the best point for
// those before it), or -1 when the boundary misses the ball.
static int lp_plane(const Lp *lp, const Half *h, int count, const Half *on, float v[3])
{
    const float *m = on->n;
    float centre[3], e[3];
    v3_scale(centre, m, on->d); // of the circle the boundary cuts from the ball
    float rho2 = lp->r * lp->r - on->d * on->d;
    if (rho2 < -2.0f * lp->slack * lp->r) return -1;
    float rho = rho2 > 0.0f ? sqrtf(rho2) : 0.0f;
    // the best point of the circle: the target's (or direction's) part
    // along the plane, from the centre, cut to the radius
    v3_copy(e, lp->q);
    v3_madd(e, m, -v3_dot(m, lp->q));
    if (lp->along) {
        v3_normalize(e);
        v3_scale(e, e, rho);
    } else {
        v3_truncate(e, rho);
    }
    v3_add(v, centre, e);
    for (int k = 0; k < count; k++) {
        if (v3_dot(h[k].n, v) >= h[k].d) continue;
        float u[3], w[3], o[3];
        v3_cross(u, m, h[k].n);
        float u2 = v3_len2(u);
        if (u2 < PARALLEL * PARALLEL) {
            // parallel boundaries: the whole plane is inside k or outside it
            if (h[k].d - v3_dot(h[k].n, v) > lp->slack) return k;
            continue;
        }
        // where k's boundary crosses the plane: from the centre along w, the
        // plane's direction square to the line (n_k.w = |u|^2)
        v3_cross(w, u, m);
        v3_copy(o, centre);
        v3_madd(o, w, (h[k].d - v3_dot(h[k].n, centre)) / u2);
        v3_scale(u, u, 1.0f / sqrtf(u2));
        if (!lp_line(lp, h, k, o, u, v)) return k;
    }
    return count;
}

// The best point of the ball inside h[0..count-1], into v. Returns count,
// or the index of the first half-space that leaves no such point (v is
// then the best point for those before it).
static int lp_ball(const Lp *lp, const Half *h, int count, float v[3])
{
    v3_copy(v, lp->q);
    if (lp->along) v3_scale(v, v, lp->r);
    else v3_truncate(v, lp->r);
    for (int i = 0; i < count; i++) {
        if (v3_dot(h[i].n, v) >= h[i].d) continue;
        float t[3];
        if (lp_plane(lp, h, i, &h[i], t) != i) return i;
        v3_copy(v, t);
    }
    return count;
}

static const Half FLOOR = { { 0.0f, 0.0f, 1.0f }, 0.0f }; // 2D: the plane z = 0

static int lp_solve(const Lp *lp, const Half *h, int count, int dim, float v[3])
{
    return dim == 2 ? lp_plane(lp, h, count, &FLOOR, v) : lp_ball(lp, h, count, v);
}

// v, the best point of h[0..from-1], becomes the point of the ball that
// keeps h[0..hard-1] and has the smallest largest violation of the others
// (see the file comment), each divided by its weight when `wt` is given
// (wt[k] in (0, 1]: then i's plane j becomes (n_j - (w_j / w_i) n_i).v >=
// d_j - (w_j / w_i) d_i). A sub-program that fails does so by rounding (v
// itself meets it): v is kept then.
static void least_violation(const Lp *lp, const Half *h, const float *wt, int n, int hard, int from, int dim,
                            float v[3])
{
    Half sub[STEERB_ORCA_MAX];
    memcpy(sub, h, (size_t)hard * sizeof *h);
    Lp lp_i = *lp;
    lp_i.along = true;
    float worst = 0.0f;
    for (int i = from; i < n; i++) {
        float wi = wt ? wt[i] : 1.0f;
        if ((h[i].d - v3_dot(h[i].n, v)) / wi <= worst) continue;
        int count = hard;
        for (int j = hard; j < i; j++) {
            Half *s = &sub[count];
            float rho = wt ? wt[j] / wi : 1.0f;
            if (wt) {
                v3_copy(s->n, h[j].n);
                v3_madd(s->n, h[i].n, -rho);
            } else {
                v3_sub(s->n, h[j].n, h[i].n);
            }
            float len = v3_len(s->n);
            // equal normals: j's violation, at most i's when i is taken
            // up, stays within 2 len max_speed of it in all the ball
            if (len < PARALLEL) continue;
            v3_scale(s->n, s->n, 1.0f / len);
            s->d = (h[j].d - rho * h[i].d) / len;
            count++;
        }
        v3_copy(lp_i.q, h[i].n);
        float t[3];
        if (lp_solve(&lp_i, sub, count, dim, t) == count) v3_copy(v, t);
        worst = fmaxf(worst, (h[i].d - v3_dot(h[i].n, v)) / wi);
    }
}

// After least_violation (v, largest weighted violation t* of the soft
// half-spaces, the hard ones h[0..hard-1] kept): the point nearest the
// target among those that keep the hard ones and violate no soft one k by
// more than (1 + relax[k]) t* (times its weight). least_violation's point
// is the one nearest its boundaries, and stops short of what the others
// allow.
static void relax_pass(const Lp *lp, const Half *h, const float *wt, int n, int hard, const float *relax, int dim,
                       float v[3])
{
    float worst = 0.0f;
    for (int k = hard; k < n; k++) worst = fmaxf(worst, (h[k].d - v3_dot(h[k].n, v)) / (wt ? wt[k] : 1.0f));
    Half relaxed[STEERB_ORCA_MAX];
    memcpy(relaxed, h, (size_t)n * sizeof *h);
    for (int k = hard; k < n; k++) {
        float rk = relax[k] > 0.0f ? relax[k] : 0.0f; // NaN too
        relaxed[k].d -= (worst * (1.0f + rk) + lp->slack) * (wt ? wt[k] : 1.0f);
    }
    float t[3];
    if (lp_solve(lp, relaxed, n, dim, t) == n) v3_copy(v, t);
}

// The power of two that brings x (finite, >= 0) into [1, 4) (below 1 when
// x is subnormal; 1 when x is 0).
static float unit_of(float x)
{
    if (x == 0.0f) return 1.0f;
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    int e = (int)(bits >> 23) & 0xff; // x < 2^(e - 126); 0 for subnormals
    int scale_e = 254 - (e > 0 ? e : 1);
    bits = (uint32_t)(scale_e > 0 ? scale_e : 1) << 23;
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    return scale;
}

int steerB_orca_solve(const steerB_Plane *pl, int n, int hard, float max_speed, const float pref[3], int dim,
                      float out[3])
{
    return steerB_orca_solve_weighted(pl, n, hard, NULL, NULL, max_speed, pref, dim, out);
}

int steerB_orca_solve_weighted(const steerB_Plane *pl, int n, int hard, const float *weight, const float *relax,
                               float max_speed, const float pref[3], int dim, float out[3])
{
    n = n < 0 ? 0 : n > STEERB_ORCA_MAX ? STEERB_ORCA_MAX : n;
    hard = hard < 0 ? 0 : hard > n ? n : hard;
    int axes = dim == 2 ? 2 : 3;
    float r = max_speed > 0.0f ? max_speed : 0.0f, scale = unit_of(r);

    Half h[STEERB_ORCA_MAX];
    for (int k = 0; k < n; k++) {
        float d = 0.0f;
        v3_zero(h[k].n);
        for (int a = 0; a < axes; a++) h[k].n[a] = pl[k].n[a];
        v3_normalize(h[k].n);
        for (int a = 0; a < axes; a++) d += pl[k].p[a] * h[k].n[a];
        d *= scale;
        h[k].d = d > FAR ? FAR : d < -FAR ? -FAR : d; // an overflow too
    }
    Lp lp = { .r = r * scale, .slack = SLACK * r * scale, .along = false };
    v3_zero(lp.q);
    for (int a = 0; a < axes; a++) lp.q[a] = pref[a];
    if (v3_len(lp.q) > FAR_PREF * r) {
        v3_normalize(lp.q);
        v3_scale(lp.q, lp.q, FAR_PREF * r);
    }
    v3_scale(lp.q, lp.q, scale);

    float v[3];
    int fail = lp_solve(&lp, h, n, dim, v);
    if (fail < n) {
        if (fail < hard) hard = 0; // the hard ones alone leave nothing
        least_violation(&lp, h, weight, n, hard, fail, dim, v);
        if (relax && hard > 0) relax_pass(&lp, h, weight, n, hard, relax, dim, v);
    }
    if (lp.r > 0.0f) v3_truncate(v, lp.r);
    else v3_zero(v); // a ball of one point, which an offset's underflowed square would miss
    int violated = 0;
    if (fail < n)
        for (int k = hard; k < n; k++) violated += h[k].d - v3_dot(h[k].n, v) > 1e-4f * scale;
    v3_scale(out, v, 1.0f / scale);
    if (axes == 2) out[2] = 0.0f;
    return violated;
}
