// SPDX-License-Identifier: MIT
// lsnapgrid.c — the grids and flow fields as plain data for the Lua
// snapshot (lsnapshot.c): steerL_grids_save, steerL_grids_load and
// steerL_grids_bind, and after an in-place restore steerL_grids_twin. A
// grid saves its serial (lnav.h), its costs, the fields it lists and the
// ids of the wall shapes it put into the world (the core saved those); a
// field saves its serial, its goals and its cells as they are.
#include "lnav.h"
#include "lsnapshot.h"
#include "../behaviors/exports.h"
#include "../core/bytes.h"

#include <string.h>

// Numbers as little-endian bytes in a string, whatever the host, so that
// a snapshot reads the same on every machine.
static void push_le(lua_State *L, const void *v, size_t n, size_t size)
{
    luaL_Buffer b;
    steerS_le_copy(luaL_buffinitsize(L, &b, n * size), v, size, n);
    luaL_pushresultsize(&b, n * size);
}
static void push_doubles(lua_State *L, const double *v, size_t n) { push_le(L, v, n, 8); }
static void push_floats(lua_State *L, const float *v, size_t n) { push_le(L, v, n, 4); }

// Field k of the table at t as a string of exactly n numbers of `size`
// bytes (8: doubles, 4: floats) into out, or raise.
static void get_numbers(lua_State *L, int t, const char *k, void *out, size_t n, size_t size, const char *fn)
{
    size_t len;
    lua_getfield(L, t, k);
    const char *p = lua_tolstring(L, -1, &len);
    if (lua_type(L, -1) != LUA_TSTRING || len != n * size)
        luaL_error(L, "%s: corrupt snapshot (a grid's '%s' has %d bytes, expected %d)", fn, k, (int)len,
                   (int)(n * size));
    steerS_le_copy(out, p, size, n);
    lua_pop(L, 1);
}

