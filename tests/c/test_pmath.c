// SPDX-License-Identifier: MIT
// test_pmath.c — the portable transcendental functions (src/core/pmath.c)
// against libm's double functions, which are far more accurate than a
// float: the largest error in ulps of float over many inputs, and the
// exact values users count on (sin 0 = 0, cos 0 = 1, atan2's axes and
// quadrants, asin ±1 = ±pi/2, no NaN from an input in range).
#include "check.h"
#include "core/pmath.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define PI_D 3.14159265358979323846

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

// |got - want| in ulps of float at want (want in double, the reference).
static double ulps(float got, double want)
{
    if (isnan(want)) return isnan(got) ? 0.0 : INFINITY;
    double a = fabs(want) < FLT_MIN ? FLT_MIN : fabs(want);
    return fabs((double)got - want) / ldexp(1.0, ilogb(a) - 23);
}

// The worst error of one function over a set of inputs, and how many
// results are not the correctly rounded float (the reference rounded).
typedef struct Worst {
    double ulps;
    float at, at2;
    long not_nearest, n;
} Worst;
static void note(Worst *w, float got, double want, float x, float x2)
{
    double e = ulps(got, want);
    w->n++;
    w->not_nearest += got != (float)want;
    if (e > w->ulps || isnan(e)) {
        w->ulps = e;
        w->at = x;
        w->at2 = x2;
    }
}

static void report(const char *what, const Worst *w, double bound)
{
    printf("    %-7s %8ld inputs: max %.3f ulp (at %.9g, %.9g); %ld not correctly rounded\n", what, w->n, w->ulps,
           (double)w->at, (double)w->at2, w->not_nearest);
    CHECK(w->ulps <= bound, "%s: %.3f ulp at %.9g, %.9g (bound %.1f)", what, w->ulps, (double)w->at, (double)w->at2,
          bound);
    CHECK(w->not_nearest * 1000 <= w->n, "%s: %ld of %ld results not correctly rounded", what, w->not_nearest, w->n);
}

static void sin_cos_at(Worst *ws, Worst *wc, float x)
{
    float s, c;
    steerM_sincosf(x, &s, &c);
    note(ws, s, sin((double)x), x, 0);
    note(wc, c, cos((double)x), x, 0);
    if (steerM_sinf(x) != s || steerM_cosf(x) != c) ws->ulps = INFINITY; // sincos must agree with the two
}

static void test_sin_cos_small(void)
{
    // every 601st float with |x| below 64 (all of the angles the engine
    // turns by), both signs: 3.7 million inputs
    Worst ws = { 0 }, wc = { 0 };
    for (uint32_t u = 0; u < 0x42800000u; u += 601) {
        sin_cos_at(&ws, &wc, from_bits(u));
        sin_cos_at(&ws, &wc, -from_bits(u));
    }
    report("sin", &ws, 1.0);
    report("cos", &wc, 1.0);
}

static void test_sin_cos_large(void)
{
#ifdef _WIN32
    // mingw-w64's sin and cos (the x87 fsin: a 66-bit pi) are no reference
    // above 64, where they are off by far more than pmath; pmath is the same
    // code everywhere, checked here against glibc on Linux, and its bits
    // against Linux's by the world hashes (tools/windows-check.sh)
    printf("    sin, cos above 64: skipped on Windows (the C library's are no reference there)\n");
    return;
#endif
    // random floats from 64 up to FLT_MAX: both range reductions
    Worst ws = { 0 }, wc = { 0 };
    for (int i = 0; i < 1000000; i++) {
        uint32_t u = 0x42800000u + (uint32_t)(test_rand64() % (0x7f800000u - 0x42800000u));
        sin_cos_at(&ws, &wc, (i & 1) ? -from_bits(u) : from_bits(u));
    }
    // the multiples of pi/2 nearest to floats, where the reduction cancels most
    static const float hard[] = { 1.5707964f,      3.1415927f,     4.7123890f,      6.2831855f,
                                  1.0e22f,         3.37028055e12f, 0x1.921fb6p+24f, 0x1.921fb6p+27f,
                                  0x1.921fb6p+28f, 102951.68f,     8.9802831e9f };
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++) sin_cos_at(&ws, &wc, hard[i]);
    report("sin", &ws, 1.0);
    report("cos", &wc, 1.0);
}

