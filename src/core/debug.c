// SPDX-License-Identifier: MIT
// debug.c — the world's side of steer_debug.h: its columns handed out as
// read-only arrays, its shapes, and each agent's brain node by node with
// what the recorded outputs say (which child won a priority, how much
// truncation cut a sum). The grids and flow fields are nav's (nav/debug.c).
//
// Nothing here allocates or writes to the world: a renderer may call it
// every frame. Storage is read as it stands between ticks, removed agents
// included until the next tick compacts them (compacting here would change
// which slot the next spawn reuses, and with it the trajectory).
#include "steer_debug.h"
#include "brain.h"
#include "pmath.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int steer_debug_agents(const steer_World *w, steer_DebugAgents *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a steer_DebugAgents to fill", STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    memset(out, 0, sizeof *out);
    out->count = (int)w->count;
    out->removed = (int)w->dead;
    out->dim = w->dim;
    for (int i = 0; i < 3; i++) {
        out->position[i] = w->p[i];
        out->velocity[i] = w->v[i];
        out->heading[i] = w->h[i];
        out->force[i] = w->f[i];
    }
    out->mass = w->mass;
    out->max_speed = w->max_speed;
    out->max_force = w->max_force;
    out->radius = w->radius;
    out->tag = w->tag;
    return STEER_OK;
}

steer_Agent steer_debug_agent_handle(const steer_World *w, int i)
{
    STEERA_WORLD(w, STEER_NO_AGENT);
    if (i < 0 || (uint32_t)i >= w->count || (w->flags[i] & STEER_AF_DEAD)) return STEER_NO_AGENT;
    return steerW_handle(w, (uint32_t)i);
}

const char *steer_debug_tag_name(const steer_World *w, int tag)
{
    STEERA_WORLD(w, NULL);
    return tag > 0 && (uint32_t)tag < w->ntags ? w->tags[tag] : NULL;
}

// The agent's dense index and brain (NULL: none), or a status.
static int agent_brain(const steer_World *w, steer_Agent a, uint32_t *d, const steerB_Brain **b)
{
    if (!w) return STEER_EARG;
    if (w->in_tick) return STEER_EBUSY;
    int64_t dd = steerW_dense(w, a);
    if (dd < 0) return STEER_ESTALE;
    *d = (uint32_t)dd;
    *b = w->brain[dd] ? w->brains[w->brain[dd]] : NULL;
    return STEER_OK;
}

// The agent's recorded node outputs, or NULL when the world records none.
static const float *recorded(const steer_World *w, uint32_t d)
{
    return w->record && w->rec_stride ? w->rec + (size_t)d * w->rec_stride : NULL;
}

int steer_debug_agent(const steer_World *w, steer_Agent a, steer_DebugAgent *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a steer_DebugAgent to fill", STEER_EARG);
    uint32_t d;
    const steerB_Brain *b;
    int st = agent_brain(w, a, &d, &b);
    if (st != STEER_OK) return st;
    out->index = (int)d;
    out->nodes = b ? (int)b->nnodes : 0;
    out->recorded = recorded(w, d) != NULL;
    out->sense = b ? b->sense : 0;
    return STEER_OK;
}

static float len3(const float *f) { return sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]); }

// Node i's parent (-1 for the root): nodes are depth-first, so it is the
// last earlier node that lists i among its children.
static int parent_of(const steerB_Brain *b, uint32_t i)
{
    for (uint32_t p = i; p-- > 0;) {
        const steerB_Node *n = &b->nodes[p];
        for (uint16_t k = 0; k < n->nchild; k++)
            if (b->kids[n->first + k] == i) return (int)p;
    }
    return -1;
}

// What the node's output says of its children, as its kind explains it
// (steerB_Kind.explain), and of the root's force against max_force. The
// rules and the texts are the inspector's: a winner passes its force on
// unchanged, so it is the first child whose output equals the node's; a
// sum's cut is the weighted sum's length less the output's.
static void explain(const steer_World *w, uint32_t d, const steerB_Brain *b, uint32_t i, const float *rec,
                    steer_DebugNode *out)
{
    const steerB_Node *node = &b->nodes[i];
    const float *f = rec + 3 * i;
    char *note = out->note;
    size_t cap = sizeof out->note;
    if (node->kind->explain == STEERB_EXPLAIN_WINNER) {
        for (uint16_t k = 0; k < node->nchild; k++) {
            uint16_t c = b->kids[node->first + k];
            const float *cf = rec + 3 * c;
            if (len3(f) > 0 && cf[0] == f[0] && cf[1] == f[1] && cf[2] == f[2]) {
                const steerB_Node *cn = &b->nodes[c];
                snprintf(note, cap, "%.40s won (child %d)", cn->name ? cn->name : cn->kind->name, k + 1);
                out->winner = c;
                out->winner_child = k + 1;
                out->note_kind = STEER_NOTE_WON;
                break;
            }
        }
        if (!note[0]) {
            snprintf(note, cap, "no child over epsilon");
            out->note_kind = STEER_NOTE_NO_WINNER;
        }
    } else if (node->kind->explain == STEERB_EXPLAIN_SUM) {
        float raw[3] = { 0, 0, 0 };
        for (uint16_t k = 0; k < node->nchild; k++) {
            uint16_t c = b->kids[node->first + k];
            for (int j = 0; j < 3; j++) raw[j] += b->nodes[c].weight * rec[3 * c + j];
        }
        float lr = len3(raw), lo = len3(f);
        out->raw = lr;
        if (lr > lo + 1e-4f * (1 + lr)) {
            snprintf(note, cap, "cut %.2f of %.2f", (double)(lr - lo), (double)lr);
            out->note_kind = STEER_NOTE_CUT;
        }
    }
    if (i == 0) {
        float mf = w->max_force[d], lf = len3(f);
        if (lf > mf * 1.0001f) {
            size_t used = strlen(note);
            snprintf(note + used, cap - used, "%s> max_force %.2f", used ? ", " : "", (double)mf);
            out->note_kind = STEER_NOTE_CUT;
        }
    }
    // the parent's view of this child: a priority's loser or a skipped child
    if (i > 0 && len3(f) == 0 && !note[0]) {
        snprintf(note, cap, "quiet / not run");
        out->note_kind = STEER_NOTE_QUIET;
    }
}

