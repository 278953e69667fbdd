// SPDX-License-Identifier: MIT
// test_orca_lp.c — ORCA's linear program (steerB_orca_solve and its
// weighted form, src/behaviors/orca_lp.c) against an exact reference in double, on
// thousands of random 2D and 3D programs, plus hand cases with known
// answers and the degenerate inputs a crowd produces (duplicate and
// opposite half-spaces, boundaries that miss the speed disc, a zero speed
// limit or preferred velocity, extreme magnitudes).
//
// The reference enumerates the candidate optima: the nearest point to the
// target on every flat cut by up to `dim` boundaries, and on every circle
// (or pair of points) where up to dim - 1 boundaries cut the speed sphere;
// the nearest one that lies in every half-space and the ball is the
// optimum, and there is none when the set is empty. The smallest largest
// violation of an infeasible program is the smallest slack t for which
// the soft half-spaces moved out by t leave a point, found by bisection on
// that emptiness test. Programs within a hair of changing their kind
// (feasible or not, hard ones feasible or not) are left out: rounding may
// put them on either side, and both answers are right.
#include "behaviors/orca.h"
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#define MAXH 12

typedef struct Problem {
    int dim, n, hard;
    float r;
    float pref[3];
    steerB_Plane pl[STEERB_ORCA_MAX];
} Problem;

static int solve(const Problem *p, float out[3])
{
    return steerB_orca_solve(p->pl, p->n, p->hard, p->r, p->pref, p->dim, out);
}

