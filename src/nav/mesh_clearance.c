// SPDX-License-Identifier: MIT
// mesh_clearance.c — the largest wall distance along a segment, and with
// it the widths at an area's corners (mesh_query.c's steerN_mesh_prepare,
// once its indexes are made): a corner no wall ends at has nothing to go
// round, so Demyen's width there (twice the corner's distance beyond the
// opposite edge) does not see the walls behind it.
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
        for (int j = 0; j < 3; j++) {
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
