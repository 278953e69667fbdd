// SPDX-License-Identifier: MIT
// test_debug_maps.c — steer_debug.h's context maps and formations, on
// worlds a Lua script builds (steer.context and steer.formation are
// Lua's): a recording world hands out each context agent's last interest
// and danger maps, and the slot chosen is the unmasked slot of most
// interest, masked slots are those above the cutoff, the agent's new
// velocity goes the chosen way; a world that does not record says so;
// every formation member's slot is a:slot(), every slot held once; a
// removed agent, a node that is no context, an index out of range give a
// status, never a crash.
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

#include "steer_lua.h"
#include "steer_debug.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Runs the script (which leaves the world in global w) in a new state; NULL on error.
static lua_State *run(const char *script)
{
    lua_State *L = luaL_newstate();
    if (!L) return NULL;
    luaL_openlibs(L);
    steer_lua_preload(L);
    if (luaL_dostring(L, script) != LUA_OK) {
        printf("    script: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return NULL;
    }
    return L;
}

static steer_World *world_of(lua_State *L)
{
    lua_getglobal(L, "w");
    steer_World *w = steer_lua_toworld(L, -1);
    lua_pop(L, 1);
    return w;
}

// Agents by a wall, a threat ahead, a goal beyond; `record` and the steps.
static const char *const context_world = "local steer = require 'steer'\n"
                                         "w = steer.world{ seed = 3 }\n"
                                         "w.record = %s\n"
                                         "w:add_wall{ from = { 5, -10 }, to = { 5, 10 } }\n"
                                         "local threat = w:spawn{ position = { 2, 3 } }\n"
                                         "local flee = steer.flee{ target = threat, panic_radius = 6 }\n"
                                         "local brain = steer.context{\n"
                                         "  interest = { steer.seek{ target = { 20, 0 } }, { flee, 2 } },\n"
                                         "  danger = { flee, steer.avoid_walls{ length = 3 } }, slots = 16 }\n"
                                         "agents = {}\n"
                                         "for i = 1, 6 do agents[i] = w:spawn{ position = { 0, i - 3.5 },\n"
                                         "  max_speed = 2, max_force = 4, brain = brain } end\n"
                                         "for i = 1, %d do w:step() end\n";

static void test_context_maps(void)
{
    char script[2048];
    snprintf(script, sizeof script, context_world, "true", 1);
    lua_State *L = run(script);
    REQUIRE(L, "the context world runs");
    steer_World *w = world_of(L);
    REQUIRE(w, "its world");
    steer_DebugAgents ag;
    REQUIRE(steer_debug_agents(w, &ag) == STEER_OK, "the agents");
    int checked = 0, with_danger = 0, masked = 0;
    for (int i = 0; i < ag.count; i++) {
        steer_Agent a = steer_debug_agent_handle(w, i);
        steer_DebugContext cx;
        int st = steer_debug_context(w, a, -1, &cx);
        steer_DebugAgent da;
        REQUIRE(steer_debug_agent(w, a, &da) == STEER_OK, "agent %d", i);
        if (da.nodes == 0) { // the threat has no brain
            CHECK(st == STEER_EARG, "an agent without a brain has no context (got %d)", st);
            continue;
        }
        REQUIRE(st == STEER_OK, "agent %d's context (got %d)", i, st);
        CHECK(cx.node == 0 && cx.slots == 16 && cx.recorded, "agent %d: node %d, %d slots, recorded %d", i, cx.node,
              cx.slots, cx.recorded);
        REQUIRE(cx.chosen >= 0 && cx.chosen < 16, "agent %d chose a slot (%d)", i, cx.chosen);
        CHECK(!(cx.masked >> cx.chosen & 1), "agent %d chose masked slot %d", i, cx.chosen);
        // from rest the pick has no lean: the unmasked slot of most interest, ties to the lower
        float lowest = cx.danger[0];
        int best = -1, nm = 0;
        for (int k = 0; k < 16; k++) lowest = fminf(lowest, cx.danger[k]);
        for (int k = 0; k < 16; k++) {
            bool m = cx.masked >> k & 1;
            nm += m;
            CHECK(m == (cx.danger[k] > lowest + 0.05f), "agent %d slot %d: masked %d, danger %g, lowest %g", i, k, m,
                  (double)cx.danger[k], (double)lowest);
            if (!m && (best < 0 || cx.interest[k] > cx.interest[best])) best = k;
            if (cx.danger[k] > 0) with_danger++;
        }
        CHECK(nm == cx.nmasked, "agent %d: %d masked slots counted, %d said", i, nm, cx.nmasked);
        masked += nm;
        CHECK(best == cx.chosen, "agent %d chose slot %d, its maps say %d", i, cx.chosen, best);
        // the direction: within half a slot of the chosen slot, and the way the agent now goes
        double ang = 2 * 3.14159265358979 * cx.chosen / 16, dx = cx.direction[0], dy = cx.direction[1];
        CHECK(fabs(hypot(dx, dy) - 1) < 1e-5, "agent %d: direction not a unit vector", i);
        CHECK(dx * cos(ang) + dy * sin(ang) >= cos(3.14159265358979 / 16) - 1e-5, "agent %d: direction off its slot",
              i);
        double vx = ag.velocity[0][i], vy = ag.velocity[1][i], vl = hypot(vx, vy);
        CHECK(vl > 0 && (vx * dx + vy * dy) / vl > 0.9999, "agent %d: velocity (%g, %g) is not the way chosen (%g, %g)",
              i, vx, vy, dx, dy);
        CHECK(cx.speed > 0 && cx.speed <= 2.0f, "agent %d: speed %g", i, (double)cx.speed);
        checked++;
    }
    CHECK(checked == 6, "%d context agents checked", checked);
    CHECK(with_danger > 0 && masked > 0, "the wall and the threat leave no danger (%d) or mask (%d)", with_danger,
          masked);
    // errors: a node that is no context, out of range, NULL, a removed agent
    lua_getglobal(L, "agents");
    lua_rawgeti(L, -1, 1);
    lua_getfield(L, -1, "id");
    steer_Agent a = { (uint64_t)lua_tointeger(L, -1) };
    lua_pop(L, 3);
    steer_DebugContext cx;
    CHECK(steer_debug_context(w, a, 1, &cx) == STEER_EARG, "a seek node is no context");
    CHECK(steer_debug_context(w, a, 99, &cx) == STEER_EARG, "node 99 is out of range");
    CHECK(steer_debug_context(w, a, 0, NULL) == STEER_EARG, "NULL out");
    CHECK(steer_debug_context(NULL, a, 0, &cx) == STEER_EARG, "NULL world");
    REQUIRE(luaL_dostring(L, "agents[1]:remove()") == LUA_OK, "remove");
    CHECK(steer_debug_context(w, a, 0, &cx) == STEER_ESTALE, "a removed agent");
    lua_close(L);

    // a world that does not record: the ring, no maps
    snprintf(script, sizeof script, context_world, "false", 3);
    L = run(script);
    REQUIRE(L, "the unrecorded world runs");
    w = world_of(L);
    lua_getglobal(L, "agents");
    lua_rawgeti(L, -1, 1);
    lua_getfield(L, -1, "id");
    a = (steer_Agent){ (uint64_t)lua_tointeger(L, -1) };
    lua_pop(L, 3);
    memset(&cx, 0xff, sizeof cx);
    CHECK(steer_debug_context(w, a, -1, &cx) == STEER_OK && !cx.recorded && cx.slots == 16 && cx.chosen == -1 &&
              cx.interest[3] == 0 && cx.nmasked == 0,
          "an unrecorded context gives its ring and no maps");
    lua_close(L);
}

static void test_formations(void)
{
    lua_State *L = run("local steer = require 'steer'\n"
                       "w = steer.world{ seed = 5 }\n"
                       "local f = steer.formation{ pattern = 'wedge', spacing = 2, target = { 30, 10 } }\n"
                       "local g = steer.formation{ pattern = 'line', position = { -5, -5 }, heading = { 0, 1 } }\n"
                       "local agents = {}\n"
                       "for i = 1, 5 do agents[i] = w:spawn{ position = { i * 1.5, (i * 7) % 5 },\n"
                       "  brain = steer.formation_slot{ formation = f } }; f:add(agents[i]) end\n"
                       "for i = 1, 3 do local a = w:spawn{ position = { -i, -8 },\n"
                       "  brain = steer.formation_slot{ formation = g } }; g:add(a); agents[#agents + 1] = a end\n"
                       "for i = 1, 40 do w:step() end\n"
                       "slots = {}\n"
                       "for _, a in ipairs(agents) do local s = a:slot(); slots[a.id] = { s.x, s.y } end\n"
                       "anchor = { f.position.x, f.position.y, f.heading.x, f.heading.y }\n");
    REQUIRE(L, "the formation world runs");
    steer_World *w = world_of(L);
    CHECK(steer_debug_formations(w) == 2, "two formations, got %d", steer_debug_formations(w));
    steer_DebugFormation fm;
    REQUIRE(steer_debug_formation(w, 0, &fm) == STEER_OK, "formation 0");
    CHECK(fm.members == 5 && fm.has_target && fm.spacing == 2, "formation 0: %d members", fm.members);
    lua_getglobal(L, "anchor");
    for (int k = 0; k < 4; k++) {
        lua_rawgeti(L, -1, k + 1);
        float want = (float)lua_tonumber(L, -1), got = k < 2 ? fm.anchor[k] : fm.heading[k - 2];
        CHECK(want == got, "anchor component %d: %g, Lua says %g", k, (double)got, (double)want);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    int total = 0;
    for (int i = 0; i < 2; i++) {
        REQUIRE(steer_debug_formation(w, i, &fm) == STEER_OK, "formation %d", i);
        bool held[8] = { false };
        for (int k = 0; k < fm.members; k++) {
            steer_DebugSlot s;
            REQUIRE(steer_debug_formation_slot(w, i, k, &s) == STEER_OK, "formation %d slot %d", i, k);
            CHECK(s.slot >= 0 && s.slot < fm.members && !held[s.slot],
                  "formation %d: slot %d held twice or out of range", i, s.slot);
            if (s.slot >= 0 && s.slot < 8) held[s.slot] = true;
            lua_getglobal(L, "slots");
            lua_rawgeti(L, -1, (lua_Integer)s.member.id);
            REQUIRE(lua_istable(L, -1), "member %d of formation %d has a:slot()", k, i);
            lua_rawgeti(L, -1, 1);
            lua_rawgeti(L, -2, 2);
            CHECK((float)lua_tonumber(L, -2) == s.point[0] && (float)lua_tonumber(L, -1) == s.point[1],
                  "formation %d member %d: slot point (%g, %g), a:slot() (%g, %g)", i, k, (double)s.point[0],
                  (double)s.point[1], lua_tonumber(L, -2), lua_tonumber(L, -1));
            lua_pop(L, 4);
            total++;
        }
        // members by handle id
        steer_DebugSlot s0, s1;
        for (int k = 0; k + 1 < fm.members; k++)
            if (steer_debug_formation_slot(w, i, k, &s0) == STEER_OK &&
                steer_debug_formation_slot(w, i, k + 1, &s1) == STEER_OK)
                CHECK(s0.member.id < s1.member.id, "formation %d: members not by id", i);
    }
    CHECK(total == 8, "8 members, got %d", total);
    steer_DebugSlot s;
    CHECK(steer_debug_formation(w, 2, &fm) == STEER_EARG && steer_debug_formation(w, -1, &fm) == STEER_EARG,
          "formation index out of range");
    CHECK(steer_debug_formation_slot(w, 0, 5, &s) == STEER_EARG &&
              steer_debug_formation_slot(w, 0, -1, &s) == STEER_EARG,
          "slot index out of range");
    CHECK(steer_debug_formation(w, 0, NULL) == STEER_EARG && steer_debug_formations(NULL) == 0, "NULL");
    lua_close(L);
}

int main(void)
{
    RUN(test_context_maps);
    RUN(test_formations);
    return check_report_("debug_maps");
}
