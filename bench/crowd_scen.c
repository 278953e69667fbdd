// SPDX-License-Identifier: MIT
// crowd_scen.c — the crowd benchmark's scenarios and the metrics that score
// a run of one (see crowd_scen.h). Plain C99 that also compiles as C++, with
// a PRNG of its own, so every harness builds the same scenes bit for bit.
//
// The scenarios (all agents mass 1):
//   circle250   250 agents on a circle of radius 200 m (r 1.5, 2 m/s), each
//               to its antipode; limit 3000 s
//   circle500   500 on R 100 m (r 0.5); limit 1500 s
//   circle500w  500 on R 250 m (r 1.5); limit 4000 s
//   blocks      two 10x10 blocks (spacing 2 m, r 0.5, 2 m/s) at x = -40 and
//               40, head-on: each goal is the start mirrored in x; 600 s
//   packed      100 agents (r 1.5, 2 m/s) from a 10x10 grid 8 m apart to
//               one 3.2 m apart, both centred at the origin; 600 s
//   fields      one agent (r 0.5, 2 m/s) from (-50, 0) to (50, 0) through 50
//               circles of radius 1 to 3 in [-40, 40] x [-25, 25] (none
//               within its radius + 2 m of the start or goal); 100 variants,
//               the variant seeding the layout; 300 s
//   doorway     a wall on x = 0 (y -30 to 30) with a 2 m gap at y in [-1, 1];
//               5x10 agents each side (spacing 1 m, r 0.3, 1.4 m/s) at
//               x = -10 and 10, goals mirrored in x, by way of the middle of
//               the gap's right half (they keep right); 600 s
//   bottleneck  the same wall with a 1.2 m gap; 10x10 agents at (-12, 0) to
//               the same grid at (12, 0), by way of the gap; 600 s
//   hallway4    two corridors 6 m wide and 60 m long crossing at the origin
//               (four L-shaped corners); four 5x5 groups 25 m out each go to
//               the same formation at the opposite end; 600 s
//   fanin       100 agents on the half-circle of radius 30, x <= 0, through
//               a funnel from (-6, +-8) to (0, +-1.5) and a corridor
//               y = +-1.5 out to x = 20, to a 10x10 grid at (32, 0): agent i
//               by angle (from the top) to goal i in row-major order (rows
//               from the top), by way of the corridor's mouth; 900 s
//   Waypoints (crowd_scene_target) stand for the route a game's path
//   planner gives: without them every system pins the agents behind a
//   doorway's wall on the straight line to their goals, or walks them round
//   the outside of the funnel.
//   corridor    a corridor y = +-2 (4 m wide) from x = -15 to 15, open at
//               both ends, used both ways: two groups of 5x10 (0.8 m across,
//               1 m along; r 0.3, 1.4 m/s) at x = -14 .. -5 and 5 .. 14 walk
//               head-on to the same formation 30 m on, out past the far end
//               (the front walker to the far row, so a group keeps its
//               order); no waypoints: the flows must find their own lanes;
//               600 s
//   overtake    a corridor y = +-3 from x = -10 to 110; 10 slow agents
//               (0.6 m/s) at x = 10 .. 28, 10 fast ones (1.6 m/s) at
//               x = -8 .. 0, all on y = 0; the slow go 60 m, the fast 100 m,
//               so the fast must pass; 600 s
//   Outlines (CrowdScene.outline, for steer-bench crowd --nav mesh): the
//   walkable ground of each scene with walls, of which a navigation mesh
//   is made, the walls carved out: doorway and bottleneck the box
//   x in [-20, 20], y in [-30, 30] the wall spans; hallway4 the cross the
//   walls bound, closed 30 m out; fanin the half-plane the people come
//   from (x <= 1, |y| <= 32, so the funnel's outside is ground, as in the
//   open scene), the corridor and a hall x in [20, 40], |y| <= 8 past it;
//   corridor the corridor with a hall 15 m deep and 24 m wide at each
//   end; overtake the corridor from x = -10 to 110.
//   Layout K (crowd_scene_jitter, --jitter K in both harnesses): every
//   start moved by up to 5 cm in x and y, from a stream seeded by K; 0 is
//   the scene as above. The narrow scenes are chaotic (5 cm can change a
//   doorway's time several fold), so they compare on medians over layouts
//   (bench/narrow-ensemble.sh).
//
// The metrics, per run, pooled over the runs of a scenario when printed:
//   arrived=K/T       agents that came within 1 m of their goal at any tick
//                     (T = agents x runs)
//   time_s            simulated time at which the last agent of a run first
//                     did (the median over runs), or never
//   overlap_pairs     distinct pairs (i, j) that at some tick overlapped by
//                     more than 10% of the smaller radius (summed over runs)
//   deepest_r         the deepest overlap of any pair at any tick, in units
//                     of the smaller radius
//   obstacle_depth_m  the deepest any agent's disc went into an obstacle
//                     (its radius minus the distance from its centre to the
//                     obstacle; into a circle, past its rim)
//   fields_penetrated runs in which that depth passed 1 mm
//   walls_crossed     agents whose centre went through a wall from one tick
//                     to the next (a wall has no inside, so its depth stops
//                     at the radius: this tells a disc halfway in from one
//                     that passed through)
//   path_ratio        mean over arrived agents of the path walked until
//                     arrival over the straight line from start to goal
//                     (by way of the waypoint, where the scene has one)
//   settled_*         over the 10 s after the last arrival: the mean speed
//                     (m/s) and heading change (degrees/s) of the agents
//                     over agent-ticks, and the largest of each
//   ms_per_tick       the median wall time of one step
#include "crowd_scen.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define ARRIVE_M 1.0
#define SETTLE_S 10.0
#define PENETRATED_M 1e-3

