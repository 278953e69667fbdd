// SPDX-License-Identifier: MIT
// lnavobst.c — obstacles that come and go on a navigation mesh, in Lua:
// nm:add_obstacle{ polygon | circle | box, area }, nm:obstacles() and the
// handle's move and remove (src/nav/mesh_dyn.h).
//
// A handle holds the mesh userdata (its user value: the mesh's memory
// charge follows the change, and after an in-place restore the mesh the
// userdata took from the world, steerL_nav_mesh_twins) and the obstacle's
// id, which no later obstacle of the mesh takes: a removed
// obstacle's handle stays stale, and says so. Each call changes the mesh
// at once, in the order of the calls; every argument is checked first.
#include "lnav.h"
#include "../nav/mesh_dyn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STEERL_OBSTACLE "steer.obstacle"

typedef struct steerL_Obstacle {
    uint32_t id;
} steerL_Obstacle;

static steerL_Obstacle *check_obstacle(lua_State *L, int idx) { return luaL_checkudata(L, idx, STEERL_OBSTACLE); }

// The mesh of the obstacle handle at idx (its mesh userdata's).
static steerN_Mesh *mesh_of(lua_State *L, int idx)
{
    lua_getiuservalue(L, idx, 1);
    steerN_Mesh *m = steerL_navmesh_check(L, -1);
    lua_pop(L, 1);
    return m;
}

// A handle for obstacle id of the mesh userdata at mi, on top.
static void push_obstacle(lua_State *L, int mi, uint32_t id)
{
    mi = lua_absindex(L, mi);
    steerL_Obstacle *o = lua_newuserdatauv(L, sizeof *o, 1);
    o->id = id;
    lua_pushvalue(L, mi);
    lua_setiuservalue(L, -2, 1);
    luaL_setmetatable(L, STEERL_OBSTACLE);
}

// A status of the core as an error of fn.
static int fail(lua_State *L, const char *fn, steerN_ObstacleStatus st)
{
    if (st == STEERN_OBST_NOMEM) return luaL_error(L, "%s: out of memory", fn);
    return luaL_error(L, "%s: %s", fn, steerN_obstacle_status_text(st));
}

// The footprint of the descriptor at t (polygon, circle or box) into a
// new userdata buffer on top: its points; raises on bad input.
static double *read_shape(lua_State *L, int t, const char *fn, uint32_t *n)
{
    int given = 0;
    static const char *const shapes[] = { "polygon", "circle", "box" };
    for (int i = 0; i < 3; i++) {
        given += lua_getfield(L, t, shapes[i]) != LUA_TNIL;
        lua_pop(L, 1);
    }
    if (given != 1)
        luaL_error(L, "%s: expected exactly one of the fields 'polygon', 'circle', 'box' (the footprint), got %d", fn,
                   given);
    double p[3], q[3];
    if (lua_getfield(L, t, "polygon") != LUA_TNIL) {
        if (!lua_istable(L, -1)) steerL_field_error(L, fn, "polygon", "a list of at least 3 points", -1);
        lua_Integer k = (lua_Integer)lua_rawlen(L, -1);
        if (k < 3) luaL_error(L, "%s: field 'polygon' expected at least 3 points, got %d", fn, (int)k);
        if (k > STEERN_OBSTACLE_POINTS)
            luaL_error(L, "%s: field 'polygon' has %d points, at most %d", fn, (int)k, STEERN_OBSTACLE_POINTS);
        double *xy = lua_newuserdatauv(L, sizeof *xy * 2 * (size_t)k, 0);
        for (lua_Integer i = 1; i <= k; i++) {
            lua_rawgeti(L, -2, i);
            if (!steerL_tovec(L, -1, p)) {
                char where[32];
                snprintf(where, sizeof where, "polygon[%d]", (int)i);
                steerL_field_error(L, fn, where, "a point (steer.vec or {x, y}) with finite coordinates", -1);
            }
            lua_pop(L, 1);
            xy[2 * i - 2] = p[0];
            xy[2 * i - 1] = p[1];
        }
        lua_remove(L, -2);
        *n = (uint32_t)k;
        return xy;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "circle") != LUA_TNIL) {
        if (!lua_istable(L, -1)) steerL_field_error(L, fn, "circle", "a table { center, radius }", -1);
        if (lua_getfield(L, -1, "center") == LUA_TNIL) {
            lua_pop(L, 1);
            lua_rawgeti(L, -1, 1);
        }
        if (!steerL_tovec(L, -1, p)) steerL_field_error(L, fn, "circle.center", "a point (steer.vec or {x, y})", -1);
        lua_pop(L, 1);
        if (lua_getfield(L, -1, "radius") == LUA_TNIL) {
            lua_pop(L, 1);
            lua_rawgeti(L, -1, 2);
        }
        double r = steerL_checkrange(L, -1, fn, "circle.radius", "a radius in metres", 1e-3, 1e9);
        lua_pop(L, 2);
        double *xy = lua_newuserdatauv(L, sizeof *xy * 2 * STEERN_CIRCLE_SIDES, 0);
        steerN_obstacle_circle(p, r, xy);
        *n = STEERN_CIRCLE_SIDES;
        return xy;
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "box");
    if (!lua_istable(L, -1)) steerL_field_error(L, fn, "box", "a table { min, max }", -1);
    lua_getfield(L, -1, "min");
    if (!steerL_tovec(L, -1, p)) steerL_field_error(L, fn, "box.min", "a point (steer.vec or {x, y})", -1);
    lua_getfield(L, -2, "max");
    if (!steerL_tovec(L, -1, q)) steerL_field_error(L, fn, "box.max", "a point (steer.vec or {x, y})", -1);
    if (!(q[0] > p[0] && q[1] > p[1]))
        luaL_error(L, "%s: field 'box' expected max (%f, %f) above and right of min (%f, %f)", fn, q[0], q[1], p[0],
                   p[1]);
    lua_pop(L, 3);
    double *xy = lua_newuserdatauv(L, sizeof *xy * 8, 0);
    const double c[8] = { p[0], p[1], q[0], p[1], q[0], q[1], p[0], q[1] };
    memcpy(xy, c, sizeof c);
    *n = 4;
    return xy;
}

