// SPDX-License-Identifier: MIT
// mesh_rebuild.h — inside mesh_dyn: the obstacle state and the rebuild of
// the live mesh in place (mesh_rebuild.c), shared with mesh_dyn.c (the
// obstacles, their records and bytes). Private to those two files.
//
// Slots: the live mesh's triangle t < the base's count is base triangle t
// while no region holds it; a region puts its build's triangles in the
// slots of its own base triangles (ascending), the rest after the base's
// count, region after region (its overflow); a region's slots its build
// does not fill are dead (steerN_mesh_dead: no area, no neighbours, in no
// index, skipped by every loop over triangles). Vertices likewise: the
// base's first, then each region's new ones. So the layout is a function of
// the base and the obstacles alone (a snapshot's rebuild gives the same
// numbers), a triangle no change reaches keeps its number, and the count
// of slots is the base's plus the regions' overflows (a crate pushed to
// and fro does not grow it).
#ifndef STEER_NAV_MESH_REBUILD_H
#define STEER_NAV_MESH_REBUILD_H

#include "mesh_dyn.h"
#include "mesh_geom.h"

#define STEERN_DYN_MARGIN 4 // quanta around a footprint that no region border comes within
#define STEERN_DYN_EPOCH_MASK 0xFFFFFFu

typedef struct steerN_Region { // a region's build and where it lies in the live mesh
    uint64_t key;              // its base triangles and its obstacles' ids and revisions
    steerN_Mesh *mesh;         // its build (NULL: nothing walkable left in it)
    uint32_t *tri;             // its base triangles, ascending
    uint32_t nbase;
    uint32_t over;  // the slot of its build's triangle nbase (those after it follow)
    uint32_t vat;   // its first new vertex
    uint32_t *vmap; // per vertex of its build: the live mesh's
    uint32_t from;  // (while rebuilding) the region before whose build it took, else UINT32_MAX
    bool fresh;     // (while rebuilding) its slots are written anew
} steerN_Region;

typedef struct steerN_Record { // a change: its epoch and the box it touched (metres)
    uint32_t epoch;
    float box[4];
} steerN_Record;

typedef struct steerN_MeshDyn {
    steerN_Mesh *base; // prepared, never changed
    steerN_Obstacle *obs;
    uint32_t nobs, cap_obs;
    uint32_t next_id;
    uint32_t epoch;
    steerN_Record rec[STEERN_MESH_RECORDS]; // rec[e % RECORDS]: the change of epoch e
    steerN_Region *regions;                 // the live mesh's, by their lowest base triangle
    uint32_t nregions;
    uint32_t *wends; // per base vertex: the wall edges of the base that end there
    bool base_areas; // the base has triangles of an area other than the default
    // per base triangle, kept between rebuilds (a pushed crate rebuilds every tick):
    uint32_t *comp;  // its region, or UINT32_MAX
    uint8_t *mark;   // 1 when in a region
    uint32_t *stamp; // the last (stamp_gen + obstacle) that looked at it
    uint32_t stamp_gen;
    uint32_t *marked; // the triangles marked (mark 1)
    size_t nmarked, cap_marked;
    uint32_t *queue, *order, *start;
    steerN_UpdateScratch up; // mesh_update.c's
} steerN_MeshDyn;

// The live mesh from the base and the obstacles, in place, prepared where
// it changed. On an error the mesh is as it was (but for NOMEM in the last
// step, which leaves it unprepared as a failed steerN_mesh_prepare does).
steerN_ObstacleStatus steerN_dyn_rebuild(steerN_Mesh *m);
// The state's rebuild parts made (0) or freed; d->base set already.
int steerN_dyn_init(steerN_Mesh *m, steerN_MeshDyn *d);
void steerN_dyn_fini(steerN_Mesh *m, steerN_MeshDyn *d);
size_t steerN_dyn_rebuild_bytes(const steerN_MeshDyn *d);

#endif