// ---- scenes ---------------------------------------------------------------

// Allocates a scene's arrays; agents and obstacles are filled by the caller.
static int scene_alloc(CrowdScene *s, const char *name, int n, int nobs, double limit)
{
    memset(s, 0, sizeof *s);
    strncpy(s->name, name, sizeof s->name - 1);
    s->n = n;
    s->nobs = nobs;
    s->time_limit = limit;
    s->start = (double *)calloc((size_t)(2 * n), sizeof(double));
    s->goal = (double *)calloc((size_t)(2 * n), sizeof(double));
    s->radius = (double *)calloc((size_t)n, sizeof(double));
    s->max_speed = (double *)calloc((size_t)n, sizeof(double));
    s->obs = nobs ? (CrowdObstacle *)calloc((size_t)nobs, sizeof(CrowdObstacle)) : NULL;
    if (!s->start || !s->goal || !s->radius || !s->max_speed || (nobs && !s->obs)) {
        crowd_scene_free(s);
        return -1;
    }
    return 0;
}

// Agent i goes by way of (x, y), until past it along (nx, ny).
static int waypoint(CrowdScene *s, int i, double x, double y, double nx, double ny)
{
    if (!s->via && !(s->via = (double *)calloc((size_t)(4 * s->n), sizeof(double)))) return -1;
    s->via[4 * i] = x;
    s->via[4 * i + 1] = y;
    s->via[4 * i + 2] = nx;
    s->via[4 * i + 3] = ny;
    return 0;
}

const double *crowd_scene_target(const CrowdScene *s, int i, const double pos[2], unsigned char *past)
{
    if (!s->via) return &s->goal[2 * i];
    const double *v = &s->via[4 * i];
    double dx = pos[0] - v[0], dy = pos[1] - v[1];
    // past it along the normal only: every harness heads for a waypoint at
    // full speed, so it never stops short of it; "within some distance of
    // it" would send an agent still on the near side of a door, beside the
    // gap, to its goal behind the wall, along the jamb and out of that
    // distance, to the waypoint again: round and round
    *past = dx * v[2] + dy * v[3] > 0;
    return *past ? &s->goal[2 * i] : v;
}

// The scene's walkable ground for a navigation mesh: n points (x, y pairs,
// counter-clockwise), see CrowdScene.outline.
static int outline(CrowdScene *s, const double *xy, int n)
{
    if (!(s->outline = (double *)malloc((size_t)(2 * n) * sizeof(double)))) return -1;
    memcpy(s->outline, xy, (size_t)(2 * n) * sizeof(double));
    s->noutline = n;
    return 0;
}

static int box_outline(CrowdScene *s, double x0, double y0, double x1, double y1)
{
    const double xy[8] = { x0, y0, x1, y0, x1, y1, x0, y1 };
    return outline(s, xy, 4);
}

static void agent(CrowdScene *s, int i, double sx, double sy, double gx, double gy, double r, double speed)
{
    s->start[2 * i] = sx;
    s->start[2 * i + 1] = sy;
    s->goal[2 * i] = gx;
    s->goal[2 * i + 1] = gy;
    s->radius[i] = r;
    s->max_speed[i] = speed;
}

static void segment(CrowdScene *s, int k, double ax, double ay, double bx, double by)
{
    CrowdObstacle *o = &s->obs[k];
    o->kind = CROWD_SEGMENT;
    o->a[0] = ax;
    o->a[1] = ay;
    o->b[0] = bx;
    o->b[1] = by;
}

