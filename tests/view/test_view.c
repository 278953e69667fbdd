// SPDX-License-Identifier: MIT
// test_view.c — the viewer draws what the world says, checked on pixels.
//
//   test-view                          in process, headless (software renderer)
//   test-view --window                 in process, in a real window (run under Xvfb)
//   test-view --cli STEER SCENARIO [--window]
//                                      runs `steer run ... --screenshot`, reads the PNG
//                                      back and checks it against the scenario's world
//
// Each check samples the frame where steerV_project says an agent is and
// expects the agent's tag colour there; the HUD's corner must hold text.
// A window that cannot open exits 77 (meson's SKIP) with the reason.
#include "../c/check.h"
#include "steer_lua.h"
#include "view.h"
#include "steer_debug.h"
#include "../../src/nav/layers.h"

#include <lauxlib.h>
#include <lualib.h>
#include <SDL.h>
#include <stb_image.h>

#include <math.h>
#include <string.h>

#define SKIP 77

static const char *scenario_path = SOURCE_DIR "/still.lua";
static bool use_window;

typedef struct Host {
    lua_State *L;
    int world;
    int scenario;
    char error[1024];
    int ticks;
} Host;

static int host_tick(void *ud)
{
    Host *h = ud;
    lua_getfield(h->L, h->world, "step");
    lua_pushvalue(h->L, h->world);
    if (lua_pcall(h->L, 1, 0, 0) != LUA_OK) {
        snprintf(h->error, sizeof h->error, "%s", lua_tostring(h->L, -1));
        lua_pop(h->L, 1);
        return 0;
    }
    h->ticks++;
    return 1;
}

static void host_draw(void *ud, steer_DrawList *d)
{
    Host *h = ud;
    lua_getfield(h->L, h->scenario, "draw");
    steer_lua_pushdraw(h->L, d);
    lua_pushvalue(h->L, h->world);
    if (lua_pcall(h->L, 2, 0, 0) != LUA_OK) {
        snprintf(h->error, sizeof h->error, "%s", lua_tostring(h->L, -1));
        lua_pop(h->L, 1);
    }
}

static const char *host_error(void *ud)
{
    Host *h = ud;
    return h->error[0] ? h->error : NULL;
}

// The scenario's world, built as the runner builds it; leaves the scenario
// table and the world on the stack.
static int load(Host *h, const char *path)
{
    lua_State *L = h->L = luaL_newstate();
    luaL_openlibs(L);
    steer_lua_preload(L);
    lua_pushstring(L, path);
    lua_setglobal(L, "SCENARIO");
    // the archetypes some demos require (lua/steer/archetypes)
    if (luaL_dostring(L, "package.path = '" SOURCE_DIR "/../../lua/?.lua;' .. package.path") != LUA_OK) return 0;
    if (luaL_dostring(L, "local steer = require 'steer'\n"
                         "local sc = dofile(SCENARIO)\n"
                         "local w = steer.world(sc.world)\n"
                         "sc.setup(w)\n"
                         "return sc, w") != LUA_OK) {
        printf("    cannot load %s: %s\n", path, lua_tostring(L, -1));
        return 0;
    }
    h->scenario = lua_gettop(L) - 1;
    h->world = lua_gettop(L);
    return 1;
}

typedef struct Image {
    unsigned char *px;
    int w, h;
} Image;

static const unsigned char *pixel(const Image *im, int x, int y) { return im->px + 4 * ((size_t)y * im->w + x); }

// Whether the colour appears within 2 pixels of (x, y).
static bool colour_near(const Image *im, double x, double y, const int rgb[3])
{
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int px = (int)lround(x) + dx, py = (int)lround(y) + dy;
            if (px < 0 || py < 0 || px >= im->w || py >= im->h) continue;
            const unsigned char *p = pixel(im, px, py);
            if (abs(p[0] - rgb[0]) < 40 && abs(p[1] - rgb[1]) < 40 && abs(p[2] - rgb[2]) < 40) return true;
        }
    return false;
}

// Bright pixels (text) in a rectangle.
static int bright(const Image *im, int x0, int y0, int x1, int y1)
{
    int n = 0;
    for (int y = y0; y < y1 && y < im->h; y++)
        for (int x = x0; x < x1 && x < im->w; x++) {
            const unsigned char *p = pixel(im, x, y);
            if (p[0] > 180 && p[1] > 180 && p[2] > 180) n++;
        }
    return n;
}

// The colours the viewer gives the first two tags it interns ("one", "two").
static const int tag_rgb[2][3] = { { 120, 200, 255 }, { 255, 170, 60 } };

// Every agent of the world at its projected position, in its tag's colour.
static void check_agents(Host *h, steerV_View *v, const Image *im, steer_Agent skip)
{
    steer_World *w = steer_lua_toworld(h->L, h->world);
    int n = steer_world_count(w), seen = 0;
    for (int i = 0; i < n; i++) {
        steer_Agent a = steer_world_agent_at(w, i);
        if (a.id == skip.id) continue;
        double p[3], x, y;
        const char *tag;
        steer_agent_vec(w, a, STEER_PROP_POSITION, p);
        steer_agent_tag(w, a, &tag);
        CHECK(steerV_project(v, p, &x, &y), "agent %d projects into the frame", i);
        CHECK(x >= 0 && y >= 0 && x < im->w && y < im->h, "agent %d at (%g, %g) lands in the frame: (%g, %g)", i, p[0],
              p[1], x, y);
        const int *rgb = tag_rgb[strcmp(tag, "one") == 0 ? 0 : 1];
        CHECK(colour_near(im, x, y, rgb), "agent %d (%s) at (%g, %g) is drawn at pixel (%.0f, %.0f): found %d %d %d", i,
              tag, p[0], p[1], x, y, pixel(im, (int)x, (int)y)[0], pixel(im, (int)x, (int)y)[1],
              pixel(im, (int)x, (int)y)[2]);
        seen++;
    }
    CHECK(seen >= 5, "agents checked: %d", seen);
    // between agents the background shows (the frame is not one colour)
    CHECK(!colour_near(im, im->w / 2.0 + 7, 3, tag_rgb[0]), "the top edge is background");
}

static int shot(steerV_View *v, const char *path, Image *im)
{
    char err[256];
    if (steerV_screenshot(v, path, err, sizeof err) != 0) {
        printf("    screenshot: %s\n", err);
        return 0;
    }
    int comp;
    im->px = stbi_load(path, &im->w, &im->h, &comp, 4);
    return im->px != NULL;
}

static int open_view(Host *h, steerV_View **v, int *skipped)
{
    steerV_Host host = { .ud = h, .tick = host_tick, .draw = host_draw, .error = host_error };
    steerV_Desc desc = { .title = "still", .headless = !use_window };
    char err[256];
    if (steerV_open(&desc, steer_lua_toworld(h->L, h->world), &host, v, err, sizeof err) != STEER_OK) {
        printf("    cannot open the view: %s\n", err);
        *skipped = use_window;
        return 0;
    }
    return 1;
}

static int skipped;

// Pixels of the error overlay's dark red.
static int reddish(const Image *im)
{
    int n = 0;
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            const unsigned char *p = pixel(im, x, y);
            if (p[0] > 70 && p[0] < 110 && p[1] < 30 && p[2] < 40) n++;
        }
    return n;
}

