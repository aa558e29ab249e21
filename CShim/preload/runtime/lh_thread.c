/*
 * lh_thread.c — per-thread state: thread records, epochs (event-loop iterations, or toolkit
 * frames on a frame-driven thread) and each thread's history of them. The detectors hear of every
 * record claimed or left and every epoch ended or begun through their table (lh_detectors.h).
 *
 * Runs inside loop-wait and layout hooks on any thread, possibly in a signal handler: no allocation
 * (thread records come from a pool mapped at start-up), no locks (records are claimed with
 * compare-and-swap), only the thread's own TLS and record are written on the common paths. Every
 * function here is called with the thread's guard held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lh_cause.h"
#include "lh_watch.h"
#include "lh_writer.h"
#include "lh_detectors.h"

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
    lh_add_relaxed(&lh_proc.recycled_threads, 1);
    lh_add_relaxed(&lh_proc.recycled_iterations, lh_load_relaxed(&r->iterations));
    uint64_t layout_calls = 0;
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++)
        if (lh_hook_counts_layouts(h)) layout_calls += lh_load_relaxed(&r->hook_calls[h]);
    lh_add_relaxed(&lh_proc.recycled_layout_calls, layout_calls);
}

static void clear_record(lh_thread_rec *r) {
    /* The record is ours (state LIVE via our CAS); nobody else writes it. */
    lh_store_relaxed(&r->iterations, 0);
    lh_store_relaxed(&r->frames, 0);
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++) lh_store_relaxed(&r->hook_calls[h], 0);
    r->history_next = 0;
    memset(r->history, 0, sizeof r->history);
}

static lh_thread_rec *claim(uint32_t from_state) {
    for (size_t i = 0; i < LH_THREAD_RECORDS; i++) {
        lh_thread_rec *r = &lh_proc.records[i];
        uint32_t expected = from_state;
        /* acquire: see the previous owner's final writes before reusing the record. */
        if (lh_load_relaxed(&r->state) == from_state && lh_cas_acquire(&r->state, &expected, LH_REC_LIVE)) {
            if (from_state == LH_REC_DONE) fold_recycled(r);
            /* relaxed max: the summary reads states (acquire) below this bound. */
            size_t high = lh_load_relaxed(&lh_proc.records_high);
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
    lh_tls *t = &lh_tls_data;
    if (r == NULL || t->rec != r) return; /* e.g. a stale value after fork */
    LH_GUARDED(t);
    read_thread_name(r->name);
    LH_EACH_DETECTOR(thread_exit, t, lh_record_index(r));
    t->rec = NULL;
    /* release: the summary writer (acquire) sees the final counters with the DONE state. */
    lh_store_release(&r->state, LH_REC_DONE);
}

int lh_thread_spawn(pthread_t *thread, size_t stack, void *(*main_fn)(void *), const char *name) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the new thread inherits the mask */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, stack);
    int err = pthread_create(thread, &attr, main_fn, NULL);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    /* A program that lists its threads right after sees ours named (no prctl inside a sandbox). */
    if (err == 0 && !lh_sandboxed()) pthread_setname_np(*thread, name);
    return err;
}

lh_thread_rec *lh_thread_record(lh_tls *t) {
    if (LH_LIKELY(t->rec != NULL)) return t->rec;
    if (t->record_failed || lh_proc.records == NULL) return NULL;
    lh_thread_rec *r = claim(LH_REC_FREE);
    if (r == NULL) r = claim(LH_REC_DONE);
    if (r == NULL) {
        t->record_failed = true;
        lh_add_relaxed(&lh_proc.records_exhausted, 1); /* stat */
        return NULL;
    }
    clear_record(r);
    /* A thread that lays out or runs a known event loop: this is a GUI process. */
    lh_prepare_for_breaches();
    lh_store_relaxed(&r->tid, lh_gettid());
    read_thread_name(r->name);
    t->rec = r;
    LH_EACH_DETECTOR(thread_start, t, lh_record_index(r));
    /* pthread_setspecific uses the thread descriptor's static key array for low keys: no malloc. */
    if (thread_exit_key_ok) pthread_setspecific(thread_exit_key, r);
    return r;
}

/* ---- epochs --------------------------------------------------------------------------------- */

/* The running epoch's own fields of a history entry (the detectors add theirs). */
static void fill_history(const lh_tls *t, lh_hist *h, uint64_t now, bool ended) {
    memset(h, 0, sizeof *h);
    uint64_t end = ended && t->busy_end_ns != 0 ? t->busy_end_ns : now;
    h->iteration = t->epoch_number;
    h->start_us = lh_us_since_start(t->epoch_start_ns);
    h->busy_us = end > t->epoch_start_ns ? (end - t->epoch_start_ns) / 1000 : 0;
    h->wait_ms = ended && t->busy_end_ns != 0 ? t->wait_ms : -2;
}

