/*
 * lh_stall.c — stalls: an event-loop iteration that runs longer than LOOPHUNTER_STALL_MS, reported
 * with the stack of where the thread is stuck, sampled while it is stuck.
 *
 * Three parties, no lock between them:
 *   - the loop thread (poll()-family hooks, lh_thread.c) publishes when its iteration began
 *     (`busy_since_ns`, 0 while it waits, or once it left its event loop: a thread-pool worker that
 *     iterated a private GLib context and went back to sleep on a condition variable, a program
 *     whose own loop waits in its own library, is idle, not stuck) and, back at its loop (or
 *     leaving it), writes the report of a stall it just lived through, with the total duration;
 *   - the watchdog, a thread of ours created with every signal blocked (it never runs the host's
 *     code and never receives the host's signals), wakes every STALL_MS/8 and samples a thread
 *     busy for 3/4 of STALL_MS: it interrupts it with a real-time signal of ours, or, when the
 *     thread is blocked in a system call a signal would cut short (poll, nanosleep...: never
 *     restarted, even with SA_RESTART), reads its stack from outside instead (a return-address
 *     scan through process_vm_readv or, inside a sandbox, a pipe: neither can fault). It writes the report itself, marked
 *     ongoing, only if the thread has still not come back after 5 x STALL_MS;
 *   - the signal handler runs on the stuck thread: async-signal-safe (unw_backtrace, primed at
 *     start-up, no allocation; errno kept), it only fills the thread's own record.
 * The per-record `phase` (IDLE → REQUESTED → SAMPLED → REPORTED → IDLE) is moved with
 * compare-and-swap or by its one owner at each step; see each atomic. The watchdog uses only raw
 * system calls and memory of its own (static or mmap'd), never the host's malloc.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "lh_breach.h"
#include "lh_io.h"
#include "lh_unwind.h"

/* A loop thread's stall state: written by the thread, its signal handler and the watchdog; each
 * field says who writes it. One per thread record (by lh_record_index). */
#define LH_STALL_FRAMES 64
enum { LH_STALL_IDLE = 0, LH_STALL_REQUESTED = 1, LH_STALL_SAMPLED = 2, LH_STALL_REPORTED = 3 };
enum { LH_STALL_BY_SIGNAL = 1, LH_STALL_BY_SCAN = 2 };
typedef struct lh_stall_rec {
    _Atomic uint64_t busy_since_ns; /* thread: when its running iteration began; 0 while it waits */
    _Atomic uint32_t hook;          /* thread: the wait that iteration began from */
    _Atomic uint32_t phase;         /* LH_STALL_*: moved by CAS or by the step's one owner */
    _Atomic uint64_t sampled_for;   /* watchdog: busy_since of the iteration being sampled */
    uint64_t request_ns;            /* watchdog only */
    /* The sample: filled by the handler (signal) or the watchdog (scan) before phase SAMPLED. */
    uint64_t sample_ns;
    int32_t syscall_nr;             /* the system call it was blocked in; -1: running */
    uint32_t method;                /* LH_STALL_BY_* */
    uint32_t frame_count;
    uintptr_t frames[LH_STALL_FRAMES];
} lh_stall_rec;

static lh_stall_rec recs[LH_THREAD_RECORDS] LH_LARGE_TABLE(stall_recs);

static lh_stall_rec *stall_of(const lh_thread_rec *r) { return &recs[lh_record_index(r)]; }

static void start_watchdog(void);

/* 0: not started; 1: started (a once-flag per process, or per `loophunter attach` session); 2: never
 * in this process: the child of a fork, where starting a thread is not async-signal-safe (POSIX)
 * and ThreadSanitizer refuses it. */
static _Atomic int watchdog_started;
/* An attach session ends: the watchdog leaves its loop (relaxed: polled at each wake-up; the join
 * that follows orders the rest). */
