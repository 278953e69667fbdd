// SPDX-License-Identifier: MIT
// tree.c — behaviour trees, the steer_behavior_* API: a node's whole life
// (new, retain, release), its fields set by name from its kind's field
// table, its children. What a script or host builds and a world compiles
// into a brain (brain.c). The core reaches the kinds themselves only
// through the table steerB_kinds (src/behaviors/kinds.c), as Lua's
// linit.c plugs in its libraries; nothing here knows a kind by name.
//
// Memory: a node allocates through the allocator it was made with (a
// world's or a host's, steer_behavior_new_alloc; libc's by default): the
// node, its children's slots, its name, tags and points. A node frees
// with its own allocator, so the nodes of one tree may come from different
// allocators (a snapshot's nodes from the loading world's, a script's from
// libc's).
#include "brain.h"

#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int steerB_fail(steer_Behavior *b, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->error, sizeof b->error, fmt, ap);
    va_end(ap);
    return code;
}

// ---- kinds and fields --------------------------------------------------

const steerB_Kind *steerB_find_kind(const char *name)
{
    for (int i = 0; steerB_kinds[i]; i++)
        if (strcmp(steerB_kinds[i]->name, name) == 0) return steerB_kinds[i];
    return NULL;
}

const steerB_Field *steerB_find_field(const steerB_Kind *k, const char *name)
{
    for (const steerB_Field *f = k->fields; f && f->name; f++)
        if (strcmp(f->name, name) == 0) return f;
    return NULL;
}

// The shortest text that reads back as bound v, exponent without '+' and
// leading zeros (1e-6, 1e30).
static void put_bound(char *out, size_t len, double v)
{
    for (int p = 1; p <= 17; p++) {
        snprintf(out, len, "%.*g", p, v);
        if (strtod(out, NULL) == v) break;
    }
    char *e = strchr(out, 'e');
    if (!e) return;
    char *to = e + 1 + (e[1] == '-'), *from = e + 2;
    while (*from == '0' && from[1]) from++;
    memmove(to, from, strlen(from) + 1);
}

const char *steerB_range_text(char *buf, size_t len, const char *what, double min, double max)
{
    const char *note = strstr(what, " (");
    int n = note ? (int)(note - what) : (int)strlen(what);
    char lo[32], hi[32];
    put_bound(lo, sizeof lo, min == 0 ? STEERA_PARAM_MIN : min);
    put_bound(hi, sizeof hi, max);
    snprintf(buf, len, "%s%.*s >= %s and <= %s%s", min == 0 ? "0 or " : "", n, what, lo, hi, note ? note : "");
    return buf;
}

const char *steerB_expect(const steerB_Field *f, char *buf, size_t len)
{
    return f->type == STEERB_NUMBER ? steerB_range_text(buf, len, f->expect, f->min, f->max) : f->expect;
}

// ---- behaviour trees ---------------------------------------------------

// ---- the field types ---------------------------------------------------

// What each field type does when a node is made (its default) and when it
// dies (what the node holds there): one row per steerB_FieldType. Values
// are set by the steer_behavior_set_* below; a snapshot writes and reads
// them in snapshot_trees.c. Strings and points a node owns (its tags, its
// points) are the node's, freed with it.
typedef struct FieldType {
    void (*init)(unsigned char *at, const steerB_Field *f);
    void (*drop)(unsigned char *at, const steerB_Field *f);
} FieldType;

static void init_number(unsigned char *at, const steerB_Field *f) { memcpy(at, &f->def, sizeof f->def); }
static void init_byte(unsigned char *at, const steerB_Field *f) { *at = (uint8_t)f->def; }
static void init_bool(unsigned char *at, const steerB_Field *f) { *at = f->def != 0.0f; }
static void init_ease(unsigned char *at, const steerB_Field *f)
{
    ((steerB_Ease *)(void *)at)->curve = (uint8_t)f->def;
}

static void drop_resource(unsigned char *at, const steerB_Field *f)
{
    void *obj;
    memcpy(&obj, at, sizeof obj);
    if (obj) steerB_field_resource(f)->release(obj);
}

