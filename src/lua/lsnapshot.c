// SPDX-License-Identifier: MIT
// lsnapshot.c — w:save() -> string and steer.load(string [, opts]) -> world.
//
// A Lua snapshot is the core's (steer_world_save) plus what only the Lua
// side knows, in one string, little-endian:
//   "STEERLUA", u32 version, u64 n, n bytes of the core's snapshot,
//   u64 m, m bytes of the Lua section, u64 checksum (steerS_checksum) of
//   m and the section (the core's bytes have their own).
// The Lua section is one plain-data value (ldata.h, shared tables kept):
//   { v = 2,
//     fns = { [k] = name },            -- the Lua functions, by name (below)
//     data = the bytes of { [agent id] = a.data } -- its own codec value, with
//                                      -- references (below), decoded last
//     trees = n, refs = { {grid, field} }, -- what a.data's references name
//     think = { [agent id] = k },
//     named = { [k] = name },          -- the k-th brain's tree (brains in id
//                                      -- order), when something names it
//     arch = { [agent id] = archetype name }, arch_over = { [id] = { field = true } },
//     arch_defs = { [name] = the archetype's definition as a string },
//     grids = { ... },                 -- lgrid.c: costs, flow fields, wall ids
//     flows = { [n] = { grid, field } } } -- the flow fields the core's bytes
//                                      -- name by number (version 3 had
//                                      -- bind = { [node] = { grid, field } })
// Functions are code, not data: each is saved as a name under which a
// fresh Lua state finds it again, tried in this order (the first wins):
//   { "archetype", NAME, "think" }       its think
//   { "archetype", NAME, "brain", i }    the i-th callback of its brain
//   { "root", ROOT, key, ... }           a table given as opts.roots[ROOT]
//   { "module", MOD, key, ... }          package.loaded[MOD], by key path
// A callback's registry ref means nothing in another state, and a flow
// field is no bytes: the core asks the binding for a number for each as it
// writes the node (its save_ref hook: the function's k, the field's n) and
// gives it back as it makes the node again (load_ref: a new ref, the
// rebuilt field), before it compiles the brains; the binding never walks
// or patches the trees for it (below, "the trees' references").
// A brain's tree is named the same way (its archetype's brain, a root's or
// a module's key path) when one holds it; a load gives the brain that tree
// back when it is still the same (adopt_named), so thinks that assign it
// find their brain again.
#include "lsnapshot.h"
#include "ldata.h"
#include "../behaviors/behavior.h"
#include "../core/bytes.h"

#include <stdlib.h>
#include <string.h>

#define MAGIC "STEERLUA"
// 1: a.data as plain data in the section, no references; 2: a byte-wise
// checksum of all; 3: flow fields bound by node (a core snapshot of version
// 2); 4: flow fields by the core's numbers. 3 still loads.
#define VERSION 4u
#define HEAD 20u // magic, version, the core's length
#define REG_HELPER "steer.snapshot"
#define REG_ARCHETYPES "steer.archetypes"
#define REG_HOST_KINDS "steer.host_kinds"
#define BYTES "steer.snapshot_bytes"
#define HOLDER "steer.snapshot_refs"

extern const steerB_Kind steerB_follow_flow, steerB_decompose_flow;

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
static steerS_Writer *new_bytes(lua_State *L)
{
    steerS_Writer *b = lua_newuserdatauv(L, sizeof *b, 0);
    steerS_writer_init(b, NULL, NULL);
    luaL_setmetatable(L, BYTES);
    return b;
}

// ---- walking the world's trees as the core lists them ----------------------

typedef struct Walk Walk;
struct Walk {
    lua_State *L;
    void (*visit)(Walk *wk, steer_Behavior *b);
    int seen;               // node -> its post-order index
    steer_Behavior *root;   // the tree being walked
    lua_Integer node;       // post-order index of the next node (1-based)
    int a, b, c, d, e;      // stack indices the visit uses
    steerS_Writer *out;     // digest
    steer_Behavior **roots; // the extra trees (a.data's), walked after the brains
    int nroots;
};

static void walk(Walk *wk, steer_Behavior *b)
{
    lua_State *L = wk->L;
    lua_pushlightuserdata(L, b);
    int seen = lua_rawget(L, wk->seen) != LUA_TNIL;
    lua_pop(L, 1);
    if (seen) return;
    for (uint16_t i = 0; i < b->nkids; i++) walk(wk, b->kids[i]);
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

// A reference of another Lua state (a mod's function: an owner above
// STEERL_OWNER_SHIFT) is none of this state's: a save keeps its owner and
// writes no function of it (registry part 0: patch_visit), which a load
// keeps as it is (load_visit), and the owner's route gives nothing for it
// (no force, no easing): a load never binds it to whatever that number
// names in a new state.
static bool foreign_ref(int32_t ref) { return ref >> STEERL_OWNER_SHIFT != 0; }

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

static bool is_flow(const steer_Behavior *b)
{
    return b->kind == &steerB_follow_flow || b->kind == &steerB_decompose_flow;
}

// ---- digests: a tree's structure and parameters, refs left out -------------

static void digest_visit(Walk *wk, steer_Behavior *b)
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
    Walk wk = { .L = L, .visit = digest_visit, .node = 1 };
    wk.out = new_bytes(L);
    lua_newtable(L);
    wk.seen = lua_gettop(L);
    walk(&wk, b);
    if (wk.out->failed) luaL_error(L, "steer.load: out of memory");
    lua_pushlstring(L, (const char *)wk.out->p, wk.out->n);
    lua_replace(L, -3);
    lua_pop(L, 1);
}

// digest(behaviour) -> string (for the helper)
static int digest(lua_State *L)
{
    steer_Behavior *b = steerL_tobehavior(L, 1);
    if (!b) return luaL_error(L, "steer.load: an archetype's brain is not a behaviour");
    push_digest(L, b);
    return 1;
}

