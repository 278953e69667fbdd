// SPDX-License-Identifier: MIT
// lbehavior.c — steer.<kind>{...} constructors for every behaviour and
// combiner, generated from the kinds table: each field's type, default and
// range come from the kind's field descriptors, so this file never names a
// behaviour. A behaviour userdata owns a reference to its C tree; its user
// value holds its children and its Lua callbacks so they live as long as it.
#include "lutil.h"
#include "steer_lua.h"
#include "../behaviors/exports.h"

#include <stdio.h>
#include <string.h>

// The C memory of b itself (its children are behaviours of their own):
// what a mod's memory cap counts for it.
static lua_Integer own_bytes(const steer_Behavior *b)
{
    lua_Integer n = (lua_Integer)sizeof *b;
    n += (lua_Integer)b->nkids * (lua_Integer)(sizeof *b->kids + sizeof *b->kid_weights + sizeof *b->kid_roles);
    if (b->name) n += (lua_Integer)strlen(b->name) + 1;
    for (size_t i = 0; i < sizeof b->tags / sizeof b->tags[0]; i++)
        if (b->tags[i]) n += (lua_Integer)strlen(b->tags[i]) + 1;
    for (const steerB_Field *f = b->kind->fields; f && f->name; f++) {
        if (f->type == STEERB_POINTS)
            n += 3 * (lua_Integer)sizeof(float) *
                 (lua_Integer)((const steerB_Points *)(const void *)(b->params + f->offset))->n;
        const void *obj = f->type == STEERB_RESOURCE ? steerB_resource(b, f) : NULL;
        if (obj && steerB_field_resource(f)->bytes) n += (lua_Integer)steerB_field_resource(f)->bytes(obj);
    }
    return n;
}

static int behavior_gc(lua_State *L)
{
    steerL_Behavior *ub = luaL_checkudata(L, 1, STEERL_BEHAVIOR);
    steerL_charge(L, -ub->charged);
    ub->charged = 0;
    if (ub->b) {
        steer_behavior_release(ub->b);
        ub->b = NULL;
    }
    // callbacks: the refs listed under "refs" in the user value (the owner's
    // bits above STEERL_OWNER_SHIFT are not part of the registry's ref)
    if (lua_getiuservalue(L, 1, 1) == LUA_TTABLE && lua_getfield(L, -1, "refs") == LUA_TTABLE) {
        lua_Integer n = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            luaL_unref(L, LUA_REGISTRYINDEX, (int)(lua_tointeger(L, -1) & ((1 << STEERL_OWNER_SHIFT) - 1)));
            lua_pop(L, 1);
        }
    }
    return 0;
}

static int behavior_tostring(lua_State *L)
{
    steerL_Behavior *ub = luaL_checkudata(L, 1, STEERL_BEHAVIOR);
    lua_pushfstring(L, "steer.%s(%s)", steer_behavior_kind(ub->b), steer_behavior_name(ub->b));
    return 1;
}

static int behavior_index(lua_State *L)
{
    steerL_Behavior *ub = luaL_checkudata(L, 1, STEERL_BEHAVIOR);
    const char *k = luaL_checkstring(L, 2);
    if (strcmp(k, "kind") == 0) lua_pushstring(L, steer_behavior_kind(ub->b));
    else if (strcmp(k, "name") == 0) lua_pushstring(L, steer_behavior_name(ub->b));
    else lua_pushnil(L);
    return 1;
}

// Raise with the C side's message, which names the field and the expectation.
static void setter_error(lua_State *L, const char *fn, steer_Behavior *b)
{
    luaL_error(L, "%s: %s", fn, steer_behavior_error(b));
}

// ---- resources ----------------------------------------------------------------

// Resources (core/tree.h) reach scripts as userdata of a type of their own
// (a flow field: STEERL_FLOW) whose first member is the C object. The
// registry's table under &resource_types maps each kind to that type's
// metatable name, which the binding of the type registers once.
static const char resource_types = 0;

void steerL_resource_type(lua_State *L, const steerB_ResourceKind *kind, const char *tname)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &resource_types) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &resource_types);
    }
    lua_pushstring(L, tname);
    lua_rawsetp(L, -2, kind);
    lua_pop(L, 1);
}

