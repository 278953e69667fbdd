// SPDX-License-Identifier: MIT
// lnavwalls.c — a navigation mesh's walls in a world (w:add_navmesh), and
// how they follow the mesh as its obstacles come and go (src/nav/mesh_dyn.h).
//
// The world's user value's `navmeshes` maps each mesh it took walls from
// (a light userdata: the C mesh, which the C world holds as long as it
// lives) to a record of the wall shapes made from it, the options they
// were made with and the mesh's epoch then. At the start of every tick
// (w:step), in the order the world attached its meshes, a mesh whose epoch
// is not its walls' any more has them made again: the old shapes removed
// in order, the new added in the mesh's order, so the same changes give
// the same shapes on every run. A snapshot keeps the records (the Lua
// section's `meshwalls`), so a loaded world re-makes its walls when the
// saved one would have, and each mesh's serial and hash, so that an
// in-place restore finds the script's mesh that stands for it (its twin,
// lnavmesh.c).
#include "lnav.h"
#include "../behaviors/exports.h"
#include "../nav/mesh_dyn.h"

#include <stdio.h>
#include <string.h>

typedef struct MeshWalls {
    const steerN_Mesh *m;
    uint32_t epoch; // the mesh's when they were made
    uint32_t layer; // 1 + the layer whose walls they are (0: every layer's)
    double height;  // a 3D world's panels' (steer_add_wall_height)
    uint32_t n;
    steer_Shape id[];
} MeshWalls;

// Whether triangle t is on layer k (1-based; 0: any).
static bool on_layer(const steerN_Mesh *m, uint32_t t, uint32_t k)
{
    return !k || (m->layer ? m->layer[t] : 0) == k - 1;
}

// The world's (at wi) table of records, on top (made when `make`; nil otherwise when it has none).
static void push_records(lua_State *L, int wi, bool make)
{
    lua_getiuservalue(L, wi, 1);
    if (lua_getfield(L, -1, "navmeshes") != LUA_TTABLE && make) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, "navmeshes");
    }
    lua_remove(L, -2);
}

// A new record for m in the table at rec (its n ids to fill), on top.
static MeshWalls *new_record(lua_State *L, int rec, const steerN_Mesh *m, uint32_t n)
{
    rec = lua_absindex(L, rec);
    MeshWalls *r = lua_newuserdatauv(L, sizeof *r + sizeof r->id[0] * (n ? n : 1), 0);
    *r = (MeshWalls){ .m = m };
    lua_pushlightuserdata(L, (void *)(uintptr_t)m);
    lua_pushvalue(L, -2);
    lua_rawset(L, rec); // before any error, so that removing them stays possible
    return r;
}

// Make m's walls in lw's world into a new record in the table at rec.
static void make_walls(lua_State *L, steerL_World *lw, int rec, const steerN_Mesh *m, uint32_t layer, double height,
                       const char *fn)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < 3 * m->ntri; i++)
        n += m->adj[i] < 0 && on_layer(m, i / 3, layer) && !steerN_mesh_dead(m, i / 3);
    MeshWalls *r = new_record(L, rec, m, n);
    r->epoch = steerN_mesh_epoch(m);
    r->layer = layer;
    r->height = height;
    for (uint32_t t = 0; t < m->ntri; t++)
        for (int i = 0; i < 3; i++) {
            if (m->adj[3 * (size_t)t + (size_t)i] >= 0 || !on_layer(m, t, layer) || steerN_mesh_dead(m, t)) continue;
            uint32_t va = m->tri[3 * (size_t)t + (size_t)i], vb = m->tri[3 * (size_t)t + (size_t)((i + 1) % 3)];
            const double *a = m->xy + 2 * (size_t)va, *b = m->xy + 2 * (size_t)vb;
            double a3[3] = { a[0], a[1], m->z ? m->z[va] : 0 }, b3[3] = { b[0], b[1], m->z ? m->z[vb] : 0 };
            steer_Shape id = STEER_NO_SHAPE;
            int st =
                lw->dim == 3 ? steer_add_wall_height(lw->w, a3, b3, height, &id) : steer_add_wall(lw->w, a3, b3, &id);
            if (st)
                luaL_error(L, "%s: %s", fn,
                           st == STEER_ENOMEM  ? "out of memory"
                           : st == STEER_EBUSY ? "cannot add walls now (inside a step)"
                                               : "the mesh's walls lie beyond the coordinates a world can store");
            r->id[r->n++] = id;
        }
    lua_pop(L, 1);
}

