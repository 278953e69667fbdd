// SPDX-License-Identifier: MIT
// lutil.h — helpers shared by the Lua bindings: argument checking with
// errors that name the function, the field and what was expected, at the
// caller's file:line; vectors taken as steer.vec or {x, y [, z]}.
#ifndef STEER_LUTIL_H
#define STEER_LUTIL_H

#include "steer.h"
#include "../nav/layers.h"
#include "lcompat.h"

#define STEERL_VEC "steer.vec"
#define STEERL_WORLD "steer.world"
#define STEERL_AGENT "steer.agent"
#define STEERL_BEHAVIOR "steer.behavior"
#define STEERL_ARCHETYPE "steer.archetype"

typedef struct steerL_World {
    steer_World *w;
    lua_State *L; // main thread, for host callbacks during a tick
    int dim;
    char cb_error[512]; // first callback error of the running step
    bool stepping;      // inside w:step (callbacks may not step again)
    bool in_pass;       // inside a custom behaviour or ease function: read-only world
    // A mod's view of the engine's world (steerL_push_borrowed_world): the
    // world belongs to the engine, so this userdata never frees it, and the
    // mod may not step it, subscribe to it or change its geometry.
    bool borrowed;
    // A mod that may change (set fields of, remove) only the agents it
    // spawned: the user value's "owned" set lists them.
    bool own_only;
    // Spawn quota of a mod: `may_spawn` says whether one more agent is
    // allowed, `spawned` is told each new agent (both NULL: no quota).
    int (*may_spawn)(void *ud);
    void (*spawned)(void *ud, steer_Agent a);
    void *quota_ud;
    // The grids attached by w:add_grid, for a viewer (steer_lua_nav); the
    // user value's "grids" table keeps them alive.
    steerN_Layers nav;
    // Where the hooks send other states' per-agent Lua (steerL_Route below;
    // from the host, NULL without one)
    const struct steerL_Route *route;
    // The save or load in progress (lsnapshot.c's state for the snapshot
    // hooks, steerL_hook_save_ref and steerL_hook_load_ref), or NULL.
    void *snap;
} steerL_World;

typedef struct steerL_Agent {
    steer_Agent handle;  // Lua's agent.id is handle.id
    steerL_World *world; // kept alive by the agent's user value
} steerL_Agent;

typedef struct steerL_Behavior {
    steer_Behavior *b;
    lua_Integer charged; // its C memory, counted against a mod's cap (steerL_charge)
} steerL_Behavior;

// Raise "FN: field 'FIELD' expected EXPECTED, got GOT" at the caller.
int steerL_field_error(lua_State *L, const char *fn, const char *field, const char *expected, int got_idx);
// What a failed status code means, for "could not set it (...)" messages.
const char *steerL_status_text(int st);
// A short description of the value at idx for error messages ("nil", "-1", "NaN", "a table").
const char *steerL_describe(lua_State *L, int idx, char *buf, size_t len);

// Read a vector at idx (steer.vec or {x, y [, z]}); returns 0 when it is not one
// or has a non-finite component. z defaults to 0.
int steerL_tovec(lua_State *L, int idx, double out[3]);
// Read a vector or raise a field error.
void steerL_checkvec(lua_State *L, int idx, double out[3], const char *fn, const char *field);
// Push a new steer.vec.
void steerL_pushvec(lua_State *L, double x, double y, double z);

// The number at idx if it is in [min, max] by the one rule of
// steerB_number_ok (a minimum of 0 admits 0, then 1e-6), else raise
// "FN: field 'FIELD' expected <the range>, got ..." (FIELD NULL: "FN:
// expected ..."). `what` says what the number is, with an optional note in
// parentheses ("a number of seconds (0 = never)"); the range is written
// from min and max (steerB_range_text), so it always states what is checked.
double steerL_checkrange(lua_State *L, int idx, const char *fn, const char *field, const char *what, double min,
                         double max);
