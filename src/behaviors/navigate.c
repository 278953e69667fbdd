// SPDX-License-Identifier: MIT
// navigate.c — an agent that finds its own way on a navigation mesh
// (src/nav/mesh.h) to its target: steer.navigate{ navmesh = nm, ... }.
//
// The plan lives in the agent's memory, a fixed row (no storage that
// grows per agent): the state, the goal and radius the plan was made for,
// and up to NAV_K corners of the way ahead. The steer pass (parallel: it
// writes only the agent's own row) follows the corners: it skips a corner
// once the one after it is in sight (a raycast along the mesh), seeks at
// cruise speed, and arrives at the last corner when that is the goal (one
// "arrive" event inside stop_radius, as arrive gives). It never searches:
// when the agent needs a plan it writes a request into its row, and
// navigate_serve answers the requests after the passes, on the calling
// thread, oldest first then by handle slot (steerB_requests), each search
// whole, while the world's path_budget for the tick lasts. So a thousand
// agents asking at once spread over ticks, and since nothing of a search
// is kept between ticks, a snapshot (which holds the rows) or a rewind
// agrees with a run never stopped.
//
// A request is made when there is no plan; when the target moves farther
// than max(stop_radius, radius) from the planned goal; when the agent's
// radius is not the one planned for; when the next corner is out of sight
// (the agent was pushed or teleported off its way); when the agent passes
// the last stored corner and it is not the goal (the rest of a long way,
// planned again from there); and when it makes no progress toward the next
// corner over the stuck window (a "stuck" event first). The game keeps
// control: it may move the agent, change its target, radius or brain at
// any time, and the plan follows.
//
// A search that fails raises "unreachable" with its reason (the event's
// other id: steer_Unreachable); the agent then stands still until its
// target moves (or its radius changes) and asks again.
//
// An agent's own area costs (the `costs` field, a steerN_AreaCosts: the
// Lua `costs` and `exclude`) price its searches, and its sight too: an
// excluded area is a wall to every look along the mesh, and the look
// ahead that skips a corner does not cut across ground dearer than the
// agent stands on (the cheapest under its disc; the corners a costly
// area's edge bends the way round are kept). Those costs are a brain's parameters, so changing them is a
// new brain (a hot reload, steer_agent_set_brain), and a new brain starts
// from fresh memory: no plan, a new request. What they mean for a look
// (an area excluded, all at one cost) is worked out when the brain is
// compiled (navigate_derive), not every tick.
//
// Off-mesh links (src/nav/mesh_link.h). A plan that takes a link keeps its
// corners up to the link's far end, and the link (PK_LINK, PK_LINKAT): the
// corner skipping stops at the link's start. Reaching it (FOLLOWING, within
// a quarter radius) the agent stands that tick and raises "link" (other.id:
// the link's index + 1); the next tick, unless the script called
// a:hold_link() during the event (HELD), it crosses: straight to the far
// end at cruise speed, with no look along the mesh, no stuck watch and no
// new plan until it is within a quarter radius of the far end. Held, it
// stands (the script moves it) until it is within its radius of the far
// end. Then it goes on from there (a new plan unless the far end was the
// goal). A link disabled before the agent reaches it: no plan, a new one.
//
// Floors (a baked mesh with heights, mesh_layers.c): the row grows by the
// goal's height and the agent's ground height. Every search and look
// along the mesh places the agent on its ground (the ground under it
// nearest below its height) and the goal on the target's. The agent's
// ground follows it: after the passes, before the requests are served,
// navigate_ground sets it from the mesh under the agent (each agent's
// own, in parallel): in a 3D world its height (position z, vertical
// velocity 0: it walks on the surface), in a 2D world the ground height
// its row keeps, so that it stays on the floor it walked onto (a stair's
// top, a bridge) and plans from there.
#include "../core/par.h"
#include "behavior.h"
#include "fields.h"
#include "laws.h"
#include "../nav/mesh.h"
#include "../nav/mesh_dyn.h"
#include "../nav/mesh_link.h"
#include "steer_nav.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAV_K 8           // corners kept ahead
#define NAV_STUCK 3.0f    // seconds without progress toward the next corner (the world's stuck window when set)
#define NAV_PROGRESS 0.1f // metres of progress that count

// What the costs on the mesh mean for a look along it (Navigate.sight)
enum {
    NAV_WALLED = 1, // they exclude an area of the mesh
    NAV_PLAIN = 2,  // every area not excluded costs the same, and area 0 is not excluded
};

extern const steerB_Kind steerB_navigate;

typedef struct Navigate {
    steerN_Mesh *mesh; // first, as in every kind holding a resource
    steerB_Target target;
    float slow_radius, stop_radius, speed;
    float layer;             // the goal's layer (1 .. the mesh's; 0: the ground under the target, by its height)
    steerN_AreaCosts *costs; // the agent's own area costs (NULL: the mesh's)
    uint8_t sight;           // NAV_* of the costs on the mesh (navigate_derive), for the looks along the mesh
    bool floors;             // the mesh has heights: the row has the floor floats (navigate_derive)
} Navigate;
STEERB_CHECK_SIZE(Navigate);

