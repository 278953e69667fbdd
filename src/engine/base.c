// SPDX-License-Identifier: MIT
// base.c — the engine's floor: its clock, log, memory and errors, and the
// protected calls into Lua that every other engine file makes. It calls no
// other file of the engine, so engine.c, the mods' files and save.c all
// call down to it (Box2D's core.c).
#include "engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

// ---- small things ----------------------------------------------------------

double steerE_now(void) { return steerY_now(); }

void steerE_log(steer_Engine *e, int level, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (e->log) e->log(e->log_ud, level, buf);
    else fprintf(stderr, "%s\n", buf);
}

// The length of the well-formed UTF-8 sequence at s of a character that
// is not a C1 control (U+0080 to U+009F), or 0.
static size_t utf8_printable(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (!n) return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if (c == 0xC2 && s[1] < 0xA0) return 0;                                   // C1
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xF0 && s[1] < 0x90)) return 0;   // overlong
    if ((c == 0xED && s[1] >= 0xA0) || (c == 0xF4 && s[1] >= 0x90)) return 0; // surrogates, past U+10FFFF
    return n;
}

const char *steerE_shown(const char *name, char *buf, size_t cap)
{
    const unsigned char *s = (const unsigned char *)name;
    size_t n = 0;
    buf[0] = '\0';
    while (*s) {
        char one[8];
        size_t k = utf8_printable(s), len;
        if (k) {
            memcpy(one, s, k);
            len = k;
        } else {
            unsigned c = *s;
            const char *esc = c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
            k = 1;
            if (esc) len = (size_t)snprintf(one, sizeof one, "%s", esc);
            else if (c >= 0x20 && c < 0x7F) one[0] = (char)c, len = 1;
            else len = (size_t)snprintf(one, sizeof one, "\\x%02X", c);
        }
        if (n + len + 4 > cap) { // room for "..." and the zero (n + 4 <= cap holds)
            memcpy(buf + n, "...", 4);
            return buf;
        }
        memcpy(buf + n, one, len);
        n += len;
        buf[n] = '\0';
        s += k;
    }
    return buf;
}

void *steerE_alloc(steer_Engine *e, void *p, size_t size)
{
    if (e->alloc) return e->alloc(e->alloc_ud, p, size);
    if (size == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, size);
}

void *steerE_alloc_ud(void *e, void *p, size_t size) { return steerE_alloc(e, p, size); }

char *steerE_strdup(steer_Engine *e, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = steerE_alloc(e, NULL, n);
    if (d) memcpy(d, s, n);
    return d;
}

void steerE_clear_error(steer_Engine *e)
{
    e->error[0] = '\0';
    steerE_alloc(e, e->traceback, 0);
    e->traceback = NULL;
}

int steerE_fail(steer_Engine *e, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->error, sizeof e->error, fmt, ap);
    va_end(ap);
    return status;
}

