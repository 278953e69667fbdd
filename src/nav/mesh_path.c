// SPDX-License-Identifier: MIT
// mesh_path.c — paths on a navigation mesh for an agent of a given radius
// (mesh.h): A* over the triangles, then a funnel with rounded corners.
//
// The search. A node is a triangle entered through one of its edges
// (3 t + edge; the start and the goal are two more nodes), so a triangle
// reached first through an edge that cannot turn toward the goal for a
// wide agent may still be reached through another. Each node carries the
// point where the path crosses its entry edge: the point of that portal
// on the shortest way from the previous crossing point to the goal (the
// straight line where it crosses the portal), kept out of the circles of
// the portal's ends (steerN_mesh_end: radius r about a wall vertex, and
// about the wall's nearest point for an area's corner nearer a wall than
// r). A step costs the distance between successive crossing points
// times the cost of the triangle between them (the filter's, else the
// mesh's; INFINITY: never entered); the heuristic is the straight distance
// to the goal times the least area cost, so it never overestimates. A way
// through triangle t from edge k to edge j is open to radius r only when
// 2 r <= the width of t at the corner between k and j (mesh_query.c), and
// a portal only when its length leaves r at each wall end. The heap orders
// by (f, node), so ties go to the lower triangle: the same query gives the
// same path, bit for bit. When the search fails for r > 0 after turning
// something away as too narrow, a flood with r = 0 tells NARROW from NONE.
// A long search also floods the goal's side with its own rules walked
// backward, now and then (enclosed): a goal shut in where the radius does
// not pass is then told without going through all of the start's side.
// Once a search has gone long, where the search for its radius can go
// is worked out and kept in the query (mesh_reach.c): later searches that
// surely reach their goal flood no more and leave out the ways into dead
// ends, and one whose goal is in a pocket floods it first.
// When no way keeping r is made in the corridor found (the widths let a
// gap narrower than 2 r through: mesh_funnel.c), the search starts again
// with the corridor's portal nearest the pinch closed, a few times.
//
// Sliced: begin sets the search up, step expands at most `budget` nodes,
// so a world can spread many requests over ticks; all memory lives in the
// steerN_MeshQuery and is reused (stamps instead of clearing).
//
// The funnel, its repair and the checks of a found path: mesh_funnel.c.
#include "mesh_path.h"

#include <string.h>

// A search that has expanded this many nodes floods the goal's side to see
// whether it is shut in (enclosed); the next flood at twice as many.
#define FLOOD_FIRST 2048
#define FLOOD_SHARE 4 // a flood's nodes: at most the search's expanded over this

steerN_MeshQuery *steerN_mesh_query_new(const steerN_Alloc *alloc)
{
    steerN_Alloc a = alloc ? *alloc : (steerN_Alloc){ 0 };
    steerN_MeshQuery *q = steerN_realloc(&a, NULL, 0, sizeof *q);
    if (!q) return NULL;
    memset(q, 0, sizeof *q);
    q->alloc = a;
    q->status = STEERN_PATH_NONE;
    return q;
}

void steerN_mesh_query_free(steerN_MeshQuery *q)
{
    if (!q) return;
    steerN_Alloc a = q->alloc;
    size_t n = q->cap;
    steerN_realloc(&a, q->node, sizeof *q->node * n, 0);
    steerN_realloc(&a, q->parent, sizeof *q->parent * n, 0);
    steerN_realloc(&a, q->seen, sizeof *q->seen * n, 0);
    steerN_realloc(&a, q->closed, sizeof *q->closed * n, 0);
    steerN_realloc(&a, q->fmark, sizeof *q->fmark * n, 0);
    steerN_realloc(&a, q->fstack, sizeof *q->fstack * n, 0);
    steerN_realloc(&a, q->hkey, sizeof *q->hkey * q->hcap, 0);
    steerN_realloc(&a, q->hitem, sizeof *q->hitem * q->hcap, 0);
    steerN_realloc(&a, q->room, sizeof *q->room * q->room_cap, 0);
    steerN_realloc(&a, q->pts, sizeof *q->pts * 2 * q->cap_pts, 0);
    steerN_realloc(&a, q->pz, sizeof *q->pz * q->cap_pz, 0);
    steerN_realloc(&a, q->corr, sizeof *q->corr * q->cap_corr, 0);
    steerN_realloc(&a, q->portal, sizeof *q->portal * q->cap_portal, 0);
    steerN_realloc(&a, q->cor, sizeof *q->cor * q->cap_cor, 0);
    steerN_reach_free(q);
    steerN_link_query_free(q);
    steerN_realloc(&a, q, sizeof *q, 0);
}