// The memory row. STATE and TICK first: the serving protocol (brain.h).
enum {
    NV_STATE,    // a state below
    NV_TICK,     // the request's tick (bits), while REQUESTED; while FOLLOWING on a mesh with obstacles, -(1 + the
                 // mesh's epoch the corners were checked at: mesh_dyn.h)
    NV_GX,       // the goal the plan was made (or asked) for
    NV_GY,       //
    NV_RADIUS,   // the radius it was made for
    NV_N,        // corners stored
    NV_NEXT,     // the corner steered to
    NV_COMPLETE, // bit 0 set: the last stored corner is the goal (and the link's fields: below)
    NV_ARRIVED,  // 1: the arrive event was raised for this goal
    NV_STUCK,    // seconds without progress toward the next corner
    NV_BEST,     // the nearest it came to the next corner
    NV_CORNERS,  // NAV_K x, y pairs
    NV_MEM = NV_CORNERS + 2 * NAV_K,
    // on a mesh with heights (Navigate.floors) only
    NV_GZ = NV_MEM, // the goal's height the plan was made for
    NV_GROUND,      // a 2D world's agent: the height of the ground it stands on
    NV_MEM_FLOORS
};
// A plan that takes a link keeps the link in NV_COMPLETE's higher bits, so
// a row without one holds what it always held there (0 or 1: the rows,
// and so the world's hash, of every run without links are as before). An
// integer below 2^24, exact in a float. Each field: its shift and mask.
#define PK_COMPLETE 0, 1u   // the last stored corner is the goal
#define PK_CROSS 1, 3u      // a crossing's state (NC_* below)
#define PK_LINKAT 3, 7u     // the corner at the link's start (the next is its far end; NAV_K is 8)
#define PK_LINK 6, 0x1FFFFu // the link the corners end with: its index + 1 (0: none)
static uint32_t pk(const float *m, int shift, uint32_t mask) { return ((uint32_t)m[NV_COMPLETE] >> shift) & mask; }
static void pk_set(float *m, int shift, uint32_t mask, uint32_t v)
{
    uint32_t w = (uint32_t)m[NV_COMPLETE];
    m[NV_COMPLETE] = (float)((w & ~(mask << shift)) | ((v & mask) << shift));
}
enum { NS_NONE = 0, NS_REQUESTED = 1, NS_FOLLOWING = 2, NS_UNREACHABLE = 3 };
enum { NC_NONE = 0, NC_REACHED = 1, NC_CROSSING = 2, NC_HELD = 3 };

// ---- the resource ------------------------------------------------------------

static void mesh_retain(void *m) { steerN_mesh_retain(m); }
static void mesh_release(void *m) { steerN_mesh_release(m); }
static void mesh_encode(const void *m, steerS_Writer *out) { steerN_mesh_encode(m, out); }
static _Thread_local steerN_Mesh *(*twin_of)(void *ud, steerN_Mesh *m);
static _Thread_local void *twin_ud;

void steerB_set_mesh_twins(steerN_Mesh *(*fn)(void *ud, steerN_Mesh *m), void *ud)
{
    twin_of = fn;
    twin_ud = ud;
}

// A mesh read from a snapshot is in libc's memory: it may outlive the
// world that read it (a tree can outlive its world), and with it the
// world's allocator, which steer_AllocFn cannot carry over to nav's.
static void *mesh_decode(steerS_Reader *in, steer_AllocFn alloc, void *alloc_ud, bool *oom)
{
    (void)alloc;
    (void)alloc_ud;
    steerN_Alloc libc = { NULL, NULL };
    steerN_Mesh *m = steerN_mesh_decode(in, &libc, oom);
    if (!m) return NULL;
    if (steerN_mesh_prepare(m) != 0) {
        steerN_mesh_release(m);
        *oom = true;
        return NULL;
    }
    m->hash = steerN_mesh_hash(m);
    if (twin_of) { // an in-place restore: the mesh the binding holds of it takes its contents instead
        steerN_Mesh *t = twin_of(twin_ud, m);
        if (t) return t;
    }
    return m;
}

const steerB_ResourceKind steerB_navmesh_resource = { .name = "navigation mesh",
                                                      .type = "steer.NavMesh",
                                                      .retain = mesh_retain,
                                                      .release = mesh_release,
                                                      .encode = mesh_encode,
                                                      .decode = mesh_decode };

// The agent's area costs: a u32 count, then that many f32 multipliers.
static void costs_retain(void *c) { steerN_costs_retain(c); }
static void costs_release(void *c) { steerN_costs_release(c); }
static void costs_encode(const void *obj, steerS_Writer *out)
{
    const steerN_AreaCosts *c = obj;
    steerS_put_u32(out, c->n);
    for (uint32_t i = 0; i < c->n; i++) steerS_put_f32(out, c->cost[i]);
}
static void *costs_decode(steerS_Reader *in, steer_AllocFn alloc, void *alloc_ud, bool *oom)
{
    (void)alloc;
    (void)alloc_ud;
    uint32_t n = steerS_get_u32(in), bad;
    float cost[STEERN_MESH_AREAS];
    if (!in->failed && n > STEERN_MESH_AREAS) {
        steerS_fail(in, "%u area costs; a mesh has at most %d areas", n, STEERN_MESH_AREAS);
        return NULL;
    }
    for (uint32_t i = 0; i < n && !in->failed; i++) cost[i] = steerS_get_f32(in);
    if (in->failed) return NULL;
    if (!steerN_costs_ok(cost, n, &bad)) {
        steerS_fail(in, "area %u's cost is %g; expected >= %g, or infinity", bad, (double)cost[bad], STEERN_COST_MIN);
        return NULL;
    }
    steerN_AreaCosts *c = steerN_costs_new(cost, n);
    if (!c) *oom = true;
    return c;
}
static size_t costs_bytes(const void *obj)
{
    (void)obj;
    return sizeof(steerN_AreaCosts);
}

const steerB_ResourceKind steerB_navcosts_resource = { .name = "set of area costs",
                                                       .type = "table<string, number>",
                                                       .retain = costs_retain,
                                                       .release = costs_release,
                                                       .encode = costs_encode,
                                                       .decode = costs_decode,
                                                       .bytes = costs_bytes };

// ---- the meshes attached to a world --------------------------------------------

// Two meshes are the same when they are one, or made the same (the hash of
// what they are: a mesh a snapshot loaded stands for the one saved).
static bool same_mesh(const void *a, const void *b)
{
    const steerN_Mesh *x = a, *y = b;
    return x == y || steerN_mesh_hash_known(x) == steerN_mesh_hash_known(y);
}

int steerB_world_add_navmesh(steer_World *w, steerN_Mesh *m)
{
    return steerW_attach(w, &steerB_navmesh_resource, m, same_mesh);
}

