// SPDX-License-Identifier: MIT
// lgrid.c — steer.grid{...}, its methods and w:add_grid(g) (listed in
// lworld.c's table of the world's methods). The userdata, what its user
// value holds and how its memory is counted: lnav.h. Its flow fields are
// lflow.c's, its plain-data form for snapshots lsnapgrid.c's.
//
// Only this file converts between the Lua view of a grid and the C one:
// Lua names a cell (i, j) as column i of line j of the map, first line on
// top, so map[j]:sub(i, i) is the cell's character; C counts rows upwards
// from the origin (src/nav/nav.h).
#include "lnav.h"
#include "../behaviors/exports.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// Lua's (i, j) to the C cell (x, y), and back.
static int cell_y(const steerN_Grid *g, lua_Integer j) { return g->ny - (int)j; }

// ---- construction ------------------------------------------------------------

// The cost of map character ch, or -1 when it is not one.
static double char_cost(char ch)
{
    if (ch == '.') return 1;
    if (ch == '#') return INFINITY;
    if (ch >= '1' && ch <= '9') return ch - '0';
    return -1;
}

// A cost given by the user: a number in [1e-6, 1e30], the range of every
// positive number the bindings take (a tinier one would be a float's 0, a
// free cell), or math.huge or false: blocked.
static float user_cost(lua_State *L, int idx, const char *fn, const char *what)
{
    if (lua_type(L, idx) == LUA_TBOOLEAN && !lua_toboolean(L, idx)) return INFINITY;
    double v = lua_tonumber(L, idx);
    if (lua_type(L, idx) == LUA_TNUMBER && v == HUGE_VAL) return INFINITY;
    if (lua_type(L, idx) != LUA_TNUMBER || !steerB_number_ok(v, STEERA_PARAM_MIN, STEERA_PARAM_MAX)) {
        char buf[64], expected[96];
        steerB_range_text(expected, sizeof expected, "a number (math.huge or false: blocked)", STEERA_PARAM_MIN,
                          STEERA_PARAM_MAX);
        luaL_error(L, "%s: %s expected %s, got %s", fn, what, expected, steerL_describe(L, idx, buf, sizeof buf));
    }
    return (float)v;
}

// The costs given by `costs` (a table of rows or a function(i, j, char))
// over the map's characters `cells` (row j of the map from (j - 1) * nx).
// A costs function may do anything, edit the map too: everything it could
// change was copied into C memory before the first call.
static void apply_costs(lua_State *L, steerN_Grid *g, const char *fn, const char *cells, int costs)
{
    bool call = lua_isfunction(L, costs);
    char what[96];
    size_t work = 0;
    for (int j = 1; j <= g->ny; j++) {
        const char *line = cells + (size_t)(j - 1) * (size_t)g->nx;
        steerL_poll(L, &work, (size_t)g->nx); // a costs function may be a C function: no instruction
        if (!call) {
            lua_rawgeti(L, costs, j);
            if (!lua_istable(L, -1) || lua_rawlen(L, -1) != (size_t)g->nx)
                luaL_error(L, "%s: field 'costs' row %d expected a list of %d numbers (the map's shape)", fn, j, g->nx);
        }
        for (int i = 1; i <= g->nx; i++) {
            if (call) {
                lua_pushvalue(L, costs);
                lua_pushinteger(L, i);
                lua_pushinteger(L, j);
                lua_pushlstring(L, line + i - 1, 1);
                lua_call(L, 3, 1);
                snprintf(what, sizeof what, "field 'costs' function at cell (%d, %d)", i, j);
            } else {
                lua_rawgeti(L, -1, i);
                snprintf(what, sizeof what, "field 'costs' at [%d][%d]", j, i);
            }
            float c = user_cost(L, -1, fn, what);
            lua_pop(L, 1);
            if (line[i - 1] != '#') g->cost[(size_t)cell_y(g, j) * (size_t)g->nx + (size_t)(i - 1)] = c;
            if (c < g->min_cost) g->min_cost = c;
        }
        if (!call) lua_pop(L, 1);
    }
}

