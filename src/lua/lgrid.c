// SPDX-License-Identifier: MIT
// lgrid.c — steer.grid{...}, its flow fields, steer.follow_flow{...},
// steer.decompose_flow{...} and w:add_grid(g).
//
// Only this file converts between the Lua view of a grid and the C one:
// Lua names a cell (i, j) as column i of line j of the map, first line on
// top, so map[j]:sub(i, i) is the cell's character; C counts rows upwards
// from the origin (src/nav/nav.h).
//
// A grid userdata's user value is a table: `fields` (weak keys: the flow
// fields built on it, rebuilt after every edit) and `worlds` (weak keys:
// world -> the userdata listing the wall shapes the grid added to it,
// replaced after every edit). A flow field's user value is its grid, and a
// follow_flow behaviour keeps its field in its own user value table, so a
// brain in use keeps its field and grid alive.
//
// The C grid and field are reference counted (src/nav/nav.h): a userdata
// holds one reference, a behaviour bound to the field another, a field one
// on its grid. When the Lua state goes (a mod disabled or unloaded: its
// state is closed under its agents) the userdata release theirs and the
// agents steer on. The C memory of each counts against a mod's memory cap
// (steerL_charge): charged when made and as it grows, before a grid's or a
// field's cells are allocated, and given back by the userdata's __gc (the
// field a brain still holds then belongs to no script).
//
// For the viewer (steer_lua_nav): each grid lists its live flow fields
// (LGrid.shown, a field leaves it when collected), and each world lists
// the grids it was given (steerL_World.nav), holding them in its user
// value's "grids" table so that no listed grid is collected before it.
#include "lsnapshot.h"
#include "lutil.h"
#include "steer_lua.h"
#include "../nav/layers.h"
#include "../behaviors/behavior.h"
#include "../core/bytes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEERL_GRID "steer.grid"
#define STEERL_FLOW "steer.flow_field"

typedef struct LGrid {
    steerN_Grid *g; // referenced; NULL once collected
    int batch;      // inside g:batch(fn): edits wait for its end
    bool edited;    // an edit is waiting
    steerN_Shown shown;
    size_t charged; // bytes charged to the state's owner
} LGrid;
typedef struct LFlow {
    steerN_Flow *f; // referenced; NULL once collected
    LGrid *grid;
    size_t charged;
} LFlow;
typedef struct LWalls {
    uint32_t n;
    steer_Shape id[];
} LWalls;

extern const steerB_Kind steerB_follow_flow, steerB_decompose_flow;

// A live grid or field userdata (one a finaliser brought back is collected).
static LGrid *check_grid(lua_State *L, int idx)
{
    LGrid *ug = luaL_checkudata(L, idx, STEERL_GRID);
    if (!ug->g) luaL_argerror(L, idx, "a collected grid");
    return ug;
}
static LFlow *check_flow(lua_State *L, int idx)
{
    LFlow *uf = luaL_checkudata(L, idx, STEERL_FLOW);
    if (!uf->f) luaL_argerror(L, idx, "a collected flow field");
    return uf;
}

// Charge the state's owner what an object's C memory now adds to what it
// was charged (*charged), which then counts it. May raise (a mod past its cap).
static void charge(lua_State *L, size_t *charged, size_t now)
{
    lua_Integer more = (lua_Integer)now - (lua_Integer)*charged;
    *charged = now;
    steerL_charge(L, more);
}

// The registry's map of each C grid to its userdata (weak values), for a
// snapshot that reaches a grid through a bound field.
#define REG_GRIDS "steer.grid_userdata"

// Lua's (i, j) to the C cell (x, y), and back.
static int cell_y(const steerN_Grid *g, lua_Integer j) { return g->ny - (int)j; }

static void check_vec(lua_State *L, int idx, const char *fn, const char *arg, double out[3])
{
    if (!steerL_tovec(L, idx, out)) steerL_field_error(L, fn, arg, "a vector (steer.vec or {x, y})", idx);
}

