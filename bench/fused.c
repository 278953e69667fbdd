// SPDX-License-Identifier: MIT
// fused.c — the hand-optimised fused C loop for the standard flocking
// workload of docs/benchmarks.md: the baseline the engine is compared against in the same process
// run. It is written for speed only (no generality), so the gap to it is the
// price of the engine's abstractions. On several threads it is the same loop
// split by hand (see "the same tick on several threads" below), with the
// same bits as on one.
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif

#include "fused.h"
#include "timing.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
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
#define LANES 4
#define BATCH 32
// Where the vector loop parks the agent being updated so that it is not its
// own neighbour: never within radius, and its squared distance stays finite.
#define FAR 1e18f

#ifdef __GNUC__
#define ALWAYS_INLINE __attribute__((always_inline))
#else
#define ALWAYS_INLINE
#endif

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
    State a;        // integrated state; the fused pass writes it
    State b;        // start-of-tick copy sorted by cell; the fused pass reads it
    float *hx, *hy; // headings of b, so each is normalised once, not per pair
    int *cell, *start, *fill;
    void *block; // every array above (see carve)
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

static float unif(uint32_t *x) { return (float)(xs32(x) >> 8) * (1.0f / 16777216.0f); }

static float wrap(float p, float L)
{
    if (p < 0.0f) p += L;
    // Also catches -tiny + L rounding up to exactly L.
    if (p >= L) p -= L;
    return p;
}

// Every array lives in one zeroed block. Each starts on its own page plus
// a different number of cache lines: arrays that each start a page apart
// (as separate large callocs do) put a[i], b[i], hx[i] ... in the same
// cache set and make the CPU's store-to-load check see false overlaps
// (4K aliasing), which made the scatter 5x slower.
#define PAGE 4096
#define STAGGER 192

typedef struct Carve {
    char *base;
    size_t at;
    int k;
} Carve;

static void *carve(Carve *c, size_t bytes)
{
    c->at = (c->at + PAGE - 1) / PAGE * PAGE + (size_t)(c->k++ * STAGGER % PAGE);
    void *p = c->base ? c->base + c->at : NULL;
    c->at += bytes;
    return p;
}

static void carve_state(Carve *c, State *st, size_t n)
{
    float **f[6] = { &st->px, &st->py, &st->vx, &st->vy, &st->tx, &st->ty };
    for (int k = 0; k < 6; k++) *f[k] = carve(c, n * sizeof(float));
    st->s = carve(c, n * sizeof(uint32_t));
}

// Places every array in c (a dry run when c->base is NULL); returns the bytes used.
static size_t carve_world(World *w, Carve *c)
{
    const size_t un = (size_t)w->n, ncells = (size_t)w->nc * (size_t)w->nc;
    // The vector loop reads up to LANES - 1 agents past a run's end, so the
    // arrays it reads are padded (with zeros, which are harmless).
    const size_t ng = un + LANES;
    carve_state(c, &w->a, un);
    carve_state(c, &w->b, ng);
    w->hx = carve(c, ng * sizeof(float));
    w->hy = carve(c, ng * sizeof(float));
    w->cell = carve(c, un * sizeof(int));
    w->start = carve(c, (ncells + 1) * sizeof(int));
    w->fill = carve(c, ncells * sizeof(int));
    return c->at;
}

static void world_free(World *w) { free(w->block); }

static int world_init(World *w, int n)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    double L = sqrt((double)n * 3.14159265358979323846 * 25.0 / 10.0);
    int nc = (int)floor(L / RADIUS);
    if (nc < 3) nc = 3;
    w->L = (float)L;
    w->nc = nc;
    w->inv_cs = (float)(nc / L);
    w->small = L / nc < RADIUS;

    Carve dry = { 0 };
    const size_t bytes = carve_world(w, &dry);
    if (!(w->block = aligned_alloc(PAGE, (bytes + PAGE - 1) / PAGE * PAGE))) return -1;
    memset(w->block, 0, bytes);
    Carve c = { .base = w->block };
    carve_world(w, &c);

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