const steerN_Mesh *steerB_world_navmesh(const steer_World *w, uint32_t i)
{
    for (uint32_t k = 0; k < w->nattached; k++)
        if (w->attached[k].kind == &steerB_navmesh_resource && i-- == 0) return w->attached[k].obj;
    return NULL;
}

// ---- the steer pass ------------------------------------------------------------

static void request(const steerB_Ctx *c, float *m, const float goal[3], bool floors)
{
    m[NV_STATE] = NS_REQUESTED;
    steerB_request_tick(c->w, m);
    m[NV_GX] = goal[0];
    m[NV_GY] = goal[1];
    if (floors) m[NV_GZ] = goal[2];
    m[NV_RADIUS] = c->radius;
}

// Whether node n's row has the floor floats: its mesh had heights when
// its brain was compiled (the row's size is fixed then; a mesh with
// heights swapped in later is walked in plan).
static bool floor_row(const steerB_Brain *b, const steerB_Node *n)
{
    uint32_t end = b->mem_floats;
    for (uint32_t j = 0; j < b->nnodes; j++)
        if (b->nodes[j].mem > n->mem && b->nodes[j].mem < end) end = b->nodes[j].mem;
    return end - n->mem >= NV_MEM_FLOORS;
}

// The ground an agent at height z stands on (z: its position's in a 3D
// world; a 2D world's row keeps it).
static steerN_Floor ground_of(const steer_World *w, const float *m, float z)
{
    return (steerN_Floor){ .has_z = true, .z = w->dim == 3 ? z : m[NV_GROUND] };
}

// A point of the mesh in sight from the agent (a straight walk stays on
// it, and out of the areas `cost` excludes; NULL: the mesh's costs). From
// off the mesh (pushed into an obstacle, or standing just over its edge,
// or into an area it excludes) every point counts as in sight: planning
// again from there would give the same way back (the serve step starts an
// off-mesh agent at the mesh's nearest point) every tick; the stuck watch
// re-plans if the straight way back does not get it anywhere.
static bool in_sight(const steerN_Mesh *mesh, const float *cost, const steerN_Floor *at, const float p[3],
                     const float *q)
{
    steerN_MeshFilter f = { .radius = 0.0, .cost = cost, .from = at };
    double a[2] = { p[0], p[1] }, b[2] = { q[0], q[1] }, hit[2], nrm[2], frac;
    return steerN_mesh_raycast(mesh, a, b, &f, hit, nrm, &frac) <= 0;
}

// The node's sight (NAV_*), worked out when its costs or its mesh are set
// (steerB_Kind.derive: at compile, and when a resource is replaced), not
// every tick: the costs are a brain's parameters.
static void navigate_derive(void *params)
{
    Navigate *p = params;
    p->sight = 0;
    p->floors = p->mesh && p->mesh->z;
    if (!p->mesh) return;
    float own[STEERN_MESH_AREAS];
    const float *c = steerN_costs_apply(p->mesh, p->costs, own);
    if (!c) c = p->mesh->area_cost;
    bool walled = false, uniform = true;
    for (uint32_t i = 0; i < p->mesh->nareas; i++) {
        if (!(c[i] < INFINITY)) walled = true;
        else if (c[i] != c[0]) uniform = false;
    }
    p->sight = (uint8_t)((walled ? NAV_WALLED : 0) | (uniform && c[0] < INFINITY ? NAV_PLAIN : 0));
}

// The costs c with every area dearer than limit excluded, into below.
static const float *at_most(const float *c, float limit, float below[STEERN_MESH_AREAS])
{
    for (uint32_t i = 0; i < STEERN_MESH_AREAS; i++) below[i] = c[i] <= limit ? c[i] : INFINITY;
    return below;
}

// In sight, and the straight walk crosses no ground dearer than the
// agent's own (the look ahead that skips a corner: a corner where the way
// bends round a costly area is not cut across it). The agent's own: the
// cheapest under its disc (radius r), so one walking a way along a costly
// area's edge, its centre on the edge or a rounding inside, does not cut
// across the area at the corner where the way leaves the edge. With every
// area at one cost (plain: NAV_PLAIN), in_sight.
static bool in_cheap_sight(const steerN_Mesh *mesh, const float *cost, bool plain, const steerN_Floor *at,
                           const float p[3], const float *q, float r)
{
    if (plain) return in_sight(mesh, cost, at, p, q);
    const float *c = cost ? cost : mesh->area_cost;
    double a[2] = { p[0], p[1] }, near[2];
    int32_t t = steerN_mesh_locate_on(mesh, a, at);
    if (t < 0) return true; // off the mesh: as in_sight
    float limit = c[mesh->area[t]], below[STEERN_MESH_AREAS];
    // cheaper ground within r, the cheapest first
    for (float least = -INFINITY;;) {
        float next = limit;
        for (uint32_t i = 0; i < mesh->nareas; i++)
            if (c[i] > least && c[i] < next) next = c[i];
        if (!(next < limit)) break;
        if (steerN_mesh_nearest_open(mesh, at_most(c, next, below), a, at, r, near)) {
            limit = next;
            break;
        }
        least = next;
    }
    // (from the mesh, the centre on the edge of dearer ground that the
    // raycast takes for the start's triangle: not in sight, the corner kept)
    steerN_MeshFilter f = { .radius = 0.0, .cost = at_most(c, limit, below), .from = at };
    double b[2] = { q[0], q[1] }, hit[2], nrm[2], frac;
    return steerN_mesh_raycast(mesh, a, b, &f, hit, nrm, &frac) == 0;
}

// On a mesh whose obstacles changed since the corners were planned or last
// checked: whether the way ahead (from p through corners i .. n - 1)
// crosses a box a change touched (then the plan is stale); else the
// corners are noted as checked at the mesh's epoch.
static bool way_changed(const steerN_Mesh *mesh, float *m, const float p[3], int i, int n, float radius)
{
    uint32_t now = steerN_mesh_epoch(mesh), seen = m[NV_TICK] < 0.0f ? (uint32_t)(-m[NV_TICK] - 1.0f) : 0;
    if (now == seen) return false;
    float way[2 * (NAV_K + 1)];
    int k = 0;
    way[k++] = p[0], way[k++] = p[1];
    for (int j = i; j < n; j++) way[k++] = m[NV_CORNERS + 2 * j], way[k++] = m[NV_CORNERS + 2 * j + 1];
    if (steerN_mesh_way_changed(mesh, seen, way, (uint32_t)(k / 2), radius)) return true;
    m[NV_TICK] = -1.0f - (float)now;
    return false;
}