static void fns_visit(Walk *wk, steer_Behavior *b)
{
    lua_State *L = wk->L;
    const steerB_Field *f = b->kind->fields;
    size_t off;
    int32_t ref;
    while (next_ref(b, &f, &off, &ref)) {
        if (foreign_ref(ref)) lua_pushboolean(L, 0); // keeps the others' places
        else lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
        lua_rawseti(L, wk->a, (lua_Integer)lua_rawlen(L, wk->a) + 1);
    }
}

// tree_fns(behaviour) -> the Lua functions of its callbacks, in node order
static int tree_fns(lua_State *L)
{
    steer_Behavior *b = steerL_tobehavior(L, 1);
    lua_newtable(L);
    if (!b) return 1;
    Walk wk = { .L = L, .visit = fns_visit, .node = 1, .a = lua_gettop(L) };
    lua_newtable(L);
    wk.seen = lua_gettop(L);
    walk(&wk, b);
    lua_settop(L, wk.a);
    return 1;
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
static void helper(lua_State *L, const char *name)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, REG_HELPER) != LUA_TTABLE) {
        lua_pop(L, 1);
        bool read = false;
        if (lua_load(L, read_helper, &read, "=steer.snapshot", "t") != LUA_OK) lua_error(L);
        lua_pushcfunction(L, tree_fns);
        lua_pushcfunction(L, digest);
        lua_call(L, 2, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, REG_HELPER);
    }
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
}

// Push the registry's archetypes (name -> archetype), package.loaded, and
// the roots of the options table at opts (or an empty table). A load's
// options may also name the new world's `threads` (read by the caller).
static void push_places(lua_State *L, int opts, const char *fn, bool load)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, REG_ARCHETYPES);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_istable(L, opts)) {
        static const char *const fields[] = { "roots", NULL }, *const load_fields[] = { "roots", "threads", NULL };
        steerL_check_fields(L, opts, fn, load ? load_fields : fields, 0);
        if (lua_getfield(L, opts, "roots") != LUA_TNIL && !lua_istable(L, -1))
            steerL_field_error(L, fn, "roots", "a table of named tables ({ scenario = t })", -1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_newtable(L);
        }
    } else if (!lua_isnoneornil(L, opts)) {
        steerL_field_error(L, fn, NULL, "an options table or nil as the last argument", opts);
    } else {
        lua_newtable(L);
    }
}

// ---- references in a.data ---------------------------------------------------

// a.data may hold, besides plain data, the world's own Lua values; the
// codec (ldata.h) writes each as a reference (kind, index):
//   agent  of this world: its handle id (a stale one stays stale)
//   tree   a behaviour: the index of an extra root of the core's snapshot
//          (so a brain's tree is the brain again, and shared stays shared)
//   grid, field  the index into the section's `refs`, a {grid, field}
//          pair into its `grids` (field 0: the grid itself)
enum { REF_AGENT = 1, REF_TREE, REF_GRID, REF_FIELD };

// The save's state, in the registry under &refs_key while the codec runs
// (its own protected call has a stack frame of its own): [1] value or
// node -> its index, [2] the trees, [3] the grids and fields, in order.
static const char refs_key = 0;

static int ref_encode(void *ud, lua_State *L, int idx, uint64_t *index, const char **why)
{
    steerL_Agent *a = steerL_toagent(L, idx);
    if (a) {
        if (a->world != ud) {
            *why = "an agent of another world";
            return 0;
        }
        *index = a->handle.id;
        return REF_AGENT;
    }
    steer_Behavior *b = steerL_tobehavior(L, idx);
    int kind = b ? REF_TREE : steerL_isgrid(L, idx) ? REF_GRID : steerL_toflow(L, idx) ? REF_FIELD : 0;
    if (!kind) return 0;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key);
    int state = lua_gettop(L);
    lua_rawgeti(L, state, 1);
    if (b) lua_pushlightuserdata(L, b);
    else lua_pushvalue(L, idx);
    if (lua_rawget(L, -2) != LUA_TNUMBER) {
        lua_pop(L, 1);
        lua_rawgeti(L, state, kind == REF_TREE ? 2 : 3);
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1) + 1;
        lua_pushvalue(L, idx);
        lua_rawseti(L, -2, n);
        lua_pop(L, 1);
        if (b) lua_pushlightuserdata(L, b);
        else lua_pushvalue(L, idx);
        lua_pushinteger(L, n);
        lua_rawset(L, -3);
        lua_pushinteger(L, n);
    }
    *index = (uint64_t)lua_tointeger(L, -1);
    lua_settop(L, state - 1);
    return kind;
}

// Decoding runs in data_load's frame: 3 the world, 4 the trees, 5 the
// section's refs, 6 the grids' lists of fields (the grid at 0).
static void ref_decode(void *ud, lua_State *L, int kind, uint64_t index)
{
    (void)ud;
    luaL_checkstack(L, 4, "steer.load");
    const char *what = "a reference of an unknown kind";
    if (kind == REF_AGENT && index > 0) {
        steerL_pushagent(L, 3, (steer_Agent){ index });
        return;
    }
    if (kind == REF_TREE) {
        if (index <= lua_rawlen(L, 4) && lua_rawgeti(L, 4, (lua_Integer)index) == LUA_TUSERDATA) return;
        what = "a reference to a tree it does not hold";
    } else if (kind == REF_GRID || kind == REF_FIELD) {
        int top = lua_gettop(L);
        if (index <= lua_rawlen(L, 5) && lua_rawgeti(L, 5, (lua_Integer)index) == LUA_TTABLE &&
            lua_rawgeti(L, -1, 1) == LUA_TNUMBER && lua_rawgeti(L, 6, lua_tointeger(L, -1)) == LUA_TTABLE &&
            lua_rawgeti(L, top + 1, 2) == LUA_TNUMBER && (lua_tointeger(L, -1) == 0) == (kind == REF_GRID) &&
            lua_rawgeti(L, top + 3, lua_tointeger(L, -1)) == LUA_TUSERDATA) {
            lua_replace(L, top + 1);
            lua_settop(L, top + 1);
            return;
        }
        what = "a reference to a grid or field it does not hold";
    }
    luaL_error(L, "steer.load: corrupt snapshot (a.data holds %s)", what);
}

