// SPDX-License-Identifier: MIT
// lvec.c — steer.vec: an immutable 2D/3D vector value for scripts.
// Convenient, but each operation allocates a userdata (~450 ns); hot script
// paths should use agent:xy() and plain numbers instead.
#include "lutil.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    double v[3];
} Vec;

static Vec *checkv(lua_State *L, int idx) { return luaL_checkudata(L, idx, STEERL_VEC); }

// Either operand may be a table {x, y [, z]}.
static void operand(lua_State *L, int idx, double out[3], const char *op)
{
    if (!steerL_tovec(L, idx, out)) {
        char buf[64];
        luaL_error(L, "steer.vec %s: expected a vector, got %s", op, steerL_describe(L, idx, buf, sizeof buf));
    }
}

static int finite_num(lua_State *L, int idx, const char *fn)
{
    int ok;
    double v = lua_tonumberx(L, idx, &ok);
    if (!ok || !isfinite(v)) {
        char buf[64];
        return luaL_error(L, "%s: expected a finite number, got %s", fn, steerL_describe(L, idx, buf, sizeof buf));
    }
    return 0;
}

static int vec_new(lua_State *L)
{
    double v[3] = { 0, 0, 0 };
    if (lua_istable(L, 1) || luaL_testudata(L, 1, STEERL_VEC)) {
        steerL_checkvec(L, 1, v, "steer.vec", NULL);
    } else {
        const char *names[3] = { "x", "y", "z" };
        for (int i = 0; i < 3; i++) {
            if (i == 2 && lua_isnoneornil(L, 3)) break;
            int ok;
            v[i] = lua_tonumberx(L, i + 1, &ok);
            if (!ok || !isfinite(v[i])) {
                char buf[64];
                return luaL_error(L, "steer.vec: argument %d (%s) expected a finite number, got %s", i + 1, names[i],
                                  steerL_describe(L, i + 1, buf, sizeof buf));
            }
        }
    }
    steerL_pushvec(L, v[0], v[1], v[2]);
    return 1;
}

static int vec_add(lua_State *L)
{
    double a[3], b[3];
    operand(L, 1, a, "+");
    operand(L, 2, b, "+");
    steerL_pushvec(L, a[0] + b[0], a[1] + b[1], a[2] + b[2]);
    return 1;
}

static int vec_sub(lua_State *L)
{
    double a[3], b[3];
    operand(L, 1, a, "-");
    operand(L, 2, b, "-");
    steerL_pushvec(L, a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    return 1;
}

static int vec_mul(lua_State *L)
{
    double a[3], s;
    if (lua_type(L, 1) == LUA_TNUMBER) {
        finite_num(L, 1, "steer.vec *");
        s = lua_tonumber(L, 1);
        operand(L, 2, a, "*");
    } else {
        operand(L, 1, a, "*");
        finite_num(L, 2, "steer.vec *");
        s = lua_tonumber(L, 2);
    }
    steerL_pushvec(L, a[0] * s, a[1] * s, a[2] * s);
    return 1;
}

static int vec_div(lua_State *L)
{
    double a[3];
    operand(L, 1, a, "/");
    finite_num(L, 2, "steer.vec /");
    double s = lua_tonumber(L, 2);
    if (s == 0) return luaL_error(L, "steer.vec /: division by zero");
    steerL_pushvec(L, a[0] / s, a[1] / s, a[2] / s);
    return 1;
}

static int vec_unm(lua_State *L)
{
    Vec *a = checkv(L, 1);
    steerL_pushvec(L, -a->v[0], -a->v[1], -a->v[2]);
    return 1;
}

static int vec_eq(lua_State *L)
{
    double a[3], b[3];
    lua_pushboolean(L, steerL_tovec(L, 1, a) && steerL_tovec(L, 2, b) && a[0] == b[0] && a[1] == b[1] && a[2] == b[2]);
    return 1;
}

static double len2(const double *v) { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2]; }

