// SPDX-License-Identifier: MIT
// modsnap.c — the mods in a snapshot (save.c writes the container): each
// mod's own data, from its save() to its load(), and what the engine keeps
// for it between ticks (its agents, its inbox).
#include "mod.h"
#include "../lua/ldata.h"
#include "../core/bytes.h"

#include <stdlib.h>
#include <string.h>

// ---- snapshots: each mod's own state -------------------------------------------------
//
// A mod's save() returns plain data (shared subtables and cycles kept),
// encoded inside the mod's call, under its budget, into the engine's
// memory; load(data) gets it back decoded in the mod's state. The engine
// keeps each mod's bytes under the mod's name (steer_engine_save).

static const steerL_DataOptions mod_data_options = {
    .shared = true,
    .where = "save()",
    .noun = "mod data",
};

typedef struct ModData {
    unsigned char *bytes; // NULL: the mod has no save
    size_t len;
    const unsigned char *in; // what load gets
    size_t inlen;
} ModData;

// Runs protected under the budget: the mod's save(), its result encoded.
static int save_f(lua_State *L)
{
    Mod *m = steerE_mod_of(L);
    ModData *out = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->cb_ref);
    if (lua_getfield(L, -1, "save") != LUA_TFUNCTION) return 0;
    lua_call(L, 0, 1);
    steerL_DataOptions o = mod_data_options;
    o.alloc = steerE_alloc_ud;
    o.alloc_ud = m->e;
    o.stop = steerE_mod_stopped;
    o.stop_ud = m;
    steerL_DataError err;
    if (steerL_data_encode(L, -1, &o, &out->bytes, &out->len, &err) != STEERL_DATA_OK)
        return luaL_error(L, "%s", err.message);
    return 0;
}

// Runs protected under the budget: the saved data decoded, to the mod's load(data).
static int load_f(lua_State *L)
{
    Mod *m = steerE_mod_of(L);
    const ModData *d = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->cb_ref);
    if (lua_getfield(L, -1, "load") != LUA_TFUNCTION) return 0;
    steerL_data_decode(L, d->in, d->inlen, &mod_data_options);
    lua_call(L, 1, 0);
    return 0;
}

int steerE_mod_save_data(Mod *m, unsigned char **bytes, size_t *len)
{
    ModData d = { 0 };
    m->doing = "in save";
    lua_pushcfunction(m->L, save_f);
    lua_pushlightuserdata(m->L, &d);
    int ok = steerE_mod_call(m, 1);
    if (!ok) {
        steerE_alloc(m->e, d.bytes, 0);
        d.bytes = NULL;
    }
    *bytes = d.bytes;
    *len = d.len;
    return ok;
}

int steerE_mod_load_data(Mod *m, const unsigned char *p, size_t len)
{
    ModData d = { .in = p, .inlen = len };
    m->doing = "in load";
    lua_pushcfunction(m->L, load_f);
    lua_pushlightuserdata(m->L, &d);
    return steerE_mod_call(m, 1);
}

int steerE_mods_save(steer_Engine *e, int (*emit)(void *ud, const char *name, const unsigned char *p, size_t len),
                     void *ud)
{
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->enabled) continue;
        unsigned char *bytes;
        size_t len;
        if (!steerE_mod_save_data(m, &bytes, &len) || !bytes) continue;
        int st = emit(ud, m->name, bytes, len);
        steerE_alloc(e, bytes, 0);
        if (st != 0) return st;
    }
    return 0;
}

int steerE_mod_load(steer_Engine *e, const char *name, const unsigned char *p, size_t len)
{
    Mod *m = steerE_find_mod(e, name);
    if (!m || !m->enabled) {
        // with no mods loaded yet (steer run --load restores the snapshot
        // once before loading them, and again after) nothing is lost yet
        char shown[STEERE_SHOWN_MAX];
        if (e->nmods > 0)
            steerE_log(e, 1, "snapshot: mod %s is not running: its saved data is left out",
                       steerE_shown(name, shown, sizeof shown));
        return 0;
    }
    return steerE_mod_load_data(m, p, len) ? 0 : STEER_EMOD;
}

// ---- snapshots: what the engine keeps for each mod ----------------------------------
//
// Beside a mod's own data a snapshot holds what the engine keeps for it
// between ticks: its live agents (they count against its quota, are the
// ones halted when it is disabled, and the ones it may change without
// touch_all: its world's "owned" set) and its inbox (messages sent during
// the last tick's updates, delivered at the next). Little-endian: a u32
// count of agents and each one's u64 handle id, then a u32 count of
// messages and each one's sender (u32 length, the name) and bytes (u32
// length, steer.send's encoding).