// data_load(bytes, len, world, trees, refs, grids) -> the agents' a.data
static int data_load(lua_State *L)
{
    steerL_DataOptions o = { .shared = true, .where = "steer.load", .noun = "snapshot", .ref_decode = ref_decode };
    steerL_data_decode(L, lua_touserdata(L, 1), (size_t)lua_tointeger(L, 2), &o);
    return 1;
}

// ---- w:save ----------------------------------------------------------------

// Save: a: fn -> k, b: k -> fn, c: k -> where it is first used (text), d:
// k -> the tree (or nil), e: the flow fields of follow_flow nodes, in order,
// and the top: node -> index into e.
static lua_Integer fn_index(Walk *wk, const char *use)
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

// A save: k for a callback's function (fn_index's tables a to d), the
// place in e (the flow fields, light userdata) for a flow field.
typedef struct SaveRefs {
    lua_State *L;
    Walk *wk;
    const steer_Ref *r;
    uint32_t out;
    char error[200];
} SaveRefs;

static int save_ref_call(lua_State *L)
{
    SaveRefs *sr = lua_touserdata(L, 1); // 2 to 6: the tables a to e
    const steer_Ref *r = sr->r;
    Walk wk = *sr->wk;
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
    sr->out = (uint32_t)fn_index(&wk, use);
    return 0;
}

