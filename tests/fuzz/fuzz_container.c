// SPDX-License-Identifier: MIT
// fuzz_container.c — libFuzzer: an engine's snapshot (steer_engine_save's
// container: the world, the scenario's data, each mod's data, agents and
// inbox) restored through the engine's own path, steer_engine_restore,
// into a running engine with a scenario and two mods. Each input is
// restored as it is (the container has no checksum of its own, so a
// mutation of a mod's or the scenario's section reaches their checks) and
// again with the world section's two checksums fixed up, so the world's
// loader sees its mutations too. A refusal (STEER_EARG: the container is
// checked before anything changes) must say why and leave the world and
// the mods as they were; a restore that succeeds must tick and save, and
// the engine's setup state must restore over it again. A
// crash, a leak, a Lua panic or a broken promise aborts. The corpus
// (tests/fuzz/corpus/container) holds this harness's own saves, written
// by running it with STEER_FUZZ_CONTAINER_SEEDS=DIR.
#include "steer.h"
#include "steer_engine.h"
#include "../c/snapshot_util.h"
#include "../c/buf.h"
#include "core/bytes.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

// The scenario: walkers from an archetype with a.data, shared tables in
// its own data, a load that takes any plain data.
static const char scenario[] =
    "local steer = require 'steer'\n"
    "local walker = steer.archetype{ name = 'walker', vehicle = { max_speed = 3, max_force = 8 },\n"
    "                                brain = steer.wander{} }\n"
    "local S = { ticks = 0 }\n"
    "return {\n"
    "  world = { size = { 100, 100 }, seed = 5 },\n"
    "  setup = function(w)\n"
    "    for i = 1, 6 do w:spawn(walker, { position = { 12 * i, 50 } }).data.n = i end\n"
    "    w:spawn{ position = { 5, 5 }, brain = steer.seek{}, target = { 90, 90 } }\n"
    "  end,\n"
    "  update = function(w) S.ticks = S.ticks + 1 end,\n"
    "  save = function(w) local t = { ticks = S.ticks }; t.self = t; return t end,\n"
    "  load = function(w, d) S.ticks = type(d) == 'table' and tonumber(d.ticks) or 0 end,\n"
    "}\n";

// Two mods: the herder's agents, data and the echo's replies waiting in its inbox.
static const char herder[] =
    "local t, last = 0, 0\n"
    "return {\n"
    "  setup = function(w)\n"
    "    for i = 1, 3 do w:spawn{ position = { 20 * i, 60 }, tag = 'herd', brain = steer.seek{} } end\n"
    "  end,\n"
    "  on_message = function(from, n) if type(n) == 'number' then last = n end end,\n"
    "  update = function(w)\n"
    "    t = t + 1\n"
    "    for a in w:agents('herd') do pcall(function() a.target = { 50 + (t + last) % 7, 50 } end) end\n"
    "    steer.send('echo', { t = t, list = { 1, 2, 'x' } })\n"
    "  end,\n"
    "  save = function() local s = { t = t, last = last }; s.me = s; return s end,\n"
    "  load = function(d) if type(d) == 'table' then t = tonumber(d.t) or 0; last = tonumber(d.last) or 0 end end,\n"
    "}\n";
static const char echo[] = "local got = 0\n"
                           "return {\n"
                           "  on_message = function(from, m) if type(m) == 'table' then got = m.t end end,\n"
                           "  update = function() steer.send('herder', got) end,\n"
                           "  save = function() return { got = got } end,\n"
                           "  load = function(d) if type(d) == 'table' then got = d.got end end,\n"
                           "}\n";

static char dir[128];

static void quiet(void *ud, int level, const char *msg)
{
    (void)ud;
    (void)level;
    (void)msg;
}

static void write_text(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) abort();
}

