// SPDX-License-Identifier: MIT
// detour_nav.cpp — detour-nav: the Recast/Detour peer of `steer-bench navmesh`
// (issue 32, item 8).
//
//   detour-nav [--level NAME|all] [--radius 0|0.5|both] [--cs M] [--tile CELLS] [--queries N]
//              [--repeat K] [--lengths FILE] [--times FILE]
//   detour-nav --obstacles ...       (below: DetourTileCache's obstacle update)
//   detour-nav --bake FILE.obj ...   (below: a level's OBJ baked, beside steer.navmesh{ obj })
//
// Bakes each level of nav_levels.h with Recast, once per agent radius (Recast
// erodes the walkable area by the radius: a mesh per agent size), then runs
// the level's query pairs through Detour, each one what a game does to get a
// path: findNearestPoly for the start and for the goal, findPath,
// findStraightPath. Prints one line per level and radius:
//   detour-nav level=L radius=R cs=M tile_cells=T tiles=K polys=P bake_ms=X nav_bytes=B queries=N repeat=K
//     median_us=X p99_us=X worst_us=X no_path=K start_off=K partial=K far_snap=K mean_len_m=X
// (one line), where
//   bake_ms     wall time of the whole bake: rasterizing, filtering, the
//               compact heightfield, erosion, regions (watershed), contours,
//               polygons, detail meshes, dtCreateNavMeshData and addTile for
//               every tile
//   nav_bytes   the dtNavMesh's tile data (sum of dtMeshTile::dataSize), what
//               a game keeps in memory (and saves) to query
//   median_us, p99_us, worst_us   of one query (the four calls): each query
//               runs K times in a row (--repeat, default 3) and counts its
//               fastest, so that a query the scheduler preempted (on a shared
//               machine, every few milliseconds) does not make the tail
//   no_path     pairs with no complete path: start_off (findNearestPoly found
//               no polygon within the search box, for the start or the goal)
//               plus partial (findPath's DT_PARTIAL_RESULT: the goal's
//               polygon is not reachable; Detour then returns the way to the
//               polygon nearest it, not counted as a path)
//   far_snap    complete paths whose start or goal findNearestPoly moved by
//               more than radius + 1 m (a point in a pocket the bake closed
//               or dropped: Detour answers with the nearest polygon whose
//               bounds meet the search box, which may lie metres away, and
//               a path from or to there)
//   mean_len_m  mean length of the straight paths found
// --lengths FILE appends per pair "level radius index length" (length "-"
// for no path), for bench/navmesh-vs-detour.py to compare with steer's;
// --times FILE per pair "level radius index us found" (us: the fastest of
// the K runs; found: 1 for a complete path, else 0), as steer-bench does.
//
// The bake (the settings of RecastDemo's Sample_TileMesh, except the cell):
// the floor as two triangles at height 0 (walkable), every box as its 12
// triangles from 0 to 2 m (area RC_NULL_AREA, so a column with a box is not
// walkable); agent height 2 m, climb 0.4 m, slope 45 degrees; cell size cs
// (default 0.25 m: Recast rounds the radius up to whole cells, and 0.5 m is
// exactly 2 cells of 0.25 m; a smaller cell follows the boxes' edges more
// closely, rasterizing conservatively up to one cell out, at four times the
// cells per halving), cell height 0.2 m; tiles of T x T cells (default 256,
// 64 m), border radius + 3 cells; regions by watershed, min region 8 x 8
// cells, merge 20 x 20; contour error 1.3 cells, edges up to 12 m; 6
// vertices per polygon; detail sample distance 6 cells, error 1 cell height.
// dtNavMeshQuery with 65,535 nodes; findNearestPoly searches a box of half
// extents (2, 4, 2) m; paths up to 8,192 polygons and straight paths up to
// 8,192 points. Built by bench/peers/detour.sh, not by meson.
#include "../nav_levels.h"
#include "../timing.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace
{

const float kAgentHeight = 2.0f, kAgentClimb = 0.4f, kSlope = 45.0f, kBoxHeight = 2.0f;
const float kCellHeight = 0.2f;
const float kEdgeMaxLen = 12.0f, kEdgeMaxError = 1.3f;
const int kRegionMinSize = 8, kRegionMergeSize = 20, kVertsPerPoly = 6;
const float kDetailSampleDist = 6.0f, kDetailSampleMaxError = 1.0f;
const int kMaxNodes = 65535, kMaxPath = 8192;
const float kHalfExtents[3] = { 2.0f, 4.0f, 2.0f };
const unsigned short kWalkFlag = 1;
const double kFarSnap = 1.0; // m beyond the radius: a path from or to somewhere else (far_snap)

struct Options {
    float cs = 0.25f;
    int tile = 256;
    int queries = NAV_LEVEL_PAIRS;
    int repeat = 3;
    const char *lengths = nullptr;
    const char *times = nullptr;
    bool obstacles = false; // --obstacles: the tile cache's obstacle update (run_obstacles)
    int moves = 400;
};

// steer's (x, y) is Recast's (x, 0, y): y is up.
void put(float *v, double x, double y, double z)
{
    v[0] = (float)x;
    v[1] = (float)y;
    v[2] = (float)z;
}

// The level as triangles: the floor, then the boxes, with their areas.
struct Geometry {
    std::vector<float> verts; // 3 per vertex
    std::vector<int> floor;   // 3 per triangle
    std::vector<int> box;     // 36 indices per box (12 triangles)
};

Geometry geometry(const NavLevel *l)
{
    Geometry g;
    g.verts.resize(3 * (4 + 8 * (size_t)l->nbox));
    float *v = g.verts.data();
    put(v + 0, 0, 0, 0);
    put(v + 3, l->w, 0, 0);
    put(v + 6, l->w, 0, l->h);
    put(v + 9, 0, 0, l->h);
    // Up is +y: (v0, v3, v2) and (v0, v2, v1) wind so that their normals point up.
    g.floor = { 0, 3, 2, 0, 2, 1 };
    // A box's corners: k = bit 0 x, bit 1 z, bit 2 y; faces wound outward.
    static const int faces[12][3] = { { 0, 1, 3 }, { 0, 3, 2 }, { 4, 6, 7 }, { 4, 7, 5 }, { 0, 4, 5 }, { 0, 5, 1 },
                                      { 2, 3, 7 }, { 2, 7, 6 }, { 0, 2, 6 }, { 0, 6, 4 }, { 1, 5, 7 }, { 1, 7, 3 } };
    for (int i = 0; i < l->nbox; i++) {
        const double *o = l->box + 4 * i;
        int base = 4 + 8 * i;
        for (int k = 0; k < 8; k++)
            put(v + 3 * (base + k), o[k & 1 ? 2 : 0], k & 4 ? kBoxHeight : 0.0, o[k & 2 ? 3 : 1]);
        for (auto &f : faces)
            for (int c = 0; c < 3; c++) g.box.push_back(base + f[c]);
    }
    return g;
}

// Boxes per tile (those overlapping the tile with its border), so a tile's
// bake rasterizes only its own.
std::vector<std::vector<int>> boxes_per_tile(const NavLevel *l, int tw, int th, float tile_m, float border_m)
{
    std::vector<std::vector<int>> out((size_t)tw * th);
    for (int i = 0; i < l->nbox; i++) {
        const double *o = l->box + 4 * i;
        int x0 = std::max(0, (int)std::floor((o[0] - border_m) / tile_m));
        int x1 = std::min(tw - 1, (int)std::floor((o[2] + border_m) / tile_m));
        int y0 = std::max(0, (int)std::floor((o[1] - border_m) / tile_m));
        int y1 = std::min(th - 1, (int)std::floor((o[3] + border_m) / tile_m));
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) out[(size_t)y * tw + x].push_back(i);
    }
    return out;
}

