// SPDX-License-Identifier: MIT
// test_group.c — formations (issue 35): the patterns (src/group/pattern.c)
// and slot assignment (src/group/assign.c).
//
// The patterns by their shapes: each slot where the pattern puts it, no
// two slots closer than the spacing allows, the width across the heading.
// Assignment against its definition, by brute force over every permutation for small
// groups: the least total distance (sum), the least longest distance and
// the least total among those (max); then what a player sees: the optimal
// total never has two members' ways crossing; more slots than members;
// the same answer for the same input, bit for bit; the greedy rule of
// gdx-ai is valid but longer; 100 and 500 members (bench/assign.c times them).
#include "check.h"
#include "group/assign.h"
#include "group/pattern.h"

#include <math.h>
#include <string.h>

#define MAXN 8

static double leg(const double *mx, const double *my, const double *sx, const double *sy, int i, int j)
{
    double dx = sx[j] - mx[i], dy = sy[j] - my[i];
    return sqrt(dx * dx + dy * dy);
}

// Every injective map of n members into m slots: the least sum, the least
// max and the least sum among those with the least max.
typedef struct Brute {
    double best_sum, best_max, sum_at_best_max;
} Brute;

static void brute_rec(int n, int m, const double *mx, const double *my, const double *sx, const double *sy, int i,
                      int *used, double sum, double mx_leg, Brute *b)
{
    if (i == n) {
        if (sum < b->best_sum) b->best_sum = sum;
        if (mx_leg < b->best_max - 1e-12 || (fabs(mx_leg - b->best_max) <= 1e-12 && sum < b->sum_at_best_max)) {
            if (mx_leg < b->best_max - 1e-12) b->best_max = mx_leg;
            b->sum_at_best_max = sum;
        }
        return;
    }
    for (int j = 0; j < m; j++) {
        if (used[j]) continue;
        used[j] = 1;
        double d = leg(mx, my, sx, sy, i, j);
        brute_rec(n, m, mx, my, sx, sy, i + 1, used, sum + d, d > mx_leg ? d : mx_leg, b);
        used[j] = 0;
    }
}

static void totals(int n, const double *mx, const double *my, const double *sx, const double *sy, const int *slot,
                   double *sum, double *longest)
{
    *sum = 0;
    *longest = 0;
    for (int i = 0; i < n; i++) {
        double d = leg(mx, my, sx, sy, i, slot[i]);
        *sum += d;
        if (d > *longest) *longest = d;
    }
}

static int distinct(int n, int m, const int *slot)
{
    int seen[1024] = { 0 };
    for (int i = 0; i < n; i++) {
        if (slot[i] < 0 || slot[i] >= m || seen[slot[i]]) return 0;
        seen[slot[i]] = 1;
    }
    return 1;
}

static void random_points(int k, double *x, double *y, double size, int grid)
{
    for (int i = 0; i < k; i++) {
        // on a coarse grid now and then, so there are ties
        x[i] = grid ? floor(test_uniform(0, 4)) : test_uniform(0, size);
        y[i] = grid ? floor(test_uniform(0, 4)) : test_uniform(0, size);
    }
}

static void test_brute_force(void)
{
    for (int round = 0; round < 400 && !FAILED(); round++) {
        int n = 1 + round % 7, m = n + (round / 7) % 3;
        double mx[MAXN + 2], my[MAXN + 2], sx[MAXN + 2], sy[MAXN + 2];
        random_points(n, mx, my, 20, round % 5 == 0);
        random_points(m, sx, sy, 20, round % 5 == 0);
        Brute b = { HUGE_VAL, HUGE_VAL, HUGE_VAL };
        int used[MAXN + 2] = { 0 };
        brute_rec(n, m, mx, my, sx, sy, 0, used, 0, 0, &b);
        int slot[MAXN + 2];
        double sum, longest;
        CHECK(steerU_assign(n, mx, my, m, sx, sy, STEERU_ASSIGN_SUM, slot) == 0, "assign");
        CHECK(distinct(n, m, slot), "round %d: a slot twice or out of range", round);
        totals(n, mx, my, sx, sy, slot, &sum, &longest);
        CHECK(sum <= b.best_sum + 1e-9, "round %d (n %d, m %d): sum %.12g, the least is %.12g", round, n, m, sum,
              b.best_sum);
        CHECK(steerU_assign(n, mx, my, m, sx, sy, STEERU_ASSIGN_MAX, slot) == 0, "assign max");
        CHECK(distinct(n, m, slot), "round %d: max: a slot twice or out of range", round);
        totals(n, mx, my, sx, sy, slot, &sum, &longest);
        CHECK(longest <= b.best_max + 1e-9, "round %d: longest %.12g, the least is %.12g", round, longest, b.best_max);
        CHECK(sum <= b.sum_at_best_max + 1e-9, "round %d: sum at the least longest %.12g, least %.12g", round, sum,
              b.sum_at_best_max);
    }
}

