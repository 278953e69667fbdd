// SPDX-License-Identifier: MIT
// ldata.c — plain Lua data as canonical bytes and back (the format is in
// ldata.h).
//
// The encoder runs in a protected call of its own, so that Lua may raise
// anywhere in it (a memory error, a stopped mod's hook) without leaking the
// buffer; its own refusals set a status and a message first. Each table's
// entries are copied into a scratch table and sorted by key before they
// are written: `next` order depends on a table's history and on the
// process's string hash seed, the bytes must not. The C recursion is
// bounded by max_depth (at most STEERL_DATA_DEPTH_MAX) in both directions.
#include "ldata.h"
#include "lutil.h"
#include "../core/bytes.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(lua_Integer) == 8 && sizeof(lua_Number) == 8, "the format stores 64-bit integers and doubles");

enum {
    TAG_NIL = 0,
    TAG_BOOLEAN = 1,
    TAG_NUMBER = 3,
    TAG_STRING = 4,
    TAG_TABLE = 5,
    TAG_REF = 8,
    TAG_USER = 9,
    TAG_VEC = 10,
    TAG_END = 0xFF
};

// A table key as it sorts: the canonical order is by rank, then by value.
enum { RANK_INTEGER, RANK_FLOAT, RANK_STRING, RANK_BOOLEAN };
typedef struct Key {
    int rank;
    lua_Integer i; // an integer, or a boolean's 0 or 1
    lua_Number d;
    const char *s; // a string's bytes (kept alive by the table that holds the key)
    size_t n;
    lua_Integer slot; // encoder: the entry's place in the scratch table
} Key;

static int key_cmp(const Key *a, const Key *b)
{
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    switch (a->rank) {
    case RANK_FLOAT: return (a->d > b->d) - (a->d < b->d);
    case RANK_STRING: {
        int c = memcmp(a->s, b->s, a->n < b->n ? a->n : b->n);
        if (c) return c < 0 ? -1 : 1;
        return (a->n > b->n) - (a->n < b->n);
    }
    default: return (a->i > b->i) - (a->i < b->i);
    }
}

static int key_qsort_cmp(const void *a, const void *b) { return key_cmp(a, b); }

// Whether the number at idx is written as an integer. Lua 5.1 and LuaJIT
// have no integer subtype (a number is a double): there a number is one when
// it has no fraction and lies in the 64-bit range, and a value -0.0 stays a
// float (an integer has no sign of zero; a key -0.0 is the key 0). So what a
// 5.1 script holds comes back to it unchanged.
#if LUA_VERSION_NUM < 503
static bool integral(lua_Number d, bool key)
{
    return d == floor(d) && d >= -0x1p63 && d < 0x1p63 && (key || !(d == 0 && signbit(d)));
}
#endif
static bool is_integer(lua_State *L, int idx, bool key)
{
#if LUA_VERSION_NUM < 503
    return integral(lua_tonumber(L, idx), key);
#else
    (void)key;
    return lua_isinteger(L, idx);
#endif
}

static int depth_limit(const steerL_DataOptions *o)
{
    if (o->max_depth <= 0) return STEERL_DATA_DEPTH;
    return o->max_depth < STEERL_DATA_DEPTH_MAX ? o->max_depth : STEERL_DATA_DEPTH_MAX;
}

// ---- encoding ----------------------------------------------------------------------

typedef struct Enc {
    lua_State *L;
    const steerL_DataOptions *o;
    int max_depth;
    steerS_Writer out;                           // through o->alloc
    int seen;                                    // stack index of table -> back-reference index (shared), else 0
    lua_Integer ntables;                         // tables begun, for back-references
    steerL_DataError err;                        // status and message of a refusal
    const Key *trail[STEERL_DATA_DEPTH_MAX + 1]; // trail[d]: the key of the value at depth d + 1
} Enc;

