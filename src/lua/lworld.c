// SPDX-License-Identifier: MIT
// lworld.c — steer.world{...} and its methods: one table lists every w:
// method, also those defined beside their concern (w:add_grid in lgrid.c,
// w:save and w:restore in lsnapshot.c, w:same_brain in lsnaptree.c).
//
// The world userdata's user value is a table holding what Lua must keep
// alive or find again: `data` (agent id -> the script's table), `on`
// (event name -> handler), `brains` (C behaviour -> its userdata, so brains
// in use outlive the script's variables) and `handles` (agent id -> agent
// userdata, weak, so one agent is always the same Lua value).
#include "lnav.h"
#include "lsnapshot.h"
#include "lutil.h"
#include "steer_lua.h"
#include "../behaviors/exports.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const world_fields[] = { "dim",    "size",  "origin",  "wrap",    "seed",        "dt",
                                            "record", "stuck", "collide", "threads", "path_budget", NULL };
static const char *const spawn_fields[] = { "position",       "velocity",  "mass",     "max_speed",       "max_force",
                                            "radius",         "brain",     "tag",      "model",           "target",
                                            "data",           "think",     "think_hz", "min_turn_radius", "min_speed",
                                            "max_turn_accel", "kinematic", NULL };

// ---- construction --------------------------------------------------------

static steerL_World *new_world_ud(lua_State *L);

static int world_new(lua_State *L)
{
    const char *fn = "steer.world";
    if (lua_isnoneornil(L, 1)) {
        lua_settop(L, 0);
        lua_newtable(L);
    }
    steerL_check_desc(L, 1, fn, world_fields);
    steer_WorldDesc d = { 0 };
    lua_getfield(L, 1, "dim");
    if (!lua_isnil(L, -1)) {
        if (!lua_isinteger(L, -1) || (lua_tointeger(L, -1) != 2 && lua_tointeger(L, -1) != 3))
            steerL_field_error(L, fn, "dim", "2 or 3", -1);
        d.dim = (int)lua_tointeger(L, -1);
    } else {
        d.dim = 2;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "size") != LUA_TNIL) {
        double s[3];
        steerL_checkvec(L, -1, s, fn, "size");
        for (int i = 0; i < d.dim; i++)
            if (!steerB_number_ok(s[i], 0, STEERA_PARAM_MAX)) {
                char range[128], expected[192];
                steerB_range_text(range, sizeof range, "a size (0 = an unbounded axis)", 0, STEERA_PARAM_MAX);
                snprintf(expected, sizeof expected, "a vector whose components are each %s", range);
                steerL_field_error(L, fn, "size", expected, -1);
            }
        memcpy(d.size, s, sizeof s);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "origin") != LUA_TNIL) steerL_checkvec(L, -1, d.origin, fn, "origin");
    lua_pop(L, 1);
    lua_getfield(L, 1, "wrap");
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1)) steerL_field_error(L, fn, "wrap", "a boolean", -1);
    d.wrap = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (d.wrap)
        for (int i = 0; i < d.dim; i++)
            if (d.size[i] <= 0) return luaL_error(L, "%s: field 'wrap' needs every size > 0", fn);
    lua_getfield(L, 1, "seed");
    if (!lua_isnil(L, -1)) {
        if (!lua_isinteger(L, -1)) steerL_field_error(L, fn, "seed", "an integer", -1);
        d.seed = (uint64_t)lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    // stored as a float: a tinier step would be 0
    d.dt = steerL_optnumber(L, 1, fn, "dt", 1.0 / 60.0, 1e-6, 1, "a number of seconds");
    lua_getfield(L, 1, "record");
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1)) steerL_field_error(L, fn, "record", "a boolean", -1);
    d.no_record = lua_isboolean(L, -1) && !lua_toboolean(L, -1);
    lua_pop(L, 1);

    // stuck = { window = s, progress = m } turns the progress watch on
    if (lua_getfield(L, 1, "stuck") != LUA_TNIL) {
        static const char *const stuck_fields[] = { "window", "progress", NULL };
        if (!lua_istable(L, -1))
            steerL_field_error(L, fn, "stuck", "a table { window = seconds, progress = metres }", -1);
        steerL_check_fields(L, -1, "steer.world: field 'stuck'", stuck_fields, 0);
        int t = lua_gettop(L);
        d.stuck_window =
            steerL_optnumber(L, t, "steer.world: field 'stuck'", "window", 2, 1e-6, 1e30, "a number of seconds");
        d.stuck_progress =
            steerL_optnumber(L, t, "steer.world: field 'stuck'", "progress", 0.5, 1e-6, 1e30, "a number of metres");
    }
    lua_pop(L, 1);
    // collide = true, or { iterations = n }
    if (lua_getfield(L, 1, "collide") != LUA_TNIL) {
        if (lua_isboolean(L, -1)) {
            d.collide = lua_toboolean(L, -1);
        } else if (lua_istable(L, -1)) {
            static const char *const collide_fields[] = { "iterations", NULL };
            steerL_check_fields(L, -1, "steer.world: field 'collide'", collide_fields, 0);
            lua_getfield(L, -1, "iterations");
            if (!lua_isnil(L, -1) && (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 ||
                                      lua_tointeger(L, -1) > STEER_MAX_COLLIDE_ITERATIONS))
                steerL_field_error(L, "steer.world: field 'collide'", "iterations", "an integer from 1 to 64", -1);
            d.collide = true;
            d.collide_iterations = (int)lua_tointeger(L, -1);
            lua_pop(L, 1);
        } else {
            steerL_field_error(L, fn, "collide", "a boolean or { iterations = n }", -1);
        }
    }
    lua_pop(L, 1);
    d.path_budget = (uint32_t)steerL_optnumber(L, 1, fn, "path_budget", STEER_DEFAULT_PATH_BUDGET, 1, UINT32_MAX,
                                               "an integer (path search work per tick)");
    d.threads = steerL_optthreads(L, 1, fn);

    steerL_World *lw = steerL_new_world(L, &d);
    lw->dim = d.dim;
    if (steer_world_new(&d, &lw->w) != STEER_OK) return luaL_error(L, "%s: could not create the world", fn);
    return 1;
}

