/*
 * lh_gtk.c — exact per-widget layout counting in GTK 3 and GTK 4, and GTK's frames as layout
 * iterations.
 *
 * GTK is linked -Bsymbolic: interposing gtk_widget_size_allocate sees only the application's own
 * calls. So LoopHunter does what LayoutLoopHunter does with runtime subclassing, the GObject way:
 * it patches class vtables. Before a widget (or GTK 4 layout manager) type gets its first instance
 * (interposed g_object_new*), its class and its ancestors', ancestors first, get their layout slots
 * pointed at wrappers, one wrapper per original function (lh_vfunc_pools.h), decided by what the
 * slots hold, not by a list of classes seen. A wrapper counts one layout of the widget it is given
 * (a chain-up to the parent class is not counted again) and calls the original with untouched
 * arguments. Slots counted:
 *   GTK 3: size_allocate; the five get_preferred_* (as measures); finalize (to forget the widget).
 *   GTK 4: GtkWidgetClass size_allocate, measure, finalize; GtkLayoutManagerClass allocate,
 *          measure (GtkBox and ~60 classes lay out only through their layout manager), counted
 *          against the widget they lay out.
 * The offsets are GTK's stable ABI for its major version and are checked against the running GTK
 * (class sizes, and the base classes' slots must hold code of libgtk); on a GTK whose layout does
 * not match, counting stays off and one stderr line says so.
 *
 * Frames: every GdkFrameClock gets "before-paint" and "after-paint" handlers as it is created; in a
 * GTK program the frames, not the main-loop iterations, are the layout epochs (GTK caps layout at 4
 * passes per frame, so a loop shows as layouts in back-to-back frames).
 *
 * Runs inside g_object_new and GTK's layout, on GTK's thread: no lock anything waits on (patching
 * is guarded by a try-flag: a thread that finds it taken leaves the class for later), no
 * allocation of our own (GLib's class initialisation and signal connection allocate as they would
 * anyway; the sweep's g_type_children list is GLib's, freed with g_free), errno preserved around
 * our work. Everything that calls into GLib runs from g_object_new or a frame-clock signal (GLib's
 * own context, where GLib allocates itself), never inside malloc or a signal handler.
 */
#define _GNU_SOURCE
#include "lh_gtk.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "lh_vfunc_pools.h"
#include "lh_io.h"
#include "lh_layout.h"
#include "lh_relayout.h"
#include "lh_window.h"

/* ---- state ---------------------------------------------------------------------------------- */

static lh_gtk_api api;
static _Atomic int state;             /* LH_GTK_*; release/acquire publishes `api` */
static _Atomic int patching;          /* try-flag around class patching */
static lh_range libgtk;               /* code of libgtk (GTK 3: libgtk-3, GTK 4: libgtk-4) */
static char off_reason[160];

/* Statistics for the summary (relaxed counters). */
static _Atomic uint64_t classes_patched, slots_patched, pool_exhausted, patch_skipped_busy;
static _Atomic uint64_t frame_clocks, sweeps, forgotten;

/* ---- counting --------------------------------------------------------------------------------- */

/* A wrapped vfunc call counts one layout of its widget, unless it is a chain-up: the innermost
 * layout running on this thread (lh_tls.layout_owner, the slot of the object and hook being laid
 * out) is the same object through the same hook, as when a class's measure calls its parent
 * class's. While the call runs, its widget owns the thread's allocations (a chain-up keeps its
 * outer call's owner); the wrapper keeps the outer owner in its own stack frame and puts it back
 * when the original returns. No per-thread stack, no depth limit, nothing to set up per thread.
 *
 * vfunc_enter returns the owner to restore, or VFUNC_SKIPPED when nothing was counted (our own work
 * is running on this thread, or the layout family is off): then vfunc_leave leaves the owner alone.
 * One out-of-line copy per hook (the hook is a constant in it), shared by every wrapper. */
#define VFUNC_SKIPPED ((lh_slot *)1)

/* Every case but the common one: count and make the widget the owner. `home`: as
 * lh_layout_count_common left it. */
static LH_NOINLINE lh_slot *vfunc_count(lh_tls *t, const void *object, unsigned hook, uint64_t size, lh_slot *home,
                                        lh_slot *outer) {
    lh_slot *slot = home != NULL ? lh_layout_count_slot(t, home, hook, object, size) : lh_layout_count(t, hook, object, size);
    if (LH_LIKELY(slot != NULL)) t->layout_owner = slot;
    return outer;
}

static lh_slot *vfunc_enter_measure(const void *object);
static lh_slot *vfunc_enter_allocate(const void *object, uint64_t size);

/* LoopHunter not ready yet (or off): initialise it, then enter as usual if it is on. */
static LH_NOINLINE lh_slot *vfunc_enter_unready(const void *object, unsigned hook, uint64_t size) {
    if (!lh_active(LH_FAMILY_LAYOUT)) return VFUNC_SKIPPED;
    return hook == LH_HOOK_gtk_measure ? vfunc_enter_measure(object) : vfunc_enter_allocate(object, size);
}

/* The common case calls nothing (lh_layout_count_common), so that the enter functions need no
 * registers saved on it; every other case is a tail call. */
