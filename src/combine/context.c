// SPDX-License-Identifier: MIT
// context.c — context steering (Andrew Fray, "Context Steering", Game AI
// Pro 2 ch. 18): instead of summing forces, the children write what they
// want and what they fear into two maps over a ring of `slots` directions,
// and the combiner picks one direction from both. Forces that cancel in a
// sum (a wall behind, a threat ahead) cannot stall it: a blocked direction
// is masked, never subtracted.
//
// Each tick, per agent:
//   1. interest[i] = the largest wish of the `interest` children in
//      direction i, danger[i] = the largest fear of the `danger` children
//      (each times its weight). The ring lies in the xy plane, slot 0 along
//      +x, counter-clockwise; in a 3D world it is horizontal and the
//      children's vertical wishes are not seen.
//   2. smoothing s > 0: map = s * last tick's map + (1 - s) * the new one,
//      per agent (2 * slots floats of memory, kept by snapshots).
//   3. mask: the slots whose danger is at most the lowest danger plus
//      `threshold` are kept; among them, the slot with the highest interest
//      is chosen, leaning toward the current velocity by up to MOMENTUM
//      (0.05 of interest), so that two near-equal ways round an obstacle
//      dead ahead do not alternate tick by tick (ties: the lower slot). A
//      masked slot counts as interest 0 from here on.
//   4. the direction is refined between the chosen slot and its neighbours
//      by the vertex of the parabola through their three interests (at most
//      half a slot either way), so 8 slots still steer toward 22.5 degrees.
//   5. speed = max_speed * the strongest interest in the map (capped at 1)
//      * (1 - the danger in the chosen direction, interpolated); the force
//      tracks that velocity with the engine's law (steerB_track). No
//      interest: brake.
//
// The children's hooks (what each kind writes; any other kind is refused
// when the context is built):
//   interest: seek, arrive, pursue, follow_flow, navigate: the velocity the
//     child asks for (its force read back through the tracking law,
//     v + f max_speed / max_force); wander, reciprocal: the velocity the
//     child's force makes by the next tick (v + f dt / mass; reciprocal
//     runs with max_force lifted for it, so this is the whole
//     collision-free velocity it chose, not one step's share of it). The strength is that
//     velocity's length over max_speed (at most 1: arrive's falls inside
//     its slow radius; wander's is 1), spread over the ring as
//     strength * (1 + cos angle) / 2: every direction keeps some interest,
//     the one nearest the wish the most, so a masked wish still leaves a
//     way round. wander's circle variant: toward its force (which points
//     at its wander target). flee and evade: interest away from the threat, the same
//     way (a fleeing agent must want somewhere to go).
//   danger: flee and evade: a cone of 30 degrees either side of the
//     threat, strength * clamp((cos - cos 30) / (1 - cos 30)) (strength as
//     above; 0 outside the panic radius): never run at the threat, but a
//     cornered agent may pass by it; separation: the direction of the
//     crowd, opposite its push, strength |push| 2 radius (1 at contact),
//     the same cone; avoid_agents: per slot, how far the agent's centre
//     goes along the slot before touching a neighbour (of its tag, if
//     set) grown by both radii and its margin, at their present positions:
//     danger 1 - distance / reach, reach = horizon * max_speed (as far as
//     the agent gets in the horizon) within its range. Only the slots a
//     neighbour spans are visited. avoid_walls (range: its whisker
//     length) and avoid_obstacles (range: lookahead * max_speed): the
//     same against every shape within range, circles and walls grown by the radius in
//     the xy plane, boxes and planes by a thin ray less the radius. A shape
//     or agent the body already overlaps is danger toward it only (the
//     half ring facing it, by cos), so the agent can always back out.
// The avoidance kinds are not run as forces here (their memory, e.g.
// avoid_walls' trap escape, stays idle; they record zero); the wish kinds
// run as usual (navigate still asks for its path), then are read back.
//
// A world that records (steer_world_set_record) keeps, per agent, the maps
// before the mask, the cutoff of the mask and the pick in the node's
// rec_of floats (tree.h's STEERB_MAPS_*), for steer_debug_context and the
// viewer; a world that does not record skips that.
//
// Deterministic and allocation-free: the maps live on the stack (and in
// the agent's memory when smoothing), every sum is a max, the order of the
// neighbour list does not matter.
#include "../behaviors/behavior.h"
#include "../core/geometry.h"

