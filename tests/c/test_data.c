// SPDX-License-Identifier: MIT
// test_data.c — the plain-data codec (src/lua/ldata.c): what a snapshot
// keeps of a.data and what mods send each other.
//
// The codec is put into a Lua state as enc(value [, opts]) -> bytes | nil,
// message, status and dec(bytes [, opts]) -> value (raises on corrupt
// bytes); most checks are Lua chunks over those two. The rules: every type
// round-trips with its subtype and bits; shared subtables and cycles are
// kept when asked; a non-plain value is refused with its key path; equal
// contents give equal bytes whatever their history; decode -> encode gives
// the bytes back; malformed bytes are refused, never read past their end.
#include "check.h"
#include "../../src/lua/ldata.h"
#include "../../src/lua/lutil.h"

#include <lauxlib.h>
#include <lualib.h>

#include <string.h>

// The reference hooks a snapshot sets, on "boxes": box(n) is a userdata
// holding the integer n; a box is reference (7, n), a negative one refused.
static int box(lua_State *L)
{
    lua_Integer n = luaL_checkinteger(L, 1);
    *(lua_Integer *)lua_newuserdatauv(L, sizeof n, 0) = n;
    luaL_setmetatable(L, "test.box");
    return 1;
}

static int box_encode(void *ud, lua_State *L, int idx, uint64_t *index, const char **why)
{
    (void)ud;
    const lua_Integer *n = luaL_testudata(L, idx, "test.box");
    if (!n || *n < 0) {
        if (n) *why = "a negative box";
        return 0;
    }
    *index = (uint64_t)*n;
    return 7;
}

static void box_decode(void *ud, lua_State *L, int kind, uint64_t index)
{
    (void)ud;
    if (kind != 7) luaL_error(L, "a reference of kind %d", kind);
    lua_pushcfunction(L, box);
    lua_pushinteger(L, (lua_Integer)index);
    lua_call(L, 1, 1);
}

// vec(x, y, z): a steer.vec (the metatable is lvec.c's name, empty here)
static int vec(lua_State *L)
{
    steerL_pushvec(L, luaL_checknumber(L, 1), luaL_checknumber(L, 2), luaL_optnumber(L, 3, 0));
    return 1;
}

// opts at idx (a table or none): shared, max_bytes, max_depth, where, refs (the box hooks)
static steerL_DataOptions options(lua_State *L, int idx)
{
    steerL_DataOptions o = { 0 };
    if (lua_type(L, idx) != LUA_TTABLE) return o;
    if (lua_getfield(L, idx, "refs") != LUA_TNIL) {
        o.ref_encode = box_encode;
        o.ref_decode = box_decode;
    }
    lua_pop(L, 1);
    lua_getfield(L, idx, "shared");
    o.shared = lua_toboolean(L, -1);
    lua_getfield(L, idx, "max_bytes");
    o.max_bytes = (size_t)lua_tointeger(L, -1);
    lua_getfield(L, idx, "max_depth");
    o.max_depth = (int)lua_tointeger(L, -1);
    lua_getfield(L, idx, "where");
    o.where = lua_tostring(L, -1); // the opts table keeps it alive
    lua_pop(L, 4);
    return o;
}

static const char *const status_names[] = { "ok",        "bad value", "bad key",  "too deep",
                                            "too large", "stopped",   "no memory" };

static int enc(lua_State *L)
{
    lua_settop(L, 2);
    steerL_DataOptions o = options(L, 2);
    unsigned char *p;
    size_t n;
    steerL_DataError err;
    steerL_DataStatus st = steerL_data_encode(L, 1, &o, &p, &n, &err);
    if (st != STEERL_DATA_OK) {
        lua_pushnil(L);
        lua_pushstring(L, err.message);
        lua_pushstring(L, status_names[st]);
        return 3;
    }
    lua_pushlstring(L, (const char *)p, n);
    free(p);
    return 1;
}