static inline __attribute__((always_inline)) lh_slot *vfunc_enter(const void *object, unsigned hook, uint64_t size) {
    lh_tls *t = &lh_tls_data;
    if (LH_UNLIKELY(t->guard != 0)) return VFUNC_SKIPPED;
    /* acquire: pairs with the release that publishes the initialised lh_proc (as in lh_active). */
    if (LH_UNLIKELY(lh_load_acquire(&lh_state) != LH_STATE_READY)) return vfunc_enter_unready(object, hook, size);
    if (LH_UNLIKELY((lh_proc.cfg.families & LH_FAMILY_LAYOUT) == 0)) return VFUNC_SKIPPED;
    lh_slot *outer = t->layout_owner;
    /* relaxed: the owner is a slot of an object this thread is laying out (lh_table.h). */
    if (outer != NULL && lh_load_relaxed(&outer->key) == lh_table_key(object, hook)) return outer; /* a chain-up */
    lh_slot *home;
    lh_slot *slot = lh_layout_count_common(t, hook, object, &home);
    if (LH_UNLIKELY(slot == NULL)) return vfunc_count(t, object, hook, size, home, outer);
    t->layout_owner = slot;
    return outer;
}

static LH_NOINLINE lh_slot *vfunc_enter_measure(const void *object) {
    return vfunc_enter(object, LH_HOOK_gtk_measure, LH_GEOMETRY_NONE);
}

static LH_NOINLINE lh_slot *vfunc_enter_allocate(const void *object, uint64_t size) {
    return vfunc_enter(object, LH_HOOK_gtk_allocate, size);
}

static inline __attribute__((always_inline)) void vfunc_leave(lh_slot *outer) {
    if (LH_LIKELY(outer != VFUNC_SKIPPED)) lh_tls_data.layout_owner = outer;
}

/* A widget is being finalized: a new widget at its address later is a new object. */
static void forget_widget(const void *widget) {
    if (lh_load_acquire(&lh_state) != LH_STATE_READY) return; /* acquire: lh_proc is initialised */
    bool a = lh_table_forget(&lh_proc.table, widget, LH_HOOK_gtk_allocate);
    bool m = lh_table_forget(&lh_proc.table, widget, LH_HOOK_gtk_measure);
    if (a || m) lh_add_relaxed(&forgotten, 1); /* stat */
    if (lh_family_on(LH_FAMILY_WINDOW)) lh_window_forget(widget);
    lh_relayout_forget(widget);
}

/* ---- the wrappers ------------------------------------------------------------------------------ */

#define SIZE(w, h) ((uint64_t)(uint32_t)(w) << 32 | (uint32_t)(h))

/* GTK 3: void size_allocate(GtkWidget *, GtkAllocation *) */
typedef void (*g3_alloc_fn)(void *, lh_gtk_rect *);
#define g3_alloc_WRAPPER(i)                                                                         \
    static LH_USED void g3_alloc_##i(void *w, lh_gtk_rect *a) {                                             \
        lh_slot *outer = vfunc_enter_allocate(w, a != NULL ? SIZE(a->width, a->height) : LH_GEOMETRY_NONE); \
        ((g3_alloc_fn)LH_ORIG(g3_alloc, i))(w, a);                                                  \
        vfunc_leave(outer);                                                                     \
    }
#define g3_alloc_OFFSET(i) LH_POOL_OFFSET(g3_alloc, i)
LH_DEFINE_POOL(g3_alloc, LH_REP256, LH_POOL_SMALL)

/* GTK 3: void get_preferred_width/height(GtkWidget *, gint *minimum, gint *natural) */
typedef void (*g3_pref_fn)(void *, int *, int *);
#define g3_pref_WRAPPER(i)                                                                          \
    static LH_USED void g3_pref_##i(void *w, int *min, int *nat) {                                          \
        lh_slot *outer = vfunc_enter_measure(w);                                                   \
        ((g3_pref_fn)LH_ORIG(g3_pref, i))(w, min, nat);                                             \
        vfunc_leave(outer);                                                                     \
    }
#define g3_pref_OFFSET(i) LH_POOL_OFFSET(g3_pref, i)
LH_DEFINE_POOL(g3_pref, LH_REP256, LH_POOL_SMALL)

/* GTK 3: void get_preferred_width_for_height/height_for_width(GtkWidget *, gint, gint *, gint *) */
typedef void (*g3_pref_for_fn)(void *, int, int *, int *);
#define g3_pref_for_WRAPPER(i)                                                                      \
    static LH_USED void g3_pref_for_##i(void *w, int size, int *min, int *nat) {                            \
        lh_slot *outer = vfunc_enter_measure(w);                                                   \
        ((g3_pref_for_fn)LH_ORIG(g3_pref_for, i))(w, size, min, nat);                               \
        vfunc_leave(outer);                                                                     \
    }
#define g3_pref_for_OFFSET(i) LH_POOL_OFFSET(g3_pref_for, i)
LH_DEFINE_POOL(g3_pref_for, LH_REP256, LH_POOL_SMALL)

/* GTK 3: void get_preferred_height_and_baseline_for_width(GtkWidget *, gint, gint *x4) */
typedef void (*g3_pref_base_fn)(void *, int, int *, int *, int *, int *);
#define g3_pref_base_WRAPPER(i)                                                                     \
    static LH_USED void g3_pref_base_##i(void *w, int width, int *min, int *nat, int *min_b, int *nat_b) {  \
        lh_slot *outer = vfunc_enter_measure(w);                                                   \
        ((g3_pref_base_fn)LH_ORIG(g3_pref_base, i))(w, width, min, nat, min_b, nat_b);              \
        vfunc_leave(outer);                                                                     \
    }
#define g3_pref_base_OFFSET(i) LH_POOL_OFFSET(g3_pref_base, i)
LH_DEFINE_POOL(g3_pref_base, LH_REP256, LH_POOL_SMALL)

