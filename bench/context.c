// SPDX-License-Identifier: MIT
// context.c — steer-bench context: what steer.context costs against a
// blend of the same children (issue 36's claim: at most 2x a blend's time
// per agent per tick), and the corner trap. Figures, not tests.
//
//   steer-bench context [--n N] [--ticks T] [--runs R] [--slots S]
//   steer-bench context --table [--layouts K]
//
// time: a 40 x 40 m room (four walls and two inner walls of 12 m), N
//   agents (radius 0.4, 2 m/s) on a grid, each given a target across the
//   room (steer_agent_set_target), steered by seek + avoid_agents +
//   avoid_walls, either blended (weights 1, 2, 2) or as
//   steer.context{ interest = { seek }, danger = { avoid_agents,
//   avoid_walls }, slots = S }. Each world is stepped 30 ticks, then T
//   ticks one by one on one thread; the figure is the median tick over N.
// trap: an agent 1 m above a wall, moving toward it at 2 m/s, a threat 2 m
//   above it (flee, panic radius 15) and avoid_walls (length 2), 4 s at
//   60 Hz: blend{ flee, avoid_walls } against context{ interest = { flee },
//   danger = { flee, avoid_walls } }: distance gained from the threat,
//   mean speed, the time spent slower than 0.5 m/s, and the lowest y of
//   the centre (below 0: through the wall).
// Prints one line per run and world:
//   context n=N ticks=T slots=S blend_us=X context_us=Y ratio=Y/X
//   trap KIND gained=M mean=V slow_s=S lowest_y=Y
//
// --table (issue 36 item 3): blend, priority and context of the same
// children, each scene at 1/60 s, one markdown row per scene and method:
//   fields   the crowd benchmark's obstacle fields, the first K (default
//            100) layouts, one agent each; the brains of `steer-bench
//            crowd --method blend|priority|context` (crowd.c)
//   doorway  the crowd benchmark's doorway (100 agents, a 2 m gap, by way
//            of a waypoint in the gap), the same brains
//   door16   a 1.6 m gap in a wall, one agent (r 0.3) straight through it
//            from 9 starts (door16_scene), the same brains
//   corner   an agent driven into a 90-degree corner by a threat at 9
//            angles, flee and avoid_walls (run_corner)
// The columns: arrived (of runs x agents; the corner's goal is 6 m from
// the threat); time, the median over runs of when a run's last agent
// arrived (never: not within the scene's limit); jitter, the mean turn of
// the direction of motion in degrees per second over the ticks an agent
// not yet arrived moves (at least 5% of max_speed) both this tick and the
// last; stalls, agent-seconds (summed over runs) after the first 0.5 s
// that an agent not yet arrived went slower than 5% of its max_speed with
// no other agent's centre within its radius + theirs + 2 of its radii,
// and (in brackets) the runs with a second or more of that; through a wall,
// agents whose centre crossed a wall; us/agent/tick, the median step's
// wall time over agents (one agent: mostly the world's own cost, see the
// time world above for the per-agent cost); vs blend, that over the blend's.
#include "steer.h"
#include "crowd_run.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static steer_Behavior *make(const char *kind)
{
    steer_Behavior *b = NULL;
    return steer_behavior_new(kind, &b) == STEER_OK ? b : NULL;
}

// The brain of the time world: blend or context of seek, avoid_agents,
// avoid_walls (NULL on failure).
static steer_Behavior *time_brain(bool context, int slots)
{
    steer_Behavior *seek = make("seek"), *agents = make("avoid_agents"), *walls = make("avoid_walls");
    steer_Behavior *b = make(context ? "context" : "blend");
    bool ok = seek && agents && walls && b;
    if (ok && context) {
        ok = steer_behavior_add_child_to(b, "interest", seek) == STEER_OK &&
             steer_behavior_add_child_to(b, "danger", agents) == STEER_OK &&
             steer_behavior_add_child_to(b, "danger", walls) == STEER_OK &&
             steer_behavior_set_number(b, "slots", slots) == STEER_OK;
    } else if (ok) {
        ok = steer_behavior_add_child(b, seek, 1) == STEER_OK && steer_behavior_add_child(b, agents, 2) == STEER_OK &&
             steer_behavior_add_child(b, walls, 2) == STEER_OK;
    }
    steer_behavior_release(seek);
    steer_behavior_release(agents);
    steer_behavior_release(walls);
    if (!ok) {
        steer_behavior_release(b);
        return NULL;
    }
    return b;
}

