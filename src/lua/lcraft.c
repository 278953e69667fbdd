// SPDX-License-Identifier: MIT
// lcraft.c — turn limits from Lua: spawn's model / min_turn_radius /
// min_speed / max_turn_accel, the same agent fields, and
// steer.directed_seek_plan (what directed seek decides, for tests and
// debug drawing).
#include "lutil.h"
#include "../behaviors/exports.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MODEL_EXPECTED "\"point\" or \"craft\""
// min_speed's range has the agent's max_speed for its top (steerB_number_ok)
#define MIN_SPEED_EXPECTED "0 or a number >= 1e-6 and <= max_speed"

// The min_speed at idx, checked against the agent's max_speed `top`.
static double check_min_speed(lua_State *L, int idx, const char *fn, const char *field, double top)
{
    double v = lua_tonumber(L, idx);
    if (lua_type(L, idx) != LUA_TNUMBER || !steerB_number_ok(v, 0, top))
        steerL_field_error(L, fn, field, MIN_SPEED_EXPECTED, idx);
    return v;
}

// Raise for a missing min_turn_radius (the value at idx), `why` it is needed.
static int no_turn_radius(lua_State *L, const char *fn, int idx, const char *why)
{
    char what[96], expected[160];
    snprintf(what, sizeof what, "a number of metres (%s)", why);
    steerB_range_text(expected, sizeof expected, what, STEERA_PARAM_MIN, STEERA_PARAM_MAX);
    return steerL_field_error(L, fn, "min_turn_radius", expected, idx);
}

static int check_model(lua_State *L, int idx, const char *fn, const char *field)
{
    const char *m = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : "";
    if (strcmp(m, "point") == 0) return STEER_MODEL_POINT;
    if (strcmp(m, "craft") == 0) return STEER_MODEL_CRAFT;
    return steerL_field_error(L, fn, field, MODEL_EXPECTED, idx);
}

bool steerL_craft_desc(lua_State *L, int t, const char *fn, steer_CraftDesc *out)
{
    memset(out, 0, sizeof *out);
    if (lua_getfield(L, t, "model") != LUA_TNIL) out->model = (steer_Model)check_model(L, -1, fn, "model");
    lua_pop(L, 1);
    bool craft = out->model == STEER_MODEL_CRAFT;
    out->min_turn_radius = steerL_opt_vehicle(L, t, fn, "min_turn_radius", 0);
    out->max_turn_accel = steerL_opt_vehicle(L, t, fn, "max_turn_accel", 0);
    double top = steerL_opt_vehicle(L, t, fn, "max_speed", 1);
    if (lua_getfield(L, t, "min_speed") != LUA_TNIL) {
        if (!craft)
            steerL_field_error(L, fn, "min_speed", "nil (only a craft, model = \"craft\", has a min_speed)", -1);
        out->min_speed = check_min_speed(L, -1, fn, "min_speed", top);
    }
    lua_pop(L, 1);
    if (out->min_turn_radius == 0 && (craft || out->max_turn_accel > 0)) {
        lua_getfield(L, t, "min_turn_radius");
        no_turn_radius(L, fn, -1, craft ? "a craft needs one" : "with max_turn_accel");
    }
    return craft || out->min_turn_radius > 0;
}

// ---- agent fields --------------------------------------------------------

int steerL_agent_turn_index(lua_State *L, steerL_Agent *a, const char *k)
{
    steer_CraftDesc c;
    int has = steer_agent_craft(a->world->w, a->handle, &c) == 1;
    if (strcmp(k, "model") == 0) lua_pushstring(L, has && c.model == STEER_MODEL_CRAFT ? "craft" : "point");
    else if (strcmp(k, "min_turn_radius") == 0) has ? lua_pushnumber(L, c.min_turn_radius) : lua_pushnil(L);
    else if (strcmp(k, "min_speed") == 0) lua_pushnumber(L, has ? c.min_speed : 0);
    else if (strcmp(k, "max_turn_accel") == 0) lua_pushnumber(L, has ? c.max_turn_accel : 0);
    else if (strcmp(k, "turn_radius") == 0) {
        double r;
        steer_agent_turn_radius(a->world->w, a->handle, &r);
        has ? lua_pushnumber(L, r) : lua_pushnil(L);
    } else return 0;
    return 1;
}

