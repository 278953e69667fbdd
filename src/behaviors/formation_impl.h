// SPDX-License-Identifier: MIT
// formation_impl.h — what formation.c (the object, its motion, the
// resource, formation_slot) and formation_narrow.c (narrow places: the
// look-ahead, the narrow shape and the trail) share: the formation's
// fields and the functions one calls in the other. Not a public header.
#ifndef STEER_BEHAVIORS_FORMATION_IMPL_H
#define STEER_BEHAVIORS_FORMATION_IMPL_H

#include "behavior.h"
#include "fields.h"
#include "laws.h"
#include "../core/geometry.h"
#include "../core/pmath.h"
#include "../group/assign.h"
#include "../group/pattern.h"
#include "../nav/mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOP_SHARE 0.8f     // of the slowest member's max_speed: the anchor's top speed
#define LAG_FULL 1.0f      // spacings: the furthest member's lag under which the anchor goes at full speed
#define LAG_STOP 3.0f      // spacings: ... at which it stops
#define CRAWL 0.25f        // of its top speed: the least while only members going their own way lag
#define REGROUP 0.25f      // spacings: past a narrow place, the anchor stands until every member is this near its slot
#define REGROUP_MOST 15.0f // seconds: ... or this long has gone since it formed up
#define SETOFF_TICKS 12.0f // setting off from standing in shape, it gathers speed over no fewer ticks

struct steerB_Formation {
    int refs;
    steer_AllocFn alloc;
    void *alloc_ud;
    uint8_t pattern; // SteerUPattern, or STEERB_FORMATION_CUSTOM
    uint8_t mode;    // SteerUAssignMode
    uint8_t has_target, placed;
    uint8_t narrow;           // the SteerUPattern it narrows to, or STEERB_FORMATION_WIDE (never)
    uint8_t narrowed;         // its slots are the narrow shape's (nx, ny) now
    uint32_t clear;           // ticks the way has been wide since it narrowed
    float odo;                // metres the anchor has gone (while it has a leader or target)
    float last_narrow;        // odo where the way at the anchor was last narrower than its own shape
    float gate[2];            // ... and the anchor's position there: members not yet past it form up last
    float pass[2];            // the way through the gate (a unit vector: from it to the anchor when it formed up)
    float queue, queue_speed; // metres the queue behind the gate has gone past it (its head), m/s it goes
    uint32_t regroup;         // ticks since it formed up past the gate while it stands for its members, 0: not
    uint8_t setoff;           // it set off from standing with its members in their slots and is gathering speed
    float spacing;
    steer_Agent leader; // 0: none
    float target[3];    // when has_target
    float pos[3], vel[3], head[2];
    uint32_t n, cap;
    steer_Agent *member; // n, sorted by id
    uint32_t *slot;      // member i's slot
    float *ox, *oy;      // n slots' offsets of its own shape
    float *nx, *ny;      // ... of the narrow shape, when narrowed
    uint32_t *behind;    // member i's place in the queue behind the gate it formed up past (1 first), 0: through
    uint8_t *cut;        // member i cannot see its slot (a wall between): it goes by via[2i], via[2i + 1]
    float *via;          // 2 per member: the next point of its own way to its slot (formation_route.c)
    steerN_Mesh *mesh;   // its navigation mesh (held) or NULL: the anchor goes straight to its target
    steerN_MeshQuery *q; // the path search's scratch (made when first needed)
    uint8_t replan;      // the way must be found again (a new target or mesh)
    uint32_t nway, kway, capway;
    float *way; // nway points (x, y) of the way on the mesh to the target; kway: the next
    uint32_t ntrail, captrail;
    float *trail; // the anchor's last ntrail points (x, y), TRAIL_STEP apart, the newest last
};

// The motion moderator: the share of the top speed for the furthest
// member's lag: full within LAG_FULL spacings, none at LAG_STOP.
static inline float steerB_formation_moderate(float lag, float s)
{
    return lag <= LAG_FULL * s ? 1.0f : lag >= LAG_STOP * s ? 0.0f : (LAG_STOP * s - lag) / ((LAG_STOP - LAG_FULL) * s);
}

// The formation's allocator (its alloc, else the C library's).
static inline void *fm_realloc(const steerB_Formation *f, void *p, size_t size)
{
    if (f->alloc) return f->alloc(f->alloc_ud, p, size);
    if (size == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, size);
}

// A shape's extent: across (its slots' least and greatest y), behind its
// anchor (the greatest -x, at least 0) and in front (the greatest x).
typedef struct steerB_FormationExtent {
    float lo, hi, back, front, mid; // mid: the mean x
} steerB_FormationExtent;

steerB_FormationExtent steerB_formation_extent(const float *x, const float *y, uint32_t n);

// formation.c: the builtin pattern's offsets for the n members (and the
// narrow shape's, when narrowed); then every member's slot. With a gate
// (forming up past a narrow place), the members not yet past it take the
// slots furthest from it last, in the order they come (see the function).
int steerB_formation_assign(steerB_Formation *f, const steer_World *w);
int steerB_formation_assign_past(steerB_Formation *f, const steer_World *w, const float gate[2]);

// Slot k's point in the world.
void steerB_formation_slot_point(const steerB_Formation *f, uint32_t k, float out[3]);

// Where member i goes now: its slot's point, or, while it is behind the
// gate of a formation formed up past a narrow place, its place in the
// queue through the gate (formation_narrow.c).
void steerB_formation_goal(const steerB_Formation *f, uint32_t i, float out[3]);
void steerB_formation_queue_point(const steerB_Formation *f, uint32_t place, float out[3]);

// formation_narrow.c: the narrow shape's offsets (a column's along the
// trail); the anchor's trail, once a tick; narrowing and forming up.
void steerB_formation_narrow_offsets(steerB_Formation *f);
void steerB_formation_record_trail(steerB_Formation *f);
void steerB_formation_narrow_places(steer_World *w, steerB_Formation *f);
void steerB_formation_keep_order(steer_World *w, steerB_Formation *f);

// formation_narrow.c: once a tick, the queue behind the gate moves on
// through it, and members that have come through take the slot furthest
// from it that a member behind still holds (swapping), so that the shape
// fills from its far end.
void steerB_formation_come_through(steer_World *w, steerB_Formation *f);

// formation_route.c: once a tick, each member that cannot see its slot
// (a wall, an obstacle or the mesh's edge between) gets the next point of
// a way there: on the mesh (its path query), else along the anchor's trail.
void steerB_formation_route(steer_World *w, steerB_Formation *f);

#endif
