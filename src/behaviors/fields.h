// SPDX-License-Identifier: MIT
// fields.h — the field-descriptor rows that several kinds share, so that a
// parameter's name, default range and the text its error message states
// ("expected ...") are written once. A row names the parameter struct and,
// where kinds differ in it, the default; steerB_expect adds the range.
#ifndef STEER_FIELDS_H
#define STEER_FIELDS_H

#include "behavior.h"

#define STEERB_TARGET_EXPECT "a vector, an agent or nil (the agent's own target)"

// clang-format off (one row per line, as in the kinds' tables)
// A target named `name` in member `member` of T (most kinds: "target").
#define STEERB_TARGET_ROW(T, member, name)                                            \
    {                                                                                 \
        name, STEERB_TARGET, offsetof(T, member), 0, 0, 0, STEERB_TARGET_EXPECT, NULL \
    }

// The desired speed of the cruise-speed law (steerB_cruise): 0 = max_speed.
#define STEERB_SPEED_ROW(T)                                                                                  \
    {                                                                                                        \
        "speed", STEERB_NUMBER, offsetof(T, speed), 0, 0, 1e30, "a number (0 = the agent's max_speed)", NULL \
    }

// The braking distance of arrive's law (steerB_brake), given.
#define STEERB_SLOW_RADIUS_ROW(T, def)                                                                      \
    {                                                                                                       \
        "slow_radius", STEERB_NUMBER, offsetof(T, slow_radius), def, 1e-6, 1e30, "a number of metres", NULL \
    }

// The braking distance, or 0 for the shortest the force law follows
// without overshooting (follow_path, patrol, follow_flow).
#define STEERB_AUTO_SLOW_RADIUS_ROW(T)                                                                               \
    {                                                                                                                \
        "slow_radius", STEERB_NUMBER, offsetof(T, slow_radius), 0, 0, 1e30, "a number (metres; 0 = automatic)", NULL \
    }

// The distance inside which the goal counts as reached.
#define STEERB_STOP_RADIUS_ROW(T, def)                                                                  \
    {                                                                                                   \
        "stop_radius", STEERB_NUMBER, offsetof(T, stop_radius), def, 0, 1e30, "a number (metres)", NULL \
    }

// The braking radii in order: stop_radius smaller than slow_radius
// (arrive, follow_path, patrol, navigate). 1, or 0 with the message in msg.
int steerB_check_radii(float slow_radius, float stop_radius, char *msg, size_t len);

// The neighbours of the agent-avoidance kinds (avoid_agents, reciprocal):
// how far they look (steerB_avoid_range) and which agents they avoid.
#define STEERB_AVOID_RANGE_ROW(T)                                                \
    {                                                                            \
        "range", STEERB_NUMBER, offsetof(T, range), 0, 0, 1e4,                   \
            "a number of metres (0 = horizon * 6 m/s + 2 m, at most 50 m)", NULL \
    }
#define STEERB_AVOID_TAG_ROW(T)                                                                           \
    {                                                                                                     \
        "tag", STEERB_TAG, offsetof(T, tag), 0, 0, 0, "a string (only agents with this tag) or nil", NULL \
    }
// clang-format on

// The range of an agent-avoidance kind: `range` when given; else horizon
// times a closing speed of 6 m/s (an agent at 2 m/s against one at twice
// that, the engine's usual speeds) plus 2 m for the radii, capped so that
// a long horizon does not turn the neighbour grid into one huge cell.
// Faster crowds set `range` themselves.
static inline float steerB_avoid_range(float range, float horizon)
{
    if (range > 0.0f) return range;
    float r = horizon * 6.0f + 2.0f;
    return r < 50.0f ? r : 50.0f;
}

#endif
