/*
 * lh_inject.c — see lh_inject.h. Linux x86-64 only, glibc targets (dlopen/dlsym/dlerror in
 * libc.so.6, glibc >= 2.34, or in libdl.so.2 when an older glibc has it loaded).
 *
 * THE CONTRACT
 *
 * What it touches in the target, in this order:
 *   1. Nothing, while it reads /proc/PID/{status,maps,task/}, the ELF files behind the mappings and
 *      (process_vm_readv) a few words of the target's memory.
 *   2. One thread, the one it uses: PTRACE_SEIZE (one option, PTRACE_O_TRACESYSGOOD, see kill
 *      safety; never PTRACE_O_EXITKILL),
 *      PTRACE_INTERRUPT, and PTRACE_SYSCALL until that thread is at a safe point (below). Other
 *      threads are never stopped. A thread that gives no safe point in its time slice is detached
 *      untouched and the next is tried (main thread first, then the others), one at a time.
 *   3. At the safe point, through /proc/PID/task/TID/mem (pwrite; writing there, not before
 *      attaching, keeps the copy-on-write of a private r-x page allowed even on kernels booted
 *      with proc_mem.force_override=ptrace, since we are that thread's tracer), in this order:
 *        - the "code cave": unused bytes at the end of the last page of some module's executable
 *          PT_LOAD ([bias + p_vaddr + p_memsz, page end), in the main executable first, then libc,
 *          then the others): trampoline (below) + constants + the three strings;
 *        - 8 bytes of the thread's own stack at rsp-136, just below its 128-byte red zone (dead
 *          memory by the ABI): the address to resume at, the 2-byte `syscall` instruction;
 *        - the data area: 80 bytes of the unused end of the last page of some module's writable
 *          PT_LOAD (libc first, then other libraries, the main executable last; never ld.so, whose
 *          early allocator uses that very space): sequence words and the call's results.
 *      Candidate modules must be mapped as the loader maps them (each PT_LOAD at its file offset,
 *      code executable), so a file merely mmap'd for reading is never taken for one. Before
 *      writing, 16 bytes at dlopen and before the cave are compared with what they were when
 *      planned: an exec in between (new memory) aborts with EXITED.
 *      Nothing the target executes or reads lives at these addresses, and every byte written is
 *      the same for every call except the strings, the sequence words and the resume slot.
 *   4. ONE PTRACE_SETREGS: rip = cave, rsp = rsp - 136, rax = the wait's syscall number (to be
 *      redone), orig_rax = -1 (no syscall at entry, no restart). Then PTRACE_DETACH. (Moving rsp
 *      here, rather than `sub rsp, 128` in the trampoline, puts the resume address on the
 *      thread's own stack: no shared resume word two overlapping calls could fight over, and lea
 *      or ret never change the flags before pushfq / after popfq.)
 * The thread runs the trampoline on its own: pushfq + all 15 general registers, cld, aligns the
 * stack, XSAVE of x87/SSE/AVX/AVX-512 state (FXSAVE without XSAVE), saves errno (through
 * __errno_location), dlopen(path, RTLD_NOW|RTLD_LOCAL|RTLD_NODELETE); NULL: dlerror(); else
 * dlsym(handle, function); NULL: dlerror(); else function(argument); stores the results; restores
 * errno; stores done = sequence (a plain store: x86 does not reorder it before the earlier ones);
 * XRSTOR; pops everything; `ret 128` to the resume slot, which leaves rsp exactly as it was and
 * re-executes the same wait with the same registers (so the same arguments). For an interrupted
 * poll whose kernel restart would have been restart_syscall, the wait is redone with its original
 * timeout instead (the restart block may be overwritten by the syscalls dlopen makes). The
 * injector then polls the done word with process_vm_readv (no ptrace) and reads the results,
 * and dlerror's text from the target's memory.
 *
 * Safe points (no malloc, loader or toolkit lock held: GLib and Qt release their context locks
 * around the poll): a syscall-ENTRY stop of poll, ppoll, select, pselect6, epoll_wait, epoll_pwait
 * or epoll_pwait2 (through the 2-byte `syscall`: the two bytes before rip are checked to be 0f 05,
 * which also rules out int 0x80, whose numbers are i386's), or the PTRACE_INTERRUPT stop of a thread
 * blocked in one of them (rax = -ERESTART* or -EINTR, orig_rax the wait) when no signal is pending
 * for the thread or the process (else the wait's interruption may be real: we let it be delivered
 * and wait for the next entry).
 *
 * Kill safety: loophunter may die at any instant. Before the SETREGS, the kernel detaches the
 * thread on our death and it goes on unmodified (in a syscall stop then, the kernel sends it the
 * stop's code as a signal: SIGTRAP|0x80 with PTRACE_O_TRACESYSGOOD, no valid signal, so nothing) (the writes of step 3 are inert; a wait that the
 * interrupt made return -ERESTART* is restarted by the kernel as after any signal; only an
 * epoll_wait caught in that window returns EINTR to the program, as after gdb or strace). After the
 * SETREGS, the thread runs the whole call and goes on, whether or not we are still there: the
 * resume address is on its own stack, not in shared memory. Re-runs check the data area first: a
 * call armed and started but not done is still running (BUSY until it finishes); armed but not
 * started after 200 ms is an injector killed before its SETREGS (stale; reused).
 *
 * No host lock is taken by the injector (it only uses ptrace, /proc and process_vm_readv); the
 * target's own dlopen/malloc take their locks in a thread that holds none at a wait, as any caller
 * of dlopen would. Concurrent injections into one pid are excluded by an abstract unix socket
 * "loophunter-inject-PID" bound for the duration (released by the kernel if we die).
 *
 * What it cannot do:
 *   - a thread stuck in a CPU loop, or blocked forever in anything but a wait, never gives a
 *     safe point (NO_SAFE_POINT names each thread's state);
 *   - a thread whose wait runs on a sigaltstack (inside a signal handler) would run dlopen on that
 *     small stack: not detected; the call needs a few KiB of the waiting thread's stack;
 *   - 32-bit and x32 processes, static or non-glibc programs, CET shadow stacks (`ret 128` to
 *     an address no `call` pushed), glibc < 2.34 without libdl.so.2 loaded (NOT_SUPPORTED);
 *   - a stopped program (SIGSTOP, Ctrl-Z): NO_SAFE_POINT, `kill -CONT` it first;
 *   - a signal whose handler runs while the call is in flight does not make the redone wait
 *     return EINTR (loops that wake on signals through a pipe, eventfd or signalfd, as GLib and
 *     Qt do, are unaffected); a thread interrupted in a call that does not restart (epoll_wait
 *     itself is redone; io_getevents, sigtimedwait...) may see EINTR, as with gdb or strace;
 *   - glibc versions whose wrappers run these waits with asynchronous cancellation enabled: a
 *     pthread_cancel aimed at the chosen thread during the call could cancel it inside dlopen;
 *   - seccomp filters that kill on syscall -1 (the skipped syscall at entry) are not detected;
 *   - the timeout is exceeded if a thread we trace falls into uninterruptible sleep (D) as its
 *     slice ends: it must stop before it can be let go (threads already in D are not chosen);
 *   - the caller must not reap children with waitpid(-1) in another thread during the call.
 */
#define _GNU_SOURCE
#include "lh_inject.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const code_names[] = {
    "OK", "NO_PROCESS", "NOT_PERMITTED", "NOT_SUPPORTED", "NO_SAFE_POINT", "EXITED",
    "LOAD_FAILED", "NO_FUNCTION", "TIMEOUT", "BUSY", "BAD_ARGUMENT", "SYSTEM_ERROR",
};

const char *lh_inject_code_name(int code) {
    if (code < 0 || (size_t)code >= sizeof code_names / sizeof code_names[0]) return "UNKNOWN";
    return code_names[code];
}

static int finish(lh_inject_result *out, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int finish(lh_inject_result *out, int code, const char *fmt, ...) {
    out->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof out->message, fmt, ap);
    va_end(ap);
    return code;
}

#if defined(__x86_64__) && defined(__linux__)

#include <cpuid.h>
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- limits and layout ------------------------------------------------------------------- */

#define MAX_LIBRARY 1023
#define MAX_FUNCTION 255
#define MAX_ARGUMENT 2047

#define RED_ZONE 128
#define SLOT_BELOW (RED_ZONE + 8) /* resume slot at rsp - 136; the trampoline starts with rsp there */

/* The data area (written by the injector, then by the trampoline at the offsets in its code). */
enum {
    D_MAGIC = 0,    /* injector: DATA_MAGIC */
    D_ARMED = 8,    /* injector: this call's sequence number (never 0) */
    D_STARTED = 16, /* trampoline: copies D_ARMED here first */
    D_DONE = 24,    /* trampoline: stores its sequence number last */
    D_HANDLE = 32,  /* trampoline: dlopen's result */
    D_SYM = 40,     /* trampoline: dlsym's result */
    D_ERROR = 48,   /* trampoline: dlerror's result (after a NULL dlopen or dlsym) */
    D_RESULT = 56,  /* trampoline: the function's int result, sign-extended */
    D_TID = 64,     /* injector: the thread armed */
    D_WHEN = 72,    /* injector: CLOCK_MONOTONIC ns when armed */
    DATA_SIZE = 80,
};
#define DATA_MAGIC 0x314a4e49484c4f4cULL /* "LOLHINJ1" */

