// SPDX-License-Identifier: MIT
// mod.c — mods: Lua code a player installed, run so that it cannot hurt
// the game.
//
// Each mod has a Lua state of its own, so its memory, metatables and
// globals are its own. Its allocator counts every byte against a cap; the
// first allocation past the cap marks the mod killed. Every call
// into the mod (loading it, setup, the tick's events and messages, update)
// has a CPU budget, counted on the calling thread's CPU clock, so a
// machine busy with other work (time the thread spends waiting for a core)
// does not stop a mod that keeps to it. A watchdog thread, which wakes
// every millisecond, reads that clock and, once the budget is spent, only
// decides: it writes the reason and sets the mod's `killed` flag. It never
// touches a Lua state: Lua states are not thread-safe, and lua_sethook from
// another thread races with the owner pushing and freeing call frames.
//
// The mod's own thread acts on the verdict. Its main thread carries a
// permanent count hook from the state's creation (coroutines inherit it
// when created) that looks at the flag every WATCH_COUNT instructions; C
// loops that run no instruction look at it themselves (steerE_check_stop in
// the sandbox, the bindings' steerL_poll through the registry's
// STEERL_POLL). Once it sees the flag, the thread re-arms the hook on
// itself to fire at every instruction and every call, of a Lua or a C
// function, and raises, so a pcall inside the mod cannot swallow it: the
// mod unwinds to the engine, which disables it, closes its state and
// reports why.
//
// Invariant: the engine touches a mod's values only inside a protected
// call under the budget (mod_call). Its callbacks table may have an
// __index that raises, yields or loops, so even looking a callback up is
// the mod's code. Every C loop a mod can drive, also through metamethods
// or functions of its own that are C functions (a sort comparator, a gsub
// replacement, a reader), is bounded in sandbox.c or polls the verdict.
#define _XOPEN_SOURCE 700 // realpath
#include "engine.h"
#include "../lua/ldata.h"
#include "../core/bytes.h"

#include <lualib.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_MEMORY (16u << 20)
#define DEFAULT_CALL_MS 20.0
#define DEFAULT_AGENTS 1000
#define DEFAULT_PRINTS 20
#define WATCH_COUNT 1000             // instructions between two looks at the verdict
#define MAX_FILE (1u << 20)          // a mod's source file
#define MAX_MESSAGE (64u << 10)      // bytes of one message
#define MAX_INBOX 256                // messages waiting per mod
#define MAX_INBOX_BYTES (256u << 10) // their bytes: the receiver pays for decoding them
#define MAX_DEPTH 16                 // nesting of a message's tables
#define RESERVE (64u << 10)          // past the cap, for a killed mod's last allocations
#define REG_MOD "steer.mod"

typedef struct Msg {
    char *from;
    unsigned char *data;
    size_t len;
} Msg;

struct Mod {
    steer_Engine *e;
    char *name, *root, *main;
    lua_State *L;
    size_t used, cap;
    double budget; // seconds per call
    int agent_cap;
    bool touch_all;
    steer_Agent *agents;
    int nagents;
    double print_tokens, print_rate;
    long suppressed;
    bool enabled;
    char reason[512];
    int cb_ref, world_ref;
    int owner;         // 1 + its index: the owner number of its per-agent Lua (STEERL_OWNER)
    double tick_spent; // seconds its per-agent calls took this tick (route_end)
    double cpu;
    // the call in progress, shared with the watchdog under e->lock
    bool in_call;
    clockid_t clock;    // the calling thread's CPU clock
    unsigned long call; // calls begun; the watchdog's first look at one reads the clock
    unsigned long seen; // the call the watchdog has a reading of
    double cpu_start;   // that reading
    // the verdict: kill_reason is written once, under e->lock, before
    // `killed` is stored with release; read only after an acquire load
    atomic_bool killed;
    char kill_reason[512];
    Msg inbox[MAX_INBOX];
    int ninbox;
    size_t inbox_bytes;
};

// ---- stopping a mod -----------------------------------------------------------

static Mod *mod_of(lua_State *L) { return *(Mod **)lua_getextraspace(L); }

// The hook of every thread of a mod. Until the mod is killed it runs every
// WATCH_COUNT instructions and returns.
static void watch_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    steerE_check_stop(L);
}

// The count hook stops Lua code at its next instruction, the call hook any
// call, also of a C function (a loop of table.concat through __index runs
// no instruction). Only ever on the mod's own thread (the one running L).
// Lua runs no hook in finalisers: the steer module's C finalisers still
// run when the state closes.
static void arm(lua_State *L) { lua_sethook(L, watch_hook, LUA_MASKCOUNT | LUA_MASKCALL, 1); }

void steerE_check_stop(lua_State *L)
{
    Mod *m = mod_of(L);
    if (!atomic_load_explicit(&m->killed, memory_order_acquire)) return;
    arm(L);
    luaL_error(L, "%s", m->kill_reason);
}

// The bindings' loops call this every few thousand elements (steerL_poll).
static int poll_stop(lua_State *L)
{
    steerE_check_stop(L);
    return 0;
}

// Mark the mod killed; its own thread stops at its next look. Caller holds
// e->lock (so the reason is written once).
static void kill_locked(Mod *m, const char *why)
{
    if (atomic_load_explicit(&m->killed, memory_order_relaxed)) return;
    snprintf(m->kill_reason, sizeof m->kill_reason, "mod '%s' stopped: %s", m->name, why);
    atomic_store_explicit(&m->killed, true, memory_order_release);
}

// The same from the mod's own thread, which does not hold the lock.
static void kill_mod(Mod *m, const char *why)
{
    pthread_mutex_lock(&m->e->lock);
    kill_locked(m, why);
    pthread_mutex_unlock(&m->e->lock);
}

