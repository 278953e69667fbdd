// SPDX-License-Identifier: MIT
// inspect.c — why the selected agent moves as it does. On the agent: an
// arrow per brain node in the node's colour (the force it gave last tick),
// the final force, the velocity, its target and its neighbours ringed. In a
// panel: the brain as a tree with each node's force, which child won each
// priority, how much each truncation cut, and the agent's numbers.
//
// Everything comes from the world's per-node records (the same numbers
// a:contributions() returns): a node a combiner skipped records zero.
#include "viewint.h"
#include "../core/brain.h"

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
    uint32_t node;
    int depth;
    char note[64];
    SDL_Color note_colour;
} Row;

// The tree in display order (the brain's depth-first order) with what each
// combiner did, as its kind explains it (steerB_Kind.explain): which child
// won a priority or a dither, how much truncation cut of a sum.
static int describe(const steer_World *w, uint32_t d, const steerB_Brain *b, const float *rec, Row *rows)
{
    int depth[256];
    uint32_t n = b->nnodes < 256 ? b->nnodes : 256;
    int nrows = 0;
    depth[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        const steerB_Node *node = &b->nodes[i];
        for (uint16_t k = 0; k < node->nchild; k++) {
            uint16_t c = b->kids[node->first + k];
            if (c < n) depth[c] = depth[i] + 1;
        }
    }
    static const SDL_Color won = { 120, 255, 140, 255 }, dim = { 130, 135, 150, 255 }, cut = { 255, 170, 90, 255 };
    for (uint32_t i = 0; i < n && nrows < MAX_ROWS; i++) {
        Row *r = &rows[nrows++];
        r->node = i;
        r->depth = depth[i];
        r->note[0] = '\0';
        r->note_colour = dim;
        const steerB_Node *node = &b->nodes[i];
        const float *f = rec ? rec + 3 * i : NULL;
        if (!f) continue;
        if (node->kind->explain == STEERB_EXPLAIN_WINNER) {
            // the winner passes its force on unchanged: the child equal to the output
            for (uint16_t k = 0; k < node->nchild; k++) {
                const float *cf = rec + 3 * b->kids[node->first + k];
                if (len3(f) > 0 && cf[0] == f[0] && cf[1] == f[1] && cf[2] == f[2]) {
                    const steerB_Node *c = &b->nodes[b->kids[node->first + k]];
                    snprintf(r->note, sizeof r->note, "%.40s won (child %d)", c->name ? c->name : c->kind->name, k + 1);
                    r->note_colour = won;
                    break;
                }
            }
            if (!r->note[0]) snprintf(r->note, sizeof r->note, "no child over epsilon");
        } else if (node->kind->explain == STEERB_EXPLAIN_SUM) {
            float raw[3] = { 0, 0, 0 };
            for (uint16_t k = 0; k < node->nchild; k++) {
                uint16_t c = b->kids[node->first + k];
                for (int j = 0; j < 3; j++) raw[j] += b->nodes[c].weight * rec[3 * c + j];
            }
            float lr = len3(raw), lo = len3(f);
            if (lr > lo + 1e-4f * (1 + lr)) {
                snprintf(r->note, sizeof r->note, "cut %.2f of %.2f", (double)(lr - lo), (double)lr);
                r->note_colour = cut;
            }
        }
        if (i == 0) {
            float mf = w->max_force[d], lf = len3(f);
            if (lf > mf * 1.0001f) {
                size_t used = strlen(r->note);
                snprintf(r->note + used, sizeof r->note - used, "%s> max_force %.2f", used ? ", " : "", (double)mf);
                r->note_colour = cut;
            }
        }
        // the parent's view of this child: a priority's loser or a skipped child
        if (i > 0 && len3(f) == 0 && !r->note[0]) snprintf(r->note, sizeof r->note, "quiet / not run");
    }
    return nrows;
}

