// SPDX-License-Identifier: MIT
// view.c — the window (or a headless surface), the frame loop and input:
// a fixed-timestep accumulator runs the host's ticks at the world's dt
// times the speed factor, independent of the frame rate; then the scene,
// the inspector, the HUD and the overlays (help, the scenario's error) are
// drawn through batches. A script error never closes the window: the host
// reports it, ticks stop, and the last good drawing stays until a reload.
#include "viewint.h"

#include <stb_image_write.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_FRAME 0.25    // a longer frame (a breakpoint, a slow tick) is not caught up
#define PICK_RADIUS 12.0f // points around an agent that select it

static const char *const help_lines[] = { "Space   pause / resume",
                                          ".       one tick (while paused)",
                                          "+ -     simulation speed x2 / /2",
                                          "R       reload the scenario",
                                          "F       follow (3D: chase) the selected agent",
                                          "V       force (red) and velocity (green) of every agent",
                                          "G       grid: the scenario's grid cells (w:add_grid), else metres",
                                          "O       obstacles and walls",
                                          "P       paths and patrol routes",
                                          "L       flow fields: an arrow a cell, goals ringed",
                                          "N       navigation meshes: triangles, areas, walls",
                                          "T       trails (the first 4096 agents)",
                                          "X       context maps round the selected agent: interest green,",
                                          "        danger red (masked slots dim), the way chosen pink",
                                          "M       formations: slots ringed, member to slot, anchor arrow",
                                          "0/Home  fit the agents; pressed again, the whole world",
                                          "S       screenshot to a PNG",
                                          "[ ]     rewind: a snapshot back / forward (Left/Right too)",
                                          "Bksp    rewind 5 seconds, pausing; Space runs on from there",
                                          "F5 W    save a snapshot file (steer run --load FILE)",
                                          "H       this help",
                                          "Esc     quit",
                                          "",
                                          "click an agent to inspect it; drag to pan (3D: orbit,",
                                          "right-drag pans); wheel zooms at the cursor",
                                          NULL };

// The toggles a view can start with (steerV_Desc.show, `steer run --show`).
static const struct {
    const char *name;
    size_t offset;
} toggles[] = {
    { "grid", offsetof(steerV_View, show_grid) },       { "flow", offsetof(steerV_View, show_fields) },
    { "vectors", offsetof(steerV_View, show_vectors) }, { "trails", offsetof(steerV_View, show_trails) },
    { "help", offsetof(steerV_View, show_help) },       { "navmesh", offsetof(steerV_View, show_navmesh) },
    { "context", offsetof(steerV_View, show_context) }, { "formations", offsetof(steerV_View, show_formations) },
};

// Switch on each toggle of the comma-separated list (v NULL: only check).
static bool show(steerV_View *v, const char *list, char *err, size_t errlen)
{
    for (const char *s = list;;) {
        size_t n = strcspn(s, ","), k = 0, count = sizeof toggles / sizeof toggles[0];
        while (k < count && !(strlen(toggles[k].name) == n && strncmp(s, toggles[k].name, n) == 0)) k++;
        if (k == count) {
            snprintf(err, errlen,
                     "unknown toggle '%.*s' (expected a comma-separated list of grid, flow, vectors, "
                     "trails, help, navmesh, context, formations)",
                     (int)n, s);
            return false;
        }
        if (v) *(bool *)(void *)((char *)v + toggles[k].offset) = true;
        if (!s[n]) return true;
        s += n + 1;
    }
}

bool steerV_show_check(const char *list, char *err, size_t errlen) { return show(NULL, list, err, errlen); }

double steerV_pixel_ratio(int window_w, int window_h, int output_w, int output_h)
{
    if (window_w <= 0 || window_h <= 0 || output_w <= 0 || output_h <= 0) return 1;
    double r = fmin((double)output_w / window_w, (double)output_h / window_h);
    return r > 1 ? r : 1;
}

// A window point (SDL's mouse coordinates, or a motion in them) in output
// pixels, where the camera, picking and drawing work.
static void to_pixels(const steerV_View *v, double x, double y, double *px, double *py)
{
    *px = x * v->dpi;
    *py = y * v->dpi;
}

