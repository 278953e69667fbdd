// SPDX-License-Identifier: MIT
// lsnapint.h — what the two halves of the Lua snapshot share: lsnapshot.c
// (the string's layout, w:save, steer.load, w:restore) and lsnaptree.c
// (the trees as the binding sees them: their walk and digests, the
// answers to the core's snapshot hooks, adopting named trees,
// w:same_brain, the Lua helper and the byte boxes). lsnapshot.c calls
// lsnaptree.c, never the other way.
#ifndef STEER_LSNAPINT_H
#define STEER_LSNAPINT_H

#include "lsnapshot.h"
#include "../behaviors/exports.h"
#include "../core/bytes.h"

// A walk of trees in post-order, each node once (seen: node -> its index).
typedef struct steerL_Walk steerL_Walk;
struct steerL_Walk {
    lua_State *L;
    void (*visit)(steerL_Walk *wk, steer_Behavior *b);
    int seen;               // node -> its post-order index
    steer_Behavior *root;   // the tree being walked
    lua_Integer node;       // post-order index of the next node (1-based)
    int a, b, c, d, e;      // stack indices the visit uses
    steerS_Writer *out;     // digest
    steer_Behavior **roots; // the extra trees (a.data's), walked after the brains
    int nroots;
};
void steerL_snap_walk(steerL_Walk *wk, steer_Behavior *b);

// A reference of another Lua state (a mod's function: an owner above
// STEERL_OWNER_SHIFT) is none of this state's: a save keeps its owner and
// writes no function of it (registry part 0: patch_visit), which a load
// keeps as it is (load_visit), and the owner's route gives nothing for it
// (no force, no easing): a load never binds it to whatever that number
// names in a new state.
static inline bool steerL_snap_foreign(int32_t ref) { return ref >> STEERL_OWNER_SHIFT != 0; }

// The k of the function on top (which it takes): fn_index's tables a
// (function -> k), b (k -> function), c (k -> where it is first used), d
// (k -> the tree it is first found in).
lua_Integer steerL_snap_fn_index(steerL_Walk *wk, const char *use);

// A save: k for a callback's function (fn_index's tables a to d), the
// place in e (the flow fields, light userdata) for a flow field.
typedef struct steerL_SaveRefs {
    lua_State *L;
    steerL_Walk *wk;
    const steer_Ref *r;
    uint32_t out;
    char error[200];
} steerL_SaveRefs;

// A load: the function k names (a), its ref made once per k (b, the
// holder's list c), the flow field a number names: `flows` maps it (or,
// for a snapshot older than resource fields, the node's place) to a
// {grid, field} pair into `grids`, the rebuilt grids' lists of fields.
typedef struct steerL_LoadRefs {
    lua_State *L;
    int a, b, c, flows, grids;
    const steer_Ref *r;
    uint32_t in;
    int ref;
    const steerN_Flow *flow;
    char error[200];
} steerL_LoadRefs;

// digest(behaviour) -> string and tree_fns(behaviour) -> its functions: the
// Lua helper's arguments.
int steerL_snap_digest(lua_State *L);
int steerL_snap_tree_fns(lua_State *L);
// Every node of b's tree into the set at `set` (node -> true).
void steerL_snap_mark_nodes(lua_State *L, int set, steer_Behavior *b);
// A loaded brain takes back the tree a name still holds (see lsnaptree.c).
void steerL_snap_adopt(lua_State *L, steer_World *w, int section, int trees, int brains, int names);
// After an in-place restore of the world at world_idx: a loaded brain (or
// one this state has no value of) takes back the one tree this state gave
// a world as a brain, still holds and the world does not run that is the
// same as it (its digest, and it fits), its agents keeping their memory.
void steerL_snap_adopt_kept(lua_State *L, int world_idx, const char *fn);

// A byte box (memory a raise cannot leak) on top; function `name` of the
// Lua helper (lua/steer/snapshot.lua, made once per state) pushed; the
// byte boxes' metatable, made once by steerL_open_snapshot.
steerS_Writer *steerL_snap_bytes(lua_State *L);
void steerL_snap_helper(lua_State *L, const char *name);
void steerL_open_snaptree(lua_State *L);

#endif