static void test_frame(void)
{
    Host h = { 0 };
    REQUIRE(load(&h, scenario_path), "the scenario loads");
    steerV_View *v;
    if (!open_view(&h, &v, &skipped)) {
        lua_close(h.L);
        REQUIRE(skipped, "the view opens");
        return;
    }
    for (int i = 0; i < 20; i++) steerV_frame(v);
    CHECK(h.ticks > 0 || !use_window, "frames ran ticks through the host: %d", h.ticks);
    CHECK(!h.error[0], "no scenario error: %s", h.error);
    Image im;
    REQUIRE(shot(v, use_window ? "test-view-window.png" : "test-view.png", &im), "a screenshot is written and read");
    int w, hh;
    steerV_output_size(v, &w, &hh);
    CHECK(im.w == w && im.h == hh, "the PNG has the frame's size: %dx%d vs %dx%d", im.w, im.h, w, hh);
    check_agents(&h, v, &im, STEER_NO_AGENT);
    CHECK(steerV_has_font(v), "the font (fonts-dejavu-core) is found");
    CHECK(bright(&im, 0, 0, 260, 50) > 80, "the HUD's corner holds text: %d bright pixels", bright(&im, 0, 0, 260, 50));
    // the scenario's green circle around the blue agent at (50, 30), radius 6
    double c[3] = { 56, 30, 0 }, x, y;
    steerV_project(v, c, &x, &y);
    CHECK(colour_near(&im, x, y, (int[]){ 0, 255, 0 }), "d:circle is drawn through (56, 30) at (%.0f, %.0f)", x, y);
    stbi_image_free(im.px);
    steerV_close(v);
    lua_close(h.L);
}

// The inspector: select the steering agent; its panel fills the right side
// and its forces show as arrows from it.
static void test_inspector(void)
{
    if (skipped) return;
    Host h = { 0 };
    REQUIRE(load(&h, scenario_path), "the scenario loads");
    steerV_View *v;
    int sk = 0;
    REQUIRE(open_view(&h, &v, &sk), "the view opens");
    steer_World *w = steer_lua_toworld(h.L, h.world);
    steer_Agent a = steer_world_agent_at(w, steer_world_count(w) - 1);
    for (int i = 0; i < 3; i++) host_tick(&h);
    steerV_select(v, a);
    Image before, after;
    REQUIRE(shot(v, "test-view-inspect.png", &after), "a screenshot with the inspector");
    steerV_select(v, STEER_NO_AGENT);
    REQUIRE(shot(v, "test-view-plain.png", &before), "a screenshot without it");
    int iw = after.w;
    int panel = bright(&after, iw - 480, 0, iw, 300), none = bright(&before, iw - 480, 0, iw, 300);
    CHECK(panel > none + 300, "the inspector panel adds text on the right: %d vs %d bright pixels", panel, none);
    // the seek's force points at the target (east): its arrow shows there
    double p[3], x, y;
    steer_agent_vec(w, a, STEER_PROP_POSITION, p);
    steerV_project(v, p, &x, &y);
    int changed = 0;
    for (int dy = -10; dy <= 10; dy++)
        for (int dx = 20; dx < 70; dx++) {
            const unsigned char *q = pixel(&after, (int)x + dx, (int)y + dy);
            const unsigned char *r = pixel(&before, (int)x + dx, (int)y + dy);
            if (memcmp(q, r, 3) != 0) changed++;
        }
    CHECK(changed > 100, "force arrows drawn east of the agent: %d pixels changed", changed);
    stbi_image_free(before.px);
    stbi_image_free(after.px);
    steerV_close(v);
    lua_close(h.L);
}

// The inspector's panel keeps off the agent it inspects and its target:
// with the agent in the top right corner, where the panel opens, and its
// target in the bottom right, the panel goes to the left.
static void test_inspector_place(void)
{
    if (skipped) return;
    Host h = { 0 };
    REQUIRE(load(&h, SOURCE_DIR "/corner.lua"), "corner.lua loads");
    steerV_View *v;
    int sk = 0;
    REQUIRE(open_view(&h, &v, &sk), "the view opens");
    steer_World *w = steer_lua_toworld(h.L, h.world);
    steer_Agent a = steer_world_agent_at(w, 0);
    host_tick(&h);
    Image before, after;
    REQUIRE(shot(v, "test-view-corner-plain.png", &before), "a screenshot without the inspector");
    steerV_select(v, a);
    REQUIRE(shot(v, "test-view-corner.png", &after), "a screenshot with it");
    int iw = after.w, ih = after.h;
    int panel = bright(&after, 0, 0, iw, ih), none = bright(&before, 0, 0, iw, ih);
    CHECK(panel > none + 300, "the panel is drawn: %d vs %d bright pixels", panel, none);
    double p[3], t[3] = { 96, 4, 0 }, x, y, tx, ty;
    steer_agent_vec(w, a, STEER_PROP_POSITION, p);
    steerV_project(v, p, &x, &y);
    steerV_project(v, t, &tx, &ty);
    CHECK(colour_near(&after, x, y, tag_rgb[0]), "the agent in the top right corner shows at (%.0f, %.0f)", x, y);
    CHECK(colour_near(&after, tx, ty, (int[]){ 255, 230, 120 }), "its target's cross shows at (%.0f, %.0f)", tx, ty);
    int left = bright(&after, 0, 0, iw / 2, ih) - bright(&before, 0, 0, iw / 2, ih);
    CHECK(left > 300, "the panel's text is on the left: %d more bright pixels there", left);
    stbi_image_free(before.px);
    stbi_image_free(after.px);
    steerV_close(v);
    lua_close(h.L);
}

// Trails come from the ticks, not the frames: a headless view that runs
// ticks (steerV_run, as `steer run --headless --screenshot` does) and draws
// once shows each agent's path; without --show trails, no path.
static int trail_pixels(bool trails)
{
    Host h = { 0 };
    if (!load(&h, SOURCE_DIR "/wander.lua")) return -1;
    steerV_Host host = { .ud = &h, .tick = host_tick, .draw = host_draw, .error = host_error };
    steerV_Desc desc = { .title = "wander", .headless = true, .show = trails ? "trails" : NULL };
    steerV_View *v;
    char err[256];
    if (steerV_open(&desc, steer_lua_toworld(h.L, h.world), &host, &v, err, sizeof err) != STEER_OK) return -1;
    steerV_run(v, 120);
    Image im;
    int n = -1;
    if (shot(v, trails ? "test-view-trails.png" : "test-view-no-trails.png", &im)) {
        // lit pixels that are neither background nor text: agents and their trails
        n = 0;
        for (int y = 0; y < im.h; y++)
            for (int x = 0; x < im.w; x++) {
                const unsigned char *p = pixel(&im, x, y);
                if (abs(p[0] - 22) + abs(p[1] - 24) + abs(p[2] - 31) > 24) n++;
            }
        stbi_image_free(im.px);
    }
    steerV_close(v);
    lua_close(h.L);
    return n;
}

static void test_trails(void)
{
    if (skipped) return;
    int with = trail_pixels(true), without = trail_pixels(false);
    CHECK(without > 0 && with > without + 2000, "the trails of 120 ticks are drawn: %d lit pixels, %d without", with,
          without);
}

// A failing tick stops the simulation but not the frames: the error shows
// over the world, and once the error is gone (a reload) ticks resume.
static int fail_from = 5;
static int failing_tick(void *ud)
{
    Host *h = ud;
    if (h->ticks >= fail_from) {
        snprintf(h->error, sizeof h->error, "still.lua:12: boom\nstack traceback:\n\t[C]: in ?");
        return 0;
    }
    return host_tick(ud);
}

static void test_error(void)
{
    if (skipped) return;
    Host h = { 0 };
    REQUIRE(load(&h, scenario_path), "the scenario loads");
    steerV_Host host = { .ud = &h, .tick = failing_tick, .draw = host_draw, .error = host_error };
    steerV_Desc desc = { .title = "still", .headless = !use_window };
    steerV_View *v;
    char err[256];
    REQUIRE(steerV_open(&desc, steer_lua_toworld(h.L, h.world), &host, &v, err, sizeof err) == STEER_OK, "%s", err);
    for (int i = 0; i < 40 && !h.error[0]; i++) {
        SDL_Delay(10);
        steerV_frame(v);
    }
    REQUIRE(h.error[0], "the tick failed within 40 frames (%d ticks)", h.ticks);
    int at = h.ticks;
    for (int i = 0; i < 5; i++) {
        SDL_Delay(10);
        CHECK(steerV_frame(v), "the view goes on after the error");
    }
    CHECK(h.ticks == at, "no ticks while the error stands: %d then %d", at, h.ticks);
    Image im;
    REQUIRE(shot(v, "test-view-error.png", &im), "a screenshot with the error");
    CHECK(reddish(&im) > 20000, "the error overlay is drawn: %d pixels", reddish(&im));
    check_agents(&h, v, &im, STEER_NO_AGENT);
    stbi_image_free(im.px);
    // the reload fixed it: ticks resume
    h.error[0] = '\0';
    fail_from = 1 << 30;
    for (int i = 0; i < 10; i++) {
        SDL_Delay(10);
        steerV_frame(v);
    }
    CHECK(h.ticks > at, "ticks resume once the error is gone: %d then %d", at, h.ticks);
    steerV_close(v);
    lua_close(h.L);
}