// Offset of column (or row) k of m, spacing apart, centred on 0.
static double grid_at(int k, int m, double spacing) { return (k - 0.5 * (m - 1)) * spacing; }

// A ring of agents each sent to its antipode.
static int make_circle(CrowdScene *s, const char *name, int n, double big_r, double r, double limit)
{
    if (scene_alloc(s, name, n, 0, limit)) return -1;
    for (int i = 0; i < n; i++) {
        double a = 2 * PI * i / n, x = big_r * cos(a), y = big_r * sin(a);
        agent(s, i, x, y, -x, -y, r, 2);
    }
    return 0;
}

static int make_circle250(CrowdScene *s, int variant)
{
    (void)variant;
    return make_circle(s, "circle250", 250, 200, 1.5, 3000);
}
static int make_circle500(CrowdScene *s, int variant)
{
    (void)variant;
    return make_circle(s, "circle500", 500, 100, 0.5, 1500);
}
static int make_circle500w(CrowdScene *s, int variant)
{
    (void)variant;
    return make_circle(s, "circle500w", 500, 250, 1.5, 4000);
}

// Two grids of cols x rows agents centred at x = -cx and cx, each agent
// going to its start mirrored in x (so the grids swap places head-on).
static void mirrored_grids(CrowdScene *s, int cols, int rows, double spacing, double cx, double r, double speed)
{
    int i = 0;
    for (int side = -1; side <= 1; side += 2)
        for (int row = 0; row < rows; row++)
            for (int col = 0; col < cols; col++, i++) {
                double x = side * cx + grid_at(col, cols, spacing), y = grid_at(row, rows, spacing);
                agent(s, i, x, y, -x, y, r, speed);
            }
}

static int make_blocks(CrowdScene *s, int variant)
{
    (void)variant;
    if (scene_alloc(s, "blocks", 200, 0, 600)) return -1;
    mirrored_grids(s, 10, 10, 2, 40, 0.5, 2);
    return 0;
}

static int make_packed(CrowdScene *s, int variant)
{
    (void)variant;
    if (scene_alloc(s, "packed", 100, 0, 600)) return -1;
    for (int row = 0, i = 0; row < 10; row++)
        for (int col = 0; col < 10; col++, i++)
            agent(s, i, grid_at(col, 10, 8), grid_at(row, 10, 8), grid_at(col, 10, 3.2), grid_at(row, 10, 3.2), 1.5, 2);
    return 0;
}

// splitmix64: a tiny PRNG whose every seed, 0 included, gives a good stream.
static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform(uint64_t *state, double lo, double hi)
{
    return lo + (hi - lo) * (double)(next_u64(state) >> 11) * (1.0 / 9007199254740992.0);
}

static int make_fields(CrowdScene *s, int variant)
{
    if (variant < 0 || variant >= 100 || scene_alloc(s, "fields", 1, 50, 300)) return -1;
    agent(s, 0, -50, 0, 50, 0, 0.5, 2);
    uint64_t state = (uint64_t)variant;
    for (int k = 0; k < 50; k++) {
        CrowdObstacle *o = &s->obs[k];
        o->kind = CROWD_CIRCLE;
        do {
            o->r = uniform(&state, 1, 3);
            o->c[0] = uniform(&state, -40, 40);
            o->c[1] = uniform(&state, -25, 25);
        } while (hypot(o->c[0] + 50, o->c[1]) < o->r + 2 || hypot(o->c[0] - 50, o->c[1]) < o->r + 2);
    }
    return 0;
}

// The wall on x = 0 from y = -30 to 30 with a gap of the given width.
static void door_wall(CrowdScene *s, double gap)
{
    segment(s, 0, 0, -30, 0, -0.5 * gap);
    segment(s, 1, 0, 0.5 * gap, 0, 30);
}

// Every agent by way of the gap, until it is through the wall: the centre
// of the half on its right (`lane` metres off the centre line), as people
// keep right in a doorway used both ways (0: the centre).
static int through_door(CrowdScene *s, double lane)
{
    for (int i = 0; i < s->n; i++) {
        double dir = s->goal[2 * i] > s->start[2 * i] ? 1 : -1;
        if (waypoint(s, i, 0, -dir * lane, dir, 0)) return -1;
    }
    return 0;
}

static int make_doorway(CrowdScene *s, int variant)
{
    (void)variant;
    if (scene_alloc(s, "doorway", 100, 2, 600)) return -1;
    door_wall(s, 2);
    mirrored_grids(s, 5, 10, 1, 10, 0.3, 1.4);
    if (box_outline(s, -20, -30, 20, 30)) return -1;
    return through_door(s, 0.5);
}

