// SPDX-License-Identifier: MIT
// nav_levels.c — the navigation mesh benchmark's levels (see nav_levels.h).
// Plain C99 that also compiles as C++ (the Detour peer builds it with gcc
// and links it from C++), with its own PRNG, so every harness builds the
// same levels bit for bit.
//
// Random numbers: xorshift32 as docs/benchmarks.md has it (x ^= x << 13;
// x ^= x >> 17; x ^= x << 5), a uniform draw u = (x >> 8) / 2^24. Boxes from
// seed 12345, query pairs from seed 54321, one stream per level.
//
// city, large: square of side L (200 m, 1000 m) with B boxes (500, 5,000).
// Box i, in this order from the stream: width 2 + 8u, height 2 + 8u, then
// its lower-left corner x0 = u (L - width), y0 = u (L - height), every
// figure rounded to the millimetre (so every box lies inside the square;
// boxes overlap where they fall on each other, and some pockets between
// them are closed off).
//
// rooms: 100 m x 60 m. Corridors 3 m between wall centre lines (2.8 m
// clear): two across (y = 20, 40) and three along (x = 25, 50, 75), cutting
// the floor into 4 x 3 blocks. Each block is three rooms side by side (the
// middle row of blocks: two rows of three, back to back, the wall between
// them solid). Walls are boxes 0.2 m thick centred on their lines. Each
// room has one door onto the corridor across (y) in the middle of its
// corridor wall: 2 m and 1 m wide in turn, counting rooms block by block,
// row by row; neighbouring rooms of a row share a 1 m door in the middle of
// their wall; walls onto the corridors along (x) are solid. The office's
// outer walls are the outline itself. So at radius 0.5 m (1 m across) every
// door is exactly as wide as the agent: a path exists, with no room to
// spare.
//
// Query pairs: 10,000 per level, from x = u w, y = u h (rounded to the
// millimetre) for the start then the goal, a point redrawn while it falls
// inside or on a box (nav_level_blocked).
#include "nav_levels.h"
#include "xorshift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const nav_level_names[] = { "city", "rooms", "large", NULL };

static double mm(double x) { return floor(x * 1000.0 + 0.5) / 1000.0; }

// A growing list of boxes.
typedef struct Boxes {
    double *v;
    int n, cap;
} Boxes;

static int box_add(Boxes *b, double x0, double y0, double x1, double y1)
{
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 64;
        double *v = (double *)realloc(b->v, sizeof *v * 4 * (size_t)cap);
        if (!v) return -1;
        b->v = v;
        b->cap = cap;
    }
    double *o = b->v + 4 * b->n++;
    o[0] = x0;
    o[1] = y0;
    o[2] = x1;
    o[3] = y1;
    return 0;
}

static int random_boxes(Boxes *b, double side, int count)
{
    uint32_t s = 12345;
    for (int i = 0; i < count; i++) {
        double w = mm(2.0 + 8.0 * bench_unit(&s)), h = mm(2.0 + 8.0 * bench_unit(&s));
        double x0 = mm(bench_unit(&s) * (side - w)), y0 = mm(bench_unit(&s) * (side - h));
        if (box_add(b, x0, y0, x0 + w, y0 + h)) return -1;
    }
    return 0;
}

// The office's figures, in millimetres.
enum { OFFICE_W = 100000, OFFICE_H = 60000, WALL = 200, DOOR_SMALL = 1000, DOOR_BIG = 2000 };

// A wall on a line (across: y = c from a to b; else x = c) with a door of
// width door centred at d (door 0: solid), as boxes WALL thick.
static int wall(Boxes *b, int across, int c, int a, int e, int d, int door)
{
    int spans[2][2] = { { a, e }, { 0, 0 } }, n = 1;
    if (door > 0) {
        spans[0][1] = d - door / 2;
        spans[1][0] = d + door / 2;
        spans[1][1] = e;
        n = 2;
    }
    for (int k = 0; k < n; k++) {
        double lo = spans[k][0] / 1000.0, hi = spans[k][1] / 1000.0;
        double c0 = (c - WALL / 2) / 1000.0, c1 = (c + WALL / 2) / 1000.0;
        if (across ? box_add(b, lo, c0, hi, c1) : box_add(b, c0, lo, c1, hi)) return -1;
    }
    return 0;
}

