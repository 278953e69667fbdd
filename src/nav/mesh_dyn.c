// SPDX-License-Identifier: MIT
// mesh_dyn.c — obstacles that come and go on a navigation mesh: adding,
// moving and removing them, the changes' records the agents check, the
// state's memory and bytes (the design: mesh_dyn.h; the live mesh rebuilt
// in place, slot by slot: mesh_rebuild.c).
#include "mesh_rebuild.h"
#include "mesh_link.h"
#include "mesh_snap.h"

#include "../core/bytes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN STEERN_DYN_MARGIN
#define EPOCH_MASK STEERN_DYN_EPOCH_MASK
// Of the bytes of a mesh with obstacles (mesh_io.c's: 1 flat, 2 with floors,
// 3 with links, 5 with heights): 7, and 8 with its obstacles' layers (a
// base of several layers). 4 and 6, the same bytes before the live mesh
// kept the base's triangle numbers (mesh_rebuild.c), still read: their
// live hash, of the old numbering, is not checked.
#define VERSION 7
#define VERSION_LAYERS 8
#define VERSION_OLD 4
#define VERSION_OLD_LAYERS 6

typedef steerN_Record Record;

static const steerN_Alloc *al(const steerN_Mesh *m) { return &m->alloc; }

// ---- the obstacles -------------------------------------------------------------------

// m's obstacle state, made on the first obstacle (the base: a prepared copy of the mesh).
static steerN_MeshDyn *dyn_of(steerN_Mesh *m)
{
    if (m->dyn) return m->dyn;
    steerN_MeshDyn *d = steerN_realloc(al(m), NULL, 0, sizeof *d);
    if (!d) return NULL;
    memset(d, 0, sizeof *d);
    d->next_id = 1;
    if (!(d->base = steerN_mesh_clone(m)) || steerN_mesh_prepare(d->base)) {
        steerN_mesh_free(d->base);
        steerN_realloc(al(m), d, sizeof *d, 0);
        return NULL;
    }
    steerN_mesh_set_metres(d->base);
    d->base->hash = steerN_mesh_hash(d->base);
    m->dyn = d;
    if (steerN_dyn_init(m, d)) {
        steerN_mesh_dyn_free(m);
        return NULL;
    }
    m->grid_tris = d->base->ntri;
    return d;
}