steerL_Grid *steerL_new_grid(lua_State *L, const char *fn, int nx, int ny, double cell, const double origin[2])
{
    steerL_Grid *ug = lua_newuserdatauv(L, sizeof *ug, 1);
    memset(ug, 0, sizeof *ug);
    luaL_setmetatable(L, STEERL_GRID);
    int self = lua_gettop(L);
    lua_createtable(L, 0, 2);
    for (int k = 0; k < 2; k++) {
        steerL_new_weak(L, "k");
        lua_setfield(L, -2, k ? "worlds" : "fields");
    }
    lua_setiuservalue(L, self, 1);
    steerL_nav_charge(L, &ug->charged, sizeof(steerN_Grid) + STEERN_GRID_CELL_BYTES * (size_t)nx * (size_t)ny);
    ug->alloc = steerL_allocator(L);
    if (!(ug->g = steerN_grid_new(nx, ny, cell, origin, &ug->alloc))) luaL_error(L, "%s: out of memory", fn);
    ug->g->serial = steerL_nav_serial(L);
    steerL_nav_charge(L, &ug->charged, steerN_grid_bytes(ug->g));
    ug->shown.grid = ug->g;
    lua_getfield(L, LUA_REGISTRYINDEX, STEERL_REG_GRIDS);
    lua_pushlightuserdata(L, ug->g);
    lua_pushvalue(L, self);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    return ug;
}

static int grid_new(lua_State *L)
{
    static const char *const fields[] = { "cell", "origin", "map", "costs", NULL };
    const char *fn = "steer.grid";
    steerL_check_desc(L, 1, fn, fields);
    lua_settop(L, 1);
    double cell = steerL_optnumber(L, 1, fn, "cell", 1, 1e-6, 1e30, "a number of metres");
    double origin[3] = { 0, 0, 0 };
    if (lua_getfield(L, 1, "origin") != LUA_TNIL) steerL_nav_vec(L, -1, fn, "origin", origin);
    lua_pop(L, 1);
    const char *map_expect =
        "a non-empty list of equally long, non-empty strings ('.' open, '#' blocked, '1'-'9' costs)";
    int map = 2;
    lua_getfield(L, 1, "map");
    if (!lua_istable(L, map)) steerL_field_error(L, fn, "map", map_expect, map);
    lua_Integer ny = (lua_Integer)lua_rawlen(L, map); // raw: no __len runs while the map is read
    if (ny < 1) return luaL_error(L, "%s: field 'map' expected %s, got an empty list", fn, map_expect);
    size_t nx = lua_rawgeti(L, map, 1) == LUA_TSTRING ? lua_rawlen(L, -1) : 0;
    lua_pop(L, 1);
    // before reading the lines: the same long string may be every line
    if (nx > 65536 || ny > 65536 || (double)nx * (double)ny > (double)(1 << 24))
        return luaL_error(L, "%s: field 'map' is too large (%d x %d cells; at most 2^24)", fn, (int)nx, (int)ny);
    // the lines, checked and copied: nothing below reads the map table again
    char *cells = lua_newuserdatauv(L, nx * (size_t)ny + 1, 0); // 3, freed by the GC
    size_t work = 0;
    for (lua_Integer j = 1; j <= ny; j++) {
        steerL_poll(L, &work, nx);
        lua_rawgeti(L, map, j);
        size_t len;
        const char *line = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        if (!line || len == 0) {
            char buf[64];
            return luaL_error(L, "%s: field 'map' line %d expected a non-empty string, got %s", fn, (int)j,
                              steerL_describe(L, -1, buf, sizeof buf));
        }
        if (len != nx)
            return luaL_error(L, "%s: field 'map' line %d has %d characters, expected %d like line 1 (a ragged map)",
                              fn, (int)j, (int)len, (int)nx);
        for (size_t i = 0; i < len; i++)
            if (char_cost(line[i]) < 0)
                return luaL_error(L,
                                  "%s: field 'map' line %d column %d has unknown character '%c' (expected '.' "
                                  "open, '#' blocked or a digit 1-9: a cost)",
                                  fn, (int)j, (int)i + 1, line[i]);
        memcpy(cells + (size_t)(j - 1) * nx, line, nx);
        lua_pop(L, 1);
    }
    int costs = 4;
    lua_getfield(L, 1, "costs");
    if (!lua_isnil(L, costs) && !lua_istable(L, costs) && !lua_isfunction(L, costs))
        steerL_field_error(L, fn, "costs", "a list of rows of numbers (the map's shape) or a function(i, j, char)",
                           costs);

    steerL_Grid *ug = steerL_new_grid(L, fn, (int)nx, (int)ny, cell, origin);
    int self = lua_gettop(L);
    steerN_Grid *g = ug->g;
    for (int j = 1; j <= (int)ny; j++)
        for (int i = 0; i < (int)nx; i++)
            g->cost[(size_t)cell_y(g, j) * nx + (size_t)i] = (float)char_cost(cells[(size_t)(j - 1) * nx + (size_t)i]);
    for (size_t c = 0; c < nx * (size_t)ny; c++)
        if (g->cost[c] < g->min_cost) g->min_cost = g->cost[c];
    if (!lua_isnil(L, costs)) apply_costs(L, g, fn, cells, costs);
    lua_settop(L, self);
    return 1;
}

