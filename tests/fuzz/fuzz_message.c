// SPDX-License-Identifier: MIT
// fuzz_message.c — libFuzzer: the codec that copies steer.send's data
// between mods. Any bytes must decode to a value or raise "corrupt
// message" (never read past the end, never recurse without bound); a value
// that decodes must encode again, and decode to the same bytes.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return -1;
    lua_State *L = luaL_newstate();
    if (!L) return 0;
    // an exact-size copy, so ASan sees any read past the end
    unsigned char *copy = malloc(size ? size : 1);
    if (!copy) abort();
    memcpy(copy, data, size);
    lua_pushcfunction(L, decode);
    lua_pushlightuserdata(L, copy);
    lua_pushinteger(L, (lua_Integer)size);
    if (lua_pcall(L, 2, 1, 0) == LUA_OK) {
        unsigned char *out = NULL;
        size_t len = 0;
        const char *err = NULL;
        if (steerE_encode_message(L, -1, &out, &len, &err) == 0) {
            // encode(decode(x)) decodes again to an equal encoding
            lua_pushcfunction(L, decode);
            lua_pushlightuserdata(L, out);
            lua_pushinteger(L, (lua_Integer)len);
            if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
                fprintf(stderr, "fuzz_message: a re-encoded value does not decode: %s\n", lua_tostring(L, -1));
                abort();
            }
            unsigned char *again = NULL;
            size_t len2 = 0;
            if (steerE_encode_message(L, -1, &again, &len2, &err) != 0 || len2 != len) {
                fprintf(stderr, "fuzz_message: the round trip changed the value's size (%zu, %zu)\n", len, len2);
                abort();
            }
            free(again);
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