int ilog2ceil(unsigned v)
{
    int r = 0;
    while ((1u << r) < v) r++;
    return r;
}

// Recast's settings for cells cs x ch, an agent of height, climb, radius
// (metres) and slope (degrees), tiles of `tile` cells with their border:
// the box levels' and the OBJ bake's (the tile's box set by tile_config).
rcConfig rc_config(float cs, float ch, float slope, float height, float climb, double radius, int tile)
{
    rcConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.cs = cs;
    cfg.ch = ch;
    cfg.walkableSlopeAngle = slope;
    cfg.walkableHeight = (int)std::ceil(height / cfg.ch);
    cfg.walkableClimb = (int)std::floor(climb / cfg.ch);
    cfg.walkableRadius = (int)std::ceil(radius / cfg.cs - 1e-6);
    cfg.maxEdgeLen = (int)(kEdgeMaxLen / cfg.cs);
    cfg.maxSimplificationError = kEdgeMaxError;
    cfg.minRegionArea = kRegionMinSize * kRegionMinSize;
    cfg.mergeRegionArea = kRegionMergeSize * kRegionMergeSize;
    cfg.maxVertsPerPoly = kVertsPerPoly;
    cfg.tileSize = tile;
    cfg.borderSize = cfg.walkableRadius + 3;
    cfg.width = cfg.height = cfg.tileSize + 2 * cfg.borderSize;
    cfg.detailSampleDist = kDetailSampleDist * cfg.cs;
    cfg.detailSampleMaxError = kDetailSampleMaxError * cfg.ch;
    return cfg;
}

// The box levels' settings for an agent of `radius`.
rcConfig config(double radius, const Options &o)
{
    rcConfig cfg = rc_config(o.cs, kCellHeight, kSlope, kAgentHeight, kAgentClimb, radius, o.tile);
    cfg.bmin[1] = -1;
    cfg.bmax[1] = kBoxHeight + 1;
    return cfg;
}

