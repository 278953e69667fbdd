// SPDX-License-Identifier: MIT
// mesh_clearance.c — the largest wall distance along a segment, and with
// it the widths at an area's corners (mesh_query.c's steerN_mesh_prepare,
// once its indexes are made): a corner no wall ends at has nothing to go
// round, so Demyen's width there (twice the corner's distance beyond the
// opposite edge) does not see the walls behind it. And whether a wall
// comes near a segment at all (a path's segment, for its repair); and the
// nearest ground a filter does not exclude (steerN_mesh_nearest_open).
#include "mesh_geom.h"

#include <string.h>

// An upper bound (within 1 mm, else looser but never below) of the
// largest wall distance of a point of segment a-b, stopping once at lim:
// branch and bound, a piece's bound the least of the distance's change
// (1 m a metre) and, at each end, its nearest wall's distance, convex.
static double max_clearance(const steerN_Mesh *m, const double a[2], const double b[2], double lim)
{
    enum { CAP = 64 };
    double len = mg_dist(a, b), s[CAP + 1] = { 0, len }, g[CAP + 1], p[CAP + 1][2], bound = 0;
    int64_t e[CAP + 1];
    memcpy(p[0], a, sizeof p[0]), memcpy(p[1], b, sizeof p[1]);
    g[0] = steerN_mesh_wall_edge(m, a, NULL, &e[0]), g[1] = steerN_mesh_wall_edge(m, b, NULL, &e[1]);
    double best = g[0] > g[1] ? g[0] : g[1];
    // the pieces, a stack: piece k from point k to point k + 1
    for (int n = 1, evals = 0; n && best < lim;) {
        int i = --n;
        double ub = (g[i] + g[i + 1] + s[i + 1] - s[i]) / 2;
        for (int k = 0; k < 2 && e[i + k] >= 0; k++) {
            uint32_t t = (uint32_t)(e[i + k] / 3), j = (uint32_t)(e[i + k] % 3);
            double far =
                sqrt(mg_seg_nearest(p[i + 1 - k], mg_v(m, t, (int)j), mg_v(m, t, (int)(j + 1) % 3), NULL, NULL));
            far = far > g[i + k] ? far : g[i + k];
            ub = far < ub ? far : ub;
        }
        if (ub <= best + 1e-3) continue;
        if (evals++ >= 256 || n + 2 > CAP) {
            bound = ub > bound ? ub : bound;
            continue;
        }
        // split piece i at its middle: pieces i and i + 1, the old end at i + 2
        s[i + 2] = s[i + 1], g[i + 2] = g[i + 1], e[i + 2] = e[i + 1], memcpy(p[i + 2], p[i + 1], sizeof p[0]);
        s[i + 1] = (s[i] + s[i + 2]) / 2;
        p[i + 1][0] = a[0] + (b[0] - a[0]) * s[i + 1] / len, p[i + 1][1] = a[1] + (b[1] - a[1]) * s[i + 1] / len;
        g[i + 1] = steerN_mesh_wall_edge(m, p[i + 1], NULL, &e[i + 1]);
        best = g[i + 1] > best ? g[i + 1] : best;
        n += 2;
    }
    return (bound > best ? bound : best) + 1e-3;
}