// Append a key to the path in out: ".name" for an identifier, else "[...]".
static void path_key(luaL_Buffer *b, const Key *k)
{
    char num[64];
    switch (k->rank) {
    case RANK_INTEGER: snprintf(num, sizeof num, "[%lld]", (long long)k->i); break;
    case RANK_FLOAT: snprintf(num, sizeof num, "[%.17g]", (double)k->d); break;
    case RANK_BOOLEAN: snprintf(num, sizeof num, "[%s]", k->i ? "true" : "false"); break;
    default: {
        int ident = k->n > 0 && k->n <= 64 && !(k->s[0] >= '0' && k->s[0] <= '9');
        for (size_t j = 0; ident && j < k->n; j++) {
            unsigned char c = (unsigned char)k->s[j];
            ident = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        }
        if (ident) {
            luaL_addchar(b, '.');
            luaL_addlstring(b, k->s, k->n);
            return;
        }
        luaL_addstring(b, "[\"");
        for (size_t j = 0; j < k->n && j < 40; j++) {
            unsigned char c = (unsigned char)k->s[j];
            if (c >= ' ' && c < 0x7F && c != '"' && c != '\\') {
                luaL_addchar(b, (char)c);
            } else {
                snprintf(num, sizeof num, "\\%u", c);
                luaL_addstring(b, num);
            }
        }
        luaL_addstring(b, k->n > 40 ? "...\"]" : "\"]");
        return;
    }
    }
    luaL_addstring(b, num);
}

// Refuse: the status, and "WHERE.path: what" for the value at `depth`,
// then unwind to steerL_data_encode.
static int refuse(Enc *e, steerL_DataStatus st, int depth, const char *what)
{
    lua_State *L = e->L;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, e->o->where ? e->o->where : "data");
    for (int d = 0; d < depth; d++) {
        if (depth > 24 && d == 8) { // a long path keeps its two ends
            luaL_addstring(&b, "[...]");
            d = depth - 16;
        }
        path_key(&b, e->trail[d]);
    }
    luaL_addstring(&b, ": ");
    luaL_addstring(&b, what);
    luaL_pushresult(&b);
    const char *msg = lua_tostring(L, -1);
    snprintf(e->err.message, sizeof e->err.message, "%s", msg);
    e->err.status = st;
    return lua_error(L);
}

static int too_large(Enc *e)
{
    char what[96];
    snprintf(what, sizeof what, "more than %zu bytes", e->o->max_bytes);
    return refuse(e, STEERL_DATA_TOO_LARGE, 0, what);
}

static void put(Enc *e, const void *src, size_t n)
{
    const steerL_DataOptions *o = e->o;
    if (o->max_bytes && n > o->max_bytes - e->out.n) too_large(e);
    steerS_put(&e->out, src, n);
    if (e->out.failed) refuse(e, STEERL_DATA_NO_MEMORY, 0, "out of memory");
}

static void put_byte(Enc *e, unsigned b)
{
    unsigned char c = (unsigned char)b;
    put(e, &c, 1);
}

static void put_varint(Enc *e, uint64_t v)
{
    unsigned char b[10];
    size_t n = 0;
    do {
        b[n] = (unsigned char)(v & 0x7F);
        v >>= 7;
        if (v) b[n] |= 0x80;
        n++;
    } while (v);
    put(e, b, n);
}

static void put_integer(Enc *e, lua_Integer v)
{
    uint64_t u = (uint64_t)v;
    put_byte(e, TAG_NUMBER);
    put_byte(e, 1);
    put_varint(e, (u << 1) ^ (0 - (u >> 63))); // zigzag: small negatives stay short
}

// A double's 8 bytes, little-endian.
static void put_float64(Enc *e, lua_Number v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    unsigned char b[8];
    steerS_store_le(b, u, 8);
    put(e, b, sizeof b);
}

static void put_float(Enc *e, lua_Number v)
{
    put_byte(e, TAG_NUMBER);
    put_byte(e, 0);
    put_float64(e, v);
}

static void put_string(Enc *e, const char *s, size_t n)
{
    put_byte(e, TAG_STRING);
    put_varint(e, n);
    put(e, s, n);
}

