/*
 * lh_preload.h — internal declarations shared by the preload's files (never installed).
 *
 * The preload runs inside someone else's program: before main, in any thread, inside the host's
 * malloc or a signal handler. Its rules (each file repeats the ones it relies on):
 *   - no allocation through the host's malloc: state is static or mmap'd;
 *   - no lock the host could hold, and no lock of our own that anything waits on;
 *   - no stdio; the few diagnostics are raw write(2) to fd 2, one line each;
 *   - errno preserved across every hook; arguments and results forwarded untouched;
 *   - thread state in initial-exec TLS (lh_tls), guarded against re-entry: while LoopHunter does
 *     its own work (unwinding, writing a report) every hook on that thread is a plain forward.
 */
#ifndef LH_PRELOAD_H
#define LH_PRELOAD_H

#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>

#include "lh_config.h"
#include "lh_json.h"
#include "lh_modules.h"
#include "lh_report.h"
#include "lh_table.h"
#include "lh_toolkit.h"

/* ---- the hook table --------------------------------------------------------------------- */

enum lh_hook_id {
#define LH_LOOP_HOOK(name, ...) LH_HOOK_##name,
#define LH_LAYOUT_HOOK(name, ...) LH_HOOK_##name,
#define LH_CUSTOM_HOOK(name, ...) LH_HOOK_##name,
#define LH_ALLOC_HOOK(name, ...) LH_HOOK_##name,
#define LH_VFUNC_HOOK(name, ...) LH_HOOK_##name,
#include "lh_hooks.def"
#undef LH_LOOP_HOOK
#undef LH_LAYOUT_HOOK
#undef LH_CUSTOM_HOOK
#undef LH_ALLOC_HOOK
#undef LH_VFUNC_HOOK
    LH_HOOK_COUNT
};

/* The malloc family's originals, typed (see LH_ALLOC_HOOK): resolved as one set by lh_alloc.c. */
#define LH_LOOP_HOOK(name, ...)
#define LH_LAYOUT_HOOK(name, ...)
#define LH_CUSTOM_HOOK(name, ...)
#define LH_ALLOC_HOOK(name, ret, params) extern ret(*lh_real_##name) params LH_HIDDEN;
#define LH_VFUNC_HOOK(name, ...)
#include "lh_hooks.def"
#undef LH_LOOP_HOOK
#undef LH_LAYOUT_HOOK
#undef LH_CUSTOM_HOOK
#undef LH_ALLOC_HOOK
#undef LH_VFUNC_HOOK

typedef struct lh_hook_info {
    const char *name;
    unsigned family;              /* LH_FAMILY_* */
    const lh_toolkit *toolkit;    /* layout hooks: the adapter; else NULL */
    void **real;                  /* the original (lh_symbols.h: the next definition); NULL: not a symbol */
    bool streak;                  /* the layout-streak detector applies to this hook's counts */
} lh_hook_info;

extern const lh_hook_info lh_hooks[LH_HOOK_COUNT] LH_HIDDEN;
/* Resolves every original not yet resolved (start-up, and lazily from a wrapper). */
void lh_hooks_resolve(void) LH_HIDDEN;
/* The original of hook `id` (resolved on first use); NULL when the process does not have it. */
void *lh_hook_original(unsigned id) LH_HIDDEN;
/* The host's own definition of function (or variable) `name`: GLib's, GTK's, toykit's..., in
 * whichever module defines it first, loaded at start-up or later, globally or with RTLD_LOCAL;
 * never LoopHunter's. For calling the toolkit (lh_symbols.h; allocates nothing). NULL: none. */
void *lh_host_function(const char *name) LH_HIDDEN;
void *lh_host_data(const char *name) LH_HIDDEN;
/* After a dlclose: originals for which `unloaded` says their module is gone are looked up again on
 * next use. (The malloc family is never unloaded: it is the process's allocator.) */
void lh_hooks_forget_unloaded(bool (*unloaded)(const void *address, void *ctx), void *ctx) LH_HIDDEN;

/* Hook `h` counts layouts (a toolkit's layout entry point), as opposed to the helpers of the layout
 * family that only prepare counting (g_object_new*: class patching). */
