// SPDX-License-Identifier: MIT
// main.c — the `steer` program: runs a scenario (a Lua file returning a
// table of callbacks) through the engine (steer_engine_*, the same API a
// game embeds), either N ticks as fast as possible with a summary, or in
// real time until interrupted, reloading the scenario and every module it
// required when one is saved; with mods when asked (--mod).
//
// Invariants: a script error never crashes the program: the engine turns
// it into `steer: FILE:LINE: MESSAGE` (with a traceback) and exit status 1.
// Bad usage exits with 2. The world outlives reloads: a reload is the
// engine's transaction, which keeps the last good version on failure.
// With the viewer built (src/view, SDL2), a run without --headless opens a
// window; there a script error stops the simulation and shows over the
// world instead of ending the program, until a reload fixes it. A headless
// run in real time (no --ticks) does the same, the error on stderr.
#include "steer.h"
#include "steer_engine.h"
#include "steer_lua.h"
#ifdef STEER_VIEWER
#include "view.h"
#endif
#include "../core/os.h"

#include <lua.h>

#include <errno.h>
#include <signal.h> // sig_atomic_t
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Exit statuses: 1 for a failing scenario, 2 for bad usage.
enum { EXIT_SCRIPT = 1, EXIT_USAGE = 2 };

// Further behind the real-time schedule than this, the schedule restarts
// from now instead of running ticks back to back to catch up.
#define MAX_LAG 0.25
#define MAX_MODS 32

static const char usage_text[] = "usage: steer COMMAND [OPTIONS]\n"
                                 "\n"
                                 "commands:\n"
                                 "  run [OPTIONS] FILE.lua   run a scenario (a Lua file returning a table of\n"
                                 "                           callbacks: world, setup, update, draw, reload, on_key)\n"
                                 "\n"
                                 "options of run:\n"
                                 "  --headless               no window (without a display, a run falls back to\n"
                                 "                           headless: 600 ticks, a summary and a PNG)\n"
                                 "  --ticks N                stop after N ticks (headless: as fast as possible; in a\n"
                                 "                           window: at the first error too), print a summary;\n"
                                 "                           without it the scenario runs in real time until\n"
                                 "                           interrupted (Ctrl-C) and reloads FILE (and the modules\n"
                                 "                           it required) when one is saved; a script error\n"
                                 "                           stops the simulation until a save fixes it\n"
                                 "  --seed S                 override the scenario's world seed (an integer)\n"
                                 "  --threads N              worker threads for the tick (1 to 64; same trajectory\n"
                                 "                           for any N); overrides the scenario's `threads`\n"
                                 "  --screenshot OUT.png     write the last frame (window or headless) as a PNG\n"
                                 "  --select N               open the inspector on the N-th agent spawned\n"
                                 "  --show LIST              start with these viewer toggles on (window or\n"
                                 "                           screenshot), comma-separated: grid (G: the\n"
                                 "                           scenario's grid cells), flow (L: flow-field arrows),\n"
                                 "                           vectors (V), trails (T), help (H), navmesh (N),\n"
                                 "                           context (X: the selected agent's context maps),\n"
                                 "                           formations (M: slots and anchors)\n"
                                 "  --mod PATH               run a mod (NAME.lua or a directory NAME/ with\n"
                                 "                           init.lua) in a sandbox; may be given several times\n"
                                 "  --load SNAPSHOT          start from a snapshot (saved with F5 or W in the\n"
                                 "                           viewer, or steer_engine_save) instead of setup: FILE\n"
                                 "                           defines the archetypes and callbacks, the snapshot\n"
                                 "                           the world, the scenario's and the mods' state\n"
                                 "  --save SNAPSHOT          at the end of the run (--ticks N), save a snapshot\n"
                                 "  --rewind-to T            with --headless --ticks N: run N ticks keeping the\n"
                                 "                           viewer's ring of snapshots, rewind to the one at or\n"
                                 "                           before T seconds, run on to N again and check that\n"
                                 "                           the hash is the uninterrupted run's (exit 1 if not)\n"
                                 "\n"
                                 "  -h, --help               show this text\n"
                                 "  --version                show the version\n"
                                 "\n"
                                 "exit status: 0 success, 1 scenario error, 2 bad usage\n";

// ---- signals -------------------------------------------------------------

static volatile sig_atomic_t interrupted = 0;