// STEERL_CHARGE (steerL_charge): the C memory of the mod's behaviour trees,
// grids and flow fields counts against its cap like its Lua memory.
static int charge(lua_State *L)
{
    Mod *m = mod_of(L);
    lua_Integer bytes = lua_tointeger(L, 1);
    if (bytes < 0) {
        size_t d = (size_t)-bytes;
        m->used = d < m->used ? m->used - d : 0;
        return 0;
    }
    m->used += (size_t)bytes;
    // Lua's collector sees none of this memory, so garbage trees and
    // fields may be what fills the cap: collect them (their __gc gives
    // their charge back) before judging
    if (m->used > m->cap) lua_gc(L, LUA_GCCOLLECT);
    if (m->used > m->cap) {
        char why[128];
        snprintf(why, sizeof why, "over its memory cap of %zu bytes (its trees, grids and flow fields count)", m->cap);
        kill_mod(m, why);
        steerE_check_stop(L);
    }
    return 0;
}

// A CPU clock in seconds.
static double clock_seconds(clockid_t c)
{
    struct timespec t;
    if (clock_gettime(c, &t) != 0) return steerE_now();
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *watchdog(void *arg)
{
    steer_Engine *e = arg;
    struct timespec tick = { 0, 1000000 };
    while (!atomic_load(&e->stopping)) {
        nanosleep(&tick, NULL);
        pthread_mutex_lock(&e->lock);
        for (int i = 0; i < e->nmods; i++) {
            Mod *m = e->mods[i];
            if (!m->in_call || atomic_load(&m->killed)) continue;
            // the first look at a call starts its count (a millisecond late
            // at most, the watchdog's period), so a call pays no clock read
            double cpu = clock_seconds(m->clock);
            if (m->seen != m->call) {
                m->seen = m->call;
                m->cpu_start = cpu;
            } else if (cpu - m->cpu_start > m->budget) {
                char why[96];
                snprintf(why, sizeof why, "over its CPU budget of %.0f ms per call", m->budget * 1e3);
                kill_locked(m, why);
            }
        }
        pthread_mutex_unlock(&e->lock);
    }
    return NULL;
}

static void *mod_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Mod *m = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        steerE_alloc(m->e, ptr, 0);
        m->used -= old;
        return NULL;
    }
    if (nsize > old && (nsize - old > m->cap || m->used + (nsize - old) > m->cap)) {
        char why[96];
        snprintf(why, sizeof why, "over its memory cap of %zu bytes", m->cap);
        kill_mod(m, why);
        // the killed mod stops at its next instruction; the allocation comes
        // from a small reserve, since the engine allocates in the state
        // outside the mod's calls too (a callback's name, a host behaviour),
        // where a memory error would be unprotected: an abort
        if (nsize - old > RESERVE || m->used + (nsize - old) > m->cap + RESERVE) return NULL;
    }
    void *p = steerE_alloc(m->e, ptr, nsize);
    if (p) m->used = m->used - old + nsize;
    return p;
}

// ---- calling into a mod ----------------------------------------------------------

// A mod's text on one line: "x\nmod good disabled: ..." would forge a line
// of the engine's log.
static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = ' ';
}

// A disabled mod's agents stop where they are: each gets the engine's brain
// steer.arrive on the agent's own target, set to its position, and thinks
// no more. (Its functions, trees and flow fields are the mod's no longer:
// the world lets go of them with the old brains.)
static void halt_agents(Mod *m)
{
    steer_Engine *e = m->e;
    steer_World *w = e->world;
    if (!w || (!e->halt && steer_behavior_new("arrive", &e->halt) != STEER_OK)) return;
    for (int i = 0; i < m->nagents; i++) {
        steer_Agent a = m->agents[i];
        double p[3];
        if (steer_agent_vec(w, a, STEER_PROP_POSITION, p) != STEER_OK) continue; // gone
        steer_agent_set_think(w, a, 0, 0);
        steer_agent_set_target(w, a, p, STEER_NO_AGENT);
        steer_agent_set_brain(w, a, e->halt);
    }
}

static void disable(Mod *m, const char *why)
{
    if (!m->enabled) return;
    m->enabled = false;
    halt_agents(m);
    snprintf(m->reason, sizeof m->reason, "%s", why);
    one_line(m->reason);
    steerE_log(m->e, 2, "mod %s disabled: %s", m->name, m->reason);
    if (m->L) {
        // no more of the mod's code runs: the call is over, the sandbox
        // allows no __gc of the mod's, and should any Lua code run while
        // the state closes, the armed hook stops it at once (this is the
        // thread that runs the mod)
        pthread_mutex_lock(&m->e->lock);
        kill_locked(m, "disabled");
        arm(m->L);
        pthread_mutex_unlock(&m->e->lock);
        lua_State *L = m->L;
        m->L = NULL;
        lua_close(L);
    }
}

static void begin_call(Mod *m)
{
    pthread_mutex_lock(&m->e->lock);
    m->in_call = true;
    if (pthread_getcpuclockid(pthread_self(), &m->clock) != 0) m->clock = CLOCK_MONOTONIC;
    m->call++;
    pthread_mutex_unlock(&m->e->lock);
}

static void end_call(Mod *m, double t0)
{
    pthread_mutex_lock(&m->e->lock);
    m->in_call = false;
    pthread_mutex_unlock(&m->e->lock);
    m->cpu += steerE_now() - t0;
}

// Call the function below nargs arguments in the mod, within its budget.
// Returns 1 if the mod is still enabled afterwards. No message handler:
// only the error's first line is kept, and its traceback would walk the
// mod's globals once per frame, outside the hook's reach.
static int mod_call(Mod *m, int nargs)
{
    if (atomic_load_explicit(&m->killed, memory_order_acquire)) { // past its cap outside a call
        disable(m, m->kill_reason);
        return 0;
    }
    lua_State *L = m->L;
    int base = lua_gettop(L) - nargs - 1;
    double t0 = steerE_now();
    begin_call(m);
    int st = lua_pcall(L, nargs, 0, 0);
    end_call(m, t0);
    if (atomic_load_explicit(&m->killed, memory_order_acquire)) {
        disable(m, m->kill_reason);
        return 0;
    }
    if (st != LUA_OK) {
        // always prefixed with the mod's name: Lua's "FILE:LINE:" shortens
        // a long path to "...TAIL", which may not name the mod, and some
        // errors have no position (a yield outside a coroutine, an error
        // object)
        char buf[512];
        if (lua_type(L, -1) == LUA_TSTRING) snprintf(buf, sizeof buf, "mod '%s': %s", m->name, lua_tostring(L, -1));
        else snprintf(buf, sizeof buf, "mod '%s': (error object is a %s value)", m->name, luaL_typename(L, -1));
        disable(m, buf);
        return 0;
    }
    lua_settop(L, base);
    return 1;
}

