// SPDX-License-Identifier: MIT
// mesh_path.c — paths on a navigation mesh for an agent of a given radius
// (mesh.h): A* over the triangles, then a funnel with rounded corners.
//
// The search. A node is a triangle entered through one of its edges
// (3 t + edge; the start and the goal are two more nodes), so a triangle
// reached first through an edge that cannot turn toward the goal for a
// wide agent may still be reached through another. Each node carries the
// point where the path crosses its entry edge: the point of that portal
// nearest the previous crossing point, kept r from the portal's ends that
// are walls. A step costs the distance between successive crossing points
// times the cost of the triangle between them (the filter's, else the
// mesh's; INFINITY: never entered); the heuristic is the straight distance
// to the goal times the least area cost, so it never overestimates. A way
// through triangle t from edge k to edge j is open to radius r only when
// 2 r <= the width of t at the corner between k and j (mesh_query.c), and
// a portal only when its length leaves r at each wall end. The heap orders
// by (f, node), so ties go to the lower triangle: the same query gives the
// same path, bit for bit. When the search fails for r > 0 after turning
// something away as too narrow, a flood with r = 0 tells NARROW from NONE.
//
// Sliced: begin sets the search up, step expands at most `budget` nodes,
// so a world can spread many requests over ticks; all memory lives in the
// steerN_MeshQuery and is reused (stamps instead of clearing).
//
// The funnel (Demyen's modified funnel algorithm): the simple stupid
// funnel over the corridor's portals, where each portal end that is a wall
// vertex (vwall) is a circle of radius r and every other point (the start,
// the goal, an area corner) a circle of radius 0. The funnel's sides are
// tangents from the apex's circle to the sides' circles: outer tangents
// between two corners on the same side, inner ones between opposite sides.
// A corner the path turns at is written as points on the polygon
// circumscribed about its circle: each arc of at most 22.5 degrees becomes
// one point (where the tangents at its ends meet, r / cos(arc / 2) from the
// vertex, at most 2% of r outside the arc), so every segment of the path is
// a tangent of the circles it passes and keeps r from their vertices. With
// r = 0 every circle is a point and this is the classic simple stupid
// funnel, point for point.
#include "mesh_geom.h"

#include <string.h>

enum { START_ID = UINT32_MAX - 1, GOAL_ID = UINT32_MAX };

typedef struct Obj {
    double p[2];
    double rho;  // the circle's radius
    int side;    // +1 the path keeps it on its left, -1 right, 0 a free point
    uint32_t id; // its vertex, START_ID or GOAL_ID
} Obj;

struct steerN_MeshQuery {
    steerN_Alloc alloc;
    // per node: 3 per triangle, then the start and the goal
    uint32_t cap;
    double *g, *key, *pos;
    uint32_t *parent, *seen, *closed;
    uint32_t stamp;
    // the open list: a binary heap of (key, node)
    double *hkey;
    uint32_t *hitem, hn, hcap;
    // the search under way
    const steerN_Mesh *m;
    double from[2], to[2], radius, hscale;
    float cost[STEERN_MESH_AREAS];
    uint32_t ts, tg;
    bool narrowed; // something was turned away as too narrow
    steerN_PathStatus status;
    // the last path
    double *pts;
    uint32_t npts, cap_pts;
    int32_t *corr;
    uint32_t ncorr, cap_corr;
    Obj *portal; // 2 per portal: left, right
    uint32_t cap_portal;
    double length;
};

