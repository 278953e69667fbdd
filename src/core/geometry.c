// SPDX-License-Identifier: MIT
// geometry.c — the world's static geometry: circles (spheres in 3D), wall
// segments, planes and axis-aligned boxes, added and removed at run time,
// and the queries behaviours and scripts make of it: shapes near a box,
// closest points, and ray casts against shapes and agents.
//
// Shapes live in a slot array with generations (handles never alias).
// Finite shapes are bucketed in their own uniform grid, rebuilt lazily the
// first time a query runs after the geometry changed, with the list of its
// occupied cells: a query walks those instead of its box's cells when they
// are fewer (shapes far apart), so its cost follows the shapes near it, not
// the empty space between them (issue 29); planes are unbounded
// and kept in a short list every query checks. Queries never allocate in
// steady state: buffers grow only when the geometry grows.
#include "geometry.h"
#include "grid.h"
#include "vecmath.h"
#include "neighbors.h"

#include <float.h>
#include <string.h>

static bool fin(double v) { return isfinite(v) && fabs(v) <= FLT_MAX; }

// The handle of shape slot s: its generation high, the slot low.
static steer_Shape shape_handle(const steerW_Geometry *g, uint32_t s)
{
    return (steer_Shape){ ((uint64_t)g->shapes[s].gen << 32) | s };
}

static int add_shape(steer_World *w, const steerW_Shape *sh, steer_Shape *out)
{
    if (w->in_tick) return STEER_EBUSY;
    steerW_Geometry *g = &w->geo;
    uint32_t s;
    if (g->free_head != UINT32_MAX && g->nshapes) {
        s = g->free_head;
        g->free_head = g->next_free[s];
    } else {
        if (g->nshapes == g->cap) {
            uint32_t cap = g->cap ? g->cap * 2 : 32;
            steerW_Shape *a = steerA_realloc(w, g->shapes, sizeof *a * cap);
            if (!a) return STEER_ENOMEM;
            g->shapes = a;
            uint32_t *nf = steerA_realloc(w, g->next_free, sizeof *nf * cap);
            if (!nf) return STEER_ENOMEM;
            g->next_free = nf;
            g->cap = cap;
        }
        s = g->nshapes++;
        g->shapes[s].gen = 0;
    }
    uint32_t gen = g->shapes[s].gen + 1;
    if (gen == 0) gen = 1;
    g->shapes[s] = *sh;
    g->shapes[s].gen = gen;
    g->shapes[s].alive = 1;
    g->live++;
    g->dirty = true;
    if (out) *out = shape_handle(g, s);
    return STEER_OK;
}

int steer_add_circle(steer_World *w, const double centre[3], double radius, steer_Shape *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(centre, "a double[3]", STEER_EARG);
    if (out) *out = STEER_NO_SHAPE;
    if (!fin(centre[0]) || !fin(centre[1]) || !fin(centre[2]) || !fin(radius) || radius <= 0) return STEER_EARG;
    steerW_Shape sh = { .kind = STEER_SHAPE_CIRCLE, .r = (float)radius };
    for (int i = 0; i < w->dim; i++) sh.a[i] = (float)centre[i];
    return add_shape(w, &sh, out);
}

int steer_add_wall(steer_World *w, const double from[3], const double to[3], steer_Shape *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(from, "a double[3]", STEER_EARG);
    STEERA_NONNULL(to, "a double[3]", STEER_EARG);
    if (out) *out = STEER_NO_SHAPE;
    if (w->dim != 2) return STEER_EARG;
    for (int i = 0; i < 2; i++)
        if (!fin(from[i]) || !fin(to[i])) return STEER_EARG;
    steerW_Shape sh = { .kind = STEER_SHAPE_SEGMENT };
    for (int i = 0; i < 2; i++) {
        sh.a[i] = (float)from[i];
        sh.b[i] = (float)to[i];
    }
    if (!steerO_wall_ok(sh.a, sh.b)) return STEER_EARG;
    return add_shape(w, &sh, out);
}

