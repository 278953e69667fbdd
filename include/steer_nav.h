// SPDX-License-Identifier: MIT
// steer_nav.h — navigation for C hosts: tile grids with A* paths and flow
// fields, and navigation meshes with every query a game needs, each taking
// the agent's radius (one mesh serves every size). The Lua API
// (docs/api.md, "Navigation") is the same engine: a mesh built here from
// the same rings has the same hash as one steer.navmesh{} built.
//
// The objects here belong to the host that made them: it frees each
// (steer_grid_free, ...). A flow field holds its grid, a mesh built from a
// grid does not: free them in any order. Memory is the C library's.
//
// Threads: a grid or a flow field is one thread's at a time (a path search
// uses the grid's own scratch). A mesh never changes once made, so any
// number of threads may query it at once, each with its own
// steer_NavQuery (the scratch of a path search; Detour's dtNavMeshQuery).
//
// The boundary is steer.h's: a NULL object, or one another copy of
// libsteer made, is refused with STEER_EARG (a getter returns its zero
// value) and steer_last_error() says which argument and what was expected;
// so does every bad number.
#ifndef STEER_NAV_PUBLIC_H
#define STEER_NAV_PUBLIC_H

#include "steer.h"
#include "steer_debug.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---- tile grids -------------------------------------------------------------
// Cells (x, y), x from 0 to nx - 1 along +x, y from 0 upwards, cell (0, 0)
// at `origin`. A cell's cost is the price of a metre through it (1: plain
// ground, 1e-6 to 1e30) or INFINITY (blocked); outside counts as blocked.
typedef struct steer_Grid steer_Grid;

// nx * ny open cells of cost 1 (1 to 2^24 cells in all), of side `cell`
// metres (1e-6 to 1e30); origin NULL: (0, 0).
STEER_API int steer_grid_new(int nx, int ny, double cell, const double origin[2], steer_Grid **out);
STEER_API void steer_grid_free(steer_Grid *g); // NULL: nothing
// Set a cell's cost (INFINITY blocks it). The host rebuilds its flow
// fields after edits (steer_flow_refresh).
STEER_API int steer_grid_set_cost(steer_Grid *g, int x, int y, double cost);
// A cell's cost (INFINITY when blocked or outside; 0 for a refused grid).
STEER_API double steer_grid_cost(const steer_Grid *g, int x, int y);
// A* (8-connected, no corner cutting, string-pulled) from `from` to `to`:
// *n points (from, corners, to; up to cap of them written to points as
// x, y pairs) and the path's cost in *cost; *n = 0 when there is no way
// or either end is outside or blocked. points may be NULL with cap 0 (ask
// the count first). cost may be NULL.
STEER_API int steer_grid_path(steer_Grid *g, const double from[2], const double to[2], double *points, int cap, int *n,
                              double *cost);

// ---- flow fields ------------------------------------------------------------
typedef struct steer_FlowField steer_FlowField;

// A field on grid g toward the nearest of n goals (each in an open cell).
// The field holds the grid (freeing the grid first is allowed).
STEER_API int steer_flow_new(steer_Grid *g, const double *goals, int n, steer_FlowField **out);
STEER_API void steer_flow_free(steer_FlowField *f); // NULL: nothing
// Move to a single goal (a small move repairs a window, a long one rebuilds).
STEER_API int steer_flow_set_goal(steer_FlowField *f, const double goal[2]);
// Rebuild if the grid's costs changed since the field was built.
STEER_API int steer_flow_refresh(steer_FlowField *f);
// The field at p: its unit direction (zero where no goal can be reached),
// the distance left (INFINITY then; may be NULL). STEER_OK.
STEER_API int steer_flow_sample(const steer_FlowField *f, const double p[2], double dir[2], double *left);

// ---- navigation meshes --------------------------------------------------------
typedef struct steer_NavMesh steer_NavMesh;

// Ring roles (steer_NavMeshDesc.ring_role): walkable ground (outline rings
// combine even-odd: a ring in another is a hole), obstacles carved out
// (their union), or an area index 1 .. nareas - 1 for the ground inside.
#define STEER_RING_OUTLINE (-1)
#define STEER_RING_OBSTACLE (-2)
#define STEER_NAV_AREAS 64 // areas a mesh may have, the default one (0) included

typedef struct steer_NavMeshDesc {
    const double *xy;         // every ring's points, x, y pairs, metres
    const uint32_t *ring_end; // ring k is points [ring_end[k - 1], ring_end[k]) (ring 0 from 0)
    const int32_t *ring_role; // per ring
    int nrings;
    int nareas;                    // 1 .. STEER_NAV_AREAS (1: no areas)
    const char *const *area_names; // nareas names, area 0's first ("default" when NULL)
    const float *area_costs;       // nareas cost multipliers (> 0, INFINITY: never entered); NULL: all 1
} steer_NavMeshDesc;

