// SPDX-License-Identifier: MIT
// lsnaptree.c — the trees as the Lua snapshot sees them: the answers to
// the core's snapshot hooks (a callback's function index, a flow field's
// place: steerL_hook_save_ref and steerL_hook_load_ref), the digests and
// function lists the Lua helper (lua/steer/snapshot.lua) compares trees
// by, giving a loaded brain back the tree a name still holds
// (steerL_snap_adopt), and w:same_brain; with them the Lua helper itself
// and the byte boxes both halves write into. The snapshot's layout,
// w:save, steer.load and w:restore are lsnapshot.c's, which calls down
// into this file and never the other way.
#include "lsnapint.h"
#include "lnav.h"

#include <stdio.h>
#include <string.h>

#define REG_HELPER "steer.snapshot"
#define BYTES "steer.snapshot_bytes"

// ---- the Lua half: names of functions ------------------------------------

// lua/steer/snapshot.lua, built in (tools/embed.py), so that no
// package.path is needed: run once per Lua state with the C helpers
// tree_fns and digest as arguments, it returns a table of functions.
#include "snapshot_lua.h"

// ---- byte boxes: malloc'd memory a raise cannot leak -------------------------

static int bytes_gc(lua_State *L)
{
    steerS_writer_free(lua_touserdata(L, 1));
    return 0;
}

// A growing buffer (realloc and free) in a userdata; a failed put sets failed.
steerS_Writer *steerL_snap_bytes(lua_State *L)
{
    const steerL_Host *h = steerL_host(L); // the host's allocator, or libc
    steerS_Writer *b = lua_newuserdatauv(L, sizeof *b, 0);
    steerS_writer_init(b, h ? h->alloc : NULL, h ? h->alloc_ud : NULL);
    luaL_setmetatable(L, BYTES);
    return b;
}

static const char *read_helper(lua_State *L, void *ud, size_t *size)
{
    (void)L;
    bool *read = ud;
    *size = *read ? 0 : sizeof steerL_snapshot_lua;
    *read = true;
    return (const char *)steerL_snapshot_lua;
}

// Push function `name` of the helper table (made once per Lua state).
void steerL_snap_helper(lua_State *L, const char *name)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, REG_HELPER) != LUA_TTABLE) {
        lua_pop(L, 1);
        bool read = false;
        if (lua_load(L, read_helper, &read, "=steer.snapshot", "t") != LUA_OK) lua_error(L);
        lua_pushcfunction(L, steerL_snap_tree_fns);
        lua_pushcfunction(L, steerL_snap_digest);
        lua_call(L, 2, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, REG_HELPER);
    }
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
}

