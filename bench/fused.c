// SPDX-License-Identifier: MIT
// fused.c — the hand-optimised fused C loop for BENCH.md's standard flocking
// workload: the baseline the engine is compared against in the same process
// run. It is written for speed only (no generality), so the gap to it is the
// price of the engine's abstractions.
#define _POSIX_C_SOURCE 199309L

#include "fused.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RADIUS 5.0f
#define SEP_RADIUS 2.0f
#define DT (1.0f / 60.0f)
#define MAX_SPEED 2.0f
#define MAX_FORCE 0.5f
#define W_SEP 1.5f
#define W_ALI 1.0f
#define W_COH 1.0f
#define W_WAN 0.2f
#define WANDER_R 1.0f
#define WANDER_D 5.0f
#define JITTER 5.0f
#define WARMUP_TICKS 20

typedef struct State {
    float *px, *py, *vx, *vy, *tx, *ty;
    uint32_t *s;
} State;

typedef struct World {
    int n, nc;
    float L, inv_cs;
    // Below 3 cells of >= 5 the 3x3 stencil already covers the whole torus;
    // the per-cell shift trick no longer gives the minimum image, so pairs
    // are wrapped explicitly instead.
    int small;
    State a; // integrated state; the fused pass writes it
    State b; // start-of-tick copy sorted by cell; the fused pass reads it
    float *hx, *hy; // headings of b, so each is normalised once, not per pair
    int *cell, *start, *fill;
} World;

// A run of consecutive sorted agents plus the shift that turns their stored
// positions into the minimum image seen from the current cell.
typedef struct Range {
    int b, e;
    float sx, sy;
} Range;

static uint32_t xs32(uint32_t *x)
{
    uint32_t v = *x;
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    *x = v;
    return v;
}

static float unif(uint32_t *x)
{
    return (float)(xs32(x) >> 8) * (1.0f / 16777216.0f);
}

static float wrap(float p, float L)
{
    if (p < 0.0f)
        p += L;
    // Also catches -tiny + L rounding up to exactly L.
    if (p >= L)
        p -= L;
    return p;
}

static void *alloc_state(State *st, size_t n)
{
    float **f[6] = {&st->px, &st->py, &st->vx, &st->vy, &st->tx, &st->ty};
    for (int k = 0; k < 6; k++)
        if (!(*f[k] = malloc(n * sizeof(float))))
            return NULL;
    return st->s = malloc(n * sizeof(uint32_t));
}

static void free_state(State *st)
{
    free(st->px);
    free(st->py);
    free(st->vx);
    free(st->vy);
    free(st->tx);
    free(st->ty);
    free(st->s);
}

static void world_free(World *w)
{
    free_state(&w->a);
    free_state(&w->b);
    free(w->hx);
    free(w->hy);
    free(w->cell);
    free(w->start);
    free(w->fill);
}

static int world_init(World *w, int n)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    double L = sqrt((double)n * 3.14159265358979323846 * 25.0 / 10.0);
    int nc = (int)floor(L / RADIUS);
    if (nc < 3)
        nc = 3;
    w->L = (float)L;
    w->nc = nc;
    w->inv_cs = (float)(nc / L);
    w->small = L / nc < RADIUS;

    size_t un = (size_t)n, ncells = (size_t)nc * (size_t)nc;
    if (!alloc_state(&w->a, un) || !alloc_state(&w->b, un)
        || !(w->hx = malloc(un * sizeof(float)))
        || !(w->hy = malloc(un * sizeof(float)))
        || !(w->cell = malloc(un * sizeof(int)))
        || !(w->start = malloc((ncells + 1) * sizeof(int)))
        || !(w->fill = malloc(ncells * sizeof(int)))) {
        world_free(w);
        return -1;
    }

    uint32_t x = 12345;
    const float twopi = 6.28318530717958647692f;
    for (int i = 0; i < n; i++) {
        float px = unif(&x) * w->L;
        float py = unif(&x) * w->L;
        float theta = unif(&x) * twopi;
        float phi = unif(&x) * twopi;
        uint32_t s = xs32(&x);
        w->a.px[i] = wrap(px, w->L);
        w->a.py[i] = wrap(py, w->L);
        w->a.vx[i] = cosf(theta);
        w->a.vy[i] = sinf(theta);
        w->a.tx[i] = WANDER_R * cosf(phi);
        w->a.ty[i] = WANDER_R * sinf(phi);
        w->a.s[i] = s ? s : 0x9E3779B9u;
    }
    return 0;
}

