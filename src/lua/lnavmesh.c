// SPDX-License-Identifier: MIT
// lnavmesh.c — navigation meshes in Lua: steer.navmesh{...},
// steer.navmesh_load(bytes) and the mesh's queries (src/nav/mesh.h).
//
// A mesh userdata holds one reference to its C mesh and one query scratch
// (the A* lists a path needs); the mesh's C memory counts against a mod's
// memory cap (steerL_charge) from its build to its __gc. Every query takes
// the agent's radius: one mesh serves every size.
#include "lnav.h"
#include "lsnapshot.h"
#include "../core/bytes.h"
#include "../core/rng.h"
#include "../behaviors/exports.h"
#include "../nav/mesh.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define REG_MESHES STEERL_REG_MESHES
#define MAX_POINTS 4000000 // points of all rings together

static steerL_NavMesh *check_mesh(lua_State *L, int idx)
{
    steerL_NavMesh *u = luaL_checkudata(L, idx, STEERL_NAVMESH);
    if (!u->m) luaL_argerror(L, idx, "a collected navigation mesh");
    return u;
}

steerN_Mesh *steerL_navmesh_check(lua_State *L, int idx) { return check_mesh(L, idx)->m; }

void steerL_navmesh_recharge(lua_State *L, int idx)
{
    steerL_NavMesh *u = check_mesh(L, idx);
    steerL_nav_charge(L, &u->charged, steerN_mesh_bytes(u->m));
}

// ---- the rings of steer.navmesh{...} ------------------------------------------

// The rings read so far: ring k (1-based) is list[k], its role roles[k]
// and the path of its field for messages wheres[k] (three Lua tables on
// the stack, kept until the build ends).
typedef struct Rings {
    int list, roles, wheres; // stack indices
    uint32_t n, npoints;
} Rings;

static void add_ring(lua_State *L, Rings *r, int idx, int32_t role, const char *fn, const char *where)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) steerL_field_error(L, fn, where, "a ring: a list of at least 3 points", idx);
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    if (n < 3) luaL_error(L, "%s: field '%s' expected a ring of at least 3 points, got %d", fn, where, (int)n);
    if ((lua_Integer)r->npoints + n > MAX_POINTS) luaL_error(L, "%s: more than %d points in all rings", fn, MAX_POINTS);
    r->n++;
    lua_pushvalue(L, idx);
    lua_rawseti(L, r->list, (lua_Integer)r->n);
    lua_pushinteger(L, role);
    lua_rawseti(L, r->roles, (lua_Integer)r->n);
    lua_pushstring(L, where);
    lua_rawseti(L, r->wheres, (lua_Integer)r->n);
    r->npoints += (uint32_t)n;
}

// Ring k's field path (0-based k), pushed.
static const char *ring_where(lua_State *L, const Rings *r, uint32_t k)
{
    lua_rawgeti(L, r->wheres, (lua_Integer)k + 1);
    return lua_tostring(L, -1);
}

// Whether the table at idx is a point (a vector) rather than a list of them.
static bool is_point(lua_State *L, int idx)
{
    double p[3];
    return steerL_tovec(L, idx, p) != 0;
}

// outline: one ring, or a list of rings.
static void read_outline(lua_State *L, Rings *r, int idx, const char *fn)
{
    if (!lua_istable(L, idx)) steerL_field_error(L, fn, "outline", "a ring of points or a list of rings", idx);
    lua_rawgeti(L, idx, 1);
    bool one = is_point(L, -1);
    lua_pop(L, 1);
    if (one) {
        add_ring(L, r, idx, STEERN_RING_OUTLINE, fn, "outline");
        return;
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    if (n < 1) steerL_field_error(L, fn, "outline", "a ring of points or a non-empty list of rings", idx);
    for (lua_Integer i = 1; i <= n; i++) {
        char where[48];
        snprintf(where, sizeof where, "outline[%d]", (int)i);
        lua_rawgeti(L, idx, i);
        add_ring(L, r, -1, STEERN_RING_OUTLINE, fn, where);
        lua_pop(L, 1);
    }
}

// The area named at idx (a string), registered in order of first use.
static int32_t area_id(lua_State *L, int idx, const char *fn, const char *where, char names[][STEERN_MESH_AREA_NAME],
                       uint32_t *nareas)
{
    size_t len;
    const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tolstring(L, idx, &len) : NULL;
    if (!s || len == 0 || len >= STEERN_MESH_AREA_NAME || strlen(s) != len)
        steerL_field_error(L, fn, where, "an area name (a string of 1 to 31 bytes)", idx);
    for (uint32_t i = 0; i < *nareas; i++)
        if (strcmp(names[i], s) == 0) return (int32_t)i;
    if (*nareas == STEERN_MESH_AREAS)
        luaL_error(L, "%s: field '%s': more than %d area names", fn, where, STEERN_MESH_AREAS - 1);
    memcpy(names[*nareas], s, len + 1);
    return (int32_t)(*nareas)++;
}

// The table of area name -> cost multiplier at t (nil: nothing) into cost,
// the names those of the nareas areas given; an unknown name raises
// naming it, with `which` saying where the areas are listed.
static void read_costs(lua_State *L, int t, const char *fn, const char (*names)[STEERN_MESH_AREA_NAME], uint32_t nareas,
                       const char *which, float cost[STEERN_MESH_AREAS])
{
    if (lua_isnil(L, t)) return;
    if (!lua_istable(L, t)) steerL_field_error(L, fn, "costs", "a table of area name -> cost multiplier", t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "%s: field 'costs' expected area names as keys, got a %s key", fn, luaL_typename(L, -2));
        const char *name = lua_tostring(L, -2);
        int32_t id = -1;
        for (uint32_t i = 0; i < nareas && id < 0; i++)
            if (strcmp(names[i], name) == 0) id = (int32_t)i;
        if (id < 0) luaL_error(L, "%s: field 'costs.%s': no area of that name (%s)", fn, name, which);
        char where[64];
        snprintf(where, sizeof where, "costs.%s", name);
        cost[id] =
            (float)steerL_checkrange(L, -1, fn, where, "a cost multiplier (math.huge: never entered)", 1e-3, INFINITY);
        lua_pop(L, 1);
    }
}