static double lenf(const float v[3]) { return sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]); }
static bool finite3(const float v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

// --- the reference, in double ---

typedef struct RHalf {
    double n[3], d; // n.v >= d, n unit
} RHalf;

typedef struct Ref {
    int dim, n;
    double r, q[3];
    RHalf h[STEERB_ORCA_MAX];
    double shift[STEERB_ORCA_MAX]; // half-space k is n.v >= d - shift[k]
    bool found;
    double best[3], best_dist;
} Ref;

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void to_ref(const Problem *p, Ref *R)
{
    memset(R, 0, sizeof *R);
    R->dim = p->dim;
    R->n = p->n;
    R->r = p->r > 0 ? p->r : 0;
    for (int a = 0; a < p->dim; a++) R->q[a] = p->pref[a];
    for (int k = 0; k < p->n; k++) {
        double len = 0;
        for (int a = 0; a < p->dim; a++) len += (double)p->pl[k].n[a] * p->pl[k].n[a];
        len = sqrt(len);
        for (int a = 0; a < p->dim; a++) R->h[k].n[a] = p->pl[k].n[a] / len;
        for (int a = 0; a < p->dim; a++) R->h[k].d += p->pl[k].p[a] * R->h[k].n[a];
    }
}

// By how much v misses half-space k (<= 0 inside), in the problem's terms.
static double miss(const Ref *R, int k, const double v[3]) { return R->h[k].d - dot(R->h[k].n, v); }

// The point of the flat where the boundaries of half-spaces idx[0..k-1]
// meet that is nearest q; false when they do not meet in a flat of
// dimension dim - k.
static bool flat_nearest(const Ref *R, const int *idx, int k, const double q[3], double x[3])
{
    double G[3][4];
    for (int i = 0; i < k; i++) {
        const RHalf *hi = &R->h[idx[i]];
        for (int j = 0; j < k; j++) G[i][j] = dot(hi->n, R->h[idx[j]].n);
        G[i][k] = hi->d - R->shift[idx[i]] - dot(hi->n, q);
    }
    for (int c = 0; c < k; c++) { // Gauss-Jordan with partial pivoting
        int piv = c;
        for (int i = c + 1; i < k; i++)
            if (fabs(G[i][c]) > fabs(G[piv][c])) piv = i;
        if (fabs(G[piv][c]) < 1e-9) return false;
        for (int j = 0; j <= k; j++) {
            double t = G[c][j];
            G[c][j] = G[piv][j];
            G[piv][j] = t;
        }
        for (int i = 0; i < k; i++) {
            if (i == c) continue;
            double f = G[i][c] / G[c][c];
            for (int j = c; j <= k; j++) G[i][j] -= f * G[c][j];
        }
    }
    memcpy(x, q, 3 * sizeof *x);
    for (int i = 0; i < k; i++)
        for (int a = 0; a < 3; a++) x[a] += G[i][k] / G[i][i] * R->h[idx[i]].n[a];
    return true;
}

static void candidate(Ref *R, const double x[3])
{
    double scale = 1 + R->r;
    if (dot(x, x) > R->r * R->r + 1e-9 * scale * scale) return;
    for (int k = 0; k < R->n; k++)
        if (miss(R, k, x) - R->shift[k] > 1e-9 * scale) return;
    double e[3] = { x[0] - R->q[0], x[1] - R->q[1], x[2] - R->q[2] };
    double dist = sqrt(dot(e, e));
    if (!R->found || dist < R->best_dist) {
        R->found = true;
        R->best_dist = dist;
        memcpy(R->best, x, sizeof R->best);
    }
}

static void try_subset(Ref *R, const int *idx, int k)
{
    double x[3], c[3], qf[3];
    const double zero[3] = { 0, 0, 0 };
    if (flat_nearest(R, idx, k, R->q, x)) candidate(R, x);
    if (k > R->dim - 1 || !flat_nearest(R, idx, k, zero, c)) return;
    double rho2 = R->r * R->r - dot(c, c);
    if (rho2 < 0) return;
    double rho = sqrt(rho2), u[3] = { 0, 0, 0 };
    if (k == R->dim - 1 && k > 0) { // a line: both of its points on the sphere
        const double *a = R->h[idx[0]].n;
        if (k == 1) {
            u[0] = -a[1];
            u[1] = a[0];
        } else {
            const double *b = R->h[idx[1]].n;
            u[0] = a[1] * b[2] - a[2] * b[1];
            u[1] = a[2] * b[0] - a[0] * b[2];
            u[2] = a[0] * b[1] - a[1] * b[0];
        }
        double l = sqrt(dot(u, u));
        for (int s = -1; s <= 1; s += 2) {
            for (int a2 = 0; a2 < 3; a2++) x[a2] = c[a2] + s * rho * u[a2] / l;
            candidate(R, x);
        }
        return;
    }
    flat_nearest(R, idx, k, R->q, qf); // a circle (a sphere for k = 0): its point nearest q
    double e[3] = { qf[0] - c[0], qf[1] - c[1], qf[2] - c[2] }, l = sqrt(dot(e, e));
    if (l < 1e-12) return;
    for (int a = 0; a < 3; a++) x[a] = c[a] + rho * e[a] / l;
    candidate(R, x);
}

// The nearest point to R->q of the ball and the (shifted) half-spaces:
// R->found, R->best, R->best_dist.
static void ref_nearest(Ref *R)
{
    int idx[3], n = R->n;
    R->found = false;
    try_subset(R, idx, 0);
    for (idx[0] = 0; idx[0] < n; idx[0]++) {
        try_subset(R, idx, 1);
        for (idx[1] = idx[0] + 1; idx[1] < n; idx[1]++) {
            try_subset(R, idx, 2);
            if (R->dim < 3) continue;
            for (idx[2] = idx[1] + 1; idx[2] < n; idx[2]++) try_subset(R, idx, 3);
        }
    }
}

// Whether some point of the ball is in half-spaces [0, hard) moved out by
// hard_shift and the others moved out by soft_shift (R->n is kept).
static bool ref_feasible(Ref *R, int hard, double hard_shift, double soft_shift)
{
    for (int k = 0; k < R->n; k++) R->shift[k] = k < hard ? hard_shift : soft_shift;
    ref_nearest(R);
    return R->found;
}

// Whether the first `hard` half-spaces moved out by `shift` leave some point of the ball.
static bool ref_hard_feasible(Ref *R, int hard, double shift)
{
    int n = R->n;
    R->n = hard;
    bool found = ref_feasible(R, hard, shift, 0);
    R->n = n;
    return found;
}

// The smallest largest violation of the soft half-spaces over the points of
// the ball that keep the first `hard` (which must leave some).
static double ref_least_violation(Ref *R, int hard)
{
    if (ref_feasible(R, hard, 0, 0)) return 0;
    double lo = 0, hi = 0;
    for (int k = hard; k < R->n; k++) hi = fmax(hi, R->h[k].d + R->r);
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi);
        if (ref_feasible(R, hard, 0, mid)) hi = mid;
        else lo = mid;
    }
    return hi;
}

// --- random programs ---

static void random_unit(double u[3], int dim)
{
    double l2;
    do {
        for (int a = 0; a < 3; a++) u[a] = a < dim ? test_uniform(-1, 1) : 0;
        l2 = dot(u, u);
    } while (l2 < 0.01 || l2 > 1);
    for (int a = 0; a < 3; a++) u[a] /= sqrt(l2);
}

