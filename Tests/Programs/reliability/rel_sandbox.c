/*
 * rel_sandbox.c — lh-rel-sandbox MODE: a process that puts itself in a seccomp-BPF sandbox after
 * start-up, like a browser's content process (Firefox, Chromium). LoopHunter must live within what
 * the sandbox allows: no open, rename, unlink, mkdir, prctl, getppid, readlink, /proc,
 * process_vm_readv, kill or getdents once the filter is on, and what it finds still reaches the
 * report directory (through the spool it opens just before the filter, lh_sandbox.c).
 *
 *   lh-rel-sandbox tsync    the filter through syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
 *                           SECCOMP_FILTER_FLAG_TSYNC, &prog): every thread at once
 *   lh-rel-sandbox prctl    the filter through prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog):
 *                           the calling thread (and the threads it makes later)
 *
 * Both go through glibc's prctl() and syscall() functions, as Firefox does, after
 * prctl(PR_SET_NO_NEW_PRIVS, 1). The program:
 *   1. runs a healthy toykit loop for ~200 ms (a window whose label a 20 ms timer updates);
 *      With LH_SANDBOX_BURST=N, then makes N reports back to back (burst_before_sandbox);
 *   2. installs a SIGSYS handler (SA_SIGINFO|SA_NODEFER), then the filter: an arch check, an allow
 *      list close to a content sandbox's (read/write, memory, futex, poll/epoll/select, pipes, dup,
 *      fcntl, clocks and sleeps, signals, threads: clone only with CLONE_THREAD, clone3 fails with
 *      ENOSYS so that glibc falls back to clone as in Firefox, tgkill only to our own pid,
 *      getrandom, membarrier, timerfd, eventfd, rlimits, sysinfo); anything else is
 *      SECCOMP_RET_TRAP. The handler counts the violation (si_syscall), writes
 *      "sandbox: SIGSYS <nr> (<name>)" to stderr at once and makes the call fail with -EPERM
 *      instead of killing the process;
 *   3. runs a toykit loop in which a "SandboxView" 'sandboxed' is laid out 150 times in one
 *      iteration (a layout-storm report made inside the sandbox), then a few quiet iterations;
 *   4. returns from main. exit_group itself is trapped by the filter (unless its status carries a
 *      magic value): the handler prints the result when everything else is done — atexit
 *      handlers, ELF destructors (LoopHunter's summary), stdio's last flush — so violations made on
 *      the way out are counted too, and then exits with the status main returned.
 *
 * stdout is exactly one line, "sandbox: violations=<n>" followed by " <nr>" for each distinct
 * violating system call number (first-seen order); without LoopHunter (and with it, when it stays
 * within the sandbox) "sandbox: violations=0". Exit status 0; 77 when the kernel refuses the
 * filter (printed as "sandbox: unavailable: <reason>"); 2 for a bad MODE.
 * LH_SANDBOX_BACKTRACE=1 adds a backtrace of each violation to stderr (debugging only).
 *
 * Run as: LD_PRELOAD=libloophunter.so LOOPHUNTER_DIR=DIR lh-rel-sandbox tsync
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <unistd.h>

#include "toykit.h"

#if !defined(__x86_64__)
#error "rel_sandbox.c: x86_64 only (the filter's arch check and the SIGSYS handler's registers)"
#endif

#ifndef SECCOMP_FILTER_FLAG_TSYNC
#define SECCOMP_FILTER_FLAG_TSYNC 1
#endif
#ifndef SYS_seccomp
#define SYS_seccomp 317
#endif

/* exit_group(status) is allowed only when the status carries this in bits 8..31 (the kernel keeps
 * bits 0..7): every other exit_group reaches the SIGSYS handler, which prints the result first. */
#define EXIT_MAGIC 0x4c485300u

/* ---- system call names (for stderr) --------------------------------------------------------- */

typedef struct SysName {
    int nr;
    const char *name;
} SysName;

