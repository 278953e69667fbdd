// SPDX-License-Identifier: MIT
// blend.c — the weighted sum of the children's forces, truncated to the
// agent's max_force (so a blend never asks for more than the vehicle has).
#include "../behaviors/behavior.h"

static void blend_batch(steerB_Batch *bt, const steerB_Node *n, steerB_Lanes out)
{
    const steerB_Brain *b = bt->brain;
    int m = bt->n;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < m; k++) out[i][k] = 0.0f;
    for (uint16_t j = 0; j < n->nchild; j++) {
        uint32_t i = b->kids[n->first + j];
        steerB_Lanes f;
        steerB_eval_batch(bt, i, f);
        float wt = b->nodes[i].weight;
        for (int a = 0; a < 3; a++) // v3_madd, lane by lane
            for (int k = 0; k < m; k++) out[a][k] += f[a][k] * wt;
    }
    steerB_truncate_lanes(out, bt->max_force, m);
}

const steerB_Kind steerB_blend = { .name = "blend",
                                   .eval = steerB_blend_sum,
                                   .children = STEERB_WEIGHTED,
                                   .eval_batch = blend_batch,
                                   .explain = STEERB_EXPLAIN_SUM };