// The grid cell of position (x, y).
static inline int cell_of(float x, float y, float inv_cs, int nc)
{
    int cx = (int)(x * inv_cs), cy = (int)(y * inv_cs);
    // p * inv can round up to nc when p is just below L.
    if (cx >= nc) cx = nc - 1;
    if (cy >= nc) cy = nc - 1;
    return cy * nc + cx;
}

// Copies agents i0 .. i1-1 of a to their sorted places in b (fill: the next
// free slot of each cell) and stores their headings.
static inline void scatter(World *w, int i0, int i1, int *restrict fill)
{
    const int *restrict cell = w->cell;
    const State a = w->a, b = w->b;
    float *restrict hx = w->hx, *restrict hy = w->hy;
    for (int i = i0; i < i1; i++) {
        const int d = fill[cell[i]]++;
        const float vx = a.vx[i], vy = a.vy[i];
        b.px[d] = a.px[i];
        b.py[d] = a.py[i];
        b.vx[d] = vx;
        b.vy[d] = vy;
        b.tx[d] = a.tx[i];
        b.ty[d] = a.ty[i];
        b.s[d] = a.s[i];
        const float v2 = vx * vx + vy * vy;
        if (v2 <= 1e-16f) {
            hx[d] = 1.0f;
            hy[d] = 0.0f;
        } else {
            const float r = 1.0f / sqrtf(v2);
            hx[d] = vx * r;
            hy[d] = vy * r;
        }
    }
}

// Counting sort of a into b by cell. a is already in last tick's cell order,
// so the scatter is nearly sequential.
static void build_grid(World *w)
{
    const int n = w->n, nc = w->nc, ncells = nc * nc;
    const float inv = w->inv_cs, *px = w->a.px, *py = w->a.py;
    int *restrict cell = w->cell, *restrict start = w->start, *restrict fill = w->fill;

    memset(start, 0, (size_t)(ncells + 1) * sizeof(int));
    for (int i = 0; i < n; i++) {
        const int c = cell_of(px[i], py[i], inv, nc);
        cell[i] = c;
        start[c + 1]++;
    }
    for (int c = 0; c < ncells; c++) {
        start[c + 1] += start[c];
        fill[c] = start[c];
    }
    scatter(w, 0, n, fill);
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
            r[k++] = (Range){ row[cx - 1], row[cx + 2], 0.0f, sy };
        } else if (cx == 0) {
            r[k++] = (Range){ row[nc - 1], row[nc], -L, sy };
            r[k++] = (Range){ row[0], row[2], 0.0f, sy };
        } else {
            r[k++] = (Range){ row[nc - 2], row[nc], 0.0f, sy };
            r[k++] = (Range){ row[0], row[1], L, sy };
        }
    }
    return k;
}

typedef struct Acc {
    float n, hx, hy, cx, cy, sx, sy;
} Acc;

static float min_image(float d, float L)
{
    if (d >= 0.5f * L) return d - L;
    if (d < -0.5f * L) return d + L;
    return d;
}

// Neighbour sums of sorted agent `self` at (pix, piy) over the stencil
// runs r. Scalar: the fallback without vector extensions, and the path for
// small worlds, where each pair is wrapped because the shifts do not give
// the minimum image (only worlds of under ~30 agents).
static Acc sums_scalar(World *w, const Range *r, int nr, int self, float pix, float piy)
{
    const float *x = w->b.px, *y = w->b.py, *hx = w->hx, *hy = w->hy;
    const int small = w->small;
    const float L = w->L;
    Acc a = { 0 };
    for (int q = 0; q < nr; q++) {
        const float qx = small ? pix : pix - r[q].sx;
        const float qy = small ? piy : piy - r[q].sy;
        for (int j = r[q].b; j < r[q].e; j++) {
            float dx = x[j] - qx, dy = y[j] - qy;
            if (small) {
                dx = min_image(dx, L);
                dy = min_image(dy, L);
            }
            const float d2 = dx * dx + dy * dy;
            // A mask, not a branch: a third of candidates are inside, so a
            // branch would mispredict constantly; x + 0*y == x exactly.
            const float in = (float)((d2 < RADIUS * RADIUS) & (j != self));
            a.n += in;
            a.hx += in * hx[j];
            a.hy += in * hy[j];
            a.cx += in * dx;
            a.cy += in * dy;
            if (d2 < SEP_RADIUS * SEP_RADIUS && d2 > 0.0f) { // rare: ~6%
                const float inv = 1.0f / d2;
                a.sx -= dx * inv;
                a.sy -= dy * inv;
            }
        }
    }
    return a;
}

