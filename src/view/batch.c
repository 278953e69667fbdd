// SPDX-License-Identifier: MIT
// batch.c — drawing through batches: shapes become triangles appended to a
// vertex array, text becomes quads over a glyph atlas, and each batch goes
// to SDL_RenderGeometry in one call per frame. One call for 100,000
// agents is what keeps the software renderer at a few milliseconds.
#include "viewint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI_F 3.14159265f
#define PIECE 10.0f

void steerV_batch_free(steerV_Batch *b)
{
    free(b->v);
    memset(b, 0, sizeof *b);
}

static SDL_Vertex *room(steerV_Batch *b, int n)
{
    if (b->failed) return NULL;
    if (b->n + n > b->cap) {
        int cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        SDL_Vertex *v = realloc(b->v, (size_t)cap * sizeof *v);
        if (!v) {
            b->failed = true;
            return NULL;
        }
        b->v = v;
        b->cap = cap;
    }
    SDL_Vertex *out = b->v + b->n;
    b->n += n;
    return out;
}

void steerV_batch_move(steerV_Batch *b, int from, float dx, float dy)
{
    for (int i = from; i < b->n; i++) {
        b->v[i].position.x += dx;
        b->v[i].position.y += dy;
    }
}

static void vert(SDL_Vertex *v, float x, float y, SDL_Color c, float u, float t)
{
    v->position.x = x;
    v->position.y = y;
    v->color = c;
    v->tex_coord.x = u;
    v->tex_coord.y = t;
}

void steerV_tri(steerV_Batch *b, float x0, float y0, float x1, float y1, float x2, float y2, SDL_Color c)
{
    SDL_Vertex *v = room(b, 3);
    if (!v) return;
    vert(v, x0, y0, c, 0, 0);
    vert(v + 1, x1, y1, c, 0, 0);
    vert(v + 2, x2, y2, c, 0, 0);
}

void steerV_quad(steerV_Batch *b, float x0, float y0, float x1, float y1, float x2, float y2, float x3, float y3,
                 SDL_Color c)
{
    steerV_tri(b, x0, y0, x1, y1, x2, y2, c);
    steerV_tri(b, x0, y0, x2, y2, x3, y3, c);
}

void steerV_rect(steerV_Batch *b, float x, float y, float w, float h, SDL_Color c)
{
    steerV_quad(b, x, y, x + w, y, x + w, y + h, x, y + h, c);
}

void steerV_line(steerV_Batch *b, float x0, float y0, float x1, float y1, float width, SDL_Color c)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (!(len > 1e-4f)) return;
    if (width < 1.3f) width = 1.3f; // thinner quads lose pixels to the rasterizer
    float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
    // the software renderer scans each triangle's bounding box: a long
    // diagonal line is cut into short pieces, or it costs the whole screen
    // (a piece costs about its length squared: pieces of PIECE pixels)
    int pieces = fabsf(dx) > 6 && fabsf(dy) > 6 ? (int)(len / PIECE) + 1 : 1;
    if (pieces > 512) pieces = 512;
    for (int k = 0; k < pieces; k++) {
        float t0 = (float)k / (float)pieces, t1 = (float)(k + 1) / (float)pieces;
        float ax = x0 + dx * t0, ay = y0 + dy * t0, bx = x0 + dx * t1, by = y0 + dy * t1;
        steerV_quad(b, ax + nx, ay + ny, bx + nx, by + ny, bx - nx, by - ny, ax - nx, ay - ny, c);
    }
}

void steerV_arrow(steerV_Batch *b, float x0, float y0, float x1, float y1, float width, SDL_Color c)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (!(len > 1e-4f)) return;
    float ux = dx / len, uy = dy / len;
    float head = fminf(len * 0.45f, 4.0f + 3.0f * width);
    float bx = x1 - ux * head, by = y1 - uy * head;
    steerV_line(b, x0, y0, bx, by, width, c);
    float hw = head * 0.55f;
    steerV_tri(b, x1, y1, bx - uy * hw, by + ux * hw, bx + uy * hw, by - ux * hw, c);
}

static int segments(float r)
{
    int n = (int)(r * 0.6f) + 8;
    return n > 96 ? 96 : n;
}