static const FieldType field_types[] = {
    [STEERB_NUMBER] = { init_number, NULL },
    [STEERB_TARGET] = { NULL, NULL },
    [STEERB_CHOICE] = { init_byte, NULL },
    [STEERB_TAG] = { NULL, NULL },
    [STEERB_CALLBACK] = { NULL, NULL },
    [STEERB_EASE] = { init_ease, NULL },
    [STEERB_VECTOR] = { NULL, NULL },
    [STEERB_BOOL] = { init_bool, NULL },
    [STEERB_POINTS] = { NULL, NULL },
    [STEERB_CHILDREN] = { NULL, NULL },
    [STEERB_RESOURCE] = { NULL, drop_resource },
};
_Static_assert(sizeof field_types / sizeof field_types[0] == STEERB_RESOURCE + 1, "a row per field type");

static void *tree_alloc(const steer_Behavior *b, void *p, size_t size) { return b->alloc(b->alloc_ud, p, size); }

static void tree_free(const steer_Behavior *b, void *p)
{
    if (p) b->alloc(b->alloc_ud, p, 0);
}

int steer_behavior_new(const char *kind, steer_Behavior **out)
{
    STEERA_NONNULL(out, "a place for the new behaviour", STEER_EARG);
    STEERA_NONNULL(kind, "the name of a kind (steer_kinds)", STEER_EARG);
    return steer_behavior_new_alloc(kind, NULL, NULL, out);
}

int steer_behavior_new_alloc(const char *kind, steer_AllocFn alloc, void *alloc_ud, steer_Behavior **out)
{
    STEERA_NONNULL(out, "a place for the new behaviour", STEER_EARG);
    *out = NULL;
    STEERA_NONNULL(kind, "the name of a kind (steer_kinds)", STEER_EARG);
    const steerB_Kind *k = steerB_find_kind(kind);
    if (!k) return STEER_EARG;
    return steerB_new_alloc(k, alloc, alloc_ud, out);
}

// A host kind is a steer_HostKind whose first member is its steerB_Kind
// (src/behaviors/host.c asserts so): the core needs nothing else of it.
int steer_behavior_new_host(const steer_HostKind *k, steer_Behavior **out)
{
    STEERA_NONNULL(k, "a host kind (steer_host_kind_new)", STEER_EARG);
    STEERA_NONNULL(out, "a place for the new behaviour", STEER_EARG);
    return steerB_new((const steerB_Kind *)(const void *)k, out);
}

int steerB_new(const steerB_Kind *k, steer_Behavior **out) { return steerB_new_alloc(k, NULL, NULL, out); }

int steerB_new_alloc(const steerB_Kind *k, steer_AllocFn alloc, void *alloc_ud, steer_Behavior **out)
{
    *out = NULL;
    if (!alloc) alloc = steerA_default_alloc;
    steer_Behavior *b = alloc(alloc_ud, NULL, sizeof *b);
    if (!b) return STEER_ENOMEM;
    memset(b, 0, sizeof *b);
    b->lib = &steerA_lib;
    b->alloc = alloc;
    b->alloc_ud = alloc_ud;
    b->kind = k;
    b->refs = 1;
    b->weight = 1.0f;
    b->height = 1;
    for (const steerB_Field *f = k->fields; f && f->name; f++)
        if (field_types[f->type].init) field_types[f->type].init(b->params + f->offset, f);
    *out = b;
    return STEER_OK;
}

void steer_behavior_retain(steer_Behavior *b)
{
    if (!b) return;
    STEERA_TREE(b, );
    if (b) b->refs++;
}

