// SPDX-License-Identifier: MIT
// fuzz_grid.c — libFuzzer: steer.grid's map parser and what is built on a
// grid. The input is the map's text (lines split at '\n'); its first byte
// picks the cell size and whether a costs callback that edits the map runs.
// Then a flow field, a path, line of sight and the walls. An error is fine
// when it names the caller's line; a crash, a leak or an error without
// file:line aborts.
#include "steer_lua.h"

#include <lauxlib.h>
#include <lualib.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char script[] =
    "local steer = require 'steer'\n"
    "local text, mode = ...\n"
    "local map = {}\n"
    "for line in (text .. '\\n'):gmatch('([^\\n]*)\\n') do map[#map + 1] = line end\n"
    "local costs\n"
    "if mode % 4 == 1 then costs = function(i, j, c) map[#map] = {}; map[1] = '.'; return 1 end\n"
    "elseif mode % 4 == 2 then costs = function(i, j, c) return (i * j) % 3 == 0 and false or i end\n"
    "elseif mode % 4 == 3 then costs = function(i, j, c) return 0 / 0 end end\n"
    "local cell = ({ 1, 0.5, 3, 1e-3 })[mode // 4 % 4 + 1]\n"
    "local ok, g = pcall(function() return steer.grid{ cell = cell, origin = { -3, 2 }, map = map, costs = costs } "
    "end)\n"
    "if not ok then return g end\n"
    "local w = steer.world{}\n"
    "w:add_grid(g)\n"
    "local f = g:flow_field{ goal = g:center(1, 1) }\n"
    "f:direction({ 0, 0 })\n"
    "g:path({ -3, 2 }, { 5, 9 })\n"
    "g:line_of_sight({ -3, 2 }, { 50, 40 })\n"
    "g:walls()\n"
    "w:spawn{ position = { 1, 3 }, brain = steer.follow_flow{ field = f } }\n"
    "w:step(3)\n";

static int failed_without_line(lua_State *L)
{
    const char *msg = lua_tostring(L, -1);
    return msg && !strstr(msg, "fuzz_grid:");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1 << 16) return -1;
    lua_State *L = luaL_newstate();
    if (!L) return 0;
    luaL_openlibs(L);
    steer_lua_preload(L);
    int st = luaL_loadbufferx(L, script, sizeof script - 1, "=fuzz_grid", "t");
    if (st != LUA_OK) abort();
    lua_pushlstring(L, (const char *)data + 1, size - 1);
    lua_pushinteger(L, data[0]);
    st = lua_pcall(L, 2, 1, 0);
    // a refused map returns the message; an error in the rest raises it
    if ((st == LUA_OK && lua_isstring(L, -1) && failed_without_line(L)) || (st != LUA_OK && failed_without_line(L))) {
        fprintf(stderr, "fuzz_grid: an error without file:line: %s\n", lua_tostring(L, -1));
        abort();
    }
    lua_close(L);
    return 0;
}