// Tile (tx, ty)'s heightfield, filtered, compacted and eroded (the part of
// a tile's bake that the navmesh and the tile cache share); false on a failure.
bool tile_field(rcContext *ctx, const Geometry &g, const std::vector<int> &boxes, rcConfig &cfg, const float *orig,
                int tx, int ty, rcHeightfield *solid, rcCompactHeightfield *chf)
{
    float tile_m = cfg.tileSize * cfg.cs, border_m = cfg.borderSize * cfg.cs;
    cfg.bmin[0] = orig[0] + tx * tile_m - border_m;
    cfg.bmin[2] = orig[2] + ty * tile_m - border_m;
    cfg.bmax[0] = orig[0] + (tx + 1) * tile_m + border_m;
    cfg.bmax[2] = orig[2] + (ty + 1) * tile_m + border_m;
    std::vector<int> tris = g.floor;
    std::vector<unsigned char> areas(2, RC_WALKABLE_AREA);
    for (int b : boxes) tris.insert(tris.end(), g.box.begin() + 36 * b, g.box.begin() + 36 * (b + 1));
    areas.resize(tris.size() / 3, RC_NULL_AREA);
    if (!solid || !chf || !rcCreateHeightfield(ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch) ||
        !rcRasterizeTriangles(ctx, g.verts.data(), (int)g.verts.size() / 3, tris.data(), areas.data(),
                              (int)areas.size(), *solid, cfg.walkableClimb))
        return false;
    rcFilterLowHangingWalkableObstacles(ctx, cfg.walkableClimb, *solid);
    rcFilterLedgeSpans(ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
    rcFilterWalkableLowHeightSpans(ctx, cfg.walkableHeight, *solid);
    return rcBuildCompactHeightfield(ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf) &&
           rcErodeWalkableArea(ctx, cfg.walkableRadius, *chf);
}

struct Baked {
    dtNavMesh *mesh = nullptr;
    int tiles = 0, polys = 0;
    size_t bytes = 0;
    double ms = 0;
};

// One tile (tx, ty) of the level, as Sample_TileMesh::buildTileMesh does it;
// the tile's data for dtNavMesh::addTile, or nullptr when it has no polygon.
unsigned char *bake_tile(rcContext *ctx, const Geometry &g, const std::vector<int> &boxes, const rcConfig &base,
                         const float *orig, int tx, int ty, int *size, int *npolys)
{
    rcConfig cfg = base;
    unsigned char *data = nullptr;
    rcHeightfield *solid = rcAllocHeightfield();
    rcCompactHeightfield *chf = rcAllocCompactHeightfield();
    rcContourSet *cset = rcAllocContourSet();
    rcPolyMesh *pmesh = rcAllocPolyMesh();
    rcPolyMeshDetail *dmesh = rcAllocPolyMeshDetail();
    dtNavMeshCreateParams p;
    if (!cset || !pmesh || !dmesh || !tile_field(ctx, g, boxes, cfg, orig, tx, ty, solid, chf)) goto done;
    if (!rcBuildDistanceField(ctx, *chf) ||
        !rcBuildRegions(ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea) ||
        !rcBuildContours(ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset) || cset->nconts == 0 ||
        !rcBuildPolyMesh(ctx, *cset, cfg.maxVertsPerPoly, *pmesh) || pmesh->npolys == 0 ||
        !rcBuildPolyMeshDetail(ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dmesh))
        goto done;
    for (int i = 0; i < pmesh->npolys; i++)
        if (pmesh->areas[i] == RC_WALKABLE_AREA) pmesh->flags[i] = kWalkFlag;
    memset(&p, 0, sizeof p);
    p.verts = pmesh->verts;
    p.vertCount = pmesh->nverts;
    p.polys = pmesh->polys;
    p.polyAreas = pmesh->areas;
    p.polyFlags = pmesh->flags;
    p.polyCount = pmesh->npolys;
    p.nvp = pmesh->nvp;
    p.detailMeshes = dmesh->meshes;
    p.detailVerts = dmesh->verts;
    p.detailVertsCount = dmesh->nverts;
    p.detailTris = dmesh->tris;
    p.detailTriCount = dmesh->ntris;
    p.walkableHeight = kAgentHeight;
    p.walkableRadius = cfg.walkableRadius * cfg.cs;
    p.walkableClimb = kAgentClimb;
    p.tileX = tx;
    p.tileY = ty;
    rcVcopy(p.bmin, pmesh->bmin);
    rcVcopy(p.bmax, pmesh->bmax);
    p.cs = cfg.cs;
    p.ch = cfg.ch;
    p.buildBvTree = true;
    if (!dtCreateNavMeshData(&p, &data, size)) data = nullptr;
    *npolys = pmesh->npolys;
done:
    rcFreeHeightField(solid);
    rcFreeCompactHeightfield(chf);
    rcFreeContourSet(cset);
    rcFreePolyMesh(pmesh);
    rcFreePolyMeshDetail(dmesh);
    return data;
}

// A tiled dtNavMesh's parameters: tiles tile_m metres wide from orig, the
// polygon ids split into 2^tile_bits tiles of 2^poly_bits polygons.
static dtNavMeshParams mesh_params(const float *orig, float tile_m, int tile_bits, int poly_bits)
{
    dtNavMeshParams params;
    memset(&params, 0, sizeof params);
    rcVcopy(params.orig, orig);
    params.tileWidth = params.tileHeight = tile_m;
    params.maxTiles = 1 << tile_bits;
    params.maxPolys = 1 << poly_bits;
    return params;
}

Baked bake(const NavLevel *l, const Geometry &g, double radius, const Options &o)
{
    Baked out;
    double t0 = bench_now_ms();
    rcContext ctx(false);
    rcConfig cfg = config(radius, o);
    float orig[3] = { 0, -1, 0 };
    float tile_m = cfg.tileSize * cfg.cs;
    int tw = (int)std::ceil(l->w / tile_m), th = (int)std::ceil(l->h / tile_m);
    int tile_bits = std::min(ilog2ceil((unsigned)(tw * th)), 14), poly_bits = 22 - tile_bits;
    dtNavMeshParams params = mesh_params(orig, tile_m, tile_bits, poly_bits);
    out.mesh = dtAllocNavMesh();
    if (!out.mesh || dtStatusFailed(out.mesh->init(&params))) {
        fprintf(stderr, "detour-nav: dtNavMesh::init failed\n");
        exit(1);
    }
    auto per_tile = boxes_per_tile(l, tw, th, tile_m, cfg.borderSize * cfg.cs);
    for (int ty = 0; ty < th; ty++)
        for (int tx = 0; tx < tw; tx++) {
            int size = 0, npolys = 0;
            unsigned char *data = bake_tile(&ctx, g, per_tile[(size_t)ty * tw + tx], cfg, orig, tx, ty, &size, &npolys);
            if (!data) continue;
            if (dtStatusFailed(out.mesh->addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr))) {
                dtFree(data);
                fprintf(stderr, "detour-nav: addTile (%d, %d) failed\n", tx, ty);
                exit(1);
            }
            out.tiles++;
            out.polys += npolys;
            out.bytes += (size_t)size;
        }
    out.ms = bench_now_ms() - t0;
    return out;
}

// One query's buffers and results.
struct Query {
    dtNavMeshQuery *q;
    dtQueryFilter filter;
    std::vector<dtPolyRef> path, spath_refs;
    std::vector<float> spath;
    std::vector<unsigned char> sflags;
    dtPolyRef ra, rz;
    float sa[3], sz[3]; // the start and goal findNearestPoly gave
    int nstraight;
    bool complete;
};

