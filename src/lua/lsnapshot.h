// SPDX-License-Identifier: MIT
// lsnapshot.h — steer.load(s) and the snapshot's hooks (lsnapshot.c,
// lsnaptree.c; w:save and w:restore are declared with the world's other
// methods in lutil.h), and what they need of the other binding files: a
// world userdata with the bindings' hooks (lworld.c), the grids and flow
// fields as plain data (lsnapgrid.c).
#ifndef STEER_LSNAPSHOT_H
#define STEER_LSNAPSHOT_H

#include "lutil.h"

// A new world userdata on top, not yet holding a world; d gets the
// bindings' hooks (ud, ease, think, custom) and the host's allocator and log.
steerL_World *steerL_new_world(lua_State *L, steer_WorldDesc *d);

// Push the plain-data list of the grids the world at wi holds (w:add_grid)
// or the flow fields in the list at flows use (a list of light userdata of
// steerN_Flow, as bound in brains, or grid and field userdata), and then a
// list parallel to `flows` of {grid index, field index} pairs (field index
// 0 for a grid).
void steerL_grids_save(lua_State *L, int wi, int flows);
// Rebuild the grids of such a list (at desc); push the list of the grids'
// lists of flow field userdata (each list holds its grid userdata at index
// 0). Raises "FN: ..." on a malformed list. With `twins` (an in-place
// restore) a grid or field of this state with the serial and cells of a
// loaded one stands in its place in those lists (lsnapgrid.c), and the
// list's field `twins` notes them for steerL_grids_twin.
void steerL_grids_load(lua_State *L, int desc, const char *fn, bool twins);
// Once the restore succeeded: the twins noted in the list at twins take the
// loaded contents, and the loaded fields on a grid that has a twin move
// onto it.
void steerL_grids_twin(lua_State *L, int twins, const char *fn);
// After an in-place restore of w by another state (a mod's world, restored
// by the scenario): a live field of this state whose serial and cells are
// those of a field the world's brains follow takes that one's contents and
// its place in them (steer_world_replace_resource), its grid the costs of
// that one's grid.
void steerL_grids_twin_world(lua_State *L, steer_World *w, const char *fn);
// Then give the world at wi, once it is loaded, the walls the grids had
// added to it (not added again) and the grids it held: desc as above, the
// lists steerL_grids_load pushed at lists.
void steerL_grids_bind(lua_State *L, int wi, int desc, int lists, const char *fn);
// After w:restore exchanged the C worlds of the world userdata at a and b:
// the walls every grid either one holds had put into a are b's, and those
// it had put into b are a's (a grid's edits then move the walls of the
// world that has them).
void steerL_grids_swap_worlds(lua_State *L, int a, int b);
// The snapshot hooks of every Lua world (steer_Hooks' save_ref and
// load_ref): callbacks and flow fields as numbers, while w:save or
// steer.load runs (the world's `snap`); otherwise as the core does alone.
int steerL_hook_save_ref(void *ud, const steer_Ref *r, uint32_t *out);
int steerL_hook_load_ref(void *ud, const steer_Ref *r, uint32_t in, int *ref, void **obj);
// The flow field of a steer.flow_field userdata (for binding), or NULL (lflow.c).
const struct steerN_Flow *steerL_toflow(lua_State *L, int idx);
// Whether the value at idx is a steer.grid (lgrid.c).
bool steerL_isgrid(lua_State *L, int idx);

// Adds steer.load to the table on top (and the metatables of its byte boxes and reference holders).
void steerL_open_snapshot(lua_State *L);

#endif
