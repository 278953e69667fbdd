// SPDX-License-Identifier: MIT
// lutil.h — helpers shared by the Lua bindings: argument checking with
// errors that name the function, the field and what was expected, at the
// caller's file:line; vectors taken as steer.vec or {x, y [, z]}.
#ifndef STEER_LUTIL_H
#define STEER_LUTIL_H

#include "steer.h"
#include "../nav/layers.h"
#include "lcompat.h"
#include "lpolicy.h"

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
    // A world that belongs to someone else (steerL_push_borrowed_world:
    // the engine's, seen by a mod): this userdata never frees it.
    bool borrowed;
    // The rules of the state that made or borrowed it (lpolicy.h; NULL: none)
    const steerL_Policy *policy;
    // The grids attached by w:add_grid, for a viewer (steer_lua_nav); the
    // user value's "grids" table keeps them alive.
    steerN_Layers nav;
    steerN_Alloc alloc; // the state's steerL_allocator: nav's list
    // The save or load in progress (lsnapshot.c's state for the snapshot
    // hooks, steerL_hook_save_ref and steerL_hook_load_ref), or NULL.
    void *snap;
} steerL_World;

typedef struct steerL_Agent {
    steer_Agent handle;  // Lua's agent.id is handle.id
    steerL_World *world; // kept alive by the agent's user value
    // Stale for good: an in-place restore (w:restore) took its agent out
    // of the world, and the replay may spawn another with the same id.
    bool revoked;
} steerL_Agent;

// Whether the handle names a live agent of its world.
static inline bool steerL_agent_alive(const steerL_Agent *a)
{
    return !a->revoked && a->world->w && steer_alive(a->world->w, a->handle);
}
// The id the handle stands for in the world: a revoked one's is an id no
// agent ever has (slot 2^32 - 1 at generation 0), so it stays stale when saved.
static inline steer_Agent steerL_agent_handle(const steerL_Agent *a)
{
    return a->revoked ? (steer_Agent){ UINT32_MAX } : a->handle;
}

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

// Raise for any key of table `t` not listed in `known` (NULL-terminated) or
// not a string; integer keys are allowed when `allow_array` is set.
void steerL_check_fields(lua_State *L, int t, const char *fn, const char *const *known, int allow_array);
// A descriptor: raise "FN: expected a table of named arguments, got ..."
// unless the value at t is a table, then steerL_check_fields (no array part).
void steerL_check_desc(lua_State *L, int t, const char *fn, const char *const *known);

// The handle an id from Lua names (steerL_lid): on 5.1 and LuaJIT the
// generation's high bits come from the slot's current one, so the id of a
// live agent gives its handle and any other id a stale one.
steer_Agent steerL_agent_of_lid(const steer_World *w, lua_Integer id);
steer_Shape steerL_shape_of_lid(const steer_World *w, lua_Integer id);
// An integer as text (lua_pushfstring has no %I before Lua 5.3).
const char *steerL_istr(char buf[24], lua_Integer v);
steerL_Agent *steerL_checkagent(lua_State *L, int idx, const char *what); // live agent or raise naming `what`
steerL_Agent *steerL_toagent(lua_State *L, int idx);                      // any agent userdata or NULL
// The plain-data codec's reference to the agent at idx (ldata.h's
// ref_encode), as the snapshots and steer.state write it: its handle id
// into *index and 1 when it is an agent of world `w`; 0 with *why for
// another world's; -1 when idx holds no agent.
int steerL_agent_ref(const steerL_World *w, lua_State *L, int idx, uint64_t *index, const char **why);
// After an in-place restore made w another world: each handle of the table
// at `handles` (id -> agent) whose id w may issue again (an agent spawned
// later than w's state: the replay may spawn another with that id) is
// revoked, stale for good; with `forget` it also leaves the table, so that
// the id gets a new handle. A handle of an agent removed before w's state
// is not revoked: w never issues its id again, and a restore of an
// earlier state where it lives gives it back.
void steerL_revoke_stale(lua_State *L, int handles, const steer_World *w, bool forget);
// The agent's userdata (one per agent and world: the world's "handles").
void steerL_pushagent(lua_State *L, int world_idx, steer_Agent id);
// A new table with weak keys ("k") or values ("v"), on top.
void steerL_new_weak(lua_State *L, const char *mode);
// Push table t's field k, made a new weak table (steerL_new_weak) first
// when it is not a table.
void steerL_weak_field(lua_State *L, int t, const char *k, const char *mode);
// Push field `name` of the world's user value table (lworld.c lists them).
void steerL_uv_field(lua_State *L, int world_idx, const char *name);
steerL_World *steerL_checkworld(lua_State *L, int idx);
steer_Behavior *steerL_tobehavior(lua_State *L, int idx); // or NULL

