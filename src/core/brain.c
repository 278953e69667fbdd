// SPDX-License-Identifier: MIT
// brain.c — flattening a behaviour tree into a brain, initialising an
// agent's memory for it, the neighbour summaries nodes read, and the
// world's table of brains (ids, their users, collection). Above the store
// (store.c: tags, the memory rows' stride), below the roof (world.c).
#include "brain.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- compile -----------------------------------------------------------

// Count the nodes of the flattened tree into *n (a behaviour shared by
// several parents counts once per parent); false as soon as it is deeper
// than STEERB_MAX_DEPTH or has more than STEERB_MAX_NODES, so a DAG that
// would flatten to millions of nodes costs at most that many steps.
static bool count_nodes(const steer_Behavior *b, int depth, uint32_t *n)
{
    if (depth > STEERB_MAX_DEPTH || ++*n > STEERB_MAX_NODES) return false;
    for (uint16_t i = 0; i < b->nkids; i++)
        if (!count_nodes(b->kids[i], depth + 1, n)) return false;
    return true;
}

typedef struct Flat {
    steer_World *w;
    steer_Behavior *root;
    steerB_Brain *br;
    uint32_t next, next_kid;
    bool ok, bad;
    bool more; // a node reads more of the neighbour list than its nearest
} Flat;

// A node fails its checks: its own error says why, and the root's (which
// the caller reports) names the node too.
static void flat_fail(Flat *fl, steer_Behavior *b, const char *msg)
{
    steerB_fail(b, STEER_EARG, "%s", msg);
    if (!fl->bad && b != fl->root) steerB_fail(fl->root, STEER_EARG, "%s: %s", steer_behavior_name(b), msg);
    fl->bad = true;
}

static uint32_t flatten(Flat *fl, steer_Behavior *b, float weight)
{
    uint32_t i = fl->next++;
    steerB_Node *n = &fl->br->nodes[i];
    b->frozen = true;
    n->kind = b->kind;
    n->name = steer_behavior_name(b);
    n->weight = weight;
    n->mem = fl->br->mem_floats;
    fl->br->mem_floats += b->kind->mem_of ? b->kind->mem_of(b->params) : b->kind->mem_floats;
    memcpy(n->params, b->params, STEERB_PARAMS);
    char msg[160];
    if (b->kind->check && !b->kind->check(b->params, msg, sizeof msg)) flat_fail(fl, b, msg);
    // a CHILDREN field with a min needs that many children (a C host may have given none)
    uint8_t role = 0;
    for (const steerB_Field *f = b->kind->fields; f && f->name; f++) {
        if (f->type != STEERB_CHILDREN) continue;
        int have = 0;
        role++;
        for (uint16_t k = 0; k < b->nkids; k++) have += b->kid_roles[k] == role;
        if (have < (int)f->min) {
            snprintf(msg, sizeof msg, "field '%s' expects %s, got %d", f->name, f->expect, have);
            flat_fail(fl, b, msg);
        }
    }
    // a handle names an agent of one world only (in another it is stale, or another agent)
    if (b->target_world && b->target_world != fl->w)
        flat_fail(fl, b, "it targets an agent of another world; expected an agent of this world");
    // tags become the world's tag ids
    int t = 0;
    for (const steerB_Field *f = b->kind->fields; f && f->name; f++) {
        if (f->type != STEERB_TAG) continue;
        int id = b->tags[t] ? steerT_tag_id(fl->w, b->tags[t]) : 0;
        if (id == STEER_EFULL) flat_fail(fl, b, "the world already has 65535 distinct tags, the most it can hold");
        else if (id < 0) fl->ok = false;
        *(uint16_t *)(void *)(n->params + f->offset) = (uint16_t)(id < 0 ? 0 : id);
        t++;
    }
    if (b->kind->derive) b->kind->derive(n->params);
    n->sum = STEERB_NO_SUM;
    if (b->kind->faces) fl->br->faces = true;
    // a node whose options need no neighbours may sense 0: it reads none
    float r = b->kind->sense ? b->kind->sense(n) : 0.0f;
    if (r > 0.0f) {
        steerB_Brain *br = fl->br;
        if (r > br->sense) br->sense = r;
        // untagged summary nodes share a slot per radius
        bool tagged = false;
        for (const steerB_Field *f = b->kind->fields; f && f->name; f++)
            if (f->type == STEERB_TAG && *(const uint16_t *)(const void *)(n->params + f->offset)) tagged = true;
        if (b->kind->summary && !tagged) {
            for (uint8_t k = 0; k < br->nsums; k++)
                if (br->sum_r2[k] == r * r) n->sum = k;
            if (n->sum == STEERB_NO_SUM && br->nsums < STEERB_MAX_SUMS) {
                n->sum = br->nsums;
                br->sum_r2[br->nsums++] = r * r;
            }
            if (n->sum != STEERB_NO_SUM) br->sum_need[n->sum] |= b->kind->summary;
        }
        if (n->sum == STEERB_NO_SUM) {
            // k nearest readers only: the most any of them reads (0 once one reads more)
            int k = b->kind->nearest ? b->kind->nearest(n) : 0;
            if (k < 1 || k > 255) fl->more = true;
            else if (k > br->nearest) br->nearest = (uint8_t)k;
            br->list = true;
        }
    }
    n->nchild = b->nkids;
    n->first = (uint16_t)fl->next_kid;
    fl->next_kid += b->nkids;
    for (uint16_t k = 0; k < b->nkids; k++) {
        uint32_t c = flatten(fl, b->kids[k], b->kid_weights[k]);
        // nodes may have moved? no: the node array is allocated up front
        fl->br->kids[fl->br->nodes[i].first + k] = (uint16_t)c;
        fl->br->kid_roles[fl->br->nodes[i].first + k] = b->kid_roles[k];
    }
    return i;
}

