// SPDX-License-Identifier: MIT
// layers.h — what a viewer draws of navigation: the grids and flow fields
// a script made, as the Lua bindings keep them (src/lua/lgrid.c) and the
// viewer reads them (src/view/scene.c) each frame without calling Lua.
#ifndef STEER_NAV_LAYERS_H
#define STEER_NAV_LAYERS_H

#include "nav.h"

// A grid and the flow fields alive on it, and the grids attached to a
// world (w:add_grid): kept by the Lua bindings (src/lua/lgrid.c), read by
// the viewer each frame without calling into Lua. A field is listed from
// its creation until it is collected; a world holds its grids (and keeps
// them alive) until it is collected itself.
typedef struct steerN_Shown {
    const steerN_Grid *grid;
    const steerN_Flow **flows;
    uint32_t nflows, cap;
} steerN_Shown;
// ... and the navigation meshes attached (w:add_navmesh), as the C world
// lists them (it holds each as long as it lives, and its snapshots carry
// them: steerL_nav_list_meshes copies the list after an add and a load).
struct steerN_Mesh;
typedef struct steerN_Layers {
    const steerN_Shown **grids;
    uint32_t n, cap;
    const struct steerN_Mesh **meshes;
    uint32_t nmeshes, cap_meshes;
} steerN_Layers;

#endif
