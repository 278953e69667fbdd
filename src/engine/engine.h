// SPDX-License-Identifier: MIT
// engine.h — the engine's insides shared by its files: base.c (the floor:
// clock, log, memory, errors, protected calls), the mods' files (mod.h
// lists them), save.c (snapshots) and engine.c (scenario, reload, ticking).
// Every call points down: engine.c -> modreload.c, save.c -> modsnap.c ->
// mod.c -> message.c, policy.c -> sandbox.c -> watch.c -> base.c.
#ifndef STEER_ENGINE_INTERNAL_H
#define STEER_ENGINE_INTERNAL_H

#include "steer.h"
#include "steer_engine.h"
#include "../core/base.h" // the boundary's checks
#include "steer_lua.h"
#include "../core/os.h"
#include "../lua/lutil.h"

#include <lua.h>
#include <lauxlib.h>
#include <stdatomic.h>

typedef struct Mod Mod;

typedef struct Watch {
    char *path;
    char *module; // the name `require` found it by; NULL for the scenario
    long long mtime_ns, size;
} Watch;

struct steer_Engine {
    const void *lib; // &steerA_lib: made by this copy of steer (first, where every copy looks; base.h)
    steer_AllocFn alloc;
    void *alloc_ud;
    steer_LogFn log;
    void *log_ud;
    char *lua_path;
    bool has_seed;
    uint64_t seed;
    int threads; // 0: the scenario's choice

    lua_State *L;
    steerL_Host host; // the hooks the scenario's worlds use
    char *file;       // the scenario
    int scenario_ref; // registry refs: the scenario table, the world userdata
    int world_ref;
    steer_World *world;
    double dt;
    int state_ref; // steer.state (state.c)
    int after;     // what the next tick is the first after (STEERE_AFTER_*), for the hint of its error
    char error[1024];
    char *traceback;

    Watch *watch; // the scenario, then each module it required
    int nwatch, capwatch;
    int watcher;       // steerY_watch_open's: -1, poll modification times
    double changed_at; // when a change was seen and not yet reloaded (0 none)
    double next_look;

    steer_HostKind **kinds;
    int nkinds;
    struct {
        steer_EventFn fn;
        void *ud;
    } subs[16];
    int nsubs;

    Mod **mods;
    int nmods;
    steerL_Policy policy; // the scenario's state's: the mods' per-agent Lua (think, custom, ease) (policy.c)
    steer_Behavior *halt; // a disabled mod's agents' brain: arrive on their own target (mod.c)
    steerY_Thread watchdog;
    bool watchdog_running;
    atomic_bool stopping;
    steerY_Mutex lock; // guards each mod's call state against the watchdog
};

