/*
 * lh_glib.c — GLib's glue: what GLib's logging, main-loop sources and signal emissions do, told to
 * the detectors that care (toolkit warnings, timers, windows). Used by GTK programs and by any
 * other GLib program (PyGObject, GJS); GLib is never linked, its functions are looked up at run
 * time (lh_host_function) once a hook of it was called.
 *
 * Logging (family log; the warning detector). GTK logs through g_log_structured_standard
 * (g_warning with G_LOG_USE_STRUCTURED), g_log and g_logv; inside libglib these meet in
 * g_log_structured_array, which the PLT does not reach, so the three entry points are interposed:
 *   g_logv: a generated row (its note formats a copy of the arguments); g_log: forwarded through
 *   g_logv, as GLib's own g_log does; g_log_structured_standard has no va_list variant: the message
 *   is formatted once with GLib's g_strdup_vprintf (what GLib does itself) and passed on as "%s"
 *   with that text, which GLib prints identically; under G_LOG_FLAG_RECURSION (GLib is out of
 *   memory) into a 1025-byte stack buffer, as GLib does. Only Gtk and Gdk messages are formatted.
 *
 * Sources (families timer and layout). Timeouts and idles made through the public API get a
 * trampoline of ours as their callback and a record of this glue's as their data, so every fire,
 * the return value and the end (the destroy notify) are seen: the timer detector counts them
 * (its own record, lh_timer.h), and each dispatch runs with its cause (lh_cause.h: a source added
 * while layout ran, or by a callback from layout, carries a cause record into its first dispatch).
 * The program's callback, data and notify are called exactly as GLib would have. Lookups by user
 * data are translated to the record GLib holds.
 *
 * Signal emissions (family window; the window detector): timed while a shown window waits for its
 * first frame (lh_steps_watched), as the steps on its way.
 *
 * Applications (family process; the hand-off detector): a GApplication's id, and whether this
 * process is its primary instance or a remote one that handed its command line to the primary
 * (asked when g_application_run returns, or after the program's own g_application_register; only
 * of a registered application, which GLib would otherwise warn about).
 *
 * Runs on the host's thread wherever it logs, adds a source or emits; our work runs with the
 * guard held (LH_GUARDED), errno kept; the host's own calls (logging, callbacks) run outside it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lh_cause.h"
#include "lh_glib.h"
#include "lh_gtk.h"
#include "lh_handoff.h"
#include "lh_runtime.h"
#include "lh_timer.h"
#include "lh_warning.h"
#include "lh_window.h"

/* ---- GLib's own functions, looked up once (a race resolves them twice, to the same values) -------- */

static char *(*strdup_vprintf)(const char *format, va_list args);
static void (*g_free_fn)(void *memory);
static void *(*current_source)(void);
static int (*source_is_destroyed)(void *source);
typedef int (*parse_name_fn)(const char *name, lh_gtype type, unsigned *id, uint32_t *detail, int force);
/* relaxed: the pointer value is all that is published; a race resolves it twice. */
static _Atomic(parse_name_fn) signal_parse_name;
static const void *timeout_funcs, *idle_funcs;

/* Whether the functions logging needs are there. */
static bool resolve_logging(void) {
    if (strdup_vprintf == NULL) {
        *(void **)&strdup_vprintf = lh_host_function("g_strdup_vprintf");
        *(void **)&g_free_fn = lh_host_function("g_free");
    }
    return strdup_vprintf != NULL && g_free_fn != NULL;
}

static void resolve_sources(void) {
    if (current_source != NULL) return;
    *(void **)&source_is_destroyed = lh_host_function("g_source_is_destroyed");
    timeout_funcs = lh_host_data("g_timeout_funcs");
    idle_funcs = lh_host_data("g_idle_funcs");
    *(void **)&current_source = lh_host_function("g_main_current_source");
}

/* ---- logging ------------------------------------------------------------------------------------- */

