// SPDX-License-Identifier: MIT
// mesh_dyn.h — obstacles that come and go on a navigation mesh (issue 33,
// item 4): nm:add_obstacle, obstacle:move, obstacle:remove, and what the
// agents following a plan on the mesh need to know of the changes.
//
// A mesh with obstacles keeps the mesh it was built as (the base, prepared,
// never changed) and its obstacles in the order they were added. The live
// mesh (the steerN_Mesh every holder sees) is a function of those two
// alone: the base triangles no obstacle comes near, each in its own slot
// (its base number), and per region (a connected set of base triangles
// that some obstacle's footprint, grown by a margin, touches) the exact
// build (mesh_build.c) of that region with the obstacles in it carved or
// re-labelled, in the slots of the region's own base triangles and, for
// what it needs beyond them, after the base's (mesh_rebuild.h: a move
// renumbers nothing it does not change; slots a region leaves empty are
// dead, steerN_mesh_dead). A region's
// border is made of base edges that no footprint comes within the margin
// of, so the region's build keeps them as they are and the stitch to the
// triangles outside is exact (checked; where a build moved one, the region
// grows across it and is built again). So the same obstacles give the same
// bits whatever the history of adds, moves and removes, and a snapshot
// saves the base and the obstacles.
//
// Floors (a baked mesh, mesh_layers.c): an obstacle stands on one layer of
// the base (the one named when it is added, else the ground under its
// footprint's centre) and changes only that layer: only that layer's
// triangles join its region, regions never span two layers, and a region
// whose build would move an edge it shares with another layer (a seam: a
// stair's foot or head, a bridge's end) is refused (STEERN_OBST_SEAM, the
// mesh as it was). The live mesh keeps the base's layers and height grids:
// a region's triangles get its layer, its new vertices the height of the
// base's ground under them on that layer (steerN_mesh_vertex_height).
//
// A change applies at once (the caller's moment: between ticks, or in a
// think or event callback, never inside the steer pass), rewrites the
// live mesh's changed slots in place and re-prepares it where the change
// reaches (mesh_update.c: the same bits as a
// whole prepare; the mesh's index grid is sized for the base's triangles,
// grid_tris, so that it stays as obstacles move). Each change bumps the mesh's epoch and records the box it
// touched (old and new footprint); an agent holding corners planned at an
// older epoch re-plans when its way crosses one of the boxes recorded
// since (steerN_mesh_way_changed).
#ifndef STEER_NAV_MESH_DYN_H
#define STEER_NAV_MESH_DYN_H

#include "mesh.h"

#define STEERN_OBSTACLE_POINTS 4096 // points of one obstacle's polygon at most
#define STEERN_OBSTACLES 65536      // obstacles of one mesh at most
#define STEERN_MESH_RECORDS 64      // changes an agent can be behind and still only check their boxes

typedef enum steerN_ObstacleStatus {
    STEERN_OBST_OK = 0,
    STEERN_OBST_NOMEM,
    STEERN_OBST_BADPOINT, // a coordinate not finite, or beyond what a mesh stores
    STEERN_OBST_BADSHAPE, // fewer than 3 points, or all on one line once quantized
    STEERN_OBST_BADAREA,  // an area that is not one of the mesh's (1 .. nareas - 1)
    STEERN_OBST_GONE,     // no obstacle of that id (removed, or never added)
    STEERN_OBST_LIMIT,    // too many obstacles or points
    STEERN_OBST_INTERNAL, // a region's build failed (the mesh is as it was)
    STEERN_OBST_SEAM,     // its footprint cuts where its layer meets another (keep it to one floor)
    STEERN_OBST_BADLAYER, // a layer the mesh does not have
} steerN_ObstacleStatus;

enum { STEERN_OBST_BLOCKED = -1 }; // the area of an obstacle that carves its footprint out

