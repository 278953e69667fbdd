// SPDX-License-Identifier: MIT
// scene.c — the world as seen through the camera: 2D worlds top down
// (x right, y up), 3D worlds through a perspective orbit camera with z up.
// Static geometry, paths, the scenario's debug drawing and the agents, all
// appended to the view's batches; agents in one pass over the world's
// dense arrays, as oriented triangles (2D) or small depth-sorted aircraft
// banked by their up vector (3D).
//
// Everything of the world comes through steer_debug.h and steer.h, as a
// game's own renderer would read it: nothing here knows its storage.
#include "viewint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NEAR_Z 0.05

static const SDL_Color palette[] = {
    { 120, 200, 255, 255 }, { 255, 170, 60, 255 }, { 120, 230, 120, 255 }, { 255, 100, 110, 255 },
    { 200, 140, 255, 255 }, { 250, 230, 90, 255 }, { 90, 220, 210, 255 },  { 255, 140, 200, 255 },
};

// A tag named after a colour ("red", "blue", ...) is drawn in that colour,
// so a scenario's teams look as their names say; other tags take the
// palette in the order they were first used.
static const struct {
    const char *name;
    SDL_Color c;
} named[] = {
    { "red", { 255, 95, 80, 255 } },     { "blue", { 90, 160, 255, 255 } },   { "green", { 110, 220, 110, 255 } },
    { "yellow", { 250, 225, 80, 255 } }, { "orange", { 255, 165, 60, 255 } }, { "purple", { 190, 130, 255, 255 } },
    { "cyan", { 90, 225, 225, 255 } },   { "pink", { 255, 140, 200, 255 } },  { "white", { 240, 240, 240, 255 } },
    { "grey", { 160, 165, 175, 255 } },  { "gray", { 160, 165, 175, 255 } },
};

SDL_Color steerV_tag_colour(const steer_World *w, int tag)
{
    if (tag <= 0) return (SDL_Color){ 215, 220, 230, 255 };
    const char *name = steer_debug_tag_name(w, tag);
    for (size_t i = 0; name && i < sizeof named / sizeof named[0]; i++)
        if (strcmp(name, named[i].name) == 0) return named[i].c;
    return palette[(tag - 1) % (int)(sizeof palette / sizeof palette[0])];
}

// ---- camera ----------------------------------------------------------------

void steerV_camera_update(steerV_View *v)
{
    steerV_Camera *c = &v->cam;
    if (steer_world_dim(v->w) != 3) return;
    double cp = cos(c->pitch), sp = sin(c->pitch);
    double off[3] = { cp * cos(c->yaw), cp * sin(c->yaw), sp };
    for (int i = 0; i < 3; i++) {
        c->eye[i] = c->target[i] + c->dist * off[i];
        c->fwd[i] = -off[i];
    }
    // right = fwd x z, up = right x fwd
    double r[3] = { c->fwd[1], -c->fwd[0], 0 };
    double rl = sqrt(r[0] * r[0] + r[1] * r[1]);
    if (rl < 1e-9) {
        r[0] = 1;
        r[1] = 0;
        rl = 1;
    }
    for (int i = 0; i < 3; i++) c->right[i] = r[i] / rl;
    c->up[0] = c->right[1] * c->fwd[2] - c->right[2] * c->fwd[1];
    c->up[1] = c->right[2] * c->fwd[0] - c->right[0] * c->fwd[2];
    c->up[2] = c->right[0] * c->fwd[1] - c->right[1] * c->fwd[0];
    c->focal = (double)c->height * 0.5 / tan(55.0 * STEERV_PI / 360.0);
}

// Camera space of a world point: x right, y up, z depth along the view.
static void to_camera(const steerV_Camera *c, const double p[3], double out[3])
{
    double d[3] = { p[0] - c->eye[0], p[1] - c->eye[1], p[2] - c->eye[2] };
    out[0] = d[0] * c->right[0] + d[1] * c->right[1] + d[2] * c->right[2];
    out[1] = d[0] * c->up[0] + d[1] * c->up[1] + d[2] * c->up[2];
    out[2] = d[0] * c->fwd[0] + d[1] * c->fwd[1] + d[2] * c->fwd[2];
}

static void from_camera(const steerV_Camera *c, const double q[3], float *x, float *y)
{
    *x = (float)((double)c->width * 0.5 + q[0] / q[2] * c->focal);
    *y = (float)((double)c->height * 0.5 - q[1] / q[2] * c->focal);
}

bool steerV_to_screen(const steerV_View *v, const float p[3], float *x, float *y)
{
    const steerV_Camera *c = &v->cam;
    if (steer_world_dim(v->w) != 3) {
        *x = (float)((double)c->width * 0.5 + ((double)p[0] - c->cx) * c->scale);
        *y = (float)((double)c->height * 0.5 - ((double)p[1] - c->cy) * c->scale);
        return true;
    }
    double q[3], pd[3] = { p[0], p[1], p[2] };
    to_camera(c, pd, q);
    if (q[2] < NEAR_Z) return false;
    from_camera(c, q, x, y);
    return true;
}

bool steerV_to_world(const steerV_View *v, double x, double y, double out[3])
{
    const steerV_Camera *c = &v->cam;
    if (steer_world_dim(v->w) != 3) {
        out[0] = c->cx + (x - (double)c->width * 0.5) / c->scale;
        out[1] = c->cy - (y - (double)c->height * 0.5) / c->scale;
        out[2] = 0;
        return true;
    }
    // the ray through the pixel, met with the ground plane z = 0
    double a = (x - (double)c->width * 0.5) / c->focal, b = -(y - (double)c->height * 0.5) / c->focal;
    double dir[3];
    for (int i = 0; i < 3; i++) dir[i] = c->fwd[i] + a * c->right[i] + b * c->up[i];
    if (fabs(dir[2]) < 1e-9) return false;
    double t = -c->eye[2] / dir[2];
    if (t <= 0) return false;
    for (int i = 0; i < 3; i++) out[i] = c->eye[i] + t * dir[i];
    out[2] = 0;
    return true;
}

// The agents' box, grown by a margin and to a side of at least 20 agent
// radii (10 m), so that one agent alone is not seen from a metre away.
static bool agents_box(const steerV_View *v, double lo[3], double hi[3])
{
    steer_DebugAgents ag;
    steerV_agents(v, &ag);
    if (!ag.count) return false;
    double r = 0;
    for (int i = 0; i < 3; i++) {
        lo[i] = 1e30;
        hi[i] = -1e30;
    }
    for (int d = 0; d < ag.count; d++) {
        for (int i = 0; i < ag.dim; i++) {
            lo[i] = fmin(lo[i], ag.position[i][d]);
            hi[i] = fmax(hi[i], ag.position[i][d]);
        }
        r = fmax(r, ag.radius[d]);
    }
    double side = fmax(20 * r, 10);
    for (int i = 0; i < 3; i++) {
        if (i >= ag.dim) { lo[i] = hi[i] = 0; }
        double mid = (lo[i] + hi[i]) * 0.5, half = fmax((hi[i] - lo[i]) * 0.6, side * 0.5);
        lo[i] = mid - half;
        hi[i] = mid + half;
    }
    return true;
}

