/*
 * lh_timer.c — timer sources (family "timer"): GLib timeouts and idles made through the public API,
 * toykit timers and idles, POSIX timers with a thread callback; `timer-storm` (live sources
 * growing iteration after iteration, or one callback firing too often in one iteration) and
 * `timer-outlives-target` (a live source's user data passed to free()).
 *
 * GLib: the callback and its data are wrapped (a trampoline of ours with a record as data, and a
 * destroy notify of ours that calls the program's). GLib calls the notify however the source
 * ends (removed, returned FALSE, destroyed, its context freed), so a record lives exactly as long
 * as its source. The GLib calls that look sources up by their data are translated (the program
 * passes its own pointer; GLib holds our record). toykit: its exported tk_source_dispatch and
 * tk_loop_remove_source/tk_loop_free say when a source fires and ends. POSIX: timer_create with
 * SIGEV_THREAD, armed by timer_settime, ended by timer_delete; timerfd_settime is only counted.
 *
 * Runs in hooks on any thread (guard held while we work): records come from a pool mapped at
 * start-up, claimed with compare-and-swap; a counting filter of the live data pointers (one 16-bit
 * counter per hash) lets free() skip at once a block that is no timer's data; no lock, no
 * allocation through the host's malloc, errno kept. free() pays one relaxed load of
 * `lh_timer_watched` (how many live records have data) while no timer is live.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <time.h>

#include "lh_preload.h"

#define LH_TIMERS 4096
#define LH_TIMER_FILTER 65536 /* counters of the data filter (16-bit hash) */
#define LH_TIMER_PCS 24
#define LH_FIRE_SLOTS 256

enum { T_FREE = 0, T_LIVE = 1, T_ENDING = 2 };

typedef struct lh_timer_rec {
    _Atomic uint32_t state;      /* T_*: CAS FREE→LIVE by the creator; LIVE→ENDING by whoever ends it */
    unsigned hook;               /* the API it came from */
    uintptr_t func, data;        /* the program's callback and user data */
    void (*notify)(void *);      /* GLib: the program's destroy notify, or NULL */
    int64_t interval_ms;         /* -1: an idle */
    uint64_t created_ns;
    _Atomic uint64_t fires;
    const void *owner;           /* toykit: the TkLoop; POSIX: the timer_t */
    unsigned id;                 /* toykit: the source id */
    bool armed;                  /* POSIX: timer_settime gave it a time */
    bool dispatching;            /* its callback is running (the dispatching thread's) */
    bool freed_in_dispatch;      /* its data was freed by its own callback */
    bool reported;               /* a timer-outlives-target report was written for it */
    uint32_t pc_count;
    uintptr_t pcs[LH_TIMER_PCS]; /* where it was created */
} lh_timer_rec;

static lh_timer_rec *recs;                      /* mmap'd pool of LH_TIMERS */
static _Atomic size_t recs_high;                /* records [0, high) were claimed at some point */
static _Atomic uint16_t *filter;                /* live records per hash of their data pointer */
_Atomic uint64_t lh_timer_watched;              /* live records with data: free() checks when > 0 */
static _Atomic uint64_t live, created, destroyed, fires_total, untracked, timerfd_sets, timer_sets, outlived;
static _Atomic uint32_t last_created;           /* index of the most recent creation */

/* The storm detectors' state (the thread that first checked owns it: one GUI loop). */
static _Atomic int32_t growth_tid;
static uint64_t growth_last, growth_start, growth_run;
static bool growth_reported;
static struct {
    _Atomic uintptr_t func;
    uint64_t epoch, count;
    bool reported;
} fire_counts[LH_FIRE_SLOTS];

int lh_timer_init(void) {
    size_t bytes = sizeof(lh_timer_rec) * LH_TIMERS + sizeof(uint16_t) * LH_TIMER_FILTER;
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) return -errno;
    recs = mem;
    filter = (_Atomic uint16_t *)((char *)mem + sizeof(lh_timer_rec) * LH_TIMERS);
    return 0;
}

static uint64_t us_since_start(uint64_t ns) { return ns > lh_proc.start_ns ? (ns - lh_proc.start_ns) / 1000 : 0; }

/* ---- the data filter: is this pointer possibly some live source's data? -------------------- */

