// SPDX-License-Identifier: MIT
// lnavlink.c — off-mesh links in Lua (src/nav/mesh_link.h):
// nm:add_link{...}, nm:add_jump_links{...}, nm:add_drop_links{...}, nm:links(), the link objects
// (link.enabled), the links of nm:path's way and the "link" event's link.
//
// A link userdata holds a reference to its mesh and its index there. One
// userdata per link: a weak table in the registry maps (mesh, index) to
// it, so the link add_link gave, the one nm:links() lists and the one an
// event hands out are the same value (== holds, a table keyed by links
// works).
#include "lnav.h"
#include "../behaviors/exports.h"
#include "../nav/mesh_link.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STEERL_NAVLINK "steer.navlink"
#define STEERL_REG_LINKS "steer.navlinks" // "mesh address:index" -> link userdata, weak values

typedef struct steerL_NavLink {
    steerN_Mesh *m; // referenced
    uint32_t i;
} steerL_NavLink;

static steerL_NavLink *check_link(lua_State *L, int idx) { return luaL_checkudata(L, idx, STEERL_NAVLINK); }

// Link i of m, pushed (the one userdata for it).
static void push_link(lua_State *L, steerN_Mesh *m, uint32_t i)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, STEERL_REG_LINKS) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "v");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, STEERL_REG_LINKS);
    }
    char key[48];
    snprintf(key, sizeof key, "%p:%u", (void *)m, i);
    if (lua_getfield(L, -1, key) == LUA_TUSERDATA) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    steerL_NavLink *u = lua_newuserdatauv(L, sizeof *u, 0);
    u->m = m;
    u->i = i;
    steerN_mesh_retain(m);
    luaL_setmetatable(L, STEERL_NAVLINK);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, key);
    lua_remove(L, -2);
}

int steerL_push_event_link(lua_State *L, const steer_World *w, steer_Agent a, uint64_t id)
{
    uint32_t i;
    const steerN_Mesh *m = steerB_navigate_link_of(w, a, &i);
    if (!m || i + 1 != id) return 0;
    push_link(L, (steerN_Mesh *)m, i);
    return 1;
}

// ---- adding links -----------------------------------------------------------------

// The area named by field `field` of the table at t (nil: 0).
static uint8_t opt_area(lua_State *L, int t, const steerN_Mesh *m, const char *fn)
{
    int a = 0;
    if (lua_getfield(L, t, "area") != LUA_TNIL) {
        const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (!name || (a = steerN_mesh_area(m, name)) < 0)
            steerL_field_error(L, fn, "area", "the name of one of the mesh's areas (nm.areas lists them)", -1);
    }
    lua_pop(L, 1);
    return (uint8_t)a;
}

static bool opt_bool(lua_State *L, int t, const char *fn, const char *field, bool def)
{
    bool v = def;
    int type = lua_getfield(L, t, field);
    if (type == LUA_TBOOLEAN) v = lua_toboolean(L, -1);
    else if (type != LUA_TNIL) steerL_field_error(L, fn, field, "a boolean", -1);
    lua_pop(L, 1);
    return v;
}

// A name field (nil: def) into out.
static void opt_name(lua_State *L, int t, const char *fn, const char *def, char out[STEERN_LINK_NAME])
{
    memset(out, 0, STEERN_LINK_NAME);
    size_t len = 0;
    const char *s = def;
    if (lua_getfield(L, t, "name") != LUA_TNIL) {
        s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        if (!s || len >= STEERN_LINK_NAME || strlen(s) != len)
            steerL_field_error(L, fn, "name", "a string of at most 31 bytes", -1);
    }
    if (s) memcpy(out, s, strlen(s));
    lua_pop(L, 1);
}

static void added(lua_State *L, int nm_idx, steerN_LinkStatus s, const char *fn)
{
    if (s == STEERN_LINK_NOMEM) luaL_error(L, "%s: out of memory", fn);
    if (s == STEERN_LINK_FULL) luaL_error(L, "%s: the mesh has %d links already", fn, STEERN_LINKS_MAX);
    steerL_navmesh_recharge(L, nm_idx);
}