// A boundary at a random distance from the origin (most cut the disc, some
// miss it on either side), its point p anywhere along it.
static void random_plane(steerB_Plane *pl, int dim, double r)
{
    double n[3], t[3], d = test_uniform(-1.5 * r, 0.9 * r);
    random_unit(n, dim);
    random_unit(t, dim);
    double along = dot(n, t);
    for (int a = 0; a < 3; a++) {
        pl->n[a] = (float)n[a];
        pl->p[a] = (float)(n[a] * d + (t[a] - n[a] * along) * test_uniform(-2 * r, 2 * r));
    }
}

// Half of the boundaries (when `alike`) are near copies of an earlier
// one: the same normal or turned by 1e-4 to 1e-2 radians, the offset
// moved by up to 1% of max_speed. A crowd makes those: neighbours side by
// side, a wall seen twice.
static void make_alike(steerB_Plane *pl, const steerB_Plane *of, int dim, double r)
{
    double n[3], t[3], turn = test_rand64() % 4 ? pow(10, test_uniform(-4, -2)) : 0, l = 0, d = 0;
    random_unit(t, dim);
    for (int a = 0; a < 3; a++) n[a] = of->n[a] + turn * t[a];
    for (int a = 0; a < 3; a++) l += n[a] * n[a];
    for (int a = 0; a < 3; a++) d += of->p[a] * of->n[a];
    d += test_uniform(-0.01, 0.01) * r;
    for (int a = 0; a < 3; a++) {
        pl->n[a] = (float)(n[a] / sqrt(l));
        pl->p[a] = (float)(n[a] / sqrt(l) * d);
    }
}

static void random_problem_of(Problem *p, int dim, bool alike)
{
    memset(p, 0, sizeof *p);
    p->dim = dim;
    p->r = (float)test_uniform(0.5, 3);
    p->n = (int)(test_rand64() % (dim == 2 ? 11 : 9));
    p->hard = p->n ? (int)(test_rand64() % (unsigned)(p->n < 3 ? p->n + 1 : 4)) : 0;
    for (int k = 0; k < p->n; k++) {
        if (alike && k > 0 && test_rand64() % 2) make_alike(&p->pl[k], &p->pl[test_rand64() % (unsigned)k], dim, p->r);
        else random_plane(&p->pl[k], dim, p->r);
    }
    bool still = test_rand64() % 10 == 0;
    for (int a = 0; a < dim; a++) p->pref[a] = still ? 0.0f : (float)test_uniform(-2 * p->r, 2 * p->r);
}

typedef struct Tally {
    int feasible, infeasible, hard_dropped, left_out;
    double dist_err, viol_err, least_err; // the worst seen
} Tally;

// Solve one random program and compare with the reference.
static void check_random(const Problem *p, Tally *t)
{
    float out[3];
    int ret = solve(p, out);
    double v[3] = { out[0], out[1], out[2] }, scale = p->r + lenf(p->pref);
    double tol = 3e-5 * scale, hair = 1e-3 * p->r;
    CHECK(finite3(out) && lenf(out) <= p->r * (1 + 1e-5f), "out (%g %g %g) beyond max_speed %g", v[0], v[1], v[2],
          (double)p->r);
    if (p->dim == 2) CHECK(out[2] == 0.0f, "2D: out[2] = %g", v[2]);

    Ref R;
    to_ref(p, &R);
    int hard;
    if (ref_hard_feasible(&R, p->hard, -hair)) hard = p->hard;
    else if (!ref_hard_feasible(&R, p->hard, hair)) hard = 0;
    else {
        t->left_out++;
        return;
    }
    double least = ref_least_violation(&R, hard), worst_soft = 0, worst_hard = 0;
    // two loops, not one with a branch: Debian 12's aarch64 gcc 12 crashes
    // vectorising that one at -O3 ("internal compiler error in
    // vect_transform_reduction")
    for (int k = 0; k < hard; k++) worst_hard = fmax(worst_hard, miss(&R, k, v));
    for (int k = hard; k < p->n; k++) worst_soft = fmax(worst_soft, miss(&R, k, v));
    if (least == 0 && ref_feasible(&R, p->n, -hair, -hair)) {
        t->feasible++;
        for (int k = 0; k < p->n; k++) R.shift[k] = 0;
        ref_nearest(&R);
        double e[3] = { v[0] - R.q[0], v[1] - R.q[1], v[2] - R.q[2] }, dist = sqrt(dot(e, e));
        double viol = fmax(worst_hard, worst_soft);
        t->dist_err = fmax(t->dist_err, fabs(dist - R.best_dist) / scale);
        t->viol_err = fmax(t->viol_err, viol / scale);
        CHECK(viol <= tol, "feasible %dD program (n %d): out misses a half-space by %g", p->dim, p->n, viol);
        CHECK(fabs(dist - R.best_dist) <= tol, "%dD (n %d, hard %d): |out - pref| %.9g, optimum %.9g at (%g %g %g)",
              p->dim, p->n, p->hard, dist, R.best_dist, R.best[0], R.best[1], R.best[2]);
        CHECK(ret == 0, "feasible program: %d violated", ret);
    } else if (least > hair) {
        t->infeasible++;
        t->hard_dropped += hard < p->hard;
        t->viol_err = fmax(t->viol_err, worst_hard / scale);
        t->least_err = fmax(t->least_err, fabs(worst_soft - least) / scale);
        CHECK(worst_hard <= tol, "%dD: a hard half-space missed by %g", p->dim, worst_hard);
        CHECK(fabs(worst_soft - least) <= tol, "%dD (n %d, hard %d of %d): largest violation %.9g, least %.9g", p->dim,
              p->n, hard, p->hard, worst_soft, least);
        int above = 0, near = 0;
        for (int k = hard; k < p->n; k++) {
            double m = miss(&R, k, v);
            above += m > 1e-4 + 1e-6;
            near += fabs(m - 1e-4) <= 1e-6;
        }
        CHECK(ret >= above && ret <= above + near, "%d reported violated, %d are", ret, above);
    } else {
        t->left_out++;
    }
}