/* The trampoline, assembled from this source (GNU as, .intel_syntax noprefix); its constants pool
 * follows it at TRAMP_POOL (rip-relative loads), so the code bytes never change.
 *
 *   entry:  pushfq; push rax, rbx, rcx, rdx, rsi, rdi, rbp, r8..r15
 *           cld; mov rbp, rsp
 *           mov rax, [rip+p_xsize]; test rax, rax; jz 1f
 *           sub rsp, rax; and rsp, -64; xor eax, eax
 *           mov [rsp+512..568], rax            ; XSAVE header zeroed (8 stores)
 *           mov eax, [rip+p_xmask]; xor edx, edx; xsave64 [rsp]; jmp 2f
 *   1:      sub rsp, 512; and rsp, -64; fxsave64 [rsp]
 *   2:      mov r12, [rip+p_data]; mov rbx, [r12+8]; mov [r12+16], rbx
 *           call [rip+p_errno_loc]; mov r13, rax; mov r14d, [rax]
 *           mov rdi, [rip+p_path]; mov esi, 0x1002; call [rip+p_dlopen]; mov [r12+32], rax
 *           test rax, rax; jz 3f
 *           mov rdi, rax; mov rsi, [rip+p_func]; call [rip+p_dlsym]; mov [r12+40], rax
 *           test rax, rax; jz 3f
 *           mov rdi, [rip+p_arg]; call rax; movsxd rax, eax; mov [r12+56], rax; jmp 4f
 *   3:      call [rip+p_dlerror]; mov [r12+48], rax
 *   4:      mov [r13], r14d; mov [r12+24], rbx
 *           mov rax, [rip+p_xsize]; test rax, rax; jz 5f
 *           mov eax, [rip+p_xmask]; xor edx, edx; xrstor64 [rsp]; jmp 6f
 *   5:      fxrstor64 [rsp]
 *   6:      mov rsp, rbp; pop r15..r8, rbp, rdi, rsi, rdx, rcx, rbx, rax; popfq
 *           ret 128
 *   pool:   p_dlopen, p_dlsym, p_dlerror, p_errno_loc, p_data, p_path, p_func, p_arg, p_xsize, p_xmask
 */
static const uint8_t tramp_code[] = {
    0x9c, 0x50, 0x53, 0x51, 0x52, 0x56, 0x57, 0x55, 0x41, 0x50, 0x41, 0x51, 0x41, 0x52, 0x41, 0x53,
    0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57, 0xfc, 0x48, 0x89, 0xe5, 0x48, 0x8b, 0x05, 0x65,
    0x01, 0x00, 0x00, 0x48, 0x85, 0xc0, 0x74, 0x58, 0x48, 0x29, 0xc4, 0x48, 0x83, 0xe4, 0xc0, 0x31,
    0xc0, 0x48, 0x89, 0x84, 0x24, 0x00, 0x02, 0x00, 0x00, 0x48, 0x89, 0x84, 0x24, 0x08, 0x02, 0x00,
    0x00, 0x48, 0x89, 0x84, 0x24, 0x10, 0x02, 0x00, 0x00, 0x48, 0x89, 0x84, 0x24, 0x18, 0x02, 0x00,
    0x00, 0x48, 0x89, 0x84, 0x24, 0x20, 0x02, 0x00, 0x00, 0x48, 0x89, 0x84, 0x24, 0x28, 0x02, 0x00,
    0x00, 0x48, 0x89, 0x84, 0x24, 0x30, 0x02, 0x00, 0x00, 0x48, 0x89, 0x84, 0x24, 0x38, 0x02, 0x00,
    0x00, 0x8b, 0x05, 0x19, 0x01, 0x00, 0x00, 0x31, 0xd2, 0x48, 0x0f, 0xae, 0x24, 0x24, 0xeb, 0x10,
    0x48, 0x81, 0xec, 0x00, 0x02, 0x00, 0x00, 0x48, 0x83, 0xe4, 0xc0, 0x48, 0x0f, 0xae, 0x04, 0x24,
    0x4c, 0x8b, 0x25, 0xd1, 0x00, 0x00, 0x00, 0x49, 0x8b, 0x5c, 0x24, 0x08, 0x49, 0x89, 0x5c, 0x24,
    0x10, 0xff, 0x15, 0xb9, 0x00, 0x00, 0x00, 0x49, 0x89, 0xc5, 0x44, 0x8b, 0x30, 0x48, 0x8b, 0x3d,
    0xbc, 0x00, 0x00, 0x00, 0xbe, 0x02, 0x10, 0x00, 0x00, 0xff, 0x15, 0x89, 0x00, 0x00, 0x00, 0x49,
    0x89, 0x44, 0x24, 0x20, 0x48, 0x85, 0xc0, 0x74, 0x2d, 0x48, 0x89, 0xc7, 0x48, 0x8b, 0x35, 0xa5,
    0x00, 0x00, 0x00, 0xff, 0x15, 0x77, 0x00, 0x00, 0x00, 0x49, 0x89, 0x44, 0x24, 0x28, 0x48, 0x85,
    0xc0, 0x74, 0x13, 0x48, 0x8b, 0x3d, 0x96, 0x00, 0x00, 0x00, 0xff, 0xd0, 0x48, 0x63, 0xc0, 0x49,
    0x89, 0x44, 0x24, 0x38, 0xeb, 0x0b, 0xff, 0x15, 0x5c, 0x00, 0x00, 0x00, 0x49, 0x89, 0x44, 0x24,
    0x30, 0x45, 0x89, 0x75, 0x00, 0x49, 0x89, 0x5c, 0x24, 0x18, 0x48, 0x8b, 0x05, 0x77, 0x00, 0x00,
    0x00, 0x48, 0x85, 0xc0, 0x74, 0x0f, 0x8b, 0x05, 0x74, 0x00, 0x00, 0x00, 0x31, 0xd2, 0x48, 0x0f,
    0xae, 0x2c, 0x24, 0xeb, 0x05, 0x48, 0x0f, 0xae, 0x0c, 0x24, 0x48, 0x89, 0xec, 0x41, 0x5f, 0x41,
    0x5e, 0x41, 0x5d, 0x41, 0x5c, 0x41, 0x5b, 0x41, 0x5a, 0x41, 0x59, 0x41, 0x58, 0x5d, 0x5f, 0x5e,
    0x5a, 0x59, 0x5b, 0x58, 0x9d, 0xc2, 0x80, 0x00,
};
#define TRAMP_POOL 0x148
_Static_assert(sizeof tramp_code == TRAMP_POOL, "the pool follows the code");
enum { P_DLOPEN, P_DLSYM, P_DLERROR, P_ERRNO_LOC, P_DATA, P_PATH, P_FUNC, P_ARG, P_XSIZE, P_XMASK,
       POOL_WORDS };

/* x86-64 syscall numbers of the waits, and the kernel's restart codes (not in uapi headers). */
#define NR_POLL 7
#define NR_SELECT 23
#define NR_EPOLL_WAIT 232
#define NR_PSELECT6 270
#define NR_PPOLL 271
#define NR_EPOLL_PWAIT 281
#define NR_EPOLL_PWAIT2 441
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

/* ---- small helpers --------------------------------------------------------------------------- */

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(long ns) {
    struct timespec ts = {0, ns};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/* Reads a small /proc file whole (NUL-terminated). Returns its length, or -1 with errno. */
static ssize_t read_text(const char *path, char *buf, size_t cap) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t len = 0;
    while (len + 1 < cap) {
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        len += (size_t)n;
    }
    buf[len] = '\0';
    int saved = errno;
    close(fd);
    errno = saved;
    return (ssize_t)len;
}

/* A growing text buffer for messages that list things; stops appending when full. */
typedef struct sbuf {
    char *buf;
    size_t cap, len;
} sbuf;

