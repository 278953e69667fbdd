// SPDX-License-Identifier: MIT
// path.c — the route family: follow_path (Reynolds' predictive path
// following) and patrol (arrive at each point of a route in turn).
//
// follow_path keeps a cursor per agent: the point of the path closest to
// the agent, found only ahead of the previous cursor and only a short arc
// length ahead of it. The cursor never moves backwards, so where a path
// crosses itself (a figure eight) the agent keeps to the part it is on
// instead of jumping to the other branch. Each tick the agent's position
// `predict` seconds ahead is projected onto the path (again ahead of the
// cursor, within a short window); while that prediction is inside the
// corridor of half-width `radius` and the agent moves forward, no steering
// is needed and only the speed is held; otherwise the agent seeks a point
// `ahead` metres further along the path than the projection. An open path
// ends with linear braking toward its last point, the distance measured
// along the path, and one "arrive" event when the agent gets within
// stop_radius of it (by then barely moving: the default braking distance
// is the shortest the force law follows without overshooting).
//
// patrol walks an index over its points: it arrives at the current point,
// raises "arrive", holds still for `pause` seconds, then takes the next
// point in "loop" order (1..n, 1..n) or "pingpong" order (1..n..1..n).
// With loop = false a loop patrol stops at its last point and a ping-pong
// patrol after one round trip, back at its first point.
//
// Invariants: the per-agent memory holds the whole state (cursor, flags,
// index, timer), so a brain shared by many agents serves each on its own;
// every division is guarded, so repeated points (zero-length segments)
// and a path of one repeated point give finite forces; a tick scans at most
// PATH_SCAN segments per window, whatever the length of the path.
#include "behavior.h"
#include "fields.h"
#include "laws.h"

#include <stdio.h>

#define PATH_SCAN 256 // segments a window may scan in one tick

// ---- the path as a polyline ---------------------------------------------

typedef struct Route {
    const steer_World *w;
    const float *pts;
    uint32_t n;    // points
    uint32_t nseg; // segments: n - 1, or n on a loop (the last joins the first)
    bool loop;
} Route;

static Route route(const steer_World *w, const steerB_Points *pts, bool loop)
{
    Route r = { w, pts->p, pts->n, 0, loop };
    r.nseg = loop ? pts->n : (pts->n > 0 ? pts->n - 1 : 0);
    return r;
}

// Point i relative to `from` (the minimum image on a torus; z = 0 in 2D).
static void rel_point(const Route *r, const float from[3], uint32_t i, float out[3])
{
    const float *q = r->pts + 3 * (size_t)i;
    float p[3] = { q[0], q[1], r->w->dim == 3 ? q[2] : 0.0f };
    if (r->w->wrap) steerT_delta(r->w, from, p, out);
    else v3_sub(out, p, from); // the common case, without the call
}

// Length of segment k (the minimum image of its span on a torus).
static float seg_len(const Route *r, uint32_t k)
{
    const float *q = r->pts + 3 * (size_t)k;
    float start[3] = { q[0], q[1], r->w->dim == 3 ? q[2] : 0.0f }, ab[3];
    rel_point(r, start, k + 1 == r->n ? 0 : k + 1, ab);
    return v3_len(ab);
}

static float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

// The point of a + t (b - a), t in [tmin, 1], closest to q; returns t.
// A zero-length segment is its start point.
static float closest_on(const float a[3], const float b[3], const float q[3], float tmin, float pt[3], float *d2)
{
    float ab[3], aq[3], e[3];
    v3_sub(ab, b, a);
    v3_sub(aq, q, a);
    float l2 = v3_len2(ab);
    float t = l2 > 0.0f ? v3_dot(aq, ab) / l2 : 0.0f;
    if (!(t >= tmin)) t = tmin;
    if (t > 1.0f) t = 1.0f;
    v3_copy(pt, a);
    v3_madd(pt, ab, t);
    v3_sub(e, q, pt);
    *d2 = v3_len2(e);
    return t;
}

// A place on the path: segment, parameter, the point (relative to the
// agent) and its squared distance to whatever was projected.
typedef struct Place {
    uint32_t seg;
    float t, d2;
    float pt[3];
} Place;

