// SPDX-License-Identifier: MIT
// formation.c — formations as world objects (issue 35) and formation_slot,
// the behaviour that takes a member to its slot.
//
// A formation (steerB_Formation) is plain data, a resource (core/tree.h)
// that formation_slot nodes hold and the world it is attached to keeps,
// so that a snapshot carries it: its members (agent handles, sorted by
// id) with their slots, the slots' offsets in its frame (x forward, y
// left: src/group/pattern.h), the pattern, spacing and assignment mode
// (src/group/assign.h), and the anchor: position, heading (a unit vector
// in the plane) and velocity. The slots are assigned when members join or
// leave or the shape changes, never per tick.
//
// The anchor moves once a tick, in formation_slot's serve hook (after the
// passes, on the calling thread; in the order the world attached its
// formations): it follows its leader (its velocity and heading, one
// spacing behind its position, so that the front slot clears it),
// or moves to its target at 0.8 of its slowest member's max_speed, slowed
// when members fall behind (the motion moderator: the speed falls linearly
// from full while the member furthest from its slot is within one
// spacing, to none at three spacings; members going their own way, cut
// off or queued behind a gate, hold it to no less than CRAWL), gathering
// speed over a second (over SETOFF_TICKS ticks when it sets off from
// standing in shape and they take longer: a packed shape under reciprocal
// follows no faster at a large step), braking
// within two spacings of the target and turning its heading toward its motion no faster than its
// outermost slot can follow (half the top speed along its arc). Members
// that died or were removed leave it there, first of all.
//
// Narrow places: while it moves (a leader or a target), the anchor looks
// along its heading for the world's shapes (walls, obstacles) in the band
// its shape sweeps, from its rear to its front plus its width and two
// spacings past it (no further than the target): where one is there, the
// way is narrower than the shape and it narrows to its narrow shape (a
// column unless told), the slots assigned again for it; once the band of
// its own shape, from the narrow shape's rear, has been clear for
// CLEAR_TIME, it forms up again. Deterministic: the shape grid's rays.
// That part is formation_narrow.c; the fields both use, formation_impl.h.
//
// formation_slot arrives at the agent's slot (anchor + R(heading) offset)
// with the anchor's velocity added (offset_pursuit's law), so members
// hold the shape while it moves; an agent that is not a member gets 0.
#include "formation_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BRAKE 2.0f    // spacings from the target: the anchor brakes within them
#define ARRIVED 1e-3f // metres: the anchor is on its target

// ---- the object ------------------------------------------------------------------

steerB_Formation *steerB_formation_new(steer_AllocFn alloc, void *alloc_ud)
{
    steerB_Formation *f = alloc ? alloc(alloc_ud, NULL, sizeof *f) : malloc(sizeof *f);
    if (!f) return NULL;
    memset(f, 0, sizeof *f);
    f->refs = 1;
    f->alloc = alloc;
    f->alloc_ud = alloc_ud;
    f->pattern = STEERU_LINE;
    f->narrow = STEERU_COLUMN;
    f->spacing = 2.0f;
    f->head[0] = 1.0f;
    return f;
}

static void fm_retain(void *obj) { ((steerB_Formation *)obj)->refs++; }
static void fm_release(void *obj)
{
    steerB_Formation *f = obj;
    if (!f || --f->refs > 0) return;
    fm_realloc(f, f->member, 0);
    fm_realloc(f, f->slot, 0);
    fm_realloc(f, f->ox, 0);
    fm_realloc(f, f->oy, 0);
    fm_realloc(f, f->nx, 0);
    fm_realloc(f, f->ny, 0);
    fm_realloc(f, f->behind, 0);
    fm_realloc(f, f->cut, 0);
    fm_realloc(f, f->via, 0);
    fm_realloc(f, f->way, 0);
    fm_realloc(f, f->trail, 0);
    if (f->mesh) steerB_navmesh_resource.release(f->mesh);
    steerN_mesh_query_free(f->q);
    fm_realloc(f, f, 0);
}
void steerB_formation_release(steerB_Formation *f) { fm_release(f); }

static bool reserve(steerB_Formation *f, uint32_t n)
{
    if (n <= f->cap) return true;
    uint32_t cap = f->cap ? f->cap : 8;
    while (cap < n) cap *= 2;
    steer_Agent *m = fm_realloc(f, f->member, sizeof *m * cap);
    if (m) f->member = m;
    uint32_t *s = m ? fm_realloc(f, f->slot, sizeof *s * cap) : NULL;
    if (s) f->slot = s;
    float *x = s ? fm_realloc(f, f->ox, sizeof *x * cap) : NULL;
    if (x) f->ox = x;
    float *y = x ? fm_realloc(f, f->oy, sizeof *y * cap) : NULL;
    if (y) f->oy = y;
    float *u = y ? fm_realloc(f, f->nx, sizeof *u * cap) : NULL;
    if (u) f->nx = u;
    float *v = u ? fm_realloc(f, f->ny, sizeof *v * cap) : NULL;
    if (v) f->ny = v;
    uint32_t *b = v ? fm_realloc(f, f->behind, sizeof *b * cap) : NULL;
    if (b) f->behind = b;
    uint8_t *c = b ? fm_realloc(f, f->cut, sizeof *c * cap) : NULL;
    if (c) f->cut = c;
    float *p = c ? fm_realloc(f, f->via, sizeof *p * 2 * cap) : NULL;
    if (!p) return false;
    f->via = p;
    f->cap = cap;
    return true;
}

// Member a's index, or -1.
static int64_t find(const steerB_Formation *f, steer_Agent a)
{
    uint32_t lo = 0, hi = f->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->member[mid].id < a.id) lo = mid + 1;
        else hi = mid;
    }
    return lo < f->n && f->member[lo].id == a.id ? (int64_t)lo : -1;
}