static double seconds(Uint64 t) { return (double)t / (double)SDL_GetPerformanceFrequency(); }

static void sizes(steerV_View *v)
{
    if (v->headless) {
        v->cam.width = v->surface->w;
        v->cam.height = v->surface->h;
        v->dpi = 1;
    } else {
        int ww, wh;
        SDL_GetWindowSize(v->window, &ww, &wh);
        SDL_GetRendererOutputSize(v->ren, &v->cam.width, &v->cam.height);
        v->dpi = steerV_pixel_ratio(ww, wh, v->cam.width, v->cam.height);
    }
    steerV_camera_update(v);
}

int steerV_open(const steerV_Desc *desc, steer_World *w, const steerV_Host *host, steerV_View **out, char *err,
                size_t errlen)
{
    *out = NULL;
    int width = desc->width > 0 ? desc->width : 1280, height = desc->height > 0 ? desc->height : 720;
    steerV_View *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return STEER_ENOMEM;
    }
    v->w = w;
    v->nav = desc->nav;
    v->host = *host;
    v->headless = desc->headless;
    snprintf(v->title, sizeof v->title, "%s", desc->title ? desc->title : "steer");
    v->speed = 1;
    v->show_shapes = v->show_paths = v->show_navmesh = true;
    steerV_ring_init(v, desc);
    if (desc->show && !show(v, desc->show, err, errlen)) {
        steerV_ring_free(v);
        free(v);
        return STEER_EARG;
    }
    if (v->headless) {
        // software rendering into memory: no video driver, no display
        if (SDL_Init(0) != 0) goto sdl_fail;
        v->surface = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_RGBA32);
        if (!v->surface) goto sdl_fail;
        v->ren = SDL_CreateSoftwareRenderer(v->surface);
        if (!v->ren) goto sdl_fail;
    } else {
        SDL_SetHint(SDL_HINT_VIDEO_HIGHDPI_DISABLED, "0");
        if (!SDL_getenv("DISPLAY") && !SDL_getenv("WAYLAND_DISPLAY") && !SDL_getenv("SDL_VIDEODRIVER")) {
            snprintf(err, errlen, "no display (DISPLAY and WAYLAND_DISPLAY are not set)");
            steerV_ring_free(v);
            free(v);
            return STEER_EARG;
        }
        if (SDL_Init(SDL_INIT_VIDEO) != 0) {
            snprintf(err, errlen, "no display (SDL: %s)", SDL_GetError());
            steerV_ring_free(v);
            free(v);
            return STEER_EARG;
        }
        const char *driver = SDL_GetCurrentVideoDriver();
        if (driver && (strcmp(driver, "dummy") == 0 || strcmp(driver, "offscreen") == 0) &&
            !SDL_getenv("SDL_VIDEODRIVER")) {
            snprintf(err, errlen, "no display (SDL found only the '%s' video driver)", driver);
            SDL_Quit();
            steerV_ring_free(v);
            free(v);
            return STEER_EARG;
        }
        char title[160];
        snprintf(title, sizeof title, "steer - %s", v->title);
        v->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height,
                                     SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
        if (!v->window) goto sdl_fail;
        v->ren = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
        if (!v->ren) v->ren = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_SOFTWARE);
        if (!v->ren) goto sdl_fail;
    }
    SDL_SetRenderDrawBlendMode(v->ren, SDL_BLENDMODE_BLEND);
    if (TTF_Init() != 0) fprintf(stderr, "steer: SDL_ttf: %s; drawing without text\n", TTF_GetError());
    sizes(v);
    steerV_font_open(v);
    steerV_fit(v, false);
    v->fit_agents = true;
    v->refit = v->headless;
    // the inspector reads each node's last output
    steer_world_set_record(w, true);
    steerV_ring_start(v);
    v->last = SDL_GetPerformanceCounter();
    *out = v;
    return STEER_OK;
sdl_fail:
    snprintf(err, errlen, "SDL: %s", SDL_GetError());
    steerV_close(v);
    return STEER_EARG;
}

