// SPDX-License-Identifier: MIT
// reciprocal_pairs.c — steer.reciprocal's rules for one neighbour at a time
// (reciprocal.h): shares, giving way, the overlap cap, the zipper's look.
#include "reciprocal.h"
#include "../core/pmath.h"

// max_overlap's default for a pair of deep_step's already deeper than
// CONTACT r_min (auto_overlap)
#define AUTO_CONTACT 0.45f
#define CONTACT 0.1f
// and for a face-off's pair not yet in contact (auto_overlap)
#define AUTO_FACE_OFF 0.3f
// a standoff's pair is nearer than this many times the sum of the radii
#define STANDOFF_REACH 1.5f
// a goal holder makes way for a neighbour nearer than this many times the
// sum of the radii (touching: within 10% of contact)
#define LET_THROUGH_REACH 1.1f
// fall_in (a zipper): the cosine within which two ways are the same (about
// 10 degrees), and below which a way opposes ours (120 degrees)
#define SAME_WAY 0.985f
#define OPPOSED_WAY -0.5f
// lead_share: two target points nearer than this (metres) are one point;
// the one ahead settles within SETTLING (r_i + r_j) of its target point
#define ONE_POINT 0.01f
#define SETTLING 2.0f

// The shapes whose boxes come within the agent's reach (its radius and
// max_speed over the obstacle horizon, *tau, at least one step; into
// *reach) into c->loc->found; returns how many (negative: out of memory).
int steerB_recip_shapes_in_reach(steerB_Ctx *c, const Reciprocal *p, float *tau, float *reach)
{
    *tau = p->obstacle_horizon > c->dt ? p->obstacle_horizon : c->dt;
    *reach = c->radius + c->max_speed * *tau;
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = c->p[i] - *reach;
        hi[i] = c->p[i] + *reach;
    }
    if (c->w->dim == 2) lo[2] = hi[2] = 0.0f;
    return steerO_shapes_near(c->w, c->loc, lo, hi);
}

// Where neighbour d's target slot holds a point: u, from d to it (false
// when the slot holds none).
bool steerB_recip_target_delta(const steer_World *w, uint32_t d, float u[3])
{
    if (!(w->flags[d] & STEER_AF_TARGET_POINT)) return false;
    float pj[3], t[3];
    steerW_load(w->p, d, pj);
    steerW_target_point(w, d, t);
    if (w->dim != 3) t[2] = 0.0f;
    steerT_delta(w, pj, t, u);
    return true;
}

// Is the still neighbour nb facing this agent off: does it want to go
// through where we stand, the way we came (its target slot holds a point
// farther than we are, on our side of it, and it heads against our
// preferred velocity)? A queue-mate ahead heads our way (its target lies
// beyond it, away from us) and a goal holder's target is at its feet: both
// fail, and still veto keep_right's turn.
bool steerB_recip_facing(const steerB_Ctx *c, const steerB_Neighbor *nb, const float pref[3])
{
    float u[3];
    if (!steerB_recip_target_delta(c->w, nb->d, u)) return false;
    return -v3_dot(u, nb->off) > 0.0f && v3_len2(u) > nb->d2 && v3_dot(u, pref) < 0.0f;
}

// Two agents at offset off (the neighbour's position less ours) head at
// each other: each one's target (ui ours, uj the neighbour's, each from
// its agent) lies toward the other, the two ways opposed.
static bool head_on(const float ui[3], const float uj[3], const float off[3])
{
    return v3_dot(ui, uj) < 0.0f && v3_dot(ui, off) > 0.0f && v3_dot(uj, off) < 0.0f;
}