// The object of `kind` the value at idx holds, or NULL.
static void *to_resource(lua_State *L, int idx, const steerB_ResourceKind *kind)
{
    void *obj = NULL;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &resource_types) == LUA_TTABLE && lua_rawgetp(L, -1, kind) == LUA_TSTRING) {
        void **ud = luaL_testudata(L, idx, lua_tostring(L, -1));
        if (ud) obj = *ud;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return obj;
}

static void set_field(lua_State *L, const char *fn, steer_Behavior *b, const steerB_Field *f, int v, int uv)
{
    int st = STEER_OK;
    char buf[64];
    switch (f->type) {
    case STEERB_NUMBER: {
        char expect[160];
        steerB_expect(f, expect, sizeof expect);
        // the range is checked here, by the core's own test, so that a
        // failure of the setter below is never the value's (the binding
        // does not read the C error text to tell)
        if (lua_type(L, v) != LUA_TNUMBER || !steerB_number_ok(lua_tonumber(L, v), f->min, f->max))
            steerL_field_error(L, fn, f->name, expect, v);
        st = steer_behavior_set_number(b, f->name, lua_tonumber(L, v));
        break;
    }
    case STEERB_TARGET: {
        steerL_Agent *a = steerL_toagent(L, v);
        if (a) {
            if (!steerL_agent_alive(a)) luaL_error(L, "%s: field '%s' got a removed agent", fn, f->name);
            if (b->target_world && b->target_world != a->world->w)
                luaL_error(L, "%s: field '%s' expected an agent of the same world as the behaviour's other targets", fn,
                           f->name);
            st = steer_behavior_set_target_agent(b, f->name, a->handle);
            b->target_world = a->world->w; // a brain refuses to run in another world
        } else {
            double p[3];
            if (!steerL_tovec(L, v, p)) steerL_field_error(L, fn, f->name, f->expect, v);
            st = steer_behavior_set_target_point(b, f->name, p);
        }
        break;
    }
    case STEERB_CHOICE:
        if (lua_type(L, v) != LUA_TSTRING) steerL_field_error(L, fn, f->name, f->expect, v);
        st = steer_behavior_set_choice(b, f->name, lua_tostring(L, v));
        if (st) steerL_field_error(L, fn, f->name, f->expect, v);
        break;
    case STEERB_TAG:
        if (lua_type(L, v) != LUA_TSTRING) steerL_field_error(L, fn, f->name, f->expect, v);
        st = steer_behavior_set_tag(b, f->name, lua_tostring(L, v));
        break;
    case STEERB_VECTOR: {
        double p[3];
        if (!steerL_tovec(L, v, p)) steerL_field_error(L, fn, f->name, f->expect, v);
        st = steer_behavior_set_vector(b, f->name, p);
        break;
    }
    case STEERB_BOOL:
        if (!lua_isboolean(L, v)) steerL_field_error(L, fn, f->name, f->expect, v);
        st = steer_behavior_set_bool(b, f->name, lua_toboolean(L, v));
        break;
    case STEERB_POINTS: {
        if (!lua_istable(L, v)) steerL_field_error(L, fn, f->name, f->expect, v);
        lua_Integer n = (lua_Integer)lua_rawlen(L, v);
        if (n < (lua_Integer)f->min || n > 1000000) steerL_field_error(L, fn, f->name, f->expect, v);
        double *xyz = lua_newuserdatauv(L, sizeof(double) * 3 * (size_t)(n ? n : 1), 0); // freed by the GC
        size_t work = 0;
        for (lua_Integer i = 1; i <= n; i++) {
            steerL_poll(L, &work, 1);
            lua_rawgeti(L, v, i);
            if (!steerL_tovec(L, -1, xyz + 3 * (i - 1))) {
                char exp[160];
                snprintf(exp, sizeof exp, "%s; point %d is not a finite vector", f->expect, (int)i);
                steerL_field_error(L, fn, f->name, exp, -1);
            }
            lua_pop(L, 1);
        }
        st = steer_behavior_set_points(b, f->name, xyz, (int)n);
        lua_pop(L, 1);
        break;
    }
    case STEERB_CHILDREN: {
        if (steerL_tobehavior(L, v)) {
            // a single behaviour stands for a list of one
            lua_createtable(L, 1, 0);
            lua_pushvalue(L, v);
            lua_rawseti(L, -2, 1);
            lua_replace(L, v);
        }
        if (!lua_istable(L, v)) steerL_field_error(L, fn, f->name, f->expect, v);
        lua_getfield(L, uv, "kids");
        lua_Integer n = (lua_Integer)lua_rawlen(L, v);
        if (n < (lua_Integer)f->min)
            luaL_error(L, "%s: field '%s' expected %s, got an empty list", fn, f->name, f->expect);
        size_t work = 0;
        for (lua_Integer i = 1; i <= n; i++) {
            steerL_poll(L, &work, 1);
            lua_rawgeti(L, v, i);
            double weight = 1.0;
            if (f->def != 0.0f && lua_istable(L, -1) && !steerL_tobehavior(L, -1)) {
                // {behaviour, weight}
                int e = lua_gettop(L), ok;
                lua_rawgeti(L, e, 2);
                weight = lua_tonumberx(L, -1, &ok);
                if (!ok || !(weight >= 0.0) || weight - weight != 0)
                    luaL_error(L, "%s: %s[%d] expected {behaviour, weight} with a finite weight >= 0", fn, f->name,
                               (int)i);
                lua_pop(L, 1);
                lua_rawgeti(L, e, 1);
                lua_replace(L, e);
            }
            steer_Behavior *c = steerL_tobehavior(L, -1);
            if (!c) {
                char exp[160];
                snprintf(exp, sizeof exp, "%s; entry %d is not a behaviour", f->expect, (int)i);
                steerL_field_error(L, fn, f->name, exp, -1);
            }
            if (steerB_add_child_to(b, f->name, c, weight))
                luaL_error(L, "%s: %s[%d]: %s", fn, f->name, (int)i, steer_behavior_error(b));
            lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1); // keep the child alive
        }
        lua_pop(L, 1);
        break;
    }
    case STEERB_RESOURCE: {
        void *obj = to_resource(L, v, steerB_field_resource(f));
        if (!obj) steerL_field_error(L, fn, f->name, f->expect, v);
        st = steerB_set_resource(b, f->name, steerB_field_resource(f), obj);
        lua_pushvalue(L, v);
        lua_setfield(L, uv, f->name); // the behaviour keeps the script's object alive too
        break;
    }
    case STEERB_EASE:
    case STEERB_CALLBACK:
        if (lua_type(L, v) == LUA_TSTRING && f->type == STEERB_EASE) {
            st = steer_behavior_set_choice(b, f->name, lua_tostring(L, v));
            if (st) steerL_field_error(L, fn, f->name, f->expect, v);
        } else if (lua_type(L, v) == LUA_TFUNCTION) {
            // a mod's function runs in the mod's state (its owner in the ref)
            int ref = steerL_callback_ref(L, v, fn);
            // remember the ref so __gc can drop it
            lua_getfield(L, uv, "refs");
            lua_pushinteger(L, ref);
            lua_rawseti(L, -2, (lua_Integer)luaL_len(L, -2) + 1);
            lua_pop(L, 1);
            st = steer_behavior_set_callback(b, f->name, ref);
        } else {
            steerL_field_error(L, fn, f->name, f->expect, v);
        }
        break;
    }
    (void)buf;
    if (st) setter_error(L, fn, b);
}

