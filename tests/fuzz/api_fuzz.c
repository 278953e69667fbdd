// SPDX-License-Identifier: MIT
// api_fuzz.c — steer-fuzz: random programs over the whole Lua API, from a
// range of seeds (not coverage-guided; fuzz_api.c is the libFuzzer form).
//
//   steer-fuzz FROM TO [--statements N] [--timeout S]   run seeds FROM..TO
//   steer-fuzz --print SEED [--statements N]            print one program
//   steer-fuzz --file FILE                              run a saved program
//
// Every program is checked by api_rt.lua (errors carry file:line, the world
// stays finite, no agent is lost). A broken promise, a crash (the sanitizer
// build aborts) or a program that runs past the timeout names its seed;
// `--print SEED > f.lua` then gives a file to replay and shrink. The last
// line is "N passed, N failed" (programs).
#include "harness.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUZZ_DIR
#define FUZZ_DIR "tests/fuzz"
#endif

static volatile sig_atomic_t current = -1;

static void write_seed(const char *what)
{
    char buf[96];
    long long s = current;
    int n = s < 0 ? snprintf(buf, sizeof buf, "\nsteer-fuzz: %s\n", what)
                  : snprintf(buf, sizeof buf, "\nsteer-fuzz: %s in seed %lld (steer-fuzz --print %lld)\n", what, s, s);
    if (n > 0) (void)!write(2, buf, (size_t)n);
}

static void on_alarm(int sig)
{
    (void)sig;
    write_seed("timeout");
    _exit(3);
}

static void on_crash(int sig)
{
    write_seed("crash");
    signal(sig, SIG_DFL);
    raise(sig);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) free(s);
            s = t;
        }
    }
    fclose(f);
    if (s) s[n] = '\0';
    return s;
}

int main(int argc, char **argv)
{
    int statements = 60, timeout = 20;
    long long from = -1, to = -1, print = -1;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--statements") && i + 1 < argc) statements = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--print") && i + 1 < argc) print = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--file") && i + 1 < argc) file = argv[++i];
        else if (from < 0) from = atoll(argv[i]);
        else if (to < 0) to = atoll(argv[i]);
        else from = -2;
    }
    if (statements < 1 || (print < 0 && !file && (from < 0 || to < from))) {
        fprintf(stderr, "usage: steer-fuzz FROM TO [--statements N] [--timeout S] | --print SEED | --file FILE\n");
        return 2;
    }
    if (print >= 0) {
        char *text = fuzz_generate(FUZZ_DIR, print, NULL, 0, statements);
        if (!text) return 1;
        fputs(text, stdout);
        free(text);
        return 0;
    }
    signal(SIGALRM, on_alarm);
    signal(SIGSEGV, on_crash);
    signal(SIGABRT, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGFPE, on_crash);
    FuzzStats stats = { 0 };
    char why[2048];
    if (file) {
        char *text = read_file(file);
        if (!text) {
            fprintf(stderr, "steer-fuzz: cannot read %s\n", file);
            return 2;
        }
        char name[512];
        snprintf(name, sizeof name, "@%s", file);
        alarm((unsigned)timeout);
        int bad = fuzz_run(FUZZ_DIR, name, text, &stats, why, sizeof why);
        free(text);
        if (bad) printf("steer-fuzz: %s: %s\n", file, why);
        printf("%ld passed, %ld failed\n", stats.programs - stats.failures, stats.failures);
        return bad;
    }
    for (long long seed = from; seed <= to; seed++) {
        current = (sig_atomic_t)seed;
        char *text = fuzz_generate(FUZZ_DIR, seed, NULL, 0, statements);
        if (!text) return 1;
        char name[64];
        snprintf(name, sizeof name, "@fuzz_%lld.lua", seed);
        alarm((unsigned)timeout);
        if (fuzz_run(FUZZ_DIR, name, text, &stats, why, sizeof why)) printf("steer-fuzz: seed %lld: %s\n", seed, why);
        alarm(0);
        free(text);
    }
    printf("steer-fuzz: %ld programs, %ld statements, %ld steps, %ld errors raised as expected\n", stats.programs,
           stats.statements, stats.steps, stats.errors);
    printf("%ld passed, %ld failed\n", stats.programs - stats.failures, stats.failures);
    return stats.failures != 0;
}