/* Row g_logv (and g_log through it): a copy of the arguments formatted, for GTK's messages only. */
void lh_glib_logging(unsigned hook, const char *domain, int level, const char *format, va_list args) {
    if (format == NULL || (level & LH_G_LOG_FLAG_RECURSION) || !lh_warning_domain(domain) || !resolve_logging()) return;
    va_list copy;
    va_copy(copy, args);
    char *message = strdup_vprintf(format, copy);
    va_end(copy);
    lh_warning_seen(hook, domain, level, format, message);
    g_free_fn(message);
}

/* g_log(domain, level, format, ...): GLib's own g_log is va_start + g_logv. */
LH_EXPORT void g_log(const char *domain, int level, const char *format, ...) {
    __typeof__(lh_real_g_logv) real = LH_ORIGINAL(g_logv);
    va_list args;
    va_start(args, format);
    lh_tls *t = &lh_tls_data;
    if (t->guard == 0 && lh_active(LH_FAMILY_LOG)) {
        LH_GUARDED(t);
        lh_count_hook_call(LH_HOOK_g_log);
        lh_glib_logging(LH_HOOK_g_log, domain, level, format, args);
    }
    if (real != NULL) real(domain, level, format, args);
    va_end(args);
}

/* Formats `format` as GLib does when it cannot allocate, and logs it as "%s". */
static void log_on_stack(__typeof__(lh_real_g_log_structured_standard) real, const char *domain, int level,
                         const char *file, const char *line, const char *func, const char *format, va_list args) {
    char buffer[1025];
    vsnprintf(buffer, sizeof buffer, format, args);
    real(domain, level, file, line, func, "%s", buffer);
}

LH_EXPORT void g_log_structured_standard(const char *domain, int level, const char *file, const char *line,
                                         const char *func, const char *format, ...) {
    __typeof__(lh_real_g_log_structured_standard) real = LH_ORIGINAL(g_log_structured_standard);
    if (real == NULL) return;
    va_list args;
    va_start(args, format);
    int saved = errno;
    bool glib = !(level & LH_G_LOG_FLAG_RECURSION) && resolve_logging();
    errno = saved;
    if (!glib) { /* out of memory, or not a GLib we know: format on the stack, log, nothing else */
        log_on_stack(real, domain, level, file, line, func, format, args);
        va_end(args);
        return;
    }
    char *message = strdup_vprintf(format, args); /* what GLib itself would do first */
    va_end(args);
    lh_tls *t = &lh_tls_data;
    if (t->guard == 0 && lh_active(LH_FAMILY_LOG)) {
        LH_GUARDED(t);
        lh_count_hook_call(LH_HOOK_g_log_structured_standard);
        if (lh_warning_domain(domain)) lh_warning_seen(LH_HOOK_g_log_structured_standard, domain, level, format, message);
    }
    real(domain, level, file, line, func, "%s", message);
    g_free_fn(message);
}

/* ---- sources ------------------------------------------------------------------------------------- */

enum { G_PRIORITY_DEFAULT = 0, G_PRIORITY_DEFAULT_IDLE = 200 };

/* A timeout or idle made through the public API, followed: the program's callback, data and
 * notify, and what is kept of it (the timer detector's record; the cause its first dispatch runs
 * with). GLib holds a pointer to this record as the source's data; the record lives until GLib's
 * destroy notify. Records come from a pool mapped on first use, claimed with compare-and-swap by
 * the thread adding the source and released by the thread GLib destroys it on. */
#define SOURCES 65536 /* live sources followed at once (the timer detector keeps fewer records: it counts the rest) */
enum { S_FREE = 0, S_LIVE = 1 };

typedef struct source_rec {
    _Atomic uint32_t state;     /* S_FREE / S_LIVE */
    unsigned hook;              /* the API it came from */
    bool idle;                  /* an idle (a timeout otherwise) */
    bool once;                  /* g_*_add_once: the callback returns nothing and runs once */
    lh_gsource_fn func;
    void *data;
    lh_gnotify_fn notify;
    lh_timer_rec *timer;        /* NULL: not followed by the timer detector */
    _Atomic lh_cause_ref cause; /* the cause its first dispatch runs with (0: none, or dispatched) */
} source_rec;

