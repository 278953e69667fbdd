// SPDX-License-Identifier: MIT
// cdt.h — a constrained Delaunay triangulation of integer points and
// segments, with the triangles inside a set of rings marked (issue 32:
// the step from clean polygons to a navigation mesh).
//
// Input: n points (x, y pairs within +-STEERN_COORD_MAX, predicates.h) and
// m constraint segments (pairs of point indices). Segments may share ends
// but must not cross; the mesh builder's polygon cleanup guarantees that,
// and this file still checks: two segments crossing, two equal points, a
// segment from a point to itself or to a point that does not exist, a
// coordinate out of bounds, each is an error with a message naming them,
// never a crash. A point lying inside a segment splits the segment there
// (both halves constrained), and a segment given twice is one segment.
//
// Output: the triangles of the convex hull of the points, counter-clockwise;
// per triangle edge i (from vertex i to vertex i+1 mod 3) the neighbour
// triangle across it (-1 on the hull) and whether it is constrained. The
// triangulation is Delaunay except across constrained edges: no point
// visible from inside a triangle lies strictly inside its circumcircle.
//
// Inside: a triangle is inside the rings when the fewest constrained edges
// crossed on any way to it from outside the hull is odd (even-odd by
// nesting depth, found by a breadth-first flood that costs 1 per
// constrained edge). For clean rings (an outline with holes, islands in
// holes) that is the polygon, whichever way each ring winds. Segments that
// do not close rings give a depth all the same, but not a meaningful one.
//
// Determinism: every decision is an exact integer predicate, the points
// are inserted sorted by (x, y) and the segments in sorted order, so the
// same points and segments in any order give the same triangles in the
// same order, each starting at the same corner (in the caller's indices).
#ifndef STEER_NAV_CDT_H
#define STEER_NAV_CDT_H

#include "nav.h"
#include "predicates.h"

typedef enum steerN_CdtStatus {
    STEERN_CDT_OK = 0,
    STEERN_CDT_NOMEM,     // out of memory
    STEERN_CDT_RANGE,     // a coordinate beyond +-STEERN_COORD_MAX (err_a: the point)
    STEERN_CDT_DUPLICATE, // two points are equal (err_a < err_b)
    STEERN_CDT_SEGMENT,   // a segment's end is no point, or both ends are one (err_a: the segment)
    STEERN_CDT_CROSSING,  // two segments cross (err_a, err_b: the segments)
    STEERN_CDT_INTERNAL,  // a bug in cdt.c (a broken invariant), reported rather than crashed on
} steerN_CdtStatus;

#define STEERN_CDT_INSIDE 8 // in steerN_Cdt.flags: the triangle is inside the rings

typedef struct steerN_Cdt {
    steerN_Alloc alloc;
    uint32_t ntri;
    uint32_t *tri;  // 3 per triangle: point indices, counter-clockwise
    int32_t *adj;   // 3 per triangle: the triangle across edge i, or -1
    uint8_t *flags; // per triangle: bit i (1 << i) edge i constrained; STEERN_CDT_INSIDE
    steerN_CdtStatus status;
    uint32_t err_a, err_b; // what the error names (see steerN_CdtStatus)
    char message[160];     // the error in words, "" when OK
} steerN_Cdt;

// Triangulate n points xy[2 * i], xy[2 * i + 1] with m segments from
// seg[2 * j] to seg[2 * j + 1]. Returns out->status; on an error out holds
// no triangles and out->message says what was wrong. alloc: NULL for libc.
// Fewer than 3 points, or all on one line, give no triangle (and OK).
steerN_CdtStatus steerN_cdt_build(steerN_Cdt *out, const int64_t *xy, uint32_t n, const uint32_t *seg, uint32_t m,
                                  const steerN_Alloc *alloc);
void steerN_cdt_free(steerN_Cdt *c);

#endif