static int add_wall(steer_World *w, double x0, double y0, double x1, double y1)
{
    return steer_add_wall(w, (double[3]){ x0, y0, 0 }, (double[3]){ x1, y1, 0 }, NULL);
}

// Median ms of one tick; -1 on failure.
static double run_time(bool context, int n, int ticks, int slots)
{
    steer_WorldDesc wd = { .dim = 2, .seed = 1, .no_record = true, .threads = 1 };
    steer_World *w;
    if (steer_world_new(&wd, &w) != STEER_OK) return -1;
    steer_Behavior *brain = time_brain(context, slots);
    int bad = !brain || add_wall(w, 0, 0, 40, 0) || add_wall(w, 40, 0, 40, 40) || add_wall(w, 40, 40, 0, 40) ||
              add_wall(w, 0, 40, 0, 0) || add_wall(w, 14, 8, 14, 20) || add_wall(w, 26, 20, 26, 32);
    int side = (int)ceil(sqrt((double)n));
    for (int i = 0; i < n && !bad; i++) {
        double x = 2 + 36.0 * (i % side) / side, y = 2 + 36.0 * (i / side) / side;
        steer_AgentDesc ad = { .max_speed = 2, .max_force = 4, .radius = 0.4, .brain = brain };
        ad.position[0] = x;
        ad.position[1] = y;
        steer_Agent a;
        double goal[3] = { 40 - x, 40 - y, 0 };
        bad = steer_spawn(w, &ad, &a) != STEER_OK || steer_agent_set_target(w, a, goal, (steer_Agent){ 0 }) != STEER_OK;
    }
    double median = -1;
    if (!bad) {
        steer_world_step(w, 30);
        median = bench_step_median_ms(w, ticks);
    }
    steer_world_free(w);
    steer_behavior_release(brain);
    return median;
}

// The corner trap: 0 ok, -1 on failure.
static int run_trap(bool context)
{
    steer_WorldDesc wd = { .dim = 2, .seed = 3, .no_record = true, .threads = 1 };
    steer_World *w;
    if (steer_world_new(&wd, &w) != STEER_OK) return -1;
    double threat[3] = { 0, 3, 0 };
    steer_Behavior *flee = make("flee"), *walls = make("avoid_walls"), *b = make(context ? "context" : "blend");
    int bad = !flee || !walls || !b || add_wall(w, -30, 0, 30, 0) ||
              steer_behavior_set_target_point(flee, "target", threat) ||
              steer_behavior_set_number(flee, "panic_radius", 15) || steer_behavior_set_number(walls, "length", 2);
    if (!bad && context)
        bad = steer_behavior_add_child_to(b, "interest", flee) || steer_behavior_add_child_to(b, "danger", flee) ||
              steer_behavior_add_child_to(b, "danger", walls);
    else if (!bad) bad = steer_behavior_add_child(b, flee, 1) || steer_behavior_add_child(b, walls, 1);
    steer_AgentDesc ad = {
        .position = { 0, 1, 0 }, .velocity = { 0, -2, 0 }, .max_speed = 3, .max_force = 6, .radius = 0.5, .brain = b
    };
    steer_Agent a;
    bad = bad || steer_spawn(w, &ad, &a) != STEER_OK;
    double sum = 0, slow = 0, lowest = 1e30, p[3] = { 0, 0, 0 }, v[3];
    int ticks = 240;
    for (int t = 0; t < ticks && !bad; t++) {
        steer_world_step(w, 1);
        bad =
            steer_agent_vec(w, a, STEER_PROP_POSITION, p) != STEER_OK || steer_agent_vec(w, a, STEER_PROP_VELOCITY, v);
        double s = hypot(v[0], v[1]);
        sum += s;
        if (s < 0.5) slow += 1.0 / 60;
        if (p[1] < lowest) lowest = p[1];
    }
    if (!bad)
        printf("trap %-7s gained=%.2f mean=%.2f slow_s=%.2f lowest_y=%.2f\n", context ? "context" : "blend",
               hypot(p[0] - threat[0], p[1] - threat[1]) - 2, sum / ticks, slow, lowest);
    steer_world_free(w);
    steer_behavior_release(flee);
    steer_behavior_release(walls);
    steer_behavior_release(b);
    return bad ? -1 : 0;
}

