// SPDX-License-Identifier: MIT
// headers.cpp — a C++ host of the public headers: they compile as C++11 and
// later at -Wall -Wextra -Wpedantic -Werror (no C-only constructs in their
// macros: STEER_NO_AGENT and STEER_NO_SHAPE are not compound literals in
// C++) and declare C symbols (extern "C"). The `cxx_headers` test
// (tests/cxx_headers.sh) builds it with g++ and clang++ for several
// standards, links it with libsteer.so (with STEER_TEST_LUA: the engine's
// and the Lua module's headers too, and libsteerlua.so) and runs it: it
// steps tests/c/api_world.h's world and prints the hash, which must be the
// C build's.
#include "steer.h"
#include "steer_debug.h"
#include "steer_draw.h"
#include "steer_nav.h"
#ifdef STEER_TEST_LUA
#include "steer_engine.h"
#include "steer_lua.h"
#include <lauxlib.h>
#include <lualib.h>
#endif

#include "api_world.h"

#include <cinttypes>
#include <cstdio>

namespace {

// the "none" handles as C++ values: in a default argument, compared, returned
steer_Agent none_or(steer_Agent a = STEER_NO_AGENT) { return a; }
steer_Shape no_shape() { return STEER_NO_SHAPE; }

int fail(const char *what, int st)
{
    std::fprintf(stderr, "headers.cpp: %s: status %d\n", what, st);
    return 1;
}

} // namespace

int main()
{
    if (none_or().id != 0 || no_shape().id != 0) return fail("STEER_NO_AGENT / STEER_NO_SHAPE are not zero", 0);
    steer_World *w = nullptr;
    steer_WorldDesc wd = {};
    int st = steer_world_new(&wd, &w);
    if (st != STEER_OK) return fail("steer_world_new", st);
    steer_DebugAgents agents = {};
    steer_DrawList draw = {};
    int dx = 0, dy = 0;
    st = steer_debug_agents(w, &agents);
    if (st != STEER_OK || agents.count != 0) return fail("steer_debug_agents", st);
    if (steer_debug_flow_step(STEER_FLOW_NONE, &dx, &dy) != STEER_EARG) return fail("steer_debug_flow_step(STEER_FLOW_NONE)", -1);
    (void)draw;
    double at[3] = { 1, 2, 0 };
    steer_Agent a = none_or();
    steer_Hit hit = {};
    if (steer_raycast(w, at, at, 1, 0, STEER_NO_AGENT, &hit) != 0) return fail("steer_raycast hit in an empty world", -1);
    steer_AgentDesc ad = {};
    if (steer_spawn(w, &ad, &a) != STEER_OK || a.id == STEER_NO_AGENT.id) return fail("steer_spawn", -1);
    steer_world_free(w);

    // the world every host of tests/c/api_world.h steps
    ApiFns fns = API_LINKED;
    std::uint64_t hash = 0;
    st = api_world(&fns, &hash);
    if (st != STEER_OK) return fail("api_world", st);
#ifdef STEER_TEST_LUA
    steer_Engine *e = nullptr;
    st = steer_engine_new(nullptr, &e);
    if (st != STEER_OK) return fail("steer_engine_new", st);
    steer_engine_free(e);
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    steer_lua_preload(L);
    if (luaL_dostring(L, "local w = require('steer').world{}; w:spawn{}; w:step(3); return w.count") != LUA_OK ||
        lua_tointeger(L, -1) != 1)
        return fail(lua_tostring(L, -1), -1);
    lua_close(L);
#endif
    std::printf("%016" PRIx64 "\n", hash);
    return 0;
}