// The list of area names at t (nil: nothing): each one excluded (cost
// INFINITY); an unknown one raises naming its place and `expect`.
static void read_exclude(lua_State *L, int t, const char *fn, const steerN_Mesh *m, const char *expect,
                         float cost[STEERN_MESH_AREAS])
{
    if (lua_isnil(L, t)) return;
    if (!lua_istable(L, t)) steerL_field_error(L, fn, "exclude", "a list of area names", t);
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, t, i);
        const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        int a = name ? steerN_mesh_area(m, name) : -1;
        if (a < 0) {
            char where[32];
            snprintf(where, sizeof where, "exclude[%d]", (int)i);
            steerL_field_error(L, fn, where, expect, -1);
        }
        cost[a] = INFINITY;
        lua_pop(L, 1);
    }
}

// ---- construction ------------------------------------------------------------

static const char *status_text(steerN_MeshStatus s)
{
    switch (s) {
    case STEERN_MESH_OK: return "ok";
    case STEERN_MESH_NOMEM: return "out of memory";
    case STEERN_MESH_BADPOINT: return "a bad point";
    case STEERN_MESH_BADRING: return "a bad ring";
    case STEERN_MESH_BADAREA: return "a bad area";
    case STEERN_MESH_EMPTY: return "nothing walkable";
    case STEERN_MESH_INTERNAL: return "an internal error";
    case STEERN_MESH_BADBAKE: return "the bake failed";
    }
    return "?";
}

