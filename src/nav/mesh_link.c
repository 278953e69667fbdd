// SPDX-License-Identifier: MIT
// mesh_link.c — off-mesh links (mesh_link.h): the links as data, and paths
// that take them.
//
// Paths over links. The search over triangles (mesh_path.c) stays as it
// is, and a path that may take links is a search one level up: a graph
// whose nodes are the start, the goal and the far end of every way a link
// can be taken (each direction of a two-way link is one), searched with
// Dijkstra's rule. An edge from a node to a link's near end costs what
// the triangle search's own cost of that stretch is (area costs and all),
// plus the link's own cost; an edge to the goal, the stretch's cost.
// Stretches are searched only when a node is settled, and only when the
// straight distance times the cheapest area cost could still improve on
// what is known (with a link that leaves for another island only when
// the islands say the stretch exists). The way found is then made stretch
// by stretch, each through the funnel of its own corridor, and joined:
// its points hold both ends of every link it takes. A mesh without links,
// or whose links this search cannot take, gets steerN_mesh_path_plain's
// path, bit for bit. Ties go to the lower node, so the same query on the
// same mesh gives the same path everywhere. A query with a work cap
// (steerN_mesh_query_link_cap) stops settling nodes once its stretches
// have done that much work and makes the best way known then.
#include "mesh_link.h"

#include "../core/bytes.h"
#include "mesh_path.h"
#include "predicates.h"

#include <math.h>
#include <string.h>

// ---- the links as data ----------------------------------------------------------

static bool quantize_end(const double in[3], double out[3])
{
    int64_t q[2];
    if (!steerN_mesh_quantize(in[0], q) || !steerN_mesh_quantize(in[1], q + 1) || !isfinite(in[2])) return false;
    out[0] = (double)q[0] / STEERN_MESH_SCALE;
    out[1] = (double)q[1] / STEERN_MESH_SCALE;
    out[2] = in[2];
    return true;
}

static bool link_ok(const steerN_Mesh *m, const steerN_Link *l)
{
    return l->cost >= 0.0f && l->cost < INFINITY && l->area < m->nareas && memchr(l->name, 0, STEERN_LINK_NAME) != NULL;
}

static void rehash(steerN_Mesh *m) { m->hash = steerN_mesh_hash(m); }

steerN_LinkStatus steerN_link_add(steerN_Mesh *m, const steerN_Link *l, uint32_t *index)
{
    steerN_Link k = *l;
    if (!quantize_end(l->a, k.a) || steerN_mesh_locate(m, k.a) < 0) return STEERN_LINK_FROM_OFF;
    if (!quantize_end(l->b, k.b) || steerN_mesh_locate(m, k.b) < 0) return STEERN_LINK_TO_OFF;
    if (!link_ok(m, &k)) return STEERN_LINK_BAD;
    steerN_Links *s = m->links;
    if (s && s->n >= STEERN_LINKS_MAX) return STEERN_LINK_FULL;
    if (!s) {
        if (!(s = steerN_realloc(&m->alloc, NULL, 0, sizeof *s))) return STEERN_LINK_NOMEM;
        memset(s, 0, sizeof *s);
        m->links = s;
    }
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 8;
        steerN_Link *p = steerN_realloc(&m->alloc, s->link, sizeof *p * s->cap, sizeof *p * cap);
        if (!p) return STEERN_LINK_NOMEM;
        s->link = p;
        s->cap = cap;
    }
    memset(k.name + strlen(k.name), 0, STEERN_LINK_NAME - strlen(k.name)); // hashed and saved as bytes
    s->link[s->n] = k;
    if (index) *index = s->n;
    s->n++;
    rehash(m);
    return STEERN_LINK_OK;
}

uint32_t steerN_link_count(const steerN_Mesh *m) { return m->links ? m->links->n : 0; }

const steerN_Link *steerN_link_get(const steerN_Mesh *m, uint32_t i)
{
    return i < steerN_link_count(m) ? &m->links->link[i] : NULL;
}

bool steerN_link_enable(steerN_Mesh *m, uint32_t i, bool on)
{
    if (i >= steerN_link_count(m)) return false;
    if (m->links->link[i].enabled != on) {
        m->links->link[i].enabled = on;
        rehash(m);
    }
    return true;
}

void steerN_links_free(steerN_Mesh *m)
{
    steerN_Links *s = m->links;
    if (!s) return;
    steerN_realloc(&m->alloc, s->link, sizeof *s->link * s->cap, 0);
    steerN_realloc(&m->alloc, s, sizeof *s, 0);
    m->links = NULL;
}

size_t steerN_links_bytes(const steerN_Mesh *m)
{
    return m->links ? sizeof *m->links + sizeof *m->links->link * m->links->cap : 0;
}

// A link's fields in the order its bytes and its hash hold them.
static void put_link(const steerN_Link *l, steerS_Writer *out)
{
    for (int e = 0; e < 2; e++) {
        const double *p = e ? l->b : l->a;
        steerS_put_u64(out, (uint64_t)llround(p[0] * STEERN_MESH_SCALE));
        steerS_put_u64(out, (uint64_t)llround(p[1] * STEERN_MESH_SCALE));
        steerS_put_f64(out, p[2]);
    }
    steerS_put_f32(out, l->cost);
    steerS_put_u8(out, l->area);
    steerS_put_u8(out, (uint32_t)l->bidirectional | (uint32_t)l->enabled << 1);
    steerS_put_str(out, l->name);
}