// The same for field `field` of the descriptor table at t: def when absent.
double steerL_optnumber(lua_State *L, int t, const char *fn, const char *field, double def, double min, double max,
                        const char *what);
// The vehicle numbers of w:spawn, an archetype's vehicle and the agent's
// fields (mass, max_speed, max_force, radius, min_turn_radius,
// max_turn_accel): the number at idx if it is in the field's range (that of
// steer_spawn), else raise as steerL_checkrange. One rule per field, so
// every way of giving a vehicle accepts the same values.
double steerL_vehicle_number(lua_State *L, int idx, const char *fn, const char *field);
// The same for field `field` of the table at t: def when absent.
double steerL_opt_vehicle(lua_State *L, int t, const char *fn, const char *field, double def);

// Worker threads for a world's tick (steer.world's and steer.load's
// `threads`, w.threads): the integer at idx, 1 to STEER_MAX_THREADS, else
// raise "FN: field 'FIELD' expected an integer from 1 to 64 ..., got ...".
int steerL_checkthreads(lua_State *L, int idx, const char *fn, const char *field);
// The same for field `threads` of the table at t: 0 (the host's default) when absent.
int steerL_optthreads(lua_State *L, int t, const char *fn);

// What think_hz accepts (a.think_hz, w:spawn, steer.archetype).
#define STEERL_THINK_HZ "a number of calls per second"
#define STEERL_THINK_HZ_MIN 1e-6
#define STEERL_THINK_HZ_MAX 1e6

// Lists and vectors a binding takes are plain data: read raw (lua_rawlen,
// lua_rawgeti, lua_rawget), so no metamethod runs per element. A loop over
// a caller's data can still be long (a million points, a map of 2^24
// cells) and runs no Lua instruction, where a stop hook cannot act: such a
// loop adds its work here, and every STEERL_POLL_WORK units the C function
// stored under the registry's STEERL_POLL is called (the engine stores a
// mod's look at its stop flag there), or else an empty one: either is a
// call that a call hook (lua.c's interrupt) sees.
#define STEERL_POLL_WORK 4096
#define STEERL_POLL "steer.poll"
void steerL_poll(lua_State *L, size_t *work, size_t units);
// C memory a binding's object holds outside Lua's allocator (a behaviour
// tree, a grid, a flow field): `bytes` more, or fewer when negative, for the
// state's owner. A mod's state stores under the registry's STEERL_CHARGE a
// C function that counts them against the mod's memory cap and raises past
// it (a positive charge only; a __gc's negative one never raises). Without
// one (a scenario, a game's own Lua) nothing is counted.
#define STEERL_CHARGE "steer.charge"
void steerL_charge(lua_State *L, lua_Integer bytes);

// Raise for any key of table `t` not listed in `known` (NULL-terminated) or
// not a string; integer keys are allowed when `allow_array` is set.
void steerL_check_fields(lua_State *L, int t, const char *fn, const char *const *known, int allow_array);

// The handle an id from Lua names (steerL_lid): on 5.1 and LuaJIT the
// generation's high bits come from the slot's current one, so the id of a
// live agent gives its handle and any other id a stale one.
steer_Agent steerL_agent_of_lid(const steer_World *w, lua_Integer id);
steer_Shape steerL_shape_of_lid(const steer_World *w, lua_Integer id);
// An integer as text (lua_pushfstring has no %I before Lua 5.3).
const char *steerL_istr(char buf[24], lua_Integer v);
steerL_Agent *steerL_checkagent(lua_State *L, int idx, const char *what); // live agent or raise naming `what`
steerL_Agent *steerL_toagent(lua_State *L, int idx);                      // any agent userdata or NULL
void steerL_pushagent(lua_State *L, int world_idx, steer_Agent id);
steerL_World *steerL_checkworld(lua_State *L, int idx);
steer_Behavior *steerL_tobehavior(lua_State *L, int idx); // or NULL