void steerV_close(steerV_View *v)
{
    if (!v) return;
    steerV_font_free(v);
    steerV_trails_free(v);
    steerV_ring_free(v);
    if (TTF_WasInit()) TTF_Quit();
    if (v->ren) SDL_DestroyRenderer(v->ren);
    if (v->window) SDL_DestroyWindow(v->window);
    if (v->surface) SDL_FreeSurface(v->surface);
    free(v->hair.h);
    steerV_batch_free(&v->geo);
    steerV_batch_free(&v->text);
    steerV_batch_free(&v->ui);
    steerV_batch_free(&v->ui_text);
    steer_draw_free(&v->shown);
    steer_draw_free(&v->scratch);
    free(v);
    SDL_Quit();
}

// ---- input -----------------------------------------------------------------

static void zoom_at(steerV_View *v, double px, double py, double factor)
{
    steerV_Camera *c = &v->cam;
    if (steer_world_dim(v->w) == 3) {
        c->dist = fmin(fmax(c->dist / factor, 0.5), 1e6);
        steerV_camera_update(v);
        return;
    }
    // keep the world point under the cursor where it is
    double before[3], after[3];
    steerV_to_world(v, px, py, before);
    c->scale = fmin(fmax(c->scale * factor, 1e-4), 1e5);
    steerV_to_world(v, px, py, after);
    c->cx += before[0] - after[0];
    c->cy += before[1] - after[1];
}

static void screenshot_key(steerV_View *v)
{
    char path[300], err[200];
    snprintf(path, sizeof path, "steer-%s-%d.png", v->title, ++v->shots);
    for (char *s = path; *s; s++)
        if (*s == '/' || *s == ' ') *s = '_';
    if (steerV_screenshot(v, path, err, sizeof err) == 0) fprintf(stderr, "steer: screenshot %s\n", path);
    else fprintf(stderr, "steer: screenshot failed: %s\n", err);
}

static void key_name(SDL_Keycode k, char *out, size_t len)
{
    snprintf(out, len, "%s", SDL_GetKeyName(k));
    for (char *s = out; *s; s++) *s = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
}

static bool on_key(steerV_View *v, SDL_Keycode k)
{
    switch (k) {
    case SDLK_ESCAPE: return false;
    case SDLK_SPACE: v->paused = !v->paused; break;
    case SDLK_PERIOD:
        v->paused = true;
        v->step_once = true;
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS: v->speed = fmin(v->speed * 2, 64); break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS: v->speed = fmax(v->speed / 2, 1.0 / 64); break;
    case SDLK_r:
        if (v->host.reload) v->host.reload(v->host.ud);
        break;
    case SDLK_f:
        v->follow = !v->follow && v->selected.id;
        v->fit_agents = false;
        break;
    case SDLK_v: v->show_vectors = !v->show_vectors; break;
    case SDLK_g: v->show_grid = !v->show_grid; break;
    case SDLK_o: v->show_shapes = !v->show_shapes; break;
    case SDLK_p: v->show_paths = !v->show_paths; break;
    case SDLK_l: v->show_fields = !v->show_fields; break;
    case SDLK_n: v->show_navmesh = !v->show_navmesh; break;
    case SDLK_t: v->show_trails = !v->show_trails; break;
    case SDLK_x: v->show_context = !v->show_context; break;
    case SDLK_m: v->show_formations = !v->show_formations; break;
    case SDLK_h: v->show_help = !v->show_help; break;
    case SDLK_0:
    case SDLK_HOME:
        v->follow = false;
        v->fit_agents = !v->fit_agents;
        steerV_fit(v, !v->fit_agents);
        break;
    case SDLK_s: screenshot_key(v); break;
    case SDLK_LEFT:
    case SDLK_LEFTBRACKET: steerV_ring_step(v, -1); break;
    case SDLK_RIGHT:
    case SDLK_RIGHTBRACKET: steerV_ring_step(v, 1); break;
    case SDLK_BACKSPACE: steerV_rewind(v, 5); break;
    case SDLK_F5:
    case SDLK_w: steerV_ring_save_file(v); break;
    default: break;
    }
    // the scenario hears every key too (on_key), after the viewer
    if (v->host.key) {
        char name[32];
        key_name(k, name, sizeof name);
        v->host.key(v->host.ud, name);
    }
    return true;
}

