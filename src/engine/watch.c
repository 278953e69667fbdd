// SPDX-License-Identifier: MIT
// watch.c — stopping a mod: its allocator and memory cap, the CPU budget
// of each call into it, the watchdog thread that asks for it to be judged,
// and the stop hook with which the mod's own thread judges and acts (the
// design is mod.c's opening comment). It calls only base.c: every other
// file of the mods calls down to it.
#include "mod.h"

#include <stdio.h>

// The hook of every thread of a mod. Until the mod is killed it runs every
// WATCH_COUNT instructions and returns.
static void watch_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    steerE_check_stop(L);
}

// The count hook stops Lua code at its next instruction, the call hook any
// call, also of a C function (a loop of table.concat through __index runs
// no instruction). Only ever on the mod's own thread (the one running L).
// Lua runs no hook in finalisers: the steer module's C finalisers still
// run when the state closes.
void steerE_arm(lua_State *L) { lua_sethook(L, watch_hook, LUA_MASKCOUNT | LUA_MASKCALL, 1); }

// The first time the mod's thread acts on the verdict, the reason gains
// what it was doing and where: the callback in progress and the file:line
// of the innermost Lua function on L's stack (a C loop of the sandbox's
// that looked at the verdict was called from there). The reason was
// written before the verdict (steerE_kill) and is not written again.
static void locate(lua_State *L, Mod *m)
{
    if (m->located) return;
    m->located = true;
    char where[260] = ""; // " at " + 240 + ":" + a line number
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
        const char *src = ar.source[0] == '@' ? ar.source + 1 : ar.short_src;
        snprintf(where, sizeof where, " at %.240s:%d", src, ar.currentline);
        break;
    }
    if (!m->doing && !where[0]) return;
    // at most 5 + 60 + 9 + 1 + 40 + 259 + 2 + 130 < 512 bytes (every reason
    // steer gives is shorter than 130)
    snprintf(m->kill_reason, sizeof m->kill_reason, "mod '%.60s' stopped%s%.40s%s: %.130s", m->shown,
             m->doing ? " " : "", m->doing ? m->doing : "", where, m->kill_why);
}

// ---- the clocks of a call ------------------------------------------------------------
//
// A read of a thread's CPU clock is a system call (0.16 us of CPU on
// Linux; GetThreadTimes on Windows more), the wall clock is read in user
// space (0.02 us). A thread's CPU time grows no faster than the wall
// clock, so a call reads its CPU clock only where the wall clock cannot
// stand in for it without letting a mod off:
// - its start: the latest reading of the same thread's clock, when the
//   wall clock says it was taken at most WALL_SPAN before: the call is
//   counted from up to WALL_SPAN of that thread's CPU time before it
//   began (the engine's own work between two calls), never from later;
//   else a reading at its start;
// - its end: a call that lasted at most WALL_SPAN of wall time and read no
//   CPU clock during it (no look) is counted at its wall time, which is
//   its CPU time and whatever it waited, within those few microseconds (a
//   call that waited for a core lasts longer than that); a longer one
//   reads its clock.
// So a thousand thinks in a row read the CPU clock about once per
// WALL_SPAN of wall time instead of twice each, and every call is counted
// at least its CPU time.

// The CPU clock c of the calling thread, read at wall time `wall`, kept as
// the latest reading.
static double read_cpu(Mod *m, steerY_CpuClock c, double wall)
{
    double cpu = steerY_cpu_seconds(c);
    m->cpu_reads++;
    m->last_clock = c;
    m->last_cpu = cpu;
    m->when_cpu = wall;
    return cpu;
}

// The budget, judged by the mod's own thread at a look, at most once per
// period of the watchdog (which asks for it: m->look): the CPU time of its
// call so far, on its own CPU clock (from m->cpu0, above). So a call is stopped only while its
// thread still runs the mod's code, and the reason says where; never for a
// jump of the clock (a busy virtual machine's) in a call that then returns
// before its next look (docs/mods.md, "The watchdog only asks"). And no
// other thread reads the clock: on a virtual machine a read from another
// CPU, while the hypervisor has taken the mod's CPU away, charges the
// thread the time it was away (the guest learns of the steal later).
static void judge(Mod *m)
{
    if (!m->in_call || !atomic_exchange_explicit(&m->look, false, memory_order_relaxed)) return;
    m->cpu_read = true;
    if (read_cpu(m, m->clock, steerY_now()) - m->cpu0 <= m->budget) return;
    char why[96];
    snprintf(why, sizeof why, "over its CPU budget of %.0f ms per call", m->budget * 1e3);
    steerE_kill(m, why);
}

void steerE_check_stop(lua_State *L)
{
    Mod *m = steerE_mod_of(L);
    judge(m);
    if (!atomic_load_explicit(&m->killed, memory_order_acquire)) return;
    steerE_arm(L);
    locate(L, m);
    luaL_error(L, "%s", m->kill_reason);
}

// The bindings' loops call this every few thousand elements (steerL_poll).
void steerE_mod_poll(void *ud, lua_State *L)
{
    (void)ud;
    steerE_check_stop(L);
}

