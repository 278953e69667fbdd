// SPDX-License-Identifier: MIT
// mesh.h — navigation meshes: levels of any shape as triangles, for
// agents of every size (issue 32). Three files serve it:
//   mesh.c        the mesh as data: lifecycle, memory, hash, bytes;
//   mesh_build.c  2D polygons (or a grid) -> a mesh, exactly, in integers;
//   mesh_query.c  what the mesh answers, each query with the agent's radius.
//
// The mesh is the walkable area as a constrained Delaunay triangulation of
// its boundary's own vertices (cdt.h): triangles, counter-clockwise, each
// edge i (from vertex i to vertex i + 1 mod 3) either shared with the
// neighbour adj[3 t + i] or a wall (adj -1: the boundary of the walkable
// area, an obstacle's side or the outline's). Areas (road, mud, water) are
// a number per triangle; the borders between areas are edges like any
// other (not walls). Every vertex lies on a wall, except those only area
// borders made (vwall says which).
//
// Exactness: vertices are integers (ixy, in quanta of STEERN_MESH_QUANTUM
// metres), and every decision the builder makes is an exact integer
// predicate (predicates.h), so the same input gives the same mesh, bit for
// bit, on every machine. The metre coordinates (xy) are ixy / 1000.0,
// correctly rounded, the same everywhere too. Derived data (widths, the
// locate and wall indexes) are computed from those by steerN_mesh_prepare
// with plain IEEE double arithmetic (the project builds with
// -ffp-contract=off), again the same bits everywhere; a mesh read back
// from bytes is prepared again and answers every query identically.
//
// Sharing: a mesh is immutable once prepared, so any number of threads may
// query it at once, each with its own steerN_MeshQuery (the scratch a
// search needs). It is reference counted as grids and flow fields are
// (nav.h): a made mesh starts with one reference.
#ifndef STEER_NAV_MESH_H
#define STEER_NAV_MESH_H

#include "nav.h"

#define STEERN_MESH_QUANTUM 0.001 // metres per integer unit (1 mm)
#define STEERN_MESH_SCALE 1000.0  // integer units per metre
#define STEERN_MESH_AREAS 64      // areas per mesh, the default one (0) included
#define STEERN_MESH_AREA_NAME 32  // bytes of an area's name, with its terminating 0
#define STEERN_RADIUS_MAX 1e9     // the largest agent radius a query takes, metres

