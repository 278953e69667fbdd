// SPDX-License-Identifier: MIT
// engine.c — a scenario in its own Lua state: loading, ticking, events,
// agent states for the host, and hot reload as a transaction.
//
// Invariants: a script error never escapes as a crash or a longjmp — every
// call into Lua is a lua_pcall with a traceback handler, and its message
// ends up in e->error as "file:line: message". That includes every look
// into the scenario's values (its table, _G, package, the steer module, the
// world's metatable): each may have metamethods that raise or yield, so
// the engine reads them only through protected calls (get_field), and
// writes into them only raw. Memory errors too: every Lua call of the
// engine that may allocate (a table, a string, a reference, opening the
// libraries) runs inside a lua_pcall, since outside one a memory error is
// a panic, which aborts the host (steerE_panic only says so, never reached).
// The world outlives reloads:
// a reload runs the scenario file (and the modules it required) anew and
// swaps the callbacks; it never rebuilds the world. A reload that fails at
// any point leaves the previous version running exactly as it was: the
// modules it re-required and the archetypes it redefined are put back.
#include "engine.h"
#include "../behaviors/exports.h"

#include <lualib.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef STEER_LUA_DIR
#define STEER_LUA_DIR "/usr/local/share/lua/5.4"
#endif

// How long a file must stay unchanged after a save before it is reloaded
// (editors write in several steps), and how often times are looked at
// besides what the watcher (inotify) tells.
#define DEBOUNCE 0.1
#define LOOK_PERIOD 0.25

#define REG_ARCHETYPES "steer.archetypes" // larchetype.c's registry of definitions

// The state's allocator: the host's. Lua assumes a block never fails to
// shrink; when the host's allocator does, the block stays as it was.
static void *lua_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    if (nsize == 0) {
        steerE_alloc(ud, ptr, 0);
        return NULL;
    }
    void *p = steerE_alloc(ud, ptr, nsize);
    return p || !ptr || nsize > osize ? p : ptr;
}

// ---- watching files ------------------------------------------------------------

// Watch `path`, the scenario (module NULL) or the file of module `module`:
// false when out of memory.
static bool watch_file(steer_Engine *e, const char *path, const char *module)
{
    for (int i = 0; i < e->nwatch; i++)
        if (strcmp(e->watch[i].path, path) == 0) return true;
    if (e->nwatch == e->capwatch) {
        int nc = e->capwatch ? e->capwatch * 2 : 8;
        Watch *nw = steerE_alloc(e, e->watch, (size_t)nc * sizeof *nw);
        if (!nw) return false;
        e->watch = nw;
        e->capwatch = nc;
    }
    Watch *w = &e->watch[e->nwatch];
    if (!(w->path = steerE_strdup(e, path))) return false;
    w->module = module ? steerE_strdup(e, module) : NULL;
    if (module && !w->module) {
        steerE_alloc(e, w->path, 0);
        return false;
    }
    w->mtime_ns = w->size = -1;
    steerE_stat_file(path, &w->mtime_ns, &w->size);
    e->nwatch++;
    steerE_watch_dir(e, path);
    return true;
}

// Whether any watched file's time or size differs from what was last seen
// (and remember the new ones).
static int files_changed(steer_Engine *e)
{
    int changed = 0;
    for (int i = 0; i < e->nwatch; i++) {
        long long m = -1, s = -1;
        if (!steerE_stat_file(e->watch[i].path, &m, &s)) continue; // mid-save: look again later
        if (m != e->watch[i].mtime_ns || s != e->watch[i].size) changed = 1;
        e->watch[i].mtime_ns = m;
        e->watch[i].size = s;
    }
    return changed;
}

// package.searchers[2] wrapped: every Lua file `require` finds is watched.
static int watching_searcher(lua_State *L)
{
    steer_Engine *e = lua_touserdata(L, lua_upvalueindex(2));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_call(L, 1, 2);
    if (lua_isfunction(L, -2) && lua_type(L, -1) == LUA_TSTRING && lua_type(L, 1) == LUA_TSTRING &&
        !watch_file(e, lua_tostring(L, -1), lua_tostring(L, 1)))
        return luaL_error(L, "not enough memory to watch module '%s'", lua_tostring(L, 1));
    return 2;
}