// Whether the node runs host code: a host kind, a callback or an ease function.
static bool calls_host(const steerB_Node *n)
{
    if (n->kind->host) return true;
    for (const steerB_Field *f = n->kind->fields; f && f->name; f++) {
        const void *at = n->params + f->offset;
        if (f->type == STEERB_CALLBACK && *(const int *)at) return true;
        if (f->type == STEERB_EASE && ((const steerB_Ease *)at)->curve == 2) return true;
    }
    return false;
}

steerB_Brain *steerB_compile(steer_World *w, steer_Behavior *root, int *status)
{
    *status = STEER_ENOMEM;
    uint32_t n = 0;
    if (!count_nodes(root, 1, &n)) {
        *status = STEER_EARG;
        if (n > STEERB_MAX_NODES)
            steerB_fail(root, STEER_EARG,
                        "the brain flattens to more than %d nodes (a behaviour shared by several parents "
                        "counts once per parent)",
                        STEERB_MAX_NODES);
        else steerB_fail(root, STEER_EARG, "the brain is nested more than %d levels deep", STEERB_MAX_DEPTH);
        return NULL;
    }
    steerB_Brain *br = steerA_realloc(w, NULL, sizeof *br);
    if (!br) return NULL;
    memset(br, 0, sizeof *br);
    br->nodes = steerA_realloc(w, NULL, sizeof *br->nodes * n);
    br->kids = steerA_realloc(w, NULL, sizeof *br->kids * n);
    br->kid_roles = steerA_realloc(w, NULL, n);
    if (!br->nodes || !br->kids || !br->kid_roles) {
        steerB_brain_free(w, br);
        return NULL;
    }
    memset(br->nodes, 0, sizeof *br->nodes * n);
    Flat fl = { w, root, br, 0, 0, true, false, false };
    flatten(&fl, root, 1.0f);
    if (fl.more) br->nearest = 0;
    br->nnodes = n;
    br->batch = !br->list && !br->faces;
    // the record: 3 floats a node, then what kinds with rec_of add (a
    // context's maps), each at node.rec while that offset fits in 16 bits
    br->rec_floats = 3 * n;
    for (uint32_t i = 0; i < n; i++) {
        steerB_Node *node = &br->nodes[i];
        uint32_t more = node->kind->rec_of ? node->kind->rec_of(node->params) : 0;
        if (more && br->rec_floats + more <= UINT16_MAX) {
            node->rec = (uint16_t)br->rec_floats;
            br->rec_floats += more;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!br->nodes[i].kind->eval_batch) br->batch = false;
        if (calls_host(&br->nodes[i])) br->host = true;
    }
    if (!fl.ok || fl.bad) {
        if (fl.bad) *status = STEER_EARG;
        steerB_brain_free(w, br);
        return NULL;
    }
    *status = STEER_OK;
    steer_behavior_retain(root);
    br->root = root;
    return br;
}