/* GTK 4: void size_allocate(GtkWidget *, int width, int height, int baseline) */
typedef void (*g4_alloc_fn)(void *, int, int, int);
#define g4_alloc_WRAPPER(i)                                                                         \
    static LH_USED void g4_alloc_##i(void *w, int width, int height, int baseline) {                        \
        lh_slot *outer = vfunc_enter_allocate(w, SIZE(width, height));                 \
        ((g4_alloc_fn)LH_ORIG(g4_alloc, i))(w, width, height, baseline);                            \
        vfunc_leave(outer);                                                                     \
    }
#define g4_alloc_OFFSET(i) LH_POOL_OFFSET(g4_alloc, i)
LH_DEFINE_POOL(g4_alloc, LH_REP256, LH_POOL_SMALL)

/* GTK 4: void measure(GtkWidget *, GtkOrientation, int for_size, int *x4) */
typedef void (*g4_measure_fn)(void *, int, int, int *, int *, int *, int *);
#define g4_measure_WRAPPER(i)                                                                       \
    static LH_USED void g4_measure_##i(void *w, int orientation, int for_size, int *min, int *nat, int *min_b, int *nat_b) { \
        lh_slot *outer = vfunc_enter_measure(w);                                                   \
        ((g4_measure_fn)LH_ORIG(g4_measure, i))(w, orientation, for_size, min, nat, min_b, nat_b);  \
        vfunc_leave(outer);                                                                     \
    }
#define g4_measure_OFFSET(i) LH_POOL_OFFSET(g4_measure, i)
LH_DEFINE_POOL(g4_measure, LH_REP256, LH_POOL_SMALL)

/* GTK 4: void allocate(GtkLayoutManager *, GtkWidget *, int width, int height, int baseline) */
typedef void (*g4_lm_alloc_fn)(void *, void *, int, int, int);
#define g4_lm_alloc_WRAPPER(i)                                                                      \
    static LH_USED void g4_lm_alloc_##i(void *lm, void *w, int width, int height, int baseline) {           \
        lh_slot *outer = vfunc_enter_allocate(w, SIZE(width, height));                 \
        ((g4_lm_alloc_fn)LH_ORIG(g4_lm_alloc, i))(lm, w, width, height, baseline);                  \
        vfunc_leave(outer);                                                                     \
    }
#define g4_lm_alloc_OFFSET(i) LH_POOL_OFFSET(g4_lm_alloc, i)
LH_DEFINE_POOL(g4_lm_alloc, LH_REP256, LH_POOL_SMALL)

/* GTK 4: void measure(GtkLayoutManager *, GtkWidget *, GtkOrientation, int for_size, int *x4) */
typedef void (*g4_lm_measure_fn)(void *, void *, int, int, int *, int *, int *, int *);
#define g4_lm_measure_WRAPPER(i)                                                                    \
    static LH_USED void g4_lm_measure_##i(void *lm, void *w, int orientation, int for_size, int *min, int *nat, int *min_b, int *nat_b) { \
        lh_slot *outer = vfunc_enter_measure(w);                                                   \
        ((g4_lm_measure_fn)LH_ORIG(g4_lm_measure, i))(lm, w, orientation, for_size, min, nat, min_b, nat_b); \
        vfunc_leave(outer);                                                                     \
    }
#define g4_lm_measure_OFFSET(i) LH_POOL_OFFSET(g4_lm_measure, i)
LH_DEFINE_POOL(g4_lm_measure, LH_REP256, LH_POOL_SMALL)

/* Both: GObjectClass.finalize of widget classes: void finalize(GObject *) */
typedef void (*finalize_fn)(void *);
#define finalize_WRAPPER(i)                                                                         \
    static LH_USED void finalize_##i(void *object) {                                                        \
        forget_widget(object);                                                                      \
        ((finalize_fn)LH_ORIG(finalize, i))(object);                                                \
    }
#define finalize_OFFSET(i) LH_POOL_OFFSET(finalize, i)
LH_DEFINE_POOL(finalize, LH_REP512, LH_POOL_LARGE)

/* ---- the pools and the slots they serve ----------------------------------------------------- */

enum { P_G3_ALLOC, P_G3_PREF, P_G3_PREF_FOR, P_G3_PREF_BASE, P_G4_ALLOC, P_G4_MEASURE, P_G4_LM_ALLOC,
       P_G4_LM_MEASURE, P_FINALIZE, P_COUNT };

static lh_vfunc_pool pools[P_COUNT] = {
    [P_G3_ALLOC] = {"gtk3 size_allocate", g3_alloc_orig, g3_alloc_offsets, LH_POOL_SMALL, 0},
    [P_G3_PREF] = {"gtk3 get_preferred_width/height", g3_pref_orig, g3_pref_offsets, LH_POOL_SMALL, 0},
    [P_G3_PREF_FOR] = {"gtk3 get_preferred_*_for_*", g3_pref_for_orig, g3_pref_for_offsets, LH_POOL_SMALL, 0},
    [P_G3_PREF_BASE] = {"gtk3 get_preferred_height_and_baseline_for_width", g3_pref_base_orig, g3_pref_base_offsets, LH_POOL_SMALL, 0},
    [P_G4_ALLOC] = {"gtk4 size_allocate", g4_alloc_orig, g4_alloc_offsets, LH_POOL_SMALL, 0},
    [P_G4_MEASURE] = {"gtk4 measure", g4_measure_orig, g4_measure_offsets, LH_POOL_SMALL, 0},
    [P_G4_LM_ALLOC] = {"gtk4 layout manager allocate", g4_lm_alloc_orig, g4_lm_alloc_offsets, LH_POOL_SMALL, 0},
    [P_G4_LM_MEASURE] = {"gtk4 layout manager measure", g4_lm_measure_orig, g4_lm_measure_offsets, LH_POOL_SMALL, 0},
    [P_FINALIZE] = {"finalize", finalize_orig, finalize_offsets, LH_POOL_LARGE, 0},
};

