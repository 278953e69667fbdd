// SPDX-License-Identifier: MIT
// check.h — the in-file harness of the C tests: no framework, one header.
//
// A test is a `static void test_x(void)`; CHECK records a failure with the
// file:line and a printf-style explanation and carries on, so one run shows
// every broken invariant. RUN prints "ok - name" or "FAIL - name" and the
// program ends with "core: N passed, N failed" and a nonzero exit status
// when anything failed. RUN stops a test after too many failures so a loop
// of a million checks cannot flood the log.
#ifndef STEER_TEST_CHECK_H
#define STEER_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef _WIN32 // the Windows build (tools/windows-check.sh): the C runtime's names
#define setenv(name, value, overwrite) _putenv_s(name, value)
#define unsetenv(name) _putenv_s(name, "")
#endif

static int check_failures_; // in the running test
static int check_passed_, check_failed_;

static inline void check_fail_(const char *file, int line, const char *fmt, ...)
{
    if (++check_failures_ > 20) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stdout, "    %s:%d: ", file, line);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

// CHECK(cond, "what went wrong, with %g values", ...)
#define CHECK(cond, ...)                                           \
    do {                                                           \
        if (!(cond)) check_fail_(__FILE__, __LINE__, __VA_ARGS__); \
    } while (0)

// A check that ends the test at once: later lines depend on it.
#define REQUIRE(cond, ...)                                \
    do {                                                  \
        if (!(cond)) {                                    \
            check_fail_(__FILE__, __LINE__, __VA_ARGS__); \
            return;                                       \
        }                                                 \
    } while (0)

// Stop a loop early when it has failed already; keeps logs short.
#define FAILED() (check_failures_ > 0)

#define RUN(fn)                                                             \
    do {                                                                    \
        check_failures_ = 0;                                                \
        fn();                                                               \
        if (check_failures_) {                                              \
            check_failed_++;                                                \
            printf("FAIL - %s (%d failed checks)\n", #fn, check_failures_); \
        } else {                                                            \
            check_passed_++;                                                \
            printf("ok - %s\n", #fn);                                       \
        }                                                                   \
        fflush(stdout);                                                     \
    } while (0)

static inline int check_report_(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_passed_, check_failed_);
    return check_failed_ ? EXIT_FAILURE : EXIT_SUCCESS;
}

// A small deterministic generator for test inputs (splitmix64), so the
// tests do not share the engine's own streams.
static unsigned long long test_rng_state_ = 0x5EEDULL;
static inline unsigned long long test_rand64(void)
{
    unsigned long long z = (test_rng_state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
// Uniform in [lo, hi).
static inline double test_uniform(double lo, double hi)
{
    return lo + (hi - lo) * (double)(test_rand64() >> 11) * (1.0 / 9007199254740992.0);
}

#endif
