/*
 * lh_runtime.h — the runtime layer: the process's and each thread's LoopHunter state, event-loop
 * iterations and frames, the guard, stack capture, the host's own functions, sandboxes, and the
 * events it sends to the detectors (through their table only, lh_detectors.h).
 *
 * Who may call whom (CShim/preload/README.md): interposition → everything; toolkits → runtime and
 * detectors' inputs; detectors → runtime, report; report → runtime, the detector table; runtime →
 * the detector table. No detector calls another; what one needs from another is a runtime event
 * or a runtime value.
 *
 * Everything here runs inside someone else's program: before main, in any thread, inside the
 * host's malloc or a signal handler. Its rules (each file repeats the ones it relies on):
 *   - no allocation through the host's malloc: state is static or mmap'd;
 *   - no lock the host could hold, and no lock of our own that anything waits on;
 *   - no stdio; the few diagnostics are raw write(2) to fd 2, one line each;
 *   - errno preserved across every hook; arguments and results forwarded untouched;
 *   - thread state in initial-exec TLS, guarded against re-entry: while LoopHunter does its own
 *     work (LH_GUARDED) every hook on that thread is a plain forward.
 */
#ifndef LH_RUNTIME_H
#define LH_RUNTIME_H

#include <errno.h>

#include "lh_config.h"
#include "lh_hooks.h"
#include "lh_json.h"
#include "lh_modules.h"
#include "lh_report.h"
#include "lh_table.h"

/* ---- the guard --------------------------------------------------------------------------------- */

typedef struct lh_tls lh_tls;

/* The scoped guard: while it lives, LoopHunter's own work runs on this thread (every hook is a
 * plain forward, nothing is counted) and the host's errno is given back at the end. LH_GUARDED(t)
 * opens one for the rest of the enclosing block, whatever way the block is left. */
typedef struct lh_scope {
    uint32_t *guard;
    int saved_errno;
} lh_scope;

static inline lh_scope lh_scope_begin(uint32_t *guard) {
    lh_scope s = {guard, errno};
    (*guard)++;
    return s;
}
static inline void lh_scope_end(lh_scope *s) {
    (*s->guard)--;
    errno = s->saved_errno;
}
#define LH_GUARDED(t) lh_scope lh_scope_ __attribute__((cleanup(lh_scope_end))) = lh_scope_begin(&(t)->guard)

/* The guard alone, for the hottest paths, around calls known to leave errno alone (a toolkit
 * adapter's getters): errno is a call into libc, which these paths do not pay. */
static inline uint32_t *lh_guard_begin(uint32_t *guard) {
    (*guard)++;
    return guard;
}
static inline void lh_guard_end(uint32_t **guard) { (**guard)--; }
#define LH_GUARD_ONLY(t) uint32_t *lh_guard_ __attribute__((cleanup(lh_guard_end))) = lh_guard_begin(&(t)->guard)

/* ---- threads ------------------------------------------------------------------------------------ */

#define LH_HISTORY_MAX 256
#define LH_THREAD_RECORDS 256

/* A thread's iterations, in mmap'd memory so the summary can read them after the thread is gone.
 * Counters are written by the owning thread only and read by the summary writer: relaxed loads
 * and lh_owner_add (no read-modify-write). What detectors keep per thread is in their own files,
 * indexed by lh_record_index. */
typedef struct lh_thread_rec {
    _Atomic uint32_t state;                     /* LH_REC_FREE / LIVE / DONE */
    _Atomic int32_t tid;
    char name[16];                              /* set at claim and at thread exit */
    _Atomic uint64_t iterations;
    _Atomic uint64_t frames;                    /* toolkit frames (GdkFrameClock before-paint) */
    _Atomic uint64_t hook_calls[LH_HOOK_COUNT]; /* per hook (layout calls: the sum over layout hooks) */
    uint32_t history_next;                      /* owner-only: ring index */
    lh_hist history[LH_HISTORY_MAX];            /* owner-only: read only by the owner's breaches */
} lh_thread_rec;

