// SPDX-License-Identifier: MIT
// fuzz_navfloors.c — libFuzzer: obstacles that come and go on meshes of
// several floors (src/nav/mesh_dyn.h's "Floors"). The first byte picks the
// level: even, demos/building.navmesh (the demo's baked two-storey
// building with its stair and bridge, loaded from its bytes: no Recast
// needed); odd, in a build with Recast, one of 16 decks 2.5 to 4 m over
// a ground floor, a ramp up to each, baked from triangles (cached as
// bytes; without Recast the building again). Then the bytes as
// operations, 4 bytes each: add a blocked polygon (3 to 6 points on a
// 0.25 m lattice round a triangle of the mesh the bytes pick) or a box
// there, on that triangle's layer, on another layer or on the ground
// under its centre; move one (up to +-1.6 m); remove one. Checked:
//   - a change leaves every layer but its obstacle's as it was (the
//     triangles of each other layer, their corners and heights);
//   - a change refused because the footprint cuts a seam (a stair's foot,
//     a bridge's end) leaves the mesh as it was; nothing else is refused
//     but shapes that enclose nothing; a remove is never refused;
//   - points well inside a blocked obstacle are off its layer's ground;
//   - paths between triangles the bytes pick, on their floors, for radius
//     0 and 0.3: finite points on the mesh, finite heights;
//   - every fourth change and at the end, the derived data the change
//     updated where it reached is the bits a whole prepare gives;
//   - at the end the same obstacles added at once to the fresh level give
//     the same mesh (history does not count), and its bytes load back.
// A broken promise aborts.
#include "navobst_checks.h"
#include "nav/bake.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OBST 12
#define DECKS 16
#define MAX_LAYERS 8

typedef struct Bytes {
    unsigned char *p;
    size_t n;
} Bytes;

static Bytes building, decks[DECKS];

static Bytes building_bytes(void)
{
    if (building.p) return building;
    FILE *f = fopen(FUZZ_DIR "/../../demos/building.navmesh", "rb");
    if (!f) broken("demos/building.navmesh does not open", 0, 0);
    building.p = malloc(1 << 20);
    if (!building.p) abort();
    building.n = fread(building.p, 1, 1 << 20, f);
    fclose(f);
    return building;
}

// Soup for a deck: a quad (a b c d counter-clockwise seen from above).
typedef struct Soup {
    double xyz[3 * 16];
    uint32_t tri[3 * 8];
    uint32_t nv, nt;
} Soup;

static void quad(Soup *s, const double p[12])
{
    for (int i = 0; i < 12; i++) s->xyz[3 * s->nv + (uint32_t)i] = p[i];
    const uint32_t v = s->nv, t[6] = { v, v + 1, v + 2, v, v + 2, v + 3 };
    memcpy(s->tri + 3 * s->nt, t, sizeof t);
    s->nv += 4, s->nt += 2;
}

// Deck k: the ground 30 x 14 m, a deck 10 x 6 m at 2.5 to 4 m over it at
// x 16 .. 26, a ramp 6 m wide up to its west edge from x 4 or 6.
static Bytes deck_bytes(int k)
{
    if (decks[k].p) return decks[k];
    double h = 2.5 + (k % 4) * 0.5, x0 = k / 4 % 2 ? 4 : 6, y0 = k / 8 ? 3 : 4;
    Soup s = { .nv = 0 };
    quad(&s, (const double[]){ 0, 0, 0, 30, 0, 0, 30, 14, 0, 0, 14, 0 });
    quad(&s, (const double[]){ 16, y0, h, 26, y0, h, 26, y0 + 6, h, 16, y0 + 6, h });
    quad(&s, (const double[]){ x0, y0, 0, 16, y0, h, 16, y0 + 6, h, x0, y0 + 6, 0 });
    steerN_BakeSpec spec = {
        .xyz = s.xyz, .nverts = s.nv, .tri = s.tri, .ntris = s.nt, .height = 2, .climb = 0.4, .slope = 45, .cell = 0.25
    };
    steerN_MeshError err;
    steerN_Mesh *m = steerN_mesh_bake(&spec, NULL, &err);
    if (!m || steerN_mesh_prepare(m)) broken("a deck does not bake", k, 0);
    m->hash = steerN_mesh_hash(m);
    if (m->nlayers < 2) broken("a deck bakes to one layer", k, 0);
    steerS_Writer w;
    steerS_writer_init(&w, NULL, NULL);
    steerN_mesh_encode(m, &w);
    decks[k].p = malloc(w.n);
    if (!decks[k].p) abort();
    memcpy(decks[k].p, w.p, w.n);
    decks[k].n = w.n;
    steerS_writer_free(&w);
    steerN_mesh_release(m);
    return decks[k];
}

