// SPDX-License-Identifier: MIT
// par.h — running a pass on the world's worker threads.
//
// A pass splits its work into items (agent ranges, cell ranges) and hands
// them to steerP_run, which runs them on the host's job system or the
// built-in pool. Each worker runs its items on its own copy of the world
// struct (same columns, its own steerW_Local), so a pass writes only the
// rows of its own agents and its worker's scratch. The result of a pass
// must not depend on which worker ran which item, nor on how many items
// there are: that is what makes the trajectory the same for any number of
// threads.
//
// The rule is in the types (Box2D's b2TaskContext): an item function gets
// the world as const and its worker's steerW_Local apart, so a write to
// the world's own fields (a count, a flag, a capacity) from a worker, which
// would land in a copy and vanish, fails to compile. The columns' rows stay
// writable through the struct's pointers: each item writes its own agents'.
#ifndef STEER_PAR_H
#define STEER_PAR_H

#include "world.h"

// One item of a pass: `w` the worker's read-only view of the world, `loc`
// that worker's scratch (neighbour lists, found shapes, events, status,
// error message: what it may write besides its agents' rows).
typedef void steerP_ItemFn(const steer_World *w, steerW_Local *loc, uint32_t item, void *ctx);

// Run fn over items [0, nitems). Serially on w itself when the world has
// one thread or there is one item; otherwise on up to w->threads workers,
// w itself being worker 0 (the calling thread). Afterwards the workers'
// events are w's, and the first failure any worker noted (steerW_Local
// status) is returned with its message in w->error. Between ticks too
// (a host query that rebuilds the grid).
int steerP_run(steer_World *w, uint32_t nitems, steerP_ItemFn *fn, void *ctx);
// Agents per item of a pass: below twice this a pass stays on the calling
// thread (splitting a small world costs more than it gains). The
// environment variable STEER_PAR_GRAIN sets another for worlds made after
// (tests split small worlds with it, so the parallel passes run on them).
#define STEERP_GRAIN 2048
// The most items a pass splits into: a few per worker, so that a worker
// that meets denser cells does not hold the others up.
#define STEERP_MAX_ITEMS (4 * STEER_MAX_THREADS)
// How many items a pass over n agents splits into (1: serial).
static inline uint32_t steerP_items(const steer_World *w, uint32_t n)
{
    uint32_t k = n / w->grain, most = 4 * (uint32_t)w->threads;
    if (w->threads <= 1 || k < 2) return 1;
    return k < most ? k : most;
}
// Split [0, n) into `parts` ranges as even as can be: the start of part k.
static inline uint32_t steerP_part(uint32_t n, uint32_t parts, uint32_t k)
{
    return (uint32_t)(((uint64_t)n * k) / parts);
}
// Workers 1 and up each get `words` words of steerW_Local tmp, before a
// pass that needs them (false: out of memory, run the pass serially).
bool steerP_reserve(steer_World *w, uint32_t words);
// Free the pool (joining its threads) and the workers' scratch.
void steerP_free(steer_World *w);
// steerW_swap's part: the threads, the pool and the workers' scratch stay
// with the world struct they belong to.
void steerP_swap(steer_World *a, steer_World *b);

#endif