typedef struct slot_spec {
    size_t offset; /* in the class structure */
    int pool;
} slot_spec;

/* GTK 3.24 GtkWidgetClass (sizeof 824): the offsets of its public, ABI-stable structure. */
static const slot_spec gtk3_widget_slots[] = {
    {216, P_G3_ALLOC},      /* size_allocate */
    {304, P_G3_PREF},       /* get_preferred_height */
    {312, P_G3_PREF_FOR},   /* get_preferred_width_for_height */
    {320, P_G3_PREF},       /* get_preferred_width */
    {328, P_G3_PREF_FOR},   /* get_preferred_height_for_width */
    {768, P_G3_PREF_BASE},  /* get_preferred_height_and_baseline_for_width */
    {LH_GOBJECT_CLASS_FINALIZE_OFFSET, P_FINALIZE},
};
#define GTK3_WIDGET_CLASS_SIZE 824

/* GTK 4 GtkWidgetClass (sizeof 408) and GtkLayoutManagerClass (sizeof 320). */
static const slot_spec gtk4_widget_slots[] = {
    {200, P_G4_ALLOC},      /* size_allocate */
    {232, P_G4_MEASURE},    /* measure */
    {LH_GOBJECT_CLASS_FINALIZE_OFFSET, P_FINALIZE},
};
static const slot_spec gtk4_layout_manager_slots[] = {
    {144, P_G4_LM_MEASURE}, /* measure */
    {152, P_G4_LM_ALLOC},   /* allocate */
};
#define GTK4_WIDGET_CLASS_SIZE 408
#define GTK4_LAYOUT_MANAGER_CLASS_SIZE 320

static const slot_spec *widget_slots;
static size_t widget_slot_count;

/* ---- class patching --------------------------------------------------------------------------- */

static bool is_ours(const void *fn) { return lh_is_own_code((uintptr_t)fn); }

/* The wrapper of `fn` in pool `p` (claimed the first time, under the patching flag). */
static void *wrapper_for(int p, void *fn) {
    void *w = lh_vfunc_pool_wrapper(&pools[p], fn);
    if (w == NULL) lh_add_relaxed(&pool_exhausted, 1); /* stat */
    return w;
}

/* Points the class's slots at wrappers; decided by what the slots hold. NULL slots stay NULL. */
static bool patch_class(void *klass, const slot_spec *specs, size_t n) {
    bool changed = false;
    for (size_t s = 0; s < n; s++) {
        void **slot = (void **)((char *)klass + specs[s].offset);
        void *fn = __atomic_load_n(slot, __ATOMIC_RELAXED);
        if (fn == NULL || is_ours(fn)) continue;
        void *w = wrapper_for(specs[s].pool, fn);
        if (w == NULL) continue;
        /* release: the wrapper's original (stored above) before the slot points at it. GTK reads
         * slots with plain loads; classes are patched on the thread that lays their widgets out. */
        __atomic_store_n(slot, w, __ATOMIC_RELEASE);
        lh_add_relaxed(&slots_patched, 1); /* stat */
        changed = true;
    }
    return changed;
}

static bool fully_patched(const void *klass, const slot_spec *specs, size_t n) {
    for (size_t s = 0; s < n; s++) {
        void *fn = __atomic_load_n((void *const *)((const char *)klass + specs[s].offset), __ATOMIC_RELAXED);
        if (fn != NULL && !is_ours(fn)) return false;
    }
    return true;
}

/* Patches `type` and its ancestors up to GtkWidget (or GtkLayoutManager), ancestors first, when
 * it is one of those. Initialises the class if needed (as g_object_new is about to anyway). */
static void patch_type(lh_gtype type) {
    const slot_spec *specs;
    size_t n;
    lh_gtype base;
    if (api.type_is_a(type, api.widget_type)) {
        base = api.widget_type, specs = widget_slots, n = widget_slot_count;
    } else if (api.layout_manager_type != 0 && api.type_is_a(type, api.layout_manager_type)) {
        base = api.layout_manager_type, specs = gtk4_layout_manager_slots, n = LH_ARRAY_COUNT(gtk4_layout_manager_slots);
    } else {
        return;
    }
    void *klass = api.type_class_peek(type);
    if (klass != NULL && fully_patched(klass, specs, n)) return; /* the common case: done before */
    int expected = 0;
    /* acquire: see the pools as the previous patcher left them. */
    if (!lh_cas_acquire(&patching, &expected, 1)) {
        lh_add_relaxed(&patch_skipped_busy, 1); /* stat */
        return;
    }
    lh_gtype chain[64];
    size_t depth = 0;
    for (lh_gtype t = type; t != 0 && depth < LH_ARRAY_COUNT(chain); t = api.type_parent(t)) {
        chain[depth++] = t;
        if (t == base) break;
    }
    for (size_t i = depth; i > 0; i--) {
        void *k = api.type_class_peek(chain[i - 1]);
        if (k == NULL) k = api.type_class_ref(chain[i - 1]); /* kept: instances are coming */
        if (k != NULL && patch_class(k, specs, n))
            lh_add_relaxed(&classes_patched, 1); /* stat */
    }
    /* release: our pool bookkeeping to the next patcher. */
    lh_store_release(&patching, 0);
}

/* Patches every initialised subclass of `type` (classes made without g_object_new passing
 * through us, e.g. by GLib internally). At the first frame and every 600 frames. */
