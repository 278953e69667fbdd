// SPDX-License-Identifier: MIT
// formation_narrow.c — a formation's narrow places (issue 35): the
// look-ahead along its heading, narrowing to its narrow shape and forming
// up again past the narrow place, and the anchor's trail that a narrowed
// column follows round bends. formation.c calls these once a tick and
// when the slots are assigned; the fields are in formation_impl.h.
#include "formation_impl.h"

#include <math.h>
#include <string.h>

#define LANE 0.5f        // metres at most between the look-ahead's rays across the shape
#define CLEAR_TIME 1.0f  // seconds the way must stay wide before a narrowed formation forms up
#define TRAIL_STEP 0.25f // metres between the points of the anchor's trail

// ---- the narrow shape and the trail -------------------------------------------------

// Files: `files` side by side (a column when 1), a spacing apart, centred
// on the anchor's way, the rows a spacing apart behind it (slot k in row
// k / files; the last row, when short, centred too).
static void files_offsets(steerB_Formation *f, uint32_t files)
{
    if (files <= 1) {
        steerU_pattern_offsets(STEERU_COLUMN, (int)f->n, f->spacing, f->nx, f->ny);
        return;
    }
    for (uint32_t k = 0; k < f->n; k++) {
        uint32_t row = k / files, in_row = f->n - row * files < files ? f->n - row * files : files;
        f->nx[k] = -(float)row * f->spacing;
        f->ny[k] = (0.5f * (float)(in_row - 1) - (float)(k % files)) * f->spacing;
    }
}

// The narrow shape's offsets: its pattern's (or its files'); a column's
// or files' slots bent along the anchor's trail (a row k spacings behind
// it along the way it came, straight on past the trail's end, its files
// across the trail there), so that they follow the anchor round a corner
// instead of cutting through it.
void steerB_formation_narrow_offsets(steerB_Formation *f)
{
    bool files = f->narrow == STEERB_FORMATION_FILES;
    if (files) files_offsets(f, f->narrowed);
    else steerU_pattern_offsets((SteerUPattern)f->narrow, (int)f->n, f->spacing, f->nx, f->ny);
    if ((f->narrow != STEERU_COLUMN && !files) || f->ntrail == 0) return;
    float px = f->pos[0], py = f->pos[1], walked = 0.0f; // walked: the arc length to (px, py)
    uint32_t j = f->ntrail;                              // the next trail point back is j - 1
    float dx = -f->head[0], dy = -f->head[1];            // the way back past the trail's end
    for (uint32_t k = 0; k < f->n; k++) {
        float want = -f->nx[k], across = f->ny[k];
        while (j > 0) {
            float qx = f->trail[2 * (j - 1)], qy = f->trail[2 * (j - 1) + 1];
            float l = sqrtf((qx - px) * (qx - px) + (qy - py) * (qy - py));
            if (walked + l >= want) break;
            if (l > 0.0f) dx = (qx - px) / l, dy = (qy - py) / l;
            walked += l, px = qx, py = qy, j--;
        }
        float x = px, y = py, r = want - walked, bx = dx, by = dy; // (bx, by): the way back there
        if (j > 0) {
            float qx = f->trail[2 * (j - 1)], qy = f->trail[2 * (j - 1) + 1];
            float l = sqrtf((qx - px) * (qx - px) + (qy - py) * (qy - py));
            if (l > 0.0f) x += (qx - px) * r / l, y += (qy - py) * r / l, bx = (qx - px) / l, by = (qy - py) / l;
        } else {
            x += dx * r, y += dy * r;
        }
        if (across != 0.0f) x += by * across, y -= bx * across; // left of the way forward (-bx, -by)
        // the point in the anchor's frame
        float ex = x - f->pos[0], ey = y - f->pos[1];
        f->nx[k] = f->head[0] * ex + f->head[1] * ey;
        f->ny[k] = -f->head[1] * ex + f->head[0] * ey;
    }
}

