// SPDX-License-Identifier: MIT
// os_win32.c — the portability layer (os.h) on Windows, native Win32 only
// (no winpthread): SRW locks and condition variables, CreateThread,
// QueryPerformanceCounter, GetThreadTimes, GetFileAttributesEx and
// GetFinalPathNameByHandle. No directory watcher: the engine looks at the
// files' times (every quarter second) instead.
#define WIN32_LEAN_AND_MEAN
#include "os.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <windows.h>

_Static_assert(sizeof(steerY_Mutex) == sizeof(SRWLOCK), "steerY_Mutex holds an SRWLOCK");
_Static_assert(sizeof(steerY_Cond) == sizeof(CONDITION_VARIABLE), "steerY_Cond holds a CONDITION_VARIABLE");

// ---- threads -------------------------------------------------------------

bool steerY_thread_start(steerY_Thread *t, steerY_ThreadFn fn, void *arg)
{
    *t = CreateThread(NULL, 0, fn, arg, 0, NULL);
    return *t != NULL;
}

void steerY_thread_join(steerY_Thread t)
{
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
}

void steerY_yield(void) { SwitchToThread(); }

void steerY_mutex_init(steerY_Mutex *m) { InitializeSRWLock((SRWLOCK *)m); }
void steerY_mutex_destroy(steerY_Mutex *m) { (void)m; } // an SRW lock holds nothing
void steerY_mutex_lock(steerY_Mutex *m) { AcquireSRWLockExclusive((SRWLOCK *)m); }
void steerY_mutex_unlock(steerY_Mutex *m) { ReleaseSRWLockExclusive((SRWLOCK *)m); }
void steerY_cond_init(steerY_Cond *c) { InitializeConditionVariable((CONDITION_VARIABLE *)c); }
void steerY_cond_destroy(steerY_Cond *c) { (void)c; }
void steerY_cond_wait(steerY_Cond *c, steerY_Mutex *m)
{
    SleepConditionVariableSRW((CONDITION_VARIABLE *)c, (SRWLOCK *)m, INFINITE, 0);
}
void steerY_cond_signal(steerY_Cond *c) { WakeConditionVariable((CONDITION_VARIABLE *)c); }
void steerY_cond_broadcast(steerY_Cond *c) { WakeAllConditionVariable((CONDITION_VARIABLE *)c); }

// ---- time ----------------------------------------------------------------

double steerY_now(void)
{
    static LARGE_INTEGER freq; // the same for the system's life
    LARGE_INTEGER t;
    if (!freq.QuadPart) QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&t);
    return (double)(t.QuadPart / freq.QuadPart) + (double)(t.QuadPart % freq.QuadPart) / (double)freq.QuadPart;
}

void steerY_sleep(double seconds)
{
    if (seconds <= 0) return;
    double ms = seconds * 1e3;
    Sleep(ms >= 4e9 ? 4000000000u : ms < 1 ? 1 : (DWORD)ms);
}

steerY_CpuClock steerY_cpu_clock(void) { return GetCurrentThreadId(); }

double steerY_cpu_seconds(steerY_CpuClock c)
{
    HANDLE h = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, c);
    FILETIME made, ended, kernel, user;
    BOOL ok = h && GetThreadTimes(h, &made, &ended, &kernel, &user);
    if (h) CloseHandle(h);
    if (!ok) return steerY_now();
    ULARGE_INTEGER k = { .LowPart = kernel.dwLowDateTime, .HighPart = kernel.dwHighDateTime };
    ULARGE_INTEGER u = { .LowPart = user.dwLowDateTime, .HighPart = user.dwHighDateTime };
    return (double)(k.QuadPart + u.QuadPart) * 1e-7; // 100 ns units
}

// ---- paths ---------------------------------------------------------------

int steerY_file_info(const char *path, long long *mtime_ns, long long *size)
{
    WIN32_FILE_ATTRIBUTE_DATA a;
    if (!GetFileAttributesExA(path, GetFileExInfoStandard, &a)) {
        errno = ENOENT;
        return STEERY_MISSING;
    }
    ULARGE_INTEGER t = { .LowPart = a.ftLastWriteTime.dwLowDateTime, .HighPart = a.ftLastWriteTime.dwHighDateTime };
    if (mtime_ns) *mtime_ns = (long long)t.QuadPart * 100; // 100 ns units since 1601
    if (size) *size = (long long)a.nFileSizeHigh << 32 | (long long)a.nFileSizeLow;
    if (a.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) return STEERY_DIR;
    return a.dwFileAttributes & FILE_ATTRIBUTE_DEVICE ? STEERY_OTHER : STEERY_FILE;
}

bool steerY_realpath(const char *path, char *out, size_t cap)
{
    // the file itself, links followed (backup semantics: directories too)
    HANDLE h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE) return false;
    char buf[STEERY_PATH_MAX];
    DWORD n = GetFinalPathNameByHandleA(h, buf, sizeof buf, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    CloseHandle(h);
    if (n == 0 || n >= sizeof buf) return false;
    const char *p = strncmp(buf, "\\\\?\\", 4) == 0 ? buf + 4 : buf; // the long-path prefix
    if (strlen(p) >= cap) return false;
    memcpy(out, p, strlen(p) + 1);
    return true;
}

bool steerY_is_slash(char c) { return c == '/' || c == '\\'; }

const char *steerY_last_slash(const char *path)
{
    const char *last = NULL;
    for (const char *p = path; *p; p++)
        if (steerY_is_slash(*p)) last = p;
    return last;
}

bool steerY_exe_path(char *buf, size_t len)
{
    DWORD n = GetModuleFileNameA(NULL, buf, len > 0xFFFFFFFF ? 0xFFFFFFFF : (DWORD)len);
    return n > 0 && n < len;
}

// ---- watching directories ------------------------------------------------

int steerY_watch_open(void) { return -1; }
void steerY_watch_close(int w) { (void)w; }
void steerY_watch_add(int w, const char *dir) { (void)w, (void)dir; }
bool steerY_watch_changed(int w)
{
    (void)w;
    return false;
}

// ---- interrupts ----------------------------------------------------------

// Windows resets a handler to the default as it calls it.
void steerY_on_interrupt(void (*fn)(int))
{
    signal(SIGINT, fn);
    signal(SIGTERM, fn);
}
