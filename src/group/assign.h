// SPDX-License-Identifier: MIT
// assign.h — formation slot assignment (issue 35): which member takes which
// slot, optimally.
//
// Given n members and m >= n slots (points in the plane), picks a distinct
// slot for every member:
//   STEERU_ASSIGN_SUM: the least total distance from members to their slots
//     (Hungarian method, shortest augmenting paths with potentials, O(n^2 m)).
//     In the plane such an assignment has no two members' straight ways to
//     their slots crossing (uncrossing two crossed ways always shortens the
//     sum), which is why formations form up without members cutting across
//     each other.
//   STEERU_ASSIGN_MAX: the least longest distance (the time the last member
//     needs, at equal speeds), and among the assignments that reach it the
//     least total (bottleneck threshold by binary search over the distances,
//     each tested by a Hopcroft-Karp matching; then the Hungarian method on
//     the distances within it).
// Deterministic: ties go to the lower slot index, the same bits on every
// machine (plain double arithmetic, no contraction). Runs when membership or
// the pattern changes, never per tick: it allocates (and says so when it
// cannot).
#ifndef STEER_GROUP_ASSIGN_H
#define STEER_GROUP_ASSIGN_H

typedef enum SteerUAssignMode { STEERU_ASSIGN_SUM = 0, STEERU_ASSIGN_MAX = 1 } SteerUAssignMode;

// Members at (mx[i], my[i]), i < n; slots at (sx[j], sy[j]), j < m; n <= m.
// Writes member i's slot to slot_of[i]. Returns 0; -1 when out of memory or
// n > m or n < 0 (slot_of untouched).
int steerU_assign(int n, const double *mx, const double *my, int m, const double *sx, const double *sy,
                  SteerUAssignMode mode, int *slot_of);

// The greedy rule of gdx-ai's SoftRoleSlotAssignmentStrategy without roles,
// for comparison (the benchmark): members in order, each takes the nearest
// slot still free. Same arguments and result.
int steerU_assign_greedy(int n, const double *mx, const double *my, int m, const double *sx, const double *sy,
                         int *slot_of);

#endif