void steerB_brain_free(steer_World *w, steerB_Brain *b)
{
    if (!b) return;
    steer_behavior_release(b->root);
    steerA_free(w, b->nodes);
    steerA_free(w, b->kids);
    steerA_free(w, b->kid_roles);
    steerA_free(w, b);
}

static void load_ctx(steer_World *w, uint32_t d, steerB_Ctx *c)
{
    memset(c, 0, sizeof *c);
    c->w = w;
    c->loc = &w->loc; // between ticks, on the calling thread
    c->host = w;
    c->brain = w->brains[w->brain[d]];
    c->d = d;
    c->dt = w->dt;
    steerW_load(w->p, d, c->p);
    steerW_load(w->v, d, c->v);
    steerW_load(w->h, d, c->h);
    c->mass = w->mass[d];
    c->max_speed = w->max_speed[d];
    c->max_force = w->max_force[d];
    c->radius = w->radius[d];
    c->mem = steerW_mem(w, d);
    c->rng = &w->rng32[d];
}

void steerB_init_agent(steer_World *w, uint32_t d)
{
    if (!w->brain[d]) return;
    steerB_Ctx c;
    load_ctx(w, d, &c);
    for (uint32_t i = 0; i < c.brain->nnodes; i++) {
        const steerB_Node *n = &c.brain->nodes[i];
        if (n->kind->init) n->kind->init(&c, n);
    }
}

// ---- evaluation ----------------------------------------------------------

const steerB_Summary *steerB_summary(const steerB_Ctx *c, const steerB_Node *n, float radius, uint16_t tag,
                                     steerB_Summary *tmp)
{
    if (n->sum != STEERB_NO_SUM) return &c->sums[n->sum];
    memset(tmp, 0, sizeof *tmp);
    float r2 = radius * radius;
    const float *hx = c->w->h[0], *hy = c->w->h[1], *hz = c->w->h[2];
    for (int i = 0; i < c->nn; i++) {
        const steerB_Neighbor *nb = &c->nb[i];
        if (!(nb->d2 < r2) || (tag && c->w->tag[nb->d] != tag)) continue;
        tmp->n += 1.0f;
        v3_add(tmp->off, tmp->off, nb->off);
        tmp->head[0] += hx[nb->d];
        tmp->head[1] += hy[nb->d];
        if (hz) tmp->head[2] += hz[nb->d];
        if (nb->d2 >= FLT_MIN) v3_madd(tmp->push, nb->off, -1.0f / nb->d2); // denormal: 1/d2 overflows
    }
    return tmp;
}

// ---- the world's brains ------------------------------------------------

// The brain id for a behaviour tree, compiling it on first use. Ids of
// freed brains (see steerB_collect_brains) are reused.
int steerB_brain_id(steer_World *w, steer_Behavior *b)
{
    if (!b) return 0;
    uint32_t hole = 0;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        if (!w->brains[i]) {
            if (!hole) hole = i;
            continue;
        }
        if (w->brains[i]->root == b) return (int)i;
    }
    if (!hole && w->nbrains >= UINT16_MAX) return STEER_EFULL;
    int st;
    steerB_Brain *br = steerB_compile(w, b, &st);
    if (!br) return st;
    if (steerT_restride(w, &w->mem, &w->mem_stride, w->mem_base + br->mem_floats) != STEER_OK ||
        (w->record && steerT_restride(w, &w->rec, &w->rec_stride, br->rec_floats) != STEER_OK)) {
        steerB_brain_free(w, br);
        return STEER_ENOMEM;
    }
    uint32_t n = hole;
    if (!n) {
        n = w->nbrains ? w->nbrains : 1;
        steerB_Brain **a = steerA_realloc(w, w->brains, sizeof *a * (n + 1));
        if (!a) {
            steerB_brain_free(w, br);
            return STEER_ENOMEM;
        }
        a[0] = NULL;
        w->brains = a;
        w->nbrains = n + 1;
    }
    if (br->faces && !w->face[0]) {
        for (int i = 0; i < w->dim; i++) {
            if (!steerA_array_resize(w, &w->face[i], sizeof(float) * (w->cap ? w->cap : 1))) {
                steerB_brain_free(w, br);
                return STEER_ENOMEM;
            }
        }
    }
    w->brains[n] = br;
    if (br->sense > w->sense_radius) w->sense_radius = br->sense;
    if (br->rec_floats > w->rec_need) w->rec_need = br->rec_floats;
    return (int)n;
}