static inline bool lh_hook_counts_layouts(unsigned h) {
    return lh_hooks[h].family == LH_FAMILY_LAYOUT && lh_hooks[h].toolkit != NULL;
}

/* "layout", "loop", "log": the family of a hook (reports, summary). */
static inline const char *lh_family_name(unsigned family) {
    return family == LH_FAMILY_LAYOUT ? "layout"
           : family == LH_FAMILY_LOOP ? "loop"
           : family == LH_FAMILY_LOG  ? "log"
           : family == LH_FAMILY_ALLOC ? "alloc"
           : family == LH_FAMILY_STALL ? "stall"
           : family == LH_FAMILY_WINDOW ? "window"
           : family == LH_FAMILY_TIMER ? "timer"
           : family == LH_FAMILY_PROCESS ? "process"
                                      : "other";
}

/* ---- per-thread state (initial-exec TLS) ----------------------------------------------------- */

#define LH_HISTORY_MAX 256
#define LH_THREAD_RECORDS 256
#define LH_MEMBERS 8

enum { LH_LOOP_STORM = 1, LH_LOOP_STREAK = 2 };

/* An object past half a detector's limit: if a breach follows on the same thread, it is part of the
 * same loop (listed in the report, and its own crossing joins that report instead of making one). */
typedef struct lh_member {
    int kind;                     /* 0 free, LH_LOOP_STORM, LH_LOOP_STREAK */
    lh_slot *slot;                /* its table slot: the live count / streak */
    const void *object;
    unsigned hook;
    uint64_t joined_epoch;        /* storm: the iteration whose report it joined */
    unsigned depth;               /* ancestors above it when noted */
    char type[64];
    char name[64];
} lh_member;

/* A loop thread's stall state (lh_stall.c): written by the thread, its signal handler and the
 * watchdog; each field says who writes it. */
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

/* A thread's statistics and history, in mmap'd memory so the summary can read them after the
 * thread is gone. Counters are written by the owning thread only and read by the summary writer:
 * relaxed atomics (a plain mov on x86-64), no read-modify-write. */
typedef struct lh_thread_rec {
    _Atomic uint32_t state;                    /* LH_REC_FREE / LIVE / DONE */
    _Atomic int32_t tid;
    char name[16];                             /* set at claim and at thread exit */
    _Atomic uint64_t iterations;
    _Atomic uint64_t frames;                   /* toolkit frames (GdkFrameClock before-paint) */
    _Atomic uint64_t layout_iterations;
    _Atomic uint64_t hook_calls[LH_HOOK_COUNT]; /* per hook (layout calls: the sum over layout hooks) */
    _Atomic uint32_t max_count;                /* highest per-iteration count of one object */
    _Atomic uint32_t max_hook;
    _Atomic uintptr_t max_object;
    _Atomic(const char *) max_type;
    _Atomic uint64_t max_iteration;
    uint32_t members_next;                     /* owner-only: ring index */
    lh_member members[LH_MEMBERS];             /* owner-only */
    lh_report_member report_members[LH_MEMBERS]; /* owner-only: the members of the report being written */
    uint32_t vfunc_depth;                      /* owner-only: nesting of wrapped vfunc calls */
    struct lh_vfunc_frame {
        const void *object;
        unsigned hook;
        lh_slot *outer_owner;                  /* the allocation owner to restore on return */
    } vfunc_stack[128];                        /* owner-only: chain-ups are not counted twice */
    uint32_t history_next;                     /* owner-only: ring index */
    lh_hist history[LH_HISTORY_MAX];           /* owner-only: read only by the owner's breaches */
    /* heap-growth detector (lh_alloc.c), owner-only */
    uint64_t growth_run;                       /* epochs in a row in which the live heap grew */
    uint64_t growth_start_live;                /* live bytes when the run began */
    uint64_t growth_last_live;                 /* live bytes at the last epoch's end */
    bool growth_has_last;
    bool growth_reported;                      /* this run was reported */
    struct {
        _Atomic uint64_t calls, bytes, frees, freed_bytes;
        _Atomic int valid;
    } alloc_at_exit;                           /* the thread's allocation counts when it ended */
    lh_stall_rec stall;                        /* see lh_stall_rec */
} lh_thread_rec;

