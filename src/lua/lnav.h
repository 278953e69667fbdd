// SPDX-License-Identifier: MIT
// lnav.h — what the bindings of nav's types share: the grid userdata
// (lgrid.c), the flow field userdata (lflow.c) and their plain-data form
// for the Lua snapshot (lsnapgrid.c). lgrid.c calls lflow.c (a grid's
// flow_field, the rebuild after an edit); lsnapgrid.c calls both; lflow.c
// calls neither (the helpers it needs are the inline ones below).
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
#ifndef STEER_LNAV_H
#define STEER_LNAV_H

#include "lutil.h"

#define STEERL_GRID "steer.grid"
#define STEERL_FLOW "steer.flow_field"

// The registry's map of each C grid to its userdata (weak values), for a
// snapshot that reaches a grid through a bound field.
#define STEERL_REG_GRIDS "steer.grid_userdata"

typedef struct steerL_Grid {
    steerN_Grid *g; // referenced; NULL once collected
    int batch;      // inside g:batch(fn): edits wait for its end
    bool edited;    // an edit is waiting
    steerN_Shown shown;
    size_t charged;     // bytes charged to the state's owner
    steerN_Alloc alloc; // the state's steerL_allocator: the grid's and shown's list
} steerL_Grid;
typedef struct steerL_Flow {
    steerN_Flow *f; // referenced; NULL once collected
    steerL_Grid *grid;
    size_t charged;
} steerL_Flow;
// A navigation mesh userdata (lnavmesh.c; lnavtwin.c reads it), and the
// registry's set of this state's (weak keys), for the twins of a restore.
#define STEERL_NAVMESH "steer.navmesh"
#define STEERL_REG_MESHES "steer.navmesh_userdata"
typedef struct steerL_NavMesh {
    struct steerN_Mesh *m; // referenced; NULL once collected
    struct steerN_MeshQuery *q;
    size_t charged;
    steerN_Alloc alloc;
} steerL_NavMesh;
// The wall shapes a grid put into one world (its user value's `worlds`).
typedef struct steerL_Walls {
    uint32_t n;
    steer_Shape id[];
} steerL_Walls;

// A live grid or field userdata (one a finaliser brought back is collected).
static inline steerL_Grid *steerL_checkgrid(lua_State *L, int idx)
{
    steerL_Grid *ug = luaL_checkudata(L, idx, STEERL_GRID);
    if (!ug->g) luaL_argerror(L, idx, "a collected grid");
    return ug;
}
static inline steerL_Flow *steerL_checkflow(lua_State *L, int idx)
{
    steerL_Flow *uf = luaL_checkudata(L, idx, STEERL_FLOW);
    if (!uf->f) luaL_argerror(L, idx, "a collected flow field");
    return uf;
}

// The viewer's list of a world's navigation meshes (steerL_World.nav) as
// its C world lists them: after w:add_navmesh, and for a loaded world
// (lnavmesh.c). False when out of memory.
bool steerL_nav_list_meshes(steerL_World *lw);

// Charge the state's owner what an object's C memory now adds to what it
// was charged (*charged), which then counts it. May raise (a mod past its cap).
static inline void steerL_nav_charge(lua_State *L, size_t *charged, size_t now)
{
    lua_Integer more = (lua_Integer)now - (lua_Integer)*charged;
    *charged = now;
    steerL_charge(L, more);
}

static inline void steerL_nav_vec(lua_State *L, int idx, const char *fn, const char *arg, double out[3])
{
    if (!steerL_tovec(L, idx, out)) steerL_field_error(L, fn, arg, "a vector (steer.vec or {x, y})", idx);
}