static _Atomic bool watchdog_stop;
static pthread_t watchdog_thread;    /* written by the starter before anyone joins (under the once-flag) */
static _Atomic int stall_signal;     /* our real-time signal; 0: none (scan only) */

/* Statistics for the summary (relaxed counters). */
static _Atomic uint64_t stat_wakeups, stat_signals, stat_scans, stat_lost, stat_stalls, stat_longest_ms;

static uint64_t stall_ns(void) { return lh_proc.cfg.stall_ms * 1000000u; }

/* ---- the loop thread's side --------------------------------------------------------------- */

static void loop_busy(lh_tls *t, unsigned hook, uint64_t now) {
    lh_thread_rec *r = t->rec;
    if (r == NULL) return;
    /* relaxed: read only by the watchdog together with busy_since (release below). */
    lh_store_relaxed(&stall_of(r)->hook, hook);
    /* release: the watchdog (acquire) sees the hook of this iteration. */
    lh_store_release(&stall_of(r)->busy_since_ns, now);
    /* relaxed: a once-flag read; start_watchdog does the real CAS. */
    if (LH_UNLIKELY(lh_load_relaxed(&watchdog_started) == 0))
        start_watchdog();
}

static void note_stall(uint64_t ms) {
    lh_add_relaxed(&stat_stalls, 1); /* stat */
    uint64_t longest = lh_load_relaxed(&stat_longest_ms);
    /* relaxed max: statistics only. */
    while (ms > longest && !atomic_compare_exchange_weak_explicit(&stat_longest_ms, &longest, ms,
                                                                 memory_order_relaxed, memory_order_relaxed)) {
    }
}

static const char *syscall_name(int32_t nr);

/* Writes the stall report of record `r`. `t`: the writer's TLS (the stalled thread's own, or the
 * watchdog's / the exiting thread's when `other` is set). Guard held. */
static void report(lh_tls *t, lh_thread_rec *r, uint64_t since, uint64_t duration_ns, bool ongoing,
               bool sampled, bool other) {
    lh_report_stall stall = {
        .duration_ms = duration_ns / 1000000u,
        .ongoing = ongoing,
        .sampled_after_ms = sampled && stall_of(r)->sample_ns > since ? (stall_of(r)->sample_ns - since) / 1000000u : 0,
        .method = !sampled ? "none" : stall_of(r)->method == LH_STALL_BY_SIGNAL ? "signal" : "scan",
        .syscall = sampled ? syscall_name(stall_of(r)->syscall_nr) : NULL,
        .samples = sampled ? 1 : 0,
        .has_sample = sampled,
    };
    lh_breach b = {
        .kind = LH_KIND_STALL,
        .family = LH_FAMILY_STALL,
        .hook = lh_load_relaxed(&stall_of(r)->hook),
        .count = stall.duration_ms,
        .threshold = lh_proc.cfg.stall_ms,
        .count_unit = "ms in one iteration",
        .named_type = "(event loop)",
        .named_name = r->name,
        .pcs = stall_of(r)->frames,
        .pc_count = sampled ? stall_of(r)->frame_count : 0,
        .given_stack = true,
        .thread = other ? r : NULL,
        .stall = &stall,
    };
    note_stall(stall.duration_ms);
    lh_breach_report(t, &b);
}