enum { LH_REC_FREE = 0, LH_REC_LIVE = 1, LH_REC_DONE = 2 };

typedef struct lh_tls {
    uint32_t guard;               /* > 0: LoopHunter's own work is running on this thread */
    uintptr_t stack_lo;           /* the low end of this thread's stack (breach path); 0 unknown, 1 unlimited */
    bool record_failed;           /* the record pool was full when this thread asked */
    bool layout_linked;           /* this layout iteration is back-to-back with the previous one */
    bool frame_driven;            /* a toolkit frame clock drives this thread's layout epochs */
    bool past_first_epoch;        /* the current epoch is not the thread's first iteration or frame */
    uint64_t epoch;               /* process-unique id of the current iteration; 0: none yet */
    uint64_t epoch_number;        /* the current epoch's iteration (or frame) number */
    uint64_t iteration;           /* event-loop iterations this thread began */
    uint64_t frame;               /* toolkit frames this thread began */
    uint64_t iter_start_ns;
    uint64_t busy_end_ns;         /* when the loop went back to wait (0: still busy) */
    int32_t wait_ms;              /* timeout of the wait that ended the iteration */
    int32_t wait_since_layout_ms; /* longest wait asked for since the last layout iteration */
    uint32_t iter_layout_calls;
    uint64_t layout_epoch;        /* epoch of the last iteration that laid something out */
    uint64_t layout_iter;         /* layout iterations of this thread */
    uint64_t layout_iter_start_ns;
    lh_thread_rec *rec;
    /* Allocation accounting (lh_alloc.c), owner-only. */
    struct lh_alloc_counts *alloc; /* this thread's own counters (lh_alloc.c); NULL: none */
    /* The hot path's one test: `alloc` once the hooks may count into it with sizes read from the
     * chunk header (the alloc family is on, the header reads were checked); NULL: the slow path. */
    struct lh_alloc_counts *alloc_fast;
    uint64_t alloc_gate;          /* the byte count at which the storm limits are looked at (lh_alloc.c) */
    lh_slot *alloc_owner;         /* the innermost object whose layout is running: charged too */
    uint8_t alloc_mode;           /* 0: none claimed yet; 1: own counters; 2: the shared counters */
    bool alloc_armed;             /* the alloc-storm limits apply (a thread with iterations) */
    uint32_t alloc_storm_run;     /* iterations over a limit in a row (at most one quiet between) */
    uint64_t alloc_storm_last;    /* the epoch number of the last one */
    uint64_t alloc_limit_calls, alloc_limit_bytes;                 /* counts that make a storm */
    uint64_t alloc_base_calls, alloc_base_bytes, alloc_base_freed; /* at the epoch's start */
} lh_tls;

extern __thread lh_tls lh_tls_data __attribute__((tls_model("initial-exec"))) LH_HIDDEN;

/* Counts one call of hook `id` in the calling thread's record (when it has one yet). */
static inline void lh_count_hook_call(unsigned id) {
    lh_thread_rec *r = lh_tls_data.rec;
    if (r != NULL) lh_owner_add(&r->hook_calls[id], 1);
}

/* The thread's record, claimed on first use (the first claim in the process also resolves the
 * originals and primes the unwinder); NULL when the pool is exhausted. */
lh_thread_rec *lh_thread_record(lh_tls *t) LH_HIDDEN;
/* Ends the current iteration (into the history) and starts a new one. `claim`: take a thread record
 * if the thread has none (it is a GUI thread); otherwise only a thread with one keeps history.
 * On a frame-driven thread this counts the iteration but leaves the layout epoch to the frames. */
uint64_t lh_thread_new_iteration(lh_tls *t, bool claim) LH_HIDDEN; /* returns the time it began */
/* A toolkit frame begins (GdkFrameClock "before-paint"): from now on frames, not event-loop
 * iterations, are this thread's layout epochs and history entries. */
