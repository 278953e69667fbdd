// SPDX-License-Identifier: MIT
// ring.c — rewind: a ring of snapshots the host takes (steerV_Host.save,
// .restore), one at every half second of simulated time over the last
// minute, bounded in bytes; stepping through them, jumping back, resuming
// from a past point, saving one to a file, and the timeline bar under the
// world that shows the ring's span and where the world is in it.
//
// Invariants: a snapshot is taken only when a tick crosses a mark (never
// per frame), into the buffer of the entry it replaces, so a full ring
// allocates nothing. The bytes the buffers hold stay under the cap: the
// oldest entries go first. Browsing (cursor >= 0) shows an entry's state,
// paused; the first tick from there (Space, or `.`) drops the entries
// after it, so the ring is always one history. Stepping forward past the newest entry returns to
// the state browsing began from (kept aside as `live`).
#include "viewint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_EVERY 0.5
#define DEFAULT_SECONDS 60.0
#define DEFAULT_BYTES ((size_t)256 << 20)
#define MIB (1024.0 * 1024.0)

static bool can_rewind(const steerV_View *v) { return v->host.save && v->host.restore; }

static double now_time(const steerV_View *v) { return (double)steer_world_tick(v->w) * steer_world_dt(v->w); }

static uint64_t mark_of(const steerV_Ring *r, double t) { return (uint64_t)floor(t / r->every + 1e-6); }

static steerV_Snap *entry(steerV_Ring *r, int i) { return &r->snaps[(r->head + i) % r->max]; }

void steerV_ring_init(steerV_View *v, const steerV_Desc *desc)
{
    steerV_Ring *r = &v->ring;
    r->every = desc->ring_every > 0 ? desc->ring_every : DEFAULT_EVERY;
    double seconds = desc->ring_seconds > 0 ? desc->ring_seconds : DEFAULT_SECONDS;
    r->cap = desc->ring_bytes > 0 ? desc->ring_bytes : DEFAULT_BYTES;
    r->cursor = -1;
    if (!can_rewind(v)) return;
    r->max = (int)ceil(seconds / r->every) + 1;
    r->snaps = calloc((size_t)r->max, sizeof *r->snaps);
    if (!r->snaps) r->max = 0;
}

void steerV_ring_free(steerV_View *v)
{
    steerV_Ring *r = &v->ring;
    for (int i = 0; i < r->max; i++) free(r->snaps[i].bytes);
    free(r->snaps);
    free(r->live.bytes);
    memset(r, 0, sizeof *r);
}

static void drop_buffer(steerV_Ring *r, steerV_Snap *s)
{
    r->used -= s->cap;
    free(s->bytes);
    s->bytes = NULL;
    s->len = s->cap = 0;
}

// The host's writer: appends to the snapshot, growing its buffer (counted).
static int append(void *ud, const void *data, size_t len)
{
    steerV_Snap *s = ((void **)ud)[0];
    steerV_Ring *r = ((void **)ud)[1];
    if (s->len + len > s->cap) {
        // a first buffer the size of the last snapshot and a little: one allocation, no copies
        size_t nc = s->cap ? s->cap : r->last_len + r->last_len / 8 + 4096;
        while (nc < s->len + len) nc *= 2;
        unsigned char *nb = realloc(s->bytes, nc);
        if (!nb) return 1;
        r->used += nc - s->cap;
        s->bytes = nb;
        s->cap = nc;
    }
    memcpy(s->bytes + s->len, data, len);
    s->len += len;
    return 0;
}

static bool take(steerV_View *v, steerV_Snap *s)
{
    void *ud[2] = { s, &v->ring };
    s->len = 0;
    s->tick = steer_world_tick(v->w);
    s->time = now_time(v);
    return v->host.save(v->host.ud, append, ud) == 0;
}

// Add the world's state as the newest entry, reusing the oldest's buffer
// when the ring is full; then keep the bytes under the cap.
static void push(steerV_View *v)
{
    steerV_Ring *r = &v->ring;
    if (r->count == r->max) {
        r->head = (r->head + 1) % r->max;
        r->count--;
    }
    steerV_Snap *s = entry(r, r->count);
    bool ok = take(v, s);
    r->last_len = s->len;
    if (!ok) {
        // the host cannot save this world (it said why): no more tries, no cost
        r->off = true;
        snprintf(r->msg, sizeof r->msg, "rewind off: the snapshot at %.1f s failed", s->time);
        return;
    }
    r->count++;
    r->last_mark = mark_of(r, s->time);
    while (r->used > r->cap && r->count > 1) {
        drop_buffer(r, entry(r, 0));
        r->head = (r->head + 1) % r->max;
        r->count--;
    }
}