static void wrap_searcher(lua_State *L, steer_Engine *e)
{
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "searchers");
    lua_rawgeti(L, -1, 2);
    lua_pushlightuserdata(L, e);
    lua_pushcclosure(L, watching_searcher, 2);
    lua_rawseti(L, -2, 2);
    lua_pop(L, 2);
}

// ---- life ----------------------------------------------------------------------

// Runs protected (the engine at 1): the state's libraries, the host's
// hooks its worlds use, the mods' policy, the steer module and the
// searcher that watches what `require` finds.
static int open_state(lua_State *L)
{
    steer_Engine *e = lua_touserdata(L, 1);
    luaL_openlibs(L);
    // the scenario's worlds allocate and log through the host's hooks too
    steerL_set_host(L, &e->host);
    // and hand the mods' per-agent Lua to the mods (policy.c)
    steerL_set_policy(L, &e->policy);
    steer_lua_preload(L);
    wrap_searcher(L, e);
    return steerE_state_open(L);
}

int steer_engine_new(const steer_EngineDesc *desc, steer_Engine **out)
{
    if (!out) return STEER_EARG;
    steer_EngineDesc d = { 0 };
    if (desc) d = *desc;
    if (d.threads < 0 || d.threads > STEER_MAX_THREADS || !d.enqueue_task != !d.finish_task) return STEER_EARG;
    steer_Engine *e = d.alloc ? d.alloc(d.alloc_ud, NULL, sizeof *e) : malloc(sizeof *e);
    if (!e) return STEER_ENOMEM;
    memset(e, 0, sizeof *e);
    e->lib = &steerA_lib;
    e->alloc = d.alloc;
    e->alloc_ud = d.alloc_ud;
    e->log = d.log;
    e->log_ud = d.log_ud;
    e->has_seed = d.has_seed;
    e->seed = d.seed;
    e->threads = d.threads;
    e->scenario_ref = e->world_ref = e->state_ref = LUA_NOREF;
    e->watcher = -1;
    atomic_init(&e->stopping, false);
    steerY_mutex_init(&e->lock);
    if (d.lua_path && !(e->lua_path = steerE_strdup(e, d.lua_path))) goto nomem;
    e->L = lua_newstate(lua_alloc, e);
    if (!e->L) goto nomem;
    lua_atpanic(e->L, steerE_panic);
    e->host = (steerL_Host){ e->alloc,   e->alloc_ud,    e->log,        e->log_ud,
                             e->threads, d.enqueue_task, d.finish_task, d.task_ctx };
    steerE_scenario_policy(e);
    e->policy.restored = steerE_mods_restored; // modsnap.c: the mods follow every restore
    lua_pushcfunction(e->L, open_state);
    lua_pushlightuserdata(e->L, e);
    if (lua_pcall(e->L, 1, 0, 0) != LUA_OK) goto nomem; // only memory errors: nothing of a script's ran
    e->watcher = steerY_watch_open();
    *out = e;
    return STEER_OK;
nomem:
    steer_engine_free(e);
    return STEER_ENOMEM;
}

void steer_engine_free(steer_Engine *e)
{
    if (!e) return;
    STEERA_GUARD(e, "an engine from steer_engine_new", );
    steerE_mods_free(e);
    if (e->L) lua_close(e->L); // frees the world with its userdata
    for (int i = 0; i < e->nkinds; i++) steer_host_kind_free(e->kinds[i]);
    steerE_alloc(e, e->kinds, 0);
    for (int i = 0; i < e->nwatch; i++) {
        steerE_alloc(e, e->watch[i].path, 0);
        steerE_alloc(e, e->watch[i].module, 0);
    }
    steerE_alloc(e, e->watch, 0);
    steerY_watch_close(e->watcher);
    steerE_alloc(e, e->file, 0);
    steerE_alloc(e, e->lua_path, 0);
    steerE_alloc(e, e->traceback, 0);
    steerY_mutex_destroy(&e->lock);
    e->lib = NULL;
    steerE_alloc(e, e, 0);
}

// ---- the scenario ----------------------------------------------------------------