static lh_lazy_map sources_map = {.what = "GLib source records"}; /* source_rec[SOURCES], mapped on first use */
static _Atomic size_t sources_high;   /* records [0, high) were claimed at some point */
static _Atomic uint32_t sources_next;
static _Atomic uint64_t sources_full; /* stat */

static source_rec *claim_source(void) {
    source_rec *sources = lh_lazy_map_get(&sources_map, sizeof(source_rec) * SOURCES);
    if (sources == NULL) return NULL; /* not mapped (or another thread maps it): not followed */
    uint32_t start = lh_add_relaxed(&sources_next, 1);
    for (uint32_t n = 0; n < SOURCES; n++) {
        size_t i = (start + n) % SOURCES;
        uint32_t expected = S_FREE;
        /* acquire: the previous user's last reads are done (it released with S_FREE). */
        if (lh_load_relaxed(&sources[i].state) != S_FREE || !lh_cas_acquire(&sources[i].state, &expected, S_LIVE))
            continue;
        size_t high = lh_load_relaxed(&sources_high);
        /* release: a lookup scanning below the bound sees the record's fields once it is published. */
        while (high < i + 1 && !atomic_compare_exchange_weak_explicit(&sources_high, &high, i + 1, memory_order_release,
                                                                      memory_order_relaxed)) {
        }
        return &sources[i];
    }
    lh_add_relaxed(&sources_full, 1); /* stat */
    return NULL;
}

/* The first dispatch takes the cause (later runs of a repeating source are its own doing). */
static lh_cause_ref take_cause(source_rec *s) {
    /* relaxed: an exchange; the record it names was published with the source. */
    return lh_load_relaxed(&s->cause) != 0 ? atomic_exchange_explicit(&s->cause, 0, memory_order_relaxed) : 0;
}

/* The callback GLib calls: the program's, counted and judged around it, and run as a dispatch with
 * its cause. */
static int trampoline(void *arg) {
    source_rec *s = arg;
    lh_timer_rec *r = s->timer;
    lh_tls *t = &lh_tls_data;
    /* Not after an attach session ended: the source lives on with its trampoline, uncounted. */
    bool counted = t->guard == 0 && r != NULL && lh_active(LH_FAMILY_TIMER);
    if (counted) {
        LH_GUARDED(t);
        lh_timer_fire(t, r);
    }
    lh_cause_ref ref = take_cause(s);
    lh_cause_outer outer = lh_cause_dispatch_begin(ref, (uintptr_t)s->func);
    int keep = s->once ? (((lh_gonce_fn)(void (*)(void))s->func)(s->data), 0) : s->func(s->data);
    lh_cause_dispatch_end(outer);
    if (ref != 0) lh_cause_release(ref);
    if (counted) {
        LH_GUARDED(t);
        /* A source removed from inside its own callback ends with it, whatever it returns. */
        bool runs_on = keep && !(source_is_destroyed != NULL && current_source != NULL &&
                                 source_is_destroyed(current_source()));
        lh_timer_dispatched(t, r, runs_on);
    }
    return keep;
}

/* GLib is done with the source: the program's notify, then the record is free. */
static void notify_trampoline(void *arg) {
    source_rec *s = arg;
    lh_timer_rec *r = s->timer;
    bool mine = r != NULL && lh_timer_untrack(r);
    if (s->notify != NULL) s->notify(s->data);
    if (mine) lh_timer_release(r);
    lh_cause_ref ref = take_cause(s);
    if (ref != 0) lh_cause_release(ref);
    /* release: our reads of the record happen before the next claimer's writes. */
    lh_store_release(&s->state, S_FREE);
}

static bool is_once_hook(unsigned hook) { return hook == LH_HOOK_g_timeout_add_once || hook == LH_HOOK_g_idle_add_once; }

/* Puts the trampolines in place of (func, data, notify) when the source is followed (by the timer
 * detector, or for the causes of layout requests); otherwise leaves them. */
