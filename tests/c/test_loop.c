// SPDX-License-Identifier: MIT
// test_loop.c — the tuning loop without surprises (issue 30): steer.state
// kept across a hot reload, a load and a rewind, carried in snapshots (old
// ones still read); the hint on an error of the first tick after one of
// those; misspelt scenario keys refused; the C API's errors.
#include "buf.h"
#include "check.h"
#include "steer.h"
#include "steer_engine.h"
#include "files.h"

#include <lauxlib.h>
#include <lua.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static steer_Engine *engine(void)
{
    steer_EngineDesc d = { .log = quiet };
    steer_Engine *e = NULL;
    if (steer_engine_new(&d, &e) != STEER_OK) return NULL;
    return e;
}

// The scenario's function `name`'s two results: a boolean and an integer.
static int call2(steer_Engine *e, const char *name, long long *n)
{
    lua_State *L = steer_engine_lua(e);
    *n = -1;
    if (!steer_engine_push_scenario(e)) return 0;
    lua_getfield(L, -2, name);
    int ok = 0;
    if (lua_pcall(L, 0, 2, 0) == LUA_OK) {
        ok = lua_toboolean(L, -2);
        *n = lua_tointeger(L, -1);
        lua_pop(L, 2);
    } else {
        printf("    %s(): %s\n", name, lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    return ok;
}

static uint64_t le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

// The engine snapshot b without its sections of kind `drop`, as version
// `version`, into out (b.len bytes); returns its length.
static size_t without_kind(const Buf *b, int drop, int version, unsigned char *out)
{
    memcpy(out, b->p, 16);
    out[8] = (unsigned char)version;
    size_t at = 16, len = 16;
    uint32_t kept = 0, n = (uint32_t)le(b->p + 12, 4);
    for (uint32_t i = 0; i < n; i++) {
        size_t size = 2 + b->p[at + 1] + 8;
        size += (size_t)le(b->p + at + size - 8, 8);
        if (b->p[at] != drop) {
            memcpy(out + len, b->p + at, size);
            len += size;
            kept++;
        }
        at += size;
    }
    for (int i = 0; i < 4; i++) out[12 + i] = (unsigned char)(kept >> (8 * i));
    return len;
}

// ---- steer.state -------------------------------------------------------------------

// The town: the intruder made in setup, kept in a table of the
// file; the state steers the world (the intruder's target moves with a
// count), so a run that lost or stale state differs.
static const char keeper[] = "local steer = require 'steer'\n"
                             "local S = steer.state -- %s\n"
                             "return {\n"
                             "  world = { size = { 200, 200 }, seed = 3 },\n"
                             "  setup = function(w)\n"
                             "    S.intruder = w:spawn{ position = { 10, 10 }, max_speed = 2, max_force = 4,\n"
                             "                          brain = steer.seek{}, target = { 150, 150 } }\n"
                             "    S.count, S.where = 0, steer.vec(1, 2)\n"
                             "    S.shared = { n = 1 }; S.again = S.shared\n"
                             "  end,\n"
                             "  update = function(w)\n"
                             "    S.count = S.count + 1\n"
                             "    if S.count %% 10 == 0 then S.intruder.target = { S.count %% 200, 100 } end\n"
                             "  end,\n"
                             "  check = function()\n"
                             "    return S == steer.state and S.intruder.alive and S.again == S.shared\n"
                             "           and S.where == steer.vec(1, 2), S.count\n"
                             "  end,\n"
                             "}\n";

static void write_keeper(const char *note)
{
    char text[2048];
    snprintf(text, sizeof text, keeper, note);
    write_file("keeper.lua", text);
}

// What setup keeps in steer.state is there after a hot reload, after a
// restore in place (the same table, the saved contents: agents, vectors,
// shared tables) and in a fresh engine loaded from the snapshot, and the
// runs after each are the uninterrupted one.
static void test_state_kept(void)
{
    write_keeper("first version");
    steer_Engine *e = engine();
    REQUIRE(e, "engine");
    REQUIRE(steer_engine_load(e, path_of("keeper.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 30) == STEER_OK, "%s", steer_engine_error(e));
    write_keeper("second version");
    REQUIRE(steer_engine_reload(e) == STEER_OK, "reload: %s", steer_engine_error(e));
    CHECK(steer_engine_tick(e, 30) == STEER_OK, "the ticks after a reload find the state: %s", steer_engine_error(e));
    long long n;
    CHECK(call2(e, "check", &n) && n == 60, "the state after the reload: count %lld", n);

    Buf b = { 0 };
    REQUIRE(steer_engine_save(e, buf_write, &b) == STEER_OK, "save: %s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 45) == STEER_OK, "%s", steer_engine_error(e));
    steer_World *w = steer_engine_world(e);
    uint64_t want = steer_world_hash(w);
    CHECK(steer_engine_restore(e, b.p, b.len) == STEER_OK, "restore: %s", steer_engine_error(e));
    CHECK(call2(e, "check", &n) && n == 60, "the state restored in place: count %lld", n);
    CHECK(steer_engine_tick(e, 45) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_world_hash(w) == want, "a rewind replays the uninterrupted run");
    steer_engine_free(e);

    e = engine();
    REQUIRE(e, "engine");
    CHECK(steer_engine_load_snapshot(e, path_of("keeper.lua"), b.p, b.len) == STEER_OK, "load: %s",
          steer_engine_error(e));
    CHECK(call2(e, "check", &n) && n == 60, "the state of a fresh engine from the snapshot: count %lld", n);
    CHECK(steer_engine_tick(e, 45) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_world_hash(steer_engine_world(e)) == want, "a load replays the uninterrupted run");

    // a snapshot of version 3 without its state section is malformed; so is one with two
    unsigned char *cut = malloc(b.len * 2);
    size_t len = without_kind(&b, 5, 3, cut);
    CHECK(steer_engine_restore(e, cut, len) == STEER_EARG && strstr(steer_engine_error(e), "steer.state"),
          "a version 3 snapshot without steer.state is refused: %s", steer_engine_error(e));
    memcpy(cut, b.p, b.len);
    size_t at = 16;
    for (uint32_t i = 0, count = (uint32_t)le(b.p + 12, 4); i < count; i++) {
        size_t size = 2 + b.p[at + 1] + 8;
        size += (size_t)le(b.p + at + size - 8, 8);
        if (b.p[at] == 5) { // the state section once more, at the end
            memcpy(cut + b.len, b.p + at, size);
            cut[12]++;
            CHECK(steer_engine_restore(e, cut, b.len + size) == STEER_EARG && strstr(steer_engine_error(e), "corrupt"),
                  "two steer.state sections are refused: %s", steer_engine_error(e));
        }
        at += size;
    }
    free(cut);
    steer_engine_free(e);
    free(b.p);
}

// A brain, a grid or an agent of another world in steer.state cannot be
// saved: the save fails naming where and what, and says where they go.
static void test_state_unsaveable(void)
{
    write_file("brainy.lua", "local steer = require 'steer'\n"
                             "return { setup = function(w) steer.state.plan = { brain = steer.seek{} } end }\n");
    steer_Engine *e = engine();
    REQUIRE(e, "engine");
    REQUIRE(steer_engine_load(e, path_of("brainy.lua")) == STEER_OK, "%s", steer_engine_error(e));
    Buf b = { 0 };
    CHECK(steer_engine_save(e, buf_write, &b) == STEER_ESCRIPT, "a brain in the state is refused");
    CHECK(strstr(steer_engine_error(e), "steer.state.plan.brain: a brain") && strstr(steer_engine_error(e), "a.data"),
          "names where and what: %s", steer_engine_error(e));
    // the state is the scenario's: a mod has none (its own goes through save() and load(data))
    write_file("nostate.lua",
               "return { setup = function() assert(steer.state == nil, 'a mod sees steer.state') end }\n");
    CHECK(steer_engine_load_mod(e, path_of("nostate.lua"), NULL, NULL) == STEER_OK, "a mod: %s", steer_engine_error(e));
    steer_engine_free(e);
    free(b.p);
}

// Snapshots of version 2 (before steer.state) still load: a scenario with
// no save(w) takes the scenario data they hold as its state (what it kept
// before it moved its save(w)/load(w, data) into steer.state); one that
// still has a save(w) gets its data in load(w, data) and an empty state.
static void test_state_from_version_2(void)
{
    write_file("old.lua", "local n = 0\n"
                          "return { update = function() n = n + 1 end,\n"
                          "  save = function() return { count = n } end,\n"
                          "  load = function(w, d) n = d.count end }\n");
    write_file("new.lua", "local steer = require 'steer'\n"
                          "local S = steer.state\n"
                          "return { setup = function() S.count = 0 end,\n"
                          "  update = function() S.count = S.count + 1 end,\n"
                          "  check = function() return true, S.count end }\n");
    write_file("still.lua", "local steer = require 'steer'\n"
                            "local got\n"
                            "return { save = function() return {} end, load = function(w, d) got = d.count end,\n"
                            "  check = function() return next(steer.state) == nil, got end }\n");
    steer_Engine *e = engine();
    REQUIRE(e, "engine");
    REQUIRE(steer_engine_load(e, path_of("old.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 7) == STEER_OK, "%s", steer_engine_error(e));
    Buf b = { 0 };
    REQUIRE(steer_engine_save(e, buf_write, &b) == STEER_OK, "save: %s", steer_engine_error(e));
    steer_engine_free(e);
    unsigned char *v2 = malloc(b.len);
    size_t len = without_kind(&b, 5, 2, v2);

    long long n;
    e = engine();
    REQUIRE(e, "engine");
    CHECK(steer_engine_load_snapshot(e, path_of("new.lua"), v2, len) == STEER_OK, "a version 2 snapshot: %s",
          steer_engine_error(e));
    CHECK(call2(e, "check", &n) && n == 7, "its data became the state: count %lld", n);
    CHECK(steer_engine_tick(e, 1) == STEER_OK && call2(e, "check", &n) && n == 8, "and runs on: %lld", n);
    steer_engine_free(e);

    e = engine();
    REQUIRE(e, "engine");
    CHECK(steer_engine_load_snapshot(e, path_of("still.lua"), v2, len) == STEER_OK, "a version 2 snapshot: %s",
          steer_engine_error(e));
    CHECK(call2(e, "check", &n) && n == 7, "a scenario with save(w) gets its data in load, the state empty");
    steer_engine_free(e);
    free(v2);
    free(b.p);
}

// State kept in the file's locals is lost by a reload, a load and a
// rewind; the error of the first tick after one says so, with what to do.
static void test_first_tick_hint(void)
{
    static const char lost[] = "local steer = require 'steer'\n"
                               "local S = {} -- %s\n"
                               "return {\n"
                               "  setup = function(w) S.intruder = w:spawn{} end,\n"
                               "  update = function(w) S.intruder.max_speed = 2 end,\n"
                               "  load = function(w, data) if data then S.intruder = nil end end,\n"
                               "  save = function() return true end,\n"
                               "}\n";
    char text[1024];
    snprintf(text, sizeof text, lost, "1");
    write_file("lost.lua", text);
    steer_Engine *e = engine();
    REQUIRE(e, "engine");
    REQUIRE(steer_engine_load(e, path_of("lost.lua")) == STEER_OK, "%s", steer_engine_error(e));
    REQUIRE(steer_engine_tick(e, 3) == STEER_OK, "%s", steer_engine_error(e));
    Buf b = { 0 };
    REQUIRE(steer_engine_save(e, buf_write, &b) == STEER_OK, "save: %s", steer_engine_error(e));
    snprintf(text, sizeof text, lost, "2");
    write_file("lost.lua", text);
    REQUIRE(steer_engine_reload(e) == STEER_OK, "reload: %s", steer_engine_error(e));
    CHECK(steer_engine_tick(e, 1) == STEER_ESCRIPT, "the first tick after the reload fails");
    const char *err = steer_engine_error(e);
    CHECK(strstr(err, "lost.lua:5: attempt to index a nil value") &&
              strstr(err, "hint: the first tick after a hot "
                          "reload") &&
              strstr(err, "steer.state"),
          "the error says why: %s", err);
    CHECK(strstr(steer_engine_traceback(e), "hint: the first tick after a hot reload") &&
              strstr(steer_engine_traceback(e), "stack traceback:"),
          "so does the traceback: %s", steer_engine_traceback(e));
    CHECK(steer_engine_tick(e, 1) == STEER_ESCRIPT && !strstr(steer_engine_error(e), "hint"),
          "a later tick's error has no hint: %s", steer_engine_error(e));

    // a rewind: the snapshot's load(w, data) does not find the intruder again
    CHECK(steer_engine_restore(e, b.p, b.len) == STEER_OK, "restore: %s", steer_engine_error(e));
    CHECK(steer_engine_tick(e, 1) == STEER_ESCRIPT && strstr(steer_engine_error(e), "hint: the first tick after a "
                                                                                    "rewind"),
          "after a rewind: %s", steer_engine_error(e));
    steer_engine_free(e);

    e = engine();
    REQUIRE(e, "engine");
    CHECK(steer_engine_load_snapshot(e, path_of("lost.lua"), b.p, b.len) == STEER_OK, "load: %s",
          steer_engine_error(e));
    CHECK(steer_engine_tick(e, 1) == STEER_ESCRIPT && strstr(steer_engine_error(e), "hint: the first tick after "
                                                                                    "loading a snapshot"),
          "after a load: %s", steer_engine_error(e));
    steer_engine_free(e);
    free(b.p);

    // a failure of the first tick after a plain load (setup ran) gets no hint
    write_file("plain.lua", "return { update = function() local t = nil; t.x = 1 end }\n");
    e = engine();
    REQUIRE(e, "engine");
    REQUIRE(steer_engine_load(e, path_of("plain.lua")) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_engine_tick(e, 1) == STEER_ESCRIPT && !strstr(steer_engine_error(e), "hint"), "no hint: %s",
          steer_engine_error(e));
    steer_engine_free(e);
}

// ---- the scenario's keys ---------------------------------------------------------------

// A misspelt field (the wrold, stup, udpate) is refused at load
// and at a reload, naming the field meant; the scenario's own keys (a
// function a snapshot names as scenario.KEY, data) are its business.
static void test_misspelt_keys(void)
{
    static const struct {
        const char *text, *key, *meant;
    } bad[] = {
        { "return { wrold = { size = { 10, 10 } } }\n", "wrold", "world" },
        { "return { stup = function(w) w:spawn{} end }\n", "stup", "setup" },
        { "return { udpate = function() end }\n", "udpate", "update" },
        { "return { Reload = function() end }\n", "Reload", "reload" },
        { "return { onkey = function() end }\n", "onkey", "on_key" },
        { "return { lod = function() end }\n", "lod", "load" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file("typo.lua", bad[i].text);
        steer_Engine *e = engine();
        REQUIRE(e, "engine");
        char want[128];
        snprintf(want, sizeof want, "no field '%s' (did you mean '%s'?", bad[i].key, bad[i].meant);
        CHECK(steer_engine_load(e, path_of("typo.lua")) == STEER_ESCRIPT && strstr(steer_engine_error(e), want) &&
                  strstr(steer_engine_error(e), "typo.lua: "),
              "%s is refused: %s", bad[i].key, steer_engine_error(e));
        steer_engine_free(e);
    }
    write_file("own.lua", "return { world = { size = { 10, 10 } }, spiral = function() end, colours = { 1, 2 },\n"
                          "  state = function() end, [1] = true, step_off = 1 }\n");
    steer_Engine *e = engine();
    REQUIRE(e, "engine");
    CHECK(steer_engine_load(e, path_of("own.lua")) == STEER_OK, "the scenario's own keys: %s", steer_engine_error(e));
    write_file("own.lua", "return { world = { size = { 10, 10 } }, udpate = function() end }\n");
    CHECK(steer_engine_reload(e) == STEER_ESCRIPT && strstr(steer_engine_error(e), "did you mean 'update'"),
          "a reload with a misspelt field fails: %s", steer_engine_error(e));
    steer_engine_free(e);
}

// ---- the C API's errors -----------------------------------------------------------------

static void host_fn(void *ud, const steer_HostCtx *c, double f[3])
{
    (void)ud, (void)c;
    f[0] = f[1] = f[2] = 0;
}

static void on_event(void *ud, const steer_Event *ev) { (void)ud, (void)ev; }

static int no_write(void *ud, const void *p, size_t len)
{
    (void)ud, (void)p, (void)len;
    return 0;
}

// Each of register_behavior's checks has its own message; every failing
// call says which check failed; a call that succeeds leaves no error.
static void test_api_errors(void)
{
    write_file("plain.lua", "return { setup = function(w) w:spawn{} end }\n");
    steer_Engine *e = engine();
    REQUIRE(e, "engine");
    REQUIRE(steer_engine_load(e, path_of("plain.lua")) == STEER_OK, "%s", steer_engine_error(e));
    const char *const radius[] = { "radius", NULL }, *const target[] = { "radius", "target", NULL },
                      *const twice[] = { "radius", "gain", "radius", NULL }, *const bad_param[] = { "two words", NULL };
    const double inf[] = { 1.0 / 0.0 };
    const struct {
        steer_HostBehaviorDesc d;
        const char *says;
    } cases[] = {
        { { .name = "seek", .fn = host_fn }, "desc.name 'seek' is a built-in behaviour's name" },
        { { .name = "orbit", .params = target, .fn = host_fn }, "desc.params[1] is 'target', which is reserved" },
        { { .name = "orbit", .params = twice, .fn = host_fn }, "desc.params[2] 'radius' is there twice" },
        { { .name = "orbit", .params = radius }, "desc.fn is NULL" },
        { { .name = "9lives", .fn = host_fn }, "desc.name '9lives' is not an identifier" },
        { { .name = "orbit", .fn = host_fn, .memory = 65 }, "desc.memory 65 is out of range (0 to 64" },
        { { .name = NULL, .fn = host_fn }, "desc.name is NULL" },
        { { .name = "orbit", .params = bad_param, .fn = host_fn }, "desc.params[0] 'two words' is not an identifier" },
        { { .name = "orbit", .params = radius, .defaults = inf, .fn = host_fn }, "desc.defaults[0] (of 'radius')" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(steer_engine_register_behavior(e, &cases[i].d) == STEER_EARG &&
                  strstr(steer_engine_error(e), "steer_engine_register_behavior: ") &&
                  strstr(steer_engine_error(e), cases[i].says),
              "case %zu says '%s': '%s'", i, cases[i].says, steer_engine_error(e));
    }
    CHECK(steer_engine_register_behavior(e, NULL) == STEER_EARG && strstr(steer_engine_error(e), "desc is NULL"),
          "no descriptor: %s", steer_engine_error(e));
    steer_HostBehaviorDesc good = { .name = "orbit", .params = radius, .fn = host_fn };
    CHECK(steer_engine_register_behavior(e, &good) == STEER_OK && !*steer_engine_error(e),
          "a good one registers, no error left: '%s'", steer_engine_error(e));
    CHECK(steer_engine_register_behavior(e, &good) == STEER_EARG &&
              strstr(steer_engine_error(e), "'orbit' is registered already"),
          "twice: %s", steer_engine_error(e));

    // failures that said nothing, and an old message after a success
    static const char *const says[] = {
        "steer_engine_tick: n is -1",         "steer_engine_save: write is NULL",
        "steer_engine_restore: data is NULL", "steer_engine_subscribe: fn is NULL",
        "steer_engine_states: cap is -1",     "steer_engine_call: name is NULL",
        "steer_engine_unload_mod: no mod 3",  "steer_engine_load_mod: path is NULL",
    };
    int got[8];
    steer_AgentState one;
    got[0] = steer_engine_tick(e, -1) == STEER_EARG && strstr(steer_engine_error(e), says[0]);
    got[1] = steer_engine_save(e, NULL, NULL) == STEER_EARG && strstr(steer_engine_error(e), says[1]);
    got[2] = steer_engine_restore(e, NULL, 0) == STEER_EARG && strstr(steer_engine_error(e), says[2]);
    got[3] = steer_engine_subscribe(e, NULL, NULL) == STEER_EARG && strstr(steer_engine_error(e), says[3]);
    got[4] = steer_engine_states(e, &one, -1) == STEER_EARG && strstr(steer_engine_error(e), says[4]);
    got[5] = steer_engine_call(e, NULL, 0) == STEER_EARG && strstr(steer_engine_error(e), says[5]);
    got[6] = steer_engine_unload_mod(e, 3) == STEER_EARG && strstr(steer_engine_error(e), says[6]);
    got[7] = steer_engine_load_mod(e, NULL, NULL, NULL) == STEER_EARG && strstr(steer_engine_error(e), says[7]);
    for (int i = 0; i < 8; i++) CHECK(got[i], "'%s'", says[i]);
    CHECK(steer_engine_tick(e, 1) == STEER_OK && !*steer_engine_error(e) && !*steer_engine_traceback(e),
          "a good tick leaves no error: '%s'", steer_engine_error(e));
    write_file("plain.lua", "return { update = function() error('boom') end }\n");
    CHECK(steer_engine_reload(e) == STEER_OK, "%s", steer_engine_error(e));
    CHECK(steer_engine_tick(e, 1) == STEER_ESCRIPT && strstr(steer_engine_error(e), "boom"), "%s",
          steer_engine_error(e));
    Buf b = { 0 };
    CHECK(steer_engine_save(e, buf_write, &b) == STEER_OK && !*steer_engine_error(e),
          "a good save after a failed tick leaves no error: '%s'", steer_engine_error(e));
    CHECK(steer_engine_restore(e, b.p, b.len) == STEER_OK && !*steer_engine_error(e), "restore: '%s'",
          steer_engine_error(e));
    CHECK(steer_engine_subscribe(e, on_event, NULL) == STEER_OK && !*steer_engine_error(e), "subscribe");
    CHECK(steer_engine_save(e, no_write, NULL) == STEER_OK, "save");
    free(b.p);
    steer_engine_free(e);

    e = engine();
    REQUIRE(e, "engine");
    CHECK(steer_engine_load(e, NULL) == STEER_EARG && strstr(steer_engine_error(e), "steer_engine_load: file is NULL"),
          "%s", steer_engine_error(e));
    CHECK(steer_engine_load_snapshot(e, path_of("plain.lua"), NULL, 0) == STEER_EARG &&
              strstr(steer_engine_error(e), "steer_engine_load_snapshot: data is NULL"),
          "%s", steer_engine_error(e));
    steer_engine_free(e);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/steer-loop-%d", (int)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    if (system(cmd) != 0) return 1;
    RUN(test_state_kept);
    RUN(test_state_unsaveable);
    RUN(test_state_from_version_2);
    RUN(test_first_tick_hint);
    RUN(test_misspelt_keys);
    RUN(test_api_errors);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    return check_report_("loop");
}