// The point closest to q (relative to `from`) on the path from (seg, t)
// on, among the segments that start within `reach` metres of arc, at most
// `max_seg` of them and one lap. Ties go to the earlier point, so a point
// equally near two parts of the path stays on the first.
static Place project(const Route *r, const float from[3], uint32_t seg, float t0, const float q[3], float reach,
                     uint32_t max_seg)
{
    Place best = { seg, t0, INFINITY, { 0, 0, 0 } };
    float arc = 0.0f, a[3], b[3];
    uint32_t k = seg;
    rel_point(r, from, seg, a); // then each segment starts where the last ended
    for (uint32_t i = 0; i < r->nseg && i < max_seg; i++) {
        if (i > 0 && arc > reach) break;
        float pt[3], d2, ab[3];
        rel_point(r, from, k + 1 == r->n ? 0 : k + 1, b);
        float tmin = i == 0 ? t0 : 0.0f;
        float t = closest_on(a, b, q, tmin, pt, &d2);
        if (i == 0 || d2 < best.d2) best = (Place){ k, t, d2, { pt[0], pt[1], pt[2] } };
        v3_sub(ab, b, a);
        arc += v3_len(ab) * (1.0f - tmin);
        v3_copy(a, b);
        if (++k == r->nseg) {
            if (!r->loop) break;
            k = 0;
        }
    }
    return best;
}

// Walk `dist` metres along the path from (seg, t): the point reached
// (relative to `from`), whether an open path's end stopped the walk, and
// the direction of the first segment of non-zero length on the way (the
// path's tangent at the start; zero when none is found).
static bool walk(const Route *r, const float from[3], uint32_t seg, float t, float dist, float pt[3], float dir[3])
{
    v3_zero(dir);
    v3_zero(pt);
    bool placed = false, at_end = false;
    uint32_t k = seg;
    float a[3], b[3], ab[3];
    rel_point(r, from, seg, a);
    for (uint32_t i = 0; i < r->nseg && i < PATH_SCAN; i++) {
        rel_point(r, from, k + 1 == r->n ? 0 : k + 1, b);
        v3_sub(ab, b, a);
        float len = v3_len(ab);
        if (dir[0] == 0.0f && dir[1] == 0.0f && dir[2] == 0.0f) {
            v3_copy(dir, ab);
            v3_normalize(dir); // stays zero for a (near) zero-length segment
        }
        if (!placed) {
            float left = (1.0f - t) * len;
            if (left >= dist && len > 0.0f) {
                v3_copy(pt, a);
                v3_madd(pt, ab, t + dist / len);
                placed = true;
            } else {
                dist -= left;
                v3_copy(pt, b); // the best so far, should the walk stop here
            }
        }
        if (placed && (dir[0] != 0.0f || dir[1] != 0.0f || dir[2] != 0.0f)) break;
        v3_copy(a, b);
        t = 0.0f;
        if (++k == r->nseg) {
            if (!r->loop) {
                at_end = !placed;
                break;
            }
            k = 0;
        }
    }
    return at_end;
}

// Arc length from (seg, t) to the end of an open path, or -1 when it is
// longer than `limit` (or the path loops).
static float arc_to_end(const Route *r, uint32_t seg, float t, float limit)
{
    if (r->loop) return -1.0f;
    float arc = 0.0f;
    for (uint32_t k = seg, i = 0; k < r->nseg; k++, i++) {
        if (i >= PATH_SCAN || arc > limit) return -1.0f;
        arc += seg_len(r, k) * (k == seg ? 1.0f - t : 1.0f);
    }
    return arc > limit ? -1.0f : arc;
}

// The braking distance: slow_radius when given, else (0) the shortest one
// whose linear braking the force law follows without overshooting. The
// law is dv/dt = K (desired - v) with K = max_force / (max_speed * mass);
// a desired speed of k * distance is critically damped for k = K / 4, so
// braking from `cruise` starts 4 cruise / K metres out.
static float braking_distance(const steerB_Ctx *c, float slow_radius, float cruise)
{
    if (slow_radius > 0.0f) return slow_radius;
    float s = 4.0f * cruise * c->max_speed * c->mass;
    float slow = c->max_force > 0.0f && s < 1e30f * c->max_force ? s / c->max_force : 1e30f;
    return slow > 0.0f ? slow : 1e-3f;
}