// The bytes are copied to an exact-size buffer, so a sanitizer sees any
// read past the end.
static int dec(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    lua_settop(L, 2);
    steerL_DataOptions o = options(L, 2);
    unsigned char *copy = lua_newuserdatauv(L, n ? n : 1, 0);
    memcpy(copy, s, n);
    steerL_data_decode(L, copy, n, &o);
    return 1;
}

// same(a, b): the same data (types, subtypes, bits; tables by contents)
static const char prelude[] = "function same(a, b, seen)\n"
                              "  seen = seen or {}\n"
                              "  if type(a) ~= type(b) then return false end\n"
                              "  if math.type(a) == 'integer' then return math.type(b) == 'integer' and a == b end\n"
                              "  if type(a) == 'number' then\n"
                              "    return math.type(b) == 'float' and string.pack('<n', a) == string.pack('<n', b)\n"
                              "  end\n"
                              "  if type(a) ~= 'table' then return a == b end\n"
                              "  if seen[a] then return seen[a] == b end\n"
                              "  seen[a] = b\n"
                              "  for k, v in next, a do if not same(v, rawget(b, k), seen) then return false end end\n"
                              "  for k in next, b do if rawget(a, k) == nil then return false end end\n"
                              "  return true\n"
                              "end\n"
                              "function roundtrip(v, opts)\n"
                              "  local b = assert(enc(v, opts))\n"
                              "  local got = dec(b, opts)\n"
                              "  assert(enc(got, opts) == b, 'encode(decode(b)) is not b')\n"
                              "  return got, b\n"
                              "end\n";

static lua_State *state(void)
{
    lua_State *L = luaL_newstate();
    if (!L) return NULL;
    luaL_openlibs(L);
    lua_register(L, "enc", enc);
    lua_register(L, "dec", dec);
    lua_register(L, "box", box);
    luaL_newmetatable(L, "test.box");
    lua_pop(L, 1);
    lua_register(L, "vec", vec);
    luaL_newmetatable(L, STEERL_VEC);
    lua_pop(L, 1);
    if (luaL_dostring(L, prelude) != LUA_OK) {
        fprintf(stderr, "%s\n", lua_tostring(L, -1));
        lua_close(L);
        return NULL;
    }
    return L;
}

// Run a chunk in a fresh state; a failed assert is a failed check.
#define LUA_CHECK(src)                                     \
    do {                                                   \
        lua_State *L_ = state();                           \
        REQUIRE(L_, "state");                              \
        int ok_ = luaL_dostring(L_, src) == LUA_OK;        \
        CHECK(ok_, "%s", ok_ ? "" : lua_tostring(L_, -1)); \
        lua_close(L_);                                     \
    } while (0)

static void test_every_type_round_trips(void)
{
    LUA_CHECK("local nan_payload = string.unpack('<d', '\\1\\0\\0\\0\\0\\0\\xf8\\x7f')\n"
              "local values = { nil, true, false, 0, 1, -1, 1.0, -0.0, 0.0, 0 / 0, -(0 / 0), nan_payload,\n"
              "  math.huge, -math.huge, math.maxinteger, math.mininteger, 2^53, 2^63, 1e-310, math.pi,\n"
              "  '', 'a\\0b\\0', string.rep('\\0\\255', 70000), {}, { 1, 2, 3 }, { n = { m = { 'deep' } } } }\n"
              "for i = 1, 26 do\n"
              "  local got = roundtrip(values[i])\n"
              "  assert(same(values[i], got), 'value ' .. i .. ' changed: ' .. tostring(values[i]))\n"
              "end\n"
              "assert(math.type(roundtrip(1.0)) == 'float' and math.type(roundtrip(1)) == 'integer')\n"
              "assert(1 / roundtrip(-0.0) == -math.huge)\n"
              "assert(string.pack('<d', roundtrip(nan_payload)) == string.pack('<d', nan_payload))\n"
              // keys of every plain type, and values of every type under them
              "local t = { [1] = 'one', [-5] = 'neg', [math.maxinteger] = 'max', [2.5] = 'f', [math.huge] = 'inf',\n"
              "  [-math.huge] = '-inf', ['s\\0k'] = 0 / 0, [''] = -0.0, [true] = false, [false] = true,\n"
              "  nested = { { {} } } }\n"
              "assert(same(t, (roundtrip(t))), 'keys of every type')\n"
              // metatables are ignored and run nothing
              "local m = setmetatable({ x = 1 }, { __index = error, __pairs = error, __len = error })\n"
              "local got = roundtrip(m)\n"
              "assert(got.x == 1 and getmetatable(got) == nil)\n");
}