static void add_children(lua_State *L, const char *fn, steer_Behavior *b, int t, int uv)
{
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    lua_getfield(L, uv, "kids");
    size_t work = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        steerL_poll(L, &work, 1);
        lua_rawgeti(L, t, i);
        double weight = 1.0;
        int child_idx = lua_gettop(L);
        if (b->kind->children == STEERB_WEIGHTED && lua_istable(L, -1)) {
            lua_rawgeti(L, child_idx, 1);
            lua_rawgeti(L, child_idx, 2);
            int ok;
            weight = lua_tonumberx(L, -1, &ok);
            if (!ok || weight != weight || weight - weight != 0)
                luaL_error(L, "%s: entry %d expected {behaviour, weight} with a finite weight", fn, (int)i);
            lua_pop(L, 1);
            lua_replace(L, child_idx); // the behaviour itself
        }
        steer_Behavior *c = steerL_tobehavior(L, child_idx);
        if (!c) {
            char buf[64];
            luaL_error(L, "%s: entry %d expected %s, got %s", fn, (int)i,
                       b->kind->children == STEERB_WEIGHTED ? "{behaviour, weight} or a behaviour" : "a behaviour",
                       steerL_describe(L, child_idx, buf, sizeof buf));
        }
        if (steer_behavior_add_child(b, c, weight))
            luaL_error(L, "%s: entry %d: %s", fn, (int)i, steer_behavior_error(b));
        lua_rawseti(L, -2, i); // keep the child's userdata alive
    }
    lua_pop(L, 1);
}

