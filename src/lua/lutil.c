// SPDX-License-Identifier: MIT
// lutil.c — argument checking shared by every binding file.
#include "lutil.h"
#include "../behaviors/exports.h"
#include "steer_debug.h" // steer_debug_shape: a shape slot's generation (5.1, LuaJIT)

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *steerL_status_text(int st)
{
    switch (st) {
    case STEER_EARG: return "a bad argument";
    case STEER_ESTALE: return "the agent was removed";
    case STEER_ENOMEM: return "out of memory";
    case STEER_EFULL: return "a limit of the world is reached: at most 65535 distinct tags, brains or agent slots";
    case STEER_EBUSY: return "not while the world steps";
    default: return "it failed";
    }
}

const char *steerL_describe(lua_State *L, int idx, char *buf, size_t len)
{
    switch (lua_type(L, idx)) {
    case LUA_TNONE:
    case LUA_TNIL: return "nil";
    case LUA_TNUMBER: {
        double v = lua_tonumber(L, idx);
        if (isnan(v)) return "NaN";
        if (isinf(v)) return v > 0 ? "inf" : "-inf";
        snprintf(buf, len, "%.14g", v);
        return buf;
    }
    case LUA_TSTRING: snprintf(buf, len, "\"%.40s\"", lua_tostring(L, idx)); return buf;
    case LUA_TBOOLEAN: return lua_toboolean(L, idx) ? "true" : "false";
    case LUA_TUSERDATA:
        if (luaL_testudata(L, idx, STEERL_VEC)) return "a vector";
        if (luaL_testudata(L, idx, STEERL_AGENT)) return "an agent";
        if (luaL_testudata(L, idx, STEERL_BEHAVIOR)) return "a behaviour";
        if (luaL_testudata(L, idx, STEERL_WORLD)) return "a world";
        return "a userdata";
    default: snprintf(buf, len, "a %s", luaL_typename(L, idx)); return buf;
    }
}

int steerL_field_error(lua_State *L, const char *fn, const char *field, const char *expected, int got_idx)
{
    char buf[64];
    got_idx = lua_absindex(L, got_idx);
    if (!field)
        return luaL_error(L, "%s: expected %s, got %s", fn, expected, steerL_describe(L, got_idx, buf, sizeof buf));
    return luaL_error(L, "%s: field '%s' expected %s, got %s", fn, field, expected,
                      steerL_describe(L, got_idx, buf, sizeof buf));
}

typedef struct {
    double v[3];
} Vec;

int steerL_tovec(lua_State *L, int idx, double out[3])
{
    idx = lua_absindex(L, idx);
    Vec *u = luaL_testudata(L, idx, STEERL_VEC);
    if (u) {
        memcpy(out, u->v, sizeof u->v);
        return fabs(out[0]) <= FLT_MAX && fabs(out[1]) <= FLT_MAX && fabs(out[2]) <= FLT_MAX;
    }
    if (!lua_istable(L, idx)) return 0;
    // {x, y [, z]} or {x = , y = [, z = ]}, read raw: plain data, so no
    // __index runs (a list of a million points behind __index chains was
    // minutes of C in one call)
    for (int i = 0; i < 3; i++) {
        int t = lua_rawgeti(L, idx, i + 1);
        if (t == LUA_TNIL) {
            lua_pop(L, 1);
            lua_pushstring(L, i == 0 ? "x" : i == 1 ? "y" : "z");
            t = lua_rawget(L, idx);
        }
        if (t == LUA_TNIL && i == 2) {
            out[2] = 0;
            lua_pop(L, 1);
            break;
        }
        if (t != LUA_TNUMBER) {
            lua_pop(L, 1);
            return 0;
        }
        out[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!isfinite(out[i]) || fabs(out[i]) > FLT_MAX) return 0; // the world stores floats
    }
    return isfinite(out[0]) && isfinite(out[1]) && isfinite(out[2]);
}

void steerL_checkvec(lua_State *L, int idx, double out[3], const char *fn, const char *field)
{
    if (!steerL_tovec(L, idx, out))
        steerL_field_error(L, fn, field, "a vector (steer.vec or {x, y [, z]}) with finite components", idx);
}

void steerL_pushvec(lua_State *L, double x, double y, double z)
{
    Vec *u = lua_newuserdatauv(L, sizeof *u, 0);
    u->v[0] = x;
    u->v[1] = y;
    u->v[2] = z;
    luaL_setmetatable(L, STEERL_VEC);
}

