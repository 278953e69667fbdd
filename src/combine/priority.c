// SPDX-License-Identifier: MIT
// priority.c — the first child (in order) whose force is larger than
// epsilon wins and is passed on unchanged; later children are not even
// evaluated, which is what makes priority cheap. No winner gives zero.
//
// Hysteresis, for children whose forces hover around epsilon or around
// each other (a plain priority then flips between them every few ticks,
// and the agent jitters): the node remembers its winner per agent. The
// child the plain rule picks (the "challenger") replaces the remembered
// winner only when
//   - the winner has won for at least `hold` seconds, and
//   - the winner has gone quiet (force <= epsilon), or the challenger's
//     force is longer than `margin` times the winner's.
// Until then the winner keeps winning, with whatever force it gives now.
// margin = 0 and hold = 0 (the defaults) are the plain priority. "No
// winner" (zero force) counts as a winner too, so a priority that fell
// silent also waits `hold` before a child takes over again.
//
// Every child is evaluated at most once per tick (a child may draw random
// numbers or raise events): the plain scan, plus the remembered winner
// when it comes after the challenger and its force is needed. Children
// not evaluated record zero, so a:contributions() shows what ran.
//
// Memory: two floats, the winner (child index + 1; 0 none) and how long
// it has won (seconds; starts "long enough" so the first pick is free).
#include "../behaviors/behavior.h"

typedef struct Priority {
    float epsilon, margin, hold;
} Priority;
STEERB_CHECK_SIZE(Priority);

#define HELD_LONG 1e30f // a hold no `hold` field reaches: take over at once

static void priority_init(steerB_Ctx *c, const steerB_Node *n)
{
    float *m = c->mem + n->mem;
    m[0] = 0.0f;
    m[1] = HELD_LONG;
}

static void priority_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Priority *p = STEERB_PARAMS_OF(n, Priority);
    float e2 = p->epsilon * p->epsilon;
    const steerB_Brain *b = c->brain;
    bool plain = p->margin <= 0.0f && p->hold <= 0.0f; // no memory to keep
    float *m = c->mem + n->mem;
    float stored = plain ? 0.0f : m[0];
    uint16_t cur = stored >= 1.0f && stored <= (float)n->nchild ? (uint16_t)(stored - 1.0f) : n->nchild;
    // the plain rule: the first child over epsilon (nchild when none); the
    // winner's force is kept when the scan passes it
    uint16_t pick = n->nchild;
    float f[3] = { 0, 0, 0 }, wf[3] = { 0, 0, 0 };
    for (uint16_t k = 0; k < n->nchild; k++) {
        steerB_eval(c, b->kids[n->first + k], f);
        if (k == cur) v3_copy(wf, f);
        if (v3_len2(f) > e2) {
            pick = k;
            break;
        }
    }
    if (pick == n->nchild) v3_zero(f);
    if (plain) {
        v3_copy(out, f);
        return;
    }
    float held = m[1] < HELD_LONG ? m[1] + c->dt : HELD_LONG;
    if (cur == pick) {
        m[1] = held;
        v3_copy(out, f);
        return;
    }
    // a winner after the challenger was not reached by the scan: run it
    // only when its force matters (it may still keep winning, or the
    // margin compares against it)
    if (cur < n->nchild && cur > pick && (held < p->hold || p->margin > 0.0f))
        steerB_eval(c, b->kids[n->first + cur], wf);
    bool quiet = v3_len2(wf) <= e2;
    bool beaten = quiet || v3_len2(f) > p->margin * p->margin * v3_len2(wf);
    if (held >= p->hold && beaten) {
        m[0] = pick < n->nchild ? (float)(pick + 1) : 0.0f;
        m[1] = 0.0f;
        v3_copy(out, f);
    } else {
        m[1] = held;
        v3_copy(out, wf);
    }
}

static const steerB_Field priority_fields[] = {
    { "epsilon", STEERB_NUMBER, offsetof(Priority, epsilon), 1e-3f, 0, 1e30, "a number", NULL },
    { "margin", STEERB_NUMBER, offsetof(Priority, margin), 0, 0, 1e30,
      "a number (a challenger must be this many times as strong as the winner)", NULL },
    { "hold", STEERB_NUMBER, offsetof(Priority, hold), 0, 0, 1e30, "a number of seconds", NULL },
    { 0 }
};

const steerB_Kind steerB_priority = { .name = "priority",
                                      .fields = priority_fields,
                                      .eval = priority_eval,
                                      .children = STEERB_LIST,
                                      .mem_floats = 2,
                                      .init = priority_init,
                                      .explain = STEERB_EXPLAIN_WINNER };