void steerL_open_snaptree(lua_State *L)
{
    luaL_newmetatable(L, BYTES);
    lua_pushcfunction(L, bytes_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
}

// ---- walking the world's trees as the core lists them ----------------------

void steerL_snap_walk(steerL_Walk *wk, steer_Behavior *b)
{
    lua_State *L = wk->L;
    lua_pushlightuserdata(L, b);
    int seen = lua_rawget(L, wk->seen) != LUA_TNIL;
    lua_pop(L, 1);
    if (seen) return;
    for (uint16_t i = 0; i < b->nkids; i++) steerL_snap_walk(wk, b->kids[i]);
    lua_pushlightuserdata(L, b);
    lua_pushinteger(L, wk->node);
    lua_rawset(L, wk->seen);
    wk->visit(wk, b);
    wk->node++;
}

// Where field f of params p holds a host reference (a callback, or an
// ease that is one): *off, and true.
static bool ref_field(const unsigned char *params, const steerB_Field *f, size_t *off)
{
    if (f->type == STEERB_CALLBACK) {
        *off = f->offset;
        return true;
    }
    if (f->type != STEERB_EASE) return false;
    steerB_Ease e;
    memcpy(&e, params + f->offset, sizeof e);
    *off = f->offset + offsetof(steerB_Ease, ref);
    return e.curve == 2;
}

// The next field from *f on that holds a host reference other than 0:
// where (*off) and which (*v); false after the last.
static bool next_ref(const steer_Behavior *b, const steerB_Field **f, size_t *off, int32_t *v)
{
    for (; *f && (*f)->name; (*f)++) {
        if (!ref_field(b->params, *f, off)) continue;
        memcpy(v, b->params + *off, 4);
        if (*v != 0) {
            (*f)++;
            return true;
        }
    }
    return false;
}

// ---- digests: a tree's structure and parameters, refs left out -------------

static void digest_visit(steerL_Walk *wk, steer_Behavior *b)
{
    steerS_Writer *o = wk->out;
    steerS_put(o, b->kind->name, strlen(b->kind->name) + 1);
    const char *name = b->name ? b->name : "";
    steerS_put(o, name, strlen(name) + 1);
    int tag = 0;
    for (const steerB_Field *f = b->kind->fields; f && f->name; f++) {
        const unsigned char *at = b->params + f->offset;
        size_t off;
        switch (f->type) {
        case STEERB_NUMBER: steerS_put(o, at, 4); break;
        case STEERB_TARGET: {
            steerB_Target t;
            memcpy(&t, at, sizeof t);
            steerS_put(o, &t.kind, 1);
            steerS_put(o, t.p, sizeof t.p);
            steerS_put_u64(o, t.agent.id);
            break;
        }
        case STEERB_CHOICE:
        case STEERB_BOOL: steerS_put(o, at, 1); break;
        case STEERB_TAG: {
            const char *s = tag < 4 && b->tags[tag] ? b->tags[tag] : "";
            tag++;
            steerS_put(o, s, strlen(s) + 1);
            break;
        }
        case STEERB_CALLBACK:
        case STEERB_EASE: {
            int32_t ref = 0;
            if (ref_field(b->params, f, &off)) memcpy(&ref, b->params + off, 4);
            uint8_t has = ref != 0;
            steerS_put(o, &has, 1);
            if (f->type == STEERB_EASE) steerS_put(o, at, 1);
            break;
        }
        case STEERB_VECTOR: steerS_put(o, at, 12); break;
        case STEERB_POINTS: {
            steerB_Points p;
            memcpy(&p, at, sizeof p);
            steerS_put_u32(o, p.n);
            if (p.n) steerS_put(o, p.p, sizeof(float) * 3 * p.n);
            break;
        }
        case STEERB_RESOURCE: // which one is fits()'s question, as for callbacks
        case STEERB_CHILDREN: break;
        }
    }
    steerS_put_u16(o, b->nkids);
    for (uint16_t i = 0; i < b->nkids; i++) {
        lua_pushlightuserdata(wk->L, b->kids[i]);
        lua_rawget(wk->L, wk->seen);
        steerS_put_u32(o, (uint32_t)lua_tointeger(wk->L, -1));
        lua_pop(wk->L, 1);
        steerS_put(o, &b->kid_weights[i], 4);
        steerS_put(o, &b->kid_roles[i], 1);
    }
}

// Push the digest of tree b, a string.
static void push_digest(lua_State *L, steer_Behavior *b)
{
    steerL_Walk wk = { .L = L, .visit = digest_visit, .node = 1 };
    wk.out = steerL_snap_bytes(L);
    lua_newtable(L);
    wk.seen = lua_gettop(L);
    steerL_snap_walk(&wk, b);
    if (wk.out->failed) luaL_error(L, "steer.load: out of memory");
    lua_pushlstring(L, (const char *)wk.out->p, wk.out->n);
    lua_replace(L, -3);
    lua_pop(L, 1);
}

// digest(behaviour) -> string (for the helper)
int steerL_snap_digest(lua_State *L)
{
    steer_Behavior *b = steerL_tobehavior(L, 1);
    if (!b) return luaL_error(L, "steer.load: an archetype's brain is not a behaviour");
    push_digest(L, b);
    return 1;
}

static void fns_visit(steerL_Walk *wk, steer_Behavior *b)
{
    lua_State *L = wk->L;
    const steerB_Field *f = b->kind->fields;
    size_t off;
    int32_t ref;
    while (next_ref(b, &f, &off, &ref)) {
        if (steerL_snap_foreign(ref)) lua_pushboolean(L, 0); // keeps the others' places
        else lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
        lua_rawseti(L, wk->a, (lua_Integer)lua_rawlen(L, wk->a) + 1);
    }
}

// tree_fns(behaviour) -> the Lua functions of its callbacks, in node order
int steerL_snap_tree_fns(lua_State *L)
{
    steer_Behavior *b = steerL_tobehavior(L, 1);
    lua_newtable(L);
    if (!b) return 1;
    steerL_Walk wk = { .L = L, .visit = fns_visit, .node = 1, .a = lua_gettop(L) };
    lua_newtable(L);
    wk.seen = lua_gettop(L);
    steerL_snap_walk(&wk, b);
    lua_settop(L, wk.a);
    return 1;
}

// Save: a: fn -> k, b: k -> fn, c: k -> where it is first used (text), d:
// k -> the tree (or nil), e: the flow fields of follow_flow nodes, in order,
// and the top: node -> index into e.
lua_Integer steerL_snap_fn_index(steerL_Walk *wk, const char *use)
{
    lua_State *L = wk->L;
    lua_pushvalue(L, -1);
    if (lua_rawget(L, wk->a) == LUA_TNUMBER) {
        lua_Integer k = lua_tointeger(L, -1);
        lua_pop(L, 2);
        return k;
    }
    lua_pop(L, 1);
    lua_Integer k = (lua_Integer)lua_rawlen(L, wk->b) + 1;
    lua_pushvalue(L, -1);
    lua_rawseti(L, wk->b, k);
    lua_pushinteger(L, k);
    lua_rawset(L, wk->a);
    lua_pushstring(L, use);
    lua_rawseti(L, wk->c, k);
    if (wk->root) {
        lua_pushlightuserdata(L, wk->root);
        lua_rawseti(L, wk->d, k);
    }
    return k;
}

// ---- the trees' references: callbacks and flow fields ------------------------

// The core writes each callback and each flow field of the trees as a
// number it asks the binding for (steer_Hooks' save_ref), in its own order
// of nodes, and a load gives the number back (load_ref) while it makes the
// node, before any brain is compiled: so the binding never walks or patches
// the trees. The hooks are every Lua world's (steerL_new_world); they act
// while w:save or steer.load has put its state in the world's `snap`, and
// without it do what the core does with no hooks. Their Lua work runs in a
// protected call, so an error never unwinds through the core.

static int save_ref_call(lua_State *L)
{
    steerL_SaveRefs *sr = lua_touserdata(L, 1); // 2 to 6: the tables a to e
    const steer_Ref *r = sr->r;
    steerL_Walk wk = *sr->wk;
    wk.L = L;
    wk.a = 2, wk.b = 3, wk.c = 4, wk.d = 5, wk.e = 6;
    lua_settop(L, 6);
    if (r->obj) { // a flow field, the one resource a Lua tree holds
        lua_Integer n = (lua_Integer)lua_rawlen(L, wk.e) + 1;
        lua_pushlightuserdata(L, r->obj);
        lua_rawseti(L, wk.e, n);
        sr->out = (uint32_t)n;
        return 0;
    }
    char use[160];
    snprintf(use, sizeof use, "brain node '%s' (%s)", steer_behavior_name(r->node), steer_behavior_kind(r->node));
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref);
    wk.root = (steer_Behavior *)(uintptr_t)r->root;
    sr->out = (uint32_t)steerL_snap_fn_index(&wk, use);
    return 0;
}

