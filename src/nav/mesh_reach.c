// SPDX-License-Identifier: MIT
// mesh_reach.c — where on a mesh the search for an agent of one radius
// can go (mesh_path.h: steerN_Reach), so that a long search need not
// flood the goal's side to learn that it is reachable, and a goal shut in
// a pocket is told before the search goes through all of the start's side.
//
// The search (mesh_path.c) is a graph over nodes 3 t + k, triangle t
// entered through its edge k: from there out through edge j (not k) into
// the triangle u across, node 3 u + e, when the portal is open (u allowed,
// r left at each wall end) and 2 r fits t's width at the corner between
// k and j. The graph is directed (a search never turns back through the
// edge it came in by) but mirrors itself: a step a -> b is a step
// rev(b) -> rev(a) too, where rev(3 t + k) is the node across t's edge k
// (the same crossing the other way; each test holds both ways). Most of a
// level with obstacles is one strongly connected group G (around an
// obstacle a way can turn back), and rev(G) is G then. So a node reaches
// G exactly when its reverse is reached from G, and one set R, the nodes
// reached from G, answers both: the start gets into G when R holds one of
// the start triangle's nodes 3 ts + j it may leave by (not pinched off),
// and the goal is reached from G when R holds one of 3 tg + k it may be
// reached by. Both: the search reaches the goal (floods cannot find it
// shut in). Neither of the goal's: the goal's side is a pocket off G,
// small most often, which the flood tells at once. And a node that
// cannot get back to G (its reverse not in R: a way into a dead end)
// reaches the goal only on the goal's own side of G: the reverses of the
// nodes reached from the goal's without entering R (mesh_path.c:
// goal_side, a small flood most often). Any other the search leaves out.
// Those nodes lie on no way to the goal, so every node that does keeps
// its cost and the order of the rest is the same: the same path, bit for
// bit, for fewer nodes expanded.
//
// Made when a search has gone long (mesh_path.c's flood), so a short
// query never pays for it; kept in the query for a few (mesh, radius,
// exclusions); a mesh is immutable once prepared, and its prepare_id
// tells it from any other, also one later at the same address.
#include "mesh_path.h"

#include <string.h>

static bool allowed(const steerN_MeshQuery *q, uint32_t t) { return q->cost[q->m->area[t]] < INFINITY; }

// Portal i of triangle t is open to the search (as mesh_path.c's
// portal_at asks it: the same arithmetic, from either side the same).
static bool portal_open(const steerN_MeshQuery *q, uint32_t t, int i)
{
    const steerN_Mesh *m = q->m;
    int32_t u = m->adj[3 * t + i];
    if (u < 0 || !allowed(q, t) || !allowed(q, (uint32_t)u)) return false;
    uint32_t vp = m->tri[3 * t + i], vq = m->tri[3 * t + (i + 1) % 3];
    const double *a = m->xy + 2 * vp, *b = m->xy + 2 * vq;
    double r = q->radius;
    if (!(r > 0)) {
        double dx = b[0] - a[0], dy = b[1] - a[1];
        return dx * dx + dy * dy > 0;
    }
    double len = mg_dist(a, b), ra = steerN_end_room(m, vp, a, b, len, r), rb = steerN_end_room(m, vq, b, a, len, r);
    return !(len < ra + rb || !(len > 0));
}

// rev(3 t + i): the node across t's edge i.
static uint32_t across(const steerN_Mesh *m, uint32_t t, int i)
{
    return 3 * (uint32_t)m->adj[3 * t + i] + m->back[3 * t + i];
}

// The step from node v out through its triangle's edge j: the node it
// enters, or UINT32_MAX (open: per node, its portal is open).
static uint32_t step(const steerN_MeshQuery *q, const uint8_t *open, uint32_t v, int j)
{
    const steerN_Mesh *m = q->m;
    uint32_t t = v / 3;
    int k = (int)(v % 3);
    double r = q->radius;
    if (j == k || !open[3 * t + (uint32_t)j] || (r > 0 && 2 * r > m->width[3 * t + (j == (k + 1) % 3 ? j : k)]))
        return UINT32_MAX;
    return across(m, t, j);
}

