// SPDX-License-Identifier: MIT
// debug.c — nav's side of steer_debug.h: the grids and flow fields a
// script made (the Lua bindings keep them in a steerN_Layers) as plain,
// read-only views, so a renderer draws them knowing nothing of nav's
// structures. Nothing here allocates or changes a grid or a field.
#include "steer_debug.h"
#include "layers.h"
#include "mesh.h"
#include "mesh_dyn.h"
#include "mesh_link.h"

#include <stddef.h>

_Static_assert(STEER_FLOW_NONE == STEERN_NONE, "steer_debug.h's STEER_FLOW_NONE is nav's STEERN_NONE");
// a mesh's links are handed out as they are kept
_Static_assert(sizeof(steer_DebugNavLink) == sizeof(steerN_Link) &&
                   offsetof(steer_DebugNavLink, to) == offsetof(steerN_Link, b) &&
                   offsetof(steer_DebugNavLink, cost) == offsetof(steerN_Link, cost) &&
                   offsetof(steer_DebugNavLink, area) == offsetof(steerN_Link, area) &&
                   offsetof(steer_DebugNavLink, bidirectional) == offsetof(steerN_Link, bidirectional) &&
                   offsetof(steer_DebugNavLink, enabled) == offsetof(steerN_Link, enabled) &&
                   offsetof(steer_DebugNavLink, name) == offsetof(steerN_Link, name),
               "steer_debug.h's steer_DebugNavLink is nav's steerN_Link");

int steer_debug_nav_grids(const struct steerN_Layers *nav) { return nav ? (int)nav->n : 0; }

static void view_grid(const steerN_Grid *g, steer_DebugGrid *out)
{
    out->nx = g->nx;
    out->ny = g->ny;
    out->origin[0] = g->origin[0];
    out->origin[1] = g->origin[1];
    out->cell = g->cell;
    out->cost = g->cost;
}

int steer_debug_nav_grid(const struct steerN_Layers *nav, int i, steer_DebugGrid *out)
{
    if (!nav || !out || i < 0 || (uint32_t)i >= nav->n) return STEER_EARG;
    const steerN_Shown *s = nav->grids[i];
    *out = (steer_DebugGrid){ .flows = (int)s->nflows };
    if (s->grid) view_grid(s->grid, out); // NULL once collected (only with its world)
    return STEER_OK;
}

int steer_debug_nav_flow(const struct steerN_Layers *nav, int i, int j, steer_DebugFlow *out)
{
    if (!nav || !out || i < 0 || (uint32_t)i >= nav->n || j < 0 || (uint32_t)j >= nav->grids[i]->nflows)
        return STEER_EARG;
    const steerN_Flow *f = nav->grids[i]->flows[j];
    *out = (steer_DebugFlow){ .dir = f->dir, .goals = f->goals, .ngoals = (int)f->ngoals };
    if (f->grid) view_grid(f->grid, &out->grid);
    return STEER_OK;
}

int steer_debug_flow_step(int dir, int *dx, int *dy)
{
    if (dir < 0 || dir >= STEERN_NONE || !dx || !dy) return STEER_EARG;
    *dx = steerN_dx[dir];
    *dy = steerN_dy[dir];
    return STEER_OK;
}

int steer_debug_nav_meshes(const struct steerN_Layers *nav) { return nav ? (int)nav->nmeshes : 0; }

void steerN_mesh_view(const steerN_Mesh *m, steer_DebugNavMesh *out)
{
    *out = (steer_DebugNavMesh){ .nvert = (int)m->nvert,
                                 .ntri = (int)m->ntri,
                                 .xy = m->xy,
                                 .tri = m->tri,
                                 .adj = m->adj,
                                 .area = m->area,
                                 .nareas = (int)m->nareas,
                                 .nobstacles = (int)steerN_mesh_obstacle_count(m),
                                 .of = m,
                                 .nlinks = (int)steerN_link_count(m),
                                 .links = m->links ? (const steer_DebugNavLink *)(const void *)m->links->link : NULL,
                                 .z = m->z,
                                 .layer = m->layer,
                                 .nlayers = (int)m->nlayers };
}

int steer_debug_nav_obstacle(const steer_DebugNavMesh *m, int i, steer_DebugNavObstacle *out)
{
    if (!m || !out || !m->of || i < 0 || i >= m->nobstacles) return STEER_EARG;
    const steerN_Obstacle *o = steerN_mesh_obstacle_at(m->of, (uint32_t)i);
    if (!o) return STEER_EARG;
    *out = (steer_DebugNavObstacle){ .n = (int)o->npt, .xy = o->xy, .area = o->area, .layer = (int)o->layer };
    // the ground by the footprint's box's centre on its layer (a blocked one's hole: the nearest ground)
    double c[2] = { ((double)o->box[0] + (double)o->box[2]) * 0.5 / STEERN_MESH_SCALE,
                    ((double)o->box[1] + (double)o->box[3]) * 0.5 / STEERN_MESH_SCALE };
    steerN_Floor f = { .layer = o->layer + 1 };
    if (m->of->z && !steerN_mesh_height(m->of, c, &f, &out->z, NULL)) out->z = 0;
    return STEER_OK;
}

int steer_debug_nav_mesh(const struct steerN_Layers *nav, int i, steer_DebugNavMesh *out)
{
    if (!nav || !out || i < 0 || (uint32_t)i >= nav->nmeshes) return STEER_EARG;
    steerN_mesh_view(nav->meshes[i], out);
    return STEER_OK;
}
