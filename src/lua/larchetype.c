// SPDX-License-Identifier: MIT
// larchetype.c — steer.archetype: a named kind of agent (vehicle
// parameters, a brain, a think function) that agents are spawned from and
// stay bound to by name.
//
// Every steer.archetype{ name = N, ... } call registers the new definition
// under N in the Lua state (the registry table "steer.archetypes"), with a
// version taken from one counter. A world remembers, per agent, the name of
// the archetype it was spawned from and, per name, the version it last
// applied. At the start of w:step it compares those versions with the
// registry (one table lookup per archetype name the world uses, nothing
// per agent), and when a script has defined N again — a hot reload runs
// the scenario file anew — every agent of N gets the new vehicle parameters,
// brain and think function before the tick. Values an agent was given at
// spawn (`w:spawn(arch, { max_speed = 3 })`) stay its own. An archetype
// without a brain leaves brains to its think (action selection that switches
// brains): a rebind keeps the agent's current brain.
#include "lutil.h"

#include <string.h>

#define REG_ARCHETYPES "steer.archetypes"
#define REG_VERSION "steer.archetype_version"

// Fields of the spawn descriptor that describe a vehicle rather than one
// agent's state; the archetype's `vehicle` table takes these.
static const char *const vehicle_fields[] = { "mass",      "max_speed",      "max_force",
                                              "radius",    "model",          "min_turn_radius",
                                              "min_speed", "max_turn_accel", NULL };
// What a rebind re-applies: the numbers above are written through the
// agent's own setters, in this order, then the brain and think.
static const char *const rebind_fields[] = { "mass", "max_speed", "max_force", "radius", NULL };

static const char *const archetype_fields[] = { "name", "vehicle", "brain", "think", "think_hz", "tag", NULL };

// The archetype is a userdata whose user value is its definition table:
// { name, vehicle = {...}, brain, think, think_hz, tag, version }.
typedef struct Archetype {
    lua_Integer version;
} Archetype;

bool steerL_vehicle_desc(lua_State *L, int t, const char *fn, steer_AgentDesc *d, steer_CraftDesc *craft)
{
    d->mass = steerL_opt_vehicle(L, t, fn, "mass", 1);
    d->max_speed = steerL_opt_vehicle(L, t, fn, "max_speed", 1);
    d->max_force = steerL_opt_vehicle(L, t, fn, "max_force", 1);
    d->radius = steerL_opt_vehicle(L, t, fn, "radius", 0.5);
    return steerL_craft_desc(L, t, fn, craft);
}

static Archetype *check_archetype(lua_State *L, int idx) { return luaL_checkudata(L, idx, STEERL_ARCHETYPE); }

int steerL_isarchetype(lua_State *L, int idx) { return luaL_testudata(L, idx, STEERL_ARCHETYPE) != NULL; }

// Push field k of the definition of the archetype at idx.
static int def_field(lua_State *L, int idx, const char *k)
{
    lua_getiuservalue(L, idx, 1);
    int t = lua_getfield(L, -1, k);
    lua_remove(L, -2);
    return t;
}

