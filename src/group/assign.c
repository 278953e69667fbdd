// SPDX-License-Identifier: MIT
// assign.c — formation slot assignment (see assign.h).
#include "assign.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// The distances, row i (member) by column j (slot).
static double *distances(int n, const double *mx, const double *my, int m, const double *sx, const double *sy)
{
    double *c = malloc(sizeof *c * ((size_t)n * (size_t)m + 1));
    if (!c) return NULL;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            // sqrt, not hypot: IEEE rounds sqrt exactly everywhere, libm's
            // hypot differs between C libraries
            double dx = sx[j] - mx[i], dy = sy[j] - my[i];
            c[(size_t)i * (size_t)m + (size_t)j] = sqrt(dx * dx + dy * dy);
        }
    return c;
}

// The Hungarian method by shortest augmenting paths (Kuhn-Munkres with
// dual potentials u, v, in the form Jonker and Volgenant gave it): rows are
// added one at a time, each by a Dijkstra search over the columns on the
// reduced costs c[i][j] - u[i] - v[j] >= 0 that ends at the first free
// column it settles; the path is then flipped and the potentials of the
// rows and columns it settled are updated. The search scans only the
// columns it has not settled yet (kept packed in `rest`), and the update
// touches only the settled ones. Ties: the lowest tentative distance, a
// free column before a taken one at the same distance, then the order of
// `rest` (deterministic: it depends on nothing but the input). Returns -1
// when out of memory.
static int hungarian(int n, int m, const double *c, int *slot_of)
{
    double *u = calloc((size_t)n, sizeof *u), *v = calloc((size_t)m, sizeof *v);
    double *dist = malloc(sizeof *dist * (size_t)m);
    int *col_of = malloc(sizeof *col_of * (size_t)n), *row_of = malloc(sizeof *row_of * (size_t)m);
    int *via = malloc(sizeof *via * (size_t)m), *rest = malloc(sizeof *rest * (size_t)m);
    unsigned char *row_done = malloc((size_t)n), *col_done = malloc((size_t)m);
    int rc = -1;
    if (!u || !v || !dist || !col_of || !row_of || !via || !rest || !row_done || !col_done) goto out;
    for (int i = 0; i < n; i++) col_of[i] = -1;
    for (int j = 0; j < m; j++) row_of[j] = -1;
    for (int row = 0; row < n; row++) {
        for (int j = 0; j < m; j++) {
            rest[j] = m - 1 - j; // the lowest column taken last from the back
            dist[j] = HUGE_VAL;
            col_done[j] = 0;
        }
        memset(row_done, 0, (size_t)n);
        int nrest = m, i = row, sink = -1;
        double reach = 0; // the distance of the last settled column
        while (sink < 0) {
            row_done[i] = 1;
            const double *ci = c + (size_t)i * (size_t)m;
            double base = reach - u[i], low = HUGE_VAL;
            int pick = -1;
            for (int k = 0; k < nrest; k++) {
                int j = rest[k];
                double d = base + ci[j] - v[j];
                if (d < dist[j]) {
                    dist[j] = d;
                    via[j] = i;
                }
                if (dist[j] < low || (dist[j] == low && row_of[j] < 0)) {
                    low = dist[j];
                    pick = k;
                }
            }
            reach = low;
            int j = rest[pick];
            rest[pick] = rest[--nrest];
            col_done[j] = 1;
            if (row_of[j] < 0) sink = j;
            else i = row_of[j];
        }
        u[row] += reach;
        for (int r = 0; r < n; r++)
            if (row_done[r] && r != row) u[r] += reach - dist[col_of[r]];
        for (int j = 0; j < m; j++)
            if (col_done[j]) v[j] -= reach - dist[j];
        for (int j = sink;;) { // flip the path back to the new row
            int r = via[j], prev = col_of[r];
            row_of[j] = r;
            col_of[r] = j;
            if (r == row) break;
            j = prev;
        }
    }
    memcpy(slot_of, col_of, sizeof *col_of * (size_t)n);
    rc = 0;
out:
    free(u);
    free(v);
    free(dist);
    free(col_of);
    free(row_of);
    free(via);
    free(rest);
    free(row_done);
    free(col_done);
    return rc;
}