#include <stdio.h>
#include <string.h>

extern const steerB_Kind steerB_seek, steerB_flee, steerB_pursue, steerB_evade, steerB_arrive, steerB_wander,
    steerB_separation, steerB_avoid_obstacles, steerB_avoid_walls, steerB_avoid_agents, steerB_follow_flow,
    steerB_navigate, steerB_reciprocal;

#define MAX_SLOTS 64
#define MOMENTUM 0.05f // see context_eval
#define MAX_REACH 1e4f // metres: the farthest a danger map looks
enum { ROLE_INTEREST = 1, ROLE_DANGER };

typedef struct Context {
    float slots, threshold, smoothing;
} Context;
STEERB_CHECK_SIZE(Context);

typedef struct Ring {
    int n;
    float x[MAX_SLOTS], y[MAX_SLOTS]; // unit directions
} Ring;

static void make_ring(Ring *r, int n)
{
    // rotation by one slot, exact at the quarter turns for n % 4 == 0
    float cs = steerM_cosf(6.2831853f / (float)n), sn = steerM_sinf(6.2831853f / (float)n);
    r->n = n;
    r->x[0] = 1.0f;
    r->y[0] = 0.0f;
    for (int i = 1; i < n; i++) {
        r->x[i] = r->x[i - 1] * cs - r->y[i - 1] * sn;
        r->y[i] = r->x[i - 1] * sn + r->y[i - 1] * cs;
    }
}

static inline float clamp01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

// Unit xy direction of v, false when it has none.
static bool flat_dir(const float v[3], float *dx, float *dy)
{
    float l2 = v[0] * v[0] + v[1] * v[1];
    if (!(l2 > 1e-12f)) return false;
    float k = 1.0f / sqrtf(l2);
    *dx = v[0] * k;
    *dy = v[1] * k;
    return true;
}

// A wish: strength * (1 + cos) / 2 around direction d (wide), or a fear:
// strength * clamp((cos - cos 30) / (1 - cos 30)) (a cone of 30 degrees
// either side of d: run at nothing, but pass by it when cornered).
static void write_lobe(const Ring *r, float *map, float dx, float dy, float strength, bool wide)
{
    for (int i = 0; i < r->n; i++) {
        float cs = r->x[i] * dx + r->y[i] * dy;
        float v = strength * (wide ? 0.5f * (1.0f + cs) : clamp01((cs - 0.8660254f) * 7.4641016f));
        if (v > map[i]) map[i] = v;
    }
}

// The velocity child i asks for, read back from its force.
static void wished_velocity(steerB_Ctx *c, const steerB_Node *k, uint32_t i, float vd[3])
{
    float f[3];
    // reciprocal's force is its chosen velocity change, cut to what
    // max_force gives in one step; with the limit lifted (to what changes
    // the velocity by 4 max_speed in a step) it reads back whole
    float limit = c->max_force, lifted = c->dt > 0.0f ? 4.0f * c->max_speed * c->mass / c->dt : 0.0f;
    bool lift = k->kind == &steerB_reciprocal && lifted > limit && lifted <= FLT_MAX;
    if (lift) c->max_force = lifted;
    steerB_eval(c, i, f);
    c->max_force = limit;
    v3_copy(vd, c->v);
    const steerB_Field *variant = k->kind == &steerB_wander ? steerB_find_field(k->kind, "variant") : NULL;
    if (variant && k->params[variant->offset] == 0) {
        v3_copy(vd, f); // wander's circle: the force points at the wander target
    } else if (k->kind == &steerB_wander || lift) {
        if (c->mass > 0.0f) v3_madd(vd, f, c->dt / c->mass);
    } else if (k->kind != &steerB_reciprocal && c->max_force > 0.0f) {
        v3_madd(vd, f, c->max_speed / c->max_force);
    } else if (c->mass > 0.0f && c->dt > 0.0f) { // reciprocal, not lifted
        v3_madd(vd, f, c->dt / c->mass);
    }
}

static float wish_strength(const steerB_Ctx *c, const steerB_Node *k, const float vd[3])
{
    if (k->kind == &steerB_wander) return 1.0f;
    float s = sqrtf(vd[0] * vd[0] + vd[1] * vd[1]);
    return c->max_speed > 0.0f ? clamp01(s / c->max_speed) : 0.0f;
}