static double get_number(lua_State *L, int t, const char *k, const char *fn)
{
    if (lua_getfield(L, t, k) != LUA_TNUMBER) luaL_error(L, "%s: corrupt snapshot (a grid's '%s' is missing)", fn, k);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

// A serial (0: none, not saved) into the table on top.
static void save_serial(lua_State *L, uint64_t serial)
{
    if (!serial) return;
    lua_pushinteger(L, (lua_Integer)serial);
    lua_setfield(L, -2, "serial");
}

// The serial saved in the table at t (0: none), or raise.
static uint64_t get_serial(lua_State *L, int t, const char *fn)
{
    int isint = 0;
    lua_getfield(L, t, "serial");
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    bool none = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (none) return 0;
    if (!isint || v < 1 || v >= (lua_Integer)(STEERL_MAX_OWNER + 1) << STEERL_SERIAL_SHIFT)
        luaL_error(L, "%s: corrupt snapshot (a grid's or field's serial)", fn);
    return (uint64_t)v;
}

static void save_flow(lua_State *L, const steerN_Flow *f)
{
    size_t cells = (size_t)f->grid->nx * (size_t)f->grid->ny;
    lua_createtable(L, 0, 7);
    save_serial(L, f->serial);
    push_doubles(L, f->goals, 2 * (size_t)f->ngoals);
    lua_setfield(L, -2, "goals");
    push_doubles(L, f->dist, cells);
    lua_setfield(L, -2, "dist");
    lua_pushlstring(L, (const char *)f->dir, cells);
    lua_setfield(L, -2, "dir");
    lua_pushnumber(L, f->bias);
    lua_setfield(L, -2, "bias");
    lua_pushnumber(L, f->drift);
    lua_setfield(L, -2, "drift");
    lua_pushinteger(L, f->version);
    lua_setfield(L, -2, "version");
}

// The index the table at `seen` gives the C grid or field p: 0 when none
// yet, else index i set by set_seen.
static lua_Integer seen_index(lua_State *L, int seen, const void *p)
{
    lua_pushlightuserdata(L, (void *)(uintptr_t)p);
    lua_Integer i = lua_rawget(L, seen) == LUA_TNUMBER ? lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    return i;
}
static void set_seen(lua_State *L, int seen, const void *p, lua_Integer i)
{
    lua_pushlightuserdata(L, (void *)(uintptr_t)p);
    lua_pushinteger(L, i);
    lua_rawset(L, seen);
}

// Field f of the grid saved at index gi of the list at `list` (once): its
// index among that grid's saved fields.
static lua_Integer save_field(lua_State *L, int list, int seen, lua_Integer gi, const steerN_Flow *f)
{
    lua_Integer k = seen_index(L, seen, f);
    if (k) return k;
    lua_rawgeti(L, list, gi);
    lua_getfield(L, -1, "flows");
    k = (lua_Integer)lua_rawlen(L, -1) + 1;
    save_flow(L, f);
    lua_rawseti(L, -2, k);
    lua_pop(L, 2);
    set_seen(L, seen, f, k);
    return k;
}

// Grid g into the list at `list` (once), with the fields its userdata ug
// lists: its index there. ug is NULL for a grid this state did not make (a
// mod's, whose field a brain follows): its saved fields are those bound.
static lua_Integer save_grid(lua_State *L, int wi, int list, int seen, const steerN_Grid *g, steerL_Grid *ug,
                             bool attached)
{
    lua_Integer i = seen_index(L, seen, g);
    if (i) return i;
    i = (lua_Integer)lua_rawlen(L, list) + 1;
    set_seen(L, seen, g, i);
    lua_createtable(L, 0, 11);
    save_serial(L, g->serial);
    lua_pushinteger(L, g->nx);
    lua_setfield(L, -2, "nx");
    lua_pushinteger(L, g->ny);
    lua_setfield(L, -2, "ny");
    lua_pushnumber(L, g->cell);
    lua_setfield(L, -2, "cell");
    push_doubles(L, g->origin, 2);
    lua_setfield(L, -2, "origin");
    lua_pushnumber(L, g->min_cost);
    lua_setfield(L, -2, "min_cost");
    lua_pushinteger(L, g->version);
    lua_setfield(L, -2, "version");
    push_floats(L, g->cost, (size_t)g->nx * (size_t)g->ny);
    lua_setfield(L, -2, "costs");
    lua_pushboolean(L, attached);
    lua_setfield(L, -2, "attached");
    lua_createtable(L, ug ? (int)ug->shown.nflows : 1, 0);
    lua_setfield(L, -2, "flows");
    // the wall shapes the grid put into this world (the core saved them)
    lua_getiuservalue(L, wi, 1);
    lua_getfield(L, -1, "grids"); // the world's grids table holds ours: find our userdata there
    lua_remove(L, -2);
    bool walls = false;
    if (ug && lua_istable(L, -1)) {
        lua_pushnil(L);
        while (!walls && lua_next(L, -2)) {
            lua_pop(L, 1);
            if (lua_touserdata(L, -1) != ug) continue;
            lua_getiuservalue(L, -1, 1);
            lua_getfield(L, -1, "worlds");
            lua_pushvalue(L, wi);
            if (lua_rawget(L, -2) == LUA_TUSERDATA) {
                const steerL_Walls *lwl = lua_touserdata(L, -1);
                lua_createtable(L, (int)lwl->n, 0);
                for (uint32_t k = 0; k < lwl->n; k++) {
                    steerL_pushid(L, lwl->id[k].id);
                    lua_rawseti(L, -2, (lua_Integer)k + 1);
                }
                lua_setfield(L, -7, "walls");
            }
            lua_pop(L, 4);
            walls = true;
        }
    }
    lua_pop(L, 1);
    lua_rawseti(L, list, i);
    for (uint32_t k = 0; ug && k < ug->shown.nflows; k++) save_field(L, list, seen, i, ug->shown.flows[k]);
    return i;
}

void steerL_grids_save(lua_State *L, int wi, int flows)
{
    wi = lua_absindex(L, wi);
    flows = lua_absindex(L, flows);
    steerL_World *lw = steerL_checkworld(L, wi);
    lua_newtable(L); // the grids
    int list = lua_gettop(L);
    lua_newtable(L); // grid or field -> its index
    int seen = list + 1;
    lua_getfield(L, LUA_REGISTRYINDEX, STEERL_REG_GRIDS);
    int userdata = seen + 1;
    for (uint32_t i = 0; i < lw->nav.n; i++) {
        const steerN_Shown *sh = lw->nav.grids[i];
        steerL_Grid *ug = (steerL_Grid *)(void *)((char *)(uintptr_t)sh - offsetof(steerL_Grid, shown));
        save_grid(L, wi, list, seen, ug->g, ug, true);
    }
    lua_newtable(L); // the pairs
    lua_Integer n = (lua_Integer)lua_rawlen(L, flows);
    for (lua_Integer k = 1; k <= n; k++) {
        // a bound field's steerN_Flow, or a grid or field userdata (a.data's)
        const steerN_Flow *f = NULL;
        const steerN_Grid *g;
        if (lua_rawgeti(L, flows, k) == LUA_TLIGHTUSERDATA) f = lua_touserdata(L, -1);
        else if (luaL_testudata(L, -1, STEERL_FLOW)) f = steerL_checkflow(L, -1)->f;
        g = f ? f->grid : steerL_checkgrid(L, -1)->g;
        lua_pop(L, 1);
        lua_pushlightuserdata(L, (void *)(uintptr_t)g);
        steerL_Grid *ug = lua_rawget(L, userdata) == LUA_TUSERDATA ? lua_touserdata(L, -1) : NULL;
        lua_pop(L, 1);
        lua_Integer gi = save_grid(L, wi, list, seen, g, ug, false), fi = f ? save_field(L, list, seen, gi, f) : 0;
        lua_createtable(L, 2, 0);
        lua_pushinteger(L, gi);
        lua_rawseti(L, -2, 1);
        lua_pushinteger(L, fi);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, k);
    }
    lua_remove(L, userdata);
    lua_remove(L, seen);
}