// This agent's share of u against neighbour nb, `base` (responsibility)
// but for two agents close together (within 2 (r_i + r_j)) that meet
// head-on in a passage: each one's target beyond the other, the targets
// opposed, and the one with the longer way left (the leaver: it came
// through the gap) within 3 (r_i + r_j) of the other's target (the
// enterer's: the gap). There the leaver has the right of way: on a
// collision course the enterer takes the larger share, base + k room,
// k = (l_j - l_i) / (l_i + l_j) its part of the ways' difference, room
// the most base can move in [0, 1]; outside the velocity obstacle the
// shares swap (2 base - share, orca_plane's slack), so the leaver may
// close more of the room left. Without it, enterers pressed from behind
// box the leavers in just past the gap, where each side yields alike.
// Both agents compute the pair's figures from the same bits (e from
// either side is t_enterer - p_leaver), so they agree; k = 0 (the base
// share) for everyone else. ui: from us to our target point (NULL when
// our slot holds none). Within 1.5 (r_i + r_j) instead of 2 the
// benchmark's doorway swapped as fast but pressed more pairs at 0.25 s
// (618 against 574, medians of 15 layouts), and the bottleneck and fanin
// took 3 to 5% longer at 1/60 s: from farther out the enterer yields
// before the crush.
float steerB_recip_head_on_share(const steerB_Ctx *c, const steerB_Neighbor *nb, float base, const float *ui)
{
    const steer_World *w = c->w;
    float rr = c->radius + w->radius[nb->d], uj[3], e[3];
    if (!(nb->d2 < 4.0f * rr * rr)) return base;
    if (!ui || !steerB_recip_target_delta(w, nb->d, uj) || !head_on(ui, uj, nb->off)) return base;
    float li2 = v3_len2(ui), lj2 = v3_len2(uj);
    if (!(li2 > nb->d2 && lj2 > nb->d2)) return base;
    float li = sqrtf(li2), lj = sqrtf(lj2);
    if (li == lj) return base;
    if (li < lj) v3_sub(e, ui, nb->off); // our target from the neighbour, the leaver
    else v3_add(e, uj, nb->off);         // its target from us, the leaver
    if (!(v3_len2(e) < 9.0f * rr * rr)) return base;
    float room = base < 1.0f - base ? base : 1.0f - base;
    return base + (lj - li) / (li + lj) * room;
}

// Lane discipline at a gap used both ways (lane_share): is the agent whose
// target point lies u from it astray, nearer the other lane than its own,
// x the offset from the other lane's target to its own? Its way to its
// target runs more than half the lanes' separation toward its own lane.
static bool astray(const float u[3], const float x[3]) { return v3_dot(u, x) > 0.5f * v3_len2(x); }

// Does the agent stand between two shapes across the axis x, a shape within
// its obstacle reach on either side (the jambs of a gap whose lanes lie
// along x)? Reads the shapes again, as shape_planes keeps no positions.
static bool across_gap(steerB_Ctx *c, const Reciprocal *p, const float x[3])
{
    const steer_World *w = c->w;
    float tau, reach;
    int k = steerB_recip_shapes_in_reach(c, p, &tau, &reach);
    bool plus = false, minus = false;
    for (int i = 0; i < k; i++) {
        const steerW_Shape *s = &w->geo.shapes[c->loc->found[i]];
        if (s->kind == STEER_SHAPE_PLANE) continue;
        float q[3], nrm[3], e[3];
        steerO_closest(w, s, c->p, q, nrm);
        v3_sub(e, q, c->p);
        if (w->dim == 2) e[2] = 0.0f;
        if (!(v3_len2(e) < reach * reach)) continue;
        float a = v3_dot(e, x);
        plus |= a > 0.0f;
        minus |= a < 0.0f;
    }
    return plus && minus;
}