// package.path: the host's entries (argument 1, a string as light
// userdata, or NULL), modules beside the scenario (argument 2 is its file),
// the steer Lua library, then Lua's default. Runs protected: after a
// failed load, package may be hostile.
static int set_path(lua_State *L)
{
    const char *lua_path = lua_touserdata(L, 1), *file = lua_touserdata(L, 2);
    const char *slash = steerY_last_slash(file);
    lua_getglobal(L, "package");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (lua_path) {
        luaL_addstring(&b, lua_path);
        luaL_addchar(&b, ';');
    }
    if (slash) luaL_addlstring(&b, file, (size_t)(slash - file) + (slash == file));
    else luaL_addchar(&b, '.');
    luaL_addstring(&b, "/?.lua;" STEER_LUA_DIR "/?.lua;" STEER_LUA_DIR "/?/init.lua;");
    if (lua_getfield(L, 3, "path") == LUA_TSTRING) luaL_addvalue(&b);
    else lua_pop(L, 1);
    luaL_pushresult(&b);
    lua_setfield(L, 3, "path");
    return 0;
}

// Runs protected: load the file (light userdata 1; luaL_loadfile allocates
// its chunk name before its protected part) and run it, for one result.
static int run_file(lua_State *L)
{
    if (luaL_loadfile(L, lua_touserdata(L, 1)) != LUA_OK) return lua_error(L);
    lua_call(L, 0, 1);
    return 1;
}

// The scenario's fields, for the misspellings below.
static const char *const scenario_keys[] = { "world",  "setup", "update", "draw", "reload",
                                             "on_key", "save",  "load",   "show", NULL };

// The optimal string alignment distance between a and b (edits, and swaps
// of two neighbours), for short strings; past 3 it says 3.
static int edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
    if (na > 16 || nb > 16 || (na > nb ? na - nb : nb - na) > 2) return 3;
    int d[17][17];
    for (size_t i = 0; i <= na; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= nb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= na; i++)
        for (size_t j = 1; j <= nb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[na][nb] > 3 ? 3 : d[na][nb];
}

// Runs protected (the scenario table at 1, the file at 2 as a light
// userdata): raise for a key that is none of the scenario's fields but
// one of them misspelt ("udpate", "stup", "wrold", "Update"): one edit
// away, or two from a field of 6 letters or more. Other keys are the
// scenario's own (functions a snapshot names as scenario.KEY, data).
static int check_keys(lua_State *L)
{
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) continue;
        size_t n;
        const char *k = lua_tolstring(L, -1, &n);
        const char *near = NULL;
        for (int i = 0; scenario_keys[i]; i++) {
            size_t nk = strlen(scenario_keys[i]);
            int dist = edit_distance(k, n, scenario_keys[i], nk);
            if (dist == 0) {
                near = NULL;
                break;
            }
            if (!near && (dist == 1 || (dist == 2 && nk >= 6))) near = scenario_keys[i];
        }
        if (near)
            return luaL_error(L,
                              "%s: the scenario has no field '%s' (did you mean '%s'? its fields: world, setup, "
                              "update, draw, reload, on_key, save, load, show)",
                              (const char *)lua_touserdata(L, 2), k, near);
    }
    return 0;
}

// Load and run the file; leave its table on the stack, or fail with the
// error kept. Checks the table's shape so that `updat = function` or
// `update = 1` is caught at load, not ignored.
static int run_scenario_file(steer_Engine *e)
{
    lua_State *L = e->L;
    lua_pushcfunction(L, run_file);
    lua_pushlightuserdata(L, e->file);
    if (steerE_docall(L, 1, 1) != LUA_OK) return steerE_keep_error(e);
    if (!lua_istable(L, -1)) {
        const char *tn = luaL_typename(L, -1);
        lua_pop(L, 1);
        return steerE_fail(e, STEER_ESCRIPT, "%s: expected the file to return a scenario table, got %s", e->file, tn);
    }
    lua_pushcfunction(L, check_keys);
    lua_pushvalue(L, -2);
    lua_pushlightuserdata(L, e->file);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) { // a message of ours: no traceback to add
        steerE_keep_error(e);
        lua_pop(L, 1);
        return STEER_ESCRIPT;
    }
    static const char *const callbacks[] = { "setup", "update", "draw", "reload", "on_key", "save", "load", NULL };
    for (int i = 0; callbacks[i]; i++) {
        if (steerE_get_field(e, -1, callbacks[i], "the scenario") != STEER_OK) {
            lua_pop(L, 1);
            return STEER_ESCRIPT;
        }
        int t = lua_type(L, -1);
        lua_pop(L, 1);
        if (t != LUA_TNIL && t != LUA_TFUNCTION) {
            lua_pop(L, 1);
            return steerE_fail(e, STEER_ESCRIPT, "%s: field '%s' of the scenario expected a function or nil, got %s",
                               e->file, callbacks[i], lua_typename(L, t));
        }
    }
    if (steerE_get_field(e, -1, "world", "the scenario") != STEER_OK) {
        lua_pop(L, 1);
        return STEER_ESCRIPT;
    }
    int t = lua_type(L, -1);
    lua_pop(L, 1);
    if (t != LUA_TNIL && t != LUA_TTABLE) {
        lua_pop(L, 1);
        return steerE_fail(e, STEER_ESCRIPT, "%s: field 'world' of the scenario expected a table or nil, got %s",
                           e->file, lua_typename(L, t));
    }
    return STEER_OK;
}

