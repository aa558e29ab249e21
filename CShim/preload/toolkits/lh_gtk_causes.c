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
 * checked. The common call costs one subtraction and one comparison against the smallest range
 * holding every entry point (empty until GTK is found: a plain forward); a return address inside
 * that range but outside every entry point costs a few comparisons more. Checked against gdb
 * breakpoints on the entry points: docs/causes.md.
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
    uintptr_t offset, size; /* from lh_near_lo */
    unsigned hook;
} entry_extent;

#define MAX_ENTRIES 4
static entry_extent entries[MAX_ENTRIES]; /* sorted by address; written before lh_near_size is published */
static unsigned entry_count;
/* The smallest range that holds every entry point (GTK 4's two are adjacent: 531 bytes; GTK 3's
 * three lie in two places 23 KiB apart, and about 7 % of GTK 3's type checks come from the
 * functions between them), and within it the widest gap between two entry points, which such
 * checks leave after one more comparison. lh_near_size 0: not recording. relaxed on the hot path:
 * two plain values; a thread that sees lh_near_size before lh_near_lo tests a range that holds no
 * return address of an entry point, or the right one, and lh_near_entry() reads lh_near_size again
 * with acquire before it reads the rest. */
_Atomic uintptr_t lh_near_lo LH_HIDDEN, lh_near_size LH_HIDDEN; /* read by the assembly below */
static uintptr_t gap_offset, gap_size;    /* from lh_near_lo; written before lh_near_size is published */
static lh_range gtk_code;                 /* libgtk's code: handlers connected from it are GTK's */