int steer_add_wall_height(steer_World *w, const double from[3], const double to[3], double height, steer_Shape *out)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->dim == 2) return steer_add_wall(w, from, to, out);
    STEERA_NONNULL(from, "a double[3]", STEER_EARG);
    STEERA_NONNULL(to, "a double[3]", STEER_EARG);
    if (out) *out = STEER_NO_SHAPE;
    steerW_Shape sh = { .kind = STEER_SHAPE_SEGMENT, .r = (float)height };
    for (int i = 0; i < 3; i++) {
        if (!fin(from[i]) || !fin(to[i])) return STEER_EARG;
        sh.a[i] = (float)from[i];
        sh.b[i] = (float)to[i];
    }
    if (!fin(height) || !(sh.r > 0.0f) || !steerO_wall_ok(sh.a, sh.b)) return STEER_EARG;
    return add_shape(w, &sh, out);
}

int steer_add_plane(steer_World *w, const double point[3], const double normal[3], steer_Shape *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(point, "a double[3]", STEER_EARG);
    STEERA_NONNULL(normal, "a double[3]", STEER_EARG);
    if (out) *out = STEER_NO_SHAPE;
    if (w->dim != 3) return STEER_EARG;
    steerW_Shape sh = { .kind = STEER_SHAPE_PLANE };
    for (int i = 0; i < 3; i++) {
        if (!fin(point[i]) || !fin(normal[i])) return STEER_EARG;
        sh.a[i] = (float)point[i];
        sh.b[i] = (float)normal[i];
    }
    if (v3_normalize(sh.b) == 0.0f) return STEER_EARG;
    return add_shape(w, &sh, out);
}

int steer_add_box(steer_World *w, const double lo[3], const double hi[3], steer_Shape *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(lo, "a double[3]", STEER_EARG);
    STEERA_NONNULL(hi, "a double[3]", STEER_EARG);
    if (out) *out = STEER_NO_SHAPE;
    steerW_Shape sh = { .kind = STEER_SHAPE_BOX };
    for (int i = 0; i < w->dim; i++) {
        if (!fin(lo[i]) || !fin(hi[i]) || !(lo[i] < hi[i])) return STEER_EARG;
        sh.a[i] = (float)lo[i];
        sh.b[i] = (float)hi[i];
    }
    return add_shape(w, &sh, out);
}

static steerW_Shape *shape_of(const steer_World *w, steer_Shape s)
{
    uint32_t i = (uint32_t)s.id, gen = (uint32_t)(s.id >> 32);
    const steerW_Geometry *g = &w->geo;
    if (s.id == 0 || i >= g->nshapes || !g->shapes[i].alive || g->shapes[i].gen != gen) return NULL;
    return &g->shapes[i];
}

int steer_remove_shape(steer_World *w, steer_Shape s)
{
    STEERA_WORLD(w, STEER_EARG);
    steerW_Shape *sh = shape_of(w, s);
    if (!sh) return STEER_ESTALE;
    if (w->in_tick) return STEER_EBUSY;
    sh->alive = 0;
    uint32_t i = (uint32_t)s.id;
    w->geo.next_free[i] = w->geo.free_head;
    w->geo.free_head = i;
    w->geo.live--;
    w->geo.dirty = true;
    return STEER_OK;
}

bool steer_shape_alive(const steer_World *w, steer_Shape s)
{
    STEERA_WORLD(w, false);
    return shape_of(w, s) != NULL;
}

int steer_world_shape_count(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    return (int)w->geo.live;
}

// ---- the shape grid ----------------------------------------------------

static void shape_aabb(const steer_World *w, const steerW_Shape *s, float lo[3], float hi[3])
{
    switch (s->kind) {
    case STEER_SHAPE_CIRCLE:
        for (int i = 0; i < 3; i++) {
            lo[i] = s->a[i] - s->r;
            hi[i] = s->a[i] + s->r;
        }
        break;
    case STEER_SHAPE_SEGMENT:
        for (int i = 0; i < 3; i++) {
            lo[i] = s->a[i] < s->b[i] ? s->a[i] : s->b[i];
            hi[i] = s->a[i] < s->b[i] ? s->b[i] : s->a[i];
        }
        hi[2] += s->r; // a 3D world's wall rises r over its foot
        break;
    default: // box
        for (int i = 0; i < 3; i++) {
            lo[i] = s->a[i];
            hi[i] = s->b[i];
        }
        break;
    }
    if (w->dim == 2) lo[2] = hi[2] = 0.0f;
}

// Append v to the list *a of *n (room for *cap, doubled when full); false
// when out of memory.
static bool push_index(steer_World *w, uint32_t **a, uint32_t *n, uint32_t *cap, uint32_t v)
{
    if (*n == *cap) {
        uint32_t c = *cap ? *cap * 2 : 8;
        uint32_t *p = steerA_realloc(w, *a, sizeof *p * c);
        if (!p) return false;
        *a = p;
        *cap = c;
    }
    (*a)[(*n)++] = v;
    return true;
}