// Free the brains no agent uses any more (a hot reload builds new ones),
// and shrink the sensing radius and record size to what is left. Between
// ticks only.
void steerB_collect_brains(steer_World *w)
{
    bool freed = false;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        if (w->brains[i] && w->brains[i]->users == 0) {
            steerB_brain_free(w, w->brains[i]);
            w->brains[i] = NULL;
            freed = true;
        }
    }
    if (!freed) return;
    w->sense_radius = 0;
    w->rec_need = 0;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        const steerB_Brain *br = w->brains[i];
        if (!br) continue;
        if (br->sense > w->sense_radius) w->sense_radius = br->sense;
        if (br->rec_floats > w->rec_need) w->rec_need = br->rec_floats;
    }
}

bool steer_world_uses_brain(const steer_World *w, const steer_Behavior *b)
{
    STEERA_WORLD(w, false);
    STEERA_TREE(b, false);
    for (uint32_t i = 1; i < w->nbrains; i++)
        if (w->brains[i] && w->brains[i]->root == b) return true;
    return false;
}

int steer_world_brains(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return (int)(w->nbrains ? w->nbrains : 1);
}

steer_Behavior *steer_world_brain(const steer_World *w, int id)
{
    STEERA_WORLD(w, NULL);
    return id > 0 && (uint32_t)id < w->nbrains && w->brains[id] ? w->brains[id]->root : NULL;
}

// Whether brains a and b lay their nodes and the agents' memory out alike.
static bool same_layout(const steerB_Brain *a, const steerB_Brain *b)
{
    if (a->nnodes != b->nnodes || a->mem_floats != b->mem_floats || a->nsums != b->nsums) return false;
    for (uint32_t i = 0; i < a->nnodes; i++) {
        const steerB_Node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->kind != y->kind || x->mem != y->mem || x->nchild != y->nchild || x->first != y->first ||
            strcmp(x->name ? x->name : "", y->name ? y->name : "") != 0)
            return false;
    }
    return true;
}

int steer_world_replace_brain(steer_World *w, int id, steer_Behavior *tree)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_TREE(tree, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    if (!tree || id <= 0 || (uint32_t)id >= w->nbrains || !w->brains[id]) return STEER_EARG;
    if (w->brains[id]->root == tree) return STEER_OK;
    int st;
    steerB_Brain *b = steerB_compile(w, tree, &st);
    if (!b) return st;
    steerB_Brain *old = w->brains[id];
    if (!same_layout(old, b)) {
        steerB_brain_free(w, b);
        return STEER_EARG;
    }
    b->users = old->users;
    w->brains[id] = b;
    steerB_brain_free(w, old);
    if (b->sense > w->sense_radius) w->sense_radius = b->sense; // a smaller one shrinks at the next collection
    return STEER_OK;
}

// The resource fields of params (of kind k) that point at `from` point at
// `to`; with `count`, taking a reference to it and dropping one to `from`
// (a tree's node; a compiled node's params hold no reference of their own).
static int swap_resources(const steerB_Kind *k, unsigned char *params, const void *from, void *to, bool count)
{
    int n = 0;
    for (const steerB_Field *f = k->fields; f && f->name; f++) {
        void *obj;
        if (f->type != STEERB_RESOURCE || (memcpy(&obj, params + f->offset, sizeof obj), obj != from)) continue;
        const steerB_ResourceKind *rk = steerB_field_resource(f);
        if (count) rk->retain(to);
        memcpy(params + f->offset, &to, sizeof to);
        if (count) rk->release(obj); // compared by address from here on, never read
        n++;
    }
    if (n && k->derive) k->derive(params);
    return n;
}

static int swap_tree(steer_Behavior *b, const void *from, void *to)
{
    int n = swap_resources(b->kind, b->params, from, to, true);
    for (uint16_t i = 0; i < b->nkids; i++) n += swap_tree(b->kids[i], from, to); // a shared node: changed once
    return n;
}

int steer_world_replace_resource(steer_World *w, const void *from, void *to)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    if (!from || !to) return STEER_EARG;
    if (from == to) return 0;
    int n = 0;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        steerB_Brain *br = w->brains[i];
        if (!br) continue;
        n += swap_tree(br->root, from, to);
        for (uint32_t k = 0; k < br->nnodes; k++)
            swap_resources(br->nodes[k].kind, br->nodes[k].params, from, to, false);
    }
    return n;
}

