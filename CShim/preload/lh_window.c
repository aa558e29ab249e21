/*
 * lh_window.c — windows' time to first frame (family "window"): from a toplevel window's creation,
 * showing or mapping to its first painted frame, with the slowest steps on the way; a
 * `slow-window` report past LOOPHUNTER_WINDOW_MS; every window listed in the summary.
 *
 *   toykit: tk_loop_add_root (the window is mapped) → the loop's next tk_loop_frame_done; the
 *           steps are the timer and idle callbacks run meanwhile (tk_source_dispatch, lh_timer.c).
 *   GTK:    g_object_new of a GtkWindow (lh_gtk.c) or its first gtk_widget_show[_all] /
 *           gtk_window_present / gtk_widget_set_visible(TRUE) → the first "after-paint" of its
 *           frame clock; the steps are the signal emissions (g_signal_emit*), timed only while a
 *           shown window waits for its first frame.
 *
 * Runs in hooks on the host's GUI thread (guard held): no allocation (a static table of
 * LH_WINDOWS records, claimed with compare-and-swap), no locks, no stdio. Window records are
 * written by the thread that owns the window (GTK and toykit are single-threaded per window); the
 * summary reads them at exit (relaxed, statistics). A finalized GTK window is forgotten (lh_gtk.c
 * calls lh_window_forget from its finalize wrapper), so no dead window is ever called into.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "lh_gtk.h"
#include "lh_preload.h"

#define LH_WINDOWS 64
#define LH_WINDOW_STEPS 16
#define LH_WINDOW_REPORT_STEPS 8
#define LH_WINDOW_PCS 32
#define LH_STEP_MIN_US 1000 /* shorter signal emissions are not worth listing */

enum { W_FREE = 0, W_PENDING = 1, W_PAINTED = 2, W_GONE = 3 };

typedef struct lh_window_rec {
    _Atomic uint32_t state;           /* W_*: CAS from FREE by the claimer; then its thread's */
    const void *object;
    const void *loop;                 /* toykit: its TkLoop; GTK: NULL */
    const lh_toolkit *toolkit;
    unsigned hook;                    /* the hook that saw it created (the report's hook) */
    bool shown;                       /* shown or mapped: the clock runs from start_ns */
    bool reported;
    const char *since;                /* "creation", "show", "map" */
    uint64_t created_ns, start_ns, painted_ns;
    char type[64], name[64], title[128];
    uint32_t pc_count;
    uintptr_t pcs[LH_WINDOW_PCS];     /* where it was created */
    uint32_t step_count;
    lh_report_step steps[LH_WINDOW_STEPS];
} lh_window_rec;

static lh_window_rec windows[LH_WINDOWS];
static _Atomic size_t windows_high;     /* records [0, high) were claimed at some point */
static _Atomic uint64_t windows_dropped; /* windows beyond LH_WINDOWS (not tracked) */
/* Windows waiting for their first frame. Relaxed: a hint that makes the hot paths (signal
 * emission, frame end) skip everything when 0. */
static _Atomic int waiting;
/* Windows not painted yet, shown or not (relaxed: a hint for the frame-end paths). */
static _Atomic int unpainted;

bool lh_windows_waiting(void) { return atomic_load_explicit(&waiting, memory_order_relaxed) > 0; }
bool lh_windows_unpainted(void) { return atomic_load_explicit(&unpainted, memory_order_relaxed) > 0; }

static uint64_t us_since_start(uint64_t ns) { return ns > lh_proc.start_ns ? (ns - lh_proc.start_ns) / 1000 : 0; }

static void copy_text(char *dst, size_t cap, const char *s) {
    size_t n = s != NULL ? strnlen(s, cap - 1) : 0;
    if (n > 0) memcpy(dst, s, n);
    dst[n] = '\0';
}

static lh_window_rec *find(const void *object) {
    size_t high = atomic_load_explicit(&windows_high, memory_order_acquire);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        uint32_t s = atomic_load_explicit(&w->state, memory_order_acquire);
        if ((s == W_PENDING || s == W_PAINTED) && w->object == object) return w;
    }
    return NULL;
}

