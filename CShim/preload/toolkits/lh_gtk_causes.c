/*
 * lh_gtk_causes.c — GTK's layout requests and what causes them, told to the relayout detector
 * (detectors/lh_relayout.h) and to the runtime's cause context (runtime/lh_cause.h).
 *
 * Requests. GTK 3 and GTK 4 funnel every layout request through a few exported entry points (GTK 3:
 * gtk_widget_queue_resize, _queue_resize_no_redraw, _queue_allocate; GTK 4: gtk_widget_queue_resize,
 * _queue_allocate; gtk_layout_manager_layout_changed ends in gtk_widget_queue_resize). GTK is linked
 * -Bsymbolic, so its own calls to them (gtk_label_set_text, property setters, CSS, animations) skip
 * the PLT. But each entry point begins with g_return_if_fail (GTK_IS_WIDGET (widget)), which calls
 * g_type_check_instance_is_a through libgobject's PLT. So g_type_check_instance_is_a is interposed:
 * it forwards, and when its return address lies in one of the entry points (their dynsym extents,
 * read when GTK is found, however late it is loaded), that call is a request on the instance it
 * checked. The common call costs one subtraction and one comparison against the union of the
 * extents (0 until GTK is found: a plain forward); a return address inside the union but outside
 * every entry point costs a few comparisons more. Checked against gdb breakpoints on the entry
 * points: docs/causes.md.
 *
 * Causes. The application's tick callbacks (gtk_widget_add_tick_callback, called through the PLT)
 * run through a trampoline as dispatches with their cause record (born when added in layout or by a
 * deferred callback); the application's frame-clock "layout" handlers (g_signal_connect_data on a
 * GdkFrameClock, from outside libgtk) run through a trampoline as layout of that clock; the
 * application's reads of a widget's size (gtk_widget_get_allocated_width/height/baseline/size,
 * gtk_widget_get_allocation, GTK 4's gtk_widget_get_width/height/size) are noted. GTK's own handlers,
 * tick callbacks and reads are GTK's (CSS validation, animations) and are not rewritten.
 *
 * Runs on GTK's thread inside GTK's calls; our work holds the guard, keeps errno, allocates nothing
 * (trampoline records come from a pool mapped on first use), takes no lock.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <string.h>

#include "lh_cause.h"
#include "lh_gtk.h"
#include "lh_io.h"
#include "lh_relayout.h"

/* ---- the request entry points ------------------------------------------------------------------- */

typedef struct entry_extent {
    uintptr_t lo, size;
    unsigned hook;
} entry_extent;

#define MAX_ENTRIES 4
static entry_extent entries[MAX_ENTRIES]; /* written before a span is published */
static unsigned entry_count;
/* The entry points' extents covered by two spans (the union of each half when sorted, split where
 * the two spans cover least: GTK 3's three lie in two places 23 KiB apart, GTK 4's two are
 * adjacent); size 0: not recording (relaxed: plain values read on every g_type_check_instance_is_a;
 * a thread seeing a span before the start reads a range that contains no return address, or the
 * right one). */
static _Atomic uintptr_t span_lo[2], span_size[2];
static lh_range gtk_code;                 /* libgtk's code: handlers connected from it are GTK's */
static _Atomic uint64_t in_span_other;    /* stat: return addresses in the union, in no entry point */

static bool extent_of(const char *name, unsigned hook, lh_range libgtk, entry_extent *out) {
    void *fn = lh_host_function(name);
    if (fn == NULL || (uintptr_t)fn < libgtk.lo || (uintptr_t)fn >= libgtk.hi) return false;
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (dladdr1(fn, &info, (void **)&sym, RTLD_DL_SYMENT) == 0 || sym == NULL || sym->st_size == 0) return false;
    out->lo = (uintptr_t)fn;
    out->size = sym->st_size;
    out->hook = hook;
    return true;
}

