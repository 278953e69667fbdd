// SPDX-License-Identifier: MIT
// layers.c — two debug layers read through steer_debug.h: a context's
// interest and danger maps around the selected agent (X), and every
// formation's anchor and slots (M).
#include "viewint.h"

#include <math.h>
#include <stdio.h>

const SDL_Color steerV_interest_rgb = { 80, 220, 110, 255 }, steerV_danger_rgb = { 235, 70, 60, 255 },
                steerV_chosen_rgb = { 255, 120, 230, 255 }, steerV_slot_rgb = { 190, 150, 255, 255 },
                steerV_anchor_rgb = { 70, 225, 210, 255 };

static SDL_Color alpha(SDL_Color c, int a)
{
    c.a = (Uint8)a;
    return c;
}

// The agent's last maps (its brain's first context), as spokes round it:
// interest green and danger red, each as long as its value (over the
// map's largest when that is above 1: weights) times the ring's radius
// (four body radii, at least 70 pixels), the masked slots' interest
// dimmed, the chosen direction a bold arrow past the ring.
void steerV_draw_context(steerV_View *v)
{
    steer_DebugContext cx;
    steer_DebugAgent da;
    steer_DebugAgents ag;
    if (!v->show_context || !v->selected.id || steer_debug_agent(v->w, v->selected, &da) != STEER_OK ||
        steer_debug_context(v->w, v->selected, -1, &cx) != STEER_OK || !cx.recorded)
        return;
    steerV_agents(v, &ag);
    float p[3], dpi = (float)v->dpi;
    steerV_load(ag.position, da.index, p);
    float px = steerV_world_radius(v, p, 1.0f); // pixels a metre
    if (!(px > 0)) return;
    float R = fmaxf(4 * ag.radius[da.index], 70 * dpi / px), x, y, top[2] = { 1, 1 };
    for (int i = 0; i < cx.slots; i++) {
        top[0] = fmaxf(top[0], cx.interest[i]);
        top[1] = fmaxf(top[1], cx.danger[i]);
    }
    if (steerV_to_screen(v, p, &x, &y)) steerV_ring(&v->geo, x, y, R * px, dpi, (SDL_Color){ 200, 205, 220, 70 });
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < cx.slots; i++) {
            float a = 6.2831853f * (float)i / (float)cx.slots, ux = cosf(a), uy = sinf(a);
            bool masked = cx.masked >> i & 1;
            float val = pass == 0 ? cx.interest[i] : cx.danger[i];
            if (!(val > 0)) continue;
            float l = R * val / top[pass], q[3] = { p[0] + ux * l, p[1] + uy * l, p[2] };
            SDL_Color c = pass == 0 ? (masked ? alpha(steerV_interest_rgb, 70) : steerV_interest_rgb)
                                    : alpha(steerV_danger_rgb, masked ? 255 : 170);
            steerV_world_line(v, &v->geo, p, q, (pass == 0 ? 3.0f : 2.0f) * dpi, c, false);
        }
    if (cx.chosen >= 0) {
        float q[3] = { p[0] + cx.direction[0] * R * 1.25f, p[1] + cx.direction[1] * R * 1.25f, p[2] };
        steerV_world_line(v, &v->geo, p, q, 3.5f * dpi, steerV_chosen_rgb, true);
    }
}

// Every formation: its slots as small rings, a faint line from each
// member to its slot, and the anchor as an arrow along its heading (a
// spacing long).
void steerV_draw_formations(steerV_View *v)
{
    if (!v->show_formations) return;
    float dpi = (float)v->dpi;
    for (int i = 0, n = steer_debug_formations(v->w); i < n; i++) {
        steer_DebugFormation f;
        if (steer_debug_formation(v->w, i, &f) != STEER_OK) continue;
        for (int k = 0; k < f.members; k++) {
            steer_DebugSlot s;
            double q[3];
            if (steer_debug_formation_slot(v->w, i, k, &s) != STEER_OK) continue;
            if (steer_agent_vec(v->w, s.member, STEER_PROP_POSITION, q) == STEER_OK) {
                float m[3] = { (float)q[0], (float)q[1], (float)q[2] };
                steerV_world_line(v, &v->geo, m, s.point, dpi, alpha(steerV_slot_rgb, 90), false);
            }
            float x, y;
            if (steerV_to_screen(v, s.point, &x, &y))
                steerV_ring(&v->geo, x, y, fmaxf(steerV_world_radius(v, s.point, 0.25f * f.spacing), 4 * dpi),
                            1.5f * dpi, steerV_slot_rgb);
        }
        float len = f.spacing > 0 ? f.spacing : 1;
        float a[3] = { f.anchor[0], f.anchor[1], f.anchor[2] };
        float b[3] = { a[0] + f.heading[0] * len, a[1] + f.heading[1] * len, a[2] };
        steerV_world_line(v, &v->geo, a, b, 3 * dpi, steerV_anchor_rgb, true);
        float x, y;
        if (steerV_to_screen(v, a, &x, &y)) steerV_disc(&v->geo, x, y, 3 * dpi, steerV_anchor_rgb);
    }
}

int steerV_layer_notes(steerV_View *v, steer_Agent a, const float p[3], char (*lines)[96], int cap)
{
    int n = 0;
    steer_DebugContext cx;
    if (n + 2 <= cap && steer_debug_context(v->w, a, -1, &cx) == STEER_OK && cx.recorded) {
        if (cx.chosen >= 0)
            snprintf(lines[n++], 96, "context: slot %d of %d, %.0f deg, speed %.2f", cx.chosen, cx.slots,
                     atan2((double)cx.direction[1], (double)cx.direction[0]) * 180 / STEERV_PI, (double)cx.speed);
        else snprintf(lines[n++], 96, "context: no slot chosen (no interest): brakes");
        int k = cx.chosen >= 0 ? cx.chosen : 0;
        snprintf(lines[n++], 96, "  interest %.2f  danger %.2f there; %d of %d masked", (double)cx.interest[k],
                 (double)cx.danger[k], cx.nmasked, cx.slots);
    }
    for (int i = 0, nf = steer_debug_formations(v->w); i < nf && n + 1 <= cap; i++) {
        steer_DebugFormation f;
        if (steer_debug_formation(v->w, i, &f) != STEER_OK) continue;
        for (int k = 0; k < f.members; k++) {
            steer_DebugSlot s;
            if (steer_debug_formation_slot(v->w, i, k, &s) != STEER_OK || s.member.id != a.id) continue;
            float dx = s.point[0] - p[0], dy = s.point[1] - p[1], dz = s.point[2] - p[2];
            snprintf(lines[n++], 96, "formation %d: slot %d/%d at (%.1f, %.1f), %.2f m off", i + 1, s.slot + 1,
                     f.members, (double)s.point[0], (double)s.point[1], sqrt((double)(dx * dx + dy * dy + dz * dz)));
            break;
        }
    }
    return n;
}
