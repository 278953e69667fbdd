// SPDX-License-Identifier: MIT
// test_mods.c — mods that try to hurt the game: each must end in a clean
// error or a kill, while the host keeps ticking and a well-behaved mod
// beside it carries on unaffected.
#include "check.h"
#include "steer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef MODS_DIR
#define MODS_DIR "tests/mods"
#endif

// The log: lines per mod name prefix, and the last error line.
typedef struct Log {
    int lines, from_evil, forged;
    char last[1024];
} Log;

static void log_fn(void *ud, int level, const char *msg)
{
    Log *l = ud;
    l->lines++;
    if (strncmp(msg, "[evil]", 6) == 0) l->from_evil++;
    if (strchr(msg, '\n')) l->forged++;
    if (level == 2) snprintf(l->last, sizeof l->last, "%s", msg);
}

static char tmpdir[256];

static const char *write_mod(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s.lua", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

// An engine logging into `log`, with the test scenario loaded; NULL on failure.
static steer_Engine *engine(Log *log)
{
    steer_EngineDesc d = { .log = log_fn, .log_ud = log };
    steer_Engine *e;
    if (steer_engine_new(&d, &e) != STEER_OK) return NULL;
    if (steer_engine_load(e, MODS_DIR "/scenario.lua") != STEER_OK) {
        printf("    scenario: %s\n", steer_engine_error(e));
        steer_engine_free(e);
        return NULL;
    }
    return e;
}

typedef struct Case {
    const char *what;
    const char *code;
    const char *expect; // in the reason the mod was disabled ("a|b": either)
} Case;

static const Case cases[] = {
    { "an endless loop at load", "while true do end", "CPU budget" },
    { "an endless loop around pcall", "while true do pcall(function() while true do end end) end", "CPU budget" },
    { "an endless table.sort comparator",
      "local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function(a, b) while true do end end)", "CPU budget" },
    { "a coroutine made at load that loops when resumed later",
      "local co = coroutine.create(function() coroutine.yield() while true do end end)\n"
      "coroutine.resume(co)\n"
      "return { update = function() coroutine.resume(co) end }",
      "CPU budget" },
    { "a coroutine through coroutine.wrap that loops",
      "local f = coroutine.wrap(function() while true do end end)\n"
      "return { update = function() pcall(f) end }",
      "CPU budget" },
    { "unbounded recursion", "local function f() return 1 + f() end f()", "stack overflow|memory cap" },
    { "a string doubling forever", "local s = 'x' while true do s = s .. s end", "memory cap" },
    { "a table growing forever inside pcall",
      "pcall(function() local t = {} while true do t[#t + 1] = { #t } end end)\nreturn {}", "memory cap" },
    { "string.rep of 2^31 bytes", "local s = string.rep('x', 2^31)", "string limit" },
    { "string.rep of the empty string 10^15 times", "assert(string.rep('', 1e15) == '') error('rep returned')",
      "rep returned" },
    { "a pattern that backtracks for ever",
      "string.find(string.rep('a', 40), string.rep('a*', 9) .. 'b')", "steps" },
    { "load of string.dump", "local f = function() end\nload(string.dump(f))", "dump" },
    { "a binary chunk", "assert(load('\\27LuaT\\0\\25\\147\\r\\n\\26\\n'))", "binary" },
    { "io.open", "io.open('/etc/passwd')", "io" },
    { "os.exit", "os.exit(1)", "os" },
    { "require 'os'", "require 'os'", "not found" },
    { "require of a file beside a single-file mod", "require 'secret'", "single file" },
    { "package.loadlib", "package.loadlib('libc.so.6', 'system')", "package" },
    { "debug.getregistry", "debug.getregistry()", "debug" },
    { "a __gc metamethod", "setmetatable({}, { __gc = function() while true do end end })", "__gc" },
    { "a __gc slipped into a steer type", "getmetatable(steer.vec(1, 2)).__gc = function() while true do end end", "index" },
    { "changing the string metatable", "getmetatable('').__index = { upper = function() end }", "index" },
    { "an error object whose __tostring loops",
      "error(setmetatable({}, { __tostring = function() while true do end end }))", "error object is a table" },
    { "table.sort of long strings",
      "local s, t = string.rep('a', 1 << 20), {} for i = 1, 1e5 do t[i] = s end table.sort(t)", "table.sort" },
    { "table.move of a billion nils", "table.move({}, 1, 1e9, 1)", "table.move" },
    { "string.format('%p')", "string.format('%p', {})", "not available to mods" },
    { "addresses through tostring, print and format",
      "local seen = tostring({}) .. tostring(print) .. string.format('%s %10s', {}, coroutine.create(print))\n"
      "assert(not seen:find('0x'), seen) error('no address: ' .. seen)", "no address: tablefunctiontable     thread" },
    { "stepping the world", "return { update = function(w) w:step() end }", "not available to mods" },
    { "a Lua think on an agent", "return { setup = function(w) w:spawn{ think = function() end } end }", "not available to mods" },
    { "removing the game's agents", "return { update = function(w) for a in w:agents('wanderer') do a:remove() end end }",
      "only the agents it spawned" },
    { "steering the game's agents", "return { update = function(w) for a in w:agents() do a.max_speed = 100 end end }",
      "only the agents it spawned" },
    { "forged lines in the log", "print('a\\nmod good disabled: forged') error('b\\nmod good disabled: forged')", "forged" },
    { "spawning without end", "return { update = function(w) for i = 1, 100 do w:spawn{} end end }", "quota" },
    { "switching the world's recording", "return { update = function(w) w.record = not w.record end }",
      "not available to mods" },
    { "an agent steered by the mod's flow field after the mod is gone",
      "local g = steer.grid{ map = { '....', '....' } }\n"
      "return { setup = function(w)\n"
      "  w:spawn{ position = { 1, 1 }, brain = steer.follow_flow{ field = g:flow_field{ goal = { 3, 1 } } } }\n"
      "  error('gone')\n"
      "end }", "not available to mods" },
    { "a __gc slipped into a grid",
      "local g = steer.grid{ map = { '..' } }\n"
      "getmetatable(g).__gc = function() while true do end end\n"
      "g = nil while true do local t = {} end", "index" },
    { "a draw list growing in C memory",
      "local d, s = steer.debug_draw(), string.rep('x', 4096) for i = 1, 1e4 do d:text({ 0, 0 }, s) end", "debug_draw" },
    { "table.remove under a lying __len",
      "table.remove(setmetatable({}, { __len = function() return 1 << 40 end }), 1)", "table.remove" },
    { "table.insert under a lying __len",
      "table.insert(setmetatable({}, { __len = function() return 1 << 40 end }), 1, 0)", "table.insert" },
    { "gsub with a replacement of empty captures",
      "string.gsub(string.rep('a', 1e6), '', string.rep('%0', 5e5))", "steps|CPU budget" },
    { "a bracket class a million long",
      "string.find(string.rep('a', 1e6), '[' .. string.rep('b', 1e6) .. 'a]*$')", "steps|CPU budget" },
    { "back references over long captures", "string.find(string.rep('a', 3e5), '^(a*)%1b')", "steps" },
    { "grids beyond the memory cap",
      "local rows, r = {}, string.rep('.', 1000) for j = 1, 1000 do rows[j] = r end\n"
      "local keep = {} for i = 1, 10 do keep[i] = steer.grid{ map = rows } end", "memory cap" },
    { "a grid map of huge rows",
      "local rows, r = {}, string.rep('.', 1 << 20) for j = 1, 60000 do rows[j] = r end steer.grid{ map = rows }", "too large" },
};

// Mod names must be unique per engine: each case is loaded as "evil".
static void run_case(const Case *c)
{
    Log log = { 0 };
    steer_Engine *e = engine(&log);
    REQUIRE(e, "engine and scenario");
    int good = -1, evil = -1;
    REQUIRE(steer_engine_load_mod(e, MODS_DIR "/good", NULL, &good) == STEER_OK, "good mod: %s", steer_engine_error(e));
    char code[2048];
    snprintf(code, sizeof code, "local steer = require 'steer'\n%s\n", c->code);
    const char *path = write_mod("evil", code);
    // the other cases' budget is well above what they need even in a slow
    // sanitizer build, so that the limit they test is the one that fires
    double ms = strcmp(c->expect, "CPU budget") == 0 ? 50 : 1000;
    steer_ModLimits lim = { .memory = 8u << 20, .call_ms = ms, .agents = 50 };
    steer_engine_load_mod(e, path, &lim, &evil);
    REQUIRE(evil == 1, "%s: the mod got no id", c->what);
    uint64_t t0 = steer_world_tick(steer_engine_world(e));
    int st = steer_engine_tick(e, 10);
    CHECK(st == STEER_OK, "%s: the host's tick failed: %s", c->what, steer_engine_error(e));
    CHECK(steer_world_tick(steer_engine_world(e)) == t0 + 10, "%s: the world did not advance", c->what);
    steer_ModInfo gi, ei;
    steer_engine_mod_info(e, good, &gi);
    steer_engine_mod_info(e, evil, &ei);
    CHECK(gi.enabled, "%s: the good mod was disabled: %s", c->what, gi.reason);
    CHECK(!ei.enabled, "%s: the evil mod is still enabled", c->what);
    char alt[64];
    snprintf(alt, sizeof alt, "%s", c->expect);
    char *bar = strchr(alt, '|');
    if (bar) *bar = '\0';
    int mentioned = strstr(ei.reason, alt) || (bar && strstr(ei.reason, bar + 1));
    CHECK(mentioned, "%s: reason '%s' does not mention '%s'", c->what, ei.reason, c->expect);
    CHECK(strstr(log.last, "evil") != NULL, "%s: the failure was not reported in the log (last: '%s')", c->what, log.last);
    CHECK(!log.forged && !strchr(ei.reason, '\n'), "%s: a line of the log was forged", c->what);
    // the good mod's seeker still moves toward its goal
    int n = steer_world_count(steer_engine_world(e));
    steer_AgentState s[256];
    REQUIRE(steer_engine_states(e, s, 256) == n, "states");
    int found = 0;
    for (int i = 0; i < n && i < 256; i++)
        if (s[i].tag && strcmp(s[i].tag, "good") == 0) found++;
    CHECK(found == 1, "%s: the good mod's agent is missing (%d)", c->what, found);
    CHECK(steer_engine_tick(e, 5) == STEER_OK, "%s: ticking on after the kill failed", c->what);
    steer_engine_free(e);
}

static void test_hostile_mods(void)
{
    write_mod("secret", "return 'another mod or the game'");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
}

static void test_prints_are_rate_limited(void)
{
    Log log = { 0 };
    steer_Engine *e = engine(&log);
    REQUIRE(e, "engine and scenario");
    const char *path = write_mod("evil", "return { update = function() for i = 1, 1e6 do print(i) end end }");
    steer_ModLimits lim = { .call_ms = 2000, .prints = 20 };
    int id;
    REQUIRE(steer_engine_load_mod(e, path, &lim, &id) == STEER_OK, "%s", steer_engine_error(e));
    steer_engine_tick(e, 3);
    CHECK(log.from_evil <= 21, "10^6 prints reached the log as %d lines", log.from_evil);
    steer_ModInfo mi;
    steer_engine_mod_info(e, id, &mi);
    // either it printed its million lines within its budget, or it was stopped
    CHECK(mi.enabled || strstr(mi.reason, "CPU budget"), "unexpected: %s", mi.reason);
    steer_engine_free(e);
}

static void test_messages_are_copies(void)
{
    Log log = { 0 };
    steer_Engine *e = engine(&log);
    REQUIRE(e, "engine and scenario");
    int good, listener;
    REQUIRE(steer_engine_load_mod(e, MODS_DIR "/good", NULL, &good) == STEER_OK, "%s", steer_engine_error(e));
    const char *path = write_mod("listener",
        "local got = 0\n"
        "return { on_message = function(from, data)\n"
        "  assert(from == 'good' and data.hello == 'world' and data.n == 5 and #data.list == 3)\n"
        "  got = got + 1 print('got ' .. got)\n"
        "  assert(not steer.send('good', { f = print }) )\n"
        "end }\n");
    REQUIRE(steer_engine_load_mod(e, path, NULL, &listener) == STEER_OK, "%s", steer_engine_error(e));
    steer_engine_tick(e, 10);
    steer_ModInfo li;
    steer_engine_mod_info(e, listener, &li);
    // sending a function is refused with an error: the listener is disabled
    // for it, after it got the message
    CHECK(!li.enabled && strstr(li.reason, "can be sent"), "listener: %s", li.enabled ? "enabled" : li.reason);
    steer_ModInfo gi;
    steer_engine_mod_info(e, good, &gi);
    CHECK(gi.enabled, "good: %s", gi.reason);
    steer_engine_free(e);
}

// A mod's require reads only regular files inside its directory: not
// through a link out of it, not a FIFO (its open would wait for ever).
static void test_require_stays_inside(void)
{
    char dir[300], cmd[2048];
    snprintf(dir, sizeof dir, "%s/linker", tmpdir);
    snprintf(cmd, sizeof cmd, "mkdir -p %s && ln -sf %s/secret.lua %s/outside.lua && rm -f %s/pipe.lua && mkfifo %s/pipe.lua",
             dir, tmpdir, dir, dir, dir);
    REQUIRE(system(cmd) == 0, "links");
    write_mod("secret", "return 'another mod or the game'");
    static const char *const tries[] = { "outside", "pipe" };
    for (int i = 0; i < 2; i++) {
        Log log = { 0 };
        steer_Engine *e = engine(&log);
        REQUIRE(e, "engine and scenario");
        char text[200];
        snprintf(text, sizeof text, "require '%s'\nreturn {}\n", tries[i]);
        write_mod("linker/init", text);
        int id;
        CHECK(steer_engine_load_mod(e, dir, NULL, &id) != STEER_OK, "require '%s' succeeded", tries[i]);
        CHECK(strstr(steer_engine_error(e), "not found"), "require '%s': %s", tries[i], steer_engine_error(e));
        steer_engine_free(e);
    }
}

// Tick the engine, then the mod must still be enabled; frees the engine.
static void tick_then_enabled(steer_Engine *e, int id, int ticks, const char *what)
{
    steer_engine_tick(e, ticks);
    steer_ModInfo mi;
    steer_engine_mod_info(e, id, &mi);
    CHECK(mi.enabled, "%s: %s", what, mi.reason);
    steer_engine_free(e);
}

// Decoding messages is the receiver's work, within its budget: a flood of
// 256 messages of 5000 tables each must not get a well-behaved mod killed.
static void test_message_floods(void)
{
    Log log = { 0 };
    steer_Engine *e = engine(&log);
    REQUIRE(e, "engine and scenario");
    const char *victim = write_mod("victim", "local n = 0\n"
                                             "return { on_message = function() n = n + 1 end,\n"
                                             "  update = function() assert(n <= 8, 'got ' .. n .. ' messages') n = 0 end }\n");
    steer_ModLimits vl = { .call_ms = 1000 };
    int v, f;
    REQUIRE(steer_engine_load_mod(e, victim, &vl, &v) == STEER_OK, "%s", steer_engine_error(e));
    const char *flood = write_mod("flood", "local t = {} for i = 1, 5000 do t[i] = {} end\n"
                                           "return { update = function() for i = 1, 256 do steer.send('victim', t) end end }\n");
    steer_ModLimits fl = { .call_ms = 5000 };
    REQUIRE(steer_engine_load_mod(e, flood, &fl, &f) == STEER_OK, "%s", steer_engine_error(e));
    tick_then_enabled(e, v, 3, "the flood's receiver was disabled");
}

// A mod spawning and removing agents for a long game keeps no memory for
// the agents it removed.
static void test_spawn_remove_cycles(void)
{
    Log log = { 0 };
    steer_Engine *e = engine(&log);
    REQUIRE(e, "engine and scenario");
    const char *path = write_mod("cycler", "return { update = function(w) for i = 1, 1000 do w:spawn{}:remove() end end }\n");
    steer_ModLimits lim = { .memory = 1u << 20, .call_ms = 1000 };
    int id;
    REQUIRE(steer_engine_load_mod(e, path, &lim, &id) == STEER_OK, "%s", steer_engine_error(e));
    tick_then_enabled(e, id, 100, "100000 spawns and removals");
}

// A game may let a mod change its agents (touch_all): then it can.
static void test_touch_all(void)
{
    Log log = { 0 };
    steer_Engine *e = engine(&log);
    REQUIRE(e, "engine and scenario");
    const char *path = write_mod("tuner", "return { update = function(w) for a in w:agents('wanderer') do a.max_speed = 0.5 end end }");
    steer_ModLimits lim = { .touch_all = true };
    int id;
    REQUIRE(steer_engine_load_mod(e, path, &lim, &id) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 120) == STEER_OK, "%s", steer_engine_error(e));
    steer_ModInfo mi;
    steer_engine_mod_info(e, id, &mi);
    CHECK(mi.enabled, "the tuner was stopped: %s", mi.reason);
    steer_World *w = steer_engine_world(e);
    for (int i = 0; i < steer_world_count(w); i++) {
        double v[3], ms;
        steer_Agent a = steer_world_agent_at(w, i);
        steer_agent_param(w, a, STEER_PARAM_MAX_SPEED, &ms);
        steer_agent_vec(w, a, STEER_PROP_VELOCITY, v);
        CHECK(ms == 0.5 && sqrt(v[0] * v[0] + v[1] * v[1]) <= 0.5 + 1e-6, "agent %d: max_speed %g", i, ms);
    }
    steer_engine_free(e);
}