// Rebuild the shape grid: cells sized so that there are about as many
// cells as shapes over the bounding box of all finite shapes.
static int rebuild(steer_World *w)
{
    steerW_Geometry *g = &w->geo;
    g->dirty = false;
    g->nplanes = 0;
    float lo[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, hi[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
    uint32_t finite = 0;
    for (uint32_t i = 0; i < g->nshapes; i++) {
        const steerW_Shape *s = &g->shapes[i];
        if (!s->alive || s->kind == STEER_SHAPE_PLANE) continue;
        float a[3], b[3];
        shape_aabb(w, s, a, b);
        for (int k = 0; k < 3; k++) {
            if (a[k] < lo[k]) lo[k] = a[k];
            if (b[k] > hi[k]) hi[k] = b[k];
        }
        finite++;
    }
    // planes go to their own list
    for (uint32_t i = 0; i < g->nshapes; i++) {
        if (!g->shapes[i].alive || g->shapes[i].kind != STEER_SHAPE_PLANE) continue;
        if (!push_index(w, &g->planes, &g->nplanes, &g->cap_planes, i)) return STEER_ENOMEM;
    }
    if (!finite) {
        g->ncells = 0;
        return STEER_OK;
    }
    int dim = w->dim;
    // in double: extents up to 2 * FLT_MAX, and their ratios, must not
    // overflow a float or an int
    double volume = 1;
    for (int k = 0; k < dim; k++) volume *= (double)hi[k] - (double)lo[k] + 1e-3;
    double cell = steerM_root(volume / (double)finite, dim);
    if (!(cell > 1e-3)) cell = 1e-3;
    uint32_t cells = 1;
    for (int k = 0; k < 3; k++) {
        double ext = (double)hi[k] - (double)lo[k], cn = k < dim ? floor(ext / cell) + 1.0 : 1.0;
        int n = cn < 1024.0 ? (int)cn : 1024;
        g->n[k] = n;
        g->lo[k] = lo[k];
        double size = k < dim ? (ext / n > cell ? ext / n : cell) : 1.0;
        g->cell[k] = size < FLT_MAX ? (float)size : FLT_MAX;
        cells *= (uint32_t)n;
    }
    // count the cells each shape overlaps, then place (counting sort)
    uint32_t *start = steerA_realloc(w, g->start, sizeof *start * (cells + 1));
    if (!start) return STEER_ENOMEM;
    g->start = start;
    memset(start, 0, sizeof *start * (cells + 1));
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < g->nshapes; i++) {
            const steerW_Shape *s = &g->shapes[i];
            if (!s->alive || s->kind == STEER_SHAPE_PLANE) continue;
            float a[3], b[3];
            shape_aabb(w, s, a, b);
            int c0[3], c1[3];
            for (int k = 0; k < 3; k++) {
                c0[k] = steerW_cell_index((a[k] - g->lo[k]) / g->cell[k], g->n[k]);
                c1[k] = steerW_cell_index((b[k] - g->lo[k]) / g->cell[k], g->n[k]);
            }
            for (int z = c0[2]; z <= c1[2]; z++)
                for (int y = c0[1]; y <= c1[1]; y++)
                    for (int x = c0[0]; x <= c1[0]; x++) {
                        uint32_t c = ((uint32_t)z * (uint32_t)g->n[1] + (uint32_t)y) * (uint32_t)g->n[0] + (uint32_t)x;
                        if (pass == 0) start[c + 1]++;
                        else g->items[start[c]++] = i;
                    }
        }
        if (pass == 0) {
            // the occupied cells, in increasing index (at most one per entry)
            g->noccupied = 0;
            for (uint32_t c = 0; c < cells; c++) {
                if (start[c + 1] && !push_index(w, &g->occupied, &g->noccupied, &g->cap_occupied, c))
                    return STEER_ENOMEM;
                start[c + 1] += start[c];
            }
            uint32_t total = start[cells];
            if (total > g->cap_items) {
                uint32_t *it = steerA_realloc(w, g->items, sizeof *it * total);
                if (!it) return STEER_ENOMEM;
                g->items = it;
                g->cap_items = total;
            }
        }
    }
    for (uint32_t c = cells; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
    g->ncells = cells;
    return STEER_OK;
}

int steerO_geometry_ready(steer_World *w) { return w->geo.dirty ? rebuild(w) : STEER_OK; }

static bool push_found(const steer_World *w, steerW_Local *l, int k, uint32_t s)
{
    if ((uint32_t)k == l->cap_found) {
        uint32_t cap = l->cap_found ? l->cap_found * 2 : 64;
        uint32_t *f = steerA_realloc(w, l->found, sizeof *f * cap);
        if (!f) return false;
        l->found = f;
        l->cap_found = cap;
    }
    l->found[k] = s;
    return true;
}

// The first of the n sorted values at or past v (n when none is); each
// step is a unit of *work.
static uint32_t lower_bound(const uint32_t *a, uint32_t n, uint32_t v, uint64_t *work)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        ++*work;
        if (a[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// The shapes of cell c not listed yet, appended to l->found at *k; false
// when out of memory.
static bool cell_shapes(const steer_World *w, steerW_Local *l, uint32_t c, int *k)
{
    const steerW_Geometry *g = &w->geo;
    l->work += 1 + g->start[c + 1] - g->start[c];
    for (uint32_t j = g->start[c]; j < g->start[c + 1]; j++) {
        uint32_t s = g->items[j];
        if (l->stamp[s] == l->stamp_now) continue;
        l->stamp[s] = l->stamp_now;
        if (!push_found(w, l, (*k)++, s)) return false;
    }
    return true;
}

int steerO_shapes_near(const steer_World *w, steerW_Local *l, const float lo[3], const float hi[3])
{
    const steerW_Geometry *g = &w->geo;
    int k = 0;
    // a fresh stamp marks shapes already listed (one shape spans many cells)
    if (l->cap_stamp < g->cap) {
        uint32_t *st = steerA_realloc(w, l->stamp, sizeof *st * g->cap);
        if (!st) return -1;
        memset(st + l->cap_stamp, 0, sizeof *st * (g->cap - l->cap_stamp));
        l->stamp = st;
        l->cap_stamp = g->cap;
    }
    if (++l->stamp_now == 0) {
        memset(l->stamp, 0, sizeof *l->stamp * l->cap_stamp);
        l->stamp_now = 1;
    }
    l->work += 1 + g->nplanes;
    for (uint32_t i = 0; i < g->nplanes; i++)
        if (!push_found(w, l, k++, g->planes[i])) return -1;
    if (!g->ncells) return k;
    int c0[3], c1[3];
    for (int d = 0; d < 3; d++) {
        float a = (lo[d] - g->lo[d]) / g->cell[d], b = (hi[d] - g->lo[d]) / g->cell[d];
        if (b < 0.0f || a >= (float)g->n[d]) return k;
        c0[d] = steerW_cell_index(a, g->n[d]);
        c1[d] = steerW_cell_index(b, g->n[d]);
    }
    // The cells of the box are scanned in increasing index, x fastest, and
    // so are the occupied cells between its first and last: when fewer of
    // those lie there than the box has cells (shapes far apart, a huge
    // box), they are walked instead, the ones outside the box skipped.
    // Either way the same cells in the same order: the same shapes, in the
    // same order (the ones found first listed first).
    uint32_t nx = (uint32_t)g->n[0], ny = (uint32_t)g->n[1];
    uint32_t first = ((uint32_t)c0[2] * ny + (uint32_t)c0[1]) * nx + (uint32_t)c0[0];
    uint32_t last = ((uint32_t)c1[2] * ny + (uint32_t)c1[1]) * nx + (uint32_t)c1[0];
    uint64_t box = (uint64_t)(c1[0] - c0[0] + 1) * (uint64_t)(c1[1] - c0[1] + 1) * (uint64_t)(c1[2] - c0[2] + 1);
    uint32_t ob = 0, oe = 0;
    if (box > 32) { // (a small box costs less than the search)
        ob = lower_bound(g->occupied, g->noccupied, first, &l->work);
        oe = lower_bound(g->occupied + ob, g->noccupied - ob, last + 1, &l->work) + ob;
    }
    if (box <= 32 || box <= oe - ob) {
        for (int z = c0[2]; z <= c1[2]; z++)
            for (int y = c0[1]; y <= c1[1]; y++)
                for (int x = c0[0]; x <= c1[0]; x++) {
                    uint32_t c = ((uint32_t)z * ny + (uint32_t)y) * nx + (uint32_t)x;
                    if (!cell_shapes(w, l, c, &k)) return -1;
                }
        return k;
    }
    for (uint32_t i = ob; i < oe; i++) {
        uint32_t c = g->occupied[i], x = c % nx, y = c / nx % ny, z = c / nx / ny;
        l->work++;
        if (x < (uint32_t)c0[0] || x > (uint32_t)c1[0] || y < (uint32_t)c0[1] || y > (uint32_t)c1[1] ||
            z < (uint32_t)c0[2] || z > (uint32_t)c1[2])
            continue;
        if (!cell_shapes(w, l, c, &k)) return -1;
    }
    return k;
}

// ---- closest points and ray tests -----------------------------------------

void steerO_closest(const steer_World *w, const steerW_Shape *s, const float p[3], float out[3], float normal[3])
{
    float d[3];
    switch (s->kind) {
    case STEER_SHAPE_CIRCLE:
        v3_sub(d, p, s->a);
        if (v3_normalize(d) == 0.0f) v3_set(d, 1, 0, 0);
        v3_copy(normal, d);
        v3_copy(out, s->a);
        v3_madd(out, d, s->r);
        return;
    case STEER_SHAPE_SEGMENT: {
        float ab[3], ap[3];
        v3_sub(ab, s->b, s->a);
        v3_sub(ap, p, s->a);
        float t, abz = ab[2];
        if (w->dim == 3) { // a panel: along the foot in plan, then up to p's height
            ab[2] = ap[2] = 0.0f;
            t = v3_dot(ap, ab) / v3_len2(ab);
        } else {
            t = v3_dot(ap, ab) / v3_len2(ab);
        }
        t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
        v3_copy(out, s->a);
        v3_madd(out, ab, t);
        if (w->dim == 3) {
            float foot = s->a[2] + abz * t;
            out[2] = p[2] < foot ? foot : p[2] > foot + s->r ? foot + s->r : p[2];
        }
        v3_sub(d, p, out);
        if (v3_normalize(d) == 0.0f) {
            // on the wall: its left side by convention
            v3_left(d, ab);
            v3_normalize(d);
        }
        v3_copy(normal, d);
        return;
    }
    case STEER_SHAPE_PLANE: {
        float dist;
        v3_sub(d, p, s->a);
        dist = v3_dot(d, s->b);
        v3_copy(out, p);
        v3_madd(out, s->b, -dist);
        v3_copy(normal, s->b);
        return;
    }
    default: { // box
        bool inside = true;
        for (int i = 0; i < 3; i++) {
            float lo = s->a[i], hi = i < w->dim ? s->b[i] : 0.0f;
            out[i] = p[i] < lo ? lo : p[i] > hi ? hi : p[i];
            if (i < w->dim && (p[i] <= lo || p[i] >= hi)) inside = false;
        }
        if (inside) {
            // push out through the nearest face
            int axis = 0;
            float best = FLT_MAX, sign = 1.0f;
            for (int i = 0; i < w->dim; i++) {
                float a = p[i] - s->a[i], b = s->b[i] - p[i];
                if (a < best) {
                    best = a;
                    axis = i;
                    sign = -1.0f;
                }
                if (b < best) {
                    best = b;
                    axis = i;
                    sign = 1.0f;
                }
            }
            v3_copy(out, p);
            out[axis] = sign > 0 ? s->b[axis] : s->a[axis];
            v3_zero(normal);
            normal[axis] = sign;
            return;
        }
        v3_sub(d, p, out);
        if (v3_normalize(d) == 0.0f) v3_set(d, 1, 0, 0);
        v3_copy(normal, d);
        return;
    }
    }
}

float steerO_signed_distance(const steer_World *w, const steerW_Shape *s, const float p[3])
{
    float c[3], n[3], d[3];
    steerO_closest(w, s, p, c, n);
    v3_sub(d, p, c);
    return v3_dot(d, n);
}

// Ray o + t*dir (dir unit) against a sphere of radius r at c: the entering t.
static bool ray_sphere(const float o[3], const float dir[3], const float c[3], float r, float *t, float n[3])
{
    float oc[3];
    v3_sub(oc, o, c);
    float b = v3_dot(oc, dir), cc = v3_len2(oc) - r * r;
    if (cc > 0.0f && b > 0.0f) return false;
    float disc = b * b - cc;
    if (disc < 0.0f) return false;
    float tt = -b - sqrtf(disc);
    if (tt < 0.0f) tt = 0.0f; // starting inside: hit at once
    *t = tt;
    float p[3];
    v3_copy(p, o);
    v3_madd(p, dir, tt);
    v3_sub(n, p, c);
    if (v3_normalize(n) == 0.0f) v3_scale(n, dir, -1.0f);
    return true;
}

bool steerO_ray_shape(const steer_World *w, const steerW_Shape *s, const float o[3], const float dir[3], float *t,
                      float n[3])
{
    switch (s->kind) {
    case STEER_SHAPE_CIRCLE: return ray_sphere(o, dir, s->a, s->r, t, n);
    case STEER_SHAPE_SEGMENT: {
        // 2D: solve o + t dir = a + u (b - a)
        float e[2] = { s->b[0] - s->a[0], s->b[1] - s->a[1] };
        float den = dir[0] * e[1] - dir[1] * e[0];
        if (fabsf(den) < 1e-12f) return false;
        float ao[2] = { s->a[0] - o[0], s->a[1] - o[1] };
        float tt = (ao[0] * e[1] - ao[1] * e[0]) / den;
        float u = (ao[0] * dir[1] - ao[1] * dir[0]) / den;
        if (tt < 0.0f || u < 0.0f || u > 1.0f) return false;
        if (w->dim == 3) { // between the panel's foot and top there
            float z = o[2] + dir[2] * tt, foot = s->a[2] + (s->b[2] - s->a[2]) * u;
            if (z < foot || z > foot + s->r) return false;
        }
        *t = tt;
        v3_set(n, -e[1], e[0], 0.0f);
        v3_normalize(n);
        if (v3_dot(n, dir) > 0.0f) v3_scale(n, n, -1.0f);
        return true;
    }
    case STEER_SHAPE_PLANE: {
        float den = v3_dot(dir, s->b);
        float d[3];
        v3_sub(d, s->a, o);
        float num = v3_dot(d, s->b);
        if (fabsf(den) < 1e-12f) return false;
        float tt = num / den;
        if (tt < 0.0f) return false;
        *t = tt;
        v3_copy(n, s->b);
        if (den > 0.0f) v3_scale(n, n, -1.0f);
        return true;
    }
    default: { // box: slabs
        float t0 = 0.0f, t1 = FLT_MAX;
        int axis = -1;
        float sign = 0.0f;
        for (int i = 0; i < w->dim; i++) {
            if (fabsf(dir[i]) < 1e-12f) {
                if (o[i] < s->a[i] || o[i] > s->b[i]) return false;
                continue;
            }
            float inv = 1.0f / dir[i];
            float ta = (s->a[i] - o[i]) * inv, tb = (s->b[i] - o[i]) * inv;
            float sg = -1.0f;
            if (ta > tb) {
                float x = ta;
                ta = tb;
                tb = x;
                sg = 1.0f;
            }
            if (ta > t0) {
                t0 = ta;
                axis = i;
                sign = sg;
            }
            if (tb < t1) t1 = tb;
            if (t0 > t1) return false;
        }
        *t = t0;
        v3_zero(n);
        if (axis >= 0) n[axis] = sign;
        else v3_scale(n, dir, -1.0f); // starting inside
        return true;
    }
    }
}

// ---- ray casts -------------------------------------------------------------

// The nearest shape hit within `length`, walking the ray in pieces about a
// grid cell long so a long ray over a big world tests only the shapes near
// it, and stops at the first piece that has a hit.
bool steerO_ray_shapes(const steer_World *w, steerW_Local *loc, const float o[3], const float dir[3], float length,
                       float *t_out, float n_out[3], uint32_t *shape)
{
    const steerW_Geometry *g = &w->geo;
    float step = g->ncells ? g->cell[0] : length;
    for (int i = 1; i < w->dim; i++)
        if (g->ncells && g->cell[i] < step) step = g->cell[i];
    if (!(step > 0.0f) || step < length / 256.0f) step = length / 256.0f; // a bounded number of pieces
    if (!(step > 0.0f)) step = 1.0f;
    float best = length;
    bool found = false;
    for (float t0 = 0.0f; t0 <= best; t0 += step) {
        float t1 = t0 + step < best ? t0 + step : best;
        float a[3], b[3], lo[3], hi[3];
        v3_copy(a, o);
        v3_madd(a, dir, t0);
        v3_copy(b, o);
        v3_madd(b, dir, t1);
        for (int i = 0; i < 3; i++) {
            lo[i] = a[i] < b[i] ? a[i] : b[i];
            hi[i] = a[i] < b[i] ? b[i] : a[i];
        }
        int n = steerO_shapes_near(w, loc, lo, hi);
        for (int i = 0; i < n; i++) {
            float t, nn[3];
            uint32_t s = loc->found[i];
            if (steerO_ray_shape(w, &w->geo.shapes[s], o, dir, &t, nn) && t <= best) {
                best = t;
                v3_copy(n_out, nn);
                *shape = s;
                found = true;
            }
        }
        // a hit inside this piece is final; one beyond it may still be beaten
        if ((found && best <= t1) || t1 >= length) break;
    }
    *t_out = best;
    return found;
}

int steer_raycast(steer_World *w, const double origin[3], const double direction[3], double length, unsigned mask,
                  steer_Agent ignore, steer_Hit *hit)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(origin, "a double[3]", STEER_EARG);
    STEERA_NONNULL(direction, "a double[3]", STEER_EARG);
    STEERA_NONNULL(hit, "a steer_Hit to write", STEER_EARG);
    memset(hit, 0, sizeof *hit);
    for (int i = 0; i < 3; i++)
        if (!fin(origin[i]) || !fin(direction[i])) return STEER_EARG;
    if (!fin(length) || length < 0) return STEER_EARG;
    float o[3] = { (float)origin[0], (float)origin[1], w->dim == 3 ? (float)origin[2] : 0.0f };
    float dir[3] = { (float)direction[0], (float)direction[1], w->dim == 3 ? (float)direction[2] : 0.0f };
    if (v3_normalize(dir) == 0.0f) return STEER_EARG;
    if (w->in_tick) return STEER_EBUSY;
    float best = (float)length;
    bool found = false;
    float bn[3] = { 0, 0, 0 };
    steer_Agent ba = STEER_NO_AGENT;
    steer_Shape bs = STEER_NO_SHAPE;
    if (mask & STEER_RAY_SHAPES) {
        int st = steerO_geometry_ready(w);
        if (st) return st;
        float hit_t;
        uint32_t s;
        if (steerO_ray_shapes(w, &w->loc, o, dir, best, &hit_t, bn, &s)) {
            best = hit_t;
            bs = shape_handle(&w->geo, s);
            found = true;
        }
    }
    if (mask & STEER_RAY_AGENTS) {
        // agents near the segment: the host query grid, then exact tests
        float mid[3];
        v3_copy(mid, o);
        v3_madd(mid, dir, 0.5f * best);
        float maxr = 0.0f;
        for (uint32_t d = 0; d < w->count; d++)
            if (w->radius[d] > maxr) maxr = w->radius[d];
        // as steer_world_neighbors(w, mid, 0.5 * best + maxr) would: a midpoint
        // past the float range is an argument error, the radius is finite
        double c[3] = { mid[0], mid[1], mid[2] };
        if (!steerW_finite3(c)) return STEER_EARG;
        int st = steerG_query(w, mid, (float)(0.5 * best + maxr));
        if (st < 0) return STEER_ENOMEM;
        for (int i = 0; i < st; i++) {
            uint32_t d = w->loc.scratch[i].d;
            steer_Agent a = steerW_handle(w, d);
            if (a.id == ignore.id) continue;
            float p[3], t, nn[3];
            steerW_load(w->p, d, p);
            if (ray_sphere(o, dir, p, w->radius[d], &t, nn) && t <= best) {
                best = t;
                v3_copy(bn, nn);
                ba = a;
                bs = STEER_NO_SHAPE;
                found = true;
            }
        }
    }
    if (!found) return 0;
    for (int i = 0; i < 3; i++) {
        hit->point[i] = o[i] + dir[i] * best;
        hit->normal[i] = bn[i];
    }
    hit->distance = best;
    hit->agent = ba;
    hit->shape = bs;
    return 1;
}

void steerO_geometry_free(steer_World *w)
{
    steerW_Geometry *g = &w->geo;
    steerA_free(w, g->shapes);
    steerA_free(w, g->next_free);
    steerA_free(w, g->planes);
    steerA_free(w, g->start);
    steerA_free(w, g->items);
    steerA_free(w, g->occupied);
    memset(g, 0, sizeof *g);
}
