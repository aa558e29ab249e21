/*
 * lh_leaving.c — the hook rows of a process leaving without exit(): _exit and _Exit, and the exec
 * family (lh_hooks.def, family process: always on while LoopHunter is). Before the forward, the
 * summary is written with "state" "_exit" or "exec" (lh_summary.c), so what the process saw is not
 * lost with it; exit() itself is seen by the ELF destructor (glibc's exit calls its own _exit
 * directly, not through ours).
 *
 * Contracts. Arguments, results and errno are the originals'; _exit and _Exit never return (when
 * the original cannot be found, the exit_group system call ends the process). The summary is
 * written only by the process itself (lh_summary.c checks the pid with the kernel: a vfork child
 * calling _exit or exec shares our memory and writes nothing), only when LoopHunter is ready and
 * not already at work on this thread (the guard), and never initialises LoopHunter. These may run
 * in a signal handler (a crash handler calling _exit): the summary then uses only system calls and
 * our own memory, and the loader's module list (dl_iterate_phdr, for the toolkits' names). The
 * execl* arguments are gathered on the stack, as glibc's own execl does; nothing is allocated.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lh_breach.h"


/* Whether this thread may write the summary now (LoopHunter ready, not inside our own work). */
static bool may_leave_note(const lh_tls *t) {
    /* acquire: pairs with the release that publishes the initialised lh_proc. */
    return t->guard == 0 && lh_load_acquire(&lh_state) == LH_STATE_READY;
}

static void before_exit(unsigned hook) {
    lh_tls *t = &lh_tls_data;
    if (!may_leave_note(t)) return;
    LH_GUARDED(t);
    lh_count_hook_call(hook);
    lh_summary_leaving(LH_SUMMARY__EXIT);
}

/* Returns the token for after_exec. */
static bool before_exec(unsigned hook) {
    lh_tls *t = &lh_tls_data;
    if (!may_leave_note(t)) return false;
    LH_GUARDED(t);
    lh_count_hook_call(hook);
    return lh_summary_leaving(LH_SUMMARY_EXEC);
}

/* The exec returned: it failed, and the process runs on. errno stays the exec's. */
static void after_exec(bool token) {
    if (!token) return;
    LH_GUARDED(&lh_tls_data);
    lh_summary_stayed(token);
}

static __attribute__((noreturn)) void end_now(int status) {
    for (;;) syscall(SYS_exit_group, status);
}

/* The summary, then the original (or the system call when there is none). */
static __attribute__((noreturn)) void leave(unsigned hook, void (*real)(int), int status) {
    before_exit(hook);
    if (real != NULL) real(status);
    end_now(status);
}

LH_EXPORT void _exit(int status) { leave(LH_HOOK__exit, LH_ORIGINAL(_exit), status); }

LH_EXPORT void _Exit(int status) { leave(LH_HOOK__Exit, LH_ORIGINAL(_Exit), status); }

/* Every exec row's body after its arguments are in place: the summary, the forward through the
 * original `original` (ENOSYS without one), and back to running if the exec failed. */
#define LH_EXEC_FORWARD(hook, original, args)                                                       \
    do {                                                                                            \
        __typeof__(lh_real_##original) real_ = LH_ORIGINAL(original);                               \
        if (LH_UNLIKELY(real_ == NULL)) {                                                           \
            errno = ENOSYS;                                                                         \
            return -1;                                                                              \
        }                                                                                           \
        bool token_ = before_exec(hook);                                                            \
        int result_ = real_ args;                                                                   \
        after_exec(token_);                                                                         \
        return result_;                                                                             \
    } while (0)

/* The non-variadic exec rows. */
#define LH_EXEC_HOOK(name, params, args)                                                            \
    LH_EXPORT int name params { LH_EXEC_FORWARD(LH_HOOK_##name, name, args); }

LH_EXEC_HOOK(execve, (const char *path, char *const argv[], char *const envp[]), (path, argv, envp))
LH_EXEC_HOOK(execv, (const char *path, char *const argv[]), (path, argv))
LH_EXEC_HOOK(execvp, (const char *file, char *const argv[]), (file, argv))
LH_EXEC_HOOK(execvpe, (const char *file, char *const argv[], char *const envp[]), (file, argv, envp))
LH_EXEC_HOOK(fexecve, (int fd, char *const argv[], char *const envp[]), (fd, argv, envp))

/* execl, execle, execlp: the arguments up to the NULL (and execle's environment after it) into an
 * array on the stack, then the row's summary and the forward through the array form, as glibc does. */
static size_t count_args(const char *arg, va_list ap) {
    size_t n = 1;
    if (arg == NULL) return 1;
    while (va_arg(ap, const char *) != NULL) n++;
    return n + 1; /* arg, the rest, the NULL */
}

#define LH_GATHER(first, arg, argv, n)                                                              \
    do {                                                                                            \
        va_list ap_;                                                                                \
        va_start(ap_, first);                                                                       \
        (argv)[0] = (char *)(arg);                                                                  \
        for (size_t i_ = 1; i_ < (n); i_++) (argv)[i_] = va_arg(ap_, char *);                       \
        va_end(ap_);                                                                                \
    } while (0)

LH_EXPORT int execl(const char *path, const char *arg, ...) {
    va_list ap;
    va_start(ap, arg);
    size_t n = count_args(arg, ap);
    va_end(ap);
    char *argv[n];
    LH_GATHER(arg, arg, argv, n);
    argv[n - 1] = NULL;
    LH_EXEC_FORWARD(LH_HOOK_execl, execv, (path, argv));
}

LH_EXPORT int execlp(const char *file, const char *arg, ...) {
    va_list ap;
    va_start(ap, arg);
    size_t n = count_args(arg, ap);
    va_end(ap);
    char *argv[n];
    LH_GATHER(arg, arg, argv, n);
    argv[n - 1] = NULL;
    LH_EXEC_FORWARD(LH_HOOK_execlp, execvp, (file, argv));
}

LH_EXPORT int execle(const char *path, const char *arg, ...) {
    va_list ap;
    va_start(ap, arg);
    size_t n = count_args(arg, ap);
    va_end(ap);
    char *argv[n];
    char *const *envp;
    {
        va_list ap2;
        va_start(ap2, arg);
        argv[0] = (char *)arg;
        for (size_t i = 1; i < n; i++) argv[i] = va_arg(ap2, char *); /* the last is the NULL */
        envp = va_arg(ap2, char *const *);
        va_end(ap2);
    }
    argv[n - 1] = NULL;
    LH_EXEC_FORWARD(LH_HOOK_execle, execve, (path, argv, envp));
}