// A way through t past its corner of an area only crosses both edges
// there at a point r from every wall: at most twice their clearance. Each
// edge once, for the (up to 4) corners of such vertices at its ends.
void steerN_mesh_area_corner_widths(steerN_Mesh *m)
{
    for (uint32_t t = 0; t < m->ntri; t++)
        for (int j = 0; j < 3 && !steerN_mesh_dead(m, t); j++) {
            // (a triangle whose vertices all end walls has no such corner, nor its neighbours at its edges)
            if (m->vwall[m->tri[3 * t]] && m->vwall[m->tri[3 * t + 1]] && m->vwall[m->tri[3 * t + 2]]) break;
            int32_t u = m->adj[3 * t + j];
            if (u >= 0 && (uint32_t)u < t) continue; // done from u
            // the corners at its ends: in t, vertices j and j + 1; in u, the same two
            int k = m->back[3 * t + j], nc = 0;
            uint32_t corner[4] = { 3 * t + (uint32_t)j, 3 * t + (uint32_t)(j + 1) % 3, 0, 0 }, use[4];
            if (u >= 0) corner[2] = 3 * (uint32_t)u + (uint32_t)k, corner[3] = 3 * (uint32_t)u + (uint32_t)(k + 1) % 3;
            double lim = 0;
            for (int c = 0; c < (u >= 0 ? 4 : 2); c++)
                if (!m->vwall[m->tri[corner[c]]]) {
                    use[nc++] = corner[c];
                    lim = m->width[corner[c]] / 2 > lim ? m->width[corner[c]] / 2 : lim;
                }
            if (!nc) continue;
            double w = 2 * max_clearance(m, mg_v(m, t, j), mg_v(m, t, (j + 1) % 3), lim);
            for (int c = 0; c < nc; c++)
                if (w < m->width[use[c]]) m->width[use[c]] = w;
        }
}

// p nearer than lim (lim2 its square) to the segment from a along (dx,
// dy) (l2 its squared length), or about as near (the comparisons are
// mg_seg_nearest's, without its division).
static bool point_near(const double p[2], const double a[2], double dx, double dy, double l2, double lim2)
{
    double px = p[0] - a[0], py = p[1] - a[1], t = px * dx + py * dy;
    if (t <= 0 || !(l2 > 0)) return px * px + py * py < lim2;
    if (t >= l2) return (px - dx) * (px - dx) + (py - dy) * (py - dy) < lim2;
    double c = mg_cross(dx, dy, px, py);
    return c * c < lim2 * l2;
}

// (mesh_geom.h) Row by row of the index, the cells within g of the
// segment's part in that row; an edge listed in several cells is measured
// once (the first 16 measured).
bool steerN_mesh_segment_clear(const steerN_Mesh *m, const double a[2], const double b[2], double lim)
{
    enum { SEEN = 16 };
    if (!m->wstart[(size_t)m->bnx * m->bny]) return true;
    double size = mg_max(mg_max(fabs(m->bmin[0]), fabs(m->bmax[0])), mg_max(fabs(m->bmin[1]), fabs(m->bmax[1])));
    double g = lim + 1e-9 * (1 + size + fabs(lim)), h = m->bcell;
    double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy, far = g * sqrt(l2);
    double lim2 = lim * (1 + 1e-9) + 1e-300;
    lim2 *= lim2;
    double lo[2] = { (a[0] < b[0] ? a[0] : b[0]) - g, (a[1] < b[1] ? a[1] : b[1]) - g };
    double hi[2] = { (a[0] < b[0] ? b[0] : a[0]) + g, (a[1] < b[1] ? b[1] : a[1]) + g };
    uint32_t y0, y1, seen[SEEN], ns = 0;
    steerN_mesh_cell_range(m, lo[1], hi[1], 1, &y0, &y1);
    for (uint32_t cy = y0; cy <= y1; cy++) {
        // the segment's part within g of the row (its cells' y range)
        double s0 = 0, s1 = 1, ry0 = m->bmin[1] + cy * h - g, ry1 = m->bmin[1] + (cy + 1) * h + g;
        if (dy != 0) {
            double u0 = (ry0 - a[1]) / dy, u1 = (ry1 - a[1]) / dy;
            if (u0 > u1) s0 = u1, u1 = u0, u0 = s0;
            s0 = u0 > 0 ? u0 : 0, s1 = u1 < 1 ? u1 : 1;
            if (s0 > s1) continue;
        }
        double xa = a[0] + s0 * dx, xb = a[0] + s1 * dx;
        uint32_t x0, x1;
        steerN_mesh_cell_range(m, (xa < xb ? xa : xb) - g, (xa < xb ? xb : xa) + g, 0, &x0, &x1);
        for (uint32_t cx = x0; cx <= x1; cx++) {
            size_t cell = (size_t)cy * m->bnx + cx;
            for (uint32_t j = m->wstart[cell]; j < m->wstart[cell + 1]; j++) {
                uint32_t e = m->witem[j], t = e / 3, i = e % 3;
                const double *x = m->xy + 2 * m->tri[3 * t + i], *y = m->xy + 2 * m->tri[3 * t + (i == 2 ? 0 : i + 1)];
                if ((x[0] < lo[0] && y[0] < lo[0]) || (x[0] > hi[0] && y[0] > hi[0]) ||
                    (x[1] < lo[1] && y[1] < lo[1]) || (x[1] > hi[1] && y[1] > hi[1]))
                    continue;
                double sx = mg_cross(dx, dy, x[0] - a[0], x[1] - a[1]), sy = mg_cross(dx, dy, y[0] - a[0], y[1] - a[1]);
                if ((sx > far && sy > far) || (sx < -far && sy < -far)) continue; // beside the line, farther than g
                // (an edge in several cells asked once, the first SEEN of them)
                bool old = false;
                for (uint32_t k = 0; k < ns && !old; k++) old = seen[k] == e;
                if (old) continue;
                if (ns < SEEN) seen[ns++] = e;
                // (the distances below without a division, a hair more
                // (1e-9) than lim: no wall that mg_seg_seg puts nearer than
                // lim passes)
                if (sx * sy <= 0 && mg_orient(x, y, a) * mg_orient(x, y, b) <= 0) return false; // crossing
                if (point_near(x, a, dx, dy, l2, lim2) || point_near(y, a, dx, dy, l2, lim2)) return false;
                double ex = y[0] - x[0], ey = y[1] - x[1], m2 = ex * ex + ey * ey;
                if (point_near(a, x, ex, ey, m2, lim2) || point_near(b, x, ex, ey, m2, lim2)) return false;
            }
        }
    }
    return true;
}

