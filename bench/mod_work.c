// SPDX-License-Identifier: MIT
// steer-bench-mod-work: what a mod's agents cost the game's tick in the
// steer pass, with and without the mod's work cap (issue 29). Figures, not
// tests.
//
//   steer-bench-mod-work [DIR] [--ticks T]   DIR holds town.lua and orca.lua
//                                            (default: the source tree's bench/mods)
//
// The scenario is a town of 9,600 walls; the mod spawns 1000 agents steered
// by steer.reciprocal{ obstacle_horizon = 100 } at 10 m/s, whose shape
// queries each cover the whole town. The engine runs T ticks (default 10)
// twice: once with the mod's work cap out of reach (limits.work = LONG_MAX:
// the steer pass as it was, outside every budget) and once with the
// default cap. Each tick is timed alone (wall clock). Prints one line per
// run:
//   mod_work cap=off|default first_ms=X median_ms=X max_ms=X enabled=0|1
// first_ms: the first tick; median_ms, max_ms: over the T ticks; enabled:
// whether the mod still runs at the end (if not, its reason follows).
#include "steer.h"
#include "steer_engine.h"
#include "timing.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BENCH_MODS_DIR
#define BENCH_MODS_DIR "bench/mods"
#endif

static void quiet(void *ud, int level, const char *msg)
{
    (void)ud;
    (void)level;
    (void)msg;
}

static int run(const char *dir, int ticks, long cap)
{
    char path[1024];
    steer_EngineDesc d = { .log = quiet };
    steer_Engine *e;
    if (steer_engine_new(&d, &e) != STEER_OK) return 1;
    snprintf(path, sizeof path, "%s/town.lua", dir);
    if (steer_engine_load(e, path) != STEER_OK) {
        fprintf(stderr, "%s\n", steer_engine_error(e));
        steer_engine_free(e);
        return 1;
    }
    snprintf(path, sizeof path, "%s/orca.lua", dir);
    steer_ModLimits lim = { .work = cap };
    int id;
    if (steer_engine_load_mod(e, path, &lim, &id) != STEER_OK) {
        fprintf(stderr, "%s\n", steer_engine_error(e));
        steer_engine_free(e);
        return 1;
    }
    double *t = malloc(sizeof *t * (size_t)ticks);
    if (!t) return 1;
    for (int i = 0; i < ticks; i++) {
        double t0 = bench_now_ms();
        steer_engine_tick(e, 1);
        t[i] = bench_now_ms() - t0;
    }
    double first = t[0], most = 0;
    for (int i = 0; i < ticks; i++)
        if (t[i] > most) most = t[i];
    steer_ModInfo info;
    steer_engine_mod_info(e, id, &info);
    printf("mod_work cap=%s first_ms=%.1f median_ms=%.1f max_ms=%.1f enabled=%d\n", cap ? "off" : "default", first,
           bench_median(t, ticks), most, info.enabled);
    if (!info.enabled) printf("  reason: %s\n", info.reason);
    fflush(stdout);
    free(t);
    steer_engine_free(e);
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = BENCH_MODS_DIR;
    int ticks = 10;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ticks") && i + 1 < argc) ticks = atoi(argv[++i]);
        else dir = argv[i];
    }
    if (ticks < 1) {
        fprintf(stderr, "usage: steer-bench-mod-work [DIR] [--ticks T]\n");
        return 2;
    }
    return run(dir, ticks, LONG_MAX) || run(dir, ticks, 0);
}