static void sb_printf(sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *sb, const char *fmt, ...) {
    if (sb->len + 1 >= sb->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
    va_end(ap);
    if (n > 0) sb->len = sb->len + (size_t)n < sb->cap ? sb->len + (size_t)n : sb->cap - 1;
}

static bool is_wait(long nr) {
    return nr == NR_POLL || nr == NR_SELECT || nr == NR_EPOLL_WAIT || nr == NR_PSELECT6 ||
           nr == NR_PPOLL || nr == NR_EPOLL_PWAIT || nr == NR_EPOLL_PWAIT2;
}

static bool wait_has_sigmask(long nr) {
    return nr == NR_PSELECT6 || nr == NR_PPOLL || nr == NR_EPOLL_PWAIT || nr == NR_EPOLL_PWAIT2;
}

static const char *syscall_name(long nr) {
    switch (nr) {
    case 0: return "read";
    case 1: return "write";
    case 3: return "close";
    case 7: return "poll";
    case 9: return "mmap";
    case 16: return "ioctl";
    case 17: return "pread64";
    case 19: return "readv";
    case 20: return "writev";
    case 23: return "select";
    case 24: return "sched_yield";
    case 34: return "pause";
    case 35: return "nanosleep";
    case 43: return "accept";
    case 44: return "sendto";
    case 45: return "recvfrom";
    case 46: return "sendmsg";
    case 47: return "recvmsg";
    case 61: return "wait4";
    case 72: return "fcntl";
    case 128: return "rt_sigtimedwait";
    case 130: return "rt_sigsuspend";
    case 202: return "futex";
    case 208: return "io_getevents";
    case 219: return "restart_syscall";
    case 230: return "clock_nanosleep";
    case 232: return "epoll_wait";
    case 247: return "waitid";
    case 257: return "openat";
    case 270: return "pselect6";
    case 271: return "ppoll";
    case 281: return "epoll_pwait";
    case 288: return "accept4";
    case 426: return "io_uring_enter";
    case 441: return "epoll_pwait2";
    case 449: return "futex_waitv";
    default: return NULL;
    }
}

/* ---- /proc/PID/status ------------------------------------------------------------------------ */

typedef struct proc_status {
    bool ok;
    int tgid;
    int tracer;
    char state;
    unsigned long long sig_pending, shared_pending, sig_blocked;
    bool shadow_stack;
} proc_status;

static void read_status(const char *path, proc_status *st) {
    memset(st, 0, sizeof *st);
    char buf[4096];
    if (read_text(path, buf, sizeof buf) < 0) return;
    st->ok = true;
    for (char *line = buf; line && *line; ) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        if (!strncmp(line, "Tgid:", 5)) st->tgid = atoi(line + 5);
        else if (!strncmp(line, "TracerPid:", 10)) st->tracer = atoi(line + 10);
        else if (!strncmp(line, "State:", 6)) {
            const char *p = line + 6;
            while (*p == ' ' || *p == '\t') p++;
            st->state = *p;
        } else if (!strncmp(line, "SigPnd:", 7)) st->sig_pending = strtoull(line + 7, NULL, 16);
        else if (!strncmp(line, "ShdPnd:", 7)) st->shared_pending = strtoull(line + 7, NULL, 16);
        else if (!strncmp(line, "SigBlk:", 7)) st->sig_blocked = strtoull(line + 7, NULL, 16);
        else if (!strncmp(line, "x86_Thread_features:", 20)) st->shadow_stack = strstr(line, "shstk") != NULL;
        line = nl ? nl + 1 : NULL;
    }
}

static void thread_status(int pid, int tid, proc_status *st) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/status", pid, tid);
    read_status(path, st);
}

static bool thread_exists(int pid, int tid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d", pid, tid);
    return access(path, F_OK) == 0;
}

static bool process_alive(int pid) {
    char path[64];
    proc_status st;
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    read_status(path, &st);
    return st.ok && st.state != 'Z' && st.state != 'X';
}

/* ---- threads and their states ---------------------------------------------------------------- */

typedef struct thread_state {
    int tid;
    char state;    /* /proc stat letter: R S D T t Z ... */
    long syscall;  /* the syscall it is blocked in; -1 none (user code); -2 running; -3 unknown */
} thread_state;

static void probe_thread(int pid, thread_state *t) {
    char path[96], buf[512];
    t->state = '?';
    t->syscall = -3;
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, t->tid);
    if (read_text(path, buf, sizeof buf) > 0) {
        char *paren = strrchr(buf, ')');
        if (paren && paren[1] == ' ') t->state = paren[2];
    }
    snprintf(path, sizeof path, "/proc/%d/task/%d/syscall", pid, t->tid);
    if (read_text(path, buf, sizeof buf) > 0) {
        if (!strncmp(buf, "running", 7)) t->syscall = -2;
        else t->syscall = strtol(buf, NULL, 10);
    }
}

static int compare_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Lists the threads (main first, then by tid) with their states. Returns the count (<= cap). */
static int scan_threads(int pid, thread_state *threads, int cap) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *dir = opendir(path);
    if (!dir) return 0;
    int tids[1024], n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && n < (int)(sizeof tids / sizeof tids[0])) {
        int tid = atoi(e->d_name);
        if (tid > 0) tids[n++] = tid;
    }
    closedir(dir);
    qsort(tids, (size_t)n, sizeof tids[0], compare_int);
    int count = 0;
    for (int i = -1; i < n && count < cap; i++) {
        int tid = i < 0 ? pid : tids[i];
        if (i >= 0 && tid == pid) continue;
        if (i < 0) {
            bool found = false;
            for (int j = 0; j < n; j++) found |= tids[j] == pid;
            if (!found) continue;
        }
        threads[count].tid = tid;
        probe_thread(pid, &threads[count]);
        count++;
    }
    return count;
}

/* A thread worth seizing: not exiting, not in uninterruptible sleep. */
static bool usable(const thread_state *t) {
    return t->state != 'Z' && t->state != 'X' && t->state != 'D';
}

static void describe_thread(sbuf *sb, int pid, const thread_state *t) {
    sb_printf(sb, "tid %d%s: ", t->tid, t->tid == pid ? " (main)" : "");
    const char *name = t->syscall >= 0 ? syscall_name(t->syscall) : NULL;
    if (t->state == 'R' || t->syscall == -2) sb_printf(sb, "running");
    else if (t->state == 'T' || t->state == 't') sb_printf(sb, "stopped");
    else if (t->state == 'Z' || t->state == 'X') sb_printf(sb, "exited");
    else if (t->syscall == -1) sb_printf(sb, "preempted in user code");
    else if (t->syscall >= 0 && name) sb_printf(sb, "%s in %s", t->state == 'D' ? "uninterruptible" : "blocked", name);
    else if (t->syscall >= 0) sb_printf(sb, "blocked in system call %ld", t->syscall);
    else sb_printf(sb, "state %c", t->state);
}

/* ---- /proc/PID/maps --------------------------------------------------------------------------- */

typedef struct mapping {
    uint64_t start, end, offset;
    unsigned long inode;
    unsigned dev_major, dev_minor;
    char perms[5];
    char *path; /* NULL for anonymous; " (deleted)" stripped (deleted is set) */
    bool deleted;
} mapping;

typedef struct maps {
    mapping *m;
    int count;
} maps;

static void free_maps(maps *mp) {
    for (int i = 0; i < mp->count; i++) free(mp->m[i].path);
    free(mp->m);
    mp->m = NULL;
    mp->count = 0;
}

static int read_maps(int pid, maps *mp) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", pid);
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    memset(mp, 0, sizeof *mp);
    int cap = 0;
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t len;
    while ((len = getline(&line, &line_cap, f)) > 0) {
        if (line[len - 1] == '\n') line[--len] = '\0';
        mapping m;
        memset(&m, 0, sizeof m);
        int consumed = 0;
        if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu %n", (unsigned long *)&m.start, (unsigned long *)&m.end,
                   m.perms, (unsigned long *)&m.offset, &m.dev_major, &m.dev_minor, &m.inode, &consumed) < 7)
            continue;
        const char *name = line + consumed;
        if (*name) {
            m.path = strdup(name);
            size_t plen = strlen(m.path);
            const char *suffix = " (deleted)";
            size_t slen = strlen(suffix);
            if (plen > slen && !strcmp(m.path + plen - slen, suffix)) {
                m.path[plen - slen] = '\0';
                m.deleted = true;
            }
        }
        if (mp->count == cap) {
            cap = cap ? cap * 2 : 256;
            mapping *grown = realloc(mp->m, (size_t)cap * sizeof *grown);
            if (!grown) { free(m.path); break; }
            mp->m = grown;
        }
        mp->m[mp->count++] = m;
    }
    free(line);
    fclose(f);
    return 0;
}

static const mapping *mapping_at(const maps *mp, uint64_t addr) {
    for (int i = 0; i < mp->count; i++)
        if (addr >= mp->m[i].start && addr < mp->m[i].end) return &mp->m[i];
    return NULL;
}

/* ---- ELF files behind the mappings ------------------------------------------------------------- */

#define MAX_LOADS 16

typedef struct elf_info {
    bool ok;
    int nload;
    struct { uint64_t vaddr, memsz, offset, filesz; uint32_t flags; } load[MAX_LOADS];
} elf_info;

static bool pread_full(int fd, void *buf, size_t len, uint64_t off) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += (size_t)n;
    }
    return true;
}

static bool elf_header(int fd, Elf64_Ehdr *eh) {
    if (!pread_full(fd, eh, sizeof *eh, 0)) return false;
    return memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
           eh->e_ident[EI_DATA] == ELFDATA2LSB && eh->e_machine == EM_X86_64 &&
           (eh->e_type == ET_DYN || eh->e_type == ET_EXEC) && eh->e_phentsize == sizeof(Elf64_Phdr);
}

static void elf_read_info(int fd, elf_info *ei) {
    memset(ei, 0, sizeof *ei);
    Elf64_Ehdr eh;
    if (!elf_header(fd, &eh) || eh.e_phnum == 0 || eh.e_phnum > 256) return;
    Elf64_Phdr ph[256];
    if (!pread_full(fd, ph, eh.e_phnum * sizeof ph[0], eh.e_phoff)) return;
    for (int i = 0; i < eh.e_phnum; i++) {
        if (ph[i].p_type != PT_LOAD || ei->nload == MAX_LOADS) continue;
        ei->load[ei->nload].vaddr = ph[i].p_vaddr;
        ei->load[ei->nload].memsz = ph[i].p_memsz;
        ei->load[ei->nload].offset = ph[i].p_offset;
        ei->load[ei->nload].filesz = ph[i].p_filesz;
        ei->load[ei->nload].flags = ph[i].p_flags;
        ei->nload++;
    }
    ei->ok = ei->nload > 0;
}