// w:add_navmesh(nm [, { layer, height }]): the mesh's walls become the
// world's walls (w:raycast, avoid_walls, reciprocal's obstacles and the
// collide pass see them), and the C world holds the mesh and lists it for
// the viewer (so a snapshot carries it: a loaded world draws it too).
// Adding the same mesh again, or one made the same (the one a snapshot
// brought back), does nothing. In a 3D world each wall is a panel from
// the ground's height up `height` (steer_add_wall_height): the walls of
// one floor stand in the way of the agents on it only. In a 2D world every
// layer's walls are in one plan, unless `layer` keeps one layer's. They
// follow the mesh's obstacles from the next tick on (steerL_nav_sync_walls).
int steerL_world_add_navmesh(lua_State *L)
{
    const char *fn = "steer.world:add_navmesh";
    steerL_check_unsandboxed(L, "w:add_navmesh", "the static geometry belongs to the game");
    steerL_World *lw = steerL_checkworld(L, 1);
    steerN_Mesh *m = steerL_navmesh_check(L, 2);
    double height = 2;
    uint32_t layer = 0;
    if (!lua_isnoneornil(L, 3)) {
        static const char *const fields[] = { "layer", "height", NULL };
        if (!lua_istable(L, 3)) steerL_field_error(L, fn, "options", "a table { layer, height }", 3);
        steerL_check_fields(L, 3, fn, fields, 0);
        layer = steerL_navmesh_layer(L, 3, m, fn, "layer", 0);
        height = steerL_optnumber(L, 3, fn, "height", 2, 1e-3, 1e6, "a wall height in metres");
    }
    steerL_check_writable(L, lw, fn);
    lua_settop(L, 2);
    int added = steerB_world_add_navmesh(lw->w, m);
    if (added < 0) return luaL_error(L, "%s: out of memory", fn);
    if (!steerL_nav_list_meshes(lw)) return luaL_error(L, "%s: out of memory", fn);
    if (!added) return 0;
    push_records(L, 1, true);
    make_walls(L, lw, -1, m, layer, height, fn);
    return 0;
}