// This agent's share of u against neighbour nb, `share` (head_on_share's)
// unless the two are walkers of two flows through a gap, each by way of its own lane, and one
// of them has strayed into the other's: then the one astray takes all the
// avoidance it can, base + room (base: responsibility; room = min(base,
// 1 - base)), and the one in its lane base - room, so it keeps going. The pair: within 2 (r_i +
// r_j); both target points (ui from us, NULL when our slot holds none,
// uj from the neighbour) on opposed ways (ui . uj < 0) and apart, from
// r_i / 2 to 2 (r_i + r_j) (the gap's two lanes: x, from the neighbour's
// target to ours, the lanes' axis); one in front of the other along the
// flows rather than beside it across the lanes ((off . x)^2 < |off|^2
// |x|^2 / 2); exactly one astray (astray); and we stand between shapes
// across x (across_gap: a jamb on either side). x from the neighbour's
// side is -x to the bit ((own - uj) - off, each term negated), so both
// agents find the same one astray; across_gap is each agent's own (at the
// gap's edge one may see both jambs and the other not: the shares then
// need not add up to 2 base for a tick or two). The rows behind press a
// flow's front past its waypoint into the other lane, and the two fronts
// stand across the gap as two facing lines (issue 31's doorway); the head-on
// share does not apply there (each target lies short of the other agent),
// nor the standoff (two points, not one).
float steerB_recip_lane_share(steerB_Ctx *c, const Reciprocal *p, const steerB_Neighbor *nb, float share,
                              const float *ui)
{
    const steer_World *w = c->w;
    float rr = c->radius + w->radius[nb->d], uj[3], x[3], nx[3];
    if (!ui || !(nb->d2 < 4.0f * rr * rr)) return share;
    if (!steerB_recip_target_delta(w, nb->d, uj) || !(v3_dot(ui, uj) < 0.0f)) return share;
    v3_sub(x, ui, uj);
    v3_sub(x, x, nb->off);
    float l2 = v3_len2(x), along = v3_dot(nb->off, x);
    if (!(l2 < 4.0f * rr * rr) || !(l2 > 0.25f * c->radius * c->radius)) return share;
    if (!(along * along < 0.5f * nb->d2 * l2)) return share;
    v3_scale(nx, x, -1.0f);
    bool me = astray(ui, x);
    if (me == astray(uj, nx) || !across_gap(c, p, x)) return share;
    float base = p->responsibility, room = base < 1.0f - base ? base : 1.0f - base;
    return me ? base + room : base - room;
}

// This agent's share of u against neighbour nb (velocity vj), `share` (lane_share's) but at large
// steps (deep_step's pairs, with max_overlap's default) for a pair not yet in contact (in_contact)
// whose one ahead along the pair's mean motion ((v_i + v_j) . off > 0: the neighbour is ahead) is
// settling: its target point lies within SETTLING (r_i + r_j) of it. There the one ahead takes all
// the avoidance it can, base + room (base: responsibility; room = min(base, 1 - base)), the one
// behind base - room (the shares' sum stays 2 base, the pair's guarantee). Not for two heading for
// one point (their target points within ONE_POINT: a gap's waypoint), which the one ahead cannot
// leave either. ui: from us to our target point (NULL when our slot holds none). A velocity
// obstacle reads the neighbour's velocity of the step before, held for the whole step: split
// alike, a walker threading a formation slows for each holder it meets as much as the holder steps
// aside, though the holder is free to (its way is short and its neighbours still). Both agents
// compute the pair's figures from the same bits (the mean motion's part along off changes sign
// with off), so exactly one of them is ahead; none when the pair stands still or its mean motion
// runs across off.
// Where the time went without it (the benchmark's fanin at 0.25 s, medians of layouts 1..30, RVO2
// in brackets): the last person into the corridor 44.8 s after the start (33.6 s), a flow of 2.5
// people a second through its mouth once it filled (5.2), the last out of the corridor at 59.2 s
// (48.1 s), then 27.6 s (29.8 s) until the last one stood on his spot of the 10 x 10 formation 1 m
// apart past it: those last were walkers to spots deep in it, squeezing between its holders (87.0 s
// in all; RVO2 77.6 s). With the rule the formation takes about 19 s. Variants (fanin layouts
// 1..30): any pair, not only one whose one ahead settles, 77.0 s, but counter-flows jam (the
// corridor: 6 of 30 layouts never through, 992 pairs), since the rows behind a flow's blocked front
// stop slowing for it; without the contact exclusion, 78.1 s and the doorway's 269.5 pairs 317.5;
// any pair with the one ahead taking base + k room (k the mean motion's part along off, as
// overlap_cap shares its bound), 79.1 s; only a goal holder (within its radius of its target)
// against a walker, 81.9 s; that lean with pairs heading for one point too, the bottleneck's pairs
// 253 -> 410 (layouts 1..10).
float steerB_recip_lead_share(const steerB_Ctx *c, const Reciprocal *p, const steerB_Neighbor *nb, const float vj[3],
                              float share, const float *ui)
{
    const steer_World *w = c->w;
    if (!(p->max_overlap < 0.0f) || !steerB_recip_deep_step(c, nb->d, AUTO_OVERLAP) || steerB_recip_in_contact(c, nb))
        return share;
    float uj[3], e[3], sum[3];
    bool has_j = steerB_recip_target_delta(w, nb->d, uj);
    if (ui && has_j) {
        v3_add(e, nb->off, uj); // from our target to the neighbour's
        v3_sub(e, e, ui);
        if (v3_len2(e) < ONE_POINT * ONE_POINT) return share;
    }
    v3_add(sum, c->v, vj);
    float k = v3_dot(sum, nb->off), rr = c->radius + w->radius[nb->d];
    if (!(k != 0.0f)) return share; // NaN too
    const float *ahead = k > 0.0f ? (has_j ? uj : NULL) : ui;
    if (!ahead || !(v3_len2(ahead) < SETTLING * SETTLING * rr * rr)) return share;
    float base = p->responsibility, room = base < 1.0f - base ? base : 1.0f - base;
    return k > 0.0f ? base - room : base + room;
}

