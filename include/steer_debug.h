// SPDX-License-Identifier: MIT
// steer_debug.h — what a renderer needs to draw steer's debug view: the
// agents' columns as read-only arrays, the static shapes, the paths of the
// brains in use, each agent's brain node by node with what it did last
// tick (a context's interest and danger maps too), the formations' anchors
// and slots, and the navigation grids and flow fields a script made. The viewer
// (src/view/) draws through this header and steer.h alone; a C or C++ game
// draws the same picture in its own renderer.
//
// A header of its own rather than more of steer_draw.h: steer_draw.h is a
// command list the host owns and scripts fill, while this one hands out
// the world's own data, as Box2D's b2World_Draw and DetourCrowd's debug
// info do. Nothing here draws, allocates or changes the world.
//
// Lifetime: every pointer handed out (arrays, names, points, notes' names,
// grid cells) is a read-only view into the world, its brains or the
// navigation layers. It stays valid until the world changes: the next
// steer_world_step, a spawn, a removal, steer_world_set_record,
// steer_world_restore or a change to the grid or field it came from. Copy
// what you keep longer. During a tick (from a host callback) the world is
// half updated: the calls that read it return STEER_EBUSY then.
#ifndef STEER_DEBUG_H
#define STEER_DEBUG_H

#include "steer.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- agents --------------------------------------------------------------

// The agents as arrays, one entry per agent in storage order (index i of
// every array is the same agent). Vectors are one array per axis; the z
// arrays are NULL in a 2D world.
typedef struct steer_DebugAgents {
    int count;   // entries in each array: steer_world_count() plus `removed`
    int removed; // agents removed since the last step, which keep their entry until it
                 // (steer_debug_agent_handle gives STEER_NO_AGENT for them)
    int dim;     // 2 or 3
    const float *position[3];
    const float *velocity[3];
    const float *heading[3]; // unit
    const float *force[3];   // the steering force of the last tick
    const float *mass;
    const float *max_speed;
    const float *max_force;
    const float *radius;
    const uint16_t *tag; // tag id, 0 untagged (steer_debug_tag_name)
} steer_DebugAgents;

// What the debug view knows of one agent.
typedef struct steer_DebugAgent {
    int index;     // its entry in the steer_DebugAgents arrays
    int nodes;     // nodes in its brain, depth-first (0: no brain)
    bool recorded; // the world records node outputs (steer_world_set_record)
    double sense;  // the largest neighbour radius its brain reads (0: none)
} steer_DebugAgent;

// The agents' arrays into *out; STEER_EBUSY during a tick.
STEER_API int steer_debug_agents(const steer_World *w, steer_DebugAgents *out);
// The handle of entry i; STEER_NO_AGENT for a removed agent's entry or an index out of range.
STEER_API steer_Agent steer_debug_agent_handle(const steer_World *w, int i);
// The name of tag id `tag` (0 or unknown: NULL), valid while the world lives.
STEER_API const char *steer_debug_tag_name(const steer_World *w, int tag);
// Agent a's entry and brain; STEER_ESTALE for a removed agent (out untouched).
STEER_API int steer_debug_agent(const steer_World *w, steer_Agent a, steer_DebugAgent *out);

// ---- brains, node by node -------------------------------------------------

// What a node's output says of its children (steer_DebugNode.note_kind).
typedef enum steer_DebugNote {
    STEER_NOTE_NONE = 0,  // nothing to say
    STEER_NOTE_WON,       // a choosing combiner (priority, dither) passed on its `winner`'s force
    STEER_NOTE_NO_WINNER, // a choosing combiner none of whose children gave a force
    STEER_NOTE_CUT,       // a sum was truncated, or the root's force is above max_force
    STEER_NOTE_QUIET      // a child that gave no force: a priority's loser, or not run
} steer_DebugNote;

// One node of an agent's brain and what it did in the last tick. Nodes are
// numbered in depth-first order, the root 0, children after their parent.
#define STEER_DEBUG_ROUTE 8 // corners of a way ahead a debug view is given

typedef struct steer_DebugNode {
    int index;                // 0 .. steer_DebugAgent.nodes - 1
    int parent;               // the parent's index, -1 for the root
    int depth;                // 0 for the root
    int children;             // how many children it has
    const char *name;         // its name, or its kind's when it has none
    const char *kind;         // its kind's name ("seek", "priority", ...)
    bool weighted;            // its parent weighs its children (blend, truncated_sum, dither): `weight` is that
    float weight;             // the weight or probability its parent gives it
    bool recorded;            // force is the recorded output (the world records node outputs)
    float force[3];           // its output in the last tick (zero when it did not run or nothing is recorded)
    int winner;               // STEER_NOTE_WON: the child that won (a node index), else -1
    int winner_child;         // its place among the node's children, from 1 (0 without a winner)
    float raw;                // a sum combiner: the length of its weighted sum before truncation (else 0)
    int note_kind;            // steer_DebugNote
    char note[64];            // what a debug view writes beside the node ("" when nothing)
    int target_kind;          // its target field: STEER_TARGET_POINT or STEER_TARGET_AGENT, else STEER_TARGET_SLOT
    float target[3];          // a point target
    steer_Agent target_agent; // an agent target (may have been removed since)
    const float *points;      // its path or patrol route, 3 floats a point (NULL: none)
    int npoints;
    // the way ahead the node keeps for this agent (navigate's next corners,
    // 3 floats a point, the agent's position first), and its state in words in note
    float route[3 * (STEER_DEBUG_ROUTE + 1)];
    int nroute;
} steer_DebugNode;

