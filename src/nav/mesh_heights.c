// SPDX-License-Identifier: MIT
// mesh_heights.c — a baked mesh's ground heights (mesh.h, issue 33 item 2):
// per layer, a grid of the ground's height one cell apart, read
// bilinearly. The mesh's outlines are simplified in plan only, so a
// triangle's plane is the ground only where the ground is flat: a big
// triangle spanning a ramp's foot and the deck above it reads the deck
// 0.6 m low. The grid does not: a point's height comes from the four
// samples round it, each the exact height of the soup's surface at its
// point, so a flat floor reads its true height, a deck its own, a ramp its
// slope, and a stair a height between the two treads nearest.
//
// The samples: Recast gives, per layer, the top of the layer's span in
// each column (bake.cpp: a cell high at most above the ground, rounded
// up), and a column next to the layer on another layer joined to it (a
// seam) counts as the layer's. Each becomes the height, at the column's
// centre, of the highest up-facing soup triangle there at most a cell
// height above the span's top (the surface the span was rasterized from),
// to the millimetre. Beyond a layer's ground (its walls, which the
// outline's simplification may cross by 1.3 cells) the samples are carried
// out a few cells, each the mean of its neighbours with ground. A point
// no sample with ground surrounds falls back on its triangle's plane.
//
// Deterministic: the grids are integers (quanta) and a read is a few
// plain double operations on them, the same bits everywhere; the bake
// that made them may differ between machines as Recast does (bake.h).
#include "bake.h"
#include "mesh.h"

#include "../core/bytes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DILATE 4 // cells the samples are carried out past a layer's ground (bake.cpp's margin)

int steerN_mesh_alloc_heights(steerN_Mesh *m, size_t n)
{
    size_t nl = m->nlayers ? m->nlayers : 1;
    m->hgrid = steerN_realloc(&m->alloc, NULL, 0, sizeof *m->hgrid * nl);
    m->hz = steerN_realloc(&m->alloc, NULL, 0, sizeof *m->hz * (n ? n : 1));
    m->nhz = n;
    if (!m->hgrid || !m->hz) {
        steerN_mesh_free_heights(m);
        return -1;
    }
    memset(m->hgrid, 0, sizeof *m->hgrid * nl);
    memset(m->hz, 0, sizeof *m->hz * (n ? n : 1));
    return 0;
}

void steerN_mesh_free_heights(steerN_Mesh *m)
{
    size_t nl = m->nlayers ? m->nlayers : 1;
    if (m->hgrid) steerN_realloc(&m->alloc, m->hgrid, sizeof *m->hgrid * nl, 0);
    if (m->hz) steerN_realloc(&m->alloc, m->hz, sizeof *m->hz * (m->nhz ? m->nhz : 1), 0);
    m->hgrid = NULL;
    m->hz = NULL;
    m->nhz = 0;
    m->hcell = 0;
}

size_t steerN_mesh_height_bytes(const steerN_Mesh *m)
{
    if (!m->hgrid) return 0;
    return sizeof *m->hgrid * (m->nlayers ? m->nlayers : 1) + sizeof *m->hz * (m->nhz ? m->nhz : 1);
}

bool steerN_mesh_grid_height(const steerN_Mesh *m, uint32_t k, const double p[2], double *z)
{
    if (!m->hgrid || k >= m->nlayers) return false;
    const steerN_HeightGrid *g = m->hgrid + k;
    double u = (p[0] - g->x0) / m->hcell, v = (p[1] - g->y0) / m->hcell;
    if (!(u >= -1 && v >= -1 && u < (double)g->nx && v < (double)g->ny)) return false; // NaN too
    double fu = floor(u), fv = floor(v), a = u - fu, b = v - fv;
    int64_t i = (int64_t)fu, j = (int64_t)fv;
    double sum = 0, weight = 0;
    for (int c = 0; c < 4; c++) {
        int64_t x = i + (c & 1), y = j + (c >> 1);
        if (x < 0 || y < 0 || x >= g->nx || y >= g->ny) continue;
        int32_t s = m->hz[g->at + (size_t)y * g->nx + (size_t)x];
        if (s == STEERN_HZ_NONE) continue;
        double w = ((c & 1) ? a : 1 - a) * ((c >> 1) ? b : 1 - b);
        sum += w * (double)s;
        weight += w;
    }
    if (!(weight > 0)) return false;
    *z = sum / weight / STEERN_MESH_SCALE;
    return true;
}