double steerL_checkrange(lua_State *L, int idx, const char *fn, const char *field, const char *what, double min,
                         double max)
{
    double v = lua_tonumber(L, idx);
    if (lua_type(L, idx) != LUA_TNUMBER || !steerB_number_ok(v, min, max)) {
        char expected[160];
        steerL_field_error(L, fn, field, steerB_range_text(expected, sizeof expected, what, min, max), idx);
    }
    return v;
}

double steerL_optnumber(lua_State *L, int t, const char *fn, const char *field, double def, double min, double max,
                        const char *what)
{
    if (lua_getfield(L, t, field) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    double v = steerL_checkrange(L, -1, fn, field, what, min, max);
    lua_pop(L, 1);
    return v;
}

int steerL_checkthreads(lua_State *L, int idx, const char *fn, const char *field)
{
    if (!lua_isinteger(L, idx) || lua_tointeger(L, idx) < 1 || lua_tointeger(L, idx) > STEER_MAX_THREADS) {
        char expected[96];
        snprintf(expected, sizeof expected, "an integer from 1 to %d (worker threads)", STEER_MAX_THREADS);
        steerL_field_error(L, fn, field, expected, idx);
    }
    return (int)lua_tointeger(L, idx);
}

int steerL_optthreads(lua_State *L, int t, const char *fn)
{
    int n = lua_getfield(L, t, "threads") == LUA_TNIL ? 0 : steerL_checkthreads(L, -1, fn, "threads");
    lua_pop(L, 1);
    return n;
}

// The vehicle numbers: a minimum of 0 admits 0 (no speed, force or radius,
// a constant turn radius) and then STEERA_PARAM_MIN, as steer_spawn does.
static const struct VehicleRule {
    const char *field;
    double min;
    const char *what;
} vehicle_rules[] = {
    { "mass", STEERA_PARAM_MIN, "a number" },
    { "max_speed", 0, "a number" },
    { "max_force", 0, "a number" },
    { "radius", 0, "a number" },
    { "min_turn_radius", STEERA_PARAM_MIN, "a number of metres" },
    { "max_turn_accel", 0, "a number of m/s^2 (0 = a constant turn radius)" },
    { NULL, 0, NULL },
};

double steerL_vehicle_number(lua_State *L, int idx, const char *fn, const char *field)
{
    const struct VehicleRule *r = vehicle_rules;
    while (r->field && strcmp(r->field, field) != 0) r++;
    return steerL_checkrange(L, idx, fn, field, r->field ? r->what : "a number", r->min, STEERA_PARAM_MAX);
}

double steerL_opt_vehicle(lua_State *L, int t, const char *fn, const char *field, double def)
{
    if (lua_getfield(L, t, field) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    double v = steerL_vehicle_number(L, -1, fn, field);
    lua_pop(L, 1);
    return v;
}

// ---- the policy (lpolicy.h) ---------------------------------------------------

#define REG_POLICY "steer.policy"

static const char host_key = 'h'; // the registry's key of the steerL_Host (its address)

void steerL_set_host(lua_State *L, const steerL_Host *h)
{
    lua_pushlightuserdata(L, (void *)h);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &host_key);
}

const steerL_Host *steerL_host(lua_State *L)
{
    const steerL_Host *h = NULL;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &host_key) == LUA_TLIGHTUSERDATA) h = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return h;
}

// The host's allocator (ud: its steerL_Host) with Lua's signature: the old size is not needed.
static void *host_alloc(void *ud, void *p, size_t osize, size_t nsize)
{
    const steerL_Host *h = ud;
    (void)osize;
    if (h->alloc) return h->alloc(h->alloc_ud, p, nsize);
    if (nsize == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, nsize);
}

steerN_Alloc steerL_allocator(lua_State *L)
{
    const steerL_Host *h = steerL_host(L);
    if (h) return (steerN_Alloc){ host_alloc, (void *)h };
    steerN_Alloc a;
    a.fn = lua_getallocf(L, &a.ud);
    return a;
}

void steerL_set_policy(lua_State *L, const steerL_Policy *p)
{
    lua_pushlightuserdata(L, (void *)p);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_POLICY);
}

