// SPDX-License-Identifier: MIT
// reciprocal.c — optimal reciprocal collision avoidance (van den Berg, Guy,
// Lin and Manocha, "Reciprocal n-body collision avoidance", 2011) as a
// behaviour that wraps the agent's goal.
//
// The children say where the agent wants to go: their weighted sum
// (truncated to max_force, as a blend) is read through the tracking law
// as a preferred velocity, v_pref = v + F max_speed / max_force, the
// velocity the children steer toward. Without children the preferred
// velocity is the agent's own: avoidance alone, to put in a blend.
// Every neighbour and every shape near enough to matter within its
// horizon then forbids a half-space of velocities (orca.h), and the small
// linear program of orca_lp.c picks the velocity nearest v_pref within
// all of them and within max_speed. The output is the force that reaches
// that velocity within the step (mass (v_new - v) / dt, truncated to
// max_force): when max_force allows, the agent moves at exactly the
// velocity the solve chose, which is what makes it hold at large steps.
//
// Why a wrapper and not a sibling in a blend: the solve needs the velocity
// the agent would take without avoidance. A sibling sees only its own
// input; summed after the solve, the goal's force would push the agent
// back out of the permitted set. Wrapping the goal keeps the guarantee
// and still composes: reciprocal is one behaviour, which a priority or a
// blend may hold (and a pipeline's actuator may be).
//
// Neighbours (the nearest `neighbors` within `range`, ties to the lower
// handle; their discs grown by `margin` between two agents: personal
// space). The velocity obstacle of a neighbour for `horizon` seconds is
// the cone of relative velocities that bring the two discs (spheres in
// 3D) into contact within the horizon, cut off at the disc of radius
// r / horizon around its offset / horizon. u is the smallest change of
// the relative velocity that leaves (or reaches) its boundary, n the
// boundary's outward normal there; this agent takes `responsibility` of
// u: the half-space is (v - (v_self + responsibility u)) . n >= 0. The
// neighbour, running the same code, takes its share of -u.
// The cone's side is found in the plane of the offset and the relative
// velocity (the same code in 2D and 3D). A relative velocity on the axis
// (exactly head-on) has no nearest side: the agent goes to its right of
// the line to the neighbour (offset x z; offset x y when that is vertical),
// which the neighbour sees mirrored, so the pair passes right to right and
// a same-seed replay is the same: no random noise (RVO2's examples add
// some, seeded by the clock).
// Agents already overlapping use a horizon of one step, so the solve asks
// them to be apart by the next tick.
//
// Shapes (when `obstacles` is on: circles, walls, boxes, planes within
// reach of the agent in `obstacle_horizon` seconds at max_speed). A
// circle or sphere is a neighbour that does not move and takes no share:
// its half-space is the velocity obstacle's with responsibility 1. Any
// other shape is convex, so the half-space beyond its tangent plane at
// the point nearest the agent contains it: the agent may not close on
// that plane faster than it can in obstacle_horizon seconds (one step
// when already touching). Where that point is a vertex (a wall's end, a
// box's corner) the plane would also forbid walking past the corner, so
// the vertex is a still point obstacle instead (its velocity obstacle),
// unless the agent could reach it within this step, where only the plane
// is safe. Measured on 100 people crossing a 2 m doorway both ways: with
// planes at the jambs 45 of them never got through at 1/60 s; with cones
// all do, and without the one-step plane at dt 0.25 agents went up to
// 0.1 m into a jamb.
// These half-spaces are hard: when not every neighbour can be satisfied,
// the solve gives up on neighbours (as little as it can), not on shapes,
// unless the shapes' own cannot all be met (an agent already deeper in a
// shape than one step can undo: then every half-space is soft). Since
// each half-space contains its shape, or the cone keeps the agent off the
// vertex, with a horizon of at least one step, an agent outside every
// shape that reaches the chosen velocity does not enter one. At most the
// 16 nearest shapes enter the solve (STEERB_ORCA_MAX less the neighbours'
// room): a wall built of many short pieces may need fewer, longer ones.
//
// max_overlap (by default 0.2 for the pairs that one step can press deeper
// than that, deep_step, 0.3 for such a pair in a face-off, 0.45 once such a
// pair is in contact, auto_overlap; off for the others): at large steps a
// crowd pressing into a gap overlaps deeply, since the soft half-spaces of a
// press give way and the chosen velocity is held for a whole step. With
// max_overlap = t > 0, a neighbour that could close the pair's room, room =
// d - (r_i + r_j) + t r_min (at least 0), within this step at both agents'
// max_speed adds a hard cap on this agent's closing speed toward it: at
// most (1 + k) / 2 of room / dt, k in [-1, 1] the pair's mean velocity's
// part along the offset (the one behind takes the larger share; the
// neighbour, running the same code, the rest), so a pair that keeps to its
// caps overlaps by at most t r_min. A cap contains v = 0, so the shapes
// and caps together always leave a velocity. Between agents whose
// targets oppose (a face-off: the
// neighbour's target slot holds a point beyond us, its direction from the
// neighbour runs against our preferred velocity and, when our slot holds
// a point too, against the direction to ours, which lies beyond the
// neighbour) the cap leans toward sliding past (overlap_cap): one along
// the line between them stops a face-off from sliding past (two files of
// 12 meeting in a 2 m corridor at 0.25 s: 30.75 s without caps, 98.5 s or
// never with them on every pair, 44.5 s with them only within each file),
// and without one, counter-flows pressed as deep as without max_overlap
// (the benchmark's corridor 1.86 r, hallway4 1.79 r at 0.35). Leaning half
// way to the cone's side, every pair of every narrow scene of the
// benchmark keeps within t at 0.25 s (medians of 30 layouts, no cap ->
// leaning cap, t 0.35: doorway 207.7 -> 206.8 s, hallway4 200.3 -> 192.8 s
// (4 of 30 never either way), corridor 116.8 -> 137.0 s; t 0.2: doorway
// 241.3 -> 242.3, corridor 152.4 -> 177.0 s): counter-flows in a corridor
// pay for it (wholly leaning, h = 0, they never get through; a quarter of the
// way, more hallway4 layouts never did).
// Our own target counts because the preferred velocity need not point at
// it: a child such as navigate heads for a corner of the way, and people
// pressed along a wall toward a gap head across the way they and their
// neighbours are going (without it, the benchmark's bottleneck on a
// navigation mesh had pairs 0.6 r deep with max_overlap 0.35). "Beyond" because two agents heading for one
// waypoint (a gap's centre) from either side have opposed targets too, but
// each target lies between them: no face-off (the benchmark's bottleneck
// had pairs 0.51 r deep with max_overlap 0.35 while they were exempt).
// Two changes to the fallback come with it (orca.h's
// steerB_orca_solve_weighted): a neighbour's violation counts divided by
// clamp(room / reach, 0.1, 1), reach = (vmax_i + vmax_j) dt (the far ones,
// which cannot close the pair this step, count for less), and when caps
// are in the solve, a second program takes the velocity nearest the
// preferred one that violates no soft half-space by more than 1.1 times
// the least largest violation (the least-violation point alone stops short
// and the press stalls; 1.3 clogs the gap for good, 1.05 is slow), 1.2
// times for a neighbour already in contact with the default max_overlap
// (auto_overlap: with it a contact gives instead of holding an arch). With
// room >= reach there is no cap and every weight is 1, and the result is
// the same bits as without: at 1/60 s (reach 0.05 m for two people at
// 1.4 m/s) that holds for every pair not already overlapping by most of
// t r_min, which no scene of the benchmark reaches (every line the same).
// Measured with max_overlap 0.35 at dt 0.25 (100 people, median of 7 layouts
// jittered by 5 cm, time / overlapping pairs / deepest in radii; without it,
// and RVO2): bottleneck 170.0 s / 327 / 0.35 (157.5 / 720 / 1.81; RVO2 148.0
// / 333 / 1.32), fanin 82.0 / 86 / 0.35 (92.8 / 303 / 1.68), doorway 232.2 /
// 291 / 1.19 (303.2 / 560 / 1.64), hallway4 165.0 / 229 / 1.68 (173.0 / 344
// / 1.29), two-way corridor 132.8 / 475 / 1.55 (108.8 / 502 / 1.33): queues
// stay within t, counter-flows (exempt then, before the face-off's leaning
// cap) are slower and press about as before. Open scenes at 0.25: packed 22.5 -> 15.8 s, 4 -> 0 pairs;
// circle500 32 -> 380 shallow pairs (deepest 0.15 -> 0.29 r); blocks 61.0 ->
// 71.0 s.
//
// With the default max_overlap, at such steps a pair not yet in contact
// whose one ahead (along the pair's mean motion) is settling at its target
// splits the avoidance unequally: the one ahead takes it all
// (reciprocal_pairs.c, lead_share), so a walker threading a formation does
// not stop for holders free to step aside.
//
// No memory: the behaviour is a pure function of tick t's state.
#include "reciprocal.h"
#include "fields.h"
#include "../core/pmath.h"

