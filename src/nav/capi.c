// SPDX-License-Identifier: MIT
// capi.c — steer_nav.h: grids, flow fields and navigation meshes for C
// hosts, over nav's own structures (nav.h, mesh.h). Each public object is
// a small box whose first member is `lib` (the boundary's check, base.h)
// around a reference to nav's object.
#include "steer_nav.h"

#include "../core/base.h"
#include "../core/bytes.h"
#include "bake.h"
#include "mesh.h"
#include "mesh_dyn.h"
#include "mesh_link.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)STEER_PATH_FOUND == (int)STEERN_PATH_FOUND &&
                   (int)STEER_PATH_START_OFF == (int)STEERN_PATH_START_OFF &&
                   (int)STEER_PATH_GOAL_OFF == (int)STEERN_PATH_GOAL_OFF &&
                   (int)STEER_PATH_NARROW == (int)STEERN_PATH_NARROW && (int)STEER_PATH_NONE == (int)STEERN_PATH_NONE,
               "steer_nav.h's path statuses are mesh.h's");
_Static_assert(STEER_RING_OUTLINE == STEERN_RING_OUTLINE && STEER_RING_OBSTACLE == STEERN_RING_OBSTACLE,
               "steer_nav.h's ring roles are mesh.h's");
_Static_assert(STEER_NAV_AREAS == STEERN_MESH_AREAS, "steer_nav.h's area count is mesh.h's");

struct steer_Grid {
    const void *lib;
    steerN_Grid *g;
};
struct steer_FlowField {
    const void *lib;
    steerN_Flow *f;
};
struct steer_NavMesh {
    const void *lib;
    steerN_Mesh *m;
};
struct steer_NavQuery {
    const void *lib;
    steerN_MeshQuery *q;
};

#define GRID(g, fail) STEERA_GUARD(g, "a grid from steer_grid_new", fail)
#define FLOW(f, fail) STEERA_GUARD(f, "a flow field from steer_flow_new", fail)
#define MESH(m, fail) STEERA_GUARD(m, "a navigation mesh from steer_navmesh_new", fail)
#define QUERY(q, fail) STEERA_GUARD(q, "a query from steer_navquery_new", fail)