static void test_shared_tables_and_cycles(void)
{
    LUA_CHECK("local s = { v = 1 }\n"
              "local t = { a = s, b = s, list = { s, s } }\n"
              "t.self = t\n"
              "s.back = t\n"
              "local got = roundtrip(t, { shared = true })\n"
              "assert(got.a == got.b and got.list[1] == got.a and got.list[2] == got.a, 'shared subtables')\n"
              "assert(got.self == got and got.a.back == got, 'cycles')\n"
              "assert(got.a.v == 1 and got ~= t)\n"
              // a ring: the walk nests until it meets its start
              "local ring = {} local node = ring\n"
              "for i = 1, 150 do node.next = { i = i } node = node.next end node.next = ring\n"
              "local r = roundtrip(ring, { shared = true })\n"
              "assert(r.next.next.i == 2)\n"
              // without `shared`, shared subtables are copied and a cycle is too deep
              "local u = { x = {} } u.y = u.x\n"
              "local c = assert(dec(assert(enc(u))))\n"
              "assert(c.x ~= c.y and same(c.x, c.y), 'copied')\n"
              "local b, msg, st = enc(t)\n"
              "assert(not b and st == 'too deep' and msg:find('(or a cycle)', 1, true), msg)\n"
              // a back-reference is refused where tables are not shared
              "local ok, err = pcall(dec, assert(enc(u, { shared = true })))\n"
              "assert(not ok and err:find('corrupt data (a back-reference', 1, true), err)\n");
}

static void test_errors_name_the_path(void)
{
    LUA_CHECK(
        "local t = { path = { 1, 2, { fn = print } } }\n"
        "local b, msg, st = enc(t, { where = 'a.data' })\n"
        "assert(not b and st == 'bad value')\n"
        "assert(msg == 'a.data.path[3].fn: a function cannot be saved (plain data only: nil, booleans, '\n"
        "  .. 'numbers, strings, tables)', msg)\n"
        "b, msg = enc({ ['two words'] = { [true] = { [2.5] = io.stdout } } }, { where = 'a.data' })\n"
        "assert(msg:find('^a%.data%[\"two words\"%]%[true%]%[2%.5%]: a userdata cannot be saved'), msg)\n"
        "b, msg = enc({ co = coroutine.create(print) })\n"
        "assert(msg:find('^data%.co: a thread cannot be saved'), msg)\n"
        "b, msg, st = enc({ k = { [{}] = 1 } }, { where = 'w' })\n"
        "assert(st == 'bad key' and msg:find('^w%.k: a key that is a table cannot be saved'), msg)\n"
        "b, msg, st = enc(print, { where = 'x' })\n"
        "assert(msg:find('^x: a function'), msg)\n"
        // the limits
        "local deep = {} local v = deep for i = 2, 200 do v.n = {} v = v.n end\n"
        "roundtrip(deep)\n"
        "v.n = {}\n"
        "b, msg, st = enc(deep, { where = 'a.data' })\n"
        "assert(st == 'too deep' and msg:find('nested more than 200 deep'), msg)\n"
        "assert(msg:find('^a%.data' .. string.rep('%.n', 8) .. '%[%.%.%.%]' .. string.rep('%.n', 16) .. ': '), msg)\n"
        "b, msg, st = enc(string.rep('x', 100), { max_bytes = 100 })\n"
        "assert(st == 'too large' and msg == 'data: more than 100 bytes', msg)\n"
        "assert(enc(string.rep('x', 98), { max_bytes = 100 }))\n"
        "local many = {} for i = 1, 1000 do many[i] = true end\n"
        "b, msg, st = enc(many, { max_bytes = 64 })\n"
        "assert(st == 'too large', msg)\n");
}