// Runs protected under the budget: callback `name` (a light userdata below
// the arguments) of the mod, looked up here, since the callbacks table's
// __index is the mod's code, then called with the arguments if it is a
// function.
static int call_callback(lua_State *L)
{
    Mod *m = mod_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->cb_ref);
    if (lua_getfield(L, -1, lua_touserdata(L, 1)) != LUA_TFUNCTION) return 0;
    lua_replace(L, 1);
    lua_pop(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
}

// Push what mod_call needs to call callback `name`; its arguments follow.
static void push_callback(Mod *m, const char *name)
{
    lua_pushcfunction(m->L, call_callback);
    lua_pushlightuserdata(m->L, (void *)name);
}

// ---- per-agent Lua: a mod's think, custom and ease functions -------------------
//
// The world's hooks hand these here (steerL_Route, e->route) by the owner
// number in their reference. Each runs in the mod's state like a callback:
// under its CPU budget and memory cap, its world userdata at stack index 1
// as the bindings' calls expect. A call that fails (an error, a yield, the
// budget or the cap) gives nothing — no think, no force, no easing — and
// stops the mod; so does every later call of this tick. The engine
// disables it at its next call (mod_call, after the world's step), and its
// agents stop (halt_agents). The world and the other mods never see the
// failure: the scenario's step goes on as if the mod had returned nothing.

// The mod whose function it is, if it may run now: enabled, not killed,
// on the engine's own world (a copy the scenario loaded and steps is not
// the mod's world: its agents there are not the mod's to think for), and
// a function there is (a snapshot keeps a mod's reference without it: 0).
static Mod *route_mod(steer_Engine *e, int owner, const steer_World *w, int ref)
{
    if (owner < 1 || owner > e->nmods || w != e->world || ref == 0) return NULL;
    Mod *m = e->mods[owner - 1];
    if (!m->enabled || !m->L || atomic_load_explicit(&m->killed, memory_order_acquire)) return NULL;
    return m;
}

static steerL_World *route_begin(Mod *m, double *t0)
{
    lua_State *L = m->L;
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->world_ref);
    steerL_World *lw = lua_touserdata(L, 1);
    lw->L = L;
    lw->cb_error[0] = 0;
    *t0 = steerE_now();
    begin_call(m);
    return lw;
}

// Nonzero when the call gave nothing. Each call has the mod's budget, and
// all of a tick's calls together have it once more (m->tick_spent, reset
// by steerE_mods_tick): thousands of calls each under the budget would
// otherwise stall every tick.
static int route_end(Mod *m, steerL_World *lw, double t0, int st)
{
    end_call(m, t0);
    m->tick_spent += steerE_now() - t0;
    lua_settop(m->L, 0);
    char why[400];
    why[0] = 0;
    if (st != 0) snprintf(why, sizeof why, "%.380s", lw->cb_error[0] ? lw->cb_error : "a per-agent call failed");
    else if (m->tick_spent > m->budget)
        snprintf(why, sizeof why,
                 "its thinks, custom and ease functions together over its CPU budget of %.0f ms in one tick",
                 m->budget * 1e3);
    if (why[0]) {
        kill_mod(m, why); // a kill during the call keeps its own reason
    }
    return st != 0 || atomic_load_explicit(&m->killed, memory_order_acquire);
}

static int route_think(void *ud, int owner, steer_World *w, steer_Agent a, double dt)
{
    Mod *m = route_mod(ud, owner, w, 1);
    if (!m) return 0;
    double t0;
    steerL_World *lw = route_begin(m, &t0);
    route_end(m, lw, t0, steerL_run_think(lw, a, dt));
    return 0; // a mod's failure is not the world's
}

static int route_custom(void *ud, int owner, int ref, steer_World *w, steer_Agent a, double dt, double out[3])
{
    Mod *m = route_mod(ud, owner, w, ref);
    if (!m) return 1;
    double t0;
    steerL_World *lw = route_begin(m, &t0);
    return route_end(m, lw, t0, steerL_run_custom(lw, ref, a, dt, out));
}

static int route_ease(void *ud, int owner, int ref, steer_World *w, double x, double *out)
{
    Mod *m = route_mod(ud, owner, w, ref);
    if (!m) return 1;
    double t0;
    steerL_World *lw = route_begin(m, &t0);
    return route_end(m, lw, t0, steerL_run_ease(lw, ref, x, out));
}

void steerE_mods_init_route(steer_Engine *e) { e->route = (steerL_Route){ route_think, route_custom, route_ease, e }; }

// ---- the mod's own library --------------------------------------------------------

// print: one log line per call, within the mod's allowance of lines per
// second of simulated time; the rest are counted and reported.
static int mod_print(lua_State *L)
{
    Mod *m = mod_of(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        steerE_check_stop(L); // a million arguments, each a __tostring of the mod's
        if (i > 1) luaL_addchar(&b, '\t');
        lua_getglobal(L, "tostring");
        lua_pushvalue(L, i);
        lua_call(L, 1, 1);
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (!s) return luaL_error(L, "print: tostring must return a string");
        if (len > 1000) len = 1000; // a log line, not a dump
        luaL_addlstring(&b, s, len);
        lua_pop(L, 1);
    }
    luaL_pushresult(&b);
    if (m->print_tokens < 1.0) {
        m->suppressed++;
        return 0;
    }
    m->print_tokens -= 1.0;
    char line[1024];
    snprintf(line, sizeof line, "%s", lua_tostring(L, -1));
    one_line(line);
    steerE_log(m->e, 0, "[%s] %s", m->name, line);
    return 0;
}