typedef struct steerN_Mesh {
    atomic_int refs;    // of a mesh made by the builder or read from bytes
    uint64_t serial;    // its binding's name for it across snapshots (0: none)
    steerN_Alloc alloc; // of its arrays (they go with it in steerN_mesh_exchange)
    steerN_Alloc home;  // of this struct itself (it stays)

    // ---- the mesh (what the builder makes, what its bytes hold) ----
    uint32_t nvert, ntri;
    int64_t *ixy;    // 2 per vertex: x, y in quanta
    double *xy;      // 2 per vertex: x, y in metres (ixy / STEERN_MESH_SCALE)
    uint8_t *vwall;  // per vertex: 1 when a wall edge ends there
    uint32_t *tri;   // 3 per triangle: vertex indices, counter-clockwise
    int32_t *adj;    // 3 per triangle: the triangle across edge i, or -1 (a wall)
    uint8_t *area;   // per triangle: its area, 0 .. nareas - 1
    uint32_t nareas; // >= 1: area 0 is "default"
    char area_name[STEERN_MESH_AREAS][STEERN_MESH_AREA_NAME];
    float area_cost[STEERN_MESH_AREAS]; // metres of cost per metre (> 0, or INFINITY: excluded)
    // floors (mesh_layers.c): a baked mesh's heights, and its layers where
    // its ground lies over itself (each layer planar; seams between layers
    // are ordinary edges, their vertices shared)
    int64_t *iz;      // per vertex: the ground's height in quanta (NULL: a flat mesh, all at 0)
    double *z;        // per vertex: metres (iz / STEERN_MESH_SCALE)
    uint16_t *layer;  // per triangle: its layer, 0 .. nlayers - 1 (NULL: one layer)
    uint32_t nlayers; // >= 1
    // a baked mesh's ground heights per layer, sampled one cell apart
    // (mesh_heights.c; NULL: a point's height is its triangle's plane)
    struct steerN_HeightGrid *hgrid; // nlayers
    int32_t *hz;                     // the samples, quanta (STEERN_HZ_NONE: no ground)
    size_t nhz;
    double hcell; // metres between samples

    // ---- derived by steerN_mesh_prepare (mesh_query.c), not saved ----
    // the triangles the index grid below is sized for (0: ntri; a mesh
    // with obstacles: its base's, so that the grid stays as they move and
    // a move re-prepares only what it changed, mesh_update.c)
    uint32_t grid_tris;
    bool prepared;
    // width[3 t + i]: the diameter of the largest disc that can cross
    // triangle t between the two edges meeting at its vertex i (edges
    // i - 1 and i, Demyen & Buro's "width"); a path for radius r crosses t
    // that way only if 2 r <= width.
    double *width;
    // back[3 t + i]: which edge of the neighbour adj[3 t + i] is t's edge
    // i (0 for a wall)
    uint8_t *back;
    // per wall vertex v, for the corners a path rounds there: front[v]
    // the wall edge (3 t + i) whose nearest point is the nearest to v of
    // the walls not ending at v (the far ends of v's own walls left out;
    // UINT32_MAX: none), and front_next[v] no more than the distance to
    // the next nearest such point (other edges with the same nearest
    // point aside)
    uint32_t *front;
    float *front_next;
    // ntri: running sum of triangle areas (m^2), for random points; summed
    // from cum_stale on (>= ntri: none) when first read (steerN_mesh_areas:
    // a pushed crate does not sum the whole mesh at every move)
    double *cum_area;
    atomic_uint cum_stale;
    atomic_int cum_lock; // 1 while a reader sums
    // per index cell: no corner at a vertex in it is wider (an upper bound:
    // a whole prepare's, raised by mesh_update.c), and the largest of them
    double *corner_reach;
    double corner_reach_max;
    double bmin[2], bmax[2]; // the vertices' bounding box
    // a uniform grid over the box: per cell the triangles overlapping it
    // (locate) and the wall edges (3 t + i) near it (distances to walls)
    double bcell;
    uint32_t bnx, bny;
    uint32_t *tstart, *titem; // cell c's triangles: titem[tstart[c] .. tstart[c + 1])
    uint32_t *wstart, *witem; // cell c's wall edges, likewise
    void *aux;                // what else mesh_query.c keeps (freed by steerN_mesh_free through aux_free)
    void (*aux_free)(struct steerN_Mesh *m);
    size_t derived_bytes; // what prepare allocated, for steerN_mesh_bytes
    uint64_t prepare_id;  // one no other prepare gave (what a query's caches are kept for: mesh_reach.c)

    // of the mesh part (steerN_mesh_hash): the same bits everywhere; 0 when
    // not worked out since a change (an obstacle's: steerN_mesh_hash_known)
    uint64_t hash;

    // obstacles that come and go (mesh_dyn.h): NULL until the first; with
    // them the mesh part above is the live mesh, rebuilt at each change
    struct steerN_MeshDyn *dyn;
    // off-mesh links (mesh_link.h): NULL when it has none. Unlike the rest,
    // they change once the mesh is shared (added, enabled), between ticks only.
    struct steerN_Links *links;
} steerN_Mesh;

// m->cum_area, summed first where a change left it stale (any thread may
// ask: one sums, the others wait for it).
const double *steerN_mesh_areas(const steerN_Mesh *m);
// Whether slot t is dead: on a mesh with obstacles, a slot a rebuilt
// region freed and no triangle holds (mesh_rebuild.h), its three vertices
// one (vertex 0), area 0, no neighbours, in no index: every loop over the
// triangles skips it. Never so in a built mesh.
static inline bool steerN_mesh_dead(const steerN_Mesh *m, uint32_t t)
{
    return m->tri[3 * (size_t)t] == m->tri[3 * (size_t)t + 1];
}

// ---- mesh.c ------------------------------------------------------------