#include <string.h>

#define MAX_NEIGHBORS 48 // STEERB_ORCA_MAX less room for shapes
#define NO_AGENT UINT32_MAX
// max_overlap's second pass: soft half-spaces relaxed by 10% more than the
// least largest violation, 20% for a neighbour already in contact (with the
// default max_overlap; see the file comment)
#define RELAX 0.1f
#define RELAX_CONTACT 0.2f
// seconds in which fall_in's walker would close on the spot behind its lead
#define FALL_IN_TIME 1.0f

static float reciprocal_range(const Reciprocal *p) { return steerB_avoid_range(p->range, p->horizon); }

static float reciprocal_sense(const steerB_Node *n) { return reciprocal_range(STEERB_PARAMS_OF(n, Reciprocal)); }

// agent_planes keeps the `neighbors` nearest within range (ties to the
// lower handle) and reads no other: the steer pass may gather only those
// (steerB_Kind.nearest). Not with a tag: the nearest of any tag might
// hide the nearest of ours.
static int reciprocal_nearest(const steerB_Node *n)
{
    const Reciprocal *p = STEERB_PARAMS_OF(n, Reciprocal);
    int k = (int)p->neighbors < MAX_NEIGHBORS ? (int)p->neighbors : MAX_NEIGHBORS;
    return p->tag ? 0 : k;
}

