// SPDX-License-Identifier: MIT
// timing.h — the clock and the median the bench programs share.
#ifndef STEER_BENCH_TIMING_H
#define STEER_BENCH_TIMING_H

#include "steer.h"

#include <stdlib.h>
#include <time.h>

// Seconds on the monotonic clock.
static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// Milliseconds on the monotonic clock.
static inline double bench_now_ms(void) { return bench_now() * 1e3; }

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The median of n values (sorts them; the mean of the middle two for even n).
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Step w `ticks` times, one tick each: the median milliseconds of a step
// (bench_median), or -1 when there is no memory for the times.
static inline double bench_step_median_ms(steer_World *w, int ticks)
{
    double *t =
        (double *)malloc(sizeof *t * (size_t)(ticks > 0 ? ticks : 1)); // the cast: the RVO2 peer includes this as C++
    if (!t) return -1;
    for (int i = 0; i < ticks; i++) {
        double t0 = bench_now_ms();
        steer_world_step(w, 1);
        t[i] = bench_now_ms() - t0;
    }
    double median = bench_median(t, ticks);
    free(t);
    return median;
}

#endif