static bool wrap(unsigned hook, int64_t interval_ms, lh_gsource_fn *func, void **data, lh_gnotify_fn *notify) {
    lh_tls *t = &lh_tls_data;
    if (*func == NULL || t->guard != 0) return false;
    bool timers = lh_timer_ready(), causes = lh_cause_ready();
    if (!timers && !causes) return false;
    source_rec *s;
    {
        LH_GUARDED(t);
        lh_count_hook_call(hook);
        resolve_sources();
        s = claim_source();
        if (s == NULL) return false;
        s->hook = hook;
        s->idle = interval_ms < 0;
        s->once = is_once_hook(hook);
        s->func = *func;
        s->data = *data;
        s->notify = *notify;
        s->timer = timers ? lh_timer_track(hook, (uintptr_t)*func, (uintptr_t)*data, *notify, interval_ms, NULL, 0) : NULL;
        lh_store_relaxed(&s->cause, causes ? lh_cause_born(t, hook, (uintptr_t)*func) : 0);
    }
    *func = trampoline;
    *data = s;
    *notify = notify_trampoline;
    return true;
}

static unsigned timeout_full(unsigned hook, int priority, unsigned interval, lh_gsource_fn func, void *data,
                             lh_gnotify_fn notify) {
    __typeof__(lh_real_g_timeout_add_full) real = LH_ORIGINAL(g_timeout_add_full);
    if (real == NULL) return 0;
    wrap(hook, interval, &func, &data, &notify);
    return real(priority, interval, func, data, notify);
}

static unsigned seconds_full(unsigned hook, int priority, unsigned interval, lh_gsource_fn func, void *data,
                             lh_gnotify_fn notify) {
    __typeof__(lh_real_g_timeout_add_seconds_full) real = LH_ORIGINAL(g_timeout_add_seconds_full);
    if (real == NULL) return 0;
    wrap(hook, (int64_t)interval * 1000, &func, &data, &notify);
    return real(priority, interval, func, data, notify);
}

static unsigned idle_full(unsigned hook, int priority, lh_gsource_fn func, void *data, lh_gnotify_fn notify) {
    __typeof__(lh_real_g_idle_add_full) real = LH_ORIGINAL(g_idle_add_full);
    if (real == NULL) return 0;
    wrap(hook, -1, &func, &data, &notify);
    return real(priority, func, data, notify);
}

LH_EXPORT unsigned g_timeout_add(unsigned interval, lh_gsource_fn func, void *data) {
    return timeout_full(LH_HOOK_g_timeout_add, G_PRIORITY_DEFAULT, interval, func, data, NULL);
}
LH_EXPORT unsigned g_timeout_add_full(int priority, unsigned interval, lh_gsource_fn func, void *data,
                                      lh_gnotify_fn notify) {
    return timeout_full(LH_HOOK_g_timeout_add_full, priority, interval, func, data, notify);
}
LH_EXPORT unsigned g_timeout_add_seconds(unsigned interval, lh_gsource_fn func, void *data) {
    return seconds_full(LH_HOOK_g_timeout_add_seconds, G_PRIORITY_DEFAULT, interval, func, data, NULL);
}
LH_EXPORT unsigned g_timeout_add_seconds_full(int priority, unsigned interval, lh_gsource_fn func, void *data,
                                              lh_gnotify_fn notify) {
    return seconds_full(LH_HOOK_g_timeout_add_seconds_full, priority, interval, func, data, notify);
}
LH_EXPORT unsigned g_idle_add(lh_gsource_fn func, void *data) {
    return idle_full(LH_HOOK_g_idle_add, G_PRIORITY_DEFAULT_IDLE, func, data, NULL);
}
LH_EXPORT unsigned g_idle_add_full(int priority, lh_gsource_fn func, void *data, lh_gnotify_fn notify) {
    return idle_full(LH_HOOK_g_idle_add_full, priority, func, data, notify);
}

/* The _once variants: GLib implements them as a _full source whose callback runs once; a source
 * that is not followed goes to the program's own call. */
