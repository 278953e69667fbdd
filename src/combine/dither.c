// SPDX-License-Identifier: MIT
// dither.c — prioritised dithering (Reynolds 1999): each tick the children
// are considered in order, each one tried only with its probability p (the
// entry's weight); the first child tried whose force is longer than
// `epsilon` wins and is passed on unchanged. A child not tried is not
// evaluated. When no child wins the force is zero: give the last child
// p = 1 to make it the default.
//
// The draws come from the agent's own stream (c->rng), one per child
// considered, so a dither is deterministic per world seed and independent
// of the order in which agents are evaluated. p <= 0 never tries a child,
// p >= 1 always does.
#include "../behaviors/behavior.h"
#include "../core/rng.h"

typedef struct Dither {
    float epsilon;
} Dither;
STEERB_CHECK_SIZE(Dither);

static void dither_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Dither *p = STEERB_PARAMS_OF(n, Dither);
    const steerB_Brain *b = c->brain;
    float e2 = p->epsilon * p->epsilon;
    for (uint16_t k = 0; k < n->nchild; k++) {
        uint32_t i = b->kids[n->first + k];
        // [0, 1) draw: weight 1 always passes, weight 0 never does
        if (!(steer_rng32_unit(c->rng) < b->nodes[i].weight)) continue;
        steerB_eval(c, i, out);
        if (v3_len2(out) > e2) return;
    }
    v3_zero(out);
}

static const steerB_Field dither_fields[] = {
    { "epsilon", STEERB_NUMBER, offsetof(Dither, epsilon), 1e-3f, 0, 1e30, "a number", NULL }, { 0 }
};

const steerB_Kind steerB_dither = { .name = "dither",
                                    .fields = dither_fields,
                                    .eval = dither_eval,
                                    .children = STEERB_WEIGHTED,
                                    .explain = STEERB_EXPLAIN_WINNER };
