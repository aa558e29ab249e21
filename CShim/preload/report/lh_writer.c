/*
 * lh_writer.c — report files written by a thread of LoopHunter's, so that the host thread that
 * breached does not wait on the file system: creating, writing and renaming a report file costs a
 * GUI thread ~30 µs on ext4 here, and hundreds of µs at the tail (BENCHMARKS.md, "breach path").
 *
 * The breach path still captures, describes and composes the report on the breaching thread
 * (lh_breach.c); it then hands the text over: lh_writer_submit copies it into a queue (a 4 MiB ring
 * mapped when the writer starts) and wakes the writer through a futex. The caller writes the file
 * itself, as before, whenever the writer cannot take it: not running (not started yet, a fork
 * child, a seccomp sandbox, leaving), the queue full, another thread queueing a report at that
 * instant, or a report larger than a quarter of the queue. No report is dropped for want of room;
 * one that fails for want of a descriptor, memory or disk space stays queued and is tried again
 * (transient()), where its breaching thread would have lost it.
 *
 * The writer starts at the first iteration boundary after the process wrote a report itself
 * (lh_writer_wanted, lh_writer_tick): a program that never breaches never has the thread, and its
 * first report is on disk before the breaching call returns. The thread is created with every
 * signal blocked (it never runs the host's code, never receives its signals) and in SCHED_IDLE (it
 * only uses CPU time the program leaves), holds the guard for good and makes only futex, open,
 * read, write, close, close_range, rename, unlink and madvise calls.
 *
 * Descriptors: the writer first gives itself a descriptor table of its own, empty
 * (close_range(CLOSE_RANGE_UNSHARE), Linux 5.9), so that the report files it opens never show in
 * the program's table: they take no descriptor number the program expects (close(1); open() gives
 * 1), never change a count of /proc/self/fd, are never closed under the writer by a program that
 * closes every descriptor (closefrom) nor by one the program opened at the same number, and a
 * program that used up RLIMIT_NOFILE does not stop them. Holding none of the program's descriptors,
 * it keeps no pipe or socket open that the program closed. It cannot write to stderr either: a
 * failure it meets is said by the next breaching thread or the leaving thread
 * (lh_breach_file_written_later). Under a seccomp filter (the Seccomp field of the thread that
 * starts it is not 0: a container, a service) or on an older kernel, it keeps the shared table, as
 * before.
 *
 * Leaving: lh_writer_drain (the summary at exit, _exit, exec, an attach session's end, a seccomp
 * filter about to apply) closes the queue, waits (at most 2 s) for the record the writer has in
 * hand, and writes every other queued report itself before it returns. A process killed by a
 * signal (SIGKILL, a crash) while reports are queued loses them: for microseconds after a breach
 * when a CPU is free, longer while the program keeps every CPU busy (the writer is SCHED_IDLE); the
 * temporary file is then all that is left of one (never a partial report).
 *
 * Contracts: any thread, guard held; no allocation through the host's malloc (the ring is our own
 * mapping), no lock anybody waits on (one producer and one consumer at a time, each by a try-flag;
 * only the leaving thread waits for them, bounded), errno kept by the callers (the breach path and
 * the leaving paths save it), system calls only; drain is async-signal-safe (a crash handler's
 * _exit may call it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lh_breach.h"
#include "lh_io.h"
#include "lh_writer.h"

#define LH_WRITER_RING (4 * 1024 * 1024) /* bytes of queued reports (a report here: 3 to 35 KB) */
#define LH_WRITER_GIVE_BACK (256 * 1024) /* written since the ring's pages were last given back */
#define LH_WRITER_LARGEST (LH_WRITER_RING / 4)
#define LH_WRITER_WAIT_NS 2000000000u   /* the longest a drain waits for a producer or one write */
#define LH_WRITER_RETRY_NS 50000000u     /* a write that failed for want of a resource: tried again */
#ifndef SYS_close_range
#define SYS_close_range 436 /* the same number on every architecture (Linux 5.9) */
#endif

/* A queued report in the ring: this header, the file name with its NUL, the text; the whole padded
 * to 8 bytes. A header whose name_len is 0 is padding up to the ring's end. */
typedef struct record {
    uint32_t size;     /* bytes of the whole record, header and padding included */
    uint32_t name_len; /* 0: padding */
    uint64_t text_len;
} record;