void steerV_ring_start(steerV_View *v)
{
    if (v->ring.max) push(v);
}

void steerV_ring_ticked(steerV_View *v)
{
    steerV_Ring *r = &v->ring;
    if (!r->max || r->off) return;
    if (r->cursor >= 0) {
        // resuming from a past point: its future is gone
        for (int i = r->cursor + 1; i < r->count; i++) drop_buffer(r, entry(r, i));
        r->count = r->cursor + 1;
        r->last_mark = mark_of(r, entry(r, r->cursor)->time);
        r->cursor = -1;
        r->has_live = false;
    }
    if (r->count == 0 || mark_of(r, now_time(v)) != r->last_mark) push(v);
}

static bool restore(steerV_View *v, const steerV_Snap *s)
{
    char err[256];
    if (v->host.restore(v->host.ud, s->bytes, s->len, err, sizeof err) != 0) {
        snprintf(v->ring.msg, sizeof v->ring.msg, "rewind failed: %s", err);
        fprintf(stderr, "steer: %s\n", v->ring.msg);
        return false;
    }
    v->ring.msg[0] = '\0';
    v->trails.filled = 0; // the agents jump: their trails start again
    v->acc = 0;
    return true;
}

// Show entry i, keeping the state browsing began from when it begins, and
// pause there: the entries after it stay until the clock runs on.
static int show_entry(steerV_View *v, int i)
{
    steerV_Ring *r = &v->ring;
    v->paused = true;
    if (r->cursor < 0 && !r->has_live && steer_world_tick(v->w) != entry(r, r->count - 1)->tick) {
        if (!take(v, &r->live)) {
            snprintf(r->msg, sizeof r->msg, "rewind: the snapshot of now failed");
            return -1;
        }
        r->has_live = true;
    }
    if (!restore(v, entry(r, i))) return -1;
    r->cursor = i;
    return 0;
}

int steerV_ring_step(steerV_View *v, int dir)
{
    steerV_Ring *r = &v->ring;
    if (!r->count) return -1;
    v->paused = true;
    if (dir < 0) {
        int i = r->cursor >= 0 ? r->cursor - 1 : r->count - 1;
        // live, exactly at the newest entry: the one before it
        if (r->cursor < 0 && steer_world_tick(v->w) == entry(r, i)->tick) i--;
        return i >= 0 ? show_entry(v, i) : -1;
    }
    if (r->cursor < 0) return -1;
    if (r->cursor + 1 < r->count) return show_entry(v, r->cursor + 1);
    if (!r->has_live) return -1;
    // past the newest entry: back to where browsing began
    if (!restore(v, &r->live)) return -1;
    r->cursor = -1;
    r->has_live = false;
    return 0;
}

int steerV_rewind_to(steerV_View *v, double t)
{
    steerV_Ring *r = &v->ring;
    double slack = 0.5 * steer_world_dt(v->w); // times are ticks times dt, rounded
    int i = r->count - 1;
    while (i > 0 && entry(r, i)->time > t + slack) i--;
    if (i < 0 || entry(r, i)->time > t + slack) return -1;
    return show_entry(v, i);
}

int steerV_rewind(steerV_View *v, double seconds) { return steerV_rewind_to(v, now_time(v) - seconds); }

void steerV_ring_info(const steerV_View *v, steerV_RingInfo *out)
{
    const steerV_Ring *r = &v->ring;
    steerV_Ring *m = (steerV_Ring *)r;
    memset(out, 0, sizeof *out);
    out->count = r->count;
    out->cursor = r->cursor;
    out->bytes = r->used + r->live.cap;
    out->cap = r->cap;
    if (r->count) {
        out->oldest = entry(m, 0)->time;
        out->newest = entry(m, r->count - 1)->time;
    }
}

void steerV_ring_save_file(steerV_View *v)
{
    if (!can_rewind(v)) return;
    char path[300];
    snprintf(path, sizeof path, "steer-%s-%llu.snapshot", v->title, (unsigned long long)steer_world_tick(v->w));
    for (char *s = path; *s; s++)
        if (*s == '/' || *s == ' ') *s = '_';
    steerV_Snap s = { 0 };
    steerV_Ring scratch = { 0 };
    void *ud[2] = { &s, &scratch };
    FILE *f = NULL;
    bool ok =
        v->host.save(v->host.ud, append, ud) == 0 && (f = fopen(path, "wb")) && fwrite(s.bytes, 1, s.len, f) == s.len;
    if (f && fclose(f) != 0) ok = false;
    free(s.bytes);
    snprintf(v->ring.msg, sizeof v->ring.msg, ok ? "saved %s" : "could not save %s", path);
    fprintf(stderr, "steer: %s\n", v->ring.msg);
}