// The offsets the slots are of now: its own shape's, or the narrow one's.
static const float *act_x(const steerB_Formation *f) { return f->narrowed ? f->nx : f->ox; }
static const float *act_y(const steerB_Formation *f) { return f->narrowed ? f->ny : f->oy; }

void steerB_formation_slot_point(const steerB_Formation *f, uint32_t k, float out[3])
{
    float x = act_x(f)[k], y = act_y(f)[k];
    out[0] = f->pos[0] + f->head[0] * x - f->head[1] * y;
    out[1] = f->pos[1] + f->head[1] * x + f->head[0] * y;
    out[2] = f->pos[2];
}

void steerB_formation_goal(const steerB_Formation *f, uint32_t i, float out[3])
{
    if (f->narrowed || !f->behind[i]) {
        steerB_formation_slot_point(f, f->slot[i], out);
        return;
    }
    steerB_formation_queue_point(f, f->behind[i], out);
}

// The anchor at agent d when nothing placed it.
static void place(steerB_Formation *f, const steer_World *w, uint32_t d)
{
    if (f->placed) return;
    steerW_load(w->p, d, f->pos);
    f->placed = 1;
}

// Whether member or slot a comes before b: the nearer (members) or the
// further (slots) from the gate first, then the lower index.
typedef struct GateOrder {
    double dist;
    uint32_t i;
} GateOrder;
static int nearer_first(const void *a, const void *b)
{
    const GateOrder *x = a, *y = b;
    return x->dist < y->dist ? -1 : x->dist > y->dist ? 1 : x->i < y->i ? -1 : x->i > y->i;
}

// The builtin pattern's offsets for the n members; then every member's slot
// (the least total or longest distance from where the members are).
//
// With a gate (forming up past a narrow place while members still come
// through it), the members past the gate (ahead of it along the way from
// the gate to the anchor) take the slots furthest from it, optimally; the
// others take the rest in the order they will come through: the nearest
// to the gate the furthest slot left. So a member that comes through
// goes to a slot no later member has to pass, and none crosses the shape.
int steerB_formation_assign_past(steerB_Formation *f, const steer_World *w, const float gate[2])
{
    if (f->pattern != STEERB_FORMATION_CUSTOM)
        steerU_pattern_offsets((SteerUPattern)f->pattern, (int)f->n, f->spacing, f->ox, f->oy);
    if (f->narrowed) steerB_formation_narrow_offsets(f);
    if (f->n == 0) return STEER_OK;
    memset(f->cut, 0, f->n); // the members are numbered anew: their ways are found again
    uint32_t n = f->n;
    double *buf = fm_realloc(f, NULL, sizeof *buf * 6 * n);
    int *slot_of = buf ? fm_realloc(f, NULL, sizeof *slot_of * n) : NULL;
    GateOrder *order = slot_of ? fm_realloc(f, NULL, sizeof *order * 2 * n) : NULL;
    if (!order) {
        fm_realloc(f, slot_of, 0);
        fm_realloc(f, buf, 0);
        return STEER_ENOMEM;
    }
    double *mx = buf, *my = buf + n, *sx = buf + 2 * n, *sy = buf + 3 * n;
    for (uint32_t i = 0; i < n; i++) {
        float p[3], s[3];
        int64_t d = steerW_dense(w, f->member[i]);
        if (d >= 0) steerW_load(w->p, (uint32_t)d, p);
        else memcpy(p, f->pos, sizeof p);
        steerB_formation_slot_point(f, i, s);
        mx[i] = p[0], my[i] = p[1], sx[i] = s[0], sy[i] = s[1];
    }
    // the way past the gate: from it to the anchor (else the heading)
    double gx = gate ? gate[0] : 0.0, gy = gate ? gate[1] : 0.0, ux = f->head[0], uy = f->head[1];
    double gl = sqrt((f->pos[0] - gx) * (f->pos[0] - gx) + (f->pos[1] - gy) * (f->pos[1] - gy));
    if (gl > 1e-3) ux = (f->pos[0] - gx) / gl, uy = (f->pos[1] - gy) / gl;
    uint32_t past = 0, behind = n; // order[0, past): members past the gate; [behind, n): the others
    for (uint32_t i = 0; i < n; i++) {
        double dx = mx[i] - gx, dy = my[i] - gy;
        GateOrder o = { sqrt(dx * dx + dy * dy), i };
        bool through = !gate || dx * ux + dy * uy >= 0.0;
        if (through) order[past++] = o;
        else order[--behind] = o;
    }
    qsort(order + behind, n - behind, sizeof *order, nearer_first);
    if (gate) { // the queue through the gate: those behind it, the nearest first
        for (uint32_t i = 0; i < n; i++) f->behind[i] = 0;
        for (uint32_t j = behind; j < n; j++) f->behind[order[j].i] = j - behind + 1;
        f->pass[0] = (float)ux, f->pass[1] = (float)uy;
        f->queue = f->queue_speed = 0.0f;
    }
    if (f->narrowed) memset(f->behind, 0, sizeof *f->behind * n); // narrowed: all go to their narrow slots
    GateOrder *slots = order + n;                                 // the slots, the furthest from the gate first
    for (uint32_t k = 0; k < n; k++) {
        double dx = sx[k] - gx, dy = sy[k] - gy;
        slots[k] = (GateOrder){ -sqrt(dx * dx + dy * dy), k };
    }
    if (gate) qsort(slots, n, sizeof *slots, nearer_first);
    // the members past the gate, optimally, onto the `past` furthest slots
    // (packed: member order[j].i at j, over its own, which order[j].i >= j
    // no longer needs; slot slots[j].i at j, apart)
    double *px = buf + 4 * n, *py = buf + 5 * n;
    for (uint32_t j = 0; j < past; j++) {
        mx[j] = mx[order[j].i], my[j] = my[order[j].i];
        px[j] = sx[slots[j].i], py[j] = sy[slots[j].i];
    }
    int st = steerU_assign((int)past, mx, my, (int)past, px, py, (SteerUAssignMode)f->mode, slot_of);
    if (st == 0) {
        for (uint32_t j = 0; j < past; j++) f->slot[order[j].i] = slots[slot_of[j]].i;
        for (uint32_t j = behind; j < n; j++) f->slot[order[j].i] = slots[past + (j - behind)].i;
    }
    fm_realloc(f, order, 0);
    fm_realloc(f, slot_of, 0);
    fm_realloc(f, buf, 0);
    return st == 0 ? STEER_OK : STEER_ENOMEM;
}

