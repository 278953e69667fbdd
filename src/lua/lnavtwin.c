// SPDX-License-Identifier: MIT
// lnavtwin.c — navigation meshes across an in-place restore: the script's
// and the mods' mesh userdata stand for the world's meshes again.
//
// An in-place restore (w:restore) reads the world's meshes from the
// snapshot: a mesh the world holds (a brain's, or one given with
// w:add_navmesh) whose saved serial and hash (the Lua section's `meshes`;
// `meshwalls`, the w:add_navmesh ones, in snapshots before it) are those
// of a live mesh userdata of the restoring state is that one's twin. Its C
// mesh takes the read mesh's contents in place (steerN_mesh_exchange;
// nothing when they are the same bytes already) as the core reads it
// (steerB_set_mesh_twins), and the world holds it instead: the script's
// nm, its obstacle handles and its trees name the world's mesh again. Once
// the restore is done the read mesh, which now holds the twin's old
// contents, is let go; when it fails, the two exchange back.
//
// A mod's meshes live in its own state, which the restore does not see: a
// mesh read that is no twin of the restoring state's keeps its saved
// serial (a serial names its state: lnav.h), and after the restore the
// mod's state (steerL_restored_twins) finds the world's meshes that bear
// its meshes' serials; its mesh takes the contents and the place in the
// world's brains, as a mod's flow field does (lsnapgrid.c).
#include "lnav.h"
#include "../behaviors/exports.h"
#include "../core/bytes.h"
#include "../nav/mesh.h"

#include <stdio.h>
#include <string.h>

#define REG_ANCHOR "steer.navmesh_twin_anchor" // the candidates, held while the load runs

// Whether meshes a and b are the same bytes (obstacles, their records and links too).
static bool same_bytes(const steerN_Mesh *a, const steerN_Mesh *b)
{
    steerS_Writer x, y;
    steerS_writer_init(&x, NULL, NULL);
    steerS_writer_init(&y, NULL, NULL);
    steerN_mesh_encode(a, &x);
    steerN_mesh_encode(b, &y);
    bool same = !x.failed && !y.failed && x.n == y.n && memcmp(x.p, y.p, x.n) == 0;
    steerS_writer_free(&x);
    steerS_writer_free(&y);
    return same;
}

static steerN_Mesh *twin_hook(void *ud, steerN_Mesh *m)
{
    steerL_MeshTwins *t = ud;
    if (t->npairs == STEERL_MESH_TWINS) return NULL;
    for (uint32_t i = 0; i < t->nsaved; i++) {
        if (t->saved[i].hash != steerN_mesh_hash_known(m) || !t->saved[i].serial) continue;
        for (uint32_t j = 0; j < t->nlive; j++) {
            steerL_NavMesh *u = t->live[j].u;
            if (!u || t->live[j].serial != t->saved[i].serial || u->m == m) continue;
            t->live[j].u = NULL; // taken once
            steerN_mesh_retain(u->m);
            if (same_bytes(u->m, m)) { // as saved: the twin stays as it is (views of it stay good)
                steerN_mesh_release(m);
                return u->m;
            }
            steerN_mesh_exchange(u->m, m);
            t->pair[t->npairs].u = u;
            t->pair[t->npairs++].loaded = m; // the load's reference, kept until the end
            return u->m;
        }
    }
    // no twin here: it keeps its name when no other mesh saved has its hash
    // (a mod's state finds its twin by it: steerL_nav_twins_world)
    uint32_t named = 0;
    uint64_t serial = 0;
    for (uint32_t i = 0; i < t->nsaved; i++)
        if (t->saved[i].hash == steerN_mesh_hash_known(m)) named++, serial = t->saved[i].serial;
    if (named == 1 && !m->serial) m->serial = serial;
    return NULL;
}