static int archetype_new(lua_State *L)
{
    const char *fn = "steer.archetype";
    steerL_check_desc(L, 1, fn, archetype_fields);
    lua_settop(L, 1);
    lua_createtable(L, 0, 8); // 2: the definition
    if (lua_getfield(L, 1, "name") != LUA_TSTRING || lua_rawlen(L, -1) == 0)
        steerL_field_error(L, fn, "name", "a non-empty string", -1);
    lua_setfield(L, 2, "name");

    lua_newtable(L); // the vehicle, copied so later edits of the caller's table change nothing
    int t = lua_getfield(L, 1, "vehicle");
    if (t != LUA_TNIL) {
        if (t != LUA_TTABLE) steerL_field_error(L, fn, "vehicle", "a table of vehicle fields", -1);
        steerL_check_fields(L, -1, "steer.archetype: field 'vehicle'", vehicle_fields, 0);
        for (int i = 0; vehicle_fields[i]; i++) { // each read once: what is checked is what is kept
            lua_getfield(L, -1, vehicle_fields[i]);
            lua_setfield(L, -3, vehicle_fields[i]);
        }
        // spawn's own checks, so an archetype holds only what spawns (and rebinds)
        steer_AgentDesc d;
        steer_CraftDesc craft;
        steerL_vehicle_desc(L, lua_gettop(L) - 1, "steer.archetype: field 'vehicle'", &d, &craft);
    }
    lua_pop(L, 1);
    lua_setfield(L, 2, "vehicle");

    if (lua_getfield(L, 1, "brain") != LUA_TNIL && !steerL_tobehavior(L, -1))
        steerL_field_error(L, fn, "brain", "a behaviour or combiner", -1);
    lua_setfield(L, 2, "brain");
    if (lua_getfield(L, 1, "think") != LUA_TNIL && !lua_isfunction(L, -1))
        steerL_field_error(L, fn, "think", "a function(agent, dt)", -1);
    bool has_think = !lua_isnil(L, -1);
    lua_setfield(L, 2, "think");
    if (lua_getfield(L, 1, "think_hz") != LUA_TNIL) {
        if (!has_think) return luaL_error(L, "%s: field 'think_hz' given without 'think' (a function(agent, dt))", fn);
        steerL_optnumber(L, 1, fn, "think_hz", 10, STEERL_THINK_HZ_MIN, STEERL_THINK_HZ_MAX, STEERL_THINK_HZ);
    }
    lua_setfield(L, 2, "think_hz");
    if (lua_getfield(L, 1, "tag") != LUA_TNIL && lua_type(L, -1) != LUA_TSTRING)
        steerL_field_error(L, fn, "tag", "a string", -1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_getfield(L, 2, "name"); // the tag defaults to the name
    }
    lua_setfield(L, 2, "tag");

    // a new version under the name: worlds rebind their agents of it
    luaL_getsubtable(L, LUA_REGISTRYINDEX, REG_ARCHETYPES);
    lua_getfield(L, LUA_REGISTRYINDEX, REG_VERSION);
    lua_Integer version = lua_tointeger(L, -1) + 1;
    lua_pop(L, 1);
    lua_pushinteger(L, version);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_VERSION);

    Archetype *a = lua_newuserdatauv(L, sizeof *a, 1);
    a->version = version;
    luaL_setmetatable(L, STEERL_ARCHETYPE);
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, -2, 1);
    lua_getfield(L, 2, "name");
    lua_pushvalue(L, -2);
    lua_settable(L, -4); // registry[name] = archetype
    return 1;
}

// Push the newest archetype registered under the name of the one at idx.
static void push_current(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, REG_ARCHETYPES);
    def_field(L, idx, "name");
    if (lua_gettable(L, -2) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushvalue(L, idx);
    }
    lua_remove(L, -2);
}

// Copy the archetype's spawn fields (at def) into the table at dst.
static void copy_definition(lua_State *L, int arch, int dst)
{
    def_field(L, arch, "vehicle");
    steerL_copy_table(L, -1, dst);
    lua_pop(L, 1);
    static const char *const rest[] = { "brain", "think", "think_hz", "tag", NULL };
    for (int i = 0; rest[i]; i++) {
        def_field(L, arch, rest[i]);
        lua_setfield(L, dst, rest[i]);
    }
}

// w:spawn(archetype [, overrides]), called by world_spawn with the world at
// 1, the archetype at 2 and the optional overrides at 3. Leaves the merged
// spawn descriptor at 2 (so the plain spawn checks it, and its errors point
// at the script), the newest definition under the name at 3 and the set of
// fields the agent was given at 4 (nil when none).
void steerL_archetype_desc(lua_State *L)
{
    if (!lua_isnoneornil(L, 3) && !lua_istable(L, 3)) {
        char buf[64];
        luaL_error(L,
                   "steer.world:spawn: argument 2 (the fields that override the archetype's) expected a table or nil, "
                   "got %s",
                   steerL_describe(L, 3, buf, sizeof buf));
    }
    lua_settop(L, 3);
    push_current(L, 2); // 4: the newest definition under the name
    lua_newtable(L);    // 5: the merged spawn descriptor
    copy_definition(L, 4, 5);
    lua_newtable(L); // 6: the fields of this agent's own
    bool overridden = false;
    if (lua_istable(L, 3)) {
        size_t work = 0;
        lua_pushnil(L);
        while (lua_next(L, 3)) {
            steerL_poll(L, &work, 1);
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, 5);
            lua_pushvalue(L, -1);
            lua_pushboolean(L, 1);
            lua_settable(L, 6);
            overridden = true;
        }
    }
    if (!overridden) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    lua_replace(L, 3); // 3: own fields (6)
    lua_replace(L, 2); // 2: merged (5)
    lua_insert(L, 3);  // 3: definition, 4: own fields
}