// A mesh of nvert vertices and ntri triangles with every array allocated
// (contents zero, nareas 1, area 0 "default" of cost 1), one reference.
// NULL when out of memory.
steerN_Mesh *steerN_mesh_alloc(uint32_t nvert, uint32_t ntri, const steerN_Alloc *alloc);
// The same with the vertex and triangle arrays' contents not set (the
// caller writes every item).
steerN_Mesh *steerN_mesh_alloc_unset(uint32_t nvert, uint32_t ntri, const steerN_Alloc *alloc);
void steerN_mesh_retain(steerN_Mesh *m);
void steerN_mesh_release(steerN_Mesh *m); // NULL: nothing; frees on the last
void steerN_mesh_free(steerN_Mesh *m);    // whatever its count
// The C memory it holds (for a binding that charges a script's owner).
size_t steerN_mesh_bytes(const steerN_Mesh *m);
// The hash of the mesh part (vertices, triangles, neighbours, areas and
// their names and costs; floors and height grids when it has them),
// little-endian bytes hashed as bytes.c does.
uint64_t steerN_mesh_hash(const steerN_Mesh *m);
// m->hash, or worked out when it is 0 (a mesh an obstacle changed leaves it
// so: a pushed crate does not hash the whole mesh at every move).
uint64_t steerN_mesh_hash_known(const steerN_Mesh *m);
// The area named `name` (0 .. nareas - 1), or -1.
int steerN_mesh_area(const steerN_Mesh *m, const char *name);
// A copy of m's mesh part, its floors and height grids with it (not
// prepared, no obstacles, no links), one reference; NULL when out of memory.
steerN_Mesh *steerN_mesh_clone(const steerN_Mesh *m);
// Resize the mesh part's arrays (and the heights per vertex, layers per
// triangle) to nvert vertices and ntri triangles, keeping the items both
// counts hold (mesh_dyn.c's live mesh in place): 0, or -1 when out of
// memory (m as it was). Derived data untouched.
int steerN_mesh_resize(steerN_Mesh *m, uint32_t nvert, uint32_t ntri);
// Exchange everything a and b are (mesh, floors, obstacles, links, derived
// data, allocator) but their reference counts, serials and `home` (the
// allocator of the struct itself: a mesh is freed by the one it came from): an in-place
// restore's twin (lnavmesh.c) takes the loaded mesh's contents in place.
// Neither may be in use by a query.
void steerN_mesh_exchange(steerN_Mesh *a, steerN_Mesh *b);
// Set xy from ixy (after the builder or a reader filled ixy); _from: the
// vertices from v0 on (the ones before set already), z from iz likewise.
void steerN_mesh_set_metres(steerN_Mesh *m);
void steerN_mesh_set_metres_from(steerN_Mesh *m, uint32_t v0);
// Quantize a metre coordinate: false when it is not finite or beyond the
// predicates' bound (STEERN_COORD_MAX quanta).
bool steerN_mesh_quantize(double x, int64_t *q);

// ---- capi.c (steer_nav.h) ------------------------------------------------

// nav's object inside a public handle (the behaviours' setters unbox them);
// NULL, with steer_last_error() set, for a handle that is not one of ours.
struct steer_NavMesh;
struct steer_FlowField;
steerN_Mesh *steerN_mesh_of(const struct steer_NavMesh *m, const char *fn);
steerN_Flow *steerN_flow_of(const struct steer_FlowField *f, const char *fn);
// debug.c: the mesh as steer_debug.h's read-only view (steer_debug_nav_mesh, steer_navmesh_view).
struct steer_DebugNavMesh;
void steerN_mesh_view(const steerN_Mesh *m, struct steer_DebugNavMesh *out);

// ---- mesh_layers.c -----------------------------------------------------------

