// SPDX-License-Identifier: MIT
// os_posix.c — the portability layer (os.h) on POSIX systems: pthreads,
// clock_gettime, stat, realpath, and on Linux inotify and /proc/self/exe.
#define _XOPEN_SOURCE 700 // realpath
#include "os.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

// ---- threads -------------------------------------------------------------

bool steerY_thread_start(steerY_Thread *t, steerY_ThreadFn fn, void *arg)
{
    return pthread_create(t, NULL, fn, arg) == 0;
}
void steerY_thread_join(steerY_Thread t) { pthread_join(t, NULL); }
void steerY_yield(void) { sched_yield(); }

void steerY_mutex_init(steerY_Mutex *m) { pthread_mutex_init(m, NULL); }
void steerY_mutex_destroy(steerY_Mutex *m) { pthread_mutex_destroy(m); }
void steerY_mutex_lock(steerY_Mutex *m) { pthread_mutex_lock(m); }
void steerY_mutex_unlock(steerY_Mutex *m) { pthread_mutex_unlock(m); }
void steerY_cond_init(steerY_Cond *c) { pthread_cond_init(c, NULL); }
void steerY_cond_destroy(steerY_Cond *c) { pthread_cond_destroy(c); }
void steerY_cond_wait(steerY_Cond *c, steerY_Mutex *m) { pthread_cond_wait(c, m); }
void steerY_cond_signal(steerY_Cond *c) { pthread_cond_signal(c); }
void steerY_cond_broadcast(steerY_Cond *c) { pthread_cond_broadcast(c); }

// ---- time ----------------------------------------------------------------

double steerY_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void steerY_sleep(double seconds)
{
    if (seconds <= 0) return;
    struct timespec t;
    t.tv_sec = (time_t)seconds;
    t.tv_nsec = (long)((seconds - (double)t.tv_sec) * 1e9);
    nanosleep(&t, NULL); // EINTR is fine: callers look at their flags
}

steerY_CpuClock steerY_cpu_clock(void)
{
    clockid_t c;
    return pthread_getcpuclockid(pthread_self(), &c) == 0 ? c : CLOCK_MONOTONIC;
}

double steerY_cpu_seconds(steerY_CpuClock c)
{
    struct timespec t;
    if (clock_gettime(c, &t) != 0) return steerY_now();
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// ---- paths ---------------------------------------------------------------

int steerY_file_info(const char *path, long long *mtime_ns, long long *size)
{
    struct stat st;
    if (stat(path, &st) != 0) return STEERY_MISSING;
    if (mtime_ns) *mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    if (size) *size = (long long)st.st_size;
    return S_ISREG(st.st_mode) ? STEERY_FILE : S_ISDIR(st.st_mode) ? STEERY_DIR : STEERY_OTHER;
}

bool steerY_realpath(const char *path, char *out, size_t cap)
{
    char real[PATH_MAX];
    if (!realpath(path, real) || strlen(real) >= cap) return false;
    memcpy(out, real, strlen(real) + 1);
    return true;
}

bool steerY_is_slash(char c) { return c == '/'; }
const char *steerY_last_slash(const char *path) { return strrchr(path, '/'); }

bool steerY_exe_path(char *buf, size_t len)
{
#ifdef __linux__
    ssize_t n = readlink("/proc/self/exe", buf, len);
    if (n <= 0 || (size_t)n >= len) return false;
    buf[n] = '\0';
    return true;
#else
    (void)buf, (void)len;
    return false;
#endif
}

// ---- watching directories ------------------------------------------------

int steerY_watch_open(void)
{
#ifdef __linux__
    return inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#else
    return -1;
#endif
}

void steerY_watch_close(int w)
{
    if (w >= 0) close(w);
}

void steerY_watch_add(int w, const char *dir)
{
#ifdef __linux__
    if (w >= 0) inotify_add_watch(w, dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_DELETE);
#else
    (void)w, (void)dir;
#endif
}

bool steerY_watch_changed(int w)
{
#ifdef __linux__
    if (w < 0) return false;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    bool any = false;
    while (read(w, buf, sizeof buf) > 0) any = true;
    return any;
#else
    (void)w;
    return false;
#endif
}

// ---- interrupts ----------------------------------------------------------

void steerY_on_interrupt(void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; // no SA_RESTART: a sleep returns at once
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
