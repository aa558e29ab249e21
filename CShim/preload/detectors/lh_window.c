/*
 * lh_window.c — windows' time to first frame (family "window"): from a toplevel window's creation,
 * showing or mapping to its first painted frame, with the slowest steps on the way; a
 * `slow-window` report past LOOPHUNTER_WINDOW_MS; every window listed in the summary.
 *
 *   toykit: tk_loop_add_root (the window is mapped) → the loop's next tk_loop_frame_done; the
 *           steps are the timer and idle callbacks run meanwhile (tk_source_dispatch).
 *   GTK:    its first gtk_widget_show[_all] / gtk_window_present / gtk_widget_set_visible(TRUE)
 *           made from outside GTK, or else its "map" signal (GTK shows its own popup windows from
 *           inside libgtk) → the first "after-paint" of its frame clock; the steps are the signal
 *           emissions (g_signal_emit*), timed only while a shown window waits. Never from its
 *           creation: a GTK 3 menu's window is made at start-up and first shown when the user
 *           opens the menu.
 * Its inputs (lh_window.h) come from the toolkits' adapters (toolkits/), which know which calls
 * those are; this file knows no toolkit: it asks a window's adapter for its title and frame clock.
 *
 * Which windows are listed. A window made and not shown yet (GTK builds dialogs hidden, long before
 * they are used) waits in a table of its own (LH_WINDOWS_NEW entries: its creation time and stack
 * only); it becomes one of the LH_WINDOWS window records when it is shown, mapped or painted, and
 * leaves no trace but a count when it is finalized unshown. Records are never reused: the summary
 * lists every window shown, mapped or painted, up to LH_WINDOWS per process, and counts exactly
 * what it does not list: windows_seen (every window made), windows_dropped (made or shown when its
 * table was full: not followed), windows_never_shown (the rest: made, never shown nor painted).
 * GTK 3's popup windows (menus, tooltips, combo lists) are not the application's windows: only
 * counted (windows_popups). So listed + never shown + dropped = seen, and windows_truncated says
 * dropped > 0.
 *
 * Runs in hooks on the host's GUI thread (guard held): no allocation (static tables claimed with
 * compare-and-swap), no locks, no stdio. Entries and records are written by the thread that owns
 * the window (GTK and toykit are single-threaded per window); the summary reads them while the
 * program runs and at exit (relaxed, statistics; a record is complete before its release store
 * makes it findable). A finalized window is forgotten (its adapter calls lh_window_forget), so no
 * dead window is ever called into.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "lh_breach.h"
#include "lh_window.h"

#define LH_WINDOWS 256     /* windows listed: shown, mapped or painted (docs/report-schema.md) */
#define LH_WINDOWS_NEW 512 /* windows made and not shown yet, at one time */
#define LH_WINDOW_STEPS 16
#define LH_WINDOW_REPORT_STEPS 8
#define LH_WINDOW_PCS 32

enum { W_FREE = 0, W_PENDING = 1, W_PAINTED = 2, W_GONE = 3, W_CLAIMED = 4 /* being filled in */ };

typedef struct lh_window_rec {
    _Atomic uint32_t state;           /* W_*: CAS from FREE by the claimer; then its thread's */
    const void *object;
    const void *loop;                 /* toykit: its TkLoop; GTK: NULL */
    const lh_toolkit *toolkit;
    unsigned hook;                    /* the hook that saw it created (the report's hook) */
    /* shown, since, start_ns, painted_ns, gone_ns: written by the window's thread while the record
     * is pending, read by a summary written meanwhile on another thread (a kept-current summary):
     * _Atomic, so every plain access is an atomic one (seq_cst; the window path is not hot). */
    _Atomic bool shown;               /* shown or mapped: the clock runs from start_ns */
    bool reported;
    const char *_Atomic since;        /* "creation", "show", "map" */
    uint64_t created_ns;
    _Atomic uint64_t start_ns, painted_ns;
    _Atomic uint64_t gone_ns;         /* finalized before its first frame: when (0: alive or painted) */
    char type[64], name[64], title[128];
    uint32_t pc_count;
    uintptr_t pcs[LH_WINDOW_PCS];     /* where it was created */
    uint32_t step_count;
    lh_report_step steps[LH_WINDOW_STEPS];
} lh_window_rec;