/* The thread goes back to its loop's wait, or leaves its loop: its iteration is over. */
static void loop_wait(lh_tls *t, uint64_t now) {
    lh_thread_rec *r = t->rec;
    if (r == NULL) return;
    uint64_t since = lh_load_relaxed(&stall_of(r)->busy_since_ns);
    if (since == 0) return;
    /* release: a watchdog that sees 0 no longer samples this iteration. */
    lh_store_release(&stall_of(r)->busy_since_ns, 0);
    /* acquire: pairs with the release that published a sample (handler or watchdog). */
    uint32_t phase = lh_load_acquire(&stall_of(r)->phase);
    uint64_t duration = now - since;
    if (LH_LIKELY(phase == LH_STALL_IDLE && duration < stall_ns())) return;
    bool mine = lh_load_relaxed(&stall_of(r)->sampled_for) == since;
    if (phase == LH_STALL_REQUESTED) {
        /* The signal is on its way: the handler will find busy_since changed and drop it. */
        if (duration >= stall_ns()) report(t, r, since, duration, false, false, false);
        return;
    }
    if (phase == LH_STALL_SAMPLED) {
        uint32_t expected = LH_STALL_SAMPLED;
        /* acq_rel: we, not the watchdog, write this stall's report. */
        if (lh_cas_acq_rel_both(&stall_of(r)->phase, &expected, LH_STALL_REPORTED)) {
            if (duration >= stall_ns()) report(t, r, since, duration, false, mine, false);
        }
    } else if (phase == LH_STALL_IDLE) {
        report(t, r, since, duration, false, false, false); /* no sample: the watchdog never ran */
    }
    /* release: the record is free for the next sample (REPORTED by us or by the watchdog). */
    lh_store_release(&stall_of(r)->phase, LH_STALL_IDLE);
}

/* ---- the signal handler (on the stuck thread) ------------------------------------------------ */