int steerL_hook_save_ref(void *ud, const steer_Ref *r, uint32_t *out)
{
    SaveRefs *sr = ((steerL_World *)ud)->snap;
    // a foreign callback (a mod's) is saved as its owner, without a function
    if (!sr || (!r->obj && foreign_ref(r->ref))) {
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

// A load: the function k names (a), its ref made once per k (b, the
// holder's list c), the flow field a number names: `flows` maps it (or,
// for a snapshot older than resource fields, the node's place) to a
// {grid, field} pair into `grids`, the rebuilt grids' lists of fields.
typedef struct LoadRefs {
    lua_State *L;
    int a, b, c, flows, grids;
    const steer_Ref *r;
    uint32_t in;
    int ref;
    const steerN_Flow *flow;
    char error[200];
} LoadRefs;

static int load_ref_call(lua_State *L)
{
    LoadRefs *lr = lua_touserdata(L, 1); // 2 a, 3 b, 4 c, 5 flows, 6 grids
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
    LoadRefs *lr = ((steerL_World *)ud)->snap;
    bool callback = strcmp(r->type, "callback") == 0;
    if (!lr || (callback && foreign_ref((int32_t)in))) { // another state's: kept as it is
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

// The agents, in storage order, as a userdata array on top.
static steer_Agent *agents(lua_State *L, steer_World *w, int *n)
{
    *n = steer_world_count(w);
    steer_Agent *ids = lua_newuserdatauv(L, sizeof *ids * (size_t)(*n ? *n : 1), 0);
    steer_world_agents(w, ids, *n);
    return ids;
}

// Raise for function k that has no name: where it is used.
static int unnamed(lua_State *L, Walk *wk, steer_World *w, lua_Integer k)
{
    const char *use = (lua_rawgeti(L, wk->c, k), lua_tostring(L, -1));
    lua_Integer who = 0;
    if (lua_rawgeti(L, wk->d, k) == LUA_TLIGHTUSERDATA) {
        const void *root = lua_touserdata(L, -1);
        int n;
        steer_Agent *ids = agents(L, w, &n);
        for (int i = 0; i < n && !who; i++) {
            steer_Behavior *b;
            steer_agent_brain(w, ids[i], &b);
            if (b == root) who = steerL_lid(ids[i].id);
        }
    }
    const char *hint = "keep it in the scenario's table, a module's table or an archetype so a load can find it";
    if (who)
        return luaL_error(L,
                          "steer.world:save: agent %s's %s holds a Lua function that no archetype or module table "
                          "holds; %s",
                          steerL_istr((char[24]){ 0 }, who), use, hint);
    return luaL_error(L, "steer.world:save: %s holds a Lua function that no archetype or module table holds; %s", use,
                      hint);
}

// Raise for a.data that is not plain data, naming the agent and the key path.
static int bad_data(lua_State *L, steerL_World *lw, int data, const steerL_DataError *whole)
{
    steer_World *w = lw->w;
    int n;
    steer_Agent *ids = agents(L, w, &n);
    steerL_DataError err = *whole;
    for (int i = 0; i < n; i++) {
        if (steerL_rawgetid(L, data, ids[i].id) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        char where[64];
        snprintf(where, sizeof where, "agent %lld's a.data", (long long)steerL_lid(ids[i].id));
        steerL_DataOptions o = { .shared = true, .where = where, .ref_encode = ref_encode, .ref_ud = lw };
        unsigned char *out;
        size_t len;
        if (steerL_data_encode(L, -1, &o, &out, &len, &err) == STEERL_DATA_OK) free(out);
        else if (err.status != STEERL_DATA_NO_MEMORY) break;
        lua_pop(L, 1);
        err = *whole;
    }
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &refs_key);
    return luaL_error(L, "steer.world:save: %s", err.message);
}

// Push the names of the brains' trees (k -> name, k counting the brains in
// id order) that an archetype, a module's table or opts.roots holds: a
// load takes those trees back (adopt_named). Places at 3, 4, 5 as in save.
static void tree_names(lua_State *L, steer_World *w)
{
    helper(L, "names");
    lua_newtable(L);
    steerL_uv_field(L, 1, "brains");
    lua_Integer k = 0;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        if (!w->brains[i]) continue;
        lua_pushlightuserdata(L, w->brains[i]->root);
        if (lua_rawget(L, -2) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_pushboolean(L, 0); // keeps k in step; names no tree
        }
        lua_rawseti(L, -3, ++k);
    }
    lua_pop(L, 1);
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 5);
    lua_pushvalue(L, 4);
    lua_pushboolean(L, 1);
    lua_call(L, 5, 1);
    // a copy a load kept in place of its named tree (adopt_named) keeps its
    // name, so that the snapshot saves to the same bytes again
    int named = lua_gettop(L);
    steerL_uv_field(L, 1, "tree_names");
    if (lua_istable(L, -1)) {
        k = 0;
        for (uint32_t i = 1; i < w->nbrains; i++) {
            if (!w->brains[i]) continue;
            ++k;
            if (lua_rawgeti(L, named, k) != LUA_TNIL) {
                lua_pop(L, 1);
                continue;
            }
            lua_pop(L, 1);
            lua_pushlightuserdata(L, w->brains[i]->root);
            if (lua_rawget(L, -2) != LUA_TNIL) lua_rawseti(L, named, k);
            else lua_pop(L, 1);
        }
    }
    lua_settop(L, named);
}

static int world_save(lua_State *L)
{
    const char *fn = "steer.world:save";
    steerL_check_unsandboxed(L, "w:save", "the world belongs to the game");
    steerL_World *lw = steerL_checkworld(L, 1);
    if (lw->stepping || lw->in_pass) return luaL_error(L, "%s: cannot save during a step", fn);
    lua_settop(L, 2);
    push_places(L, 2, fn, false); // 3 archetypes, 4 package.loaded, 5 roots
    steer_World *w = lw->w;
    // a.data first: the trees, grids and fields it refers to are saved too
    lua_createtable(L, 3, 3); // 2 (the options are read): the references' state (refs_key)
    for (int i = 1; i <= 3; i++) {
        lua_newtable(L);
        lua_rawseti(L, -2, i);
    }
    lua_replace(L, 2);
    lua_pushvalue(L, 2);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &refs_key);
    steerL_uv_field(L, 1, "data");      // 6
    steerS_Writer *data = new_bytes(L); // 7
    steerL_DataOptions o = { .shared = true, .where = "the snapshot", .ref_encode = ref_encode, .ref_ud = lw };
    steerL_DataError err;
    steerL_DataStatus ds = steerL_data_encode(L, 6, &o, &data->p, &data->n, &err);
    if (ds == STEERL_DATA_NO_MEMORY) return luaL_error(L, "%s: out of memory", fn);
    if (ds != STEERL_DATA_OK) return bad_data(L, lw, 6, &err);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &refs_key);
    data->cap = data->n;
    lua_setfield(L, 2, "data");
    lua_pop(L, 1);
    Walk wk = { .L = L };
    lua_rawgeti(L, 2, 2);
    wk.nroots = (int)lua_rawlen(L, -1);
    wk.roots = lua_newuserdatauv(L, sizeof *wk.roots * (size_t)(wk.nroots ? wk.nroots : 1), 0);
    for (int i = 0; i < wk.nroots; i++) {
        lua_rawgeti(L, -2, i + 1);
        wk.roots[i] = steerL_tobehavior(L, -1);
        lua_pop(L, 1);
    }
    lua_setfield(L, 2, "roots");
    lua_pop(L, 1);
    for (int i = 0; i < 5; i++) lua_newtable(L);
    wk.a = 6, wk.b = 7, wk.c = 8, wk.d = 9, wk.e = 10;
    // the core's bytes: the trees' callbacks and flow fields become numbers
    // as the core meets them (save_ref), in its order of nodes
    steerS_Writer *all = new_bytes(L); // 11: the header, then the core's bytes straight in
    steerS_put(all, MAGIC, 8);
    steerS_put_u32(all, VERSION);
    steerS_put_u64(all, 0); // the core's length, below
    SaveRefs sr = { .L = L, .wk = &wk };
    lw->snap = &sr;
    int st = steer_world_save_roots(w, wk.roots, wk.nroots, steerS_write_fn, all);
    lw->snap = NULL;
    if (st == STEER_EBUSY) return luaL_error(L, "%s: cannot save during a step", fn);
    if (st != STEER_OK || all->failed) return luaL_error(L, "%s: %s", fn, sr.error[0] ? sr.error : "out of memory");
    size_t ncore = all->n - HEAD;
    steerS_store_le(all->p + 12, ncore, 8);
    // think functions, after the trees' callbacks
    lua_newtable(L); // 12: id -> k
    int n;
    steer_Agent *ids = agents(L, w, &n);
    steerL_uv_field(L, 1, "think");
    wk.root = NULL;
    for (int i = 0; i < n; i++) {
        if (steerL_rawgetid(L, -1, ids[i].id) != LUA_TFUNCTION) {
            lua_pop(L, 1);
            continue;
        }
        char use[64];
        snprintf(use, sizeof use, "agent %lld's think", (long long)steerL_lid(ids[i].id));
        lua_pushinteger(L, fn_index(&wk, use)); // takes the function
        steerL_rawsetid(L, 12, ids[i].id);
    }
    lua_settop(L, 12);
    // their names
    helper(L, "names");
    lua_pushvalue(L, wk.b);
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 5);
    lua_pushvalue(L, 4);
    lua_call(L, 4, 2);
    if (lua_isnil(L, -2)) return unnamed(L, &wk, w, lua_tointeger(L, -1));
    lua_pop(L, 1); // 13: k -> name
    // the section
    lua_createtable(L, 0, 10); // 14
    lua_pushinteger(L, VERSION);
    lua_setfield(L, 14, "v");
    lua_pushvalue(L, 13);
    lua_setfield(L, 14, "fns");
    lua_pushvalue(L, 12);
    lua_setfield(L, 14, "think");
    tree_names(L, w);
    lua_setfield(L, 14, "named");
    static const char *const kept[] = { "arch", "arch_over", NULL };
    for (int i = 0; kept[i]; i++) {
        steerL_uv_field(L, 1, kept[i]);
        lua_setfield(L, 14, kept[i]);
    }
    lua_newtable(L); // the definitions of the archetypes in use
    steerL_uv_field(L, 1, "arch_seen");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        helper(L, "definition");
        lua_pushvalue(L, -2);
        lua_gettable(L, 3);
        lua_call(L, 1, 1);
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -5);
    }
    lua_pop(L, 1);
    lua_setfield(L, 14, "arch_defs");
    lua_Integer bound = (lua_Integer)lua_rawlen(L, wk.e), nrefs;
    lua_rawgeti(L, 2, 3); // a.data's grids and fields join e
    nrefs = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = 1; i <= nrefs; i++) {
        lua_rawgeti(L, -1, i);
        lua_rawseti(L, wk.e, bound + i);
    }
    lua_pop(L, 1);
    steerL_grids_save(L, 1, wk.e); // 15 the grids, 16 a {grid, field} pair per entry of e
    lua_createtable(L, (int)nrefs, 0);
    for (lua_Integer i = 1; i <= nrefs; i++) {
        lua_rawgeti(L, 16, bound + i);
        lua_rawseti(L, -2, i);
    }
    lua_setfield(L, 14, "refs");
    lua_createtable(L, (int)bound, 0); // the core's numbers of flow fields, 1 to bound
    for (lua_Integer i = 1; i <= bound; i++) {
        lua_rawgeti(L, 16, i);
        lua_rawseti(L, -2, i);
    }
    lua_setfield(L, 14, "flows");
    lua_pushinteger(L, wk.nroots);
    lua_setfield(L, 14, "trees");
    lua_getfield(L, 2, "data");
    lua_pushlstring(L, (const char *)data->p, data->n);
    lua_setfield(L, 14, "data");
    lua_pop(L, 2);
    lua_setfield(L, 14, "grids");
    steerS_Writer *lua = new_bytes(L); // 15
    o = (steerL_DataOptions){ .shared = true, .where = "the snapshot" };
    ds = steerL_data_encode(L, 14, &o, &lua->p, &lua->n, &err);
    if (ds == STEERL_DATA_NO_MEMORY) return luaL_error(L, "%s: out of memory", fn);
    if (ds != STEERL_DATA_OK) return luaL_error(L, "%s: %s", fn, err.message);
    lua->cap = lua->n;
    steerS_put_u64(all, lua->n);
    steerS_put(all, lua->p, lua->n);
    // the core's bytes carry their own checksum (steer_world_load checks it)
    steerS_put_u64(all, steerS_checksum(all->p + HEAD + ncore, 8 + lua->n));
    if (all->failed) return luaL_error(L, "%s: out of memory", fn);
    lua_pushlstring(L, (const char *)all->p, all->n);
    return 1;
}