// A new mesh userdata on top holding m (one reference, taken over), prepared.
void steerL_navmesh_push(lua_State *L, steerN_Mesh *m, const char *fn)
{
    steerL_NavMesh *u = lua_newuserdatauv(L, sizeof *u, 0);
    memset(u, 0, sizeof *u);
    u->m = m;
    u->alloc = m->alloc;
    luaL_setmetatable(L, STEERL_NAVMESH);
    if (steerN_mesh_prepare(m) || !(u->q = steerN_mesh_query_new(&u->alloc))) luaL_error(L, "%s: out of memory", fn);
    m->hash = steerN_mesh_hash(m);
    m->serial = steerL_nav_serial(L);
    steerL_nav_charge(L, &u->charged, steerN_mesh_bytes(m));
    if (lua_getfield(L, LUA_REGISTRYINDEX, REG_MESHES) == LUA_TTABLE) {
        lua_pushvalue(L, -2);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
}

static int navmesh_new(lua_State *L)
{
    static const char *const fields[] = { "outline", "obstacles", "areas", "costs", "grid", "vertices", "triangles",
                                          "agent",   "obj",       "up",    "cell",  "tile", NULL };
    const char *fn = "steer.navmesh";
    steerL_check_desc(L, 1, fn, fields);
    lua_settop(L, 1);
    static const char *const baked[] = { "vertices", "triangles", "obj", "agent", "up", "cell", "tile" };
    for (size_t i = 0; i < sizeof baked / sizeof *baked; i++) {
        bool given = lua_getfield(L, 1, baked[i]) != LUA_TNIL;
        lua_pop(L, 1);
        if (given) return steerL_navmesh_bake(L, fn); // lnavbake.c
    }
    steerN_Alloc alloc = steerL_allocator(L);
    steerN_MeshError err;
    steerN_Mesh *m;
    if (lua_getfield(L, 1, "grid") != LUA_TNIL) {
        if (!steerL_isgrid(L, 2)) steerL_field_error(L, fn, "grid", "a steer.grid", 2);
        for (const char *const *f = fields; f < fields + 4; f++) {
            bool given = lua_getfield(L, 1, *f) != LUA_TNIL;
            lua_pop(L, 1);
            if (given) return luaL_error(L, "%s: field '%s' cannot go with 'grid' (the grid gives the level)", fn, *f);
        }
        m = steerN_mesh_from_grid(steerL_checkgrid(L, 2)->g, &alloc, &err);
        if (!m)
            return luaL_error(L, "%s: field 'grid': %s", fn, err.message[0] ? err.message : status_text(err.status));
        steerL_navmesh_push(L, m, fn);
        return 1;
    }
    lua_pop(L, 1);

    lua_newtable(L); // 2, 3, 4: the rings' tables, roles and field paths, kept for the build
    lua_newtable(L);
    lua_newtable(L);
    Rings r = { .list = 2, .roles = 3, .wheres = 4 };
    char names[STEERN_MESH_AREAS][STEERN_MESH_AREA_NAME] = { "default" };
    uint32_t nareas = 1;
    if (lua_getfield(L, 1, "outline") == LUA_TNIL)
        return luaL_error(L,
                          "%s: field 'outline' expected a ring of points or a list of rings (the walkable ground), "
                          "got nil",
                          fn);
    read_outline(L, &r, 5, fn);
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "obstacles") != LUA_TNIL) {
        if (!lua_istable(L, 5)) steerL_field_error(L, fn, "obstacles", "a list of rings", 5);
        lua_Integer n = (lua_Integer)lua_rawlen(L, 5);
        for (lua_Integer i = 1; i <= n; i++) {
            char where[48];
            snprintf(where, sizeof where, "obstacles[%d]", (int)i);
            lua_rawgeti(L, 5, i);
            add_ring(L, &r, -1, STEERN_RING_OBSTACLE, fn, where);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "areas") != LUA_TNIL) {
        if (!lua_istable(L, 5)) steerL_field_error(L, fn, "areas", "a list of { polygon = ring, area = name }", 5);
        lua_Integer n = (lua_Integer)lua_rawlen(L, 5);
        for (lua_Integer i = 1; i <= n; i++) {
            char where[48];
            snprintf(where, sizeof where, "areas[%d]", (int)i);
            if (lua_rawgeti(L, 5, i) != LUA_TTABLE)
                steerL_field_error(L, fn, where, "a table { polygon = ring, area = name }", -1);
            snprintf(where, sizeof where, "areas[%d].area", (int)i);
            lua_getfield(L, -1, "area");
            int32_t id = area_id(L, -1, fn, where, names, &nareas);
            lua_pop(L, 1);
            snprintf(where, sizeof where, "areas[%d].polygon", (int)i);
            lua_getfield(L, -1, "polygon");
            add_ring(L, &r, -1, id, fn, where);
            lua_pop(L, 2);
        }
    }
    lua_pop(L, 1);
    float costs[STEERN_MESH_AREAS];
    for (int i = 0; i < STEERN_MESH_AREAS; i++) costs[i] = 1.0f;
    lua_getfield(L, 1, "costs");
    read_costs(L, 5, fn, (const char(*)[STEERN_MESH_AREA_NAME])names, nareas,
               "the areas are 'default' and those 'areas' names", costs);
    lua_pop(L, 1);

    // the points, in ring order
    double *xy = lua_newuserdatauv(L, sizeof *xy * 2 * (r.npoints ? r.npoints : 1), 0);
    uint32_t *ring_end = lua_newuserdatauv(L, sizeof *ring_end * (r.n ? r.n : 1), 0);
    uint32_t at = 0;
    size_t work = 0;
    for (uint32_t k = 0; k < r.n; k++) {
        lua_rawgeti(L, r.list, (lua_Integer)k + 1);
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        steerL_poll(L, &work, (size_t)n);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            double p[3];
            if (!steerL_tovec(L, -1, p)) {
                char where[64];
                snprintf(where, sizeof where, "%s[%d]", ring_where(L, &r, k), (int)i);
                steerL_field_error(L, fn, where, "a point (steer.vec or {x, y}) with finite coordinates", -1);
            }
            lua_pop(L, 1);
            xy[2 * at] = p[0];
            xy[2 * at + 1] = p[1];
            at++;
        }
        lua_pop(L, 1);
        ring_end[k] = at;
    }
    int32_t *role = lua_newuserdatauv(L, sizeof *role * (r.n ? r.n : 1), 0);
    for (uint32_t k = 0; k < r.n; k++) {
        lua_rawgeti(L, r.roles, (lua_Integer)k + 1);
        role[k] = (int32_t)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    const char *name_ptrs[STEERN_MESH_AREAS];
    for (uint32_t i = 0; i < nareas; i++) name_ptrs[i] = names[i];
    steerN_MeshSpec spec = { .xy = xy,
                             .ring_end = ring_end,
                             .ring_role = role,
                             .nrings = r.n,
                             .nareas = nareas,
                             .area_names = name_ptrs,
                             .area_costs = costs };
    m = steerN_mesh_build(&spec, &alloc, &err);
    if (!m) {
        if (err.status == STEERN_MESH_BADPOINT || err.status == STEERN_MESH_BADRING)
            return luaL_error(L, "%s: field '%s' point %d: %s", fn, ring_where(L, &r, err.ring < r.n ? err.ring : 0),
                              (int)err.point + 1, err.message[0] ? err.message : status_text(err.status));
        if (err.status == STEERN_MESH_EMPTY)
            return luaL_error(L,
                              "%s: nothing is walkable: the obstacles cover the whole outline, or the outline "
                              "encloses no area",
                              fn);
        return luaL_error(L, "%s: %s", fn, err.message[0] ? err.message : status_text(err.status));
    }
    steerL_navmesh_push(L, m, fn);
    return 1;
}