// ---- made from a bake ------------------------------------------------------------

// The soup's up-facing triangles binned in plan: bin c holds
// item[start[c] .. start[c + 1]).
typedef struct Bins {
    double x0, y0, side;
    uint32_t nx, ny;
    size_t *start;
    uint32_t *item;
} Bins;

static bool up_facing(const steerN_BakeSpec *s, uint32_t t)
{
    const double *a = s->xyz + 3 * (size_t)s->tri[3 * t], *b = s->xyz + 3 * (size_t)s->tri[3 * t + 1],
                 *c = s->xyz + 3 * (size_t)s->tri[3 * t + 2];
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) > 0;
}

// The bins a triangle's box covers (x0, y0, x1, y1).
static void bin_range(const Bins *b, const steerN_BakeSpec *s, uint32_t t, uint32_t r[4])
{
    double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
    for (int k = 0; k < 3; k++)
        for (int d = 0; d < 2; d++) {
            double x = s->xyz[3 * (size_t)s->tri[3 * t + (uint32_t)k] + (size_t)d];
            lo[d] = fmin(lo[d], x), hi[d] = fmax(hi[d], x);
        }
    const double o[2] = { b->x0, b->y0 };
    const uint32_t n[2] = { b->nx, b->ny };
    for (int d = 0; d < 2; d++) {
        double f0 = floor((lo[d] - o[d]) / b->side), f1 = floor((hi[d] - o[d]) / b->side);
        r[d] = f0 < 0 ? 0 : f0 >= n[d] ? n[d] - 1 : (uint32_t)f0;
        r[2 + d] = f1 < 0 ? 0 : f1 >= n[d] ? n[d] - 1 : (uint32_t)f1;
    }
}

// Bins of about one triangle each (no smaller than a cell), coarser while
// the triangles' boxes would fill more than 2^27 entries. -1 when out of memory.
static int bins_make(Bins *b, const steerN_BakeSpec *s, double cell)
{
    double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
    for (uint32_t i = 0; i < s->nverts; i++)
        for (int d = 0; d < 2; d++) lo[d] = fmin(lo[d], s->xyz[3 * i + d]), hi[d] = fmax(hi[d], s->xyz[3 * i + d]);
    double span[2] = { hi[0] - lo[0], hi[1] - lo[1] };
    b->x0 = lo[0], b->y0 = lo[1];
    b->side = fmax(cell, sqrt(span[0] * span[1] / (s->ntris ? s->ntris : 1)));
    for (;;) {
        double nx = floor(span[0] / b->side) + 1, ny = floor(span[1] / b->side) + 1;
        if (nx * ny > (double)(1u << 26)) {
            b->side *= 2;
            continue;
        }
        b->nx = (uint32_t)nx, b->ny = (uint32_t)ny;
        size_t entries = 0;
        for (uint32_t t = 0; t < s->ntris; t++) {
            if (!up_facing(s, t)) continue;
            uint32_t r[4];
            bin_range(b, s, t, r);
            entries += (size_t)(r[2] - r[0] + 1) * (r[3] - r[1] + 1);
        }
        if (entries > ((size_t)1 << 27)) {
            b->side *= 2;
            continue;
        }
        size_t nb = (size_t)b->nx * b->ny;
        b->start = calloc(nb + 1, sizeof *b->start);
        b->item = malloc(sizeof *b->item * (entries ? entries : 1));
        if (!b->start || !b->item) return -1;
        for (int pass = 0; pass < 2; pass++) { // count, then place
            for (uint32_t t = 0; t < s->ntris; t++) {
                if (!up_facing(s, t)) continue;
                uint32_t r[4];
                bin_range(b, s, t, r);
                for (uint32_t y = r[1]; y <= r[3]; y++)
                    for (uint32_t x = r[0]; x <= r[2]; x++) {
                        size_t c = (size_t)y * b->nx + x;
                        if (pass == 0) b->start[c + 1]++;
                        else b->item[b->start[c]++] = t;
                    }
            }
            if (pass == 0)
                for (size_t c = 0; c < nb; c++) b->start[c + 1] += b->start[c];
            else // (placing moved each start to the next bin's)
                for (size_t c = nb; c > 0; c--) b->start[c] = b->start[c - 1];
        }
        b->start[0] = 0;
        return 0;
    }
}