static const char *path_of(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

// The engine the inputs are restored into: the scenario, its mods, two ticks.
static steer_Engine *running(void)
{
    steer_EngineDesc d = { .log = quiet };
    steer_Engine *e = NULL;
    if (steer_engine_new(&d, &e) != STEER_OK || steer_engine_load(e, path_of("scenario.lua")) != STEER_OK) abort();
    steer_ModLimits lim = { .agents = 8, .call_ms = 1000 }; // generous: a slow sanitizer build is no finding
    if (steer_engine_load_mod(e, path_of("herder.lua"), &lim, NULL) != STEER_OK ||
        steer_engine_load_mod(e, path_of("echo.lua"), &lim, NULL) != STEER_OK || steer_engine_tick(e, 2) != STEER_OK)
        abort();
    return e;
}

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put_le(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

// The world section's checksums recomputed in place: the core's snapshot
// (fix_checksum) and the Lua section's (lsnapshot.c: "STEERLUA", u32, u64
// n, n core bytes, u64 m, m bytes, u64 checksum of m and the section).
// Nothing when the container's first section does not parse as one.
static void fix_world(unsigned char *b, size_t len)
{
    if (len < 16 + 10 || memcmp(b, "STEERENG", 8) != 0 || b[16] != 1) return;
    size_t nl = b[17], at = 18 + nl;
    if (at + 8 > len) return;
    uint64_t wl = le(b + at, 8);
    unsigned char *w = b + at + 8;
    if (wl > len - at - 8 || wl < 20 + 16 || memcmp(w, "STEERLUA", 8) != 0) return;
    uint64_t ncore = le(w + 12, 8);
    if (ncore > wl - 20 - 16) return;
    if (ncore >= 24) fix_checksum(w + 20, (size_t)ncore);
    unsigned char *lua = w + 20 + ncore;
    uint64_t m = le(lua, 8);
    if (m > wl - 20 - ncore - 16) return;
    put_le(lua + 8 + m, steerS_checksum(lua, 8 + (size_t)m));
}

// The running engine and its snapshot from just after its setup: every
// input starts from that state. A new engine per input would cost 15 ms
// (closing its inotify descriptor); restoring the baseline costs 0.3.
static steer_Engine *engine;
static Buf baseline;

static bool all_mods_enabled(steer_Engine *e)
{
    for (int i = 0; i < steer_engine_mod_count(e); i++) {
        steer_ModInfo mi;
        if (steer_engine_mod_info(e, i, &mi) != STEER_OK || !mi.enabled) return false;
    }
    return true;
}

// A broken promise: say which, with the engine's last error, and abort.
static void broken(const char *what, steer_Engine *e)
{
    fprintf(stderr, "fuzz_container: %s (the engine's error: %s)\n", what, steer_engine_error(e));
    abort();
}

static void try_restore(const unsigned char *b, size_t len)
{
    if (!engine) {
        engine = running();
        if (!baseline.p && steer_engine_save(engine, buf_write, &baseline) != STEER_OK) abort();
    }
    steer_Engine *e = engine;
    steer_World *w = steer_engine_world(e);
    uint64_t hash = steer_world_hash(w), tick = steer_world_tick(w);
    int st = steer_engine_restore(e, b, len);
    if (st != STEER_OK && !steer_engine_error(e)[0]) broken("a refusal that says nothing", e);
    // checked before anything changed: the world and the mods as they were
    if (st == STEER_EARG && (steer_engine_world(e) != w || steer_world_hash(w) != hash || steer_world_tick(w) != tick ||
                             !all_mods_enabled(e)))
        broken("a refused container changed the world or a mod", e);
    if (st == STEER_OK) {
        if (steer_engine_tick(e, 3) != STEER_OK) broken("a restored engine does not tick", e);
        Buf again = { 0 };
        if (steer_engine_save(e, buf_write, &again) != STEER_OK && !steer_engine_error(e)[0])
            broken("a failed save that says nothing", e);
        free(again.p);
    }
    // back to the baseline, or a new engine when a mod is gone
    if (!all_mods_enabled(e) || steer_engine_restore(e, baseline.p, baseline.len) != STEER_OK) {
        steer_engine_free(e);
        engine = NULL;
    }
}

// STEER_FUZZ_CONTAINER_SEEDS=DIR: the engine's own saves at ticks 2, 5 and
// 40 into DIR (the committed corpus), then on as usual.
static void write_seeds(const char *to)
{
    steer_Engine *e = running();
    static const int ticks[] = { 0, 3, 35 };
    for (int i = 0; i < 3; i++) {
        Buf b = { 0 };
        if (steer_engine_tick(e, ticks[i]) != STEER_OK || steer_engine_save(e, buf_write, &b) != STEER_OK) abort();
        char path[512];
        snprintf(path, sizeof path, "%s/save-%d.steer", to, i);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f) != 0) abort();
        free(b.p);
    }
    steer_engine_free(e);
}

static void clean_up(void)
{
    steer_engine_free(engine);
    engine = NULL;
    free(baseline.p);
    static const char *const files[] = { "scenario.lua", "herder.lua", "echo.lua" };
    for (int i = 0; i < 3; i++) remove(path_of(files[i]));
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    (void)hooks; // snapshot_util.h's world hooks: only its fix_checksum is used here
    (void)orbit_register;
    snprintf(dir, sizeof dir, "/tmp/steer-fuzz-container-%d", (int)getpid());
    mkdir(dir, 0700);
    write_text("scenario.lua", scenario);
    write_text("herder.lua", herder);
    write_text("echo.lua", echo);
    atexit(clean_up);
    const char *seeds = getenv("STEER_FUZZ_CONTAINER_SEEDS");
    if (seeds) write_seeds(seeds);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return -1;
    try_restore(data, size);
    unsigned char *c = malloc(size ? size : 1);
    if (!c) return 0;
    memcpy(c, data, size);
    fix_world(c, size);
    if (size && memcmp(c, data, size) != 0) try_restore(c, size);
    free(c);
    return 0;
}