uint64_t steerN_links_hash(const steerN_Mesh *m, uint64_t h)
{
    uint32_t n = steerN_link_count(m);
    if (!n) return h;
    unsigned char buf[128];
    for (uint32_t i = 0; i < n; i++) {
        steerS_Writer w;
        steerS_writer_fixed(&w, buf, sizeof buf);
        put_link(&m->links->link[i], &w);
        h = steerS_fnv64(h, buf, w.n);
    }
    return h;
}

void steerN_links_encode(const steerN_Mesh *m, steerS_Writer *out)
{
    uint32_t n = steerN_link_count(m);
    steerS_put_u32(out, n);
    for (uint32_t i = 0; i < n; i++) put_link(&m->links->link[i], out);
}

bool steerN_links_decode(steerS_Reader *r, steerN_Mesh *m, bool *oom)
{
    uint32_t n = steerS_get_u32(r);
    if (r->failed) return false;
    if (n > STEERN_LINKS_MAX || steerS_left(r) / 47 < n) // 47: the fewest bytes a link takes
        return steerS_fail(r, "navigation mesh: %u links do not fit in %zu bytes", n, steerS_left(r));
    if (!n) return true;
    steerN_Links *s = steerN_realloc(&m->alloc, NULL, 0, sizeof *s);
    steerN_Link *ls = s ? steerN_realloc(&m->alloc, NULL, 0, sizeof *ls * n) : NULL;
    if (!ls) {
        steerN_realloc(&m->alloc, s, s ? sizeof *s : 0, 0);
        *oom = true;
        return false;
    }
    memset(ls, 0, sizeof *ls * n);
    *s = (steerN_Links){ n, n, ls };
    m->links = s;
    for (uint32_t i = 0; i < n && !r->failed; i++) {
        steerN_Link *l = &ls[i];
        for (int e = 0; e < 2; e++) {
            double *p = e ? l->b : l->a;
            int64_t q[2] = { (int64_t)steerS_get_u64(r), (int64_t)steerS_get_u64(r) };
            p[2] = steerS_get_f64(r);
            if (!r->failed && (!steerN_coord_ok(q) || !isfinite(p[2])))
                return steerS_fail(r, "navigation mesh: link %u has an end out of range", i);
            p[0] = (double)q[0] / STEERN_MESH_SCALE;
            p[1] = (double)q[1] / STEERN_MESH_SCALE;
        }
        l->cost = steerS_get_f32(r);
        l->area = (uint8_t)steerS_get_u8(r);
        uint32_t flags = steerS_get_u8(r), len;
        const unsigned char *name = steerS_get_str(r, &len);
        if (r->failed) break;
        if (flags > 3 || len >= STEERN_LINK_NAME || memchr(name, 0, len))
            return steerS_fail(r, "navigation mesh: link %u has bad flags or a bad name", i);
        l->bidirectional = flags & 1;
        l->enabled = flags >> 1;
        memcpy(l->name, name, len);
        if (!link_ok(m, l)) return steerS_fail(r, "navigation mesh: link %u has a bad cost or area", i);
    }
    return !r->failed;
}

// ---- paths over links ---------------------------------------------------------------

typedef struct steerN_LinkQuery {
    // the graph: node 0 the start, 1 the goal, 2 + k way k (link dlink[k],
    // taken backward when dback[k]), whose point is where it comes out
    uint32_t cap;
    double *g;
    uint32_t *prev, *dlink, *isle; // isle: the island of way w's near end (at w, not at its node)
    uint8_t *done, *dback;
    // per triangle its island (radius 0, the exclusions of island_excl), for one mesh
    uint32_t *island, island_cap;
    uint64_t island_mesh, island_excl;
    // the path made, before it is handed to the query
    double *pts;
    int32_t *plink;
    uint32_t npts, cap_pts, cap_plink;
    int32_t *corr;
    uint32_t ncorr, cap_corr;
    bool crossed; // the last path found took a link
    bool partial; // it ends at a link's far end short of the goal (the work cap)
} steerN_LinkQuery;

void steerN_link_query_free(steerN_MeshQuery *q)
{
    steerN_LinkQuery *k = q->lk;
    if (!k) return;
    const steerN_Alloc *a = &q->alloc;
    steerN_realloc(a, k->g, sizeof *k->g * k->cap, 0);
    steerN_realloc(a, k->prev, sizeof *k->prev * k->cap, 0);
    steerN_realloc(a, k->dlink, sizeof *k->dlink * k->cap, 0);
    steerN_realloc(a, k->isle, sizeof *k->isle * k->cap, 0);
    steerN_realloc(a, k->done, k->cap, 0);
    steerN_realloc(a, k->dback, k->cap, 0);
    steerN_realloc(a, k->island, sizeof *k->island * k->island_cap, 0);
    steerN_realloc(a, k->pts, sizeof *k->pts * 2 * k->cap_pts, 0);
    steerN_realloc(a, k->plink, sizeof *k->plink * k->cap_plink, 0);
    steerN_realloc(a, k->corr, sizeof *k->corr * k->cap_corr, 0);
    steerN_realloc(a, k, sizeof *k, 0);
    q->lk = NULL;
}