char *steerE_read_file(steer_Engine *e, const char *path, size_t max, size_t *len)
{
    int kind = steerY_file_info(path, NULL, NULL); // a regular file: opening a FIFO waits for a writer, for ever
    if (kind == STEERY_MISSING) return NULL;
    if (kind != STEERY_FILE) {
        errno = kind == STEERY_DIR ? EISDIR : EINVAL;
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            if (cap >= max) break;
            size_t nc = cap ? cap * 2 : 4096;
            if (nc > max) nc = max;
            char *nb = steerE_alloc(e, buf, nc + 1);
            if (!nb) break;
            buf = nb;
            cap = nc;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f) ? EIO : !buf ? ENOMEM : n == cap && cap >= max && fgetc(f) != EOF ? EFBIG : 0;
    fclose(f);
    if (err) {
        steerE_alloc(e, buf, 0);
        errno = err;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

const char *steerE_read_error(int err, size_t max, char *buf, size_t cap)
{
    if (err == EINVAL) snprintf(buf, cap, "not a regular file");
    else if (err == EFBIG) snprintf(buf, cap, "larger than %zu bytes", max);
    else snprintf(buf, cap, "%s", strerror(err));
    return buf;
}

int steerE_stat_file(const char *path, long long *mtime_ns, long long *size)
{
    return steerY_file_info(path, mtime_ns, size) != STEERY_MISSING;
}

void steerE_watch_dir(steer_Engine *e, const char *path)
{
    if (e->watcher < 0) return;
    // watch the directory: editors often save by writing a new file and renaming it
    char dir[4096];
    const char *slash = steerY_last_slash(path);
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    steerY_watch_add(e->watcher, dir);
}

// ---- calling Lua -------------------------------------------------------------

// Message handler: the message and a traceback. Other error objects are
// described by type only — their __tostring is the script's code and could
// loop, so the engine never runs it while handling an error.
int steerE_msghandler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    luaL_traceback(L, L, msg, 1);
    return 1;
}

// Keep the error on top of the stack (a message with a traceback) as the
// engine's error: the first line is "file:line: message".
void steerE_message(const char *full, char *out, size_t len)
{
    const char *nl = strstr(full, "\nstack traceback:");
    size_t n = nl ? (size_t)(nl - full) : strlen(full);
    if (n >= len) n = len - 1;
    memcpy(out, full, n);
    out[n] = '\0';
}

// The same, prefixed with `context` (NULL: none) in both. Allocates
// nothing in Lua: it runs after a memory error too, unprotected.
int steerE_keep_error_in(steer_Engine *e, const char *context)
{
    lua_State *L = e->L;
    // a string only: lua_tostring would turn a number into one (allocating)
    const char *full = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
    if (!context) context = "";
    char first[sizeof e->error];
    steerE_message(full, first, sizeof first);
    snprintf(e->error, sizeof e->error, "%s%s", context, first);
    size_t nc = strlen(context), nf = strlen(full);
    steerE_alloc(e, e->traceback, 0);
    e->traceback = steerE_alloc(e, NULL, nc + nf + 1); // NULL: steer_engine_traceback says the error alone
    if (e->traceback) {
        memcpy(e->traceback, context, nc);
        memcpy(e->traceback + nc, full, nf + 1);
    }
    lua_pop(L, 1);
    return STEER_ESCRIPT;
}

int steerE_keep_error(steer_Engine *e) { return steerE_keep_error_in(e, NULL); }

// Call the function below nargs arguments with the traceback handler.
int steerE_docall(lua_State *L, int nargs, int nresults)
{
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, steerE_msghandler);
    lua_insert(L, base);
    int st = lua_pcall(L, nargs, nresults, base);
    lua_remove(L, base);
    return st;
}

// Runs protected: push the string at light userdata 1, of the length at 2.
static int push_string_f(lua_State *L)
{
    lua_pushlstring(L, lua_touserdata(L, 1), *(const size_t *)lua_touserdata(L, 2));
    return 1;
}

int steerE_push_lstring(steer_Engine *e, const char *s, size_t len)
{
    lua_State *L = e->L;
    lua_pushcfunction(L, push_string_f);
    lua_pushlightuserdata(L, (void *)s);
    lua_pushlightuserdata(L, &len);
    return steerE_docall(L, 2, 1) == LUA_OK ? STEER_OK : steerE_keep_error(e);
}

static int ref_f(lua_State *L)
{
    lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
    return 1;
}

int steerE_ref(steer_Engine *e, int *ref)
{
    lua_State *L = e->L;
    lua_pushcfunction(L, ref_f);
    lua_insert(L, -2);
    if (steerE_docall(L, 1, 1) != LUA_OK) {
        *ref = LUA_NOREF;
        return steerE_keep_error(e);
    }
    *ref = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return STEER_OK;
}

// The field's name is pushed inside the call (a light userdata until then).
static int index_f(lua_State *L)
{
    lua_pushstring(L, lua_touserdata(L, 2));
    lua_gettable(L, 1);
    return 1;
}

// Push field `name` of the value at idx (`what`: "the scenario", "the
// world"), looked up protected: an __index of the scenario's may raise or
// yield. On an error nothing is pushed, and the error is kept naming the
// file and the field.
int steerE_get_field(steer_Engine *e, int idx, const char *name, const char *what)
{
    lua_State *L = e->L;
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, index_f);
    lua_pushvalue(L, idx);
    lua_pushlightuserdata(L, (void *)name);
    if (steerE_docall(L, 2, 1) == LUA_OK) return STEER_OK;
    char context[512];
    snprintf(context, sizeof context, "%s: looking up field '%s' of %s: ", e->file ? e->file : "?", name, what);
    return steerE_keep_error_in(e, context);
}

int steerE_panic(lua_State *L)
{
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(not a string)";
    fprintf(stderr, "steer: an error escaped every protected call (a bug of steer's): %s\n", msg);
    return 0; // Lua aborts
}

// ---- for a protected call -----------------------------------------------------

int steerE_register_kind(lua_State *L)
{
    steer_lua_register_host(L, lua_touserdata(L, 1));
    return 0;
}