static bool extent_of(const char *name, unsigned hook, lh_range libgtk, uintptr_t *lo, entry_extent *out) {
    void *fn = lh_host_function(name);
    if (fn == NULL || (uintptr_t)fn < libgtk.lo || (uintptr_t)fn >= libgtk.hi) return false;
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (dladdr1(fn, &info, (void **)&sym, RTLD_DL_SYMENT) == 0 || sym == NULL || sym->st_size == 0) return false;
    *lo = (uintptr_t)fn;
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
    uintptr_t lo[MAX_ENTRIES];
    for (size_t i = 0; i < LH_ARRAY_COUNT(names) && entry_count < MAX_ENTRIES; i++) {
        if (names[i].major != 0 && names[i].major != api->major) continue;
        entry_extent e;
        uintptr_t at;
        if (!extent_of(names[i].name, names[i].hook, libgtk, &at, &e)) continue;
        unsigned k = entry_count++;
        for (; k > 0 && lo[k - 1] > at; k--) lo[k] = lo[k - 1], entries[k] = entries[k - 1]; /* by address */
        lo[k] = at;
        entries[k] = e;
    }
    if (entry_count == 0) {
        lh_diag("loophunter: GTK's layout-request entry points were not found; layout requests are not recorded");
        return;
    }
    uintptr_t hi = 0;
    for (unsigned i = 0; i < entry_count; i++) {
        entries[i].offset = lo[i] - lo[0];
        if (lo[i] + entries[i].size > hi) hi = lo[i] + entries[i].size;
    }
    for (unsigned i = 0; i + 1 < entry_count; i++) {
        uintptr_t end = entries[i].offset + entries[i].size;
        if (entries[i + 1].offset > end && entries[i + 1].offset - end > gap_size)
            gap_offset = end, gap_size = entries[i + 1].offset - end;
    }
    lh_store_relaxed(&lh_near_lo, lo[0]);
    /* release: the entries and near_lo are in place before the range makes them used. */
    lh_store_release(&lh_near_size, hi - lo[0]);
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

/* The original, once known; until then a function that looks it up. Kept here rather than read
 * from lh_real_g_type_check_instance_is_a so the hot path needs no NULL test: the definition it
 * finds is libgobject's (or that of an interposer preloaded after us), and libgobject is never
 * unloaded (-z nodelete: GType cannot be unloaded), so the pointer stays valid for good.
 * relaxed: the function's address is all that is published. */
typedef int (*type_check_fn)(void *instance, lh_gtype type);
static int type_check_unresolved(void *instance, lh_gtype type);
_Atomic type_check_fn lh_type_check_forward LH_HIDDEN = type_check_unresolved; /* read by the assembly below */

static LH_NOINLINE int type_check_unresolved(void *instance, lh_gtype type) {
    __typeof__(lh_real_g_type_check_instance_is_a) real = LH_ORIGINAL(g_type_check_instance_is_a);
    if (real == NULL) return 0; /* no GObject in the process: nothing is an instance of anything */
    lh_store_relaxed(&lh_type_check_forward, real);
    return real(instance, type);
}

/* A check whose return address lies `offset` bytes into the entry points' range: from an entry
 * point (a request), or from a function lying between two of them (forwarded). */
int lh_near_entry(void *instance, lh_gtype type, uintptr_t offset) LH_HIDDEN LH_NOINLINE;
int lh_near_entry(void *instance, lh_gtype type, uintptr_t offset) {
    /* acquire: pairs with the release of lh_near_size (the gap and the entries are complete). */
    if (lh_load_acquire(&lh_near_size) != 0 && offset - gap_offset >= gap_size)
        for (unsigned i = 0; i < entry_count; i++)
            if (offset - entries[i].offset < entries[i].size) return request_made(instance, type, entries[i].hook);
    return lh_load_relaxed(&lh_type_check_forward)(instance, type);
}

/* The check every GTK type test makes (G_TYPE_CHECK_INSTANCE_TYPE), 3.7 million calls in a 20-frame
 * run of the layout-heavy GTK 3 benchmark: forwarded; a call from inside a request entry point is a
 * request. The common path is one range test of the return address and a jump to the original.
 * On x86-64 it is written in assembly, five instructions, because compilers do not fold a relaxed
 * atomic load into an arithmetic instruction (seven from C). Each of the three loads is one
 * aligned 8-byte load, as lh_load_relaxed makes; the range's offset is lh_near_entry's third
 * argument (rdx). The function begins with endbr64 when built for CET. */
#if defined(__x86_64__)
#if defined(__CET__)
#define LH_ENDBR "    endbr64\n"
#else
#define LH_ENDBR ""
#endif
__asm__(".text\n"
        ".p2align 4\n"
        ".globl g_type_check_instance_is_a\n"
        ".type g_type_check_instance_is_a, @function\n"
        "g_type_check_instance_is_a:\n" LH_ENDBR
        "    movq (%rsp), %rdx\n"              /* the return address */
        "    subq lh_near_lo(%rip), %rdx\n"    /* its offset into the range */
        "    cmpq lh_near_size(%rip), %rdx\n"
        "    jb lh_near_entry\n"
        "    jmp *lh_type_check_forward(%rip)\n"
        ".size g_type_check_instance_is_a, .-g_type_check_instance_is_a\n");
#else
LH_EXPORT int g_type_check_instance_is_a(void *instance, lh_gtype type) {
    uintptr_t offset = (uintptr_t)__builtin_return_address(0) - lh_load_relaxed(&lh_near_lo);
    if (LH_UNLIKELY(offset < lh_load_relaxed(&lh_near_size))) return lh_near_entry(instance, type, offset);
    return lh_load_relaxed(&lh_type_check_forward)(instance, type);
}
#endif

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

static lh_lazy_map pool_map = {.what = "GTK callback trampolines"}; /* wrapped[TRAMPOLINES], mapped on first use */
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
    lh_cause_note_read(&lh_tls_data, widget, NULL, s != NULL ? lh_load_relaxed(&s->total) : 0);
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
    for (unsigned i = 0; i < entry_count && lh_load_acquire(&lh_near_size) != 0; i++) {
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "name", lh_hooks[entries[i].hook].name);
        lh_json_u64(j, "size", entries[i].size);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
    lh_json_u64(j, "tick_callbacks_wrapped", lh_load_relaxed(&ticks_wrapped));
    lh_json_u64(j, "layout_handlers_wrapped", lh_load_relaxed(&handlers_wrapped));
    lh_json_u64(j, "trampolines_exhausted", lh_load_relaxed(&pool_full));
    lh_json_end_object(j);
}
