// SPDX-License-Identifier: MIT
// save.c — a running scenario as one snapshot (steer_engine_save) and back
// in place (steer_engine_restore): the world through its Lua methods
// (w:save, w:restore, so a.data and archetypes come along), the scenario's
// own state (its save(w) -> data, load(w, data)) and each mod's (save() ->
// data, load(data)), kept under the mod's name, with what the engine keeps
// for the mod (its agents, its inbox).
//
// The container, little-endian: the magic "STEERENG", a u32 version, a u32
// count of sections, then each section as a u8 kind (1 the world, 2 the
// scenario, 3 a mod's data, 4 a mod's agents and inbox, 5 steer.state), a
// u8 name length and the name (a mod's; empty for the others), a u64
// length and the bytes.
// The world's bytes are a world snapshot (steer.h: versioned and
// checksummed on their own); a mod's agents and inbox are laid out in
// mod.c (steerE_mods_save_state); the others are plain data
// (src/lua/ldata.h, shared tables kept; steer.state's with the world's
// agents by id, state.c). Version 1 had no kind 4: its mods keep their
// agents and inbox on a restore. Versions 1 and 2 had no kind 5 (version 3
// always has one): a scenario without save(w) takes their scenario data,
// when it is a table, as its state (what it kept then, before it moved it
// into steer.state), and otherwise its state is emptied. The whole container is checked
// before anything is restored, so a malformed one changes nothing: its
// layout, each mod's agents and inbox, the scenario's and each mod's data
// as plain data (a section that its load could not decode is refused,
// naming it, rather than blamed on a mod later), and no agent claimed by
// two mods; the world's bytes are checked by w:restore, which is all or
// nothing too. Which agents each mod gets back is checked against the
// restored world (modsnap.c).
//
// Invariant: the world stays the same Lua value (the scenario's and the
// mods' references to it stay good): a restore is in place, never a new world.
#include "engine.h"
#include "../lua/ldata.h"
#include "../core/bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "STEERENG"
#define VERSION 3u
#define HEADER 16
#define MAX_SECTIONS 256

enum { SECTION_WORLD = 1, SECTION_SCENARIO = 2, SECTION_MOD = 3, SECTION_MOD_STATE = 4, SECTION_STATE = 5 };

typedef struct Section {
    int kind;
    char name[256];
    const unsigned char *p;
    size_t len;
} Section;

// ---- saving ------------------------------------------------------------------------

static void put_section(steerS_Writer *o, int kind, const char *name, const void *p, size_t len)
{
    size_t n = strlen(name);
    steerS_put_u8(o, (uint32_t)kind);
    steerS_put_u8(o, (uint32_t)n);
    steerS_put(o, name, n);
    steerS_put_u64(o, len);
    steerS_put(o, p, len);
}

typedef struct Collected {
    steer_Engine *e;
    int kind; // of the sections being collected
    Section mods[MAX_SECTIONS];
    int nmods;
} Collected;

// steerE_mods_save's and steerE_mods_save_state's emit: a copy of each
// mod's bytes until they are written.
static int collect(void *ud, const char *name, const unsigned char *p, size_t len)
{
    Collected *c = ud;
    if (c->nmods == MAX_SECTIONS - 2) return STEER_EFULL;
    unsigned char *copy = steerE_alloc(c->e, NULL, len ? len : 1);
    if (!copy) return STEER_ENOMEM;
    memcpy(copy, p, len);
    Section *s = &c->mods[c->nmods++];
    s->kind = c->kind;
    snprintf(s->name, sizeof s->name, "%s", name);
    s->p = copy;
    s->len = len;
    return 0;
}