steerL_World *steerL_new_world(lua_State *L, steer_WorldDesc *d)
{
    steerL_World *lw = new_world_ud(L);
    steerL_world_hooks(d, lw);
    lw->policy = steerL_policy(L); // whose rules its calls of other owners follow
    // a host (the engine) may give the allocator and log hooks its worlds use
    const steerL_Host *h = steerL_host(L);
    if (h) {
        d->alloc = h->alloc;
        d->alloc_ud = h->alloc_ud;
        d->log = h->log;
        d->log_ud = h->log_ud;
        if (!d->threads) d->threads = h->threads; // the script did not choose
        d->enqueue_task = h->enqueue_task;
        d->finish_task = h->finish_task;
        d->task_ctx = h->task_ctx;
    }
    return lw;
}

// A world userdata with its user value table, not yet holding a world.
static steerL_World *new_world_ud(lua_State *L)
{
    steerL_World *lw = lua_newuserdatauv(L, sizeof *lw, 1);
    memset(lw, 0, sizeof *lw);
    lw->alloc = steerL_allocator(L);
    luaL_setmetatable(L, STEERL_WORLD);
    lua_createtable(L, 0, 4);
    lua_newtable(L);
    lua_setfield(L, -2, "data");
    lua_newtable(L);
    lua_setfield(L, -2, "on");
    lua_newtable(L);
    lua_setfield(L, -2, "brains");
    lua_newtable(L);
    lua_setfield(L, -2, "think");
    lua_newtable(L);
    lua_setfield(L, -2, "arch"); // agent id -> archetype name
    lua_newtable(L);
    lua_setfield(L, -2, "arch_over"); // agent id -> fields given at spawn
    lua_newtable(L);
    lua_setfield(L, -2, "arch_seen"); // archetype name -> version applied
    lua_newtable(L);
    lua_setfield(L, -2, "owned"); // agent id -> true: spawned here (the policy's own_only)
    steerL_new_weak(L, "v");
    lua_setfield(L, -2, "handles");
    lua_setiuservalue(L, -2, 1);
    lw->L = L;
    return lw;
}

void steerL_check_owner(lua_State *L, int agent_idx, const char *fn)
{
    steerL_Agent *a = lua_touserdata(L, agent_idx);
    if (!a || !a->world->policy || !a->world->policy->own_only) return;
    lua_getiuservalue(L, agent_idx, 1); // the world
    steerL_uv_field(L, -1, "owned");
    int mine = steerL_rawgetid(L, -1, a->handle.id) != LUA_TNIL;
    lua_pop(L, 3);
    if (!mine) luaL_error(L, "%s: this mod may change only the agents it spawned", fn);
}

steerL_World *steerL_push_borrowed_world(lua_State *L, steer_World *w)
{
    steerL_World *lw = new_world_ud(L);
    lw->w = w;
    lw->dim = steer_world_dim(w);
    lw->borrowed = true;
    lw->policy = steerL_policy(L);
    return lw;
}

void steerL_own_agents(lua_State *L, int world_idx, const steer_Agent *agents, int n)
{
    world_idx = lua_absindex(L, world_idx);
    lua_getiuservalue(L, world_idx, 1);
    lua_createtable(L, 0, n);
    for (int i = 0; i < n; i++) {
        lua_pushboolean(L, 1);
        steerL_rawsetid(L, -2, agents[i].id);
    }
    lua_setfield(L, -2, "owned");
    lua_pop(L, 1);
}

void steerL_revoke_stale(lua_State *L, int handles, const steer_World *w, bool forget)
{
    handles = lua_absindex(L, handles);
    if (!lua_istable(L, handles)) return;
    lua_pushnil(L);
    while (lua_next(L, handles)) {
        steerL_Agent *a = steerL_toagent(L, -1);
        lua_pop(L, 1);
        // from a later state than w's: its slot's generation in w is older
        // (or w has no such slot), so w's next spawns may reissue its id
        if (!a || a->revoked ||
            (uint32_t)(a->handle.id >> 32) <= steer_agent_slot_generation(w, (uint32_t)a->handle.id))
            continue;
        a->revoked = true;
        if (!forget) continue;
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, handles); // clearing a field while traversing is allowed
    }
}

void steerL_restored(lua_State *L, int world_idx)
{
    steerL_World *lw = steerL_checkworld(L, world_idx);
    if (!lw->w) return;
    steerL_uv_field(L, world_idx, "handles");
    steerL_revoke_stale(L, -1, lw->w, true);
    lua_pop(L, 1);
    steerL_uv_field(L, world_idx, "owned");
    int owned = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, owned)) {
        lua_pop(L, 1);
        if (steer_alive(lw->w, steerL_agent_of_lid(lw->w, lua_tointeger(L, -1)))) continue;
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, owned);
    }
    lua_pop(L, 1);
}

