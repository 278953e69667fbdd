// SPDX-License-Identifier: MIT
// exports.h — what the behaviours give the layers above them besides the
// kinds' table: a host kind's entry and the flow family's resource. It
// needs trees as data only (src/core/tree.h), not the world, so the Lua
// bindings include it and nothing of the core's insides.
#ifndef STEER_EXPORTS_H
#define STEER_EXPORTS_H

#include "../core/tree.h"

// The steerB_Kind of a host kind (host.c).
const void *steerB_host_kind(const steer_HostKind *k);
// Why steer_host_kind_new refuses desc, as a sentence in buf (len bytes):
// which check failed; NULL when it takes it.
const char *steerB_host_desc_error(const steer_HostBehaviorDesc *desc, char *buf, size_t len);

// The flow family (follow_flow.c): point a follow_flow or decompose_flow
// behaviour at its field, which it references until it is freed or bound
// to another (src/nav/nav.h).
struct steerN_Flow;
void steerB_flow_bind(steer_Behavior *b, const struct steerN_Flow *f);
// Their `field`, a resource of this kind.
extern const steerB_ResourceKind steerB_flow_resource;

// navigate (navigate.c): its `navmesh`, a resource of this kind (a
// steerN_Mesh, src/nav/mesh.h), which saves itself in snapshots.
extern const steerB_ResourceKind steerB_navmesh_resource;
// Its `costs`: the agent's own area costs (a steerN_AreaCosts), made by the
// binding from the script's `costs` and `exclude` (steerL_navigate_costs).
extern const steerB_ResourceKind steerB_navcosts_resource;
// The meshes attached to world w (w:add_navmesh), kept by the world so that
// a snapshot carries them: add m (1 when it is new there, the world taking
// a reference; 0 when it, or a mesh of the same hash, is there already;
// STEER_ENOMEM), and the i-th of them (NULL past the last).
struct steerN_Mesh;
int steerB_world_add_navmesh(steer_World *w, struct steerN_Mesh *m);
// While set (on this thread; NULL: unset), every mesh a snapshot's load
// reads is handed to fn first: fn returns the mesh to use in its place
// (with a reference for the load, having taken the read one's contents:
// steerN_mesh_exchange) or NULL to keep it. The Lua binding's in-place
// restore sets it around its load (lnavmesh.c's twins).
void steerB_set_mesh_twins(struct steerN_Mesh *(*fn)(void *ud, struct steerN_Mesh *m), void *ud);
const struct steerN_Mesh *steerB_world_navmesh(const steer_World *w, uint32_t i);
// Agent a's corridor for drawing, from its first navigate node: its
// position, the corners it keeps ahead and, when those stop short of the
// goal, a fresh plan from the last to the goal; *n points (x, y pairs) in
// *out, allocated with libc (the caller frees). 1 with a corridor, 0 when
// the agent has no navigate node or no plan, -1 out of memory.
int steerB_navigate_path(const steer_World *w, steer_Agent a, double **out, uint32_t *n);
// The link agent a is at or crossing (its first navigate node with one):
// the node's mesh, and the link's index into *index; NULL when none.
const struct steerN_Mesh *steerB_navigate_link_of(const steer_World *w, steer_Agent a, uint32_t *index);