// Node i of agent a's brain into *out: STEER_ESTALE for a removed agent,
// STEER_EARG when i is not below steer_DebugAgent.nodes.
STEER_API int steer_debug_node(const steer_World *w, steer_Agent a, int i, steer_DebugNode *out);
// A path or patrol route: n points, 3 floats each.
typedef void (*steer_DebugPathFn)(void *ud, const float *xyz, int n) STEER_NOEXCEPT;
// Calls fn for every path and patrol route of every brain in use, brain by brain, nodes in order.
STEER_API int steer_debug_paths(const steer_World *w, steer_DebugPathFn fn, void *ud);
// Calls fn for every agent's way ahead (a navigate's corners: the agent's
// position, then up to STEER_DEBUG_ROUTE corners), agent by agent in
// storage order; agents with none are skipped.
STEER_API int steer_debug_routes(const steer_World *w, steer_DebugPathFn fn, void *ud);

// ---- context steering: the maps behind a turn --------------------------------
// A context node (steer.context) fills an interest map and a danger map
// over a ring of directions each tick and picks one direction from both.
// A world that records (steer_world_set_record) keeps each agent's last
// maps beside its node outputs, at no cost to a world that does not.

#define STEER_DEBUG_SLOTS 64 // the most directions a context's ring has

typedef struct steer_DebugContext {
    int node;      // the context node's index in the brain (steer_debug_node)
    int slots;     // directions in its ring: slot i at 2 pi i / slots from +x, counter-clockwise, in the xy plane
    bool recorded; // the maps below are last tick's (false: the world does not record, all zero)
    float interest[STEER_DEBUG_SLOTS]; // per slot: the strongest wish (0..1 times its weight), before the mask
    float danger[STEER_DEBUG_SLOTS];   // per slot: the strongest fear, the same way
    uint64_t masked;                   // bit i: slot i was masked (danger above the lowest danger plus `threshold`)
    int nmasked;                       // masked slots
    int chosen;                        // the slot chosen, -1 when none was (no interest: the agent braked)
    float direction[3];                // the unit direction steered toward: the chosen slot refined between its
                                       // neighbours (at most half a slot off it); zero when none was chosen
    float speed;                       // the speed it asked for in that direction
} steer_DebugContext;

// Agent a's context node `node` (its index in the brain, or -1: its brain's
// first context node) as the last tick left it, into *out. STEER_ESTALE
// for a removed agent, STEER_EARG when the node is no context (or the
// brain has none: -1), STEER_EBUSY during a tick.
STEER_API int steer_debug_context(const steer_World *w, steer_Agent a, int node, steer_DebugContext *out);

// ---- formations --------------------------------------------------------------
// The world's formations (steer.formation), in the order they joined it:
// each anchor, and each member with the slot it holds.

typedef struct steer_DebugFormation {
    float anchor[3];    // the anchor's position
    float heading[3];   // its unit heading in the xy plane (the frame's forward; left is its quarter turn)
    float velocity[3];  // its velocity
    int members;        // members, each holding one slot (steer_debug_formation_slot)
    float spacing;      // metres between neighbouring slots
    steer_Agent leader; // the agent it follows, STEER_NO_AGENT: none
    bool has_target;    // it goes to target
    float target[3];
} steer_DebugFormation;

typedef struct steer_DebugSlot {
    steer_Agent member; // the member holding it
    int slot;           // its index in the pattern, from 0 (a pattern function's i - 1)
    float point[3];     // where it lies in the world now (the anchor plus its heading's turn of the slot's offset)
} steer_DebugSlot;

// The world's formations.
STEER_API int steer_debug_formations(const steer_World *w);
// Formation i into *out; STEER_EARG out of range, STEER_EBUSY during a tick.
STEER_API int steer_debug_formation(const steer_World *w, int i, steer_DebugFormation *out);
// Member k (0 .. members - 1, by handle id) of formation i and its slot into *out; STEER_EARG out of range.
STEER_API int steer_debug_formation_slot(const steer_World *w, int i, int k, steer_DebugSlot *out);

// ---- static geometry -------------------------------------------------------

typedef struct steer_DebugShape {
    steer_Shape shape; // its handle
    int kind;          // steer_ShapeKind
    float a[3];        // circle: centre; segment: one end; box: lower corner; plane: a point on it
    float b[3];        // segment: the other end; box: upper corner; plane: its unit normal
    float r;           // circle: radius
} steer_DebugShape;