static void on_click(steerV_View *v, int x, int y)
{
    double px, py;
    to_pixels(v, x, y, &px, &py);
    int64_t d = steerV_pick(v, (float)px, (float)py, PICK_RADIUS * (float)v->dpi);
    v->selected = d >= 0 ? steer_debug_agent_handle(v->w, (int)d) : STEER_NO_AGENT;
    if (!v->selected.id) v->follow = false;
}

static bool events(steerV_View *v)
{
    SDL_Event e;
    bool go = true;
    while (SDL_PollEvent(&e)) {
        switch (e.type) {
        case SDL_QUIT: go = false; break;
        case SDL_KEYDOWN:
            if (!on_key(v, e.key.keysym.sym)) go = false;
            break;
        case SDL_MOUSEBUTTONDOWN:
            v->drag_button = e.button.button;
            v->drag_x = e.button.x;
            v->drag_y = e.button.y;
            v->dragged = false;
            break;
        case SDL_MOUSEBUTTONUP:
            if (e.button.button == SDL_BUTTON_LEFT && !v->dragged) on_click(v, e.button.x, e.button.y);
            v->drag_button = 0;
            break;
        case SDL_MOUSEMOTION: {
            v->mx = e.motion.x;
            v->my = e.motion.y;
            if (!v->drag_button) break;
            int dx = e.motion.x - v->drag_x, dy = e.motion.y - v->drag_y;
            if (!v->dragged && dx * dx + dy * dy < 16) break;
            v->dragged = true;
            v->fit_agents = false;
            v->drag_x = e.motion.x;
            v->drag_y = e.motion.y;
            steerV_Camera *c = &v->cam;
            double px, py;
            to_pixels(v, dx, dy, &px, &py);
            if (steer_world_dim(v->w) == 3 && v->drag_button == SDL_BUTTON_LEFT) {
                c->yaw -= dx * 0.008;
                c->pitch = fmin(fmax(c->pitch + dy * 0.006, -1.5), 1.5);
            } else if (steer_world_dim(v->w) == 3) {
                double k = c->dist / c->focal;
                for (int i = 0; i < 2; i++) c->target[i] += (-px * c->right[i] + py * c->up[i]) * k;
                v->follow = false;
            } else {
                c->cx -= px / c->scale;
                c->cy += py / c->scale;
                v->follow = false;
            }
            steerV_camera_update(v);
            break;
        }
        case SDL_MOUSEWHEEL: {
            int mx, my;
            double px, py;
            SDL_GetMouseState(&mx, &my);
            to_pixels(v, mx, my, &px, &py);
            v->fit_agents = false;
            zoom_at(v, px, py, pow(1.15, e.wheel.preciseY != 0 ? e.wheel.preciseY : e.wheel.y));
            break;
        }
        case SDL_WINDOWEVENT:
            if (e.window.event == SDL_WINDOWEVENT_ENTER) v->mouse_in = true;
            if (e.window.event == SDL_WINDOWEVENT_LEAVE) v->mouse_in = false;
            break;
        default: break;
        }
    }
    return go;
}

// ---- the clock ---------------------------------------------------------------

static const char *error_of(steerV_View *v) { return v->host.error ? v->host.error(v->host.ud) : NULL; }

// After each tick: the rewind ring's snapshot, and the trails' sample.
static void ticked(steerV_View *v)
{
    steerV_ring_ticked(v);
    if (v->show_trails) steerV_trails_sample(v);
}