enum { LH_REC_FREE = 0, LH_REC_LIVE = 1, LH_REC_DONE = 2 };

/* The runtime's per-thread state (initial-exec TLS). Detectors keep theirs in TLS of their own. */
struct lh_tls {
    uint32_t guard;               /* > 0: LoopHunter's own work is running on this thread */
    uintptr_t stack_lo;           /* the low end of this thread's stack (breach path); 0 unknown, 1 unlimited */
    bool record_failed;           /* the record pool was full when this thread asked */
    bool frame_driven;            /* a toolkit frame clock drives this thread's epochs */
    bool past_first_epoch;        /* the current epoch is not the thread's first iteration or frame */
    uint64_t epoch;               /* process-unique id of the current epoch (iteration or frame); 0: none yet */
    uint64_t epoch_number;        /* the current epoch's iteration (or frame) number */
    uint64_t iteration;           /* event-loop iterations this thread began */
    uint64_t frame;               /* toolkit frames this thread began */
    uint64_t epoch_start_ns;
    uint64_t busy_end_ns;         /* when the loop went back to wait (0: still busy) */
    int32_t wait_ms;              /* timeout of the wait that ended the iteration */
    int32_t longest_wait_ms;      /* longest wait asked for since lh_take_longest_wait (0: none, INT32_MAX: forever) */
    uint32_t loop_runs;           /* GLib loop entry calls in progress on this thread (lh_loop_run_begins) */
    lh_slot *layout_owner;        /* the innermost object whose layout is running (allocations are charged to it) */
    lh_thread_rec *rec;
    /* The allocation detector's hot path (lh_alloc.c; owner-only), kept here so that a malloc reads
     * one thread block: its counters while the fast path applies (NULL: the slow path), and the
     * bytes it may still allocate before its storm limits are looked at (UINT64_MAX: not armed). */
    struct lh_alloc_counts *alloc_fast;
    uint64_t alloc_room;
};

extern __thread lh_tls lh_tls_data __attribute__((tls_model("initial-exec"))) LH_HIDDEN;

/* The layout in progress on this thread: the innermost object whose layout (or measure) is
 * running, as its table slot; NULL outside any layout. The layout wrappers set it around the call
 * when they counted the object (the interposed entry points, lh_hooks.c; GTK's patched vfuncs,
 * lh_gtk.c, where a chain-up keeps its outer call's) and restore the outer one as each returns.
 * Detectors read it to name the view that something happened in: the allocation detector charges
 * blocks to it, the warning detector names it when a toolkit warns during a layout. Owner-only: read
 * on the thread itself, while the object is alive (its layout is on the stack). */
static inline const lh_slot *lh_layout_in_progress(const lh_tls *t) { return t->layout_owner; }
/* The object and the layout hook of a slot (what lh_layout_in_progress gives). */
static inline const void *lh_slot_object(const lh_slot *s) { return lh_table_key_object(lh_load_relaxed(&s->key)); }
static inline unsigned lh_slot_hook(const lh_slot *s) { return lh_table_key_hook(lh_load_relaxed(&s->key)); }

/* Counts one call of hook `id` in the calling thread's record (when it has one yet). */
static inline void lh_count_hook_call(unsigned id) {
    lh_thread_rec *r = lh_tls_data.rec;
    if (r != NULL) lh_owner_add(&r->hook_calls[id], 1);
}

/* The thread's record, claimed on first use (a thread that lays out or runs a known event loop:
 * the process is a GUI program, which also resolves the originals and primes the unwinder); NULL
 * when the pool is exhausted. Guard held. */
lh_thread_rec *lh_thread_record(lh_tls *t) LH_HIDDEN;
/* Starts a thread of LoopHunter's (the stall watchdog, the report writer): joinable, `stack` bytes
 * of stack, created with every signal blocked (the host's signals never land on it), named `name`
 * before this returns. Returns 0 or pthread_create's error. */