#define SN(x) {SYS_##x, #x}
/* The allow list (plus clone, tgkill, exit_group, clone3: handled apart in the filter). */
static const SysName allowed[] = {
    SN(read), SN(write), SN(readv), SN(writev), SN(pread64), SN(pwrite64), SN(close), SN(lseek),
    SN(fstat), SN(newfstatat), SN(mmap), SN(munmap), SN(mprotect), SN(mremap), SN(madvise), SN(brk),
    SN(futex), SN(poll), SN(ppoll), SN(epoll_create), SN(epoll_create1), SN(epoll_ctl),
    SN(epoll_wait), SN(epoll_pwait), SN(epoll_pwait2), SN(select), SN(pselect6), SN(pipe), SN(pipe2),
    SN(dup), SN(dup3), SN(fcntl), SN(clock_gettime), SN(clock_getres), SN(clock_nanosleep),
    SN(nanosleep), SN(gettimeofday), SN(gettid), SN(getpid), SN(rt_sigaction), SN(rt_sigprocmask),
    SN(rt_sigreturn), SN(sigaltstack), SN(sched_yield), SN(sched_getaffinity), SN(set_robust_list),
    SN(rseq), SN(exit), SN(restart_syscall), SN(getrandom), SN(membarrier), SN(timerfd_create),
    SN(timerfd_settime), SN(timerfd_gettime), SN(eventfd2), SN(prlimit64), SN(getrlimit),
    SN(sysinfo),
};
/* Names of calls the sandbox refuses that a tool is likely to make (for the stderr lines). */
static const SysName refused[] = {
    SN(open), SN(openat), SN(openat2), SN(creat), SN(rename), SN(renameat), SN(renameat2),
    SN(unlink), SN(unlinkat), SN(mkdir), SN(mkdirat), SN(rmdir), SN(prctl), SN(getppid),
    SN(readlink), SN(readlinkat), SN(process_vm_readv), SN(process_vm_writev), SN(kill), SN(tkill),
    SN(getdents), SN(getdents64), SN(ioctl), SN(stat), SN(lstat), SN(statx), SN(access),
    SN(faccessat), SN(faccessat2), SN(uname), SN(socket), SN(connect), SN(sendto), SN(sendmsg),
    SN(fork), SN(vfork), SN(execve), SN(wait4), SN(dup2), SN(fsync), SN(fdatasync), SN(ftruncate),
    SN(fchmod), SN(fchmodat), SN(chmod), SN(fchown), SN(symlink), SN(symlinkat), SN(link),
    SN(linkat), SN(mincore), SN(msync), SN(mlock), SN(munlock), SN(memfd_create), SN(getuid),
    SN(geteuid), SN(getgid), SN(getegid), SN(getcwd), SN(chdir), SN(fchdir), SN(close_range),
    SN(setpriority), SN(getpriority), SN(sched_setaffinity), SN(sched_getparam),
    SN(sched_getscheduler), SN(rt_sigtimedwait), SN(rt_sigqueueinfo), SN(rt_tgsigqueueinfo),
    SN(timer_create), SN(timer_settime), SN(timer_delete), SN(getrusage), SN(times), SN(setitimer),
    SN(getitimer), SN(alarm), SN(pidfd_open), SN(pidfd_send_signal), SN(ptrace), SN(seccomp),
    SN(socketpair), SN(shutdown), SN(recvmsg), SN(getsockopt), SN(setsockopt), SN(inotify_init1),
    SN(fstatfs), SN(statfs), SN(truncate), SN(fallocate), SN(sync_file_range), SN(flock),
    SN(getxattr), SN(fgetxattr), SN(sched_setscheduler), SN(setsid), SN(getsid), SN(getpgid),
    SN(capget), SN(personality), SN(arch_prctl), SN(set_tid_address), SN(clone), SN(clone3),
    SN(tgkill), SN(exit_group),
};
#undef SN

static const char *sys_name(int nr) {
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        if (allowed[i].nr == nr) return allowed[i].name;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (refused[i].nr == nr) return refused[i].name;
    return "?";
}

/* ---- async-signal-safe output --------------------------------------------------------------- */

static size_t put_str(char *buf, size_t len, size_t cap, const char *s) {
    while (*s && len + 1 < cap) buf[len++] = *s++;
    return len;
}

static size_t put_int(char *buf, size_t len, size_t cap, long v) {
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? (unsigned long)-v : (unsigned long)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0 && len + 1 < cap) buf[len++] = '-';
    while (n > 0 && len + 1 < cap) buf[len++] = digits[--n];
    return len;
}

static void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

/* A raw exit_group with the magic (glibc's _exit would be trapped again). */
static __attribute__((noreturn)) void raw_exit_group(int status) {
    long nr = SYS_exit_group, arg = (long)(EXIT_MAGIC | ((unsigned)status & 0xffu));
    for (;;) __asm__ volatile("syscall" : "+a"(nr) : "D"(arg) : "rcx", "r11", "memory");
}

/* ---- the SIGSYS handler --------------------------------------------------------------------- */

#define MAX_DISTINCT 64
static atomic_ulong violations;
static _Atomic int distinct[MAX_DISTINCT]; /* syscall number + 1; 0: free */
static bool want_backtrace;

