// SPDX-License-Identifier: MIT
// main.c — the `steer` program: runs a scenario (a Lua file returning a
// table of callbacks) in a world, either N ticks as fast as possible with a
// summary, or in real time until interrupted, reloading the file on save.
//
// Invariants: a script error never crashes the program — every call into
// Lua goes through lua_pcall with a traceback handler (the shape of lua.c's
// docall) and ends in `steer: FILE:LINE: MESSAGE` and exit status 1. Bad
// usage exits with 2. The world outlives reloads: a reload re-runs the file
// and swaps the callbacks, it never rebuilds the world.
// With the viewer built (src/view, SDL2), a run without --headless opens a
// window; there a script error stops the simulation and shows over the
// world instead of ending the program, until a reload fixes it.
#include "steer.h"
#include "steer_lua.h"
#ifdef STEER_VIEWER
#include "view.h"
#endif

#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifndef STEER_SOURCE_ROOT
#define STEER_SOURCE_ROOT "."
#endif

// Exit statuses: 1 for a failing scenario, 2 for bad usage.
enum { EXIT_SCRIPT = 1, EXIT_USAGE = 2 };

// How often the file's modification time is checked in real-time runs.
#define RELOAD_PERIOD 0.25
// Further behind the real-time schedule than this, the schedule restarts
// from now instead of running ticks back to back to catch up.
#define MAX_LAG 0.25



static const char usage_text[] =
    "usage: steer COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  run [OPTIONS] FILE.lua   run a scenario (a Lua file returning a table of\n"
    "                           callbacks: world, setup, update, draw, reload)\n"
    "\n"
    "options of run:\n"
    "  --headless               no window (without a display, a run falls back to\n"
    "                           headless: 600 ticks, a summary and a PNG)\n"
    "  --ticks N                stop after N ticks (headless: as fast as possible; in a\n"
    "                           window: at the first error too), print a summary;\n"
    "                           without it the scenario runs in real time until\n"
    "                           interrupted (Ctrl-C) and reloads FILE when it is saved\n"
    "  --seed S                 override the scenario's world seed (an integer)\n"
    "  --screenshot OUT.png     write the last frame (window or headless) as a PNG\n"
    "  --select N               open the inspector on the N-th agent spawned\n"
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

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; // no SA_RESTART: nanosleep returns at once
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

// ---- time ------------------------------------------------------------------

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_for(double seconds)
{
    if (seconds <= 0) return;
    struct timespec t;
    t.tv_sec = (time_t)seconds;
    t.tv_nsec = (long)((seconds - (double)t.tv_sec) * 1e9);
    nanosleep(&t, NULL); // EINTR is fine: the loop checks `interrupted`
}

// ---- calling Lua -----------------------------------------------------------

// Message handler: append a traceback to string messages; other error
// objects are described, through __tostring when they have one.
static int msghandler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

// Call the function below `nargs` arguments; on error leave the message
// (with a traceback when `traceback` is set) on the stack.
static int docall(lua_State *L, int nargs, int nresults, int traceback)
{
    int base = lua_gettop(L) - nargs;
    int handler = 0;
    if (traceback) {
        lua_pushcfunction(L, msghandler);
        lua_insert(L, base);
        handler = base;
    }
    int st = lua_pcall(L, nargs, nresults, handler);
    if (handler) lua_remove(L, handler);
    if (st != LUA_OK && !lua_isstring(L, -1)) {
        // without a handler a non-string error object reaches us as is
        const char *tn = luaL_typename(L, -1);
        lua_pop(L, 1);
        lua_pushfstring(L, "(error object is a %s value)", tn);
    }
    return st;
}

// ---- the scenario ------------------------------------------------------------

typedef struct Run {
    lua_State *L;
    const char *file;
    int world;          // stack slot of the world userdata
    int scenario;       // stack slot of the current scenario table
    int step;           // stack slot of the world's step method
    double dt;
    long long ticks;    // ticks run by the loop so far
    struct timespec mtime;
    long long size;
    char error[4096];   // in a window: the error shown over the world, "" when none
} Run;

static void report(const char *msg) { fprintf(stderr, "steer: %s\n", msg); }

// Set package.path so that `require` finds the repository's Lua library
// and modules beside the scenario.
static void set_path(lua_State *L, const char *file)
{
    const char *slash = strrchr(file, '/');
    int dirlen = slash ? (int)(slash - file) : 1;
    const char *dir = slash ? file : ".";
    if (slash && dirlen == 0) dirlen = 1; // "/x.lua": the root
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "path");
    lua_pushfstring(L, "%s/lua/?.lua;%s/lua/?/init.lua;", STEER_SOURCE_ROOT, STEER_SOURCE_ROOT);
    lua_pushlstring(L, dir, (size_t)dirlen);
    lua_pushfstring(L, "/?.lua;%s", lua_tostring(L, -3));
    lua_concat(L, 3);
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);
}