static void interest_hook(steerB_Ctx *c, const Ring *r, uint32_t i, float *map)
{
    const steerB_Node *k = &c->brain->nodes[i];
    float vd[3], dx, dy;
    wished_velocity(c, k, i, vd);
    float s = wish_strength(c, k, vd) * k->weight;
    if (s > 0.0f && flat_dir(vd, &dx, &dy)) write_lobe(r, map, dx, dy, s, true);
}

static float number_field(const steerB_Node *k, const char *name)
{
    const steerB_Field *f = steerB_find_field(k->kind, name);
    return f ? *(const float *)(const void *)(k->params + f->offset) : 0.0f;
}

// The first t >= 0 at which the point t u (u unit) is within R of the
// point o (0 when it already is), or -1: a ray against a grown circle.
static float ray_circle(float ox, float oy, float R, float ux, float uy)
{
    float o2 = ox * ox + oy * oy, R2 = R * R;
    if (o2 <= R2) return 0.0f;
    float along = ox * ux + oy * uy, perp2 = o2 - along * along;
    if (along <= 0.0f || perp2 >= R2) return -1.0f;
    return along - sqrtf(R2 - perp2);
}

static inline float cross2(float ax, float ay, float bx, float by) { return ax * by - ay * bx; }

// The same against a segment a-b grown by R (a capsule; a, b relative to
// the ray's origin).
static float ray_capsule(const float a[2], const float b[2], float R, float ux, float uy)
{
    float ex = b[0] - a[0], ey = b[1] - a[1], l2 = ex * ex + ey * ey;
    float best = -1.0f;
    if (l2 > 0.0f) {
        // inside: the origin within R of the segment
        float s = -(a[0] * ex + a[1] * ey) / l2;
        s = s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
        float cx = a[0] + s * ex, cy = a[1] + s * ey;
        if (cx * cx + cy * cy <= R * R) return 0.0f;
        float l = sqrtf(l2), nx = -ey / l * R, ny = ex / l * R;
        float den = cross2(ux, uy, ex, ey);
        for (int side = -1; den != 0.0f && side <= 1; side += 2) {
            float px = a[0] + (float)side * nx, py = a[1] + (float)side * ny;
            float t = cross2(px, py, ex, ey) / den, lam = cross2(px, py, ux, uy) / den;
            if (t >= 0.0f && lam >= 0.0f && lam <= 1.0f && (best < 0.0f || t < best)) best = t;
        }
    }
    float ta = ray_circle(a[0], a[1], R, ux, uy), tb = ray_circle(b[0], b[1], R, ux, uy);
    if (ta >= 0.0f && (best < 0.0f || ta < best)) best = ta;
    if (tb >= 0.0f && (best < 0.0f || tb < best)) best = tb;
    return best;
}

// Where shape sh is against the agent's body: true when it overlaps it,
// with (tx, ty) the unit xy direction toward the shape's closest point.
static bool overlapping(const steerB_Ctx *c, const steerW_Shape *sh, float *tx, float *ty)
{
    if (steerO_signed_distance(c->w, sh, c->p) >= c->radius) return false;
    float cp[3], nrm[3], off[3];
    steerO_closest(c->w, sh, c->p, cp, nrm);
    v3_sub(off, cp, c->p);
    if (!flat_dir(off, tx, ty)) {
        off[0] = -nrm[0], off[1] = -nrm[1];
        if (!flat_dir(off, tx, ty)) *tx = *ty = 0.0f;
    }
    return true;
}

// How far the agent's centre may go along slot direction u before its body
// touches shape sh (which it does not overlap): circles and walls exactly
// (grown by the radius, in the xy plane), other shapes by a thin ray less
// the radius. -1: never.
static float shape_clearance(const steerB_Ctx *c, const steerW_Shape *sh, float ux, float uy)
{
    float R = c->radius;
    if (sh->kind == STEER_SHAPE_CIRCLE) return ray_circle(sh->a[0] - c->p[0], sh->a[1] - c->p[1], sh->r + R, ux, uy);
    if (sh->kind == STEER_SHAPE_SEGMENT) {
        // a 3D world's wall: only one the body meets at its height
        if (c->w->dim == 3 && (c->p[2] + R < (sh->a[2] < sh->b[2] ? sh->a[2] : sh->b[2]) ||
                               c->p[2] - R > (sh->a[2] > sh->b[2] ? sh->a[2] : sh->b[2]) + sh->r))
            return -1.0f;
        float a[2] = { sh->a[0] - c->p[0], sh->a[1] - c->p[1] }, b[2] = { sh->b[0] - c->p[0], sh->b[1] - c->p[1] };
        return ray_capsule(a, b, R, ux, uy);
    }
    float dir[3] = { ux, uy, 0.0f }, t, nrm[3];
    if (!steerO_ray_shape(c->w, sh, c->p, dir, &t, nrm)) return -1.0f;
    return t > R ? t - R : 0.0f;
}