static void refresh_names(lh_window_rec *w) {
    const lh_toolkit *tk = w->toolkit;
    copy_text(w->type, sizeof w->type, tk->type_name != NULL ? tk->type_name(w->object) : NULL);
    copy_text(w->name, sizeof w->name, tk->name_of != NULL ? tk->name_of(w->object) : NULL);
    const lh_gtk_api *g = tk == &lh_toolkit_gtk ? lh_gtk() : NULL;
    if (g != NULL && g->window_get_title != NULL) copy_text(w->title, sizeof w->title, g->window_get_title((void *)w->object));
}

static void start_clock(lh_window_rec *w, const char *since, uint64_t now) {
    w->shown = true;
    w->since = since;
    w->start_ns = now;
    atomic_fetch_add_explicit(&waiting, 1, memory_order_relaxed);
}

void lh_window_created(const lh_toolkit *tk, unsigned hook, const void *object, const void *loop, bool mapped) {
    if (find(object) != NULL) return;
    lh_window_rec *w = NULL;
    for (size_t i = 0; i < LH_WINDOWS && w == NULL; i++) {
        uint32_t expected = W_FREE;
        /* acquire: the record's previous contents are no one's any more. */
        if (atomic_load_explicit(&windows[i].state, memory_order_relaxed) == W_FREE &&
            atomic_compare_exchange_strong_explicit(&windows[i].state, &expected, W_GONE, memory_order_acquire,
                                                    memory_order_relaxed))
            w = &windows[i];
    }
    if (w == NULL) {
        atomic_fetch_add_explicit(&windows_dropped, 1, memory_order_relaxed); /* stat */
        return;
    }
    uint64_t now = lh_now_ns();
    memset((char *)w + sizeof w->state, 0, sizeof *w - sizeof w->state);
    w->object = object;
    w->loop = loop;
    w->toolkit = tk;
    w->hook = hook;
    w->since = "creation";
    w->created_ns = w->start_ns = now;
    w->pc_count = lh_capture_stack(w->pcs, LH_WINDOW_PCS);
    refresh_names(w);
    if (mapped) start_clock(w, "map", now);
    atomic_fetch_add_explicit(&unpainted, 1, memory_order_relaxed);
    /* release: the record is complete before it is findable. */
    atomic_store_explicit(&w->state, W_PENDING, memory_order_release);
    size_t high = atomic_load_explicit(&windows_high, memory_order_relaxed);
    size_t index = (size_t)(w - windows) + 1;
    while (high < index && !atomic_compare_exchange_weak_explicit(&windows_high, &high, index, memory_order_release,
                                                                 memory_order_relaxed)) {
    }
}

void lh_window_shown(const void *object) {
    lh_window_rec *w = find(object);
    if (w != NULL && !w->shown && atomic_load_explicit(&w->state, memory_order_relaxed) == W_PENDING)
        start_clock(w, "show", lh_now_ns());
}

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
        .created_us = us_since_start(w->start_ns),
        .first_frame_us = painted ? us_since_start(w->painted_ns) : 0,
        .painted = painted,
        .ttff_ms = ms,
        .steps = steps,
        .step_count = slowest(w, steps, LH_WINDOW_REPORT_STEPS),
    };
    lh_breach b = {
        .kind = "slow-window",
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

static void painted(lh_tls *t, lh_window_rec *w, uint64_t now) {
    if (!w->shown) w->start_ns = w->created_ns; /* painted without a show we saw: from creation */
    else atomic_fetch_sub_explicit(&waiting, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&unpainted, 1, memory_order_relaxed);
    w->painted_ns = now;
    refresh_names(w); /* alive now; the title is usually set after creation */
    atomic_store_explicit(&w->state, W_PAINTED, memory_order_release);
    if ((now - w->start_ns) / 1000000u > lh_proc.cfg.window_ms) report(t, w, now, true);
}

void lh_window_frame(lh_tls *t, const void *loop_or_clock) {
    uint64_t now = 0;
    const lh_gtk_api *g = NULL;
    size_t high = atomic_load_explicit(&windows_high, memory_order_acquire);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        if (atomic_load_explicit(&w->state, memory_order_acquire) != W_PENDING) continue;
        bool match;
        if (w->toolkit == &lh_toolkit_gtk) {
            if (g == NULL) g = lh_gtk();
            match = g != NULL && g->widget_get_frame_clock != NULL &&
                    g->widget_get_frame_clock((void *)w->object) == loop_or_clock;
        } else {
            match = w->loop == loop_or_clock;
        }
        if (!match) continue;
        if (now == 0) now = lh_now_ns();
        painted(t, w, now);
    }
}

