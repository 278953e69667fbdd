// SPDX-License-Identifier: MIT
// crowd.c — steer-bench crowd: issue 18's crowd scenarios (crowd_scen.c)
// run on steer the way a script author composes a crowd, scored by the same
// code the RVO2 peer harness (bench/peers/rvo2_crowd.cpp) uses. Figures, not
// tests.
//
//   steer-bench crowd [--scenario NAME|all] [--dt 0.25|0.0167|both] [--method blend|priority|context|orca]
//                     [--collide] [--threads N] [--variants K] [--horizon T] [--obstacle-horizon T]
//                     [--jitter K] [--max-overlap X] [--nav waypoints|mesh]
//
// Every scenario (default all) at each dt (default both; 0.0167 is exactly
// 1/60 s) runs until crowd_metrics_finished says so (everyone arrived plus
// the 10 s settle window, or the scenario's time limit) and prints one line
// (keys in crowd_scen.h). --variants K runs only the first K of a
// scenario's variants (the obstacle fields have 100). --collide turns on the
// world's non-penetration pass (the method prints as M+collide). --jitter K
// runs layout K of each scene (crowd_scene_jitter: every start moved by up
// to 5 cm; 0, the default, is the scene itself), as `rvo2-crowd --jitter K`.
//
// The methods (brain_new), each agent's target its goal:
//   blend     blend{ avoid_agents{horizon 2}, arrive{slow_radius 3,
//             stop_radius 0.2} }, all weights 1, plus avoid_obstacles{} and
//             avoid_walls{} when the scene has obstacles: what
//             demos/crowd.lua and `steer-bench crossing` do
//   priority  priority{ avoid_agents, arrive }, after avoid_obstacles and
//             avoid_walls when the scene has obstacles
//   context   context{ interest = { arrive }, danger = { avoid_obstacles,
//             avoid_walls, avoid_agents } } (16 slots; the first two only
//             when the scene has obstacles): the same children as blend,
//             as maps (issue 36)
//   orca      reciprocal{ arrive } (among circles reciprocal{ priority{
//             avoid_obstacles, arrive } }: avoid_obstacles finds the way
//             round clutter, walls need no more than the solve and the
//             scene's waypoints); --horizon and --obstacle-horizon
//             set its numbers, else it keeps its defaults; --max-overlap X
//             sets its max_overlap (0: off; the method then prints as
//             orca+max_overlap=X); without it, reciprocal's default (on at
//             large steps, see docs/api.md)
// In a scene with waypoints (crowd_scene_target), an agent not yet past its
// waypoint has the same brain with seek{} (full speed) in arrive's place,
// as RVO2's harness heads for a waypoint at full speed: arrive only at the
// final goal, no braking in the gap.
// --nav mesh (the scenes with walls: those with a CrowdScene.outline; with
// --scenario all, only those run): the way comes from a navigation mesh
// instead of the waypoints. The scene's outline less its walls (each
// thickened by CROWD_WALL_HALF either side) becomes one mesh
// (steer_navmesh_new), whose walls are the world's (bench_add_mesh_walls,
// as w:add_navmesh does; the scene's own segments are not added), and
// navigate{ navmesh, slow_radius 3, stop_radius 0.2 } takes arrive's place
// in the method's brain, every agent's target its goal: the crowd recipe
// reciprocal{ navigate } for orca. navigate goes at full speed to each
// corner and arrives at the goal, as the waypoint leg does. The method
// prints as M+navmesh.
// The vehicle: mass 1, the scene's max_speed and radius, max_force 8 x
// max_speed (one step of 0.25 s can reverse a full-speed velocity).
#include "steer.h"
#include "crowd_run.h"
#include "mesh_walls.h"
#include "steer_nav.h"
#include "timing.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CrowdOptions {
    const char *scenario; // NULL: all
    double dt[2];
    int ndt;
    const char *method;
    bool collide;
    int threads, variants;            // variants 0: all
    int jitter;                       // the layout, crowd_scene_jitter's K
    double horizon, obstacle_horizon; // 0: the behaviour's default
    double max_overlap;               // reciprocal's max_overlap (< 0: not given, its default)
    bool mesh;                        // --nav mesh: navigate on the scene's mesh instead of waypoints
} CrowdOptions;

static void crowd_must(int st, const char *what)
{
    if (st != STEER_OK) {
        fprintf(stderr, "steer-bench crowd: %s failed (%d)\n", what, st);
        exit(1);
    }
}

static steer_Behavior *node(const char *kind)
{
    steer_Behavior *b;
    crowd_must(steer_behavior_new(kind, &b), kind);
    return b;
}

