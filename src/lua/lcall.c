// SPDX-License-Identifier: MIT
// lcall.c — per-agent Lua: a world's think, steer.custom and ease
// functions, called by the core during a tick through the world's hooks.
//
// A call runs protected and never raises into the tick: its first failure
// is recorded (cb_error) and w:step raises it once the tick is over, so the
// world is never left half-updated. A function of another Lua state (a
// mod's) carries its owner in its reference (lpolicy.h) and is handed to
// the policy of the state that made the world, which runs it there.
#include "lutil.h"
#include "lsnapshot.h"

#include <math.h>
#include <stdio.h>

// Record the first callback failure of a step; the step raises it after
// the tick has finished, so the world is never left half-updated.
static void cb_fail(steerL_World *lw, const char *what, const char *msg)
{
    if (!lw->cb_error[0]) snprintf(lw->cb_error, sizeof lw->cb_error, "%s: %s", what, msg);
}

static int tostring_any(lua_State *L)
{
    luaL_tolstring(L, 1, NULL);
    return 1;
}

// The text of the error object on top, which it replaces: a string as it
// is, anything else through luaL_tolstring (its __tostring), run protected
// so a failing __tostring cannot escape into the tick. Never NULL.
static const char *error_text(lua_State *L)
{
    if (lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1);
    lua_pushcfunction(L, tostring_any);
    lua_insert(L, -2);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK || !lua_isstring(L, -1)) {
        lua_pop(L, 1);
        lua_pushliteral(L, "(an error object with no text)");
    }
    return lua_tostring(L, -1);
}

int steerL_run_ease(steerL_World *lw, int ref, double x, double *out)
{
    lua_State *L = lw->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_pushnumber(L, x);
    lw->in_pass = true;
    int r = lua_pcall(L, 1, 1, 0);
    lw->in_pass = false;
    if (r != LUA_OK) {
        cb_fail(lw, "steer.arrive ease function", error_text(L));
        lua_pop(L, 1);
        return 1;
    }
    int ok;
    *out = lua_tonumberx(L, -1, &ok);
    if (!ok || !isfinite(*out)) {
        char buf[64];
        char msg[128];
        snprintf(msg, sizeof msg, "expected to return a finite number, returned %s",
                 steerL_describe(L, -1, buf, sizeof buf));
        cb_fail(lw, "steer.arrive ease function", msg);
        lua_pop(L, 1);
        return 1;
    }
    lua_pop(L, 1);
    return 0;
}

// Building an agent's userdata for a callback may raise (out of memory):
// it happens inside the callback's own protected call, so no error can
// escape into the core's tick and leave the world flagged busy for good.
// Arguments: the world, the function (or its think key), the agent id, dt.
static int call_custom(lua_State *L)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, (int)lua_tointeger(L, 2));
    steerL_pushagent(L, 1, steerL_agent_of_lid(steerL_checkworld(L, 1)->w, lua_tointeger(L, 3)));
    lua_pushvalue(L, 4);
    lua_call(L, 2, 3);
    return 3;
}

static int call_think(lua_State *L)
{
    steerL_uv_field(L, 1, "think");
    steer_Agent a = steerL_agent_of_lid(steerL_checkworld(L, 1)->w, lua_tointeger(L, 3));
    steerL_rawgetid(L, -1, a.id);
    if (!lua_isfunction(L, -1)) return 0;
    steerL_pushagent(L, 1, a);
    lua_pushvalue(L, 4);
    lua_call(L, 2, 0);
    return 0;
}

// Push a protected call's function and arguments; these pushes allocate
// nothing once the stack has room (lua_checkstack does not raise).
static bool push_call(lua_State *L, lua_CFunction fn, lua_Integer key, steer_Agent a, double dt)
{
    if (!lua_checkstack(L, 8)) return false;
    lua_pushcfunction(L, fn);
    lua_pushvalue(L, 1); // w:step keeps the world at stack index 1 while the tick runs
    lua_pushinteger(L, key);
    steerL_pushid(L, a.id);
    lua_pushnumber(L, dt);
    return true;
}

// steer.custom: fn(agent, dt) -> fx, fy [, fz], once per agent per tick.
// The slow path: a protected call into Lua for every agent that runs it.
int steerL_run_custom(steerL_World *lw, int ref, steer_Agent a, double dt, double out[3])
{
    lua_State *L = lw->L;
    int top = lua_gettop(L);
    if (!push_call(L, call_custom, ref, a, dt)) {
        cb_fail(lw, "steer.custom function", "out of Lua stack");
        return 1;
    }
    lw->in_pass = true;
    int r = lua_pcall(L, 4, 3, 0);
    lw->in_pass = false;
    if (r != LUA_OK) {
        cb_fail(lw, "steer.custom function", error_text(L));
        lua_settop(L, top);
        return 1;
    }
    int n = lw->dim;
    for (int i = 0; i < 3; i++) {
        int ok = 1;
        out[i] = 0;
        if (i < n && !(i == 2 && lua_isnil(L, top + 3))) out[i] = lua_tonumberx(L, top + 1 + i, &ok);
        if (!ok || !isfinite(out[i])) {
            char buf[64], msg[160];
            snprintf(msg, sizeof msg, "expected to return %s finite numbers (fx, fy%s), return value %d is %s",
                     n == 3 ? "two or three" : "two", n == 3 ? " [, fz]" : "", i + 1,
                     steerL_describe(L, top + 1 + i, buf, sizeof buf));
            cb_fail(lw, "steer.custom function", msg);
            lua_settop(L, top);
            return 1;
        }
    }
    lua_settop(L, top);
    return 0;
}

