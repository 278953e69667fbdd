// SPDX-License-Identifier: MIT
// bake_mesh.c — a mesh baked from a triangle soup (bake.h): the spec
// checked, the rings from Recast (bake.cpp), the mesh from the rings by
// the exact builder, as steer.navmesh{ outline = ... } builds it. In a
// build without Recast (-Drecast=disabled, or no librecast, as in the
// Windows, aarch64 and browser builds), the bake says so.
#include "bake.h"
#include "mesh.h"

#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double steerN_bake_cell(double height, double climb)
{
    (void)climb;
    double c = height / 10;
    return c < 0.01 ? 0.01 : c;
}

#ifndef STEER_RECAST
int steerN_bake_available(void) { return 0; }

int steerN_bake_rings(const steerN_BakeSpec *spec, steerN_BakeRings *out, char *msg, size_t msg_n)
{
    (void)spec;
    *out = (steerN_BakeRings){ 0 };
    snprintf(msg, msg_n, "this build has no baking (Recast); install librecast-dev and rebuild steer");
    return -1;
}

void steerN_bake_rings_free(steerN_BakeRings *r) { (void)r; }
#endif

static int key_cmp(const void *x, const void *y)
{
    int64_t u = *(const int64_t *)x, v = *(const int64_t *)y;
    return (u > v) - (u < v);
}

size_t steerN_keys_uniq(int64_t *p, size_t k)
{
    if (k < 2) return k; // (p may be NULL then)
    qsort(p, k, sizeof *p, key_cmp);
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (!m || p[i] != p[m - 1]) p[m++] = p[i];
    return m;
}