static void test_sin_cos_exact(void)
{
    float s, c;
    steerM_sincosf(0.0f, &s, &c);
    CHECK(s == 0.0f && !signbit(s) && c == 1.0f, "sincos(0) = %g, %g", (double)s, (double)c);
    steerM_sincosf(-0.0f, &s, &c);
    CHECK(s == 0.0f && signbit(s) && c == 1.0f, "sincos(-0) = %g, %g (sin keeps the sign)", (double)s, (double)c);
    CHECK(steerM_sinf(1e-30f) == 1e-30f, "sin of a tiny x is x");
    CHECK(steerM_sinf((float)(PI_D / 2)) == 1.0f, "sin(pi/2) = %.9g", (double)steerM_sinf((float)(PI_D / 2)));
    CHECK(steerM_cosf((float)PI_D) == -1.0f, "cos(pi) = %.9g", (double)steerM_cosf((float)PI_D));
    CHECK(steerM_sinf((float)(PI_D / 6)) == 0.5f, "sin(pi/6) = %.9g", (double)steerM_sinf((float)(PI_D / 6)));
    // bounded and not NaN for every finite input; NaN for NaN and infinities
    for (uint32_t u = 0; u < 0x7f800000u; u += 4099) {
        float x = from_bits(u);
        steerM_sincosf(x, &s, &c);
        if (!(fabsf(s) <= 1.0f && fabsf(c) <= 1.0f)) {
            CHECK(0, "sincos(%.9g) = %g, %g", (double)x, (double)s, (double)c);
            break;
        }
    }
    CHECK(isnan(steerM_sinf(NAN)) && isnan(steerM_cosf(INFINITY)) && isnan(steerM_sinf(-INFINITY)), "NaN");
}

static void test_atan2(void)
{
    Worst w = { 0 };
    for (int i = 0; i < 2000000; i++) {
        // magnitudes over the whole float range, and near each other
        float y = (float)ldexp(test_uniform(-1, 1), (int)(test_rand64() % 60) - 30);
        float x = (i & 3) ? (float)ldexp(test_uniform(-1, 1), (int)(test_rand64() % 60) - 30)
                          : y * (float)test_uniform(-2, 2);
        note(&w, steerM_atan2f(y, x), atan2((double)y, (double)x), y, x);
    }
    for (uint32_t u = 0; u < 0x7f800000u; u += 65537) { // y/x over all exponents
        float t = from_bits(u);
        note(&w, steerM_atan2f(t, 1.0f), atan2((double)t, 1.0), t, 1);
        note(&w, steerM_atan2f(-1.0f, t), atan2(-1.0, (double)t), -1, t);
        note(&w, steerM_atan2f(FLT_MAX, t), atan2(FLT_MAX, (double)t), FLT_MAX, t);
    }
    report("atan2", &w, 1.0);
    // the axes and the quadrants, as C's atan2 defines them
    const float pi = (float)PI_D, pi_2 = (float)(PI_D / 2), pi_4 = (float)(PI_D / 4);
    static const float in[][2] = { { 0, 1 },
                                   { 0, -1 },
                                   { -0.0f, 1 },
                                   { -0.0f, -1 },
                                   { 1, 0 },
                                   { -1, 0 },
                                   { 0, 0 },
                                   { 0, -0.0f },
                                   { -0.0f, -0.0f },
                                   { 1, 1 },
                                   { 1, -1 },
                                   { -1, -1 },
                                   { -1, 1 },
                                   { INFINITY, 5 },
                                   { 5, -INFINITY },
                                   { INFINITY, INFINITY },
                                   { -INFINITY, -INFINITY },
                                   { 3, 4 } };
    const float out[] = { 0,    pi,       -0.0f,     -pi,   pi_2, -pi_2, 0,    pi,        -pi,
                          pi_4, 3 * pi_4, -3 * pi_4, -pi_4, pi_2, pi,    pi_4, -3 * pi_4, (float)atan2(3.0, 4.0) };
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
        float got = steerM_atan2f(in[i][0], in[i][1]);
        CHECK(got == out[i] && signbit(got) == signbit(out[i]), "atan2(%g, %g) = %.9g, expected %.9g", (double)in[i][0],
              (double)in[i][1], (double)got, (double)out[i]);
    }
    CHECK(isnan(steerM_atan2f(NAN, 1)) && isnan(steerM_atan2f(1, NAN)), "atan2 with a NaN");
}

