// SPDX-License-Identifier: MIT
// sandbox.c — the library a mod sees, made safe.
//
// A mod is stopped by its own thread (mod.c): a count hook looks at the
// watchdog's verdict every thousand Lua instructions, and once the mod is
// killed the thread stops at every instruction and every call. A C
// function runs no instruction, so every C function a mod can reach must
// finish in bounded time, well under the budget (20 ms) at the default
// memory cap, and every C loop that calls the mod's functions or
// metamethods (which may be C functions too, a loop of calls running no
// instruction) looks at the verdict itself (steerE_check_stop); so do the
// costlier functions on entry, so that a Lua loop of them stops at the
// next one:
//  - pattern matching (find, match, gmatch, gsub) is Lua 5.4's matcher
//    (lstrlib.c, MIT, same structure and semantics) with a step counter:
//    a call that needs more than MAX_STEPS steps raises an error instead
//    of backtracking for hours, and the verdict is looked at every
//    STOP_STEPS steps; gsub looks at it before each replacement;
//  - string.rep refuses results above the mod's string limit before it
//    allocates and copies by doubling (everything else that builds
//    strings grows through the mod's capped allocator);
//  - the table functions that loop in C (concat, unpack, move, insert,
//    remove) look at the verdict per element: with a chain of __index
//    tables each lookup is up to 2000 steps of C that run no instruction;
//    table.move takes at most a million elements; table.sort of more than
//    32768 elements (or of a table with a metatable, or of values that
//    compare through __lt) compares through a C function that looks at
//    the verdict, as does a comparator that is a C function;
//  - load takes text only, at most 256 KiB of it (the parser cannot be
//    interrupted); string.pack, unpack and packsize take formats of at
//    most 64 KiB, string.format quotes (%q) at most 256 KiB per call;
//    string.dump, dofile, loadfile and collectgarbage are gone, as are io,
//    os, debug and package;
//  - setmetatable refuses __gc, and every metatable the mod did not make
//    (strings', the steer types') is protected, so no finaliser of the
//    mod's can run when the engine closes its state;
//  - tostring and string.format show no addresses.
#include "engine.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#define MAX_STEPS 2000000L
#define STOP_STEPS 1024 // steps between two looks at the verdict (a power of 2)
#define LUA_MAXCAPTURES 32
#define L_ESC '%'
#define SPECIALS "^$*+?.([%-"
#define MAXCCALLS 200
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define uchar(c) ((unsigned char)(c))

// ---- the matcher ------------------------------------------------------------------

typedef struct MatchState {
    const char *src_init, *src_end, *p_end;
    lua_State *L;
    int matchdepth;
    unsigned char level;
    long steps;   // left for this call
    struct {
        const char *init;
        ptrdiff_t len;
    } capture[LUA_MAXCAPTURES];
} MatchState;

static const char *match(MatchState *ms, const char *s, const char *p);

static void step(MatchState *ms)
{
    if ((--ms->steps & (STOP_STEPS - 1)) == 0) steerE_check_stop(ms->L);
    if (ms->steps < 0)
        luaL_error(ms->L, "pattern matching took more than %d steps (simplify the pattern or the subject)", (int)MAX_STEPS);
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
    ms->matchdepth = MAXCCALLS;
    ms->src_init = s;
    ms->src_end = s + ls;
    ms->p_end = p + lp;
    ms->steps = MAX_STEPS;
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
    gm->ms.steps = MAX_STEPS; // each call of the iterator has its own allowance
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
        steerE_check_stop(L);
        lua_pushvalue(L, 3);
        int n = push_captures(ms, s, e);
        lua_call(L, n, 1);
        break;
    }
    case LUA_TTABLE: // an __index chain: up to 2000 steps a match
        steerE_check_stop(L);
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

// ---- the rest of the sandbox ----------------------------------------------------------

static size_t max_string(lua_State *L)
{
    return (size_t)lua_tointeger(L, lua_upvalueindex(1));
}

// string.rep with its result size checked before anything is allocated,
// copied by doubling: Lua's copies the string n times, four million
// memcpy calls for string.rep("x", 4e6)
static int str_rep(lua_State *L)
{
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    size_t limit = max_string(L);
    steerE_check_stop(L);
    if (n <= 0 || l + lsep == 0) { // Lua's would copy nothing n times: 10^15 loops
        lua_pushliteral(L, "");
        return 1;
    }
    double total = (double)l * (double)n + (double)lsep * (double)(n - 1);
    if (total > (double)limit) {
        char msg[128];
        snprintf(msg, sizeof msg, "string.rep: a result of %.0f bytes is over the mod's string limit of %zu bytes", total,
                 limit);
        return luaL_error(L, "%s", msg);
    }
    size_t unit = l + lsep, all = unit * (size_t)n; // the last separator is dropped
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, all);
    memcpy(p, s, l);
    memcpy(p + l, sep, lsep);
    for (size_t done = unit; done < all; done *= 2) memcpy(p + done, p, done < all - done ? done : all - done);
    luaL_pushresultsize(&b, all - lsep);
    return 1;
}

