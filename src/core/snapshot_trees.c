// SPDX-License-Identifier: MIT
// snapshot_trees.c — a snapshot's behaviour trees, brains and extra roots
// (the format: docs/architecture.md, "Snapshots"; the rest of it is
// snapshot.c's).
//
// Every distinct node of every brain's tree and of the extra roots is
// written once, children before parents: its kind's name, its own name,
// each field of its kind's table by name and type, then its children as
// (node index, weight, role); each brain id names its root node (or none),
// and the extra roots are node indices, so shared subtrees stay shared. A
// load makes each node through the public API (steer_behavior_new and the
// setters, which check a value as they check a script's) and compiles the
// brains at their ids. One pair of functions, steerS_save_trees and
// steerS_load_trees, is all snapshot.c calls.
#include "snapshot.h"
#include "brain.h"

#include <stdio.h>
#include <string.h>

// ---- listing the nodes ---------------------------------------------------

// The nodes of a save, each distinct node once, in post-order, with an
// index from node to its place (open addressing: map -> map_id).
typedef struct Nodes {
    steer_World *w;                          // for its allocator only
    const steer_Behavior *root;              // the tree being listed
    const steer_Behavior **order, **root_of; // in post-order: each node, and the tree it was found in first
    uint32_t norder, cap_order;
    const steer_Behavior **map;
    uint32_t *map_id;
    uint32_t cap_map;
    const void **res; // the resources written so far (those that encode themselves), in order
    uint32_t nres, cap_res;
} Nodes;

