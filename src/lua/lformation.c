// SPDX-License-Identifier: MIT
// lformation.c — steer.formation{...} and its methods, and a:slot()
// (issue 35). A formation's userdata holds the C object
// (behaviors/exports.h: steerB_Formation) as its first member, so that
// steer.formation_slot{ formation = f } takes it (steerL_resource_type).
// Its user value is a table: `world`, the world its members belong to
// (set by the first f:add, or the leader), and `fn`, the pattern function
// of a custom shape, which the binding calls when the shape changes
// (f:add, f:remove, f.pattern =), never per tick: the C side gets the
// offsets. The world's user value keeps its formations' userdata alive
// (`formations`), and the registry maps each C formation to its one
// userdata (weak), so w:formations() gives the same values.
#include "lnav.h"
#include "lutil.h"
#include "../behaviors/exports.h"
#include "../group/assign.h"
#include "../group/pattern.h"

#include <math.h>
#include <string.h>

#define STEERL_FORMATION "steer.formation"
#define USERDATA_OF "steer.formation_userdata" // registry: C formation -> its userdata (weak values)

typedef struct Formation {
    steerB_Formation *f;
    size_t charged; // its C memory, charged to the state's owner (a mod's cap)
} Formation;

static const char *const assign_names[] = { "sum", "max", NULL };

static Formation *check(lua_State *L, int idx) { return luaL_checkudata(L, idx, STEERL_FORMATION); }

// Charge the state's owner what the formation's C memory (its resource
// bytes) now adds to what it was charged; 0 once collected. May raise (a
// mod past its memory cap), after the change that grew it.
static void charge(lua_State *L, Formation *u)
{
    steerL_nav_charge(L, &u->charged, u->f ? steerB_formation_resource.bytes(u->f) : 0);
}

// The formation's world (its userdata pushed) or NULL (nil pushed).
static steerL_World *world_of(lua_State *L, int fidx)
{
    lua_getiuservalue(L, fidx, 1);
    lua_getfield(L, -1, "world");
    lua_remove(L, -2);
    return lua_isnil(L, -1) ? NULL : lua_touserdata(L, -1);
}

// Bind the formation at fidx to the world of agent userdata aidx (the
// world keeps it: attached, and its userdata in the world's `formations`),
// or check that the agent is of the formation's world.
static steerL_World *bind_world(lua_State *L, int fidx, int aidx, const char *fn)
{
    fidx = lua_absindex(L, fidx);
    steerL_Agent *a = steerL_toagent(L, aidx);
    steerL_World *lw = world_of(L, fidx);
    if (lw) {
        if (a && a->world != lw)
            luaL_error(L, "%s: agent %s belongs to another world than the formation's", fn,
                       steerL_istr((char[24]){ 0 }, steerL_lid(a->handle.id)));
        const steerB_Formation *f = check(L, fidx)->f, *g = NULL;
        for (uint32_t i = 0; (g = steerB_world_formation(lw->w, i)) != NULL && g != f; i++) {}
        if (!g)
            luaL_error(L,
                       "%s: the formation is no longer in its world (w:restore gave the world the snapshot's "
                       "state): take the world's formations from w:formations()",
                       fn);
        lua_pop(L, 1);
        return lw;
    }
    lua_pop(L, 1);
    lw = a->world;
    steerL_check_writable(L, lw, fn);
    lua_getiuservalue(L, aidx, 1); // the agent's world userdata
    int wi = lua_gettop(L);
    int st = steerB_world_add_formation(lw->w, check(L, fidx)->f);
    if (st < 0) luaL_error(L, "%s: %s", fn, steerL_status_text(st));
    lua_getiuservalue(L, fidx, 1);
    lua_pushvalue(L, wi);
    lua_setfield(L, -2, "world");
    lua_pop(L, 1);
    lua_getiuservalue(L, wi, 1);
    luaL_getsubtable(L, -1, "formations");
    lua_pushvalue(L, fidx);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 3);
    return lw;
}

#define PATTERN_EXPECT "\"line\", \"column\", \"wedge\", \"circle\", \"box\", \"vee\" or a function(i, n) -> dx, dy"