static size_t filter_slot(uintptr_t data) { return (size_t)((data >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 48); }

/* relaxed: the filter only says "maybe"; the record (acquire on its state) says for sure. */
static void filter_add(uintptr_t data) { atomic_fetch_add_explicit(&filter[filter_slot(data)], 1, memory_order_relaxed); }
static void filter_remove(uintptr_t data) { atomic_fetch_sub_explicit(&filter[filter_slot(data)], 1, memory_order_relaxed); }

/* Runs the statement that follows for each live record `rec_` whose data is `want_` (the rare
 * path: the filter said maybe). */
#define FOR_EACH_RECORD_OF(want_, rec_)                                                              \
    for (size_t i_ = 0, n_ = atomic_load_explicit(&recs_high, memory_order_acquire); i_ < n_; i_++)  \
        for (lh_timer_rec *rec_ = &recs[i_]; rec_ != NULL; rec_ = NULL)                             \
            if (rec_->data == (want_) && atomic_load_explicit(&rec_->state, memory_order_acquire) == T_LIVE)

/* ---- records ----------------------------------------------------------------------------------- */

/* A new live record (guard held), or NULL when the pool is full or the family is off. */
/* `owner` and `id` (toykit: its loop and source id; POSIX: the timer) are set before the record is
 * published, so a thread looking records up by them never reads them half-written. */
static lh_timer_rec *track(unsigned hook, uintptr_t func, uintptr_t data, void (*notify)(void *), int64_t interval_ms,
                           const void *owner, unsigned id) {
    if (recs == NULL) return NULL;
    static _Atomic uint32_t next;
    uint32_t start = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
    for (uint32_t n = 0; n < LH_TIMERS; n++) {
        uint32_t i = (start + n) % LH_TIMERS;
        uint32_t expected = T_FREE;
        /* acquire: the previous user's writes are done (it released with T_FREE). */
        if (atomic_load_explicit(&recs[i].state, memory_order_relaxed) != T_FREE ||
            !atomic_compare_exchange_strong_explicit(&recs[i].state, &expected, T_ENDING, memory_order_acquire,
                                                     memory_order_relaxed))
            continue;
        lh_timer_rec *r = &recs[i];
        r->hook = hook, r->func = func, r->data = data, r->notify = notify, r->interval_ms = interval_ms;
        r->created_ns = lh_now_ns();
        atomic_store_explicit(&r->fires, 0, memory_order_relaxed);
        r->owner = owner, r->id = id, r->armed = hook != LH_HOOK_timer_create;
        r->dispatching = r->freed_in_dispatch = r->reported = false;
        r->pc_count = lh_capture_stack(r->pcs, LH_TIMER_PCS);
        /* release: the record is complete before it is LIVE (free() and lookups read it). */
        atomic_store_explicit(&r->state, T_LIVE, memory_order_release);
        size_t high = atomic_load_explicit(&recs_high, memory_order_relaxed);
        /* release: a scan below the bound sees the record's fields. */
        while (high < i + 1 && !atomic_compare_exchange_weak_explicit(&recs_high, &high, i + 1, memory_order_release,
                                                                      memory_order_relaxed)) {
        }
        if (data != 0) {
            filter_add(data);
            atomic_fetch_add_explicit(&lh_timer_watched, 1, memory_order_relaxed);
        }
        /* relaxed: statistics and the storm detectors' inputs. */
        atomic_fetch_add_explicit(&live, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&created, 1, memory_order_relaxed);
        atomic_store_explicit(&last_created, i, memory_order_relaxed);
        return r;
    }
    atomic_fetch_add_explicit(&untracked, 1, memory_order_relaxed); /* stat */
    return NULL;
}

/* The source ended: the record goes back to the pool. Returns false if someone else ended it. */
static bool untrack(lh_timer_rec *r) {
    uint32_t expected = T_LIVE;
    /* acq_rel: exactly one ender; its reads of the record happen before the next user's writes. */
    if (!atomic_compare_exchange_strong_explicit(&r->state, &expected, T_ENDING, memory_order_acq_rel,
                                                 memory_order_relaxed))
        return false;
    if (r->data != 0) {
        filter_remove(r->data);
        atomic_fetch_sub_explicit(&lh_timer_watched, 1, memory_order_relaxed);
    }
    atomic_fetch_sub_explicit(&live, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&destroyed, 1, memory_order_relaxed);
    return true;
}

static void release(lh_timer_rec *r) {
    /* release: our last reads are done before a new claimer writes. */
    atomic_store_explicit(&r->state, T_FREE, memory_order_release);
}

/* ---- reports ----------------------------------------------------------------------------------- */

static void report(lh_tls *t, lh_timer_rec *r, const char *kind, const char *reason, uint64_t count,
                   uint64_t threshold, const char *unit, uint64_t storm_a, uint64_t storm_b, bool freed_stack) {
    lh_report_timer timer = {
        .source = lh_hooks[r->hook].name,
        .callback = r->func,
        .data = r->data,
        .interval_ms = r->interval_ms,
        .created_us = us_since_start(r->created_ns),
        .fires = atomic_load_explicit(&r->fires, memory_order_relaxed),
        .live_sources = atomic_load_explicit(&live, memory_order_relaxed),
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
    atomic_fetch_add_explicit(&outlived, 1, memory_order_relaxed); /* stat */
    report(t, r, "timer-outlives-target", NULL, atomic_load_explicit(&r->fires, memory_order_relaxed), 0,
           "fires before the target was freed", 0, 0, true);
}

void lh_timer_on_free(void *block) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_TIMER)) return;
    int saved = errno;
    t->guard++;
    uintptr_t data = (uintptr_t)block;
    if (atomic_load_explicit(&filter[filter_slot(data)], memory_order_relaxed) != 0) {
        FOR_EACH_RECORD_OF(data, r) {
            if (!r->armed) continue;
            if (r->dispatching) {
                r->freed_in_dispatch = true; /* judged when the callback returns */
            } else {
                report_outlived(t, r);
            }
        }
    }
    t->guard--;
    errno = saved;
}

