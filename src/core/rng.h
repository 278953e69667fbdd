// SPDX-License-Identifier: MIT
// rng.h — the engine's random streams. The world owns a 64-bit stream
// (splitmix64 to seed, xorshift64* to draw); every agent owns a xorshift32
// stream so behaviours can draw without touching shared state, which keeps
// the steer pass independent of agent order and thread count.
#ifndef STEER_RNG_H
#define STEER_RNG_H

#include <stdint.h>

static inline uint64_t steer_splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint64_t steer_rng64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}
static inline uint32_t steer_rng32(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}
// Uniform in [0, 1) from 24 bits, as docs/benchmarks.md specifies. (The 24 bits are
// converted as a signed integer: the same value, and a conversion that
// vector loops have, so loops drawing from many streams vectorise.)
static inline float steer_rng32_unit(uint32_t *s)
{
    return (float)(int32_t)(steer_rng32(s) >> 8) * (1.0f / 16777216.0f);
}
static inline double steer_rng64_unit(uint64_t *s)
{
    return (double)(steer_rng64(s) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
