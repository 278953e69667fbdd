// SPDX-License-Identifier: MIT
// bake.cpp — the walkable ground of a triangle soup, by Recast, as 2D
// rings (the contract: bake.h). The only C++ of steer, and the only file
// that includes Recast: built when meson finds libRecast (-Drecast=auto);
// without it bake_mesh.c says the build has no baking.
//
// Frames: steer's vertices are z up, Recast's y up: steer (x, y, z) is
// Recast (x, z, y). That swap mirrors windings, so which triangles are
// ground is decided here, in steer's frame (a triangle faces up when its
// corners run counter-clockwise seen from above), and Recast only
// rasterizes (which does not care about winding).
//
// No exception: Recast allocates with malloc and throws nothing, and this
// file is built with -fno-exceptions -fno-rtti and uses no std:: (whose
// templates, instantiated here, would be exported from libsteer.so:
// tests/shared.sh) and no new. Of libstdc++ it needs only operator delete
// (rcContext's virtual destructor): a C host links libsteer.a with
// -lRecast -lstdc++, as steer.pc and steer-core.pc say (tests/install.sh).
#include "bake.h"

#include <recastnavigation/Recast.h>

extern "C" {
#include "../core/pmath.h" // cos without libm's (tests/libm.sh)
}

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace
{

// Recast's log, its errors kept: the first one becomes the bake's message.
class Context : public rcContext
{
  public:
    Context() : rcContext(true) {}
    char first[160] = { 0 };

  protected:
    void doLog(const rcLogCategory category, const char *msg, const int len) override
    {
        if (category == RC_LOG_ERROR && !first[0]) snprintf(first, sizeof first, "%.*s", len, msg);
    }
};

// What a bake allocates, freed however it ends.
struct Scratch {
    float *v = nullptr;
    int *tri = nullptr;
    unsigned char *area = nullptr;
    int *stack = nullptr;
    int *work = nullptr; // the layer partition's (floors)
    rcHeightfield *hf = nullptr;
    rcCompactHeightfield *chf = nullptr;
    rcContourSet *cset = nullptr;
    Scratch() = default;
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;
    ~Scratch()
    {
        free(v);
        free(tri);
        free(area);
        free(stack);
        free(work);
        rcFreeHeightField(hf);
        rcFreeCompactHeightfield(chf);
        rcFreeContourSet(cset);
    }
};

int fail(char *msg, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, n, fmt, ap);
    va_end(ap);
    return -1;
}

int recast_fail(char *msg, size_t n, const Context &ctx, const char *step)
{
    if (ctx.first[0]) return fail(msg, n, "the bake failed in %s: %s", step, ctx.first);
    return fail(msg, n, "the bake failed in %s (out of memory?)", step);
}

// The regions: each piece of ground connected through Recast's span
// connections (a step within climb, room for the height) is one region,
// so that every region's contours are walls alone. (Recast's watershed
// makes regions that border each other, and simplifies those borders to
// straight lines, which may cut across a wall: even-odd, a sliver there
// would be ground.) Pieces under 64 cells are dropped, but, in a tile
// (tiled), not one that reaches the edge of the tile's heightfield (its
// last two columns: Recast's ledge filter takes the last as a drop): it
// may go on in the next tile. chf.maxRegions: the count. 0; -1 when out
// of memory; 1 for more pieces than region ids.
int pieces(rcCompactHeightfield &chf, Scratch *x, bool tiled)
{
    const int n = chf.spanCount;
    int *st = x->stack = (int *)malloc(sizeof *st * 4 * (size_t)(n ? n : 1)); // 3 a span on the stack, 1 in the piece
    if (!st) return -1;
    int *piece = st + 3 * (size_t)n;
    const unsigned short mark = RC_BORDER_REG, dropped = RC_BORDER_REG | 1;
    for (int i = 0; i < n; i++) chf.spans[i].reg = 0;
    int id = 0;
    for (int y = 0; y < chf.height; y++)
        for (int cx = 0; cx < chf.width; cx++) {
            const rcCompactCell &c = chf.cells[cx + y * chf.width];
            for (int i = (int)c.index, e = (int)(c.index + c.count); i < e; i++) {
                if (chf.spans[i].reg) continue;
                int top = 0, k = 0;
                bool edge = false;
                st[top++] = cx, st[top++] = y, st[top++] = i;
                chf.spans[i].reg = mark;
                while (top) {
                    int si = st[--top], sy = st[--top], sx = st[--top];
                    piece[k++] = si;
                    edge = edge || sx <= 1 || sy <= 1 || sx >= chf.width - 2 || sy >= chf.height - 2;
                    const rcCompactSpan &sp = chf.spans[si];
                    for (int dir = 0; dir < 4; dir++) {
                        int con = rcGetCon(sp, dir);
                        if (con == RC_NOT_CONNECTED) continue;
                        int ax = sx + rcGetDirOffsetX(dir), ay = sy + rcGetDirOffsetY(dir);
                        int ai = (int)chf.cells[ax + ay * chf.width].index + con;
                        if (chf.spans[ai].reg) continue;
                        chf.spans[ai].reg = mark;
                        st[top++] = ax, st[top++] = ay, st[top++] = ai;
                    }
                }
                const bool keep = k >= 64 || (tiled && edge);
                if (keep && ++id >= RC_BORDER_REG) return 1;
                for (int j = 0; j < k; j++) chf.spans[piece[j]].reg = keep ? (unsigned short)id : dropped;
            }
        }
    for (int i = 0; i < n; i++)
        if (chf.spans[i].reg == dropped) chf.spans[i].reg = 0;
    chf.maxRegions = (unsigned short)id;
    return 0;
}

