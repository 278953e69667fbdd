// SPDX-License-Identifier: MIT
// test_lua_hooks.c — the Lua bindings' host callbacks under memory
// failure: a think or custom callback that cannot even be called (its
// agent's userdata cannot be allocated) fails that step with an error, and
// the world steps again afterwards (no flag left stuck by an error that
// escaped the protected call).
//
// The Lua state's allocator refuses to grow anything while `fail_memory`
// is on, which the scripts below switch around one step.
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

#include "steer_lua.h"
#include "check.h"

#include <stdbool.h>
#include <stdlib.h>

static bool refuse;

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    if (refuse && (!ptr || nsize > osize)) return NULL;
    return realloc(ptr, nsize);
}

static int fail_memory(lua_State *L)
{
    refuse = lua_toboolean(L, 1);
    return 0;
}

// Run a script; REQUIREs it returns true, prints its error otherwise.
static bool run(const char *script)
{
    lua_State *L = lua_newstate(limited_alloc, NULL);
    if (!L) return false;
    luaL_openlibs(L);
    steer_lua_preload(L);
    lua_register(L, "fail_memory", fail_memory);
    bool ok = luaL_dostring(L, script) == LUA_OK && lua_toboolean(L, -1);
    if (!ok) printf("    script: %s\n", lua_tostring(L, -1) ? lua_tostring(L, -1) : "returned false");
    refuse = false;
    lua_close(L);
    return ok;
}

// The agent's userdata is collected (the handles table is weak), so the
// callback must build a new one while memory is refused.
static const char *const prologue = "local steer = require 'steer'\n"
                                    "local w = steer.world{ seed = 1 }\n";
static const char *const epilogue = "w:step()\n" // warm up: every table and call frame the step needs exists
                                    "collectgarbage() collectgarbage()\n"
                                    "fail_memory(true)\n"
                                    "local ok, err = pcall(w.step, w)\n"
                                    "fail_memory(false)\n"
                                    "assert(not ok, 'the step under memory failure did not fail')\n"
                                    "local ok2, err2 = pcall(w.step, w)\n"
                                    "assert(ok2, 'the next step failed too: ' .. tostring(err2))\n"
                                    "return calls > 0\n";

// The script: the prologue, lines that spawn an agent whose callback
// counts its calls in `calls`, the epilogue.
static bool run_around(const char *spawn)
{
    char script[2048];
    snprintf(script, sizeof script, "%scalls = 0\n%s\n%s", prologue, spawn, epilogue);
    return run(script);
}

static void test_think_out_of_memory(void)
{
    CHECK(run_around("w:spawn{ think = function() calls = calls + 1 end, think_hz = 1000 }"),
          "think under memory failure left the world unusable");
}

static void test_custom_out_of_memory(void)
{
    CHECK(run_around("w:spawn{ brain = steer.custom(function() calls = calls + 1 return 0, 0 end) }"),
          "steer.custom under memory failure left the world unusable");
}

int main(void)
{
    RUN(test_think_out_of_memory);
    RUN(test_custom_out_of_memory);
    return check_report_("lua_hooks");
}