// Runs protected: steer.world{...} from the scenario (argument 1) with the
// host's seed (argument 2, or nil); argument 3 is the file (a light userdata), argument 4 the
// host's thread count (or nil). _G, the steer module and the scenario's
// world table are the scenario's to change.
static int new_world(lua_State *L)
{
    const char *file = lua_touserdata(L, 3);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "steer");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "world");
    lua_newtable(L);
    if (lua_getfield(L, 1, "world") == LUA_TTABLE) steerL_copy_table(L, -1, -2); // lua_next: raw
    lua_pop(L, 1);
    if (!lua_isnil(L, 2)) {
        lua_pushvalue(L, 2);
        lua_setfield(L, -2, "seed"); // a table of ours
    }
    if (!lua_isnil(L, 4)) {
        lua_pushvalue(L, 4);
        lua_setfield(L, -2, "threads");
    }
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
        // raised from C with no Lua caller: say where the arguments came from
        const char *msg = lua_tostring(L, -1);
        return luaL_error(L, "%s: in the scenario's 'world' table: %s", file, msg ? msg : "?");
    }
    if (!luaL_testudata(L, -1, STEERL_WORLD))
        return luaL_error(L, "%s: steer.world returned %s, not a world", file, luaL_typename(L, -1));
    steerL_checkworld(L, -1);
    return 1;
}

static int create_world(steer_Engine *e, int scenario)
{
    lua_State *L = e->L;
    lua_pushcfunction(L, new_world);
    lua_pushvalue(L, scenario);
    if (e->has_seed) lua_pushinteger(L, (lua_Integer)e->seed);
    else lua_pushnil(L);
    lua_pushlightuserdata(L, e->file);
    if (e->threads) lua_pushinteger(L, e->threads);
    else lua_pushnil(L);
    if (steerE_docall(L, 4, 1) != LUA_OK) return steerE_keep_error(e);
    steer_World *w = ((steerL_World *)lua_touserdata(L, -1))->w;
    int st = steerE_ref(e, &e->world_ref);
    if (st != STEER_OK) return st;
    e->world = w;
    e->dt = steer_world_dt(w);
    return STEER_OK;
}

// Call scenario[name](w [, dt]) if the scenario at `scenario` has it.
static int callback(steer_Engine *e, int scenario, const char *name, bool with_dt)
{
    lua_State *L = e->L;
    if (steerE_get_field(e, scenario, name, "the scenario") != STEER_OK) return STEER_ESCRIPT;
    if (lua_type(L, -1) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return STEER_OK;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->world_ref);
    if (with_dt) lua_pushnumber(L, e->dt);
    if (steerE_docall(L, with_dt ? 2 : 1, 0) != LUA_OK) return steerE_keep_error(e);
    return STEER_OK;
}