static int vec_len(lua_State *L)
{
    lua_pushnumber(L, sqrt(len2(checkv(L, 1)->v)));
    return 1;
}
static int vec_len2(lua_State *L)
{
    lua_pushnumber(L, len2(checkv(L, 1)->v));
    return 1;
}

static int vec_normalized(lua_State *L)
{
    Vec *a = checkv(L, 1);
    double l = sqrt(len2(a->v));
    if (l == 0) steerL_pushvec(L, 0, 0, 0); // the zero vector stays zero, never NaN
    else steerL_pushvec(L, a->v[0] / l, a->v[1] / l, a->v[2] / l);
    return 1;
}

static int vec_dot(lua_State *L)
{
    double a[3], b[3];
    operand(L, 1, a, "dot");
    operand(L, 2, b, "dot");
    lua_pushnumber(L, a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
    return 1;
}

static int vec_cross(lua_State *L)
{
    double a[3], b[3];
    operand(L, 1, a, "cross");
    operand(L, 2, b, "cross");
    steerL_pushvec(L, a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
    return 1;
}

static int vec_dist(lua_State *L)
{
    double a[3], b[3];
    operand(L, 1, a, "dist");
    operand(L, 2, b, "dist");
    double d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
    lua_pushnumber(L, sqrt(len2(d)));
    return 1;
}

static int vec_truncated(lua_State *L)
{
    Vec *a = checkv(L, 1);
    double max = luaL_checknumber(L, 2);
    if (!isfinite(max) || max < 0) {
        char buf[64];
        return luaL_error(L, "steer.vec truncated: argument 1 (max) expected a number >= 0, got %s",
                          steerL_describe(L, 2, buf, sizeof buf));
    }
    double l = sqrt(len2(a->v)), s = l > max ? max / l : 1.0;
    steerL_pushvec(L, a->v[0] * s, a->v[1] * s, a->v[2] * s);
    return 1;
}

static int vec_unpack(lua_State *L)
{
    Vec *a = checkv(L, 1);
    lua_pushnumber(L, a->v[0]);
    lua_pushnumber(L, a->v[1]);
    lua_pushnumber(L, a->v[2]);
    return 3;
}

static int vec_tostring(lua_State *L)
{
    Vec *a = checkv(L, 1);
    char buf[128];
    if (a->v[2] == 0) snprintf(buf, sizeof buf, "vec(%.6g, %.6g)", a->v[0], a->v[1]);
    else snprintf(buf, sizeof buf, "vec(%.6g, %.6g, %.6g)", a->v[0], a->v[1], a->v[2]);
    lua_pushstring(L, buf);
    return 1;
}

static const luaL_Reg methods[] = {
    { "len", vec_len },     { "len2", vec_len2 }, { "normalized", vec_normalized }, { "dot", vec_dot },
    { "cross", vec_cross }, { "dist", vec_dist }, { "truncated", vec_truncated },   { "unpack", vec_unpack },
    { NULL, NULL },
};

static int vec_index(lua_State *L)
{
    Vec *a = checkv(L, 1);
    const char *k = lua_tostring(L, 2);
    if (k && k[0] && !k[1] && k[0] >= 'x' && k[0] <= 'z') {
        lua_pushnumber(L, a->v[k[0] - 'x']);
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    return 1;
}

static int vec_newindex(lua_State *L)
{
    return luaL_error(L, "steer.vec: vectors are immutable; make a new one with steer.vec(x, y [, z])");
}

static const luaL_Reg metamethods[] = {
    { "__add", vec_add },           { "__sub", vec_sub }, { "__mul", vec_mul }, { "__div", vec_div },
    { "__unm", vec_unm },           { "__eq", vec_eq },   { "__len", vec_len }, { "__tostring", vec_tostring },
    { "__newindex", vec_newindex }, { NULL, NULL },
};

void steerL_open_vec(lua_State *L)
{
    steerL_newclass(L, STEERL_VEC, metamethods, methods, vec_index);
    lua_pushcfunction(L, vec_new);
    lua_setfield(L, -2, "vec");
}