int steerL_hook_save_ref(void *ud, const steer_Ref *r, uint32_t *out)
{
    steerL_SaveRefs *sr = ((steerL_World *)ud)->snap;
    // a foreign callback (a mod's) is saved as its owner, without a function
    if (!sr || (!r->obj && steerL_snap_foreign(r->ref))) {
        *out = r->obj ? 0 : !sr ? (uint32_t)r->ref : (uint32_t)(r->ref & ~((1 << STEERL_OWNER_SHIFT) - 1));
        return 0;
    }
    lua_State *L = sr->L;
    sr->r = r;
    lua_pushcfunction(L, save_ref_call);
    lua_pushlightuserdata(L, sr);
    for (int t = sr->wk->a; t <= sr->wk->e; t++) lua_pushvalue(L, t);
    if (lua_pcall(L, 6, 0, 0) != LUA_OK) {
        snprintf(sr->error, sizeof sr->error, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "out of memory");
        lua_pop(L, 1);
        return 1;
    }
    *out = sr->out;
    return 0;
}

static int load_ref_call(lua_State *L)
{
    steerL_LoadRefs *lr = lua_touserdata(L, 1); // 2 a, 3 b, 4 c, 5 flows, 6 grids
    const steer_Ref *r = lr->r;
    char node[24];
    if (!r->type || strcmp(r->type, "callback") == 0) {
        if (lua_rawgeti(L, 2, lr->in) != LUA_TFUNCTION)
            return luaL_error(L, "steer.load: corrupt snapshot (node '%s' calls function %s, which it does not name)",
                              steer_behavior_name(r->node), steerL_istr(node, lr->in));
        if (lua_rawgeti(L, 3, lr->in) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
            lua_pushvalue(L, -1);
            lua_rawseti(L, 4, (lua_Integer)lua_rawlen(L, 4) + 1);
            lua_pushvalue(L, -1);
            lua_rawseti(L, 3, lr->in);
        }
        lr->ref = (int)lua_tointeger(L, -1);
        return 0;
    }
    if (lua_rawgeti(L, 5, lr->in) == LUA_TNIL && r->by_node) return 0; // a node bound to none
    const steerN_Flow *flow = NULL;
    if (lua_istable(L, -1) && lua_rawgeti(L, -1, 1) == LUA_TNUMBER && lua_rawgeti(L, 6, lua_tointeger(L, -1)) &&
        lua_istable(L, -1) && lua_rawgeti(L, -3, 2) == LUA_TNUMBER && lua_rawgeti(L, -2, lua_tointeger(L, -1)))
        flow = steerL_toflow(L, -1);
    if (!flow)
        return luaL_error(L, "steer.load: corrupt snapshot (node '%s''s flow field)", steer_behavior_name(r->node));
    lr->flow = flow;
    return 0;
}

