// SPDX-License-Identifier: MIT
// steer-bench-reload: how long a hot reload of a demo takes (the target:
// under 50 ms for the largest), measured through the engine exactly as
// `steer run` reloads on save: the whole transaction (the scenario and its
// modules compiled and run anew, reload(w), the swap, the archetypes'
// rebind on the next tick).
//
//   steer-bench-reload [DEMO.lua ...]   (default: every demo in demos/)
#include "steer.h"
#include "steer_engine.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DEMOS_DIR
#define DEMOS_DIR "demos"
#endif
#ifndef LUA_DIR
#define LUA_DIR "lua"
#endif

#define ROUNDS 9

static void quiet(void *ud, int level, const char *msg)
{
    (void)ud;
    if (level == 2) fprintf(stderr, "%s\n", msg);
}

static void bench(const char *file)
{
    steer_EngineDesc d = { .log = quiet, .lua_path = LUA_DIR "/?.lua;" LUA_DIR "/?/init.lua" };
    steer_Engine *e;
    if (steer_engine_new(&d, &e) != STEER_OK) return;
    if (steer_engine_load(e, file) != STEER_OK || steer_engine_tick(e, 60) != STEER_OK) {
        fprintf(stderr, "%s: %s\n", file, steer_engine_error(e));
        steer_engine_free(e);
        return;
    }
    double reload[ROUNDS], rebind[ROUNDS], tick[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = bench_now();
        steer_engine_tick(e, 1);
        double t1 = bench_now();
        if (steer_engine_reload(e) != STEER_OK) {
            fprintf(stderr, "%s: %s\n", file, steer_engine_error(e));
            break;
        }
        double t2 = bench_now();
        steer_engine_tick(e, 1); // the archetypes rebind on this one
        double t3 = bench_now();
        tick[r] = (t1 - t0) * 1e3;
        reload[r] = (t2 - t1) * 1e3;
        rebind[r] = (t3 - t2) * 1e3 - tick[r];
    }
    double reload_ms = bench_median(reload, ROUNDS), rebind_ms = bench_median(rebind, ROUNDS),
           tick_ms = bench_median(tick, ROUNDS);
    const char *base = strrchr(file, '/');
    printf("  %-20s %6d agents  reload %7.2f ms  + rebind %6.2f ms  (a tick: %.2f ms)\n", base ? base + 1 : file,
           steer_world_count(steer_engine_world(e)), reload_ms, rebind_ms > 0 ? rebind_ms : 0, tick_ms);
    steer_engine_free(e);
}

int main(int argc, char **argv)
{
    printf("steer-bench-reload: median of %d reloads, after 60 ticks\n", ROUNDS);
    if (argc > 1) {
        for (int i = 1; i < argc; i++) bench(argv[i]);
        return 0;
    }
    static const char *const demos[] = { "flock",   "arrive",       "pursuit",       "patrol",     "crowd",
                                         "gallery", "zombie_horde", "directed_seek", "dogfighter", NULL };
    for (int i = 0; demos[i]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.lua", DEMOS_DIR, demos[i]);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        fclose(f);
        bench(path);
    }
    return 0;
}