// Runs protected: the scenario's save(w) (scenario at 1, world at 2) and
// its result encoded into *out (argument 3) in the engine's memory (the
// engine at 4); nothing when it has no save.
static int scenario_save_f(lua_State *L)
{
    Section *out = lua_touserdata(L, 3);
    lua_getfield(L, 1, "save");
    if (lua_type(L, -1) != LUA_TFUNCTION) return 0;
    lua_pushvalue(L, 2);
    lua_call(L, 1, 1);
    steerL_DataOptions o = {
        .shared = true, .where = "the scenario's save(w)", .alloc = steerE_alloc_ud, .alloc_ud = lua_touserdata(L, 4)
    };
    steerL_DataError err;
    unsigned char *bytes;
    if (steerL_data_encode(L, -1, &o, &bytes, &out->len, &err) != STEERL_DATA_OK)
        return luaL_error(L, "%s", err.message);
    out->p = bytes;
    return 0;
}

// Push the world's method `name` and the world, for a call; on failure
// nothing is pushed and the error is kept, naming `fn`.
static int world_method(steer_Engine *e, const char *name, const char *fn)
{
    lua_State *L = e->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->world_ref);
    if (steerE_get_field(e, -1, name, "the world") != STEER_OK) {
        lua_pop(L, 1);
        return STEER_ESCRIPT;
    }
    if (lua_type(L, -1) != LUA_TFUNCTION) {
        lua_pop(L, 2);
        return steerE_fail(e, STEER_ESCRIPT,
                           "%s: the world has no %s method (w:%s, of the Lua bindings, is missing from this build)", fn,
                           name, name);
    }
    lua_insert(L, -2);
    return STEER_OK;
}

// Runs protected: the options of w:save and w:restore. The scenario's
// table (1) names the functions it holds ("scenario.spiral"), so a think
// or steer.custom function kept there can be saved; { roots = { scenario = T } }.
static int roots(lua_State *L)
{
    lua_createtable(L, 0, 1);
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "scenario");
    lua_setfield(L, -2, "roots");
    return 1;
}

// Push the options, or keep the memory error (nothing pushed).
static int push_roots(steer_Engine *e, const char *fn)
{
    lua_State *L = e->L;
    lua_pushcfunction(L, roots);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->scenario_ref);
    if (steerE_docall(L, 1, 1) == LUA_OK) return STEER_OK;
    return steerE_keep_error_in(e, fn);
}

// Push the world's w:save() string, or keep the error.
static int world_bytes(steer_Engine *e)
{
    lua_State *L = e->L;
    if (world_method(e, "save", "steer_engine_save") != STEER_OK) return STEER_ESCRIPT;
    if (push_roots(e, "steer_engine_save: ") != STEER_OK) {
        lua_pop(L, 2);
        return STEER_ESCRIPT;
    }
    if (steerE_docall(L, 2, 1) != LUA_OK) return steerE_keep_error_in(e, "steer_engine_save: w:save(): ");
    if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 1);
        return steerE_fail(e, STEER_ESCRIPT, "steer_engine_save: w:save() returned no string");
    }
    return STEER_OK;
}