// Whether column (x, y) holds ground in a region.
bool has_ground(const rcCompactHeightfield &chf, int x, int y)
{
    const rcCompactCell &c = chf.cells[x + y * chf.width];
    for (unsigned i = c.index, e = c.index + c.count; i < e; i++)
        if (chf.spans[i].reg) return true;
    return false;
}

// The pairs of regions (keys a * nreg + b, a and b below nreg) sorted,
// each once: two stable counting sorts, by b then by a, in linear time
// (a qsort of them was a third of a town's bake). tmp: room for k keys;
// count: for nreg + 1. The count left.
size_t sort_pairs(int64_t *p, size_t k, int nreg, int64_t *tmp, size_t *count)
{
    for (int pass = 0; pass < 2; pass++) {
        memset(count, 0, sizeof *count * ((size_t)nreg + 1));
        auto digit = [&](int64_t key) { return (size_t)(pass == 0 ? key % nreg : key / nreg); };
        for (size_t i = 0; i < k; i++) count[digit(p[i]) + 1]++;
        for (int r = 0; r < nreg; r++) count[r + 1] += count[r];
        for (size_t i = 0; i < k; i++) tmp[count[digit(p[i])]++] = p[i];
        memcpy(p, tmp, sizeof *p * k);
    }
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (!m || p[i] != p[m - 1]) p[m++] = p[i];
    return m;
}