// After the spawn of agent id from the archetype: remember its name (and
// its own fields), and that the world knows this name's version.
void steerL_archetype_bind(lua_State *L, int world_idx, int arch, int own, steer_Agent id)
{
    steerL_uv_field(L, world_idx, "arch");
    def_field(L, arch, "name");
    steerL_rawsetid(L, -2, id.id);
    lua_pop(L, 1);
    if (!lua_isnil(L, own)) {
        steerL_uv_field(L, world_idx, "arch_over");
        lua_pushvalue(L, own);
        steerL_rawsetid(L, -2, id.id);
        lua_pop(L, 1);
    }
    steerL_uv_field(L, world_idx, "arch_seen");
    def_field(L, arch, "name");
    if (lua_rawget(L, -2) == LUA_TNIL) {
        def_field(L, arch, "name");
        lua_pushinteger(L, check_archetype(L, arch)->version);
        lua_rawset(L, -4);
    }
    lua_pop(L, 2);
}

// Give the agent at idx (of the world at 1) the definition at arch, except
// the fields in the override set at over (or 0 for none).
static void apply(lua_State *L, int agent, int arch, int over)
{
    def_field(L, arch, "vehicle");
    for (int i = 0; rebind_fields[i]; i++) {
        if (over && lua_getfield(L, over, rebind_fields[i]) != LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (over) lua_pop(L, 1);
        if (lua_getfield(L, -1, rebind_fields[i]) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        lua_setfield(L, agent, rebind_fields[i]);
    }
    lua_pop(L, 1);
    static const char *const parts[] = { "brain", "think", NULL };
    for (int i = 0; parts[i]; i++) {
        if (over && lua_getfield(L, over, parts[i]) != LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (over) lua_pop(L, 1);
        // an archetype without a brain leaves the brain to its think, which
        // switches brains itself: the agent keeps the one it has
        if (def_field(L, arch, parts[i]) == LUA_TNIL && i == 0) {
            lua_pop(L, 1);
            continue;
        }
        lua_setfield(L, agent, parts[i]);
    }
    bool own_hz = false;
    if (over) {
        own_hz = lua_getfield(L, over, "think_hz") != LUA_TNIL;
        lua_pop(L, 1);
    }
    def_field(L, arch, "think");
    bool has_think = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (!own_hz && has_think) {
        if (def_field(L, arch, "think_hz") != LUA_TNIL) lua_setfield(L, agent, "think_hz");
        else lua_pop(L, 1);
    }
}

// apply() under lua_pcall: the agent at 1, the archetype at 2, the
// override set (or nil) at 3.
static int apply_protected(lua_State *L)
{
    apply(L, 1, 2, lua_istable(L, 3) ? 3 : 0);
    return 0;
}

// Called by w:step (world at 1) before stepping: rebind the agents of every
// archetype whose name was defined again since this world last looked.
// An agent that refuses a new definition (its brain cannot run here, say)
// keeps what it had; the first such error is raised after every agent was
// visited and the names marked as seen, so the next w:step steps.
void steerL_rebind_archetypes(lua_State *L, int world_idx)
{
    int top = lua_gettop(L);
    world_idx = lua_absindex(L, world_idx);
    steerL_uv_field(L, world_idx, "arch_seen"); // top+1
    lua_pushnil(L);
    if (lua_next(L, top + 1) == 0) {
        lua_settop(L, top);
        return;
    } // no archetype agents
    lua_settop(L, top + 1);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, REG_ARCHETYPES); // top+2
    lua_newtable(L);                                        // top+3: name -> newest, for the changed ones
    bool any = false;
    lua_pushnil(L);
    while (lua_next(L, top + 1)) {
        lua_pushvalue(L, -2);
        if (lua_gettable(L, top + 2) == LUA_TUSERDATA && check_archetype(L, -1)->version != lua_tointeger(L, -2)) {
            lua_pushvalue(L, -3);
            lua_pushvalue(L, -2);
            lua_settable(L, top + 3);
            any = true;
        }
        lua_pop(L, 2);
    }
    if (!any) {
        lua_settop(L, top);
        return;
    }
    steerL_uv_field(L, world_idx, "arch");      // top+4: id -> name
    steerL_uv_field(L, world_idx, "arch_over"); // top+5: id -> override set
    // collect first: setting fields must not disturb the traversal
    lua_newtable(L); // top+6: list of ids
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, top + 4)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, top + 6, ++n);
    }
    lua_pushnil(L); // top+7: the first error
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, top + 6, i); // id
        lua_Integer id = lua_tointeger(L, -1);
        lua_pop(L, 1);
        steerL_rawgetid(L, top + 4, (uint64_t)id); // name
        if (lua_gettable(L, top + 3) != LUA_TUSERDATA) {
            lua_pop(L, 1);
            continue;
        }
        int arch = lua_gettop(L);
        lua_pushcfunction(L, apply_protected);
        steerL_pushagent(L, world_idx, steerL_agent_of_lid(steerL_checkworld(L, world_idx)->w, id));
        lua_pushvalue(L, arch);
        steerL_rawgetid(L, top + 5, (uint64_t)id);
        if (lua_pcall(L, 3, 0, 0) != LUA_OK && lua_isnil(L, top + 7)) {
            def_field(L, arch, "name");
            lua_pushfstring(L, "steer.world:step: archetype '%s' (defined again) could not be applied to agent %s: %s",
                            lua_tostring(L, -1), steerL_istr((char[24]){ 0 }, id), lua_tostring(L, -2));
            lua_replace(L, top + 7);
        }
        lua_settop(L, arch - 1);
    }
    // this world is now up to date with those names
    lua_pushnil(L);
    while (lua_next(L, top + 3)) {
        lua_pushvalue(L, -2);
        lua_pushinteger(L, check_archetype(L, -2)->version);
        lua_rawset(L, top + 1);
        lua_pop(L, 1);
    }
    if (!lua_isnil(L, top + 7)) {
        lua_pushvalue(L, top + 7);
        luaL_where(L, 1); // the script's w:step
        lua_insert(L, -2);
        lua_concat(L, 2);
        lua_error(L);
    }
    lua_settop(L, top);
}