static int grid_gc(lua_State *L)
{
    steerL_Grid *ug = luaL_checkudata(L, 1, STEERL_GRID);
    steerN_grid_release(ug->g); // its fields may hold it on
    ug->g = NULL;
    steerL_nav_charge(L, &ug->charged, 0);
    steerN_realloc(&ug->alloc, ug->shown.flows, sizeof *ug->shown.flows * ug->shown.cap, 0);
    memset(&ug->shown, 0, sizeof ug->shown); // a field collected later finds nothing to leave
    return 0;
}

// ---- edits: then every field is rebuilt and every world's walls replaced ------

typedef struct WallCtx {
    steer_World *w;
    steerL_Walls *out;
    int st;
} WallCtx;

static int count_wall(void *ud, const double a[2], const double b[2])
{
    (void)a;
    (void)b;
    ((WallCtx *)ud)->out->n++;
    return 0;
}

static int add_wall(void *ud, const double a[2], const double b[2])
{
    WallCtx *c = ud;
    double a3[3] = { a[0], a[1], 0 }, b3[3] = { b[0], b[1], 0 };
    steer_Shape id = STEER_NO_SHAPE;
    c->st = steer_add_wall(c->w, a3, b3, &id);
    if (c->st) return 1;
    c->out->id[c->out->n++] = id;
    return 0;
}

// Put the walls of the grid at `gi` into the world at `wi`, replacing the
// ones it added there before.
static void sync_walls(lua_State *L, int gi, int wi, const char *fn)
{
    steerN_Grid *g = steerL_checkgrid(L, gi)->g;
    steerL_World *lw = steerL_checkworld(L, wi);
    steerL_check_writable(L, lw, fn);
    lua_getiuservalue(L, gi, 1);
    lua_getfield(L, -1, "worlds");
    lua_pushvalue(L, wi);
    if (lua_rawget(L, -2) == LUA_TUSERDATA) {
        steerL_Walls *old = lua_touserdata(L, -1);
        for (uint32_t i = 0; i < old->n; i++) steer_remove_shape(lw->w, old->id[i]);
        old->n = 0;
    }
    lua_pop(L, 1);
    steerL_Walls counter = { 0 };
    WallCtx c = { lw->w, &counter, 0 };
    steerN_walls(g, count_wall, &c);
    steerL_Walls *walls = lua_newuserdatauv(L, sizeof *walls + sizeof walls->id[0] * counter.n, 0);
    walls->n = 0;
    c.out = walls;
    lua_pushvalue(L, wi);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4); // worlds[world] = walls, before any error so removal stays possible
    if (steerN_walls(g, add_wall, &c))
        luaL_error(L, "%s: %s", fn,
                   c.st == STEER_ENOMEM  ? "out of memory"
                   : c.st == STEER_EBUSY ? "cannot add walls now (inside a step)"
                                         : "the grid's walls lie beyond the coordinates a world can store");
    lua_pop(L, 3);
}