// One obstacle as the mesh keeps it (read-only for callers).
typedef struct steerN_Obstacle {
    uint32_t id;    // 1, 2, ... in the order of adding, never reused
    int32_t area;   // STEERN_OBST_BLOCKED, or the area it re-labels
    uint32_t npt;   // points of its polygon
    double *xy;     // 2 per point, metres, where it is now
    int64_t box[4]; // its quantized footprint's box (x0, y0, x1, y1), quanta
    uint32_t rev;   // moves so far (a region's cached build names it)
    uint32_t layer; // the base's layer it stands on (0 on a mesh of one layer)
} steerN_Obstacle;

// Add a polygon (n points, metres, either winding; it may cross itself,
// walls and other obstacles) as an obstacle: *id its handle. The mesh is
// rebuilt under it and re-prepared before this returns. On a mesh of
// several layers it stands on the layer floor f names (mesh.h's
// steerN_Floor: a layer, or a height) under the centre of its footprint's
// box, f NULL or zero: the lowest-numbered triangle's there (off the
// mesh: the nearest point's); it keeps that layer when moved.
struct steerN_Floor;
steerN_ObstacleStatus steerN_obstacle_add(steerN_Mesh *m, const double *xy, uint32_t n, int32_t area,
                                          const struct steerN_Floor *f, uint32_t *id);
// Move obstacle id by (dx, dy) metres (in plan, on its layer).
steerN_ObstacleStatus steerN_obstacle_move(steerN_Mesh *m, uint32_t id, double dx, double dy);
steerN_ObstacleStatus steerN_obstacle_remove(steerN_Mesh *m, uint32_t id);
// A circle's footprint: the polygon of STEERN_CIRCLE_SIDES sides round it
// (the sides touch the circle), the same bits on every machine, into out
// (2 per point).
#define STEERN_CIRCLE_SIDES 16
void steerN_obstacle_circle(const double center[2], double radius, double out[2 * STEERN_CIRCLE_SIDES]);
// The quantized box of n points (x0, y0, x1, y1, quanta); false when a
// point does not quantize (mesh_obst.c, as the circle).
bool steerN_obstacle_box(const double *xy, uint32_t n, int64_t box[4]);
// Whether n points enclose anything once quantized (3 not on one line).
bool steerN_obstacle_encloses(const double *xy, uint32_t n);
// The obstacle of that id, or NULL (removed, never added).
const steerN_Obstacle *steerN_obstacle_get(const steerN_Mesh *m, uint32_t id);
// The mesh's obstacles in the order they were added: their number, and the i-th.
uint32_t steerN_mesh_obstacle_count(const steerN_Mesh *m);
const steerN_Obstacle *steerN_mesh_obstacle_at(const steerN_Mesh *m, uint32_t i);
// A sentence for a status ("" for OK).
const char *steerN_obstacle_status_text(steerN_ObstacleStatus s);

// The mesh's epoch: 0 until its first obstacle change, then one more per
// change (modulo 2^24, so that an agent's memory holds it in a float).
uint32_t steerN_mesh_epoch(const steerN_Mesh *m);
// Whether the way (n points, x y pairs: where the agent stands, then its
// corners) of an agent of `radius` planned at epoch `seen` crosses a box a
// change since then touched; true too when more changes than the mesh
// records have happened since (the agent cannot know: it plans again).
bool steerN_mesh_way_changed(const steerN_Mesh *m, uint32_t seen, const float *way, uint32_t n, float radius);

// Memory the obstacle state holds (the base mesh included), for
// steerN_mesh_bytes.
size_t steerN_mesh_dyn_bytes(const steerN_Mesh *m);
// Free it (steerN_mesh_free).
void steerN_mesh_dyn_free(steerN_Mesh *m);
// Obstacle section of the bytes (mesh_io.c, versions 4 and 6): the base mesh, the epoch and
// its records, the obstacles; read back onto a fresh mesh made from the
// base, which is rebuilt with them (NULL, r failed, on bad bytes).
struct steerS_Writer;
struct steerS_Reader;
void steerN_mesh_dyn_encode(const steerN_Mesh *m, struct steerS_Writer *out);
steerN_Mesh *steerN_mesh_dyn_decode(struct steerS_Reader *r, uint32_t version, const steerN_Alloc *alloc, bool *oom);

#endif
