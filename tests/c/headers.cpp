// SPDX-License-Identifier: MIT
// headers.cpp — the public headers a C or C++ game draws through compile as
// C++ (extern "C", no C-only constructs in their macros or declarations).
// Only compiled (-fsyntax-only) by the `cxx_headers` test.
#include "steer.h"
#include "steer_debug.h"
#include "steer_draw.h"

int main()
{
    steer_DebugAgents agents = {};
    steer_DebugNode node = {};
    steer_DebugFlow flow = {};
    int dx = 0, dy = 0;
    steer_World *w = nullptr;
    (void)node;
    (void)flow;
    return steer_debug_agents(w, &agents) + steer_debug_flow_step(STEER_FLOW_NONE, &dx, &dy);
}
