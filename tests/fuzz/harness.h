// SPDX-License-Identifier: MIT
// harness.h — runs one generated Lua program (api_gen.lua) against the
// engine, for steer-fuzz (seed ranges) and fuzz_api (libFuzzer's bytes).
#ifndef STEER_FUZZ_HARNESS_H
#define STEER_FUZZ_HARNESS_H

#include <stddef.h>

typedef struct FuzzStats {
    long programs, statements, steps, errors, failures;
} FuzzStats;

// The program text for a seed (when bytes is NULL) or for libFuzzer's
// bytes; NULL on an internal error. The caller frees it with free().
char *fuzz_generate(const char *dir, long long seed, const unsigned char *bytes, size_t nbytes, int max_statements);
// Run a program in a fresh Lua state with the engine. Returns 0 when every
// promise held, 1 and a message in why (when not NULL) otherwise.
int fuzz_run(const char *dir, const char *chunkname, const char *text, FuzzStats *stats, char *why, size_t why_size);

#endif
