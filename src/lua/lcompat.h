// SPDX-License-Identifier: MIT
// lcompat.h — the Lua C API the bindings are written in, on every Lua a
// game loads the module into. The bindings speak Lua 5.4's API; on 5.3
// that is the native API but for three 5.4 calls, and on 5.1 and LuaJIT
// 2.1 lua-compat-5.3 (Debian's lua-compat53-dev, included as its own
// static copy in each file) supplies 5.3's calls, and this header the rest:
// - user values: a 5.4 userdata has n of them. Here one table, held as the
//   userdata's single user value (5.3) or environment (5.1), keeps them.
// - handle ids: agent and shape ids are 64-bit (generation high, slot
//   low), and a 5.1 or LuaJIT number is a double, exact to 2^53. There an
//   id is shown to Lua with its generation cut to 21 bits (steerL_lid): exact,
//   unique among live handles, and a handle and the same slot's handle
//   2^21 (two million) generations later name the same id. The bindings
//   key their own tables by these ids too (steerL_rawgetid), and turn an
//   id back into a handle with the slot's generation (steerL_agent_of_lid).
// - lua_pushfstring has no %I before 5.3: the bindings print integers
//   with snprintf's %lld and pass the text.
// - integers: on 5.1 lua_isinteger is "a number with no fraction", so 2.0
//   passes where 5.4 refuses it.
// The engine, its mods and the `steer` program stay on 5.4 (meson.build).
#ifndef STEER_LCOMPAT_H
#define STEER_LCOMPAT_H

#include <lua.h>
#include <lauxlib.h>
#include <stdint.h>

#if LUA_VERSION_NUM < 503
#include "compat-5.3.h"
#endif

#ifndef LUA_LOADED_TABLE // 5.1: package.loaded and .preload live here too
#define LUA_LOADED_TABLE "_LOADED"
#endif
#ifndef LUA_PRELOAD_TABLE
#define LUA_PRELOAD_TABLE "_PRELOAD"
#endif

#if LUA_VERSION_NUM < 504
// One table of user values per userdata that has any.
static inline void *steerL_newuserdatauv(lua_State *L, size_t size, int nuv)
{
    void *p = lua_newuserdata(L, size);
    if (nuv > 0) {
        lua_createtable(L, nuv, 0);
#if LUA_VERSION_NUM < 502
        lua_setfenv(L, -2);
#else
        lua_setuservalue(L, -2);
#endif
    }
    return p;
}

// Pushes the table of user values of the userdata at idx (nil when none).
static inline int steerL_uvtable(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TUSERDATA) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
#if LUA_VERSION_NUM < 502
    lua_getfenv(L, idx);
#else
    lua_getuservalue(L, idx);
#endif
    return lua_type(L, -1);
}

static inline int steerL_getiuservalue(lua_State *L, int idx, int n)
{
    if (steerL_uvtable(L, idx) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_pushnil(L);
        return LUA_TNONE;
    }
    lua_rawgeti(L, -1, n);
    lua_remove(L, -2);
    return lua_type(L, -1);
}

static inline int steerL_setiuservalue(lua_State *L, int idx, int n)
{
    idx = lua_absindex(L, idx);
    if (steerL_uvtable(L, idx) != LUA_TTABLE) {
        lua_pop(L, 2);
        return 0;
    }
    lua_insert(L, -2);
    lua_rawseti(L, -2, n);
    lua_pop(L, 1);
    return 1;
}
#define lua_newuserdatauv steerL_newuserdatauv
#define lua_getiuservalue steerL_getiuservalue
#define lua_setiuservalue steerL_setiuservalue
#endif

#if LUA_VERSION_NUM < 503
#define STEERL_LID_GEN_BITS 21 // 2^21 generations times 2^32 slots: 2^53
#endif

// The id Lua sees for a handle id (a.id, a shape's id, the keys of the
// bindings' tables): the id itself where Lua has 64-bit integers.
static inline lua_Integer steerL_lid(uint64_t id)
{
#if LUA_VERSION_NUM >= 503
    return (lua_Integer)id;
#else
    uint64_t gen = (id >> 32) & ((UINT64_C(1) << STEERL_LID_GEN_BITS) - 1);
    return (lua_Integer)(gen << 32 | (id & 0xFFFFFFFFu));
#endif
}

static inline void steerL_pushid(lua_State *L, uint64_t id) { lua_pushinteger(L, steerL_lid(id)); }

// t[id] of a table keyed by handle ids (t at idx): pushes it, returns its type.
static inline int steerL_rawgetid(lua_State *L, int idx, uint64_t id)
{
#if LUA_VERSION_NUM >= 503
    return lua_rawgeti(L, idx, (lua_Integer)id);
#else
    idx = lua_absindex(L, idx);
    steerL_pushid(L, id);
    return lua_rawget(L, idx);
#endif
}

// t[id] = the value on top (popped), t at idx.
static inline void steerL_rawsetid(lua_State *L, int idx, uint64_t id)
{
#if LUA_VERSION_NUM >= 503
    lua_rawseti(L, idx, (lua_Integer)id);
#else
    idx = lua_absindex(L, idx);
    steerL_pushid(L, id);
    lua_insert(L, -2);
    lua_rawset(L, idx);
#endif
}

#endif