// The first Ctrl-C asks the run to stop after the current tick; the handler
// resets itself (SA_RESETHAND), so a second one kills a runaway script.
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void catch_signals(void) { steerY_on_interrupt(on_signal); }

// ---- time ------------------------------------------------------------------

static double now(void) { return steerY_now(); }

// EINTR is fine: the loop checks `interrupted`
static void sleep_for(double seconds) { steerY_sleep(seconds); }

// ---- the scenario ------------------------------------------------------------

typedef struct Run {
    steer_Engine *e;
    const char *file;
    double dt;
    long long ticks;  // ticks run by the loop so far
    char error[4096]; // in a window: the error shown over the world, "" when none
} Run;

// A failure of the engine: its message with the traceback, on stderr.
static void report(Run *r) { fprintf(stderr, "steer: %s\n", steer_engine_traceback(r->e)); }

static int tick(Run *r)
{
    if (steer_engine_tick(r->e, 1) != STEER_OK) return 0;
    r->ticks++;
    return 1;
}

static void summary(Run *r, double ms)
{
    steer_World *w = steer_engine_world(r->e);
    printf("steer: %s ran %lld ticks (%.2f s simulated) in %.1f ms, %d agents, hash %016llx\n", r->file, r->ticks,
           (double)r->ticks * r->dt, ms, steer_world_count(w), (unsigned long long)steer_world_hash(w));
    fflush(stdout);
}

// Run the loop: `ticks` >= 0 as fast as possible, < 0 in real time,
// reloading when a watched file is saved. In real time a script error does
// what it does in the window: it is reported and the simulation stops, and
// the run waits for a save that reloads (the next tick runs the fixed
// version). Returns the exit status: 1 when ended by an error, or, in real
// time, interrupted while stopped by one.
static int loop(Run *r, long long ticks)
{
    double start = now();
    bool stopped = false; // real time: a tick failed, no reload since
    if (ticks >= 0) {
        while (r->ticks < ticks && !interrupted)
            if (!tick(r)) return EXIT_SCRIPT;
    } else {
        double next = start;
        while (!interrupted) {
            if (!stopped && !tick(r)) {
                report(r);
                fprintf(stderr, "steer: stopped at tick %llu; save a fix to %s to go on (Ctrl-C ends the run)\n",
                        (unsigned long long)steer_world_tick(steer_engine_world(r->e)), r->file);
                stopped = true;
            }
            // logs "reload ok" or "reload failed" itself
            if (steer_engine_poll(r->e) == 1 && stopped) {
                stopped = false;
                fprintf(stderr, "steer: running again\n");
            }
            next += r->dt;
            double t = now();
            if (t - next > MAX_LAG) next = t;
            if (!interrupted) sleep_for(next - t);
        }
    }
    summary(r, (now() - start) * 1e3);
    return stopped ? EXIT_SCRIPT : EXIT_SUCCESS;
}

// ---- the viewer ----------------------------------------------------------------
typedef struct Options {
    long long ticks; // < 0: real time
    bool headless;
    const char *screenshot; // or NULL
    int has_seed;
    long long seed;
    int threads; // 0: the scenario's choice
    const char *mods[MAX_MODS];
    int nmods;
    long long select; // > 0: inspect the select-th agent spawned
    const char *show; // the viewer's toggles to start with, or NULL
    const char *load; // a snapshot to start from, or NULL
    const char *save; // where to save one at the end, or NULL
    double rewind_to; // < 0: none
} Options;

#ifdef STEER_VIEWER

// Ticks of a run that falls back to headless for want of a display.
#define FALLBACK_TICKS 600

// The engine's last error (with its traceback) becomes the overlay's text
// and goes to stderr once.
static void set_error(Run *r)
{
    snprintf(r->error, sizeof r->error, "%s", steer_engine_traceback(r->e));
    fprintf(stderr, "steer: %s\n", r->error);
}

static int host_tick(void *ud)
{
    Run *r = ud;
    int ok = tick(r);
    if (!ok) set_error(r);
    return ok;
}

// R, or a save: the engine's reload; its outcome is what the overlay shows.
static void host_reload(void *ud)
{
    Run *r = ud;
    if (steer_engine_reload(r->e) == STEER_OK) r->error[0] = '\0';
    else snprintf(r->error, sizeof r->error, "reload failed: %s", steer_engine_traceback(r->e));
}

