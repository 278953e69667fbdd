// SPDX-License-Identifier: MIT
// ldraw.c — `d`, the debug-draw recorder a scenario's draw(d, w) gets:
// d:line, d:arrow, d:circle, d:point and d:text append commands to a
// steer_DrawList (steer_draw.h) in world coordinates; the viewer renders
// the list, so this file knows nothing of SDL.
//
// Positions are two numbers x, y (2D, the short form the demos use) or one
// vector ({x, y [, z]}, steer.vec or an agent, which stands for its
// position); a colour is an optional {r, g, b [, a]} of 0..255.
#include "lutil.h"
#include "steer_draw.h"
#include "steer_lua.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STEERL_DRAW "steer.draw"

typedef struct Draw {
    steer_DrawList *list; // the host's list, or `own`
    steer_DrawList own;
} Draw;

static Draw *checkdraw(lua_State *L, const char *fn)
{
    Draw *d = luaL_testudata(L, 1, STEERL_DRAW);
    if (!d) luaL_error(L, "%s: expected to be called as d:%s(...) on a draw list", fn, fn + 2);
    return d;
}

// A position at *i (advanced past it): two numbers or one vector/agent.
static void checkpos(lua_State *L, int *i, float out[3], const char *fn, const char *what)
{
    double v[3] = { 0, 0, 0 };
    if (lua_type(L, *i) == LUA_TNUMBER) {
        v[0] = lua_tonumber(L, *i);
        if (lua_type(L, *i + 1) != LUA_TNUMBER)
            luaL_error(L, "%s: %s expected x, y numbers or a vector, got a number and %s", fn, what,
                       luaL_typename(L, *i + 1));
        v[1] = lua_tonumber(L, *i + 1);
        *i += 2;
    } else {
        steerL_Agent *a = steerL_toagent(L, *i);
        if (a && steerL_agent_alive(a)) steer_agent_vec(a->world->w, a->handle, STEER_PROP_POSITION, v);
        else if (!steerL_tovec(L, *i, v)) {
            char buf[64];
            luaL_error(L, "%s: %s expected x, y numbers, a vector ({x, y [, z]} or steer.vec) or an agent, got %s", fn,
                       what, steerL_describe(L, *i, buf, sizeof buf));
        }
        *i += 1;
    }
    for (int k = 0; k < 3; k++) {
        if (!isfinite(v[k]) || fabs(v[k]) > 3e38)
            luaL_error(L, "%s: %s expected finite coordinates, got %f", fn, what, v[k]);
        out[k] = (float)v[k];
    }
}

static float checkradius(lua_State *L, int *i, const char *fn, const char *what)
{
    int ok;
    double r = lua_tonumberx(L, *i, &ok);
    if (!ok || !isfinite(r) || r < 0 || r > 3e38) {
        char buf[64];
        luaL_error(L, "%s: %s expected a number >= 0, got %s", fn, what, steerL_describe(L, *i, buf, sizeof buf));
    }
    *i += 1;
    return (float)r;
}

// The optional colour at i: {r, g, b [, a]} of 0..255; light grey when absent.
static void optcolour(lua_State *L, int i, uint8_t rgba[4], const char *fn)
{
    static const uint8_t def[4] = { 230, 230, 230, 255 };
    for (int k = 0; k < 4; k++) rgba[k] = def[k];
    if (lua_isnoneornil(L, i)) return;
    if (!lua_istable(L, i)) goto bad;
    for (int k = 0; k < 4; k++) {
        int t = lua_rawgeti(L, i, k + 1);
        double c = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (t == LUA_TNIL && k == 3) break;
        if (t != LUA_TNUMBER || !(c >= 0 && c <= 255)) goto bad;
        rgba[k] = (uint8_t)(c + 0.5);
    }
    return;
bad:;
    char buf[64];
    luaL_error(L, "%s: the colour expected {r, g, b [, a]} with numbers 0..255, got %s", fn,
               steerL_describe(L, i, buf, sizeof buf));
}

static int push(lua_State *L, Draw *d, const steer_DrawCmd *c, const char *text, const char *fn)
{
    int st = steer_draw_push(d->list, c, text);
    if (st == STEER_ENOMEM) return luaL_error(L, "%s: out of memory", fn);
    return 0; // past STEER_DRAW_MAX the command is dropped
}

static int segment(lua_State *L, uint8_t kind, const char *fn)
{
    Draw *d = checkdraw(L, fn);
    steer_DrawCmd c = { .kind = kind };
    int i = 2;
    checkpos(L, &i, c.a, fn, "the start");
    checkpos(L, &i, c.b, fn, "the end");
    optcolour(L, i, c.rgba, fn);
    return push(L, d, &c, NULL, fn);
}

static int draw_line(lua_State *L) { return segment(L, STEER_DRAW_LINE, "d:line"); }
static int draw_arrow(lua_State *L) { return segment(L, STEER_DRAW_ARROW, "d:arrow"); }