#if defined(__GNUC__) && !defined(FUSED_SCALAR)
// GCC/Clang vector extensions: -O2 does not vectorise float reductions on
// its own (it may not reorder the sums), so four partial sums are spelt out;
// this loop is about 2x faster than sums_scalar.
typedef float v4f __attribute__((vector_size(16)));
typedef int v4i __attribute__((vector_size(16)));

typedef struct Acc4 {
    v4i n;
    v4f hx, hy, cx, cy, sx, sy;
} Acc4;

static float hsum(v4f v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// One block of 4 candidates starting at j; `valid` masks off lanes past the
// end of a run (the arrays are padded, so reading them is safe). Lanes
// outside add exact zeros, so each lane's sum is the same as with a branch.
ALWAYS_INLINE static inline void block(const World *w, int j, float qx, float qy, v4i valid, Acc4 *a)
{
    const v4f one = { 1.0f, 1.0f, 1.0f, 1.0f };
    v4f px, py, phx, phy;
    memcpy(&px, w->b.px + j, sizeof px);
    memcpy(&py, w->b.py + j, sizeof py);
    memcpy(&phx, w->hx + j, sizeof phx);
    memcpy(&phy, w->hy + j, sizeof phy);
    const v4f dx = px - qx, dy = py - qy;
    const v4f d2 = dx * dx + dy * dy;
    const v4i in = (d2 < RADIUS * RADIUS) & valid;
    a->n -= in; // true is -1
    a->hx += (v4f)(in & (v4i)phx);
    a->hy += (v4f)(in & (v4i)phy);
    a->cx += (v4f)(in & (v4i)dx);
    a->cy += (v4f)(in & (v4i)dy);
    const v4i sep = in & (d2 < SEP_RADIUS * SEP_RADIUS) & (d2 > 0.0f);
    const v4f inv = (v4f)(sep & (v4i)(one / d2));
    a->sx -= dx * inv;
    a->sy -= dy * inv;
}

// As sums_scalar, 4 candidates at a time. The agent itself is excluded
// either by parking it out of range for the scan (park: cheaper than an
// index compare in every block, but it writes b, so only while one thread
// scans), or by masking its lane in the one block that holds it. Either way
// its lane adds exact zeros, so both give the same bits.
ALWAYS_INLINE static inline Acc sums_vec(World *w, const Range *r, int nr, int self, float pix, float piy,
                                         const int park)
{
    if (w->small) return sums_scalar(w, r, nr, self, pix, piy);
    float keep = 0.0f;
    if (park) {
        keep = w->b.px[self];
        w->b.px[self] = FAR;
    }
    Acc4 a = { 0 };
    const v4i all = { -1, -1, -1, -1 }, lane = { 0, 1, 2, 3 };
    for (int q = 0; q < nr; q++) {
        const float qx = pix - r[q].sx, qy = piy - r[q].sy;
        const int e = r[q].e;
        int j = r[q].b;
        if (!park && self >= j && self < e) {
            const int js = j + (self - j) / LANES * LANES;
            for (; j < js; j += LANES) block(w, j, qx, qy, all, &a);
            block(w, j, qx, qy, (lane < e - j) & (lane != self - j), &a);
            j += LANES;
        }
        for (; j + LANES <= e; j += LANES) block(w, j, qx, qy, all, &a);
        if (j < e) {
            const int left = e - j;
            block(w, j, qx, qy, lane < left, &a);
        }
    }
    if (park) w->b.px[self] = keep;
    return (Acc){ (float)((a.n[0] + a.n[1]) + (a.n[2] + a.n[3])),
                  hsum(a.hx),
                  hsum(a.hy),
                  hsum(a.cx),
                  hsum(a.cy),
                  hsum(a.sx),
                  hsum(a.sy) };
}

// One thread scanning.
ALWAYS_INLINE static inline Acc sums(World *w, const Range *r, int nr, int self, float pix, float piy)
{
    return sums_vec(w, r, nr, self, pix, piy, 1);
}

// Several threads scanning the same b: nothing is written.
ALWAYS_INLINE static inline Acc sums_shared(World *w, const Range *r, int nr, int self, float pix, float piy)
{
    return sums_vec(w, r, nr, self, pix, piy, 0);
}
#else
#define sums sums_scalar
#define sums_shared sums_scalar
#endif

// Forces, wander and integration of the k sorted agents i0 .. i0+k-1 from
// their neighbour sums s: reads b, writes a at the same indices. Each agent
// is a chain of four square roots; split into stages that each loop over the
// batch, the chains of different agents overlap in the CPU instead of each
// stalling in turn.
static void integrate(const World *w, int i0, int k, const Acc *s)
{
    const State a = w->a, b = w->b;
    const float *hx = w->hx, *hy = w->hy;
    const float L = w->L;
    const float jit = JITTER * DT;
    float fx[BATCH], fy[BATCH], cx[BATCH], cy[BATCH], c2[BATCH];
    float tx[BATCH], ty[BATCH], t2[BATCH];

    for (int q = 0; q < k; q++) {
        const int i = i0 + q;
        fx[q] = W_SEP * s[q].sx;
        fy[q] = W_SEP * s[q].sy;
        c2[q] = -1.0f; // no neighbours: no alignment, no cohesion
        if (s[q].n > 0.0f) {
            const float invn = 1.0f / s[q].n;
            fx[q] += W_ALI * (s[q].hx * invn - hx[i]);
            fy[q] += W_ALI * (s[q].hy * invn - hy[i]);
            cx[q] = s[q].cx * invn;
            cy[q] = s[q].cy * invn;
            c2[q] = cx[q] * cx[q] + cy[q] * cy[q];
        }
        uint32_t rs = b.s[i];
        const float jx = (2.0f * unif(&rs) - 1.0f) * jit;
        const float jy = (2.0f * unif(&rs) - 1.0f) * jit;
        a.s[i] = rs;
        tx[q] = b.tx[i] + jx;
        ty[q] = b.ty[i] + jy;
        t2[q] = tx[q] * tx[q] + ty[q] * ty[q];
    }

    for (int q = 0; q < k; q++) {
        const int i = i0 + q;
        if (t2[q] > 0.0f) {
            const float r = WANDER_R / sqrtf(t2[q]);
            tx[q] *= r;
            ty[q] *= r;
        }
        if (c2[q] >= 0.0f) {
            // desired - v, with desired = 2 c/|c| (0 if c = 0)
            float dx = 0.0f, dy = 0.0f;
            if (c2[q] > 0.0f) {
                const float r = MAX_SPEED / sqrtf(c2[q]);
                dx = cx[q] * r;
                dy = cy[q] * r;
            }
            cx[q] = dx - b.vx[i];
            cy[q] = dy - b.vy[i];
            c2[q] = cx[q] * cx[q] + cy[q] * cy[q];
        }
    }

    for (int q = 0; q < k; q++) {
        const int i = i0 + q;
        float f_x = fx[q], f_y = fy[q];
        if (c2[q] > 0.0f) {
            const float r = 1.0f / sqrtf(c2[q]);
            f_x += W_COH * cx[q] * r;
            f_y += W_COH * cy[q] * r;
        }
        // Target D_w ahead on the circle, in the (h, side) frame; side is
        // (-h.y, h.x) and the position cancels.
        const float hix = hx[i], hiy = hy[i];
        const float fwd = tx[q] + WANDER_D;
        f_x += W_WAN * (hix * fwd - hiy * ty[q]);
        f_y += W_WAN * (hiy * fwd + hix * ty[q]);

        const float f2 = f_x * f_x + f_y * f_y;
        if (f2 > MAX_FORCE * MAX_FORCE) {
            const float r = MAX_FORCE / sqrtf(f2);
            f_x *= r;
            f_y *= r;
        }
        float vx = b.vx[i] + f_x * DT, vy = b.vy[i] + f_y * DT; // mass 1
        const float v2 = vx * vx + vy * vy;
        if (v2 > MAX_SPEED * MAX_SPEED) {
            const float r = MAX_SPEED / sqrtf(v2);
            vx *= r;
            vy *= r;
        }
        a.px[i] = wrap(b.px[i] + vx * DT, L);
        a.py[i] = wrap(b.py[i] + vy * DT, L);
        a.vx[i] = vx;
        a.vy[i] = vy;
        a.tx[i] = tx[q];
        a.ty[i] = ty[q];
    }
}

// The fused pass over cells c0 .. c1-1, which computes every force from b
// and integrates into a. Agents are visited in sorted order, so a batch is
// always a contiguous run of indices. park: see sums_vec. Inlined into each
// caller, so that each gets the loop for its own park.
ALWAYS_INLINE static inline void force_cells(World *w, int c0, int c1, const int park)
{
    const int nc = w->nc;
    const int *start = w->start;
    Acc s[BATCH];
    int base = start[c0], k = 0;
    // row by row, as (cx, cy) is what the stencil needs
    for (int cy = c0 / nc; cy * nc < c1; cy++) {
        const int x0 = cy * nc < c0 ? c0 - cy * nc : 0, x1 = c1 - cy * nc < nc ? c1 - cy * nc : nc;
        for (int cx = x0; cx < x1; cx++) {
            const int c = cy * nc + cx;
            const int i0 = start[c], i1 = start[c + 1];
            if (i0 == i1) continue;
            Range r[6];
            const int nr = stencil(w, cx, cy, r);
            for (int i = i0; i < i1; i++) {
                const float pix = w->b.px[i], piy = w->b.py[i];
                s[k++] = park ? sums(w, r, nr, i, pix, piy) : sums_shared(w, r, nr, i, pix, piy);
                if (k == BATCH) {
                    integrate(w, base, k, s);
                    base += k;
                    k = 0;
                }
            }
        }
    }
    if (k) integrate(w, base, k, s);
}

// One tick on one thread: sort, then the fused pass over every cell.
static void tick(World *w)
{
    build_grid(w);
    force_cells(w, 0, w->nc * w->nc, 1);
}

// ---- the same tick on several threads --------------------------------------
//
// A team of persistent threads (the caller is thread 0) runs each tick in
// phases separated by a barrier:
//   count    each thread counts its fixed slice of a per cell, in a row of
//            its own
//   sum      the prefix sum over (cell, thread), each thread over a slice of
//            the cells: its slice's total first, then, after a barrier, the
//            offsets from the totals of the slices before it
//   scatter  each thread copies its slice of a into b from its offsets:
//            the same stable order as the serial sort, so the same b
//   fused    chunks of cells (about equal agents) handed out by an atomic
//            counter, so a thread slowed by the machine takes fewer
// Every agent's arithmetic is the serial loop's, so the state has the same
// bits for any thread count.

// Spins briefly, then sleeps: phases are microseconds to milliseconds apart.
#define SPINS 4000

typedef struct Barrier {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_int n; // atomic only so that a team short of threads can shrink it
    atomic_int arrived;
    atomic_uint gen;
} Barrier;

static void barrier_wait(Barrier *b)
{
    const unsigned gen = atomic_load_explicit(&b->gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) == atomic_load(&b->n) - 1) {
        // the last to arrive: nobody can arrive again before gen moves
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        pthread_mutex_lock(&b->mu);
        atomic_store_explicit(&b->gen, gen + 1, memory_order_release);
        pthread_cond_broadcast(&b->cv);
        pthread_mutex_unlock(&b->mu);
        return;
    }
    for (int spin = 0; spin < SPINS; spin++) {
        if (atomic_load_explicit(&b->gen, memory_order_acquire) != gen) return;
        if (spin > 64) sched_yield();
    }
    pthread_mutex_lock(&b->mu);
    while (atomic_load_explicit(&b->gen, memory_order_acquire) == gen) pthread_cond_wait(&b->cv, &b->mu);
    pthread_mutex_unlock(&b->mu);
}