const steerN_Reach *steerN_reach_find(steerN_MeshQuery *q)
{
    for (int i = 0; i < STEERN_REACH_SLOTS; i++) {
        steerN_Reach *x = &q->reach[i];
        if (x->mesh && x->mesh == q->m->prepare_id && x->radius == q->radius && x->excluded == q->excluded) {
            x->used = ++q->reach_clock;
            return x;
        }
    }
    return NULL;
}

// Tarjan's strongly connected groups, without recursion, over the nodes
// of open portals: into low, each node's group (numbered from 1); into
// *largest the largest group's (0 when no group has two nodes).
// Scratch: index, stack, frame (n each), on (n bytes).
static void groups(const steerN_MeshQuery *q, const uint8_t *open, uint32_t n, uint32_t *index, uint32_t *low,
                   uint32_t *stack, uint32_t *frame, uint8_t *on, uint32_t *largest)
{
    uint32_t next = 0, ns = 0, ng = 0, best = 1;
    *largest = 0;
    memset(index, 0, sizeof *index * n);
    memset(on, 0, n);
    for (uint32_t v0 = 0; v0 < n; v0++) {
        if (!open[v0] || index[v0]) continue;
        uint32_t depth = 0, v = v0;
        for (;;) {
            if (!index[v]) { // entered: numbered, on the stack, a frame
                index[v] = low[v] = ++next;
                stack[ns++] = v, on[v] = 1;
                frame[depth++] = v * 4; // the node, and its next edge to try
            }
            uint32_t f = frame[depth - 1], u = f / 4, j = f % 4;
            if (j < 3) {
                frame[depth - 1]++;
                uint32_t w = step(q, open, u, (int)j);
                if (w == UINT32_MAX) continue;
                if (!index[w]) v = w;
                else if (on[w] && index[w] < low[u]) low[u] = index[w];
                continue;
            }
            // u done: its group closes when nothing in it reaches back
            // past it
            depth--;
            if (depth && low[u] < low[frame[depth - 1] / 4]) low[frame[depth - 1] / 4] = low[u];
            if (low[u] == index[u]) {
                uint32_t size = 0, w;
                ng++;
                do {
                    w = stack[--ns], on[w] = 0, low[w] = ng, size++;
                } while (w != u);
                if (size > best) best = size, *largest = ng;
            }
            if (!depth) break;
        }
    }
}

const steerN_Reach *steerN_reach_make(steerN_MeshQuery *q)
{
    const steerN_Mesh *m = q->m;
    steerN_Reach *x = &q->reach[0];
    for (int i = 1; i < STEERN_REACH_SLOTS; i++)
        if (q->reach[i].used < x->used) x = &q->reach[i];
    x->mesh = 0;
    uint32_t n = 3 * m->ntri;
    steerN_Alloc *a = &q->alloc;
    if (steerN_query_grow(a, (void **)&x->from_g, &x->cap, n, 1)) return NULL;
    uint8_t *open = steerN_realloc(a, NULL, 0, n), *on = steerN_realloc(a, NULL, 0, n);
    uint32_t *w = steerN_realloc(a, NULL, 0, sizeof *w * 4 * (size_t)n);
    bool ok = open && on && w;
    if (ok) {
        uint32_t *index = w, *low = w + n, *stack = w + 2 * n, *frame = w + 3 * n, g;
        for (uint32_t t = 0; t < m->ntri; t++)
            for (int i = 0; i < 3; i++) open[3 * t + i] = portal_open(q, t, i);
        groups(q, open, n, index, low, stack, frame, on, &g);
        // G, when it is its own reverse; then all it reaches
        uint8_t *r = x->from_g;
        memset(r, 0, n);
        uint32_t ns = 0;
        for (uint32_t v = 0; v < n; v++)
            if (g && open[v] && low[v] == g) {
                if (low[across(m, v / 3, (int)(v % 3))] != g) {
                    ns = 0, g = 0;
                    memset(r, 0, n);
                    break;
                }
                r[v] = 1, stack[ns++] = v;
            }
        while (ns) {
            uint32_t v = stack[--ns];
            for (int j = 0; j < 3; j++) {
                uint32_t u = step(q, open, v, j);
                if (u != UINT32_MAX && !r[u]) r[u] = 1, stack[ns++] = u;
            }
        }
        x->grouped = g != 0;
        x->mesh = m->prepare_id;
        x->radius = q->radius;
        x->excluded = q->excluded;
        x->used = ++q->reach_clock;
    }
    steerN_realloc(a, open, open ? n : 0, 0);
    steerN_realloc(a, on, on ? n : 0, 0);
    steerN_realloc(a, w, w ? sizeof *w * 4 * (size_t)n : 0, 0);
    return ok ? x : NULL;
}