static float dist2(const float p[3], const float *q)
{
    float dx = q[0] - p[0], dy = q[1] - p[1];
    return dx * dx + dy * dy;
}

// ---- crossing a link -------------------------------------------------------------

// The link the row's corners end with is there and enabled.
static bool link_open(const steerN_Mesh *mesh, const float *m)
{
    const steerN_Link *l = steerN_link_get(mesh, pk(m, PK_LINK) - 1);
    return l && l->enabled;
}

// A crossing under way (the row's PK_CROSS): true while it goes on (out
// set), false once over (the row at the far end's corner: the plan goes on).
static bool link_cross(steerB_Ctx *c, const Navigate *p, float *m, float out[3])
{
    int at = (int)pk(m, PK_LINKAT);
    const float *far = m + NV_CORNERS + 2 * (at + 1);
    float d = sqrtf(dist2(c->p, far)), zero[3] = { 0, 0, 0 };
    float done = pk(m, PK_CROSS) == NC_HELD ? c->radius : 0.25f * c->radius;
    if (d <= done) {
        pk_set(m, PK_CROSS, NC_NONE);
        pk_set(m, PK_LINK, 0);
        m[NV_NEXT] = (float)(at + 1);
        m[NV_BEST] = FLT_MAX;
        m[NV_STUCK] = 0;
        return false;
    }
    if (pk(m, PK_CROSS) == NC_REACHED) pk_set(m, PK_CROSS, NC_CROSSING); // the event was handed out, not held
    if (pk(m, PK_CROSS) == NC_HELD) {
        steerB_track(c, zero, out);
        return true;
    }
    float cruise = steerB_cruise(p->speed, c->max_speed);
    float desired[3] = { (far[0] - c->p[0]) * cruise / d, (far[1] - c->p[1]) * cruise / d, 0 };
    steerB_track(c, desired, out);
    return true;
}

static void navigate_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Navigate *p = STEERB_PARAMS_OF(n, Navigate);
    float *m = c->mem + n->mem, zero[3] = { 0, 0, 0 }, off[3], vel[3];
    v3_zero(out);
    if (!p->mesh) return;
    if (pk(m, PK_CROSS) != NC_NONE && link_cross(c, p, m, out)) return;
    float own[STEERN_MESH_AREAS];
    const float *cost = steerN_costs_apply(p->mesh, p->costs, own);
    if (!steerB_target(c, &p->target, off, vel)) { // no target: stand, and forget the plan
        m[NV_STATE] = NS_NONE;
        m[NV_N] = 0;
        steerB_track(c, zero, out);
        return;
    }
    bool floors = p->floors && floor_row(c->brain, n);
    float goal[3] = { c->p[0] + off[0], c->p[1] + off[1], floors && c->w->dim == 3 ? c->p[2] + off[2] : 0.0f };
    float tol = p->stop_radius > c->radius ? p->stop_radius : c->radius;
    float gx = goal[0] - m[NV_GX], gy = goal[1] - m[NV_GY], g2 = gx * gx + gy * gy;
    if (floors) g2 += (goal[2] - m[NV_GZ]) * (goal[2] - m[NV_GZ]); // the same place on another floor is elsewhere
    bool moved = g2 > tol * tol, resized = m[NV_RADIUS] != c->radius;
    int state = (int)m[NV_STATE];
    if (moved) m[NV_ARRIVED] = 0;
    if (state == NS_NONE || ((moved || resized) && state != NS_REQUESTED)) {
        request(c, m, goal, floors);
        state = NS_REQUESTED;
    } else if (state == NS_REQUESTED && (moved || resized)) { // still waiting: the newest goal, same place in the queue
        m[NV_GX] = goal[0];
        m[NV_GY] = goal[1];
        if (floors) m[NV_GZ] = goal[2];
        m[NV_RADIUS] = c->radius;
    }
    if (pk(m, PK_LINK) != 0 && !link_open(p->mesh, m)) { // the door locked before the agent got there
        pk_set(m, PK_LINK, 0);
        m[NV_N] = 0;
        if (state != NS_REQUESTED) request(c, m, goal, floors);
        state = NS_REQUESTED;
    }
    steerN_Floor ground = floors ? ground_of(c->w, m, c->p[2]) : (steerN_Floor){ 0 };
    const steerN_Floor *at = floors ? &ground : NULL;
    int nc = (int)m[NV_N], i = (int)m[NV_NEXT];
    if (state == NS_UNREACHABLE || nc == 0 || i >= nc) { // stand still: no way, or none yet
        steerB_track(c, zero, out);
        return;
    }
    float *cs = m + NV_CORNERS;
    // the next corner: skip those reached, and one whose successor is in
    // sight. A corner of an excluded area is a point its way passes through
    // (no radius is kept from it): reached, it is left only once the next
    // is in sight, not from the near side of that area's edge
    float reach = 0.25f * c->radius;
    int skipped = 0;
    bool walled = p->sight & NAV_WALLED, plain = p->sight & NAV_PLAIN;
    int last_skip = pk(m, PK_LINK) != 0 ? (int)pk(m, PK_LINKAT) : nc - 1; // never past a link's start
    while (i < last_skip) {
        if ((dist2(c->p, cs + 2 * i) <= reach * reach &&
             (!walled || in_sight(p->mesh, cost, at, c->p, cs + 2 * (i + 1)))) ||
            (skipped == 0 && in_cheap_sight(p->mesh, cost, plain, at, c->p, cs + 2 * (i + 1), c->radius))) {
            i++;
            skipped++;
            m[NV_BEST] = FLT_MAX;
            m[NV_STUCK] = 0;
            continue;
        }
        break;
    }
    m[NV_NEXT] = (float)i;
    const float *to = cs + 2 * i;
    if (pk(m, PK_LINK) != 0 && i == (int)pk(m, PK_LINKAT) && state == NS_FOLLOWING &&
        dist2(c->p, to) <= reach * reach) {
        pk_set(m, PK_CROSS, NC_REACHED); // stand this tick; the event's handler may hold the agent
        steerT_event_to(c->loc, c->w, STEER_EVENT_LINK, c->d, (steer_Agent){ pk(m, PK_LINK) });
        steerB_track(c, zero, out);
        return;
    }
    bool last = i + 1 == nc, end = last && pk(m, PK_COMPLETE);
    if (state == NS_FOLLOWING) {
        if (p->mesh->dyn && way_changed(p->mesh, m, c->p, i, nc, c->radius)) { // an obstacle came, went or moved
            request(c, m, goal, floors);
        } else if (!in_sight(p->mesh, cost, at, c->p, to)) { // pushed off the way (or teleported): plan again from here
            request(c, m, goal, floors);
        } else if (last && !end) { // the end of the corners kept, not the goal: the rest of the way
            request(c, m, goal, floors);
        }
    }
    float d = sqrtf(dist2(c->p, to));
    // stuck: no progress toward the next corner over the window
    if (!(d < m[NV_BEST] - NAV_PROGRESS) && !(end && d <= p->stop_radius)) {
        m[NV_STUCK] += c->dt;
        float window = c->w->stuck_window > 0.0f ? c->w->stuck_window : NAV_STUCK;
        if (m[NV_STUCK] >= window && (int)m[NV_STATE] == NS_FOLLOWING) {
            steerT_event_to(c->loc, c->w, STEER_EVENT_STUCK, c->d, STEER_NO_AGENT);
            request(c, m, goal, floors);
            m[NV_STUCK] = 0;
            m[NV_BEST] = FLT_MAX;
        }
    } else if (d < m[NV_BEST] - NAV_PROGRESS) {
        m[NV_BEST] = d;
        m[NV_STUCK] = 0;
    }
    float cruise = steerB_cruise(p->speed, c->max_speed), desired[3] = { 0, 0, 0 };
    if (end && d <= p->stop_radius) {
        if (m[NV_ARRIVED] == 0.0f) steerT_event_to(c->loc, c->w, STEER_EVENT_ARRIVE, c->d, STEER_NO_AGENT);
        m[NV_ARRIVED] = 1;
    } else if (d > 0.0f) {
        float s = end && d < p->slow_radius ? cruise * d / p->slow_radius : cruise;
        desired[0] = (to[0] - c->p[0]) * s / d;
        desired[1] = (to[1] - c->p[1]) * s / d;
    }
    steerB_track(c, desired, out);
}