// base.c
double steerE_now(void);
void steerE_log(steer_Engine *e, int level, const char *fmt, ...);
void *steerE_alloc(steer_Engine *e, void *p, size_t size);
void *steerE_alloc_ud(void *e, void *p, size_t size); // the same with the engine as a void * (steerL_DataOptions.alloc)
char *steerE_strdup(steer_Engine *e, const char *s);
// A name (a mod's, taken from its file name or a snapshot) as a message
// shows it, in buf (cap bytes, at most STEERE_SHOWN_MAX needed): printable
// ASCII and well-formed UTF-8 as they are; a backslash, control bytes (C0,
// DEL, C1) and bytes that are no UTF-8 escaped (\\, \n, \t, \r, \xHH),
// so no name starts a log line or reaches a terminal as a control sequence.
// A name longer than fits ends in "...". Returns buf.
#define STEERE_SHOWN_MAX 1024
const char *steerE_shown(const char *name, char *buf, size_t cap);
int steerE_fail(steer_Engine *e, int status, const char *fmt, ...);
// At the start of every public call that returns a status: no error (steer_engine_error says "").
void steerE_clear_error(steer_Engine *e);
// The message handler of every call into Lua: the message and a traceback;
// other error objects are described by type only (their __tostring is a
// script's code and could loop).
int steerE_msghandler(lua_State *L);
// The first part of a handled error (up to its traceback) into out.
void steerE_message(const char *full, char *out, size_t len);
// The error on top of the stack (popped) as the engine's error, prefixed with context (NULL: none):
// STEER_ESCRIPT.
int steerE_keep_error_in(steer_Engine *e, const char *context);
int steerE_keep_error(steer_Engine *e);
// lua_pcall of the function below nargs arguments, with steerE_msghandler.
int steerE_docall(lua_State *L, int nargs, int nresults);
// Push field `name` of the value at idx, looked up protected (an __index
// may raise); on an error nothing is pushed and the error is kept, naming
// `what` ("the scenario", "the world").
int steerE_get_field(steer_Engine *e, int idx, const char *name, const char *what);
// Push a string of len bytes protected, or keep
// the memory error (nothing pushed): every Lua call of the engine that may
// allocate runs inside a lua_pcall, since outside one a memory error is a
// panic, which aborts the host.
int steerE_push_lstring(steer_Engine *e, const char *s, size_t len);
// luaL_ref of the value on top (popped) into the registry, protected: on a
// memory error *ref is LUA_NOREF and the error is kept.
int steerE_ref(steer_Engine *e, int *ref);
// The engine's states' panic function, never reached (every call into Lua
// is protected): it says so on stderr before Lua aborts.
int steerE_panic(lua_State *L);
// Read a whole file (at most `max` bytes) with the engine's allocator;
// NULL with errno set (EINVAL: not a regular file, EFBIG: over max).
char *steerE_read_file(steer_Engine *e, const char *path, size_t max, size_t *len);
// Why steerE_read_file failed (its errno), in buf: "No such file or
// directory", "not a regular file", "larger than MAX bytes". Returns buf.
const char *steerE_read_error(int err, size_t max, char *buf, size_t cap);
// A file's modification time and size: 0 when it cannot be looked at.
int steerE_stat_file(const char *path, long long *mtime_ns, long long *size);
// Watch the directory of `path` with the engine's watcher (if any):
// editors often save by writing a new file and renaming it.
void steerE_watch_dir(steer_Engine *e, const char *path);

// A lua_CFunction: steer_lua_register_host of the kind (light userdata at
// 1), for a protected call, since the state's steer table may have a
// __newindex of the script's or the mod's.
int steerE_register_kind(lua_State *L);

// state.c: steer.state, the scenario's own state, kept across reloads and in snapshots.
enum { STEERE_AFTER_NONE, STEERE_AFTER_RELOAD, STEERE_AFTER_LOAD, STEERE_AFTER_RESTORE };
// Runs protected (the engine at 1), once the libraries are open: e->state_ref.
int steerE_state_open(lua_State *L);
struct steerL_DataOptions;
// The codec's options for the state: plain data, shared tables kept, the
// world's agents (world: its steerL_World) by id and steer.vec values.
void steerE_state_options(struct steerL_DataOptions *o, void *world);
// The state as bytes (*out from the engine's allocator), or the error kept.
int steerE_state_save(steer_Engine *e, unsigned char **out, size_t *len);
// The state becomes the bytes' (checked by the codec with steerE_state_options), in place; p NULL: empty.
// With `any`, bytes of another value than a table (a scenario's old data) empty it.
int steerE_state_restore(steer_Engine *e, const unsigned char *p, size_t len, bool any);
// Empty the state (after a failed load), keeping the error there is.
void steerE_state_clear(steer_Engine *e);
// The error of a tick gets the hint of what that tick came after (e->after), if anything.
void steerE_state_hint(steer_Engine *e);

// modreload.c: look at every mod's files (look: their times are due, or
// the watcher told) and reload each mod whose files have been quiet for
// `debounce` seconds since a change: 1 if any reloaded, 0 none, or the
// error of a failed one (its last version runs on).
int steerE_mods_poll(steer_Engine *e, bool look, double now, double debounce);
// The i-th of the files the mods read, in the order of the mods, or NULL past the end.
const char *steerE_mod_watched(const steer_Engine *e, int i);

