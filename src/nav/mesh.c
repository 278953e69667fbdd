// SPDX-License-Identifier: MIT
// mesh.c — a navigation mesh as data: making, sharing and freeing one, the
// memory it holds and the hash of what it is (mesh.h).
#include "mesh.h"
#include "mesh_dyn.h"
#include "mesh_link.h"

#include "../core/bytes.h"
#include "predicates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// The arrays of the mesh part, each with its size per vertex or triangle:
// one table serves allocation, freeing and counting.
typedef struct Part {
    size_t offset; // of the pointer in steerN_Mesh
    size_t size;   // bytes per item
    bool per_tri;  // per triangle, else per vertex
} Part;
static const Part parts[] = {
    { offsetof(steerN_Mesh, ixy), 2 * sizeof(int64_t), false },
    { offsetof(steerN_Mesh, xy), 2 * sizeof(double), false },
    { offsetof(steerN_Mesh, vwall), 1, false },
    { offsetof(steerN_Mesh, tri), 3 * sizeof(uint32_t), true },
    { offsetof(steerN_Mesh, adj), 3 * sizeof(int32_t), true },
    { offsetof(steerN_Mesh, area), 1, true },
};
#define NPARTS (sizeof parts / sizeof parts[0])

static void **part_ptr(steerN_Mesh *m, size_t i) { return (void **)(void *)((char *)m + parts[i].offset); }
static size_t part_bytes(const steerN_Mesh *m, size_t i)
{
    return parts[i].size * (parts[i].per_tri ? m->ntri : m->nvert);
}

static steerN_Mesh *mesh_alloc(uint32_t nvert, uint32_t ntri, const steerN_Alloc *alloc, bool zero)
{
    steerN_Alloc a = alloc ? *alloc : (steerN_Alloc){ 0 };
    steerN_Mesh *m = steerN_realloc(&a, NULL, 0, sizeof *m);
    if (!m) return NULL;
    memset(m, 0, sizeof *m);
    atomic_init(&m->refs, 1);
    m->alloc = m->home = a;
    m->nvert = nvert;
    m->ntri = ntri;
    for (size_t i = 0; i < NPARTS; i++) {
        size_t n = part_bytes(m, i);
        void *p = steerN_realloc(&a, NULL, 0, n ? n : 1);
        if (!p) {
            steerN_mesh_free(m);
            return NULL;
        }
        if (zero) memset(p, 0, n ? n : 1);
        *part_ptr(m, i) = p;
    }
    m->nareas = 1;
    m->nlayers = 1;
    strcpy(m->area_name[0], "default");
    for (int i = 0; i < STEERN_MESH_AREAS; i++) m->area_cost[i] = 1.0f;
    return m;
}

steerN_Mesh *steerN_mesh_alloc(uint32_t nvert, uint32_t ntri, const steerN_Alloc *alloc)
{
    return mesh_alloc(nvert, ntri, alloc, true);
}

steerN_Mesh *steerN_mesh_alloc_unset(uint32_t nvert, uint32_t ntri, const steerN_Alloc *alloc)
{
    return mesh_alloc(nvert, ntri, alloc, false);
}

void steerN_mesh_free(steerN_Mesh *m)
{
    if (!m) return;
    if (m->aux_free) m->aux_free(m);
    steerN_mesh_free_heights(m);
    steerN_mesh_free_floors(m);
    if (m->dyn) steerN_mesh_dyn_free(m);
    steerN_links_free(m);
    for (size_t i = 0; i < NPARTS; i++) {
        void **p = part_ptr(m, i);
        if (*p) {
            size_t n = part_bytes(m, i);
            steerN_realloc(&m->alloc, *p, n ? n : 1, 0);
        }
    }
    steerN_Alloc a = m->home;
    steerN_realloc(&a, m, sizeof *m, 0);
}

void steerN_mesh_retain(steerN_Mesh *m)
{
    if (m) atomic_fetch_add(&m->refs, 1);
}

void steerN_mesh_release(steerN_Mesh *m)
{
    if (m && atomic_fetch_sub(&m->refs, 1) == 1) steerN_mesh_free(m);
}

size_t steerN_mesh_bytes(const steerN_Mesh *m)
{
    size_t n = sizeof *m;
    for (size_t i = 0; i < NPARTS; i++) n += part_bytes(m, i);
    return n + steerN_mesh_floor_bytes(m) + m->derived_bytes + (m->dyn ? steerN_mesh_dyn_bytes(m) : 0) +
           steerN_links_bytes(m) + steerN_mesh_height_bytes(m);
}

