// SPDX-License-Identifier: MIT
// pattern.h — formation patterns (issue 35): the slots of n members as
// offsets in the formation's frame.
//
// The frame: x along the formation's heading (forward), y to its left; the
// anchor (the formation's position) at the origin. Slot i's offset is
// (x[i], y[i]), spacing s apart:
//   line    n abreast across the heading, centred on the anchor;
//   column  one behind another, the first on the anchor;
//   wedge   a filled triangle: rows of 1, 2, 3, ... members behind the
//           first (on the anchor at the tip), each row centred and
//           sqrt(3)/2 s behind the one before, so that every member is s
//           from its neighbours (in its row and the rows around); the
//           last row, when short, takes the middle places of a full row
//           (the odd one out to the left); each row from the left;
//   circle  evenly round a circle centred on the anchor, each s from its
//           neighbours in a straight line (the first straight ahead, then
//           counter-clockwise); one member alone stands on the anchor;
//   box     rows of ceil(sqrt(n)) across the heading, each row s behind the
//           one before, every row centred (the last may be shorter), the
//           front row's centre on the anchor;
//   vee     a V: the first on the anchor at the tip, then pairs behind it,
//           left then right, each pair s further back and s further out.
// Deterministic: sines and cosines from steer's own (core/pmath.h), the
// same bits on every machine.
#ifndef STEER_GROUP_PATTERN_H
#define STEER_GROUP_PATTERN_H

typedef enum SteerUPattern {
    STEERU_LINE = 0,
    STEERU_COLUMN,
    STEERU_WEDGE,
    STEERU_CIRCLE,
    STEERU_BOX,
    STEERU_VEE,
    STEERU_PATTERN_COUNT
} SteerUPattern;

// The pattern's name ("line", ...), or NULL past the last.
const char *steerU_pattern_name(SteerUPattern p);

// The pattern named `name`; -1 when no pattern has that name.
int steerU_pattern_find(const char *name);

// Writes n offsets (x[i], y[i]) of pattern p with spacing s (> 0).
void steerU_pattern_offsets(SteerUPattern p, int n, float s, float *x, float *y);

// The pattern's width across the heading for n members (the extent of the
// offsets' y plus one spacing: the room it needs to pass).
float steerU_pattern_width(SteerUPattern p, int n, float s);

#endif