static lh_window_rec windows[LH_WINDOWS] LH_LARGE_TABLE(windows);
static _Atomic size_t windows_high;     /* records [0, high) were claimed at some point */

/* A window made and not shown yet: what its record needs if it is shown or painted later. */
enum { N_FREE = 0, N_BUSY = 1, N_USED = 2 };
typedef struct lh_window_new {
    _Atomic uint32_t state;           /* N_*: CAS from FREE by the maker; then its thread's */
    unsigned hook;
    const void *object;
    const lh_toolkit *toolkit;
    uint64_t created_ns;
    uint32_t pc_count;
    uintptr_t pcs[LH_WINDOW_PCS];
} lh_window_new;

static lh_window_new made[LH_WINDOWS_NEW] LH_LARGE_TABLE(windows_made);
static _Atomic size_t made_high;        /* entries [0, high) were claimed at some point */
static _Atomic int made_count;          /* entries in use (relaxed: a hint for the paint path) */

/* Relaxed counters (statistics): every window made (popups aside), those not followed for want of
 * room, GTK 3 popups. */
static _Atomic uint64_t windows_seen, windows_dropped, windows_popups;
/* Windows waiting for their first frame (each also asks the toolkits to time their steps:
 * lh_watch_steps). Relaxed: a count only. */
static _Atomic int waiting;
/* Windows not painted yet, shown or not (relaxed: a hint for the frame-end paths). */
static _Atomic int unpainted;

bool lh_windows_unpainted(void) { return lh_load_relaxed(&unpainted) > 0; }


static void copy_text(char *dst, size_t cap, const char *s) {
    size_t n = s != NULL ? strnlen(s, cap - 1) : 0;
    if (n > 0) memcpy(dst, s, n);
    dst[n] = '\0';
}

static lh_window_rec *find(const void *object) {
    size_t high = lh_load_acquire(&windows_high);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        uint32_t s = lh_load_acquire(&w->state);
        if ((s == W_PENDING || s == W_PAINTED) && w->object == object) return w;
    }
    return NULL;
}

static lh_window_new *find_made(const void *object) {
    size_t high = lh_load_acquire(&made_high);
    for (size_t i = 0; i < high; i++)
        if (lh_load_acquire(&made[i].state) == N_USED && made[i].object == object) return &made[i];
    return NULL;
}

static void refresh_names(lh_window_rec *w) {
    const lh_toolkit *tk = w->toolkit;
    copy_text(w->type, sizeof w->type, tk->type_name != NULL ? tk->type_name(w->object) : NULL);
    copy_text(w->name, sizeof w->name, tk->name_of != NULL ? tk->name_of(w->object) : NULL);
    copy_text(w->title, sizeof w->title, tk->title_of != NULL ? tk->title_of(w->object) : NULL);
}

static void start_clock(lh_window_rec *w, const char *since, uint64_t now) {
    w->shown = true;
    w->since = since;
    w->start_ns = now;
    lh_add_relaxed(&waiting, 1);
    lh_watch_steps(1);
}

/* A window that waited stops waiting (painted or gone). */
static void stop_waiting(void) {
    lh_sub_relaxed(&waiting, 1);
    lh_watch_steps(-1);
}

/* Raises a high-water mark to `index` (release: the entry below it is complete). */
static void raise_high(_Atomic size_t *high_mark, size_t index) {
    size_t high = lh_load_relaxed(high_mark);
    while (high < index && !atomic_compare_exchange_weak_explicit(high_mark, &high, index, memory_order_release,
                                                                 memory_order_relaxed)) {
    }
}

