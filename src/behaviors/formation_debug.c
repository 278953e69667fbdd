// SPDX-License-Identifier: MIT
// formation_debug.c — steer_debug.h's formations: each of the world's
// formations' anchor, and its members with the slots they hold, for a
// renderer (the viewer's formations layer and inspector). Read-only, as
// the rest of the debug view: nothing here allocates or changes a formation.
#include "steer_debug.h"
#include "exports.h"
#include "../core/world.h"

#include <string.h>

int steer_debug_formations(const steer_World *w)
{
    STEERA_WORLD(w, 0);
    int n = 0;
    while (steerB_world_formation(w, (uint32_t)n)) n++;
    return n;
}

// Formation i of the world, or NULL (a negative i too).
static const steerB_Formation *formation(const steer_World *w, int i)
{
    return i < 0 ? NULL : steerB_world_formation(w, (uint32_t)i);
}

int steer_debug_formation(const steer_World *w, int i, steer_DebugFormation *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a steer_DebugFormation to fill", STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    const steerB_Formation *f = formation(w, i);
    if (!f) return STEER_EARG;
    steerB_FormationInfo in;
    steerB_formation_info(f, &in);
    memset(out, 0, sizeof *out);
    memcpy(out->anchor, in.pos, sizeof out->anchor);
    out->heading[0] = in.head[0];
    out->heading[1] = in.head[1];
    memcpy(out->velocity, in.vel, sizeof out->velocity);
    out->members = (int)in.n;
    out->spacing = in.spacing;
    out->leader = in.leader;
    out->has_target = in.has_target;
    memcpy(out->target, in.target, sizeof out->target);
    return STEER_OK;
}

int steer_debug_formation_slot(const steer_World *w, int i, int k, steer_DebugSlot *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a steer_DebugSlot to fill", STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    const steerB_Formation *f = formation(w, i);
    steer_Agent a = f && k >= 0 ? steerB_formation_member(f, (uint32_t)k) : STEER_NO_AGENT;
    if (a.id == STEER_NO_AGENT.id) return STEER_EARG;
    memset(out, 0, sizeof *out);
    out->member = a;
    out->slot = steerB_formation_slot_index(f, a);
    steerB_formation_slot_of(f, a, out->point);
    return STEER_OK;
}