static void after_edit(lua_State *L, int gi, const char *fn)
{
    gi = lua_absindex(L, gi);
    steerL_Grid *ug = steerL_checkgrid(L, gi);
    ug->edited = true;
    if (ug->batch) return;
    ug->edited = false;
    steerL_flows_refresh(L, gi, 0, fn);
    lua_getiuservalue(L, gi, 1);
    lua_getfield(L, -1, "worlds");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        const steerL_World *lw = luaL_testudata(L, -1, STEERL_WORLD);
        if (lw && lw->w) sync_walls(L, gi, lua_gettop(L), fn); // the same for a collected world
    }
    lua_pop(L, 2);
}

// Lua cell (i, j) at idx, idx + 1: checked.
static void check_cell(lua_State *L, const steerN_Grid *g, int idx, const char *fn, int *x, int *y)
{
    int oki, okj;
    lua_Integer i = lua_tointegerx(L, idx, &oki), j = lua_tointegerx(L, idx + 1, &okj);
    if (!oki || !okj || i < 1 || j < 1 || i > g->nx || j > g->ny)
        luaL_error(L, "%s: expected a cell (i, j) with integers 1 <= i <= %d and 1 <= j <= %d", fn, g->nx, g->ny);
    *x = (int)i - 1;
    *y = cell_y(g, j);
}

static int grid_set(lua_State *L)
{
    const char *fn = "steer.grid:set";
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    int x, y;
    check_cell(L, g, 2, fn, &x, &y);
    float c = user_cost(L, 4, fn, "argument 'cost'");
    steerN_set_cost(g, x, y, c);
    after_edit(L, 1, fn);
    return 0;
}

// g:block(pos [, blocked]) or g:block(x, y [, blocked]).
static int grid_block(lua_State *L)
{
    const char *fn = "steer.grid:block";
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    double p[3];
    int flag = 3;
    if (lua_type(L, 2) == LUA_TNUMBER) {
        p[0] = lua_tonumber(L, 2);
        p[1] = lua_tonumber(L, 3);
        if (lua_type(L, 3) != LUA_TNUMBER || !isfinite(p[0]) || !isfinite(p[1]))
            steerL_field_error(L, fn, NULL, "a position: g:block(pos [, blocked]) or g:block(x, y [, blocked])", 3);
        flag = 4;
    } else {
        steerL_nav_vec(L, 2, fn, "position", p);
    }
    steerL_nav_inside(L, g, fn, "position", p);
    bool block = lua_isnoneornil(L, flag) || lua_toboolean(L, flag);
    int x, y;
    steerN_cell_of(g, p, &x, &y);
    steerN_set_cost(g, x, y, block ? INFINITY : 1.0f);
    after_edit(L, 1, fn);
    return 0;
}

// g:batch(fn): fn's edits rebuild the fields and walls once, at its end
// (also when fn raises, which is then raised again).
static int grid_batch(lua_State *L)
{
    steerL_Grid *ug = steerL_checkgrid(L, 1);
    if (!lua_isfunction(L, 2)) steerL_field_error(L, "steer.grid:batch", NULL, "a function", 2);
    lua_settop(L, 2);
    ug->batch++;
    int st = lua_pcall(L, 0, 0, 0);
    ug->batch--;
    if (!ug->batch && ug->edited) after_edit(L, 1, "steer.grid:batch");
    if (st != LUA_OK) return lua_error(L);
    return 0;
}

// ---- queries -------------------------------------------------------------------

static int grid_blocked(lua_State *L)
{
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    double p[3];
    steerL_nav_vec(L, 2, "steer.grid:blocked", "position", p);
    int x, y;
    lua_pushboolean(L, !steerN_cell_of(g, p, &x, &y) || !steerN_open(g, x, y));
    return 1;
}

