// SPDX-License-Identifier: MIT
// fuzz_data.c — libFuzzer: the plain-data codec (src/lua/ldata.c) as a
// snapshot uses it for a.data, with shared tables and cycles. Any bytes
// must decode to a value or raise "corrupt data" (never read past the end,
// never recurse without bound); the bytes are canonical, so a value that
// decodes encodes again to the very same bytes.
#include "../../src/lua/ldata.h"

#include <lauxlib.h>
#include <lualib.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const steerL_DataOptions options = { .shared = true, .where = "a.data" };

static int decode(lua_State *L)
{
    steerL_data_decode(L, lua_touserdata(L, 1), (size_t)lua_tointeger(L, 2), &options);
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
        steerL_DataError err;
        if (steerL_data_encode(L, -1, &options, &out, &len, &err) != STEERL_DATA_OK) {
            fprintf(stderr, "fuzz_data: a decoded value does not encode: %s\n", err.message);
            abort();
        }
        if (len != size || memcmp(out, copy, size) != 0) {
            fprintf(stderr, "fuzz_data: encode(decode(bytes)) is not the bytes\n");
            abort();
        }
        free(out);
    } else if (!strstr(lua_tostring(L, -1), "a.data: corrupt data (")) {
        fprintf(stderr, "fuzz_data: unexpected error: %s\n", lua_tostring(L, -1));
        abort();
    }
    free(copy);
    lua_close(L);
    return 0;
}
