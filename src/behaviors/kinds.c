// SPDX-License-Identifier: MIT
// kinds.c — the one table of every behaviour and combiner kind. Dispatch,
// the C setters and the Lua constructors are all driven from it. Its rows
// are kinds.def's, which the build also reads for the files to compile:
// adding a kind is its file and its row there.
#include "behavior.h"

#define STEERB_SOURCE(path)
#define STEERB_KIND(name) extern const steerB_Kind steerB_##name;
#include "kinds.def"
#undef STEERB_KIND

#define STEERB_KIND(name) &steerB_##name,
const steerB_Kind *const steerB_kinds[] = {
#include "kinds.def"
    NULL
};
#undef STEERB_KIND

// steer_kinds(): the same rows' names (each kind's name is its row's), so
// the list has no cap of its own.
#define STEERB_KIND(name) #name,
static const char *const kind_names[] = {
#include "kinds.def"
    NULL
};
#undef STEERB_KIND

const char *const *steer_kinds(void) { return kind_names; }