// The anchor's trail: its position, once it is TRAIL_STEP from the last
// point, the points beyond its column's length (and a little) let go;
// while members queue behind the gate it formed up past, the points back
// to the gate and a column's length behind it are kept (the queue's
// places and the ways of members cut off there lie along them).
void steerB_formation_record_trail(steerB_Formation *f)
{
    float reach = (float)f->n * f->spacing;
    for (uint32_t i = 0; i < f->n && !f->narrowed; i++)
        if (f->behind[i]) {
            reach += f->odo - f->last_narrow;
            break;
        }
    uint32_t keep = (uint32_t)(reach / TRAIL_STEP) + 8;
    if (f->ntrail) {
        float ex = f->pos[0] - f->trail[2 * f->ntrail - 2], ey = f->pos[1] - f->trail[2 * f->ntrail - 1];
        if (ex * ex + ey * ey < TRAIL_STEP * TRAIL_STEP) return;
    }
    if (f->ntrail >= keep) {
        uint32_t drop = f->ntrail - keep + 1;
        memmove(f->trail, f->trail + 2 * drop, sizeof *f->trail * 2 * (f->ntrail - drop));
        f->ntrail -= drop;
    }
    if (f->ntrail >= f->captrail) {
        uint32_t cap = f->captrail ? 2 * f->captrail : 64;
        float *t = fm_realloc(f, f->trail, sizeof *t * 2 * cap);
        if (!t) return; // out of memory: the trail stops growing (the column bends less)
        f->trail = t;
        f->captrail = cap;
    }
    f->trail[2 * f->ntrail] = f->pos[0];
    f->trail[2 * f->ntrail + 1] = f->pos[1];
    f->ntrail++;
}

// The narrowed shape's slots k and k + step (of members i and j, in
// slot order: slot_of[k] = i): their holders swap when that shortens the
// sum of their squared distances to them by more than SWAP_GAIN spacings
// squared (one member a spacing or so behind another in a file takes the
// slot behind it, so that none has to pass another in the narrow place).
#ifndef SWAP_GAIN
#define SWAP_GAIN 0.25f
#endif
static float sq(float x, float y) { return x * x + y * y; }

void steerB_formation_keep_order(steer_World *w, steerB_Formation *f)
{
    uint32_t n = f->n, files = f->narrow == STEERB_FORMATION_FILES && f->narrowed > 1 ? f->narrowed : 1;
    if (n < 2) return;
    uint32_t *holder = fm_realloc(f, NULL, sizeof *holder * n);
    float *pt = holder ? fm_realloc(f, NULL, sizeof *pt * 2 * n) : NULL;
    if (!pt) { // out of memory: the slots stay as they are this tick
        fm_realloc(f, holder, 0);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        holder[f->slot[i]] = i;
        int64_t d = steerW_dense(w, f->member[i]); // (the departed left at the tick's start)
        pt[2 * i] = d >= 0 ? w->p[0][d] : 0.0f, pt[2 * i + 1] = d >= 0 ? w->p[1][d] : 0.0f;
    }
    float gain = SWAP_GAIN * f->spacing * f->spacing;
    for (uint32_t step = 1; step <= files; step += files > 1 ? files - 1 : 1)
        for (uint32_t k = 0; k + step < n; k++) {
            uint32_t a = holder[k], b = holder[k + step];
            float sa[3], sb[3];
            steerB_formation_slot_point(f, k, sa);
            steerB_formation_slot_point(f, k + step, sb);
            float ax = pt[2 * a], ay = pt[2 * a + 1], bx = pt[2 * b], by = pt[2 * b + 1];
            float now = sq(ax - sa[0], ay - sa[1]) + sq(bx - sb[0], by - sb[1]);
            float swapped = sq(ax - sb[0], ay - sb[1]) + sq(bx - sa[0], by - sa[1]);
            if (now - swapped <= gain) continue;
            f->slot[a] = k + step, f->slot[b] = k;
            holder[k] = b, holder[k + step] = a;
        }
    fm_realloc(f, pt, 0);
    fm_realloc(f, holder, 0);
}