// What a game does for a path from a to z: both ends onto the mesh, the
// polygons, the straight path.
void query(Query &w, const float *a, const float *z)
{
    int npath = 0;
    w.ra = w.rz = 0;
    w.nstraight = 0;
    w.complete = false;
    w.q->findNearestPoly(a, kHalfExtents, &w.filter, &w.ra, w.sa);
    w.q->findNearestPoly(z, kHalfExtents, &w.filter, &w.rz, w.sz);
    if (!w.ra || !w.rz) return;
    dtStatus st = w.q->findPath(w.ra, w.rz, w.sa, w.sz, &w.filter, w.path.data(), &npath, kMaxPath);
    w.complete = dtStatusSucceed(st) && !(st & DT_PARTIAL_RESULT) && npath > 0 && w.path[npath - 1] == w.rz;
    if (npath == 0) return;
    // Detour's recipe for a partial path: end at the point of the last polygon nearest the goal.
    if (w.path[npath - 1] != w.rz) w.q->closestPointOnPoly(w.path[npath - 1], w.sz, w.sz, nullptr);
    w.q->findStraightPath(w.sa, w.sz, w.path.data(), npath, w.spath.data(), w.sflags.data(), w.spath_refs.data(),
                          &w.nstraight, kMaxPath);
}

double moved(const float *from, const float *to) { return std::hypot(to[0] - from[0], to[2] - from[2]); }

void run(const NavLevel *l, const Geometry &g, double radius, const Options &o, FILE *lengths, FILE *times)
{
    Baked b = bake(l, g, radius, o);
    Query w;
    w.q = dtAllocNavMeshQuery();
    if (!w.q || dtStatusFailed(w.q->init(b.mesh, kMaxNodes))) {
        fprintf(stderr, "detour-nav: dtNavMeshQuery::init failed\n");
        exit(1);
    }
    w.path.resize(kMaxPath);
    w.spath_refs.resize(kMaxPath);
    w.spath.resize(3 * kMaxPath);
    w.sflags.resize(kMaxPath);
    std::vector<double> us;
    int n = std::min(o.queries, l->npairs), start_off = 0, partial = 0, found = 0, far_snap = 0;
    double total_len = 0;
    for (int i = 0; i < n; i++) {
        const double *pr = l->pairs + 4 * i;
        float a[3], z[3];
        put(a, pr[0], 0, pr[1]);
        put(z, pr[2], 0, pr[3]);
        double best = INFINITY;
        for (int k = 0; k < o.repeat; k++) {
            double t0 = bench_now();
            query(w, a, z);
            best = std::min(best, (bench_now() - t0) * 1e6);
        }
        us.push_back(best);
        double len = 0;
        for (int k = 1; k < w.nstraight; k++)
            len += std::hypot(w.spath[3 * k] - w.spath[3 * k - 3], w.spath[3 * k + 2] - w.spath[3 * k - 1]);
        if (!w.ra || !w.rz) start_off++;
        else if (!w.complete) partial++;
        else {
            found++;
            total_len += len;
            if (std::max(moved(a, w.sa), moved(z, w.sz)) > radius + kFarSnap) far_snap++;
        }
        if (times) fprintf(times, "%s %g %d %.3f %d\n", l->name, radius, i, best, w.complete ? 1 : 0);
        if (lengths) {
            if (w.complete) fprintf(lengths, "%s %g %d %.4f\n", l->name, radius, i, len);
            else fprintf(lengths, "%s %g %d -\n", l->name, radius, i);
        }
    }
    double median = bench_median(us.data(), (int)us.size()); // sorts them
    double p99 = us[(size_t)(0.99 * (double)(us.size() - 1))], worst = us.back();
    printf("detour-nav level=%s radius=%g cs=%g tile_cells=%d tiles=%d polys=%d bake_ms=%.1f nav_bytes=%zu "
           "queries=%d repeat=%d median_us=%.2f p99_us=%.1f worst_us=%.1f no_path=%d start_off=%d partial=%d "
           "far_snap=%d mean_len_m=%.3f\n",
           l->name, radius, o.cs, o.tile, b.tiles, b.polys, b.ms, b.bytes, n, o.repeat, median, p99, worst,
           start_off + partial, start_off, partial, far_snap, found ? total_len / found : 0.0);
    fflush(stdout);
    dtFreeNavMeshQuery(w.q);
    dtFreeNavMesh(b.mesh);
}


// ---- --obstacles: a crate pushed every tick, through DetourTileCache ----------------
//
// The level baked into a dtTileCache (Sample_TempObstacles' recipe: per
// tile the heightfield layers, stored uncompressed here, so the time is the
// rebuild's, not a codec's), its tiles built into a dtNavMesh for radius
// 0.5 m. A 1 m x 1 m box obstacle (addBoxObstacle, 0 .. 2 m high) is put at
// the first query pair's start, then moved N times by 5 cm, 40 one way and
// 40 back, as `steer-bench navobst` moves its crate: one move is
// removeObstacle + addBoxObstacle + update until the cache says it is up
// to date (every touched tile rebuilt into the navmesh), timed whole.
//   detour-nav-obstacles level=L tile_cells=T tiles=K add_us=X move_median_us=X move_p99_us=X move_worst_us=X

struct Stored : public dtTileCacheCompressor {
    int maxCompressedSize(const int size) override { return size; }
    dtStatus compress(const unsigned char *in, const int n, unsigned char *out, const int, int *outn) override
    {
        memcpy(out, in, (size_t)n);
        *outn = n;
        return DT_SUCCESS;
    }
    dtStatus decompress(const unsigned char *in, const int n, unsigned char *out, const int, int *outn) override
    {
        memcpy(out, in, (size_t)n);
        *outn = n;
        return DT_SUCCESS;
    }
};

struct Flags : public dtTileCacheMeshProcess {
    void process(dtNavMeshCreateParams *p, unsigned char *areas, unsigned short *flags) override
    {
        for (int i = 0; i < p->polyCount; i++)
            if (areas[i] == DT_TILECACHE_WALKABLE_AREA) flags[i] = kWalkFlag;
    }
};