static int sb_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 1);
        if (!lua_isstring(L, -1)) return luaL_error(L, "'__tostring' must return a string");
        return 1;
    }
    switch (lua_type(L, 1)) {
    case LUA_TNUMBER:
    case LUA_TSTRING:
    case LUA_TBOOLEAN:
    case LUA_TNIL: luaL_tolstring(L, 1, NULL); break;
    default: lua_pushstring(L, luaL_typename(L, 1)); break; // no address
    }
    return 1;
}

static int sb_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) return luaL_error(L, "setmetatable: __gc metamethods are not available to mods");
        lua_pop(L, 1);
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

// string.format without addresses: no %p, and %s of a table, function,
// thread or userdata shows what the sandbox's tostring shows.
// And at most MAX_QUOTED bytes of strings under %q per call: quoting goes
// a byte at a time (3 MB took 130 ms).
#define MAX_QUOTED (256 << 10)

static int sb_format(lua_State *L)
{
    size_t len, quoted = 0;
    const char *fmt = luaL_checklstring(L, 1, &len);
    int arg = 1;
    for (size_t i = 0; i + 1 < len; i++) {
        if (fmt[i] != '%') continue;
        size_t j = i + 1;
        if (fmt[j] == '%') {
            i = j;
            continue;
        }
        arg++;
        while (j < len && strchr("-+ #0123456789.", fmt[j])) j++;
        if (j < len && fmt[j] == 'p') return luaL_error(L, "string.format: '%%p' is not available to mods");
        if (j < len && fmt[j] == 'q' && lua_type(L, arg) == LUA_TSTRING && (quoted += lua_rawlen(L, arg)) > MAX_QUOTED)
            return luaL_error(L, "string.format: '%%q' of more than %d bytes in one call", MAX_QUOTED);
        i = j;
    }
    int n = lua_gettop(L);
    steerE_check_stop(L);
    for (int i = 2; i <= n; i++) {
        int t = lua_type(L, i);
        if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TTHREAD || t == LUA_TUSERDATA || t == LUA_TLIGHTUSERDATA) {
            steerE_check_stop(L); // each may be a __tostring that is a C function
            lua_pushcfunction(L, sb_tostring);
            lua_pushvalue(L, i);
            lua_call(L, 1, 1);
            lua_replace(L, i);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 1);
    return 1;
}

// table.concat, table.unpack and table.move: ltablib.c's, with a look at
// the stop flag per element (a chain of __index tables makes each lookup
// up to 2000 steps of C, and no call), on tables only. table.move({}, 1,
// 1e9, 1) would move a billion nils, allocating nothing: its element count
// is bounded as well, for a clear error.
#define MAX_TABLE_OP 1000000

static void add_field(lua_State *L, luaL_Buffer *b, lua_Integer i)
{
    steerE_check_stop(L);
    lua_geti(L, 1, i);
    if (!lua_isstring(L, -1)) luaL_error(L, "invalid value (at index %I) in table for 'concat'", (LUAI_UACINT)i);
    luaL_addvalue(b);
}

static int tab_concat(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer last = luaL_len(L, 1);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (; i < last; i++) {
        add_field(L, &b, i);
        luaL_addlstring(&b, sep, lsep);
    }
    if (i == last) add_field(L, &b, i);
    luaL_pushresult(&b);
    return 1;
}

static int tab_unpack(lua_State *L)
{
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = luaL_opt(L, luaL_checkinteger, 3, luaL_len(L, 1));
    if (i > e) return 0;
    lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i; // the count minus 1, without overflow
    if (n >= (unsigned)INT_MAX || !lua_checkstack(L, (int)++n)) return luaL_error(L, "too many results to unpack");
    for (; i < e; i++) {
        steerE_check_stop(L);
        lua_geti(L, 1, i);
    }
    lua_geti(L, 1, e);
    return (int)n;
}

// t[to_i] = table 1's [from_i], after a look at the verdict: the one step
// of table.move, insert and remove.
static void move_one(lua_State *L, int to, lua_Integer from_i, lua_Integer to_i)
{
    steerE_check_stop(L);
    lua_geti(L, 1, from_i);
    lua_seti(L, to, to_i);
}