// ---- narrow places -------------------------------------------------------------------

steerB_FormationExtent steerB_formation_extent(const float *x, const float *y, uint32_t n)
{
    steerB_FormationExtent e = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
    for (uint32_t i = 0; i < n; i++) {
        e.mid += x[i] / (float)n;
        if (y[i] < e.lo) e.lo = y[i];
        if (y[i] > e.hi) e.hi = y[i];
        if (-x[i] > e.back) e.back = -x[i];
        if (x[i] > e.front) e.front = x[i];
    }
    return e;
}

// Whether a wall, obstacle or other shape of the world (or the mesh's
// edge) lies on the lane `y` across the heading from `at`: a ray from the
// anchor's cross line `ahead` forward and `back` backward.
static bool lane_blocked(steer_World *w, const steerB_Formation *f, const float at[2], float y, float back, float ahead)
{
    float hx = f->head[0], hy = f->head[1], fore[3] = { hx, hy, 0.0f }, aft[3] = { -hx, -hy, 0.0f };
    // each lane from the anchor's cross line both ways: a ray from
    // behind a wall the shape's rear is past (the map's edge) sees none
    float o[3] = { at[0] - hy * y, at[1] + hx * y, f->pos[2] }, t, nrm[3];
    uint32_t shape;
    if (w->geo.live && (steerO_ray_shapes(w, &w->loc, o, fore, ahead, &t, nrm, &shape) ||
                        (back > 0.0f && steerO_ray_shapes(w, &w->loc, o, aft, back, &t, nrm, &shape))))
        return true;
    if (f->mesh) { // off the mesh on the cross line: the shape does not fit there
        double from[2] = { o[0], o[1] }, hit[2], hn[2], frac;
        double to[2] = { o[0] + hx * ahead, o[1] + hy * ahead }, from_back[2] = { o[0] - hx * back, o[1] - hy * back };
        if (steerN_mesh_raycast(f->mesh, from, to, NULL, hit, hn, &frac) != 0) return true;
        if (back > 0.0f && steerN_mesh_raycast(f->mesh, from, from_back, NULL, hit, hn, &frac) != 0) return true;
    }
    return false;
}

// The lanes of the band the shape sweeps: LANE apart at most across
// [lo - s/2, hi + s/2]; lane i's y.
static int band_lanes(const steerB_Formation *f, steerB_FormationExtent e, float *a, float *b)
{
    *a = e.lo - 0.5f * f->spacing, *b = e.hi + 0.5f * f->spacing;
    return (int)ceilf((*b - *a) / LANE);
}
static float lane_y(int i, int lanes, float a, float b)
{
    return lanes ? a + (b - a) * (float)i / (float)lanes : 0.5f * (a + b);
}

// Whether a wall, obstacle or other shape of the world lies in the band
// the shape sweeps, from `back` behind the anchor to `ahead` in front.
static bool way_blocked(steer_World *w, const steerB_Formation *f, const float at[2], steerB_FormationExtent e,
                        float back, float ahead)
{
    float a, b;
    int lanes = band_lanes(f, e, &a, &b);
    for (int i = 0; i <= lanes; i++)
        if (lane_blocked(w, f, at, lane_y(i, lanes, a, b), back, ahead)) return true;
    return false;
}

// How many files side by side fit the way: the widest run of clear lanes
// in the band (its width between its outermost clear lanes: no more than
// the free width), less the largest member's diameter, in spacings, plus
// one; at least 1.
static uint8_t files_that_fit(steer_World *w, const steerB_Formation *f, steerB_FormationExtent e, float back,
                              float ahead)
{
    float a, b, r = 0.0f;
    int lanes = band_lanes(f, e, &a, &b), run = 0, best = 0;
    for (int i = 0; i <= lanes; i++) {
        run = lane_blocked(w, f, f->pos, lane_y(i, lanes, a, b), back, ahead) ? 0 : run + 1;
        if (run > best) best = run;
    }
    for (uint32_t i = 0; i < f->n; i++) {
        int64_t d = steerW_dense(w, f->member[i]);
        if (d >= 0 && w->radius[d] > r) r = w->radius[d];
    }
    float width = best > 1 && lanes ? (b - a) * (float)(best - 1) / (float)lanes : 0.0f;
    float files = floorf((width - 2.0f * r) / f->spacing) + 1.0f;
    return files < 1.0f ? 1 : files > 255.0f ? 255 : (uint8_t)files;
}