// d:circle(centre, r [, colour]) and d:point(p [, colour]).
static int at_point(lua_State *L, uint8_t kind, const char *fn)
{
    Draw *d = checkdraw(L, fn);
    steer_DrawCmd c = { .kind = kind };
    int i = 2;
    checkpos(L, &i, c.a, fn, kind == STEER_DRAW_CIRCLE ? "the centre" : "the point");
    if (kind == STEER_DRAW_CIRCLE) c.r = checkradius(L, &i, fn, "the radius");
    optcolour(L, i, c.rgba, fn);
    return push(L, d, &c, NULL, fn);
}

static int draw_circle(lua_State *L) { return at_point(L, STEER_DRAW_CIRCLE, "d:circle"); }
static int draw_point(lua_State *L) { return at_point(L, STEER_DRAW_POINT, "d:point"); }

static int draw_text(lua_State *L)
{
    const char *fn = "d:text";
    Draw *d = checkdraw(L, fn);
    steer_DrawCmd c = { .kind = STEER_DRAW_TEXT };
    int i = 2;
    checkpos(L, &i, c.a, fn, "the position");
    if (!lua_isstring(L, i)) {
        char buf[64];
        return luaL_error(L, "%s: the text expected a string or a number, got %s", fn,
                          steerL_describe(L, i, buf, sizeof buf));
    }
    const char *s = lua_tostring(L, i);
    optcolour(L, i + 1, c.rgba, fn);
    return push(L, d, &c, s, fn);
}

static int draw_clear(lua_State *L)
{
    steer_draw_clear(checkdraw(L, "d:clear")->list);
    return 0;
}

static int draw_len(lua_State *L)
{
    lua_pushinteger(L, checkdraw(L, "d:__len")->list->n);
    return 1;
}

static void push_point(lua_State *L, const float p[3]) { steerL_pushvec(L, p[0], p[1], p[2]); }

// d:commands() -> { {kind=, a=, b=, r=, text=, colour={r,g,b,a}}, ... }:
// what was recorded, for tests and for hosts that draw it themselves.
static int draw_commands(lua_State *L)
{
    static const char *const kinds[] = { "?", "line", "arrow", "circle", "point", "text" };
    steer_DrawList *l = checkdraw(L, "d:commands")->list;
    lua_createtable(L, (int)l->n, 0);
    for (uint32_t k = 0; k < l->n; k++) {
        const steer_DrawCmd *c = &l->cmds[k];
        lua_createtable(L, 0, 5);
        lua_pushstring(L, kinds[c->kind <= STEER_DRAW_TEXT ? c->kind : 0]);
        lua_setfield(L, -2, "kind");
        push_point(L, c->a);
        lua_setfield(L, -2, "a");
        if (c->kind == STEER_DRAW_LINE || c->kind == STEER_DRAW_ARROW) {
            push_point(L, c->b);
            lua_setfield(L, -2, "b");
        }
        if (c->kind == STEER_DRAW_CIRCLE) {
            lua_pushnumber(L, c->r);
            lua_setfield(L, -2, "r");
        }
        if (c->kind == STEER_DRAW_TEXT) {
            lua_pushstring(L, l->text + c->text);
            lua_setfield(L, -2, "text");
        }
        lua_createtable(L, 4, 0);
        for (int i = 0; i < 4; i++) {
            lua_pushinteger(L, c->rgba[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "colour");
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    return 1;
}

static int draw_gc(lua_State *L)
{
    Draw *d = luaL_checkudata(L, 1, STEERL_DRAW);
    steer_draw_free(&d->own);
    return 0;
}

static Draw *newdraw(lua_State *L)
{
    Draw *d = lua_newuserdatauv(L, sizeof *d, 0);
    memset(d, 0, sizeof *d);
    d->list = &d->own;
    if (luaL_newmetatable(L, STEERL_DRAW)) {
        static const luaL_Reg meta[] = { { "__gc", draw_gc }, { "__len", draw_len }, { NULL, NULL } };
        static const luaL_Reg methods[] = {
            { "line", draw_line }, { "arrow", draw_arrow }, { "circle", draw_circle },     { "point", draw_point },
            { "text", draw_text }, { "clear", draw_clear }, { "commands", draw_commands }, { NULL, NULL },
        };
        luaL_setfuncs(L, meta, 0);
        luaL_newlib(L, methods);
        lua_setfield(L, -2, "__index");
    }
    lua_setmetatable(L, -2);
    return d;
}

// steer.debug_draw() -> a draw list of its own (what a scenario's draw gets).
int steerL_debug_draw(lua_State *L)
{
    newdraw(L);
    return 1;
}

void steer_lua_pushdraw(lua_State *L, steer_DrawList *list)
{
    if (!L) return;
    Draw *d = newdraw(L);
    d->list = list;
}
