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
//     grids = { ... },                 -- lsnapgrid.c: serials, costs, flow fields, wall ids
//     serials = n,                     -- the state's count of serials (lnav.h)
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
#include "lsnapint.h"
#include "ldata.h"
#include "lnav.h"

#include <stdlib.h>
#include <string.h>

#define MAGIC "STEERLUA"
// 1: a.data as plain data in the section, no references; 2: a byte-wise
// checksum of all; 3: flow fields bound by node (a core snapshot of version
// 2); 4: flow fields by the core's numbers; 5: grids' and fields' serials
// (without them a restore finds no twins). 3 and 4 still load.
#define VERSION 5u
#define HEAD 20u // magic, version, the core's length
#define REG_ARCHETYPES "steer.archetypes"
#define REG_HOST_KINDS "steer.host_kinds"
#define HOLDER "steer.snapshot_refs"

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
    int agent = steerL_agent_ref(ud, L, idx, index, why);
    if (agent >= 0) return agent ? REF_AGENT : 0;
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
    steerL_DataOptions o = { .shared = true,
                             .where = "steer.load",
                             .noun = "snapshot",
                             .name = "a.data",
                             .agent_keys = true,
                             .keep_subtype = true,
                             .ref_decode = ref_decode };
    steerL_data_decode(L, lua_touserdata(L, 1), (size_t)lua_tointeger(L, 2), &o);
    return 1;
}

// ---- w:save ----------------------------------------------------------------

// The agents, in storage order, as a userdata array on top.
static steer_Agent *agents(lua_State *L, steer_World *w, int *n)
{
    *n = steer_world_count(w);
    steer_Agent *ids = lua_newuserdatauv(L, sizeof *ids * (size_t)(*n ? *n : 1), 0);
    steer_world_agents(w, ids, *n);
    return ids;
}

// Raise for function k that has no name: where it is used.
static int unnamed(lua_State *L, steerL_Walk *wk, steer_World *w, lua_Integer k)
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
        const steerL_Host *h = steerL_host(L);
        steerL_DataOptions o = { .shared = true,
                                 .where = where,
                                 .ref_encode = ref_encode,
                                 .ref_ud = lw,
                                 .alloc = h ? h->alloc : NULL,
                                 .alloc_ud = h ? h->alloc_ud : NULL };
        unsigned char *out;
        size_t len;
        if (steerL_data_encode(L, -1, &o, &out, &len, &err) == STEERL_DATA_OK) steerL_data_free(&o, out);
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
    steerL_snap_helper(L, "names");
    lua_newtable(L);
    steerL_uv_field(L, 1, "brains");
    lua_Integer k = 0;
    for (int i = 1; i < steer_world_brains(w); i++) {
        if (!steer_world_brain(w, i)) continue;
        lua_pushlightuserdata(L, steer_world_brain(w, i));
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
        for (int i = 1; i < steer_world_brains(w); i++) {
            if (!steer_world_brain(w, i)) continue;
            ++k;
            if (lua_rawgeti(L, named, k) != LUA_TNIL) {
                lua_pop(L, 1);
                continue;
            }
            lua_pop(L, 1);
            lua_pushlightuserdata(L, steer_world_brain(w, i));
            if (lua_rawget(L, -2) != LUA_TNIL) lua_rawseti(L, named, k);
            else lua_pop(L, 1);
        }
    }
    lua_settop(L, named);
}