void lh_gtk_causes_start(const lh_gtk_api *api, lh_range libgtk) {
    gtk_code = libgtk;
    if ((lh_proc.cfg.families & LH_FAMILY_LAYOUT) == 0 || entry_count != 0) return;
    static const struct {
        const char *name;
        unsigned hook;
        int major; /* 0: both */
    } names[] = {
        {"gtk_widget_queue_resize", LH_HOOK_gtk_widget_queue_resize, 0},
        {"gtk_widget_queue_resize_no_redraw", LH_HOOK_gtk_widget_queue_resize_no_redraw, 3},
        {"gtk_widget_queue_allocate", LH_HOOK_gtk_widget_queue_allocate, 0},
    };
    for (size_t i = 0; i < LH_ARRAY_COUNT(names) && entry_count < MAX_ENTRIES; i++) {
        if (names[i].major != 0 && names[i].major != api->major) continue;
        entry_extent e;
        if (!extent_of(names[i].name, names[i].hook, libgtk, &e)) continue;
        unsigned k = entry_count++;
        for (; k > 0 && entries[k - 1].lo > e.lo; k--) entries[k] = entries[k - 1]; /* sorted by address */
        entries[k] = e;
    }
    if (entry_count == 0) {
        lh_diag("loophunter: GTK's layout-request entry points were not found; layout requests are not recorded");
        return;
    }
    /* Two spans: entries [0, split) and [split, count), the split that covers least. */
    unsigned best = entry_count;
    uintptr_t best_bytes = UINTPTR_MAX;
    for (unsigned split = 1; split <= entry_count; split++) {
        uintptr_t bytes = entries[split - 1].lo + entries[split - 1].size - entries[0].lo;
        if (split < entry_count) bytes += entries[entry_count - 1].lo + entries[entry_count - 1].size - entries[split].lo;
        if (bytes < best_bytes) best_bytes = bytes, best = split;
    }
    uintptr_t lo0 = entries[0].lo, hi0 = entries[best - 1].lo + entries[best - 1].size;
    if (best < entry_count) {
        uintptr_t lo1 = entries[best].lo, hi1 = entries[entry_count - 1].lo + entries[entry_count - 1].size;
        lh_store_relaxed(&span_lo[1], lo1);
        /* release: the entries are in place before a span makes them used. */
        lh_store_release(&span_size[1], hi1 - lo1);
    }
    lh_store_relaxed(&span_lo[0], lo0);
    lh_store_release(&span_size[0], hi0 - lo0); /* release: as above */
}

/* The check made from inside entry point `hook`: a request on `instance` when it passes. */
static LH_NOINLINE __attribute__((cold)) int request_made(void *instance, lh_gtype type, unsigned hook) {
    __typeof__(lh_real_g_type_check_instance_is_a) real = LH_ORIGINAL(g_type_check_instance_is_a);
    int result = real != NULL ? real(instance, type) : 0;
    if (!result) return result; /* not a widget: GTK warns and returns, no request */
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_LAYOUT)) return result;
    LH_GUARDED(t);
    lh_count_hook_call(hook);
    lh_relayout_request(t, LH_HOOK_gtk_allocate, instance, hook);
    return result;
}

/* A g_type_check_instance_is_a called from inside a span: from an entry point (a request), or from
 * another function lying between two of them (forwarded). */
static LH_NOINLINE int in_span(void *instance, lh_gtype type, uintptr_t ra) {
    /* acquire: pairs with the release of the spans (the entries are complete). */
    if (lh_load_acquire(&span_size[0]) != 0)
        for (unsigned i = 0; i < entry_count; i++)
            if (ra - entries[i].lo < entries[i].size) return request_made(instance, type, entries[i].hook);
    lh_add_relaxed(&in_span_other, 1); /* stat */
    __typeof__(lh_real_g_type_check_instance_is_a) real = LH_ORIGINAL(g_type_check_instance_is_a);
    return real != NULL ? real(instance, type) : 0;
}

static LH_NOINLINE int resolving(void *instance, lh_gtype type) {
    __typeof__(lh_real_g_type_check_instance_is_a) real = LH_ORIGINAL(g_type_check_instance_is_a);
    return real != NULL ? real(instance, type) : 0;
}

/* The check every GTK type cast makes (G_TYPE_CHECK_INSTANCE_TYPE): forwarded; a call from inside a
 * request entry point is a request. The common path: two range checks of the return address, one
 * load of the original, a jump. */
LH_EXPORT int g_type_check_instance_is_a(void *instance, lh_gtype type) {
    uintptr_t ra = (uintptr_t)__builtin_return_address(0);
    if (LH_UNLIKELY(ra - lh_load_relaxed(&span_lo[0]) < lh_load_relaxed(&span_size[0]) ||
                    ra - lh_load_relaxed(&span_lo[1]) < lh_load_relaxed(&span_size[1])))
        return in_span(instance, type, ra);
    /* relaxed: the original's address is all that is published (see lh_hooks.h). */
    __typeof__(lh_real_g_type_check_instance_is_a) real =
        __atomic_load_n(&lh_real_g_type_check_instance_is_a, __ATOMIC_RELAXED);
    if (LH_LIKELY(real != NULL)) return real(instance, type);
    return resolving(instance, type);
}