#define STEERN_MESH_LAYERS 65535 // layers a mesh holds at most
// Give m heights (iz, z: zero) and, when `layers`, a layer per triangle
// (zero, nlayers unchanged). 0, or -1 when out of memory.
int steerN_mesh_alloc_floors(steerN_Mesh *m, bool layers);
void steerN_mesh_free_floors(steerN_Mesh *m);         // (steerN_mesh_free's)
size_t steerN_mesh_floor_bytes(const steerN_Mesh *m); // what they hold
// Which ground a point means on a mesh with floors: zero means any (the
// lowest-numbered triangle under the point, as steerN_mesh_locate).
typedef struct steerN_Floor {
    uint32_t layer; // 1 + the layer to keep to (0: any)
    bool has_z;     // z given: the ground under the point nearest below it (see steerN_mesh_locate_on)
    double z;
} steerN_Floor;
// The triangle holding p on the floor f names (NULL or zero: any): with a
// layer, the lowest-numbered of that layer; with a z, of the triangles
// under p, the one whose surface there is the highest at most
// STEERN_FLOOR_ABOVE above z, else the lowest; -1 when none holds p.
#define STEERN_FLOOR_ABOVE 0.5 // metres: ground this far above a point still counts as under it
int32_t steerN_mesh_locate_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *f);
// The height of the ground at p on triangle t: its layer's height grid's
// (mesh_heights.c), else its plane through its three vertices; 0 on a
// flat mesh.
double steerN_mesh_surface(const steerN_Mesh *m, uint32_t t, const double p[2]);
// The layers with ground under p in plan: how many; the lowest cap of
// them, lowest ground first (ties: by layer), into layer (0-based) and z
// (their ground's height at p, steerN_mesh_surface of each layer's
// lowest-numbered triangle holding p).
uint32_t steerN_mesh_layers_at(const steerN_Mesh *m, const double p[2], uint32_t *layer, double *z, uint32_t cap);
// The ground's height under p on the floor f names (steerN_mesh_locate_on),
// or the nearest point's when p is off the mesh; false on an empty mesh.
bool steerN_mesh_height(const steerN_Mesh *m, const double p[2], const steerN_Floor *f, double *z, uint32_t *layer);
// The walls a query on a floor counts, on a mesh of several layers (on
// one layer every wall counts): with a layer, that layer's; with a height,
// those whose ground at their nearest point lies within STEERN_FLOOR_REACH
// of it. steerN_mesh_wall_floor gives the floor whose walls a query from
// p on f counts (f's layer, or the height of p's ground there), in *out,
// or NULL (every wall) for a plain query or a mesh of one layer.
#define STEERN_FLOOR_REACH 1.0 // metres
bool steerN_mesh_wall_counts(const steerN_Mesh *m, uint32_t edge, const double q[2], const steerN_Floor *g);
const steerN_Floor *steerN_mesh_wall_floor(const steerN_Mesh *m, const double p[2], const steerN_Floor *f,
                                           steerN_Floor *out);
// Wall edge w, near the segment from a[0..1] to a[2..3] whose ground
// rises from za[0] to za[1], stands on the segment's floor: where the two
// come nearest, the wall's ground lies within STEERN_FLOOR_REACH of the
// segment's (mesh_query.c's check of a path's clearance).
bool steerN_mesh_wall_on_segment(const steerN_Mesh *m, uint32_t w, const double *a, const double *za);
// Whether triangles u and t holding p are one ground there: the same
// layer, or their surfaces at p within STEERN_FLOOR_ABOVE (a seam's two
// sides); true on a mesh of one layer.
bool steerN_mesh_same_ground(const steerN_Mesh *m, uint32_t u, uint32_t t, const double p[2]);
// The heights of the last found path's points (steerN_mesh_path_points):
// each point's on the surface of the first triangle of the corridor, from
// the previous point's on, that holds it in plan (0 on a flat mesh).
struct steerN_MeshQuery;
void steerN_mesh_path_heights(const struct steerN_MeshQuery *q, const steerN_Mesh *m, double *z);
// The same for any n points p along the corridor corr (nc triangles).
void steerN_mesh_heights_along(const steerN_Mesh *m, const double *p, uint32_t n, const int32_t *corr, uint32_t nc,
                               double *z);
// Meshes built one per layer from the same bake (part k of the bake's
// layer layer_of[k]), stacked into one: the vertices of part k get
// heights from its rings' points (bake.h: a ring's part and its points'
// z), and the walls of two parts that meet (the same two points in plan,
// heights within `climb`) become one edge, their vertices one. Part k's
// triangles are on layer part_layer[k] (out, n): k, or in a tiled bake
// the layer the pieces joined across tile lines merge into (bake.h,
// "Tiles"). NULL with err set.
struct steerN_BakeRings;
struct steerN_MeshError;
steerN_Mesh *steerN_mesh_stack(steerN_Mesh *const *parts, uint32_t n, const struct steerN_BakeRings *r,
                               const uint32_t *layer_of, double climb, const steerN_Alloc *alloc,
                               struct steerN_MeshError *err, uint32_t *part_layer);