static void sweep(lh_gtype type, int depth) {
    if (depth > 32) return;
    if (api.type_class_peek(type) != NULL) patch_type(type);
    unsigned n = 0;
    lh_gtype *children = api.type_children(type, &n);
    for (unsigned i = 0; children != NULL && i < n; i++) sweep(children[i], depth + 1);
    if (children != NULL) api.free(children);
}

/* ---- frames ----------------------------------------------------------------------------------- */

/* GdkFrameClock "before-paint": a frame begins (the thread's epoch from now on). */
static void on_before_paint(void *clock, void *data) {
    (void)clock;
    (void)data;
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_LAYOUT)) return;
    LH_GUARDED(t);
    lh_thread_frame_begin(t);
    if (t->frame == 1 || t->frame % 600 == 0) {
        lh_add_relaxed(&sweeps, 1); /* stat */
        sweep(api.widget_type, 0);
        if (api.layout_manager_type != 0) sweep(api.layout_manager_type, 0);
    }
}

/* "after-paint": the frame's busy time ends; a window waiting for its first frame may have it. */
static void on_after_paint(void *clock, void *data) {
    (void)data;
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_LAYOUT)) return;
    lh_thread_frame_end(t);
    LH_GUARDED(t);
    if (lh_family_on(LH_FAMILY_WINDOW) && lh_windows_unpainted()) lh_window_painted(t, clock);
    lh_relayout_frame_done(t, clock, true); /* this clock's frame is laid out: its requests are judged */
}

/* A window's "map" (connected to every GtkWindow when it is made): it is on screen from now on, so
 * the clock of its time to first frame starts now if no show started it. GTK shows its own windows
 * (a GTK 3 menu's or tooltip's popup window, made at start-up and shown when the user first opens
 * it) through calls inside libgtk that LoopHunter does not see; their map signal it does. */
static void on_window_map(void *window, void *data) {
    (void)data;
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_WINDOW)) return;
    LH_GUARDED(t);
    lh_window_mapped(window);
}

/* ---- detection and verification ---------------------------------------------------------------- */

static void say_off(const char *why) {
    lh_buf b;
    lh_buf_init(&b, off_reason, sizeof off_reason);
    lh_buf_put(&b, why);
    char mem[LH_CONFIG_MESSAGE_LEN + 64];
    lh_buf line;
    lh_buf_init(&line, mem, sizeof mem);
    lh_buf_put(&line, "loophunter: GTK ");
    lh_buf_u64(&line, (uint64_t)api.major);
    lh_buf_putc(&line, '.');
    lh_buf_u64(&line, (uint64_t)api.minor);
    lh_buf_putc(&line, '.');
    lh_buf_u64(&line, (uint64_t)api.micro);
    lh_buf_put(&line, ": ");
    lh_buf_put(&line, why);
    lh_buf_put(&line, "; GTK widget layouts are not counted (the program runs on unchanged)");
    lh_diag(line.data);
}

#define RESOLVE(field, name)                                                                        \
    do {                                                                                            \
        *(void **)&api.field = lh_host_function(name);                                           \
        if (api.field == NULL) missing = name;                                                      \
    } while (0)

/* Every base-class slot holds code of libgtk: the offsets point where they should. */
static bool slots_in_libgtk(const void *klass, const slot_spec *specs, size_t n) {
    for (size_t s = 0; s < n; s++) {
        uintptr_t fn = (uintptr_t)__atomic_load_n((void *const *)((const char *)klass + specs[s].offset), __ATOMIC_RELAXED);
        if (fn == 0 && specs[s].pool != P_FINALIZE) continue; /* GTK may leave a vfunc NULL */
        if (fn < libgtk.lo || fn >= libgtk.hi) return false;
    }
    return true;
}