// Raise unless the world may change now: a custom behaviour or an ease
// function runs inside the steer pass and may only read.
void steerL_check_writable(lua_State *L, const steerL_World *lw, const char *fn);

// Allocator and log hooks and the default thread count for the worlds a
// Lua state creates: a steerL_Host the state keeps (steerL_set_host: the
// engine sets it in its states and its mods'; absent
// means libc, no log and the core's default thread count). The trees the
// state makes and the bytes of its snapshots use the same allocator; so do
// grids, flow fields and the bindings' own lists (steerL_allocator).
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
} steerL_Host;

// Give the state its host's hooks (h outlives the state); allocates: call it protected.
void steerL_set_host(lua_State *L, const steerL_Host *h);
// The state's steerL_Host, or NULL. Allocates nothing (a light userdata key).
const steerL_Host *steerL_host(lua_State *L);
// What the bindings allocate in C besides worlds and trees (grids, flow
// fields, their lists, the data codec's scratch), with Lua's signature:
// the host's allocator (steerL_Host's) or else the state's own
// (lua_getallocf), so a host's allocator sees it in either case.
steerN_Alloc steerL_allocator(lua_State *L);

// The vehicle of the spawn descriptor (or an archetype's vehicle table) at
// t: mass, max_speed, max_force and radius into d (defaults where absent),
// the turn limits into craft; true when the agent gets turn limits. Raises
// "FN: field ..." for a bad value; spawn and archetypes share it (larchetype.c).
bool steerL_vehicle_desc(lua_State *L, int t, const char *fn, steer_AgentDesc *d, steer_CraftDesc *craft);

// Shared between the world and agent bindings (lworld.c)
void steerL_keep_brain(lua_State *L, int world_idx, int behavior_idx);
// Warn once per brain when the brain at bi, given to an agent of world wi,
// has a patrol whose route runs into the walls of the world's grids (lgrid.c).
void steerL_check_routes(lua_State *L, int wi, int bi);
// A warning through the state's host log (the worlds' log; level 1), or on
// stderr without one.
void steerL_warn(lua_State *L, const char *msg);
#define STEERL_REG_BRAIN_TREES "steer.brain_trees" // tree userdata -> true, weak keys (steerL_keep_brain)
void steerL_unpin_brains(lua_State *L, int world_idx);
void steerL_brain_error(lua_State *L, const char *fn, steer_Behavior *b, int st);
int steerL_totarget(lua_State *L, int idx, const steerL_World *lw, double point[3], steer_Agent *agent, int *has_point);
void steerL_forget_agent(lua_State *L, int world_idx, steer_Agent id);
// Per-agent Lua (lcall.c): the world's hooks into d (they call the
// functions of lw's state, or another owner's through lw's policy), and
// an agent's think function at hz (nil stops it).
void steerL_world_hooks(steer_WorldDesc *d, steerL_World *lw);
void steerL_set_think(lua_State *L, int world_idx, steer_Agent id, int fn_idx, double hz);
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
// navigate's `costs` field from its arguments' `costs` (area name ->
// multiplier) and `exclude` (area names), checked against their `navmesh`
// (the table at 1 of a constructor); nothing when neither is given (lnavmesh.c).
void steerL_navigate_costs(lua_State *L, const char *fn, steer_Behavior *b, const char *field);
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
void steerL_open_grid(lua_State *L);             // steer.grid (lgrid.c)
void steerL_open_navmesh(lua_State *L);          // steer.navmesh, steer.navmesh_load (lnavmesh.c)
void steerL_open_formation(lua_State *L);        // steer.formation (lformation.c)
void steerL_open_flow(lua_State *L);             // the flow field type, follow_flow's resource (lflow.c)

// The world's methods that live beside their concern. lworld.c's one table
// lists every w: method, these too; no other file adds to it.
int steerL_world_add_grid(lua_State *L);    // w:add_grid(g) (lgrid.c)
int steerL_world_add_navmesh(lua_State *L); // w:add_navmesh(nm) (lnavwalls.c)
int steerL_world_formations(lua_State *L);  // w:formations() (lformation.c)
int steerL_agent_slot(lua_State *L);        // a:slot() (lformation.c)
int steerL_world_save(lua_State *L);        // w:save() (lsnapshot.c)
int steerL_world_restore(lua_State *L);     // w:restore(s [, opts]) (lsnapshot.c)
int steerL_world_same_brain(lua_State *L);  // w:same_brain(t) (lsnaptree.c)

#endif