int steer_engine_save(steer_Engine *e, steer_WriteFn write, void *ud)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (!write)
        return steerE_fail(e, STEER_EARG, "steer_engine_save: write is NULL (the function that takes the bytes)");
    if (!e->world) return steerE_fail(e, STEER_EARG, "steer_engine_save: no scenario is loaded");
    lua_State *L = e->L;
    int top = lua_gettop(L);
    Section scenario = { .kind = SECTION_SCENARIO }, state = { .kind = SECTION_STATE };
    Collected *mods = steerE_alloc(e, NULL, sizeof *mods);
    if (!mods) return steerE_fail(e, STEER_ENOMEM, "steer_engine_save: out of memory");
    mods->e = e;
    mods->nmods = 0;
    int st = world_bytes(e);
    if (st == STEER_OK) {
        lua_pushcfunction(L, scenario_save_f);
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->scenario_ref);
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->world_ref);
        lua_pushlightuserdata(L, &scenario);
        lua_pushlightuserdata(L, e);
        if (steerE_docall(L, 4, 0) != LUA_OK) st = steerE_keep_error(e);
    }
    if (st == STEER_OK) {
        unsigned char *bytes = NULL;
        st = steerE_state_save(e, &bytes, &state.len);
        state.p = bytes;
    }
    if (st == STEER_OK) {
        mods->kind = SECTION_MOD;
        st = steerE_mods_save(e, collect, mods);
        // after the save() calls: a mod whose save failed is disabled by now, and left out
        mods->kind = SECTION_MOD_STATE;
        if (st == STEER_OK) st = steerE_mods_save_state(e, collect, mods);
        if (st != STEER_OK)
            steerE_fail(e, st, "steer_engine_save: the mods' data: %s",
                        st == STEER_EFULL ? "too many mods" : "out of memory");
    }
    if (st == STEER_OK) {
        size_t wlen;
        const char *wp = lua_tolstring(L, top + 1, &wlen);
        steerS_Writer o;
        steerS_writer_sink(&o, write, ud);
        steerS_put(&o, MAGIC, 8);
        steerS_put_u32(&o, VERSION);
        steerS_put_u32(&o, (uint32_t)(2 + (scenario.p != NULL) + mods->nmods));
        put_section(&o, SECTION_WORLD, "", wp, wlen);
        if (scenario.p) put_section(&o, SECTION_SCENARIO, "", scenario.p, scenario.len);
        put_section(&o, SECTION_STATE, "", state.p, state.len);
        for (int i = 0; i < mods->nmods; i++)
            put_section(&o, mods->mods[i].kind, mods->mods[i].name, mods->mods[i].p, mods->mods[i].len);
        if (o.failed) st = steerE_fail(e, STEER_ECALLBACK, "steer_engine_save: the writer failed");
    }
    steerE_alloc(e, (void *)scenario.p, 0);
    steerE_alloc(e, (void *)state.p, 0);
    for (int i = 0; i < mods->nmods; i++) steerE_alloc(e, (void *)mods->mods[i].p, 0);
    steerE_alloc(e, mods, 0);
    lua_settop(L, top);
    return st;
}

// ---- restoring ---------------------------------------------------------------------

// Runs protected: whether the plain data of section 1 would decode (its
// error, "corrupt mod data (why)", if not), without making a value.
static int check_data_f(lua_State *L)
{
    const Section *s = lua_touserdata(L, 1);
    steerL_DataOptions o = { .shared = true, .noun = s->kind == SECTION_MOD ? "mod data" : "scenario data" };
    if (s->kind == SECTION_STATE) steerE_state_options(&o, NULL); // references are read, not resolved
    steerL_data_check(L, s->p, s->len, &o);
    return 0;
}

// Whether section i, a scenario's or a mod's own data, is plain data that
// its load would take; if not, the failure names the section.
static int check_data(steer_Engine *e, const Section *s, uint32_t i)
{
    lua_State *L = e->L;
    lua_pushcfunction(L, check_data_f);
    lua_pushlightuserdata(L, (void *)s);
    if (lua_pcall(L, 1, 0, 0) == LUA_OK) return STEER_OK;
    char why[300];
    snprintf(why, sizeof why, "%s", lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "out of memory");
    lua_pop(L, 1);
    if (s->kind == SECTION_SCENARIO || s->kind == SECTION_STATE)
        return steerE_fail(e, STEER_EARG, "steer_engine_restore: corrupt engine snapshot (section %u, %s: %s)", i,
                           s->kind == SECTION_STATE ? "steer.state" : "the scenario's data", why);
    char shown[STEERE_SHOWN_MAX];
    return steerE_fail(e, STEER_EARG, "steer_engine_restore: corrupt engine snapshot (section %u, mod %s's data: %s)",
                       i, steerE_shown(s->name, shown, sizeof shown), why);
}