static uint32_t ptr_hash(const void *p, uint32_t mask)
{
    uint64_t v = (uint64_t)(uintptr_t)p;
    return (uint32_t)((v * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

// The index of node b, or UINT32_MAX when it is not listed yet.
static uint32_t node_index(const Nodes *o, const steer_Behavior *b)
{
    if (!o->cap_map) return UINT32_MAX;
    uint32_t mask = o->cap_map - 1;
    for (uint32_t i = ptr_hash(b, mask); o->map[i]; i = (i + 1) & mask)
        if (o->map[i] == b) return o->map_id[i];
    return UINT32_MAX;
}

static bool map_put(Nodes *o, const steer_Behavior *b, uint32_t id)
{
    if (2 * (o->norder + 1) > o->cap_map) {
        uint32_t cap = o->cap_map ? o->cap_map * 2 : 64;
        const steer_Behavior **m = steerA_realloc(o->w, NULL, sizeof *m * cap);
        uint32_t *ids = steerA_realloc(o->w, NULL, sizeof *ids * cap);
        if (!m || !ids) {
            steerA_free(o->w, m);
            steerA_free(o->w, ids);
            return false;
        }
        memset(m, 0, sizeof *m * cap);
        for (uint32_t i = 0; i < o->cap_map; i++) {
            if (!o->map[i]) continue;
            uint32_t j = ptr_hash(o->map[i], cap - 1);
            while (m[j]) j = (j + 1) & (cap - 1);
            m[j] = o->map[i];
            ids[j] = o->map_id[i];
        }
        steerA_free(o->w, o->map);
        steerA_free(o->w, o->map_id);
        o->map = m;
        o->map_id = ids;
        o->cap_map = cap;
    }
    uint32_t mask = o->cap_map - 1, i = ptr_hash(b, mask);
    while (o->map[i]) i = (i + 1) & mask;
    o->map[i] = b;
    o->map_id[i] = id;
    return true;
}

// List b's subtree in post-order (children first), each node once; trees
// are at most STEERB_MAX_DEPTH deep, so the recursion is bounded.
static bool list_nodes(Nodes *o, const steer_Behavior *b)
{
    if (node_index(o, b) != UINT32_MAX) return true;
    for (uint16_t i = 0; i < b->nkids; i++)
        if (!list_nodes(o, b->kids[i])) return false;
    if (o->norder == o->cap_order) {
        uint32_t cap = o->cap_order ? o->cap_order * 2 : 64;
        const steer_Behavior **a = steerA_realloc(o->w, o->order, sizeof *a * cap);
        if (a) o->order = a;
        const steer_Behavior **r = a ? steerA_realloc(o->w, o->root_of, sizeof *r * cap) : NULL;
        if (!r) return false;
        o->root_of = r;
        o->cap_order = cap;
    }
    if (!map_put(o, b, o->norder)) return false;
    o->root_of[o->norder] = o->root;
    o->order[o->norder++] = b;
    return true;
}

// ---- the nodes ----------------------------------------------------------

// ---- references ----------------------------------------------------------

static const char CALLBACK[] = "callback"; // steer_Ref's type of a callback

// The number a save writes for a reference (steer_Ref): the host's, through
// its save_ref hook; without one a callback's own reference, a resource
// none. A refusal fails the save (*failed).
static uint32_t save_ref(const steer_World *w, steer_Ref *r, bool *failed)
{
    if (!r->ref && !r->obj) return 0;
    uint32_t out = 0;
    if (w->hooks.save_ref) {
        if (w->hooks.save_ref(w->hooks.ud, r, &out) != 0) *failed = true;
        return out;
    }
    return r->obj ? 0 : (uint32_t)r->ref;
}

// What a load's number stands for: the host's reference or object, through
// its load_ref hook; without one a callback's number is its reference and a
// resource stays none. False (and the load fails) when the host refuses.
static bool load_ref(steerS_Load *in, const steer_Ref *r, uint32_t v, int *ref, void **obj)
{
    *ref = 0;
    *obj = NULL;
    if (!v) return true;
    const steer_Hooks *h = &in->w->hooks;
    if (!h->load_ref) {
        if (r->type == CALLBACK) *ref = (int32_t)v;
        return true;
    }
    return h->load_ref(h->ud, r, v, ref, obj) == 0;
}

// A resource that encodes itself: its number among the resources written
// (1 on; 0 none) and, the first time, its bytes (a u32 length, then
// encode's). Shared resources stay shared: a later field gives the number
// only.
static void put_resource(steerS_Writer *o, Nodes *t, const steerB_ResourceKind *rk, const void *obj)
{
    uint32_t i = 0;
    while (obj && i < t->nres && t->res[i] != obj) i++;
    if (!obj || i < t->nres) {
        steerS_put_u32(o, obj ? i + 1 : 0);
        return;
    }
    if (t->nres == t->cap_res) {
        uint32_t cap = t->cap_res ? 2 * t->cap_res : 8;
        const void **r = steerA_realloc(t->w, (void *)t->res, sizeof *r * cap);
        if (!r) {
            o->failed = true;
            return;
        }
        t->res = r;
        t->cap_res = cap;
    }
    t->res[t->nres++] = obj;
    steerS_put_u32(o, t->nres);
    steerS_Writer bytes;
    steerS_writer_init(&bytes, t->w->alloc, t->w->alloc_ud);
    rk->encode(obj, &bytes);
    if (bytes.failed || bytes.n > UINT32_MAX) o->failed = true;
    else {
        steerS_put_u32(o, (uint32_t)bytes.n);
        steerS_put(o, bytes.p, bytes.n);
    }
    steerS_writer_free(&bytes);
}

// Its reader: the resource a number names, decoding it the first time (the
// load holds that reference until it ends: steerS_Load.res).
// `who` names what refers to it, for the messages.
static bool get_resource(steerS_Load *in, const char *who, const steerB_ResourceKind *rk, uint32_t v, void **obj)
{
    *obj = NULL;
    if (!v) return true;
    if (v <= in->nres) {
        if (in->res_kind[v - 1] != rk)
            return steerS_fail(&in->r, "%s: resource %u is a %s, not a %s", who, v, in->res_kind[v - 1]->name,
                               rk->name);
        *obj = in->res[v - 1];
        return true;
    }
    if (v != in->nres + 1) return steerS_fail(&in->r, "%s: resource %u before resource %u", who, v, in->nres + 1);
    if (in->nres == in->cap_res) {
        uint32_t cap = in->cap_res ? 2 * in->cap_res : 8;
        void **r = steerA_realloc(in->w, in->res, sizeof *r * cap);
        if (r) in->res = r;
        const steerB_ResourceKind **k = r ? steerA_realloc(in->w, (void *)in->res_kind, sizeof *k * cap) : NULL;
        if (!k) return steerS_load_oom(in);
        in->res_kind = k;
        in->cap_res = cap;
    }
    uint32_t n;
    const unsigned char *p = steerS_get_str(&in->r, &n);
    if (!p) return false;
    steerS_Reader sub;
    steerS_reader_init(&sub, p, n, in->r.err, in->r.errlen);
    sub.section = rk->name;
    bool oom = false;
    void *o = rk->decode(&sub, in->w->alloc, in->w->alloc_ud, &oom);
    if (o && (sub.failed || steerS_left(&sub))) {
        rk->release(o);
        o = NULL;
        if (!sub.failed) steerS_fail(&sub, "%zu bytes past the end of a %s", steerS_left(&sub), rk->name);
    }
    if (!o) {
        if (oom) return steerS_load_oom(in);
        if (!sub.failed) steerS_fail(&sub, "a %s that does not decode", rk->name);
        in->r.failed = true;
        return false;
    }
    in->res[in->nres] = o;
    in->res_kind[in->nres++] = rk;
    *obj = o;
    return true;
}

// One node: its kind's name, its own name, every field of its kind's
// table by name and type, and its children by index.
static void put_node(steerS_Writer *o, Nodes *t, uint32_t index, bool *failed)
{
    const steer_Behavior *b = t->order[index];
    steer_Ref ref = { .node = b, .root = t->root_of[index] }; // each reference field fills in the rest
    const steerB_Kind *k = b->kind;
    steerS_put_str(o, k->name);
    steerS_put_u8(o, b->name != NULL);
    if (b->name) steerS_put_str(o, b->name);
    uint32_t nf = 0;
    for (const steerB_Field *f = k->fields; f && f->name; f++) nf += f->type != STEERB_CHILDREN;
    steerS_put_u16(o, nf);
    int tag = 0;
    for (const steerB_Field *f = k->fields; f && f->name; f++) {
        if (f->type == STEERB_CHILDREN) continue;
        const unsigned char *at = b->params + f->offset;
        steerS_put_str(o, f->name);
        steerS_put_u8(o, (uint32_t)f->type);
        switch (f->type) {
        case STEERB_NUMBER: {
            float v;
            memcpy(&v, at, 4);
            steerS_put_f32(o, v);
            break;
        }
        case STEERB_TARGET: {
            steerB_Target target;
            memcpy(&target, at, sizeof target);
            steerS_put_u8(o, target.kind);
            if (target.kind == STEER_TARGET_POINT)
                for (int i = 0; i < 3; i++) steerS_put_f32(o, target.p[i]);
            if (target.kind == STEER_TARGET_AGENT) steerS_put_u64(o, target.agent.id);
            break;
        }
        case STEERB_CHOICE: steerS_put_str(o, f->choices[*at]); break;
        case STEERB_TAG: {
            const char *s = tag < 4 ? b->tags[tag] : NULL;
            tag++;
            steerS_put_u8(o, s != NULL);
            if (s) steerS_put_str(o, s);
            break;
        }
        case STEERB_CALLBACK: {
            int32_t cb;
            memcpy(&cb, at, 4);
            ref.field = f->name, ref.type = CALLBACK, ref.ref = cb, ref.obj = NULL;
            steerS_put_u32(o, save_ref(t->w, &ref, failed));
            break;
        }
        case STEERB_EASE: {
            steerB_Ease e;
            memcpy(&e, at, sizeof e);
            steerS_put_u8(o, e.curve);
            ref.field = f->name, ref.type = CALLBACK, ref.ref = e.ref, ref.obj = NULL;
            steerS_put_u32(o, e.curve == 2 ? save_ref(t->w, &ref, failed) : (uint32_t)e.ref);
            break;
        }
        case STEERB_RESOURCE: {
            const steerB_ResourceKind *rk = steerB_field_resource(f);
            ref.field = f->name, ref.type = rk->name, ref.ref = 0;
            ref.obj = steerB_resource(b, f);
            if (rk->encode) put_resource(o, t, rk, ref.obj);
            else steerS_put_u32(o, save_ref(t->w, &ref, failed));
            break;
        }
        case STEERB_VECTOR:
            for (int i = 0; i < 3; i++) {
                float v;
                memcpy(&v, at + 4 * i, 4);
                steerS_put_f32(o, v);
            }
            break;
        case STEERB_BOOL: steerS_put_u8(o, *at); break;
        case STEERB_POINTS: {
            steerB_Points pts;
            memcpy(&pts, at, sizeof pts);
            steerS_put_u32(o, pts.n);
            for (uint32_t i = 0; i < 3 * pts.n; i++) steerS_put_f32(o, pts.p[i]);
            break;
        }
        case STEERB_CHILDREN: break;
        }
    }
    steerS_put_u16(o, b->nkids);
    for (uint16_t i = 0; i < b->nkids; i++) {
        steerS_put_u32(o, node_index(t, b->kids[i]));
        steerS_put_f32(o, b->kid_weights[i]);
        steerS_put_u8(o, b->kid_roles[i]);
    }
}

static bool refused(steerS_Load *in, uint32_t i, const steer_Behavior *b, const steerB_Field *f)
{
    return steerS_fail(&in->r, "behaviour %u (%s): the host cannot resolve field '%s'", i, b->kind->name, f->name);
}

// A field of node i by its name and type, set through the public setter
// (which checks it as it checks a script's value).
static bool get_field(steerS_Load *in, uint32_t i, steer_Behavior *b)
{
    char name[64];
    const char *s = steerS_load_str(in, "a field name");
    if (!s) return false;
    if (strlen(s) >= sizeof name)
        return steerS_fail(&in->r, "behaviour %u (%s): a field name is too long", i, b->kind->name);
    strcpy(name, s);
    uint32_t type = steerS_get_u8(&in->r);
    const steerB_Field *f = b->kind->fields;
    while (f && f->name && strcmp(f->name, name) != 0) f++;
    if (!f || !f->name || f->type == STEERB_CHILDREN)
        return steerS_fail(&in->r, "behaviour %u (%s) has no field '%s'", i, b->kind->name, name);
    if (type != (uint32_t)f->type)
        return steerS_fail(&in->r, "behaviour %u (%s): field '%s' has type %u; this build's has %d", i, b->kind->name,
                           name, type, (int)f->type);
    int st = STEER_OK;
    switch (f->type) {
    case STEERB_NUMBER: {
        float v = steerS_get_f32(&in->r), def = f->def;
        // a default may lie outside the range a script may set (0: "automatic");
        // a bound is stored rounded (1e-6 as 9.99999997e-7): set as given
        if (memcmp(&v, &def, 4) != 0) st = steer_behavior_set_number(b, name, steerB_stored(v, f->min, f->max));
        break;
    }
    case STEERB_TARGET: {
        uint32_t kind = steerS_get_u8(&in->r);
        if (kind == STEER_TARGET_POINT) {
            double p[3];
            for (int k = 0; k < 3; k++) p[k] = steerS_get_f32(&in->r);
            st = steer_behavior_set_target_point(b, name, p);
        } else if (kind == STEER_TARGET_AGENT) {
            steer_Agent a = { steerS_get_u64(&in->r) };
            if (!a.id)
                return steerS_fail(&in->r, "behaviour %u (%s): field '%s' targets agent 0", i, b->kind->name, name);
            st = steer_behavior_set_target_agent(b, name, a);
            b->target_world = in->w;
        } else if (kind == STEER_TARGET_SLOT) {
            st = steer_behavior_set_target_agent(b, name, STEER_NO_AGENT);
        } else {
            return steerS_fail(&in->r, "behaviour %u (%s): field '%s' has target kind %u", i, b->kind->name, name,
                               kind);
        }
        break;
    }
    case STEERB_CHOICE: {
        const char *c = steerS_load_str(in, "a choice");
        st = c ? steer_behavior_set_choice(b, name, c) : STEER_EARG;
        break;
    }
    case STEERB_TAG:
        if (steerS_get_u8(&in->r)) {
            const char *t = steerS_load_str(in, "a tag");
            st = t ? steer_behavior_set_tag(b, name, t) : STEER_EARG;
        }
        break;
    case STEERB_CALLBACK: {
        int ref;
        void *obj;
        if (!load_ref(in, &(steer_Ref){ .node = b, .field = f->name, .type = CALLBACK }, steerS_get_u32(&in->r), &ref,
                      &obj))
            return refused(in, i, b, f);
        st = steer_behavior_set_callback(b, name, ref);
        break;
    }
    case STEERB_EASE: {
        uint32_t curve = steerS_get_u8(&in->r);
        int32_t ref = (int32_t)steerS_get_u32(&in->r);
        uint32_t nch = 0;
        while (f->choices && f->choices[nch]) nch++;
        if (curve == 2) {
            int cb;
            void *obj;
            if (!load_ref(in, &(steer_Ref){ .node = b, .field = f->name, .type = CALLBACK }, (uint32_t)ref, &cb, &obj))
                return refused(in, i, b, f);
            st = steer_behavior_set_callback(b, name, cb);
        } else if (curve < nch && !ref) st = steer_behavior_set_choice(b, name, f->choices[curve]);
        else return steerS_fail(&in->r, "behaviour %u (%s): field '%s' has a bad ease", i, b->kind->name, name);
        break;
    }
    case STEERB_VECTOR: {
        double v[3];
        for (int k = 0; k < 3; k++) v[k] = steerS_get_f32(&in->r);
        st = steer_behavior_set_vector(b, name, v);
        break;
    }
    case STEERB_BOOL: {
        uint32_t v = steerS_get_u8(&in->r);
        if (v > 1)
            return steerS_fail(&in->r, "behaviour %u (%s): field '%s' is neither true nor false", i, b->kind->name,
                               name);
        st = steer_behavior_set_bool(b, name, v);
        break;
    }
    case STEERB_POINTS: {
        uint32_t n = steerS_get_u32(&in->r);
        if (in->r.failed) return false;
        if (n > steerS_left(&in->r) / 12) return steerS_fail(&in->r, "snapshot truncated in %s", in->r.section);
        double *xyz = steerA_realloc(in->w, NULL, sizeof(double) * 3 * (n ? n : 1));
        if (!xyz) return steerS_load_oom(in);
        for (uint32_t k = 0; k < 3 * n; k++) xyz[k] = steerS_get_f32(&in->r);
        if (n) st = steer_behavior_set_points(b, name, xyz, (int)n); // none: as new
        steerA_free(in->w, xyz);
        break;
    }
    case STEERB_RESOURCE: {
        const steerB_ResourceKind *rk = steerB_field_resource(f);
        int ref;
        void *obj = NULL;
        uint32_t v = steerS_get_u32(&in->r);
        if (rk->decode) {
            char who[96];
            snprintf(who, sizeof who, "behaviour %u (%s)", i, b->kind->name);
            if (!in->r.failed && !get_resource(in, who, rk, v, &obj)) return false;
        } else if (!in->r.failed &&
                   !load_ref(in, &(steer_Ref){ .node = b, .field = f->name, .type = rk->name }, v, &ref, &obj))
            return refused(in, i, b, f);
        if (obj) st = steerB_set_resource(b, name, rk, obj);
        break;
    }
    case STEERB_CHILDREN: break;
    }
    if (in->r.failed) return false;
    if (st == STEER_ENOMEM) return steerS_load_oom(in);
    if (st) return steerS_fail(&in->r, "behaviour %u (%s): %s", i, b->kind->name, steer_behavior_error(b));
    return true;
}

// Node i of the trees: its kind (a built-in, else the host's through
// hooks.find_kind), name, fields and children (earlier nodes).
static bool get_node(steerS_Load *in, uint32_t i)
{
    const char *kind = steerS_load_str(in, "a kind name");
    if (!kind) return false;
    steer_Behavior *b = NULL;
    if (steer_behavior_new(kind, &b) == STEER_EARG) {
        const steer_HostKind *hk = in->w->hooks.find_kind ? in->w->hooks.find_kind(in->w->hooks.ud, kind) : NULL;
        if (!hk) return steerS_fail(&in->r, "unknown behaviour kind '%s'", kind);
        steer_behavior_new_host(hk, &b);
    }
    if (!b) return steerS_load_oom(in);
    in->nodes[in->nnodes++] = b;
    if (steerS_get_u8(&in->r)) {
        const char *name = steerS_load_str(in, "a behaviour's name");
        if (name && steer_behavior_set_name(b, name) != STEER_OK) return steerS_load_oom(in);
    }
    uint32_t nf = steerS_get_u16(&in->r);
    for (uint32_t k = 0; k < nf && !in->r.failed; k++) get_field(in, i, b);
    // before version 3 a snapshot held no resource: the host may know them by node
    for (const steerB_Field *f = b->kind->fields; in->version < 3 && f && f->name && !in->r.failed; f++) {
        if (f->type != STEERB_RESOURCE) continue;
        const steerB_ResourceKind *rk = steerB_field_resource(f);
        int ref;
        void *obj;
        if (!load_ref(in, &(steer_Ref){ .node = b, .field = f->name, .type = rk->name, .by_node = true }, i + 1, &ref,
                      &obj))
            return refused(in, i, b, f);
        if (obj && steerB_set_resource(b, f->name, rk, obj) != STEER_OK) return steerS_load_oom(in);
    }
    uint32_t nk = steerS_get_u16(&in->r);
    for (uint32_t k = 0; k < nk && !in->r.failed; k++) {
        uint32_t c = steerS_get_u32(&in->r);
        float weight = steerS_get_f32(&in->r);
        uint32_t role = steerS_get_u8(&in->r);
        if (in->r.failed) return false;
        if (c >= i) return steerS_fail(&in->r, "behaviour %u's child %u is not an earlier behaviour", i, c);
        int st;
        if (role == 0) {
            st = steer_behavior_add_child(b, in->nodes[c], weight);
        } else {
            const steerB_Field *f = b->kind->fields;
            for (uint32_t r = 0; f && f->name; f++)
                if (f->type == STEERB_CHILDREN && ++r == role) break;
            if (!f || !f->name)
                return steerS_fail(&in->r, "behaviour %u (%s) has no child list %u", i, b->kind->name, role);
            st = steerB_add_child_to(b, f->name, in->nodes[c], weight);
        }
        if (st == STEER_ENOMEM) return steerS_load_oom(in);
        if (st) return steerS_fail(&in->r, "behaviour %u (%s): %s", i, b->kind->name, steer_behavior_error(b));
    }
    return !in->r.failed;
}
// ---- the section ----------------------------------------------------------

// Each distinct node of the brains' trees and of the extra roots, then the
// brains by root, the extra roots by node index and the resources attached
// to the world.
bool steerS_save_trees(steerS_Save *s, steer_Behavior *const *roots, uint32_t nroots)
{
    const steer_World *w = s->w;
    Nodes t;
    memset(&t, 0, sizeof t);
    t.w = (steer_World *)w; // its allocator: nothing of the world changes
    bool ok = true;
    for (uint32_t i = 1; ok && i < w->nbrains; i++)
        if (w->brains[i]) ok = list_nodes(&t, t.root = w->brains[i]->root);
    for (uint32_t i = 0; ok && i < nroots; i++) ok = list_nodes(&t, t.root = roots[i]);
    if (ok) {
        steerS_Writer *o = &s->out;
        s->count[STEERS_SNAP_NODES] = t.norder;
        for (uint32_t i = 0; i < t.norder; i++) put_node(o, &t, i, &s->ref_failed);
        s->count[STEERS_SNAP_BRAINS] = w->nbrains;
        for (uint32_t i = 1; i < w->nbrains; i++)
            steerS_put_u32(o, w->brains[i] ? node_index(&t, w->brains[i]->root) + 1 : 0);
        steerS_put_u32(o, nroots);
        for (uint32_t i = 0; i < nroots; i++) steerS_put_u32(o, node_index(&t, roots[i]));
        // (version 5) the resources attached to the world that save themselves:
        // each its kind's type, then as a field gives it (shared with the trees')
        uint32_t n = 0;
        for (uint32_t i = 0; i < w->nattached; i++) n += w->attached[i].kind->encode != NULL;
        steerS_put_u32(o, n);
        for (uint32_t i = 0; i < w->nattached; i++) {
            const struct steerW_Attached *a = &w->attached[i];
            if (!a->kind->encode) continue;
            steerS_put_str(o, a->kind->type);
            put_resource(o, &t, a->kind, a->obj);
        }
    }
    steerA_free(t.w, (void *)t.order);
    steerA_free(t.w, (void *)t.root_of);
    steerA_free(t.w, (void *)t.map);
    steerA_free(t.w, t.map_id);
    steerA_free(t.w, (void *)t.res);
    return ok;
}

// The resource kind of type `type` that saves itself: one a field of a
// built-in kind holds (the kinds' table is the core's one way to them).
static const steerB_ResourceKind *saved_kind(const char *type)
{
    for (int k = 0; steerB_kinds[k]; k++)
        for (const steerB_Field *f = steerB_kinds[k]->fields; f && f->name; f++)
            if (f->type == STEERB_RESOURCE && steerB_field_resource(f)->decode &&
                strcmp(steerB_field_resource(f)->type, type) == 0)
                return steerB_field_resource(f);
    return NULL;
}

// The behaviour trees and the brains, compiled at their ids, then the
// extra roots (version 2 on), then the resources attached to the world
// (version 5 on).
bool steerS_load_trees(steerS_Load *in)
{
    steer_World *w = in->w;
    uint32_t nnodes = in->count[STEERS_SNAP_NODES], nbrains = in->count[STEERS_SNAP_BRAINS];
    in->r.section = "the behaviours";
    if (nnodes > steerS_left(&in->r) / 8) return steerS_fail(&in->r, "snapshot truncated in the behaviours");
    if (nnodes) {
        in->nodes = steerA_realloc(w, NULL, sizeof *in->nodes * nnodes);
        if (!in->nodes) return steerS_load_oom(in);
    }
    for (uint32_t i = 0; i < nnodes && !in->r.failed; i++) get_node(in, i);
    if (in->r.failed) return false;
    in->r.section = "the brains";
    if (nbrains > UINT16_MAX) return steerS_fail(&in->r, "%u brains; a world holds at most %d", nbrains, UINT16_MAX);
    if (nbrains) {
        w->brains = steerA_realloc(w, NULL, sizeof *w->brains * nbrains);
        if (!w->brains) return steerS_load_oom(in);
        memset(w->brains, 0, sizeof *w->brains * nbrains);
        w->nbrains = nbrains;
    }
    for (uint32_t i = 1; i < nbrains; i++) {
        uint32_t root = steerS_get_u32(&in->r);
        if (in->r.failed) return false;
        if (!root) continue;
        if (root > nnodes) return steerS_fail(&in->r, "brain %u's tree %u is out of range", i, root - 1);
        steer_Behavior *b = in->nodes[root - 1];
        for (uint32_t j = 1; j < i; j++)
            if (w->brains[j] && w->brains[j]->root == b)
                return steerS_fail(&in->r, "brains %u and %u share a tree", j, i);
        int st;
        steerB_Brain *br = steerB_compile(w, b, &st);
        if (!br)
            return st == STEER_ENOMEM ? steerS_load_oom(in)
                                      : steerS_fail(&in->r, "brain %u: %s", i, steer_behavior_error(b));
        w->brains[i] = br;
        if (br->sense > w->sense_radius) w->sense_radius = br->sense;
        if (br->rec_floats > w->rec_need) w->rec_need = br->rec_floats;
        if (w->mem_base + br->mem_floats > w->mem_stride)
            return steerS_fail(&in->r, "brain %u needs %u floats of memory; the rows hold %u", i,
                               w->mem_base + br->mem_floats, w->mem_stride);
    }
    if (in->version < 2) return true;
    in->r.section = "the extra roots";
    uint32_t nroots = steerS_get_u32(&in->r);
    if (in->r.failed) return false;
    if (nroots > steerS_left(&in->r) / 4) return steerS_fail(&in->r, "snapshot truncated in the extra roots");
    if (nroots) {
        in->roots = steerA_realloc(w, NULL, sizeof *in->roots * nroots);
        if (!in->roots) return steerS_load_oom(in);
    }
    for (uint32_t i = 0; i < nroots; i++) {
        uint32_t root = steerS_get_u32(&in->r);
        if (in->r.failed) return false;
        if (root >= nnodes) return steerS_fail(&in->r, "extra root %u's tree %u is out of range", i, root);
        in->roots[in->nroots++] = root;
    }
    if (in->version < 5) return true;
    in->r.section = "the attached resources";
    uint32_t nattached = steerS_get_u32(&in->r);
    if (in->r.failed) return false;
    if (nattached > steerS_left(&in->r) / 8) return steerS_fail(&in->r, "snapshot truncated in the attached resources");
    for (uint32_t i = 0; i < nattached; i++) {
        const char *type = steerS_load_str(in, "a resource's type");
        if (!type) return false;
        const steerB_ResourceKind *rk = saved_kind(type);
        if (!rk)
            return steerS_fail(&in->r, "attached resource %u is a %s, a kind of resource this build has not", i, type);
        char who[64];
        snprintf(who, sizeof who, "attached resource %u", i);
        void *obj;
        uint32_t v = steerS_get_u32(&in->r);
        if (in->r.failed || !get_resource(in, who, rk, v, &obj)) return false;
        if (!obj) return steerS_fail(&in->r, "attached resource %u is none", i);
        int st = steerW_attach(w, rk, obj, NULL);
        if (st == STEER_ENOMEM) return steerS_load_oom(in);
        if (st == 0) return steerS_fail(&in->r, "attached resource %u is attached twice", i);
    }
    return true;
}

void steerS_load_trees_end(steerS_Load *in, steer_World *w)
{
    for (uint32_t i = 0; i < in->nres; i++) in->res_kind[i]->release(in->res[i]);
    steerA_free(w, in->res);
    steerA_free(w, (void *)in->res_kind);
    in->res = NULL, in->res_kind = NULL, in->nres = in->cap_res = 0;
}
