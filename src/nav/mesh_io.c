// SPDX-License-Identifier: MIT
// mesh_io.c — a navigation mesh as bytes: what nm:save() gives and
// steer.navmesh_load reads, and what a snapshot holds of a mesh a
// behaviour steers on (mesh.h). Little-endian, the same on every machine.
//
// The bytes: "STNM", a u32 version (1: a flat mesh, 2: one with floors,
// 3: one with links), u32 nvert, u32 ntri, the vertices (2 i64 each,
// quanta), the triangles (3 u32 vertex indices, then 3 i32 neighbours,
// each), the areas per triangle (u8), u32 nareas, per area its name (u32
// length, bytes) and cost (f32); version 3 then a u8: 1 when the floors
// follow; version 2 (and 3 with that u8 1) then the floors
// (mesh_layers.c): u32 nlayers, the heights (i64 quanta per vertex) and,
// when nlayers > 1, the layers (u16 per triangle); version 3 then the
// links (mesh_link.c: u32 count, per link both ends as i64 x, y quanta and
// f64 z, f32 cost, u8 area, u8 flags: 1 both ways, 2 enabled, and its
// name); and last the mesh's hash (u64, steerN_mesh_hash), which a read
// checks. A flat mesh without links writes version 1, as before floors
// and links, and one with floors but no links version 2. A mesh with
// obstacles is version 7 (4 before its live mesh kept the base's numbers): its base (version 1, 2 or 5), its obstacles
// and its links (mesh_dyn.c); version 8 (6) the same on a base of several layers, each obstacle with its layer. A baked
// mesh with height grids is version 5: version 2's layout, then the height grids (mesh_heights.c's
// steerN_mesh_encode_heights), then the links (a count, maybe 0). A read trusts nothing:
// every count is checked against the bytes left before anything is
// allocated, every index against its range, every triangle is
// counter-clockwise and not flat (exact), every neighbour names this
// triangle back across the same edge, every name and cost is one a build
// could give; the wall flags are derived again, not read.
#include "mesh.h"
#include "mesh_dyn.h"
#include "mesh_link.h"

#include "../core/bytes.h"
#include "predicates.h"

#include <math.h>
#include <string.h>

#define MAGIC "STNM"
#define VERSION 1
#define VERSION_FLOORS 2
#define VERSION_LINKS 3
#define VERSION_OBSTACLES 4 // mesh_dyn.c writes it
#define VERSION_HEIGHTS 5
#define VERSION_OBST_LAYERS 6       // mesh_dyn.c wrote it too
#define VERSION_OBST_SLOTS 7        // 4 again, its live mesh numbered in slots (mesh_dyn.c writes it)
#define VERSION_OBST_SLOTS_LAYERS 8 // 6 again, the same

void steerN_mesh_encode(const steerN_Mesh *m, steerS_Writer *out)
{
    if (m->dyn) { // the base, the obstacles and the links (mesh_dyn.c), version 7 or 8
        steerN_mesh_dyn_encode(m, out);
        return;
    }
    steerS_put(out, MAGIC, 4);
    bool links = steerN_link_count(m) > 0;
    steerS_put_u32(out, m->hgrid ? VERSION_HEIGHTS : links ? VERSION_LINKS : m->iz ? VERSION_FLOORS : VERSION);
    steerS_put_u32(out, m->nvert);
    steerS_put_u32(out, m->ntri);
    steerS_put_array(out, m->ixy, sizeof(int64_t), 2 * (size_t)m->nvert);
    for (uint32_t t = 0; t < m->ntri; t++) {
        steerS_put_array(out, m->tri + 3 * (size_t)t, sizeof(uint32_t), 3);
        steerS_put_array(out, m->adj + 3 * (size_t)t, sizeof(int32_t), 3);
    }
    steerS_put(out, m->area, m->ntri);
    steerS_put_u32(out, m->nareas);
    for (uint32_t i = 0; i < m->nareas; i++) {
        steerS_put_str(out, m->area_name[i]);
        steerS_put_f32(out, m->area_cost[i]);
    }
    if (links && !m->hgrid) steerS_put_u8(out, m->iz ? 1 : 0); // version 3's floors flag
    if (m->iz) {
        steerS_put_u32(out, m->nlayers);
        steerS_put_array(out, m->iz, sizeof(int64_t), m->nvert);
        for (uint32_t t = 0; m->layer && t < m->ntri; t++) steerS_put_u16(out, m->layer[t]);
        if (m->hgrid) steerN_mesh_encode_heights(m, out);
    }
    if (links || m->hgrid) steerN_links_encode(m, out);
    steerS_put_u64(out, steerN_mesh_hash_known(m));
}