static int reserve_graph(steerN_MeshQuery *q, uint32_t n)
{
    steerN_LinkQuery *k = q->lk;
    if (n <= k->cap) return 0;
    uint32_t c = k->cap ? k->cap : 16, old = k->cap;
    while (c < n) c *= 2;
    void **arr[] = { (void **)&k->g,    (void **)&k->prev, (void **)&k->dlink,
                     (void **)&k->isle, (void **)&k->done, (void **)&k->dback };
    size_t size[] = { sizeof *k->g, sizeof *k->prev, sizeof *k->dlink, sizeof *k->isle, 1, 1 };
    void *fresh[6] = { 0 };
    // all new, or none: the old arrays stay whole at their size on failure
    for (int i = 0; i < 6; i++)
        if (!(fresh[i] = steerN_realloc(&q->alloc, NULL, 0, size[i] * c))) {
            for (int j = 0; j < i; j++) steerN_realloc(&q->alloc, fresh[j], size[j] * c, 0);
            return -1;
        }
    for (int i = 0; i < 6; i++) {
        if (old) memcpy(fresh[i], *arr[i], size[i] * old);
        steerN_realloc(&q->alloc, *arr[i], size[i] * old, 0);
        *arr[i] = fresh[i];
    }
    k->cap = c;
    return 0;
}

// The islands of the mesh for the filter's exclusions (radius 0), kept
// while the mesh and the exclusions stay the same.
static int islands(steerN_MeshQuery *q, const steerN_Mesh *m, const float *cost)
{
    steerN_LinkQuery *k = q->lk;
    uint64_t excl = 0;
    for (uint32_t i = 0; i < m->nareas; i++)
        if (!(cost[i] < INFINITY)) excl |= 1ull << i;
    if (k->island_mesh == m->prepare_id && k->island_excl == excl && k->island) return 0;
    if (steerN_query_grow(&q->alloc, (void **)&k->island, &k->island_cap, m->ntri ? m->ntri : 1, sizeof *k->island))
        return -1;
    // a flood per island, its stack the query's own parents (free between searches)
    if (steerN_query_grow(&q->alloc, (void **)&k->pts, &k->cap_pts, m->ntri ? m->ntri : 1, 2 * sizeof *k->pts))
        return -1;
    uint32_t *stack = (uint32_t *)(void *)k->pts; // 2 doubles a slot: room for 4 u32 each
    for (uint32_t t = 0; t < m->ntri; t++) k->island[t] = UINT32_MAX;
    for (uint32_t t = 0; t < m->ntri; t++) {
        if (k->island[t] != UINT32_MAX) continue;
        uint32_t n = 0;
        k->island[t] = t;
        stack[n++] = t;
        while (n) {
            uint32_t u = stack[--n];
            for (int j = 0; j < 3; j++) {
                int32_t v = m->adj[3 * u + j];
                if (v < 0 || k->island[v] != UINT32_MAX || !(cost[m->area[v]] < INFINITY)) continue;
                k->island[v] = t;
                stack[n++] = (uint32_t)v;
            }
        }
    }
    k->island_mesh = m->prepare_id;
    k->island_excl = excl;
    return 0;
}

static uint32_t island_of(const steerN_MeshQuery *q, const steerN_Mesh *m, const double p[2], const steerN_Floor *fl)
{
    int32_t t = steerN_mesh_locate_on(m, p, fl);
    return t < 0 ? UINT32_MAX : q->lk->island[t];
}

// The floor a link's end is on, on a mesh of several layers: the ground
// under it nearest below its z (NULL elsewhere: any, as a flat mesh's).
static const steerN_Floor *end_floor(const steerN_Mesh *m, const double e[3], steerN_Floor *out)
{
    if (!m->layer) return NULL;
    *out = (steerN_Floor){ .has_z = true, .z = e[2] };
    return out;
}

// Way k's near end (where it is entered) and far end.
static const double *way_in(const steerN_Mesh *m, const steerN_LinkQuery *k, uint32_t w)
{
    const steerN_Link *l = &m->links->link[k->dlink[w]];
    return k->dback[w] ? l->b : l->a;
}
static const double *way_out(const steerN_Mesh *m, const steerN_LinkQuery *k, uint32_t w)
{
    const steerN_Link *l = &m->links->link[k->dlink[w]];
    return k->dback[w] ? l->a : l->b;
}

static double link_length(const steerN_Link *l) { return mg_dist(l->a, l->b); }

// What taking way w costs under the costs `cost`: length x its cost x its area's.
static double way_cost(const steerN_Mesh *m, const steerN_LinkQuery *k, uint32_t w, const float *cost)
{
    const steerN_Link *l = &m->links->link[k->dlink[w]];
    return link_length(l) * (double)l->cost * (double)cost[l->area];
}

// The cost of the stretch the query just found: the search's own cost
// at the goal (areas priced), or its length when that is not known.
static double stretch_cost(const steerN_MeshQuery *q, const steerN_Mesh *m)
{
    double g = q->node[3 * (size_t)m->ntri + 1].g;
    return g >= 0 && g < INFINITY ? g : steerN_mesh_path_length(q);
}

