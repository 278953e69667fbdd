// SPDX-License-Identifier: MIT
// sandbox.c — the library a mod sees, made safe.
//
// A mod is stopped by its own thread (mod.c): a count hook looks at the
// watchdog's verdict every thousand Lua instructions, and once the mod is
// killed the thread stops at every instruction and every call. A C
// function runs no instruction, so every C function a mod can reach must
// finish in bounded time, well under the budget (20 ms) at the default
// memory cap, and every C loop that calls the mod's functions or
// metamethods (which may be C functions too, a loop of calls running no
// instruction) looks at the verdict itself (steerE_check_stop); so do the
// costlier functions on entry, so that a Lua loop of them stops at the
// next one:
//  - pattern matching (find, match, gmatch, gsub) is Lua 5.4.4's matcher
//    with a step counter (third_party/luapattern): a call that needs more
//    than two million steps raises an error instead of backtracking for
//    hours, and the verdict is looked at every 1024 steps and before each
//    call of gsub's replacement function or lookup in its table;
//  - string.rep refuses results above the mod's string limit before it
//    allocates and copies by doubling (everything else that builds
//    strings grows through the mod's capped allocator);
//  - the table functions that loop in C (concat, unpack, move, insert,
//    remove) look at the verdict per element: with a chain of __index
//    tables each lookup is up to 2000 steps of C that run no instruction;
//    table.move takes at most a million elements; table.sort of more than
//    32768 elements (or of a table with a metatable, or of values that
//    compare through __lt) compares through a C function that looks at
//    the verdict, as does a comparator that is a C function;
//  - load takes text only, at most 256 KiB of it (the parser cannot be
//    interrupted); string.pack, unpack and packsize take formats of at
//    most 64 KiB, string.format quotes (%q) at most 256 KiB per call;
//    string.dump, dofile, loadfile and collectgarbage are gone, as are io,
//    os, debug and package: reading one of their names raises "NAME is not
//    available to mods" (a metatable on the globals and on string) rather
//    than Lua's "attempt to index a nil value";
//  - setmetatable refuses __gc, and every metatable the mod did not make
//    (strings', the steer types') is protected, so no finaliser of the
//    mod's can run when the engine closes its state;
//  - tostring and string.format show no addresses.
#include "engine.h"
#include "lpattern.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

// Pattern matching: two million steps a call, and a look at the verdict
// every LPATTERN_POLL_STEPS of them.
static const lpattern_Limits pattern_limits = { .max_steps = 2000000L, .poll = steerE_check_stop };

static size_t max_string(lua_State *L) { return (size_t)lua_tointeger(L, lua_upvalueindex(1)); }

// string.rep with its result size checked before anything is allocated,
// copied by doubling: Lua's copies the string n times, four million
// memcpy calls for string.rep("x", 4e6)
static int str_rep(lua_State *L)
{
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    size_t limit = max_string(L);
    steerE_check_stop(L);
    if (n <= 0 || l + lsep == 0) { // Lua's would copy nothing n times: 10^15 loops
        lua_pushliteral(L, "");
        return 1;
    }
    double total = (double)l * (double)n + (double)lsep * (double)(n - 1);
    if (total > (double)limit) {
        char msg[128];
        snprintf(msg, sizeof msg, "string.rep: a result of %.0f bytes is over the mod's string limit of %zu bytes",
                 total, limit);
        return luaL_error(L, "%s", msg);
    }
    size_t unit = l + lsep, all = unit * (size_t)n; // the last separator is dropped
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, all);
    memcpy(p, s, l);
    memcpy(p + l, sep, lsep);
    for (size_t done = unit; done < all; done *= 2) memcpy(p + done, p, done < all - done ? done : all - done);
    luaL_pushresultsize(&b, all - lsep);
    return 1;
}

static int sb_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 1);
        if (!lua_isstring(L, -1)) return luaL_error(L, "'__tostring' must return a string");
        return 1;
    }
    switch (lua_type(L, 1)) {
    case LUA_TNUMBER:
    case LUA_TSTRING:
    case LUA_TBOOLEAN:
    case LUA_TNIL: luaL_tolstring(L, 1, NULL); break;
    default: lua_pushstring(L, luaL_typename(L, 1)); break; // no address
    }
    return 1;
}

static int sb_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: __gc metamethods are not available to mods");
        lua_pop(L, 1);
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

// string.format without addresses: no %p, and %s of a table, function,
// thread or userdata shows what the sandbox's tostring shows.
// And at most MAX_QUOTED bytes of strings under %q per call: quoting goes
// a byte at a time (3 MB took 130 ms).
#define MAX_QUOTED (256 << 10)

