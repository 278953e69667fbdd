// SPDX-License-Identifier: MIT
// state.c — steer.state, the scenario's own state as the engine keeps it.
//
// `steer.state` is a table of the steer module (lsteer.c). A hot reload runs
// the scenario's file anew but never the steer module, so the file's
// `local S = steer.state` is the same table before and after; a snapshot
// carries it (a section of its own, save.c) as plain data (ldata.h) in
// which the world's agents are kept by id and steer.vec values by value;
// a restore (--load, a rewind) puts the saved contents back into the same
// table, in place, before the scenario's load(w, data) runs. So what setup
// makes and keeps there is what the scenario finds after a reload, a load
// and a rewind, unlike the file's own locals.
//
// The first tick after a reload, a load or a restore is where state kept
// in locals goes missing ("attempt to index a nil value"): an error of
// that tick gets a hint saying so (steerE_state_hint).
#include "engine.h"
#include "../lua/ldata.h"
#include "../lua/lsnapshot.h"

#include <stdio.h>
#include <string.h>

enum { REF_AGENT = 1 }; // the one kind of reference in the state: an agent of the world, by its handle id

// Runs protected in open_state: the steer module's state table, referenced
// as the engine's (the scenario may set steer.state to something else;
// the engine keeps the table it was).
int steerE_state_open(lua_State *L)
{
    steer_Engine *e = lua_touserdata(L, 1);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "steer");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "state");
    e->state_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static int ref_encode(void *ud, lua_State *L, int idx, uint64_t *index, const char **why)
{
    int agent = steerL_agent_ref(ud, L, idx, index, why);
    if (agent >= 0) return agent ? REF_AGENT : 0;
    if (steerL_tobehavior(L, idx)) *why = "a brain (keep it in an agent's a.data, or make it again in load(w, data))";
    else if (steerL_isgrid(L, idx)) *why = "a grid (keep it in an agent's a.data, or make it again in load(w, data))";
    else if (steerL_toflow(L, idx))
        *why = "a flow field (keep it in an agent's a.data, or make it again in load(w, data))";
    return 0;
}

// Decoding runs in restore_f's frame: 2 is the world.
static void ref_decode(void *ud, lua_State *L, int kind, uint64_t index)
{
    (void)ud;
    if (kind != REF_AGENT || index == 0)
        luaL_error(L, "steer_engine_restore: corrupt engine snapshot (steer.state holds a reference of kind %d)", kind);
    luaL_checkstack(L, 4, "steer_engine_restore");
    steerL_pushagent(L, 2, (steer_Agent){ index });
}

void steerE_state_options(steerL_DataOptions *o, void *world)
{
    *o = (steerL_DataOptions){ .shared = true,
                               .where = "steer.state",
                               .noun = "scenario state",
                               .ref_encode = ref_encode,
                               .ref_decode = ref_decode,
                               .ref_ud = world };
}

int steerE_state_save(steer_Engine *e, unsigned char **out, size_t *len)
{
    lua_State *L = e->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->world_ref);
    void *world = lua_touserdata(L, -1);
    lua_pop(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->state_ref);
    steerL_DataOptions o;
    steerE_state_options(&o, world);
    o.alloc = steerE_alloc_ud;
    o.alloc_ud = e;
    steerL_DataError err;
    int st = steerL_data_encode(L, -1, &o, out, len, &err);
    lua_pop(L, 1);
    if (st == STEERL_DATA_OK) return STEER_OK;
    return steerE_fail(e, st == STEERL_DATA_NO_MEMORY ? STEER_ENOMEM : STEER_ESCRIPT, "steer_engine_save: %s",
                       err.message);
}

// Runs protected: the state table (1) becomes the bytes' table (3, 4:
// pointer and length; NULL: an empty table) in place; 2 is the world. With
// 5 true, bytes of another value than a table give an empty one.
static int restore_f(lua_State *L)
{
    const unsigned char *p = lua_touserdata(L, 3);
    if (p) {
        steerL_DataOptions o;
        steerE_state_options(&o, lua_touserdata(L, 2));
        steerL_data_decode(L, p, (size_t)lua_tointeger(L, 4), &o);
        if (!lua_istable(L, -1) && lua_toboolean(L, 5)) {
            lua_pop(L, 1);
            lua_newtable(L);
        } else if (!lua_istable(L, -1)) {
            return luaL_error(L, "steer_engine_restore: corrupt engine snapshot (steer.state is a %s, not a table)",
                              luaL_typename(L, -1));
        }
    } else {
        lua_newtable(L);
    }
    // decoded before anything is cleared: a failure leaves the state as it was
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, 1);
    }
    steerL_copy_table(L, -1, 1);
    return 0;
}

int steerE_state_restore(steer_Engine *e, const unsigned char *p, size_t len, bool any)
{
    lua_State *L = e->L;
    lua_pushcfunction(L, restore_f);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->state_ref);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->world_ref);
    lua_pushlightuserdata(L, (void *)p);
    lua_pushinteger(L, (lua_Integer)len);
    lua_pushboolean(L, any);
    if (steerE_docall(L, 5, 0) != LUA_OK) return steerE_keep_error(e);
    return STEER_OK;
}

void steerE_state_clear(steer_Engine *e)
{
    lua_State *L = e->L;
    lua_pushcfunction(L, restore_f);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->state_ref);
    lua_pushnil(L);
    lua_pushnil(L);
    lua_pushnil(L);
    lua_pushnil(L);
    if (lua_pcall(L, 5, 0, 0) != LUA_OK) lua_pop(L, 1); // out of memory: the error kept is the caller's
}

void steerE_state_hint(steer_Engine *e)
{
    static const char *const hints[] = {
        [STEERE_AFTER_RELOAD] = "the first tick after a hot reload, which ran the file anew: its locals started "
                                "afresh and setup did not run again; keep what setup makes in steer.state (kept "
                                "across reloads, loads and rewinds), or make it again in reload(w)",
        [STEERE_AFTER_LOAD] = "the first tick after loading a snapshot, in place of setup: the snapshot holds the "
                              "world and steer.state, not the file's locals; keep what setup makes in steer.state, "
                              "or find it again in load(w, data)",
        [STEERE_AFTER_RESTORE] = "the first tick after a rewind (a restore): the world and steer.state went back, "
                                 "the file's locals did not; keep the scenario's own state in steer.state, or set it "
                                 "again in load(w, data)",
    };
    if (e->after == STEERE_AFTER_NONE) return;
    const char *hint = hints[e->after];
    size_t n = strlen(e->error);
    snprintf(e->error + n, sizeof e->error - n, " (hint: %s)", hint);
    if (!e->traceback) return;
    // the traceback starts with the same first line: the hint goes after it
    const char *rest = strstr(e->traceback, "\nstack traceback:");
    if (!rest) rest = "";
    size_t nr = strlen(rest), ne = strlen(e->error);
    char *t = steerE_alloc(e, NULL, ne + nr + 1);
    if (!t) return;
    memcpy(t, e->error, ne);
    memcpy(t + ne, rest, nr + 1);
    steerE_alloc(e, e->traceback, 0);
    e->traceback = t;
}
