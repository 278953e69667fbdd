// SPDX-License-Identifier: MIT
// steer-bench-mods: what running Lua as a sandboxed mod costs over running
// the same Lua in a plain state (the bound: at most 5% of the mod's own run
// time), the fixed cost per call into a mod, and the sandbox's
// step-counting pattern matcher against Lua's own.
//
//   steer-bench-mods [DIR]   DIR holds scenario.lua and work.lua
//                            (default: the source tree's bench/mods)
#include "steer.h"
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

// The work mod's text with WORK set.
static const char *work_mod(const char *dir, int work)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/work.lua", dir);
    char *text = slurp(path);
    static char out[1 << 16];
    snprintf(out, sizeof out, "local WORK = %d\n%s", work, text);
    free(text);
    return out;
}

// Median time (ms) of TICKS engine ticks, with the work mod when work >= 0.
static double engine_ms(const char *dir, const char *scn, int work, int ticks)
{
    double t[ROUNDS];
    char scenario[1024], mod[1024];
    snprintf(scenario, sizeof scenario, "%s/%s.lua", dir, scn);
    snprintf(mod, sizeof mod, "/tmp/steer-bench-work-%d.lua", (int)getpid());
    if (work >= 0) {
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
        if (work >= 0 && steer_engine_load_mod(e, mod, &lim, NULL) != STEER_OK) {
            fprintf(stderr, "%s\n", steer_engine_error(e));
            exit(1);
        }
        steer_engine_tick(e, 10); // warm up
        double t0 = bench_now();
        steer_engine_tick(e, ticks);
        t[r] = (bench_now() - t0) * 1e3;
        steer_engine_free(e);
    }
    remove(mod);
    return bench_median(t, ROUNDS);
}

// The same update function called TICKS times in a plain Lua state.
static double plain_ms(const char *dir, int work)
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
        double t0 = bench_now();
        for (int i = 0; i < TICKS; i++) {
            lua_pushvalue(L, fn);
            lua_pushnil(L);
            lua_pushnumber(L, 1.0 / 60);
            lua_pcall(L, 2, 0, 0);
        }
        t[r] = (bench_now() - t0) * 1e3;
        lua_close(L);
    }
    return bench_median(t, ROUNDS);
}

// string.find with a pattern, in a plain state and in a mod's sandbox.
static double pattern_us(int sandboxed)
{
    static const char code[] =
        "local s = string.rep('the quick brown fox jumps over the lazy dog ', 200)\n"
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
        t0 = bench_now();
        lua_pcall(L, 0, 1, 0);
        t1 = bench_now();
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
        t0 = bench_now();
        steer_engine_load_mod(e, path, &lim, NULL);
        t1 = bench_now();
        steer_engine_free(e);
        remove(path);
    }
    return (t1 - t0) * 1e6 / 200;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : BENCH_MODS_DIR;
    printf("steer-bench-mods: median of %d rounds of %d ticks\n", ROUNDS, TICKS);
    enum { CALL_TICKS = 100000 };
    double none = engine_ms(dir, "empty", -1, CALL_TICKS), idle = engine_ms(dir, "empty", 0, CALL_TICKS);
    printf("  fixed cost per call into a mod %6.3f us (an empty world, a mod with an empty update:\n"
           "                                 2 calls per tick, events and messages, then update)\n",
           (idle - none) / CALL_TICKS * 1e3 / 2);
    double base = engine_ms(dir, "scenario", -1, TICKS);
    printf("  engine without mods          %8.3f ms per tick (200 wanderers)\n", base / TICKS);
    static const int works[] = { 2000, 20000, 200000 };
    for (int i = 0; i < 3; i++) {
        double plain = plain_ms(dir, works[i]);
        double mod = engine_ms(dir, "scenario", works[i], TICKS) - base;
        printf("  work %6d: plain Lua %8.3f ms/tick, as a mod %8.3f ms/tick, overhead %+5.1f%%\n", works[i],
               plain / TICKS, mod / TICKS, (mod - plain) / plain * 100);
    }
    printf("  patterns (gmatch, gsub, find on 8.8 kB): Lua's %.0f us, the sandbox's step-counting %.0f us\n",
           pattern_us(0), pattern_us(1));
    return 0;
}