// ---- mesh_heights.c ----------------------------------------------------------

// Layer k's grid of heights: nx * ny samples, row by row, from hz[at];
// sample (i, j) is the ground's height at (x0 + i hcell, y0 + j hcell).
typedef struct steerN_HeightGrid {
    double x0, y0;
    uint32_t nx, ny;
    size_t at;
} steerN_HeightGrid;
#define STEERN_HZ_NONE INT32_MIN // a sample where the layer has no ground
#define STEERN_HZ_MAX (1u << 28) // samples a mesh holds at most
// Give m grids of n samples in all (contents zero). 0, or -1 when out of memory.
int steerN_mesh_alloc_heights(steerN_Mesh *m, size_t n);
void steerN_mesh_free_heights(steerN_Mesh *m);         // (steerN_mesh_free's)
size_t steerN_mesh_height_bytes(const steerN_Mesh *m); // what they hold
// The ground's height at p on layer k, bilinear between the four samples
// round p that have ground (weights renormalized); false where none has
// (or m has no grids).
bool steerN_mesh_grid_height(const steerN_Mesh *m, uint32_t k, const double p[2], double *z);
// After a bake: m's grids from the bake's samples (r; m's layer k from
// the bake's layers layer_of[j] of the nparts parts j with part_layer[j]
// == k, steerN_mesh_stack's), each made the exact height of the soup's
// surface nearest below it (s), carried out past the layer's edges, and
// m's vertex heights read from them. 0, or -1 when out of memory.
struct steerN_BakeSpec;
int steerN_mesh_bake_heights(steerN_Mesh *m, const struct steerN_BakeSpec *s, const struct steerN_BakeRings *r,
                             const uint32_t *layer_of, const uint32_t *part_layer, uint32_t nparts);
// The height (quanta) of a vertex at p on layer k of m (prepared): the
// ground's there as steerN_mesh_height gives it on that layer (its grid's,
// else the plane of its triangle there, else the nearest point's); false
// when m has no ground on that layer (*iz untouched).
bool steerN_mesh_vertex_height(const steerN_Mesh *m, uint32_t k, const double p[2], int64_t *iz);
// The grids as bytes and back (mesh_io.c's version 3; steerN_mesh_hash hashes them).
struct steerS_Writer;
void steerN_mesh_encode_heights(const steerN_Mesh *m, struct steerS_Writer *out);
struct steerS_Reader;
void steerN_mesh_decode_heights(struct steerS_Reader *r, steerN_Mesh *m);

// ---- mesh_io.c -------------------------------------------------------------

// The mesh as bytes (nm:save, a snapshot's resource), little-endian, the
// same on every machine; and back (not yet prepared), every index, count
// and triangle checked: NULL with r failed and its message set when the
// bytes are not a mesh, or with *oom set.
struct steerS_Writer;
struct steerS_Reader;
void steerN_mesh_encode(const steerN_Mesh *m, struct steerS_Writer *out);
steerN_Mesh *steerN_mesh_decode(struct steerS_Reader *r, const steerN_Alloc *alloc, bool *oom);
// The same, refusing a mesh with obstacles (version 2: mesh_dyn.h): its base.
steerN_Mesh *steerN_mesh_decode_base(struct steerS_Reader *r, const steerN_Alloc *alloc, bool *oom);

// ---- mesh_build.c ------------------------------------------------------

