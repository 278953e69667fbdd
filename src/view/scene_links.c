// SPDX-License-Identifier: MIT
// scene_links.c — a navigation mesh's off-mesh links in the viewer (with
// the mesh, N): a two-way link a straight line between its ends, a
// one-way link an arc bulging to its left (so a pair of one-way links
// between the same ends part) with an arrowhead at its far end; a dot at
// each end; a disabled link (a locked door) dim and red.
#include "viewint.h"

#include <math.h>

#define ARC_STEPS 12
#define ARC_BULGE 0.25f // the arc's height over its length

void steerV_draw_navlinks(steerV_View *v, const steer_DebugNavMesh *m)
{
    float dpi = (float)v->dpi;
    SDL_Color on = { 255, 170, 60, 230 }, off = { 200, 70, 70, 140 };
    for (int i = 0; i < m->nlinks; i++) {
        const steer_DebugNavLink *l = &m->links[i];
        SDL_Color col = l->enabled ? on : off;
        float a[2] = { (float)l->from[0], (float)l->from[1] }, b[2] = { (float)l->to[0], (float)l->to[1] };
        // the control point of a quadratic curve: the middle, moved to the left of a -> b
        float c[2] = { 0.5f * (a[0] + b[0]) - ARC_BULGE * 2 * (b[1] - a[1]),
                       0.5f * (a[1] + b[1]) + ARC_BULGE * 2 * (b[0] - a[0]) };
        if (l->bidirectional) c[0] = 0.5f * (a[0] + b[0]), c[1] = 0.5f * (a[1] + b[1]); // both ways: straight
        float prev[3] = { a[0], a[1], 0 };
        for (int k = 1; k <= ARC_STEPS; k++) {
            float t = (float)k / ARC_STEPS, s = 1 - t;
            float p[3] = { s * s * a[0] + 2 * s * t * c[0] + t * t * b[0],
                           s * s * a[1] + 2 * s * t * c[1] + t * t * b[1], 0 };
            steerV_world_line(v, &v->geo, prev, p, 2 * dpi, col, k == ARC_STEPS && !l->bidirectional);
            prev[0] = p[0], prev[1] = p[1];
        }
        for (int e = 0; e < 2; e++) {
            float p[3] = { e ? b[0] : a[0], e ? b[1] : a[1], 0 }, x, y;
            if (steerV_to_screen(v, p, &x, &y)) steerV_disc(&v->geo, x, y, 3 * dpi, col);
        }
    }
}