/* Ends the current epoch (into the history of record `r`, if given) and starts a new one, numbered
 * `number` (the iteration or the frame it is); `first`: the new one is the thread's first iteration
 * or frame. */
static void start_epoch(lh_tls *t, lh_thread_rec *r, uint64_t now, uint64_t number, bool first) {
    lh_hist *h = NULL;
    if (r != NULL && t->epoch != 0) {
        h = &r->history[r->history_next % LH_HISTORY_MAX];
        fill_history(t, h, now, true);
        r->history_next++;
    }
    LH_EACH_DETECTOR(epoch_end, t, h);
    /* relaxed: only uniqueness matters; each thread keeps its own epoch in TLS. */
    t->epoch = lh_add_relaxed(&lh_proc.epoch_next, 1) + 1;
    t->epoch_number = number;
    t->epoch_start_ns = now;
    t->busy_end_ns = 0;
    t->past_first_epoch = !first;
    LH_EACH_DETECTOR(epoch_begin, t);
}

uint64_t lh_thread_new_iteration(lh_tls *t, bool claim) {
    uint64_t now = lh_now_ns();
    lh_thread_rec *r = claim ? lh_thread_record(t) : t->rec;
    if (r != NULL) lh_owner_add(&r->iterations, 1);
    t->iteration++;
    lh_cause_boundary(); /* size reads of the last iteration explain no request of this one */
    lh_watch_iteration(t); /* nor do those seen by a watch */
    lh_writer_tick();      /* the report writer thread starts after the first report */
    /* On a frame-driven thread the frames are the epochs; an iteration only counts. */
    if (!t->frame_driven || t->epoch == 0) start_epoch(t, r, now, t->iteration, t->iteration < 2);
    return now;
}

void lh_thread_frame_begin(lh_tls *t) {
    uint64_t now = lh_now_ns();
    lh_thread_rec *r = lh_thread_record(t);
    bool first = !t->frame_driven;
    if (first) {
        /* From the first frame on, the history is in frames: the iterations before it (start-up)
         * are dropped rather than mixed into it under another unit. */
        if (r != NULL) r->history_next = 0;
        t->frame_driven = true;
    }
    t->frame++;
    lh_cause_boundary();
    /* The previous frame goes into the history (the last iteration before the first does not). */
    start_epoch(t, first ? NULL : r, now, t->frame, t->frame < 2);
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
    /* The running epoch, up to now. */
    fill_history(t, &out[n], lh_now_ns(), false);
    LH_EACH_DETECTOR(epoch_so_far, t, &out[n]);
    return n + 1;
}

int32_t lh_take_longest_wait(lh_tls *t) {
    int32_t w = t->longest_wait_ms;
    t->longest_wait_ms = 0;
    return w;
}

/* ---- start-up and fork ---------------------------------------------------------------------- */

static size_t records_bytes(void) {
    size_t page = 4096;
    return (sizeof(lh_thread_rec) * LH_THREAD_RECORDS + page - 1) & ~(page - 1);
}

int lh_thread_init(void) {
    void *mem = lh_map("thread records and iteration history", records_bytes());
    if (mem == NULL) return -errno;
    lh_proc.records = mem;
    thread_exit_key_ok = pthread_key_create(&thread_exit_key, thread_exit) == 0;
    return 0;
}

void lh_thread_new_session(void) {
    /* A new attach session in a running process: the threads live on with their records (their TLS
     * points at them), so live records keep their claim and start counting from zero; those of
     * threads that ended during an earlier session are free again. The owners are not counting now
     * (LoopHunter is not ready while this runs): a plain clear. */
    size_t high = lh_load_acquire(&lh_proc.records_high);
    for (size_t i = 0; i < high; i++) {
        lh_thread_rec *r = &lh_proc.records[i];
        uint32_t state = lh_load_acquire(&r->state);
        lh_store_relaxed(&r->iterations, 0);
        lh_store_relaxed(&r->frames, 0);
        for (size_t h = 0; h < LH_HOOK_COUNT; h++) lh_store_relaxed(&r->hook_calls[h], 0);
        r->history_next = 0;
        /* release: a later claim (acquire) sees the cleared counters. */
        if (state == LH_REC_DONE) lh_store_release(&r->state, LH_REC_FREE);
    }
}

void lh_thread_after_fork(void) {
    /* Only the forking thread exists in the child: every record is stale. MADV_DONTNEED on our
     * private anonymous mapping gives zero pages without touching (copying) them. */
    if (lh_proc.records != NULL) madvise(lh_proc.records, records_bytes(), MADV_DONTNEED);
    lh_store_relaxed(&lh_proc.records_high, 0);
    lh_tls *t = &lh_tls_data;
    uint32_t guard = t->guard;
    memset(t, 0, sizeof *t);
    t->guard = guard;
}