static int navmesh_load(lua_State *L)
{
    const char *fn = "steer.navmesh_load";
    size_t n;
    const char *s = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &n) : NULL;
    if (!s) {
        char buf[64];
        return luaL_error(L, "%s: expected the bytes nm:save() gave (a string), got %s", fn,
                          steerL_describe(L, 1, buf, sizeof buf));
    }
    char msg[200] = "";
    steerS_Reader r;
    steerS_reader_init(&r, s, n, msg, sizeof msg);
    r.section = "navigation mesh";
    steerN_Alloc alloc = steerL_allocator(L);
    bool oom;
    steerN_Mesh *m = steerN_mesh_decode(&r, &alloc, &oom);
    if (m && steerS_left(&r)) {
        steerN_mesh_free(m);
        return luaL_error(L, "%s: %d bytes past the end of the mesh", fn, (int)steerS_left(&r));
    }
    if (!m) return luaL_error(L, "%s: %s", fn, oom ? "out of memory" : msg[0] ? msg : "not a navigation mesh");
    steerL_navmesh_push(L, m, fn);
    return 1;
}

// ---- queries ----------------------------------------------------------------

static double opt_radius(lua_State *L, int idx, const char *fn, const char *arg)
{
    if (lua_isnoneornil(L, idx)) return 0;
    return steerL_checkrange(L, idx, fn, arg, "a radius in metres", 0, STEERN_RADIUS_MAX);
}

uint32_t steerL_navmesh_layer(lua_State *L, int idx, const steerN_Mesh *m, const char *fn, const char *name,
                              uint32_t def)
{
    if (lua_isnoneornil(L, idx)) return def;
    lua_getfield(L, idx, name);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return def;
    }
    int ok;
    lua_Integer k = lua_tointegerx(L, -1, &ok);
    if (!ok || k < 1 || k > (lua_Integer)m->nlayers) {
        char expect[64];
        snprintf(expect, sizeof expect, "a layer of the mesh (an integer from 1 to %u)", m->nlayers);
        steerL_field_error(L, fn, name, expect, lua_gettop(L));
    }
    lua_pop(L, 1);
    return (uint32_t)k;
}

// Which ground points a and b (x, y, z) mean on m (mesh_layers.c): on a
// mesh with heights, the ground under each nearest below its z, unless the
// options at idx name a layer (`layer` for a, `to_layer` for b, which
// defaults to `layer`).
static void read_floors(lua_State *L, int idx, const steerN_Mesh *m, const char *fn, const double a[3],
                        const double b[3], steerN_Floor fl[2])
{
    uint32_t la = steerL_navmesh_layer(L, idx, m, fn, "layer", 0),
             lb = steerL_navmesh_layer(L, idx, m, fn, "to_layer", la);
    fl[0] = (steerN_Floor){ .layer = la, .has_z = !la, .z = a[2] };
    fl[1] = (steerN_Floor){ .layer = lb, .has_z = !lb, .z = b ? b[2] : 0 };
}

// The filter of an options table at idx (nil: radius 0, the mesh's costs):
// { radius, exclude = { names }, costs = { name = multiplier } } (and, for
// nm:path, `layer` and `to_layer`: read_floors).
enum { PLAIN_FIELDS, RAY_FIELDS, PATH_FIELDS };
static void read_filter(lua_State *L, int idx, const steerN_Mesh *m, const char *fn, steerN_MeshFilter *f,
                        float cost[STEERN_MESH_AREAS], int which)
{
    static const char *const path_fields[] = { "radius", "exclude", "costs", "layer", "to_layer", NULL };
    static const char *const ray_fields[] = { "radius", "exclude", "costs", "layer", NULL };
    memcpy(cost, m->area_cost, sizeof(float) * STEERN_MESH_AREAS);
    *f = (steerN_MeshFilter){ .cost = cost };
    if (lua_isnoneornil(L, idx)) return;
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) steerL_field_error(L, fn, "options", "a table { radius, exclude, costs }", idx);
    steerL_check_fields(L, idx, fn, which == PATH_FIELDS ? path_fields : ray_fields, 0);
    f->radius = steerL_optnumber(L, idx, fn, "radius", 0, 0, STEERN_RADIUS_MAX, "a radius in metres");
    lua_getfield(L, idx, "costs");
    read_costs(L, lua_gettop(L), fn, (const char(*)[STEERN_MESH_AREA_NAME])m->area_name, m->nareas,
               "nm.areas lists the mesh's", cost);
    lua_pop(L, 1);
    lua_getfield(L, idx, "exclude");
    read_exclude(L, lua_gettop(L), fn, m, "the name of one of the mesh's areas", cost);
    lua_pop(L, 1);
}