// The half-space against a neighbour at offset `off` (its position minus
// ours) with relative velocity vrel (ours minus its), radii r, horizon
// tau, this agent's share of u: `share` when the pair is inside the
// velocity obstacle (on a collision course), `slack` when outside it (u
// then leaves room to close). `other`: the neighbour's dense index
// (NO_AGENT for a shape), for the split of agents on the same spot,
// moving alike.
static void orca_plane(const steerB_Ctx *c, const float off[3], const float vrel[3], float r, float tau, float share,
                       float slack, uint32_t other, steerB_Plane *pl)
{
    // w: the relative velocity from the centre of the cut-off disc, the
    // horizon's, or one step's when overlapping now (apart within a step)
    float d2 = v3_len2(off), u[3], n[3], w[3];
    float inv = d2 > r * r ? 1.0f / tau : 1.0f / c->dt;
    v3_copy(w, vrel);
    v3_madd(w, off, -inv);
    if (d2 > r * r) {
        float wl2 = v3_len2(w), dot = v3_dot(w, off);
        if (dot < 0.0f && dot * dot > r * r * wl2) {
            // nearest the cut-off disc (w != 0 here, as dot < 0)
            float wl = sqrtf(wl2);
            v3_scale(n, w, 1.0f / wl);
            v3_scale(u, n, r * inv - wl);
        } else {
            // nearest the cone's side, in the plane of the axis and vrel
            float dl = sqrtf(d2), axis[3], rad[3];
            v3_scale(axis, off, 1.0f / dl);
            float a = v3_dot(vrel, axis);
            v3_copy(rad, vrel);
            v3_madd(rad, axis, -a);
            float rl = v3_normalize(rad);
            if (!(rl > 1e-6f * (fabsf(a) + 1e-6f))) {
                rl = 0.0f;
                steerB_right_of(axis, rad);
            }
            float sn = r / dl, cs = sqrtf(1.0f - sn * sn);
            v3_scale(n, rad, cs);
            v3_madd(n, axis, -sn);
            float outside = rl * cs - a * sn; // signed distance from the side
            v3_scale(u, n, -outside);
        }
    } else {
        // overlapping now
        float wl = v3_len(w);
        if (wl > 0.0f) v3_scale(n, w, 1.0f / wl);
        else {
            v3_scale(n, off, -1.0f);
            if (v3_normalize(n) == 0.0f) {
                // on the same spot, moving alike: split along x by handle
                bool low = other == NO_AGENT || steerW_handle(c->w, c->d).id < steerW_handle(c->w, other).id;
                v3_set(n, low ? -1.0f : 1.0f, 0.0f, 0.0f);
            }
        }
        v3_scale(u, n, r * inv - wl);
    }
    v3_copy(pl->p, c->v);
    v3_madd(pl->p, u, v3_dot(u, n) < 0.0f ? slack : share);
    v3_copy(pl->n, n);
}

typedef struct Pick {
    float d2;
    uint32_t id; // the tie-break: a shape's index, or an agent's dense index
    int i;       // index into the neighbour list or the found shapes
} Pick;

// Is a nearer than b? Ties (rare: exact only) go to the lower shape index,
// or, given the world, the lower handle id of the agents: never to the
// order in which they were offered.
static bool before(const steer_World *w, const Pick *a, const Pick *b)
{
    if (a->d2 != b->d2) return a->d2 < b->d2;
    return w ? steerW_handle(w, a->id).id < steerW_handle(w, b->id).id : a->id < b->id;
}

// Keep the k nearest of the picks offered, in order (k is small).
static void offer(const steer_World *w, Pick *best, int *nbest, int k, Pick x)
{
    if (*nbest == k && !before(w, &x, &best[k - 1])) return;
    int j = *nbest < k ? (*nbest)++ : k - 1;
    while (j > 0 && before(w, &x, &best[j - 1])) {
        best[j] = best[j - 1];
        j--;
    }
    best[j] = x;
}