/* A fire of `r`'s callback: counted per callback per iteration of the dispatching thread. */
static void count_fire(lh_tls *t, lh_timer_rec *r) {
    atomic_fetch_add_explicit(&r->fires, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&fires_total, 1, memory_order_relaxed); /* stat */
    size_t i = (size_t)((r->func >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 56) % LH_FIRE_SLOTS;
    uintptr_t cur = atomic_load_explicit(&fire_counts[i].func, memory_order_relaxed);
    if (cur != r->func) {
        /* relaxed: the slot is a hint shared by callbacks that hash alike; the last one wins. */
        atomic_store_explicit(&fire_counts[i].func, r->func, memory_order_relaxed);
        fire_counts[i].epoch = 0;
        fire_counts[i].reported = false;
    }
    if (t->epoch == 0) return; /* a thread without iterations: no "per iteration" to count in */
    if (fire_counts[i].epoch != t->epoch) {
        fire_counts[i].epoch = t->epoch;
        fire_counts[i].count = 0;
    }
    if (++fire_counts[i].count > lh_proc.cfg.timer_fires && !fire_counts[i].reported) {
        fire_counts[i].reported = true;
        report(t, r, "timer-storm", "fires", fire_counts[i].count, lh_proc.cfg.timer_fires,
               "fires of one callback in one iteration", fire_counts[i].count, 0, false);
    }
}

/* After a callback returned `keep`: its data freed by itself while the source goes on is the bug. */
static void after_dispatch(lh_tls *t, lh_timer_rec *r, bool keep_running) {
    r->dispatching = false;
    if (r->freed_in_dispatch && keep_running) report_outlived(t, r);
}

void lh_timer_iteration(lh_tls *t) {
    if (!(lh_proc.cfg.families & LH_FAMILY_TIMER) || recs == NULL) return;
    int32_t tid = atomic_load_explicit(&growth_tid, memory_order_relaxed), me = atomic_load_explicit(&t->rec->tid, memory_order_relaxed);
    if (tid == 0) {
        /* relaxed: the first loop thread to get here owns the growth detector. */
        if (!atomic_compare_exchange_strong_explicit(&growth_tid, &tid, me, memory_order_relaxed, memory_order_relaxed) && tid != me)
            return;
    } else if (tid != me) {
        return;
    }
    uint64_t now_live = atomic_load_explicit(&live, memory_order_relaxed);
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
        lh_timer_rec *r = &recs[atomic_load_explicit(&last_created, memory_order_relaxed)];
        if (atomic_load_explicit(&r->state, memory_order_acquire) == T_LIVE)
            report(t, r, "timer-storm", "growth", added, lh_proc.cfg.timer_live, "timer sources added in a growth run",
                   growth_run, growth_start, false);
    }
}