/* A window record for `object`, listed from now on (its state is W_CLAIMED, which every reader
 * skips, until the caller publishes it); NULL when all LH_WINDOWS are taken (counted as dropped). */
static lh_window_rec *claim_record(const lh_toolkit *tk, unsigned hook, const void *object, uint64_t created_ns) {
    lh_window_rec *w = NULL;
    for (size_t i = 0; i < LH_WINDOWS && w == NULL; i++) {
        uint32_t expected = W_FREE;
        /* acquire: the record's previous contents are no one's any more. */
        if (lh_load_relaxed(&windows[i].state) == W_FREE && lh_cas_acquire(&windows[i].state, &expected, W_CLAIMED))
            w = &windows[i];
    }
    if (w == NULL) {
        lh_add_relaxed(&windows_dropped, 1); /* stat */
        return NULL;
    }
    memset((char *)w + sizeof w->state, 0, sizeof *w - sizeof w->state);
    w->object = object;
    w->toolkit = tk;
    w->hook = hook;
    w->since = "creation";
    w->created_ns = w->start_ns = created_ns;
    return w;
}

static void publish(lh_window_rec *w, uint32_t state) {
    /* release: the record is complete before it is findable. */
    lh_store_release(&w->state, state);
    raise_high(&windows_high, (size_t)(w - windows) + 1);
}

void lh_window_popup(void) { lh_add_relaxed(&windows_popups, 1); /* stat */ }

void lh_window_created(const lh_toolkit *tk, unsigned hook, const void *object, const void *loop, bool mapped) {
    if (find(object) != NULL || find_made(object) != NULL) return;
    lh_add_relaxed(&windows_seen, 1); /* stat */
    uint64_t now = lh_now_ns();
    if (mapped) { /* on screen already (toykit): a record at once */
        lh_window_rec *w = claim_record(tk, hook, object, now);
        if (w == NULL) return;
        w->loop = loop;
        w->pc_count = lh_capture_stack(w->pcs, LH_WINDOW_PCS);
        refresh_names(w);
        start_clock(w, "map", now);
        lh_add_relaxed(&unpainted, 1);
        publish(w, W_PENDING);
        return;
    }
    lh_window_new *n = NULL;
    for (size_t i = 0; i < LH_WINDOWS_NEW && n == NULL; i++) {
        uint32_t expected = N_FREE;
        /* acquire: the entry's previous contents are no one's any more. */
        if (lh_load_relaxed(&made[i].state) == N_FREE && lh_cas_acquire(&made[i].state, &expected, N_BUSY))
            n = &made[i];
    }
    if (n == NULL) {
        lh_add_relaxed(&windows_dropped, 1); /* stat */
        return;
    }
    n->object = object;
    n->toolkit = tk;
    n->hook = hook;
    n->created_ns = now;
    n->pc_count = lh_capture_stack(n->pcs, LH_WINDOW_PCS);
    lh_add_relaxed(&unpainted, 1);
    lh_add_relaxed(&made_count, 1);
    /* release: the entry is complete before it is findable. */
    lh_store_release(&n->state, N_USED);
    raise_high(&made_high, (size_t)(n - made) + 1);
}

static void free_made(lh_window_new *n) {
    n->object = NULL;
    lh_sub_relaxed(&made_count, 1);
    /* release: our reads of the entry are done before it is claimed again. */
    lh_store_release(&n->state, N_FREE);
}

/* A window made earlier is shown or painted: it gets its record (state W_CLAIMED until published);
 * NULL when none is left (it is then dropped, and no longer counted as unpainted). */
static lh_window_rec *promote(lh_window_new *n) {
    lh_window_rec *w = claim_record(n->toolkit, n->hook, n->object, n->created_ns);
    if (w != NULL) {
        w->pc_count = n->pc_count;
        memcpy(w->pcs, n->pcs, sizeof w->pcs);
        refresh_names(w);
    } else {
        lh_sub_relaxed(&unpainted, 1);
    }
    free_made(n);
    return w;
}

