/*
 * lh_thread.c — per-thread state and event-loop iterations.
 *
 * Runs inside poll()-family and layout hooks on any thread, possibly in a signal handler: no
 * allocation (thread records come from a pool mapped at start-up), no locks (records are claimed
 * with compare-and-swap), only the thread's own TLS and record are written on the common paths.
 *
 * An iteration of a thread's event loop begins when a poll()-family call made from inside an
 * event-loop library returns (the caller's address is checked against the libraries' code ranges,
 * cached at start-up), or when the program calls loophunter_iteration_mark(). Calls of poll() from
 * anywhere else (libxcb, D-Bus, GIO helpers) are in the middle of an iteration and change nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lh_io.h"
#include "lh_preload.h"
#include "lh_symbols.h"
#include "lh_unwind.h"

__thread lh_tls lh_tls_data __attribute__((tls_model("initial-exec")));

static pthread_key_t thread_exit_key;
static bool thread_exit_key_ok;

int32_t lh_gettid(void) { return (int32_t)gettid(); }

/* The calling thread's name (kept as it is inside a sandbox, which forbids prctl). */
static void read_thread_name(char name[16]) {
    if (lh_sandboxed()) return;
    memset(name, 0, 16);
    prctl(PR_GET_NAME, name, 0, 0, 0);
}

/* ---- records -------------------------------------------------------------------------------- */

/* Folds a finished thread's numbers into the recycled totals before its record is reused. */
static void fold_recycled(lh_thread_rec *r) {
    /* relaxed: statistics only. */
    atomic_fetch_add_explicit(&lh_proc.recycled_threads, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&lh_proc.recycled_iterations,
                              atomic_load_explicit(&r->iterations, memory_order_relaxed),
                              memory_order_relaxed);
    uint64_t layout_calls = 0;
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++)
        if (lh_hook_counts_layouts(h))
            layout_calls += atomic_load_explicit(&r->hook_calls[h], memory_order_relaxed);
    atomic_fetch_add_explicit(&lh_proc.recycled_layout_calls, layout_calls, memory_order_relaxed);
}

static void clear_record(lh_thread_rec *r) {
    /* The record is ours (state LIVE via our CAS); nobody else writes it. */
    atomic_store_explicit(&r->iterations, 0, memory_order_relaxed);
    atomic_store_explicit(&r->frames, 0, memory_order_relaxed);
    r->vfunc_depth = 0;
    atomic_store_explicit(&r->layout_iterations, 0, memory_order_relaxed);
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++)
        atomic_store_explicit(&r->hook_calls[h], 0, memory_order_relaxed);
    atomic_store_explicit(&r->max_count, 0, memory_order_relaxed);
    atomic_store_explicit(&r->max_hook, 0, memory_order_relaxed);
    atomic_store_explicit(&r->max_object, 0, memory_order_relaxed);
    atomic_store_explicit(&r->max_type, NULL, memory_order_relaxed);
    atomic_store_explicit(&r->max_iteration, 0, memory_order_relaxed);
    r->history_next = 0;
    r->members_next = 0;
    memset(&r->stall, 0, sizeof r->stall); /* nobody samples a record that is not LIVE */
    memset(r->members, 0, sizeof r->members);
    memset(r->history, 0, sizeof r->history);
    r->growth_run = r->growth_start_live = r->growth_last_live = 0;
    r->growth_has_last = r->growth_reported = false;
    atomic_store_explicit(&r->alloc_at_exit.valid, 0, memory_order_relaxed);
    atomic_store_explicit(&r->alloc_at_exit.calls, 0, memory_order_relaxed);
    atomic_store_explicit(&r->alloc_at_exit.bytes, 0, memory_order_relaxed);
    atomic_store_explicit(&r->alloc_at_exit.frees, 0, memory_order_relaxed);
    atomic_store_explicit(&r->alloc_at_exit.freed_bytes, 0, memory_order_relaxed);
}

static lh_thread_rec *claim(uint32_t from_state) {
    for (size_t i = 0; i < LH_THREAD_RECORDS; i++) {
        lh_thread_rec *r = &lh_proc.records[i];
        uint32_t expected = from_state;
        /* acquire: see the previous owner's final writes before reusing the record. */
        if (atomic_load_explicit(&r->state, memory_order_relaxed) == from_state &&
            atomic_compare_exchange_strong_explicit(&r->state, &expected, LH_REC_LIVE,
                                                    memory_order_acquire, memory_order_relaxed)) {
            if (from_state == LH_REC_DONE) fold_recycled(r);
            /* relaxed max: the summary reads states (acquire) below this bound. */
            size_t high = atomic_load_explicit(&lh_proc.records_high, memory_order_relaxed);
            while (high < i + 1 &&
                   !atomic_compare_exchange_weak_explicit(&lh_proc.records_high, &high, i + 1,
                                                          memory_order_relaxed, memory_order_relaxed)) {
            }
            return r;
        }
    }
    return NULL;
}

