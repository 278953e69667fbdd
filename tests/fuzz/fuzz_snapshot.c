// SPDX-License-Identifier: MIT
// fuzz_snapshot.c — libFuzzer: steer_world_load on any bytes. Each input
// is loaded as it is (the checksum refuses nearly every change) and again
// with its length and checksum fixed up, so the loader's deeper checks see
// the mutations. A refusal must say why and leave nothing allocated; a
// world that loads must tick, and save -> load -> save must give the same
// bytes. A crash, a leak or an unexplained refusal aborts. The corpus
// (tests/fuzz/corpus/snapshot) holds small snapshots written by
// `test-snapshot --corpus DIR`.
#include "steer.h"
#include "../c/snapshot_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void try_load(const unsigned char *b, size_t len)
{
    steer_WorldDesc d = hooks();
    steer_World *w = NULL;
    char err[256];
    int st = steer_world_load(&d, b, len, &w, err, sizeof err);
    if (st != STEER_OK) {
        if (w || !err[0]) abort(); // *out untouched, a message
        return;
    }
    size_t n1 = 0, n2 = 0;
    steer_world_save_buffer(w, NULL, 0, &n1);
    unsigned char *s1 = malloc(n1), *s2 = NULL;
    if (!s1 || steer_world_save_buffer(w, s1, n1, &n1) != STEER_OK) abort();
    steer_World *v = NULL;
    if (steer_world_load(&d, s1, n1, &v, err, sizeof err) != STEER_OK) abort(); // its own save loads
    steer_world_save_buffer(v, NULL, 0, &n2);
    s2 = malloc(n2 ? n2 : 1);
    if (!s2 || steer_world_save_buffer(v, s2, n2, &n2) != STEER_OK || n1 != n2 || memcmp(s1, s2, n1) != 0) abort();
    steer_world_step(w, 2);
    steer_world_free(v);
    steer_world_free(w);
    free(s1);
    free(s2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    orbit_register();
    try_load(data, size);
    if (size >= 24) {
        unsigned char *c = malloc(size);
        if (!c) return 0;
        memcpy(c, data, size);
        fix_checksum(c, size);
        try_load(c, size);
        free(c);
    }
    return 0;
}