static steerN_Mesh *load(Bytes b)
{
    char msg[200];
    steerS_Reader r;
    steerS_reader_init(&r, b.p, b.n, msg, sizeof msg);
    bool oom;
    steerN_Mesh *m = steerN_mesh_decode(&r, NULL, &oom);
    if (!m || steerN_mesh_prepare(m)) {
        fprintf(stderr, "fuzz_navfloors: %s\n", m ? "out of memory" : msg);
        abort();
    }
    m->hash = steerN_mesh_hash(m);
    return m;
}

// Per layer, a sum of the hashes of its triangles (each its corners' x, y
// and height, from the least corner on): the same triangles in any order,
// whatever their numbers and their vertices' numbers, give the same sum.
static void layer_sums(const steerN_Mesh *m, uint64_t sum[MAX_LAYERS])
{
    memset(sum, 0, sizeof *sum * MAX_LAYERS);
    for (uint32_t t = 0; t < m->ntri; t++) {
        int64_t c[3][3];
        for (int i = 0; i < 3; i++) {
            uint32_t v = m->tri[3 * t + (uint32_t)i];
            c[i][0] = m->ixy[2 * v], c[i][1] = m->ixy[2 * v + 1], c[i][2] = m->iz ? m->iz[v] : 0;
        }
        int first = 0; // the corner least in (x, y, z): the same triangle's rotations hash alike
        for (int i = 1; i < 3; i++)
            if (memcmp(c[i], c[first], sizeof c[i]) < 0) first = i;
        uint64_t h = 1469598103934665603u;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                h ^= (uint64_t)c[(first + i) % 3][j];
                h *= 1099511628211u;
                h ^= h >> 29;
            }
        sum[m->layer ? m->layer[t] % MAX_LAYERS : 0] += h;
    }
}

// The centroid of triangle t of m.
static void centroid(const steerN_Mesh *m, uint32_t t, double c[2])
{
    c[0] = c[1] = 0;
    for (int i = 0; i < 3; i++) {
        uint32_t v = m->tri[3 * t + (uint32_t)i];
        c[0] += m->xy[2 * v] / 3, c[1] += m->xy[2 * v + 1] / 3;
    }
}

// Points well inside a blocked obstacle are off its layer's ground,
// whatever other obstacles overlap them (a self-crossing one's lobes
// included, whichever way they wind).
static void check_carved(const steerN_Mesh *m)
{
    uint32_t no = steerN_mesh_obstacle_count(m);
    for (uint32_t k = 0; k < no; k++) {
        const steerN_Obstacle *o = steerN_mesh_obstacle_at(m, k);
        double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
        for (uint32_t i = 0; i < o->npt; i++)
            for (int d = 0; d < 2; d++) lo[d] = fmin(lo[d], o->xy[2 * i + d]), hi[d] = fmax(hi[d], o->xy[2 * i + d]);
        steerN_Floor f = { .layer = o->layer + 1 };
        for (int i = 0; i <= 8; i++)
            for (int j = 0; j <= 8; j++) {
                double p[2] = { lo[0] + (hi[0] - lo[0]) * i / 8, lo[1] + (hi[1] - lo[1]) * j / 8 };
                if (!winding(o, p) || side_distance(o, p) < 3e-3) continue;
                if (steerN_mesh_locate_on(m, p, &f) >= 0) broken("ground inside an obstacle on its layer", p[0], p[1]);
            }
    }
}

static void check_paths(const steerN_Mesh *m, steerN_MeshQuery *q, const uint8_t *b)
{
    uint32_t s = ((uint32_t)b[0] << 8 | b[1]) % m->ntri, g = ((uint32_t)b[2] << 8 | b[3]) % m->ntri;
    double a[2], z[4096];
    double c[2];
    centroid(m, s, a);
    centroid(m, g, c);
    steerN_Floor fa = { .layer = m->layer ? m->layer[s] + 1u : 0 }, fc = { .layer = m->layer ? m->layer[g] + 1u : 0 };
    for (int ri = 0; ri < 2; ri++) {
        steerN_MeshFilter f = { .radius = ri ? 0.3 : 0, .from = &fa, .to = &fc };
        if (steerN_mesh_path(q, m, a, c, &f) != STEERN_PATH_FOUND) continue;
        uint32_t n;
        const double *p = steerN_mesh_path_points(q, &n);
        if (n > 4096) continue;
        steerN_mesh_path_heights(q, m, z);
        for (uint32_t i = 0; i < n; i++) {
            if (!isfinite(p[2 * i]) || !isfinite(p[2 * i + 1]) || !isfinite(z[i]))
                broken("a path point or height not finite", p[2 * i], z[i]);
            if (steerN_mesh_locate(m, p + 2 * i) < 0) broken("a path point off the mesh", p[2 * i], p[2 * i + 1]);
        }
    }
}