// Node v's point and, on a mesh of several layers, its floor: the start's
// and the goal's the filter's, a way's the ground under its end (the far
// end where the way comes out, `out`, else the near end).
static const double *node_at(const steerN_Mesh *m, const steerN_LinkQuery *k, uint32_t v, bool out,
                             const double from[2], const double to[2], const steerN_MeshFilter *f,
                             const steerN_Floor **fl, steerN_Floor *buf)
{
    if (v < 2) {
        *fl = v ? f->to : f->from;
        return v ? to : from;
    }
    const double *e = out ? way_out(m, k, v - 2) : way_in(m, k, v - 2);
    *fl = m->layer ? end_floor(m, e, buf) : (out ? f->from : f->to); // (one layer: the filter's, as it was)
    return e;
}

// One stretch: a plain search from a to b on floors fa and fb (the
// filter's otherwise), its work added to *work; FOUND with its cost.
static steerN_PathStatus stretch(steerN_MeshQuery *q, const steerN_Mesh *m, const double a[2], const double b[2],
                                 const steerN_MeshFilter *f, const steerN_Floor *fa, const steerN_Floor *fb,
                                 uint32_t *work, double *cost)
{
    steerN_MeshFilter g = *f;
    g.from = fa, g.to = fb;
    steerN_PathStatus s = steerN_mesh_path_plain(q, m, a, b, &g);
    *work += q->work;
    if (s == STEERN_PATH_FOUND) *cost = stretch_cost(q, m);
    return s;
}

// Append the query's last path (a stretch) to the path being made; the
// stretch's first point is link end `from_link`'s far end (or the start).
static int append(steerN_MeshQuery *q, double *length)
{
    steerN_LinkQuery *k = q->lk;
    uint32_t n, nc;
    const double *p = steerN_mesh_path_points(q, &n);
    const int32_t *c = steerN_mesh_path_corridor(q, &nc);
    if (steerN_query_grow(&q->alloc, (void **)&k->pts, &k->cap_pts, k->npts + n, 2 * sizeof *k->pts) ||
        steerN_query_grow(&q->alloc, (void **)&k->plink, &k->cap_plink, k->npts + n, sizeof *k->plink) ||
        steerN_query_grow(&q->alloc, (void **)&k->corr, &k->cap_corr, k->ncorr + nc, sizeof *k->corr))
        return -1;
    memcpy(k->pts + 2 * k->npts, p, sizeof *p * 2 * n);
    for (uint32_t i = 0; i < n; i++) k->plink[k->npts + i] = -1;
    memcpy(k->corr + k->ncorr, c, sizeof *c * nc);
    k->npts += n;
    k->ncorr += nc;
    *length += steerN_mesh_path_length(q);
    return 0;
}

// The way found, made stretch by stretch (the chain of nodes from the
// start, in chain[0 .. n)), into the query's own last path.
static steerN_PathStatus make_way(steerN_MeshQuery *q, const steerN_Mesh *m, const double from[2], const double to[2],
                                  const steerN_MeshFilter *f, const uint32_t *chain, uint32_t n, uint32_t *work)
{
    steerN_LinkQuery *k = q->lk;
    double length = 0, cost;
    k->npts = k->ncorr = 0;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = chain[i];
        const steerN_Floor *fa, *fb;
        steerN_Floor ba, bb;
        const double *at = node_at(m, k, chain[i - 1], true, from, to, f, &fa, &ba);
        const double *end = node_at(m, k, v, false, from, to, f, &fb, &bb);
        steerN_PathStatus s = stretch(q, m, at, end, f, fa, fb, work, &cost);
        if (s != STEERN_PATH_FOUND) return s; // the same searches again: not expected
        if (append(q, &length)) return STEERN_PATH_NOMEM;
        if (v == 1) break;
        k->plink[k->npts - 1] = (int32_t)k->dlink[v - 2];
        length += link_length(&m->links->link[k->dlink[v - 2]]);
        if (i + 1 == n) { // a partial way: it ends at this link's far end
            k->partial = true;
            steerN_Floor b;
            const steerN_Floor *fl;
            const double *out = node_at(m, k, v, true, from, to, f, &fl, &b);
            int32_t t = steerN_mesh_locate_on(m, out, fl);
            if (steerN_query_grow(&q->alloc, (void **)&k->pts, &k->cap_pts, k->npts + 1, 2 * sizeof *k->pts) ||
                steerN_query_grow(&q->alloc, (void **)&k->plink, &k->cap_plink, k->npts + 1, sizeof *k->plink) ||
                steerN_query_grow(&q->alloc, (void **)&k->corr, &k->cap_corr, k->ncorr + 1, sizeof *k->corr))
                return STEERN_PATH_NOMEM;
            k->pts[2 * k->npts] = out[0], k->pts[2 * k->npts + 1] = out[1];
            k->plink[k->npts++] = -1;
            if (t >= 0) k->corr[k->ncorr++] = t;
        }
    }
    if (steerN_query_grow(&q->alloc, (void **)&q->pts, &q->cap_pts, k->npts, 2 * sizeof *q->pts) ||
        steerN_query_grow(&q->alloc, (void **)&q->corr, &q->cap_corr, k->ncorr, sizeof *q->corr))
        return STEERN_PATH_NOMEM;
    memcpy(q->pts, k->pts, sizeof *q->pts * 2 * k->npts);
    memcpy(q->corr, k->corr, sizeof *q->corr * k->ncorr);
    q->npts = k->npts;
    q->ncorr = k->ncorr;
    q->length = length;
    k->crossed = true;
    return q->status = STEERN_PATH_FOUND;
}