LH_EXPORT unsigned g_timeout_add_once(unsigned interval, lh_gonce_fn func, void *data) {
    lh_gsource_fn f = (lh_gsource_fn)(void (*)(void))func; /* only ever called as an lh_gonce_fn */
    lh_gnotify_fn notify = NULL;
    __typeof__(lh_real_g_timeout_add_full) full = LH_ORIGINAL(g_timeout_add_full);
    if (full != NULL && wrap(LH_HOOK_g_timeout_add_once, interval, &f, &data, &notify))
        return full(G_PRIORITY_DEFAULT, interval, f, data, notify);
    __typeof__(lh_real_g_timeout_add_once) real = LH_ORIGINAL(g_timeout_add_once);
    return real != NULL ? real(interval, func, data) : 0;
}
LH_EXPORT unsigned g_idle_add_once(lh_gonce_fn func, void *data) {
    lh_gsource_fn f = (lh_gsource_fn)(void (*)(void))func; /* only ever called as an lh_gonce_fn */
    lh_gnotify_fn notify = NULL;
    __typeof__(lh_real_g_idle_add_full) full = LH_ORIGINAL(g_idle_add_full);
    if (full != NULL && wrap(LH_HOOK_g_idle_add_once, -1, &f, &data, &notify))
        return full(G_PRIORITY_DEFAULT_IDLE, f, data, notify);
    __typeof__(lh_real_g_idle_add_once) real = LH_ORIGINAL(g_idle_add_once);
    return real != NULL ? real(func, data) : 0;
}

/* g_timeout_source_new*() / g_idle_source_new() + g_source_set_callback: only timeout and idle
 * sources are wrapped (other sources call their callback with other arguments). */
LH_EXPORT void g_source_set_callback(void *source, lh_gsource_fn func, void *data, lh_gnotify_fn notify) {
    __typeof__(lh_real_g_source_set_callback) real = LH_ORIGINAL(g_source_set_callback);
    if (real == NULL) return;
    lh_tls *t = &lh_tls_data;
    if (source != NULL && t->guard == 0 && (lh_timer_ready() || lh_cause_ready())) {
        {
            LH_GUARDED(t);
            resolve_sources();
        }
        /* GSource: callback_data, callback_funcs, source_funcs (the public struct's first fields). */
        const void *funcs = ((void *const *)source)[2];
        if (funcs != NULL && (funcs == timeout_funcs || funcs == idle_funcs))
            wrap(LH_HOOK_g_source_set_callback, funcs == idle_funcs ? -1 : 0, &func, &data, &notify);
    }
    real(source, func, data, notify);
}

/* The lookups by user data: GLib holds our record as the data; the program passes its own. `funcs`:
 * GLib's idle or timeout source functions, or NULL for any. A linear scan: these calls are rare. */
static void *record_for_data(const void *data, const void *funcs) {
    source_rec *sources = lh_lazy_map_peek(&sources_map);
    if (sources == NULL) return NULL;
    size_t high = lh_load_acquire(&sources_high);       /* acquire: records below it are complete */
    for (size_t i = 0; i < high; i++) {
        source_rec *s = &sources[i];
        if (lh_load_acquire(&s->state) != S_LIVE || s->data != data) continue;
        if (funcs == NULL || (funcs == idle_funcs && s->idle) || (funcs == timeout_funcs && !s->idle)) return s;
    }
    return NULL;
}

LH_EXPORT int g_source_remove_by_user_data(void *data) {
    __typeof__(lh_real_g_source_remove_by_user_data) real = LH_ORIGINAL(g_source_remove_by_user_data);
    if (real == NULL) return 0;
    void *r = record_for_data(data, NULL);
    return (r != NULL && real(r)) || real(data);
}

LH_EXPORT int g_source_remove_by_funcs_user_data(void *funcs, void *data) {
    __typeof__(lh_real_g_source_remove_by_funcs_user_data) real = LH_ORIGINAL(g_source_remove_by_funcs_user_data);
    if (real == NULL) return 0;
    void *r = record_for_data(data, funcs);
    return (r != NULL && real(funcs, r)) || real(funcs, data);
}