#define MAX_SENDER 4096 // bytes of a sender's name in a snapshot

int steerE_mods_save_state(steer_Engine *e, int (*emit)(void *ud, const char *name, const unsigned char *p, size_t len),
                           void *ud)
{
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->enabled) continue;
        int live = 0;
        for (int k = 0; k < m->nagents; k++) live += steer_alive(e->world, m->agents[k]);
        size_t len = 8 + 8 * (size_t)live;
        for (int k = 0; k < m->ninbox; k++) len += 8 + strlen(m->inbox[k].from) + m->inbox[k].len;
        unsigned char *p = steerE_alloc(e, NULL, len);
        if (!p) return STEER_ENOMEM;
        steerS_Writer q;
        steerS_writer_fixed(&q, p, len);
        steerS_put_u32(&q, (uint32_t)live);
        for (int k = 0; k < m->nagents; k++)
            if (steer_alive(e->world, m->agents[k])) steerS_put_u64(&q, m->agents[k].id);
        steerS_put_u32(&q, (uint32_t)m->ninbox);
        for (int k = 0; k < m->ninbox; k++) {
            const Msg *msg = &m->inbox[k];
            steerS_put_str(&q, msg->from);
            steerS_put_u32(&q, (uint32_t)msg->len);
            steerS_put(&q, msg->data, msg->len);
        }
        int st = emit(ud, m->name, p, len);
        steerE_alloc(e, p, 0);
        if (st != 0) return st;
    }
    return 0;
}

bool steerE_mod_state_ok(const unsigned char *p, size_t len)
{
    steerS_Reader r;
    steerS_reader_init(&r, p, len, NULL, 0);
    uint32_t nagents = steerS_get_u32(&r);
    if (r.failed || nagents > steerS_left(&r) / 8) return false;
    steerS_take(&r, 8 * (size_t)nagents);
    uint32_t nmsgs = steerS_get_u32(&r);
    uint64_t total = 0;
    if (r.failed || nmsgs > MAX_INBOX) return false;
    for (uint32_t i = 0; i < nmsgs; i++) {
        uint32_t fl, dl;
        const unsigned char *from = steerS_get_str(&r, &fl);
        if (!from || fl == 0 || fl > MAX_SENDER || memchr(from, '\0', fl)) return false;
        const unsigned char *data = steerS_get_str(&r, &dl);
        if (!data || dl == 0 || dl > MAX_MESSAGE) return false;
        total += dl;
    }
    return total <= MAX_INBOX_BYTES && !steerS_left(&r);
}

// ---- snapshots: whose agents ----------------------------------------------------------
//
// A snapshot's claim that a mod owns an agent is the file's word: a file
// made by hand can claim the game's agents for a mod, which could then
// change and remove them without touch_all. So a claim stands only where
// the file's own world agrees:
//   - no agent is claimed twice, by one mod or by two (steerE_mod_claims_ok,
//     before anything is restored: such a file is refused);
//   - the agent is alive in the restored world;
//   - it does not think in another's state: its think reference is none or
//     the mod's own (a scenario's think is owner 0's, another mod's its own);
//   - the scenario did not spawn it from an archetype (its world's record of
//     archetype spawns, which only the spawning world keeps);
//   - it is within the mod's agent quota now.
// An agent the world records nothing of (no think, spawned without an
// archetype) cannot be told apart, by the bytes, from one the mod spawned.

typedef struct Claim {
    uint64_t id;
    int section;
} Claim;

static int claim_cmp(const void *a, const void *b)
{
    const Claim *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

bool steerE_mod_claims_ok(steer_Engine *e, const steerE_ModState *s, int n, int *bad)
{
    size_t total = 0;
    for (int i = 0; i < n; i++) total += steerS_load_le(s[i].p, 4); // checked by steerE_mod_state_ok
    if (total < 2) return true;
    Claim *c = steerE_alloc(e, NULL, total * sizeof *c);
    if (!c) {
        *bad = -1;
        return false;
    }
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        steerS_Reader r;
        steerS_reader_init(&r, s[i].p, s[i].len, NULL, 0);
        for (uint32_t j = 0, nj = steerS_get_u32(&r); j < nj; j++) c[k++] = (Claim){ steerS_get_u64(&r), i };
    }
    qsort(c, total, sizeof *c, claim_cmp);
    *bad = -2;
    for (size_t i = 1; i < total && *bad == -2; i++)
        if (c[i].id == c[i - 1].id) *bad = c[i].section;
    steerE_alloc(e, c, 0);
    return *bad == -2;
}