static void host_draw(void *ud, steer_DrawList *d)
{
    Run *r = ud;
    lua_State *L = steer_engine_lua(r->e);
    steer_lua_pushdraw(L, d);
    if (!steer_engine_push_scenario(r->e)) {
        lua_pop(L, 1);
        return;
    }
    lua_remove(L, -2); // d, w
    if (steer_engine_call(r->e, "draw", 2) != STEER_OK) set_error(r);
}

static void host_key(void *ud, const char *name)
{
    Run *r = ud;
    lua_State *L = steer_engine_lua(r->e);
    if (r->error[0] || !steer_engine_push_scenario(r->e)) return;
    lua_remove(L, -2); // w
    lua_pushstring(L, name);
    if (steer_engine_call(r->e, "on_key", 2) != STEER_OK) set_error(r);
}

static void host_mouse(void *ud, const double *pos)
{
    Run *r = ud;
    lua_State *L = steer_engine_lua(r->e);
    if (!steer_engine_push_scenario(r->e)) return;
    steer_lua_set_mouse(L, -1, pos);
    lua_pop(L, 2);
}

static const char *host_error(void *ud)
{
    Run *r = ud;
    return r->error[0] ? r->error : NULL;
}

// Rewind and F5: the engine's snapshot of the whole run.
static int host_save(void *ud, steer_WriteFn write, void *write_ud)
{
    Run *r = ud;
    if (steer_engine_save(r->e, write, write_ud) == STEER_OK) return 0;
    fprintf(stderr, "steer: snapshot: %s\n", steer_engine_error(r->e));
    return 1;
}

static int host_restore(void *ud, const unsigned char *bytes, size_t len, char *err, size_t errlen)
{
    Run *r = ud;
    if (steer_engine_restore(r->e, bytes, len) == STEER_OK) return 0;
    snprintf(err, errlen, "%s", steer_engine_error(r->e));
    return 1;
}

static const char *scenario_name(const char *file, char *buf, size_t len)
{
    const char *base = steerY_last_slash(file);
    snprintf(buf, len, "%s", base ? base + 1 : file);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = '\0';
    return buf;
}

static int open_view(Run *r, bool headless, const Options *o, steerV_View **v, char *err, size_t errlen)
{
    char name[128], shown[512];
    steerV_Desc desc = { .title = scenario_name(r->file, name, sizeof name), .headless = headless, .show = o->show };
    lua_State *L = steer_engine_lua(r->e);
    if (steer_engine_push_scenario(r->e)) {
        desc.nav = steer_lua_nav(L, -1); // the world's grids and fields, alive as long as the world
        // the scenario's `show`: toggles it starts with, and --show adds to them
        lua_pushliteral(L, "show"); // raw: an __index of the scenario's could raise outside any pcall
        lua_rawget(L, -3);
        char why[160];
        if (lua_type(L, -1) == LUA_TSTRING && !steerV_show_check(lua_tostring(L, -1), why, sizeof why)) {
            fprintf(stderr, "steer: %s: the scenario's show: %s\n", r->file, why);
        } else if (lua_type(L, -1) == LUA_TSTRING) {
            snprintf(shown, sizeof shown, "%s%s%s", lua_tostring(L, -1), o->show ? "," : "", o->show ? o->show : "");
            desc.show = shown;
        } else if (!lua_isnil(L, -1)) {
            fprintf(stderr, "steer: %s: the scenario's show: expected a string such as \"grid,flow\", got %s\n",
                    r->file, lua_typename(L, lua_type(L, -1)));
        }
        lua_pop(L, 3);
    }
    steerV_Host host = { .ud = r,
                         .tick = host_tick,
                         .reload = host_reload,
                         .draw = host_draw,
                         .key = host_key,
                         .mouse = host_mouse,
                         .error = host_error,
                         .save = host_save,
                         .restore = host_restore };
    steer_World *w = steer_engine_world(r->e);
    int st = steerV_open(&desc, w, &host, v, err, errlen);
    // --select N: the agent in slot N - 1, the N-th spawned while none was removed
    for (int i = 0; st == STEER_OK && o->select > 0 && i < steer_world_count(w); i++) {
        steer_Agent a = steer_world_agent_at(w, i);
        if ((uint32_t)a.id == (uint64_t)(o->select - 1)) steerV_select(*v, a);
    }
    return st;
}

static int write_screenshot(steerV_View *v, const char *path)
{
    char err[256];
    if (steerV_screenshot(v, path, err, sizeof err) != 0) {
        fprintf(stderr, "steer: --screenshot: %s\n", err);
        return 0;
    }
    fprintf(stderr, "steer: screenshot %s\n", path);
    return 1;
}