// Move the 3D camera along its view until the box's corners fill 85% of
// the frame's width or height: a few steps, each scaling the distance by
// how far off the farthest corner lands.
static void close_in(steerV_View *v, const double lo[3], const double hi[3])
{
    steerV_Camera *c = &v->cam;
    for (int step = 0; step < 6; step++) {
        steerV_camera_update(v);
        double m = 0;
        for (int k = 0; k < 8; k++) {
            double p[3] = { k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2] }, q[3];
            to_camera(c, p, q);
            if (q[2] < NEAR_Z) {
                m = fmax(m, 2);
                continue;
            }
            float x, y;
            from_camera(c, q, &x, &y);
            double hw = c->width * 0.5, hh = c->height * 0.5;
            m = fmax(m, fmax(fabs(x - hw) / hw, fabs(y - hh) / hh));
        }
        c->dist *= fmin(fmax(m / 0.85, 0.5), 2.0);
    }
}

// 3D: the agents (the world is kilometres, an aircraft metres); 2D: the
// world, unless the agents hold a small part of it (under a fifth of each
// side), or `world` asks for the whole world anyway.
void steerV_fit(steerV_View *v, bool world)
{
    steerV_Camera *c = &v->cam;
    double lo[3], hi[3], alo[3], ahi[3];
    steer_debug_extent(v->w, lo, hi); // the world's bounds, or where its agents and shapes are
    bool agents = !world && agents_box(v, alo, ahi);
    int dim = steer_world_dim(v->w);
    if (agents && dim != 3) agents = (ahi[0] - alo[0]) * 5 < hi[0] - lo[0] && (ahi[1] - alo[1]) * 5 < hi[1] - lo[1];
    if (agents) {
        memcpy(lo, alo, sizeof lo);
        memcpy(hi, ahi, sizeof hi);
    }
    if (dim != 3) {
        c->cx = (lo[0] + hi[0]) * 0.5;
        c->cy = (lo[1] + hi[1]) * 0.5;
        // below the HUD and above the timeline, when there is one
        double above = steerV_hud_height(v), below = steerV_timeline_height(v);
        double sx = (double)c->width / ((hi[0] - lo[0]) * 1.08),
               sy = ((double)c->height - above - below) / ((hi[1] - lo[1]) * 1.08);
        c->scale = fmin(sx, sy);
        c->cy -= (below - above) * 0.5 / c->scale;
    } else {
        for (int i = 0; i < 3; i++) c->target[i] = (lo[i] + hi[i]) * 0.5;
        if (!agents) c->target[2] = fmax(0.0, lo[2]);
        double span = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
        c->yaw = -2.2;
        c->pitch = 0.55;
        c->dist = span * 1.15;
        if (agents) close_in(v, lo, hi);
    }
    steerV_camera_update(v);
}

// ---- primitives in world coordinates ------------------------------------------

// A world segment, clipped to the near plane in 3D.
// A world segment in output pixels, clipped at the near plane in 3D;
// false when nothing of it is in front of the camera.
static bool project_segment(const steerV_View *v, const float p[3], const float q[3], float *x0, float *y0, float *x1,
                            float *y1)
{
    if (steer_world_dim(v->w) == 3) {
        double a[3], c[3], pa[3] = { p[0], p[1], p[2] }, qa[3] = { q[0], q[1], q[2] };
        to_camera(&v->cam, pa, a);
        to_camera(&v->cam, qa, c);
        if (a[2] < NEAR_Z && c[2] < NEAR_Z) return false;
        if (a[2] < NEAR_Z || c[2] < NEAR_Z) {
            double t = (NEAR_Z - a[2]) / (c[2] - a[2]);
            double m[3];
            for (int i = 0; i < 3; i++) m[i] = a[i] + t * (c[i] - a[i]);
            if (a[2] < NEAR_Z) memcpy(a, m, sizeof m);
            else memcpy(c, m, sizeof m);
        }
        from_camera(&v->cam, a, x0, y0);
        from_camera(&v->cam, c, x1, y1);
    } else {
        steerV_to_screen(v, p, x0, y0);
        steerV_to_screen(v, q, x1, y1);
    }
    return fabsf(*x0) <= 1e6f && fabsf(*y0) <= 1e6f && fabsf(*x1) <= 1e6f && fabsf(*y1) <= 1e6f;
}

void steerV_world_line(steerV_View *v, steerV_Batch *b, const float p[3], const float q[3], float width, SDL_Color col,
                       bool arrow)
{
    float x0, y0, x1, y1;
    if (!project_segment(v, p, q, &x0, &y0, &x1, &y1)) return;
    if (arrow) steerV_arrow(b, x0, y0, x1, y1, width, col);
    else steerV_line(b, x0, y0, x1, y1, width, col);
}

// A one-pixel line under everything else (the ground grid, drop lines):
// drawn by SDL's line routine, which costs the software renderer far less
// than thin triangles do.
static void hairline(steerV_View *v, const float p[3], const float q[3], SDL_Color col)
{
    float x0, y0, x1, y1;
    if (!project_segment(v, p, q, &x0, &y0, &x1, &y1)) return;
    steerV_Lines *l = &v->hair;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        steerV_Hair *h = realloc(l->h, sizeof *h * (size_t)cap);
        if (!h) return;
        l->h = h;
        l->cap = cap;
    }
    l->h[l->n++] = (steerV_Hair){ { x0, y0, x1, y1 }, col };
}

// Pixels a world length r covers at point p.
float steerV_world_radius(const steerV_View *v, const float p[3], float r)
{
    if (steer_world_dim(v->w) != 3) return (float)(r * v->cam.scale);
    double q[3], pd[3] = { p[0], p[1], p[2] };
    to_camera(&v->cam, pd, q);
    return q[2] < NEAR_Z ? 0 : (float)(r * v->cam.focal / q[2]);
}

static SDL_Color rgba(int r, int g, int b, int a) { return (SDL_Color){ (Uint8)r, (Uint8)g, (Uint8)b, (Uint8)a }; }

// ---- the ground: grid and bounds -------------------------------------------