// require: only the mod's own files, found under its directory, as text.
static int mod_require(lua_State *L)
{
    Mod *m = mod_of(L);
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    bool ok = len > 0 && len < 200 && name[0] != '.';
    for (size_t i = 0; ok && i < len; i++)
        ok = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
             (name[i] >= '0' && name[i] <= '9') || name[i] == '_' ||
             (name[i] == '.' && name[i + 1] != '.' && name[i + 1] != '\0');
    if (!ok) return luaL_error(L, "require: '%s' is not a module name of this mod (letters, digits, _ and .)", name);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); // steer and the libraries are there too
    if (lua_getfield(L, -1, name) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    if (!m->root) // its directory is not its own: other mods, the game's files
        return luaL_error(L,
                          "require: module '%s' not found: mod '%s' is a single file (a mod with modules is a "
                          "directory NAME/ with init.lua)",
                          name, m->name);
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/", m->root);
    for (size_t i = 0; i < len && n < (int)sizeof path - 8; i++) path[n++] = name[i] == '.' ? '/' : name[i];
    snprintf(path + n, sizeof path - (size_t)n, ".lua");
    // and no link out of its directory (a mod's archive may hold links)
    char real[PATH_MAX], real_root[PATH_MAX];
    size_t rl = 0;
    bool inside = realpath(path, real) && realpath(m->root, real_root) &&
                  strncmp(real, real_root, rl = strlen(real_root)) == 0 && real[rl] == '/';
    size_t flen;
    char *text = inside ? steerE_read_file(m->e, path, MAX_FILE, &flen) : NULL;
    if (!text)
        return luaL_error(L, "require: module '%s' not found in mod '%s' (mods may require only their own files)", name,
                          m->name);
    lua_pushfstring(L, "@%s", path);
    int st = luaL_loadbufferx(L, text, flen, lua_tostring(L, -1), "t");
    steerE_alloc(m->e, text, 0);
    if (st != LUA_OK) return lua_error(L);
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -4, name);
    return 1;
}

// ---- messages: plain data copied between mods ---------------------------------------
//
// A message is one value of plain data in the codec of src/lua/ldata.c (the
// same as a.data's in a snapshot), copied: a table met twice is sent twice,
// a cycle is too deep. The decoder trusts none of it (steerE_decode_message
// is fuzzed): every read is checked against the end, and nesting against
// MAX_DEPTH, so hostile bytes raise "corrupt message".

static const steerL_DataOptions message_options = {
    .max_bytes = MAX_MESSAGE,
    .max_depth = MAX_DEPTH,
    .noun = "message",
    .verb = "sent",
};

// What steer.send says of data it cannot send.
static const char *message_error(steerL_DataStatus st)
{
    switch (st) {
    case STEERL_DATA_BAD_VALUE: return "only nil, booleans, numbers, strings and tables of them can be sent";
    case STEERL_DATA_BAD_KEY: return "table keys must be strings, numbers or booleans";
    case STEERL_DATA_TOO_DEEP: return "tables nested too deeply (or a cycle)";
    case STEERL_DATA_STOPPED: return "stopped";
    case STEERL_DATA_NO_MEMORY: return "out of memory";
    default: return "too large";
    }
}

int steerE_encode_message(lua_State *L, int idx, unsigned char **out, size_t *len, const char **err)
{
    steerL_DataStatus st = steerL_data_encode(L, idx, &message_options, out, len, NULL);
    if (st != STEERL_DATA_OK && err) *err = message_error(st);
    return st != STEERL_DATA_OK;
}

void steerE_decode_message(lua_State *L, const unsigned char *p, size_t len)
{
    steerL_data_decode(L, p, len, &message_options);
}

static Mod *find_mod(steer_Engine *e, const char *name)
{
    for (int i = 0; i < e->nmods; i++)
        if (strcmp(e->mods[i]->name, name) == 0) return e->mods[i];
    return NULL;
}

static void *engine_alloc(void *e, void *p, size_t size) { return steerE_alloc(e, p, size); }

static int mod_stopped(void *m) { return atomic_load(&((Mod *)m)->killed); }

// steer.send(mod_name, data) -> true if queued for that (enabled) mod
static int mod_send(lua_State *L)
{
    Mod *m = mod_of(L);
    const char *to = luaL_checkstring(L, 1);
    luaL_checkany(L, 2);
    Mod *r = find_mod(m->e, to);
    if (!r || !r->enabled || r == m || r->ninbox == MAX_INBOX || r->inbox_bytes >= MAX_INBOX_BYTES) {
        lua_pushboolean(L, 0);
        return 1;
    }
    steerL_DataOptions o = message_options;
    o.alloc = engine_alloc; // the engine keeps the message: not the mod's memory
    o.alloc_ud = m->e;
    o.stop = mod_stopped; // a kill ends a long encoding
    o.stop_ud = m;
    unsigned char *data;
    size_t n;
    steerL_DataStatus st = steerL_data_encode(L, 2, &o, &data, &n, NULL);
    if (st != STEERL_DATA_OK)
        return luaL_error(L, "steer.send: argument 'data': %s (at most %d bytes)", message_error(st), (int)MAX_MESSAGE);
    if (r->inbox_bytes + n > MAX_INBOX_BYTES) { // a flood would spend the receiver's budget
        steerE_alloc(m->e, data, 0);
        lua_pushboolean(L, 0);
        return 1;
    }
    Msg *msg = &r->inbox[r->ninbox];
    if (!(msg->from = steerE_strdup(m->e, m->name))) {
        steerE_alloc(m->e, data, 0);
        return luaL_error(L, "steer.send: out of memory");
    }
    msg->data = data;
    msg->len = n;
    r->ninbox++;
    r->inbox_bytes += n;
    lua_pushboolean(L, 1);
    return 1;
}

// math.random and math.randomseed on the mod's own stream, seeded from the
// world's seed and the mod's name: deterministic, like the world.
static uint64_t next_random(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "steer.mod_rng");
    uint64_t s = (uint64_t)lua_tointeger(L, -1);
    lua_pop(L, 1);
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    lua_pushinteger(L, (lua_Integer)s);
    lua_setfield(L, LUA_REGISTRYINDEX, "steer.mod_rng");
    return s;
}

