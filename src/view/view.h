// SPDX-License-Identifier: MIT
// view.h — the SDL2 viewer's whole interface, for the `steer` program (or
// any host): open a view of a world, run frames, take screenshots, close.
//
// The viewer knows nothing of Lua or of how a scenario is run: the host
// hands it callbacks for a tick, a reload, the scenario's debug drawing,
// keys and the mouse, and the current error. The view owns the clock: it
// runs ticks through the host with a fixed-timestep accumulator, so the
// simulation's dt never depends on the frame rate.
#ifndef STEER_VIEW_H
#define STEER_VIEW_H

#include "steer.h"
#include "steer_draw.h"

#include <stddef.h>

typedef struct steerV_View steerV_View;

typedef struct steerV_Host {
    void *ud;
    int (*tick)(void *ud);                      // one fixed tick; 0 when the scenario failed (see error)
    void (*reload)(void *ud);                   // the R key: reload the scenario
    void (*draw)(void *ud, steer_DrawList *d);  // record the scenario's debug drawing into d
    void (*key)(void *ud, const char *name);    // a key press, by SDL key name in lower case
    void (*mouse)(void *ud, const double *pos); // world position under the pointer; NULL when none
    const char *(*error)(void *ud);             // the error to show over the world, NULL when none
    // Rewind (both or neither; NULL: no rewind): the whole simulation's
    // state through `write` (0 on success), and back in place from such
    // bytes (0, or nonzero with the reason in err).
    int (*save)(void *ud, steer_WriteFn write, void *write_ud);
    int (*restore)(void *ud, const unsigned char *bytes, size_t len, char *err, size_t errlen);
} steerV_Host;

typedef struct steerV_Desc {
    const char *title; // the scenario's name, for the window title and the HUD
    int width, height; // logical size; 0 means 1280 x 720
    bool headless;     // no window: SDL's software renderer on a surface
    // The world's navigation grids and flow fields, drawn with G and L
    // (steer_lua_nav gives a Lua world's); NULL: none.
    const struct steerN_Layers *nav;
    const char *show; // toggles on from the start (see steerV_show_check); NULL: none
    // The rewind ring (with host.save and host.restore): a snapshot every
    // ring_every seconds of simulated time (0: 0.5) over the last
    // ring_seconds (0: 60), in at most ring_bytes (0: 256 MiB).
    double ring_every, ring_seconds;
    size_t ring_bytes;
} steerV_Desc;

// Open a view of w. On failure returns a status and writes why into err
// (no display, no SDL video driver, out of memory).
int steerV_open(const steerV_Desc *desc, steer_World *w, const steerV_Host *host, steerV_View **out, char *err,
                size_t errlen);
// One frame: input, the ticks that are due, drawing. False when the user
// asked to quit (Esc or the window's close button).
bool steerV_frame(steerV_View *v);
// Draw the current state and write it to path as a PNG; 0 or a message in err.
int steerV_screenshot(steerV_View *v, const char *path, char *err, size_t errlen);
void steerV_close(steerV_View *v);
// Whether `list` names toggles a view can start with, comma-separated:
// grid (G), flow (L), vectors (V), trails (T), help (H), navmesh (N),
// context (X), formations (M). False with the
// reason in err.
bool steerV_show_check(const char *list, char *err, size_t errlen);

// Run n ticks now, as the clock would (the ring's snapshots included), for
// tests and headless runs; returns the ticks run (fewer when one failed).
int steerV_run(steerV_View *v, int n);
// Rewind: show the newest snapshot at or before simulated time t, or the
// one `seconds` before now, pausing (the Backspace key); the snapshots
// after it stay until the next tick runs on from there and drops them.
// 0, or -1 (none that old, or the restore failed).
int steerV_rewind_to(steerV_View *v, double t);
int steerV_rewind(steerV_View *v, double seconds);
// One snapshot back (dir < 0) or forward (past the newest: back to where
// browsing began), pausing: the [ and ] keys. 0, or -1 when there is none.
int steerV_ring_step(steerV_View *v, int dir);
typedef struct steerV_RingInfo {
    int count;             // snapshots held
    int cursor;            // the one shown while browsing, -1 live
    double oldest, newest; // their simulated times
    size_t bytes, cap;     // memory the ring holds, and its bound
} steerV_RingInfo;
void steerV_ring_info(const steerV_View *v, steerV_RingInfo *out);

// Where a world point lands in the frame, in output pixels (false when it
// is behind a 3D camera), and the output size: for tests and tools.
bool steerV_project(const steerV_View *v, const double p[3], double *x, double *y);
void steerV_output_size(const steerV_View *v, int *w, int *h);
// Select an agent for the inspector (0: none), as a click on it does.
void steerV_select(steerV_View *v, steer_Agent a);
// What the inspector writes beside each node of a's brain, in the brain's
// depth-first order: which child won a priority, what truncation cut
// (empty: nothing to say). Returns the nodes written (at most cap); 0 when
// a is stale, has no brain, or the world does not record.
int steerV_explain(steer_World *w, steer_Agent a, char (*notes)[64], int cap);
// Milliseconds the last frames took to draw and present (a moving average;
// ticks and any frame-rate wait excluded).
double steerV_draw_ms(const steerV_View *v);
// Whether the text font was found (text is skipped without it).
bool steerV_has_font(const steerV_View *v);
// Output pixels per window point, from the window's size in points and
// the renderer's output in pixels (SDL_GetWindowSize and
// SDL_GetRendererOutputSize): 2 on a typical high-DPI display, 1 on others
// and when a size is unknown. Mouse positions (points) are scaled by it.
double steerV_pixel_ratio(int window_w, int window_h, int output_w, int output_h);

#endif