static int save_snapshot(Run *r, const char *path);

// A headless run of `ticks` ticks (and --save) with its last frame as a
// PNG, drawn by the software renderer; with ticks < 0, only the picture of
// a run already over. The ticks go through the view, as in a window, so
// that what it gathers tick by tick (trails, the rewind ring) is in the
// picture; a headless view frames the world at its first frame, the
// run's last. Returns the exit status.
static int headless_screenshot(Run *r, const Options *o, long long ticks)
{
    steerV_View *v;
    char err[256];
    if (open_view(r, true, o, &v, err, sizeof err) != STEER_OK) {
        fprintf(stderr, "steer: --screenshot: %s\n", err);
        return EXIT_SCRIPT;
    }
    int ok = 1;
    if (ticks >= 0) {
        double start = now();
        while (ok && r->ticks < ticks && !interrupted) ok = steerV_run(v, 1) == 1; // an error is reported
        if (ok) summary(r, (now() - start) * 1e3);
        ok = ok && (!o->save || save_snapshot(r, o->save));
    }
    ok = ok && write_screenshot(v, o->screenshot);
    steerV_close(v);
    if (r->error[0]) return EXIT_SCRIPT; // the scenario's tick or draw failed (already reported)
    return ok ? EXIT_SUCCESS : EXIT_SCRIPT;
}

// --rewind-to: `ticks` ticks through a headless view (its ring keeps the
// snapshots), a rewind to time t, and on to the same tick: the hash must
// be the uninterrupted run's. Returns the exit status.
static int rewind_check(Run *r, const Options *o, long long ticks)
{
    steerV_View *v;
    char err[256];
    if (open_view(r, true, o, &v, err, sizeof err) != STEER_OK) {
        fprintf(stderr, "steer: --rewind-to: %s\n", err);
        return EXIT_SCRIPT;
    }
    steer_World *w = steer_engine_world(r->e);
    uint64_t end = steer_world_tick(w) + (uint64_t)ticks;
    double start = now();
    int status = EXIT_SUCCESS;
    if (steerV_run(v, (int)ticks) != (int)ticks) status = EXIT_SCRIPT;
    uint64_t want = steer_world_hash(w);
    if (status == EXIT_SUCCESS && o->rewind_to > (double)end * r->dt) {
        fprintf(stderr, "steer: --rewind-to %g: past the run's end (%.2f s)\n", o->rewind_to, (double)end * r->dt);
        status = EXIT_SCRIPT;
    } else if (status == EXIT_SUCCESS && steerV_rewind_to(v, o->rewind_to) != 0) {
        fprintf(stderr, "steer: --rewind-to %g: no snapshot that old in the ring\n", o->rewind_to);
        status = EXIT_SCRIPT;
    }
    // the picture shows the rewound moment, the timeline pointing into the past
    if (status == EXIT_SUCCESS && o->screenshot && !write_screenshot(v, o->screenshot)) status = EXIT_SCRIPT;
    if (status == EXIT_SUCCESS) {
        uint64_t from = steer_world_tick(w);
        if (steerV_run(v, (int)(end - from)) != (int)(end - from)) status = EXIT_SCRIPT;
        uint64_t got = steer_world_hash(w);
        printf("steer: rewound to tick %llu (%.2f s), ran on to tick %llu: hash %016llx, uninterrupted %016llx: %s\n",
               (unsigned long long)from, (double)from * r->dt, (unsigned long long)end, (unsigned long long)got,
               (unsigned long long)want, got == want ? "the same" : "DIFFERENT");
        if (got != want) status = EXIT_SCRIPT;
    }
    if (status != EXIT_SUCCESS && r->error[0]) fprintf(stderr, "steer: %s\n", r->error);
    steerV_close(v);
    summary(r, (now() - start) * 1e3);
    return status;
}