// The pattern function at fnidx's offsets for n members, in a scratch
// userdata pushed (n x, then n y). Errors name fn and the slot; nothing
// has changed when one is raised.
static float *call_pattern(lua_State *L, int fnidx, uint32_t n, const char *fn)
{
    fnidx = lua_absindex(L, fnidx);
    float *o = lua_newuserdatauv(L, sizeof *o * 2 * (n ? n : 1), 0);
    for (uint32_t i = 0; i < n; i++) {
        lua_pushvalue(L, fnidx);
        lua_pushinteger(L, (lua_Integer)i + 1);
        lua_pushinteger(L, (lua_Integer)n);
        if (lua_pcall(L, 2, 2, 0) != LUA_OK)
            luaL_error(L, "%s: the pattern function failed for slot %d of %d: %s", fn, (int)i + 1, (int)n,
                       lua_isstring(L, -1) ? lua_tostring(L, -1) : "(an error that is not a string)");
        for (int k = 0; k < 2; k++) {
            int v = lua_gettop(L) - 1 + k;
            if (lua_type(L, v) != LUA_TNUMBER || !isfinite(lua_tonumber(L, v)) || fabs(lua_tonumber(L, v)) > 1e15) {
                char buf[64];
                luaL_error(L,
                           "%s: the pattern function returned %s as %s for slot %d of %d; expected two finite "
                           "numbers dx, dy (metres forward and to the left)",
                           fn, steerL_describe(L, v, buf, sizeof buf), k ? "dy" : "dx", (int)i + 1, (int)n);
            }
        }
        o[i] = (float)lua_tonumber(L, -2);
        o[n + i] = (float)lua_tonumber(L, -1);
        lua_pop(L, 2);
    }
    return o;
}

// The offsets of the formation's custom shape for n members (pushed), or
// NULL (nil pushed) for a builtin pattern.
static float *custom_offsets(lua_State *L, int fidx, uint32_t n, const char *fn)
{
    fidx = lua_absindex(L, fidx);
    lua_getiuservalue(L, fidx, 1);
    lua_getfield(L, -1, "fn");
    lua_remove(L, -2);
    if (lua_isnil(L, -1)) return NULL;
    float *o = call_pattern(L, -1, n, fn);
    lua_remove(L, -2);
    return o;
}

static uint32_t count(const Formation *u)
{
    steerB_FormationInfo in;
    steerB_formation_info(u->f, &in);
    return in.n;
}

static void check_status(lua_State *L, int st, const char *fn)
{
    if (st < 0) luaL_error(L, "%s: %s", fn, steerL_status_text(st));
}

// The pattern from the value at v (a name or a function): checked (the
// function called for the members there are) before anything changes.
static void set_pattern(lua_State *L, int fidx, int v, const char *fn, const char *field)
{
    fidx = lua_absindex(L, fidx);
    v = lua_absindex(L, v);
    Formation *u = check(L, fidx);
    int p = STEERB_FORMATION_CUSTOM;
    if (lua_type(L, v) == LUA_TSTRING) {
        p = steerU_pattern_find(lua_tostring(L, v));
        if (p < 0) steerL_field_error(L, fn, field, PATTERN_EXPECT, v);
    } else if (!lua_isfunction(L, v)) {
        steerL_field_error(L, fn, field, PATTERN_EXPECT, v);
    }
    uint32_t n = count(u);
    float *o = p == STEERB_FORMATION_CUSTOM ? call_pattern(L, v, n, fn) : NULL;
    steerL_World *lw = world_of(L, fidx);
    if (lw) steerL_check_writable(L, lw, fn);
    lua_getiuservalue(L, fidx, 1);
    if (p == STEERB_FORMATION_CUSTOM) lua_pushvalue(L, v);
    else lua_pushnil(L);
    lua_setfield(L, -2, "fn");
    check_status(L, steerB_formation_reshape(u->f, lw ? lw->w : NULL, p, o, o ? o + n : NULL), fn);
    lua_pop(L, o ? 3 : 2);
}

#define NARROW_EXPECT "\"files\", \"line\", \"column\", \"wedge\", \"circle\", \"box\", \"vee\" or false (never narrow)"