// ---- --table: issue 36 item 3 ----------------------------------------------

#define STALL_SPEED 0.05 // of max_speed: slower is stopped
#define STALL_AFTER_S 0.5
#define CORNER_ESCAPE_M 6.0 // the corner's goal: this far from the threat

// What one (scene, method) pooled over its runs.
typedef struct Tally {
    int runs, agents, arrived, stalled_runs, crossed;
    double *times; // per run: when its last agent arrived, INFINITY if never
    double turn_sum, stall_s;
    long turn_samples;
    double *us; // per tick: µs per agent
    long nus, us_cap;
} Tally;

// One run as it goes: the observer of crowd_run_observed, or of the corner.
typedef struct Run {
    Tally *tally;
    int n;
    const double *goal, *radius, *max_speed; // 2n, n, n
    double reach;                            // reached: within reach of the goal (escape: farther than reach from it)
    bool escape;
    double dt, limit, all_t, stall_s;
    long ticks;
    int nreached;
    unsigned char *reached;
    double *dir;              // 2n: last tick's direction of motion, (0, 0) if stopped
    const CrowdObstacle *obs; // the scene's walls (and circles), for the crossings
    int nobs;
    double *prev;           // 2n: last tick's positions
    unsigned char *crossed; // n: went through a wall
} Run;

static void tally_us(Tally *t, double us)
{
    if (t->nus == t->us_cap) {
        long cap = t->us_cap ? 2 * t->us_cap : 4096;
        double *grown = realloc(t->us, sizeof *grown * (size_t)cap);
        if (!grown) return;
        t->us = grown;
        t->us_cap = cap;
    }
    t->us[t->nus++] = us;
}

// Whether no other agent's centre is within r_i + r_j + 2 r_i of agent i's.
static bool nobody_near(const Run *r, const double *pos, int i)
{
    for (int j = 0; j < r->n; j++) {
        double reach = r->radius[i] * 3 + r->radius[j];
        if (j != i && hypot(pos[2 * j] - pos[2 * i], pos[2 * j + 1] - pos[2 * i + 1]) < reach) return false;
    }
    return true;
}

static void run_tick(void *ctx, const double *pos, const double *vel, const double *heading, double ms)
{
    (void)heading;
    Run *r = ctx;
    double t = (double)++r->ticks * r->dt;
    tally_us(r->tally, ms * 1e3 / r->n);
    for (int i = 0; i < r->n; i++) {
        for (int k = 0; k < r->nobs && !r->crossed[i]; k++)
            r->crossed[i] = (unsigned char)crowd_step_crosses(&r->obs[k], &r->prev[2 * i], &pos[2 * i]);
        r->prev[2 * i] = pos[2 * i];
        r->prev[2 * i + 1] = pos[2 * i + 1];
        if (r->reached[i]) continue;
        double d = hypot(pos[2 * i] - r->goal[2 * i], pos[2 * i + 1] - r->goal[2 * i + 1]);
        if (r->escape ? d > r->reach : d <= r->reach) {
            r->reached[i] = 1;
            r->nreached++;
            continue;
        }
        double speed = hypot(vel[2 * i], vel[2 * i + 1]), *dir = &r->dir[2 * i];
        if (speed >= STALL_SPEED * r->max_speed[i]) {
            double ux = vel[2 * i] / speed, uy = vel[2 * i + 1] / speed;
            if (dir[0] != 0 || dir[1] != 0) {
                r->tally->turn_sum += fabs(atan2(dir[0] * uy - dir[1] * ux, dir[0] * ux + dir[1] * uy)) * 180 /
                                      3.14159265358979323846 / r->dt;
                r->tally->turn_samples++;
            }
            dir[0] = ux;
            dir[1] = uy;
        } else {
            dir[0] = dir[1] = 0;
            if (t > STALL_AFTER_S && nobody_near(r, pos, i)) r->stall_s += r->dt;
        }
    }
    if (r->all_t < 0 && r->nreached == r->n) r->all_t = t;
}