void lh_thread_frame_begin(lh_tls *t) LH_HIDDEN;
/* The frame has been painted ("after-paint"): its busy time ends. */
void lh_thread_frame_end(lh_tls *t) LH_HIDDEN;
/* The last `max` history entries, oldest first, including the running iteration. */
size_t lh_thread_history(lh_tls *t, lh_hist *out, size_t max) LH_HIDDEN;
/* Maps the record pool and creates the thread-exit key. Returns 0 or -errno. */
int lh_thread_init(void) LH_HIDDEN;
size_t lh_thread_records_bytes(void) LH_HIDDEN;
void lh_thread_reset_after_fork(void) LH_HIDDEN;
int32_t lh_gettid(void) LH_HIDDEN;

/* ---- process state --------------------------------------------------------------------------- */

enum { LH_STATE_UNINIT = 0, LH_STATE_INITIALIZING = 1, LH_STATE_READY = 2, LH_STATE_OFF = 3 };

#define LH_MAX_LOOP_RANGES 16
#define LH_MAX_CONFIG_MESSAGES 16
#define LH_THROTTLE_SLOTS 256

typedef struct lh_throttle {
    _Atomic uint64_t fingerprint; /* 0: free */
    _Atomic uint64_t raw;         /* the in-process fingerprint (return addresses) of its breaches */
    _Atomic uint64_t last_report_ns;
    _Atomic uint64_t reports;
    _Atomic uint64_t suppressed;
    const char *kind;             /* static string, set before fingerprint is published */
    char type[64];                /* object type of the first report (set by the claiming thread) */
} lh_throttle;

typedef struct lh_process {
    lh_config cfg;
    /* Derived from cfg at start-up for the layout path (lh_layout.c): the count that is a storm
     * (LOOPHUNTER_THRESHOLD + 1), and the counts at which an object joins a loop's members (half
     * of each detector's limit, at least 2). */
    uint64_t storm_at;
    uint32_t storm_member_at, streak_member_at;
    lh_table table;
    int pid, ppid;
    uint64_t run_tag;                 /* random per process: names and ids never collide */
    uint64_t start_ns, start_wall_ns;
    char exe[1024];
    bool dir_ok;
    char dir_problem[256];

    /* Iteration boundaries: executable ranges of the event-loop libraries. */
    lh_range loop_ranges[LH_MAX_LOOP_RANGES];
    _Atomic size_t loop_range_count;  /* release/acquire: publishes loop_ranges */
    _Atomic uint64_t loop_scan_generation; /* lh_modules_generation() at the last scan (relaxed) */
    _Atomic int loop_rescanning;      /* try-flag: one rescan at a time, nobody waits */
    lh_range self_range;              /* libloophunter.so's code: frames skipped in reports */

    _Atomic uint64_t epoch_next;      /* relaxed counter: unique iteration ids */
    _Atomic uint64_t report_seq;      /* relaxed counter: report file sequence */

    /* Report outcomes (relaxed counters). */
    _Atomic uint64_t breaches;
    _Atomic uint64_t reports_admitted; /* passed the cap (LOOPHUNTER_MAX_REPORTS) */
    _Atomic uint64_t reports_written;
    _Atomic uint64_t reports_suppressed;
    _Atomic uint64_t reports_joined;    /* crossings that were part of an already reported loop */
    _Atomic uint64_t reports_capped;
    _Atomic uint64_t reports_failed;
    _Atomic uint64_t reports_skipped_no_dir;
    _Atomic int write_failure_said;   /* one stderr line for the first failure only */
    _Atomic uint64_t capture_ns_total, capture_count; /* breach path cost, for the summary */
    _Atomic uint64_t captures_skipped_stack; /* reports written without a stack: too little stack left */

    lh_throttle throttle[LH_THROTTLE_SLOTS];
    _Atomic uint64_t throttle_full;

    lh_thread_rec *records;           /* mmap'd pool of LH_THREAD_RECORDS */
    _Atomic size_t records_high;      /* records [0, records_high) were ever claimed */
    _Atomic uint64_t records_exhausted;
    _Atomic uint64_t recycled_threads, recycled_iterations, recycled_layout_calls;

    char messages[LH_MAX_CONFIG_MESSAGES][LH_CONFIG_MESSAGE_LEN];
    size_t message_count;

    _Atomic int summary_written;
} lh_process;

extern lh_process lh_proc LH_HIDDEN;
extern _Atomic int lh_state LH_HIDDEN;