// Shape slots (live shapes and freed ones) for steer_debug_shape.
STEER_API int steer_debug_shape_slots(const steer_World *w);
// Slot i's shape into *out: 1 for a live shape, 0 for a freed slot, STEER_EARG out of range.
STEER_API int steer_debug_shape(const steer_World *w, int i, steer_DebugShape *out);
// The box a view fits at its first frame: per axis the world's bounds where
// it has them, else the span of its agents and shapes (planes left out),
// -10 to 10 m when there is none, and at least 1 m wide; axes past the
// world's dim are -10 to 10. STEER_EARG for a NULL world or lo, hi.
STEER_API int steer_debug_extent(const steer_World *w, double lo[3], double hi[3]);

// ---- navigation: grids and flow fields --------------------------------------
// A Lua world's grids (w:add_grid) and the flow fields on them, as
// steer_lua_nav (steer_lua.h) hands them out; NULL layers hold none.

struct steerN_Layers;

#define STEER_FLOW_NONE 8 // a flow cell without a direction (goal, blocked or unreachable)

typedef struct steer_DebugGrid {
    int nx, ny;        // cells along x and y
    double origin[2];  // the lower left corner
    double cell;       // a cell's side, metres
    const float *cost; // nx * ny costs, row y at cost + y * nx; INFINITY blocked. NULL: the grid was collected
    int flows;         // flow fields built on it
} steer_DebugGrid;

typedef struct steer_DebugFlow {
    steer_DebugGrid grid; // the grid it is built on
    const uint8_t *dir;   // per cell (as cost): the neighbour to go to (steer_debug_flow_step), or
                          // STEER_FLOW_NONE; NULL until the field is built
    const double *goals;  // its goal points, x, y pairs
    int ngoals;
} steer_DebugFlow;

// The grids the layers hold (0 for NULL).
STEER_API int steer_debug_nav_grids(const struct steerN_Layers *nav);
// Grid i into *out; STEER_EARG out of range.
STEER_API int steer_debug_nav_grid(const struct steerN_Layers *nav, int i, steer_DebugGrid *out);
// Flow field j of grid i into *out; STEER_EARG out of range.
STEER_API int steer_debug_nav_flow(const struct steerN_Layers *nav, int i, int j, steer_DebugFlow *out);
// The cell step of flow direction dir (0..7; 0..3 along an axis, 4..7 diagonal); STEER_EARG otherwise.
STEER_API int steer_debug_flow_step(int dir, int *dx, int *dy);

// ---- navigation meshes --------------------------------------------------------
// A Lua world's navigation meshes (w:add_navmesh), alive as long as the world.

// An off-mesh link of a mesh (steer_nav.h's steer_navmesh_add_link, Lua's nm:add_link).
typedef struct steer_DebugNavLink {
    double from[3], to[3]; // its ends, metres
    float cost;            // multiplier on its length
    uint8_t area;
    bool bidirectional; // else only from -> to
    bool enabled;
    char name[32]; // "" when unnamed
} steer_DebugNavLink;

typedef struct steer_DebugNavMesh {
    int nvert, ntri;
    const double *xy; // 2 per vertex: x, y in metres
    // 3 per triangle: vertex indices, counter-clockwise. On a mesh with
    // obstacles a slot no triangle holds (the rebuilt ground needed fewer
    // there: docs/api.md, "Obstacles") has its three the same, area 0 and
    // no neighbours: skip it (tri[3 t] == tri[3 t + 1])
    const uint32_t *tri;
    const int32_t *adj;  // 3 per triangle: the triangle across edge i (vertex i to i + 1), -1 a wall
    const uint8_t *area; // per triangle: its area, 0 (the default) to nareas - 1
    int nareas;
    int nobstacles;                  // obstacles on it (nm:add_obstacle): steer_debug_nav_obstacle
    const struct steerN_Mesh *of;    // the mesh itself, for steer_debug_nav_obstacle
    int nlinks;                      // its off-mesh links
    const steer_DebugNavLink *links; // nlinks of them (NULL when none)
    // floors (a mesh baked from level geometry): the ground's height at each
    // vertex in metres (NULL: a flat mesh, every vertex at 0), each
    // triangle's layer, 0 to nlayers - 1 (NULL: one layer), and the layers
    const double *z;
    const uint16_t *layer;
    int nlayers;
} steer_DebugNavMesh;

// An obstacle on a mesh: its polygon where it is now, and what it does.
typedef struct steer_DebugNavObstacle {
    int n;            // points
    const double *xy; // 2 per point, metres
    int area;         // -1: blocked (carved out); else the area it gives the ground
    int layer;        // the layer it stands on (0-based; 0 on a mesh of one)
    double z;         // the height of its layer's ground by its footprint (0 on a flat mesh), to draw it there
} steer_DebugNavObstacle;
// Obstacle i (0 .. nobstacles - 1, in the order added) of a mesh's view into *out; STEER_EARG out of range.
STEER_API int steer_debug_nav_obstacle(const steer_DebugNavMesh *m, int i, steer_DebugNavObstacle *out);

// The meshes the layers hold (0 for NULL).
STEER_API int steer_debug_nav_meshes(const struct steerN_Layers *nav);
// Mesh i into *out; STEER_EARG out of range.
STEER_API int steer_debug_nav_mesh(const struct steerN_Layers *nav, int i, steer_DebugNavMesh *out);

#ifdef __cplusplus
}
#endif

#endif