static int grid_cost(lua_State *L)
{
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    int x, y;
    check_cell(L, g, 2, "steer.grid:cost", &x, &y);
    double c = g->cost[(size_t)y * (size_t)g->nx + (size_t)x];
    lua_pushnumber(L, c);
    return 1;
}

static int grid_cell(lua_State *L)
{
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    double p[3];
    steerL_nav_vec(L, 2, "steer.grid:cell_at", "position", p);
    int x, y;
    if (!steerN_cell_of(g, p, &x, &y)) return 0;
    lua_pushinteger(L, x + 1);
    lua_pushinteger(L, g->ny - y);
    return 2;
}

static int grid_center(lua_State *L)
{
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    int x, y;
    check_cell(L, g, 2, "steer.grid:center", &x, &y);
    double c[2];
    steerN_center(g, x, y, c);
    steerL_pushvec(L, c[0], c[1], 0);
    return 1;
}

static int grid_line_of_sight(lua_State *L)
{
    const char *fn = "steer.grid:line_of_sight";
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    double a[3], b[3];
    steerL_nav_vec(L, 2, fn, "from", a);
    steerL_nav_vec(L, 3, fn, "to", b);
    lua_pushboolean(L, steerN_line_of_sight(g, a, b, INFINITY));
    return 1;
}

static int grid_path(lua_State *L)
{
    const char *fn = "steer.grid:path";
    steerL_Grid *ug = steerL_checkgrid(L, 1);
    steerN_Grid *g = ug->g;
    double a[3], b[3], cost;
    steerL_nav_vec(L, 2, fn, "from", a);
    steerL_nav_vec(L, 3, fn, "to", b);
    steerL_nav_inside(L, g, fn, "from", a);
    steerL_nav_inside(L, g, fn, "to", b);
    int r = steerN_path(g, a, b, &cost);
    if (r < 0) return luaL_error(L, "%s: out of memory", fn);
    steerL_nav_charge(L, &ug->charged, steerN_grid_bytes(g)); // the first query's scratch, a longer path
    if (r == 0) return 0;
    lua_createtable(L, (int)g->npath, 0);
    for (uint32_t i = 0; i < g->npath; i++) {
        steerL_pushvec(L, g->path[2 * i], g->path[2 * i + 1], 0);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_pushnumber(L, cost);
    return 2;
}

static int push_wall(void *ud, const double a[2], const double b[2])
{
    lua_State *L = ud;
    lua_createtable(L, 2, 0);
    steerL_pushvec(L, a[0], a[1], 0);
    lua_rawseti(L, -2, 1);
    steerL_pushvec(L, b[0], b[1], 0);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (lua_Integer)luaL_len(L, -2) + 1);
    return 0;
}

static int grid_walls(lua_State *L)
{
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    lua_newtable(L);
    steerN_walls(g, push_wall, L);
    return 1;
}