bool lh_init_slow(void) LH_HIDDEN;
/* Resolves every original and primes the unwinder, once per process (see lh_state.c). */
void lh_prepare_for_breaches(void) LH_HIDDEN;

/* True when LoopHunter is initialised, enabled, and `family` is switched on. Initialises lazily
 * (hooks can run before our constructor). */
static inline bool lh_active(unsigned family) {
    /* acquire: pairs with the release that publishes the initialised lh_proc. */
    int s = atomic_load_explicit(&lh_state, memory_order_acquire);
    if (LH_UNLIKELY(s != LH_STATE_READY)) {
        if (s != LH_STATE_UNINIT || !lh_init_slow()) return false;
    }
    return (lh_proc.cfg.families & family) != 0;
}

/* ---- event loop ------------------------------------------------------------------------------ */

static inline int32_t lh_wait_from_ms(int ms) { return ms < 0 ? -1 : ms; }
int32_t lh_wait_from_timespec(const struct timespec *ts) LH_HIDDEN;
int32_t lh_wait_from_timeval(const struct timeval *tv) LH_HIDDEN;
void lh_loop_enter(unsigned hook, const void *caller, int32_t wait_ms) LH_HIDDEN;
void lh_loop_return(unsigned hook, const void *caller) LH_HIDDEN;
/* (Re)reads the loop libraries' address ranges. */
void lh_loop_scan_libraries(void) LH_HIDDEN;
/* Finds the interposers of the loop waits loaded ahead of LoopHunter (start-up). */
void lh_loop_find_interposers(void) LH_HIDDEN;

/* ---- layout counting and detectors ----------------------------------------------------------- */

/* Counts one layout of `object` through `hook` (see lh_layout.c). Returns the object's table slot
 * (NULL when the table is full): allocations made while the layout runs are charged to it. */
/* `size`: the size being given to the object (width << 32 | height), or LH_GEOMETRY_NONE to ask
 * the hook's toolkit adapter when the streak detector needs it. */
lh_slot *lh_layout_count(lh_tls *t, unsigned hook, const void *object, uint64_t size) LH_HIDDEN;

/* The cases of lh_layout_count that leave its common path (lh_layout.c): the thread's first layout
 * of an iteration, an object not in its home slot, an object's first layout of an iteration (the
 * streak detector's turn), and a count that a detector looks at. Each holds the guard while it
 * calls out, and returns the object's slot. */
lh_slot *lh_layout_first_of_iteration(lh_tls *t, unsigned hook, const void *object, uint64_t size) LH_HIDDEN;
lh_slot *lh_layout_probed(lh_tls *t, unsigned hook, const void *object, uint64_t size) LH_HIDDEN;
lh_slot *lh_layout_rolled(lh_tls *t, lh_slot *s, unsigned hook, const void *object, uint64_t from,
                          uint64_t size) LH_HIDDEN;
/* The object's size from the hook's toolkit adapter (LH_GEOMETRY_NONE: no adapter or getter). */
uint64_t lh_layout_size_of(unsigned hook, const void *object) LH_HIDDEN;
/* A new object: its slot remembers its type name (for the summary). */
void lh_layout_named(lh_tls *t, lh_slot *s, unsigned hook, const void *object) LH_HIDDEN;
lh_slot *lh_layout_noted(lh_tls *t, lh_slot *s, unsigned hook, const void *object, uint32_t count) LH_HIDDEN;

/* Counts the call in slot `s`; the detectors' cases are calls out. */
static inline __attribute__((always_inline)) lh_slot *lh_layout_count_in(lh_tls *t, lh_slot *s, unsigned hook,
                                                                         const void *object, uint64_t size) {
    bool rolled;
    uint64_t from = 0;
    uint32_t count = lh_slot_count(s, t->epoch, &rolled, &from);
    if (LH_UNLIKELY(rolled)) {
        /* The streak detector compares the size with the last iteration's (asked here, so that
         * lh_layout_rolled calls nothing on its common path). */
        if (LH_UNLIKELY(from == 0)) lh_layout_named(t, s, hook, object);
        if (size == LH_GEOMETRY_NONE && lh_hooks[hook].streak) size = lh_layout_size_of(hook, object);
        return lh_layout_rolled(t, s, hook, object, from, size);
    }
    lh_thread_rec *r = t->rec;
    if (LH_UNLIKELY(count == lh_proc.storm_at || count == lh_proc.storm_member_at ||
                    (r != NULL && count > atomic_load_explicit(&r->max_count, memory_order_relaxed))))
        return lh_layout_noted(t, s, hook, object, count);
    return s;
}

