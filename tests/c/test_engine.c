// SPDX-License-Identifier: MIT
// test_engine.c — the embedding API as a game uses it: load a scenario,
// tick, read every agent's state in one call, a behaviour written in C
// used from Lua, events, hot reload as a transaction (a broken save keeps
// the last good version; modules the scenario required reload too), and
// two engines in one process that do not touch each other.
#include "buf.h"
#include "check.h"
#include "counting.h"
#include "steer.h"
#include "steer_engine.h"

#include "steer_debug.h"
#include "steer_lua.h"
#include "../../src/nav/layers.h"
#include "files.h"

#include <lauxlib.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(int ms)
{
    struct timespec t = { 0, ms * 1000000L };
    nanosleep(&t, NULL);
}

typedef struct Log {
    int ok, failed;
    char last[1024];
} Log;

static void log_fn(void *ud, int level, const char *msg)
{
    Log *l = ud;
    if (strncmp(msg, "reload ok", 9) == 0) l->ok++;
    if (strncmp(msg, "reload failed", 13) == 0) l->failed++;
    (void)level;
    snprintf(l->last, sizeof l->last, "%s", msg);
}

// ---- a behaviour written by the host ------------------------------------------

// "orbit": circle the target at `radius` (a parameter), counting calls in
// the agent's memory.
static void orbit(void *ud, const steer_HostCtx *c, double f[3])
{
    int *calls = ud;
    (*calls)++;
    if (!c->has_target) return;
    double dx = c->position[0] - c->target[0], dy = c->position[1] - c->target[1];
    double d = sqrt(dx * dx + dy * dy);
    if (d < 1e-9) return;
    double radius = c->params[0];
    // tangent plus a radial correction
    double tx = -dy / d, ty = dx / d;
    double k = (radius - d) / radius;
    double vx = (tx + k * dx / d) * c->max_speed, vy = (ty + k * dy / d) * c->max_speed;
    f[0] = (vx - c->velocity[0]) * 4;
    f[1] = (vy - c->velocity[1]) * 4;
    c->memory[0] += 1.0f;
}