static int probe(void) {
    typedef unsigned (*version_fn)(void);
    version_fn major = (version_fn)lh_host_function("gtk_get_major_version");
    if (major == NULL) return LH_GTK_ABSENT;
    api.major = (int)major();
    api.minor = (int)((version_fn)lh_host_function("gtk_get_minor_version"))();
    api.micro = (int)((version_fn)lh_host_function("gtk_get_micro_version"))();
    const char *missing = NULL;
    RESOLVE(type_is_a, "g_type_is_a");
    RESOLVE(type_class_peek, "g_type_class_peek");
    RESOLVE(type_class_ref, "g_type_class_ref");
    RESOLVE(type_parent, "g_type_parent");
    RESOLVE(type_name, "g_type_name");
    RESOLVE(type_query, "g_type_query");
    RESOLVE(type_children, "g_type_children");
    RESOLVE(free, "g_free");
    RESOLVE(signal_connect_data, "g_signal_connect_data");
    RESOLVE(widget_get_name, "gtk_widget_get_name");
    RESOLVE(widget_get_parent, "gtk_widget_get_parent");
    RESOLVE(widget_get_allocation, "gtk_widget_get_allocation");
    /* Optional: windows' time to first frame (lh_window.c) uses them when they are all there. */
    *(void **)&api.widget_get_frame_clock = lh_host_function("gtk_widget_get_frame_clock");
    *(void **)&api.window_get_title = lh_host_function("gtk_window_get_title");
    *(void **)&api.signal_name = lh_host_function("g_signal_name");
    if (api.major == 3) *(void **)&api.window_get_window_type = lh_host_function("gtk_window_get_window_type");
    lh_gtype (*window_type)(void) = (lh_gtype(*)(void))lh_host_function("gtk_window_get_type");
    if (window_type != NULL && api.widget_get_frame_clock != NULL && api.signal_name != NULL)
        api.window_type = window_type();
    lh_gtype (*widget_type)(void) = (lh_gtype(*)(void))lh_host_function("gtk_widget_get_type");
    lh_gtype (*clock_type)(void) = (lh_gtype(*)(void))lh_host_function("gdk_frame_clock_get_type");
    if (widget_type == NULL) missing = "gtk_widget_get_type";
    if (clock_type == NULL) missing = "gdk_frame_clock_get_type";
    if (missing != NULL) {
        char why[96];
        lh_buf b;
        lh_buf_init(&b, why, sizeof why);
        lh_buf_put(&b, "has no ");
        lh_buf_put(&b, missing);
        say_off(why);
        return LH_GTK_OFF;
    }
    if (!lh_modules_range_of((const void *)widget_type, &libgtk)) {
        say_off("its library could not be located");
        return LH_GTK_OFF;
    }
    api.widget_type = widget_type();
    api.frame_clock_type = clock_type();
    lh_gtype_query q;
    api.type_query(api.widget_type, &q);
    unsigned expected;
    if (api.major == 3) {
        widget_slots = gtk3_widget_slots, widget_slot_count = LH_ARRAY_COUNT(gtk3_widget_slots);
        expected = GTK3_WIDGET_CLASS_SIZE;
    } else if (api.major == 4) {
        widget_slots = gtk4_widget_slots, widget_slot_count = LH_ARRAY_COUNT(gtk4_widget_slots);
        expected = GTK4_WIDGET_CLASS_SIZE;
    } else {
        say_off("this major version's class layout is unknown to this LoopHunter");
        return LH_GTK_OFF;
    }
    if (q.class_size != expected) {
        say_off(api.major == 3 ? "GtkWidgetClass is not the 824-byte GTK 3 layout this LoopHunter knows"
                               : "GtkWidgetClass is not the 408-byte GTK 4 layout this LoopHunter knows");
        return LH_GTK_OFF;
    }
    void *base = api.type_class_ref(api.widget_type);
    if (base == NULL || !slots_in_libgtk(base, widget_slots, widget_slot_count)) {
        say_off("GtkWidgetClass's layout slots do not hold GTK's code");
        return LH_GTK_OFF;
    }
    if (api.major == 4) {
        lh_gtype (*lm_type)(void) = (lh_gtype(*)(void))lh_host_function("gtk_layout_manager_get_type");
        lh_gtype (*box_type)(void) = (lh_gtype(*)(void))lh_host_function("gtk_box_layout_get_type");
        if (lm_type == NULL || box_type == NULL) {
            say_off("has no GtkLayoutManager");
            return LH_GTK_OFF;
        }
        api.layout_manager_type = lm_type();
        api.type_query(api.layout_manager_type, &q);
        void *box = api.type_class_ref(box_type());
        if (q.class_size != GTK4_LAYOUT_MANAGER_CLASS_SIZE || box == NULL ||
            !slots_in_libgtk(box, gtk4_layout_manager_slots, LH_ARRAY_COUNT(gtk4_layout_manager_slots))) {
            say_off("GtkLayoutManagerClass is not the layout this LoopHunter knows");
            return LH_GTK_OFF;
        }
    }
    return LH_GTK_ON;
}

/* GLib's type lookups, for the cheap first stage of probing. */
static lh_gtype (*type_from_name)(const char *name);
static int (*light_type_is_a)(lh_gtype type, lh_gtype is_a_type);
static _Atomic lh_gtype widget_base; /* GtkWidget's GType once registered (types are never unregistered) */

/* Is `type` one GTK counting cares about: a widget, a layout manager or a frame clock? Asked
 * through the type names, so that nothing of GTK is initialised earlier than it would be. Before
 * GtkWidget is registered (a Python or JavaScript program has not loaded GTK yet, or has none)
 * this is one hash lookup of GLib's per new object. */
static bool is_gtk_layout_type(lh_gtype type) {
    if (type_from_name == NULL) {
        *(void **)&type_from_name = lh_host_function("g_type_from_name");
        *(void **)&light_type_is_a = lh_host_function("g_type_is_a");
        if (type_from_name == NULL || light_type_is_a == NULL) return false;
    }
    /* relaxed: a GType is a number; a race looks it up twice. */
    lh_gtype widget = lh_load_relaxed(&widget_base);
    if (widget == 0) {
        widget = type_from_name("GtkWidget");
        if (widget == 0) return false; /* no GTK widget class yet: neither layout managers nor clocks matter */
        lh_store_relaxed(&widget_base, widget);
    }
    if (light_type_is_a(type, widget)) return true;
    static const char *const others[] = {"GtkLayoutManager", "GdkFrameClock"};
    for (size_t i = 0; i < LH_ARRAY_COUNT(others); i++) {
        lh_gtype base = type_from_name(others[i]);
        if (base != 0 && light_type_is_a(type, base)) return true;
    }
    return false;
}

/* GTK's state for a GObject of `type` being created. The full probe runs when the first widget,
 * layout manager or frame clock is made (GTK initialises those classes then anyway), however late
 * GTK arrives: linked at start-up, or loaded later by GObject introspection (PyGObject, GJS) or a
 * plugin's dlopen. Before that, only the cheap type-name lookup above. */
static int gtk_state_for(lh_gtype type) {
    /* acquire: pairs with the release below, publishing `api`. */
    int s = lh_load_acquire(&state);
    if (LH_LIKELY(s == LH_GTK_ON || s == LH_GTK_OFF || s == LH_GTK_PROBING)) return s;
    if (!is_gtk_layout_type(type)) return s;
    int expected = s;
    if (!lh_cas_acquire(&state, &expected, LH_GTK_PROBING))
        return expected;
    int result = probe();
    /* release: `api` is filled in before ON is seen. */
    lh_store_release(&state, result);
    if (result == LH_GTK_ON) {
        lh_gtk_causes_start(&api, libgtk); /* layout requests are recorded from now on */
        /* Classes GTK initialised before this first object of ours (types made by GTK itself,
         * through GLib internally) are patched now, not only at the first frame. */
        sweep(api.widget_type, 0);
        if (api.layout_manager_type != 0) sweep(api.layout_manager_type, 0);
    }
    return result;
}

