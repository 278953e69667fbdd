// SPDX-License-Identifier: MIT
// truncated_sum.c — the weighted truncated running sum with prioritisation
// (Reynolds 1999, Buckland's "prioritised truncated sum"): the children's
// weighted forces are added in the given order, each only as far as the
// agent's max_force still allows. The child that would overshoot is scaled
// so that the sum lands exactly on max_force, and the children after it
// are not evaluated at all: earlier children have precedence, and a child
// that spends the whole budget starves the rest (which also saves their
// cost, as in priority).
//
// Invariant: |sum| <= max_force after every step, so the result never
// needs truncating; with max_force <= 0 no child is evaluated.
#include "../behaviors/behavior.h"

// The s in [0, 1] with |sum + s f| = budget, given |sum| <= budget < |sum + f|:
// the larger root of |f|^2 s^2 + 2 (sum.f) s + |sum|^2 - budget^2 = 0.
static float fill(const float sum[3], const float f[3], float budget)
{
    float a = v3_len2(f), b = v3_dot(sum, f), cc = v3_len2(sum) - budget * budget;
    if (!(a > 0.0f)) return 0.0f;
    float disc = b * b - a * cc; // >= 0 because cc <= 0, up to rounding
    float s = (-b + sqrtf(disc > 0.0f ? disc : 0.0f)) / a;
    return s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
}

static void truncated_sum_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const steerB_Brain *b = c->brain;
    float budget = c->max_force;
    v3_zero(out);
    if (!(budget > 0.0f)) return;
    for (uint16_t k = 0; k < n->nchild; k++) {
        uint32_t i = b->kids[n->first + k];
        float f[3], next[3];
        steerB_eval(c, i, f);
        v3_scale(f, f, b->nodes[i].weight);
        v3_add(next, out, f);
        if (v3_len2(next) < budget * budget) {
            v3_copy(out, next);
            continue;
        }
        // this child spends what is left of the budget: nothing after it runs
        v3_madd(out, f, fill(out, f, budget));
        v3_truncate(out, budget); // rounding only
        return;
    }
}

const steerB_Kind steerB_truncated_sum = {
    .name = "truncated_sum", .eval = truncated_sum_eval, .children = STEERB_WEIGHTED, .explain = STEERB_EXPLAIN_SUM
};