int steerL_hook_load_ref(void *ud, const steer_Ref *r, uint32_t in, int *ref, void **obj)
{
    steerL_LoadRefs *lr = ((steerL_World *)ud)->snap;
    bool callback = strcmp(r->type, "callback") == 0;
    if (!lr || (callback && steerL_snap_foreign((int32_t)in))) { // another state's: kept as it is
        *ref = callback ? (int32_t)in : 0;
        return 0;
    }
    lua_State *L = lr->L;
    lr->r = r;
    lr->in = in;
    lr->flow = NULL;
    lua_pushcfunction(L, load_ref_call);
    lua_pushlightuserdata(L, lr);
    lua_pushvalue(L, lr->a);
    lua_pushvalue(L, lr->b);
    lua_pushvalue(L, lr->c);
    lua_pushvalue(L, lr->flows);
    lua_pushvalue(L, lr->grids);
    if (lua_pcall(L, 6, 0, 0) != LUA_OK) {
        snprintf(lr->error, sizeof lr->error, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "out of memory");
        lua_pop(L, 1);
        return 1;
    }
    *ref = callback ? lr->ref : 0;
    *obj = (void *)(uintptr_t)lr->flow;
    return 0;
}

// Whether tree t can stand for c, a tree of the same digest (the caller
// compares those), in world w: node for node its callbacks call the same
// functions, its flow nodes follow the same fields, and it targets no
// agent of another world.
static bool fits(lua_State *L, const steer_Behavior *c, const steer_Behavior *t, const steer_World *w)
{
    if (c->kind != t->kind || c->nkids != t->nkids || (t->target_world && t->target_world != w)) return false;
    for (const steerB_Field *f = c->kind->fields; f && f->name; f++) // the same flow fields
        if (f->type == STEERB_RESOURCE && steerB_resource(c, f) != steerB_resource(t, f)) return false;
    const steerB_Field *fc = c->kind->fields, *ft = t->kind->fields;
    size_t off;
    int32_t rc = 0, rt = 0;
    for (;;) {
        bool more = next_ref(c, &fc, &off, &rc);
        if (more != next_ref(t, &ft, &off, &rt)) return false;
        if (!more) break;
        if (steerL_snap_foreign(rc) || steerL_snap_foreign(rt)) {
            if (rc != rt) return false;
            continue;
        }
        lua_rawgeti(L, LUA_REGISTRYINDEX, rc);
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt);
        bool same = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (!same) return false;
    }
    for (uint16_t i = 0; i < c->nkids; i++)
        if (!fits(L, c->kids[i], t->kids[i], w)) return false;
    return true;
}