void lh_timer_reset_after_fork(void) {
    /* The child inherits the parent's GLib sources (and our records, still right for them). */
    atomic_store_explicit(&growth_tid, 0, memory_order_relaxed);
    growth_run = 0;
}

void lh_timer_summary(lh_json *j) {
    if ((lh_proc.cfg.families & LH_FAMILY_TIMER) == 0) {
        lh_json_null(j, "timers");
        return;
    }
#define LOADR(x) atomic_load_explicit(&(x), memory_order_relaxed)
    lh_json_begin_object(j, "timers");
    lh_json_u64(j, "created", LOADR(created));
    lh_json_u64(j, "destroyed", LOADR(destroyed));
    lh_json_u64(j, "live", LOADR(live));
    lh_json_u64(j, "fires", LOADR(fires_total));
    lh_json_u64(j, "untracked", LOADR(untracked));
    lh_json_u64(j, "timerfd_settime", LOADR(timerfd_sets));
    lh_json_u64(j, "timer_settime", LOADR(timer_sets));
    lh_json_u64(j, "outlived", LOADR(outlived));
    lh_json_end_object(j);
#undef LOADR
}

/* ---- hooks: common parts ------------------------------------------------------------------------ */

/* Whether a hook of the timer family does its work: on, initialised, not inside our own work. */
static bool timers_on(lh_tls *t) { return t->guard == 0 && lh_active(LH_FAMILY_TIMER) && recs != NULL; }

/* ---- GLib ---------------------------------------------------------------------------------------- */

typedef int (*gsource_fn)(void *);
typedef void (*gonce_fn)(void *);
typedef void (*gnotify_fn)(void *);
typedef unsigned (*add_full_fn)(int, unsigned, gsource_fn, void *, gnotify_fn);
typedef unsigned (*idle_full_fn)(int, gsource_fn, void *, gnotify_fn);
typedef void (*set_callback_fn)(void *, gsource_fn, void *, gnotify_fn);

enum { G_PRIORITY_DEFAULT = 0, G_PRIORITY_DEFAULT_IDLE = 200 };

static void *(*current_source)(void);
static int (*source_is_destroyed)(void *);
static const void *timeout_funcs, *idle_funcs;

/* GLib's own functions and tables, once (a race resolves them twice, to the same values). */
static void resolve_glib(void) {
    if (current_source != NULL) return;
    *(void **)&source_is_destroyed = lh_host_function("g_source_is_destroyed");
    timeout_funcs = lh_host_data("g_timeout_funcs");
    idle_funcs = lh_host_data("g_idle_funcs");
    *(void **)&current_source = lh_host_function("g_main_current_source");
}

static int glib_trampoline(void *arg) {
    lh_timer_rec *r = arg;
    lh_tls *t = &lh_tls_data;
    bool counted = t->guard == 0;
    if (counted) {
        t->guard++;
        r->dispatching = true;
        count_fire(t, r);
        t->guard--;
    }
    int keep = r->hook == LH_HOOK_g_timeout_add_once || r->hook == LH_HOOK_g_idle_add_once
                   ? (((gonce_fn)r->func)((void *)r->data), 0)
                   : ((gsource_fn)r->func)((void *)r->data);
    if (counted) {
        int saved = errno;
        t->guard++;
        /* A source removed from inside its own callback ends with it, whatever it returns. */
        bool runs_on = keep && !(source_is_destroyed != NULL && current_source != NULL &&
                                 source_is_destroyed(current_source()));
        after_dispatch(t, r, runs_on);
        t->guard--;
        errno = saved;
    }
    return keep;
}

/* GLib is done with the source: the program's notify, then the record is free. */
static void glib_notify(void *arg) {
    lh_timer_rec *r = arg;
    bool mine = untrack(r);
    if (r->notify != NULL) r->notify((void *)r->data);
    if (mine) release(r);
}

/* Wraps (func, data, notify) when tracking; otherwise leaves them. Guard taken here. */
static bool wrap(unsigned hook, int64_t interval_ms, gsource_fn *func, void **data, gnotify_fn *notify) {
    lh_tls *t = &lh_tls_data;
    if (*func == NULL || !timers_on(t)) return false;
    int saved = errno;
    t->guard++;
    lh_count_hook_call(hook);
    resolve_glib();
    lh_timer_rec *r = track(hook, (uintptr_t)*func, (uintptr_t)*data, *notify, interval_ms, NULL, 0);
    t->guard--;
    errno = saved;
    if (r == NULL) return false;
    *func = glib_trampoline;
    *data = r;
    *notify = glib_notify;
    return true;
}