static void on_signal(int sig, siginfo_t *info, void *context) {
    (void)sig;
    int saved = errno;
    lh_tls *t = &lh_tls_data;
    lh_thread_rec *r = t->rec;
    /* Only our own tgkill, to a thread whose sample we asked for. */
    if (info->si_code != SI_TKILL || info->si_pid != getpid() || r == NULL) {
        errno = saved;
        return;
    }
    /* acquire: pairs with the watchdog's CAS to REQUESTED (sampled_for written before it). */
    if (lh_load_acquire(&stall_of(r)->phase) != LH_STALL_REQUESTED) {
        errno = saved;
        return;
    }
    uint64_t since = lh_load_relaxed(&stall_of(r)->busy_since_ns);
    bool same = since != 0 && since == lh_load_relaxed(&stall_of(r)->sampled_for);
    if (same && t->guard == 0) {
        /* Unwind from here, then keep the frames from the interrupted instruction on (our handler
         * and the kernel's signal trampoline are above it). */
        void *raw[LH_STALL_FRAMES + 16];
        int n;
        {
            LH_GUARDED(t);
            n = lh_unwind(raw, LH_STALL_FRAMES + 16);
        }
        uintptr_t pc = (uintptr_t)((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP];
        int from = -1;
        for (int i = 0; i < n && from < 0; i++)
            if ((uintptr_t)raw[i] == pc) from = i;
        uint32_t count = 0;
        if (from < 0) { /* not found (should not happen): the interrupted pc alone */
            stall_of(r)->frames[count++] = pc;
        } else {
            for (int i = from; i < n && count < LH_STALL_FRAMES; i++) {
                uintptr_t f = (uintptr_t)raw[i];
                /* A wrapper of ours in the middle (a timer trampoline, a layout hook) is not the host's. */
                if (i > from && lh_is_own_code(f)) continue;
                stall_of(r)->frames[count++] = f;
            }
        }
        stall_of(r)->frame_count = count;
        stall_of(r)->method = LH_STALL_BY_SIGNAL;
        stall_of(r)->syscall_nr = -1;
        stall_of(r)->sample_ns = lh_now_ns();
        /* release: the frames above are published with SAMPLED. */
        lh_store_release(&stall_of(r)->phase, LH_STALL_SAMPLED);
    } else {
        /* The iteration ended, or LoopHunter itself was interrupted: the watchdog asks again. */
        lh_store_release(&stall_of(r)->phase, LH_STALL_IDLE);
    }
    errno = saved;
}

/* ---- the watchdog ------------------------------------------------------------------------------ */

/* System calls that a signal handler cuts short even with SA_RESTART (signal(7)): a thread blocked
 * in one is never interrupted; its stack is scanned from outside instead. */
static bool never_restarted(long nr) {
    switch (nr) {
#ifdef SYS_poll
    case SYS_poll:
#endif
#ifdef SYS_select
    case SYS_select:
#endif
#ifdef SYS_pause
    case SYS_pause:
#endif
#ifdef SYS_nanosleep
    case SYS_nanosleep:
#endif
#ifdef SYS_epoll_wait
    case SYS_epoll_wait:
#endif
    case SYS_clock_nanosleep:
    case SYS_ppoll:
    case SYS_pselect6:
    case SYS_epoll_pwait:
    case SYS_rt_sigsuspend:
    case SYS_rt_sigtimedwait:
    case SYS_io_getevents:
    case SYS_semtimedop:
    case SYS_msgrcv:
    case SYS_msgsnd:
#ifdef SYS_semop
    case SYS_semop:
#endif
#ifdef SYS_epoll_pwait2
    case SYS_epoll_pwait2:
#endif
        return true;
    default:
        return false;
    }
}

static const char *syscall_name(int32_t nr) {
    switch (nr) {
    case -1: return NULL;
#ifdef SYS_poll
    case SYS_poll: return "poll";
#endif
#ifdef SYS_select
    case SYS_select: return "select";
#endif
#ifdef SYS_pause
    case SYS_pause: return "pause";
#endif
#ifdef SYS_nanosleep
    case SYS_nanosleep: return "nanosleep";
#endif
#ifdef SYS_epoll_wait
    case SYS_epoll_wait: return "epoll_wait";
#endif
    case SYS_clock_nanosleep: return "clock_nanosleep";
    case SYS_ppoll: return "ppoll";
    case SYS_pselect6: return "pselect6";
    case SYS_epoll_pwait: return "epoll_pwait";
    case SYS_rt_sigsuspend: return "rt_sigsuspend";
    case SYS_rt_sigtimedwait: return "rt_sigtimedwait";
    case SYS_io_getevents: return "io_getevents";
    case SYS_semtimedop: return "semtimedop";
    case SYS_msgrcv: return "msgrcv";
    case SYS_msgsnd: return "msgsnd";
    case SYS_read: return "read";
    case SYS_write: return "write";
    case SYS_futex: return "futex";
    case SYS_wait4: return "wait4";
    case SYS_recvfrom: return "recvfrom";
    case SYS_recvmsg: return "recvmsg";
    case SYS_connect: return "connect";
    case SYS_accept: return "accept";
    case SYS_accept4: return "accept4";
    case SYS_openat: return "openat";
    case SYS_flock: return "flock";
    case SYS_fcntl: return "fcntl";
    default: return "(other)";
    }
}

/* Reads a small /proc file of thread `tid` into `buf` (NUL-terminated). */
static ssize_t read_task_file(int32_t tid, const char *leaf, char *buf, size_t size) {
    if (lh_sandboxed()) return -1; /* no /proc inside a sandbox: the signal is the only way in */
    char path[64];
    lh_buf p;
    lh_buf_init(&p, path, sizeof path);
    lh_buf_put(&p, "/proc/self/task/");
    lh_buf_u64(&p, (uint64_t)tid);
    lh_buf_putc(&p, '/');
    lh_buf_put(&p, leaf);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n < 0) return -1;
    buf[n] = '\0';
    return n;
}

static uint64_t parse_hex(const char **s) {
    const char *c = *s;
    while (*c == ' ') c++;
    if (c[0] == '0' && c[1] == 'x') c += 2;
    uint64_t v = 0;
    for (;; c++) {
        unsigned d = *c >= '0' && *c <= '9' ? (unsigned)(*c - '0')
                     : *c >= 'a' && *c <= 'f' ? (unsigned)(*c - 'a' + 10) : 16u;
        if (d == 16) break;
        v = v * 16 + d;
    }
    *s = c;
    return v;
}