// Build a mesh from 2D rings, exactly: the same rings give the same mesh
// (steer_navmesh_hash) on every machine. STEER_EARG with steer_last_error()
// saying why (a bad point, a ring of fewer than 3 points, nothing walkable).
STEER_API int steer_navmesh_new(const steer_NavMeshDesc *d, steer_NavMesh **out);
// Bake a mesh from level geometry (triangle soup) with Recast: the
// walkable ground as rings, then the exact build above (docs/api.md,
// "Baking"). Vertices are z up; a triangle is ground when it faces up
// (counter-clockwise seen from above) no steeper than `slope`. Zero means
// default: height 2 m, climb 0, slope 45 degrees, cell height / 10,
// tiles automatic. The mesh is not eroded: queries take the radius. Ground
// over ground in plan (stairs, bridges, rooms over rooms) is cut into
// layers (steer_navmesh_layer_count below). STEER_EARG with
// steer_last_error() saying why (a bad index, coordinate or number,
// nothing walkable, or a build without Recast: "this build has no
// baking").
typedef struct steer_NavBakeDesc {
    const double *xyz;   // 3 per vertex, metres, z up
    int nverts;          // 3 .. 8,000,000
    const uint32_t *tri; // 3 per triangle: 0-based vertex indices
    int ntris;           // 1 .. 8,000,000
    double height;       // the agent's height, metres (0: 2)
    double climb;        // the step it climbs, metres (0: none)
    double slope;        // the steepest walkable slope, degrees (0: 45)
    double cell;         // the cell size, metres (0: height / 10)
    // A large level bakes a tile at a time (docs/api.md, "Tiles"): a
    // tile's side, metres, at least 32 cells and at most 1e6 (a tile as
    // large as the level bakes it whole); 0: automatic (one tile up to
    // 512 x 512 cells, else tiles of 256 cells). The last field, added
    // after the others: a desc initialized by field names, or zeroed,
    // from before it bakes as it did (0).
    double tile;
} steer_NavBakeDesc;
// Bake the mesh of d's soup into *out (the host frees it): STEER_OK, or
// STEER_EARG / STEER_ENOMEM with steer_last_error() saying why.
STEER_API int steer_navmesh_bake(const steer_NavBakeDesc *d, steer_NavMesh **out);
// From a grid's open cells (cells of cost c other than 1 become area "cost<c>").
STEER_API int steer_navmesh_from_grid(const steer_Grid *g, steer_NavMesh **out);
// Read the bytes steer_navmesh_save wrote (or the Lua nm:save() gave);
// every count, index and the hash are checked: STEER_EARG on damaged bytes.
STEER_API int steer_navmesh_load(const void *bytes, size_t n, steer_NavMesh **out);
// The mesh as bytes through write (steer.h's steer_WriteFn).
STEER_API int steer_navmesh_save(const steer_NavMesh *m, steer_WriteFn write, void *ud);
STEER_API void steer_navmesh_free(steer_NavMesh *m); // NULL: nothing
// The mesh's hash: the same rings give the same on every machine (Lua's nm.hash in hex).
STEER_API uint64_t steer_navmesh_hash(const steer_NavMesh *m);
// The index of the area named `name`, or -1.
STEER_API int steer_navmesh_area(const steer_NavMesh *m, const char *name);
// Its triangles, vertices and areas as a read-only view (for drawing).
STEER_API int steer_navmesh_view(const steer_NavMesh *m, steer_DebugNavMesh *out);