size_t steerN_keys_first(const int64_t *p, size_t k, int64_t key)
{
    size_t lo = 0, hi = k;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// Region a before b: lower, then the lesser id.
static bool lower(const int *low, int a, int b) { return low[a] != low[b] ? low[a] < low[b] : a < b; }

int steerN_bake_merge(int n, const int *low, const int64_t *nei, size_t nn, const int64_t *ovl, size_t nov, int *layer,
                      int *heap, int64_t *order)
{
    for (int r = 0; r < n; r++) order[r] = (int64_t)low[r] * n + r, layer[r] = -1;
    steerN_keys_uniq(order, (size_t)n);
    int nlayers = 0;
    for (int k = 0; k < n; k++) {
        int seed = (int)(order[k] % n);
        if (layer[seed] >= 0) continue;
        int L = nlayers++, nh = 0;
        layer[seed] = L;
        heap[nh++] = seed;
        while (nh) {
            int a = heap[0];
            heap[0] = heap[--nh];
            for (int i = 0;;) { // sift down
                int l = 2 * i + 1, r = l + 1, m = i;
                if (l < nh && lower(low, heap[l], heap[m])) m = l;
                if (r < nh && lower(low, heap[r], heap[m])) m = r;
                if (m == i) break;
                int t = heap[i];
                heap[i] = heap[m], heap[m] = t, i = m;
            }
            for (size_t j = steerN_keys_first(nei, nn, (int64_t)a * n); j < nn && nei[j] / n == a; j++) {
                int b = (int)(nei[j] % n);
                if (layer[b] >= 0) continue;
                bool clash = false;
                for (size_t o = steerN_keys_first(ovl, nov, (int64_t)b * n); o < nov && ovl[o] / n == b && !clash; o++)
                    clash = layer[ovl[o] % n] == L;
                if (clash) continue;
                layer[b] = L;
                int i = nh++; // sift up
                heap[i] = b;
                while (i && lower(low, heap[i], heap[(i - 1) / 2])) {
                    int p = (i - 1) / 2, t = heap[i];
                    heap[i] = heap[p], heap[p] = t, i = p;
                }
            }
        }
    }
    return nlayers;
}

static steerN_Mesh *bad(steerN_MeshError *err, steerN_MeshStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->status = st;
    err->ring = err->point = 0;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return NULL;
}

// The mesh of each layer's rings, built as steer.navmesh{ outline = ... }
// builds rings, stacked into one (mesh_layers.c: heights, seams). A layer
// whose rings enclose nothing is left out.
static steerN_Mesh *build_layers(const steerN_BakeSpec *s, steerN_BakeRings *r, const steerN_Alloc *alloc,
                                 steerN_MeshError *err)
{
    uint32_t nl = r->nlayers ? r->nlayers : 1, kept = 0;
    steerN_Mesh **parts = calloc(nl, sizeof *parts);
    uint32_t *layer_of = malloc(sizeof *layer_of * nl); // the bake's layer of each kept
    uint32_t *part_layer = NULL;                        // the mesh's layer of each kept
    int32_t *role = malloc(sizeof *role * r->nrings);
    double *xy = malloc(sizeof *xy * 2 * r->npoints);
    uint32_t *end = malloc(sizeof *end * r->nrings);
    steerN_Mesh *m = NULL;
    if (!parts || !layer_of || !role || !xy || !end) {
        bad(err, STEERN_MESH_NOMEM, "out of memory");
        goto done;
    }
    for (uint32_t k = 0; k < r->nrings; k++) role[k] = STEERN_RING_OUTLINE;
    const char *names[1] = { "default" };
    for (uint32_t layer = 0; layer < nl; layer++) {
        uint32_t nr = 0, np = 0;
        for (uint32_t ring = 0, at = 0; ring < r->nrings; at = r->ring_end[ring++]) {
            if (r->ring_layer[ring] != layer) continue;
            memcpy(xy + 2 * np, r->xy + 2 * at, sizeof *xy * 2 * (r->ring_end[ring] - at));
            np += r->ring_end[ring] - at;
            end[nr++] = np;
        }
        steerN_MeshSpec spec = {
            .xy = xy, .ring_end = end, .ring_role = role, .nrings = nr, .nareas = 1, .area_names = names
        };
        steerN_Mesh *part = nr ? steerN_mesh_build(&spec, alloc, err) : NULL;
        if (!part && nr && err->status != STEERN_MESH_EMPTY) goto done;
        // the rings of a layer left out go nowhere; the others' layers close up
        for (uint32_t ring = 0; ring < r->nrings; ring++)
            if (r->ring_layer[ring] == layer) r->ring_layer[ring] = part ? kept : UINT32_MAX;
        if (part) layer_of[kept] = layer, parts[kept++] = part;
    }
    if (!kept) {
        bad(err, STEERN_MESH_EMPTY, "nothing is walkable: the ground's outlines enclose no area");
        goto done;
    }
    part_layer = malloc(sizeof *part_layer * kept);
    if (!part_layer) {
        bad(err, STEERN_MESH_NOMEM, "out of memory");
        goto done;
    }
    m = steerN_mesh_stack(parts, kept, r, layer_of, s->climb + r->cell, alloc, err, part_layer);
    if (m && steerN_mesh_bake_heights(m, s, r, layer_of, part_layer, kept)) {
        steerN_mesh_free(m);
        m = NULL;
        bad(err, STEERN_MESH_NOMEM, "out of memory");
    }
done:
    for (uint32_t k = 0; parts && k < kept; k++) steerN_mesh_free(parts[k]);
    free(parts), free(layer_of), free(part_layer), free(role), free(xy), free(end);
    return m;
}

steerN_Mesh *steerN_mesh_bake(const steerN_BakeSpec *s, const steerN_Alloc *alloc, steerN_MeshError *err)
{
    if (!steerN_bake_available())
        return bad(err, STEERN_MESH_BADBAKE,
                   "this build has no baking (Recast); install librecast-dev and rebuild steer");
    if (!(s->height > 0 && s->height <= 1e3))
        return bad(err, STEERN_MESH_BADBAKE, "agent.height: expected a height in metres (> 0, at most 1000)");
    if (!(s->climb >= 0 && s->climb <= 1e3))
        return bad(err, STEERN_MESH_BADBAKE, "agent.climb: expected a step height in metres (0 to 1000)");
    if (!(s->slope >= 0 && s->slope < 90))
        return bad(err, STEERN_MESH_BADBAKE, "agent.slope: expected a slope in degrees (0 to below 90)");
    if (!(s->cell == 0 || (s->cell >= 0.001 && s->cell <= 1e3)))
        return bad(err, STEERN_MESH_BADBAKE, "cell: expected a cell size in metres (0.001 to 1000)");
    double cell = s->cell > 0 ? s->cell : steerN_bake_cell(s->height, s->climb);
    if (!(s->tile == 0 || (s->tile >= STEERN_BAKE_MIN_TILE * cell && s->tile <= 1e6)))
        return bad(err, STEERN_MESH_BADBAKE, "tile: expected a tile's side in metres, at least %d cells (%g m), or 0",
                   STEERN_BAKE_MIN_TILE, STEERN_BAKE_MIN_TILE * cell);
    if (s->ntris > STEERN_BAKE_MAX_TRIS || s->nverts > STEERN_BAKE_MAX_VERTS)
        return bad(err, STEERN_MESH_BADBAKE, "more than %u triangles or %u vertices", STEERN_BAKE_MAX_TRIS,
                   STEERN_BAKE_MAX_VERTS);
    for (uint32_t i = 0; i < 3 * s->nverts; i++)
        if (!(fabs(s->xyz[i]) <= STEERN_BAKE_MAX_COORD))
            return bad(err, STEERN_MESH_BADBAKE, "vertex %u: coordinate %g is not finite or beyond %g m", i / 3 + 1,
                       s->xyz[i], STEERN_BAKE_MAX_COORD);
    for (uint32_t i = 0; i < 3 * s->ntris; i++)
        if (s->tri[i] >= s->nverts)
            return bad(err, STEERN_MESH_BADBAKE, "triangle %u: vertex %u of %u", i / 3 + 1, s->tri[i] + 1, s->nverts);
    steerN_BakeRings r;
    if (steerN_bake_rings(s, &r, err->message, sizeof err->message)) {
        err->status = STEERN_MESH_BADBAKE;
        return NULL;
    }
    if (!r.nrings) {
        steerN_bake_rings_free(&r);
        return bad(err, STEERN_MESH_EMPTY,
                   "nothing is walkable: no ground faces up within the slope with room for the agent's height");
    }
    steerN_Mesh *m = build_layers(s, &r, alloc, err);
    steerN_bake_rings_free(&r);
    return m;
}
