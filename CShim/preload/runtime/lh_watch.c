/*
 * lh_watch.c — size reads that leave no call to see, seen with hardware breakpoints (lh_watch.h).
 *
 * A suspect: an object whose outside requests come WATCH_STREAK times in a row, each after a
 * layout of it and at most WATCH_GAP iterations after the one before (a timer, an idle or an input
 * handler that asks again after every layout). A suspect gets a watch: a perf_event_open(2)
 * breakpoint of type read-or-write on the 8 bytes its toolkit keeps its size in (x86 has no
 * read-only breakpoint), sampling every access into a ring of instruction addresses
 * (PERF_SAMPLE_IP, period 1, user space only). The ring is mmap'd from the event's descriptor,
 * which is then closed: the mapping keeps the event alive, no descriptor is held (none to leak, to
 * collide with a host that closes or dup2s descriptors), and munmap ends it. No signal is asked
 * for: the kernel writes a sample per access, nothing reaches the host.
 *
 * The ring is emptied at each iteration of the owner's loop (lh_watch_iteration: its records'
 * headers walked and counted, nothing looked up), so at a request it holds the accesses of this iteration only: any from a
 * loaded module's code outside the toolkit's (its libraries, plugins and QML modules), libc, the
 * loader, libstdc++ and LoopHunter is the program's read.
 *
 * Each access costs the host a debug trap, the toolkit's own reads of a watched object included:
 * about 10 µs on this machine's virtual CPUs (a microsecond on bare metal), about 40 accesses per
 * request of a Qt widget; and arming costs a few system calls (12 µs; 11 to 16 ms while no other
 * breakpoint exists on the system: the kernel sets breakpoints up; scripts/bench/watch_cost.c). So a watch is short: given back after WATCH_QUIET requests
 * in a row with no read, after WATCH_REQUESTS requests in all (a loop is reported well within
 * them: LOOPHUNTER_LOOP_FRAMES, 30 by default), or after WATCH_IDLE iterations without a request;
 * its object then rests WATCH_REST iterations before it can be a suspect again. At most WATCHES
 * objects are watched at once.
 *
 * Contracts: the watches belong to one thread (the first that arms one: `owner`, claimed with a
 * compare-and-swap; Qt widgets live on the GUI thread), everything below `owner` is touched only by
 * it, guard held; no allocation, no lock, no stdio; the system calls (perf_event_open, mmap,
 * madvise, close, munmap) are made only when a watch is armed or given back, never inside a seccomp
 * sandbox. The loader's module list is walked (dl_iterate_phdr, its lock) when a watch is armed
 * after a module came or went, as the Qt glue does at an iteration.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lh_modules.h"
#include "lh_symbols.h"
#include "lh_watch.h"

#define WATCHES 2             /* of a thread's four debug registers */
#define WATCH_STREAK 3     /* outside requests after a layout, in a row, make a suspect */
#define WATCH_GAP 16          /* iterations between two of them, at most */
#define WATCH_IDLE 512        /* iterations without a request: the watch is given back */
#define WATCH_QUIET 8         /* requests in a row with no read: given back */
#define WATCH_REQUESTS 64     /* requests in all: given back */
#define WATCH_REST 4096       /* iterations a watched object waits before it is watched again */
#define WATCH_SUSPECTS 8
#define WATCH_RESTING 8
#define WATCH_RING_PAGES 2    /* 8 KiB of samples (512 accesses) an iteration */
#define WATCH_RANGES 64

__thread bool lh_watch_armed __attribute__((tls_model("initial-exec")));


typedef struct watch {
    const void *object;       /* NULL: free */
    unsigned char *ring;      /* the event's mapping: its header page, then WATCH_RING_PAGES of samples */
    uint64_t used;            /* the owner's iteration of the object's last request */
    uint32_t requests;        /* its requests since the watch was armed */
    uint32_t quiet;           /* of them, the last ones in a row that followed no read */
} watch;

typedef struct suspect {
    const void *object;       /* NULL: free */
    uint64_t layouts;         /* its layouts at its last outside request */
    uint64_t iteration;       /* the owner's iteration then */
    uint32_t streak;
} suspect;

/* The thread whose watches these are (NULL: none). acquire/release: a thread that claims it after
 * the last owner gave it back sees the tables as that one left them (all free). */