// Counting sort of a into b by cell. a is already in last tick's cell order,
// so the scatter is nearly sequential.
static void build_grid(World *w)
{
    const int n = w->n, nc = w->nc, ncells = nc * nc;
    const float inv = w->inv_cs;
    int *restrict cell = w->cell, *restrict start = w->start,
                  *restrict fill = w->fill;
    const State a = w->a, b = w->b;

    memset(start, 0, (size_t)(ncells + 1) * sizeof(int));
    for (int i = 0; i < n; i++) {
        int cx = (int)(a.px[i] * inv), cy = (int)(a.py[i] * inv);
        // p * inv can round up to nc when p is just below L.
        if (cx >= nc)
            cx = nc - 1;
        if (cy >= nc)
            cy = nc - 1;
        int c = cy * nc + cx;
        cell[i] = c;
        start[c + 1]++;
    }
    for (int c = 0; c < ncells; c++) {
        start[c + 1] += start[c];
        fill[c] = start[c];
    }
    float *restrict hx = w->hx, *restrict hy = w->hy;
    for (int i = 0; i < n; i++) {
        int d = fill[cell[i]]++;
        float vx = a.vx[i], vy = a.vy[i];
        b.px[d] = a.px[i];
        b.py[d] = a.py[i];
        b.vx[d] = vx;
        b.vy[d] = vy;
        b.tx[d] = a.tx[i];
        b.ty[d] = a.ty[i];
        b.s[d] = a.s[i];
        float v2 = vx * vx + vy * vy;
        if (v2 <= 1e-16f) {
            hx[d] = 1.0f;
            hy[d] = 0.0f;
        } else {
            float r = 1.0f / sqrtf(v2);
            hx[d] = vx * r;
            hy[d] = vy * r;
        }
    }
}

// The 3x3 stencil around cell (cx, cy) as at most 6 runs: the three cells of
// a row are adjacent in sorted order unless the row wraps in x.
static int stencil(const World *w, int cx, int cy, Range *r)
{
    const int nc = w->nc, *start = w->start;
    const float L = w->L;
    int k = 0;
    for (int dy = -1; dy <= 1; dy++) {
        int y = cy + dy;
        float sy = 0.0f;
        if (y < 0) {
            y += nc;
            sy = -L;
        } else if (y >= nc) {
            y -= nc;
            sy = L;
        }
        const int *row = start + y * nc;
        if (cx > 0 && cx < nc - 1) {
            r[k++] = (Range){row[cx - 1], row[cx + 2], 0.0f, sy};
        } else if (cx == 0) {
            r[k++] = (Range){row[nc - 1], row[nc], -L, sy};
            r[k++] = (Range){row[0], row[2], 0.0f, sy};
        } else {
            r[k++] = (Range){row[nc - 2], row[nc], 0.0f, sy};
            r[k++] = (Range){row[0], row[1], L, sy};
        }
    }
    if (w->small) // shifts are meaningless there; pairs get wrapped instead
        for (int q = 0; q < k; q++)
            r[q].sx = r[q].sy = 0.0f;
    return k;
}

static float min_image(float d, float L)
{
    if (d >= 0.5f * L)
        return d - L;
    if (d < -0.5f * L)
        return d + L;
    return d;
}