static void put_key(Enc *e, const Key *k)
{
    switch (k->rank) {
    case RANK_INTEGER: put_integer(e, k->i); break;
    case RANK_FLOAT: put_float(e, k->d); break;
    case RANK_STRING: put_string(e, k->s, k->n); break;
    default: put_byte(e, TAG_BOOLEAN); put_byte(e, (unsigned)k->i);
    }
}

static const char *article(int t)
{
    return t == LUA_TUSERDATA || t == LUA_TLIGHTUSERDATA ? "a userdata" : t == LUA_TTHREAD ? "a thread" : "a function";
}

static void encode_value(Enc *e, int idx, int depth);

// The key at idx as it sorts, or a refusal of a key that is not plain.
static void key_of(Enc *e, int idx, Key *k, int depth)
{
    lua_State *L = e->L;
    memset(k, 0, sizeof *k);
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (is_integer(L, idx, true)) {
            k->rank = RANK_INTEGER;
            k->i = lua_tointeger(L, idx);
        } else {
            k->rank = RANK_FLOAT;
            k->d = lua_tonumber(L, idx);
        }
        break;
    case LUA_TSTRING:
        k->rank = RANK_STRING;
        k->s = lua_tolstring(L, idx, &k->n);
        break;
    case LUA_TBOOLEAN:
        k->rank = RANK_BOOLEAN;
        k->i = lua_toboolean(L, idx);
        break;
    default: {
        char what[160];
        int t = lua_type(L, idx);
        snprintf(what, sizeof what, "a key that is %s cannot be %s (keys are strings, numbers or booleans)",
                 t == LUA_TTABLE ? "a table" : article(t), e->o->verb ? e->o->verb : "saved");
        refuse(e, STEERL_DATA_BAD_KEY, depth, what);
    }
    }
}

