// SPDX-License-Identifier: MIT
// vecmath.h — small inline vector helpers on float[3]. 2D worlds keep z = 0,
// so one code path serves both dimensions. Every helper that divides guards
// the zero vector: the engine never manufactures NaN from coincident agents.
#ifndef STEER_VECMATH_H
#define STEER_VECMATH_H

#include "pmath.h"

#include <float.h>
#include <math.h>

#define STEER_EPS2 1e-16f

// The rare paths (vectors whose squared length overflows) stay out of line
// so that the common ones inline small.
#if defined(__GNUC__)
#define STEER_COLD __attribute__((cold, noinline))
#else
#define STEER_COLD
#endif

static inline void v3_set(float o[3], float x, float y, float z)
{
    o[0] = x;
    o[1] = y;
    o[2] = z;
}
static inline void v3_copy(float o[3], const float a[3])
{
    o[0] = a[0];
    o[1] = a[1];
    o[2] = a[2];
}
static inline void v3_zero(float o[3]) { o[0] = o[1] = o[2] = 0.0f; }
static inline void v3_add(float o[3], const float a[3], const float b[3])
{
    o[0] = a[0] + b[0];
    o[1] = a[1] + b[1];
    o[2] = a[2] + b[2];
}
static inline void v3_sub(float o[3], const float a[3], const float b[3])
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}
static inline void v3_scale(float o[3], const float a[3], float s)
{
    o[0] = a[0] * s;
    o[1] = a[1] * s;
    o[2] = a[2] * s;
}
static inline void v3_madd(float o[3], const float a[3], float s)
{
    o[0] += a[0] * s;
    o[1] += a[1] * s;
    o[2] += a[2] * s;
}
static inline float v3_dot(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static inline float v3_len2(const float a[3]) { return v3_dot(a, a); }
// The length of a vector whose squared length overflows (a component above
// about 1.8e19: an agent parked at 1e30): scaled down by its largest
// component first, so the length is finite whenever it fits a float.
STEER_COLD static float v3_len_big(const float a[3])
{
    float m = fmaxf(fabsf(a[0]), fmaxf(fabsf(a[1]), fabsf(a[2])));
    if (!(m <= FLT_MAX)) return INFINITY;
    float b[3] = { a[0] / m, a[1] / m, a[2] / m };
    return sqrtf(v3_len2(b)) * m;
}
static inline float v3_len(const float a[3])
{
    float l2 = v3_len2(a);
    return l2 > FLT_MAX ? v3_len_big(a) : sqrtf(l2);
}
static inline void v3_cross(float o[3], const float a[3], const float b[3])
{
    float x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    o[0] = x;
    o[1] = y;
    o[2] = z;
}
// v3_normalize's rare cases: a (near) zero vector becomes zero and 0 is
// returned; one whose squared length overflows (a component above about
// 1.8e19) is scaled down by its largest component first; one that is not
// finite becomes zero and 0 is returned.
STEER_COLD static float v3_normalize_rare(float a[3], float l2)
{
    float m = fmaxf(fabsf(a[0]), fmaxf(fabsf(a[1]), fabsf(a[2])));
    if (l2 <= STEER_EPS2 || !(m <= FLT_MAX)) {
        v3_zero(a);
        return 0.0f;
    }
    v3_scale(a, a, 1.0f / m);
    float l = sqrtf(v3_len2(a));
    v3_scale(a, a, 1.0f / l);
    return l * m;
}
// Normalise in place; a (near) zero vector becomes zero and 0 is returned.
static inline float v3_normalize(float a[3])
{
    float l2 = v3_len2(a);
    if (l2 <= STEER_EPS2 || l2 > FLT_MAX) return v3_normalize_rare(a, l2);
    float l = sqrtf(l2);
    v3_scale(a, a, 1.0f / l);
    return l;
}
// v3_truncate's rare cases: a zero or negative max, a squared length that overflows.
STEER_COLD static void v3_truncate_rare(float a[3], float l2, float max)
{
    if (max <= 0.0f) {
        v3_zero(a);
        return;
    }
    v3_normalize_rare(a, l2); // overflowed: max / sqrt(l2) would be 0
    v3_scale(a, a, max);
}
// Shorten to at most `max` (a zero or negative max gives zero). Whether a
// force gets cut is close to a coin toss (a blend's output sits at
// max_force, give or take a rounding), so the common case selects the
// factor instead of branching; a factor of 1 leaves a exactly as it was.
static inline void v3_truncate(float a[3], float max)
{
    float l2 = v3_len2(a), m2 = max * max;
    if (l2 > m2 && (max <= 0.0f || l2 > FLT_MAX)) {
        v3_truncate_rare(a, l2, max);
        return;
    }
    float q = max / sqrtf(l2);
    v3_scale(a, a, l2 > m2 ? q : 1.0f);
}
// a minus its component along unit u, normalised into o; returns the
// length before normalising (0 and a zero vector when a is along u).
static inline float v3_perp_to(float o[3], const float a[3], const float u[3])
{
    float t[3];
    v3_copy(t, a);
    v3_madd(t, u, -v3_dot(a, u));
    float l = v3_normalize(t);
    v3_copy(o, t);
    return l;
}

// The perpendicular frame of a heading, built one way everywhere (the
// behaviours' steerB_frame, the whiskers, wander, the constraint's arcs,
// the craft's turn): in 2D the side is the heading's left (its normal in
// the XY plane, as long as the heading) and up is +z; in 3D the side is
// the world's up (+z) x h normalised, or h x y when h is vertical, and up
// is h x side.

// a turned a quarter counter-clockwise in the XY plane (2D: its left).
static inline void v3_left(float o[3], const float a[3]) { v3_set(o, -a[1], a[0], 0.0f); }

// The 3D side of heading h (see above); returns its length before
// normalising, 0 (and a zero side) when h is zero.
static inline float v3_side3(float side[3], const float h[3])
{
    float ref[3] = { 0.0f, 0.0f, 1.0f };
    v3_cross(side, ref, h);
    float l = v3_normalize(side);
    if (l != 0.0f) return l;
    v3_set(ref, 0.0f, 1.0f, 0.0f);
    v3_cross(side, h, ref);
    return v3_normalize(side);
}

// The side of heading h in a world of `dim` dimensions.
static inline void v3_side(float side[3], int dim, const float h[3])
{
    if (dim == 2) v3_left(side, h);
    else v3_side3(side, h);
}

// The frame (side, up) of heading h in a world of `dim` dimensions.
static inline void v3_frame(float side[3], float up[3], int dim, const float h[3])
{
    v3_side(side, dim, h);
    if (dim == 2) v3_set(up, 0.0f, 0.0f, 1.0f);
    else v3_cross(up, h, side);
}

// One test for all three components: an infinity or NaN anywhere makes
// the product with zero a NaN, which compares unequal to zero.
static inline int v3_finite(const float a[3]) { return (a[0] + a[1] + a[2]) * 0.0f == 0.0f; }

// Turn unit vector h toward the direction of `want` by at most max_angle
// radians, in the plane of the two, into o (unit). A want straight behind
// turns toward `side` (unit, perpendicular to h); a zero want keeps h.
// Returns the angle turned.
static inline float v3_turn_toward(float o[3], const float h[3], const float want[3], float max_angle,
                                   const float side[3])
{
    float along = v3_dot(want, h), e[3];
    v3_copy(e, want);
    v3_madd(e, h, -along);
    float across = v3_normalize(e);
    if (across <= 1e-6f * fabsf(along) || across == 0.0f) {
        if (!(along < 0.0f)) {
            v3_copy(o, h);
            return 0.0f;
        }
        v3_copy(e, side);
        across = 0.0f;
    }
    float angle = steerM_atan2f(across, along);
    float step = angle < max_angle ? angle : max_angle;
    v3_scale(o, h, steerM_cosf(step));
    v3_madd(o, e, steerM_sinf(step));
    if (v3_normalize(o) == 0.0f) v3_copy(o, h);
    return step;
}

#endif