static void test_host_behaviour(void)
{
    write_file("orbit.lua",
               "local steer = require 'steer'\n"
               "return {\n"
               "  world = { size = { 100, 100 }, seed = 2 },\n"
               "  setup = function(w)\n"
               "    local b = steer.orbit{ radius = 10, target = { 50, 50 }, name = 'circle' }\n"
               "    assert(not pcall(steer.orbit, { radius = 'x' }))\n"
               "    assert(not pcall(steer.orbit, { speed = 1 }))\n"
               "    w:spawn{ position = { 62, 50 }, max_speed = 3, max_force = 20, brain = steer.blend{ { b, 1 } } }\n"
               "  end,\n"
               "}\n");
    static const char *const params[] = { "radius", NULL };
    static const double defaults[] = { 5 };
    int calls = 0;
    steer_HostBehaviorDesc hd = {
        .name = "orbit", .params = params, .defaults = defaults, .target = true, .memory = 1, .fn = orbit, .ud = &calls
    };
    steer_Engine *e;
    REQUIRE(steer_engine_new(NULL, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_register_behavior(e, &hd) == STEER_OK, "register: %s", steer_engine_error(e));
    CHECK(steer_engine_register_behavior(e, &hd) != STEER_OK, "registered twice");
    steer_HostBehaviorDesc bad = hd;
    bad.name = "seek";
    CHECK(steer_engine_register_behavior(e, &bad) != STEER_OK, "a host kind may not shadow a built-in");
    REQUIRE(steer_engine_load(e, path_of("orbit.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 600) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(calls == 600, "the host function ran %d times for 600 ticks of one agent", calls);
    steer_AgentState s;
    REQUIRE(steer_engine_states(e, &s, 1) == 1, "one agent");
    double d = hypot(s.position[0] - 50, s.position[1] - 50);
    CHECK(fabs(d - 10) < 1.0, "the orbiter is %g m from the centre, not about 10", d);
    steer_engine_free(e);
}

// ---- events and states --------------------------------------------------------

static void count_arrivals(void *ud, const steer_Event *ev)
{
    if (ev->type == STEER_EVENT_ARRIVE) (*(int *)ud)++;
}

static void test_states_and_events(void)
{
    write_file(
        "arrive.lua",
        "local steer = require 'steer'\n"
        "return {\n"
        "  world = { size = { 100, 100 } },\n"
        "  setup = function(w)\n"
        "    for i = 1, 20 do\n"
        "      w:spawn{ position = { 5 * i, 10 }, max_speed = 4, max_force = 8, tag = i % 2 == 0 and 'even' or nil,\n"
        "               brain = steer.arrive{ slow_radius = 5 }, target = { 5 * i, 60 } }\n"
        "    end\n"
        "  end,\n"
        "}\n");
    steer_Engine *e;
    REQUIRE(steer_engine_new(NULL, &e) == STEER_OK, "engine");
    int arrivals = 0;
    REQUIRE(steer_engine_subscribe(e, count_arrivals, &arrivals) == STEER_OK, "subscribe");
    REQUIRE(steer_engine_load(e, path_of("arrive.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 60 * 30) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(arrivals == 20, "%d arrive events for 20 agents", arrivals);
    steer_AgentState s[32];
    CHECK(steer_engine_states(e, s, 5) == 20, "the count comes back even when cap is smaller");
    REQUIRE(steer_engine_states(e, s, 32) == 20, "20 agents");
    int even = 0;
    for (int i = 0; i < 20; i++) {
        CHECK(fabs(s[i].position[1] - 60) < 1.0, "agent %d at y %g, not at its goal", i, s[i].position[1]);
        CHECK(s[i].radius > 0, "radius");
        even += s[i].tag && strcmp(s[i].tag, "even") == 0;
    }
    CHECK(even == 10, "%d tagged 'even'", even);
    steer_engine_free(e);
}

// ---- hot reload ---------------------------------------------------------------------

static const char *scenario_v(int speed, const char *extra)
{
    static char text[2048];
    snprintf(text, sizeof text,
             "local steer = require 'steer'\n"
             "local tuning = require 'tuning'\n"
             "local runner = steer.archetype{ name = 'runner', vehicle = { max_speed = %d, max_force = 10 },\n"
             "                 brain = steer.seek{} }\n"
             "%s\n"
             "return {\n"
             "  world = { size = { 1000, 100 } },\n"
             "  setup = function(w)\n"
             "    for i = 1, 5 do\n"
             "      local a = w:spawn(runner, { position = { 10, 10 * i }, target = { 900, 10 * i } })\n"
             "      a.data.id = i\n"
             "    end\n"
             "  end,\n"
             "  update = function(w) TUNING = tuning.value end,\n"
             "}\n",
             speed, extra);
    return text;
}

static void test_reload_transaction(void)
{
    write_file("tuning.lua", "return { value = 1 }\n");
    write_file("runner.lua", scenario_v(2, ""));
    Log log = { 0 };
    steer_EngineDesc d = { .log = log_fn, .log_ud = &log, .lua_path = NULL };
    steer_Engine *e;
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("runner.lua")) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_engine_watched(e, 1) && strstr(steer_engine_watched(e, 1), "tuning.lua"),
          "the required module is watched");
    REQUIRE(steer_engine_tick(e, 180) == STEER_OK, "%s", steer_engine_error(e));
    steer_AgentState before[5], after[5];
    REQUIRE(steer_engine_states(e, before, 5) == 5, "5 agents");
    for (int i = 0; i < 5; i++)
        CHECK(fabs(hypot(before[i].velocity[0], before[i].velocity[1]) - 2) < 0.01, "speed %g before the reload, not 2",
              hypot(before[i].velocity[0], before[i].velocity[1]));

    // a good edit: a new max_speed; agents keep their places and take it
    write_file("runner.lua", scenario_v(4, ""));
    REQUIRE(steer_engine_reload(e) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(log.ok == 1, "one 'reload ok' line");
    REQUIRE(steer_engine_states(e, after, 5) == 5, "still 5 agents");
    for (int i = 0; i < 5; i++) {
        CHECK(before[i].id.id == after[i].id.id && before[i].position[0] == after[i].position[0],
              "agent %d moved or changed across the reload", i);
    }
    REQUIRE(steer_engine_tick(e, 180) == STEER_OK, "%s", steer_engine_error(e));
    steer_engine_states(e, after, 5);
    for (int i = 0; i < 5; i++)
        CHECK(fabs(hypot(after[i].velocity[0], after[i].velocity[1]) - 4) < 0.01, "speed %g after the reload, not 4",
              hypot(after[i].velocity[0], after[i].velocity[1]));

    // a broken save: a runtime error after the archetype was redefined;
    // the last good version (speed 4) keeps running and the error names file:line
    write_file("runner.lua", scenario_v(9, "local x = nil; x.boom = 1"));
    CHECK(steer_engine_reload(e) == STEER_ESCRIPT, "a broken reload succeeded");
    CHECK(strstr(steer_engine_error(e), "runner.lua:5:") != NULL, "error without file:line: %s", steer_engine_error(e));
    CHECK(log.failed == 1 && strstr(log.last, "reload failed"), "no 'reload failed' line: %s", log.last);
    REQUIRE(steer_engine_tick(e, 180) == STEER_OK, "ticking after a failed reload: %s", steer_engine_error(e));
    steer_engine_states(e, after, 5);
    for (int i = 0; i < 5; i++)
        CHECK(fabs(hypot(after[i].velocity[0], after[i].velocity[1]) - 4) < 0.01,
              "the failed reload's archetype leaked: speed %g", hypot(after[i].velocity[0], after[i].velocity[1]));

    // a syntax error is refused the same way
    write_file("runner.lua", "return {");
    CHECK(steer_engine_reload(e) == STEER_ESCRIPT, "a syntax error reloaded");
    CHECK(strstr(steer_engine_error(e), "runner.lua:1:") != NULL, "syntax error without file:line: %s",
          steer_engine_error(e));

    // fixing it recovers; a changed module is taken too
    write_file("tuning.lua", "return { value = 2 }\n");
    write_file("runner.lua", scenario_v(3, ""));
    REQUIRE(steer_engine_reload(e) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_engine_error(e)[0] == '\0', "the error was not cleared");
    REQUIRE(steer_engine_tick(e, 180) == STEER_OK, "%s", steer_engine_error(e));
    steer_engine_states(e, after, 5);
    CHECK(fabs(hypot(after[0].velocity[0], after[0].velocity[1]) - 3) < 0.01, "speed 3 after the fix");
    steer_engine_free(e);
}

static void test_poll_sees_module_saves(void)
{
    write_file("tuning.lua", "return { value = 1 }\n");
    write_file("runner.lua", scenario_v(2, ""));
    Log log = { 0 };
    steer_EngineDesc d = { .log = log_fn, .log_ud = &log };
    steer_Engine *e;
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("runner.lua")) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_engine_poll(e) == 0, "nothing changed yet");
    sleep_ms(20);
    write_file("tuning.lua", "return { value = 7 }\n -- a longer file\n");
    int r = 0;
    for (int i = 0; i < 100 && r == 0; i++) {
        sleep_ms(10);
        r = steer_engine_poll(e);
    }
    CHECK(r == 1, "saving a required module did not reload (poll gave %d)", r);
    CHECK(log.ok == 1, "%d reload lines", log.ok);
    steer_engine_free(e);
}

// A module whose directory is replaced (a checkout, a sync tool) lost its
// inotify watch with the old directory: saves are still seen.
static void test_poll_sees_replaced_directories(void)
{
    char lib[300], cmd[2048];
    snprintf(lib, sizeof lib, "%s-lib", dir); // outside every watched directory
    snprintf(cmd, sizeof cmd, "rm -rf %s %s-old && mkdir -p %s && echo 'return { value = 1 }' > %s/tuning.lua", lib,
             lib, lib, lib);
    REQUIRE(system(cmd) == 0, "mkdir");
    write_file("runner.lua", scenario_v(2, ""));
    char path[400];
    snprintf(path, sizeof path, "%s/?.lua", lib);
    Log log = { 0 };
    steer_EngineDesc d = { .log = log_fn, .log_ud = &log, .lua_path = path };
    steer_Engine *e;
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("runner.lua")) == STEER_OK, "%s", steer_engine_error(e));
    sleep_ms(20);
    snprintf(cmd, sizeof cmd, "mv %s %s-old && mkdir %s && echo 'return { value = 7 } -- longer' > %s/tuning.lua", lib,
             lib, lib, lib);
    REQUIRE(system(cmd) == 0, "mv");
    int r = 0;
    for (int i = 0; i < 100 && r == 0; i++) {
        sleep_ms(10);
        r = steer_engine_poll(e);
    }
    CHECK(r == 1, "saving a module in a replaced directory did not reload (poll gave %d)", r);
    steer_engine_free(e);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s-old", lib, lib);
    CHECK(system(cmd) == 0, "rm");
}

// A failed reload forgets the modules its text required first: the running
// version requiring one later runs it afresh, as if that reload never ran.
static void test_failed_reload_forgets_new_modules(void)
{
    write_file("late.lua", "LATE_RUNS = (LATE_RUNS or 0) + 1\nreturn { runs = LATE_RUNS }\n");
    write_file("lazy.lua", "return { world = {} }\n");
    steer_Engine *e;
    REQUIRE(steer_engine_new(NULL, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("lazy.lua")) == STEER_OK, "%s", steer_engine_error(e));
    write_file("lazy.lua", "local late = require 'late'\nerror('broken')\n");
    CHECK(steer_engine_reload(e) == STEER_ESCRIPT, "a broken reload succeeded");
    lua_State *L = steer_engine_lua(e);
    REQUIRE(luaL_dostring(L, "return package.loaded.late == nil, require('late').runs") == LUA_OK, "%s",
            lua_tostring(L, -1));
    CHECK(lua_toboolean(L, -2), "the failed reload's module stayed in package.loaded");
    CHECK(lua_tointeger(L, -1) == 2, "late.lua ran %d times, not afresh", (int)lua_tointeger(L, -1));
    lua_pop(L, 2);
    steer_engine_free(e);
}

// ---- the grids a viewer draws, across reloads ----------------------------------------

static const char *grid_scenario(const char *on_reload)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "local steer = require 'steer'\n"
             "local keep = {}\n"
             "local map = { '..........', '...##.....', '..........' }\n"
             "return { world = { size = { 20, 6 } },\n"
             "  setup = function(w)\n"
             "    local g = steer.grid{ cell = 2, map = map }\n"
             "    w:add_grid(g)\n"
             "    keep.field = g:flow_field{ goal = { 1, 1 } }\n"
             "  end,\n"
             "  reload = function(w) %s end }\n",
             on_reload);
    return text;
}

