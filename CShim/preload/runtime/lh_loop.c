/*
 * lh_loop.c — event-loop iterations: which waits are an event loop's, and what their returns start.
 *
 * An iteration of a thread's event loop begins when a wait (poll and the rows of lh_hooks.def's
 * loop family) made from inside an event-loop library returns (the caller's address is checked
 * against the libraries' code ranges, cached at start-up and rescanned when modules come and go),
 * or when the program calls loophunter_iteration_mark(). Waits from anywhere else (libxcb, D-Bus,
 * GIO helpers) are in the middle of an iteration and change nothing. The detectors hear of a loop
 * thread going back to wait and waking up (loop_wait, loop_busy), and of it leaving its loop
 * (loop_left): the outermost call of GLib's g_main_context_iteration or g_main_loop_run made from
 * outside GLib returned, so the thread is not in an iteration of that loop any more (a pool worker
 * that iterated a private context and now sleeps on a condition variable; a program whose own loop
 * waits in its own library and iterates GLib's now and then).
 *
 * Runs inside the wait hooks on any thread: no allocation, no lock (a rescan is one thread's at a
 * time through a try-flag; the others use the ranges they see), guard held while we work, errno
 * kept by the caller.
 */
#define _GNU_SOURCE
#include "lh_breach.h"
#include "lh_detectors.h"
#include "lh_symbols.h"
#include "lh_unwind.h"

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
    size_t n = lh_modules_ranges_named((const char(*)[64])lh_proc.cfg.loop_lib, lh_proc.cfg.loop_lib_count,
                                       lh_proc.loop_ranges, LH_MAX_LOOP_RANGES);
    /* release: a reader that sees the count sees the ranges written before it. */
    lh_store_release(&lh_proc.loop_range_count, n);
}

static bool in_loop_ranges(uintptr_t a, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a >= lh_proc.loop_ranges[i].lo && a < lh_proc.loop_ranges[i].hi) return true;
    return false;
}

/* Interposers of the loop waits that the host reaches before LoopHunter: a preload ahead of ours
 * (libfaketime wraps poll, select and epoll_wait) or the program's own wrapper. The event loop
 * calls theirs, theirs calls ours: our caller is theirs, not the loop library's. Their code, found
 * at start-up (the preload order is fixed then). A first definition that is the very one we
 * forward to is no interposer: under `loophunter attach` every module comes before LoopHunter,
 * and the first poll is libc's, the first g_main_context_iteration GLib's (taking GLib for an
 * interposer made every GLib wait look called from the program, and no iteration counted). */
#define LH_MAX_INTERPOSERS 4
static lh_range interposers[LH_MAX_INTERPOSERS];
static size_t interposer_count; /* written once at start-up, before LoopHunter is ready */

/* A loop wait's first definition in load order, when it is not the one we forward to (`find`). */
static void note_interposer(unsigned id, const lh_symbol_hit *find, const lh_symbol_hit *first, void *ctx) {
    (void)id;
    (void)ctx;
    if (first->address == NULL || !first->before_self || first->address == find->address) return;
    lh_range r;
    if (!lh_modules_range_of(first->address, &r) || lh_ranges_contain(interposers, interposer_count, (uintptr_t)first->address))
        return;
    if (interposer_count < LH_MAX_INTERPOSERS) interposers[interposer_count++] = r;
}

void lh_loop_find_interposers(void) {
    interposer_count = 0;
    lh_hooks_find_family(LH_FAMILY_LOOP, (const void *)lh_loop_find_interposers, note_interposer, NULL);
}

/* The wait's real caller when `caller` is an interposer's code: the first frame of the stack that
 * is neither LoopHunter's nor an interposer's (a short unwind; only in processes with such an
 * interposer, and only for its waits). */
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
    size_t n = lh_load_acquire(&lh_proc.loop_range_count);
    uintptr_t a = caller_behind_interposers((uintptr_t)caller);
    if (LH_LIKELY(n > 0 && in_loop_ranges(a, n))) {
        *known = true;
        return true;
    }
    uint64_t generation = lh_modules_generation();
    int busy = 0;
    /* acquire: the previous rescanner's ranges are complete before ours start. */
    if (generation != lh_load_relaxed(&lh_proc.loop_scan_generation) && lh_cas_acquire(&lh_proc.loop_rescanning, &busy, 1)) {
        lh_store_relaxed(&lh_proc.loop_scan_generation, generation);
        lh_loop_scan_libraries();
        /* release: ends our exclusive rescan. */
        lh_store_release(&lh_proc.loop_rescanning, 0);
        n = lh_load_acquire(&lh_proc.loop_range_count);
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
    LH_GUARDED(t);
    /* Only threads that already have a record (GUI threads) count waits: a worker thread that
     * polls a socket does not take a record for it. */
    lh_count_hook_call(hook);
    bool known;
    if (!is_loop_caller(caller, &known)) return;
    uint64_t now = lh_now_ns();
    if (!t->frame_driven) t->busy_end_ns = now; /* a frame's busy time ends at after-paint */
    if (t->rec != NULL) LH_EACH_DETECTOR(loop_wait, t, now);
    t->wait_ms = wait_ms;
    int32_t w = wait_ms < 0 ? INT32_MAX : wait_ms;
    if (w > t->longest_wait_ms) t->longest_wait_ms = w;
}

void lh_loop_return(unsigned hook, const void *caller) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_LOOP)) return;
    LH_GUARDED(t);
    /* A wait of a known event-loop library makes this a GUI thread (it gets a record: history,
     * summary line). With no loop library known every wait counts as an iteration, but only a
     * thread that also lays something out gets a record: a curl or ssh started under the preload
     * leaves no trace. */
    bool known;
    if (!is_loop_caller(caller, &known)) return;
    uint64_t now = lh_thread_new_iteration(t, known);
    if (t->rec != NULL) LH_EACH_DETECTOR(loop_busy, t, hook, now);
    /* acquire: pairs with the release that set it (the toolkit's glue is initialised). */
    void (*toolkit_iteration)(lh_tls *, uint64_t) = lh_load_acquire(&lh_proc.toolkit_iteration);
    if (toolkit_iteration != NULL) toolkit_iteration(t, now);
    /* An iteration boundary of a loop thread, outside the loop library's lock (it waits without
     * it): the summary is refreshed here when due (lh_summary.c). */
    lh_summary_tick(now);
    /* `loophunter attach`: new modules, and the session's deadline (interpose/lh_attach.c); last,
     * since the session may end in it. */
    /* acquire: pairs with loophunter_attach's release (the session's start time and owner). */
    void (*attach_iteration)(uint64_t) = lh_load_acquire(&lh_proc.attach_iteration);
    if (LH_UNLIKELY(attach_iteration != NULL)) attach_iteration(now);
}

uintptr_t lh_loop_run_begins(unsigned hook, ...) {
    (void)hook;
    lh_tls *t = &lh_tls_data;
    t->loop_runs++;
    return 1; /* counted: the end takes it back */
}

void lh_loop_run_ends(unsigned hook, uintptr_t token, ...) {
    (void)hook;
    lh_tls *t = &lh_tls_data;
    if (token == 0 || t->loop_runs == 0) return;
    if (--t->loop_runs > 0 || t->rec == NULL) return;
    LH_EACH_DETECTOR(loop_left, t, lh_now_ns());
}