int steer_debug_node(const steer_World *w, steer_Agent a, int i, steer_DebugNode *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a steer_DebugNode to fill", STEER_EARG);
    uint32_t d;
    const steerB_Brain *b;
    int st = agent_brain(w, a, &d, &b);
    if (st != STEER_OK) return st;
    if (!b || i < 0 || (uint32_t)i >= b->nnodes) return STEER_EARG;
    const steerB_Node *node = &b->nodes[i];
    memset(out, 0, sizeof *out);
    out->index = i;
    out->parent = parent_of(b, (uint32_t)i);
    for (int p = out->parent; p >= 0; p = parent_of(b, (uint32_t)p)) out->depth++;
    out->children = node->nchild;
    out->name = node->name ? node->name : node->kind->name;
    out->kind = node->kind->name;
    out->weighted = out->parent >= 0 && b->nodes[out->parent].kind->children == STEERB_WEIGHTED;
    out->weight = node->weight;
    out->winner = -1;
    out->target_kind = STEER_TARGET_SLOT;
    for (const steerB_Field *f = node->kind->fields; f && f->name; f++) {
        const void *at = node->params + f->offset;
        if (f->type == STEERB_TARGET && out->target_kind == STEER_TARGET_SLOT) {
            const steerB_Target *t = at;
            if (t->kind == STEER_TARGET_POINT || t->kind == STEER_TARGET_AGENT) {
                out->target_kind = t->kind;
                memcpy(out->target, t->p, sizeof out->target);
                out->target_agent = t->agent;
            }
        } else if (f->type == STEERB_POINTS && !out->points) {
            const steerB_Points *pts = at;
            out->points = pts->p;
            out->npoints = (int)pts->n;
        }
    }
    if (node->kind->route && w->mem) {
        float p[3];
        steerW_load(w->p, d, p);
        memcpy(out->route, p, sizeof p);
        out->nroute = 1 + node->kind->route(steerW_mem(w, d) + node->mem, out->route + 3, STEER_DEBUG_ROUTE, out->note,
                                            sizeof out->note);
    }
    const float *rec = recorded(w, d);
    if (rec) {
        out->recorded = true;
        memcpy(out->force, rec + 3 * i, sizeof out->force);
        explain(w, d, b, (uint32_t)i, rec, out);
    }
    return STEER_OK;
}

// The slots of a context node: its record's length less the head, halved.
static int map_slots(const steerB_Node *n)
{
    return n->kind->rec_of ? (n->kind->rec_of(n->params) - STEERB_MAPS_HEAD) / 2 : 0;
}

int steer_debug_context(const steer_World *w, steer_Agent a, int node, steer_DebugContext *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a steer_DebugContext to fill", STEER_EARG);
    uint32_t d;
    const steerB_Brain *b;
    int st = agent_brain(w, a, &d, &b);
    if (st != STEER_OK) return st;
    if (!b) return STEER_EARG;
    if (node < 0)
        for (uint32_t i = 0; i < b->nnodes && node < 0; i++)
            if (b->nodes[i].kind->explain == STEERB_EXPLAIN_MAPS) node = (int)i;
    if (node < 0 || (uint32_t)node >= b->nnodes || b->nodes[node].kind->explain != STEERB_EXPLAIN_MAPS)
        return STEER_EARG;
    const steerB_Node *n = &b->nodes[node];
    int slots = map_slots(n);
    if (slots < 1 || slots > STEER_DEBUG_SLOTS) return STEER_EARG;
    memset(out, 0, sizeof *out);
    out->node = node;
    out->slots = slots;
    out->chosen = -1;
    const float *rec = recorded(w, d);
    if (!rec || !n->rec) return STEER_OK;
    const float *m = rec + n->rec;
    out->recorded = true;
    memcpy(out->interest, m + STEERB_MAPS_HEAD, sizeof(float) * (size_t)slots);
    memcpy(out->danger, m + STEERB_MAPS_HEAD + slots, sizeof(float) * (size_t)slots);
    for (int i = 0; i < slots; i++)
        if (out->danger[i] > m[STEERB_MAPS_CUTOFF]) {
            out->masked |= (uint64_t)1 << i;
            out->nmasked++;
        }
    float c = m[STEERB_MAPS_CHOSEN];
    if (c >= 0.0f && c < (float)slots) {
        out->chosen = (int)c;
        out->direction[0] = steerM_cosf(m[STEERB_MAPS_ANGLE]);
        out->direction[1] = steerM_sinf(m[STEERB_MAPS_ANGLE]);
        out->speed = m[STEERB_MAPS_SPEED];
    }
    return STEER_OK;
}

