// SPDX-License-Identifier: MIT
// snapshot.c — a world in bytes and back (steer_world_save, steer_world_load).
//
// The format (docs/architecture.md, "Snapshots"): a header (magic, version,
// dim, the total length, the counts), then the world's options and state,
// the tags, the behaviour trees (each distinct node once, children before
// parents, every field by name from its kind's field table), the brains,
// the extra roots (trees the host saves with the world, version 2 on),
// the think timers, the shapes, the turn records, the handle table, the
// per-agent columns as the column table lists them, and a checksum of every
// byte after the version. Little-endian throughout; no pointer is written.
//
// Invariants: a load reads nothing it has not bounds-checked and accepts
// nothing a setter of the public API would refuse; it builds a private
// world and hands it out only when every check passed, so a bad input
// leaves nothing allocated. A loaded world holds what the saved one held
// in the same order (dense storage, free lists, brain ids), so its ticks
// are the saved world's, bit for bit.
#include "world.h"
#include "brain.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAGIC "STEERSNP"
#define VERSION 2u // version 1 had no extra roots; it still loads
#define HEADER_BYTES 60u
#define TRAILER_BYTES 8u

enum { W_WRAP = 1, W_RECORD = 2, W_COLLIDE = 4, W_ANY_CRAFT = 8, W_ALL = 15 };

// ---- the checksum ------------------------------------------------------

// FNV-1a over 64-bit little-endian words (a zero-padded tail word, then
// the length): one multiply per 8 bytes keeps a 10 MB save fast, and each
// step is a bijection of the state, so any one changed word changes it.
typedef struct Sum {
    uint64_t h, n;
    unsigned char tail[8];
    unsigned ntail;
} Sum;

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void sum_add(Sum *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    s->n += len;
    if (s->ntail) {
        size_t k = 8 - s->ntail < len ? 8 - s->ntail : len;
        memcpy(s->tail + s->ntail, p, k);
        s->ntail += (unsigned)k;
        p += k;
        len -= k;
        if (s->ntail < 8) return;
        s->h = (s->h ^ le64(s->tail)) * 0x100000001B3ull;
        s->ntail = 0;
    }
    for (; len >= 8; p += 8, len -= 8) s->h = (s->h ^ le64(p)) * 0x100000001B3ull;
    memcpy(s->tail, p, len);
    s->ntail = (unsigned)len;
}

static uint64_t sum_end(Sum *s)
{
    uint64_t h = s->h;
    if (s->ntail) {
        memset(s->tail + s->ntail, 0, 8 - s->ntail);
        h = (h ^ le64(s->tail)) * 0x100000001B3ull;
    }
    return (h ^ s->n) * 0x100000001B3ull;
}

uint64_t steerW_checksum(const void *data, size_t len)
{
    Sum s = { 0xCBF29CE484222325ull, 0, { 0 }, 0 };
    sum_add(&s, data, len);
    return sum_end(&s);
}

static bool little_endian(void)
{
    const uint16_t one = 1;
    unsigned char c;
    memcpy(&c, &one, 1);
    return c == 1;
}

// ---- saving ------------------------------------------------------------

// The staged part of a snapshot: everything but the per-agent columns,
// which go to the writer straight from the world's arrays.
typedef struct Out {
    steer_World *w; // for its allocator only
    unsigned char *b;
    size_t n, cap;
    bool oom;
    // the behaviour trees: each distinct node once, in post-order
    const steer_Behavior **order;
    uint32_t norder, cap_order;
    const steer_Behavior **map; // open addressing: node -> its index (map_id)
    uint32_t *map_id;
    uint32_t cap_map;
} Out;

static void put(Out *o, const void *p, size_t len)
{
    if (o->oom) return;
    if (o->n + len > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->n + len) cap *= 2;
        unsigned char *b = steerW_realloc(o->w, o->b, cap);
        if (!b) {
            o->oom = true;
            return;
        }
        o->b = b;
        o->cap = cap;
    }
    memcpy(o->b + o->n, p, len);
    o->n += len;
}

// Little-endian scalars, whatever the host.
static void put_le(Out *o, uint64_t v, int bytes)
{
    unsigned char b[8];
    for (int i = 0; i < bytes; i++) b[i] = (unsigned char)(v >> (8 * i));
    put(o, b, (size_t)bytes);
}
static void put_u8(Out *o, uint32_t v) { put_le(o, v, 1); }
static void put_u16(Out *o, uint32_t v) { put_le(o, v, 2); }
static void put_u32(Out *o, uint32_t v) { put_le(o, v, 4); }
static void put_u64(Out *o, uint64_t v) { put_le(o, v, 8); }
static void put_f32(Out *o, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(o, v);
}
static void put_f64(Out *o, double f)
{
    uint64_t v;
    memcpy(&v, &f, 8);
    put_u64(o, v);
}
static void put_str(Out *o, const char *s)
{
    size_t n = strlen(s);
    put_u32(o, (uint32_t)n);
    put(o, s, n);
}