// A 3D world: each aircraft is drawn where the perspective camera puts it
// (the wing's shading darkens the tag colour, so only the hue is compared).
static bool tinted_near(const Image *im, double x, double y, const int rgb[3])
{
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++) {
            int px = (int)lround(x) + dx, py = (int)lround(y) + dy;
            if (px < 0 || py < 0 || px >= im->w || py >= im->h) continue;
            const unsigned char *p = pixel(im, px, py);
            // the dominant channel matches: blue for "one", red for "two"
            int want = rgb[2] > rgb[0] ? 2 : 0;
            if (p[want] > 90 && p[want] > p[2 - want] + 30) return true;
        }
    return false;
}

static void test_3d(void)
{
    if (skipped) return;
    Host h = { 0 };
    REQUIRE(load(&h, SOURCE_DIR "/sky.lua"), "the 3D scenario loads");
    steerV_View *v;
    int sk = 0;
    REQUIRE(open_view(&h, &v, &sk), "the view opens");
    Image im;
    REQUIRE(shot(v, "test-view-3d.png", &im), "a screenshot");
    steer_World *w = steer_lua_toworld(h.L, h.world);
    for (int i = 0; i < steer_world_count(w); i++) {
        steer_Agent a = steer_world_agent_at(w, i);
        double p[3], x, y;
        const char *tag;
        steer_agent_vec(w, a, STEER_PROP_POSITION, p);
        steer_agent_tag(w, a, &tag);
        REQUIRE(steerV_project(v, p, &x, &y), "agent %d is in front of the camera", i);
        CHECK(x > 0 && y > 0 && x < im.w && y < im.h, "agent %d lands in the frame: (%.0f, %.0f)", i, x, y);
        CHECK(tinted_near(&im, x, y, tag_rgb[strcmp(tag, "one") == 0 ? 0 : 1]),
              "aircraft %d (%s) at (%g, %g, %g) is drawn at pixel (%.0f, %.0f)", i, tag, p[0], p[1], p[2], x, y);
    }
    // a higher craft projects higher on the screen than one below it
    double lo[3] = { 50, 50, 0 }, hi[3] = { 50, 50, 30 }, xl, yl, xh, yh;
    steerV_project(v, lo, &xl, &yl);
    steerV_project(v, hi, &xh, &yh);
    CHECK(yh < yl - 20, "z is up on the screen: %.0f above %.0f", yh, yl);
    stbi_image_free(im.px);
    steerV_close(v);
    lua_close(h.L);
}

// A headless shot of the scenario at `path` after `ticks` ticks, with the
// toggles in `show` and the world's grids; without the scenario's drawing
// when `plain`. Leaves the host open for the caller to look at the world.
static int shot_of(Host *h, const char *path, int ticks, const char *show, bool plain, const char *png, Image *im,
                   steerV_View **out)
{
    if (!h->L && !load(h, path)) return 0;
    for (int i = 0; i < ticks; i++) host_tick(h);
    steerV_Host host = { .ud = h, .tick = host_tick, .draw = plain ? NULL : host_draw, .error = host_error };
    steerV_Desc desc = { .title = "shot", .headless = true, .show = show, .nav = steer_lua_nav(h->L, h->world) };
    char err[256];
    if (steerV_open(&desc, steer_lua_toworld(h->L, h->world), &host, out, err, sizeof err) != STEER_OK) {
        printf("    cannot open the view: %s\n", err);
        return 0;
    }
    return shot(*out, png, im);
}

static bool same_rgb(const unsigned char *p, const int rgb[3])
{
    return abs(p[0] - rgb[0]) <= 3 && abs(p[1] - rgb[1]) <= 3 && abs(p[2] - rgb[2]) <= 3;
}

// G and L: the cells of the grid the scenario gave the world, the arrows
// of its flow field; and the registry they are read from follows the
// fields' lives and keeps the grid alive.
static void test_nav(void)
{
    if (skipped || use_window) return;
    Host h = { 0 };
    REQUIRE(load(&h, SOURCE_DIR "/nav.lua"), "nav.lua loads");
    const steerN_Layers *nav = steer_lua_nav(h.L, h.world);
    REQUIRE(nav && nav->n == 1 && nav->grids[0]->nflows == 1, "the world lists its grid and the grid its field");
    const steerN_Grid *g = nav->grids[0]->grid;
    CHECK(g->nx == 20 && g->ny == 10, "the grid is nav.lua's: %dx%d", g->nx, g->ny);
    // the grid is held by the world only, the extra field by nobody
    lua_getfield(h.L, h.scenario, "extra");
    lua_pushvalue(h.L, h.world);
    REQUIRE(lua_pcall(h.L, 1, 0, 0) == LUA_OK, "extra() builds a second field");
    CHECK(nav->grids[0]->nflows == 2, "a new field is listed: %u", nav->grids[0]->nflows);
    lua_gc(h.L, LUA_GCCOLLECT);
    lua_gc(h.L, LUA_GCCOLLECT);
    CHECK(nav->n == 1 && nav->grids[0]->nflows == 1, "a collected field leaves the list: %u fields",
          nav->grids[0]->nflows);
    CHECK(g->cost != NULL, "the world keeps its grid alive");
    // a blocked cell in the middle of the house: (4, 6) from the bottom left
    REQUIRE(g->cost[6 * g->nx + 4] == INFINITY, "cell (4, 6) is blocked");
    double centre[3] = { 0, 0, 0 }, open[3] = { 0, 0, 0 }, x, y;
    steerN_center(g, 4, 6, centre);
    static const int wall[3] = { 62, 67, 84 }, background[3] = { 22, 24, 31 };
    steerV_View *v;
    Image none, grid, flow;
    REQUIRE(shot_of(&h, NULL, 0, NULL, true, "test-view-nav-none.png", &none, &v), "a shot without G and L");
    steerV_project(v, centre, &x, &y);
    steerV_close(v);
    REQUIRE(shot_of(&h, NULL, 0, "grid", true, "test-view-nav-grid.png", &grid, &v), "a shot with G");
    steerV_close(v);
    REQUIRE(shot_of(&h, NULL, 0, "flow", true, "test-view-nav-flow.png", &flow, &v), "a shot with L");
    const unsigned char *n = pixel(&none, (int)x, (int)y), *gp = pixel(&grid, (int)x, (int)y);
    CHECK(same_rgb(gp, wall), "G: the blocked cell's centre (%.0f, %.0f) has the wall colour: %d %d %d", x, y, gp[0],
          gp[1], gp[2]);
    CHECK(same_rgb(n, background), "without G it is background: %d %d %d", n[0], n[1], n[2]);
    CHECK(same_rgb(pixel(&flow, (int)x, (int)y), background), "L alone does not fill the blocked cell");
    // the dear patch (cost 5) is tinted, open ground of cost 1 is not
    steerN_center(g, 15, 7, open);
    steerV_project(v, open, &x, &y);
    gp = pixel(&grid, (int)x, (int)y);
    CHECK(!same_rgb(gp, background) && gp[0] > gp[2] + 20, "G: a cell of cost 5 is tinted warm: %d %d %d", gp[0], gp[1],
          gp[2]);
    // L: arrows in the open cells, none in the blocked ones
    int arrows = 0, cells = 0, blocked_drawn = 0;
    for (int cy = 0; cy < g->ny; cy++)
        for (int cx = 0; cx < g->nx; cx++) {
            double c[3] = { 0, 0, 0 };
            steerN_center(g, cx, cy, c);
            steerV_project(v, c, &x, &y);
            int changed = 0;
            for (int dy = -6; dy <= 6; dy++)
                for (int dx = -6; dx <= 6; dx++)
                    changed +=
                        memcmp(pixel(&flow, (int)x + dx, (int)y + dy), pixel(&none, (int)x + dx, (int)y + dy), 3) != 0;
            bool is_open = g->cost[cy * g->nx + cx] < INFINITY;
            cells += is_open;
            arrows += is_open && changed > 8;
            blocked_drawn += !is_open && changed > 0;
        }
    CHECK(arrows >= cells - 2, "L: an arrow in (nearly) every open cell: %d of %d", arrows, cells);
    CHECK(blocked_drawn == 0, "L: nothing in blocked cells: %d", blocked_drawn);
    // the goal (37, 3) is ringed in yellow
    double goal[3] = { 37, 3, 0 };
    steerV_project(v, goal, &x, &y);
    CHECK(colour_near(&flow, x, y, (int[]){ 255, 225, 110 }), "L: the goal is marked at (%.0f, %.0f)", x, y);
    steerV_close(v);
    stbi_image_free(none.px);
    stbi_image_free(grid.px);
    stbi_image_free(flow.px);
    lua_close(h.L);
}