static int archetype_index(lua_State *L)
{
    check_archetype(L, 1);
    const char *k = luaL_checkstring(L, 2);
    if (strcmp(k, "version") == 0) {
        lua_pushinteger(L, check_archetype(L, 1)->version);
        return 1;
    }
    if (strcmp(k, "vehicle") == 0) { // a copy: the definition cannot be edited
        lua_newtable(L);
        def_field(L, 1, "vehicle");
        steerL_copy_table(L, -1, -2);
        lua_pop(L, 1);
        return 1;
    }
    for (int i = 0; archetype_fields[i]; i++)
        if (strcmp(k, archetype_fields[i]) == 0) {
            def_field(L, 1, k);
            return 1;
        }
    return 0;
}

static int archetype_newindex(lua_State *L)
{
    check_archetype(L, 1);
    return luaL_error(
        L, "steer.archetype: an archetype cannot be changed; define it again with steer.archetype{ name = ... } "
           "(its agents rebind on the next tick)");
}

static int archetype_tostring(lua_State *L)
{
    check_archetype(L, 1);
    def_field(L, 1, "name");
    lua_pushfstring(L, "steer.archetype(%s)", lua_tostring(L, -1));
    return 1;
}

void steerL_open_archetype(lua_State *L)
{
    static const luaL_Reg meta[] = {
        { "__index", archetype_index },
        { "__newindex", archetype_newindex },
        { "__tostring", archetype_tostring },
        { NULL, NULL },
    };
    luaL_newmetatable(L, STEERL_ARCHETYPE);
    luaL_setfuncs(L, meta, 0);
    lua_pop(L, 1);
    lua_pushcfunction(L, archetype_new);
    lua_setfield(L, -2, "archetype");
}
