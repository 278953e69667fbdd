// SPDX-License-Identifier: MIT
// view_bench.c — frame time of the viewer with many agents: SDL's software
// renderer on a 1280 x 720 surface (what headless screenshots and machines
// without a GPU use), 2D and 3D; with a display (e.g. under xvfb-run) also
// in a window, drawing and presenting. Prints figures; asserts nothing.
//   steer-view-bench [FRAMES [DIM AGENTS]]   (one case only, for a profiler)
#include "view.h"

#include <SDL.h>

#include <stdio.h>
#include <stdlib.h>
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

int main(int argc, char **argv)
{
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