static int make_bottleneck(CrowdScene *s, int variant)
{
    (void)variant;
    if (scene_alloc(s, "bottleneck", 100, 2, 600)) return -1;
    door_wall(s, 1.2);
    for (int row = 0, i = 0; row < 10; row++)
        for (int col = 0; col < 10; col++, i++) {
            double x = grid_at(col, 10, 1), y = grid_at(row, 10, 1);
            agent(s, i, x - 12, y, x + 12, y, 0.3, 1.4);
        }
    if (box_outline(s, -20, -30, 20, 30)) return -1;
    return through_door(s, 0);
}

static int make_hallway4(CrowdScene *s, int variant)
{
    (void)variant;
    if (scene_alloc(s, "hallway4", 100, 8, 600)) return -1;
    // One L per quadrant (sx, sy): along the vertical corridor's side from
    // its end to the corner, then along the horizontal one out to its end.
    for (int q = 0; q < 4; q++) {
        double sx = q & 1 ? 1 : -1, sy = q & 2 ? 1 : -1;
        segment(s, 2 * q, 3 * sx, 30 * sy, 3 * sx, 3 * sy);
        segment(s, 2 * q + 1, 3 * sx, 3 * sy, 30 * sx, 3 * sy);
    }
    static const double ends[4][2] = { { -25, 0 }, { 25, 0 }, { 0, -25 }, { 0, 25 } };
    int i = 0;
    for (int g = 0; g < 4; g++)
        for (int row = 0; row < 5; row++)
            for (int col = 0; col < 5; col++, i++) {
                double dx = grid_at(col, 5, 1), dy = grid_at(row, 5, 1);
                agent(s, i, ends[g][0] + dx, ends[g][1] + dy, -ends[g][0] + dx, -ends[g][1] + dy, 0.3, 1.4);
            }
    // the cross the walls bound, closed at the corridors' ends
    const double cross[24] = { -30, -3, -3, -3, -3, -30, 3,  -30, 3,  -3, 30,  -3,
                               30,  3,  3,  3,  3,  30,  -3, 30,  -3, 3,  -30, 3 };
    return outline(s, cross, 12);
}

static int make_fanin(CrowdScene *s, int variant)
{
    (void)variant;
    if (scene_alloc(s, "fanin", 100, 4, 900)) return -1;
    segment(s, 0, -6, 8, 0, 1.5);
    segment(s, 1, -6, -8, 0, -1.5);
    segment(s, 2, 0, 1.5, 20, 1.5);
    segment(s, 3, 0, -1.5, 20, -1.5);
    for (int i = 0; i < 100; i++) {
        double a = PI / 2 + PI * i / 99; // from (0, 30) round the left to (0, -30)
        int row = i / 10, col = i % 10;
        agent(s, i, 30 * cos(a), 30 * sin(a), 32 + grid_at(col, 10, 1), -grid_at(row, 10, 1), 0.3, 1.4);
        if (waypoint(s, i, 0, 0, 1, 0)) return -1;
    }
    // the half-plane the people come from (to x = 1, so the funnel's outside
    // is ground too, as in the open scene), the corridor, and a hall past
    // its end holding the goals
    const double ground[24] = { -32, -32, 1,  -32, 1,  -1.5, 20, -1.5, 20, -8, 40,  -8,
                                40,  8,   20, 8,   20, 1.5,  1,  1.5,  1,  32, -32, 32 };
    return outline(s, ground, 12);
}

static int make_corridor(CrowdScene *s, int variant)
{
    (void)variant;
    if (scene_alloc(s, "corridor", 100, 2, 600)) return -1;
    segment(s, 0, -15, -2, 15, -2);
    segment(s, 1, -15, 2, 15, 2);
    int i = 0;
    for (int side = -1; side <= 1; side += 2)
        for (int row = 0; row < 10; row++)
            for (int col = 0; col < 5; col++, i++) {
                double x = side * 9.5 + grid_at(row, 10, 1), y = grid_at(col, 5, 0.8);
                agent(s, i, x, y, x - side * 30, y, 0.3, 1.4);
            }
    // the corridor with a hall at each end (it opens on the open plane)
    const double ground[24] = { -30, -12, -15, -12, -15, -2, 15,  -2, 15,  -12, 30,  -12,
                                30,  12,  15,  12,  15,  2,  -15, 2,  -15, 12,  -30, 12 };
    return outline(s, ground, 12);
}