void steerV_ring(steerV_Batch *b, float x, float y, float r, float width, SDL_Color c)
{
    if (!(r > 0.3f) || r > 1e5f) return;
    int n = segments(r);
    float ri = r - width * 0.5f, ro = r + width * 0.5f;
    if (ri < 0) ri = 0;
    for (int k = 0; k < n; k++) {
        float a0 = 2 * PI_F * (float)k / (float)n, a1 = 2 * PI_F * (float)(k + 1) / (float)n;
        float c0 = cosf(a0), s0 = sinf(a0), c1 = cosf(a1), s1 = sinf(a1);
        steerV_quad(b, x + c0 * ri, y + s0 * ri, x + c0 * ro, y + s0 * ro, x + c1 * ro, y + s1 * ro, x + c1 * ri,
                    y + s1 * ri, c);
    }
}

void steerV_disc(steerV_Batch *b, float x, float y, float r, SDL_Color c)
{
    if (!(r > 0.3f) || r > 1e5f) return;
    if (r < 2.5f) { // a dot: a diamond is round enough
        steerV_quad(b, x - r, y, x, y - r, x + r, y, x, y + r, c);
        return;
    }
    int n = segments(r);
    for (int k = 0; k < n; k++) {
        float a0 = 2 * PI_F * (float)k / (float)n, a1 = 2 * PI_F * (float)(k + 1) / (float)n;
        steerV_tri(b, x, y, x + cosf(a0) * r, y + sinf(a0) * r, x + cosf(a1) * r, y + sinf(a1) * r, c);
    }
}

void steerV_flush(SDL_Renderer *ren, steerV_Batch *b, SDL_Texture *tex)
{
    if (b->n > 0 && !b->failed) SDL_RenderGeometry(ren, tex, b->v, b->n, NULL, 0);
    b->n = 0;
    b->failed = false;
}

// ---- text --------------------------------------------------------------

static const char *const font_paths[] = { "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
                                          "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                          "/usr/share/fonts/TTF/DejaVuSansMono.ttf",
                                          "/usr/local/share/fonts/DejaVuSansMono.ttf", NULL };

// Render the ASCII glyphs of the font at `pt` points into an atlas texture.
static int make_atlas(steerV_View *v, steerV_Font *f, int pt)
{
    TTF_Font *ttf = TTF_OpenFont(v->font_path, pt);
    if (!ttf) {
        fprintf(stderr, "steer: cannot open the font %s: %s; drawing without text\n", v->font_path, TTF_GetError());
        SDL_strlcpy(v->font_path, "-", sizeof v->font_path);
        return 0;
    }
    f->pt = pt;
    f->height = TTF_FontLineSkip(ttf);
    f->ascent = TTF_FontAscent(ttf);
    int cell_w = 0;
    SDL_Surface *g[95];
    for (int i = 0; i < 95; i++) {
        int minx, maxx, miny, maxy, adv;
        TTF_GlyphMetrics(ttf, (Uint16)(32 + i), &minx, &maxx, &miny, &maxy, &adv);
        f->advance[i] = adv;
        g[i] = TTF_RenderGlyph_Blended(ttf, (Uint16)(32 + i), (SDL_Color){ 255, 255, 255, 255 });
        if (g[i] && g[i]->w > cell_w) cell_w = g[i]->w;
    }
    int cols = 16, cell_h = TTF_FontHeight(ttf);
    TTF_CloseFont(ttf);
    SDL_Surface *atlas =
        SDL_CreateRGBSurfaceWithFormat(0, cols * (cell_w + 1), 6 * (cell_h + 1), 32, SDL_PIXELFORMAT_RGBA32);
    if (atlas) SDL_FillRect(atlas, NULL, SDL_MapRGBA(atlas->format, 255, 255, 255, 0));
    for (int i = 0; i < 95; i++) {
        SDL_Rect r = { (i % cols) * (cell_w + 1), (i / cols) * (cell_h + 1), 0, 0 };
        if (g[i] && atlas) {
            r.w = g[i]->w;
            r.h = g[i]->h;
            SDL_SetSurfaceBlendMode(g[i], SDL_BLENDMODE_NONE);
            SDL_BlitSurface(g[i], NULL, atlas, &r);
            r.w = g[i]->w;
            r.h = g[i]->h;
        }
        f->glyph[i] = r;
        if (g[i]) SDL_FreeSurface(g[i]);
    }
    if (atlas) {
        f->atlas = SDL_CreateTextureFromSurface(v->ren, atlas);
        if (f->atlas) SDL_SetTextureBlendMode(f->atlas, SDL_BLENDMODE_BLEND);
        SDL_FreeSurface(atlas);
    }
    return f->atlas != NULL;
}