static void random_problem(Problem *p, int dim) { random_problem_of(p, dim, false); }

static void random_programs(int dim, int count, bool alike)
{
    Tally t = { 0 };
    Problem p;
    for (int i = 0; i < count && !FAILED(); i++) {
        random_problem_of(&p, dim, alike);
        check_random(&p, &t);
    }
    printf("    %dD%s: %d feasible, %d infeasible (%d with the hard ones dropped), %d left out; worst errors / "
           "(max_speed + |pref|): distance %.2g, violation %.2g, least violation %.2g\n",
           dim, alike ? ", near copies" : "", t.feasible, t.infeasible, t.hard_dropped, t.left_out, t.dist_err,
           t.viol_err, t.least_err);
    // every kind of program met, and few left out
    CHECK(t.feasible > count / 5 && t.infeasible > count / 10 && t.hard_dropped > count / 100,
          "too few of a kind: %d %d %d", t.feasible, t.infeasible, t.hard_dropped);
    CHECK(t.left_out < count / 50, "%d of %d left out", t.left_out, count);
}

static void test_random_2d(void) { random_programs(2, 6000, false); }
static void test_random_3d(void) { random_programs(3, 3000, false); }
static void test_random_near_copies_2d(void) { random_programs(2, 3000, true); }
static void test_random_near_copies_3d(void) { random_programs(3, 2000, true); }

// --- hand cases ---

static void set_plane(steerB_Plane *pl, float px, float py, float pz, float nx, float ny, float nz)
{
    float l = sqrtf(nx * nx + ny * ny + nz * nz);
    pl->p[0] = px;
    pl->p[1] = py;
    pl->p[2] = pz;
    pl->n[0] = nx / l;
    pl->n[1] = ny / l;
    pl->n[2] = nz / l;
}

static Problem problem(int dim, float r, float px, float py, float pz)
{
    Problem p;
    memset(&p, 0, sizeof p);
    p.dim = dim;
    p.r = r;
    p.pref[0] = px;
    p.pref[1] = py;
    p.pref[2] = pz;
    return p;
}

static void add(Problem *p, float px, float py, float pz, float nx, float ny, float nz)
{
    set_plane(&p->pl[p->n++], px, py, pz, nx, ny, nz);
}

#define NEAR(out, x, y, z, tol)                                                                                \
    CHECK(fabsf((out)[0] - (x)) <= (tol) && fabsf((out)[1] - (y)) <= (tol) && fabsf((out)[2] - (z)) <= (tol),  \
          "got (%.7g %.7g %.7g), want (%.7g %.7g %.7g)", (double)(out)[0], (double)(out)[1], (double)(out)[2], \
          (double)(x), (double)(y), (double)(z))