static void test_bytes_are_canonical(void)
{
    LUA_CHECK("local function build(order)\n"
              "  local t = {}\n"
              "  for i = 1, 300 do t['junk' .. i] = i end\n" // a history: grown, then emptied
              "  for i = 1, 300 do t['junk' .. i] = nil end\n"
              "  for _, i in ipairs(order) do\n"
              "    t[i] = i * 2 t['k' .. i] = { i, tostring(i) } t[i + 0.5] = -i\n"
              "  end\n"
              "  t[true] = 'yes' t[false] = 'no' t[math.mininteger] = 'min'\n"
              "  return t\n"
              "end\n"
              "local up, down = {}, {}\n"
              "for i = 1, 200 do up[i] = i down[i] = 201 - i end\n"
              "local a, b = assert(enc(build(up))), assert(enc(build(down)))\n"
              "assert(a == b, 'the same contents gave other bytes')\n"
              // save -> load -> save gives the same bytes, shared or not
              "local _, again = roundtrip(build(up))\n"
              "assert(again == a)\n"
              "local s = build(down) s.me = s s.also = s.k1\n"
              "local x = assert(enc(s, { shared = true }))\n"
              "local y = assert(enc(dec(x, { shared = true }), { shared = true }))\n"
              "assert(x == y, 'a shared table changed its bytes')\n"
              // integer keys ascending first, then floats, strings, booleans
              "assert(enc({ [false] = 1, s = 1, [0.5] = 1, [2] = 1, [-1] = 1 }) ==\n"
              "  '\\5\\3\\1\\1\\3\\1\\2\\3\\1\\4\\3\\1\\2\\3\\0' .. string.pack('<d', 0.5) .. '\\3\\1\\2'\n"
              "  .. '\\4\\1s\\3\\1\\2\\1\\0\\3\\1\\2\\255', 'the documented order and format')\n");
}