// The world holds the grids it was given, across reloads (the world
// outlives them); the field only the old version of the file held goes
// with it; a reload may give the world another grid.
static void test_nav_across_reloads(void)
{
    write_file("town.lua", grid_scenario(""));
    steer_Engine *e;
    REQUIRE(steer_engine_new(NULL, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("town.lua")) == STEER_OK, "%s", steer_engine_error(e));
    lua_State *L = steer_engine_lua(e);
    REQUIRE(steer_engine_push_scenario(e), "a scenario");
    const steerN_Layers *nav = steer_lua_nav(L, -1);
    CHECK(steer_lua_nav(L, -2) == NULL, "the scenario table is not a world");
    lua_pop(L, 2);
    REQUIRE(nav && nav->n == 1 && nav->grids[0]->nflows == 1, "the world lists its grid and its field");
    write_file("town.lua", grid_scenario(""));
    REQUIRE(steer_engine_reload(e) == STEER_OK, "%s", steer_engine_error(e));
    lua_gc(L, LUA_GCCOLLECT);
    lua_gc(L, LUA_GCCOLLECT);
    CHECK(nav->n == 1 && nav->grids[0]->grid->cost && nav->grids[0]->grid->nx == 10,
          "after a reload the world still holds its grid");
    CHECK(nav->grids[0]->nflows == 0, "the old version's field was collected and left the list: %u",
          nav->grids[0]->nflows);
    write_file("town.lua", grid_scenario("w:add_grid(steer.grid{ cell = 1, map = map })"));
    REQUIRE(steer_engine_reload(e) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(nav->n == 2 && nav->grids[1]->grid->cell == 1, "a reload may add a grid: %u", nav->n);
    CHECK(steer_engine_tick(e, 3) == STEER_OK, "%s", steer_engine_error(e));
    steer_engine_free(e);
}

// ---- the meshes a viewer draws, after a load ------------------------------------------------

// A scenario that builds a mesh with an area in setup and gives it to the
// world (w:add_navmesh), with an agent that navigates on it.
static const char *const mesh_scenario =
    "local steer = require 'steer'\n"
    "local function box(x0, y0, x1, y1) return { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } end\n"
    "return { world = { size = { 40, 20 } },\n"
    "  setup = function(w)\n"
    "    local nm = steer.navmesh{ outline = box(0, 0, 40, 20), obstacles = { box(18, 2, 20, 18) },\n"
    "                              areas = { { polygon = box(5, 5, 10, 10), area = 'mud' } } }\n"
    "    w:add_navmesh(nm)\n"
    "    w:add_navmesh(nm) -- again: nothing\n"
    "    w:spawn{ position = { 2, 10 }, radius = 0.4, target = { 38, 10 },\n"
    "             brain = steer.navigate{ navmesh = nm, costs = { mud = 5 } } }\n"
    "  end }\n";

// The meshes the scenario's world lists for a viewer (steer_lua_nav).
static const steerN_Layers *engine_nav(steer_Engine *e)
{
    lua_State *L = steer_engine_lua(e);
    if (!steer_engine_push_scenario(e)) return NULL;
    const steerN_Layers *nav = steer_lua_nav(L, -1);
    lua_pop(L, 2);
    return nav;
}

static bool same_view(const steer_DebugNavMesh *a, const steer_DebugNavMesh *b)
{
    return a->nvert == b->nvert && a->ntri == b->ntri && a->nareas == b->nareas &&
           memcmp(a->xy, b->xy, sizeof(double) * 2 * (size_t)a->nvert) == 0 &&
           memcmp(a->tri, b->tri, sizeof(uint32_t) * 3 * (size_t)a->ntri) == 0 &&
           memcmp(a->adj, b->adj, sizeof(int32_t) * 3 * (size_t)a->ntri) == 0 &&
           memcmp(a->area, b->area, (size_t)a->ntri) == 0;
}

// steer run --load: a world from a snapshot lists the meshes the saved
// one was given (the C world holds them, and its snapshot carries them),
// so the viewer draws the same triangles; so does a rewind (a restore in
// place), and the same mesh given again after a load adds nothing.
static void test_navmesh_after_load(void)
{
    write_file("meshed.lua", mesh_scenario);
    steer_Engine *e, *l;
    REQUIRE(steer_engine_new(NULL, &e) == STEER_OK && steer_engine_new(NULL, &l) == STEER_OK, "engines");
    REQUIRE(steer_engine_load(e, path_of("meshed.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 30) == STEER_OK, "%s", steer_engine_error(e));
    const steerN_Layers *nav = engine_nav(e);
    steer_DebugNavMesh want, got;
    REQUIRE(steer_debug_nav_meshes(nav) == 1 && steer_debug_nav_mesh(nav, 0, &want) == STEER_OK,
            "the world lists its mesh once: %d", steer_debug_nav_meshes(nav));
    CHECK(want.ntri > 0 && want.nareas == 2, "%d triangles, %d areas", want.ntri, want.nareas);
    Buf b = { 0 };
    REQUIRE(steer_engine_save(e, buf_write, &b) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_load_snapshot(l, path_of("meshed.lua"), b.p, b.len) == STEER_OK, "%s", steer_engine_error(l));
    const steerN_Layers *lnav = engine_nav(l);
    CHECK(steer_debug_nav_meshes(lnav) == 1, "the loaded world lists the mesh: %d", steer_debug_nav_meshes(lnav));
    CHECK(steer_debug_nav_mesh(lnav, 0, &got) == STEER_OK && same_view(&want, &got), "the same triangles");
    REQUIRE(steer_engine_tick(e, 60) == STEER_OK && steer_engine_tick(l, 60) == STEER_OK, "ticks");
    CHECK(steer_world_hash(steer_engine_world(l)) == steer_world_hash(steer_engine_world(e)),
          "the loaded run is the run never stopped");
    // a rewind in place, then the same mesh given again: listed once
    REQUIRE(steer_engine_restore(e, b.p, b.len) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_debug_nav_meshes(engine_nav(e)) == 1 && steer_debug_nav_mesh(engine_nav(e), 0, &got) == STEER_OK &&
              same_view(&want, &got),
          "a rewind keeps the mesh listed");
    int shapes = steer_world_shape_count(steer_engine_world(l));
    lua_State *L = steer_engine_lua(l);
    REQUIRE(steer_engine_push_scenario(l), "a scenario");
    lua_getfield(L, -2, "setup");
    lua_pushvalue(L, -2);
    CHECK(lua_pcall(L, 1, 0, 0) == LUA_OK, "setup again: %s", lua_tostring(L, -1));
    lua_pop(L, 2);
    CHECK(steer_debug_nav_meshes(engine_nav(l)) == 1, "a mesh made the same is not listed twice: %d",
          steer_debug_nav_meshes(engine_nav(l)));
    CHECK(steer_world_shape_count(steer_engine_world(l)) == shapes, "nor are its walls added again: %d, not %d",
          steer_world_shape_count(steer_engine_world(l)), shapes);
    free(b.p);
    steer_engine_free(e);
    steer_engine_free(l);
}

// ---- two engines ------------------------------------------------------------------------

static void test_two_engines(void)
{
    write_file("tuning.lua", "return { value = 1 }\n");
    write_file("runner.lua", scenario_v(2, ""));
    steer_Engine *a, *b, *c;
    REQUIRE(steer_engine_new(NULL, &a) == STEER_OK && steer_engine_new(NULL, &b) == STEER_OK &&
                steer_engine_new(NULL, &c) == STEER_OK,
            "engines");
    REQUIRE(steer_engine_load(a, path_of("runner.lua")) == STEER_OK, "%s", steer_engine_error(a));
    REQUIRE(steer_engine_load(b, path_of("runner.lua")) == STEER_OK, "%s", steer_engine_error(b));
    // a alone for 100 ticks; b interleaved with c, which fails to load
    REQUIRE(steer_engine_tick(a, 100) == STEER_OK, "%s", steer_engine_error(a));
    for (int i = 0; i < 100; i++) {
        REQUIRE(steer_engine_tick(b, 1) == STEER_OK, "%s", steer_engine_error(b));
        if (i % 10 == 0) CHECK(steer_engine_load(c, path_of("missing.lua")) != STEER_OK, "a missing file loaded");
    }
    CHECK(steer_world_hash(steer_engine_world(a)) == steer_world_hash(steer_engine_world(b)),
          "two engines on the same scenario diverged");
    CHECK(steer_engine_error(c)[0] != '\0' && steer_engine_error(a)[0] == '\0', "errors leaked between engines");
    steer_engine_free(a);
    steer_engine_free(b);
    steer_engine_free(c);
}

// ---- threads: the engine's worlds on the game's job system ------------------------------

typedef struct Jobs {
    int enqueued, items;
} Jobs;

// A job system that runs each task at once, on the calling thread, in two
// ranges (so steer sees ranges of a task, not the whole of it).
static void *inline_enqueue(steer_TaskFn *task, int count, int min_range, void *task_ctx, void *host_ctx)
{
    Jobs *j = host_ctx;
    j->enqueued++;
    j->items += count;
    int half = count / 2 < min_range ? count : count / 2;
    task(0, half, 0, task_ctx);
    if (half < count) task(half, count, 1, task_ctx);
    return NULL;
}
static void never_finish(void *task, void *host_ctx)
{
    (void)task;
    (void)host_ctx;
    CHECK(false, "finish_task called for a task enqueue_task ran at once");
}

static void test_threads(void)
{
    write_file("tuning.lua", "return { value = 1 }\n");
    write_file("runner.lua", scenario_v(2, ""));
    steer_Engine *e = NULL;
    steer_EngineDesc d = { 0 };
    d.threads = STEER_MAX_THREADS + 1;
    CHECK(steer_engine_new(&d, &e) == STEER_EARG && !e, "an engine with 65 threads");
    d.threads = 3;
    d.enqueue_task = inline_enqueue;
    CHECK(steer_engine_new(&d, &e) == STEER_EARG && !e, "an engine with enqueue_task and no finish_task");
    // every item split off, even in the scenario's small world (the grain is read when a world is made)
    setenv("STEER_PAR_GRAIN", "1", 1);
    Jobs jobs = { 0, 0 };
    d.finish_task = never_finish;
    d.task_ctx = &jobs;
    steer_Engine *one;
    steer_EngineDesc serial = { .threads = 1 }; // not STEER_THREADS's count, when a test run sets it
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK && steer_engine_new(&serial, &one) == STEER_OK, "engines");
    REQUIRE(steer_engine_load(e, path_of("runner.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_load(one, path_of("runner.lua")) == STEER_OK, "%s", steer_engine_error(one));
    unsetenv("STEER_PAR_GRAIN");
    CHECK(steer_world_threads(steer_engine_world(e)) == 3 && steer_world_threads(steer_engine_world(one)) == 1,
          "the engine's world has %d threads", steer_world_threads(steer_engine_world(e)));
    REQUIRE(steer_engine_tick(e, 120) == STEER_OK && steer_engine_tick(one, 120) == STEER_OK, "ticks");
    CHECK(jobs.enqueued > 0 && jobs.items > jobs.enqueued, "the game's job system ran %d tasks", jobs.enqueued);
    CHECK(steer_world_hash(steer_engine_world(e)) == steer_world_hash(steer_engine_world(one)),
          "the game's job system changed the trajectory");
    steer_engine_free(e);
    steer_engine_free(one);
}

// ---- the allocator hook ----------------------------------------------------------------

static void test_allocator_hook(void)
{
    write_file("tuning.lua", "return { value = 1 }\n");
    write_file("runner.lua", scenario_v(2, ""));
    Counting cnt = { 0 };
    steer_EngineDesc d = { .alloc = counting_alloc, .alloc_ud = &cnt };
    steer_Engine *e;
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("runner.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 10) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(cnt.calls > 100, "the engine does not allocate through the hook (%ld calls)", cnt.calls);
    steer_engine_free(e);
    CHECK(cnt.live == 0, "%ld blocks from the hook not freed", cnt.live);
}

// ---- every demo survives a hot reload ---------------------------------------------

static void test_demos_reload(void)
{
    static const char *const demos[] = { "flock", "arrive",  "pursuit",      "patrol",
                                         "crowd", "gallery", "zombie_horde", NULL };
    for (int i = 0; demos[i]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.lua", DEMOS_DIR, demos[i]);
        steer_EngineDesc d = { .log = quiet, .lua_path = SOURCE_LUA_DIR "/?.lua;" SOURCE_LUA_DIR "/?/init.lua" };
        steer_Engine *e;
        REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
        int ok = steer_engine_load(e, path) == STEER_OK && steer_engine_tick(e, 30) == STEER_OK;
        CHECK(ok, "%s: %s", demos[i], steer_engine_error(e));
        int n = ok ? steer_world_count(steer_engine_world(e)) : 0;
        if (ok) {
            CHECK(steer_engine_reload(e) == STEER_OK, "%s: reload: %s", demos[i], steer_engine_error(e));
            CHECK(steer_engine_tick(e, 30) == STEER_OK, "%s: after the reload: %s", demos[i], steer_engine_error(e));
            // a demo may respawn a few of its own on reload, never lose its world
            CHECK(steer_world_count(steer_engine_world(e)) >= n - 1, "%s: %d agents before the reload, %d after",
                  demos[i], n, steer_world_count(steer_engine_world(e)));
        }
        steer_engine_free(e);
    }
}

// ---- hostile scenarios (issue 14, item 5 and the engine's audit) ---------------------

static void noop_behaviour(void *ud, const steer_HostCtx *c, double f[3])
{
    (void)ud;
    (void)c;
    f[0] = f[1] = f[2] = 0;
}

// The engine looks into a scenario's values only through protected calls:
// a scenario table whose __index raises or yields, a world metatable, a
// steer table or a package.loaded changed to raise, end in errors that
// name the file, never in an abort.
static void test_hostile_scenarios(void)
{
    static const struct {
        const char *file, *expect;
    } loads[] = {
        { "scenario_index_error.lua", "x" },
        { "scenario_index_yield.lua", "yield" },
    };
    for (int i = 0; i < 2; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/hostile/%s", MODS_DIR, loads[i].file);
        steer_Engine *e;
        REQUIRE(steer_engine_new(NULL, &e) == STEER_OK, "engine");
        CHECK(steer_engine_load(e, path) == STEER_ESCRIPT, "%s loaded", loads[i].file);
        const char *err = steer_engine_error(e);
        CHECK(strstr(err, loads[i].file) && strstr(err, "field 'setup'") && strstr(err, loads[i].expect),
              "%s: the error names neither the file, the field nor the cause: %s", loads[i].file, err);
        // the engine keeps no half-loaded scenario: another load works
        CHECK(steer_engine_load(e, MODS_DIR "/scenario.lua") == STEER_OK, "then: %s", steer_engine_error(e));
        CHECK(steer_engine_tick(e, 2) == STEER_OK, "then: %s", steer_engine_error(e));
        steer_engine_free(e);
    }

    // after a failed load that left package hostile, the next load still works
    write_file("spoil.lua", "package.path = nil\n"
                            "setmetatable(package, { __index = function() error('spoilt') end,\n"
                            "                        __newindex = function() error('spoilt') end })\n"
                            "error('failed on purpose')\n");
    steer_Engine *e;
    REQUIRE(steer_engine_new(NULL, &e) == STEER_OK, "engine");
    CHECK(steer_engine_load(e, path_of("spoil.lua")) == STEER_ESCRIPT, "spoil.lua loaded");
    CHECK(steer_engine_load(e, path_of("spoil.lua")) == STEER_ESCRIPT, "spoil.lua loaded");
    CHECK(strstr(steer_engine_error(e), "spoilt"), "the second load: %s", steer_engine_error(e));
    steer_engine_free(e);

    // callbacks looked up at each tick and by the host, the world's methods,
    // the steer table, package.loaded: each changed to raise after setup
    write_file("tuning.lua", "return { value = 1 }\n");
    write_file(
        "turns.lua",
        "local steer = require 'steer'\n"
        "local tuning = require 'tuning'\n"
        "local armed = false\n"
        "local t = { world = { size = { 10, 10 } },\n"
        "  setup = function(w) w:spawn{} end,\n"
        "  arm = function(w) armed = true end,\n"
        "  step_off = function(w) getmetatable(w).__index = function() error('no methods') end end,\n"
        "  steer_off = function() setmetatable(steer, { __newindex = function() error('steer frozen') end }) end,\n"
        "  loaded_off = function()\n"
        "    setmetatable(package.loaded, { __newindex = function() error('loaded frozen') end })\n"
        "  end,\n"
        "}\n"
        "return setmetatable(t, { __index = function(_, k) if armed then error('late ' .. k) end end })\n");
    REQUIRE(steer_engine_new(NULL, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("turns.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 2) == STEER_OK, "%s", steer_engine_error(e));
    // a failed reload puts package.loaded back raw, under its __newindex
    CHECK(steer_engine_call(e, "loaded_off", 0) == STEER_OK, "loaded_off: %s", steer_engine_error(e));
    CHECK(steer_engine_reload(e) == STEER_ESCRIPT, "a reload requiring into a frozen package.loaded succeeded");
    CHECK(strstr(steer_engine_error(e), "loaded frozen"), "the reload: %s", steer_engine_error(e));
    // a behaviour registered into a steer table whose __newindex raises
    CHECK(steer_engine_call(e, "steer_off", 0) == STEER_OK, "steer_off: %s", steer_engine_error(e));
    static const char *const params[] = { NULL };
    steer_HostBehaviorDesc hd = { .name = "late", .params = params, .fn = noop_behaviour };
    CHECK(steer_engine_register_behavior(e, &hd) == STEER_ESCRIPT, "registered into a frozen steer table");
    CHECK(strstr(steer_engine_error(e), "steer frozen"), "register: %s", steer_engine_error(e));
    // the host's call of a callback the scenario's __index refuses
    CHECK(steer_engine_call(e, "arm", 0) == STEER_OK, "arm: %s", steer_engine_error(e));
    CHECK(steer_engine_call(e, "draw", 0) == STEER_ESCRIPT, "draw's lookup did not fail");
    CHECK(strstr(steer_engine_error(e), "late draw"), "draw: %s", steer_engine_error(e));
    CHECK(steer_engine_tick(e, 1) == STEER_ESCRIPT, "update's lookup did not fail");
    CHECK(strstr(steer_engine_error(e), "turns.lua") && strstr(steer_engine_error(e), "late update"), "tick: %s",
          steer_engine_error(e));
    steer_engine_free(e);

    // the world's metatable changed so that w.step raises
    REQUIRE(steer_engine_new(NULL, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("turns.lua")) == STEER_OK, "%s", steer_engine_error(e));
    lua_State *L = steer_engine_lua(e);
    REQUIRE(steer_engine_push_scenario(e), "a scenario");
    lua_remove(L, -2);
    CHECK(steer_engine_call(e, "step_off", 1) == STEER_OK, "step_off: %s", steer_engine_error(e));
    CHECK(steer_engine_tick(e, 1) == STEER_ESCRIPT, "w.step's lookup did not fail");
    CHECK(strstr(steer_engine_error(e), "no methods"), "tick: %s", steer_engine_error(e));
    steer_engine_free(e);
}

// ---- snapshots ------------------------------------------------------------------------

static const char saving_scenario[] =
    "local steer = require 'steer'\n"
    "local walker = steer.archetype{ name = 'walker', vehicle = { max_speed = 3, max_force = 8 },\n"
    "                                brain = steer.wander{} }\n"
    "local S = { ticks = 0, setups = 0 }\n"
    "return {\n"
    "  world = { size = { 200, 200 }, seed = 11 },\n"
    "  setup = function(w)\n"
    "    S.setups = S.setups + 1\n"
    "    for i = 1, 20 do w:spawn(walker, { position = { 10 * i, 100 } }).data.n = i end\n"
    "  end,\n"
    "  update = function(w) S.ticks = S.ticks + 1 end,\n"
    "  save = function(w) local t = { ticks = S.ticks, names = { 'a', 'b' } }; t.self = t; return t end,\n"
    "  load = function(w, d) assert(d.self == d and d.names[2] == 'b'); S.ticks = d.ticks end,\n"
    "  state = function() return S.ticks, S.setups end,\n"
    "}\n";

// The scenario's state(): its tick count and how often setup ran.
static void scenario_state(steer_Engine *e, long long *ticks, long long *setups)
{
    lua_State *L = steer_engine_lua(e);
    *ticks = *setups = -1;
    if (!steer_engine_push_scenario(e)) return;
    lua_getfield(L, -2, "state");
    if (lua_pcall(L, 0, 2, 0) == LUA_OK) {
        *ticks = lua_tointeger(L, -2);
        *setups = lua_tointeger(L, -1);
        lua_pop(L, 2);
    } else {
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
}

// N ticks, save, M ticks; the restore in place and a fresh engine from the
// snapshot both give the uninterrupted hash after M ticks, with the
// scenario's own state (shared tables kept) and a mod's state back.
static void test_save_restore(void)
{
    write_file("saving.lua", saving_scenario);
    write_file("counter.lua", "local n = 0\n"
                              "return {\n"
                              "  update = function() n = n + 1 end,\n"
                              "  save = function() return { n = n } end,\n"
                              "  load = function(d) n = d.n; print('loaded ' .. d.n) end,\n"
                              "}\n");
    Log log = { 0 };
    steer_EngineDesc d = { .log = log_fn, .log_ud = &log };
    steer_Engine *e;
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("saving.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_load_mod(e, path_of("counter.lua"), NULL, NULL) == STEER_OK, "%s", steer_engine_error(e));
    steer_World *w = steer_engine_world(e);
    REQUIRE(steer_engine_tick(e, 30) == STEER_OK, "%s", steer_engine_error(e));
    Buf b = { 0 };
    int st = steer_engine_save(e, buf_write, &b);
    CHECK(st == STEER_OK, "steer_engine_save: %s", steer_engine_error(e));
    if (st != STEER_OK) {
        steer_engine_free(e);
        return;
    }
    REQUIRE(steer_engine_tick(e, 40) == STEER_OK, "%s", steer_engine_error(e));
    uint64_t want = steer_world_hash(w);
    long long ticks, setups;
    scenario_state(e, &ticks, &setups);
    CHECK(ticks == 70, "the scenario counted 70 ticks: %lld", ticks);

    // in place: the same world, the same hash 40 ticks on
    CHECK(steer_engine_restore(e, b.p, b.len) == STEER_OK, "restore: %s", steer_engine_error(e));
    CHECK(steer_engine_world(e) == w, "the world keeps its address");
    CHECK(steer_world_tick(w) == 30, "back at tick 30: %llu", (unsigned long long)steer_world_tick(w));
    scenario_state(e, &ticks, &setups);
    CHECK(ticks == 30, "the scenario's load(w, data) put its count back: %lld", ticks);
    CHECK(strstr(log.last, "loaded 30"), "the mod's load(data) got its data: '%s'", log.last);
    REQUIRE(steer_engine_tick(e, 40) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_world_hash(w) == want, "restored and run on: the uninterrupted hash");

    // bad input changes nothing
    uint64_t now = steer_world_hash(w);
    CHECK(steer_engine_restore(e, b.p, b.len - 1) == STEER_EARG, "a truncated snapshot is refused");
    CHECK(strstr(steer_engine_error(e), "truncated") || strstr(steer_engine_error(e), "corrupt"), "says why: %s",
          steer_engine_error(e));
    CHECK(steer_engine_restore(e, "garbage!garbage!garbage!", 24) == STEER_EARG, "garbage is refused");
    CHECK(strstr(steer_engine_error(e), "not an engine snapshot"), "says why: %s", steer_engine_error(e));
    unsigned char *bad = malloc(b.len);
    memcpy(bad, b.p, b.len);
    bad[8] = 99; // the version
    CHECK(steer_engine_restore(e, bad, b.len) == STEER_EARG, "another version is refused");
    CHECK(strstr(steer_engine_error(e), "version 99"), "names it: %s", steer_engine_error(e));
    free(bad);
    CHECK(steer_world_hash(w) == now && steer_world_tick(w) == 70, "the world is untouched");
    steer_engine_free(e);

    // a fresh engine from the snapshot: the file's archetypes, no setup
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    CHECK(steer_engine_load_snapshot(e, path_of("saving.lua"), b.p, b.len) == STEER_OK, "load_snapshot: %s",
          steer_engine_error(e));
    scenario_state(e, &ticks, &setups);
    CHECK(setups == 0 && ticks == 30, "setup did not run (%lld), load did (%lld ticks)", setups, ticks);
    REQUIRE(steer_engine_tick(e, 40) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_world_hash(steer_engine_world(e)) == want, "a fresh engine from the snapshot: the same hash");
    steer_engine_free(e);
    free(b.p);
}

// The tuning loop: run, go back to a snapshot, save an edit of the
// scenario, and the past moment plays again under the new code: the
// snapshot's agents (same ids, same places), the archetype's new vehicle.
static void test_rewind_then_reload(void)
{
    write_file("tuning.lua", "return { value = 1 }\n");
    write_file("runner.lua", scenario_v(2, ""));
    Log log = { 0 };
    steer_EngineDesc d = { .log = log_fn, .log_ud = &log };
    steer_Engine *e;
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("runner.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 60) == STEER_OK, "%s", steer_engine_error(e));
    steer_AgentState then[5], now[5];
    REQUIRE(steer_engine_states(e, then, 5) == 5, "5 agents");
    Buf b = { 0 };
    REQUIRE(steer_engine_save(e, buf_write, &b) == STEER_OK, "save: %s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 120) == STEER_OK, "%s", steer_engine_error(e));
    // back to the snapshot, then the edit: max_speed 2 -> 4
    REQUIRE(steer_engine_restore(e, b.p, b.len) == STEER_OK, "restore: %s", steer_engine_error(e));
    write_file("runner.lua", scenario_v(4, ""));
    REQUIRE(steer_engine_reload(e) == STEER_OK, "reload: %s", steer_engine_error(e));
    REQUIRE(steer_engine_states(e, now, 5) == 5, "the snapshot's 5 agents");
    for (int i = 0; i < 5; i++)
        CHECK(now[i].id.id == then[i].id.id && now[i].position[0] == then[i].position[0],
              "agent %d is where the snapshot had it", i);
    // the seek law closes on the new max_speed exponentially: 4 s is within 1e-4
    REQUIRE(steer_engine_tick(e, 240) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_states(e, now, 5) == 5, "5 agents");
    for (int i = 0; i < 5; i++) {
        double v = hypot(now[i].velocity[0], now[i].velocity[1]);
        CHECK(fabs(v - 4) < 0.01, "agent %d runs at the edited max_speed 4, not %g", i, v);
    }
    free(b.p);
    steer_engine_free(e);
}

// What cannot be saved is an error that says where; the mod whose save
// fails is disabled and left out, the others are saved.
static void test_save_errors(void)
{
    write_file("unsaveable.lua", "return { world = {}, setup = function(w) w:spawn{} end,\n"
                                 "  save = function(w) return { f = print } end }\n");
    write_file("badmod.lua", "return { save = function() return { co = coroutine.create(print) } end }\n");
    steer_Engine *e;
    Log log = { 0 };
    steer_EngineDesc d = { .log = log_fn, .log_ud = &log };
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("unsaveable.lua")) == STEER_OK, "%s", steer_engine_error(e));
    Buf b = { 0 };
    CHECK(steer_engine_save(e, buf_write, &b) == STEER_ESCRIPT, "a function in the scenario's data fails");
    CHECK(strstr(steer_engine_error(e), "save(w)") && strstr(steer_engine_error(e), ".f"), "names where: %s",
          steer_engine_error(e));
    steer_engine_free(e);
    free(b.p);
    b = (Buf){ 0 };
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("saving.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_load_mod(e, path_of("badmod.lua"), NULL, NULL) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_engine_save(e, buf_write, &b) == STEER_OK, "the save goes on: %s", steer_engine_error(e));
    steer_ModInfo mi;
    steer_engine_mod_info(e, 0, &mi);
    CHECK(!mi.enabled && strstr(mi.reason, "save()"), "the mod is disabled, naming its save: %s", mi.reason);
    steer_engine_free(e);
    free(b.p);
}

// A mod's agents, quota and inbox are in the snapshot. The herder steers
// its agents every tick toward a point made of its tick count and the
// last number the echo sent back (echo is loaded after it, so the echo's
// reply waits in the herder's inbox across every save); it spawns a
// fourth agent at tick 50 and tries three more at 75 under a quota of 5.
// A rewind and a fresh engine loaded as `steer run --load` does
// (snapshot, mods, snapshot again) both deliver the waiting reply, let the
// herder change its agents (the same hash as the uninterrupted run) and
// count its agents against its quota.
static const char herder_mod[] =
    "local t, last, loaded = 0, 0, false\n"
    "local function herd(w, p)\n"
    "  return w:spawn{ position = p, tag = 'herd', max_speed = 3, max_force = 8, brain = steer.seek{} }\n"
    "end\n"
    "return {\n"
    "  setup = function(w)\n"
    "    for i = 1, 3 do herd(w, { 20 * i, 60 }) end\n"
    "  end,\n"
    "  on_message = function(from, n)\n"
    "    if loaded then print('first reply after the load: ' .. n); loaded = false end\n"
    "    last = n\n"
    "  end,\n"
    "  update = function(w)\n"
    "    t = t + 1\n"
    "    for a in w:agents('herd') do a.target = { 100 + 40 * math.sin(t / 9 + last / 5 + a.id), 100 } end\n"
    "    steer.send('echo', t)\n"
    "    if t == 50 then herd(w, { 10, 10 }) end\n"
    "    if t == 75 then\n"
    "      local n = 0\n"
    "      for i = 1, 3 do if pcall(herd, w, { 10 * i, 20 }) then n = n + 1 end end\n"
    "      print('spawned ' .. n .. ' of 3')\n"
    "    end\n"
    "  end,\n"
    "  save = function() return { t = t, last = last } end,\n"
    "  load = function(d) t, last, loaded = d.t, d.last, true end,\n"
    "}\n";

// Sends the herder back the last number it got.
static const char echo_mod[] = "local got = 0\n"
                               "return {\n"
                               "  on_message = function(from, n) got = n end,\n"
                               "  update = function() steer.send('herder', got) end,\n"
                               "  save = function() return { got = got } end,\n"
                               "  load = function(d) got = d.got end,\n"
                               "}\n";

typedef struct ModLog {
    int not_running;
    char reply[256], spawned[256];
} ModLog;

static void mod_log(void *ud, int level, const char *msg)
{
    ModLog *l = ud;
    (void)level;
    if (strstr(msg, "is not running")) l->not_running++;
    if (strstr(msg, "first reply after the load")) snprintf(l->reply, sizeof l->reply, "%s", msg);
    if (strstr(msg, "spawned ")) snprintf(l->spawned, sizeof l->spawned, "%s", msg);
}

// *e: a new engine on saving.lua, from the snapshot snap (NULL: from its
// setup); NULL if that failed (said).
static void saving_engine(const steer_EngineDesc *d, const Buf *snap, steer_Engine **e)
{
    REQUIRE(steer_engine_new(d, e) == STEER_OK, "engine");
    int st = snap ? steer_engine_load_snapshot(*e, path_of("saving.lua"), snap->p, snap->len)
                  : steer_engine_load(*e, path_of("saving.lua"));
    if (st == STEER_OK) return;
    CHECK(0, "load: %s", steer_engine_error(*e));
    steer_engine_free(*e);
    *e = NULL;
}

static void load_herd_mods(steer_Engine *e)
{
    steer_ModLimits lim = { .agents = 5 };
    REQUIRE(steer_engine_load_mod(e, path_of("herder.lua"), &lim, NULL) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_load_mod(e, path_of("echo.lua"), NULL, NULL) == STEER_OK, "%s", steer_engine_error(e));
}

// From the snapshot's tick 30: the reply sent at tick 30 arrives at 31,
// tick 70 has the uninterrupted hash, both mods still run, and at 75 the
// herder spawns 1 of 3 (3 restored agents and one of tick 50, a quota of 5).
static void check_herd_after_load(steer_Engine *e, ModLog *log, uint64_t want, const char *how)
{
    REQUIRE(steer_engine_tick(e, 1) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(strstr(log->reply, "after the load: 30"), "%s: the reply waiting at the save arrives: '%s'", how, log->reply);
    REQUIRE(steer_engine_tick(e, 39) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_world_hash(steer_engine_world(e)) == want, "%s: tick 70 has the uninterrupted hash", how);
    for (int i = 0; i < 2; i++) {
        steer_ModInfo mi;
        steer_engine_mod_info(e, i, &mi);
        CHECK(mi.enabled, "%s: mod %s still runs: %s", how, mi.name, mi.reason);
    }
    REQUIRE(steer_engine_tick(e, 5) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(strstr(log->spawned, "spawned 1 of 3"), "%s: the quota counts the restored agents: '%s'", how, log->spawned);
}

static uint64_t le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

// The engine snapshot b as version 1 wrote it: no section of kind 4 (a
// mod's agents and inbox) or 5 (steer.state). Returns its length in out (b.len bytes).
static size_t as_version_1(const Buf *b, unsigned char *out)
{
    memcpy(out, b->p, 16);
    out[8] = 1;
    size_t at = 16, len = 16;
    uint32_t kept = 0, n = (uint32_t)le(b->p + 12, 4);
    for (uint32_t i = 0; i < n; i++) {
        size_t size = 2 + b->p[at + 1] + 8;
        size += (size_t)le(b->p + at + size - 8, 8);
        if (b->p[at] < 4) {
            memcpy(out + len, b->p + at, size);
            len += size;
            kept++;
        }
        at += size;
    }
    for (int i = 0; i < 4; i++) out[12 + i] = (unsigned char)(kept >> (8 * i));
    return len;
}

// Where section `kind` of mod `name` starts in b (its bytes), or NULL.
static unsigned char *mod_section(const Buf *b, int kind, const char *name)
{
    size_t at = 16, nl = strlen(name);
    for (uint32_t i = 0, n = (uint32_t)le(b->p + 12, 4); i < n; i++) {
        unsigned char *p = b->p + at;
        if (p[0] == kind && p[1] == nl && memcmp(p + 2, name, nl) == 0) return p + 2 + nl + 8;
        at += 2 + p[1] + 8 + (size_t)le(p + 2 + p[1], 8);
    }
    return NULL;
}

// *e: a new engine on saving.lua with the herder and the echo, 30 ticks
// on, its snapshot then in *b; NULL if that failed (said).
static void herd_saved(const steer_EngineDesc *d, steer_Engine **e, Buf *b)
{
    write_file("saving.lua", saving_scenario);
    write_file("herder.lua", herder_mod);
    write_file("echo.lua", echo_mod);
    saving_engine(d, NULL, e);
    REQUIRE(*e, "the scenario");
    load_herd_mods(*e);
    int st = steer_engine_tick(*e, 30);
    if (st == STEER_OK) st = steer_engine_save(*e, buf_write, b);
    if (st == STEER_OK) return;
    CHECK(0, "30 ticks and a save: %s", steer_engine_error(*e));
    steer_engine_free(*e);
    *e = NULL;
}

static void test_mod_agents_and_inbox_saved(void)
{
    ModLog log = { 0 };
    steer_EngineDesc d = { .log = mod_log, .log_ud = &log };
    steer_Engine *e;
    Buf b = { 0 };
    herd_saved(&d, &e, &b);
    REQUIRE(e, "the herd saved");
    REQUIRE(steer_engine_tick(e, 40) == STEER_OK, "%s", steer_engine_error(e));
    uint64_t want = steer_world_hash(steer_engine_world(e));

    REQUIRE(steer_engine_restore(e, b.p, b.len) == STEER_OK, "restore: %s", steer_engine_error(e));
    check_herd_after_load(e, &log, want, "a rewind");
    steer_engine_free(e);

    log = (ModLog){ 0 };
    saving_engine(&d, &b, &e);
    REQUIRE(e, "the snapshot");
    CHECK(log.not_running == 0, "no mod is said to be missing before the mods load");
    load_herd_mods(e);
    REQUIRE(steer_engine_restore(e, b.p, b.len) == STEER_OK, "restore: %s", steer_engine_error(e));
    check_herd_after_load(e, &log, want, "a fresh engine");
    steer_engine_free(e);

    // the snapshot with one of its two mods: the other's data and agents
    // are said to be left out, the one running owns its saved agents again
    log = (ModLog){ 0 };
    saving_engine(&d, &b, &e);
    REQUIRE(e, "the snapshot");
    write_file("herder.lua", "return { update = function(w) for a in w:agents('herd') do a.max_speed = 1 end end }\n");
    steer_ModLimits lim = { .agents = 5 };
    REQUIRE(steer_engine_load_mod(e, path_of("herder.lua"), &lim, NULL) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_restore(e, b.p, b.len) == STEER_OK, "restore: %s", steer_engine_error(e));
    CHECK(log.not_running == 2, "echo's data and state are said to be left out: %d lines", log.not_running);
    steer_engine_tick(e, 1);
    steer_ModInfo mi;
    steer_engine_mod_info(e, 0, &mi);
    CHECK(mi.enabled, "the herder's saved agents are its own again: %s", mi.reason);

    // a malformed agents-and-inbox section changes nothing; version 1 is read
    uint64_t now = steer_world_hash(steer_engine_world(e));
    unsigned char *state = mod_section(&b, 4, "herder");
    REQUIRE(state && le(state, 4) == 3, "the herder's 3 agents are in the snapshot");
    state[0] = 200;
    CHECK(steer_engine_restore(e, b.p, b.len) == STEER_EARG, "a count of agents past the section's end is refused");
    CHECK(strstr(steer_engine_error(e), "corrupt"), "says why: %s", steer_engine_error(e));
    CHECK(steer_world_hash(steer_engine_world(e)) == now && steer_world_tick(steer_engine_world(e)) == 31,
          "the world is untouched");
    state[0] = 3;
    unsigned char *v1 = malloc(b.len);
    size_t v1len = as_version_1(&b, v1);
    CHECK(v1len < b.len && steer_engine_restore(e, v1, v1len) == STEER_OK, "a version 1 snapshot is read: %s",
          steer_engine_error(e));
    CHECK(steer_world_tick(steer_engine_world(e)) == 30, "back at tick 30");
    free(v1);
    steer_engine_free(e);
    free(b.p);
}

// b with the bytes of section `kind` of mod `name` replaced by p (len
// bytes), into out (a new Buf); 0 if b has no such section.
static int with_section(const Buf *b, int kind, const char *name, const unsigned char *p, size_t len, Buf *out)
{
    unsigned char *at = mod_section(b, kind, name);
    if (!at) return 0;
    size_t nl = strlen(name), head = (size_t)(at - b->p), old = (size_t)le(at - 8, 8);
    *out = (Buf){ 0 };
    buf_write(out, b->p, head - 8);
    unsigned char n8[8];
    for (int i = 0; i < 8; i++) n8[i] = (unsigned char)((uint64_t)len >> (8 * i));
    buf_write(out, n8, 8);
    buf_write(out, p, len);
    buf_write(out, at + old, b->len - head - old);
    (void)nl;
    return 1;
}

// A mod's agents-and-inbox section claiming n agents, with no messages.
static size_t claim_bytes(const uint64_t *ids, uint32_t n, unsigned char *out)
{
    size_t k = 0;
    for (int i = 0; i < 4; i++) out[k++] = (unsigned char)(n >> (8 * i));
    for (uint32_t j = 0; j < n; j++)
        for (int i = 0; i < 8; i++) out[k++] = (unsigned char)(ids[j] >> (8 * i));
    for (int i = 0; i < 4; i++) out[k++] = 0;
    return k;
}

typedef struct GrabLog {
    char changed[128], left_out[512];
} GrabLog;

static void grab_log(void *ud, int level, const char *msg)
{
    GrabLog *l = ud;
    (void)level;
    if (strstr(msg, "changed ")) snprintf(l->changed, sizeof l->changed, "%s", msg);
    if (strstr(msg, "left out")) snprintf(l->left_out, sizeof l->left_out, "%s", msg);
}

// A file that claims the game's agents for a mod (issue 29, item 5): the
// grabber, without touch_all, tries to change every agent each tick. A
// snapshot whose section of the grabber's agents also names the
// scenario's 20 walkers (spawned from its archetype) gives it back only
// its own; one that names an agent twice is refused, the world untouched.
static void test_mod_claims_checked_against_the_world(void)
{
    write_file("saving.lua", saving_scenario);
    write_file("grabber.lua",
               "return {\n"
               "  setup = function(w) w:spawn{ tag = 'grab', position = { 1, 1 } } end,\n"
               "  update = function(w)\n"
               "    local n = 0\n"
               "    for a in w:agents() do if pcall(function() a.max_speed = 2.5 end) then n = n + 1 end end\n"
               "    print('changed ' .. n)\n"
               "  end,\n"
               "}\n");
    GrabLog log = { 0 };
    steer_EngineDesc d = { .log = grab_log, .log_ud = &log };
    steer_Engine *e;
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("saving.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_load_mod(e, path_of("grabber.lua"), NULL, NULL) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 5) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(strstr(log.changed, "changed 1"), "the grabber changes its own agent only: '%s'", log.changed);
    Buf b = { 0 };
    REQUIRE(steer_engine_save(e, buf_write, &b) == STEER_OK, "save: %s", steer_engine_error(e));
    steer_AgentState st[32];
    int n = steer_engine_states(e, st, 32);
    REQUIRE(n == 21, "20 walkers and the grabber's agent: %d", n);
    uint64_t ids[32];
    for (int i = 0; i < n; i++) ids[i] = st[i].id.id;
    unsigned char claim[8 + 8 * 32];
    Buf crafted;
    REQUIRE(with_section(&b, 4, "grabber", claim, claim_bytes(ids, (uint32_t)n, claim), &crafted),
            "the grabber's agents are in the snapshot");
    CHECK(steer_engine_restore(e, crafted.p, crafted.len) == STEER_OK, "restore: %s", steer_engine_error(e));
    CHECK(strstr(log.left_out, "grabber: 20 of the agents"),
          "the claims the world denies are said to be left out: '%s'", log.left_out);
    log.changed[0] = '\0';
    REQUIRE(steer_engine_tick(e, 1) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(strstr(log.changed, "changed 1"), "the file gave the grabber no walker: '%s'", log.changed);
    free(crafted.p);

    // an agent claimed twice: refused before anything changes
    uint64_t now = steer_world_hash(steer_engine_world(e)), tick = steer_world_tick(steer_engine_world(e));
    uint64_t own = 0;
    for (int i = 0; i < n; i++)
        if (st[i].tag && strcmp(st[i].tag, "grab") == 0) own = st[i].id.id;
    uint64_t twice[2] = { own, own };
    REQUIRE(with_section(&b, 4, "grabber", claim, claim_bytes(twice, 2, claim), &crafted), "the section");
    CHECK(steer_engine_restore(e, crafted.p, crafted.len) == STEER_EARG, "an agent claimed twice is refused");
    CHECK(strstr(steer_engine_error(e), "grabber's agents"), "names the section: %s", steer_engine_error(e));
    CHECK(steer_world_hash(steer_engine_world(e)) == now && steer_world_tick(steer_engine_world(e)) == tick,
          "the world is untouched");
    free(crafted.p);
    steer_engine_free(e);
    free(b.p);
}

// A mod's data section that its load could not decode (issue 29, item 7)
// is refused with the whole container, naming the section, before
// anything changes: the world stays, the mod is not blamed.
static void test_corrupt_mod_data_refused(void)
{
    ModLog log = { 0 };
    steer_EngineDesc d = { .log = mod_log, .log_ud = &log };
    steer_Engine *e;
    Buf b = { 0 };
    herd_saved(&d, &e, &b);
    REQUIRE(e, "the herd saved");
    REQUIRE(steer_engine_tick(e, 5) == STEER_OK, "%s", steer_engine_error(e));
    uint64_t now = steer_world_hash(steer_engine_world(e));
    unsigned char *data = mod_section(&b, 3, "herder");
    REQUIRE(data && data[0] == 5, "the herder's data is a table");
    data[0] = 7; // no such tag
    CHECK(steer_engine_restore(e, b.p, b.len) == STEER_EARG, "a corrupt mod data section is refused");
    const char *err = steer_engine_error(e);
    CHECK(strstr(err, "section") && strstr(err, "mod herder's data") && strstr(err, "corrupt mod data"),
          "names the section: %s", err);
    CHECK(!strstr(err, "save()"), "blames no save(): %s", err);
    CHECK(steer_world_hash(steer_engine_world(e)) == now && steer_world_tick(steer_engine_world(e)) == 35,
          "the world is untouched");
    for (int i = 0; i < 2; i++) {
        steer_ModInfo mi;
        steer_engine_mod_info(e, i, &mi);
        CHECK(mi.enabled, "mod %s still runs: %s", mi.name, mi.reason);
    }
    steer_engine_free(e);
    free(b.p);
}

// A snapshot's record of which agents came from an archetype may name an
// agent that is gone: a mod with touch_all removed one of the scenario's
// walkers (its world userdata is not the scenario's, whose record keeps
// the walker), or a file was made by hand (found by fuzz_container). A
// restore drops such entries: after the archetype is defined again (a
// reload), the step that applies it to its agents does not fail on one
// that is not there.
static void test_restore_drops_gone_archetype_agents(void)
{
    write_file("saving.lua", saving_scenario);
    write_file("remover.lua", "return { update = function(w)\n"
                              "  if w.tick == 2 then for a in w:agents() do a:remove() break end end\n"
                              "end }\n");
    Log log = { 0 };
    steer_EngineDesc d = { .log = log_fn, .log_ud = &log };
    steer_Engine *e;
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("saving.lua")) == STEER_OK, "%s", steer_engine_error(e));
    steer_ModLimits lim = { .touch_all = true };
    REQUIRE(steer_engine_load_mod(e, path_of("remover.lua"), &lim, NULL) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 4) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_world_count(steer_engine_world(e)) == 19, "the mod removed a walker");
    Buf b = { 0 };
    REQUIRE(steer_engine_save(e, buf_write, &b) == STEER_OK, "save: %s", steer_engine_error(e));
    // the walker defined again, then the snapshot made under the old definition
    char *text = strdup(saving_scenario), *at = strstr(text, "max_speed = 3");
    REQUIRE(text && at, "the walker's speed");
    at[12] = '5';
    write_file("saving.lua", text);
    free(text);
    REQUIRE(steer_engine_reload(e) == STEER_OK, "reload: %s", steer_engine_error(e));
    REQUIRE(steer_engine_restore(e, b.p, b.len) == STEER_OK, "restore: %s", steer_engine_error(e));
    CHECK(steer_engine_tick(e, 2) == STEER_OK, "the step applies the archetype to its agents: %s",
          steer_engine_error(e));
    steer_engine_free(e);
    free(b.p);
}

// The engine's functions refuse a NULL engine, or one of another copy of
// the library, with STEER_EARG (a getter: NULL or 0), and
// steer_last_error() names the function (issue 34, bad input across the
// boundary; the core's functions: tests/c/test_boundary.c).
static void test_null_engine(void)
{
    static struct {
        const void *lib;
        double pad[64];
    } other = { &other, { 0 } };
    steer_Engine *const engines[2] = { NULL, (steer_Engine *)(void *)&other };
    for (int k = 0; k < 2; k++) {
        steer_Engine *e = engines[k];
        const char *why = k ? "another copy" : "NULL";
        int id = 0;
        steer_ModInfo info;
        steer_AgentState st[2];
#define REFUSES(call, want, fn)                                                                  \
    CHECK((call) == (want) && strstr(steer_last_error(), fn) && strstr(steer_last_error(), why), \
          "%s with a %s engine: \"%s\"", fn, why, steer_last_error())
        REFUSES(steer_engine_load(e, "x.lua"), STEER_EARG, "steer_engine_load");
        REFUSES(steer_engine_load_snapshot(e, "x.lua", "", 0), STEER_EARG, "steer_engine_load_snapshot");
        REFUSES(steer_engine_tick(e, 1), STEER_EARG, "steer_engine_tick");
        REFUSES(steer_engine_reload(e), STEER_EARG, "steer_engine_reload");
        REFUSES(steer_engine_poll(e), STEER_EARG, "steer_engine_poll");
        REFUSES(steer_engine_watched(e, 0), NULL, "steer_engine_watched");
        REFUSES(steer_engine_world(e), NULL, "steer_engine_world");
        REFUSES(strcmp(steer_engine_error(e), ""), 0, "steer_engine_error");
        REFUSES(strcmp(steer_engine_traceback(e), ""), 0, "steer_engine_traceback");
        REFUSES(steer_engine_lua(e), NULL, "steer_engine_lua");
        REFUSES(steer_engine_push_scenario(e), STEER_EARG, "steer_engine_push_scenario");
        REFUSES(steer_engine_call(e, "f", 0), STEER_EARG, "steer_engine_call");
        REFUSES(steer_engine_register_behavior(e, NULL), STEER_EARG, "steer_engine_register_behavior");
        REFUSES(steer_engine_subscribe(e, NULL, NULL), STEER_EARG, "steer_engine_subscribe");
        REFUSES(steer_engine_states(e, st, 2), STEER_EARG, "steer_engine_states");
        REFUSES(steer_engine_load_mod(e, "m.lua", NULL, &id), STEER_EARG, "steer_engine_load_mod");
        REFUSES(steer_engine_reload_mod(e, 0), STEER_EARG, "steer_engine_reload_mod");
        REFUSES(steer_engine_mod_count(e), 0, "steer_engine_mod_count");
        REFUSES(steer_engine_unload_mod(e, 0), STEER_EARG, "steer_engine_unload_mod");
        REFUSES(steer_engine_mod_info(e, 0, &info), STEER_EARG, "steer_engine_mod_info");
        REFUSES(steer_engine_save(e, NULL, NULL), STEER_EARG, "steer_engine_save");
        REFUSES(steer_engine_restore(e, "", 0), STEER_EARG, "steer_engine_restore");
#undef REFUSES
        steer_engine_free(e); // NULL: nothing; another copy's: refused, not freed
    }
    CHECK(steer_engine_new(NULL, NULL) == STEER_EARG, "steer_engine_new took a NULL out");
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/steer-engine-%d", (int)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    if (system(cmd) != 0) return 1;
    RUN(test_null_engine);
    RUN(test_host_behaviour);
    RUN(test_states_and_events);
    RUN(test_reload_transaction);
    RUN(test_poll_sees_module_saves);
    RUN(test_failed_reload_forgets_new_modules);
    RUN(test_poll_sees_replaced_directories);
    RUN(test_two_engines);
    RUN(test_threads);
    RUN(test_nav_across_reloads);
    RUN(test_navmesh_after_load);
    RUN(test_allocator_hook);
    RUN(test_demos_reload);
    RUN(test_hostile_scenarios);
    RUN(test_save_restore);
    RUN(test_rewind_then_reload);
    RUN(test_save_errors);
    RUN(test_mod_agents_and_inbox_saved);
    RUN(test_mod_claims_checked_against_the_world);
    RUN(test_corrupt_mod_data_refused);
    RUN(test_restore_drops_gone_archetype_agents);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    return check_report_("engine");
}