// A point inside the grid, or raise naming the argument.
static void check_inside(lua_State *L, const steerN_Grid *g, const char *fn, const char *arg, const double p[3])
{
    int x, y;
    if (!steerN_cell_of(g, p, &x, &y))
        luaL_error(L, "%s: %s (%f, %f) is outside the grid ([%f, %f] x [%f, %f])", fn, arg, p[0], p[1], g->origin[0],
                   g->origin[0] + g->nx * g->cell, g->origin[1], g->origin[1] + g->ny * g->cell);
}

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
    if (lua_type(L, idx) != LUA_TNUMBER || !steerB_number_ok(v, STEERW_PARAM_MIN, STEERW_PARAM_MAX)) {
        char buf[64], expected[96];
        steerB_range_text(expected, sizeof expected, "a number (math.huge or false: blocked)", STEERW_PARAM_MIN,
                          STEERW_PARAM_MAX);
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

// A new grid userdata of nx x ny cells (their costs still to set), on top.
static LGrid *new_grid(lua_State *L, const char *fn, int nx, int ny, double cell, const double origin[2])
{
    LGrid *ug = lua_newuserdatauv(L, sizeof *ug, 1);
    memset(ug, 0, sizeof *ug);
    luaL_setmetatable(L, STEERL_GRID);
    int self = lua_gettop(L);
    lua_createtable(L, 0, 2);
    for (int k = 0; k < 2; k++) {
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_setfield(L, -2, k ? "worlds" : "fields");
    }
    lua_setiuservalue(L, self, 1);
    charge(L, &ug->charged, sizeof(steerN_Grid) + STEERN_GRID_CELL_BYTES * (size_t)nx * (size_t)ny);
    if (!(ug->g = steerN_grid_new(nx, ny, cell, origin))) luaL_error(L, "%s: out of memory", fn);
    charge(L, &ug->charged, steerN_grid_bytes(ug->g));
    ug->shown.grid = ug->g;
    lua_getfield(L, LUA_REGISTRYINDEX, REG_GRIDS);
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
    if (!lua_istable(L, 1)) {
        char buf[64];
        return luaL_error(L, "%s: expected a table of named arguments, got %s", fn,
                          steerL_describe(L, 1, buf, sizeof buf));
    }
    lua_settop(L, 1);
    steerL_check_fields(L, 1, fn, fields, 0);
    double cell = steerL_optnumber(L, 1, fn, "cell", 1, 1e-6, 1e30, "a number of metres");
    double origin[3] = { 0, 0, 0 };
    if (lua_getfield(L, 1, "origin") != LUA_TNIL) check_vec(L, -1, fn, "origin", origin);
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

    LGrid *ug = new_grid(L, fn, (int)nx, (int)ny, cell, origin);
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
    LGrid *ug = luaL_checkudata(L, 1, STEERL_GRID);
    steerN_grid_release(ug->g); // its fields may hold it on
    ug->g = NULL;
    charge(L, &ug->charged, 0);
    free(ug->shown.flows);
    memset(&ug->shown, 0, sizeof ug->shown); // a field collected later finds nothing to leave
    return 0;
}

// A list of n items of `size` bytes with room for one more: the same or a
// grown array (*cap updated), NULL when out of memory.
static void *room(void *items, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap) return items;
    uint32_t c = *cap ? 2 * *cap : 4;
    void *grown = realloc(items, size * c);
    if (grown) *cap = c;
    return grown;
}

// ---- edits: then every field is rebuilt and every world's walls replaced ------

