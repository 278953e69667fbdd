// SPDX-License-Identifier: MIT
// lpolicy.h — the mods' policy as the bindings see it: one struct that a
// host (the engine) sets on a Lua state, and that the bindings consult
// wherever a mod's rules apply. The bindings hold no rule of their own:
// whose functions run where (owners and their calls), what a state may
// spawn (quotas), change (owners of agents), use (the sandbox) and hold
// (charges), and how a long C loop lets a stop hook act (polls) are all
// answers of this struct. A state without one (a scenario, a game's own
// Lua) has no rules: nothing is refused, counted or routed.
//
// Owners. Per-agent Lua of another state than the world's own (a mod's
// think, steer.custom and ease functions, issue 20) reaches the core as
// references that carry the state's owner number (steerL_callback_ref:
// owner << STEERL_OWNER_SHIFT | the registry ref; a think: owner + 1). The
// world's hooks run owner 0's calls in the world's state and hand every
// other one to the policy of the state that made the world (think, custom,
// ease), which runs it in that owner's state under its limits with
// steerL_run_think / _custom / _ease and returns nonzero for no result (an
// error, a stopped owner, a world that is not the owner's — a copy stepped
// by the scenario —, a reference a snapshot kept without its function
// (registry part 0): no force, no easing). Without a policy, or without
// these callbacks, another owner's call gives nothing.
#ifndef STEER_LPOLICY_H
#define STEER_LPOLICY_H

#include "steer.h"
#include "lcompat.h"

#define STEERL_OWNER_SHIFT 24
#define STEERL_MAX_OWNER 127

struct steerL_World;

typedef struct steerL_Policy {
    int owner;      // this state's owner number, 1 to STEERL_MAX_OWNER (0: a world's own state)
    bool sandboxed; // what steerL_check_unsandboxed refuses: "not available to mods"
    bool own_only;  // change (set fields of, remove) only the agents spawned from this state
    // Another owner's per-agent call, made by a world this state made.
    int (*think)(void *ud, int owner, steer_World *w, steer_Agent a, double dt);
    int (*custom)(void *ud, int owner, int ref, steer_World *w, steer_Agent a, double dt, double out[3]);
    int (*ease)(void *ud, int owner, int ref, steer_World *w, double x, double *out);
    // The spawn quota: whether one more agent may be spawned here, and
    // each new one (both NULL: no quota).
    int (*may_spawn)(void *ud);
    void (*spawned)(void *ud, steer_Agent a);
    // C memory a binding's object holds outside Lua's allocator (a
    // behaviour tree, a grid, a flow field), `bytes` more or fewer, through
    // steerL_charge: counted against the state's cap; may raise past it (a
    // positive charge only).
    void (*charge)(void *ud, lua_State *L, lua_Integer bytes);
    // A look at the stop flag from a long C loop (steerL_poll); may raise.
    void (*poll)(void *ud, lua_State *L);
    // w:restore made w, a world this state made, another world in place
    // (after the exchange; w's agents are the snapshot's): the states that
    // borrow it let go of what names agents it no longer holds
    // (steerL_restored). Called in this state, not during a step.
    void (*restored)(void *ud, steer_World *w);
    void *ud;
} steerL_Policy;

// Set the policy of this state (it must outlive the state), before the
// module is opened: the worlds made (or borrowed) here keep it.
void steerL_set_policy(lua_State *L, const steerL_Policy *p);
// This state's policy, or NULL.
const steerL_Policy *steerL_policy(lua_State *L);

// This state's owner number (0 without a policy).
int steerL_owner(lua_State *L);
// A registry reference to the function at idx, as a behaviour's callback
// field stores it (with this state's owner); raises when none is left.
int steerL_callback_ref(lua_State *L, int idx, const char *fn);
// The world's own calls, in lw->L: think (the function in lw's think table,
// lw's world userdata at stack index 1), custom and ease (ref: the registry
// reference without an owner). 0, or nonzero with lw->cb_error set.
int steerL_run_think(struct steerL_World *lw, steer_Agent a, double dt);
int steerL_run_custom(struct steerL_World *lw, int ref, steer_Agent a, double dt, double out[3]);
int steerL_run_ease(struct steerL_World *lw, int ref, double x, double *out);

// Lists and vectors a binding takes are plain data: read raw (lua_rawlen,
// lua_rawgeti, lua_rawget), so no metamethod runs per element. A loop over
// a caller's data can still be long (a million points, a map of 2^24
// cells) and runs no Lua instruction, where a stop hook cannot act: such a
// loop adds its work here, and every STEERL_POLL_WORK units a C function
// is called that calls the policy's poll (a mod's look at its stop flag),
// if any: a call that a call hook (lua.c's interrupt) sees either way.
#define STEERL_POLL_WORK 4096
void steerL_poll(lua_State *L, size_t *work, size_t units);
// C memory a binding's object holds outside Lua's allocator: `bytes` more,
// or fewer when negative, charged through the policy's charge (called as
// a C function; a __gc's negative charge never raises). Without one
// nothing is counted.
void steerL_charge(lua_State *L, lua_Integer bytes);

// Whether this state's policy is a sandbox's; raise "FN: not available to
// mods (WHY)" if so.
int steerL_sandboxed(lua_State *L);
void steerL_check_unsandboxed(lua_State *L, const char *fn, const char *why);
// Raise "FN: ..." unless the agent at idx may be changed from this state
// (the policy's own_only: only the agents spawned here).
void steerL_check_owner(lua_State *L, int agent_idx, const char *fn);
// Push a world userdata for a world owned by someone else (the engine),
// under this state's policy: it never frees the world, and a sandboxed
// state may not step it, subscribe to it or change its geometry.
struct steerL_World *steerL_push_borrowed_world(lua_State *L, steer_World *w);
// The agents the world at world_idx counts as spawned from this state (for
// own_only) become these n (a restored snapshot's).
void steerL_own_agents(lua_State *L, int world_idx, const steer_Agent *agents, int n);
// After w:restore made the world at world_idx another world in place (the
// policy's `restored`, in a state that borrowed it): this state's handles
// of agents spawned later than the restored state go stale for good
// (steerL_revoke_stale), and it counts as its own (own_only) only agents
// the world still holds. The replay may spawn agents with those ids
// again: they are not this state's.
void steerL_restored(lua_State *L, int world_idx);
// Then the flow fields and trees of this state take back their place in
// the restored world (lsnaptree.c): a live field whose serial is that of a
// field the loaded brains follow takes its contents and its place (lnav.h:
// twins), and a loaded brain that is the same as a tree this state gave a
// world as a brain and still holds (its digest, and it fits: the same
// functions and fields; only one such tree) runs that tree again, its
// agents keeping their memory: so a.brain and w:same_brain find it.
void steerL_restored_twins(lua_State *L, int world_idx);

#endif