// The row's size: the floor floats on a mesh with heights.
static uint16_t navigate_mem(const void *params)
{
    const Navigate *p = params;
    return p->mesh && p->mesh->z ? NV_MEM_FLOORS : NV_MEM;
}

static int navigate_check(const void *params, char *msg, size_t len)
{
    const Navigate *p = params;
    uint32_t n = p->mesh ? p->mesh->nlayers : STEERN_MESH_LAYERS;
    if (p->layer != floorf(p->layer) || p->layer > (float)n) {
        snprintf(msg, len,
                 "field 'layer' expected a layer of the navmesh (an integer from 1 to %u, or 0: the ground "
                 "under the target), got %g",
                 n, (double)p->layer);
        return 0;
    }
    return steerB_check_radii(p->slow_radius, p->stop_radius, msg, len);
}

// ---- serving the requests ------------------------------------------------------

typedef struct Serve {
    steerB_Request *req;
    uint32_t cap;
    steerN_MeshQuery *q;
} Serve;

// nav's allocator over the world's (ud: the world, whose scratch this is;
// the world keeps its scratch and its allocator in a swap).
static void *world_alloc(void *ud, void *p, size_t osize, size_t nsize)
{
    (void)osize;
    const steer_World *w = ud;
    return w->alloc(w->alloc_ud, p, nsize);
}

static int reason_of(steerN_PathStatus st)
{
    switch (st) {
    case STEERN_PATH_NARROW: return STEER_UNREACHABLE_NARROW;
    case STEERN_PATH_GOAL_OFF: return STEER_UNREACHABLE_TARGET_OFF;
    case STEERN_PATH_START_OFF: return STEER_UNREACHABLE_START_OFF;
    case STEERN_PATH_NOMEM: return STEER_UNREACHABLE_NOMEM;
    default: return STEER_UNREACHABLE_NONE;
    }
}

// Whether p lies (or, off the mesh, its nearest point within radius lies)
// in an area that cost excludes: the search's START_OFF or GOAL_OFF then
// says no more than that.
static bool excluded_at(const steerN_Mesh *mesh, const float *cost, const double p[2], const steerN_Floor *fl,
                        double radius)
{
    if (!cost) return false;
    int32_t t = steerN_mesh_locate_on(mesh, p, fl);
    double q[2], d;
    if (t < 0 && !(steerN_mesh_nearest_on(mesh, p, fl, 0, q, &t, &d) && d <= radius)) return false;
    return t >= 0 && !(cost[mesh->area[t]] < INFINITY);
}