static int grow(const steerN_Alloc *a, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return 0;
    uint32_t c = *cap ? *cap : 64;
    while (c < need) c = c > UINT32_MAX / 2 ? need : c * 2;
    void *q = steerN_realloc(a, *p, elem * *cap, elem * c);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

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
    steerN_realloc(&a, q->g, sizeof *q->g * n, 0);
    steerN_realloc(&a, q->key, sizeof *q->key * n, 0);
    steerN_realloc(&a, q->pos, sizeof *q->pos * 2 * n, 0);
    steerN_realloc(&a, q->parent, sizeof *q->parent * n, 0);
    steerN_realloc(&a, q->seen, sizeof *q->seen * n, 0);
    steerN_realloc(&a, q->closed, sizeof *q->closed * n, 0);
    steerN_realloc(&a, q->hkey, sizeof *q->hkey * q->hcap, 0);
    steerN_realloc(&a, q->hitem, sizeof *q->hitem * q->hcap, 0);
    steerN_realloc(&a, q->pts, sizeof *q->pts * 2 * q->cap_pts, 0);
    steerN_realloc(&a, q->corr, sizeof *q->corr * q->cap_corr, 0);
    steerN_realloc(&a, q->portal, sizeof *q->portal * q->cap_portal, 0);
    steerN_realloc(&a, q, sizeof *q, 0);
}

// The node arrays for n nodes (stamps of new entries zero).
static int reserve_nodes(steerN_MeshQuery *q, uint32_t n)
{
    if (n <= q->cap) return 0;
    uint32_t c = q->cap ? q->cap : 64, old = q->cap;
    while (c < n) c = c > UINT32_MAX / 2 ? n : c * 2;
    void **arr[] = { (void **)&q->g,      (void **)&q->key,  (void **)&q->pos,
                     (void **)&q->parent, (void **)&q->seen, (void **)&q->closed };
    size_t size[] = { sizeof *q->g,      sizeof *q->key,  2 * sizeof *q->pos,
                      sizeof *q->parent, sizeof *q->seen, sizeof *q->closed };
    for (int i = 0; i < 6; i++) {
        void *p = steerN_realloc(&q->alloc, *arr[i], size[i] * old, size[i] * c);
        if (!p) return -1; // the arrays grown so far stay valid at their old size
        *arr[i] = p;
        if (i == 5) q->cap = c;
    }
    memset(q->seen + old, 0, sizeof *q->seen * (c - old));
    memset(q->closed + old, 0, sizeof *q->closed * (c - old));
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

static uint32_t heap_pop(steerN_MeshQuery *q, double *k)
{
    uint32_t top = q->hitem[0];
    *k = q->hkey[0];
    double kk = q->hkey[--q->hn];
    uint32_t it = q->hitem[q->hn], i = 0, n = q->hn;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && before(q->hkey[c + 1], q->hitem[c + 1], q->hkey[c], q->hitem[c])) c++;
        if (!before(q->hkey[c], q->hitem[c], kk, it)) break;
        q->hkey[i] = q->hkey[c], q->hitem[i] = q->hitem[c];
        i = c;
    }
    if (n) q->hkey[i] = kk, q->hitem[i] = it;
    return top;
}

static void next_stamp(steerN_MeshQuery *q)
{
    if (++q->stamp == 0) {
        memset(q->seen, 0, sizeof *q->seen * q->cap);
        memset(q->closed, 0, sizeof *q->closed * q->cap);
        q->stamp = 1;
    }
}

// Put an end of the path on the mesh: where it is, or the nearest point
// of the mesh when that is within the radius. False when neither.
static bool place(steerN_MeshQuery *q, const double p[2], double out[2], uint32_t *tri)
{
    const steerN_Mesh *m = q->m;
    int32_t t = steerN_mesh_locate(m, p);
    out[0] = p[0], out[1] = p[1];
    if (t < 0) {
        double d;
        if (!steerN_mesh_nearest(m, p, 0, out, &t, &d) || !(d <= q->radius) || t < 0) return false;
    }
    *tri = (uint32_t)t;
    return q->cost[m->area[t]] < INFINITY;
}