static int office(Boxes *b)
{
    static const int bx[4][2] = { { 0, 23500 }, { 26500, 48500 }, { 51500, 73500 }, { 76500, OFFICE_W } };
    static const int by[3][2] = { { 0, 18500 }, { 21500, 38500 }, { 41500, OFFICE_H } };
    int doors = 0;
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 4; i++) {
            int x0 = bx[i][0], x1 = bx[i][1], y0 = by[j][0], y1 = by[j][1], ym = (y0 + y1) / 2;
            int rows = j == 1 ? 2 : 1;
            int xs[4] = { x0, x0 + (x1 - x0) / 3, x0 + 2 * (x1 - x0) / 3, x1 };
            // the walls onto the corridors along: solid
            if (x0 > 0 && wall(b, 0, x0, y0, y1, 0, 0)) return -1;
            if (x1 < OFFICE_W && wall(b, 0, x1, y0, y1, 0, 0)) return -1;
            if (rows == 2 && wall(b, 1, ym, x0, x1, 0, 0)) return -1; // back to back
            for (int r = 0; r < rows; r++) {
                // the row's corridor: below it (y0) or above it (y1)
                int below = rows == 2 ? r == 0 : y0 > 0;
                int ry0 = rows == 2 && r == 1 ? ym : y0, ry1 = rows == 2 && r == 0 ? ym : y1;
                for (int c = 0; c < 3; c++) {
                    int door = doors++ % 2 ? DOOR_SMALL : DOOR_BIG;
                    if (wall(b, 1, below ? y0 : y1, xs[c], xs[c + 1], (xs[c] + xs[c + 1]) / 2, door)) return -1;
                    if (c > 0 && wall(b, 0, xs[c], ry0, ry1, (ry0 + ry1) / 2, DOOR_SMALL)) return -1;
                }
            }
        }
    }
    return 0;
}

int nav_level_blocked(const NavLevel *l, double x, double y)
{
    for (int i = 0; i < l->nbox; i++) {
        const double *o = l->box + 4 * i;
        if (x >= o[0] && x <= o[2] && y >= o[1] && y <= o[3]) return 1;
    }
    return 0;
}

static int rings(NavLevel *l)
{
    l->nrings = 1 + (uint32_t)l->nbox;
    l->npoints = 4 * l->nrings;
    l->xy = (double *)malloc(sizeof *l->xy * 2 * l->npoints);
    l->ring_end = (uint32_t *)malloc(sizeof *l->ring_end * l->nrings);
    l->ring_role = (int32_t *)malloc(sizeof *l->ring_role * l->nrings);
    if (!l->xy || !l->ring_end || !l->ring_role) return -1;
    for (uint32_t k = 0; k < l->nrings; k++) {
        double x0 = 0, y0 = 0, x1 = l->w, y1 = l->h;
        if (k > 0) {
            const double *o = l->box + 4 * (k - 1);
            x0 = o[0], y0 = o[1], x1 = o[2], y1 = o[3];
        }
        double ring[8] = { x0, y0, x1, y0, x1, y1, x0, y1 }; // counter-clockwise
        memcpy(l->xy + 8 * k, ring, sizeof ring);
        l->ring_end[k] = 4 * (k + 1);
        l->ring_role[k] = k ? NAV_RING_OBSTACLE : NAV_RING_OUTLINE;
    }
    return 0;
}

static void pairs(NavLevel *l)
{
    uint32_t s = 54321;
    for (int i = 0; i < 2 * l->npairs; i++) {
        double x, y;
        do {
            x = mm(bench_unit(&s) * l->w);
            y = mm(bench_unit(&s) * l->h);
        } while (nav_level_blocked(l, x, y));
        l->pairs[2 * i] = x;
        l->pairs[2 * i + 1] = y;
    }
}

int nav_level_make(const char *name, NavLevel *out)
{
    memset(out, 0, sizeof *out);
    Boxes b = { NULL, 0, 0 };
    int bad;
    if (!strcmp(name, "city")) {
        out->w = out->h = 200;
        bad = random_boxes(&b, 200, 500);
    } else if (!strcmp(name, "large")) {
        out->w = out->h = 1000;
        bad = random_boxes(&b, 1000, 5000);
    } else if (!strcmp(name, "rooms")) {
        out->w = OFFICE_W / 1000.0;
        out->h = OFFICE_H / 1000.0;
        bad = office(&b);
    } else {
        return -1;
    }
    strncpy(out->name, name, sizeof out->name - 1);
    out->box = b.v;
    out->nbox = b.n;
    out->npairs = NAV_LEVEL_PAIRS;
    out->pairs = (double *)malloc(sizeof *out->pairs * 4 * (size_t)out->npairs);
    if (bad || !out->pairs || rings(out)) {
        nav_level_free(out);
        return -1;
    }
    pairs(out);
    return 0;
}

void nav_level_free(NavLevel *l)
{
    free(l->box);
    free(l->pairs);
    free(l->xy);
    free(l->ring_end);
    free(l->ring_role);
    memset(l, 0, sizeof *l);
}