// Tile (tx, ty)'s layers into the cache; the number added.
int cache_tile(rcContext *ctx, dtTileCache *tc, Stored *comp, const Geometry &g, const std::vector<int> &boxes,
               const rcConfig &base, const float *orig, int tx, int ty)
{
    rcConfig cfg = base;
    rcHeightfield *solid = rcAllocHeightfield();
    rcCompactHeightfield *chf = rcAllocCompactHeightfield();
    rcHeightfieldLayerSet *lset = rcAllocHeightfieldLayerSet();
    int added = 0;
    bool ok = lset && tile_field(ctx, g, boxes, cfg, orig, tx, ty, solid, chf) &&
              rcBuildHeightfieldLayers(ctx, *chf, cfg.borderSize, cfg.walkableHeight, *lset);
    for (int i = 0; ok && i < lset->nlayers; i++) {
        const rcHeightfieldLayer *layer = &lset->layers[i];
        dtTileCacheLayerHeader h;
        memset(&h, 0, sizeof h);
        h.magic = DT_TILECACHE_MAGIC;
        h.version = DT_TILECACHE_VERSION;
        h.tx = tx;
        h.ty = ty;
        h.tlayer = i;
        rcVcopy(h.bmin, layer->bmin);
        rcVcopy(h.bmax, layer->bmax);
        h.width = (unsigned char)layer->width;
        h.height = (unsigned char)layer->height;
        h.minx = (unsigned char)layer->minx;
        h.maxx = (unsigned char)layer->maxx;
        h.miny = (unsigned char)layer->miny;
        h.maxy = (unsigned char)layer->maxy;
        h.hmin = (unsigned short)layer->hmin;
        h.hmax = (unsigned short)layer->hmax;
        unsigned char *data = nullptr;
        int size = 0;
        if (dtStatusFailed(dtBuildTileCacheLayer(comp, &h, layer->heights, layer->areas, layer->cons, &data, &size)) ||
            dtStatusFailed(tc->addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, nullptr))) {
            dtFree(data);
            ok = false;
        } else {
            added++;
        }
    }
    rcFreeHeightField(solid);
    rcFreeCompactHeightfield(chf);
    rcFreeHeightfieldLayerSet(lset);
    if (!ok) {
        fprintf(stderr, "detour-nav: tile (%d, %d) of the tile cache failed\n", tx, ty);
        exit(1);
    }
    return added;
}

void run_obstacles(const NavLevel *l, const Geometry &g, const Options &o)
{
    const double radius = 0.5;
    rcContext ctx(false);
    rcConfig cfg = config(radius, o);
    float orig[3] = { 0, -1, 0 };
    float tile_m = cfg.tileSize * cfg.cs;
    int tw = (int)std::ceil(l->w / tile_m), th = (int)std::ceil(l->h / tile_m);
    int tile_bits = std::min(ilog2ceil((unsigned)(tw * th * 4)), 14), poly_bits = 22 - tile_bits;
    dtTileCacheParams tcp;
    memset(&tcp, 0, sizeof tcp);
    rcVcopy(tcp.orig, orig);
    tcp.cs = cfg.cs;
    tcp.ch = cfg.ch;
    tcp.width = tcp.height = cfg.tileSize;
    tcp.walkableHeight = kAgentHeight;
    tcp.walkableRadius = (float)radius;
    tcp.walkableClimb = kAgentClimb;
    tcp.maxSimplificationError = kEdgeMaxError;
    tcp.maxTiles = tw * th * 4;
    tcp.maxObstacles = 128;
    static Stored comp;
    static Flags proc;
    static dtTileCacheAlloc talloc;
    dtTileCache *tc = dtAllocTileCache();
    dtNavMesh *nav = dtAllocNavMesh();
    dtNavMeshParams params = mesh_params(orig, tile_m, tile_bits, poly_bits);
    if (!tc || !nav || dtStatusFailed(tc->init(&tcp, &talloc, &comp, &proc)) ||
        dtStatusFailed(nav->init(&params))) {
        fprintf(stderr, "detour-nav: dtTileCache or dtNavMesh init failed\n");
        exit(1);
    }
    auto per_tile = boxes_per_tile(l, tw, th, tile_m, cfg.borderSize * cfg.cs);
    int layers = 0;
    for (int ty = 0; ty < th; ty++)
        for (int tx = 0; tx < tw; tx++)
            layers += cache_tile(&ctx, tc, &comp, g, per_tile[(size_t)ty * tw + tx], cfg, orig, tx, ty);
    for (int ty = 0; ty < th; ty++)
        for (int tx = 0; tx < tw; tx++) tc->buildNavMeshTilesAt(tx, ty, nav);
    double x = l->pairs[0], y = l->pairs[1];
    auto settle = [&]() {
        bool done = false;
        while (!done)
            if (dtStatusFailed(tc->update(0, nav, &done))) {
                fprintf(stderr, "detour-nav: dtTileCache::update failed\n");
                exit(1);
            }
    };
    dtObstacleRef ref = 0;
    float bmin[3], bmax[3];
    put(bmin, x - 0.5, 0, y - 0.5);
    put(bmax, x + 0.5, kBoxHeight, y + 0.5);
    double t0 = bench_now();
    tc->addBoxObstacle(bmin, bmax, &ref);
    settle();
    double add = bench_now() - t0;
    std::vector<double> us;
    for (int i = 0; i < o.moves; i++) {
        x += (i / 40) % 2 ? -0.05 : 0.05;
        put(bmin, x - 0.5, 0, y - 0.5);
        put(bmax, x + 0.5, kBoxHeight, y + 0.5);
        t0 = bench_now();
        tc->removeObstacle(ref);
        tc->addBoxObstacle(bmin, bmax, &ref);
        settle();
        us.push_back((bench_now() - t0) * 1e6);
    }
    double median = bench_median(us.data(), (int)us.size()); // sorts them
    printf("detour-nav-obstacles level=%s cs=%g tile_cells=%d tiles=%d layers=%d add_us=%.1f move_median_us=%.1f "
           "move_p99_us=%.1f move_worst_us=%.1f\n",
           l->name, o.cs, o.tile, tw * th, layers, add * 1e6, median, us[(size_t)(0.99 * (double)(us.size() - 1))],
           us.back());
    fflush(stdout);
    dtFreeTileCache(tc);
    dtFreeNavMesh(nav);
}