/* pthread key destructor: the thread is exiting. */
static void thread_exit(void *arg) {
    lh_thread_rec *r = arg;
    if (r == NULL || lh_tls_data.rec != r) return; /* e.g. a stale value after fork */
    read_thread_name(r->name);
    lh_alloc_record_exit(&lh_tls_data, r);
    /* release: the watchdog no longer sees this thread busy (it is gone, mid-iteration or not). */
    atomic_store_explicit(&r->stall.busy_since_ns, 0, memory_order_release);
    lh_tls_data.rec = NULL;
    /* release: the summary writer (acquire) sees the final counters with the DONE state. */
    atomic_store_explicit(&r->state, LH_REC_DONE, memory_order_release);
}

lh_thread_rec *lh_thread_record(lh_tls *t) {
    if (LH_LIKELY(t->rec != NULL)) return t->rec;
    if (t->record_failed || lh_proc.records == NULL) return NULL;
    lh_thread_rec *r = claim(LH_REC_FREE);
    if (r == NULL) r = claim(LH_REC_DONE);
    if (r == NULL) {
        t->record_failed = true;
        atomic_fetch_add_explicit(&lh_proc.records_exhausted, 1, memory_order_relaxed); /* stat */
        return NULL;
    }
    clear_record(r);
    /* A thread that lays out or runs a known event loop: this is a GUI process. */
    lh_prepare_for_breaches();
    atomic_store_explicit(&r->tid, lh_gettid(), memory_order_relaxed);
    read_thread_name(r->name);
    t->rec = r;
    /* pthread_setspecific uses the thread descriptor's static key array for low keys: no malloc. */
    if (thread_exit_key_ok) pthread_setspecific(thread_exit_key, r);
    return r;
}

/* ---- iterations ----------------------------------------------------------------------------- */

static lh_hist *push_history(lh_tls *t, lh_thread_rec *r, uint64_t now) {
    lh_hist *h = &r->history[r->history_next % LH_HISTORY_MAX];
    uint64_t end = t->busy_end_ns != 0 ? t->busy_end_ns : now;
    h->iteration = t->epoch_number;
    h->layout_iter = t->layout_epoch == t->epoch ? t->layout_iter : 0;
    h->start_us = (t->iter_start_ns - lh_proc.start_ns) / 1000;
    h->busy_us = end > t->iter_start_ns ? (end - t->iter_start_ns) / 1000 : 0;
    h->layout_calls = t->iter_layout_calls;
    h->wait_ms = t->busy_end_ns != 0 ? t->wait_ms : -2;
    r->history_next++;
    return h;
}

/* Ends the current layout epoch (into the history) and starts a new one, numbered `number` (the
 * iteration or the frame it is). */
static void start_epoch(lh_tls *t, lh_thread_rec *r, uint64_t now, uint64_t number) {
    lh_hist *h = r != NULL && t->epoch != 0 ? push_history(t, r, now) : NULL;
    /* relaxed: only uniqueness matters; each thread keeps its own epoch in TLS. */
    t->epoch = atomic_fetch_add_explicit(&lh_proc.epoch_next, 1, memory_order_relaxed) + 1;
    t->epoch_number = number;
    t->iter_start_ns = now;
    t->busy_end_ns = 0;
    t->iter_layout_calls = 0;
    lh_alloc_epoch_end(t, r, h); /* the ended epoch's allocations into h; may report heap-growth */
}

uint64_t lh_thread_new_iteration(lh_tls *t, bool claim) {
    uint64_t now = lh_now_ns();
    lh_thread_rec *r = claim ? lh_thread_record(t) : t->rec;
    if (r != NULL) lh_owner_add(&r->iterations, 1);
    t->iteration++;
    /* On a frame-driven thread the frames are the layout epochs; an iteration only counts. */
    if (!t->frame_driven || t->epoch == 0) {
        t->past_first_epoch = t->iteration >= 2;
        start_epoch(t, r, now, t->iteration);
    }
    return now;
}

void lh_thread_frame_begin(lh_tls *t) {
    uint64_t now = lh_now_ns();
    lh_thread_rec *r = lh_thread_record(t);
    if (!t->frame_driven) {
        /* From the first frame on, the history is in frames: the iterations before it (start-up)
         * are dropped rather than mixed into it under another unit. */
        if (r != NULL) r->history_next = 0;
        t->epoch = 0;
        t->frame_driven = true;
    }
    t->frame++;
    t->past_first_epoch = t->frame >= 2;
    start_epoch(t, r, now, t->frame); /* the previous frame goes into the history under its own number */
    if (r != NULL) lh_owner_add(&r->frames, 1);
}