/* lh_layout_count's body, inline in each layout wrapper (the hook is then a constant). Its common
 * case, an object laid out again in the iteration, calls nothing and needs no guard: nothing it
 * does can reach a hook. */
static inline __attribute__((always_inline)) lh_slot *lh_layout_count_inline(lh_tls *t, unsigned hook,
                                                                             const void *object, uint64_t size) {
    if (LH_UNLIKELY(t->layout_epoch != t->epoch || t->epoch == 0))
        return lh_layout_first_of_iteration(t, hook, object, size);
    t->iter_layout_calls++;
    lh_thread_rec *r = t->rec;
    if (LH_LIKELY(r != NULL)) lh_owner_add(&r->hook_calls[hook], 1);
    lh_slot *s = lh_table_slot_home(&lh_proc.table, object, hook);
    if (LH_UNLIKELY(s == NULL)) return lh_layout_probed(t, hook, object, size);
    return lh_layout_count_in(t, s, hook, object, size);
}

/* The layout wrappers' entry: skip at once when our own work is running on this thread, or when
 * LoopHunter or the layout family is off (the kill switch costs one TLS load and one load).
 * Returns the object's slot, or NULL when nothing was counted. */
static inline lh_slot *lh_layout_call(unsigned hook, const void *object) {
    lh_tls *t = &lh_tls_data;
    if (LH_UNLIKELY(t->guard != 0) || !lh_active(LH_FAMILY_LAYOUT)) return NULL;
    return lh_layout_count_inline(t, hook, object, LH_GEOMETRY_NONE);
}

/* ---- allocation accounting (lh_alloc.c) ------------------------------------------------------ */

/* A thread's allocation counters, in mapped memory so that other threads (the heap-growth
 * detector, the summary) can read them. Written by the owning thread only: relaxed load + store,
 * no locked instruction. The shared block (threads without one of their own) uses atomic adds. */
typedef struct lh_alloc_counts {
    _Atomic uint32_t state;       /* LH_ALLOC_FREE / LH_ALLOC_LIVE */
    _Atomic int32_t tid;
    _Atomic uint64_t calls;       /* allocations that returned a block (realloc included) */
    _Atomic uint64_t bytes;       /* their usable bytes (malloc_usable_size) */
    _Atomic uint64_t frees;       /* blocks freed (realloc's old block included) */
    _Atomic uint64_t freed_bytes; /* their usable bytes */
    uint64_t pad_[3];
} lh_alloc_counts;

enum { LH_ALLOC_FREE = 0, LH_ALLOC_LIVE = 1 };

/* The hot path's one global check: LoopHunter is ready and the alloc family is on (set once at
 * the end of start-up with release; read with acquire, a plain load on x86-64). */
extern _Atomic int lh_alloc_on LH_HIDDEN;

/* Maps the counters pool and creates the thread-exit key (start-up). Returns 0 or -errno. */
int lh_alloc_init(void) LH_HIDDEN;
/* Resolves the malloc family (every LH_ALLOC_HOOK row's lh_real_<name>) as one set: the allocator
 * the host would have used without LoopHunter. Idempotent; allocates nothing. */
void lh_alloc_resolve(void) LH_HIDDEN;
/* The end of start-up: counting starts when LoopHunter is ready (and the pool is mapped). */
void lh_alloc_start(bool ready) LH_HIDDEN;
void lh_alloc_reset_after_fork(void) LH_HIDDEN;
/* Copies the thread's allocation counts into its record as it ends (for the summary). */
void lh_alloc_record_exit(const lh_tls *t, lh_thread_rec *r) LH_HIDDEN;
/* The counters of live thread `tid` (calls, bytes, frees, freed bytes); false when it has none. */
bool lh_alloc_counts_of_thread(int tid, uint64_t out[4]) LH_HIDDEN;
/* The thread's counters now (its own, or zero when it has none). */
void lh_alloc_thread_counts(const lh_tls *t, uint64_t *calls, uint64_t *bytes, uint64_t *frees,
                            uint64_t *freed_bytes) LH_HIDDEN;