// Without recursion: a chain built top-down through the C API may be
// deeper than the stack. Dying nodes wait in a list linked through `next_dead`.
void steer_behavior_release(steer_Behavior *b)
{
    if (!b) return;
    STEERA_TREE(b, );
    if (--b->refs > 0) return;
    b->next_dead = NULL;
    while (b) {
        steer_Behavior *next = b->next_dead;
        for (uint16_t i = 0; i < b->nkids; i++) {
            steer_Behavior *k = b->kids[i];
            if (--k->refs > 0) continue;
            k->next_dead = next;
            next = k;
        }
        for (const steerB_Field *f = b->kind->fields; f && f->name; f++)
            if (field_types[f->type].drop) field_types[f->type].drop(b->params + f->offset, f);
        tree_free(b, b->kids);
        tree_free(b, b->kid_weights);
        tree_free(b, b->kid_roles);
        tree_free(b, b->points);
        tree_free(b, b->name);
        for (int i = 0; i < 4; i++) tree_free(b, b->tags[i]);
        b->lib = NULL;
        tree_free(b, b);
        b = next;
    }
}

const char *steer_behavior_kind(const steer_Behavior *b)
{
    STEERA_TREE(b, "");
    return b->kind->name;
}
const char *steer_behavior_name(const steer_Behavior *b)
{
    STEERA_TREE(b, "");
    return b->name ? b->name : b->kind->name;
}
const char *steer_behavior_error(const steer_Behavior *b)
{
    STEERA_TREE(b, "");
    return b->error;
}

static int dup_into(const steer_Behavior *b, char **dst, const char *s)
{
    char *n = NULL;
    if (s) {
        size_t len = strlen(s) + 1;
        if (!(n = tree_alloc(b, NULL, len))) return STEER_ENOMEM;
        memcpy(n, s, len);
    }
    tree_free(b, *dst);
    *dst = n;
    return STEER_OK;
}

int steer_behavior_set_name(steer_Behavior *b, const char *name)
{
    STEERA_TREE(b, STEER_EARG);
    if (b->frozen) return steerB_fail(b, STEER_EARG, "behaviour is in use as a brain and cannot change");
    return dup_into(b, &b->name, name);
}

// Look a field up for a setter: must exist, have one of two types, and the
// behaviour must not be in use yet.
static const steerB_Field *settable(steer_Behavior *b, const char *field, steerB_FieldType t1, steerB_FieldType t2,
                                    int *st)
{
    *st = STEER_EARG;
    if (b->frozen) {
        steerB_fail(b, STEER_EARG, "behaviour is in use as a brain and cannot change");
        return NULL;
    }
    const steerB_Field *f = field ? steerB_find_field(b->kind, field) : NULL;
    if (!f) {
        steerB_fail(b, STEER_EARG, "%s has no field '%s'", b->kind->name, field ? field : "(null)");
        return NULL;
    }
    if (f->type != t1 && f->type != t2) {
        char buf[160];
        steerB_fail(b, STEER_EARG, "field '%s' expects %s", f->name, steerB_expect(f, buf, sizeof buf));
        return NULL;
    }
    *st = STEER_OK;
    return f;
}

int steer_behavior_set_number(steer_Behavior *b, const char *field, double v)
{
    STEERA_TREE(b, STEER_EARG);
    int st;
    const steerB_Field *f = settable(b, field, STEERB_NUMBER, STEERB_NUMBER, &st);
    if (!f) return st;
    char buf[160];
    if (!steerB_number_ok(v, f->min, f->max))
        return steerB_fail(b, STEER_EARG, "field '%s' expects %s", f->name, steerB_expect(f, buf, sizeof buf));
    // cross-field checks wait for the whole tree (steerB_compile), since
    // fields arrive one at a time in any order
    *(float *)(void *)(b->params + f->offset) = (float)v;
    return STEER_OK;
}

int steer_behavior_set_choice(steer_Behavior *b, const char *field, const char *choice)
{
    STEERA_TREE(b, STEER_EARG);
    int st;
    const steerB_Field *f = settable(b, field, STEERB_CHOICE, STEERB_EASE, &st);
    if (!f) return st;
    const char *const *ch = f->choices;
    for (int i = 0; choice && ch && ch[i]; i++) {
        if (strcmp(ch[i], choice) == 0) {
            void *at = b->params + f->offset;
            if (f->type == STEERB_CHOICE) *(uint8_t *)at = (uint8_t)i;
            else *(steerB_Ease *)at = (steerB_Ease){ (uint8_t)i, 0 };
            return STEER_OK;
        }
    }
    return steerB_fail(b, STEER_EARG, "field '%s' expects %s", f->name, f->expect);
}