void lh_thread_frame_end(lh_tls *t) { t->busy_end_ns = lh_now_ns(); }

size_t lh_thread_history(lh_tls *t, lh_hist *out, size_t max) {
    lh_thread_rec *r = t->rec;
    if (r == NULL || max == 0) return 0;
    size_t past = r->history_next < LH_HISTORY_MAX ? r->history_next : LH_HISTORY_MAX;
    if (past > max - 1) past = max - 1;
    size_t n = 0;
    for (size_t i = past; i > 0; i--) out[n++] = r->history[(r->history_next - i) % LH_HISTORY_MAX];
    /* The running iteration, up to now. */
    uint64_t now = lh_now_ns();
    out[n].iteration = t->epoch_number;
    out[n].layout_iter = t->layout_epoch == t->epoch ? t->layout_iter : 0;
    out[n].start_us = (t->iter_start_ns - lh_proc.start_ns) / 1000;
    out[n].busy_us = (now - t->iter_start_ns) / 1000;
    out[n].layout_calls = t->iter_layout_calls;
    out[n].wait_ms = -2;
    lh_alloc_epoch_so_far(t, &out[n]);
    return n + 1;
}

/* ---- loop waits ----------------------------------------------------------------------------- */

int32_t lh_wait_from_timespec(const struct timespec *ts) {
    if (ts == NULL) return -1;
    int64_t ms = (int64_t)ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
    return ms > INT32_MAX ? INT32_MAX : (int32_t)(ms < 0 ? 0 : ms);
}

int32_t lh_wait_from_timeval(const struct timeval *tv) {
    if (tv == NULL) return -1;
    int64_t ms = (int64_t)tv->tv_sec * 1000 + tv->tv_usec / 1000;
    return ms > INT32_MAX ? INT32_MAX : (int32_t)(ms < 0 ? 0 : ms);
}

void lh_loop_scan_libraries(void) {
    size_t n = lh_modules_ranges_named((const char(*)[64])lh_proc.cfg.loop_lib,
                                       lh_proc.cfg.loop_lib_count, lh_proc.loop_ranges,
                                       LH_MAX_LOOP_RANGES);
    /* release: a reader that sees the count sees the ranges written before it. */
    atomic_store_explicit(&lh_proc.loop_range_count, n, memory_order_release);
}

static bool in_loop_ranges(uintptr_t a, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a >= lh_proc.loop_ranges[i].lo && a < lh_proc.loop_ranges[i].hi) return true;
    return false;
}

/* Interposers of the loop waits that the host reaches before LoopHunter: a preload ahead of ours
 * (libfaketime wraps poll, select and epoll_wait) or the program's own wrapper. The event loop
 * calls theirs, theirs calls ours: our caller is theirs, not the loop library's. Their code, found
 * at start-up (the preload order is fixed then). */
#define LH_MAX_INTERPOSERS 4
static lh_range interposers[LH_MAX_INTERPOSERS];
static size_t interposer_count; /* written once at start-up, before LoopHunter is ready */

void lh_loop_find_interposers(void) {
    interposer_count = 0;
    for (unsigned id = 0; id < LH_HOOK_COUNT; id++) {
        lh_symbol_hit hit;
        if (lh_hooks[id].family != LH_FAMILY_LOOP ||
            !lh_symbol_first(lh_hooks[id].name, (const void *)lh_loop_find_interposers, &hit) || !hit.before_self)
            continue;
        lh_range r;
        if (!lh_modules_range_of(hit.address, &r) || lh_ranges_contain(interposers, interposer_count, (uintptr_t)hit.address))
            continue;
        if (interposer_count < LH_MAX_INTERPOSERS) interposers[interposer_count++] = r;
    }
}

/* The wait's real caller when `caller` is an interposer's code: the first frame of the stack that
 * is neither LoopHunter's nor an interposer's (a short unwind; only in processes with such an
 * interposer, and only for its waits). Guard held. */
static uintptr_t caller_behind_interposers(uintptr_t caller) {
    if (LH_LIKELY(interposer_count == 0) || !lh_ranges_contain(interposers, interposer_count, caller)) return caller;
    void *pcs[12];
    int n = lh_unwind(pcs, (int)LH_ARRAY_COUNT(pcs));
    for (int i = 0; i < n; i++) {
        uintptr_t pc = (uintptr_t)pcs[i];
        if (!lh_is_own_code(pc) && !lh_ranges_contain(interposers, interposer_count, pc)) return pc;
    }
    return caller;
}