// N: a mesh's blocked obstacle is outlined in amber, over the world's
// walls its sides became (tests/lua/navobst_scene.lua: a cart whose
// polygon crosses itself, fixed, its sides sampled at their middles).
static void test_nav_obstacles(void)
{
    if (skipped || use_window) return;
    Host h = { 0 };
    steerV_View *v;
    Image im;
    REQUIRE(shot_of(&h, SOURCE_DIR "/../lua/navobst_scene.lua", 2, "navmesh", true, "test-view-navobst.png", &im, &v),
            "a shot of navobst_scene with N");
    static const double cart[4][2] = { { 8, 14 }, { 12, 16 }, { 9, 18 }, { 11, 13 } };
    int amber = 0;
    for (int k = 0; k < 4; k++) {
        const double *a = cart[k], *b = cart[(k + 1) % 4];
        double mid[3] = { a[0] + 0.3 * (b[0] - a[0]), a[1] + 0.3 * (b[1] - a[1]), 0 }, x, y;
        steerV_project(v, mid, &x, &y);
        bool warm = false;
        for (int dy = -2; dy <= 2 && !warm; dy++)
            for (int dx = -2; dx <= 2 && !warm; dx++) {
                const unsigned char *p = pixel(&im, (int)x + dx, (int)y + dy);
                warm = p[0] > 200 && p[0] > p[2] + 80;
            }
        amber += warm;
    }
    CHECK(amber == 4, "the cart's 4 sides are amber: %d of them", amber);
    stbi_image_free(im.px);
    steerV_close(v);
    lua_close(h.L);
}

// The dogfighter's teams: tags named "red" and "blue" are drawn in those colours.
static const int team_rgb[2][3] = { { 255, 95, 80 }, { 90, 160, 255 } };

// Pixels of a 3D craft: one of the two colours scaled by the wing's
// shading (text, grid lines and axes have other hues).
static int craft_pixels(const Image *im, const int rgb[2][3])
{
    int n = 0;
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            const unsigned char *p = pixel(im, x, y);
            for (int t = 0; t < 2; t++) {
                const int *c = rgb[t];
                int cm = c[0] > c[2] ? c[0] : c[2], pm = p[0] > p[1] ? p[0] : p[1];
                double k = (double)(pm > p[2] ? pm : p[2]) / cm;
                if (k < 0.3 || k > 1.05) continue;
                if (fabs(p[0] - k * c[0]) <= 12 && fabs(p[1] - k * c[1]) <= 12 && fabs(p[2] - k * c[2]) <= 12) {
                    n++;
                    break;
                }
            }
        }
    return n;
}

// The 3D fit frames the fighters, not the 4 km world, and an aircraft is
// at least 10 points long: the aircraft cover about 200 pixels, where
// framing the world gave about 40 (150 with the least size, 47 framing
// the fighters without it).
static void test_fit_3d(void)
{
    if (skipped || use_window) return;
    Host h = { 0 };
    steerV_View *v;
    Image im;
    REQUIRE(shot_of(&h, SOURCE_DIR "/../../demos/dogfighter.lua", 120, NULL, true, "test-view-dogfighter.png", &im, &v),
            "a shot of the dogfighter after 2 s");
    int n = craft_pixels(&im, team_rgb);
    CHECK(n > 170, "the aircraft cover %d pixels (framing the world gave 40, and 150 with the least size)", n);
    steer_World *w = steer_lua_toworld(h.L, h.world);
    for (int i = 0; i < steer_world_count(w); i++) {
        double p[3], x, y;
        const char *tag;
        steer_Agent a = steer_world_agent_at(w, i);
        steer_agent_vec(w, a, STEER_PROP_POSITION, p);
        steer_agent_tag(w, a, &tag);
        CHECK(steerV_project(v, p, &x, &y) && x > 0 && y > 0 && x < im.w && y < im.h,
              "fighter %d is in the frame: (%.0f, %.0f)", i, x, y);
        // a team's colour, as its tag's name says
        CHECK(tinted_near(&im, x, y, team_rgb[strcmp(tag, "red") == 0 ? 0 : 1]),
              "fighter %d (%s) at (%.0f, %.0f) "
              "is not drawn in its team's colour",
              i, tag, x, y);
    }
    stbi_image_free(im.px);
    steerV_close(v);
    lua_close(h.L);
}

// Whether a pixel is one of label.lua's green lines.
static bool is_green(const unsigned char *p) { return p[0] < 80 && p[1] > 110 && p[2] < 80; }

// A scenario's label over lines stays readable: no line touches a letter
// (bare text: 18 green pixels next to its strokes), while
// the lines still show beside the label and between its letters.
static void test_label(void)
{
    if (skipped || use_window) return;
    Host h = { 0 };
    steerV_View *v;
    Image im;
    REQUIRE(shot_of(&h, SOURCE_DIR "/label.lua", 0, NULL, false, "test-view-label.png", &im, &v),
            "a shot of label.lua");
    double p[3] = { 30, 30, 0 }, x, y;
    steerV_project(v, p, &x, &y);
    int x0 = (int)x, y0 = (int)y, text = 0, touching = 0, between = 0, beside = 0;
    for (int py = y0 - 12; py < y0; py++)
        for (int px = x0 - 60; px < x0 + 100; px++) {
            const unsigned char *q = pixel(&im, px, py);
            bool letter = q[0] > 180 && q[1] > 180 && q[2] > 180;
            if (px < x0 - 10) beside += is_green(q);
            else if (px >= x0 && !letter) between += is_green(q);
            if (px < x0 || !letter) continue;
            text++;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) touching += is_green(pixel(&im, px + dx, py + dy));
        }
    CHECK(text > 60, "the label is drawn at (%d, %d): %d bright pixels", x0, y0, text);
    CHECK(beside > 50, "the lines show beside the label: %d green pixels", beside);
    CHECK(between > 20, "and between its letters: %d green pixels", between);
    CHECK(touching == 0, "no line touches a letter: %d green pixels next to its strokes", touching);
    stbi_image_free(im.px);
    steerV_close(v);
    lua_close(h.L);
}

// Input through SDL's event queue, in a window: a click selects (the
// inspector's panel appears), Space pauses, '.' steps once, keys reach the
// scenario, the pointer's world position reaches the host, Esc quits.
static char last_key[32];
static double last_mouse[3];
static int mouse_calls;
static void host_key(void *ud, const char *name)
{
    (void)ud;
    snprintf(last_key, sizeof last_key, "%s", name);
}
static void host_mouse(void *ud, const double *pos)
{
    (void)ud;
    if (pos) {
        memcpy(last_mouse, pos, sizeof last_mouse);
        mouse_calls++;
    }
}

