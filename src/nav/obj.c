// SPDX-License-Identifier: MIT
// obj.c — Wavefront OBJ text as triangle soup (the contract: obj.h).
// Numbers are read by hand (not strtod: the locale's decimal point, hex
// floats and "nan" have no place in an OBJ; no libm's pow either).
#include "obj.h"
#include "bake.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Reader {
    const char *p, *end;
    uint32_t line;
    char *msg;
    size_t msg_n;
} Reader;

static int fail(Reader *r, const char *fmt, ...)
{
    int k = snprintf(r->msg, r->msg_n, "line %u: ", (unsigned)r->line);
    if (k < 0 || (size_t)k >= r->msg_n) k = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg + k, r->msg_n - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
static void skip_space(Reader *r)
{
    while (r->p < r->end && is_space(*r->p)) r->p++;
}
static bool at_eol(const Reader *r) { return r->p >= r->end || *r->p == '\n' || *r->p == '#'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The token at r->p (up to a space or the line's end), for messages.
static int token_len(const Reader *r)
{
    const char *q = r->p;
    while (q < r->end && !is_space(*q) && *q != '\n' && q - r->p < 24) q++;
    return (int)(q - r->p);
}

// 10^e for |e| <= 22: exact doubles.
static const double pow10_exact[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

// m * 10^e in plain IEEE arithmetic (no libm: the same bits everywhere;
// within an ulp or so of the decimal, which is plenty for a level's
// geometry): exact for m < 2^53 and |e| <= 22, the usual case.
static double scale10(double m, int e)
{
    while (e > 22) {
        if ((m *= 1e22) == INFINITY) return m;
        e -= 22;
    }
    while (e < -22) {
        if ((m /= 1e22) == 0) return m;
        e += 22;
    }
    return e >= 0 ? m * pow10_exact[e] : m / pow10_exact[-e];
}

// A decimal number: [+-]digits[.digits][(e|E)[+-]digits], then a space or the line's end.
static int read_number(Reader *r, double *out)
{
    skip_space(r);
    if (at_eol(r)) return fail(r, "expected 3 coordinates (v x y z)");
    const char *s = r->p, *q = s;
    double sign = 1;
    uint64_t m = 0;
    if (q < r->end && (*q == '+' || *q == '-')) sign = *q++ == '-' ? -1 : 1;
    int digits = 0, scale = 0;
    for (; q < r->end && is_digit(*q); q++, digits++)
        if (m < 100000000000000000ULL) m = m * 10 + (uint64_t)(*q - '0');
        else scale++;
    if (q < r->end && *q == '.')
        for (q++; q < r->end && is_digit(*q); q++, digits++)
            if (m < 100000000000000000ULL) m = m * 10 + (uint64_t)(*q - '0'), scale--;
    if (!digits) return fail(r, "a malformed number '%.*s'", token_len(r), s);
    if (q < r->end && (*q == 'e' || *q == 'E')) {
        q++;
        int es = 1, e = 0, ed = 0;
        if (q < r->end && (*q == '+' || *q == '-')) es = *q++ == '-' ? -1 : 1;
        for (; q < r->end && is_digit(*q); q++, ed++)
            if (e < 10000) e = e * 10 + (*q - '0');
        if (!ed) return fail(r, "a malformed number '%.*s'", token_len(r), s);
        scale += es * e;
    }
    if (q < r->end && !is_space(*q) && *q != '\n' && *q != '#')
        return fail(r, "a malformed number '%.*s'", token_len(r), s);
    double v = m == 0 ? 0 : scale10((double)m, scale);
    if (!(v <= STEERN_BAKE_MAX_COORD))
        return fail(r, "coordinate '%.*s' is beyond %g m", (int)(q - s) < 24 ? (int)(q - s) : 24, s,
                    STEERN_BAKE_MAX_COORD);
    *out = v == 0 ? 0 : sign * v;
    r->p = q;
    return 0;
}

static int grow(void **p, uint32_t *cap, uint32_t need, size_t item)
{
    if (need <= *cap) return 0;
    uint32_t nc = *cap ? *cap : 1024;
    while (nc < need) nc = nc > UINT32_MAX / 2 ? need : nc * 2;
    void *q = realloc(*p, (size_t)nc * item);
    if (!q) return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int vertex(Reader *r, char up, steerN_Soup *s)
{
    double c[3];
    for (int i = 0; i < 3; i++)
        if (read_number(r, &c[i])) return -1;
    if (s->nverts >= STEERN_OBJ_MAX_VERTS) return fail(r, "more than %u vertices", STEERN_OBJ_MAX_VERTS);
    if (grow((void **)&s->xyz, &s->cap_v, s->nverts + 1, 3 * sizeof *s->xyz)) return fail(r, "out of memory");
    double *v = s->xyz + 3 * (size_t)s->nverts++;
    if (up == 'y') v[0] = c[0], v[1] = c[2] == 0 ? 0 : -c[2], v[2] = c[1];
    else v[0] = c[0], v[1] = c[1], v[2] = c[2];
    return 0; // a fourth number (w) and anything after it is ignored
}

// A face corner: its vertex index (0-based), the rest of the token skipped.
static int corner(Reader *r, const steerN_Soup *s, uint32_t *out)
{
    const char *tok = r->p;
    long long v = 0;
    int neg = 0, digits = 0;
    if (r->p < r->end && *r->p == '-') neg = 1, r->p++;
    for (; r->p < r->end && is_digit(*r->p); r->p++, digits++)
        if (v < 1000000000000LL) v = v * 10 + (*r->p - '0');
    if (!digits || (r->p < r->end && !is_space(*r->p) && *r->p != '/' && *r->p != '\n' && *r->p != '#')) {
        r->p = tok;
        return fail(r, "a malformed face corner '%.*s' (expected v, v/t, v/t/n or v//n)", token_len(r), tok);
    }
    while (r->p < r->end && !is_space(*r->p) && *r->p != '\n' && *r->p != '#') r->p++;
    if (neg) v = (long long)s->nverts - v + 1;
    if (v < 1 || v > (long long)s->nverts) {
        r->p = tok;
        return fail(r, "face corner '%.*s' refers to a missing vertex (%u defined above this line)", token_len(r), tok,
                    (unsigned)s->nverts);
    }
    *out = (uint32_t)(v - 1);
    return 0;
}

static bool degenerate(const steerN_Soup *s, uint32_t a, uint32_t b, uint32_t c)
{
    if (a == b || b == c || a == c) return true;
    const double *p = s->xyz + 3 * (size_t)a, *q = s->xyz + 3 * (size_t)b, *t = s->xyz + 3 * (size_t)c;
    double e0[3] = { q[0] - p[0], q[1] - p[1], q[2] - p[2] }, e1[3] = { t[0] - p[0], t[1] - p[1], t[2] - p[2] };
    double n0 = e0[1] * e1[2] - e0[2] * e1[1], n1 = e0[2] * e1[0] - e0[0] * e1[2], n2 = e0[0] * e1[1] - e0[1] * e1[0];
    return n0 == 0 && n1 == 0 && n2 == 0;
}

static int face(Reader *r, steerN_Soup *s)
{
    uint32_t first = 0, prev = 0, n = 0;
    for (;;) {
        skip_space(r);
        if (at_eol(r)) break;
        uint32_t v = 0;
        if (corner(r, s, &v)) return -1;
        if (n >= 2) {
            if (degenerate(s, first, prev, v)) s->skipped++;
            else {
                if (s->ntris >= STEERN_OBJ_MAX_TRIS) return fail(r, "more than %u triangles", STEERN_OBJ_MAX_TRIS);
                if (grow((void **)&s->tri, &s->cap_t, s->ntris + 1, 3 * sizeof *s->tri))
                    return fail(r, "out of memory");
                uint32_t *t = s->tri + 3 * (size_t)s->ntris++;
                t[0] = first, t[1] = prev, t[2] = v;
            }
        }
        if (n == 0) first = v;
        prev = v;
        n++;
    }
    if (n < 3) return fail(r, "a face of %u corner%s (at least 3)", (unsigned)n, n == 1 ? "" : "s");
    return 0;
}

void steerN_soup_free(steerN_Soup *s)
{
    free(s->xyz);
    free(s->tri);
    memset(s, 0, sizeof *s);
}

int steerN_obj_parse(const char *text, size_t n, char up, steerN_Soup *out, char *msg, size_t msg_n)
{
    memset(out, 0, sizeof *out);
    msg[0] = 0;
    if (n > STEERN_OBJ_MAX_BYTES) {
        snprintf(msg, msg_n, "%zu bytes: more than the %u MiB an OBJ may have", n, STEERN_OBJ_MAX_BYTES >> 20);
        return -1;
    }
    Reader r = { .p = text, .end = text + n, .line = 1, .msg = msg, .msg_n = msg_n };
    while (r.p < r.end) {
        skip_space(&r);
        const char *kw = r.p;
        while (r.p < r.end && !is_space(*r.p) && *r.p != '\n') r.p++;
        size_t kl = (size_t)(r.p - kw);
        int bad = 0;
        if (kl == 1 && kw[0] == 'v') bad = vertex(&r, up, out);
        else if (kl == 1 && kw[0] == 'f') bad = face(&r, out);
        if (bad) {
            steerN_soup_free(out);
            return -1;
        }
        while (r.p < r.end && *r.p != '\n') r.p++; // the rest of the line (a comment, w, or a line ignored)
        if (r.p < r.end) r.p++, r.line++;
    }
    return 0;
}

int steerN_obj_read(const char *path, char up, steerN_Soup *out, char *msg, size_t msg_n)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msg_n, "%s: cannot open it (%s)", path, strerror(errno));
        return -1;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int err = 0;
    for (;;) {
        if (len == cap) {
            if (cap > STEERN_OBJ_MAX_BYTES) { // read one byte past the limit to know
                err = EFBIG;
                break;
            }
            size_t nc = cap ? cap * 2 : 65536;
            if (nc > (size_t)STEERN_OBJ_MAX_BYTES + 1) nc = (size_t)STEERN_OBJ_MAX_BYTES + 1;
            char *nb = realloc(buf, nc);
            if (!nb) {
                err = ENOMEM;
                break;
            }
            buf = nb;
            cap = nc;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) err = errno ? errno : EIO;
            break;
        }
    }
    fclose(f);
    if (!err && len > STEERN_OBJ_MAX_BYTES) err = EFBIG;
    if (err) {
        free(buf);
        if (err == EFBIG)
            snprintf(msg, msg_n, "%s: more than the %u MiB an OBJ may have", path, STEERN_OBJ_MAX_BYTES >> 20);
        else snprintf(msg, msg_n, "%s: cannot read it (%s)", path, strerror(err));
        return -1;
    }
    char why[200];
    int r = steerN_obj_parse(buf ? buf : "", len, up, out, why, sizeof why);
    free(buf);
    if (r) {
        // "line N: why" -> "PATH:N: why"
        if (!strncmp(why, "line ", 5)) snprintf(msg, msg_n, "%s:%s", path, why + 5);
        else snprintf(msg, msg_n, "%s: %s", path, why);
    }
    return r;
}