/* ---- trampolines: the application's tick callbacks and frame-clock layout handlers ---------------- */

#define TRAMPOLINES 2048

enum { W_FREE = 0, W_LIVE = 1 };

typedef struct wrapped {
    _Atomic uint32_t state;
    bool handler;                 /* a layout handler (else a tick callback) */
    bool swapped;                 /* a layout handler connected G_CONNECT_SWAPPED */
    void (*fn)(void);             /* the application's tick callback or handler */
    void *data;
    lh_gnotify_fn notify;         /* tick callbacks */
    lh_gclosure_notify_fn destroy; /* handlers */
    const void *clock;            /* handlers: the frame clock */
    _Atomic lh_cause_ref cause;   /* tick callbacks: the cause of the first dispatch (0: none) */
} wrapped;

static lh_lazy_map pool_map;         /* wrapped[TRAMPOLINES], mapped on first use */
static _Atomic uint32_t next_claim;
static _Atomic uint64_t ticks_wrapped, handlers_wrapped, pool_full;

static wrapped *claim(void) {
    wrapped *pool = lh_lazy_map_get(&pool_map, sizeof(wrapped) * TRAMPOLINES);
    if (pool == NULL) return NULL; /* not mapped (or another thread maps it): skip this one */
    uint32_t start = lh_add_relaxed(&next_claim, 1);
    for (uint32_t n = 0; n < TRAMPOLINES; n++) {
        wrapped *w = &pool[(start + n) % TRAMPOLINES];
        uint32_t expected = W_FREE;
        /* acquire: the previous user's reads are done (it released with W_FREE). */
        if (lh_load_relaxed(&w->state) == W_FREE && lh_cas_acquire(&w->state, &expected, W_LIVE)) return w;
    }
    lh_add_relaxed(&pool_full, 1); /* stat */
    return NULL;
}

static void unclaim(wrapped *w) {
    lh_cause_ref ref = atomic_exchange_explicit(&w->cause, 0, memory_order_relaxed);
    if (ref != 0) lh_cause_release(ref);
    /* release: our reads of the record happen before the next claimer's writes. */
    lh_store_release(&w->state, W_FREE);
}

/* A tick callback's run: its first run carries its cause (added in layout, or by a deferred
 * callback); later runs are the clock's. */
static int tick_trampoline(void *widget, void *clock, void *arg) {
    wrapped *w = arg;
    /* relaxed: the record is read and cleared by GTK's thread only, which runs its callbacks. */
    lh_cause_ref ref = lh_load_relaxed(&w->cause) != 0 ? atomic_exchange_explicit(&w->cause, 0, memory_order_relaxed) : 0;
    lh_cause_outer outer = lh_cause_dispatch_begin(ref, (uintptr_t)w->fn);
    int keep = ((lh_gtick_fn)w->fn)(widget, clock, w->data);
    lh_cause_dispatch_end(outer);
    if (ref != 0) lh_cause_release(ref);
    return keep;
}

static void tick_notify(void *arg) {
    wrapped *w = arg;
    lh_gnotify_fn notify = w->notify;
    void *data = w->data;
    unclaim(w);
    if (notify != NULL) notify(data);
}

LH_EXPORT unsigned gtk_widget_add_tick_callback(void *widget, lh_gtick_fn callback, void *data, lh_gnotify_fn notify) {
    __typeof__(lh_real_gtk_widget_add_tick_callback) real = LH_ORIGINAL(gtk_widget_add_tick_callback);
    if (real == NULL) return 0;
    lh_tls *t = &lh_tls_data;
    wrapped *w = NULL;
    if (callback != NULL && t->guard == 0 && lh_cause_ready()) {
        LH_GUARDED(t);
        lh_count_hook_call(LH_HOOK_gtk_widget_add_tick_callback);
        w = claim();
        if (w != NULL) {
            w->fn = (void (*)(void))callback;
            w->data = data;
            w->notify = notify;
            w->destroy = NULL;
            w->clock = NULL;
            w->handler = false;
            w->swapped = false;
            lh_store_relaxed(&w->cause, lh_cause_born(t, LH_HOOK_gtk_widget_add_tick_callback, (uintptr_t)callback));
            lh_add_relaxed(&ticks_wrapped, 1); /* stat */
        }
    }
    if (w == NULL) return real(widget, callback, data, notify);
    return real(widget, tick_trampoline, w, tick_notify);
}