// Segments a-b and c-d cross at a point inside both (not at an end).
static int cross(double ax, double ay, double bx, double by, double cx, double cy, double dx, double dy)
{
    double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax), d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
    double d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx), d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
    return ((d1 > 1e-9 && d2 < -1e-9) || (d1 < -1e-9 && d2 > 1e-9)) &&
           ((d3 > 1e-9 && d4 < -1e-9) || (d3 < -1e-9 && d4 > 1e-9));
}

static int crossings(int n, const double *mx, const double *my, const double *sx, const double *sy, const int *slot)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            k += cross(mx[i], my[i], sx[slot[i]], sy[slot[i]], mx[j], my[j], sx[slot[j]], sy[slot[j]]);
    return k;
}

static void test_no_crossing_ways(void)
{
    // 60 members scattered over a field form a wedge-like set of slots
    // 30 m away: no two ways cross with the least total; the greedy rule
    // (each in turn takes its nearest free slot) crosses
    enum { N = 60 };
    double mx[N], my[N], sx[N], sy[N];
    int slot[N], greedy[N], greedy_crossings = 0;
    for (int round = 0; round < 10; round++) {
        for (int i = 0; i < N; i++) {
            mx[i] = test_uniform(0, 40);
            my[i] = test_uniform(0, 40);
            int row = (int)floor((sqrt(8.0 * i + 1) - 1) / 2), col = i - row * (row + 1) / 2;
            sx[i] = 70 + 2.0 * row;
            sy[i] = 20 + 2.0 * (col - row / 2.0);
        }
        CHECK(steerU_assign(N, mx, my, N, sx, sy, STEERU_ASSIGN_SUM, slot) == 0, "assign");
        CHECK(crossings(N, mx, my, sx, sy, slot) == 0, "round %d: %d ways cross with the least total", round,
              crossings(N, mx, my, sx, sy, slot));
        CHECK(steerU_assign_greedy(N, mx, my, N, sx, sy, greedy) == 0 && distinct(N, N, greedy), "greedy");
        double s_opt, l_opt, s_gr, l_gr;
        totals(N, mx, my, sx, sy, slot, &s_opt, &l_opt);
        totals(N, mx, my, sx, sy, greedy, &s_gr, &l_gr);
        CHECK(s_opt <= s_gr + 1e-9, "round %d: the least total %.6g over the greedy one's %.6g", round, s_opt, s_gr);
        greedy_crossings += crossings(N, mx, my, sx, sy, greedy);
    }
    CHECK(greedy_crossings > 0, "the greedy rule crossed no ways in 10 rounds (the comparison shows nothing)");
    printf("    10 rounds of 60: greedy %d crossing pairs, least total 0\n", greedy_crossings);
}

static void test_more_slots_and_edges(void)
{
    double mx[3] = { 0, 10, 20 }, my[3] = { 0, 0, 0 };
    double sx[5] = { 100, 19, 0.5, 9, -50 }, sy[5] = { 0, 1, 1, 1, 0 };
    int slot[3] = { -1, -1, -1 };
    CHECK(steerU_assign(3, mx, my, 5, sx, sy, STEERU_ASSIGN_SUM, slot) == 0, "assign");
    CHECK(slot[0] == 2 && slot[1] == 3 && slot[2] == 1, "the three near slots: got %d %d %d", slot[0], slot[1],
          slot[2]);
    CHECK(steerU_assign(0, mx, my, 5, sx, sy, STEERU_ASSIGN_SUM, slot) == 0, "nobody: nothing to do");
    CHECK(steerU_assign(3, mx, my, 2, sx, sy, STEERU_ASSIGN_SUM, slot) == -1, "more members than slots: refused");
    // all members on one point, all slots on one point: ties everywhere,
    // still a permutation, and the lower slots to the lower members
    double zx[4] = { 0 }, zy[4] = { 0 }, tx[4] = { 1, 1, 1, 1 }, ty[4] = { 0 };
    int s4[4];
    CHECK(steerU_assign(4, zx, zy, 4, tx, ty, STEERU_ASSIGN_MAX, s4) == 0 && distinct(4, 4, s4), "ties");
}

