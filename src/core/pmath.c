// SPDX-License-Identifier: MIT
// pmath.c — portable sin, cos, atan2, asin, acos and roots (see pmath.h).
//
// Every function here uses only + - * / and sqrt on doubles, integer
// arithmetic and bit copies, so IEEE 754 gives one result everywhere. The
// polynomials are Taylor series taken far enough that their truncation
// error (below 1e-11 relative) is negligible next to float's rounding: the
// double result, rounded once to float, is within an ulp of the true value.
#include "pmath.h"

#include <float.h>
#include <math.h> // fabs, sqrt, signbit, NAN: exact everywhere
#include <stdint.h>
#include <string.h>

#define PI 0x1.921fb54442d18p+1
#define PI_2 0x1.921fb54442d18p+0

// ---- sin and cos ---------------------------------------------------------
//
// x = n * pi/2 + r with |r| <= pi/4 (about), then a polynomial in r by
// the quadrant n mod 4.

// sin r and cos r for |r| <= pi/4: the Taylor terms through r^13 and r^14.
static double sin_poly(double r)
{
    double z = r * r;
    return r + r * z *
                   (-1.0 / 6 +
                    z * (1.0 / 120 +
                         z * (-1.0 / 5040 + z * (1.0 / 362880 + z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0))))));
}
static double cos_poly(double r)
{
    double z = r * r;
    return 1.0 +
           z * (-1.0 / 2 +
                z * (1.0 / 24 +
                     z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800 + z * (1.0 / 479001600.0 +
                                                                                     z * (-1.0 / 87178291200.0)))))));
}

// 2/pi in binary: word j holds bits 32j+1 .. 32j+32 after the point, enough
// for the largest float (2^127 needs bits down to about 2^-200).
static const uint32_t two_over_pi[7] = { 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0,
                                         0xdb629599, 0x3c439041, 0xfe5163ab };
// floor(2/pi * 2^k) mod 2^32, for 32 <= k < 224
static uint64_t bits_2_pi(int k)
{
    int q = k / 32, s = k % 32;
    uint64_t pair = (uint64_t)two_over_pi[q - 1] << 32 | two_over_pi[q];
    return (uint32_t)(pair >> (32 - s));
}

// |x| >= 2^28 (Payne and Hanek's reduction in integers): x = m * 2^(e-23)
// with a 24-bit m, so x * 2/pi * 2^62 mod 2^64 is m times 96 bits of
// 2/pi * 2^(e+39) (higher bits only add multiples of 4 quadrants), a
// fixed-point number with 2 bits of quadrant and 62 of fraction. No float
// lies closer to a multiple of pi/2 than about 2^-29 relative, so the
// fraction keeps over 30 significant bits: plenty for a float.
static double reduce_large(float x, int *quadrant)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    uint64_t m = (u & 0x7fffff) | 0x800000;
    int k = (int)((u >> 23) & 0xff) - 127 + 39;
    uint64_t q = ((m * bits_2_pi(k - 32)) << 32) + m * bits_2_pi(k) + ((m * bits_2_pi(k + 32)) >> 32);
    uint64_t n = (q + (1ull << 61)) >> 62;
    int64_t f = (int64_t)(q - (n << 62));
    double r = (double)f * 0x1.921fb54442d18p-62; // f * pi/2 / 2^62
    *quadrant = (int)(n & 3);
    if (x < 0) {
        r = -r;
        *quadrant = (4 - *quadrant) & 3;
    }
    return r;
}

// n and r for any finite x. Below 2^28, n = nearest integer to x * 2/pi
// (< 2^28), and pi/2 in two parts (25 + 53 bits) makes n * pi/2 exact
// enough: n times the 25-bit part is exact and cancels against x exactly.
static double reduce(float x, int *quadrant)
{
    double d = x;
    if (!(fabs(d) < 0x1p28)) return reduce_large(x, quadrant);
    double n = (d * 0x1.45f306dc9c883p-1 + 0x1.8p52) - 0x1.8p52; // round to nearest
    *quadrant = (int)((int64_t)n & 3);
    return (d - n * 0x1.921fb5p+0) - n * 0x1.110b4611a6263p-26;
}