static unsigned timeout_full(unsigned hook, int priority, unsigned interval, gsource_fn func, void *data,
                             gnotify_fn notify, bool seconds) {
    add_full_fn real = (add_full_fn)lh_hook_original(seconds ? LH_HOOK_g_timeout_add_seconds_full : LH_HOOK_g_timeout_add_full);
    if (real == NULL) return 0;
    wrap(hook, seconds ? (int64_t)interval * 1000 : (int64_t)interval, &func, &data, &notify);
    return real(priority, interval, func, data, notify);
}

static unsigned idle_full(unsigned hook, int priority, gsource_fn func, void *data, gnotify_fn notify) {
    idle_full_fn real = (idle_full_fn)lh_hook_original(LH_HOOK_g_idle_add_full);
    if (real == NULL) return 0;
    wrap(hook, -1, &func, &data, &notify);
    return real(priority, func, data, notify);
}

LH_EXPORT unsigned g_timeout_add(unsigned interval, gsource_fn func, void *data) {
    return timeout_full(LH_HOOK_g_timeout_add, G_PRIORITY_DEFAULT, interval, func, data, NULL, false);
}
LH_EXPORT unsigned g_timeout_add_full(int priority, unsigned interval, gsource_fn func, void *data, gnotify_fn notify) {
    return timeout_full(LH_HOOK_g_timeout_add_full, priority, interval, func, data, notify, false);
}
LH_EXPORT unsigned g_timeout_add_seconds(unsigned interval, gsource_fn func, void *data) {
    return timeout_full(LH_HOOK_g_timeout_add_seconds, G_PRIORITY_DEFAULT, interval, func, data, NULL, true);
}
LH_EXPORT unsigned g_timeout_add_seconds_full(int priority, unsigned interval, gsource_fn func, void *data,
                                              gnotify_fn notify) {
    return timeout_full(LH_HOOK_g_timeout_add_seconds_full, priority, interval, func, data, notify, true);
}
/* The _once variants: GLib implements them as a _full source whose callback runs once. */
LH_EXPORT unsigned g_timeout_add_once(unsigned interval, gonce_fn func, void *data) {
    gsource_fn f = (gsource_fn)(void (*)(void))func; /* only ever called as a gonce_fn */
    gnotify_fn notify = NULL;
    add_full_fn full = (add_full_fn)lh_hook_original(LH_HOOK_g_timeout_add_full);
    if (full != NULL && wrap(LH_HOOK_g_timeout_add_once, interval, &f, &data, &notify))
        return full(G_PRIORITY_DEFAULT, interval, f, data, notify);
    unsigned (*real)(unsigned, gonce_fn, void *) =
        (unsigned (*)(unsigned, gonce_fn, void *))lh_hook_original(LH_HOOK_g_timeout_add_once);
    return real != NULL ? real(interval, func, data) : 0;
}
LH_EXPORT unsigned g_idle_add(gsource_fn func, void *data) {
    return idle_full(LH_HOOK_g_idle_add, G_PRIORITY_DEFAULT_IDLE, func, data, NULL);
}
LH_EXPORT unsigned g_idle_add_full(int priority, gsource_fn func, void *data, gnotify_fn notify) {
    return idle_full(LH_HOOK_g_idle_add_full, priority, func, data, notify);
}
LH_EXPORT unsigned g_idle_add_once(gonce_fn func, void *data) {
    gsource_fn f = (gsource_fn)(void (*)(void))func; /* only ever called as a gonce_fn */
    gnotify_fn notify = NULL;
    idle_full_fn full = (idle_full_fn)lh_hook_original(LH_HOOK_g_idle_add_full);
    if (full != NULL && wrap(LH_HOOK_g_idle_add_once, -1, &f, &data, &notify))
        return full(G_PRIORITY_DEFAULT_IDLE, f, data, notify);
    unsigned (*real)(gonce_fn, void *) = (unsigned (*)(gonce_fn, void *))lh_hook_original(LH_HOOK_g_idle_add_once);
    return real != NULL ? real(func, data) : 0;
}

/* g_timeout_source_new*() / g_idle_source_new() + g_source_set_callback: only timeout and idle
 * sources are wrapped (other sources call their callback with other arguments). */