// Mark the mod killed; its own thread stops at its next look. Caller holds
// e->lock (so the reason is written once).
void steerE_kill_locked(Mod *m, const char *why)
{
    if (atomic_load_explicit(&m->killed, memory_order_relaxed)) return;
    snprintf(m->kill_why, sizeof m->kill_why, "%s", why);
    snprintf(m->kill_reason, sizeof m->kill_reason, "mod '%s' stopped: %s", m->shown, why);
    atomic_store_explicit(&m->killed, true, memory_order_release);
}

// The same from the mod's own thread, which does not hold the lock.
void steerE_kill(Mod *m, const char *why)
{
    steerY_mutex_lock(&m->e->lock);
    steerE_kill_locked(m, why);
    steerY_mutex_unlock(&m->e->lock);
}

// The policy's charge (steerL_charge): the C memory of the mod's behaviour
// trees, grids and flow fields counts against its cap like its Lua memory.
void steerE_mod_charge(void *ud, lua_State *L, lua_Integer bytes)
{
    Mod *m = ud;
    if (bytes < 0) {
        size_t d = (size_t)-bytes;
        m->used = d < m->used ? m->used - d : 0;
        return;
    }
    m->used += (size_t)bytes;
    // Lua's collector sees none of this memory, so garbage trees and
    // fields may be what fills the cap: collect them (their __gc gives
    // their charge back) before judging
    if (m->used > m->cap) lua_gc(L, LUA_GCCOLLECT);
    if (m->used > m->cap) {
        char why[128];
        snprintf(why, sizeof why,
                 "over its memory cap of %zu bytes (its trees, grids, flow fields and formations count)", m->cap);
        steerE_kill(m, why);
        steerE_check_stop(L);
    }
}

// Every period, each mod in a call is asked to judge its budget at its
// next look (judge): the watchdog reads no clock of another thread.
static steerY_ThreadResult STEERY_THREAD watchdog(void *arg)
{
    steer_Engine *e = arg;
    while (!atomic_load(&e->stopping)) {
        steerY_sleep(1e-3);
        steerY_mutex_lock(&e->lock);
        for (int i = 0; i < e->nmods; i++)
            if (e->mods[i]->in_call) atomic_store_explicit(&e->mods[i]->look, true, memory_order_relaxed);
        steerY_mutex_unlock(&e->lock);
    }
    return 0;
}

void *steerE_mod_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Mod *m = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        steerE_alloc(m->e, ptr, 0);
        m->used -= old;
        return NULL;
    }
    if (nsize > old && (nsize - old > m->cap || m->used + (nsize - old) > m->cap)) {
        char why[96];
        snprintf(why, sizeof why, "over its memory cap of %zu bytes", m->cap);
        steerE_kill(m, why);
        // the killed mod stops at its next instruction; the allocation comes
        // from a small reserve, since the engine allocates in the state
        // outside the mod's calls too (a callback's name, a host behaviour),
        // where a memory error would be unprotected: an abort
        if (nsize - old > RESERVE || m->used + (nsize - old) > m->cap + RESERVE) return NULL;
    }
    void *p = steerE_alloc(m->e, ptr, nsize);
    if (p) m->used = m->used - old + nsize;
    return p;
}

int steerE_mod_stopped(void *ud)
{
    Mod *m = ud;
    judge(m);
    return atomic_load(&m->killed);
}

void steerE_watch(lua_State *L) { lua_sethook(L, watch_hook, LUA_MASKCOUNT, WATCH_COUNT); }

int steerE_watchdog_start(steer_Engine *e)
{
    if (e->watchdog_running) return 0;
    if (!steerY_thread_start(&e->watchdog, watchdog, e)) return -1;
    e->watchdog_running = true;
    return 0;
}

void steerE_watchdog_stop(steer_Engine *e)
{
    if (!e->watchdog_running) return;
    atomic_store(&e->stopping, true);
    steerY_thread_join(e->watchdog);
    e->watchdog_running = false;
}

void steerE_begin_call(Mod *m)
{
    steerY_CpuClock clock = steerY_cpu_clock();
    double wall = steerY_now();
    bool recent = m->when_cpu > 0 && m->last_clock == clock && wall - m->when_cpu <= WALL_SPAN;
    double cpu0 = recent ? m->last_cpu : read_cpu(m, clock, wall);
    steerY_mutex_lock(&m->e->lock);
    m->in_call = true;
    m->clock = clock;
    m->cpu0 = cpu0;
    m->wall0 = wall;
    m->cpu_read = false;
    atomic_store_explicit(&m->look, false, memory_order_relaxed);
    steerY_mutex_unlock(&m->e->lock);
}

double steerE_end_call(Mod *m)
{
    double wall = steerY_now();
    steerY_mutex_lock(&m->e->lock);
    m->in_call = false;
    steerY_mutex_unlock(&m->e->lock);
    double spent =
        !m->cpu_read && wall - m->wall0 <= WALL_SPAN ? wall - m->wall0 : read_cpu(m, m->clock, wall) - m->cpu0;
    m->cpu += spent;
    return spent;
}