int lh_thread_spawn(pthread_t *thread, size_t stack, void *(*main_fn)(void *), const char *name) LH_HIDDEN;
/* Ends the current iteration (into the history) and starts a new one. `claim`: take a thread
 * record if the thread has none. On a frame-driven thread this counts the iteration but leaves the
 * epoch to the frames. Returns the time it began. Guard held. */
uint64_t lh_thread_new_iteration(lh_tls *t, bool claim) LH_HIDDEN;
/* A toolkit frame begins (GdkFrameClock "before-paint"): from now on frames, not event-loop
 * iterations, are this thread's epochs and history entries. Guard held. */
void lh_thread_frame_begin(lh_tls *t) LH_HIDDEN;
/* The frame has been painted ("after-paint"): its busy time ends. */
void lh_thread_frame_end(lh_tls *t) LH_HIDDEN;
/* The last `max` history entries, oldest first, including the running epoch. Guard held. */
size_t lh_thread_history(lh_tls *t, lh_hist *out, size_t max) LH_HIDDEN;
/* The longest wait asked for since the last call (0: none, INT32_MAX: forever), and resets. */
int32_t lh_take_longest_wait(lh_tls *t) LH_HIDDEN;
int32_t lh_gettid(void) LH_HIDDEN;
/* Maps the record pool and creates the thread-exit key (start-up; 0 or -errno); forgets every
 * record in the child of a fork. */
int lh_thread_init(void) LH_HIDDEN;
void lh_thread_after_fork(void) LH_HIDDEN;
/* A new session of `loophunter attach` in a process attached before: records start from zero. */
void lh_thread_new_session(void) LH_HIDDEN;

/* A record's index in the pool: where detectors keep their per-thread state. */
static inline size_t lh_record_index(const lh_thread_rec *r);

/* ---- the process -------------------------------------------------------------------------------- */

/* DETACHED: loaded into a running process by `loophunter attach` and not attached now (before the
 * first session, or after one ended): every hook forwards, nothing initialises lazily. */
enum { LH_STATE_UNINIT = 0, LH_STATE_INITIALIZING = 1, LH_STATE_READY = 2, LH_STATE_OFF = 3, LH_STATE_DETACHED = 4 };

#define LH_MAX_LOOP_RANGES 16
#define LH_REQUEST_TOOLKITS 4
#define LH_MAX_CONFIG_MESSAGES 16

