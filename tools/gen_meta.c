// SPDX-License-Identifier: MIT
// gen_meta.c — the per-field annotations of lua/steer/meta.lua, written from
// the kinds table (src/behaviors/kinds.def), so that a parameter's name,
// type, default and range are written once: in its kind's field row.
//
// meta.lua stays one hand-written file; this program rewrites only the
// generated lines in it, and is idempotent on its own output:
// - under a `---@class steer.<Kind>Desc` line (<Kind> is the kind's name in
//   CamelCase: avoid_walls -> AvoidWallsDesc) the `---@field` lines of the
//   kind's fields, in the table's order. A note written after " -- " on such
//   a line is kept; `---@field` lines of names the table lacks (list
//   entries, a binding's extra field) are hand-written and kept, first.
// - between the markers GEN_BEGIN and GEN_END, a class and a constructor for
//   each kind that meta.lua neither describes by a class nor by a
//   `function steer.<kind>(`: a new kind is annotated at once, and its
//   description can be written above the markers later.
//
// Usage: steer-gen-meta META [OUT]      rewrite META into OUT (default: META)
//        steer-gen-meta --check META HOW  exit 1 when META is not what the
//                                          kinds give; HOW says how to fix it
#include "behaviors/behavior.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN_BEGIN "-- ---- kinds not described above (written by tools/gen_meta.c; describe them above) ----"
#define GEN_END "-- ---- end of the kinds written by tools/gen_meta.c ----"

typedef struct Buf {
    char *s;
    size_t n, cap;
} Buf;

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("steer-gen-meta: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void put(Buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (n < 0) die("formatting failed");
        if ((size_t)n < b->cap - b->n) {
            b->n += (size_t)n;
            return;
        }
        b->cap = (b->cap + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s) die("out of memory");
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot read %s", path);
    Buf b = { 0 };
    put(&b, "");
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) put(&b, "%.*s", (int)got, chunk);
    fclose(f);
    return b.s;
}

// "avoid_walls" -> "steer.AvoidWallsDesc"
static void class_name(const char *kind, char *out, size_t len)
{
    size_t o = (size_t)snprintf(out, len, "steer.");
    for (int up = 1; *kind && o + 5 < len; kind++) {
        if (*kind == '_') {
            up = 1;
            continue;
        }
        out[o++] = up && *kind >= 'a' && *kind <= 'z' ? (char)(*kind - 'a' + 'A') : *kind;
        up = 0;
    }
    snprintf(out + o, len - o, "Desc");
}

// The kind whose class a `---@class ` line declares, or NULL.
static const steerB_Kind *class_kind(const char *line, size_t len)
{
    const char *tag = "---@class ";
    if (len < strlen(tag) || strncmp(line, tag, strlen(tag)) != 0) return NULL;
    const char *name = line + strlen(tag);
    size_t n = strcspn(name, ": \n");
    for (int i = 0; steerB_kinds[i]; i++) {
        char c[96];
        class_name(steerB_kinds[i]->name, c, sizeof c);
        if (strlen(c) == n && strncmp(c, name, n) == 0) return steerB_kinds[i];
    }
    return NULL;
}

// The shortest text that reads back as the float v.
static void put_float(Buf *b, float v)
{
    char t[32];
    for (int p = 1; p <= 9; p++) {
        snprintf(t, sizeof t, "%.*g", p, (double)v);
        if ((float)strtod(t, NULL) == v && (!strstr(t, "e+") || p == 9)) break; // 20, not 2e+01
    }
    put(b, "%s", t);
}

static bool required(const steerB_Field *f)
{
    return (f->type == STEERB_POINTS || f->type == STEERB_RESOURCE || f->type == STEERB_CHILDREN) && f->min > 0;
}

static void put_type(Buf *b, const steerB_Field *f)
{
    switch (f->type) {
    case STEERB_NUMBER: put(b, strncmp(f->expect, "a whole number", 14) == 0 ? "integer" : "number"); break;
    case STEERB_TARGET: put(b, "steer.Target"); break;
    case STEERB_TAG: put(b, "string"); break;
    case STEERB_CALLBACK: put(b, "function"); break;
    case STEERB_VECTOR: put(b, "steer.VecLike"); break;
    case STEERB_BOOL: put(b, "boolean"); break;
    case STEERB_POINTS: put(b, "steer.VecLike[]"); break;
    case STEERB_CHILDREN:
        // def != 0: the entries may be {behaviour, weight}
        put(b, f->max == 1      ? "steer.Behavior"
               : f->def != 0.0f ? "steer.BlendEntry[]|steer.Behavior"
                                : "steer.Behavior[]|steer.Behavior");
        break;
    case STEERB_RESOURCE: put(b, "%s", steerB_field_resource(f)->type); break;
    case STEERB_CHOICE:
    case STEERB_EASE:
        for (int i = 0; f->choices && f->choices[i]; i++) put(b, "%s\"%s\"", i ? "|" : "", f->choices[i]);
        if (f->type == STEERB_EASE) put(b, "|fun(x: number): number");
        break;
    }
}

