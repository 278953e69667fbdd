// SPDX-License-Identifier: MIT
// host.c — behaviour kinds the embedding game defines in C at run time.
//
// A host kind is built from a steer_HostBehaviorDesc: up to
// STEER_HOST_MAX_PARAMS number parameters, optionally a `target` field
// taken like seek's, and per-agent memory. It becomes an ordinary
// steerB_Kind (fields as data, an eval function), so scripts build it like
// any built-in behaviour, combiners nest it, and its output is recorded
// and shown by the inspector. The host's function runs on the steer pass:
// it must not change the world, like every behaviour.
#include "behavior.h"
#include "fields.h"
#include "../core/world.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct HostParams {
    float v[STEER_HOST_MAX_PARAMS];
    steerB_Target target;
} HostParams;
STEERB_CHECK_SIZE(HostParams);

struct steer_HostKind {
    steerB_Kind kind;
    steerB_Field fields[STEER_HOST_MAX_PARAMS + 2];
    char *names[STEER_HOST_MAX_PARAMS + 1]; // [0] the kind's name, then the parameters'
    int nparams;
    steer_HostFn fn;
    void *ud;
};

static void host_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const steer_HostKind *k = n->kind->host;
    const HostParams *p = STEERB_PARAMS_OF(n, HostParams);
    steer_World *w = c->host; // host code: its brain runs on the calling thread
    steer_HostCtx h;
    memset(&h, 0, sizeof h);
    double params[STEER_HOST_MAX_PARAMS];
    for (int i = 0; i < k->nparams; i++) params[i] = p->v[i];
    h.world = w;
    h.agent = steerW_handle(w, c->d);
    for (int i = 0; i < 3; i++) {
        h.position[i] = c->p[i];
        h.velocity[i] = c->v[i];
        h.heading[i] = c->h[i];
    }
    h.mass = c->mass;
    h.max_speed = c->max_speed;
    h.max_force = c->max_force;
    h.radius = c->radius;
    h.dt = c->dt;
    h.params = params;
    h.memory = k->kind.mem_floats ? c->mem + n->mem : NULL;
    if (k->kind.fields[k->nparams].name) { // the target field
        float off[3], vel[3];
        if (steerB_target(c, &p->target, off, vel)) {
            h.has_target = true;
            for (int i = 0; i < 3; i++) {
                h.target[i] = (double)c->p[i] + off[i];
                h.target_velocity[i] = vel[i];
            }
        }
    }
    double f[3] = { 0, 0, 0 };
    k->fn(k->ud, &h, f);
    v3_zero(out);
    // a non-finite force is dropped by the steer pass; keep it out of float overflow too
    for (int i = 0; i < w->dim; i++) out[i] = isfinite(f[i]) && fabs(f[i]) < 1e30 ? (float)f[i] : 0.0f;
}

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

