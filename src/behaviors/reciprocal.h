// SPDX-License-Identifier: MIT
// reciprocal.h — what the two files of steer.reciprocal share (see
// reciprocal.c's file comment for the behaviour): its parameters, and the
// rules that look at one neighbour at a time (reciprocal_pairs.c): who
// takes how much of a pair's avoidance (the head-on share, lanes at a
// gap), who gives way or makes way (standoff, let_through), how deep a
// pair may press in one step (max_overlap's cap), and what fall_in reads
// off a neighbour. reciprocal.c gathers the neighbours and shapes, builds
// the half-spaces and solves. The shared functions are named
// steerB_recip_<name>; comments in both files call them by <name>.
#ifndef STEER_RECIPROCAL_H
#define STEER_RECIPROCAL_H

#include "behavior.h"
#include "orca.h"

typedef struct Reciprocal {
    float horizon;          // seconds of prediction against agents
    float obstacle_horizon; // seconds of prediction against shapes
    float responsibility;   // share of each avoidance this agent takes, [0, 1]
    float margin;           // metres of clearance added to two agents' radii
    float range;            // metres to look for neighbours (0: derived from horizon)
    float neighbors;        // most neighbours in one solve
    float bias;             // radians the preferred velocity turns right when a neighbour is in the way
    float max_overlap;      // deepest overlap from one step, in smaller radii (0: off, -1: default; overlap_cap)
    uint16_t tag;           // only neighbours with this tag (0: all)
    uint8_t obstacles;      // shapes enter the solve
} Reciprocal;
STEERB_CHECK_SIZE(Reciprocal);

// max_overlap when not given (the field's default, -1): this tolerance for
// every pair that one step can press deeper than it (see
// steerB_recip_deep_step), and more for such a pair in a face-off or
// already in contact (steerB_recip_auto_overlap)
#define AUTO_OVERLAP 0.2f

// What a neighbour is doing, for keep_right.
enum { STILL_ONE, CLOSING, OTHER, FACING };

// What fall_in reads off the neighbours: whether one walking against us is
// ahead in our way, and the nearest one walking our way abreast on our
// right (its index in c->nb; -1: none).
typedef struct Zipper {
    bool way;       // in: ahead holds our way (to our target point), normalised
    float ahead[3]; // in
    bool lined;     // in: in a passage (lined)
    bool opposed;
    int lead;
    float lead_d2;
} Zipper;

// ---- reciprocal_pairs.c: one neighbour at a time ----

// The shapes whose boxes come within the agent's reach into c->loc->found
// (*tau the obstacle horizon, *reach the distance); returns how many
// (negative: out of memory). Also shape_planes' (reciprocal.c).
int steerB_recip_shapes_in_reach(steerB_Ctx *c, const Reciprocal *p, float *tau, float *reach);

// Where neighbour d's target slot holds a point: u, from d to it (false
// when the slot holds none).
bool steerB_recip_target_delta(const steer_World *w, uint32_t d, float u[3]);
// Is the still neighbour nb facing this agent off (keep_right's FACING)?
bool steerB_recip_facing(const steerB_Ctx *c, const steerB_Neighbor *nb, const float pref[3]);
// This agent's share of u against nb: the head-on share in passages, and
// lanes at a gap (each from the base share it is given; ui: from us to our
// target point, NULL when our slot holds none).
float steerB_recip_head_on_share(const steerB_Ctx *c, const steerB_Neighbor *nb, float base, const float *ui);
float steerB_recip_lane_share(steerB_Ctx *c, const Reciprocal *p, const steerB_Neighbor *nb, float share,
                              const float *ui);
// At large steps (max_overlap's default), a pair not in contact whose one
// ahead settles at its target (not one point for both): the one ahead
// takes the avoidance.
float steerB_recip_lead_share(const steerB_Ctx *c, const Reciprocal *p, const steerB_Neighbor *nb, const float vj[3],
                              float share, const float *ui);
// Must this still agent give way to nb in a standoff over one spot?
bool steerB_recip_standoff(const steerB_Ctx *c, const steerB_Neighbor *nb, const float vj[3], const float ui[3]);
// Must this goal holder make way for nb (side: the way to step)?
void steerB_recip_let_through(const steerB_Ctx *c, const steerB_Neighbor *nb, const float vj[3], float side[3]);
// max_overlap: the pairs one step can press deeper than tol, the default
// tolerance for a pair, and the hard cap on closing (with the neighbour's
// soft weight).
bool steerB_recip_deep_step(const steerB_Ctx *c, uint32_t d, float tol);
bool steerB_recip_in_contact(const steerB_Ctx *c, const steerB_Neighbor *nb);
float steerB_recip_auto_overlap(bool contact, bool face_off);
bool steerB_recip_overlap_cap(const steerB_Ctx *c, const steerB_Neighbor *nb, const float vj[3], const float vrel[3],
                              float tol, bool face_off, steerB_Plane *pl, float *weight);
// fall_in's reading of neighbour nb (index i in c->nb).
void steerB_recip_zipper_see(const steerB_Ctx *c, const steerB_Neighbor *nb, int i, const float vrel[3],
                             const float own[3], const float ahead[3], Zipper *z);

#endif