// The layers of ground that lies over itself (Recast's heightfield layers,
// rcBuildHeightfieldLayers, without their 255-region and height limits):
// the spans in regions are swept row by row into monotone regions (one run
// of cells per row: none lies over itself), and those are merged, lowest
// first, each into the first layer it touches where it overlaps no region
// already there. Every span in a region gets its layer + 1 as its region
// and a walkable area id that differs between neighbouring layers, so
// that the seams between layers are area borders, which Recast's contours
// follow within the error as they do walls, and trace alike from both
// sides. The count of layers; -1 when out of memory.
int floors(rcCompactHeightfield &chf, Scratch *x)
{
    const int n = chf.spanCount, w = chf.width;
    // per span: its monotone region, its row sweep; per region: its height,
    // its layer; per sweep: the region below, the spans joining it, its id
    int *mem = x->work = (int *)malloc(sizeof(int) * 9 * (size_t)(n ? n : 1));
    if (!mem) return -1;
    int *rid = mem, *sweep = mem + n, *below = mem + 2 * n, *count = mem + 3 * n, *sid_of = mem + 4 * n;
    int *ymin = mem + 5 * n, *layer = mem + 6 * n, *prev = mem + 7 * n, *heap = mem + 8 * n;
    int nreg = 0;
    for (int i = 0; i < n; i++) rid[i] = -1, prev[i] = 0;
    for (int y = 0; y < chf.height; y++) {
        int nsweep = 0, ntouched = 0; // heap: the regions below this row's spans
        for (int cx = 0; cx < w; cx++) {
            const rcCompactCell &c = chf.cells[cx + y * w];
            for (int i = (int)c.index, e = (int)(c.index + c.count); i < e; i++) {
                const rcCompactSpan &sp = chf.spans[i];
                if (!sp.reg) continue;
                int sid = -1;
                if (rcGetCon(sp, 0) != RC_NOT_CONNECTED) {
                    int ai = (int)chf.cells[cx - 1 + y * w].index + rcGetCon(sp, 0);
                    if (chf.spans[ai].reg) sid = sweep[ai];
                }
                if (sid < 0) sid = nsweep++, below[sid] = -1, count[sid] = 0;
                sweep[i] = sid;
                if (rcGetCon(sp, 3) == RC_NOT_CONNECTED) {
                    // ground beside it, out of reach (a cliff, another
                    // floor): a region of its own, so that no region
                    // borders itself there
                    if (y > 0 && has_ground(chf, cx, y - 1)) below[sid] = -2;
                    continue;
                }
                int ai = (int)chf.cells[cx + (y - 1) * w].index + rcGetCon(sp, 3);
                int nr = chf.spans[ai].reg ? rid[ai] : -1;
                if (nr < 0) continue;
                if (below[sid] == -1 || below[sid] == nr) {
                    below[sid] = nr;
                    count[sid]++;
                    if (!prev[nr]++) heap[ntouched++] = nr;
                } else
                    below[sid] = -2; // two regions below: a new one
            }
        }
        // a sweep goes on with the region below when it alone joins it
        for (int s = 0; s < nsweep; s++)
            if (below[s] >= 0 && prev[below[s]] == count[s]) sid_of[s] = below[s];
            else sid_of[s] = nreg++, ymin[sid_of[s]] = 0xffff, prev[sid_of[s]] = 0;
        for (int cx = 0; cx < w; cx++) {
            const rcCompactCell &c = chf.cells[cx + y * w];
            for (int i = (int)c.index, e = (int)(c.index + c.count); i < e; i++)
                if (chf.spans[i].reg) {
                    int r = rid[i] = sid_of[sweep[i]];
                    if (chf.spans[i].y < ymin[r]) ymin[r] = chf.spans[i].y;
                }
        }
        for (int k = 0; k < ntouched; k++) prev[heap[k]] = 0;
    }
    // regions' neighbours and overlaps as lists of pairs (sweep and below
    // serve again): a pair (a, b) a key a * nreg + b, sorted, unique
    // (and after them, room for the regions in order: n more)
    size_t cap = 6 * (size_t)(n ? n : 1), np = 0, no;
    int64_t *pairs = (int64_t *)malloc(sizeof(int64_t) * (cap + (size_t)n));
    if (!pairs) return -1;
    for (int y = 0; y < chf.height; y++)
        for (int cx = 0; cx < w; cx++) {
            const rcCompactCell &c = chf.cells[cx + y * w];
            for (int i = (int)c.index, e = (int)(c.index + c.count); i < e; i++) {
                if (!chf.spans[i].reg) continue;
                for (int dir = 0; dir < 4; dir++) {
                    int con = rcGetCon(chf.spans[i], dir);
                    if (con == RC_NOT_CONNECTED) continue;
                    int ai = (int)chf.cells[cx + rcGetDirOffsetX(dir) + (y + rcGetDirOffsetY(dir)) * w].index + con;
                    if (!chf.spans[ai].reg || rid[ai] == rid[i]) continue;
                    int64_t key = (int64_t)rid[i] * nreg + rid[ai];
                    if (!np || pairs[np - 1] != key) pairs[np++] = key; // (a repeat of the last: dropped now)
                }
            }
        }
    no = np;
    // overlaps: two regions in one column, or side by side out of reach
    // of each other (their outlines would meet in plan: in one layer, the
    // cliff between them would be lost)
    for (int i = 0; i < w * chf.height; i++) {
        const rcCompactCell &c = chf.cells[i];
        for (unsigned a = c.index, e = c.index + c.count; a < e; a++)
            for (int dir = -1; dir < 4 && chf.spans[a].reg; dir++) {
                const rcCompactCell *nc = &c;
                if (dir >= 0) {
                    int nx = i % w + rcGetDirOffsetX(dir), ny = i / w + rcGetDirOffsetY(dir);
                    if (nx < 0 || ny < 0 || nx >= w || ny >= chf.height) continue;
                    nc = &chf.cells[nx + ny * w];
                }
                int con = dir >= 0 ? rcGetCon(chf.spans[a], dir) : RC_NOT_CONNECTED;
                for (unsigned b = nc->index, be = nc->index + nc->count; b < be; b++) {
                    if (b == a || !chf.spans[b].reg || (con != RC_NOT_CONNECTED && b == nc->index + (unsigned)con))
                        continue;
                    if (rid[a] == rid[b]) continue;
                    if (np + 2 > cap) { // columns of many floors: make room
                        int64_t *more = (int64_t *)realloc(pairs, sizeof(int64_t) * (2 * cap + (size_t)n));
                        if (!more) {
                            free(pairs);
                            return -1;
                        }
                        pairs = more;
                        cap *= 2;
                    }
                    int64_t ab = (int64_t)rid[a] * nreg + rid[b], ba = (int64_t)rid[b] * nreg + rid[a];
                    if (np - no >= 2 && pairs[np - 2] == ab && pairs[np - 1] == ba) continue;
                    pairs[np++] = ab;
                    pairs[np++] = ba;
                }
            }
    }
    int64_t *tmp = (int64_t *)malloc(sizeof *tmp * (np ? np : 1));
    size_t *tally = (size_t *)malloc(sizeof *tally * ((size_t)nreg + 1));
    if (!tmp || !tally) {
        free(tmp), free(tally), free(pairs);
        return -1;
    }
    size_t nn = sort_pairs(pairs, no, nreg, tmp, tally), nov = sort_pairs(pairs + no, np - no, nreg, tmp, tally);
    free(tmp), free(tally);
    // merged lowest first, each layer grown through neighbours (heap and
    // the room after the pairs serve)
    int nlayers = steerN_bake_merge(nreg, ymin, pairs, nn, pairs + no, nov, layer, heap, pairs + np);
    free(pairs);
    for (int i = 0; i < n; i++)
        if (chf.spans[i].reg) {
            int L = layer[rid[i]];
            chf.spans[i].reg = (unsigned short)(L + 1 < RC_BORDER_REG ? L + 1 : 0);
            chf.areas[i] = (unsigned char)(1 + L % (RC_WALKABLE_AREA - 1));
        }
    return nlayers;
}

// What every tile of a bake shares: the soup in Recast's frame, the
// level's box, and the agent's numbers in cells.
struct Level {
    const float *v;
    const int *tri;
    const unsigned char *area;
    int nverts, ntris;
    float bmin[3], bmax[3]; // the level's heightfield box, Recast's frame
    double cell, ch;
    int width, depth; // the level's columns along x and y
    int walk_height, walk_climb;
    int tile, border; // a tile's columns and rows, the border round it (0: the level is one tile)
};

// The rings and grids of the tiles baked so far: out's arrays, with room
// to grow, and each point's cell corner in the level's columns.
struct Acc {
    steerN_BakeRings *out = nullptr;
    int32_t *corner = nullptr; // 2 a point
    size_t cap_xy = 0, cap_z = 0, cap_corner = 0, cap_end = 0, cap_layer = 0, cap_box = 0, cap_at = 0, cap_gz = 0;
    size_t cap_tile = 0, cap_low = 0, cap_clash = 0;
    size_t nz = 0; // grid samples
    Acc() = default;
    Acc(const Acc &) = delete;
    Acc &operator=(const Acc &) = delete;
    ~Acc() { free(corner); }
};