/* An application's "layout" handler of a frame clock runs: its requests are made in layout. */
typedef void (*layout_fn)(void *a, void *b);
static void layout_trampoline(void *clock, void *arg) {
    wrapped *w = arg;
    lh_cause_outer outer = lh_cause_phase_begin(w->clock, (uintptr_t)w->fn);
    ((layout_fn)w->fn)(clock, w->data);
    lh_cause_phase_end(outer);
}
static void layout_trampoline_swapped(void *arg, void *clock) {
    wrapped *w = arg;
    lh_cause_outer outer = lh_cause_phase_begin(w->clock, (uintptr_t)w->fn);
    ((layout_fn)w->fn)(w->data, clock);
    lh_cause_phase_end(outer);
}

static void layout_destroy(void *arg, void *closure) {
    wrapped *w = arg;
    lh_gclosure_notify_fn destroy = w->destroy;
    void *data = w->data;
    unclaim(w);
    if (destroy != NULL) destroy(data, closure);
}

/* Rewrites a "layout" connection of the application's to a frame clock (true: rewritten). */
static LH_NOINLINE bool wrap_layout_handler(void *instance, void (**handler)(void), void **data,
                                            lh_gclosure_notify_fn *destroy, int flags, uintptr_t caller) {
    lh_tls *t = &lh_tls_data;
    if (instance == NULL || t->guard != 0 || !lh_cause_ready()) return false;
    LH_GUARDED(t);
    const lh_gtk_api *g = lh_gtk();
    if (g == NULL || (caller >= gtk_code.lo && caller < gtk_code.hi)) return false; /* GTK's own sizer */
    if (!g->type_is_a(lh_gtype_of_instance(instance), g->frame_clock_type)) return false;
    wrapped *w = claim();
    if (w == NULL) return false;
    lh_count_hook_call(LH_HOOK_g_signal_connect_data);
    w->fn = *handler;
    w->data = *data;
    w->notify = NULL;
    w->destroy = *destroy;
    w->clock = instance;
    w->handler = true;
    w->swapped = (flags & LH_G_CONNECT_SWAPPED) != 0;
    lh_store_relaxed(&w->cause, 0);
    *handler = w->swapped ? (void (*)(void))layout_trampoline_swapped : (void (*)(void))layout_trampoline;
    *data = w;
    *destroy = layout_destroy;
    lh_add_relaxed(&handlers_wrapped, 1); /* stat */
    return true;
}

/* Every signal connection: only a frame clock's "layout" (by the application) is rewritten; the
 * rest is one comparison of the name's first byte. */
LH_EXPORT unsigned long g_signal_connect_data(void *instance, const char *signal, void (*handler)(void), void *data,
                                              lh_gclosure_notify_fn destroy, int flags) {
    __typeof__(lh_real_g_signal_connect_data) real = LH_ORIGINAL(g_signal_connect_data);
    if (real == NULL) return 0;
    if (LH_UNLIKELY(signal != NULL && signal[0] == 'l' && handler != NULL && strcmp(signal, "layout") == 0))
        wrap_layout_handler(instance, &handler, &data, &destroy, flags, (uintptr_t)__builtin_return_address(0));
    return real(instance, signal, handler, data, destroy, flags);
}

/* ---- handlers looked up by function or data ---------------------------------------------------------- */

enum { G_SIGNAL_MATCH_FUNC = 1 << 3, G_SIGNAL_MATCH_DATA = 1 << 4 };

typedef unsigned (*matched_fn)(void *instance, int mask, unsigned signal_id, uint32_t detail, void *closure,
                               void *func, void *data);
typedef unsigned long (*find_fn)(void *instance, int mask, unsigned signal_id, uint32_t detail, void *closure,
                                 void *func, void *data);

/* Runs `matched` (or `find`) once for each layout handler of ours on `instance` that the program's
 * (func, data) would match, with our trampoline and record in their place: the sum of what it
 * returned, or (`find`) the first handler found. */