// The edge of triangle u from vertex a to vertex b, or -1.
static int edge_of(const steerN_Mesh *m, uint32_t u, uint32_t a, uint32_t b)
{
    const uint32_t *v = m->tri + 3 * (size_t)u;
    for (int i = 0; i < 3; i++)
        if (v[i] == a && v[(i + 1) % 3] == b) return i;
    return -1;
}

// Whether the topology read is one a build could give; fails r if not.
static bool check(steerS_Reader *r, steerN_Mesh *m)
{
    for (uint32_t i = 0; i < m->nvert; i++)
        if (!steerN_coord_ok(m->ixy + 2 * (size_t)i))
            return steerS_fail(r, "navigation mesh: vertex %u is out of range", i);
    for (uint32_t t = 0; t < m->ntri; t++) {
        const uint32_t *v = m->tri + 3 * (size_t)t;
        for (int i = 0; i < 3; i++)
            if (v[i] >= m->nvert)
                return steerS_fail(r, "navigation mesh: triangle %u names vertex %u of %u", t, v[i], m->nvert);
        if (steerN_orient2d(m->ixy + 2 * (size_t)v[0], m->ixy + 2 * (size_t)v[1], m->ixy + 2 * (size_t)v[2]) <= 0)
            return steerS_fail(r, "navigation mesh: triangle %u is not counter-clockwise", t);
        if (m->area[t] >= m->nareas)
            return steerS_fail(r, "navigation mesh: triangle %u has area %u of %u", t, m->area[t], m->nareas);
        for (int i = 0; i < 3; i++) {
            int32_t u = m->adj[3 * (size_t)t + (size_t)i];
            if (u < -1 || u >= (int32_t)m->ntri || u == (int32_t)t)
                return steerS_fail(r, "navigation mesh: triangle %u has a bad neighbour %d", t, u);
            if (u < 0) {
                m->vwall[v[i]] = m->vwall[v[(i + 1) % 3]] = 1;
                continue;
            }
            int j = edge_of(m, (uint32_t)u, v[(i + 1) % 3], v[i]);
            if (j < 0 || m->adj[3 * (size_t)u + (size_t)j] != (int32_t)t)
                return steerS_fail(r, "navigation mesh: triangles %u and %d do not share edge %d", t, u, i);
        }
    }
    return true;
}

// The floors of version 2 (heights, layers), checked; fails r if not.
static void read_floors(steerS_Reader *r, steerN_Mesh *m)
{
    uint32_t nlayers = steerS_get_u32(r);
    if (r->failed) return;
    if (nlayers < 1 || nlayers > STEERN_MESH_LAYERS || nlayers > m->ntri + 1) {
        steerS_fail(r, "navigation mesh: %u layers (1 to %d)", nlayers, STEERN_MESH_LAYERS);
        return;
    }
    size_t need = 8 * (size_t)m->nvert + (nlayers > 1 ? 2 * (size_t)m->ntri : 0) + 8;
    if (steerS_left(r) < need) {
        steerS_fail(r, "navigation mesh: its floors do not fit in %zu bytes", steerS_left(r));
        return;
    }
    if (steerN_mesh_alloc_floors(m, nlayers > 1)) {
        steerS_fail(r, "navigation mesh: out of memory");
        return;
    }
    m->nlayers = nlayers;
    steerS_get_array(r, m->iz, sizeof(int64_t), m->nvert);
    for (uint32_t i = 0; i < m->nvert && !r->failed; i++)
        if (!(m->iz[i] >= -STEERN_COORD_MAX && m->iz[i] <= STEERN_COORD_MAX))
            steerS_fail(r, "navigation mesh: vertex %u's height is out of range", i);
    for (uint32_t t = 0; m->layer && t < m->ntri && !r->failed; t++) {
        uint32_t k = steerS_get_u16(r);
        if (k >= nlayers) steerS_fail(r, "navigation mesh: triangle %u is on layer %u of %u", t, k, nlayers);
        m->layer[t] = (uint16_t)k;
    }
}

