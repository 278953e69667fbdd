// SPDX-License-Identifier: MIT
// lagent.c — agent handles. A handle is (world, id); once the agent is
// removed every use raises, except `a.alive`, which is how a script asks.
// Its user value is the world userdata, so a live handle keeps its world.
#include "lutil.h"
#include "../behaviors/exports.h"
#include "steer_nav.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FN "steer.agent"

static int world_of(lua_State *L, int idx)
{
    lua_getiuservalue(L, idx, 1);
    return lua_gettop(L);
}

static void push_prop(lua_State *L, steerL_Agent *a, steer_Prop p)
{
    double v[3];
    steer_agent_vec(a->world->w, a->handle, p, v);
    steerL_pushvec(L, v[0], v[1], v[2]);
}

static int push_param(lua_State *L, steerL_Agent *a, steer_Param p)
{
    double v;
    steer_agent_param(a->world->w, a->handle, p, &v);
    lua_pushnumber(L, v);
    return 1;
}

// a:xy() / a:vxy(): plain numbers, the fast path for scripts (no userdata).
static int push_numbers(lua_State *L, steerL_Agent *a, steer_Prop p)
{
    double v[3];
    steer_agent_vec(a->world->w, a->handle, p, v);
    int n = a->world->dim;
    for (int i = 0; i < n; i++) lua_pushnumber(L, v[i]);
    return n;
}

static int agent_xy(lua_State *L) { return push_numbers(L, steerL_checkagent(L, 1, FN ":xy"), STEER_PROP_POSITION); }
static int agent_vxy(lua_State *L) { return push_numbers(L, steerL_checkagent(L, 1, FN ":vxy"), STEER_PROP_VELOCITY); }

static int agent_force(lua_State *L)
{
    push_prop(L, steerL_checkagent(L, 1, FN ":force"), STEER_PROP_FORCE);
    return 1;
}

static int agent_remove(lua_State *L)
{
    steerL_Agent *a = steerL_checkagent(L, 1, FN ":remove");
    steerL_check_writable(L, a->world, FN ":remove");
    steerL_check_owner(L, 1, FN ":remove");
    int w = world_of(L, 1);
    steer_remove(a->world->w, a->handle);
    steerL_forget_agent(L, w, a->handle);
    return 0;
}

// The table being filled (at `out`) and, per name, the last number used
// for it (at `used`); `work` polls a stop hook (a brain may have 60k nodes).
typedef struct Contributions {
    lua_State *L;
    int out, used;
    size_t work;
} Contributions;

