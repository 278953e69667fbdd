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
// potentials; the formulation of Jonker and Volgenant): rows are added one
// at a time, each by a Dijkstra-like search over columns on reduced costs
// c[i][j] - u[i] - v[j] >= 0 that ends at a free column, then the path is
// flipped. Columns are scanned in increasing order and a new minimum must
// be strictly smaller, so ties go to the lower column. Indices 1-based
// inside (column 0 is the virtual start). Returns -1 when out of memory.
static int hungarian(int n, int m, const double *c, int *slot_of)
{
    size_t nn = (size_t)n + 1, mm = (size_t)m + 1;
    double *u = calloc(nn, sizeof *u), *v = calloc(mm, sizeof *v), *minv = malloc(sizeof *minv * mm);
    int *p = calloc(mm, sizeof *p), *way = calloc(mm, sizeof *way);
    unsigned char *used = malloc(mm);
    int rc = -1;
    if (!u || !v || !minv || !p || !way || !used) goto out;
    for (int i = 1; i <= n; i++) {
        p[0] = i;
        int j0 = 0;
        for (size_t j = 0; j < mm; j++) minv[j] = HUGE_VAL;
        memset(used, 0, mm);
        do {
            used[j0] = 1;
            int i0 = p[j0], j1 = 0;
            double delta = HUGE_VAL;
            const double *row = c + (size_t)(i0 - 1) * (size_t)m;
            for (int j = 1; j <= m; j++) {
                if (used[j]) continue;
                double cur = row[j - 1] - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= m; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    for (int j = 1; j <= m; j++)
        if (p[j]) slot_of[p[j] - 1] = j - 1;
    rc = 0;
out:
    free(u);
    free(v);
    free(minv);
    free(p);
    free(way);
    free(used);
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