// A mesh's bytes; with obstacles (version 3) only when `obstacles` (a
// base inside those bytes is version 1 or 2).
static steerN_Mesh *decode(steerS_Reader *r, const steerN_Alloc *alloc, bool *oom, bool obstacles)
{
    *oom = false;
    const unsigned char *magic = steerS_take(r, 4);
    if (!magic) return NULL;
    if (memcmp(magic, MAGIC, 4) != 0) {
        steerS_fail(r, "not a navigation mesh (no STNM at its start)");
        return NULL;
    }
    uint32_t version = steerS_get_u32(r);
    if (!r->failed && obstacles &&
        (version == VERSION_OBSTACLES || version == VERSION_OBST_LAYERS || version == VERSION_OBST_SLOTS ||
         version == VERSION_OBST_SLOTS_LAYERS))
        return steerN_mesh_dyn_decode(r, version, alloc, oom);
    if (!r->failed && version != VERSION && version != VERSION_FLOORS && version != VERSION_LINKS &&
        version != VERSION_HEIGHTS) {
        steerS_fail(r, "navigation mesh: version %u, this steer reads %u to %u", version, VERSION,
                    VERSION_OBST_SLOTS_LAYERS);
        return NULL;
    }
    uint32_t nvert = steerS_get_u32(r), ntri = steerS_get_u32(r);
    if (r->failed) return NULL;
    // what the counts take at least: no allocation beyond the bytes given
    size_t need = 16 * (size_t)nvert + 25 * (size_t)ntri + 4 + 8;
    if (nvert > (1u << 28) || ntri > (1u << 28) || steerS_left(r) < need) {
        steerS_fail(r, "navigation mesh: %u vertices and %u triangles do not fit in %zu bytes", nvert, ntri,
                    steerS_left(r));
        return NULL;
    }
    steerN_Mesh *m = steerN_mesh_alloc(nvert, ntri, alloc);
    if (!m) {
        *oom = true;
        return NULL;
    }
    steerS_get_array(r, m->ixy, sizeof(int64_t), 2 * (size_t)nvert);
    for (uint32_t t = 0; t < ntri; t++) {
        steerS_get_array(r, m->tri + 3 * (size_t)t, sizeof(uint32_t), 3);
        steerS_get_array(r, m->adj + 3 * (size_t)t, sizeof(int32_t), 3);
    }
    const unsigned char *area = steerS_take(r, ntri);
    if (area) memcpy(m->area, area, ntri);
    m->nareas = steerS_get_u32(r);
    if (!r->failed && (m->nareas < 1 || m->nareas > STEERN_MESH_AREAS))
        steerS_fail(r, "navigation mesh: %u areas (1 to %d)", m->nareas, STEERN_MESH_AREAS);
    for (uint32_t i = 0; i < m->nareas && !r->failed; i++) {
        uint32_t len;
        const unsigned char *name = steerS_get_str(r, &len);
        float cost = steerS_get_f32(r);
        if (r->failed) break;
        if (len < 1 || len >= STEERN_MESH_AREA_NAME || memchr(name, 0, len))
            steerS_fail(r, "navigation mesh: area %u has a bad name", i);
        else if (!(cost > 0.0f)) steerS_fail(r, "navigation mesh: area %u has a cost that is not > 0", i);
        else {
            memcpy(m->area_name[i], name, len);
            m->area_name[i][len] = 0;
            m->area_cost[i] = cost;
            for (uint32_t j = 0; j < i; j++)
                if (strcmp(m->area_name[j], m->area_name[i]) == 0)
                    steerS_fail(r, "navigation mesh: two areas named '%s'", m->area_name[i]);
        }
    }
    bool floors = version == VERSION_FLOORS || version == VERSION_HEIGHTS;
    if (version == VERSION_LINKS && !r->failed) {
        uint32_t flag = steerS_get_u8(r);
        if (!r->failed && flag > 1) steerS_fail(r, "navigation mesh: a floors flag of %u", flag);
        floors = flag == 1;
    }
    if (floors && !r->failed) read_floors(r, m);
    if (version == VERSION_HEIGHTS && !r->failed) steerN_mesh_decode_heights(r, m);
    if (!r->failed && (version == VERSION_LINKS || version == VERSION_HEIGHTS)) steerN_links_decode(r, m, oom);
    uint64_t hash = steerS_get_u64(r);
    if (!r->failed && !*oom && check(r, m)) {
        steerN_mesh_set_metres(m);
        m->hash = steerN_mesh_hash(m);
        if (m->hash == hash) return m;
        steerS_fail(r, "navigation mesh: its hash does not match its contents (damaged bytes)");
    }
    steerN_mesh_free(m);
    return NULL;
}

steerN_Mesh *steerN_mesh_decode(steerS_Reader *r, const steerN_Alloc *alloc, bool *oom)
{
    return decode(r, alloc, oom, true);
}

steerN_Mesh *steerN_mesh_decode_base(steerS_Reader *r, const steerN_Alloc *alloc, bool *oom)
{
    return decode(r, alloc, oom, false);
}