// The ways the filter lets the search take: their count, listed in the graph.
static int usable_ways(steerN_MeshQuery *q, const steerN_Mesh *m, const float *cost, double r, uint32_t *n)
{
    steerN_LinkQuery *k = q->lk;
    *n = 0;
    for (uint32_t i = 0; i < m->links->n; i++) {
        const steerN_Link *l = &m->links->link[i];
        steerN_Floor fa, fb;
        if (!l->enabled || !(cost[l->area] < INFINITY) ||
            !steerN_mesh_contains_on(m, l->a, end_floor(m, l->a, &fa), r) ||
            !steerN_mesh_contains_on(m, l->b, end_floor(m, l->b, &fb), r))
            continue;
        for (int back = 0; back <= (int)l->bidirectional; back++) {
            if (reserve_graph(q, 2 + *n + 1)) return -1;
            k->dlink[2 + *n] = i; // (indexed by node: way w is node 2 + w)
            k->dback[2 + *n] = (uint8_t)back;
            ++*n;
        }
    }
    // ways by way index, not node
    memmove(k->dlink, k->dlink + 2, sizeof *k->dlink * *n);
    memmove(k->dback, k->dback + 2, *n);
    return 0;
}

steerN_PathStatus steerN_mesh_path(steerN_MeshQuery *q, const steerN_Mesh *m, const double from[2], const double to[2],
                                   const steerN_MeshFilter *f)
{
    if (q->lk) q->lk->crossed = q->lk->partial = false;
    bool any = false;
    for (uint32_t i = 0; i < steerN_link_count(m) && !any; i++) any = m->links->link[i].enabled;
    if (!any) return steerN_mesh_path_plain(q, m, from, to, f);
    if (!q->lk) {
        if (!(q->lk = steerN_realloc(&q->alloc, NULL, 0, sizeof *q->lk))) return q->status = STEERN_PATH_NOMEM;
        memset(q->lk, 0, sizeof *q->lk);
    }
    steerN_LinkQuery *k = q->lk;
    steerN_MeshFilter none = { 0 }; // (what NULL means)
    if (!f) f = &none;
    const float *cost = f->cost ? f->cost : m->area_cost;
    double r = f->radius;
    uint32_t nways, work = 0;
    if (usable_ways(q, m, cost, r, &nways)) return q->status = STEERN_PATH_NOMEM;
    if (!nways) return steerN_mesh_path_plain(q, m, from, to, f);

    double direct = INFINITY;
    steerN_PathStatus s0 = stretch(q, m, from, to, f, f->from, f->to, &work, &direct);
    if (s0 == STEERN_PATH_START_OFF || s0 == STEERN_PATH_GOAL_OFF || s0 == STEERN_PATH_NOMEM) return s0;
    if (islands(q, m, cost) || reserve_graph(q, 2 + nways)) return q->status = STEERN_PATH_NOMEM;
    for (uint32_t w = 0; w < nways; w++) {
        steerN_Floor b;
        const steerN_Floor *fl;
        const double *e = node_at(m, k, 2 + w, false, from, to, f, &fl, &b);
        k->isle[w] = island_of(q, m, e, m->layer ? fl : NULL);
    }
    float least = INFINITY;
    for (uint32_t i = 0; i < m->nareas; i++)
        if (cost[i] < least) least = cost[i];
    uint32_t nn = 2 + nways;
    for (uint32_t v = 0; v < nn; v++) k->g[v] = INFINITY, k->prev[v] = UINT32_MAX, k->done[v] = 0;
    k->g[0] = 0;
    if (s0 == STEERN_PATH_FOUND) k->g[1] = direct, k->prev[1] = 0;
    uint32_t goal_island = island_of(q, m, to, m->layer ? f->to : NULL);
    bool capped = q->link_cap && work >= q->link_cap; // the work cap reached: the best way found so far
    while (!capped) {
        uint32_t u = UINT32_MAX;
        for (uint32_t v = 0; v < nn; v++)
            if (!k->done[v] && k->g[v] < INFINITY && (u == UINT32_MAX || k->g[v] < k->g[u])) u = v;
        if (u == UINT32_MAX || u == 1) break;
        k->done[u] = 1;
        const steerN_Floor *fp, *fe;
        steerN_Floor bp, be;
        const double *p = node_at(m, k, u, true, from, to, f, &fp, &bp);
        uint32_t here = island_of(q, m, p, m->layer ? fp : NULL);
        for (uint32_t v = 1; v < nn; v++) {
            if (k->done[v] || (v == 1 && u == 0)) continue; // the direct stretch is known
            const double *e = node_at(m, k, v, false, from, to, f, &fe, &be);
            uint32_t there = v == 1 ? goal_island : k->isle[v - 2];
            if (here != UINT32_MAX && there != UINT32_MAX && here != there) continue;
            double extra = v == 1 ? 0 : way_cost(m, k, v - 2, cost);
            double bound = k->g[u] + mg_dist(p, e) * least + extra;
            if (!(bound < k->g[v]) || !(bound < k->g[1])) continue;
            double c;
            steerN_PathStatus s = stretch(q, m, p, e, f, fp, fe, &work, &c);
            if (s == STEERN_PATH_NOMEM) return s;
            if (s == STEERN_PATH_FOUND && k->g[u] + c + extra < k->g[v]) k->g[v] = k->g[u] + c + extra, k->prev[v] = u;
            if (q->link_cap && work >= q->link_cap) {
                capped = true;
                break;
            }
        }
    }
    // the chain's end: the goal; or, stopped by the cap before a way to the
    // goal was known, the way reached that comes out nearest it (a partial
    // path, which navigate follows and plans on from, as from any last
    // corner that is not the goal)
    uint32_t last = 1;
    double nearest = mg_dist(from, to);
    for (uint32_t v = 2; v < nn && capped && !(k->g[1] < INFINITY); v++) {
        double d = mg_dist(way_out(m, k, v - 2), to);
        if (k->g[v] < INFINITY && d < nearest) nearest = d, last = v; // (its chain: settled nodes)
    }
    steerN_PathStatus st;
    if (last == 1 && !(k->g[1] < INFINITY)) st = q->status = s0; // no way over links either: as the direct search said
    else if (last == 1 && k->prev[1] == 0) { // straight there is the best: that path again, as it was found
        uint32_t w0 = work;
        st = steerN_mesh_path_plain(q, m, from, to, f);
        work = w0 + q->work;
    } else {
        uint32_t n = 0;
        for (uint32_t v = last; v != UINT32_MAX; v = k->prev[v]) n++; // count the chain
        uint32_t *chain = steerN_realloc(&q->alloc, NULL, 0, sizeof *chain * n);
        if (!chain) return q->status = STEERN_PATH_NOMEM;
        uint32_t i = n;
        for (uint32_t v = last; v != UINT32_MAX; v = k->prev[v]) chain[--i] = v;
        st = make_way(q, m, from, to, f, chain, n, &work);
        steerN_realloc(&q->alloc, chain, sizeof *chain * n, 0);
        if (st != STEERN_PATH_FOUND) q->status = st;
    }
    q->work = work;
    return st;
}