void steerL_nav_sync_walls(lua_State *L, int wi, const char *fn)
{
    wi = lua_absindex(L, wi);
    steerL_World *lw = steerL_checkworld(L, wi);
    push_records(L, wi, false);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    int rec = lua_gettop(L);
    for (uint32_t i = 0;; i++) {
        const steerN_Mesh *m = steerB_world_navmesh(lw->w, i);
        if (!m) break;
        lua_pushlightuserdata(L, (void *)(uintptr_t)m);
        MeshWalls *r = lua_rawget(L, rec) == LUA_TUSERDATA ? lua_touserdata(L, -1) : NULL;
        if (r && r->epoch != steerN_mesh_epoch(m)) {
            for (uint32_t k = 0; k < r->n; k++) steer_remove_shape(lw->w, r->id[k]);
            r->n = 0;
            make_walls(L, lw, rec, m, r->layer, r->height, fn);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

// ---- snapshots -------------------------------------------------------------------

void steerL_nav_walls_save(lua_State *L, int wi)
{
    wi = lua_absindex(L, wi);
    steerL_World *lw = steerL_checkworld(L, wi);
    lua_newtable(L);
    int out = lua_gettop(L);
    push_records(L, wi, false);
    int rec = lua_gettop(L);
    for (uint32_t i = 0; lua_istable(L, rec); i++) {
        const steerN_Mesh *m = steerB_world_navmesh(lw->w, i);
        if (!m) break;
        lua_pushlightuserdata(L, (void *)(uintptr_t)m);
        const MeshWalls *r = lua_rawget(L, rec) == LUA_TUSERDATA ? lua_touserdata(L, -1) : NULL;
        lua_pop(L, 1);
        if (!r) continue;
        lua_createtable(L, 0, 6);
        lua_pushinteger(L, (lua_Integer)i);
        lua_setfield(L, -2, "mesh");
        lua_pushinteger(L, (lua_Integer)m->serial); // its binding's name and its hash, for a restore's twin
        lua_setfield(L, -2, "serial");
        char hash[17];
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)steerN_mesh_hash_known(m));
        lua_pushstring(L, hash);
        lua_setfield(L, -2, "hash");
        lua_pushinteger(L, (lua_Integer)r->epoch);
        lua_setfield(L, -2, "epoch");
        lua_pushinteger(L, (lua_Integer)r->layer);
        lua_setfield(L, -2, "layer");
        lua_pushnumber(L, r->height);
        lua_setfield(L, -2, "height");
        lua_createtable(L, (int)r->n, 0);
        for (uint32_t k = 0; k < r->n; k++) {
            steerL_pushid(L, r->id[k].id);
            lua_rawseti(L, -2, (lua_Integer)k + 1);
        }
        lua_setfield(L, -2, "walls");
        lua_rawseti(L, out, (lua_Integer)lua_rawlen(L, out) + 1);
    }
    lua_pop(L, 1);
}

// An integer field k of the table on top, within [lo, hi], or raise naming fn.
static lua_Integer int_field(lua_State *L, const char *k, lua_Integer lo, lua_Integer hi, const char *fn)
{
    lua_getfield(L, -1, k);
    int ok;
    lua_Integer v = lua_tointegerx(L, -1, &ok);
    if (!ok || v < lo || v > hi) luaL_error(L, "%s: corrupt snapshot (a mesh's walls' %s)", fn, k);
    lua_pop(L, 1);
    return v;
}

void steerL_nav_walls_bind(lua_State *L, int wi, int list, const char *fn)
{
    wi = lua_absindex(L, wi);
    list = lua_absindex(L, list);
    steerL_World *lw = steerL_checkworld(L, wi);
    if (!lua_istable(L, list)) return;
    push_records(L, wi, true);
    int rec = lua_gettop(L);
    for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, list); i++) {
        if (lua_rawgeti(L, list, i) != LUA_TTABLE) luaL_error(L, "%s: corrupt snapshot (a mesh's walls)", fn);
        const steerN_Mesh *m = steerB_world_navmesh(lw->w, (uint32_t)int_field(L, "mesh", 0, UINT32_MAX, fn));
        uint32_t epoch = (uint32_t)int_field(L, "epoch", 0, UINT32_MAX, fn);
        uint32_t layer = (uint32_t)int_field(L, "layer", 0, STEERN_MESH_LAYERS, fn);
        // the serial it was saved with (a twin has it already), so that it saves again as it was saved
        lua_Integer serial = lua_getfield(L, -1, "serial") == LUA_TNIL ? 0 : -1;
        lua_pop(L, 1);
        if (serial) serial = int_field(L, "serial", 0, (lua_Integer)1 << 62, fn);
        if (m && !m->serial) ((steerN_Mesh *)(uintptr_t)m)->serial = (uint64_t)serial;
        lua_getfield(L, -1, "height");
        double height = lua_tonumber(L, -1);
        lua_getfield(L, -2, "walls");
        if (!m || !lua_istable(L, -1)) luaL_error(L, "%s: corrupt snapshot (a mesh's walls)", fn);
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        MeshWalls *r = new_record(L, rec, m, (uint32_t)n);
        *r = (MeshWalls){ .m = m, .epoch = epoch, .layer = layer, .height = height };
        for (lua_Integer k = 1; k <= n; k++) {
            lua_rawgeti(L, -2, k);
            r->id[r->n++] = steerL_shape_of_lid(lw->w, lua_tointeger(L, -1));
            lua_pop(L, 1);
        }
        lua_pop(L, 4);
    }
    lua_pop(L, 1);
}