static steerL_Flow *load_flow(lua_State *L, int gi, int t, const char *fn)
{
    const steerN_Grid *g = steerL_checkgrid(L, gi)->g;
    size_t cells = (size_t)g->nx * (size_t)g->ny, len;
    lua_getfield(L, t, "goals");
    lua_tolstring(L, -1, &len);
    lua_pop(L, 1);
    if (len == 0 || len % 16 || len / 16 > 1000000)
        luaL_error(L, "%s: corrupt snapshot (a flow field's goals are %d bytes)", fn, (int)len);
    uint32_t n = (uint32_t)(len / 16);
    double *goals = lua_newuserdatauv(L, 16 * (size_t)n, 0);
    get_numbers(L, t, "goals", goals, 2 * (size_t)n, 8, fn);
    for (uint32_t i = 0; i < n; i++) {
        int x, y;
        if (!steerN_cell_of(g, goals + 2 * i, &x, &y) || !steerN_open(g, x, y))
            luaL_error(L, "%s: corrupt snapshot (a flow field's goal is not in an open cell of its grid)", fn);
    }
    steerL_Flow *uf = steerL_new_flow(L, gi, fn, goals, n);
    lua_remove(L, -2);
    uf->f->serial = get_serial(L, t, fn);
    // as it was, repairs and all: a rebuild could differ in the last bits
    get_numbers(L, t, "dist", uf->f->dist, cells, 8, fn);
    lua_getfield(L, t, "dir");
    const char *dir = lua_tolstring(L, -1, &len);
    if (!dir || len != cells) luaL_error(L, "%s: corrupt snapshot (a flow field's directions)", fn);
    for (size_t c = 0; c < cells; c++)
        if ((unsigned char)dir[c] > STEERN_NONE) luaL_error(L, "%s: corrupt snapshot (a flow field's directions)", fn);
    memcpy(uf->f->dir, dir, cells);
    lua_pop(L, 1);
    uf->f->bias = get_number(L, t, "bias", fn);
    uf->f->drift = get_number(L, t, "drift", fn);
    uf->f->version = (uint32_t)get_number(L, t, "version", fn);
    return uf;
}

// ---- twins ---------------------------------------------------------------------
//
// For an in-place restore (w:restore) the load looks, before it makes
// anything, for the live grids and fields of this state by serial (the
// registry's grid userdata and the fields each lists): serial -> userdata,
// or false where two share one (a steer.load beside: no twin then, rather
// than a guess). A loaded grid whose twin has the same cells (size, cell
// side, origin) and a loaded field whose twin lies on its grid's twin are
// replaced by their twins in the lists the load hands on (so the world's
// brains, its grids and a.data's references name the twins), and noted in
// the lists' `twins` for steerL_grids_twin, which copies the loaded
// contents into them once the restore has succeeded. A twin is so taken
// once; a loaded field without a twin on a grid with one moves onto it then.

