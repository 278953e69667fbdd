// SPDX-License-Identifier: MIT
// flock.c — Reynolds' group behaviours: separation, alignment, cohesion.
//
// They read the neighbour list the tick gathered once for the whole brain
// (as far as the largest radius any node needs) and each keeps only the
// neighbours inside its own radius and of its tag. Separation pushes with
// 1/distance per neighbour (-d/|d|^2, as OpenSteer and BENCH.md); a
// neighbour exactly on top of us gives no direction and is skipped rather
// than turned into NaN. Alignment steers the heading toward the mean
// neighbour heading (mean - own). Cohesion seeks the neighbours' centre
// with the engine's velocity-tracking law.
#include "behavior.h"

typedef struct Flock {
    float radius;
    uint16_t tag;
} Flock;
STEERB_CHECK_SIZE(Flock);

static float flock_sense(const steerB_Node *n) { return STEERB_PARAMS_OF(n, Flock)->radius; }

// Each behaviour keeps the gathered neighbours inside its own radius (and
// of its tag); the untagged case is the common one and gets a loop with no
// tag lookups.
#define FOR_NEIGHBORS(c, p, nb, BODY)                                          \
    do {                                                                        \
        float r2_ = (p)->radius * (p)->radius;                                  \
        const steerB_Neighbor *end_ = (c)->nb + (c)->nn;                        \
        if (!(p)->tag) {                                                        \
            for (const steerB_Neighbor *nb = (c)->nb; nb < end_; nb++)          \
                if (nb->d2 < r2_) { BODY }                                      \
        } else {                                                                \
            const uint16_t *tags_ = (c)->w->tag;                                \
            for (const steerB_Neighbor *nb = (c)->nb; nb < end_; nb++)          \
                if (nb->d2 < r2_ && tags_[nb->d] == (p)->tag) { BODY }          \
        }                                                                       \
    } while (0)

static void separation_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    FOR_NEIGHBORS(c, p, nb, {
        float inv = nb->d2 > 0.0f ? 1.0f / nb->d2 : 0.0f;
        sx -= nb->off[0] * inv;
        sy -= nb->off[1] * inv;
        sz -= nb->off[2] * inv;
    });
    v3_set(out, sx, sy, sz);
}

static void alignment_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    const float *hx = c->w->h[0], *hy = c->w->h[1], *hz = c->w->h[2];
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    int k = 0;
    if (hz) {
        FOR_NEIGHBORS(c, p, nb, { sx += hx[nb->d]; sy += hy[nb->d]; sz += hz[nb->d]; k++; });
    } else {
        FOR_NEIGHBORS(c, p, nb, { sx += hx[nb->d]; sy += hy[nb->d]; k++; });
    }
    if (!k) { v3_zero(out); return; }
    float inv = 1.0f / (float)k;
    v3_set(out, sx * inv - c->h[0], sy * inv - c->h[1], sz * inv - c->h[2]);
}

static void cohesion_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    float centre[3] = { 0, 0, 0 };
    int k = 0;
    FOR_NEIGHBORS(c, p, nb, { centre[0] += nb->off[0]; centre[1] += nb->off[1]; centre[2] += nb->off[2]; k++; });
    if (!k) { v3_zero(out); return; }
    v3_scale(centre, centre, 1.0f / (float)k);
    float desired[3];
    v3_copy(desired, centre);
    v3_normalize(desired);
    v3_scale(desired, desired, c->max_speed);
    steerB_track(c, desired, out);
}

static const steerB_Field flock_fields[] = {
    { "radius", STEERB_NUMBER, offsetof(Flock, radius), 5, 0, 1e30f, true, "a number > 0", NULL },
    { "tag", STEERB_TAG, offsetof(Flock, tag), 0, 0, 0, false, "a string (only neighbours with this tag) or nil", NULL },
    { 0 }
};

const steerB_Kind steerB_separation = { "separation", flock_fields, separation_eval, STEERB_LEAF, 0, NULL, flock_sense, NULL };
const steerB_Kind steerB_alignment = { "alignment", flock_fields, alignment_eval, STEERB_LEAF, 0, NULL, flock_sense, NULL };
const steerB_Kind steerB_cohesion = { "cohesion", flock_fields, cohesion_eval, STEERB_LEAF, 0, NULL, flock_sense, NULL };