static void test_hand_cases(void)
{
    float out[3];
    // one half-plane x >= 1: pref (0, 2) moves right onto it
    Problem p = problem(2, 3, 0, 2, 0);
    add(&p, 1, 0, 0, 1, 0, 0);
    CHECK(solve(&p, out) == 0, "feasible");
    NEAR(out, 1, 2, 0, 1e-6f);
    // a corner: x >= 1 and y >= 1, pref at the origin
    add(&p, 0, 1, 0, 0, 1, 0);
    p.pref[1] = 0;
    solve(&p, out);
    NEAR(out, 1, 1, 0, 1e-6f);
    // head-on: pref straight into the half-plane y >= 1 gives the foot of the perpendicular
    p = problem(2, 3, 0.5f, -2, 0);
    add(&p, -4, 1, 0, 0, 1, 0);
    solve(&p, out);
    NEAR(out, 0.5f, 1, 0, 1e-6f);
    // the same with the corner outside the disc: the disc's point on the boundary nearest pref
    p = problem(2, 2, 3, 3, 0);
    add(&p, 0, 1, 0, 0, -1, 0); // y <= 1
    solve(&p, out);
    NEAR(out, sqrtf(3), 1, 0, 1e-6f);
    // 3D: z >= 1 from below, then a corner of three planes
    p = problem(3, 10, 1, 2, -3);
    add(&p, 0, 0, 1, 0, 0, 1);
    solve(&p, out);
    NEAR(out, 1, 2, 1, 1e-6f);
    add(&p, 1, 0, 0, 1, 0, 0);
    add(&p, 0, 3, 0, 0, 1, 0);
    p.pref[0] = p.pref[1] = 0;
    solve(&p, out);
    NEAR(out, 1, 3, 1, 1e-6f);
    // 3D head-on into a slanted plane: the foot of the perpendicular
    p = problem(3, 10, -1, -1, -1);
    add(&p, 1, 1, 1, 1, 1, 1);
    solve(&p, out);
    NEAR(out, 1, 1, 1, 1e-5f);
    // a 3D plane along the edge of the ball: the one point of the ball on it
    p = problem(3, 2, 0, 0, 0);
    add(&p, 0, 0, 2, 0, 0, 1);
    solve(&p, out);
    NEAR(out, 0, 0, 2, 1e-5f);
}

// --- degenerate inputs ---

static void same_bits(const Problem *a, const Problem *b, const char *what)
{
    float oa[3], ob[3];
    int ra = solve(a, oa), rb = solve(b, ob);
    CHECK(memcmp(oa, ob, sizeof oa) == 0 && ra == rb, "%s: (%.9g %.9g %.9g) %d vs (%.9g %.9g %.9g) %d", what,
          (double)oa[0], (double)oa[1], (double)oa[2], ra, (double)ob[0], (double)ob[1], (double)ob[2], rb);
}

static void test_no_half_spaces(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        float out[3];
        Problem p = problem(dim, 2, 0.5f, -1, dim == 3 ? 1.25f : 0);
        CHECK(solve(&p, out) == 0, "n = 0");
        CHECK(memcmp(out, p.pref, sizeof out) == 0, "%dD: pref inside the disc comes back as it was", dim);
        p.pref[0] = 30;
        p.pref[1] = -40;
        solve(&p, out);
        float l = sqrtf(900 + 1600 + p.pref[2] * p.pref[2]);
        NEAR(out, 2 * 30 / l, 2 * -40 / l, 2 * p.pref[2] / l, 1e-6f);
        // a half-space that holds on the whole disc changes nothing
        Problem q = p;
        add(&q, -3, 0, 0, 1, 0, 0);
        same_bits(&p, &q, "a half-space the disc is inside");
        // nor does one with a zero normal
        q = p;
        q.n = 1;
        q.hard = 1;
        memset(&q.pl[0], 0, sizeof q.pl[0]);
        q.pl[0].p[0] = 5;
        same_bits(&p, &q, "a zero normal");
    }
}

static void test_zero_speed(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        Problem p = problem(dim, 0, 1, 2, 3);
        add(&p, 1, 0, 0, 1, 0, 0);   // x >= 1: missed by 1
        add(&p, -1, 0, 0, 1, 0, 0);  // x >= -1: kept
        add(&p, 0, 0, 0, 0, -1, 0);  // y <= 0: kept, on the boundary
        add(&p, 0, 0.5, 0, 0, 1, 0); // y >= 0.5: missed
        for (int hard = 0; hard <= 4; hard++) {
            float out[3];
            p.hard = hard;
            p.r = hard == 4 ? -1.0f : 0.0f;
            int ret = solve(&p, out);
            CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0, "zero speed: (%g %g %g)", (double)out[0], (double)out[1],
                  (double)out[2]);
            // all four are soft once a missed one is hard
            CHECK(ret == 2, "zero speed, %d hard: %d violated", hard, ret);
        }
    }
}

