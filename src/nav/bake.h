// SPDX-License-Identifier: MIT
// bake.h — navigation meshes baked from level geometry (triangle soup):
// Recast finds the walkable ground (bake.cpp), the exact builder
// (mesh_build.c) makes the mesh of it, the same as one built from rings.
//
// The bake, in Recast's steps: every triangle facing up no steeper than
// `slope` is ground, every other one solid; the soup is rasterized into
// columns of cells `cell` metres wide and cell / 2 high; ground under a
// ceiling lower than `height`, ledges (a drop of more than `climb` next to
// it) and low obstacles' tops within `climb` are filtered; the cells that
// are left make one region per connected piece (pieces under 64 cells
// dropped), whose outline and holes (Recast's contours, simplified to
// within 1.3 cells) are the mesh's outline rings (even-odd: a hole, merged
// into its outline or not, is a hole). The walkable area is NOT
// eroded by any radius: steer's queries take the agent's radius, so one
// mesh serves every agent size.
//
// Several floors: where the walkable ground lies over itself in plan (a
// bridge, a room over a room, a stair), the regions are layers, each
// planar (floors() in bake.cpp), the rings say their layer, and the mesh
// is each layer's built alone, stacked (mesh_layers.c). Every ring point
// keeps the ground's height.
//
// Tiles: a level over STEERN_BAKE_ONE_TILE columns (or any, given a
// tile) is baked a tile at a time (bake_tile in bake.cpp), each tile's
// heightfield holding a border of STEERN_BAKE_BORDER columns round it and
// freed before the next: the memory is a tile's, not the level's. Each
// tile's floors are pieces of their own (the bake's layers, numbered on
// from the last tile's), built alone; its rings run straight along its
// edges where the ground goes on, and get the points the next tile's
// rings have there (seams() in bake.cpp), so that the stack joins the two
// sides' walls into edges as it joins floors. The stack then merges the
// pieces joined across tile lines into the mesh's layers, as floors()
// merges regions in a tile (steerN_bake_merge: lowest first, never two
// pieces that overlap in plan or stand side by side out of reach), so a
// floor that goes on across tiles is one layer. A level of one tile
// bakes as before tiles.
//
// The bake runs Recast's float code: it may differ between machines and
// compilers by a cell here and there. The mesh it gives is plain data:
// saved (nm:save(), steer_navmesh_save) it loads bit-exact everywhere.
#ifndef STEER_NAV_BAKE_H
#define STEER_NAV_BAKE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct steerN_Mesh;
struct steerN_Alloc;
struct steerN_MeshError;

#define STEERN_BAKE_MAX_CELLS (1u << 26)   // columns of the heightfield (8192 x 8192)
#define STEERN_BAKE_MAX_TRIS 8000000u      // triangles of a soup
#define STEERN_BAKE_MAX_VERTS 8000000u     // and its vertices
#define STEERN_BAKE_MAX_COORD 1e6          // metres from the origin, each coordinate
#define STEERN_BAKE_ONE_TILE (512u * 512u) // automatic tiles: a level of at most these columns bakes as one
#define STEERN_BAKE_TILE 256               // automatic tiles: else tiles of 256 x 256 columns
#define STEERN_BAKE_MIN_TILE 32            // a tile's side, columns, at least
#define STEERN_BAKE_BORDER 8               // columns round a tile that its heightfield also holds
#define STEERN_BAKE_MAX_LAYERS 65535u      // layers of a bake (mesh.h's STEERN_MESH_LAYERS)
#define STEERN_BAKE_NO_SAMPLE 0xffffu      // a height grid's sample where the layer has no ground

typedef struct steerN_BakeSpec {
    const double *xyz;   // 3 per vertex, metres, z up
    uint32_t nverts;     //
    const uint32_t *tri; // 3 per triangle, 0-based vertex indices
    uint32_t ntris;
    double height; // the agent's height: ground under a lower ceiling is not walkable (> 0)
    double climb;  // the step it climbs (>= 0)
    double slope;  // the steepest walkable slope, degrees (0 .. 90)
    double cell;   // cell size, metres; 0: the default, steerN_bake_cell
    double tile;   // a tile's side, metres (at least STEERN_BAKE_MIN_TILE cells); 0: automatic
} steerN_BakeSpec;