// Entry i of the list at `list` ({ serial = n, hash = "16 hex digits" }): false when it is not one.
static bool entry(lua_State *L, int list, lua_Integer i, uint64_t *hash, uint64_t *serial)
{
    lua_rawgeti(L, list, i);
    lua_getfield(L, -1, "hash");
    lua_getfield(L, -2, "serial");
    const char *h = lua_tostring(L, -2);
    int ok;
    lua_Integer n = lua_tointegerx(L, -1, &ok);
    *hash = 0;
    for (int k = 0; h && h[k] && k < 16; k++)
        *hash = *hash << 4 | (uint64_t)(h[k] <= '9' ? h[k] - '0' : (h[k] | 0x20) - 'a' + 10);
    *serial = ok && n > 0 ? (uint64_t)n : 0;
    lua_pop(L, 3);
    return h && *serial;
}

void steerL_nav_twins_begin(lua_State *L, int list, steerL_MeshTwins *t)
{
    list = lua_absindex(L, list);
    memset(t, 0, sizeof *t);
    for (lua_Integer i = 1; lua_istable(L, list) && i <= (lua_Integer)lua_rawlen(L, list); i++) {
        uint64_t hash, serial;
        if (entry(L, list, i, &hash, &serial) && t->nsaved < STEERL_MESH_TWINS)
            t->saved[t->nsaved++] = (struct steerL_TwinSaved){ hash, serial };
    }
    lua_newtable(L); // the anchor
    if (lua_getfield(L, LUA_REGISTRYINDEX, STEERL_REG_MESHES) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pop(L, 1);
            steerL_NavMesh *u = luaL_testudata(L, -1, STEERL_NAVMESH);
            if (!u || !u->m || !u->m->serial || t->nlive == STEERL_MESH_TWINS) continue;
            uint32_t j = 0;
            while (j < t->nlive && t->live[j].serial != u->m->serial) j++;
            if (j < t->nlive) { // two of one serial: neither is a twin
                t->live[j].u = NULL;
                continue;
            }
            t->live[t->nlive++] = (struct steerL_TwinLive){ u->m->serial, u };
            lua_pushvalue(L, -1);
            lua_rawseti(L, -4, (lua_Integer)t->nlive);
        }
    }
    lua_pop(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_ANCHOR);
    steerB_set_mesh_twins(twin_hook, t);
}

void steerL_nav_twins_end(lua_State *L, steerL_MeshTwins *t, bool ok)
{
    steerB_set_mesh_twins(NULL, NULL);
    for (uint32_t i = 0; i < t->npairs; i++) {
        steerL_NavMesh *u = t->pair[i].u;
        if (!ok) steerN_mesh_exchange(u->m, t->pair[i].loaded);
        steerN_mesh_release(t->pair[i].loaded);
        steerL_nav_charge(L, &u->charged, steerN_mesh_bytes(u->m));
    }
    t->npairs = 0;
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_ANCHOR);
}

// ---- the list saved --------------------------------------------------------------

// The set (mesh -> true) of the meshes world w holds, on top.
static void world_meshes(lua_State *L, const steer_World *w)
{
    lua_newtable(L);
    int set = lua_gettop(L);
    for (int i = 1; i < steer_world_brains(w); i++)
        if (steer_world_brain(w, i)) steerL_tree_resources(L, steer_world_brain(w, i), &steerB_navmesh_resource, set);
    const steerN_Mesh *m;
    for (uint32_t i = 0; (m = steerB_world_navmesh(w, i)) != NULL; i++) {
        lua_pushlightuserdata(L, (void *)(uintptr_t)m);
        lua_pushboolean(L, 1);
        lua_rawset(L, set);
    }
}