static void add_contribution(void *ud, const char *name, const double f[3])
{
    Contributions *c = ud;
    lua_State *L = c->L;
    steerL_poll(L, &c->work, 1);
    // several nodes may share a name: later ones get "#2", "#3" appended.
    // Numbering goes on from the last one used for the name, so n nodes of
    // one name cost O(n), not O(n^2); a number may still be taken by a node
    // whose own name is "seek#2", hence the loop.
    lua_getfield(L, c->used, name);
    lua_Integer n = lua_tointeger(L, -1);
    lua_pop(L, 1);
    for (;;) {
        n++;
        if (n == 1) lua_pushstring(L, name);
        else
            lua_pushfstring(L, "%s#%s", name,
                            steerL_istr((char[24]){ 0 }, n)); // never cut short: a cut key could repeat forever
        lua_pushvalue(L, -1);
        if (lua_rawget(L, c->out) == LUA_TNIL) break;
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
    steerL_pushvec(L, f[0], f[1], f[2]);
    lua_rawset(L, c->out);
    lua_pushinteger(L, n);
    lua_setfield(L, c->used, name);
}

static int agent_contributions(lua_State *L)
{
    steerL_Agent *a = steerL_checkagent(L, 1, FN ":contributions");
    lua_settop(L, 1);
    lua_newtable(L);
    lua_newtable(L);
    Contributions c = { L, 2, 3, 0 };
    steer_agent_contributions(a->world->w, a->handle, add_contribution, &c);
    lua_settop(L, 2);
    return 1;
}

// a:hold_link(): inside the "link" event, the script takes over the crossing.
static int agent_hold_link(lua_State *L)
{
    steerL_Agent *a = steerL_checkagent(L, 1, FN ":hold_link");
    if (steer_agent_hold_link(a->world->w, a->handle) != STEER_OK)
        return luaL_error(L, FN ":hold_link: the agent is not at a link's start (call it from the \"link\" event)");
    return 0;
}

// a:path(): the corridor navigate follows, for drawing (nil without one).
static int agent_path(lua_State *L)
{
    steerL_Agent *a = steerL_checkagent(L, 1, FN ":path");
    double *pts = NULL;
    uint32_t n = 0;
    int r = steerB_navigate_path(a->world->w, a->handle, &pts, &n);
    if (r < 0) return luaL_error(L, FN ":path: out of memory");
    if (r == 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        steerL_pushvec(L, pts[2 * i], pts[2 * i + 1], 0.0);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    free(pts);
    return 1;
}

static const luaL_Reg agent_methods[] = {
    { "xy", agent_xy },
    { "vxy", agent_vxy },
    { "force", agent_force },
    { "remove", agent_remove },
    { "contributions", agent_contributions },
    { "path", agent_path },
    { "hold_link", agent_hold_link },
    { "slot", steerL_agent_slot },
    { NULL, NULL },
};

static int agent_index(lua_State *L)
{
    steerL_Agent *a = luaL_checkudata(L, 1, STEERL_AGENT);
    const char *k = luaL_checkstring(L, 2);
    if (strcmp(k, "alive") == 0) {
        lua_pushboolean(L, steerL_agent_alive(a));
        return 1;
    }
    if (strcmp(k, "id") == 0) {
        steerL_pushid(L, a->handle.id);
        return 1;
    }
    // methods are looked up before the liveness check so that a stale
    // handle's method call raises with the method's own message
    lua_pushvalue(L, lua_upvalueindex(1));
    if (lua_getfield(L, -1, k) != LUA_TNIL) return 1;
    lua_pop(L, 2);
    char what[64];
    snprintf(what, sizeof what, FN ".%s", k);
    steerL_checkagent(L, 1, what);
    steer_World *w = a->world->w;
    if (strcmp(k, "position") == 0) push_prop(L, a, STEER_PROP_POSITION);
    else if (strcmp(k, "velocity") == 0) push_prop(L, a, STEER_PROP_VELOCITY);
    else if (strcmp(k, "heading") == 0) push_prop(L, a, STEER_PROP_HEADING);
    else if (strcmp(k, "up") == 0) push_prop(L, a, STEER_PROP_UP);
    else if (strcmp(k, "world") == 0) lua_pushvalue(L, world_of(L, 1));
    else if (strcmp(k, "speed") == 0) {
        double v[3];
        steer_agent_vec(w, a->handle, STEER_PROP_VELOCITY, v);
        lua_pushnumber(L, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    } else if (strcmp(k, "kinematic") == 0) {
        bool on;
        steer_agent_kinematic(w, a->handle, &on);
        lua_pushboolean(L, on);
    } else if (strcmp(k, "mass") == 0) push_param(L, a, STEER_PARAM_MASS);
    else if (strcmp(k, "max_speed") == 0) push_param(L, a, STEER_PARAM_MAX_SPEED);
    else if (strcmp(k, "max_force") == 0) push_param(L, a, STEER_PARAM_MAX_FORCE);
    else if (strcmp(k, "radius") == 0) push_param(L, a, STEER_PARAM_RADIUS);
    else if (strcmp(k, "tag") == 0) {
        const char *t;
        steer_agent_tag(w, a->handle, &t);
        if (t) lua_pushstring(L, t);
        else lua_pushnil(L);
    } else if (strcmp(k, "brain") == 0) {
        steer_Behavior *b;
        steer_agent_brain(w, a->handle, &b);
        if (!b) {
            lua_pushnil(L);
            return 1;
        }
        steerL_uv_field(L, world_of(L, 1), "brains");
        lua_pushlightuserdata(L, b);
        lua_rawget(L, -2);
    } else if (strcmp(k, "target") == 0) {
        double p[3];
        steer_Agent other;
        int kind;
        steer_agent_target(w, a->handle, p, &other, &kind);
        if (kind == STEER_TARGET_POINT) steerL_pushvec(L, p[0], p[1], p[2]);
        else if (kind == STEER_TARGET_AGENT) steerL_pushagent(L, world_of(L, 1), other);
        else lua_pushnil(L);
    } else if (strcmp(k, "think") == 0) {
        steerL_uv_field(L, world_of(L, 1), "think");
        steerL_rawgetid(L, -1, a->handle.id);
    } else if (strcmp(k, "think_hz") == 0) {
        int ref;
        double hz;
        steer_agent_think(w, a->handle, &ref, &hz);
        lua_pushnumber(L, hz);
    } else if (strcmp(k, "data") == 0) {
        // created on first use, dropped when the agent is removed
        steerL_uv_field(L, world_of(L, 1), "data");
        if (steerL_rawgetid(L, -1, a->handle.id) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_newtable(L);
            lua_pushvalue(L, -1);
            steerL_rawsetid(L, -3, a->handle.id);
        }
    } else if (!steerL_agent_turn_index(L, a, k)) {
        lua_pushnil(L);
    }
    return 1;
}

static void set_param(lua_State *L, steerL_Agent *a, steer_Param p, const char *field)
{
    double v = steerL_vehicle_number(L, 3, FN, field); // the core's range too
    int st = steer_agent_set_param(a->world->w, a->handle, p, v);
    if (st != STEER_OK) luaL_error(L, "%s: field '%s': could not set it (%s)", FN, field, steerL_status_text(st));
}

static int agent_newindex(lua_State *L)
{
    const char *k = luaL_checkstring(L, 2);
    char what[64];
    snprintf(what, sizeof what, FN ".%s", k);
    steerL_Agent *a = steerL_checkagent(L, 1, what);
    steerL_check_writable(L, a->world, what);
    steerL_check_owner(L, 1, what);
    steer_World *w = a->world->w;
    if (strcmp(k, "position") == 0 || strcmp(k, "velocity") == 0 || strcmp(k, "heading") == 0) {
        double v[3];
        steerL_checkvec(L, 3, v, FN, k);
        steer_Prop p = k[0] == 'p' ? STEER_PROP_POSITION : k[0] == 'v' ? STEER_PROP_VELOCITY : STEER_PROP_HEADING;
        if (steer_agent_set_vec(w, a->handle, p, v) != STEER_OK) steerL_field_error(L, FN, k, "a non-zero vector", 3);
    } else if (strcmp(k, "kinematic") == 0) {
        if (!lua_isboolean(L, 3)) steerL_field_error(L, FN, k, "a boolean", 3);
        int st = steer_agent_set_kinematic(w, a->handle, lua_toboolean(L, 3));
        if (st != STEER_OK)
            return luaL_error(L, "%s: field 'kinematic': could not set it (%s)", FN, steerL_status_text(st));
    } else if (strcmp(k, "mass") == 0) set_param(L, a, STEER_PARAM_MASS, k);
    else if (strcmp(k, "max_speed") == 0) set_param(L, a, STEER_PARAM_MAX_SPEED, k);
    else if (strcmp(k, "max_force") == 0) set_param(L, a, STEER_PARAM_MAX_FORCE, k);
    else if (strcmp(k, "radius") == 0) set_param(L, a, STEER_PARAM_RADIUS, k);
    else if (strcmp(k, "tag") == 0) {
        if (!lua_isnil(L, 3) && lua_type(L, 3) != LUA_TSTRING) steerL_field_error(L, FN, k, "a string or nil", 3);
        int st = steer_agent_set_tag(w, a->handle, lua_tostring(L, 3));
        if (st != STEER_OK) return luaL_error(L, "%s: field 'tag': could not set it (%s)", FN, steerL_status_text(st));
    } else if (strcmp(k, "brain") == 0) {
        steer_Behavior *b = steerL_tobehavior(L, 3);
        if (!b && !lua_isnil(L, 3)) steerL_field_error(L, FN, k, "a behaviour, a combiner or nil", 3);
        int st = steer_agent_set_brain(w, a->handle, b);
        if (st != STEER_OK) steerL_brain_error(L, FN, b, st);
        if (b) {
            steerL_keep_brain(L, world_of(L, 1), 3);
            steerL_check_routes(L, world_of(L, 1), 3);
        }
    } else if (strcmp(k, "target") == 0) {
        double p[3];
        steer_Agent other;
        int has_point;
        if (!steerL_totarget(L, 3, a->world, p, &other, &has_point))
            steerL_field_error(L, FN, k, "a vector, a live agent of this world or nil", 3);
        if (other.id == a->handle.id) return luaL_error(L, "%s: field 'target': an agent cannot target itself", FN);
        int st = steer_agent_set_target(w, a->handle, has_point ? p : NULL, other);
        if (st != STEER_OK)
            return luaL_error(L, "%s: field 'target': could not set it (%s)", FN, steerL_status_text(st));
    } else if (strcmp(k, "think") == 0 || strcmp(k, "think_hz") == 0) {
        int ref;
        double hz;
        steer_agent_think(w, a->handle, &ref, &hz);
        if (hz == 0) hz = 10;
        int wi = world_of(L, 1);
        if (k[5] == 0) {
            if (!lua_isnil(L, 3) && !lua_isfunction(L, 3))
                steerL_field_error(L, FN, k, "a function(agent, dt) or nil", 3);
            steerL_set_think(L, wi, a->handle, 3, hz);
        } else {
            double v = steerL_checkrange(L, 3, FN, k, STEERL_THINK_HZ, STEERL_THINK_HZ_MIN, STEERL_THINK_HZ_MAX);
            if (!ref) return luaL_error(L, "%s: field 'think_hz': set a.think (a function) first", FN);
            steerL_uv_field(L, wi, "think");
            steerL_rawgetid(L, -1, a->handle.id);
            steerL_set_think(L, wi, a->handle, -1, v);
        }
    } else if (strcmp(k, "data") == 0) {
        if (!lua_istable(L, 3)) steerL_field_error(L, FN, k, "a table", 3);
        steerL_uv_field(L, world_of(L, 1), "data");
        lua_pushvalue(L, 3);
        steerL_rawsetid(L, -2, a->handle.id);
    } else if (!steerL_agent_turn_newindex(L, a, k)) {
        return luaL_error(L,
                          "%s: field '%s' is read-only or unknown (writable: position, velocity, heading, "
                          "kinematic, mass, max_speed, max_force, radius, tag, brain, target, data, think, think_hz, "
                          "model, min_turn_radius, min_speed, max_turn_accel)",
                          FN, k);
    }
    return 0;
}

static int agent_eq(lua_State *L)
{
    steerL_Agent *a = steerL_toagent(L, 1), *b = steerL_toagent(L, 2);
    // a revoked handle is equal to itself only (Lua asks no metamethod then)
    lua_pushboolean(L, a && b && a->handle.id == b->handle.id && a->world == b->world && !a->revoked && !b->revoked);
    return 1;
}

static int agent_tostring(lua_State *L)
{
    steerL_Agent *a = luaL_checkudata(L, 1, STEERL_AGENT);
    bool alive = steerL_agent_alive(a);
    lua_pushfstring(L, "steer.agent(%s%s)", steerL_istr((char[24]){ 0 }, steerL_lid(a->handle.id)),
                    alive ? "" : ", removed");
    return 1;
}

void steerL_open_agent(lua_State *L)
{
    static const luaL_Reg meta[] = {
        { "__newindex", agent_newindex },
        { "__eq", agent_eq },
        { "__tostring", agent_tostring },
        { NULL, NULL },
    };
    steerL_newclass(L, STEERL_AGENT, meta, agent_methods, agent_index);
}