static int reloads;
static void host_reload(void *ud)
{
    (void)ud;
    reloads++;
}

static void push_key(SDL_Keycode k)
{
    SDL_Event e = { 0 };
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    SDL_PushEvent(&e);
}

static void frames(steerV_View *v, int n)
{
    for (int i = 0; i < n; i++) {
        SDL_Delay(20);
        steerV_frame(v);
    }
}

// High-DPI: the ratio of output pixels to window points that scales the
// mouse (no high-DPI display here: the arithmetic, on the sizes SDL gives).
// The inspector's notes come from each kind's explain field, not its name:
// a priority and a dither name the child that won, a blend what its
// truncation cut. Needs no display.
static void test_explain(void)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    steer_lua_preload(L);
    int ok =
        luaL_dostring(L, "local steer = require 'steer'\n"
                         "local w = steer.world{ dim = 2, size = {100, 100}, record = true }\n"
                         "local quiet = steer.seek{ target = {10, 10}, name = 'quiet' }\n" // on its target: no force
                         "local brain = steer.blend{\n"
                         "  { steer.priority{ quiet, steer.seek{ target = {90, 50}, name = 'east' } }, 1 },\n"
                         "  { steer.dither{ { steer.flee{ target = {10, 90}, name = 'away' }, 1 } }, 1 },\n"
                         "  { steer.seek{ target = {10, 90}, name = 'north' }, 5 },\n"
                         "}\n"
                         "local a = w:spawn{ position = {10, 10}, max_speed = 2, max_force = 1, brain = brain }\n"
                         "w:step(1)\n"
                         "return w, a.id") == LUA_OK;
    REQUIRE(ok, "the world builds: %s", ok ? "" : lua_tostring(L, -1));
    steer_World *w = steer_lua_toworld(L, -2);
    steer_Agent a = { (uint64_t)lua_tointeger(L, -1) };
    char notes[8][64];
    int n = steerV_explain(w, a, notes, 8);
    // depth-first: blend, priority, quiet, east, dither, away, north
    REQUIRE(n == 7, "seven nodes explained, got %d", n);
    CHECK(strstr(notes[0], "cut") != NULL, "the blend says what truncation cut: '%s'", notes[0]);
    CHECK(strcmp(notes[1], "east won (child 2)") == 0, "the priority names its winner: '%s'", notes[1]);
    CHECK(strcmp(notes[4], "away won (child 1)") == 0, "the dither names its winner: '%s'", notes[4]);
    CHECK(strcmp(notes[2], "quiet / not run") == 0, "a quiet child says so: '%s'", notes[2]);
    steer_world_set_record(w, false);
    CHECK(steerV_explain(w, a, notes, 8) == 0, "nothing to explain without recording");
    lua_close(L);
}

static void test_pixel_ratio(void)
{
    CHECK(steerV_pixel_ratio(1280, 720, 1280, 720) == 1, "a plain display: 1");
    CHECK(steerV_pixel_ratio(1280, 720, 2560, 1440) == 2, "a Retina-like display: 2");
    CHECK(steerV_pixel_ratio(1280, 720, 1920, 1080) == 1.5, "a 150%% scale: 1.5");
    CHECK(steerV_pixel_ratio(1280, 720, 2560, 1442) == 2, "the smaller of the two axes' ratios");
    CHECK(steerV_pixel_ratio(0, 0, 1280, 720) == 1 && steerV_pixel_ratio(1280, 720, 0, 720) == 1,
          "an unknown (minimised) size: 1");
    CHECK(steerV_pixel_ratio(1280, 720, 640, 360) == 1, "never below 1");
}

// `steer run --show LIST` and steerV_Desc.show: the toggles by name.
static void test_show_names(void)
{
    char err[200] = "";
    CHECK(steerV_show_check("grid,flow,vectors,trails,help,navmesh,context,formations", err, sizeof err),
          "every toggle's name: %s", err);
    CHECK(!steerV_show_check("grid,flows", err, sizeof err) && strstr(err, "'flows'"), "a wrong name is named: %s",
          err);
    CHECK(!steerV_show_check("", err, sizeof err) && !steerV_show_check("grid,", err, sizeof err),
          "an empty name is refused");
}

// Pixels of colour rgb (within 3 a channel) in the box of half side r round (x, y).
static int count_rgb(const Image *im, double x, double y, int r, const int rgb[3])
{
    int n = 0;
    for (int py = (int)y - r; py <= (int)y + r; py++)
        for (int px = (int)x - r; px <= (int)x + r; px++)
            if (px >= 0 && py >= 0 && px < im->w && py < im->h) n += same_rgb(pixel(im, px, py), rgb);
    return n;
}

// The id of the agent in Lua global `name` (a table's entry i when i > 0).
static steer_Agent lua_agent(lua_State *L, const char *name, int i)
{
    lua_getglobal(L, name);
    if (i > 0) lua_rawgeti(L, -1, i);
    lua_getfield(L, -1, "id");
    steer_Agent a = { (uint64_t)lua_tointeger(L, -1) };
    lua_pop(L, i > 0 ? 3 : 2);
    return a;
}

// X and M (--show context,formations): round the selected context agent
// its interest (green), its masked slots' danger (red) and the way chosen
// (pink); a ring in the slot colour round every formation slot, and the
// anchor's arrow; none of them without the toggles.
static void test_layers(void)
{
    if (skipped || use_window) return;
    Host h = { 0 };
    REQUIRE(load(&h, SOURCE_DIR "/maps.lua"), "maps.lua loads");
    for (int i = 0; i < 30; i++) host_tick(&h);
    steer_World *w = steer_lua_toworld(h.L, h.world);
    steer_Agent focus = lua_agent(h.L, "FOCUS", 0);
    static const int interest[3] = { 80, 220, 110 }, danger[3] = { 235, 70, 60 }, chosen[3] = { 255, 120, 230 },
                     slot[3] = { 190, 150, 255 }, anchor[3] = { 70, 225, 210 };
    Image im[2];
    int green[2], red[2], pink[2], rings[2], tip[2];
    for (int on = 0; on < 2; on++) {
        steerV_Host host = { .ud = &h, .tick = host_tick, .error = host_error };
        steerV_Desc desc = { .title = "maps", .headless = true, .show = on ? "context,formations" : NULL };
        steerV_View *v;
        char err[256];
        REQUIRE(steerV_open(&desc, w, &host, &v, err, sizeof err) == STEER_OK, "%s", err);
        steerV_select(v, focus);
        REQUIRE(shot(v, on ? "test-view-layers.png" : "test-view-layers-off.png", &im[on]), "a shot");
        double p[3], x, y;
        steer_agent_vec(w, focus, STEER_PROP_POSITION, p);
        steerV_project(v, p, &x, &y);
        green[on] = count_rgb(&im[on], x, y, 90, interest);
        red[on] = count_rgb(&im[on], x, y, 90, danger);
        pink[on] = count_rgb(&im[on], x, y, 110, chosen);
        rings[on] = tip[on] = 0;
        steer_DebugFormation f;
        REQUIRE(steer_debug_formations(w) == 1 && steer_debug_formation(w, 0, &f) == STEER_OK, "one formation");
        for (int k = 0; k < f.members; k++) {
            steer_DebugSlot s;
            REQUIRE(steer_debug_formation_slot(w, 0, k, &s) == STEER_OK, "slot %d", k);
            double q[3] = { s.point[0], s.point[1], s.point[2] };
            steerV_project(v, q, &x, &y);
            rings[on] += count_rgb(&im[on], x, y, 12, slot) > 10;
        }
        double a[3] = { f.anchor[0] + f.heading[0] * f.spacing * 0.5, f.anchor[1] + f.heading[1] * f.spacing * 0.5, 0 };
        steerV_project(v, a, &x, &y);
        tip[on] = count_rgb(&im[on], x, y, 4, anchor);
        steerV_close(v);
        stbi_image_free(im[on].px);
    }
    steer_DebugContext cx;
    REQUIRE(steer_debug_context(w, focus, -1, &cx) == STEER_OK && cx.nmasked > 0, "the focus has masked slots");
    CHECK(green[1] > 60 && green[0] == 0, "interest spokes: %d green pixels (%d without X)", green[1], green[0]);
    CHECK(red[1] > 20 && red[0] == 0, "masked danger spokes: %d red pixels (%d without X)", red[1], red[0]);
    CHECK(pink[1] > 30 && pink[0] == 0, "the way chosen: %d pink pixels (%d without X)", pink[1], pink[0]);
    CHECK(rings[1] == 5 && rings[0] == 0, "slot rings: %d of 5 slots ringed (%d without M)", rings[1], rings[0]);
    CHECK(tip[1] > 5 && tip[0] == 0, "the anchor's arrow: %d pixels (%d without M)", tip[1], tip[0]);
    lua_close(h.L);
}