int steerB_formation_assign(steerB_Formation *f, const steer_World *w)
{
    return steerB_formation_assign_past(f, w, NULL);
}

// Take the n offsets of a custom shape (n = the members' number).
static void take_offsets(steerB_Formation *f, const float *ox, const float *oy)
{
    if (!ox || f->n == 0) return;
    memcpy(f->ox, ox, sizeof *ox * f->n);
    memcpy(f->oy, oy, sizeof *oy * f->n);
}

int steerB_formation_add(steerB_Formation *f, const steer_World *w, steer_Agent a, const float *ox, const float *oy)
{
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    if (find(f, a) >= 0 || (f->pattern == STEERB_FORMATION_CUSTOM && !ox)) return STEER_EARG;
    if (!reserve(f, f->n + 1)) return STEER_ENOMEM;
    uint32_t i = f->n;
    while (i > 0 && f->member[i - 1].id > a.id) {
        f->member[i] = f->member[i - 1];
        f->slot[i] = f->slot[i - 1];
        f->behind[i] = f->behind[i - 1];
        i--;
    }
    f->member[i] = a;
    f->behind[i] = 0;
    f->slot[i] = f->n; // the new slot, until the assignment (which keeps this when it runs out of memory)
    f->n++;
    place(f, w, (uint32_t)d);
    take_offsets(f, ox, oy);
    return steerB_formation_assign(f, w);
}

// Drop member i and its slot: the others keep theirs, renumbered (a
// custom shape's offsets with them; a pattern's are made again).
static void drop(steerB_Formation *f, uint32_t i, bool keep_slots)
{
    uint32_t k = f->slot[i];
    for (uint32_t j = i + 1; j < f->n; j++)
        f->member[j - 1] = f->member[j], f->slot[j - 1] = f->slot[j], f->behind[j - 1] = f->behind[j];
    f->n--;
    if (f->n) memset(f->cut, 0, f->n); // renumbered: their ways are found again
    for (uint32_t j = 0; j < f->n; j++)
        if (f->slot[j] > k) f->slot[j]--;
    if (keep_slots)
        for (uint32_t j = k + 1; j <= f->n; j++) f->ox[j - 1] = f->ox[j], f->oy[j - 1] = f->oy[j];
}

int steerB_formation_remove(steerB_Formation *f, const steer_World *w, steer_Agent a, const float *ox, const float *oy)
{
    int64_t i = find(f, a);
    if (i < 0) return STEER_EARG;
    drop(f, (uint32_t)i, f->pattern == STEERB_FORMATION_CUSTOM && !ox);
    if (f->pattern == STEERB_FORMATION_CUSTOM && !ox && !f->narrowed) return STEER_OK;
    take_offsets(f, ox, oy);
    return steerB_formation_assign(f, w);
}

int steerB_formation_reshape(steerB_Formation *f, const steer_World *w, int pattern, const float *ox, const float *oy)
{
    f->pattern = (uint8_t)pattern;
    take_offsets(f, ox, oy);
    return w ? steerB_formation_assign(f, w) : STEER_OK;
}

void steerB_formation_set(steerB_Formation *f, float spacing, int mode)
{
    if (spacing > 0.0f) f->spacing = spacing;
    if (mode >= 0) f->mode = (uint8_t)mode;
}

int steerB_formation_set_narrow(steerB_Formation *f, const steer_World *w, int narrow)
{
    f->narrow = (uint8_t)narrow;
    if (!f->narrowed) return STEER_OK;
    f->narrowed = 0;
    f->clear = 0;
    return w ? steerB_formation_assign(f, w) : STEER_OK;
}

void steerB_formation_set_leader(steerB_Formation *f, steer_Agent leader) { f->leader = leader; }

void steerB_formation_set_navmesh(steerB_Formation *f, void *mesh)
{
    if (mesh) steerB_navmesh_resource.retain(mesh);
    if (f->mesh) steerB_navmesh_resource.release(f->mesh);
    f->mesh = mesh;
    f->replan = 1;
    f->nway = f->kway = 0;
}

void *steerB_formation_navmesh(const steerB_Formation *f) { return f->mesh; }

void steerB_formation_set_target(steerB_Formation *f, const float *p)
{
    f->replan = 1;
    f->regroup = 0; // a new target: it goes (its members catch up as they do in the open)
    f->has_target = p != NULL;
    if (p) memcpy(f->target, p, sizeof f->target);
}

void steerB_formation_set_anchor(steerB_Formation *f, const float *pos, const float *heading)
{
    if (pos) {
        memcpy(f->pos, pos, sizeof f->pos);
        f->placed = 1;
        f->ntrail = 0; // moved: the trail is another place's
    }
    if (heading) {
        float l = sqrtf(heading[0] * heading[0] + heading[1] * heading[1]);
        if (l > 0.0f) f->head[0] = heading[0] / l, f->head[1] = heading[1] / l;
    }
    if (f->narrowed)
        steerB_formation_narrow_offsets(f); // a snapshot's formation makes them so from its anchor and trail
}

