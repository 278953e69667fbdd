// SPDX-License-Identifier: MIT
// lpattern.c — Lua 5.4's pattern matching (string.find, match, gmatch and
// gsub) from lstrlib.c of Lua 5.4.4, Copyright (C) 1994-2022 Lua.org,
// PUC-Rio (see LICENSE), with a step counter: a call that needs more than
// its limit of steps raises an error instead of backtracking for hours, and
// the host's poll runs every LPATTERN_POLL_STEPS steps and before each call
// of gsub's replacement function or lookup in its replacement table (a C
// function runs no Lua instruction, so no hook can stop it). NOTES.md lists
// every change from Lua's text.
#include "lpattern.h"

#include <lauxlib.h>

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#define LUA_MAXCAPTURES 32
#define L_ESC '%'
#define SPECIALS "^$*+?.([%-"
#define MAXCCALLS 200
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define uchar(c) ((unsigned char)(c))

typedef struct MatchState {
    const char *src_init, *src_end, *p_end;
    lua_State *L;
    int matchdepth;
    unsigned char level;
    const lpattern_Limits *limits;
    long steps;   // left for this call
    struct {
        const char *init;
        ptrdiff_t len;
    } capture[LUA_MAXCAPTURES];
} MatchState;

static const char *match(MatchState *ms, const char *s, const char *p);

// The host's poll, when it has one: it may raise to stop the call.
static void poll(const MatchState *ms)
{
    if (ms->limits->poll) ms->limits->poll(ms->L);
}

static void step(MatchState *ms)
{
    if ((--ms->steps & (LPATTERN_POLL_STEPS - 1)) == 0) poll(ms);
    if (ms->steps < 0)
        luaL_error(ms->L, "pattern matching took more than %d steps (simplify the pattern or the subject)",
                   (int)ms->limits->max_steps);
}

// Scanning n bytes (a character class, a back reference) costs n / 8 steps:
// a pattern may hold a class a million bytes long. The next step() checks.
static void charge(MatchState *ms, size_t n) { ms->steps -= (long)(n >> 3); }

static int check_capture(MatchState *ms, int l)
{
    l -= '1';
    if (l < 0 || l >= ms->level || ms->capture[l].len == CAP_UNFINISHED)
        return luaL_error(ms->L, "invalid capture index %%%d", l + 1);
    return l;
}

static int capture_to_close(MatchState *ms)
{
    int level = ms->level;
    for (level--; level >= 0; level--)
        if (ms->capture[level].len == CAP_UNFINISHED) return level;
    return luaL_error(ms->L, "invalid pattern capture");
}

static const char *class_end(MatchState *ms, const char *p)
{
    switch (*p++) {
    case L_ESC:
        if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (ends with '%%')");
        return p + 1;
    case '[': {
        const char *start = p;
        if (*p == '^') p++;
        do { // look for a ']'
            if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (missing ']')");
            if (*(p++) == L_ESC && p < ms->p_end) p++; // skip escapes (e.g. '%]')
        } while (*p != ']');
        charge(ms, (size_t)(p - start));
        return p + 1;
    }
    default: return p;
    }
}

static int match_class(int c, int cl)
{
    int res;
    switch (tolower(cl)) {
    case 'a': res = isalpha(c); break;
    case 'c': res = iscntrl(c); break;
    case 'd': res = isdigit(c); break;
    case 'g': res = isgraph(c); break;
    case 'l': res = islower(c); break;
    case 'p': res = ispunct(c); break;
    case 's': res = isspace(c); break;
    case 'u': res = isupper(c); break;
    case 'w': res = isalnum(c); break;
    case 'x': res = isxdigit(c); break;
    default: return cl == c;
    }
    if (isupper(cl)) res = !res;
    return res;
}

static int match_bracket_class(int c, const char *p, const char *ec)
{
    int sig = 1;
    if (*(p + 1) == '^') {
        sig = 0;
        p++; // skip the '^'
    }
    while (++p < ec) {
        if (*p == L_ESC) {
            p++;
            if (match_class(c, uchar(*p))) return sig;
        } else if (*(p + 1) == '-' && p + 2 < ec) {
            p += 2;
            if (uchar(*(p - 2)) <= c && c <= uchar(*p)) return sig;
        } else if (uchar(*p) == c) {
            return sig;
        }
    }
    return !sig;
}