void lh_window_step(const char *signal, const char *object_type, uintptr_t callback, uint64_t us) {
    size_t high = atomic_load_explicit(&windows_high, memory_order_acquire);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        if (atomic_load_explicit(&w->state, memory_order_acquire) != W_PENDING || !w->shown) continue;
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
    size_t high = atomic_load_explicit(&windows_high, memory_order_acquire);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        uint32_t s = atomic_load_explicit(&w->state, memory_order_acquire);
        if ((s != W_PENDING && s != W_PAINTED) || w->object != object) continue;
        if (s == W_PENDING && w->shown) atomic_fetch_sub_explicit(&waiting, 1, memory_order_relaxed);
        if (s == W_PENDING) atomic_fetch_sub_explicit(&unpainted, 1, memory_order_relaxed);
        w->object = NULL;
        /* A window shown and gone before its first frame stays listed (never painted), a painted
         * one too; one never shown (a menu or tooltip window GTK made and dropped) frees its record. */
        uint32_t next = s == W_PAINTED ? W_PAINTED : w->shown ? W_GONE : W_FREE;
        atomic_store_explicit(&w->state, next, memory_order_release);
    }
}

void lh_window_forget_loop(const void *loop) {
    size_t high = atomic_load_explicit(&windows_high, memory_order_acquire);
    for (size_t i = 0; i < high; i++)
        if (windows[i].loop == loop && windows[i].object != NULL) lh_window_forget(windows[i].object);
}

void lh_window_flush(lh_tls *t) {
    if ((lh_proc.cfg.families & LH_FAMILY_WINDOW) == 0) return;
    uint64_t now = lh_now_ns();
    size_t high = atomic_load_explicit(&windows_high, memory_order_acquire);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        uint32_t s = atomic_load_explicit(&w->state, memory_order_acquire);
        /* Shown and still waiting (or gone while waiting) past the limit: never painted. */
        if ((s == W_PENDING || s == W_GONE) && w->shown && !w->reported && w->painted_ns == 0 &&
            (now - w->start_ns) / 1000000u > lh_proc.cfg.window_ms)
            report(t, w, now, false);
    }
}