void steerB_formation_info(const steerB_Formation *f, steerB_FormationInfo *out)
{
    out->pattern = f->pattern;
    out->mode = f->mode;
    out->spacing = f->spacing;
    out->leader = f->leader;
    out->has_target = f->has_target;
    memcpy(out->target, f->target, sizeof out->target);
    memcpy(out->pos, f->pos, sizeof out->pos);
    memcpy(out->vel, f->vel, sizeof out->vel);
    out->head[0] = f->head[0], out->head[1] = f->head[1];
    out->n = f->n;
    out->narrow = f->narrow;
    out->narrowed = f->narrowed;
}

steer_Agent steerB_formation_member(const steerB_Formation *f, uint32_t i)
{
    return i < f->n ? f->member[i] : STEER_NO_AGENT;
}

bool steerB_formation_slot_of(const steerB_Formation *f, steer_Agent a, float out[3])
{
    int64_t i = find(f, a);
    if (i < 0) return false;
    steerB_formation_slot_point(f, f->slot[i], out);
    return true;
}

int steerB_formation_slot_index(const steerB_Formation *f, steer_Agent a)
{
    int64_t i = find(f, a);
    return i < 0 ? -1 : (int)f->slot[i];
}

// ---- the world's formations -------------------------------------------------------

int steerB_world_add_formation(steer_World *w, steerB_Formation *f)
{
    return steerW_attach(w, &steerB_formation_resource, f, NULL);
}

steerB_Formation *steerB_world_formation(const steer_World *w, uint32_t i)
{
    for (uint32_t k = 0; k < w->nattached; k++)
        if (w->attached[k].kind == &steerB_formation_resource && i-- == 0) return w->attached[k].obj;
    return NULL;
}

// ---- the anchor's motion (once a tick) ---------------------------------------------

// Turn the heading toward unit direction (dx, dy) by at most `most` radians.
static void turn_toward(steerB_Formation *f, float dx, float dy, float most)
{
    float cr = f->head[0] * dy - f->head[1] * dx, dt = f->head[0] * dx + f->head[1] * dy;
    float a = steerM_atan2f(cr, dt);
    if (a > most) a = most;
    if (a < -most) a = -most;
    float s, c;
    steerM_sincosf(a, &s, &c);
    float hx = f->head[0] * c - f->head[1] * s, hy = f->head[0] * s + f->head[1] * c;
    float l = sqrtf(hx * hx + hy * hy);
    if (l > 0.0f) f->head[0] = hx / l, f->head[1] = hy / l;
}

static void follow_leader(steerB_Formation *f, const steer_World *w, uint32_t d)
{
    steerW_load(w->p, d, f->pos);
    steerW_load(w->v, d, f->vel);
    float h[3];
    steerW_load(w->h, d, h);
    float l = sqrtf(h[0] * h[0] + h[1] * h[1]);
    if (l > 0.0f) f->head[0] = h[0] / l, f->head[1] = h[1] / l;
    f->pos[0] -= f->head[0] * f->spacing; // one spacing behind: the shape's front clears the leader
    f->pos[1] -= f->head[1] * f->spacing;
    f->placed = 1;
    f->regroup = 0; // the leader sets the pace
}

static void move_to_target(steerB_Formation *f, const steer_World *w)
{
    float slowest = INFINITY, lag = 0.0f, lag_away = 0.0f, reach = 0.0f;
    for (uint32_t i = 0; i < f->n; i++) {
        int64_t d = steerW_dense(w, f->member[i]);
        if (d < 0) continue;
        if (w->max_speed[d] < slowest) slowest = w->max_speed[d];
        float p[3], s[3], e[3];
        steerW_load(w->p, (uint32_t)d, p);
        steerB_formation_slot_point(f, f->slot[i], s);
        steerT_delta(w, p, s, e);
        float l = sqrtf(e[0] * e[0] + e[1] * e[1]);
        float *most = f->cut[i] || (f->behind[i] && !f->narrowed) ? &lag_away : &lag;
        if (l > *most) *most = l;
        uint32_t k = f->slot[i];
        float r = sqrtf(act_x(f)[k] * act_x(f)[k] + act_y(f)[k] * act_y(f)[k]);
        if (r > reach) reach = r;
    }
    // the next point of its way on the mesh, or the target; the distance
    // left to the target along the way (`rest` past that point)
    float to[3], goal[3], rest = 0.0f;
    memcpy(goal, f->target, sizeof goal);
    while (f->kway < f->nway) {
        goal[0] = f->way[2 * f->kway], goal[1] = f->way[2 * f->kway + 1];
        steerT_delta(w, f->pos, goal, to);
        if (sqrtf(to[0] * to[0] + to[1] * to[1]) > ARRIVED) break;
        f->kway++;
        memcpy(goal, f->target, sizeof goal);
    }
    for (uint32_t k = f->kway; k < f->nway; k++) {
        float nx = k + 1 < f->nway ? f->way[2 * k + 2] : f->target[0];
        float ny = k + 1 < f->nway ? f->way[2 * k + 3] : f->target[1];
        rest +=
            sqrtf((nx - f->way[2 * k]) * (nx - f->way[2 * k]) + (ny - f->way[2 * k + 1]) * (ny - f->way[2 * k + 1]));
    }
    steerT_delta(w, f->pos, goal, to);
    float dist = sqrtf(to[0] * to[0] + to[1] * to[1]), left = dist + rest;
    if (f->n == 0 || !(slowest < INFINITY) || left <= ARRIVED) {
        // emptied, or there: the anchor stands (a formation emptied while moving keeps its target)
        if (f->n && left <= ARRIVED) memcpy(f->pos, f->target, sizeof f->pos);
        v3_zero(f->vel);
        return;
    }
    float top = TOP_SHARE * slowest, s = f->spacing;
    float mod = steerB_formation_moderate(lag, s), away = steerB_formation_moderate(lag_away, s);
    if (away < CRAWL) away = CRAWL; // those going their own way do not stop it: they would stand in each other's way
    if (away < mod) mod = away;
    // formed up past a narrow place: it stands until its members are in
    // their slots (a slot that moves off at near a member's top speed
    // takes it seconds to catch), for REGROUP_MOST at most
    // (counted from when the last has come through the gate)
    if (f->regroup) {
        bool in = lag <= REGROUP * s && lag_away <= REGROUP * s, queued = false;
        for (uint32_t i = 0; i < f->n; i++) queued = queued || f->behind[i];
        f->regroup = in || (float)(f->regroup - 1) * w->dt >= REGROUP_MOST ? 0 : queued ? 1 : f->regroup + 1;
        if (f->regroup) mod = 0.0f;
    }
    float want = steerB_brake(top * mod, left, BRAKE * s, STEERB_RATIO_FIRST);
    float have = sqrtf(f->vel[0] * f->vel[0] + f->vel[1] * f->vel[1]);
    // setting off from standing in shape (every member within a quarter
    // spacing of its slot), it gathers speed over SETOFF_TICKS ticks when
    // that is longer than a second: a member packed behind another under
    // reciprocal gains on it, each tick, only what that one's last velocity
    // leaves room for, so at a large step the shape's rear cannot follow a
    // slot that gathers speed in a few ticks (40 in a box at 0.25 s: 2.0 m
    // behind, 4.75 s to catch up)
    if (have == 0.0f && want > 0.0f && !f->narrowed && lag <= REGROUP * s && lag_away <= REGROUP * s) f->setoff = 1;
    float gain = f->setoff && w->dt * SETOFF_TICKS > 1.0f ? top / SETOFF_TICKS : top * w->dt;
    float speed = want < have + gain ? want : have + gain; // gathers speed over a second
    if (speed == want || f->narrowed) f->setoff = 0;
    float step = speed * w->dt;
    if (step > dist) step = dist;
    float dx = to[0] / dist, dy = to[1] / dist;
    float omega = reach > 0.0f ? 0.5f * top / reach : 3.14159265f;
    turn_toward(f, dx, dy, omega * w->dt);
    f->pos[0] += dx * step;
    f->pos[1] += dy * step;
    f->vel[0] = w->dt > 0.0f ? dx * step / w->dt : 0.0f;
    f->vel[1] = w->dt > 0.0f ? dy * step / w->dt : 0.0f;
    f->vel[2] = 0.0f;
}

