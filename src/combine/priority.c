// SPDX-License-Identifier: MIT
// priority.c — the first child (in order) whose force is larger than
// epsilon wins and is passed on unchanged; later children are not even
// evaluated, which is what makes priority cheap. No winner gives zero.
#include "../behaviors/behavior.h"

typedef struct Priority { float epsilon; } Priority;
STEERB_CHECK_SIZE(Priority);

static void priority_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Priority *p = STEERB_PARAMS_OF(n, Priority);
    float e2 = p->epsilon * p->epsilon;
    const steerB_Brain *b = c->brain;
    for (uint16_t k = 0; k < n->nchild; k++) {
        steerB_eval(c, b->kids[n->first + k], out);
        if (v3_len2(out) > e2) return;
    }
    v3_zero(out);
}

static const steerB_Field priority_fields[] = {
    { "epsilon", STEERB_NUMBER, offsetof(Priority, epsilon), 1e-3f, 0, 1e30f, false, "a number >= 0", NULL },
    { 0 }
};

const steerB_Kind steerB_priority = { .name = "priority", .fields = priority_fields, .eval = priority_eval, .children = STEERB_LIST };