static void no_visit(steerL_Walk *wk, steer_Behavior *b)
{
    (void)wk;
    (void)b;
}

// Mark every node of tree b in the set at `set` (the walk's: node -> an
// index), each shared node once.
void steerL_snap_mark_nodes(lua_State *L, int set, steer_Behavior *b)
{
    steerL_Walk wk = { .L = L, .visit = no_visit, .seen = set, .node = 1 };
    steerL_snap_walk(&wk, b);
}

// The name (entry k of the snapshot's `named`, at named) of a copy the
// load keeps, into the world's "tree_names" (at names): copy -> name.
static void keep_name(lua_State *L, int names, const steer_Behavior *copy, int named, lua_Integer k)
{
    lua_pushlightuserdata(L, (void *)copy);
    lua_rawgeti(L, named, k);
    lua_rawset(L, names);
}

// Whether the loaded world's trees other than brain `self` (the other
// brains' and the trees of a.data at `trees`, but for `copy` itself) share
// a node with `copy`: then copy stays, so that the sharing stays too.
static bool shared_elsewhere(lua_State *L, const steer_World *w, int self, steer_Behavior *copy, int trees)
{
    lua_newtable(L); // the others' nodes
    int set = lua_gettop(L);
    for (int j = 1; j < steer_world_brains(w); j++)
        if (j != self && steer_world_brain(w, j)) steerL_snap_mark_nodes(L, set, steer_world_brain(w, j));
    for (lua_Integer j = 1; j <= (lua_Integer)lua_rawlen(L, trees); j++) {
        lua_rawgeti(L, trees, j);
        steer_Behavior *t = steerL_tobehavior(L, -1);
        lua_pop(L, 1);
        if (t && t != copy) steerL_snap_mark_nodes(L, set, t);
    }
    lua_newtable(L); // copy's nodes
    steerL_snap_mark_nodes(L, set + 1, copy);
    bool shared = false;
    lua_pushnil(L);
    while (!shared && lua_next(L, set + 1)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        shared = lua_rawget(L, set) != LUA_TNIL;
        lua_pop(L, 1);
    }
    lua_settop(L, set - 1);
    return shared;
}