static int run_finished(void *ctx)
{
    const Run *r = ctx;
    return r->all_t >= 0 || (double)r->ticks * r->dt >= r->limit - 1e-9;
}

// A run of the scene s (its agents, goals and obstacles) at dt.
static Run run_begin(Tally *t, const CrowdScene *s, double dt)
{
    Run r = { .tally = t,
              .n = s->n,
              .goal = s->goal,
              .radius = s->radius,
              .max_speed = s->max_speed,
              .reach = 1,
              .dt = dt,
              .limit = s->time_limit,
              .all_t = -1,
              .obs = s->obs,
              .nobs = s->nobs,
              .reached = calloc((size_t)s->n, 1),
              .dir = calloc((size_t)(2 * s->n), sizeof(double)),
              .prev = malloc(sizeof(double) * 2 * (size_t)s->n),
              .crossed = calloc((size_t)s->n, 1) };
    if (!r.reached || !r.dir || !r.prev || !r.crossed) {
        fprintf(stderr, "steer-bench context: out of memory\n");
        exit(1);
    }
    memcpy(r.prev, s->start, sizeof(double) * 2 * (size_t)s->n);
    return r;
}

static void run_end(Run *r)
{
    Tally *t = r->tally;
    double *times = realloc(t->times, sizeof *times * (size_t)(t->runs + 1));
    if (!times) exit(1);
    t->times = times;
    t->times[t->runs++] = r->all_t >= 0 ? r->all_t : INFINITY;
    t->agents += r->n;
    t->arrived += r->nreached;
    t->stall_s += r->stall_s;
    t->stalled_runs += r->stall_s >= 1;
    for (int i = 0; i < r->n; i++) t->crossed += r->crossed[i];
    free(r->reached);
    free(r->dir);
    free(r->prev);
    free(r->crossed);
}

static void run_crowd(Tally *t, const char *method, const CrowdScene *s, double dt)
{
    Run r = run_begin(t, s, dt);
    crowd_run_observed(method, s, dt, &(CrowdObserver){ .ctx = &r, .tick = run_tick, .finished = run_finished });
    run_end(&r);
}

// The 1.6 m doorway: a wall on x = 0 (y -30 to 30) with a gap y in
// [-0.8, 0.8]; one agent (r 0.3, 1.4 m/s) from (-8, s) to (8, -s), so its
// straight line goes through the middle of the gap, s = -2 .. 2 by 0.5
// (variant 0 .. 8); no waypoint; 60 s.
static void door16_scene(CrowdScene *s, int variant)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "door16");
    s->n = 1;
    s->nobs = 2;
    s->time_limit = 60;
    s->start = calloc(2, sizeof(double));
    s->goal = calloc(2, sizeof(double));
    s->radius = calloc(1, sizeof(double));
    s->max_speed = calloc(1, sizeof(double));
    s->obs = calloc(2, sizeof(CrowdObstacle));
    if (!s->start || !s->goal || !s->radius || !s->max_speed || !s->obs) {
        fprintf(stderr, "steer-bench context: out of memory\n");
        exit(1);
    }
    double y = -2 + 0.5 * variant;
    s->start[0] = -8;
    s->start[1] = y;
    s->goal[0] = 8;
    s->goal[1] = -y;
    s->radius[0] = 0.3;
    s->max_speed[0] = 1.4;
    const double ends[2][4] = { { 0, -30, 0, -0.8 }, { 0, 0.8, 0, 30 } };
    for (int k = 0; k < 2; k++) {
        s->obs[k].kind = CROWD_SEGMENT;
        memcpy(s->obs[k].a, ends[k], 2 * sizeof(double));
        memcpy(s->obs[k].b, ends[k] + 2, 2 * sizeof(double));
    }
}

