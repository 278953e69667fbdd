// SPDX-License-Identifier: MIT
// view_bench.c — frame time of the viewer with many agents: SDL's software
// renderer on a 1280 x 720 surface (what headless screenshots and machines
// without a GPU use), 2D and 3D; with a display (e.g. under xvfb-run) also
// in a window, drawing and presenting; and a navigation grid with a flow
// field under G and L. Prints figures; asserts nothing.
//   steer-view-bench [FRAMES [DIM AGENTS]]   (one case only, for a profiler)
//   steer-view-bench --rewind [AGENTS]       what the rewind ring adds to the tick
#include "view.h"
#include "../src/nav/layers.h"

#include <SDL.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double frame_ms(int dim, int agents, int frames, bool window)
{
    steer_WorldDesc wd = { .dim = dim, .size = { 400, 400, dim == 3 ? 100 : 0 }, .seed = 5 };
    steer_World *w;
    if (steer_world_new(&wd, &w) != STEER_OK) return -1;
    steer_world_reserve(w, agents);
    unsigned s = 12345;
    for (int i = 0; i < agents; i++) {
        steer_AgentDesc a = { .radius = 0.5, .tag = i % 3 ? "a" : "b" };
        for (int k = 0; k < dim; k++) {
            s = s * 1103515245u + 12345u;
            a.position[k] = (double)(s >> 8) / (double)(1u << 24) * wd.size[k];
            s = s * 1103515245u + 12345u;
            a.velocity[k] = (double)(s >> 8) / (double)(1u << 24) - 0.5;
        }
        steer_spawn(w, &a, NULL);
    }
    steerV_Host host = { 0 };
    steerV_Desc desc = { .title = "bench", .headless = !window };
    steerV_View *v;
    char err[200];
    if (steerV_open(&desc, w, &host, &v, err, sizeof err) != STEER_OK) {
        fprintf(stderr, "steer-view-bench: %s\n", err);
        steer_world_free(w);
        return -1;
    }
    steerV_frame(v); // warm: batches grow to size once
    double t0 = now();
    for (int f = 0; f < frames; f++) steerV_frame(v);
    double ms = (now() - t0) * 1e3 / frames;
    if (window) ms = steerV_draw_ms(v); // without the wait for 60 frames a second
    steerV_close(v);
    steer_world_free(w);
    return ms;
}

// A grid of n x n one-metre cells (a fifth blocked, a tenth of cost 3) with
// a flow field to its middle, drawn whole with G and L on: cells under a
// pixel are drawn in blocks, arrows one per block.
static double nav_frame_ms(int n, int frames)
{
    steer_WorldDesc wd = { .dim = 2, .size = { n, n }, .seed = 5 };
    steer_World *w;
    steerN_Grid g;
    steerN_Flow f;
    double origin[2] = { 0, 0 }, goal[2] = { n * 0.5, n * 0.5 };
    if (steer_world_new(&wd, &w) != STEER_OK || steerN_grid_init(&g, n, n, 1.0, origin, NULL)) return -1;
    unsigned s = 777;
    for (int c = 0; c < n * n; c++) {
        s = s * 1103515245u + 12345u;
        unsigned r = (s >> 8) % 100;
        if (c / n != n / 2) g.cost[c] = r < 20 ? INFINITY : r < 30 ? 3.0f : 1.0f;
    }
    if (steerN_flow_init(&f, &g) || steerN_flow_build(&f, goal, 1)) return -1;
    const steerN_Flow *flows[1] = { &f };
    steerN_Shown shown = { .grid = &g, .flows = flows, .nflows = 1, .cap = 1 };
    const steerN_Shown *grids[1] = { &shown };
    steerN_Layers nav = { .grids = grids, .n = 1, .cap = 1 };
    steerV_Host host = { 0 };
    steerV_Desc desc = { .title = "bench", .headless = true, .nav = &nav, .show = "grid,flow" };
    steerV_View *v;
    char err[200];
    double ms = -1;
    if (steerV_open(&desc, w, &host, &v, err, sizeof err) == STEER_OK) {
        steerV_frame(v);
        double t0 = now();
        for (int k = 0; k < frames; k++) steerV_frame(v);
        ms = (now() - t0) * 1e3 / frames;
        steerV_close(v);
    }
    steerN_flow_free(&f);
    steerN_grid_free(&g);
    steer_world_free(w);
    return ms;
}

// ---- rewind: what the ring of snapshots adds to the tick ----------------------------

static int step_host(void *ud) { return steer_world_step(ud, 1) == STEER_OK; }
static int save_host(void *ud, steer_WriteFn write, void *wud) { return steer_world_save(ud, write, wud); }
static int restore_host(void *ud, const unsigned char *b, size_t n, char *err, size_t errlen)
{
    return steer_world_restore(ud, b, n, err, errlen);
}