int steerL_world_save(lua_State *L)
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
    steerL_uv_field(L, 1, "data");              // 6
    steerS_Writer *data = steerL_snap_bytes(L); // 7
    steerL_DataOptions o = { .shared = true,
                             .where = "the snapshot",
                             .ref_encode = ref_encode,
                             .ref_ud = lw,
                             .alloc = data->alloc,
                             .alloc_ud = data->alloc_ud }; // the box frees it
    steerL_DataError err;
    steerL_DataStatus ds = steerL_data_encode(L, 6, &o, &data->p, &data->n, &err);
    if (ds == STEERL_DATA_NO_MEMORY) return luaL_error(L, "%s: out of memory", fn);
    if (ds != STEERL_DATA_OK) return bad_data(L, lw, 6, &err);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &refs_key);
    data->cap = data->n;
    lua_setfield(L, 2, "data");
    lua_pop(L, 1);
    steerL_Walk wk = { .L = L };
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
    steerS_Writer *all = steerL_snap_bytes(L); // 11: the header, then the core's bytes straight in
    steerS_put(all, MAGIC, 8);
    steerS_put_u32(all, VERSION);
    steerS_put_u64(all, 0); // the core's length, below
    steerL_SaveRefs sr = { .L = L, .wk = &wk };
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
        lua_pushinteger(L, steerL_snap_fn_index(&wk, use)); // takes the function
        steerL_rawsetid(L, 12, ids[i].id);
    }
    lua_settop(L, 12);
    // their names
    steerL_snap_helper(L, "names");
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
        steerL_snap_helper(L, "definition");
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
    lua_pushinteger(L, steerL_nav_count(L));
    lua_setfield(L, 14, "serials");
    lua_getfield(L, 2, "data");
    lua_pushlstring(L, (const char *)data->p, data->n);
    lua_setfield(L, 14, "data");
    lua_pop(L, 2);
    lua_setfield(L, 14, "grids");
    steerL_nav_walls_save(L, 1); // the walls each mesh put into the world (lnavwalls.c)
    lua_setfield(L, 14, "meshwalls");
    steerL_nav_meshes_save(L, 1); // the meshes it holds, by serial, for a restore's twins (lnavtwin.c)
    if (lua_rawlen(L, -1) > 0) lua_setfield(L, 14, "meshes");
    else lua_pop(L, 1);
    steerS_Writer *lua = steerL_snap_bytes(L); // 15
    o = (steerL_DataOptions){ .shared = true, .where = "the snapshot", .alloc = lua->alloc, .alloc_ud = lua->alloc_ud };
    ds = steerL_data_encode(L, 14, &o, &lua->p, &lua->n, &err);
    if (ds == STEERL_DATA_NO_MEMORY) return luaL_error(L, "%s: out of memory", fn);
    if (ds != STEERL_DATA_OK) return luaL_error(L, "%s: %s", fn, err.message);
    lua->cap = lua->n;
    steerS_put_u64(all, lua->n);
    steerS_put(all, lua->p, lua->n);
    // (no checksum over what a failed put never wrote)
    if (all->failed) return luaL_error(L, "%s: out of memory", fn);
    // the core's bytes carry their own checksum (steer_world_load checks it)
    steerS_put_u64(all, steerS_checksum(all->p + HEAD + ncore, 8 + lua->n));
    if (all->failed) return luaL_error(L, "%s: out of memory", fn);
    lua_pushlstring(L, (const char *)all->p, all->n);
    return 1;
}

// ---- steer.load ------------------------------------------------------------

