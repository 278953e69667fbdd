// SPDX-License-Identifier: MIT
// steer_engine.h — the engine: a scenario in its own Lua state, ticked from
// a game's loop, hot reload and mods in sandboxes (src/engine/, internal
// prefix steerE_). It is what `steer run` is made of, for a game that owns
// its loop: it loads a scenario (a Lua file returning { world, setup,
// update, draw, reload }), ticks it, reloads it when its files change, and
// runs mods in sandboxes. The core it drives (worlds, agents, behaviours)
// is steer.h; the Lua module for a host's own lua_State is steer_lua.h.
//
// No global state: engines in one process are independent. Every call
// returns STEER_OK or an error; steer_engine_error() then says what failed
// (which argument or check, or "file:line: message" where a script was at
// fault); see steer_engine_error for exactly when.
#ifndef STEER_ENGINE_H
#define STEER_ENGINE_H

#include "steer.h"

#ifdef __cplusplus
extern "C" { // a C++ host links the C symbols
#endif

typedef struct steer_Engine steer_Engine;

typedef struct steer_EngineDesc {
    // For everything the engine allocates: itself, its Lua states, its
    // world, behaviour trees, grids, flow fields and A* scratch, snapshots
    // (NULL: libc). When it fails, the call under way returns an error
    // (STEER_ENOMEM, or STEER_ESCRIPT "not enough memory" from inside Lua)
    // and the engine stays usable or at least freeable: no call aborts.
    steer_AllocFn alloc;
    void *alloc_ud;
    steer_LogFn log; // reload lines, mods' print output, mod failures (NULL: stderr)
    void *log_ud;
    const char *lua_path; // extra package.path templates for the scenario ("dir/?.lua;...")
    bool has_seed;        // override the scenario's world seed with `seed`
    uint64_t seed;
    // Worker threads for the scenario's world (overriding its `threads`)
    // and every world it makes without choosing; 0: as the scenario says,
    // else STEER_THREADS, else 1. At most STEER_MAX_THREADS.
    int threads;
    // The host's job system for those worlds' passes, as steer_WorldDesc's
    // (see steer_EnqueueTaskFn): both or neither; NULL: the built-in pool.
    // Called from the thread that ticks the engine.
    steer_EnqueueTaskFn *enqueue_task;
    steer_FinishTaskFn *finish_task;
    void *task_ctx;
} steer_EngineDesc;

// A new engine, no scenario loaded yet.
STEER_API int steer_engine_new(const steer_EngineDesc *desc, steer_Engine **out);
// Stop its mods and free the engine, its Lua states and its world; NULL is ignored.
STEER_API void steer_engine_free(steer_Engine *e);
// Run the scenario file, create its world and call its setup(w).
STEER_API int steer_engine_load(steer_Engine *e, const char *file);
// n ticks: each is the world's step (its event handlers run), the
// scenario's update(w, dt), then each mod's on_event and update.
STEER_API int steer_engine_tick(steer_Engine *e, int n);
// Reload the scenario as a transaction: compile and run the file and every
// module it required anew; only if all of it succeeds (and its reload(w))
// does it replace the running version. Agents, a.data, targets and
// steer.state stay (the file's locals are new, and setup does not run
// again); archetypes rebind by name on the next tick. On failure the last
// good version keeps running and the error is kept. A script error in the
// first tick after a reload, a load or a restore ends with a hint of that.
STEER_API int steer_engine_reload(steer_Engine *e);
// Reload if the scenario or any module it required changed on disk since
// the last look, and each mod whose files (its main file, the modules it
// required) changed (steer_engine_reload_mod; not a mod the game unloaded):
// 1 reloaded, 0 nothing changed, or a failed reload's error (the
// scenario's if it failed, else a mod's).
STEER_API int steer_engine_poll(steer_Engine *e);
// The files watched for changes (the scenario first, then the modules it
// required, then each mod's main file and modules), or NULL past the end.
STEER_API const char *steer_engine_watched(const steer_Engine *e, int i);
// The scenario's world (NULL before a load); it outlives reloads.
STEER_API steer_World *steer_engine_world(steer_Engine *e);
// Why the last call failed, or "". Every call of this header on an engine
// that returns a status sets it: "" when it succeeds (STEER_OK; for
// steer_engine_poll 0 or 1; for steer_engine_states a count), the reason
// when it fails: the function, and the argument or check that failed
// ("steer_engine_tick: n is -1, ...") or, where a script was at fault,
// "file:line: message". The calls that return no status
// (steer_engine_world, _watched, _lua, _push_scenario, _mod_count) and
// steer_engine_mod_info (a const engine) leave it as it was, as does
// steer_engine_new (no engine on failure) and a call with e NULL. The text
// is the engine's: valid until the next call that sets it, or
// steer_engine_free. NULL e gives "no engine".
STEER_API const char *steer_engine_error(const steer_Engine *e);
// Make a host behaviour kind available to the scenario and to later mods as
// steer.NAME. STEER_EARG, the error naming the check, for: desc NULL, a
// name that is NULL, not an identifier or a built-in kind's, fn NULL,
// memory out of 0..STEER_HOST_MAX_MEMORY, a parameter that is not an
// identifier, "target" or "name" (reserved), twice in params, a default
// that is not finite, more than STEER_HOST_MAX_PARAMS parameters, or a
// name registered already; STEER_ENOMEM when out of memory.
STEER_API int steer_engine_register_behavior(steer_Engine *e, const steer_HostBehaviorDesc *desc);
// Called after every tick with each event of that tick.
typedef void (*steer_EventFn)(void *ud, const steer_Event *ev) STEER_NOEXCEPT;
// Add an event listener (at most 16: STEER_EFULL).
STEER_API int steer_engine_subscribe(steer_Engine *e, steer_EventFn fn, void *ud);

// All live agents' states at once, in storage order: writes up to `cap`,
// returns how many agents there are.
typedef struct steer_AgentState {
    steer_Agent id;
    float position[3], velocity[3], heading[3], up[3];
    float radius;
    const char *tag; // NULL when untagged; valid while the world lives
} steer_AgentState;
// Fill out with up to cap agents' states; returns how many agents there are.
STEER_API int steer_engine_states(steer_Engine *e, steer_AgentState *out, int cap);

// Mods: Lua in a sandbox of its own (see docs/mods.md). A mod is a file
// NAME.lua (no modules) or a directory NAME/ with init.lua (its modules
// beside it, for require), returning a table of
// optional callbacks setup(w), update(w, dt), on_event(name, agent, other),
// on_message(from, data). Zero limits mean the defaults.
typedef struct steer_ModLimits {
    size_t memory;  // bytes of Lua memory (default 16 MiB)
    double call_ms; // CPU per call into the mod (default 20 ms)
    int agents;     // live agents it may have spawned (default 1000)
    int prints;     // lines of print per second of simulated time (default 20)
    bool touch_all; // may change and remove agents it did not spawn (default: only its own)
    long work;      // units of the steer pass its agents may cost in one tick (steer_agent_work; default 1,000,000)
} steer_ModLimits;
// Load a mod (after the scenario) under limits (NULL: defaults) and run its
// setup; *id (if id) names it. A disabled mod of the same name (unloaded,
// or stopped) gives the new one its place and id; an enabled one refuses
// it (STEER_EARG). On a failure in its file or setup (STEER_EMOD) the mod
// is disabled, *id still names it, and the error says once which mod,
// which file and why ("mod 'NAME': FILE:LINE: MESSAGE", "mod 'NAME':
// cannot read FILE: No such file or directory").
STEER_API int steer_engine_load_mod(steer_Engine *e, const char *path, const steer_ModLimits *limits, int *id);
// Reload mod `id` from its files as a transaction (docs/mods.md, "Hot
// reload of mods"): the running version's save() -> data, then the files
// run anew in a new Lua state, its load(data) and reload(w) (setup instead
// if the mod never got through it); only if all of it succeeds does the
// new state replace the running one, keeping the mod's id, agents, limits
// and inbox. On failure the running version goes on as it was (a disabled
// mod stays disabled), the agents the new code spawned are removed, and
// the error is kept (STEER_EMOD). Functions do not cross: the old code's
// thinks, steer.custom and ease functions give nothing until the new code
// sets them again. Also for a disabled or unloaded mod.
STEER_API int steer_engine_reload_mod(steer_Engine *e, int id);
typedef struct steer_ModInfo {
    const char *name;
    bool enabled;
    const char *reason; // why it was disabled ("file:line: message" or the limit it broke), "" while enabled
    size_t memory;      // bytes in use: its Lua state, its trees, grids and flow fields
    double cpu_ms;      // CPU spent in it so far
} steer_ModInfo;
// Mods loaded, running or disabled (ids 0 to count - 1).
STEER_API int steer_engine_mod_count(const steer_Engine *e);
// Disable mod `id` between ticks, as a broken limit would: its Lua state is
// closed and its agents stop where they are (docs/mods.md);
// steer_engine_mod_info reports "unloaded by the game", and poll no longer
// reloads it. Loading the same path again gives the new mod this id.
STEER_API int steer_engine_unload_mod(steer_Engine *e, int id);
// What mod `id` is doing: running or why it was disabled, its memory and CPU.
STEER_API int steer_engine_mod_info(const steer_Engine *e, int id, steer_ModInfo *out);

// ---- snapshots ----------------------------------------------------------
// A snapshot of a running scenario: its world (w:save: agents, a.data,
// archetypes by name), steer.state (put back into the same table, agents
// by id), the scenario's own data (its optional save(w) -> data, given
// back to load(w, data)) and each mod's (save() -> data, given back to
// load(data), kept under the mod's name). Data is plain (nil,
// booleans, numbers, strings, tables; shared subtables and cycles kept).
// Event handlers and mods' other Lua state are code, not saved.
//
// Save the running scenario through `write` (steer.h's writer), as one versioned container.
STEER_API int steer_engine_save(steer_Engine *e, steer_WriteFn write, void *ud);
// Restore a steer_engine_save snapshot in place (the world stays the same Lua value); a malformed one changes nothing.
STEER_API int steer_engine_restore(steer_Engine *e, const void *data, size_t len);
// steer_engine_load, but the world and the scenario's state come from a snapshot instead of setup(w).
STEER_API int steer_engine_load_snapshot(steer_Engine *e, const char *file, const void *data, size_t len);

// ---- the engine's Lua state --------------------------------------------
// For a host or a viewer that calls the scenario's other callbacks (draw,
// on_key) itself, with lua.h; a host that does not needs no Lua headers.
STEER_API struct lua_State *steer_engine_lua(steer_Engine *e);
// Push the scenario table and the world; 0 (nothing pushed) before a load.
STEER_API int steer_engine_push_scenario(steer_Engine *e);
// Call the scenario's callback `name` with the nargs values on top of the
// engine's stack (popped): STEER_OK also when it has no such callback;
// on a script error STEER_ESCRIPT, the error kept as steer_engine_error says.
STEER_API int steer_engine_call(steer_Engine *e, const char *name, int nargs);
// The last error with its Lua traceback (steer_engine_error is its first line); as valid as steer_engine_error.
STEER_API const char *steer_engine_traceback(const steer_Engine *e);

#ifdef __cplusplus
}
#endif

#endif