int steer_behavior_set_callback(steer_Behavior *b, const char *field, int ref)
{
    STEERA_TREE(b, STEER_EARG);
    int st;
    const steerB_Field *f = settable(b, field, STEERB_CALLBACK, STEERB_EASE, &st);
    if (!f) return st;
    void *at = b->params + f->offset;
    if (f->type == STEERB_CALLBACK) *(int *)at = ref;
    else *(steerB_Ease *)at = (steerB_Ease){ 2, ref };
    return STEER_OK;
}

// How many fields of f's type come before f in its kind's table: a tag
// field's slot in the node's tags, a child list's role (from 1).
static int same_type_before(const steerB_Kind *k, const steerB_Field *f)
{
    int n = 0;
    for (const steerB_Field *g = k->fields; g != f; g++) n += g->type == f->type;
    return n;
}

int steer_behavior_set_tag(steer_Behavior *b, const char *field, const char *tag)
{
    STEERA_TREE(b, STEER_EARG);
    int st;
    const steerB_Field *f = settable(b, field, STEERB_TAG, STEERB_TAG, &st);
    if (!f) return st;
    int idx = same_type_before(b->kind, f);
    if (idx >= 4) return steerB_fail(b, STEER_EARG, "too many tag fields");
    return dup_into(b, &b->tags[idx], tag);
}

int steer_behavior_set_target_point(steer_Behavior *b, const char *field, const double p[3])
{
    STEERA_TREE(b, STEER_EARG);
    int st;
    const steerB_Field *f = settable(b, field, STEERB_TARGET, STEERB_TARGET, &st);
    if (!f) return st;
    STEERA_NONNULL(p, "a double[3]", STEER_EARG);
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
        return steerB_fail(b, STEER_EARG, "field '%s' expects %s", f->name, f->expect);
    steerB_Target *t = (steerB_Target *)(void *)(b->params + f->offset);
    t->kind = STEER_TARGET_POINT;
    for (int i = 0; i < 3; i++) t->p[i] = (float)p[i];
    t->agent = STEER_NO_AGENT;
    return STEER_OK;
}

int steer_behavior_set_target_agent(steer_Behavior *b, const char *field, steer_Agent a)
{
    STEERA_TREE(b, STEER_EARG);
    int st;
    const steerB_Field *f = settable(b, field, STEERB_TARGET, STEERB_TARGET, &st);
    if (!f) return st;
    steerB_Target *t = (steerB_Target *)(void *)(b->params + f->offset);
    t->kind = a.id ? STEER_TARGET_AGENT : STEER_TARGET_SLOT;
    t->agent = a;
    return STEER_OK;
}

int steer_behavior_set_vector(steer_Behavior *b, const char *field, const double v[3])
{
    STEERA_TREE(b, STEER_EARG);
    int st;
    const steerB_Field *f = settable(b, field, STEERB_VECTOR, STEERB_VECTOR, &st);
    if (!f) return st;
    STEERA_NONNULL(v, "a double[3]", STEER_EARG);
    float *at = (float *)(void *)(b->params + f->offset);
    for (int i = 0; i < 3; i++) {
        if (!isfinite(v[i]) || fabs(v[i]) > 3.4e38)
            return steerB_fail(b, STEER_EARG, "field '%s' expects %s", f->name, f->expect);
        at[i] = (float)v[i];
    }
    return STEER_OK;
}

int steer_behavior_set_bool(steer_Behavior *b, const char *field, bool v)
{
    STEERA_TREE(b, STEER_EARG);
    int st;
    const steerB_Field *f = settable(b, field, STEERB_BOOL, STEERB_BOOL, &st);
    if (!f) return st;
    *(uint8_t *)(b->params + f->offset) = v ? 1 : 0;
    return STEER_OK;
}