// Is the point of shape s nearest p one of its vertices (a wall's end, a
// box's corner)? There the tangent plane would also forbid walking past
// the corner, which is what a doorway asks of everyone in it.
static bool at_vertex(const steer_World *w, const steerW_Shape *s, const float p[3])
{
    if (s->kind == STEER_SHAPE_SEGMENT) {
        float ab[3], ap[3];
        v3_sub(ab, s->b, s->a);
        v3_sub(ap, p, s->a);
        if (w->dim == 3) ab[2] = ap[2] = 0.0f; // a panel: its ends in plan
        float along = v3_dot(ap, ab);
        return along <= 0.0f || along >= v3_len2(ab);
    }
    if (s->kind != STEER_SHAPE_BOX) return false;
    int out = 0;
    for (int i = 0; i < w->dim; i++) out += p[i] < s->a[i] || p[i] > s->b[i];
    return out == w->dim;
}

// The hard half-spaces of the shapes within reach, nearest first, at most
// cap of them; flat[j]: pl[j] is a face's tangent plane (not a circle's or
// a vertex's cone). Returns how many.
static int shape_planes(steerB_Ctx *c, const Reciprocal *p, steerB_Plane *pl, bool *flat, int cap)
{
    const steer_World *w = c->w;
    float tau, reach;
    int k = steerB_recip_shapes_in_reach(c, p, &tau, &reach), nbest = 0;
    if (k < 0) return 0; // out of memory: no shapes this tick, as in avoid_obstacles
    Pick best[STEERB_ORCA_MAX];
    for (int i = 0; i < k; i++) {
        uint32_t s = c->loc->found[i];
        float gap = steerO_signed_distance(w, &w->geo.shapes[s], c->p) - c->radius;
        if (!(gap < reach - c->radius)) continue;
        offer(NULL, best, &nbest, cap, (Pick){ .d2 = gap, .id = s, .i = i });
    }
    float step = c->max_speed * c->dt; // the most the agent can close in one step
    for (int j = 0; j < nbest; j++) {
        const steerW_Shape *s = &w->geo.shapes[c->loc->found[best[j].i]];
        float gap = best[j].d2; // this pick's key is its gap
        if (s->kind == STEER_SHAPE_CIRCLE) {
            float off[3];
            v3_sub(off, s->a, c->p);
            if (w->dim == 2) off[2] = 0.0f;
            orca_plane(c, off, c->v, c->radius + s->r, tau, 1.0f, 1.0f, NO_AGENT, &pl[j]);
            flat[j] = false;
            continue;
        }
        float q[3], nrm[3];
        steerO_closest(w, s, c->p, q, nrm);
        if (gap > step && at_vertex(w, s, c->p)) {
            float off[3];
            v3_sub(off, q, c->p);
            orca_plane(c, off, c->v, c->radius, tau, 1.0f, 1.0f, NO_AGENT, &pl[j]);
            flat[j] = false;
            continue;
        }
        flat[j] = true;
        float t = gap > 0.0f ? tau : c->dt;
        v3_scale(pl[j].p, nrm, -gap / t);
        v3_copy(pl[j].n, nrm);
    }
    return nbest;
}