/* Opens the file behind mapping m, checked to be the same inode: map_files (exact, also for a file
 * deleted or replaced on disk; needs CAP_SYS_ADMIN), then through the target's root (containers),
 * then the path itself. */
static int open_mapped_file(int pid, const mapping *m) {
    char path[PATH_MAX + 64];
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attempt == 0) snprintf(path, sizeof path, "/proc/%d/map_files/%lx-%lx", pid,
                                   (unsigned long)m->start, (unsigned long)m->end);
        else if (attempt == 1) snprintf(path, sizeof path, "/proc/%d/root%s", pid, m->path);
        else snprintf(path, sizeof path, "%s", m->path);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_ino == m->inode) return fd;
        close(fd);
    }
    return -1;
}

enum module_kind { MOD_OTHER, MOD_EXE, MOD_LIBC, MOD_LIBDL, MOD_LDSO };

typedef struct module {
    const mapping *first; /* the mapping of its first PT_LOAD */
    uint64_t bias;
    elf_info elf;
    enum module_kind kind;
} module;

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static enum module_kind kind_of(const char *path, unsigned long inode, unsigned long exe_inode) {
    const char *b = base_name(path);
    if (inode == exe_inode) return MOD_EXE;
    if (!strcmp(b, "libc.so.6") || (!strncmp(b, "libc-2.", 7) && strstr(b, ".so"))) return MOD_LIBC;
    if (!strcmp(b, "libdl.so.2") || (!strncmp(b, "libdl-2.", 8) && strstr(b, ".so"))) return MOD_LIBDL;
    if (!strncmp(b, "ld-linux", 8) || !strncmp(b, "ld-2.", 5)) return MOD_LDSO;
    return MOD_OTHER;
}

/* Is this module instance really mapped by the loader (not a file mmap'd for reading)? Every
 * PT_LOAD with file contents starts on a mapping of the same inode at the right file offset, and
 * the executable ones are executable. */
static bool module_is_loaded(const maps *mp, const module *mod) {
    long page = sysconf(_SC_PAGESIZE);
    for (int i = 0; i < mod->elf.nload; i++) {
        if (mod->elf.load[i].filesz == 0) continue;
        uint64_t addr = (mod->bias + mod->elf.load[i].vaddr) & ~(uint64_t)(page - 1);
        const mapping *m = mapping_at(mp, addr);
        if (!m || m->inode != mod->first->inode) return false;
        if (m->offset + (addr - m->start) != (mod->elf.load[i].offset & ~(uint64_t)(page - 1))) return false;
        if ((mod->elf.load[i].flags & PF_X) && m->perms[2] != 'x') return false;
    }
    return true;
}

typedef struct elf_cache_entry {
    unsigned long inode;
    unsigned dev_major, dev_minor;
    elf_info elf;
} elf_cache_entry;

/* Finds the loaded ELF modules: one per mapping of a first PT_LOAD's page. */
static int find_modules(int pid, const maps *mp, unsigned long exe_inode, module **out_modules) {
    long page = sysconf(_SC_PAGESIZE);
    elf_cache_entry *cache = NULL;
    int ncache = 0, capcache = 0;
    module *mods = NULL;
    int nmods = 0, capmods = 0;
    for (int i = 0; i < mp->count; i++) {
        const mapping *m = &mp->m[i];
        if (!m->path || m->path[0] != '/' || m->inode == 0) continue;
        elf_cache_entry *ce = NULL;
        for (int j = 0; j < ncache; j++)
            if (cache[j].inode == m->inode && cache[j].dev_major == m->dev_major && cache[j].dev_minor == m->dev_minor)
                ce = &cache[j];
        if (!ce) {
            if (ncache == capcache) {
                capcache = capcache ? capcache * 2 : 64;
                elf_cache_entry *grown = realloc(cache, (size_t)capcache * sizeof *grown);
                if (!grown) break;
                cache = grown;
            }
            ce = &cache[ncache++];
            ce->inode = m->inode;
            ce->dev_major = m->dev_major;
            ce->dev_minor = m->dev_minor;
            int fd = open_mapped_file(pid, m);
            if (fd >= 0) {
                elf_read_info(fd, &ce->elf);
                close(fd);
            } else {
                memset(&ce->elf, 0, sizeof ce->elf);
            }
        }
        if (!ce->elf.ok) continue;
        /* The first PT_LOAD (lowest address) is mapped from its page-aligned file offset. */
        int first = 0;
        for (int j = 1; j < ce->elf.nload; j++)
            if (ce->elf.load[j].vaddr < ce->elf.load[first].vaddr) first = j;
        if (m->offset != (ce->elf.load[first].offset & ~(uint64_t)(page - 1))) continue;
        module mod;
        memset(&mod, 0, sizeof mod);
        mod.first = m;
        mod.bias = m->start - (ce->elf.load[first].vaddr & ~(uint64_t)(page - 1));
        mod.elf = ce->elf;
        mod.kind = kind_of(m->path, m->inode, exe_inode);
        if (!module_is_loaded(mp, &mod)) continue;
        if (nmods == capmods) {
            capmods = capmods ? capmods * 2 : 64;
            module *grown = realloc(mods, (size_t)capmods * sizeof *grown);
            if (!grown) break;
            mods = grown;
        }
        mods[nmods++] = mod;
    }
    free(cache);
    *out_modules = mods;
    return nmods;
}

/* Looks up defined function symbols in a module's .dynsym (the default version when versioned). */
static bool find_symbols(int pid, const module *mod, const char *const *names, int count, uint64_t *values,
                         bool *ifunc) {
    int fd = open_mapped_file(pid, mod->first);
    if (fd < 0) return false;
    bool ok = false;
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = NULL;
    Elf64_Sym *syms = NULL;
    char *strtab = NULL;
    uint16_t *versym = NULL;
    if (!elf_header(fd, &eh) || eh.e_shnum == 0 || eh.e_shentsize != sizeof(Elf64_Shdr)) goto done;
    sh = malloc(eh.e_shnum * sizeof *sh);
    if (!sh || !pread_full(fd, sh, eh.e_shnum * sizeof *sh, eh.e_shoff)) goto done;
    int dynsym = -1, vers = -1;
    for (int i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type == SHT_DYNSYM) dynsym = i;
        if (sh[i].sh_type == SHT_GNU_versym) vers = i;
    }
    if (dynsym < 0 || sh[dynsym].sh_link >= eh.e_shnum || sh[dynsym].sh_size > (64u << 20)) goto done;
    const Elf64_Shdr *st = &sh[sh[dynsym].sh_link];
    if (st->sh_size > (64u << 20)) goto done;
    size_t nsyms = sh[dynsym].sh_size / sizeof(Elf64_Sym);
    syms = malloc(sh[dynsym].sh_size + 1);
    strtab = malloc(st->sh_size + 1);
    if (!syms || !strtab || !pread_full(fd, syms, sh[dynsym].sh_size, sh[dynsym].sh_offset) ||
        !pread_full(fd, strtab, st->sh_size, st->sh_offset))
        goto done;
    strtab[st->sh_size] = '\0';
    if (vers >= 0 && sh[vers].sh_size == nsyms * sizeof(uint16_t)) {
        versym = malloc(sh[vers].sh_size);
        if (versym && !pread_full(fd, versym, sh[vers].sh_size, sh[vers].sh_offset)) {
            free(versym);
            versym = NULL;
        }
    }
    for (int k = 0; k < count; k++) {
        bool found_default = false;
        for (size_t i = 1; i < nsyms; i++) {
            const Elf64_Sym *s = &syms[i];
            int type = ELF64_ST_TYPE(s->st_info);
            if (s->st_shndx == SHN_UNDEF || s->st_value == 0 || s->st_name >= st->sh_size) continue;
            if (type != STT_FUNC && type != STT_GNU_IFUNC) continue;
            if (strcmp(strtab + s->st_name, names[k]) != 0) continue;
            bool is_default = !versym || !(versym[i] & 0x8000);
            if (values[k] != 0 && (found_default || !is_default)) continue;
            values[k] = mod->bias + s->st_value;
            ifunc[k] = type == STT_GNU_IFUNC;
            found_default = is_default;
        }
    }
    ok = true;
done:
    free(sh);
    free(syms);
    free(strtab);
    free(versym);
    close(fd);
    return ok;
}

/* ---- code cave and data area --------------------------------------------------------------------- */

/* The unused end of the last page of PT_LOAD `seg` of `mod`, if at least `need` bytes (16-aligned)
 * lie in one private mapping with the wanted permission (w or x). Returns the address or 0. */
