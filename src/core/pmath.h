// SPDX-License-Identifier: MIT
// pmath.h — the transcendental functions of the simulation path, our own.
//
// libm's sinf, cosf, atan2f, asinf, acosf and pow are not the same bits on
// every platform (glibc picks an FMA variant on some x86-64 CPUs; other C
// libraries use other polynomials), so a trajectory that went through them
// would be portable only as far as its libm. These are written with + - *
// / and sqrt alone, which IEEE 754 rounds exactly everywhere (the build has
// -ffp-contract=off and no fast-math), so they give the same bits on every
// IEEE machine. They work in double and round once to float: within one
// ulp of float (almost always the correctly rounded value), exact at the
// points users check (sin 0 = 0, cos 0 = 1, atan2's axes, asin ±1 = ±pi/2).
// NaN in gives NaN out, as do asinf and acosf outside [-1, 1]; nothing else
// makes one. Not on a hot path: one call per turn or per spawn.
#ifndef STEER_PMATH_H
#define STEER_PMATH_H

float steerM_sinf(float x);
float steerM_cosf(float x);
// Both at once, one range reduction.
void steerM_sincosf(float x, float *s, float *c);
float steerM_atan2f(float y, float x);
float steerM_asinf(float x);
float steerM_acosf(float x);
// x^(1/n) for n = 1, 2 or 3 and x >= 0 (the cell size of a grid from a
// volume): x, sqrt(x) or a cube root within a few ulps of double.
double steerM_root(double x, int n);

#endif