static void note_violation(int nr) {
    atomic_fetch_add(&violations, 1);
    for (int i = 0; i < MAX_DISTINCT; i++) {
        int seen = atomic_load(&distinct[i]);
        if (seen == nr + 1) return;
        if (seen == 0) {
            int expected = 0;
            if (atomic_compare_exchange_strong(&distinct[i], &expected, nr + 1)) return;
            if (expected == nr + 1) return;
        }
    }
}

static void print_result(void) {
    char line[64 + MAX_DISTINCT * 8];
    size_t n = 0;
    n = put_str(line, n, sizeof line, "sandbox: violations=");
    n = put_int(line, n, sizeof line, (long)atomic_load(&violations));
    for (int i = 0; i < MAX_DISTINCT; i++) {
        int seen = atomic_load(&distinct[i]);
        if (seen == 0) break;
        n = put_str(line, n, sizeof line, " ");
        n = put_int(line, n, sizeof line, seen - 1);
    }
    n = put_str(line, n, sizeof line, "\n");
    write_all(1, line, n);
}

static void on_sigsys(int sig, siginfo_t *info, void *context) {
    (void)sig;
    int saved = errno;
    ucontext_t *uc = context;
    int nr = info->si_syscall;
    if (nr == SYS_exit_group) { /* the process is leaving: everything else is done */
        print_result();
        raw_exit_group((int)uc->uc_mcontext.gregs[REG_RDI]);
    }
    note_violation(nr);
    char line[160];
    size_t n = 0;
    n = put_str(line, n, sizeof line, "sandbox: SIGSYS ");
    n = put_int(line, n, sizeof line, nr);
    n = put_str(line, n, sizeof line, " (");
    n = put_str(line, n, sizeof line, sys_name(nr));
    n = put_str(line, n, sizeof line, ") tid ");
    n = put_int(line, n, sizeof line, (long)gettid());
    n = put_str(line, n, sizeof line, "\n");
    write_all(2, line, n);
    if (want_backtrace) {
        void *frames[64];
        int depth = backtrace(frames, 64);
        backtrace_symbols_fd(frames, depth, 2);
        write_all(2, "--\n", 3);
    }
    uc->uc_mcontext.gregs[REG_RAX] = -EPERM; /* the call fails instead of killing the process */
    errno = saved;
}

/* ---- the filter ----------------------------------------------------------------------------- */

#define ARG0_LO offsetof(struct seccomp_data, args[0]) /* little-endian: the low 32 bits */
#define MAX_FILTER 256

static struct sock_filter filter[MAX_FILTER];
static unsigned short filter_len;

static void emit(struct sock_filter insn) {
    if (filter_len == MAX_FILTER) abort();
    filter[filter_len++] = insn;
}

static void build_filter(pid_t pid) {
    /* The architecture: anything but x86_64 (e.g. the i386 entry) is trapped. */
    emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
    emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
    /* x32 system calls (bit 30): trapped. */
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) {
        emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)allowed[i].nr, 0, 1));
        emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    }
    /* clone: threads only (CLONE_THREAD); a fork is a violation. */
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4));
    emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LO));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
    /* clone3: its flags are in memory the filter cannot read; ENOSYS makes glibc use clone. */
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS));
    /* tgkill: to our own threads only. */
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_tgkill, 0, 4));
    emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LO));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)pid, 0, 1));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
    /* exit_group: with the magic only (from the handler); otherwise the handler sees it first. */
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 0, 5));
    emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LO));
    emit((struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xffffff00u));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, EXIT_MAGIC, 0, 1));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
    emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP)); /* everything else */
}

/* ---- toykit --------------------------------------------------------------------------------- */

typedef struct Healthy {
    TkLoop *loop;
    TkView *label;
    int ticks;
} Healthy;

static bool healthy_tick(void *data) {
    Healthy *h = data;
    char text[32];
    snprintf(text, sizeof text, "tick %d", ++h->ticks);
    tk_label_set_text(h->label, text);
    return true;
}

/* LH_SANDBOX_BURST=N: N views of their own types ("Before<k>") laid out 101 times each in an
 * iteration of their own (marked with loophunter_iteration_mark, a weak reference), right before the
 * filter: N layout-storm reports, most of them still queued for LoopHunter's writer thread when the
 * filter is installed (it must drain them first, lh_sandbox.c). */
#pragma weak loophunter_iteration_mark
void loophunter_iteration_mark(void);

