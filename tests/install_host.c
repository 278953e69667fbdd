// SPDX-License-Identifier: MIT
// install_host.c — the smallest host of the Lua embedding API, built by
// tests/install.sh against the installed headers and steer.pc only: its own
// lua_State, the steer module opened in it (steer_lua.h), and a script that
// spawns an agent and steps the world. Prints the world's agent count and
// hash; exits 1 with Lua's message if the script fails.
#include <steer_lua.h>

#include <lauxlib.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>

static const char script[] = "local steer = require 'steer'\n"
                             "local w = steer.world{ seed = 1 }\n"
                             "w:spawn{ position = {0, 0}, velocity = {1, 0}, brain = steer.seek{ target = {10, 5} } }\n"
                             "w:step(60)\n"
                             "print(w.count, w:hash())\n";

int main(void)
{
    lua_State *L = luaL_newstate();
    if (!L) return EXIT_FAILURE;
    luaL_openlibs(L);
    steer_lua_preload(L);
    int status = luaL_dostring(L, script);
    if (status != LUA_OK) fprintf(stderr, "install_host: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return status == LUA_OK ? EXIT_SUCCESS : EXIT_FAILURE;
}
