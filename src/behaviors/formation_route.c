// SPDX-License-Identifier: MIT
// formation_route.c — members that cannot follow the formation straight
// (issue 35): one pushed off a gap's mouth, left behind an obstacle, or
// still behind the narrow place the formation formed up past, has a wall
// between it and its slot, and steering straight at the slot would press
// it into that wall. Once a tick (formation_slot's serve hook, on the
// calling thread, after the anchor moved), each member whose sight line to
// its slot is blocked (the world's walls, obstacles and shapes; with a
// navigation mesh, the mesh's walls or edge) gets the next point of a way
// there (cut[i], via[2i..]): with a mesh, the first corner of the mesh's
// path for its radius; without one (or when the mesh sees no wall), the
// newest point of the anchor's trail it can see: the anchor came through
// the narrow place, so its trail leads there. formation_slot then steers
// it to that point at full speed; a member that sees its slot again goes
// straight, as every member in the open always does. Deterministic (the
// shape grid's and the mesh's rays and searches, in member order).
#include "formation_impl.h"

#include <math.h>

#define TRAIL_SCAN 4 // trail points between those a member tries (TRAIL_STEP apart: a metre)

// Whether the segment p -> q is clear of the world's shapes and, with a
// mesh, stays on it: for a disc of radius r, the segment and its two
// sides r apart (a body's way past a gap's edge, not only its centre's).
// When it is not, `face` (when given) gets the point where the first
// blocked ray hit and the unit normal there, turned toward p's side
// (x, y, nx, ny).
static bool sight(steer_World *w, const steerB_Formation *f, const float p[3], const float q[2], float r, float face[4])
{
    float dx = q[0] - p[0], dy = q[1] - p[1], l = sqrtf(dx * dx + dy * dy);
    if (l < 1e-4f) return true;
    float dir[3] = { dx / l, dy / l, 0.0f }, t, nrm[3];
    for (int side = -1; side <= 1; side++) {
        if (side && r == 0.0f) continue;
        // a side's ray starts no further out than the shapes beside p allow:
        // one that started past a gap's jamb would not see the jamb
        float perp[3] = { -dir[1] * (float)side, dir[0] * (float)side, 0.0f }, off = r;
        uint32_t shape;
        if (side && w->geo.live && steerO_ray_shapes(w, &w->loc, p, perp, r, &t, nrm, &shape)) off = 0.99f * t;
        float o[3] = { p[0] + perp[0] * off, p[1] + perp[1] * off, p[2] };
        bool hit = w->geo.live && steerO_ray_shapes(w, &w->loc, o, dir, l, &t, nrm, &shape);
        if (!hit && f->mesh) {
            double from[2] = { o[0], o[1] }, to[2] = { o[0] + dx, o[1] + dy }, at[2], hn[2], frac;
            hit = steerN_mesh_raycast(f->mesh, from, to, NULL, at, hn, &frac) > 0;
            nrm[0] = (float)hn[0], nrm[1] = (float)hn[1], t = (float)frac * l;
        }
        if (!hit) continue;
        if (face) {
            float sign = nrm[0] * dir[0] + nrm[1] * dir[1] > 0.0f ? -1.0f : 1.0f;
            face[0] = o[0] + dir[0] * t, face[1] = o[1] + dir[1] * t;
            face[2] = sign * nrm[0], face[3] = sign * nrm[1];
        }
        return false;
    }
    return true;
}

// The first corner of the mesh's way from p to slot s for a disc of radius
// r: true with it in out, false when there is none (either end off the
// mesh, no way) or the way is straight.
static bool mesh_corner(steer_World *w, steerB_Formation *f, const float p[3], const float s[3], float r, float out[2])
{
    steerN_Alloc libc = { NULL, NULL };
    if (!f->q && !(f->q = steerN_mesh_query_new(&libc))) {
        steerA_error(w, "formation: out of memory finding a member's way on the navigation mesh");
        return false;
    }
    double from[2] = { p[0], p[1] }, to[2] = { s[0], s[1] };
    steerN_MeshFilter filter = { .radius = r, .cost = NULL };
    if (steerN_mesh_path(f->q, f->mesh, from, to, &filter) != STEERN_PATH_FOUND) return false;
    uint32_t n = 0;
    const double *pts = steerN_mesh_path_points(f->q, &n);
    if (n < 3) return false;
    out[0] = (float)pts[2], out[1] = (float)pts[3];
    return true;
}

// The newest point of the anchor's trail that a disc of radius r at p sees
// (every TRAIL_SCAN-th, and the oldest) and that lies a spacing or more
// off `face` (what hides its slot: a point on it and its normal toward p;
// NULL: anywhere): true with it in out. A member pressed beside a gap's
// jamb so steps back from the wall onto the trail before it turns through
// the gap, instead of creeping along the wall (a seek along a wall that
// the body's heading turns into holds avoid_walls in its corner trap).
static bool trail_point(steer_World *w, const steerB_Formation *f, const float p[3], float r, const float face[4],
                        float out[2])
{
    for (uint32_t j = f->ntrail; j > 0;) {
        j = j > TRAIL_SCAN ? j - TRAIL_SCAN : 0;
        const float *q = f->trail + 2 * j;
        if (face) { // a spacing or more off it, and away from it at 45 degrees or more
            float ex = q[0] - p[0], ey = q[1] - p[1], away = ex * face[2] + ey * face[3];
            if ((q[0] - face[0]) * face[2] + (q[1] - face[1]) * face[3] < f->spacing ||
                away < fabsf(ex * face[3] - ey * face[2]))
                continue;
        }
        if (sight(w, f, p, q, r, NULL)) {
            out[0] = q[0], out[1] = q[1];
            return true;
        }
    }
    return false;
}

void steerB_formation_route(steer_World *w, steerB_Formation *f)
{
    if (f->n == 0) return;
    if ((w->geo.live == 0 && !f->mesh) || steerO_geometry_ready(w) != STEER_OK) {
        memset(f->cut, 0, f->n);
        return;
    }
    for (uint32_t i = 0; i < f->n; i++) {
        int64_t d = steerW_dense(w, f->member[i]);
        float p[3], s[3];
        f->cut[i] = 0;
        if (d < 0) continue;
        steerW_load(w->p, (uint32_t)d, p);
        steerB_formation_goal(f, i, s);
        float face[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
        if (sight(w, f, p, s, w->radius[d], face)) continue;
        float via[2], r = w->radius[d], wide = r + 0.5f * f->spacing;
        // the newest trail point it sees with half a spacing to spare (a
        // member aimed at a gap's edge is pushed past it, along the wall);
        // when the way there runs along the wall that hides the slot (less
        // than 45 degrees into it: a member beside a gap's jamb), a point
        // that leads off that wall instead (below)
        bool seen = f->mesh && mesh_corner(w, f, p, s, r, via);
        if (!seen && (seen = trail_point(w, f, p, wide, NULL, via))) {
            float ex = via[0] - p[0], ey = via[1] - p[1], into = -(ex * face[2] + ey * face[3]);
            float off[2];
            if (into < fabsf(ex * face[3] - ey * face[2]) && trail_point(w, f, p, wide, face, off))
                via[0] = off[0], via[1] = off[1];
        }
        if (seen) {
            f->cut[i] = 1;
            f->via[2 * i] = via[0], f->via[2 * i + 1] = via[1];
        }
    }
}