// What a mesh is made of: rings of points (closed implicitly: the last
// point joins the first). Every ring has a role:
//   STEERN_RING_OUTLINE   walkable ground. Outline rings combine even-odd:
//                         a ring inside another is a hole, a ring inside
//                         that an island (either winding);
//   STEERN_RING_OBSTACLE  carved out of the ground (the union of all
//                         obstacles, either winding; they may touch,
//                         overlap, cross each other and the outline);
//   1 .. nareas - 1       the walkable ground inside the ring gets that
//                         area; later rings win where they overlap.
// Obstacles are carved where their winding numbers, each ring first
// turned counter-clockwise, sum to nonzero: the union of simple rings,
// and every lobe of a self-crossing one. An area ring holds what it winds
// around (nonzero, either winding). A ring left with fewer than 3 points
// or all on one line once quantized encloses nothing and is dropped.
enum { STEERN_RING_OUTLINE = -1, STEERN_RING_OBSTACLE = -2 };
typedef struct steerN_MeshSpec {
    const double *xy;         // 2 per point, metres
    const uint32_t *ring_end; // ring k is points [ring_end[k - 1], ring_end[k]) (ring_end[-1] = 0)
    const int32_t *ring_role; // per ring
    uint32_t nrings;
    uint32_t nareas;               // >= 1
    const char *const *area_names; // nareas names (area 0's is "default"), each < STEERN_MESH_AREA_NAME bytes
    const float *area_costs;       // nareas costs (NULL: all 1)
} steerN_MeshSpec;

typedef enum steerN_MeshStatus {
    STEERN_MESH_OK = 0,
    STEERN_MESH_NOMEM,
    STEERN_MESH_BADPOINT, // a coordinate not finite or too far out (ring, point name it)
    STEERN_MESH_BADRING,  // a ring of fewer than 3 points, or a bad role (ring names it)
    STEERN_MESH_BADAREA,  // nareas out of 1 .. STEERN_MESH_AREAS, an area's name too long or cost not > 0 (ring: the
                          // area)
    STEERN_MESH_EMPTY,    // nothing walkable is left (not an error for every caller)
    STEERN_MESH_INTERNAL, // a broken invariant, reported rather than crashed on
    STEERN_MESH_BADBAKE,  // a bake's input, or the bake itself, failed (bake.h; the message says why)
} steerN_MeshStatus;

typedef struct steerN_MeshError {
    steerN_MeshStatus status;
    uint32_t ring, point; // what the error names (the point within its ring)
    char message[160];    // in words, "" when OK
} steerN_MeshError;

// Build the mesh (not yet prepared). NULL on an error, which err tells.
// Robust on real input: duplicate and collinear points, touching,
// overlapping and crossing rings, slivers; crossings are found exactly and
// snap-rounded to the quantum grid without creating new crossings.
steerN_Mesh *steerN_mesh_build(const steerN_MeshSpec *spec, const steerN_Alloc *alloc, steerN_MeshError *err);
// From a grid: its open cells are the ground, blocked ones carved out
// (outlines traced along cell edges, collinear runs merged); cells of a
// cost other than 1 become areas named "cost<c>" with that cost (at most
// STEERN_MESH_AREAS - 1 distinct costs: more is an error).
steerN_Mesh *steerN_mesh_from_grid(const steerN_Grid *g, const steerN_Alloc *alloc, steerN_MeshError *err);

// ---- mesh_query.c ------------------------------------------------------

// Compute the derived data (widths, indexes, areas). 0, or -1 when out of
// memory. Queries need a prepared mesh.
int steerN_mesh_prepare(steerN_Mesh *m);

// What a query may cross and at what price.
typedef struct steerN_MeshFilter {
    double radius;                        // the agent's radius: ways narrower than 2 radius are closed
    const float *cost;                    // per area (nareas): a multiplier, INFINITY excluded; NULL: the mesh's own
    const struct steerN_Floor *from, *to; // a path's ends' floors (NULL: any; mesh_layers.c)
} steerN_MeshFilter;