// Run the scenario's file and create its world; then its setup(w), or
// (snapshot non-NULL) the snapshot's state in place of what setup makes.
static int load_scenario(steer_Engine *e, const char *file, const void *snapshot, size_t len)
{
    if (!e) return STEER_EARG;
    steerE_clear_error(e);
    if (!file) return steerE_fail(e, STEER_EARG, "steer_engine_load: file is NULL");
    if (e->file) return steerE_fail(e, STEER_EARG, "steer_engine_load: a scenario is loaded already (%s)", e->file);
    if (!(e->file = steerE_strdup(e, file))) return steerE_fail(e, STEER_ENOMEM, "steer_engine_load: out of memory");
    lua_State *L = e->L;
    int top = lua_gettop(L);
    lua_pushcfunction(L, set_path);
    lua_pushlightuserdata(L, e->lua_path);
    lua_pushlightuserdata(L, e->file);
    int st = steerE_docall(L, 2, 0) == LUA_OK ? STEER_OK : steerE_keep_error(e);
    if (st == STEER_OK && !watch_file(e, file, NULL))
        st = steerE_fail(e, STEER_ENOMEM, "steer_engine_load: out of memory");
    if (st == STEER_OK) st = run_scenario_file(e);
    if (st == STEER_OK) st = create_world(e, top + 1);
    if (st == STEER_OK) {
        lua_pushvalue(L, top + 1);
        st = steerE_ref(e, &e->scenario_ref);
    }
    if (st == STEER_OK) st = snapshot ? steer_engine_restore(e, snapshot, len) : callback(e, top + 1, "setup", false);
    lua_settop(L, top);
    e->after = snapshot ? STEERE_AFTER_LOAD : STEERE_AFTER_NONE;
    if (st != STEER_OK) {
        steerE_state_clear(e); // what a failed setup or restore put there
        // the engine keeps no half-loaded scenario: a later load may try again
        luaL_unref(L, LUA_REGISTRYINDEX, e->scenario_ref);
        luaL_unref(L, LUA_REGISTRYINDEX, e->world_ref);
        e->scenario_ref = e->world_ref = LUA_NOREF;
        e->world = NULL;
        steerE_alloc(e, e->file, 0);
        e->file = NULL;
    }
    return st;
}

int steer_engine_load(steer_Engine *e, const char *file)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    return load_scenario(e, file, NULL, 0);
}

int steer_engine_load_snapshot(steer_Engine *e, const char *file, const void *data, size_t len)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    if (!data) {
        steerE_clear_error(e);
        return steerE_fail(e, STEER_EARG, "steer_engine_load_snapshot: data is NULL");
    }
    return load_scenario(e, file, data, len);
}

static int one_tick(steer_Engine *e)
{
    lua_State *L = e->L;
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->scenario_ref);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->world_ref);
    int st = steerE_get_field(e, -1, "step", "the world"); // the scenario may change the world's metatable
    if (st == STEER_OK) {
        lua_insert(L, -2);
        st = steerE_docall(L, 1, 0) == LUA_OK ? STEER_OK : steerE_keep_error(e);
    }
    if (st == STEER_OK) st = callback(e, top + 1, "update", true);
    lua_settop(L, top);
    if (st != STEER_OK) steerE_state_hint(e);
    e->after = STEERE_AFTER_NONE;
    if (st != STEER_OK) return st;
    if (e->nsubs) {
        int n = 0;
        const steer_Event *ev = steer_world_events(e->world, &n);
        for (int i = 0; i < n; i++)
            for (int s = 0; s < e->nsubs; s++) e->subs[s].fn(e->subs[s].ud, &ev[i]);
    }
    steerE_mods_tick(e);
    return STEER_OK;
}

int steer_engine_tick(steer_Engine *e, int n)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (n < 0) return steerE_fail(e, STEER_EARG, "steer_engine_tick: n is %d, expected a count of ticks >= 0", n);
    if (!e->world) return steerE_fail(e, STEER_EARG, "steer_engine_tick: no scenario is loaded");
    for (int i = 0; i < n; i++) {
        int st = one_tick(e);
        if (st != STEER_OK) return st;
    }
    return STEER_OK;
}

// ---- reload ------------------------------------------------------------------------

// Runs protected (the engine at 1): the transaction's undo record, its two
// results a copy of package.loaded and a copy of the archetype registry.
static int snapshot(lua_State *L)
{
    steer_Engine *e = lua_touserdata(L, 1);
    lua_newtable(L);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    steerL_copy_table(L, -1, -2);
    lua_pop(L, 1);
    // forget the scenario's modules (the watched ones), so the new text
    // requires them afresh (raw: package.loaded may have a __newindex)
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    for (int i = 0; i < e->nwatch; i++) {
        if (!e->watch[i].module) continue;
        lua_pushstring(L, e->watch[i].module);
        lua_pushnil(L);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
    lua_newtable(L);
    if (lua_getfield(L, LUA_REGISTRYINDEX, REG_ARCHETYPES) == LUA_TTABLE) steerL_copy_table(L, -1, -2);
    lua_pop(L, 1);
    return 2;
}

// Make table `t` hold exactly what the copy at `copy` holds, in place (the
// table may be held elsewhere, and have a metatable: raw).
static void restore_table(lua_State *L, int t, int copy)
{
    t = lua_absindex(L, t);
    copy = lua_absindex(L, copy);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, t);
    }
    steerL_copy_table(L, copy, t);
}