steerN_PathStatus steerN_mesh_path_begin(steerN_MeshQuery *q, const steerN_Mesh *m, const double from[2],
                                         const double to[2], const steerN_MeshFilter *f)
{
    q->m = m;
    q->npts = q->ncorr = 0;
    q->length = 0;
    q->hn = 0;
    q->narrowed = false;
    q->radius = f && f->radius > 0 ? f->radius : 0;
    if (!(q->radius < INFINITY)) q->radius = 0;
    q->hscale = INFINITY;
    for (uint32_t i = 0; i < STEERN_MESH_AREAS; i++) {
        q->cost[i] = i < m->nareas ? (f && f->cost ? f->cost[i] : m->area_cost[i]) : INFINITY;
        if (!(q->cost[i] > 0)) q->cost[i] = INFINITY; // NaN, 0 or below: excluded
        if (q->cost[i] < q->hscale) q->hscale = q->cost[i];
    }
    if (!(q->hscale < INFINITY)) q->hscale = 0;
    if (!m->prepared || !m->ntri) return q->status = STEERN_PATH_START_OFF;
    if (!place(q, from, q->from, &q->ts)) return q->status = STEERN_PATH_START_OFF;
    if (!place(q, to, q->to, &q->tg)) return q->status = STEERN_PATH_GOAL_OFF;
    if (m->ntri > (UINT32_MAX - 4) / 3 || reserve_nodes(q, 3 * m->ntri + 2)) return q->status = STEERN_PATH_NOMEM;
    next_stamp(q);
    uint32_t s = 3 * m->ntri;
    q->g[s] = 0;
    q->pos[2 * s] = q->from[0], q->pos[2 * s + 1] = q->from[1];
    q->key[s] = mg_dist(q->from, q->to) * q->hscale;
    q->seen[s] = q->stamp;
    q->parent[s] = s;
    if (heap_push(q, q->key[s], s)) return q->status = STEERN_PATH_NOMEM;
    return q->status = STEERN_PATH_WORKING;
}

// Record node n reached from p at point x for cost g.
static int reach(steerN_MeshQuery *q, uint32_t n, uint32_t p, const double x[2], double g)
{
    if (q->closed[n] == q->stamp || (q->seen[n] == q->stamp && !(g < q->g[n]))) return 0;
    q->seen[n] = q->stamp;
    q->g[n] = g;
    q->parent[n] = p;
    q->pos[2 * n] = x[0], q->pos[2 * n + 1] = x[1];
    q->key[n] = g + mg_dist(x, q->to) * q->hscale;
    return heap_push(q, q->key[n], n);
}

static int expand(steerN_MeshQuery *q, uint32_t n)
{
    const steerN_Mesh *m = q->m;
    uint32_t start = 3 * m->ntri, t = n == start ? q->ts : n / 3;
    int k = n == start ? -1 : (int)(n % 3);
    double r = q->radius, ct = q->cost[m->area[t]];
    const double *at = q->pos + 2 * n;
    for (int j = 0; j < 3; j++) {
        if (j == k) continue;
        int32_t u = m->adj[3 * t + j];
        if (u < 0 || !(q->cost[m->area[u]] < INFINITY)) continue;
        if (k >= 0) {
            int corner = j == (k + 1) % 3 ? j : k; // the vertex edges k and j share
            if (2 * r > m->width[3 * t + corner]) {
                q->narrowed = true;
                continue;
            }
        }
        uint32_t vp = m->tri[3 * t + j], vq = m->tri[3 * t + (j + 1) % 3];
        const double *a = m->xy + 2 * vp, *b = m->xy + 2 * vq;
        double len = mg_dist(a, b), ra = m->vwall[vp] ? r : 0, rb = m->vwall[vq] ? r : 0;
        if (len < ra + rb || !(len > 0)) {
            q->narrowed = q->narrowed || len > 0;
            continue;
        }
        double s, lo = ra / len, hi = 1 - rb / len;
        mg_seg_nearest(at, a, b, NULL, &s);
        s = s < lo ? lo : s > hi ? hi : s;
        double x[2] = { a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1]) };
        double g = q->g[n] + mg_dist(at, x) * ct;
        if (reach(q, 3 * (uint32_t)u + (uint32_t)mg_back_edge(m, (uint32_t)u, t), n, x, g)) return -1;
    }
    if (t != q->tg) return 0;
    return reach(q, start + 1, n, q->to, q->g[n] + mg_dist(at, q->to) * ct);
}