// Raise unless the world may change now: a custom behaviour or an ease
// function runs inside the steer pass and may only read.
void steerL_check_writable(lua_State *L, const steerL_World *lw, const char *fn);

// Whether this Lua state is a mod's sandbox (the registry flag the engine
// sets before opening the module); raise "FN: not available to mods (WHY)" if so.
int steerL_sandboxed(lua_State *L);
void steerL_check_unsandboxed(lua_State *L, const char *fn, const char *why);
#define STEERL_SANDBOX "steer.sandbox"
// Allocator and log hooks and the default thread count for the worlds a
// Lua state creates: a light userdata pointing to a steerL_Host under this
// registry key (the engine sets it; absent means libc, no log and the
// core's default thread count).
#define STEERL_HOST "steer.host"

// Per-agent Lua of another Lua state than the world's own: a mod's think,
// steer.custom and ease functions (issue 20). Such a state has an owner
// number >= 1 under the registry's STEERL_OWNER (the engine's mods; the
// world's own state has none, 0). Its functions reach the core as
// references that carry the owner (steerL_callback_ref: owner << 24 | the
// registry ref; a think: owner + 1), and the world's hooks hand every call
// whose owner is not 0 to the route, which runs it in that state under that
// owner's limits with steerL_run_think / _custom / _ease below and returns
// nonzero for no result (an error, a stopped owner, a world that is not the
// owner's — a copy stepped by the scenario —, a reference a snapshot kept
// without its function (registry part 0): no force, no easing).
#define STEERL_OWNER "steer.owner"
#define STEERL_OWNER_SHIFT 24
#define STEERL_MAX_OWNER 127
typedef struct steerL_Route {
    int (*think)(void *ud, int owner, steer_World *w, steer_Agent a, double dt);
    int (*custom)(void *ud, int owner, int ref, steer_World *w, steer_Agent a, double dt, double out[3]);
    int (*ease)(void *ud, int owner, int ref, steer_World *w, double x, double *out);
    void *ud;
} steerL_Route;
int steerL_owner(lua_State *L);
// A registry reference to the function at idx, as a behaviour's callback
// field stores it (with this state's owner); raises when none is left.
int steerL_callback_ref(lua_State *L, int idx, const char *fn);
// The world's own calls, in lw->L: think (the function in lw's think table,
// lw's world userdata at stack index 1), custom and ease (ref: the registry
// reference without an owner). 0, or nonzero with lw->cb_error set.
int steerL_run_think(steerL_World *lw, steer_Agent a, double dt);
int steerL_run_custom(steerL_World *lw, int ref, steer_Agent a, double dt, double out[3]);
int steerL_run_ease(steerL_World *lw, int ref, double x, double *out);

typedef struct steerL_Host {
    steer_AllocFn alloc;
    void *alloc_ud;
    steer_LogFn log;
    void *log_ud;
    // Worker threads of the worlds made without a `threads` of their own
    // (steer.world, steer.load); 0: the core's default (STEER_THREADS, else 1).
    int threads;
    // The host's job system for those worlds (steer_WorldDesc's; NULL: the built-in pool).
    steer_EnqueueTaskFn *enqueue_task;
    steer_FinishTaskFn *finish_task;
    void *task_ctx;
    const steerL_Route *route; // other states' per-agent Lua (NULL: none run)
} steerL_Host;
// Raise "FN: ..." unless the agent at idx may be changed from this state
// (a mod limited to its own agents, see own_only).
void steerL_check_owner(lua_State *L, int agent_idx, const char *fn);
// Push a world userdata for a world owned by someone else (the engine).
steerL_World *steerL_push_borrowed_world(lua_State *L, steer_World *w);