static uint64_t segment_tail(const maps *mp, const module *mod, int seg, size_t need, char perm) {
    long page = sysconf(_SC_PAGESIZE);
    uint64_t end = mod->bias + mod->elf.load[seg].vaddr + mod->elf.load[seg].memsz;
    uint64_t page_end = (end + (uint64_t)page - 1) & ~(uint64_t)(page - 1);
    uint64_t start = (end + 15) & ~(uint64_t)15;
    if (start >= page_end || page_end - start < need) return 0;
    for (int i = 0; i < mod->elf.nload; i++) {
        uint64_t lo = mod->bias + mod->elf.load[i].vaddr, hi = lo + mod->elf.load[i].memsz;
        if (i != seg && lo < page_end && hi > end) return 0; /* another segment shares the page */
    }
    const mapping *m = mapping_at(mp, start);
    if (!m || start + need > m->end || m->perms[3] != 'p') return 0;
    if (perm == 'x') {
        if (m->perms[2] != 'x' || m->inode != mod->first->inode) return 0;
    } else {
        /* The file's page, or the anonymous zero-fill the loader mapped for .bss. */
        if (m->perms[0] != 'r' || m->perms[1] != 'w') return 0;
        if (m->inode != 0 && m->inode != mod->first->inode) return 0;
    }
    return start;
}

static const enum module_kind code_order[] = {MOD_EXE, MOD_LIBC, MOD_OTHER, MOD_LIBDL, MOD_LDSO};
static const enum module_kind data_order[] = {MOD_LIBC, MOD_LIBDL, MOD_OTHER, MOD_EXE};

static uint64_t find_tail(const maps *mp, const module *mods, int nmods, const enum module_kind *order,
                          int norder, size_t need, char perm) {
    for (int o = 0; o < norder; o++)
        for (int i = 0; i < nmods; i++) {
            if (mods[i].kind != order[o]) continue;
            for (int s = 0; s < mods[i].elf.nload; s++) {
                uint32_t flags = mods[i].elf.load[s].flags;
                if (perm == 'x' ? !(flags & PF_X) : !(flags & PF_W)) continue;
                uint64_t at = segment_tail(mp, &mods[i], s, need, perm);
                if (at) return at;
            }
        }
    return 0;
}

/* XSAVE parameters for the trampoline: size of the area for x87, SSE, AVX, AVX-512 (those the OS
 * enabled), or 0 to use FXSAVE (no XSAVE). */
static void xsave_params(uint64_t *size, uint64_t *mask) {
    unsigned a, b, c, d;
    *size = 0;
    *mask = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return; /* OSXSAVE */
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    uint64_t m = (((uint64_t)hi << 32) | lo) & 0xe7; /* x87 SSE AVX opmask ZMM_Hi256 Hi16_ZMM */
    uint64_t s = 576;                                 /* legacy area + header */
    for (unsigned i = 2; i < 8; i++) {
        if (!(m & (1u << i))) continue;
        __cpuid_count(0xd, i, a, b, c, d);
        if ((uint64_t)a + b > s) s = (uint64_t)a + b;
    }
    *size = (s + 63) & ~(uint64_t)63;
    *mask = m;
}

/* ---- target memory ---------------------------------------------------------------------------- */

static bool read_mem(int pid, uint64_t addr, void *buf, size_t len) {
    struct iovec local = {buf, len}, remote = {(void *)(uintptr_t)addr, len};
    return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len;
}

static bool write_mem(int fd, uint64_t addr, const void *buf, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = pwrite(fd, (const char *)buf + done, len - done, (off_t)(addr + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = EIO;
            return false;
        }
        done += (size_t)n;
    }
    return true;
}

/* Reads a NUL-terminated string from the target (at most cap-1 bytes), page by page. */
static void read_string(int pid, uint64_t addr, char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    while (addr && len + 1 < cap) {
        size_t chunk = 4096 - (size_t)(addr & 4095);
        if (chunk > cap - 1 - len) chunk = cap - 1 - len;
        if (!read_mem(pid, addr, buf + len, chunk)) break;
        char *nul = memchr(buf + len, '\0', chunk);
        if (nul) return;
        len += chunk;
        addr += chunk;
    }
    buf[len] = '\0';
}

/* ---- the injection ------------------------------------------------------------------------------ */

typedef struct plan {
    int pid;
    char label[64];      /* "process 1234 (name)" */
    maps mp;
    uint64_t cave, data;
    uint8_t *image;      /* code + pool + strings */
    size_t image_len;
    uint64_t seq;
    uint64_t fingerprint_at[2]; /* dlopen's first bytes and the code just before the cave: */
    uint8_t fingerprint[2][16]; /* an exec (new memory) changes or unmaps them */
    uint64_t deadline;
    int timeout_ms;
    /* what was tried, for NO_SAFE_POINT */
    int traced_syscalls;
    int attempts;
} plan;

enum attempt { ATTEMPT_INJECTED, ATTEMPT_NOT_REACHED, ATTEMPT_GONE, ATTEMPT_FAILED };

/* Waits for a state change of traced thread tid until deadline (0: none). 1: *status set;
 * 0: deadline passed; -1: error (errno). Polls (a blocking waitpid could not time out): a few
 * yields, then sleeps of 10-200 us for the first 20 ms (a stop usually comes within that), then
 * of 1 ms. */
static int wait_traced(int tid, int *status, uint64_t deadline) {
    int spins = 0;
    long pause = 10000;
    uint64_t start = now_ns();
    for (;;) {
        pid_t r = waitpid(tid, status, __WALL | WNOHANG);
        if (r == tid) return 1;
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        uint64_t t = now_ns();
        if (deadline && t >= deadline) return 0;
        if (spins < 10) {
            spins++;
            sched_yield();
            continue;
        }
        sleep_ns(pause);
        if (t - start > 20000000ULL) pause = 1000000;
        else if (pause < 200000) pause *= 2;
    }
}

/* The stop signal of a syscall stop under PTRACE_O_TRACESYSGOOD. Why that option: a thread left in
 * a syscall stop when we die (kill -9 while we step it to its wait) is detached by the kernel with
 * the stop's code still pending as a signal to send it; plain SIGTRAP killed the program (found by
 * reliability row 33), SIGTRAP|0x80 is no valid signal and is dropped. */
#define SYSCALL_SIG (SIGTRAP | 0x80)

/* Classifies a SYSCALL_SIG stop: 1 syscall entry, 2 syscall exit, 0 not a syscall stop. Its
 * siginfo has si_code SYSCALL_SIG; entry or exit is the event message (Linux 5.3+), else they
 * alternate. */
static int syscall_stop(int tid, bool *expect_entry) {
    siginfo_t si;
    if (ptrace(PTRACE_GETSIGINFO, tid, 0, &si) != 0 || si.si_signo != SIGTRAP || si.si_code != SYSCALL_SIG)
        return 0;
    unsigned long msg = 0;
    int kind;
    if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0 && (msg == 1 || msg == 2)) kind = (int)msg;
    else kind = *expect_entry ? 1 : 2;
    *expect_entry = kind == 2;
    return kind;
}

static bool syscall_insn_before(int pid, uint64_t rip) {
    uint8_t bytes[2];
    return rip >= 2 && read_mem(pid, rip - 2, bytes, 2) && bytes[0] == 0x0f && bytes[1] == 0x05;
}

static bool is_stop_signal(int sig) {
    return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static bool interrupted_code(long rax) {
    return rax == -ERESTARTSYS || rax == -ERESTARTNOINTR || rax == -ERESTARTNOHAND ||
           rax == -ERESTART_RESTARTBLOCK || rax == -EINTR;
}

/* No signal that could be delivered when the thread goes on (see the contract). */
static bool no_pending_signal(int pid, int tid, long nr) {
    proc_status st;
    thread_status(pid, tid, &st);
    if (!st.ok) return false;
    unsigned long long pending = st.sig_pending | st.shared_pending;
    if (wait_has_sigmask(nr)) return pending == 0; /* the mask now is the wait's temporary one */
    return (pending & ~st.sig_blocked) == 0;
}

/* At an interrupt stop inside a wait that returned -EINTR only because of our interrupt: make
 * the thread redo the wait instead (epoll_wait does not restart by itself). */
static void redo_interrupted_wait(int pid, int tid) {
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, tid, 0, &regs) != 0) return;
    long nr = (long)regs.orig_rax;
    if (!is_wait(nr) || (long)regs.rax != -EINTR || !no_pending_signal(pid, tid, nr) ||
        !syscall_insn_before(pid, regs.rip))
        return;
    regs.rax = regs.orig_rax;
    regs.orig_rax = (unsigned long long)-1;
    regs.rip -= 2;
    ptrace(PTRACE_SETREGS, tid, 0, &regs);
}

/* Stops a thread we resumed and detaches it untouched (passing on a signal being delivered). */
static void stop_and_detach(int pid, int tid) {
    if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) != 0 && errno == ESRCH) {
        /* Gone, or stopped already (a stop we have not collected yet): collect below. */
    }
    for (;;) {
        int status;
        int r = wait_traced(tid, &status, 0);
        if (r < 0 || WIFEXITED(status) || WIFSIGNALED(status)) return;
        if (!WIFSTOPPED(status)) continue;
        int sig = WSTOPSIG(status), event = status >> 16;
        int pass = 0;
        if (event == PTRACE_EVENT_STOP) {
            if (!is_stop_signal(sig)) redo_interrupted_wait(pid, tid);
        } else if (event == 0) {
            bool expect = true;
            if (!(sig == SYSCALL_SIG && syscall_stop(tid, &expect) != 0)) pass = sig;
        }
        ptrace(PTRACE_DETACH, tid, 0, (void *)(long)pass);
        return;
    }
}