// A wrapped flock of n (separation, alignment, cohesion, wander), as the standard flock's (docs/benchmarks.md).
static steer_World *flock(int n)
{
    double side = sqrt(n * 3.14159265 * 25.0 / 10.0);
    steer_WorldDesc wd = { .dim = 2, .size = { side, side }, .wrap = true, .seed = 12345, .no_record = true };
    steer_World *w;
    if (steer_world_new(&wd, &w) != STEER_OK) return NULL;
    steer_world_reserve(w, n);
    static const char *const kinds[] = { "separation", "alignment", "cohesion", "wander" };
    static const double weights[] = { 1.5, 1, 1, 0.2 }, radii[] = { 2, 5, 5, 1 };
    steer_Behavior *blend;
    steer_behavior_new("blend", &blend);
    for (int k = 0; k < 4; k++) {
        steer_Behavior *b;
        steer_behavior_new(kinds[k], &b);
        steer_behavior_set_number(b, "radius", radii[k]);
        steer_behavior_add_child(blend, b, weights[k]);
        steer_behavior_release(b);
    }
    unsigned s = 12345;
    for (int i = 0; i < n; i++) {
        double u[3];
        for (int k = 0; k < 3; k++) {
            s = s * 1103515245u + 12345u;
            u[k] = (double)(s >> 8) / (double)(1u << 24);
        }
        steer_AgentDesc a = { .position = { u[0] * side, u[1] * side },
                              .velocity = { cos(u[2] * 6.28), sin(u[2] * 6.28) },
                              .max_speed = 2,
                              .max_force = 0.5,
                              .radius = 0.5,
                              .brain = blend };
        steer_spawn(w, &a, NULL);
    }
    steer_behavior_release(blend);
    return w;
}

// ms per tick over `ticks` ticks of a flock of n through a headless view, with or without the ring.
static double ring_tick_ms(int n, int ticks, bool ring, steerV_RingInfo *info)
{
    steer_World *w = flock(n);
    if (!w) return -1;
    steerV_Host host = { .ud = w, .tick = step_host };
    if (ring) {
        host.save = save_host;
        host.restore = restore_host;
    }
    steerV_Desc desc = { .title = "bench", .headless = true };
    steerV_View *v;
    char err[200];
    double ms = -1;
    if (steerV_open(&desc, w, &host, &v, err, sizeof err) == STEER_OK) {
        steer_world_set_record(w, false); // the viewer turns it on for the inspector; the standard flock has it off
        steerV_run(v, 60);
        double t0 = now();
        steerV_run(v, ticks);
        ms = (now() - t0) * 1e3 / ticks;
        if (info) steerV_ring_info(v, info);
        steerV_close(v);
    }
    steer_world_free(w);
    return ms;
}

static void rewind_figures(int n, int ticks)
{
    double plain = 1e30, with = 1e30;
    steerV_RingInfo ri = { 0 };
    for (int rep = 0; rep < 3; rep++) { // alternate, keep the best of each
        plain = fmin(plain, ring_tick_ms(n, ticks, false, NULL));
        with = fmin(with, ring_tick_ms(n, ticks, true, &ri));
    }
    printf("rewind ring, %d flocking agents, %d ticks (%.0f s): %.3f ms/tick without, %.3f with: %+.1f%%;\n"
           "  %d snapshots of %.2f MB each, %.1f of %.0f MiB\n",
           n, ticks, ticks / 60.0, plain, with, (with / plain - 1) * 100, ri.count,
           ri.count ? (double)ri.bytes / ri.count / 1e6 : 0.0, (double)ri.bytes / 1048576.0,
           (double)ri.cap / 1048576.0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--rewind") == 0) {
        rewind_figures(argc > 2 ? atoi(argv[2]) : 10000, 1200);
        return 0;
    }
    int frames = argc > 1 ? atoi(argv[1]) : 30;
    if (frames < 1) frames = 1;
    if (argc > 3) {
        int dim = atoi(argv[2]), agents = atoi(argv[3]);
        printf("  %dD %7d agents: %8.2f ms/frame\n", dim, agents, frame_ms(dim == 3 ? 3 : 2, agents, frames, false));
        return 0;
    }
    printf("viewer frame time, software renderer, 1280x720, %d frames each\n", frames);
    static const int counts[] = { 1000, 10000, 100000 };
    for (int dim = 2; dim <= 3; dim++)
        for (int i = 0; i < 3; i++)
            printf("  %dD %7d agents: %8.2f ms/frame\n", dim, counts[i], frame_ms(dim, counts[i], frames, false));
    printf("a grid and its flow field, G and L on, the whole grid in view\n");
    static const int sides[] = { 60, 300, 1000, 4000 };
    for (int i = 0; i < 4; i++)
        printf("  %4d x %-4d cells: %8.2f ms/frame\n", sides[i], sides[i], nav_frame_ms(sides[i], frames));
    if (!getenv("DISPLAY")) {
        printf("no DISPLAY: no window figures (run under xvfb-run -a for them)\n");
        return 0;
    }
    SDL_SetHint(SDL_HINT_RENDER_VSYNC, "0"); // the draw, not the display's refresh
    printf("in a window (draw and present, no vsync)\n");
    for (int dim = 2; dim <= 3; dim++)
        for (int i = 0; i < 3; i++)
            printf("  %dD %7d agents: %8.2f ms/frame\n", dim, counts[i], frame_ms(dim, counts[i], frames, true));
    return 0;
}