// steer.custom's arguments as the named table the other kinds take:
// custom(f) becomes { fn = f }, and { f, name = ... } a copy with f as its
// fn (the caller's table is left as it was). Anything else is left for the
// common checks to accept or reject.
static void custom_args(lua_State *L, const char *fn)
{
    if (lua_isfunction(L, 1)) {
        lua_settop(L, 1);
        lua_createtable(L, 0, 1);
        lua_insert(L, 1);
        lua_setfield(L, 1, "fn");
        return;
    }
    if (!lua_istable(L, 1) || lua_rawlen(L, 1) != 1) return;
    lua_settop(L, 1);
    if (lua_rawgeti(L, 1, 1) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return;
    }
    lua_pushliteral(L, "fn");
    if (lua_rawget(L, 1) != LUA_TNIL) luaL_error(L, "%s: give the function once, as entry 1 or as 'fn'", fn);
    lua_pop(L, 1);
    lua_newtable(L); // 3: the copy
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        if (lua_isinteger(L, -2) && lua_tointeger(L, -2) == 1) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, 3);
    }
    lua_pushvalue(L, 2); // 1: the caller's table, 2: the function, 3: the copy
    lua_setfield(L, 3, "fn");
    lua_replace(L, 1);
    lua_settop(L, 1);
}