// The vehicle of the spawn descriptor (or an archetype's vehicle table) at
// t: mass, max_speed, max_force and radius into d (defaults where absent),
// the turn limits into craft; true when the agent gets turn limits. Raises
// "FN: field ..." for a bad value; spawn and archetypes share it (lworld.c).
bool steerL_vehicle_desc(lua_State *L, int t, const char *fn, steer_AgentDesc *d, steer_CraftDesc *craft);

// Shared between the world and agent bindings (lworld.c)
void steerL_keep_brain(lua_State *L, int world_idx, int behavior_idx);
void steerL_unpin_brains(lua_State *L, int world_idx);
void steerL_brain_error(lua_State *L, const char *fn, steer_Behavior *b, int st);
int steerL_totarget(lua_State *L, int idx, const steerL_World *lw, double point[3], steer_Agent *agent, int *has_point);
void steerL_forget_agent(lua_State *L, int world_idx, steer_Agent id);
void steerL_set_think(lua_State *L, int world_idx, steer_Agent id, int fn_idx, double hz);
void steerL_uv_field(lua_State *L, int world_idx, const char *name);
const char *steerL_event_name(steer_EventType t); // "arrive", "stuck", ...

// Create the metatable `name` with the metamethods `meta` and an __index
// closure `index` whose upvalue is a table of `methods` (looked up by the
// index function for names it does not handle itself).
void steerL_newclass(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods,
                     lua_CFunction index);

// Set dst[k] = v for every pair of the table at src (a shallow copy),
// raw on both sides: no metamethod of either table runs.
void steerL_copy_table(lua_State *L, int src, int dst);

// steer.<kind>{...} for the kind (a steerB_Kind) with its table at 1: the
// new behaviour on top. `extra` (or NULL) is one more accepted field name
// that the caller reads itself (follow_flow's `field`). Called directly,
// never through lua_call, so its errors point at the script's line.
// Userdata of type tname (a metatable name) hold an object of resource
// kind `kind` (brain.h) as their first member: behaviours' fields of that
// kind take them (lbehavior.c).
struct steerB_ResourceKind;
void steerL_resource_type(lua_State *L, const struct steerB_ResourceKind *kind, const char *tname);
int steerL_construct(lua_State *L, const void *kind, const char *extra);
// The Lua constructor of a behaviour kind (a steerB_Kind, built-in or a host's).
void steerL_push_constructor(lua_State *L, const void *kind);

// Archetypes (larchetype.c): w:spawn(archetype, overrides) with the world
// at 1, the archetype at 2; the rebind of changed archetypes before a step.
int steerL_isarchetype(lua_State *L, int idx);
void steerL_archetype_desc(lua_State *L);
void steerL_archetype_bind(lua_State *L, int world_idx, int arch, int own, steer_Agent id);
void steerL_rebind_archetypes(lua_State *L, int world_idx);
void steerL_open_archetype(lua_State *L);

// steer.debug_draw() (ldraw.c)
int steerL_debug_draw(lua_State *L);
// Turn limits (lcraft.c): read model, min_turn_radius, min_speed and
// max_turn_accel of the table at t; true when the agent gets turn limits.
bool steerL_craft_desc(lua_State *L, int t, const char *fn, steer_CraftDesc *out);
void steerL_open_craft(lua_State *L);                                         // steer.directed_seek_plan
int steerL_agent_turn_index(lua_State *L, steerL_Agent *a, const char *k);    // 1 when k is a turn field
int steerL_agent_turn_newindex(lua_State *L, steerL_Agent *a, const char *k); // 1 when k is a turn field

// Registration of each binding file
void steerL_open_vec(lua_State *L);
void steerL_open_world(lua_State *L);
void steerL_open_agent(lua_State *L);
void steerL_open_behavior(lua_State *L);         // adds constructors to the table on top
void steerL_add_host_constructors(lua_State *L); // and those of the host's kinds
void steerL_open_grid(lua_State *L);             // steer.grid, flow fields, follow_flow, w:add_grid (lgrid.c)

#endif