// Room for need elements in p (malloc'd), doubling. (A template of
// internal linkage: nothing exported from libsteer.so.)
template <typename T> bool grow(T *&p, size_t &cap, size_t need)
{
    if (need <= cap) return true;
    size_t c = cap ? cap : 256;
    while (c < need) c *= 2;
    T *q = (T *)realloc(p, sizeof(T) * c);
    if (!q) return false;
    p = q, cap = c;
    return true;
}

// The ground's height per layer at every column's centre (bake.h: the
// grid fields of out), for a tile's nlayers layers: each layer's box of
// columns is its spans' in the tile (not in its border) with a margin of
// HEIGHT_MARGIN columns (room for mesh_heights.c to carry the heights out
// to the outline, which is simplified up to 1.3 cells off the cells),
// within the tile's heightfield, given in the level's columns; a span's
// top where the layer has one, else a span of another layer joined to
// one of the layer's own (the stair's next step across a seam). 0; -1
// when out of memory.
const int HEIGHT_MARGIN = 4;
int heights(const rcCompactHeightfield &chf, bool stacked, int nlayers, const Level &L, int tx0, int ty0, Acc &acc)
{
    steerN_BakeRings *out = acc.out;
    const int w = chf.width, h = chf.height, bd = L.border;
    const uint32_t base = out->nlayers;
    if (!grow(out->grid_box, acc.cap_box, 4 * ((size_t)base + nlayers)) ||
        !grow(out->grid_at, acc.cap_at, (size_t)base + nlayers))
        return -1;
    uint32_t *box = out->grid_box + 4 * (size_t)base;
    size_t *at = out->grid_at + base;
    for (int k = 0; k < nlayers; k++) box[4 * k] = box[4 * k + 1] = UINT32_MAX, box[4 * k + 2] = box[4 * k + 3] = 0;
    uint32_t *low = nullptr;
    if (bd) { // tiles: each layer's tile and lowest span (steerN_bake_merge's order)
        if (!grow(out->layer_tile, acc.cap_tile, (size_t)base + nlayers) ||
            !grow(out->layer_low, acc.cap_low, (size_t)base + nlayers))
            return -1;
        low = out->layer_low + base;
        for (int k = 0; k < nlayers; k++)
            out->layer_tile[base + k] = (uint32_t)(ty0 / L.tile) * out->tiles_x + (uint32_t)(tx0 / L.tile),
                                   low[k] = UINT32_MAX;
    }
    auto layer_of = [&](const rcCompactSpan &sp) { return stacked ? (int)sp.reg - 1 : 0; };
    for (int y = bd; y < h - bd; y++) // box: x0, y0, x1, y1 first
        for (int x = bd; x < w - bd; x++) {
            const rcCompactCell &c = chf.cells[x + y * w];
            for (unsigned i = c.index, e = c.index + c.count; i < e; i++) {
                if (!chf.spans[i].reg) continue;
                uint32_t *b = box + 4 * layer_of(chf.spans[i]);
                if (low && chf.spans[i].y < low[layer_of(chf.spans[i])]) low[layer_of(chf.spans[i])] = chf.spans[i].y;
                if ((uint32_t)x < b[0] || b[0] == UINT32_MAX) b[0] = (uint32_t)x;
                if ((uint32_t)y < b[1] || b[1] == UINT32_MAX) b[1] = (uint32_t)y;
                if ((uint32_t)x > b[2]) b[2] = (uint32_t)x;
                if ((uint32_t)y > b[3]) b[3] = (uint32_t)y;
            }
        }
    // the boxes within the tile's heightfield and the level's columns
    const uint32_t xlo = (uint32_t)(bd > tx0 ? bd - tx0 : 0), ylo = (uint32_t)(bd > ty0 ? bd - ty0 : 0);
    const uint32_t xhi = (uint32_t)(w - 1 < L.width - 1 - tx0 + bd ? w - 1 : L.width - 1 - tx0 + bd);
    const uint32_t yhi = (uint32_t)(h - 1 < L.depth - 1 - ty0 + bd ? h - 1 : L.depth - 1 - ty0 + bd);
    size_t total = acc.nz;
    for (int k = 0; k < nlayers; k++) {
        uint32_t *b = box + 4 * k;
        if (b[0] == UINT32_MAX) { // (no span: an empty box)
            b[0] = b[1] = b[2] = b[3] = 0;
            at[k] = total;
            continue;
        }
        uint32_t x0 = b[0] > xlo + HEIGHT_MARGIN ? b[0] - HEIGHT_MARGIN : xlo;
        uint32_t y0 = b[1] > ylo + HEIGHT_MARGIN ? b[1] - HEIGHT_MARGIN : ylo;
        uint32_t x1 = b[2] + HEIGHT_MARGIN < xhi ? b[2] + HEIGHT_MARGIN : xhi;
        uint32_t y1 = b[3] + HEIGHT_MARGIN < yhi ? b[3] + HEIGHT_MARGIN : yhi;
        b[0] = x0, b[1] = y0, b[2] = x1 - x0 + 1, b[3] = y1 - y0 + 1;
        at[k] = total;
        total += (size_t)b[2] * b[3];
    }
    if (!grow(out->grid_y, acc.cap_gz, total ? total : 1)) return -1;
    uint16_t *z = out->grid_y;
    for (size_t i = acc.nz; i < total; i++) z[i] = STEERN_BAKE_NO_SAMPLE;
    acc.nz = total;
    auto slot = [&](int k, int x, int y) -> uint16_t * {
        const uint32_t *b = box + 4 * k;
        if ((uint32_t)x < b[0] || (uint32_t)y < b[1] || (uint32_t)x - b[0] >= b[2] || (uint32_t)y - b[1] >= b[3])
            return nullptr;
        return z + at[k] + (size_t)((uint32_t)y - b[1]) * b[2] + ((uint32_t)x - b[0]);
    };
    for (int pass = 0; pass < 2; pass++) // the layer's own spans, then those joined to them
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const rcCompactCell &c = chf.cells[x + y * w];
                for (unsigned i = c.index, e = c.index + c.count; i < e; i++) {
                    const rcCompactSpan &sp = chf.spans[i];
                    if (!sp.reg) continue;
                    int k = layer_of(sp);
                    if (pass == 0) {
                        if (uint16_t *d = slot(k, x, y)) *d = sp.y;
                        continue;
                    }
                    for (int dir = 0; dir < 4; dir++) {
                        int con = rcGetCon(sp, dir);
                        if (con == RC_NOT_CONNECTED) continue;
                        int ax = x + rcGetDirOffsetX(dir), ay = y + rcGetDirOffsetY(dir);
                        const rcCompactSpan &as = chf.spans[chf.cells[ax + ay * w].index + con];
                        uint16_t *d = slot(k, ax, ay);
                        if (as.reg && layer_of(as) != k && d && *d == STEERN_BAKE_NO_SAMPLE) *d = as.y;
                    }
                }
            }
    for (int k = 0; k < nlayers; k++) // into the level's columns
        if (box[4 * k + 2]) box[4 * k] += (uint32_t)(tx0 - bd), box[4 * k + 1] += (uint32_t)(ty0 - bd);
    return 0;
}