// The corner: walls along y = 0 and x = 0 (0 to 20 m), an agent (r 0.5,
// 3 m/s, max_force 6) 1.5 m out on the diagonal moving into the corner at
// 2 m/s, a threat 3.5 m from the corner at angle 5 + 10 k degrees from the
// x wall (variant k = 0 .. 8; k = 4 on the diagonal): flee (panic radius
// 15) and avoid_walls (length 2) blended, prioritised (walls first) or
// context{ interest = { flee }, danger = { flee, avoid_walls } }; the goal
// is to be more than CORNER_ESCAPE_M from the threat; 20 s at 60 Hz.
static void run_corner(Tally *t, const char *method, int variant)
{
    steer_WorldDesc wd = { .dim = 2, .seed = 3, .no_record = true, .threads = 1 };
    steer_World *w;
    double a = (5 + 10.0 * variant) * 3.14159265358979323846 / 180;
    double threat[3] = { 3.5 * cos(a), 3.5 * sin(a), 0 };
    steer_Behavior *flee = make("flee"), *walls = make("avoid_walls"), *b = make(method);
    bool context = !strcmp(method, "context");
    int bad = steer_world_new(&wd, &w) != STEER_OK;
    bad = bad || !flee || !walls || !b || add_wall(w, 0, 0, 20, 0) || add_wall(w, 0, 0, 0, 20) ||
          steer_behavior_set_target_point(flee, "target", threat) ||
          steer_behavior_set_number(flee, "panic_radius", 15) || steer_behavior_set_number(walls, "length", 2);
    if (!bad && context)
        bad = steer_behavior_add_child_to(b, "interest", flee) || steer_behavior_add_child_to(b, "danger", flee) ||
              steer_behavior_add_child_to(b, "danger", walls);
    else if (!bad && !strcmp(method, "priority"))
        bad = steer_behavior_add_child(b, walls, 1) || steer_behavior_add_child(b, flee, 1);
    else if (!bad) bad = steer_behavior_add_child(b, flee, 1) || steer_behavior_add_child(b, walls, 1);
    double d = 1.5 / sqrt(2), radius = 0.5, max_speed = 3;
    steer_AgentDesc ad = { .position = { d, d, 0 },
                           .velocity = { -sqrt(2), -sqrt(2), 0 },
                           .max_speed = max_speed,
                           .max_force = 6,
                           .radius = radius,
                           .brain = b };
    steer_Agent agent;
    bad = bad || steer_spawn(w, &ad, &agent) != STEER_OK;
    if (bad) {
        fprintf(stderr, "steer-bench context: the corner world failed\n");
        exit(1);
    }
    CrowdObstacle walls_xy[2] = { { .kind = CROWD_SEGMENT, .a = { 0, 0 }, .b = { 20, 0 } },
                                  { .kind = CROWD_SEGMENT, .a = { 0, 0 }, .b = { 0, 20 } } };
    CrowdScene s = { .n = 1,
                     .start = (double[2]){ d, d },
                     .goal = threat,
                     .radius = &radius,
                     .max_speed = &max_speed,
                     .nobs = 2,
                     .obs = walls_xy,
                     .time_limit = 20 };
    Run r = run_begin(t, &s, 1.0 / 60);
    r.reach = CORNER_ESCAPE_M;
    r.escape = true;
    while (!run_finished(&r)) {
        double t0 = bench_now_ms();
        steer_world_step(w, 1);
        double ms = bench_now_ms() - t0, p[3], v[3];
        steer_agent_vec(w, agent, STEER_PROP_POSITION, p);
        steer_agent_vec(w, agent, STEER_PROP_VELOCITY, v);
        run_tick(&r, p, v, v, ms);
    }
    run_end(&r);
    steer_world_free(w);
    steer_behavior_release(flee);
    steer_behavior_release(walls);
    steer_behavior_release(b);
}