// A brain whose tree the snapshot names (an archetype's brain, a tree in a
// module's table or in opts.roots: `named`, k -> name, k counting the
// brains in id order) takes the tree of that name in this Lua state back
// when it has the digest of the loaded copy and fits it: the agents'
// thinks assign that tree, and so find their brain (and its memory)
// again, as in the saving process. A tree defined otherwise since keeps
// the copy, and so does a copy that shares nodes with another loaded tree
// (taking the named one would split what the snapshot shared). At the top:
// trees (a.data's), brains (the world's, root -> its value) as in load.
void steerL_snap_adopt(lua_State *L, steer_World *w, int section, int trees, int brains, int names)
{
    int top = lua_gettop(L);
    if (lua_getfield(L, section, "named") != LUA_TTABLE) {
        lua_settop(L, top);
        return;
    }
    lua_Integer k = 0;
    for (int i = 1; i < steer_world_brains(w); i++) {
        steer_Behavior *copy = steer_world_brain(w, i);
        if (!copy) continue;
        lua_settop(L, top + 1);
        if (lua_rawgeti(L, top + 1, ++k) != LUA_TTABLE) continue;
        steerL_snap_helper(L, "lookup");
        lua_insert(L, -2);
        lua_pushvalue(L, 3);
        lua_pushvalue(L, 5);
        lua_pushvalue(L, 4);
        lua_pushinteger(L, k);
        lua_call(L, 5, 1); // top + 2: the named value
        steer_Behavior *t = steerL_tobehavior(L, -1);
        if (!t || t == copy || steer_world_uses_brain(w, t) || !fits(L, copy, t, w) ||
            shared_elsewhere(L, w, i, copy, trees)) {
            keep_name(L, names, copy, top + 1, k);
            continue;
        }
        push_digest(L, copy);
        push_digest(L, t);
        if (!lua_rawequal(L, -1, -2)) { // defined otherwise since: the copy stays, with its name
            keep_name(L, names, copy, top + 1, k);
            continue;
        }
        int st = steer_world_replace_brain(w, (int)i, t);
        if (st == STEER_ENOMEM) luaL_error(L, "steer.load: out of memory");
        if (st != STEER_OK) { // laid out otherwise after all: the copy stays, with its name
            keep_name(L, names, copy, top + 1, k);
            continue;
        }
        lua_pushlightuserdata(L, copy);
        lua_pushnil(L);
        lua_rawset(L, brains);
        lua_pushlightuserdata(L, t);
        lua_pushvalue(L, top + 2);
        lua_rawset(L, brains);
        for (lua_Integer j = 1; j <= (lua_Integer)lua_rawlen(L, trees); j++) {
            lua_rawgeti(L, trees, j);
            bool was = steerL_tobehavior(L, -1) == copy;
            lua_pop(L, 1);
            if (!was) continue;
            lua_pushvalue(L, top + 2);
            lua_rawseti(L, trees, j);
        }
    }
    lua_settop(L, top);
}

// ---- w:same_brain ----------------------------------------------------------

// w:same_brain(t) -> the tree of a brain w runs that t is the same as (its
// digest, and it fits: the same functions, the same flow fields), or t. A
// script that builds its trees where no module table can hold them (a
// cache keyed by a flow field) finds the loaded world's brains with it.
int steerL_world_same_brain(lua_State *L)
{
    steerL_World *lw = steerL_checkworld(L, 1);
    steer_Behavior *t = steerL_tobehavior(L, 2);
    if (!t) steerL_field_error(L, "steer.world:same_brain", NULL, "a behaviour tree as argument 1", 2);
    lua_settop(L, 2);
    steer_World *w = lw->w;
    steerL_uv_field(L, 1, "brains"); // 3
    for (int i = 1; i < steer_world_brains(w); i++) {
        steer_Behavior *r = steer_world_brain(w, i);
        if (!r || r == t || !fits(L, r, t, w)) continue;
        if (lua_gettop(L) == 3) push_digest(L, t); // 4
        push_digest(L, r);
        bool same = lua_rawequal(L, -1, 4);
        lua_pop(L, 1);
        lua_pushlightuserdata(L, r);
        if (same && lua_rawget(L, 3) == LUA_TUSERDATA) return 1;
        lua_settop(L, 4);
    }
    lua_settop(L, 2);
    return 1;
}

// ---- a restore by another state: this state's trees back --------------------