// Fill the row's corners from the query's last path (from, corners, to).
// back: the agent stands off the mesh and the path starts at the mesh's
// nearest point, its first corner (steered to first: back onto the mesh).
// A path that takes a link: the corners up to the first link's far end,
// and the link (or, when its far end does not fit, those before its start).
static void take_path(const steerN_MeshQuery *q, float *m, bool back)
{
    uint32_t np = 0, nl = 0, pl = UINT32_MAX;
    const double *pts = steerN_mesh_path_points(q, &np);
    const int32_t *links = steerN_mesh_path_links(q, &nl);
    for (uint32_t j = 0; j < nl && pl == UINT32_MAX; j++)
        if (links[j] >= 0) pl = j;
    uint32_t skip = back || pl == 0 ? 0 : 1; // (standing at a link's start: that corner kept)
    uint32_t nc = np > skip ? np - skip : 0, k = nc < NAV_K ? nc : NAV_K;
    uint32_t link = 0, link_at = 0;
    if (pl != UINT32_MAX && pl - skip + 1 < NAV_K) {
        k = pl - skip + 2;
        link = (uint32_t)links[pl] + 1;
        link_at = pl - skip;
    } else if (pl != UINT32_MAX && pl - skip < k) {
        k = pl - skip;
    }
    bool complete = k == nc && !steerN_mesh_path_partial(q); // (a partial way: planned on from its end)
    for (uint32_t j = 0; j < k; j++) {
        m[NV_CORNERS + 2 * j] = (float)pts[2 * (j + skip)];
        m[NV_CORNERS + 2 * j + 1] = (float)pts[2 * (j + skip) + 1];
    }
    if (k == 0 && np == 1) { // already there: the one point is the goal
        m[NV_CORNERS] = (float)pts[0];
        m[NV_CORNERS + 1] = (float)pts[1];
        k = 1;
    }
    m[NV_N] = (float)k;
    m[NV_COMPLETE] = complete ? 1.0f : 0.0f; // (no crossing under way)
    pk_set(m, PK_LINK, link);
    pk_set(m, PK_LINKAT, link_at);
}

// ---- the ground under the agents ------------------------------------------------

typedef struct Ground {
    uint32_t n, items;
} Ground;

// Agents of item k: each one's ground from the mesh under it, on the
// ground it stood on (the first navigate node of its brain on a mesh with
// heights; the mesh's nearest point's off the mesh).
static void ground_item(const steer_World *w, steerW_Local *loc, uint32_t k, void *ctx)
{
    (void)loc;
    const Ground *g = ctx;
    uint32_t b = steerP_part(g->n, g->items, k), e = steerP_part(g->n, g->items, k + 1);
    for (uint32_t d = b; d < e; d++) {
        if (!w->brain[d] || steerW_kinematic(w, d)) continue;
        const steerB_Brain *br = w->brains[w->brain[d]];
        for (uint32_t j = 0; j < br->nnodes; j++) {
            const steerB_Node *node = &br->nodes[j];
            const Navigate *p = STEERB_PARAMS_OF(node, Navigate);
            if (node->kind != &steerB_navigate || !p->floors || !floor_row(br, node)) continue;
            float *m = steerW_mem(w, d) + node->mem;
            double xy[2] = { w->p[0][d], w->p[1][d] }, z;
            steerN_Floor at = ground_of(w, m, w->dim == 3 ? w->p[2][d] : 0.0f);
            if (steerN_mesh_height(p->mesh, xy, &at, &z, NULL)) {
                if (w->dim == 3) w->p[2][d] = (float)z, w->v[2][d] = 0.0f;
                else m[NV_GROUND] = (float)z;
            }
            break;
        }
    }
}

// Whether a brain in use walks a mesh with heights.
static bool any_floors(const steer_World *w)
{
    for (uint32_t i = 1; i < w->nbrains; i++) {
        const steerB_Brain *br = w->brains[i];
        for (uint32_t j = 0; br && br->users && j < br->nnodes; j++)
            if (br->nodes[j].kind == &steerB_navigate && STEERB_PARAMS_OF(&br->nodes[j], Navigate)->floors) return true;
    }
    return false;
}

static void navigate_ground(steer_World *w)
{
    if (!any_floors(w)) return;
    Ground g = { w->count, steerP_items(w, w->count) };
    steerP_run(w, g.items, ground_item, &g);
}

// ---- serving the requests, continued ---------------------------------------------