// Prints the table's row of t and frees it; blend_us: the blend's figure of
// the scene (0: this is the blend).
static double print_row(const char *scene, const char *method, Tally *t, double blend_us)
{
    double time = crowd_median(t->times, t->runs), us = crowd_median(t->us, t->nus);
    char time_s[32];
    if (isinf(time)) snprintf(time_s, sizeof time_s, "never");
    else snprintf(time_s, sizeof time_s, "%.1f", time);
    printf("| %s | %d x %d | %s | %d/%d | %s | %.1f | %.1f (%d) | %d | %.2f | %.2f |\n", scene, t->runs,
           t->agents / t->runs, method, t->arrived, t->agents, time_s,
           t->turn_samples ? t->turn_sum / (double)t->turn_samples : 0, t->stall_s, t->stalled_runs, t->crossed, us,
           blend_us > 0 ? us / blend_us : 1.0);
    fflush(stdout);
    free(t->times);
    free(t->us);
    return us;
}

static int run_table(int layouts)
{
    static const char *const scenes[] = { "fields", "doorway", "door16", "corner" };
    static const char *const methods[] = { "blend", "priority", "context" };
    printf("| scene | runs x agents | method | arrived | time (s) | jitter (deg/s) | stalls (agent-s, runs) | "
           "through a wall | us/agent/tick | vs blend |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < 4; k++) {
        double blend_us = 0;
        for (int m = 0; m < 3; m++) {
            Tally t = { 0 };
            int nruns = k == 0 ? layouts : k == 1 ? 1 : 9;
            for (int v = 0; v < nruns; v++) {
                CrowdScene s;
                if (k == 3) {
                    run_corner(&t, methods[m], v);
                    continue;
                }
                if (k == 2) door16_scene(&s, v);
                else if (crowd_scene_make(scenes[k], v, &s)) return -1;
                run_crowd(&t, methods[m], &s, 1.0 / 60);
                crowd_scene_free(&s);
            }
            double us = print_row(scenes[k], methods[m], &t, blend_us);
            if (m == 0) blend_us = us;
        }
    }
    return 0;
}

int steer_bench_context(int argc, char **argv)
{
    int n = 400, ticks = 60, runs = 1, slots = 16, ok = 1, table = 0, layouts = 100;
    for (int i = 2; i < argc && ok; i++) {
        if (!strcmp(argv[i], "--table")) table = 1;
        else if (!strcmp(argv[i], "--layouts") && i + 1 < argc) layouts = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ticks") && i + 1 < argc) ticks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--slots") && i + 1 < argc) slots = atoi(argv[++i]);
        else ok = 0;
    }
    if (!ok || n < 1 || ticks < 1 || runs < 1 || slots < 4 || slots > 64 || layouts < 1 || layouts > 100) {
        fprintf(stderr, "usage: steer-bench context [--n N] [--ticks T] [--runs R] [--slots S]\n"
                        "       steer-bench context --table [--layouts K]\n");
        return 2;
    }
    if (table) return run_table(layouts) ? 1 : 0;
    for (int r = 0; r < runs; r++) {
        double blend = run_time(false, n, ticks, slots), context = run_time(true, n, ticks, slots);
        if (blend < 0 || context < 0) {
            fprintf(stderr, "steer-bench context: a world failed\n");
            return 1;
        }
        printf("context n=%d ticks=%d slots=%d blend_us=%.2f context_us=%.2f ratio=%.2f\n", n, ticks, slots,
               blend * 1e3 / n, context * 1e3 / n, context / blend);
        fflush(stdout);
    }
    if (run_trap(false) || run_trap(true)) {
        fprintf(stderr, "steer-bench context: the trap world failed\n");
        return 1;
    }
    return 0;
}