// Adds child to parent with weight 1 and drops the caller's reference.
static void adopt(steer_Behavior *parent, steer_Behavior *child)
{
    crowd_must(steer_behavior_add_child(parent, child, 1), steer_behavior_kind(parent));
    steer_behavior_release(child);
}

// Adds child to parent's list `field` (a context's interest or danger) and
// drops the caller's reference.
static void adopt_to(steer_Behavior *parent, const char *field, steer_Behavior *child)
{
    crowd_must(steer_behavior_add_child_to(parent, field, child), field);
    steer_behavior_release(child);
}

static steer_Behavior *arrive_node(void)
{
    steer_Behavior *b = node("arrive");
    crowd_must(steer_behavior_set_number(b, "slow_radius", 3), "arrive slow_radius");
    crowd_must(steer_behavior_set_number(b, "stop_radius", 0.2), "arrive stop_radius");
    return b;
}

// The goal leg: arrive at the final goal; full speed (seek) towards a
// waypoint on the way, as RVO2's harness does (bench/peers/rvo2_crowd.cpp);
// on a mesh, navigate (full speed to each corner, arriving at the goal).
static steer_Behavior *goal_node(bool final, const steer_NavMesh *mesh)
{
    if (!mesh) return final ? arrive_node() : node("seek");
    steer_Behavior *b = node("navigate");
    crowd_must(steer_behavior_set_navmesh(b, "navmesh", mesh), "navigate navmesh");
    crowd_must(steer_behavior_set_number(b, "slow_radius", 3), "navigate slow_radius");
    crowd_must(steer_behavior_set_number(b, "stop_radius", 0.2), "navigate stop_radius");
    return b;
}

static steer_Behavior *avoid_agents_node(void)
{
    steer_Behavior *b = node("avoid_agents");
    crowd_must(steer_behavior_set_number(b, "horizon", 2), "avoid_agents horizon");
    return b;
}

// The brain every agent of a run shares: the one place that says what each
// method is. `obstacles`: the scene has circles or walls; `final`: for the
// leg to the goal (else the leg to a waypoint); `mesh`: the way's (NULL:
// none, the scene's waypoints).
static steer_Behavior *brain_new(const CrowdOptions *o, bool obstacles, bool circles, bool final,
                                 const steer_NavMesh *mesh)
{
    if (!strcmp(o->method, "orca")) {
        steer_Behavior *r;
        if (steer_behavior_new("reciprocal", &r) != STEER_OK) {
            fprintf(stderr, "steer-bench crowd: this build has no behaviour kind 'reciprocal' (method orca)\n");
            exit(2);
        }
        if (o->horizon > 0) crowd_must(steer_behavior_set_number(r, "horizon", o->horizon), "reciprocal horizon");
        if (o->obstacle_horizon > 0)
            crowd_must(steer_behavior_set_number(r, "obstacle_horizon", o->obstacle_horizon),
                       "reciprocal obstacle_horizon");
        if (o->max_overlap >= 0)
            crowd_must(steer_behavior_set_number(r, "max_overlap", o->max_overlap), "reciprocal max_overlap");
        steer_Behavior *goal = goal_node(final, mesh);
        if (circles) {
            steer_Behavior *p = node("priority");
            adopt(p, node("avoid_obstacles"));
            adopt(p, goal);
            goal = p;
        }
        adopt(r, goal);
        return r;
    }
    if (!strcmp(o->method, "context")) {
        steer_Behavior *c = node("context");
        adopt_to(c, "interest", goal_node(final, mesh));
        if (obstacles) {
            adopt_to(c, "danger", node("avoid_obstacles"));
            adopt_to(c, "danger", node("avoid_walls"));
        }
        adopt_to(c, "danger", avoid_agents_node());
        return c;
    }
    steer_Behavior *top = node(o->method); // "blend" or "priority", checked by the caller
    if (obstacles) {
        adopt(top, node("avoid_obstacles"));
        adopt(top, node("avoid_walls"));
    }
    adopt(top, avoid_agents_node());
    adopt(top, goal_node(final, mesh));
    return top;
}