LH_EXPORT int g_idle_remove_by_data(void *data) {
    __typeof__(lh_real_g_idle_remove_by_data) real = LH_ORIGINAL(g_idle_remove_by_data);
    if (real == NULL) return 0;
    {
        LH_GUARDED(&lh_tls_data);
        resolve_sources();
    }
    void *r = record_for_data(data, idle_funcs);
    return (r != NULL && real(r)) || real(data);
}

LH_EXPORT void *g_main_context_find_source_by_user_data(void *context, void *data) {
    __typeof__(lh_real_g_main_context_find_source_by_user_data) real = LH_ORIGINAL(g_main_context_find_source_by_user_data);
    if (real == NULL) return NULL;
    void *r = record_for_data(data, NULL);
    void *found = r != NULL ? real(context, r) : NULL;
    return found != NULL ? found : real(context, data);
}

LH_EXPORT void *g_main_context_find_source_by_funcs_user_data(void *context, void *funcs, void *data) {
    __typeof__(lh_real_g_main_context_find_source_by_funcs_user_data) real =
        LH_ORIGINAL(g_main_context_find_source_by_funcs_user_data);
    if (real == NULL) return NULL;
    void *r = record_for_data(data, funcs);
    void *found = r != NULL ? real(context, funcs, r) : NULL;
    return found != NULL ? found : real(context, funcs, data);
}

/* ---- signal emissions ------------------------------------------------------------------------------ */

/* An emission that took long enough is a step on the way of the windows waiting. Guard held. */
static void emission_took(void *instance, unsigned signal_id, uint64_t started) {
    uint64_t us = (lh_now_ns() - started) / 1000;
    const lh_gtk_api *g = lh_gtk();
    if (us < LH_WINDOW_STEP_MIN_US || g == NULL || g->signal_name == NULL) return;
    const char *type = instance != NULL ? g->type_name(lh_gtype_of_instance(instance)) : NULL;
    lh_window_step(g->signal_name(signal_id), type != NULL ? type : "(unknown)", 0, us);
}

uintptr_t lh_glib_emission_begins(unsigned hook, void *instance, unsigned signal_id, uint32_t detail, va_list ap) {
    (void)hook, (void)instance, (void)signal_id, (void)detail, (void)ap;
    return lh_steps_watched() ? (uintptr_t)lh_now_ns() : 0;
}

void lh_glib_emission_ends(unsigned hook, uintptr_t started, void *instance, unsigned signal_id, uint32_t detail,
                           va_list ap) {
    (void)hook, (void)detail, (void)ap;
    if (started != 0) emission_took(instance, signal_id, started);
}

/* Whether an emission made through the variadic entry points is timed (counted when it is). */
static uint64_t emission_start(unsigned hook) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_WINDOW)) return 0;
    lh_count_hook_call(hook);
    return lh_steps_watched() ? lh_now_ns() : 0;
}

static void emission_end(void *instance, unsigned signal_id, uint64_t started) {
    lh_tls *t = &lh_tls_data;
    if (started == 0 || t->guard != 0) return;
    LH_GUARDED(t);
    emission_took(instance, signal_id, started);
}

/* g_signal_emit(instance, id, detail, ...): GLib's own implementation is this valist call. */
LH_EXPORT void g_signal_emit(void *instance, unsigned signal_id, uint32_t detail, ...) {
    __typeof__(lh_real_g_signal_emit_valist) real = LH_ORIGINAL(g_signal_emit_valist);
    if (real == NULL) return;
    uint64_t started = emission_start(LH_HOOK_g_signal_emit);
    va_list ap;
    va_start(ap, detail);
    real(instance, signal_id, detail, ap);
    va_end(ap);
    emission_end(instance, signal_id, started);
}

/* g_signal_emit_by_name(instance, "name::detail", ...): parsed as GLib does, then the valist call;
 * a name GLib cannot parse goes to the original with no arguments (it only warns). */
