/*
 * lh_timer.c — timer sources (family "timer"): GLib timeouts and idles made through the public API,
 * toykit timers and idles, POSIX timers with a thread callback; `timer-storm` (live sources
 * growing iteration after iteration, or one repeating source firing again and again while its
 * loop never sleeps: an idle or a 0 ms timeout that keeps the loop spinning) and
 * `timer-outlives-target` (a live source's user data passed to free()).
 *
 * Fires are counted per source (its record), never per callback: many one-shot sources sharing a
 * callback (GLib's GTask completions, a burst of row updates) are separate sources that each fire
 * once, not a storm. A source's run is its fires with no sleeping wait of its thread's event loop
 * in between (a wait asking for a timeout other than 0: the loop could have slept; or more than
 * 1 ms spent outside the loop, in a loop of the program's own); it breaks when the loop could
 * sleep, or when the source ends.
 *
 * Its inputs (lh_timer.h) come from the toolkits' adapters, which know how their sources work:
 * GLib's (toolkits/lh_glib.c: a trampoline of ours wraps the callback and its data) and toykit's
 * (toolkits/lh_toolkit_toykit.c); and from POSIX timers, here: timer_create with SIGEV_THREAD,
 * armed by timer_settime, ended by timer_delete; timerfd_settime is only counted.
 *
 * Runs in hooks on any thread (guard held while we work): records come from a pool mapped at
 * start-up, claimed with compare-and-swap; each live record's data is a watched block (the
 * runtime's counting filter, lh_watch_block: free() skips at once a block that is nobody's, and
 * tells the detector about the others); no lock, no allocation through the host's malloc, errno
 * kept.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <time.h>

#include "lh_breach.h"
#include "lh_timer.h"


static lh_timer_rec *recs;                      /* mmap'd pool of LH_TIMERS */
static _Atomic size_t recs_high;                /* records [0, high) were claimed at some point */
static _Atomic uint64_t live, created, destroyed, fires_total, untracked, timerfd_sets, timer_sets, outlived;
static _Atomic uint32_t last_created;           /* index of the most recent creation */

/* The storm detectors' state (the thread that first checked owns it: one GUI loop). */
static _Atomic int32_t growth_tid;
static uint64_t growth_last, growth_start, growth_run;
static bool growth_reported;

/* The waits of this thread's event loop that could sleep (asked for a timeout other than 0, or
 * came after more than LH_OUTSIDE_SLEEP_NS outside the loop), counted in loop_busy; and when the
 * thread last left its loop (0: it did not since its last wait). Owner-only (initial-exec TLS). */
static __thread uint64_t sleeping_waits __attribute__((tls_model("initial-exec")));
static __thread uint64_t left_loop_ns __attribute__((tls_model("initial-exec")));
/* Time outside its event loop that counts as a sleep: a GApplication leaves g_main_context_iteration
 * and calls it again at once (microseconds); a loop of the program's own that iterates GLib's
 * without blocking waits in its own code between (milliseconds at least). */
#define LH_OUTSIDE_SLEEP_NS 1000000u

static int init(void) {
    if (recs != NULL) return 0; /* a later attach session: mapped by the first */
    size_t bytes = sizeof(lh_timer_rec) * LH_TIMERS;
    void *mem = lh_map("timer records", bytes);
    if (mem == NULL) return -errno;
    recs = mem;
    return 0;
}


/* Runs the statement that follows for each live record `rec_` whose data is `want_` (the rare
 * path: the filter said maybe). */
#define FOR_EACH_RECORD_OF(want_, rec_)                                                              \
    for (size_t i_ = 0, n_ = lh_load_acquire(&recs_high); i_ < n_; i_++)  \
        for (lh_timer_rec *rec_ = &recs[i_]; rec_ != NULL; rec_ = NULL)                             \
            if (rec_->data == (want_) && lh_load_acquire(&rec_->state) == T_LIVE)

/* ---- records ----------------------------------------------------------------------------------- */