void steerN_mesh_query_link_cap(steerN_MeshQuery *q, uint32_t work) { q->link_cap = work; }

void steerN_mesh_query_keep_reach(steerN_MeshQuery *q, bool keep)
{
    q->no_reach = !keep;
    if (!keep) steerN_reach_free(q);
}

// The node arrays for n nodes (stamps of new entries zero).
static int reserve_nodes(steerN_MeshQuery *q, uint32_t n)
{
    if (n <= q->cap) return 0;
    uint32_t c = q->cap ? q->cap : 64, old = q->cap;
    while (c < n) c = c > UINT32_MAX / 2 ? n : c * 2;
    void **arr[] = { (void **)&q->node,  (void **)&q->parent, (void **)&q->seen,
                     (void **)&q->fmark, (void **)&q->fstack, (void **)&q->closed };
    size_t size[] = { sizeof *q->node,  sizeof *q->parent, sizeof *q->seen,
                      sizeof *q->fmark, sizeof *q->fstack, sizeof *q->closed };
    for (int i = 0; i < 6; i++) {
        void *p = steerN_realloc(&q->alloc, *arr[i], size[i] * old, size[i] * c);
        if (!p) return -1; // the arrays grown so far stay valid at their old size
        *arr[i] = p;
        if (i == 5) q->cap = c;
    }
    memset(q->seen + old, 0, sizeof *q->seen * (c - old));
    memset(q->fmark + old, 0, sizeof *q->fmark * (c - old));
    memset(q->closed + old, 0, sizeof *q->closed * (c - old));
    return 0;
}

// The ways out of triangles for the search under way: for n directed
// edges, all unknown when the mesh, the radius or the exclusions are not
// the last search's.
static int reserve_rooms(steerN_MeshQuery *q, uint32_t n)
{
    uint32_t old = q->room_cap;
    if (steerN_query_grow(&q->alloc, (void **)&q->room, &q->room_cap, n, sizeof *q->room)) return -1;
    for (uint32_t e = old; e < q->room_cap; e++) q->room[e].stamp = 0;
    if (q->room_stamp && q->room_mesh == q->m->prepare_id && q->room_radius == q->radius &&
        q->room_excluded == q->excluded)
        return 0;
    if (++q->room_stamp == 0) {
        for (uint32_t e = 0; e < q->room_cap; e++) q->room[e].stamp = 0;
        q->room_stamp = 1;
    }
    q->room_mesh = q->m->prepare_id, q->room_radius = q->radius, q->room_excluded = q->excluded;
    return 0;
}

// (ka, a) comes before (kb, b) in the open list: by key, then by node.
static bool before(double ka, uint32_t a, double kb, uint32_t b) { return ka < kb || (ka == kb && a < b); }

static int heap_push(steerN_MeshQuery *q, double k, uint32_t item)
{
    if (q->hn == q->hcap) {
        uint32_t cap = q->hcap ? q->hcap * 2 : 256;
        if (steerN_resize2(&q->alloc, (void **)&q->hkey, sizeof *q->hkey, (void **)&q->hitem, sizeof *q->hitem, q->hcap,
                           cap))
            return -1;
        q->hcap = cap;
    }
    uint32_t i = q->hn++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (!before(k, item, q->hkey[up], q->hitem[up])) break;
        q->hkey[i] = q->hkey[up], q->hitem[i] = q->hitem[up];
        i = up;
    }
    q->hkey[i] = k, q->hitem[i] = item;
    return 0;
}

// 1 when entry c + 1 exists (below n) and comes before entry c, else 0;
// without branches, the heap's one unpredictable test (entry n, the one
// just taken off the end, is still there to read).
static uint32_t first_of(const steerN_MeshQuery *q, uint32_t c, uint32_t n)
{
    double k0 = q->hkey[c], k1 = q->hkey[c + 1];
    return (uint32_t)(c + 1 < n) &
           ((uint32_t)(k1 < k0) | ((uint32_t)(k1 == k0) & (uint32_t)(q->hitem[c + 1] < q->hitem[c])));
}

