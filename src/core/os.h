// SPDX-License-Identifier: MIT
// os.h — the portability layer: everything steer asks of the operating
// system, in one place. Threads, locks and condition variables (the
// core's pool, the engine's watchdog), clocks and sleeping, a thread's CPU
// clock (the mods' budget), what a path names (its time, size and kind,
// its real path, the running program's path), watching directories (hot
// reload) and Ctrl-C. One file per system implements it: os_posix.c
// (pthreads, clock_gettime, inotify on Linux) and os_win32.c (native Win32:
// SRW locks, condition variables, CreateThread, QueryPerformanceCounter,
// so a Windows build needs no winpthread DLL); meson compiles the one for
// the host machine. Nothing else of steer includes a system's own
// threading, clock or file-system header. The floor of the core: it calls
// nothing of steer (prefix steerY_, the sYstem).
#ifndef STEER_OS_H
#define STEER_OS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef _WIN32
typedef struct {
    void *opaque; // an SRWLOCK
} steerY_Mutex;
typedef struct {
    void *opaque; // a CONDITION_VARIABLE
} steerY_Cond;
typedef void *steerY_Thread;               // a HANDLE
typedef unsigned long steerY_ThreadResult; // DWORD
#define STEERY_THREAD __stdcall
typedef unsigned long steerY_CpuClock; // a thread id
#define STEERY_PATH_MAX 4096
#else
#include <limits.h>
#include <pthread.h>
#include <time.h>
typedef pthread_mutex_t steerY_Mutex;
typedef pthread_cond_t steerY_Cond;
typedef pthread_t steerY_Thread;
typedef void *steerY_ThreadResult;
#define STEERY_THREAD
typedef clockid_t steerY_CpuClock;
#define STEERY_PATH_MAX PATH_MAX
#endif

// ---- threads -------------------------------------------------------------

// A thread's function: `static steerY_ThreadResult STEERY_THREAD f(void *arg)`, returning 0.
typedef steerY_ThreadResult(STEERY_THREAD *steerY_ThreadFn)(void *arg);
// Start a thread running fn(arg): false when the system refuses.
bool steerY_thread_start(steerY_Thread *t, steerY_ThreadFn fn, void *arg);
// Wait for the thread to end and release it.
void steerY_thread_join(steerY_Thread t);
// Give the core to another thread.
void steerY_yield(void);

void steerY_mutex_init(steerY_Mutex *m);
void steerY_mutex_destroy(steerY_Mutex *m);
void steerY_mutex_lock(steerY_Mutex *m);
void steerY_mutex_unlock(steerY_Mutex *m);
void steerY_cond_init(steerY_Cond *c);
void steerY_cond_destroy(steerY_Cond *c);
// Release m, wait for a signal (or a spurious wake: callers loop), hold m again.
void steerY_cond_wait(steerY_Cond *c, steerY_Mutex *m);
void steerY_cond_signal(steerY_Cond *c);
void steerY_cond_broadcast(steerY_Cond *c);

// ---- time ----------------------------------------------------------------

// A monotonic clock, in seconds.
double steerY_now(void);
// Sleep about this long (an interrupting signal may end it early).
void steerY_sleep(double seconds);
// The calling thread's CPU clock, for another thread to read with
// steerY_cpu_seconds (the monotonic clock when the system has none).
steerY_CpuClock steerY_cpu_clock(void);
// The CPU time of a clock, in seconds (steerY_now when it cannot be read).
double steerY_cpu_seconds(steerY_CpuClock c);

// ---- paths ---------------------------------------------------------------

enum { STEERY_MISSING, STEERY_FILE, STEERY_DIR, STEERY_OTHER };
// What path names: STEERY_MISSING (errno set) or the kind of what it is,
// with its modification time in nanoseconds and its size when not NULL.
int steerY_file_info(const char *path, long long *mtime_ns, long long *size);
// The absolute path of an existing file, every link resolved, in out
// (cap bytes): false when there is none.
bool steerY_realpath(const char *path, char *out, size_t cap);
// Whether c separates a path's parts ('/', and on Windows '\\').
bool steerY_is_slash(char c);
// The last separator in path, or NULL.
const char *steerY_last_slash(const char *path);
// The running program's path in buf: false when it cannot be told.
bool steerY_exe_path(char *buf, size_t len);

// ---- watching directories ------------------------------------------------

// A watcher of directories (inotify on Linux), or -1 when the system has
// none here: the caller then looks at the files' times.
int steerY_watch_open(void);
void steerY_watch_close(int w);
// Watch a directory for files written, created, renamed into it or deleted.
void steerY_watch_add(int w, const char *dir);
// Whether anything happened in a watched directory since the last call.
bool steerY_watch_changed(int w);

// ---- interrupts ----------------------------------------------------------

// Call fn (it may only set a flag) on the first Ctrl-C or termination
// request; the second one kills the program.
void steerY_on_interrupt(void (*fn)(int));

#endif