/* A layout epoch of the thread ended (`h`: its history entry, filled with its allocations) and a
 * new one begins: resets the per-iteration counts and limits, and runs the heap-growth detector on
 * a thread with a record. Guard held. */
void lh_alloc_epoch_end(lh_tls *t, lh_thread_rec *r, lh_hist *h) LH_HIDDEN;
/* The running epoch's allocations so far (a report's own history entry). */
void lh_alloc_epoch_so_far(const lh_tls *t, lh_hist *h) LH_HIDDEN;
/* Fills a report's memory section (guard held, breach path). `slot`: the report's object's slot,
 * or NULL. `top`: room for LH_ALLOC_TOP entries. Returns false when the alloc family is off. */
#define LH_ALLOC_TOP 8
bool lh_alloc_describe(const lh_tls *t, const lh_slot *slot, lh_report_alloc *out,
                       lh_report_allocator *top) LH_HIDDEN;
void lh_alloc_summary(lh_json *j) LH_HIDDEN;

/* Whether `pc` is in LoopHunter's own code (frames left out of every stack we report). */
static inline bool lh_is_own_code(uintptr_t pc) { return pc >= lh_proc.self_range.lo && pc < lh_proc.self_range.hi; }

/* ---- breach reports -------------------------------------------------------------------------- */

/* The caller's stack, innermost first, LoopHunter's own frames left out: at most `max` (<= 32)
 * return addresses, for a stack kept for later (where a window or a timer was made). Guard held. */
uint32_t lh_capture_stack(uintptr_t *out, uint32_t max) LH_HIDDEN;

typedef struct lh_breach {
    const char *kind;             /* "layout-storm" | "layout-streak" */
    unsigned hook;
    const void *object;
    uint64_t count, threshold;
    const char *count_unit;
    uint32_t last_iteration_layouts;
    uint64_t size_before, size_after;
    const lh_report_member *members;  /* the rest of the loop */
    size_t member_count;
    /* When set, the object's type as a text names it, instead of asking the hook's adapter (a
     * toolkit warning names an object in its text: it must not be dereferenced). */
    const char *named_type;
    const lh_report_warning *warning; /* toolkit-warning only */
    const char *fingerprint_text;     /* added to the fingerprint (a warning's format) */
    /* alloc-storm: the object being laid out is described by its slot's hook (not b->hook, which
     * is the allocation entry point); NULL: the object is b->object through b->hook. */
    const lh_slot *object_slot;
    uint64_t growth_iterations, growth_start_live; /* heap-growth only */
    const char *named_name;           /* with named_type: the object's name, or NULL */
    unsigned family;                  /* the report's family (LH_FAMILY_*); 0: the hook's */
    /* The stack, when it is not the caller's (a stall's sampled stack, a window's creation):
     * `given_stack` set, `pcs[0..pc_count)` innermost first. */
    bool given_stack;
    const uintptr_t *pcs;
    size_t pc_count;
    /* timer-outlives-target: where the timer was created (a second stack in the report). */
    const uintptr_t *created_pcs;
    size_t created_pc_count;
    /* The report is about another thread (a stall written by the watchdog or at exit): its record
     * names the thread; no history. NULL: the calling thread. */
    const lh_thread_rec *thread;
    const lh_report_stall *stall;     /* stall only */
    const lh_report_window *window;   /* slow-window only */
    const lh_report_timer *timer;     /* timer kinds only */
} lh_breach;

/* Captures the stack, throttles, writes the report. Called with the thread's guard held. */
void lh_breach_report(lh_tls *t, const lh_breach *b) LH_HIDDEN;
/* Makes the first stack capture (libunwind's set-up) happen now rather than inside a hook. */
void lh_breach_prime_unwinder(void) LH_HIDDEN;
/* At start-up, before LoopHunter is ready: notices a ThreadSanitizer runtime (see lh_unwind.h). */
void lh_breach_init(void) LH_HIDDEN;
void lh_breach_reset_after_fork(void) LH_HIDDEN;