const lh_gtk_api *lh_gtk(void) {
    return lh_load_acquire(&state) == LH_GTK_ON ? &api : NULL;
}

/* ---- GObject creation (rows g_object_new*) ------------------------------------------------------ */

uintptr_t lh_gtk_before_new(unsigned hook, lh_gtype type, ...) {
    (void)hook;
    if (gtk_state_for(type) == LH_GTK_ON) patch_type(type);
    return 0;
}

void lh_gtk_after_new(unsigned hook, uintptr_t token, void *object, lh_gtype type, ...) {
    (void)token;
    if (object == NULL || lh_gtk() == NULL) return;
    if (api.window_type != 0 && lh_family_on(LH_FAMILY_WINDOW) && api.type_is_a(type, api.window_type)) {
        /* GTK 3's popup windows (every menu has one from its creation, tooltips, combo lists) are
         * not the application's windows: not followed (lh_window.c counts them). */
        if (api.window_get_window_type != NULL && api.window_get_window_type(object) == 1) {
            lh_window_popup();
        } else {
            lh_window_created(&lh_toolkit_gtk, hook, object, NULL, false);
            api.signal_connect_data(object, "map", (void (*)(void))on_window_map, NULL, NULL, 0);
        }
        return;
    }
    if (!api.type_is_a(type, api.frame_clock_type)) return;
    api.signal_connect_data(object, "before-paint", (void (*)(void))on_before_paint, NULL, NULL, 0);
    api.signal_connect_data(object, "after-paint", (void (*)(void))on_after_paint, NULL, NULL, 1 /* G_CONNECT_AFTER */);
    lh_add_relaxed(&frame_clocks, 1); /* stat */
}

/* g_object_new(type, first_property_name, ...) is variadic: forwarded the way GLib implements it,
 * through g_object_new_with_properties (no properties) or g_object_new_valist, with the same
 * notes as those rows. */
LH_EXPORT void *g_object_new(lh_gtype type, const char *first, ...) {
    __typeof__(lh_real_g_object_new_valist) valist = LH_ORIGINAL(g_object_new_valist);
    __typeof__(lh_real_g_object_new_with_properties) with = LH_ORIGINAL(g_object_new_with_properties);
    lh_tls *t = &lh_tls_data;
    bool on = t->guard == 0 && lh_active(LH_FAMILY_LAYOUT);
    if (on) {
        LH_GUARDED(t);
        lh_count_hook_call(LH_HOOK_g_object_new);
        lh_gtk_before_new(LH_HOOK_g_object_new, type);
    }
    void *object;
    if (first == NULL && with != NULL) {
        object = with(type, 0, NULL, NULL);
    } else {
        va_list ap;
        va_start(ap, first);
        object = valist != NULL ? valist(type, first, ap) : NULL;
        va_end(ap);
    }
    if (on && t->guard == 0) {
        LH_GUARDED(t);
        lh_gtk_after_new(LH_HOOK_g_object_new, 0, object, type);
    }
    return object;
}

/* ---- `loophunter attach` ------------------------------------------------------------------------- */

typedef struct glist {
    void *data;
    struct glist *next, *prev;
} glist;

/* The frame clock of `window` gets our paint handlers unless it has them (from an earlier session,
 * or made during this one through g_object_new). */
static void hook_window_clock(void *window, unsigned long (*find)(void *, int, unsigned, uint32_t, void *, void *, void *)) {
    void *clock = api.widget_get_frame_clock != NULL ? api.widget_get_frame_clock(window) : NULL;
    if (clock == NULL) return;
    if (find != NULL && find(clock, 8 /* G_SIGNAL_MATCH_FUNC */, 0, 0, NULL, (void *)on_before_paint, NULL) != 0) return;
    api.signal_connect_data(clock, "before-paint", (void (*)(void))on_before_paint, NULL, NULL, 0);
    api.signal_connect_data(clock, "after-paint", (void (*)(void))on_after_paint, NULL, NULL, 1 /* G_CONNECT_AFTER */);
    lh_add_relaxed(&frame_clocks, 1); /* stat */
}

/* An idle on GTK's own thread (the default main context's): the windows that exist get their frame
 * clocks followed. GTK is not thread-safe, and the attach may run on another thread. Runs once. */
static int hook_existing_clocks(void *data) {
    (void)data;
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_LAYOUT) || lh_gtk() == NULL) return 0;
    LH_GUARDED(t);
    __typeof__(unsigned long (*)(void *, int, unsigned, uint32_t, void *, void *, void *)) find =
        (__typeof__(find))lh_host_function("g_signal_handler_find");
    if (api.major == 3) {
        glist *(*list)(void) = (glist * (*)(void)) lh_host_function("gtk_window_list_toplevels");
        void (*list_free)(glist *) = (void (*)(glist *))lh_host_function("g_list_free");
        if (list == NULL || list_free == NULL) return 0;
        glist *all = list();
        for (glist *l = all; l != NULL; l = l->next) hook_window_clock(l->data, find);
        list_free(all);
    } else {
        void *(*toplevels)(void) = (void *(*)(void))lh_host_function("gtk_window_get_toplevels");
        unsigned (*count)(void *) = (unsigned (*)(void *))lh_host_function("g_list_model_get_n_items");
        void *(*item)(void *, unsigned) = (void *(*)(void *, unsigned))lh_host_function("g_list_model_get_item");
        void (*unref)(void *) = (void (*)(void *))lh_host_function("g_object_unref");
        if (toplevels == NULL || count == NULL || item == NULL || unref == NULL) return 0;
        void *model = toplevels();
        for (unsigned i = 0, n = model != NULL ? count(model) : 0; i < n; i++) {
            void *window = item(model, i);
            if (window == NULL) continue;
            hook_window_clock(window, find);
            unref(window);
        }
    }
    return 0; /* G_SOURCE_REMOVE */
}