static uint32_t heap_pop(steerN_MeshQuery *q, double *k)
{
    uint32_t top = q->hitem[0];
    *k = q->hkey[0];
    double kk = q->hkey[--q->hn];
    uint32_t it = q->hitem[q->hn], i = 0, n = q->hn;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        c += first_of(q, c, n);
        if (!before(q->hkey[c], q->hitem[c], kk, it)) break;
        q->hkey[i] = q->hkey[c], q->hitem[i] = q->hitem[c];
        i = c;
    }
    if (n) q->hkey[i] = kk, q->hitem[i] = it;
    return top;
}

// The open list: the heap and one entry out of it, the front: an entry
// pushed goes there when it comes before the one there (which goes into
// the heap), and a pop takes it when it comes before the heap's first.
// The same order as the heap alone (by key, then node); but along a way
// straight toward the goal the key stays the same, and the node expanded
// next is most often one just reached: it skips the heap.
static void open_clear(steerN_MeshQuery *q) { q->hn = 0, q->has_front = false; }

static bool open_empty(const steerN_MeshQuery *q) { return !q->hn && !q->has_front; }

__attribute__((always_inline)) static inline int open_push(steerN_MeshQuery *q, double k, uint32_t item)
{
    if (!q->has_front) {
        q->front_key = k, q->front = item, q->has_front = true;
        return 0;
    }
    if (!before(k, item, q->front_key, q->front)) return heap_push(q, k, item);
    double fk = q->front_key;
    uint32_t fi = q->front;
    q->front_key = k, q->front = item;
    return heap_push(q, fk, fi);
}

static uint32_t open_pop(steerN_MeshQuery *q, double *k)
{
    if (q->has_front && (!q->hn || before(q->front_key, q->front, q->hkey[0], q->hitem[0]))) {
        q->has_front = false;
        *k = q->front_key;
        return q->front;
    }
    return heap_pop(q, k);
}

// Put an end of the path on the mesh: where it is, or the nearest point
// of the mesh when that is within the radius. False when neither.
static bool place(steerN_MeshQuery *q, const double p[2], const steerN_Floor *floor, double out[2], uint32_t *tri)
{
    const steerN_Mesh *m = q->m;
    int32_t t = steerN_mesh_locate_on(m, p, floor);
    out[0] = p[0], out[1] = p[1];
    if (t < 0) {
        double d;
        if (!steerN_mesh_nearest(m, p, 0, out, &t, &d) || !(d <= q->radius) || t < 0) return false;
    }
    *tri = (uint32_t)t;
    return q->cost[m->area[t]] < INFINITY;
}

static void reach_known(steerN_MeshQuery *q);

// A search from the start (again), with the nodes banned so far closed.
static int seed(steerN_MeshQuery *q)
{
    steerN_query_stamp(q);
    open_clear(q);
    uint32_t s = 3 * q->m->ntri;
    for (uint32_t i = 0; i < q->nban; i++) q->closed[q->ban[i]] = q->stamp;
    SearchNode *o = q->node + s;
    o->g = 0;
    o->pos[0] = q->from[0], o->pos[1] = q->from[1];
    o->key = mg_dist(q->from, q->to) * q->hscale;
    q->seen[s] = q->stamp;
    q->parent[s] = s;
    return open_push(q, o->key, s);
}

