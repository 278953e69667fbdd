// SPDX-License-Identifier: MIT
// fused.h — the hand-optimised fused C loop for BENCH.md's standard flocking
// workload, run in the same process as the engine so the two figures are
// compared under the same machine load.
#ifndef STEER_BENCH_FUSED_H
#define STEER_BENCH_FUSED_H

#include <stdint.h>

typedef struct fused_Stats {
    double median_ms, min_ms, max_ms, mean_neighbors, mean_speed;
} fused_Stats;

/* Runs the standard flocking workload with n agents: 20 warm-up ticks, then
   `ticks` timed ticks (each timed with clock_gettime(CLOCK_MONOTONIC)),
   returns the stats; mean_neighbors and mean_speed are measured on the state
   after the last tick (mean neighbour count within radius 5, mean |v|).
   Returns 0 on success, -1 on allocation failure (or n < 1, ticks < 0). */
int fused_flock_run(int n, int ticks, fused_Stats *out);

#endif
