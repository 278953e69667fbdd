// SPDX-License-Identifier: MIT
// assign.c — steer-bench-assign: a formation's slot assignment (issue 35,
// src/group/assign.c) beside gdx-ai's greedy rule (each member in turn,
// least easy first, takes its nearest free slot; steerU_assign_greedy).
//
// n members at random in a 100 m square (xorshift32, seed 35), the slots
// a box 2 m apart 150 m away (the same layout tests/c/test_group.c used to
// time). For 100 and 500 members and each rule: the total and the longest
// distance, the pairs of members whose straight ways cross, and the
// median milliseconds of `runs` assignments. A markdown table on stdout
// (docs/benchmarks.md).
//   steer-bench-assign [RUNS]   (default 5)
#include "timing.h"
#include "xorshift.h"
#include "../src/group/assign.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int cross(double ax, double ay, double bx, double by, double cx, double cy, double dx, double dy)
{
    double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax), d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
    double d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx), d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
    return ((d1 > 1e-9 && d2 < -1e-9) || (d1 < -1e-9 && d2 > 1e-9)) &&
           ((d3 > 1e-9 && d4 < -1e-9) || (d3 < -1e-9 && d4 > 1e-9));
}

static void row(int n, int mode, int runs, const double *mx, const double *my, const double *sx, const double *sy,
                int *slot, double *ms)
{
    static const char *const names[3] = { "sum", "max", "greedy" };
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now_ms();
        int rc = mode == 2 ? steerU_assign_greedy(n, mx, my, n, sx, sy, slot)
                           : steerU_assign(n, mx, my, n, sx, sy, (SteerUAssignMode)mode, slot);
        ms[r] = bench_now_ms() - t0;
        if (rc != 0) {
            fprintf(stderr, "steer-bench-assign: %d members, %s: out of memory\n", n, names[mode]);
            exit(1);
        }
    }
    double total = 0, longest = 0;
    for (int i = 0; i < n; i++) {
        double d = hypot(sx[slot[i]] - mx[i], sy[slot[i]] - my[i]);
        total += d;
        if (d > longest) longest = d;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            k += cross(mx[i], my[i], sx[slot[i]], sy[slot[i]], mx[j], my[j], sx[slot[j]], sy[slot[j]]);
    printf("| %d | %s | %.1f | %.2f | %d | %.2f |\n", n, names[mode], total, longest, k, bench_median(ms, runs));
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    if (runs < 1 || runs > 1000) {
        fprintf(stderr, "usage: steer-bench-assign [RUNS 1-1000]\n");
        return 2;
    }
    printf("| members | rule | total m | longest m | crossing pairs | ms (median of %d) |\n", runs);
    printf("|---|---|---|---|---|---|\n");
    static const int sizes[2] = { 100, 500 };
    for (int s = 0; s < 2; s++) {
        int n = sizes[s];
        double *v = malloc(sizeof *v * 4 * (size_t)n), *ms = malloc(sizeof *ms * (size_t)runs);
        int *slot = malloc(sizeof *slot * (size_t)n);
        if (!v || !ms || !slot) {
            fprintf(stderr, "steer-bench-assign: out of memory\n");
            return 1;
        }
        double *mx = v, *my = v + n, *sx = v + 2 * n, *sy = v + 3 * n;
        uint32_t seed = 35;
        int side = (int)ceil(sqrt((double)n));
        for (int i = 0; i < n; i++) {
            mx[i] = 100 * bench_unit(&seed);
            my[i] = 100 * bench_unit(&seed);
            sx[i] = 150 + 2.0 * (i % side); // a box, 2 m apart, 150 m away
            sy[i] = 2.0 * (i / side);
        }
        for (int mode = 0; mode < 3; mode++) row(n, mode, runs, mx, my, sx, sy, slot, ms);
        free(v);
        free(ms);
        free(slot);
    }
    return 0;
}