// --nav mesh: the scene's outline less its walls, each a quad of the
// segment thickened by CROWD_WALL_HALF either side (not past its ends, so
// a gap keeps its width).
static steer_NavMesh *scene_mesh(const CrowdScene *s)
{
    int nxy = 2 * s->noutline + 8 * s->nobs;
    double *xy = malloc(sizeof *xy * (size_t)nxy);
    uint32_t *end = malloc(sizeof *end * (size_t)(1 + s->nobs));
    int32_t *role = malloc(sizeof *role * (size_t)(1 + s->nobs));
    if (!xy || !end || !role) {
        fprintf(stderr, "steer-bench crowd: out of memory\n");
        exit(1);
    }
    memcpy(xy, s->outline, sizeof *xy * 2 * (size_t)s->noutline);
    int k = 2 * s->noutline, nrings = 1;
    end[0] = (uint32_t)s->noutline;
    role[0] = STEER_RING_OUTLINE;
    for (int j = 0; j < s->nobs; j++) {
        const CrowdObstacle *ob = &s->obs[j];
        if (ob->kind != CROWD_SEGMENT) continue; // scenes with an outline have only walls
        double ex = ob->b[0] - ob->a[0], ey = ob->b[1] - ob->a[1], len = hypot(ex, ey);
        double nx = -ey / len * CROWD_WALL_HALF, ny = ex / len * CROWD_WALL_HALF;
        const double quad[8] = { ob->a[0] - nx, ob->a[1] - ny, ob->b[0] - nx, ob->b[1] - ny,
                                 ob->b[0] + nx, ob->b[1] + ny, ob->a[0] + nx, ob->a[1] + ny };
        memcpy(xy + k, quad, sizeof quad);
        k += 8;
        end[nrings] = (uint32_t)(k / 2);
        role[nrings++] = STEER_RING_OBSTACLE;
    }
    steer_NavMeshDesc d = { .xy = xy, .ring_end = end, .ring_role = role, .nrings = nrings, .nareas = 1 };
    steer_NavMesh *m;
    if (steer_navmesh_new(&d, &m) != STEER_OK) {
        fprintf(stderr, "steer-bench crowd: %s's navigation mesh: %s\n", s->name, steer_last_error());
        exit(1);
    }
    free(xy);
    free(end);
    free(role);
    return m;
}

// A steer world for the scene: its walls and circles (--nav mesh: the
// mesh's walls), and its agents with their goals as targets. agents
// receives the handles; brains[0] the brain of the leg to a waypoint (NULL:
// the scene has none, or the way is the mesh's), brains[1] of the leg to
// the goal, both kept alive by the world while an agent uses them.
static steer_World *scene_world(const CrowdOptions *o, const CrowdScene *s, double dt, steer_Agent *agents,
                                unsigned char *past, steer_Behavior *brains[2])
{
    steer_WorldDesc wd = { 0 }; // size 0: unbounded
    wd.dim = 2;
    wd.seed = 12345;
    wd.dt = dt;
    wd.no_record = true;
    wd.threads = o->threads;
    wd.collide = o->collide;
    steer_World *w;
    crowd_must(steer_world_new(&wd, &w), "world");
    crowd_must(steer_world_reserve(w, s->n), "reserve");
    steer_NavMesh *mesh = o->mesh ? scene_mesh(s) : NULL; // the brains and the world hold it
    if (mesh) crowd_must(bench_add_mesh_walls(w, mesh), "the mesh's walls");
    for (int k = 0; k < s->nobs && !mesh; k++) {
        const CrowdObstacle *ob = &s->obs[k];
        if (ob->kind == CROWD_CIRCLE) {
            double c[3] = { ob->c[0], ob->c[1], 0 };
            crowd_must(steer_add_circle(w, c, ob->r, NULL), "circle");
        } else {
            double a[3] = { ob->a[0], ob->a[1], 0 }, b[3] = { ob->b[0], ob->b[1], 0 };
            crowd_must(steer_add_wall(w, a, b, NULL), "wall");
        }
    }
    bool circles = false;
    for (int k = 0; k < s->nobs; k++) circles |= s->obs[k].kind == CROWD_CIRCLE;
    bool via = s->via && !mesh;
    brains[0] = via ? brain_new(o, s->nobs > 0, circles, false, NULL) : NULL;
    brains[1] = brain_new(o, s->nobs > 0, circles, true, mesh);
    steer_navmesh_free(mesh);
    for (int i = 0; i < s->n; i++) {
        const double *t = via ? crowd_scene_target(s, i, &s->start[2 * i], &past[i]) : &s->goal[2 * i];
        steer_AgentDesc ad = { .position = { s->start[2 * i], s->start[2 * i + 1], 0 },
                               .mass = 1,
                               .max_speed = s->max_speed[i],
                               .max_force = 8 * s->max_speed[i],
                               .radius = s->radius[i],
                               .brain = brains[via && !past[i] ? 0 : 1] };
        crowd_must(steer_spawn(w, &ad, &agents[i]), "spawn");
        double goal[3] = { t[0], t[1], 0 };
        crowd_must(steer_agent_set_target(w, agents[i], goal, STEER_NO_AGENT), "target");
    }
    return w;
}

