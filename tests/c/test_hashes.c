// SPDX-License-Identifier: MIT
// test_hashes.c — the fixed workloads of workloads.h, one world hash each,
// for comparing builds and machines (tools/cross-check.sh runs this program
// on x86-64 and, cross-compiled, on aarch64 under qemu: the lines must be
// equal). The workloads reach every transcendental call of the core: the
// standard flock (docs/benchmarks.md) in 2D and 3D (wander), a crowd (avoid_agents and arrive
// in a priority, collisions, obstacles), crafts turning (directed seek,
// face, wander's turn variant, walls and obstacles in 2D and 3D) and the
// pipeline's constraints. As a test it checks what must hold on any
// machine: a second run gives the same hash, STEER_NO_AVX2=1 gives the same
// bits, and nothing leaves the world or turns into NaN.
//   test-hashes            the checks, then "name ticks hash" per workload
//   test-hashes --print    only the lines
#include "steer.h"
#include "check.h"
#include "core/world.h" // w->wide: whether a world takes the AVX2 pass
#include "workloads.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t run(const Workload *wl, int *alive, int *finite, int *moved)
{
    steer_World *w = wl->make(NULL);
    int n = steer_world_count(w);
    steer_Agent *ids = malloc(sizeof *ids * (size_t)n);
    double(*p0)[3] = malloc(sizeof *p0 * (size_t)n);
    if (!ids || !p0) exit(EXIT_FAILURE);
    steer_world_agents(w, ids, n);
    for (int i = 0; i < n; i++) steer_agent_vec(w, ids[i], STEER_PROP_POSITION, p0[i]);
    if (steer_world_step(w, wl->ticks) != STEER_OK) *alive = -1;
    *finite = *moved = 0;
    for (int i = 0; i < n; i++) {
        double p[3], v[3];
        if (steer_agent_vec(w, ids[i], STEER_PROP_POSITION, p) != STEER_OK) continue;
        steer_agent_vec(w, ids[i], STEER_PROP_VELOCITY, v);
        *finite += isfinite(p[0] + p[1] + p[2] + v[0] + v[1] + v[2]);
        *moved += p[0] != p0[i][0] || p[1] != p0[i][1] || p[2] != p0[i][2];
    }
    if (*alive >= 0) *alive = steer_world_count(w) == n ? n : steer_world_count(w);
    uint64_t h = steer_world_hash(w);
    free(ids);
    free(p0);
    steer_world_free(w);
    return h;
}

static uint64_t hashes[NWORK];

// On any machine: the same hash again, every agent alive and finite, and
// moving (a frozen world would compare equal everywhere, proving nothing).
static void test_workloads(void)
{
    for (int k = 0; k < NWORK; k++) {
        int alive = 0, finite, moved, alive2 = 0, f2, m2;
        hashes[k] = run(&workloads[k], &alive, &finite, &moved);
        CHECK(alive > 0, "%s: the step failed or lost agents (%d left)", workloads[k].name, alive);
        CHECK(finite == alive, "%s: %d of %d agents not finite", workloads[k].name, alive - finite, alive);
        CHECK(moved >= alive * 9 / 10, "%s: only %d of %d agents moved", workloads[k].name, moved, alive);
        CHECK(run(&workloads[k], &alive2, &f2, &m2) == hashes[k], "%s: another hash on a second run",
              workloads[k].name);
    }
}

// Each workload stopped halfway, saved, loaded into a new world and run to
// the end: the uninterrupted hash, and the loaded world saves to the same
// bytes (on aarch64 too: the cross build runs this file).
static void test_snapshot_halfway(void)
{
    for (int k = 0; k < NWORK; k++) {
        const Workload *wl = &workloads[k];
        steer_World *w = wl->make(NULL), *back = NULL;
        REQUIRE(steer_world_step(w, wl->ticks / 2) == STEER_OK, "%s: step", wl->name);
        size_t len = 0, len2 = 0;
        steer_world_save_buffer(w, NULL, 0, &len);
        unsigned char *bytes = malloc(len), *again = malloc(len);
        REQUIRE(bytes && again && steer_world_save_buffer(w, bytes, len, &len) == STEER_OK, "%s: save", wl->name);
        steer_world_free(w);
        char err[256];
        REQUIRE(steer_world_load(NULL, bytes, len, &back, err, sizeof err) == STEER_OK, "%s: load: %s", wl->name, err);
        CHECK(steer_world_save_buffer(back, again, len, &len2) == STEER_OK && len2 == len &&
                  memcmp(bytes, again, len) == 0,
              "%s: save -> load -> save gives the same bytes", wl->name);
        REQUIRE(steer_world_step(back, wl->ticks - wl->ticks / 2) == STEER_OK, "%s: step on", wl->name);
        CHECK(steer_world_hash(back) == hashes[k], "%s: %016llx after the load, %016llx uninterrupted", wl->name,
              (unsigned long long)steer_world_hash(back), (unsigned long long)hashes[k]);
        steer_world_free(back);
        free(bytes);
        free(again);
    }
}

// STEER_NO_AVX2=1, read when a world is made, takes the SSE neighbour pass:
// the same bits (where the CPU has no AVX2 both runs take it).
static void test_no_avx2(void)
{
    const char *was = getenv("STEER_NO_AVX2");
    char saved[16] = "";
    if (was) snprintf(saved, sizeof saved, "%s", was);
    unsetenv("STEER_NO_AVX2");
    steer_World *w = world(NULL, 2, 10, true, false, 1);
    bool wide = w->wide;
    steer_world_free(w);
    setenv("STEER_NO_AVX2", "1", 1);
    w = world(NULL, 2, 10, true, false, 1);
    CHECK(!w->wide, "STEER_NO_AVX2=1: the world still takes the AVX2 pass");
    steer_world_free(w);
    setenv("STEER_NO_AVX2", "0", 1);
    w = world(NULL, 2, 10, true, false, 1);
    CHECK(w->wide == wide, "STEER_NO_AVX2=0 should leave the AVX2 pass as the CPU allows");
    steer_world_free(w);
    setenv("STEER_NO_AVX2", "1", 1);
    for (int k = 0; k < 2; k++) { // the flocks: the neighbour pass
        int alive = 0, f, m;
        uint64_t h = run(&workloads[k], &alive, &f, &m);
        CHECK(h == hashes[k], "%s: %016llx with STEER_NO_AVX2=1, %016llx without", workloads[k].name,
              (unsigned long long)h, (unsigned long long)hashes[k]);
    }
    if (was) setenv("STEER_NO_AVX2", saved, 1);
    else unsetenv("STEER_NO_AVX2");
    if (!wide) printf("    (no AVX2 here: both runs took the SSE pass)\n");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--print") == 0) {
        for (int k = 0; k < NWORK; k++) {
            int alive = 0, f, m;
            uint64_t h = run(&workloads[k], &alive, &f, &m);
            printf("%s %d %016llx\n", workloads[k].name, workloads[k].ticks, (unsigned long long)h);
        }
        return 0;
    }
    RUN(test_workloads);
    RUN(test_snapshot_halfway);
    RUN(test_no_avx2);
    for (int k = 0; k < NWORK; k++)
        printf("%s %d %016llx\n", workloads[k].name, workloads[k].ticks, (unsigned long long)hashes[k]);
    return check_report_("hashes");
}