int steerB_set_resource(steer_Behavior *b, const char *field, const steerB_ResourceKind *kind, void *obj)
{
    int st;
    const steerB_Field *f = settable(b, field, STEERB_RESOURCE, STEERB_RESOURCE, &st);
    if (!f) return st;
    const steerB_ResourceKind *rk = steerB_field_resource(f);
    if (obj && kind != rk)
        return steerB_fail(b, STEER_EARG, "field '%s' expects %s, got a %s", f->name, f->expect,
                           kind ? kind->name : "(null)");
    void *old;
    memcpy(&old, b->params + f->offset, sizeof old);
    if (obj) rk->retain(obj);
    if (old) rk->release(old);
    memcpy(b->params + f->offset, &obj, sizeof obj);
    return STEER_OK;
}

void *steerB_resource(const steer_Behavior *b, const steerB_Field *f)
{
    void *obj = NULL;
    if (f->type == STEERB_RESOURCE) memcpy(&obj, b->params + f->offset, sizeof obj);
    return obj;
}

int steer_behavior_set_points(steer_Behavior *b, const char *field, const double *xyz, int n)
{
    STEERA_TREE(b, STEER_EARG);
    int st;
    const steerB_Field *f = settable(b, field, STEERB_POINTS, STEERB_POINTS, &st);
    if (!f) return st;
    if (n < (int)f->min || n > 1000000) return steerB_fail(b, STEER_EARG, "field '%s' expects %s", f->name, f->expect);
    if (n > 0) STEERA_NONNULL(xyz, "an array of 3 n numbers", STEER_EARG);
    float *pts = tree_alloc(b, NULL, sizeof(float) * 3 * (size_t)(n ? n : 1));
    if (!pts) return STEER_ENOMEM;
    for (int i = 0; i < 3 * n; i++) {
        if (!isfinite(xyz[i]) || fabs(xyz[i]) > 3.4e38) {
            tree_free(b, pts);
            return steerB_fail(b, STEER_EARG, "field '%s' expects %s (point %d is not finite)", f->name, f->expect,
                               i / 3 + 1);
        }
        pts[i] = (float)xyz[i];
    }
    tree_free(b, b->points);
    b->points = pts;
    *(steerB_Points *)(void *)(b->params + f->offset) = (steerB_Points){ pts, (uint32_t)n };
    return STEER_OK;
}

static int add_child(steer_Behavior *parent, steer_Behavior *child, double weight, uint8_t role);

int steer_behavior_add_child(steer_Behavior *parent, steer_Behavior *child, double weight)
{
    STEERA_TREE(parent, STEER_EARG);
    STEERA_TREE(child, STEER_EARG);
    return add_child(parent, child, weight, 0);
}

int steer_behavior_add_child_to(steer_Behavior *parent, const char *field, steer_Behavior *child)
{
    STEERA_TREE(parent, STEER_EARG); // here too: the error names this function
    STEERA_TREE(child, STEER_EARG);
    return steerB_add_child_to(parent, field, child, 1.0);
}

int steerB_add_child_to(steer_Behavior *parent, const char *field, steer_Behavior *child, double weight)
{
    STEERA_TREE(parent, STEER_EARG);
    STEERA_TREE(child, STEER_EARG);
    int st;
    const steerB_Field *f = settable(parent, field, STEERB_CHILDREN, STEERB_CHILDREN, &st);
    if (!f) return st;
    uint8_t role = (uint8_t)(1 + same_type_before(parent->kind, f));
    // a CHILDREN field may take at most `max` children (0: any number), and
    // only of the kinds named in `choices` (NULL: any kind)
    int have = 0;
    for (uint16_t i = 0; i < parent->nkids; i++) have += parent->kid_roles[i] == role;
    bool kind_ok = !f->choices || !child;
    for (int i = 0; !kind_ok && f->choices[i]; i++) kind_ok = strcmp(f->choices[i], child->kind->name) == 0;
    if (!kind_ok)
        return steerB_fail(parent, STEER_EARG, "field '%s' expects %s, got steer.%s", f->name, f->expect,
                           child->kind->name);
    if (f->max > 0 && have >= (int)f->max)
        return steerB_fail(parent, STEER_EARG, "field '%s' expects %s, got more than %d", f->name, f->expect,
                           (int)f->max);
    if (f->def == 0.0f ? weight != 1.0 : !(weight >= 0.0))
        return steerB_fail(parent, STEER_EARG, "field '%s' expects %s, got a weight of %g", f->name,
                           f->def == 0.0f ? "no weights" : "weights >= 0", weight);
    return add_child(parent, child, weight, role);
}