/* Where thread `tid` is: running (false), or blocked in system call *nr (-1: blocked outside one)
 * with its stack pointer and instruction pointer. */
static bool where_blocked(int32_t tid, long *nr, uintptr_t *sp, uintptr_t *pc) {
    char text[256];
    if (read_task_file(tid, "syscall", text, sizeof text) <= 0 || strncmp(text, "running", 7) == 0) return false;
    const char *c = text;
    bool negative = *c == '-';
    if (negative) c++;
    long v = 0;
    while (*c >= '0' && *c <= '9') v = v * 10 + (*c++ - '0');
    *nr = negative ? -v : v;
    int fields = negative ? 2 : 8; /* "-1 sp pc" or "nr a1..a6 sp pc" */
    uint64_t values[8] = {0};
    for (int i = 0; i < fields; i++) values[i] = parse_hex(&c);
    *sp = (uintptr_t)values[fields - 2];
    *pc = (uintptr_t)values[fields - 1];
    return true;
}

/* Whether thread `tid` blocks signal `sig` (its SigBlk line; not known inside a sandbox: the
 * request then times out if it does). */
static bool blocks(int32_t tid, int sig) {
    if (lh_sandboxed()) return false;
    char text[2048];
    if (read_task_file(tid, "status", text, sizeof text) <= 0) return true;
    const char *line = strstr(text, "SigBlk:");
    if (line == NULL) return true;
    line += 7;
    while (*line == '\t' || *line == ' ') line++;
    uint64_t mask = parse_hex(&line);
    return (mask >> (sig - 1)) & 1;
}

static bool read_memory(uintptr_t address, void *out, size_t len) {
    return lh_read_memory(out, (const void *)address, len);
}

/* x86-64: the bytes before `ret` end with a call instruction (E8 rel32, or FF /2 in its 2-, 3-,
 * 6- and 7-byte forms). */
static bool follows_call(uintptr_t ret) {
#if defined(__x86_64__)
    unsigned char b[8];
    if (ret < 8 || !read_memory(ret - 8, b, sizeof b)) return false;
    if (b[3] == 0xE8) return true;                                  /* call rel32 */
    if (b[6] == 0xFF && (b[7] & 0x38) == 0x10) return true;         /* call *%reg */
    if (b[5] == 0xFF && (b[6] & 0x38) == 0x10) return true;         /* call *disp8(%reg) */
    if (b[2] == 0xFF && (b[3] & 0x38) == 0x10) return true;         /* call *disp32(%reg|%rip) */
    if (b[1] == 0xFF && (b[2] & 0x38) == 0x10) return true;         /* call *disp32(,%reg,s) */
    return false;
#else
    (void)ret;
    return true;
#endif
}

#define SCAN_RANGES 512
#define SCAN_WORDS 4096 /* 32 KiB of stack per read */

typedef struct scan_area {
    lh_range exec[SCAN_RANGES];
    uintptr_t words[SCAN_WORDS];
} scan_area;

static scan_area *scan_mem; /* the watchdog's own, mapped when it starts */

static bool in_code(uintptr_t a, size_t ranges) {
    /* LoopHunter's own code is never where the host is stuck: a stale word. */
    if (lh_is_own_code(a)) return false;
    for (size_t i = 0; i < ranges; i++)
        if (a >= scan_mem->exec[i].lo && a < scan_mem->exec[i].hi) return true;
    return false;
}

/* The stack of a thread blocked at (sp, pc), read from outside: pc, then every word above sp that
 * points just after a call instruction in a loaded module's code (the return addresses, plus
 * possibly a few stale ones), up to 256 KiB of stack. */
