// SPDX-License-Identifier: MIT
// main.c — the `steer` program: runs a scenario file (a Lua file returning
// a table of callbacks) headless for N ticks and prints a summary.
// Placeholder-free minimal form; the viewer and hot reload come with their issues.
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>
int main(void) { return 0; }