// Must this agent (still, its target point ui from it) give way to
// neighbour nb (velocity vj), the two in a standoff over one spot (see
// give_way)? Both still, nearer than STANDOFF_REACH (r_i + r_j), their
// targets nearer each other than r_i + r_j (both cannot be on theirs),
// each one's target farther than its radius (neither holds it), toward
// the other and against the other's. The one with the longer way gives
// way (the higher handle on a tie): both compute the pair's figures from
// the same bits (the targets' offset from either side is the other's
// negated, to the bit), so exactly one of them does.
bool steerB_recip_standoff(const steerB_Ctx *c, const steerB_Neighbor *nb, const float vj[3], const float ui[3])
{
    const steer_World *w = c->w;
    float rr = c->radius + w->radius[nb->d], rj = w->radius[nb->d], uj[3];
    if (!(nb->d2 < STANDOFF_REACH * STANDOFF_REACH * rr * rr) || !steerB_still(w, nb->d, vj)) return false;
    if (!steerB_recip_target_delta(w, nb->d, uj)) return false;
    float li2 = v3_len2(ui), lj2 = v3_len2(uj), e[3];
    v3_sub(e, ui, uj);
    v3_sub(e, e, nb->off); // from the neighbour's target to ours
    if (!(v3_len2(e) < rr * rr && li2 > c->radius * c->radius && lj2 > rj * rj)) return false;
    if (!head_on(ui, uj, nb->off)) return false;
    return li2 > lj2 || (li2 == lj2 && steerW_handle(w, c->d).id > steerW_handle(w, nb->d).id);
}

// max_overlap's default: is the pair (this agent and neighbour d) one that
// a single step can carry from apart to deeper than tol r_min, their
// closing reach in one step, (vmax_i + vmax_j) dt, beyond tol r_min? Only
// there can the held velocity of one step press it past the bound. Smaller
// steps leave the pair to the half-spaces, which already keep it shallow
// (the one-step horizon of an overlapping pair undoes it by the next tick):
// two people of the benchmark (radius 0.3, 1.4 m/s) close 0.047 m in a step
// of 1/60 s, against 0.09 m for tol 0.3 (on from about 1/30 s), and every
// run at such steps keeps its bits (demos, benchmark, tests).
bool steerB_recip_deep_step(const steerB_Ctx *c, uint32_t d, float tol)
{
    const steer_World *w = c->w;
    float rj = w->radius[d], rmin = c->radius < rj ? c->radius : rj;
    return (c->max_speed + w->max_speed[d]) * c->dt > tol * rmin;
}