lh_timer_rec *lh_timer_track(unsigned hook, uintptr_t func, uintptr_t data, void (*notify)(void *), int64_t interval_ms,
                           const void *owner, unsigned id) {
    if (recs == NULL) return NULL;
    static _Atomic uint32_t next;
    uint32_t start = lh_add_relaxed(&next, 1);
    for (uint32_t n = 0; n < LH_TIMERS; n++) {
        uint32_t i = (start + n) % LH_TIMERS;
        uint32_t expected = T_FREE;
        /* acquire: the previous user's writes are done (it released with T_FREE). */
        if (lh_load_relaxed(&recs[i].state) != T_FREE ||
            !lh_cas_acquire(&recs[i].state, &expected, T_ENDING))
            continue;
        lh_timer_rec *r = &recs[i];
        r->hook = hook, r->func = func, r->data = data, r->notify = notify, r->interval_ms = interval_ms;
        r->created_ns = lh_now_ns();
        lh_store_relaxed(&r->fires, 0);
        r->owner = owner, r->id = id, r->armed = hook != LH_HOOK_timer_create;
        r->dispatching = r->freed_in_dispatch = r->reported = r->spin_reported = false;
        r->spin_run = 0;
        r->spin_tid = 0;
        r->spin_sleeps = 0;
        r->pc_count = lh_capture_stack(r->pcs, LH_TIMER_PCS);
        /* release: the record is complete before it is LIVE (free() and lookups read it). */
        lh_store_release(&r->state, T_LIVE);
        size_t high = lh_load_relaxed(&recs_high);
        /* release: a scan below the bound sees the record's fields. */
        while (high < i + 1 && !atomic_compare_exchange_weak_explicit(&recs_high, &high, i + 1, memory_order_release,
                                                                      memory_order_relaxed)) {
        }
        if (data != 0) {
            lh_watch_block((const void *)data);
        }
        /* relaxed: statistics and the storm detectors' inputs. */
        lh_add_relaxed(&live, 1);
        lh_add_relaxed(&created, 1);
        lh_store_relaxed(&last_created, i);
        return r;
    }
    lh_add_relaxed(&untracked, 1); /* stat */
    return NULL;
}

bool lh_timer_untrack(lh_timer_rec *r) {
    uint32_t expected = T_LIVE;
    /* acq_rel: exactly one ender; its reads of the record happen before the next user's writes. */
    if (!lh_cas_acq_rel(&r->state, &expected, T_ENDING))
        return false;
    if (r->data != 0) {
        lh_unwatch_block((const void *)r->data);
    }
    lh_sub_relaxed(&live, 1);
    lh_add_relaxed(&destroyed, 1);
    return true;
}

void lh_timer_release(lh_timer_rec *r) {
    /* release: our last reads are done before a new claimer writes. */
    lh_store_release(&r->state, T_FREE);
}

/* ---- reports ----------------------------------------------------------------------------------- */

static void report(lh_tls *t, lh_timer_rec *r, lh_kind kind, const char *reason, uint64_t count,
                   uint64_t threshold, const char *unit, uint64_t storm_a, uint64_t storm_b, bool freed_stack) {
    lh_report_timer timer = {
        .source = lh_hooks[r->hook].name,
        .callback = r->func,
        .data = r->data,
        .interval_ms = r->interval_ms,
        .created_us = lh_us_since_start(r->created_ns),
        .fires = lh_load_relaxed(&r->fires),
        .live_sources = lh_load_relaxed(&live),
        .storm_reason = reason,
        .storm_iterations = storm_a,
        .storm_start_live = storm_b,
        .storm_fires = storm_a,
        .freed_during_dispatch = r->freed_in_dispatch,
    };
    lh_breach b = {
        .kind = kind,
        .family = LH_FAMILY_TIMER,
        .hook = r->hook,
        .object = (const void *)r->data,
        .count = count,
        .threshold = threshold,
        .count_unit = unit,
        .named_type = "(timer source)",
        .timer = &timer,
    };
    if (freed_stack) { /* the stack is ours (where the data was freed); the creation is second */
        b.created_pcs = r->pcs;
        b.created_pc_count = r->pc_count;
    } else {
        b.given_stack = true;
        b.pcs = r->pcs;
        b.pc_count = r->pc_count;
    }
    lh_breach_report(t, &b);
}

static void report_outlived(lh_tls *t, lh_timer_rec *r) {
    if (r->reported) return;
    r->reported = true;
    lh_add_relaxed(&outlived, 1); /* stat */
    report(t, r, LH_KIND_TIMER_OUTLIVES_TARGET, NULL, lh_load_relaxed(&r->fires), 0,
           "fires before the target was freed", 0, 0, true);
}