static void burst_before_sandbox(void) {
    const char *text = getenv("LH_SANDBOX_BURST");
    int n = text != NULL ? atoi(text) : 0;
    if (n <= 0) return;
    TkViewClass *classes = calloc((size_t)n, sizeof *classes);
    char (*names)[32] = calloc((size_t)n, sizeof *names);
    if (classes == NULL || names == NULL) abort();
    for (int k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "Before%d", k);
        classes[k].type_name = names[k];
        TkView *view = tk_view_new(&classes[k], "burst");
        if (loophunter_iteration_mark) loophunter_iteration_mark();
        for (int c = 0; c < 101; c++) tk_view_layout(view);
    }
}

/* The storm view re-marks itself from its own layout until it was laid out 150 times: the
 * uncapped pass lays it out again and again within one iteration. */
typedef struct Storm {
    TkLoop *loop;
    int layouts;
    int ticks;
} Storm;

__attribute__((noinline)) static void storm_layout(TkView *view) {
    Storm *s = tk_view_user_data(view);
    if (++s->layouts < 150) tk_view_set_needs_layout(view);
    __asm__ volatile("" ::: "memory"); /* no tail call: this frame stays on the stack */
}

static const TkViewClass storm_class = {"SandboxView", storm_layout};

static bool storm_tick(void *data) {
    Storm *s = data;
    if (++s->ticks < 4) return true;
    tk_loop_quit(s->loop);
    return false;
}

int main(int argc, char **argv) {
    const char *mode = argc == 2 ? argv[1] : "";
    bool tsync = strcmp(mode, "tsync") == 0;
    if (!tsync && strcmp(mode, "prctl") != 0) {
        fprintf(stderr, "usage: lh-rel-sandbox tsync|prctl (see the comment at the top of rel_sandbox.c)\n");
        return 2;
    }

    /* 1. Start-up: a healthy loop, ~200 ms. */
    Healthy h = {0};
    h.loop = tk_loop_new(TK_LAYOUT_UNCAPPED);
    TkView *window = tk_view_new(&tk_window_class, "content");
    h.label = tk_view_new(&tk_label_class, "status");
    tk_view_set_frame(window, (TkRect){0, 0, 320, 200});
    tk_view_add_child(window, h.label);
    tk_label_set_text(h.label, "loading");
    tk_loop_add_root(h.loop, window);
    tk_loop_add_timer(h.loop, 20, healthy_tick, &h);
    tk_loop_run(h.loop, 200);
    burst_before_sandbox();

    /* 2. The sandbox. */
    const char *bt = getenv("LH_SANDBOX_BACKTRACE");
    want_backtrace = bt && *bt && strcmp(bt, "0") != 0;
    if (want_backtrace) {
        void *frames[4];
        backtrace(frames, 4); /* loads libgcc_s now, while open() is still allowed */
    }
    struct sigaction sa = {0};
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSYS, &sa, NULL) != 0) {
        printf("sandbox: unavailable: sigaction: %s\n", strerror(errno));
        return 77;
    }
    build_filter(getpid());
    struct sock_fprog prog = {filter_len, filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        printf("sandbox: unavailable: PR_SET_NO_NEW_PRIVS: %s\n", strerror(errno));
        return 77;
    }
    fflush(stdout);
    long rc = tsync ? syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog)
                    : prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
    if (rc != 0) {
        /* TSYNC: a positive result is the id of a thread that could not be synchronised. */
        printf("sandbox: unavailable: %s: %s\n", tsync ? "seccomp(TSYNC)" : "prctl(PR_SET_SECCOMP)",
               rc > 0 ? "a thread could not be synchronised" : strerror(errno));
        return 77;
    }

    /* 3. Inside the sandbox: one iteration with 150 layouts of one view, then a few quiet ones. */
    Storm s = {0};
    s.loop = tk_loop_new(TK_LAYOUT_UNCAPPED);
    TkView *view = tk_view_new(&storm_class, "sandboxed");
    tk_view_set_user_data(view, &s);
    tk_loop_add_root(s.loop, view); /* a new view is dirty: laid out in the first iteration */
    tk_loop_add_timer(s.loop, 5, storm_tick, &s);
    tk_loop_run(s.loop, 2000);
    tk_loop_run(h.loop, 60); /* the healthy window again, inside the sandbox */

    tk_loop_free(s.loop);
    tk_view_free(view);
    tk_loop_free(h.loop);
    tk_view_free(window);
    if (s.layouts != 150) {
        fprintf(stderr, "sandbox: the storm view was laid out %d times, not 150\n", s.layouts);
        return 1;
    }
    /* 4. The result is printed from the trapped exit_group (after every exit handler). */
    return 0;
}