static int mod_random(lua_State *L)
{
    double r = (double)(next_random(L) >> 11) * (1.0 / 9007199254740992.0);
    lua_Integer lo = 1, hi;
    switch (lua_gettop(L)) {
    case 0: lua_pushnumber(L, r); return 1;
    case 1: hi = luaL_checkinteger(L, 1); break;
    case 2:
        lo = luaL_checkinteger(L, 1);
        hi = luaL_checkinteger(L, 2);
        break;
    default: return luaL_error(L, "math.random: wrong number of arguments");
    }
    luaL_argcheck(L, lo <= hi, lua_gettop(L), "interval is empty");
    lua_Unsigned span = (lua_Unsigned)hi - (lua_Unsigned)lo;
    lua_pushinteger(L, (lua_Integer)((lua_Unsigned)lo + (lua_Unsigned)(r * ((double)span + 1.0))));
    return 1;
}

static int mod_randomseed(lua_State *L)
{
    lua_Integer s = luaL_checkinteger(L, 1);
    lua_pushinteger(L, s ? s : 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "steer.mod_rng");
    return 0;
}

// ---- building the sandbox ------------------------------------------------------------

static int quota_ok(void *ud)
{
    Mod *m = ud;
    if (m->nagents < m->agent_cap) return 1;
    int k = 0; // forget the ones that are gone
    for (int i = 0; i < m->nagents; i++)
        if (steer_alive(m->e->world, m->agents[i])) m->agents[k++] = m->agents[i];
    m->nagents = k;
    return k < m->agent_cap;
}

static void quota_note(void *ud, steer_Agent a)
{
    Mod *m = ud;
    if (m->nagents < m->agent_cap) m->agents[m->nagents++] = a;
}

// Runs protected in the new state: the libraries, the sandbox, the world
// view, then the mod's main file; leaves its callback table.
static int open_mod(lua_State *L)
{
    Mod *m = lua_touserdata(L, 1);
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, STEERL_SANDBOX);
    static const luaL_Reg libs[] = {
        { LUA_GNAME, luaopen_base },
        { LUA_COLIBNAME, luaopen_coroutine },
        { LUA_TABLIBNAME, luaopen_table },
        { LUA_STRLIBNAME, luaopen_string },
        { LUA_MATHLIBNAME, luaopen_math },
        { LUA_UTF8LIBNAME, luaopen_utf8 },
        { NULL, NULL },
    };
    for (const luaL_Reg *l = libs; l->func; l++) {
        luaL_requiref(L, l->name, l->func, 1);
        lua_pop(L, 1);
    }
    steerE_open_sandbox(L, m->cap / 4);
    lua_pushcfunction(L, poll_stop);
    lua_setfield(L, LUA_REGISTRYINDEX, STEERL_POLL);
    lua_pushcfunction(L, charge);
    lua_setfield(L, LUA_REGISTRYINDEX, STEERL_CHARGE);
    lua_pushinteger(L, m->owner); // its think, custom and ease functions run here (route_*)
    lua_setfield(L, LUA_REGISTRYINDEX, STEERL_OWNER);
    lua_pushcfunction(L, mod_print);
    lua_setglobal(L, "print");
    lua_pushcfunction(L, mod_require);
    lua_setglobal(L, "require");
    lua_getglobal(L, "math");
    lua_pushcfunction(L, mod_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, mod_randomseed);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
    uint64_t seed = steer_world_seed(m->e->world) * 0x9E3779B97F4A7C15ull;
    seed = steerS_fnv64(seed, m->name, strlen(m->name));
    lua_pushinteger(L, (lua_Integer)(seed ? seed : 1));
    lua_setfield(L, LUA_REGISTRYINDEX, "steer.mod_rng");
    // the steer module, without worlds of its own, plus steer.send
    for (int i = 0; i < m->e->nkinds; i++) steer_lua_register_host(L, m->e->kinds[i]);
    luaL_requiref(L, "steer", luaopen_steer, 1);
    lua_pushnil(L);
    lua_setfield(L, -2, "world");
    lua_pushnil(L); // nobody sees a mod's drawing, which grows in C memory
    lua_setfield(L, -2, "debug_draw");
    lua_pushcfunction(L, mod_send);
    lua_setfield(L, -2, "send");
    lua_pushstring(L, m->name);
    lua_setfield(L, -2, "mod_name");
    lua_pop(L, 1);
    steerE_protect_metatables(L);
    steerL_World *lw = steerL_push_borrowed_world(L, m->e->world);
    lw->may_spawn = quota_ok;
    lw->spawned = quota_note;
    lw->quota_ud = m;
    lw->own_only = !m->touch_all;
    m->world_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    // the main file, as text only
    size_t len;
    char *text = steerE_read_file(m->e, m->main, MAX_FILE, &len);
    if (!text) return luaL_error(L, "%s: cannot read the mod's file", m->main);
    lua_pushfstring(L, "@%s", m->main);
    int st = luaL_loadbufferx(L, text, len, lua_tostring(L, -1), "t");
    steerE_alloc(m->e, text, 0);
    if (st != LUA_OK) return lua_error(L);
    lua_call(L, 0, 1);
    if (!lua_istable(L, -1))
        return luaL_error(L, "%s: a mod must return a table of callbacks, got %s", m->main, luaL_typename(L, -1));
    m->cb_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static void free_mod(steer_Engine *e, Mod *m)
{
    if (m->L) lua_close(m->L);
    for (int i = 0; i < m->ninbox; i++) {
        steerE_alloc(e, m->inbox[i].from, 0);
        steerE_alloc(e, m->inbox[i].data, 0);
    }
    steerE_alloc(e, m->agents, 0);
    steerE_alloc(e, m->name, 0);
    steerE_alloc(e, m->root, 0);
    steerE_alloc(e, m->main, 0);
    steerE_alloc(e, m, 0);
}