// The live grids and fields of this state by serial, into the tables at
// grids and flows.
static void live_serials(lua_State *L, int grids, int flows)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, STEERL_REG_GRIDS) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        const steerL_Grid *ug = luaL_testudata(L, -1, STEERL_GRID);
        if (ug && ug->g && ug->g->serial) {
            lua_pushinteger(L, (lua_Integer)ug->g->serial);
            lua_pushvalue(L, -1);
            bool twice = lua_rawget(L, grids) != LUA_TNIL;
            lua_pop(L, 1);
            if (twice) lua_pushboolean(L, 0);
            else lua_pushvalue(L, -2);
            lua_rawset(L, grids);
            lua_getiuservalue(L, -1, 1);
            lua_getfield(L, -1, "fields");
            lua_pushnil(L);
            while (lua_next(L, -2)) {
                lua_pop(L, 1);
                const steerL_Flow *uf = luaL_testudata(L, -1, STEERL_FLOW);
                if (!uf || !uf->f || !uf->f->serial) continue;
                lua_pushinteger(L, (lua_Integer)uf->f->serial);
                lua_pushvalue(L, -1);
                twice = lua_rawget(L, flows) != LUA_TNIL;
                lua_pop(L, 1);
                if (twice) lua_pushboolean(L, 0);
                else lua_pushvalue(L, -2);
                lua_rawset(L, flows);
            }
            lua_pop(L, 2);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

// The twin (a userdata in the map at map) of serial, taken (the map's entry
// set to false), on top; nil when none.
static bool take_twin(lua_State *L, int map, uint64_t serial)
{
    if (!serial) {
        lua_pushnil(L);
        return false;
    }
    lua_pushinteger(L, (lua_Integer)serial);
    if (lua_rawget(L, map) != LUA_TUSERDATA) {
        lua_pop(L, 1);
        lua_pushnil(L);
        return false;
    }
    lua_pushinteger(L, (lua_Integer)serial);
    lua_pushboolean(L, 0);
    lua_rawset(L, map);
    return true;
}

// Note {loaded, twin} (stack indices) in the list at twins.
static void note_twin(lua_State *L, int twins, int loaded, int twin)
{
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, loaded);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, twin);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, twins, (lua_Integer)lua_rawlen(L, twins) + 1);
}

static bool same_cells(const steerN_Grid *a, const steerN_Grid *b)
{
    return a->nx == b->nx && a->ny == b->ny && a->cell == b->cell && a->origin[0] == b->origin[0] &&
           a->origin[1] == b->origin[1];
}

