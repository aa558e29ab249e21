/*
 * lh_inject.h — making a running process load a shared library and call one of its functions, for
 * `loophunter attach` (issue 20). Linux x86-64, glibc targets. The design, what it touches in the
 * target, why it is safe to kill at any moment and what it cannot do: the top of lh_inject.c.
 *
 * The call runs on ONE thread of the target, chosen while it is at the entry of (or blocked in) an
 * event-loop wait system call (poll, ppoll, select, pselect6, epoll_wait, epoll_pwait,
 * epoll_pwait2), a point where it holds no malloc or loader lock. No other thread is stopped.
 * Afterwards that thread executes the same wait again, with its original arguments.
 *
 * Normal C (not the preload): it allocates and uses stdio internally. It is synchronous and uses
 * ptrace from the calling thread; the caller must not reap children with waitpid(-1) in another
 * thread meanwhile (ptrace stops are reported through the same waits).
 */
#ifndef LOOPHUNTER_LH_INJECT_H
#define LOOPHUNTER_LH_INJECT_H

#ifdef __cplusplus
extern "C" {
#endif

enum {
    LH_INJECT_OK = 0,
    LH_INJECT_NO_PROCESS = 1,     /* no such process (ESRCH), or pid names a thread, not a process */
    LH_INJECT_NOT_PERMITTED = 2,  /* ptrace refused (EPERM): other user, Yama, already traced */
    LH_INJECT_NOT_SUPPORTED = 3,  /* not x86-64 ELF64, no libc.so.6 mapped (static, musl), CET shadow stack */
    LH_INJECT_NO_SAFE_POINT = 4,  /* no thread reached an event-loop wait in time, or the program is stopped */
    LH_INJECT_EXITED = 5,         /* the process ended during the attach or the call */
    LH_INJECT_LOAD_FAILED = 6,    /* dlopen returned NULL: message has dlerror()'s text */
    LH_INJECT_NO_FUNCTION = 7,    /* dlsym returned NULL */
    LH_INJECT_TIMEOUT = 8,        /* the call did not finish in time; it may still finish */
    LH_INJECT_BUSY = 9,           /* another injection into this pid is in progress (or still running) */
    LH_INJECT_BAD_ARGUMENT = 10,  /* library not an absolute path, a string too long, NULL arguments */
    LH_INJECT_SYSTEM_ERROR = 11,  /* an unexpected system error (named in the message) */
};

typedef struct lh_inject_result {
    int code;              /* LH_INJECT_OK or one of the LH_INJECT_* failures above */
    int tid;               /* the thread that ran the call (0 if none did) */
    long function_result;  /* the called function's int result (when code == OK) */
    char message[1024];    /* a sentence for people on failure: names the input, says what to do */
} lh_inject_result;

/* Loads `library` (absolute path, as seen by the target) into process `pid` with
 *   dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)
 * (a library already loaded gives its handle again), looks up `function` with dlsym(handle, ...)
 * and calls  int function(const char *argument)  in the thread chosen as above, then lets the
 * thread go on exactly where it was. Waits at most timeout_ms (in total) for a thread to reach a
 * safe point and for the call to finish (longer only if a thread it traces falls into
 * uninterruptible sleep: that thread must stop before it can be let go). Returns out->code. Limits: library <= 1023 bytes,
 * function <= 255, argument <= 2047 (BAD_ARGUMENT beyond). */
int lh_inject_call(int pid, const char *library, const char *function, const char *argument,
                   int timeout_ms, lh_inject_result *out);

/* "OK", "NO_PROCESS", ... for a code (for logs and tests); "UNKNOWN" for anything else. */
const char *lh_inject_code_name(int code);

#ifdef __cplusplus
}
#endif

#endif