// The height at p of the highest up-facing triangle over p at most `above`
// over h and at least `below` under it; false when none is.
static bool soup_height(const Bins *b, const steerN_BakeSpec *s, const double p[2], double h, double above,
                        double below, double *z)
{
    double fx = floor((p[0] - b->x0) / b->side), fy = floor((p[1] - b->y0) / b->side);
    if (!(fx >= 0 && fy >= 0 && fx < b->nx && fy < b->ny)) return false;
    size_t c = (size_t)fy * b->nx + (size_t)fx;
    bool found = false;
    for (size_t k = b->start[c]; k < b->start[c + 1]; k++) {
        uint32_t t = b->item[k];
        const double *v[3];
        for (int i = 0; i < 3; i++) v[i] = s->xyz + 3 * (size_t)s->tri[3 * t + (uint32_t)i];
        double w[3];
        for (int i = 0; i < 3; i++) { // twice the area of (v[i + 1], v[i + 2], p): v[i]'s weight
            const double *q = v[(i + 1) % 3], *r = v[(i + 2) % 3];
            w[i] = (r[0] - q[0]) * (p[1] - q[1]) - (r[1] - q[1]) * (p[0] - q[0]);
        }
        double det = w[0] + w[1] + w[2];
        if (w[0] < 0 || w[1] < 0 || w[2] < 0 || !(det > 0)) continue;
        double zt = (w[0] * v[0][2] + w[1] * v[1][2] + w[2] * v[2][2]) / det;
        if (zt > h + above || zt < h - below || (found && zt <= *z)) continue;
        *z = zt;
        found = true;
    }
    return found;
}

// Carry layer g's samples out past its ground: DILATE times, each sample
// without ground and with a neighbour (of 8) that has gets their mean (of
// the samples before the pass: rows is room for two rows, the one above
// and the one being changed, as they were).
static void dilate(steerN_Mesh *m, const steerN_HeightGrid *g, int32_t *rows)
{
    int32_t *z = m->hz + g->at, *above = rows, *row = rows + g->nx;
    for (int pass = 0; pass < DILATE; pass++)
        for (uint32_t y = 0; y < g->ny; y++) {
            int32_t *t = above;
            above = row, row = t;
            memcpy(row, z + (size_t)y * g->nx, sizeof *z * g->nx);
            for (uint32_t x = 0; x < g->nx; x++) {
                if (row[x] != STEERN_HZ_NONE) continue;
                int64_t sum = 0, count = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int64_t ax = (int64_t)x + dx, ay = (int64_t)y + dy;
                        if (ax < 0 || ay < 0 || ax >= g->nx || ay >= g->ny) continue;
                        const int32_t *src = dy < 0 ? above : dy == 0 ? row : z + (size_t)ay * g->nx;
                        int32_t s = src[ax];
                        if (s != STEERN_HZ_NONE) sum += s, count++;
                    }
                if (count) z[(size_t)y * g->nx + x] = (int32_t)llround((double)sum / (double)count);
            }
        }
}

// Layer k's box of columns (x0, y0, nx, ny): the union of its parts'.
static void union_box(const steerN_BakeRings *r, const uint32_t *layer_of, const uint32_t *part_layer, uint32_t nparts,
                      uint32_t k, uint32_t out[4])
{
    uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0; // (x1, y1: past the last)
    for (uint32_t j = 0; j < nparts; j++) {
        const uint32_t *b = r->grid_box + 4 * layer_of[j];
        if (part_layer[j] != k || !b[2] || !b[3]) continue;
        if (b[0] < x0) x0 = b[0];
        if (b[1] < y0) y0 = b[1];
        if (b[0] + b[2] > x1) x1 = b[0] + b[2];
        if (b[1] + b[3] > y1) y1 = b[1] + b[3];
    }
    bool empty = x0 == UINT32_MAX;
    out[0] = empty ? 0 : x0, out[1] = empty ? 0 : y0, out[2] = empty ? 0 : x1 - x0, out[3] = empty ? 0 : y1 - y0;
}