// After automatic links: the error, or the n links from index first, as a list.
static int push_added(lua_State *L, steerN_Mesh *m, steerN_LinkStatus s, const char *fn, uint32_t first, uint32_t n)
{
    added(L, 1, s, fn);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        push_link(L, m, first + i);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

// nm:add_link{ from, to, bidirectional = true, cost = 1, area, name } -> link
int steerL_navmesh_add_link(lua_State *L)
{
    static const char *const fields[] = { "from", "to", "bidirectional", "cost", "area", "name", "enabled", NULL };
    const char *fn = "steer.navmesh:add_link";
    steerN_Mesh *m = steerL_navmesh_check(L, 1);
    steerL_check_desc(L, 2, fn, fields);
    steerN_Link l = { 0 };
    lua_getfield(L, 2, "from");
    steerL_nav_vec(L, -1, fn, "from", l.a);
    lua_getfield(L, 2, "to");
    steerL_nav_vec(L, -1, fn, "to", l.b);
    lua_pop(L, 2);
    l.cost = (float)steerL_optnumber(L, 2, fn, "cost", 1, 0, 1e30, "a cost multiplier on the link's length");
    l.area = opt_area(L, 2, m, fn);
    l.bidirectional = opt_bool(L, 2, fn, "bidirectional", true);
    l.enabled = opt_bool(L, 2, fn, "enabled", true);
    opt_name(L, 2, fn, NULL, l.name);
    uint32_t at;
    steerN_LinkStatus s = steerN_link_add(m, &l, &at);
    if (s == STEERN_LINK_FROM_OFF || s == STEERN_LINK_TO_OFF) {
        const double *p = s == STEERN_LINK_FROM_OFF ? l.a : l.b;
        return luaL_error(L, "%s: field '%s' (%f, %f) is off the mesh (a link's ends lie on it)", fn,
                          s == STEERN_LINK_FROM_OFF ? "from" : "to", p[0], p[1]);
    }
    added(L, 1, s, fn);
    push_link(L, m, at);
    return 1;
}

// nm:add_jump_links{ reach, spacing = 1, inset = 0.5, cost = 1, area, bidirectional = true,
//                    same_island = false, name = "jump" } -> { link, ... }
int steerL_navmesh_add_jump_links(lua_State *L)
{
    static const char *const fields[] = { "reach", "spacing",       "inset",       "cost", "area",
                                          "name",  "bidirectional", "same_island", NULL };
    const char *fn = "steer.navmesh:add_jump_links";
    steerN_Mesh *m = steerL_navmesh_check(L, 1);
    steerL_check_desc(L, 2, fn, fields);
    lua_getfield(L, 2, "reach");
    double reach = steerL_checkrange(L, -1, fn, "reach", "the widest gap jumped, metres", 1e-3, 1e6);
    lua_pop(L, 1);
    char name[STEERN_LINK_NAME];
    steerN_JumpSpec js = {
        .reach = reach,
        .spacing = steerL_optnumber(L, 2, fn, "spacing", 1, 1e-2, 1e6, "metres between links along an edge"),
        .inset = steerL_optnumber(L, 2, fn, "inset", 0.5, 0, 1e6, "metres into the mesh from the edge"),
        .cost = (float)steerL_optnumber(L, 2, fn, "cost", 1, 0, 1e30, "a cost multiplier on each link's length"),
        .area = opt_area(L, 2, m, fn),
        .bidirectional = opt_bool(L, 2, fn, "bidirectional", true),
        .same_island = opt_bool(L, 2, fn, "same_island", false),
    };
    opt_name(L, 2, fn, "jump", name);
    js.name = name;
    uint32_t first = steerN_link_count(m), n = 0;
    steerN_LinkStatus s = steerN_link_add_jumps(m, &js, &n);
    return push_added(L, m, s, fn, first, n);
}

// nm:add_drop_links{ drop, min_drop = 1, reach = 1.5, spacing = 1, inset = 0.5, radius = 0.5, cost = 1,
//                    area, name = "drop" } -> { link, ... }
int steerL_navmesh_add_drop_links(lua_State *L)
{
    static const char *const fields[] = { "drop",   "min_drop", "reach", "spacing", "inset",
                                          "radius", "cost",     "area",  "name",    NULL };
    const char *fn = "steer.navmesh:add_drop_links";
    steerN_Mesh *m = steerL_navmesh_check(L, 1);
    steerL_check_desc(L, 2, fn, fields);
    lua_getfield(L, 2, "drop");
    double drop = steerL_checkrange(L, -1, fn, "drop", "the highest fall, metres", 1e-3, 1e6);
    lua_pop(L, 1);
    char name[STEERN_LINK_NAME];
    steerN_DropSpec ds = {
        .drop = drop,
        .min_drop = steerL_optnumber(L, 2, fn, "min_drop", 1, 1e-3, 1e6, "the lowest fall, metres"),
        .reach = steerL_optnumber(L, 2, fn, "reach", 1.5, 0.05, 1e3, "metres out from the ledge"),
        .spacing = steerL_optnumber(L, 2, fn, "spacing", 1, 1e-2, 1e6, "metres between links along an edge"),
        .inset = steerL_optnumber(L, 2, fn, "inset", 0.5, 0, 1e6, "metres into the ground from the edge"),
        .radius = steerL_optnumber(L, 2, fn, "radius", 0.5, 0, 1e3, "metres from the walls of each end's floor"),
        .cost = (float)steerL_optnumber(L, 2, fn, "cost", 1, 0, 1e30, "a cost multiplier on each link's length"),
        .area = opt_area(L, 2, m, fn),
    };
    if (!(ds.min_drop <= ds.drop))
        return luaL_error(L, "%s: field 'min_drop' (%f) is above field 'drop' (%f)", fn, ds.min_drop, ds.drop);
    if (!m->z)
        return luaL_error(L, "%s: the mesh has no heights (drops are found on a mesh baked from level geometry)", fn);
    opt_name(L, 2, fn, "drop", name);
    ds.name = name;
    uint32_t first = steerN_link_count(m), n = 0;
    steerN_LinkStatus s = steerN_link_add_drops(m, &ds, &n);
    return push_added(L, m, s, fn, first, n);
}

// nm:links() -> { link, ... } in the order added
int steerL_navmesh_links(lua_State *L)
{
    steerN_Mesh *m = steerL_navmesh_check(L, 1);
    uint32_t n = steerN_link_count(m);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        push_link(L, m, i);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

void steerL_push_path_links(lua_State *L, steerN_Mesh *m, const steerN_MeshQuery *q)
{
    uint32_t n;
    const int32_t *l = steerN_mesh_path_links(q, &n);
    lua_newtable(L);
    lua_Integer k = 0;
    for (uint32_t i = 0; l && i < n; i++) {
        if (l[i] < 0) continue;
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, (lua_Integer)i + 1);
        lua_setfield(L, -2, "at");
        push_link(L, m, (uint32_t)l[i]);
        lua_setfield(L, -2, "link");
        lua_rawseti(L, -2, ++k);
    }
}

// ---- the link object ------------------------------------------------------------------

static int link_index(lua_State *L)
{
    steerL_NavLink *u = check_link(L, 1);
    const steerN_Link *l = steerN_link_get(u->m, u->i);
    const char *k = lua_tostring(L, 2);
    if (!k || !l) return 0;
    if (strcmp(k, "enabled") == 0) lua_pushboolean(L, l->enabled);
    else if (strcmp(k, "from") == 0) steerL_pushvec(L, l->a[0], l->a[1], l->a[2]);
    else if (strcmp(k, "to") == 0) steerL_pushvec(L, l->b[0], l->b[1], l->b[2]);
    else if (strcmp(k, "bidirectional") == 0) lua_pushboolean(L, l->bidirectional);
    else if (strcmp(k, "cost") == 0) lua_pushnumber(L, l->cost);
    else if (strcmp(k, "area") == 0) lua_pushstring(L, u->m->area_name[l->area]);
    else if (strcmp(k, "name") == 0) {
        if (l->name[0]) lua_pushstring(L, l->name);
        else lua_pushnil(L);
    } else if (strcmp(k, "index") == 0) lua_pushinteger(L, (lua_Integer)u->i + 1);
    else return 0;
    return 1;
}

static int link_newindex(lua_State *L)
{
    const char *fn = "steer.navlink";
    steerL_NavLink *u = check_link(L, 1);
    const char *k = lua_tostring(L, 2);
    if (!k || strcmp(k, "enabled") != 0)
        return luaL_error(L, "%s: field '%s' cannot be set (only 'enabled' can)", fn, k ? k : "?");
    if (!lua_isboolean(L, 3)) steerL_field_error(L, fn, "enabled", "a boolean", 3);
    steerN_link_enable(u->m, u->i, lua_toboolean(L, 3));
    return 0;
}

static int link_gc(lua_State *L)
{
    steerL_NavLink *u = check_link(L, 1);
    steerN_mesh_release(u->m);
    u->m = NULL;
    return 0;
}

static int link_tostring(lua_State *L)
{
    steerL_NavLink *u = check_link(L, 1);
    const steerN_Link *l = steerN_link_get(u->m, u->i);
    lua_pushfstring(L, "steer.navlink(%d%s%s%s)", (int)u->i + 1, l && l->name[0] ? ", " : "", l ? l->name : "",
                    l && !l->enabled ? ", disabled" : "");
    return 1;
}

void steerL_open_navlink(lua_State *L)
{
    static const luaL_Reg meta[] = { { "__index", link_index },
                                     { "__newindex", link_newindex },
                                     { "__gc", link_gc },
                                     { "__tostring", link_tostring },
                                     { NULL, NULL } };
    luaL_newmetatable(L, STEERL_NAVLINK);
    luaL_setfuncs(L, meta, 0);
    lua_pop(L, 1);
}
