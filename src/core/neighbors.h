// SPDX-License-Identifier: MIT
// neighbors.h — what the core's neighbour queries hand to a brain: a
// neighbour list (steerB_Neighbor, gathered per agent within the brain's
// sense radius) and neighbour summaries (steerB_Summary, computed per
// radius in a vectorised pass by grid.c for nodes that read nothing else).
#ifndef STEER_NEIGHBORS_H
#define STEER_NEIGHBORS_H

#include <stdint.h>

typedef struct steerB_Neighbor {
    uint32_t d;   // dense index of the neighbour
    float off[3]; // its position minus ours (minimum image)
    float d2;     // squared distance
} steerB_Neighbor;

// What the flock family reads of the neighbours within a radius: their
// count, the sum of their offsets, of their headings, and the separation
// push (sum of -offset / distance^2 over the neighbours not on top of us).
typedef struct steerB_Summary {
    float n;
    float off[3], head[3], push[3];
} steerB_Summary;

enum { STEERB_SUM_COUNT = 1, STEERB_SUM_OFFSET = 2, STEERB_SUM_HEADING = 4, STEERB_SUM_PUSH = 8, STEERB_SUM_ALL = 15 };

#define STEERB_MAX_SUMS 4
#define STEERB_NO_SUM 0xFF

#endif