// Split the container into sections (at most cap), or say what is wrong.
static int parse(steer_Engine *e, const unsigned char *p, size_t len, Section *out, int cap, int *n, uint32_t *ver)
{
    const char *fn = "steer_engine_restore";
    if (len < HEADER || memcmp(p, MAGIC, 8) != 0)
        return steerE_fail(e, STEER_EARG, "%s: not an engine snapshot (no STEERENG header)", fn);
    steerS_Reader r;
    steerS_reader_init(&r, p + 8, len - 8, NULL, 0);
    uint32_t version = steerS_get_u32(&r), count = steerS_get_u32(&r);
    if (version < 1 || version > VERSION)
        return steerE_fail(e, STEER_EARG, "%s: engine snapshot version %u, this steer reads versions 1 to %u", fn,
                           version, VERSION);
    if (count == 0 || count > (uint32_t)cap)
        return steerE_fail(e, STEER_EARG, "%s: corrupt engine snapshot (%u sections)", fn, count);
    int own[SECTION_STATE + 1] = { 0 }; // how many of each of the engine's own kinds
    static const unsigned last_kind[] = { 0, SECTION_MOD, SECTION_MOD_STATE, SECTION_STATE };
    for (uint32_t i = 0; i < count; i++) {
        Section *s = &out[i];
        s->kind = (int)steerS_get_u8(&r);
        uint32_t nl = steerS_get_u8(&r);
        const unsigned char *name = steerS_take(&r, nl);
        uint64_t sl = steerS_get_u64(&r);
        if (r.failed || sl > steerS_left(&r))
            return steerE_fail(e, STEER_EARG, "%s: truncated engine snapshot (section %u)", fn, i);
        memcpy(s->name, name, nl);
        s->name[nl] = '\0';
        s->p = steerS_take(&r, (size_t)sl);
        s->len = (size_t)sl;
        bool first = i == 0, of_mod = s->kind == SECTION_MOD || s->kind == SECTION_MOD_STATE;
        if ((s->kind == SECTION_WORLD) != first || s->kind < SECTION_WORLD || s->kind > (int)last_kind[version] ||
            of_mod != (nl > 0) || (!of_mod && ++own[s->kind] > 1) || memchr(s->name, '\0', nl) ||
            (s->kind == SECTION_MOD_STATE && !steerE_mod_state_ok(s->p, s->len)))
            return steerE_fail(e, STEER_EARG, "%s: corrupt engine snapshot (section %u)", fn, i);
        if ((s->kind == SECTION_MOD || s->kind == SECTION_SCENARIO || s->kind == SECTION_STATE) &&
            check_data(e, s, i) != STEER_OK)
            return STEER_EARG;
    }
    if (version >= 3 && !own[SECTION_STATE])
        return steerE_fail(e, STEER_EARG, "%s: corrupt engine snapshot (no steer.state section)", fn);
    if (steerS_left(&r))
        return steerE_fail(e, STEER_EARG, "%s: corrupt engine snapshot (%zu bytes past the end)", fn, steerS_left(&r));
    *n = (int)count;
    *ver = version;
    return STEER_OK;
}

// Runs protected: the scenario (1) gets load(w, data) with the world (2)
// and the data decoded from the section (3), if it has a load.
static int scenario_load_f(lua_State *L)
{
    const Section *s = lua_touserdata(L, 3);
    lua_getfield(L, 1, "load");
    if (lua_type(L, -1) != LUA_TFUNCTION) return 0;
    lua_pushvalue(L, 2);
    steerL_DataOptions o = { .shared = true, .where = "the scenario's data", .noun = "scenario data" };
    if (s) steerL_data_decode(L, s->p, s->len, &o);
    else lua_pushnil(L); // the scenario saved nothing of its own: load(w, nil) still finds its agents again
    lua_call(L, 2, 0);
    return 0;
}

// steer.state becomes the snapshot's (section `state`), or, from a
// snapshot of before the state (`old`: its scenario data), that data when
// the scenario has no save(w) and the data is a table; else it is emptied.
static int restore_state(steer_Engine *e, const Section *state, const Section *old)
{
    if (state) return steerE_state_restore(e, state->p, state->len, false);
    if (!old) return steerE_state_restore(e, NULL, 0, false);
    lua_State *L = e->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->scenario_ref);
    int st = steerE_get_field(e, -1, "save", "the scenario");
    if (st != STEER_OK) {
        lua_pop(L, 1);
        return st;
    }
    bool saves = lua_type(L, -1) == LUA_TFUNCTION;
    lua_pop(L, 2);
    return saves ? steerE_state_restore(e, NULL, 0, false) : steerE_state_restore(e, old->p, old->len, true);
}