// Run in a window until Esc, or until `ticks` when given (or, then, the
// first error); reload on save.
// Returns -1 when no window can be opened (no display), with the reason.
static int loop_window(Run *r, const Options *o, char *err, size_t errlen)
{
    long long ticks = o->ticks;
    const char *shot = o->screenshot;
    steerV_View *v;
    if (open_view(r, false, o, &v, err, errlen) != STEER_OK) return -1;
    double start = now();
    int status = EXIT_SUCCESS;
    while (!interrupted && steerV_frame(v)) {
        if (ticks >= 0 && r->ticks >= ticks) break;
        // a run with --ticks is scripted: an error ends it (after the
        // screenshot, which then shows the error over the world)
        if (ticks >= 0 && r->error[0]) {
            status = EXIT_SCRIPT;
            break;
        }
        // a save reloads, debounced; the outcome shows in the overlay
        int st = steer_engine_poll(r->e);
        if (st == 1) r->error[0] = '\0';
        else if (st < 0) snprintf(r->error, sizeof r->error, "reload failed: %s", steer_engine_traceback(r->e));
    }
    if (shot && !write_screenshot(v, shot)) status = EXIT_SCRIPT;
    steerV_close(v);
    summary(r, (now() - start) * 1e3);
    return status;
}
#endif

static int file_write(void *ud, const void *data, size_t len) { return fwrite(data, 1, len, ud) != len; }

// --save: the engine's snapshot of the run into a file; 0 on failure (said on stderr).
static int save_snapshot(Run *r, const char *path)
{
    FILE *f = fopen(path, "wb");
    int st = f ? steer_engine_save(r->e, file_write, f) : STEER_EARG;
    if (f && fclose(f) != 0 && st == STEER_OK) st = STEER_ECALLBACK;
    if (st == STEER_OK) {
        fprintf(stderr, "steer: saved %s\n", path);
        return 1;
    }
    fprintf(stderr, "steer: --save %s: %s\n", path, f ? steer_engine_error(r->e) : strerror(errno));
    return 0;
}

// The whole snapshot file (malloc'd), or NULL with the reason on stderr.
static unsigned char *read_snapshot(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
        fclose(f);
        *len = (size_t)n;
        return buf;
    }
    fprintf(stderr, "steer: --load: cannot read %s: %s\n", path, f ? "read error" : strerror(errno));
    free(buf);
    if (f) fclose(f);
    return NULL;
}

// Where the program reads the Lua library (steer.random, the archetypes)
// before the engine's own STEER_LUA_DIR, the configured prefix's. Meson
// installs a program as it was built, so the build's `steer` and the
// installed one are two targets of this file that differ in a define
// (meson.build, src/app/meson.build), which tells them apart on any
// platform. The build's has STEER_SOURCE_ROOT and reads the checkout it was
// built from, so an edit to lua/ needs no install. The installed one never
// names the checkout: it reads the share/lua/5.4 beside its own bin/
// (steerY_exe_path: Linux's /proc/self/exe, Windows' GetModuleFileName), so
// a prefix copied or moved elsewhere still uses its own files, then the
// configured prefix's. NULL: the engine's path alone.
static const char *lua_path(char *buf, size_t len)
{
#ifdef STEER_SOURCE_ROOT
    (void)buf, (void)len;
    return STEER_SOURCE_ROOT "/lua/?.lua;" STEER_SOURCE_ROOT "/lua/?/init.lua";
#else
    char exe[4096];
    if (!steerY_exe_path(exe, sizeof exe) || STEER_BINDIR[0] == '/' || STEER_LUA_SUBDIR[0] == '/') return NULL;
    // the prefix: the program's path less its name and one level per part
    // of bindir (one for "bin")
    int up = 1;
    for (const char *p = STEER_BINDIR; *p; p++) up += *p != '/' && (p[1] == '/' || p[1] == '\0');
    while (up-- > 0) {
        char *slash = (char *)steerY_last_slash(exe);
        if (!slash) return NULL;
        *slash = '\0';
    }
    int w = snprintf(buf, len, "%s/" STEER_LUA_SUBDIR "/?.lua;%s/" STEER_LUA_SUBDIR "/?/init.lua", exe, exe);
    return w > 0 && (size_t)w < len ? buf : NULL;
#endif
}