// Members that left the world leave the formation.
static void drop_departed(steerB_Formation *f, const steer_World *w)
{
    bool gone = false;
    for (uint32_t i = f->n; i-- > 0;)
        if (steerW_dense(w, f->member[i]) < 0) {
            drop(f, i, f->pattern == STEERB_FORMATION_CUSTOM);
            gone = true;
        }
    if (gone && (f->pattern != STEERB_FORMATION_CUSTOM || f->narrowed) && steerB_formation_assign(f, w) != STEER_OK)
        steerA_error((steer_World *)w, "formation: out of memory reassigning its slots");
}

// Find the anchor's way on the mesh to the target, for a disc of half the
// narrow shape's width (a column's: half a spacing), at least its largest
// member's radius: the way a narrowed formation fits through (it narrows
// where the way is narrower than its own shape); when none is that wide,
// for the largest member's radius. No way (the target or the anchor off
// the mesh, or none wide enough): straight to the target.
static void plan(steer_World *w, steerB_Formation *f)
{
    f->replan = 0;
    f->nway = f->kway = 0;
    if (!f->mesh || !f->has_target) return;
    steerN_Alloc libc = { NULL, NULL };
    if (!f->q && !(f->q = steerN_mesh_query_new(&libc))) {
        steerA_error(w, "formation: out of memory finding its way on the navigation mesh");
        return;
    }
    float r = 0.0f;
    for (uint32_t i = 0; i < f->n; i++) {
        int64_t d = steerW_dense(w, f->member[i]);
        if (d >= 0 && w->radius[d] > r) r = w->radius[d];
    }
    steerB_FormationExtent e =
        steerB_formation_extent(f->ox, f->oy, f->n); // a formation that never narrows: its own shape's
    // (narrowing to files: a column's, the narrowest it takes)
    SteerUPattern narrow = f->narrow == STEERB_FORMATION_FILES ? STEERU_COLUMN : (SteerUPattern)f->narrow;
    float half = 0.5f * (f->narrow == STEERB_FORMATION_WIDE ? e.hi - e.lo + f->spacing
                                                            : steerU_pattern_width(narrow, (int)f->n, f->spacing));
    double from[2] = { f->pos[0], f->pos[1] }, to[2] = { f->target[0], f->target[1] };
    steerN_MeshFilter filter = { .radius = half + r, .cost = NULL };
    steerN_PathStatus st = steerN_mesh_path(f->q, f->mesh, from, to, &filter);
    if (st == STEERN_PATH_NARROW) {
        filter.radius = r;
        st = steerN_mesh_path(f->q, f->mesh, from, to, &filter);
    }
    if (st != STEERN_PATH_FOUND) return;
    uint32_t n = 0;
    const double *pts = steerN_mesh_path_points(f->q, &n);
    if (n > f->capway) {
        float *way = fm_realloc(f, f->way, sizeof *way * 2 * n);
        if (!way) {
            steerA_error(w, "formation: out of memory finding its way on the navigation mesh");
            return;
        }
        f->way = way;
        f->capway = n;
    }
    for (uint32_t k = 1; k < n; k++)
        f->way[2 * (k - 1)] = (float)pts[2 * k], f->way[2 * (k - 1) + 1] = (float)pts[2 * k + 1];
    f->nway = n ? n - 1 : 0; // the first point is the anchor
}

