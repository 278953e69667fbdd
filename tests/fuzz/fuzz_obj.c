// SPDX-License-Identifier: MIT
// fuzz_obj.c — libFuzzer: Wavefront OBJ text (src/nav/obj.c) and, in a
// build with Recast, the bake of what it reads (src/nav/bake.h). The bytes
// are an OBJ file, read y up when the first byte is even, z up when odd: it
// must be refused with a message naming a line (or a limit), or read into
// a soup whose every index names a vertex and every coordinate is finite
// and within the limit. A soup of a level up to 64 m across is then baked
// (cell 0.5 m; in tiles of 16 m, the least, when the first byte's second
// bit is set): refused with a message, or a mesh that saves and loads
// back to the same hash. A broken promise aborts with what was broken.
#include "nav/bake.h"
#include "nav/mesh.h"
#include "nav/obj.h"
#include "core/bytes.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what, double a)
{
    fprintf(stderr, "fuzz_obj: %s (%g)\n", what, a);
    abort();
}

static void bake(const steerN_Soup *s, double tile)
{
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (uint32_t i = 0; i < s->nverts; i++)
        for (int d = 0; d < 3; d++) lo[d] = fmin(lo[d], s->xyz[3 * i + d]), hi[d] = fmax(hi[d], s->xyz[3 * i + d]);
    for (int d = 0; d < 3; d++)
        if (hi[d] - lo[d] > 64) return;
    steerN_BakeSpec spec = { .xyz = s->xyz,
                             .nverts = s->nverts,
                             .tri = s->tri,
                             .ntris = s->ntris,
                             .height = 2,
                             .climb = 0.4,
                             .slope = 45,
                             .cell = 0.5,
                             .tile = tile };
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_bake(&spec, NULL, &err);
    if (!m) {
        if (!err.message[0]) broken("a bake refused without a message", err.status);
        if (err.status == STEERN_MESH_INTERNAL) broken("an internal error in the bake's build", err.status);
        return;
    }
    steerS_Writer w;
    steerS_writer_init(&w, NULL, NULL);
    steerN_mesh_encode(m, &w);
    if (!w.failed) {
        char msg[200];
        steerS_Reader r;
        steerS_reader_init(&r, w.p, w.n, msg, sizeof msg);
        bool oom;
        steerN_Mesh *back = steerN_mesh_decode(&r, NULL, &oom);
        if (!back && !oom) broken("a baked mesh's bytes do not load", (double)w.n);
        if (back && steerN_mesh_hash(back) != steerN_mesh_hash(m)) broken("a baked mesh loads to another hash", 0);
        steerN_mesh_free(back);
    }
    steerS_writer_free(&w);
    steerN_mesh_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    steerN_Soup s;
    char msg[256];
    if (steerN_obj_parse((const char *)data + 1, size - 1, data[0] & 1 ? 'z' : 'y', &s, msg, sizeof msg)) {
        if (strncmp(msg, "line ", 5) && !strstr(msg, "more than")) broken("a refusal naming no line", 0);
        if (s.xyz || s.tri || s.nverts || s.ntris) broken("a refused file half-read", s.nverts);
        return 0;
    }
    for (uint32_t i = 0; i < 3 * s.ntris; i++)
        if (s.tri[i] >= s.nverts) broken("an index past the vertices", s.tri[i]);
    for (uint32_t i = 0; i < 3 * s.nverts; i++)
        if (!(fabs(s.xyz[i]) <= STEERN_BAKE_MAX_COORD)) broken("a coordinate out of bounds", s.xyz[i]);
    if (s.ntris && steerN_bake_available()) bake(&s, data[0] & 2 ? 16 : 0);
    steerN_soup_free(&s);
    return 0;
}
