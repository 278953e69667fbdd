// SPDX-License-Identifier: MIT
// test_edges.c — a world steer accepted always loads (issue 29, item 1):
// every number a script gives, at both ends of its range (docs/api.md
// "Number ranges": the least positive value, 1e-6 or the field's minimum,
// and its maximum), saved by w:save, loads with steer.load and w:restore
// and saves again to the same bytes. A float keeps 1e-6 as 9.99999997e-7
// and 1e30 as 1.00000002e30, outside the ranges as written; the loader
// must take what the setters stored.
//
// The fields are every number field of every kind, read from the kinds'
// table (so a new kind or field is swept without editing this test), the
// agent's vehicle and craft numbers, think_hz, and the world's, grids' and
// archetypes' numbers. The sweep runs in Lua (edges.lua below), which
// builds each kind with what it needs besides the field under test.
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

#include "steer_lua.h"
#include "core/brain.h"
#include "check.h"

#include <stdlib.h>

// {{kind, field, min, max}, ...}: every number field of every kind.
static int number_fields(lua_State *L)
{
    lua_newtable(L);
    int n = 0;
    for (const steerB_Kind *const *k = steerB_kinds; *k; k++)
        for (const steerB_Field *f = (*k)->fields; f && f->name; f++) {
            if (f->type != STEERB_NUMBER) continue;
            lua_createtable(L, 4, 0);
            lua_pushstring(L, (*k)->name);
            lua_rawseti(L, -2, 1);
            lua_pushstring(L, f->name);
            lua_rawseti(L, -2, 2);
            lua_pushnumber(L, f->min);
            lua_rawseti(L, -2, 3);
            lua_pushnumber(L, f->max);
            lua_rawseti(L, -2, 4);
            lua_rawseti(L, -2, ++n);
        }
    return 1;
}

#ifndef EDGES_LUA
#define EDGES_LUA "tests/lua/edges.lua"
#endif

static void test_edges(void)
{
    lua_State *L = luaL_newstate();
    REQUIRE(L, "no Lua state");
    luaL_openlibs(L);
    steer_lua_preload(L);
    int st = luaL_loadfile(L, EDGES_LUA);
    if (st == LUA_OK) {
        lua_pushcfunction(L, number_fields);
        st = lua_pcall(L, 1, 3, 0);
    }
    CHECK(st == LUA_OK, "%s", st == LUA_OK ? "" : lua_tostring(L, -1));
    if (st == LUA_OK) {
        int tried = (int)lua_tointeger(L, -3), refused = (int)lua_tointeger(L, -2);
        int nfail = (int)lua_rawlen(L, -1);
        printf("    %d values at the ends of their ranges, %d refused when built, %d failed\n", tried, refused, nfail);
        // most values build (a cross-field rule refuses a few: a wander's
        // radius against its distance, ...)
        CHECK(tried > 200 && refused * 4 < tried, "%d values tried, %d refused", tried, refused);
        for (int i = 1; i <= nfail; i++) {
            lua_rawgeti(L, -1, i);
            CHECK(false, "%s", lua_tostring(L, -1));
            lua_pop(L, 1);
        }
    }
    lua_close(L);
}

int main(void)
{
    RUN(test_edges);
    return check_report_("edges");
}