static unsigned long for_each_match(matched_fn matched, find_fn find, void *instance, int mask, unsigned signal_id,
                                    uint32_t detail, void *closure, void *func, void *data) {
    /* relaxed: a hint; a handler being wrapped right now on another thread was not connected yet. */
    wrapped *pool = lh_lazy_map_peek(&pool_map);
    if ((mask & (G_SIGNAL_MATCH_FUNC | G_SIGNAL_MATCH_DATA)) == 0 || lh_load_relaxed(&handlers_wrapped) == 0 ||
        pool == NULL)
        return 0;
    unsigned long total = 0;
    for (size_t i = 0; i < TRAMPOLINES; i++) {
        wrapped *w = &pool[i];
        /* acquire: the record's fields were written before it went live. */
        if (lh_load_acquire(&w->state) != W_LIVE || !w->handler || w->clock != instance) continue;
        if ((mask & G_SIGNAL_MATCH_FUNC) && (void *)w->fn != func) continue;
        if ((mask & G_SIGNAL_MATCH_DATA) && w->data != data) continue;
        void *trampoline = w->swapped ? (void *)layout_trampoline_swapped : (void *)layout_trampoline;
        void *f = (mask & G_SIGNAL_MATCH_FUNC) ? trampoline : func, *d = (mask & G_SIGNAL_MATCH_DATA) ? (void *)w : data;
        if (find != NULL) {
            unsigned long id = find(instance, mask, signal_id, detail, closure, f, d);
            if (id != 0) return id;
        } else {
            total += matched(instance, mask, signal_id, detail, closure, f, d);
        }
    }
    return total;
}

#define MATCHED_HOOK(name, ret)                                                                     \
    LH_EXPORT ret name(void *instance, int mask, unsigned signal_id, uint32_t detail, void *closure, void *func, \
                       void *data) {                                                                \
        __typeof__(lh_real_##name) real = LH_ORIGINAL(name);                                        \
        if (real == NULL) return 0;                                                                 \
        ret ours = (ret)for_each_match(real, NULL, instance, mask, signal_id, detail, closure, func, data); \
        return ours + real(instance, mask, signal_id, detail, closure, func, data);                 \
    }
MATCHED_HOOK(g_signal_handlers_disconnect_matched, unsigned)
MATCHED_HOOK(g_signal_handlers_block_matched, unsigned)
MATCHED_HOOK(g_signal_handlers_unblock_matched, unsigned)

LH_EXPORT unsigned long g_signal_handler_find(void *instance, int mask, unsigned signal_id, uint32_t detail,
                                              void *closure, void *func, void *data) {
    __typeof__(lh_real_g_signal_handler_find) real = LH_ORIGINAL(g_signal_handler_find);
    if (real == NULL) return 0;
    unsigned long id = for_each_match(NULL, real, instance, mask, signal_id, detail, closure, func, data);
    return id != 0 ? id : real(instance, mask, signal_id, detail, closure, func, data);
}

/* ---- the application reading a layout's result ------------------------------------------------------ */

void lh_gtk_size_read(unsigned hook, void *widget) {
    (void)hook;
    if (widget == NULL || lh_gtk() == NULL) return;
    lh_slot *s = lh_table_slot(&lh_proc.table, widget, LH_HOOK_gtk_allocate);
    lh_cause_note_read(&lh_tls_data, widget, s != NULL ? lh_load_relaxed(&s->total) : 0);
}

void lh_gtk_size_read_into(unsigned hook, void *widget, lh_gtk_rect *allocation) {
    (void)allocation;
    lh_gtk_size_read(hook, widget);
}

void lh_gtk_size_read_into_baseline(unsigned hook, void *widget, lh_gtk_rect *allocation, int *baseline) {
    (void)allocation, (void)baseline;
    lh_gtk_size_read(hook, widget);
}

void lh_gtk_size_read_oriented(unsigned hook, void *widget, int orientation) {
    (void)orientation;
    lh_gtk_size_read(hook, widget);
}

/* ---- summary ------------------------------------------------------------------------------------- */

void lh_gtk_causes_summary(lh_json *j) {
    lh_json_begin_object(j, "requests");
    lh_json_begin_array(j, "entries");
    for (unsigned i = 0; i < entry_count && lh_load_acquire(&span_size[0]) != 0; i++) {
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "name", lh_hooks[entries[i].hook].name);
        lh_json_u64(j, "size", entries[i].size);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
    lh_json_u64(j, "checks_in_span_outside_entries", lh_load_relaxed(&in_span_other));
    lh_json_u64(j, "tick_callbacks_wrapped", lh_load_relaxed(&ticks_wrapped));
    lh_json_u64(j, "layout_handlers_wrapped", lh_load_relaxed(&handlers_wrapped));
    lh_json_u64(j, "trampolines_exhausted", lh_load_relaxed(&pool_full));
    lh_json_end_object(j);
}
