// SPDX-License-Identifier: MIT
// timing.h — the clock and the median the bench programs share.
#ifndef STEER_BENCH_TIMING_H
#define STEER_BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

// Seconds on the monotonic clock.
static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The median of n values (sorts them).
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return v[n / 2];
}

#endif
