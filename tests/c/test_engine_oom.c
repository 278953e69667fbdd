// SPDX-License-Identifier: MIT
// test_engine_oom.c — the engine under a host allocator that fails for
// good: every call from the k-th on returns NULL (frees still work), for
// every k up to the number of calls a scenario's whole run makes (each of
// the first calls of every step, then a deterministic sample). The run:
// steer_engine_new, load, ticks, an error raised by the scenario, a reload,
// a save, a restore, free. Whatever k, no call aborts the process (a Lua
// panic: an error raised outside a protected call), each step returns
// STEER_OK or an error with a message, and free gives back every block
// the hook handed out (counted here; ASan's leak check sees libc's).
//
// Also: what steer allocates goes through the hook (issue 29, item 9):
// grids, flow fields, A* scratch, behaviour trees and the scenario's saved
// data are served by it, seen as the bytes the hook holds at its peak; and
// in a host's own lua_State the module's grids, fields and A* scratch are
// served by the state's allocator.
//
//   test-engine-oom          the test
//   test-engine-oom K        one run failing from call K on, verbose
#include "buf.h"
#include "check.h"
#include "steer.h"
#include "steer_engine.h"
#include "steer_lua.h"
#include "files.h"

#include <lauxlib.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// ---- a failing, counting allocator ----------------------------------------------

// Blocks carry their size in a header, so the hook knows the bytes it holds.
typedef struct Hook {
    long calls, fail_from; // fail every call from fail_from on (0: never)
    long live;             // blocks handed out and not freed
    size_t bytes, peak;    // bytes held now, at most
} Hook;

#define HEAD 16

static void *hook_alloc(void *ud, void *p, size_t size)
{
    Hook *h = ud;
    h->calls++;
    unsigned char *b = p ? (unsigned char *)p - HEAD : NULL;
    size_t old = 0;
    if (b) memcpy(&old, b, sizeof old);
    if (size == 0) {
        if (b) {
            h->live--;
            h->bytes -= old;
        }
        free(b);
        return NULL;
    }
    if (h->fail_from && h->calls >= h->fail_from) return NULL;
    unsigned char *n = realloc(b, size + HEAD);
    if (!n) return NULL;
    if (!b) h->live++;
    h->bytes = h->bytes - old + size;
    if (h->bytes > h->peak) h->peak = h->bytes;
    memcpy(n, &size, sizeof size);
    return n + HEAD;
}

// ---- the scenario ------------------------------------------------------------------

// A module, a grid with a flow field and an A* path, trees with names and
// children, a.data, its own saved state, and an error on demand.
static const char scenario[] =
    "local steer = require 'steer'\n"
    "local tuning = require 'oom_tuning'\n"
    "local S = { ticks = 0 }\n"
    "local walker = steer.archetype{ name = 'walker', vehicle = { max_speed = 3, max_force = 8 },\n"
    "  brain = steer.priority{ name = 'walk', steer.avoid_walls{}, steer.wander{} } }\n"
    "local grid, field\n"
    "return {\n"
    "  world = { size = { 64, 64 }, seed = 3 },\n"
    "  setup = function(w)\n"
    "    grid = steer.grid{ cell = 2, map = { '........', '..##....', '..##....', '........',\n"
    "                                         '....#...', '....#...', '........', '........' } }\n"
    "    w:add_grid(grid)\n"
    "    field = grid:flow_field{ goal = { 15, 15 } }\n"
    "    local path = grid:path({ 1, 1 }, { 15, 1 })\n"
    "    for i = 1, 6 do\n"
    "      local a = w:spawn(walker, { position = { 2 * i, 3 } })\n"
    "      a.data.n = { i, 'x' .. i }\n"
    "    end\n"
    "    w:spawn({ brain = steer.follow_flow{ field = field } }, { position = { 1, 9 } })\n"
    "    S.path = path and #path or 0\n"
    "  end,\n"
    "  update = function(w) S.ticks = S.ticks + tuning.step end,\n"
    "  save = function(w) return { ticks = S.ticks, path = S.path } end,\n"
    "  load = function(w, d) S.ticks = d.ticks end,\n"
    "  boom = function() error('boom ' .. S.ticks) end,\n"
    "}\n";

