// SPDX-License-Identifier: MIT
// lsteer.c — luaopen_steer: the one entry point that registers every type.
// `require "steer"` finds it in steer.so; the `steer` program preloads it.
#include "lsnapshot.h"
#include "lutil.h"
#include "steer_lua.h"
#include "../core/rng.h"

static int kinds(lua_State *L)
{
    lua_newtable(L);
    const char *const *k = steer_kinds();
    for (int i = 0; k[i]; i++) {
        lua_pushstring(L, k[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

// steer.xorshift32(state) -> the next state: the step of steer.random's
// stream (lua/steer/random.lua), here so that every Lua, 5.1 included
// (no bitwise operators), draws the same numbers. The core's agent streams
// are the same generator.
static int xorshift32(lua_State *L)
{
    int ok;
    lua_Integer s = lua_tointegerx(L, 1, &ok);
    if (!ok || s < 1 || s > 0xFFFFFFFF)
        return steerL_field_error(L, "steer.xorshift32", NULL, "a state from 1 to 2^32 - 1 as argument 1", 1);
    uint32_t x = (uint32_t)s;
    steer_rng32(&x);
    lua_pushinteger(L, (lua_Integer)x);
    return 1;
}

STEER_API int luaopen_steer(lua_State *L)
{
    lua_newtable(L);
    steerL_open_vec(L);
    steerL_open_world(L);
    steerL_open_agent(L);
    steerL_open_behavior(L);
    steerL_open_archetype(L);
    steerL_open_grid(L);
    steerL_open_flow(L);
    steerL_open_navmesh(L);
    steerL_open_formation(L);
    steerL_open_snapshot(L);
    steerL_open_craft(L);
    steerL_add_host_constructors(L);
    lua_pushcfunction(L, kinds);
    lua_setfield(L, -2, "kinds");
    lua_pushcfunction(L, xorshift32);
    lua_setfield(L, -2, "xorshift32");
    lua_pushcfunction(L, steerL_debug_draw);
    lua_setfield(L, -2, "debug_draw");
    lua_pushliteral(L, STEER_VERSION);
    lua_setfield(L, -2, "version");
    // a scenario's own state: the engine keeps it across hot reloads and
    // carries it in its snapshots (src/engine/state.c); elsewhere a plain table
    lua_newtable(L);
    lua_setfield(L, -2, "state");
    return 1;
}

void steer_lua_preload(lua_State *L)
{
    if (!L) return;
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_steer);
    lua_setfield(L, -2, "steer");
    lua_pop(L, 1);
}