// Runs protected: the undo record (1, 2) put back. A table grown back may
// need memory: when there is none, the modules not put back are required
// afresh by the next version.
static int rollback(lua_State *L)
{
    // the modules re-required are put back, the ones first required by
    // the failed version forgotten
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    restore_table(L, -1, 1);
    lua_pop(L, 1);
    if (lua_getfield(L, LUA_REGISTRYINDEX, REG_ARCHETYPES) == LUA_TTABLE) restore_table(L, -1, 2);
    lua_pop(L, 1);
    return 0;
}

int steer_engine_reload(steer_Engine *e)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (!e->world) return steerE_fail(e, STEER_EARG, "steer_engine_reload: no scenario is loaded");
    lua_State *L = e->L;
    double t0 = steerE_now();
    int base = lua_gettop(L);
    lua_pushcfunction(L, snapshot);
    lua_pushlightuserdata(L, e);
    if (steerE_docall(L, 1, 2) != LUA_OK) {
        int st = steerE_keep_error_in(e, "steer_engine_reload: ");
        steerE_log(e, 2, "reload failed %s", e->error);
        return st;
    }
    int st = run_scenario_file(e);
    if (st == STEER_OK) {
        int fresh = lua_gettop(L);
        st = callback(e, fresh, "reload", false);
        if (st == STEER_OK) {
            lua_pushvalue(L, fresh);
            lua_rawseti(L, LUA_REGISTRYINDEX, e->scenario_ref);
        }
    }
    if (st != STEER_OK) {
        lua_settop(L, base + 2);
        lua_pushcfunction(L, rollback);
        lua_insert(L, base + 1);
        if (steerE_docall(L, 2, 0) != LUA_OK) {
            lua_pop(L, 1); // the reload's own error is the one kept
            steerE_log(e, 2, "reload: out of memory putting the last version's modules back");
        }
    }
    lua_settop(L, base);
    files_changed(e); // what is on disk now is what was tried
    if (st != STEER_OK) {
        steerE_log(e, 2, "reload failed %s", e->error);
        return st;
    }
    e->after = STEERE_AFTER_RELOAD;
    steerE_log(e, 0, "reload ok %s (%.0f ms)", e->file, (steerE_now() - t0) * 1e3);
    return STEER_OK;
}

int steer_engine_poll(steer_Engine *e)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (!e->world) return 0;
    double t = steerE_now();
    // the watcher (inotify) tells at once; the times are looked at every LOOK_PERIOD
    // anyway: a watch may fail (the system's limit) or go with a directory
    // that was replaced
    int look = steerY_watch_changed(e->watcher) || t >= e->next_look;
    if (look) {
        e->next_look = t + LOOK_PERIOD;
        if (files_changed(e)) e->changed_at = t; // a save restarts the debounce
    }
    int mods = steerE_mods_poll(e, look, t, DEBOUNCE); // each mod's files (modreload.c)
    if (e->changed_at > 0 && t - e->changed_at >= DEBOUNCE) {
        e->changed_at = 0;
        int st = steer_engine_reload(e);
        return st != STEER_OK ? st : mods < 0 ? mods : 1;
    }
    return mods;
}

const char *steer_engine_watched(const steer_Engine *e, int i)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", NULL);
    if (i < 0) return NULL;
    return i < e->nwatch ? e->watch[i].path : steerE_mod_watched(e, i - e->nwatch);
}

// ---- the host's view ------------------------------------------------------------------

steer_World *steer_engine_world(steer_Engine *e)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", NULL);
    return e ? e->world : NULL;
}

const char *steer_engine_error(const steer_Engine *e)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", "");
    return e ? e->error : "no engine";
}

const char *steer_engine_traceback(const steer_Engine *e)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", "");
    return e && e->traceback ? e->traceback : e ? e->error : "";
}

lua_State *steer_engine_lua(steer_Engine *e)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", NULL);
    return e ? e->L : NULL;
}

int steer_engine_push_scenario(steer_Engine *e)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    if (e->scenario_ref == LUA_NOREF) return 0;
    lua_rawgeti(e->L, LUA_REGISTRYINDEX, e->scenario_ref);
    lua_rawgeti(e->L, LUA_REGISTRYINDEX, e->world_ref);
    return 1;
}