int usage()
{
    fprintf(stderr, "usage: detour-nav [--level NAME|all] [--radius 0|0.5|both] [--cs M] [--tile CELLS] "
                    "[--queries N] [--repeat K] [--lengths FILE] [--times FILE]\n"
                    "       detour-nav --obstacles [--level NAME|all] [--cs M] [--tile CELLS] [--moves N]\n"
                    "       detour-nav --bake FILE.obj [--cs M] [--height M] [--climb M] [--slope DEG] [--radius M] "
                    "[--tile CELLS] [--repeat K]\n");
    return 2;
}

// ---- --bake FILE.obj: a plain Recast bake of a level's triangles ----------------------
//
// What `steer.navmesh{ obj = FILE, agent = { height, climb, slope } }` does,
// through Recast and Detour as RecastDemo's Sample_TileMesh does it, with
// steer's bake settings: the OBJ's own frame (y up, as Recast's), cell
// --cs (default 0.2 m, steer's height / 10), cell height cs / 2, agent
// height --height (2 m), climb --climb (0.4 m), slope --slope (45
// degrees), radius --radius (default 0: steer does not erode either),
// pieces under 8 x 8 cells dropped (steer drops those under 64 cells),
// contour error 1.3 cells; then what Detour needs that steer's mesh build
// stands for: watershed regions (merge 20 x 20), edges up to 12 m,
// polygons of up to 6 sides, the detail meshes (6 cells, 1 cell height),
// dtCreateNavMeshData and addTile. Tiles of --tile cells (256), the
// triangles binned to the tiles they may touch. Each of --repeat K bakes
// (default 5) reads the file again, as steer.navmesh{ obj } does; prints
//   detour-nav-bake obj=F verts=V tris=T cs=M tiles=K polys=P nav_bytes=B repeat=K
//     read_ms=X field_ms=X bake_ms=X cpu_ms=X
// with medians of the K: read_ms the OBJ read, field_ms the part of the
// bake up to the contours (what steer's bake hands its mesh builder), bake_ms
// the whole bake after the read (read + bake: what the steer call costs),
// all wall time; cpu_ms the read and the bake in processor time (clock(),
// as bench/bake_obj.lua's os.clock: the two compare on a busy machine).

struct Soup {
    std::vector<float> v; // 3 per vertex, the OBJ's frame
    std::vector<int> tri; // 3 per triangle
};

// The vertices and faces of a Wavefront OBJ (faces fanned into triangles;
// "a/b/c" and negative indices taken); false when it cannot be read.
bool read_obj(const char *path, Soup &s)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    s.v.clear();
    s.tri.clear();
    char line[4096];
    std::vector<int> face;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == 'v' && (line[1] == ' ' || line[1] == '\t')) {
            float x = 0, y = 0, z = 0;
            if (sscanf(line + 2, "%f %f %f", &x, &y, &z) != 3) continue;
            s.v.insert(s.v.end(), { x, y, z });
        } else if (line[0] == 'f' && (line[1] == ' ' || line[1] == '\t')) {
            face.clear();
            for (char *p = line + 2; *p;) {
                char *end;
                long k = strtol(p, &end, 10);
                if (end == p) break;
                int nv = (int)(s.v.size() / 3);
                face.push_back(k < 0 ? nv + (int)k : (int)k - 1);
                p = end;
                while (*p && *p != ' ' && *p != '\t') p++; // "/vt/vn"
                while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
            }
            for (size_t i = 2; i < face.size(); i++) s.tri.insert(s.tri.end(), { face[0], face[i - 1], face[i] });
        }
    }
    fclose(f);
    return !s.tri.empty();
}

struct BakeOpts {
    float cs = 0.2f, height = 2.0f, climb = 0.4f, slope = 45.0f, radius = 0.0f;
    int tile = 256, repeat = 5;
};

struct ObjBaked {
    int tiles = 0, polys = 0;
    size_t bytes = 0;
    double field_ms = 0, ms = 0;
};

