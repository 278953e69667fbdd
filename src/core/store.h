// SPDX-License-Identifier: MIT
// store.h — the world's agent storage (store.c): the column table and its
// arrays, growth, handles, tags, compaction, the re-sort, the state hash
// (steer_world_hash), the tick's events and the agents' scratch word.
// Above the floor (base.h), below everything else of the core.
#ifndef STEER_STORE_H
#define STEER_STORE_H

#include "world.h"

// The per-agent columns of the dense storage, listed once (steerT_columns,
// store.c): storage growth, compaction, the re-sort, the state hash and the
// byte count walk that table, so a new per-agent value is a field of
// struct steer_World (world.h) and a row there. A column is one array with
// one element per agent, one array per axis of the world (x, y and in 3D
// z: a `float *f[3]` field), or one array of rows, `stride` elements per
// agent (brain memory and records).
enum { STEERT_COL_ONE, STEERT_COL_AXES, STEERT_COL_ROW };
enum {
    STEERT_COL_STATE, // the agent's state: moves with the agent and is hashed
    STEERT_COL_KEPT,  // moves with the agent, not hashed (recomputed each tick, or bookkeeping)
    STEERT_COL_TICK   // one tick's scratch: grows with the storage once allocated, never moves
};
typedef struct steerT_Column {
    const char *name;
    size_t at;          // offsetof(steer_World, the pointer); per axis: the first of three
    size_t stride_at;   // a row column: offsetof(steer_World, its uint32_t stride)
    uint8_t size;       // bytes per element
    uint8_t shape;      // STEERT_COL_ONE / AXES / ROW
    uint8_t role;       // STEERT_COL_STATE / KEPT / TICK
    uint8_t state_bits; // a column of flag bytes: the bits that are state (0: every bit)
} steerT_Column;
extern const steerT_Column steerT_columns[];
extern const int steerT_ncolumns;
// One array of a column as the walks see it.
#define STEERT_MAX_ARRAYS 64
typedef struct steerT_Array {
    const steerT_Column *col;
    int axis;     // which of a per-axis column's arrays (0 otherwise)
    char *base;   // the array, NULL when not allocated
    size_t bytes; // bytes per agent: the element size times the row's stride (0: no row)
} steerT_Array;
// The arrays of every column in the one order all walks use (the state
// hash's): axis by axis the per-axis columns, then the others as the table
// lists them. Returns how many.
int steerT_arrays(const steer_World *w, steerT_Array out[STEERT_MAX_ARRAYS]);

// Storage between ticks (store.c): drop the agents flagged dead, keeping the
// order of the living; re-sort the columns into the order of the grid's
// items (needs a fresh grid).
void steerT_compact(steer_World *w);
void steerT_reorder(steer_World *w);
// Room in every column for `need` dense agents (the capacity doubles).
int steerT_reserve_agents(steer_World *w, uint32_t need);
// A new agent's row at dense index count, zeroed, with a free handle slot
// (or a new one) at its next generation; STEER_ENOMEM when the handle
// table cannot grow. The columns must have room (steerT_reserve_agents).
int steerT_add_agent(steer_World *w, uint32_t *out);
// Widen the per-agent memory or record stride, keeping each agent's data.
int steerT_restride(steer_World *w, float **arr, uint32_t *stride, uint32_t want);
// Free the columns, the handle table, the tags and the world's own arrays.
void steerT_store_free(steer_World *w);

// The world's scratch of one 32-bit word per agent (see agent_tmp), or NULL
// when out of memory.
uint32_t *steerT_agent_tmp(steer_World *w);
// Displacement from a to b; the minimum image on a torus.
void steerT_delta(const steer_World *w, const float a[3], const float b[3], float out[3]);
// Queue an event for the end of the tick into a worker's scratch: an item
// of a pass gives its own (par.h), the calling thread &w->loc.
void steerT_event_to(steerW_Local *loc, const steer_World *w, steer_EventType type, uint32_t d, steer_Agent other);
// Intern a tag; returns its id (0 for NULL), or STEER_ENOMEM, or STEER_EFULL
// when the world already has STEERT_MAX_TAGS distinct tags (ids are 16-bit).
#define STEERT_MAX_TAGS 65535
int steerT_tag_id(steer_World *w, const char *tag);
// Look a tag up without interning: id, 0 for NULL, -1 when unknown.
int steerT_tag_find(const steer_World *w, const char *tag);

#endif