// Narrow to the narrow shape where the way ahead is narrower than the
// shape (the band it sweeps from its rear to `ahead` past its front holds
// a shape of the world); form up again once the band of the shape from
// the narrow shape's rear has been clear for CLEAR_TIME. The way ahead
// ends at the target.
void steerB_formation_narrow_places(steer_World *w, steerB_Formation *f)
{
    if (f->narrow == STEERB_FORMATION_WIDE || f->n < 2 || !(f->leader.id || f->has_target)) return;
    if ((w->geo.live == 0 && !f->mesh) || steerO_geometry_ready(w) != STEER_OK) {
        f->clear = f->narrowed ? f->clear + 1 : 0;
    } else {
        steerB_FormationExtent e = steerB_formation_extent(f->ox, f->oy, f->n);
        float s = f->spacing, ahead = e.front + (e.hi - e.lo) + 2.0f * s;
        if (f->has_target && !f->leader.id) {
            float to[3];
            steerT_delta(w, f->pos, f->target, to);
            float dist = sqrtf(to[0] * to[0] + to[1] * to[1]) + e.front + s;
            if (dist < ahead) ahead = dist;
        }
        if (!f->narrowed) {
            if (way_blocked(w, f, f->pos, e, e.back, ahead)) {
                f->narrowed = f->narrow == STEERB_FORMATION_FILES ? files_that_fit(w, f, e, e.back, ahead) : 1;
                f->clear = f->regroup = 0;
                f->last_narrow = f->odo;
                f->gate[0] = f->pos[0], f->gate[1] = f->pos[1];
                if (steerB_formation_assign(f, w) != STEER_OK)
                    steerA_error(w, "formation: out of memory reassigning its slots");
            }
            return;
        }
        // narrowed: where the way at the anchor is narrower than its own
        // shape, the narrow place is there (the gate). Its own shape fits
        // past it once the anchor has gone that shape's depth and a spacing
        // further, and the band of its shape there is clear: it forms up
        // there while the tail still comes through (the motion moderator
        // holds the anchor until the members are near their slots)
        if (way_blocked(w, f, f->pos, e, 0.0f, s)) {
            f->last_narrow = f->odo;
            f->gate[0] = f->pos[0], f->gate[1] = f->pos[1];
        }
        bool open = f->odo - f->last_narrow > e.back + s && !way_blocked(w, f, f->pos, e, e.back, ahead);
        f->clear = open ? f->clear + 1 : 0;
    }
    if (f->narrowed && (float)f->clear * w->dt >= CLEAR_TIME) {
        f->narrowed = 0;
        f->regroup = 1;
        if (steerB_formation_assign_past(f, w, f->gate) != STEER_OK)
            steerA_error(w, "formation: out of memory reassigning its slots");
    }
}

// ---- the queue through the gate ---------------------------------------------------