static uint32_t ptr_hash(const void *p, uint32_t mask)
{
    uint64_t v = (uint64_t)(uintptr_t)p;
    return (uint32_t)((v * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

// The index of node b, or UINT32_MAX when it is not listed yet.
static uint32_t node_index(const Out *o, const steer_Behavior *b)
{
    if (!o->cap_map) return UINT32_MAX;
    uint32_t mask = o->cap_map - 1;
    for (uint32_t i = ptr_hash(b, mask); o->map[i]; i = (i + 1) & mask)
        if (o->map[i] == b) return o->map_id[i];
    return UINT32_MAX;
}

static bool map_put(Out *o, const steer_Behavior *b, uint32_t id)
{
    if (2 * (o->norder + 1) > o->cap_map) {
        uint32_t cap = o->cap_map ? o->cap_map * 2 : 64;
        const steer_Behavior **m = steerW_realloc(o->w, NULL, sizeof *m * cap);
        uint32_t *ids = steerW_realloc(o->w, NULL, sizeof *ids * cap);
        if (!m || !ids) {
            steerW_free(o->w, m);
            steerW_free(o->w, ids);
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
        steerW_free(o->w, o->map);
        steerW_free(o->w, o->map_id);
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
static bool list_nodes(Out *o, const steer_Behavior *b)
{
    if (node_index(o, b) != UINT32_MAX) return true;
    for (uint16_t i = 0; i < b->nkids; i++)
        if (!list_nodes(o, b->kids[i])) return false;
    if (o->norder == o->cap_order) {
        uint32_t cap = o->cap_order ? o->cap_order * 2 : 64;
        const steer_Behavior **a = steerW_realloc(o->w, o->order, sizeof *a * cap);
        if (!a) return false;
        o->order = a;
        o->cap_order = cap;
    }
    if (!map_put(o, b, o->norder)) return false;
    o->order[o->norder++] = b;
    return true;
}

// One node: its kind's name, its own name, every field of its kind's
// table by name and type, and its children by index.
static void put_node(Out *o, const steer_Behavior *b)
{
    const steerB_Kind *k = b->kind;
    put_str(o, k->name);
    put_u8(o, b->name != NULL);
    if (b->name) put_str(o, b->name);
    uint32_t nf = 0;
    for (const steerB_Field *f = k->fields; f && f->name; f++) nf += f->type != STEERB_CHILDREN;
    put_u16(o, nf);
    int tag = 0;
    for (const steerB_Field *f = k->fields; f && f->name; f++) {
        if (f->type == STEERB_CHILDREN) continue;
        const unsigned char *at = b->params + f->offset;
        put_str(o, f->name);
        put_u8(o, (uint32_t)f->type);
        switch (f->type) {
        case STEERB_NUMBER: {
            float v;
            memcpy(&v, at, 4);
            put_f32(o, v);
            break;
        }
        case STEERB_TARGET: {
            steerB_Target t;
            memcpy(&t, at, sizeof t);
            put_u8(o, t.kind);
            if (t.kind == STEER_TARGET_POINT)
                for (int i = 0; i < 3; i++) put_f32(o, t.p[i]);
            if (t.kind == STEER_TARGET_AGENT) put_u64(o, t.agent.id);
            break;
        }
        case STEERB_CHOICE: put_str(o, f->choices[*at]); break;
        case STEERB_TAG: {
            const char *s = tag < 4 ? b->tags[tag] : NULL;
            tag++;
            put_u8(o, s != NULL);
            if (s) put_str(o, s);
            break;
        }
        case STEERB_CALLBACK: {
            int32_t ref;
            memcpy(&ref, at, 4);
            put_u32(o, (uint32_t)ref);
            break;
        }
        case STEERB_EASE: {
            steerB_Ease e;
            memcpy(&e, at, sizeof e);
            put_u8(o, e.curve);
            put_u32(o, (uint32_t)e.ref);
            break;
        }
        case STEERB_VECTOR:
            for (int i = 0; i < 3; i++) {
                float v;
                memcpy(&v, at + 4 * i, 4);
                put_f32(o, v);
            }
            break;
        case STEERB_BOOL: put_u8(o, *at); break;
        case STEERB_POINTS: {
            steerB_Points pts;
            memcpy(&pts, at, sizeof pts);
            put_u32(o, pts.n);
            for (uint32_t i = 0; i < 3 * pts.n; i++) put_f32(o, pts.p[i]);
            break;
        }
        case STEERB_CHILDREN: break;
        }
    }
    put_u16(o, b->nkids);
    for (uint16_t i = 0; i < b->nkids; i++) {
        put_u32(o, node_index(o, b->kids[i]));
        put_f32(o, b->kid_weights[i]);
        put_u8(o, b->kid_roles[i]);
    }
}

// Whether array a is saved: what moves with the agent, except a row that
// is kept but not hashed (the recorded node outputs, recomputed each tick).
static bool saved(const steerW_Array *a)
{
    return a->bytes && a->col->role != STEERW_COL_TICK &&
           !(a->col->role == STEERW_COL_KEPT && a->col->shape == STEERW_COL_ROW);
}

// The valid turn record of slot s, or NULL.
static const steerW_Turn *slot_turn(const steer_World *w, uint32_t s)
{
    return s < w->cap_turn && w->turn[s].gen && w->turn[s].gen == w->gen[s] ? &w->turn[s] : NULL;
}

// Everything but the columns into o; returns false when out of memory.
static bool stage(Out *o, const steer_World *w, steer_Behavior *const *roots, uint32_t nroots, uint32_t counts[8])
{
    uint8_t fl = (w->wrap ? W_WRAP : 0) | (w->record ? W_RECORD : 0) | (w->collide ? W_COLLIDE : 0) |
                 (w->any_craft ? W_ANY_CRAFT : 0);
    put_u8(o, fl);
    put_f32(o, w->dt);
    for (int i = 0; i < 3; i++) put_f32(o, w->origin[i]);
    for (int i = 0; i < 3; i++) put_f32(o, w->size[i]);
    put_u64(o, w->seed);
    put_u64(o, w->tick);
    put_u64(o, w->rng);
    put_u32(o, (uint32_t)w->reorder_period);
    put_f32(o, w->stuck_window);
    put_f32(o, w->stuck_progress);
    put_u32(o, (uint32_t)w->collide_iterations);
    put_u32(o, w->mem_stride);
    // tags (id 0 is "untagged", not stored)
    counts[0] = w->ntags ? w->ntags - 1 : 0;
    for (uint32_t i = 1; i < w->ntags; i++) put_str(o, w->tags[i]);
    // behaviour trees, then the brains by root
    for (uint32_t i = 1; i < w->nbrains; i++)
        if (w->brains[i] && !list_nodes(o, w->brains[i]->root)) return false;
    for (uint32_t i = 0; i < nroots; i++)
        if (!list_nodes(o, roots[i])) return false;
    counts[1] = o->norder;
    for (uint32_t i = 0; i < o->norder; i++) put_node(o, o->order[i]);
    counts[2] = w->nbrains;
    for (uint32_t i = 1; i < w->nbrains; i++) put_u32(o, w->brains[i] ? node_index(o, w->brains[i]->root) + 1 : 0);
    put_u32(o, nroots);
    for (uint32_t i = 0; i < nroots; i++) put_u32(o, node_index(o, roots[i]));
    // think timers, in their order (the order of the callbacks)
    counts[3] = w->nthinkers;
    for (uint32_t i = 0; i < w->nthinkers; i++) {
        const struct steerW_Thinker *t = &w->thinkers[i];
        put_u64(o, t->agent.id);
        put_u32(o, (uint32_t)t->ref);
        put_f32(o, t->period);
        put_f32(o, t->elapsed);
        put_f64(o, t->since);
        put_f64(o, t->hz);
    }
    // shapes: every slot's generation, a live one's shape, then the free list
    const steerW_Geometry *g = &w->geo;
    counts[4] = g->nshapes;
    for (uint32_t i = 0; i < g->nshapes; i++) {
        const steerW_Shape *s = &g->shapes[i];
        put_u32(o, s->gen);
        put_u8(o, s->alive);
        if (!s->alive) continue;
        put_u8(o, s->kind);
        for (int k = 0; k < 3; k++) put_f32(o, s->a[k]);
        for (int k = 0; k < 3; k++) put_f32(o, s->b[k]);
        put_f32(o, s->r);
    }
    for (uint32_t s = g->nshapes ? g->free_head : UINT32_MAX, k = 0; s != UINT32_MAX && k < g->nshapes;
         s = g->next_free[s], k++)
        put_u32(o, s);
    // the handle table: generations, then the free slots in list order
    counts[6] = w->nslots;
    for (uint32_t s = 0; s < w->nslots; s++) put_u32(o, w->gen[s]);
    for (uint32_t s = w->free_head, k = 0; s != UINT32_MAX && k < w->nslots; s = w->dense_of[s], k++) put_u32(o, s);
    // turn records of the slots whose agent has one
    counts[5] = 0;
    for (uint32_t s = 0; s < w->nslots; s++) counts[5] += slot_turn(w, s) != NULL;
    for (uint32_t s = 0; s < w->nslots; s++) {
        const steerW_Turn *t = slot_turn(w, s);
        if (!t) continue;
        put_u32(o, s);
        put_u8(o, t->craft);
        put_f32(o, t->min_speed);
        put_f32(o, t->min_turn_radius);
        put_f32(o, t->max_turn_accel);
        for (int k = 0; k < 3; k++) put_f32(o, t->up[k]);
    }
    // the column directory: name, axis and bytes per agent of each saved array
    steerW_Array cols[STEERW_MAX_ARRAYS];
    counts[7] = 0;
    for (int k = 0, n = steerW_arrays(w, cols); k < n; k++) {
        if (!saved(&cols[k])) continue;
        counts[7]++;
        put_str(o, cols[k].col->name);
        put_u8(o, (uint32_t)cols[k].axis);
        put_u32(o, (uint32_t)cols[k].bytes);
    }
    return !o->oom;
}

static void out_free(Out *o)
{
    steerW_free(o->w, o->b);
    steerW_free(o->w, (void *)o->order);
    steerW_free(o->w, (void *)o->map);
    steerW_free(o->w, o->map_id);
}

// Write and sum one piece.
static int emit(steer_WriteFn write, void *ud, Sum *s, const void *p, size_t len)
{
    if (!len) return STEER_OK;
    if (s) sum_add(s, p, len);
    return write(ud, p, len) ? STEER_ECALLBACK : STEER_OK;
}

// A column array in little-endian order: as it is on a little-endian host,
// element by element through a small buffer otherwise.
static int emit_array(steer_WriteFn write, void *ud, Sum *s, const steerW_Array *a, uint32_t count)
{
    size_t elem = a->col->size, total = (size_t)count * a->bytes;
    if (little_endian() || elem == 1) return emit(write, ud, s, a->base, total);
    unsigned char buf[4096];
    for (size_t at = 0; at < total;) {
        size_t n = total - at < sizeof buf ? total - at : sizeof buf;
        for (size_t i = 0; i < n; i += elem)
            for (size_t j = 0; j < elem; j++) buf[i + j] = (unsigned char)a->base[at + i + elem - 1 - j];
        int st = emit(write, ud, s, buf, n);
        if (st) return st;
        at += n;
    }
    return STEER_OK;
}

int steer_world_save_roots(const steer_World *w, steer_Behavior *const *roots, int nroots, steer_WriteFn write,
                           void *ud)
{
    if (w->in_tick) return STEER_EBUSY;
    if (nroots < 0 || (nroots && !roots)) return STEER_EARG;
    for (int i = 0; i < nroots; i++)
        if (!roots[i]) return STEER_EARG;
    Out o;
    memset(&o, 0, sizeof o);
    o.w = (steer_World *)w; // its allocator: nothing of the world changes
    uint32_t counts[8];
    if (!stage(&o, w, roots, (uint32_t)nroots, counts)) {
        out_free(&o);
        return STEER_ENOMEM;
    }
    steerW_Array cols[STEERW_MAX_ARRAYS];
    int ncols = steerW_arrays(w, cols);
    uint64_t total = HEADER_BYTES + o.n + TRAILER_BYTES;
    for (int k = 0; k < ncols; k++)
        if (saved(&cols[k])) total += (uint64_t)w->count * cols[k].bytes;
    Out h;
    memset(&h, 0, sizeof h);
    unsigned char hb[HEADER_BYTES];
    h.w = o.w;
    h.b = hb;
    h.cap = sizeof hb;
    put(&h, MAGIC, 8);
    put_u32(&h, VERSION);
    put_u32(&h, (uint32_t)w->dim);
    put_u64(&h, total);
    put_u32(&h, w->count);
    for (int i = 0; i < 8; i++) put_u32(&h, counts[i]);
    Sum s = { 0xCBF29CE484222325ull, 0, { 0 }, 0 };
    int st = emit(write, ud, NULL, hb, 12);
    if (!st) st = emit(write, ud, &s, hb + 12, HEADER_BYTES - 12);
    if (!st) st = emit(write, ud, &s, o.b, o.n);
    for (int k = 0; k < ncols && !st; k++)
        if (saved(&cols[k])) st = emit_array(write, ud, &s, &cols[k], w->count);
    out_free(&o);
    if (st) return st;
    unsigned char tb[8];
    uint64_t sum = sum_end(&s);
    for (int i = 0; i < 8; i++) tb[i] = (unsigned char)(sum >> (8 * i));
    return emit(write, ud, NULL, tb, 8);
}

int steer_world_save(const steer_World *w, steer_WriteFn write, void *ud)
{
    return steer_world_save_roots(w, NULL, 0, write, ud);
}

typedef struct Buffer {
    unsigned char *b;
    size_t cap, n;
} Buffer;

// Copies while the bytes fit and counts on after that, so a short buffer
// learns the size it needs from the same pass.
static int to_buffer(void *ud, const void *data, size_t len)
{
    Buffer *b = ud;
    if (b->b && b->n + len <= b->cap) memcpy(b->b + b->n, data, len);
    b->n += len;
    return 0;
}

int steer_world_save_buffer(const steer_World *w, void *buf, size_t cap, size_t *len)
{
    Buffer b = { buf, buf ? cap : 0, 0 };
    int st = steer_world_save(w, to_buffer, &b);
    if (len) *len = b.n;
    if (st) return st;
    return b.n > b.cap ? STEER_EFULL : STEER_OK;
}

// ---- loading -----------------------------------------------------------

typedef struct In {
    const unsigned char *p;
    size_t n, at;
    const char *section; // what is being read, for "truncated in ..."
    char *err;
    size_t errlen;
    bool failed, oom;
    steer_World *w;
    char *str; // the last string read, NUL-terminated (world-allocated)
    size_t cap_str;
    steer_Behavior **nodes;
    uint32_t nnodes;
    uint32_t version;
    uint32_t *roots; // the extra roots' node indices
    uint32_t nroots;
} In;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static bool
fail(In *in, const char *fmt, ...)
{
    if (in->failed) return false;
    in->failed = true;
    if (in->err && in->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(in->err, in->errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool oom(In *in)
{
    in->oom = true;
    return fail(in, "out of memory");
}

static const unsigned char *take(In *in, size_t len)
{
    if (in->failed) return NULL;
    if (len > in->n - in->at) {
        fail(in, "snapshot truncated in %s", in->section);
        return NULL;
    }
    const unsigned char *p = in->p + in->at;
    in->at += len;
    return p;
}

static uint64_t get_le(In *in, int bytes)
{
    const unsigned char *p = take(in, (size_t)bytes);
    uint64_t v = 0;
    for (int i = bytes - 1; p && i >= 0; i--) v = v << 8 | p[i];
    return v;
}
static uint32_t get_u8(In *in) { return (uint32_t)get_le(in, 1); }
static uint32_t get_u16(In *in) { return (uint32_t)get_le(in, 2); }
static uint32_t get_u32(In *in) { return (uint32_t)get_le(in, 4); }
static uint64_t get_u64(In *in) { return get_le(in, 8); }
static float get_f32(In *in)
{
    uint32_t v = get_u32(in);
    float f;
    memcpy(&f, &v, 4);
    return f;
}
static double get_f64(In *in)
{
    uint64_t v = get_u64(in);
    double f;
    memcpy(&f, &v, 8);
    return f;
}
// A length-prefixed string into in->str (NUL-terminated; none inside).
static const char *get_str(In *in, const char *what)
{
    uint32_t n = get_u32(in);
    const unsigned char *p = take(in, n);
    if (!p) return NULL;
    if (memchr(p, 0, n)) {
        fail(in, "%s holds a NUL byte", what);
        return NULL;
    }
    if ((size_t)n + 1 > in->cap_str) {
        char *s = steerW_realloc(in->w, in->str, (size_t)n + 1);
        if (!s) {
            oom(in);
            return NULL;
        }
        in->str = s;
        in->cap_str = (size_t)n + 1;
    }
    memcpy(in->str, p, n);
    in->str[n] = 0;
    return in->str;
}

// A field of node i by its name and type, set through the public setter
// (which checks it as it checks a script's value).
static bool get_field(In *in, uint32_t i, steer_Behavior *b)
{
    char name[64];
    const char *s = get_str(in, "a field name");
    if (!s) return false;
    if (strlen(s) >= sizeof name) return fail(in, "behaviour %u (%s): a field name is too long", i, b->kind->name);
    strcpy(name, s);
    uint32_t type = get_u8(in);
    const steerB_Field *f = b->kind->fields;
    while (f && f->name && strcmp(f->name, name) != 0) f++;
    if (!f || !f->name || f->type == STEERB_CHILDREN)
        return fail(in, "behaviour %u (%s) has no field '%s'", i, b->kind->name, name);
    if (type != (uint32_t)f->type)
        return fail(in, "behaviour %u (%s): field '%s' has type %u; this build's has %d", i, b->kind->name, name, type,
                    (int)f->type);
    int st = STEER_OK;
    switch (f->type) {
    case STEERB_NUMBER: {
        float v = get_f32(in), def = f->def;
        // a default may lie outside the range a script may set (0: "automatic")
        if (memcmp(&v, &def, 4) != 0) st = steer_behavior_set_number(b, name, v);
        break;
    }
    case STEERB_TARGET: {
        uint32_t kind = get_u8(in);
        if (kind == STEER_TARGET_POINT) {
            double p[3];
            for (int k = 0; k < 3; k++) p[k] = get_f32(in);
            st = steer_behavior_set_target_point(b, name, p);
        } else if (kind == STEER_TARGET_AGENT) {
            steer_Agent a = { get_u64(in) };
            if (!a.id) return fail(in, "behaviour %u (%s): field '%s' targets agent 0", i, b->kind->name, name);
            st = steer_behavior_set_target_agent(b, name, a);
            b->target_world = in->w;
        } else if (kind == STEER_TARGET_SLOT) {
            st = steer_behavior_set_target_agent(b, name, STEER_NO_AGENT);
        } else {
            return fail(in, "behaviour %u (%s): field '%s' has target kind %u", i, b->kind->name, name, kind);
        }
        break;
    }
    case STEERB_CHOICE: {
        const char *c = get_str(in, "a choice");
        st = c ? steer_behavior_set_choice(b, name, c) : STEER_EARG;
        break;
    }
    case STEERB_TAG:
        if (get_u8(in)) {
            const char *t = get_str(in, "a tag");
            st = t ? steer_behavior_set_tag(b, name, t) : STEER_EARG;
        }
        break;
    case STEERB_CALLBACK: st = steer_behavior_set_callback(b, name, (int32_t)get_u32(in)); break;
    case STEERB_EASE: {
        uint32_t curve = get_u8(in);
        int32_t ref = (int32_t)get_u32(in);
        uint32_t nch = 0;
        while (f->choices && f->choices[nch]) nch++;
        if (curve == 2) st = steer_behavior_set_callback(b, name, ref);
        else if (curve < nch && !ref) st = steer_behavior_set_choice(b, name, f->choices[curve]);
        else return fail(in, "behaviour %u (%s): field '%s' has a bad ease", i, b->kind->name, name);
        break;
    }
    case STEERB_VECTOR: {
        double v[3];
        for (int k = 0; k < 3; k++) v[k] = get_f32(in);
        st = steer_behavior_set_vector(b, name, v);
        break;
    }
    case STEERB_BOOL: {
        uint32_t v = get_u8(in);
        if (v > 1) return fail(in, "behaviour %u (%s): field '%s' is neither true nor false", i, b->kind->name, name);
        st = steer_behavior_set_bool(b, name, v);
        break;
    }
    case STEERB_POINTS: {
        uint32_t n = get_u32(in);
        if (in->failed) return false;
        if (n > (in->n - in->at) / 12) return fail(in, "snapshot truncated in %s", in->section);
        double *xyz = steerW_realloc(in->w, NULL, sizeof(double) * 3 * (n ? n : 1));
        if (!xyz) return oom(in);
        for (uint32_t k = 0; k < 3 * n; k++) xyz[k] = get_f32(in);
        if (n) st = steer_behavior_set_points(b, name, xyz, (int)n); // none: as new
        steerW_free(in->w, xyz);
        break;
    }
    case STEERB_CHILDREN: break;
    }
    if (in->failed) return false;
    if (st == STEER_ENOMEM) return oom(in);
    if (st) return fail(in, "behaviour %u (%s): %s", i, b->kind->name, steer_behavior_error(b));
    return true;
}

// Node i of the trees: its kind (a built-in, else the host's through
// hooks.find_kind), name, fields and children (earlier nodes).
static bool get_node(In *in, uint32_t i)
{
    const char *kind = get_str(in, "a kind name");
    if (!kind) return false;
    steer_Behavior *b = NULL;
    if (steer_behavior_new(kind, &b) == STEER_EARG) {
        const steer_HostKind *hk = in->w->hooks.find_kind ? in->w->hooks.find_kind(in->w->hooks.ud, kind) : NULL;
        if (!hk) return fail(in, "unknown behaviour kind '%s'", kind);
        steer_behavior_new_host(hk, &b);
    }
    if (!b) return oom(in);
    in->nodes[in->nnodes++] = b;
    if (get_u8(in)) {
        const char *name = get_str(in, "a behaviour's name");
        if (name && steer_behavior_set_name(b, name) != STEER_OK) return oom(in);
    }
    uint32_t nf = get_u16(in);
    for (uint32_t k = 0; k < nf && !in->failed; k++) get_field(in, i, b);
    uint32_t nk = get_u16(in);
    for (uint32_t k = 0; k < nk && !in->failed; k++) {
        uint32_t c = get_u32(in);
        float weight = get_f32(in);
        uint32_t role = get_u8(in);
        if (in->failed) return false;
        if (c >= i) return fail(in, "behaviour %u's child %u is not an earlier behaviour", i, c);
        int st;
        if (role == 0) {
            st = steer_behavior_add_child(b, in->nodes[c], weight);
        } else {
            const steerB_Field *f = b->kind->fields;
            for (uint32_t r = 0; f && f->name; f++)
                if (f->type == STEERB_CHILDREN && ++r == role) break;
            if (!f || !f->name) return fail(in, "behaviour %u (%s) has no child list %u", i, b->kind->name, role);
            st = steer_behavior_add_child_to(b, f->name, in->nodes[c]);
        }
        if (st == STEER_ENOMEM) return oom(in);
        if (st) return fail(in, "behaviour %u (%s): %s", i, b->kind->name, steer_behavior_error(b));
    }
    return !in->failed;
}

// The shape of slot i as add_shape would store it: the checks of the
// steer_add_* functions, on the floats as stored.
static bool shape_ok(const steer_World *w, const steerW_Shape *s)
{
    for (int k = 0; k < 3; k++)
        if (!steerW_storable(s->a[k]) || !steerW_storable(s->b[k])) return false;
    if (!steerW_storable(s->r)) return false;
    if (w->dim == 2 && (s->a[2] != 0.0f || s->b[2] != 0.0f)) return false;
    switch (s->kind) {
    case STEER_SHAPE_CIRCLE: return s->r > 0.0f;
    case STEER_SHAPE_SEGMENT: return w->dim == 2 && steerW_wall_ok(s->a, s->b);
    case STEER_SHAPE_PLANE: return w->dim == 3 && (s->b[0] != 0.0f || s->b[1] != 0.0f || s->b[2] != 0.0f);
    case STEER_SHAPE_BOX:
        for (int k = 0; k < w->dim; k++)
            if (!(s->a[k] < s->b[k])) return false;
        return true;
    default: return false;
    }
}

static bool get_shapes(In *in, uint32_t nshapes)
{
    steer_World *w = in->w;
    steerW_Geometry *g = &w->geo;
    in->section = "the shapes";
    if (!nshapes) return true;
    if (nshapes > (in->n - in->at) / 5) return fail(in, "snapshot truncated in the shapes");
    g->shapes = steerW_realloc(w, NULL, sizeof *g->shapes * nshapes);
    g->next_free = steerW_realloc(w, NULL, sizeof *g->next_free * nshapes);
    if (!g->shapes || !g->next_free) return oom(in);
    memset(g->shapes, 0, sizeof *g->shapes * nshapes);
    g->cap = g->nshapes = nshapes;
    uint32_t dead = 0;
    for (uint32_t i = 0; i < nshapes && !in->failed; i++) {
        steerW_Shape *s = &g->shapes[i];
        s->gen = get_u32(in);
        s->alive = (uint8_t)get_u8(in);
        g->next_free[i] = UINT32_MAX - 1; // not on the free list (yet)
        if (!in->failed && (s->gen == 0 || s->alive > 1)) return fail(in, "shape %u's slot is corrupted", i);
        if (!s->alive) {
            dead++;
            continue;
        }
        s->kind = (uint8_t)get_u8(in);
        for (int k = 0; k < 3; k++) s->a[k] = get_f32(in);
        for (int k = 0; k < 3; k++) s->b[k] = get_f32(in);
        s->r = get_f32(in);
        if (!in->failed && !shape_ok(w, s)) return fail(in, "shape %u is not a valid shape", i);
        g->live++;
    }
    // the free list, in its order: each dead shape once
    uint32_t prev = UINT32_MAX;
    for (uint32_t k = 0; k < dead && !in->failed; k++) {
        uint32_t s = get_u32(in);
        if (in->failed) break;
        if (s >= nshapes || g->shapes[s].alive || g->next_free[s] != UINT32_MAX - 1)
            return fail(in, "the shapes' free list names shape %u", s);
        if (prev == UINT32_MAX) g->free_head = s;
        else g->next_free[prev] = s;
        g->next_free[s] = UINT32_MAX;
        prev = s;
    }
    g->dirty = true;
    return !in->failed;
}

// The handle table: generations, then the free slots in list order; every
// slot is held by exactly one stored agent or is on the free list.
static bool get_handles(In *in, uint32_t nslots)
{
    steer_World *w = in->w;
    in->section = "the handle table";
    for (uint32_t s = 0; s < nslots && !in->failed; s++) {
        w->gen[s] = get_u32(in);
        if (!in->failed && w->gen[s] == 0) return fail(in, "slot %u's generation is 0", s);
        w->dense_of[s] = UINT32_MAX - 1; // unclaimed
    }
    w->nslots = nslots;
    uint32_t prev = UINT32_MAX;
    for (uint32_t k = 0; k < nslots - w->count && !in->failed; k++) {
        uint32_t s = get_u32(in);
        if (in->failed) break;
        if (s >= nslots || w->dense_of[s] != UINT32_MAX - 1) return fail(in, "the free list names slot %u twice", s);
        if (prev == UINT32_MAX) w->free_head = s;
        else w->dense_of[prev] = s;
        w->dense_of[s] = UINT32_MAX;
        prev = s;
    }
    return !in->failed;
}

static bool get_thinkers(In *in, uint32_t n)
{
    steer_World *w = in->w;
    in->section = "the think timers";
    if (!n) return true;
    if (n > (in->n - in->at) / 36) return fail(in, "snapshot truncated in the think timers");
    w->thinkers = steerW_realloc(w, NULL, sizeof *w->thinkers * n);
    if (!w->thinkers) return oom(in);
    w->cap_thinkers = n;
    for (uint32_t i = 0; i < n && !in->failed; i++) {
        struct steerW_Thinker *t = &w->thinkers[i];
        t->agent.id = get_u64(in);
        t->ref = (int32_t)get_u32(in);
        t->period = get_f32(in);
        t->elapsed = get_f32(in);
        t->since = get_f64(in);
        t->hz = get_f64(in);
        if (in->failed) break;
        if (!steerW_storable(t->period) || t->period < 0 || !steerW_storable(t->elapsed) || !isfinite(t->since) ||
            !isfinite(t->hz) || t->hz < 0)
            return fail(in, "think timer %u is not finite", i);
        w->nthinkers++;
    }
    return !in->failed;
}

static bool get_turns(In *in, uint32_t n)
{
    steer_World *w = in->w;
    in->section = "the turn records";
    if (!n) return true;
    w->turn = steerW_realloc(w, NULL, sizeof *w->turn * w->cap_slots);
    if (!w->turn) return oom(in);
    memset(w->turn, 0, sizeof *w->turn * w->cap_slots);
    w->cap_turn = w->cap_slots;
    for (uint32_t i = 0; i < n && !in->failed; i++) {
        uint32_t s = get_u32(in);
        steerW_Turn t = { 0 };
        t.craft = (uint8_t)get_u8(in);
        t.min_speed = get_f32(in);
        t.min_turn_radius = get_f32(in);
        t.max_turn_accel = get_f32(in);
        for (int k = 0; k < 3; k++) t.up[k] = get_f32(in);
        if (in->failed) break;
        if (s >= w->nslots || w->turn[s].gen) return fail(in, "turn record %u names slot %u", i, s);
        if (t.craft > 1 || !steerW_param_ok(t.min_speed, true) || !steerW_param_ok(t.min_turn_radius, false) ||
            !steerW_param_ok(t.max_turn_accel, true) || (!t.craft && t.min_speed > 0) ||
            !steerW_finite3((double[3]){ t.up[0], t.up[1], t.up[2] }))
            return fail(in, "turn record %u is out of range", i);
        t.gen = w->gen[s];
        w->turn[s] = t;
    }
    return !in->failed;
}

// The columns: the directory must match this build's table; then each
// array as it is stored, and every agent checked as steer_spawn and the
// setters would have it.
static bool get_columns(In *in, uint32_t ndir)
{
    steer_World *w = in->w;
    in->section = "the column directory";
    steerW_Array cols[STEERW_MAX_ARRAYS];
    int ncols = steerW_arrays(w, cols), k = 0;
    for (uint32_t i = 0; i < ndir; i++, k++) {
        while (k < ncols && !saved(&cols[k])) k++;
        const char *name = get_str(in, "a column's name");
        uint32_t axis = get_u8(in), bytes = get_u32(in);
        if (in->failed) return false;
        if (k >= ncols || strcmp(name, cols[k].col->name) != 0 || axis != (uint32_t)cols[k].axis ||
            bytes != cols[k].bytes)
            return fail(in, "the snapshot's column '%s' (axis %u, %u bytes per agent) is not this build's", name, axis,
                        bytes);
    }
    while (k < ncols && !saved(&cols[k])) k++;
    if (k != ncols) return fail(in, "the snapshot lacks the column '%s'", cols[k].col->name);
    in->section = "the agents' columns";
    uint32_t n = w->count;
    for (k = 0; k < ncols; k++) {
        const steerW_Array *a = &cols[k];
        if (!saved(a)) continue;
        size_t total = (size_t)n * a->bytes;
        const unsigned char *p = take(in, total);
        if (!p) return false;
        if (total == 0) continue; // no agents: the array may be unallocated (memcpy takes no NULL)
        size_t elem = a->col->size;
        if (little_endian() || elem == 1) {
            memcpy(a->base, p, total);
        } else {
            for (size_t i = 0; i < total; i += elem)
                for (size_t j = 0; j < elem; j++) a->base[i + j] = (char)p[i + elem - 1 - j];
        }
    }
    // every agent as the API keeps it
    for (uint32_t d = 0; d < n; d++) {
        for (int i = 0; i < w->dim; i++) {
            float x = w->p[i][d];
            if (!steerW_storable(x) || !steerW_storable(w->v[i][d]) || !steerW_storable(w->h[i][d]) ||
                !steerW_storable(w->f[i][d]) || (w->wrap && !(x >= w->origin[i] && x < w->origin[i] + w->size[i])))
                return fail(in, "agent %u's position, velocity, heading or force is out of range", d);
        }
        uint8_t fl = w->flags[d];
        if (fl & ~63u) return fail(in, "agent %u's flags are corrupted", d);
        if ((fl & STEER_AF_TARGET_POINT) && (fl & STEER_AF_TARGET_AGENT))
            return fail(in, "agent %u's target is both a point and an agent", d);
        if (fl & STEER_AF_TARGET_POINT) {
            float t[3];
            steerW_target_point(w, d, t);
            if (!steerW_finite3((double[3]){ t[0], t[1], t[2] }))
                return fail(in, "agent %u's target point is not finite", d);
        }
        if (!steerW_param_ok(w->mass[d], false) || !steerW_param_ok(w->max_speed[d], true) ||
            !steerW_param_ok(w->max_force[d], true) || !steerW_param_ok(w->radius[d], true))
            return fail(in, "agent %u's mass, max_speed, max_force or radius is out of range", d);
        if (!w->rng32[d]) return fail(in, "agent %u's random stream is 0", d);
        if (w->tag[d] && w->tag[d] >= w->ntags) return fail(in, "agent %u's tag id %u is out of range", d, w->tag[d]);
        uint16_t b = w->brain[d];
        if (b && (b >= w->nbrains || !w->brains[b]))
            return fail(in, "agent %u's brain id %u is out of range", d, (unsigned)b);
        if (b) w->brains[b]->users++;
        if (fl & STEER_AF_DEAD) w->dead++;
        // (no row at all when no brain keeps memory: w->mem is NULL then)
        const float *row = w->mem_stride ? w->mem + (size_t)d * w->mem_stride : NULL;
        for (uint32_t j = 0; j < w->mem_stride; j++)
            if (!steerW_storable(row[j])) return fail(in, "agent %u's behaviour memory is not finite", d);
        uint32_t s = w->slot[d];
        if (s >= w->nslots || w->dense_of[s] != UINT32_MAX - 1)
            return fail(in, "agent %u's handle slot %u is out of range or taken", d, s);
        w->dense_of[s] = d;
    }
    return true;
}

// The world's options and state, into a new world made from them.
static bool get_world(In *in, const steer_WorldDesc *hooks, uint32_t dim)
{
    in->section = "the world's options";
    steer_WorldDesc d = { 0 };
    if (hooks) {
        d.alloc = hooks->alloc;
        d.alloc_ud = hooks->alloc_ud;
        d.log = hooks->log;
        d.log_ud = hooks->log_ud;
        d.hooks = hooks->hooks;
        d.threads = hooks->threads;
        d.enqueue_task = hooks->enqueue_task;
        d.finish_task = hooks->finish_task;
        d.task_ctx = hooks->task_ctx;
    }
    uint32_t fl = get_u8(in);
    d.dim = (int)dim;
    d.wrap = fl & W_WRAP;
    d.no_record = !(fl & W_RECORD);
    d.collide = fl & W_COLLIDE;
    d.dt = get_f32(in);
    for (int i = 0; i < 3; i++) d.origin[i] = get_f32(in);
    for (int i = 0; i < 3; i++) d.size[i] = get_f32(in);
    d.seed = get_u64(in);
    uint64_t tick = get_u64(in), rng = get_u64(in);
    d.reorder_period = (int32_t)get_u32(in);
    d.stuck_window = get_f32(in);
    d.stuck_progress = get_f32(in);
    d.collide_iterations = (int32_t)get_u32(in);
    uint32_t mem_stride = get_u32(in);
    if (in->failed) return false;
    bool ok = !(fl & ~(uint32_t)W_ALL) && d.seed && rng && d.reorder_period && d.collide_iterations > 0 &&
              (d.stuck_window == 0 || d.stuck_progress > 0) && (d.stuck_window > 0 || d.stuck_progress == 0);
    for (int i = (int)dim; i < 3; i++) ok = ok && d.origin[i] == 0 && d.size[i] == 0;
    int st = ok ? steer_world_new(&d, &in->w) : STEER_EARG;
    if (st == STEER_ENOMEM) return oom(in);
    if (st) return fail(in, "the world's options are out of range");
    steer_World *w = in->w;
    w->tick = tick;
    w->rng = rng;
    w->any_craft = fl & W_ANY_CRAFT;
    if (mem_stride < w->mem_base || mem_stride > (1u << 20))
        return fail(in, "the behaviour memory's stride %u is out of range", mem_stride);
    w->mem_stride = mem_stride;
    return true;
}

static bool get_tags(In *in, uint32_t n)
{
    in->section = "the tags";
    if (n > STEERW_MAX_TAGS) return fail(in, "%u tags; a world holds at most %d", n, STEERW_MAX_TAGS);
    for (uint32_t i = 1; i <= n && !in->failed; i++) {
        const char *t = get_str(in, "a tag");
        if (!t) break;
        if (steerW_tag_find(in->w, t) >= 0) return fail(in, "tag '%s' is listed twice", t);
        int id = steerW_tag_id(in->w, t);
        if (id < 0) return oom(in);
    }
    return !in->failed;
}

// The behaviour trees and the brains, compiled at their ids.
static bool get_brains(In *in, uint32_t nnodes, uint32_t nbrains)
{
    steer_World *w = in->w;
    in->section = "the behaviours";
    if (nnodes > (in->n - in->at) / 8) return fail(in, "snapshot truncated in the behaviours");
    if (nnodes) {
        in->nodes = steerW_realloc(w, NULL, sizeof *in->nodes * nnodes);
        if (!in->nodes) return oom(in);
    }
    for (uint32_t i = 0; i < nnodes && !in->failed; i++) get_node(in, i);
    if (in->failed) return false;
    in->section = "the brains";
    if (nbrains > UINT16_MAX) return fail(in, "%u brains; a world holds at most %d", nbrains, UINT16_MAX);
    if (nbrains) {
        w->brains = steerW_realloc(w, NULL, sizeof *w->brains * nbrains);
        if (!w->brains) return oom(in);
        memset(w->brains, 0, sizeof *w->brains * nbrains);
        w->nbrains = nbrains;
    }
    for (uint32_t i = 1; i < nbrains; i++) {
        uint32_t root = get_u32(in);
        if (in->failed) return false;
        if (!root) continue;
        if (root > nnodes) return fail(in, "brain %u's tree %u is out of range", i, root - 1);
        steer_Behavior *b = in->nodes[root - 1];
        for (uint32_t j = 1; j < i; j++)
            if (w->brains[j] && w->brains[j]->root == b) return fail(in, "brains %u and %u share a tree", j, i);
        int st;
        steerB_Brain *br = steerB_compile(w, b, &st);
        if (!br) return st == STEER_ENOMEM ? oom(in) : fail(in, "brain %u: %s", i, steer_behavior_error(b));
        w->brains[i] = br;
        if (br->sense > w->sense_radius) w->sense_radius = br->sense;
        if (br->nnodes * 3 > w->rec_need) w->rec_need = br->nnodes * 3;
        if (w->mem_base + br->mem_floats > w->mem_stride)
            return fail(in, "brain %u needs %u floats of memory; the rows hold %u", i, w->mem_base + br->mem_floats,
                        w->mem_stride);
    }
    if (in->version < 2) return true;
    in->section = "the extra roots";
    uint32_t nroots = get_u32(in);
    if (in->failed) return false;
    if (nroots > (in->n - in->at) / 4) return fail(in, "snapshot truncated in the extra roots");
    if (nroots) {
        in->roots = steerW_realloc(w, NULL, sizeof *in->roots * nroots);
        if (!in->roots) return oom(in);
    }
    for (uint32_t i = 0; i < nroots; i++) {
        uint32_t root = get_u32(in);
        if (in->failed) return false;
        if (root >= nnodes) return fail(in, "extra root %u's tree %u is out of range", i, root);
        in->roots[in->nroots++] = root;
    }
    return true;
}

static bool load(In *in, const steer_WorldDesc *hooks, steer_World **out)
{
    const unsigned char *p = in->p;
    in->section = "the header";
    if (in->n < 12 || memcmp(p, MAGIC, 8) != 0) return fail(in, "not a steer snapshot (no STEERSNP magic)");
    in->at = 8;
    uint32_t version = in->version = get_u32(in);
    if (version != VERSION && version != 1)
        return fail(in, "snapshot version %u; this build reads version %u", version, VERSION);
    if (in->n < HEADER_BYTES + TRAILER_BYTES) return fail(in, "snapshot truncated in the header");
    uint32_t dim = get_u32(in);
    uint64_t total = get_u64(in);
    uint32_t count = get_u32(in), c[8];
    for (int i = 0; i < 8; i++) c[i] = get_u32(in);
    if (total != in->n)
        return fail(in, "snapshot truncated: %zu bytes of the %llu it had", in->n, (unsigned long long)total);
    if (steerW_checksum(p + 12, in->n - 12 - TRAILER_BYTES) != le64(p + in->n - TRAILER_BYTES))
        return fail(in, "checksum mismatch (the snapshot is corrupted)");
    in->n -= TRAILER_BYTES;
    if (dim != 2 && dim != 3) return fail(in, "the snapshot's world has %u dimensions", dim);
    uint32_t nslots = c[6];
    if (count > nslots || nslots > UINT32_MAX / 2)
        return fail(in, "%u agents in %u handle slots is out of range", count, nslots);
    if (!get_world(in, hooks, dim) || !get_tags(in, c[0]) || !get_brains(in, c[1], c[2])) return false;
    steer_World *w = in->w;
    // storage for the agents at the memory stride saved (records start
    // empty, at the brains' size), and for the handle table
    in->section = "the agents' columns";
    if (w->record) w->rec_stride = w->rec_need;
    steerW_Array cols[STEERW_MAX_ARRAYS];
    uint64_t per = 0;
    for (int k = 0, n = steerW_arrays(w, cols); k < n; k++)
        if (saved(&cols[k])) per += cols[k].bytes;
    if ((uint64_t)count * per > in->n - in->at || nslots > (in->n - in->at) / 4)
        return fail(in, "snapshot truncated in the agents' columns");
    if (steer_world_reserve(w, (int)count) != STEER_OK) return oom(in);
    if (nslots > w->cap_slots) {
        uint32_t *gen = steerW_realloc(w, w->gen, sizeof *gen * nslots);
        if (gen) w->gen = gen;
        uint32_t *dense_of = gen ? steerW_realloc(w, w->dense_of, sizeof *dense_of * nslots) : NULL;
        if (!dense_of) return oom(in);
        w->dense_of = dense_of;
        w->cap_slots = nslots;
    }
    for (uint32_t i = 1; i < w->nbrains; i++)
        if (w->brains[i] && w->brains[i]->faces && !w->face[0])
            for (int k = 0; k < w->dim; k++)
                if (!steerW_array_resize(w, &w->face[k], sizeof(float) * (w->cap ? w->cap : 1))) return oom(in);
    w->count = count;
    if (!get_thinkers(in, c[3]) || !get_shapes(in, c[4]) || !get_handles(in, nslots) || !get_turns(in, c[5]))
        return false;
    if (!get_columns(in, c[7])) return false;
    if (in->at != in->n) return fail(in, "the snapshot has %zu bytes past its columns", in->n - in->at);
    for (uint32_t i = 0; i < in->nroots; i++) steer_behavior_retain(in->nodes[in->roots[i]]); // the caller's
    for (uint32_t i = 0; i < in->nnodes; i++) steer_behavior_release(in->nodes[i]);           // the brains hold theirs
    in->nnodes = 0;
    *out = w;
    in->w = NULL;
    return true;
}

int steer_world_load_roots(const steer_WorldDesc *hooks, const void *data, size_t len, steer_World **out,
                           steer_Behavior **roots, int cap, int *nroots, char *err, size_t errlen)
{
    In in;
    memset(&in, 0, sizeof in);
    in.p = data;
    in.n = data ? len : 0;
    in.err = err;
    in.errlen = errlen;
    in.section = "the header";
    if (err && errlen) err[0] = 0;
    bool ok = load(&in, hooks, out);
    if (in.w) {
        for (uint32_t i = 0; i < in.nnodes; i++) steer_behavior_release(in.nodes[i]);
        steerW_free(in.w, in.nodes);
        steerW_free(in.w, in.roots);
        steerW_free(in.w, in.str);
        steer_world_free(in.w);
    }
    if (!ok) return in.oom ? STEER_ENOMEM : STEER_EARG;
    // the extra roots: the first cap to the caller, the others let go
    for (uint32_t i = 0; i < in.nroots; i++) {
        steer_Behavior *b = in.nodes[in.roots[i]];
        if (roots && (int)i < cap) roots[i] = b;
        else steer_behavior_release(b);
    }
    if (nroots) *nroots = (int)in.nroots;
    steerW_free(*out, in.nodes);
    steerW_free(*out, in.roots);
    steerW_free(*out, in.str);
    return STEER_OK;
}

int steer_world_load(const steer_WorldDesc *hooks, const void *data, size_t len, steer_World **out, char *err,
                     size_t errlen)
{
    return steer_world_load_roots(hooks, data, len, out, NULL, 0, NULL, err, errlen);
}

int steer_world_restore(steer_World *w, const void *data, size_t len, char *err, size_t errlen)
{
    if (w->in_tick) return STEER_EBUSY;
    steer_WorldDesc hooks = {
        .alloc = w->alloc, .alloc_ud = w->alloc_ud, .log = w->log, .log_ud = w->log_ud, .hooks = w->hooks
    };
    steer_World *fresh;
    int st = steer_world_load(&hooks, data, len, &fresh, err, errlen);
    if (st != STEER_OK) return st;
    // w keeps its address (the host's pointers to it stay good), and
    // freeing the other world frees what w held before
    steerW_swap(w, fresh);
    steerW_retarget(w, fresh); // the trees were loaded for the other address
    steer_world_free(fresh);
    return STEER_OK;
}
