// SPDX-License-Identifier: MIT
// policy.c — the mods' policy (src/lua/lpolicy.h): what the engine sets on
// each Lua state and the bindings ask. The scenario's state routes a mod's
// per-agent Lua (think, custom, ease) to the mod's state, under its
// limits; a mod's state is a sandbox with an owner number, a spawn quota,
// its own agents only (unless touch_all), its C memory charged against its
// cap and the stop flag polled in long C loops (watch.c).
#include "mod.h"

#include <stdio.h>

// ---- per-agent Lua: a mod's think, custom and ease functions -------------------
//
// The world's hooks hand these to the scenario's policy (e->policy) by the
// owner number in their reference. Each runs in the mod's state like a
// callback: under its CPU budget and memory cap, its world userdata at
// stack index 1 as the bindings' calls expect. A call that fails (an
// error, a yield, the budget or the cap) gives nothing — no think, no
// force, no easing — and stops the mod; so does every later call of this
// tick. The engine disables it at its next call (steerE_mod_call, after the
// world's step), and its agents stop (halt_agents in mod.c). The world and
// the other mods never see the failure: the scenario's step goes on as if
// the mod had returned nothing.

// The mod whose function it is, if it may run now: enabled, not killed,
// on the engine's own world (a copy the scenario loaded and steps is not
// the mod's world: its agents there are not the mod's to think for), and
// a function there is (a snapshot keeps a mod's reference without it: 0).
static Mod *route_mod(steer_Engine *e, int owner, const steer_World *w, int ref)
{
    if (owner < 1 || owner > e->nmods || w != e->world || ref == 0) return NULL;
    Mod *m = e->mods[owner - 1];
    if (!m->enabled || !m->L || atomic_load_explicit(&m->killed, memory_order_acquire)) return NULL;
    return m;
}

// A reference of an earlier state of the mod's (before a reload, or a
// load after an unload) is no function here: that state's registry was
// padded past (modreload.c), so it gives nothing, as a snapshot's does.
static bool is_function(Mod *m, int ref)
{
    bool fn = lua_rawgeti(m->L, LUA_REGISTRYINDEX, ref) == LUA_TFUNCTION;
    lua_pop(m->L, 1);
    return fn;
}

static steerL_World *route_begin(Mod *m, const char *doing)
{
    lua_State *L = m->L;
    m->doing = doing;
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->world_ref);
    steerL_World *lw = lua_touserdata(L, 1);
    lw->L = L;
    lw->cb_error[0] = 0;
    steerE_begin_call(m);
    return lw;
}

// Nonzero when the call gave nothing. Each call has the mod's budget, and
// all of a tick's calls together have it once more (m->tick_spent, reset
// by steerE_mods_tick): thousands of calls each under the budget would
// otherwise stall every tick. Their CPU time, like the budget of one call:
// on a busy machine the wall time of a tick's thinks includes the time the
// thread waited for a core.
static int route_end(Mod *m, steerL_World *lw, int st)
{
    m->tick_spent += steerE_end_call(m);
    m->doing = NULL;
    lua_settop(m->L, 0);
    char why[400];
    why[0] = 0;
    if (st != 0) snprintf(why, sizeof why, "%.380s", lw->cb_error[0] ? lw->cb_error : "a per-agent call failed");
    else if (m->tick_spent > m->budget)
        snprintf(why, sizeof why,
                 "its thinks, custom and ease functions together over its CPU budget of %.0f ms in one tick",
                 m->budget * 1e3);
    if (why[0]) {
        steerE_kill(m, why); // a kill during the call keeps its own reason
    }
    return st != 0 || atomic_load_explicit(&m->killed, memory_order_acquire);
}

static int route_think(void *ud, int owner, steer_World *w, steer_Agent a, double dt)
{
    Mod *m = route_mod(ud, owner, w, 1);
    if (!m) return 0;
    steerL_World *lw = route_begin(m, "in think");
    route_end(m, lw, steerL_run_think(lw, a, dt));
    return 0; // a mod's failure is not the world's
}

static int route_custom(void *ud, int owner, int ref, steer_World *w, steer_Agent a, double dt, double out[3])
{
    Mod *m = route_mod(ud, owner, w, ref);
    if (!m || !is_function(m, ref)) return 1;
    steerL_World *lw = route_begin(m, "in a steer.custom function");
    return route_end(m, lw, steerL_run_custom(lw, ref, a, dt, out));
}

static int route_ease(void *ud, int owner, int ref, steer_World *w, double x, double *out)
{
    Mod *m = route_mod(ud, owner, w, ref);
    if (!m || !is_function(m, ref)) return 1;
    steerL_World *lw = route_begin(m, "in an ease function");
    return route_end(m, lw, steerL_run_ease(lw, ref, x, out));
}

// ---- what a mod's agents cost in the steer pass -----------------------------------
//
// The world's steer pass runs every agent's brain in C, on the workers,
// outside any call into the mod: a thousand agents whose queries each
// cover a town of walls (steer.reciprocal{ obstacle_horizon = 100 }) took
// 1 to 2 s a tick. The world counts each agent's work in units that are
// the same on every machine (steer_agent_work: a brain evaluated, a
// neighbour candidate scanned, a cell, entry or search step of a shape
// query); after the step, the units of the agents the mod spawned are
// summed against its cap (steer_ModLimits.work), and a mod past it is
// stopped, like one past its CPU budget: its agents stand still from the
// next tick on. So its agents cost at most one such tick.

void steerE_mod_charge_work(Mod *m)
{
    steer_World *w = m->e->world;
    steer_world_set_metering(w, true); // from the next step on (again after a restore in place)
    uint64_t units = 0;
    for (int i = 0; i < m->nagents; i++) units += steer_agent_work(w, m->agents[i]);
    if (units <= (uint64_t)m->work_cap) return;
    char why[200];
    snprintf(why, sizeof why, "its agents' steering cost %llu units of work in one tick, over its cap of %ld",
             (unsigned long long)units, m->work_cap);
    steerE_kill(m, why);
}

// ---- the policies ------------------------------------------------------------------

void steerE_scenario_policy(steer_Engine *e)
{
    e->policy = (steerL_Policy){ .think = route_think, .custom = route_custom, .ease = route_ease, .ud = e };
}

void steerE_mod_forget_gone(Mod *m)
{
    int k = 0;
    for (int i = 0; i < m->nagents; i++)
        if (steer_alive(m->e->world, m->agents[i])) m->agents[k++] = m->agents[i];
    m->nagents = k;
}

static int quota_ok(void *ud)
{
    Mod *m = ud;
    if (m->nagents < m->agent_cap) return 1;
    steerE_mod_forget_gone(m);
    return m->nagents < m->agent_cap;
}

static void quota_note(void *ud, steer_Agent a)
{
    Mod *m = ud;
    if (m->nagents < m->agent_cap) m->agents[m->nagents++] = a;
}

void steerE_mod_policy(Mod *m)
{
    m->policy = (steerL_Policy){
        .owner = m->owner, // its think, custom and ease functions run here (route_*)
        .sandboxed = true,
        .own_only = !m->touch_all,
        .may_spawn = quota_ok,
        .spawned = quota_note,
        .charge = steerE_mod_charge,
        .poll = steerE_mod_poll,
        .ud = m,
    };
}
