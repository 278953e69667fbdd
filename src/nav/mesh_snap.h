// SPDX-License-Identifier: MIT
// mesh_snap.h — snap rounding of integer segments, the step of the mesh
// builder (mesh_build.c) that turns rings which may touch, overlap and
// cross into fragments that meet only at shared ends (issue 32).
//
// Snap rounding (Hobby 1999; Guibas & Marimont 1998): the plane is tiled
// by unit pixels, pixel c being the half-open square [cx - 1/2, cx + 1/2) x
// [cy - 1/2, cy + 1/2) around the integer point c. A pixel is hot when it
// holds an end of a segment or a point where two segments cross (found
// exactly and rounded as floor(x + 1/2), which is the pixel holding x).
// Every segment is replaced by the polyline through the centres of the hot
// pixels it meets, in its order: two such fragments never cross, they
// only share ends or coincide. A fragment that passes exactly through a
// hot pixel's centre it was not routed through is split there too, so the
// fragments meet only at ends or coincide end to end.
#ifndef STEER_NAV_MESH_SNAP_H
#define STEER_NAV_MESH_SNAP_H

#include "nav.h"

typedef struct steerN_SnapSeg { // a segment to round
    int64_t a[2], b[2];         // its ends (a != b), in quanta
    uint32_t ring;              // what it belongs to (the caller's tag)
    int32_t sign;               // +1 or -1: multiplies the fragments' dir
} steerN_SnapSeg;

typedef struct steerN_Piece { // a rounded fragment of a segment
    uint32_t p, q;            // point indices, p < q
    uint32_t ring;            // the segment's tag
    int32_t dir;              // sign when the segment runs p -> q, -sign when q -> p
} steerN_Piece;

typedef struct steerN_Snapped {
    int64_t *pt; // 2 per point: the hot pixels' centres, sorted by (x, y), unique
    uint32_t npt;
    steerN_Piece *piece; // every fragment of every segment (coinciding ones repeated)
    uint32_t npiece;
    size_t cap_pt, cap_piece; // allocated (points, pieces)
} steerN_Snapped;

// Round n segments; 0, or -1 when out of memory (out then holds nothing).
// The points and pieces depend on the set of segments alone, not on their
// order. Ends within +-STEERN_COORD_MAX (predicates.h).
int steerN_snap_round(const steerN_SnapSeg *seg, uint32_t n, const steerN_Alloc *alloc, steerN_Snapped *out);
void steerN_snapped_free(steerN_Snapped *s, const steerN_Alloc *alloc);

// Grow *p (of *cap items of `size` bytes) to hold at least `need`: 0, or -1
// when out of memory (*p unchanged then).
int steerN_grow(const steerN_Alloc *a, void **p, size_t *cap, size_t need, size_t size);

#endif