// Load and run the file; on success leave its table on the stack. On
// failure leave a message. Checks the shape of the table so that a typo
// like `updat = function` or `update = 1` is caught at load, not ignored.
static int load_scenario(lua_State *L, const char *file, int traceback)
{
    if (luaL_loadfile(L, file) != LUA_OK) return 0;
    if (docall(L, 0, 1, traceback) != LUA_OK) return 0;
    if (!lua_istable(L, -1)) {
        const char *tn = luaL_typename(L, -1);
        lua_pop(L, 1);
        lua_pushfstring(L, "%s: expected the file to return a scenario table, got %s", file, tn);
        return 0;
    }
    static const char *const callbacks[] = { "setup", "update", "draw", "reload", "on_key", NULL };
    for (int i = 0; callbacks[i]; i++) {
        int t = lua_getfield(L, -1, callbacks[i]);
        lua_pop(L, 1);
        if (t != LUA_TNIL && t != LUA_TFUNCTION) {
            lua_pop(L, 1);
            lua_pushfstring(L, "%s: field '%s' of the scenario expected a function or nil, got %s", file,
                            callbacks[i], lua_typename(L, t));
            return 0;
        }
    }
    int t = lua_getfield(L, -1, "world");
    lua_pop(L, 1);
    if (t != LUA_TNIL && t != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_pushfstring(L, "%s: field 'world' of the scenario expected a table or nil, got %s", file,
                        lua_typename(L, t));
        return 0;
    }
    return 1;
}

// steer.world{...} with the scenario's `world` table (a copy, with the seed
// from the command line when there is one). Leaves the world on the stack.
static int create_world(Run *r, int has_seed, lua_Integer seed)
{
    lua_State *L = r->L;
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, -1, "steer");
    lua_getfield(L, -1, "world");
    lua_replace(L, -3);
    lua_pop(L, 1);
    lua_newtable(L);
    if (lua_getfield(L, r->scenario, "world") == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, -5);
        }
    }
    lua_pop(L, 1);
    if (has_seed) {
        lua_pushinteger(L, seed);
        lua_setfield(L, -2, "seed");
    }
    if (docall(L, 1, 1, 0) != LUA_OK) {
        // raised from C with no Lua caller: say where the arguments came from
        fprintf(stderr, "steer: %s: in the scenario's 'world' table: %s\n", r->file, lua_tostring(L, -1));
        return 0;
    }
    return 1;
}

// Call scenario[name](w [, dt]) if the scenario has it.
static int callback(Run *r, int scenario, const char *name, int with_dt, int traceback)
{
    lua_State *L = r->L;
    if (lua_getfield(L, scenario, name) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return 1;
    }
    lua_pushvalue(L, r->world);
    if (with_dt) lua_pushnumber(L, r->dt);
    return docall(L, with_dt ? 2 : 1, 0, traceback) == LUA_OK;
}

// One tick: the engine's step (which runs event handlers), then update.
static int tick(Run *r)
{
    lua_State *L = r->L;
    lua_pushvalue(L, r->step);
    lua_pushvalue(L, r->world);
    if (docall(L, 1, 0, 1) != LUA_OK) return 0;
    if (!callback(r, r->scenario, "update", 1, 1)) return 0;
    r->ticks++;
    return 1;
}

static int file_changed(Run *r)
{
    struct stat st;
    if (stat(r->file, &st) != 0) return 0; // mid-save (renamed away): look again later
    int changed = st.st_mtim.tv_sec != r->mtime.tv_sec || st.st_mtim.tv_nsec != r->mtime.tv_nsec ||
                  (long long)st.st_size != r->size;
    r->mtime = st.st_mtim;
    r->size = (long long)st.st_size;
    return changed;
}

// Re-run the file and, when it loads, call its reload(w) with the same
// world; only then do its callbacks replace the old ones. A failure keeps
// the old callbacks running. One line on stderr either way. In a window
// the outcome is also what the error overlay shows: cleared or replaced.
static void reload(Run *r)
{
    lua_State *L = r->L;
    double t0 = now();
    int top = lua_gettop(L);
    if (!load_scenario(L, r->file, 0)) {
        fprintf(stderr, "reload failed %s\n", lua_tostring(L, -1));
        snprintf(r->error, sizeof r->error, "reload failed: %s", lua_tostring(L, -1));
        lua_settop(L, top);
        return;
    }
    int fresh = lua_gettop(L);
    if (!callback(r, fresh, "reload", 0, 0)) {
        fprintf(stderr, "reload failed %s\n", lua_tostring(L, -1));
        snprintf(r->error, sizeof r->error, "reload failed: %s", lua_tostring(L, -1));
        lua_settop(L, top);
        return;
    }
    lua_replace(L, r->scenario);
    lua_settop(L, top);
    r->error[0] = '\0';
    fprintf(stderr, "reload ok %s (%.0f ms)\n", r->file, (now() - t0) * 1e3);
}