// Is the pair (this agent and nb) in contact: overlapping by more than
// CONTACT r_min, the benchmark's threshold of an overlapping pair (a pair
// already counted)? Decided from the pair's distance, which both of its
// agents see alike. For auto_overlap and the fallback's relaxation
// (reciprocal.c, RELAX_CONTACT).
bool steerB_recip_in_contact(const steerB_Ctx *c, const steerB_Neighbor *nb)
{
    float rj = c->w->radius[nb->d], rmin = c->radius < rj ? c->radius : rj;
    return c->radius + rj - sqrtf(nb->d2) > CONTACT * rmin;
}

// max_overlap's default tolerance for a pair deep_step keeps: AUTO_OVERLAP
// while it is apart or barely touching (AUTO_FACE_OFF in a face-off, see
// overlap_cap), AUTO_CONTACT once it is in contact (in_contact). Where the
// time went with one bound of 0.3 (the benchmark's bottleneck at 0.25 s,
// layout 1: 189.2 s, 141.5 s without the bound): not in the flow (people
// crossed the gap about as often, median one a second) but in 14 stalls of 3
// to 8 s (69.5 s in all; 2 and 8 s without the bound), each an arch across
// the gap's mouth: a person on each jamb's corner, heading for the gap's
// centre, and between them one or two people behind, every pair of them 0.3
// r deep, so that each of them could move only by closing on a neighbour
// already at the bound (and the neighbours' soft half-spaces, each asking
// for the overlap to be undone in one step, left no velocity: in the gap 68%
// of the solves fell back). A pair already in contact may press deeper, so
// the arch gives; one coming into contact still stops at AUTO_OVERLAP, so
// the pairs in contact stay as few. Measured at 0.25 s, medians of 30
// layouts (1..30 / 31..60), time and overlapping pairs, before -> after
// (RVO2 in brackets): bottleneck 187.4 / 180.5 s -> 171.8 / 170.9 s (159.2 /
// 170.2), pairs 310.5 / 291 -> 304 / 293.5 (307.5 / 310.5); corridor 143.3 /
// 153.0 -> 132.8 / 137.2 s (126.5 / 137.2); fanin 85.5 / 82.9 -> 84.7 / 82.6
// s (77.7 / 78.8). Variants (layouts 1..30, bottleneck / corridor / fanin):
// CONTACT 0 (any overlap) 178.2 / 133.3 / 85.5 s and 354 pairs in the
// bottleneck, 0.05 173.6 s and 368.5 pairs, 0.2 176.1 / 139.3 / 84.9 s;
// AUTO_CONTACT 0.4 180.5 / 136.5 / 83.2 s; the bound raised by 0.05 or 0.1 r
// a step from the pair's depth (a ratchet, up to 0.45) 180.0 and 179.8 s;
// AUTO_OVERLAP 0.25 172.2 s, 282.5 pairs, fanin 86.7 s, 0.35 174.5 s, 326.5
// pairs; overlaps undone over two steps instead of one, 188.7 s. Then
// AUTO_OVERLAP 0.2 with AUTO_FACE_OFF 0.3 (a tighter approach bound keeps
// the pairs fewer; face-offs, which must slide past, keep 0.3) and the
// fallback relaxing a pair in contact by RELAX_CONTACT 0.2 instead of 0.1
// (reciprocal.c; so the arch gives): bottleneck 171.8 / 170.9 s -> 163.1 /
// 159.8 s, pairs 304 / 294 -> 257.5 / 264 (layouts 1..30 / 31..60); layouts
// 1..30: corridor 132.8 -> 127.4 s, doorway 168.2 -> 169.8 s (316 -> 269.5
// pairs), hallway4 175.3 -> 172.5 s (1 -> 2 layouts never), fanin 84.7 ->
// 87.0 s (64 -> 32 pairs). Tried (bottleneck, both halves): the contact
// relaxation alone 157.8 / 158.5 s but 316 / 314 pairs (RVO2 307.5 / 310.5);
// every pair relaxed by 0.15 151.4 / 158.8 s, 348.5 pairs; with AUTO_OVERLAP
// 0.25 163.0 / 161.7 s, 294 / 282.5 pairs; RELAX_CONTACT 0.25 166.2 / 173.8
// s.
float steerB_recip_auto_overlap(bool contact, bool face_off)
{
    return contact ? AUTO_CONTACT : face_off ? AUTO_FACE_OFF : AUTO_OVERLAP;
}