int steerN_mesh_bake_heights(steerN_Mesh *m, const steerN_BakeSpec *s, const steerN_BakeRings *r,
                             const uint32_t *layer_of, const uint32_t *part_layer, uint32_t nparts)
{
    if (!r->grid_box || !r->grid_y) return 0;
    size_t total = 0, widest = 0;
    for (uint32_t k = 0; k < m->nlayers; k++) {
        uint32_t box[4];
        union_box(r, layer_of, part_layer, nparts, k, box);
        total += (size_t)box[2] * box[3];
        if (box[2] > widest) widest = box[2];
    }
    if (total > STEERN_HZ_MAX) return 0; // too many to keep: the planes serve
    Bins bins = { 0 };
    int32_t *scratch = malloc(sizeof *scratch * 2 * (widest ? widest : 1));
    uint8_t *done = calloc(m->nvert ? m->nvert : 1, 1);
    if (!scratch || !done || bins_make(&bins, s, r->cell) || steerN_mesh_alloc_heights(m, total)) goto oom;
    m->hcell = r->cell;
    double above = r->ch * 1.01, below = s->climb + r->cell + 2 * r->ch;
    size_t at = 0;
    for (uint32_t k = 0; k < m->nlayers; k++) {
        uint32_t box[4];
        union_box(r, layer_of, part_layer, nparts, k, box);
        steerN_HeightGrid *g = m->hgrid + k;
        *g = (steerN_HeightGrid){ .x0 = r->grid_x0 + box[0] * r->cell,
                                  .y0 = r->grid_y0 + box[1] * r->cell,
                                  .nx = box[2],
                                  .ny = box[3],
                                  .at = at };
        for (size_t i = 0; i < (size_t)g->nx * g->ny; i++) m->hz[at + i] = STEERN_HZ_NONE;
        // each part's samples, first in its own tile's columns (in a tiled
        // bake its box reaches a few columns into the next tiles', which
        // are theirs), then the rest where no part has one
        for (int own = 1; own >= 0; own--)
            for (uint32_t j = 0; j < nparts; j++) {
                if (part_layer[j] != k) continue;
                const uint32_t *b = r->grid_box + 4 * layer_of[j];
                const uint16_t *src = r->grid_y + r->grid_at[layer_of[j]];
                uint32_t tile = r->tile ? r->layer_tile[layer_of[j]] : 0;
                for (uint32_t y = 0; y < b[3]; y++)
                    for (uint32_t x = 0; x < b[2]; x++) {
                        uint16_t sy = src[(size_t)y * b[2] + x];
                        uint32_t cx = b[0] + x, cy = b[1] + y;
                        int32_t *d = m->hz + at + (size_t)(cy - box[1]) * g->nx + (cx - box[0]);
                        bool mine = !r->tile || (cy / r->tile) * r->tiles_x + cx / r->tile == tile;
                        if (sy == STEERN_BAKE_NO_SAMPLE || *d != STEERN_HZ_NONE || mine != (own == 1)) continue;
                        double h = r->grid_z0 + sy * r->ch,
                               p[2] = { g->x0 + (cx - box[0]) * m->hcell, g->y0 + (cy - box[1]) * m->hcell }, z = h;
                        int64_t q;
                        soup_height(&bins, s, p, h, above, below, &z); // (else the span's top)
                        *d = steerN_mesh_quantize(z, &q) && q > INT32_MIN && q <= INT32_MAX ? (int32_t)q
                                                                                            : STEERN_HZ_NONE;
                    }
            }
        at += (size_t)g->nx * g->ny;
        dilate(m, g, scratch);
    }
    // the vertices' heights from the grids, each by the first triangle at it
    for (uint32_t t = 0; t < m->ntri; t++)
        for (int i = 0; i < 3; i++) {
            uint32_t v = m->tri[3 * t + (uint32_t)i];
            double z;
            if (done[v] || !steerN_mesh_grid_height(m, m->layer ? m->layer[t] : 0, m->xy + 2 * v, &z)) continue;
            done[v] = 1;
            steerN_mesh_quantize(z, &m->iz[v]);
        }
    steerN_mesh_set_metres(m);
    m->hash = steerN_mesh_hash(m);
    free(bins.start), free(bins.item), free(scratch), free(done);
    return 0;
oom:
    free(bins.start), free(bins.item), free(scratch), free(done);
    steerN_mesh_free_heights(m);
    return -1;
}

