// SPDX-License-Identifier: MIT
// lnavbake.c — steer.navmesh{ vertices = ..., triangles = ... } and
// steer.navmesh{ obj = "level.obj" }: a mesh baked from level geometry
// (src/nav/bake.h, the OBJ reader src/nav/obj.h). lnavmesh.c hands the
// descriptor here when it has a baking field; the mesh that comes back is
// a mesh like any other (every query, nm:save()).
//
// Not for mods: a bake reads a file and runs for as long as the level
// needs, in C that no watchdog can stop (the game bakes, or loads a saved
// mesh, and hands it over).
#include "lnav.h"
#include "../nav/bake.h"
#include "../nav/mesh.h"
#include "../nav/obj.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// agent = { height = 2, climb = 0.4, slope = 45 }: each optional, those the defaults.
static void read_agent(lua_State *L, int desc, const char *fn, steerN_BakeSpec *s)
{
    s->height = 2, s->climb = 0.4, s->slope = 45;
    if (lua_getfield(L, desc, "agent") == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    int t = lua_gettop(L);
    static const char *const fields[] = { "height", "climb", "slope", NULL };
    if (!lua_istable(L, t)) steerL_field_error(L, fn, "agent", "a table { height, climb, slope }", t);
    steerL_check_fields(L, t, fn, fields, 0);
    struct {
        const char *key, *field, *what;
        double min, max, *out;
    } rows[] = {
        { "height", "agent.height", "the agent's height in metres", 1e-3, 1e3, &s->height },
        { "climb", "agent.climb", "the step the agent climbs, in metres", 0, 1e3, &s->climb },
        { "slope", "agent.slope", "the steepest walkable slope in degrees", 0, 89.9, &s->slope },
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        if (lua_getfield(L, t, rows[i].key) != LUA_TNIL)
            *rows[i].out = steerL_checkrange(L, -1, fn, rows[i].field, rows[i].what, rows[i].min, rows[i].max);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

// The vertex index at idx (1 .. nverts), 0-based, or raise naming `where`.
static uint32_t read_index(lua_State *L, int idx, const char *fn, const char *where, uint32_t nverts)
{
    int ok;
    lua_Integer k = lua_tointegerx(L, idx, &ok);
    if (!ok || k < 1 || k > (lua_Integer)nverts) {
        char expect[64];
        snprintf(expect, sizeof expect, "a vertex index from 1 to %u", (unsigned)nverts);
        steerL_field_error(L, fn, where, expect, idx);
    }
    return (uint32_t)(k - 1);
}

// vertices = { {x, y, z}, ... } and triangles = { a, b, c, ... } or { {a, b, c}, ... }
// into userdata arrays left on the stack (collected with it on an error).
static void read_soup(lua_State *L, int desc, const char *fn, steerN_BakeSpec *s)
{
    if (lua_getfield(L, desc, "vertices") != LUA_TTABLE)
        steerL_field_error(L, fn, "vertices", "a list of points {x, y, z} (z up)", -1);
    int vt = lua_gettop(L);
    lua_Unsigned nv = lua_rawlen(L, vt);
    if (nv < 3 || nv > STEERN_OBJ_MAX_VERTS)
        luaL_error(L, "%s: field 'vertices' expected 3 to %d points, got %d", fn, (int)STEERN_OBJ_MAX_VERTS, (int)nv);
    double *xyz = lua_newuserdatauv(L, sizeof *xyz * 3 * nv, 0);
    size_t work = 0;
    steerL_poll(L, &work, (size_t)nv);
    for (lua_Unsigned i = 0; i < nv; i++) {
        lua_rawgeti(L, vt, (lua_Integer)i + 1);
        double *p = xyz + 3 * i;
        if (!steerL_tovec(L, -1, p) || !(fabs(p[0]) <= STEERN_BAKE_MAX_COORD) ||
            !(fabs(p[1]) <= STEERN_BAKE_MAX_COORD) || !(fabs(p[2]) <= STEERN_BAKE_MAX_COORD)) {
            char where[40];
            snprintf(where, sizeof where, "vertices[%d]", (int)i + 1);
            steerL_field_error(L, fn, where, "a point {x, y, z} (or steer.vec) within 1e6 m of the origin", -1);
        }
        lua_pop(L, 1);
    }
    s->xyz = xyz;
    s->nverts = (uint32_t)nv;

    if (lua_getfield(L, desc, "triangles") != LUA_TTABLE)
        steerL_field_error(L, fn, "triangles", "a list of vertex indices, 3 a triangle ({1, 2, 3, ...})", -1);
    int tt = lua_gettop(L);
    lua_Unsigned n = lua_rawlen(L, tt);
    bool nested = n > 0 && lua_rawgeti(L, tt, 1) == LUA_TTABLE; // { {a, b, c}, ... }
    lua_pop(L, 1);
    lua_Unsigned nt = nested ? n : n / 3;
    if (nt < 1 || (!nested && n % 3) || nt > STEERN_OBJ_MAX_TRIS)
        luaL_error(L, "%s: field 'triangles' expected 1 to %d triangles, 3 vertex indices each, got %d indices", fn,
                   (int)STEERN_OBJ_MAX_TRIS, (int)n);
    uint32_t *tri = lua_newuserdatauv(L, sizeof *tri * 3 * nt, 0);
    steerL_poll(L, &work, (size_t)n);
    char where[48];
    for (lua_Unsigned t = 0; t < nt; t++) {
        if (nested) {
            snprintf(where, sizeof where, "triangles[%d]", (int)t + 1);
            if (lua_rawgeti(L, tt, (lua_Integer)t + 1) != LUA_TTABLE || lua_rawlen(L, -1) != 3)
                steerL_field_error(L, fn, where, "a triangle {a, b, c} of vertex indices", -1);
            for (int j = 0; j < 3; j++) {
                snprintf(where, sizeof where, "triangles[%d][%d]", (int)t + 1, j + 1);
                lua_rawgeti(L, -1, j + 1);
                tri[3 * t + j] = read_index(L, -1, fn, where, s->nverts);
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        } else
            for (int j = 0; j < 3; j++) {
                snprintf(where, sizeof where, "triangles[%d]", (int)(3 * t) + j + 1);
                lua_rawgeti(L, tt, (lua_Integer)(3 * t) + j + 1);
                tri[3 * t + j] = read_index(L, -1, fn, where, s->nverts);
                lua_pop(L, 1);
            }
    }
    s->tri = tri;
    s->ntris = (uint32_t)nt;
}

int steerL_navmesh_bake(lua_State *L, const char *fn)
{
    steerL_check_unsandboxed(L, fn,
                             "a bake reads files and runs as long as the level needs; bake in the game "
                             "(or steer.navmesh_load a saved mesh) and hand the mesh over");
    if (!steerN_bake_available())
        return luaL_error(L,
                          "%s: this build has no baking (Recast); install librecast-dev and rebuild steer, or "
                          "bake where it is and steer.navmesh_load the saved mesh",
                          fn);
    static const char *const other[] = { "outline", "obstacles", "areas", "costs", "grid", NULL };
    for (const char *const *f = other; *f; f++) {
        bool given = lua_getfield(L, 1, *f) != LUA_TNIL;
        lua_pop(L, 1);
        if (given)
            return luaL_error(L,
                              "%s: field '%s' cannot go with baking (vertices, triangles, obj): the bake gives the "
                              "level",
                              fn, *f);
    }
    steerN_BakeSpec s = { 0 };
    read_agent(L, 1, fn, &s);
    if (lua_getfield(L, 1, "cell") != LUA_TNIL)
        s.cell = steerL_checkrange(L, -1, fn, "cell", "a cell size in metres (default agent.height / 10)", 1e-3, 1e3);
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "tile") != LUA_TNIL) {
        double cell = s.cell > 0 ? s.cell : steerN_bake_cell(s.height, s.climb);
        char what[160];
        snprintf(what, sizeof what, "a tile's side in metres, at least %d cells (%g m with cells of %g m)",
                 STEERN_BAKE_MIN_TILE, STEERN_BAKE_MIN_TILE * cell, cell);
        s.tile = steerL_checkrange(L, -1, fn, "tile", what, STEERN_BAKE_MIN_TILE * cell, 1e6);
    }
    lua_pop(L, 1);
    bool obj = lua_getfield(L, 1, "obj") != LUA_TNIL;
    lua_pop(L, 1);
    steerN_Soup soup = { 0 };
    steerN_Soup *own = NULL;
    if (obj) {
        static const char *const soupf[] = { "vertices", "triangles", NULL };
        for (const char *const *f = soupf; *f; f++) {
            bool given = lua_getfield(L, 1, *f) != LUA_TNIL;
            lua_pop(L, 1);
            if (given) return luaL_error(L, "%s: field '%s' cannot go with 'obj' (the file gives the level)", fn, *f);
        }
        if (lua_getfield(L, 1, "obj") != LUA_TSTRING)
            steerL_field_error(L, fn, "obj", "the path of a Wavefront OBJ file (a string)", -1);
        const char *path = lua_tostring(L, -1);
        char up = 'y';
        if (lua_getfield(L, 1, "up") != LUA_TNIL) {
            const char *u = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
            if (strcmp(u, "y") && strcmp(u, "z"))
                steerL_field_error(L, fn, "up", "the OBJ's up axis, \"y\" (as editors export) or \"z\"", -1);
            up = u[0];
        }
        lua_pop(L, 1);
        char msg[320];
        if (steerN_obj_read(path, up, &soup, msg, sizeof msg)) return luaL_error(L, "%s: field 'obj': %s", fn, msg);
        lua_pop(L, 1);
        if (!soup.ntris) {
            steerN_soup_free(&soup);
            return luaL_error(L, "%s: field 'obj': %s has no faces (f lines) to bake", fn, path);
        }
        own = &soup;
        s.xyz = soup.xyz, s.nverts = soup.nverts, s.tri = soup.tri, s.ntris = soup.ntris;
    } else {
        bool up = lua_getfield(L, 1, "up") != LUA_TNIL;
        lua_pop(L, 1);
        if (up) return luaL_error(L, "%s: field 'up' goes with 'obj' (vertices are in the world's frame, z up)", fn);
        read_soup(L, 1, fn, &s);
    }
    steerN_Alloc alloc = steerL_allocator(L);
    steerN_MeshError err = { 0 };
    steerN_Mesh *m = steerN_mesh_bake(&s, &alloc, &err);
    if (own) steerN_soup_free(own);
    if (!m)
        return luaL_error(L, "%s: %s%s", fn, obj ? "field 'obj': " : "",
                          err.message[0] ? err.message : "out of memory");
    steerL_navmesh_push(L, m, fn);
    return 1;
}