static void run_ticks(steerV_View *v, double frame)
{
    double dt = steer_world_dt(v->w);
    if (!v->host.tick || error_of(v)) {
        v->acc = 0;
        return;
    }
    if (v->step_once) {
        v->step_once = false;
        v->acc = 0;
        frame = 0;
        v->acc = dt;
    } else if (v->paused) {
        v->acc = 0;
        return;
    } else {
        v->acc += frame * v->speed;
    }
    // at most a quarter second of ticks per frame: beyond that, slow down
    int budget = (int)ceil(MAX_FRAME * v->speed / dt) + 1, n = 0;
    Uint64 t0 = SDL_GetPerformanceCounter();
    while (v->acc >= dt && n < budget) {
        v->acc -= dt;
        n++;
        if (!v->host.tick(v->host.ud)) {
            v->acc = 0;
            break;
        }
        ticked(v);
    }
    if (n >= budget) v->acc = 0;
    if (n > 0) {
        double ms = seconds(SDL_GetPerformanceCounter() - t0) * 1e3 / n;
        v->tick_ms = v->tick_ms > 0 ? v->tick_ms * 0.9 + ms * 0.1 : ms;
    }
}

// The scenario's drawing into a scratch list; shown only when it finished
// without an error, so a failing draw keeps the last good picture.
static void scenario_draw(steerV_View *v)
{
    if (!v->host.draw || error_of(v)) return;
    steer_draw_clear(&v->scratch);
    v->host.draw(v->host.ud, &v->scratch);
    if (error_of(v)) return;
    steer_DrawList t = v->shown;
    v->shown = v->scratch;
    v->scratch = t;
}

static void pointer(steerV_View *v)
{
    if (!v->host.mouse) return;
    double p[3], px, py;
    to_pixels(v, v->mx, v->my, &px, &py);
    if (!v->headless && v->mouse_in && SDL_GetMouseFocus() == v->window && steerV_to_world(v, px, py, p))
        v->host.mouse(v->host.ud, p);
    else v->host.mouse(v->host.ud, NULL);
}

static void follow(steerV_View *v)
{
    if (!v->follow) return;
    steer_DebugAgent da;
    steer_DebugAgents ag;
    if (steer_debug_agent(v->w, v->selected, &da) != STEER_OK || steer_debug_agents(v->w, &ag) != STEER_OK) {
        v->follow = false;
        return;
    }
    int d = da.index;
    if (ag.dim != 3) {
        v->cam.cx = ag.position[0][d];
        v->cam.cy = ag.position[1][d];
        return;
    }
    // chase: behind the craft and a little above, turning with it
    steerV_Camera *c = &v->cam;
    for (int i = 0; i < 3; i++) c->target[i] = ag.position[i][d];
    double want = atan2(-(double)ag.heading[1][d], -(double)ag.heading[0][d]);
    double diff = remainder(want - c->yaw, 2 * STEERV_PI);
    c->yaw += diff * 0.08;
    c->dist = fmax(fmin(c->dist, ag.radius[d] * 40 + 5), 2);
    steerV_camera_update(v);
}

// ---- the overlays -------------------------------------------------------------

// The HUD's box at the top left: the title and the clock, and the key for
// help. steerV_fit frames the world below it, so that it does not cover
// what a scenario writes at the world's top (a status line).
float steerV_hud_height(const steerV_View *v)
{
    return v->font.atlas ? 2.0f * (float)v->font.height + 24.0f * (float)v->dpi : 0;
}

static void hud(steerV_View *v)
{
    if (!v->font.atlas) return;
    float dpi = (float)v->dpi, lh = (float)v->font.height, pad = 8 * dpi;
    char l1[200], l2[200];
    if (v->headless) snprintf(l1, sizeof l1, "%s   (headless)", v->title);
    else
        snprintf(l1, sizeof l1, "%s   %.0f fps   %.2f ms/tick   %.1f ms/draw", v->title, v->fps, v->tick_ms,
                 v->render_ms);
    snprintf(l2, sizeof l2, "%d agents   t %.2f s   speed x%g%s   ", steer_world_count(v->w),
             (double)steer_world_tick(v->w) * steer_world_dt(v->w), v->speed, v->paused ? "   PAUSED" : "");
    const char *hint = "H: help";
    int w2 = steerV_text_width(&v->font, l2);
    float wdt = (float)fmax(steerV_text_width(&v->font, l1), w2 + steerV_text_width(&v->font, hint));
    steerV_rect(&v->ui, pad, pad, wdt + 2 * pad, steerV_hud_height(v) - pad, (SDL_Color){ 16, 18, 26, 200 });
    steerV_text(&v->font, &v->ui_text, 2 * pad, 2 * pad, l1, (SDL_Color){ 235, 238, 245, 255 });
    steerV_text(&v->font, &v->ui_text, 2 * pad, 2 * pad + lh, l2,
                v->paused ? (SDL_Color){ 255, 210, 90, 255 } : (SDL_Color){ 190, 195, 210, 255 });
    steerV_text(&v->font, &v->ui_text, 2 * pad + (float)w2, 2 * pad + lh, hint, (SDL_Color){ 120, 125, 140, 255 });
}

