// SPDX-License-Identifier: MIT
// snapshot_util.h — what the snapshot test and the snapshot fuzz target
// share: the host's hooks its worlds use (a think callback and the host
// kind "orbit", found by name at load), and the checksum fix-up that lets
// a changed snapshot reach the loader's deeper checks.
#ifndef STEER_TEST_SNAPSHOT_UTIL_H
#define STEER_TEST_SNAPSHOT_UTIL_H

#include "steer.h"

#include <stdint.h>
#include <string.h>

static int think(void *ud, int ref, steer_World *w, steer_Agent a, double dt)
{
    (void)ud;
    double p[3], t[3] = { ref * 3.0 + dt, 4.0, 0 };
    steer_agent_vec(w, a, STEER_PROP_POSITION, p);
    t[1] += p[0] * 0.25;
    return steer_agent_set_target(w, a, t, STEER_NO_AGENT);
}

static void orbit(void *ud, const steer_HostCtx *c, double f[3])
{
    (void)ud;
    f[0] = -c->position[1] * c->params[0];
    f[1] = c->position[0] * c->params[0];
    if (c->memory) c->memory[0] += 1.0f;
}

static steer_HostKind *orbit_kind;
static const steer_HostKind *find_kind(void *ud, const char *name)
{
    (void)ud;
    return strcmp(name, "orbit") == 0 ? orbit_kind : NULL;
}

// Define the host kind orbit{ k }: a force around the origin, one float of memory.
static void orbit_register(void)
{
    static const char *const params[] = { "k", NULL };
    steer_HostBehaviorDesc hd = { .name = "orbit", .params = params, .memory = 1, .fn = orbit };
    if (!orbit_kind) steer_host_kind_new(&hd, &orbit_kind);
}

static steer_WorldDesc hooks(void)
{
    steer_WorldDesc d = { 0 };
    d.hooks.think = think;
    d.hooks.find_kind = find_kind;
    return d;
}

// The snapshot's total length (bytes 16..23) set to len and its checksum
// recomputed as the format defines it: FNV-1a over the 64-bit
// little-endian words of bytes 8 .. len-8 (12 .. len-8 before version 3:
// the version was not covered; the tail zero-padded), then the count of
// those bytes. Needs len >= 20.
static void fix_checksum(unsigned char *b, size_t len)
{
    for (int i = 0; i < 8 && len >= 24; i++) b[16 + i] = (unsigned char)((uint64_t)len >> (8 * i));
    uint32_t version = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    size_t from = version >= 3 ? 8 : 12;
    uint64_t h = 0xCBF29CE484222325ull, n = len - 8 - from;
    const unsigned char *p = b + from;
    for (size_t at = 0; at < n; at += 8) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--) v = v << 8 | (at + (size_t)i < n ? p[at + (size_t)i] : 0);
        h = (h ^ v) * 0x100000001B3ull;
    }
    h = (h ^ n) * 0x100000001B3ull;
    for (int i = 0; i < 8; i++) b[len - 8 + (size_t)i] = (unsigned char)(h >> (8 * i));
}

#endif