static _Atomic(lh_thread_rec *) owner;

/* Owner-only. */
static watch watches[WATCHES];
static suspect suspects[WATCH_SUSPECTS];
static struct resting {
    const void *object;       /* NULL: free */
    uint64_t until;           /* the owner's iteration from which it may be watched again */
} resting[WATCH_RESTING];
static lh_range toolkit_code[WATCH_RANGES]; /* whose accesses are not the program's reads */
static size_t toolkit_ranges;
static uint64_t ranges_generation;          /* lh_modules_generation() + 1 when computed (0: never) */
static const char *const *ranges_of;        /* the toolkit libraries they were computed for */

/* Statistics (relaxed counters) and the first failure, after which nothing is tried again. */
static _Atomic uint64_t armed_total, reads_seen, samples_seen, samples_lost;
static _Atomic uint64_t given_back_idle, given_back_quiet, given_back_spent;
static _Atomic int failed_errno;
static _Atomic(const char *) failed_call;

static size_t page_bytes(void) {
    static size_t page; /* owner-only */
    if (page == 0) page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

static size_t ring_bytes(void) { return (1 + WATCH_RING_PAGES) * page_bytes(); }

static void give_up(const char *call, int err) {
    lh_store_relaxed(&failed_call, call);
    lh_store_relaxed(&failed_errno, err != 0 ? err : EINVAL);
}

static bool claim(lh_tls *t) {
    lh_thread_rec *none = NULL;
    if (t->rec == NULL) return false;
    if (lh_load_acquire(&owner) == t->rec) return true;
    return atomic_compare_exchange_strong_explicit(&owner, &none, t->rec, memory_order_acquire, memory_order_relaxed);
}

static watch *watch_of(const void *object) {
    for (size_t i = 0; i < WATCHES; i++)
        if (watches[i].object == object) return &watches[i];
    return NULL;
}

static void update_armed(void) {
    bool any = false;
    for (size_t i = 0; i < WATCHES; i++) any |= watches[i].object != NULL;
    lh_watch_armed = any;
}

static void give_back(watch *w) {
    if (w->ring != NULL) munmap(w->ring, ring_bytes()); /* the last reference: the event ends */
    memset(w, 0, sizeof *w);
    update_armed();
}

/* Gives the watch back and lets its object rest (the entry whose rest ends first makes room). */
static void give_back_to_rest(lh_tls *t, watch *w) {
    struct resting *r = &resting[0];
    for (size_t i = 1; i < WATCH_RESTING; i++)
        if (resting[i].until < r->until) r = &resting[i];
    r->object = w->object;
    r->until = t->iteration + WATCH_REST;
    give_back(w);
}

static bool rests(const lh_tls *t, const void *object) {
    for (size_t i = 0; i < WATCH_RESTING; i++)
        if (resting[i].object == object) return t->iteration < resting[i].until;
    return false;
}

/* The code whose accesses are not the program's: the toolkit's libraries, the C and C++ runtimes,
 * the loader, GLib (Qt's event dispatcher) and LoopHunter. Walked again after modules change. */
static void find_toolkit_code(const char *const *libraries) {
    uint64_t generation = lh_modules_generation() + 1;
    if (ranges_generation == generation && ranges_of == libraries) return;
    static const char *const runtime[] = {"libc.so", "ld-linux", "libstdc++", "libgcc_s", "libm.so", "libglib-2.0"};
    char names[16][64];
    size_t n = 0;
    for (size_t i = 0; i < sizeof runtime / sizeof runtime[0]; i++) strncpy(names[n++], runtime[i], 63);
    for (size_t i = 0; libraries != NULL && libraries[i] != NULL && n < 16; i++) strncpy(names[n++], libraries[i], 63);
    for (size_t i = 0; i < n; i++) names[i][63] = '\0';
    toolkit_ranges = lh_modules_ranges_named((const char(*)[64])names, n, toolkit_code, WATCH_RANGES - 1);
    toolkit_code[toolkit_ranges++] = lh_proc.self_range;
    ranges_generation = generation;
    ranges_of = libraries;
}

static void arm(lh_tls *t, const void *object, const void *field, const char *const *libraries) {
    if (field == NULL || ((uintptr_t)field & 7) != 0 || lh_load_relaxed(&failed_errno) != 0 || lh_sandboxed() ||
        !claim(t))
        return;
    watch *w = NULL;
    for (size_t i = 0; i < WATCHES && w == NULL; i++)
        if (watches[i].object == NULL) w = &watches[i];
    if (w == NULL) { /* the one whose object asked least lately goes */
        w = &watches[0];
        for (size_t i = 1; i < WATCHES; i++)
            if (watches[i].used < w->used) w = &watches[i];
        give_back(w);
    }
    find_toolkit_code(libraries);
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_BREAKPOINT;
    a.size = sizeof a;
    a.bp_type = HW_BREAKPOINT_RW;
    a.bp_addr = (uintptr_t)field;
    a.bp_len = HW_BREAKPOINT_LEN_8;
    a.sample_period = 1;
    a.sample_type = PERF_SAMPLE_IP;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    /* This thread (pid 0: the calling thread), any CPU. */
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        give_up("perf_event_open", errno);
        return;
    }
    void *ring = mmap(NULL, ring_bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int err = errno;
    close(fd);
    if (ring == MAP_FAILED) {
        give_up("mmap", err);
        return;
    }
    madvise(ring, ring_bytes(), MADV_DONTFORK); /* a child of fork has no watches */
    w->object = object;
    w->ring = ring;
    w->used = t->iteration;
    lh_watch_armed = true;
    lh_add_relaxed(&armed_total, 1); /* stat */
}

/* Whether an access at `ip` is the program's: code of a loaded module (not generated code: a JIT's,
 * or valgrind's translations of everything) that is not the toolkit's or the runtime's. */
static bool program_code(uintptr_t ip) {
    const char *path;
    return !lh_ranges_contain(toolkit_code, toolkit_ranges, ip) && lh_module_path_of((const void *)ip, &path);
}

/* Empties the ring: how many of its accesses came from the program's code (`judge`; otherwise
 * they are only counted, and 0 is returned). */
static uint32_t drain(watch *w, bool judge) {
    struct perf_event_mmap_page *h = (struct perf_event_mmap_page *)w->ring;
    const unsigned char *data = w->ring + page_bytes();
    const uint64_t size = WATCH_RING_PAGES * page_bytes();
    /* acquire: the samples up to data_head are written before it (the kernel's barrier pairs). */
    uint64_t head = __atomic_load_n(&h->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = h->data_tail;
    uint32_t reads = 0;
    uint64_t samples = 0;
    while (head - tail >= sizeof(struct perf_event_header)) {
        struct {
            struct perf_event_header header;
            uint64_t ip;
        } rec;
        unsigned char *out = (unsigned char *)&rec;
        for (size_t i = 0; i < sizeof rec; i++) out[i] = data[(tail + i) % size]; /* a record may wrap */
        if (rec.header.size < sizeof rec.header || rec.header.size > head - tail) break;
        if (rec.header.type == PERF_RECORD_SAMPLE) {
            samples++;
            if (judge && program_code((uintptr_t)rec.ip)) reads++;
        } else if (rec.header.type == PERF_RECORD_LOST) {
            lh_add_relaxed(&samples_lost, 1); /* stat */
        }
        tail += rec.header.size;
    }
    /* release: our reads of the samples are done before the kernel may write over them. */
    __atomic_store_n(&h->data_tail, head, __ATOMIC_RELEASE);
    lh_add_relaxed(&samples_seen, samples); /* stat */
    return reads;
}

static suspect *suspect_entry(const void *object) {
    suspect *oldest = &suspects[0];
    for (size_t i = 0; i < WATCH_SUSPECTS; i++) {
        if (suspects[i].object == object) return &suspects[i];
        if (suspects[i].iteration < oldest->iteration) oldest = &suspects[i];
    }
    memset(oldest, 0, sizeof *oldest);
    return oldest;
}

bool lh_watch_request(lh_tls *t, const void *object, uint64_t layouts, const void *(*field)(const void *),
                      const char *const *libraries) {
    if (field == NULL || t->rec == NULL) return false;
    lh_thread_rec *o = lh_load_acquire(&owner);
    if (o != NULL && o != t->rec) return false;
    watch *w = watch_of(object);
    if (w != NULL) {
        w->used = t->iteration;
        bool read = drain(w, true) > 0;
        w->requests++;
        w->quiet = read ? 0 : w->quiet + 1;
        if (w->quiet >= WATCH_QUIET || w->requests >= WATCH_REQUESTS) {
            lh_add_relaxed(w->quiet >= WATCH_QUIET ? &given_back_quiet : &given_back_spent, 1); /* stat */
            give_back_to_rest(t, w);
        }
        if (read) lh_add_relaxed(&reads_seen, 1); /* stat */
        return read;
    }
    if (rests(t, object)) return false;
    suspect *s = suspect_entry(object);
    if (s->object != object) {
        s->object = object;
        s->streak = 1;
    } else if (s->layouts != layouts) {
        s->streak = t->iteration - s->iteration <= WATCH_GAP ? s->streak + 1 : 1;
    }
    s->layouts = layouts;
    s->iteration = t->iteration;
    if (s->streak < WATCH_STREAK) return false;
    memset(s, 0, sizeof *s);
    arm(t, object, field(object), libraries);
    return false;
}

void lh_watch_iteration_slow(lh_tls *t) {
    if (t->rec == NULL || lh_load_relaxed(&owner) != t->rec) return;
    for (size_t i = 0; i < WATCHES; i++) {
        watch *w = &watches[i];
        if (w->object == NULL) continue;
        if (t->iteration - w->used > WATCH_IDLE) {
            give_back_to_rest(t, w);
            lh_add_relaxed(&given_back_idle, 1); /* stat */
        } else {
            drain(w, false); /* reads before this iteration explain no request of it: counted only */
        }
    }
}

void lh_watch_forget(const void *object) {
    lh_tls *t = &lh_tls_data;
    if (t->rec == NULL || lh_load_relaxed(&owner) != t->rec) return;
    watch *w = watch_of(object);
    if (w != NULL) give_back(w);
    for (size_t i = 0; i < WATCH_SUSPECTS; i++)
        if (suspects[i].object == object) memset(&suspects[i], 0, sizeof suspects[i]);
    for (size_t i = 0; i < WATCH_RESTING; i++)
        if (resting[i].object == object) memset(&resting[i], 0, sizeof resting[i]);
}

void lh_watch_stop(void) {
    lh_tls *t = &lh_tls_data;
    if (t->rec == NULL || lh_load_relaxed(&owner) != t->rec) return;
    for (size_t i = 0; i < WATCHES; i++)
        if (watches[i].object != NULL) give_back(&watches[i]);
    memset(suspects, 0, sizeof suspects);
    memset(resting, 0, sizeof resting);
    /* release: the tables are left free before another thread may claim them. */
    lh_store_release(&owner, NULL);
}

void lh_watch_after_fork(void) {
    memset(watches, 0, sizeof watches); /* the rings are not mapped here */
    memset(suspects, 0, sizeof suspects);
    memset(resting, 0, sizeof resting);
    lh_store_relaxed(&owner, NULL);
    lh_watch_armed = false;
}

void lh_watch_summary(lh_json *j) {
    lh_json_begin_object(j, "inline_reads");
    lh_json_u64(j, "watches_armed", lh_load_relaxed(&armed_total));
    lh_json_u64(j, "watches_given_back_quiet", lh_load_relaxed(&given_back_quiet));
    lh_json_u64(j, "watches_given_back_spent", lh_load_relaxed(&given_back_spent));
    lh_json_u64(j, "watches_given_back_idle", lh_load_relaxed(&given_back_idle));
    lh_json_u64(j, "accesses", lh_load_relaxed(&samples_seen));
    lh_json_u64(j, "accesses_lost", lh_load_relaxed(&samples_lost));
    lh_json_u64(j, "requests_after_a_read", lh_load_relaxed(&reads_seen));
    int err = lh_load_relaxed(&failed_errno);
    if (err == 0) {
        lh_json_null(j, "unavailable_call");
        lh_json_null(j, "unavailable_errno");
    } else {
        lh_json_string(j, "unavailable_call", lh_load_relaxed(&failed_call));
        lh_json_i64(j, "unavailable_errno", err);
    }
    lh_json_end_object(j);
}
