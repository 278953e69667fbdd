// SPDX-License-Identifier: MIT
// mod.c — mods: Lua code a player installed, run so that it cannot hurt
// the game.
//
// Each mod has a Lua state of its own, so its memory, metatables and
// globals are its own. Its allocator counts every byte against a cap; the
// first allocation past the cap marks the mod killed. Every call
// into the mod (loading it, setup, the tick's events and messages, update)
// has a CPU budget, counted on the calling thread's CPU clock (or, for a
// call of a few microseconds, the wall clock: watch.c), so a machine busy
// with other work (time the thread spends waiting for a core) does not
// stop a mod that keeps to it. A watchdog thread, which wakes
// every millisecond, only asks the mod's thread to look at that clock
// (watch.c, judge: no other thread reads it, which on a virtual machine
// would charge the thread time the hypervisor stole); past the budget that
// thread writes the reason and sets the mod's `killed` flag. The watchdog
// never touches a Lua state: Lua states are not thread-safe, and
// lua_sethook from another thread races with the owner pushing and freeing
// call frames.
//
// The mod's own thread acts on the verdict. Its main thread carries a
// permanent count hook from the state's creation (coroutines inherit it
// when created) that looks at the flag every WATCH_COUNT instructions; C
// loops that run no instruction look at it themselves (steerE_check_stop in
// the sandbox, the bindings' steerL_poll through the mod's policy). Once
// it sees the flag, the thread re-arms the hook on itself to fire at every
// instruction and every call, of a Lua or a C function, and raises, so a
// pcall inside the mod cannot swallow it: the mod unwinds to the engine,
// which disables it, closes its state and reports why.
//
// Invariant: the engine touches a mod's values only inside a protected
// call under the budget (steerE_mod_call). Its callbacks table may have an
// __index that raises, yields or loops, so even looking a callback up is
// the mod's code. Every C loop a mod can drive, also through metamethods
// or functions of its own that are C functions (a sort comparator, a gsub
// replacement, a reader), is bounded in sandbox.c or polls the verdict.
//
// The files (mod.h): watch.c stops a mod, sandbox.c is its library,
// policy.c the rules its bindings ask (lpolicy.h), message.c its inbox,
// this file its life (load, call, tick, disable), modsnap.c its part of a
// snapshot; each calls only the ones before it and base.c.
#include "mod.h"
#include "../core/bytes.h"
#include "../lua/lnav.h"

#include <lualib.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- calling into a mod ----------------------------------------------------------

