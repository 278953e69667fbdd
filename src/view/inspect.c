// SPDX-License-Identifier: MIT
// inspect.c — why the selected agent moves as it does. On the agent: an
// arrow per brain node in the node's colour (the force it gave last tick),
// the final force, the velocity, its target and its neighbours ringed. In a
// panel: the brain as a tree with each node's force, which child won each
// priority, how much each truncation cut, and the agent's numbers.
//
// Everything comes from the world's per-node records (the same numbers
// a:contributions() returns), read node by node through steer_debug_node,
// which also says who won and what was cut: a node a combiner skipped
// records zero. A game's own inspector can say the same from that call.
#include "viewint.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_ROWS 48

static const SDL_Color node_palette[] = {
    { 255, 120, 90, 255 },  { 90, 200, 255, 255 }, { 180, 160, 255, 255 }, { 255, 210, 70, 255 },
    { 220, 130, 255, 255 }, { 80, 235, 200, 255 }, { 255, 140, 190, 255 }, { 190, 190, 120, 255 },
};

static SDL_Color node_colour(uint32_t i)
{
    if (i == 0) return (SDL_Color){ 255, 255, 255, 255 };
    return node_palette[(i - 1) % (sizeof node_palette / sizeof node_palette[0])];
}

static float len3(const float *f) { return sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]); }

typedef struct Row {
    steer_DebugNode node;
    SDL_Color note_colour;
} Row;

// The tree in display order (the brain's depth-first order), at most
// MAX_ROWS of its first 256 nodes, each with what its output says of its
// children as the core explains it (steer_debug_node): which child won a
// priority or a dither, how much truncation cut of a sum.
static int describe(const steer_World *w, steer_Agent a, const steer_DebugAgent *da, Row *rows)
{
    static const SDL_Color won = { 120, 255, 140, 255 }, dim = { 130, 135, 150, 255 }, cut = { 255, 170, 90, 255 };
    int n = da->nodes < 256 ? da->nodes : 256, nrows = 0;
    for (int i = 0; i < n && nrows < MAX_ROWS; i++) {
        Row *r = &rows[nrows];
        if (steer_debug_node(w, a, i, &r->node) != STEER_OK) break;
        r->note_colour = r->node.note_kind == STEER_NOTE_WON ? won : r->node.note_kind == STEER_NOTE_CUT ? cut : dim;
        nrows++;
    }
    return nrows;
}

int steerV_explain(steer_World *w, steer_Agent a, char (*notes)[64], int cap)
{
    steer_DebugAgent da;
    if (steer_debug_agent(w, a, &da) != STEER_OK || !da.nodes || !da.recorded) return 0;
    Row rows[MAX_ROWS];
    int n = describe(w, a, &da, rows);
    if (n > cap) n = cap;
    for (int i = 0; i < n; i++) snprintf(notes[i], sizeof notes[i], "%s", rows[i].node.note);
    return n;
}

// Screen points the panel must not cover: the agent and its targets.
typedef struct Keep {
    float x[10], y[10];
    int n;
} Keep;

static void keep(Keep *k, const steerV_View *v, const float p[3])
{
    float x, y;
    if (k->n < 10 && steerV_to_screen(v, p, &x, &y)) {
        k->x[k->n] = x;
        k->y[k->n++] = y;
    }
}

// How many of the kept points a panel at (x, y) of size w x h would cover,
// with a margin round it; the first (the agent, when on screen) counts twice.
static int covered(const Keep *k, float x, float y, float w, float h, float margin)
{
    int n = 0;
    for (int i = 0; i < k->n; i++)
        if (k->x[i] > x - margin && k->x[i] < x + w + margin && k->y[i] > y - margin && k->y[i] < y + h + margin)
            n += i == 0 ? 2 : 1;
    return n;
}

// An arrow from the agent for a force: max_force is 70 points long.
static void force_arrow(steerV_View *v, const float p[3], const float *f, float max_force, float width, SDL_Color c)
{
    float ppm = steerV_world_radius(v, p, 1.0f);
    if (!(ppm > 0) || !(max_force > 0)) return;
    float k = 70.0f * (float)v->dpi / ppm / max_force, q[3];
    for (int i = 0; i < 3; i++) q[i] = p[i] + f[i] * k;
    steerV_world_line(v, &v->geo, p, q, width, c, true);
}

// What the panel says of the selected agent, gathered as its arrows are
// drawn, and where its text goes.
typedef struct Panel {
    steer_Agent agent;
    steer_DebugAgent info;
    const Row *rows;
    int nrows;
    float p[3], vel[3], f[3]; // position, velocity and force
    float heading[2];         // 2D
    float max_speed, max_force;
    int target_kind; // the agent's own target slot (steer_agent_target)
    steer_Agent target_agent;
    double target[3];
    int neighbours;      // within the brain's sensing radius, itself not counted
    float x, width, pad; // the panel's left edge and width, and the padding inside
} Panel;