static int32_t find(const steerN_MeshDyn *d, uint32_t id)
{
    uint32_t lo = 0, hi = d ? d->nobs : 0;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (d->obs[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return d && lo < d->nobs && d->obs[lo].id == id ? (int32_t)lo : -1;
}

const steerN_Obstacle *steerN_obstacle_get(const steerN_Mesh *m, uint32_t id)
{
    int32_t k = find(m->dyn, id);
    return k < 0 ? NULL : &m->dyn->obs[k];
}

uint32_t steerN_mesh_obstacle_count(const steerN_Mesh *m) { return m->dyn ? m->dyn->nobs : 0; }

const steerN_Obstacle *steerN_mesh_obstacle_at(const steerN_Mesh *m, uint32_t i)
{
    return m->dyn && i < m->dyn->nobs ? &m->dyn->obs[i] : NULL;
}

// Note a change of the boxes box and (NULL: none) also.
static void record(steerN_MeshDyn *d, const int64_t box[4], const int64_t *also)
{
    d->epoch = (d->epoch + 1) & EPOCH_MASK;
    if (d->epoch == 0) d->epoch = 1; // 0: "before any change" (navigate.c)
    Record *r = &d->rec[d->epoch % STEERN_MESH_RECORDS];
    r->epoch = d->epoch;
    for (int j = 0; j < 4; j++) {
        int64_t v = box[j];
        if (also) v = j < 2 ? (also[j] < v ? also[j] : v) : (also[j] > v ? also[j] : v);
        // outward, so the float box holds the footprint
        r->box[j] = (float)((double)(j < 2 ? v - MARGIN : v + MARGIN) / STEERN_MESH_SCALE);
    }
}

steerN_ObstacleStatus steerN_obstacle_add(steerN_Mesh *m, const double *xy, uint32_t n, int32_t area,
                                          const steerN_Floor *f, uint32_t *id)
{
    int64_t box[4];
    if (f && f->layer > m->nlayers) return STEERN_OBST_BADLAYER;
    if (n < 3) return STEERN_OBST_BADSHAPE;
    if (n > STEERN_OBSTACLE_POINTS) return STEERN_OBST_LIMIT;
    if (!steerN_obstacle_box(xy, n, box)) return STEERN_OBST_BADPOINT;
    if (!steerN_obstacle_encloses(xy, n)) return STEERN_OBST_BADSHAPE;
    if (area != STEERN_OBST_BLOCKED && (area < 1 || (uint32_t)area >= m->nareas)) return STEERN_OBST_BADAREA;
    if (m->dyn && (m->dyn->nobs >= STEERN_OBSTACLES || m->dyn->next_id == UINT32_MAX)) return STEERN_OBST_LIMIT;
    steerN_MeshDyn *d = dyn_of(m);
    if (!d) return STEERN_OBST_NOMEM;
    // its layer: the one named, else the ground's under its box's centre
    uint32_t layer = f && f->layer ? f->layer - 1 : 0;
    if (d->base->layer && !(f && f->layer)) {
        double c[2] = { ((double)box[0] + (double)box[2]) * 0.5 / STEERN_MESH_SCALE,
                        ((double)box[1] + (double)box[3]) * 0.5 / STEERN_MESH_SCALE },
               z;
        if (!steerN_mesh_height(d->base, c, f, &z, &layer)) layer = 0;
    }
    size_t cap = d->cap_obs;
    if (steerN_grow(al(m), (void **)&d->obs, &cap, d->nobs + 1, sizeof *d->obs)) return STEERN_OBST_NOMEM;
    d->cap_obs = (uint32_t)cap;
    double *p = steerN_realloc(al(m), NULL, 0, sizeof *p * 2 * n);
    if (!p) return STEERN_OBST_NOMEM;
    memcpy(p, xy, sizeof *p * 2 * n);
    steerN_Obstacle *o = &d->obs[d->nobs++];
    *o = (steerN_Obstacle){ .id = d->next_id, .area = area, .npt = n, .xy = p, .layer = layer };
    memcpy(o->box, box, sizeof box);
    steerN_ObstacleStatus st = steerN_dyn_rebuild(m);
    if (st) { // as it was
        d->nobs--;
        steerN_realloc(al(m), p, sizeof *p * 2 * n, 0);
        return st;
    }
    *id = d->next_id++;
    record(d, box, NULL);
    return STEERN_OBST_OK;
}

steerN_ObstacleStatus steerN_obstacle_move(steerN_Mesh *m, uint32_t id, double dx, double dy)
{
    int32_t k = find(m->dyn, id);
    if (k < 0) return STEERN_OBST_GONE;
    steerN_MeshDyn *d = m->dyn;
    steerN_Obstacle *o = &d->obs[k];
    if (!isfinite(dx) || !isfinite(dy)) return STEERN_OBST_BADPOINT;
    double *p = steerN_realloc(al(m), NULL, 0, sizeof *p * 2 * o->npt);
    if (!p) return STEERN_OBST_NOMEM;
    for (uint32_t i = 0; i < o->npt; i++) p[2 * i] = o->xy[2 * i] + dx, p[2 * i + 1] = o->xy[2 * i + 1] + dy;
    int64_t box[4], old[4];
    if (!steerN_obstacle_box(p, o->npt, box)) {
        steerN_realloc(al(m), p, sizeof *p * 2 * o->npt, 0);
        return STEERN_OBST_BADPOINT;
    }
    double *was = o->xy;
    memcpy(old, o->box, sizeof old);
    o->xy = p;
    memcpy(o->box, box, sizeof box);
    o->rev++;
    steerN_ObstacleStatus st = steerN_dyn_rebuild(m);
    double *drop = st ? p : was;
    if (st) {
        o->xy = was;
        memcpy(o->box, old, sizeof old);
        o->rev--;
    }
    steerN_realloc(al(m), drop, sizeof *drop * 2 * o->npt, 0);
    if (!st) record(d, box, old);
    return st;
}

steerN_ObstacleStatus steerN_obstacle_remove(steerN_Mesh *m, uint32_t id)
{
    int32_t k = find(m->dyn, id);
    if (k < 0) return STEERN_OBST_GONE;
    steerN_MeshDyn *d = m->dyn;
    steerN_Obstacle o = d->obs[k];
    memmove(&d->obs[k], &d->obs[k + 1], sizeof *d->obs * (d->nobs - (uint32_t)k - 1));
    d->nobs--;
    steerN_ObstacleStatus st = steerN_dyn_rebuild(m);
    if (st) {
        memmove(&d->obs[k + 1], &d->obs[k], sizeof *d->obs * (d->nobs - (uint32_t)k));
        d->obs[k] = o;
        d->nobs++;
        return st;
    }
    record(d, o.box, NULL);
    steerN_realloc(al(m), o.xy, sizeof *o.xy * 2 * o.npt, 0);
    return STEERN_OBST_OK;
}

// ---- the agents' check ------------------------------------------------------------

uint32_t steerN_mesh_epoch(const steerN_Mesh *m) { return m->dyn ? m->dyn->epoch : 0; }

// Whether segment p -> q comes within r of box (x0, y0, x1, y1): the
// segment against the grown box, by slabs.
static bool seg_box(const float *p, const float *q, const float box[4], float r)
{
    float t0 = 0.0f, t1 = 1.0f;
    for (int j = 0; j < 2; j++) {
        float lo = box[j] - r, hi = box[2 + j] + r, dp = q[j] - p[j];
        if (dp == 0.0f) {
            if (p[j] < lo || p[j] > hi) return false;
            continue;
        }
        float a = (lo - p[j]) / dp, b = (hi - p[j]) / dp;
        if (a > b) {
            float x = a;
            a = b;
            b = x;
        }
        if (a > t0) t0 = a;
        if (b < t1) t1 = b;
        if (t0 > t1) return false;
    }
    return true;
}

bool steerN_mesh_way_changed(const steerN_Mesh *m, uint32_t seen, const float *way, uint32_t n, float radius)
{
    const steerN_MeshDyn *d = m->dyn;
    if (!d || seen == d->epoch || n == 0) return false;
    uint32_t age = (d->epoch - seen) & EPOCH_MASK;
    if (age > STEERN_MESH_RECORDS) return true;
    for (uint32_t k = 0; k < age; k++) {
        uint32_t e = (d->epoch - k) & EPOCH_MASK;
        const Record *r = &d->rec[e % STEERN_MESH_RECORDS];
        if (r->epoch != e) return true;
        for (uint32_t i = 0; i + 1 < n || (n == 1 && i == 0); i++)
            if (seg_box(way + 2 * i, way + 2 * (n == 1 ? i : i + 1), r->box, radius)) return true;
    }
    return false;
}

// ---- memory and bytes ---------------------------------------------------------------

size_t steerN_mesh_dyn_bytes(const steerN_Mesh *m)
{
    const steerN_MeshDyn *d = m->dyn;
    size_t n = sizeof *d + steerN_mesh_bytes(d->base) + sizeof *d->obs * d->cap_obs + steerN_dyn_rebuild_bytes(d);
    for (uint32_t i = 0; i < d->nobs; i++) n += sizeof(double) * 2 * d->obs[i].npt;
    return n;
}

void steerN_mesh_dyn_free(steerN_Mesh *m)
{
    steerN_MeshDyn *d = m->dyn;
    const steerN_Alloc *a = al(m);
    for (uint32_t i = 0; i < d->nobs; i++) steerN_realloc(a, d->obs[i].xy, sizeof(double) * 2 * d->obs[i].npt, 0);
    steerN_realloc(a, d->obs, sizeof *d->obs * d->cap_obs, 0);
    steerN_dyn_fini(m, d);
    steerN_mesh_free(d->base);
    steerN_realloc(a, d, sizeof *d, 0);
    m->dyn = NULL;
}

// "STNM", u32 7, the base's own bytes (version 1, 2 or 5), u32 epoch, u32
// next id, the records (u32 epoch, 4 f32 each), u32 obstacles, each: u32
// id, i32 area, u32 revision, u32 points, the points (f64 x, y); the links
// (mesh_link.c); u64 the live mesh's hash, which a read checks after
// rebuilding. A base of several layers writes version 8 instead: the
// same, each obstacle's u32 layer after its points' count.
void steerN_mesh_dyn_encode(const steerN_Mesh *m, steerS_Writer *out)
{
    const steerN_MeshDyn *d = m->dyn;
    steerS_put(out, "STNM", 4);
    bool layers = d->base->layer != NULL;
    steerS_put_u32(out, layers ? VERSION_LAYERS : VERSION);
    steerN_mesh_encode(d->base, out);
    steerS_put_u32(out, d->epoch);
    steerS_put_u32(out, d->next_id);
    for (int i = 0; i < STEERN_MESH_RECORDS; i++) {
        steerS_put_u32(out, d->rec[i].epoch);
        for (int j = 0; j < 4; j++) steerS_put_f32(out, d->rec[i].box[j]);
    }
    steerS_put_u32(out, d->nobs);
    for (uint32_t i = 0; i < d->nobs; i++) {
        const steerN_Obstacle *o = &d->obs[i];
        steerS_put_u32(out, o->id);
        steerS_put_u32(out, (uint32_t)o->area);
        steerS_put_u32(out, o->rev);
        steerS_put_u32(out, o->npt);
        if (layers) steerS_put_u32(out, o->layer);
        for (uint32_t k = 0; k < 2 * o->npt; k++) steerS_put_f64(out, o->xy[k]);
    }
    steerN_links_encode(m, out); // (the base has none: they are the live mesh's)
    steerS_put_u64(out, steerN_mesh_hash_known(m));
}

steerN_Mesh *steerN_mesh_dyn_decode(steerS_Reader *r, uint32_t version, const steerN_Alloc *alloc, bool *oom)
{
    steerN_Mesh *m = steerN_mesh_decode_base(r, alloc, oom);
    if (!m) return NULL;
    bool layers = version == VERSION_LAYERS || version == VERSION_OLD_LAYERS;
    bool old = version == VERSION_OLD || version == VERSION_OLD_LAYERS;
    if (layers != (m->layer != NULL)) {
        steerS_fail(r, "navigation mesh: version %u of obstacles on a mesh of %u layers", version, m->nlayers);
        steerN_mesh_free(m);
        return NULL;
    }
    if (steerN_mesh_prepare(m) || !dyn_of(m)) {
        steerN_mesh_free(m);
        *oom = true;
        return NULL;
    }
    steerN_MeshDyn *d = m->dyn;
    d->epoch = steerS_get_u32(r);
    d->next_id = steerS_get_u32(r);
    for (int i = 0; i < STEERN_MESH_RECORDS; i++) {
        d->rec[i].epoch = steerS_get_u32(r);
        for (int j = 0; j < 4; j++) d->rec[i].box[j] = steerS_get_f32(r);
        if (!r->failed && !(isfinite(d->rec[i].box[0]) && isfinite(d->rec[i].box[1]) && isfinite(d->rec[i].box[2]) &&
                            isfinite(d->rec[i].box[3])))
            steerS_fail(r, "navigation mesh: change record %d is not a box", i);
    }
    uint32_t n = steerS_get_u32(r);
    if (!r->failed && (d->epoch > EPOCH_MASK || n > STEERN_OBSTACLES || steerS_left(r) < 16 * (size_t)n))
        steerS_fail(r, "navigation mesh: %u obstacles, epoch %u", n, d->epoch);
    for (uint32_t i = 0; i < n && !r->failed; i++) {
        uint32_t id = steerS_get_u32(r), area = steerS_get_u32(r), rev = steerS_get_u32(r), npt = steerS_get_u32(r);
        uint32_t layer = layers ? steerS_get_u32(r) : 0;
        if (r->failed) break;
        if (layer >= m->nlayers) {
            steerS_fail(r, "navigation mesh: obstacle %u is on layer %u of %u", id, layer, m->nlayers);
            break;
        }
        if (npt < 3 || npt > STEERN_OBSTACLE_POINTS || steerS_left(r) < 16 * (size_t)npt) {
            steerS_fail(r, "navigation mesh: obstacle %u has %u points", id, npt);
            break;
        }
        if (id == 0 || id >= d->next_id || (i && id <= d->obs[i - 1].id) ||
            ((int32_t)area != STEERN_OBST_BLOCKED && (area < 1 || area >= m->nareas))) {
            steerS_fail(r, "navigation mesh: obstacle %u (id or area) is not one a mesh could hold", i);
            break;
        }
        size_t cap = d->cap_obs;
        double *p = steerN_realloc(al(m), NULL, 0, sizeof *p * 2 * npt);
        if (!p || steerN_grow(al(m), (void **)&d->obs, &cap, d->nobs + 1, sizeof *d->obs)) {
            steerN_realloc(al(m), p, sizeof *p * 2 * npt, 0);
            *oom = true;
            break;
        }
        d->cap_obs = (uint32_t)cap;
        for (uint32_t k = 0; k < 2 * npt; k++) p[k] = steerS_get_f64(r);
        steerN_Obstacle *o = &d->obs[d->nobs++];
        *o = (steerN_Obstacle){ .id = id, .area = (int32_t)area, .npt = npt, .xy = p, .rev = rev, .layer = layer };
        if (!r->failed && (!steerN_obstacle_box(p, npt, o->box) || !steerN_obstacle_encloses(p, npt)))
            steerS_fail(r, "navigation mesh: obstacle %u has a bad point or encloses nothing", id);
    }
    if (!r->failed && !*oom) steerN_links_decode(r, m, oom);
    uint64_t hash = steerS_get_u64(r);
    if (!r->failed && !*oom) {
        steerN_ObstacleStatus st = steerN_dyn_rebuild(m);
        if (st == STEERN_OBST_NOMEM) *oom = true;
        else if (st) steerS_fail(r, "navigation mesh: its obstacles could not be carved");
        else if ((m->hash = steerN_mesh_hash(m)) != hash && !old)
            steerS_fail(r, "navigation mesh: the obstacles give another mesh (damaged bytes)");
        if (!st && (m->hash == hash || old)) return m;
    }
    steerN_mesh_free(m);
    return NULL;
}