void steerB_set_brain(steer_World *w, uint32_t d, int id)
{
    if (w->brain[d]) w->brains[w->brain[d]]->users--;
    w->brain[d] = (uint16_t)id;
    if (id) w->brains[id]->users++;
    // a new brain starts from fresh memory (the world's own floats stay)
    if (w->mem_stride > w->mem_base) memset(steerW_mem(w, d), 0, sizeof(float) * (w->mem_stride - w->mem_base));
    if (w->rec_stride) memset(w->rec + (size_t)d * w->rec_stride, 0, sizeof(float) * w->rec_stride);
    if (id) steerB_init_agent(w, d);
}

// ---- kinds that serve requests ----------------------------------------------

// Whether a brain in use has a node of kind k.
static bool kind_in_use(const steer_World *w, const steerB_Kind *k)
{
    for (uint32_t i = 1; i < w->nbrains; i++) {
        const steerB_Brain *br = w->brains[i];
        if (!br || !br->users) continue;
        for (uint32_t j = 0; j < br->nnodes; j++)
            if (br->nodes[j].kind == k) return true;
    }
    return false;
}

int steerB_serve(steer_World *w)
{
    uint32_t budget = w->path_budget;
    int st = STEER_OK;
    for (const steerB_Kind *const *k = steerB_kinds; *k; k++) {
        if (!(*k)->serve || !kind_in_use(w, *k)) continue;
        uint32_t i = 0;
        while (i < w->nserved && w->served[i].kind != *k) i++;
        if (i == w->nserved) {
            struct steerW_Served *s = steerA_realloc(w, w->served, sizeof *s * (w->nserved + 1));
            if (!s) {
                st = STEER_ENOMEM;
                continue;
            }
            w->served = s;
            s[w->nserved++] = (struct steerW_Served){ *k, NULL };
        }
        (*k)->serve(w, &w->served[i].state, &budget);
    }
    return st;
}

// Requests by request tick, then handle slot (both distinct per request:
// an agent's, or a node's of it when its brain has two of the kind).
static int cmp_request(const void *a, const void *b)
{
    const steerB_Request *x = a, *y = b;
    if (x->tick != y->tick) return x->tick < y->tick ? -1 : 1;
    if (x->slot != y->slot) return x->slot < y->slot ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

int64_t steerB_requests(steer_World *w, const steerB_Kind *k, float requested, steerB_Request **out, uint32_t *cap)
{
    uint32_t n = 0;
    for (uint32_t d = 0; d < w->count; d++) {
        if (!w->brain[d]) continue;
        const steerB_Brain *br = w->brains[w->brain[d]];
        const float *mem = steerW_mem(w, d);
        for (uint32_t j = 0; mem && j < br->nnodes; j++) {
            if (br->nodes[j].kind != k || mem[br->nodes[j].mem] != requested) continue;
            if (n == *cap) {
                uint32_t c = *cap ? 2 * *cap : 64;
                steerB_Request *r = steerA_realloc(w, *out, sizeof *r * c);
                if (!r) return -1;
                *out = r;
                *cap = c;
            }
            // the oldest first: by age, the ticks since the request (mod 2^24)
            uint32_t asked = (uint32_t)mem[br->nodes[j].mem + 1] & STEERB_TICK_MASK;
            uint32_t age = ((uint32_t)w->tick - asked) & STEERB_TICK_MASK;
            (*out)[n++] = (steerB_Request){ STEERB_TICK_MASK - age, w->slot[d], d, j };
        }
    }
    if (n > 1) qsort(*out, n, sizeof **out, cmp_request);
    return n;
}

void steerB_request_tick(const steer_World *w, float *mem)
{
    mem[1] = (float)((uint32_t)w->tick & STEERB_TICK_MASK); // exact: below 2^24
}

void steerB_served_free(steer_World *w)
{
    for (uint32_t i = 0; i < w->nserved; i++) {
        const steerB_Kind *k = w->served[i].kind;
        if (k->serve_free) k->serve_free(w, w->served[i].state);
    }
    steerA_free(w, w->served);
    w->served = NULL;
    w->nserved = 0;
}

void steerB_brains_free(steer_World *w)
{
    for (uint32_t i = 1; i < w->nbrains; i++) steerB_brain_free(w, w->brains[i]);
    steerA_free(w, w->brains);
}