// A new mesh userdata on top holding m (one reference, taken over),
// prepared (lnavmesh.c).
struct steerN_Mesh;
void steerL_navmesh_push(lua_State *L, struct steerN_Mesh *m, const char *fn);
// The mesh of the navmesh userdata at idx (raises on another value or a
// collected mesh), and its memory charge brought up to date after a change
// (lnavmesh.c).
struct steerN_Mesh *steerL_navmesh_check(lua_State *L, int idx);
void steerL_navmesh_recharge(lua_State *L, int idx);
// lnavwalls.c: w:add_navmesh (lutil.h); the walls of the world's meshes made again
// where their obstacles changed since (at the start of each tick: w:step);
// and the records of which walls came from which mesh in a snapshot's Lua
// section: the list on top (save), and bound to a loaded world (its
// meshes listed already).
void steerL_nav_sync_walls(lua_State *L, int wi, const char *fn);
void steerL_nav_walls_save(lua_State *L, int wi);
void steerL_nav_walls_bind(lua_State *L, int wi, int list, const char *fn);
// lnavtwin.c: an in-place restore's twins of meshes. Save: the list of
// the meshes the world at wi holds (its brains' and w:add_navmesh's, each
// once) with their serials and hashes, on top (the Lua section's
// `meshes`). Begin before the core reads the snapshot (list: that list,
// or in older snapshots `meshwalls`; the live mesh userdata of those
// serials are noted and held), end once the restore is done (ok) or
// failed (the twins get their contents back). A mesh read that is no
// twin of this state's takes its saved serial (when no other mesh saved
// has its hash), so that a mod's state finds its twin after the restore
// (steerL_nav_twins_world, from steerL_restored_twins).
#define STEERL_MESH_TWINS 64
typedef struct steerL_MeshTwins {
    uint32_t nsaved, nlive, npairs;
    struct steerL_TwinSaved {
        uint64_t hash, serial;
    } saved[STEERL_MESH_TWINS];
    struct steerL_TwinLive {
        uint64_t serial;
        void *u; // the mesh userdata (lnavmesh.c's); NULL: taken, or not one
    } live[STEERL_MESH_TWINS];
    struct {
        void *u;
        struct steerN_Mesh *loaded; // the mesh read, holding the twin's old contents
    } pair[STEERL_MESH_TWINS];
} steerL_MeshTwins;
void steerL_nav_twins_begin(lua_State *L, int list, steerL_MeshTwins *t);
void steerL_nav_twins_end(lua_State *L, steerL_MeshTwins *t, bool ok);
void steerL_nav_meshes_save(lua_State *L, int wi);
// Every resource of kind `kind` (a steerB_Resource: meshes, flow fields) a
// node of tree b holds, into the set at index set (object -> true).
void steerL_tree_resources(lua_State *L, const steer_Behavior *b, const void *kind, int set);
// After a load (or restore) of w: each mesh of the list at `list` (the Lua
// section's `meshes`) that no mesh of w bears the serial of names one of
// w's meshes of its hash that has none, so that it saves again as it was
// saved.
void steerL_nav_meshes_bind(lua_State *L, int list, const steer_World *w);
// After a restore of world w by another state (a mod's, after the
// engine's): this state's live meshes whose serials the world's meshes
// bear take their contents (steerN_mesh_exchange; nothing when the same
// bytes) and their places in the world's brains.
void steerL_nav_twins_world(lua_State *L, steer_World *w, const char *fn);
// A layer of m named by field `name` of the options table at idx (1 ..
// nlayers, raising on another value; nil: def, 0 for any).
uint32_t steerL_navmesh_layer(lua_State *L, int idx, const struct steerN_Mesh *m, const char *fn, const char *name,
                              uint32_t def);
// nm:add_obstacle, nm:obstacles and the obstacle handles (lnavobst.c).
int steerL_navmesh_add_obstacle(lua_State *L);
int steerL_navmesh_obstacles(lua_State *L);
void steerL_open_navobst(lua_State *L);
// steer.navmesh{} with a baking field (vertices, triangles, obj, agent,
// up, cell): the bake, its mesh pushed (lnavbake.c).
int steerL_navmesh_bake(lua_State *L, const char *fn);
// lnavmesh.c: the mesh of the navmesh userdata at idx (raises when it is
// none), and its memory charged again after it grew (links added).
void steerL_navmesh_recharge(lua_State *L, int idx);
// lnavlink.c: nm:add_link, nm:add_jump_links, nm:add_drop_links, nm:links; the links of the
// query's last path as nm:path's third value ({ { at = i, link = l }, ... });
// the "link" event's link (1 pushed, 0 when the agent is at none); the
// link objects' metatable.
int steerL_navmesh_add_link(lua_State *L);
int steerL_navmesh_add_jump_links(lua_State *L);
int steerL_navmesh_add_drop_links(lua_State *L);
int steerL_navmesh_links(lua_State *L);
struct steerN_MeshQuery;
void steerL_push_path_links(lua_State *L, struct steerN_Mesh *m, const struct steerN_MeshQuery *q);
int steerL_push_event_link(lua_State *L, const steer_World *w, steer_Agent a, uint64_t id);
void steerL_open_navlink(lua_State *L);