// steer.navigate{ navmesh = nm, costs = {...}, exclude = {...} }: read as
// nm:path reads them (the mesh's costs, those given instead, the excluded
// at INFINITY), kept as the node's area costs.
void steerL_navigate_costs(lua_State *L, const char *fn, steer_Behavior *b, const char *field)
{
    int top = lua_gettop(L);
    lua_getfield(L, 1, "costs");
    lua_getfield(L, 1, "exclude");
    if (lua_isnil(L, top + 1) && lua_isnil(L, top + 2)) {
        lua_settop(L, top);
        return;
    }
    lua_getfield(L, 1, "navmesh"); // checked already: the kind's first field
    const steerN_Mesh *m = check_mesh(L, top + 3)->m;
    // the names, for the message of an unknown one
    luaL_Buffer names;
    luaL_buffinit(L, &names);
    luaL_addstring(&names, "the navmesh's areas are ");
    for (uint32_t i = 0; i < m->nareas; i++) {
        luaL_addstring(&names, i ? ", '" : "'");
        luaL_addstring(&names, m->area_name[i]);
        luaL_addchar(&names, '\'');
    }
    luaL_pushresult(&names); // top + 4
    const char *which = lua_tostring(L, top + 4);
    float cost[STEERN_MESH_AREAS];
    memcpy(cost, m->area_cost, sizeof cost);
    read_costs(L, top + 1, fn, (const char(*)[STEERN_MESH_AREA_NAME])m->area_name, m->nareas, which, cost);
    lua_pushfstring(L, "the name of one of the navmesh's areas (%s)", which + strlen("the navmesh's areas are "));
    read_exclude(L, top + 2, fn, m, lua_tostring(L, -1), cost);
    steerN_AreaCosts *c = steerN_costs_new(cost, m->nareas);
    if (!c) luaL_error(L, "%s: out of memory", fn);
    int st = steerB_set_resource(b, field, &steerB_navcosts_resource, c);
    steerN_costs_release(c);
    if (st) luaL_error(L, "%s: %s", fn, steer_behavior_error(b));
    lua_settop(L, top);
}

static void push_points(lua_State *L, const double *p, const double *z, uint32_t n)
{
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        steerL_pushvec(L, p[2 * i], p[2 * i + 1], z ? z[i] : 0);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
}

static const char *path_reason(steerN_PathStatus s)
{
    switch (s) {
    case STEERN_PATH_START_OFF: return "start off the mesh";
    case STEERN_PATH_GOAL_OFF: return "target off the mesh";
    case STEERN_PATH_NARROW: return "no way wide enough";
    case STEERN_PATH_NONE: return "no way";
    default: return "no way";
    }
}

// nm:path(from, to [, opts]) -> points, length, links | nil, reason
static int mesh_path(lua_State *L)
{
    const char *fn = "steer.navmesh:path";
    steerL_NavMesh *u = check_mesh(L, 1);
    double a[3], b[3];
    steerL_nav_vec(L, 2, fn, "from", a);
    steerL_nav_vec(L, 3, fn, "to", b);
    steerN_MeshFilter f;
    float cost[STEERN_MESH_AREAS];
    read_filter(L, 4, u->m, fn, &f, cost, PATH_FIELDS);
    steerN_Floor fl[2];
    read_floors(L, 4, u->m, fn, a, b, fl);
    f.from = fl, f.to = fl + 1;
    steerN_PathStatus s = steerN_mesh_path(u->q, u->m, a, b, &f);
    if (s == STEERN_PATH_NOMEM) return luaL_error(L, "%s: out of memory", fn);
    if (s != STEERN_PATH_FOUND) {
        lua_pushnil(L);
        lua_pushstring(L, path_reason(s));
        return 2;
    }
    uint32_t n;
    const double *p = steerN_mesh_path_points(u->q, &n);
    double *z = NULL;
    if (u->m->z) { // heights on the ground under each point
        z = lua_newuserdatauv(L, sizeof *z * (n ? n : 1), 0);
        steerN_mesh_path_heights(u->q, u->m, z);
    }
    push_points(L, p, z, n);
    if (z) lua_remove(L, -2);
    lua_pushnumber(L, steerN_mesh_path_length(u->q));
    steerL_push_path_links(L, u->m, u->q);
    return 3;
}