typedef struct Team Team;

typedef struct Member {
    Team *team;
    int id;
} Member;

struct Team {
    World *w;
    int nthreads, nchunks;
    int *counts; // nthreads rows of ncells: counts, then each row's offsets
    int *totals; // per thread: the agents in its slice of the cells
    int *chunks; // nchunks + 1 cell boundaries of the fused pass's chunks
    atomic_int next_chunk;
    bool quit; // written before the start barrier
    Barrier bar;
    pthread_t th[FUSED_MAX_THREADS];
    Member members[FUSED_MAX_THREADS];
};

// Thread t's slice of [0, n) out of nthreads.
static int slice(int n, int t, int nthreads) { return (int)((int64_t)n * t / nthreads); }

// The first cell whose agents start at or after sorted index i.
static int cell_at(const int *start, int ncells, int i)
{
    int lo = 0, hi = ncells;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (start[mid] < i) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void team_tick(Team *team, int t)
{
    World *w = team->w;
    const int T = team->nthreads, n = w->n, ncells = w->nc * w->nc;
    const int i0 = slice(n, t, T), i1 = slice(n, t + 1, T);
    const int c0 = slice(ncells, t, T), c1 = slice(ncells, t + 1, T);
    int *restrict row = team->counts + (size_t)t * (size_t)ncells;

    // count
    const int nc = w->nc;
    const float inv = w->inv_cs, *px = w->a.px, *py = w->a.py;
    int *restrict cell = w->cell;
    memset(row, 0, (size_t)ncells * sizeof(int));
    for (int i = i0; i < i1; i++) {
        const int c = cell_of(px[i], py[i], inv, nc);
        cell[i] = c;
        row[c]++;
    }
    barrier_wait(&team->bar);

    // sum: this thread's cells, over every thread's row
    int total = 0;
    for (int u = 0; u < T; u++) {
        const int *r = team->counts + (size_t)u * (size_t)ncells;
        for (int c = c0; c < c1; c++) total += r[c];
    }
    team->totals[t] = total;
    barrier_wait(&team->bar);
    int base = 0;
    for (int u = 0; u < t; u++) base += team->totals[u];
    for (int c = c0; c < c1; c++) {
        w->start[c] = base;
        for (int u = 0; u < T; u++) {
            int *r = team->counts + (size_t)u * (size_t)ncells + c;
            const int k = *r;
            *r = base;
            base += k;
        }
    }
    if (t == T - 1) w->start[ncells] = n;
    barrier_wait(&team->bar);

    // scatter; thread 0 also cuts the fused pass into chunks
    scatter(w, i0, i1, row);
    if (t == 0) {
        for (int k = 0; k < team->nchunks; k++) team->chunks[k] = cell_at(w->start, ncells, slice(n, k, team->nchunks));
        team->chunks[team->nchunks] = ncells;
        atomic_store_explicit(&team->next_chunk, 0, memory_order_relaxed);
    }
    barrier_wait(&team->bar);

    // fused
    for (;;) {
        const int k = atomic_fetch_add_explicit(&team->next_chunk, 1, memory_order_relaxed);
        if (k >= team->nchunks) break;
        if (team->chunks[k] < team->chunks[k + 1]) force_cells(w, team->chunks[k], team->chunks[k + 1], 0);
    }
    barrier_wait(&team->bar);
}

static void *member_main(void *arg)
{
    Member *m = arg;
    for (;;) {
        barrier_wait(&m->team->bar); // the tick starts (or the team stops)
        if (m->team->quit) return NULL;
        team_tick(m->team, m->id);
    }
}

// One tick on the team: the caller is thread 0.
static void tick_team(Team *team)
{
    barrier_wait(&team->bar);
    team_tick(team, 0);
}

static void team_stop(Team *team, int started)
{
    team->quit = true;
    barrier_wait(&team->bar); // the start barrier of the threads that run
    for (int k = 0; k < started; k++) pthread_join(team->th[k], NULL);
    pthread_mutex_destroy(&team->bar.mu);
    pthread_cond_destroy(&team->bar.cv);
    free(team->counts);
    free(team->totals);
    free(team->chunks);
}

// Starts threads 1 .. nthreads-1; -1 if memory or threads run out.
static int team_start(Team *team, World *w, int nthreads)
{
    memset(team, 0, sizeof *team);
    team->w = w;
    team->nthreads = nthreads;
    // a few chunks per thread: enough to even out, few enough to stay cheap
    team->nchunks = 8 * nthreads;
    pthread_mutex_init(&team->bar.mu, NULL);
    pthread_cond_init(&team->bar.cv, NULL);
    atomic_init(&team->bar.n, nthreads);
    atomic_init(&team->bar.arrived, 0);
    atomic_init(&team->bar.gen, 0u);
    atomic_init(&team->next_chunk, 0);
    const size_t ncells = (size_t)w->nc * (size_t)w->nc;
    team->counts = malloc((size_t)nthreads * ncells * sizeof(int));
    team->totals = malloc((size_t)nthreads * sizeof(int));
    team->chunks = malloc((size_t)(team->nchunks + 1) * sizeof(int));
    int started = 0;
    if (team->counts && team->totals && team->chunks) {
        for (; started < nthreads - 1; started++) {
            Member *m = &team->members[started];
            m->team = team;
            m->id = started + 1;
            if (pthread_create(&team->th[started], NULL, member_main, m) != 0) break;
        }
    }
    if (started == nthreads - 1) return 0;
    // the threads that did start wait at the start barrier: it now waits
    // for them and the caller only
    atomic_store(&team->bar.n, started + 1);
    team_stop(team, started);
    return -1;
}

// Untimed: the neighbour count of the final state needs a grid of the final
// positions, which the last tick did not build.
static double mean_neighbors(World *w)
{
    build_grid(w);
    const int nc = w->nc;
    double total = 0.0;
    for (int cy = 0; cy < nc; cy++) {
        for (int cx = 0; cx < nc; cx++) {
            const int c = cy * nc + cx;
            const int i0 = w->start[c], i1 = w->start[c + 1];
            if (i0 == i1) continue;
            Range r[6];
            const int nr = stencil(w, cx, cy, r);
            for (int i = i0; i < i1; i++) total += sums(w, r, nr, i, w->b.px[i], w->b.py[i]).n;
        }
    }
    return total / w->n;
}

static double mean_speed(const World *w)
{
    double total = 0.0;
    for (int i = 0; i < w->n; i++) total += sqrt((double)w->a.vx[i] * w->a.vx[i] + (double)w->a.vy[i] * w->a.vy[i]);
    return total / w->n;
}

// FNV-1a over the final state's bits, to show that the thread count
// changes none of them.
static uint64_t state_hash(const World *w)
{
    const float *f[6] = { w->a.px, w->a.py, w->a.vx, w->a.vy, w->a.tx, w->a.ty };
    uint64_t h = 14695981039346656037u;
    for (int k = 0; k < 6; k++) {
        const unsigned char *p = (const unsigned char *)f[k];
        for (size_t i = 0; i < (size_t)w->n * sizeof(float); i++) h = (h ^ p[i]) * 1099511628211u;
    }
    return h;
}

int fused_flock_run(int n, int ticks, int threads, fused_Stats *out)
{
    if (n < 1 || ticks < 0 || threads < 1 || threads > FUSED_MAX_THREADS || !out) return -1;
    World w;
    if (world_init(&w, n) != 0) return -1;
    // Allocated up front so nothing is allocated while timing.
    double *times = malloc((size_t)(ticks > 0 ? ticks : 1) * sizeof(double));
    Team *team = threads > 1 ? malloc(sizeof *team) : NULL;
    if (!times || (threads > 1 && (!team || team_start(team, &w, threads) != 0))) {
        free(team);
        free(times);
        world_free(&w);
        return -1;
    }

    for (int t = 0; t < WARMUP_TICKS; t++) team ? tick_team(team) : tick(&w);
    for (int t = 0; t < ticks; t++) {
        const double t0 = bench_now_ms();
        team ? tick_team(team) : tick(&w);
        times[t] = bench_now_ms() - t0;
    }
    if (team) {
        team_stop(team, threads - 1);
        free(team);
    }

    memset(out, 0, sizeof *out);
    if (ticks > 0) {
        qsort(times, (size_t)ticks, sizeof(double), bench_cmp_double);
        out->min_ms = times[0];
        out->max_ms = times[ticks - 1];
        out->median_ms = ticks % 2 ? times[ticks / 2] : 0.5 * (times[ticks / 2 - 1] + times[ticks / 2]);
    }
    out->mean_speed = mean_speed(&w);
    out->hash = state_hash(&w);
    out->mean_neighbors = mean_neighbors(&w);

    free(times);
    world_free(&w);
    return 0;
}