// After a failed search that turned something away as too narrow: is
// the goal reachable at all (radius 0, the filter's exclusions)?
static bool reachable(steerN_MeshQuery *q)
{
    const steerN_Mesh *m = q->m;
    next_stamp(q);
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

static steerN_PathStatus finish(steerN_MeshQuery *q);

steerN_PathStatus steerN_mesh_path_step(steerN_MeshQuery *q, uint32_t budget, uint32_t *used)
{
    uint32_t done = 0;
    if (q->status == STEERN_PATH_WORKING) {
        uint32_t start = 3 * q->m->ntri;
        while (q->hn && done < budget) {
            double k;
            uint32_t n = heap_pop(q, &k);
            if (q->closed[n] == q->stamp || k != q->key[n]) continue; // stale
            q->closed[n] = q->stamp;
            if (n == start + 1) {
                q->status = finish(q);
                break;
            }
            done++;
            if (expand(q, n)) {
                q->status = STEERN_PATH_NOMEM;
                break;
            }
        }
        if (q->status == STEERN_PATH_WORKING && !q->hn)
            q->status = q->narrowed && reachable(q) ? STEERN_PATH_NARROW : STEERN_PATH_NONE;
    }
    if (used) *used = done;
    return q->status;
}

steerN_PathStatus steerN_mesh_path(steerN_MeshQuery *q, const steerN_Mesh *m, const double from[2], const double to[2],
                                   const steerN_MeshFilter *f)
{
    steerN_PathStatus s = steerN_mesh_path_begin(q, m, from, to, f);
    return s == STEERN_PATH_WORKING ? steerN_mesh_path_step(q, UINT32_MAX, NULL) : s;
}

// ---- the funnel ------------------------------------------------------------

// The tangent from circle a to circle b with each on its side: its
// direction d (unnormalized when both offsets are equal: the points' own
// difference at radius 0) and its points on a and on b. Zero when a is b.
static void tangent(const Obj *a, const Obj *b, double d[2], double ta[2], double tb[2])
{
    double oa = a->side * a->rho, ob = b->side * b->rho;
    double dx = b->p[0] - a->p[0], dy = b->p[1] - a->p[1], l2 = dx * dx + dy * dy, l = sqrt(l2), del = ob - oa;
    double n[2] = { 0, 0 };
    if (a->id == b->id && a->side == b->side) {
        d[0] = d[1] = 0;
    } else if (del == 0 || !(fabs(del) < l)) {
        // equal offsets: the centres' line shifted; overlapping circles
        // (the start or goal within r of a wall vertex): no tangent, so
        // the centres' direction
        d[0] = dx, d[1] = dy;
        if (l > 0) n[0] = -dy / l, n[1] = dx / l;
    } else {
        double c = sqrt(l2 - del * del), ux = dx / l, uy = dy / l;
        d[0] = (c * ux + del * uy) / l, d[1] = (c * uy - del * ux) / l;
        n[0] = -d[1], n[1] = d[0];
    }
    if (ta) ta[0] = a->p[0] - oa * n[0], ta[1] = a->p[1] - oa * n[1];
    if (tb) tb[0] = b->p[0] - ob * n[0], tb[1] = b->p[1] - ob * n[1];
}

static bool same(const Obj *a, const Obj *b) { return a->id == b->id && a->side == b->side; }

static int emit(steerN_MeshQuery *q, const double p[2])
{
    if (q->npts && q->pts[2 * q->npts - 2] == p[0] && q->pts[2 * q->npts - 1] == p[1]) return 0;
    if (grow(&q->alloc, (void **)&q->pts, &q->cap_pts, q->npts + 1, 2 * sizeof *q->pts)) return -1;
    q->pts[2 * q->npts] = p[0], q->pts[2 * q->npts + 1] = p[1];
    q->npts++;
    return 0;
}

static void unit(double v[2])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1]);
    if (l > 0) v[0] /= l, v[1] /= l;
}