// The narrow shape from the value at v (a pattern's name or false).
static void set_narrow(lua_State *L, int fidx, int v, const char *fn)
{
    fidx = lua_absindex(L, fidx);
    int p = STEERB_FORMATION_WIDE;
    if (lua_type(L, v) == LUA_TSTRING) {
        p = strcmp(lua_tostring(L, v), "files") == 0 ? STEERB_FORMATION_FILES : steerU_pattern_find(lua_tostring(L, v));
        if (p < 0) steerL_field_error(L, fn, "narrow", NARROW_EXPECT, v);
    } else if (!(lua_type(L, v) == LUA_TBOOLEAN && !lua_toboolean(L, v))) {
        steerL_field_error(L, fn, "narrow", NARROW_EXPECT, v);
    }
    steerL_World *lw = world_of(L, fidx);
    if (lw) steerL_check_writable(L, lw, fn);
    check_status(L, steerB_formation_set_narrow(check(L, fidx)->f, lw ? lw->w : NULL, p), fn);
    lua_pop(L, 1);
}

// The navigation mesh at v (a steer.navmesh or nil), kept in the
// formation's user value (f.navmesh gives it back).
static void set_navmesh(lua_State *L, int fidx, int v, const char *fn)
{
    fidx = lua_absindex(L, fidx);
    v = lua_absindex(L, v);
    void **ud = lua_isnil(L, v) ? NULL : luaL_testudata(L, v, "steer.navmesh");
    if (!lua_isnil(L, v) && !(ud && *ud))
        steerL_field_error(L, fn, "navmesh", "a navigation mesh (steer.navmesh) or nil", v);
    steerL_World *lw = world_of(L, fidx);
    if (lw) steerL_check_writable(L, lw, fn);
    lua_pop(L, 1);
    lua_getiuservalue(L, fidx, 1);
    lua_pushvalue(L, v);
    lua_setfield(L, -2, "navmesh");
    lua_pop(L, 1);
    steerB_formation_set_navmesh(check(L, fidx)->f, ud ? *ud : NULL);
}

static double check_spacing(lua_State *L, int idx, const char *fn)
{
    return steerL_checkrange(L, idx, fn, "spacing", "a number of metres", 1e-6, 1e6);
}

static int check_assign(lua_State *L, int idx, const char *fn)
{
    const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
    for (int i = 0; s && assign_names[i]; i++)
        if (strcmp(s, assign_names[i]) == 0) return i;
    return steerL_field_error(L, fn, "assign", "\"sum\" or \"max\"", idx);
}

// The leader at idx (an agent or nil) of the formation at fidx.
static void set_leader(lua_State *L, int fidx, int idx, const char *fn)
{
    fidx = lua_absindex(L, fidx);
    Formation *u = check(L, fidx);
    if (lua_isnil(L, idx)) {
        steerB_formation_set_leader(u->f, STEER_NO_AGENT);
        return;
    }
    if (!steerL_toagent(L, idx)) steerL_field_error(L, fn, "leader", "an agent or nil", idx);
    steerL_Agent *a = steerL_checkagent(L, idx, fn);
    bind_world(L, fidx, idx, fn);
    float s[3];
    if (steerB_formation_slot_of(u->f, a->handle, s))
        luaL_error(L, "%s: field 'leader': agent %s is a member; a leader leads from outside (f:remove it first)", fn,
                   steerL_istr((char[24]){ 0 }, steerL_lid(a->handle.id)));
    steerB_formation_set_leader(u->f, a->handle);
}

static void set_target(lua_State *L, Formation *u, int idx, const char *fn)
{
    if (lua_isnil(L, idx)) {
        steerB_formation_set_target(u->f, NULL);
        return;
    }
    double p[3];
    steerL_checkvec(L, idx, p, fn, "target");
    float t[3] = { (float)p[0], (float)p[1], (float)p[2] };
    steerB_formation_set_target(u->f, t);
}

