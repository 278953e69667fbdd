// SPDX-License-Identifier: MIT
// mod.h — a mod as the engine keeps it, shared by the mods' files, each a
// level above the one before (none calls up):
//
//   watch.c    stopping a mod: its allocator and cap, the CPU budget of a
//              call, the watchdog thread, the stop hook (base.c below)
//   sandbox.c  the mods' safe library (watch.c's stop flag in its C loops)
//   policy.c   the mods' policy (lpolicy.h) the engine sets on each Lua
//              state: a mod's quota, charges, polls and owner, and the
//              scenario's calls of a mod's think, custom and ease functions
//   message.c  steer.send and each mod's inbox
//   mod.c      a mod's life: loading its sandbox, calling it, each tick,
//              disabling it
//   modsnap.c  a snapshot's mods section: each mod's save() and load(), and
//              what the engine keeps for it (agents, inbox)
//   modreload.c  a mod's hot reload: the files it read, watched, and the
//              transaction that carries its save() to the new code's load()
#ifndef STEER_MOD_H
#define STEER_MOD_H

#include "engine.h"

#include <time.h>

#define DEFAULT_MEMORY (16u << 20)
#define DEFAULT_CALL_MS 20.0
#define DEFAULT_AGENTS 1000
#define DEFAULT_PRINTS 20
#define DEFAULT_WORK 1000000L        // units of the steer pass a mod's agents may cost in one tick
#define WATCH_COUNT 1000             // instructions between two looks at the verdict
#define MAX_FILE (1u << 20)          // a mod's source file
#define MAX_MESSAGE (64u << 10)      // bytes of one message
#define MAX_INBOX 256                // messages waiting per mod
#define MAX_INBOX_BYTES (256u << 10) // their bytes: the receiver pays for decoding them
#define MAX_DEPTH 16                 // nesting of a message's tables
#define RESERVE (64u << 10)          // past the cap, for a killed mod's last allocations
#define WALL_SPAN 10e-6              // seconds of wall clock within which a call needs no CPU clock read (watch.c)

typedef struct Msg {
    char *from;
    unsigned char *data;
    size_t len;
} Msg;

struct Mod {
    steer_Engine *e;
    char *name, *root, *main;
    char *shown; // its name as messages show it (steerE_shown): every message names it so
    lua_State *L;
    size_t used, cap;
    double budget; // seconds per call
    int agent_cap;
    long work_cap; // units of the steer pass its agents may cost in one tick (policy.c)
    bool touch_all;
    steer_Agent *agents;
    int nagents;
    double print_tokens, print_rate;
    long suppressed;
    bool enabled;
    bool set_up;   // its setup ran to the end (a reload of a mod that never got there runs it)
    bool unloaded; // by the game: poll does not bring it back
    bool trial;    // the new code of a reload, not yet the mod: a failure neither halts its agents nor logs
    char reason[512];
    // The registry length its earlier states reached: brains may still hold
    // their steer.custom and ease references (ints), so a new state of the
    // mod (a reload, a load after an unload) takes no ref below it (modreload.c)
    int reg_len;
    // the files it read (its main file, its modules), watched by steer_engine_poll (modreload.c)
    Watch *files;
    int nfiles;
    double changed_at; // when a change to one was seen and not yet reloaded (0 none)
    int cb_ref, world_ref;
    int owner;            // 1 + its index: the owner number of its per-agent Lua (policy.owner)
    steerL_Policy policy; // what its state's bindings ask (policy.c)
    double tick_spent;    // seconds its per-agent calls took this tick (policy.c)
    double cpu;
    // the call in progress: in_call shared with the watchdog under e->lock;
    // the clock read only by the calling thread itself (watch.c, judge)
    bool in_call;
    steerY_CpuClock clock; // the calling thread's CPU clock
    double cpu0;           // a reading of it at most WALL_SPAN (wall) before the call began
    double wall0;          // the wall clock when it began
    bool cpu_read;         // its clock was read during the call (a look at the budget)
    atomic_bool look;      // set by the watchdog every period: judge the budget at the next look
    // the latest reading of a calling thread's CPU clock: the thread's
    // clock, the reading, the wall clock then (when_cpu 0: none yet)
    steerY_CpuClock last_clock;
    double last_cpu, when_cpu;
    unsigned long cpu_reads; // of the CPU clock, counted (test_mods)
    const char *doing;       // what the call in progress is ("in update", "while loading", ...), for a stop's reason
    // the verdict: kill_why and kill_reason are written once, under e->lock,
    // before `killed` is stored with release; read only after an acquire
    // load; the mod's own thread then adds where it stopped (steerE_check_stop)
    atomic_bool killed;
    bool located;
    char kill_why[400];
    char kill_reason[512];
    Msg inbox[MAX_INBOX];
    int ninbox;
    size_t inbox_bytes;
};