// An agent's own area costs (navigate's `costs`, Detour's dtQueryFilter):
// a multiplier per area for areas 0 .. n - 1, INFINITY for one never
// entered (excluded), the mesh's own cost for the areas from n on. By area
// index, so it means what it says on the mesh whose names it was made
// from. Immutable once made and reference counted, in libc's memory (a
// behaviour holding it may outlive any world).
#define STEERN_COST_MIN 1e-3 // the least multiplier an area's cost takes (nm:path's and navigate's)
typedef struct steerN_AreaCosts {
    atomic_int refs;
    uint32_t n;
    float cost[STEERN_MESH_AREAS];
} steerN_AreaCosts;
// Whether n costs are ones a filter takes (n <= STEERN_MESH_AREAS, each
// >= STEERN_COST_MIN or INFINITY); false with *bad the first that is not
// (n when n is too large).
bool steerN_costs_ok(const float *cost, uint32_t n, uint32_t *bad);
// A new one with one reference (costs checked by the caller), or NULL when out of memory.
steerN_AreaCosts *steerN_costs_new(const float *cost, uint32_t n);
void steerN_costs_retain(steerN_AreaCosts *c);
void steerN_costs_release(steerN_AreaCosts *c); // NULL: nothing; frees on the last
// The costs a query on m uses (c's where it has one, m's elsewhere), for
// steerN_MeshFilter.cost: c's own when it has one for every area of m (a
// query reads only m's areas), else made in out; NULL (the mesh's own)
// when c is NULL.
const float *steerN_costs_apply(const steerN_Mesh *m, const steerN_AreaCosts *c, float out[STEERN_MESH_AREAS]);

// A search's scratch, one per thread; grows with the meshes it searches.
typedef struct steerN_MeshQuery steerN_MeshQuery;
steerN_MeshQuery *steerN_mesh_query_new(const steerN_Alloc *alloc);
void steerN_mesh_query_free(steerN_MeshQuery *q);
// Whether the query keeps what its long searches work out of where a
// search for their radius can go (mesh_reach.c; on by default): later
// searches find the same paths faster, but the work they report
// (steerN_mesh_path_work) then depends on the searches before. A world,
// whose path budget charges that work and must run on after a load as it
// would have, turns it off.
void steerN_mesh_query_keep_reach(steerN_MeshQuery *q, bool keep);
// The most work (steerN_mesh_path_work) a search over off-mesh links
// does before it answers with the best way it has found (0, the default:
// no cap). A path over many links searches a stretch per pair of links
// its bound cannot rule out, so it may cost many plain searches; a world
// caps each at its path budget (navigate.c), as Detour answers with a
// partial path when its nodes run out (the way found is then made again,
// stretch by stretch: a capped search does at most about twice the cap's
// work, and one stretch more). The way is then the cheapest of
// those found (the straight one, or over the links settled), still whole;
// stopped before any way to the goal was known, a partial way: to the far
// end of the link reached that comes out nearest the goal (navigate plans on from there,
// as from any last corner that is not the goal). Searches without links
// are never capped.
void steerN_mesh_query_link_cap(steerN_MeshQuery *q, uint32_t work);

typedef enum steerN_PathStatus {
    STEERN_PATH_FOUND = 0,
    STEERN_PATH_WORKING,   // a sliced search has work left (steerN_mesh_path_step)
    STEERN_PATH_START_OFF, // the start is not on the mesh (nor within radius of it)
    STEERN_PATH_GOAL_OFF,  // the goal is not on the mesh (nor within radius of it)
    STEERN_PATH_NARROW,    // a way exists, but none wide enough for the radius
    STEERN_PATH_NONE,      // no way at all (separate islands, or excluded areas between)
    STEERN_PATH_NOMEM,
} steerN_PathStatus;

// The triangle holding p (on an edge: the lowest-numbered of those
// holding it), or -1.
int32_t steerN_mesh_locate(const steerN_Mesh *m, const double p[2]);
// The point of the mesh nearest p where a disc of `radius` fits (as near
// as the mesh allows when none does), its triangle and the distance from p.
// False when the mesh is empty.
bool steerN_mesh_nearest(const steerN_Mesh *m, const double p[2], double radius, double out[2], int32_t *tri,
                         double *dist);
// The distance from p to the nearest wall (INFINITY on an empty mesh),
// with the wall's nearest point and a unit normal that points into the
// mesh (from that point toward p when p is on the mesh, from p toward it
// when p is off) when those are not NULL.
double steerN_mesh_wall_distance(const steerN_Mesh *m, const double p[2], double at[2], double normal[2]);
// The point nearest p of the ground the costs do not exclude (INFINITY;
// NULL: the mesh's), when p is on the mesh and one lies within `within`
// of it (p itself when it is on such ground): false otherwise.
// p is placed on the floor f names (NULL: any).
bool steerN_mesh_nearest_open(const steerN_Mesh *m, const float *cost, const double p[2], const steerN_Floor *f,
                              double within, double out[2]);