int steer_debug_paths(const steer_World *w, steer_DebugPathFn fn, void *ud)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(fn, "a steer_DebugPathFn", STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        const steerB_Brain *br = w->brains[i];
        if (!br) continue;
        for (uint32_t k = 0; k < br->nnodes; k++) {
            const steerB_Node *n = &br->nodes[k];
            for (const steerB_Field *f = n->kind->fields; f && f->name; f++) {
                if (f->type != STEERB_POINTS) continue;
                const steerB_Points *pts = (const steerB_Points *)(const void *)(n->params + f->offset);
                fn(ud, pts->p, (int)pts->n);
            }
        }
    }
    return STEER_OK;
}

int steer_debug_routes(const steer_World *w, steer_DebugPathFn fn, void *ud)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(fn, "a steer_DebugPathFn", STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    float xyz[3 * (STEER_DEBUG_ROUTE + 1)];
    char note[64];
    for (uint32_t d = 0; d < w->count && w->mem; d++) {
        const steerB_Brain *br = w->brain[d] ? w->brains[w->brain[d]] : NULL;
        for (uint32_t k = 0; br && k < br->nnodes; k++) {
            const steerB_Node *n = &br->nodes[k];
            if (!n->kind->route) continue;
            int m = n->kind->route(steerW_mem(w, d) + n->mem, xyz + 3, STEER_DEBUG_ROUTE, note, sizeof note);
            if (m <= 0) continue;
            steerW_load(w->p, d, xyz);
            fn(ud, xyz, m + 1);
        }
    }
    return STEER_OK;
}

int steer_debug_shape_slots(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return (int)w->geo.nshapes;
}

int steer_debug_extent(const steer_World *w, double lo[3], double hi[3])
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(lo, "a double[3] to write", STEER_EARG);
    STEERA_NONNULL(hi, "a double[3] to write", STEER_EARG);
    for (int i = 0; i < 3; i++) {
        lo[i] = 1e30;
        hi[i] = -1e30;
    }
    for (int i = 0; i < w->dim; i++)
        if (w->size[i] > 0) {
            lo[i] = w->origin[i];
            hi[i] = w->origin[i] + w->size[i];
        }
    steer_DebugAgents ag; // none during a tick, when the world is half updated
    if (steer_debug_agents(w, &ag) != STEER_OK) ag.count = 0;
    for (int d = 0; d < ag.count; d++)
        for (int i = 0; i < w->dim; i++)
            if (!(w->size[i] > 0)) {
                lo[i] = fmin(lo[i], ag.position[i][d]);
                hi[i] = fmax(hi[i], ag.position[i][d]);
            }
    for (int s = 0, n = steer_debug_shape_slots(w); s < n; s++) {
        steer_DebugShape sh;
        if (steer_debug_shape(w, s, &sh) != 1 || sh.kind == STEER_SHAPE_PLANE) continue;
        for (int i = 0; i < w->dim; i++) {
            float a = sh.a[i], b = sh.kind == STEER_SHAPE_CIRCLE ? sh.a[i] : sh.b[i];
            float r = sh.kind == STEER_SHAPE_CIRCLE ? sh.r : 0;
            lo[i] = fmin(lo[i], fmin(a, b) - r);
            hi[i] = fmax(hi[i], fmax(a, b) + r);
        }
    }
    for (int i = 0; i < 3; i++) {
        if (i >= w->dim || lo[i] > hi[i]) {
            lo[i] = -10;
            hi[i] = 10;
        }
        if (hi[i] - lo[i] < 1) {
            lo[i] -= 0.5;
            hi[i] += 0.5;
        }
    }
    return STEER_OK;
}

int steer_debug_shape(const steer_World *w, int i, steer_DebugShape *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a steer_DebugShape to fill", STEER_EARG);
    if (i < 0 || (uint32_t)i >= w->geo.nshapes) return STEER_EARG;
    const steerW_Shape *sh = &w->geo.shapes[i];
    if (!sh->alive) return 0;
    out->shape = (steer_Shape){ ((uint64_t)sh->gen << 32) | (uint32_t)i };
    out->kind = sh->kind;
    memcpy(out->a, sh->a, sizeof out->a);
    memcpy(out->b, sh->b, sizeof out->b);
    out->r = sh->r;
    return 1;
}