// What the bake gives: outline rings in the x, y plane (malloc'd; free with
// steerN_bake_rings_free).
typedef struct steerN_BakeRings {
    double *xy;
    double *z; // per point: the ground's height there, metres
    uint32_t *ring_end;
    uint32_t *ring_layer; // per ring: its layer, 0 .. nlayers - 1
    uint32_t nrings, npoints, nlayers;
    // the ground's height per layer at the centres of the heightfield's
    // columns (Recast's span tops, a cell high at most above the ground;
    // mesh_heights.c makes them exact): layer k's box of columns is
    // grid_box[4 k ..] (first x, first y, nx, ny), its samples nx * ny
    // from grid_at[k] in grid_y, row by row, each a span's top in cells,
    // grid_z0 + y * ch metres, or STEERN_BAKE_NO_SAMPLE where the layer
    // has no ground (a column beside it on another layer, joined to it
    // across a seam, counts as its own). (Cells, not metres: 2 bytes a
    // sample, where a level's samples outnumber its tiles' spans.)
    double grid_x0, grid_y0; // metres: the centre of column (0, 0)
    double grid_z0;          // metres: the height of a span's top at y = 0
    uint32_t *grid_box;
    size_t *grid_at;
    uint16_t *grid_y;
    double cell;      // the cell size used
    double ch;        // the cells' height
    int width, depth; // the heightfield's columns along x and y
    // tiles (0 and NULL for a bake in one tile): a tile's side in columns,
    // the tiles along x; per layer its tile (ty * tiles_x + tx) and its
    // lowest span's top (cells); the pairs of layers of one tile that may
    // not share a layer of the mesh (floors(): they overlap in plan or
    // stand side by side out of reach), 2 a pair
    uint32_t tile, tiles_x;
    uint32_t *layer_tile, *layer_low;
    uint32_t *clash;
    size_t nclash;
} steerN_BakeRings;

// The default cell size: height / 10 (0.2 m for a 2 m agent), no larger
// than the climb (a step is a cell or more), no smaller than 1 cm.
double steerN_bake_cell(double height, double climb);
// Whether this build bakes (Recast was found when it was configured).
int steerN_bake_available(void);
// The walkable area of the soup as rings: 0, or -1 with msg (msg_n bytes)
// saying why. The spec's numbers are checked by the caller (steerN_mesh_bake).
int steerN_bake_rings(const steerN_BakeSpec *spec, steerN_BakeRings *out, char *msg, size_t msg_n);
void steerN_bake_rings_free(steerN_BakeRings *r);

// Regions merged into layers (floors() in bake.cpp: a tile's monotone
// regions; steerN_mesh_stack: a tiled bake's pieces): seeds taken lowest
// first (low, then id), each layer grown through neighbours, lowest first,
// taking each that clashes with nothing already in it. nei and ovl: the
// pairs (a * n + b) that neighbour and that clash, sorted, each once, both
// ways round. layer: per region, its layer out; heap: room for n; order:
// room for n keys. The count of layers.
int steerN_bake_merge(int n, const int *low, const int64_t *nei, size_t nn, const int64_t *ovl, size_t nov, int *layer,
                      int *heap, int64_t *order);
// Keys sorted, each once (qsort): the count left.
size_t steerN_keys_uniq(int64_t *p, size_t k);
// The first of sorted keys p[0 .. k) not below key.
size_t steerN_keys_first(const int64_t *p, size_t k, int64_t key);

// The whole bake: checks the spec (every index, every coordinate), bakes
// and builds the mesh (not yet prepared). NULL with err->message set.
// (Declared with struct tags: bake.cpp, C++, includes this header, not mesh.h.)
struct steerN_Mesh *steerN_mesh_bake(const steerN_BakeSpec *spec, const struct steerN_Alloc *alloc,
                                     struct steerN_MeshError *err);

#ifdef __cplusplus
}
#endif

#endif