/* ---- event-loop health: stalls (lh_stall.c) --------------------------------------------------- */

/* The loop thread began an iteration (a wait of its event loop returned) / goes back to wait.
 * Called with the guard held, on a thread with a record, when the stall family is on. */
void lh_stall_loop_busy(lh_thread_rec *r, unsigned hook, uint64_t now) LH_HIDDEN;
void lh_stall_loop_wait(lh_tls *t, lh_thread_rec *r, uint64_t now) LH_HIDDEN;
/* Starts the watchdog thread (once per process; lazily, when a loop thread is first busy). */
void lh_stall_start_watchdog(void) LH_HIDDEN;
/* At exit: stalls still going on other threads are reported as ongoing. */
void lh_stall_flush(lh_tls *t) LH_HIDDEN;
void lh_stall_reset_after_fork(void) LH_HIDDEN;
void lh_stall_summary(lh_json *j) LH_HIDDEN;

/* ---- event-loop health: windows (lh_window.c) -------------------------------------------------- */

/* A toplevel window was created (`mapped`: and is on screen now, toykit's roots). Guard held. */
void lh_window_created(const lh_toolkit *tk, unsigned hook, const void *object, const void *loop, bool mapped) LH_HIDDEN;
void lh_window_shown(const void *object) LH_HIDDEN;
/* A frame was painted: by GTK frame clock `clock`, or by toykit loop `loop`. Guard held. */
void lh_window_frame(lh_tls *t, const void *loop_or_clock) LH_HIDDEN;
/* A step on the way of the windows waiting for their first frame (a signal, a callback). */
void lh_window_step(const char *signal, const char *object_type, uintptr_t callback, uint64_t us) LH_HIDDEN;
void lh_window_forget(const void *object) LH_HIDDEN;
void lh_window_forget_loop(const void *loop) LH_HIDDEN;
bool lh_windows_waiting(void) LH_HIDDEN;   /* a shown window waits for its first frame */
bool lh_windows_unpainted(void) LH_HIDDEN; /* a window (shown or not) has no frame yet */
void lh_window_flush(lh_tls *t) LH_HIDDEN;
void lh_window_summary(lh_json *j) LH_HIDDEN;
void lh_window_reset_after_fork(void) LH_HIDDEN;

/* ---- event-loop health: timers (lh_timer.c) ------------------------------------------------------ */

/* Live timer records with user data: free() looks the block up only when this is non-zero. */
extern _Atomic uint64_t lh_timer_watched LH_HIDDEN;
int lh_timer_init(void) LH_HIDDEN;
void lh_timer_on_free(void *block) LH_HIDDEN;
/* A loop thread's iteration ended: the growth side of the timer-storm detector. Guard held. */
void lh_timer_iteration(lh_tls *t) LH_HIDDEN;
void lh_timer_summary(lh_json *j) LH_HIDDEN;
void lh_timer_reset_after_fork(void) LH_HIDDEN;

/* ---- sandboxes (lh_sandbox.c) ----------------------------------------------------------------- */

/* Room before a spooled record for its frame header (and one byte after it for a newline). */
#define LH_SPOOL_HEADER 64
extern _Atomic int lh_sandbox_state LH_HIDDEN;
/* The process has put itself in a seccomp sandbox: only reads, writes and the like from now on. */
static inline bool lh_sandboxed(void) {
    /* acquire: pairs with the release that publishes the spool descriptor. */
    return atomic_load_explicit(&lh_sandbox_state, memory_order_acquire) == 2;
}
/* Appends one record (a report or the summary) to the spool: `frame` holds LH_SPOOL_HEADER bytes
 * of room, then the `payload_len` bytes of JSON, then room for one byte. Returns 0 or -errno. */
int lh_spool_append(char *frame, size_t payload_len) LH_HIDDEN;
/* Copies `len` bytes at `address` if they are mapped (false otherwise), without faulting and
 * within the sandbox when there is one. */
bool lh_read_memory(void *out, const void *address, size_t len) LH_HIDDEN;
void lh_sandbox_summary(lh_json *j) LH_HIDDEN;

/* ---- summary --------------------------------------------------------------------------------- */

void lh_summary_write(void) LH_HIDDEN;

#endif
