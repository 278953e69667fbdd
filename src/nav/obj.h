// SPDX-License-Identifier: MIT
// obj.h — Wavefront OBJ files as triangle soup, for the bake (bake.h).
//
// Read: `v x y z` (a fourth, w, is ignored) and `f a b c ...` (a polygon,
// fanned into triangles from its first corner; a corner is `a`, `a/t`,
// `a/t/n` or `a//n`, only `a` counts; negative: counted back from the
// last vertex above). Comments (#) and every other line (vt, vn, o, g,
// s, usemtl, mtllib, l, p, ...) are ignored. A face refers only to
// vertices above it. Degenerate triangles (a corner twice, or all three on
// a line) are skipped and counted.
//
// Refused, with the line: a malformed number, a coordinate that is not
// finite or beyond STEERN_BAKE_MAX_COORD, a face of fewer than 3 corners
// or referring to a vertex that does not exist (above it); and a file over
// STEERN_OBJ_MAX_BYTES, more than STEERN_OBJ_MAX_VERTS vertices or
// STEERN_OBJ_MAX_TRIS triangles. Nothing is returned half-read.
//
// The up axis: steer's frame is z up. An OBJ read with up 'y' (editors
// export y up) maps its (x, y, z) to steer's (x, -z, y), a rotation, so
// windings are kept; up 'z' keeps them as they are.
#ifndef STEER_NAV_OBJ_H
#define STEER_NAV_OBJ_H

#include "bake.h"

#include <stddef.h>
#include <stdint.h>

#define STEERN_OBJ_MAX_BYTES (128u << 20) // 128 MiB
#define STEERN_OBJ_MAX_VERTS STEERN_BAKE_MAX_VERTS
#define STEERN_OBJ_MAX_TRIS STEERN_BAKE_MAX_TRIS

typedef struct steerN_Soup {
    double *xyz;   // 3 per vertex, steer's frame (z up)
    uint32_t *tri; // 3 per triangle, 0-based
    uint32_t nverts, ntris;
    uint32_t skipped; // degenerate triangles left out
    uint32_t cap_v, cap_t;
} steerN_Soup;

// Parse n bytes of OBJ text (up: 'y' or 'z'). 0, or -1 with msg (msg_n
// bytes) "line N: why" (or just why for a limit); *out empty then.
int steerN_obj_parse(const char *text, size_t n, char up, steerN_Soup *out, char *msg, size_t msg_n);
// The file at path: as steerN_obj_parse, msg "PATH:N: why" (or "PATH: why").
int steerN_obj_read(const char *path, char up, steerN_Soup *out, char *msg, size_t msg_n);
void steerN_soup_free(steerN_Soup *s);

#endif