static void help(steerV_View *v)
{
    if (!v->show_help || !v->font.atlas) return;
    float dpi = (float)v->dpi, lh = (float)v->font.height, pad = 14 * dpi;
    int n = 0, wmax = 0;
    for (; help_lines[n]; n++) {
        int tw = steerV_text_width(&v->font, help_lines[n]);
        if (tw > wmax) wmax = tw;
    }
    float w = (float)wmax + 2 * pad, h = (float)(n + 2) * lh + 2 * pad;
    float x = ((float)v->cam.width - w) * 0.5f, y = ((float)v->cam.height - h) * 0.5f;
    steerV_rect(&v->ui, x, y, w, h, (SDL_Color){ 12, 14, 22, 235 });
    steerV_text(&v->font, &v->ui_text, x + pad, y + pad, "keys", (SDL_Color){ 255, 230, 120, 255 });
    for (int i = 0; i < n; i++)
        steerV_text(&v->font, &v->ui_text, x + pad, y + pad + (float)(i + 2) * lh, help_lines[i],
                    (SDL_Color){ 225, 228, 240, 255 });
}

// The scenario's error over the world, LÖVE style: the message with its
// file:line and traceback, and how to get out of it.
static void error_overlay(steerV_View *v)
{
    const char *err = error_of(v);
    if (!err || !v->font.atlas) return;
    float dpi = (float)v->dpi, lh = (float)v->font.height, pad = 14 * dpi;
    float w = (float)v->cam.width - 2 * pad;
    int cols = (int)((w - 2 * pad) / (float)(v->font.advance[0] > 0 ? v->font.advance[0] : 8));
    if (cols < 20) cols = 20;
    // count wrapped lines first, to size the panel
    int lines = 0, col = 0;
    for (const char *s = err; *s; s++) {
        if (*s == '\n' || col >= cols) {
            lines++;
            col = 0;
            if (*s == '\n') continue;
        }
        if (*s == '\t') col += 2;
        else col++;
    }
    lines += 3;
    int maxl = (int)(((float)v->cam.height * 0.7f) / lh);
    if (lines > maxl) lines = maxl;
    float h = (float)lines * lh + 2 * pad, y = (float)v->cam.height - h - pad;
    steerV_rect(&v->ui, pad, y, w, h, (SDL_Color){ 90, 16, 22, 235 });
    steerV_text(&v->font, &v->ui_text, 2 * pad, y + pad,
                "scenario error: the simulation is stopped (fix the file and save, or press R)",
                (SDL_Color){ 255, 220, 120, 255 });
    char line[512];
    int n = 0, row = 2;
    col = 0;
    for (const char *s = err;; s++) {
        if (*s == '\n' || *s == '\0' || col >= cols || n >= (int)sizeof line - 3) {
            line[n] = '\0';
            if (row < lines)
                steerV_text(&v->font, &v->ui_text, 2 * pad, y + pad + (float)row * lh, line,
                            (SDL_Color){ 255, 235, 235, 255 });
            row++;
            n = col = 0;
            if (*s == '\0') break;
            if (*s == '\n') continue;
        }
        if (*s == '\t') {
            line[n++] = ' ';
            line[n++] = ' ';
            col += 2;
        } else {
            line[n++] = *s;
            col++;
        }
    }
}

// ---- a frame -----------------------------------------------------------------