// The trees this state gave a world as brains and still holds, whose
// digest is that of `copy` and that fit it, not already a brain of w:
// the only one on top (true), or nothing (false). digests (at d) caches
// each candidate's digest.
static bool kept_tree(lua_State *L, steer_World *w, steer_Behavior *copy, int trees, int digests)
{
    int top = lua_gettop(L);
    push_digest(L, copy); // top + 1
    lua_pushnil(L);       // top + 2: the tree found
    int found = 0;
    lua_pushnil(L);
    while (found < 2 && lua_next(L, trees)) {
        lua_pop(L, 1);
        steer_Behavior *t = steerL_tobehavior(L, -1);
        if (!t || t == copy || t->kind != copy->kind || steer_world_uses_brain(w, t) || !fits(L, copy, t, w)) continue;
        lua_pushvalue(L, -1);
        if (lua_rawget(L, digests) == LUA_TNIL) {
            lua_pop(L, 1);
            push_digest(L, t);
            lua_pushvalue(L, -2);
            lua_pushvalue(L, -2);
            lua_rawset(L, digests);
        }
        bool same = lua_rawequal(L, -1, top + 1);
        lua_pop(L, 1);
        if (!same) continue;
        if (++found == 1) {
            lua_pushvalue(L, -1);
            lua_replace(L, top + 2);
        }
    }
    if (found != 1) { // none, or two alike: which one the script meant is not known
        lua_settop(L, top);
        return false;
    }
    lua_replace(L, top + 1);
    return true;
}

// Whether brain root r of the world whose `brains` table is at brains is a
// copy a load made (its userdata's user value has the load's `holder`) or
// one this state has no value of (another state's tree, a copy another
// state's load made): one that may take a tree of this state back.
static bool loaded_copy(lua_State *L, int brains, const steer_Behavior *r)
{
    int top = lua_gettop(L);
    lua_pushlightuserdata(L, (void *)(uintptr_t)r);
    bool none = lua_rawget(L, brains) == LUA_TNIL;
    bool copy = none || (lua_getiuservalue(L, -1, 1) == LUA_TTABLE && lua_getfield(L, -1, "holder") != LUA_TNIL);
    lua_settop(L, top);
    return copy;
}

void steerL_snap_adopt_kept(lua_State *L, int world_idx, const char *fn)
{
    world_idx = lua_absindex(L, world_idx);
    steer_World *w = steerL_checkworld(L, world_idx)->w;
    if (lua_getfield(L, LUA_REGISTRYINDEX, STEERL_REG_BRAIN_TREES) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    int trees = lua_gettop(L);
    steerL_uv_field(L, world_idx, "brains");
    int brains = trees + 1;
    lua_newtable(L); // tree -> its digest
    int digests = trees + 2;
    for (int i = 1; i < steer_world_brains(w); i++) {
        steer_Behavior *copy = steer_world_brain(w, i);
        if (!copy || !loaded_copy(L, brains, copy) || !kept_tree(L, w, copy, trees, digests)) continue;
        steer_Behavior *t = steerL_tobehavior(L, -1);
        int st = steer_world_replace_brain(w, i, t);
        if (st == STEER_ENOMEM) luaL_error(L, "%s: out of memory", fn);
        if (st == STEER_OK) {
            lua_pushlightuserdata(L, copy);
            lua_pushnil(L);
            lua_rawset(L, brains);
            lua_pushlightuserdata(L, t);
            lua_pushvalue(L, -2);
            lua_rawset(L, brains);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, trees - 1);
}

void steerL_restored_twins(lua_State *L, int world_idx)
{
    steerL_World *lw = steerL_checkworld(L, world_idx);
    if (!lw->w) return;
    steerL_grids_twin_world(L, lw->w, "steer.world:restore");
    steerL_nav_twins_world(L, lw->w, "steer.world:restore"); // lnavtwin.c
    steerL_snap_adopt_kept(L, world_idx, "steer.world:restore");
}