typedef struct lh_process {
    lh_config cfg;
    lh_table table;               /* the (object, hook) table: layout counts, allocations per object */
    int pid, ppid;
    uint64_t run_tag;             /* random per process: names and ids never collide */
    uint64_t start_ns, start_wall_ns;
    char exe[1024];
    bool dir_ok;
    char dir_problem[256];

    /* Iteration boundaries: executable ranges of the event-loop libraries (lh_loop.c). */
    lh_range loop_ranges[LH_MAX_LOOP_RANGES];
    _Atomic size_t loop_range_count;       /* release/acquire: publishes loop_ranges */
    _Atomic uint64_t loop_scan_generation; /* lh_modules_generation() at the last scan (relaxed) */
    _Atomic int loop_rescanning;           /* try-flag: one rescan at a time, nobody waits */
    lh_range self_range;                   /* libloophunter.so's code: frames skipped in reports */

    _Atomic uint64_t epoch_next;           /* relaxed counter: unique epoch ids */
    _Atomic uint64_t heap_live_bytes;      /* the live heap at the last epoch's end (lh_alloc.c publishes it; relaxed) */
    /* Step watchers: detectors that want callbacks and signal emissions timed (lh_watch_steps). */
    _Atomic int step_watchers;

    lh_thread_rec *records;                /* mmap'd pool of LH_THREAD_RECORDS */
    _Atomic size_t records_high;           /* records [0, records_high) were ever claimed */
    _Atomic uint64_t records_exhausted;
    _Atomic uint64_t recycled_threads, recycled_iterations, recycled_layout_calls;

    /* Toolkits whose layout requests are being recorded with their causes (the relayout detector
     * judges their loops; the streak detector stands back for them). Set once, at the toolkit's
     * first request seen (release/acquire: a plain pointer value, nothing else is published). */
    _Atomic(const lh_toolkit *) request_toolkits[LH_REQUEST_TOOLKITS];

    char messages[LH_MAX_CONFIG_MESSAGES][LH_CONFIG_MESSAGE_LEN];
    size_t message_count;

    /* `loophunter attach` (interpose/lh_attach.c): this session was attached to a running process;
     * `attach_iteration`, set by the attach layer while attached, runs at every loop iteration
     * boundary (it rescans new modules and ends a session whose time is up). Written before the
     * ready state is published (release), cleared before a session ends. */
    bool attached;
    /* True while a later attach session forgets the last one (the detectors' after_fork then runs
     * with the other threads alive, not in a fork child). */
    bool new_session;
    void (*_Atomic attach_iteration)(uint64_t now);
    /* A toolkit's glue whose work follows its loop's iterations (Qt: the frames of its widgets, and
     * the classes of objects made since): runs at every iteration boundary of a loop thread, after
     * the new iteration began, guard held. Set once, when the toolkit is found (release). */
    void (*_Atomic toolkit_iteration)(lh_tls *t, uint64_t now);
    /* What the session's GOT patching did (relaxed counters, read by the summary): modules whose
     * entries were redirected, entries redirected, entries left as they were (bound elsewhere: an
     * older symbol version, another namespace) and entries whose page could not be made writable. */
    _Atomic uint64_t got_modules, got_redirected, got_left, got_unwritable;
    uint64_t attach_deadline_ns; /* CLOCK_MONOTONIC: the session ends itself then (0: never) */
    /* The process of `loophunter attach` that began the session (0: not checked, e.g. the target
     * is in a seccomp sandbox): once it is gone the session ends at the next iteration boundary. */
    int attach_owner_pid;
    uint64_t attach_began_ns;    /* CLOCK_MONOTONIC when the hooks were in */
    /* ns from attach_began_ns to the first event-loop iteration boundary after it (0: none yet).
     * relaxed: set once by the first loop thread (CAS from 0), read by the summary. */
    _Atomic uint64_t attach_first_iteration_ns;
    /* Why the session ended (lh_attach_end), written by the one thread that ends it, before the
     * summary it goes into. */
    int attach_ended_by;
} lh_process;

/* Why a `loophunter attach` session ended (the summary's attach.ended_by). */
enum lh_attach_end {
    LH_ATTACH_END_NONE,     /* still running (or the program exited while attached) */
    LH_ATTACH_END_COMMAND,  /* loophunter_detach: the command's watch is over */
    LH_ATTACH_END_DEADLINE, /* the deadline in the control file passed */
    LH_ATTACH_END_OWNER,    /* the command's process is gone (killed) */
    LH_ATTACH_END_REPLACED, /* a new attach found the session of a command that is gone */
    LH_ATTACH_END_FAILED,   /* the hooks could not be installed */
};

extern lh_process lh_proc LH_HIDDEN;
extern _Atomic int lh_state LH_HIDDEN;

static inline size_t lh_record_index(const lh_thread_rec *r) { return (size_t)(r - lh_proc.records); }

bool lh_init_slow(void) LH_HIDDEN;
/* `loophunter attach`: whether this library was loaded into a process already running (dlopen'd
 * after libc), not preloaded; then the constructor leaves it DETACHED until a session begins. */
bool lh_loaded_late(void) LH_HIDDEN;
/* A session of `loophunter attach` begins with the configuration `env` (LOOPHUNTER_* entries, NULL
 * ended): 0, or -1 when LoopHunter is not DETACHED (preloaded, or a session runs), -2 when it
 * could not start (the messages say why). Ends with lh_session_end: counting stops, the summary is
 * written ("detached"), the detectors stop their threads; the state is DETACHED again. */
