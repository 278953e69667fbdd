// SPDX-License-Identifier: MIT
// base.c — the floor of the core: memory through the world's allocator,
// the per-agent arrays' placement, the world's error and log, and the one
// rule for the numbers a host gives. It calls nothing of steer above it,
// so every other file of the core may call it (tools/layers.py checks that
// no circle of calls passes through it).
#include "base.h"
#include "os.h"
#include "world.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

// ---- memory --------------------------------------------------------------

void *steerA_default_alloc(void *ud, void *p, size_t size)
{
    (void)ud;
    if (size == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, size);
}

// During a parallel pass workers share the allocator: the pool's lock (its
// first member, par.c) serialises them.
void *steerA_realloc(const steer_World *w, void *p, size_t size)
{
    if (!w->in_par) return w->alloc(w->alloc_ud, p, size);
    steerY_mutex_lock((steerY_Mutex *)(void *)w->pool);
    void *r = w->alloc(w->alloc_ud, p, size);
    steerY_mutex_unlock((steerY_Mutex *)(void *)w->pool);
    return r;
}

bool steerA_reserve(const steer_World *w, void **p, uint32_t *cap, uint32_t need, size_t item, uint32_t first)
{
    if (need <= *cap) return true;
    uint32_t c = *cap ? *cap : first;
    while (c < need) c *= 2;
    void *a = steerA_realloc(w, *p, item * c);
    if (!a) return false;
    *p = a;
    *cap = c;
    return true;
}

void steerA_free(const steer_World *w, void *p)
{
    if (p) w->alloc(w->alloc_ud, p, 0);
}

size_t steerA_stagger(const steer_World *w, const void *field)
{
    size_t slot = (size_t)((const char *)field - (const char *)w) / sizeof(void *);
    return slot % (4096 / STEERA_STAGGER) * STEERA_STAGGER;
}

bool steerA_array_resize(steer_World *w, void *field, size_t bytes)
{
    char *p;
    memcpy(&p, field, sizeof p);
    size_t st = steerA_stagger(w, field);
    char *n = steerA_realloc(w, p ? p - st : NULL, bytes + st);
    if (!n) return false;
    n += st;
    memcpy(field, &n, sizeof n);
    return true;
}

void steerA_array_free(steer_World *w, void *field)
{
    char *p;
    memcpy(&p, field, sizeof p);
    if (p) steerA_free(w, p - steerA_stagger(w, field));
    p = NULL;
    memcpy(field, &p, sizeof p);
}

// ---- errors --------------------------------------------------------------

void steerA_error(steer_World *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    // during a parallel pass the message waits for the calling thread (steerP_run), which logs it
    char *at = w->in_par ? w->loc.error : w->error;
    vsnprintf(at, sizeof w->error, fmt, ap);
    va_end(ap);
    if (w->in_par) {
        if (w->loc.status == STEER_OK) w->loc.status = STEER_ECALLBACK;
        return;
    }
    if (w->log) w->log(w->log_ud, 2, w->error);
}

const char steerA_lib = 's';

static _Thread_local char last_error[256];

const char *steer_last_error(void) { return last_error; }

bool steerA_refuse(const char *fn, const char *arg, const char *expected)
{
    snprintf(last_error, sizeof last_error, "%s: %s is NULL (expected %s)", fn, arg, expected);
    return false;
}

void steerA_refuse_why(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

bool steerA_ours(const void *obj, const char *fn, const char *arg, const char *what)
{
    if (!obj) return steerA_refuse(fn, arg, what);
    if (*(const void *const *)obj == &steerA_lib) return true;
    snprintf(last_error, sizeof last_error,
             "%s: %s is not %s of this copy of steer (another copy of libsteer, static or shared, made it, or it "
             "was freed)",
             fn, arg, what);
    return false;
}

bool steerA_param_ok(double v, bool allow_zero)
{
    return steerB_number_ok(v, allow_zero ? 0 : STEERA_PARAM_MIN, STEERA_PARAM_MAX);
}

double steerB_stored(float v, double min, double max)
{
    if (steerB_number_ok(v, min, max)) return v;
    const double bounds[3] = { min, max, STEERA_PARAM_MIN };
    for (int i = 0; i < 3; i++)
        if (fabs(bounds[i]) <= FLT_MAX && (float)bounds[i] == v && steerB_number_ok(bounds[i], min, max))
            return bounds[i];
    return v;
}

bool steerA_stored_ok(float v, bool allow_zero)
{
    double min = allow_zero ? 0 : STEERA_PARAM_MIN;
    return steerB_number_ok(steerB_stored(v, min, STEERA_PARAM_MAX), min, STEERA_PARAM_MAX);
}
