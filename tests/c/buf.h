// SPDX-License-Identifier: MIT
// buf.h — a growing buffer for the tests, and a steer_WriteFn into it
// (steer_engine_save's and steer_world_save's writer); a world's snapshot in one block.
#ifndef STEER_TEST_BUF_H
#define STEER_TEST_BUF_H

#include "steer.h"

#include <stdlib.h>
#include <string.h>

typedef struct Buf {
    unsigned char *p;
    size_t len, cap;
} Buf;

static inline int buf_write(void *ud, const void *data, size_t len)
{
    Buf *b = ud;
    if (b->len + len > b->cap) {
        size_t nc = (b->len + len) * 2;
        unsigned char *np = realloc(b->p, nc);
        if (!np) return 1;
        b->p = np;
        b->cap = nc;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    return 0;
}

// The world's snapshot in a new malloc'd block (*n bytes), or NULL.
static inline unsigned char *save(const steer_World *w, size_t *n)
{
    size_t len = 0;
    steer_world_save_buffer(w, NULL, 0, &len);
    unsigned char *p = malloc(len);
    if (p && steer_world_save_buffer(w, p, len, n) != STEER_OK) {
        free(p);
        return NULL;
    }
    return p;
}

#endif
