// SPDX-License-Identifier: MIT
// api_world.h — one small world stepped through a table of steer.h's
// functions, so hosts that reach the API differently run the same world to
// the same hash: linked with the static core (API_LINKED), resolved with
// dlsym from libsteer.so (tests/c/test_shared.c), and compiled as C++ by
// g++ and clang++ against either library (tests/c/headers.cpp). C and C++:
// no compound literals, no designated initializers.
#ifndef API_WORLD_H
#define API_WORLD_H

#include "steer.h"

#include <string.h>

typedef struct ApiFns {
    int (*world_new)(const steer_WorldDesc *desc, steer_World **out);
    void (*world_free)(steer_World *w);
    int (*world_step)(steer_World *w, int ticks);
    uint64_t (*world_hash)(const steer_World *w);
    int (*behavior_new)(const char *kind, steer_Behavior **out);
    void (*behavior_release)(steer_Behavior *b);
    int (*spawn)(steer_World *w, const steer_AgentDesc *desc, steer_Agent *out);
    int (*agent_set_target)(steer_World *w, steer_Agent a, const double *point, steer_Agent other);
} ApiFns;

// The table's functions by name, in the order of its fields (for dlsym).
#define API_NAMES                                                                                            \
    {                                                                                                        \
        "steer_world_new", "steer_world_free", "steer_world_step", "steer_world_hash", "steer_behavior_new", \
            "steer_behavior_release", "steer_spawn", "steer_agent_set_target"                                \
    }
// The table of the functions this program links.
#define API_LINKED                                                                                 \
    {                                                                                              \
        steer_world_new, steer_world_free, steer_world_step, steer_world_hash, steer_behavior_new, \
            steer_behavior_release, steer_spawn, steer_agent_set_target                            \
    }

// 24 agents on a ring, seeking: the even ones a point (other: STEER_NO_AGENT),
// the odd ones the next agent; 120 ticks. Returns 0 and the world's hash,
// or the failing call's status.
static inline int api_world(const ApiFns *f, uint64_t *hash)
{
    enum { N = 24 };
    steer_WorldDesc wd;
    memset(&wd, 0, sizeof wd);
    wd.seed = 7;
    steer_World *w = NULL;
    steer_Behavior *seek = NULL;
    int st = f->world_new(&wd, &w);
    if (st == STEER_OK) st = f->behavior_new("seek", &seek);
    steer_Agent ids[N];
    for (int i = 0; i < N && st == STEER_OK; i++) {
        steer_AgentDesc d;
        memset(&d, 0, sizeof d);
        d.position[0] = 10.0 * (i % 6);
        d.position[1] = 7.0 * (i / 6) + 0.25 * i;
        d.velocity[0] = 0.5 * (i % 3) - 0.5;
        d.max_speed = 2 + 0.125 * i;
        d.max_force = 4;
        d.brain = seek;
        st = f->spawn(w, &d, &ids[i]);
    }
    for (int i = 0; i < N && st == STEER_OK; i++) {
        double point[3] = { 25, 12, 0 };
        st = i % 2 == 0 ? f->agent_set_target(w, ids[i], point, STEER_NO_AGENT)
                        : f->agent_set_target(w, ids[i], NULL, ids[(i + 1) % N]);
    }
    if (st == STEER_OK) st = f->world_step(w, 120);
    if (st == STEER_OK) *hash = f->world_hash(w);
    if (seek) f->behavior_release(seek);
    if (w) f->world_free(w);
    return st;
}

#endif