int steerL_construct(lua_State *L, const void *kind, const char *extra)
{
    const steerB_Kind *k = kind;
    char fn[48];
    snprintf(fn, sizeof fn, "steer.%s", k->name);
    // steer.custom(fn) and steer.custom{ fn, name = ... }: the one kind whose
    // natural argument is a function, so it may come first, unnamed
    if (strcmp(k->name, "custom") == 0) custom_args(L, fn);
    if (lua_isnoneornil(L, 1) && !k->children) {
        lua_settop(L, 0);
        lua_newtable(L);
    }
    if (!lua_istable(L, 1)) {
        char buf[64];
        return luaL_error(L, "%s: expected a table of named arguments, got %s", fn,
                          steerL_describe(L, 1, buf, sizeof buf));
    }
    lua_settop(L, 1);
    // accepted names: the kind's fields and "name"
    const char *known[32];
    int nk = 0;
    // (navigate's costs come as two tables, `costs` and `exclude`)
    for (const steerB_Field *f = k->fields; f && f->name && nk < 28; f++) {
        known[nk++] = f->name;
        if (f->type == STEERB_RESOURCE && steerB_field_resource(f) == &steerB_navcosts_resource)
            known[nk++] = "exclude";
    }
    known[nk++] = "name";
    if (extra) known[nk++] = extra;
    known[nk] = NULL;
    bool list = k->children == STEERB_WEIGHTED || k->children == STEERB_LIST;
    steerL_check_fields(L, 1, fn, known, list);
    if (!list && lua_rawlen(L, 1) > 0) return luaL_error(L, "%s: takes only named fields, got a list entry", fn);
    if (list && !k->children_optional && lua_rawlen(L, 1) == 0)
        return luaL_error(L, "%s: expected at least one child behaviour", fn);

    steerL_Behavior *ub = lua_newuserdatauv(L, sizeof *ub, 1);
    ub->b = NULL;
    ub->charged = 0;
    luaL_setmetatable(L, STEERL_BEHAVIOR);
    int self = lua_gettop(L);
    lua_createtable(L, 0, 2);
    lua_newtable(L);
    lua_setfield(L, -2, "kids");
    lua_newtable(L);
    lua_setfield(L, -2, "refs");
    int uv = lua_gettop(L);
    lua_pushvalue(L, uv);
    lua_setiuservalue(L, self, 1);
    const steerL_Host *h = steerL_host(L); // the host's allocator, or libc
    if (steerB_new_alloc(k, h ? h->alloc : NULL, h ? h->alloc_ud : NULL, &ub->b) != STEER_OK)
        return luaL_error(L, "%s: out of memory", fn);

    for (const steerB_Field *f = k->fields; f && f->name; f++) {
        if (f->type == STEERB_RESOURCE && steerB_field_resource(f) == &steerB_navcosts_resource) {
            steerL_navigate_costs(L, fn, ub->b, f->name); // from the table at 1, against its navmesh
            continue;
        }
        if (lua_getfield(L, 1, f->name) != LUA_TNIL) set_field(L, fn, ub->b, f, lua_gettop(L), uv);
        else if ((f->type == STEERB_RESOURCE || f->type == STEERB_CHILDREN) && f->min > 0)
            steerL_field_error(L, fn, f->name, f->expect, -1);
        lua_pop(L, 1);
    }
    if (lua_getfield(L, 1, "name") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TSTRING) steerL_field_error(L, fn, "name", "a string", -1);
        if (steer_behavior_set_name(ub->b, lua_tostring(L, -1)) != STEER_OK)
            return luaL_error(L, "%s: out of memory", fn);
    }
    lua_pop(L, 1);
    // cross-field checks once every field is in (e.g. stop_radius < slow_radius)
    char msg[160];
    if (k->check && !k->check(ub->b->params, msg, sizeof msg)) return luaL_error(L, "%s: %s", fn, msg);
    if (list) add_children(L, fn, ub->b, 1, uv);
    // a mod's trees count against its memory cap (and stop it past the cap)
    ub->charged = own_bytes(ub->b);
    steerL_charge(L, ub->charged);
    lua_settop(L, self);
    return 1;
}

static int construct(lua_State *L) { return steerL_construct(L, lua_touserdata(L, lua_upvalueindex(1)), NULL); }

// Push the constructor of kind k (a built-in or a host's kind).
void steerL_push_constructor(lua_State *L, const void *kind)
{
    lua_pushlightuserdata(L, (void *)(uintptr_t)kind);
    lua_pushcclosure(L, construct, 1);
}

void steerL_open_behavior(lua_State *L)
{
    static const luaL_Reg meta[] = {
        { "__gc", behavior_gc },
        { "__tostring", behavior_tostring },
        { "__index", behavior_index },
        { NULL, NULL },
    };
    steerL_newclass(L, STEERL_BEHAVIOR, meta, NULL, NULL);
    for (int i = 0; steerB_kinds[i]; i++) {
        steerL_push_constructor(L, steerB_kinds[i]);
        lua_setfield(L, -2, steerB_kinds[i]->name);
    }
}

// Host kinds live in a registry table (name -> light userdata of the kind),
// so a module opened later gets their constructors too.
#define REG_HOST_KINDS "steer.host_kinds"

void steerL_add_host_constructors(lua_State *L)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, REG_HOST_KINDS) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            steerL_push_constructor(L, lua_touserdata(L, -1));
            lua_setfield(L, -5, lua_tostring(L, -3));
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

void steer_lua_register_host(lua_State *L, const steer_HostKind *k)
{
    if (!L || !k) return; // nothing to register, nowhere to say so but the return
    const char *name = steer_host_kind_name(k);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, REG_HOST_KINDS);
    lua_pushlightuserdata(L, (void *)steerB_host_kind(k));
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, "steer") == LUA_TTABLE) {
        steerL_push_constructor(L, steerB_host_kind(k));
        lua_setfield(L, -2, name);
    }
    lua_pop(L, 2);
}