static void summary(Run *r, double ms)
{
    lua_State *L = r->L;
    lua_getfield(L, r->world, "hash");
    lua_pushvalue(L, r->world);
    const char *hash = lua_pcall(L, 1, 1, 0) == LUA_OK ? lua_tostring(L, -1) : "?";
    lua_getfield(L, r->world, "count");
    long long count = (long long)lua_tointeger(L, -1);
    printf("steer: %s ran %lld ticks (%.2f s simulated) in %.1f ms, %lld agents, hash %s\n", r->file, r->ticks,
           (double)r->ticks * r->dt, ms, count, hash ? hash : "?");
    fflush(stdout);
    lua_pop(L, 2);
}

// Run the loop: `ticks` >= 0 as fast as possible, < 0 in real time with
// reloading. Returns the exit status.
static int loop(Run *r, long long ticks)
{
    double start = now();
    if (ticks >= 0) {
        while (r->ticks < ticks && !interrupted)
            if (!tick(r)) return EXIT_SCRIPT;
    } else {
        double next = start, next_check = start + RELOAD_PERIOD;
        while (!interrupted) {
            if (!tick(r)) return EXIT_SCRIPT;
            double t = now();
            if (t >= next_check) {
                if (file_changed(r)) reload(r);
                next_check = t + RELOAD_PERIOD;
            }
            next += r->dt;
            t = now();
            if (t - next > MAX_LAG) next = t;
            if (!interrupted) sleep_for(next - t);
        }
    }
    summary(r, (now() - start) * 1e3);
    return EXIT_SUCCESS;
}


// ---- the viewer ----------------------------------------------------------------

typedef struct Options {
    long long ticks;        // < 0: real time
    bool headless;
    const char *screenshot; // or NULL
    int has_seed;
    lua_Integer seed;
    long long select;       // > 0: inspect the select-th agent spawned
} Options;

#ifdef STEER_VIEWER

// Ticks of a run that falls back to headless for want of a display.
#define FALLBACK_TICKS 600

// Keep the first line of an error for stderr; the overlay shows it all.
static void set_error(Run *r, const char *msg)
{
    snprintf(r->error, sizeof r->error, "%s", msg ? msg : "(no message)");
    fprintf(stderr, "steer: %s\n", r->error);
}

static int host_tick(void *ud)
{
    Run *r = ud;
    int top = lua_gettop(r->L);
    int ok = tick(r);
    if (!ok) set_error(r, lua_tostring(r->L, -1));
    lua_settop(r->L, top);
    return ok;
}

static void host_reload(void *ud) { reload(ud); }

static void host_draw(void *ud, steer_DrawList *d)
{
    Run *r = ud;
    lua_State *L = r->L;
    int top = lua_gettop(L);
    if (lua_getfield(L, r->scenario, "draw") == LUA_TFUNCTION) {
        steer_lua_pushdraw(L, d);
        lua_pushvalue(L, r->world);
        if (docall(L, 2, 0, 1) != LUA_OK) set_error(r, lua_tostring(L, -1));
    }
    lua_settop(L, top);
}

static void host_key(void *ud, const char *name)
{
    Run *r = ud;
    lua_State *L = r->L;
    int top = lua_gettop(L);
    if (!r->error[0] && lua_getfield(L, r->scenario, "on_key") == LUA_TFUNCTION) {
        lua_pushvalue(L, r->world);
        lua_pushstring(L, name);
        if (docall(L, 2, 0, 1) != LUA_OK) set_error(r, lua_tostring(L, -1));
    }
    lua_settop(L, top);
}

static void host_mouse(void *ud, const double *pos)
{
    Run *r = ud;
    steer_lua_set_mouse(r->L, r->world, pos);
}

static const char *host_error(void *ud)
{
    Run *r = ud;
    return r->error[0] ? r->error : NULL;
}

static const char *scenario_name(const char *file, char *buf, size_t len)
{
    const char *base = strrchr(file, '/');
    snprintf(buf, len, "%s", base ? base + 1 : file);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = '\0';
    return buf;
}