static int world_gc(lua_State *L)
{
    steerL_World *lw = luaL_checkudata(L, 1, STEERL_WORLD);
    if (!lw->borrowed) steer_world_free(lw->w);
    lw->w = NULL;
    steerN_realloc(&lw->alloc, lw->nav.grids, sizeof *lw->nav.grids * lw->nav.cap, 0);
    steerN_realloc(&lw->alloc, lw->nav.meshes, sizeof *lw->nav.meshes * lw->nav.cap_meshes, 0);
    memset(&lw->nav, 0, sizeof lw->nav);
    return 0;
}

// ---- agents --------------------------------------------------------------

// Remember the userdata of a brain so a.brain returns it and it stays
// alive; and, for as long as the script holds it, in the state's trees
// that have been brains (STEERL_REG_BRAIN_TREES, weak keys), where a loaded
// copy of it finds it again after a restore (steerL_restored_twins).
void steerL_keep_brain(lua_State *L, int world_idx, int behavior_idx)
{
    behavior_idx = lua_absindex(L, behavior_idx);
    steerL_uv_field(L, world_idx, "brains");
    lua_pushlightuserdata(L, steerL_tobehavior(L, behavior_idx));
    lua_pushvalue(L, behavior_idx);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    steerL_weak_field(L, LUA_REGISTRYINDEX, STEERL_REG_BRAIN_TREES, "k");
    lua_pushvalue(L, behavior_idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

// Raise for a failed brain assignment with the behaviour's own reason.
void steerL_brain_error(lua_State *L, const char *fn, steer_Behavior *b, int st)
{
    if (st == STEER_EARG)
        luaL_error(L, "%s: field 'brain': %s: %s", fn, steer_behavior_name(b), steer_behavior_error(b));
    luaL_error(L, "%s: could not assign the brain (out of memory or too many brains)", fn);
}

// Read a target value (vector, agent of world lw, or nil) into point / agent.
// A handle means nothing in another world (it may even name another agent).
int steerL_totarget(lua_State *L, int idx, const steerL_World *lw, double point[3], steer_Agent *agent, int *has_point)
{
    *agent = STEER_NO_AGENT;
    *has_point = 0;
    if (lua_isnoneornil(L, idx)) return 1;
    steerL_Agent *a = steerL_toagent(L, idx);
    if (a) {
        if (a->world != lw || !steerL_agent_alive(a)) return 0;
        *agent = a->handle;
        return 1;
    }
    if (steerL_tovec(L, idx, point)) {
        *has_point = 1;
        return 1;
    }
    return 0;
}

static int world_spawn(lua_State *L)
{
    const char *fn = "steer.world:spawn";
    steerL_World *lw = steerL_checkworld(L, 1);
    steerL_check_writable(L, lw, fn);
    bool from_arch = steerL_isarchetype(L, 2);
    if (from_arch) steerL_archetype_desc(L); // 2: the merged fields, 3: the archetype, 4: the agent's own
    steerL_check_desc(L, 2, fn, spawn_fields);
    steer_AgentDesc d = { 0 };
    if (lua_getfield(L, 2, "position") != LUA_TNIL) steerL_checkvec(L, -1, d.position, fn, "position");
    if (lua_getfield(L, 2, "velocity") != LUA_TNIL) steerL_checkvec(L, -1, d.velocity, fn, "velocity");
    lua_pop(L, 2);
    steer_CraftDesc craft;
    bool turns = steerL_vehicle_desc(L, 2, fn, &d, &craft);
    // zero means default in the C descriptor: explicit zeros are set after spawning
    bool zero_speed = d.max_speed == 0, zero_force = d.max_force == 0, zero_radius = d.radius == 0;
    if (lua_getfield(L, 2, "tag") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TSTRING) steerL_field_error(L, fn, "tag", "a string", -1);
        d.tag = lua_tostring(L, -1);
    }
    if (lua_getfield(L, 2, "kinematic") != LUA_TNIL && !lua_isboolean(L, -1))
        steerL_field_error(L, fn, "kinematic", "a boolean", -1);
    d.kinematic = lua_toboolean(L, -1);
    lua_pop(L, 1);
    int brain_idx = 0;
    if (lua_getfield(L, 2, "brain") != LUA_TNIL) {
        d.brain = steerL_tobehavior(L, -1);
        if (!d.brain) steerL_field_error(L, fn, "brain", "a behaviour or combiner", -1);
        brain_idx = lua_gettop(L);
    }
    double tp[3];
    steer_Agent ta;
    int has_point;
    lua_getfield(L, 2, "target");
    if (!steerL_totarget(L, -1, lw, tp, &ta, &has_point))
        steerL_field_error(L, fn, "target", "a vector, a live agent of this world or nil", -1);
    int think_idx = 0;
    if (lua_getfield(L, 2, "think") != LUA_TNIL) {
        if (!lua_isfunction(L, -1)) steerL_field_error(L, fn, "think", "a function(agent, dt)", -1);
        think_idx = lua_gettop(L);
    }
    // the period is a float: 1 / 1e-40 would be infinite
    double think_hz =
        steerL_optnumber(L, 2, fn, "think_hz", 10, STEERL_THINK_HZ_MIN, STEERL_THINK_HZ_MAX, STEERL_THINK_HZ);
    if (!think_idx && lua_getfield(L, 2, "think_hz") != LUA_TNIL)
        return luaL_error(L, "%s: field 'think_hz' given without 'think' (a function(agent, dt))", fn);
    int data_idx = 0;
    if (lua_getfield(L, 2, "data") != LUA_TNIL) {
        if (!lua_istable(L, -1)) steerL_field_error(L, fn, "data", "a table", -1);
        data_idx = lua_gettop(L);
    }
    const steerL_Policy *policy = lw->policy;
    if (policy && policy->may_spawn && !policy->may_spawn(policy->ud))
        return luaL_error(L, "%s: this mod has reached its agent quota", fn);
    // every argument is checked: now the world may change
    steer_Agent id;
    int st = steer_spawn(lw->w, &d, &id);
    if (st == STEER_EARG && d.brain) steerL_brain_error(L, fn, d.brain, st);
    if (st != STEER_OK) return luaL_error(L, "%s: could not spawn (%s)", fn, steerL_status_text(st));
    if (zero_speed) steer_agent_set_param(lw->w, id, STEER_PARAM_MAX_SPEED, 0);
    if (zero_force) steer_agent_set_param(lw->w, id, STEER_PARAM_MAX_FORCE, 0);
    if (zero_radius) steer_agent_set_param(lw->w, id, STEER_PARAM_RADIUS, 0);
    if (turns && steer_agent_set_craft(lw->w, id, &craft) != STEER_OK) {
        steer_remove(lw->w, id);
        return luaL_error(L, "%s: could not give the agent its turn limits (out of memory)", fn);
    }
    if ((has_point || ta.id) && (st = steer_agent_set_target(lw->w, id, has_point ? tp : NULL, ta)) != STEER_OK)
        return luaL_error(L, "%s: field 'target': could not set it (%s)", fn, steerL_status_text(st));
    if (brain_idx) {
        steerL_keep_brain(L, 1, brain_idx);
        steerL_check_routes(L, 1, brain_idx);
    }
    if (think_idx) steerL_set_think(L, 1, id, think_idx, think_hz);
    if (data_idx) {
        steerL_uv_field(L, 1, "data");
        lua_pushvalue(L, data_idx);
        steerL_rawsetid(L, -2, id.id);
        lua_pop(L, 1);
    }
    if (from_arch) steerL_archetype_bind(L, 1, 3, 4, id);
    if (policy && policy->spawned) policy->spawned(policy->ud, id);
    if (policy && policy->own_only) {
        steerL_uv_field(L, 1, "owned");
        lua_pushboolean(L, 1);
        steerL_rawsetid(L, -2, id.id);
        lua_pop(L, 1);
    }
    steerL_pushagent(L, 1, id);
    return 1;
}

// Drop per-agent Lua state of agents that are gone.
void steerL_forget_agent(lua_State *L, int world_idx, steer_Agent id)
{
    static const char *const tables[] = { "data", "think", "arch", "arch_over", "owned" };
    for (int i = 0; i < 5; i++) {
        steerL_uv_field(L, world_idx, tables[i]);
        lua_pushnil(L);
        steerL_rawsetid(L, -2, id.id);
        lua_pop(L, 1);
    }
}

// ---- stepping and events -------------------------------------------------

const char *steerL_event_name(steer_EventType t)
{
    switch (t) {
    case STEER_EVENT_ARRIVE: return "arrive";
    case STEER_EVENT_LOST_TARGET: return "lost_target";
    case STEER_EVENT_STUCK: return "stuck";
    case STEER_EVENT_COLLIDE: return "collide";
    case STEER_EVENT_PATH_FOUND: return "path_found";
    case STEER_EVENT_UNREACHABLE: return "unreachable";
    case STEER_EVENT_LINK: return "link";
    }
    return "?";
}

// Called (protected) with the world as its only argument, at index 1.
static int dispatch_events(lua_State *L)
{
    steerL_World *lw = lua_touserdata(L, 1);
    int n;
    const steer_Event *ev = steer_world_events(lw->w, &n);
    if (!n) return 0;
    steerL_uv_field(L, 1, "on");
    int on = lua_gettop(L);
    for (int i = 0; i < n; i++) {
        if (lua_getfield(L, on, steerL_event_name(ev[i].type)) != LUA_TFUNCTION) {
            lua_pop(L, 1);
            continue;
        }
        if (!steer_alive(lw->w, ev[i].agent)) {
            lua_pop(L, 1);
            continue;
        }
        steerL_pushagent(L, 1, ev[i].agent);
        int nargs = 1;
        if (ev[i].type == STEER_EVENT_UNREACHABLE) { // other: the reason, not an agent
            lua_pushstring(L, steer_unreachable_text((int)ev[i].other.id));
            nargs++;
        } else if (ev[i].type == STEER_EVENT_LINK) { // other: the link's index + 1
            nargs += steerL_push_event_link(L, lw->w, ev[i].agent, ev[i].other.id);
        } else if (ev[i].other.id && steer_alive(lw->w, ev[i].other)) {
            steerL_pushagent(L, 1, ev[i].other);
            nargs++;
        }
        lua_call(L, nargs, 0);
    }
    lua_pop(L, 1);
    return 0;
}

// Unpin the brains the world at world_idx has let go of, so they can be
// collected (w:step before its ticks; the engine for a mod's world).
void steerL_unpin_brains(lua_State *L, int world_idx)
{
    steerL_World *lw = lua_touserdata(L, world_idx);
    steerL_uv_field(L, world_idx, "brains");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        if (!steer_world_uses_brain(lw->w, lua_touserdata(L, -1))) {
            lua_pushvalue(L, -1);
            lua_pushnil(L);
            lua_rawset(L, -4);
        }
    }
    lua_pop(L, 1);
}