// The point of the ground that cost does not exclude nearest p, within
// `within` of p, from the triangles near p (a walk over the neighbours of
// p's triangle that come within `within`); moved a hair into its triangle,
// so that locate finds that one. False when p is off the mesh or none is
// that near.
#define OPEN_NODES 64
bool steerN_mesh_nearest_open(const steerN_Mesh *m, const float *cost, const double p[2], const steerN_Floor *f,
                              double within, double out[2])
{
    int32_t t0 = steerN_mesh_locate_on(m, p, f);
    if (t0 < 0 || !(within >= 0)) return false;
    uint32_t node[OPEN_NODES], n = 1;
    node[0] = (uint32_t)t0;
    double best = within * within, q[2];
    int32_t bt = -1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t t = node[k];
        bool open = mg_area_cost(m, cost, t) < INFINITY;
        if (open && mg_in_tri(m, t, p)) {
            out[0] = p[0], out[1] = p[1];
            return true;
        }
        for (int i = 0; i < 3; i++) {
            const double *a = mg_v(m, t, i), *b = mg_v(m, t, (i + 1) % 3);
            double d2 = mg_seg_nearest(p, a, b, q, NULL);
            if (d2 > within * within) continue;
            if (open && d2 <= best) best = d2, bt = (int32_t)t, out[0] = q[0], out[1] = q[1];
            int32_t u = m->adj[3 * t + i];
            bool seen = u < 0;
            for (uint32_t j = 0; j < n && !seen; j++) seen = node[j] == (uint32_t)u;
            if (!seen && n < OPEN_NODES) node[n++] = (uint32_t)u;
        }
    }
    if (bt < 0) return false;
    double c[2] = { 0, 0 };
    for (int i = 0; i < 3; i++) c[0] += mg_v(m, (uint32_t)bt, i)[0] / 3, c[1] += mg_v(m, (uint32_t)bt, i)[1] / 3;
    out[0] += (c[0] - out[0]) * 1e-6, out[1] += (c[1] - out[1]) * 1e-6;
    return true;
}