// Find the font (STEER_FONT first) and make the two atlases, the UI's and
// the smaller one of labels in the world, at sizes that suit the DPI.
int steerV_font_open(steerV_View *v)
{
    int pt = (int)lround(12.0 * v->dpi);
    if (v->font.atlas && v->font.pt == pt) return 1;
    steerV_font_free(v);
    if (!v->font_path[0]) {
        const char *env = getenv("STEER_FONT");
        if (env && *env) SDL_strlcpy(v->font_path, env, sizeof v->font_path);
        for (int i = 0; !v->font_path[0] && font_paths[i]; i++) {
            SDL_RWops *f = SDL_RWFromFile(font_paths[i], "rb");
            if (f) {
                SDL_RWclose(f);
                SDL_strlcpy(v->font_path, font_paths[i], sizeof v->font_path);
            }
        }
        if (!v->font_path[0]) {
            fprintf(stderr, "steer: no font found for the viewer's text (install fonts-dejavu-core, or set "
                            "STEER_FONT to a .ttf file); drawing without text\n");
            SDL_strlcpy(v->font_path, "-", sizeof v->font_path);
        }
    }
    if (strcmp(v->font_path, "-") == 0) return 0;
    return make_atlas(v, &v->font, pt) && make_atlas(v, &v->label, (int)lround(10.0 * v->dpi));
}

void steerV_font_free(steerV_View *v)
{
    if (v->font.atlas) SDL_DestroyTexture(v->font.atlas);
    if (v->label.atlas) SDL_DestroyTexture(v->label.atlas);
    memset(&v->font, 0, sizeof v->font);
    memset(&v->label, 0, sizeof v->label);
}

static int glyph_index(unsigned char ch) { return ch >= 32 && ch < 127 ? ch - 32 : '?' - 32; }

int steerV_text_width(const steerV_Font *f, const char *s)
{
    if (!f->atlas) return 0;
    int w = 0;
    for (; *s; s++) {
        if ((unsigned char)*s >= 0x80 && ((unsigned char)*s & 0xC0) == 0x80) continue; // UTF-8 continuation
        w += f->advance[glyph_index((unsigned char)*s)];
    }
    return w;
}

int steerV_text(const steerV_Font *f, steerV_Batch *b, float x, float y, const char *s, SDL_Color c)
{
    if (!f->atlas) return 0;
    int tw, th;
    SDL_QueryTexture(f->atlas, NULL, NULL, &tw, &th);
    float x0 = x;
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x80 && (ch & 0xC0) == 0x80) continue;
        int i = glyph_index(ch);
        const SDL_Rect *r = &f->glyph[i];
        if (r->w > 0 && ch != ' ') {
            SDL_Vertex *q = room(b, 6);
            if (!q) return 0;
            float u0 = (float)r->x / (float)tw, u1 = (float)(r->x + r->w) / (float)tw;
            float v0 = (float)r->y / (float)th, v1 = (float)(r->y + r->h) / (float)th;
            float X = floorf(x + 0.5f), Y = floorf(y + 0.5f), W = (float)r->w, H = (float)r->h;
            vert(q, X, Y, c, u0, v0);
            vert(q + 1, X + W, Y, c, u1, v0);
            vert(q + 2, X + W, Y + H, c, u1, v1);
            vert(q + 3, X, Y, c, u0, v0);
            vert(q + 4, X + W, Y + H, c, u1, v1);
            vert(q + 5, X, Y + H, c, u0, v1);
        }
        x += (float)f->advance[i];
    }
    return (int)(x - x0);
}