LH_EXPORT void g_source_set_callback(void *source, gsource_fn func, void *data, gnotify_fn notify) {
    set_callback_fn real = (set_callback_fn)lh_hook_original(LH_HOOK_g_source_set_callback);
    if (real == NULL) return;
    lh_tls *t = &lh_tls_data;
    if (source != NULL && timers_on(t)) {
        t->guard++;
        resolve_glib();
        t->guard--;
        /* GSource: callback_data, callback_funcs, source_funcs (the public struct's first fields). */
        const void *funcs = ((void *const *)source)[2];
        if (funcs != NULL && (funcs == timeout_funcs || funcs == idle_funcs))
            wrap(LH_HOOK_g_source_set_callback, funcs == idle_funcs ? -1 : 0, &func, &data, &notify);
    }
    real(source, func, data, notify);
}

/* The lookups by user data: GLib holds our record as the data; the program passes its own. */
static void *record_for_data(const void *data, const void *funcs) {
    if (recs == NULL || data == NULL || atomic_load_explicit(&filter[filter_slot((uintptr_t)data)], memory_order_relaxed) == 0)
        return NULL;
    FOR_EACH_RECORD_OF((uintptr_t)data, r) {
        bool idle = r->interval_ms < 0;
        bool glib = r->hook != LH_HOOK_tk_loop_add_timer && r->hook != LH_HOOK_tk_loop_add_idle && r->hook != LH_HOOK_timer_create;
        if (glib && (funcs == NULL || (funcs == idle_funcs && idle) || (funcs == timeout_funcs && !idle))) return r;
    }
    return NULL;
}

LH_EXPORT int g_source_remove_by_user_data(void *data) {
    int (*real)(void *) = (int (*)(void *))lh_hook_original(LH_HOOK_g_source_remove_by_user_data);
    if (real == NULL) return 0;
    void *r = record_for_data(data, NULL);
    return (r != NULL && real(r)) || real(data);
}

LH_EXPORT int g_source_remove_by_funcs_user_data(void *funcs, void *data) {
    int (*real)(void *, void *) = (int (*)(void *, void *))lh_hook_original(LH_HOOK_g_source_remove_by_funcs_user_data);
    if (real == NULL) return 0;
    void *r = record_for_data(data, funcs);
    return (r != NULL && real(funcs, r)) || real(funcs, data);
}

LH_EXPORT int g_idle_remove_by_data(void *data) {
    int (*real)(void *) = (int (*)(void *))lh_hook_original(LH_HOOK_g_idle_remove_by_data);
    if (real == NULL) return 0;
    lh_tls_data.guard++;
    resolve_glib();
    lh_tls_data.guard--;
    void *r = record_for_data(data, idle_funcs);
    return (r != NULL && real(r)) || real(data);
}

LH_EXPORT void *g_main_context_find_source_by_user_data(void *context, void *data) {
    void *(*real)(void *, void *) = (void *(*)(void *, void *))lh_hook_original(LH_HOOK_g_main_context_find_source_by_user_data);
    if (real == NULL) return NULL;
    void *r = record_for_data(data, NULL);
    void *found = r != NULL ? real(context, r) : NULL;
    return found != NULL ? found : real(context, data);
}

LH_EXPORT void *g_main_context_find_source_by_funcs_user_data(void *context, void *funcs, void *data) {
    void *(*real)(void *, void *, void *) =
        (void *(*)(void *, void *, void *))lh_hook_original(LH_HOOK_g_main_context_find_source_by_funcs_user_data);
    if (real == NULL) return NULL;
    void *r = record_for_data(data, funcs);
    void *found = r != NULL ? real(context, funcs, r) : NULL;
    return found != NULL ? found : real(context, funcs, data);
}

/* ---- toykit --------------------------------------------------------------------------------------- */

typedef int (*tk_source_fn)(void *); /* bool (*)(void *): returns in al, read as int by the ABI */

static lh_timer_rec *toykit_record(const void *loop, unsigned id) {
    size_t high = atomic_load_explicit(&recs_high, memory_order_acquire);
    for (size_t i = 0; i < high; i++) {
        lh_timer_rec *r = &recs[i];
        if (r->owner == loop && r->id == id && atomic_load_explicit(&r->state, memory_order_acquire) == T_LIVE &&
            (r->hook == LH_HOOK_tk_loop_add_timer || r->hook == LH_HOOK_tk_loop_add_idle))
            return r;
    }
    return NULL;
}