static void set_anchor(lua_State *L, Formation *u, int idx, const char *fn, bool heading)
{
    double p[3];
    steerL_checkvec(L, idx, p, fn, heading ? "heading" : "position");
    float v[3] = { (float)p[0], (float)p[1], (float)p[2] };
    if (heading && v[0] == 0.0f && v[1] == 0.0f) steerL_field_error(L, fn, "heading", "a vector that is not zero", idx);
    steerB_formation_set_anchor(u->f, heading ? NULL : v, heading ? v : NULL);
}

// A new userdata for C formation f (one reference taken), registered.
static Formation *push_new(lua_State *L, steerB_Formation *f)
{
    Formation *u = lua_newuserdatauv(L, sizeof *u, 1);
    u->f = f;
    u->charged = 0;
    luaL_setmetatable(L, STEERL_FORMATION);
    lua_newtable(L);
    lua_setiuservalue(L, -2, 1);
    steerL_weak_field(L, LUA_REGISTRYINDEX, USERDATA_OF, "v");
    lua_pushvalue(L, -2);
    lua_rawsetp(L, -2, f);
    lua_pop(L, 1);
    return u;
}

// steer.formation{ pattern, spacing, assign, leader, target, position, heading }
static int formation_new(lua_State *L)
{
    const char *fn = "steer.formation";
    static const char *const fields[] = { "pattern",  "spacing", "assign",  "leader", "target",
                                          "position", "heading", "navmesh", "narrow", NULL };
    if (lua_isnoneornil(L, 1)) {
        lua_settop(L, 0);
        lua_newtable(L);
    }
    steerL_check_desc(L, 1, fn, fields);
    lua_settop(L, 1);
    double spacing = 2.0;
    if (lua_getfield(L, 1, "spacing") != LUA_TNIL) spacing = check_spacing(L, -1, fn);
    int mode = 0;
    if (lua_getfield(L, 1, "assign") != LUA_TNIL) mode = check_assign(L, -1, fn);
    lua_settop(L, 1);
    steerB_Formation *f = steerB_formation_new(NULL, NULL);
    if (!f) return luaL_error(L, "%s: out of memory", fn);
    Formation *u = push_new(L, f); // 2
    steerB_formation_set(f, (float)spacing, mode);
    if (lua_getfield(L, 1, "pattern") != LUA_TNIL) set_pattern(L, 2, -1, fn, "pattern");
    if (lua_getfield(L, 1, "narrow") != LUA_TNIL) set_narrow(L, 2, -1, fn);
    if (lua_getfield(L, 1, "navmesh") != LUA_TNIL) set_navmesh(L, 2, -1, fn);
    if (lua_getfield(L, 1, "position") != LUA_TNIL) set_anchor(L, u, -1, fn, false);
    if (lua_getfield(L, 1, "heading") != LUA_TNIL) set_anchor(L, u, -1, fn, true);
    if (lua_getfield(L, 1, "target") != LUA_TNIL) set_target(L, u, lua_gettop(L), fn);
    if (lua_getfield(L, 1, "leader") != LUA_TNIL) set_leader(L, 2, lua_gettop(L), fn);
    lua_settop(L, 2);
    charge(L, u);
    return 1;
}

// f:add(a) / f:remove(a)
static int member_change(lua_State *L, bool add)
{
    const char *fn = add ? "steer.formation:add" : "steer.formation:remove";
    Formation *u = check(L, 1);
    if (!steerL_toagent(L, 2)) return steerL_field_error(L, fn, NULL, "an agent as argument 1", 2);
    steerL_Agent *a = steerL_checkagent(L, 2, fn);
    steerL_World *lw = bind_world(L, 1, 2, fn);
    steerL_check_writable(L, lw, fn);
    float s[3];
    bool member = steerB_formation_slot_of(u->f, a->handle, s);
    char id[24];
    steerL_istr(id, steerL_lid(a->handle.id));
    if (add && member) return luaL_error(L, "%s: agent %s is a member already", fn, id);
    if (!add && !member) return luaL_error(L, "%s: agent %s is not a member", fn, id);
    steerB_FormationInfo in;
    steerB_formation_info(u->f, &in);
    if (add && in.leader.id == a->handle.id)
        return luaL_error(L, "%s: agent %s is the formation's leader; a leader leads from outside", fn, id);
    uint32_t n = in.n + (add ? 1u : 0u) - (add ? 0u : 1u);
    float *o = custom_offsets(L, 1, n, fn);
    if (add && !o && in.pattern == STEERB_FORMATION_CUSTOM)
        return luaL_error(L,
                          "%s: the formation's pattern function did not come with the snapshot it was loaded "
                          "from; give it again (f.pattern = fn) first",
                          fn);
    int st = add ? steerB_formation_add(u->f, lw->w, a->handle, o, o ? o + n : NULL)
                 : steerB_formation_remove(u->f, lw->w, a->handle, o, o ? o + n : NULL);
    check_status(L, st, fn);
    charge(L, u);
    return 0;
}
static int formation_add(lua_State *L) { return member_change(L, true); }
static int formation_remove(lua_State *L) { return member_change(L, false); }