bool steerN_mesh_path_partial(const steerN_MeshQuery *q)
{
    return q->lk && q->lk->crossed && q->lk->partial && q->status == STEERN_PATH_FOUND;
}

const int32_t *steerN_mesh_path_links(const steerN_MeshQuery *q, uint32_t *n)
{
    if (!q->lk || !q->lk->crossed || q->status != STEERN_PATH_FOUND) {
        *n = 0;
        return NULL;
    }
    *n = q->lk->npts;
    return q->lk->plink;
}

// ---- automatic jump links ----------------------------------------------------------------

// Per triangle its island (radius 0, every area open), into island (ntri).
static void islands_open(const steerN_Mesh *m, uint32_t *island, uint32_t *stack)
{
    for (uint32_t t = 0; t < m->ntri; t++) island[t] = UINT32_MAX;
    for (uint32_t t = 0; t < m->ntri; t++) {
        if (island[t] != UINT32_MAX) continue;
        uint32_t n = 0;
        island[t] = t;
        stack[n++] = t;
        while (n) {
            uint32_t u = stack[--n];
            for (int j = 0; j < 3; j++) {
                int32_t v = m->adj[3 * u + j];
                if (v >= 0 && island[v] == UINT32_MAX) island[v] = t, stack[n++] = (uint32_t)v;
            }
        }
    }
}

// Wall edge e's ends, unit direction and outward normal (the mesh is on its left).
static void wall_of(const steerN_Mesh *m, uint32_t e, const double **a, const double **b, double u[2], double n[2])
{
    uint32_t t = e / 3, i = e % 3;
    *a = m->xy + 2 * (size_t)m->tri[3 * t + i];
    *b = m->xy + 2 * (size_t)m->tri[3 * t + (i + 1) % 3];
    double len = mg_dist(*a, *b);
    u[0] = ((*b)[0] - (*a)[0]) / len, u[1] = ((*b)[1] - (*a)[1]) / len;
    n[0] = u[1], n[1] = -u[0];
}