// A mod's text on one line: "x\nmod good disabled: ..." would forge a line
// of the engine's log, and a control character (C0, DEL, C1 in UTF-8: an
// escape sequence's start) would reach a terminal.
static void one_line(char *s)
{
    for (unsigned char *p = (unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) *p = ' ';
        else if (*p == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0) p[0] = p[1] = ' ';
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

// The log line of a disabled mod names it once: its reason mostly starts
// with "mod 'NAME': " or "mod 'NAME' stopped", which the line drops.
static void log_disabled(Mod *m)
{
    const char *why = m->reason;
    size_t n = strlen(m->shown);
    if (strncmp(why, "mod '", 5) == 0 && strncmp(why + 5, m->shown, n) == 0 && why[5 + n] == '\'') {
        why += 6 + n;
        if (why[0] == ':') why++;
        if (why[0] == ' ') why++;
    }
    steerE_log(m->e, 2, "mod '%s' disabled: %s", m->shown, why);
}

static void disable(Mod *m, const char *why)
{
    if (!m->enabled) return;
    m->enabled = false;
    if (!m->trial) halt_agents(m); // a reload's new code: its agents are the running version's
    snprintf(m->reason, sizeof m->reason, "%s", why);
    one_line(m->reason);
    if (!m->trial) log_disabled(m); // a reload's failure is reported by the reload
    if (m->L) {
        // no more of the mod's code runs: the call is over, the sandbox
        // allows no __gc of the mod's, and should any Lua code run while
        // the state closes, the armed hook stops it at once (this is the
        // thread that runs the mod)
        steerY_mutex_lock(&m->e->lock);
        steerE_kill_locked(m, "disabled");
        steerE_arm(m->L);
        steerY_mutex_unlock(&m->e->lock);
        lua_State *L = m->L;
        m->L = NULL;
        // brains may hold its references: a later state of the mod takes none of them
        int len = (int)lua_rawlen(L, LUA_REGISTRYINDEX) + 1;
        if (len > m->reg_len) m->reg_len = len;
        lua_close(L);
    }
}

// No message handler:
// only the error's first line is kept, and its traceback would walk the
// mod's globals once per frame, outside the hook's reach.
int steerE_mod_call(Mod *m, int nargs)
{
    if (atomic_load_explicit(&m->killed, memory_order_acquire)) { // past its cap outside a call
        disable(m, m->kill_reason);
        return 0;
    }
    lua_State *L = m->L;
    int base = lua_gettop(L) - nargs - 1;
    steerE_begin_call(m);
    int st = lua_pcall(L, nargs, 0, 0);
    steerE_end_call(m);
    m->doing = NULL; // each caller says what its call is
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
        if (lua_type(L, -1) == LUA_TSTRING) snprintf(buf, sizeof buf, "mod '%s': %s", m->shown, lua_tostring(L, -1));
        else snprintf(buf, sizeof buf, "mod '%s': (error object is a %s value)", m->shown, luaL_typename(L, -1));
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
    Mod *m = steerE_mod_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->cb_ref);
    if (lua_getfield(L, -1, lua_touserdata(L, 1)) != LUA_TFUNCTION) return 0;
    lua_replace(L, 1);
    lua_pop(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
}

// Push what steerE_mod_call needs to call callback `name` (`doing`: "in
// NAME", for a stop's reason); its arguments follow.
static void push_callback(Mod *m, const char *name, const char *doing)
{
    m->doing = doing;
    lua_pushcfunction(m->L, call_callback);
    lua_pushlightuserdata(m->L, (void *)name);
}

int steerE_mod_callback(Mod *m, const char *name)
{
    static const char *const known[][2] = { { "setup", "in setup" }, { "reload", "in reload" } };
    const char *doing = NULL;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i][0], name) == 0) doing = known[i][1];
    push_callback(m, name, doing);
    lua_rawgeti(m->L, LUA_REGISTRYINDEX, m->world_ref);
    return steerE_mod_call(m, 2);
}
// ---- the mod's own library --------------------------------------------------------

// print: one log line per call, within the mod's allowance of lines per
// second of simulated time; the rest are counted and reported.
static int mod_print(lua_State *L)
{
    Mod *m = steerE_mod_of(L);
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
    steerE_log(m->e, 0, "[%s] %s", m->shown, line);
    return 0;
}