// w:restore(bytes) on the scenario's world, in place.
static int world_restore(steer_Engine *e, const Section *s)
{
    lua_State *L = e->L;
    if (world_method(e, "restore", "steer_engine_restore") != STEER_OK) return STEER_ESCRIPT;
    int st = steerE_push_lstring(e, (const char *)s->p, s->len);
    if (st == STEER_OK && (st = push_roots(e, "steer_engine_restore: ")) != STEER_OK) lua_pop(L, 1);
    if (st != STEER_OK) {
        lua_pop(L, 2);
        return st;
    }
    if (steerE_docall(L, 3, 0) != LUA_OK) return steerE_keep_error_in(e, "steer_engine_restore: w:restore(): ");
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->world_ref); // the same userdata, the same world, new contents
    e->world = ((steerL_World *)lua_touserdata(L, -1))->w;
    lua_pop(L, 1);
    e->dt = steer_world_dt(e->world);
    return STEER_OK;
}

int steer_engine_restore(steer_Engine *e, const void *data, size_t len)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    steerE_clear_error(e);
    if (!data) return steerE_fail(e, STEER_EARG, "steer_engine_restore: data is NULL");
    if (!e->world) return steerE_fail(e, STEER_EARG, "steer_engine_restore: no scenario is loaded");
    Section *sections = steerE_alloc(e, NULL, MAX_SECTIONS * sizeof *sections);
    steerE_ModState *states = steerE_alloc(e, NULL, MAX_SECTIONS * sizeof *states);
    if (!sections || !states) {
        steerE_alloc(e, sections, 0);
        steerE_alloc(e, states, 0);
        return steerE_fail(e, STEER_ENOMEM, "steer_engine_restore: out of memory");
    }
    uint32_t version = 0;
    int n = 0, st = parse(e, data, len, sections, MAX_SECTIONS, &n, &version);
    int nstates = 0, at[MAX_SECTIONS], bad;
    for (int i = 1; i < n; i++)
        if (sections[i].kind == SECTION_MOD_STATE) {
            at[nstates] = i;
            states[nstates++] = (steerE_ModState){ sections[i].name, sections[i].p, sections[i].len };
        }
    if (st == STEER_OK && !steerE_mod_claims_ok(e, states, nstates, &bad)) {
        char shown[STEERE_SHOWN_MAX];
        st = bad == -1 ? steerE_fail(e, STEER_ENOMEM, "steer_engine_restore: out of memory")
                       : steerE_fail(e, STEER_EARG,
                                     "steer_engine_restore: corrupt engine snapshot (section %d, mod %s's agents: an "
                                     "agent that another section, or this one, claims too)",
                                     at[bad], steerE_shown(states[bad].name, shown, sizeof shown));
    }
    if (st == STEER_OK) st = world_restore(e, &sections[0]);
    // the mods' agents and inboxes first: a mod's load(data) may change its agents
    if (st == STEER_OK && version >= 2) steerE_mods_restore_state(e, states, nstates);
    lua_State *L = e->L;
    const Section *own = NULL, *state = NULL; // the scenario's own data and steer.state, if saved
    for (int i = 1; st == STEER_OK && i < n; i++) {
        const Section *s = &sections[i];
        if (s->kind == SECTION_MOD_STATE) continue;
        if (s->kind == SECTION_STATE) {
            state = s;
            continue;
        }
        if (s->kind == SECTION_MOD) {
            // a mod that fails is disabled and reported; the restore goes on
            steerE_mod_load(e, s->name, s->p, s->len);
            continue;
        }
        own = s;
    }
    if (st == STEER_OK) st = restore_state(e, state, version >= 3 ? NULL : own);
    if (st == STEER_OK) {
        lua_pushcfunction(L, scenario_load_f);
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->scenario_ref);
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->world_ref);
        lua_pushlightuserdata(L, (void *)own);
        if (steerE_docall(L, 3, 0) != LUA_OK) st = steerE_keep_error(e);
    }
    steerE_alloc(e, sections, 0);
    steerE_alloc(e, states, 0);
    if (st == STEER_OK) e->after = STEERE_AFTER_RESTORE;
    return st;
}