static void fill_pool(plan *p, uint64_t *pool, const uint64_t *fns, uint64_t xsize, uint64_t xmask,
                      size_t path_off, size_t func_off, size_t arg_off) {
    pool[P_DLOPEN] = fns[0];
    pool[P_DLSYM] = fns[1];
    pool[P_DLERROR] = fns[2];
    pool[P_ERRNO_LOC] = fns[3];
    pool[P_DATA] = p->data;
    pool[P_PATH] = p->cave + path_off;
    pool[P_FUNC] = p->cave + func_off;
    pool[P_ARG] = p->cave + arg_off;
    pool[P_XSIZE] = xsize;
    pool[P_XMASK] = xmask;
}

/* The thread is stopped at a safe point with `regs`: write, SETREGS, DETACH. */
static enum attempt arm_thread(plan *p, int tid, struct user_regs_struct *regs, bool interrupted,
                               lh_inject_result *out) {
    char path[64];
    uint64_t resume = regs->rip - 2, sp = regs->rsp;
    uint8_t now_bytes[16];
    bool same = true;
    for (int i = 0; i < 2; i++)
        same = same && read_mem(p->pid, p->fingerprint_at[i], now_bytes, 16) &&
               !memcmp(now_bytes, p->fingerprint[i], 16);
    if (!same) {
        if (interrupted) redo_interrupted_wait(p->pid, tid);
        ptrace(PTRACE_DETACH, tid, 0, 0);
        finish(out, LH_INJECT_EXITED, "%s executed another program during the attach: its memory layout "
               "changed; run the attach again", p->label);
        return ATTEMPT_FAILED;
    }
    snprintf(path, sizeof path, "/proc/%d/task/%d/mem", p->pid, tid);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    uint64_t data[DATA_SIZE / 8] = {0};
    data[D_MAGIC / 8] = DATA_MAGIC;
    data[D_ARMED / 8] = p->seq;
    data[D_TID / 8] = (uint64_t)tid;
    data[D_WHEN / 8] = now_ns();
    const char *what = "the code cave";
    uint64_t where = p->cave;
    bool ok = fd >= 0 && write_mem(fd, p->cave, p->image, p->image_len);
    if (ok) { what = "the thread's stack"; where = sp - SLOT_BELOW; ok = write_mem(fd, sp - SLOT_BELOW, &resume, 8); }
    if (ok) { what = "the data area"; where = p->data; ok = write_mem(fd, p->data, data, sizeof data); }
    int saved = errno;
    if (fd >= 0) close(fd);
    if (!ok) {
        if (interrupted) redo_interrupted_wait(p->pid, tid);
        ptrace(PTRACE_DETACH, tid, 0, 0);
        finish(out, LH_INJECT_SYSTEM_ERROR, "cannot write %s of %s at 0x%llx through /proc/%d/task/%d/mem: "
               "%s; nothing was changed in the program (if the kernel forbids /proc/PID/mem writes, "
               "boot option proc_mem.force_override, loophunter attach cannot work there)",
               what, p->label, (unsigned long long)where, p->pid, tid, strerror(saved));
        return ATTEMPT_FAILED;
    }
    struct user_regs_struct next = *regs;
    next.rip = p->cave;
    next.rsp = sp - SLOT_BELOW;
    next.rax = regs->orig_rax;
    next.orig_rax = (unsigned long long)-1;
    if (ptrace(PTRACE_SETREGS, tid, 0, &next) != 0) {
        saved = errno;
        if (saved == ESRCH) return ATTEMPT_GONE;
        if (interrupted) redo_interrupted_wait(p->pid, tid);
        ptrace(PTRACE_DETACH, tid, 0, 0);
        finish(out, LH_INJECT_SYSTEM_ERROR, "PTRACE_SETREGS on thread %d of %s failed: %s; nothing was "
               "changed in the program", tid, p->label, strerror(saved));
        return ATTEMPT_FAILED;
    }
    /* From here the thread runs the call whatever happens to us. */
    ptrace(PTRACE_DETACH, tid, 0, 0);
    out->tid = tid;
    return ATTEMPT_INJECTED;
}

static enum attempt not_permitted(plan *p, lh_inject_result *out, int tid) {
    char scope[32] = "";
    proc_status st;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", p->pid);
    read_status(path, &st);
    if (st.tracer > 0) {
        char comm[64] = "";
        snprintf(path, sizeof path, "/proc/%d/comm", st.tracer);
        read_text(path, comm, sizeof comm);
        comm[strcspn(comm, "\n")] = '\0';
        finish(out, LH_INJECT_NOT_PERMITTED, "%s is already being traced by process %d (%s), a debugger or "
               "strace: detach it first, then run the attach again", p->label, st.tracer, comm);
        return ATTEMPT_FAILED;
    }
    char who[96];
    if (tid == p->pid) snprintf(who, sizeof who, "%s", p->label);
    else snprintf(who, sizeof who, "thread %d of %s", tid, p->label);
    int yama = -1;
    if (read_text("/proc/sys/kernel/yama/ptrace_scope", scope, sizeof scope) > 0) yama = atoi(scope);
    if (yama > 0)
        finish(out, LH_INJECT_NOT_PERMITTED, "cannot attach to %s: permission denied (EPERM). Yama's "
               "/proc/sys/kernel/yama/ptrace_scope is %d, which %s. Run loophunter as the same user as the "
               "program with CAP_SYS_PTRACE (e.g. sudo), or allow attaching for everyone until reboot with "
               "`sudo sysctl kernel.yama.ptrace_scope=0`", who, yama,
               yama >= 3 ? "forbids attaching to any process (only a reboot lowers it)"
                         : "only lets a process attach to its own children");
    else
        finish(out, LH_INJECT_NOT_PERMITTED, "cannot attach to %s: permission denied (EPERM). Run loophunter "
               "as the same user as the program (a setuid or otherwise privileged program needs root or "
               "CAP_SYS_PTRACE, e.g. sudo)", who);
    return ATTEMPT_FAILED;
}

/* Seizes tid and lets it run to a safe point until slice_end; arms it there. */
static enum attempt try_thread(plan *p, int tid, uint64_t slice_end, lh_inject_result *out) {
    p->attempts++;
    if (ptrace(PTRACE_SEIZE, tid, 0, (void *)(long)PTRACE_O_TRACESYSGOOD) != 0) {
        if (errno == ESRCH) return ATTEMPT_GONE;
        if (errno == EPERM) return not_permitted(p, out, tid);
        finish(out, LH_INJECT_SYSTEM_ERROR, "PTRACE_SEIZE of thread %d of %s failed: %s", tid, p->label,
               strerror(errno));
        return ATTEMPT_FAILED;
    }
    if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) != 0) {
        /* Only ESRCH is possible here: the thread is exiting; collect it. */
        int status;
        wait_traced(tid, &status, now_ns() + 1000000000ULL);
        return ATTEMPT_GONE;
    }
    bool expect_entry = true;
    for (;;) {
        int status;
        int r = wait_traced(tid, &status, slice_end);
        if (r == 0) {
            stop_and_detach(p->pid, tid);
            return ATTEMPT_NOT_REACHED;
        }
        if (r < 0 || WIFEXITED(status) || WIFSIGNALED(status)) return ATTEMPT_GONE;
        if (!WIFSTOPPED(status)) continue;
        int sig = WSTOPSIG(status), event = status >> 16;
        struct user_regs_struct regs;
        if (event == PTRACE_EVENT_STOP) {
            if (is_stop_signal(sig)) {
                ptrace(PTRACE_DETACH, tid, 0, 0);
                finish(out, LH_INJECT_NO_SAFE_POINT, "%s is stopped (by %s, e.g. Ctrl-Z): none of its threads "
                       "can reach an event-loop wait; resume it with `kill -CONT %d` and run the attach again",
                       p->label, strsignal(sig), p->pid);
                return ATTEMPT_FAILED;
            }
            /* Our interrupt: is the thread blocked in a wait? */
            if (ptrace(PTRACE_GETREGS, tid, 0, &regs) != 0) return ATTEMPT_GONE;
            long nr = (long)regs.orig_rax;
            if (is_wait(nr) && interrupted_code((long)regs.rax) && no_pending_signal(p->pid, tid, nr) &&
                syscall_insn_before(p->pid, regs.rip))
                return arm_thread(p, tid, &regs, true, out);
            expect_entry = true;
            if (ptrace(PTRACE_SYSCALL, tid, 0, 0) != 0) return ATTEMPT_GONE;
            continue;
        }
        if (event != 0) { /* no event option was set: cannot happen; go on */
            if (ptrace(PTRACE_SYSCALL, tid, 0, 0) != 0) return ATTEMPT_GONE;
            continue;
        }
        int kind = sig == SYSCALL_SIG ? syscall_stop(tid, &expect_entry) : 0;
        if (kind == 0) { /* signal-delivery-stop: deliver it */
            expect_entry = true;
            if (ptrace(PTRACE_SYSCALL, tid, 0, (void *)(long)sig) != 0) return ATTEMPT_GONE;
            continue;
        }
        p->traced_syscalls++;
        if (kind == 1) {
            if (ptrace(PTRACE_GETREGS, tid, 0, &regs) != 0) return ATTEMPT_GONE;
            if (is_wait((long)regs.orig_rax) && syscall_insn_before(p->pid, regs.rip))
                return arm_thread(p, tid, &regs, false, out);
        }
        if (ptrace(PTRACE_SYSCALL, tid, 0, 0) != 0) return ATTEMPT_GONE;
    }
}