/* Is `caller` inside an event-loop library? With none loaded, every wait counts (a program with
 * an unknown loop still gets iterations). A wait from outside the known libraries looks whether a
 * module was loaded (or unloaded) since the last scan (one dl_iterate_phdr call that stops at the
 * first module), and rescans then: a loop library loaded late (Python's GLib, a dlopened toolkit)
 * is known from its first wait on. *known* tells which case it was. */
static bool is_loop_caller(const void *caller, bool *known) {
    /* acquire: pairs with the release in lh_loop_scan_libraries. */
    size_t n = atomic_load_explicit(&lh_proc.loop_range_count, memory_order_acquire);
    uintptr_t a = caller_behind_interposers((uintptr_t)caller);
    if (LH_LIKELY(n > 0 && in_loop_ranges(a, n))) {
        *known = true;
        return true;
    }
    uint64_t generation = lh_modules_generation();
    int busy = 0;
    if (generation != atomic_load_explicit(&lh_proc.loop_scan_generation, memory_order_relaxed) &&
        atomic_compare_exchange_strong_explicit(&lh_proc.loop_rescanning, &busy, 1, memory_order_acquire,
                                                memory_order_relaxed)) {
        atomic_store_explicit(&lh_proc.loop_scan_generation, generation, memory_order_relaxed);
        lh_loop_scan_libraries();
        /* release: ends our exclusive rescan. */
        atomic_store_explicit(&lh_proc.loop_rescanning, 0, memory_order_release);
        n = atomic_load_explicit(&lh_proc.loop_range_count, memory_order_acquire);
        if (n > 0 && in_loop_ranges(a, n)) {
            *known = true;
            return true;
        }
    }
    *known = n > 0;
    return n == 0;
}

void lh_loop_enter(unsigned hook, const void *caller, int32_t wait_ms) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_LOOP)) return;
    t->guard++;
    /* Only threads that already have a record (GUI threads) count waits: a worker thread that
     * polls a socket does not take a record for it. */
    lh_count_hook_call(hook);
    bool known;
    if (is_loop_caller(caller, &known)) {
        uint64_t now = lh_now_ns();
        if (!t->frame_driven) t->busy_end_ns = now; /* a frame's busy time ends at after-paint */
        if (t->rec != NULL && (lh_proc.cfg.families & LH_FAMILY_STALL)) lh_stall_loop_wait(t, t->rec, now);
        t->wait_ms = wait_ms;
        int32_t w = wait_ms < 0 ? INT32_MAX : wait_ms;
        if (w > t->wait_since_layout_ms) t->wait_since_layout_ms = w;
    }
    t->guard--;
}

void lh_loop_return(unsigned hook, const void *caller) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_LOOP)) return;
    t->guard++;
    /* A wait of a known event-loop library makes this a GUI thread (it gets a record: history,
     * summary line). With no loop library known every wait counts as an iteration, but only a
     * thread that also lays something out gets a record: a curl or ssh started under the preload
     * leaves no trace. */
    bool known;
    if (is_loop_caller(caller, &known)) {
        uint64_t now = lh_thread_new_iteration(t, known);
        if (t->rec != NULL && (lh_proc.cfg.families & LH_FAMILY_STALL)) lh_stall_loop_busy(t->rec, hook, now);
        if (t->rec != NULL && (lh_proc.cfg.families & LH_FAMILY_TIMER)) lh_timer_iteration(t);
    }
    t->guard--;
}

/* ---- start-up and fork ---------------------------------------------------------------------- */

size_t lh_thread_records_bytes(void) {
    size_t page = 4096;
    return (sizeof(lh_thread_rec) * LH_THREAD_RECORDS + page - 1) & ~(page - 1);
}

int lh_thread_init(void) {
    void *mem = mmap(NULL, lh_thread_records_bytes(), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) return -errno;
    lh_proc.records = mem;
    thread_exit_key_ok = pthread_key_create(&thread_exit_key, thread_exit) == 0;
    return 0;
}

void lh_thread_reset_after_fork(void) {
    /* Only the forking thread exists in the child: every record is stale. MADV_DONTNEED on our
     * private anonymous mapping gives zero pages without touching (copying) them. */
    if (lh_proc.records != NULL)
        madvise(lh_proc.records, lh_thread_records_bytes(), MADV_DONTNEED);
    atomic_store_explicit(&lh_proc.records_high, 0, memory_order_relaxed);
    lh_tls *t = &lh_tls_data;
    uint32_t guard = t->guard;
    memset(t, 0, sizeof *t);
    t->guard = guard;
}
