// SPDX-License-Identifier: MIT
// lpattern.h — Lua 5.4.4's pattern matching (string.find, match, gmatch,
// gsub; lstrlib.c) with a limit on the work one call may do, for a host
// that runs untrusted Lua: with enough optional items a pattern can make
// Lua's matcher backtrack for hours, in C, where no count hook can stop
// it.
#ifndef LPATTERN_H
#define LPATTERN_H

#include <lua.h>

// Steps between two calls of the poll function (a power of 2).
#define LPATTERN_POLL_STEPS 1024

typedef struct lpattern_Limits {
    // Steps one call may take (a step: one match attempt, one repetition,
    // eight bytes of a class scanned); past them the call raises
    // "pattern matching took more than N steps (...)". A call of a gmatch
    // iterator has its own allowance.
    long max_steps;
    // Called every LPATTERN_POLL_STEPS steps and before gsub calls its
    // replacement function or looks a match up in its replacement table; it
    // may raise to stop the call (NULL: never called).
    void (*poll)(lua_State *L);
} lpattern_Limits;

// Set find, match, gmatch and gsub in the table on top of the stack (the
// string library) to the limited matcher. `limits` must outlive the state.
void lpattern_register(lua_State *L, const lpattern_Limits *limits);

#endif