static int sb_format(lua_State *L)
{
    size_t len, quoted = 0;
    const char *fmt = luaL_checklstring(L, 1, &len);
    int arg = 1;
    for (size_t i = 0; i + 1 < len; i++) {
        if (fmt[i] != '%') continue;
        size_t j = i + 1;
        if (fmt[j] == '%') {
            i = j;
            continue;
        }
        arg++;
        while (j < len && strchr("-+ #0123456789.", fmt[j])) j++;
        if (j < len && fmt[j] == 'p') return luaL_error(L, "string.format: '%%p' is not available to mods");
        if (j < len && fmt[j] == 'q' && lua_type(L, arg) == LUA_TSTRING && (quoted += lua_rawlen(L, arg)) > MAX_QUOTED)
            return luaL_error(L, "string.format: '%%q' of more than %d bytes in one call", MAX_QUOTED);
        i = j;
    }
    int n = lua_gettop(L);
    steerE_check_stop(L);
    for (int i = 2; i <= n; i++) {
        int t = lua_type(L, i);
        if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TTHREAD || t == LUA_TUSERDATA ||
            t == LUA_TLIGHTUSERDATA) {
            steerE_check_stop(L); // each may be a __tostring that is a C function
            lua_pushcfunction(L, sb_tostring);
            lua_pushvalue(L, i);
            lua_call(L, 1, 1);
            lua_replace(L, i);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 1);
    return 1;
}

// table.concat, table.unpack and table.move: ltablib.c's, with a look at
// the stop flag per element (a chain of __index tables makes each lookup
// up to 2000 steps of C, and no call), on tables only. table.move({}, 1,
// 1e9, 1) would move a billion nils, allocating nothing: its element count
// is bounded as well, for a clear error.
#define MAX_TABLE_OP 1000000

static void add_field(lua_State *L, luaL_Buffer *b, lua_Integer i)
{
    steerE_check_stop(L);
    lua_geti(L, 1, i);
    if (!lua_isstring(L, -1)) luaL_error(L, "invalid value (at index %I) in table for 'concat'", (LUAI_UACINT)i);
    luaL_addvalue(b);
}

static int tab_concat(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer last = luaL_len(L, 1);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (; i < last; i++) {
        add_field(L, &b, i);
        luaL_addlstring(&b, sep, lsep);
    }
    if (i == last) add_field(L, &b, i);
    luaL_pushresult(&b);
    return 1;
}

static int tab_unpack(lua_State *L)
{
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = luaL_opt(L, luaL_checkinteger, 3, luaL_len(L, 1));
    if (i > e) return 0;
    lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i; // the count minus 1, without overflow
    if (n >= (unsigned)INT_MAX || !lua_checkstack(L, (int)++n)) return luaL_error(L, "too many results to unpack");
    for (; i < e; i++) {
        steerE_check_stop(L);
        lua_geti(L, 1, i);
    }
    lua_geti(L, 1, e);
    return (int)n;
}

// t[to_i] = table 1's [from_i], after a look at the verdict: the one step
// of table.move, insert and remove.
static void move_one(lua_State *L, int to, lua_Integer from_i, lua_Integer to_i)
{
    steerE_check_stop(L);
    lua_geti(L, 1, from_i);
    lua_seti(L, to, to_i);
}

static int tab_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3), t = luaL_checkinteger(L, 4);
    int tt = !lua_isnoneornil(L, 5) ? 5 : 1; // the destination
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, tt, LUA_TTABLE);
    if (e >= f) {
        if ((lua_Unsigned)e - (lua_Unsigned)f >= MAX_TABLE_OP)
            return luaL_error(L, "table.move: more than %d elements", MAX_TABLE_OP);
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        if (t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ))) {
            for (lua_Integer i = 0; i < n; i++) move_one(L, tt, f + i, t + i);
        } else {
            for (lua_Integer i = n - 1; i >= 0; i--) move_one(L, tt, f + i, t + i);
        }
    }
    lua_pushvalue(L, tt);
    return 1;
}

// table.insert and table.remove (ltablib.c's, with the shift bounded): they
// shift up to #t elements, and a __len may claim 2^40 of them
static lua_Integer shift_len(lua_State *L, const char *fn, lua_Integer from, lua_Integer to)
{
    if (to > from && (lua_Unsigned)to - (lua_Unsigned)from >= MAX_TABLE_OP)
        return luaL_error(L, "%s: would shift more than %d elements", fn, MAX_TABLE_OP);
    return to;
}

