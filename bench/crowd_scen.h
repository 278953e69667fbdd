// SPDX-License-Identifier: MIT
// crowd_scen.h — the crowd benchmark's scenarios and metrics, shared by
// `steer-bench crowd` (C, on steer) and the RVO2 peer harness (C++,
// bench/peers/rvo2_crowd.cpp), so that both run the same scenes and score
// them with the same code. Plain C99, no steer types: a harness turns a
// CrowdScene into its own world, steps it, and hands every tick's state to
// crowd_metrics_tick.
//
// Units are metres and seconds; everything is 2D (x, y pairs).
#ifndef STEER_BENCH_CROWD_SCEN_H
#define STEER_BENCH_CROWD_SCEN_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { CROWD_CIRCLE = 0, CROWD_SEGMENT = 1 };

// CROWD_CIRCLE: a disc of centre c and radius r. CROWD_SEGMENT: a wall from
// a to b of zero thickness. The fields of the other kind are zero.
typedef struct CrowdObstacle {
    int kind;
    double c[2], r;
    double a[2], b[2];
} CrowdObstacle;

// One run's setup. Agents all have mass 1; start and goal hold 2n numbers
// (x, y per agent), radius and max_speed n. time_limit is the simulated time
// after which the run counts as "never".
typedef struct CrowdScene {
    char name[32];
    int n;
    double *start, *goal;
    double *radius, *max_speed;
    int nobs;
    CrowdObstacle *obs;
    double time_limit;
    double *via; // NULL, or 4n: per agent a waypoint and a normal (x, y, nx, ny), see crowd_scene_target
    int layout;  // 0, or the K of crowd_scene_jitter
    // NULL, or the walkable ground of a scene with walls, for a harness that
    // builds a navigation mesh of it (steer-bench crowd --nav mesh): one ring
    // of noutline points (x, y pairs, counter-clockwise) holding every start
    // and goal; the scene's walls, thickened by CROWD_WALL_HALF either side,
    // are carved out of it (where a wall lies on the ring, that only moves
    // the edge in by CROWD_WALL_HALF).
    double *outline;
    int noutline;
} CrowdScene;

// Half the thickness a wall gets on a navigation mesh (m): walls are
// segments, a mesh needs ground on each side of them to be two sides.
#define CROWD_WALL_HALF 0.01

// The scenarios, NULL-terminated, in print order.
extern const char *const crowd_scene_names[];
// Runs per scenario: 100 for the obstacle fields (the variant seeds the
// layout), 1 for the others; 0 for an unknown name.
int crowd_scene_variants(const char *name);
// Builds variant `variant` (0 .. variants - 1) of a scenario into *out: 0, or
// -1 for an unknown name or variant (then *out holds nothing to free).
int crowd_scene_make(const char *name, int variant, CrowdScene *out);
void crowd_scene_free(CrowdScene *s);
// Layout K of a scene (issue 31: single runs of the narrow scenes are
// chaotic, so they compare on medians over layouts): moves every start
// position by an offset uniform in [-5, 5] cm in x and in y, drawn from a
// splitmix64 stream seeded by K, agent by agent. K = 0 leaves the scene as
// it is, bit for bit. The same K gives every harness the same starts.
// Metric lines of a run of layout K > 0 carry layout=K.
void crowd_scene_jitter(CrowdScene *s, int layout);
// Where agent i at pos heads now: its waypoint while it is not past it along
// the waypoint's normal, else its goal (a scene without waypoints: the
// goal). The route a game's path planner would give through a doorway or
// into a funnel, the same for every system. A harness heads for the
// waypoint at full speed (no braking, no landing on it), so it goes
// through. *past: set to whether it is past (an agent pushed back heads for
// the waypoint again).
const double *crowd_scene_target(const CrowdScene *s, int i, const double pos[2], unsigned char *past);
// Whether the step from p0 to p1 goes through the wall o (strictly: both
// ends off the wall's line on opposite sides, and the wall's ends on
// opposite sides of the step); 0 for a circle.
int crowd_step_crosses(const CrowdObstacle *o, const double *p0, const double *p1);
// The median of v (sorted in place); the mean of the middle two for even
// n; NaN for none.
double crowd_median(double *v, long n);

// The score of one run; it copies what it needs of the scene, which may be
// freed once this is made.
typedef struct CrowdMetrics CrowdMetrics;
CrowdMetrics *crowd_metrics_new(const CrowdScene *s, double dt);
// After every step (not for the starting state): positions, velocities and
// unit headings (2n numbers each) and the wall time of that step in ms.
void crowd_metrics_tick(CrowdMetrics *m, const double *pos, const double *vel, const double *heading, double ms);
// 1 when every agent has arrived and the 10 s settle window after the last
// arrival has passed, or the time limit is reached; else 0.
int crowd_metrics_finished(const CrowdMetrics *m);
// Pools the runs (variants) of one scenario at one dt and prints one line:
//   crowd system=S method=M scenario=NAME [layout=K] dt=DT n=N runs=R arrived=K/T time_s=X|never
//     overlap_pairs=P deepest_r=X [obstacle_depth_m=X fields_penetrated=K/R walls_crossed=K]
//     path_ratio=X settled_speed=X settled_turn_dps=X settled_speed_max=X settled_turn_max=X ms_per_tick=X
// (one line; the obstacle keys only for scenes with obstacles; a figure with
// nothing to measure, such as the settle window of a run that never
// finished, prints as -). crowd_scen.c's header says what each key means.
void crowd_metrics_print(FILE *out, CrowdMetrics *const *runs, int nruns, const char *system, const char *method);
void crowd_metrics_free(CrowdMetrics *m);

#ifdef __cplusplus
}
#endif

#endif