// Per slot, the clearance to every shape within range; a shape the body
// already overlaps is full danger toward it, none away from it.
static void shapes_danger(steerB_Ctx *c, const Ring *r, float range, float wt, float *map)
{
    const steer_World *w = c->w;
    if (!(range > 0.0f)) return;
    if (range > MAX_REACH) range = MAX_REACH; // lookahead * a huge max_speed: a finite query box
    float lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = c->p[a] - range - c->radius;
        hi[a] = c->p[a] + range + c->radius;
    }
    if (w->dim == 2) lo[2] = hi[2] = 0.0f;
    int ns = steerO_shapes_near(w, c->loc, lo, hi);
    for (int s = 0; s < ns; s++) {
        const steerW_Shape *sh = &w->geo.shapes[c->loc->found[s]];
        float tx, ty;
        bool in = overlapping(c, sh, &tx, &ty);
        for (int i = 0; i < r->n; i++) {
            float v;
            if (in) {
                v = clamp01(r->x[i] * tx + r->y[i] * ty);
            } else {
                float t = shape_clearance(c, sh, r->x[i], r->y[i]);
                if (t < 0.0f || t >= range) continue;
                v = 1.0f - t / range;
            }
            v *= wt;
            if (v > map[i]) map[i] = v;
        }
    }
}

// atan2 to within 0.005 rad (a rational fit per octant): only for
// choosing which slots to visit, never for a value that reaches the world.
static float rough_atan2(float y, float x)
{
    float ax = fabsf(x), ay = fabsf(y), hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
    float z = hi > 0.0f ? lo / hi : 0.0f;
    float a = z * (0.7853982f + 0.273f * (1.0f - z));
    if (ay > ax) a = 1.5707964f - a;
    if (x < 0.0f) a = 3.1415927f - a;
    return y < 0.0f ? -a : a;
}

// The slots round direction (x, y) within `half` radians of it, one more
// on each side (so rough_atan2's error never drops one): [*lo, *hi],
// indices modulo n; the whole ring when that span covers it. The slots
// left out are those whose value would be zero anyway, so the span never
// changes a map, only the work.
static void slot_span(const Ring *r, float x, float y, float half, int *lo, int *hi)
{
    float inv = (float)r->n / 6.2831853f, th = rough_atan2(y, x);
    *lo = (int)floorf((th - half) * inv) - 1;
    *hi = (int)ceilf((th + half) * inv) + 1;
    if (*hi - *lo + 1 >= r->n) *lo = 0, *hi = r->n - 1;
}

// Per slot, a ray against each neighbour (of the tag, if any) within
// reach, grown by both radii and the margin: danger 1 - distance / reach.
// Only the slots the grown circle spans are visited (the others' rays miss
// it); a neighbour on top of the agent counts in every slot.
static void agents_danger(steerB_Ctx *c, const Ring *r, float reach, uint16_t tag, float margin, float wt, float *map)
{
    const steer_World *w = c->w;
    if (!(reach > 0.0f)) return;
    for (int j = 0; j < c->nn; j++) {
        const steerB_Neighbor *nb = &c->nb[j];
        if (tag && w->tag[nb->d] != tag) continue;
        float R = c->radius + w->radius[nb->d] + margin, ox = nb->off[0], oy = nb->off[1];
        if (!(nb->d2 < (reach + R) * (reach + R))) continue;
        float o2 = ox * ox + oy * oy, R2 = R * R, ol = sqrtf(o2);
        bool over = o2 < R2;
        int lo = 0, hi = r->n - 1;
        if (ol > 0.0f) slot_span(r, ox, oy, 1.5707964f * (over ? 1.0f : R / ol), &lo, &hi); // >= asin(R / ol)
        for (int k = lo; k <= hi; k++) {
            int i = k < 0 ? k + r->n : k >= r->n ? k - r->n : k;
            float v;
            if (over) { // overlapping: the half ring facing it
                v = ol > 0.0f ? clamp01((ox * r->x[i] + oy * r->y[i]) / ol) : 1.0f;
            } else {
                float t = ray_circle(ox, oy, R, r->x[i], r->y[i]);
                if (t < 0.0f) continue;
                v = clamp01(1.0f - t / reach);
            }
            v *= wt;
            if (v > map[i]) map[i] = v;
        }
    }
}

