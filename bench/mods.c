// SPDX-License-Identifier: MIT
// steer-bench-mods: what running Lua as a sandboxed mod costs over running
// the same Lua in a plain state, per unit of the work mod's mix and per
// instruction of a bare loop (a mod's threads carry a count hook, which
// makes Lua 5.4 look at hooks before every instruction), the fixed cost
// per call into a mod, and the sandbox's step-counting pattern matcher
// against Lua's own. Times are the main thread's CPU time (the watchdog's
// thread is not counted), medians of ROUNDS runs.
//
//   steer-bench-mods [--calls] [DIR]   DIR holds scenario.lua and work.lua
//                            (default: the source tree's bench/mods);
//                            --calls: only the costs per call (the fixed
//                            cost, a think call), for paired runs
#include "steer.h"
#include "steer_engine.h"
#include "timing.h"
#include "steer_lua.h"

#include <lauxlib.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_MODS_DIR
#define BENCH_MODS_DIR "bench/mods"
#endif

#define ROUNDS 7
#define TICKS 300
#define LOOP 2000000 // iterations of the bare loop, two instructions each (ADD, FORLOOP)
#define LOOP_TICKS 20
#define BARE_LOOP (-1) // engine_ms and plain_ms: the bare loop's mod instead of the work mod
#define NO_MOD (-2)

// Seconds of this thread's CPU time: a busy machine's waits do not count.
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