/* The writer's phase: IDLE → WANTED (a report was written by its breaching thread) → STARTING (the
 * thread that starts it, by CAS) → RUNNING, or NEVER (could not start, a fork child, a sandbox).
 * relaxed except RUNNING's store (release: the ring's mapping is published with it) and the
 * submit's load of it (acquire). */
enum { PHASE_IDLE = 0, PHASE_WANTED = 1, PHASE_STARTING = 2, PHASE_RUNNING = 3, PHASE_NEVER = 4 };
static _Atomic int phase;

/* The ring: one producer at a time (a try-flag: a breaching thread that finds it taken writes its
 * report itself, it never waits), one consumer at a time (the writer thread, or a drain). `head`
 * and `tail` count bytes from the start of time; head - tail bytes are queued. */
static char *ring;                      /* mapped by the starting thread, published by RUNNING */
static _Atomic uint64_t head;           /* the producer's: release after a whole record */
static _Atomic uint64_t tail;           /* the consumer's: release after a record was written */
static _Atomic int producing;           /* try-flag (acquire to take, release to give) */
static _Atomic int consuming;           /* try-flag (acquire to take, release to give) */
static _Atomic bool closed;             /* leaving: a drain holds `producing` for good (relaxed) */
static bool drain_holds;                /* the drain took `producing` (the leaving thread's) */
static _Atomic bool stop;               /* the thread ends (an attach session's end); relaxed flag */
static _Atomic uint32_t posted;         /* the futex word: bumped (release) after each record */
static _Atomic bool own_table;          /* the writer has a descriptor table of its own (relaxed) */
static char paths[8192];                /* lh_write_file_atomic's scratch: the consumer's */
static uint64_t given_back_at;          /* the consumer's: tail when the pages were last given back */
static pthread_t thread;

/* The summary's counters (relaxed: statistics). */
static struct {
    _Atomic uint64_t queued, queue_full, busy, too_large, written_leaving, retries;
} stats;