int steer_engine_load_mod(steer_Engine *e, const char *path, const steer_ModLimits *limits, int *id)
{
    if (!e || !path) return STEER_EARG;
    if (!e->world)
        return steerE_fail(e, STEER_EARG, "steer_engine_load_mod: load a scenario first (mods act on its world)");
    steer_ModLimits lim = { 0 };
    if (limits) lim = *limits;
    if (lim.call_ms < 0 || !isfinite(lim.call_ms) || lim.agents < 0 || lim.prints < 0)
        return steerE_fail(e, STEER_EARG, "steer_engine_load_mod: limits must be >= 0");
    Mod *m = steerE_alloc(e, NULL, sizeof *m);
    if (!m) return STEER_ENOMEM;
    memset(m, 0, sizeof *m);
    m->e = e;
    m->cap = lim.memory ? lim.memory : DEFAULT_MEMORY;
    m->budget = (lim.call_ms > 0 ? lim.call_ms : DEFAULT_CALL_MS) * 1e-3;
    m->agent_cap = lim.agents ? lim.agents : DEFAULT_AGENTS;
    m->touch_all = lim.touch_all;
    m->print_rate = lim.prints ? lim.prints : DEFAULT_PRINTS;
    m->print_tokens = m->print_rate;
    m->cb_ref = m->world_ref = LUA_NOREF;
    atomic_init(&m->killed, false);
    // NAME.lua (a single file: no modules) or NAME/ with init.lua (and its modules)
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    const char *slash = NULL;
    for (size_t i = 0; i < n; i++)
        if (path[i] == '/') slash = path + i;
    const char *base = slash ? slash + 1 : path;
    size_t blen = (size_t)(path + n - base);
    char buf[4096];
    bool file = blen > 4 && memcmp(path + n - 4, ".lua", 4) == 0;
    if (file) { // no root: no modules
        snprintf(buf, sizeof buf, "%.*s", (int)(blen - 4), base);
        m->name = steerE_strdup(e, buf);
        snprintf(buf, sizeof buf, "%.*s", (int)n, path);
        m->main = steerE_strdup(e, buf);
    } else {
        snprintf(buf, sizeof buf, "%.*s", (int)n, path);
        m->root = steerE_strdup(e, buf);
        snprintf(buf, sizeof buf, "%.*s", (int)blen, base);
        m->name = steerE_strdup(e, buf);
        snprintf(buf, sizeof buf, "%.*s/init.lua", (int)n, path);
        m->main = steerE_strdup(e, buf);
    }
    m->agents = steerE_alloc(e, NULL, (size_t)m->agent_cap * sizeof *m->agents);
    if ((!file && !m->root) || !m->name || !m->main || !m->agents) {
        free_mod(e, m);
        return STEER_ENOMEM;
    }
    if (e->nmods >= STEERL_MAX_OWNER) {
        free_mod(e, m);
        return steerE_fail(e, STEER_EARG, "steer_engine_load_mod: at most %d mods", STEERL_MAX_OWNER);
    }
    if (find_mod(e, m->name)) {
        int st = steerE_fail(e, STEER_EARG, "steer_engine_load_mod: a mod named '%s' is loaded already", m->name);
        free_mod(e, m);
        return st;
    }
    pthread_mutex_lock(&e->lock); // the watchdog reads the array
    Mod **nm = steerE_alloc(e, e->mods, (size_t)(e->nmods + 1) * sizeof *nm);
    if (nm) e->mods = nm;
    pthread_mutex_unlock(&e->lock);
    if (!nm) {
        free_mod(e, m);
        return STEER_ENOMEM;
    }
    if (!e->watchdog_running) {
        if (pthread_create(&e->watchdog, NULL, watchdog, e) != 0) {
            free_mod(e, m);
            return steerE_fail(e, STEER_ENOMEM, "steer_engine_load_mod: cannot start the watchdog thread");
        }
        e->watchdog_running = true;
    }
    pthread_mutex_lock(&e->lock);
    e->mods[e->nmods++] = m;
    pthread_mutex_unlock(&e->lock);
    m->owner = e->nmods;
    if (id) *id = e->nmods - 1;
    m->enabled = true;
    m->L = lua_newstate(mod_alloc, m);
    if (!m->L) {
        disable(m, "out of memory creating its state");
        return steerE_fail(e, STEER_EMOD, "mod %s: %s", m->name, m->reason);
    }
    // before any code of the mod's: every thread it creates inherits both
    *(Mod **)lua_getextraspace(m->L) = m;
    lua_sethook(m->L, watch_hook, LUA_MASKCOUNT, WATCH_COUNT);
    lua_pushcfunction(m->L, open_mod);
    lua_pushlightuserdata(m->L, m);
    if (!mod_call(m, 1)) return steerE_fail(e, STEER_EMOD, "mod %s: %s", m->name, m->reason);
    push_callback(m, "setup");
    lua_rawgeti(m->L, LUA_REGISTRYINDEX, m->world_ref);
    if (!mod_call(m, 2)) return steerE_fail(e, STEER_EMOD, "mod %s: %s", m->name, m->reason);
    return STEER_OK;
}

// ---- each tick -------------------------------------------------------------------------

// The tick's messages and events in one protected C call inside the mod
// (so that a memory error while building them is the mod's, not ours).
static int deliver(lua_State *L)
{
    Mod *m = lua_touserdata(L, 1);
    // the brains its agents no longer use may go (and give their memory
    // back): w:step does this for a scenario, and a mod never steps
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->world_ref);
    steerL_unpin_brains(L, lua_gettop(L));
    lua_pop(L, 1);
    int ev_fn = 0, msg_fn = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->cb_ref);
    int cb = lua_gettop(L);
    if (lua_getfield(L, cb, "on_message") == LUA_TFUNCTION) msg_fn = lua_gettop(L);
    if (lua_getfield(L, cb, "on_event") == LUA_TFUNCTION) ev_fn = lua_gettop(L);
    // the callbacks may be C functions (on_event = print): a loop of calls
    // that runs no instruction looks at the verdict itself
    for (int i = 0; i < m->ninbox; i++) {
        Msg *msg = &m->inbox[i];
        if (!msg_fn) continue;
        steerE_check_stop(L);
        lua_pushvalue(L, msg_fn);
        lua_pushstring(L, msg->from);
        steerE_decode_message(L, msg->data, msg->len);
        lua_call(L, 2, 0);
    }
    if (ev_fn) {
        int n = 0;
        const steer_Event *ev = steer_world_events(m->e->world, &n);
        lua_rawgeti(L, LUA_REGISTRYINDEX, m->world_ref);
        int w = lua_gettop(L);
        for (int i = 0; i < n; i++) {
            if (!steer_alive(m->e->world, ev[i].agent)) continue;
            steerE_check_stop(L);
            lua_pushvalue(L, ev_fn);
            lua_pushstring(L, steerL_event_name(ev[i].type));
            steerL_pushagent(L, w, ev[i].agent);
            if (ev[i].other.id && steer_alive(m->e->world, ev[i].other)) steerL_pushagent(L, w, ev[i].other);
            else lua_pushnil(L);
            lua_call(L, 3, 0);
        }
    }
    return 0;
}