// The wall edge facing point p of wall e (outward normal n) across the
// gap, nearest p within reach: its index (UINT32_MAX: none), the point q.
static uint32_t facing(const steerN_Mesh *m, const steerN_JumpSpec *s, const uint32_t *island, uint32_t e,
                       const double p[2], const double n[2], double q[2])
{
    uint32_t best = UINT32_MAX;
    double bestd = s->reach;
    for (uint32_t f = 0; f < 3 * m->ntri; f++) {
        if (m->adj[f] >= 0 || f == e || steerN_mesh_dead(m, f / 3) ||
            (!s->same_island && island[f / 3] == island[e / 3]))
            continue;
        const double *c, *d;
        double u2[2], n2[2];
        wall_of(m, f, &c, &d, u2, n2);
        if (!(n[0] * n2[0] + n[1] * n2[1] < -0.5)) continue; // not facing back
        double len = mg_dist(c, d), w[2] = { p[0] - c[0], p[1] - c[1] };
        double along = w[0] * u2[0] + w[1] * u2[1];
        along = along < 0 ? 0 : along > len ? len : along;
        double x[2] = { c[0] + along * u2[0], c[1] + along * u2[1] }, dist = mg_dist(p, x);
        if (!(dist > 0) || !(dist < bestd)) continue;
        if ((x[0] - p[0]) * n[0] + (x[1] - p[1]) * n[1] < 0.7 * dist) continue; // not straight out across the gap
        double mid[2] = { 0.5 * (p[0] + x[0]), 0.5 * (p[1] + x[1]) };
        if (steerN_mesh_locate(m, mid) >= 0) continue; // ground between: no gap
        best = f, bestd = dist, q[0] = x[0], q[1] = x[1];
    }
    return best;
}

// What makes the link at point p of wall edge e (outward normal n): true
// with it in l (its name aside), false where there is none.
typedef bool (*LinkAt)(const steerN_Mesh *m, const void *ctx, uint32_t e, const double p[2], const double n[2],
                       steerN_Link *l);

// Automatic links: at points `spacing` apart along every wall edge (by
// edge, then along it), the link `at` makes there, named `name`, added;
// those whose ends the inset put off the ground left out.
static steerN_LinkStatus add_along_walls(steerN_Mesh *m, double spacing, const char *name, LinkAt at, const void *ctx,
                                         uint32_t *added)
{
    steerN_LinkStatus st = STEERN_LINK_OK;
    for (uint32_t e = 0; e < 3 * m->ntri && st == STEERN_LINK_OK; e++) {
        if (m->adj[e] >= 0 || steerN_mesh_dead(m, e / 3)) continue;
        const double *a, *b;
        double u[2], n[2];
        wall_of(m, e, &a, &b, u, n);
        double len = mg_dist(a, b);
        uint32_t count = (uint32_t)(len / spacing);
        if (count < 1) count = 1;
        for (uint32_t k = 0; k < count && st == STEERN_LINK_OK; k++) {
            double along = (k + 0.5) * len / count, p[2] = { a[0] + along * u[0], a[1] + along * u[1] };
            steerN_Link l;
            if (!at(m, ctx, e, p, n, &l)) continue;
            memset(l.name, 0, sizeof l.name);
            if (name) memcpy(l.name, name, strnlen(name, STEERN_LINK_NAME - 1));
            st = steerN_link_add(m, &l, NULL);
            if (st == STEERN_LINK_FROM_OFF || st == STEERN_LINK_TO_OFF) st = STEERN_LINK_OK; // inset past the ground
            else if (st == STEERN_LINK_OK) ++*added;
        }
    }
    return st;
}

typedef struct Jumps {
    const steerN_JumpSpec *s;
    const uint32_t *island;
} Jumps;

static bool jump_at(const steerN_Mesh *m, const void *ctx, uint32_t e, const double p[2], const double n[2],
                    steerN_Link *l)
{
    const Jumps *j = ctx;
    const steerN_JumpSpec *s = j->s;
    double q[2] = { 0, 0 };
    uint32_t f = facing(m, s, j->island, e, p, n, q);
    // a two-way link once per facing pair: from the lower-numbered edge
    if (f == UINT32_MAX || (s->bidirectional && f < e)) return false;
    const double *c, *d;
    double u2[2], n2[2];
    wall_of(m, f, &c, &d, u2, n2);
    *l = (steerN_Link){ .a = { p[0] - n[0] * s->inset, p[1] - n[1] * s->inset, 0 },
                        .b = { q[0] - n2[0] * s->inset, q[1] - n2[1] * s->inset, 0 },
                        .cost = s->cost,
                        .area = s->area,
                        .bidirectional = s->bidirectional,
                        .enabled = true };
    return true;
}

steerN_LinkStatus steerN_link_add_jumps(steerN_Mesh *m, const steerN_JumpSpec *s, uint32_t *added)
{
    *added = 0;
    size_t bytes = sizeof(uint32_t) * (m->ntri ? m->ntri : 1);
    uint32_t *island = steerN_realloc(&m->alloc, NULL, 0, bytes), *stack = steerN_realloc(&m->alloc, NULL, 0, bytes);
    steerN_LinkStatus st = island && stack ? STEERN_LINK_OK : STEERN_LINK_NOMEM;
    if (st == STEERN_LINK_OK) {
        islands_open(m, island, stack);
        st = add_along_walls(m, s->spacing, s->name, jump_at, &(Jumps){ s, island }, added);
    }
    steerN_realloc(&m->alloc, island, island ? bytes : 0, 0);
    steerN_realloc(&m->alloc, stack, stack ? bytes : 0, 0);
    return st;
}

// ---- automatic drop links -------------------------------------------------------------

#define DROP_STEP 0.05 // metres between the points looked at straight out from a ledge