static unsigned toykit_add(unsigned hook, void *loop, int interval_ms, void *func, void *data) {
    lh_tls *t = &lh_tls_data;
    bool on = timers_on(t);
    if (on) t->guard++;
    unsigned id;
    if (hook == LH_HOOK_tk_loop_add_timer) {
        unsigned (*real)(void *, int, void *, void *) = (unsigned (*)(void *, int, void *, void *))lh_hook_original(hook);
        id = real != NULL ? real(loop, interval_ms, func, data) : 0;
    } else {
        unsigned (*real)(void *, void *, void *) = (unsigned (*)(void *, void *, void *))lh_hook_original(hook);
        id = real != NULL ? real(loop, func, data) : 0;
    }
    if (on) {
        int saved = errno;
        lh_count_hook_call(hook);
        if (id != 0) track(hook, (uintptr_t)func, (uintptr_t)data, NULL, interval_ms, loop, id);
        t->guard--;
        errno = saved;
    }
    return id;
}

LH_EXPORT unsigned tk_loop_add_timer(void *loop, int interval_ms, void *func, void *data) {
    return toykit_add(LH_HOOK_tk_loop_add_timer, loop, interval_ms, func, data);
}

LH_EXPORT unsigned tk_loop_add_idle(void *loop, void *func, void *data) {
    return toykit_add(LH_HOOK_tk_loop_add_idle, loop, -1, func, data);
}

/* The source ended; a source removed from inside its own callback is released by the dispatch
 * wrapper once the callback has returned (it still uses the record). */
static void toykit_end(lh_timer_rec *r) {
    if (untrack(r) && !r->dispatching) release(r);
}

LH_EXPORT void tk_loop_remove_source(void *loop, unsigned id) {
    void (*real)(void *, unsigned) = (void (*)(void *, unsigned))lh_hook_original(LH_HOOK_tk_loop_remove_source);
    lh_tls *t = &lh_tls_data;
    if (timers_on(t)) {
        t->guard++;
        lh_count_hook_call(LH_HOOK_tk_loop_remove_source);
        lh_timer_rec *r = toykit_record(loop, id);
        if (r != NULL) toykit_end(r);
        t->guard--;
    }
    if (real != NULL) real(loop, id);
}

LH_EXPORT void tk_loop_free(void *loop) {
    void (*real)(void *) = (void (*)(void *))lh_hook_original(LH_HOOK_tk_loop_free);
    lh_tls *t = &lh_tls_data;
    if (t->guard == 0 && lh_active(LH_FAMILY_TIMER | LH_FAMILY_WINDOW)) {
        int saved = errno;
        t->guard++;
        size_t high = recs != NULL ? atomic_load_explicit(&recs_high, memory_order_acquire) : 0;
        for (size_t i = 0; i < high; i++)
            if (recs[i].owner == loop && atomic_load_explicit(&recs[i].state, memory_order_acquire) == T_LIVE &&
                (recs[i].hook == LH_HOOK_tk_loop_add_timer || recs[i].hook == LH_HOOK_tk_loop_add_idle))
                toykit_end(&recs[i]);
        lh_window_forget_loop(loop);
        t->guard--;
        errno = saved;
    }
    if (real != NULL) real(loop);
}

/* Every toykit timer and idle callback: counted, judged (its data freed by itself while it goes
 * on), and timed as a step while a window waits for its first frame. */
LH_EXPORT int tk_source_dispatch(void *loop, unsigned id, tk_source_fn func, void *data) {
    int (*real)(void *, unsigned, tk_source_fn, void *) =
        (int (*)(void *, unsigned, tk_source_fn, void *))lh_hook_original(LH_HOOK_tk_source_dispatch);
    lh_tls *t = &lh_tls_data;
    lh_timer_rec *r = NULL;
    if (real == NULL) return func(data);
    if (t->guard == 0 && lh_active(LH_FAMILY_TIMER) && recs != NULL) {
        t->guard++;
        r = toykit_record(loop, id);
        if (r != NULL) {
            r->dispatching = true;
            count_fire(t, r);
        }
        t->guard--;
    }
    bool timed = lh_windows_waiting() && t->guard == 0 && lh_active(LH_FAMILY_WINDOW);
    uint64_t started = timed ? lh_now_ns() : 0;
    int keep = real(loop, id, func, data) & 0xff;
    if (timed || r != NULL) {
        int saved = errno;
        t->guard++;
        if (timed) {
            uint64_t us = (lh_now_ns() - started) / 1000;
            lh_window_step(r != NULL && r->interval_ms < 0 ? "idle" : "timer", "(toykit source)", (uintptr_t)func, us);
        }
        if (r != NULL) {
            bool removed = atomic_load_explicit(&r->state, memory_order_acquire) != T_LIVE;
            after_dispatch(t, r, keep != 0 && !removed);
            if (removed) {
                release(r); /* tk_loop_remove_source ran inside the callback */
            } else if (!keep) {
                toykit_end(r);
            }
        }
        t->guard--;
        errno = saved;
    }
    return keep;
}

