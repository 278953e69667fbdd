// SPDX-License-Identifier: MIT
// orca.h — the optimal reciprocal collision avoidance solve (van den Berg,
// Guy, Lin and Manocha, "Reciprocal n-body collision avoidance", 2011):
// the half-spaces of permitted velocities and the small linear program
// that picks the velocity nearest the preferred one inside all of them.
// orca_lp.c solves; reciprocal.c builds the half-spaces from neighbours,
// shapes and walls.
#ifndef STEER_ORCA_H
#define STEER_ORCA_H

#include <stdbool.h>

// A half-space of velocities {v : (v - p) . n >= 0}, n a unit vector
// (z = 0 in 2D): a half-plane in 2D.
typedef struct steerB_Plane {
    float p[3];
    float n[3];
} steerB_Plane;

// Longest list of half-spaces one solve takes (neighbours plus shapes).
#define STEERB_ORCA_MAX 64

// The velocity nearest `pref` (Euclidean) with |v| <= max_speed inside
// every half-space of pl[0..n-1], in `dim` (2 or 3) dimensions (z of every
// input is ignored and out[2] = 0 in 2D). The first `hard` half-spaces are
// hard (obstacles); the others may be violated when no velocity satisfies
// them all: then out minimises the largest violation distance of the soft
// ones while keeping the hard ones (and |v| <= max_speed). If the hard
// ones alone cannot be met within the speed limit, every half-space is
// treated as soft. Deterministic: the same inputs in the same order give
// the same bits. n <= STEERB_ORCA_MAX; pref need not lie within max_speed
// (with no half-space in the way the result is pref cut to max_speed); a
// zero normal makes a half-space that holds everywhere; max_speed <= 0
// gives zero. Finite inputs give a finite result, |out| <= max_speed.
// Returns the number of soft half-spaces (all of them when the hard ones
// were dropped) the result violates by more than 1e-4 (0 when the program
// was feasible).
int steerB_orca_solve(const steerB_Plane *pl, int n, int hard, float max_speed, const float pref[3], int dim,
                      float out[3]);
// The same with two changes to the fallback (when not every soft
// half-space can be met), for reciprocal's max_overlap. `weight` (NULL: all
// 1; else one per half-space, each in (0, 1], read for the soft ones): a
// soft half-space's violation counts divided by its weight, so the result
// minimises the largest weighted violation. `relax` (NULL: none; else one
// per half-space, each >= 0 (less counts as 0), read for the soft ones),
// with hard half-spaces kept: then a second program takes the point
// nearest `pref` that keeps the hard ones and violates no soft one k by
// more than (1 + relax[k]) times that least largest weighted violation
// (times its weight). steerB_orca_solve is this with NULL and NULL, to the
// bit.
int steerB_orca_solve_weighted(const steerB_Plane *pl, int n, int hard, const float *weight, const float *relax,
                               float max_speed, const float pref[3], int dim, float out[3]);

#endif