static void test_same_bits(void)
{
    enum { N = 80 };
    double mx[N], my[N], sx[N], sy[N];
    random_points(N, mx, my, 50, 0);
    random_points(N, sx, sy, 50, 0);
    int a[N], b[N];
    for (int mode = 0; mode < 2; mode++) {
        CHECK(steerU_assign(N, mx, my, N, sx, sy, (SteerUAssignMode)mode, a) == 0, "assign");
        CHECK(steerU_assign(N, mx, my, N, sx, sy, (SteerUAssignMode)mode, b) == 0, "assign again");
        CHECK(memcmp(a, b, sizeof a) == 0, "mode %d: another answer for the same input", mode);
    }
}

// n members in a 100 m square, the slots a box 2 m apart 150 m away (the
// layout bench/assign.c times): every rule gives each member its own
// slot; the least total is no longer than the greedy rule's, the least
// longest no longer than either's longest.
static void large(int n)
{
    double *v = malloc(sizeof *v * 4 * (size_t)n);
    int *slot = malloc(sizeof *slot * (size_t)n);
    if (!v || !slot) {
        CHECK(0, "out of memory");
        free(v);
        free(slot);
        return;
    }
    double *mx = v, *my = v + n, *sx = v + 2 * n, *sy = v + 3 * n;
    random_points(n, mx, my, 100, 0);
    for (int i = 0; i < n; i++) {
        int side = (int)ceil(sqrt((double)n));
        sx[i] = 150 + 2.0 * (i % side);
        sy[i] = 2.0 * (i / side);
    }
    const char *names[3] = { "sum", "max", "greedy" };
    double sum[3], longest[3];
    for (int mode = 0; mode < 3; mode++) {
        int rc = mode == 2 ? steerU_assign_greedy(n, mx, my, n, sx, sy, slot)
                           : steerU_assign(n, mx, my, n, sx, sy, (SteerUAssignMode)mode, slot);
        CHECK(rc == 0 && distinct(n, n, slot), "%d members, %s", n, names[mode]);
        totals(n, mx, my, sx, sy, slot, &sum[mode], &longest[mode]);
    }
    CHECK(sum[0] <= sum[2] + 1e-9, "%d members: the least total %.6g over the greedy one's %.6g", n, sum[0], sum[2]);
    CHECK(longest[1] <= longest[0] + 1e-9 && longest[1] <= longest[2] + 1e-9,
          "%d members: the least longest %.6g over sum's %.6g or greedy's %.6g", n, longest[1], longest[0], longest[2]);
    free(v);
    free(slot);
}

#define NEAR(a, b) (fabsf((a) - (b)) < 1e-5f)