static void navigate_serve(steer_World *w, void **state, uint32_t *budget)
{
    // the agents' ground first: where they stand after this tick's moves
    navigate_ground(w);
    Serve *s = *state;
    if (!s) {
        s = steerA_realloc(w, NULL, sizeof *s);
        if (!s) return;
        memset(s, 0, sizeof *s);
        *state = s;
    }
    if (!s->q) {
        steerN_Alloc a = { world_alloc, w };
        if (!(s->q = steerN_mesh_query_new(&a))) return;
        // each search charged the same work whatever was searched before
        // (a loaded world's query starts afresh)
        steerN_mesh_query_keep_reach(s->q, false);
    }
    // a search over many links stops at a tick's budget of work with the
    // best way it found (each search's answer its own, whatever was served before)
    steerN_mesh_query_link_cap(s->q, w->path_budget);
    int64_t n = steerB_requests(w, &steerB_navigate, NS_REQUESTED, &s->req, &s->cap);
    for (int64_t k = 0; k<n && * budget> 0; k++) {
        const steerB_Request *r = &s->req[k];
        const steerB_Node *node = &w->brains[w->brain[r->d]]->nodes[r->node];
        const Navigate *p = STEERB_PARAMS_OF(node, Navigate);
        float *m = steerW_mem(w, r->d) + node->mem;
        if (!p->mesh) continue;
        double from[2] = { w->p[0][r->d], w->p[1][r->d] }, to[2] = { m[NV_GX], m[NV_GY] };
        float own[STEERN_MESH_AREAS];
        steerN_MeshFilter f = { .radius = w->radius[r->d], .cost = steerN_costs_apply(p->mesh, p->costs, own) };
        steerN_Floor ends[2];
        if (p->floors && floor_row(w->brains[w->brain[r->d]], node)) { // from the agent's ground to the goal's
            ends[0] = ground_of(w, m, w->dim == 3 ? w->p[2][r->d] : 0.0f);
            ends[1] = p->layer > 0 ? (steerN_Floor){ .layer = (uint32_t)p->layer }
                                   : (steerN_Floor){ .has_z = true, .z = m[NV_GZ] };
            f.from = ends, f.to = ends + 1;
        }
        // (pressed to a wall where no way wide enough leaves: steerN_mesh_path
        // goes on from the mesh's nearest point where the agent fits, the
        // start put back in front, which take_path skips like any start)
        steerN_PathStatus st = steerN_mesh_path(s->q, p->mesh, from, to, &f);
        uint32_t used = steerN_mesh_path_work(s->q);
        int why = 0; // the reason, when the search's own does not say it
        bool back = false;
        double near[2], dist;
        int32_t tri;
        if (st == STEERN_PATH_START_OFF && excluded_at(p->mesh, f.cost, from, f.from, f.radius)) {
            // in an area it excludes: out by the nearest allowed ground within
            // its radius (it grazed the border), else it has no way
            why = STEER_UNREACHABLE_START_EXCLUDED;
            if (steerN_mesh_nearest_open(p->mesh, f.cost, from, f.from, f.radius, near)) {
                st = steerN_mesh_path(s->q, p->mesh, near, to, &f);
                used += steerN_mesh_path_work(s->q);
                back = true;
                why = 0;
            }
        } else if (st == STEERN_PATH_START_OFF &&
                   steerN_mesh_nearest_on(p->mesh, from, f.from, f.radius, near, &tri, &dist)) {
            // pushed off the mesh (a crowd pressed it into an obstacle, the
            // game put it there): the way from the mesh's nearest point, by way of it
            st = steerN_mesh_path(s->q, p->mesh, near, to, &f);
            used += steerN_mesh_path_work(s->q);
            back = true;
        }
        if (st == STEERN_PATH_GOAL_OFF && excluded_at(p->mesh, f.cost, to, f.to, f.radius))
            why = STEER_UNREACHABLE_TARGET_EXCLUDED;
        used++; // a search costs at least one unit, so the budget always runs out
        *budget = used < *budget ? *budget - used : 0;
        m[NV_RADIUS] = w->radius[r->d];
        m[NV_NEXT] = 0;
        m[NV_STUCK] = 0;
        m[NV_BEST] = FLT_MAX;
        if (st == STEERN_PATH_FOUND) {
            take_path(s->q, m, back);
            m[NV_STATE] = NS_FOLLOWING;
            if (p->mesh->dyn) m[NV_TICK] = -1.0f - (float)steerN_mesh_epoch(p->mesh); // planned on the mesh as it is
            steerT_event_to(&w->loc, w, STEER_EVENT_PATH_FOUND, r->d, STEER_NO_AGENT);
        } else {
            m[NV_N] = 0;
            m[NV_STATE] = NS_UNREACHABLE;
            steerT_event_to(&w->loc, w, STEER_EVENT_UNREACHABLE, r->d,
                            (steer_Agent){ (uint64_t)(why ? why : reason_of(st)) });
        }
    }
}

static void navigate_serve_free(steer_World *w, void *state)
{
    Serve *s = state;
    if (!s) return;
    steerN_mesh_query_free(s->q);
    steerA_free(w, s->req);
    steerA_free(w, s);
}

// ---- the corridor for a view ------------------------------------------------------

int steerB_navigate_path(const steer_World *w, steer_Agent a, double **out, uint32_t *n)
{
    *out = NULL;
    *n = 0;
    int64_t d = steerW_dense(w, a);
    if (d < 0 || !w->brain[d]) return 0;
    const steerB_Brain *br = w->brains[w->brain[d]];
    for (uint32_t j = 0; j < br->nnodes; j++) {
        const steerB_Node *node = &br->nodes[j];
        if (node->kind != &steerB_navigate) continue;
        const Navigate *p = STEERB_PARAMS_OF(node, Navigate);
        const float *m = steerW_mem(w, (uint32_t)d) + node->mem;
        int nc = (int)m[NV_N], i = (int)m[NV_NEXT];
        if (!p->mesh || nc == 0 || i >= nc) return 0;
        // the stored corners from the next one on, then (when they stop
        // short of the goal) a fresh plan from the last one to the goal
        double *pts = NULL;
        uint32_t np = 0, rest = 0;
        const double *more = NULL;
        steerN_MeshQuery *q = NULL;
        steerN_Alloc libc = { NULL, NULL };
        if (!pk(m, PK_COMPLETE) && (q = steerN_mesh_query_new(&libc))) {
            double from[2] = { m[NV_CORNERS + 2 * (nc - 1)], m[NV_CORNERS + 2 * (nc - 1) + 1] };
            double to[2] = { m[NV_GX], m[NV_GY] };
            float own[STEERN_MESH_AREAS];
            steerN_MeshFilter f = { .radius = m[NV_RADIUS], .cost = steerN_costs_apply(p->mesh, p->costs, own) };
            if (steerN_mesh_path(q, p->mesh, from, to, &f) == STEERN_PATH_FOUND) {
                more = steerN_mesh_path_points(q, &rest);
                if (rest) rest--; // its first point is the last corner
            }
        }
        pts = malloc(sizeof *pts * 2 * ((size_t)(nc - i) + rest + 1));
        if (pts) {
            pts[np++] = w->p[0][d], pts[np++] = w->p[1][d];
            for (int k = i; k < nc; k++) pts[np++] = m[NV_CORNERS + 2 * k], pts[np++] = m[NV_CORNERS + 2 * k + 1];
            for (uint32_t k = 1; k <= rest; k++) pts[np++] = more[2 * k], pts[np++] = more[2 * k + 1];
        }
        steerN_mesh_query_free(q);
        if (!pts) return -1;
        *out = pts;
        *n = np / 2;
        return 1;
    }
    return 0;
}

int steer_behavior_set_navmesh(steer_Behavior *b, const char *field, const steer_NavMesh *m)
{
    STEERA_TREE(b, STEER_EARG);
    STEERA_NONNULL(field, "a field name", STEER_EARG);
    steerN_Mesh *x = NULL;
    if (m && !(x = steerN_mesh_of(m, __func__))) return STEER_EARG;
    return steerB_set_resource(b, field, &steerB_navmesh_resource, x);
}