// think(agent, dt): the function lives in the world's `think` table under
// the agent's id (the C side only needs a nonzero ref). w:step keeps the
// world userdata at stack index 1 while the tick runs.
int steerL_run_think(steerL_World *lw, steer_Agent a, double dt)
{
    lua_State *L = lw->L;
    if (!push_call(L, call_think, 0, a, dt)) {
        cb_fail(lw, "think", "out of Lua stack");
        return 1;
    }
    if (lua_pcall(L, 4, 0, 0) != LUA_OK) {
        cb_fail(lw, "think", error_text(L));
        lua_pop(L, 1);
        return 1;
    }
    return 0;
}

// The world's hooks: its own state's calls, or another state's (a mod's,
// its owner in the reference) through the policy of the state that made
// the world (lpolicy.h). Without one (a world loaded from an engine's
// snapshot by a plain Lua) another state's function is not here: it gives
// nothing, as the policy does for a mod that is gone (no think, no force,
// no easing).
static int hook_think(void *ud, int ref, steer_World *w, steer_Agent a, double dt)
{
    steerL_World *lw = ud;
    if (ref <= 1) return steerL_run_think(lw, a, dt);
    const steerL_Policy *p = lw->policy;
    return p && p->think ? p->think(p->ud, ref - 1, w, a, dt) : 0;
}

static int hook_custom(void *ud, int ref, steer_World *w, steer_Agent a, double dt, double out[3])
{
    steerL_World *lw = ud;
    int owner = ref >> STEERL_OWNER_SHIFT, local = ref & ((1 << STEERL_OWNER_SHIFT) - 1);
    if (!owner) return steerL_run_custom(lw, ref, a, dt, out);
    const steerL_Policy *p = lw->policy;
    return p && p->custom ? p->custom(p->ud, owner, local, w, a, dt, out) : 1;
}

static int hook_ease(void *ud, int ref, double x, double *out)
{
    steerL_World *lw = ud;
    int owner = ref >> STEERL_OWNER_SHIFT, local = ref & ((1 << STEERL_OWNER_SHIFT) - 1);
    if (!owner) return steerL_run_ease(lw, ref, x, out);
    const steerL_Policy *p = lw->policy;
    return p && p->ease ? p->ease(p->ud, owner, local, lw->w, x, out) : 1;
}

void steerL_world_hooks(steer_WorldDesc *d, steerL_World *lw)
{
    d->hooks.ud = lw;
    d->hooks.ease = hook_ease;
    d->hooks.think = hook_think;
    d->hooks.custom = hook_custom;
    d->hooks.save_ref = steerL_hook_save_ref; // lsnapshot.c
    d->hooks.load_ref = steerL_hook_load_ref;
}

int steerL_owner(lua_State *L)
{
    const steerL_Policy *p = steerL_policy(L);
    return p ? p->owner : 0;
}

int steerL_callback_ref(lua_State *L, int idx, const char *fn)
{
    lua_pushvalue(L, idx);
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    if (ref >= 1 << STEERL_OWNER_SHIFT) {
        luaL_unref(L, LUA_REGISTRYINDEX, ref);
        luaL_error(L, "%s: too many Lua functions held by behaviours (at most %d)", fn, 1 << STEERL_OWNER_SHIFT);
    }
    return steerL_owner(L) << STEERL_OWNER_SHIFT | ref;
}

// Give an agent a think function at hz (nil stops it). A mod's thinks run
// in the mod's state (its owner in the reference).
void steerL_set_think(lua_State *L, int world_idx, steer_Agent id, int fn_idx, double hz)
{
    steerL_World *lw = lua_touserdata(L, world_idx);
    fn_idx = lua_absindex(L, fn_idx);
    steerL_uv_field(L, world_idx, "think");
    lua_pushvalue(L, fn_idx);
    steerL_rawsetid(L, -2, id.id);
    lua_pop(L, 1);
    int st = steer_agent_set_think(lw->w, id, lua_isfunction(L, fn_idx) ? steerL_owner(L) + 1 : 0, hz);
    if (st != STEER_OK) luaL_error(L, "steer.agent: field 'think': could not set it (%s)", steerL_status_text(st));
}