static void test_zero_pref(void)
{
    float out[3];
    Problem p = problem(2, 1, 0, 0, 0);
    add(&p, 0.25f, 0.25f, 0, 1, 1, 0);
    solve(&p, out);
    NEAR(out, 0.25f, 0.25f, 0, 1e-6f); // the foot of the perpendicular
    p.dim = 3;
    set_plane(&p.pl[0], 0.25f, 0.25f, 0.25f, 1, 1, 1);
    solve(&p, out);
    NEAR(out, 0.25f, 0.25f, 0.25f, 1e-6f);
}

static void test_parallel(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        float one[3], out[3];
        // the same half-space five times is the half-space once, hard or soft
        Problem p = problem(dim, 2, -1, 0.5f, dim == 3 ? 0.25f : 0);
        add(&p, 0.5f, 0, 0, 1, 0.1f, 0);
        solve(&p, one);
        for (int k = 1; k < 5; k++) add(&p, 0.5f - 0.005f * k, 0.05f * k, 0, 1, 0.1f, 0); // along the boundary
        for (int hard = 0; hard <= 5; hard++) {
            p.hard = hard;
            CHECK(solve(&p, out) == 0, "duplicates are feasible");
            NEAR(out, one[0], one[1], one[2], 1e-6f);
        }
        // the same normal, other offsets: the tightest one rules
        p.n = 0;
        p.hard = 0;
        add(&p, 0.2f, 0, 0, 1, 0, 0);
        add(&p, 0.6f, 0, 0, 1, 0, 0);
        add(&p, 0.4f, 0, 0, 1, 0, 0);
        solve(&p, out);
        NEAR(out, 0.6f, 0.5f, p.pref[2], 1e-6f);
        // a strip (opposite normals) holding pref leaves it as it was
        p.n = 0;
        add(&p, -2, 0, 0, 1, 0, 0);
        add(&p, 0, 0, 0, -1, 0, 0);
        solve(&p, out);
        CHECK(memcmp(out, p.pref, sizeof out) == 0, "inside a strip");
        // a strip beside pref: its nearer edge
        p.n = 0;
        add(&p, 0.5f, 0, 0, 1, 0, 0);
        add(&p, 1, 0, 0, -1, 0, 0);
        solve(&p, out);
        NEAR(out, 0.5f, 0.5f, p.pref[2], 1e-6f);
        // a strip of width 0: its line
        p.pl[1].p[0] = 0.5f;
        CHECK(solve(&p, out) == 0, "a strip of width 0 is feasible");
        NEAR(out, 0.5f, 0.5f, p.pref[2], 1e-5f);
        // an empty strip, both soft: halfway, each missed by half the gap
        p.pl[1].p[0] = 0.1f; // x >= 0.5 and x <= 0.1
        CHECK(solve(&p, out) == 2, "an empty strip: both violated");
        NEAR(out, 0.3f, out[1], out[2], 1e-5f);
        // a strip that misses by 4e-4: no rounding allowance swallows that
        p.pl[1].p[0] = 0.5f - 4e-4f;
        CHECK(solve(&p, out) == 2, "a strip 4e-4 short: both violated");
        NEAR(out, 0.5f - 2e-4f, out[1], out[2], 1e-6f);
        p.pl[1].p[0] = 0.1f;
        // ... the first hard: kept, the other missed by all the gap
        p.hard = 1;
        CHECK(solve(&p, out) == 1, "an empty strip, one hard: one violated");
        CHECK(out[0] >= 0.5f - 1e-5f, "the hard edge is kept: x %g", (double)out[0]);
        // ... both hard, a third soft: all three soft
        p.hard = 2;
        add(&p, 0, -1, 0, 0, 1, 0);
        solve(&p, out);
        NEAR(out, 0.3f, out[1], out[2], 1e-5f);
        // the third may be missed as much as the other two, no more: y >= -1.2
        CHECK(out[1] >= -1.2f - 1e-5f, "the third missed by more: y %g", (double)out[1]);
        CHECK(finite3(out) && (dim == 3 || out[2] == 0), "finite");
    }
}