void steerL_grids_load(lua_State *L, int desc, const char *fn, bool twins)
{
    desc = lua_absindex(L, desc);
    lua_newtable(L);
    int out = lua_gettop(L);
    lua_newtable(L); // the live grids and fields by serial
    lua_newtable(L);
    lua_newtable(L); // the twins taken
    int live_grids = out + 1, live_flows = out + 2, taken = out + 3;
    if (twins) live_serials(L, live_grids, live_flows);
    lua_pushvalue(L, taken);
    lua_setfield(L, out, "twins");
    int base = lua_gettop(L);
    lua_Integer n = lua_istable(L, desc) ? (lua_Integer)lua_rawlen(L, desc) : 0;
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_rawgeti(L, desc, i) != LUA_TTABLE) luaL_error(L, "%s: corrupt snapshot (grid %d)", fn, (int)i);
        int t = lua_gettop(L);
        double nx = get_number(L, t, "nx", fn), ny = get_number(L, t, "ny", fn), cell = get_number(L, t, "cell", fn);
        if (!(nx >= 1 && ny >= 1 && nx <= 65536 && ny <= 65536 && nx * ny <= (double)(1 << 24)) ||
            !steerB_number_ok(cell, 1e-6, 1e30))
            luaL_error(L, "%s: corrupt snapshot (grid %d's size)", fn, (int)i);
        double origin[2];
        get_numbers(L, t, "origin", origin, 2, 8, fn);
        steerL_Grid *ug = steerL_new_grid(L, fn, (int)nx, (int)ny, cell, origin);
        int gi = lua_gettop(L);
        ug->g->serial = get_serial(L, t, fn);
        get_numbers(L, t, "costs", ug->g->cost, (size_t)ug->g->nx * (size_t)ug->g->ny, 4, fn);
        ug->g->min_cost = get_number(L, t, "min_cost", fn);
        ug->g->version = (uint32_t)get_number(L, t, "version", fn);
        take_twin(L, live_grids, ug->g->serial); // gi + 1: the twin, or nil
        const steerL_Grid *tg = lua_touserdata(L, gi + 1);
        if (tg && !same_cells(tg->g, ug->g)) {
            lua_pop(L, 1);
            lua_pushnil(L);
            tg = NULL;
        }
        if (tg) note_twin(L, taken, gi, gi + 1);
        lua_newtable(L); // the flow fields, in their order, and at 0 the grid
        lua_pushvalue(L, tg ? gi + 1 : gi);
        lua_rawseti(L, -2, 0);
        if (lua_getfield(L, t, "flows") == LUA_TTABLE) {
            for (lua_Integer k = 1; k <= (lua_Integer)lua_rawlen(L, -1); k++) {
                if (lua_rawgeti(L, -1, k) != LUA_TTABLE) luaL_error(L, "%s: corrupt snapshot (a flow field)", fn);
                const steerL_Flow *uf = load_flow(L, gi, lua_gettop(L), fn);
                int fi = lua_gettop(L);
                take_twin(L, live_flows, uf->f->serial);
                const steerL_Flow *tf = lua_touserdata(L, fi + 1);
                if (tf && (!tg || tf->f->grid != tg->g)) tf = NULL;
                if (tf && steerN_flow_reserve(tf->f, uf->f->ngoals)) luaL_error(L, "%s: out of memory", fn);
                if (tf) note_twin(L, taken, fi, fi + 1);      // the twin takes its place
                else if (tg) note_twin(L, taken, fi, gi + 1); // it moves onto the grid's twin
                lua_pushvalue(L, tf ? fi + 1 : fi);
                lua_rawseti(L, fi - 3, k);
                lua_settop(L, fi - 2);
            }
        }
        lua_pop(L, 1);
        lua_rawseti(L, out, i); // the flow list
        lua_settop(L, base);
    }
    lua_settop(L, out);
}

// A loaded field (at fi) joins the grid at gi, its twin grid: the field's
// grid is that one's, it is listed there (rebuilt after its edits, shown)
// and no longer on the loaded grid. In the same state, so in the same
// memory; nothing changes when the room for it cannot be had.
static void move_flow(lua_State *L, int fi, int gi)
{
    steerL_Flow *uf = lua_touserdata(L, fi);
    steerL_Grid *to = lua_touserdata(L, gi);
    if (!uf->f || !to->g || uf->f->alloc.fn != to->g->alloc.fn || uf->f->alloc.ud != to->g->alloc.ud) return;
    steerN_Shown *s = &to->shown;
    const steerN_Flow **flows = steerL_nav_room(&to->alloc, (void *)s->flows, s->nflows, &s->cap, sizeof *flows);
    if (!flows) return;
    s->flows = flows;
    flows[s->nflows++] = uf->f;
    steerN_Shown *from = uf->grid ? &uf->grid->shown : NULL;
    for (uint32_t i = 0; from && i < from->nflows; i++)
        if (from->flows[i] == uf->f) {
            memmove(&from->flows[i], &from->flows[i + 1], sizeof from->flows[0] * (from->nflows - i - 1));
            from->nflows--;
            break;
        }
    steerN_Grid *old = uf->f->grid;
    steerN_grid_retain(to->g);
    uf->f->grid = to->g;
    steerN_grid_release(old);
    uf->grid = to;
    lua_pushvalue(L, gi);
    lua_setiuservalue(L, fi, 1);
    lua_getiuservalue(L, gi, 1);
    lua_getfield(L, -1, "fields");
    lua_pushvalue(L, fi);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 2);
}

