// SPDX-License-Identifier: MIT
// counting.h — an allocator hook for tests: it counts live blocks and
// calls, and fails every call from the fail_from-th on (0: never), so a
// test can check that everything went through the hook, came back, and
// that a failure at any call leaves nothing behind.
#ifndef STEER_TEST_COUNTING_H
#define STEER_TEST_COUNTING_H

#include <stdlib.h>

typedef struct Counting {
    long live, calls, fail_from;
} Counting;

static inline void *counting_alloc(void *ud, void *p, size_t size)
{
    Counting *c = ud;
    c->calls++;
    if (size == 0) {
        if (p) c->live--;
        free(p);
        return NULL;
    }
    if (c->fail_from && c->calls >= c->fail_from) return NULL;
    void *q = realloc(p, size);
    if (q && !p) c->live++;
    return q;
}

#endif
