// SPDX-License-Identifier: MIT
// draw.c — the debug-draw command list (steer_draw.h): two growing arrays,
// commands and the text they point into by offset, so a list is reused
// frame after frame without allocating once it has grown.
#include "steer_draw.h"
#include "base.h"

#include <stdlib.h>
#include <string.h>

void steer_draw_clear(steer_DrawList *d)
{
    if (!d) return;
    d->n = 0;
    d->ntext = 0;
}

void steer_draw_free(steer_DrawList *d)
{
    if (!d) return;
    free(d->cmds);
    free(d->text);
    memset(d, 0, sizeof *d);
}

static int reserve(void **p, uint32_t *cap, uint32_t need, size_t item)
{
    if (need <= *cap) return 1;
    uint32_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * item);
    if (!q) return 0;
    *p = q;
    *cap = c;
    return 1;
}

int steer_draw_push(steer_DrawList *d, const steer_DrawCmd *c, const char *text)
{
    STEERA_NONNULL(d, "a steer_DrawList", STEER_EARG);
    STEERA_NONNULL(c, "a steer_DrawCmd", STEER_EARG);
    if (d->n >= STEER_DRAW_MAX) return STEER_EFULL;
    if (!reserve((void **)&d->cmds, &d->cap, d->n + 1, sizeof *d->cmds)) return STEER_ENOMEM;
    steer_DrawCmd cmd = *c;
    if (c->kind == STEER_DRAW_TEXT) {
        size_t len = text ? strlen(text) : 0;
        if (len > 4096) len = 4096;
        if (!reserve((void **)&d->text, &d->cap_text, d->ntext + (uint32_t)len + 1, 1)) return STEER_ENOMEM;
        memcpy(d->text + d->ntext, text ? text : "", len);
        d->text[d->ntext + len] = '\0';
        cmd.text = d->ntext;
        d->ntext += (uint32_t)len + 1;
    }
    d->cmds[d->n++] = cmd;
    return STEER_OK;
}