void steerM_sincosf(float x, float *s, float *c)
{
    if (!(fabsf(x) <= FLT_MAX)) {
        *s = *c = x - x;
        return;
    } // NaN, or infinity: NaN
    // below 2^-12, sin x rounds to x (and keeps the sign of a zero), cos x to 1
    if (fabsf(x) < 0x1p-12f) {
        *s = x;
        *c = 1.0f;
        return;
    }
    int n;
    double r = reduce(x, &n), sr = sin_poly(r), cr = cos_poly(r);
    switch (n) {
    case 0:
        *s = (float)sr;
        *c = (float)cr;
        break;
    case 1:
        *s = (float)cr;
        *c = (float)-sr;
        break;
    case 2:
        *s = (float)-sr;
        *c = (float)-cr;
        break;
    default:
        *s = (float)-cr;
        *c = (float)sr;
        break;
    }
}

float steerM_sinf(float x)
{
    float s, c;
    steerM_sincosf(x, &s, &c);
    return s;
}

float steerM_cosf(float x)
{
    float s, c;
    steerM_sincosf(x, &s, &c);
    return c;
}

// ---- atan2, asin, acos ---------------------------------------------------

// atan t for 0 <= t <= 1: two halvings of the angle, atan t =
// 2 atan(t / (1 + sqrt(1 + t^2))), bring t below tan(pi/16) = 0.199, where
// the series through t^15 is good to 1e-13.
static double atan01(double t)
{
    t = t / (1.0 + sqrt(1.0 + t * t));
    t = t / (1.0 + sqrt(1.0 + t * t));
    double z = t * t;
    return 4.0 * (t + t * z *
                          (-1.0 / 3 +
                           z * (1.0 / 5 +
                                z * (-1.0 / 7 + z * (1.0 / 9 + z * (-1.0 / 11 + z * (1.0 / 13 + z * (-1.0 / 15))))))));
}

// atan2 in double for numbers that are not NaN, with C's signs and
// quadrants: the smaller magnitude over the larger, then reflections.
static double atan2_d(double y, double x)
{
    double ax = fabs(x), ay = fabs(y);
    int steep = ay > ax;
    double lo = steep ? ax : ay, hi = steep ? ay : ax;
    double t = hi == 0.0 ? 0.0 : hi > DBL_MAX ? (lo > DBL_MAX ? 1.0 : 0.0) : lo / hi;
    double a = atan01(t);
    if (steep) a = PI_2 - a;
    if (signbit(x)) a = PI - a;
    return signbit(y) ? -a : a;
}

float steerM_atan2f(float y, float x)
{
    if (isnan(x) || isnan(y)) return x + y;
    return (float)atan2_d(y, x);
}

// sqrt(1 - x^2) as (1 - x)(1 + x): for a float x both factors and their
// product are exact in double, so asin and acos stay accurate near ±1.
float steerM_asinf(float x)
{
    double d = x;
    if (!(fabs(d) <= 1.0)) return NAN;
    return (float)atan2_d(d, sqrt((1.0 - d) * (1.0 + d)));
}

float steerM_acosf(float x)
{
    double d = x;
    if (!(fabs(d) <= 1.0)) return NAN;
    return (float)atan2_d(sqrt((1.0 - d) * (1.0 + d)), d);
}

// ---- roots ---------------------------------------------------------------

// x = m * 8^q with m in [1, 8) (from the exponent's bits), then Newton's
// iteration for m^(1/3) from a line through (1, 1) and (8, 2): the first
// guess is within 12%, six steps square the error down to the rounding's
// (a few ulps of double).
static double cbrt_pos(double x)
{
    int shift = 0;
    if (x < DBL_MIN) {
        x *= 0x1p54;
        shift = -18;
    } // subnormal: exact scaling
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    int e = (int)((u >> 52) & 0x7ff) - 1023, rem = ((e % 3) + 3) % 3, q = (e - rem) / 3 + shift;
    u = (u & 0xfffffffffffffull) | (uint64_t)(1023 + rem) << 52;
    double m, y, p;
    memcpy(&m, &u, sizeof m);
    y = 1.0 + (m - 1.0) / 7.0;
    for (int i = 0; i < 6; i++) y = (2.0 * y + m / (y * y)) / 3.0;
    u = (uint64_t)(1023 + q) << 52;
    memcpy(&p, &u, sizeof p);
    return y * p;
}

double steerM_root(double x, int n)
{
    if (n == 1 || x == 0.0 || x > DBL_MAX) return x; // 0 and infinity are their own roots
    if (!(x > 0.0)) return NAN;
    return n == 2 ? sqrt(x) : cbrt_pos(x);
}