static void formation_serve(steer_World *w, void **state, uint32_t *budget)
{
    (void)state;
    (void)budget;
    for (uint32_t k = 0; k < w->nattached; k++) {
        if (w->attached[k].kind != &steerB_formation_resource) continue;
        steerB_Formation *f = w->attached[k].obj;
        drop_departed(f, w);
        int64_t ld = f->leader.id ? steerW_dense(w, f->leader) : -1;
        if (f->leader.id && ld < 0) f->leader = STEER_NO_AGENT; // the leader is gone: the anchor stands
        float was[2] = { f->pos[0], f->pos[1] };
        if (ld >= 0) follow_leader(f, w, (uint32_t)ld);
        else if (f->has_target) {
            if (f->replan) plan(w, f);
            move_to_target(f, w);
        } else v3_zero(f->vel);
        float dx = f->pos[0] - was[0], dy = f->pos[1] - was[1];
        f->odo += sqrtf(dx * dx + dy * dy);
        steerB_formation_record_trail(f);
        steerB_formation_narrow_places(w, f);
        if (f->narrowed) {
            steerB_formation_narrow_offsets(f);
            steerB_formation_keep_order(w, f);
        } else steerB_formation_come_through(w, f);
        steerB_formation_route(w, f);
    }
}

// ---- the resource -----------------------------------------------------------------

// Its bytes: pattern, mode, has_target, placed (u8 each), spacing, the
// leader's id, target, position, velocity, heading, then n and per member
// its id and slot, then the n offsets; then the narrow shape, whether it
// is narrowed (u8 each), the ticks its way has been wide (u32), the
// metres the anchor has gone and where the way was last narrow (f32); then
// whether it has a navigation mesh (u8) and the mesh's bytes (a copy of
// its own: a loaded formation holds its own mesh), replan (u8), the way's
// points and the next one (u32 each) and the points (2 f32 each); then the
// anchor's trail: its points (u32) and the points (2 f32 each); then the
// last narrow place (2 f32) and per member whether it goes its own way
// (u8) and, when it does, the next point of that way (2 f32); then the
// way through the last narrow place (2 f32), the metres its queue has
// gone past it and its speed (f32 each) and per member its place in that
// queue (u32: 0 when through); then the ticks it has stood for its members
// since it formed up (u32: 0 when it does not) and whether it is gathering
// speed as it sets off in shape (u8).
static void fm_encode(const void *obj, steerS_Writer *o)
{
    const steerB_Formation *f = obj;
    steerS_put_u8(o, f->pattern);
    steerS_put_u8(o, f->mode);
    steerS_put_u8(o, f->has_target);
    steerS_put_u8(o, f->placed);
    steerS_put_f32(o, f->spacing);
    steerS_put_u64(o, f->leader.id);
    for (int i = 0; i < 3; i++) steerS_put_f32(o, f->target[i]);
    for (int i = 0; i < 3; i++) steerS_put_f32(o, f->pos[i]);
    for (int i = 0; i < 3; i++) steerS_put_f32(o, f->vel[i]);
    steerS_put_f32(o, f->head[0]);
    steerS_put_f32(o, f->head[1]);
    steerS_put_u32(o, f->n);
    for (uint32_t i = 0; i < f->n; i++) {
        steerS_put_u64(o, f->member[i].id);
        steerS_put_u32(o, f->slot[i]);
    }
    for (uint32_t i = 0; i < f->n; i++) {
        steerS_put_f32(o, f->ox[i]);
        steerS_put_f32(o, f->oy[i]);
    }
    steerS_put_u8(o, f->narrow);
    steerS_put_u8(o, f->narrowed);
    steerS_put_u32(o, f->clear);
    steerS_put_f32(o, f->odo);
    steerS_put_f32(o, f->last_narrow);
    steerS_put_u8(o, f->mesh != NULL);
    if (f->mesh) steerB_navmesh_resource.encode(f->mesh, o);
    steerS_put_u8(o, f->replan);
    steerS_put_u32(o, f->nway);
    steerS_put_u32(o, f->kway);
    for (uint32_t k = 0; k < 2 * f->nway; k++) steerS_put_f32(o, f->way[k]);
    steerS_put_u32(o, f->ntrail);
    for (uint32_t k = 0; k < 2 * f->ntrail; k++) steerS_put_f32(o, f->trail[k]);
    steerS_put_f32(o, f->gate[0]);
    steerS_put_f32(o, f->gate[1]);
    for (uint32_t i = 0; i < f->n; i++) {
        steerS_put_u8(o, f->cut[i]);
        if (f->cut[i]) steerS_put_f32(o, f->via[2 * i]), steerS_put_f32(o, f->via[2 * i + 1]);
    }
    steerS_put_f32(o, f->pass[0]);
    steerS_put_f32(o, f->pass[1]);
    steerS_put_f32(o, f->queue);
    steerS_put_f32(o, f->queue_speed);
    for (uint32_t i = 0; i < f->n; i++) steerS_put_u32(o, f->behind[i]);
    steerS_put_u32(o, f->regroup);
    steerS_put_u8(o, f->setoff);
}

static bool finite_in(float x) { return isfinite(x) && fabsf(x) < 1e15f; }

// n points (2 f32 each, finite) into a new array *out of capacity *cap.
static bool get_points(steerB_Formation *f, steerS_Reader *in, uint32_t n, float **out, uint32_t *cap, const char *what,
                       bool *oom)
{
    if (in->failed || n == 0) return true;
    if (!(*out = fm_realloc(f, NULL, sizeof **out * 2 * n))) {
        *oom = true;
        return false;
    }
    *cap = n;
    for (uint32_t k = 0; k < 2 * n; k++) {
        (*out)[k] = steerS_get_f32(in);
        if (!in->failed && !finite_in((*out)[k])) return steerS_fail(in, "%s's point %u is not finite", what, k / 2);
    }
    return true;
}