// Apply one change; true when the mesh changed. Checks that every layer
// but the obstacle's is as it was, and a refusal changed nothing.
static bool change(steerN_Mesh *m, const uint8_t *b, const uint8_t *data, size_t k, size_t size, uint32_t *ids, int *n)
{
    uint64_t before[MAX_LAYERS], after[MAX_LAYERS], hash = steerN_mesh_hash_known(m);
    layer_sums(m, before);
    steerN_ObstacleStatus st;
    uint32_t layer = 0; // of the obstacle changed
    int op = b[0] % 4;
    if ((op == 0 || op == 1) && *n < MAX_OBST) {
        uint32_t t = ((uint32_t)b[1] << 8 | b[2]) % m->ntri, own = m->layer ? m->layer[t] : 0;
        double c[2], xy[12];
        centroid(m, t, c);
        c[0] = floor(c[0] * 4) / 4, c[1] = floor(c[1] * 4) / 4;
        uint32_t np = 4;
        if (op == 0) {
            np = 3 + b[3] % 4;
            for (uint32_t i = 0; i < np; i++) {
                uint8_t r = data[(k + 5 + i) % size];
                xy[2 * i] = c[0] + (r % 16) * 0.25 - 2;
                xy[2 * i + 1] = c[1] + (r / 16) * 0.25 - 2;
            }
        } else {
            double w = 0.25 + (b[3] % 12) * 0.25, h = 0.25 + (b[3] / 12 % 12) * 0.25;
            const double box[8] = { c[0], c[1], c[0] + w, c[1], c[0] + w, c[1] + h, c[0], c[1] + h };
            memcpy(xy, box, sizeof box);
        }
        // its floor: the picked triangle's layer, the next one, or the ground under its centre
        int mode = b[0] / 4 % 3;
        steerN_Floor f = { .layer = mode == 0 ? own + 1 : mode == 1 ? (own + 1) % m->nlayers + 1 : 0 };
        uint32_t id;
        st = steerN_obstacle_add(m, xy, np, STEERN_OBST_BLOCKED, &f, &id);
        if (st == STEERN_OBST_OK) {
            ids[(*n)++] = id;
            layer = steerN_obstacle_get(m, id)->layer;
        } else if (st != STEERN_OBST_BADSHAPE && st != STEERN_OBST_SEAM) {
            broken("an add failed", st, np);
        }
    } else if (op == 2 && *n > 0) {
        uint32_t id = ids[b[1] % *n];
        layer = steerN_obstacle_get(m, id)->layer;
        st = steerN_obstacle_move(m, id, ((int)b[2] - 128) / 80.0, ((int)b[3] - 128) / 80.0);
        if (st && st != STEERN_OBST_SEAM) broken("a move failed", st, 0);
    } else if (op == 3 && *n > 0) {
        int i = b[1] % *n;
        layer = steerN_obstacle_get(m, ids[i])->layer;
        st = steerN_obstacle_remove(m, ids[i]);
        if (st) broken("a remove failed", st, 0);
        if (steerN_obstacle_remove(m, ids[i]) != STEERN_OBST_GONE) broken("removed twice", ids[i], 0);
        ids[i] = ids[--*n];
    } else {
        return false;
    }
    if (st) {
        if (steerN_mesh_hash_known(m) != hash) broken("a refused change changed the mesh", st, 0);
        return false;
    }
    layer_sums(m, after);
    for (uint32_t l = 0; l < m->nlayers && l < MAX_LAYERS; l++)
        if (l != layer && after[l] != before[l]) broken("a change on one layer changed another", layer, l);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    navobst_target = "fuzz_navfloors";
    if (size < 1) return 0;
    bool deck = (data[0] & 1) && steerN_bake_available();
    Bytes level = deck ? deck_bytes(data[0] / 2 % DECKS) : building_bytes();
    steerN_Mesh *m = load(level);
    steerN_MeshQuery *q = steerN_mesh_query_new(NULL);
    if (!q || m->nlayers < 2 || m->nlayers > MAX_LAYERS) abort();
    uint32_t ids[MAX_OBST];
    int n = 0, changes = 0;
    for (size_t k = 1; k + 4 <= size && k < 1 + 4 * 24; k += 4) {
        if (!change(m, data + k, data, k, size, ids, &n)) continue;
        check_carved(m);
        check_paths(m, q, data + k);
        if (++changes % 4 == 0) check_prepared(m);
    }
    check_end(m, load(level));
    steerN_mesh_query_free(q);
    steerN_mesh_release(m);
    return 0;
}