static int tab_insert(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer e = luaL_intop(+, luaL_len(L, 1), 1); // the first empty element
    lua_Integer pos = e;
    switch (lua_gettop(L)) {
    case 2: break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        for (lua_Integer i = shift_len(L, "table.insert", pos, e); i > pos; i--) move_one(L, 1, i - 1, i);
        break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int tab_remove(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer size = luaL_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size) luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    lua_geti(L, 1, pos);
    for (shift_len(L, "table.remove", pos, size); pos < size; pos++) move_one(L, 1, pos + 1, pos);
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

// Without a comparator, sort compares in C: 20000 references to one 2 MiB
// string took 14 s, and a quarter million numbers 150 ms, in a loop that
// runs no instruction. Past SORT_IN_C elements (or when the table has a
// metatable, whose __index chains make each access up to 2000 steps, or
// holds values compared through __lt, which may be a C function) this
// comparator does the comparing: it looks at the verdict, and counts the
// bytes of strings compared.
#define MAX_SORT_BYTES (1 << 30)
#define SORT_IN_C (1 << 15)

static int sort_less(lua_State *L)
{
    steerE_check_stop(L);
    if (lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING) {
        size_t la = lua_rawlen(L, 1), lb = lua_rawlen(L, 2);
        lua_Integer left = lua_tointeger(L, lua_upvalueindex(1)) - (lua_Integer)(la < lb ? la : lb) - 1;
        if (left < 0)
            return luaL_error(L, "table.sort: comparing its strings takes more than %d bytes", MAX_SORT_BYTES);
        lua_pushinteger(L, left);
        lua_replace(L, lua_upvalueindex(1));
    }
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
}

// A comparator that is a C function (upvalue 1), called after a look at
// the verdict: Lua's sort calls it in a loop that runs no instruction.
static int sort_call(lua_State *L)
{
    steerE_check_stop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int tab_sort(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    if (n > MAX_TABLE_OP / 4) return luaL_error(L, "table.sort: more than %d elements", MAX_TABLE_OP / 4);
    steerE_check_stop(L);
    if (lua_iscfunction(L, 2)) {
        lua_settop(L, 2);
        lua_pushcclosure(L, sort_call, 1);
    } else if (lua_isnoneornil(L, 2)) {
        size_t longest = 0;
        if (lua_getmetatable(L, 1)) { // its elements may come through __index
            lua_pop(L, 1);
            longest = MAX_SORT_BYTES;
        }
        for (lua_Integer i = 1; i <= n && longest < MAX_SORT_BYTES; i++) {
            int t = lua_rawgeti(L, 1, i);
            if (t == LUA_TSTRING && lua_rawlen(L, -1) > longest) longest = lua_rawlen(L, -1);
            else if (t != LUA_TSTRING && t != LUA_TNUMBER) longest = MAX_SORT_BYTES; // compared through __lt
            lua_pop(L, 1);
        }
        double log2n = 1;
        for (lua_Integer k = n; k > 1; k >>= 1) log2n++;
        if (n > SORT_IN_C || (double)longest * (double)n * log2n > MAX_SORT_BYTES) {
            lua_settop(L, 1);
            lua_pushinteger(L, MAX_SORT_BYTES);
            lua_pushcclosure(L, sort_less, 1);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
}

// load(chunk [, name [, mode [, env]]]): text only, whatever mode says, and
// at most MAX_LOAD bytes of it: the parser is C the hook cannot interrupt
// (4 MB of "1+1+..." take 170 ms).
#define MAX_LOAD (256 << 10)

// A reader function's pieces, their total counted (upvalue 2).
static int counted_reader(lua_State *L)
{
    steerE_check_stop(L); // the reader may be a C function: the parser calls it in a loop
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 0, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
        lua_Integer total = lua_tointeger(L, lua_upvalueindex(2)) + (lua_Integer)lua_rawlen(L, -1);
        if (total > MAX_LOAD) return luaL_error(L, "load: a chunk of more than %d bytes", MAX_LOAD);
        lua_pushinteger(L, total);
        lua_replace(L, lua_upvalueindex(2));
    }
    return 1;
}

static int sb_load(lua_State *L)
{
    int n = lua_gettop(L);
    steerE_check_stop(L);
    if (n > 4) lua_settop(L, n = 4);
    while (lua_gettop(L) < 2) lua_pushnil(L);
    if (lua_type(L, 1) == LUA_TSTRING && lua_rawlen(L, 1) > MAX_LOAD)
        return luaL_error(L, "load: a chunk of %I bytes is over the mod's limit of %d", (LUAI_UACINT)lua_rawlen(L, 1),
                          MAX_LOAD);
    if (lua_type(L, 1) == LUA_TFUNCTION) {
        lua_pushvalue(L, 1);
        lua_pushinteger(L, 0);
        lua_pushcclosure(L, counted_reader, 2);
        lua_replace(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushliteral(L, "t");
    if (n >= 4) lua_pushvalue(L, 4);
    lua_call(L, n >= 4 ? 4 : 3, 2);
    return 2;
}

// string.pack, unpack and packsize (upvalue 1) with formats of at most
// MAX_FORMAT bytes: 5 MB of spaces took unpack 90 ms.
#define MAX_FORMAT (64 << 10)

static int sb_pack(lua_State *L)
{
    size_t len;
    luaL_checklstring(L, 1, &len);
    steerE_check_stop(L);
    if (len > MAX_FORMAT)
        return luaL_error(L, "%s: a format of more than %d bytes", lua_tostring(L, lua_upvalueindex(2)), MAX_FORMAT);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

// The standard libraries and functions a mod does not get.
static const char *const removed[] = { "io", "os", "debug", "package", "dofile", "loadfile", "collectgarbage", NULL };

bool steerE_removed_library(const char *name)
{
    for (int i = 0; removed[i]; i++)
        if (strcmp(removed[i], name) == 0) return true;
    return false;
}

// __index of the globals (upvalue 1: NULL) and of string (upvalue 1:
// "string."): a removed name raises at the mod's line, anything else is nil.
static int removed_index(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    const char *prefix = lua_tostring(L, lua_upvalueindex(1));
    if (!k || (prefix ? strcmp(k, "dump") != 0 : !steerE_removed_library(k))) return 0;
    luaL_where(L, 1); // the mod's function that read the name
    lua_pushfstring(L, "%s%s is not available to mods", prefix ? prefix : "", k);
    lua_concat(L, 2);
    return lua_error(L);
}

static void guard_removed(lua_State *L, int t, const char *prefix)
{
    t = lua_absindex(L, t);
    lua_createtable(L, 0, 1);
    if (prefix) lua_pushstring(L, prefix);
    else lua_pushnil(L);
    lua_pushcclosure(L, removed_index, 1);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, t);
}

void steerE_open_sandbox(lua_State *L, size_t max_str)
{
    for (int i = 0; removed[i]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, removed[i]);
    }
    lua_pushglobaltable(L);
    guard_removed(L, -1, NULL);
    lua_pop(L, 1);
    lua_pushcfunction(L, sb_tostring);
    lua_setglobal(L, "tostring");
    lua_pushcfunction(L, sb_setmetatable);
    lua_setglobal(L, "setmetatable");
    lua_getglobal(L, "load");
    lua_pushcclosure(L, sb_load, 1);
    lua_setglobal(L, "load");

    lua_getglobal(L, "string");
    lpattern_register(L, &pattern_limits);
    lua_pushinteger(L, (lua_Integer)max_str);
    lua_pushcclosure(L, str_rep, 1);
    lua_setfield(L, -2, "rep");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    guard_removed(L, -1, "string.");
    lua_getfield(L, -1, "format");
    lua_pushcclosure(L, sb_format, 1);
    lua_setfield(L, -2, "format");
    static const char *const packs[] = { "pack", "unpack", "packsize", NULL };
    for (int i = 0; packs[i]; i++) {
        lua_getfield(L, -1, packs[i]);
        lua_pushfstring(L, "string.%s", packs[i]);
        lua_pushcclosure(L, sb_pack, 2);
        lua_setfield(L, -2, packs[i]);
    }
    lua_pop(L, 1);
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushcclosure(L, tab_sort, 1);
    lua_setfield(L, -2, "sort");
    static const luaL_Reg loops[] = { { "insert", tab_insert }, { "remove", tab_remove }, { "concat", tab_concat },
                                      { "unpack", tab_unpack }, { "move", tab_move },     { NULL, NULL } };
    luaL_setfuncs(L, loops, 0);
    lua_pop(L, 1);
    // strings' metatable is shared by every string of the state: protect it
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

void steerE_protect_metatables(lua_State *L)
{
    // every type's metatable (luaL_newmetatable: registry[name] with
    // __name = name): grids' and flow fields' have C __gc too
    lua_pushnil(L);
    while (lua_next(L, LUA_REGISTRYINDEX)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_istable(L, -1)) {
            if (lua_getfield(L, -1, "__name") == LUA_TSTRING && lua_rawequal(L, -1, -3)) {
                lua_pushboolean(L, 0);
                lua_setfield(L, -3, "__metatable");
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}