// Pixels between two world points 10 m apart along x at (500, 500).
static double ten_metres(const steerV_View *v)
{
    double a[3] = { 500, 500, 0 }, b[3] = { 510, 500, 0 }, xa, ya, xb, yb;
    steerV_project(v, a, &xa, &ya);
    steerV_project(v, b, &xb, &yb);
    return fabs(xb - xa);
}

// 2D: a few agents in a small part of a large world are framed, not the
// world; in a window, 0 then frames the world, and 0 again the agents.
static void test_fit_2d(void)
{
    if (skipped) return;
    Host h = { 0 };
    REQUIRE(load(&h, SOURCE_DIR "/speck.lua"), "speck.lua loads");
    steerV_Host host = { .ud = &h, .tick = host_tick, .draw = host_draw, .error = host_error };
    steerV_Desc desc = { .title = "speck", .headless = !use_window };
    steerV_View *v;
    char err[256];
    REQUIRE(steerV_open(&desc, steer_lua_toworld(h.L, h.world), &host, &v, err, sizeof err) == STEER_OK, "%s", err);
    steerV_frame(v);
    double agents = ten_metres(v);
    CHECK(agents > 100, "the agents are framed: 10 m are %.0f pixels (the world framed: 7)", agents);
    if (use_window) {
        push_key(SDLK_0);
        frames(v, 2);
        double world = ten_metres(v);
        CHECK(world < 10, "0 after the opening frames the world: 10 m are %.0f pixels", world);
        push_key(SDLK_HOME);
        frames(v, 2);
        CHECK(fabs(ten_metres(v) - agents) < 1, "pressed again, the agents: %.0f pixels (%.0f at the opening)",
              ten_metres(v), agents);
    }
    steerV_close(v);
    lua_close(h.L);
}

static void test_controls(void)
{
    if (skipped || !use_window) return;
    Host h = { 0 };
    REQUIRE(load(&h, scenario_path), "the scenario loads");
    steerV_Host host = { .ud = &h,
                         .tick = host_tick,
                         .draw = host_draw,
                         .error = host_error,
                         .key = host_key,
                         .mouse = host_mouse,
                         .reload = host_reload };
    steerV_Desc desc = { .title = "still" };
    steerV_View *v;
    char err[256];
    REQUIRE(steerV_open(&desc, steer_lua_toworld(h.L, h.world), &host, &v, err, sizeof err) == STEER_OK, "%s", err);
    frames(v, 3);
    steer_World *w = steer_lua_toworld(h.L, h.world);
    steer_Agent a = steer_world_agent_at(w, 0);
    double p[3], x, y;
    steer_agent_vec(w, a, STEER_PROP_POSITION, p);
    steerV_project(v, p, &x, &y);
    int ww, wh, ow, oh;
    SDL_Window *win = SDL_GetWindowFromID(1);
    REQUIRE(win, "the window exists");
    SDL_GetWindowSize(win, &ww, &wh);
    steerV_output_size(v, &ow, &oh);
    double k = (double)ww / ow; // output pixels to window points
    SDL_WarpMouseInWindow(win, (int)(x * k), (int)(y * k));
    SDL_Event e = { 0 };
    e.type = SDL_WINDOWEVENT;
    e.window.event = SDL_WINDOWEVENT_ENTER;
    SDL_PushEvent(&e);
    SDL_Event m = { 0 };
    m.type = SDL_MOUSEBUTTONDOWN;
    m.button.button = SDL_BUTTON_LEFT;
    m.button.x = (int)(x * k);
    m.button.y = (int)(y * k);
    SDL_PushEvent(&m);
    m.type = SDL_MOUSEBUTTONUP;
    SDL_PushEvent(&m);
    frames(v, 3);
    Image im;
    REQUIRE(shot(v, "test-view-click.png", &im), "a screenshot after the click");
    CHECK(bright(&im, im.w - 480, 0, im.w, 120) > 300, "a click on an agent opens the inspector: %d bright pixels",
          bright(&im, im.w - 480, 0, im.w, 120));
    stbi_image_free(im.px);
    CHECK(mouse_calls > 0 && fabs(last_mouse[0] - p[0]) < 1.5 && fabs(last_mouse[1] - p[1]) < 1.5,
          "the pointer's world position reaches the host: (%g, %g) for an agent at (%g, %g), %d calls", last_mouse[0],
          last_mouse[1], p[0], p[1], mouse_calls);
    // the wheel zooms about the cursor: the agent under it stays put
    double x0, y0, x1, y1, far[3] = { p[0] + 20, p[1], p[2] }, fx0, fy0, fx1, fy1;
    steerV_project(v, p, &x0, &y0);
    steerV_project(v, far, &fx0, &fy0);
    SDL_Event wh_ev = { 0 };
    wh_ev.type = SDL_MOUSEWHEEL;
    wh_ev.wheel.y = 3;
    wh_ev.wheel.preciseY = 3;
    SDL_PushEvent(&wh_ev);
    frames(v, 2);
    steerV_project(v, p, &x1, &y1);
    steerV_project(v, far, &fx1, &fy1);
    CHECK(fabs(fx1 - x1) > 1.3 * fabs(fx0 - x0), "the wheel zooms in: 20 m were %.0f px, now %.0f px", fx0 - x0,
          fx1 - x1);
    CHECK(fabs(x1 - x0) < 3 && fabs(y1 - y0) < 3, "about the cursor: the agent moved from (%.0f, %.0f) to (%.0f, %.0f)",
          x0, y0, x1, y1);
    // F follows the selected agent: it comes to the middle of the frame
    push_key(SDLK_f);
    frames(v, 2);
    steerV_project(v, p, &x1, &y1);
    CHECK(fabs(x1 - ow / 2.0) < 2 && fabs(y1 - oh / 2.0) < 2, "F centres the selected agent: (%.0f, %.0f) in %dx%d", x1,
          y1, ow, oh);
    push_key(SDLK_r);
    frames(v, 1);
    CHECK(reloads == 1, "R calls the host's reload: %d", reloads);
    push_key(SDLK_SPACE);
    frames(v, 2);
    int at = h.ticks;
    frames(v, 5);
    CHECK(h.ticks == at, "Space pauses: %d then %d ticks", at, h.ticks);
    push_key(SDLK_PERIOD);
    frames(v, 3);
    CHECK(h.ticks == at + 1, "'.' steps one tick: %d then %d", at, h.ticks);
    push_key(SDLK_a);
    frames(v, 1);
    CHECK(strcmp(last_key, "a") == 0, "keys reach the scenario: '%s'", last_key);
    push_key(SDLK_ESCAPE);
    CHECK(!steerV_frame(v), "Esc quits");
    steerV_close(v);
    lua_close(h.L);
}

// ---- rewind ------------------------------------------------------------------------
// A C host on steer_world_save / steer_world_restore: the ring takes a
// snapshot at each half second, steps through them, and a run resumed
// from a past point reaches the uninterrupted hash.