steerN_PathStatus steerN_mesh_path_begin(steerN_MeshQuery *q, const steerN_Mesh *m, const double from[2],
                                         const double to[2], const steerN_MeshFilter *f)
{
    q->m = m;
    q->npts = q->ncorr = 0;
    q->length = 0;
    open_clear(q);
    q->narrowed = false;
    q->groups = NULL;
    q->pocket = false;
    q->side = false;
    q->live = NULL;
    q->radius = f && f->radius > 0 ? f->radius : 0;
    if (!(q->radius < INFINITY)) q->radius = 0;
    q->hscale = INFINITY;
    q->excluded = 0;
    for (uint32_t i = 0; i < STEERN_MESH_AREAS; i++) {
        q->cost[i] = i < m->nareas ? (f && f->cost ? f->cost[i] : m->area_cost[i]) : INFINITY;
        if (!(q->cost[i] > 0)) q->cost[i] = INFINITY; // NaN, 0 or below: excluded
        if (q->cost[i] < q->hscale) q->hscale = q->cost[i];
        if (!(q->cost[i] < INFINITY)) q->excluded |= (uint64_t)1 << i;
    }
    if (!(q->hscale < INFINITY)) q->hscale = 0;
    q->expanded = 0;
    q->check = FLOOD_FIRST;
    if (!m->prepared || !m->ntri) return q->status = STEERN_PATH_START_OFF;
    if (!place(q, from, f ? f->from : NULL, q->from, &q->ts)) return q->status = STEERN_PATH_START_OFF;
    if (!place(q, to, f ? f->to : NULL, q->to, &q->tg)) return q->status = STEERN_PATH_GOAL_OFF;
    if (m->ntri > (UINT32_MAX - 4) / 3 || reserve_nodes(q, 3 * m->ntri + 2) || reserve_rooms(q, 3 * m->ntri))
        return q->status = STEERN_PATH_NOMEM;
    q->nban = 0;
    if ((q->groups = steerN_reach_find(q))) reach_known(q);
    return q->status = seed(q) ? STEERN_PATH_NOMEM : STEERN_PATH_WORKING;
}

// Record node n reached from p at point x for cost g.
__attribute__((always_inline)) static inline int reach(steerN_MeshQuery *q, uint32_t n, uint32_t p, const double x[2],
                                                       double g)
{
    SearchNode *o = q->node + n;
    if (q->closed[n] == q->stamp || (q->seen[n] == q->stamp && !(g < o->g))) return 0;
    q->seen[n] = q->stamp;
    q->parent[n] = p;
    o->g = g;
    o->pos[0] = x[0], o->pos[1] = x[1];
    o->key = g + mg_dist(x, q->to) * q->hscale;
    return open_push(q, o->key, n);
}

// Point p (the start or the goal) in triangle t is cut off from t's edge
// k by a pinch (mesh_query.c).
static bool pinched(const steerN_MeshQuery *q, uint32_t t, int k, const double p[2])
{
    return steerN_mesh_pinched(q->m, q->radius, t, k, p);
}

// The way out of triangle t through its edge j (e = 3 t + j, from vertex
// vp at a to vq at b): the node it enters, and the room of its portal
// for the search's radius r, kept out of its ends' circles
// (steerN_end_room), as parameters along a-b; closed when its length
// leaves no room between them (with r = 0 only a degenerate one: lo is
// 0 / len = 0 and hi 1, so clamping to them changes no parameter in
// [0, 1]). Worked out the first time a search for this mesh, radius and
// exclusions asks (the length's square root, two divisions, the
// neighbour and its area off the search's inner loop).
static __attribute__((noinline)) const PortalRoom *room_fill(steerN_MeshQuery *q, uint32_t e)
{
    PortalRoom *x = q->room + e;
    const steerN_Mesh *m = q->m;
    uint32_t vp = m->tri[e], vq = m->tri[e % 3 == 2 ? e - 2 : e + 1];
    const double *a = m->xy + 2 * vp, *b = m->xy + 2 * vq;
    double r = q->radius, len = mg_dist(a, b);
    double ra = steerN_end_room(m, vp, a, b, len, r), rb = steerN_end_room(m, vq, b, a, len, r);
    if (len < ra + rb || !(len > 0)) x->lo = INFINITY, x->hi = len > 0;
    else x->lo = ra / len, x->hi = 1 - rb / len;
    x->a[0] = a[0], x->a[1] = a[1], x->d[0] = b[0] - a[0], x->d[1] = b[1] - a[1];
    x->l2 = x->d[0] * x->d[0] + x->d[1] * x->d[1];
    int32_t u = m->adj[e];
    x->next = u < 0 || !(q->cost[m->area[u]] < INFINITY) ? UINT32_MAX : 3 * (uint32_t)u + m->back[e];
    x->stamp = q->room_stamp;
    return x;
}
__attribute__((always_inline)) static inline const PortalRoom *portal_room(steerN_MeshQuery *q, uint32_t e)
{
    const PortalRoom *x = q->room + e;
    return x->stamp == q->room_stamp ? x : room_fill(q, e);
}

static const uint8_t next_edge[3] = { 1, 2, 0 };