void steerL_grids_twin(lua_State *L, int twins, const char *fn)
{
    twins = lua_absindex(L, twins);
    lua_Integer n = lua_istable(L, twins) ? (lua_Integer)lua_rawlen(L, twins) : 0;
    lua_newtable(L); // the fields that are the snapshot's now
    int restored = lua_gettop(L);
    // the grids first, then the fields (a field moved onto a grid sees its costs)
    for (int pass = 0; pass < 3; pass++)
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, twins, i);
            lua_rawgeti(L, -1, 1);
            lua_rawgeti(L, -2, 2);
            int a = lua_gettop(L) - 1, b = a + 1;
            const steerL_Grid *lg = luaL_testudata(L, a, STEERL_GRID), *tg = luaL_testudata(L, b, STEERL_GRID);
            const steerL_Flow *lf = luaL_testudata(L, a, STEERL_FLOW), *tf = luaL_testudata(L, b, STEERL_FLOW);
            // a loaded copy a twin took the place of is no one's: it names no twin again
            if (pass == 0 && lg && tg && lg->g && tg->g && steerN_grid_copy(tg->g, lg->g)) lg->g->serial = 0;
            if (pass == 1 && lf && (tf || tg)) {
                if (tf && lf->f && tf->f && steerN_flow_copy(tf->f, lf->f)) lf->f->serial = 0;
                else if (tg) move_flow(L, a, b);
                lua_pushvalue(L, tf ? b : a);
                lua_pushboolean(L, 1);
                lua_rawset(L, restored);
            }
            // the fields made on it since the save: rebuilt for its costs
            if (pass == 2 && lg && tg && tg->g) steerL_flows_refresh(L, b, restored, fn);
            lua_pop(L, 3);
        }
    lua_pop(L, 1);
}

void steerL_grids_bind(lua_State *L, int wi, int desc, int lists, const char *fn)
{
    wi = lua_absindex(L, wi);
    desc = lua_absindex(L, desc);
    lists = lua_absindex(L, lists);
    int top = lua_gettop(L);
    lua_Integer n = lua_istable(L, desc) ? (lua_Integer)lua_rawlen(L, desc) : 0;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, desc, i);
        int t = lua_gettop(L);
        lua_rawgeti(L, lists, i);
        lua_rawgeti(L, -1, 0);
        int gi = lua_gettop(L);
        if (lua_getfield(L, t, "walls") == LUA_TTABLE) {
            lua_Integer nw = (lua_Integer)lua_rawlen(L, -1);
            steerL_Walls *walls = lua_newuserdatauv(L, sizeof *walls + sizeof walls->id[0] * (size_t)nw, 0);
            walls->n = 0;
            for (lua_Integer k = 1; k <= nw; k++) {
                lua_rawgeti(L, -2, k);
                walls->id[walls->n++] = steerL_shape_of_lid(steerL_checkworld(L, wi)->w, lua_tointeger(L, -1));
                lua_pop(L, 1);
            }
            lua_getiuservalue(L, gi, 1);
            lua_getfield(L, -1, "worlds");
            lua_pushvalue(L, wi);
            lua_pushvalue(L, -4);
            lua_rawset(L, -3);
            lua_pop(L, 3);
        }
        lua_pop(L, 1);
        lua_getfield(L, t, "attached");
        if (lua_toboolean(L, -1)) steerL_grid_attach(L, wi, gi, fn);
        lua_settop(L, top);
    }
}
// The grids of the world at wi (its user value's "grids") into the set at set.
static void add_grids(lua_State *L, int wi, int set)
{
    lua_getiuservalue(L, wi, 1);
    if (lua_getfield(L, -1, "grids") == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_pushboolean(L, 1);
            lua_rawset(L, set);
        }
    }
    lua_pop(L, 2);
}

