// SPDX-License-Identifier: MIT
// headers.cpp — the public headers a C or C++ game includes compile as C++
// (no C-only constructs in their macros or declarations) and declare C
// symbols (extern "C"): the `cxx_headers` test (tests/cxx_headers.sh)
// compiles this to an object and checks that every steer function it calls
// is referenced unmangled. With STEER_TEST_LUA, the Lua module's and the
// engine's headers too (they need Lua's headers).
#include "steer.h"
#include "steer_debug.h"
#include "steer_draw.h"
#ifdef STEER_TEST_LUA
#include "steer_engine.h"
#include "steer_lua.h"
#endif

int main()
{
    steer_DebugAgents agents = {};
    steer_DebugNode node = {};
    steer_DebugFlow flow = {};
    int dx = 0, dy = 0;
    steer_World *w = nullptr;
    (void)node;
    (void)flow;
    int st = steer_debug_agents(w, &agents) + steer_debug_flow_step(STEER_FLOW_NONE, &dx, &dy);
    steer_Behavior *b = nullptr;
    st += steer_behavior_new("seek", &b);
#ifdef STEER_TEST_LUA
    steer_Engine *e = nullptr;
    st += steer_engine_new(nullptr, &e);
    st += luaopen_steer(nullptr);
#endif
    return st;
}
