// SPDX-License-Identifier: MIT
// base.h — the floor of the core (base.c): memory, errors, the host's
// numbers. Calls nothing above it.
#ifndef STEER_BASE_H
#define STEER_BASE_H

#include "steer.h"
#include <stdbool.h>
#include <stddef.h>

// Memory through the world's allocator (steerA_realloc, steerA_free).
// The allocator of a world, a tree or a load whose host gave none: libc's.
void *steerA_default_alloc(void *ud, void *p, size_t size);
void *steerA_realloc(const steer_World *w, void *p, size_t size);
void steerA_free(const steer_World *w, void *p);
// Room for `need` items of `item` bytes in the array *p of capacity *cap
// (grown by doubling from `first`, contents kept); false when out of
// memory (the array is unchanged).
bool steerA_reserve(const steer_World *w, void **p, uint32_t *cap, uint32_t need, size_t item, uint32_t first);
// The per-agent arrays (the columns, the grid's copies and the tick's
// scratch) each start at another offset within a page: STEERA_STAGGER
// bytes times the slot of their pointer in the world struct. Large blocks
// all start at the same offset of a page otherwise, and a loop that reads
// one array and writes another at the same index then waits on false
// store-to-load dependencies (4K aliasing). `field` is the address of the
// array's pointer inside w.
#define STEERA_STAGGER 64
size_t steerA_stagger(const steer_World *w, const void *field);
// Resize the array at `field` to `bytes` (keeping its contents, as realloc);
// false when out of memory (the array is unchanged).
bool steerA_array_resize(steer_World *w, void *field, size_t bytes);
// Free the array at `field` and set it to NULL.
void steerA_array_free(steer_World *w, void *field);

// Set the error message (printf style) and log it.
void steerA_error(steer_World *w, const char *fmt, ...);

// The boundary: every public function checks the objects a host hands it
// before it touches them. Worlds, trees and engines begin with `lib`, the
// address of this copy's steerA_lib. A game that links libsteer.a and
// loads a plug-in built on libsteer.so holds two copies, each with its
// own steerA_lib (hidden, so never interposed): a world one copy made
// cannot be stepped by the other, whose struct may differ. A NULL object,
// or one of another copy, is refused (STEER_EARG; a getter returns its
// zero value) and steer_last_error() names the function, the argument and
// what was expected. A freed or made-up pointer cannot be told apart.
extern const char steerA_lib;
// Record that fn's argument arg was NULL (per thread); returns false.
bool steerA_refuse(const char *fn, const char *arg, const char *expected);
// Record any other refusal at the boundary (printf style, per thread).
void steerA_refuse_why(const char *fmt, ...);
// Is obj (a struct whose first member is `const void *lib`) one of ours?
bool steerA_ours(const void *obj, const char *fn, const char *arg, const char *what);
#define STEERA_GUARD(obj, what, fail)                               \
    do {                                                            \
        if (!steerA_ours((obj), __func__, #obj, what)) return fail; \
    } while (0)
#define STEERA_WORLD(w, fail) STEERA_GUARD(w, "a world from steer_world_new", fail)
#define STEERA_TREE(b, fail) STEERA_GUARD(b, "a behaviour from steer_behavior_new", fail)
// A pointer argument that may not be NULL.
#define STEERA_NONNULL(p, expected, fail)          \
    do {                                           \
        if (!(p)) {                                \
            steerA_refuse(__func__, #p, expected); \
            return fail;                           \
        }                                          \
    } while (0)

// The range of an agent's mass, max_speed, max_force and radius (the last
// three may also be 0), shared by steer_spawn, steer_agent_set_param and the
// Lua bindings' messages.
#define STEERA_PARAM_MIN 1e-6
#define STEERA_PARAM_MAX 1e30
// The one rule for a number a script or host gives (behaviour fields, the
// vehicle, the bindings' own arguments; here, on the floor, so that
// steerA_param_ok and the kinds' checks share it): within [min, max], and when min is
// 0, either 0 or at least STEERA_PARAM_MIN. A positive value below that
// would become 0 as a float, and 0 often means "the default" (the agent's
// max_speed, automatic), or a denormal that divides to infinity.
static inline bool steerB_number_ok(double v, double min, double max)
{
    return v >= min && v <= max && (v == 0 || min != 0 || v >= STEERA_PARAM_MIN);
}

// Whether v is such a number (0 too when allow_zero): steer_spawn's,
// steer_agent_set_param's and steer_agent_set_craft's one check.
bool steerA_param_ok(double v, bool allow_zero);

// The number a float was stored from, for a loader to check by the rule
// above: the world keeps 1e-6 as 9.99999997e-7 and 1e30 as
// 1.00000002e30, just outside the ranges as written. A float that is the
// rounding of an accepted bound (min, max or STEERA_PARAM_MIN) gives that
// bound, any other float itself; (float) of the result is v again. So a
// float passes steerB_number_ok(steerB_stored(v, min, max), min, max)
// exactly when some accepted number is stored as v.
double steerB_stored(float v, double min, double max);
// steerA_param_ok for a float the world stored.
bool steerA_stored_ok(float v, bool allow_zero);

#endif