bool steerN_mesh_vertex_height(const steerN_Mesh *m, uint32_t k, const double p[2], int64_t *iz)
{
    steerN_Floor f = { .layer = k + 1 };
    double z;
    return steerN_mesh_height(m, p, &f, &z, NULL) && steerN_mesh_quantize(z, iz);
}

// ---- hash and bytes ----------------------------------------------------------

// The bytes (mesh_io.c's version 5, after the floors): f64 the cell, per
// layer f64 x0, y0 and u32 nx, ny, then the samples of every layer in
// order, run-length coded (a flat floor is a few runs a row): u32 the
// runs, then per run u32 its length (>= 1) and i32 its sample (quanta).
void steerN_mesh_encode_heights(const steerN_Mesh *m, steerS_Writer *out)
{
    steerS_put_f64(out, m->hcell);
    for (uint32_t k = 0; k < m->nlayers; k++) {
        steerS_put_f64(out, m->hgrid[k].x0);
        steerS_put_f64(out, m->hgrid[k].y0);
        steerS_put_u32(out, m->hgrid[k].nx);
        steerS_put_u32(out, m->hgrid[k].ny);
    }
    uint32_t runs = 0;
    for (size_t i = 0; i < m->nhz; i++) runs += !i || m->hz[i] != m->hz[i - 1];
    steerS_put_u32(out, runs);
    for (size_t i = 0, j; i < m->nhz; i = j) {
        for (j = i + 1; j < m->nhz && m->hz[j] == m->hz[i];) j++;
        steerS_put_u32(out, (uint32_t)(j - i));
        steerS_put_u32(out, (uint32_t)m->hz[i]);
    }
}

void steerN_mesh_decode_heights(steerS_Reader *r, steerN_Mesh *m)
{
    double cell = steerS_get_f64(r);
    if (r->failed) return;
    if (!(cell >= 1e-3 && cell <= 1e3)) {
        steerS_fail(r, "navigation mesh: its height grids' cell (%g m) is not 0.001 to 1000", cell);
        return;
    }
    if (steerS_left(r) < 24 * (size_t)m->nlayers) {
        steerS_fail(r, "navigation mesh: its height grids do not fit in %zu bytes", steerS_left(r));
        return;
    }
    steerN_HeightGrid *g = malloc(sizeof *g * m->nlayers);
    if (!g) {
        steerS_fail(r, "navigation mesh: out of memory");
        return;
    }
    size_t total = 0;
    for (uint32_t k = 0; k < m->nlayers && !r->failed; k++) {
        g[k].x0 = steerS_get_f64(r), g[k].y0 = steerS_get_f64(r);
        g[k].nx = steerS_get_u32(r), g[k].ny = steerS_get_u32(r);
        g[k].at = total;
        if (r->failed) break;
        if (!(fabs(g[k].x0) <= 2 * STEERN_BAKE_MAX_COORD && fabs(g[k].y0) <= 2 * STEERN_BAKE_MAX_COORD))
            steerS_fail(r, "navigation mesh: layer %u's height grid is out of range", k + 1);
        total += (size_t)g[k].nx * g[k].ny;
        if (total > STEERN_HZ_MAX) steerS_fail(r, "navigation mesh: more than %u height samples", STEERN_HZ_MAX);
    }
    uint32_t runs = steerS_get_u32(r);
    if (!r->failed && (runs > total || steerS_left(r) < 8 * (size_t)runs + 8))
        steerS_fail(r, "navigation mesh: %u runs of height samples do not fit in %zu bytes", runs, steerS_left(r));
    if (!r->failed && steerN_mesh_alloc_heights(m, total)) steerS_fail(r, "navigation mesh: out of memory");
    size_t at = 0;
    for (uint32_t i = 0; i < runs && !r->failed; i++) {
        uint32_t len = steerS_get_u32(r);
        int32_t z = (int32_t)steerS_get_u32(r);
        if (len < 1 || len > total - at) steerS_fail(r, "navigation mesh: a run of height samples past the grids");
        for (uint32_t k = 0; k < len && !r->failed; k++) m->hz[at++] = z;
    }
    if (!r->failed && at != total) steerS_fail(r, "navigation mesh: %zu height samples of %zu", at, total);
    if (!r->failed) {
        memcpy(m->hgrid, g, sizeof *g * m->nlayers);
        m->hcell = cell;
    }
    free(g);
}