static void test_missing_the_disc(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        float out[3];
        // a boundary beyond the disc, the disc outside: the disc's nearest point, missed by the gap
        Problem p = problem(dim, 1.5f, -1, -1, 0);
        add(&p, 4, 0, 0, 1, 0, 0);
        for (int hard = 0; hard <= 1; hard++) {
            p.hard = hard;
            CHECK(solve(&p, out) == 1, "%dD, %d hard: missed", dim, hard);
            NEAR(out, 1.5f, 0, 0, 1e-5f);
        }
        // with others that can be met: the least violation is still the gap
        p.hard = 0;
        add(&p, 0, 0, 0, 0, 1, 0);
        add(&p, 0, 0.5f, 0, 0, -1, 0);
        CHECK(solve(&p, out) == 1, "only the far one violated");
        CHECK(out[0] >= 1.5f * 0.999f && fabsf(out[0] - 4) <= 2.5f + 1e-5f, "x %g", (double)out[0]);
        // two beyond it, 0.05 radians apart: the disc's point halfway
        // between their normals misses both by the same, the least it can
        p = problem(dim, 3, 0, 0, 0);
        add(&p, 3.5f, 0, 0, 1, 0, 0);
        add(&p, 3.5f * cosf(0.05f), 3.5f * sinf(0.05f), 0, cosf(0.05f), sinf(0.05f), 0);
        CHECK(solve(&p, out) == 2, "both violated");
        NEAR(out, 3 * cosf(0.025f), 3 * sinf(0.025f), 0, 1e-5f);
        // a boundary just touching the disc: the touching point
        p = problem(dim, 1.5f, 3, 3, 0);
        add(&p, 0, 1.5f, 0, 0, -1, 0); // y <= 1.5
        add(&p, 0, 1.5f, 0, 0, 1, 0);  // y >= 1.5
        solve(&p, out);
        NEAR(out, 0, 1.5f, 0, 1e-4f);
    }
}

// Far outside the float range a crowd uses: nothing becomes NaN or leaves the speed limit.
static void test_extremes(void)
{
    Problem p;
    for (int i = 0; i < 4000 && !FAILED(); i++) {
        int dim = 2 + i % 2;
        random_problem(&p, dim);
        double e = test_uniform(-30, 30);
        p.r = (float)(p.r * pow(10, i % 7 == 0 ? 0 : e));
        if (i % 11 == 0) p.r = 0;
        for (int a = 0; a < dim; a++) p.pref[a] = (float)(p.pref[a] * pow(10, test_uniform(-35, 35)));
        for (int k = 0; k < p.n; k++) {
            double s = pow(10, test_uniform(-30, 37));
            for (int a = 0; a < dim; a++) p.pl[k].p[a] = (float)(p.pl[k].p[a] * s);
            if (k % 3 == 1) { // nearly the one before it
                p.pl[k] = p.pl[k - 1];
                p.pl[k].n[0] += (float)test_uniform(-1e-6, 1e-6);
                if (i % 2) p.pl[k].p[1] += 1e-7f;
            }
            if (k % 5 == 4) // opposite to the one before it
                for (int a = 0; a < 3; a++) p.pl[k].n[a] = -p.pl[k - 1].n[a];
        }
        float out[3];
        solve(&p, out);
        CHECK(finite3(out) && lenf(out) <= p.r * (1 + 1e-5f), "%dD, max_speed %g: (%g %g %g)", dim, (double)p.r,
              (double)out[0], (double)out[1], (double)out[2]);
    }
}

static void test_deterministic(void)
{
    Problem p, other;
    for (int i = 0; i < 1000 && !FAILED(); i++) {
        random_problem(&p, 2 + i % 2);
        random_problem(&other, 2 + i % 2);
        float a[3], b[3], c[3];
        int ra = solve(&p, a);
        solve(&other, c);
        int rb = solve(&p, b);
        CHECK(memcmp(a, b, sizeof a) == 0 && ra == rb, "the same program twice: two answers");
        // other units (a power of two): the same answer in those units
        Problem big = p;
        big.r *= 64;
        for (int a2 = 0; a2 < 3; a2++) big.pref[a2] *= 64;
        for (int k = 0; k < p.n; k++)
            for (int a2 = 0; a2 < 3; a2++) big.pl[k].p[a2] *= 64;
        solve(&big, c);
        CHECK(c[0] == 64 * a[0] && c[1] == 64 * a[1] && c[2] == 64 * a[2],
              "in other units: (%g %g %g) x 64 vs (%g %g %g)", (double)a[0], (double)a[1], (double)a[2], (double)c[0],
              (double)c[1], (double)c[2]);
    }
}