int steerL_agent_turn_newindex(lua_State *L, steerL_Agent *a, const char *k)
{
    const char *fn = "steer.agent";
    steer_CraftDesc c;
    bool has = steer_agent_craft(a->world->w, a->handle, &c) == 1;
    if (!has) memset(&c, 0, sizeof c);
    if (strcmp(k, "model") == 0) {
        c.model = (steer_Model)check_model(L, 3, fn, k);
        if (!has && c.model == STEER_MODEL_POINT) return 1;
        if (!has) return luaL_error(L, "%s: field 'model': set a.min_turn_radius first (a craft needs one)", fn);
        if (c.model == STEER_MODEL_POINT) c.min_speed = 0;
    } else if (strcmp(k, "min_turn_radius") == 0) {
        if (lua_isnil(L, 3) && !(has && c.model == STEER_MODEL_CRAFT)) {
            steer_agent_set_craft(a->world->w, a->handle, NULL);
            return 1;
        }
        if (lua_isnil(L, 3)) no_turn_radius(L, fn, 3, "a craft needs one");
        c.min_turn_radius = steerL_vehicle_number(L, 3, fn, k);
    } else if (strcmp(k, "min_speed") == 0 || strcmp(k, "max_turn_accel") == 0) {
        double v, top;
        steer_agent_param(a->world->w, a->handle, STEER_PARAM_MAX_SPEED, &top);
        bool speed = k[1] == 'i';
        if (speed && !(has && c.model == STEER_MODEL_CRAFT))
            return luaL_error(L, "%s: field 'min_speed': only a craft has one (set a.model = \"craft\" first)", fn);
        if (!has) return luaL_error(L, "%s: field '%s': set a.min_turn_radius first", fn, k);
        v = speed ? check_min_speed(L, 3, fn, k, top) : steerL_vehicle_number(L, 3, fn, k);
        if (speed) c.min_speed = v;
        else c.max_turn_accel = v;
    } else {
        return 0;
    }
    if (steer_agent_set_craft(a->world->w, a->handle, &c) != STEER_OK)
        luaL_error(L, "%s: field '%s': could not set the turn limits (out of memory)", fn, k);
    return 1;
}

// ---- steer.directed_seek_plan --------------------------------------------

static void set_vec(lua_State *L, const char *k, const double v[3])
{
    steerL_pushvec(L, v[0], v[1], v[2]);
    lua_setfield(L, -2, k);
}

static void push_circle(lua_State *L, const char *k, const double c[3], int turn)
{
    lua_createtable(L, 0, 2);
    set_vec(L, "center", c);
    lua_pushinteger(L, turn);
    lua_setfield(L, -2, "turn");
    lua_setfield(L, -2, k);
}

static void push_plan(lua_State *L, const steer_SeekPlan *p)
{
    lua_createtable(L, 0, 16);
    lua_pushinteger(L, p->stage);
    lua_setfield(L, -2, "stage");
    lua_pushstring(L, p->cross ? "cross" : "direct");
    lua_setfield(L, -2, "path");
    lua_pushboolean(L, p->opposite);
    lua_setfield(L, -2, "opposite");
    lua_pushnumber(L, p->radius);
    lua_setfield(L, -2, "radius");
    lua_pushnumber(L, p->total_angle);
    lua_setfield(L, -2, "total_angle");
    set_vec(L, "aim", p->aim);
    set_vec(L, "from", p->from);
    set_vec(L, "to", p->to);
    push_circle(L, "agent_circle", p->agent_center, p->agent_turn);
    push_circle(L, "waypoint_circle", p->waypoint_center, p->waypoint_turn);
    lua_createtable(L, 0, 4);
    set_vec(L, "agent_left", p->circles[0]);
    set_vec(L, "agent_right", p->circles[1]);
    set_vec(L, "waypoint", p->circles[2]);
    set_vec(L, "opposite", p->circles[3]);
    lua_setfield(L, -2, "circles");
    set_vec(L, "axis_x", p->axis_x);
    set_vec(L, "axis_y", p->axis_y);
    const double *x = p->axis_x, *y = p->axis_y;
    double n[3] = { x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0] };
    set_vec(L, "normal", n);
}

