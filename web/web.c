// SPDX-License-Identifier: MIT
// web.c — the engine in the browser: what the page (web/app.js) calls in
// the WebAssembly module that tools/web-build.sh builds. It is a host of
// the engine as the `steer` program is (src/app/main.c): one steer_Engine
// loads a scenario from the module's in-memory files (the demos and the
// Lua library are embedded at /demos and /lua), ticks it, reloads it
// through steer_engine_reload (the hot-reload transaction: every agent
// stays) after the page wrote the editor's text over the file, and calls
// the scenario's draw(d, w) as the viewer does. A frame is a flat array of
// doubles the page reads from the module's memory and draws with Canvas 2D;
// the inspector's text is the viewer's panel (src/view/inspect.c), line by
// line, from the same steer_debug.h calls.
//
// One thread: the engine's worlds tick on the calling thread (threads = 1)
// and nothing watches files (the page says when the scenario changed).
#include "steer.h"
#include "steer_debug.h"
#include "steer_draw.h"
#include "steer_engine.h"
#include "steer_lua.h"

#include <lua.h>

#include <emscripten.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

// Emscripten's libc without threads has no per-thread CPU clock; the
// engine's mods then time their calls with CLOCK_MONOTONIC, as it does
// wherever this call fails (src/engine/watch.c).
int pthread_getcpuclockid(pthread_t thread, clockid_t *clock)
{
    (void)thread, (void)clock;
    return ENOENT;
}

static steer_Engine *engine;
static steer_DrawList draw_list;
static steer_Agent selected;
static char hash_text[17];
static char inspect_text[8192];
static double *frame;
static size_t frame_cap;
static size_t frame_n;

static void push(double v)
{
    if (frame_n == frame_cap) {
        size_t cap = frame_cap ? frame_cap * 2 : 4096;
        double *f = realloc(frame, cap * sizeof *f);
        if (!f) return;
        frame = f;
        frame_cap = cap;
    }
    frame[frame_n++] = v;
}

static steer_World *world(void) { return engine ? steer_engine_world(engine) : NULL; }

// The engine's log (reload lines, mods' output): info on stdout, warnings
// and errors on stderr, which the page shows as its print and printErr.
static void web_log(void *ud, int level, const char *msg)
{
    (void)ud;
    fprintf(level ? stderr : stdout, "%s\n", msg);
}

// Free the engine and make a new one with `file` loaded (its setup run):
// STEER_OK or the engine's status, its error in web_error().
EMSCRIPTEN_KEEPALIVE int web_load(const char *file)
{
    steer_engine_free(engine);
    engine = NULL;
    selected = STEER_NO_AGENT;
    steer_EngineDesc desc = { .log = web_log, .lua_path = "/lua/?.lua;/lua/?/init.lua", .threads = 1 };
    int st = steer_engine_new(&desc, &engine);
    if (st != STEER_OK) return st;
    st = steer_engine_load(engine, file);
    // the viewer records each brain node's output, for the inspector
    if (st == STEER_OK) steer_world_set_record(world(), true);
    return st;
}

EMSCRIPTEN_KEEPALIVE int web_tick(int n) { return engine ? steer_engine_tick(engine, n) : STEER_EARG; }

// The scenario anew from its file (which the page has just written): the
// engine's reload transaction; on failure the last good version runs on.
EMSCRIPTEN_KEEPALIVE int web_reload(void) { return engine ? steer_engine_reload(engine) : STEER_EARG; }

// The last error with its traceback ("" when none).
EMSCRIPTEN_KEEPALIVE const char *web_error(void) { return engine ? steer_engine_traceback(engine) : "no engine"; }

// The world's hash as `steer run` prints it (16 hex digits).
EMSCRIPTEN_KEEPALIVE const char *web_hash(void)
{
    steer_World *w = world();
    snprintf(hash_text, sizeof hash_text, "%016llx", w ? (unsigned long long)steer_world_hash(w) : 0ULL);
    return hash_text;
}

EMSCRIPTEN_KEEPALIVE double web_ticks(void) { return world() ? (double)steer_world_tick(world()) : 0; }
EMSCRIPTEN_KEEPALIVE double web_dt(void) { return world() ? steer_world_dt(world()) : 1.0 / 60; }
EMSCRIPTEN_KEEPALIVE int web_count(void) { return world() ? steer_world_count(world()) : 0; }

static void draw_path(void *ud, const float *xyz, int n)
{
    (void)ud;
    push(4);
    push(n);
    for (int i = 0; i < n; i++) {
        push(xyz[3 * i]);
        push(xyz[3 * i + 1]);
    }
}