// A name a script can write after `steer.`: a letter or _, then letters, digits, _.
static bool identifier(const char *s)
{
    if (!s || !*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

// A name for a message: at most 40 bytes of it, anything but printable
// ASCII as '?' (it may be no identifier, or no text).
static const char *shown(const char *s, char buf[48])
{
    size_t n = 0;
    for (; s[n] && n < 40; n++) buf[n] = s[n] >= 0x20 && s[n] < 0x7F ? s[n] : '?';
    snprintf(buf + n, 48 - n, "%s", s[n] ? "..." : "");
    return buf;
}

const char *steerB_host_desc_error(const steer_HostBehaviorDesc *desc, char *buf, size_t len)
{
    char a[48];
    if (!desc) return snprintf(buf, len, "no descriptor (desc is NULL)"), buf;
    if (!desc->name) return snprintf(buf, len, "desc.name is NULL (the kind's name, steer.NAME in Lua)"), buf;
    if (!identifier(desc->name))
        return snprintf(buf, len,
                        "desc.name '%s' is not an identifier (letters, digits and _, not starting with a digit)",
                        shown(desc->name, a)),
               buf;
    if (steerB_find_kind(desc->name))
        return snprintf(buf, len, "desc.name '%s' is a built-in behaviour's name", desc->name), buf;
    if (!desc->fn) return snprintf(buf, len, "desc.fn is NULL ('%s' has no function to call)", desc->name), buf;
    if (desc->memory < 0 || desc->memory > STEER_HOST_MAX_MEMORY)
        return snprintf(buf, len, "desc.memory %d is out of range (0 to %d floats per agent)", desc->memory,
                        STEER_HOST_MAX_MEMORY),
               buf;
    for (int np = 0; desc->params && desc->params[np]; np++) {
        const char *p = desc->params[np];
        if (np == STEER_HOST_MAX_PARAMS)
            return snprintf(buf, len, "desc.params has more than %d names", STEER_HOST_MAX_PARAMS), buf;
        if (!identifier(p))
            return snprintf(buf, len,
                            "desc.params[%d] '%s' is not an identifier (letters, digits and _, not starting with a "
                            "digit)",
                            np, shown(p, a)),
                   buf;
        if (strcmp(p, "target") == 0)
            return snprintf(buf, len,
                            "desc.params[%d] is 'target', which is reserved (set desc.target for a target field)", np),
                   buf;
        if (strcmp(p, "name") == 0)
            return snprintf(buf, len, "desc.params[%d] is 'name', which is reserved (every behaviour's label)", np),
                   buf;
        for (int j = 0; j < np; j++)
            if (strcmp(desc->params[j], p) == 0)
                return snprintf(buf, len, "desc.params[%d] '%s' is there twice (as desc.params[%d] too)", np, p, j),
                       buf;
        if (desc->defaults && !isfinite(desc->defaults[np]))
            return snprintf(buf, len, "desc.defaults[%d] (of '%s') is not finite", np, p), buf;
    }
    return NULL;
}

int steer_host_kind_new(const steer_HostBehaviorDesc *desc, steer_HostKind **out)
{
    char why[160];
    STEERA_NONNULL(out, "a place for the new kind", STEER_EARG);
    if (steerB_host_desc_error(desc, why, sizeof why)) {
        steerA_refuse_why("steer_host_kind_new: desc: %s", why);
        return STEER_EARG;
    }
    int np = 0;
    while (desc->params && desc->params[np]) np++;
    steer_HostKind *k = calloc(1, sizeof *k);
    if (!k) return STEER_ENOMEM;
    k->nparams = np;
    k->fn = desc->fn;
    k->ud = desc->ud;
    bool ok = (k->names[0] = dup(desc->name)) != NULL;
    for (int i = 0; ok && i < np; i++) {
        ok = (k->names[i + 1] = dup(desc->params[i])) != NULL;
        double def = desc->defaults ? desc->defaults[i] : 0.0;
        k->fields[i] =
            (steerB_Field){ k->names[i + 1], STEERB_NUMBER, (uint16_t)(offsetof(HostParams, v) + i * sizeof(float)),
                            (float)def,      -1e30,         1e30,
                            "a number",      NULL };
    }
    if (desc->target) k->fields[np] = (steerB_Field)STEERB_TARGET_ROW(HostParams, target, "target");
    if (!ok) {
        steer_host_kind_free(k);
        return STEER_ENOMEM;
    }
    k->kind.name = k->names[0];
    k->kind.fields = k->fields;
    k->kind.eval = host_eval;
    k->kind.mem_floats = (uint16_t)desc->memory;
    k->kind.host = k;
    *out = k;
    return STEER_OK;
}

void steer_host_kind_free(steer_HostKind *k)
{
    if (!k) return;
    for (int i = 0; i <= STEER_HOST_MAX_PARAMS; i++) free(k->names[i]);
    free(k);
}

const char *steer_host_kind_name(const steer_HostKind *k)
{
    STEERA_NONNULL(k, "a host kind (steer_host_kind_new)", NULL);
    return k->kind.name;
}

const void *steerB_host_kind(const steer_HostKind *k) { return &k->kind; }

// The core makes nodes of a host kind knowing only this (src/core/tree.c).
_Static_assert(offsetof(struct steer_HostKind, kind) == 0, "a steer_HostKind starts with its steerB_Kind");