static void *fm_decode(steerS_Reader *in, steer_AllocFn alloc, void *alloc_ud, bool *oom)
{
    (void)alloc;
    (void)alloc_ud;
    steerB_Formation *f = steerB_formation_new(NULL, NULL); // as the script's: libc
    if (!f) {
        *oom = true;
        return NULL;
    }
    f->pattern = (uint8_t)steerS_get_u8(in);
    f->mode = (uint8_t)steerS_get_u8(in);
    f->has_target = (uint8_t)steerS_get_u8(in);
    f->placed = (uint8_t)steerS_get_u8(in);
    f->spacing = steerS_get_f32(in);
    f->leader.id = steerS_get_u64(in);
    for (int i = 0; i < 3; i++) f->target[i] = steerS_get_f32(in);
    for (int i = 0; i < 3; i++) f->pos[i] = steerS_get_f32(in);
    for (int i = 0; i < 3; i++) f->vel[i] = steerS_get_f32(in);
    f->head[0] = steerS_get_f32(in);
    f->head[1] = steerS_get_f32(in);
    uint32_t n = steerS_get_u32(in);
    bool ok = !in->failed;
    if (ok && (f->pattern >= STEERU_PATTERN_COUNT && f->pattern != STEERB_FORMATION_CUSTOM))
        ok = steerS_fail(in, "pattern %u is none", (unsigned)f->pattern);
    if (ok && f->mode > STEERU_ASSIGN_MAX) ok = steerS_fail(in, "assignment mode %u is none", (unsigned)f->mode);
    if (ok && !(f->spacing > 0.0f && isfinite(f->spacing)))
        ok = steerS_fail(in, "spacing %g; expected a number > 0", (double)f->spacing);
    if (ok && n > steerS_left(in) / 20) ok = steerS_fail(in, "%u members in %zu bytes", n, steerS_left(in));
    if (ok && !reserve(f, n)) {
        *oom = true;
        ok = false;
    }
    for (uint32_t i = 0; ok && i < n; i++) {
        f->member[i].id = steerS_get_u64(in);
        f->slot[i] = steerS_get_u32(in);
        if (!in->failed && (f->slot[i] >= n || (i > 0 && f->member[i].id <= f->member[i - 1].id)))
            ok = steerS_fail(in, "member %u: slot %u of %u, or out of order", i, f->slot[i], n);
    }
    for (uint32_t i = 0; ok && i < n; i++) {
        f->ox[i] = steerS_get_f32(in);
        f->oy[i] = steerS_get_f32(in);
        if (!in->failed && !(finite_in(f->ox[i]) && finite_in(f->oy[i])))
            ok = steerS_fail(in, "slot %u's offset is not finite", i);
    }
    f->narrow = (uint8_t)steerS_get_u8(in);
    f->narrowed = (uint8_t)steerS_get_u8(in);
    f->clear = steerS_get_u32(in);
    f->odo = steerS_get_f32(in);
    f->last_narrow = steerS_get_f32(in);
    if (ok && !in->failed && !(finite_in(f->odo) && finite_in(f->last_narrow)))
        ok = steerS_fail(in, "the anchor's odometer is not finite");
    if (ok && !in->failed && f->narrow >= STEERU_PATTERN_COUNT && f->narrow != STEERB_FORMATION_WIDE &&
        f->narrow != STEERB_FORMATION_FILES)
        ok = steerS_fail(in, "narrow shape %u is none", (unsigned)f->narrow);
    if (ok && !in->failed &&
        ((f->narrowed > 1 && f->narrow != STEERB_FORMATION_FILES) ||
         (f->narrowed && f->narrow == STEERB_FORMATION_WIDE)))
        ok = steerS_fail(in, "narrowed %u with narrow shape %u", (unsigned)f->narrowed, (unsigned)f->narrow);
    if (ok && steerS_get_u8(in) && !in->failed) {
        f->mesh = steerB_navmesh_resource.decode(in, NULL, NULL, oom);
        ok = f->mesh != NULL;
    }
    f->replan = (uint8_t)steerS_get_u8(in);
    uint32_t nway = steerS_get_u32(in), kway = steerS_get_u32(in);
    if (ok && !in->failed && (nway > steerS_left(in) / 8 || kway > nway || (nway && !f->mesh)))
        ok = steerS_fail(in, "a way of %u points (the next %u)", nway, kway);
    ok = ok && get_points(f, in, nway, &f->way, &f->capway, "the way", oom);
    if (ok) f->nway = nway, f->kway = kway;
    uint32_t ntrail = steerS_get_u32(in);
    if (ok && !in->failed && ntrail > steerS_left(in) / 8) ok = steerS_fail(in, "a trail of %u points", ntrail);
    ok = ok && get_points(f, in, ntrail, &f->trail, &f->captrail, "the trail", oom);
    if (ok) f->ntrail = ntrail;
    f->gate[0] = steerS_get_f32(in);
    f->gate[1] = steerS_get_f32(in);
    if (ok && !in->failed && !(finite_in(f->gate[0]) && finite_in(f->gate[1])))
        ok = steerS_fail(in, "the last narrow place is not finite");
    for (uint32_t i = 0; ok && !in->failed && i < n; i++) {
        f->cut[i] = (uint8_t)steerS_get_u8(in);
        if (!in->failed && f->cut[i] > 1) ok = steerS_fail(in, "member %u's way: %u", i, (unsigned)f->cut[i]);
        if (!ok || !f->cut[i]) continue;
        f->via[2 * i] = steerS_get_f32(in);
        f->via[2 * i + 1] = steerS_get_f32(in);
        if (!in->failed && !(finite_in(f->via[2 * i]) && finite_in(f->via[2 * i + 1])))
            ok = steerS_fail(in, "member %u's way is not finite", i);
    }
    f->pass[0] = steerS_get_f32(in);
    f->pass[1] = steerS_get_f32(in);
    if (ok && !in->failed && !(finite_in(f->pass[0]) && finite_in(f->pass[1])))
        ok = steerS_fail(in, "the way through the last narrow place is not finite");
    f->queue = steerS_get_f32(in);
    f->queue_speed = steerS_get_f32(in);
    if (ok && !in->failed && !(finite_in(f->queue) && finite_in(f->queue_speed)))
        ok = steerS_fail(in, "the queue through the last narrow place is not finite");
    for (uint32_t i = 0; ok && !in->failed && i < n; i++) {
        f->behind[i] = steerS_get_u32(in);
        if (!in->failed && f->behind[i] > n)
            ok = steerS_fail(in, "member %u's place %u in the queue of %u", i, f->behind[i], n);
    }
    f->regroup = steerS_get_u32(in);
    f->setoff = steerS_get_u8(in);
    if (ok && !in->failed && f->setoff > 1) ok = steerS_fail(in, "its setting off is %u, not 0 or 1", f->setoff);
    // no NaN into the world: every number finite, the heading a direction
    float hl = f->head[0] * f->head[0] + f->head[1] * f->head[1];
    for (int i = 0; ok && i < 3; i++)
        if (!finite_in(f->target[i]) || !finite_in(f->pos[i]) || !finite_in(f->vel[i]))
            ok = steerS_fail(in, "the anchor or target is not finite");
    if (ok && !(hl > 0.5f && hl < 2.0f))
        ok = steerS_fail(in, "the heading (%g, %g) is no direction", (double)f->head[0], (double)f->head[1]);
    if (ok) f->n = n;
    if (ok && f->narrowed)
        steerB_formation_narrow_offsets(f); // as the last tick left them: from the pattern, the anchor and its trail
    if (!ok || in->failed) {
        fm_release(f);
        return NULL;
    }
    return f;
}