static double nice_step(double raw)
{
    double p = pow(10.0, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

static void draw_grid(steerV_View *v)
{
    steerV_Batch *b = &v->geo;
    float dpi = (float)v->dpi;
    double origin[3], size[3];
    bool wrap;
    steer_world_bounds(v->w, origin, size, &wrap);
    if (steer_world_dim(v->w) != 3) {
        if (v->show_grid && !steer_debug_nav_grids(v->nav)) { // metres, unless the scenario's grid shows
            double x0[3], x1[3];
            steerV_to_world(v, 0, (double)v->cam.height, x0);
            steerV_to_world(v, (double)v->cam.width, 0, x1);
            double step = nice_step(40.0 * v->dpi / v->cam.scale);
            for (double x = floor(x0[0] / step) * step; x <= x1[0]; x += step) {
                float p[3] = { (float)x, (float)x0[1], 0 }, q[3] = { (float)x, (float)x1[1], 0 };
                bool major = fmod(fabs(x) + step * 0.5, step * 5) < step;
                hairline(v, p, q, major ? rgba(52, 56, 68, 255) : rgba(36, 39, 48, 255));
            }
            for (double y = floor(x0[1] / step) * step; y <= x1[1]; y += step) {
                float p[3] = { (float)x0[0], (float)y, 0 }, q[3] = { (float)x1[0], (float)y, 0 };
                bool major = fmod(fabs(y) + step * 0.5, step * 5) < step;
                hairline(v, p, q, major ? rgba(52, 56, 68, 255) : rgba(36, 39, 48, 255));
            }
        }
        if (size[0] > 0 && size[1] > 0) {
            float o[3] = { (float)origin[0], (float)origin[1], 0 }, s[3] = { (float)size[0], (float)size[1], 0 };
            float c[4][3] = {
                { o[0], o[1], 0 }, { o[0] + s[0], o[1], 0 }, { o[0] + s[0], o[1] + s[1], 0 }, { o[0], o[1] + s[1], 0 }
            };
            for (int k = 0; k < 4; k++)
                steerV_world_line(v, b, c[k], c[(k + 1) % 4], 1.5f * dpi,
                                  wrap ? rgba(70, 90, 120, 255) : rgba(90, 96, 112, 255), false);
        }
        return;
    }
    // 3D: a ground grid over the bounds (or around the target), on z = 0
    double lo[3], hi[3];
    steer_debug_extent(v->w, lo, hi); // the world's bounds, or where its agents and shapes are
    double span = fmax(hi[0] - lo[0], hi[1] - lo[1]);
    double step = nice_step(span / 20.0);
    double z = size[2] > 0 ? origin[2] : 0;
    SDL_Color minor = rgba(40, 46, 58, 255), major = rgba(62, 70, 88, 255);
    for (double x = floor(lo[0] / step) * step; x <= hi[0] + 1e-9; x += step) {
        float p[3] = { (float)x, (float)lo[1], (float)z }, q[3] = { (float)x, (float)hi[1], (float)z };
        hairline(v, p, q, fmod(fabs(x) + step * 0.5, step * 5) < step ? major : minor);
    }
    for (double y = floor(lo[1] / step) * step; y <= hi[1] + 1e-9; y += step) {
        float p[3] = { (float)lo[0], (float)y, (float)z }, q[3] = { (float)hi[0], (float)y, (float)z };
        hairline(v, p, q, fmod(fabs(y) + step * 0.5, step * 5) < step ? major : minor);
    }
    // axes: x red, y green, z blue, from the origin
    float o[3] = { 0, 0, (float)z }, ax[3][3] = { { (float)step * 2, 0, (float)z },
                                                  { 0, (float)step * 2, (float)z },
                                                  { 0, 0, (float)(z + step * 2) } };
    SDL_Color ac[3] = { rgba(200, 80, 80, 255), rgba(80, 200, 80, 255), rgba(80, 120, 230, 255) };
    for (int i = 0; i < 3; i++) steerV_world_line(v, b, o, ax[i], 2 * dpi, ac[i], true);
}

// ---- static geometry and paths ---------------------------------------------

// The core's v3_cross and v3_normalize (src/core/vecmath.h) for a plane's
// patch, with their rounding, so that the patch lies where it always did.
static void cross(float o[3], const float a[3], const float b[3])
{
    float x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    o[0] = x;
    o[1] = y;
    o[2] = z;
}

// (a unit normal crossed with a unit axis: its square never overflows)
static void normalize(float a[3])
{
    float l2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2], k = l2 > 1e-16f ? 1.0f / sqrtf(l2) : 0.0f;
    for (int i = 0; i < 3; i++) a[i] *= k;
}

static void draw_box_3d(steerV_View *v, const float a[3], const float c[3], SDL_Color col)
{
    for (int e = 0; e < 12; e++) {
        // the 12 edges of a box: pairs of corners that differ in one axis
        int axis = e / 4, k = e % 4;
        float p[3], q[3];
        int o1 = (axis + 1) % 3, o2 = (axis + 2) % 3;
        p[axis] = a[axis];
        q[axis] = c[axis];
        p[o1] = q[o1] = (k & 1) ? c[o1] : a[o1];
        p[o2] = q[o2] = (k & 2) ? c[o2] : a[o2];
        steerV_world_line(v, &v->geo, p, q, 1.5f * (float)v->dpi, col, false);
    }
}

static void draw_shapes(steerV_View *v)
{
    const steer_World *w = v->w;
    steerV_Batch *b = &v->geo;
    float dpi = (float)v->dpi;
    SDL_Color fill = rgba(70, 76, 96, 150), edge = rgba(140, 150, 180, 255), wall = rgba(190, 195, 210, 255);
    for (int s = 0, n = steer_debug_shape_slots(w); s < n; s++) {
        steer_DebugShape shape;
        if (steer_debug_shape(w, s, &shape) != 1) continue;
        const steer_DebugShape *sh = &shape;
        float x, y;
        switch (sh->kind) {
        case STEER_SHAPE_CIRCLE:
            if (!steerV_to_screen(v, sh->a, &x, &y)) break;
            steerV_disc(b, x, y, steerV_world_radius(v, sh->a, sh->r), fill);
            steerV_ring(b, x, y, steerV_world_radius(v, sh->a, sh->r), 1.5f * dpi, edge);
            break;
        case STEER_SHAPE_SEGMENT: steerV_world_line(v, b, sh->a, sh->b, 3 * dpi, wall, false); break;
        case STEER_SHAPE_BOX:
            if (steer_world_dim(w) == 3) {
                draw_box_3d(v, sh->a, sh->b, edge);
            } else {
                float x0, y0, x1, y1;
                steerV_to_screen(v, sh->a, &x0, &y0);
                steerV_to_screen(v, sh->b, &x1, &y1);
                steerV_rect(b, x0, y1, x1 - x0, y0 - y1, fill);
                float c[4][3] = { { sh->a[0], sh->a[1], 0 },
                                  { sh->b[0], sh->a[1], 0 },
                                  { sh->b[0], sh->b[1], 0 },
                                  { sh->a[0], sh->b[1], 0 } };
                for (int k = 0; k < 4; k++) steerV_world_line(v, b, c[k], c[(k + 1) % 4], 1.5f * dpi, edge, false);
            }
            break;
        case STEER_SHAPE_PLANE: {
            // a square patch of the plane around its point, with its normal
            float n[3] = { sh->b[0], sh->b[1], sh->b[2] }, t[3], u[3];
            float ref[3] = { fabsf(n[2]) < 0.9f ? 0.0f : 1.0f, 0, fabsf(n[2]) < 0.9f ? 1.0f : 0.0f };
            cross(t, n, ref);
            normalize(t);
            cross(u, n, t);
            float L = 10, c[4][3];
            for (int i = 0; i < 3; i++) {
                c[0][i] = sh->a[i] + L * (t[i] + u[i]);
                c[1][i] = sh->a[i] + L * (t[i] - u[i]);
                c[2][i] = sh->a[i] - L * (t[i] + u[i]);
                c[3][i] = sh->a[i] - L * (t[i] - u[i]);
            }
            for (int k = 0; k < 4; k++) steerV_world_line(v, b, c[k], c[(k + 1) % 4], dpi, edge, false);
            float tip[3] = { sh->a[0] + 3 * n[0], sh->a[1] + 3 * n[1], sh->a[2] + 3 * n[2] };
            steerV_world_line(v, b, sh->a, tip, 1.5f * dpi, edge, true);
            break;
        }
        default: break;
        }
    }
}

// One path or patrol route (steer_debug_paths).
static void draw_path(void *ud, const float *xyz, int n)
{
    steerV_View *v = ud;
    float dpi = (float)v->dpi;
    SDL_Color col = rgba(150, 110, 220, 200);
    for (int j = 0; j < n; j++) {
        const float *p = xyz + 3 * j;
        if (j + 1 < n) steerV_world_line(v, &v->geo, p, p + 3, 1.5f * dpi, col, false);
        float x, y;
        if (steerV_to_screen(v, p, &x, &y)) steerV_disc(&v->geo, x, y, 2.5f * dpi, col);
    }
}

// An agent's way ahead (navigate's corners, from the agent): thin, faint,
// so that a crowd's ways read as a flow.
static void draw_route(void *ud, const float *xyz, int n)
{
    steerV_View *v = ud;
    float dpi = (float)v->dpi;
    SDL_Color col = rgba(120, 200, 170, 90);
    for (int j = 0; j + 1 < n; j++) steerV_world_line(v, &v->geo, xyz + 3 * j, xyz + 3 * j + 3, dpi, col, false);
}

// Every path and patrol route of the brains in use, and every agent's way ahead.
static void draw_paths(steerV_View *v)
{
    steer_debug_paths(v->w, draw_path, v);
    steer_debug_routes(v->w, draw_route, v);
}

// ---- navigation: grid cells (G) and flow fields (L) ------------------------------

#define FLOW_ARROWS 20000 // at most this many flow arrows a frame, all fields together

// The cells of g in view, [x0, x1) x [y0, y1), and a cell's side in pixels.
static bool cells_in_view(const steerV_View *v, const steer_DebugGrid *g, int *x0, int *y0, int *x1, int *y1, float *px)
{
    const steerV_Camera *c = &v->cam;
    double hw = (double)c->width * 0.5 / c->scale, hh = (double)c->height * 0.5 / c->scale;
    double u0 = floor((c->cx - hw - g->origin[0]) / g->cell), u1 = ceil((c->cx + hw - g->origin[0]) / g->cell);
    double w0 = floor((c->cy - hh - g->origin[1]) / g->cell), w1 = ceil((c->cy + hh - g->origin[1]) / g->cell);
    // clamped before the conversion: far away, these are beyond an int
    *x0 = (int)fmin(fmax(u0, 0), g->nx);
    *x1 = (int)fmax(fmin(u1, g->nx), 0);
    *y0 = (int)fmin(fmax(w0, 0), g->ny);
    *y1 = (int)fmax(fmin(w1, g->ny), 0);
    *px = (float)(g->cell * c->scale);
    return *x0 < *x1 && *y0 < *y1;
}

// Cells per side of the blocks a grid is drawn in: enough for a block to
// be `least` pixels wide and for at most `most` blocks in view.
static int block_side(const steer_DebugGrid *g, int cells, float px, float least, double most)
{
    double k = fmax(ceil(least / px), ceil(sqrt((double)cells / fmax(most, 1))));
    int side = (int)fmin(fmax(k, 1), (double)(g->nx > g->ny ? g->nx : g->ny));
    while (side < g->nx + g->ny && (double)cells / ((double)side * side) > most) side++;
    return side;
}

// A cell's fill: the wall colour when blocked, none at cost 1, a warmer
// tint the dearer (a cooler one below 1). False: nothing to fill.
static bool cost_colour(float cost, SDL_Color *out)
{
    if (cost == 1.0f) return false;
    if (cost == INFINITY) {
        *out = rgba(62, 67, 84, 255);
        return true;
    }
    double t = fmin(fabs(log(cost)) / log(9.0), 1.0);
    *out = cost > 1 ? rgba(235, 140, 50, (int)(40 + 110 * t)) : rgba(80, 200, 150, (int)(30 + 70 * t));
    return true;
}

// Cells in runs of equal cost along each row, one rectangle a run; cells
// under 2 pixels are drawn in blocks (each block as its first cell).
// Edges are on whole pixels, where the software renderer leaves no seam
// between neighbours. Cell lines when a cell is wider than 6 points.
static void draw_cells(steerV_View *v, const steer_DebugGrid *g)
{
    int x0, y0, x1, y1;
    float px;
    if (!cells_in_view(v, g, &x0, &y0, &x1, &y1, &px)) return;
    const steerV_Camera *c = &v->cam;
    int k = block_side(g, (x1 - x0) * (y1 - y0), px, 2 * (float)v->dpi, 1e30);
    float left = (float)((double)c->width * 0.5 + (g->origin[0] - c->cx) * c->scale);
    float bottom = (float)((double)c->height * 0.5 + (c->cy - g->origin[1]) * c->scale);
    for (int y = y0 - y0 % k; y < y1; y += k) {
        float top = roundf(bottom - (float)(y + k < g->ny ? y + k : g->ny) * px), base = roundf(bottom - (float)y * px);
        const float *row = g->cost + (size_t)y * (size_t)g->nx;
        for (int x = x0 - x0 % k; x < x1;) {
            float cost = row[x];
            int end = x + k;
            while (end < x1 && row[end] == cost) end += k;
            SDL_Color col;
            if (cost_colour(cost, &col)) {
                float l = roundf(left + (float)x * px), r = roundf(left + (float)(end < g->nx ? end : g->nx) * px);
                steerV_rect(&v->geo, l, top, r - l, base - top, col);
            }
            x = end;
        }
    }
    if (px <= 6 * (float)v->dpi) return;
    SDL_Color line = rgba(120, 130, 160, 40);
    for (int x = x0; x <= x1; x++) {
        float p[3] = { (float)(g->origin[0] + x * g->cell), (float)(g->origin[1] + y0 * g->cell), 0 };
        float q[3] = { p[0], (float)(g->origin[1] + y1 * g->cell), 0 };
        hairline(v, p, q, line);
    }
    for (int y = y0; y <= y1; y++) {
        float p[3] = { (float)(g->origin[0] + x0 * g->cell), (float)(g->origin[1] + y * g->cell), 0 };
        float q[3] = { (float)(g->origin[0] + x1 * g->cell), p[1], 0 };
        hairline(v, p, q, line);
    }
}

// One arrow per cell along the field's direction; when cells are small on
// screen, one per block of k x k cells (its middle cell), so that arrows
// stay 8 points apart and within `budget`. Goal cells are ringed.
static void draw_flow(steerV_View *v, const steer_DebugFlow *f, uint32_t budget)
{
    const steer_DebugGrid *g = &f->grid;
    int x0, y0, x1, y1;
    float px;
    if (!f->dir || !cells_in_view(v, g, &x0, &y0, &x1, &y1, &px)) return;
    float dpi = (float)v->dpi;
    int k = block_side(g, (x1 - x0) * (y1 - y0), px, 8 * dpi, budget);
    float len = 0.36f * px * (float)k, width = fminf(fmaxf(len * 0.12f, dpi), 2 * dpi);
    SDL_Color col = rgba(150, 215, 190, 170);
    for (int y = y0 - y0 % k; y < y1; y += k)
        for (int x = x0 - x0 % k; x < x1; x += k) {
            int cx = x + k / 2 < g->nx ? x + k / 2 : x, cy = y + k / 2 < g->ny ? y + k / 2 : y;
            uint8_t d = f->dir[(size_t)cy * (size_t)g->nx + (size_t)cx];
            int sx, sy;
            if (steer_debug_flow_step(d, &sx, &sy) != STEER_OK) continue; // STEER_FLOW_NONE
            double half = (d < 4 ? 1.0 : sqrt(0.5)) * len / v->cam.scale; // metres along each axis
            double dx = sx * half, dy = sy * half;
            double c[2] = { g->origin[0] + ((double)cx + 0.5) * g->cell, g->origin[1] + ((double)cy + 0.5) * g->cell };
            float a[3] = { (float)(c[0] - dx), (float)(c[1] - dy), 0 };
            float b[3] = { (float)(c[0] + dx), (float)(c[1] + dy), 0 };
            steerV_world_line(v, &v->geo, a, b, width, col, true);
        }
    SDL_Color goal = rgba(255, 225, 110, 230);
    for (int i = 0; i < f->ngoals; i++) {
        float p[3] = { (float)f->goals[2 * i], (float)f->goals[2 * i + 1], 0 }, x, y;
        steerV_to_screen(v, p, &x, &y);
        float r = fmaxf(0.45f * px, 5 * dpi);
        steerV_ring(&v->geo, x, y, r, 2 * dpi, goal);
        steerV_disc(&v->geo, x, y, 2 * dpi, goal);
    }
}

// A navigation mesh (w:add_navmesh): its triangles filled by area (the
// default ground faint, other areas in a palette), the edges between
// triangles as hairlines when they are far enough apart on screen (in 2D:
// in 3D they are drawn under everything and would show one floor's
// through the other's), and its walls as lines. In 3D every vertex at its height (a baked mesh's
// floors one over the other), in 2D all floors flat, each layer above the
// lowest lighter, so that the ground floor reads through the first.
// Only triangles whose box meets the view (2D) or in front of the camera
// (3D).
static const SDL_Color mesh_fill[] = { { 70, 90, 130, 60 }, { 150, 110, 60, 90 }, { 60, 120, 170, 90 },
                                       { 90, 150, 80, 90 }, { 160, 80, 120, 90 }, { 150, 150, 70, 90 } };

static void draw_navmesh(steerV_View *v, const steer_DebugNavMesh *m)
{
    const SDL_Color *fill = mesh_fill;
    const steerV_Camera *c = &v->cam;
    bool three = steer_world_dim(v->w) == 3;
    double hw = (double)c->width * 0.5 / c->scale, hh = (double)c->height * 0.5 / c->scale;
    double lo[2] = { c->cx - hw, c->cy - hh }, hi[2] = { c->cx + hw, c->cy + hh };
    float dpi = (float)v->dpi;
    double zbot = INFINITY, ztop = -INFINITY;
    for (int i = 0; m->z && i < m->nvert; i++) zbot = fmin(zbot, m->z[i]), ztop = fmax(ztop, m->z[i]);
    for (int t = 0; t < m->ntri; t++) {
        const uint32_t *k = m->tri + 3 * (size_t)t;
        if (k[0] == k[1]) continue; // a slot an obstacle's rebuild left empty (steer_debug.h)
        const double *p[3] = { m->xy + 2 * (size_t)k[0], m->xy + 2 * (size_t)k[1], m->xy + 2 * (size_t)k[2] };
        bool out = false;
        for (int a = 0; a < 2 && !out && !three; a++)
            out = (p[0][a] < lo[a] && p[1][a] < lo[a] && p[2][a] < lo[a]) ||
                  (p[0][a] > hi[a] && p[1][a] > hi[a] && p[2][a] > hi[a]);
        float q[3][3], s[3][2];
        for (int i = 0; i < 3 && !out; i++) {
            q[i][0] = (float)p[i][0], q[i][1] = (float)p[i][1];
            q[i][2] = three && m->z ? (float)m->z[k[i]] : 0;
            out = !steerV_to_screen(v, q[i], &s[i][0], &s[i][1]);
        }
        if (out) continue;
        // lighter the higher: by the triangle's height in the mesh's range
        // (a stair a ramp of shades from one floor's to the next's), or by
        // its layer on a mesh without heights
        float lift = 0;
        if (m->z && ztop > zbot) lift = (float)(((m->z[k[0]] + m->z[k[1]] + m->z[k[2]]) / 3 - zbot) / (ztop - zbot));
        else if (m->layer && m->nlayers > 1) lift = (float)m->layer[t] / (float)(m->nlayers - 1);
        // (toward sand: the ground floor blue, the one above warm)
        float mix = 0.6f * lift;
        SDL_Color col = m->area[t] ? fill[1 + (m->area[t] - 1) % 5] : fill[0];
        col = rgba((int)(col.r + (230 - col.r) * mix), (int)(col.g + (200 - col.g) * mix),
                   (int)(col.b + (140 - col.b) * mix), (int)(col.a + (three ? 25 : 0) + 60 * lift));
        SDL_Color edge = rgba(120, 140, 190, three ? 70 : 45);
        SDL_Color wall = rgba((int)(170 + 70 * lift), (int)(185 + 35 * lift), (int)(220 - 60 * lift),
                              three ? 230 : (int)(200 - 70 * lift));
        steerV_tri(&v->geo, s[0][0], s[0][1], s[1][0], s[1][1], s[2][0], s[2][1], col);
        for (int i = 0; i < 3; i++) {
            int32_t u = m->adj[3 * (size_t)t + (size_t)i];
            if (u >= 0 && u < t) continue; // each shared edge once
            if (u < 0) steerV_world_line(v, &v->geo, q[i], q[(i + 1) % 3], (2 - lift) * dpi, wall, false);
            else if (!three && fabsf(s[i][0] - s[(i + 1) % 3][0]) + fabsf(s[i][1] - s[(i + 1) % 3][1]) > 6 * dpi)
                hairline(v, q[i], q[(i + 1) % 3], edge);
        }
    }
    steerV_draw_navlinks(v, m);
}

// A mesh's obstacles (nm:add_obstacle): each footprint's outline, a
// blocked one in amber over the hole it carved, one that re-labels in its
// area's colour; drawn after the world's walls (a blocked one's sides are
// walls too, which would hide it).
static void draw_navobstacles(steerV_View *v, const steer_DebugNavMesh *m)
{
    bool three = steer_world_dim(v->w) == 3;
    steer_DebugNavObstacle o;
    for (int i = 0; steer_debug_nav_obstacle(m, i, &o) == STEER_OK; i++) {
        SDL_Color col = o.area < 0 ? rgba(240, 170, 60, 230) : mesh_fill[1 + (o.area - 1) % 5];
        col.a = 230;
        for (int k = 0; k < o.n; k++) {
            float z = three ? (float)o.z : 0; // on its floor
            float a[3] = { (float)o.xy[2 * k], (float)o.xy[2 * k + 1], z },
                  b[3] = { (float)o.xy[2 * ((k + 1) % o.n)], (float)o.xy[2 * ((k + 1) % o.n) + 1], z };
            steerV_world_line(v, &v->geo, a, b, 1.5f * (float)v->dpi, col, false);
        }
    }
}

// The grids the scenario attached (w:add_grid): their cells with G, the
// arrows of every flow field built on them with L; its navigation meshes
// (w:add_navmesh) with N (on at the start).
static void draw_nav(steerV_View *v)
{
    steer_DebugNavMesh mesh;
    for (int i = 0; v->show_navmesh && steer_debug_nav_mesh(v->nav, i, &mesh) == STEER_OK; i++) draw_navmesh(v, &mesh);
    if (steer_world_dim(v->w) == 3) return; // (grids and fields are drawn in 2D only)
    int n = steer_debug_nav_grids(v->nav);
    if (!n) return;
    uint32_t fields = 0;
    for (int i = 0; i < n; i++) {
        steer_DebugGrid g;
        steer_debug_nav_grid(v->nav, i, &g);
        if (v->show_grid && g.cost) draw_cells(v, &g); // no cells once collected (only with its world)
        fields += (uint32_t)g.flows;
    }
    if (!v->show_fields || !fields) return;
    for (int i = 0; i < n; i++) {
        steer_DebugFlow f;
        for (int j = 0; steer_debug_nav_flow(v->nav, i, j, &f) == STEER_OK; j++) draw_flow(v, &f, FLOW_ARROWS / fields);
    }
}

// ---- the scenario's debug drawing ---------------------------------------------

// A scenario's label with a dark halo: the text drawn a pixel off in each
// direction in the frame's background colour, then in its own. Bare text
// over flow arrows, grid lines or paths cannot be read (zombie_horde's
// status line ran over the field's arrows); the halo keeps lines off the
// letters' strokes and still shows what lies under the label between them.
static void draw_label(steerV_View *v, float x, float y, const char *s, SDL_Color col)
{
    static const float off[8][2] = { { -1, 0 },  { 1, 0 },  { 0, -1 }, { 0, 1 },
                                     { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
    float d = (float)v->dpi;
    for (int i = 0; i < 8; i++)
        steerV_text(&v->label, &v->text, x + off[i][0] * d, y + off[i][1] * d, s, rgba(22, 24, 31, 255));
    steerV_text(&v->label, &v->text, x, y, s, col);
}

static void draw_list(steerV_View *v)
{
    const steer_DrawList *l = &v->shown;
    float dpi = (float)v->dpi;
    for (uint32_t k = 0; k < l->n; k++) {
        const steer_DrawCmd *c = &l->cmds[k];
        SDL_Color col = { c->rgba[0], c->rgba[1], c->rgba[2], c->rgba[3] };
        float x, y;
        switch (c->kind) {
        case STEER_DRAW_LINE: steerV_world_line(v, &v->geo, c->a, c->b, 1.5f * dpi, col, false); break;
        case STEER_DRAW_ARROW: steerV_world_line(v, &v->geo, c->a, c->b, 2 * dpi, col, true); break;
        case STEER_DRAW_CIRCLE:
            if (steerV_to_screen(v, c->a, &x, &y))
                steerV_ring(&v->geo, x, y, steerV_world_radius(v, c->a, c->r), 1.5f * dpi, col);
            break;
        case STEER_DRAW_POINT:
            if (steerV_to_screen(v, c->a, &x, &y)) steerV_disc(&v->geo, x, y, 3 * dpi, col);
            break;
        case STEER_DRAW_TEXT:
            if (steerV_to_screen(v, c->a, &x, &y)) draw_label(v, x, y - (float)v->label.height, l->text + c->text, col);
            break;
        default: break;
        }
    }
}

// ---- agents ----------------------------------------------------------------

static void draw_agents_2d(steerV_View *v)
{
    steer_DebugAgents ag;
    steerV_agents(v, &ag);
    steerV_Batch *b = &v->geo;
    float W = (float)v->cam.width, H = (float)v->cam.height;
    float scale = (float)v->cam.scale, cx = (float)v->cam.cx, cy = (float)v->cam.cy, min = 4.5f * (float)v->dpi;
    for (int d = 0; d < ag.count; d++) {
        float x = W * 0.5f + (ag.position[0][d] - cx) * scale, y = H * 0.5f - (ag.position[1][d] - cy) * scale;
        float s = ag.radius[d] * scale;
        if (s < min) s = min;
        if (x < -3 * s || y < -3 * s || x > W + 3 * s || y > H + 3 * s) continue;
        float hx = ag.heading[0][d], hy = -ag.heading[1][d]; // screen y points down
        float nose = 1.6f * s, back = 0.9f * s, wing = 0.85f * s;
        steerV_tri(b, x + hx * nose, y + hy * nose, x - hx * back - hy * wing, y - hy * back + hx * wing,
                   x - hx * back + hy * wing, y - hy * back - hx * wing, steerV_tag_colour(v->w, ag.tag[d]));
    }
}

typedef struct Tri3 {
    float x[3], y[3];
    SDL_Color c;
} Tri3;

// A craft's depth and its first triangle: crafts are sorted, not triangles.
typedef struct Craft {
    float depth;
    uint32_t first;
} Craft;

static int by_depth(const void *a, const void *b)
{
    float da = ((const Craft *)a)->depth, db = ((const Craft *)b)->depth;
    return da < db ? 1 : da > db ? -1 : 0;
}

static SDL_Color shade(SDL_Color c, float k)
{
    return (SDL_Color){ (Uint8)(c.r * k), (Uint8)(c.g * k), (Uint8)(c.b * k), c.a };
}

// Small aircraft: a delta wing in the plane of heading and side, and a fin
// along up, so the craft banks as its up vector rolls. Crafts are sorted
// far to near; within one, the fin goes over the wing seen from above.
static void draw_agents_3d(steerV_View *v)
{
    steer_World *w = v->w;
    steer_DebugAgents ag;
    steerV_agents(v, &ag);
    uint32_t n = (uint32_t)ag.count;
    Tri3 *tris = malloc(sizeof *tris * (size_t)n * 3 + 1);
    Craft *crafts = malloc(sizeof *crafts * (size_t)n + 1);
    if (!tris || !crafts) {
        free(tris);
        free(crafts);
        return;
    }
    int nt = 0, nc = 0;
    const double light[3] = { 0.3, 0.4, 0.866 };
    for (uint32_t d = 0; d < n; d++) {
        double h[3], up[3], s[3], p[3];
        steer_Agent a = steer_debug_agent_handle(w, (int)d);
        // (the up vector is derived, or a craft's bank: only the getter has it)
        if (steer_agent_vec(w, a, STEER_PROP_UP, up) != STEER_OK) continue; // removed since the last tick
        for (int i = 0; i < 3; i++) {
            h[i] = ag.heading[i][d];
            p[i] = ag.position[i][d];
        }
        s[0] = h[1] * up[2] - h[2] * up[1];
        s[1] = h[2] * up[0] - h[0] * up[2];
        s[2] = h[0] * up[1] - h[1] * up[0];
        // at least 10 points from nose to tail, as 2D agents have a least
        // size (up to 5000 crafts: a swarm's cloud would only cost more)
        double L = fmax(ag.radius[d] * 2.0, 0.3), cp[3];
        to_camera(&v->cam, p, cp);
        if (n <= 5000 && cp[2] >= NEAR_Z) L = fmax(L, 6.0 * v->dpi * cp[2] / v->cam.focal);
        double pts[6][3];
        for (int i = 0; i < 3; i++) {
            pts[0][i] = p[i] + h[i] * L;                         // nose
            pts[1][i] = p[i] - h[i] * 0.7 * L + s[i] * 0.9 * L;  // wing tip
            pts[2][i] = p[i] - h[i] * 0.7 * L - s[i] * 0.9 * L;  // other wing tip
            pts[3][i] = p[i] - h[i] * 0.35 * L;                  // tail notch
            pts[4][i] = p[i] - h[i] * 0.7 * L + up[i] * 0.5 * L; // fin top
            pts[5][i] = p[i] + h[i] * 0.1 * L;                   // fin front
        }
        double q[6][3];
        bool ok = true;
        for (int k = 0; k < 6 && ok; k++) {
            to_camera(&v->cam, pts[k], q[k]);
            ok = q[k][2] >= NEAR_Z;
        }
        if (!ok) continue;
        SDL_Color base = steerV_tag_colour(w, ag.tag[d]);
        float wl = (float)fabs(up[0] * light[0] + up[1] * light[1] + up[2] * light[2]);
        float fl = (float)fabs(s[0] * light[0] + s[1] * light[1] + s[2] * light[2]);
        static const int wing[2][3] = { { 0, 1, 3 }, { 0, 3, 2 } }, fin[3] = { 5, 4, 3 };
        double above = (v->cam.eye[0] - p[0]) * up[0] + (v->cam.eye[1] - p[1]) * up[1] + (v->cam.eye[2] - p[2]) * up[2];
        crafts[nc].depth = (float)q[3][2];
        crafts[nc++].first = (uint32_t)nt;
        for (int part = 0; part < 3; part++) {
            // seen from above: wing, wing, fin; from below: fin first
            int which = above >= 0 ? part : (part + 2) % 3;
            Tri3 *t = &tris[nt++];
            const int *idx = which < 2 ? wing[which] : fin;
            t->c = which < 2 ? shade(base, 0.45f + 0.55f * wl) : shade(base, 0.35f + 0.5f * fl);
            for (int k = 0; k < 3; k++) from_camera(&v->cam, q[idx[k]], &t->x[k], &t->y[k]);
        }
    }
    // altitude: a faint drop line and a shadow on the ground under each craft
    if (n <= 5000) {
        double origin[3], size[3];
        bool wrap;
        steer_world_bounds(w, origin, size, &wrap);
        float ground = size[2] > 0 ? (float)origin[2] : 0.0f, x, y;
        for (uint32_t d = 0; d < n; d++) {
            float p[3], g[3];
            steerV_load(ag.position, (int)d, p);
            g[0] = p[0];
            g[1] = p[1];
            g[2] = ground;
            hairline(v, p, g, rgba(120, 130, 160, 35));
            if (steerV_to_screen(v, g, &x, &y)) steerV_disc(&v->geo, x, y, 2.0f * (float)v->dpi, rgba(0, 0, 0, 110));
        }
    }
    qsort(crafts, (size_t)nc, sizeof *crafts, by_depth);
    for (int c = 0; c < nc; c++)
        for (uint32_t k = crafts[c].first; k < crafts[c].first + 3; k++) {
            const Tri3 *t = &tris[k];
            steerV_tri(&v->geo, t->x[0], t->y[0], t->x[1], t->y[1], t->x[2], t->y[2], t->c);
        }
    free(tris);
    free(crafts);
}

static void draw_vectors(steerV_View *v)
{
    steer_DebugAgents ag;
    steerV_agents(v, &ag);
    float dpi = (float)v->dpi;
    int n = ag.count < 20000 ? ag.count : 20000;
    for (int d = 0; d < n; d++) {
        float p[3], f[3], vel[3];
        steerV_load(ag.position, d, p);
        steerV_load(ag.force, d, f);
        steerV_load(ag.velocity, d, vel);
        float mf = ag.max_force[d] > 0 ? ag.max_force[d] : 1, ms = ag.max_speed[d] > 0 ? ag.max_speed[d] : 1;
        float L = fmaxf(ag.radius[d] * 4, 1.0f), q[3], r[3];
        for (int i = 0; i < 3; i++) {
            q[i] = p[i] + f[i] / mf * L;
            r[i] = p[i] + vel[i] / ms * L;
        }
        steerV_world_line(v, &v->geo, p, r, dpi, rgba(90, 200, 120, 200), false);
        steerV_world_line(v, &v->geo, p, q, 1.5f * dpi, rgba(255, 90, 70, 230), true);
    }
}

// ---- trails ------------------------------------------------------------------

void steerV_trails_free(steerV_View *v)
{
    free(v->trails.p);
    free(v->trails.who);
    memset(&v->trails, 0, sizeof v->trails);
}

// Sample every 4th tick; a slot whose agent changed starts its ring afresh.
// Called after each tick (a headless run draws only its last frame, and a
// window may run several ticks a frame) and before drawing, which makes
// the buffers when T turns trails on.
void steerV_trails_sample(steerV_View *v)
{
    steerV_Trails *t = &v->trails;
    if (!t->p) {
        t->p = malloc(sizeof(float) * 3 * STEERV_TRAIL_LEN * STEERV_TRAIL_MAX);
        t->who = calloc(STEERV_TRAIL_MAX, sizeof *t->who);
        if (!t->p || !t->who) {
            steerV_trails_free(v);
            v->show_trails = false;
            return;
        }
    }
    uint64_t tick = steer_world_tick(v->w);
    if (tick == t->last_tick || tick % 4 != 0) return;
    t->last_tick = tick;
    t->head = (t->head + 1) % STEERV_TRAIL_LEN;
    if (t->filled < STEERV_TRAIL_LEN) t->filled++;
    steer_DebugAgents ag;
    steerV_agents(v, &ag);
    for (int d = 0; d < ag.count; d++) {
        steer_Agent a = steer_debug_agent_handle(v->w, d);
        uint32_t s = (uint32_t)a.id; // the handle's slot (a removed agent's entry has none)
        if (!a.id || s >= STEERV_TRAIL_MAX) continue;
        float p[3];
        steerV_load(ag.position, d, p);
        float *ring = t->p + (size_t)s * STEERV_TRAIL_LEN * 3;
        if (t->who[s].id != a.id) {
            t->who[s] = a;
            for (int k = 0; k < STEERV_TRAIL_LEN; k++) memcpy(ring + 3 * k, p, sizeof p);
        }
        memcpy(ring + 3 * t->head, p, sizeof p);
    }
}

static void draw_trails(steerV_View *v)
{
    steerV_trails_sample(v);
    const steerV_Trails *t = &v->trails;
    if (!t->p) return;
    double origin[3], size[3];
    bool wrap;
    steer_world_bounds(v->w, origin, size, &wrap);
    float jump = wrap ? 0.5f * fminf((float)size[0], (float)size[1]) : 1e30f; // a wrap is not a stroke
    steer_DebugAgents ag;
    steerV_agents(v, &ag);
    for (uint32_t s = 0; s < STEERV_TRAIL_MAX; s++) {
        steer_DebugAgent da;
        if (!t->who[s].id || steer_debug_agent(v->w, t->who[s], &da) != STEER_OK) continue;
        const float *ring = t->p + (size_t)s * STEERV_TRAIL_LEN * 3;
        SDL_Color c = steerV_tag_colour(v->w, ag.tag[da.index]);
        for (int k = 1; k < t->filled; k++) {
            int i0 = (t->head - k + STEERV_TRAIL_LEN) % STEERV_TRAIL_LEN;
            int i1 = (t->head - k + 1 + STEERV_TRAIL_LEN) % STEERV_TRAIL_LEN;
            const float *a = ring + 3 * i0, *b = ring + 3 * i1;
            if (fabsf(a[0] - b[0]) > jump || fabsf(a[1] - b[1]) > jump) continue;
            c.a = (Uint8)(140 * (STEERV_TRAIL_LEN - k) / STEERV_TRAIL_LEN);
            steerV_world_line(v, &v->geo, a, b, (float)v->dpi, c, false);
        }
    }
}

void steerV_draw_scene(steerV_View *v)
{
    draw_grid(v);
    if (v->show_grid || v->show_fields || v->show_navmesh) draw_nav(v);
    if (v->show_shapes) draw_shapes(v);
    if (v->show_paths) draw_paths(v);
    if (v->show_trails) draw_trails(v);
    steer_DebugNavMesh mesh;
    for (int i = 0; v->show_navmesh && steer_debug_nav_mesh(v->nav, i, &mesh) == STEER_OK; i++)
        draw_navobstacles(v, &mesh);
    draw_list(v);
    steerV_draw_formations(v);
    if (steer_world_dim(v->w) == 3) draw_agents_3d(v);
    else draw_agents_2d(v);
    if (v->show_vectors) draw_vectors(v);
    steerV_draw_context(v);
}

int64_t steerV_pick(const steerV_View *v, float x, float y, float radius)
{
    steer_DebugAgents ag;
    steerV_agents(v, &ag);
    int64_t best = -1;
    float best_d2 = radius * radius;
    for (int d = 0; d < ag.count; d++) {
        float p[3], sx, sy;
        steerV_load(ag.position, d, p);
        if (!steerV_to_screen(v, p, &sx, &sy)) continue;
        float r = fmaxf(steerV_world_radius(v, p, ag.radius[d]), 0);
        float dx = sx - x, dy = sy - y, d2 = dx * dx + dy * dy - r * r;
        if (d2 < best_d2) {
            best_d2 = d2;
            best = d;
        }
    }
    return best;
}