static void encode_table(Enc *e, int idx, int depth)
{
    lua_State *L = e->L;
    if (e->seen) {
        lua_pushvalue(L, idx);
        if (lua_rawget(L, e->seen) == LUA_TNUMBER) {
            put_byte(e, TAG_REF);
            put_varint(e, (uint64_t)lua_tointeger(L, -1));
            lua_pop(L, 1);
            return;
        }
        lua_pop(L, 1);
        lua_pushvalue(L, idx);
        lua_pushinteger(L, ++e->ntables);
        lua_rawset(L, e->seen);
    }
    if (depth >= e->max_depth || !lua_checkstack(L, 6)) {
        char what[96];
        snprintf(what, sizeof what, "tables nested more than %d deep%s", e->max_depth, e->seen ? "" : " (or a cycle)");
        refuse(e, STEERL_DATA_TOO_DEEP, depth, what);
    }
    // lua_next walks a table's empty slots too: a mod's thousand references
    // to a big emptied table would take seconds in this one C call
    if (e->o->stop && e->o->stop(e->o->stop_ud)) refuse(e, STEERL_DATA_STOPPED, depth, "stopped");
    put_byte(e, TAG_TABLE);
    lua_newtable(L); // the entries: key 2i - 1, value 2i
    int scratch = lua_gettop(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        Key k;
        key_of(e, -2, &k, depth);
        // each entry takes at least 4 bytes: a bounded encoding sorts a bounded number
        if (e->o->max_bytes && (size_t)n >= e->o->max_bytes / 4) too_large(e);
        lua_rawseti(L, scratch, 2 * n + 2);
        lua_pushvalue(L, -1);
        lua_rawseti(L, scratch, 2 * n + 1);
        n++;
    }
    if ((size_t)n > SIZE_MAX / sizeof(Key)) refuse(e, STEERL_DATA_NO_MEMORY, depth, "out of memory");
    Key *keys = lua_newuserdatauv(L, (size_t)n * sizeof(Key), 0);
    for (lua_Integer j = 0; j < n; j++) {
        lua_rawgeti(L, scratch, 2 * j + 1);
        key_of(e, -1, &keys[j], depth); // the string stays alive in the scratch table
        keys[j].slot = j;
        lua_pop(L, 1);
    }
    if (n > 1) qsort(keys, (size_t)n, sizeof(Key), key_qsort_cmp);
    for (lua_Integer j = 0; j < n; j++) {
        e->trail[depth] = &keys[j];
        put_key(e, &keys[j]);
        lua_rawgeti(L, scratch, 2 * keys[j].slot + 2);
        encode_value(e, -1, depth + 1);
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    put_byte(e, TAG_END);
}

// Metatables are ignored: lua_next, lua_rawget and the lua_to* of strings
// and numbers run no metamethod.
static void encode_value(Enc *e, int idx, int depth)
{
    lua_State *L = e->L;
    idx = lua_absindex(L, idx);
    int t = lua_type(L, idx);
    switch (t) {
    case LUA_TNIL: put_byte(e, TAG_NIL); break;
    case LUA_TBOOLEAN:
        put_byte(e, TAG_BOOLEAN);
        put_byte(e, (unsigned)lua_toboolean(L, idx));
        break;
    case LUA_TNUMBER:
        if (is_integer(L, idx, false)) put_integer(e, lua_tointeger(L, idx));
        else put_float(e, lua_tonumber(L, idx));
        break;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        put_string(e, s, n);
        break;
    }
    case LUA_TTABLE: encode_table(e, idx, depth); break;
    default: {
        const char *why = NULL;
        double v[3];
        if (t == LUA_TUSERDATA && e->o->ref_encode && luaL_testudata(L, idx, STEERL_VEC) && steerL_tovec(L, idx, v)) {
            put_byte(e, TAG_VEC);
            for (int i = 0; i < 3; i++) put_float64(e, v[i]);
            break;
        }
        if (t == LUA_TUSERDATA && e->o->ref_encode) {
            uint64_t index = 0;
            int kind = e->o->ref_encode(e->o->ref_ud, L, idx, &index, &why);
            if (kind > 0 && kind < 256) {
                put_byte(e, TAG_USER);
                put_byte(e, (unsigned)kind);
                put_varint(e, index);
                break;
            }
        }
        char what[160];
        if (why) snprintf(what, sizeof what, "%s cannot be %s", why, e->o->verb ? e->o->verb : "saved");
        else
            snprintf(what, sizeof what, "%s cannot be %s (plain data only: nil, booleans, numbers, strings, tables)",
                     article(t), e->o->verb ? e->o->verb : "saved");
        refuse(e, STEERL_DATA_BAD_VALUE, depth, what);
    }
    }
}

// Protected: 1 the value, 2 the Enc.
static int encode_protected(lua_State *L)
{
    Enc *e = lua_touserdata(L, 2);
    if (e->o->shared) {
        lua_newtable(L);
        e->seen = lua_gettop(L);
    }
    encode_value(e, 1, 0);
    return 0;
}

void steerL_data_free(const steerL_DataOptions *opts, void *p)
{
    steerS_Writer w;
    steerS_writer_init(&w, opts ? opts->alloc : NULL, opts ? opts->alloc_ud : NULL);
    w.p = p;
    steerS_writer_free(&w);
}