static int grid_index(lua_State *L)
{
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    const char *k = lua_tostring(L, 2);
    if (!k) return 0;
    if (strcmp(k, "width") == 0) lua_pushinteger(L, g->nx);
    else if (strcmp(k, "height") == 0) lua_pushinteger(L, g->ny);
    else if (strcmp(k, "cell") == 0) lua_pushnumber(L, g->cell);
    else if (strcmp(k, "origin") == 0) steerL_pushvec(L, g->origin[0], g->origin[1], 0);
    else {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int grid_tostring(lua_State *L)
{
    steerN_Grid *g = steerL_checkgrid(L, 1)->g;
    lua_pushfstring(L, "steer.grid(%d x %d, cell=%f)", g->nx, g->ny, g->cell);
    return 1;
}

// ---- patrol routes through a grid's walls -------------------------------------
// A patrol's legs are straight lines: one through a blocked cell of a grid
// the world holds (or across its edge: outside counts as blocked, and
// w:add_grid walls the edge too) walks its agents into a wall. Such a
// route is warned about once per brain and world, through the world's log
// (the host's; stderr without one), at the script's line: checked when the
// brain is given to an agent and when a grid is added (not on grid edits).

// Whether the leg a-b runs into grid g's walls: it crosses the grid's edge,
// or inside the grid it touches a blocked cell.
static bool leg_blocked(const steerN_Grid *g, const double a[2], const double b[2])
{
    double lo[2] = { g->origin[0], g->origin[1] }, hi[2] = { lo[0] + g->nx * g->cell, lo[1] + g->ny * g->cell };
    bool ina = a[0] >= lo[0] && a[0] < hi[0] && a[1] >= lo[1] && a[1] < hi[1];
    bool inb = b[0] >= lo[0] && b[0] < hi[0] && b[1] >= lo[1] && b[1] < hi[1];
    if (ina && inb) return !steerN_line_of_sight(g, a, b, INFINITY);
    if (ina != inb) return true;
    // both outside: blocked when the leg passes through the grid (Liang-Barsky)
    double t0 = 0, t1 = 1;
    for (int i = 0; i < 2; i++) {
        double d = b[i] - a[i];
        if (d == 0) {
            if (a[i] < lo[i] || a[i] >= hi[i]) return false;
            continue;
        }
        double ta = (lo[i] - a[i]) / d, tb = (hi[i] - a[i]) / d;
        if (ta > tb) {
            double t = ta;
            ta = tb;
            tb = t;
        }
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
    }
    return t0 < t1;
}

typedef struct BlockedLeg {
    const steer_Behavior *patrol;
    uint32_t from, to; // point indices, from 0
    double a[2], b[2]; // the points
} BlockedLeg;

// The first patrol leg of tree b (depth first) that runs into a wall of a
// grid of lw; false when there is none.
static bool find_blocked_leg(const steer_Behavior *b, const steerL_World *lw, BlockedLeg *out)
{
    if (strcmp(b->kind->name, "patrol") == 0) {
        const steerB_Field *pf = steerB_find_field(b->kind, "points"), *lf = steerB_find_field(b->kind, "loop"),
                           *mf = steerB_find_field(b->kind, "mode");
        const steerB_Points *pts = (const steerB_Points *)(const void *)(b->params + pf->offset);
        // a loop round also goes from the last point back to the first
        bool round = b->params[lf->offset] && b->params[mf->offset] == 0;
        uint32_t legs = pts->n < 2 ? 0 : round ? pts->n : pts->n - 1;
        for (uint32_t k = 0; k < legs; k++) {
            uint32_t j = (k + 1) % pts->n;
            double p[2] = { pts->p[3 * k], pts->p[3 * k + 1] }, q[2] = { pts->p[3 * j], pts->p[3 * j + 1] };
            for (uint32_t i = 0; i < lw->nav.n; i++) {
                if (!leg_blocked(lw->nav.grids[i]->grid, p, q)) continue;
                *out = (BlockedLeg){ b, k, j, { p[0], p[1] }, { q[0], q[1] } };
                return true;
            }
        }
    }
    for (uint16_t k = 0; k < b->nkids; k++)
        if (find_blocked_leg(b->kids[k], lw, out)) return true;
    return false;
}

// The brain at bi (a behaviour value) of world wi: warn once when it has a
// patrol whose route runs into the walls of the world's grids. A brain is
// checked once (its mark: 1 clear, 2 warned), again for a new grid (recheck).
static void check_routes(lua_State *L, int wi, int bi, bool recheck)
{
    steerL_World *lw = steerL_checkworld(L, wi);
    steer_Behavior *b = steerL_tobehavior(L, bi);
    if (!b || !lw->nav.n) return;
    wi = lua_absindex(L, wi);
    bi = lua_absindex(L, bi);
    lua_getiuservalue(L, wi, 1);
    steerL_weak_field(L, -1, "routes", "k"); // brain -> its mark
    lua_pushvalue(L, bi);
    lua_rawget(L, -2);
    lua_Integer mark = lua_tointeger(L, -1);
    lua_pop(L, 1);
    BlockedLeg leg;
    if (mark == 2 || (mark == 1 && !recheck)) {
        lua_pop(L, 2);
        return;
    }
    bool blocked = find_blocked_leg(b, lw, &leg);
    lua_pushvalue(L, bi);
    lua_pushinteger(L, blocked ? 2 : 1);
    lua_rawset(L, -3);
    lua_pop(L, 2);
    if (!blocked) return;
    luaL_where(L, 1);
    char msg[512];
    snprintf(msg, sizeof msg,
             "%swarning: steer.patrol '%s': the leg from point %u (%g, %g) to point %u (%g, %g) runs into the "
             "walls of a grid this world holds (w:add_grid): its agents will walk into them. Route it along "
             "g:path(from, to)'s points, or check it with g:line_of_sight(from, to)",
             lua_tostring(L, -1), steer_behavior_name(leg.patrol), leg.from + 1, leg.a[0], leg.a[1], leg.to + 1,
             leg.b[0], leg.b[1]);
    lua_pop(L, 1);
    steerL_warn(L, msg);
}

void steerL_check_routes(lua_State *L, int wi, int bi) { check_routes(L, wi, bi, false); }

// Every brain the world at wi runs, checked (a grid was just added).
static void check_all_routes(lua_State *L, int wi)
{
    steerL_uv_field(L, wi, "brains");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        check_routes(L, wi, -1, true);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

// ---- w:add_grid ----------------------------------------------------------------

// The world at wi lists the grid at gi (once) and holds it: the viewer draws it.
void steerL_grid_attach(lua_State *L, int wi, int gi, const char *fn)
{
    steerL_World *lw = steerL_checkworld(L, wi);
    steerL_Grid *ug = steerL_checkgrid(L, gi);
    for (uint32_t i = 0; i < lw->nav.n; i++)
        if (lw->nav.grids[i] == &ug->shown) return;
    lua_getiuservalue(L, wi, 1);
    if (lua_getfield(L, -1, "grids") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, "grids");
    }
    lua_pushvalue(L, gi);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 2);
    const steerN_Shown **grids =
        steerL_nav_room(&lw->alloc, (void *)lw->nav.grids, lw->nav.n, &lw->nav.cap, sizeof *grids);
    if (!grids) luaL_error(L, "%s: out of memory", fn);
    lw->nav.grids = grids;
    grids[lw->nav.n++] = &ug->shown;
}

int steerL_world_add_grid(lua_State *L)
{
    const char *fn = "steer.world:add_grid";
    steerL_check_unsandboxed(L, "w:add_grid", "the static geometry belongs to the game");
    steerL_World *lw = steerL_checkworld(L, 1);
    steerL_checkgrid(L, 2);
    if (lw->dim != 2) return luaL_error(L, "%s: grids are for 2D worlds", fn);
    sync_walls(L, 2, 1, fn);
    steerL_grid_attach(L, 1, 2, fn);
    check_all_routes(L, 1);
    return 0;
}

bool steerL_isgrid(lua_State *L, int idx) { return luaL_testudata(L, idx, STEERL_GRID) != NULL; }

void steerL_open_grid(lua_State *L)
{
    static const luaL_Reg grid_meta[] = { { "__gc", grid_gc }, { "__tostring", grid_tostring }, { NULL, NULL } };
    static const luaL_Reg grid_methods[] = {
        { "blocked", grid_blocked },
        { "cost", grid_cost },
        { "set", grid_set },
        { "block", grid_block },
        { "cell_at", grid_cell },
        { "center", grid_center },
        { "line_of_sight", grid_line_of_sight },
        { "path", grid_path },
        { "walls", grid_walls },
        { "batch", grid_batch },
        { "flow_field", steerL_grid_flow_field },
        { NULL, NULL },
    };
    steerL_newclass(L, STEERL_GRID, grid_meta, grid_methods, grid_index);
    steerL_weak_field(L, LUA_REGISTRYINDEX, STEERL_REG_GRIDS, "v");
    lua_pop(L, 1);
    lua_pushcfunction(L, grid_new);
    lua_setfield(L, -2, "grid");
}