static int run(const char *file, Options o)
{
    long long ticks = o.ticks;
    char path_buf[8192];
    steer_EngineDesc desc = { .lua_path = lua_path(path_buf, sizeof path_buf),
                              .has_seed = o.has_seed,
                              .seed = (uint64_t)o.seed,
                              .threads = o.threads };
    Run r = { .file = file };
    if (steer_engine_new(&desc, &r.e) != STEER_OK) {
        fprintf(stderr, "steer: cannot create the engine: out of memory\n");
        return EXIT_SCRIPT;
    }
    if (ticks < 0 || !o.headless) {
        // a script's prints show up as they come, even in a pipe (set
        // before the first output, as setvbuf requires)
        setvbuf(stdout, NULL, _IOLBF, 0);
    }
    int status = EXIT_SCRIPT;
    size_t snapshot_len = 0;
    unsigned char *snapshot = o.load ? read_snapshot(o.load, &snapshot_len) : NULL;
    if (o.load && !snapshot) {
        steer_engine_free(r.e);
        return EXIT_SCRIPT;
    }
    if ((snapshot ? steer_engine_load_snapshot(r.e, file, snapshot, snapshot_len) : steer_engine_load(r.e, file)) !=
        STEER_OK)
        goto fail;
    r.dt = steer_world_dt(steer_engine_world(r.e));
    for (int i = 0; i < o.nmods; i++) {
        // a mod that fails is disabled and reported (in the engine's log,
        // its error as STEER_EMOD); the run goes on, watching its files
        int st = steer_engine_load_mod(r.e, o.mods[i], NULL, NULL);
        if (st != STEER_OK && st != STEER_EMOD) fprintf(stderr, "steer: %s\n", steer_engine_error(r.e));
    }
    // the mods ran their setup: the snapshot once more, for their saved state
    if (snapshot && o.nmods > 0 && steer_engine_restore(r.e, snapshot, snapshot_len) != STEER_OK) goto fail;
    free(snapshot);
    snapshot = NULL;
    catch_signals();
#ifdef STEER_VIEWER
    char why[300], name[128], png[160];
    if (!o.headless) {
        status = loop_window(&r, &o, why, sizeof why);
        if (status == EXIT_SUCCESS && o.save && !save_snapshot(&r, o.save)) status = EXIT_SCRIPT;
        if (status >= 0) {
            steer_engine_free(r.e);
            return status;
        }
        // no window: say so, and do what a headless run with a picture does
        if (!o.screenshot) {
            snprintf(png, sizeof png, "steer-%s.png", scenario_name(file, name, sizeof name));
            o.screenshot = png;
        }
        if (ticks < 0) ticks = FALLBACK_TICKS;
        fprintf(stderr, "steer: %s: running headless for %lld ticks instead, then writing %s\n", why, ticks,
                o.screenshot);
    }
    if (o.rewind_to >= 0) {
        status = rewind_check(&r, &o, ticks);
        steer_engine_free(r.e);
        return status;
    }
    if (o.screenshot && ticks >= 0) {
        status = headless_screenshot(&r, &o, ticks);
        steer_engine_free(r.e);
        return status;
    }
#endif
    status = loop(&r, ticks);
    if (status != EXIT_SUCCESS && ticks >= 0) goto fail;
    if (status != EXIT_SUCCESS) { // stopped by an error in real time: reported already
        steer_engine_free(r.e);
        return status;
    }
    if (o.save && !save_snapshot(&r, o.save)) {
        steer_engine_free(r.e);
        return EXIT_SCRIPT;
    }
#ifdef STEER_VIEWER
    if (o.screenshot) status = headless_screenshot(&r, &o, -1); // a real-time run ended by Ctrl-C
#endif
    steer_engine_free(r.e);
    return status;

fail:
    report(&r);
    free(snapshot);
    steer_engine_free(r.e);
    return EXIT_SCRIPT;
}

// ---- command line ------------------------------------------------------------

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("steer: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\ntry 'steer --help'\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

// A whole decimal integer, nothing else; 0 on failure.
static int parse_integer(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end) return 0;
    *out = v;
    return 1;
}

// `--name VALUE` or `--name=VALUE`: the value, advancing *i; NULL when
// argv[*i] is another option. A missing value is reported here.
static const char *option_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0) return NULL;
    if (a[n] == '=') return a + n + 1;
    if (a[n] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return "";
    }
    return argv[++*i];
}