// The points of the polygon circumscribed about circle o between the unit
// directions u and v (from its centre), turning toward o's side; big when
// the turn exceeds half a circle.
static int emit_arc(steerN_MeshQuery *q, const Obj *o, const double u[2], const double v[2], bool big, int depth)
{
    double dot = u[0] * v[0] + u[1] * v[1];
    if (!big && (dot >= 0.92387953251128674 || depth >= 6)) { // cos 22.5 degrees
        double k = o->rho / (1 + dot);
        double p[2] = { o->p[0] + (u[0] + v[0]) * k, o->p[1] + (u[1] + v[1]) * k };
        return emit(q, p);
    }
    double mid[2] = { u[0] + v[0], u[1] + v[1] };
    if (mid[0] * mid[0] + mid[1] * mid[1] < 1e-18) {
        mid[0] = -o->side * u[1], mid[1] = o->side * u[0]; // a quarter turn toward its side
    } else {
        unit(mid);
        if (big) mid[0] = -mid[0], mid[1] = -mid[1];
    }
    return emit_arc(q, o, u, mid, false, depth + 1) || emit_arc(q, o, mid, v, false, depth + 1);
}

// The path round corner o, from the point where it arrives on o's circle
// to the point where it leaves.
static int emit_corner(steerN_MeshQuery *q, const Obj *o, const double in[2], const double out[2])
{
    if (!(o->rho > 0)) return emit(q, o->p);
    double u[2] = { in[0] - o->p[0], in[1] - o->p[1] }, v[2] = { out[0] - o->p[0], out[1] - o->p[1] };
    unit(u), unit(v);
    double turn = mg_cross(u[0], u[1], v[0], v[1]) * o->side, dot = u[0] * v[0] + u[1] * v[1];
    return emit_arc(q, o, u, v, turn < 0 && dot < 0, 0);
}

// Target t's tangent from the apex passes beyond side o's (on its wrong
// side): o blocks it only when the path meets o's circle first (o's
// tangent point no farther along than t's). Points always block, as in
// the classic funnel; a circle's tangent point can lie past a nearer
// target (the goal short of a corner it is beside).
static bool first(const Obj *apex, const Obj *o, const Obj *t, const double dn[2])
{
    if (!(o->rho > 0)) return true;
    double d[2], to[2], tt[2];
    tangent(apex, o, d, NULL, to);
    tangent(apex, t, d, NULL, tt);
    return (to[0] - apex->p[0]) * dn[0] + (to[1] - apex->p[1]) * dn[1] <=
           (tt[0] - apex->p[0]) * dn[0] + (tt[1] - apex->p[1]) * dn[1];
}