int steer_behavior_set_nav_costs(steer_Behavior *b, const char *field, const float *costs, int n)
{
    STEERA_TREE(b, STEER_EARG);
    STEERA_NONNULL(field, "a field name", STEER_EARG);
    if (n < 0 || n > STEERN_MESH_AREAS)
        return steerB_fail(b, STEER_EARG, "steer_behavior_set_nav_costs: n is %d, expected 0 to %d areas", n,
                           STEERN_MESH_AREAS);
    if (n > 0 && !costs)
        return steerB_fail(b, STEER_EARG, "steer_behavior_set_nav_costs: costs is NULL, expected %d costs", n);
    uint32_t bad;
    if (n > 0 && !steerN_costs_ok(costs, (uint32_t)n, &bad))
        return steerB_fail(b, STEER_EARG,
                           "steer_behavior_set_nav_costs: costs[%u] is %g, expected a multiplier >= %g, or INFINITY "
                           "(never entered)",
                           bad, (double)costs[bad], STEERN_COST_MIN);
    steerN_AreaCosts *c = NULL;
    if (n > 0 && !(c = steerN_costs_new(costs, (uint32_t)n))) return STEER_ENOMEM;
    int st = steerB_set_resource(b, field, &steerB_navcosts_resource, c);
    steerN_costs_release(c); // the node's reference, when it took one
    return st;
}

// The row of agent a's navigate node whose crossing is in state `cross`
// (and its node's mesh into *mesh), or NULL.
static float *crossing_row(const steer_World *w, steer_Agent a, int cross, steerN_Mesh **mesh)
{
    int64_t d = steerW_dense(w, a);
    if (d < 0 || !w->brain[d]) return NULL;
    const steerB_Brain *br = w->brains[w->brain[d]];
    for (uint32_t j = 0; j < br->nnodes; j++) {
        const steerB_Node *node = &br->nodes[j];
        if (node->kind != &steerB_navigate) continue;
        float *m = steerW_mem(w, (uint32_t)d) + node->mem;
        if (pk(m, PK_LINK) == 0 || pk(m, PK_CROSS) != (uint32_t)cross) continue;
        *mesh = STEERB_PARAMS_OF(node, Navigate)->mesh;
        return m;
    }
    return NULL;
}

const steerN_Mesh *steerB_navigate_link_of(const steer_World *w, steer_Agent a, uint32_t *index)
{
    steerN_Mesh *mesh = NULL;
    const float *m = crossing_row(w, a, NC_REACHED, &mesh);
    if (!m) m = crossing_row(w, a, NC_HELD, &mesh);
    if (!m) m = crossing_row(w, a, NC_CROSSING, &mesh);
    if (!m) return NULL;
    *index = pk(m, PK_LINK) - 1;
    return mesh;
}

int steer_agent_hold_link(steer_World *w, steer_Agent a)
{
    STEERA_WORLD(w, STEER_EARG);
    steerN_Mesh *mesh;
    float *m = crossing_row(w, a, NC_REACHED, &mesh);
    if (!m) {
        steerA_refuse_why("steer_agent_hold_link: the agent is not at a link's start (call it from the link event)");
        return STEER_EARG;
    }
    pk_set(m, PK_CROSS, NC_HELD);
    static const double still[3] = { 0, 0, 0 }; // it stands where it reached the link
    return steer_agent_set_vec(w, a, STEER_PROP_VELOCITY, still);
}

// For a debug view (steerB_Kind.route): the corners still ahead, and the state.
static int navigate_route(const float *m, float *xyz, int cap, char *note, size_t note_cap)
{
    int n = 0;
    if (m[NV_STATE] == NS_FOLLOWING || m[NV_STATE] == NS_REQUESTED)
        for (int i = (int)m[NV_NEXT]; i < (int)m[NV_N] && i < NAV_K && n < cap; i++, n++) {
            xyz[3 * n] = m[NV_CORNERS + 2 * i];
            xyz[3 * n + 1] = m[NV_CORNERS + 2 * i + 1];
            xyz[3 * n + 2] = 0;
        }
    const char *what = m[NV_STATE] == NS_REQUESTED     ? "asked for a way"
                       : m[NV_STATE] == NS_UNREACHABLE ? "no way to the target"
                       : m[NV_STATE] == NS_FOLLOWING   ? (m[NV_ARRIVED] != 0 ? "arrived" : "on its way")
                                                       : "no plan yet";
    snprintf(note, note_cap, "%s, %d corner%s ahead%s", what, n, n == 1 ? "" : "s",
             pk(m, PK_COMPLETE) || n == 0 ? "" : " (more to plan)");
    return n;
}

// ---- the kind -------------------------------------------------------------------

static const steerB_Field navigate_fields[] = {
    { "navmesh", STEERB_RESOURCE, offsetof(Navigate, mesh), 0, 1, 0, "a navigation mesh (steer.navmesh{...})",
      STEERB_RESOURCE_KIND(&steerB_navmesh_resource) },
    STEERB_TARGET_ROW(Navigate, target, "target"),
    STEERB_SLOW_RADIUS_ROW(Navigate, 2),
    STEERB_STOP_RADIUS_ROW(Navigate, 0.2f),
    STEERB_SPEED_ROW(Navigate),
    { "layer", STEERB_NUMBER, offsetof(Navigate, layer), 0, 0, STEERN_MESH_LAYERS,
      "the goal's layer of the navmesh, an integer "
      "(0: the ground under the target, nearest below its height)",
      NULL },
    { "costs", STEERB_RESOURCE, offsetof(Navigate, costs), 0, 0, 0,
      "a table of area name -> cost multiplier (>= 0.001; math.huge: never entered)",
      STEERB_RESOURCE_KIND(&steerB_navcosts_resource) },
    { 0 }
};

const steerB_Kind steerB_navigate = { .name = "navigate",
                                      .fields = navigate_fields,
                                      .eval = navigate_eval,
                                      .mem_floats = NV_MEM,
                                      .mem_of = navigate_mem,
                                      .check = navigate_check,
                                      .serve = navigate_serve,
                                      .serve_free = navigate_serve_free,
                                      .route = navigate_route,
                                      .derive = navigate_derive };