// Hopcroft-Karp: can every row be matched to a distinct column through
// entries c[i][j] <= t? match_col[j] / match_row[i] are -1 when free; dist
// and queue have n entries, stack 2n.
typedef struct Matching {
    int n, m;
    const double *c;
    double t;
    int *match_row, *match_col, *dist, *queue, *stack, *next;
} Matching;

static int hk_bfs(Matching *h)
{
    int head = 0, tail = 0, found = 0;
    for (int i = 0; i < h->n; i++) {
        if (h->match_row[i] < 0) {
            h->dist[i] = 0;
            h->queue[tail++] = i;
        } else {
            h->dist[i] = -1;
        }
    }
    while (head < tail) {
        int i = h->queue[head++];
        const double *row = h->c + (size_t)i * (size_t)h->m;
        for (int j = 0; j < h->m; j++) {
            if (row[j] > h->t) continue;
            int k = h->match_col[j];
            if (k < 0) {
                found = 1;
            } else if (h->dist[k] < 0) {
                h->dist[k] = h->dist[i] + 1;
                h->queue[tail++] = k;
            }
        }
    }
    return found;
}

// One augmenting path from free row `root` along the BFS layers, by an
// explicit stack (no recursion: up to n deep).
static int hk_dfs(Matching *h, int root)
{
    int top = 0;
    h->stack[top++] = root;
    h->next[root] = 0;
    while (top > 0) {
        int i = h->stack[top - 1];
        const double *row = h->c + (size_t)i * (size_t)h->m;
        int advanced = 0;
        while (h->next[i] < h->m) {
            int j = h->next[i]++;
            if (row[j] > h->t) continue;
            int k = h->match_col[j];
            if (k < 0) {
                // flip the path: each row on the stack takes the column it
                // went through (the one before its next)
                for (int s = top - 1; s >= 0; s--) {
                    int r = h->stack[s], col = s == top - 1 ? j : h->next[r] - 1;
                    h->match_row[r] = col;
                    h->match_col[col] = r;
                }
                return 1;
            }
            if (h->dist[k] == h->dist[i] + 1) {
                h->next[k] = 0;
                h->stack[top++] = k;
                advanced = 1;
                break;
            }
        }
        if (!advanced) {
            h->dist[i] = -1; // a dead end for this phase
            top--;
        }
    }
    return 0;
}

static int hk_perfect(Matching *h)
{
    for (int i = 0; i < h->n; i++) h->match_row[i] = -1;
    for (int j = 0; j < h->m; j++) h->match_col[j] = -1;
    int matched = 0;
    while (matched < h->n && hk_bfs(h)) {
        int before = matched;
        for (int i = 0; i < h->n; i++)
            if (h->match_row[i] < 0 && hk_dfs(h, i)) matched++;
        if (matched == before) break; // (a phase always augments; never loop)
    }
    return matched == h->n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// The least t such that every member has a distinct slot within t, by a
// binary search over the distances from the lower bound (the farthest
// member's nearest slot) to the upper (the longest leg of `start`, a
// complete assignment). Returns -1 when out of memory.
static int bottleneck(int n, int m, const double *c, const int *start, double *t_out)
{
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        const double *row = c + (size_t)i * (size_t)m;
        double near = HUGE_VAL;
        for (int j = 0; j < m; j++) near = row[j] < near ? row[j] : near;
        if (near > lo) lo = near;
        if (row[start[i]] > hi) hi = row[start[i]];
    }
    size_t k = 0, all = (size_t)n * (size_t)m;
    double *cand = malloc(sizeof *cand * (all + 1));
    Matching h = { n,
                   m,
                   c,
                   0,
                   malloc(sizeof(int) * (size_t)n),
                   malloc(sizeof(int) * (size_t)m),
                   malloc(sizeof(int) * (size_t)n),
                   malloc(sizeof(int) * (size_t)n),
                   malloc(sizeof(int) * (size_t)n),
                   malloc(sizeof(int) * (size_t)n) };
    int rc = -1;
    if (!cand || !h.match_row || !h.match_col || !h.dist || !h.queue || !h.stack || !h.next) goto out;
    for (size_t e = 0; e < all; e++)
        if (c[e] >= lo && c[e] <= hi) cand[k++] = c[e];
    qsort(cand, k, sizeof *cand, cmp_double);
    // cand[k - 1] == hi is feasible (start); find the first feasible
    size_t a = 0, b = k - 1;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        h.t = cand[mid];
        if (hk_perfect(&h)) b = mid;
        else a = mid + 1;
    }
    *t_out = cand[a];
    rc = 0;
