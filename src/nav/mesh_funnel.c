// SPDX-License-Identifier: MIT
// mesh_funnel.c — the way along a corridor found by the search (mesh_path.c)
// for an agent of a given radius.
//
// The funnel (Demyen's modified funnel algorithm): the simple stupid
// funnel over the corridor's portals, where each portal end that is a wall
// vertex is a circle of radius r, an area's corner nearer a wall than r
// the circle of radius r about that wall's nearest point (steerN_mesh_end),
// and every other point (the start, the goal, an area corner) a circle of
// radius 0. The funnel's sides are
// tangents from the apex's circle to the sides' circles: outer tangents
// between two corners on the same side, inner ones between opposite sides
// (through the point where they touch for two circles exactly 2 r apart).
// A corner the path turns at is written as points on the polygon
// circumscribed about its circle: each arc of at most 22.5 degrees becomes
// one point (where the tangents at its ends meet, r / cos(arc / 2) from the
// vertex, at most 2% of r outside the arc), so every segment of the path is
// a tangent of the circles it passes and keeps r from their vertices; the
// arc is split toward every wall within 2.02 r of its vertex, so that the
// polygon has a side facing that wall and keeps r from it too (a wall
// nearer than 2 r there is a gap the widths let through: the path is then
// checked whole). With
// r = 0 every circle is a point and this is the classic simple stupid
// funnel, point for point. Then repair: corners turned round the wrong
// way are dropped (when the path is made again, also those a circle put
// back turns so), and circles a segment cuts are put back, and so are
// the far ends of walls whose strip (r either side) a segment leaving a
// corner's circle cuts. A path for r > 0 is checked (its points on the
// mesh, a raycast along each segment, and when repair changed it or it
// left the mesh, r from every wall when its ends are): one that fails is
// made again from the classic funnel's corners as circles, repaired, and
// refused as NARROW when that fails too (and the search tries again
// without the corridor's portal nearest the pinch); one that leaves the mesh with a
// start or goal within r of a wall (where rounded corners need not fit)
// is replaced by the funnel over the portals as points, each wall end
// moved r along its portal, which stays inside the corridor.
#include "mesh_path.h"

#include <math.h>
#include <string.h>

// The tangent from circle a to circle b with each on its side: its
// direction d (unnormalized when both offsets are equal: the points' own
// difference at radius 0) and its points on a and on b. Zero when a is b.
static void tangent(const Obj *a, const Obj *b, double d[2], double ta[2], double tb[2])
{
    double oa = a->side * a->rho, ob = b->side * b->rho;
    double dx = b->p[0] - a->p[0], dy = b->p[1] - a->p[1], l2 = dx * dx + dy * dy, l = 0, del = ob - oa;
    double n[2] = { 0, 0 };
    // (the square root only where it is used: the funnel asks most
    // tangents for their direction alone, and at radius 0 every offset is
    // equal)
    if (a->id == b->id && a->side == b->side) {
        d[0] = d[1] = 0;
    } else if (del == 0 || !(fabs(del) <= (l = sqrt(l2)) * (1 + 1e-9))) {
        // equal offsets: the centres' line shifted; overlapping circles
        // (the start or goal within r of a wall vertex): no tangent, so
        // the centres' direction
        d[0] = dx, d[1] = dy;
        if (!ta && !tb) return;
        if (del == 0) l = sqrt(l2);
        if (l > 0) n[0] = -dy / l, n[1] = dx / l;
    } else {
        // (circles that touch, within rounding: the tangent through the
        // point where they do, across the line of their centres)
        double c2 = l2 - del * del, c = sqrt(c2 > 0 ? c2 : 0), ux = dx / l, uy = dy / l;
        d[0] = (c * ux + del * uy) / l, d[1] = (c * uy - del * ux) / l;
        n[0] = -d[1], n[1] = d[0];
    }
    if (ta) ta[0] = a->p[0] - oa * n[0], ta[1] = a->p[1] - oa * n[1];
    if (tb) tb[0] = b->p[0] - ob * n[0], tb[1] = b->p[1] - ob * n[1];
}

static bool same(const Obj *a, const Obj *b) { return a->id == b->id && a->side == b->side; }

// tangent's direction alone, the common cases inline (equal offsets: at
// radius 0 all of them; the centres' difference): what the funnel asks
// for most.
static inline void direction(const Obj *a, const Obj *b, double d[2])
{
    if (same(a, b)) d[0] = d[1] = 0;
    else if (b->side * b->rho - a->side * a->rho == 0) d[0] = b->p[0] - a->p[0], d[1] = b->p[1] - a->p[1];
    else tangent(a, b, d, NULL, NULL);
}

// A side of the funnel that is still its apex: the apex itself, or a
// portal end at the apex's very point (the start on a vertex of the
// corridor's portals). No tangent leaves the apex toward it, so it bounds
// nothing, as in the classic funnel (which compares the points).
static bool at_apex(const Obj *apex, const Obj *o)
{
    return same(apex, o) || (apex->p[0] == o->p[0] && apex->p[1] == o->p[1]);
}