// ---- follow_path ---------------------------------------------------------

typedef struct FollowPath {
    steerB_Points path;
    float radius, predict, ahead, slow_radius, stop_radius, speed;
    uint8_t loop, join;
} FollowPath;
STEERB_CHECK_SIZE(FollowPath);

enum { FP_SEG, FP_T, FP_ARRIVED, FP_MEM };

static const char *const join_names[] = { "start", "nearest", NULL };

// "start" begins the cursor at the first point (memory is zero); "nearest"
// at the point of the whole path closest to where the agent is when it
// gets the brain (the earliest of equally near ones).
static void follow_init(steerB_Ctx *c, const steerB_Node *n)
{
    const FollowPath *p = STEERB_PARAMS_OF(n, FollowPath);
    float *m = c->mem + n->mem;
    m[FP_SEG] = m[FP_T] = m[FP_ARRIVED] = 0.0f;
    if (p->join != 1 || p->path.n < 2) return;
    Route r = route(c->w, &p->path, p->loop);
    float zero[3] = { 0, 0, 0 };
    Place at = project(&r, c->p, 0, 0.0f, zero, INFINITY, UINT32_MAX);
    m[FP_SEG] = (float)at.seg;
    m[FP_T] = at.t;
}

static void follow_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const FollowPath *p = STEERB_PARAMS_OF(n, FollowPath);
    float *m = c->mem + n->mem;
    Route r = route(c->w, &p->path, p->loop);
    if (r.nseg == 0) {
        v3_zero(out);
        return;
    }
    uint32_t seg = m[FP_SEG] >= 0.0f && m[FP_SEG] < (float)r.nseg ? (uint32_t)m[FP_SEG] : 0;
    float t = clampf(m[FP_T], 0.0f, 1.0f);
    float zero[3] = { 0, 0, 0 };
    float speed = v3_len(c->v);

    // The cursor: the nearest point to the agent ahead of the old cursor.
    // The window is a little more than the agent can move in a tick (the
    // segment under the cursor is always searched to its end), so a branch
    // crossing further along is out of its reach.
    Place cur = project(&r, c->p, seg, t, zero, 2.0f * speed * c->dt + p->radius + 0.5f, PATH_SCAN);
    m[FP_SEG] = (float)cur.seg;
    m[FP_T] = cur.t;
    float d_cur = sqrtf(cur.d2);

    // The prediction and its projection, ahead of the cursor.
    float future[3];
    v3_scale(future, c->v, p->predict);
    Place fut = project(&r, c->p, cur.seg, cur.t, future, 2.0f * speed * p->predict + p->radius + 0.5f, PATH_SCAN);

    // The carrot: `ahead` metres further along the path than the projection.
    float carrot[3], tangent[3];
    bool at_end = walk(&r, c->p, fut.seg, fut.t, p->ahead, carrot, tangent);

    // Braking for an open path's end: the distance left is the arc from the
    // cursor to the end plus the agent's distance from the cursor (never
    // less than the straight distance to the end, so braking is never late).
    float cruise = steerB_cruise(p->speed, c->max_speed), s = cruise;
    float slow = braking_distance(c, p->slow_radius, cruise);
    if (!p->loop) {
        float arc = arc_to_end(&r, cur.seg, cur.t, slow);
        if (arc >= 0.0f) {
            float left = arc + d_cur;
            if (left <= p->stop_radius) {
                if (m[FP_ARRIVED] == 0.0f) steerT_event_to(c->loc, c->w, STEER_EVENT_ARRIVE, c->d, STEER_NO_AGENT);
                m[FP_ARRIVED] = 1.0f;
                steerB_track(c, zero, out);
                return;
            }
            s = steerB_brake(cruise, left, slow, STEERB_SPEED_FIRST);
        }
        if (arc < 0.0f || arc + d_cur > slow) m[FP_ARRIVED] = 0.0f;
    }

    float dir[3];
    if (tangent[0] == 0.0f && tangent[1] == 0.0f && tangent[2] == 0.0f) {
        // no length to follow (a loop of one repeated point): arrive there
        float dist = v3_len(carrot);
        if (dist <= p->stop_radius) {
            steerB_track(c, zero, out);
            return;
        }
        if (dist < slow && dist * cruise < s * slow) s = steerB_brake(cruise, dist, slow, STEERB_SPEED_FIRST);
    }
    bool on_track = !at_end && fut.d2 <= p->radius * p->radius && v3_dot(c->v, tangent) > 0.0f;
    if (on_track) {
        // Reynolds: the prediction is inside the corridor, so no steering;
        // only the speed is held
        v3_copy(dir, c->v);
    } else if (at_end) {
        // the carrot ran off the end: go straight for the last point
        rel_point(&r, c->p, r.n - 1, dir);
    } else {
        v3_copy(dir, carrot);
    }
    if (v3_normalize(dir) == 0.0f) v3_copy(dir, tangent); // on the carrot: go along the path
    float desired[3];
    v3_scale(desired, dir, s);
    steerB_track(c, desired, out);
}

