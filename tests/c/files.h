// SPDX-License-Identifier: MIT
// files.h — the engine tests' scratch folder: files written into `dir`
// (each test's main makes it) for the engine to load, and a log hook that
// drops every line.
#ifndef STEER_TEST_FILES_H
#define STEER_TEST_FILES_H

#include <stdio.h>

static char dir[256];

// name's path in dir (a static buffer: the next call overwrites it).
static inline const char *path_of(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static inline void write_file(const char *name, const char *text)
{
    FILE *f = fopen(path_of(name), "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static inline void quiet(void *ud, int level, const char *msg)
{
    (void)ud;
    (void)level;
    (void)msg;
}

#endif
