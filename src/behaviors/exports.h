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
const struct steerN_Mesh *steerB_world_navmesh(const steer_World *w, uint32_t i);
// Agent a's corridor for drawing, from its first navigate node: its
// position, the corners it keeps ahead and, when those stop short of the
// goal, a fresh plan from the last to the goal; *n points (x, y pairs) in
// *out, allocated with libc (the caller frees). 1 with a corridor, 0 when
// the agent has no navigate node or no plan, -1 out of memory.
int steerB_navigate_path(const steer_World *w, steer_Agent a, double **out, uint32_t *n);

#endif