static int funnel(steerN_MeshQuery *q, uint32_t np)
{
    const Obj *P = q->portal;
    Obj apex = P[0], left = P[0], right = P[1];
    uint32_t left_i = 0, right_i = 0;
    double in[2] = { apex.p[0], apex.p[1] }, dl[2], dr[2], dn[2];
    for (uint32_t i = 1; i < np; i++) {
        const Obj *l = &P[2 * i], *r = &P[2 * i + 1];
        Obj next = apex;
        uint32_t next_i = 0;
        bool turn = false;
        // the right side: tighten it, unless it crosses the left
        tangent(&apex, &right, dr, NULL, NULL);
        tangent(&apex, r, dn, NULL, NULL);
        if (mg_cross(dr[0], dr[1], dn[0], dn[1]) >= 0) {
            tangent(&apex, &left, dl, NULL, NULL);
            bool cross = same(&apex, &right) ? !same(&apex, &left) && mg_cross(dl[0], dl[1], dn[0], dn[1]) > 0
                                             : !(mg_cross(dl[0], dl[1], dn[0], dn[1]) < 0);
            if (!cross || !first(&apex, &left, r, dn)) right = *r, right_i = i;
            else next = left, next_i = left_i, turn = true;
        }
        if (!turn) {
            tangent(&apex, &left, dl, NULL, NULL);
            tangent(&apex, l, dn, NULL, NULL);
            if (mg_cross(dl[0], dl[1], dn[0], dn[1]) <= 0) {
                tangent(&apex, &right, dr, NULL, NULL);
                bool cross = same(&apex, &left) ? !same(&apex, &right) && mg_cross(dr[0], dr[1], dn[0], dn[1]) < 0
                                                : !(mg_cross(dr[0], dr[1], dn[0], dn[1]) > 0);
                if (!cross || !first(&apex, &right, l, dn)) left = *l, left_i = i;
                else next = right, next_i = right_i, turn = true;
            }
        }
        if (!turn) continue;
        // the side that was crossed becomes the apex: the path turns there
        if (!same(&apex, &next)) {
            double out[2], nin[2];
            tangent(&apex, &next, dn, out, nin);
            if (emit_corner(q, &apex, in, out)) return -1;
            in[0] = nin[0], in[1] = nin[1];
        }
        apex = left = right = next;
        left_i = right_i = next_i;
        i = next_i;
    }
    const Obj *goal = &P[2 * np - 2];
    double out[2];
    tangent(&apex, goal, dn, out, NULL);
    return emit_corner(q, &apex, in, out) || emit(q, goal->p) ? -1 : 0;
}

static void set_obj(Obj *o, const steerN_Mesh *m, uint32_t v, int side, double r)
{
    o->p[0] = m->xy[2 * v], o->p[1] = m->xy[2 * v + 1];
    o->rho = m->vwall[v] ? r : 0;
    o->side = side;
    o->id = v;
}

static steerN_PathStatus finish(steerN_MeshQuery *q)
{
    const steerN_Mesh *m = q->m;
    uint32_t start = 3 * m->ntri, n = 0;
    for (uint32_t x = q->parent[start + 1];; x = q->parent[x]) {
        n++;
        if (x == start) break;
    }
    if (grow(&q->alloc, (void **)&q->corr, &q->cap_corr, n, sizeof *q->corr) ||
        grow(&q->alloc, (void **)&q->portal, &q->cap_portal, 2 * (n + 1), sizeof *q->portal))
        return STEERN_PATH_NOMEM;
    // the corridor, and portal i + 1 the entry edge of its triangle i + 1
    uint32_t i = n;
    for (uint32_t x = q->parent[start + 1];; x = q->parent[x]) {
        i--;
        q->corr[i] = (int32_t)(x == start ? q->ts : x / 3);
        if (x == start) break;
        uint32_t t = x / 3, k = x % 3;
        // entering t through its edge k: the left end is its vertex k
        set_obj(&q->portal[2 * i], m, m->tri[3 * t + k], 1, q->radius);
        set_obj(&q->portal[2 * i + 1], m, m->tri[3 * t + (k + 1) % 3], -1, q->radius);
    }
    q->ncorr = n;
    Obj s = { { q->from[0], q->from[1] }, 0, 0, START_ID }, g = { { q->to[0], q->to[1] }, 0, 0, GOAL_ID };
    q->portal[0] = q->portal[1] = s;
    q->portal[2 * n] = q->portal[2 * n + 1] = g;
    q->npts = 0;
    if (funnel(q, n + 1)) return STEERN_PATH_NOMEM;
    q->length = 0;
    for (uint32_t j = 1; j < q->npts; j++) q->length += mg_dist(q->pts + 2 * j - 2, q->pts + 2 * j);
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

double steerN_mesh_path_length(const steerN_MeshQuery *q) { return q->status == STEERN_PATH_FOUND ? q->length : 0; }