// Where the path from p toward the goal q crosses portal x: its
// parameter along the portal's edge, the point on the shortest way from p
// to q through it (so a step's cost follows the straight line where the
// corridor allows, and the search's costs stay near the true lengths:
// fewer triangles to expand), within its room. That point, as the least
// |p x| + |x q| over the edge's line, divides the feet of p and q in the
// ratio of their distances from the line (where the segment p-q, or p to
// q mirrored, crosses it); the sum is convex along the line, so the
// segment's is that point clamped to [0, 1]. Both on the line: p's foot.
// The edge is not degenerate (its room is open).
__attribute__((always_inline)) static inline double portal_at(const PortalRoom *x, const double p[2], const double q[2])
{
    const double *a = x->a;
    double dx = x->d[0], dy = x->d[1], l2 = x->l2;
    double tp = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2, tq = ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / l2;
    double hp = fabs(mg_cross(dx, dy, p[0] - a[0], p[1] - a[1])), hq = fabs(mg_cross(dx, dy, q[0] - a[0], q[1] - a[1]));
    double u = hp + hq > 0 ? (tp * hq + tq * hp) / (hp + hq) : tp;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return u < x->lo ? x->lo : u > x->hi ? x->hi : u;
}

// A node of the flood from the goal (below): node v, the triangle u
// entered from t through its edge that t's edge j is (u's edge e).
// Entering the start's triangle from where the start is not pinched off
// joins the two: false. Else marked and pushed (when new).
static bool flood_push(steerN_MeshQuery *q, uint32_t t, int j, uint32_t *n)
{
    const steerN_Mesh *m = q->m;
    uint32_t u = (uint32_t)m->adj[3 * t + j];
    int e = m->back[3 * t + j];
    if (u == q->ts) {
        if (!(q->radius > 0) || !pinched(q, u, e, q->from)) return false;
        q->narrowed = true;
    }
    uint32_t v = 3 * u + (uint32_t)e;
    if (q->fmark[v] != q->fstamp) q->fmark[v] = q->fstamp, q->fstack[(*n)++] = v;
    return true;
}

// The way out of triangle t through its edge j, entered through another
// edge (c: the corner between the two; -1 when entered from `inside`,
// the start or the goal, in t), when it leads to ground the filter allows
// and passes the search's radius: the width at that corner (widths are
// >= 0: nothing is too narrow for r = 0), or no pinch between `inside`
// and edge j; else NULL. What is turned away as too narrow sets narrowed.
// The portal's own length is asked by the caller (its room's lo).
__attribute__((always_inline)) static inline const PortalRoom *way_out(steerN_MeshQuery *q, uint32_t t, int j, int c,
                                                                       const double *inside)
{
    const PortalRoom *x = portal_room(q, 3 * t + (uint32_t)j);
    double r = q->radius;
    if (x->next == UINT32_MAX) return NULL;
    if (c >= 0 && r > 0 && 2 * r > q->m->width[3 * t + (uint32_t)c]) return q->narrowed = true, NULL;
    if (c < 0 && r > 0 && pinched(q, t, j, inside)) return q->narrowed = true, NULL;
    return x;
}

// The corner between edges k and j of a triangle (k != j; -1 when k is).
static int corner(int k, int j) { return k < 0 ? -1 : j == next_edge[k] ? j : k; }

// Whether the way out of triangle t through its edge j, entered through
// edge k (-1: from `inside`), is open to the search's radius: the
// search's own tests (expand), which hold both ways (way_out, and a
// portal's length).
static bool open_way(steerN_MeshQuery *q, uint32_t t, int k, int j, const double *inside)
{
    const PortalRoom *x = j == k ? NULL : way_out(q, t, j, corner(k, j), inside);
    if (!x) return false;
    if (!(x->lo < INFINITY)) return q->narrowed = q->narrowed || x->hi > 0, false;
    return true;
}

// The goal's side of the mesh, flooded with the search's rules walked
// backward: true when it holds at most `budget` nodes and the start's
// triangle is not among them (entered where the start is not pinched
// off), so the search cannot reach the goal and need not go through all
// of the start's side first (a goal in a pocket the radius does not pass
// into, on a large mesh). *work: the nodes it took off its stack.
static bool enclosed(steerN_MeshQuery *q, uint32_t budget, uint32_t *work)
{
    uint32_t tg = q->tg, n = 0;
    *work = 0;
    if (q->ts == tg) return false;
    if (++q->fstamp == 0) {
        memset(q->fmark, 0, sizeof *q->fmark * q->cap);
        q->fstamp = 1;
    }
    for (int j = 0; j < 3; j++)
        if (open_way(q, tg, -1, j, q->to) && !flood_push(q, tg, j, &n)) return false;
    while (n) {
        if (++*work > budget) return false;
        uint32_t v = q->fstack[--n], t = v / 3;
        for (int j = 0; j < 3; j++)
            if (open_way(q, t, (int)(v % 3), j, NULL) && !flood_push(q, t, j, &n)) return false;
    }
    return true;
}

