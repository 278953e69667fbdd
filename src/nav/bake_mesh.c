// SPDX-License-Identifier: MIT
// bake_mesh.c — a mesh baked from a triangle soup (bake.h): the spec
// checked, the rings from Recast (bake.cpp), the mesh from the rings by
// the exact builder, as steer.navmesh{ outline = ... } builds it. In a
// build without Recast (-Drecast=disabled, or no librecast, as in the
// Windows, aarch64 and browser builds), the bake says so.
#include "bake.h"
#include "mesh.h"

#include <math.h>
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
    m = steerN_mesh_stack(parts, kept, r, s->climb + r->cell, alloc, err);
    if (m && steerN_mesh_bake_heights(m, s, r, layer_of)) {
        steerN_mesh_free(m);
        m = NULL;
        bad(err, STEERN_MESH_NOMEM, "out of memory");
    }
done:
    for (uint32_t k = 0; parts && k < kept; k++) steerN_mesh_free(parts[k]);
    free(parts), free(layer_of), free(role), free(xy), free(end);
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
