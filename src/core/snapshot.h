// SPDX-License-Identifier: MIT
// snapshot.h — what the two halves of the snapshot code share: snapshot.c
// (the format: the header, each section's writer beside its reader, the
// public calls) and snapshot_trees.c (the behaviour trees, the brains and
// the extra roots, in one pair of functions). snapshot.c calls the trees'
// pair; snapshot_trees.c calls nothing of snapshot.c.
#ifndef STEER_SNAPSHOT_H
#define STEER_SNAPSHOT_H

#include "world.h"
#include "bytes.h"

#include <string.h>

// The sections the header counts, in the header's order: each count is the
// number of entries of its section.
typedef enum steerS_Section {
    STEERS_SNAP_TAGS,     // the interned tags (id 0, untagged, is implied)
    STEERS_SNAP_NODES,    // the behaviour trees' nodes
    STEERS_SNAP_BRAINS,   // the brain ids (0, no brain, included)
    STEERS_SNAP_THINKERS, // the think timers
    STEERS_SNAP_SHAPES,   // the shape slots
    STEERS_SNAP_TURNS,    // the turn records
    STEERS_SNAP_HANDLES,  // the handle slots
    STEERS_SNAP_COLUMNS,  // the saved column arrays
    STEERS_SNAP_SECTIONS
} steerS_Section;

// A save: the staged bytes (everything but the header and the columns'
// arrays, which go to the writer straight from the world) and the counts.
typedef struct steerS_Save {
    const steer_World *w;
    steerS_Writer out; // through the world's allocator
    uint32_t count[STEERS_SNAP_SECTIONS];
    bool ref_failed; // the host's save_ref refused a reference
} steerS_Save;

// A load: the bytes, the private world being built (NULL once handed out)
// and what the trees' reader leaves for the rest.
typedef struct steerS_Load {
    steerS_Reader r; // its section names what is read: "snapshot truncated in ..."
    bool oom;
    uint32_t version;
    uint32_t count[STEERS_SNAP_SECTIONS];
    steer_World *w;
    char *str; // the last string read, NUL-terminated (world-allocated)
    size_t cap_str;
    steer_Behavior **nodes; // every node read, each holding one reference
    uint32_t nnodes;
    uint32_t *roots; // the extra roots' node indices
    uint32_t nroots;
    void **res; // the resources that decoded themselves, each holding one reference (steerS_load_end)
    const struct steerB_ResourceKind **res_kind;
    uint32_t nres, cap_res;
} steerS_Load;

// The trees section: every distinct node of the brains' trees and of the
// extra roots once, children before parents, then each brain id's root,
// then the extra roots, then (version 5) the resources attached to the
// world (steerW_attach), which the reader attaches to l->w. The writer counts STEERS_SNAP_NODES and
// STEERS_SNAP_BRAINS; the reader makes the nodes (l->nodes), compiles the
// brains at their ids and lists the extra roots (l->roots).
bool steerS_save_trees(steerS_Save *s, steer_Behavior *const *roots, uint32_t nroots);
bool steerS_load_trees(steerS_Load *l);
// Let go of what the trees' reader holds for the whole load (the load's
// references to the resources it decoded), with w's allocator.
void steerS_load_trees_end(steerS_Load *l, steer_World *w);

static inline bool steerS_load_oom(steerS_Load *l)
{
    l->oom = true;
    return steerS_fail(&l->r, "out of memory");
}

// A length-prefixed string into l->str (NUL-terminated; none inside), or
// NULL; `what` names it in the error.
static inline const char *steerS_load_str(steerS_Load *l, const char *what)
{
    uint32_t n;
    const unsigned char *p = steerS_get_str(&l->r, &n);
    if (!p) return NULL;
    if (memchr(p, 0, n)) {
        steerS_fail(&l->r, "%s holds a NUL byte", what);
        return NULL;
    }
    if ((size_t)n + 1 > l->cap_str) {
        char *s = steerA_realloc(l->w, l->str, (size_t)n + 1);
        if (!s) {
            steerS_load_oom(l);
            return NULL;
        }
        l->str = s;
        l->cap_str = (size_t)n + 1;
    }
    memcpy(l->str, p, n);
    l->str[n] = 0;
    return l->str;
}

#endif