steerL_DataStatus steerL_data_encode(lua_State *L, int idx, const steerL_DataOptions *opts, unsigned char **out,
                                     size_t *len, steerL_DataError *err)
{
    static const steerL_DataOptions defaults = { 0 };
    const steerL_DataOptions *o = opts ? opts : &defaults;
    steerN_Alloc a = steerL_allocator(L);
    Enc *e = steerN_realloc(&a, NULL, 0, sizeof *e); // the trail is too big for some threads' stacks
    *out = NULL;
    *len = 0;
    if (!e) {
        if (err) *err = (steerL_DataError){ STEERL_DATA_NO_MEMORY, "out of memory" };
        return STEERL_DATA_NO_MEMORY;
    }
    memset(e, 0, sizeof *e);
    e->L = L;
    e->o = o;
    e->max_depth = depth_limit(o);
    steerS_writer_init(&e->out, o->alloc, o->alloc_ud);
    idx = lua_absindex(L, idx);
    int called = lua_checkstack(L, 3), st = LUA_ERRMEM;
    if (called) {
        lua_pushcfunction(L, encode_protected);
        lua_pushvalue(L, idx);
        lua_pushlightuserdata(L, e);
        st = lua_pcall(L, 2, 0, 0);
    }
    if (st != LUA_OK) {
        if (e->err.status == STEERL_DATA_OK) { // not a refusal: Lua raised
            int stopped = st != LUA_ERRMEM || (o->stop && o->stop(o->stop_ud));
            e->err.status = stopped ? STEERL_DATA_STOPPED : STEERL_DATA_NO_MEMORY;
            snprintf(e->err.message, sizeof e->err.message, "%s: %s", o->where ? o->where : "data",
                     stopped ? "stopped" : "out of memory");
        }
        if (called) lua_pop(L, 1); // the error object
        steerS_writer_free(&e->out);
        steerL_DataStatus status = e->err.status;
        if (err) *err = e->err;
        steerN_realloc(&a, e, sizeof *e, 0);
        return status;
    }
    *out = e->out.p;
    *len = e->out.n;
    if (err) {
        err->status = STEERL_DATA_OK;
        err->message[0] = 0;
    }
    steerN_realloc(&a, e, sizeof *e, 0);
    return STEERL_DATA_OK;
}

// ---- decoding ----------------------------------------------------------------------

typedef struct Dec {
    lua_State *L;
    const steerL_DataOptions *o;
    steerS_Reader r;
    int max_depth;
    int refs; // stack index of back-reference index -> table (shared), else 0
    lua_Integer ntables;
    bool dry; // steerL_data_check: every check, no value made (L only raises)
} Dec;

static int corrupt(Dec *d, const char *why)
{
    const char *noun = d->o->noun ? d->o->noun : "data";
    if (d->o->where) return luaL_error(d->L, "%s: corrupt %s (%s)", d->o->where, noun, why);
    return luaL_error(d->L, "corrupt %s (%s)", noun, why);
}

// The next n bytes, or a "corrupt" error when fewer are left.
static const unsigned char *take(Dec *d, size_t n, const char *what)
{
    if (n > steerS_left(&d->r)) corrupt(d, what);
    return steerS_take(&d->r, n);
}

// A minimal LEB128 varint of at most 64 bits.
static uint64_t take_varint(Dec *d)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        unsigned b = *take(d, 1, "a number runs past the end");
        if (shift == 63 && b > 1) corrupt(d, "a varint past 64 bits");
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            if (b == 0 && shift > 0) corrupt(d, "a varint not in its shortest form");
            return v;
        }
    }
}

// A double's 8 bytes, little-endian.
static lua_Number take_float64(Dec *d, const char *what)
{
    if (steerS_left(&d->r) < 8) corrupt(d, what);
    return steerS_get_f64(&d->r);
}

// The keys from the decoded value down to the one being read.
typedef struct Trail {
    const Key *key;
    const struct Trail *up;
} Trail;

#if LUA_VERSION_NUM < 503
static void add_trail(luaL_Buffer *b, const Trail *t, const steerL_DataOptions *o)
{
    if (!t) return;
    add_trail(b, t->up, o);
    if (!t->up && o->agent_keys && t->key->rank == RANK_INTEGER) {
        char id[64];
        snprintf(id, sizeof id, "agent %lld's ", (long long)t->key->i);
        luaL_addstring(b, id);
        luaL_addstring(b, o->name);
        return;
    }
    if (!t->up) luaL_addstring(b, o->name ? o->name : "data");
    path_key(b, t->key);
}

// Raise "WHERE: NAME.path: the WHAT NUMBER ...": a number this Lua cannot
// hold as it was saved (the key at the end of trail, or its value).
static int inexact(Dec *d, const Trail *trail, const char *what, const char *number, const char *why)
{
    lua_State *L = d->L;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (d->o->where) {
        luaL_addstring(&b, d->o->where);
        luaL_addstring(&b, ": ");
    }
    if (trail) add_trail(&b, trail, d->o);
    else luaL_addstring(&b, d->o->name ? d->o->name : "data");
    luaL_addstring(&b, ": the ");
    luaL_addstring(&b, what);
    luaL_addstring(&b, number);
    luaL_addstring(&b, why);
    luaL_pushresult(&b);
    return lua_error(L);
}