static int make_overtake(CrowdScene *s, int variant)
{
    (void)variant;
    if (scene_alloc(s, "overtake", 20, 2, 600)) return -1;
    segment(s, 0, -10, -3, 110, -3);
    segment(s, 1, -10, 3, 110, 3);
    for (int k = 0; k < 10; k++) {
        double slow_x = 10 + 2 * k, fast_x = -8 + 8.0 * k / 9;
        agent(s, k, slow_x, 0, slow_x + 60, 0, 0.3, 0.6);
        agent(s, 10 + k, fast_x, 0, fast_x + 100, 0, 0.3, 1.6);
    }
    return box_outline(s, -10, -3, 110, 3);
}

typedef struct SceneKind {
    const char *name;
    int variants;
    int (*make)(CrowdScene *s, int variant);
} SceneKind;

static const SceneKind kinds[] = {
    { "circle250", 1, make_circle250 }, { "circle500", 1, make_circle500 },   { "circle500w", 1, make_circle500w },
    { "blocks", 1, make_blocks },       { "packed", 1, make_packed },         { "fields", 100, make_fields },
    { "doorway", 1, make_doorway },     { "bottleneck", 1, make_bottleneck }, { "hallway4", 1, make_hallway4 },
    { "fanin", 1, make_fanin },         { "corridor", 1, make_corridor },     { "overtake", 1, make_overtake },
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

const char *const crowd_scene_names[] = { "circle250", "circle500", "circle500w", "blocks",   "packed",
                                          "fields",    "doorway",   "bottleneck", "hallway4", "fanin",
                                          "corridor",  "overtake",  NULL };

static const SceneKind *find_kind(const char *name)
{
    for (int k = 0; k < NKINDS; k++)
        if (name && strcmp(kinds[k].name, name) == 0) return &kinds[k];
    return NULL;
}

int crowd_scene_variants(const char *name)
{
    const SceneKind *k = find_kind(name);
    return k ? k->variants : 0;
}

int crowd_scene_make(const char *name, int variant, CrowdScene *out)
{
    const SceneKind *k = find_kind(name);
    memset(out, 0, sizeof *out);
    if (!k || variant < 0 || variant >= k->variants) return -1;
    return k->make(out, variant);
}

void crowd_scene_free(CrowdScene *s)
{
    free(s->start);
    free(s->goal);
    free(s->radius);
    free(s->max_speed);
    free(s->obs);
    free(s->via);
    free(s->outline);
    memset(s, 0, sizeof *s);
}

#define JITTER_M 0.05

void crowd_scene_jitter(CrowdScene *s, int layout)
{
    s->layout = layout;
    if (layout == 0) return;
    uint64_t state = (uint64_t)layout;
    for (int k = 0; k < 2 * s->n; k++) s->start[k] += uniform(&state, -JITTER_M, JITTER_M);
}

// ---- metrics --------------------------------------------------------------

struct CrowdMetrics {
    char name[32];
    int layout; // the scene's, printed when not 0
    int n, nobs;
    double dt, time_limit;
    double *goal, *radius, *straight; // n straight: start-goal distance
    CrowdObstacle *obs;
    double *prev, *heading;  // 2n: last tick's position and heading
    double *path, *arrive_t; // n: path until arrival; arrival time or -1
    long ticks;
    int arrived;
    double all_t; // when the last agent arrived, or -1
    long settle_ticks, window_ticks, samples;
    double speed_sum, turn_sum, speed_max, turn_max; // over the settle window
    double deepest_r, obstacle_depth;
    unsigned char *crossed; // n: the agent went through a wall
    int walls_crossed;
    // distinct overlapping pairs: open addressing on i * n + j + 1 (0: empty)
    uint64_t *pairs;
    long npairs, pair_cap;
    // the overlap search's hash grid: bucket heads and per-agent links
    double cell;
    int *bucket, *link, nbuckets;
    double *ms;
    long nms, ms_cap;
};

static double *copy(const double *src, int count)
{
    double *d = (double *)malloc((size_t)count * sizeof(double));
    if (d) memcpy(d, src, (size_t)count * sizeof(double));
    return d;
}

CrowdMetrics *crowd_metrics_new(const CrowdScene *s, double dt)
{
    CrowdMetrics *m = (CrowdMetrics *)calloc(1, sizeof *m);
    if (!m) return NULL;
    int n = s->n;
    memcpy(m->name, s->name, sizeof m->name);
    m->layout = s->layout;
    m->n = n;
    m->nobs = s->nobs;
    m->dt = dt;
    m->time_limit = s->time_limit;
    m->all_t = -1;
    m->window_ticks = (long)ceil(SETTLE_S / dt - 1e-9);
    m->goal = copy(s->goal, 2 * n);
    m->radius = copy(s->radius, n);
    m->prev = copy(s->start, 2 * n);
    m->heading = (double *)calloc((size_t)(2 * n), sizeof(double));
    m->straight = (double *)malloc((size_t)n * sizeof(double));
    m->path = (double *)calloc((size_t)n, sizeof(double));
    m->arrive_t = (double *)malloc((size_t)n * sizeof(double));
    m->crossed = (unsigned char *)calloc((size_t)n, 1);
    m->obs = s->nobs ? (CrowdObstacle *)malloc((size_t)s->nobs * sizeof(CrowdObstacle)) : NULL;
    m->nbuckets = 16;
    while (m->nbuckets < 2 * n) m->nbuckets *= 2;
    m->bucket = (int *)malloc((size_t)m->nbuckets * sizeof(int));
    m->link = (int *)malloc((size_t)n * sizeof(int));
    m->pair_cap = 64;
    m->pairs = (uint64_t *)calloc((size_t)m->pair_cap, sizeof(uint64_t));
    if (!m->goal || !m->radius || !m->prev || !m->heading || !m->straight || !m->path || !m->arrive_t || !m->crossed ||
        (s->nobs && !m->obs) || !m->bucket || !m->link || !m->pairs) {
        crowd_metrics_free(m);
        return NULL;
    }
    if (s->nobs) memcpy(m->obs, s->obs, (size_t)s->nobs * sizeof(CrowdObstacle));
    double max_r = 0;
    for (int i = 0; i < n; i++) {
        const double *a = &s->start[2 * i], *b = &s->goal[2 * i], *v = s->via ? &s->via[4 * i] : NULL;
        m->straight[i] =
            v ? hypot(v[0] - a[0], v[1] - a[1]) + hypot(b[0] - v[0], b[1] - v[1]) : hypot(b[0] - a[0], b[1] - a[1]);
        m->arrive_t[i] = -1;
        if (s->radius[i] > max_r) max_r = s->radius[i];
    }
    // Two agents overlap only closer than r_i + r_j <= 2 max_r: with cells
    // that wide, every overlapping pair lies in neighbouring cells.
    m->cell = max_r > 0 ? 2 * max_r : 1;
    return m;
}

void crowd_metrics_free(CrowdMetrics *m)
{
    if (!m) return;
    free(m->goal);
    free(m->radius);
    free(m->straight);
    free(m->obs);
    free(m->prev);
    free(m->heading);
    free(m->path);
    free(m->arrive_t);
    free(m->crossed);
    free(m->pairs);
    free(m->bucket);
    free(m->link);
    free(m->ms);
    free(m);
}

static void pair_insert(CrowdMetrics *m, uint64_t key)
{
    if (2 * (m->npairs + 1) > m->pair_cap) {
        long old_cap = m->pair_cap;
        uint64_t *old = m->pairs, *grown = (uint64_t *)calloc((size_t)(2 * old_cap), sizeof(uint64_t));
        if (!grown) return; // the count stays a lower bound; a benchmark need not fail over it
        m->pairs = grown;
        m->pair_cap = 2 * old_cap;
        m->npairs = 0;
        for (long k = 0; k < old_cap; k++)
            if (old[k]) pair_insert(m, old[k]);
        free(old);
    }
    uint64_t mask = (uint64_t)m->pair_cap - 1, h = (key * 0x9E3779B97F4A7C15ull) >> 17;
    for (;; h++) {
        uint64_t *slot = &m->pairs[h & mask];
        if (*slot == key) return;
        if (!*slot) {
            *slot = key;
            m->npairs++;
            return;
        }
    }
}

static long cell_of(double x, double cell) { return (long)floor(x / cell); }
static int bucket_of(const CrowdMetrics *m, long cx, long cy)
{
    uint64_t h = (uint64_t)cx * 73856093u ^ (uint64_t)cy * 19349663u;
    return (int)(h & (uint64_t)(m->nbuckets - 1));
}

static void check_pair(CrowdMetrics *m, const double *pos, int i, int j)
{
    double ri = m->radius[i], rj = m->radius[j], rmin = ri < rj ? ri : rj;
    double d = hypot(pos[2 * i] - pos[2 * j], pos[2 * i + 1] - pos[2 * j + 1]), depth = ri + rj - d;
    if (depth <= 0) return;
    if (depth / rmin > m->deepest_r) m->deepest_r = depth / rmin;
    if (depth > 0.1 * rmin) pair_insert(m, (uint64_t)i * (uint64_t)m->n + (uint64_t)j + 1);
}

// Every overlapping pair this tick, through a hash grid of cells 2 max_r wide.
static void overlaps(CrowdMetrics *m, const double *pos)
{
    for (int b = 0; b < m->nbuckets; b++) m->bucket[b] = -1;
    for (int i = 0; i < m->n; i++) {
        int b = bucket_of(m, cell_of(pos[2 * i], m->cell), cell_of(pos[2 * i + 1], m->cell));
        m->link[i] = m->bucket[b];
        m->bucket[b] = i;
    }
    for (int i = 0; i < m->n; i++) {
        long cx = cell_of(pos[2 * i], m->cell), cy = cell_of(pos[2 * i + 1], m->cell);
        int seen[9], nseen = 0;
        for (long dy = -1; dy <= 1; dy++)
            for (long dx = -1; dx <= 1; dx++) {
                int b = bucket_of(m, cx + dx, cy + dy), dup = 0;
                for (int k = 0; k < nseen; k++) dup |= seen[k] == b; // cells sharing a bucket: visit it once
                if (dup) continue;
                seen[nseen++] = b;
                for (int j = m->bucket[b]; j >= 0; j = m->link[j])
                    if (j > i) check_pair(m, pos, i, j);
            }
    }
}

// Distance from p to an obstacle: to a segment, or past a circle's rim
// (negative inside it).
static double obstacle_distance(const CrowdObstacle *o, const double *p)
{
    if (o->kind == CROWD_CIRCLE) return hypot(p[0] - o->c[0], p[1] - o->c[1]) - o->r;
    double ex = o->b[0] - o->a[0], ey = o->b[1] - o->a[1], len2 = ex * ex + ey * ey;
    double t = len2 > 0 ? ((p[0] - o->a[0]) * ex + (p[1] - o->a[1]) * ey) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(p[0] - o->a[0] - t * ex, p[1] - o->a[1] - t * ey);
}

// Which side of the line through a and b the point p lies: the sign of the
// cross product (b - a) x (p - a).
static double side_of(const double *a, const double *b, const double *p)
{
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
}

int crowd_step_crosses(const CrowdObstacle *o, const double *p0, const double *p1)
{
    if (o->kind != CROWD_SEGMENT) return 0;
    double s0 = side_of(o->a, o->b, p0), s1 = side_of(o->a, o->b, p1);
    double sa = side_of(p0, p1, o->a), sb = side_of(p0, p1, o->b);
    return ((s0 < 0 && s1 > 0) || (s0 > 0 && s1 < 0)) && ((sa < 0 && sb > 0) || (sa > 0 && sb < 0));
}

// The angle between two headings in degrees (atan2(0, 0) = 0 if either is
// zero).
static double turn_deg(const double *h0, const double *h1)
{
    double cross = h0[0] * h1[1] - h0[1] * h1[0], dot = h0[0] * h1[0] + h0[1] * h1[1];
    return fabs(atan2(cross, dot)) * 180 / PI;
}

static void keep_ms(CrowdMetrics *m, double ms)
{
    if (m->nms == m->ms_cap) {
        long cap = m->ms_cap ? 2 * m->ms_cap : 4096;
        double *grown = (double *)realloc(m->ms, (size_t)cap * sizeof(double));
        if (!grown) return; // the median of the ticks kept
        m->ms = grown;
        m->ms_cap = cap;
    }
    m->ms[m->nms++] = ms;
}

void crowd_metrics_tick(CrowdMetrics *m, const double *pos, const double *vel, const double *heading, double ms)
{
    m->ticks++;
    keep_ms(m, ms);
    double t = (double)m->ticks * m->dt;
    int settling = m->all_t >= 0;
    for (int i = 0; i < m->n; i++) {
        const double *p = &pos[2 * i], *h = &heading[2 * i];
        if (m->arrive_t[i] < 0) {
            m->path[i] += hypot(p[0] - m->prev[2 * i], p[1] - m->prev[2 * i + 1]);
            if (hypot(p[0] - m->goal[2 * i], p[1] - m->goal[2 * i + 1]) <= ARRIVE_M) {
                m->arrive_t[i] = t;
                m->arrived++;
            }
        }
        for (int k = 0; k < m->nobs; k++) {
            double depth = m->radius[i] - obstacle_distance(&m->obs[k], p);
            if (depth > m->obstacle_depth) m->obstacle_depth = depth;
            if (!m->crossed[i] && crowd_step_crosses(&m->obs[k], &m->prev[2 * i], p)) {
                m->crossed[i] = 1;
                m->walls_crossed++;
            }
        }
        if (settling) {
            double speed = hypot(vel[2 * i], vel[2 * i + 1]), turn = turn_deg(&m->heading[2 * i], h) / m->dt;
            m->speed_sum += speed;
            m->turn_sum += turn;
            if (speed > m->speed_max) m->speed_max = speed;
            if (turn > m->turn_max) m->turn_max = turn;
            m->samples++;
        }
        if (h[0] != 0 || h[1] != 0) { // a zero heading (no motion yet) keeps the last one
            m->heading[2 * i] = h[0];
            m->heading[2 * i + 1] = h[1];
        }
        m->prev[2 * i] = p[0];
        m->prev[2 * i + 1] = p[1];
    }
    if (settling) m->settle_ticks++;
    if (m->all_t < 0 && m->arrived == m->n) m->all_t = t;
    overlaps(m, pos);
}

int crowd_metrics_finished(const CrowdMetrics *m)
{
    if (m->all_t >= 0 && m->settle_ticks >= m->window_ticks) return 1;
    return (double)m->ticks * m->dt >= m->time_limit - 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double crowd_median(double *v, long n)
{
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Prints " key=" and the figure with the format, or "-" when it is NaN.
static void figure(FILE *out, const char *key, const char *format, double x)
{
    fprintf(out, " %s=", key);
    if (isnan(x)) fputs("-", out);
    else fprintf(out, format, x);
}

void crowd_metrics_print(FILE *out, CrowdMetrics *const *runs, int nruns, const char *system, const char *method)
{
    if (nruns <= 0) return;
    const CrowdMetrics *first = runs[0];
    long arrived = 0, pairs = 0, samples = 0, nms = 0, npath = 0;
    int penetrated = 0, crossed = 0;
    double deepest = 0, depth = 0, path_sum = 0, speed_sum = 0, turn_sum = 0, speed_max = 0, turn_max = 0;
    double *times = (double *)malloc((size_t)nruns * sizeof(double));
    for (int r = 0; r < nruns; r++) nms += runs[r]->nms;
    double *ms = (double *)malloc((size_t)(nms ? nms : 1) * sizeof(double));
    if (!times || !ms) {
        free(times);
        free(ms);
        return;
    }
    nms = 0;
    for (int r = 0; r < nruns; r++) {
        const CrowdMetrics *m = runs[r];
        arrived += m->arrived;
        pairs += m->npairs;
        times[r] = m->all_t >= 0 ? m->all_t : INFINITY;
        if (m->deepest_r > deepest) deepest = m->deepest_r;
        if (m->obstacle_depth > depth) depth = m->obstacle_depth;
        penetrated += m->obstacle_depth > PENETRATED_M;
        crossed += m->walls_crossed;
        for (int i = 0; i < m->n; i++)
            if (m->arrive_t[i] >= 0 && m->straight[i] > 0) {
                path_sum += m->path[i] / m->straight[i];
                npath++;
            }
        samples += m->samples;
        speed_sum += m->speed_sum;
        turn_sum += m->turn_sum;
        if (m->speed_max > speed_max) speed_max = m->speed_max;
        if (m->turn_max > turn_max) turn_max = m->turn_max;
        if (m->nms) memcpy(ms + nms, m->ms, (size_t)m->nms * sizeof(double));
        nms += m->nms;
    }
    double time_s = crowd_median(times, nruns);
    fprintf(out, "crowd system=%s method=%s scenario=%s", system, method, first->name);
    if (first->layout) fprintf(out, " layout=%d", first->layout);
    fprintf(out, " dt=%.3g n=%d runs=%d arrived=%ld/%ld", first->dt, first->n, nruns, arrived, (long)first->n * nruns);
    if (isinf(time_s)) fputs(" time_s=never", out);
    else fprintf(out, " time_s=%.1f", time_s);
    fprintf(out, " overlap_pairs=%ld deepest_r=%.3f", pairs, deepest);
    if (first->nobs)
        fprintf(out, " obstacle_depth_m=%.3f fields_penetrated=%d/%d walls_crossed=%d", depth, penetrated, nruns,
                crossed);
    figure(out, "path_ratio", "%.3f", npath ? path_sum / (double)npath : NAN);
    figure(out, "settled_speed", "%.4f", samples ? speed_sum / (double)samples : NAN);
    figure(out, "settled_turn_dps", "%.2f", samples ? turn_sum / (double)samples : NAN);
    figure(out, "settled_speed_max", "%.4f", samples ? speed_max : NAN);
    figure(out, "settled_turn_max", "%.2f", samples ? turn_max : NAN);
    figure(out, "ms_per_tick", "%.3f", crowd_median(ms, nms));
    fputc('\n', out);
    free(times);
    free(ms);
}