// The work mod's text with WORK set, or the bare loop's mod.
static const char *work_mod(const char *dir, int work)
{
    static char out[1 << 16];
    if (work == BARE_LOOP) {
        snprintf(out, sizeof out,
                 "return { update = function() local s = 0 for i = 1, %d do s = s + i end SINK = s end }\n", LOOP);
        return out;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/work.lua", dir);
    char *text = slurp(path);
    snprintf(out, sizeof out, "local WORK = %d\n%s", work, text);
    free(text);
    return out;
}

// Median time (ms) of `ticks` engine ticks, with the work mod (or the bare
// loop's) unless NO_MOD.
static double engine_ms(const char *dir, const char *scn, int work, int ticks)
{
    double t[ROUNDS];
    char scenario[1024], mod[1024];
    snprintf(scenario, sizeof scenario, "%s/%s.lua", dir, scn);
    snprintf(mod, sizeof mod, "/tmp/steer-bench-work-%d.lua", (int)getpid());
    if (work != NO_MOD) {
        FILE *f = fopen(mod, "w");
        fputs(work_mod(dir, work), f);
        fclose(f);
    }
    for (int r = 0; r < ROUNDS; r++) {
        steer_Engine *e;
        steer_engine_new(NULL, &e);
        if (steer_engine_load(e, scenario) != STEER_OK) {
            fprintf(stderr, "%s\n", steer_engine_error(e));
            exit(1);
        }
        steer_ModLimits lim = { .call_ms = 1000 };
        if (work != NO_MOD && steer_engine_load_mod(e, mod, &lim, NULL) != STEER_OK) {
            fprintf(stderr, "%s\n", steer_engine_error(e));
            exit(1);
        }
        steer_engine_tick(e, 10); // warm up
        double t0 = cpu_now();
        steer_engine_tick(e, ticks);
        t[r] = (cpu_now() - t0) * 1e3;
        steer_engine_free(e);
    }
    remove(mod);
    return bench_median(t, ROUNDS);
}

// The same update function called `ticks` times in a plain Lua state.
static double plain_ms(const char *dir, int work, int ticks)
{
    double t[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        lua_State *L = luaL_newstate();
        luaL_openlibs(L);
        if (luaL_loadstring(L, work_mod(dir, work)) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
            fprintf(stderr, "%s\n", lua_tostring(L, -1));
            exit(1);
        }
        lua_getfield(L, -1, "update");
        int fn = lua_gettop(L);
        for (int i = 0; i < 10; i++) {
            lua_pushvalue(L, fn);
            lua_pcall(L, 0, 0, 0);
        }
        double t0 = cpu_now();
        for (int i = 0; i < ticks; i++) {
            lua_pushvalue(L, fn);
            lua_pushnil(L);
            lua_pushnumber(L, 1.0 / 60);
            lua_pcall(L, 2, 0, 0);
        }
        t[r] = (cpu_now() - t0) * 1e3;
        lua_close(L);
    }
    return bench_median(t, ROUNDS);
}

// string.find with a pattern, in a plain state and in a mod's sandbox.
static double pattern_us(int sandboxed)
{
    static const char code[] = "local s = string.rep('the quick brown fox jumps over the lazy dog ', 200)\n"
                               "local n = 0\n"
                               "for i = 1, 200 do\n"
                               "  for w in s:gmatch('%a+') do n = n + #w end\n"
                               "  n = n + #s:gsub('(%w+) (%w+)', '%2 %1')\n"
                               "  n = n + (s:find('lazy%s+cat') or 0)\n"
                               "end\n"
                               "return n\n";
    double t0 = 0, t1 = 0;
    if (!sandboxed) {
        lua_State *L = luaL_newstate();
        luaL_openlibs(L);
        luaL_loadstring(L, code);
        t0 = cpu_now();
        lua_pcall(L, 0, 1, 0);
        t1 = cpu_now();
        lua_close(L);
    } else {
        // as a mod: the chunk runs at load, inside the sandbox
        const char *path = "/tmp/steer-bench-patterns.lua";
        FILE *f = fopen(path, "w");
        fprintf(f, "local function run()\n%send\nrun()\nreturn {}\n", code);
        fclose(f);
        char scenario[1024];
        snprintf(scenario, sizeof scenario, "%s/scenario.lua", BENCH_MODS_DIR);
        steer_Engine *e;
        steer_engine_new(NULL, &e);
        steer_engine_load(e, scenario);
        steer_ModLimits lim = { .call_ms = 10000 };
        // the chunk's result is not a table: time the load anyway
        t0 = cpu_now();
        steer_engine_load_mod(e, path, &lim, NULL);
        t1 = cpu_now();
        steer_engine_free(e);
        remove(path);
    }
    return (t1 - t0) * 1e6 / 200;
}

// ---- think calls: a scenario's against a mod's (issue 20) ----------------------

#define THINKERS 1000
#define THINK_TICKS 200

// A file in /tmp with `text`; its path.
static const char *temp_file(const char *name, const char *text)
{
    static char path[2][256];
    static int k;
    char *p = path[k++ & 1];
    snprintf(p, sizeof path[0], "/tmp/steer-bench-%s-%d.lua", name, (int)getpid());
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    return p;
}

// Median CPU time (ms) of THINK_TICKS ticks of THINKERS agents that think
// at 60 Hz (or, without `think`, do not), spawned by the scenario or by a mod.
static double thinkers_ms(bool in_mod, bool think)
{
    char spawn[512];
    snprintf(spawn, sizeof spawn,
             "for i = 1, %d do w:spawn{ position = { i %% 100, i // 100 }, max_speed = 2, max_force = 4%s } end",
             THINKERS, think ? ", think = think, think_hz = 60" : "");
    static const char think_fn[] = "local function think(a, dt) local x, y = a:xy() SUM = (SUM or 0) + x + y end\n";
    char scn[1024], mod[1024];
    snprintf(scn, sizeof scn, "%sreturn { world = { size = { 100, 100 }, seed = 5 }, setup = function(w) %s end }\n",
             think_fn, in_mod ? "" : spawn);
    snprintf(mod, sizeof mod, "%sreturn { setup = function(w) %s end }\n", think_fn, spawn);
    const char *scn_path = temp_file("think-scn", scn), *mod_path = in_mod ? temp_file("think-mod", mod) : NULL;
    double t[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        steer_Engine *e;
        steer_engine_new(NULL, &e);
        steer_ModLimits lim = { .call_ms = 1000, .agents = THINKERS };
        if (steer_engine_load(e, scn_path) != STEER_OK ||
            (mod_path && steer_engine_load_mod(e, mod_path, &lim, NULL) != STEER_OK)) {
            fprintf(stderr, "%s\n", steer_engine_error(e));
            exit(1);
        }
        steer_engine_tick(e, 10);
        double t0 = cpu_now();
        steer_engine_tick(e, THINK_TICKS);
        t[r] = (cpu_now() - t0) * 1e3;
        steer_engine_free(e);
    }
    remove(scn_path);
    if (mod_path) remove(mod_path);
    return bench_median(t, ROUNDS);
}

int main(int argc, char **argv)
{
    bool calls_only = argc > 1 && strcmp(argv[1], "--calls") == 0;
    const char *dir = argc > 1 + calls_only ? argv[1 + calls_only] : BENCH_MODS_DIR;
    printf("steer-bench-mods: median of %d rounds of %d ticks\n", ROUNDS, TICKS);
    enum { CALL_TICKS = 100000 };
    double none = engine_ms(dir, "empty", NO_MOD, CALL_TICKS), idle = engine_ms(dir, "empty", 0, CALL_TICKS);
    printf("  fixed cost per call into a mod %6.3f us (an empty world, a mod with an empty update:\n"
           "                                 2 calls per tick, events and messages, then update)\n",
           (idle - none) / CALL_TICKS * 1e3 / 2);
    if (!calls_only) {
        double base = engine_ms(dir, "scenario", NO_MOD, TICKS);
        printf("  engine without mods          %8.3f ms per tick (200 wanderers)\n", base / TICKS);
        double loop_plain = plain_ms(dir, BARE_LOOP, LOOP_TICKS);
        double loop_mod = engine_ms(dir, "scenario", BARE_LOOP, LOOP_TICKS) - base / TICKS * LOOP_TICKS;
        printf("  a bare loop: plain Lua %6.3f ns per instruction, as a mod %6.3f ns, overhead %+5.1f%%\n",
               loop_plain / LOOP_TICKS / (2.0 * LOOP) * 1e6, loop_mod / LOOP_TICKS / (2.0 * LOOP) * 1e6,
               (loop_mod - loop_plain) / loop_plain * 100);
        static const int works[] = { 2000, 20000, 200000 };
        for (int i = 0; i < 3; i++) {
            double plain = plain_ms(dir, works[i], TICKS);
            double mod = engine_ms(dir, "scenario", works[i], TICKS) - base;
            printf("  work %6d: plain Lua %8.3f ms/tick, as a mod %8.3f ms/tick, overhead %+5.1f%%\n", works[i],
                   plain / TICKS, mod / TICKS, (mod - plain) / plain * 100);
        }
        printf("  patterns (gmatch, gsub, find on 8.8 kB): Lua's %.0f us, the sandbox's step-counting %.0f us\n",
               pattern_us(0), pattern_us(1));
    }
    // interleaved, so that the machine's drift hits both alike
    double calls = (double)THINKERS * THINK_TICKS, scn = 0, mod = 0;
    double s[ROUNDS], m[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        s[r] = (thinkers_ms(false, true) - thinkers_ms(false, false)) / calls * 1e3;
        m[r] = (thinkers_ms(true, true) - thinkers_ms(true, false)) / calls * 1e3;
    }
    scn = bench_median(s, ROUNDS);
    mod = bench_median(m, ROUNDS);
    printf("  a think call (%d agents at 60 Hz, a:xy() and a sum): the scenario's %.3f us, a mod's %.3f us (%.2fx)\n",
           THINKERS, scn, mod, mod / scn);
    return 0;
}