// ---- steer.load ------------------------------------------------------------

static int decode(lua_State *L)
{
    steerL_DataOptions o = { .shared = true, .where = "steer.load", .noun = "snapshot" };
    steerL_data_decode(L, lua_touserdata(L, 1), (size_t)lua_tointeger(L, 2), &o);
    return 1;
}

static const steer_HostKind *find_kind(void *ud, const char *name)
{
    lua_State *L = ((steerL_World *)ud)->L;
    const steer_HostKind *k = NULL;
    if (lua_getfield(L, LUA_REGISTRYINDEX, REG_HOST_KINDS) == LUA_TTABLE &&
        lua_getfield(L, -1, name) == LUA_TLIGHTUSERDATA)
        k = ((const steerB_Kind *)lua_touserdata(L, -1))->host;
    lua_settop(L, lua_gettop(L) - (lua_istable(L, -1) ? 1 : 2));
    return k;
}

static int holder_gc(lua_State *L)
{
    lua_getiuservalue(L, 1, 1);
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        luaL_unref(L, LUA_REGISTRYINDEX, (int)lua_tointeger(L, -1));
        lua_pop(L, 1);
    }
    return 0;
}

// A compiled brain's copy of its tree's references (callbacks, flow field)
// and of what points into the tree (names, points), from tree b (the node
// order is flatten's in brain.c: depth first, parents before children): so
// a brain takes another tree of the same digest (adopt_named) as its own.
static uint32_t sync(steerB_Brain *br, steer_Behavior *b, uint32_t i)
{
    steerB_Node *n = &br->nodes[i];
    b->frozen = true;
    n->name = steer_behavior_name(b);
    for (const steerB_Field *f = b->kind->fields; f && f->name; f++) {
        size_t off;
        if (ref_field(b->params, f, &off)) memcpy(n->params + off, b->params + off, 4);
        if (f->type == STEERB_POINTS) memcpy(n->params + f->offset, b->params + f->offset, sizeof(steerB_Points));
    }
    if (is_flow(b)) memcpy(n->params, b->params, sizeof(void *));
    uint32_t next = i + 1;
    for (uint16_t k = 0; k < b->nkids; k++) next = sync(br, b->kids[k], next);
    return next;
}