// ---- the timeline ---------------------------------------------------------------

float steerV_timeline_height(const steerV_View *v)
{
    return v->ring.max && v->font.atlas ? 3.0f * (float)v->font.height + 20.0f * (float)v->dpi : 0;
}

void steerV_timeline(steerV_View *v)
{
    steerV_Ring *r = &v->ring;
    float h = steerV_timeline_height(v);
    if (h <= 0) return;
    float dpi = (float)v->dpi, lh = (float)v->font.height, pad = 8 * dpi;
    float W = (float)v->cam.width, y0 = (float)v->cam.height - h;
    steerV_rect(&v->ui, 0, y0, W, h, (SDL_Color){ 16, 18, 26, 220 });
    double now = now_time(v), t0 = r->count ? entry(r, 0)->time : now, t1 = now;
    if (r->count && entry(r, r->count - 1)->time > t1) t1 = entry(r, r->count - 1)->time;
    if (r->has_live && r->live.time > t1) t1 = r->live.time;
    if (t1 - t0 < 1) t1 = t0 + 1;
    float x0 = 2 * pad, x1 = W - 2 * pad, by = y0 + pad + 0.6f * lh;
    float k = (float)((x1 - x0) / (t1 - t0));
#define X(t) (x0 + (float)((t)-t0) * k)
    steerV_rect(&v->ui, x0, by - 2 * dpi, x1 - x0, 4 * dpi, (SDL_Color){ 60, 64, 80, 255 });
    if (r->count) // the span the ring covers
        steerV_rect(&v->ui, x0, by - 2 * dpi, X(entry(r, r->count - 1)->time) - x0, 4 * dpi,
                    (SDL_Color){ 90, 140, 200, 255 });
    for (int i = 0; i < r->count; i++)
        steerV_rect(&v->ui, X(entry(r, i)->time) - 0.5f * dpi, by - 5 * dpi, dpi, 10 * dpi,
                    (SDL_Color){ 150, 190, 235, 200 });
    // whole seconds, labelled every 5 (every 10 over a long span)
    int step = t1 - t0 > 40 ? 10 : 5;
    for (long s = (long)ceil(t0); s <= (long)floor(t1); s++) {
        float x = X((double)s);
        bool label = s % step == 0;
        steerV_rect(&v->ui, x - 0.5f * dpi, by + 4 * dpi, dpi, (label ? 7 : 3) * dpi,
                    (SDL_Color){ 120, 125, 140, 255 });
        if (!label) continue;
        char l[32];
        snprintf(l, sizeof l, "%lds", s);
        steerV_text(&v->font, &v->ui_text, x - 0.5f * (float)steerV_text_width(&v->font, l), by + 11 * dpi, l,
                    (SDL_Color){ 140, 145, 160, 255 });
    }
    SDL_Color here = r->cursor >= 0 ? (SDL_Color){ 255, 160, 60, 255 } : (SDL_Color){ 255, 225, 90, 255 };
    float cx = X(now);
    steerV_tri(&v->ui, cx - 6 * dpi, by - 10 * dpi, cx + 6 * dpi, by - 10 * dpi, cx, by, here);
    steerV_rect(&v->ui, cx - dpi, by - 6 * dpi, 2 * dpi, 12 * dpi, here);
#undef X
    char line[300];
    int n = snprintf(line, sizeof line, "rewind  %d snapshots, %.1f s   %.1f of %.0f MiB", r->count,
                     r->count ? entry(r, r->count - 1)->time - entry(r, 0)->time : 0.0,
                     (double)(r->used + r->live.cap) / MIB, (double)r->cap / MIB);
    if (r->cursor >= 0)
        snprintf(line + n, sizeof line - (size_t)n, "   PAST: %.1f s back - Space runs on from here",
                 (r->has_live ? r->live.time : entry(r, r->count - 1)->time) - now);
    else snprintf(line + n, sizeof line - (size_t)n, "   [ ] step   Backspace -5 s   F5 save");
    if (r->msg[0]) snprintf(line + n, sizeof line - (size_t)n, "   %s", r->msg);
    steerV_text(&v->font, &v->ui_text, x0, y0 + h - lh - 4 * dpi, line,
                r->cursor >= 0 ? here : (SDL_Color){ 190, 195, 210, 255 });
}