// The lower ground beside a ledge: looking straight out from p (on wall
// edge e, outward normal n, its ground at height top), the first point
// with ground under it more than min_drop below the top, the layer of
// that ground in *layer and where it starts in x. False when level ground
// comes first (a gap or a wall between rooms: not a ledge), when that
// ground lies more than `drop` below, or when none lies within reach.
static bool ground_below(const steerN_Mesh *m, const steerN_DropSpec *s, const double p[2], const double n[2],
                         double top, double x[2], uint32_t *layer)
{
    uint32_t lay[8];
    double z[8];
    for (uint32_t i = 1; i * DROP_STEP <= s->reach; i++) {
        double d = i * DROP_STEP;
        x[0] = p[0] + n[0] * d, x[1] = p[1] + n[1] * d;
        uint32_t c = steerN_mesh_layers_at(m, x, lay, z, 8);
        int below = -1;
        for (uint32_t j = 0; j < c && j < 8; j++) {     // lowest first: the last below is the one landed on
            if (z[j] > top + s->min_drop) break;        // overhead (a floor above)
            if (z[j] > top - s->min_drop) return false; // level ground
            below = (int)j;
        }
        if (below < 0) continue;
        if (top - z[below] > s->drop) return false;
        *layer = lay[below];
        return true;
    }
    return false;
}

// Whether point p of wall edge e is a ledge over the ground of floor
// `below`: that ground lies just past the edge (outward normal n) along at
// least STEERN_DROP_OPEN of the edge within STEERN_DROP_WINDOW of p (a
// bridge over a hall, a stair's side), not only in places (a wall
// standing over a doorway of the floor below: the mesh holds no walls'
// heights, so an edge with ground under it reads as a ledge), looked at
// every 0.1 m.
static bool ledge_over(const steerN_Mesh *m, uint32_t e, const double p[2], const double n[2],
                       const steerN_Floor *below)
{
    const double *a, *b;
    double u[2], nn[2];
    wall_of(m, e, &a, &b, u, nn);
    double len = mg_dist(a, b), at = (p[0] - a[0]) * u[0] + (p[1] - a[1]) * u[1];
    double lo = at - STEERN_DROP_WINDOW > 0 ? at - STEERN_DROP_WINDOW : 0;
    double hi = at + STEERN_DROP_WINDOW < len ? at + STEERN_DROP_WINDOW : len;
    uint32_t count = 1 + (uint32_t)((hi - lo) / 0.1), some = 0;
    for (uint32_t i = 0; i <= count; i++) {
        double along = lo + (hi - lo) * i / count;
        double q[2] = { a[0] + along * u[0] + n[0] * DROP_STEP, a[1] + along * u[1] + n[1] * DROP_STEP };
        some += steerN_mesh_locate_on(m, q, below) >= 0;
    }
    return some >= STEERN_DROP_OPEN * (count + 1);
}

// The drop from point p of wall edge e (outward normal n): true with the
// link's ends in l. A ledge (ledge_over) whose lower ground, where it
// starts, lies within drop; the landing `inset` beyond that, on that
// ground, with no wall of it between the landing and the foot of the
// ledge; both ends' heights those of their ground.
static bool drop_from(const steerN_Mesh *m, const void *ctx, uint32_t e, const double p[2], const double n[2],
                      steerN_Link *l)
{
    const steerN_DropSpec *s = ctx;
    double top = steerN_mesh_surface(m, e / 3, p), x[2];
    uint32_t layer;
    if (!ground_below(m, s, p, n, top, x, &layer)) return false;
    steerN_Floor below = { .layer = layer + 1 }, upper = { .layer = (m->layer ? m->layer[e / 3] : 0) + 1 };
    steerN_MeshFilter f = { .from = &below };
    double land[2] = { x[0] + n[0] * s->inset, x[1] + n[1] * s->inset }, hit[2], normal[2], fraction;
    double foot[2] = { p[0] + n[0] * DROP_STEP, p[1] + n[1] * DROP_STEP };
    double from[2] = { p[0] - n[0] * s->inset, p[1] - n[1] * s->inset }, zl, zt, d;
    int32_t t;
    // each end where a disc of `radius` fits on its ground, if that is near
    if (!ledge_over(m, e, p, n, &below) || !steerN_mesh_nearest_on(m, land, &below, s->radius, land, &t, &d) ||
        d > s->inset || !steerN_mesh_nearest_on(m, from, &upper, s->radius, from, &t, &d) || d > s->inset ||
        !steerN_mesh_contains_on(m, land, &below, s->radius) || !steerN_mesh_contains_on(m, from, &upper, s->radius))
        return false;
    if (steerN_mesh_raycast(m, foot, land, &f, hit, normal, &fraction) != 0) return false;
    if (!steerN_mesh_height(m, land, &below, &zl, NULL) || !steerN_mesh_height(m, from, &upper, &zt, NULL))
        return false;
    if (!(top - zl >= s->min_drop) || !(top - zl <= s->drop)) return false; // (the landing's ground slopes)
    *l = (steerN_Link){ .a = { from[0], from[1], zt },
                        .b = { land[0], land[1], zl },
                        .cost = s->cost,
                        .area = s->area,
                        .bidirectional = false,
                        .enabled = true };
    return true;
}

steerN_LinkStatus steerN_link_add_drops(steerN_Mesh *m, const steerN_DropSpec *s, uint32_t *added)
{
    *added = 0;
    return m->z ? add_along_walls(m, s->spacing, s->name, drop_from, s, added) : STEERN_LINK_OK;
}