// The soft half-spaces of the nearest neighbours, and what each neighbour
// is doing (STILL_ONE, CLOSING, OTHER, FACING) given the agent's preferred
// velocity. Returns how many. With max_overlap (caps not NULL): the hard
// caps into caps (how many into *ncaps) and each soft half-space's weight
// and relaxation (the fallback's, see RELAX).
// Into *yield whether the agent gives way in a standoff (give_way), into
// aside the way it steps to let a neighbour through (make_way; zero: none;
// only when `walled`: a shape is within reach), into z what fall_in needs
// (only when z->lined: in a passage).
static int agent_planes(steerB_Ctx *c, const Reciprocal *p, const float pref[3], steerB_Plane *pl, uint8_t *what,
                        steerB_Plane *caps, int *ncaps, float *weight, float *relax, bool *yield, float aside[3],
                        bool walled, Zipper *z, int cap)
{
    const steer_World *w = c->w;
    float range = reciprocal_range(p), range2 = range * range;
    Pick best[MAX_NEIGHBORS];
    int nbest = 0, k = (int)p->neighbors < cap ? (int)p->neighbors : cap;
    *yield = false;
    v3_zero(aside);
    z->opposed = false, z->lead = -1, z->lead_d2 = 0.0f;
    if (k <= 0) return 0;
    for (int i = 0; i < c->nn; i++) {
        const steerB_Neighbor *nb = &c->nb[i];
        // the list may reach further, for another node of the brain
        if (!(nb->d2 < range2)) continue;
        if (p->tag && w->tag[nb->d] != p->tag) continue;
        offer(w, best, &nbest, k, (Pick){ .d2 = nb->d2, .id = nb->d, .i = i });
    }
    float own[3]; // from us to our target point, when the slot holds one
    bool has_own = steerB_recip_target_delta(w, c->d, own);
    bool still = p->bias > 0.0f && has_own && steerB_still(w, c->d, c->v); // for the standoffs
    // on its target, not heading on at speed (a waypoint's seek does), near a wall: may make way
    float slow = 0.5f * c->max_speed;
    bool holding = still && walled && v3_len2(own) < c->radius * c->radius && v3_len2(pref) < slow * slow;
    bool zip = z->lined && p->bias > 0.0f && z->way;
    for (int j = 0; j < nbest; j++) {
        const steerB_Neighbor *nb = &c->nb[best[j].i];
        float vj[3], vrel[3];
        steerW_load(w->v, nb->d, vj);
        v3_sub(vrel, c->v, vj);
        what[j] = steerB_still(w, nb->d, vj)     ? (steerB_recip_facing(c, nb, pref) ? FACING : STILL_ONE)
                  : v3_dot(vrel, nb->off) > 0.0f ? CLOSING
                                                 : OTHER;
        if (still && !*yield) *yield = steerB_recip_standoff(c, nb, vj, own);
        if (holding && v3_len2(aside) == 0.0f) steerB_recip_let_through(c, nb, vj, aside);
        if (zip) steerB_recip_zipper_see(c, nb, best[j].i, vrel, own, z->ahead, z);
        float share = steerB_recip_head_on_share(c, nb, p->responsibility, has_own ? own : NULL);
        share = steerB_recip_lane_share(c, p, nb, share, has_own ? own : NULL);
        float slack = 2.0f * p->responsibility - share;
        share = steerB_recip_lead_share(c, p, nb, vj, share, has_own ? own : NULL);
        orca_plane(c, nb->off, vrel, c->radius + w->radius[nb->d] + p->margin, p->horizon, share, slack, nb->d, &pl[j]);
        if (!caps) continue;
        relax[j] = RELAX;
        if (p->max_overlap < 0.0f && !steerB_recip_deep_step(c, nb->d, AUTO_OVERLAP)) {
            weight[j] = 1.0f;
            continue;
        }
        // a face-off, a leaning cap: the neighbour's target lies beyond us, against our way (and our target,
        // which lies beyond the neighbour); two agents converging on one waypoint from either side are not
        float u[3];
        bool opposed = steerB_recip_target_delta(w, nb->d, u) && v3_dot(u, pref) < 0.0f &&
                       -v3_dot(u, nb->off) > nb->d2 &&
                       !(has_own && (v3_dot(u, own) > 0.0f || !(v3_dot(own, nb->off) > nb->d2)));
        float tol = p->max_overlap;
        if (tol < 0.0f) {
            bool contact = steerB_recip_in_contact(c, nb);
            tol = steerB_recip_auto_overlap(contact, opposed);
            if (contact) relax[j] = RELAX_CONTACT;
        }
        *ncaps += steerB_recip_overlap_cap(c, nb, vj, vrel, tol, opposed, &caps[*ncaps], &weight[j]);
    }
    return nbest;
}

// The convention that breaks symmetry: when the preferred velocity is
// outside the half-space of a neighbour closing in, it turns right by
// `bias` radians (about the world's z axis; y for a vertical one in 3D).
// Every agent turning the same way makes a pair that meets head-on pass
// right to right and a ring that closes on its centre swirl instead of
// stopping. Measured on agents of radius 0.5 crossing a circle of 20 m:
// without it, 40 of them stop for good where their ring is one body wide;
// with 0.3 rad, 40 cross in 23 s and 60 in 27 s without touching (a blend
// of arrive and avoid_agents: 29 and 30 s, overlapping 1% and 7% of a
// radius). 0.15 rad swirls too little (60: 84 s), 0.5 too much: a crowd
// closing on goals packed side by side turns round them (100 agents:
// 97 s instead of 16).
// A neighbour standing still (slower than 5% of its max_speed) in the way
// vetoes the turn: it is passed like an obstacle, or waited behind when it
// holds the agent's goal. Turning there makes the agents whose goal is
// held circle the holders for ever (30 agents sent to one point: 0.7 m/s
// a minute later; with the veto they creep in at about 0.1 m/s, and
// stand still with arrive's free_spot).
// Unless it faces the agent off (facing: it wants through where the agent
// stands, against the agent's way): then both turn right, mirrored, and
// slide past each other. Without that, two flows that meet in a gap or a
// corridor stand nose to nose for good, every neighbour still and every
// turn vetoed (100 people crossing a 2 m doorway both ways, seeking its
// half on their right: 372 s at 1/60 s, 386 s at 0.25; with it 321 s and
// 266 s, the median of 8 layouts jittered by 5 cm 240 -> 124 s and
// 285 -> 193 s (RVO2 with its noise: 120 s, 242 s); two files of 12
// meeting in a 2 m corridor at 0.25 s: 53.5 -> 30.75 s). Queues are left
// alone (a queue-mate heads the agent's way): the narrow.lua queues at a
// 1.2 m gap keep their times to the bit at 1/60, and packed, circle250,
// circle500 and circle500w theirs at both steps; blocks 59.6 -> 69.8 s at
// 1/60 (63.5 -> 61.0 at 0.25). Reading neighbours' target slots only,
// tick t's state: no memory.
static void keep_right(const steerB_Plane *pl, const uint8_t *what, int n, float bias, float pref[3])
{
    float speed = v3_len(pref);
    if (bias == 0.0f || !(speed > 0.0f)) return;
    bool turn = false, veto = false, face = false;
    for (int i = 0; i < n; i++) {
        float e[3];
        v3_sub(e, pref, pl[i].p);
        if (!(v3_dot(e, pl[i].n) < 0.0f)) continue;
        veto |= what[i] == STILL_ONE;
        face |= what[i] == FACING;
        turn |= what[i] == CLOSING;
    }
    if (!face && (veto || !turn)) return;
    float ahead[3], right[3];
    v3_scale(ahead, pref, 1.0f / speed);
    steerB_right_of(ahead, right);
    float sn, cs;
    steerM_sincosf(bias, &sn, &cs);
    v3_scale(pref, pref, cs);
    v3_madd(pref, right, sn * speed);
}