// The pairs of a tile's layers that may not share a layer of the mesh
// (bake.h: clash): as floors() finds regions that overlap, two layers'
// spans in one column or side by side unconnected, both in the tile (not
// its border: the pieces are the tile's ground alone). Each pair once, in
// the level's layer numbers, the lesser first. 0; -1 when out of memory.
int clashes(const rcCompactHeightfield &chf, const Level &L, Acc &acc)
{
    steerN_BakeRings *out = acc.out;
    const int w = chf.width, bd = L.border;
    const uint32_t base = out->nlayers;
    int64_t *p = nullptr, last = -1;
    size_t np = 0, cap = 0;
    for (int y = bd; y < chf.height - bd; y++)
        for (int x = bd; x < w - bd; x++) {
            const rcCompactCell &c = chf.cells[x + y * w];
            for (unsigned a = c.index, e = c.index + c.count; a < e; a++)
                for (int dir = -1; dir < 4 && chf.spans[a].reg; dir++) {
                    int nx = x + (dir >= 0 ? rcGetDirOffsetX(dir) : 0), ny = y + (dir >= 0 ? rcGetDirOffsetY(dir) : 0);
                    if (nx < bd || ny < bd || nx >= w - bd || ny >= chf.height - bd) continue;
                    const rcCompactCell &nc = chf.cells[nx + ny * w];
                    int con = dir >= 0 ? rcGetCon(chf.spans[a], dir) : RC_NOT_CONNECTED;
                    for (unsigned b = nc.index, be = nc.index + nc.count; b < be; b++) {
                        if (b == a || !chf.spans[b].reg || (con != RC_NOT_CONNECTED && b == nc.index + (unsigned)con))
                            continue;
                        int64_t la = chf.spans[a].reg, lb = chf.spans[b].reg;
                        if (la >= lb) continue; // (each pair from its lesser side)
                        int64_t key = (la << 32) | lb;
                        if (key == last) continue;
                        if (!grow(p, cap, np + 1)) {
                            free(p);
                            return -1;
                        }
                        p[np++] = last = key;
                    }
                }
        }
    np = steerN_keys_uniq(p, np);
    bool ok = grow(out->clash, acc.cap_clash, 2 * (out->nclash + np));
    for (size_t i = 0; ok && i < np; i++) {
        out->clash[2 * out->nclash] = base + (uint32_t)(p[i] >> 32) - 1;
        out->clash[2 * out->nclash++ + 1] = base + (uint32_t)(p[i] & 0xffffffff) - 1;
    }
    free(p);
    return ok ? 0 : -1;
}