// One bake of the soup: a dtNavMesh of its tiles (freed here: the times and sizes are kept).
ObjBaked bake_soup(const Soup &s, const BakeOpts &b)
{
    ObjBaked out;
    double t0 = bench_now_ms();
    rcContext ctx(false);
    const int nv = (int)(s.v.size() / 3), nt = (int)(s.tri.size() / 3);
    float bmin[3], bmax[3];
    rcCalcBounds(s.v.data(), nv, bmin, bmax);
    std::vector<unsigned char> areas((size_t)nt, RC_NULL_AREA);
    rcMarkWalkableTriangles(&ctx, b.slope, s.v.data(), nv, s.tri.data(), nt, areas.data());
    rcConfig cfg = rc_config(b.cs, b.cs / 2, b.slope, b.height, b.climb, b.radius, b.tile);
    const float tile_m = cfg.tileSize * cfg.cs, border_m = cfg.borderSize * cfg.cs;
    const int tw = (int)std::ceil((bmax[0] - bmin[0]) / tile_m), th = (int)std::ceil((bmax[2] - bmin[2]) / tile_m);
    // each triangle in every tile its box (with the border) overlaps
    std::vector<std::vector<int>> bins((size_t)tw * th);
    for (int t = 0; t < nt; t++) {
        float lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
        for (int c = 0; c < 3; c++) {
            const float *p = &s.v[3 * (size_t)s.tri[3 * (size_t)t + c]];
            lo[0] = std::min(lo[0], p[0]), hi[0] = std::max(hi[0], p[0]);
            lo[1] = std::min(lo[1], p[2]), hi[1] = std::max(hi[1], p[2]);
        }
        int x0 = std::max(0, (int)std::floor((lo[0] - bmin[0] - border_m) / tile_m));
        int x1 = std::min(tw - 1, (int)std::floor((hi[0] - bmin[0] + border_m) / tile_m));
        int y0 = std::max(0, (int)std::floor((lo[1] - bmin[2] - border_m) / tile_m));
        int y1 = std::min(th - 1, (int)std::floor((hi[1] - bmin[2] + border_m) / tile_m));
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) bins[(size_t)y * tw + x].push_back(t);
    }
    int tile_bits = std::min(ilog2ceil((unsigned)(tw * th)), 14);
    dtNavMeshParams np;
    memset(&np, 0, sizeof np);
    rcVcopy(np.orig, bmin);
    np.tileWidth = np.tileHeight = tile_m;
    np.maxTiles = 1 << tile_bits;
    np.maxPolys = 1 << (22 - tile_bits);
    dtNavMesh *nav = dtAllocNavMesh();
    if (!nav || dtStatusFailed(nav->init(&np))) {
        fprintf(stderr, "detour-nav: dtNavMesh::init failed\n");
        exit(1);
    }
    std::vector<int> tris;
    std::vector<unsigned char> tareas;
    for (int ty = 0; ty < th; ty++)
        for (int tx = 0; tx < tw; tx++) {
            double f0 = bench_now_ms();
            const std::vector<int> &bin = bins[(size_t)ty * tw + tx];
            tris.clear();
            tareas.clear();
            for (int t : bin) {
                tris.insert(tris.end(), s.tri.begin() + 3 * (size_t)t, s.tri.begin() + 3 * (size_t)t + 3);
                tareas.push_back(areas[(size_t)t]);
            }
            rcConfig c = cfg;
            c.bmin[0] = bmin[0] + tx * tile_m - border_m;
            c.bmin[1] = bmin[1];
            c.bmin[2] = bmin[2] + ty * tile_m - border_m;
            c.bmax[0] = bmin[0] + (tx + 1) * tile_m + border_m;
            c.bmax[1] = bmax[1] + b.height;
            c.bmax[2] = bmin[2] + (ty + 1) * tile_m + border_m;
            rcHeightfield *solid = rcAllocHeightfield();
            rcCompactHeightfield *chf = rcAllocCompactHeightfield();
            rcContourSet *cset = rcAllocContourSet();
            rcPolyMesh *pm = rcAllocPolyMesh();
            rcPolyMeshDetail *dm = rcAllocPolyMeshDetail();
            unsigned char *data = nullptr;
            int size = 0;
            bool ok = solid && chf && cset && pm && dm && !bin.empty() &&
                      rcCreateHeightfield(&ctx, *solid, c.width, c.height, c.bmin, c.bmax, c.cs, c.ch) &&
                      rcRasterizeTriangles(&ctx, s.v.data(), nv, tris.data(), tareas.data(), (int)tareas.size(), *solid,
                                           c.walkableClimb);
            if (ok) {
                rcFilterLowHangingWalkableObstacles(&ctx, c.walkableClimb, *solid);
                rcFilterLedgeSpans(&ctx, c.walkableHeight, c.walkableClimb, *solid);
                rcFilterWalkableLowHeightSpans(&ctx, c.walkableHeight, *solid);
                ok = rcBuildCompactHeightfield(&ctx, c.walkableHeight, c.walkableClimb, *solid, *chf) &&
                     (c.walkableRadius == 0 || rcErodeWalkableArea(&ctx, c.walkableRadius, *chf)) &&
                     rcBuildDistanceField(&ctx, *chf) &&
                     rcBuildRegions(&ctx, *chf, c.borderSize, c.minRegionArea, c.mergeRegionArea) &&
                     rcBuildContours(&ctx, *chf, c.maxSimplificationError, c.maxEdgeLen, *cset);
            }
            out.field_ms += bench_now_ms() - f0;
            ok = ok && cset->nconts > 0 && rcBuildPolyMesh(&ctx, *cset, c.maxVertsPerPoly, *pm) && pm->npolys > 0 &&
                 rcBuildPolyMeshDetail(&ctx, *pm, *chf, c.detailSampleDist, c.detailSampleMaxError, *dm);
            if (ok) {
                for (int i = 0; i < pm->npolys; i++)
                    if (pm->areas[i] == RC_WALKABLE_AREA) pm->flags[i] = kWalkFlag;
                dtNavMeshCreateParams p;
                memset(&p, 0, sizeof p);
                p.verts = pm->verts;
                p.vertCount = pm->nverts;
                p.polys = pm->polys;
                p.polyAreas = pm->areas;
                p.polyFlags = pm->flags;
                p.polyCount = pm->npolys;
                p.nvp = pm->nvp;
                p.detailMeshes = dm->meshes;
                p.detailVerts = dm->verts;
                p.detailVertsCount = dm->nverts;
                p.detailTris = dm->tris;
                p.detailTriCount = dm->ntris;
                p.walkableHeight = b.height;
                p.walkableRadius = b.radius;
                p.walkableClimb = b.climb;
                p.tileX = tx;
                p.tileY = ty;
                rcVcopy(p.bmin, pm->bmin);
                rcVcopy(p.bmax, pm->bmax);
                p.cs = c.cs;
                p.ch = c.ch;
                p.buildBvTree = true;
                if (dtCreateNavMeshData(&p, &data, &size)) {
                    if (dtStatusFailed(nav->addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr))) {
                        fprintf(stderr, "detour-nav: addTile (%d, %d) failed\n", tx, ty);
                        exit(1);
                    }
                    out.tiles++;
                    out.polys += pm->npolys;
                    out.bytes += (size_t)size;
                } else if (pm->nverts >= 0xffff) {
                    fprintf(stderr, "detour-nav: tile (%d, %d) has %d vertices: give a smaller --tile\n", tx, ty,
                            pm->nverts);
                    exit(1);
                }
            }
            rcFreeHeightField(solid);
            rcFreeCompactHeightfield(chf);
            rcFreeContourSet(cset);
            rcFreePolyMesh(pm);
            rcFreePolyMeshDetail(dm);
        }
    out.ms = bench_now_ms() - t0;
    dtFreeNavMesh(nav);
    return out;
}