const steerL_Policy *steerL_policy(lua_State *L)
{
    const steerL_Policy *p = NULL;
    if (lua_getfield(L, LUA_REGISTRYINDEX, REG_POLICY) == LUA_TLIGHTUSERDATA) p = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return p;
}

// Called as C functions, so that a call hook sees each poll and a charge
// raises from a call of its own, as any C function the script calls.
static int poll_point(lua_State *L)
{
    const steerL_Policy *p = steerL_policy(L);
    if (p && p->poll) p->poll(p->ud, L);
    return 0;
}

static int charge_point(lua_State *L)
{
    const steerL_Policy *p = steerL_policy(L);
    p->charge(p->ud, L, lua_tointeger(L, 1));
    return 0;
}

void steerL_poll(lua_State *L, size_t *work, size_t units)
{
    *work += units;
    if (*work < STEERL_POLL_WORK) return;
    *work = 0;
    lua_pushcfunction(L, poll_point);
    lua_call(L, 0, 0);
}

void steerL_charge(lua_State *L, lua_Integer bytes)
{
    if (bytes == 0) return;
    const steerL_Policy *p = steerL_policy(L);
    if (!p || !p->charge) return;
    lua_pushcfunction(L, charge_point);
    lua_pushinteger(L, bytes);
    lua_call(L, 1, 0);
}

int steerL_sandboxed(lua_State *L)
{
    const steerL_Policy *p = steerL_policy(L);
    return p && p->sandboxed;
}

void steerL_check_unsandboxed(lua_State *L, const char *fn, const char *why)
{
    if (steerL_sandboxed(L)) luaL_error(L, "%s: not available to mods (%s)", fn, why);
}

// ---- argument tables ----------------------------------------------------------

void steerL_check_desc(lua_State *L, int t, const char *fn, const char *const *known)
{
    if (!lua_istable(L, t)) {
        char buf[64];
        luaL_error(L, "%s: expected a table of named arguments, got %s", fn, steerL_describe(L, t, buf, sizeof buf));
    }
    steerL_check_fields(L, t, fn, known, 0);
}

void steerL_check_fields(lua_State *L, int t, const char *fn, const char *const *known, int allow_array)
{
    t = lua_absindex(L, t);
    size_t work = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        steerL_poll(L, &work, 1);
        if (lua_type(L, -1) == LUA_TNUMBER && allow_array && lua_isinteger(L, -1)) continue;
        if (lua_type(L, -1) != LUA_TSTRING) {
            char buf[64];
            luaL_error(L, "%s: unexpected key %s in the argument table", fn, steerL_describe(L, -1, buf, sizeof buf));
        }
        const char *k = lua_tostring(L, -1);
        int ok = 0;
        for (int i = 0; known[i]; i++)
            if (strcmp(known[i], k) == 0) {
                ok = 1;
                break;
            }
        if (!ok) {
            // list the accepted names so the fix is obvious
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            for (int i = 0; known[i]; i++) {
                if (i) luaL_addstring(&b, ", ");
                luaL_addstring(&b, known[i]);
            }
            luaL_pushresult(&b);
            luaL_error(L, "%s: unknown field '%s' (expected one of: %s)", fn, k, lua_tostring(L, -1));
        }
    }
}

steerL_World *steerL_checkworld(lua_State *L, int idx)
{
    steerL_World *w = luaL_checkudata(L, idx, STEERL_WORLD);
    if (!w->w) luaL_error(L, "steer.world: the world has been freed");
    return w;
}

// Push field `name` of the world's user value table.
void steerL_warn(lua_State *L, const char *msg)
{
    const steerL_Host *h = steerL_host(L);
    if (h && h->log) h->log(h->log_ud, 1, msg);
    else fprintf(stderr, "steer: %s\n", msg);
}

int steerL_agent_ref(const steerL_World *w, lua_State *L, int idx, uint64_t *index, const char **why)
{
    steerL_Agent *a = steerL_toagent(L, idx);
    if (!a) return -1;
    if (a->world != w) {
        *why = "an agent of another world";
        return 0;
    }
    *index = steerL_agent_handle(a).id;
    return 1;
}

void steerL_new_weak(lua_State *L, const char *mode)
{
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushstring(L, mode);
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
}

void steerL_weak_field(lua_State *L, int t, const char *k, const char *mode)
{
    t = lua_absindex(L, t);
    if (lua_getfield(L, t, k) == LUA_TTABLE) return;
    lua_pop(L, 1);
    steerL_new_weak(L, mode);
    lua_pushvalue(L, -1);
    lua_setfield(L, t, k);
}