enum { NEW, LOAD, TICK, BOOM, RELOAD, SAVE, RESTORE, TICK2, FREE, STEPS };
static const char *const step_names[STEPS] = { "new",  "load",    "tick",  "error", "reload",
                                               "save", "restore", "tick2", "free" };

// One run with the hook failing from call fail_from on: the call count
// when each step began into at[], each step's status into st[].
static void run(Hook *h, long fail_from, long at[STEPS], int st[STEPS], bool verbose)
{
    memset(h, 0, sizeof *h);
    h->fail_from = fail_from;
    for (int i = 0; i < STEPS; i++) {
        at[i] = -1;
        st[i] = STEER_OK;
    }
    steer_EngineDesc d = { .alloc = hook_alloc, .alloc_ud = h, .log = quiet, .threads = 1 };
    steer_Engine *e = NULL;
    at[NEW] = h->calls;
    st[NEW] = steer_engine_new(&d, &e);
    if (st[NEW] != STEER_OK) return;
    Buf b = { 0 };
    for (int s = LOAD; s < FREE; s++) {
        at[s] = h->calls;
        switch (s) {
        case LOAD: st[s] = steer_engine_load(e, path_of("oom.lua")); break;
        case TICK: st[s] = steer_engine_tick(e, 3); break;
        case BOOM: st[s] = steer_engine_call(e, "boom", 0); break;
        case RELOAD: st[s] = steer_engine_reload(e); break;
        case SAVE: st[s] = steer_engine_save(e, buf_write, &b); break;
        case RESTORE: st[s] = b.p ? steer_engine_restore(e, b.p, b.len) : STEER_OK; break; // nothing saved
        case TICK2: st[s] = steer_engine_tick(e, 2); break;
        default: break;
        }
        if (verbose) printf("    %s: %d %s\n", step_names[s], st[s], st[s] ? steer_engine_error(e) : "");
        if (st[s] != STEER_OK && !steer_engine_error(e)[0])
            CHECK(0, "k = %ld: %s returned %d with no message", fail_from, step_names[s], st[s]);
    }
    at[FREE] = h->calls;
    steer_engine_free(e);
    free(b.p);
}

// The step that made call k (the last step begun at or before it).
static int step_of(const long at[STEPS], long k)
{
    int s = 0;
    for (int i = 0; i < STEPS; i++)
        if (at[i] >= 0 && at[i] < k) s = i;
    return s;
}

static void test_persistent_failure(void)
{
    Hook h;
    long at[STEPS], fat[STEPS];
    int st[STEPS];
    run(&h, 0, at, st, false);
    for (int s = 0; s < STEPS; s++)
        REQUIRE(s == BOOM ? st[s] == STEER_ESCRIPT : st[s] == STEER_OK, "the run without failures: %s gave %d",
                step_names[s], st[s]);
    REQUIRE(h.live == 0, "%ld blocks not given back", h.live);
    long total = h.calls;
    // every one of the first 24 calls of each step, then about 400 points in
    // all (each run costs a few milliseconds of the kernel's, closing the
    // engine's inotify descriptor)
    long stride = total / 400 + 1;
    int runs = 0;
    for (long k = 1; k <= total && !FAILED(); k++) {
        bool early = false;
        for (int s = 0; s < STEPS; s++) early = early || (k > at[s] && k <= at[s] + 24);
        if (!early && k % stride) continue;
        runs++;
        run(&h, k, fat, st, false);
        // the step call k fell in, by this run's own count: the number of
        // calls moves a little from run to run (tables keyed by addresses
        // grow at other moments), so the first run's steps are only a guide
        int s = step_of(fat, k);
        CHECK(h.live == 0, "k = %ld (in %s): %ld blocks not given back", k, step_names[s], h.live);
        // a failure is reported (the error step fails anyway; the save's
        // buffer is the test's, so it may end before the restore sees one)
        if (s < FREE) {
            bool later = false;
            for (int i = s; i < FREE; i++) later = later || (st[i] != STEER_OK && i != BOOM);
            CHECK(later, "k = %ld (in %s): the failure was not reported", k, step_names[s]);
            CHECK(st[NEW] != STEER_OK || st[BOOM] != STEER_OK, "k = %ld: the scenario's error was not reported", k);
        }
    }
    printf("    %ld calls in the run, %d runs\n", total, runs);
}

