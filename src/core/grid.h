// SPDX-License-Identifier: MIT
// grid.h — the spatial grid of the agents (grid.c): built by a counting
// sort each tick, read as neighbourhood blocks and gathered lists.
#ifndef STEER_GRID_H
#define STEER_GRID_H

#include "world.h"

// Grid (grid.c)
int steerG_build(steer_World *w, float cell);
// A host query's neighbours (steer_world_neighbors, steer_raycast): the
// agents within radius of p into w->loc.scratch, on the grid of the current
// positions (compacting and rebuilding it first when the host changed
// anything since); the count, or -1 when out of memory. Between ticks.
int steerG_query(steer_World *w, const float p[3], float radius);
void steerG_free(steer_World *w);
// The queries below read the grid and write only the scratch they are
// given (a worker's steerW_Local; between ticks &w->loc): an item of a
// parallel pass runs them on its read-only view of the world.
// Gather agents within radius of p (excluding dense index `self`, or
// UINT32_MAX for none) into loc->scratch; returns the count, or -1 on OOM.
int steerG_gather(const steer_World *w, steerW_Local *loc, const float p[3], float radius, uint32_t self);
// Describe cell c and the ring of cells around it as runs of the sorted
// grid arrays, into loc->runs. Returns 1 when done, 0 when the grid is too
// small for a ring of distinct cells (use steerG_gather), -1 on OOM.
int steerG_block(const steer_World *w, steerW_Local *loc, uint32_t c);
// The neighbour summaries of the block's agents (loc's runs) around p (excluding the
// agent at sorted grid index `slot`) for each squared radius r2[k],
// k < nslots, of the parts needs[k] (see steerB_Summary).
typedef struct steerB_Summary steerB_Summary;
// The first cell whose agents start at or after sorted index `at`.
uint32_t steerG_cell_from(const steerG_Grid *g, uint32_t at);
// Whether every cell has a block (a torus needs three cells per axis).
bool steerG_blocks_ok(const steer_World *w);
void steerG_summaries(const steer_World *w, const steerW_Local *loc, const float p[3], uint32_t slot, int nslots,
                      const float *r2, const uint8_t *needs, steerB_Summary *out);
// The same for two agents of one cell (same block): one AVX2 pass where the
// CPU has it (w->wide), with the bits of two single passes.
void steerG_summaries2(const steer_World *w, const steerW_Local *loc, const float pa[3], uint32_t sa, const float pb[3],
                       uint32_t sb, int nslots, const float *r2, const uint8_t *needs, steerB_Summary *outa,
                       steerB_Summary *outb);
// Whether the CPU has AVX2 (the two-agent pass).
bool steerG_wide_available(void);
// Keep the block's agents (loc's runs) within radius of p (excluding self) in loc->scratch.
int steerG_filter(const steer_World *w, steerW_Local *loc, const float p[3], float radius, uint32_t self);
// The same for a brain that reads only the k nearest of that list (by
// squared distance, ties to the lower handle: steerB_Kind.nearest): of
// steerG_filter's entries, to the bit and in no order of its, every one
// nearer than some bound at least the k-th smallest distance (so the k
// nearest, ties included, and maybe a few more; every one when fewer than
// k), found nearest sub-cells first (nearest.c). k at most STEERG_NEAR_K
// (more: steerG_filter's whole list).
#define STEERG_NEAR_K 64
int steerG_nearest(const steer_World *w, steerW_Local *loc, const float p[3], float radius, uint32_t self, int k);

#endif