// ---- obstacles that come and go ---------------------------------------------
// A crate pushed, a spill of mud, a cart parked in a door: a footprint
// (any polygon, either winding, crossing walls and other obstacles as it
// likes) carved out of the mesh or re-labelling the ground under it. The
// mesh is rebuilt at once, only round the footprints (docs/api.md,
// "Obstacles"); its hash is then the live mesh's, and the same obstacles
// give the same mesh whatever was added, moved and removed before. A
// change must not overlap a query of the mesh on another thread (change it
// between ticks). A mesh with obstacles saves (steer_navmesh_save) as the
// mesh it was built as plus its obstacles, and loads back with them.
typedef struct steer_NavObstacleDesc {
    const double *xy; // a polygon: n points (x, y pairs, metres); NULL: the circle or box below
    int n;            // 3 .. 4096
    double center[2]; // a circle (when radius > 0), as a 16-sided polygon round it
    double radius;
    double min[2], max[2]; // else a box (max above and right of min)
    int area;              // 0: blocked (carved out); else the area (steer_navmesh_area, >= 1) it re-labels
    int layer;             // on a baked mesh of several floors, 1 + the layer it stands on (and changes alone); 0: the
                           // ground's under the centre of its footprint's box (the lowest-numbered triangle's there)
} steer_NavObstacleDesc;
// Add an obstacle: *id its handle (1, 2, ... in the order added, never
// reused). STEER_EARG with steer_last_error() saying why (a bad point, a
// shape that encloses nothing, an unknown area).
STEER_API int steer_navmesh_add_obstacle(steer_NavMesh *m, const steer_NavObstacleDesc *d, uint32_t *id);
// Move obstacle id by (dx, dy) metres; STEER_EARG for a removed one.
STEER_API int steer_navmesh_move_obstacle(steer_NavMesh *m, uint32_t id, double dx, double dy);
// Remove obstacle id; STEER_EARG when it was removed already.
STEER_API int steer_navmesh_remove_obstacle(steer_NavMesh *m, uint32_t id);

typedef struct steer_NavQuery steer_NavQuery;
// The scratch of path searches: one per thread.
STEER_API int steer_navquery_new(steer_NavQuery **out);
STEER_API void steer_navquery_free(steer_NavQuery *q); // NULL: nothing

typedef struct steer_NavFilter {
    double radius;      // the agent's radius (>= 0): ways narrower than its diameter are closed
    const float *costs; // per area (steer_navmesh_area): multipliers, INFINITY excluded; NULL: the mesh's
    // floors (a mesh with several layers, steer_navmesh_layer_count): which
    // ground a path's ends are on; zero: the lowest-numbered triangle under
    // each, as on a flat mesh
    int from_layer, to_layer; // 1 .. count: that layer's ground
    bool use_z;               // else, when set: the ground under each nearest below from_z, to_z (steer_navmesh_height)
    double from_z, to_z;
} steer_NavFilter;

typedef enum steer_PathStatus {
    STEER_PATH_FOUND = 0,
    STEER_PATH_START_OFF = 2, // the start is not on the mesh
    STEER_PATH_GOAL_OFF = 3,  // the goal is not on the mesh
    STEER_PATH_NARROW = 4,    // a way exists, but none wide enough for the radius
    STEER_PATH_NONE = 5,      // no way at all
} steer_PathStatus;

// The way from `from` to `to` (filter NULL: radius 0, the mesh's costs):
// *status says whether there is one; *n points (start, corners rounded by
// the radius, end), up to cap of them written as x, y pairs (points may be
// NULL with cap 0); its length (may be NULL).
STEER_API int steer_navmesh_path(const steer_NavMesh *m, steer_NavQuery *q, const double from[2], const double to[2],
                                 const steer_NavFilter *filter, steer_PathStatus *status, double *points, int cap,
                                 int *n, double *length);
// The height of the ground under each point of the last path q found on m
// (steer_navmesh_path): up to cap written to z (0 on a flat mesh).
STEER_API int steer_navmesh_path_heights(const steer_NavMesh *m, const steer_NavQuery *q, double *z, int cap, int *n);
// Floors: a mesh baked from geometry whose ground lies over itself (stairs,
// a bridge over a corridor, rooms over rooms) is cut into layers, each
// planar; its seams are ordinary edges, so paths climb from floor to floor.
// The count of layers (1 for a mesh built from rings or a grid).
STEER_API int steer_navmesh_layer_count(const steer_NavMesh *m);
// The height of the ground under p (x, y, z): on `layer` (1 .. count) when
// layer > 0, else the ground under p nearest below p's z (ground up to
// 0.5 m above it counts as below); *layer_out (may be NULL) its layer, 1 ..
// count. STEER_EARG when no ground is under p.
STEER_API int steer_navmesh_height(const steer_NavMesh *m, const double p[3], int layer, double *z, int *layer_out);
// The layers with ground under p (x, y) in plan, lowest ground first (ties:
// by layer): *n how many there are; the first cap of them written, their
// numbers (1 .. count) into layers and their ground's heights at p into z
// (either may be NULL when cap is 0). *n is 0 off the mesh; a point on a
// seam between two layers (mid-stair) is on both.
STEER_API int steer_navmesh_layers_at(const steer_NavMesh *m, const double p[2], int *layers, double *z, int cap,
                                      int *n);