// Node 3 t + k of the end p in t (the start or the goal) leads from it
// (to it): its portal is open and p is not pinched off from it.
static bool leads(const steerN_MeshQuery *q, uint32_t t, int k, const double p[2])
{
    return portal_open(q, t, k) && !(q->radius > 0 && steerN_mesh_pinched(q->m, q->radius, t, k, p));
}

// Whether R holds one of the nodes of end p in t.
static bool in_r(const steerN_MeshQuery *q, const steerN_Reach *x, uint32_t t, const double p[2])
{
    for (int k = 0; k < 3; k++)
        if (x->from_g[3 * t + (uint32_t)k] && leads(q, t, k, p)) return true;
    return false;
}

int steerN_reach_joins(const steerN_MeshQuery *q, const steerN_Reach *x)
{
    if (!x->grouped) return -1;
    if (!in_r(q, x, q->tg, q->to)) return 0;
    return in_r(q, x, q->ts, q->from) ? 1 : -1;
}

static uint32_t root(uint32_t *g, uint32_t e)
{
    while (g[e] != e) e = g[e] = g[g[e]];
    return e;
}

int steerN_reach_island(steerN_MeshQuery *q)
{
    const steerN_Mesh *m = q->m;
    if (q->island_mesh != m->prepare_id || q->island_excluded != q->excluded) {
        q->island_mesh = 0;
        if (steerN_query_grow(&q->alloc, (void **)&q->island, &q->island_cap, m->ntri, sizeof *q->island)) return -1;
        uint32_t *g = q->island;
        for (uint32_t t = 0; t < m->ntri; t++) {
            g[t] = allowed(q, t) ? t : UINT32_MAX;
            for (int i = 0; i < 3 && g[t] != UINT32_MAX; i++) {
                int32_t u = m->adj[3 * t + i];
                if (u < 0 || (uint32_t)u > t || g[u] == UINT32_MAX) continue;
                uint32_t a = root(g, t), b = root(g, (uint32_t)u);
                g[a > b ? a : b] = a < b ? a : b;
            }
        }
        for (uint32_t t = 0; t < m->ntri; t++)
            if (g[t] != UINT32_MAX) g[t] = root(g, t);
        q->island_mesh = m->prepare_id;
        q->island_excluded = q->excluded;
    }
    return q->island[q->ts] == q->island[q->tg];
}

void steerN_reach_free(steerN_MeshQuery *q)
{
    steerN_realloc(&q->alloc, q->island, sizeof *q->island * q->island_cap, 0);
    q->island = NULL, q->island_cap = 0, q->island_mesh = 0;
    for (int i = 0; i < STEERN_REACH_SLOTS; i++) {
        steerN_Reach *x = &q->reach[i];
        steerN_realloc(&q->alloc, x->from_g, x->cap, 0);
        x->from_g = NULL, x->cap = 0, x->mesh = 0;
    }
}