static size_t fm_bytes(const void *obj)
{
    const steerB_Formation *f = obj;
    return sizeof *f +
           (size_t)f->cap *
               (sizeof *f->member + sizeof *f->slot + 6 * sizeof *f->ox + sizeof *f->cut + sizeof *f->behind) +
           (size_t)(f->capway + f->captrail) * 2 * sizeof *f->way;
}

const steerB_ResourceKind steerB_formation_resource = { .name = "formation",
                                                        .type = "steer.Formation",
                                                        .retain = fm_retain,
                                                        .release = fm_release,
                                                        .encode = fm_encode,
                                                        .decode = fm_decode,
                                                        .bytes = fm_bytes };

// ---- formation_slot -----------------------------------------------------------------

typedef struct FormationSlot {
    steerB_Formation *formation;
    float slow_radius;
} FormationSlot;
STEERB_CHECK_SIZE(FormationSlot);

// Whether world w keeps formation f: a formation's handles name agents of
// its own world only (another world's agent may have the same handle).
static bool attached_to(const steer_World *w, const steerB_Formation *f)
{
    for (uint32_t k = 0; k < w->nattached; k++)
        if (w->attached[k].obj == f && w->attached[k].kind == &steerB_formation_resource) return true;
    return false;
}

static void formation_slot_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const FormationSlot *p = STEERB_PARAMS_OF(n, FormationSlot);
    const steerB_Formation *f = p->formation;
    float slot[3], off[3];
    int64_t i = f && attached_to(c->w, f) ? find(f, steerW_handle(c->w, c->d)) : -1;
    if (i < 0) {
        v3_zero(out);
        return;
    }
    if (f->cut[i]) { // no sight of its slot: at full speed along its own way there
        float via[3] = { f->via[2 * i], f->via[2 * i + 1], c->p[2] }, still[3] = { 0.0f, 0.0f, 0.0f };
        steerT_delta(c->w, c->p, via, off);
        off[2] = 0.0f;
        steerB_arrive_moving(c, off, still, 0.0f, 0.0f, out);
        return;
    }
    bool queued = !f->narrowed && f->behind[i]; // in the queue through the gate: its place moves with it
    float queue_vel[3] = { f->pass[0] * f->queue_speed, f->pass[1] * f->queue_speed, 0.0f };
    steerB_formation_goal(f, (uint32_t)i, slot);
    steerT_delta(c->w, c->p, slot, off);
    if (c->w->dim == 2) off[2] = 0.0f;
    steerB_arrive_moving(c, off, queued ? queue_vel : f->vel, p->slow_radius, 0.0f, out);
}

static const steerB_Field formation_slot_fields[] = {
    { "formation", STEERB_RESOURCE, offsetof(FormationSlot, formation), 0, 1, 0, "a formation (steer.formation)",
      STEERB_RESOURCE_KIND(&steerB_formation_resource) },
    STEERB_SLOW_RADIUS_ROW(FormationSlot, 1.5f),
    { 0 }
};

const steerB_Kind steerB_formation_slot = {
    .name = "formation_slot", .fields = formation_slot_fields, .eval = formation_slot_eval, .serve = formation_serve
};

// Agent a's slot in the first of the world's formations that has it.
static bool world_slot(const steer_World *w, steer_Agent a, float out[3])
{
    for (uint32_t k = 0; k < w->nattached; k++)
        if (w->attached[k].kind == &steerB_formation_resource && steerB_formation_slot_of(w->attached[k].obj, a, out))
            return true;
    return false;
}

// a:slot(): the slot of agent a's first formation_slot node's formation,
// else of the first of the world's formations that has it.
bool steerB_agent_slot(const steer_World *w, steer_Agent a, float out[3])
{
    int64_t d = steerW_dense(w, a);
    if (d < 0) return false;
    if (!w->brain[d]) return world_slot(w, a, out);
    const steerB_Brain *br = w->brains[w->brain[d]];
    for (uint32_t j = 0; j < br->nnodes; j++) {
        const steerB_Node *node = &br->nodes[j];
        if (node->kind != &steerB_formation_slot) continue;
        const FormationSlot *p = STEERB_PARAMS_OF(node, FormationSlot);
        if (p->formation && attached_to(w, p->formation) && steerB_formation_slot_of(p->formation, a, out)) return true;
    }
    return world_slot(w, a, out);
}
