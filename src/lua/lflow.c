// SPDX-License-Identifier: MIT
// lflow.c — flow fields: g:flow_field{...} (listed in lgrid.c's table of
// a grid's methods) and the steer.flow_field methods. A field is the
// resource steer.follow_flow{ field = f } holds (steerL_resource_type).
// The userdata, its user value and its memory: lnav.h.
#include "lnav.h"
#include "../behaviors/exports.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// ---- construction ------------------------------------------------------------

// The goals at idx (a vector, or a list of them when `list`) into out.
static uint32_t read_goals(lua_State *L, const steerN_Grid *g, int idx, bool list, const char *fn, const char *arg,
                           double **out)
{
    lua_Integer n = list ? (lua_Integer)lua_rawlen(L, idx) : 1;
    if (list && (n < 1 || n > 1000000)) steerL_field_error(L, fn, arg, "a non-empty list of vectors", idx);
    double *goals = lua_newuserdatauv(L, sizeof *goals * 2 * (size_t)n, 0); // freed by the GC
    size_t work = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        steerL_poll(L, &work, 1);
        double p[3];
        char what[64];
        if (list) snprintf(what, sizeof what, "%s[%d]", arg, (int)i);
        else snprintf(what, sizeof what, "%s", arg);
        if (list) lua_rawgeti(L, idx, i);
        else lua_pushvalue(L, idx);
        steerL_nav_vec(L, -1, fn, what, p);
        lua_pop(L, 1);
        steerL_nav_inside(L, g, fn, what, p);
        int x, y;
        steerN_cell_of(g, p, &x, &y);
        if (!steerN_open(g, x, y)) luaL_error(L, "%s: %s (%f, %f) is in a blocked cell", fn, what, p[0], p[1]);
        goals[2 * i - 2] = p[0];
        goals[2 * i - 1] = p[1];
    }
    *out = goals;
    return (uint32_t)n;
}

// A new flow field of the grid at gi toward n goals, on top; listed by its
// grid (rebuilt after edits) and for the viewer.
steerL_Flow *steerL_new_flow(lua_State *L, int gi, const char *fn, const double *goals, uint32_t n)
{
    gi = lua_absindex(L, gi);
    steerL_Grid *ug = steerL_checkgrid(L, gi);
    steerL_Flow *uf = lua_newuserdatauv(L, sizeof *uf, 1);
    memset(uf, 0, sizeof *uf);
    luaL_setmetatable(L, STEERL_FLOW);
    lua_pushvalue(L, gi);
    lua_setiuservalue(L, -2, 1);
    steerL_nav_charge(L, &uf->charged,
                      sizeof(steerN_Flow) + STEERN_FLOW_CELL_BYTES * (size_t)ug->g->nx * (size_t)ug->g->ny);
    if (!(uf->f = steerN_flow_new(ug->g)) || steerN_flow_build(uf->f, goals, n)) luaL_error(L, "%s: out of memory", fn);
    uf->f->serial = steerL_nav_serial(L);
    uf->grid = ug;
    steerN_Shown *s = &ug->shown;
    const steerN_Flow **flows = steerL_nav_room(&ug->alloc, (void *)s->flows, s->nflows, &s->cap, sizeof *flows);
    if (!flows) luaL_error(L, "%s: out of memory", fn);
    s->flows = flows;
    flows[s->nflows++] = uf->f;
    lua_getiuservalue(L, gi, 1);
    lua_getfield(L, -1, "fields");
    lua_pushvalue(L, -3);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 2);
    steerL_nav_charge(L, &uf->charged, steerN_flow_bytes(uf->f)); // the build's heap or buckets
    return uf;
}

int steerL_grid_flow_field(lua_State *L)
{
    static const char *const fields[] = { "goal", "goals", NULL };
    const char *fn = "steer.grid:flow_field";
    steerL_Grid *ug = steerL_checkgrid(L, 1);
    if (!lua_istable(L, 2)) {
        char buf[64];
        return luaL_error(L, "%s: expected a table {goal = pos} or {goals = {...}}, got %s", fn,
                          steerL_describe(L, 2, buf, sizeof buf));
    }
    lua_settop(L, 2);
    steerL_check_fields(L, 2, fn, fields, 0);
    lua_getfield(L, 2, "goal");
    lua_getfield(L, 2, "goals");
    if (lua_isnil(L, 3) == lua_isnil(L, 4))
        return luaL_error(L, "%s: expected exactly one of the fields 'goal' (a vector) and 'goals' (a list)", fn);
    if (!lua_isnil(L, 4) && !lua_istable(L, 4)) steerL_field_error(L, fn, "goals", "a list of vectors", 4);
    double *goals;
    uint32_t n = lua_isnil(L, 4) ? read_goals(L, ug->g, 3, false, fn, "goal", &goals)
                                 : read_goals(L, ug->g, 4, true, fn, "goals", &goals);
    steerL_new_flow(L, 1, fn, goals, n);
    return 1;
}

// ---- rebuilds and methods -----------------------------------------------------