static int single_match(MatchState *ms, const char *s, const char *p, const char *ep)
{
    if (s >= ms->src_end) return 0;
    int c = uchar(*s);
    switch (*p) {
    case '.': return 1;
    case L_ESC: return match_class(c, uchar(*(p + 1)));
    case '[': charge(ms, (size_t)(ep - p)); return match_bracket_class(c, p, ep - 1);
    default: return uchar(*p) == c;
    }
}

static const char *match_balance(MatchState *ms, const char *s, const char *p)
{
    if (p >= ms->p_end - 1) luaL_error(ms->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= ms->src_end || *s != *p) return NULL;
    int b = *p, e = *(p + 1), cont = 1;
    while (++s < ms->src_end) {
        step(ms);
        if (*s == e) {
            if (--cont == 0) return s + 1;
        } else if (*s == b) {
            cont++;
        }
    }
    return NULL;
}

static const char *max_expand(MatchState *ms, const char *s, const char *p, const char *ep)
{
    ptrdiff_t i = 0;
    while (single_match(ms, s + i, p, ep)) {
        step(ms);
        i++;
    }
    while (i >= 0) { // try with the maximum repetitions, then fewer
        const char *res = match(ms, s + i, ep + 1);
        if (res) return res;
        i--;
    }
    return NULL;
}

static const char *min_expand(MatchState *ms, const char *s, const char *p, const char *ep)
{
    for (;;) {
        const char *res = match(ms, s, ep + 1);
        if (res) return res;
        if (!single_match(ms, s, p, ep)) return NULL;
        s++;
    }
}

static const char *start_capture(MatchState *ms, const char *s, const char *p, int what)
{
    int level = ms->level;
    if (level >= LUA_MAXCAPTURES) luaL_error(ms->L, "too many captures");
    ms->capture[level].init = s;
    ms->capture[level].len = what;
    ms->level = (unsigned char)(level + 1);
    const char *res = match(ms, s, p);
    if (!res) ms->level--; // undo the capture
    return res;
}

static const char *end_capture(MatchState *ms, const char *s, const char *p)
{
    int l = capture_to_close(ms);
    ms->capture[l].len = s - ms->capture[l].init;
    const char *res = match(ms, s, p);
    if (!res) ms->capture[l].len = CAP_UNFINISHED;
    return res;
}

static const char *match_capture(MatchState *ms, const char *s, int l)
{
    l = check_capture(ms, l);
    size_t len = (size_t)ms->capture[l].len;
    charge(ms, len);
    if ((size_t)(ms->src_end - s) >= len && memcmp(ms->capture[l].init, s, len) == 0) return s + len;
    return NULL;
}

static const char *match(MatchState *ms, const char *s, const char *p)
{
    if (ms->matchdepth-- == 0) luaL_error(ms->L, "pattern too complex");
init:
    step(ms);
    if (p != ms->p_end) {
        switch (*p) {
        case '(':
            if (*(p + 1) == ')') s = start_capture(ms, s, p + 2, CAP_POSITION);
            else s = start_capture(ms, s, p + 1, CAP_UNFINISHED);
            break;
        case ')': s = end_capture(ms, s, p + 1); break;
        case '$':
            if (p + 1 != ms->p_end) goto dflt; // not the end of the pattern: an ordinary '$'
            s = s == ms->src_end ? s : NULL;
            break;
        case L_ESC:
            switch (*(p + 1)) {
            case 'b':
                s = match_balance(ms, s, p + 2);
                if (s) {
                    p += 4;
                    goto init;
                }
                break;
            case 'f': {
                p += 2;
                if (*p != '[') luaL_error(ms->L, "missing '[' after '%%f' in pattern");
                const char *ep = class_end(ms, p);
                charge(ms, 2 * (size_t)(ep - p));
                char previous = s == ms->src_init ? '\0' : *(s - 1);
                char current = s < ms->src_end ? *s : '\0';
                if (!match_bracket_class(uchar(previous), p, ep - 1) && match_bracket_class(uchar(current), p, ep - 1)) {
                    p = ep;
                    goto init;
                }
                s = NULL;
                break;
            }
            case '0': case '1': case '2': case '3': case '4':
            case '5': case '6': case '7': case '8': case '9':
                s = match_capture(ms, s, uchar(*(p + 1)));
                if (s) {
                    p += 2;
                    goto init;
                }
                break;
            default: goto dflt;
            }
            break;
        default:
        dflt: {
            const char *ep = class_end(ms, p);
            if (!single_match(ms, s, p, ep)) {
                if (*ep == '*' || *ep == '?' || *ep == '-') { // accept empty
                    p = ep + 1;
                    goto init;
                }
                s = NULL;
            } else {
                switch (*ep) {
                case '?': {
                    const char *res = match(ms, s + 1, ep + 1);
                    if (res) {
                        s = res;
                    } else {
                        p = ep + 1;
                        goto init;
                    }
                    break;
                }
                case '+': s = max_expand(ms, s + 1, p, ep); break;
                case '*': s = max_expand(ms, s, p, ep); break;
                case '-': s = min_expand(ms, s, p, ep); break;
                default:
                    s++;
                    p = ep;
                    goto init;
                }
            }
            break;
        }
        }
    }
    ms->matchdepth++;
    return s;
}