static void danger_hook(steerB_Ctx *c, const Ring *r, uint32_t i, float *map)
{
    const steerB_Node *k = &c->brain->nodes[i];
    const steerB_Kind *kind = k->kind;
    float wt = k->weight, dx, dy;
    if (kind == &steerB_flee || kind == &steerB_evade) {
        float vd[3];
        wished_velocity(c, k, i, vd);
        float s = wish_strength(c, k, vd) * wt;
        // the threat lies opposite the way the child flees
        if (s > 0.0f && flat_dir(vd, &dx, &dy)) write_lobe(r, map, -dx, -dy, s, false);
        return;
    }
    if (kind == &steerB_separation) {
        float f[3];
        steerB_eval(c, i, f);
        float s = clamp01(sqrtf(f[0] * f[0] + f[1] * f[1]) * 2.0f * c->radius) * wt;
        if (s > 0.0f && flat_dir(f, &dx, &dy)) write_lobe(r, map, -dx, -dy, s, false);
        return;
    }
    if (c->rec) v3_zero(c->rec + 3 * i); // not run as a force
    if (kind == &steerB_avoid_agents) {
        // as far as the agent goes in the behaviour's horizon, within its range
        float reach = number_field(k, "horizon") * c->max_speed, range = kind->sense(k);
        const steerB_Field *tf = steerB_find_field(kind, "tag");
        uint16_t tag = tf ? *(const uint16_t *)(const void *)(k->params + tf->offset) : 0;
        agents_danger(c, r, reach < range ? reach : range, tag, number_field(k, "margin"), wt, map);
    } else if (kind == &steerB_avoid_walls) shapes_danger(c, r, number_field(k, "length"), wt, map);
    else if (kind == &steerB_avoid_obstacles) shapes_danger(c, r, number_field(k, "lookahead") * c->max_speed, wt, map);
}

// The refined slot position of the peak at k (k + [-0.5, 0.5]).
static float refine(const float *m, int n, int k)
{
    float a = m[(k + n - 1) % n], b = m[k], d = m[(k + 1) % n];
    float den = a - 2.0f * b + d;
    if (!(den < 0.0f)) return 0.0f; // flat: the slot itself
    float x = 0.5f * (a - d) / den;
    return x < -0.5f ? -0.5f : x > 0.5f ? 0.5f : x;
}

