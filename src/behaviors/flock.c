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

static inline bool counts(const steerB_Ctx *c, const Flock *p, const steerB_Neighbor *nb, float r2)
{
    return nb->d2 < r2 && (!p->tag || c->w->tag[nb->d] == p->tag);
}

static void separation_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    float r2 = p->radius * p->radius;
    v3_zero(out);
    for (int i = 0; i < c->nn; i++) {
        const steerB_Neighbor *nb = &c->nb[i];
        if (!counts(c, p, nb, r2) || nb->d2 <= 0.0f) continue;
        v3_madd(out, nb->off, -1.0f / nb->d2);
    }
}

static void alignment_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    float r2 = p->radius * p->radius, sum[3] = { 0, 0, 0 };
    int k = 0;
    float *const *h = c->w->h;
    for (int i = 0; i < c->nn; i++) {
        const steerB_Neighbor *nb = &c->nb[i];
        if (!counts(c, p, nb, r2)) continue;
        float hj[3];
        steerW_load(h, nb->d, hj);
        v3_add(sum, sum, hj);
        k++;
    }
    if (!k) { v3_zero(out); return; }
    v3_scale(out, sum, 1.0f / (float)k);
    v3_sub(out, out, c->h);
}

static void cohesion_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    float r2 = p->radius * p->radius, centre[3] = { 0, 0, 0 };
    int k = 0;
    for (int i = 0; i < c->nn; i++) {
        const steerB_Neighbor *nb = &c->nb[i];
        if (!counts(c, p, nb, r2)) continue;
        v3_add(centre, centre, nb->off);
        k++;
    }
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