/* free(): is this block a live timer's data (the runtime calls when the watched-block filter says maybe)? */
static void block_freed(void *block) {
    uintptr_t data = (uintptr_t)block;
    /* free() asked the filter already: a live source's data, or another block of the same hash. */
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0) return;
    LH_GUARDED(t);
    FOR_EACH_RECORD_OF(data, r) {
        if (!r->armed) continue;
        if (r->dispatching) {
            r->freed_in_dispatch = true; /* judged when the callback returns */
        } else {
            report_outlived(t, r);
        }
    }
}

void lh_timer_fire(lh_tls *t, lh_timer_rec *r) {
    r->dispatching = true;
    lh_add_relaxed(&r->fires, 1);
    lh_add_relaxed(&fires_total, 1); /* stat */
    if (t->epoch == 0 || t->rec == NULL) return; /* a thread without a loop: no waits to judge by */
    /* The run goes on while the same thread fires it again without having waited to sleep. */
    int32_t tid = lh_load_relaxed(&t->rec->tid);
    if (r->spin_run > 0 && r->spin_tid == tid && r->spin_sleeps == sleeping_waits) {
        r->spin_run++;
    } else {
        r->spin_run = 1;
        r->spin_tid = tid;
    }
    r->spin_sleeps = sleeping_waits;
    if (r->spin_run > lh_proc.cfg.timer_fires && !r->spin_reported) {
        r->spin_reported = true;
        report(t, r, LH_KIND_TIMER_STORM, "fires", r->spin_run, lh_proc.cfg.timer_fires,
               "fires of one source in a row, its loop never sleeping", r->spin_run, 0, false);
    }
}

void lh_timer_dispatched(lh_tls *t, lh_timer_rec *r, bool keep_running) {
    r->dispatching = false;
    if (r->freed_in_dispatch && keep_running) report_outlived(t, r);
}

/* A loop thread woke up: whether its wait could have slept (a fires run breaks there), and the
 * growth side of the timer-storm detector (the first loop thread owns it). */
static void loop_busy(lh_tls *t, unsigned hook, uint64_t now) {
    (void)hook;
    if (recs == NULL || t->rec == NULL) return;
    if (t->wait_ms != 0 || (left_loop_ns != 0 && now - left_loop_ns > LH_OUTSIDE_SLEEP_NS)) sleeping_waits++;
    left_loop_ns = 0;
    int32_t tid = lh_load_relaxed(&growth_tid), me = lh_load_relaxed(&t->rec->tid);
    if (tid == 0) {
        /* relaxed: the first loop thread to get here owns the growth detector. */
        if (!lh_cas_relaxed(&growth_tid, &tid, me) && tid != me)
            return;
    } else if (tid != me) {
        return;
    }
    uint64_t now_live = lh_load_relaxed(&live);
    if (growth_run == 0 || now_live < growth_last) {
        growth_start = now_live;
        growth_run = now_live < growth_last || growth_run == 0 ? 1 : growth_run;
        growth_reported = false;
    } else {
        growth_run++;
    }
    growth_last = now_live;
    uint64_t added = now_live - growth_start;
    if (!growth_reported && growth_run >= lh_proc.cfg.timer_iterations && added >= lh_proc.cfg.timer_live) {
        growth_reported = true;
        lh_timer_rec *r = &recs[lh_load_relaxed(&last_created)];
        if (lh_load_acquire(&r->state) == T_LIVE)
            report(t, r, LH_KIND_TIMER_STORM, "growth", added, lh_proc.cfg.timer_live, "timer sources added in a growth run",
                   growth_run, growth_start, false);
    }
}

/* The thread left its event loop: if it stays out long enough, it may have slept (loop_busy). */
static void loop_left(lh_tls *t, uint64_t now) {
    (void)t;
    left_loop_ns = now;
}

static void after_fork(void) {
    /* The child inherits the parent's GLib sources (and our records, still right for them). */
    lh_store_relaxed(&growth_tid, 0);
    growth_run = 0;
}