int steer_engine_call(steer_Engine *e, const char *name, int nargs)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (!name || nargs < 0 || nargs > lua_gettop(e->L))
        return steerE_fail(e, STEER_EARG,
                           !name ? "steer_engine_call: name is NULL"
                                 : "steer_engine_call: nargs is %d, expected 0 to the %d values on the stack",
                           nargs, lua_gettop(e->L));
    lua_State *L = e->L;
    if (e->scenario_ref == LUA_NOREF) {
        lua_pop(L, nargs);
        return steerE_fail(e, STEER_EARG, "steer_engine_call: no scenario is loaded");
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->scenario_ref);
    if (steerE_get_field(e, -1, name, "the scenario") != STEER_OK) {
        lua_pop(L, 1 + nargs);
        return STEER_ESCRIPT;
    }
    if (lua_type(L, -1) != LUA_TFUNCTION) {
        lua_pop(L, 2 + nargs);
        return STEER_OK;
    }
    lua_remove(L, -2);
    lua_insert(L, -1 - nargs);
    return steerE_docall(L, nargs, 0) == LUA_OK ? STEER_OK : steerE_keep_error(e);
}

int steer_engine_register_behavior(steer_Engine *e, const steer_HostBehaviorDesc *desc)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    char why[200];
    if (steerB_host_desc_error(desc, why, sizeof why))
        return steerE_fail(e, STEER_EARG, "steer_engine_register_behavior: %s", why);
    for (int i = 0; i < e->nkinds; i++)
        if (strcmp(steer_host_kind_name(e->kinds[i]), desc->name) == 0)
            return steerE_fail(e, STEER_EARG, "steer_engine_register_behavior: '%s' is registered already", desc->name);
    steer_HostKind *k;
    int st = steer_host_kind_new(desc, &k);
    if (st != STEER_OK) return steerE_fail(e, st, "steer_engine_register_behavior: out of memory");
    steer_HostKind **nk = steerE_alloc(e, e->kinds, (size_t)(e->nkinds + 1) * sizeof *nk);
    if (!nk) {
        steer_host_kind_free(k);
        return steerE_fail(e, STEER_ENOMEM, "steer_engine_register_behavior: out of memory");
    }
    e->kinds = nk;
    // protected: the scenario may have set a metatable on its steer table
    lua_pushcfunction(e->L, steerE_register_kind);
    lua_pushlightuserdata(e->L, k);
    if (steerE_docall(e->L, 1, 0) != LUA_OK) {
        steer_host_kind_free(k);
        return steerE_keep_error(e);
    }
    e->kinds[e->nkinds++] = k;
    steerE_mods_register_kind(e, k);
    return STEER_OK;
}

int steer_engine_subscribe(steer_Engine *e, steer_EventFn fn, void *ud)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (!fn) return steerE_fail(e, STEER_EARG, "steer_engine_subscribe: fn is NULL");
    if (e->nsubs == (int)(sizeof e->subs / sizeof e->subs[0]))
        return steerE_fail(e, STEER_EFULL, "steer_engine_subscribe: %d listeners already, the most there may be",
                           e->nsubs);
    e->subs[e->nsubs].fn = fn;
    e->subs[e->nsubs].ud = ud;
    e->nsubs++;
    return STEER_OK;
}

int steer_engine_states(steer_Engine *e, steer_AgentState *out, int cap)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (cap < 0 || (cap > 0 && !out))
        return steerE_fail(e, STEER_EARG,
                           cap < 0 ? "steer_engine_states: cap is %d, expected >= 0"
                                   : "steer_engine_states: out is NULL with cap %d",
                           cap);
    if (!e->world) return 0;
    int n = steer_world_count(e->world);
    for (int i = 0; i < n && i < cap; i++) {
        steer_AgentState *s = &out[i];
        steer_Agent a = steer_world_agent_at(e->world, i);
        double v[3], r = 0;
        s->id = a;
        static const steer_Prop props[4] = { STEER_PROP_POSITION, STEER_PROP_VELOCITY, STEER_PROP_HEADING,
                                             STEER_PROP_UP };
        float *dst[4] = { s->position, s->velocity, s->heading, s->up };
        for (int p = 0; p < 4; p++) {
            steer_agent_vec(e->world, a, props[p], v);
            for (int k = 0; k < 3; k++) dst[p][k] = (float)v[k];
        }
        steer_agent_param(e->world, a, STEER_PARAM_RADIUS, &r);
        s->radius = (float)r;
        s->tag = NULL;
        steer_agent_tag(e->world, a, &s->tag);
    }
    return n;
}