/* ---- POSIX timers ------------------------------------------------------------------------------- */

LH_EXPORT int timer_create(clockid_t clock, struct sigevent *event, timer_t *timer) {
    int (*real)(clockid_t, struct sigevent *, timer_t *) =
        (int (*)(clockid_t, struct sigevent *, timer_t *))lh_hook_original(LH_HOOK_timer_create);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    int result = real(clock, event, timer);
    lh_tls *t = &lh_tls_data;
    if (result == 0 && event != NULL && event->sigev_notify == SIGEV_THREAD && timers_on(t)) {
        int saved = errno;
        t->guard++;
        lh_count_hook_call(LH_HOOK_timer_create);
        track(LH_HOOK_timer_create, (uintptr_t)event->sigev_notify_function, (uintptr_t)event->sigev_value.sival_ptr,
              NULL, 0, *timer, 0);
        t->guard--;
        errno = saved;
    }
    return result;
}

static lh_timer_rec *posix_record(timer_t timer) {
    size_t high = recs != NULL ? atomic_load_explicit(&recs_high, memory_order_acquire) : 0;
    for (size_t i = 0; i < high; i++)
        if (recs[i].hook == LH_HOOK_timer_create && recs[i].owner == (const void *)timer &&
            atomic_load_explicit(&recs[i].state, memory_order_acquire) == T_LIVE)
            return &recs[i];
    return NULL;
}

LH_EXPORT int timer_settime(timer_t timer, int flags, const struct itimerspec *value, struct itimerspec *old) {
    int (*real)(timer_t, int, const struct itimerspec *, struct itimerspec *) =
        (int (*)(timer_t, int, const struct itimerspec *, struct itimerspec *))lh_hook_original(LH_HOOK_timer_settime);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    int result = real(timer, flags, value, old);
    lh_tls *t = &lh_tls_data;
    if (result == 0 && value != NULL && timers_on(t)) {
        int saved = errno;
        t->guard++;
        lh_count_hook_call(LH_HOOK_timer_settime);
        atomic_fetch_add_explicit(&timer_sets, 1, memory_order_relaxed); /* stat */
        lh_timer_rec *r = posix_record(timer);
        if (r != NULL) {
            r->armed = value->it_value.tv_sec != 0 || value->it_value.tv_nsec != 0;
            if (r->armed) r->interval_ms = (int64_t)value->it_interval.tv_sec * 1000 + value->it_interval.tv_nsec / 1000000;
        }
        t->guard--;
        errno = saved;
    }
    return result;
}

LH_EXPORT int timer_delete(timer_t timer) {
    int (*real)(timer_t) = (int (*)(timer_t))lh_hook_original(LH_HOOK_timer_delete);
    lh_tls *t = &lh_tls_data;
    if (timers_on(t)) {
        int saved = errno;
        t->guard++;
        lh_count_hook_call(LH_HOOK_timer_delete);
        lh_timer_rec *r = posix_record(timer);
        if (r != NULL && untrack(r)) release(r);
        t->guard--;
        errno = saved;
    }
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    return real(timer);
}

LH_EXPORT int timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
    int (*real)(int, int, const struct itimerspec *, struct itimerspec *) =
        (int (*)(int, int, const struct itimerspec *, struct itimerspec *))lh_hook_original(LH_HOOK_timerfd_settime);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    lh_tls *t = &lh_tls_data;
    if (timers_on(t)) {
        lh_count_hook_call(LH_HOOK_timerfd_settime);
        atomic_fetch_add_explicit(&timerfd_sets, 1, memory_order_relaxed); /* stat */
    }
    return real(fd, flags, value, old);
}
