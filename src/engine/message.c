// SPDX-License-Identifier: MIT
// message.c — messages: plain data copied between mods (steer.send), each
// mod's inbox, delivered at the next tick (mod.c).
//
// A message is one value of plain data in the codec of src/lua/ldata.c (the
// same as a.data's in a snapshot), copied: a table met twice is sent twice,
// a cycle is too deep. The decoder trusts none of it (steerE_decode_message
// is fuzzed): every read is checked against the end, and nesting against
// MAX_DEPTH, so hostile bytes raise "corrupt message".
#include "mod.h"
#include "../lua/ldata.h"

#include <string.h>

static const steerL_DataOptions message_options = {
    .max_bytes = MAX_MESSAGE,
    .max_depth = MAX_DEPTH,
    .noun = "message",
    .verb = "sent",
};

// What steer.send says of data it cannot send: each refusal with its own limit.
#define STR_(x) #x
#define STR(x) STR_(x)
static const char *message_error(steerL_DataStatus st)
{
    switch (st) {
    case STEERL_DATA_BAD_VALUE: return "only nil, booleans, numbers, strings and tables of them can be sent";
    case STEERL_DATA_BAD_KEY: return "table keys must be strings, numbers or booleans";
    case STEERL_DATA_TOO_DEEP: return "tables nested more than " STR(MAX_DEPTH) " levels deep (or a cycle)";
    case STEERL_DATA_TOO_LARGE: return "more than 65536 bytes once encoded";
    case STEERL_DATA_STOPPED: return "stopped";
    default: return "out of memory";
    }
}
_Static_assert(MAX_MESSAGE == 65536, "message_error states the limit");

int steerE_encode_message(lua_State *L, int idx, unsigned char **out, size_t *len, const char **err)
{
    steerL_DataStatus st = steerL_data_encode(L, idx, &message_options, out, len, NULL);
    if (st != STEERL_DATA_OK && err) *err = message_error(st);
    return st != STEERL_DATA_OK;
}

void steerE_decode_message(lua_State *L, const unsigned char *p, size_t len)
{
    steerL_data_decode(L, p, len, &message_options);
}

Mod *steerE_find_mod(steer_Engine *e, const char *name)
{
    for (int i = 0; i < e->nmods; i++)
        if (strcmp(e->mods[i]->name, name) == 0) return e->mods[i];
    return NULL;
}

int steerE_mod_send(lua_State *L)
{
    Mod *m = steerE_mod_of(L);
    const char *to = luaL_checkstring(L, 1);
    luaL_checkany(L, 2);
    Mod *r = steerE_find_mod(m->e, to);
    if (!r || !r->enabled || r == m || r->ninbox == MAX_INBOX || r->inbox_bytes >= MAX_INBOX_BYTES) {
        lua_pushboolean(L, 0);
        return 1;
    }
    steerL_DataOptions o = message_options;
    o.alloc = steerE_alloc_ud; // the engine keeps the message: not the mod's memory
    o.alloc_ud = m->e;
    o.stop = steerE_mod_stopped; // a kill ends a long encoding
    o.stop_ud = m;
    unsigned char *data;
    size_t n;
    steerL_DataError err;
    steerL_DataStatus st = steerL_data_encode(L, 2, &o, &data, &n, &err);
    // the encoder's own words: the key path and the limit of this refusal
    if (st != STEERL_DATA_OK) return luaL_error(L, "steer.send: argument 'data': %s", err.message);
    if (r->inbox_bytes + n > MAX_INBOX_BYTES) { // a flood would spend the receiver's budget
        steerE_alloc(m->e, data, 0);
        lua_pushboolean(L, 0);
        return 1;
    }
    Msg *msg = &r->inbox[r->ninbox];
    if (!(msg->from = steerE_strdup(m->e, m->name))) {
        steerE_alloc(m->e, data, 0);
        return luaL_error(L, "steer.send: out of memory");
    }
    msg->data = data;
    msg->len = n;
    r->ninbox++;
    r->inbox_bytes += n;
    lua_pushboolean(L, 1);
    return 1;
}

// math.random and math.randomseed on the mod's own stream, seeded from the

void steerE_clear_inbox(Mod *m)
{
    steer_Engine *e = m->e;
    for (int i = 0; i < m->ninbox; i++) {
        steerE_alloc(e, m->inbox[i].from, 0);
        steerE_alloc(e, m->inbox[i].data, 0);
    }
    m->ninbox = 0;
    m->inbox_bytes = 0;
}