// The scenario's draw(d, w) into draw_list, as the viewer calls it; an
// error there is kept (web_error) and the frame goes on without it.
static int scenario_draw(void)
{
    steer_draw_clear(&draw_list);
    lua_State *L = steer_engine_lua(engine);
    steer_lua_pushdraw(L, &draw_list);
    if (!steer_engine_push_scenario(engine)) {
        lua_pop(L, 1);
        return STEER_OK;
    }
    lua_remove(L, -2); // d, w
    return steer_engine_call(engine, "draw", 2);
}

// The frame: a header, then records, each a kind and its numbers (web/app.js reads them).
//   header: dim, lo x, lo y, hi x, hi y, selected entry (-1: none), draw status
//   1 agent:  x, y, heading x, heading y, radius, tag id
//   2 circle: x, y, r            3 segment: ax, ay, bx, by      5 box: lo x, lo y, hi x, hi y
//   4 path:   n, then n points (x, y)
//   6 draw:   kind, rgba (0xRRGGBBAA), ax, ay, bx, by, r, text (a pointer, 0: none)
// Returns the pointer to the doubles; web_frame_len says how many.
EMSCRIPTEN_KEEPALIVE double *web_frame(void)
{
    frame_n = 0;
    steer_World *w = world();
    steer_DebugAgents ag;
    if (!w || steer_debug_agents(w, &ag) != STEER_OK) return frame;
    int drawn = scenario_draw();
    double lo[3], hi[3];
    steer_debug_extent(w, lo, hi); // as the viewer fits its first frame
    steer_DebugAgent sel;
    int sel_index = -1;
    if (selected.id && steer_debug_agent(w, selected, &sel) == STEER_OK) sel_index = sel.index;
    push(steer_world_dim(w));
    push(lo[0]);
    push(lo[1]);
    push(hi[0]);
    push(hi[1]);
    push(sel_index);
    push(drawn);
    for (int s = 0, n = steer_debug_shape_slots(w); s < n; s++) {
        steer_DebugShape sh;
        if (steer_debug_shape(w, s, &sh) != 1) continue;
        if (sh.kind == STEER_SHAPE_CIRCLE) {
            push(2), push(sh.a[0]), push(sh.a[1]), push(sh.r);
        } else if (sh.kind == STEER_SHAPE_SEGMENT) {
            push(3), push(sh.a[0]), push(sh.a[1]), push(sh.b[0]), push(sh.b[1]);
        } else if (sh.kind == STEER_SHAPE_BOX) {
            push(5), push(sh.a[0]), push(sh.a[1]), push(sh.b[0]), push(sh.b[1]);
        }
    }
    steer_debug_paths(w, draw_path, NULL);
    for (int d = 0; d < ag.count; d++) {
        if (steer_debug_agent_handle(w, d).id == 0) continue; // removed since the last step
        push(1), push(ag.position[0][d]), push(ag.position[1][d]);
        push(ag.heading[0][d]), push(ag.heading[1][d]), push(ag.radius[d]), push(ag.tag[d]);
    }
    for (uint32_t i = 0; i < draw_list.n; i++) {
        const steer_DrawCmd *c = &draw_list.cmds[i];
        push(6), push(c->kind);
        push(
            (double)((uint32_t)c->rgba[0] << 24 | (uint32_t)c->rgba[1] << 16 | (uint32_t)c->rgba[2] << 8 | c->rgba[3]));
        push(c->a[0]), push(c->a[1]), push(c->b[0]), push(c->b[1]), push(c->r);
        push(c->kind == STEER_DRAW_TEXT ? (double)(uintptr_t)(draw_list.text + c->text) : 0);
    }
    return frame;
}

EMSCRIPTEN_KEEPALIVE int web_frame_len(void) { return (int)frame_n; }

EMSCRIPTEN_KEEPALIVE const char *web_tag_name(int tag)
{
    const char *s = world() ? steer_debug_tag_name(world(), tag) : NULL;
    return s ? s : "";
}

// Select the agent nearest to (x, y) within max(2 radii, `slack`) metres,
// as a click in the viewer does; 1 if one was, 0 (nothing selected) if not.
EMSCRIPTEN_KEEPALIVE int web_select(double x, double y, double slack)
{
    selected = STEER_NO_AGENT;
    steer_World *w = world();
    steer_DebugAgents ag;
    if (!w || steer_debug_agents(w, &ag) != STEER_OK) return 0;
    double best = 1e300;
    for (int d = 0; d < ag.count; d++) {
        steer_Agent a = steer_debug_agent_handle(w, d);
        double dx = ag.position[0][d] - x, dy = ag.position[1][d] - y, dd = sqrt(dx * dx + dy * dy);
        if (a.id == 0) continue;
        if (dd <= fmax(2.0 * ag.radius[d], slack) && dd < best) {
            best = dd;
            selected = a;
        }
    }
    return best < 1e300;
}