// One run of the scene at dt: steps until the observer calls it finished,
// handing it every tick's state.
static void run_observed(const CrowdOptions *o, const CrowdScene *s, double dt, const CrowdObserver *ob)
{
    int n = s->n;
    steer_Agent *agents = malloc(sizeof *agents * (size_t)n);
    double *pos = malloc(sizeof *pos * 2 * (size_t)n), *vel = malloc(sizeof *vel * 2 * (size_t)n);
    double *heading = malloc(sizeof *heading * 2 * (size_t)n);
    unsigned char *past = calloc((size_t)n, 1); // past its waypoint (crowd_scene_target)
    if (!agents || !pos || !vel || !heading || !past) {
        fprintf(stderr, "steer-bench crowd: out of memory\n");
        exit(1);
    }
    steer_Behavior *brains[2];
    steer_World *w = scene_world(o, s, dt, agents, past, brains);
    while (!ob->finished(ob->ctx)) {
        double t0 = bench_now_ms();
        crowd_must(steer_world_step(w, 1), "step");
        double ms = bench_now_ms() - t0;
        for (int i = 0; i < n; i++) {
            double p[3], v[3], h[3];
            steer_agent_vec(w, agents[i], STEER_PROP_POSITION, p);
            steer_agent_vec(w, agents[i], STEER_PROP_VELOCITY, v);
            steer_agent_vec(w, agents[i], STEER_PROP_HEADING, h);
            memcpy(&pos[2 * i], p, 2 * sizeof(double));
            memcpy(&vel[2 * i], v, 2 * sizeof(double));
            memcpy(&heading[2 * i], h, 2 * sizeof(double));
            if (brains[0]) {
                // on to the goal once past the waypoint, back to it if pushed back
                unsigned char was = past[i];
                const double *t = crowd_scene_target(s, i, p, &past[i]);
                double goal[3] = { t[0], t[1], 0 };
                if (past[i] != was) {
                    crowd_must(steer_agent_set_target(w, agents[i], goal, STEER_NO_AGENT), "target");
                    crowd_must(steer_agent_set_brain(w, agents[i], brains[past[i] ? 1 : 0]), "brain");
                }
            }
        }
        ob->tick(ob->ctx, pos, vel, heading, ms);
    }
    steer_world_free(w);
    for (int k = 0; k < 2; k++)
        if (brains[k]) steer_behavior_release(brains[k]);
    free(agents);
    free(pos);
    free(vel);
    free(heading);
    free(past);
}

void crowd_run_observed(const char *method, const CrowdScene *s, double dt, const CrowdObserver *ob)
{
    CrowdOptions o = { .method = method, .threads = 1, .max_overlap = -1 };
    run_observed(&o, s, dt, ob);
}

static void metrics_tick(void *m, const double *pos, const double *vel, const double *heading, double ms)
{
    crowd_metrics_tick(m, pos, vel, heading, ms);
}
static int metrics_finished(void *m) { return crowd_metrics_finished(m); }

// One run of the scene at dt, scored by the crowd metrics.
static CrowdMetrics *run_scene(const CrowdOptions *o, const CrowdScene *s, double dt)
{
    CrowdMetrics *m = crowd_metrics_new(s, dt);
    if (!m) {
        fprintf(stderr, "steer-bench crowd: out of memory\n");
        exit(1);
    }
    run_observed(o, s, dt, &(CrowdObserver){ .ctx = m, .tick = metrics_tick, .finished = metrics_finished });
    return m;
}

// Every variant (up to --variants) of one scenario at one dt; one line.
static void run_scenario(const CrowdOptions *o, const char *name, double dt)
{
    int nruns = crowd_scene_variants(name);
    if (o->variants > 0 && o->variants < nruns) nruns = o->variants;
    CrowdMetrics **runs = malloc(sizeof *runs * (size_t)nruns);
    if (!runs) exit(1);
    for (int v = 0; v < nruns; v++) {
        CrowdScene s;
        if (crowd_scene_make(name, v, &s)) {
            fprintf(stderr, "steer-bench crowd: could not build %s variant %d\n", name, v);
            exit(1);
        }
        crowd_scene_jitter(&s, o->jitter);
        runs[v] = run_scene(o, &s, dt);
        crowd_scene_free(&s);
    }
    char method[80];
    char overlap[32] = "";
    if (o->max_overlap >= 0) snprintf(overlap, sizeof overlap, "+max_overlap=%g", o->max_overlap);
    snprintf(method, sizeof method, "%s%s%s%s", o->method, overlap, o->mesh ? "+navmesh" : "",
             o->collide ? "+collide" : "");
    crowd_metrics_print(stdout, runs, nruns, "steer", method);
    fflush(stdout);
    for (int v = 0; v < nruns; v++) crowd_metrics_free(runs[v]);
    free(runs);
}

