// SPDX-License-Identifier: MIT
// fused.h — the hand-optimised fused C loop for the standard flocking
// workload, run in the same process as the engine so the two figures are
// compared under the same machine load.
#ifndef STEER_BENCH_FUSED_H
#define STEER_BENCH_FUSED_H

#include <stdint.h>

#define FUSED_MAX_THREADS 64

typedef struct fused_Stats {
    double median_ms, min_ms, max_ms, mean_neighbors, mean_speed;
    uint64_t hash; // of the final state's bits: the same for every thread count
} fused_Stats;

/* Runs the standard flocking workload with n agents on `threads` threads
   (1: the serial loop; more: the same loop split by hand over persistent
   pthreads, the caller being one of them): 20 warm-up ticks, then `ticks`
   timed ticks (each timed with clock_gettime(CLOCK_MONOTONIC)), returns the
   stats; mean_neighbors and mean_speed are measured on the state after the
   last tick (mean neighbour count within radius 5, mean |v|). Returns 0 on
   success, -1 on allocation failure, if threads cannot be started (or n < 1,
   ticks < 0, threads outside 1 .. FUSED_MAX_THREADS). */
int fused_flock_run(int n, int ticks, int threads, fused_Stats *out);

#endif
