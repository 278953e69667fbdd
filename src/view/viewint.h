// SPDX-License-Identifier: MIT
// viewint.h — what the viewer's files share: the view itself, its camera,
// and the two batches everything is drawn through (flat triangles, and
// textured glyph quads), each handed to SDL_RenderGeometry in one call.
#ifndef STEER_VIEWINT_H
#define STEER_VIEWINT_H

#include "view.h"
#include "steer_debug.h"

#include <SDL.h>
#include <SDL_ttf.h>

#define STEERV_PI 3.14159265358979323846

typedef struct steerV_Batch {
    SDL_Vertex *v;
    int n, cap;
    bool failed; // out of memory: the rest of the frame is dropped
} steerV_Batch;

// One-pixel lines drawn before the batches (see hairline in scene.c).
typedef struct steerV_Hair {
    float xy[4];
    SDL_Color c;
} steerV_Hair;
typedef struct steerV_Lines {
    steerV_Hair *h;
    int n, cap;
} steerV_Lines;

// ASCII glyphs 32..126 rendered once into a texture.
typedef struct steerV_Font {
    SDL_Texture *atlas;
    SDL_Rect glyph[95];
    int advance[95];
    int height, ascent;
    int pt; // point size it was made at (remade when the DPI scale changes)
} steerV_Font;

// Trails: the last TRAIL_LEN sampled positions of the agents in the first
// TRAIL_MAX handle slots, a ring per slot (all rings share one head).
#define STEERV_TRAIL_LEN 48
#define STEERV_TRAIL_MAX 4096
typedef struct steerV_Trails {
    float *p;         // TRAIL_MAX x TRAIL_LEN x 3
    steer_Agent *who; // the agent each slot's ring belongs to (0: none)
    uint64_t last_tick;
    int head, filled;
} steerV_Trails;

// Rewind (ring.c): snapshots by the host, the newest `count` of `max`
// slots from `head`, each buffer reused when its slot comes round again.
typedef struct steerV_Snap {
    unsigned char *bytes;
    size_t len, cap;
    uint64_t tick;
    double time;
} steerV_Snap;
typedef struct steerV_Ring {
    steerV_Snap *snaps;
    int max, head, count;
    int cursor;       // the entry shown while browsing, -1 live
    steerV_Snap live; // the state browsing began from
    bool has_live;
    bool off;           // a snapshot failed: the ring takes no more
    double every;       // seconds of simulated time between snapshots
    uint64_t last_mark; // the mark (time / every) of the newest snapshot
    size_t used, cap;   // bytes the buffers hold, and their bound
    size_t last_len;    // the newest snapshot's size: a new buffer's first size
    char msg[320];      // the last rewind or save's outcome, for the timeline
} steerV_Ring;

typedef struct steerV_Camera {
    // 2D: the world point at the centre of the frame and pixels per metre
    double cx, cy, scale;
    // 3D: orbit around target, yaw and pitch in radians, distance in metres
    double target[3], yaw, pitch, dist;
    // derived each frame for 3D: eye and basis, focal length in pixels
    double eye[3], right[3], up[3], fwd[3], focal;
    int width, height; // output pixels
} steerV_Camera;

struct steerV_View {
    steer_World *w;
    const struct steerN_Layers *nav; // grids and flow fields to draw (G, L), or NULL
    steerV_Host host;
    char title[128];
    bool headless;
    SDL_Window *window;
    SDL_Renderer *ren;
    SDL_Surface *surface; // headless target
    char font_path[256];
    steerV_Font font, label; // the UI's text, and the scenario's labels in the world
    double dpi;              // output pixels per window point
    steerV_Camera cam;
    bool fit_agents; // 0/Home (or the opening) framed the agents, and the camera has not moved since
    bool refit;      // headless: frame again at the first frame, after the ticks run before it

    steerV_Batch geo, text, ui, ui_text;
    steerV_Lines hair;
    steer_DrawList shown, scratch; // the scenario's drawing: last good and in progress

    // clock
    Uint64 last;
    double acc, speed, fps, tick_ms, render_ms;
    bool paused, step_once;
    int frames, fps_frames;
    Uint64 fps_since;

    // toggles
    bool show_vectors, show_grid, show_help, show_paths, show_shapes, show_fields, show_trails, show_navmesh;
    bool show_context, show_formations; // the selected agent's context maps (X), the formations (M)
    steerV_Trails trails;
    bool follow;

    // pointer
    int mx, my; // window points
    bool mouse_in;
    int drag_button, drag_x, drag_y;
    bool dragged;

    steer_Agent selected;
    int shots;
    steerV_Ring ring;
};