static void push_none(void *ud, const steer_HostCtx *c, double f[3])
{
    (void)ud;
    (void)c;
    f[0] = f[1] = f[2] = 0;
}

// The engine allocates in a mod's state outside its calls too (a host
// behaviour registered after the mod loaded, the lookup of a callback it
// lacks): a mod growing toward its cap must be killed wherever it crosses
// it, not abort the host (a memory error outside any pcall).
static void test_mods_crossing_their_cap_outside_a_call(void)
{
    Log log = { 0 };
    steer_Engine *e = engine(&log);
    REQUIRE(e, "engine and scenario");
    const char *path = write_mod("full", "return { update = function() end }\n");
    steer_ModLimits lim = { .memory = 48u << 10 };
    int id;
    REQUIRE(steer_engine_load_mod(e, path, &lim, &id) == STEER_OK, "%s", steer_engine_error(e));
    static const char *const params[] = { NULL };
    static char names[400][8];
    steer_ModInfo mi = { .enabled = true };
    for (int i = 0; i < 400 && mi.enabled; i++) {
        snprintf(names[i], sizeof names[i], "k%d", i);
        steer_HostBehaviorDesc hd = { .name = names[i], .params = params, .fn = push_none };
        CHECK(steer_engine_register_behavior(e, &hd) == STEER_OK, "register: %s", steer_engine_error(e));
        CHECK(steer_engine_tick(e, 1) == STEER_OK, "tick: %s", steer_engine_error(e));
        steer_engine_mod_info(e, id, &mi);
    }
    CHECK(!mi.enabled && strstr(mi.reason, "memory cap"), "the mod: %s", mi.enabled ? "still enabled" : mi.reason);
    steer_engine_free(e);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/steer-mods-%d", (int)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", tmpdir);
    if (system(cmd) != 0) return 1;
    RUN(test_hostile_mods);
    RUN(test_prints_are_rate_limited);
    RUN(test_messages_are_copies);
    RUN(test_message_floods);
    RUN(test_spawn_remove_cycles);
    RUN(test_require_stays_inside);
    RUN(test_touch_all);
    RUN(test_mods_crossing_their_cap_outside_a_call);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0) return 1;
    return check_report_("mods");
}