static void test_asin_acos(void)
{
    Worst ws = { 0 }, wc = { 0 };
    for (uint32_t u = 0; u <= 0x3f800000u; u += 1301) { // every 1301st float in [0, 1], both signs
        float x = from_bits(u);
        note(&ws, steerM_asinf(x), asin((double)x), x, 0);
        note(&ws, steerM_asinf(-x), asin(-(double)x), -x, 0);
        note(&wc, steerM_acosf(x), acos((double)x), x, 0);
        note(&wc, steerM_acosf(-x), acos(-(double)x), -x, 0);
    }
    report("asin", &ws, 1.0);
    report("acos", &wc, 1.0);
    CHECK(steerM_asinf(1) == (float)(PI_D / 2) && steerM_asinf(-1) == -(float)(PI_D / 2), "asin(±1) = ±pi/2");
    CHECK(steerM_asinf(0) == 0 && signbit(steerM_asinf(-0.0f)), "asin(±0) = ±0");
    CHECK(steerM_acosf(1) == 0 && steerM_acosf(-1) == (float)PI_D && steerM_acosf(0) == (float)(PI_D / 2),
          "acos(1) = 0, acos(-1) = pi, acos(0) = pi/2");
    CHECK(steerM_asinf(0.5f) == (float)(PI_D / 6), "asin(1/2) = pi/6");
    CHECK(isnan(steerM_asinf(1.0000001f)) && isnan(steerM_acosf(-2)) && isnan(steerM_asinf(NAN)),
          "outside [-1, 1]: NaN, as C's asin");
}

static void test_root(void)
{
    double worst = 0, at = 0;
    for (int i = 0; i < 200000; i++) {
        double x = ldexp(test_uniform(0.5, 1), (int)(test_rand64() % 2100) - 1070);
        double want = cbrt(x), got = steerM_root(x, 3);
        double e = fabs(got - want) / want;
        if (e > worst) {
            worst = e;
            at = x;
        }
    }
    printf("    cbrt: max relative error %.3g (at %.17g)\n", worst, at);
    CHECK(worst <= 0x1p-50, "cube root: relative error %g at %.17g", worst, at);
    CHECK(steerM_root(27, 3) == 3 && steerM_root(8e-300, 3) == 2e-100 && steerM_root(64, 3) == 4, "exact cubes");
    CHECK(steerM_root(4.0 * 1000 + 64, 2) == sqrt(4064.0) && steerM_root(5, 1) == 5, "n = 2: sqrt; n = 1: x");
    CHECK(steerM_root(0, 3) == 0 && steerM_root(INFINITY, 3) == INFINITY && isnan(steerM_root(-1, 3)), "0, inf, < 0");
}

int main(void)
{
    RUN(test_sin_cos_small);
    RUN(test_sin_cos_large);
    RUN(test_sin_cos_exact);
    RUN(test_atan2);
    RUN(test_asin_acos);
    RUN(test_root);
    return check_report_("pmath");
}