static size_t text_n;
static void line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (text_n < sizeof inspect_text) {
        int k = vsnprintf(inspect_text + text_n, sizeof inspect_text - text_n, fmt, ap);
        if (k > 0) text_n += (size_t)k;
        if (text_n < sizeof inspect_text - 1) inspect_text[text_n++] = '\n';
        inspect_text[text_n < sizeof inspect_text ? text_n : sizeof inspect_text - 1] = '\0';
    }
    va_end(ap);
}

static float len3(const float *f) { return sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]); }

// The viewer's inspector panel (src/view/inspect.c) as text: the selected
// agent's numbers, then its brain a row a node with each node's force and
// what the core says of it (who won, what was cut). "" when none is selected.
EMSCRIPTEN_KEEPALIVE const char *web_inspect(void)
{
    text_n = 0;
    inspect_text[0] = '\0';
    steer_World *w = world();
    steer_DebugAgent info;
    steer_DebugAgents ag;
    if (!w || steer_debug_agent(w, selected, &info) != STEER_OK || steer_debug_agents(w, &ag) != STEER_OK) {
        selected = STEER_NO_AGENT;
        return inspect_text;
    }
    int d = info.index;
    float p[3] = { ag.position[0][d], ag.position[1][d], ag.dim == 3 ? ag.position[2][d] : 0 };
    float vel[3] = { ag.velocity[0][d], ag.velocity[1][d], ag.dim == 3 ? ag.velocity[2][d] : 0 };
    float f[3] = { ag.force[0][d], ag.force[1][d], ag.dim == 3 ? ag.force[2][d] : 0 };
    const char *tag = NULL;
    steer_agent_tag(w, selected, &tag);
    line("agent #%u%s%s", (unsigned)(uint32_t)selected.id + 1, tag ? "  tag " : "", tag ? tag : "");
    line("speed %.2f / %.2f   force %.2f / %.2f", (double)len3(vel), (double)ag.max_speed[d], (double)len3(f),
         (double)ag.max_force[d]);
    if (ag.dim == 3) line("at (%.1f, %.1f, %.1f)", (double)p[0], (double)p[1], (double)p[2]);
    else
        line("at (%.1f, %.1f)  heading %.0f deg", (double)p[0], (double)p[1],
             atan2((double)ag.heading[1][d], (double)ag.heading[0][d]) * 180 / PI);
    double tp[3];
    steer_Agent ta;
    int tk = 0;
    steer_agent_target(w, selected, tp, &ta, &tk);
    if (tk == STEER_TARGET_AGENT) steer_agent_vec(w, ta, STEER_PROP_POSITION, tp);
    double away = sqrt(pow(tp[0] - p[0], 2) + pow(tp[1] - p[1], 2) + pow(tp[2] - p[2], 2));
    if (tk == STEER_TARGET_AGENT) line("target: agent #%u, %.1f m away", (unsigned)(uint32_t)ta.id + 1, away);
    else if (tk == STEER_TARGET_POINT) line("target: point (%.1f, %.1f), %.1f m away", tp[0], tp[1], away);
    else line("target: none");
    int nn = 0;
    if (info.sense > 0) {
        steer_Agent nb[256];
        double pd[3] = { p[0], p[1], p[2] };
        nn = steer_world_neighbors(w, pd, info.sense, NULL, false, nb, 256);
        if (nn > 0) nn--; // itself
    }
    line("neighbours: %d within %.1f m", nn, info.sense);
    line("");
    if (!info.nodes || !info.recorded) {
        line(!info.nodes ? "no brain: it drifts" : "the world does not record node outputs");
        return inspect_text;
    }
    line("brain                  force   (fx, fy)");
    for (int i = 0; i < info.nodes && i < 256; i++) {
        steer_DebugNode node;
        if (steer_debug_node(w, selected, i, &node) != STEER_OK) break;
        char label[96];
        if (node.weighted)
            snprintf(label, sizeof label, "%*s%s x%.3g", 2 * node.depth, "", node.name, (double)node.weight);
        else snprintf(label, sizeof label, "%*s%s", 2 * node.depth, "", node.name);
        line("%-22s %6.2f (%5.1f,%5.1f)  %s", label, (double)len3(node.force), (double)node.force[0],
             (double)node.force[1], node.note);
    }
    return inspect_text;
}