// What the field takes, as its error message states it, and its default.
static void put_doc(Buf *b, const steerB_Field *f)
{
    char range[160];
    if (required(f)) {
        put(b, "required: %s", f->expect);
        return;
    }
    if (f->type != STEERB_CHOICE && f->type != STEERB_EASE) put(b, "%s; ", steerB_expect(f, range, sizeof range));
    put(b, "default ");
    switch (f->type) {
    case STEERB_NUMBER: put_float(b, f->def); break;
    case STEERB_BOOL: put(b, f->def != 0.0f ? "true" : "false"); break;
    case STEERB_CHOICE:
    case STEERB_EASE: put(b, "\"%s\"", f->choices[(int)f->def]); break;
    case STEERB_VECTOR: put(b, "{0, 0, 0}"); break;
    case STEERB_CHILDREN:
    case STEERB_POINTS: put(b, "none"); break;
    default: put(b, "nil"); break;
    }
}

static void put_field(Buf *b, const steerB_Field *f, const char *note, size_t note_len)
{
    put(b, "---@field %s%s ", f->name, required(f) ? "" : "?");
    put_type(b, f);
    put(b, " ");
    put_doc(b, f);
    if (note) put(b, " -- %.*s", (int)note_len, note);
    put(b, "\n");
}

// A line of the template: [s, s + len), without its newline.
typedef struct Line {
    const char *s;
    size_t len;
} Line;

static bool starts(Line l, const char *p) { return l.len >= strlen(p) && strncmp(l.s, p, strlen(p)) == 0; }

static bool is(Line l, const char *p) { return l.len == strlen(p) && strncmp(l.s, p, l.len) == 0; }

// The name a `---@field` line annotates (without "?").
static size_t field_name(Line l, const char **name)
{
    *name = l.s + strlen("---@field ");
    size_t n = 0;
    while (*name + n < l.s + l.len && (*name)[n] != ' ' && (*name)[n] != '?') n++;
    return n;
}

// A class of kind k at lines[*i] (its `---@class` line): the class line, its
// hand-written fields, then the generated ones. Advances *i past the block.
static void rewrite_class(Buf *b, const steerB_Kind *k, const Line *lines, int nl, int *i)
{
    put(b, "%.*s\n", (int)lines[*i].len, lines[*i].s);
    int first = *i + 1, end = first;
    while (end < nl && starts(lines[end], "---@field ")) end++;
    for (int j = first; j < end; j++) { // hand-written: not a field of the kind
        const char *name;
        size_t n = field_name(lines[j], &name);
        bool generated = false;
        for (const steerB_Field *f = k->fields; f && f->name; f++)
            generated |= strlen(f->name) == n && strncmp(f->name, name, n) == 0;
        if (!generated) put(b, "%.*s\n", (int)lines[j].len, lines[j].s);
    }
    for (const steerB_Field *f = k->fields; f && f->name; f++) {
        const char *note = NULL;
        size_t note_len = 0;
        for (int j = first; j < end; j++) {
            const char *name;
            size_t n = field_name(lines[j], &name);
            if (strlen(f->name) != n || strncmp(f->name, name, n) != 0) continue;
            for (const char *p = lines[j].s; p + 4 <= lines[j].s + lines[j].len; p++) {
                if (strncmp(p, " -- ", 4) == 0) {
                    note = p + 4;
                    note_len = (size_t)(lines[j].s + lines[j].len - note);
                    break;
                }
            }
        }
        put_field(b, f, note, note_len);
    }
    *i = end;
}

// A kind meta.lua does not describe: its class and its constructor.
static void put_stub(Buf *b, const steerB_Kind *k)
{
    char c[96];
    class_name(k->name, c, sizeof c);
    put(b, "\n---`steer.%s`.\n---@class %s: steer.BehaviorDesc\n", k->name, c);
    if (k->children == STEERB_WEIGHTED)
        put(b, "---@field [integer] {[1]: steer.Behavior, [2]: number}|steer.Behavior\n");
    if (k->children == STEERB_LIST) put(b, "---@field [integer] steer.Behavior\n");
    for (const steerB_Field *f = k->fields; f && f->name; f++) put_field(b, f, NULL, 0);
    bool must = k->children == STEERB_WEIGHTED || k->children == STEERB_LIST;
    for (const steerB_Field *f = k->fields; f && f->name; f++) must |= required(f);
    put(b, "\n---A new `%s` behaviour.\n---@param desc%s %s\n---@return steer.Behavior\n", k->name, must ? "" : "?", c);
    put(b, "function steer.%s(desc) end\n", k->name);
}