int lh_session_begin(char **env) LH_HIDDEN;
void lh_session_end(void) LH_HIDDEN;
/* Resolves every original and primes the unwinder, once per process (see lh_state.c). */
void lh_prepare_for_breaches(void) LH_HIDDEN;
/* Keeps a start-up message (a bad variable...) for the summary and prints it on stderr. */
void lh_say(const char *a, const char *b, const char *c) LH_HIDDEN;

/* True when LoopHunter is initialised, enabled, and one of `families` is switched on. Initialises
 * lazily (hooks can run before our constructor). */
static inline bool lh_active(unsigned families) {
    /* acquire: pairs with the release that publishes the initialised lh_proc. */
    int s = lh_load_acquire(&lh_state);
    if (LH_UNLIKELY(s != LH_STATE_READY)) {
        if (s != LH_STATE_UNINIT || !lh_init_slow()) return false;
    }
    return (lh_proc.cfg.families & families) != 0;
}

/* Whether `tk`'s layout requests are recorded (see lh_process.request_toolkits). */
static inline bool lh_requests_recorded(const lh_toolkit *tk) {
    for (size_t i = 0; i < LH_REQUEST_TOOLKITS; i++) {
        const lh_toolkit *r = lh_load_relaxed(&lh_proc.request_toolkits[i]);
        if (r == tk) return tk != NULL;
        if (r == NULL) return false;
    }
    return false;
}
/* Marks `tk`'s requests as recorded from now on (any thread; a race claims a slot twice for the
 * same toolkit, which only wastes it). */
static inline void lh_note_requests_recorded(const lh_toolkit *tk) {
    for (size_t i = 0; i < LH_REQUEST_TOOLKITS; i++) {
        const lh_toolkit *r = lh_load_relaxed(&lh_proc.request_toolkits[i]);
        if (r == tk) return;
        /* relaxed: the value is a constant adapter's address. */
        if (r == NULL && lh_cas_relaxed(&lh_proc.request_toolkits[i], &r, tk)) return;
        if (r == tk) return;
    }
}

/* Whether the family is switched on (LoopHunter ready). */
static inline bool lh_family_on(unsigned family) { return (lh_proc.cfg.families & family) != 0; }

/* Whether `pc` is in LoopHunter's own code (frames left out of every stack we report). */
static inline bool lh_is_own_code(uintptr_t pc) { return pc >= lh_proc.self_range.lo && pc < lh_proc.self_range.hi; }

/* Nanoseconds since LoopHunter started in the process, in µs (0 for a time before). */
static inline uint64_t lh_us_since_start(uint64_t ns) { return ns > lh_proc.start_ns ? (ns - lh_proc.start_ns) / 1000 : 0; }

/* ---- the event loop (lh_loop.c) ------------------------------------------------------------------- */

static inline int32_t lh_wait_from_ms(int ms) { return ms < 0 ? -1 : ms; }
int32_t lh_wait_from_timespec(const struct timespec *ts) LH_HIDDEN;
int32_t lh_wait_from_timeval(const struct timeval *tv) LH_HIDDEN;
/* A wait of a loop-wait hook begins / returned; `caller`: the wrapper's return address. */
void lh_loop_enter(unsigned hook, const void *caller, int32_t wait_ms) LH_HIDDEN;
void lh_loop_return(unsigned hook, const void *caller) LH_HIDDEN;
/* A call of an event-loop library's run entry point (GLib's g_main_context_iteration and
 * g_main_loop_run, from outside GLib) begins / returned (`token`: what the first returned; the
 * arguments after it are the row's and are not read). When the outermost one returns the thread
 * has left its event loop: the detectors hear loop_left. Guard held. */