static int decode(lua_State *L)
{
    steerL_DataOptions o = { .shared = true, .where = "steer.load", .noun = "snapshot", .name = "the snapshot" };
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

// Field k of the section at s (a table, if there), keyed by agent ids:
// an entry for an agent that is not alive in w is dropped. One can be
// there (an agent of the scenario's removed through another world
// userdata, a mod's with touch_all, leaves its entry behind; a file made
// by hand may name any id), and it would name no agent: an archetype
// defined again would be applied to it at every step, and fail.
static void drop_dead_keys(lua_State *L, int s, const char *k, const steer_World *w)
{
    if (lua_getfield(L, s, k) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pop(L, 1);
            if (!lua_isinteger(L, -1)) luaL_error(L, "steer.load: corrupt snapshot (a key of its '%s')", k);
            if (steer_alive(w, steerL_agent_of_lid(w, lua_tointeger(L, -1)))) continue;
            lua_pushvalue(L, -1);
            lua_pushnil(L);
            lua_rawset(L, -4); // an existing field set to nil: the traversal goes on
        }
    }
    lua_pop(L, 1);
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

// w:restore's third argument to load: the live grids and fields of the
// state take the loaded ones' places (their twins, lsnapgrid.c)
static const char restoring = 0;
#define REG_TWINS "steer.restore_mesh_twins" // the restore's steerL_MeshTwins while it loads

static int load(lua_State *L)
{
    const char *fn = "steer.load";
    steerL_check_unsandboxed(L, fn, "the world belongs to the game");
    bool twins = lua_touserdata(L, 3) == &restoring;
    steerL_MeshTwins *mesh_twins = NULL;
    if (twins && lua_getfield(L, LUA_REGISTRYINDEX, REG_TWINS) == LUA_TLIGHTUSERDATA)
        mesh_twins = lua_touserdata(L, -1);
    if (twins) lua_pop(L, 1);
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
    if (version < 3 || version > VERSION)
        return luaL_error(L, "%s: snapshot version %d; this build reads versions 3 to %d", fn, (int)version,
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
    steerL_snap_helper(L, "missing");
    lua_getfield(L, 6, "arch");
    lua_pushvalue(L, 3);
    lua_call(L, 2, 2);
    if (!lua_isnil(L, -2))
        return luaL_error(L,
                          "%s: agent %s was spawned from archetype '%s', which is not defined (define it, or require "
                          "its module, before steer.load)",
                          fn, steerL_istr((char[24]){ 0 }, lua_tointeger(L, -2)), lua_tostring(L, -1));
    lua_pop(L, 2);
    steerL_snap_helper(L, "resolve");
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
    // the loaded grids keep their serials and take none: the state's count
    // is the greater of its own and the saved one
    lua_Integer count = steerL_nav_count(L);
    steerL_grids_load(L, 9, fn, twins); // 10: the grids' lists of fields
    lua_getfield(L, 6, "serials");
    lua_Integer saved = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    if (saved < 0 || saved >= (lua_Integer)1 << STEERL_SERIAL_SHIFT)
        return luaL_error(L, "%s: corrupt snapshot (its count of serials)", fn);
    steerL_nav_set_count(L, count > saved ? count : saved);
    lua_newuserdatauv(L, 0, 1); // 11: the holder of the new refs
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
    steerL_LoadRefs lr = { .L = L, .a = 7, .b = 13, .c = 12, .flows = 14, .grids = 10 };
    char err[256];
    int got = 0;
    lw->snap = &lr;
    if (mesh_twins) { // the meshes of the script's that the world's stand for (lnavtwin.c)
        if (lua_getfield(L, 6, "meshes") == LUA_TNIL) { // a snapshot before it: the w:add_navmesh ones
            lua_pop(L, 1);
            lua_getfield(L, 6, "meshwalls");
        }
        steerL_nav_twins_begin(L, -1, mesh_twins);
        lua_pop(L, 1);
    }
    int st = steer_world_load_roots(&d, s + HEAD, (size_t)ncore, &lw->w, roots, nroots, &got, err, sizeof err);
    steerB_set_mesh_twins(NULL, NULL);
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
    if (!steerL_nav_list_meshes(lw)) return luaL_error(L, "%s: out of memory", fn); // the meshes it holds
    lua_getfield(L, 6, "meshwalls");                                                // and the walls they put into it
    steerL_nav_walls_bind(L, 8, -1, fn);
    lua_pop(L, 1);
    lua_getfield(L, 6, "meshes"); // and the names of those only brains hold
    steerL_nav_meshes_bind(L, -1, w);
    lua_pop(L, 1);
    // one userdata per tree, holding the refs (and through them the fields)
    lua_getiuservalue(L, 8, 1);    // 15
    lua_getfield(L, 15, "brains"); // 16
    for (int i = 1; i < steer_world_brains(w); i++) {
        steer_Behavior *root = steer_world_brain(w, i);
        if (!root) continue;
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
    lua_getfield(L, 10, "twins"); // and the twins, which take their contents then
    lua_setfield(L, 15, "twins");
    lua_newtable(L); // the names of the copies kept (tree_names): saved again as they were
    lua_pushvalue(L, -1);
    lua_setfield(L, 15, "tree_names");
    steerL_snap_adopt(L, w, 6, 2, 16, lua_gettop(L));
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
    drop_dead_keys(L, 6, "arch", w);
    drop_dead_keys(L, 6, "arch_over", w);
    drop_dead_keys(L, 6, "think", w);
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
            steerL_snap_helper(L, "definition");
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
            if (b) steerL_snap_mark_nodes(L, set, b);
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

// After the exchange, w (at w_idx) holds the snapshot's agents; `old` is the
// user value table w had. Its handles of agents the snapshot does not hold
// (spawned after the save, or removed before it) are stale for good: the
// replay spawns agents with the same ids again (the same bits as the first
// time), which those handles must not name. Then the policy lets the other
// states that hold w (mods) do the same with theirs.
static void revoke_handles(lua_State *L, int w_idx, int old)
{
    steerL_World *lw = lua_touserdata(L, w_idx);
    lua_getfield(L, old, "handles");
    steerL_revoke_stale(L, -1, lw->w, false);
    lua_pop(L, 1);
    if (lw->policy && lw->policy->restored) lw->policy->restored(lw->policy->ud, lw->w);
}

// w:restore(s [, opts]): the world becomes the snapshot's, in place: the
// same Lua value, the same C world (a viewer's or host's pointer stays
// good), its event handlers kept (they are code, not state). The snapshot
// is loaded beside it first, as steer.load does, so a bad one raises and
// leaves w as it was; then the two exchange their states and the other
// one, now holding w's old state, is collected.
int steerL_world_restore(lua_State *L)
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
    steerL_MeshTwins mesh_twins = { 0 };
    lua_pushlightuserdata(L, &mesh_twins);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_TWINS);
    lua_pushcfunction(L, load); // 4: the snapshot's world
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_pushlightuserdata(L, (void *)(uintptr_t)&restoring);
    int loaded = lua_pcall(L, 3, 1, 0);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_TWINS);
    if (loaded != LUA_OK) {
        steerL_nav_twins_end(L, &mesh_twins, false); // the script's meshes as they were
        // load's message, raised again here so that it names the caller's line
        const char *msg = lua_tostring(L, -1), *tail = msg ? strstr(msg, "steer.load: ") : NULL;
        return luaL_error(L, "%s: %s", fn, tail ? tail + strlen("steer.load: ") : msg ? msg : "failed");
    }
    steerL_World *nw = lua_touserdata(L, 4);
    steer_world_take_state(lw->w, nw->w);
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
    lua_settop(L, 4);
    steerL_grids_swap_worlds(L, 1, 4); // the grids' walls follow their C world
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "twins"); // the live grids and fields that stand for the loaded ones take their contents
    lua_pushnil(L);
    lua_setfield(L, -3, "twins");
    steerL_grids_twin(L, -1, fn);
    lua_settop(L, 4);
    steerL_nav_twins_end(L, &mesh_twins, true); // the script's meshes hold the world's
    steerL_snap_adopt_kept(L, 1, fn);           // the trees the script holds (a cache by field, say) run again
    lua_getiuservalue(L, 4, 1);                 // 5: w's old user value
    revoke_handles(L, 1, 5);
    lua_settop(L, 1);
    return 1;
}

void steerL_open_snapshot(lua_State *L)
{
    steerL_open_snaptree(L);
    luaL_newmetatable(L, HOLDER);
    lua_pushcfunction(L, holder_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    lua_pushcfunction(L, load);
    lua_setfield(L, -2, "load");
}
