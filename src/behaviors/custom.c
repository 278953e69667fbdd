// SPDX-License-Identifier: MIT
// custom.c — steer.custom(fn): a behaviour written in the host language
// (Lua), called once per agent per tick through the world's custom hook.
// This is the slow path the design allows only when a script asks for it:
// every call crosses into Lua (see docs/api.md for its measured cost). The
// function may read any agent but not change or query the world, because
// it runs inside the steer pass.
#include "behavior.h"

#include <stdio.h>

typedef struct Custom {
    int ref;
} Custom;
STEERB_CHECK_SIZE(Custom);

static void custom_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Custom *p = STEERB_PARAMS_OF(n, Custom);
    steer_World *w = c->host; // a callback: its brain runs on the calling thread
    double f[3] = { 0, 0, 0 };
    v3_zero(out);
    if (!p->ref || !w->hooks.custom) return;
    if (w->hooks.custom(w->hooks.ud, p->ref, w, steerW_handle(w, c->d), c->dt, f) != 0) return;
    for (int i = 0; i < w->dim; i++) out[i] = (float)f[i];
}

static int custom_check(const void *params, char *msg, size_t len)
{
    const Custom *p = params;
    if (!p->ref) {
        snprintf(msg, len, "field 'fn' is required: a function(agent, dt) returning fx, fy [, fz]");
        return 0;
    }
    return 1;
}

static const steerB_Field custom_fields[] = { { "fn", STEERB_CALLBACK, offsetof(Custom, ref), 0, 0, 0,
                                                "a function(agent, dt) returning fx, fy [, fz]", NULL },
                                              { 0 } };

const steerB_Kind steerB_custom = {
    .name = "custom", .fields = custom_fields, .eval = custom_eval, .check = custom_check
};