// The tie-break for a standoff over one spot, steer's in place of RVO2's
// random noise: two agents standing still nose to nose, each heading for a
// point on the other's side that both cannot take at once (the same
// waypoint, from either side of it), wedged by their neighbours and the
// walls so that every velocity but zero is forbidden; keep_right's turn
// does not free them (a turned preferred velocity still projects to zero).
// The one with the longer way (standoff; yield) gives way: its preferred
// velocity becomes sin(bias) max_speed straight back from its target; the
// other holds, and goes first. Decided from tick t's positions and target
// slots only: the same bits on any thread count.
// Measured on narrow.lua's 2 x 10 doorway at 1/60 s laid out exactly
// point-symmetric: four agents stood as a chain from jamb to jamb from 12 s
// to 33 s, two pairs each wanting their lane's waypoint (41.13 s all
// through; RVO2 with its noise 16.3 s); with it 20.77 s, and its layouts
// 1..15 (jittered) to the bit as before. On the benchmark's doorway (21
// layouts, 100 people) it moves 12 of them at 1/60 s (median 135.1 ->
// 127.7 s, mean 157.9 -> 149.7; a chaotic scene: over layouts 1..7 alone
// the median goes 135.1 -> 188.6) and 11 at 0.25 s (median 204.8 s either
// way, mean 211.7 -> 213.6, overlapping pairs 578 -> 584); the other
// scenes of the benchmark, open or narrow, keep their bits. Variants: stepping to the left of the line to the other
// instead, 21.92 s and the doorway's means 160.3 and 219.9 s; both of the
// pair giving way, two sent to one goal circle it for good (with one, they
// stand, as without the rule); any targets, not only one spot, the
// benchmark's packed at 0.25 s took 64.5 s (22.5), its agents pressing
// toward goals 3.2 m apart.
static void give_way(const steerB_Ctx *c, bool yield, float bias, float pref[3])
{
    float u[3];
    if (!yield || !steerB_recip_target_delta(c->w, c->d, u) || v3_normalize(u) == 0.0f) return;
    v3_scale(pref, u, -steerM_sinf(bias) * c->max_speed);
}

// A goal holder in the way (let_through; aside): two people stand nose to
// nose, one on its target, the other wanting through where it stands (its
// target lies beyond, deeper in a formation both walk to, or past a holder
// squeezed against a wall); the holder does not move (its way is zero),
// the other cannot pass (a formation 1 m apart leaves 0.4 m between 0.6 m
// discs), and the one still behind the holders never arrives. The holder
// steps off the other's line, sin(bias) max_speed on its side of it; once
// the other has slipped by (no longer touching it, or no longer still),
// the holder's own goal brings it back. Decided from tick t's positions,
// velocities and target slots only.
// Only near a wall (a shape within reach: the wedge needs one) and for a
// holder that does not head on at speed (on a waypoint, seek does).
// Measured: narrow.lua's holder at 0.25 s (the walker wedged between the
// holder and the wall from 5 s until rounding let it slip at 19.5 s):
// 19.75 -> 7.0 s. steer-bench crowd hallway4 at 1/60 s, 30 layouts: of
// the 4 where one person was left behind the formation's holders at its
// wall, 3 get through (5, 17, 18: 108.5, 116.0, 98.5 s; median 116.1 ->
// 113.6 s); narrow.lua's 2 m corridor with max_overlap 0.35 at 0.25 s,
// layout 7 (one left behind his file's holders for good): 115.25 s. The
// open scenes (no walls) keep their bits; doorway, bottleneck and fanin
// too (7 layouts each, both steps), the corridor but one run (layout 3 at
// 0.25 s, 130.2 -> 150.2 s; medians the same). Everywhere, in a formation
// 1 m apart, it made things worse: a holder stepping aside steps into the
// next, and the benchmark's doorway at 1/60 s took 116.6 -> 148.8 s
// (median of 7 layouts); on a waypoint, 156.2 s.
static void make_way(const steerB_Ctx *c, const float aside[3], float bias, float pref[3])
{
    if (v3_len2(aside) == 0.0f) return;
    v3_scale(pref, aside, steerM_sinf(bias) * c->max_speed);
}