static void test_patterns(void)
{
    float x[64], y[64];
    steerU_pattern_offsets(STEERU_LINE, 5, 2, x, y);
    for (int i = 0; i < 5; i++) CHECK(NEAR(x[i], 0) && NEAR(y[i], 4 - 2 * i), "line %d: (%g, %g)", i, x[i], y[i]);
    CHECK(NEAR(steerU_pattern_width(STEERU_LINE, 5, 2), 10), "line width");
    steerU_pattern_offsets(STEERU_COLUMN, 3, 2, x, y);
    for (int i = 0; i < 3; i++) CHECK(NEAR(x[i], -2 * i) && NEAR(y[i], 0), "column %d: (%g, %g)", i, x[i], y[i]);
    CHECK(NEAR(steerU_pattern_width(STEERU_COLUMN, 30, 2), 2), "a column is one spacing wide");
    steerU_pattern_offsets(STEERU_VEE, 5, 2, x, y);
    const float vx[5] = { 0, -2, -2, -4, -4 }, vy[5] = { 0, 2, -2, 4, -4 };
    for (int i = 0; i < 5; i++) CHECK(NEAR(x[i], vx[i]) && NEAR(y[i], vy[i]), "vee %d: (%g, %g)", i, x[i], y[i]);
    CHECK(NEAR(steerU_pattern_width(STEERU_VEE, 5, 2), 10), "vee width");
    // a wedge of 5: rows of 1, 2 and then 2 in the middle of a row of 3 (the odd place to the right, empty)
    steerU_pattern_offsets(STEERU_WEDGE, 5, 2, x, y);
    const float h = 2 * 0.8660254f, wx[5] = { 0, -h, -h, -2 * h, -2 * h }, wy[5] = { 0, 1, -1, 2, 0 };
    for (int i = 0; i < 5; i++) CHECK(NEAR(x[i], wx[i]) && NEAR(y[i], wy[i]), "wedge %d: (%g, %g)", i, x[i], y[i]);
    // 40 members: 8 full rows (36) and 4 in the ninth; 16 m across, 13.9 m deep at spacing 2 (the V: 78 m, 40 m)
    steerU_pattern_offsets(STEERU_WEDGE, 40, 2, x, y);
    CHECK(NEAR(steerU_pattern_width(STEERU_WEDGE, 40, 2), 16) && NEAR(x[39], -8 * h) && NEAR(x[35], -7 * h),
          "a wedge of 40: %g wide, the last row at %g", steerU_pattern_width(STEERU_WEDGE, 40, 2), x[39]);
    CHECK(NEAR(steerU_pattern_width(STEERU_VEE, 40, 2), 80), "a vee of 40 is 80 m wide");
    steerU_pattern_offsets(STEERU_BOX, 10, 2, x, y); // rows of 4, 4, 2
    const float bx[10] = { 0, 0, 0, 0, -2, -2, -2, -2, -4, -4 }, by[10] = { 3, 1, -1, -3, 3, 1, -1, -3, 1, -1 };
    for (int i = 0; i < 10; i++) CHECK(NEAR(x[i], bx[i]) && NEAR(y[i], by[i]), "box %d: (%g, %g)", i, x[i], y[i]);
    steerU_pattern_offsets(STEERU_CIRCLE, 8, 1, x, y);
    float r = 1 / (2 * sinf(3.14159265f / 8)); // neighbours 1 apart
    for (int i = 0; i < 8; i++) CHECK(fabsf(sqrtf(x[i] * x[i] + y[i] * y[i]) - r) < 1e-5f, "circle %d off", i);
    CHECK(NEAR(x[0], r) && NEAR(y[0], 0) && y[2] > 0.99f * r, "the first ahead, then counter-clockwise");
    steerU_pattern_offsets(STEERU_CIRCLE, 1, 1, x, y);
    CHECK(x[0] == 0 && y[0] == 0, "one member stands on the anchor");
    // every pattern, 1..64 members: no two slots nearer than the spacing
    for (int p = 0; p < STEERU_PATTERN_COUNT; p++) {
        for (int n = 1; n <= 64 && !FAILED(); n++) {
            steerU_pattern_offsets((SteerUPattern)p, n, 1.5f, x, y);
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++) {
                    float d = sqrtf((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j]));
                    CHECK(d >= 0.9999f * 1.5f, "%s of %d: slots %d and %d %g apart", steerU_pattern_name(p), n, i, j,
                          d);
                }
        }
        CHECK(steerU_pattern_find(steerU_pattern_name((SteerUPattern)p)) == p, "name %d", p);
    }
    CHECK(steerU_pattern_find("diamond") == -1 && steerU_pattern_name(STEERU_PATTERN_COUNT) == NULL, "no such");
}

static void test_100_members(void) { large(100); }
static void test_500_members(void) { large(500); }

int main(void)
{
    RUN(test_patterns);
    RUN(test_brute_force);
    RUN(test_no_crossing_ways);
    RUN(test_more_slots_and_edges);
    RUN(test_same_bits);
    RUN(test_100_members);
    if (!getenv("ASSIGN_QUICK")) RUN(test_500_members);
    return check_report_("group");
}