static uint32_t scan_stack(uintptr_t sp, uintptr_t pc, uintptr_t *frames) {
    uint32_t count = 0;
    frames[count++] = pc;
    size_t ranges = lh_modules_ranges_named(NULL, 0, scan_mem->exec, SCAN_RANGES);
    for (uintptr_t at = sp & ~(uintptr_t)7; at < sp + 256 * 1024 && count < LH_STALL_FRAMES;
         at += sizeof scan_mem->words) {
        if (!read_memory(at, scan_mem->words, sizeof scan_mem->words)) {
            /* The end of the stack mapping: read what is left word by word. */
            size_t n = 0;
            while (n < SCAN_WORDS && read_memory(at + n * 8, &scan_mem->words[n], 8)) n++;
            for (size_t i = 0; i < n && count < LH_STALL_FRAMES; i++)
                if (in_code(scan_mem->words[i], ranges) && follows_call(scan_mem->words[i]))
                    frames[count++] = scan_mem->words[i];
            break;
        }
        for (size_t i = 0; i < SCAN_WORDS && count < LH_STALL_FRAMES; i++)
            if (in_code(scan_mem->words[i], ranges) && follows_call(scan_mem->words[i]))
                frames[count++] = scan_mem->words[i];
    }
    return count;
}

/* Is our handler still the one installed for our signal (the host may have taken it since)? */
static bool signal_still_ours(int sig) {
    struct sigaction current;
    if (sigaction(sig, NULL, &current) != 0) return false;
    return (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_signal;
}

static void sample(lh_thread_rec *r, uint64_t since, uint64_t now) {
    int32_t tid = lh_load_relaxed(&r->tid);
    int sig = lh_load_relaxed(&stall_signal);
    long nr = -1;
    uintptr_t sp = 0, pc = 0;
    bool blocked = where_blocked(tid, &nr, &sp, &pc);
    bool scan = blocked && (nr < 0 || never_restarted(nr));
    if (!scan && (sig == 0 || blocks(tid, sig) || !signal_still_ours(sig))) {
        scan = true;
        if (!blocked && !where_blocked(tid, &nr, &sp, &pc)) return; /* running, no signal: next tick */
    }
    /* relaxed: published by the phase change (CAS or store with release) below. */
    lh_store_relaxed(&stall_of(r)->sampled_for, since);
    if (!scan) {
        uint32_t expected = LH_STALL_IDLE;
        stall_of(r)->request_ns = now;
        /* acq_rel: sampled_for is visible to the handler with REQUESTED. */
        if (!lh_cas_acq_rel(&stall_of(r)->phase, &expected, LH_STALL_REQUESTED))
            return;
        lh_add_relaxed(&stat_signals, 1); /* stat */
        if (syscall(SYS_tgkill, lh_proc.pid, tid, sig) != 0)
            lh_store_release(&stall_of(r)->phase, LH_STALL_IDLE);
        return;
    }
    lh_add_relaxed(&stat_scans, 1); /* stat */
    uint32_t expected = LH_STALL_IDLE;
    stall_of(r)->request_ns = now;
    /* acquire: the sample is ours to fill until we publish SAMPLED (REQUESTED meanwhile). */
    if (!lh_cas_acquire(&stall_of(r)->phase, &expected, LH_STALL_REQUESTED))
        return;
    stall_of(r)->frame_count = scan_stack(sp, pc, stall_of(r)->frames);
    stall_of(r)->method = LH_STALL_BY_SCAN;
    stall_of(r)->syscall_nr = (int32_t)nr;
    stall_of(r)->sample_ns = lh_now_ns();
    /* release: the frames are published with SAMPLED. */
    lh_store_release(&stall_of(r)->phase, LH_STALL_SAMPLED);
}

/* One look at every live record. */
static void check_threads(lh_tls *t) {
    uint64_t now = lh_now_ns(), limit = stall_ns();
    /* acquire: records below the bound were claimed (their fields initialised). */
    size_t high = lh_load_acquire(&lh_proc.records_high);
    for (size_t i = 0; i < high; i++) {
        lh_thread_rec *r = &lh_proc.records[i];
        if (lh_load_acquire(&r->state) != LH_REC_LIVE) continue;
        /* acquire: pairs with the loop thread's release of busy_since. */
        uint64_t since = lh_load_acquire(&stall_of(r)->busy_since_ns);
        if (since == 0 || now < since) continue;
        uint64_t busy = now - since;
        uint32_t phase = lh_load_acquire(&stall_of(r)->phase);
        if (phase == LH_STALL_IDLE && busy >= limit / 4 * 3) {
            sample(r, since, now);
        } else if (phase == LH_STALL_REQUESTED &&
                   now - stall_of(r)->request_ns > 1000000000u) {
            /* The signal never arrived (blocked since): ask again later. */
            uint32_t expected = LH_STALL_REQUESTED;
            if (lh_cas_acq_rel(&stall_of(r)->phase, &expected, LH_STALL_IDLE))
                lh_add_relaxed(&stat_lost, 1); /* stat */
        } else if (phase == LH_STALL_SAMPLED && busy >= 5 * limit &&
                   lh_load_relaxed(&stall_of(r)->sampled_for) == since) {
            uint32_t expected = LH_STALL_SAMPLED;
            /* acq_rel: the watchdog, not the thread, writes this stall's report (ongoing). */
            if (lh_cas_acq_rel_both(&stall_of(r)->phase, &expected, LH_STALL_REPORTED))
                report(t, r, since, busy, true, true, true);
        }
    }
}

static void *watchdog_main(void *arg) {
    (void)arg;
    lh_tls *t = &lh_tls_data;
    t->guard++; /* forever: nothing this thread does is counted or checked */
    uint64_t tick = stall_ns() / 8;
    if (tick < 10000000u) tick = 10000000u;
    if (tick > 500000000u) tick = 500000000u;
    while (!lh_load_relaxed(&watchdog_stop)) {
        struct timespec ts = {(time_t)(tick / 1000000000u), (long)(tick % 1000000000u)};
        while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR) {
        }
        if (lh_load_relaxed(&watchdog_stop)) break;
        lh_add_relaxed(&stat_wakeups, 1); /* stat */
        check_threads(t);
    }
    return NULL;
}