/* A previous call into this process (same data area) that may still be running. */
static int check_previous(plan *p, lh_inject_result *out) {
    uint64_t d[DATA_SIZE / 8];
    uint64_t grace_end = now_ns() + 200000000ULL;
    for (;;) {
        if (!read_mem(p->pid, p->data, d, sizeof d)) return 0; /* unreadable now: the write will tell */
        if (d[D_MAGIC / 8] != DATA_MAGIC || d[D_ARMED / 8] == 0 || d[D_DONE / 8] == d[D_ARMED / 8]) return 0;
        if (!thread_exists(p->pid, (int)d[D_TID / 8])) return 0;
        bool started = d[D_STARTED / 8] == d[D_ARMED / 8];
        uint64_t t = now_ns();
        if (!started && t >= grace_end) return 0; /* an injector killed before its SETREGS */
        if (t >= p->deadline) {
            uint64_t age = t > d[D_WHEN / 8] ? (t - d[D_WHEN / 8]) / 1000000ULL : 0;
            return finish(out, LH_INJECT_BUSY, "a previous call into %s (thread %d, started %llu ms ago) is "
                          "still running: wait for it to return, then run the attach again", p->label,
                          (int)d[D_TID / 8], (unsigned long long)age);
        }
        sleep_ns(2000000);
    }
}

static int run(plan *p, const char *library, const char *function, const char *argument,
               lh_inject_result *out) {
    const int pid = p->pid;
    char path[PATH_MAX];

    /* The executable: x86-64 ELF64. */
    snprintf(path, sizeof path, "/proc/%d/exe", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == EACCES || errno == EPERM) return not_permitted(p, out, pid), out->code;
        if (errno == ENOENT && !process_alive(pid))
            return finish(out, LH_INJECT_NO_PROCESS, "%s has exited", p->label);
        return finish(out, LH_INJECT_NOT_SUPPORTED, "cannot read the executable of %s (%s): a kernel thread "
                      "or an exited process cannot be attached to", p->label, strerror(errno));
    }
    Elf64_Ehdr eh;
    bool elf64 = elf_header(fd, &eh);
    unsigned char ident[EI_NIDENT] = {0};
    pread_full(fd, ident, sizeof ident, 0);
    struct stat exe_st;
    fstat(fd, &exe_st);
    close(fd);
    if (!elf64)
        return finish(out, LH_INJECT_NOT_SUPPORTED, "%s is not a 64-bit x86-64 ELF program (%s): only "
                      "x86-64 processes can be attached to", p->label,
                      memcmp(ident, ELFMAG, SELFMAG) ? "not ELF"
                      : ident[EI_CLASS] == ELFCLASS32 ? "32-bit" : "another architecture");

    proc_status st;
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    read_status(path, &st);
    if (st.shadow_stack)
        return finish(out, LH_INJECT_NOT_SUPPORTED, "%s runs with CET shadow stacks, which the injected call "
                      "cannot return through yet: run it without (GLIBC_TUNABLES glibc.cpu.x86_shstk)", p->label);
    if (st.tracer > 0) return not_permitted(p, out, pid), out->code;
    if (st.state == 'T')
        return finish(out, LH_INJECT_NO_SAFE_POINT, "%s is stopped (SIGSTOP, Ctrl-Z): none of its threads can "
                      "reach an event-loop wait; resume it with `kill -CONT %d` and run the attach again",
                      p->label, pid);

    /* Modules, libc's functions, the cave and the data area. */
    if (read_maps(pid, &p->mp) != 0) {
        if (errno == EACCES || errno == EPERM) return not_permitted(p, out, pid), out->code;
        return finish(out, LH_INJECT_NO_PROCESS, "cannot read /proc/%d/maps: %s", pid, strerror(errno));
    }
    module *mods = NULL;
    int nmods = find_modules(pid, &p->mp, exe_st.st_ino, &mods);
    const module *libc = NULL, *libdl = NULL;
    for (int i = 0; i < nmods; i++) {
        if (mods[i].kind == MOD_LIBC && !libc) libc = &mods[i];
        if (mods[i].kind == MOD_LIBDL && !libdl) libdl = &mods[i];
    }
    if (!libc) {
        free(mods);
        return finish(out, LH_INJECT_NOT_SUPPORTED, "%s has no glibc (libc.so.6) mapped: it is statically linked "
                      "or uses another C library (musl...); loophunter attach works only with dynamically "
                      "linked glibc programs", p->label);
    }
    static const char *const names[] = {"dlopen", "dlsym", "dlerror", "__errno_location"};
    uint64_t fns[4] = {0};
    bool ifunc[4] = {0};
    if (!find_symbols(pid, libc, names, 4, fns, ifunc)) {
        free(mods);
        return finish(out, LH_INJECT_NOT_SUPPORTED, "cannot read the symbols of %s's C library (%s): it is not "
                      "readable or was replaced on disk since the program started; restart the program, or run "
                      "loophunter as root", p->label, libc->first->path);
    }
    if ((!fns[0] || !fns[1] || !fns[2]) && libdl) {
        uint64_t dl[3] = {0};
        bool dl_ifunc[3] = {0};
        if (find_symbols(pid, libdl, names, 3, dl, dl_ifunc))
            for (int i = 0; i < 3; i++) {
                fns[i] = dl[i];
                ifunc[i] = dl_ifunc[i];
            }
    }
    if (!fns[0] || !fns[1] || !fns[2] || !fns[3] || ifunc[0] || ifunc[1] || ifunc[2] || ifunc[3]) {
        free(mods);
        return finish(out, LH_INJECT_NOT_SUPPORTED, "%s's C library (%s) has no usable dlopen/dlsym/dlerror: "
                      "glibc older than 2.34 keeps them in libdl.so.2, which this program has not loaded; "
                      "start it under loophunter run instead", p->label, libc->first->path);
    }
    size_t lib_len = strlen(library) + 1, fn_len = strlen(function) + 1, arg_len = strlen(argument) + 1;
    size_t path_off = TRAMP_POOL + POOL_WORDS * 8, func_off = path_off + lib_len, arg_off = func_off + fn_len;
    size_t need = arg_off + arg_len;
    p->cave = find_tail(&p->mp, mods, nmods, code_order, sizeof code_order / sizeof code_order[0], need, 'x');
    p->data = find_tail(&p->mp, mods, nmods, data_order, sizeof data_order / sizeof data_order[0], DATA_SIZE, 'w');
    free(mods);
    if (!p->cave)
        return finish(out, LH_INJECT_NOT_SUPPORTED, "no module of %s has %zu unused bytes at the end of its code "
                      "for the call (the library path, function name and argument take %zu of them): use a "
                      "shorter library path or argument", p->label, need, lib_len + fn_len + arg_len);
    if (!p->data)
        return finish(out, LH_INJECT_NOT_SUPPORTED, "no library of %s has %d unused bytes at the end of its "
                      "writable data for the call's results", p->label, DATA_SIZE);

    uint64_t xsize, xmask;
    xsave_params(&xsize, &xmask);
    p->image_len = need;
    p->image = calloc(1, need);
    if (!p->image) return finish(out, LH_INJECT_SYSTEM_ERROR, "out of memory");
    memcpy(p->image, tramp_code, sizeof tramp_code);
    uint64_t pool[POOL_WORDS];
    fill_pool(p, pool, fns, xsize, xmask, path_off, func_off, arg_off);
    memcpy(p->image + TRAMP_POOL, pool, sizeof pool);
    memcpy(p->image + path_off, library, lib_len);
    memcpy(p->image + func_off, function, fn_len);
    memcpy(p->image + arg_off, argument, arg_len);

    p->fingerprint_at[0] = fns[0];
    p->fingerprint_at[1] = p->cave - 16;
    for (int i = 0; i < 2; i++)
        if (!read_mem(pid, p->fingerprint_at[i], p->fingerprint[i], 16))
            return finish(out, LH_INJECT_SYSTEM_ERROR, "cannot read the memory of %s at 0x%llx: %s", p->label,
                          (unsigned long long)p->fingerprint_at[i], strerror(errno));

    if (check_previous(p, out) != 0) return out->code;
    uint64_t prev = 0;
    read_mem(pid, p->data + D_ARMED, &prev, sizeof prev);
    do {
        p->seq = (now_ns() * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)getpid() << 17);
    } while (p->seq == 0 || p->seq == prev);

    /* Threads: the main one first (all the time if it is in a wait now, else half of it, at most
     * 1 s: a busy main thread is what people attach to look at), then any thread blocked in a
     * wait, then the others in turn (half the remaining time each, at least 50 ms). Threads in
     * uninterruptible sleep (D) are left alone: they could not stop, and so not be let go, soon. */
    thread_state threads[256];
    int nthreads;
    int next = 0;
    bool main_tried = false;
    for (;;) {
        uint64_t t = now_ns();
        if (t >= p->deadline) break;
        if (!process_alive(pid))
            return finish(out, LH_INJECT_EXITED, "%s ended during the attach", p->label);
        nthreads = scan_threads(pid, threads, 256);
        if (nthreads == 0) return finish(out, LH_INJECT_EXITED, "%s ended during the attach", p->label);
        int pick = -1;
        uint64_t remaining = p->deadline - t, slice = 0;
        if (!main_tried && threads[0].tid == pid && usable(&threads[0])) {
            main_tried = true;
            pick = 0;
            slice = is_wait(threads[0].syscall) ? remaining : remaining / 2;
            if (!is_wait(threads[0].syscall) && slice > 1000000000ULL) slice = 1000000000ULL;
        } else {
            for (int i = 0; i < nthreads && pick < 0; i++)
                if (is_wait(threads[i].syscall) && threads[i].state == 'S') pick = i;
            for (int k = 0; k < nthreads && pick < 0; k++) {
                int i = (next + k) % nthreads;
                if (usable(&threads[i])) {
                    pick = i;
                    next = i + 1;
                }
            }
            slice = remaining / 2 > 50000000ULL ? remaining / 2 : remaining;
        }
        if (pick < 0) { /* every thread in uninterruptible sleep: look again soon */
            sleep_ns(10000000);
            continue;
        }
        enum attempt a = try_thread(p, threads[pick].tid, t + slice, out);
        if (a == ATTEMPT_FAILED) return out->code;
        if (a == ATTEMPT_INJECTED) return 0;
    }
    if (!process_alive(pid)) return finish(out, LH_INJECT_EXITED, "%s ended during the attach", p->label);
    char msg[sizeof out->message];
    sbuf sb = {msg, sizeof msg, 0};
    sb_printf(&sb, "no thread of %s reached an event-loop wait (poll, select, epoll_wait...) within %d ms: "
              "the threads were busy (", p->label, p->timeout_ms);
    nthreads = scan_threads(pid, threads, 256);
    for (int i = 0; i < nthreads && i < 12; i++) {
        if (i) sb_printf(&sb, "; ");
        describe_thread(&sb, pid, &threads[i]);
    }
    if (nthreads > 12) sb_printf(&sb, "; %d more", nthreads - 12);
    sb_printf(&sb, "; %d thread attempts saw %d system calls, none a wait). Run the attach again when the "
              "program is idle, or with a longer timeout", p->attempts, p->traced_syscalls);
    return finish(out, LH_INJECT_NO_SAFE_POINT, "%s", msg);
}