// f:members() -> { a, ... } by id
static int formation_members(lua_State *L)
{
    Formation *u = check(L, 1);
    steerL_World *lw = world_of(L, 1); // 2
    uint32_t n = count(u);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; lw && i < n; i++) {
        steer_Agent a = steerB_formation_member(u->f, i);
        if (!steer_alive(lw->w, a)) continue; // gone since the last tick: it leaves at the next
        steerL_pushagent(L, 2, a);
        lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    }
    return 1;
}

static int formation_index(lua_State *L)
{
    Formation *u = check(L, 1);
    const char *k = lua_tostring(L, 2);
    if (!k) return 0;
    steerB_FormationInfo in;
    steerB_formation_info(u->f, &in);
    if (strcmp(k, "position") == 0) steerL_pushvec(L, in.pos[0], in.pos[1], in.pos[2]);
    else if (strcmp(k, "heading") == 0) steerL_pushvec(L, in.head[0], in.head[1], 0.0);
    else if (strcmp(k, "velocity") == 0) steerL_pushvec(L, in.vel[0], in.vel[1], in.vel[2]);
    else if (strcmp(k, "spacing") == 0) lua_pushnumber(L, in.spacing);
    else if (strcmp(k, "assign") == 0) lua_pushstring(L, assign_names[in.mode]);
    else if (strcmp(k, "narrowed") == 0) lua_pushboolean(L, in.narrowed);
    else if (strcmp(k, "navmesh") == 0) {
        lua_getiuservalue(L, 1, 1);
        lua_getfield(L, -1, "navmesh");
    } else if (strcmp(k, "narrow") == 0) {
        if (in.narrow == STEERB_FORMATION_WIDE) lua_pushboolean(L, 0);
        else if (in.narrow == STEERB_FORMATION_FILES) lua_pushliteral(L, "files");
        else lua_pushstring(L, steerU_pattern_name((SteerUPattern)in.narrow));
    } else if (strcmp(k, "target") == 0) {
        if (in.has_target) steerL_pushvec(L, in.target[0], in.target[1], in.target[2]);
        else lua_pushnil(L);
    } else if (strcmp(k, "pattern") == 0) {
        if (in.pattern == STEERB_FORMATION_CUSTOM) {
            lua_getiuservalue(L, 1, 1);
            lua_getfield(L, -1, "fn");
        } else {
            lua_pushstring(L, steerU_pattern_name((SteerUPattern)in.pattern));
        }
    } else if (strcmp(k, "leader") == 0) {
        steerL_World *lw = world_of(L, 1);
        if (lw && in.leader.id && steer_alive(lw->w, in.leader)) steerL_pushagent(L, lua_gettop(L), in.leader);
        else lua_pushnil(L);
    } else {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int formation_newindex(lua_State *L)
{
    const char *fn = "steer.formation";
    Formation *u = check(L, 1);
    const char *k = lua_tostring(L, 2);
    steerL_World *lw = world_of(L, 1);
    lua_pop(L, 1);
    if (lw) steerL_check_writable(L, lw, fn);
    if (!k) return luaL_error(L, "%s: no field of that name", fn);
    if (strcmp(k, "pattern") == 0) set_pattern(L, 1, 3, "f.pattern", NULL);
    else if (strcmp(k, "target") == 0) set_target(L, u, 3, fn);
    else if (strcmp(k, "narrow") == 0) set_narrow(L, 1, 3, fn);
    else if (strcmp(k, "navmesh") == 0) set_navmesh(L, 1, 3, fn);
    else if (strcmp(k, "leader") == 0) set_leader(L, 1, 3, fn);
    else if (strcmp(k, "position") == 0) set_anchor(L, u, 3, fn, false);
    else if (strcmp(k, "heading") == 0) set_anchor(L, u, 3, fn, true);
    else if (strcmp(k, "spacing") == 0 || strcmp(k, "assign") == 0) {
        if (k[0] == 's') steerB_formation_set(u->f, (float)check_spacing(L, 3, fn), -1);
        else steerB_formation_set(u->f, 0.0f, check_assign(L, 3, fn));
        steerB_FormationInfo in;
        steerB_formation_info(u->f, &in);
        if (in.pattern != STEERB_FORMATION_CUSTOM && lw)
            check_status(L, steerB_formation_reshape(u->f, lw->w, in.pattern, NULL, NULL), fn);
    } else
        return luaL_error(L,
                          "%s: field '%s' cannot be set (pattern, narrow, navmesh, target, leader, position, heading, "
                          "spacing, assign)",
                          fn, k);
    return 0;
}

static int formation_gc(lua_State *L)
{
    Formation *u = check(L, 1);
    if (u->f) steerB_formation_release(u->f);
    u->f = NULL;
    charge(L, u);
    return 0;
}

static int formation_tostring(lua_State *L)
{
    Formation *u = check(L, 1);
    lua_pushfstring(L, "steer.formation (%d members)", (int)count(u));
    return 1;
}

// w:formations() -> { f, ... }: the world's formations, in the order they
// were attached (a loaded or restored world's are its own).
int steerL_world_formations(lua_State *L)
{
    steerL_World *lw = steerL_checkworld(L, 1);
    lua_newtable(L); // 2
    for (uint32_t i = 0;; i++) {
        steerB_Formation *f = steerB_world_formation(lw->w, i);
        if (!f) break;
        steerL_weak_field(L, LUA_REGISTRYINDEX, USERDATA_OF, "v");
        if (lua_rawgetp(L, -1, f) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_getiuservalue(L, 1, 1);
            if (!lua_istable(L, -1)) return luaL_error(L, "steer.world:formations: the world is gone");
            lua_pop(L, 1);
            charge(L, push_new(L, f));
            steerB_formation_resource.retain(f); // the userdata's reference (its __gc releases it)
            lua_getiuservalue(L, -1, 1);
            lua_pushvalue(L, 1);
            lua_setfield(L, -2, "world");
            lua_pop(L, 1);
            lua_getiuservalue(L, 1, 1);
            luaL_getsubtable(L, -1, "formations");
            lua_pushvalue(L, -3);
            lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
            lua_pop(L, 2);
        }
        lua_rawseti(L, 2, (lua_Integer)i + 1);
        lua_pop(L, 1);
    }
    return 1;
}

// a:slot() -> the point of agent a's slot, or nil
int steerL_agent_slot(lua_State *L)
{
    steerL_Agent *a = steerL_checkagent(L, 1, "steer.agent:slot");
    float s[3];
    if (!steerB_agent_slot(a->world->w, a->handle, s)) return 0;
    steerL_pushvec(L, s[0], s[1], s[2]);
    return 1;
}

void steerL_open_formation(lua_State *L)
{
    static const luaL_Reg meta[] = { { "__gc", formation_gc },
                                     { "__tostring", formation_tostring },
                                     { "__newindex", formation_newindex },
                                     { NULL, NULL } };
    static const luaL_Reg methods[] = {
        { "add", formation_add },
        { "remove", formation_remove },
        { "members", formation_members },
        { NULL, NULL },
    };
    steerL_newclass(L, STEERL_FORMATION, meta, methods, formation_index);
    lua_pushcfunction(L, formation_new);
    lua_setfield(L, -2, "formation");
    steerL_resource_type(L, &steerB_formation_resource, STEERL_FORMATION); // steer.formation_slot{ formation = f }
}