// Lua 5.1 and LuaJIT hold an integer as a double: one that a double does
// not hold exactly (past 2^53) would be rounded, and two keys could become
// one; a float with no fraction would be written back as an integer
// (is_integer), which matters with keep_subtype. Refuse them, naming where
// they are.
static void check_exact(Dec *d, const Key *k, const Trail *trail)
{
    char num[64];
    if (k->rank == RANK_INTEGER) {
        lua_Number dv = (lua_Number)k->i;
        if (dv >= -0x1p63 && dv < 0x1p63 && (lua_Integer)dv == k->i) return;
        snprintf(num, sizeof num, "%lld", (long long)k->i);
        inexact(d, trail, "integer ", num,
                " cannot be loaded exactly on Lua 5.1 or LuaJIT, whose numbers are doubles (integers exact to 2^53)");
    } else if (k->rank == RANK_FLOAT && d->o->keep_subtype && integral(k->d, false)) {
        snprintf(num, sizeof num, "%.1f", (double)k->d);
        inexact(d, trail, "float ", num,
                " cannot be loaded exactly on Lua 5.1 or LuaJIT, which have no integer subtype (it would be saved "
                "back as an integer)");
    }
}
#endif

// Push the scalar (nil, boolean, number, string) with tag t; fill k, if
// not NULL, with it as a key. trail: where it is (for a key, ending with
// it), for the refusal of a number this Lua cannot hold.
static void decode_scalar(Dec *d, unsigned t, Key *k, const Trail *trail)
{
    lua_State *L = d->dry ? NULL : d->L;
    switch (t) {
    case TAG_NIL:
        if (L) lua_pushnil(L);
        break;
    case TAG_BOOLEAN: {
        unsigned v = *take(d, 1, "a boolean runs past the end");
        if (v > 1) corrupt(d, "a boolean that is neither 0 nor 1");
        if (L) lua_pushboolean(L, (int)v);
        if (k) k->rank = RANK_BOOLEAN, k->i = v;
        break;
    }
    case TAG_NUMBER: {
        unsigned isint = *take(d, 1, "a number runs past the end");
        if (isint > 1) corrupt(d, "a number that is neither integer nor float");
        Key n = { 0 };
        if (isint) {
            uint64_t u = take_varint(d);
            n.rank = RANK_INTEGER;
            n.i = (lua_Integer)((u >> 1) ^ (0 - (u & 1)));
        } else {
            n.rank = RANK_FLOAT;
            n.d = take_float64(d, "a number runs past the end");
        }
        if (k) *k = n; // (a key's trail ends with it)
#if LUA_VERSION_NUM < 503
        // (a float key with no fraction is refused as corrupt by decode_table)
        if (!(k && n.rank == RANK_FLOAT)) check_exact(d, &n, trail);
#else
        (void)trail;
#endif
        if (L && isint) lua_pushinteger(L, n.i);
        else if (L) lua_pushnumber(L, n.d);
        break;
    }
    case TAG_STRING: {
        uint64_t n = take_varint(d);
        if (n > steerS_left(&d->r)) corrupt(d, "a string runs past the end"); // before size_t may cut n
        const unsigned char *s = take(d, (size_t)n, "a string runs past the end");
        if (L) lua_pushlstring(L, (const char *)s, (size_t)n);
        if (k) k->rank = RANK_STRING, k->s = (const char *)s, k->n = (size_t)n;
        break;
    }
    default: corrupt(d, "an unknown tag");
    }
}

// Each returns the tag of the value it read (TAG_NIL: a nil).
static unsigned decode_value(Dec *d, int depth, const Trail *trail);