static ptrdiff_t get_onecapture(MatchState *ms, int i, const char *s, const char *e, const char **cap)
{
    if (i >= ms->level) {
        if (i != 0) luaL_error(ms->L, "invalid capture index %%%d", i + 1);
        *cap = s;
        return e - s; // the whole match
    }
    ptrdiff_t capl = ms->capture[i].len;
    *cap = ms->capture[i].init;
    if (capl == CAP_UNFINISHED) luaL_error(ms->L, "unfinished capture");
    else if (capl == CAP_POSITION) lua_pushinteger(ms->L, (ms->capture[i].init - ms->src_init) + 1);
    return capl;
}

static void push_onecapture(MatchState *ms, int i, const char *s, const char *e)
{
    const char *cap;
    ptrdiff_t l = get_onecapture(ms, i, s, e, &cap);
    if (l != CAP_POSITION) lua_pushlstring(ms->L, cap, (size_t)l);
}

static int push_captures(MatchState *ms, const char *s, const char *e)
{
    int nlevels = ms->level == 0 && s ? 1 : ms->level;
    luaL_checkstack(ms->L, nlevels, "too many captures");
    for (int i = 0; i < nlevels; i++) push_onecapture(ms, i, s, e);
    return nlevels;
}

static void prepstate(MatchState *ms, lua_State *L, const char *s, size_t ls, const char *p, size_t lp)
{
    ms->L = L;
    ms->limits = lua_touserdata(L, lua_upvalueindex(1));
    ms->matchdepth = MAXCCALLS;
    ms->src_init = s;
    ms->src_end = s + ls;
    ms->p_end = p + lp;
    ms->steps = ms->limits->max_steps;
}

static void reprepstate(MatchState *ms)
{
    ms->level = 0;
    ms->matchdepth = MAXCCALLS;
}

static size_t posrelat(lua_Integer pos, size_t len)
{
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

static int nospecials(const char *p, size_t l)
{
    size_t upto = 0;
    do {
        if (strpbrk(p + upto, SPECIALS)) return 0;
        upto += strlen(p + upto) + 1; // may have more after a \0
    } while (upto <= l);
    return 1;
}

// Plain search, counting its work like the matcher.
static const char *memfind(MatchState *ms, const char *s, size_t l1, const char *p, size_t l2)
{
    if (l2 == 0) return s;
    if (l2 > l1) return NULL;
    l1 -= l2 - 1;
    const char *init;
    while (l1 > 0 && (init = memchr(s, *p, l1)) != NULL) {
        ms->steps -= (long)l2;
        step(ms);
        init++;
        if (memcmp(init, p + 1, l2 - 1) == 0) return init - 1;
        l1 -= (size_t)(init - s);
        s = init;
    }
    return NULL;
}

static int find_aux(lua_State *L, int find)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = posrelat(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    MatchState ms;
    prepstate(&ms, L, s, ls, p, lp);
    if (find && (lua_toboolean(L, 4) || nospecials(p, lp))) {
        const char *s2 = memfind(&ms, s + init, ls - init, p, lp);
        if (s2) {
            lua_pushinteger(L, (s2 - s) + 1);
            lua_pushinteger(L, (lua_Integer)((size_t)(s2 - s) + lp));
            return 2;
        }
    } else {
        const char *s1 = s + init;
        int anchor = *p == '^';
        if (anchor) {
            p++;
            lp--;
            ms.p_end = p + lp;
        }
        do {
            reprepstate(&ms);
            const char *res = match(&ms, s1, p);
            if (res) {
                if (find) {
                    lua_pushinteger(L, (s1 - s) + 1);
                    lua_pushinteger(L, res - s);
                    return push_captures(&ms, NULL, 0) + 2;
                }
                return push_captures(&ms, s1, res);
            }
        } while (s1++ < ms.src_end && !anchor);
    }
    luaL_pushfail(L);
    return 1;
}

static int str_find(lua_State *L) { return find_aux(L, 1); }
static int str_match(lua_State *L) { return find_aux(L, 0); }

typedef struct GMatchState {
    const char *src, *p, *lastmatch;
    MatchState ms;
} GMatchState;

static int gmatch_aux(lua_State *L)
{
    GMatchState *gm = lua_touserdata(L, lua_upvalueindex(3));
    gm->ms.L = L;
    gm->ms.steps = gm->ms.limits->max_steps; // each call of the iterator has its own allowance
    for (const char *src = gm->src; src <= gm->ms.src_end; src++) {
        reprepstate(&gm->ms);
        const char *e = match(&gm->ms, src, gm->p);
        if (e && e != gm->lastmatch) {
            gm->src = gm->lastmatch = e;
            return push_captures(&gm->ms, src, e);
        }
    }
    return 0;
}

static int str_gmatch(lua_State *L)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = posrelat(luaL_optinteger(L, 3, 1), ls) - 1;
    lua_settop(L, 2); // keep the strings alive as upvalues
    GMatchState *gm = lua_newuserdatauv(L, sizeof *gm, 0);
    if (init > ls) init = ls + 1;
    prepstate(&gm->ms, L, s, ls, p, lp);
    gm->src = s + init;
    gm->p = p;
    gm->lastmatch = NULL;
    lua_pushcclosure(L, gmatch_aux, 3);
    return 1;
}