// require: only the mod's own files, found under its directory, as text.
static int mod_require(lua_State *L)
{
    Mod *m = steerE_mod_of(L);
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
    if (steerE_removed_library(name)) return luaL_error(L, "require: %s is not available to mods", name);
    if (!m->root) // its directory is not its own: other mods, the game's files
        return luaL_error(L,
                          "require: module '%s' not found: mod '%s' is a single file (a mod with modules is a "
                          "directory NAME/ with init.lua)",
                          name, m->shown);
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/", m->root);
    for (size_t i = 0; i < len && n < (int)sizeof path - 8; i++) path[n++] = name[i] == '.' ? '/' : name[i];
    snprintf(path + n, sizeof path - (size_t)n, ".lua");
    // and no link out of its directory (a mod's archive may hold links)
    char real[STEERY_PATH_MAX], real_root[STEERY_PATH_MAX];
    size_t rl = 0;
    bool inside = steerY_realpath(path, real, sizeof real) && steerY_realpath(m->root, real_root, sizeof real_root) &&
                  strncmp(real, real_root, rl = strlen(real_root)) == 0 && steerY_is_slash(real[rl]);
    size_t flen;
    char *text = inside ? steerE_read_file(m->e, path, MAX_FILE, &flen) : NULL;
    if (text && !steerE_mod_watch_file(m, path)) {
        steerE_alloc(m->e, text, 0);
        return luaL_error(L, "require: not enough memory to watch module '%s'", name);
    }
    if (!text)
        return luaL_error(L, "require: module '%s' not found in mod '%s' (mods may require only their own files)", name,
                          m->shown);
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

// Runs protected in the new state: the libraries, the sandbox, the world
// view, then the mod's main file; leaves its callback table.
static int open_mod(lua_State *L)
{
    Mod *m = lua_touserdata(L, 1);
    // an earlier state's references that brains may hold are taken here
    // first, so none of this state's is one of them (policy.c gives
    // nothing for a reference that is no function)
    while ((int)lua_rawlen(L, LUA_REGISTRYINDEX) + 1 < m->reg_len) {
        lua_pushboolean(L, 0);
        luaL_ref(L, LUA_REGISTRYINDEX);
    }
    // its rules, before the steer module opens: a sandbox, its owner
    // number, quota, charges and polls (policy.c)
    steerE_mod_policy(m);
    steerL_set_policy(L, &m->policy);
    steerL_set_host(L, &m->e->host); // what steer allocates for the mod: the host's memory, charged to the mod
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
    lua_pushnil(L); // the scenario's (engine.c keeps it); a mod's state goes through its save() and load(data)
    lua_setfield(L, -2, "state");
    lua_pushcfunction(L, steerE_mod_send);
    lua_setfield(L, -2, "send");
    lua_pushstring(L, m->name);
    lua_setfield(L, -2, "mod_name");
    lua_pop(L, 1);
    steerE_protect_metatables(L);
    steerL_push_borrowed_world(L, m->e->world); // under the mod's policy
    m->world_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    // the main file, as text only (watched even when it cannot be read: it may be saved later)
    if (!steerE_mod_watch_file(m, m->main)) return luaL_error(L, "not enough memory to watch %s", m->main);
    size_t len;
    char *text = steerE_read_file(m->e, m->main, MAX_FILE, &len);
    if (!text) {
        char why[128];
        return luaL_error(L, "cannot read %s: %s", m->main, steerE_read_error(errno, MAX_FILE, why, sizeof why));
    }
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

void steerE_mod_free(Mod *m)
{
    steer_Engine *e = m->e;
    if (m->L) lua_close(m->L);
    steerE_clear_inbox(m);
    for (int i = 0; i < m->nfiles; i++) steerE_alloc(e, m->files[i].path, 0);
    steerE_alloc(e, m->files, 0);
    steerE_alloc(e, m->agents, 0);
    steerE_alloc(e, m->name, 0);
    steerE_alloc(e, m->shown, 0);
    steerE_alloc(e, m->root, 0);
    steerE_alloc(e, m->main, 0);
    steerE_alloc(e, m, 0);
}

bool steerE_mod_watch_file(Mod *m, const char *path)
{
    steer_Engine *e = m->e;
    for (int i = 0; i < m->nfiles; i++)
        if (strcmp(m->files[i].path, path) == 0) return true;
    Watch *nf = steerE_alloc(e, m->files, (size_t)(m->nfiles + 1) * sizeof *nf);
    if (!nf) return false;
    m->files = nf;
    Watch *w = &m->files[m->nfiles];
    *w = (Watch){ .path = steerE_strdup(e, path), .mtime_ns = -1, .size = -1 };
    if (!w->path) return false;
    steerE_stat_file(path, &w->mtime_ns, &w->size);
    steerE_watch_dir(e, path);
    m->nfiles++;
    return true;
}

Mod *steerE_mod_new(steer_Engine *e, const char *path, const steer_ModLimits *lim)
{
    Mod *m = steerE_alloc(e, NULL, sizeof *m);
    if (!m) return NULL;
    memset(m, 0, sizeof *m);
    m->e = e;
    m->cap = lim->memory ? lim->memory : DEFAULT_MEMORY;
    m->budget = (lim->call_ms > 0 ? lim->call_ms : DEFAULT_CALL_MS) * 1e-3;
    m->agent_cap = lim->agents ? lim->agents : DEFAULT_AGENTS;
    m->work_cap = lim->work ? lim->work : DEFAULT_WORK;
    m->touch_all = lim->touch_all;
    m->print_rate = lim->prints ? lim->prints : DEFAULT_PRINTS;
    m->print_tokens = m->print_rate;
    m->cb_ref = m->world_ref = LUA_NOREF;
    atomic_init(&m->killed, false);
    atomic_init(&m->look, false);
    // NAME.lua (a single file: no modules) or NAME/ with init.lua (and its modules)
    size_t n = strlen(path);
    while (n > 1 && steerY_is_slash(path[n - 1])) n--;
    const char *slash = NULL;
    for (size_t i = 0; i < n; i++)
        if (steerY_is_slash(path[i])) slash = path + i;
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
    if (m->name) m->shown = steerE_strdup(e, steerE_shown(m->name, buf, sizeof buf));
    m->agents = steerE_alloc(e, NULL, (size_t)m->agent_cap * sizeof *m->agents);
    if ((!file && !m->root) || !m->name || !m->shown || !m->main || !m->agents) {
        steerE_mod_free(m);
        return NULL;
    }
    return m;
}

int steerE_mod_start(Mod *m)
{
    m->enabled = true;
    m->L = lua_newstate(steerE_mod_alloc, m);
    if (!m->L) {
        disable(m, "out of memory creating its state");
        return 0;
    }
    // before any code of the mod's: every thread it creates inherits both
    *(Mod **)lua_getextraspace(m->L) = m;
    steerE_watch(m->L);
    m->doing = "while loading";
    lua_pushcfunction(m->L, open_mod);
    lua_pushlightuserdata(m->L, m);
    return steerE_mod_call(m, 1);
}

// A mod's failure as the engine's error: its reason, which names it once.
static int fail_mod(Mod *m)
{
    if (strncmp(m->reason, "mod '", 5) == 0) return steerE_fail(m->e, STEER_EMOD, "%s", m->reason);
    return steerE_fail(m->e, STEER_EMOD, "mod '%s': %s", m->shown, m->reason);
}

int steer_engine_load_mod(steer_Engine *e, const char *path, const steer_ModLimits *limits, int *id)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (!path) return steerE_fail(e, STEER_EARG, "steer_engine_load_mod: path is NULL");
    if (!e->world)
        return steerE_fail(e, STEER_EARG, "steer_engine_load_mod: load a scenario first (mods act on its world)");
    steer_ModLimits lim = { 0 };
    if (limits) lim = *limits;
    if (lim.call_ms < 0 || !isfinite(lim.call_ms) || lim.agents < 0 || lim.prints < 0 || lim.work < 0)
        return steerE_fail(e, STEER_EARG, "steer_engine_load_mod: limits must be >= 0");
    Mod *m = steerE_mod_new(e, path, &lim);
    if (!m) return steerE_fail(e, STEER_ENOMEM, "steer_engine_load_mod: out of memory");
    steer_world_set_metering(e->world, true); // what its agents cost (steerE_mod_charge_work)
    // a disabled mod of that name (unloaded, or stopped) gives the new one its
    // place: its id and owner number
    int slot = e->nmods;
    for (int i = 0; i < e->nmods; i++)
        if (strcmp(e->mods[i]->name, m->name) == 0) slot = i;
    if (slot < e->nmods && e->mods[slot]->enabled) {
        int st = steerE_fail(e, STEER_EARG, "steer_engine_load_mod: a mod named '%s' is loaded already (id %d)",
                             m->shown, slot);
        steerE_mod_free(m);
        return st;
    }
    if (slot == e->nmods && e->nmods >= STEERL_MAX_OWNER) {
        steerE_mod_free(m);
        return steerE_fail(e, STEER_EARG, "steer_engine_load_mod: at most %d mods", STEERL_MAX_OWNER);
    }
    if (slot == e->nmods) {
        steerY_mutex_lock(&e->lock); // the watchdog reads the array
        Mod **nm = steerE_alloc(e, e->mods, (size_t)(e->nmods + 1) * sizeof *nm);
        if (nm) e->mods = nm;
        steerY_mutex_unlock(&e->lock);
        if (!nm) {
            steerE_mod_free(m);
            return steerE_fail(e, STEER_ENOMEM, "steer_engine_load_mod: out of memory");
        }
    }
    if (steerE_watchdog_start(e) != 0) {
        steerE_mod_free(m);
        return steerE_fail(e, STEER_ENOMEM, "steer_engine_load_mod: cannot start the watchdog thread");
    }
    Mod *old = slot < e->nmods ? e->mods[slot] : NULL;
    if (old) m->reg_len = old->reg_len; // brains may hold its references
    steerY_mutex_lock(&e->lock);
    e->mods[slot] = m;
    if (!old) e->nmods++;
    steerY_mutex_unlock(&e->lock);
    if (old) steerE_mod_free(old);
    m->owner = slot + 1;
    if (id) *id = slot;
    if (!steerE_mod_start(m) || !steerE_mod_callback(m, "setup")) return fail_mod(m);
    m->set_up = true;
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
        m->doing = "in on_message";
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
            m->doing = "in on_event";
            steerE_check_stop(L);
            lua_pushvalue(L, ev_fn);
            lua_pushstring(L, steerL_event_name(ev[i].type));
            steerL_pushagent(L, w, ev[i].agent);
            // the third argument as the scenario's handler gets it (lworld.c's dispatch_events)
            if (ev[i].type == STEER_EVENT_UNREACHABLE) lua_pushstring(L, steer_unreachable_text((int)ev[i].other.id));
            else if (ev[i].type == STEER_EVENT_LINK) { // the link object (other: its index + 1)
                if (!steerL_push_event_link(L, m->e->world, ev[i].agent, ev[i].other.id)) lua_pushnil(L);
            } else if (ev[i].other.id && steer_alive(m->e->world, ev[i].other)) steerL_pushagent(L, w, ev[i].other);
            else lua_pushnil(L);
            lua_call(L, 3, 0);
        }
    }
    return 0;
}