// One tile of the level, its columns tx0 .. and rows ty0 .. (a tile's
// width or less at the level's edge), with a border of L.border columns
// round it: its heightfield, regions, floors, heights and contours, its
// layers added to out's (layer numbers go on from the last tile's), its
// rings in the level's frame. All it allocates is freed when it returns:
// a bake holds one tile's heightfield at a time.
int bake_tile(const Level &L, int tx0, int ty0, Acc &acc, char *msg, size_t msg_n)
{
    steerN_BakeRings *out = acc.out;
    const int bd = L.border;
    const int tw = L.width - tx0 < L.tile ? L.width - tx0 : L.tile, th = L.depth - ty0 < L.tile ? L.depth - ty0 : L.tile;
    const int W = tw + 2 * bd, H = th + 2 * bd;
    float bmin[3] = { L.bmin[0], L.bmin[1], L.bmin[2] }, bmax[3] = { L.bmax[0], L.bmax[1], L.bmax[2] };
    if (bd) {
        bmin[0] = (float)((double)L.bmin[0] + (tx0 - bd) * L.cell);
        bmin[2] = (float)((double)L.bmin[2] + (ty0 - bd) * L.cell);
        bmax[0] = (float)((double)bmin[0] + W * L.cell);
        bmax[2] = (float)((double)bmin[2] + H * L.cell);
    }
    Scratch x;
    Context ctx;
    rcHeightfield *hf = x.hf = rcAllocHeightfield();
    if (!hf || !rcCreateHeightfield(&ctx, *hf, W, H, bmin, bmax, (float)L.cell, (float)L.ch))
        return recast_fail(msg, msg_n, ctx, "the heightfield");
    if (!rcRasterizeTriangles(&ctx, L.v, L.nverts, L.tri, L.area, L.ntris, *hf, L.walk_climb))
        return recast_fail(msg, msg_n, ctx, "rasterizing");
    rcFilterLowHangingWalkableObstacles(&ctx, L.walk_climb, *hf);
    rcFilterLedgeSpans(&ctx, L.walk_height, L.walk_climb, *hf);
    rcFilterWalkableLowHeightSpans(&ctx, L.walk_height, *hf);
    rcCompactHeightfield *chf = x.chf = rcAllocCompactHeightfield();
    if (!chf || !rcBuildCompactHeightfield(&ctx, L.walk_height, L.walk_climb, *hf, *chf))
        return recast_fail(msg, msg_n, ctx, "the compact heightfield");
    rcFreeHeightField(hf);
    x.hf = hf = nullptr;
    // no rcErodeWalkableArea: the queries take the radius
    int pr = pieces(*chf, &x, bd > 0);
    if (pr < 0) return fail(msg, msg_n, "out of memory");
    if (pr > 0)
        return fail(msg, msg_n, "more than %d separate pieces of walkable ground; bake the level in parts",
                    RC_BORDER_REG - 2);
    if (bd && !chf->maxRegions) return 0; // no ground in this tile
    // several floors: where the ground lies over itself, it is cut into
    // layers, each planar, and each layer is one region
    bool stacked = false;
    for (int i = 0; i < chf->width * chf->height && !stacked; i++) {
        const rcCompactCell &c = chf->cells[i];
        int in = 0;
        for (unsigned j = c.index, e = c.index + c.count; j < e; j++) in += chf->spans[j].reg != 0;
        stacked = in > 1;
    }
    int nlayers = 1;
    if (stacked) {
        nlayers = floors(*chf, &x);
        if (nlayers < 0) return fail(msg, msg_n, "out of memory");
        if (nlayers >= RC_BORDER_REG)
            return fail(msg, msg_n, "more than %d floors of walkable ground; bake the level in parts", RC_BORDER_REG - 1);
        chf->maxRegions = (unsigned short)nlayers; // (the contours size their tables by it)
    }
    if ((size_t)out->nlayers + nlayers > STEERN_BAKE_MAX_LAYERS)
        return fail(msg, msg_n, "more than %u layers (pieces of floors in tiles); give a larger 'tile'",
                    STEERN_BAKE_MAX_LAYERS);
    if (heights(*chf, stacked, nlayers, L, tx0, ty0, acc) || (bd && stacked && clashes(*chf, L, acc)))
        return fail(msg, msg_n, "out of memory");
    // the border is the next tiles': its ground a region of each side
    // (as rcBuildRegions paints them) that is none of this tile's, so that
    // the contours run straight along the tile's edge there (Recast's
    // tiles' portals), with a corner where two sides meet
    for (int y = 0; y < chf->height && bd; y++)
        for (int cx = 0; cx < chf->width; cx++) {
            int side = y < bd ? 3 : y >= chf->height - bd ? 4 : cx < bd ? 1 : cx >= chf->width - bd ? 2 : 0;
            if (!side) continue;
            const rcCompactCell &c = chf->cells[cx + y * chf->width];
            for (unsigned i = c.index, e = c.index + c.count; i < e; i++)
                if (chf->spans[i].reg) chf->spans[i].reg = (unsigned short)(RC_BORDER_REG | side);
        }
    chf->borderSize = bd;
    rcContourSet *cset = x.cset = rcAllocContourSet();
    if (!cset || !rcBuildContours(&ctx, *chf, 1.3f, 0, *cset, RC_CONTOUR_TESS_WALL_EDGES | (stacked ? RC_CONTOUR_TESS_AREA_EDGES : 0)))
        return recast_fail(msg, msg_n, ctx, "the contours");
    // the contours as rings in steer's x, y: a contour's vertex (x, y, z,
    // flags) is at cell corner (x, z) of the tile, Recast's frame
    size_t np = out->npoints, nr = out->nrings;
    for (int i = 0; i < cset->nconts; i++) {
        const rcContour &c = cset->conts[i];
        if (c.nverts < 3) continue;
        size_t need = np + (size_t)c.nverts;
        if (!grow(out->xy, acc.cap_xy, 2 * need) || !grow(out->z, acc.cap_z, need) ||
            !grow(acc.corner, acc.cap_corner, 2 * need) || !grow(out->ring_end, acc.cap_end, nr + 1) ||
            !grow(out->ring_layer, acc.cap_layer, nr + 1))
            return fail(msg, msg_n, "out of memory");
        if (need > UINT32_MAX) return fail(msg, msg_n, "the level's outlines have too many points");
        for (int j = 0; j < c.nverts; j++, np++) {
            int gx = tx0 + c.verts[4 * j], gy = ty0 + c.verts[4 * j + 2];
            acc.corner[2 * np] = gx, acc.corner[2 * np + 1] = gy;
            out->xy[2 * np] = (double)L.bmin[0] + gx * L.cell;
            out->xy[2 * np + 1] = (double)L.bmin[2] + gy * L.cell;
            out->z[np] = (double)cset->bmin[1] + c.verts[4 * j + 1] * (double)cset->ch;
        }
        out->ring_layer[nr] = out->nlayers + (stacked ? (uint32_t)c.reg - 1 : 0);
        out->ring_end[nr++] = (uint32_t)np;
    }
    out->npoints = (uint32_t)np;
    out->nrings = (uint32_t)nr;
    out->nlayers += (uint32_t)nlayers;
    return 0;
}