steerN_Mesh *steerN_mesh_clone(const steerN_Mesh *m)
{
    steerN_Mesh *c = steerN_mesh_alloc(m->nvert, m->ntri, &m->alloc);
    if (!c) return NULL;
    for (size_t i = 0; i < NPARTS; i++) memcpy(*part_ptr(c, i), *part_ptr((steerN_Mesh *)m, i), part_bytes(m, i));
    c->nareas = m->nareas;
    memcpy(c->area_name, m->area_name, sizeof c->area_name);
    memcpy(c->area_cost, m->area_cost, sizeof c->area_cost);
    c->nlayers = m->nlayers;
    if ((m->iz && steerN_mesh_alloc_floors(c, m->layer != NULL)) ||
        (m->hgrid && steerN_mesh_alloc_heights(c, m->nhz))) {
        steerN_mesh_free(c);
        return NULL;
    }
    if (m->iz) {
        memcpy(c->iz, m->iz, sizeof *c->iz * m->nvert);
        memcpy(c->z, m->z, sizeof *c->z * m->nvert);
    }
    if (m->layer) memcpy(c->layer, m->layer, sizeof *c->layer * m->ntri);
    if (m->hgrid) {
        memcpy(c->hgrid, m->hgrid, sizeof *c->hgrid * m->nlayers);
        memcpy(c->hz, m->hz, sizeof *c->hz * m->nhz);
        c->hcell = m->hcell;
    }
    c->hash = m->hash;
    return c;
}

// One array of n0 items of `size` bytes resized to n1 (an empty one holds
// one byte, or one item for the floors, as they were allocated).
static int resize_one(const steerN_Alloc *a, void **p, size_t size, size_t n0, size_t n1, bool floor)
{
    size_t b0 = size * n0, b1 = size * n1;
    if (floor) b0 = n0 ? b0 : size, b1 = n1 ? b1 : size;
    else b0 = b0 ? b0 : 1, b1 = b1 ? b1 : 1;
    if (!*p || b0 == b1) return 0;
    void *q = steerN_realloc(a, *p, b0, b1);
    if (!q) return -1;
    *p = q;
    return 0;
}

typedef struct Resized {
    void **p;
    size_t size;
    bool per_tri, floor;
} Resized;

int steerN_mesh_resize(steerN_Mesh *m, uint32_t nvert, uint32_t ntri)
{
    Resized arr[NPARTS + 3];
    size_t n = 0;
    for (size_t i = 0; i < NPARTS; i++) arr[n++] = (Resized){ part_ptr(m, i), parts[i].size, parts[i].per_tri, 0 };
    arr[n++] = (Resized){ (void **)&m->iz, sizeof *m->iz, false, true };
    arr[n++] = (Resized){ (void **)&m->z, sizeof *m->z, false, true };
    arr[n++] = (Resized){ (void **)&m->layer, sizeof *m->layer, true, true };
    for (size_t i = 0; i < n; i++) {
        size_t n0 = arr[i].per_tri ? m->ntri : m->nvert, n1 = arr[i].per_tri ? ntri : nvert;
        if (resize_one(&m->alloc, arr[i].p, arr[i].size, n0, n1, arr[i].floor) == 0) continue;
        while (i-- > 0) // back as they were (a shrink, which does not fail)
            resize_one(&m->alloc, arr[i].p, arr[i].size, arr[i].per_tri ? ntri : nvert,
                       arr[i].per_tri ? m->ntri : m->nvert, arr[i].floor);
        return -1;
    }
    m->nvert = nvert, m->ntri = ntri;
    return 0;
}

void steerN_mesh_exchange(steerN_Mesh *a, steerN_Mesh *b)
{
    int ra = atomic_load(&a->refs), rb = atomic_load(&b->refs);
    uint64_t sa = a->serial, sb = b->serial;
    steerN_Alloc ha = a->home, hb = b->home;
    unsigned char t[sizeof *a];
    memcpy(t, a, sizeof *a);
    memcpy(a, b, sizeof *a);
    memcpy(b, t, sizeof *a);
    atomic_store(&a->refs, ra);
    atomic_store(&b->refs, rb);
    a->serial = sa;
    b->serial = sb;
    a->home = ha;
    b->home = hb;
}

// (steerS_fnv64 over v's 8 little-endian bytes, without the store)
static inline uint64_t hash_u64(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) h = (h ^ ((v >> (8 * i)) & 0xFF)) * STEERS_FNV64_PRIME;
    return h;
}

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    return u;
}

// The height grids (mesh_heights.c), when the mesh has them.
static uint64_t hash_heights(const steerN_Mesh *m, uint64_t h)
{
    if (!m->hgrid) return h;
    h = hash_u64(h, bits_of(m->hcell));
    for (uint32_t k = 0; k < m->nlayers; k++) {
        const steerN_HeightGrid *g = m->hgrid + k;
        h = hash_u64(hash_u64(h, bits_of(g->x0)), bits_of(g->y0));
        h = hash_u64(hash_u64(h, g->nx), g->ny);
    }
    for (size_t i = 0; i < m->nhz; i++) h = hash_u64(h, (uint64_t)(int64_t)m->hz[i]);
    return h;
}