// Shared by follow_path and patrol: enough points, and radii in order.
static int check_route(const char *field, const steerB_Points *pts, float slow_radius, float stop_radius, char *msg,
                       size_t len)
{
    if (pts->n < 2) {
        snprintf(msg, len, "field '%s' expects a list of at least 2 points, got %u", field, (unsigned)pts->n);
        return 0;
    }
    return slow_radius > 0.0f ? steerB_check_radii(slow_radius, stop_radius, msg, len) : 1;
}

static int follow_check(const void *params, char *msg, size_t len)
{
    const FollowPath *p = params;
    return check_route("path", &p->path, p->slow_radius, p->stop_radius, msg, len);
}

static const steerB_Field follow_fields[] = {
    { "path", STEERB_POINTS, offsetof(FollowPath, path), 0, 2, 0, "a list of at least 2 points", NULL },
    { "loop", STEERB_BOOL, offsetof(FollowPath, loop), 0, 0, 0, "a boolean", NULL },
    { "radius", STEERB_NUMBER, offsetof(FollowPath, radius), 1, 0, 1e30, "a number (metres)", NULL },
    { "predict", STEERB_NUMBER, offsetof(FollowPath, predict), 0.5f, 0, 1e30, "a number of seconds", NULL },
    { "ahead", STEERB_NUMBER, offsetof(FollowPath, ahead), 1, 0, 1e30, "a number (metres)", NULL },
    STEERB_AUTO_SLOW_RADIUS_ROW(FollowPath),
    STEERB_STOP_RADIUS_ROW(FollowPath, 0.1f),
    STEERB_SPEED_ROW(FollowPath),
    { "join", STEERB_CHOICE, offsetof(FollowPath, join), 0, 0, 0, "\"start\" or \"nearest\"", join_names },
    { 0 }
};

const steerB_Kind steerB_follow_path = { .name = "follow_path",
                                         .fields = follow_fields,
                                         .eval = follow_eval,
                                         .mem_floats = FP_MEM,
                                         .init = follow_init,
                                         .check = follow_check };

// ---- patrol --------------------------------------------------------------

typedef struct Patrol {
    steerB_Points points;
    float pause, slow_radius, stop_radius, speed;
    uint8_t loop, mode;
} Patrol;
STEERB_CHECK_SIZE(Patrol);

enum { PT_INDEX, PT_DIR, PT_TIMER, PT_STATE, PT_MEM };
enum { PT_GOING = 0, PT_PAUSING = 1, PT_DONE = 2 };
enum { MODE_LOOP = 0, MODE_PINGPONG = 1 };

static const char *const mode_names[] = { "loop", "pingpong", NULL };

static void patrol_init(steerB_Ctx *c, const steerB_Node *n)
{
    float *m = c->mem + n->mem;
    m[PT_INDEX] = 0.0f;
    m[PT_DIR] = 1.0f;
    m[PT_TIMER] = 0.0f;
    m[PT_STATE] = PT_GOING;
}