// The mod whose state (or thread) L is: set in the state's extra space
// before any of its code runs.
static inline Mod *steerE_mod_of(lua_State *L) { return *(Mod **)lua_getextraspace(L); }

// watch.c
// The mod's allocator (lua_newstate's, ud the mod): counts every byte
// against its cap and marks it killed past it.
void *steerE_mod_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
// The count hook of a new state's main thread (its coroutines inherit it).
void steerE_watch(lua_State *L);
// Arm the stop hook on L, the running thread: every instruction and call.
void steerE_arm(lua_State *L);
// Mark the mod killed for `why`; its own thread stops at its next look.
// _locked: the caller holds e->lock.
void steerE_kill(Mod *m, const char *why);
void steerE_kill_locked(Mod *m, const char *why);
// Whether the mod is marked killed (for steerL_DataOptions.stop).
int steerE_mod_stopped(void *m);
// A call into the mod begins (on this thread's CPU clock) and ends: the
// CPU seconds it took (a short call's wall time: watch.c), counted in m->cpu.
void steerE_begin_call(Mod *m);
double steerE_end_call(Mod *m);
// The watchdog thread: started once for the first mod, stopped by steerE_mods_free.
int steerE_watchdog_start(steer_Engine *e);
void steerE_watchdog_stop(steer_Engine *e);
// The policy's charge and poll of a mod's state (ud: the mod).
void steerE_mod_charge(void *ud, lua_State *L, lua_Integer bytes);
void steerE_mod_poll(void *ud, lua_State *L);

// policy.c
// The mod's policy, set on its state before the steer module is opened.
void steerE_mod_policy(Mod *m);
// After the world's step: what the steer pass of the mod's agents cost
// (steer_agent_work), against its work cap; past it the mod is killed.
void steerE_mod_charge_work(Mod *m);
// Its agents that the engine's world no longer holds leave its list.
void steerE_mod_forget_gone(Mod *m);

// message.c
// The mod named `name`, or NULL.
Mod *steerE_find_mod(steer_Engine *e, const char *name);
// steer.send(mod_name, data) -> true if queued for that (enabled) mod.
int steerE_mod_send(lua_State *L);
void steerE_clear_inbox(Mod *m);

// mod.c
// Call the function below nargs arguments in the mod, within its budget;
// 1 if the mod is still enabled afterwards (a failure disables it).
int steerE_mod_call(Mod *m, int nargs);
// Call the mod's callback `name` (setup, reload) with its world, if it has
// one: 1 if the mod is still enabled afterwards.
int steerE_mod_callback(Mod *m, const char *name);
// A new mod of the file or directory at path, under lim, not yet the
// engine's (NULL: out of memory); its state is made by steerE_mod_start.
Mod *steerE_mod_new(steer_Engine *e, const char *path, const steer_ModLimits *lim);
// Its Lua state, its sandbox and its main file run (m->enabled first):
// 1 if the mod is still enabled afterwards.
int steerE_mod_start(Mod *m);
// Close the mod's state (if open) and free it.
void steerE_mod_free(Mod *m);
// Watch `path` as one of the mod's files: false when out of memory.
bool steerE_mod_watch_file(Mod *m, const char *path);

// modsnap.c
// The mod's save() encoded under its budget: 1 if the mod is still enabled
// (*bytes, the engine's memory, NULL when it has no save), 0 if it failed
// (and is disabled, *bytes NULL).
int steerE_mod_save_data(Mod *m, unsigned char **bytes, size_t *len);
// Its load(data) with bytes from steerE_mod_save_data: 1 if still enabled.
int steerE_mod_load_data(Mod *m, const unsigned char *p, size_t len);
// Its world's "owned" set made anew from m->agents: 1 if still enabled.
int steerE_mod_own(Mod *m);

#endif