void lh_window_summary(lh_json *j) {
    if ((lh_proc.cfg.families & LH_FAMILY_WINDOW) == 0) {
        lh_json_null(j, "windows");
        return;
    }
    lh_json_u64(j, "window_ms", lh_proc.cfg.window_ms);
    lh_json_bool(j, "windows_truncated", atomic_load_explicit(&windows_dropped, memory_order_relaxed) != 0);
    lh_json_begin_array(j, "windows");
    size_t high = atomic_load_explicit(&windows_high, memory_order_acquire);
    for (size_t i = 0; i < high; i++) {
        lh_window_rec *w = &windows[i];
        uint32_t s = atomic_load_explicit(&w->state, memory_order_acquire);
        bool was_painted = w->painted_ns != 0;
        /* Windows never shown nor painted (GTK's menus and tooltips in waiting) are not listed. */
        if (s == W_FREE || w->created_ns == 0 || (!w->shown && !was_painted)) continue;
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "type", w->type[0] != '\0' ? w->type : NULL);
        lh_json_string(j, "name", w->name[0] != '\0' ? w->name : NULL);
        lh_json_string(j, "title", w->title[0] != '\0' ? w->title : NULL);
        lh_json_string(j, "since", w->shown || was_painted ? w->since : "creation");
        lh_json_u64(j, "created_us", us_since_start(w->shown ? w->start_ns : w->created_ns));
        if (was_painted) {
            lh_json_u64(j, "first_frame_us", us_since_start(w->painted_ns));
            lh_json_u64(j, "time_to_first_frame_ms", (w->painted_ns - w->start_ns) / 1000000u);
        } else {
            lh_json_null(j, "first_frame_us");
            lh_json_null(j, "time_to_first_frame_ms");
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
}

void lh_window_reset_after_fork(void) {
    /* The child has the parent's windows' memory but shows none of them itself. */
    memset(windows, 0, sizeof windows);
    atomic_store_explicit(&windows_high, 0, memory_order_relaxed);
    atomic_store_explicit(&windows_dropped, 0, memory_order_relaxed);
    atomic_store_explicit(&waiting, 0, memory_order_relaxed);
    atomic_store_explicit(&unpainted, 0, memory_order_relaxed);
}

/* ---- hooks ----------------------------------------------------------------------------------- */

/* Runs `note` (guard held, errno kept) when the window family is on, then forwards. */
#define NOTE_THEN_FORWARD(hook, note, forward)                                                      \
    do {                                                                                            \
        lh_tls *t_ = &lh_tls_data;                                                                  \
        if (t_->guard == 0 && lh_active(LH_FAMILY_WINDOW)) {                                        \
            int saved_ = errno;                                                                     \
            t_->guard++;                                                                            \
            lh_count_hook_call(hook);                                                               \
            note;                                                                                   \
            t_->guard--;                                                                            \
            errno = saved_;                                                                         \
        }                                                                                           \
        forward;                                                                                    \
    } while (0)

typedef void (*object_fn)(void *);
typedef void (*visible_fn)(void *, int);
typedef void (*frame_done_fn)(void *, unsigned long);

/* toykit: a root added to a loop is a window mapped now. */
LH_EXPORT void tk_loop_add_root(void *loop, void *root) {
    void (*real)(void *, void *) = (void (*)(void *, void *))lh_hook_original(LH_HOOK_tk_loop_add_root);
    NOTE_THEN_FORWARD(LH_HOOK_tk_loop_add_root,
                      lh_window_created(&lh_toolkit_toykit, LH_HOOK_tk_loop_add_root, root, loop, true),
                      if (real != NULL) real(loop, root));
}

/* toykit: the loop painted a frame. */
LH_EXPORT void tk_loop_frame_done(void *loop, unsigned long frame) {
    frame_done_fn real = (frame_done_fn)lh_hook_original(LH_HOOK_tk_loop_frame_done);
    NOTE_THEN_FORWARD(LH_HOOK_tk_loop_frame_done, if (lh_windows_unpainted()) lh_window_frame(t_, loop),
                      if (real != NULL) real(loop, frame));
}

LH_EXPORT void gtk_widget_show(void *widget) {
    object_fn real = (object_fn)lh_hook_original(LH_HOOK_gtk_widget_show);
    NOTE_THEN_FORWARD(LH_HOOK_gtk_widget_show, lh_window_shown(widget), if (real != NULL) real(widget));
}

LH_EXPORT void gtk_widget_show_all(void *widget) {
    object_fn real = (object_fn)lh_hook_original(LH_HOOK_gtk_widget_show_all);
    NOTE_THEN_FORWARD(LH_HOOK_gtk_widget_show_all, lh_window_shown(widget), if (real != NULL) real(widget));
}

LH_EXPORT void gtk_window_present(void *window) {
    object_fn real = (object_fn)lh_hook_original(LH_HOOK_gtk_window_present);
    NOTE_THEN_FORWARD(LH_HOOK_gtk_window_present, lh_window_shown(window), if (real != NULL) real(window));
}

LH_EXPORT void gtk_widget_set_visible(void *widget, int visible) {
    visible_fn real = (visible_fn)lh_hook_original(LH_HOOK_gtk_widget_set_visible);
    NOTE_THEN_FORWARD(LH_HOOK_gtk_widget_set_visible, if (visible) lh_window_shown(widget),
                      if (real != NULL) real(widget, visible));
}

/* ---- signal emissions, timed while a window waits for its first frame --------------------------- */

typedef void (*emit_valist_fn)(void *, unsigned, uint32_t, va_list);
typedef int (*parse_name_fn)(const char *, lh_gtype, unsigned *, uint32_t *, int);
typedef void (*emit_by_name_fn)(void *, const char *, ...);

static void timed_step(void *instance, unsigned signal_id, uint64_t started) {
    lh_tls *t = &lh_tls_data;
    uint64_t us = (lh_now_ns() - started) / 1000;
    const lh_gtk_api *g = lh_gtk();
    if (us < LH_STEP_MIN_US || t->guard != 0 || g == NULL || g->signal_name == NULL) return;
    int saved = errno;
    t->guard++;
    const char *type = instance != NULL ? g->type_name(lh_gtype_of_instance(instance)) : NULL;
    lh_window_step(g->signal_name(signal_id), type != NULL ? type : "(unknown)", 0, us);
    t->guard--;
    errno = saved;
}

/* Whether this emission is timed: a window waits, and we are not inside our own work. */
static bool timing(void) {
    return lh_windows_waiting() && lh_tls_data.guard == 0 && lh_active(LH_FAMILY_WINDOW);
}

LH_EXPORT void g_signal_emit_valist(void *instance, unsigned signal_id, uint32_t detail, va_list ap) {
    emit_valist_fn real = (emit_valist_fn)lh_hook_original(LH_HOOK_g_signal_emit_valist);
    if (real == NULL) return;
    if (!timing()) {
        real(instance, signal_id, detail, ap);
        return;
    }
    uint64_t started = lh_now_ns();
    real(instance, signal_id, detail, ap);
    timed_step(instance, signal_id, started);
}

/* g_signal_emit(instance, id, detail, ...): GLib's own implementation is this valist call. */
LH_EXPORT void g_signal_emit(void *instance, unsigned signal_id, uint32_t detail, ...) {
    emit_valist_fn real = (emit_valist_fn)lh_hook_original(LH_HOOK_g_signal_emit_valist);
    if (real == NULL) return;
    bool timed = timing();
    uint64_t started = timed ? lh_now_ns() : 0;
    va_list ap;
    va_start(ap, detail);
    real(instance, signal_id, detail, ap);
    va_end(ap);
    if (timed) timed_step(instance, signal_id, started);
}

/* g_signal_parse_name, resolved on first use (GObject is loaded: its function called us). */
static parse_name_fn parse_name(void) {
    static _Atomic(parse_name_fn) fn;
    /* relaxed: the pointer value is all that is published; a race resolves it twice. */
    parse_name_fn f = atomic_load_explicit(&fn, memory_order_relaxed);
    if (f == NULL) {
        int saved = errno;
        lh_tls_data.guard++;
        f = (parse_name_fn)lh_host_function("g_signal_parse_name");
        lh_tls_data.guard--;
        errno = saved;
        atomic_store_explicit(&fn, f, memory_order_relaxed);
    }
    return f;
}

/* g_signal_emit_by_name(instance, "name::detail", ...): parsed as GLib does, then the valist
 * call; a name GLib cannot parse goes to the original with no arguments (it only warns). */
LH_EXPORT void g_signal_emit_by_name(void *instance, const char *detailed_signal, ...) {
    emit_valist_fn real = (emit_valist_fn)lh_hook_original(LH_HOOK_g_signal_emit_valist);
    emit_by_name_fn by_name = (emit_by_name_fn)lh_hook_original(LH_HOOK_g_signal_emit_by_name);
    parse_name_fn parse = parse_name();
    unsigned id = 0;
    uint32_t detail = 0;
    if (real == NULL || parse == NULL) return; /* no GObject: nobody could have called this */
    /* An invalid name or instance: the original only warns (it never reads the arguments). */
    if (instance == NULL || detailed_signal == NULL ||
        !parse(detailed_signal, lh_gtype_of_instance(instance), &id, &detail, 1)) {
        if (by_name != NULL) by_name(instance, detailed_signal);
        return;
    }
    bool timed = timing();
    uint64_t started = timed ? lh_now_ns() : 0;
    va_list ap;
    va_start(ap, detailed_signal);
    real(instance, id, detail, ap);
    va_end(ap);
    if (timed) timed_step(instance, id, started);
}