static int world_step(lua_State *L)
{
    steerL_check_unsandboxed(L, "w:step", "the engine steps the world");
    steerL_World *lw = steerL_checkworld(L, 1);
    lua_Integer n = 1;
    if (!lua_isnoneornil(L, 2)) {
        if (!lua_isinteger(L, 2) || lua_tointeger(L, 2) < 0)
            steerL_field_error(L, "steer.world:step", NULL, "an integer >= 0 as argument 1 (ticks)", 2);
        n = lua_tointeger(L, 2);
    }
    if (lw->stepping)
        return luaL_error(L, "steer.world:step: the world is already stepping (called from a think or event callback)");
    steerL_unpin_brains(L, 1);
    steerL_rebind_archetypes(L, 1); // scripts that defined an archetype again
    for (lua_Integer i = 0; i < n; i++) {
        steerL_nav_sync_walls(L, 1, "steer.world:step"); // the walls of meshes whose obstacles changed
        lw->L = L;
        lw->cb_error[0] = 0;
        lw->stepping = true;
        int st = steer_world_step(lw->w, 1);
        lw->stepping = false;
        if (lw->cb_error[0]) return luaL_error(L, "steer.world:step: %s", lw->cb_error);
        if (st == STEER_ECALLBACK) return luaL_error(L, "steer.world:step: %s", steer_world_error(lw->w));
        if (st == STEER_ENOMEM) return luaL_error(L, "steer.world:step: out of memory");
        // handlers run under pcall so the stepping flag is reset on error
        lw->stepping = true;
        lua_pushcfunction(L, dispatch_events);
        lua_pushvalue(L, 1);
        int ev = lua_pcall(L, 1, 0, 0);
        lw->stepping = false;
        if (ev != LUA_OK) return lua_error(L);
    }
    lua_settop(L, 1);
    return 1;
}