// One tick: sort, then the fused force + integrate pass reading b, writing a.
static void tick(World *w)
{
    build_grid(w);

    const int nc = w->nc, small = w->small;
    const float L = w->L;
    const int *start = w->start;
    const State a = w->a, b = w->b;
    const float *restrict bpx = b.px, *restrict bpy = b.py;
    const float *restrict hx = w->hx, *restrict hy = w->hy;
    const float jit = JITTER * DT;

    for (int cy = 0; cy < nc; cy++) {
        for (int cx = 0; cx < nc; cx++) {
            const int c = cy * nc + cx;
            const int i0 = start[c], i1 = start[c + 1];
            if (i0 == i1)
                continue;
            Range r[6];
            const int nr = stencil(w, cx, cy, r);

            for (int i = i0; i < i1; i++) {
                const float pix = bpx[i], piy = bpy[i];
                float cnt = 0.0f, ahx = 0.0f, ahy = 0.0f;
                float ccx = 0.0f, ccy = 0.0f, sx = 0.0f, sy = 0.0f;

                for (int q = 0; q < nr; q++) {
                    // Shifting the centre instead of each neighbour keeps the
                    // inner loop to one subtract per axis.
                    const float qx = pix - r[q].sx, qy = piy - r[q].sy;
                    const int je = r[q].e;
                    for (int j = r[q].b; j < je; j++) {
                        float dx = bpx[j] - qx, dy = bpy[j] - qy;
                        if (small) {
                            dx = min_image(dx, L);
                            dy = min_image(dy, L);
                        }
                        const float d2 = dx * dx + dy * dy;
                        // Masking by multiply rather than branching: about
                        // a third of candidates are inside, so a branch
                        // mispredicts constantly; x + 0*y == x exactly.
                        const float m = (d2 < RADIUS * RADIUS && j != i)
                                            ? 1.0f : 0.0f;
                        cnt += m;
                        ahx += m * hx[j];
                        ahy += m * hy[j];
                        ccx += m * dx;
                        ccy += m * dy;
                        // Rare (~6% of candidates), so a branch is cheaper
                        // than a division per candidate.
                        if (d2 < SEP_RADIUS * SEP_RADIUS && d2 > 0.0f) {
                            const float inv = 1.0f / d2;
                            sx -= dx * inv;
                            sy -= dy * inv;
                        }
                    }
                }

                const float vx = b.vx[i], vy = b.vy[i];
                const float hix = hx[i], hiy = hy[i];
                float fx = W_SEP * sx, fy = W_SEP * sy;
                if (cnt > 0.0f) {
                    const float invn = 1.0f / cnt;
                    fx += W_ALI * (ahx * invn - hix);
                    fy += W_ALI * (ahy * invn - hiy);
                    const float mx = ccx * invn, my = ccy * invn;
                    float dx = 0.0f, dy = 0.0f;
                    if (mx != 0.0f || my != 0.0f) {
                        const float k = MAX_SPEED / sqrtf(mx * mx + my * my);
                        dx = mx * k;
                        dy = my * k;
                    }
                    dx -= vx;
                    dy -= vy;
                    if (dx != 0.0f || dy != 0.0f) {
                        const float k = 1.0f / sqrtf(dx * dx + dy * dy);
                        fx += W_COH * dx * k;
                        fy += W_COH * dy * k;
                    }
                }

                uint32_t s = b.s[i];
                float tx = b.tx[i], ty = b.ty[i];
                tx += (2.0f * unif(&s) - 1.0f) * jit;
                ty += (2.0f * unif(&s) - 1.0f) * jit;
                const float tl2 = tx * tx + ty * ty;
                if (tl2 > 0.0f) {
                    const float k = WANDER_R / sqrtf(tl2);
                    tx *= k;
                    ty *= k;
                }
                // Side vector is (-h.y, h.x).
                const float fwd = tx + WANDER_D;
                fx += W_WAN * (hix * fwd - hiy * ty);
                fy += W_WAN * (hiy * fwd + hix * ty);

                const float f2 = fx * fx + fy * fy;
                if (f2 > MAX_FORCE * MAX_FORCE) {
                    const float k = MAX_FORCE / sqrtf(f2);
                    fx *= k;
                    fy *= k;
                }
                float nvx = vx + fx * DT, nvy = vy + fy * DT; // mass 1
                const float v2 = nvx * nvx + nvy * nvy;
                if (v2 > MAX_SPEED * MAX_SPEED) {
                    const float k = MAX_SPEED / sqrtf(v2);
                    nvx *= k;
                    nvy *= k;
                }
                a.px[i] = wrap(pix + nvx * DT, L);
                a.py[i] = wrap(piy + nvy * DT, L);
                a.vx[i] = nvx;
                a.vy[i] = nvy;
                a.tx[i] = tx;
                a.ty[i] = ty;
                a.s[i] = s;
            }
        }
    }
}