// steerB_orca_solve_weighted (reciprocal's max_overlap): weights of 1 and
// no second pass are steerB_orca_solve to the bit, as is NULL; weights move
// the least violation to where the weighted violations are equal; the
// second pass goes on toward pref as far as (1 + relax[k]) times it allows
// each soft half-space k.
static void test_weighted(void)
{
    float ones[STEERB_ORCA_MAX];
    for (int k = 0; k < STEERB_ORCA_MAX; k++) ones[k] = 1.0f;
    Problem p;
    for (int i = 0; i < 2000 && !FAILED(); i++) {
        random_problem(&p, 2 + i % 2);
        float a[3], b[3], c[3];
        int ra = solve(&p, a);
        int rb = steerB_orca_solve_weighted(p.pl, p.n, p.hard, NULL, NULL, p.r, p.pref, p.dim, b);
        int rc = steerB_orca_solve_weighted(p.pl, p.n, p.hard, ones, NULL, p.r, p.pref, p.dim, c);
        CHECK(memcmp(a, b, sizeof a) == 0 && ra == rb, "NULL weights: other bits than steerB_orca_solve");
        CHECK(memcmp(a, c, sizeof a) == 0 && ra == rc, "weights of 1: other bits than steerB_orca_solve");
    }
    // soft x >= 1 and x <= -1 (weights 1 and 0.25), hard y <= 5, pref (3, 0):
    // the least largest weighted violation has 1 - x = (1 + x) / 0.25, x = -0.6
    // (t* 1.6); unweighted, x = 0
    p = problem(2, 10, 3, 0, 0);
    add(&p, 0, 5, 0, 0, -1, 0);
    add(&p, 1, 0, 0, 1, 0, 0);
    add(&p, -1, 0, 0, -1, 0, 0);
    p.hard = 1;
    float w[3] = { 1.0f, 1.0f, 0.25f }, out[3];
    solve(&p, out);
    CHECK(fabsf(out[0]) <= 1e-5f, "unweighted: x %g, want 0", (double)out[0]);
    CHECK(steerB_orca_solve_weighted(p.pl, p.n, p.hard, w, NULL, p.r, p.pref, 2, out) == 2, "both soft ones violated");
    CHECK(fabsf(out[0] + 0.6f) <= 1e-5f, "weighted: x %g, want -0.6", (double)out[0]);
    // the second pass: x <= -1 + 1.1 t* 0.25 = -0.56, nearest pref (3, 0)
    float r1[3] = { 0.1f, 0.1f, 0.1f };
    steerB_orca_solve_weighted(p.pl, p.n, p.hard, w, r1, p.r, p.pref, 2, out);
    NEAR(out, -0.56f, 0, 0, 1e-4f);
    // each soft half-space its own: x <= -1 + 1.5 t* 0.25 = -0.4 (x >= 1 -
    // 1.1 t* = -0.76 holds), the hard one's entry unread; relaxing the
    // other one instead changes nothing (it does not bind)
    float r2[3] = { -1.0f, 0.1f, 0.5f }, r3[3] = { 0.5f, 0.5f, 0.1f };
    steerB_orca_solve_weighted(p.pl, p.n, p.hard, w, r2, p.r, p.pref, 2, out);
    NEAR(out, -0.4f, 0, 0, 1e-4f);
    steerB_orca_solve_weighted(p.pl, p.n, p.hard, w, r3, p.r, p.pref, 2, out);
    NEAR(out, -0.56f, 0, 0, 1e-4f);
    // without a hard half-space there is no second pass
    steerB_orca_solve_weighted(p.pl + 1, 2, 0, w + 1, r1 + 1, p.r, p.pref, 2, out);
    CHECK(fabsf(out[0] + 0.6f) <= 1e-5f, "no hard one, no second pass: x %g, want -0.6", (double)out[0]);
}

static void test_2d_ignores_z(void)
{
    Problem p, q;
    for (int i = 0; i < 1000 && !FAILED(); i++) {
        random_problem(&p, 2);
        q = p;
        q.pref[2] = (float)test_uniform(-5, 5);
        for (int k = 0; k < q.n; k++) {
            q.pl[k].p[2] = (float)test_uniform(-5, 5);
            q.pl[k].n[2] = (float)test_uniform(-1, 1);
        }
        same_bits(&p, &q, "z given");
    }
}

int main(void)
{
    RUN(test_hand_cases);
    RUN(test_no_half_spaces);
    RUN(test_zero_speed);
    RUN(test_zero_pref);
    RUN(test_parallel);
    RUN(test_missing_the_disc);
    RUN(test_extremes);
    RUN(test_deterministic);
    RUN(test_2d_ignores_z);
    RUN(test_weighted);
    RUN(test_random_2d);
    RUN(test_random_3d);
    RUN(test_random_near_copies_2d);
    RUN(test_random_near_copies_3d);
    return check_report_("orca_lp");
}