// Node n (in triangle t, at `at` for cost gn, ct the cost of t) reaches
// out through t's edge j (corner c: way_out).
__attribute__((always_inline)) static inline int step_out(steerN_MeshQuery *q, uint32_t n, uint32_t t, int j, int c,
                                                          const double at[2], double gn, double ct)
{
    const PortalRoom *w = way_out(q, t, j, c, q->from);
    if (!w) return 0;
    uint32_t v = w->next;
    // expanded already (or banned: a corridor's portal), so reached
    // through this portal before, which was open then as now: nothing
    // to work out (reach would turn it away)
    if (q->closed[v] == q->stamp) return 0;
    // a node that cannot reach the goal (mesh_reach.c): one that
    // cannot get back to the largest group, nor is on the goal's side
    // of it (its reverse not in the flood from the goal: goal_side)
    if (q->live && !q->live[3 * t + (uint32_t)j] && q->fmark[3 * t + (uint32_t)j] != q->fstamp) return 0;
    if (!(w->lo < INFINITY)) {
        q->narrowed = q->narrowed || w->hi > 0;
        return 0;
    }
    double s = portal_at(w, at, q->to);
    double x[2] = { w->a[0] + s * w->d[0], w->a[1] + s * w->d[1] };
    return reach(q, v, n, x, gn + mg_dist(at, x) * ct);
}

// The search's step: node n's ways out (each reaching a node by its own
// portal, so the order they are taken in changes nothing), and the goal
// from its triangle.
static int expand(steerN_MeshQuery *q, uint32_t n)
{
    const steerN_Mesh *m = q->m;
    uint32_t start = 3 * m->ntri, t = n == start ? q->ts : n / 3;
    int k = n == start ? -1 : (int)(n % 3);
    double r = q->radius, ct = q->cost[m->area[t]];
    const double *at = q->node[n].pos, gn = q->node[n].g;
    if (k < 0) {
        for (int j = 0; j < 3; j++)
            if (step_out(q, n, t, j, -1, at, gn, ct)) return -1;
    } else {
        // the edge after k (the corner they share is its start), then the
        // one before k (their corner is k's start)
        int j = next_edge[k];
        if (step_out(q, n, t, j, j, at, gn, ct) || step_out(q, n, t, next_edge[j], k, at, gn, ct)) return -1;
    }
    if (t != q->tg) return 0;
    if (k >= 0 && r > 0 && pinched(q, t, k, q->to)) {
        q->narrowed = true;
        return 0;
    }
    return reach(q, start + 1, n, q->to, gn + mg_dist(at, q->to) * ct);
}

// After a failed search that turned something away as too narrow: is
// the goal reachable at all (radius 0, the filter's exclusions)?
static bool reachable(steerN_MeshQuery *q)
{
    int same = steerN_reach_island(q);
    if (same >= 0) return same;
    const steerN_Mesh *m = q->m;
    steerN_query_stamp(q);
    uint32_t *stack = q->parent, n = 0; // the parents are no longer needed
    q->closed[q->ts] = q->stamp;
    stack[n++] = q->ts;
    while (n) {
        uint32_t t = stack[--n];
        if (t == q->tg) return true;
        for (int j = 0; j < 3; j++) {
            int32_t u = m->adj[3 * t + j];
            if (u < 0 || q->closed[u] == q->stamp || !(q->cost[m->area[u]] < INFINITY)) continue;
            q->closed[u] = q->stamp;
            stack[n++] = (uint32_t)u;
        }
    }
    return false;
}

// Where the search can go known (mesh_reach.c): a search sure to reach
// the goal floods no more (no flood could find it shut in); a goal in a
// pocket is flooded first.
static void reach_known(steerN_MeshQuery *q)
{
    if (q->ts == q->tg) return;
    int j = steerN_reach_joins(q, q->groups);
    if (j > 0) q->check = UINT32_MAX;
    q->pocket = j == 0;
    q->side = j > 0;
}