typedef struct WallCtx {
    steer_World *w;
    LWalls *out;
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
    steerN_Grid *g = check_grid(L, gi)->g;
    steerL_World *lw = steerL_checkworld(L, wi);
    steerL_check_writable(L, lw, fn);
    lua_getiuservalue(L, gi, 1);
    lua_getfield(L, -1, "worlds");
    lua_pushvalue(L, wi);
    if (lua_rawget(L, -2) == LUA_TUSERDATA) {
        LWalls *old = lua_touserdata(L, -1);
        for (uint32_t i = 0; i < old->n; i++) steer_remove_shape(lw->w, old->id[i]);
        old->n = 0;
    }
    lua_pop(L, 1);
    LWalls counter = { 0 };
    WallCtx c = { lw->w, &counter, 0 };
    steerN_walls(g, count_wall, &c);
    LWalls *walls = lua_newuserdatauv(L, sizeof *walls + sizeof walls->id[0] * counter.n, 0);
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
    LGrid *ug = check_grid(L, gi);
    ug->edited = true;
    if (ug->batch) return;
    ug->edited = false;
    lua_getiuservalue(L, gi, 1);
    int uv = lua_gettop(L);
    lua_getfield(L, uv, "fields");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        // a collected field stays a key of the weak table until the next
        // cycle after its __gc ran (Lua 5.4, §2.5.4): released, it has none
        LFlow *uf = luaL_checkudata(L, -1, STEERL_FLOW);
        if (!uf->f) continue;
        if (steerN_flow_refresh(uf->f)) luaL_error(L, "%s: out of memory rebuilding a flow field", fn);
        charge(L, &uf->charged, steerN_flow_bytes(uf->f));
    }
    lua_pop(L, 1);
    lua_getfield(L, uv, "worlds");
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
    steerN_Grid *g = check_grid(L, 1)->g;
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
    steerN_Grid *g = check_grid(L, 1)->g;
    double p[3];
    int flag = 3;
    if (lua_type(L, 2) == LUA_TNUMBER) {
        p[0] = lua_tonumber(L, 2);
        p[1] = lua_tonumber(L, 3);
        if (lua_type(L, 3) != LUA_TNUMBER || !isfinite(p[0]) || !isfinite(p[1]))
            steerL_field_error(L, fn, NULL, "a position: g:block(pos [, blocked]) or g:block(x, y [, blocked])", 3);
        flag = 4;
    } else {
        check_vec(L, 2, fn, "position", p);
    }
    check_inside(L, g, fn, "position", p);
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
    LGrid *ug = check_grid(L, 1);
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
    steerN_Grid *g = check_grid(L, 1)->g;
    double p[3];
    check_vec(L, 2, "steer.grid:blocked", "position", p);
    int x, y;
    lua_pushboolean(L, !steerN_cell_of(g, p, &x, &y) || !steerN_open(g, x, y));
    return 1;
}

static int grid_cost(lua_State *L)
{
    steerN_Grid *g = check_grid(L, 1)->g;
    int x, y;
    check_cell(L, g, 2, "steer.grid:cost", &x, &y);
    double c = g->cost[(size_t)y * (size_t)g->nx + (size_t)x];
    lua_pushnumber(L, c);
    return 1;
}

static int grid_cell(lua_State *L)
{
    steerN_Grid *g = check_grid(L, 1)->g;
    double p[3];
    check_vec(L, 2, "steer.grid:cell_at", "position", p);
    int x, y;
    if (!steerN_cell_of(g, p, &x, &y)) return 0;
    lua_pushinteger(L, x + 1);
    lua_pushinteger(L, g->ny - y);
    return 2;
}

static int grid_center(lua_State *L)
{
    steerN_Grid *g = check_grid(L, 1)->g;
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
    steerN_Grid *g = check_grid(L, 1)->g;
    double a[3], b[3];
    check_vec(L, 2, fn, "from", a);
    check_vec(L, 3, fn, "to", b);
    lua_pushboolean(L, steerN_line_of_sight(g, a, b, INFINITY));
    return 1;
}