static int saves;
static int world_save(void *ud, steer_WriteFn write, void *write_ud)
{
    Host *h = ud;
    saves++;
    return steer_world_save(steer_lua_toworld(h->L, h->world), write, write_ud);
}

static int world_restore(void *ud, const unsigned char *bytes, size_t len, char *err, size_t errlen)
{
    Host *h = ud;
    return steer_world_restore(steer_lua_toworld(h->L, h->world), bytes, len, err, errlen);
}

static steerV_View *rewind_view(Host *h, double seconds, size_t bytes)
{
    if (!load(h, SOURCE_DIR "/wander.lua")) return NULL;
    steerV_Host host = {
        .ud = h, .tick = host_tick, .draw = host_draw, .error = host_error, .save = world_save, .restore = world_restore
    };
    steerV_Desc desc = { .title = "wander", .headless = !use_window, .ring_seconds = seconds, .ring_bytes = bytes };
    steerV_View *v;
    char err[256];
    if (steerV_open(&desc, steer_lua_toworld(h->L, h->world), &host, &v, err, sizeof err) != STEER_OK) {
        printf("    cannot open the view: %s\n", err);
        return NULL;
    }
    return v;
}

// Pixels of the timeline's current-point marker (yellow live, orange in the past) in the bottom rows.
static int marker_pixels(const Image *im, bool past)
{
    int n = 0;
    for (int y = im->h - 70; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            const unsigned char *p = pixel(im, x, y);
            if (past ? (p[0] > 240 && p[1] > 140 && p[1] < 180 && p[2] < 80)
                     : (p[0] > 240 && p[1] > 210 && p[2] > 70 && p[2] < 110))
                n++;
        }
    return n;
}

// The ring of a fresh view after `ticks` ticks.
static void ring_after(double seconds, size_t bytes, int ticks, steerV_RingInfo *ri)
{
    Host h = { 0 };
    steerV_View *v = rewind_view(&h, seconds, bytes);
    memset(ri, 0, sizeof *ri);
    if (v) {
        steerV_run(v, ticks);
        steerV_ring_info(v, ri);
        steerV_close(v);
    }
    if (h.L) lua_close(h.L);
}

static void test_rewind(void)
{
    if (skipped) return;
    Host h = { 0 };
    steerV_View *v = rewind_view(&h, 0, 0);
    REQUIRE(v, "the view opens");
    steer_World *w = steer_lua_toworld(h.L, h.world);
    double dt = steer_world_dt(w);
    int per_mark = (int)lround(0.5 / dt), n = 10 * per_mark; // 5 s
    saves = 0;
    CHECK(steerV_run(v, n) == n, "%d ticks run", n);
    CHECK(saves == 10, "one snapshot a half second: %d in 5 s", saves);
    steerV_RingInfo ri;
    steerV_ring_info(v, &ri);
    CHECK(ri.count == 11 && ri.oldest == 0 && fabs(ri.newest - 5) < 1e-6 && ri.cursor == -1,
          "11 snapshots from 0 to 5 s: %d, %g to %g", ri.count, ri.oldest, ri.newest);
    CHECK(ri.bytes > 0 && ri.cap == (size_t)256 << 20, "bytes %zu under a cap of %zu", ri.bytes, ri.cap);
    uint64_t want = steer_world_hash(w);
    CHECK(steerV_rewind_to(v, 2.2) == 0, "rewind to 2.2 s");
    CHECK(steer_world_tick(w) == (uint64_t)(4 * per_mark), "at the snapshot of 2 s: tick %llu",
          (unsigned long long)steer_world_tick(w));
    CHECK(steerV_ring_step(v, -1) == 0 && steer_world_tick(w) == (uint64_t)(3 * per_mark), "[ steps back: tick %llu",
          (unsigned long long)steer_world_tick(w));
    CHECK(steerV_ring_step(v, 1) == 0 && steerV_ring_step(v, 1) == 0 && steer_world_tick(w) == (uint64_t)(5 * per_mark),
          "] steps forward: tick %llu", (unsigned long long)steer_world_tick(w));
    Image im;
    REQUIRE(shot(v, use_window ? "test-view-rewind-window.png" : "test-view-rewind.png", &im), "a screenshot");
    CHECK(marker_pixels(&im, true) > 20, "the timeline marks the past point (orange): %d pixels",
          marker_pixels(&im, true));
    CHECK(marker_pixels(&im, true) > 20 + 100, "the timeline's line of text is orange too: %d pixels",
          marker_pixels(&im, true));
    stbi_image_free(im.px);
    steerV_ring_info(v, &ri);
    CHECK(ri.cursor == 5, "browsing entry 5: %d", ri.cursor);
    // resume from 2.5 s: the entries after it go, the run reaches the same state
    CHECK(steerV_run(v, n - 5 * per_mark) == n - 5 * per_mark, "run on");
    CHECK(steer_world_hash(w) == want, "resumed from 2.5 s, at 5 s: the uninterrupted hash");
    steerV_ring_info(v, &ri);
    CHECK(ri.count == 11 && ri.cursor == -1, "one history again: %d snapshots, cursor %d", ri.count, ri.cursor);
    // Backspace: 5 s back, to the start
    CHECK(steerV_rewind(v, 5) == 0 && steer_world_tick(w) == 0, "5 s back: tick %llu",
          (unsigned long long)steer_world_tick(w));
    CHECK(steerV_rewind(v, 1) != 0, "nothing older than the oldest");
    // forward past the newest: back where browsing began (between two marks)
    steerV_run(v, 3 * per_mark + 7);
    uint64_t live = steer_world_hash(w), tick = steer_world_tick(w);
    CHECK(steerV_ring_step(v, -1) == 0 && steer_world_tick(w) == (uint64_t)(3 * per_mark), "back to 1.5 s");
    CHECK(steerV_ring_step(v, 1) == 0 && steer_world_tick(w) == tick && steer_world_hash(w) == live,
          "forward past the newest: the live state again (tick %llu)", (unsigned long long)steer_world_tick(w));
    CHECK(steerV_ring_step(v, 1) != 0, "nothing newer");
    // live: the current point is yellow
    REQUIRE(shot(v, "test-view-rewind-live.png", &im), "a screenshot");
    CHECK(marker_pixels(&im, false) > 20, "the timeline marks now (yellow): %d", marker_pixels(&im, false));
    stbi_image_free(im.px);
    steerV_close(v);
    lua_close(h.L);

    // the last N seconds only, and the memory bound
    ring_after(2, 0, n, &ri);
    CHECK(ri.count == 5 && fabs(ri.oldest - 3) < 1e-6, "2 s kept: %d snapshots from %g s", ri.count, ri.oldest);
    ring_after(0, 1, 0, &ri);
    size_t one = ri.bytes;
    ring_after(0, 3 * one, n, &ri);
    CHECK(ri.count >= 2 && ri.count <= 5 && ri.bytes <= 3 * one && fabs(ri.newest - 5) < 1e-6,
          "bounded to %zu bytes: %d snapshots in %zu bytes, the newest kept", 3 * one, ri.count, ri.bytes);
}

