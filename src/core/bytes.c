// SPDX-License-Identifier: MIT
// bytes.c — little-endian bytes and the hashes (bytes.h says what each is).
//
// Invariants: the values are the formats' and must never change: a
// checksum, a state hash or a tag's hash computed by an older build is
// computed the same here (old snapshots load, demo hashes stay).
#include "bytes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- hashes --------------------------------------------------------------

uint32_t steerS_fnv32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void steerS_sum_init(steerS_Sum *s)
{
    memset(s, 0, sizeof *s);
    s->h = STEERS_FNV64_BASIS;
}

void steerS_sum_add(steerS_Sum *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    s->n += len;
    if (s->ntail) {
        size_t k = 8 - s->ntail < len ? 8 - s->ntail : len;
        memcpy(s->tail + s->ntail, p, k);
        s->ntail += (unsigned)k;
        p += k;
        len -= k;
        if (s->ntail < 8) return;
        s->h = (s->h ^ steerS_load_le(s->tail, 8)) * STEERS_FNV64_PRIME;
        s->ntail = 0;
    }
    for (; len >= 8; p += 8, len -= 8) s->h = (s->h ^ steerS_load_le(p, 8)) * STEERS_FNV64_PRIME;
    if (len) memcpy(s->tail, p, len);
    s->ntail = (unsigned)len;
}

uint64_t steerS_sum_end(const steerS_Sum *s)
{
    uint64_t h = s->h;
    if (s->ntail) {
        unsigned char tail[8] = { 0 };
        memcpy(tail, s->tail, s->ntail);
        h = (h ^ steerS_load_le(tail, 8)) * STEERS_FNV64_PRIME;
    }
    return (h ^ s->n) * STEERS_FNV64_PRIME;
}

uint64_t steerS_checksum(const void *p, size_t n)
{
    steerS_Sum s;
    steerS_sum_init(&s);
    steerS_sum_add(&s, p, n);
    return steerS_sum_end(&s);
}

// ---- raw little-endian ---------------------------------------------------

static bool little_endian(void)
{
    const uint16_t one = 1;
    unsigned char c;
    memcpy(&c, &one, 1);
    return c == 1;
}

void steerS_store_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * i));
}

uint64_t steerS_load_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

void steerS_le_copy(void *dst, const void *src, size_t elem, size_t count)
{
    size_t total = elem * count;
    if (!total) return;
    if (little_endian() || elem == 1) {
        memcpy(dst, src, total);
        return;
    }
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < total; i += elem)
        for (size_t j = 0; j < elem; j++) d[i + j] = s[i + elem - 1 - j];
}

// ---- the writer ----------------------------------------------------------

void steerS_writer_init(steerS_Writer *w, steer_AllocFn alloc, void *alloc_ud)
{
    memset(w, 0, sizeof *w);
    w->alloc = alloc;
    w->alloc_ud = alloc_ud;
}

void steerS_writer_fixed(steerS_Writer *w, void *buf, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->p = buf;
    w->cap = cap;
    w->fixed = true;
}

void steerS_writer_sink(steerS_Writer *w, steer_WriteFn write, void *ud)
{
    memset(w, 0, sizeof *w);
    w->sink = write;
    w->sink_ud = ud;
}

void steerS_writer_free(steerS_Writer *w)
{
    if (!w->fixed && w->p) {
        if (w->alloc) w->alloc(w->alloc_ud, w->p, 0);
        else free(w->p);
    }
    w->p = NULL;
    w->n = w->cap = 0;
}

int steerS_write_fn(void *ud, const void *data, size_t len)
{
    steerS_Writer *w = ud;
    steerS_put(w, data, len);
    return w->failed;
}

// Room for len more bytes in the buffer, doubling it as needed.
static bool room(steerS_Writer *w, size_t len)
{
    if (len <= w->cap - w->n) return true;
    if (w->fixed) return false;
    size_t cap = w->cap ? w->cap : 64;
    while (cap - w->n < len) {
        if (cap > SIZE_MAX / 2) return false;
        cap *= 2;
    }
    unsigned char *p = w->alloc ? w->alloc(w->alloc_ud, w->p, cap) : realloc(w->p, cap);
    if (!p) return false;
    w->p = p;
    w->cap = cap;
    return true;
}