// After an edit of the grid at gi: every live field on it rebuilt, but for
// those the table at skip holds (0: none).
void steerL_flows_refresh(lua_State *L, int gi, int skip, const char *fn)
{
    lua_getiuservalue(L, gi, 1);
    lua_getfield(L, -1, "fields");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        // a collected field stays a key of the weak table until the next
        // cycle after its __gc ran (Lua 5.4, §2.5.4): released, it has none
        steerL_Flow *uf = luaL_checkudata(L, -1, STEERL_FLOW);
        if (!uf->f) continue;
        if (skip) {
            lua_pushvalue(L, -1);
            bool skipped = lua_rawget(L, skip) != LUA_TNIL;
            lua_pop(L, 1);
            if (skipped) continue;
        }
        if (steerN_flow_refresh(uf->f)) luaL_error(L, "%s: out of memory rebuilding a flow field", fn);
        steerL_nav_charge(L, &uf->charged, steerN_flow_bytes(uf->f));
    }
    lua_pop(L, 2);
}

static int flow_gc(lua_State *L)
{
    steerL_Flow *uf = luaL_checkudata(L, 1, STEERL_FLOW);
    steerN_Shown *s = uf->grid ? &uf->grid->shown : NULL; // its user value keeps the grid's memory
    for (uint32_t i = 0; s && i < s->nflows; i++)
        if (s->flows[i] == uf->f) {
            memmove(&s->flows[i], &s->flows[i + 1], sizeof s->flows[0] * (s->nflows - i - 1));
            s->nflows--;
            break;
        }
    steerN_flow_release(uf->f); // the agents bound to it hold it on
    uf->f = NULL;
    steerL_nav_charge(L, &uf->charged, 0);
    return 0;
}

static int flow_set_goal(lua_State *L)
{
    steerL_Flow *uf = steerL_checkflow(L, 1);
    double *goal;
    read_goals(L, uf->f->grid, 2, false, "steer.flow_field:set_goal", "goal", &goal);
    if (steerN_flow_refresh(uf->f) || steerN_flow_set_goal(uf->f, goal))
        return luaL_error(L, "steer.flow_field:set_goal: out of memory");
    steerL_nav_charge(L, &uf->charged, steerN_flow_bytes(uf->f));
    return 0;
}

static int flow_set_goals(lua_State *L)
{
    const char *fn = "steer.flow_field:set_goals";
    steerL_Flow *uf = steerL_checkflow(L, 1);
    if (!lua_istable(L, 2)) steerL_field_error(L, fn, "goals", "a list of vectors", 2);
    double *goals;
    uint32_t n = read_goals(L, uf->f->grid, 2, true, fn, "goals", &goals);
    if (steerN_flow_build(uf->f, goals, n)) return luaL_error(L, "%s: out of memory", fn);
    steerL_nav_charge(L, &uf->charged, steerN_flow_bytes(uf->f));
    return 0;
}

static int flow_direction(lua_State *L)
{
    steerL_Flow *uf = steerL_checkflow(L, 1);
    double p[3], dir[2], left, goal[2];
    steerL_nav_vec(L, 2, "steer.flow_field:direction", "position", p);
    steerN_flow_sample(uf->f, p, dir, &left, goal);
    steerL_pushvec(L, dir[0], dir[1], 0);
    return 1;
}

static int flow_distance(lua_State *L)
{
    steerL_Flow *uf = steerL_checkflow(L, 1);
    double p[3], dir[2], left, goal[2];
    steerL_nav_vec(L, 2, "steer.flow_field:distance", "position", p);
    steerN_flow_sample(uf->f, p, dir, &left, goal);
    if (left == INFINITY) return 0;
    lua_pushnumber(L, left);
    return 1;
}

static int flow_index(lua_State *L)
{
    steerL_Flow *uf = steerL_checkflow(L, 1);
    const char *k = lua_tostring(L, 2);
    if (!k) return 0;
    if (strcmp(k, "grid") == 0) lua_getiuservalue(L, 1, 1);
    else if (strcmp(k, "touched") == 0) lua_pushinteger(L, uf->f->touched);
    else if (strcmp(k, "repaired") == 0) lua_pushboolean(L, uf->f->incremental);
    else if (strcmp(k, "goal") == 0) steerL_pushvec(L, uf->f->goals[0], uf->f->goals[1], 0);
    else {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int flow_tostring(lua_State *L)
{
    steerL_Flow *uf = steerL_checkflow(L, 1);
    lua_pushfstring(L, "steer.flow_field(goals=%d)", (int)uf->f->ngoals);
    return 1;
}

const struct steerN_Flow *steerL_toflow(lua_State *L, int idx)
{
    const steerL_Flow *uf = luaL_testudata(L, idx, STEERL_FLOW);
    return uf ? uf->f : NULL;
}
void steerL_open_flow(lua_State *L)
{
    static const luaL_Reg flow_meta[] = { { "__gc", flow_gc }, { "__tostring", flow_tostring }, { NULL, NULL } };
    static const luaL_Reg flow_methods[] = {
        { "set_goal", flow_set_goal },
        { "set_goals", flow_set_goals },
        { "direction", flow_direction },
        { "distance", flow_distance },
        { NULL, NULL },
    };
    steerL_newclass(L, STEERL_FLOW, flow_meta, flow_methods, flow_index);
    steerL_resource_type(L, &steerB_flow_resource, STEERL_FLOW); // steer.follow_flow{ field = f }
}