// A point inside the grid, or raise naming the argument.
static inline void steerL_nav_inside(lua_State *L, const steerN_Grid *g, const char *fn, const char *arg,
                                     const double p[3])
{
    int x, y;
    if (!steerN_cell_of(g, p, &x, &y))
        luaL_error(L, "%s: %s (%f, %f) is outside the grid ([%f, %f] x [%f, %f])", fn, arg, p[0], p[1], g->origin[0],
                   g->origin[0] + g->nx * g->cell, g->origin[1], g->origin[1] + g->ny * g->cell);
}

// A list of n items of `size` bytes with room for one more: the same or a
// grown array (*cap updated), NULL when out of memory.
static inline void *steerL_nav_room(const steerN_Alloc *a, void *items, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap) return items;
    uint32_t c = *cap ? 2 * *cap : 4;
    void *grown = steerN_realloc(a, items, size * *cap, size * c);
    if (grown) *cap = c;
    return grown;
}

// Serials: every grid and field a state makes gets one (steerN_Grid's and
// steerN_Flow's `serial`), the state's owner (lpolicy.h: 0 a scenario or a
// game, a mod its number) times 2^40 plus the state's count of them, so
// that no two states give the same one. A snapshot keeps them, and the
// state's count (a load raises it to the saved one): after an in-place
// restore a loaded grid or field whose serial and cells are those of a
// live one of the state is that one's twin, and the live one takes its
// contents and its place (lsnapgrid.c, steerL_grids_twin; a mod's after the
// engine's restores, steerL_restored_twins).
// Inline, so that lflow.c needs nothing of lgrid.c.
#define STEERL_SERIAL_SHIFT 40
#define STEERL_REG_SERIAL "steer.nav_serial"
static inline lua_Integer steerL_nav_count(lua_State *L) // the state's count
{
    lua_Integer n = lua_getfield(L, LUA_REGISTRYINDEX, STEERL_REG_SERIAL) == LUA_TNUMBER ? lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    return n;
}
static inline void steerL_nav_set_count(lua_State *L, lua_Integer n)
{
    lua_pushinteger(L, n);
    lua_setfield(L, LUA_REGISTRYINDEX, STEERL_REG_SERIAL);
}
static inline uint64_t steerL_nav_serial(lua_State *L) // the next one
{
    lua_Integer n = steerL_nav_count(L) + 1;
    if (n >= (lua_Integer)1 << STEERL_SERIAL_SHIFT) n = 1; // a trillion grids and fields later
    steerL_nav_set_count(L, n);
    return (uint64_t)steerL_owner(L) << STEERL_SERIAL_SHIFT | (uint64_t)n;
}

// lgrid.c: a new grid userdata of nx x ny cells (their costs still to
// set) on top; the world at wi lists the grid at gi (once) and holds it.
steerL_Grid *steerL_new_grid(lua_State *L, const char *fn, int nx, int ny, double cell, const double origin[2]);
void steerL_grid_attach(lua_State *L, int wi, int gi, const char *fn);

// lflow.c: a new flow field of the grid at gi toward n goals on top
// (listed by its grid and for the viewer); g:flow_field{...}; after an
// edit of the grid at gi, every field on it rebuilt (but those the table
// at skip holds; 0: none).
steerL_Flow *steerL_new_flow(lua_State *L, int gi, const char *fn, const double *goals, uint32_t n);
int steerL_grid_flow_field(lua_State *L);
void steerL_flows_refresh(lua_State *L, int gi, int skip, const char *fn);

#endif