// The goal in a pocket: is the start out of it? Flooded, up to
// FLOOD_FIRST nodes (a pocket is most often a few triangles; in a large
// one the search goes on as it would); true when shut in (the search
// answers as after a failed one: NARROW when a way exists for radius 0,
// else NONE).
static bool pocket_shut(steerN_MeshQuery *q, uint32_t budget, uint32_t *done)
{
    uint32_t work;
    q->pocket = false;
    bool shut = enclosed(q, budget - *done < FLOOD_FIRST ? budget - *done : FLOOD_FIRST, &work);
    *done += work;
    if (shut) q->narrowed = q->radius > 0;
    return shut;
}

// The goal reached from the largest group, and the start gets into it:
// the nodes that lead to the goal without getting back to the group (the
// reverses of those reached from the goal's without entering what the
// group reaches), flooded (up to FLOOD_FIRST / FLOOD_SHARE: else nothing
// is left out) and marked in fmark. Every other node that cannot get back
// to the group cannot reach the goal: the search leaves it out (live).
static void goal_side(steerN_MeshQuery *q, uint32_t budget, uint32_t *done)
{
    const steerN_Mesh *m = q->m;
    const uint8_t *r = q->groups->from_g;
    uint32_t n = 0, work = 0, cap = FLOOD_FIRST / FLOOD_SHARE, v = UINT32_MAX;
    if (budget - *done < cap) cap = budget - *done;
    q->side = false;
    if (++q->fstamp == 0) {
        memset(q->fmark, 0, sizeof *q->fmark * q->cap);
        q->fstamp = 1;
    }
    for (;;) {
        uint32_t t = v == UINT32_MAX ? q->tg : v / 3;
        int k = v == UINT32_MAX ? -1 : (int)(v % 3);
        for (int j = 0; j < 3; j++) {
            if (!open_way(q, t, k, j, q->to)) continue;
            uint32_t u = (uint32_t)m->adj[3 * t + j], x = 3 * u + m->back[3 * t + j];
            if (!r[x] && q->fmark[x] != q->fstamp) q->fmark[x] = q->fstamp, q->fstack[n++] = x;
        }
        if (!n) break;
        if (++work > cap) {
            *done += work;
            return;
        }
        v = q->fstack[--n];
    }
    *done += work;
    q->live = r;
}

// A long search (half as many nodes as the mesh has triangles, or more),
// first time: where the search can go (mesh_reach.c), worked out and
// charged as work a triangle each when the budget leaves room for it.
// True when the goal is in a pocket the start is not in.
static bool long_search(steerN_MeshQuery *q, uint32_t budget, uint32_t *done)
{
    uint32_t nt = q->m->ntri;
    if (q->no_reach || q->groups || q->ts == q->tg || q->expanded < nt / 2 || budget - *done < nt ||
        !(q->groups = steerN_reach_make(q)))
        return false;
    *done += nt;
    reach_known(q);
    if (q->side) goal_side(q, budget, done);
    return q->pocket && pocket_shut(q, budget, done);
}