/* The clock of `object` starts (`since`: "show" or "map") unless it already has; a window made
 * hidden leaves the table of windows not shown yet for the list. */
static void clock_starts(const void *object, const char *since) {
    lh_window_rec *w = find(object);
    if (w != NULL) {
        if (!w->shown && lh_load_relaxed(&w->state) == W_PENDING) start_clock(w, since, lh_now_ns());
        return;
    }
    lh_window_new *n = find_made(object);
    if (n == NULL || (w = promote(n)) == NULL) return;
    start_clock(w, since, lh_now_ns());
    publish(w, W_PENDING);
}

void lh_window_shown(const void *object) { clock_starts(object, "show"); }

void lh_window_mapped(const void *object) { clock_starts(object, "map"); }

/* Steps, most expensive first (insertion sort of at most LH_WINDOW_STEPS). */
static size_t slowest(const lh_window_rec *w, lh_report_step *out, size_t max) {
    size_t n = 0;
    for (uint32_t i = 0; i < w->step_count; i++) {
        size_t at = n < max ? n : max;
        while (at > 0 && out[at - 1].longest_us < w->steps[i].longest_us) {
            if (at < max) out[at] = out[at - 1];
            at--;
        }
        if (at < max) out[at] = w->steps[i];
        if (n < max) n++;
    }
    return n;
}

static void report(lh_tls *t, lh_window_rec *w, uint64_t now, bool painted) {
    w->reported = true;
    lh_report_step steps[LH_WINDOW_REPORT_STEPS];
    uint64_t ms = ((painted ? w->painted_ns : now) - w->start_ns) / 1000000u;
    lh_report_window window = {
        .title = w->title[0] != '\0' ? w->title : NULL,
        .since = w->since,
        .created_us = lh_us_since_start(w->start_ns),
        .first_frame_us = painted ? lh_us_since_start(w->painted_ns) : 0,
        .painted = painted,
        .ttff_ms = ms,
        .steps = steps,
        .step_count = slowest(w, steps, LH_WINDOW_REPORT_STEPS),
    };
    lh_breach b = {
        .kind = LH_KIND_SLOW_WINDOW,
        .family = LH_FAMILY_WINDOW,
        .hook = w->hook,
        .object = w->object,
        .count = ms,
        .threshold = lh_proc.cfg.window_ms,
        .count_unit = "ms to first frame",
        .named_type = w->type[0] != '\0' ? w->type : "(window)",
        .named_name = w->name[0] != '\0' ? w->name : NULL,
        .given_stack = true,
        .pcs = w->pcs,
        .pc_count = w->pc_count,
        .window = &window,
    };
    lh_breach_report(t, &b);
}

/* (`w` is this thread's: found pending, or just promoted and not yet published.) */
static void painted(lh_tls *t, lh_window_rec *w, uint64_t now) {
    bool timed = w->shown;
    if (!timed) w->start_ns = w->created_ns; /* painted without a show or map we saw: listed from creation */
    else stop_waiting();
    lh_sub_relaxed(&unpainted, 1);
    w->painted_ns = now;
    refresh_names(w); /* alive now; the title is usually set after creation */
    lh_store_release(&w->state, W_PAINTED);
    /* Only a window whose clock started (shown or mapped) is judged: the time since its creation
     * says nothing about how long it took to appear. */
    if (timed && (now - w->start_ns) / 1000000u > lh_proc.cfg.window_ms) report(t, w, now, true);
}