// A zipper for two files meeting in a passage (zipper_see; z): a walker
// with someone walking against it ahead, closing, in its way, and someone
// walking its way abreast on its right gives that one the lead and falls
// in behind it: its preferred velocity becomes the lead's speed along our
// way plus the offset to the spot r_i + r_j behind the lead over
// FALL_IN_TIME (truncated to max_speed), which slows it and steps it
// right; keep_right may still turn that. Half-turn symmetric: in two files
// two abreast meeting head-on, each file's left row falls in behind its
// right row and the files pass on their rights, one lane each. Without
// it, keep_right turns both left rows toward the middle, where they meet
// nose to nose with the right rows at the walls beside them: four rows for
// the three lanes of a 2 m corridor, and every one caged by touching
// neighbours. Only in a passage (lined), so open crowds keep their bits. Measured on narrow.lua's two files of 12 (6 x
// 2) in a 2 m corridor, layouts 0..7: at 1/60 s never, 22.9, 30.0, never, never, 34.9, 93.0, 22.7 s
// -> 24.45, 17.52, 18.37, 20.90, 16.43, 17.73, 17.13, 16.25 s; at 0.25 s 96.75, 58.75, never, never, never,
// never, 47.25, 45.0 s -> 19.75, 23.0, 22.0, 29.75, 20.25, 20.0, 24.5, 20.0 s. Variants (at 1/60 s): the spot 1.5 (r_i
// + r_j) behind, layout 4 50.5 s; level meaning up to 1.2 (r_i + r_j) ahead, layout 2 31.5 s; the rule after keep_right
// (replacing its turn), layout 4 never. Decided from tick t's positions, velocities and target
// slots only: the same bits on any thread count.
static void fall_in(const steerB_Ctx *c, const Zipper *z, float pref[3])
{
    float vj[3], slot[3];
    const float *ahead = z->ahead;
    if (!z->opposed || z->lead < 0 || !z->way) return;
    const steerB_Neighbor *nb = &c->nb[z->lead];
    steerW_load(c->w->v, nb->d, vj);
    v3_copy(slot, nb->off); // from us to the spot r_i + r_j behind the lead
    v3_madd(slot, ahead, -(c->radius + c->w->radius[nb->d]));
    float keep = v3_dot(vj, ahead);
    v3_scale(pref, ahead, keep > 0.0f ? keep : 0.0f);
    v3_madd(pref, slot, 1.0f / FALL_IN_TIME);
    v3_truncate(pref, c->max_speed);
}

// Is the agent in a passage: of the shapes' half-spaces pl (n of them),
// a face's (flat) on its left and one on its right, each with a normal
// more across its way (to its target point) than along it? Near one wall
// only (a door's wall on the way to or from its gap, a wide corridor's
// side), falling in did harm: the benchmark's doorway at 1/60 s took
// 116.6 -> 143.5 s (median of 15 layouts), with a wall across the way
// excluded 174.8 s; in the gap itself (between the jambs' cones) 127.0 s.
static bool lined(const float ahead[3], const steerB_Plane *pl, const bool *flat, int n)
{
    float right[3];
    if (n < 2) return false;
    steerB_right_of(ahead, right);
    bool left_wall = false, right_wall = false;
    for (int i = 0; i < n; i++) {
        float across = v3_dot(pl[i].n, right);
        if (!flat[i] || !(across * across > 0.5f * v3_len2(pl[i].n))) continue;
        right_wall |= across < 0.0f; // the wall on our right pushes us left
        left_wall |= across > 0.0f;
    }
    return left_wall && right_wall;
}