void steerE_mods_tick(steer_Engine *e)
{
    double dt = e->dt;
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->enabled) {
            steerE_clear_inbox(m);
            continue;
        }
        m->print_tokens += m->print_rate * dt;
        if (m->print_tokens > m->print_rate) m->print_tokens = m->print_rate;
        if (m->suppressed && m->print_tokens >= 1.0) {
            steerE_log(e, 1, "[%s] %ld lines of print suppressed (limit %.0f per second)", m->shown, m->suppressed,
                       m->print_rate);
            m->suppressed = 0;
        }
        m->tick_spent = 0; // the next tick's per-agent calls start afresh
        steerE_mod_charge_work(m);
        m->doing = "while its tick's messages and events were handed to it"; // each names its callback
        lua_pushcfunction(m->L, deliver);
        lua_pushlightuserdata(m->L, m);
        int ok = steerE_mod_call(m, 1);
        steerE_clear_inbox(m);
        if (!ok) continue;
        push_callback(m, "update", "in update");
        lua_rawgeti(m->L, LUA_REGISTRYINDEX, m->world_ref);
        lua_pushnumber(m->L, dt);
        steerE_mod_call(m, 3);
    }
}

void steerE_mods_register_kind(steer_Engine *e, const steer_HostKind *k)
{
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->L) continue;
        // under the budget: the mod's steer table may have a __newindex
        m->doing = "while the game registered a behaviour";
        lua_pushcfunction(m->L, steerE_register_kind);
        lua_pushlightuserdata(m->L, (void *)k);
        steerE_mod_call(m, 1);
    }
}