// Place k's point in the queue (1 first): a spacing apart along the
// anchor's trail, the head `queue` metres past the gate (straight on
// along the way through it); behind the gate back along the trail from
// where it crosses the gate's line, straight on past the trail's end.
void steerB_formation_queue_point(const steerB_Formation *f, uint32_t place, float out[3])
{
    float at = f->queue - (float)(place - 1) * f->spacing; // metres past the gate
    out[2] = f->pos[2];
    if (at >= 0.0f || f->ntrail == 0) {
        out[0] = f->gate[0] + f->pass[0] * at, out[1] = f->gate[1] + f->pass[1] * at;
        return;
    }
    uint32_t j = f->ntrail; // the newest trail point behind the gate's line is j - 1
    while (j > 0 &&
           (f->trail[2 * j - 2] - f->gate[0]) * f->pass[0] + (f->trail[2 * j - 1] - f->gate[1]) * f->pass[1] > 0.0f)
        j--;
    float px = f->gate[0], py = f->gate[1], want = -at, dx = -f->pass[0], dy = -f->pass[1];
    for (; j > 0; j--) {
        float qx = f->trail[2 * j - 2], qy = f->trail[2 * j - 1];
        float l = sqrtf((qx - px) * (qx - px) + (qy - py) * (qy - py));
        if (l >= want) {
            out[0] = px + (qx - px) * want / l, out[1] = py + (qy - py) * want / l;
            return;
        }
        if (l > 0.0f) dx = (qx - px) / l, dy = (qy - py) / l;
        want -= l, px = qx, py = qy;
    }
    out[0] = px + dx * want, out[1] = py + dy * want;
}

// The squared distance from the gate to slot k's point.
static float from_gate(const steerB_Formation *f, uint32_t k)
{
    float s[3];
    steerB_formation_slot_point(f, k, s);
    return (s[0] - f->gate[0]) * (s[0] - f->gate[0]) + (s[1] - f->gate[1]) * (s[1] - f->gate[1]);
}

// Members behind the gate once the formation formed up do not go to
// their slots beyond the wall (the crowd would press them against it
// beside the gap, each holding the next): they keep to a queue along
// the anchor's trail, a spacing apart, that moves on through the gate at
// the anchor's top speed (moderated as the anchor is by the lag of those
// in it that see their place, at least CRAWL of it). One that has come
// through (its centre past the gate along the way through it) leaves the
// queue and takes, of the slots the members still behind hold, the
// furthest from the gate. In member order: the same bits on every
// thread count.
void steerB_formation_come_through(steer_World *w, steerB_Formation *f)
{
    float slowest = INFINITY, lag = 0.0f;
    bool queued = false;
    uint32_t first = 0; // the first place still behind
    for (uint32_t i = 0; i < f->n; i++) {
        int64_t d = steerW_dense(w, f->member[i]);
        if (d < 0) continue;
        if (w->max_speed[d] < slowest) slowest = w->max_speed[d];
        if (!f->behind[i]) continue;
        float p[3], q[3];
        steerW_load(w->p, (uint32_t)d, p);
        if ((p[0] - f->gate[0]) * f->pass[0] + (p[1] - f->gate[1]) * f->pass[1] < w->radius[d]) { // not wholly past
            queued = true;
            if (!f->cut[i] && (!first || f->behind[i] < first)) first = f->behind[i];
            steerB_formation_queue_point(f, f->behind[i], q);
            float l = sqrtf((q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]));
            if (!f->cut[i] && l > lag) lag = l;
            continue;
        }
        uint32_t far = i;
        float best = from_gate(f, f->slot[i]);
        for (uint32_t j = 0; j < f->n; j++) {
            if (j == i || !f->behind[j]) continue;
            float dj = from_gate(f, f->slot[j]);
            if (dj > best) best = dj, far = j;
        }
        uint32_t k = f->slot[i];
        f->slot[i] = f->slot[far], f->slot[far] = k;
        f->behind[i] = 0;
    }
    if (!queued || !(slowest < INFINITY)) {
        f->queue_speed = 0.0f;
        return;
    }
    float top = TOP_SHARE * slowest, mod = steerB_formation_moderate(lag, f->spacing);
    float want = top * (mod > CRAWL ? mod : CRAWL);
    f->queue_speed = want < f->queue_speed + top * w->dt ? want : f->queue_speed + top * w->dt;
    f->queue += f->queue_speed * w->dt;
    // the first place still behind waits at the mouth, a spacing past the
    // gate (of the members that see their places: one cut off beside the
    // jamb, its way along the trail, is not waited for)
    float most = (float)first * f->spacing;
    if (first && f->queue > most) f->queue = most, f->queue_speed = 0.0f;
}