void steerS_put(steerS_Writer *w, const void *p, size_t n)
{
    if (w->failed || !n) return;
    if (w->sink) {
        if (w->sink(w->sink_ud, p, n) != 0) {
            w->failed = true;
            return;
        }
    } else {
        if (!room(w, n)) {
            w->failed = true;
            return;
        }
        memcpy(w->p + w->n, p, n);
    }
    if (w->sum) steerS_sum_add(w->sum, p, n);
    w->n += n;
}

static void put_le(steerS_Writer *w, uint64_t v, int bytes)
{
    unsigned char b[8];
    steerS_store_le(b, v, bytes);
    steerS_put(w, b, (size_t)bytes);
}
void steerS_put_u8(steerS_Writer *w, uint32_t v) { put_le(w, v, 1); }
void steerS_put_u16(steerS_Writer *w, uint32_t v) { put_le(w, v, 2); }
void steerS_put_u32(steerS_Writer *w, uint32_t v) { put_le(w, v, 4); }
void steerS_put_u64(steerS_Writer *w, uint64_t v) { put_le(w, v, 8); }
void steerS_put_f32(steerS_Writer *w, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    put_le(w, u, 4);
}
void steerS_put_f64(steerS_Writer *w, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    put_le(w, u, 8);
}

void steerS_put_str(steerS_Writer *w, const char *s)
{
    size_t n = strlen(s);
    steerS_put_u32(w, (uint32_t)n);
    steerS_put(w, s, n);
}

void steerS_put_array(steerS_Writer *w, const void *src, size_t elem, size_t count)
{
    if (little_endian() || elem <= 1) {
        steerS_put(w, src, elem * count);
        return;
    }
    // element by element through a small buffer
    unsigned char buf[4096];
    size_t per = sizeof buf / elem;
    const unsigned char *s = src;
    for (size_t at = 0; at < count && !w->failed; at += per) {
        size_t k = count - at < per ? count - at : per;
        steerS_le_copy(buf, s + at * elem, elem, k);
        steerS_put(w, buf, k * elem);
    }
}

// ---- the reader ----------------------------------------------------------

void steerS_reader_init(steerS_Reader *r, const void *p, size_t n, char *err, size_t errlen)
{
    static const unsigned char none[1];
    memset(r, 0, sizeof *r);
    r->p = p ? p : none; // so that taking 0 bytes gives a pointer, never NULL + 0
    r->n = p ? n : 0;
    r->err = err;
    r->errlen = errlen;
    if (err && errlen) err[0] = 0;
}

bool steerS_fail(steerS_Reader *r, const char *fmt, ...)
{
    if (r->failed) return false;
    r->failed = true;
    if (r->err && r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err, r->errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

size_t steerS_left(const steerS_Reader *r) { return r->n - r->at; }

const unsigned char *steerS_take(steerS_Reader *r, size_t n)
{
    if (r->failed) return NULL;
    if (n > r->n - r->at) {
        steerS_fail(r, "snapshot truncated in %s", r->section ? r->section : "its bytes");
        return NULL;
    }
    const unsigned char *p = r->p + r->at;
    r->at += n;
    return p;
}

static uint64_t get_le(steerS_Reader *r, int bytes)
{
    const unsigned char *p = steerS_take(r, (size_t)bytes);
    return p ? steerS_load_le(p, bytes) : 0;
}
uint32_t steerS_get_u8(steerS_Reader *r) { return (uint32_t)get_le(r, 1); }
uint32_t steerS_get_u16(steerS_Reader *r) { return (uint32_t)get_le(r, 2); }
uint32_t steerS_get_u32(steerS_Reader *r) { return (uint32_t)get_le(r, 4); }
uint64_t steerS_get_u64(steerS_Reader *r) { return get_le(r, 8); }
float steerS_get_f32(steerS_Reader *r)
{
    uint32_t u = steerS_get_u32(r);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
double steerS_get_f64(steerS_Reader *r)
{
    uint64_t u = steerS_get_u64(r);
    double f;
    memcpy(&f, &u, 8);
    return f;
}

const unsigned char *steerS_get_str(steerS_Reader *r, uint32_t *len)
{
    *len = steerS_get_u32(r);
    const unsigned char *p = steerS_take(r, *len);
    if (!p) *len = 0;
    return p;
}

bool steerS_get_array(steerS_Reader *r, void *dst, size_t elem, size_t count)
{
    if (count && elem > SIZE_MAX / count) {
        steerS_take(r, SIZE_MAX); // fails: truncated
        return false;
    }
    const unsigned char *p = steerS_take(r, elem * count);
    if (!p) return false;
    steerS_le_copy(dst, p, elem, count);
    return true;
}