void steerE_mods_free(steer_Engine *e)
{
    steerE_watchdog_stop(e);
    for (int i = 0; i < e->nmods; i++) steerE_mod_free(e->mods[i]);
    steer_behavior_release(e->halt);
    e->halt = NULL;
    steerE_alloc(e, e->mods, 0);
    e->mods = NULL;
    e->nmods = 0;
}
int steer_engine_unload_mod(steer_Engine *e, int id)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (id < 0 || id >= e->nmods)
        return steerE_fail(e, STEER_EARG, "steer_engine_unload_mod: no mod %d (%d are loaded)", id, e->nmods);
    e->mods[id]->unloaded = true;
    disable(e->mods[id], "unloaded by the game");
    return STEER_OK;
}

int steer_engine_mod_count(const steer_Engine *e)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", 0);
    return e ? e->nmods : 0;
}

int steer_engine_mod_info(const steer_Engine *e, int id, steer_ModInfo *out)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    if (!out || id < 0 || id >= e->nmods) return STEER_EARG;
    const Mod *m = e->mods[id];
    out->name = m->name;
    out->enabled = m->enabled;
    out->reason = m->enabled ? "" : m->reason;
    out->memory = m->used;
    out->cpu_ms = m->cpu * 1e3;
    return STEER_OK;
}