uint64_t steerN_mesh_hash(const steerN_Mesh *m)
{
    uint64_t h = STEERS_FNV64_BASIS;
    h = hash_u64(h, m->nvert);
    h = hash_u64(h, m->ntri);
    for (uint32_t i = 0; i < 2 * m->nvert; i++) h = hash_u64(h, (uint64_t)m->ixy[i]);
    for (uint32_t i = 0; i < 3 * m->ntri; i++) {
        h = hash_u64(h, m->tri[i]);
        h = hash_u64(h, (uint64_t)(int64_t)m->adj[i]);
    }
    h = steerS_fnv64(h, m->area, m->ntri);
    h = hash_u64(h, m->nareas);
    for (uint32_t i = 0; i < m->nareas; i++) {
        h = steerS_fnv64(h, m->area_name[i], strlen(m->area_name[i]) + 1);
        uint32_t bits;
        memcpy(&bits, &m->area_cost[i], 4);
        h = hash_u64(h, bits);
    }
    // floors: a flat mesh's hash is what it was before meshes had them
    if (m->iz) {
        h = hash_u64(h, m->nlayers);
        for (uint32_t i = 0; i < m->nvert; i++) h = hash_u64(h, (uint64_t)m->iz[i]);
        for (uint32_t t = 0; m->layer && t < m->ntri; t++) h = hash_u64(h, m->layer[t]);
    }
    h = steerN_links_hash(m, h); // (nothing for a mesh without links)
    return hash_heights(m, h);
}

uint64_t steerN_mesh_hash_known(const steerN_Mesh *m) { return m->hash ? m->hash : steerN_mesh_hash(m); }

int steerN_mesh_area(const steerN_Mesh *m, const char *name)
{
    for (uint32_t i = 0; i < m->nareas; i++)
        if (strcmp(m->area_name[i], name) == 0) return (int)i;
    return -1;
}

void steerN_mesh_set_metres_from(steerN_Mesh *m, uint32_t v0)
{
    for (size_t i = 2 * (size_t)v0; i < 2 * (size_t)m->nvert; i++) m->xy[i] = (double)m->ixy[i] / STEERN_MESH_SCALE;
    for (uint32_t i = v0; m->iz && i < m->nvert; i++) m->z[i] = (double)m->iz[i] / STEERN_MESH_SCALE;
}

void steerN_mesh_set_metres(steerN_Mesh *m) { steerN_mesh_set_metres_from(m, 0); }

bool steerN_mesh_quantize(double x, int64_t *q)
{
    double s = x * STEERN_MESH_SCALE;
    if (!(fabs(s) <= (double)STEERN_COORD_MAX)) return false; // NaN too
    *q = (int64_t)llround(s);
    return true;
}

// ---- an agent's area costs ------------------------------------------------

bool steerN_costs_ok(const float *cost, uint32_t n, uint32_t *bad)
{
    *bad = n;
    if (n > STEERN_MESH_AREAS) return false;
    for (uint32_t i = 0; i < n; i++)
        if (!(cost[i] >= (float)STEERN_COST_MIN)) { // NaN too; INFINITY passes
            *bad = i;
            return false;
        }
    return true;
}

steerN_AreaCosts *steerN_costs_new(const float *cost, uint32_t n)
{
    steerN_AreaCosts *c = malloc(sizeof *c);
    if (!c) return NULL;
    memset(c, 0, sizeof *c);
    atomic_init(&c->refs, 1);
    c->n = n < STEERN_MESH_AREAS ? n : STEERN_MESH_AREAS;
    if (c->n) memcpy(c->cost, cost, sizeof(float) * c->n);
    return c;
}

void steerN_costs_retain(steerN_AreaCosts *c)
{
    if (c) atomic_fetch_add(&c->refs, 1);
}

void steerN_costs_release(steerN_AreaCosts *c)
{
    if (c && atomic_fetch_sub(&c->refs, 1) == 1) free(c);
}

const float *steerN_costs_apply(const steerN_Mesh *m, const steerN_AreaCosts *c, float out[STEERN_MESH_AREAS])
{
    if (!c) return NULL;
    if (c->n >= m->nareas) return c->cost; // every area of m its own (those past nareas never read)
    for (uint32_t i = 0; i < STEERN_MESH_AREAS; i++) out[i] = i < c->n ? c->cost[i] : m->area_cost[i];
    return out;
}
