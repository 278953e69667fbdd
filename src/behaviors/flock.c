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

// All three read a steerB_Summary within their radius (and tag): the
// engine computes it once per radius for the whole brain, vectorised.

static void separation_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    steerB_Summary tmp;
    v3_copy(out, steerB_summary(c, n, p->radius, p->tag, &tmp)->push);
}

static void alignment_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    steerB_Summary tmp;
    const steerB_Summary *s = steerB_summary(c, n, p->radius, p->tag, &tmp);
    if (s->n == 0.0f) { v3_zero(out); return; }
    v3_scale(out, s->head, 1.0f / s->n);
    v3_sub(out, out, c->h);
}

static void cohesion_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    steerB_Summary tmp;
    const steerB_Summary *s = steerB_summary(c, n, p->radius, p->tag, &tmp);
    if (s->n == 0.0f) { v3_zero(out); return; }
    float desired[3];
    v3_scale(desired, s->off, 1.0f / s->n);
    v3_normalize(desired);
    v3_scale(desired, desired, c->max_speed);
    steerB_track(c, desired, out);
}

static const steerB_Field flock_fields[] = {
    { "radius", STEERB_NUMBER, offsetof(Flock, radius), 5, 0, 1e30f, true, "a number > 0", NULL },
    { "tag", STEERB_TAG, offsetof(Flock, tag), 0, 0, 0, false, "a string (only neighbours with this tag) or nil", NULL },
    { 0 }
};

const steerB_Kind steerB_separation = { .name = "separation", .fields = flock_fields, .eval = separation_eval, .sense = flock_sense, .summary = STEERB_SUM_PUSH };
const steerB_Kind steerB_alignment = { .name = "alignment", .fields = flock_fields, .eval = alignment_eval, .sense = flock_sense, .summary = STEERB_SUM_COUNT | STEERB_SUM_HEADING };
const steerB_Kind steerB_cohesion = { .name = "cohesion", .fields = flock_fields, .eval = cohesion_eval, .sense = flock_sense, .summary = STEERB_SUM_COUNT | STEERB_SUM_OFFSET };