static int tab_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3), t = luaL_checkinteger(L, 4);
    int tt = !lua_isnoneornil(L, 5) ? 5 : 1; // the destination
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, tt, LUA_TTABLE);
    if (e >= f) {
        if ((lua_Unsigned)e - (lua_Unsigned)f >= MAX_TABLE_OP)
            return luaL_error(L, "table.move: more than %d elements", MAX_TABLE_OP);
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        if (t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ))) {
            for (lua_Integer i = 0; i < n; i++) move_one(L, tt, f + i, t + i);
        } else {
            for (lua_Integer i = n - 1; i >= 0; i--) move_one(L, tt, f + i, t + i);
        }
    }
    lua_pushvalue(L, tt);
    return 1;
}

// table.insert and table.remove (ltablib.c's, with the shift bounded): they
// shift up to #t elements, and a __len may claim 2^40 of them
static lua_Integer shift_len(lua_State *L, const char *fn, lua_Integer from, lua_Integer to)
{
    if (to > from && (lua_Unsigned)to - (lua_Unsigned)from >= MAX_TABLE_OP)
        return luaL_error(L, "%s: would shift more than %d elements", fn, MAX_TABLE_OP);
    return to;
}

static int tab_insert(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer e = luaL_intop(+, luaL_len(L, 1), 1); // the first empty element
    lua_Integer pos = e;
    switch (lua_gettop(L)) {
    case 2: break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        for (lua_Integer i = shift_len(L, "table.insert", pos, e); i > pos; i--) move_one(L, 1, i - 1, i);
        break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int tab_remove(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer size = luaL_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size) luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    lua_geti(L, 1, pos);
    for (shift_len(L, "table.remove", pos, size); pos < size; pos++) move_one(L, 1, pos + 1, pos);
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

// Without a comparator, sort compares in C: 20000 references to one 2 MiB
// string took 14 s, and a quarter million numbers 150 ms, in a loop that
// runs no instruction. Past SORT_IN_C elements (or when the table has a
// metatable, whose __index chains make each access up to 2000 steps, or
// holds values compared through __lt, which may be a C function) this
// comparator does the comparing: it looks at the verdict, and counts the
// bytes of strings compared.
#define MAX_SORT_BYTES (1 << 30)
#define SORT_IN_C (1 << 15)

static int sort_less(lua_State *L)
{
    steerE_check_stop(L);
    if (lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING) {
        size_t la = lua_rawlen(L, 1), lb = lua_rawlen(L, 2);
        lua_Integer left = lua_tointeger(L, lua_upvalueindex(1)) - (lua_Integer)(la < lb ? la : lb) - 1;
        if (left < 0) return luaL_error(L, "table.sort: comparing its strings takes more than %d bytes", MAX_SORT_BYTES);
        lua_pushinteger(L, left);
        lua_replace(L, lua_upvalueindex(1));
    }
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
}

// A comparator that is a C function (upvalue 1), called after a look at
// the verdict: Lua's sort calls it in a loop that runs no instruction.
static int sort_call(lua_State *L)
{
    steerE_check_stop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int tab_sort(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    if (n > MAX_TABLE_OP / 4) return luaL_error(L, "table.sort: more than %d elements", MAX_TABLE_OP / 4);
    steerE_check_stop(L);
    if (lua_iscfunction(L, 2)) {
        lua_settop(L, 2);
        lua_pushcclosure(L, sort_call, 1);
    } else if (lua_isnoneornil(L, 2)) {
        size_t longest = 0;
        if (lua_getmetatable(L, 1)) { // its elements may come through __index
            lua_pop(L, 1);
            longest = MAX_SORT_BYTES;
        }
        for (lua_Integer i = 1; i <= n && longest < MAX_SORT_BYTES; i++) {
            int t = lua_rawgeti(L, 1, i);
            if (t == LUA_TSTRING && lua_rawlen(L, -1) > longest) longest = lua_rawlen(L, -1);
            else if (t != LUA_TSTRING && t != LUA_TNUMBER) longest = MAX_SORT_BYTES; // compared through __lt
            lua_pop(L, 1);
        }
        double log2n = 1;
        for (lua_Integer k = n; k > 1; k >>= 1) log2n++;
        if (n > SORT_IN_C || (double)longest * (double)n * log2n > MAX_SORT_BYTES) {
            lua_settop(L, 1);
            lua_pushinteger(L, MAX_SORT_BYTES);
            lua_pushcclosure(L, sort_less, 1);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
}

// load(chunk [, name [, mode [, env]]]): text only, whatever mode says, and
// at most MAX_LOAD bytes of it: the parser is C the hook cannot interrupt
// (4 MB of "1+1+..." take 170 ms).
#define MAX_LOAD (256 << 10)

// A reader function's pieces, their total counted (upvalue 2).
static int counted_reader(lua_State *L)
{
    steerE_check_stop(L); // the reader may be a C function: the parser calls it in a loop
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 0, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
        lua_Integer total = lua_tointeger(L, lua_upvalueindex(2)) + (lua_Integer)lua_rawlen(L, -1);
        if (total > MAX_LOAD) return luaL_error(L, "load: a chunk of more than %d bytes", MAX_LOAD);
        lua_pushinteger(L, total);
        lua_replace(L, lua_upvalueindex(2));
    }
    return 1;
}

static int sb_load(lua_State *L)
{
    int n = lua_gettop(L);
    steerE_check_stop(L);
    if (n > 4) lua_settop(L, n = 4);
    while (lua_gettop(L) < 2) lua_pushnil(L);
    if (lua_type(L, 1) == LUA_TSTRING && lua_rawlen(L, 1) > MAX_LOAD)
        return luaL_error(L, "load: a chunk of %I bytes is over the mod's limit of %d", (LUAI_UACINT)lua_rawlen(L, 1),
                          MAX_LOAD);
    if (lua_type(L, 1) == LUA_TFUNCTION) {
        lua_pushvalue(L, 1);
        lua_pushinteger(L, 0);
        lua_pushcclosure(L, counted_reader, 2);
        lua_replace(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushliteral(L, "t");
    if (n >= 4) lua_pushvalue(L, 4);
    lua_call(L, n >= 4 ? 4 : 3, 2);
    return 2;
}

// string.pack, unpack and packsize (upvalue 1) with formats of at most
// MAX_FORMAT bytes: 5 MB of spaces took unpack 90 ms.
#define MAX_FORMAT (64 << 10)

static int sb_pack(lua_State *L)
{
    size_t len;
    luaL_checklstring(L, 1, &len);
    steerE_check_stop(L);
    if (len > MAX_FORMAT) return luaL_error(L, "%s: a format of more than %d bytes", lua_tostring(L, lua_upvalueindex(2)),
                                            MAX_FORMAT);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

void steerE_open_sandbox(lua_State *L, size_t max_str)
{
    static const char *const gone[] = { "dofile", "loadfile", "collectgarbage", NULL };
    for (int i = 0; gone[i]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, gone[i]);
    }
    lua_pushcfunction(L, sb_tostring);
    lua_setglobal(L, "tostring");
    lua_pushcfunction(L, sb_setmetatable);
    lua_setglobal(L, "setmetatable");
    lua_getglobal(L, "load");
    lua_pushcclosure(L, sb_load, 1);
    lua_setglobal(L, "load");

    lua_getglobal(L, "string");
    static const luaL_Reg patterns[] = {
        { "find", str_find }, { "match", str_match }, { "gmatch", str_gmatch }, { "gsub", str_gsub }, { NULL, NULL }
    };
    luaL_setfuncs(L, patterns, 0);
    lua_pushinteger(L, (lua_Integer)max_str);
    lua_pushcclosure(L, str_rep, 1);
    lua_setfield(L, -2, "rep");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_getfield(L, -1, "format");
    lua_pushcclosure(L, sb_format, 1);
    lua_setfield(L, -2, "format");
    static const char *const packs[] = { "pack", "unpack", "packsize", NULL };
    for (int i = 0; packs[i]; i++) {
        lua_getfield(L, -1, packs[i]);
        lua_pushfstring(L, "string.%s", packs[i]);
        lua_pushcclosure(L, sb_pack, 2);
        lua_setfield(L, -2, packs[i]);
    }
    lua_pop(L, 1);
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushcclosure(L, tab_sort, 1);
    lua_setfield(L, -2, "sort");
    static const luaL_Reg loops[] = { { "insert", tab_insert }, { "remove", tab_remove }, { "concat", tab_concat },
                                      { "unpack", tab_unpack }, { "move", tab_move }, { NULL, NULL } };
    luaL_setfuncs(L, loops, 0);
    lua_pop(L, 1);
    // strings' metatable is shared by every string of the state: protect it
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

void steerE_protect_metatables(lua_State *L)
{
    // every type's metatable (luaL_newmetatable: registry[name] with
    // __name = name): grids' and flow fields' have C __gc too
    lua_pushnil(L);
    while (lua_next(L, LUA_REGISTRYINDEX)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_istable(L, -1)) {
            if (lua_getfield(L, -1, "__name") == LUA_TSTRING && lua_rawequal(L, -1, -3)) {
                lua_pushboolean(L, 0);
                lua_setfield(L, -3, "__metatable");
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}