// Must this agent (holding its target, see agent_planes) make way for
// neighbour nb (velocity vj), which
// stands still against it wanting through where it stands (touching, within
// LET_THROUGH_REACH (r_i + r_j), its target point farther along the line
// to us than we are, and farther from us than r_i + r_j: not the spot we
// hold, which a crowd sent to one point all want)? If so, side becomes the
// unit direction off that neighbour's way on our side of it (its right
// when we stand on the line); else it is left as it was. See make_way.
void steerB_recip_let_through(const steerB_Ctx *c, const steerB_Neighbor *nb, const float vj[3], float side[3])
{
    const steer_World *w = c->w;
    float rr = c->radius + w->radius[nb->d], uj[3];
    if (!(nb->d2 < LET_THROUGH_REACH * LET_THROUGH_REACH * rr * rr) || !steerB_still(w, nb->d, vj)) return;
    if (!steerB_recip_target_delta(w, nb->d, uj) || !(-v3_dot(uj, nb->off) > nb->d2)) return;
    float past[3]; // from us to the neighbour's target: not at our feet (one goal for both)
    v3_add(past, uj, nb->off);
    if (!(v3_len2(past) > rr * rr)) return;
    v3_scale(side, nb->off, -1.0f); // from the neighbour to us, less its part along the neighbour's way
    v3_madd(side, uj, -v3_dot(side, uj) / v3_len2(uj));
    if (!(v3_normalize(side) > 1e-4f)) steerB_right_of(uj, side);
}

// The weakest weight of a neighbour's soft half-space (see overlap_cap).
#define MIN_WEIGHT 0.1f

// max_overlap against neighbour nb (velocity vj, vrel ours less its),
// tolerance tol (see the file comment): the neighbour's weight in the
// fallback into *weight, and true with the hard cap on closing into *pl
// when this step needs one.
// The cap bounds the pair's relative velocity along a unit n: vrel . n <=
// h, each agent its share of h. Any n with off . n >= R (R the distance of
// an overlap of tol rmin) and h = (off . n - R) / dt keeps the pair at
// least R apart through the step (the velocity obstacle of one step, a
// cone cut off at off / dt, lies beyond that plane). Between agents going
// the same way n is the line between them (n = off / d, h = room / dt).
// For a face-off it leans half the angle acos(R / d) away from that line
// (the half-angle formulas give its cosine and sine; d = R: none), against
// the pair's sideways relative motion (its right of the line when there is
// none, keep_right's side): closing straight on is bound harder, sliding
// past each other (the way out of a face-off) less.
// Both agents of the pair compute the same n up to its sign (d, R, the
// angle and the side are the pair's: vrel and off both change sign), so
// their caps together still bound the pair.
bool steerB_recip_overlap_cap(const steerB_Ctx *c, const steerB_Neighbor *nb, const float vj[3], const float vrel[3],
                              float tol, bool face_off, steerB_Plane *pl, float *weight)
{
    const steer_World *w = c->w;
    float rj = w->radius[nb->d], rmin = c->radius < rj ? c->radius : rj, d = v3_len(nb->off);
    // room: how far the pair may close before it overlaps by tol rmin;
    // reach: how far it can close in one step
    float room = d - (c->radius + rj) + tol * rmin, reach = (c->max_speed + w->max_speed[nb->d]) * c->dt;
    if (room < 0.0f) room = 0.0f;
    *weight = room < reach ? (room / reach > MIN_WEIGHT ? room / reach : MIN_WEIGHT) : 1.0f;
    if (!(d > 0.0f) || !(c->dt > 0.0f) || room >= reach) return false;
    float n[3], h = room / c->dt;
    v3_scale(n, nb->off, 1.0f / d);
    if (face_off) {
        float r = c->radius + rj - tol * rmin, e[3];
        // e: against the sideways part of vrel (against our right when none)
        v3_copy(e, vrel);
        v3_madd(e, n, -v3_dot(vrel, n));
        if (!(v3_normalize(e) > 1e-6f)) steerB_right_of(n, e);
        v3_scale(e, e, -1.0f);
        float c0 = d > r ? r / d : 1.0f, cs = sqrtf(0.5f + 0.5f * c0), sn = sqrtf(0.5f - 0.5f * c0);
        v3_scale(n, n, cs);
        v3_madd(n, e, sn);
        h = (d * cs - r) / c->dt;
        if (h < 0.0f) h = 0.0f;
    }
    // the share of h: k in [-1, 1], how far the pair's mean motion runs
    // from this agent toward the neighbour (the one behind takes more)
    float sum[3];
    v3_add(sum, c->v, vj);
    float speeds = v3_len(c->v) + v3_len(vj);
    float k = speeds > 0.0f ? v3_dot(sum, nb->off) / (d * speeds) : 0.0f;
    k = k > 1.0f ? 1.0f : k < -1.0f ? -1.0f : k;
    float most = (0.5f + 0.5f * k) * h;
    if (most >= c->max_speed) return false;
    v3_scale(pl->n, n, -1.0f);
    v3_scale(pl->p, pl->n, -most);
    return true;
}