static void clear_inbox(steer_Engine *e, Mod *m)
{
    for (int i = 0; i < m->ninbox; i++) {
        steerE_alloc(e, m->inbox[i].from, 0);
        steerE_alloc(e, m->inbox[i].data, 0);
    }
    m->ninbox = 0;
    m->inbox_bytes = 0;
}

void steerE_mods_tick(steer_Engine *e)
{
    double dt = e->dt;
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->enabled) {
            clear_inbox(e, m);
            continue;
        }
        m->print_tokens += m->print_rate * dt;
        if (m->print_tokens > m->print_rate) m->print_tokens = m->print_rate;
        if (m->suppressed && m->print_tokens >= 1.0) {
            steerE_log(e, 1, "[%s] %ld lines of print suppressed (limit %.0f per second)", m->name, m->suppressed,
                       m->print_rate);
            m->suppressed = 0;
        }
        m->tick_spent = 0; // the next tick's per-agent calls start afresh
        lua_pushcfunction(m->L, deliver);
        lua_pushlightuserdata(m->L, m);
        int ok = mod_call(m, 1);
        clear_inbox(e, m);
        if (!ok) continue;
        push_callback(m, "update");
        lua_rawgeti(m->L, LUA_REGISTRYINDEX, m->world_ref);
        lua_pushnumber(m->L, dt);
        mod_call(m, 3);
    }
}

void steerE_mods_register_kind(steer_Engine *e, const steer_HostKind *k)
{
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->L) continue;
        // under the budget: the mod's steer table may have a __newindex
        lua_pushcfunction(m->L, steerE_register_kind);
        lua_pushlightuserdata(m->L, (void *)k);
        mod_call(m, 1);
    }
}

void steerE_mods_free(steer_Engine *e)
{
    if (e->watchdog_running) {
        atomic_store(&e->stopping, true);
        pthread_join(e->watchdog, NULL);
        e->watchdog_running = false;
    }
    for (int i = 0; i < e->nmods; i++) free_mod(e, e->mods[i]);
    steer_behavior_release(e->halt);
    e->halt = NULL;
    steerE_alloc(e, e->mods, 0);
    e->mods = NULL;
    e->nmods = 0;
}

// ---- snapshots: each mod's own state -------------------------------------------------
//
// A mod's save() returns plain data (shared subtables and cycles kept),
// encoded inside the mod's call, under its budget, into the engine's
// memory; load(data) gets it back decoded in the mod's state. The engine
// keeps each mod's bytes under the mod's name (steer_engine_save).

static const steerL_DataOptions mod_data_options = {
    .shared = true,
    .where = "save()",
    .noun = "mod data",
};

typedef struct ModData {
    unsigned char *bytes; // NULL: the mod has no save
    size_t len;
    const unsigned char *in; // what load gets
    size_t inlen;
} ModData;

// Runs protected under the budget: the mod's save(), its result encoded.
static int save_f(lua_State *L)
{
    Mod *m = mod_of(L);
    ModData *out = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->cb_ref);
    if (lua_getfield(L, -1, "save") != LUA_TFUNCTION) return 0;
    lua_call(L, 0, 1);
    steerL_DataOptions o = mod_data_options;
    o.alloc = engine_alloc;
    o.alloc_ud = m->e;
    o.stop = mod_stopped;
    o.stop_ud = m;
    steerL_DataError err;
    if (steerL_data_encode(L, -1, &o, &out->bytes, &out->len, &err) != STEERL_DATA_OK)
        return luaL_error(L, "%s", err.message);
    return 0;
}

// Runs protected under the budget: the saved data decoded, to the mod's load(data).
static int load_f(lua_State *L)
{
    Mod *m = mod_of(L);
    const ModData *d = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->cb_ref);
    if (lua_getfield(L, -1, "load") != LUA_TFUNCTION) return 0;
    steerL_data_decode(L, d->in, d->inlen, &mod_data_options);
    lua_call(L, 1, 0);
    return 0;
}

int steerE_mods_save(steer_Engine *e, int (*emit)(void *ud, const char *name, const unsigned char *p, size_t len),
                     void *ud)
{
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->enabled) continue;
        ModData d = { 0 };
        lua_pushcfunction(m->L, save_f);
        lua_pushlightuserdata(m->L, &d);
        if (!mod_call(m, 1) || !d.bytes) {
            steerE_alloc(e, d.bytes, 0);
            continue;
        }
        int st = emit(ud, m->name, d.bytes, d.len);
        steerE_alloc(e, d.bytes, 0);
        if (st != 0) return st;
    }
    return 0;
}

int steerE_mod_load(steer_Engine *e, const char *name, const unsigned char *p, size_t len)
{
    Mod *m = find_mod(e, name);
    if (!m || !m->enabled) {
        // with no mods loaded yet (steer run --load restores the snapshot
        // once before loading them, and again after) nothing is lost yet
        if (e->nmods > 0) steerE_log(e, 1, "snapshot: mod %s is not running: its saved data is left out", name);
        return 0;
    }
    ModData d = { .in = p, .inlen = len };
    lua_pushcfunction(m->L, load_f);
    lua_pushlightuserdata(m->L, &d);
    return mod_call(m, 1) ? 0 : STEER_EMOD;
}

// ---- snapshots: what the engine keeps for each mod ----------------------------------
//
// Beside a mod's own data a snapshot holds what the engine keeps for it
// between ticks: its live agents (they count against its quota, are the
// ones halted when it is disabled, and the ones it may change without
// touch_all: its world's "owned" set) and its inbox (messages sent during
// the last tick's updates, delivered at the next). Little-endian: a u32
// count of agents and each one's u64 handle id, then a u32 count of
// messages and each one's sender (u32 length, the name) and bytes (u32
// length, steer.send's encoding).