// nm:add_obstacle{ polygon = {...} | circle = { center, radius } | box = { min, max }, area = "blocked" | name,
// layer = k | z = h }
static int mesh_add_obstacle(lua_State *L)
{
    static const char *const fields[] = { "polygon", "circle", "box", "area", "layer", "z", NULL };
    const char *fn = "steer.navmesh:add_obstacle";
    steerN_Mesh *m = steerL_navmesh_check(L, 1);
    if (!lua_istable(L, 2)) steerL_field_error(L, fn, "obstacle", "a table { polygon | circle | box, area }", 2);
    steerL_check_desc(L, 2, fn, fields);
    lua_settop(L, 2);
    int32_t area = STEERN_OBST_BLOCKED;
    if (lua_getfield(L, 2, "area") != LUA_TNIL) {
        const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (!name || (strcmp(name, "blocked") != 0 && steerN_mesh_area(m, name) < 1)) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            luaL_addstring(&b, "\"blocked\" or the name of one of the mesh's areas other than 'default' (");
            for (uint32_t i = 1; i < m->nareas; i++) {
                luaL_addstring(&b, i > 1 ? ", '" : "'");
                luaL_addstring(&b, m->area_name[i]);
                luaL_addchar(&b, '\'');
            }
            luaL_addstring(&b, m->nareas > 1 ? ")" : "it has none)");
            luaL_pushresult(&b);
            steerL_field_error(L, fn, "area", lua_tostring(L, -1), 3);
        }
        if (strcmp(name, "blocked") != 0) area = steerN_mesh_area(m, name);
    }
    lua_pop(L, 1);
    // its floor: a layer, or the ground under its centre nearest below z
    steerN_Floor fl = { .layer = steerL_navmesh_layer(L, 2, m, fn, "layer", 0) };
    if (lua_getfield(L, 2, "z") != LUA_TNIL) {
        if (fl.layer) luaL_error(L, "%s: expected 'layer' or 'z' (which floor it stands on), not both", fn);
        fl.has_z = true;
        fl.z = steerL_checkrange(L, -1, fn, "z", "a height in metres", -1e9, 1e9);
    }
    lua_pop(L, 1);
    uint32_t n, id = 0;
    const double *xy = read_shape(L, 2, fn, &n);
    steerN_ObstacleStatus st = steerN_obstacle_add(m, xy, n, area, &fl, &id);
    steerL_navmesh_recharge(L, 1);
    if (st) return fail(L, fn, st);
    push_obstacle(L, 1, id);
    return 1;
}