static int grid_path(lua_State *L)
{
    const char *fn = "steer.grid:path";
    LGrid *ug = check_grid(L, 1);
    steerN_Grid *g = ug->g;
    double a[3], b[3], cost;
    check_vec(L, 2, fn, "from", a);
    check_vec(L, 3, fn, "to", b);
    check_inside(L, g, fn, "from", a);
    check_inside(L, g, fn, "to", b);
    int r = steerN_path(g, a, b, &cost);
    if (r < 0) return luaL_error(L, "%s: out of memory", fn);
    charge(L, &ug->charged, steerN_grid_bytes(g)); // the first query's scratch, a longer path
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
    steerN_Grid *g = check_grid(L, 1)->g;
    lua_newtable(L);
    steerN_walls(g, push_wall, L);
    return 1;
}

// ---- flow fields ---------------------------------------------------------------

// The goals at idx (a vector, or a list of them when `list`) into out.
static uint32_t read_goals(lua_State *L, const steerN_Grid *g, int idx, bool list, const char *fn, const char *arg,
                           double **out)
{
    lua_Integer n = list ? (lua_Integer)lua_rawlen(L, idx) : 1;
    if (list && (n < 1 || n > 1000000)) steerL_field_error(L, fn, arg, "a non-empty list of vectors", idx);
    double *goals = lua_newuserdatauv(L, sizeof *goals * 2 * (size_t)n, 0); // freed by the GC
    size_t work = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        steerL_poll(L, &work, 1);
        double p[3];
        char what[64];
        if (list) snprintf(what, sizeof what, "%s[%d]", arg, (int)i);
        else snprintf(what, sizeof what, "%s", arg);
        if (list) lua_rawgeti(L, idx, i);
        else lua_pushvalue(L, idx);
        check_vec(L, -1, fn, what, p);
        lua_pop(L, 1);
        check_inside(L, g, fn, what, p);
        int x, y;
        steerN_cell_of(g, p, &x, &y);
        if (!steerN_open(g, x, y)) luaL_error(L, "%s: %s (%f, %f) is in a blocked cell", fn, what, p[0], p[1]);
        goals[2 * i - 2] = p[0];
        goals[2 * i - 1] = p[1];
    }
    *out = goals;
    return (uint32_t)n;
}

// A new flow field of the grid at gi toward n goals, on top; listed by its
// grid (rebuilt after edits) and for the viewer.
static LFlow *new_flow(lua_State *L, int gi, const char *fn, const double *goals, uint32_t n)
{
    gi = lua_absindex(L, gi);
    LGrid *ug = check_grid(L, gi);
    LFlow *uf = lua_newuserdatauv(L, sizeof *uf, 1);
    memset(uf, 0, sizeof *uf);
    luaL_setmetatable(L, STEERL_FLOW);
    lua_pushvalue(L, gi);
    lua_setiuservalue(L, -2, 1);
    charge(L, &uf->charged, sizeof(steerN_Flow) + STEERN_FLOW_CELL_BYTES * (size_t)ug->g->nx * (size_t)ug->g->ny);
    if (!(uf->f = steerN_flow_new(ug->g)) || steerN_flow_build(uf->f, goals, n)) luaL_error(L, "%s: out of memory", fn);
    uf->grid = ug;
    steerN_Shown *s = &ug->shown;
    const steerN_Flow **flows = room((void *)s->flows, s->nflows, &s->cap, sizeof *flows);
    if (!flows) luaL_error(L, "%s: out of memory", fn);
    s->flows = flows;
    flows[s->nflows++] = uf->f;
    lua_getiuservalue(L, gi, 1);
    lua_getfield(L, -1, "fields");
    lua_pushvalue(L, -3);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 2);
    charge(L, &uf->charged, steerN_flow_bytes(uf->f)); // the build's heap or buckets
    return uf;
}