out:
    free(cand);
    free(h.match_row);
    free(h.match_col);
    free(h.dist);
    free(h.queue);
    free(h.stack);
    free(h.next);
    return rc;
}

int steerU_assign(int n, const double *mx, const double *my, int m, const double *sx, const double *sy,
                  SteerUAssignMode mode, int *slot_of)
{
    if (n < 0 || n > m) return -1;
    if (n == 0) return 0;
    double *c = distances(n, mx, my, m, sx, sy);
    int *best = malloc(sizeof *best * (size_t)n);
    int rc = -1;
    if (!c || !best || hungarian(n, m, c, best) != 0) goto out;
    if (mode == STEERU_ASSIGN_MAX) {
        double t;
        if (bottleneck(n, m, c, best, &t) != 0) goto out;
        // the least total within t: any distance over t costs more than
        // every assignment within it can (n times the largest distance)
        double worst = 0;
        size_t all = (size_t)n * (size_t)m;
        for (size_t e = 0; e < all; e++) worst = c[e] > worst ? c[e] : worst;
        double over = (double)(n + 1) * (worst + 1);
        for (size_t e = 0; e < all; e++)
            if (c[e] > t) c[e] += over;
        if (hungarian(n, m, c, best) != 0) goto out;
    }
    memcpy(slot_of, best, sizeof *best * (size_t)n);
    rc = 0;
out:
    free(c);
    free(best);
    return rc;
}

typedef struct Ease {
    double ease;
    int member;
} Ease;

static int cmp_ease(const void *a, const void *b)
{
    const Ease *x = a, *y = b;
    if (x->ease != y->ease) return x->ease < y->ease ? -1 : 1;
    return (x->member > y->member) - (x->member < y->member);
}

int steerU_assign_greedy(int n, const double *mx, const double *my, int m, const double *sx, const double *sy,
                         int *slot_of)
{
    if (n < 0 || n > m) return -1;
    if (n == 0) return 0;
    double *c = distances(n, mx, my, m, sx, sy);
    Ease *order = malloc(sizeof *order * (size_t)n);
    unsigned char *taken = calloc((size_t)m, 1);
    int rc = -1;
    if (!c || !order || !taken) goto out;
    // the member with the fewest near slots (least ease: sum of 1 / (1 + d))
    // chooses first, each the nearest slot still free
    for (int i = 0; i < n; i++) {
        double e = 0;
        for (int j = 0; j < m; j++) e += 1.0 / (1.0 + c[(size_t)i * (size_t)m + (size_t)j]);
        order[i] = (Ease){ e, i };
    }
    qsort(order, (size_t)n, sizeof *order, cmp_ease);
    for (int k = 0; k < n; k++) {
        int i = order[k].member, pick = -1;
        const double *row = c + (size_t)i * (size_t)m;
        for (int j = 0; j < m; j++)
            if (!taken[j] && (pick < 0 || row[j] < row[pick])) pick = j;
        taken[pick] = 1;
        slot_of[i] = pick;
    }
    rc = 0;
out:
    free(c);
    free(order);
    free(taken);
    return rc;
}