// The radius and floor of a query at p: arg idx a radius, or a table
// { radius, layer } (with_radius: else { layer } only); the floor is that
// layer, or the ground under p nearest below its z (read_floors).
static double opt_floor(lua_State *L, int idx, const steerN_Mesh *m, const char *fn, const double p[3],
                        bool with_radius, steerN_Floor *fl)
{
    static const char *const fields[] = { "radius", "layer", NULL };
    double r = 0;
    steerN_Floor two[2];
    if (lua_istable(L, idx)) {
        steerL_check_fields(L, idx, fn, fields + !with_radius, 0);
        if (with_radius) r = steerL_optnumber(L, idx, fn, "radius", 0, 0, STEERN_RADIUS_MAX, "a radius in metres");
        read_floors(L, idx, m, fn, p, NULL, two);
    } else {
        if (with_radius) r = opt_radius(L, idx, fn, "radius");
        else if (!lua_isnoneornil(L, idx)) steerL_field_error(L, fn, "options", "a table { layer }", idx);
        read_floors(L, lua_gettop(L) + 1, m, fn, p, NULL, two); // (none: by p's z)
    }
    *fl = two[0];
    return r;
}

// Push point xy at the height of triangle t's ground there (0 off the mesh).
static void push_on(lua_State *L, const steerN_Mesh *m, const double xy[2], int32_t t)
{
    steerL_pushvec(L, xy[0], xy[1], t >= 0 ? steerN_mesh_surface(m, (uint32_t)t, xy) : 0);
}

// nm:nearest(p [, radius | { radius, layer }]) -> point, distance
static int mesh_nearest(lua_State *L)
{
    const char *fn = "steer.navmesh:nearest";
    steerL_NavMesh *u = check_mesh(L, 1);
    double p[3], out[2], d;
    int32_t t;
    steerN_Floor fl;
    steerL_nav_vec(L, 2, fn, "point", p);
    double r = opt_floor(L, 3, u->m, fn, p, true, &fl);
    if (!steerN_mesh_nearest_on(u->m, p, &fl, r, out, &t, &d)) return 0;
    push_on(L, u->m, out, t);
    lua_pushnumber(L, d);
    return 2;
}

// nm:height(p [, { layer = k }]) -> z, layer | nil: the ground under p
static int mesh_height(lua_State *L)
{
    const char *fn = "steer.navmesh:height";
    steerL_NavMesh *u = check_mesh(L, 1);
    double p[3], z;
    uint32_t layer;
    steerL_nav_vec(L, 2, fn, "point", p);
    if (!lua_isnoneornil(L, 3)) {
        static const char *const fields[] = { "layer", NULL };
        if (!lua_istable(L, 3)) steerL_field_error(L, fn, "options", "a table { layer }", 3);
        steerL_check_fields(L, 3, fn, fields, 0);
    }
    steerN_Floor fl[2];
    read_floors(L, 3, u->m, fn, p, NULL, fl);
    if (steerN_mesh_locate_on(u->m, p, fl) < 0 || !steerN_mesh_height(u->m, p, fl, &z, &layer)) return 0;
    lua_pushnumber(L, z);
    lua_pushinteger(L, (lua_Integer)layer + 1);
    return 2;
}

// nm:raycast(from, to [, opts]) -> nil | point, normal, fraction
static int mesh_raycast(lua_State *L)
{
    const char *fn = "steer.navmesh:raycast";
    steerL_NavMesh *u = check_mesh(L, 1);
    double a[3], b[3], hit[2], normal[2], frac;
    steerL_nav_vec(L, 2, fn, "from", a);
    steerL_nav_vec(L, 3, fn, "to", b);
    steerN_MeshFilter f;
    float cost[STEERN_MESH_AREAS];
    read_filter(L, 4, u->m, fn, &f, cost, RAY_FIELDS);
    steerN_Floor fl[2];
    read_floors(L, 4, u->m, fn, a, NULL, fl);
    f.from = fl;
    int r = steerN_mesh_raycast(u->m, a, b, &f, hit, normal, &frac);
    if (r < 0) return luaL_error(L, "%s: argument 'from' (%f, %f) is off the mesh", fn, a[0], a[1]);
    if (r == 0) return 0;
    double z = 0;
    steerN_mesh_height(u->m, hit, fl, &z, NULL);
    steerL_pushvec(L, hit[0], hit[1], z);
    steerL_pushvec(L, normal[0], normal[1], 0);
    lua_pushnumber(L, frac);
    return 3;
}

// nm:move_along(from, to [, radius | { radius, layer }]) -> point
static int mesh_move_along(lua_State *L)
{
    const char *fn = "steer.navmesh:move_along";
    steerL_NavMesh *u = check_mesh(L, 1);
    double a[3], b[3], out[2];
    steerN_Floor fl;
    steerL_nav_vec(L, 2, fn, "from", a);
    steerL_nav_vec(L, 3, fn, "to", b);
    double r = opt_floor(L, 4, u->m, fn, a, true, &fl);
    push_on(L, u->m, out, steerN_mesh_move_along_on(u->m, a, &fl, b, r, out));
    return 1;
}

