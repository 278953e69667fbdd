// SPDX-License-Identifier: MIT
// flock.c — Reynolds' group behaviours: separation, alignment, cohesion.
//
// They read the neighbour list the tick gathered once for the whole brain
// (as far as the largest radius any node needs) and each keeps only the
// neighbours inside its own radius and of its tag. Separation pushes with
// 1/distance per neighbour (-d/|d|^2, as OpenSteer and docs/benchmarks.md); a
// neighbour exactly on top of us gives no direction and is skipped rather
// than turned into NaN. Alignment steers the heading toward the mean
// neighbour heading (mean - own). Cohesion seeks the neighbours' centre
// with the engine's velocity-tracking law.
#include "behavior.h"

#include <string.h>

typedef struct Flock {
    float radius;
    uint16_t tag;
} Flock;
STEERB_CHECK_SIZE(Flock);

static float flock_sense(const steerB_Node *n) { return STEERB_PARAMS_OF(n, Flock)->radius; }

// All three read a steerB_Summary within their radius (and tag): the
// engine computes it once per radius for the whole brain, vectorised.

// The forces from a summary, shared by the one-agent and the batch paths.
static inline void alignment_force(const steerB_Summary *s, const float h[3], float out[3])
{
    if (s->n == 0.0f) {
        v3_zero(out);
        return;
    }
    v3_scale(out, s->head, 1.0f / s->n);
    v3_sub(out, out, h);
}

static inline void cohesion_force(const steerB_Summary *s, const float v[3], float max_speed, float max_force,
                                  float out[3])
{
    if (s->n == 0.0f) {
        v3_zero(out);
        return;
    }
    float desired[3];
    v3_scale(desired, s->off, 1.0f / s->n);
    v3_normalize(desired);
    v3_scale(desired, desired, max_speed);
    steerB_track_v(v, max_speed, max_force, desired, out);
}

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
    alignment_force(steerB_summary(c, n, p->radius, p->tag, &tmp), c->h, out);
}

static void cohesion_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Flock *p = STEERB_PARAMS_OF(n, Flock);
    steerB_Summary tmp;
    cohesion_force(steerB_summary(c, n, p->radius, p->tag, &tmp), c->v, c->max_speed, c->max_force, out);
}

// Batched: a brain runs batched only when every summary node has its slot.
static void separation_batch(steerB_Batch *bt, const steerB_Node *n, steerB_Lanes out)
{
    for (int k = 0; k < bt->n; k++) steerB_set_lane(out, k, bt->sums[k][n->sum].push);
}

// alignment_force and cohesion_force over the batch, in the stages
// behavior.h describes: the same operations on every lane, then the
// lanes without neighbours zeroed as the force functions return them.
// The mean of a summary's vector (the one at offset `at`: sum of headings
// or of offsets) over the neighbours, as v3_scale(out, sum, 1 / n); `none`
// marks the lanes without neighbours (their mean is not finite).
static void mean_lanes(steerB_Batch *bt, const steerB_Node *n, size_t at, steerB_Lanes out, int *none)
{
    const int m = bt->n;
    float inv[STEERB_BATCH];
    for (int k = 0; k < m; k++) {
        const steerB_Summary *s = &bt->sums[k][n->sum];
        float v[3];
        memcpy(v, (const char *)s + at, sizeof v);
        inv[k] = 1.0f / s->n;
        none[k] = s->n == 0.0f;
        steerB_set_lane(out, k, v);
    }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < m; k++) out[i][k] = out[i][k] * inv[k];
}

static void alignment_batch(steerB_Batch *bt, const steerB_Node *n, steerB_Lanes out)
{
    int none[STEERB_BATCH];
    mean_lanes(bt, n, offsetof(steerB_Summary, head), out, none);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < bt->n; k++) out[i][k] = out[i][k] - bt->h[i][k];
    steerB_zero_lanes(out, none, bt->n);
}

static void cohesion_batch(steerB_Batch *bt, const steerB_Node *n, steerB_Lanes out)
{
    const int m = bt->n;
    float inv[STEERB_BATCH], l2[STEERB_BATCH], kt[STEERB_BATCH];
    int none[STEERB_BATCH], rare[STEERB_BATCH], any = 0;
    // the mean offset, normalised (v3_normalize: a (1 / length) scale)
    mean_lanes(bt, n, offsetof(steerB_Summary, off), out, none);
    for (int k = 0; k < m; k++) {
        l2[k] = out[0][k] * out[0][k] + out[1][k] * out[1][k] + out[2][k] * out[2][k];
        inv[k] = 1.0f / sqrtf(l2[k]);
        kt[k] = bt->max_force[k] / bt->max_speed[k];
    }
    for (int k = 0; k < m; k++) {
        rare[k] = (none[k] == 0) & ((l2[k] <= STEER_EPS2) | (l2[k] > FLT_MAX));
        any |= rare[k];
        kt[k] = bt->max_speed[k] > 0.0f ? kt[k] : 0.0f; // steerB_track_v's gain
    }
    // desired = max_speed along it; the force tracks desired - v
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < m; k++) out[i][k] = (out[i][k] * inv[k] * bt->max_speed[k] - bt->v[i][k]) * kt[k];
    steerB_zero_lanes(out, none, m);
    for (int k = 0; any && k < m; k++) {
        if (!rare[k]) continue;
        float v[3], o[3];
        steerB_lane(bt->v, k, v);
        cohesion_force(&bt->sums[k][n->sum], v, bt->max_speed[k], bt->max_force[k], o);
        steerB_set_lane(out, k, o);
    }
}

static const steerB_Field flock_fields[] = {
    { "radius", STEERB_NUMBER, offsetof(Flock, radius), 5, 1e-6, 1e30, "a number", NULL },
    { "tag", STEERB_TAG, offsetof(Flock, tag), 0, 0, 0, "a string (only neighbours with this tag) or nil", NULL },
    { 0 }
};

const steerB_Kind steerB_separation = { .name = "separation",
                                        .fields = flock_fields,
                                        .eval = separation_eval,
                                        .sense = flock_sense,
                                        .summary = STEERB_SUM_PUSH,
                                        .eval_batch = separation_batch };
const steerB_Kind steerB_alignment = { .name = "alignment",
                                       .fields = flock_fields,
                                       .eval = alignment_eval,
                                       .sense = flock_sense,
                                       .summary = STEERB_SUM_COUNT | STEERB_SUM_HEADING,
                                       .eval_batch = alignment_batch };
const steerB_Kind steerB_cohesion = { .name = "cohesion",
                                      .fields = flock_fields,
                                      .eval = cohesion_eval,
                                      .sense = flock_sense,
                                      .summary = STEERB_SUM_COUNT | STEERB_SUM_OFFSET,
                                      .eval_batch = cohesion_batch };