void steerL_uv_field(lua_State *L, int world_idx, const char *name)
{
    lua_getiuservalue(L, world_idx, 1);
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
}

void steerL_pushagent(lua_State *L, int world_idx, steer_Agent id)
{
    world_idx = lua_absindex(L, world_idx);
    steerL_uv_field(L, world_idx, "handles");
    if (steerL_rawgetid(L, -1, id.id) == LUA_TUSERDATA) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    steerL_Agent *a = lua_newuserdatauv(L, sizeof *a, 1);
    *a = (steerL_Agent){ .handle = id, .world = lua_touserdata(L, world_idx) };
    luaL_setmetatable(L, STEERL_AGENT);
    lua_pushvalue(L, world_idx);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, -1);
    steerL_rawsetid(L, -3, id.id);
    lua_remove(L, -2);
}

steerL_Agent *steerL_toagent(lua_State *L, int idx) { return luaL_testudata(L, idx, STEERL_AGENT); }

steerL_Agent *steerL_checkagent(lua_State *L, int idx, const char *what)
{
    steerL_Agent *a = luaL_checkudata(L, idx, STEERL_AGENT);
    if (!steerL_agent_alive(a))
        luaL_error(L, "%s: stale handle: agent %s was removed (check a.alive)", what,
                   steerL_istr((char[24]){ 0 }, steerL_lid(a->handle.id)));
    return a;
}

// The generation bits an id from Lua lacks, taken from the slot's current
// generation `cur`: the same low bits give `cur`, other bits stay stale.
static uint64_t widen_lid(lua_Integer id, uint32_t cur)
{
#if LUA_VERSION_NUM >= 503
    (void)cur;
    return (uint64_t)id;
#else
    uint64_t low = ((uint64_t)1 << STEERL_LID_GEN_BITS) - 1;
    uint64_t gen = ((uint64_t)id >> 32) & low;
    if (gen == (cur & low)) gen = cur;
    return gen << 32 | ((uint64_t)id & 0xFFFFFFFFu);
#endif
}

steer_Agent steerL_agent_of_lid(const steer_World *w, lua_Integer id)
{
#if LUA_VERSION_NUM >= 503
    (void)w;
    return (steer_Agent){ widen_lid(id, 0) };
#else
    return (steer_Agent){ widen_lid(id, steer_agent_slot_generation(w, (uint32_t)id)) };
#endif
}

steer_Shape steerL_shape_of_lid(const steer_World *w, lua_Integer id)
{
#if LUA_VERSION_NUM >= 503
    (void)w;
    return (steer_Shape){ widen_lid(id, 0) };
#else
    // a freed slot gives 0: the id's own bits, stale as with the slot's
    steer_DebugShape sh;
    uint32_t cur = steer_debug_shape(w, (int)(uint32_t)id, &sh) == 1 ? (uint32_t)(sh.shape.id >> 32) : 0;
    return (steer_Shape){ widen_lid(id, cur) };
#endif
}

const char *steerL_istr(char buf[24], lua_Integer v)
{
    snprintf(buf, 24, "%lld", (long long)v);
    return buf;
}

steer_Behavior *steerL_tobehavior(lua_State *L, int idx)
{
    steerL_Behavior *b = luaL_testudata(L, idx, STEERL_BEHAVIOR);
    return b ? b->b : NULL;
}

void steerL_newclass(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods, lua_CFunction index)
{
    luaL_newmetatable(L, name);
    luaL_setfuncs(L, meta, 0);
    if (index) {
        lua_newtable(L);
        luaL_setfuncs(L, methods, 0);
        lua_pushcclosure(L, index, 1);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
}

void steerL_check_writable(lua_State *L, const steerL_World *lw, const char *fn)
{
    if (lw->in_pass)
        luaL_error(L,
                   "%s: not allowed during the steer pass: a custom behaviour or ease function may only read "
                   "agents (change or query the world in think, update or an event handler)",
                   fn);
}

void steerL_copy_table(lua_State *L, int src, int dst)
{
    src = lua_absindex(L, src);
    dst = lua_absindex(L, dst);
    lua_pushnil(L);
    while (lua_next(L, src)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, dst);
    }
}
