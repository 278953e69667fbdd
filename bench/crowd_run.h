// SPDX-License-Identifier: MIT
// crowd_run.h — a crowd scene (crowd_scen.h) run on steer by `steer-bench
// crowd`'s code (crowd.c), for another benchmark to score its own way
// (context.c's table).
#ifndef STEER_BENCH_CROWD_RUN_H
#define STEER_BENCH_CROWD_RUN_H

#include "crowd_scen.h"

// What sees every tick of a run: tick gets the agents' positions,
// velocities and headings (x, y pairs, agent order of the scene) and the
// step's wall time in ms; the run steps until finished(ctx) is not 0.
typedef struct CrowdObserver {
    void *ctx;
    void (*tick)(void *ctx, const double *pos, const double *vel, const double *heading, double ms);
    int (*finished)(void *ctx);
} CrowdObserver;

// Runs s at dt under method (blend, priority, context or orca, as `steer-bench
// crowd --method` builds them, its other options at their defaults: one
// thread, no collide, waypoints) until ob says so. Exits on failure.
void crowd_run_observed(const char *method, const CrowdScene *s, double dt, const CrowdObserver *ob);

#endif
