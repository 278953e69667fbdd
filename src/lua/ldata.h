// SPDX-License-Identifier: MIT
// ldata.h — plain Lua data as bytes: one codec for what a snapshot keeps of
// a.data and for the messages mods send each other (steer.send).
//
// Plain data is nil, booleans, numbers, strings and tables of them, keyed
// by strings, numbers or booleans. Numbers keep their subtype and their
// exact bits (NaN, -0.0, inf); strings may hold zeros; metatables are
// ignored. The bytes are canonical: a table's keys are written in one order
// (integers ascending, then floats ascending, then strings bytewise, then
// false and true), so equal contents give equal bytes whatever order Lua's
// `next` walks them in, and decode -> encode gives the bytes back. The
// decoder trusts nothing: every read is checked against the end, nesting
// against the limit, and keys against that order.
//
// The format (little-endian, the same on every machine): a value is a tag
// byte, then
//   0 nil
//   1 boolean      a byte 0 or 1
//   3 number       a byte 1 and the integer zigzag-coded as a LEB128
//                  varint, or a byte 0 and the double's 8 bytes
//   4 string       its length as a LEB128 varint, then its bytes
//   5 table        keys and values in turn, then the byte 0xFF
//   8 back-reference  (only with `shared`) the varint index of a table
//                  written before, counting tables in the order they begin
//   9 reference    (only with the ref hooks) a userdata the hooks name: a
//                  byte, its kind (1 to 255), and a varint, its index
//  10 vector       (only with the ref hooks) a steer.vec: its x, y and z as
//                  doubles (8 bytes each); it decodes to a new steer.vec
// Varints are minimal (no trailing zero groups), so each value has one form.
#ifndef STEER_LDATA_H
#define STEER_LDATA_H

#include "steer.h"
#include "lcompat.h"
#include <stdbool.h>
#include <stddef.h>

#define STEERL_DATA_DEPTH 200     // default nesting limit (tables within tables)
#define STEERL_DATA_DEPTH_MAX 250 // no option goes deeper: the C recursion stays bounded

// Zero means default: no byte limit, STEERL_DATA_DEPTH, tables copied (a
// table met twice is written twice, a cycle is too deep), errors about
// "data", the C library's allocator.
typedef struct steerL_DataOptions {
    size_t max_bytes;  // 0: no limit
    int max_depth;     // tables nested at most this deep (the top-level table is 1); 0: STEERL_DATA_DEPTH
    bool shared;       // a table met again is a back-reference: shared subtables and cycles are kept
    const char *where; // the value's name in errors ("a.data" gives "a.data.path[3].fn: ..."); NULL: "data"
                       // in the encoder's, nothing in the decoder's
    const char *noun;  // what is decoded, in "corrupt NOUN (...)"; NULL: "data"
    const char *verb;  // what cannot be done to a function, in "a function cannot be VERB"; NULL: "saved"
    // The decoded value's name where a decoder on Lua 5.1 or LuaJIT refuses a number it cannot hold as it
    // was saved ("WHERE: NAME.path: the integer 9007199254740993 cannot be loaded exactly ..."); NULL:
    // "data". agent_keys: the value is a table keyed by agent ids, and paths start "agent ID's NAME".
    // keep_subtype: a script's data, whose floats must stay floats: there a float with no fraction is
    // refused too (those Luas would save it back as an integer).
    const char *name;
    bool agent_keys, keep_subtype;
    steer_AllocFn alloc; // for the encoded bytes; NULL: realloc and free
    void *alloc_ud;
    int (*stop)(void *ud); // looked at per table; nonzero ends the encoding (STEERL_DATA_STOPPED)
    void *stop_ud;
    // Snapshots only (NULL: a userdata is refused, as in messages; with them a steer.vec is written as a
    // vector, tag 10). ref_encode names the userdata at idx as a reference: returns its kind (1 to 255)
    // and sets *index, or returns 0 to refuse it (*why, if set, says what it is: "an agent of another
    // world"); it must not raise but for memory. ref_decode pushes the value of a reference, or raises.
    int (*ref_encode)(void *ud, lua_State *L, int idx, uint64_t *index, const char **why);
    void (*ref_decode)(void *ud, lua_State *L, int kind, uint64_t index);
    void *ref_ud;
} steerL_DataOptions;

typedef enum steerL_DataStatus {
    STEERL_DATA_OK = 0,
    STEERL_DATA_BAD_VALUE, // a function, userdata (that ref_encode does not name) or thread
    STEERL_DATA_BAD_KEY,   // a key that is not a string, a number or a boolean
    STEERL_DATA_TOO_DEEP,  // tables nested past max_depth (without `shared`, maybe a cycle)
    STEERL_DATA_TOO_LARGE, // more than max_bytes
    STEERL_DATA_STOPPED,   // opts->stop said so, or the running mod was stopped
    STEERL_DATA_NO_MEMORY,
} steerL_DataStatus;

typedef struct steerL_DataError {
    steerL_DataStatus status;
    char message[512]; // "WHERE.path[3].fn: a function cannot be saved (plain data only: ...)"
} steerL_DataError;

// Encode the value at idx. STEERL_DATA_OK: *out (from opts->alloc, free it
// with that) holds *len bytes. Otherwise nothing to free and *err (if err)
// says what and where. Never raises: it runs protected, and runs no
// metamethod. opts may be NULL (all defaults).
// Free what steerL_data_encode gave with these options.
void steerL_data_free(const steerL_DataOptions *opts, void *p);
steerL_DataStatus steerL_data_encode(lua_State *L, int idx, const steerL_DataOptions *opts, unsigned char **out,
                                     size_t *len, steerL_DataError *err);
// Decode len bytes at p and push the value; bytes the encoder could not
// have written (with the same options) raise "WHERE: corrupt NOUN (what is
// wrong)". On Lua 5.1 and LuaJIT (a number is a double) a number that
// would change raises too, with its path (opts->name): an integer a double
// does not hold exactly, and with keep_subtype a float with no fraction
// (it would be saved back as an integer). Call it protected.
void steerL_data_decode(lua_State *L, const unsigned char *p, size_t len, const steerL_DataOptions *opts);
// The same checks, and the same errors, without making any value: whether
// steerL_data_decode would take the bytes (but for memory, and what the
// ref hooks refuse: a reference's kind and index are read, not resolved).
// Pushes nothing; call it protected.
void steerL_data_check(lua_State *L, const unsigned char *p, size_t len, const steerL_DataOptions *opts);

#endif
