// SPDX-License-Identifier: MIT
// mesh_link.h — off-mesh links of a navigation mesh (issue 33): jumps,
// ladders, drops, teleporters and doors, each a straight way from one
// point of the mesh to another that paths may take (mesh_link.c).
//
// A link is kept as its two ends (positions, never triangles: the
// triangles under them are found when a search asks, so a mesh whose
// triangles change keeps its links), a cost, an area, whether it runs
// both ways and whether it is enabled. Taking it costs its straight
// length (x, y) times its cost times the cost of its area under the
// search's filter (Detour's rule: area cost x length); a filter that
// excludes its area excludes the link. A search for radius r takes a
// link only when both its ends are on the mesh at least r from every
// wall (steerN_mesh_contains).
//
// Links are the one part of a mesh that changes once it is shared:
// added and enabled between ticks (never while a tick's passes read
// them); each change hashes the mesh again. They are in its bytes
// (version 3 of mesh_io.c's format: a mesh without links still writes
// version 1, or 2 with floors, bit for bit as before) and so in
// snapshots, enabled state included. Ends are located in plan (x, y); on
// a mesh of several layers each end is on the ground under it nearest
// below its z (steerN_Floor's has_z), where the stretches to and from it
// are searched (the path's own ends on the filter's floors).
#ifndef STEER_NAV_MESH_LINK_H
#define STEER_NAV_MESH_LINK_H

#include "mesh.h"

#define STEERN_LINKS_MAX 65536 // links per mesh
#define STEERN_LINK_NAME 32    // bytes of a link's name, with its terminating 0

typedef struct steerN_Link {
    double a[3],
        b[3];   // its ends, metres: x, y on the mesh's quantum grid; z as given: on a mesh of several layers, its floor
    float cost; // multiplier on its length (>= 0, finite)
    uint8_t area; // its area: the filter's cost for it multiplies, an excluded one closes it
    bool bidirectional;
    bool enabled;
    char name[STEERN_LINK_NAME]; // "" when unnamed
} steerN_Link;

typedef struct steerN_Links {
    uint32_t n, cap;
    steerN_Link *link;
} steerN_Links;

typedef enum steerN_LinkStatus {
    STEERN_LINK_OK = 0,
    STEERN_LINK_NOMEM,
    STEERN_LINK_FROM_OFF, // its first end is not on the mesh (or not a finite coordinate in range)
    STEERN_LINK_TO_OFF,   // its second end, likewise
    STEERN_LINK_BAD,      // a cost not >= 0 and finite, an area the mesh has not, a name too long
    STEERN_LINK_FULL,     // STEERN_LINKS_MAX links already
} steerN_LinkStatus;

// Add a link to a prepared mesh (its ends quantized as vertices are);
// its index into *index. The mesh is hashed again.
steerN_LinkStatus steerN_link_add(steerN_Mesh *m, const steerN_Link *l, uint32_t *index);
uint32_t steerN_link_count(const steerN_Mesh *m);
const steerN_Link *steerN_link_get(const steerN_Mesh *m, uint32_t i); // NULL when out of range
// Enable or disable link i (the mesh is hashed again); false when out of range.
bool steerN_link_enable(steerN_Mesh *m, uint32_t i, bool on);

// For mesh.c and mesh_io.c: free them, their memory, their part of the
// hash (nothing when there are none), their bytes and back (every value
// checked as steerN_link_add would, the ends aside: a mesh read is not
// yet prepared; a link whose end is off the mesh is never taken).
void steerN_links_free(steerN_Mesh *m);
size_t steerN_links_bytes(const steerN_Mesh *m);
uint64_t steerN_links_hash(const steerN_Mesh *m, uint64_t h);
struct steerS_Writer;
struct steerS_Reader;
void steerN_links_encode(const steerN_Mesh *m, struct steerS_Writer *out);
bool steerN_links_decode(struct steerS_Reader *r, steerN_Mesh *m, bool *oom);

// The last path found (steerN_mesh_path): per point, the index of the
// link whose start it is (the next point is that link's other end), or
// -1; NULL when the path crossed no link.
const int32_t *steerN_mesh_path_links(const steerN_MeshQuery *q, uint32_t *n);
// Whether the last path found is a partial way (a search over links
// stopped by its work cap, steerN_mesh_query_link_cap): its last point a
// link's far end, not the goal.
bool steerN_mesh_path_partial(const steerN_MeshQuery *q);

// Automatic jump links (nm:add_jump_links): for wall edges that face
// each other across a gap of unwalkable ground no wider than reach, links
// at points along them `spacing` apart, their ends `inset` into the mesh.
// Only between islands (ground not otherwise joined) unless same_island.
typedef struct steerN_JumpSpec {
    double reach;   // the widest gap jumped, metres (> 0)
    double spacing; // between links along an edge, metres (> 0)
    double inset;   // how far into the mesh each end lies, metres (>= 0)
    float cost;     // each link's cost multiplier
    uint8_t area;
    bool bidirectional;
    bool same_island; // also across thin obstacles inside one island
    const char *name; // each link's name (NULL: "jump")
} steerN_JumpSpec;
// Links added into *added, in a deterministic order (by wall edge, then
// along it). NOMEM or FULL may leave some added (those stay: each is a
// whole link).
steerN_LinkStatus steerN_link_add_jumps(steerN_Mesh *m, const steerN_JumpSpec *s, uint32_t *added);

// Automatic drop links (nm:add_drop_links): one-way links down from the
// ledges of a mesh with heights (a baked one) to the ground beside and
// below them. At points `spacing` apart along each wall edge, looking
// straight out (in plan, up to `reach`), the first ground found more than
// min_drop below the ledge: a link from `inset` inside the ledge to
// `inset` beyond where that ground starts, when it lies at most `drop`
// below and no wall of that ground stands between, and when the ground
// below runs under the edge along most of it (mesh_link.c's ledge_over).
// Level ground first (within min_drop of the ledge's height: a gap, a
// wall between rooms) means no drop there. Each end is moved (by at most
// inset) to where a disc of `radius` fits on its floor, or the drop is
// left out. None on a flat mesh.
#define STEERN_DROP_WINDOW 1.5 // metres either side of a point of a ledge where the ground below is looked for
#define STEERN_DROP_OPEN 0.8   // the share of that stretch the ground below must lie under
typedef struct steerN_DropSpec {
    double drop;     // the highest fall, metres (> 0)
    double min_drop; // the lowest: ground less far below is level ground, metres (> 0)
    double reach;    // how far out from the ledge the ground may start, metres (> 0)
    double spacing;  // between links along an edge, metres (> 0)
    double inset;    // how far into the ground each end lies, metres (>= 0)
    double radius;   // each end at least this far from its floor's walls (moved by at most inset), metres (>= 0)
    float cost;
    uint8_t area;
    const char *name; // each link's name (NULL: none)
} steerN_DropSpec;
// Links added into *added, in a deterministic order (by wall edge, then
// along it). NOMEM or FULL may leave some added.
steerN_LinkStatus steerN_link_add_drops(steerN_Mesh *m, const steerN_DropSpec *s, uint32_t *added);

#endif