void lh_window_painted(lh_tls *t, const void *loop_or_clock) {
    uint64_t now = 0;
    size_t high = lh_load_acquire(&windows_high);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        if (lh_load_acquire(&w->state) != W_PENDING) continue;
        /* A window made with its loop (toykit) is painted by it; else ask its adapter. */
        bool match = w->loop != NULL ? w->loop == loop_or_clock
                                     : w->toolkit->frame_clock_of != NULL &&
                                           w->toolkit->frame_clock_of(w->object) == loop_or_clock;
        if (!match) continue;
        if (now == 0) now = lh_now_ns();
        painted(t, w, now);
    }
    if (lh_load_relaxed(&made_count) == 0) return;
    /* A window painted without a show LoopHunter saw (GTK shows its dialogs from inside itself). */
    high = lh_load_acquire(&made_high);
    for (size_t i = 0; i < high; i++) {
        lh_window_new *n = &made[i];
        if (lh_load_acquire(&n->state) != N_USED || n->toolkit->frame_clock_of == NULL ||
            n->toolkit->frame_clock_of(n->object) != loop_or_clock)
            continue;
        lh_window_rec *w = promote(n);
        if (w == NULL) continue;
        if (now == 0) now = lh_now_ns();
        painted(t, w, now); /* publishes it, painted */
        raise_high(&windows_high, (size_t)(w - windows) + 1);
    }
}

void lh_window_step(const char *signal, const char *object_type, uintptr_t callback, uint64_t us) {
    size_t high = lh_load_acquire(&windows_high);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        if (lh_load_acquire(&w->state) != W_PENDING || !w->shown) continue;
        lh_report_step *s = NULL;
        for (uint32_t k = 0; k < w->step_count && s == NULL; k++)
            if (w->steps[k].callback == callback && strcmp(w->steps[k].signal, signal) == 0 &&
                strcmp(w->steps[k].object_type, object_type) == 0)
                s = &w->steps[k];
        if (s == NULL) {
            if (w->step_count < LH_WINDOW_STEPS) {
                s = &w->steps[w->step_count++];
            } else { /* full: replace the cheapest, if this one is dearer */
                s = &w->steps[0];
                for (uint32_t k = 1; k < LH_WINDOW_STEPS; k++)
                    if (w->steps[k].longest_us < s->longest_us) s = &w->steps[k];
                if (s->longest_us >= us) continue;
            }
            memset(s, 0, sizeof *s);
            copy_text(s->signal, sizeof s->signal, signal);
            copy_text(s->object_type, sizeof s->object_type, object_type);
            s->callback = callback;
        }
        s->count++;
        if (us > s->longest_us) s->longest_us = us;
    }
}

void lh_window_forget(const void *object) {
    if (object == NULL) return;
    lh_window_new *n = find_made(object);
    if (n != NULL) { /* finalized never shown: counted in windows_never_shown */
        lh_sub_relaxed(&unpainted, 1);
        free_made(n);
        return;
    }
    size_t high = lh_load_acquire(&windows_high);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        uint32_t s = lh_load_acquire(&w->state);
        if ((s != W_PENDING && s != W_PAINTED) || w->object != object) continue;
        if (s == W_PENDING && w->shown) stop_waiting();
        if (s == W_PENDING) lh_sub_relaxed(&unpainted, 1);
        if (s == W_PENDING) w->gone_ns = lh_now_ns();
        w->object = NULL;
        /* A window shown and gone before its first frame stays listed (never painted), a painted
         * one too: records are never reused. */
        lh_store_release(&w->state, s == W_PAINTED ? W_PAINTED : W_GONE);
    }
}

void lh_window_forget_loop(const void *loop) {
    size_t high = lh_load_acquire(&windows_high);
    for (size_t i = 0; i < high; i++)
        if (windows[i].loop == loop && windows[i].object != NULL) lh_window_forget(windows[i].object);
}

static void flush(lh_tls *t) {
    uint64_t now = lh_now_ns();
    size_t high = lh_load_acquire(&windows_high);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        uint32_t s = lh_load_acquire(&w->state);
        /* Shown and still waiting (or gone while waiting) past the limit: never painted. */
        if ((s == W_PENDING || s == W_GONE) && w->shown && !w->reported && w->painted_ns == 0 &&
            (now - w->start_ns) / 1000000u > lh_proc.cfg.window_ms)
            report(t, w, now, false);
    }
}