void lh_gtk_attached(void) {
    lh_gtype (*from_name)(const char *) = (lh_gtype(*)(const char *))lh_host_function("g_type_from_name");
    lh_gtype widget = from_name != NULL ? from_name("GtkWidget") : 0;
    if (widget == 0) return; /* no GTK widget yet: the first g_object_new of one probes, as under the preload */
    if (gtk_state_for(widget) != LH_GTK_ON) return;
    /* Every class initialised so far (a first probe just did it; a later session's classes were
     * given back at its end). */
    sweep(api.widget_type, 0);
    if (api.layout_manager_type != 0) sweep(api.layout_manager_type, 0);
    unsigned (*idle_add)(int (*)(void *), void *) = (unsigned (*)(int (*)(void *), void *))lh_host_function("g_idle_add");
    if (idle_add != NULL) idle_add(hook_existing_clocks, NULL);
}

/* The class slots of `type` and its initialised subclasses that hold one of our wrappers get the
 * original back. */
static void give_back(lh_gtype type, const slot_spec *specs, size_t n, int depth) {
    if (depth > 32) return;
    void *klass = api.type_class_peek(type);
    for (size_t s = 0; klass != NULL && s < n; s++) {
        void **slot = (void **)((char *)klass + specs[s].offset);
        void *fn = __atomic_load_n(slot, __ATOMIC_RELAXED);
        if (fn == NULL || !is_ours(fn)) continue;
        const lh_vfunc_pool *pl = &pools[specs[s].pool];
        for (unsigned i = 0; i < pl->used; i++)
            if (LH_POOL_WRAPPER(pl->wrappers, i) == fn) {
                /* relaxed: a pointer store GTK reads with a plain load; the original was always valid. */
                __atomic_store_n(slot, __atomic_load_n(&pl->orig[i], __ATOMIC_ACQUIRE), __ATOMIC_RELAXED);
                break;
            }
    }
    unsigned count = 0;
    lh_gtype *children = api.type_children(type, &count);
    for (unsigned i = 0; children != NULL && i < count; i++) give_back(children[i], specs, n, depth + 1);
    if (children != NULL) api.free(children);
}

void lh_gtk_detached(void) {
    if (lh_gtk() == NULL) return;
    int expected = 0;
    /* acquire: the pools as the last patcher left them; a patcher racing us waits its turn. */
    while (!lh_cas_acquire(&patching, &expected, 1)) {
        expected = 0;
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    give_back(api.widget_type, widget_slots, widget_slot_count, 0);
    if (api.layout_manager_type != 0)
        give_back(api.layout_manager_type, gtk4_layout_manager_slots, LH_ARRAY_COUNT(gtk4_layout_manager_slots), 0);
    /* release: to the next patcher. */
    lh_store_release(&patching, 0);
    /* The paint handlers stay connected: they return at once while no session runs, and a later
     * session finds them (hook_window_clock). */
}

/* ---- windows shown (rows gtk_widget_show...) ------------------------------------------------------ */

void lh_gtk_shown(unsigned hook, void *widget) {
    (void)hook;
    lh_window_shown(widget);
}

void lh_gtk_visible(unsigned hook, void *widget, int visible) {
    (void)hook;
    if (visible) lh_window_shown(widget);
}

/* ---- summary ------------------------------------------------------------------------------------ */

void lh_gtk_summary(lh_json *j) {
    int s = lh_load_acquire(&state);
    if (s == LH_GTK_UNKNOWN || s == LH_GTK_ABSENT) {
        lh_json_null(j, "gtk");
        return;
    }
    lh_json_begin_object(j, "gtk");
    char version[32];
    lh_buf b;
    lh_buf_init(&b, version, sizeof version);
    lh_buf_u64(&b, (uint64_t)api.major);
    lh_buf_putc(&b, '.');
    lh_buf_u64(&b, (uint64_t)api.minor);
    lh_buf_putc(&b, '.');
    lh_buf_u64(&b, (uint64_t)api.micro);
    lh_json_string(j, "version", version);
    lh_json_string(j, "counting", s == LH_GTK_ON ? "on" : "off");
    lh_json_string(j, "off_reason", s == LH_GTK_OFF ? off_reason : NULL);
    lh_json_u64(j, "classes_patched", lh_load_relaxed(&classes_patched));
    lh_json_u64(j, "slots_patched", lh_load_relaxed(&slots_patched));
    lh_json_u64(j, "wrapper_pool_exhausted", lh_load_relaxed(&pool_exhausted));
    lh_json_u64(j, "patch_skipped_busy", lh_load_relaxed(&patch_skipped_busy));
    lh_json_u64(j, "frame_clocks", lh_load_relaxed(&frame_clocks));
    lh_json_u64(j, "sweeps", lh_load_relaxed(&sweeps));
    lh_json_u64(j, "widgets_forgotten", lh_load_relaxed(&forgotten));
    lh_gtk_causes_summary(j);
    lh_vfunc_pools_summary(j, pools, P_COUNT);
    lh_json_end_object(j);
}