// Mark x seen and list it in *seen (for the clearing); false when out of memory.
static bool mark_seen(const steer_Behavior *by, steer_Behavior ***seen, size_t *n, size_t *cap, steer_Behavior *x)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        steer_Behavior **s = tree_alloc(by, *seen, sizeof *s * c);
        if (!s) return false;
        *seen = s;
        *cap = c;
    }
    x->seen = true;
    (*seen)[(*n)++] = x;
    return true;
}

// Is `target` in the tree under `from`? A breadth-first walk that marks
// what it has seen, so a sub-tree shared by many parents (a DAG) is walked
// once, not once per path; the list of marked nodes clears the marks.
// 1, 0, or -1 when out of memory.
static int reaches(steer_Behavior *from, steer_Behavior *target)
{
    steer_Behavior **seen = NULL;
    size_t n = 0, cap = 0;
    int found = mark_seen(from, &seen, &n, &cap, from) ? 0 : -1;
    for (size_t k = 0; k < n && found == 0; k++) {
        if (seen[k] == target) found = 1;
        for (uint16_t i = 0; i < seen[k]->nkids && found == 0; i++)
            if (!seen[k]->kids[i]->seen && !mark_seen(from, &seen, &n, &cap, seen[k]->kids[i])) found = -1;
    }
    for (size_t k = 0; k < n; k++) seen[k]->seen = false;
    tree_free(from, seen);
    return found;
}

static int add_child(steer_Behavior *parent, steer_Behavior *child, double weight, uint8_t role)
{
    if (parent->frozen) return steerB_fail(parent, STEER_EARG, "behaviour is in use as a brain and cannot change");
    if (parent->kind->children == STEERB_LEAF)
        return steerB_fail(parent, STEER_EARG, "%s takes no children", parent->kind->name);
    if (!child) return steerB_fail(parent, STEER_EARG, "child is missing");
    if (!isfinite(weight) || fabs(weight) > FLT_MAX)
        return steerB_fail(parent, STEER_EARG, "weight must be a finite number (within the float range)");
    if (parent->nkids >= STEERB_MAX_CHILDREN)
        return steerB_fail(parent, STEER_EFULL, "at most %d children", STEERB_MAX_CHILDREN);
    // evaluation recurses once per level: refuse a tree too deep for it
    if (child->height >= STEERB_MAX_DEPTH)
        return steerB_fail(parent, STEER_EARG,
                           "child %s is nested %d levels deep; expected at most %d (trees nest at most %d levels)",
                           steer_behavior_name(child), child->height, STEERB_MAX_DEPTH - 1, STEERB_MAX_DEPTH);
    // a behaviour cannot contain itself
    int found = reaches(child, parent);
    if (found < 0) return STEER_ENOMEM;
    if (found) return steerB_fail(parent, STEER_EARG, "a combiner cannot contain itself");
    steer_Behavior **k = tree_alloc(parent, parent->kids, sizeof *k * (parent->nkids + 1u));
    if (!k) return STEER_ENOMEM;
    parent->kids = k;
    float *wts = tree_alloc(parent, parent->kid_weights, sizeof *wts * (parent->nkids + 1u));
    if (!wts) return STEER_ENOMEM;
    parent->kid_weights = wts;
    uint8_t *roles = tree_alloc(parent, parent->kid_roles, parent->nkids + 1u);
    if (!roles) return STEER_ENOMEM;
    parent->kid_roles = roles;
    steer_behavior_retain(child);
    k[parent->nkids] = child;
    wts[parent->nkids] = (float)weight;
    roles[parent->nkids] = role;
    parent->nkids++;
    if (child->height >= parent->height) parent->height = (uint16_t)(child->height + 1);
    return STEER_OK;
}