// nm:obstacles() -> { obstacle, ... } in the order they were added
static int mesh_obstacles(lua_State *L)
{
    steerN_Mesh *m = steerL_navmesh_check(L, 1);
    uint32_t n = steerN_mesh_obstacle_count(m);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        push_obstacle(L, 1, steerN_mesh_obstacle_at(m, i)->id);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

// The live obstacle of the handle o at 1, or raise naming fn.
static const steerN_Obstacle *live(lua_State *L, const steerL_Obstacle *o, const char *fn)
{
    const steerN_Obstacle *x = steerN_obstacle_get(mesh_of(L, 1), o->id);
    if (!x) luaL_error(L, "%s: obstacle %d was removed already", fn, (int)o->id);
    return x;
}

// obstacle:move(dx, dy [, dz])
static int obstacle_move(lua_State *L)
{
    const char *fn = "steer.obstacle:move";
    steerL_Obstacle *o = check_obstacle(L, 1);
    live(L, o, fn);
    double dx = steerL_checkrange(L, 2, fn, "dx", "a finite number of metres", -1e9, 1e9);
    double dy = steerL_checkrange(L, 3, fn, "dy", "a finite number of metres", -1e9, 1e9);
    if (!lua_isnoneornil(L, 4)) steerL_checkrange(L, 4, fn, "dz", "a finite number of metres", -1e9, 1e9);
    steerN_ObstacleStatus st = steerN_obstacle_move(mesh_of(L, 1), o->id, dx, dy);
    lua_getiuservalue(L, 1, 1);
    steerL_navmesh_recharge(L, -1);
    return st ? fail(L, fn, st) : 0;
}

// obstacle:remove()
static int obstacle_remove(lua_State *L)
{
    const char *fn = "steer.obstacle:remove";
    steerL_Obstacle *o = check_obstacle(L, 1);
    live(L, o, fn);
    steerN_ObstacleStatus st = steerN_obstacle_remove(mesh_of(L, 1), o->id);
    lua_getiuservalue(L, 1, 1);
    steerL_navmesh_recharge(L, -1);
    return st ? fail(L, fn, st) : 0;
}

// obstacle.id, .alive, .area ("blocked" or the area's name), .layer (1 ..), .polygon (its points now)
static int obstacle_index(lua_State *L)
{
    const steerL_Obstacle *o = check_obstacle(L, 1);
    const char *k = lua_tostring(L, 2);
    const steerN_Mesh *m = mesh_of(L, 1);
    const steerN_Obstacle *x = steerN_obstacle_get(m, o->id);
    if (!k) return 0;
    if (strcmp(k, "id") == 0) lua_pushinteger(L, (lua_Integer)o->id);
    else if (strcmp(k, "alive") == 0) lua_pushboolean(L, x != NULL);
    else if (strcmp(k, "layer") == 0 && x) lua_pushinteger(L, (lua_Integer)x->layer + 1);
    else if (strcmp(k, "area") == 0 && x)
        lua_pushstring(L, x->area == STEERN_OBST_BLOCKED ? "blocked" : m->area_name[x->area]);
    else if (strcmp(k, "polygon") == 0 && x) {
        lua_createtable(L, (int)x->npt, 0);
        for (uint32_t i = 0; i < x->npt; i++) {
            steerL_pushvec(L, x->xy[2 * i], x->xy[2 * i + 1], 0);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
    } else {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int obstacle_eq(lua_State *L)
{
    const steerL_Obstacle *a = luaL_testudata(L, 1, STEERL_OBSTACLE), *b = luaL_testudata(L, 2, STEERL_OBSTACLE);
    bool same = a && b && a->id == b->id;
    if (same) {
        lua_getiuservalue(L, 1, 1);
        lua_getiuservalue(L, 2, 1);
        same = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
    }
    lua_pushboolean(L, same);
    return 1;
}

static int obstacle_tostring(lua_State *L)
{
    const steerL_Obstacle *o = check_obstacle(L, 1);
    lua_pushfstring(L, "steer.obstacle(%d%s)", (int)o->id,
                    steerN_obstacle_get(mesh_of(L, 1), o->id) ? "" : ", removed");
    return 1;
}

void steerL_open_navobst(lua_State *L)
{
    static const luaL_Reg meta[] = { { "__eq", obstacle_eq }, { "__tostring", obstacle_tostring }, { NULL, NULL } };
    static const luaL_Reg methods[] = { { "move", obstacle_move }, { "remove", obstacle_remove }, { NULL, NULL } };
    steerL_newclass(L, STEERL_OBSTACLE, meta, methods, obstacle_index);
}

int steerL_navmesh_add_obstacle(lua_State *L) { return mesh_add_obstacle(L); }
int steerL_navmesh_obstacles(lua_State *L) { return mesh_obstacles(L); }