static void panel_rows(steerV_View *v, const Panel *pl, float tx, float *typ);

static void panel_line(steerV_View *v, float x, float *y, SDL_Color c, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void panel_line(steerV_View *v, float x, float *y, SDL_Color c, const char *fmt, ...)
{
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    steerV_text(&v->font, &v->ui_text, x, *y, buf, c);
    *y += (float)v->font.height;
}

void steerV_inspect(steerV_View *v)
{
    steer_World *w = v->w;
    Panel pl = { .agent = v->selected };
    steer_DebugAgents ag;
    if (steer_debug_agent(w, v->selected, &pl.info) != STEER_OK || steer_debug_agents(w, &ag) != STEER_OK) {
        v->selected = STEER_NO_AGENT;
        return;
    }
    int d = pl.info.index;
    float dpi = (float)v->dpi;
    float *p = pl.p;
    Keep kept = { .n = 0 };
    steerV_load(ag.position, d, p);
    keep(&kept, v, p);
    steerV_load(ag.velocity, d, pl.vel);
    steerV_load(ag.force, d, pl.f);
    pl.heading[0] = ag.heading[0][d];
    pl.heading[1] = ag.heading[1][d];
    float mf = pl.max_force = ag.max_force[d], ms = pl.max_speed = ag.max_speed[d];
    bool brain = pl.info.nodes > 0, rec = brain && pl.info.recorded;

    // neighbours within the brain's sensing radius, ringed
    double sense = pl.info.sense;
    if (sense > 0) {
        steer_Agent nb[256];
        double pd[3] = { p[0], p[1], p[2] };
        int nn = steer_world_neighbors(w, pd, sense, NULL, false, nb, 256);
        for (int k = 0; k < nn && k < 256; k++) {
            steer_DebugAgent o;
            if (steer_debug_agent(w, nb[k], &o) != STEER_OK || o.index == d) continue;
            float q[3], x, y;
            steerV_load(ag.position, o.index, q);
            if (steerV_to_screen(v, q, &x, &y))
                steerV_ring(&v->geo, x, y, fmaxf(steerV_world_radius(v, q, ag.radius[o.index]) * 1.6f, 5 * dpi),
                            1.5f * dpi, (SDL_Color){ 120, 200, 255, 200 });
        }
        if (nn > 0) nn--; // itself
        pl.neighbours = nn;
        float x, y;
        if (steerV_to_screen(v, p, &x, &y))
            steerV_ring(&v->geo, x, y, steerV_world_radius(v, p, (float)sense), dpi, (SDL_Color){ 120, 200, 255, 90 });
    }
    // the target slot
    double *tp = pl.target;
    steer_agent_target(w, v->selected, tp, &pl.target_agent, &pl.target_kind);
    if (pl.target_kind == STEER_TARGET_AGENT) steer_agent_vec(w, pl.target_agent, STEER_PROP_POSITION, tp);
    float tq[3] = { (float)tp[0], (float)tp[1], (float)tp[2] };
    if (pl.target_kind) {
        float x, y;
        keep(&kept, v, tq);
        steerV_world_line(v, &v->geo, p, tq, dpi, (SDL_Color){ 255, 230, 120, 150 }, false);
        if (pl.target_kind == STEER_TARGET_AGENT && steerV_to_screen(v, tq, &x, &y)) {
            // an agent stays visible inside a ring; a point gets a cross
            steerV_ring(&v->geo, x, y, 10 * dpi, 2 * dpi, (SDL_Color){ 255, 230, 120, 255 });
        } else if (steerV_to_screen(v, tq, &x, &y)) {
            float s = 6 * dpi;
            steerV_line(&v->geo, x - s, y - s, x + s, y + s, 2 * dpi, (SDL_Color){ 255, 230, 120, 255 });
            steerV_line(&v->geo, x - s, y + s, x + s, y - s, 2 * dpi, (SDL_Color){ 255, 230, 120, 255 });
        }
    }
    // targets the brain's nodes name themselves (a point or an agent), each
    // in its node's colour
    for (int i = 0; i < pl.info.nodes; i++) {
        steer_DebugNode node;
        if (steer_debug_node(w, v->selected, i, &node) != STEER_OK) break;
        // a way ahead the node keeps (navigate's corners), in its colour, bold
        for (int k = 0; k + 1 < node.nroute; k++) {
            SDL_Color c = node_colour((uint32_t)i);
            steerV_world_line(v, &v->geo, node.route + 3 * k, node.route + 3 * k + 3, 2 * dpi, c, false);
            keep(&kept, v, node.route + 3 * k + 3);
            float rx, ry;
            if (steerV_to_screen(v, node.route + 3 * k + 3, &rx, &ry)) steerV_disc(&v->geo, rx, ry, 3 * dpi, c);
        }
        double q[3] = { node.target[0], node.target[1], node.target[2] };
        if (node.target_kind == STEER_TARGET_AGENT) {
            if (steer_agent_vec(w, node.target_agent, STEER_PROP_POSITION, q) != STEER_OK) continue;
        } else if (node.target_kind != STEER_TARGET_POINT) {
            continue;
        }
        float qf[3] = { (float)q[0], (float)q[1], (float)q[2] }, x, y;
        SDL_Color c = node_colour((uint32_t)i);
        c.a = 160;
        keep(&kept, v, qf);
        steerV_world_line(v, &v->geo, p, qf, dpi, c, false);
        if (steerV_to_screen(v, qf, &x, &y)) steerV_ring(&v->geo, x, y, 7 * dpi, 2 * dpi, c);
    }
    // the agent ringed, its velocity, each node's force and the final force
    float x, y;
    if (steerV_to_screen(v, p, &x, &y))
        steerV_ring(&v->geo, x, y, fmaxf(steerV_world_radius(v, p, ag.radius[d]) * 2.2f, 9 * dpi), 2 * dpi,
                    (SDL_Color){ 255, 230, 120, 255 });
    force_arrow(v, p, pl.vel, ms, 2 * dpi, (SDL_Color){ 90, 200, 120, 255 });
    if (rec)
        for (int i = pl.info.nodes; i-- > 1;) {
            steer_DebugNode node;
            if (steer_debug_node(w, v->selected, i, &node) == STEER_OK)
                force_arrow(v, p, node.force, mf, 2.5f * dpi, node_colour((uint32_t)i));
        }
    force_arrow(v, p, pl.f, mf, 3.5f * dpi, (SDL_Color){ 255, 255, 255, 255 });

    // the panel
    if (!v->font.atlas) return;
    Row rows[MAX_ROWS];
    pl.rows = rows;
    pl.nrows = brain ? describe(w, v->selected, &pl.info, rows) : 0;
    float pad = pl.pad = 10 * dpi;
    float pw = pl.width = 48.0f * (float)v->font.advance[0] + 2 * pad;
    float px = pl.x = (float)v->cam.width - pw - pad, py = pad;
    float tx = px + pad, ty = py + pad;
    int text_from = v->ui_text.n, ui_from = v->ui.n;
    panel_rows(v, &pl, tx, &ty);
    float ph = ty - py + pad;
    // laid out at the top right; moved to another corner (the top left
    // below the HUD, the bottom right, the bottom left) when it would cover
    // the agent or a target there, to the corner that covers fewest
    float top = steerV_hud_height(v) + pad, bottom = (float)v->cam.height - steerV_timeline_height(v) - ph - pad;
    const float corners[4][2] = { { px, py }, { pad, top }, { px, bottom }, { pad, bottom } };
    int best = 0, best_n = covered(&kept, px, py, pw, ph, 12 * dpi);
    for (int c = 1; c < 4 && best_n > 0; c++) {
        int n = covered(&kept, corners[c][0], corners[c][1], pw, ph, 12 * dpi);
        if (n < best_n) {
            best = c;
            best_n = n;
        }
    }
    float dx = corners[best][0] - px, dy = corners[best][1] - py;
    steerV_batch_move(&v->ui_text, text_from, dx, dy);
    steerV_batch_move(&v->ui, ui_from, dx, dy);
    px += dx;
    py += dy;
    // the panel's background goes under its text: the scene batch is drawn first
    steerV_rect(&v->geo, px, py, pw, ph, (SDL_Color){ 16, 18, 26, 220 });
    steerV_rect(&v->geo, px, py, pw, 2 * dpi, (SDL_Color){ 255, 230, 120, 255 });
}

// The panel's text from (tx, *typ) down: the agent's numbers, then the
// brain a row a node. *typ ends below the last line.
static void panel_rows(steerV_View *v, const Panel *pl, float tx, float *typ)
{
    float dpi = (float)v->dpi, lh = (float)v->font.height, ty = *typ;
    float mf = pl->max_force, ms = pl->max_speed;
    const float *p = pl->p;
    const double *tp = pl->target;
    const char *tag = NULL;
    steer_agent_tag(v->w, pl->agent, &tag);
    SDL_Color white = { 235, 238, 245, 255 }, grey = { 160, 165, 180, 255 };
    panel_line(v, tx, &ty, (SDL_Color){ 255, 230, 120, 255 }, "agent #%u%s%s%s", (unsigned)(uint32_t)pl->agent.id + 1,
               tag ? "  tag " : "", tag ? tag : "", v->follow ? "  (following)" : "");
    float speed = len3(pl->vel), lf = len3(pl->f);
    panel_line(v, tx, &ty, white, "speed %.2f / %.2f   force %.2f / %.2f", (double)speed, (double)ms, (double)lf,
               (double)mf);
    if (steer_world_dim(v->w) == 3)
        panel_line(v, tx, &ty, grey, "at (%.1f, %.1f, %.1f)", (double)p[0], (double)p[1], (double)p[2]);
    else
        panel_line(v, tx, &ty, grey, "at (%.1f, %.1f)  heading %.0f deg", (double)p[0], (double)p[1],
                   atan2((double)pl->heading[1], (double)pl->heading[0]) * 180 / STEERV_PI);
    if (pl->target_kind == STEER_TARGET_AGENT)
        panel_line(v, tx, &ty, grey, "target: agent #%u, %.1f m away", (unsigned)(uint32_t)pl->target_agent.id + 1,
                   sqrt(pow(tp[0] - p[0], 2) + pow(tp[1] - p[1], 2) + pow(tp[2] - p[2], 2)));
    else if (pl->target_kind == STEER_TARGET_POINT)
        panel_line(v, tx, &ty, grey, "target: point (%.1f, %.1f), %.1f m away", tp[0], tp[1],
                   sqrt(pow(tp[0] - p[0], 2) + pow(tp[1] - p[1], 2) + pow(tp[2] - p[2], 2)));
    else panel_line(v, tx, &ty, grey, "target: none");
    panel_line(v, tx, &ty, grey, "neighbours: %d within %.1f m", pl->neighbours, pl->info.sense);
    char notes[4][96];
    for (int k = 0, n = steerV_layer_notes(v, pl->agent, p, notes, 4); k < n; k++)
        panel_line(v, tx, &ty,
                   notes[k][0] == 'f' ? (SDL_Color){ 205, 185, 255, 255 } : (SDL_Color){ 150, 225, 165, 255 }, "%s",
                   notes[k]);
    ty += lh * 0.5f;
    if (!pl->info.nodes || !pl->info.recorded) {
        panel_line(v, tx, &ty, grey,
                   !pl->info.nodes ? "no brain: it drifts" : "the world does not record node outputs");
        *typ = ty;
        return;
    }
    panel_line(v, tx, &ty, white, "brain                  force   (fx, fy)");
    for (int k = 0; k < pl->nrows; k++) {
        const Row *r = &pl->rows[k];
        const steer_DebugNode *node = &r->node;
        const float *nf = node->force;
        float ind = tx + (float)node->depth * 2 * (float)v->font.advance[0];
        SDL_Color c = node_colour((uint32_t)node->index);
        steerV_rect(&v->ui, ind, ty + lh * 0.3f, lh * 0.45f, lh * 0.45f, c);
        char label[64];
        if (node->weighted) snprintf(label, sizeof label, "%s x%.3g", node->name, (double)node->weight);
        else snprintf(label, sizeof label, "%s", node->name);
        float lx = ind + lh * 0.7f;
        steerV_text(&v->font, &v->ui_text, lx, ty, label, len3(nf) > 0 ? white : grey);
        char num[48];
        snprintf(num, sizeof num, "%6.2f (%5.1f,%5.1f)", (double)len3(nf), (double)nf[0], (double)nf[1]);
        float nx = tx + 21 * (float)v->font.advance[0];
        float label_end = lx + (float)steerV_text_width(&v->font, label) + 4 * dpi;
        if (nx < label_end) nx = label_end;
        steerV_text(&v->font, &v->ui_text, nx, ty, num, len3(nf) > 0 ? c : grey);
        ty += lh;
        if (node->note[0]) {
            // the note sits on the row when there is room, else below it
            float w_note = (float)steerV_text_width(&v->font, node->note);
            float after = nx + (float)steerV_text_width(&v->font, num) + 8 * dpi;
            if (after + w_note <= pl->x + pl->width - pl->pad)
                steerV_text(&v->font, &v->ui_text, after, ty - lh, node->note, r->note_colour);
            else {
                steerV_text(&v->font, &v->ui_text, lx + 2 * (float)v->font.advance[0], ty, node->note, r->note_colour);
                ty += lh;
            }
        }
    }
    *typ = ty;
}