void steerL_nav_meshes_save(lua_State *L, int wi)
{
    steerL_World *lw = steerL_checkworld(L, wi);
    world_meshes(L, lw->w);
    int set = lua_gettop(L);
    // in the order of the serials (a table's order is no order: the bytes stay the same)
    uint64_t serials[STEERL_MESH_TWINS], hashes[STEERL_MESH_TWINS];
    uint32_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, set)) {
        lua_pop(L, 1);
        const steerN_Mesh *m = lua_touserdata(L, -1);
        if (!m->serial || n == STEERL_MESH_TWINS) continue;
        uint32_t at = n++;
        uint64_t h = steerN_mesh_hash_known(m);
        while (at > 0 && (serials[at - 1] > m->serial || (serials[at - 1] == m->serial && hashes[at - 1] > h)))
            serials[at] = serials[at - 1], hashes[at] = hashes[at - 1], at--;
        serials[at] = m->serial, hashes[at] = h;
    }
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, (lua_Integer)serials[i]);
        lua_setfield(L, -2, "serial");
        char hash[17];
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)hashes[i]);
        lua_pushstring(L, hash);
        lua_setfield(L, -2, "hash");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_remove(L, set);
}

void steerL_nav_meshes_bind(lua_State *L, int list, const steer_World *w)
{
    list = lua_absindex(L, list);
    world_meshes(L, w);
    int set = lua_gettop(L);
    steerN_Mesh *unnamed[STEERL_MESH_TWINS];
    uint64_t hash[STEERL_MESH_TWINS];
    uint32_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, set)) {
        lua_pop(L, 1);
        steerN_Mesh *m = (steerN_Mesh *)(uintptr_t)lua_touserdata(L, -1);
        if (!m->serial && n < STEERL_MESH_TWINS) hash[n] = steerN_mesh_hash_known(m), unnamed[n++] = m;
    }
    lua_pop(L, 1);
    // each entry names one mesh of its hash (meshes of one hash are the
    // same bytes: which takes which serial saves the same)
    for (lua_Integer i = 1; lua_istable(L, list) && i <= (lua_Integer)lua_rawlen(L, list); i++) {
        uint64_t want, serial;
        for (uint32_t j = 0; entry(L, list, i, &want, &serial) && j < n; j++)
            if (unnamed[j] && hash[j] == want) {
                unnamed[j]->serial = serial;
                unnamed[j] = NULL;
                break;
            }
    }
}

// ---- a mod's twins, after the engine's restores ---------------------------------

void steerL_nav_twins_world(lua_State *L, steer_World *w, const char *fn)
{
    int top = lua_gettop(L);
    world_meshes(L, w); // top + 1
    lua_newtable(L);    // top + 2: serial -> the world's mesh, or false when two bear it
    lua_pushnil(L);
    while (lua_next(L, top + 1)) {
        lua_pop(L, 1);
        const steerN_Mesh *m = lua_touserdata(L, -1);
        if (!m->serial) continue;
        lua_pushinteger(L, (lua_Integer)m->serial);
        bool again = lua_rawget(L, top + 2) != LUA_TNIL;
        lua_pop(L, 1);
        lua_pushinteger(L, (lua_Integer)m->serial);
        if (again) lua_pushboolean(L, 0);
        else lua_pushlightuserdata(L, (void *)(uintptr_t)m);
        lua_rawset(L, top + 2);
    }
    if (lua_getfield(L, LUA_REGISTRYINDEX, STEERL_REG_MESHES) != LUA_TTABLE) { // top + 3
        lua_settop(L, top);
        return;
    }
    lua_pushnil(L);
    while (lua_next(L, top + 3)) {
        lua_pop(L, 1);
        steerL_NavMesh *u = luaL_testudata(L, -1, STEERL_NAVMESH);
        if (!u || !u->m || !u->m->serial) continue;
        lua_pushinteger(L, (lua_Integer)u->m->serial);
        steerN_Mesh *copy = lua_rawget(L, top + 2) == LUA_TLIGHTUSERDATA ? lua_touserdata(L, -1) : NULL;
        lua_pop(L, 1);
        if (!copy || copy == u->m) continue;
        if (!same_bytes(u->m, copy)) steerN_mesh_exchange(u->m, copy); // (the same: views of it stay good)
        if (steer_world_replace_resource(w, copy, u->m) < 0) luaL_error(L, "%s: cannot replace a mesh", fn);
        steerL_nav_charge(L, &u->charged, steerN_mesh_bytes(u->m));
    }
    lua_settop(L, top);
}