static int open_view(Run *r, bool headless, const Options *o, steerV_View **v, char *err, size_t errlen)
{
    char name[128];
    steerV_Desc desc = { .title = scenario_name(r->file, name, sizeof name), .headless = headless };
    steerV_Host host = { .ud = r, .tick = host_tick, .reload = host_reload, .draw = host_draw, .key = host_key,
                         .mouse = host_mouse, .error = host_error };
    steer_World *w = steer_lua_toworld(r->L, r->world);
    int st = steerV_open(&desc, w, &host, v, err, errlen);
    // --select N: the agent in slot N - 1, the N-th spawned while none was removed
    for (int i = 0; st == STEER_OK && o->select > 0 && i < steer_world_count(w); i++) {
        steer_Agent a = steer_world_agent_at(w, i);
        if ((uint32_t)a == (uint64_t)(o->select - 1)) steerV_select(*v, a);
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

// The last frame of a headless run, drawn by the software renderer.
static int headless_screenshot(Run *r, const Options *o)
{
    const char *path = o->screenshot;
    steerV_View *v;
    char err[256];
    if (open_view(r, true, o, &v, err, sizeof err) != STEER_OK) {
        fprintf(stderr, "steer: --screenshot: %s\n", err);
        return EXIT_SCRIPT;
    }
    int ok = write_screenshot(v, path);
    steerV_close(v);
    if (r->error[0]) return EXIT_SCRIPT; // the scenario's draw failed (already reported)
    return ok ? EXIT_SUCCESS : EXIT_SCRIPT;
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
    double start = now(), next_check = start + RELOAD_PERIOD;
    int status = EXIT_SUCCESS;
    while (!interrupted && steerV_frame(v)) {
        if (ticks >= 0 && r->ticks >= ticks) break;
        // a run with --ticks is scripted: an error ends it (after the
        // screenshot, which then shows the error over the world)
        if (ticks >= 0 && r->error[0]) {
            status = EXIT_SCRIPT;
            break;
        }
        double t = now();
        if (t >= next_check) {
            if (file_changed(r)) reload(r);
            next_check = t + RELOAD_PERIOD;
        }
    }
    if (shot && !write_screenshot(v, shot)) status = EXIT_SCRIPT;
    steerV_close(v);
    summary(r, (now() - start) * 1e3);
    return status;
}
#endif

static int run(const char *file, Options o)
{
    long long ticks = o.ticks;
    lua_State *L = luaL_newstate();
    if (!L) {
        report("cannot create the Lua state: out of memory");
        return EXIT_SCRIPT;
    }
    luaL_openlibs(L);
    steer_lua_preload(L);
    set_path(L, file);

    Run r = { .L = L, .file = file };
    if (ticks < 0 || !o.headless) {
        // a script's prints show up as they come, even in a pipe (set
        // before the first output, as setvbuf requires)
        setvbuf(stdout, NULL, _IOLBF, 0);
        file_changed(&r); // the baseline: a save from now on reloads
    }
    // require "steer" up front: the world constructor comes from it
    lua_getglobal(L, "require");
    lua_pushliteral(L, "steer");
    if (docall(L, 1, 0, 1) != LUA_OK) goto fail;
    if (!load_scenario(L, file, 1)) goto fail;
    r.scenario = lua_gettop(L);
    if (!create_world(&r, o.has_seed, o.seed)) {
        lua_close(L);
        return EXIT_SCRIPT;
    }
    r.world = lua_gettop(L);
    lua_getfield(L, r.world, "step");
    r.step = lua_gettop(L);
    lua_getfield(L, r.world, "dt");
    r.dt = lua_tonumber(L, -1);
    lua_pop(L, 1);

    catch_signals();
    if (!callback(&r, r.scenario, "setup", 0, 1)) goto fail;
    int status;
#ifdef STEER_VIEWER
    char why[300], name[128], png[160];
    if (!o.headless) {
        status = loop_window(&r, &o, why, sizeof why);
        if (status >= 0) {
            lua_close(L);
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
#endif
    status = loop(&r, ticks);
    if (status != EXIT_SUCCESS) goto fail;
#ifdef STEER_VIEWER
    if (o.screenshot) status = headless_screenshot(&r, &o);
#endif
    lua_close(L);
    return status;

fail:
    fprintf(stderr, "steer: %s\n", lua_tostring(L, -1));
    lua_close(L);
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
    long long ticks = -1, seed = 0;
    const char *screenshot = NULL;
    long long select = 0;
    const char *file = NULL;
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
        } else if (strncmp(a, "--mod", 5) == 0) {
            return usage_error("--mod is not available yet: mods are not implemented");
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
#ifndef STEER_VIEWER
    if (!headless) fprintf(stderr, "steer: this steer was built without the viewer (SDL2), running headless\n");
    headless = 1;
#endif
    Options o = { .ticks = ticks, .headless = headless, .screenshot = screenshot, .has_seed = has_seed,
                  .seed = (lua_Integer)seed, .select = select };
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
