// SPDX-License-Identifier: MIT
// modreload.c — a mod's hot reload, as a scenario's: a transaction.
//
// The running version's save() gives its state (modsnap.c); the mod's
// files are read and run anew in a new Lua state, a mod of its own (a
// `trial`) that holds the running version's place in e->mods, so the
// watchdog judges its calls; its load(data) gets that state, then its
// reload(w) runs (not setup: the agents setup spawned are in the world,
// and stay the mod's). Only if all of that succeeds does the new state
// replace the running one, which is closed; on any failure the new state
// is closed, the agents it spawned are removed, and the running version
// goes on as it was, the error kept and logged. A mod that never got
// through its setup (its file was broken at the start) runs setup instead.
//
// Functions cannot cross from one Lua state to another: the agents keep
// their brains (trees and flow fields are C), but a brain's steer.custom
// or ease node of the old code gives nothing (its reference is no function
// in the new state: the new state's registry is padded past the old one's,
// policy.c) and the old code's thinks do nothing, until the new code gives
// them again, in its reload(w).
//
// steer_engine_poll looks at the files each mod read (its main file, the
// modules it required) as at the scenario's, and reloads a mod once its
// files have been quiet for the debounce time. A mod unloaded by the game
// is not brought back by a save.
#include "mod.h"

#include <stdio.h>
#include <string.h>

static void put(steer_Engine *e, int id, Mod *m)
{
    steerY_mutex_lock(&e->lock); // the watchdog reads the array
    e->mods[id] = m;
    steerY_mutex_unlock(&e->lock);
}

// Whether any of the mod's files differs on disk from what was last seen
// (and remember what is seen now).
static bool files_changed(Mod *m)
{
    bool changed = false;
    for (int i = 0; i < m->nfiles; i++) {
        long long t = -1, n = -1;
        steerE_stat_file(m->files[i].path, &t, &n); // a file gone counts as a change too
        if (t != m->files[i].mtime_ns || n != m->files[i].size) changed = true;
        m->files[i].mtime_ns = t;
        m->files[i].size = n;
    }
    return changed;
}

// Runs in the mod's state, under its budget: its registry grown to
// m->reg_len, so that it takes none of the references a failed new
// version's brains may hold.
static int pad_f(lua_State *L)
{
    Mod *m = steerE_mod_of(L);
    while ((int)lua_rawlen(L, LUA_REGISTRYINDEX) + 1 < m->reg_len) {
        lua_pushboolean(L, 0);
        luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}

static bool holds(const Mod *m, steer_Agent a)
{
    for (int i = 0; i < m->nagents; i++)
        if (m->agents[i].id == a.id) return true;
    return false;
}

// The new version failed: the running one takes its place back, without
// the agents the new code spawned, watching the files the new code read
// too (a module it required first may be the one to fix).
static void roll_back(steer_Engine *e, int id, Mod *old, Mod *m)
{
    put(e, id, old);
    for (int i = 0; i < m->nagents; i++)
        if (!holds(old, m->agents[i]) && steer_alive(e->world, m->agents[i])) steer_remove(e->world, m->agents[i]);
    if (m->reg_len > old->reg_len) old->reg_len = m->reg_len;
    if (old->L) {
        lua_pushcfunction(old->L, pad_f);
        steerE_mod_call(old, 0);
    }
    for (int i = 0; i < m->nfiles; i++) steerE_mod_watch_file(old, m->files[i].path);
    files_changed(old); // what is on disk now is what was tried
}

// The new version succeeded: it takes over what the engine keeps for the mod.
static void take_over(Mod *m, Mod *old)
{
    memcpy(m->inbox, old->inbox, (size_t)old->ninbox * sizeof *m->inbox);
    m->ninbox = old->ninbox;
    m->inbox_bytes = old->inbox_bytes;
    old->ninbox = 0;
    old->inbox_bytes = 0;
    m->cpu += old->cpu;
    m->print_tokens = old->print_tokens;
    m->suppressed = old->suppressed;
    m->trial = false;
    m->set_up = true;
}

int steer_engine_reload_mod(steer_Engine *e, int id)
{
    STEERA_GUARD(e, "an engine from steer_engine_new", STEER_EARG);
    if (id < 0 || id >= e->nmods)
        return steerE_fail(e, STEER_EARG, "steer_engine_reload_mod: no mod has id %d (%d loaded)", id, e->nmods);
    Mod *old = e->mods[id];
    double t0 = steerE_now();
    // the running version's state (a save that fails disables it, as any
    // callback: the new code then starts without it)
    unsigned char *data = NULL;
    size_t len = 0;
    if (old->enabled && old->set_up) steerE_mod_save_data(old, &data, &len);
    steer_ModLimits lim = { .memory = old->cap,
                            .call_ms = old->budget * 1e3,
                            .agents = old->agent_cap,
                            .prints = (int)old->print_rate,
                            .touch_all = old->touch_all,
                            .work = old->work_cap };
    Mod *m = steerE_mod_new(e, old->root ? old->root : old->main, &lim);
    if (!m) {
        steerE_alloc(e, data, 0);
        return steerE_fail(e, STEER_ENOMEM, "steer_engine_reload_mod: out of memory");
    }
    m->trial = true;
    m->owner = old->owner;
    m->reg_len = old->reg_len;
    if (old->L && (int)lua_rawlen(old->L, LUA_REGISTRYINDEX) + 1 > m->reg_len)
        m->reg_len = (int)lua_rawlen(old->L, LUA_REGISTRYINDEX) + 1;
    memcpy(m->agents, old->agents, (size_t)old->nagents * sizeof *m->agents);
    m->nagents = old->nagents;
    put(e, id, m);
    bool ok = steerE_mod_start(m) && steerE_mod_own(m);
    if (ok && !old->set_up) ok = steerE_mod_callback(m, "setup");
    else if (ok) ok = (!data || steerE_mod_load_data(m, data, len)) && steerE_mod_callback(m, "reload");
    steerE_alloc(e, data, 0);
    if (!ok) {
        roll_back(e, id, old, m);
        // the reason names the mod once, and the file and line (mod.c)
        int st = steerE_fail(e, STEER_EMOD, "%s", m->reason);
        steerE_alloc(e, e->traceback, 0); // the error is this one, not an earlier script's
        e->traceback = NULL;
        steerE_log(e, 2, "reload failed %s (%s)", m->reason,
                   old->enabled ? "its last version runs on" : "it stays disabled");
        steerE_mod_free(m);
        return st;
    }
    take_over(m, old);
    steerE_mod_free(old);
    e->error[0] = '\0';
    steerE_alloc(e, e->traceback, 0);
    e->traceback = NULL;
    steerE_log(e, 0, "reload ok %s (mod '%s', %.0f ms)", m->main, m->shown, (steerE_now() - t0) * 1e3);
    return STEER_OK;
}

int steerE_mods_poll(steer_Engine *e, bool look, double now, double debounce)
{
    int result = 0;
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (m->unloaded) continue;
        if (look && files_changed(m)) m->changed_at = now; // a save restarts the debounce
        if (m->changed_at <= 0 || now - m->changed_at < debounce) continue;
        m->changed_at = 0;
        int st = steer_engine_reload_mod(e, i);
        if (st != STEER_OK) result = st;
        else if (result == 0) result = 1;
    }
    return result;
}

const char *steerE_mod_watched(const steer_Engine *e, int i)
{
    for (int k = 0; k < e->nmods; k++) {
        if (i < e->mods[k]->nfiles) return e->mods[k]->files[i].path;
        i -= e->mods[k]->nfiles;
    }
    return NULL;
}