// Bytes the encoder could not have written are refused; a value that
// decodes encodes back to the very bytes (canonical form). Every prefix of
// real bytes, each byte changed to other values, and handwritten cases.
static void test_malformed_bytes_are_refused(void)
{
    LUA_CHECK("local s = { 1 }\n"
              "local t = { 1, -2, 3.5, 'four\\0', { five = { 5 }, s, s }, [true] = false, big = math.mininteger,\n"
              "  [7.25] = 0 / 0 }\n"
              "t[5].up = t\n"
              "local o = { shared = true }\n"
              "local b = assert(enc(t, o))\n"
              "for cut = 0, #b - 1 do\n"
              "  local ok, err = pcall(dec, b:sub(1, cut), o)\n"
              "  assert(not ok and err:find('corrupt data', 1, true), 'a prefix of ' .. cut .. ' decoded')\n"
              "end\n"
              "assert(not pcall(dec, b .. '\\0', o), 'trailing bytes')\n"
              "local decoded = 0\n"
              "for i = 1, #b do\n"
              "  for _, c in ipairs({ 0, 1, 2, 3, 4, 5, 8, 0x7f, 0x80, 0xfe, 0xff, b:byte(i) ~ 1 }) do\n"
              "    local m = b:sub(1, i - 1) .. string.char(c) .. b:sub(i + 1)\n"
              "    local ok, v = pcall(dec, m, o)\n"
              "    if ok then\n"
              "      decoded = decoded + 1\n"
              "      assert(enc(v, o) == m, 'bytes decoded that the encoder would not write')\n"
              "    else\n"
              "      assert(v:find('corrupt data', 1, true), v)\n"
              "    end\n"
              "  end\n"
              "end\n"
              "assert(decoded > 0)\n"
              "local function bad(bytes, why, opts)\n"
              "  local ok, err = pcall(dec, bytes, opts)\n"
              "  assert(not ok and err:find(why, 1, true), why .. ': ' .. tostring(err))\n"
              "end\n"
              "bad('', 'past the end')\n"
              "bad('\\6', 'unknown tag')\n"
              "bad('\\9\\7\\1', 'a reference where there are none')\n"
              "bad('\\9\\0\\1', 'a reference of kind 0', { refs = true })\n"
              "bad('\\9\\7', 'past the end', { refs = true })\n"
              "bad('\\1\\2', 'neither 0 nor 1')\n"
              "bad('\\3\\2', 'neither integer nor float')\n"
              "bad('\\3\\1\\128\\0', 'shortest form')\n"
              "bad('\\3\\1' .. string.rep('\\255', 9) .. '\\2', 'past 64 bits')\n"
              "bad('\\4\\255\\255\\255\\255\\255\\255\\255\\255\\255\\1', 'runs past the end')\n"
              "bad('\\5\\0\\0\\255', 'not plain')\n"
              "bad('\\5\\5\\255\\0\\255', 'not plain')\n"
              "bad('\\5\\4\\1a\\0\\255', 'a nil value')\n"
              "bad('\\5\\4\\1b\\1\\1\\4\\1a\\1\\1\\255', 'out of order')\n"
              "bad('\\5\\4\\1a\\1\\1\\4\\1a\\1\\1\\255', 'out of order')\n"
              "bad('\\5\\3\\0' .. string.pack('<d', 2.0) .. '\\1\\1\\255', 'NaN or an integer')\n"
              "bad('\\5\\3\\0' .. string.pack('<d', 0 / 0) .. '\\1\\1\\255', 'NaN or an integer')\n"
              "bad('\\5\\4\\1a\\8\\1\\255', 'not shared')\n"
              "bad('\\8\\1', 'no table', { shared = true })\n"
              "bad('\\5\\4\\1a\\8\\2\\255', 'no table', { shared = true })\n"
              "bad(string.rep('\\5', 100000), 'corrupt data')\n"
              "bad(string.rep('\\5\\1\\1', 201) .. string.rep('\\255', 202), 'nested too deeply')\n"
              "bad(string.rep('\\5\\1\\1', 17) .. '\\0' .. string.rep('\\255', 17), 'nested too deeply',\n"
              "  { max_depth = 16 })\n"
              "local ok, err = pcall(dec, '\\6', { where = 'agent 3' })\n"
              "assert(err:find('agent 3: corrupt data (an unknown tag)', 1, true), err)\n");
}

// The encoder stops when its options say so (a mod was killed) and frees
// what it wrote; a custom allocator gets the bytes.
static size_t allocated;
static void *counting_alloc(void *ud, void *p, size_t n)
{
    (void)ud;
    if (n == 0) {
        allocated -= p != NULL;
        free(p);
        return NULL;
    }
    if (!p) allocated++;
    return realloc(p, n);
}

static int always(void *ud) { return *(int *)ud; }

// Snapshots only: a userdata the hooks name is a reference, kept and
// canonical; without the hooks (messages) a userdata is refused as before.
static void test_references(void)
{
    LUA_CHECK("local refs = { refs = true, shared = true }\n"
              "local b = box(300)\n"
              "local s = assert(enc({ b, { x = b }, k = box(0) }, refs))\n"
              "local got = dec(s, refs)\n"
              "assert(type(got[1]) == 'userdata' and got[2].x ~= nil and got.k ~= nil)\n"
              "assert(enc(got, refs) == s, 'decode -> encode gives the bytes back')\n"
              "local v, err, st = enc({ a = { box(-1) } }, refs)\n"
              "assert(v == nil and st == 'bad value' and err:find('data.a[1]: a negative box cannot be saved', 1, "
              "true), err)\n"
              "v, err = enc({ a = io.stdout }, refs)\n"
              "assert(v == nil and err:find('data.a: a userdata cannot be saved (plain data', 1, true), err)\n"
              "v, err = enc({ f = print }, refs)\n"
              "assert(v == nil and err:find('data.f: a function cannot be saved', 1, true), err)\n"
              "v, err = enc({ b })\n"
              "assert(v == nil and err:find('data[1]: a userdata cannot be saved', 1, true), err)\n"
              "local ok, e = pcall(dec, s, { shared = true })\n"
              "assert(not ok and e:find('a reference where there are none', 1, true), e)\n"
              "ok, e = pcall(dec, '\\9\\8\\1', refs)\n"
              "assert(not ok and e:find('a reference of kind 8', 1, true), e)\n");
}