void steerL_grids_swap_worlds(lua_State *L, int a, int b)
{
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    lua_newtable(L);
    int set = lua_gettop(L);
    add_grids(L, a, set);
    add_grids(L, b, set);
    lua_pushnil(L);
    while (lua_next(L, set)) {
        lua_pop(L, 1);
        lua_getiuservalue(L, -1, 1);
        lua_getfield(L, -1, "worlds");
        lua_pushvalue(L, a);
        lua_rawget(L, -2); // the walls in a
        lua_pushvalue(L, b);
        lua_rawget(L, -3); // the walls in b
        lua_pushvalue(L, a);
        lua_insert(L, -2);
        lua_rawset(L, -4); // worlds[a] = b's
        lua_pushvalue(L, b);
        lua_insert(L, -2);
        lua_rawset(L, -3); // worlds[b] = a's
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

// ---- a mod's twins, after the engine's restores -------------------------------
//
// The scenario's w:restore loads the flow fields the world's brains follow
// into the scenario's state, a mod's too (the core saved them as numbers;
// lsnapshot.c). A mod's own live field whose serial and cells are those of
// such a copy (and whose grid's serial is that of the copy's grid) is its
// twin: it takes the copy's contents (its grid the copy grid's) and the
// copy's place in the brains. Run in the mod's state (steerL_restored_twins).

void steerL_tree_resources(lua_State *L, const steer_Behavior *b, const void *kind, int set)
{
    for (const steerB_Field *f = b->kind->fields; f && f->name; f++) {
        void *obj = steerB_resource(b, f);
        if (!obj || (const void *)steerB_field_resource(f) != kind) continue;
        lua_pushlightuserdata(L, obj);
        lua_pushboolean(L, 1);
        lua_rawset(L, set);
    }
    for (uint16_t i = 0; i < b->nkids; i++) steerL_tree_resources(L, b->kids[i], kind, set);
}

// Whether the table at map has v under serial already (then set to false,
// so that two copies of one serial take no twin); else it is now v.
static void note_once(lua_State *L, int map, uint64_t serial, const void *v)
{
    lua_pushinteger(L, (lua_Integer)serial);
    int t = lua_rawget(L, map);
    bool same = t == LUA_TLIGHTUSERDATA && lua_touserdata(L, -1) == v;
    lua_pop(L, 1);
    lua_pushinteger(L, (lua_Integer)serial);
    if (t == LUA_TNIL || same) lua_pushlightuserdata(L, (void *)(uintptr_t)v);
    else lua_pushboolean(L, 0);
    lua_rawset(L, map);
}

void steerL_grids_twin_world(lua_State *L, steer_World *w, const char *fn)
{
    int top = lua_gettop(L);
    lua_newtable(L); // top + 1: the fields the brains follow
    for (int i = 1; i < steer_world_brains(w); i++)
        if (steer_world_brain(w, i)) steerL_tree_resources(L, steer_world_brain(w, i), &steerB_flow_resource, top + 1);
    lua_newtable(L); // top + 2: their serials -> field; top + 3: their grids' -> grid
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, top + 1)) {
        lua_pop(L, 1);
        const steerN_Flow *f = lua_touserdata(L, -1);
        if (!f->serial || !f->grid->serial) continue;
        note_once(L, top + 2, f->serial, f);
        note_once(L, top + 3, f->grid->serial, f->grid);
    }
    lua_newtable(L); // top + 4, top + 5: this state's live grids and fields by serial
    lua_newtable(L);
    live_serials(L, top + 4, top + 5);
    lua_newtable(L); // top + 6: the fields that are the snapshot's now
    lua_newtable(L); // top + 7: the grids whose costs were taken back
    lua_pushnil(L);
    while (lua_next(L, top + 2)) { // the order does not matter: each twin is another's
        if (!lua_islightuserdata(L, -1)) {
            lua_pop(L, 1);
            continue;
        }
        steerN_Flow *copy = lua_touserdata(L, -1);
        lua_pop(L, 1);
        lua_pushinteger(L, (lua_Integer)copy->grid->serial);
        bool one_grid = lua_rawget(L, top + 3) == LUA_TLIGHTUSERDATA;
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        steerL_Flow *tf = lua_rawget(L, top + 5) == LUA_TUSERDATA ? lua_touserdata(L, -1) : NULL;
        int ti = lua_gettop(L);
        if (!one_grid || !tf || !tf->f || tf->f == copy || tf->f->grid->serial != copy->grid->serial ||
            !same_cells(tf->f->grid, copy->grid) || steerN_flow_reserve(tf->f, copy->ngoals)) {
            lua_pop(L, 1);
            continue;
        }
        steerL_nav_charge(L, &tf->charged, steerN_flow_bytes(tf->f));
        steerN_grid_copy(tf->f->grid, copy->grid);
        steerN_flow_copy(tf->f, copy);
        if (steer_world_replace_resource(w, copy, tf->f) < 0) luaL_error(L, "%s: cannot replace a flow field", fn);
        lua_pushvalue(L, ti);
        lua_pushboolean(L, 1);
        lua_rawset(L, top + 6);
        lua_getiuservalue(L, ti, 1); // its grid
        lua_pushboolean(L, 1);
        lua_rawset(L, top + 7);
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, top + 7)) {
        lua_pop(L, 1);
        steerL_flows_refresh(L, lua_gettop(L), top + 6, fn);
    }
    lua_settop(L, top);
}