// Whether tree t can stand for c, a tree of the same digest (the caller
// compares those), in world w: node for node its callbacks call the same
// functions, its flow nodes follow the same fields, and it targets no
// agent of another world.
static bool fits(lua_State *L, const steer_Behavior *c, const steer_Behavior *t, const steer_World *w)
{
    if (c->kind != t->kind || c->nkids != t->nkids || (t->target_world && t->target_world != w)) return false;
    if (is_flow(c) && memcmp(c->params, t->params, sizeof(void *)) != 0) return false;
    const steerB_Field *fc = c->kind->fields, *ft = t->kind->fields;
    size_t off;
    int32_t rc = 0, rt = 0;
    for (;;) {
        bool more = next_ref(c, &fc, &off, &rc);
        if (more != next_ref(t, &ft, &off, &rt)) return false;
        if (!more) break;
        if (foreign_ref(rc) || foreign_ref(rt)) {
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

static void no_visit(Walk *wk, steer_Behavior *b)
{
    (void)wk;
    (void)b;
}

// Mark every node of tree b in the set at `set` (the walk's: node -> an
// index), each shared node once.
static void mark_nodes(lua_State *L, int set, steer_Behavior *b)
{
    Walk wk = { .L = L, .visit = no_visit, .seen = set, .node = 1 };
    walk(&wk, b);
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
static bool shared_elsewhere(lua_State *L, const steer_World *w, uint32_t self, steer_Behavior *copy, int trees)
{
    lua_newtable(L); // the others' nodes
    int set = lua_gettop(L);
    for (uint32_t j = 1; j < w->nbrains; j++)
        if (j != self && w->brains[j]) mark_nodes(L, set, w->brains[j]->root);
    for (lua_Integer j = 1; j <= (lua_Integer)lua_rawlen(L, trees); j++) {
        lua_rawgeti(L, trees, j);
        steer_Behavior *t = steerL_tobehavior(L, -1);
        lua_pop(L, 1);
        if (t && t != copy) mark_nodes(L, set, t);
    }
    lua_newtable(L); // copy's nodes
    mark_nodes(L, set + 1, copy);
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
static void adopt_named(lua_State *L, steer_World *w, int section, int trees, int brains, int names)
{
    int top = lua_gettop(L);
    if (lua_getfield(L, section, "named") != LUA_TTABLE) {
        lua_settop(L, top);
        return;
    }
    lua_Integer k = 0;
    for (uint32_t i = 1; i < w->nbrains; i++) {
        steerB_Brain *br = w->brains[i];
        if (!br) continue;
        lua_settop(L, top + 1);
        if (lua_rawgeti(L, top + 1, ++k) != LUA_TTABLE) continue;
        helper(L, "lookup");
        lua_insert(L, -2);
        lua_pushvalue(L, 3);
        lua_pushvalue(L, 5);
        lua_pushvalue(L, 4);
        lua_pushinteger(L, k);
        lua_call(L, 5, 1); // top + 2: the named value
        steer_Behavior *t = steerL_tobehavior(L, -1), *copy = br->root;
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
        steer_behavior_retain(t);
        br->root = t;
        sync(br, t, 0);
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
        steer_behavior_release(copy);
    }
    lua_settop(L, top);
}

// Field k of the section at s into the world's user value table (at uv),
// which must be a table (or absent).
static void restore_field(lua_State *L, int s, int uv, const char *k)
{
    int t = lua_getfield(L, s, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE) luaL_error(L, "steer.load: corrupt snapshot (its '%s')", k);
    lua_setfield(L, uv, k);
}

// The user value of a loaded tree's userdata (on top): the callbacks' refs
// are the holder's (at holder), the fields those of the grids (at fields).
static void tree_uv(lua_State *L, int fields, int holder)
{
    lua_createtable(L, 0, 4);
    lua_newtable(L);
    lua_setfield(L, -2, "kids");
    lua_newtable(L);
    lua_setfield(L, -2, "refs"); // the holder's, not its own
    lua_pushvalue(L, holder);
    lua_setfield(L, -2, "holder");
    lua_pushvalue(L, fields);
    lua_setfield(L, -2, "fields");
    lua_setiuservalue(L, -2, 1);
}

static int load(lua_State *L)
{
    const char *fn = "steer.load";
    steerL_check_unsandboxed(L, fn, "the world belongs to the game");
    if (lua_type(L, 1) != LUA_TSTRING) steerL_field_error(L, fn, NULL, "a snapshot (a string from w:save)", 1);
    size_t n;
    const unsigned char *s = (const unsigned char *)lua_tolstring(L, 1, &n);
    lua_settop(L, 2);
    push_places(L, 2, fn, true); // 3 archetypes, 4 package.loaded, 5 roots
    // the threads are the host's choice, not the snapshot's (0: the host's default)
    int threads = lua_istable(L, 2) ? steerL_optthreads(L, 2, fn) : 0;
    if (n < 8 || memcmp(s, MAGIC, 8) != 0)
        return luaL_error(L, "%s: not a steer snapshot (it does not begin with %s)", fn, MAGIC);
    if (n < HEAD + 16) return luaL_error(L, "%s: the snapshot is truncated (%d bytes)", fn, (int)n);
    uint32_t version = (uint32_t)steerS_load_le(s + 8, 4);
    if (version != VERSION && version != 3)
        return luaL_error(L, "%s: snapshot version %d; this build reads versions 3 and %d", fn, (int)version,
                          (int)VERSION);
    uint64_t ncore = steerS_load_le(s + 12, 8), nlua = ncore <= n - HEAD - 16 ? steerS_load_le(s + HEAD + ncore, 8) : 0;
    if (ncore > n - HEAD - 16 || nlua != n - HEAD - 16 - ncore)
        return luaL_error(L, "%s: the snapshot is truncated or has bytes past its end (%d bytes)", fn, (int)n);
    if (steerS_checksum(s + HEAD + ncore, 8 + nlua) != steerS_load_le(s + n - 8, 8))
        return luaL_error(L, "%s: checksum mismatch (the snapshot is corrupted)", fn);
    // the Lua section first: nothing is built unless it reads and its names resolve
    lua_pushcfunction(L, decode);
    lua_pushlightuserdata(L, (void *)(uintptr_t)(s + HEAD + ncore + 8));
    lua_pushinteger(L, (lua_Integer)nlua);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) return luaL_error(L, "%s", lua_tostring(L, -1));
    if (!lua_istable(L, 6)) return luaL_error(L, "%s: corrupt snapshot (its Lua section is not a table)", fn);
    helper(L, "missing");
    lua_getfield(L, 6, "arch");
    lua_pushvalue(L, 3);
    lua_call(L, 2, 2);
    if (!lua_isnil(L, -2))
        return luaL_error(L,
                          "%s: agent %s was spawned from archetype '%s', which is not defined (define it, or require "
                          "its module, before steer.load)",
                          fn, steerL_istr((char[24]){ 0 }, lua_tointeger(L, -2)), lua_tostring(L, -1));
    lua_pop(L, 2);
    helper(L, "resolve");
    lua_getfield(L, 6, "fns");
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 5);
    lua_pushvalue(L, 4);
    lua_call(L, 4, 2);
    if (lua_isnil(L, -2)) return luaL_error(L, "%s: %s", fn, lua_tostring(L, -1));
    lua_pop(L, 1); // 7: k -> function
    // a.data's trees: a value for each made before the load, which gives them out retained
    int isnum, nroots = (int)(lua_getfield(L, 6, "trees"), lua_tointegerx(L, -1, &isnum));
    if (!isnum || nroots < 0 || (size_t)nroots > ncore / 4)
        return luaL_error(L, "%s: corrupt snapshot (its count of trees)", fn);
    lua_createtable(L, nroots, 1); // 2 (the options are read): the trees
    lua_replace(L, 2);
    lua_pop(L, 1);
    steer_Behavior **roots = lua_newuserdatauv(L, sizeof *roots * (size_t)(nroots ? nroots : 1), 0);
    lua_setfield(L, 2, "roots");
    for (int i = 1; i <= nroots; i++) {
        steerL_Behavior *ub = lua_newuserdatauv(L, sizeof *ub, 1);
        *ub = (steerL_Behavior){ 0 };
        luaL_setmetatable(L, STEERL_BEHAVIOR);
        lua_rawseti(L, 2, i);
    }
    // the world, its grids and flow fields first: the trees' flow fields name them
    steer_WorldDesc d = { .threads = threads };
    steerL_World *lw = steerL_new_world(L, &d); // 8
    d.hooks.find_kind = find_kind;
    lua_getfield(L, 6, "grids"); // 9
    steerL_grids_load(L, 9, fn); // 10: the grids' lists of fields
    lua_newuserdatauv(L, 0, 1);  // 11: the holder of the new refs
    luaL_setmetatable(L, HOLDER);
    lua_newtable(L); // 12: its refs
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, 11, 1);
    lua_newtable(L); // 13: k -> ref
    // 14: the core's numbers of flow fields -> {grid, field}; before version
    // 4, the nodes' places (the core asks by node: steer_Ref.by_node)
    if (lua_getfield(L, 6, version < 4 ? "bind" : "flows") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
    LoadRefs lr = { .L = L, .a = 7, .b = 13, .c = 12, .flows = 14, .grids = 10 };
    char err[256];
    int got = 0;
    lw->snap = &lr;
    int st = steer_world_load_roots(&d, s + HEAD, (size_t)ncore, &lw->w, roots, nroots, &got, err, sizeof err);
    lw->snap = NULL;
    if (st == STEER_ENOMEM) return luaL_error(L, "%s: out of memory", fn);
    if (st != STEER_OK && lr.error[0]) return luaL_error(L, "%s", lr.error);
    if (st != STEER_OK) return luaL_error(L, "%s: %s", fn, err);
    for (int i = 0; i < nroots && i < got; i++) {
        lua_rawgeti(L, 2, i + 1);
        ((steerL_Behavior *)lua_touserdata(L, -1))->b = roots[i];
        lua_pop(L, 1);
    }
    if (got != nroots) return luaL_error(L, "%s: corrupt snapshot (%d trees for a.data, not %d)", fn, got, nroots);
    steer_World *w = lw->w;
    lw->dim = steer_world_dim(w);
    steerL_grids_bind(L, 8, 9, 10, fn); // the walls the grids added and the grids the world holds
    // one userdata per tree, holding the refs (and through them the fields)
    lua_getiuservalue(L, 8, 1);    // 15
    lua_getfield(L, 15, "brains"); // 16
    for (uint32_t i = 1; i < w->nbrains; i++) {
        if (!w->brains[i]) continue;
        steer_Behavior *root = w->brains[i]->root;
        lua_pushlightuserdata(L, root);
        if (lua_rawget(L, 16) != LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        lua_pop(L, 1);
        steerL_Behavior *ub = lua_newuserdatauv(L, sizeof *ub, 1);
        *ub = (steerL_Behavior){ .b = root };
        steer_behavior_retain(root);
        luaL_setmetatable(L, STEERL_BEHAVIOR);
        tree_uv(L, 10, 11);
        lua_pushlightuserdata(L, root);
        lua_insert(L, -2);
        lua_rawset(L, 16);
    }
    // a.data's trees: a brain's own value when it is one
    for (int i = 1; i <= nroots; i++) {
        lua_pushlightuserdata(L, roots[i - 1]);
        if (lua_rawget(L, 16) == LUA_TUSERDATA) {
            lua_rawseti(L, 2, i); // the placeholder lets its tree go
            continue;
        }
        lua_pop(L, 1);
        lua_rawgeti(L, 2, i);
        tree_uv(L, 10, 11);
        lua_pop(L, 1);
    }
    lua_pushvalue(L, 2); // a.data's trees, for w:restore (their target world)
    lua_setfield(L, 15, "data_trees");
    lua_newtable(L); // the names of the copies kept (tree_names): saved again as they were
    lua_pushvalue(L, -1);
    lua_setfield(L, 15, "tree_names");
    adopt_named(L, w, 6, 2, 16, lua_gettop(L));
    lua_pop(L, 1);
    // the agents' Lua state
    lua_pushcfunction(L, data_load); // a.data, its references now resolvable
    lua_getfield(L, 6, "data");
    size_t ndata;
    const char *data = lua_tolstring(L, -1, &ndata);
    if (!data) return luaL_error(L, "%s: corrupt snapshot (its a.data)", fn);
    lua_pushlightuserdata(L, (void *)(uintptr_t)data);
    lua_replace(L, -2);
    lua_pushinteger(L, (lua_Integer)ndata);
    lua_pushvalue(L, 8);
    lua_pushvalue(L, 2);
    if (lua_getfield(L, 6, "refs") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
    lua_pushvalue(L, 10);
    if (lua_pcall(L, 6, 1, 0) != LUA_OK) return luaL_error(L, "%s", lua_tostring(L, -1));
    if (!lua_istable(L, -1)) return luaL_error(L, "%s: corrupt snapshot (its a.data)", fn);
    lua_setfield(L, 15, "data");
    restore_field(L, 6, 15, "arch");
    restore_field(L, 6, 15, "arch_over");
    if (lua_getfield(L, 6, "think") == LUA_TTABLE) { // 17
        lua_getfield(L, 15, "think");
        lua_pushnil(L);
        while (lua_next(L, 17)) {
            if (!lua_isinteger(L, -2) || lua_rawget(L, 7) != LUA_TFUNCTION)
                return luaL_error(L, "%s: corrupt snapshot (a think function)", fn);
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, 18);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    // an archetype defined as it was at the save keeps its agents as they
    // were; one defined otherwise since is applied on the next step, as a
    // hot reload does (lua/larchetype.c)
    lua_getfield(L, 15, "arch_seen"); // 17
    if (lua_getfield(L, 6, "arch_defs") == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, 18)) {
            lua_pushvalue(L, -2);
            if (lua_gettable(L, 3) != LUA_TUSERDATA) { // no agent of it is left
                lua_pop(L, 2);
                continue;
            }
            helper(L, "definition");
            lua_pushvalue(L, -2);
            lua_call(L, 1, 1);
            bool same = lua_rawequal(L, -1, -3);
            lua_pop(L, 1);
            lua_getfield(L, -1, "version");
            lua_Integer version = same ? lua_tointeger(L, -1) : 0;
            lua_pop(L, 3);
            lua_pushvalue(L, -1);
            lua_pushinteger(L, version);
            lua_rawset(L, 17);
        }
    }
    lua_settop(L, 8);
    return 1;
}

// ---- w:same_brain ----------------------------------------------------------

// w:same_brain(t) -> the tree of a brain w runs that t is the same as (its
// digest, and it fits: the same functions, the same flow fields), or t. A
// script that builds its trees where no module table can hold them (a
// cache keyed by a flow field) finds the loaded world's brains with it.
static int world_same_brain(lua_State *L)
{
    steerL_World *lw = steerL_checkworld(L, 1);
    steer_Behavior *t = steerL_tobehavior(L, 2);
    if (!t) steerL_field_error(L, "steer.world:same_brain", NULL, "a behaviour tree as argument 1", 2);
    lua_settop(L, 2);
    steer_World *w = lw->w;
    steerL_uv_field(L, 1, "brains"); // 3
    for (uint32_t i = 1; i < w->nbrains; i++) {
        steer_Behavior *r = w->brains[i] ? w->brains[i]->root : NULL;
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

// ---- w:restore -------------------------------------------------------------

// The trees a load made for a.data (the "data_trees" of the loaded world's
// user value, at world index w_idx) were made for `from`: they are `to`'s.
static void retarget_data_trees(lua_State *L, int w_idx, const steer_World *from, const steer_World *to)
{
    lua_getiuservalue(L, w_idx, 1);
    lua_getfield(L, -1, "data_trees");
    lua_newtable(L);
    int list = lua_gettop(L) - 1, set = lua_gettop(L);
    if (lua_istable(L, list))
        for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, list); i++) {
            lua_rawgeti(L, list, i);
            steer_Behavior *b = steerL_tobehavior(L, -1);
            lua_pop(L, 1);
            if (b) mark_nodes(L, set, b);
        }
    // every node of them, each once, whose target agents are of `from`
    lua_pushnil(L);
    while (lua_next(L, set)) {
        lua_pop(L, 1);
        steer_Behavior *b = lua_touserdata(L, -1);
        if (b->target_world == from) b->target_world = to;
    }
    lua_pop(L, 3);
}

// w:restore(s [, opts]): the world becomes the snapshot's, in place: the
// same Lua value, the same C world (a viewer's or host's pointer stays
// good), its event handlers kept (they are code, not state). The snapshot
// is loaded beside it first, as steer.load does, so a bad one raises and
// leaves w as it was; then the two exchange their states and the other
// one, now holding w's old state, is collected.
static int world_restore(lua_State *L)
{
    const char *fn = "steer.world:restore";
    steerL_check_unsandboxed(L, "w:restore", "the world belongs to the game");
    steerL_World *lw = steerL_checkworld(L, 1);
    if (lw->stepping || lw->in_pass) return luaL_error(L, "%s: cannot restore during a step", fn);
    if (lw->borrowed) return luaL_error(L, "%s: a mod cannot restore the engine's world", fn);
    lua_settop(L, 3);
    // the world keeps its thread count (a host setting, not in the snapshot)
    if (lua_istable(L, 3) && lua_getfield(L, 3, "threads") != LUA_TNIL)
        return luaL_error(L, "%s: field 'threads': w:restore keeps the world's thread count (set w.threads)", fn);
    lua_settop(L, 3);
    lua_pushcfunction(L, load); // 4: the snapshot's world
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        // load's message, raised again here so that it names the caller's line
        const char *msg = lua_tostring(L, -1), *tail = msg ? strstr(msg, "steer.load: ") : NULL;
        return luaL_error(L, "%s: %s", fn, tail ? tail + strlen("steer.load: ") : msg ? msg : "failed");
    }
    steerL_World *nw = lua_touserdata(L, 4);
    steerW_swap(lw->w, nw->w);
    steerW_retarget(lw->w, nw->w); // the trees were loaded for the other address
    retarget_data_trees(L, 4, nw->w, lw->w);
    lw->dim = steer_world_dim(lw->w);
    nw->dim = steer_world_dim(nw->w);
    steerN_Layers nav = lw->nav;
    lw->nav = nw->nav;
    nw->nav = nav;
    lw->cb_error[0] = 0;
    // the Lua state follows the C state; the handlers stay with w
    lua_getiuservalue(L, 1, 1); // 5
    lua_getiuservalue(L, 4, 1); // 6
    lua_getfield(L, 5, "on");
    lua_setfield(L, 6, "on");
    // the agents the load made (a.data's) are w's now
    lua_getfield(L, 6, "handles");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        steerL_Agent *a = steerL_toagent(L, -1);
        if (a) {
            a->world = lw;
            lua_pushvalue(L, 1);
            lua_setiuservalue(L, -2, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_setiuservalue(L, 1, 1);
    lua_setiuservalue(L, 4, 1);
    lua_settop(L, 1);
    return 1;
}

void steerL_open_snapshot(lua_State *L)
{
    luaL_newmetatable(L, BYTES);
    lua_pushcfunction(L, bytes_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    luaL_newmetatable(L, HOLDER);
    lua_pushcfunction(L, holder_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    lua_pushcfunction(L, load);
    lua_setfield(L, -2, "load");
    // w:save joins the world's methods (the upvalue of its __index)
    luaL_getmetatable(L, STEERL_WORLD);
    lua_getfield(L, -1, "__index");
    if (lua_getupvalue(L, -1, 1)) {
        lua_pushcfunction(L, world_save);
        lua_setfield(L, -2, "save");
        lua_pushcfunction(L, world_restore);
        lua_setfield(L, -2, "restore");
        lua_pushcfunction(L, world_same_brain);
        lua_setfield(L, -2, "same_brain");
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
}