// batch.c
void steerV_batch_free(steerV_Batch *b);
// Move the vertices from index `from` on by (dx, dy): what was drawn at one
// place, laid out before its place was known (the inspector's panel).
void steerV_batch_move(steerV_Batch *b, int from, float dx, float dy);
void steerV_tri(steerV_Batch *b, float x0, float y0, float x1, float y1, float x2, float y2, SDL_Color c);
void steerV_quad(steerV_Batch *b, float x0, float y0, float x1, float y1, float x2, float y2, float x3, float y3,
                 SDL_Color c);
void steerV_rect(steerV_Batch *b, float x, float y, float w, float h, SDL_Color c);
void steerV_line(steerV_Batch *b, float x0, float y0, float x1, float y1, float width, SDL_Color c);
void steerV_arrow(steerV_Batch *b, float x0, float y0, float x1, float y1, float width, SDL_Color c);
void steerV_ring(steerV_Batch *b, float x, float y, float r, float width, SDL_Color c);
void steerV_disc(steerV_Batch *b, float x, float y, float r, SDL_Color c);
void steerV_flush(SDL_Renderer *ren, steerV_Batch *b, SDL_Texture *tex);
// Text in the font's atlas at (x, y) (top left), returns the advance in pixels.
int steerV_text(const steerV_Font *f, steerV_Batch *b, float x, float y, const char *s, SDL_Color c);
int steerV_text_width(const steerV_Font *f, const char *s);
int steerV_font_open(steerV_View *v); // (re)make the atlas for the current DPI; 0 without a font
void steerV_font_free(steerV_View *v);

// The world's agents as arrays (steer_debug.h), for this frame; none
// during a tick (a host callback), when the world is half updated.
static inline void steerV_agents(const steerV_View *v, steer_DebugAgents *a)
{
    if (steer_debug_agents(v->w, a) != STEER_OK) *a = (steer_DebugAgents){ .count = 0 };
}
// Entry i of a vector's arrays (z is 0 in 2D, where it has no array).
static inline void steerV_load(const float *const arr[3], int i, float o[3])
{
    o[0] = arr[0][i];
    o[1] = arr[1][i];
    o[2] = arr[2] ? arr[2][i] : 0.0f;
}

// scene.c: the world and the scenario's drawing
void steerV_camera_update(steerV_View *v);
// Frame the agents (2D: the world, unless they hold a small part of it),
// or with `world` the whole world.
void steerV_fit(steerV_View *v, bool world);
bool steerV_to_screen(const steerV_View *v, const float p[3], float *x, float *y);
// World point under window pixel (x, y): the ground plane z = 0 in 3D.
bool steerV_to_world(const steerV_View *v, double x, double y, double out[3]);
void steerV_draw_scene(steerV_View *v);
void steerV_trails_free(steerV_View *v);
void steerV_trails_sample(steerV_View *v); // after a tick, with trails on
// scene_links.c: a navigation mesh's off-mesh links, as arcs (an arrow on a one-way link).
void steerV_draw_navlinks(steerV_View *v, const steer_DebugNavMesh *m);
// A world segment (clipped at the near plane in 3D), as a line or an arrow.
void steerV_world_line(steerV_View *v, steerV_Batch *b, const float p[3], const float q[3], float width, SDL_Color col,
                       bool arrow);
// Pixels a world length r covers at p (0 behind a 3D camera).
float steerV_world_radius(const steerV_View *v, const float p[3], float r);
SDL_Color steerV_tag_colour(const steer_World *w, int tag);
// The agent (its steer_DebugAgents entry) drawn nearest pixel (x, y) within `radius` pixels, or -1.
int64_t steerV_pick(const steerV_View *v, float x, float y, float radius);

// ring.c: rewind
void steerV_ring_init(steerV_View *v, const steerV_Desc *desc);
void steerV_ring_free(steerV_View *v);
void steerV_ring_start(steerV_View *v);  // the first snapshot, when the view opens
void steerV_ring_ticked(steerV_View *v); // after each tick: a snapshot at each mark
void steerV_ring_save_file(steerV_View *v);
float steerV_timeline_height(const steerV_View *v); // 0 without rewind
void steerV_timeline(steerV_View *v);

// view.c: the HUD's height from the top (0 without a font)
float steerV_hud_height(const steerV_View *v);

// layers.c: the selected agent's context maps, the formations' slots and
// anchors (each only with its toggle on), and the colours they use
void steerV_draw_context(steerV_View *v);
void steerV_draw_formations(steerV_View *v);
// The inspector's lines on agent a (at p) from these layers (whatever the
// toggles): its context's chosen slot, interest and danger there and the
// slots masked; its formation slot, the point and how far it is. Returns
// the lines written (at most cap).
int steerV_layer_notes(steerV_View *v, steer_Agent a, const float p[3], char (*lines)[96], int cap);
extern const SDL_Color steerV_interest_rgb, steerV_danger_rgb, steerV_chosen_rgb, steerV_slot_rgb, steerV_anchor_rgb;

// inspect.c: the selected agent's brain, forces, target and neighbours
void steerV_inspect(steerV_View *v);

#endif