LH_EXPORT void g_signal_emit_by_name(void *instance, const char *detailed_signal, ...) {
    __typeof__(lh_real_g_signal_emit_valist) real = LH_ORIGINAL(g_signal_emit_valist);
    __typeof__(lh_real_g_signal_emit_by_name) by_name = LH_ORIGINAL(g_signal_emit_by_name);
    parse_name_fn parse = lh_load_relaxed(&signal_parse_name);
    if (parse == NULL) {
        LH_GUARDED(&lh_tls_data);
        parse = (parse_name_fn)lh_host_function("g_signal_parse_name");
        lh_store_relaxed(&signal_parse_name, parse);
    }
    unsigned id = 0;
    uint32_t detail = 0;
    if (real == NULL || parse == NULL) return; /* no GObject: nobody could have called this */
    /* An invalid name or instance: the original only warns (it never reads the arguments). */
    if (instance == NULL || detailed_signal == NULL ||
        !parse(detailed_signal, lh_gtype_of_instance(instance), &id, &detail, 1)) {
        if (by_name != NULL) by_name(instance, detailed_signal);
        return;
    }
    uint64_t started = emission_start(LH_HOOK_g_signal_emit_by_name);
    va_list ap;
    va_start(ap, detailed_signal);
    real(instance, id, detail, ap);
    va_end(ap);
    emission_end(instance, id, started);
}

/* ---- applications ------------------------------------------------------------------------------------ */

/* GIO's getters and GObject's signal connection, looked up once (a race resolves them twice, to
 * the same values). */
static const char *(*application_get_id)(void *application);
static int (*application_get_is_registered)(void *application);
static int (*application_get_is_remote)(void *application);
typedef unsigned long (*signal_connect_fn)(void *instance, const char *signal, void (*handler)(void), void *data,
                                           void *destroy, int flags);
static signal_connect_fn application_connect;

static bool resolve_application(void) {
    if (application_connect == NULL) {
        *(void **)&application_get_id = lh_host_function("g_application_get_application_id");
        *(void **)&application_get_is_registered = lh_host_function("g_application_get_is_registered");
        *(void **)&application_get_is_remote = lh_host_function("g_application_get_is_remote");
        *(void **)&application_connect = lh_host_function("g_signal_connect_data");
    }
    return application_get_id != NULL && application_get_is_registered != NULL && application_get_is_remote != NULL &&
           application_connect != NULL;
}

/* A registered application tells whether it is the primary instance (plain getters of its fields:
 * no allocation, no lock; an unregistered one is not asked, GLib would warn). */
static bool application_registered(void *application) {
    if (!application_get_is_registered(application)) return false;
    lh_handoff_app_registered(application_get_id(application), application_get_is_remote(application) != 0);
    return true;
}

/* "notify::is-registered": GIO registers the application inside g_application_run (a call within
 * libgio the PLT does not show) and notifies the property with is-remote already set. A remote
 * instance is unregistered again before g_application_run returns, so this is the moment to ask. */
static void application_notified(void *application, void *pspec, void *data) {
    (void)pspec, (void)data;
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0) return;
    LH_GUARDED(t);
    application_registered(application);
}

/* g_application_run begins: the id now; primary or remote once GIO has registered it. The handler is
 * GObject's usual signal connection (GLib allocates it, as for the frame clocks' handlers); a
 * program that registered the application itself has told already. */
void lh_glib_application_runs(unsigned hook, void *application, int argc, char **argv) {
    (void)hook, (void)argc, (void)argv;
    if (application == NULL || !resolve_application() || application_registered(application)) return;
    lh_handoff_app_running(application_get_id(application));
    application_connect(application, "notify::is-registered", (void (*)(void))application_notified, NULL, NULL, 0);
}

void lh_glib_application_registered(unsigned hook, int registered, void *application, void *cancellable,
                                    void **error) {
    (void)hook, (void)cancellable, (void)error;
    if (registered && application != NULL && resolve_application()) application_registered(application);
}
