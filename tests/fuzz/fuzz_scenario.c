// SPDX-License-Identifier: MIT
// fuzz_scenario.c — libFuzzer: scenario files. The input is the text of a
// scenario (what a careless user saves), run by the engine: load, three
// ticks, a reload of the same text, a tick. Errors are expected; a crash,
// an abort (a Lua panic), a leak or a hang is not. The text runs with
// only the steer module and the pure libraries in its environment (no io,
// os or require: random text must not touch the machine), a cap on its
// memory and on the Lua instructions it runs.
#include "steer.h"
#include "steer_engine.h"
#include "steer_lua.h"

#include <lauxlib.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MEMORY_CAP (256u << 20)

static const char prologue[] =
    "local _ENV = { steer = require 'steer', setmetatable = setmetatable, getmetatable = getmetatable, "
    "error = error, pcall = pcall, coroutine = coroutine, pairs = pairs, ipairs = ipairs, next = next, "
    "math = math, string = string, table = table, type = type, tostring = tostring, tonumber = tonumber, "
    "select = select, rawget = rawget, rawset = rawset, print = function() end, "
    "require = function(n) if type(n) == 'string' and n:match('^steer') then return require(n) end "
    "error('fuzz_scenario: no module ' .. tostring(n)) end } ";

static size_t used;

static void *capped(void *ud, void *ptr, size_t size)
{
    (void)ud;
    // the size of a block is not passed back on free: keep it in front
    size_t old = 0;
    unsigned char *base = ptr ? (unsigned char *)ptr - 16 : NULL;
    if (base) memcpy(&old, base, sizeof old);
    if (size == 0) {
        free(base);
        used -= old;
        return NULL;
    }
    if (size > old && used + (size - old) > MEMORY_CAP) return NULL;
    unsigned char *p = realloc(base, size + 16);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    used = used - old + size;
    return p + 16;
}

static void quiet(void *ud, int level, const char *msg)
{
    (void)ud;
    (void)level;
    (void)msg;
}

static long budget;
static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if ((budget -= 1000) < 0) luaL_error(L, "fuzz_scenario: instruction budget spent");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return -1;
    char path[64];
    snprintf(path, sizeof path, "/tmp/steer-fuzz-scenario-%d.lua", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    fwrite(prologue, 1, sizeof prologue - 1, f);
    fwrite(data, 1, size, f);
    fclose(f);
    steer_EngineDesc desc = { .alloc = capped, .log = quiet };
    steer_Engine *e = NULL;
    if (steer_engine_new(&desc, &e) != STEER_OK) abort();
    lua_sethook(steer_engine_lua(e), count_hook, LUA_MASKCOUNT, 1000);
    budget = 20000000;
    if (steer_engine_load(e, path) == STEER_OK) {
        steer_engine_tick(e, 3);
        budget = 20000000;
        steer_engine_reload(e);
        steer_engine_tick(e, 1);
    }
    steer_engine_free(e);
    if (used != 0) {
        fprintf(stderr, "fuzz_scenario: %zu bytes still allocated after steer_engine_free\n", used);
        abort();
    }
    return 0;
}
