// SPDX-License-Identifier: MIT
// bytes.h — little-endian bytes, whatever the host: a writer, a reader and
// the hashes. Every format steer writes (world snapshots, the Lua
// snapshot's container and its grids, the engine's container, the mods'
// state, the plain-data codec) goes through these, and every hash steer
// computes (the snapshot checksum, the world's state hash, the tags'
// interning, a mod's seed) is one of the functions here.
//
// A writer appends to a growing buffer (through the caller's allocator),
// to the caller's fixed memory, or straight to a steer_WriteFn; a failure
// (out of memory, no room, the sink refused) sets `failed` and makes every
// later put do nothing, so a caller checks once at the end. A reader takes
// from a span of bytes; reading past its end sets `failed`, returns zeros
// and says "snapshot truncated in SECTION" (the section the caller names
// as it goes) into the caller's message buffer; the first failure's
// message stays.
#ifndef STEER_BYTES_H
#define STEER_BYTES_H

#include "steer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// A printf-like function's format checks (tree.h's too); on Windows the C
// library's printf is mingw-w64's C99 one (-D__USE_MINGW_ANSI_STDIO=1),
// which GCC calls gnu_printf there.
#if defined(__MINGW32__)
#define STEERS_PRINTF(fmt, args) __attribute__((format(gnu_printf, fmt, args)))
#elif defined(__GNUC__)
#define STEERS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define STEERS_PRINTF(fmt, args)
#endif

// ---- hashes --------------------------------------------------------------

#define STEERS_FNV64_BASIS 0xCBF29CE484222325ull
#define STEERS_FNV64_PRIME 0x100000001B3ull

// FNV-1a, 64-bit, byte by byte, from h (STEERS_FNV64_BASIS to begin): the
// world's state hash (steer_world_hash) and a mod's random seed. Inline:
// the state hash calls it per column per agent (out of line it cost the
// hash 6 to 14%).
static inline uint64_t steerS_fnv64(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * STEERS_FNV64_PRIME;
    return h;
}
// FNV-1a, 32-bit, over a C string: the tags' interning table.
uint32_t steerS_fnv32(const char *s);

// The snapshots' checksum: FNV-1a over 64-bit little-endian words (the
// tail zero-padded), then the length: one multiply per 8 bytes keeps a
// 10 MB save fast, and each step is a bijection of the state, so any one
// changed word changes it. Fed in pieces of any size (steerS_sum_add) it
// gives what steerS_checksum gives over the whole.
typedef struct steerS_Sum {
    uint64_t h, n;
    unsigned char tail[8];
    unsigned ntail;
} steerS_Sum;
void steerS_sum_init(steerS_Sum *s);
void steerS_sum_add(steerS_Sum *s, const void *p, size_t n);
uint64_t steerS_sum_end(const steerS_Sum *s);
uint64_t steerS_checksum(const void *p, size_t n);

// ---- raw little-endian ---------------------------------------------------

void steerS_store_le(unsigned char *p, uint64_t v, int bytes); // bytes: 1 to 8
uint64_t steerS_load_le(const unsigned char *p, int bytes);
// count elements of elem bytes each from src to dst, each turned to (or
// from: the same operation) little-endian; a memcpy on a little-endian host.
void steerS_le_copy(void *dst, const void *src, size_t elem, size_t count);

// ---- the writer ----------------------------------------------------------

typedef struct steerS_Writer {
    unsigned char *p;    // the bytes so far (not with a sink)
    size_t n, cap;       // n: the bytes put so far (with a sink too)
    bool failed;         // a put failed: the later ones do nothing
    bool fixed;          // p is the caller's memory of cap bytes: never grown or freed
    steer_AllocFn alloc; // growth (realloc semantics); NULL: realloc and free
    void *alloc_ud;
    steer_WriteFn sink; // set: every put goes to sink(sink_ud, ...) instead of p
    void *sink_ud;
    steerS_Sum *sum; // set: every byte put is summed too
} steerS_Writer;

void steerS_writer_init(steerS_Writer *w, steer_AllocFn alloc, void *alloc_ud); // a growing buffer
void steerS_writer_fixed(steerS_Writer *w, void *buf, size_t cap);
void steerS_writer_sink(steerS_Writer *w, steer_WriteFn write, void *ud);
void steerS_writer_free(steerS_Writer *w); // the buffer, when the writer allocated it
// A steer_WriteFn that puts into the writer ud: nonzero once it failed.
int steerS_write_fn(void *ud, const void *data, size_t len);

void steerS_put(steerS_Writer *w, const void *p, size_t n);
void steerS_put_u8(steerS_Writer *w, uint32_t v);
void steerS_put_u16(steerS_Writer *w, uint32_t v);
void steerS_put_u32(steerS_Writer *w, uint32_t v);
void steerS_put_u64(steerS_Writer *w, uint64_t v);
void steerS_put_f32(steerS_Writer *w, float v);
void steerS_put_f64(steerS_Writer *w, double v);
void steerS_put_str(steerS_Writer *w, const char *s); // a u32 length, then the bytes (no NUL)
// count elements of elem bytes each, each little-endian (steerS_le_copy).
void steerS_put_array(steerS_Writer *w, const void *src, size_t elem, size_t count);

// ---- the reader ----------------------------------------------------------

typedef struct steerS_Reader {
    const unsigned char *p;
    size_t n, at;        // n bytes at p; at: the next to read
    const char *section; // what is being read, for "snapshot truncated in ..."
    bool failed;
    char *err; // the first failure's message (errlen bytes); NULL: none kept
    size_t errlen;
} steerS_Reader;

void steerS_reader_init(steerS_Reader *r, const void *p, size_t n, char *err, size_t errlen);
// Fail with a message (the first failure's stays); returns false.
STEERS_PRINTF(2, 3)
bool steerS_fail(steerS_Reader *r, const char *fmt, ...);
size_t steerS_left(const steerS_Reader *r);
// The next n bytes, or NULL (and a failure: truncated) when fewer are left.
const unsigned char *steerS_take(steerS_Reader *r, size_t n);
uint32_t steerS_get_u8(steerS_Reader *r);
uint32_t steerS_get_u16(steerS_Reader *r);
uint32_t steerS_get_u32(steerS_Reader *r);
uint64_t steerS_get_u64(steerS_Reader *r);
float steerS_get_f32(steerS_Reader *r);
double steerS_get_f64(steerS_Reader *r);
// A u32 length and that many bytes (*len of them; NULL when truncated).
const unsigned char *steerS_get_str(steerS_Reader *r, uint32_t *len);
// count elements of elem bytes each into dst, from little-endian.
bool steerS_get_array(steerS_Reader *r, void *dst, size_t elem, size_t count);

#endif