static bool finite2(const double p[2]) { return isfinite(p[0]) && isfinite(p[1]); }
// A point argument: not NULL, finite.
#define POINT(p, fail)                                                          \
    do {                                                                        \
        STEERA_NONNULL(p, "a point (2 doubles)", fail);                         \
        if (!finite2(p)) {                                                      \
            steerA_refuse_why("%s: argument '%s' is not finite", __func__, #p); \
            return fail;                                                        \
        }                                                                       \
    } while (0)

steerN_Mesh *steerN_mesh_of(const struct steer_NavMesh *m, const char *fn)
{
    return steerA_ours(m, fn, "m", "a navigation mesh from steer_navmesh_new") ? m->m : NULL;
}

steerN_Flow *steerN_flow_of(const struct steer_FlowField *f, const char *fn)
{
    return steerA_ours(f, fn, "f", "a flow field from steer_flow_new") ? f->f : NULL;
}

// An agent's radius: 0 to STEERN_RADIUS_MAX metres.
static bool radius_ok(double r, const char *fn, const char *what)
{
    if (r >= 0 && r <= STEERN_RADIUS_MAX) return true;
    steerA_refuse_why("%s: %s expected a radius from 0 to %g metres", fn, what, STEERN_RADIUS_MAX);
    return false;
}

// ---- grids ------------------------------------------------------------------

int steer_grid_new(int nx, int ny, double cell, const double origin[2], steer_Grid **out)
{
    STEERA_NONNULL(out, "a place for the grid", STEER_EARG);
    *out = NULL;
    if (nx < 1 || ny < 1 || (double)nx * (double)ny > (double)(1 << 24)) {
        steerA_refuse_why("steer_grid_new: %d x %d cells (1 to 2^24 in all)", nx, ny);
        return STEER_EARG;
    }
    if (!(cell >= 1e-6 && cell <= 1e30)) {
        steerA_refuse_why("steer_grid_new: argument 'cell' expected a side in metres from 1e-6 to 1e30");
        return STEER_EARG;
    }
    double o[2] = { 0, 0 };
    if (origin) {
        POINT(origin, STEER_EARG);
        o[0] = origin[0];
        o[1] = origin[1];
    }
    steer_Grid *g = malloc(sizeof *g);
    if (!g) return STEER_ENOMEM;
    g->lib = &steerA_lib;
    if (!(g->g = steerN_grid_new(nx, ny, cell, o, NULL))) {
        free(g);
        return STEER_ENOMEM;
    }
    *out = g;
    return STEER_OK;
}

void steer_grid_free(steer_Grid *g)
{
    if (!g) return;
    GRID(g, );
    steerN_grid_release(g->g);
    g->lib = NULL;
    free(g);
}

int steer_grid_set_cost(steer_Grid *g, int x, int y, double cost)
{
    GRID(g, STEER_EARG);
    if (!steerN_inside(g->g, x, y)) {
        steerA_refuse_why("steer_grid_set_cost: cell (%d, %d) is outside the grid (%d x %d)", x, y, g->g->nx, g->g->ny);
        return STEER_EARG;
    }
    if (!(cost == INFINITY || (cost >= 1e-6 && cost <= 1e30))) {
        steerA_refuse_why("steer_grid_set_cost: argument 'cost' expected 1e-6 to 1e30, or INFINITY (blocked)");
        return STEER_EARG;
    }
    steerN_set_cost(g->g, x, y, (float)cost);
    return STEER_OK;
}

double steer_grid_cost(const steer_Grid *g, int x, int y)
{
    GRID(g, 0);
    if (!steerN_inside(g->g, x, y)) return INFINITY;
    return g->g->cost[(size_t)y * (size_t)g->g->nx + (size_t)x];
}

// Copy n points (x, y pairs) into a caller's array of cap, and the count.
static void give_points(const double *p, uint32_t np, double *points, int cap, int *n)
{
    *n = (int)np;
    size_t k = np < (uint32_t)(cap > 0 ? cap : 0) ? np : (size_t)(cap > 0 ? cap : 0);
    if (points && k) memcpy(points, p, sizeof *p * 2 * k);
}

#define COUNT(points, cap, n)                                                                                        \
    do {                                                                                                             \
        STEERA_NONNULL(n, "a place for the count", STEER_EARG);                                                      \
        if (cap < 0 || (cap > 0 && !points)) {                                                                       \
            steerA_refuse_why("%s: points NULL with cap %d (give an array of cap points, or cap 0)", __func__, cap); \
            return STEER_EARG;                                                                                       \
        }                                                                                                            \
    } while (0)

int steer_grid_path(steer_Grid *g, const double from[2], const double to[2], double *points, int cap, int *n,
                    double *cost)
{
    GRID(g, STEER_EARG);
    POINT(from, STEER_EARG);
    POINT(to, STEER_EARG);
    COUNT(points, cap, n);
    double c = 0;
    int r = steerN_path(g->g, from, to, &c);
    if (r < 0) return STEER_ENOMEM;
    if (cost) *cost = r ? c : INFINITY;
    if (!r) {
        *n = 0;
        return STEER_OK;
    }
    give_points(g->g->path, g->g->npath, points, cap, n);
    return STEER_OK;
}

// ---- flow fields --------------------------------------------------------------

// Each goal finite and in an open cell of g.
static bool goals_ok(const steerN_Grid *g, const double *goals, int n, const char *fn)
{
    for (int i = 0; i < n; i++) {
        int x, y;
        if (!finite2(goals + 2 * i) || !steerN_cell_of(g, goals + 2 * i, &x, &y) || !steerN_open(g, x, y)) {
            steerA_refuse_why("%s: goal %d (%g, %g) is not in an open cell of the grid", fn, i, goals[2 * i],
                              goals[2 * i + 1]);
            return false;
        }
    }
    return true;
}

int steer_flow_new(steer_Grid *g, const double *goals, int n, steer_FlowField **out)
{
    STEERA_NONNULL(out, "a place for the field", STEER_EARG);
    *out = NULL;
    GRID(g, STEER_EARG);
    STEERA_NONNULL(goals, "n goals (x, y pairs)", STEER_EARG);
    if (n < 1 || n > 1000000) {
        steerA_refuse_why("steer_flow_new: argument 'n' expected 1 to 1000000 goals, got %d", n);
        return STEER_EARG;
    }
    if (!goals_ok(g->g, goals, n, "steer_flow_new")) return STEER_EARG;
    steer_FlowField *f = malloc(sizeof *f);
    if (!f) return STEER_ENOMEM;
    f->lib = &steerA_lib;
    if (!(f->f = steerN_flow_new(g->g))) {
        free(f);
        return STEER_ENOMEM;
    }
    if (steerN_flow_build(f->f, goals, (uint32_t)n)) {
        steer_flow_free(f);
        return STEER_ENOMEM;
    }
    *out = f;
    return STEER_OK;
}

void steer_flow_free(steer_FlowField *f)
{
    if (!f) return;
    FLOW(f, );
    steerN_flow_release(f->f);
    f->lib = NULL;
    free(f);
}

int steer_flow_set_goal(steer_FlowField *f, const double goal[2])
{
    FLOW(f, STEER_EARG);
    POINT(goal, STEER_EARG);
    if (!goals_ok(f->f->grid, goal, 1, "steer_flow_set_goal")) return STEER_EARG;
    return steerN_flow_set_goal(f->f, goal) ? STEER_ENOMEM : STEER_OK;
}

int steer_flow_refresh(steer_FlowField *f)
{
    FLOW(f, STEER_EARG);
    return steerN_flow_refresh(f->f) ? STEER_ENOMEM : STEER_OK;
}

int steer_flow_sample(const steer_FlowField *f, const double p[2], double dir[2], double *left)
{
    FLOW(f, STEER_EARG);
    POINT(p, STEER_EARG);
    STEERA_NONNULL(dir, "a place for the direction", STEER_EARG);
    double l, goal[2];
    steerN_flow_sample(f->f, p, dir, &l, goal);
    if (left) *left = l;
    return STEER_OK;
}

// ---- navigation meshes ----------------------------------------------------------

// Box a built mesh (one reference, taken over), prepared and hashed.
static int give_mesh(steerN_Mesh *m, steer_NavMesh **out)
{
    steer_NavMesh *b = malloc(sizeof *b);
    if (!b || steerN_mesh_prepare(m)) {
        free(b);
        steerN_mesh_release(m);
        return STEER_ENOMEM;
    }
    m->hash = steerN_mesh_hash(m);
    b->lib = &steerA_lib;
    b->m = m;
    *out = b;
    return STEER_OK;
}

int steer_navmesh_new(const steer_NavMeshDesc *d, steer_NavMesh **out)
{
    STEERA_NONNULL(out, "a place for the mesh", STEER_EARG);
    *out = NULL;
    STEERA_NONNULL(d, "a steer_NavMeshDesc", STEER_EARG);
    if (d->nrings < 1 || !d->xy || !d->ring_end || !d->ring_role) {
        steerA_refuse_why("steer_navmesh_new: the desc needs nrings >= 1 with xy, ring_end and ring_role");
        return STEER_EARG;
    }
    if (d->nareas < 1 || d->nareas > STEER_NAV_AREAS) {
        steerA_refuse_why("steer_navmesh_new: nareas %d (1 to %d)", d->nareas, STEER_NAV_AREAS);
        return STEER_EARG;
    }
    const char *names[STEER_NAV_AREAS];
    for (int i = 0; i < d->nareas; i++) {
        names[i] = d->area_names ? d->area_names[i] : i == 0 ? "default" : NULL;
        size_t len = names[i] ? strlen(names[i]) : 0;
        if (len < 1 || len >= STEERN_MESH_AREA_NAME) {
            steerA_refuse_why("steer_navmesh_new: area %d's name must have 1 to %d bytes", i,
                              STEERN_MESH_AREA_NAME - 1);
            return STEER_EARG;
        }
        if (d->area_costs && !(d->area_costs[i] > 0.0f)) {
            steerA_refuse_why("steer_navmesh_new: area %d's cost must be > 0 (INFINITY: never entered)", i);
            return STEER_EARG;
        }
    }
    for (int k = 0; k < d->nrings; k++) {
        int32_t role = d->ring_role[k];
        if (role != STEER_RING_OUTLINE && role != STEER_RING_OBSTACLE && (role < 1 || role >= d->nareas)) {
            steerA_refuse_why("steer_navmesh_new: ring %d's role %d is no outline, obstacle or area", k, (int)role);
            return STEER_EARG;
        }
        if (k && d->ring_end[k] < d->ring_end[k - 1]) {
            steerA_refuse_why("steer_navmesh_new: ring_end decreases at ring %d", k);
            return STEER_EARG;
        }
    }
    steerN_MeshSpec spec = { .xy = d->xy,
                             .ring_end = d->ring_end,
                             .ring_role = d->ring_role,
                             .nrings = (uint32_t)d->nrings,
                             .nareas = (uint32_t)d->nareas,
                             .area_names = names,
                             .area_costs = d->area_costs };
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_build(&spec, NULL, &err);
    if (!m) {
        if (err.status == STEERN_MESH_NOMEM) return STEER_ENOMEM;
        steerA_refuse_why("steer_navmesh_new: %s", err.message[0] ? err.message : "nothing walkable");
        return STEER_EARG;
    }
    return give_mesh(m, out);
}

int steer_navmesh_bake(const steer_NavBakeDesc *d, steer_NavMesh **out)
{
    STEERA_NONNULL(out, "a place for the mesh", STEER_EARG);
    *out = NULL;
    STEERA_NONNULL(d, "a steer_NavBakeDesc", STEER_EARG);
    if (d->nverts < 3 || d->ntris < 1 || !d->xyz || !d->tri) {
        steerA_refuse_why("steer_navmesh_bake: the desc needs nverts >= 3 and ntris >= 1 with xyz and tri");
        return STEER_EARG;
    }
    steerN_BakeSpec spec = { .xyz = d->xyz,
                             .nverts = (uint32_t)d->nverts,
                             .tri = d->tri,
                             .ntris = (uint32_t)d->ntris,
                             .height = d->height > 0 || d->height < 0 ? d->height : 2,
                             .climb = d->climb,
                             .slope = d->slope > 0 || d->slope < 0 ? d->slope : 45,
                             .cell = d->cell,
                             .tile = d->tile };
    // (the tile's check is the Lua binding's: before the bake, with or without Recast)
    double cell = d->cell > 0 ? d->cell : steerN_bake_cell(spec.height, spec.climb);
    if (!(d->tile == 0 || (d->tile >= STEERN_BAKE_MIN_TILE * cell && d->tile <= 1e6))) {
        steerA_refuse_why("steer_navmesh_bake: tile: expected a tile's side in metres, at least %d cells (%g m with "
                          "cells of %g m) and at most 1e6, or 0 (automatic); got %g",
                          STEERN_BAKE_MIN_TILE, STEERN_BAKE_MIN_TILE * cell, cell, d->tile);
        return STEER_EARG;
    }
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_bake(&spec, NULL, &err);
    if (!m) {
        if (err.status == STEERN_MESH_NOMEM) return STEER_ENOMEM;
        steerA_refuse_why("steer_navmesh_bake: %s", err.message[0] ? err.message : "nothing walkable");
        return STEER_EARG;
    }
    return give_mesh(m, out);
}

int steer_navmesh_from_grid(const steer_Grid *g, steer_NavMesh **out)
{
    STEERA_NONNULL(out, "a place for the mesh", STEER_EARG);
    *out = NULL;
    GRID(g, STEER_EARG);
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_from_grid(g->g, NULL, &err);
    if (!m) {
        if (err.status == STEERN_MESH_NOMEM) return STEER_ENOMEM;
        steerA_refuse_why("steer_navmesh_from_grid: %s", err.message[0] ? err.message : "nothing walkable");
        return STEER_EARG;
    }
    return give_mesh(m, out);
}

int steer_navmesh_load(const void *bytes, size_t n, steer_NavMesh **out)
{
    STEERA_NONNULL(out, "a place for the mesh", STEER_EARG);
    *out = NULL;
    STEERA_NONNULL(bytes, "the bytes steer_navmesh_save wrote", STEER_EARG);
    char msg[200] = "";
    steerS_Reader r;
    steerS_reader_init(&r, bytes, n, msg, sizeof msg);
    r.section = "navigation mesh";
    bool oom;
    steerN_Mesh *m = steerN_mesh_decode(&r, NULL, &oom);
    if (m && steerS_left(&r)) {
        steerN_mesh_free(m);
        steerA_refuse_why("steer_navmesh_load: %zu bytes past the end of the mesh", steerS_left(&r));
        return STEER_EARG;
    }
    if (!m) {
        if (oom) return STEER_ENOMEM;
        steerA_refuse_why("steer_navmesh_load: %s", msg[0] ? msg : "not a navigation mesh");
        return STEER_EARG;
    }
    return give_mesh(m, out);
}

int steer_navmesh_save(const steer_NavMesh *m, steer_WriteFn write, void *ud)
{
    MESH(m, STEER_EARG);
    STEERA_NONNULL(write, "a steer_WriteFn", STEER_EARG);
    steerS_Writer w;
    steerS_writer_sink(&w, write, ud);
    steerN_mesh_encode(m->m, &w);
    return w.failed ? STEER_ECALLBACK : STEER_OK;
}

void steer_navmesh_free(steer_NavMesh *m)
{
    if (!m) return;
    MESH(m, );
    steerN_mesh_release(m->m);
    m->lib = NULL;
    free(m);
}

uint64_t steer_navmesh_hash(const steer_NavMesh *m)
{
    MESH(m, 0);
    return steerN_mesh_hash_known(m->m);
}

int steer_navmesh_area(const steer_NavMesh *m, const char *name)
{
    MESH(m, -1);
    STEERA_NONNULL(name, "an area name", -1);
    return steerN_mesh_area(m->m, name);
}

int steer_navmesh_view(const steer_NavMesh *m, steer_DebugNavMesh *out)
{
    MESH(m, STEER_EARG);
    STEERA_NONNULL(out, "a place for the view", STEER_EARG);
    steerN_mesh_view(m->m, out);
    return STEER_OK;
}

int steer_navquery_new(steer_NavQuery **out)
{
    STEERA_NONNULL(out, "a place for the query", STEER_EARG);
    *out = NULL;
    steer_NavQuery *q = malloc(sizeof *q);
    if (!q) return STEER_ENOMEM;
    q->lib = &steerA_lib;
    if (!(q->q = steerN_mesh_query_new(NULL))) {
        free(q);
        return STEER_ENOMEM;
    }
    *out = q;
    return STEER_OK;
}

void steer_navquery_free(steer_NavQuery *q)
{
    if (!q) return;
    QUERY(q, );
    steerN_mesh_query_free(q->q);
    q->lib = NULL;
    free(q);
}

// nav's filter from the host's: false (refused) on a bad radius.
// A layer argument of m: 0 (any), or 1 .. its count.
static bool layer_ok(const steerN_Mesh *m, int layer, const char *fn, const char *what)
{
    if (layer >= 0 && (uint32_t)layer <= m->nlayers) return true;
    steerA_refuse_why("%s: %s is %d: expected a layer from 1 to %u (0: any)", fn, what, layer, m->nlayers);
    return false;
}

// A point (x, y, z) and a layer (0: by z) as a floor; false (refused) when either is bad.
static bool floor_arg(const steerN_Mesh *m, const double p[3], int layer, steerN_Floor *fl, const char *fn)
{
    if (!layer_ok(m, layer, fn, "argument 'layer'")) return false;
    if (!isfinite(p[2])) {
        steerA_refuse_why("%s: argument 'p': its z is not finite", fn);
        return false;
    }
    *fl = (steerN_Floor){ .layer = (uint32_t)layer, .has_z = layer == 0, .z = p[2] };
    return true;
}

static bool filter_of(const steerN_Mesh *m, const steer_NavFilter *f, steerN_MeshFilter *out, steerN_Floor fl[2],
                      const char *fn)
{
    *out = (steerN_MeshFilter){ 0 };
    if (!f) return true;
    if (!radius_ok(f->radius, fn, "the filter's radius")) return false;
    if (!layer_ok(m, f->from_layer, fn, "the filter's from_layer") ||
        !layer_ok(m, f->to_layer, fn, "the filter's to_layer"))
        return false;
    if (f->use_z && !(isfinite(f->from_z) && isfinite(f->to_z))) {
        steerA_refuse_why("%s: the filter's from_z and to_z: expected finite heights", fn);
        return false;
    }
    out->radius = f->radius;
    out->cost = f->costs;
    fl[0] = (steerN_Floor){ .layer = (uint32_t)f->from_layer, .has_z = f->use_z, .z = f->from_z };
    fl[1] = (steerN_Floor){ .layer = (uint32_t)f->to_layer, .has_z = f->use_z, .z = f->to_z };
    out->from = fl, out->to = fl + 1;
    return true;
}

int steer_navmesh_layer_count(const steer_NavMesh *m)
{
    MESH(m, 0);
    return (int)m->m->nlayers;
}

int steer_navmesh_height(const steer_NavMesh *m, const double p[3], int layer, double *z, int *layer_out)
{
    MESH(m, STEER_EARG);
    POINT(p, STEER_EARG);
    STEERA_NONNULL(z, "a place for the height", STEER_EARG);
    steerN_Floor fl;
    if (!floor_arg(m->m, p, layer, &fl, __func__)) return STEER_EARG;
    uint32_t k;
    if (steerN_mesh_locate_on(m->m, p, &fl) < 0 || !steerN_mesh_height(m->m, p, &fl, z, &k)) {
        steerA_refuse_why("%s: no ground under (%g, %g, %g)", __func__, p[0], p[1], p[2]);
        return STEER_EARG;
    }
    if (layer_out) *layer_out = (int)k + 1;
    return STEER_OK;
}

int steer_navmesh_layers_at(const steer_NavMesh *m, const double p[2], int *layers, double *z, int cap, int *n)
{
    MESH(m, STEER_EARG);
    POINT(p, STEER_EARG);
    STEERA_NONNULL(n, "a place for the count", STEER_EARG);
    if (cap < 0 || (cap > 0 && (!layers || !z))) {
        steerA_refuse_why("%s: layers or z NULL with cap %d (give arrays of cap entries, or cap 0)", __func__, cap);
        return STEER_EARG;
    }
    uint32_t got[16], want = cap < 16 ? (uint32_t)cap : 16, *lay = got;
    double *zs = z;
    if ((uint32_t)cap > want) {
        lay = malloc(sizeof *lay * (size_t)cap);
        if (!lay) return STEER_ENOMEM;
        want = (uint32_t)cap;
    }
    *n = (int)steerN_mesh_layers_at(m->m, p, lay, zs, want);
    for (int i = 0; i < *n && i < cap; i++) layers[i] = (int)lay[i] + 1;
    if (lay != got) free(lay);
    return STEER_OK;
}

int steer_navmesh_nearest_on(const steer_NavMesh *m, const double p[3], int layer, double radius, double out[3],
                             double *dist, int *layer_out)
{
    MESH(m, STEER_EARG);
    POINT(p, STEER_EARG);
    STEERA_NONNULL(out, "a place for the point", STEER_EARG);
    steerN_Floor fl;
    if (!floor_arg(m->m, p, layer, &fl, __func__) || !radius_ok(radius, __func__, "argument 'radius'"))
        return STEER_EARG;
    int32_t t;
    double d;
    if (!steerN_mesh_nearest_on(m->m, p, &fl, radius, out, &t, &d) || t < 0) {
        steerA_refuse_why("%s: the mesh has no ground%s", __func__, layer ? " on that layer" : "");
        return STEER_EARG;
    }
    out[2] = steerN_mesh_surface(m->m, (uint32_t)t, out);
    if (dist) *dist = d;
    if (layer_out) *layer_out = m->m->layer ? (int)m->m->layer[t] + 1 : 1;
    return STEER_OK;
}

bool steer_navmesh_contains_on(const steer_NavMesh *m, const double p[3], int layer, double radius)
{
    MESH(m, false);
    POINT(p, false);
    steerN_Floor fl;
    if (!floor_arg(m->m, p, layer, &fl, __func__) || !radius_ok(radius, __func__, "argument 'radius'")) return false;
    return steerN_mesh_contains_on(m->m, p, &fl, radius);
}

int steer_navmesh_path_heights(const steer_NavMesh *m, const steer_NavQuery *q, double *z, int cap, int *n)
{
    MESH(m, STEER_EARG);
    QUERY(q, STEER_EARG);
    COUNT(z, cap, n);
    uint32_t np;
    steerN_mesh_path_points(q->q, &np);
    *n = (int)np;
    if (!np || !cap) return STEER_OK;
    double *all = malloc(sizeof *all * np);
    if (!all) return STEER_ENOMEM;
    steerN_mesh_path_heights(q->q, m->m, all);
    memcpy(z, all, sizeof *z * (np < (uint32_t)cap ? np : (uint32_t)cap));
    free(all);
    return STEER_OK;
}

int steer_navmesh_path(const steer_NavMesh *m, steer_NavQuery *q, const double from[2], const double to[2],
                       const steer_NavFilter *filter, steer_PathStatus *status, double *points, int cap, int *n,
                       double *length)
{
    MESH(m, STEER_EARG);
    QUERY(q, STEER_EARG);
    POINT(from, STEER_EARG);
    POINT(to, STEER_EARG);
    STEERA_NONNULL(status, "a place for the status", STEER_EARG);
    COUNT(points, cap, n);
    steerN_MeshFilter f;
    steerN_Floor fl[2];
    if (!filter_of(m->m, filter, &f, fl, __func__)) return STEER_EARG;
    steerN_PathStatus s = steerN_mesh_path(q->q, m->m, from, to, &f);
    if (s == STEERN_PATH_NOMEM) return STEER_ENOMEM;
    *status = (steer_PathStatus)s;
    *n = 0;
    if (length) *length = INFINITY;
    if (s != STEERN_PATH_FOUND) return STEER_OK;
    uint32_t np;
    const double *p = steerN_mesh_path_points(q->q, &np);
    give_points(p, np, points, cap, n);
    if (length) *length = steerN_mesh_path_length(q->q);
    return STEER_OK;
}

int steer_navmesh_nearest(const steer_NavMesh *m, const double p[2], double radius, double out[2], double *dist)
{
    MESH(m, STEER_EARG);
    POINT(p, STEER_EARG);
    STEERA_NONNULL(out, "a place for the point", STEER_EARG);
    if (!radius_ok(radius, __func__, "argument 'radius'")) return STEER_EARG;
    int32_t t;
    double d;
    if (!steerN_mesh_nearest(m->m, p, radius, out, &t, &d)) return STEER_EARG;
    if (dist) *dist = d;
    return STEER_OK;
}

int steer_navmesh_raycast(const steer_NavMesh *m, const double from[2], const double to[2],
                          const steer_NavFilter *filter, bool *hit, double point[2], double normal[2], double *fraction)
{
    MESH(m, STEER_EARG);
    POINT(from, STEER_EARG);
    POINT(to, STEER_EARG);
    STEERA_NONNULL(hit, "a place for whether it hit", STEER_EARG);
    steerN_MeshFilter f;
    steerN_Floor fl[2];
    if (!filter_of(m->m, filter, &f, fl, __func__)) return STEER_EARG;
    double h[2], nn[2], fr;
    int r = steerN_mesh_raycast(m->m, from, to, &f, h, nn, &fr);
    if (r < 0) {
        steerA_refuse_why("steer_navmesh_raycast: argument 'from' (%g, %g) is off the mesh", from[0], from[1]);
        return STEER_EARG;
    }
    *hit = r == 1;
    if (r == 1) {
        if (point) memcpy(point, h, sizeof h);
        if (normal) memcpy(normal, nn, sizeof nn);
        if (fraction) *fraction = fr;
    } else if (fraction) *fraction = 1;
    return STEER_OK;
}

int steer_navmesh_move_along(const steer_NavMesh *m, const double from[2], const double to[2], double radius,
                             double out[2])
{
    MESH(m, STEER_EARG);
    POINT(from, STEER_EARG);
    POINT(to, STEER_EARG);
    STEERA_NONNULL(out, "a place for the point", STEER_EARG);
    if (!radius_ok(radius, __func__, "argument 'radius'")) return STEER_EARG;
    steerN_mesh_move_along(m->m, from, to, radius, out);
    return STEER_OK;
}

double steer_navmesh_wall_distance(const steer_NavMesh *m, const double p[2])
{
    MESH(m, INFINITY);
    POINT(p, INFINITY);
    return steerN_mesh_wall_distance(m->m, p, NULL, NULL);
}

bool steer_navmesh_contains(const steer_NavMesh *m, const double p[2], double radius)
{
    MESH(m, false);
    POINT(p, false);
    if (!radius_ok(radius, __func__, "argument 'radius'")) return false;
    return steerN_mesh_contains(m->m, p, radius);
}

int steer_navmesh_random_point(const steer_NavMesh *m, double u, double s, double t, double out[2])
{
    MESH(m, STEER_EARG);
    STEERA_NONNULL(out, "a place for the point", STEER_EARG);
    if (!(u >= 0 && u < 1 && s >= 0 && s < 1 && t >= 0 && t < 1) || !m->m->ntri) {
        steerA_refuse_why("steer_navmesh_random_point: u, s, t must be in [0, 1), the mesh not empty");
        return STEER_EARG;
    }
    steerN_mesh_random_point(m->m, u, s, t, out);
    return STEER_OK;
}

// ---- obstacles (mesh_dyn.h) ------------------------------------------------------

static int obstacle_status(steerN_ObstacleStatus st, const char *fn, uint32_t id)
{
    if (st == STEERN_OBST_OK) return STEER_OK;
    if (st == STEERN_OBST_NOMEM) return STEER_ENOMEM;
    if (st == STEERN_OBST_GONE) steerA_refuse_why("%s: id %u names no obstacle of the mesh (removed already?)", fn, id);
    else steerA_refuse_why("%s: %s", fn, steerN_obstacle_status_text(st));
    return STEER_EARG;
}

int steer_navmesh_add_obstacle(steer_NavMesh *m, const steer_NavObstacleDesc *d, uint32_t *id)
{
    MESH(m, STEER_EARG);
    STEERA_NONNULL(d, "a steer_NavObstacleDesc", STEER_EARG);
    STEERA_NONNULL(id, "where to put the obstacle's id", STEER_EARG);
    const char *fn = "steer_navmesh_add_obstacle";
    double shape[2 * STEERN_CIRCLE_SIDES];
    const double *xy = d->xy;
    uint32_t n = (uint32_t)d->n;
    if (d->area < 0 || (d->area > 0 && (uint32_t)d->area >= m->m->nareas)) {
        steerA_refuse_why("%s: area %d, expected 0 (blocked) or an area of the mesh (1 to %u)", fn, d->area,
                          m->m->nareas - 1);
        return STEER_EARG;
    }
    if (xy && (d->n < 3 || d->n > STEERN_OBSTACLE_POINTS)) {
        steerA_refuse_why("%s: n is %d, expected 3 to %d points", fn, d->n, STEERN_OBSTACLE_POINTS);
        return STEER_EARG;
    }
    if (!xy && d->radius != 0) {
        if (!finite2(d->center) || !(d->radius >= 1e-3 && d->radius <= 1e9)) {
            steerA_refuse_why("%s: a circle needs a finite center and a radius from 0.001 to 1e9 metres", fn);
            return STEER_EARG;
        }
        steerN_obstacle_circle(d->center, d->radius, shape);
        xy = shape, n = STEERN_CIRCLE_SIDES;
    } else if (!xy) {
        if (!finite2(d->min) || !finite2(d->max) || !(d->max[0] > d->min[0] && d->max[1] > d->min[1])) {
            steerA_refuse_why("%s: a box needs finite min and max, max above and right of min", fn);
            return STEER_EARG;
        }
        const double c[8] = { d->min[0], d->min[1], d->max[0], d->min[1], d->max[0], d->max[1], d->min[0], d->max[1] };
        memcpy(shape, c, sizeof c);
        xy = shape, n = 4;
    }
    if (d->layer < 0 || (uint32_t)d->layer > m->m->nlayers) {
        steerA_refuse_why("%s: layer %d, expected 0 (the floor under its centre) or 1 to %u", fn, d->layer,
                          m->m->nlayers);
        return STEER_EARG;
    }
    steerN_Floor fl = { .layer = (uint32_t)d->layer };
    return obstacle_status(steerN_obstacle_add(m->m, xy, n, d->area ? d->area : STEERN_OBST_BLOCKED, &fl, id), fn, 0);
}

int steer_navmesh_move_obstacle(steer_NavMesh *m, uint32_t id, double dx, double dy)
{
    MESH(m, STEER_EARG);
    if (!isfinite(dx) || !isfinite(dy)) {
        steerA_refuse_why("steer_navmesh_move_obstacle: dx, dy (%g, %g) expected finite metres", dx, dy);
        return STEER_EARG;
    }
    return obstacle_status(steerN_obstacle_move(m->m, id, dx, dy), "steer_navmesh_move_obstacle", id);
}

int steer_navmesh_remove_obstacle(steer_NavMesh *m, uint32_t id)
{
    MESH(m, STEER_EARG);
    return obstacle_status(steerN_obstacle_remove(m->m, id), "steer_navmesh_remove_obstacle", id);
}

// ---- off-mesh links (mesh_link.h) -------------------------------------------------

// The fields every link shares: an area of the mesh, a cost >= 0 and
// finite (0 is taken: callers turn their default first), a name under
// STEERN_LINK_NAME bytes; false with steer_last_error() naming the field.
static bool link_fields_ok(const steerN_Mesh *m, const char *fn, int area, float cost, const char *name)
{
    if (area < 0 || (uint32_t)area >= m->nareas) {
        steerA_refuse_why("%s: field 'area' is %d, expected an area of the mesh (0 to %u)", fn, area, m->nareas - 1);
        return false;
    }
    if (!(cost >= 0.0f) || !(cost < INFINITY)) {
        steerA_refuse_why("%s: field 'cost' is %g, expected a multiplier >= 0 and finite", fn, (double)cost);
        return false;
    }
    if (name && strlen(name) >= STEERN_LINK_NAME) {
        steerA_refuse_why("%s: field 'name' is %zu bytes long, expected under %d", fn, strlen(name), STEERN_LINK_NAME);
        return false;
    }
    return true;
}

int steer_navmesh_add_link(steer_NavMesh *m, const steer_NavLinkDesc *d, int *index)
{
    MESH(m, STEER_EARG);
    STEERA_NONNULL(d, "a steer_NavLinkDesc", STEER_EARG);
    if (!link_fields_ok(m->m, "steer_navmesh_add_link", d->area, d->cost, d->name)) return STEER_EARG;
    steerN_Link l = { .cost = d->cost > 0.0f ? d->cost : 1.0f,
                      .bidirectional = !d->one_way,
                      .enabled = !d->disabled,
                      .area = (uint8_t)d->area };
    for (int i = 0; i < 3; i++) l.a[i] = d->from[i], l.b[i] = d->to[i];
    if (d->name) memcpy(l.name, d->name, strlen(d->name));
    uint32_t at;
    steerN_LinkStatus s = steerN_link_add(m->m, &l, &at);
    if (s == STEERN_LINK_NOMEM) return STEER_ENOMEM;
    if (s != STEERN_LINK_OK) {
        steerA_refuse_why("steer_navmesh_add_link: %s", s == STEERN_LINK_FROM_OFF ? "field 'from' is off the mesh"
                                                        : s == STEERN_LINK_TO_OFF ? "field 'to' is off the mesh"
                                                                                  : "the mesh has too many links");
        return STEER_EARG;
    }
    if (index) *index = (int)at;
    return STEER_OK;
}

// A distance field of a zero-means-default desc: def for 0, else v in lo ..
// hi (NaN refused); false with steer_last_error() naming the field.
static bool metres(double v, double def, double lo, double hi, const char *fn, const char *field, double *out)
{
    if (v == 0) v = def;
    if (!(v >= lo && v <= hi)) {
        steerA_refuse_why("%s: field '%s' is %g, expected %g to %g metres", fn, field, v, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

// What adding automatic links came to: *added of them (may be NULL).
static int links_added(steerN_LinkStatus s, uint32_t n, const char *fn, int *added)
{
    if (added) *added = (int)n;
    if (s == STEERN_LINK_NOMEM) return STEER_ENOMEM;
    if (s == STEERN_LINK_OK) return STEER_OK;
    steerA_refuse_why("%s: the mesh has %d links already (%u added)", fn, STEERN_LINKS_MAX, n);
    return STEER_EARG;
}

int steer_navmesh_add_jump_links(steer_NavMesh *m, const steer_NavJumpDesc *d, int *added)
{
    const char *fn = "steer_navmesh_add_jump_links";
    if (added) *added = 0;
    MESH(m, STEER_EARG);
    STEERA_NONNULL(d, "a steer_NavJumpDesc", STEER_EARG);
    steerN_JumpSpec js = { .cost = d->cost > 0.0f ? d->cost : 1.0f,
                           .bidirectional = !d->one_way,
                           .same_island = d->same_island,
                           .name = d->name ? d->name : "jump" };
    if (!(d->reach >= 1e-3 && d->reach <= 1e6)) { // no default: the caller says how far its agents jump
        steerA_refuse_why("%s: field 'reach' is %g, expected the widest gap jumped, 0.001 to 1e6 metres", fn, d->reach);
        return STEER_EARG;
    }
    js.reach = d->reach;
    if (!metres(d->spacing, 1, 1e-2, 1e6, fn, "spacing", &js.spacing) ||
        !metres(d->inset, 0.5, 0, 1e6, fn, "inset", &js.inset) || !link_fields_ok(m->m, fn, d->area, d->cost, d->name))
        return STEER_EARG;
    js.area = (uint8_t)d->area;
    uint32_t n = 0;
    steerN_LinkStatus s = steerN_link_add_jumps(m->m, &js, &n);
    return links_added(s, n, fn, added);
}

int steer_navmesh_add_drop_links(steer_NavMesh *m, const steer_NavDropDesc *d, int *added)
{
    const char *fn = "steer_navmesh_add_drop_links";
    if (added) *added = 0;
    MESH(m, STEER_EARG);
    STEERA_NONNULL(d, "a steer_NavDropDesc", STEER_EARG);
    steerN_DropSpec ds = { .cost = d->cost > 0.0f ? d->cost : 1.0f, .name = d->name ? d->name : "drop" };
    if (!(d->drop >= 1e-3 && d->drop <= 1e6)) { // no default: the caller says how far its agents fall
        steerA_refuse_why("%s: field 'drop' is %g, expected the highest fall, 0.001 to 1e6 metres", fn, d->drop);
        return STEER_EARG;
    }
    ds.drop = d->drop;
    if (!metres(d->min_drop, 1, 1e-3, 1e6, fn, "min_drop", &ds.min_drop) ||
        !metres(d->reach, 1.5, 0.05, 1e3, fn, "reach", &ds.reach) ||
        !metres(d->spacing, 1, 1e-2, 1e6, fn, "spacing", &ds.spacing) ||
        !metres(d->inset, 0.5, 0, 1e6, fn, "inset", &ds.inset) ||
        !metres(d->radius, 0.5, 0, 1e3, fn, "radius", &ds.radius) ||
        !link_fields_ok(m->m, fn, d->area, d->cost, d->name))
        return STEER_EARG;
    if (!(ds.min_drop <= ds.drop)) {
        steerA_refuse_why("%s: field 'min_drop' (%g) is above field 'drop' (%g)", fn, ds.min_drop, ds.drop);
        return STEER_EARG;
    }
    if (!m->m->z) {
        steerA_refuse_why("%s: the mesh has no heights (drops are found on a mesh baked from level geometry)", fn);
        return STEER_EARG;
    }
    ds.area = (uint8_t)d->area;
    uint32_t n = 0;
    steerN_LinkStatus s = steerN_link_add_drops(m->m, &ds, &n);
    return links_added(s, n, fn, added);
}

int steer_navmesh_link_count(const steer_NavMesh *m)
{
    MESH(m, 0);
    return (int)steerN_link_count(m->m);
}

int steer_navmesh_set_link_enabled(steer_NavMesh *m, int index, bool enabled)
{
    MESH(m, STEER_EARG);
    if (index < 0 || !steerN_link_enable(m->m, (uint32_t)index, enabled)) {
        steerA_refuse_why("steer_navmesh_set_link_enabled: index %d, expected 0 to %d", index,
                          (int)steerN_link_count(m->m) - 1);
        return STEER_EARG;
    }
    return STEER_OK;
}

int steer_navquery_path_link(const steer_NavQuery *q, int i)
{
    QUERY(q, -1);
    uint32_t n;
    const int32_t *l = steerN_mesh_path_links(q->q, &n);
    return l && i >= 0 && (uint32_t)i < n ? l[i] : -1;
}