// Where tiles meet, each side's rings run along the line between them
// (their ground there borders the other tile's), from the points where
// their own ground or floors change: the two sides' points there may
// differ (a seam between floors meets the line on one side only). Every
// ring's edge along a line between tiles gets the points any ring has on
// that line (heights between its ends'), so that both sides' walls there
// run between the same points, and the stack (mesh_layers.c) joins them
// as it joins floors. 0; -1 when out of memory.
int seams(const Level &L, Acc &acc)
{
    steerN_BakeRings *out = acc.out;
    const int32_t *g = acc.corner;
    const uint32_t np = out->npoints;
    auto on_line = [&](int32_t c, int dim) { return c % L.tile == 0 && c > 0 && c < (dim ? L.depth : L.width); };
    // the points on the lines: (line, along it) as one key, x lines then y lines
    int64_t *key = (int64_t *)malloc(sizeof *key * (2 * (size_t)np + 1));
    if (!key) return -1;
    size_t nk = 0;
    for (uint32_t i = 0; i < np; i++)
        for (int d = 0; d < 2; d++)
            if (on_line(g[2 * i + d], d)) key[nk++] = ((int64_t)d << 62) | ((int64_t)g[2 * i + d] << 31) | g[2 * i + 1 - d];
    const size_t nu = steerN_keys_uniq(key, nk);
    auto lower = [&](int64_t k) { return steerN_keys_first(key, nu, k); };
    // each edge a -> b along a line: the keys strictly between its ends
    auto between = [&](uint32_t a, uint32_t b, int *d, size_t *from, size_t *to) {
        for (*d = 0; *d < 2; (*d)++)
            if (g[2 * a + *d] == g[2 * b + *d] && on_line(g[2 * a + *d], *d)) break;
        if (*d == 2) return false;
        int64_t line = ((int64_t)*d << 62) | ((int64_t)g[2 * a + *d] << 31);
        int32_t u = g[2 * a + 1 - *d], v = g[2 * b + 1 - *d];
        *from = lower(line | ((u < v ? u : v) + 1));
        *to = lower(line | (u < v ? v : u));
        return *to > *from;
    };
    size_t extra = 0;
    for (uint32_t ring = 0, at = 0; ring < out->nrings; at = out->ring_end[ring++])
        for (uint32_t i = at; i < out->ring_end[ring]; i++) {
            uint32_t b = i + 1 < out->ring_end[ring] ? i + 1 : at;
            int d;
            size_t from, to;
            if (between(i, b, &d, &from, &to)) extra += to - from;
        }
    if (!extra) {
        free(key);
        return 0;
    }
    if (np + extra > UINT32_MAX) {
        free(key);
        return -1;
    }
    size_t n2 = np + extra;
    double *xy = (double *)malloc(sizeof *xy * 2 * n2), *z = (double *)malloc(sizeof *z * n2);
    if (!xy || !z) {
        free(key), free(xy), free(z);
        return -1;
    }
    size_t k = 0;
    for (uint32_t ring = 0, at = 0, end; ring < out->nrings; at = end, ring++) {
        end = out->ring_end[ring];
        for (uint32_t i = at; i < end; i++) {
            uint32_t b = i + 1 < end ? i + 1 : at;
            xy[2 * k] = out->xy[2 * i], xy[2 * k + 1] = out->xy[2 * i + 1], z[k++] = out->z[i];
            int d;
            size_t from, to;
            if (!between(i, b, &d, &from, &to)) continue;
            int32_t u = g[2 * i + 1 - d], v = g[2 * b + 1 - d];
            for (size_t j = 0; j < to - from; j++) {
                int32_t c = (int32_t)(key[u < v ? from + j : to - 1 - j] & 0x7fffffff);
                double t = (double)(c - u) / (double)(v - u);
                double line = d ? (double)L.bmin[2] : (double)L.bmin[0], along = d ? (double)L.bmin[0] : (double)L.bmin[2];
                xy[2 * k + d] = line + g[2 * i + d] * L.cell;
                xy[2 * k + 1 - d] = along + c * L.cell;
                z[k++] = out->z[i] + t * (out->z[b] - out->z[i]);
            }
        }
        out->ring_end[ring] = (uint32_t)k;
    }
    free(key), free(out->xy), free(out->z);
    out->xy = xy, out->z = z;
    out->npoints = (uint32_t)n2;
    return 0;
}