static int crowd_usage(void)
{
    fprintf(stderr, "usage: steer-bench crowd [--scenario NAME|all] [--dt 0.25|1/60|both] "
                    "[--method blend|priority|context|orca]\n"
                    "                         [--collide] [--threads N] [--variants K] [--horizon T] "
                    "[--obstacle-horizon T] [--jitter K]\n"
                    "                         [--max-overlap X] [--nav waypoints|mesh]\n"
                    "scenarios:");
    for (const char *const *s = crowd_scene_names; *s; s++) fprintf(stderr, " %s", *s);
    fprintf(stderr, "\n");
    return 2;
}

// --dt's value: both, or one step as a number or a fraction (0.0167 and
// 1/60 both mean 1/60 exactly, as the RVO2 peer reads them); 0 if bad (a
// value with anything after its number: atof read "1/60" as 1 s).
static int parse_dt(const char *arg, CrowdOptions *o)
{
    if (!strcmp(arg, "both")) {
        o->dt[0] = 1.0 / 60.0;
        o->dt[1] = 0.25;
        return o->ndt = 2;
    }
    char *end;
    double dt = strtod(arg, &end);
    if (*end == '/') {
        double den = strtod(end + 1, &end);
        dt = den > 0 ? dt / den : 0;
    }
    if (*end || !(dt > 0 && dt <= 1)) return 0;
    o->dt[0] = fabs(dt - 1.0 / 60.0) < 1e-3 ? 1.0 / 60.0 : dt;
    return o->ndt = 1;
}

// Whether the scene has walkable ground to make a mesh of (--nav mesh).
static bool scene_has_outline(const char *name)
{
    CrowdScene s;
    if (crowd_scene_make(name, 0, &s)) return false;
    bool has = s.outline != NULL;
    crowd_scene_free(&s);
    return has;
}

int steer_bench_crowd(int argc, char **argv)
{
    CrowdOptions o = { .method = "blend", .threads = 1, .max_overlap = -1 };
    parse_dt("both", &o);
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--collide")) {
            o.collide = true;
            continue;
        }
        if (i + 1 >= argc) return crowd_usage();
        const char *val = argv[++i];
        if (!strcmp(arg, "--scenario")) o.scenario = strcmp(val, "all") ? val : NULL;
        else if (!strcmp(arg, "--dt")) {
            if (!parse_dt(val, &o)) return crowd_usage();
        } else if (!strcmp(arg, "--method")) o.method = val;
        else if (!strcmp(arg, "--threads")) o.threads = atoi(val);
        else if (!strcmp(arg, "--variants")) o.variants = atoi(val);
        else if (!strcmp(arg, "--horizon")) o.horizon = atof(val);
        else if (!strcmp(arg, "--obstacle-horizon")) o.obstacle_horizon = atof(val);
        else if (!strcmp(arg, "--jitter")) o.jitter = atoi(val);
        else if (!strcmp(arg, "--max-overlap")) {
            o.max_overlap = atof(val);
            if (!(o.max_overlap >= 0 && o.max_overlap <= 1)) return crowd_usage();
        } else if (!strcmp(arg, "--nav") && (!strcmp(val, "mesh") || !strcmp(val, "waypoints")))
            o.mesh = !strcmp(val, "mesh");
        else return crowd_usage();
    }
    bool known_method = !strcmp(o.method, "blend") || !strcmp(o.method, "priority") || !strcmp(o.method, "orca") ||
                        !strcmp(o.method, "context");
    if (!known_method || o.threads < 1 || o.threads > STEER_MAX_THREADS || o.variants < 0 || o.jitter < 0 ||
        o.horizon < 0 || o.obstacle_horizon < 0 || (o.scenario && !crowd_scene_variants(o.scenario)))
        return crowd_usage();
    if (o.mesh && o.scenario && !scene_has_outline(o.scenario)) {
        fprintf(stderr, "steer-bench crowd: --nav mesh: scenario %s has no walls to make a mesh of\n", o.scenario);
        return 2;
    }
    for (const char *const *name = crowd_scene_names; *name; name++) {
        if (o.scenario && strcmp(o.scenario, *name)) continue;
        if (o.mesh && !scene_has_outline(*name)) continue;
        for (int k = 0; k < o.ndt; k++) run_scenario(&o, *name, o.dt[k]);
    }
    return 0;
}
