// SPDX-License-Identifier: MIT
// fuzz_api.c — libFuzzer: the API fuzzer's program generator (api_gen.lua)
// draws its choices from the input bytes, so coverage guides which programs
// are written. A broken promise (api_rt.lua) aborts, which libFuzzer
// reports with the input; `steer-fuzz --file` replays the program that
// `STEER_FUZZ_PRINT=1` prints.
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return -1; // 2 bytes a choice: programs of a few hundred statements at most
    char *text = fuzz_generate(FUZZ_DIR, 0, data, size, 80);
    if (!text) abort();
    if (getenv("STEER_FUZZ_PRINT")) fputs(text, stderr);
    char why[2048];
    if (fuzz_run(FUZZ_DIR, "@fuzz_api.lua", text, NULL, why, sizeof why)) {
        fprintf(stderr, "fuzz_api: %s\n--- the program:\n%s", why, text);
        abort();
    }
    free(text);
    return 0;
}