static const char *const plan_fields[] = { "position",        "direction", "speed",    "target", "heading",
                                           "min_turn_radius", "dt",        "opposite", NULL };

// steer.directed_seek_plan(agent, behaviour) or steer.directed_seek_plan{ position, direction, target, heading,
// min_turn_radius [, speed, dt, opposite] }
static int directed_seek_plan(lua_State *L)
{
    const char *fn = "steer.directed_seek_plan";
    steer_SeekPlan plan;
    if (steerL_toagent(L, 1)) {
        steerL_Agent *a = steerL_checkagent(L, 1, fn);
        steer_Behavior *b = steerL_tobehavior(L, 2);
        if (!b || strcmp(steer_behavior_kind(b), "directed_seek") != 0) {
            char buf[64];
            return luaL_error(L, "%s: argument 2 expected a steer.directed_seek behaviour, got %s", fn,
                              steerL_describe(L, 2, buf, sizeof buf));
        }
        steerL_check_writable(L, a->world, fn);
        if (steer_agent_directed_seek_plan(a->world->w, a->handle, b, &plan) != 1) {
            lua_pushnil(L);
            return 1;
        }
        push_plan(L, &plan);
        return 1;
    }
    if (!lua_istable(L, 1)) {
        char buf[64];
        return luaL_error(L, "%s: expected (agent, directed_seek behaviour) or a table of named arguments, got %s", fn,
                          steerL_describe(L, 1, buf, sizeof buf));
    }
    steerL_check_fields(L, 1, fn, plan_fields, 0);
    double pos[3], dir[3], target[3], heading[3];
    const char *const vecs[] = { "position", "direction", "target", "heading" };
    double *outs[] = { pos, dir, target, heading };
    for (int i = 0; i < 4; i++) {
        lua_getfield(L, 1, vecs[i]);
        steerL_checkvec(L, -1, outs[i], fn, vecs[i]);
        bool zero = outs[i][0] == 0 && outs[i][1] == 0 && outs[i][2] == 0;
        if (zero && (i == 1 || i == 3)) steerL_field_error(L, fn, vecs[i], "a non-zero vector", -1);
        lua_pop(L, 1);
    }
    lua_getfield(L, 1, "min_turn_radius");
    double r = steerL_vehicle_number(L, -1, fn, "min_turn_radius");
    lua_pop(L, 1);
    double speed = steerL_optnumber(L, 1, fn, "speed", 0, 0, 1e30, "a number");
    double dt = steerL_optnumber(L, 1, fn, "dt", 1.0 / 60.0, 0, 1e30, "a number of seconds");
    bool opposite = true;
    if (lua_getfield(L, 1, "opposite") != LUA_TNIL) {
        if (!lua_isboolean(L, -1)) steerL_field_error(L, fn, "opposite", "a boolean", -1);
        opposite = lua_toboolean(L, -1);
    }
    if (steer_directed_seek_plan(pos, dir, speed, target, heading, r, dt, opposite, &plan) != STEER_OK)
        return luaL_error(L, "%s: the pose is out of range", fn);
    push_plan(L, &plan);
    return 1;
}

void steerL_open_craft(lua_State *L)
{
    lua_pushcfunction(L, directed_seek_plan);
    lua_setfield(L, -2, "directed_seek_plan");
}