// mod.c
void steerE_mods_tick(steer_Engine *e);
void steerE_mods_free(steer_Engine *e);
void steerE_mods_register_kind(steer_Engine *e, const steer_HostKind *k);
// policy.c: the scenario's policy (e->policy), which the scenario's worlds
// hand the mods' per-agent Lua to.
void steerE_scenario_policy(steer_Engine *e);
// watch.c: once the mod was stopped (its CPU budget spent, its memory cap crossed),
// arm the stop hook on L, the running thread, and raise the reason. The
// mod's count hook calls it; so do the sandbox's C loops, per element or
// per call, since a loop that runs no Lua instruction never reaches the hook.
void steerE_check_stop(lua_State *L);
// message.c: decode one message (bytes from steer.send's encoder) and push its value; raises a Lua error
// "corrupt message" on malformed input. Call it protected.
void steerE_decode_message(lua_State *L, const unsigned char *p, size_t len);
// Encode the value at idx as steer.send does (nil, booleans, numbers,
// strings and tables of them; at most 64 KiB, tables nested at most 16
// deep; metatables ignored). 0: *out (from malloc: free it) holds *len
// bytes. Nonzero: nothing to free, *err (if err) says why. Raises only
// for lack of memory.
int steerE_encode_message(lua_State *L, int idx, unsigned char **out, size_t *len, const char **err);

// modsnap.c: each enabled mod's save(), encoded in the mod's state under its budget:
// emit(ud, name, bytes, len) for each mod that has a save; a nonzero
// return from emit ends the walk with that status. A mod whose save fails
// is disabled (as any failing callback), and left out.
int steerE_mods_save(steer_Engine *e, int (*emit)(void *ud, const char *name, const unsigned char *p, size_t len),
                     void *ud);
// The data saved for mod `name` to its load(data), under its budget; a
// mod not loaded now, disabled or without load is skipped (0). Nonzero
// when the mod failed (it is disabled then, as for any callback).
int steerE_mod_load(steer_Engine *e, const char *name, const unsigned char *p, size_t len);

// What the engine keeps for each enabled mod (its live agents, its inbox
// of undelivered messages) as bytes: emit(ud, name, bytes, len) for each;
// a nonzero return from emit (or STEER_ENOMEM) ends the walk with it.
int steerE_mods_save_state(steer_Engine *e, int (*emit)(void *ud, const char *name, const unsigned char *p, size_t len),
                           void *ud);
// Whether bytes from steerE_mods_save_state are well formed (and within
// the inbox's limits), before anything is restored.
bool steerE_mod_state_ok(const unsigned char *p, size_t len);
typedef struct steerE_ModState {
    const char *name;
    const unsigned char *p; // checked by steerE_mod_state_ok
    size_t len;
} steerE_ModState;
// Each enabled mod's agents, its world's "owned" set and its inbox become
// the saved ones of its name, or none when it has none (it was not
// running then); saved ones of mods not running are logged and left out.
// A mod that fails to take them (out of memory) is disabled.
void steerE_mods_restore_state(steer_Engine *e, const steerE_ModState *saved, int n);
// The scenario's policy's `restored` (ud: the engine): after any in-place
// restore of the engine's world (steer_engine_restore's or the scenario's
// own w:restore), each enabled mod's agents and "owned" set keep only the
// agents the world still holds, and its handles of the others go stale for
// good (steerL_restored): the replay may spawn agents with their ids again.
void steerE_mods_restored(void *ud, steer_World *w);
// Whether the n sections (each checked by steerE_mod_state_ok) claim no
// agent twice; if they do, *bad is the index of a section that does (-1:
// out of memory).
bool steerE_mod_claims_ok(steer_Engine *e, const steerE_ModState *s, int n, int *bad);

// sandbox.c: the mods' safe library in a fresh state (pattern functions
// with a step limit, string building with a size limit, no addresses).
void steerE_open_sandbox(lua_State *L, size_t max_string);
// Whether `name` is a standard library or function mods do not get (io, os, ...).
bool steerE_removed_library(const char *name);
// Protect the steer types' metatables (no __gc can be slipped into them).
void steerE_protect_metatables(lua_State *L);

#endif