// Untimed: the neighbour count of the final state needs a grid of the final
// positions, which the last tick did not build.
static double mean_neighbors(World *w)
{
    build_grid(w);
    const int nc = w->nc, small = w->small;
    const float L = w->L;
    const float *bpx = w->b.px, *bpy = w->b.py;
    double total = 0.0;
    for (int cy = 0; cy < nc; cy++) {
        for (int cx = 0; cx < nc; cx++) {
            const int c = cy * nc + cx;
            Range r[6];
            const int nr = stencil(w, cx, cy, r);
            for (int i = w->start[c]; i < w->start[c + 1]; i++) {
                long cnt = 0;
                for (int q = 0; q < nr; q++) {
                    const float qx = bpx[i] - r[q].sx, qy = bpy[i] - r[q].sy;
                    for (int j = r[q].b; j < r[q].e; j++) {
                        float dx = bpx[j] - qx, dy = bpy[j] - qy;
                        if (small) {
                            dx = min_image(dx, L);
                            dy = min_image(dy, L);
                        }
                        cnt += j != i && dx * dx + dy * dy < RADIUS * RADIUS;
                    }
                }
                total += (double)cnt;
            }
        }
    }
    return total / w->n;
}

static double mean_speed(const World *w)
{
    double total = 0.0;
    for (int i = 0; i < w->n; i++)
        total += sqrt((double)w->a.vx[i] * w->a.vx[i]
                      + (double)w->a.vy[i] * w->a.vy[i]);
    return total / w->n;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *pa, const void *pb)
{
    const double x = *(const double *)pa, y = *(const double *)pb;
    return (x > y) - (x < y);
}

int fused_flock_run(int n, int ticks, fused_Stats *out)
{
    if (n < 1 || ticks < 0 || !out)
        return -1;
    World w;
    if (world_init(&w, n) != 0)
        return -1;
    // Allocated up front so nothing is allocated while timing.
    double *times = malloc((size_t)(ticks > 0 ? ticks : 1) * sizeof(double));
    if (!times) {
        world_free(&w);
        return -1;
    }

    for (int t = 0; t < WARMUP_TICKS; t++)
        tick(&w);
    for (int t = 0; t < ticks; t++) {
        const double t0 = now_ms();
        tick(&w);
        times[t] = now_ms() - t0;
    }

    memset(out, 0, sizeof *out);
    if (ticks > 0) {
        qsort(times, (size_t)ticks, sizeof(double), cmp_double);
        out->min_ms = times[0];
        out->max_ms = times[ticks - 1];
        out->median_ms = ticks % 2 ? times[ticks / 2]
                                   : 0.5 * (times[ticks / 2 - 1] + times[ticks / 2]);
    }
    out->mean_speed = mean_speed(&w);
    out->mean_neighbors = mean_neighbors(&w);

    free(times);
    world_free(&w);
    return 0;
}
