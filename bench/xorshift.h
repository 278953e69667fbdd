// SPDX-License-Identifier: MIT
// xorshift.h — the benchmarks' random numbers, as docs/benchmarks.md
// specifies them: xorshift32 on a uint32 state, a uniform draw from its top
// 24 bits. Plain C99 that also compiles as C++ (the peers include it).
#ifndef STEER_BENCH_XORSHIFT_H
#define STEER_BENCH_XORSHIFT_H

#include <stdint.h>

// The next raw 32-bit value of the stream *s (never 0 from a state other than 0).
static inline uint32_t bench_xs32(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

// A uniform draw in [0, 1): (x >> 8) / 2^24.
static inline double bench_unit(uint32_t *s) { return (double)(bench_xs32(s) >> 8) / 16777216.0; }

#endif