int bake(const steerN_BakeSpec *s, steerN_BakeRings *out, char *msg, size_t msg_n)
{
    const double cell = s->cell > 0 ? s->cell : steerN_bake_cell(s->height, s->climb);
    out->cell = cell;
    // the soup in Recast's frame, and which triangles are ground
    Scratch x;
    if (s->ntris == 0) return fail(msg, msg_n, "no triangles: nothing to bake");
    float *v = x.v = (float *)malloc(sizeof *v * 3 * (size_t)s->nverts);
    int *tri = x.tri = (int *)malloc(sizeof *tri * 3 * (size_t)s->ntris);
    unsigned char *area = x.area = (unsigned char *)malloc(s->ntris);
    if (!v || !tri || !area) return fail(msg, msg_n, "out of memory");
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (uint32_t i = 0; i < s->nverts; i++) {
        const double *p = s->xyz + 3 * (size_t)i;
        v[3 * i] = (float)p[0];
        v[3 * i + 1] = (float)p[2];
        v[3 * i + 2] = (float)p[1];
    }
    const double cos_slope = steerM_cosf((float)(s->slope * (3.14159265358979323846 / 180.0)));
    for (uint32_t t = 0; t < s->ntris; t++) {
        const uint32_t *k = s->tri + 3 * (size_t)t;
        const double *a = s->xyz + 3 * (size_t)k[0], *b = s->xyz + 3 * (size_t)k[1], *c = s->xyz + 3 * (size_t)k[2];
        double e0[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e1[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
        double n[3] = { e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0] };
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        area[t] = len > 0 && n[2] > cos_slope * len ? RC_WALKABLE_AREA : RC_NULL_AREA;
        for (int j = 0; j < 3; j++) {
            tri[3 * t + j] = (int)k[j];
            const double *p = s->xyz + 3 * (size_t)k[j];
            for (int d = 0; d < 3; d++) lo[d] = fmin(lo[d], p[d]), hi[d] = fmax(hi[d], p[d]);
        }
    }
    // the heightfield's bounds, in Recast's frame; cells cell / 2 high, or
    // taller when the level is over 8000 of those (a span's 13 bits)
    double ch = cell / 2;
    if ((hi[2] - lo[2]) / ch > 8000) ch = (hi[2] - lo[2]) / 8000;
    double w = ceil((hi[0] - lo[0]) / cell) + 1, d = ceil((hi[1] - lo[1]) / cell) + 1;
    if (w * d > STEERN_BAKE_MAX_CELLS)
        return fail(msg, msg_n,
                    "the level is %.0f x %.0f cells of %g m: more than %u cells; give a larger 'cell' (or bake it "
                    "in parts)",
                    w, d, cell, STEERN_BAKE_MAX_CELLS);
    out->width = (int)w;
    out->depth = (int)d;
    Level L = { v,
                tri,
                area,
                (int)s->nverts,
                (int)s->ntris,
                { (float)lo[0], (float)lo[2], (float)lo[1] },
                { (float)hi[0], (float)(hi[2] + s->height + ch), (float)hi[1] },
                cell,
                ch,
                (int)w,
                (int)d,
                (int)ceil(s->height / ch),
                (int)floor(s->climb / ch),
                0,
                0 };
    // tiles: the caller's side, or automatic: one when the level is small
    int tile = s->tile > 0 ? (int)fmin(floor(s->tile / cell), 1e9) : w * d <= STEERN_BAKE_ONE_TILE ? 0 : STEERN_BAKE_TILE;
    if (tile <= 0 || (tile >= L.width && tile >= L.depth)) L.tile = L.width > L.depth ? L.width : L.depth;
    else {
        L.tile = tile, L.border = STEERN_BAKE_BORDER;
        out->tile = (uint32_t)tile;
        out->tiles_x = (uint32_t)((L.width + tile - 1) / tile);
    }
    out->grid_x0 = (double)L.bmin[0] + 0.5 * cell;
    out->grid_y0 = (double)L.bmin[2] + 0.5 * cell;
    out->ch = (double)(float)ch;
    out->grid_z0 = (double)L.bmin[1];
    Acc acc;
    acc.out = out;
    for (int ty0 = 0; ty0 < L.depth; ty0 += L.tile)
        for (int tx0 = 0; tx0 < L.width; tx0 += L.tile)
            if (bake_tile(L, tx0, ty0, acc, msg, msg_n)) return -1;
    if (!out->nlayers) out->nlayers = 1; // (no ground: one empty layer, as a bake in one tile gives)
    if (L.border && seams(L, acc)) return fail(msg, msg_n, "out of memory");
    return 0;
}

} // namespace

extern "C" int steerN_bake_available(void) { return 1; }

extern "C" int steerN_bake_rings(const steerN_BakeSpec *spec, steerN_BakeRings *out, char *msg, size_t msg_n)
{
    memset(out, 0, sizeof *out);
    msg[0] = 0;
    int r = bake(spec, out, msg, msg_n);
    if (r) steerN_bake_rings_free(out);
    return r;
}

extern "C" void steerN_bake_rings_free(steerN_BakeRings *r)
{
    free(r->xy);
    free(r->z);
    free(r->ring_end);
    free(r->ring_layer);
    free(r->grid_box);
    free(r->grid_at);
    free(r->grid_y);
    free(r->layer_tile);
    free(r->layer_low);
    free(r->clash);
    r->layer_tile = r->layer_low = r->clash = NULL;
    r->nclash = 0;
    r->xy = r->z = NULL;
    r->grid_y = NULL;
    r->ring_end = r->ring_layer = r->grid_box = NULL;
    r->grid_at = NULL;
    r->nrings = r->npoints = 0;
}