// Move the index to the next point; false when the patrol is over.
static bool patrol_next(const Patrol *p, float *m)
{
    uint32_t n = p->points.n, i = (uint32_t)m[PT_INDEX];
    if (p->mode == MODE_PINGPONG) {
        if (m[PT_DIR] > 0.0f && i + 1 >= n) m[PT_DIR] = -1.0f;
        else if (m[PT_DIR] < 0.0f && i == 0) {
            if (!p->loop) return false; // one round trip, back at the first point
            m[PT_DIR] = 1.0f;
        }
        i = m[PT_DIR] > 0.0f ? i + 1 : i - 1;
    } else if (++i >= n) {
        if (!p->loop) return false;
        i = 0;
    }
    m[PT_INDEX] = (float)(i < n ? i : n - 1);
    return true;
}

static void patrol_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Patrol *p = STEERB_PARAMS_OF(n, Patrol);
    float *m = c->mem + n->mem;
    float zero[3] = { 0, 0, 0 };
    uint32_t np = p->points.n;
    if (np == 0) {
        v3_zero(out);
        return;
    }
    if (!(m[PT_INDEX] >= 0.0f && m[PT_INDEX] < (float)np)) m[PT_INDEX] = 0.0f;
    Route r = route(c->w, &p->points, p->loop);

    if (m[PT_STATE] == PT_PAUSING) {
        // hold still; the pause ends on the tick where less than half a
        // tick of it is left, so `pause` seconds are held to the tick
        m[PT_TIMER] -= c->dt;
        if (m[PT_TIMER] > 0.5f * c->dt) {
            steerB_track(c, zero, out);
            return;
        }
        m[PT_STATE] = patrol_next(p, m) ? PT_GOING : PT_DONE;
        m[PT_TIMER] = 0.0f;
    }

    float off[3];
    rel_point(&r, c->p, (uint32_t)m[PT_INDEX], off);
    float dist = v3_len(off);
    float cruise = steerB_cruise(p->speed, c->max_speed), slow = braking_distance(c, p->slow_radius, cruise);
    if (m[PT_STATE] == PT_DONE && dist > slow) m[PT_STATE] = PT_GOING; // pushed away: arrive again
    if (dist <= p->stop_radius) {
        if (m[PT_STATE] == PT_GOING) {
            steerT_event_to(c->loc, c->w, STEER_EVENT_ARRIVE, c->d, STEER_NO_AGENT);
            if (p->pause > 0.0f) {
                m[PT_STATE] = PT_PAUSING;
                m[PT_TIMER] = p->pause;
            } else if (!patrol_next(p, m)) {
                m[PT_STATE] = PT_DONE;
            } else {
                // no pause: head for the next point on this very tick
                rel_point(&r, c->p, (uint32_t)m[PT_INDEX], off);
                dist = v3_len(off);
            }
        }
        if (m[PT_STATE] != PT_GOING || dist <= p->stop_radius) {
            steerB_track(c, zero, out);
            return;
        }
    }
    // arrive (linear braking inside the braking distance)
    float s = steerB_brake(cruise, dist, slow, STEERB_SPEED_FIRST);
    float desired[3];
    v3_scale(desired, off, dist > 0.0f ? s / dist : 0.0f);
    steerB_track(c, desired, out);
}

static int patrol_check(const void *params, char *msg, size_t len)
{
    const Patrol *p = params;
    return check_route("points", &p->points, p->slow_radius, p->stop_radius, msg, len);
}

static const steerB_Field patrol_fields[] = {
    { "points", STEERB_POINTS, offsetof(Patrol, points), 0, 2, 0, "a list of at least 2 points", NULL },
    { "loop", STEERB_BOOL, offsetof(Patrol, loop), 1, 0, 0, "a boolean", NULL },
    { "pause", STEERB_NUMBER, offsetof(Patrol, pause), 0, 0, 1e30, "a number of seconds", NULL },
    { "mode", STEERB_CHOICE, offsetof(Patrol, mode), 0, 0, 0, "\"loop\" or \"pingpong\"", mode_names },
    STEERB_AUTO_SLOW_RADIUS_ROW(Patrol),
    STEERB_STOP_RADIUS_ROW(Patrol, 0.2f),
    STEERB_SPEED_ROW(Patrol),
    { 0 }
};

const steerB_Kind steerB_patrol = { .name = "patrol",
                                    .fields = patrol_fields,
                                    .eval = patrol_eval,
                                    .mem_floats = PT_MEM,
                                    .init = patrol_init,
                                    .check = patrol_check };