static int grid_flow_field(lua_State *L)
{
    static const char *const fields[] = { "goal", "goals", NULL };
    const char *fn = "steer.grid:flow_field";
    LGrid *ug = check_grid(L, 1);
    if (!lua_istable(L, 2)) {
        char buf[64];
        return luaL_error(L, "%s: expected a table {goal = pos} or {goals = {...}}, got %s", fn,
                          steerL_describe(L, 2, buf, sizeof buf));
    }
    lua_settop(L, 2);
    steerL_check_fields(L, 2, fn, fields, 0);
    lua_getfield(L, 2, "goal");
    lua_getfield(L, 2, "goals");
    if (lua_isnil(L, 3) == lua_isnil(L, 4))
        return luaL_error(L, "%s: expected exactly one of the fields 'goal' (a vector) and 'goals' (a list)", fn);
    if (!lua_isnil(L, 4) && !lua_istable(L, 4)) steerL_field_error(L, fn, "goals", "a list of vectors", 4);
    double *goals;
    uint32_t n = lua_isnil(L, 4) ? read_goals(L, ug->g, 3, false, fn, "goal", &goals)
                                 : read_goals(L, ug->g, 4, true, fn, "goals", &goals);
    new_flow(L, 1, fn, goals, n);
    return 1;
}

static int flow_gc(lua_State *L)
{
    LFlow *uf = luaL_checkudata(L, 1, STEERL_FLOW);
    steerN_Shown *s = uf->grid ? &uf->grid->shown : NULL; // its user value keeps the grid's memory
    for (uint32_t i = 0; s && i < s->nflows; i++)
        if (s->flows[i] == uf->f) {
            memmove(&s->flows[i], &s->flows[i + 1], sizeof s->flows[0] * (s->nflows - i - 1));
            s->nflows--;
            break;
        }
    steerN_flow_release(uf->f); // the agents bound to it hold it on
    uf->f = NULL;
    charge(L, &uf->charged, 0);
    return 0;
}

static int flow_set_goal(lua_State *L)
{
    LFlow *uf = check_flow(L, 1);
    double *goal;
    read_goals(L, uf->f->grid, 2, false, "steer.flow_field:set_goal", "goal", &goal);
    if (steerN_flow_refresh(uf->f) || steerN_flow_set_goal(uf->f, goal))
        return luaL_error(L, "steer.flow_field:set_goal: out of memory");
    charge(L, &uf->charged, steerN_flow_bytes(uf->f));
    return 0;
}

static int flow_set_goals(lua_State *L)
{
    const char *fn = "steer.flow_field:set_goals";
    LFlow *uf = check_flow(L, 1);
    if (!lua_istable(L, 2)) steerL_field_error(L, fn, "goals", "a list of vectors", 2);
    double *goals;
    uint32_t n = read_goals(L, uf->f->grid, 2, true, fn, "goals", &goals);
    if (steerN_flow_build(uf->f, goals, n)) return luaL_error(L, "%s: out of memory", fn);
    charge(L, &uf->charged, steerN_flow_bytes(uf->f));
    return 0;
}

static int flow_direction(lua_State *L)
{
    LFlow *uf = check_flow(L, 1);
    double p[3], dir[2], left, goal[2];
    check_vec(L, 2, "steer.flow_field:direction", "position", p);
    steerN_flow_sample(uf->f, p, dir, &left, goal);
    steerL_pushvec(L, dir[0], dir[1], 0);
    return 1;
}

static int flow_distance(lua_State *L)
{
    LFlow *uf = check_flow(L, 1);
    double p[3], dir[2], left, goal[2];
    check_vec(L, 2, "steer.flow_field:distance", "position", p);
    steerN_flow_sample(uf->f, p, dir, &left, goal);
    if (left == INFINITY) return 0;
    lua_pushnumber(L, left);
    return 1;
}