// nm:distance_to_wall(p [, { layer }]) -> d
static int mesh_distance_to_wall(lua_State *L)
{
    const char *fn = "steer.navmesh:distance_to_wall";
    steerL_NavMesh *u = check_mesh(L, 1);
    double p[3];
    steerN_Floor fl;
    steerL_nav_vec(L, 2, fn, "point", p);
    opt_floor(L, 3, u->m, fn, p, false, &fl);
    lua_pushnumber(L, steerN_mesh_wall_distance_on(u->m, p, &fl, NULL, NULL));
    return 1;
}

// nm:contains(p [, radius | { radius, layer }]) -> boolean
static int mesh_contains(lua_State *L)
{
    const char *fn = "steer.navmesh:contains";
    steerL_NavMesh *u = check_mesh(L, 1);
    double p[3];
    steerN_Floor fl;
    steerL_nav_vec(L, 2, fn, "point", p);
    double r = opt_floor(L, 3, u->m, fn, p, true, &fl);
    lua_pushboolean(L, steerN_mesh_contains_on(u->m, p, &fl, r));
    return 1;
}

// One draw of a steer.random stream (lua/steer/random.lua's float: the
// same xorshift32 step and 24-bit draw), its state advanced in the table.
static double stream_float(lua_State *L, int t, const char *fn)
{
    lua_getfield(L, t, "state");
    lua_Integer s = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    if (s <= 0 || s > 0xFFFFFFFF)
        luaL_error(L,
                   "%s: argument 'stream' expected a steer.random stream (random.new(seed)), got a table without "
                   "its integer state",
                   fn);
    uint32_t x = (uint32_t)s;
    steer_rng32(&x);
    lua_pushinteger(L, (lua_Integer)x);
    lua_setfield(L, t, "state");
    return (double)(x >> 8) / 16777216.0;
}

// nm:random_point(stream) -> point
static int mesh_random_point(lua_State *L)
{
    const char *fn = "steer.navmesh:random_point";
    steerL_NavMesh *u = check_mesh(L, 1);
    if (!lua_istable(L, 2)) steerL_field_error(L, fn, "stream", "a steer.random stream (random.new(seed))", 2);
    double a = stream_float(L, 2, fn), b = stream_float(L, 2, fn), c = stream_float(L, 2, fn), out[2] = { 0, 0 };
    push_on(L, u->m, out, u->m->ntri ? (int32_t)steerN_mesh_random_point(u->m, a, b, c, out) : -1);
    return 1;
}

// nm:save() -> bytes
static int mesh_save(lua_State *L)
{
    steerL_NavMesh *u = check_mesh(L, 1);
    steerS_Writer w;
    steerS_writer_init(&w, NULL, NULL);
    steerN_mesh_encode(u->m, &w);
    if (w.failed) {
        steerS_writer_free(&w);
        return luaL_error(L, "steer.navmesh:save: out of memory");
    }
    lua_pushlstring(L, (const char *)w.p, w.n);
    steerS_writer_free(&w);
    return 1;
}

// The triangles, the slots an obstacle's rebuild left empty not counted.
static uint32_t live_triangles(const steerN_Mesh *m)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < m->ntri; t++) n += !steerN_mesh_dead(m, t);
    return n;
}

