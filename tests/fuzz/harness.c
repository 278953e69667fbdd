// SPDX-License-Identifier: MIT
// harness.c — see harness.h. Each program gets a Lua state of its own, so
// nothing one program leaves behind (globals, archetypes, metatables) can
// change the next; the generator and the checks are the Lua modules
// api_gen.lua and api_rt.lua in `dir`.
#include "harness.h"

#include "steer_lua.h"

#include <lauxlib.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lua_State *new_state(const char *dir)
{
    lua_State *L = luaL_newstate();
    if (!L) return NULL;
    luaL_openlibs(L);
    steer_lua_preload(L);
    lua_getglobal(L, "package");
    lua_pushfstring(L, "%s/?.lua", dir);
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
    return L;
}

static int generate(lua_State *L)
{
    const char *bytes = lua_tostring(L, 1);
    size_t n = lua_rawlen(L, 1);
    lua_Integer seed = lua_tointeger(L, 2), max = lua_tointeger(L, 3);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "api_gen");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "program");
    lua_getfield(L, -2, bytes ? "bytes" : "seeded");
    if (bytes) lua_pushlstring(L, bytes, n);
    else lua_pushinteger(L, seed);
    lua_call(L, 1, 1);
    lua_pushinteger(L, max);
    lua_call(L, 2, 1);
    return 1;
}

char *fuzz_generate(const char *dir, long long seed, const unsigned char *bytes, size_t nbytes, int max_statements)
{
    lua_State *L = new_state(dir);
    if (!L) return NULL;
    lua_pushcfunction(L, generate);
    if (bytes) lua_pushlstring(L, (const char *)bytes, nbytes);
    else lua_pushnil(L);
    lua_pushinteger(L, (lua_Integer)seed);
    lua_pushinteger(L, max_statements);
    char *text = NULL;
    if (lua_pcall(L, 3, 1, 0) == LUA_OK) {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (s && (text = malloc(len + 1))) memcpy(text, s, len + 1);
    } else {
        fprintf(stderr, "fuzz: the generator failed: %s\n", lua_tostring(L, -1));
    }
    lua_close(L);
    return text;
}

// The message of a Failure (api_rt.lua) or of any error that escaped.
static void describe(lua_State *L, char *why, size_t size)
{
    if (!why) return;
    lua_getfield(L, -1, "msg");
    const char *s = lua_tostring(L, -1);
    if (!s) s = lua_tostring(L, -2);
    snprintf(why, size, "%s", s ? s : "(an error object that is not a message)");
    lua_pop(L, 1);
}

static void add_stat(lua_State *L, int rt, const char *name, long *to)
{
    lua_getfield(L, rt, name);
    *to += (long)lua_tointeger(L, -1);
    lua_pop(L, 1);
}

int fuzz_run(const char *dir, const char *chunkname, const char *text, FuzzStats *stats, char *why, size_t why_size)
{
    lua_State *L = new_state(dir);
    if (!L) {
        snprintf(why, why_size, "cannot create a Lua state");
        return 1;
    }
    lua_getglobal(L, "require");
    lua_pushliteral(L, "api_rt");
    int failed = lua_pcall(L, 1, 1, 0) != LUA_OK;
    int rt = lua_gettop(L);
    if (!failed) failed = luaL_loadbufferx(L, text, strlen(text), chunkname, "t") != LUA_OK;
    if (!failed) {
        lua_pushvalue(L, rt);
        failed = lua_pcall(L, 1, 0, 0) != LUA_OK;
    }
    if (failed) describe(L, why, why_size);
    if (stats) {
        stats->programs++;
        stats->failures += failed;
        for (const char *p = text; (p = strstr(p, "rt.try(")); p++) stats->statements++;
        if (lua_istable(L, rt)) {
            add_stat(L, rt, "steps", &stats->steps);
            add_stat(L, rt, "errors", &stats->errors);
        }
    }
    lua_close(L);
    return failed;
}