int steerV_explain(steer_World *w, steer_Agent a, char (*notes)[64], int cap)
{
    int64_t d = steerW_dense(w, a);
    if (d < 0 || !w->brain[d] || !w->record || !w->rec_stride) return 0;
    const steerB_Brain *b = w->brains[w->brain[d]];
    Row rows[MAX_ROWS];
    int n = describe(w, (uint32_t)d, b, w->rec + (size_t)d * w->rec_stride, rows);
    if (n > cap) n = cap;
    for (int i = 0; i < n; i++) snprintf(notes[i], sizeof notes[i], "%s", rows[i].note);
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

static void panel_rows(steerV_View *v, steer_World *w, uint32_t d, const steerB_Brain *b, const float *rec,
                       const Row *rows, int nrows, float tx, float *typ, float px, float pw, float pad, int tkind,
                       steer_Agent ta, const double tp[3], const float p[3], const float vel[3], const float f[3],
                       int nn, double sense);

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
    int64_t dd = steerW_dense(w, v->selected);
    if (dd < 0) {
        v->selected = STEER_NO_AGENT;
        return;
    }
    uint32_t d = (uint32_t)dd;
    float dpi = (float)v->dpi;
    float p[3], vel[3], f[3];
    Keep kept = { .n = 0 };
    steerW_load(w->p, d, p);
    keep(&kept, v, p);
    steerW_load(w->v, d, vel);
    steerW_load(w->f, d, f);
    float mf = w->max_force[d], ms = w->max_speed[d];
    const steerB_Brain *b = w->brain[d] ? w->brains[w->brain[d]] : NULL;
    const float *rec = b && w->record && w->rec_stride ? w->rec + (size_t)d * w->rec_stride : NULL;

    // neighbours within the brain's sensing radius, ringed
    int nn = 0;
    double sense = b ? b->sense : 0;
    if (sense > 0) {
        steer_Agent nb[256];
        double pd[3] = { p[0], p[1], p[2] };
        nn = steer_world_neighbors(w, pd, sense, NULL, false, nb, 256);
        for (int k = 0; k < nn && k < 256; k++) {
            int64_t o = steerW_dense(w, nb[k]);
            if (o < 0 || o == dd) continue;
            float q[3], x, y;
            steerW_load(w->p, (uint32_t)o, q);
            if (steerV_to_screen(v, q, &x, &y))
                steerV_ring(&v->geo, x, y, fmaxf(steerV_world_radius(v, q, w->radius[o]) * 1.6f, 5 * dpi), 1.5f * dpi,
                            (SDL_Color){ 120, 200, 255, 200 });
        }
        if (nn > 0) nn--; // itself
        float x, y;
        if (steerV_to_screen(v, p, &x, &y))
            steerV_ring(&v->geo, x, y, steerV_world_radius(v, p, (float)sense), dpi, (SDL_Color){ 120, 200, 255, 90 });
    }
    // the target slot
    double tp[3];
    steer_Agent ta = STEER_NO_AGENT;
    int tkind = 0;
    steer_agent_target(w, v->selected, tp, &ta, &tkind);
    if (tkind == STEER_TARGET_AGENT) steer_agent_vec(w, ta, STEER_PROP_POSITION, tp);
    float tq[3] = { (float)tp[0], (float)tp[1], (float)tp[2] };
    if (tkind) {
        float x, y;
        keep(&kept, v, tq);
        steerV_world_line(v, &v->geo, p, tq, dpi, (SDL_Color){ 255, 230, 120, 150 }, false);
        if (tkind == STEER_TARGET_AGENT && steerV_to_screen(v, tq, &x, &y)) {
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
    for (uint32_t i = 0; b && i < b->nnodes; i++) {
        const steerB_Node *node = &b->nodes[i];
        for (const steerB_Field *fl = node->kind->fields; fl && fl->name; fl++) {
            if (fl->type != STEERB_TARGET) continue;
            const steerB_Target *t = (const steerB_Target *)(const void *)(node->params + fl->offset);
            double q[3] = { t->p[0], t->p[1], t->p[2] };
            if (t->kind == STEER_TARGET_AGENT) {
                if (steer_agent_vec(w, t->agent, STEER_PROP_POSITION, q) != STEER_OK) continue;
            } else if (t->kind != STEER_TARGET_POINT) {
                continue;
            }
            float qf[3] = { (float)q[0], (float)q[1], (float)q[2] }, x, y;
            SDL_Color c = node_colour(i);
            c.a = 160;
            keep(&kept, v, qf);
            steerV_world_line(v, &v->geo, p, qf, dpi, c, false);
            if (steerV_to_screen(v, qf, &x, &y)) steerV_ring(&v->geo, x, y, 7 * dpi, 2 * dpi, c);
        }
    }
    // the agent ringed, its velocity, each node's force and the final force
    float x, y;
    if (steerV_to_screen(v, p, &x, &y))
        steerV_ring(&v->geo, x, y, fmaxf(steerV_world_radius(v, p, w->radius[d]) * 2.2f, 9 * dpi), 2 * dpi,
                    (SDL_Color){ 255, 230, 120, 255 });
    force_arrow(v, p, vel, ms, 2 * dpi, (SDL_Color){ 90, 200, 120, 255 });
    if (rec)
        for (uint32_t i = b->nnodes; i-- > 1;) force_arrow(v, p, rec + 3 * i, mf, 2.5f * dpi, node_colour(i));
    force_arrow(v, p, f, mf, 3.5f * dpi, (SDL_Color){ 255, 255, 255, 255 });

    // the panel
    if (!v->font.atlas) return;
    Row rows[MAX_ROWS];
    int nrows = b ? describe(w, d, b, rec, rows) : 0;
    float pad = 10 * dpi;
    float pw = 48.0f * (float)v->font.advance[0] + 2 * pad;
    float px = (float)v->cam.width - pw - pad, py = pad;
    float tx = px + pad, ty = py + pad;
    int text_from = v->ui_text.n, ui_from = v->ui.n;
    panel_rows(v, w, d, b, rec, rows, nrows, tx, &ty, px, pw, pad, tkind, ta, tp, p, vel, f, nn, sense);
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

static void panel_rows(steerV_View *v, steer_World *w, uint32_t d, const steerB_Brain *b, const float *rec,
                       const Row *rows, int nrows, float tx, float *typ, float px, float pw, float pad, int tkind,
                       steer_Agent ta, const double tp[3], const float p[3], const float vel[3], const float f[3],
                       int nn, double sense)
{
    float dpi = (float)v->dpi, lh = (float)v->font.height, ty = *typ;
    float mf = w->max_force[d], ms = w->max_speed[d];
    const char *tag = NULL;
    steer_agent_tag(w, v->selected, &tag);
    SDL_Color white = { 235, 238, 245, 255 }, grey = { 160, 165, 180, 255 };
    panel_line(v, tx, &ty, (SDL_Color){ 255, 230, 120, 255 }, "agent #%u%s%s%s", (unsigned)(uint32_t)v->selected.id + 1,
               tag ? "  tag " : "", tag ? tag : "", v->follow ? "  (following)" : "");
    float speed = len3(vel), lf = len3(f);
    panel_line(v, tx, &ty, white, "speed %.2f / %.2f   force %.2f / %.2f", (double)speed, (double)ms, (double)lf,
               (double)mf);
    if (w->dim == 3) panel_line(v, tx, &ty, grey, "at (%.1f, %.1f, %.1f)", (double)p[0], (double)p[1], (double)p[2]);
    else
        panel_line(v, tx, &ty, grey, "at (%.1f, %.1f)  heading %.0f deg", (double)p[0], (double)p[1],
                   atan2((double)w->h[1][d], (double)w->h[0][d]) * 180 / STEERV_PI);
    if (tkind == STEER_TARGET_AGENT)
        panel_line(v, tx, &ty, grey, "target: agent #%u, %.1f m away", (unsigned)(uint32_t)ta.id + 1,
                   sqrt(pow(tp[0] - p[0], 2) + pow(tp[1] - p[1], 2) + pow(tp[2] - p[2], 2)));
    else if (tkind == STEER_TARGET_POINT)
        panel_line(v, tx, &ty, grey, "target: point (%.1f, %.1f), %.1f m away", tp[0], tp[1],
                   sqrt(pow(tp[0] - p[0], 2) + pow(tp[1] - p[1], 2) + pow(tp[2] - p[2], 2)));
    else panel_line(v, tx, &ty, grey, "target: none");
    panel_line(v, tx, &ty, grey, "neighbours: %d within %.1f m", nn, sense);
    ty += lh * 0.5f;
    if (!b || !rec) {
        panel_line(v, tx, &ty, grey, !b ? "no brain: it drifts" : "the world does not record node outputs");
        *typ = ty;
        return;
    }
    panel_line(v, tx, &ty, white, "brain                  force   (fx, fy)");
    for (int k = 0; k < nrows; k++) {
        const Row *r = &rows[k];
        const steerB_Node *node = &b->nodes[r->node];
        const float *nf = rec + 3 * r->node;
        float ind = tx + (float)r->depth * 2 * (float)v->font.advance[0];
        SDL_Color c = node_colour(r->node);
        steerV_rect(&v->ui, ind, ty + lh * 0.3f, lh * 0.45f, lh * 0.45f, c);
        char label[64];
        const char *name = node->name ? node->name : node->kind->name;
        const steerB_Node *parent = NULL;
        for (uint32_t i = 0; i < r->node; i++) {
            const steerB_Node *q = &b->nodes[i];
            for (uint16_t j = 0; j < q->nchild; j++)
                if (b->kids[q->first + j] == r->node) parent = q;
        }
        if (parent && parent->kind->children == STEERB_WEIGHTED)
            snprintf(label, sizeof label, "%s x%.3g", name, (double)node->weight);
        else snprintf(label, sizeof label, "%s", name);
        float lx = ind + lh * 0.7f;
        steerV_text(&v->font, &v->ui_text, lx, ty, label, len3(nf) > 0 ? white : grey);
        char num[48];
        snprintf(num, sizeof num, "%6.2f (%5.1f,%5.1f)", (double)len3(nf), (double)nf[0], (double)nf[1]);
        float nx = tx + 21 * (float)v->font.advance[0];
        float label_end = lx + (float)steerV_text_width(&v->font, label) + 4 * dpi;
        if (nx < label_end) nx = label_end;
        steerV_text(&v->font, &v->ui_text, nx, ty, num, len3(nf) > 0 ? c : grey);
        ty += lh;
        if (r->note[0]) {
            // the note sits on the row when there is room, else below it
            float w_note = (float)steerV_text_width(&v->font, r->note);
            float after = nx + (float)steerV_text_width(&v->font, num) + 8 * dpi;
            if (after + w_note <= px + pw - pad)
                steerV_text(&v->font, &v->ui_text, after, ty - lh, r->note, r->note_colour);
            else {
                steerV_text(&v->font, &v->ui_text, lx + 2 * (float)v->font.advance[0], ty, r->note, r->note_colour);
                ty += lh;
            }
        }
    }
    *typ = ty;
}
