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
// would be ground.) Pieces under 64 cells are dropped. chf.maxRegions:
// the count. 0; -1 when out of memory; 1 for more pieces than region ids.
int pieces(rcCompactHeightfield &chf, Scratch *x)
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
                st[top++] = cx, st[top++] = y, st[top++] = i;
                chf.spans[i].reg = mark;
                while (top) {
                    int si = st[--top], sy = st[--top], sx = st[--top];
                    piece[k++] = si;
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
                if (k >= 64 && ++id >= RC_BORDER_REG) return 1;
                for (int j = 0; j < k; j++) chf.spans[piece[j]].reg = k >= 64 ? (unsigned short)id : dropped;
            }
        }
    for (int i = 0; i < n; i++)
        if (chf.spans[i].reg == dropped) chf.spans[i].reg = 0;
    chf.maxRegions = (unsigned short)id;
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
    float bmin[3] = { (float)lo[0], (float)lo[2], (float)lo[1] };
    float bmax[3] = { (float)hi[0], (float)(hi[2] + s->height + ch), (float)hi[1] };
    double w = ceil((hi[0] - lo[0]) / cell) + 1, d = ceil((hi[1] - lo[1]) / cell) + 1;
    if (w * d > STEERN_BAKE_MAX_CELLS)
        return fail(msg, msg_n,
                    "the level is %.0f x %.0f cells of %g m: more than %u cells; give a larger 'cell' (or bake it "
                    "in parts)",
                    w, d, cell, STEERN_BAKE_MAX_CELLS);
    out->width = (int)w;
    out->depth = (int)d;
    const int walk_height = (int)ceil(s->height / ch), walk_climb = (int)floor(s->climb / ch);

    Context ctx;
    rcHeightfield *hf = x.hf = rcAllocHeightfield();
    if (!hf || !rcCreateHeightfield(&ctx, *hf, (int)w, (int)d, bmin, bmax, (float)cell, (float)ch))
        return recast_fail(msg, msg_n, ctx, "the heightfield");
    if (!rcRasterizeTriangles(&ctx, v, (int)s->nverts, tri, area, (int)s->ntris, *hf, walk_climb))
        return recast_fail(msg, msg_n, ctx, "rasterizing");
    rcFilterLowHangingWalkableObstacles(&ctx, walk_climb, *hf);
    rcFilterLedgeSpans(&ctx, walk_height, walk_climb, *hf);
    rcFilterWalkableLowHeightSpans(&ctx, walk_height, *hf);
    rcCompactHeightfield *chf = x.chf = rcAllocCompactHeightfield();
    if (!chf || !rcBuildCompactHeightfield(&ctx, walk_height, walk_climb, *hf, *chf))
        return recast_fail(msg, msg_n, ctx, "the compact heightfield");
    rcFreeHeightField(hf);
    x.hf = hf = nullptr;
    // no rcErodeWalkableArea: the queries take the radius
    int pr = pieces(*chf, &x);
    if (pr < 0) return fail(msg, msg_n, "out of memory");
    if (pr > 0)
        return fail(msg, msg_n, "more than %d separate pieces of walkable ground; bake the level in parts",
                    RC_BORDER_REG - 2);
    // one floor: no column may keep two spans in regions
    for (int y = 0; y < chf->height; y++)
        for (int x = 0; x < chf->width; x++) {
            const rcCompactCell &c = chf->cells[x + y * chf->width];
            int first = -1;
            for (unsigned i = c.index, e = c.index + c.count; i < e; i++) {
                if (!chf->spans[i].reg) continue;
                if (first < 0) {
                    first = (int)i;
                    continue;
                }
                return fail(msg, msg_n,
                            "the walkable ground lies over itself near (%.2f, %.2f): at heights %.2f and %.2f; "
                            "several floors are not baked yet (issue 33 item 2)",
                            lo[0] + (x + 0.5) * cell, lo[1] + (y + 0.5) * cell, lo[2] + chf->spans[first].y * ch,
                            lo[2] + chf->spans[i].y * ch);
            }
        }
    rcContourSet *cset = x.cset = rcAllocContourSet();
    if (!cset || !rcBuildContours(&ctx, *chf, 1.3f, 0, *cset, RC_CONTOUR_TESS_WALL_EDGES))
        return recast_fail(msg, msg_n, ctx, "the contours");
    // the contours as rings in steer's x, y: a contour's vertex (x, y, z,
    // flags) is at cell corner (x, z) of Recast's frame
    uint32_t nrings = 0, npoints = 0;
    for (int i = 0; i < cset->nconts; i++)
        if (cset->conts[i].nverts >= 3) nrings++, npoints += (uint32_t)cset->conts[i].nverts;
    out->xy = (double *)malloc(sizeof *out->xy * 2 * (npoints ? npoints : 1));
    out->ring_end = (uint32_t *)malloc(sizeof *out->ring_end * (nrings ? nrings : 1));
    if (!out->xy || !out->ring_end) return fail(msg, msg_n, "out of memory");
    uint32_t at = 0, k = 0;
    for (int i = 0; i < cset->nconts; i++) {
        const rcContour &c = cset->conts[i];
        if (c.nverts < 3) continue;
        for (int j = 0; j < c.nverts; j++, at++) {
            out->xy[2 * at] = (double)cset->bmin[0] + c.verts[4 * j] * cell;
            out->xy[2 * at + 1] = (double)cset->bmin[2] + c.verts[4 * j + 2] * cell;
        }
        out->ring_end[k++] = at;
    }
    out->nrings = nrings;
    out->npoints = npoints;
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
    free(r->ring_end);
    r->xy = NULL;
    r->ring_end = NULL;
    r->nrings = r->npoints = 0;
}