static int flow_index(lua_State *L)
{
    LFlow *uf = check_flow(L, 1);
    const char *k = lua_tostring(L, 2);
    if (!k) return 0;
    if (strcmp(k, "grid") == 0) lua_getiuservalue(L, 1, 1);
    else if (strcmp(k, "touched") == 0) lua_pushinteger(L, uf->f->touched);
    else if (strcmp(k, "repaired") == 0) lua_pushboolean(L, uf->f->incremental);
    else if (strcmp(k, "goal") == 0) steerL_pushvec(L, uf->f->goals[0], uf->f->goals[1], 0);
    else {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int flow_tostring(lua_State *L)
{
    LFlow *uf = check_flow(L, 1);
    lua_pushfstring(L, "steer.flow_field(goals=%d)", (int)uf->f->ngoals);
    return 1;
}

static int grid_index(lua_State *L)
{
    steerN_Grid *g = check_grid(L, 1)->g;
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
    steerN_Grid *g = check_grid(L, 1)->g;
    lua_pushfstring(L, "steer.grid(%d x %d, cell=%f)", g->nx, g->ny, g->cell);
    return 1;
}

// ---- w:add_grid ----------------------------------------------------------------

// The world at wi lists the grid at gi (once) and holds it: the viewer draws it.
static void attach(lua_State *L, int wi, int gi, const char *fn)
{
    steerL_World *lw = steerL_checkworld(L, wi);
    LGrid *ug = check_grid(L, gi);
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
    const steerN_Shown **grids = room((void *)lw->nav.grids, lw->nav.n, &lw->nav.cap, sizeof *grids);
    if (!grids) luaL_error(L, "%s: out of memory", fn);
    lw->nav.grids = grids;
    grids[lw->nav.n++] = &ug->shown;
}

static int world_add_grid(lua_State *L)
{
    const char *fn = "steer.world:add_grid";
    steerL_check_unsandboxed(L, "w:add_grid", "the static geometry belongs to the game");
    steerL_World *lw = steerL_checkworld(L, 1);
    check_grid(L, 2);
    if (lw->dim != 2) return luaL_error(L, "%s: grids are for 2D worlds", fn);
    sync_walls(L, 2, 1, fn);
    attach(L, 1, 2, fn);
    return 0;
}

// ---- snapshots (lsnapshot.c) ---------------------------------------------------

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

static void save_flow(lua_State *L, const steerN_Flow *f)
{
    size_t cells = (size_t)f->grid->nx * (size_t)f->grid->ny;
    lua_createtable(L, 0, 6);
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
static lua_Integer save_grid(lua_State *L, int wi, int list, int seen, const steerN_Grid *g, LGrid *ug, bool attached)
{
    lua_Integer i = seen_index(L, seen, g);
    if (i) return i;
    i = (lua_Integer)lua_rawlen(L, list) + 1;
    set_seen(L, seen, g, i);
    lua_createtable(L, 0, 10);
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
                const LWalls *lwl = lua_touserdata(L, -1);
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
    lua_getfield(L, LUA_REGISTRYINDEX, REG_GRIDS);
    int userdata = seen + 1;
    for (uint32_t i = 0; i < lw->nav.n; i++) {
        const steerN_Shown *sh = lw->nav.grids[i];
        LGrid *ug = (LGrid *)(void *)((char *)(uintptr_t)sh - offsetof(LGrid, shown));
        save_grid(L, wi, list, seen, ug->g, ug, true);
    }
    lua_newtable(L); // the pairs
    lua_Integer n = (lua_Integer)lua_rawlen(L, flows);
    for (lua_Integer k = 1; k <= n; k++) {
        // a bound field's steerN_Flow, or a grid or field userdata (a.data's)
        const steerN_Flow *f = NULL;
        const steerN_Grid *g;
        if (lua_rawgeti(L, flows, k) == LUA_TLIGHTUSERDATA) f = lua_touserdata(L, -1);
        else if (luaL_testudata(L, -1, STEERL_FLOW)) f = check_flow(L, -1)->f;
        g = f ? f->grid : check_grid(L, -1)->g;
        lua_pop(L, 1);
        lua_pushlightuserdata(L, (void *)(uintptr_t)g);
        LGrid *ug = lua_rawget(L, userdata) == LUA_TUSERDATA ? lua_touserdata(L, -1) : NULL;
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

static void load_flow(lua_State *L, int gi, int t, const char *fn)
{
    const steerN_Grid *g = check_grid(L, gi)->g;
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
    LFlow *uf = new_flow(L, gi, fn, goals, n);
    lua_remove(L, -2);
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
}

void steerL_grids_load(lua_State *L, int desc, const char *fn)
{
    desc = lua_absindex(L, desc);
    lua_newtable(L);
    int out = lua_gettop(L);
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
        LGrid *ug = new_grid(L, fn, (int)nx, (int)ny, cell, origin);
        int gi = lua_gettop(L);
        get_numbers(L, t, "costs", ug->g->cost, (size_t)ug->g->nx * (size_t)ug->g->ny, 4, fn);
        ug->g->min_cost = get_number(L, t, "min_cost", fn);
        ug->g->version = (uint32_t)get_number(L, t, "version", fn);
        lua_newtable(L); // the flow fields, in their order, and at 0 the grid
        lua_pushvalue(L, gi);
        lua_rawseti(L, -2, 0);
        if (lua_getfield(L, t, "flows") == LUA_TTABLE) {
            for (lua_Integer k = 1; k <= (lua_Integer)lua_rawlen(L, -1); k++) {
                if (lua_rawgeti(L, -1, k) != LUA_TTABLE) luaL_error(L, "%s: corrupt snapshot (a flow field)", fn);
                load_flow(L, gi, lua_gettop(L), fn);
                lua_rawseti(L, -4, k);
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
        lua_rawseti(L, out, i); // the flow list
        lua_settop(L, out);
    }
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
            LWalls *walls = lua_newuserdatauv(L, sizeof *walls + sizeof walls->id[0] * (size_t)nw, 0);
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
        if (lua_toboolean(L, -1)) attach(L, wi, gi, fn);
        lua_settop(L, top);
    }
}

bool steerL_isgrid(lua_State *L, int idx) { return luaL_testudata(L, idx, STEERL_GRID) != NULL; }

const struct steerN_Flow *steerL_toflow(lua_State *L, int idx)
{
    const LFlow *uf = luaL_testudata(L, idx, STEERL_FLOW);
    return uf ? uf->f : NULL;
}

const struct steerN_Layers *steer_lua_nav(lua_State *L, int idx)
{
    steerL_World *lw = luaL_testudata(L, idx, STEERL_WORLD);
    return lw ? &lw->nav : NULL;
}

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
        { "flow_field", grid_flow_field },
        { NULL, NULL },
    };
    static const luaL_Reg flow_meta[] = { { "__gc", flow_gc }, { "__tostring", flow_tostring }, { NULL, NULL } };
    static const luaL_Reg flow_methods[] = {
        { "set_goal", flow_set_goal },
        { "set_goals", flow_set_goals },
        { "direction", flow_direction },
        { "distance", flow_distance },
        { NULL, NULL },
    };
    steerL_newclass(L, STEERL_GRID, grid_meta, grid_methods, grid_index);
    if (lua_getfield(L, LUA_REGISTRYINDEX, REG_GRIDS) != LUA_TTABLE) {
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "v");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_setfield(L, LUA_REGISTRYINDEX, REG_GRIDS);
    }
    lua_pop(L, 1);
    steerL_newclass(L, STEERL_FLOW, flow_meta, flow_methods, flow_index);
    lua_pushcfunction(L, grid_new);
    lua_setfield(L, -2, "grid");
    steerL_resource_type(L, &steerB_flow_resource, STEERL_FLOW); // steer.follow_flow{ field = f }
    // w:add_grid joins the world's methods (the upvalue of its __index)
    luaL_getmetatable(L, STEERL_WORLD);
    lua_getfield(L, -1, "__index");
    if (lua_getupvalue(L, -1, 1)) {
        lua_pushcfunction(L, world_add_grid);
        lua_setfield(L, -2, "add_grid");
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
}