// With the hooks a steer.vec is a vector (tag 10): its three doubles, bit
// for bit, decoded to a new steer.vec; without them it is refused.
static void test_vectors(void)
{
    LUA_CHECK("local refs = { refs = true, shared = true }\n"
              "local v = vec(1.5, -0.0, 3)\n"
              "local s = assert(enc({ v = v, w = vec(2, 4) }, refs))\n"
              "local got = dec(s, refs)\n"
              "assert(getmetatable(got.v) == getmetatable(v) and got.v ~= v, 'a new steer.vec')\n"
              "assert(enc(got, refs) == s, 'decode -> encode gives the bytes back')\n"
              "local one = assert(enc(v, refs))\n"
              "assert(one == '\\10' .. string.pack('<ddd', 1.5, -0.0, 3), 'tag 10 and three doubles')\n"
              "local x, err = enc({ v = v })\n"
              "assert(x == nil and err:find('data.v: a userdata cannot be saved', 1, true), err)\n"
              "local ok, e = pcall(dec, one, { shared = true })\n"
              "assert(not ok and e:find('a vector where there are none', 1, true), e)\n"
              "ok, e = pcall(dec, one:sub(1, 20), refs)\n"
              "assert(not ok and e:find('a vector runs past the end', 1, true), e)\n"
              "ok, e = pcall(dec, '\\10' .. string.pack('<ddd', 1, 0/0, 3), refs)\n"
              "assert(not ok and e:find('a vector that is not finite', 1, true), e)\n");
}

static void test_allocator_and_stop(void)
{
    lua_State *L = state();
    REQUIRE(L, "state");
    REQUIRE(luaL_dostring(L, "return { string.rep('x', 1000), { { f = print } } }") == LUA_OK, "chunk");
    int stop = 0;
    steerL_DataOptions o = { .alloc = counting_alloc, .stop = always, .stop_ud = &stop };
    unsigned char *p;
    size_t n;
    steerL_DataError err;
    int top = lua_gettop(L);
    CHECK(steerL_data_encode(L, -1, &o, &p, &n, &err) == STEERL_DATA_BAD_VALUE && !p && n == 0, "%s", err.message);
    CHECK(allocated == 0 && lua_gettop(L) == top, "a refusal left %zu buffers, %d values", allocated,
          lua_gettop(L) - top);
    lua_pushnil(L);
    lua_rawseti(L, -2, 2);
    CHECK(steerL_data_encode(L, -1, &o, &p, &n, &err) == STEERL_DATA_OK && n > 1000 && allocated == 1, "%s",
          err.message);
    counting_alloc(NULL, p, 0);
    stop = 1;
    CHECK(steerL_data_encode(L, -1, &o, &p, &n, &err) == STEERL_DATA_STOPPED && strstr(err.message, "stopped"), "%s",
          err.message);
    CHECK(steerL_data_encode(L, -1, NULL, &p, &n, NULL) == STEERL_DATA_OK, "no options");
    free(p);
    CHECK(allocated == 0 && lua_gettop(L) == top, "left %zu buffers", allocated);
    lua_close(L);
}

int main(void)
{
    RUN(test_every_type_round_trips);
    RUN(test_shared_tables_and_cycles);
    RUN(test_errors_name_the_path);
    RUN(test_bytes_are_canonical);
    RUN(test_malformed_bytes_are_refused);
    RUN(test_references);
    RUN(test_vectors);
    RUN(test_allocator_and_stop);
    return check_report_("data");
}