static void context_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Context *p = STEERB_PARAMS_OF(n, Context);
    const steerB_Brain *b = c->brain;
    Ring r;
    make_ring(&r, (int)p->slots);
    float interest[MAX_SLOTS] = { 0 }, danger[MAX_SLOTS] = { 0 };
    for (uint16_t j = 0; j < n->nchild; j++) {
        uint32_t i = b->kids[n->first + j];
        if (b->kid_roles[n->first + j] == ROLE_INTEREST) interest_hook(c, &r, i, interest);
        else danger_hook(c, &r, i, danger);
    }
    if (p->smoothing > 0.0f) {
        float *m = c->mem + n->mem, s = p->smoothing;
        for (int i = 0; i < r.n; i++) {
            interest[i] = m[i] = s * m[i] + (1.0f - s) * interest[i];
            danger[i] = m[r.n + i] = s * m[r.n + i] + (1.0f - s) * danger[i];
        }
    }
    float lowest = danger[0], strongest = 0.0f;
    for (int i = 0; i < r.n; i++) {
        if (danger[i] < lowest) lowest = danger[i];
        if (interest[i] > strongest) strongest = interest[i];
    }
    // the pick leans toward the current velocity by up to MOMENTUM, so two
    // near-equal ways round (an obstacle dead ahead) do not alternate
    float vx = 0.0f, vy = 0.0f;
    if (!flat_dir(c->v, &vx, &vy)) vx = vy = 0.0f;
    // a recording world keeps the maps before the mask (STEERB_MAPS_*)
    float *rm = c->rec && n->rec ? c->rec + n->rec : NULL;
    if (rm) {
        rm[STEERB_MAPS_CHOSEN] = -1.0f;
        rm[STEERB_MAPS_ANGLE] = rm[STEERB_MAPS_SPEED] = 0.0f;
        rm[STEERB_MAPS_CUTOFF] = lowest + p->threshold;
        memcpy(rm + STEERB_MAPS_HEAD, interest, sizeof(float) * (size_t)r.n);
        memcpy(rm + STEERB_MAPS_HEAD + r.n, danger, sizeof(float) * (size_t)r.n);
    }
    int best = -1;
    float top = 0.0f;
    for (int i = 0; i < r.n; i++) {
        float score = interest[i] + MOMENTUM * (r.x[i] * vx + r.y[i] * vy);
        if (danger[i] > lowest + p->threshold) interest[i] = 0.0f; // masked
        else if (best < 0 || score > top) best = i, top = score;
    }
    float desired[3] = { 0, 0, 0 };
    if (best >= 0 && strongest > 0.0f && interest[best] > 0.0f) {
        float x = refine(interest, r.n, best);
        float ang = 6.2831853f * ((float)best + x) / (float)r.n;
        int other = x < 0.0f ? (best + r.n - 1) % r.n : (best + 1) % r.n;
        float ax = x < 0.0f ? -x : x;
        float dz = danger[best] + ax * (danger[other] - danger[best]);
        float speed = c->max_speed * (strongest < 1.0f ? strongest : 1.0f) * (1.0f - clamp01(dz));
        desired[0] = steerM_cosf(ang) * speed;
        desired[1] = steerM_sinf(ang) * speed;
        if (rm) {
            rm[STEERB_MAPS_CHOSEN] = (float)best;
            rm[STEERB_MAPS_ANGLE] = ang;
            rm[STEERB_MAPS_SPEED] = speed;
        }
    }
    steerB_track(c, desired, out);
}

static int context_check(const void *params, char *msg, size_t len)
{
    const Context *p = params;
    if (p->slots != floorf(p->slots)) {
        snprintf(msg, len, "field 'slots' expected a whole number of directions, got %g", (double)p->slots);
        return 0;
    }
    return 1;
}

static uint16_t context_mem(const void *params)
{
    const Context *p = params;
    return p->smoothing > 0.0f ? (uint16_t)(2.0f * p->slots) : 0;
}

static uint16_t context_rec(const void *params)
{
    const Context *p = params;
    return (uint16_t)(STEERB_MAPS_HEAD + 2.0f * p->slots);
}

static const char *const interest_kinds[] = { "seek",   "arrive",      "pursue",   "flee",       "evade",
                                              "wander", "follow_flow", "navigate", "reciprocal", NULL };
static const char *const danger_kinds[] = { "flee",        "evade",           "separation", "avoid_agents",
                                            "avoid_walls", "avoid_obstacles", NULL };

// clang-format off
static const steerB_Field context_fields[] = {
    { "interest", STEERB_CHILDREN, 0, 1, 1, 0,
      "kinds that write interest (seek, arrive, pursue, flee, evade, wander, follow_flow, navigate, reciprocal), "
      "each alone or as {behaviour, weight}",
      interest_kinds },
    { "danger", STEERB_CHILDREN, 0, 1, 0, 0,
      "kinds that write danger (flee, evade, separation, avoid_agents, avoid_walls, avoid_obstacles), each alone "
      "or as {behaviour, weight}",
      danger_kinds },
    { "slots", STEERB_NUMBER, offsetof(Context, slots), 16, 4, MAX_SLOTS, "a whole number of directions", NULL },
    { "threshold", STEERB_NUMBER, offsetof(Context, threshold), 0.05f, 0, 1,
      "a number (danger above the lowest that still passes the mask)", NULL },
    { "smoothing", STEERB_NUMBER, offsetof(Context, smoothing), 0, 0, 0.999,
      "a number (the share of last tick's maps kept, 0 = none)", NULL },
    { 0 }
};
// clang-format on

const steerB_Kind steerB_context = { .name = "context",
                                     .fields = context_fields,
                                     .eval = context_eval,
                                     .children = STEERB_NAMED,
                                     .check = context_check,
                                     .mem_of = context_mem,
                                     .explain = STEERB_EXPLAIN_MAPS,
                                     .rec_of = context_rec };