// Whether text has `what` not followed by more of a name.
static bool mentions(const char *text, const char *what)
{
    for (const char *p = text; (p = strstr(p, what)) != NULL; p++) {
        char next = p[strlen(what)];
        if (next != '_' && !(next >= 'a' && next <= 'z') && !(next >= 'A' && next <= 'Z') &&
            !(next >= '0' && next <= '9'))
            return true;
    }
    return false;
}

static char *generate(char *src)
{
    int nl = 0, cap = 0;
    Line *lines = NULL;
    for (char *p = src; *p;) {
        char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (nl == cap) {
            cap = cap ? cap * 2 : 1024;
            lines = realloc(lines, sizeof *lines * (size_t)cap);
            if (!lines) die("out of memory");
        }
        lines[nl++] = (Line){ p, len };
        p += len + (e != NULL);
    }
    int begin = -1, end = -1;
    for (int i = 0; i < nl; i++) {
        if (is(lines[i], GEN_BEGIN)) begin = i;
        if (is(lines[i], GEN_END)) end = i;
    }
    if (begin < 0 || end < begin) die("the markers of the generated kinds are missing:\n%s\n%s", GEN_BEGIN, GEN_END);
    // What the hand-written part describes: everything outside the markers.
    Buf hand = { 0 };
    put(&hand, "");
    for (int i = 0; i < nl; i++)
        if (i < begin || i > end) put(&hand, "%.*s\n", (int)lines[i].len, lines[i].s);

    Buf out = { 0 };
    put(&out, "");
    for (int i = 0; i < nl;) {
        if (i == begin) {
            put(&out, "%s\n", GEN_BEGIN);
            for (int k = 0; steerB_kinds[k]; k++) {
                char c[96], fn[96];
                class_name(steerB_kinds[k]->name, c, sizeof c);
                snprintf(fn, sizeof fn, "function steer.%s(", steerB_kinds[k]->name);
                char decl[112];
                snprintf(decl, sizeof decl, "---@class %s", c);
                if (!mentions(hand.s, decl) && !strstr(hand.s, fn)) put_stub(&out, steerB_kinds[k]);
            }
            put(&out, "%s\n", GEN_END);
            i = end + 1;
            continue;
        }
        const steerB_Kind *k = class_kind(lines[i].s, lines[i].len);
        if (k && i < begin) {
            rewrite_class(&out, k, lines, nl, &i);
            continue;
        }
        put(&out, "%.*s%s", (int)lines[i].len, lines[i].s, i + 1 < nl || src[strlen(src) - 1] == '\n' ? "\n" : "");
        i++;
    }
    free(hand.s);
    free(lines);
    return out.s;
}

int main(int argc, char **argv)
{
    bool check = argc > 1 && strcmp(argv[1], "--check") == 0;
    if (check ? argc != 4 : argc < 2 || argc > 3) {
        fprintf(stderr, "usage: steer-gen-meta META [OUT]\n       steer-gen-meta --check META HOW\n");
        return 2;
    }
    const char *meta = argv[check ? 2 : 1];
    char *src = slurp(meta);
    char *gen = generate(src);
    int status = 0;
    if (check && strcmp(src, gen) != 0) {
        const char *a = src, *g = gen, *a0 = src, *g0 = gen;
        int line = 1;
        for (; *a && *a == *g; a++, g++)
            if (*a == '\n') line++, a0 = a + 1, g0 = g + 1;
        fprintf(stderr,
                "%s:%d: the annotations differ from what the kinds table gives.\n  is:     %.*s\n"
                "  wants:  %.*s\nTo rewrite them run\n  %s\n",
                meta, line, (int)strcspn(a0, "\n"), a0, (int)strcspn(g0, "\n"), g0, argv[3]);
        status = 1;
    } else if (!check && (argc == 3 || strcmp(src, gen) != 0)) {
        const char *to = argc == 3 ? argv[2] : meta;
        FILE *f = fopen(to, "wb");
        if (!f || fwrite(gen, 1, strlen(gen), f) != strlen(gen) || fclose(f) != 0) die("cannot write %s", to);
    }
    free(src);
    free(gen);
    return status;
}