static void summary(lh_json *j) {
    if ((lh_proc.cfg.families & LH_FAMILY_WINDOW) == 0) {
        lh_json_null(j, "windows");
        return;
    }
    lh_json_u64(j, "window_ms", lh_proc.cfg.window_ms);
    uint64_t seen = lh_load_relaxed(&windows_seen), dropped = lh_load_relaxed(&windows_dropped), listed = 0;
    lh_json_bool(j, "windows_truncated", dropped != 0);
    lh_json_begin_array(j, "windows");
    size_t high = lh_load_acquire(&windows_high);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        uint32_t s = lh_load_acquire(&w->state);
        bool was_painted = w->painted_ns != 0;
        if (s == W_FREE || s == W_CLAIMED || (!w->shown && !was_painted)) continue; /* being made */
        listed++;
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "type", w->type[0] != '\0' ? w->type : NULL);
        lh_json_string(j, "name", w->name[0] != '\0' ? w->name : NULL);
        lh_json_string(j, "title", w->title[0] != '\0' ? w->title : NULL);
        lh_json_string(j, "since", w->shown || was_painted ? w->since : "creation");
        lh_json_u64(j, "created_us", lh_us_since_start(w->shown ? w->start_ns : w->created_ns));
        if (was_painted) {
            lh_json_u64(j, "first_frame_us", lh_us_since_start(w->painted_ns));
            lh_json_u64(j, "time_to_first_frame_ms", (w->painted_ns - w->start_ns) / 1000000u);
        } else {
            /* Never painted: how long it waited, until now or until it was finalized. */
            uint64_t until = w->gone_ns != 0 ? w->gone_ns : lh_now_ns();
            lh_json_null(j, "first_frame_us");
            lh_json_u64(j, "time_to_first_frame_ms", until > w->start_ns ? (until - w->start_ns) / 1000000u : 0);
        }
        lh_json_bool(j, "painted", was_painted);
        lh_report_step steps[3];
        size_t n = slowest(w, steps, 3);
        lh_json_begin_array(j, "slowest");
        for (size_t k = 0; k < n; k++) {
            lh_json_begin_object(j, NULL);
            lh_json_string(j, "signal", steps[k].signal);
            lh_json_string(j, "object_type", steps[k].object_type);
            lh_json_null(j, "callback"); /* summaries carry no resolved frames */
            lh_json_u64(j, "duration_us", steps[k].longest_us);
            lh_json_u64(j, "count", steps[k].count);
            lh_json_end_object(j);
        }
        lh_json_end_array(j);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
    /* Exact when read at rest (exit); a window made while a refresh runs may count in `seen`
     * before it is anywhere else: never below zero. */
    lh_json_u64(j, "windows_seen", seen);
    lh_json_u64(j, "windows_dropped", dropped);
    lh_json_u64(j, "windows_never_shown", seen > dropped + listed ? seen - dropped - listed : 0);
    lh_json_u64(j, "windows_popups", lh_load_relaxed(&windows_popups));
    lh_json_u64(j, "windows_limit", LH_WINDOWS);
}

static void after_fork(void) {
    /* The child has the parent's windows' memory but shows none of them itself. */
    memset(windows, 0, sizeof windows);
    memset(made, 0, sizeof made);
    lh_store_relaxed(&windows_high, 0);
    lh_store_relaxed(&made_high, 0);
    lh_store_relaxed(&made_count, 0);
    lh_store_relaxed(&windows_seen, 0);
    lh_store_relaxed(&windows_dropped, 0);
    lh_store_relaxed(&windows_popups, 0);
    /* The parent's watch of steps is this child's too (the count is copied): drop its share. */
    lh_watch_steps(-lh_load_relaxed(&waiting));
    lh_store_relaxed(&waiting, 0);
    lh_store_relaxed(&unpainted, 0);
}

const lh_detector lh_detector_window = {
    .name = "window",
    .after_fork = after_fork,
    .flush = flush,
    .summary = summary,
};