static int emit(steerN_MeshQuery *q, const double p[2])
{
    if (q->npts && q->pts[2 * q->npts - 2] == p[0] && q->pts[2 * q->npts - 1] == p[1]) return 0;
    if (steerN_query_grow(&q->alloc, (void **)&q->pts, &q->cap_pts, q->npts + 1, 2 * sizeof *q->pts)) return -1;
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

// The angle from unit direction u to w turning toward side s (> 0: left),
// as a pseudo-angle in [0, 4) (a quarter turn is 1), monotonic in the
// true angle and free of libm.
static double turn_of(const double u[2], const double w[2], int s)
{
    double x = u[0] * w[0] + u[1] * w[1], y = s * mg_cross(u[0], u[1], w[0], w[1]);
    if (y >= 0) return x >= 0 ? (x + y > 0 ? y / (x + y) : 0) : 1 + -x / (-x + y);
    return x < 0 ? 2 + -y / (-x - y) : 3 + x / (x - y);
}

// A split of the arc round o (from unit direction u, turning `end`) in
// the direction of point c, when the arc passes it: the polygon about
// o's circle then has a side tangent there, and the whole polygon stays
// on o's side of that tangent, so it keeps r from anything 2 r from o's
// vertex that way. Kept in the order the arc meets them; true when the
// arc passes c.
enum { MAXSPLIT = 16 };
static bool add_split(const Obj *o, const double u[2], const double c[2], double end, double split[][2], double *at,
                      int *ns)
{
    double w[2] = { c[0] - o->p[0], c[1] - o->p[1] };
    double a = turn_of(u, w, o->side); // as for w's unit direction
    if (!(a > 0 && a < end)) return false;
    for (int k = 0; k < *ns; k++)
        if (fabs(at[k] - a) < 1e-12) return true; // that way already (a portal's end and its walls)
    if (*ns == MAXSPLIT) return true;
    unit(w);
    int i = (*ns)++;
    for (; i > 0 && at[i - 1] > a; i--) at[i] = at[i - 1], split[i][0] = split[i - 1][0], split[i][1] = split[i - 1][1];
    at[i] = a, split[i][0] = w[0], split[i][1] = w[1];
    return true;
}

// The path round corner o, from the point where it arrives on o's circle
// to the point where it leaves. The polygon about the circle reaches out
// up to 2% of r; where another circle is near (across a portal of o's
// that is barely 2 r wide), one of the polygon's sides touches o's circle
// right in front of it, so the path keeps r from that circle too.
static int emit_corner(steerN_MeshQuery *q, const Obj *o, const double in[2], const double out[2])
{
    if (!(o->rho > 0)) return emit(q, o->p);
    double u[2] = { in[0] - o->p[0], in[1] - o->p[1] }, v[2] = { out[0] - o->p[0], out[1] - o->p[1] };
    unit(u), unit(v);
    double turn = mg_cross(u[0], u[1], v[0], v[1]) * o->side, dot = u[0] * v[0] + u[1] * v[1];
    if (turn < 0 && dot >= 0) return emit_arc(q, o, u, v, false, 0); // a hair the wrong way: straight on
    // the other ends of o's portals within 2.05 r, and the nearest points
    // of the walls within 2.02 r of o's centre, in the order the arc meets
    // them (once each way)
    enum { MAXWALLS = 32 };
    double split[MAXSPLIT][2], at[MAXSPLIT], end = turn_of(u, v, o->side);
    int ns = 0;
    const Obj *P = q->portal;
    uint32_t lo = o->at, hi = o->at, np = q->ncorr + 1, opp = o->side > 0 ? 1 : 0;
    while (lo > 0 && same(&P[2 * lo - 2 + (1 - opp)], o)) lo--;
    while (hi + 1 < np && same(&P[2 * hi + 2 + (1 - opp)], o)) hi++;
    for (uint32_t j = lo; j <= hi && same(&P[2 * j + (1 - opp)], o); j++) {
        const Obj *c = &P[2 * j + opp];
        if (c->rho > 0 && mg_dist(c->p, o->p) < 2.05 * o->rho) add_split(o, u, c->p, end, split, at, &ns);
    }
    // (the polygon reaches r / cos 11.25 degrees from o's vertex, so a
    // wall 2.02 r away is out of reach; at a wall's vertex the nearest
    // wall point in front is known, and often the only one that near)
    const steerN_Mesh *m = q->m;
    uint32_t wall[MAXWALLS], nw = 0;
    bool vertex = o->id < m->nvert && m->vwall[o->id];
    double reach = 2.02 * o->rho;
    if (!vertex || (double)m->front_next[o->id] < reach) nw = steerN_mesh_walls_within(m, o->p, reach, wall, MAXWALLS);
    else if (m->front[o->id] != UINT32_MAX) wall[nw++] = m->front[o->id];
    for (uint32_t j = 0; j < nw && j < MAXWALLS; j++) {
        uint32_t t = wall[j] / 3, i = wall[j] % 3;
        if (m->tri[3 * t + i] == o->v || m->tri[3 * t + (i + 1) % 3] == o->v) continue; // o's own walls
        double at_wall[2], d2 = mg_seg_nearest(o->p, mg_v(m, t, (int)i), mg_v(m, t, (int)(i + 1) % 3), at_wall, NULL);
        if (!(d2 < reach * reach)) continue;
        // a wall nearer than 2 r across the arc: a gap narrower than the
        // agent the widths let through (past an area's corner); the path
        // is checked whole
        if (add_split(o, u, at_wall, end, split, at, &ns) && d2 < 4 * o->rho * o->rho * (1 - 1e-9)) q->repaired = true;
    }
    const double *from = u;
    double prev = 0;
    for (int i = 0; i < ns; i++) {
        if (emit_arc(q, o, from, split[i], at[i] - prev > 2, 0)) return -1;
        from = split[i], prev = at[i];
    }
    return emit_arc(q, o, from, v, end - prev > 2, 0);
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

// Target t crosses side o's tangent but o does not block it (t short of
// o's tangent point): an end on o's side (s) of a portal between the
// apex's (from) and o's (to) that t crosses and meets first blocks it
// still: the tightest such end (the most toward t), else NULL. Without
// this the funnel forgets the corner its side was tightened from.
static const Obj *earlier_block(const Obj *P, uint32_t from, uint32_t to, int s, const Obj *apex, const Obj *o,
                                const Obj *t, const double dn[2])
{
    const Obj *best = NULL;
    double db[2] = { 0, 0 };
    for (uint32_t j = from + 1; j < to; j++) {
        const Obj *c = &P[2 * j + (s > 0 ? 0 : 1)];
        double dc[2];
        if (at_apex(apex, c) || same(c, o)) continue;
        direction(apex, c, dc);
        if (!(s * mg_cross(dc[0], dc[1], dn[0], dn[1]) > 0) || !first(apex, c, t, dn)) continue;
        if (!best || s * mg_cross(db[0], db[1], dc[0], dc[1]) < 0) best = c, db[0] = dc[0], db[1] = dc[1];
    }
    return best;
}

static int push_corner(steerN_MeshQuery *q, const Obj *o)
{
    if (steerN_query_grow(&q->alloc, (void **)&q->cor, &q->cap_cor, q->ncor + 1, sizeof *q->cor)) return -1;
    q->cor[q->ncor++] = *o;
    return 0;
}

// A side at the apex takes the new end x of its own side unless the
// other side o crosses it: o a real bound (not at the apex) and not all
// three points. With points only (radius 0, area corners, the start) the
// classic funnel takes x whatever o is: x and o are the ends of portals,
// never crossed, and a start on a portal's line would only see rounding.
static bool open_side(const Obj *apex, const Obj *o, const Obj *x)
{
    return !at_apex(apex, o) && (apex->rho > 0 || o->rho > 0 || x->rho > 0);
}

// The corners the path turns round (into q->cor, the start first and the
// goal last).
static int funnel(steerN_MeshQuery *q, uint32_t np)
{
    const Obj *P = q->portal;
    Obj apex = P[0], left = P[0], right = P[1];
    uint32_t left_i = 0, right_i = 0, apex_i = 0;
    // dl and dr: the tangents from the apex to the sides, kept while
    // neither changes (the same as asked again, bit for bit)
    double dl[2], dr[2], dn[2];
    direction(&apex, &left, dl);
    direction(&apex, &right, dr);
    q->ncor = 0;
    if (push_corner(q, &apex)) return -1;
    for (uint32_t i = 1; i < np; i++) {
        const Obj *l = &P[2 * i], *r = &P[2 * i + 1];
        Obj next = apex;
        uint32_t next_i = 0;
        bool turn = false;
        // the right side: tighten it, unless it crosses the left
        direction(&apex, r, dn);
        if (mg_cross(dr[0], dr[1], dn[0], dn[1]) >= 0) {
            bool cross = at_apex(&apex, &right) ? open_side(&apex, &left, r) && mg_cross(dl[0], dl[1], dn[0], dn[1]) > 0
                                                : !(mg_cross(dl[0], dl[1], dn[0], dn[1]) < 0);
            bool blocks = cross && first(&apex, &left, r, dn);
            const Obj *b = cross && !blocks ? earlier_block(P, apex_i, left_i, 1, &apex, &left, r, dn) : NULL;
            if (b) next = *b, next_i = b->at, turn = true;
            else if (!blocks) right = *r, right_i = i, dr[0] = dn[0], dr[1] = dn[1];
            else next = left, next_i = left_i, turn = true;
        }
        if (!turn) {
            direction(&apex, l, dn);
            if (mg_cross(dl[0], dl[1], dn[0], dn[1]) <= 0) {
                bool cross = at_apex(&apex, &left)
                                 ? open_side(&apex, &right, l) && mg_cross(dr[0], dr[1], dn[0], dn[1]) < 0
                                 : !(mg_cross(dr[0], dr[1], dn[0], dn[1]) > 0);
                bool blocks = cross && first(&apex, &right, l, dn);
                const Obj *b = cross && !blocks ? earlier_block(P, apex_i, right_i, -1, &apex, &right, l, dn) : NULL;
                if (b) next = *b, next_i = b->at, turn = true;
                else if (!blocks) left = *l, left_i = i, dl[0] = dn[0], dl[1] = dn[1];
                else next = right, next_i = right_i, turn = true;
            }
        }
        if (!turn) continue;
        // the side that was crossed becomes the apex: the path turns there;
        // a side at the apex's point (the start on a portal's vertex) is a
        // turn on the spot: the scan restarts from its portal, the apex kept
        if (!at_apex(&apex, &next)) {
            if (push_corner(q, &next)) return -1;
            apex = next;
        } else if (same(&apex, &next)) {
            apex = next;
        }
        left = right = apex;
        left_i = right_i = apex_i = next_i;
        direction(&apex, &left, dl);
        dr[0] = dl[0], dr[1] = dl[1];
        i = next_i;
    }
    return push_corner(q, &P[2 * np - 2]);
}

// Circle c is among the corners twice already (a path can wrap a circle,
// leave it for a point its corridor must pass, an area's corner, and wrap
// it again; no more).
static bool known(const steerN_MeshQuery *q, const Obj *c)
{
    int n = 0;
    for (uint32_t i = 0; i < q->ncor; i++) n += same(&q->cor[i], c);
    return n >= 2;
}

// The circle about p holds an end of the segment from a to b that is a
// free point (the start or the goal closer than r to a wall: the agent
// stands where it stands, and the segment may come as close as its end).
static bool holds_end(const Obj *a, const Obj *b, const double p[2], double lim)
{
    return (a->id >= START_ID && mg_dist(a->p, p) < lim) || (b->id >= START_ID && mg_dist(b->p, p) < lim);
}

// Wall edge i of triangle t, as the strip r wide along it, is cut by the
// segment ta-tb from corner a to corner b where the edge starts at a's or
// b's vertex (a wall runs on past a corner's vertex: the tangent from its
// circle can leave the circle inside the strip). Going round the strip is
// going round the circles at both its ends with the outer tangent between
// them, so the circle to put back is the edge's other end, on that
// corner's side. Into *out when deeper than *worst; false when not cut,
// when the segment may come that near (a free end of it, the start or the
// goal, is itself within r of the edge), or when the circle is among the
// corners already.
// The box of a segment grown by r and by more than rounding (1e-9 of the
// level's size): a point or an edge wholly on one side of it is farther
// than r from the segment, also as mg_seg_nearest and mg_seg_seg compute
// it, so their divisions can be skipped (an edge's crossing is still
// asked, as mg_seg_seg does: no answer changes).
typedef struct Box {
    double lo[2], hi[2];
} Box;

static Box seg_box(const steerN_Mesh *m, const double a[2], const double b[2], double r)
{
    double size = mg_max(mg_max(fabs(m->bmin[0]), fabs(m->bmax[0])), mg_max(fabs(m->bmin[1]), fabs(m->bmax[1])));
    double g = r + 1e-9 * (1 + size + r);
    return (Box){ { mg_min(a[0], b[0]) - g, mg_min(a[1], b[1]) - g },
                  { mg_max(a[0], b[0]) + g, mg_max(a[1], b[1]) + g } };
}

static bool outside(const Box *x, const double p[2], const double q[2])
{
    return (p[0] < x->lo[0] && q[0] < x->lo[0]) || (p[0] > x->hi[0] && q[0] > x->hi[0]) ||
           (p[1] < x->lo[1] && q[1] < x->lo[1]) || (p[1] > x->hi[1] && q[1] > x->hi[1]);
}

static bool strip_cut(steerN_MeshQuery *q, const Obj *a, const Obj *b, const double ta[2], const double tb[2],
                      const Box *box, uint32_t t, int i, double *worst, Obj *out)
{
    const steerN_Mesh *m = q->m;
    double r = q->radius, lim = r - 1e-9;
    uint32_t vx = m->tri[3 * t + i], vy = m->tri[3 * t + (i + 1) % 3];
    const double *x = m->xy + 2 * vx, *y = m->xy + 2 * vy;
    bool at_x = vx == a->id || vx == b->id, at_y = vy == a->id || vy == b->id;
    if (at_x && at_y) return false; // the edge between the two corners: their own tangent's business
    double d = !outside(box, x, y) ? mg_seg_seg(ta, tb, x, y) : mg_seg_cross(ta, tb, x, y) ? 0 : INFINITY;
    if (!(d < lim)) return false;
    for (int e = 0; e < 2; e++) {
        const Obj *c = e ? b : a;
        if (c->id >= START_ID && mg_seg_nearest(c->p, x, y, NULL, NULL) < lim * lim) return false;
    }
    // a cut the repair may not mend (a wall's middle, a circle among the
    // corners already): the path is checked whole (finish)
    q->repaired = true;
    if ((!at_x && !at_y) || !(r - d > *worst)) return false;
    uint32_t v = at_x ? vy : vx;
    int side = (at_x ? vx : vy) == a->id ? a->side : b->side;
    Obj c = { { m->xy[2 * v], m->xy[2 * v + 1] }, r, side, v, a->at, v };
    if (known(q, &c)) return false;
    *out = c, *worst = r - d;
    return true;
}

// The circle the path's segment from corner k to corner k + 1 cuts
// deepest (a wall vertex nearer the segment than r), into *out; false
// when none does. First the circles of the portals the segment can pass
// (from the portal before the first that holds corner k's vertex to
// corner k + 1's), each on its own side; then any other wall vertex of
// the triangles within r of the segment (beyond an edge of the corridor
// that is no wall: Demyen's widths look only across the edge a path
// leaves by), on the side of the segment it lies. Circles already among
// the corners are not candidates.
static bool worst_cut(steerN_MeshQuery *q, uint32_t k, Obj *out)
{
    const steerN_Mesh *m = q->m;
    const Obj *P = q->portal, *a = &q->cor[k], *b = &q->cor[k + 1];
    double d[2], ta[2], tb[2], r = q->radius, lim = r - 1e-9;
    tangent(a, b, d, ta, tb);
    double len = mg_dist(ta, tb);
    if (!(len > 0) || !(r > 0)) return false;
    Box box = seg_box(m, ta, tb, r);
    uint32_t lo = a->at, hi = b->at;
    while (lo > 0 && (P[2 * lo - 2].id == a->id || P[2 * lo - 1].id == a->id)) lo--;
    lo -= lo > 0;
    bool found = false;
    double worst = 0;
    for (uint32_t j = 2 * lo; j < 2 * hi + 2; j++) {
        const Obj *c = &P[j];
        if (!(c->rho > 0) || c->id == a->id || c->id == b->id || holds_end(a, b, c->p, lim)) continue;
        if (outside(&box, c->p, c->p) || !(mg_seg_nearest(c->p, ta, tb, NULL, NULL) < lim * lim)) continue;
        // how far past its side of the segment's line the circle reaches
        double depth = c->rho - mg_orient(ta, tb, c->p) / len * c->side;
        if (known(q, c)) q->repaired = true; // cut, and not to be put back again: checked whole
        if ((found && !(depth > worst)) || known(q, c)) continue;
        *out = *c, found = true, worst = depth;
    }
    if (found) return true;
    // whatever the walk below finds or marks repaired (a wall vertex, a
    // wall edge's strip) is a wall edge nearer the segment than lim (a
    // vertex's distance is one of those mg_seg_seg takes the least of; a
    // hair more for the rounding of its square root): when the wall index
    // has none, the walk is skipped (most segments; the walk was a
    // quarter of a query at r 0.5 on rooms)
    if (steerN_mesh_segment_clear(m, ta, tb, lim * (1 + 1e-12))) return false;
    // the triangles within r of the segment, from the corridor's between
    // the two portals outward (q->parent as the stack: the search is over)
    steerN_query_stamp(q);
    uint32_t *stack = q->parent, n = 0, t0 = lo ? lo - 1 : 0, t1 = hi < q->ncorr ? hi : q->ncorr - 1;
    for (uint32_t i = t0; i <= t1; i++) {
        uint32_t t = (uint32_t)q->corr[i];
        if (q->closed[t] != q->stamp) q->closed[t] = q->stamp, stack[n++] = t;
    }
    while (n) {
        uint32_t t = stack[--n];
        for (int i = 0; i < 3; i++) {
            uint32_t v = m->tri[3 * t + i];
            const double *p = m->xy + 2 * v;
            if (m->vwall[v] && v != a->id && v != b->id && !outside(&box, p, p) &&
                mg_seg_nearest(p, ta, tb, NULL, NULL) < lim * lim && !holds_end(a, b, p, lim)) {
                double o = mg_orient(ta, tb, p) / len;
                Obj c = { { p[0], p[1] }, r, o > 0 ? 1 : -1, v, a->at, v };
                double depth = r - (o > 0 ? o : -o);
                if (known(q, &c)) q->repaired = true;
                else if (!(found && !(depth > worst))) *out = c, found = true, worst = depth;
            }
            int32_t u = m->adj[3 * t + i];
            if (u < 0 && strip_cut(q, a, b, ta, tb, &box, t, i, &worst, out)) found = true;
            if (u < 0 || q->closed[u] == q->stamp) continue;
            const double *p1 = mg_v(m, t, (i + 1) % 3);
            if (outside(&box, p, p1) ? !mg_seg_cross(ta, tb, p, p1) : !(mg_seg_seg(ta, tb, p, p1) < r)) continue;
            q->closed[u] = q->stamp;
            stack[n++] = (uint32_t)u;
        }
    }
    return found;
}

// Corner k (between two others) turned round the wrong way: a circle
// kept on the left that the path turns right at, by more than rounding.
static bool backward(const steerN_MeshQuery *q, uint32_t k)
{
    const Obj *o = &q->cor[k];
    if (!(o->rho > 0)) return false;
    double din[2], dout[2];
    direction(&q->cor[k - 1], o, din);
    direction(o, &q->cor[k + 1], dout);
    double turn = o->side * mg_cross(din[0], din[1], dout[0], dout[1]);
    double size = sqrt((din[0] * din[0] + din[1] * din[1]) * (dout[0] * dout[0] + dout[1] * dout[1]));
    return turn < -1e-9 * size;
}

static void drop_corner(steerN_MeshQuery *q, uint32_t k)
{
    memmove(q->cor + k, q->cor + k + 1, sizeof *q->cor * (q->ncor - k - 1));
    q->ncor--;
    q->repaired = true;
}

// Drop the corners the path turns round the wrong way: the funnel can
// take a portal end on a straight wall for a corner, and the polygon
// about its circle then dips into the wall's strip (the tangent from the
// circle leaves it where the wall runs on past its vertex). The corner
// before a dropped one is looked at again.
static void drop_backward(steerN_MeshQuery *q)
{
    for (uint32_t k = 1; k + 1 < q->ncor;) {
        if (!backward(q, k)) {
            k++;
            continue;
        }
        drop_corner(q, k);
        k -= k > 1;
    }
}

// Put back every circle a segment cuts (the funnel can miss the far end
// of a portal it turned at when the turn's tangent point lies before that
// portal, and wall vertices beyond the corridor's side edges): insert the
// deepest cut circle as a corner between the segment's ends and check
// both new segments again. A circle (a vertex and a side) is inserted
// once at most, so this ends; the insertions are also capped (a few per
// portal). With r = 0 nothing is cut. With redrop (the path made again
// from the classic funnel's corners), the corner after an inserted one,
// when that turns it round the wrong way, is dropped as well: the two
// circles a few centimetres apart on one side (a wall's vertex, and an
// area's corner's circle about the point of that wall nearest it) that
// the path would otherwise wrap round one another, leaving the mesh.
static int repair(steerN_MeshQuery *q, bool redrop)
{
    uint32_t budget = 4 * q->ncorr + 64, kept = 1;
    q->repaired = false;
    // with r = 0 every corner is a point: none holds an end, none is
    // turned round the wrong way, no segment cuts one
    if (!(q->radius > 0)) return 0;
    // first drop the corners whose circle holds the start or the goal (the
    // agent stands inside it: nothing to go round); an area's corner far
    // from walls is a point (rho 0): a start near it still turns there
    const Obj *s = &q->cor[0], *g = &q->cor[q->ncor - 1];
    for (uint32_t k = 1; k + 1 < q->ncor; k++)
        if (!holds_end(s, g, q->cor[k].p, q->cor[k].rho - 1e-9)) q->cor[kept++] = q->cor[k];
    q->cor[kept++] = *g;
    q->ncor = kept;
    drop_backward(q);
    for (uint32_t k = 0; k + 1 < q->ncor;) {
        Obj c;
        if (!budget || !worst_cut(q, k, &c)) {
            k++;
            continue;
        }
        budget--;
        if (steerN_query_grow(&q->alloc, (void **)&q->cor, &q->cap_cor, q->ncor + 1, sizeof *q->cor)) return -1;
        memmove(q->cor + k + 2, q->cor + k + 1, sizeof *q->cor * (q->ncor - k - 1));
        q->cor[k + 1] = c;
        q->ncor++;
        q->repaired = true;
        if (redrop && k + 3 < q->ncor && backward(q, k + 2)) drop_corner(q, k + 2);
    }
    return 0;
}

// The path's points: round each corner, from the point where the tangent
// from the previous corner arrives to where the one to the next leaves.
static int emit_path(steerN_MeshQuery *q)
{
    const Obj *c = q->cor;
    double in[2] = { c[0].p[0], c[0].p[1] }, d[2], out[2], nin[2];
    for (uint32_t k = 0; k + 1 < q->ncor; k++) {
        // two circles on opposite sides closer than their radii: a
        // squeeze the widths let through (past an area's corner, whose
        // triangles do not see the wall vertices on both sides of the
        // gap): the path is checked whole
        if (c[k].rho > 0 && c[k + 1].rho > 0 && c[k].side != c[k + 1].side &&
            mg_dist(c[k].p, c[k + 1].p) < (c[k].rho + c[k + 1].rho) * (1 - 1e-9))
            q->repaired = true;
        // (where the path arrives at and leaves a corner matters only for
        // a circle: a point is itself)
        if (c[k].rho > 0 || c[k + 1].rho > 0) tangent(&c[k], &c[k + 1], d, out, nin);
        else out[0] = c[k].p[0], out[1] = c[k].p[1], nin[0] = c[k + 1].p[0], nin[1] = c[k + 1].p[1];
        if (emit_corner(q, &c[k], in, out)) return -1;
        in[0] = nin[0], in[1] = nin[1];
    }
    // the goal, even on the start's point: a path runs from start to goal
    const double *g = c[q->ncor - 1].p;
    if (q->npts != 1) return emit(q, g);
    if (steerN_query_grow(&q->alloc, (void **)&q->pts, &q->cap_pts, 2, 2 * sizeof *q->pts)) return -1;
    q->pts[2] = g[0], q->pts[3] = g[1];
    q->npts = 2;
    return 0;
}

static void set_obj(Obj *o, const steerN_Mesh *m, uint32_t v, int side, double r, uint32_t at)
{
    o->at = at;
    o->rho = steerN_mesh_end(m, v, r, o->p);
    o->side = side;
    o->id = o->v = v;
}

// On a mesh of several layers, the heights of the path's points on its
// corridor (q->pz), so that its checks walk and count the walls of the
// floor each segment is on; NULL on a mesh of one layer (every wall
// counts) or out of memory (then every wall counts too: a path may be
// refused as too narrow, none is let through a wall).
static const double *path_z(steerN_MeshQuery *q)
{
    if (!q->m->layer || steerN_query_grow(&q->alloc, (void **)&q->pz, &q->cap_pz, q->npts, sizeof *q->pz)) return NULL;
    steerN_mesh_heights_along(q->m, q->pts, q->npts, q->corr, q->ncorr, q->pz);
    return q->pz;
}

// Every point of the path on the mesh and no segment through a wall
// (grazing a wall's end within rounding is not through it).
static bool on_mesh(steerN_MeshQuery *q) { return steerN_mesh_polyline_on(q->m, q->pts, path_z(q), q->npts); }

// Every segment of the path keeps the radius from every wall of its floor
// (within 1e-7 m).
static bool keeps_radius(steerN_MeshQuery *q)
{
    return !steerN_mesh_polyline_near(q->m, q->pts, path_z(q), q->npts, q->radius - 1e-7);
}

// The distance from an end of the path (in triangle t) to the walls of
// its floor.
static double end_clearance(const steerN_MeshQuery *q, const double p[2], uint32_t t)
{
    steerN_Floor g = { 0, true, steerN_mesh_surface(q->m, t, p) };
    return steerN_mesh_wall_distance_on(q->m, p, q->m->layer ? &g : NULL, NULL, NULL);
}

// The corridor's portals as points (radius 0), each wall end moved
// `shrink` along its portal toward the other end (A* left room for it):
// such a point is a new one, so it gets an id of its own.
static void points_only(steerN_MeshQuery *q, uint32_t np, double shrink)
{
    const steerN_Mesh *m = q->m;
    for (uint32_t i = 1; i + 1 < np; i++) {
        Obj *l = &q->portal[2 * i], *r = &q->portal[2 * i + 1];
        set_obj(l, m, l->v, 1, 0, i);
        set_obj(r, m, r->v, -1, 0, i);
        double len = mg_dist(l->p, r->p), d[2] = { r->p[0] - l->p[0], r->p[1] - l->p[1] };
        if (!(shrink > 0) || !(len > 0)) continue;
        double a = steerN_mesh_end(m, l->v, shrink, NULL) > 0 ? shrink / len : 0,
               b = steerN_mesh_end(m, r->v, shrink, NULL) > 0 ? shrink / len : 0;
        if (a + b > 1) a = b = 0.5;
        if (a > 0) l->p[0] += a * d[0], l->p[1] += a * d[1], l->id = START_ID - 2 * i - 2;
        if (b > 0) r->p[0] -= b * d[0], r->p[1] -= b * d[1], r->id = START_ID - 2 * i - 1;
    }
}

// The node of the corridor's portal nearest the point of the path
// nearest a wall (the path sampled 8 times a segment): where the corridor
// is too narrow.
static uint32_t pinch_node(steerN_MeshQuery *q)
{
    const steerN_Mesh *m = q->m;
    const double *z = path_z(q);
    double best = INFINITY, at[2] = { q->pts[0], q->pts[1] };
    for (uint32_t i = 0; i + 1 < q->npts; i++)
        for (int k = 0; k < 8; k++) {
            const double *a = q->pts + 2 * i, *b = a + 2;
            double x[2] = { a[0] + (b[0] - a[0]) * k / 8, a[1] + (b[1] - a[1]) * k / 8 };
            steerN_Floor g = { 0, true, z ? z[i] + (z[i + 1] - z[i]) * k / 8 : 0 };
            double d = steerN_mesh_wall_distance_on(m, x, z ? &g : NULL, NULL, NULL);
            if (d < best) best = d, at[0] = x[0], at[1] = x[1];
        }
    uint32_t bi = 0;
    double bd = INFINITY;
    for (uint32_t i = 1; i < q->ncorr; i++) {
        const double *a = m->xy + 2 * q->portal[2 * i].v, *b = m->xy + 2 * q->portal[2 * i + 1].v;
        double d = mg_seg_nearest(at, a, b, NULL, NULL);
        if (d < bd) bd = d, bi = i;
    }
    if (!bi) return UINT32_MAX;
    uint32_t t = (uint32_t)q->corr[bi];
    return 3 * t + (uint32_t)mg_back_edge(m, t, (uint32_t)q->corr[bi - 1]);
}

steerN_PathStatus steerN_query_finish(steerN_MeshQuery *q, uint32_t *bad)
{
    const steerN_Mesh *m = q->m;
    uint32_t start = 3 * m->ntri, n = 0;
    for (uint32_t x = q->parent[start + 1];; x = q->parent[x]) {
        n++;
        if (x == start) break;
    }
    if (steerN_query_grow(&q->alloc, (void **)&q->corr, &q->cap_corr, n, sizeof *q->corr) ||
        steerN_query_grow(&q->alloc, (void **)&q->portal, &q->cap_portal, 2 * (n + 1), sizeof *q->portal))
        return STEERN_PATH_NOMEM;
    // the corridor, and portal i + 1 the entry edge of its triangle i + 1
    uint32_t i = n;
    for (uint32_t x = q->parent[start + 1];; x = q->parent[x]) {
        i--;
        q->corr[i] = (int32_t)(x == start ? q->ts : x / 3);
        if (x == start) break;
        uint32_t t = x / 3, k = x % 3;
        // entering t through its edge k: the left end is its vertex k
        set_obj(&q->portal[2 * i], m, m->tri[3 * t + k], 1, q->radius, i);
        set_obj(&q->portal[2 * i + 1], m, m->tri[3 * t + (k + 1) % 3], -1, q->radius, i);
    }
    q->ncorr = n;
    Obj s = { { q->from[0], q->from[1] }, 0, 0, START_ID, 0, START_ID },
        g = { { q->to[0], q->to[1] }, 0, 0, GOAL_ID, n, GOAL_ID };
    q->portal[0] = q->portal[1] = s;
    q->portal[2 * n] = q->portal[2 * n + 1] = g;
    q->npts = 0;
    if (funnel(q, n + 1) || repair(q, false) || emit_path(q)) return STEERN_PATH_NOMEM;
    // the rounded funnel is not proven to stay on the mesh, nor to keep r
    // from the walls: it can forget a corner (the goal short of a spike's
    // tip it must go round, across the spike), which repair then puts back
    // circle after circle. So a path that leaves the mesh, or one repair
    // changed, with both ends r from the walls, is checked: when it leaves
    // the mesh or comes nearer a wall than r, the classic funnel's corners
    // (the right ones, at radius 0), each a circle again on its side, with
    // every circle or strip a segment cuts put back, make it. A path that
    // leaves the mesh with a start or goal near a wall: the corridor's
    // portals kept r from their wall ends, then the portals themselves, as
    // points: the classic funnel, inside the corridor
    bool ok = q->radius == 0 || on_mesh(q);
    if (!(ok && !q->repaired) && end_clearance(q, q->from, q->ts) >= q->radius &&
        end_clearance(q, q->to, q->tg) >= q->radius && !(ok && keeps_radius(q))) {
        points_only(q, n + 1, 0);
        q->npts = 0;
        if (funnel(q, n + 1)) return STEERN_PATH_NOMEM;
        for (uint32_t k = 1; k + 1 < q->ncor; k++)
            if (q->cor[k].id < m->nvert) q->cor[k].rho = steerN_mesh_end(m, q->cor[k].id, q->radius, q->cor[k].p);
        if (repair(q, true) || emit_path(q)) return STEERN_PATH_NOMEM;
        // no path round the corners within r found (rare: two circles
        // closer than a few centimetres past 2 r, walls at odd angles):
        // refused, as too narrow, rather than a path nearer a wall than r
        if (!(on_mesh(q) && keeps_radius(q))) {
            if (bad && q->npts) *bad = pinch_node(q);
            q->npts = 0;
            return STEERN_PATH_NARROW;
        }
        ok = true;
    }
    for (double shrink = q->radius; shrink >= 0 && !ok; shrink = shrink > 0 ? 0 : -1) {
        points_only(q, n + 1, shrink);
        q->npts = 0;
        if (funnel(q, n + 1) || emit_path(q)) return STEERN_PATH_NOMEM;
        ok = on_mesh(q);
    }
    q->length = 0;
    for (uint32_t j = 1; j < q->npts; j++) q->length += mg_dist(q->pts + 2 * j - 2, q->pts + 2 * j);
    return STEERN_PATH_FOUND;
}