static void test_hook_serves_everything(void)
{
    // a 512 x 512 grid: 1 MiB of costs, 2 MiB of flow distances, 3 MiB of A* scratch
    write_file("big.lua", "local steer = require 'steer'\n"
                          "return { world = { size = { 1024, 1024 } }, setup = function(w)\n"
                          "  local row, map = string.rep('.', 512), {}\n"
                          "  for j = 1, 512 do map[j] = row end\n"
                          "  local g = steer.grid{ cell = 2, map = map }\n"
                          "  G = g\n"
                          "  F = g:flow_field{ goal = { 1000, 1000 } }\n"
                          "  P = g:path({ 1, 1 }, { 1000, 1000 })\n"
                          "  T = {}\n"
                          "  for i = 1, 2000 do T[i] = steer.seek{ name = string.rep('n', 1000) .. i } end\n"
                          "end }\n");
    Hook h;
    memset(&h, 0, sizeof h);
    steer_EngineDesc d = { .alloc = hook_alloc, .alloc_ud = &h, .log = quiet, .threads = 1 };
    steer_Engine *e;
    REQUIRE(steer_engine_new(&d, &e) == STEER_OK, "engine");
    REQUIRE(steer_engine_load(e, path_of("big.lua")) == STEER_OK, "%s", steer_engine_error(e));
    size_t cells = 512 * 512;
    size_t want = cells * (sizeof(float) + sizeof(double) + 2 * sizeof(uint32_t) + sizeof(double)) + 2000 * 1000;
    printf("    the hook held %.1f MB at most (the grid, field, A* scratch and trees: %.1f MB)\n", h.peak / 1e6,
           want / 1e6);
    CHECK(h.peak > want, "the hook held %zu bytes at most, less than the grid, field, A* scratch and trees (%zu)",
          h.peak, want);
    steer_engine_free(e);
    CHECK(h.live == 0, "%ld blocks not given back", h.live);
}

// In a host's own lua_State, the module's grids, flow fields and A*
// scratch come from the state's allocator (lua_getallocf).
static void *lua_hook(void *ud, void *p, size_t osize, size_t nsize)
{
    (void)osize;
    return hook_alloc(ud, p, nsize);
}

static const char big_nav[] = "local steer = require 'steer'\n"
                              "local row, map = string.rep('.', 512), {}\n"
                              "for j = 1, 512 do map[j] = row end\n"
                              "local g = steer.grid{ cell = 2, map = map }\n"
                              "local f = g:flow_field{ goal = { 1000, 1000 } }\n"
                              "local p = g:path({ 1, 1 }, { 1000, 1000 })\n"
                              "return p ~= nil and f ~= nil\n";

static void test_own_state_allocator(void)
{
    Hook h;
    memset(&h, 0, sizeof h);
    lua_State *L = lua_newstate(lua_hook, &h);
    REQUIRE(L, "state");
    luaL_openlibs(L);
    steer_lua_preload(L);
    bool ok = luaL_dostring(L, big_nav) == LUA_OK && lua_toboolean(L, -1);
    CHECK(ok, "%s", lua_tostring(L, -1));
    size_t cells = 512 * 512, want = cells * (sizeof(float) + sizeof(double) + 2 * sizeof(uint32_t) + sizeof(double));
    CHECK(h.peak > want, "the state's allocator held %zu bytes at most, less than the grid, field and A* scratch (%zu)",
          h.peak, want);
    lua_close(L);
    CHECK(h.live == 0, "%ld blocks not given back", h.live);
}

int main(int argc, char **argv)
{
    snprintf(dir, sizeof dir, "/tmp/steer-engine-oom-%d", (int)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    if (system(cmd) != 0) return 1;
    write_file("oom.lua", scenario);
    write_file("oom_tuning.lua", "return { step = 1 }\n");
    if (argc > 1) {
        Hook h;
        long at[STEPS];
        int st[STEPS];
        run(&h, atol(argv[1]), at, st, true);
        printf("calls %ld, live %ld\n", h.calls, h.live);
    } else {
        RUN(test_hook_serves_everything);
        RUN(test_own_state_allocator);
        RUN(test_persistent_failure);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    return argc > 1 ? 0 : check_report_("engine_oom");
}