#define MAX_SENDER 4096 // bytes of a sender's name in a snapshot

int steerE_mods_save_state(steer_Engine *e, int (*emit)(void *ud, const char *name, const unsigned char *p, size_t len),
                           void *ud)
{
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->enabled) continue;
        int live = 0;
        for (int k = 0; k < m->nagents; k++) live += steer_alive(e->world, m->agents[k]);
        size_t len = 8 + 8 * (size_t)live;
        for (int k = 0; k < m->ninbox; k++) len += 8 + strlen(m->inbox[k].from) + m->inbox[k].len;
        unsigned char *p = steerE_alloc(e, NULL, len);
        if (!p) return STEER_ENOMEM;
        steerS_Writer q;
        steerS_writer_fixed(&q, p, len);
        steerS_put_u32(&q, (uint32_t)live);
        for (int k = 0; k < m->nagents; k++)
            if (steer_alive(e->world, m->agents[k])) steerS_put_u64(&q, m->agents[k].id);
        steerS_put_u32(&q, (uint32_t)m->ninbox);
        for (int k = 0; k < m->ninbox; k++) {
            const Msg *msg = &m->inbox[k];
            steerS_put_str(&q, msg->from);
            steerS_put_u32(&q, (uint32_t)msg->len);
            steerS_put(&q, msg->data, msg->len);
        }
        int st = emit(ud, m->name, p, len);
        steerE_alloc(e, p, 0);
        if (st != 0) return st;
    }
    return 0;
}

bool steerE_mod_state_ok(const unsigned char *p, size_t len)
{
    steerS_Reader r;
    steerS_reader_init(&r, p, len, NULL, 0);
    uint32_t nagents = steerS_get_u32(&r);
    if (r.failed || nagents > steerS_left(&r) / 8) return false;
    steerS_take(&r, 8 * (size_t)nagents);
    uint32_t nmsgs = steerS_get_u32(&r);
    uint64_t total = 0;
    if (r.failed || nmsgs > MAX_INBOX) return false;
    for (uint32_t i = 0; i < nmsgs; i++) {
        uint32_t fl, dl;
        const unsigned char *from = steerS_get_str(&r, &fl);
        if (!from || fl == 0 || fl > MAX_SENDER || memchr(from, '\0', fl)) return false;
        const unsigned char *data = steerS_get_str(&r, &dl);
        if (!data || dl == 0 || dl > MAX_MESSAGE) return false;
        total += dl;
    }
    return total <= MAX_INBOX_BYTES && !steerS_left(&r);
}

// Runs protected under the budget, in the mod's state (its memory): the
// world's "owned" set made anew from the mod's agents.
static int own_f(lua_State *L)
{
    Mod *m = mod_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->world_ref);
    lua_getiuservalue(L, -1, 1);
    lua_createtable(L, 0, m->nagents);
    for (int i = 0; i < m->nagents; i++) {
        lua_pushboolean(L, 1);
        steerL_rawsetid(L, -2, m->agents[i].id);
    }
    lua_setfield(L, -2, "owned");
    return 0;
}

// The mod's agents and inbox become the saved ones (s checked by
// steerE_mod_state_ok), or none (s NULL: it was not running then). Agents
// gone from the world, or past the mod's quota now, are not its own.
static void set_state(Mod *m, const steerE_ModState *s)
{
    steer_Engine *e = m->e;
    m->nagents = 0;
    clear_inbox(e, m);
    if (s) {
        steerS_Reader r;
        steerS_reader_init(&r, s->p, s->len, NULL, 0);
        uint32_t n = steerS_get_u32(&r);
        for (uint32_t i = 0; i < n; i++) {
            steer_Agent a = { steerS_get_u64(&r) };
            if (m->nagents < m->agent_cap && steer_alive(e->world, a)) m->agents[m->nagents++] = a;
        }
        n = steerS_get_u32(&r);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t fl, dl;
            const unsigned char *from = steerS_get_str(&r, &fl), *data = steerS_get_str(&r, &dl);
            Msg *msg = &m->inbox[m->ninbox];
            msg->from = steerE_alloc(e, NULL, fl + 1);
            msg->data = steerE_alloc(e, NULL, dl);
            if (!msg->from || !msg->data) {
                steerE_alloc(e, msg->from, 0);
                steerE_alloc(e, msg->data, 0);
                steerE_log(e, 2, "snapshot: mod %s: out of memory: its saved messages are left out", m->name);
                break;
            }
            memcpy(msg->from, from, fl);
            msg->from[fl] = '\0';
            memcpy(msg->data, data, dl);
            msg->len = dl;
            m->ninbox++;
            m->inbox_bytes += dl;
        }
    }
    if (m->touch_all) return; // it changes any agent: its world keeps no "owned" set
    lua_pushcfunction(m->L, own_f);
    mod_call(m, 0);
}

void steerE_mods_restore_state(steer_Engine *e, const steerE_ModState *saved, int n)
{
    for (int i = 0; i < n; i++) {
        const Mod *m = find_mod(e, saved[i].name);
        if ((!m || !m->enabled) && e->nmods > 0)
            steerE_log(e, 1, "snapshot: mod %s is not running: its agents and messages are left out", saved[i].name);
    }
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->enabled) continue;
        const steerE_ModState *s = NULL;
        for (int k = 0; k < n && !s; k++)
            if (strcmp(saved[k].name, m->name) == 0) s = &saved[k];
        set_state(m, s);
    }
}

int steer_engine_unload_mod(steer_Engine *e, int id)
{
    if (!e || id < 0 || id >= e->nmods) return STEER_EARG;
    disable(e->mods[id], "unloaded by the game");
    return STEER_OK;
}

int steer_engine_mod_count(const steer_Engine *e) { return e ? e->nmods : 0; }

int steer_engine_mod_info(const steer_Engine *e, int id, steer_ModInfo *out)
{
    if (!e || !out || id < 0 || id >= e->nmods) return STEER_EARG;
    const Mod *m = e->mods[id];
    out->name = m->name;
    out->enabled = m->enabled;
    out->reason = m->enabled ? "" : m->reason;
    out->memory = m->used;
    out->cpu_ms = m->cpu * 1e3;
    return STEER_OK;
}