static int cmd_run(int argc, char **argv)
{
    int headless = 0, has_seed = 0;
    long long ticks = -1, seed = 0, threads = 0;
    const char *screenshot = NULL, *show = NULL;
    const char *file = NULL;
    const char *mods[MAX_MODS];
    int nmods = 0;
    long long select = 0;
    const char *load = NULL, *save = NULL;
    double rewind_to = -1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        int missing = 0;
        if (strcmp(a, "--headless") == 0) {
            headless = 1;
        } else if ((v = option_value(argc, argv, &i, "--ticks", &missing))) {
            if (missing) return usage_error("--ticks needs a value: --ticks N");
            if (!parse_integer(v, &ticks) || ticks < 0)
                return usage_error("--ticks expects an integer >= 0, got '%s'", v);
        } else if ((v = option_value(argc, argv, &i, "--seed", &missing))) {
            if (missing) return usage_error("--seed needs a value: --seed S");
            if (!parse_integer(v, &seed)) return usage_error("--seed expects an integer, got '%s'", v);
            has_seed = 1;
        } else if ((v = option_value(argc, argv, &i, "--threads", &missing))) {
            if (missing) return usage_error("--threads needs a value: --threads N");
            if (!parse_integer(v, &threads) || threads < 1 || threads > STEER_MAX_THREADS)
                return usage_error("--threads expects an integer from 1 to %d (worker threads), got '%s'",
                                   STEER_MAX_THREADS, v);
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            return EXIT_SUCCESS;
        } else if ((v = option_value(argc, argv, &i, "--screenshot", &missing))) {
            if (missing || !*v) return usage_error("--screenshot needs a file name: --screenshot OUT.png");
#ifndef STEER_VIEWER
            return usage_error("--screenshot is not available: this steer was built without the viewer (SDL2)");
#endif
            screenshot = v;
        } else if ((v = option_value(argc, argv, &i, "--select", &missing))) {
            if (missing) return usage_error("--select needs a value: --select N");
            if (!parse_integer(v, &select) || select < 1)
                return usage_error("--select expects an integer >= 1 (the N-th agent spawned), got '%s'", v);
        } else if ((v = option_value(argc, argv, &i, "--show", &missing))) {
            if (missing) return usage_error("--show needs a list: --show grid,flow");
#ifdef STEER_VIEWER
            char why[160];
            if (!steerV_show_check(v, why, sizeof why)) return usage_error("--show: %s", why);
#endif
            show = v;
        } else if ((v = option_value(argc, argv, &i, "--load", &missing))) {
            if (missing || !*v) return usage_error("--load needs a snapshot file: --load FILE");
            load = v;
        } else if ((v = option_value(argc, argv, &i, "--save", &missing))) {
            if (missing || !*v) return usage_error("--save needs a file name: --save FILE");
            save = v;
        } else if ((v = option_value(argc, argv, &i, "--rewind-to", &missing))) {
            if (missing) return usage_error("--rewind-to needs a time in seconds: --rewind-to T");
            char *end;
            errno = 0;
            rewind_to = strtod(v, &end);
            if (errno || end == v || *end || !(rewind_to >= 0))
                return usage_error("--rewind-to expects a time in seconds >= 0, got '%s'", v);
#ifndef STEER_VIEWER
            return usage_error("--rewind-to is not available: this steer was built without the viewer (SDL2)");
#endif
        } else if ((v = option_value(argc, argv, &i, "--mod", &missing))) {
            if (missing || !*v) return usage_error("--mod needs a path: --mod NAME.lua or --mod DIR");
            if (nmods == MAX_MODS) return usage_error("at most %d mods", MAX_MODS);
            mods[nmods++] = v;
        } else if (strcmp(a, "--") == 0 && i + 1 < argc && !file) {
            file = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option '%s'", a);
        } else if (file) {
            return usage_error("run takes one scenario file; '%s' is one too many", a);
        } else {
            file = a;
        }
    }
    if (!file) return usage_error("%s", "run expects a scenario file: steer run [OPTIONS] FILE.lua");
    if (rewind_to >= 0 && (!headless || ticks < 0))
        return usage_error(
            "--rewind-to goes with --headless --ticks N: steer run --headless --ticks N --rewind-to T FILE");
#ifndef STEER_VIEWER
    if (!headless) fprintf(stderr, "steer: this steer was built without the viewer (SDL2), running headless\n");
    headless = 1;
#endif
    Options o = { .ticks = ticks,
                  .headless = headless,
                  .screenshot = screenshot,
                  .has_seed = has_seed,
                  .seed = seed,
                  .threads = (int)threads,
                  .nmods = nmods,
                  .select = select,
                  .show = show,
                  .load = load,
                  .save = save,
                  .rewind_to = rewind_to };
    memcpy(o.mods, mods, (size_t)nmods * sizeof *mods);
    return run(file, o);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_SUCCESS;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        puts("steer " STEER_VERSION);
        return EXIT_SUCCESS;
    }
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
    return usage_error("unknown command '%s' (commands: run)", cmd);
}
