// SPDX-License-Identifier: MIT
// embed.c — a small game that embeds steer as its modding layer.
//
// The game owns the loop. It defines one behaviour in C ("fence": keep
// inside the pasture), loads its scenario, loads every mod it finds in its
// mods folder with limits, ticks, reads all agents' states in one call to
// "render" them (here: a text summary), and listens to events. A mod that
// misbehaves is disabled and reported; the game goes on.
//
//   embed [--ticks N] [--mods DIR] [--strict] [--view] [--screenshot OUT.png] [SCENARIO]
//
// --strict exits with status 1 if any mod was disabled (the tests use it).
// --view shows the world in steer's viewer while the game's loop runs, and
// --screenshot writes the last frame as a PNG (both only when the demo is
// built in steer's tree with the viewer: it is not part of the installed API).
//
// Built against the installed library, it is compiled with
//   cc embed.c $(pkg-config --cflags --libs steer)
#include <steer.h>
#include <steer_engine.h>
#ifdef STEER_VIEWER
#include "view.h"
#endif

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EMBED_DIR
#define EMBED_DIR "."
#endif

// ---- the game's own behaviour -------------------------------------------------

typedef struct Pasture {
    double w, h;
} Pasture;

// Push back from the pasture's edges, harder the closer an agent is.
static void fence(void *ud, const steer_HostCtx *c, double f[3])
{
    const Pasture *p = ud;
    double margin = c->params[0];
    double lo[2] = { 0, 0 }, hi[2] = { p->w, p->h };
    for (int i = 0; i < 2; i++) {
        double in_lo = c->position[i] - lo[i], in_hi = hi[i] - c->position[i];
        if (in_lo < margin) f[i] += c->max_force * (1 - in_lo / margin);
        if (in_hi < margin) f[i] -= c->max_force * (1 - in_hi / margin);
    }
}

// ---- the game's log and events ------------------------------------------------------

static void game_log(void *ud, int level, const char *msg)
{
    (void)ud;
    static const char *const names[] = { "info", "warning", "error" };
    printf("[game %s] %s\n", names[level < 0 || level > 2 ? 2 : level], msg);
}

static void on_event(void *ud, const steer_Event *ev)
{
    long *collisions = ud;
    if (ev->type == STEER_EVENT_COLLIDE) (*collisions)++;
}

#ifdef STEER_VIEWER
// The viewer drives ticks through these: the game's engine does the work.
static int view_tick(void *ud) { return steer_engine_tick(ud, 1) == STEER_OK; }
static void view_reload(void *ud) { steer_engine_reload(ud); }
static const char *view_error(void *ud)
{
    const char *e = steer_engine_error(ud);
    return e[0] ? e : NULL;
}
#endif

int main(int argc, char **argv)
{
    long ticks = 600;
    int strict = 0, view = 0;
    const char *shot = NULL;
    const char *mods = EMBED_DIR "/mods", *scenario = EMBED_DIR "/scenario.lua";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ticks") == 0 && i + 1 < argc) ticks = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--mods") == 0 && i + 1 < argc) mods = argv[++i];
        else if (strcmp(argv[i], "--strict") == 0) strict = 1;
        else if (strcmp(argv[i], "--view") == 0) view = 1;
        else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) shot = argv[++i];
        else if (argv[i][0] != '-') scenario = argv[i];
        else {
            fprintf(stderr,
                    "usage: embed [--ticks N] [--mods DIR] [--strict] [--view] [--screenshot OUT.png] [SCENARIO]\n");
            return 2;
        }
    }

    steer_EngineDesc desc = { .log = game_log };
    steer_Engine *e;
    if (steer_engine_new(&desc, &e) != STEER_OK) return 1;

    Pasture pasture = { 120, 80 };
    static const char *const params[] = { "margin", NULL };
    static const double defaults[] = { 5 };
    steer_HostBehaviorDesc fence_desc = {
        .name = "fence", .params = params, .defaults = defaults, .fn = fence, .ud = &pasture
    };
    if (steer_engine_register_behavior(e, &fence_desc) != STEER_OK || steer_engine_load(e, scenario) != STEER_OK) {
        fprintf(stderr, "embed: %s\n", steer_engine_error(e));
        steer_engine_free(e);
        return 1;
    }
    long collisions = 0;
    steer_engine_subscribe(e, on_event, &collisions);

    // every mod in the folder: a NAME.lua file or a NAME/ directory
    DIR *d = opendir(mods);
    struct dirent *ent;
    while (d && (ent = readdir(d))) {
        if (ent->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", mods, ent->d_name);
        steer_ModLimits limits = { .memory = 8u << 20, .call_ms = 10, .agents = 200, .prints = 2 };
        if (steer_engine_load_mod(e, path, &limits, NULL) != STEER_OK)
            printf("[game] mod %s not loaded: %s\n", ent->d_name, steer_engine_error(e));
    }
    if (d) closedir(d);

#ifdef STEER_VIEWER
    if (view || shot) {
        steerV_Host host = { .ud = e, .tick = view_tick, .reload = view_reload, .error = view_error };
        steerV_Desc vd = { .title = "embed", .headless = !view };
        steerV_View *v = NULL;
        char err[256];
        if (steerV_open(&vd, steer_engine_world(e), &host, &v, err, sizeof err) != STEER_OK) {
            fprintf(stderr, "embed: no view (%s): running headless\n", err);
        } else if (view) {
            // the game's loop, with the viewer as its renderer: frames tick the engine
            while (steerV_frame(v) && (ticks <= 0 || (long)steer_world_tick(steer_engine_world(e)) < ticks))
                steer_engine_poll(e);
            ticks = 0;
        } else {
            steer_engine_tick(e, (int)ticks);
            ticks = 0;
        }
        if (v && shot && steerV_screenshot(v, shot, err, sizeof err) != 0) fprintf(stderr, "embed: %s\n", err);
        if (v) steerV_close(v);
    }
#else
    if (view || shot) fprintf(stderr, "embed: built without steer's viewer: running headless\n");
#endif

    // the game's loop: tick, then "render" from the states
    steer_AgentState *states = NULL;
    int cap = 0;
    for (long t = 0; t < ticks; t++) {
        if (steer_engine_tick(e, 1) != STEER_OK) {
            fprintf(stderr, "embed: %s\n", steer_engine_error(e));
            break;
        }
        int n = steer_engine_states(e, states, cap);
        if (n > cap) {
            cap = n * 2;
            states = realloc(states, (size_t)cap * sizeof *states);
            if (!states) return 1;
            n = steer_engine_states(e, states, cap);
        }
        if ((t + 1) % 300 == 0) {
            int inside = 0;
            for (int i = 0; i < n; i++)
                inside += states[i].position[0] >= 0 && states[i].position[0] <= pasture.w &&
                          states[i].position[1] >= 0 && states[i].position[1] <= pasture.h;
            printf("[game] tick %ld: %d agents, %d inside the pasture, %ld collisions so far\n", t + 1, n, inside,
                   collisions);
        }
    }
    int status = 0;
    for (int i = 0; i < steer_engine_mod_count(e); i++) {
        steer_ModInfo mi;
        steer_engine_mod_info(e, i, &mi);
        if (!mi.enabled && strict) status = 1;
        printf("[game] mod %s: %s%s, %.1f ms of CPU, %zu KiB of Lua\n", mi.name,
               mi.enabled ? "running" : "disabled: ", mi.reason, mi.cpu_ms, mi.memory / 1024);
    }
    free(states);
    steer_engine_free(e);
    return status;
}