/* Waits for the trampoline's done word and reads the results. */
static int collect(plan *p, const char *library, const char *function, lh_inject_result *out) {
    uint64_t d[DATA_SIZE / 8];
    long pause = 50000;
    for (;;) {
        if (!read_mem(p->pid, p->data, d, sizeof d)) {
            if (!process_alive(p->pid))
                return finish(out, LH_INJECT_EXITED, "%s ended during the call to %s in %s (the library's "
                              "constructors or the function may have crashed it)", p->label, function, library);
            return finish(out, LH_INJECT_SYSTEM_ERROR, "cannot read the call's results from %s: %s", p->label,
                          strerror(errno));
        }
        if (d[D_DONE / 8] == p->seq) break;
        if (now_ns() >= p->deadline) {
            if (!process_alive(p->pid))
                return finish(out, LH_INJECT_EXITED, "%s ended during the call to %s in %s (the library's "
                              "constructors or the function may have crashed it)", p->label, function, library);
            if (!thread_exists(p->pid, out->tid))
                return finish(out, LH_INJECT_EXITED, "thread %d of %s ended during the call to %s in %s",
                              out->tid, p->label, function, library);
            return finish(out, LH_INJECT_TIMEOUT, "the call to %s in %s did not finish within %d ms in thread %d "
                          "of %s (%s); it may still finish: check later, or use a longer timeout", function,
                          library, p->timeout_ms, out->tid, p->label,
                          d[D_STARTED / 8] == p->seq ? "it started" : "it had not started yet");
        }
        sleep_ns(pause);
        if (pause < 2000000) pause += pause / 2;
    }
    if (d[D_HANDLE / 8] == 0 || d[D_SYM / 8] == 0) {
        char err[600];
        read_string(p->pid, d[D_ERROR / 8], err, sizeof err);
        if (d[D_HANDLE / 8] == 0)
            return finish(out, LH_INJECT_LOAD_FAILED, "%s could not load %s: %s. Check the path (as the program "
                          "sees it: its mount namespace and permissions) and that the library is built for it",
                          p->label, library, err[0] ? err : "dlopen returned NULL without an error text");
        return finish(out, LH_INJECT_NO_FUNCTION, "%s has no function %s (loaded into %s): %s. Check the name "
                      "and that it is exported", library, function, p->label,
                      err[0] ? err : "dlsym returned NULL");
    }
    out->function_result = (long)(int64_t)d[D_RESULT / 8];
    return finish(out, LH_INJECT_OK, "called %s in %s in thread %d of %s: returned %ld", function, library,
                  out->tid, p->label, out->function_result);
}

int lh_inject_call(int pid, const char *library, const char *function, const char *argument,
                   int timeout_ms, lh_inject_result *out) {
    lh_inject_result scratch;
    if (!out) out = &scratch;
    memset(out, 0, sizeof *out);
    if (!library || !function || !argument)
        return finish(out, LH_INJECT_BAD_ARGUMENT, "the library, the function and the argument must be given");
    if (library[0] != '/')
        return finish(out, LH_INJECT_BAD_ARGUMENT, "the library path \"%.200s\" is not absolute: give the full "
                      "path, as the program sees it", library);
    if (strlen(library) > MAX_LIBRARY || strlen(function) > MAX_FUNCTION || strlen(argument) > MAX_ARGUMENT)
        return finish(out, LH_INJECT_BAD_ARGUMENT, "%s is too long (%zu bytes; at most %d)",
                      strlen(library) > MAX_LIBRARY ? "the library path"
                      : strlen(function) > MAX_FUNCTION ? "the function name" : "the argument",
                      strlen(library) > MAX_LIBRARY ? strlen(library)
                      : strlen(function) > MAX_FUNCTION ? strlen(function) : strlen(argument),
                      strlen(library) > MAX_LIBRARY ? MAX_LIBRARY
                      : strlen(function) > MAX_FUNCTION ? MAX_FUNCTION : MAX_ARGUMENT);
    if (!function[0]) return finish(out, LH_INJECT_BAD_ARGUMENT, "the function name is empty");
    if (timeout_ms <= 0)
        return finish(out, LH_INJECT_BAD_ARGUMENT, "the timeout must be positive (got %d ms)", timeout_ms);
    if (pid <= 0) return finish(out, LH_INJECT_NO_PROCESS, "%d is not a process id: give the pid of a running "
                                "program (ps -e)", pid);
    if (pid == getpid())
        return finish(out, LH_INJECT_BAD_ARGUMENT, "pid %d is loophunter itself: give the pid of another program", pid);

    plan p;
    memset(&p, 0, sizeof p);
    p.pid = pid;
    p.timeout_ms = timeout_ms;
    p.deadline = now_ns() + (uint64_t)timeout_ms * 1000000ULL;
    char path[64], comm[32] = "";
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    proc_status st;
    read_status(path, &st);
    if (!st.ok || (kill(pid, 0) != 0 && errno == ESRCH))
        return finish(out, LH_INJECT_NO_PROCESS, "no process with pid %d: check the pid (ps -e); the program "
                      "may have exited", pid);
    if (st.tgid != pid)
        return finish(out, LH_INJECT_NO_PROCESS, "%d is a thread of process %d, not a process: give %d", pid,
                      st.tgid, st.tgid);
    snprintf(path, sizeof path, "/proc/%d/comm", pid);
    read_text(path, comm, sizeof comm);
    comm[strcspn(comm, "\n")] = '\0';
    snprintf(p.label, sizeof p.label, "process %d (%s)", pid, comm);
    if (st.state == 'Z' || st.state == 'X')
        return finish(out, LH_INJECT_NO_PROCESS, "%s has exited (it is a zombie its parent has not reaped)", p.label);

    /* One injection per pid at a time: an abstract unix socket, released by the kernel when we exit. */
    int lock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (lock < 0)
        return finish(out, LH_INJECT_SYSTEM_ERROR, "cannot create the lock socket: %s", strerror(errno));
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    int nlen = snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, "loophunter-inject-%d", pid);
    if (bind(lock, (struct sockaddr *)&addr, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + nlen)) != 0) {
        int saved = errno;
        close(lock);
        if (saved == EADDRINUSE)
            return finish(out, LH_INJECT_BUSY, "another injection into %s is in progress (another loophunter "
                          "attach): wait for it to finish and run the attach again", p.label);
        return finish(out, LH_INJECT_SYSTEM_ERROR, "cannot bind the lock socket: %s", strerror(saved));
    }

    int code = run(&p, library, function, argument, out);
    if (code == 0 && out->code == LH_INJECT_OK && out->tid > 0) code = collect(&p, library, function, out);
    free(p.image);
    free_maps(&p.mp);
    close(lock);
    return code;
}

#else /* not x86-64 Linux */

int lh_inject_call(int pid, const char *library, const char *function, const char *argument,
                   int timeout_ms, lh_inject_result *out) {
    (void)library, (void)function, (void)argument, (void)timeout_ms;
    lh_inject_result scratch;
    if (!out) out = &scratch;
    memset(out, 0, sizeof *out);
    return finish(out, LH_INJECT_NOT_SUPPORTED, "loophunter attach (process %d) works on x86-64 Linux only", pid);
}

#endif