static void decode_table(Dec *d, int depth, const Trail *up)
{
    lua_State *L = d->L;
    if (depth >= d->max_depth || (!d->dry && !lua_checkstack(L, 4))) corrupt(d, "tables nested too deeply");
    int t = 0;
    if (d->dry) {
        d->ntables++;
    } else {
        lua_newtable(L);
        t = lua_gettop(L);
        if (d->refs) {
            lua_pushvalue(L, t);
            lua_rawseti(L, d->refs, ++d->ntables);
        }
    }
    Key prev = { 0 }, key;
    int first = 1;
    for (;;) {
        unsigned tag = *take(d, 1, "a table runs past the end");
        if (tag == TAG_END) break;
        // a key the encoder could have written, after the one before it
        memset(&key, 0, sizeof key);
        if (tag != TAG_BOOLEAN && tag != TAG_NUMBER && tag != TAG_STRING) corrupt(d, "a key that is not plain");
        Trail here = { &key, up };
        decode_scalar(d, tag, &key, &here);
        if (key.rank == RANK_FLOAT && (isnan(key.d) || (key.d == floor(key.d) && key.d >= -0x1p63 && key.d < 0x1p63)))
            corrupt(d, "a float key that is NaN or an integer");
        if (!first && key_cmp(&prev, &key) >= 0) corrupt(d, "keys out of order");
        prev = key;
        first = 0;
        unsigned vt = decode_value(d, depth + 1, &here);
        if (d->dry ? vt == TAG_NIL : lua_isnil(L, -1)) corrupt(d, "a nil value in a table");
        if (!d->dry) lua_rawset(L, t);
    }
}

static unsigned decode_value(Dec *d, int depth, const Trail *trail)
{
    unsigned tag = *take(d, 1, "a value runs past the end");
    if (tag == TAG_TABLE) {
        decode_table(d, depth, trail);
    } else if (tag == TAG_REF) {
        if (!d->o->shared) corrupt(d, "a back-reference where tables are not shared");
        uint64_t i = take_varint(d);
        if (i < 1 || i > (uint64_t)d->ntables) corrupt(d, "a back-reference to no table");
        if (!d->dry) lua_rawgeti(d->L, d->refs, (lua_Integer)i);
    } else if (tag == TAG_USER) {
        if (!d->o->ref_decode) corrupt(d, "a reference where there are none");
        unsigned kind = *take(d, 1, "a reference runs past the end");
        if (kind == 0) corrupt(d, "a reference of kind 0");
        uint64_t i = take_varint(d);
        if (!d->dry) d->o->ref_decode(d->o->ref_ud, d->L, (int)kind, i);
    } else if (tag == TAG_VEC) {
        if (!d->o->ref_decode) corrupt(d, "a vector where there are none");
        double v[3];
        for (int i = 0; i < 3; i++) {
            v[i] = take_float64(d, "a vector runs past the end");
            if (!isfinite(v[i])) corrupt(d, "a vector that is not finite");
        }
        if (!d->dry) steerL_pushvec(d->L, v[0], v[1], v[2]);
    } else {
        decode_scalar(d, tag, NULL, trail);
    }
    return tag;
}

static void decode(lua_State *L, const unsigned char *p, size_t len, const steerL_DataOptions *opts, bool dry)
{
    static const steerL_DataOptions defaults = { 0 };
    Dec d = { .L = L, .o = opts ? opts : &defaults, .dry = dry };
    steerS_reader_init(&d.r, p, len, NULL, 0);
    d.max_depth = depth_limit(d.o);
    if (!dry) {
        luaL_checkstack(L, 4, "decoding data");
        if (d.o->shared) {
            lua_newtable(L);
            d.refs = lua_gettop(L);
        }
    }
    decode_value(&d, 0, NULL);
    if (steerS_left(&d.r)) corrupt(&d, "bytes after the value");
    if (d.refs) lua_remove(L, d.refs);
}

void steerL_data_decode(lua_State *L, const unsigned char *p, size_t len, const steerL_DataOptions *opts)
{
    decode(L, p, len, opts, false);
}

void steerL_data_check(lua_State *L, const unsigned char *p, size_t len, const steerL_DataOptions *opts)
{
    decode(L, p, len, opts, true);
}