static int world_on(lua_State *L)
{
    steerL_check_unsandboxed(L, "w:on", "events reach a mod through its on_event callback");
    steerL_checkworld(L, 1);
    static const char *const events[] = { "arrive",     "lost_target", "stuck", "collide",
                                          "path_found", "unreachable", "link",  NULL };
    const char *name = luaL_checkstring(L, 2);
    int ok = 0;
    for (int i = 0; events[i]; i++) ok |= strcmp(events[i], name) == 0;
    if (!ok)
        return luaL_error(L,
                          "steer.world:on: argument 1 (event) expected \"arrive\", \"lost_target\", \"stuck\", "
                          "\"collide\", \"path_found\", \"unreachable\" or \"link\", got \"%s\"",
                          name);
    if (!lua_isnil(L, 3) && !lua_isfunction(L, 3))
        steerL_field_error(L, "steer.world:on", NULL, "a function or nil as argument 2 (handler)", 3);
    steerL_uv_field(L, 1, "on");
    lua_pushvalue(L, 3);
    lua_setfield(L, -2, name);
    lua_settop(L, 1);
    return 1;
}

// ---- queries ---------------------------------------------------------------

static int agents_iter(lua_State *L)
{
    steerL_World *lw = lua_touserdata(L, lua_upvalueindex(1));
    steer_Agent *snap = lua_touserdata(L, lua_upvalueindex(2));
    lua_Integer n = lua_tointeger(L, lua_upvalueindex(3));
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(4));
    const char *tag = lua_tostring(L, lua_upvalueindex(5));
    for (; i < n; i++) {
        steer_Agent id = snap[i];
        if (!lw->w || !steer_alive(lw->w, id)) continue; // removed since the loop began
        if (tag) {
            const char *t;
            steer_agent_tag(lw->w, id, &t);
            if (!t || strcmp(t, tag) != 0) continue;
        }
        lua_pushinteger(L, i + 1);
        lua_replace(L, lua_upvalueindex(4));
        steerL_pushagent(L, lua_upvalueindex(1), id);
        return 1;
    }
    lua_pushinteger(L, n);
    lua_replace(L, lua_upvalueindex(4));
    return 0;
}

// for a in w:agents([tag]): iterates a snapshot of the handles taken when
// the loop starts, so spawning or removing inside the loop never skips an
// agent or visits one twice (removed ones are skipped, new ones wait).
static int world_agents(lua_State *L)
{
    steerL_World *lw = steerL_checkworld(L, 1);
    if (!lua_isnoneornil(L, 2) && lua_type(L, 2) != LUA_TSTRING)
        steerL_field_error(L, "steer.world:agents", NULL, "a tag string or nil as argument 1", 2);
    int n = steer_world_count(lw->w);
    lua_pushvalue(L, 1);
    steer_Agent *snap = lua_newuserdatauv(L, sizeof *snap * (size_t)(n ? n : 1), 0);
    steer_world_agents(lw->w, snap, n); // one pass (agent_at scans past removed agents)
    lua_pushinteger(L, n);
    lua_pushinteger(L, 0);
    if (lua_isnoneornil(L, 2)) lua_pushnil(L);
    else lua_pushvalue(L, 2);
    lua_pushcclosure(L, agents_iter, 5);
    return 1;
}