steerN_PathStatus steerN_mesh_path_step(steerN_MeshQuery *q, uint32_t budget, uint32_t *used)
{
    uint32_t done = 0;
    if (q->status == STEERN_PATH_WORKING) {
        uint32_t start = 3 * q->m->ntri;
        if (q->pocket && pocket_shut(q, budget, &done)) open_clear(q);
        if (q->side) goal_side(q, budget, &done);
        while (!open_empty(q) && done < budget) {
            double k;
            uint32_t n = open_pop(q, &k);
            if (q->closed[n] == q->stamp || k != q->node[n].key) continue; // stale
            q->closed[n] = q->stamp;
            if (n == start + 1) {
                // a corridor no way keeping r was made in (the widths let
                // a gap narrower than the agent through): searched again
                // without its portal nearest the pinch, a few times
                uint32_t bad = UINT32_MAX;
                q->status = steerN_query_finish(q, q->nban < STEERN_MESH_BANS ? &bad : NULL);
                if (bad == UINT32_MAX) break;
                q->ban[q->nban++] = bad;
                q->narrowed = true;
                if (seed(q)) {
                    q->status = STEERN_PATH_NOMEM;
                    break;
                }
                q->status = STEERN_PATH_WORKING;
                continue;
            }
            done++;
            if (expand(q, n)) {
                q->status = STEERN_PATH_NOMEM;
                break;
            }
            // a long search: is the goal shut in? (within what the budget
            // leaves, the flood's nodes counted as work; each flood at
            // most a quarter of the search so far, the next at twice the
            // search: all of them at most half of it)
            if (++q->expanded >= q->check && long_search(q, budget, &done)) {
                open_clear(q);
                break;
            }
            if (q->expanded >= q->check && budget - done >= q->check / FLOOD_SHARE) {
                uint32_t work;
                bool shut = enclosed(q, q->check / FLOOD_SHARE, &work);
                done += work;
                q->check = q->check > UINT32_MAX / 2 ? UINT32_MAX : 2 * q->check;
                if (shut) {
                    open_clear(q);
                    break;
                }
            }
        }
        if (q->status == STEERN_PATH_WORKING && open_empty(q))
            q->status = q->narrowed && reachable(q) ? STEERN_PATH_NARROW : STEERN_PATH_NONE;
    }
    if (used) *used = done;
    return q->status;
}

steerN_PathStatus steerN_mesh_path_plain(steerN_MeshQuery *q, const steerN_Mesh *m, const double from[2],
                                         const double to[2], const steerN_MeshFilter *f)
{
    uint32_t used = 0;
    steerN_PathStatus s = steerN_mesh_path_begin(q, m, from, to, f);
    if (s == STEERN_PATH_WORKING) s = steerN_mesh_path_step(q, UINT32_MAX, &used);
    q->work = used;
    // no way wide enough from a start nearer a wall than the radius: the
    // agent stands where it stands, pressed to the wall; the way from the
    // mesh's nearest point where it fits, with the start put back in front
    // (Detour finds its start on the mesh eroded by the radius alike)
    double near[2], dist;
    int32_t t;
    // (on a mesh of several layers, on the start's floor: its walls, its ground)
    if (s != STEERN_PATH_NARROW || !f || !(f->radius > 0) ||
        !(steerN_mesh_wall_distance_on(m, from, f->from, NULL, NULL) < f->radius) ||
        !steerN_mesh_nearest_on(m, from, f->from, f->radius, near, &t, &dist) ||
        (near[0] == from[0] && near[1] == from[1]))
        return s;
    steerN_PathStatus again = steerN_mesh_path_begin(q, m, near, to, f);
    if (again == STEERN_PATH_WORKING) again = steerN_mesh_path_step(q, UINT32_MAX, &used);
    q->work += used;
    // (and only when the step from the start to there is on the mesh: the
    // nearest point is found in steps, each clear, which need not be so
    // for the straight way back, past a pinch of the mesh)
    double fr = 1;
    if (again == STEERN_PATH_FOUND && steerN_mesh_raycast(m, from, q->pts, f, NULL, NULL, &fr) == 1 && fr < 1 - 1e-9)
        again = STEERN_PATH_NONE;
    if (again != STEERN_PATH_FOUND) {
        q->status = s; // the answer for the start as it is
        return s;
    }
    if (steerN_query_grow(&q->alloc, (void **)&q->pts, &q->cap_pts, q->npts + 1, 2 * sizeof *q->pts))
        return q->status = STEERN_PATH_NOMEM;
    memmove(q->pts + 2, q->pts, sizeof *q->pts * 2 * q->npts);
    q->pts[0] = from[0], q->pts[1] = from[1];
    q->npts++;
    q->length += mg_dist(q->pts, q->pts + 2);
    return STEERN_PATH_FOUND;
}

const double *steerN_mesh_path_points(const steerN_MeshQuery *q, uint32_t *n)
{
    *n = q->status == STEERN_PATH_FOUND ? q->npts : 0;
    return q->pts;
}

const int32_t *steerN_mesh_path_corridor(const steerN_MeshQuery *q, uint32_t *n)
{
    *n = q->status == STEERN_PATH_FOUND ? q->ncorr : 0;
    return q->corr;
}

uint32_t steerN_mesh_path_work(const steerN_MeshQuery *q) { return q->work; }

double steerN_mesh_path_length(const steerN_MeshQuery *q) { return q->status == STEERN_PATH_FOUND ? q->length : 0; }