uintptr_t lh_loop_run_begins(unsigned hook, ...) LH_HIDDEN;
void lh_loop_run_ends(unsigned hook, uintptr_t token, ...) LH_HIDDEN;
/* (Re)reads the loop libraries' address ranges. */
void lh_loop_scan_libraries(void) LH_HIDDEN;
/* Finds the interposers of the loop waits loaded ahead of LoopHunter (start-up). */
void lh_loop_find_interposers(void) LH_HIDDEN;

/* ---- what detectors ask the runtime to watch ------------------------------------------------------ */

/* Watched blocks: free() tells the detectors (their block_freed) about a block that some detector
 * watches (the timer detector: a live source's data). The allocation detector watches the blocks of
 * its start-up pool too, for good, so that free() finds them without a test of its own. A counting
 * filter of the watched addresses, one 16-bit counter per hash (fewer than 65536 blocks are watched
 * at a time: no counter overflows), in the preload's zero-filled data, and their total: a free()
 * costs one load while nothing is watched, one hash and one load more when something is, and no
 * call for a block nobody watches. Relaxed: the filter only says "maybe"; the detector's own
 * records (acquire on their state) say for sure. A block watched twice is counted twice. */
#define LH_WATCH_SLOTS 65536
extern _Atomic uint16_t lh_watched_blocks[LH_WATCH_SLOTS] LH_HIDDEN;
extern _Atomic uint64_t lh_watched_total LH_HIDDEN; /* blocks watched now: 0 in a program without timers */
static inline size_t lh_watch_slot(const void *block) {
    return (size_t)(((uintptr_t)block >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 48);
}
static inline void lh_watch_block(const void *block) {
    lh_add_relaxed(&lh_watched_blocks[lh_watch_slot(block)], 1);
    lh_add_relaxed(&lh_watched_total, 1);
}
static inline void lh_unwatch_block(const void *block) {
    lh_sub_relaxed(&lh_watched_total, 1);
    lh_sub_relaxed(&lh_watched_blocks[lh_watch_slot(block)], 1);
}
/* One load while nothing is watched; else one hash and one load more. */
static inline bool lh_block_maybe_watched(const void *block) {
    return lh_load_relaxed(&lh_watched_total) != 0 && lh_load_relaxed(&lh_watched_blocks[lh_watch_slot(block)]) != 0;
}
/* Toolkits time their callbacks and signal emissions (and send the step event) while above 0. */
static inline void lh_watch_steps(int delta) { lh_add_relaxed(&lh_proc.step_watchers, delta); }
static inline bool lh_steps_watched(void) { return lh_load_relaxed(&lh_proc.step_watchers) > 0; }

/* ---- stacks (lh_capture.c) ------------------------------------------------------------------------ */

/* The caller's stack, innermost first, LoopHunter's own frames left out: at most `max` (<= 32)
 * return addresses, for a stack kept for later (where a window or a timer was made). Guard held. */
uint32_t lh_capture_stack(uintptr_t *out, uint32_t max) LH_HIDDEN;
/* Opens libunwind (once; see lh_unwind.h). False when it cannot be loaded: one stderr line says so
 * and every capture gives 0 frames. Guard held; never inside malloc or a signal handler. */
bool lh_unwinder_load(void) LH_HIDDEN;
/* Makes the first stack capture (libunwind's set-up) happen now rather than inside a hook. */
void lh_prime_unwinder(void) LH_HIDDEN;
/* At start-up, before LoopHunter is ready: notices a ThreadSanitizer runtime (see lh_unwind.h). */
void lh_unwinder_init(void) LH_HIDDEN;

/* ---- LoopHunter's own memory (lh_memory.c) -------------------------------------------------------- */

/* Maps `bytes` of zero-filled private memory (only touched pages become resident) and notes it
 * under `what` (static text) for the summary. NULL: not mapped. Any thread; no lock, no malloc. */
void *lh_map(const char *what, size_t bytes) LH_HIDDEN;
/* Notes a mapping made elsewhere (the table's, made by lh_table_init). */
void lh_memory_init(void) LH_HIDDEN; /* start-up: notes the preload's own data and bss */
void lh_note_mapping(const char *what, const void *mem, size_t bytes) LH_HIDDEN;
struct lh_json;
/* The summary's `memory`: each noted mapping and the preload's data and bss, mapped and resident. */
void lh_memory_json(struct lh_json *j) LH_HIDDEN;

/* ---- the host's own functions (lh_host.c) --------------------------------------------------------- */

/* The host's own definition of function (or variable) `name`: GLib's, GTK's, toykit's..., in
 * whichever module defines it first, loaded at start-up or later, globally or with RTLD_LOCAL;
 * never LoopHunter's. For calling the toolkit (lh_symbols.h; allocates nothing). NULL: none. */
void *lh_host_function(const char *name) LH_HIDDEN;
/* Fork (lh_loader_lock.c): the parent's preparation (finds the loader's module-list lock once),
 * and the child's question: did it inherit that lock held by a thread it does not have? */
void lh_loader_lock_before_fork(void) LH_HIDDEN;
bool lh_loader_lock_held_in_child(void) LH_HIDDEN;
void *lh_host_data(const char *name) LH_HIDDEN;
/* Whether the TSan runtime is in the process (looked up once). */
bool lh_host_has_tsan(void) LH_HIDDEN;

/* ---- pools mapped on first use (lh_state.c) -------------------------------------------------------- */

/* Memory mapped the first time it is asked for (MAP_NORESERVE: pages never touched cost nothing),
 * by the first thread that asks; a thread that asks while another maps it, or after the mapping
 * failed, gets NULL and goes without. Zero-initialized: unmapped. */
typedef struct lh_lazy_map {
    const char *what;  /* its name in the summary's `memory` (static text, set where it is defined) */
    _Atomic int state; /* 0 unmapped, 1 mapping, 2 mapped, 3 failed */
    void *mem;         /* written once, before state becomes 2 (release) */
} lh_lazy_map;

/* Maps it now, unless someone maps or mapped it (NULL then, unless mapped). */
void *lh_lazy_map_now(lh_lazy_map *m, size_t bytes) LH_HIDDEN;
/* The memory if it is mapped already (never maps); NULL otherwise. */
static inline void *lh_lazy_map_peek(lh_lazy_map *m) {
    /* acquire: pairs with the release in lh_lazy_map_now (`mem` is written). */
    return LH_LIKELY(lh_load_acquire(&m->state) == 2) ? m->mem : NULL;
}
/* The memory, mapped now of `bytes` if this is the first use; NULL: not mapped. */
static inline void *lh_lazy_map_get(lh_lazy_map *m, size_t bytes) {
    void *mem = lh_lazy_map_peek(m);
    return LH_LIKELY(mem != NULL) ? mem : lh_lazy_map_now(m, bytes);
}

/* ---- sandboxes (lh_sandbox.c) --------------------------------------------------------------------- */

/* Room before a spooled record for its frame header (and one byte after it for a newline). */
#define LH_SPOOL_HEADER 64
extern _Atomic int lh_sandbox_state LH_HIDDEN;
/* The process has put itself in a seccomp sandbox: only reads, writes and the like from now on. */
static inline bool lh_sandboxed(void) {
    /* acquire: pairs with the release that publishes the spool descriptor. */
    return lh_load_acquire(&lh_sandbox_state) == 2;
}
/* Appends one record (a report or the summary) to the spool: `frame` holds LH_SPOOL_HEADER bytes
 * of room, then the `payload_len` bytes of JSON, then room for one byte. Returns 0 or -errno. */
int lh_spool_append(char *frame, size_t payload_len) LH_HIDDEN;
/* Copies `len` bytes at `address` if they are mapped (false otherwise), without faulting and
 * within the sandbox when there is one. */
bool lh_read_memory(void *out, const void *address, size_t len) LH_HIDDEN;
void lh_sandbox_summary(lh_json *j) LH_HIDDEN;

#endif
