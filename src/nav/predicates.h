// SPDX-License-Identifier: MIT
// predicates.h — exact geometric predicates on integer points, for the
// navigation meshes (issue 32).
//
// Why integers: a mesh built from the same input must be the same mesh,
// bit for bit, on every machine a world runs on (x86-64, aarch64, Windows
// under mingw, the browser under emscripten). Floating-point orientation
// and in-circle tests round differently with FMA contraction, x87 excess
// precision or a compiler's reassociation, and a single flipped sign
// changes the triangulation. So the mesh builder snaps every coordinate to
// a fixed grid (1 mm: llround(x * 1000)) and decides everything with the
// exact tests below, which return the true sign of the determinant for any
// input within the bound.
//
// The bound: |x|, |y| <= STEERN_COORD_MAX = 2^40 (at 1 mm, about 1.1e9 m
// from the origin: far beyond any level). Differences of two coordinates
// are then below 2^41 in magnitude, orientation's products below 2^83
// (__int128), and in-circle's terms (a squared length times a 2x2
// determinant) below 2^166, which is done in 256-bit arithmetic of four
// 64-bit limbs. In-circle takes a plain __int128 path when every
// difference is below 2^30 (a 1 km mesh in mm is 2^20), where each term
// stays below 2^122; the wide path gives the same signs, only slower.
//
// __int128 is a GCC/Clang extension: gcc, clang, mingw-w64 and emscripten
// (wasm32) all have it on every target steer builds for; MSVC does not,
// and this file refuses to compile there (a port would write the 128-bit
// products with _mul128 / _umul128, or in 32-bit limbs).
#ifndef STEER_NAV_PREDICATES_H
#define STEER_NAV_PREDICATES_H

#include <stdbool.h>
#include <stdint.h>

#if !defined(__SIZEOF_INT128__)
#error "steer's navigation meshes need __int128 (gcc, clang, mingw-w64, emscripten); MSVC has none"
#endif

#define STEERN_COORD_MAX ((int64_t)1 << 40)

// True when both coordinates of p are within +-STEERN_COORD_MAX.
bool steerN_coord_ok(const int64_t p[2]);

// The sign of the signed area of triangle a b c: 1 when counter-clockwise
// (c left of a->b), -1 when clockwise, 0 when collinear.
int steerN_orient2d(const int64_t a[2], const int64_t b[2], const int64_t c[2]);

// 1 when d lies strictly inside the circle through a, b, c, -1 strictly
// outside, 0 on it — for a b c counter-clockwise (the sign flips for a
// clockwise triangle, and is 0 for any d when a b c are collinear).
int steerN_incircle(const int64_t a[2], const int64_t b[2], const int64_t c[2], const int64_t d[2]);

// True when p lies on the open segment a-b (collinear and strictly between
// the ends; a != b).
bool steerN_on_segment(const int64_t p[2], const int64_t a[2], const int64_t b[2]);

// How two closed segments a-b and c-d meet.
typedef enum steerN_Meet {
    STEERN_APART,   // no common point
    STEERN_CROSS,   // one common point, inside both (a proper crossing)
    STEERN_TOUCH,   // one common point, an end of one or both (a shared end, a T)
    STEERN_OVERLAP, // collinear, sharing more than a point
} steerN_Meet;
steerN_Meet steerN_segments_meet(const int64_t a[2], const int64_t b[2], const int64_t c[2], const int64_t d[2]);

#endif
