// SPDX-License-Identifier: MIT
// runner.c — steer-spec: runs one Lua spec file with the engine linked in.
//
// The specs run inside this program rather than the stock lua5.4 so that a
// sanitizer build instruments the whole engine, bindings included, and so
// that the tests never depend on where steer.so was installed. "steer" is
// preloaded from the static bindings; spec.lua is found through
// package.path (tests/lua, given at build time, and the spec file's own
// folder). Exit status: 0 when every spec passed and at least one ran,
// 1 when a spec failed or the file could not run, 2 for bad usage.
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

#include "steer_lua.h"

#include <stdio.h>
#include <string.h>

#ifndef SPEC_LUA_DIR
#define SPEC_LUA_DIR "tests/lua"
#endif

// A traceback for errors outside any `it` block (a typo at the top of a
// spec file), in the shape of lua.c's msghandler.
static int msghandler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    luaL_traceback(L, L, msg, 1);
    return 1;
}

// Prepend the spec folder(s) to package.path.
static void set_path(lua_State *L, const char *file)
{
    const char *slash = strrchr(file, '/');
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "path");
    lua_pushliteral(L, SPEC_LUA_DIR "/?.lua;" SPEC_LUA_DIR "/../../lua/?.lua;");
    if (slash) {
        lua_pushlstring(L, file, (size_t)(slash - file));
        lua_pushliteral(L, "/?.lua;");
    } else {
        lua_pushliteral(L, "./?.lua;");
        lua_pushliteral(L, "");
    }
    lua_pushvalue(L, -4);
    lua_concat(L, 4);
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: steer-spec FILE_spec.lua\n");
        return 2;
    }
    const char *file = argv[1];
    lua_State *L = luaL_newstate();
    if (!L) {
        fprintf(stderr, "steer-spec: cannot create a Lua state\n");
        return 1;
    }
    luaL_openlibs(L);
    steer_lua_preload(L);
    set_path(L, file);

    lua_pushcfunction(L, msghandler);
    int handler = lua_gettop(L);
    int loaded = luaL_loadfile(L, file) == LUA_OK && lua_pcall(L, 0, 0, handler) == LUA_OK;
    if (!loaded) {
        // still report what ran before the error, then fail
        fprintf(stderr, "steer-spec: %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    // the spec module counts results; report() prints the summary line and
    // returns true only when every test passed and at least one ran
    int passed = 0;
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, "spec") == LUA_TTABLE && lua_getfield(L, -1, "report") == LUA_TFUNCTION) {
        if (lua_pcall(L, 0, 1, handler) == LUA_OK) passed = lua_toboolean(L, -1);
        else fprintf(stderr, "steer-spec: %s\n", lua_tostring(L, -1));
    } else {
        fprintf(stderr, "steer-spec: %s did not use the spec module: no tests ran\n", file);
    }
    int status = loaded && passed ? 0 : 1;
    lua_close(L);
    return status;
}
