// SPDX-License-Identifier: MIT
// fuzz_message.c — libFuzzer: the codec that copies steer.send's data
// between mods. Any bytes must decode to a value or raise "corrupt
// message" (never read past the end, never recurse without bound); a value
// that decodes must encode again, to the same bytes, and decode to the same
// value.
#include "../../src/engine/engine.h"

#include <lauxlib.h>
#include <lualib.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int decode(lua_State *L)
{
    const unsigned char *p = lua_touserdata(L, 1);
    size_t n = (size_t)lua_tointeger(L, 2);
    steerE_decode_message(L, p, n);
    return 1;
}

// Two decoded values are the same data: same types, numbers of the same
// subtype and bits (NaN equal to NaN, -0.0 unlike 0.0), tables with the same
// keys and equal values.
static const char same_src[] = "local function same(a, b)\n"
                               "  if type(a) ~= type(b) then return false end\n"
                               "  if type(a) == 'number' then\n"
                               "    if math.type(a) ~= math.type(b) then return false end\n"
                               "    if a ~= a then return b ~= b end\n"
                               "    return a == b and (a ~= 0 or 1 / a == 1 / b)\n"
                               "  end\n"
                               "  if type(a) ~= 'table' then return a == b end\n"
                               "  for k, v in next, a do if not same(v, rawget(b, k)) then return false end end\n"
                               "  for k in next, b do if rawget(a, k) == nil then return false end end\n"
                               "  return true\n"
                               "end\n"
                               "return same\n";

// Decode the n bytes at p, protected: 1 and the value pushed, or 0 and the
// error message pushed.
static int decode_protected(lua_State *L, const unsigned char *p, size_t n)
{
    lua_pushcfunction(L, decode);
    lua_pushlightuserdata(L, (void *)p);
    lua_pushinteger(L, (lua_Integer)n);
    return lua_pcall(L, 2, 1, 0) == LUA_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return -1;
    lua_State *L = luaL_newstate();
    if (!L) return 0;
    luaL_openlibs(L);
    if (luaL_loadbufferx(L, same_src, sizeof same_src - 1, "=same", "t") != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK)
        abort();
    int same = lua_gettop(L);
    // an exact-size copy, so ASan sees any read past the end
    unsigned char *copy = malloc(size ? size : 1);
    if (!copy) abort();
    memcpy(copy, data, size);
    if (decode_protected(L, copy, size)) {
        int first = lua_gettop(L);
        unsigned char *out = NULL;
        size_t len = 0;
        const char *err = NULL;
        // whatever decodes is a message the encoder could have written
        if (steerE_encode_message(L, first, &out, &len, &err) != 0) {
            fprintf(stderr, "fuzz_message: a decoded value does not encode: %s\n", err ? err : "?");
            abort();
        }
        // the bytes are canonical: the same value, the same bytes
        if (len != size || memcmp(out, copy, size) != 0) {
            fprintf(stderr, "fuzz_message: encode(decode(bytes)) is not the bytes\n");
            abort();
        }
        if (!decode_protected(L, out, len)) {
            fprintf(stderr, "fuzz_message: a re-encoded value does not decode: %s\n", lua_tostring(L, -1));
            abort();
        }
        lua_pushvalue(L, same);
        lua_pushvalue(L, first);
        lua_pushvalue(L, -3);
        lua_call(L, 2, 1);
        if (!lua_toboolean(L, -1)) {
            fprintf(stderr, "fuzz_message: decode(encode(v)) is not v\n");
            abort();
        }
        free(out);
    } else if (!strstr(lua_tostring(L, -1), "corrupt message")) {
        fprintf(stderr, "fuzz_message: unexpected error: %s\n", lua_tostring(L, -1));
        abort();
    }
    free(copy);
    lua_close(L);
    return 0;
}