// Neighbour nb (index i in c->nb, vrel ours less its) for fall_in, `ahead`
// the unit direction to our target point: opposed if its target lies
// against our way (OPPOSED_WAY) and past us, ours past it (two converging
// on one waypoint from either side are not opposed), it is ahead, closing,
// in our way (its centre within r_i + r_j of our line) and within 8
// (r_i + r_j); a lead if its target lies our way
// (SAME_WAY), it is on our right within 2.5 (r_i + r_j) of our line,
// roughly level (from half r_i + r_j behind us to 1.5 (r_i + r_j) ahead)
// and its target is not ours (farther from it than r_i + r_j: a crowd
// heading for one waypoint funnels into its gap; without this, with the rule
// near any wall, the benchmark's doorway at 1/60 s, layouts 1..7: median 187.5
// s, where crowd_doorway_spec asks for 160).
void steerB_recip_zipper_see(const steerB_Ctx *c, const steerB_Neighbor *nb, int i, const float vrel[3],
                             const float own[3], const float ahead[3], Zipper *z)
{
    const steer_World *w = c->w;
    float rr = c->radius + w->radius[nb->d], uj[3], lat[3], right[3];
    if (!steerB_recip_target_delta(w, nb->d, uj)) return;
    bool beyond = -v3_dot(uj, nb->off) > nb->d2 && v3_dot(own, nb->off) > nb->d2; // each target past the other
    float apart[3];                                                               // from our target to the neighbour's
    v3_add(apart, nb->off, uj);
    v3_sub(apart, apart, own);
    if (v3_normalize(uj) == 0.0f) return;
    float along = v3_dot(nb->off, ahead), way = v3_dot(uj, ahead);
    v3_copy(lat, nb->off);
    v3_madd(lat, ahead, -along);
    float lat2 = v3_len2(lat);
    if (way < OPPOSED_WAY) {
        z->opposed |=
            beyond && along > 0.0f && v3_dot(vrel, nb->off) > 0.0f && lat2 < rr * rr && nb->d2 < 64.0f * rr * rr;
        return;
    }
    steerB_right_of(ahead, right);
    if (!(way >= SAME_WAY && v3_dot(nb->off, right) > 0.0f && lat2 < 6.25f * rr * rr)) return;
    if (!(v3_len2(apart) > rr * rr)) return; // one point for both (a gap's waypoint): a funnel, not two lanes
    if (!(along > -0.5f * rr && along < 1.5f * rr)) return;
    if (z->lead < 0 || nb->d2 < z->lead_d2) {
        z->lead = i;
        z->lead_d2 = nb->d2;
    }
}