static void summary(lh_json *j) {
    if ((lh_proc.cfg.families & LH_FAMILY_TIMER) == 0) {
        lh_json_null(j, "timers");
        return;
    }
    lh_json_begin_object(j, "timers");
    lh_json_u64(j, "created", lh_load_relaxed(&created));
    lh_json_u64(j, "destroyed", lh_load_relaxed(&destroyed));
    lh_json_u64(j, "live", lh_load_relaxed(&live));
    lh_json_u64(j, "fires", lh_load_relaxed(&fires_total));
    lh_json_u64(j, "untracked", lh_load_relaxed(&untracked));
    lh_json_u64(j, "timerfd_settime", lh_load_relaxed(&timerfd_sets));
    lh_json_u64(j, "timer_settime", lh_load_relaxed(&timer_sets));
    lh_json_u64(j, "outlived", lh_load_relaxed(&outlived));
    lh_json_end_object(j);
}


bool lh_timer_ready(void) { return lh_active(LH_FAMILY_TIMER) && recs != NULL; }

lh_timer_rec *lh_timer_find(bool (*match)(const lh_timer_rec *r, const void *key), const void *key) {
    size_t high = recs != NULL ? lh_load_acquire(&recs_high) : 0; /* acquire: records below it are complete */
    for (size_t i = 0; i < high; i++)
        if (lh_load_acquire(&recs[i].state) == T_LIVE && match(&recs[i], key)) return &recs[i];
    return NULL;
}

lh_timer_rec *lh_timer_find_data(const void *data, bool (*match)(const lh_timer_rec *r, const void *key),
                                 const void *key) {
    if (recs == NULL || data == NULL || !lh_block_maybe_watched(data)) return NULL;
    FOR_EACH_RECORD_OF((uintptr_t)data, r) {
        if (match(r, key)) return r;
    }
    return NULL;
}

void lh_timer_end_all(bool (*match)(const lh_timer_rec *r, const void *key), const void *key) {
    size_t high = recs != NULL ? lh_load_acquire(&recs_high) : 0;
    for (size_t i = 0; i < high; i++) {
        lh_timer_rec *r = &recs[i];
        if (lh_load_acquire(&r->state) != T_LIVE || !match(r, key)) continue;
        if (lh_timer_untrack(r) && !r->dispatching) lh_timer_release(r);
    }
}

bool lh_timer_live(const lh_timer_rec *r) { return lh_load_acquire(&r->state) == T_LIVE; }

/* ---- POSIX timers (rows timer_create, timer_settime, timer_delete, timerfd_settime) ------------- */

static bool is_posix_timer(const lh_timer_rec *r, const void *timer) {
    return r->hook == LH_HOOK_timer_create && r->owner == timer;
}

void lh_timer_posix_created(unsigned hook, int result, clockid_t clock, struct sigevent *event, timer_t *timer) {
    (void)clock;
    if (result != 0 || event == NULL || event->sigev_notify != SIGEV_THREAD || recs == NULL) return;
    lh_timer_track(hook, (uintptr_t)event->sigev_notify_function, (uintptr_t)event->sigev_value.sival_ptr, NULL, 0,
                   *timer, 0);
}

void lh_timer_posix_armed(unsigned hook, int result, timer_t timer, int flags, const struct itimerspec *value,
                          struct itimerspec *old) {
    (void)hook;
    (void)flags;
    (void)old;
    if (result != 0 || value == NULL) return;
    lh_add_relaxed(&timer_sets, 1); /* stat */
    lh_timer_rec *r = lh_timer_find(is_posix_timer, timer);
    if (r != NULL) {
        r->armed = value->it_value.tv_sec != 0 || value->it_value.tv_nsec != 0;
        if (r->armed) r->interval_ms = (int64_t)value->it_interval.tv_sec * 1000 + value->it_interval.tv_nsec / 1000000;
    }
}

void lh_timer_posix_deleted(unsigned hook, timer_t timer) {
    (void)hook;
    lh_timer_rec *r = lh_timer_find(is_posix_timer, timer);
    if (r != NULL && lh_timer_untrack(r)) lh_timer_release(r);
}

void lh_timer_timerfd_armed(unsigned hook, int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
    (void)hook, (void)fd, (void)flags, (void)value, (void)old;
    lh_add_relaxed(&timerfd_sets, 1); /* stat */
}

const lh_detector lh_detector_timer = {
    .name = "timer",
    .init = init,
    .after_fork = after_fork,
    .loop_busy = loop_busy,
    .loop_left = loop_left,
    .block_freed = block_freed,
    .summary = summary,
};