static int world_neighbors(lua_State *L)
{
    const char *fn = "steer.world:neighbors";
    steerL_World *lw = steerL_checkworld(L, 1);
    steerL_check_writable(L, lw, fn);
    double p[3];
    if (!steerL_tovec(L, 2, p)) steerL_field_error(L, fn, NULL, "a vector as argument 1 (position)", 2);
    int ok;
    double r = lua_tonumberx(L, 3, &ok);
    if (!ok || !isfinite(r) || r < 0) steerL_field_error(L, fn, NULL, "a number >= 0 as argument 2 (radius)", 3);
    const char *tag = NULL;
    if (!lua_isnoneornil(L, 4)) {
        if (lua_type(L, 4) != LUA_TSTRING) steerL_field_error(L, fn, NULL, "a tag string or nil as argument 3", 4);
        tag = lua_tostring(L, 4);
    }
    int n = steer_world_neighbors(lw->w, p, r, tag, true, NULL, 0);
    if (n < 0) return luaL_error(L, "%s: failed (error %d)", fn, n);
    steer_Agent *out = lua_newuserdatauv(L, sizeof *out * (size_t)(n ? n : 1), 0);
    n = steer_world_neighbors(lw->w, p, r, tag, true, out, n);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        steerL_pushagent(L, 1, out[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int world_hash(lua_State *L)
{
    steerL_World *lw = steerL_checkworld(L, 1);
    char buf[32];
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)steer_world_hash(lw->w));
    lua_pushstring(L, buf);
    return 1;
}

static int world_bytes(lua_State *L)
{
    steerL_World *lw = steerL_checkworld(L, 1);
    lua_pushinteger(L, (lua_Integer)steer_world_bytes(lw->w));
    lua_pushinteger(L, (lua_Integer)steer_world_brain_bytes(lw->w));
    return 2;
}

// ---- static geometry ------------------------------------------------------

static const char *const obstacle_fields[] = { "position", "radius", NULL };
static const char *const wall_fields[] = { "from", "to", NULL };
static const char *const plane_fields[] = { "point", "normal", NULL };
static const char *const box_fields[] = { "min", "max", NULL };

static void desc_vec(lua_State *L, const char *fn, const char *field, double out[3])
{
    lua_getfield(L, 2, field);
    steerL_checkvec(L, -1, out, fn, field);
    lua_pop(L, 1);
}

// Shapes are named by integer ids (handles with generations).
static int push_shape(lua_State *L, const char *fn, int st, steer_Shape id)
{
    if (st == STEER_ENOMEM) return luaL_error(L, "%s: out of memory", fn);
    if (st != STEER_OK) return luaL_error(L, "%s: invalid shape", fn);
    steerL_pushid(L, id.id);
    return 1;
}

static int world_add_obstacle(lua_State *L)
{
    steerL_check_unsandboxed(L, "w:add_obstacle", "the static geometry belongs to the game");
    const char *fn = "steer.world:add_obstacle";
    steerL_World *lw = steerL_checkworld(L, 1);
    steerL_check_writable(L, lw, fn);
    steerL_check_desc(L, 2, fn, obstacle_fields);
    double c[3];
    desc_vec(L, fn, "position", c);
    lua_getfield(L, 2, "radius");
    double r = steerL_checkrange(L, -1, fn, "radius", "a number of metres", 1e-6, 1e30);
    steer_Shape id;
    int st = steer_add_circle(lw->w, c, r, &id);
    return push_shape(L, fn, st, id);
}

static int world_add_wall(lua_State *L)
{
    steerL_check_unsandboxed(L, "w:add_wall", "the static geometry belongs to the game");
    const char *fn = "steer.world:add_wall";
    steerL_World *lw = steerL_checkworld(L, 1);
    steerL_check_writable(L, lw, fn);
    if (lw->dim != 2) return luaL_error(L, "%s: walls are segments of 2D worlds; use add_plane or add_box in 3D", fn);
    steerL_check_desc(L, 2, fn, wall_fields);
    double a[3], b[3];
    desc_vec(L, fn, "from", a);
    desc_vec(L, fn, "to", b);
    steer_Shape id;
    int st = steer_add_wall(lw->w, a, b, &id);
    if (st == STEER_EARG) // the points as stored (floats): apart, and their distance squared a float
        return luaL_error(L, "%s: fields 'from' and 'to' expected two different points less than 1.8e19 apart", fn);
    return push_shape(L, fn, st, id);
}

static int world_add_plane(lua_State *L)
{
    steerL_check_unsandboxed(L, "w:add_plane", "the static geometry belongs to the game");
    const char *fn = "steer.world:add_plane";
    steerL_World *lw = steerL_checkworld(L, 1);
    steerL_check_writable(L, lw, fn);
    if (lw->dim != 3) return luaL_error(L, "%s: planes are for 3D worlds; use add_wall in 2D", fn);
    steerL_check_desc(L, 2, fn, plane_fields);
    double p[3], n[3];
    desc_vec(L, fn, "point", p);
    desc_vec(L, fn, "normal", n);
    if (n[0] == 0 && n[1] == 0 && n[2] == 0) {
        lua_getfield(L, 2, "normal");
        steerL_field_error(L, fn, "normal", "a non-zero vector", -1);
    }
    steer_Shape id;
    int st = steer_add_plane(lw->w, p, n, &id);
    return push_shape(L, fn, st, id);
}

static int world_add_box(lua_State *L)
{
    steerL_check_unsandboxed(L, "w:add_box", "the static geometry belongs to the game");
    const char *fn = "steer.world:add_box";
    steerL_World *lw = steerL_checkworld(L, 1);
    steerL_check_writable(L, lw, fn);
    steerL_check_desc(L, 2, fn, box_fields);
    double lo[3], hi[3];
    desc_vec(L, fn, "min", lo);
    desc_vec(L, fn, "max", hi);
    for (int i = 0; i < lw->dim; i++)
        if (!(lo[i] < hi[i])) return luaL_error(L, "%s: field 'max' expected every component above 'min'", fn);
    steer_Shape id;
    int st = steer_add_box(lw->w, lo, hi, &id);
    return push_shape(L, fn, st, id);
}

static int world_remove_shape(lua_State *L)
{
    steerL_check_unsandboxed(L, "w:remove_shape", "the static geometry belongs to the game");
    steerL_World *lw = steerL_checkworld(L, 1);
    steerL_check_writable(L, lw, "steer.world:remove_shape");
    if (!lua_isinteger(L, 2)) steerL_field_error(L, "steer.world:remove_shape", NULL, "a shape id as argument 1", 2);
    int st = steer_remove_shape(lw->w, steerL_shape_of_lid(lw->w, lua_tointeger(L, 2)));
    if (st == STEER_ESTALE) return luaL_error(L, "steer.world:remove_shape: no such shape (already removed?)");
    if (st != STEER_OK) return luaL_error(L, "steer.world:remove_shape: cannot remove a shape during a tick");
    return 0;
}

// w:raycast(origin, direction, length [, { agents = true, shapes = true, ignore = agent }])
static int world_raycast(lua_State *L)
{
    const char *fn = "steer.world:raycast";
    steerL_World *lw = steerL_checkworld(L, 1);
    steerL_check_writable(L, lw, fn);
    double o[3], d[3];
    if (!steerL_tovec(L, 2, o)) steerL_field_error(L, fn, NULL, "a vector as argument 1 (origin)", 2);
    if (!steerL_tovec(L, 3, d) || (d[0] == 0 && d[1] == 0 && d[2] == 0))
        steerL_field_error(L, fn, NULL, "a non-zero vector as argument 2 (direction)", 3);
    int ok;
    double len = lua_tonumberx(L, 4, &ok);
    if (!ok || !(len >= 0 && len <= 3.4e38))
        steerL_field_error(L, fn, NULL, "a number >= 0 and <= 3.4e38 as argument 3 (length)", 4);
    unsigned mask = STEER_RAY_ALL;
    steer_Agent ignore = STEER_NO_AGENT;
    if (!lua_isnoneornil(L, 5)) {
        static const char *const opts[] = { "agents", "shapes", "ignore", NULL };
        if (!lua_istable(L, 5)) steerL_field_error(L, fn, NULL, "an options table or nil as argument 4", 5);
        steerL_check_fields(L, 5, fn, opts, 0);
        if (lua_getfield(L, 5, "agents") != LUA_TNIL && !lua_toboolean(L, -1)) mask &= ~(unsigned)STEER_RAY_AGENTS;
        if (lua_getfield(L, 5, "shapes") != LUA_TNIL && !lua_toboolean(L, -1)) mask &= ~(unsigned)STEER_RAY_SHAPES;
        if (lua_getfield(L, 5, "ignore") != LUA_TNIL) {
            steerL_Agent *a = steerL_toagent(L, -1);
            if (!a || a->world != lw) steerL_field_error(L, fn, "ignore", "an agent of this world", -1);
            ignore = steerL_agent_handle(a);
        }
        lua_pop(L, 3);
    }
    steer_Hit hit;
    int st = steer_raycast(lw->w, o, d, len, mask, ignore, &hit);
    if (st < 0) return luaL_error(L, "%s: failed (error %d)", fn, st);
    if (st == 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 5);
    steerL_pushvec(L, hit.point[0], hit.point[1], hit.point[2]);
    lua_setfield(L, -2, "point");
    steerL_pushvec(L, hit.normal[0], hit.normal[1], hit.normal[2]);
    lua_setfield(L, -2, "normal");
    lua_pushnumber(L, hit.distance);
    lua_setfield(L, -2, "distance");
    if (hit.agent.id) {
        steerL_pushagent(L, 1, hit.agent);
        lua_setfield(L, -2, "agent");
    }
    if (hit.shape.id) {
        steerL_pushid(L, hit.shape.id);
        lua_setfield(L, -2, "shape");
    }
    return 1;
}

// Every w: method, those defined beside their concern too (lutil.h).
static const luaL_Reg world_methods[] = {
    { "add_obstacle", world_add_obstacle },
    { "add_wall", world_add_wall },
    { "add_plane", world_add_plane },
    { "add_box", world_add_box },
    { "remove_shape", world_remove_shape },
    { "raycast", world_raycast },
    { "step", world_step },
    { "spawn", world_spawn },
    { "agents", world_agents },
    { "neighbors", world_neighbors },
    { "hash", world_hash },
    { "on", world_on },
    { "bytes", world_bytes },
    { "add_grid", steerL_world_add_grid },
    { "add_navmesh", steerL_world_add_navmesh },
    { "formations", steerL_world_formations },
    { "save", steerL_world_save },
    { "restore", steerL_world_restore },
    { "same_brain", steerL_world_same_brain },
    { NULL, NULL },
};

static int world_index(lua_State *L)
{
    steerL_World *lw = steerL_checkworld(L, 1);
    const char *k = lua_tostring(L, 2);
    if (!k) return 0;
    if (strcmp(k, "tick") == 0) lua_pushinteger(L, (lua_Integer)steer_world_tick(lw->w));
    else if (strcmp(k, "time") == 0) lua_pushnumber(L, (double)steer_world_tick(lw->w) * steer_world_dt(lw->w));
    else if (strcmp(k, "dt") == 0) lua_pushnumber(L, steer_world_dt(lw->w));
    else if (strcmp(k, "dim") == 0) lua_pushinteger(L, lw->dim);
    else if (strcmp(k, "seed") == 0) lua_pushinteger(L, (lua_Integer)steer_world_seed(lw->w));
    else if (strcmp(k, "count") == 0) lua_pushinteger(L, steer_world_count(lw->w));
    else if (strcmp(k, "record") == 0) lua_pushboolean(L, steer_world_record(lw->w));
    else if (strcmp(k, "threads") == 0) lua_pushinteger(L, steer_world_threads(lw->w));
    else if (strcmp(k, "path_budget") == 0) lua_pushinteger(L, (lua_Integer)steer_world_path_budget(lw->w));
    else if (strcmp(k, "mouse") == 0) {
        lua_getiuservalue(L, 1, 1); // set by the viewer (steer_lua_set_mouse)
        lua_getfield(L, -1, "mouse");
    } else {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int world_newindex(lua_State *L)
{
    steerL_World *lw = steerL_checkworld(L, 1);
    const char *k = luaL_checkstring(L, 2);
    steerL_check_writable(L, lw, "steer.world");
    if (strcmp(k, "record") == 0) {
        steerL_check_unsandboxed(L, "w.record", "the world's settings belong to the game");
        if (!lua_isboolean(L, 3)) steerL_field_error(L, "steer.world", "record", "a boolean", 3);
        if (steer_world_set_record(lw->w, lua_toboolean(L, 3)) != STEER_OK)
            return luaL_error(L, "steer.world: field 'record': out of memory for the record buffer");
        return 0;
    }
    if (strcmp(k, "threads") == 0) {
        steerL_check_unsandboxed(L, "w.threads", "the world's settings belong to the game");
        int st = steer_world_set_threads(lw->w, steerL_checkthreads(L, 3, "steer.world", "threads"));
        if (st != STEER_OK)
            return luaL_error(L, "steer.world: field 'threads': could not set it (%s)", steerL_status_text(st));
        return 0;
    }
    if (strcmp(k, "path_budget") == 0) {
        steerL_check_unsandboxed(L, "w.path_budget", "the world's settings belong to the game");
        if (!lua_isinteger(L, 3) || lua_tointeger(L, 3) < 1 || lua_tointeger(L, 3) > (lua_Integer)UINT32_MAX)
            steerL_field_error(L, "steer.world", "path_budget", "an integer from 1 to 4294967295", 3);
        steer_world_set_path_budget(lw->w, (uint32_t)lua_tointeger(L, 3));
        return 0;
    }
    return luaL_error(L, "steer.world: field '%s' is read-only or unknown (writable: record, threads, path_budget)", k);
}

static int world_tostring(lua_State *L)
{
    steerL_World *lw = steerL_checkworld(L, 1);
    lua_pushfstring(L, "steer.world(dim=%d, agents=%d, tick=%s)", lw->dim, steer_world_count(lw->w),
                    steerL_istr((char[24]){ 0 }, (lua_Integer)steer_world_tick(lw->w)));
    return 1;
}

void steerL_open_world(lua_State *L)
{
    static const luaL_Reg meta[] = {
        { "__gc", world_gc },
        { "__tostring", world_tostring },
        { "__newindex", world_newindex },
        { NULL, NULL },
    };
    steerL_newclass(L, STEERL_WORLD, meta, world_methods, world_index);
    lua_pushcfunction(L, world_new);
    lua_setfield(L, -2, "world");
}

// ---- for a host that shows the world ---------------------------------------

steer_World *steer_lua_toworld(lua_State *L, int idx)
{
    if (!L) return NULL;
    steerL_World *lw = luaL_testudata(L, idx, STEERL_WORLD);
    return lw ? lw->w : NULL;
}

const struct steerN_Layers *steer_lua_nav(lua_State *L, int idx)
{
    if (!L) return NULL;
    steerL_World *lw = luaL_testudata(L, idx, STEERL_WORLD);
    return lw ? &lw->nav : NULL;
}

void steer_lua_set_mouse(lua_State *L, int world_idx, const double *pos)
{
    if (!L) return;
    world_idx = lua_absindex(L, world_idx);
    lua_getiuservalue(L, world_idx, 1);
    if (pos) steerL_pushvec(L, pos[0], pos[1], pos[2]);
    else lua_pushnil(L);
    lua_setfield(L, -2, "mouse");
    lua_pop(L, 1);
}