// True when p is on the mesh and at least radius from every wall.
bool steerN_mesh_contains(const steerN_Mesh *m, const double p[2], double radius);
// The same on the floor f names (mesh_layers.c's steerN_Floor; NULL: as
// above): p is placed on that ground, and only the walls of that floor
// count (steerN_mesh_wall_floor).
bool steerN_mesh_nearest_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *f, double radius,
                            double out[2], int32_t *tri, double *dist);
double steerN_mesh_wall_distance_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *f, double at[2],
                                    double normal[2]);
bool steerN_mesh_contains_on(const steerN_Mesh *m, const double p[2], const steerN_Floor *f, double radius);

// Find a path: the corridor of triangles and the string-pulled way through
// it, corners rounded by the radius. A sliced search: begin, then step
// with a budget of work (triangles expanded) until it is not WORKING;
// steerN_mesh_path does all three at once.
steerN_PathStatus steerN_mesh_path_begin(steerN_MeshQuery *q, const steerN_Mesh *m, const double from[2],
                                         const double to[2], const steerN_MeshFilter *f);
steerN_PathStatus steerN_mesh_path_step(steerN_MeshQuery *q, uint32_t budget, uint32_t *used);
steerN_PathStatus steerN_mesh_path(steerN_MeshQuery *q, const steerN_Mesh *m, const double from[2], const double to[2],
                                   const steerN_MeshFilter *f);
// The same on the triangles alone, its links left out (mesh_link.c's
// steerN_mesh_path searches the way over links with it, stretch by stretch).
steerN_PathStatus steerN_mesh_path_plain(steerN_MeshQuery *q, const steerN_Mesh *m, const double from[2],
                                         const double to[2], const steerN_MeshFilter *f);
// The triangles the last steerN_mesh_path expanded (both searches when it
// went on from where the agent fits), with the triangles a long search's
// floods from the goal went through (is the goal shut in?): a budget's
// measure of its work. A step's `used` counts them alike.
uint32_t steerN_mesh_path_work(const steerN_MeshQuery *q);
// The last found path: n points (x, y pairs: from, corners, to) and its
// corridor (the triangles from the start's to the goal's), and its length.
const double *steerN_mesh_path_points(const steerN_MeshQuery *q, uint32_t *n);
const int32_t *steerN_mesh_path_corridor(const steerN_MeshQuery *q, uint32_t *n);
double steerN_mesh_path_length(const steerN_MeshQuery *q);

// Walk the straight segment from -> to on the mesh: 0 when it stays on the
// mesh (clear), else 1 with the first wall point hit, that wall's unit
// normal (toward the mesh) and the fraction of the segment walked; -1 when
// `from` is off the mesh. Areas the filter excludes count as walls. On a
// mesh of several layers the walk starts on the ground the filter's
// `from` floor names (NULL: the lowest-numbered triangle under `from`).
int steerN_mesh_raycast(const steerN_Mesh *m, const double from[2], const double to[2], const steerN_MeshFilter *f,
                        double hit[2], double normal[2], double *fraction);
// Move from -> to along the surface, sliding along the walls it meets
// (Detour's moveAlongSurface), keeping `radius` from them where the mesh
// allows; the point reached.
void steerN_mesh_move_along(const steerN_Mesh *m, const double from[2], const double to[2], double radius,
                            double out[2]);
// From on the floor f names (NULL: any); the triangle reached (-1 on an
// empty mesh), whose surface gives the point's height.
int32_t steerN_mesh_move_along_on(const steerN_Mesh *m, const double from[2], const struct steerN_Floor *f,
                                  const double to[2], double radius, double out[2]);
// A point uniformly distributed over the mesh's area from three uniform
// numbers in [0, 1): u picks the triangle (by area), s and t the point.
// Returns the point's triangle (its surface gives the height).
uint32_t steerN_mesh_random_point(const steerN_Mesh *m, double u, double s, double t, double out[2]);

#endif
