// SPDX-License-Identifier: MIT
// predicates.c — exact orientation, in-circle and segment tests on integer
// points (the bound and the reasons: predicates.h).
//
// In-circle is the 3x3 determinant of the points translated by -d,
//   | adx ady adx^2+ady^2 |
//   | bdx bdy bdx^2+bdy^2 |
//   | cdx cdy cdx^2+cdy^2 |
// expanded along the last column: lift(a) * cross(b, c) + lift(b) *
// cross(c, a) + lift(c) * cross(a, b). With differences below 2^41 each
// lift and each cross is below 2^83 (an __int128) and each product below
// 2^166: the wide path multiplies the magnitudes into 256 bits, sums the
// positive and the negative terms apart (below 2^168 each, no overflow)
// and compares the two sums.
#include "predicates.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

bool steerN_coord_ok(const int64_t p[2])
{
    return p[0] >= -STEERN_COORD_MAX && p[0] <= STEERN_COORD_MAX && p[1] >= -STEERN_COORD_MAX &&
           p[1] <= STEERN_COORD_MAX;
}

static int sign128(i128 v) { return (v > 0) - (v < 0); }

int steerN_orient2d(const int64_t a[2], const int64_t b[2], const int64_t c[2])
{
    i128 l = (i128)(b[0] - a[0]) * (c[1] - a[1]);
    i128 r = (i128)(b[1] - a[1]) * (c[0] - a[0]);
    return (l > r) - (l < r);
}

// ---- 256-bit magnitudes ------------------------------------------------------------

typedef struct u256 {
    uint64_t w[4]; // least significant first
} u256;

static u256 mul128(u128 x, u128 y)
{
    uint64_t x0 = (uint64_t)x, x1 = (uint64_t)(x >> 64), y0 = (uint64_t)y, y1 = (uint64_t)(y >> 64);
    u128 p00 = (u128)x0 * y0, p01 = (u128)x0 * y1, p10 = (u128)x1 * y0, p11 = (u128)x1 * y1;
    u256 r;
    r.w[0] = (uint64_t)p00;
    u128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10; // < 3 * 2^64: no overflow
    r.w[1] = (uint64_t)mid;
    u128 hi = (mid >> 64) + (p01 >> 64) + (p10 >> 64) + (uint64_t)p11;
    r.w[2] = (uint64_t)hi;
    r.w[3] = (uint64_t)(hi >> 64) + (uint64_t)(p11 >> 64);
    return r;
}

static void add256(u256 *acc, u256 v)
{
    u128 carry = 0;
    for (int i = 0; i < 4; i++) {
        u128 s = (u128)acc->w[i] + v.w[i] + carry;
        acc->w[i] = (uint64_t)s;
        carry = s >> 64;
    }
}

static int cmp256(const u256 *a, const u256 *b)
{
    for (int i = 3; i >= 0; i--)
        if (a->w[i] != b->w[i]) return a->w[i] > b->w[i] ? 1 : -1;
    return 0;
}

// Adds |lift * cross| to pos or neg by the product's sign (lift >= 0).
static void add_term(u256 *pos, u256 *neg, i128 lift, i128 cross)
{
    if (lift == 0 || cross == 0) return;
    if (cross > 0) add256(pos, mul128((u128)lift, (u128)cross));
    else add256(neg, mul128((u128)lift, (u128)-cross));
}

static int64_t mag(int64_t v) { return v < 0 ? -v : v; }

int steerN_incircle(const int64_t a[2], const int64_t b[2], const int64_t c[2], const int64_t d[2])
{
    int64_t adx = a[0] - d[0], ady = a[1] - d[1];
    int64_t bdx = b[0] - d[0], bdy = b[1] - d[1];
    int64_t cdx = c[0] - d[0], cdy = c[1] - d[1];
    i128 alift = (i128)adx * adx + (i128)ady * ady;
    i128 blift = (i128)bdx * bdx + (i128)bdy * bdy;
    i128 clift = (i128)cdx * cdx + (i128)cdy * cdy;
    i128 bc = (i128)bdx * cdy - (i128)cdx * bdy;
    i128 ca = (i128)cdx * ady - (i128)adx * cdy;
    i128 ab = (i128)adx * bdy - (i128)bdx * ady;
    int64_t m = mag(adx) | mag(ady) | mag(bdx) | mag(bdy) | mag(cdx) | mag(cdy);
    if (m < ((int64_t)1 << 30)) return sign128(alift * bc + blift * ca + clift * ab);
    u256 pos = { { 0 } }, neg = { { 0 } };
    add_term(&pos, &neg, alift, bc);
    add_term(&pos, &neg, blift, ca);
    add_term(&pos, &neg, clift, ab);
    return cmp256(&pos, &neg);
}

// ---- segments ----------------------------------------------------------------------

// p within the bounding box of a-b (closed), for p collinear with a-b.
static bool in_box(const int64_t p[2], const int64_t a[2], const int64_t b[2])
{
    for (int k = 0; k < 2; k++) {
        int64_t lo = a[k] < b[k] ? a[k] : b[k], hi = a[k] < b[k] ? b[k] : a[k];
        if (p[k] < lo || p[k] > hi) return false;
    }
    return true;
}

static bool same(const int64_t p[2], const int64_t q[2]) { return p[0] == q[0] && p[1] == q[1]; }

bool steerN_on_segment(const int64_t p[2], const int64_t a[2], const int64_t b[2])
{
    return steerN_orient2d(a, b, p) == 0 && in_box(p, a, b) && !same(p, a) && !same(p, b);
}

steerN_Meet steerN_segments_meet(const int64_t a[2], const int64_t b[2], const int64_t c[2], const int64_t d[2])
{
    int o1 = steerN_orient2d(a, b, c), o2 = steerN_orient2d(a, b, d);
    int o3 = steerN_orient2d(c, d, a), o4 = steerN_orient2d(c, d, b);
    if (o1 == 0 && o2 == 0) { // collinear (or a degenerate segment)
        int n = in_box(c, a, b) + in_box(d, a, b) + in_box(a, c, d) + in_box(b, c, d);
        if (n == 0) return STEERN_APART;
        // one point in common exactly when they share an end and nothing else
        bool shared = same(a, c) || same(a, d) || same(b, c) || same(b, d);
        if (shared && n == 2 && !same(a, b) && !same(c, d)) return STEERN_TOUCH;
        if (same(a, b) || same(c, d)) return STEERN_TOUCH;
        return STEERN_OVERLAP;
    }
    if (o1 * o2 > 0 || o3 * o4 > 0) return STEERN_APART;
    if (o1 && o2 && o3 && o4) return STEERN_CROSS;
    return STEERN_TOUCH;
}