static void reciprocal_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Reciprocal *p = STEERB_PARAMS_OF(n, Reciprocal);
    float goal[3], pref[3], v[3];
    steerB_blend_sum(c, n, goal);
    v3_copy(pref, c->v);
    if (c->max_force > 0.0f) v3_madd(pref, goal, c->max_speed / c->max_force);
    v3_truncate(pref, c->max_speed);

    steerB_Plane pl[STEERB_ORCA_MAX], caps[MAX_NEIGHBORS];
    uint8_t what[MAX_NEIGHBORS];
    float weight[STEERB_ORCA_MAX], relax[STEERB_ORCA_MAX];
    bool press = p->max_overlap != 0.0f; // negative: the default, deep_step's pairs
    bool flat[STEERB_ORCA_MAX - MAX_NEIGHBORS];
    int hard = p->obstacles ? shape_planes(c, p, pl, flat, STEERB_ORCA_MAX - MAX_NEIGHBORS) : 0, ncaps = 0;
    bool yield;
    float aside[3];
    Zipper z;
    z.way = steerB_recip_target_delta(c->w, c->d, z.ahead) && v3_normalize(z.ahead) > 0.0f;
    z.lined = z.way && lined(z.ahead, pl, flat, hard);
    int nsoft = agent_planes(c, p, pref, pl + hard, what, press ? caps : NULL, &ncaps, weight + hard, relax + hard,
                             &yield, aside, hard > 0, &z, MAX_NEIGHBORS);
    fall_in(c, &z, pref);
    keep_right(pl + hard, what, nsoft, p->bias, pref);
    give_way(c, yield, p->bias, pref);
    make_way(c, aside, p->bias, pref);
    if (!press) {
        steerB_orca_solve(pl, hard + nsoft, hard, c->max_speed, pref, c->w->dim, v);
    } else {
        // the caps go hard after the shapes' (as many as there is room for,
        // nearest first), the neighbours' soft half-spaces after them
        if (ncaps > STEERB_ORCA_MAX - hard - nsoft) ncaps = STEERB_ORCA_MAX - hard - nsoft;
        memmove(pl + hard + ncaps, pl + hard, (size_t)nsoft * sizeof *pl);
        memmove(weight + hard + ncaps, weight + hard, (size_t)nsoft * sizeof *weight);
        memmove(relax + hard + ncaps, relax + hard, (size_t)nsoft * sizeof *relax);
        memcpy(pl + hard, caps, (size_t)ncaps * sizeof *pl);
        for (int k = 0; k < hard + ncaps; k++) weight[k] = 1.0f, relax[k] = 0.0f;
        steerB_orca_solve_weighted(pl, hard + ncaps + nsoft, hard + ncaps, weight, ncaps > 0 ? relax : NULL,
                                   c->max_speed, pref, c->w->dim, v);
    }
    // the change the force can make this step first, then the force: mass
    // over dt alone may overflow (a heavy agent, a tiny step)
    v3_sub(out, v, c->v);
    if (c->dt > 0.0f && c->mass > 0.0f) {
        v3_truncate(out, c->max_force * (c->dt / c->mass));
        v3_scale(out, out, c->mass / c->dt);
        v3_truncate(out, c->max_force);
    } else v3_zero(out);
}

static const steerB_Field reciprocal_fields[] = {
    { "horizon", STEERB_NUMBER, offsetof(Reciprocal, horizon), 2, 1e-3, 1e4, "a number of seconds", NULL },
    { "obstacle_horizon", STEERB_NUMBER, offsetof(Reciprocal, obstacle_horizon), 1, 1e-3, 1e4, "a number of seconds",
      NULL },
    { "responsibility", STEERB_NUMBER, offsetof(Reciprocal, responsibility), 0.5f, 0, 1, "a number", NULL },
    { "margin", STEERB_NUMBER, offsetof(Reciprocal, margin), 0, 0, 1e4, "a number of metres", NULL },
    STEERB_AVOID_RANGE_ROW(Reciprocal),
    { "neighbors", STEERB_NUMBER, offsetof(Reciprocal, neighbors), 10, 0, MAX_NEIGHBORS, "a number of agents", NULL },
    { "bias", STEERB_NUMBER, offsetof(Reciprocal, bias), 0.3f, 0, 1.5,
      "a number of radians (how far the agent turns right when someone is in its way)", NULL },
    STEERB_AVOID_TAG_ROW(Reciprocal),
    { "obstacles", STEERB_BOOL, offsetof(Reciprocal, obstacles), 1, 0, 0, "a boolean", NULL },
    { "max_overlap", STEERB_NUMBER, offsetof(Reciprocal, max_overlap), -1, 0, 1,
      "a number (of the smaller radius: how deep two agents may overlap from one step)", NULL },
    { 0 }
};

const steerB_Kind steerB_reciprocal = {
    .name = "reciprocal",
    .fields = reciprocal_fields,
    .eval = reciprocal_eval,
    .children = STEERB_WEIGHTED,
    .children_optional = true,
    .sense = reciprocal_sense,
    .nearest = reciprocal_nearest,
};
