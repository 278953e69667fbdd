// SPDX-License-Identifier: MIT
// blend.c — the weighted sum of the children's forces, truncated to the
// agent's max_force (so a blend never asks for more than the vehicle has).
#include "../behaviors/behavior.h"

static void blend_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const steerB_Brain *b = c->brain;
    v3_zero(out);
    for (uint16_t k = 0; k < n->nchild; k++) {
        uint32_t i = b->kids[n->first + k];
        float f[3];
        steerB_eval(c, i, f);
        v3_madd(out, f, b->nodes[i].weight);
    }
    v3_truncate(out, c->max_force);
}

const steerB_Kind steerB_blend = { .name = "blend", .eval = blend_eval, .children = STEERB_WEIGHTED };