static void render(steerV_View *v)
{
    sizes(v);
    if (!v->headless) steerV_font_open(v); // the DPI may change with the display
    if (v->refit) steerV_fit(v, false);
    v->refit = false;
    follow(v);
    SDL_SetRenderDrawColor(v->ren, 22, 24, 31, 255);
    SDL_RenderClear(v->ren);
    steerV_draw_scene(v);
    if (v->selected.id) steerV_inspect(v);
    hud(v);
    steerV_timeline(v);
    help(v);
    error_overlay(v);
    for (int i = 0; i < v->hair.n; i++) {
        const steerV_Hair *h = &v->hair.h[i];
        SDL_SetRenderDrawColor(v->ren, h->c.r, h->c.g, h->c.b, h->c.a);
        SDL_RenderDrawLineF(v->ren, h->xy[0], h->xy[1], h->xy[2], h->xy[3]);
    }
    v->hair.n = 0;
    steerV_flush(v->ren, &v->geo, NULL);
    steerV_flush(v->ren, &v->text, v->label.atlas);
    steerV_flush(v->ren, &v->ui, NULL);
    steerV_flush(v->ren, &v->ui_text, v->font.atlas);
}

bool steerV_frame(steerV_View *v)
{
    Uint64 now = SDL_GetPerformanceCounter();
    double frame = fmin(seconds(now - v->last), MAX_FRAME);
    v->last = now;
    // frames per second over half-second windows
    v->frames++;
    if (!v->fps_since) v->fps_since = now;
    double span = seconds(now - v->fps_since);
    if (span >= 0.5) {
        v->fps = (double)(v->frames - v->fps_frames) / span;
        v->fps_frames = v->frames;
        v->fps_since = now;
    }
    bool go = v->headless ? true : events(v);
    pointer(v);
    run_ticks(v, frame);
    Uint64 r0 = SDL_GetPerformanceCounter();
    scenario_draw(v);
    render(v);
    if (!v->headless) SDL_RenderPresent(v->ren);
    double ms = seconds(SDL_GetPerformanceCounter() - r0) * 1e3;
    v->render_ms = v->render_ms > 0 ? v->render_ms * 0.9 + ms * 0.1 : ms;
    if (!v->headless) {
        // without vsync (a software renderer) keep to about 60 frames a second
        SDL_RendererInfo info;
        double spent = seconds(SDL_GetPerformanceCounter() - now);
        if (SDL_GetRendererInfo(v->ren, &info) == 0 && !(info.flags & SDL_RENDERER_PRESENTVSYNC) && spent < 1.0 / 60)
            SDL_Delay((Uint32)((1.0 / 60 - spent) * 1000));
    }
    return go;
}

int steerV_screenshot(steerV_View *v, const char *path, char *err, size_t errlen)
{
    scenario_draw(v);
    render(v);
    int w = v->cam.width, h = v->cam.height;
    unsigned char *px = malloc((size_t)w * (size_t)h * 4);
    if (!px) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (SDL_RenderReadPixels(v->ren, NULL, SDL_PIXELFORMAT_RGBA32, px, w * 4) != 0) {
        snprintf(err, errlen, "cannot read the frame back: %s", SDL_GetError());
        free(px);
        return -1;
    }
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) px[4 * i + 3] = 255;
    int ok = stbi_write_png(path, w, h, 4, px, w * 4);
    free(px);
    if (!v->headless) SDL_RenderPresent(v->ren);
    if (!ok) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    return 0;
}

int steerV_run(steerV_View *v, int n)
{
    int done = 0;
    for (; done < n && !error_of(v); done++) {
        if (!v->host.tick || !v->host.tick(v->host.ud)) break;
        ticked(v);
    }
    return done;
}

bool steerV_project(const steerV_View *v, const double p[3], double *x, double *y)
{
    float q[3] = { (float)p[0], (float)p[1], (float)p[2] }, sx, sy;
    bool ok = steerV_to_screen(v, q, &sx, &sy);
    *x = sx;
    *y = sy;
    return ok;
}

void steerV_output_size(const steerV_View *v, int *w, int *h)
{
    *w = v->cam.width;
    *h = v->cam.height;
}

void steerV_select(steerV_View *v, steer_Agent a) { v->selected = a; }

double steerV_draw_ms(const steerV_View *v) { return v->render_ms; }

bool steerV_has_font(const steerV_View *v) { return v->font.atlas != NULL; }