// nm:triangles() -> { { a, b, c, area = name }, ... }: for drawing
static int mesh_triangles(lua_State *L)
{
    const steerN_Mesh *m = check_mesh(L, 1)->m;
    lua_createtable(L, (int)m->ntri, 0);
    lua_Integer k = 0;
    for (uint32_t t = 0; t < m->ntri; t++) {
        if (steerN_mesh_dead(m, t)) continue; // (a slot an obstacle's rebuild left empty)
        lua_createtable(L, 3, 1);
        for (int i = 0; i < 3; i++) {
            uint32_t v = m->tri[3 * (size_t)t + (size_t)i];
            steerL_pushvec(L, m->xy[2 * v], m->xy[2 * v + 1], m->z ? m->z[v] : 0);
            lua_rawseti(L, -2, i + 1);
        }
        lua_pushstring(L, m->area_name[m->area[t]]);
        lua_setfield(L, -2, "area");
        lua_pushinteger(L, m->layer ? m->layer[t] + 1 : 1);
        lua_setfield(L, -2, "layer");
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

// nm:walls() -> { { a, b }, ... }: the boundary's edges
static int mesh_walls(lua_State *L)
{
    const steerN_Mesh *m = check_mesh(L, 1)->m;
    lua_newtable(L);
    lua_Integer k = 0;
    for (uint32_t t = 0; t < m->ntri; t++)
        for (int i = 0; i < 3 && !steerN_mesh_dead(m, t); i++) {
            if (m->adj[3 * (size_t)t + (size_t)i] >= 0) continue;
            lua_createtable(L, 2, 0);
            for (int e = 0; e < 2; e++) {
                uint32_t v = m->tri[3 * (size_t)t + (size_t)((i + e) % 3)];
                steerL_pushvec(L, m->xy[2 * v], m->xy[2 * v + 1], m->z ? m->z[v] : 0);
                lua_rawseti(L, -2, e + 1);
            }
            lua_rawseti(L, -2, ++k);
        }
    return 1;
}

static int mesh_index(lua_State *L)
{
    const steerN_Mesh *m = check_mesh(L, 1)->m;
    const char *k = lua_tostring(L, 2);
    if (!k) return 0;
    if (strcmp(k, "triangle_count") == 0) lua_pushinteger(L, (lua_Integer)live_triangles(m));
    else if (strcmp(k, "vertex_count") == 0) lua_pushinteger(L, (lua_Integer)m->nvert);
    else if (strcmp(k, "layer_count") == 0) lua_pushinteger(L, (lua_Integer)m->nlayers);
    else if (strcmp(k, "area") == 0) lua_pushnumber(L, m->ntri ? steerN_mesh_areas(m)[m->ntri - 1] : 0.0);
    else if (strcmp(k, "hash") == 0) {
        char buf[17];
        snprintf(buf, sizeof buf, "%016llx", (unsigned long long)steerN_mesh_hash_known(m));
        lua_pushstring(L, buf);
    } else if (strcmp(k, "areas") == 0) {
        lua_createtable(L, 0, (int)m->nareas);
        for (uint32_t i = 0; i < m->nareas; i++) {
            lua_pushnumber(L, m->area_cost[i]);
            lua_setfield(L, -2, m->area_name[i]);
        }
    } else {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int mesh_gc(lua_State *L)
{
    steerL_NavMesh *u = luaL_checkudata(L, 1, STEERL_NAVMESH);
    steerN_mesh_query_free(u->q);
    u->q = NULL;
    steerN_mesh_release(u->m);
    u->m = NULL;
    steerL_nav_charge(L, &u->charged, 0);
    return 0;
}

static int mesh_tostring(lua_State *L)
{
    const steerN_Mesh *m = check_mesh(L, 1)->m;
    lua_pushfstring(L, "steer.navmesh(%d triangles, %d areas)", (int)m->ntri, (int)m->nareas);
    return 1;
}

// ---- w:add_navmesh -------------------------------------------------------------

// The viewer's list of lw's meshes (steer_lua_nav) as the C world lists
// them (steerB_world_navmesh): after an add, and for a world a snapshot
// made (whose meshes came with it). False when out of memory.
bool steerL_nav_list_meshes(steerL_World *lw)
{
    steerN_Layers *nav = &lw->nav;
    nav->nmeshes = 0;
    for (const steerN_Mesh *m; (m = steerB_world_navmesh(lw->w, nav->nmeshes));) {
        const steerN_Mesh **ms =
            steerL_nav_room(&lw->alloc, (void *)nav->meshes, nav->nmeshes, &nav->cap_meshes, sizeof *ms);
        if (!ms) return false;
        nav->meshes = ms;
        ms[nav->nmeshes++] = m;
    }
    return true;
}

void steerL_open_navmesh(lua_State *L)
{
    lua_newtable(L); // REG_MESHES
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_MESHES);
    static const luaL_Reg meta[] = { { "__gc", mesh_gc }, { "__tostring", mesh_tostring }, { NULL, NULL } };
    static const luaL_Reg methods[] = {
        { "path", mesh_path },
        { "nearest", mesh_nearest },
        { "height", mesh_height },
        { "raycast", mesh_raycast },
        { "move_along", mesh_move_along },
        { "distance_to_wall", mesh_distance_to_wall },
        { "contains", mesh_contains },
        { "random_point", mesh_random_point },
        { "save", mesh_save },
        { "triangles", mesh_triangles },
        { "walls", mesh_walls },
        { "add_obstacle", steerL_navmesh_add_obstacle }, // lnavobst.c
        { "obstacles", steerL_navmesh_obstacles },
        { "add_link", steerL_navmesh_add_link },
        { "add_jump_links", steerL_navmesh_add_jump_links },
        { "add_drop_links", steerL_navmesh_add_drop_links },
        { "links", steerL_navmesh_links },
        { NULL, NULL },
    };
    steerL_newclass(L, STEERL_NAVMESH, meta, methods, mesh_index);
    steerL_open_navlink(L);
    lua_pushcfunction(L, navmesh_new);
    lua_setfield(L, -2, "navmesh");
    lua_pushcfunction(L, navmesh_load);
    lua_setfield(L, -2, "navmesh_load");
    steerL_resource_type(L, &steerB_navmesh_resource, STEERL_NAVMESH); // steer.navigate{ navmesh = nm }
    steerL_open_navobst(L);
}