/* Picks the highest real-time signal nobody handles and installs our handler on it. A later
 * attach session keeps the one an earlier session installed (it stays ours: a signal the last
 * watchdog sent may still be on its way, so the handler is never taken away). */
static int claim_signal(void) {
    int kept = lh_load_relaxed(&stall_signal);
    struct sigaction now;
    if (kept != 0 && sigaction(kept, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) != 0 && now.sa_sigaction == on_signal)
        return kept;
    for (int sig = SIGRTMAX; sig > SIGRTMIN + 2; sig--) {
        struct sigaction old;
        if (sigaction(sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_signal;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigfillset(&sa.sa_mask);
        if (sigaction(sig, &sa, NULL) == 0) return sig;
    }
    return 0;
}

static void start_watchdog(void) {
    int expected = 0;
    /* relaxed: a once-flag; the thread reads only what was initialised before it was created. */
    if (!lh_cas_relaxed(&watchdog_started, &expected, 1))
        return;
    if (scan_mem == NULL) {
        void *mem = lh_map("stall watchdog scan area", sizeof(scan_area));
        if (mem == NULL) return;
        scan_mem = mem;
    }
    lh_store_relaxed(&stall_signal, claim_signal());
    lh_store_relaxed(&watchdog_stop, false);
    /* Joinable: an attach session that ends joins it (under the preload it runs until exit). */
    int err = lh_thread_spawn(&watchdog_thread, 256 * 1024, watchdog_main, "loophunter-wd");
    if (err != 0) lh_diag("loophunter: could not start the stall watchdog; stalls are reported without the stuck stack");
}

/* ---- exit, fork, summary --------------------------------------------------------------------- */

static void flush(lh_tls *t) {
    uint64_t now = lh_now_ns();
    size_t high = lh_load_acquire(&lh_proc.records_high);
    for (size_t i = 0; i < high; i++) {
        lh_thread_rec *r = &lh_proc.records[i];
        /* The exiting thread's own iteration is the program ending, not a stall. */
        if (r == t->rec || lh_load_acquire(&r->state) != LH_REC_LIVE) continue;
        uint64_t since = lh_load_acquire(&stall_of(r)->busy_since_ns);
        if (since == 0 || now - since < stall_ns()) continue;
        uint32_t expected = LH_STALL_SAMPLED;
        if (lh_load_relaxed(&stall_of(r)->sampled_for) == since &&
            lh_cas_acq_rel_both(&stall_of(r)->phase, &expected, LH_STALL_REPORTED))
            report(t, r, since, now - since, true, true, true);
    }
}

static void after_fork(void) {
    /* The watchdog thread does not exist in the child, and none is started there: the parent may
     * have had other threads, and then only async-signal-safe calls are allowed until exec. A
     * stall in the child is still reported by its loop thread when it comes back, unsampled. */
    lh_store_relaxed(&watchdog_started, 2);
#define LH_ZERO(c) lh_store_relaxed(&c, 0)
    LH_ZERO(stat_wakeups);
    LH_ZERO(stat_signals);
    LH_ZERO(stat_scans);
    LH_ZERO(stat_lost);
    LH_ZERO(stat_stalls);
    LH_ZERO(stat_longest_ms);
#undef LH_ZERO
}

/* An attach session ends: the watchdog thread is gone before this returns (the process is left
 * with no thread of ours). Its signal handler stays (see claim_signal). */
static void detached(void) {
    if (lh_load_relaxed(&watchdog_started) != 1) return;
    lh_store_relaxed(&watchdog_stop, true);
    pthread_join(watchdog_thread, NULL);
    lh_store_relaxed(&watchdog_started, 0);
}

/* A later attach session: after_fork said "never" (right for a child of fork, not here). */
static void attached(void) { lh_store_relaxed(&watchdog_started, 0); }

static void summary(lh_json *j) {
    if ((lh_proc.cfg.families & LH_FAMILY_STALL) == 0) {
        lh_json_null(j, "stalls");
        return;
    }
    lh_json_begin_object(j, "stalls");
    lh_json_u64(j, "count", lh_load_relaxed(&stat_stalls));
    lh_json_u64(j, "longest_ms", lh_load_relaxed(&stat_longest_ms));
    lh_json_u64(j, "stall_ms", lh_proc.cfg.stall_ms);
    lh_json_begin_object(j, "watchdog");
    lh_json_bool(j, "running", lh_load_relaxed(&watchdog_started) == 1);
    lh_json_u64(j, "wakeups", lh_load_relaxed(&stat_wakeups));
    lh_json_u64(j, "signals", lh_load_relaxed(&stat_signals));
    lh_json_u64(j, "scans", lh_load_relaxed(&stat_scans));
    lh_json_u64(j, "lost", lh_load_relaxed(&stat_lost));
    lh_json_end_object(j);
    lh_json_end_object(j);
}

static void thread_start(lh_tls *t, size_t index) {
    (void)t;
    /* Nobody samples a record that is not LIVE: clearing it is ours. */
    memset(&recs[index], 0, sizeof recs[index]);
}

static void thread_exit(lh_tls *t, size_t index) {
    (void)t;
    /* release: the watchdog no longer sees this thread busy (it is gone, mid-iteration or not). */
    lh_store_release(&recs[index].busy_since_ns, 0);
}

const lh_detector lh_detector_stall = {
    .name = "stall",
    .after_fork = after_fork,
    .attached = attached,
    .detached = detached,
    .thread_start = thread_start,
    .thread_exit = thread_exit,
    .loop_busy = loop_busy,
    .loop_wait = loop_wait,
    .loop_left = loop_wait,
    .flush = flush,
    .summary = summary,
};