// In a window: [ and ] step while paused, Backspace jumps 5 s back, F5
// writes a snapshot file.
static void test_rewind_keys(void)
{
    if (skipped || !use_window) return;
    Host h = { 0 };
    steerV_View *v = rewind_view(&h, 0, 0);
    REQUIRE(v, "the view opens");
    steer_World *w = steer_lua_toworld(h.L, h.world);
    int per_mark = (int)lround(0.5 / steer_world_dt(w));
    steerV_run(v, 12 * per_mark + 5);
    push_key(SDLK_SPACE);
    frames(v, 1);
    static const struct {
        SDL_Keycode key;
        int mark;
        const char *what;
    } steps[] = {
        { SDLK_LEFTBRACKET, 12, "[ goes to the last snapshot" },
        { SDLK_LEFT, 11, "Left one more" },
        { SDLK_RIGHTBRACKET, 12, "] forward" },
        { SDLK_BACKSPACE, 2, "Backspace: 5 s back" },
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        push_key(steps[i].key);
        frames(v, 2);
        CHECK(steer_world_tick(w) == (uint64_t)(steps[i].mark * per_mark), "%s: tick %llu", steps[i].what,
              (unsigned long long)steer_world_tick(w));
    }
    push_key(SDLK_h);
    frames(v, 1);
    Image im;
    REQUIRE(shot(v, "test-view-rewind-keys.png", &im), "a screenshot with the help");
    stbi_image_free(im.px);
    push_key(SDLK_h);
    char path[128];
    snprintf(path, sizeof path, "steer-wander-%d.snapshot", 2 * per_mark);
    remove(path);
    push_key(SDLK_F5);
    frames(v, 1);
    FILE *f = fopen(path, "rb");
    CHECK(f, "F5 writes %s", path);
    if (f) fclose(f);
    remove(path);
    push_key(SDLK_SPACE);
    frames(v, 5);
    CHECK(steer_world_tick(w) > (uint64_t)(2 * per_mark), "Space runs on from there: tick %llu",
          (unsigned long long)steer_world_tick(w));
    steerV_close(v);
    lua_close(h.L);
}

// Backspace (steerV_rewind) pauses at the rewound point, as [ does: frames
// go by and the world stays there with the later snapshots kept, until the
// designer runs on (Space in a window, a tick headless), which drops them.
static void test_rewind_pauses(void)
{
    if (skipped) return;
    Host h = { 0 };
    steerV_View *v = rewind_view(&h, 0, 0);
    REQUIRE(v, "the view opens");
    steer_World *w = steer_lua_toworld(h.L, h.world);
    int per_mark = (int)lround(0.5 / steer_world_dt(w));
    steerV_run(v, 12 * per_mark + 5);
    frames(v, 2); // running: the clock ticks
    uint64_t running = steer_world_tick(w);
    CHECK(running > (uint64_t)(12 * per_mark + 5), "the clock runs before the rewind: tick %llu",
          (unsigned long long)running);
    if (use_window) push_key(SDLK_BACKSPACE);
    else CHECK(steerV_rewind(v, 5) == 0, "5 s back");
    frames(v, 1);
    uint64_t rewound = steer_world_tick(w);
    steerV_RingInfo before, after;
    steerV_ring_info(v, &before);
    CHECK(before.cursor >= 0 && rewound < running, "Backspace rewound: tick %llu, cursor %d",
          (unsigned long long)rewound, before.cursor);
    frames(v, 8);
    steerV_ring_info(v, &after);
    CHECK(steer_world_tick(w) == rewound, "paused at the rewound point: tick %llu, then %llu",
          (unsigned long long)rewound, (unsigned long long)steer_world_tick(w));
    CHECK(after.count == before.count && after.cursor == before.cursor && after.newest == before.newest,
          "the later snapshots stay while paused: %d of %d, newest %g s of %g s", after.count, before.count,
          after.newest, before.newest);
    // running on starts a new timeline from the rewound point
    if (use_window) {
        push_key(SDLK_SPACE);
        frames(v, 5);
    } else {
        steerV_run(v, 1);
    }
    steerV_ring_info(v, &after);
    CHECK(steer_world_tick(w) > rewound, "runs on: tick %llu", (unsigned long long)steer_world_tick(w));
    CHECK(after.cursor == -1 && after.count <= before.cursor + 2 && after.newest < before.newest,
          "running on drops the later snapshots: %d left (was %d), newest %g s", after.count, before.count,
          after.newest);
    steerV_close(v);
    lua_close(h.L);
}

// The `steer` program's screenshot: the same agents where the world has them.
static int cli(const char *exe, const char *scenario, bool expect_error, bool no_display)
{
    char cmd[2048];
    const char *png = expect_error ? "test-view-cli-error.png"
                      : use_window ? "test-view-cli-window.png"
                                   : "test-view-cli.png";
    if (no_display) {
        // no display: `steer run FILE` says so, runs headless and writes steer-NAME.png
        png = "steer-still.png";
        unsetenv("DISPLAY");
        unsetenv("WAYLAND_DISPLAY");
        unsetenv("SDL_VIDEODRIVER");
        snprintf(cmd, sizeof cmd, "'%s' run '%s' 2>test-view-nodisplay.txt", exe, scenario);
    } else {
        snprintf(cmd, sizeof cmd, "'%s' run %s --ticks 30 --screenshot %s '%s'", exe, use_window ? "" : "--headless",
                 png, scenario);
    }
    remove(png);
    int st = system(cmd);
    if (no_display) {
        char said[512] = "";
        FILE *f = fopen("test-view-nodisplay.txt", "r");
        if (f) {
            size_t n = fread(said, 1, sizeof said - 1, f);
            said[n] = '\0';
            fclose(f);
        }
        CHECK(strstr(said, "no display") && strstr(said, "running headless"), "it says why it runs headless: %s", said);
    }
    Image im;
    int comp;
    im.px = stbi_load(png, &im.w, &im.h, &comp, 4);
    if (!im.px) {
        printf("FAIL - %s wrote no PNG (status %d)\n", cmd, st);
        return 1;
    }
    // a headless view of the same size over the same world gives the projection
    Host h = { 0 };
    if (!load(&h, scenario)) return 1;
    // with rewind, as the program's: the world is framed above the timeline
    steerV_Host host = { .ud = &h,
                         .tick = host_tick,
                         .draw = host_draw,
                         .error = host_error,
                         .save = world_save,
                         .restore = world_restore };
    steerV_Desc desc = { .title = "still", .headless = true, .width = im.w, .height = im.h };
    steerV_View *v;
    char err[256];
    if (steerV_open(&desc, steer_lua_toworld(h.L, h.world), &host, &v, err, sizeof err) != STEER_OK) {
        printf("FAIL - %s\n", err);
        return 1;
    }
    if (expect_error) {
        CHECK(st != 0, "%s fails: %d", cmd, st);
        CHECK(reddish(&im) > 20000, "the error overlay is in the screenshot: %d pixels", reddish(&im));
    } else {
        CHECK(st == 0, "%s exits 0: %d", cmd, st);
    }
    check_agents(&h, v, &im, STEER_NO_AGENT);
    CHECK(bright(&im, 0, 0, 260, 50) > 80, "the HUD's corner holds text");
    printf("%s - steer run%s: agents in the PNG where the world has them%s\n", check_failures_ ? "FAIL" : "ok",
           no_display   ? " without a display"
           : use_window ? " (window) --screenshot"
                        : " --headless --screenshot",
           expect_error ? ", and the error over them" : "");
    steerV_close(v);
    lua_close(h.L);
    stbi_image_free(im.px);
    return check_failures_ ? 1 : 0;
}

int main(int argc, char **argv)
{
    bool expect_error = false, no_display = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--window") == 0) use_window = true;
        if (strcmp(argv[i], "--expect-error") == 0) expect_error = true;
        if (strcmp(argv[i], "--no-display") == 0) no_display = true;
    }
    if (argc >= 4 && strcmp(argv[1], "--cli") == 0) return cli(argv[2], argv[3], expect_error, no_display);
    RUN(test_pixel_ratio);
    RUN(test_explain);
    RUN(test_show_names);
    RUN(test_frame);
    if (skipped) {
        printf("SKIP - no window could be opened (is Xvfb running?)\n");
        return SKIP;
    }
    RUN(test_inspector);
    RUN(test_inspector_place);
    RUN(test_trails);
    RUN(test_error);
    RUN(test_3d);
    RUN(test_nav);
    RUN(test_nav_obstacles);
    RUN(test_layers);
    RUN(test_fit_3d);
    RUN(test_fit_2d);
    RUN(test_label);
    RUN(test_controls);
    RUN(test_rewind);
    RUN(test_rewind_keys);
    RUN(test_rewind_pauses);
    return check_report_(use_window ? "view (window)" : "view");
}