int run_bake(const char *path, const BakeOpts &b)
{
    std::vector<double> read, field, whole, cpu;
    Soup s;
    ObjBaked last;
    for (int k = 0; k < b.repeat; k++) {
        double t0 = bench_now_ms();
        clock_t c0 = clock();
        if (!read_obj(path, s)) {
            fprintf(stderr, "detour-nav: cannot read triangles from %s\n", path);
            return 1;
        }
        read.push_back(bench_now_ms() - t0);
        last = bake_soup(s, b);
        field.push_back(last.field_ms);
        whole.push_back(last.ms);
        cpu.push_back((double)(clock() - c0) * 1e3 / CLOCKS_PER_SEC);
    }
    printf("detour-nav-bake obj=%s verts=%zu tris=%zu cs=%g radius=%g tile_cells=%d tiles=%d polys=%d nav_bytes=%zu "
           "repeat=%d read_ms=%.2f field_ms=%.2f bake_ms=%.2f cpu_ms=%.2f\n",
           path, s.v.size() / 3, s.tri.size() / 3, b.cs, b.radius, b.tile, last.tiles, last.polys, last.bytes,
           b.repeat, bench_median(read.data(), b.repeat), bench_median(field.data(), b.repeat),
           bench_median(whole.data(), b.repeat), bench_median(cpu.data(), b.repeat));
    return 0;
}

// detour-nav --bake FILE.obj [--cs M] [--height M] [--climb M] [--slope DEG] [--radius M] [--tile CELLS] [--repeat K]
int bake_main(int argc, char **argv, int at)
{
    BakeOpts b;
    for (int i = at; i < argc; i++) {
        if (!strcmp(argv[i], "--cs") && i + 1 < argc) b.cs = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--height") && i + 1 < argc) b.height = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--climb") && i + 1 < argc) b.climb = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--slope") && i + 1 < argc) b.slope = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--radius") && i + 1 < argc) b.radius = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--tile") && i + 1 < argc) b.tile = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) b.repeat = atoi(argv[++i]);
        else return usage();
    }
    if (!(b.cs >= 0.01f && b.cs <= 1.0f) || !(b.height > 0) || !(b.climb >= 0) || !(b.slope >= 0 && b.slope < 90) ||
        !(b.radius >= 0 && b.radius <= 10) || b.tile < 16 || b.tile > 4096 || b.repeat < 1 || b.repeat > 1000)
        return usage();
    return run_bake(argv[at - 1], b);
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    const char *level = "all", *radius = "both";
    bool tile_given = false;
    if (argc >= 3 && !strcmp(argv[1], "--bake")) return bake_main(argc, argv, 3);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--level") && i + 1 < argc) level = argv[++i];
        else if (!strcmp(argv[i], "--radius") && i + 1 < argc) radius = argv[++i];
        else if (!strcmp(argv[i], "--cs") && i + 1 < argc) o.cs = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--tile") && i + 1 < argc) o.tile = atoi(argv[++i]), tile_given = true;
        else if (!strcmp(argv[i], "--queries") && i + 1 < argc) o.queries = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) o.repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--lengths") && i + 1 < argc) o.lengths = argv[++i];
        else if (!strcmp(argv[i], "--times") && i + 1 < argc) o.times = argv[++i];
        else if (!strcmp(argv[i], "--obstacles")) o.obstacles = true;
        else if (!strcmp(argv[i], "--moves") && i + 1 < argc) o.moves = atoi(argv[++i]);
        else return usage();
    }
    if (o.obstacles && !tile_given) o.tile = 48; // Sample_TempObstacles' tiles
    if (o.moves < 1) return usage();
    if (!(o.cs >= 0.05f && o.cs <= 1.0f) || o.tile < 16 || o.tile > 4096 || o.queries < 1 || o.repeat < 1)
        return usage();
    std::vector<double> radii;
    if (!strcmp(radius, "both")) radii = { 0.0, 0.5 };
    else {
        char *end;
        double r = strtod(radius, &end);
        if (*end || !(r >= 0 && r <= 10)) return usage();
        radii = { r };
    }
    FILE *lengths = nullptr, *times = nullptr;
    if ((o.lengths && !(lengths = fopen(o.lengths, "a"))) || (o.times && !(times = fopen(o.times, "a")))) {
        fprintf(stderr, "detour-nav: cannot open %s\n", o.lengths && !lengths ? o.lengths : o.times);
        return 1;
    }
    int ran = 0;
    for (int k = 0; nav_level_names[k]; k++) {
        if (strcmp(level, "all") && strcmp(level, nav_level_names[k])) continue;
        NavLevel l;
        if (nav_level_make(nav_level_names[k], &l)) {
            fprintf(stderr, "detour-nav: cannot make level %s\n", nav_level_names[k]);
            return 1;
        }
        Geometry g = geometry(&l);
        if (o.obstacles) run_obstacles(&l, g, o);
        else
            for (double r : radii) run(&l, g, r, o, lengths, times);
        nav_level_free(&l);
        ran++;
    }
    if (lengths) fclose(lengths);
    if (times) fclose(times);
    if (!ran) return usage();
    return 0;
}