// steer_navmesh_nearest on one floor: the point nearest p (x, y, z) where a
// disc of `radius` fits, on `layer` (1 .. count) when layer > 0, else on
// the ground under p nearest below p's z (as steer_navmesh_height), only
// that floor's walls counting; out gets x, y and the ground's height
// there, *dist (may be NULL) the distance in plan, *layer_out (may be
// NULL) the layer reached. STEER_EARG for an empty mesh, a bad layer or p.
STEER_API int steer_navmesh_nearest_on(const steer_NavMesh *m, const double p[3], int layer, double radius,
                                       double out[3], double *dist, int *layer_out);
// steer_navmesh_contains on one floor (layer as above): p on that ground
// and at least radius from every wall of that floor.
STEER_API bool steer_navmesh_contains_on(const steer_NavMesh *m, const double p[3], int layer, double radius);
// The point of the mesh nearest p where a disc of `radius` fits, and its
// distance from p (may be NULL). STEER_EARG for an empty mesh.
STEER_API int steer_navmesh_nearest(const steer_NavMesh *m, const double p[2], double radius, double out[2],
                                    double *dist);
// Walk the segment on the mesh: *hit false when it stays on it; else the
// first wall point, its normal (into the mesh) and the fraction walked
// (each may be NULL). Excluded areas count as walls. STEER_EARG when from
// is off the mesh.
STEER_API int steer_navmesh_raycast(const steer_NavMesh *m, const double from[2], const double to[2],
                                    const steer_NavFilter *filter, bool *hit, double point[2], double normal[2],
                                    double *fraction);
// Move from -> to along the surface, sliding along walls, keeping radius from them where it can.
STEER_API int steer_navmesh_move_along(const steer_NavMesh *m, const double from[2], const double to[2], double radius,
                                       double out[2]);
// The distance from p to the nearest wall (INFINITY for an empty or refused mesh).
STEER_API double steer_navmesh_wall_distance(const steer_NavMesh *m, const double p[2]);
// On the mesh and at least radius from every wall.
STEER_API bool steer_navmesh_contains(const steer_NavMesh *m, const double p[2], double radius);
// A point uniform over the mesh from three uniform numbers in [0, 1).
STEER_API int steer_navmesh_random_point(const steer_NavMesh *m, double u, double s, double t, double out[2]);