static void futex_wake(_Atomic uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static uint64_t padded(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

/* The ring's pages go back to the kernel once it is empty and LH_WRITER_GIVE_BACK bytes went
 * through it since the last time: a burst of reports leaves no resident memory behind. Only with
 * the producers' flag (no producer writes into the ring meanwhile): `held` (a drain holds it), or
 * taken here, and skipped when it is taken. */
static void give_back_pages(uint64_t at, bool held) {
    if (at - given_back_at < LH_WRITER_GIVE_BACK) return;
    int expected = 0;
    /* acquire: the last producer's head is seen (it is `at`, or the ring is not empty). */
    if (!held && !lh_cas_acquire(&producing, &expected, 1)) return;
    if (!held) lh_tsan_acquired(&producing);
    if (lh_load_relaxed(&head) == at) {
        madvise(ring, LH_WRITER_RING, MADV_DONTNEED);
        given_back_at = at;
    }
    /* release: pairs with the next producer's acquire. */
    if (!held) {
        lh_tsan_releasing(&producing);
        lh_store_release(&producing, 0);
    }
}

/* A write that failed for want of something that may come back (a descriptor, memory, disk space):
 * the writer keeps the report queued and tries again LH_WRITER_RETRY_NS later, or at the next
 * report; the leaving thread's drain tries once more, and only then is it counted as failed. A
 * breaching thread that wrote the report itself would have lost it at once. */
static bool transient(int result) {
    switch (-result) {
    case EMFILE: case ENFILE: case ENOMEM: case EAGAIN: case EINTR: case ENOSPC: case EDQUOT:
        return true;
    default:
        return false;
    }
}

/* Writes every record queued when it looked (the consumer's flag held). `leaving`: a drain's (every
 * record is written or counted as failed; the producers' flag held too, when it could be taken). Returns how many were
 * written or failed; *stalled: the first record is kept for a retry (the writer's only). */
static uint64_t consume(bool leaving, bool *stalled) {
    uint64_t done = 0;
    *stalled = false;
    uint64_t at = lh_load_relaxed(&tail);
    /* acquire: pairs with the producer's release of head: the records before it are whole. */
    uint64_t end = lh_load_acquire(&head);
    lh_tsan_acquired(&head); /* a TSan host: the records' bytes were handed over with head */
    /* The writer thread stops after its record in hand once a drain began: the leaving thread
     * takes the rest (it may not wait for a thread the process's end would kill mid-queue). */
    while (at < end && (leaving || !lh_load_relaxed(&closed))) {
        const record *r = (const record *)(ring + at % LH_WRITER_RING);
        if (r->name_len != 0) {
            const char *name = (const char *)(r + 1);
            const char *text = name + r->name_len + 1;
            int result = lh_write_file_atomic(lh_proc.cfg.dir, name, text, r->text_len, paths, sizeof paths);
            if (result != 0 && !leaving && transient(result)) {
                lh_add_relaxed(&stats.retries, 1); /* stat */
                *stalled = true;
                break;
            }
            /* The writer thread has no stderr of its own: a failure is said by a thread that has. */
            if (leaving) lh_breach_file_written(result);
            else lh_breach_file_written_later(result);
            done++;
        }
        at += r->size;
        /* release: our reads of the record happen before the producer reuses its bytes. */
        lh_tsan_releasing(&tail);
        lh_store_release(&tail, at);
    }
    give_back_pages(at, leaving && drain_holds);
    return done;
}

/* Whether this thread runs under a seccomp filter (the Seccomp field of /proc/thread-self/status
 * is not 0), or that cannot be read: then the writer tries no system call beyond those the
 * breaching thread already made for its report (a filter may kill the process for one it does not
 * know). */
static bool seccomp_filtered(void) {
    int fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return true;
    static const char field[] = "\nSeccomp:";
    size_t matched = 0; /* characters of `field` matched; all of them: its value comes next */
    int value = -1;     /* the value's first character; -1: not found */
    char piece[256];    /* read in small pieces: a program thread's stack may be small */
    while (value < 0) {
        ssize_t n = read(fd, piece, sizeof piece);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        for (ssize_t i = 0; i < n && value < 0; i++) {
            char c = piece[i];
            if (matched == sizeof field - 1) {
                if (c != ' ' && c != '\t') value = (unsigned char)c;
            } else if (c == field[matched]) {
                matched++;
            } else {
                matched = c == '\n' ? 1 : 0;
            }
        }
    }
    close(fd);
    return value != '0';
}

/* Whether the writer may try to take a descriptor table of its own: the thread that starts it
 * runs under no seccomp filter (a new thread inherits its creator's filters). Asked by that thread
 * before it creates the writer, so that the status file's descriptor is open only while that
 * thread does LoopHunter's work, never while the program's own code runs on it: asked by the
 * writer, in the table it still shared, the program could see the descriptor come and go (a
 * program checking its lowest free number after each report saw it once in 600). Written before
 * pthread_create, read by the thread it creates (which that orders): relaxed. */
static _Atomic bool may_unshare;

/* An empty descriptor table of the writer's own (see the top of the file); false: it shares the
 * program's, as every thread does. */
static bool take_own_table(void) {
    if (!lh_load_relaxed(&may_unshare)) return false;
    return syscall(SYS_close_range, 0u, ~0u, CLOSE_RANGE_UNSHARE) == 0;
}

static void *writer_main(void *arg) {
    (void)arg;
    lh_tls *t = &lh_tls_data;
    t->guard++; /* forever: nothing this thread does is counted or checked */
    lh_store_relaxed(&own_table, take_own_table()); /* stat */
    while (!lh_load_relaxed(&stop)) {
        /* acquire: a bump seen here was made after the record's head was published. */
        uint32_t seen = lh_load_acquire(&posted);
        int expected = 0;
        /* acquire: the previous consumer's tail and writes happen before ours. */
        bool stalled = false;
        if (lh_cas_acquire(&consuming, &expected, 1)) {
            lh_tsan_acquired(&consuming);
            consume(false, &stalled);
            lh_tsan_releasing(&consuming);
            lh_store_release(&consuming, 0);
        }
        if (lh_load_relaxed(&stop)) break;
        /* Sleeps until the word moves on from `seen` (returns at once if it already did), or, with
         * a report kept for a retry, at most LH_WRITER_RETRY_NS. */
        struct timespec retry = {0, LH_WRITER_RETRY_NS};
        syscall(SYS_futex, &posted, FUTEX_WAIT_PRIVATE, seen, stalled ? &retry : NULL, NULL, 0);
    }
    return NULL;
}

bool lh_writer_submit(const char *name, const char *text, size_t len) {
    /* acquire: pairs with the release of RUNNING (the ring is mapped). */
    if (lh_load_acquire(&phase) != PHASE_RUNNING || lh_load_relaxed(&closed)) return false;
    lh_tsan_acquired(&phase); /* a TSan host: the ring's mapping was published with RUNNING */
    size_t name_len = strlen(name);
    uint64_t size = padded(sizeof(record) + name_len + 1 + len);
    if (name_len == 0 || size > LH_WRITER_LARGEST) {
        lh_add_relaxed(&stats.too_large, 1); /* stat */
        return false;
    }
    int expected = 0;
    /* acquire: the previous producer's head and bytes happen before ours. */
    if (!lh_cas_acquire(&producing, &expected, 1)) {
        lh_add_relaxed(&stats.busy, 1); /* stat: another thread is queueing one (or leaving) */
        return false;
    }
    lh_tsan_acquired(&producing);
    uint64_t at = lh_load_relaxed(&head);
    uint64_t room_to_end = LH_WRITER_RING - at % LH_WRITER_RING;
    uint64_t pad = size > room_to_end ? room_to_end : 0; /* a record never wraps */
    /* acquire: pairs with the consumer's release of tail: the bytes before it are free. */
    bool fits = at + pad + size - lh_load_acquire(&tail) <= LH_WRITER_RING;
    lh_tsan_acquired(&tail); /* a TSan host: the bytes the consumer read are ours again */
    if (fits) {
        if (pad != 0) {
            record *p = (record *)(ring + at % LH_WRITER_RING);
            *p = (record){.size = (uint32_t)pad, .name_len = 0, .text_len = 0};
            at += pad;
        }
        record *r = (record *)(ring + at % LH_WRITER_RING);
        *r = (record){.size = (uint32_t)size, .name_len = (uint32_t)name_len, .text_len = len};
        char *bytes = (char *)(r + 1);
        memcpy(bytes, name, name_len + 1);
        memcpy(bytes + name_len + 1, text, len);
        /* release: the record is whole before the consumer (acquire) sees the new head. */
        lh_tsan_releasing(&head);
        lh_store_release(&head, at + size);
    }
    lh_tsan_releasing(&producing);
    lh_store_release(&producing, 0);
    if (!fits) {
        lh_add_relaxed(&stats.queue_full, 1); /* stat */
        return false;
    }
    /* release: see writer_main. */
    lh_add_release(&posted, 1);
    futex_wake(&posted);
    lh_add_relaxed(&stats.queued, 1); /* stat */
    return true;
}

void lh_writer_wanted(void) {
    if (!lh_proc.cfg.report_thread) return; /* LOOPHUNTER_REPORT_THREAD=0 */
    int expected = PHASE_IDLE;
    /* relaxed: a once-flag; the tick that sees it starts the thread. */
    lh_cas_relaxed(&phase, &expected, PHASE_WANTED);
}

static LH_NOINLINE void start(void) {
    int expected = PHASE_WANTED;
    /* relaxed: a once-flag; RUNNING publishes what the start sets up. */
    if (!lh_cas_relaxed(&phase, &expected, PHASE_STARTING)) return;
    LH_GUARDED(&lh_tls_data); /* pthread_create allocates: forwarded, uncounted */
    if (lh_sandboxed() || lh_load_relaxed(&closed)) {
        lh_store_relaxed(&phase, PHASE_NEVER);
        return;
    }
    if (ring == NULL) {
        void *mem = lh_map("report writer queue", LH_WRITER_RING);
        if (mem == NULL) {
            lh_store_relaxed(&phase, PHASE_NEVER);
            return;
        }
        ring = mem;
    }
    lh_store_relaxed(&stop, false);
    lh_store_relaxed(&may_unshare, !seccomp_filtered());
    /* Joinable: an attach session that ends joins it (under the preload it runs until exit). */
    int err = lh_thread_spawn(&thread, 64 * 1024, writer_main, "loophunter-wr");
    if (err == 0) {
        /* SCHED_IDLE: it runs on CPU time the program leaves unused, never preempting the
         * program's threads (on a busy machine the queue fills and the breaching threads write). */
        struct sched_param idle = {0};
        pthread_setschedparam(thread, SCHED_IDLE, &idle);
    }
    /* release: the ring's mapping is seen by every producer that sees RUNNING. */
    lh_tsan_releasing(&phase);
    lh_store_release(&phase, err == 0 ? PHASE_RUNNING : PHASE_NEVER);
}

void lh_writer_tick(void) {
    if (LH_UNLIKELY(lh_load_relaxed(&phase) == PHASE_WANTED)) start();
}

/* Takes `flag` (acquire), waiting for its holder at most until `deadline` (in 100 µs naps). */
static bool take_waiting(_Atomic int *flag, uint64_t deadline) {
    for (;;) {
        int expected = 0;
        if (lh_cas_acquire(flag, &expected, 1)) {
            lh_tsan_acquired(flag);
            return true;
        }
        if (lh_now_ns() > deadline) return false;
        struct timespec pause = {0, 100000};
        nanosleep(&pause, NULL);
    }
}

void lh_writer_drain(void) {
    /* acquire: the ring is mapped when the writer ran. */
    if (lh_load_acquire(&phase) != PHASE_RUNNING || lh_load_relaxed(&closed)) return;
    lh_tsan_acquired(&phase);
    lh_store_relaxed(&closed, true);
    /* The producers' flag, for good: a report being queued right now is whole once we hold it,
     * and every later one is written by its breaching thread. Then the consumers': the writer
     * gives it back after the record in hand. Each wait is bounded (a producer copying, one file
     * being written); what is queued is then written here, however long it takes, as each
     * breaching thread would have written it without the writer. */
    drain_holds = take_waiting(&producing, lh_now_ns() + LH_WRITER_WAIT_NS);
    /* The writer's record in hand is written before this returns (a seccomp filter may follow),
     * even when a producer did not let go (interrupted by the signal handler calling us). */
    if (!take_waiting(&consuming, lh_now_ns() + LH_WRITER_WAIT_NS)) return; /* stuck in one write */
    bool stalled;
    lh_add_relaxed(&stats.written_leaving, consume(true, &stalled)); /* stat */
    lh_tsan_releasing(&consuming);
    lh_store_release(&consuming, 0);
    lh_breach_say_later_failure(); /* one the writer met: said here, with the program's stderr */
}

void lh_writer_reopen(void) {
    if (!lh_load_relaxed(&closed)) return;
    if (drain_holds) {
        drain_holds = false;
        lh_tsan_releasing(&producing);
        /* release: pairs with the next producer's acquire. */
        lh_store_release(&producing, 0);
    }
    lh_store_relaxed(&closed, false);
}

void lh_writer_stop(void) {
    lh_writer_drain();
    if (lh_load_acquire(&phase) == PHASE_RUNNING) {
        lh_store_relaxed(&stop, true);
        lh_add_release(&posted, 1);
        futex_wake(&posted);
        pthread_join(thread, NULL);
    }
    /* A later session starts afresh: the ring stays mapped, empty; the producers' flag is free. */
    lh_store_relaxed(&phase, PHASE_IDLE);
    drain_holds = false;
    lh_store_relaxed(&producing, 0);
    lh_store_relaxed(&closed, false);
}

void lh_writer_after_fork(void) {
    /* The parent's queued reports are the parent's (its writer writes them); the child writes its
     * own on the breaching thread. */
    lh_store_relaxed(&tail, lh_load_relaxed(&head));
    lh_store_relaxed(&producing, 0);
    lh_store_relaxed(&consuming, 0);
    drain_holds = false;
    lh_store_relaxed(&phase, PHASE_NEVER);
    lh_store_relaxed(&own_table, false);
    memset(&stats, 0, sizeof stats);
}

void lh_writer_summary(lh_json *j) {
    lh_json_begin_object(j, "writer");
    lh_json_bool(j, "running", lh_load_relaxed(&phase) == PHASE_RUNNING && !lh_load_relaxed(&closed));
    lh_json_u64(j, "queued", lh_load_relaxed(&stats.queued));
    lh_json_u64(j, "written_at_leaving", lh_load_relaxed(&stats.written_leaving));
    lh_json_u64(j, "queue_full", lh_load_relaxed(&stats.queue_full));
    lh_json_u64(j, "producer_busy", lh_load_relaxed(&stats.busy));
    lh_json_u64(j, "too_large", lh_load_relaxed(&stats.too_large));
    lh_json_u64(j, "write_retries", lh_load_relaxed(&stats.retries));
    lh_json_bool(j, "own_descriptor_table", lh_load_relaxed(&own_table));
    lh_json_end_object(j);
}