// Formations (formation.c, issue 35): a formation is a resource of this
// kind (formation_slot's `formation`), which saves itself in snapshots. Its
// members are agent handles sorted by id, each with its slot; the anchor
// moves once a tick in formation_slot's serve hook. The functions that
// take a world read its agents' positions (to assign the slots).
typedef struct steerB_Formation steerB_Formation;
extern const steerB_ResourceKind steerB_formation_resource;
#define STEERB_FORMATION_CUSTOM 255 // the pattern of a shape the script gives (ox, oy below)
#define STEERB_FORMATION_WIDE 254   // the narrow shape of a formation that never narrows
#define STEERB_FORMATION_FILES 253  // ... of one that narrows to as many files as the way's free width allows
// A new formation (line, spacing 2, least total distance, anchor at the
// origin heading +x, placed at its first member when nothing placed it),
// one reference, the caller's; NULL out of memory. alloc NULL: libc.
steerB_Formation *steerB_formation_new(steer_AllocFn alloc, void *alloc_ud);
void steerB_formation_release(steerB_Formation *f);
// Add agent a of world w (STEER_ESTALE: not a live agent of w; STEER_EARG:
// a member already, or a custom shape without its offsets), remove it (STEER_EARG: not a member), or change the
// pattern (a SteerUPattern or STEERB_FORMATION_CUSTOM; w NULL: assign
// later); a custom shape gives the offsets of the new number of members
// in ox, oy (a removal without them drops the member's slot, the others
// keeping theirs). Each assigns every slot again; STEER_ENOMEM.
int steerB_formation_add(steerB_Formation *f, const steer_World *w, steer_Agent a, const float *ox, const float *oy);
int steerB_formation_remove(steerB_Formation *f, const steer_World *w, steer_Agent a, const float *ox, const float *oy);
int steerB_formation_reshape(steerB_Formation *f, const steer_World *w, int pattern, const float *ox, const float *oy);
// spacing (> 0; else kept) and assignment mode (a SteerUAssignMode; < 0 kept),
// applied at the next assignment.
void steerB_formation_set(steerB_Formation *f, float spacing, int mode);
// The shape it narrows to in narrow places (a SteerUPattern, or
// STEERB_FORMATION_WIDE: never); a narrowed formation given another forms
// up again (w NULL: assign later). STEER_ENOMEM.
int steerB_formation_set_narrow(steerB_Formation *f, const steer_World *w, int narrow);
// The navigation mesh (a steerN_Mesh, held; NULL: none) the anchor finds
// its way to its target on; the way is found again at the next tick.
void steerB_formation_set_navmesh(steerB_Formation *f, void *mesh);
void *steerB_formation_navmesh(const steerB_Formation *f);
void steerB_formation_set_leader(steerB_Formation *f, steer_Agent leader); // STEER_NO_AGENT: none
void steerB_formation_set_target(steerB_Formation *f, const float *p);     // 3 floats; NULL: none
// Place the anchor (pos: 3 floats) and turn it (heading: x, y); NULL keeps either.
void steerB_formation_set_anchor(steerB_Formation *f, const float *pos, const float *heading);
typedef struct steerB_FormationInfo {
    int pattern, mode;
    float spacing;
    steer_Agent leader;
    bool has_target;
    float target[3], pos[3], vel[3], head[2];
    uint32_t n;
    int narrow;    // a SteerUPattern or STEERB_FORMATION_WIDE
    bool narrowed; // its slots are the narrow shape's now
} steerB_FormationInfo;
void steerB_formation_info(const steerB_Formation *f, steerB_FormationInfo *out);
steer_Agent steerB_formation_member(const steerB_Formation *f, uint32_t i); // by id; STEER_NO_AGENT past the last
// Member a's slot point, false when a is no member.
bool steerB_formation_slot_of(const steerB_Formation *f, steer_Agent a, float out[3]);
// Member a's slot index (its place in the pattern, from 0), -1 when a is no member.
int steerB_formation_slot_index(const steerB_Formation *f, steer_Agent a);
// Attach f to world w (1 new, 0 there already, STEER_ENOMEM), the i-th of
// w's formations (NULL past the last), and agent a's slot by its brain's
// first formation_slot node's formation, else the first of w's
// formations that has it (false: none).
int steerB_world_add_formation(steer_World *w, steerB_Formation *f);
steerB_Formation *steerB_world_formation(const steer_World *w, uint32_t i);
bool steerB_agent_slot(const steer_World *w, steer_Agent a, float out[3]);

#endif