// ---- off-mesh links --------------------------------------------------------------
// Jumps, ladders, drops, teleporters and doors: a straight way from one
// point of the mesh to another that paths take (Lua's nm:add_link). Taking
// one costs its straight length times its cost times its area's cost under
// the filter (an excluded area closes it); a search for radius r takes it
// only when both ends are at least r from every wall. Zero means default.
typedef struct steer_NavLinkDesc {
    double from[3],
        to[3];        // its ends, metres, each on the mesh; z: on a mesh of several layers, the ground nearest below
    float cost;       // multiplier on its length (0: 1)
    int area;         // its area (steer_navmesh_area; 0: the default area)
    const char *name; // NULL: unnamed; under 32 bytes
    bool one_way;     // only from -> to (default: both ways)
    bool disabled;    // added disabled (default: enabled)
} steer_NavLinkDesc;
// Add a link; its index (0, 1, ... in the order added) into *index (may be
// NULL). STEER_EARG (steer_last_error() says which) for an end off the
// mesh, a bad area, cost or name. The mesh's hash and bytes include its
// links. Links change between ticks only (never while a world that uses
// the mesh steps).
STEER_API int steer_navmesh_add_link(steer_NavMesh *m, const steer_NavLinkDesc *d, int *index);
// How many links it has (0 for a bad handle).
STEER_API int steer_navmesh_link_count(const steer_NavMesh *m);
// Automatic jump links (Lua's nm:add_jump_links): for every wall edge
// that faces another across unwalkable ground no wider than `reach`
// (straight out, facing back, nothing walkable half-way), links at points
// `spacing` apart along the edge, each end `inset` into the mesh. Only
// between islands (ground not otherwise joined) unless same_island. Every
// wall is checked against every other: made once, when the level loads.
// Zero means default.
typedef struct steer_NavJumpDesc {
    double reach;     // the widest gap jumped, metres: 0.001 .. 1e6 (no default)
    double spacing;   // metres between links along an edge, 0.01 .. 1e6 (0: 1)
    double inset;     // metres into the mesh from the edge, up to 1e6 (0: 0.5)
    float cost;       // multiplier on each link's length (0: 1)
    int area;         // each link's area (steer_navmesh_area; 0: the default area)
    const char *name; // each link's name, under 32 bytes (NULL: "jump")
    bool one_way;     // a one-way link from each side (default: a two-way link once per facing pair)
    bool same_island; // also across thin obstacles inside one island
} steer_NavJumpDesc;
// Add the jump links of d to m in a fixed order (by wall edge, then along
// it): they are links *added .. of steer_navmesh_link_count before the
// call on (added may be NULL). STEER_EARG (steer_last_error() names the
// field) for a bad field, nothing added; STEER_ENOMEM, or STEER_EARG when
// the mesh is full of links, keeps those added before (*added of them).
STEER_API int steer_navmesh_add_jump_links(steer_NavMesh *m, const steer_NavJumpDesc *d, int *added);
// Automatic drop links (Lua's nm:add_drop_links) on a mesh with heights
// (baked, or loaded from a baked mesh's bytes): one-way links down from
// ledges to the ground beside and below them, falls of min_drop to drop
// metres, looking straight out (in plan, up to `reach`) from points
// `spacing` apart along every wall edge; the lower end `inset` beyond
// where that ground starts, each end moved (by at most inset) to where a
// disc of `radius` fits on its floor (docs/api.md, "Drop links"). Zero
// means default.
typedef struct steer_NavDropDesc {
    double drop;      // the highest fall, metres: 0.001 .. 1e6 (no default)
    double min_drop;  // the lowest fall, metres, up to drop (0: 1)
    double reach;     // metres out from the ledge where the lower ground may start, 0.05 .. 1000 (0: 1.5)
    double spacing;   // metres between links along an edge, 0.01 .. 1e6 (0: 1)
    double inset;     // metres into the ground from each edge, up to 1e6 (0: 0.5)
    double radius;    // metres each end keeps from its floor's walls, up to 1000 (0: 0.5)
    float cost;       // multiplier on each link's length (0: 1)
    int area;         // each link's area (steer_navmesh_area; 0: the default area)
    const char *name; // each link's name, under 32 bytes (NULL: "drop")
} steer_NavDropDesc;
// Add the drop links of d to m, as steer_navmesh_add_jump_links does
// (*added of them, from the count before on). STEER_EARG also for a mesh
// without heights (built from rings or a grid).
STEER_API int steer_navmesh_add_drop_links(steer_NavMesh *m, const steer_NavDropDesc *d, int *added);
// A door that locks: paths stop taking a disabled link; a navigate agent
// whose plan takes it and has not reached it plans again.
STEER_API int steer_navmesh_set_link_enabled(steer_NavMesh *m, int index, bool enabled);
// The last path found with q: the link whose start is point i (the next
// point is its far end), or -1.
STEER_API int steer_navquery_path_link(const steer_NavQuery *q, int i);
// Inside a STEER_EVENT_LINK (the agent stands at a link's start): the host
// takes over the crossing. The agent stands until the host puts it within
// its radius of the link's far end; then it goes on. STEER_EARG when the
// agent is not at a link's start.
STEER_API int steer_agent_hold_link(steer_World *w, steer_Agent a);

// ---- behaviours on them -------------------------------------------------------
// Point the resource field `field` of a behaviour at a flow field
// (follow_flow's and decompose_flow's "field") or a navigation mesh
// (navigate's "navmesh"): the behaviour holds it from then on, so the host
// may free its own handle (steer_flow_free, steer_navmesh_free) at any
// time. NULL clears the field. STEER_EARG (steer_behavior_error says why)
// for a field of another kind, an unknown field or a behaviour in use as a
// brain (frozen).
STEER_API int steer_behavior_set_flow_field(steer_Behavior *b, const char *field, const steer_FlowField *f);
// The same for a navigation mesh (navigate's "navmesh").
STEER_API int steer_behavior_set_navmesh(steer_Behavior *b, const char *field, const steer_NavMesh *m);
// An agent's own area costs (navigate's "costs", the Lua `costs` and
// `exclude`): n multipliers by area index (steer_navmesh_area), each >=
// 0.001, or INFINITY for an area never entered; areas from n on keep the
// mesh's own cost. The agent's searches use them, and its look ahead
// treats an excluded area as a wall. A start or target in an excluded
// area is STEER_UNREACHABLE_START_EXCLUDED or _TARGET_EXCLUDED. The costs
// are copied; costs NULL with n 0 clears them (the mesh's own again).
// STEER_EARG (steer_behavior_error says why) for n out of 0 ..
// STEER_NAV_AREAS, a cost out of range, another field or a frozen node.
// A brain that is in use cannot change: give the agents a new brain (it
// starts with no plan, so they plan again with the new costs).
STEER_API int steer_behavior_set_nav_costs(steer_Behavior *b, const char *field, const float *costs, int n);

#ifdef __cplusplus
}
#endif

#endif