static void add_s(MatchState *ms, luaL_Buffer *b, const char *s, const char *e)
{
    size_t l;
    lua_State *L = ms->L;
    const char *news = lua_tolstring(L, 3, &l);
    const char *p;
    while ((p = memchr(news, L_ESC, l)) != NULL) {
        step(ms); // "%1%1%1..." of an empty capture adds nothing, a million times per match
        luaL_addlstring(b, news, (size_t)(p - news));
        p++;
        if (*p == L_ESC) {
            luaL_addchar(b, *p);
        } else if (*p == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit(uchar(*p))) {
            const char *cap;
            ptrdiff_t resl = get_onecapture(ms, *p - '1', s, e, &cap);
            if (resl == CAP_POSITION) luaL_addvalue(b);
            else luaL_addlstring(b, cap, (size_t)resl);
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", L_ESC);
        }
        l -= (size_t)(p + 1 - news);
        news = p + 1;
    }
    luaL_addlstring(b, news, l);
}

static int add_value(MatchState *ms, luaL_Buffer *b, const char *s, const char *e, int tr)
{
    lua_State *L = ms->L;
    switch (tr) {
    case LUA_TFUNCTION: { // a C function (string.upper) runs no instruction
        poll(ms);
        lua_pushvalue(L, 3);
        int n = push_captures(ms, s, e);
        lua_call(L, n, 1);
        break;
    }
    case LUA_TTABLE: // an __index chain: up to 2000 steps a match
        poll(ms);
        push_onecapture(ms, 0, s, e);
        lua_gettable(L, 3);
        break;
    default:
        add_s(ms, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) { // nil or false: keep the original text
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

static int str_gsub(lua_State *L)
{
    size_t srcl, lp;
    const char *src = luaL_checklstring(L, 1, &srcl);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *lastmatch = NULL;
    int tr = lua_type(L, 3);
    lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
    int anchor = *p == '^';
    lua_Integer n = 0;
    int changed = 0;
    MatchState ms;
    luaL_Buffer b;
    luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
                     "string/function/table");
    luaL_buffinit(L, &b);
    if (anchor) {
        p++;
        lp--;
    }
    prepstate(&ms, L, src, srcl, p, lp);
    while (n < max_s) {
        reprepstate(&ms);
        const char *e = match(&ms, src, p);
        if (e && e != lastmatch) {
            n++;
            changed = add_value(&ms, &b, src, e, tr) | changed;
            src = lastmatch = e;
        } else if (src < ms.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor) break;
    }
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, (size_t)(ms.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

void lpattern_register(lua_State *L, const lpattern_Limits *limits)
{
    static const luaL_Reg patterns[] = { { "find", str_find }, { "match", str_match },
                                         { "gmatch", str_gmatch }, { "gsub", str_gsub }, { NULL, NULL } };
    lua_pushlightuserdata(L, (void *)limits);
    luaL_setfuncs(L, patterns, 1);
}