// Whether the restored world lets mod m own agent a (above).
static bool world_gives(Mod *m, steer_Agent a)
{
    steer_Engine *e = m->e;
    int ref = 0;
    double hz = 0;
    if (!steer_alive(e->world, a) || steer_agent_think(e->world, a, &ref, &hz) != STEER_OK) return false;
    if (ref != 0 && ref != m->owner + 1) return false;
    lua_State *L = e->L;
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->world_ref);
    steerL_uv_field(L, -1, "arch");
    bool by_scenario = lua_istable(L, -1) && steerL_rawgetid(L, -1, a.id) != LUA_TNIL;
    lua_settop(L, top);
    return !by_scenario;
}

// Runs protected under the budget, in the mod's state (its memory): the
// world's "owned" set made anew from the mod's agents.
static int own_f(lua_State *L)
{
    Mod *m = steerE_mod_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->world_ref);
    steerL_own_agents(L, -1, m->agents, m->nagents);
    return 0;
}

// The mod's agents and inbox become the saved ones (s checked by
// steerE_mod_state_ok), or none (s NULL: it was not running then). Agents
// gone from the world, or past the mod's quota now, are not its own.
static void set_state(Mod *m, const steerE_ModState *s)
{
    steer_Engine *e = m->e;
    m->nagents = 0;
    steerE_clear_inbox(m);
    if (s) {
        steerS_Reader r;
        steerS_reader_init(&r, s->p, s->len, NULL, 0);
        uint32_t n = steerS_get_u32(&r), refused = 0;
        for (uint32_t i = 0; i < n; i++) {
            steer_Agent a = { steerS_get_u64(&r) };
            if (!world_gives(m, a)) refused++;
            else if (m->nagents < m->agent_cap) m->agents[m->nagents++] = a;
        }
        if (refused)
            steerE_log(e, 2,
                       "snapshot: mod %s: %u of the agents saved as its own are not, by the snapshot's world (gone, "
                       "thinking in another's state, or spawned by the scenario from an archetype): left out",
                       m->shown, refused);
        n = steerS_get_u32(&r);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t fl, dl;
            const unsigned char *from = steerS_get_str(&r, &fl), *data = steerS_get_str(&r, &dl);
            Msg *msg = &m->inbox[m->ninbox];
            msg->from = steerE_alloc(e, NULL, fl + 1);
            msg->data = steerE_alloc(e, NULL, dl);
            if (!msg->from || !msg->data) {
                steerE_alloc(e, msg->from, 0);
                steerE_alloc(e, msg->data, 0);
                steerE_log(e, 2, "snapshot: mod %s: out of memory: its saved messages are left out", m->shown);
                break;
            }
            memcpy(msg->from, from, fl);
            msg->from[fl] = '\0';
            memcpy(msg->data, data, dl);
            msg->len = dl;
            m->ninbox++;
            m->inbox_bytes += dl;
        }
    }
    steerE_mod_own(m);
}

int steerE_mod_own(Mod *m)
{
    if (m->touch_all) return 1; // it changes any agent: its world keeps no "owned" set
    lua_pushcfunction(m->L, own_f);
    return steerE_mod_call(m, 0);
}

// Runs protected under the budget, in the mod's state: steerL_restored on
// its world, whose "owned" set is then the mod's agents the world holds;
// its flow fields and trees take their place in the restored brains back
// (steerL_restored_twins: a.brain and w:same_brain find them).
static int restored_f(lua_State *L)
{
    Mod *m = steerE_mod_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->world_ref);
    steerL_restored(L, -1);
    steerL_restored_twins(L, -1);
    if (!m->touch_all) steerL_own_agents(L, -1, m->agents, m->nagents);
    return 0;
}

void steerE_mods_restored(void *ud, steer_World *w)
{
    steer_Engine *e = ud;
    if (w != e->world) return; // another world of the scenario's: no mod holds it
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->enabled) continue;
        steerE_mod_forget_gone(m);
        lua_pushcfunction(m->L, restored_f);
        steerE_mod_call(m, 0);
    }
}

void steerE_mods_restore_state(steer_Engine *e, const steerE_ModState *saved, int n)
{
    for (int i = 0; i < n; i++) {
        const Mod *m = steerE_find_mod(e, saved[i].name);
        char shown[STEERE_SHOWN_MAX];
        if ((!m || !m->enabled) && e->nmods > 0)
            steerE_log(e, 1, "snapshot: mod %s is not running: its agents and messages are left out",
                       steerE_shown(saved[i].name, shown, sizeof shown));
    }
    for (int i = 0; i < e->nmods; i++) {
        Mod *m = e->mods[i];
        if (!m->enabled) continue;
        const steerE_ModState *s = NULL;
        for (int k = 0; k < n && !s; k++)
            if (strcmp(saved[k].name, m->name) == 0) s = &saved[k];
        set_state(m, s);
    }
}
